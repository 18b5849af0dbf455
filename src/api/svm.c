/* svm.c - shared virtual memory (API spec 5.6).
 *
 * The device is the host's own CPUs, so every kind of SVM comes for free:
 * an SVM allocation is ordinary memory the kernel reads through the same
 * pointer, fine-grained sharing holds because the caches are coherent, and
 * SVM atomics are the CPU's atomics. The device therefore reports coarse-
 * and fine-grain buffer SVM, fine-grain system SVM and atomics; map, unmap
 * and migrate only order commands.
 */
#include <stdlib.h>

#include "api/api.h"

/* The largest alignment clSVMAlloc honours: the size of long16. */
#define SVM_MAX_ALIGNMENT 128

static struct rt_svm_allocation *find_allocation(cl_context context, const void *pointer)
{
    const char *p = pointer;
    for (struct rt_svm_allocation *a = context->svm_allocations; a; a = a->next)
        if (p >= a->pointer && p < a->pointer + a->size)
            return a;
    return NULL;
}

size_t api_svm_room(cl_context context, const void *pointer)
{
    pthread_mutex_lock(&context->lock);
    struct rt_svm_allocation *a = find_allocation(context, pointer);
    size_t room = a ? (size_t)(a->pointer + a->size - (const char *)pointer) : 0;
    pthread_mutex_unlock(&context->lock);
    return room;
}

API_EXPORT CL_API_ENTRY void *CL_API_CALL
clSVMAlloc(cl_context context, cl_svm_mem_flags flags, size_t size, cl_uint alignment)
{
    if (!api_valid_context(context))
        return NULL;
    const cl_svm_mem_flags access = CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY;
    const cl_svm_mem_flags known = access | CL_MEM_SVM_FINE_GRAIN_BUFFER | CL_MEM_SVM_ATOMICS;
    /* 5.6.1: one access flag at most; atomics only with fine grain. */
    if ((flags & ~known) || ((flags & access) & ((flags & access) - 1)) ||
        ((flags & CL_MEM_SVM_ATOMICS) && !(flags & CL_MEM_SVM_FINE_GRAIN_BUFFER)))
        return NULL;
    if (size == 0 || size > api_device_max_mem_alloc_size(context->devices[0]))
        return NULL;
    if ((alignment & (alignment - 1)) || alignment > SVM_MAX_ALIGNMENT)
        return NULL;
    struct rt_svm_allocation *allocation = malloc(sizeof *allocation);
    char *pointer = rt_alloc_storage(size, SVM_MAX_ALIGNMENT);
    if (!allocation || !pointer) {
        free(allocation);
        rt_free_storage(pointer);
        return NULL;
    }
    allocation->pointer = pointer;
    allocation->size = size;
    pthread_mutex_lock(&context->lock);
    allocation->next = context->svm_allocations;
    context->svm_allocations = allocation;
    pthread_mutex_unlock(&context->lock);
    return pointer;
}

static void svm_free(cl_context context, void *pointer)
{
    struct rt_svm_allocation **link, *found = NULL;
    pthread_mutex_lock(&context->lock);
    for (link = &context->svm_allocations; *link; link = &(*link)->next) {
        if ((*link)->pointer == pointer) {
            found = *link;
            *link = found->next;
            break;
        }
    }
    pthread_mutex_unlock(&context->lock);
    /* 5.6.1: a pointer clSVMAlloc did not return (for this context) is left
     * alone rather than passed to free(). */
    if (found) {
        rt_free_storage(found->pointer);
        free(found);
    }
}

API_EXPORT CL_API_ENTRY void CL_API_CALL clSVMFree(cl_context context, void *svm_pointer)
{
    if (api_valid_context(context) && svm_pointer)
        svm_free(context, svm_pointer);
}

struct svm_free_call {
    cl_command_queue queue;
    cl_uint count;
    void **pointers;
    void (CL_CALLBACK *free_func)(cl_command_queue, cl_uint, void *[], void *);
    void *user_data;
};

static void run_svm_free(void *arg)
{
    struct svm_free_call *call = arg;
    if (call->free_func) {
        call->free_func(call->queue, call->count, call->pointers, call->user_data);
    } else {
        for (cl_uint i = 0; i < call->count; i++)
            svm_free(call->queue->context, call->pointers[i]);
    }
    free(call->pointers);
}

