/* external_memory.c - buffers and images over another API's memory
 * (cl_khr_external_memory, cl_khr_external_memory_dma_buf): the memory
 * properties of clCreateBufferWithProperties and clCreateImageWithProperties,
 * the mapping of a Linux dma_buf, and the acquire and release commands.
 *
 * The device is the host's CPU, so importing a dma_buf is mapping it
 * (mmap of its file descriptor, MAP_SHARED): the memory object's storage
 * is the other API's memory itself. The import takes the descriptor over
 * (the extension: "importing memory from a file descriptor transfers
 * ownership of the file descriptor from the application to the OpenCL
 * implementation"); the memory object unmaps and closes it when it goes
 * (runtime/lifecycle.c). The acquire and release commands bracket the
 * kernels' use of the memory with the dma_buf's DMA_BUF_IOCTL_SYNC start
 * and end, which an exporter whose CPU view needs its caches kept uses;
 * other descriptors (a memfd, say) take no such call and need none.
 */
#include <errno.h>
#include <linux/dma-buf.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "api/api.h"

static bool in_context(cl_context context, cl_device_id device)
{
    for (cl_uint i = 0; i < context->num_devices; i++)
        if (context->devices[i] == device)
            return true;
    return false;
}

/* 3.0 5.2.1 (clCreateBufferWithProperties) and the extension's table of
 * properties: CL_MEM_DEVICE_PRIVATE_ADDRESS_EXT (buffers only, a cl_bool),
 * a dma_buf's descriptor, CL_DEVICE_HANDLE_LIST_KHR (devices of the
 * context, ended by CL_DEVICE_HANDLE_LIST_END_KHR); each at most once.
 * "CL_INVALID_PROPERTY if a property name in properties is not a supported
 * property name, if the value specified for a supported property is not
 * valid, or if the same property name is specified more than once". */
cl_int api_read_mem_properties(cl_context context, const cl_mem_properties *properties,
                               bool is_buffer, struct api_mem_properties *out)
{
    *out = (struct api_mem_properties){.external_fd = -1};
    if (!properties)
        return CL_SUCCESS;
    bool seen_address = false, seen_handle = false, seen_list = false;
    size_t i = 0;
    while (properties[i]) {
        cl_mem_properties name = properties[i], value = properties[i + 1];
        switch (name) {
        case CL_MEM_DEVICE_PRIVATE_ADDRESS_EXT:
            if (!is_buffer || seen_address || (value != CL_TRUE && value != CL_FALSE))
                return CL_INVALID_PROPERTY;
            seen_address = true;
            out->device_address = value == CL_TRUE;
            i += 2;
            break;
        case CL_EXTERNAL_MEMORY_HANDLE_DMA_BUF_KHR:
            if (seen_handle || value > INT32_MAX)
                return CL_INVALID_PROPERTY;
            seen_handle = true;
            out->external_fd = (int)value;
            i += 2;
            break;
        case CL_DEVICE_HANDLE_LIST_KHR:
            if (seen_list)
                return CL_INVALID_PROPERTY;
            seen_list = true;
            for (i++; properties[i] != CL_DEVICE_HANDLE_LIST_END_KHR; i++) {
                cl_device_id device = (cl_device_id)(uintptr_t)properties[i];
                if (!api_valid_device(device) || !in_context(context, device))
                    return CL_INVALID_DEVICE;
            }
            i++;
            break;
        default: return CL_INVALID_PROPERTY;
        }
    }
    /* the extension: a device list goes with an external handle */
    if (seen_list && !seen_handle)
        return CL_INVALID_PROPERTY;
    out->count = i + 1;
    return CL_SUCCESS;
}

/* Whether `device` may use a memory object made with these properties:
 * any device of its context unless CL_DEVICE_HANDLE_LIST_KHR names some. */
static bool listed(const cl_mem_properties *properties, size_t count, cl_device_id device)
{
    for (size_t i = 0; i + 1 < count && properties[i];) {
        if (properties[i] != CL_DEVICE_HANDLE_LIST_KHR) {
            i += 2;
            continue;
        }
        for (i++; properties[i] != CL_DEVICE_HANDLE_LIST_END_KHR; i++)
            if ((cl_device_id)(uintptr_t)properties[i] == device)
                return true;
        return false;
    }
    return true;
}

/* The extension: no host pointer and none of the flags about one. */
cl_int api_check_external_flags(cl_mem_flags flags, const void *host_ptr)
{
    if (flags & (CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR))
        return CL_INVALID_VALUE;
    if (host_ptr)
        return CL_INVALID_HOST_PTR;
    return CL_SUCCESS;
}

/* Maps `size` bytes of the dma_buf `fd` as mem's storage; `too_big` is the
 * error when its payload is smaller. The memory object owns the descriptor
 * from here (lifecycle.c unmaps and closes it). */
