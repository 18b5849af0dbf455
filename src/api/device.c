/* device.c - devices and their queries (API spec 4.2-4.3).
 *
 * The answers come from the machine (src/devices/cpu: cores, caches, memory)
 * and from what cpucl implements; features a later issue brings report 0 or
 * false here (images, pipes, on-device queues, sub-groups, partitioning,
 * native kernels, IL), as the spec allows a device to. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "api/api.h"

#define MAX_WORK_GROUP_SIZE 4096
#define MIB (1024ull * 1024ull)

size_t api_device_max_work_group_size(cl_device_id device)
{
    return MAX_WORK_GROUP_SIZE;
}

/* 4.2, table 4.3: at least max(1/4 of the global memory, 128 MiB). */
cl_ulong api_device_max_mem_alloc_size(cl_device_id device)
{
    cl_ulong global = cpu_device_topology(device->cpu)->global_mem_size;
    cl_ulong quarter = global / 4;
    cl_ulong size = quarter > 128 * MIB ? quarter : 128 * MIB;
    return size < global ? size : global;
}

/* The widest vector register the host has, in bytes: the natural width of
 * the work-item loop. */
static cl_uint simd_bytes(void)
{
    if (__builtin_cpu_supports("avx512f"))
        return 64;
    if (__builtin_cpu_supports("avx2"))
        return 32;
    return 16;
}

static char *extensions_text;

static void make_extensions_text(void)
{
    const char *compiler = cc_device_extensions();
    size_t size = strlen(compiler) + 32;
    extensions_text = malloc(size);
    if (extensions_text)
        snprintf(extensions_text, size, "cl_khr_icd cl_khr_il_program %s", compiler);
}

/* The compiler's OpenCL C extensions plus the runtime's own. */
static const char *device_extensions(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, make_extensions_text);
    return extensions_text ? extensions_text : "cl_khr_icd";
}

static const char *vendor_name(const char *vendor_id)
{
    if (!strcmp(vendor_id, "GenuineIntel"))
        return "Intel(R) Corporation";
    if (!strcmp(vendor_id, "AuthenticAMD"))
        return "Advanced Micro Devices, Inc.";
    return vendor_id;
}

static cl_uint vendor_number(const char *vendor_id)
{
    if (!strcmp(vendor_id, "GenuineIntel"))
        return 0x8086;
    if (!strcmp(vendor_id, "AuthenticAMD"))
        return 0x1022;
    return 0;
}

API_EXPORT CL_API_ENTRY cl_int CL_API_CALL
clGetDeviceIDs(cl_platform_id platform, cl_device_type device_type, cl_uint num_entries,
               cl_device_id *devices, cl_uint *num_devices)
{
    if (!platform)
        platform = rt_platform();
    if (!api_valid_platform(platform))
        return CL_INVALID_PLATFORM;
    const cl_device_type known = CL_DEVICE_TYPE_DEFAULT | CL_DEVICE_TYPE_CPU |
                                 CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_ACCELERATOR |
                                 CL_DEVICE_TYPE_CUSTOM;
    if (device_type != CL_DEVICE_TYPE_ALL && (device_type == 0 || (device_type & ~known)))
        return CL_INVALID_DEVICE_TYPE;
    if ((num_entries == 0 && devices) || (!devices && !num_devices))
        return CL_INVALID_VALUE;
    cl_device_id device = rt_root_device();
    if (!device || !(device_type & (CL_DEVICE_TYPE_CPU | CL_DEVICE_TYPE_DEFAULT)))
        return CL_DEVICE_NOT_FOUND;
    if (devices)
        devices[0] = device;
    if (num_devices)
        *num_devices = 1;
    return CL_SUCCESS;
}

API_EXPORT CL_API_ENTRY cl_int CL_API_CALL clRetainDevice(cl_device_id device)
{
    if (!api_valid_device(device))
        return CL_INVALID_DEVICE;
    if (device->parent) /* 4.3: root devices have no reference count to change */
        rt_object_retain(RT_OBJ(device));
    return CL_SUCCESS;
}