API_EXPORT CL_API_ENTRY cl_int CL_API_CALL
clEnqueueSVMFree(cl_command_queue queue, cl_uint num_svm_pointers, void *svm_pointers[],
                 void (CL_CALLBACK *pfn_free_func)(cl_command_queue, cl_uint, void *[], void *),
                 void *user_data, cl_uint num_events, const cl_event *wait_list, cl_event *event)
{
    if (!api_valid_queue(queue))
        return CL_INVALID_COMMAND_QUEUE;
    if ((num_svm_pointers == 0) != (svm_pointers == NULL))
        return CL_INVALID_VALUE;
    for (cl_uint i = 0; i < num_svm_pointers; i++)
        if (!svm_pointers[i])
            return CL_INVALID_VALUE;
    cl_int err = api_check_wait_list(queue->context, num_events, wait_list);
    if (err)
        return err;
    struct svm_free_call *call = calloc(1, sizeof *call);
    void **pointers = malloc((num_svm_pointers ? num_svm_pointers : 1) * sizeof *pointers);
    struct rt_command *command =
        call && pointers ? rt_command_create(queue, CL_COMMAND_SVM_FREE) : NULL;
    if (!command) {
        free(call);
        free(pointers);
        return CL_OUT_OF_HOST_MEMORY;
    }
    /* The list is copied: the application may reuse its array at once. */
    memcpy(pointers, svm_pointers, num_svm_pointers * sizeof *pointers);
    *call = (struct svm_free_call){queue, num_svm_pointers, pointers, pfn_free_func, user_data};
    api_set_call_job(command, run_svm_free, call);
    return api_submit(command, num_events, wait_list, event, CL_FALSE);
}

static int ranges_overlap(const char *a, const char *b, size_t size)
{
    return a < b + size && b < a + size;
}

cl_int api_build_svm_memcpy(cl_command_queue queue, void *dst, const void *src, size_t size,
                            cl_uint num_events, const cl_event *wait_list, struct rt_command **out)
{
    if (!api_valid_queue(queue))
        return CL_INVALID_COMMAND_QUEUE;
    /* A range past the end of the address space is no memory at all. */
    if (!dst || !src || api_past_address_space(dst, size) ||
        api_past_address_space(src, size))
        return CL_INVALID_VALUE;
    cl_int err = api_check_wait_list(queue->context, num_events, wait_list);
    if (err)
        return err;
    if (ranges_overlap(dst, src, size))
        return CL_MEM_COPY_OVERLAP;
    struct rt_command *command = rt_command_create(queue, CL_COMMAND_SVM_MEMCPY);
    if (!command)
        return CL_OUT_OF_HOST_MEMORY;
    command->has_job = true;
    command->job.kind = CPU_JOB_COPY;
    command->job.u.copy = (struct cpu_copy){.dst = dst, .src = src, .row_bytes = size,
                                            .rows = 1, .slices = 1};
    *out = command;
    return CL_SUCCESS;
}

API_EXPORT CL_API_ENTRY cl_int CL_API_CALL
clEnqueueSVMMemcpy(cl_command_queue queue, cl_bool blocking, void *dst, const void *src,
                   size_t size, cl_uint num_events, const cl_event *wait_list, cl_event *event)
{
    struct rt_command *command = NULL;
    cl_int err = api_build_svm_memcpy(queue, dst, src, size, num_events, wait_list, &command);
    return api_submit_built(err, command, num_events, wait_list, event, blocking);
}

cl_int api_build_svm_memfill(cl_command_queue queue, void *svm_ptr, const void *pattern,
                             size_t pattern_size, size_t size, cl_uint num_events,
                             const cl_event *wait_list, struct rt_command **out)
{
    if (!api_valid_queue(queue))
        return CL_INVALID_COMMAND_QUEUE;
    /* 5.6.2: the pattern is 1..128 bytes, a power of two; the pointer and
     * the size are multiples of it. */
    if (!svm_ptr || !pattern || pattern_size == 0 || pattern_size > 128 ||
        (pattern_size & (pattern_size - 1)) || (uintptr_t)svm_ptr % pattern_size ||
        size % pattern_size || api_past_address_space(svm_ptr, size))
        return CL_INVALID_VALUE;
    cl_int err = api_check_wait_list(queue->context, num_events, wait_list);
    if (err)
        return err;
    struct rt_command *command = rt_command_create(queue, CL_COMMAND_SVM_MEMFILL);
    if (!command)
        return CL_OUT_OF_HOST_MEMORY;
    command->has_job = true;
    command->job.kind = CPU_JOB_FILL;
    command->job.u.fill.dst = svm_ptr;
    command->job.u.fill.size = size;
    command->job.u.fill.pattern_size = pattern_size;
    memcpy(command->job.u.fill.pattern, pattern, pattern_size);
    *out = command;
    return CL_SUCCESS;
}

API_EXPORT CL_API_ENTRY cl_int CL_API_CALL
clEnqueueSVMMemFill(cl_command_queue queue, void *svm_ptr, const void *pattern, size_t pattern_size,
                    size_t size, cl_uint num_events, const cl_event *wait_list, cl_event *event)
{
    struct rt_command *command = NULL;
    cl_int err = api_build_svm_memfill(queue, svm_ptr, pattern, pattern_size, size, num_events,
                                       wait_list, &command);
    return api_submit_built(err, command, num_events, wait_list, event, CL_FALSE);
}

API_EXPORT CL_API_ENTRY cl_int CL_API_CALL
clEnqueueSVMMap(cl_command_queue queue, cl_bool blocking, cl_map_flags flags, void *svm_ptr,
                size_t size, cl_uint num_events, const cl_event *wait_list, cl_event *event)
{
    if (!api_valid_queue(queue))
        return CL_INVALID_COMMAND_QUEUE;
    const cl_map_flags known = CL_MAP_READ | CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION;
    if (!svm_ptr || size == 0 || (flags & ~known) ||
        ((flags & CL_MAP_WRITE_INVALIDATE_REGION) && (flags & (CL_MAP_READ | CL_MAP_WRITE))))
        return CL_INVALID_VALUE;
    return api_enqueue_no_work(queue, CL_COMMAND_SVM_MAP, false, blocking, num_events, wait_list, event);
}