cl_int api_map_external(cl_mem mem, int fd, size_t size, cl_int too_big)
{
    off_t payload = lseek(fd, 0, SEEK_END);
    if (payload < 0 && errno == EBADF)
        return CL_INVALID_PROPERTY;
    if (payload >= 0) {
        lseek(fd, 0, SEEK_SET);
        if ((uint64_t)payload < size)
            return too_big;
    }
    void *pixels = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (pixels == MAP_FAILED)
        return errno == ENOMEM ? CL_MEM_OBJECT_ALLOCATION_FAILURE : CL_INVALID_PROPERTY;
    mem->storage = pixels;
    mem->external_fd = fd;
    mem->mapped_size = size;
    mem->internal_flags |= RT_MEM_EXTERNAL;
    return CL_SUCCESS;
}

/* --- acquire and release --- */

struct sync_call {
    __u64 flags; /* DMA_BUF_SYNC_START or _END, with _RW */
    cl_uint count;
    cl_mem mems[];
};

/* On a worker when the command runs: the dma_buf's view for the CPU begins
 * or ends. A descriptor that is no dma_buf answers ENOTTY: nothing to do. */
static void sync_external(void *arg)
{
    const struct sync_call *call = arg;
    for (cl_uint i = 0; i < call->count; i++) {
        struct dma_buf_sync sync = {.flags = call->flags};
        while (ioctl(call->mems[i]->external_fd, DMA_BUF_IOCTL_SYNC, &sync) < 0 &&
               (errno == EINTR || errno == EAGAIN))
            ;
    }
}

static cl_int enqueue_sync(cl_command_queue queue, cl_command_type type, __u64 flags,
                           cl_uint num_mem_objects, const cl_mem *mem_objects, cl_uint num_events,
                           const cl_event *wait_list, cl_event *event)
{
    if (!api_valid_queue(queue))
        return CL_INVALID_COMMAND_QUEUE;
    if ((num_mem_objects == 0) != (mem_objects == NULL))
        return CL_INVALID_VALUE;
    for (cl_uint i = 0; i < num_mem_objects; i++) {
        cl_mem mem = mem_objects[i];
        if (!api_valid_mem(mem) || !(mem->internal_flags & RT_MEM_EXTERNAL))
            return CL_INVALID_MEM_OBJECT;
        if (mem->context != queue->context ||
            !listed(mem->properties, mem->num_properties, queue->device))
            return CL_INVALID_COMMAND_QUEUE;
    }
    cl_int err = api_check_wait_list(queue->context, num_events, wait_list);
    if (err)
        return err;
    struct sync_call *call = malloc(sizeof *call + num_mem_objects * sizeof(cl_mem));
    cl_mem *held = num_mem_objects ? malloc(num_mem_objects * sizeof *held) : NULL;
    struct rt_command *command =
        call && (held || !num_mem_objects) ? rt_command_create(queue, type) : NULL;
    if (!command) {
        free(call);
        free(held);
        return CL_OUT_OF_HOST_MEMORY;
    }
    call->flags = flags | DMA_BUF_SYNC_RW;
    call->count = num_mem_objects;
    for (cl_uint i = 0; i < num_mem_objects; i++) {
        call->mems[i] = held[i] = mem_objects[i];
        rt_object_hold(RT_OBJ(held[i]));
    }
    /* the objects stay until the command has run (command.c lets go of
     * them) */
    command->kernel_mems = held;
    command->num_kernel_mems = num_mem_objects;
    api_set_call_job(command, sync_external, call);
    return api_submit(command, num_events, wait_list, event, CL_FALSE);
}

API_EXPORT CL_API_ENTRY cl_int CL_API_CALL clEnqueueAcquireExternalMemObjectsKHR(
    cl_command_queue queue, cl_uint num_mem_objects, const cl_mem *mem_objects, cl_uint num_events,
    const cl_event *wait_list, cl_event *event)
{
    return enqueue_sync(queue, CL_COMMAND_ACQUIRE_EXTERNAL_MEM_OBJECTS_KHR, DMA_BUF_SYNC_START,
                        num_mem_objects, mem_objects, num_events, wait_list, event);
}

API_EXPORT CL_API_ENTRY cl_int CL_API_CALL clEnqueueReleaseExternalMemObjectsKHR(
    cl_command_queue queue, cl_uint num_mem_objects, const cl_mem *mem_objects, cl_uint num_events,
    const cl_event *wait_list, cl_event *event)
{
    return enqueue_sync(queue, CL_COMMAND_RELEASE_EXTERNAL_MEM_OBJECTS_KHR, DMA_BUF_SYNC_END,
                        num_mem_objects, mem_objects, num_events, wait_list, event);
}