API_EXPORT CL_API_ENTRY cl_int CL_API_CALL clReleaseDevice(cl_device_id device)
{
    if (!api_valid_device(device))
        return CL_INVALID_DEVICE;
    if (device->parent)
        rt_object_release(RT_OBJ(device));
    return CL_SUCCESS;
}

API_EXPORT CL_API_ENTRY cl_int CL_API_CALL
clCreateSubDevices(cl_device_id device, const cl_device_partition_property *properties,
                   cl_uint num_devices, cl_device_id *out_devices, cl_uint *num_devices_ret)
{
    if (!api_valid_device(device))
        return CL_INVALID_DEVICE;
    if (!properties || (out_devices && num_devices == 0))
        return CL_INVALID_VALUE;
    /* 4.3: CL_INVALID_VALUE when the partition type is valid but not
     * supported; CL_DEVICE_PARTITION_PROPERTIES lists none yet. */
    return CL_INVALID_VALUE;
}

API_EXPORT CL_API_ENTRY cl_int CL_API_CALL
clGetDeviceInfo(cl_device_id device, cl_device_info param_name, size_t param_value_size,
                void *param_value, size_t *param_value_size_ret)
{
    if (!api_valid_device(device))
        return CL_INVALID_DEVICE;
    const struct cpu_topology *topo = cpu_device_topology(device->cpu);
    cl_uint u;
    cl_ulong ul;
    size_t sz;
    cl_bool b;
    cl_bitfield bits;

#define ANSWER(var, value) \
    do {                   \
        var = (value);     \
        return API_INFO(var); \
    } while (0)

    switch (param_name) {
    /* identity */
    case CL_DEVICE_TYPE: ANSWER(bits, device->type);
    case CL_DEVICE_VENDOR_ID: ANSWER(u, vendor_number(topo->vendor));
    case CL_DEVICE_NAME: return API_INFO_STRING(topo->name);
    case CL_DEVICE_VENDOR: return API_INFO_STRING(vendor_name(topo->vendor));
    case CL_DRIVER_VERSION: return API_INFO_STRING("0.1");
    case CL_DEVICE_PROFILE: return API_INFO_STRING("FULL_PROFILE");
    case CL_DEVICE_VERSION: return API_INFO_STRING("OpenCL 2.2 cpucl");
    case CL_DEVICE_OPENCL_C_VERSION: return API_INFO_STRING("OpenCL C 2.0 cpucl");
    case CL_DEVICE_EXTENSIONS: return API_INFO_STRING(device_extensions());
    case CL_DEVICE_PLATFORM: {
        cl_platform_id platform = rt_platform();
        return API_INFO(platform);
    }
    case CL_DEVICE_BUILT_IN_KERNELS: return API_INFO_STRING("");
    case CL_DEVICE_IL_VERSION: return API_INFO_STRING("SPIR-V_1.0 SPIR-V_1.1 SPIR-V_1.2");
    case CL_DEVICE_AVAILABLE:
    case CL_DEVICE_COMPILER_AVAILABLE:
    case CL_DEVICE_LINKER_AVAILABLE:
    case CL_DEVICE_ENDIAN_LITTLE:
    case CL_DEVICE_HOST_UNIFIED_MEMORY:
    case CL_DEVICE_PREFERRED_INTEROP_USER_SYNC:
        ANSWER(b, CL_TRUE);
    case CL_DEVICE_ERROR_CORRECTION_SUPPORT:
        ANSWER(b, CL_FALSE);

    /* compute */
    case CL_DEVICE_MAX_COMPUTE_UNITS: ANSWER(u, device->compute_units);
    case CL_DEVICE_MAX_CLOCK_FREQUENCY: ANSWER(u, topo->clock_mhz);
    case CL_DEVICE_ADDRESS_BITS: ANSWER(u, 64);
    case CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS: ANSWER(u, 3);
    case CL_DEVICE_MAX_WORK_GROUP_SIZE: ANSWER(sz, MAX_WORK_GROUP_SIZE);
    case CL_DEVICE_MAX_WORK_ITEM_SIZES: {
        size_t sizes[3] = {MAX_WORK_GROUP_SIZE, MAX_WORK_GROUP_SIZE, MAX_WORK_GROUP_SIZE};
        return API_INFO(sizes);
    }
    case CL_DEVICE_PROFILING_TIMER_RESOLUTION: ANSWER(sz, 1);
    case CL_DEVICE_EXECUTION_CAPABILITIES: ANSWER(bits, CL_EXEC_KERNEL);
    case CL_DEVICE_MAX_PARAMETER_SIZE: ANSWER(sz, 4096);
    case CL_DEVICE_PRINTF_BUFFER_SIZE: ANSWER(sz, 0); /* printf is missing */

    /* vector widths: as many lanes as the widest register holds */
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR:
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR: ANSWER(u, simd_bytes());
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT:
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_SHORT: ANSWER(u, simd_bytes() / 2);
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT:
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_INT:
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT:
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT: ANSWER(u, simd_bytes() / 4);
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG:
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_LONG:
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE:
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE: ANSWER(u, simd_bytes() / 8);
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF:
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF: ANSWER(u, 0); /* no cl_khr_fp16 */

    /* floating point */
    case CL_DEVICE_SINGLE_FP_CONFIG:
        ANSWER(bits, CL_FP_DENORM | CL_FP_INF_NAN | CL_FP_ROUND_TO_NEAREST | CL_FP_ROUND_TO_ZERO |
                         CL_FP_ROUND_TO_INF | CL_FP_FMA | CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT);
    case CL_DEVICE_DOUBLE_FP_CONFIG:
        ANSWER(bits, CL_FP_DENORM | CL_FP_INF_NAN | CL_FP_ROUND_TO_NEAREST | CL_FP_ROUND_TO_ZERO |
                         CL_FP_ROUND_TO_INF | CL_FP_FMA);
    case CL_DEVICE_HALF_FP_CONFIG: ANSWER(bits, 0);

    /* memory */
    case CL_DEVICE_GLOBAL_MEM_SIZE: ANSWER(ul, topo->global_mem_size);
    case CL_DEVICE_MAX_MEM_ALLOC_SIZE: ANSWER(ul, api_device_max_mem_alloc_size(device));
    case CL_DEVICE_MEM_BASE_ADDR_ALIGN: ANSWER(u, API_MEM_BASE_ADDR_ALIGN_BITS);
    case CL_DEVICE_MIN_DATA_TYPE_ALIGN_SIZE: ANSWER(u, 128);
    case CL_DEVICE_GLOBAL_MEM_CACHE_TYPE: {
        cl_device_mem_cache_type type = CL_READ_WRITE_CACHE;
        return API_INFO(type);
    }
    case CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE: ANSWER(u, topo->cache_line);
    case CL_DEVICE_GLOBAL_MEM_CACHE_SIZE:
        ANSWER(ul, topo->l3_cache_size ? topo->l3_cache_size : topo->l2_cache_size);
    case CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE: ANSWER(ul, 4 * MIB < topo->global_mem_size ? 4 * MIB : 64 * 1024);
    case CL_DEVICE_MAX_CONSTANT_ARGS: ANSWER(u, 8);
    case CL_DEVICE_LOCAL_MEM_TYPE: {
        cl_device_local_mem_type type = CL_GLOBAL;
        return API_INFO(type);
    }
    case CL_DEVICE_LOCAL_MEM_SIZE: ANSWER(ul, cpu_device_local_mem_size(device->cpu));
    case CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE:
    case CL_DEVICE_GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE: ANSWER(sz, 64 * MIB);
    case CL_DEVICE_SVM_CAPABILITIES:
        ANSWER(bits, CL_DEVICE_SVM_COARSE_GRAIN_BUFFER | CL_DEVICE_SVM_FINE_GRAIN_BUFFER |
                         CL_DEVICE_SVM_FINE_GRAIN_SYSTEM | CL_DEVICE_SVM_ATOMICS);
    case CL_DEVICE_PREFERRED_PLATFORM_ATOMIC_ALIGNMENT:
    case CL_DEVICE_PREFERRED_GLOBAL_ATOMIC_ALIGNMENT:
    case CL_DEVICE_PREFERRED_LOCAL_ATOMIC_ALIGNMENT: ANSWER(u, 0); /* natural alignment */

    /* 3.0 names for what every 2.x device has (the CTS asks them of 2.x
     * devices too): all memory orders and scopes of OpenCL C 2.0. */
    case CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES:
    case CL_DEVICE_ATOMIC_FENCE_CAPABILITIES:
        ANSWER(bits, CL_DEVICE_ATOMIC_ORDER_RELAXED | CL_DEVICE_ATOMIC_ORDER_ACQ_REL |
                         CL_DEVICE_ATOMIC_ORDER_SEQ_CST | CL_DEVICE_ATOMIC_SCOPE_WORK_ITEM |
                         CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP | CL_DEVICE_ATOMIC_SCOPE_DEVICE |
                         CL_DEVICE_ATOMIC_SCOPE_ALL_DEVICES);

    /* images: CL_DEVICE_IMAGE_SUPPORT is false until the images issue */
    case CL_DEVICE_IMAGE_SUPPORT: ANSWER(b, CL_FALSE);
    case CL_DEVICE_MAX_READ_IMAGE_ARGS:
    case CL_DEVICE_MAX_WRITE_IMAGE_ARGS:
    case CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS:
    case CL_DEVICE_MAX_SAMPLERS:
    case CL_DEVICE_IMAGE_PITCH_ALIGNMENT:
    case CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT: ANSWER(u, 0);
    case CL_DEVICE_IMAGE2D_MAX_WIDTH:
    case CL_DEVICE_IMAGE2D_MAX_HEIGHT:
    case CL_DEVICE_IMAGE3D_MAX_WIDTH:
    case CL_DEVICE_IMAGE3D_MAX_HEIGHT:
    case CL_DEVICE_IMAGE3D_MAX_DEPTH:
    case CL_DEVICE_IMAGE_MAX_BUFFER_SIZE:
    case CL_DEVICE_IMAGE_MAX_ARRAY_SIZE: ANSWER(sz, 0);

    /* queues */
    case CL_DEVICE_QUEUE_ON_HOST_PROPERTIES:
        ANSWER(bits, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE);
    case CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES: ANSWER(bits, 0); /* no device-side enqueue yet */
    case CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE:
    case CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE:
    case CL_DEVICE_MAX_ON_DEVICE_QUEUES:
    case CL_DEVICE_MAX_ON_DEVICE_EVENTS: ANSWER(u, 0);

    /* pipes, sub-groups: later issues */
    case CL_DEVICE_MAX_PIPE_ARGS:
    case CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS:
    case CL_DEVICE_PIPE_MAX_PACKET_SIZE:
    case CL_DEVICE_MAX_NUM_SUB_GROUPS: ANSWER(u, 0);
    case CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS: ANSWER(b, CL_FALSE);

    /* partitioning */
    case CL_DEVICE_PARENT_DEVICE: {
        cl_device_id parent = device->parent;
        return API_INFO(parent);
    }
    case CL_DEVICE_PARTITION_MAX_SUB_DEVICES: ANSWER(u, 0);
    case CL_DEVICE_PARTITION_PROPERTIES: {
        cl_device_partition_property none = 0; /* 4.2: one 0 when none is supported */
        return API_INFO(none);
    }
    case CL_DEVICE_PARTITION_AFFINITY_DOMAIN: ANSWER(bits, 0);
    case CL_DEVICE_PARTITION_TYPE:
        /* 4.2: size 0 for a device that is not a sub-device. */
        return api_info(param_value_size, param_value, param_value_size_ret, NULL, 0);
    case CL_DEVICE_REFERENCE_COUNT:
        ANSWER(u, device->parent ? atomic_load(&device->obj.refcount) : 1);
    default:
        return CL_INVALID_VALUE;
    }
#undef ANSWER
}
