/* platform.c - the one platform and its root CPU device. They live for the
 * whole process; their reference counts never reach zero. */
#include <pthread.h>

#include "runtime/runtime.h"

static cl_platform_id platform;
static cl_device_id root_device;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void create(void)
{
    rt_device_enqueue_init();
    platform = rt_object_create(RT_PLATFORM, sizeof *platform);
    struct cpu_device *cpu = cpu_device_get();
    if (!platform || !cpu)
        return;
    root_device = rt_object_create(RT_DEVICE, sizeof *root_device);
    if (!root_device)
        return;
    root_device->cpu = cpu;
    root_device->type = CL_DEVICE_TYPE_CPU;
    root_device->compute_units = cpu_device_workers(cpu);
}

cl_platform_id rt_platform(void)
{
    pthread_once(&once, create);
    return platform;
}

cl_device_id rt_root_device(void)
{
    pthread_once(&once, create);
    return root_device;
}