API_EXPORT CL_API_ENTRY cl_int CL_API_CALL
clEnqueueSVMUnmap(cl_command_queue queue, void *svm_ptr, cl_uint num_events,
                  const cl_event *wait_list, cl_event *event)
{
    if (!api_valid_queue(queue))
        return CL_INVALID_COMMAND_QUEUE;
    if (!svm_ptr)
        return CL_INVALID_VALUE;
    return api_enqueue_no_work(queue, CL_COMMAND_SVM_UNMAP, false, CL_FALSE, num_events, wait_list, event);
}

API_EXPORT CL_API_ENTRY cl_int CL_API_CALL
clEnqueueSVMMigrateMem(cl_command_queue queue, cl_uint num_svm_pointers,
                       const void **svm_pointers, const size_t *sizes,
                       cl_mem_migration_flags flags, cl_uint num_events,
                       const cl_event *wait_list, cl_event *event)
{
    if (!api_valid_queue(queue))
        return CL_INVALID_COMMAND_QUEUE;
    if (num_svm_pointers == 0 || !svm_pointers ||
        (flags & ~(cl_mem_migration_flags)(CL_MIGRATE_MEM_OBJECT_HOST |
                                           CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED)))
        return CL_INVALID_VALUE;
    for (cl_uint i = 0; i < num_svm_pointers; i++)
        if (!svm_pointers[i])
            return CL_INVALID_VALUE;
    return api_enqueue_no_work(queue, CL_COMMAND_SVM_MIGRATE_MEM, false, CL_FALSE, num_events, wait_list,
                            event);
}

API_EXPORT CL_API_ENTRY cl_int CL_API_CALL
clSetKernelArgSVMPointer(cl_kernel kernel, cl_uint arg_index, const void *arg_value)
{
    if (!api_valid_kernel(kernel))
        return CL_INVALID_KERNEL;
    if (arg_index >= kernel->info->num_args)
        return CL_INVALID_ARG_INDEX;
    if (kernel->info->args[arg_index].kind != CC_ARG_BUFFER)
        return CL_INVALID_ARG_VALUE;
    struct rt_kernel_arg *state = &kernel->args[arg_index];
    state->mem = NULL;
    state->is_svm = true;
    state->svm_pointer = (void *)arg_value;
    state->set = true;
    return CL_SUCCESS;
}

/* cl_ext_buffer_device_address: a buffer's device address (any value:
 * the kernel may not dereference it) as a global pointer argument. */
cl_int CL_API_CALL api_set_kernel_arg_device_pointer(cl_kernel kernel, cl_uint arg_index,
                                                     cl_mem_device_address_ext arg_value)
{
    if (!api_valid_kernel(kernel))
        return CL_INVALID_KERNEL;
    if (arg_index >= kernel->info->num_args ||
        kernel->info->args[arg_index].kind != CC_ARG_BUFFER ||
        kernel->info->args[arg_index].address_qualifier != CL_KERNEL_ARG_ADDRESS_GLOBAL)
        return CL_INVALID_ARG_INDEX;
    struct rt_kernel_arg *state = &kernel->args[arg_index];
    state->mem = NULL;
    state->is_svm = true;
    state->svm_pointer = (void *)(uintptr_t)arg_value;
    state->set = true;
    return CL_SUCCESS;
}

API_EXPORT CL_API_ENTRY cl_int CL_API_CALL
clSetKernelExecInfo(cl_kernel kernel, cl_kernel_exec_info param_name, size_t param_value_size,
                    const void *param_value)
{
    if (!api_valid_kernel(kernel))
        return CL_INVALID_KERNEL;
    switch (param_name) {
    case CL_KERNEL_EXEC_INFO_SVM_PTRS:
        /* Names SVM memory the kernel reaches through other pointers (an
         * empty list clears it); on the host's own memory every such
         * pointer is already usable. */
        if (param_value_size % sizeof(void *) || (param_value_size && !param_value))
            return CL_INVALID_VALUE;
        return CL_SUCCESS;
    case CL_KERNEL_EXEC_INFO_DEVICE_PTRS_EXT:
        /* cl_ext_buffer_device_address: buffers the kernel reaches through
         * device addresses not passed as arguments; they are host memory,
         * reachable as they are */
        if (param_value_size % sizeof(cl_mem_device_address_ext) ||
            (param_value_size && !param_value))
            return CL_INVALID_VALUE;
        return CL_SUCCESS;
    case CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM:
        /* The device supports fine-grain system SVM, so both values are
         * honoured as they are. */
        if (param_value_size != sizeof(cl_bool) || !param_value)
            return CL_INVALID_VALUE;
        return CL_SUCCESS;
    default:
        return CL_INVALID_VALUE;
    }
}
