/* enqueue_kernel.c - clEnqueueNDRangeKernel, clEnqueueTask and
 * clEnqueueNativeKernel (API spec 5.10). */
#include <stdlib.h>
#include <string.h>

#include "api/api.h"

#define MAX_WORK_ITEM_SIZE 4096

static size_t largest_divisor_at_most(size_t n, size_t limit)
{
    for (size_t d = limit < n ? limit : n; d > 1; d--)
        if (n % d == 0)
            return d;
    return 1;
}

/* 5.10: with local_work_size NULL the runtime picks the work-group size.
 * Big groups amortise the per-group cost; enough groups keep every worker
 * busy. Sizes divide the global size, except that a program allowed
 * non-uniform groups gets a whole SIMD multiple instead of a tiny divisor. */
static void choose_local_size(cl_kernel kernel, cl_device_id device, cl_uint work_dim,
                              const size_t *global, size_t *local)
{
    size_t total = 1;
    for (cl_uint d = 0; d < work_dim; d++)
        total *= global[d];
    size_t workers = device->compute_units ? device->compute_units : 1;
    size_t budget = total / (workers * 8);
    size_t max = api_device_max_work_group_size(device);
    if (budget > max)
        budget = max;
    if (budget < 1)
        budget = 1;
    for (cl_uint d = 0; d < work_dim; d++) {
        size_t size = largest_divisor_at_most(global[d], budget);
        if (kernel->program->non_uniform && size < 16 && global[d] >= 64 && budget >= 16)
            size = 16;
        local[d] = size;
        budget /= size;
        if (budget < 1)
            budget = 1;
    }
}

static cl_int check_local_size(cl_kernel kernel, cl_device_id device, cl_uint work_dim,
                               const size_t *global, const size_t *local)
{
    const size_t *reqd = kernel->info->reqd_work_group_size;
    size_t product = 1;
    for (cl_uint d = 0; d < work_dim; d++) {
        if (local[d] == 0)
            return CL_INVALID_WORK_GROUP_SIZE;
        if (reqd[0] && local[d] != reqd[d])
            return CL_INVALID_WORK_GROUP_SIZE;
        /* 5.10: uniform groups unless the program may use non-uniform ones. */
        if (global[d] % local[d] && !kernel->program->non_uniform)
            return CL_INVALID_WORK_GROUP_SIZE;
        product *= local[d];
    }
    /* 5.10: dimensions past work_dim have local size 1, which a
     * reqd_work_group_size must match too. */
    for (cl_uint d = work_dim; d < 3; d++)
        if (reqd[0] && reqd[d] != 1)
            return CL_INVALID_WORK_GROUP_SIZE;
    if (product > api_device_max_work_group_size(device))
        return CL_INVALID_WORK_GROUP_SIZE;
    for (cl_uint d = 0; d < work_dim; d++)
        if (local[d] > MAX_WORK_ITEM_SIZE)
            return CL_INVALID_WORK_ITEM_SIZE;
    return CL_SUCCESS;
}

/* What this launch fixes for a copy of the kernel (compiler.h): the
 * enqueued local size; the image arguments' format when they share one;
 * the sampler arguments' bits when they agree; the large buffers; whether
 * the global offset is 0. */
static void launch_facts(cl_kernel kernel, cl_device_id device, const size_t *local,
                         const size_t *offset, struct cc_launch_facts *facts)
{
    const struct cpu_topology *topology = cpu_device_topology(device->cpu);
    size_t cache = topology ? (size_t)topology->l3_cache_size : 0;
    const struct cc_kernel_info *info = kernel->info;
    memset(facts, 0, sizeof *facts);
    for (int d = 0; d < 3; d++)
        facts->local_size[d] = local[d];
    facts->no_global_offset = !offset[0] && !offset[1] && !offset[2];
    bool first_image = true, first_sampler = true;
    for (unsigned i = 0; i < info->num_args; i++) {
        const struct cc_arg_info *arg = &info->args[i];
        const struct rt_kernel_arg *state = &kernel->args[i];
        /* a buffer past the last-level cache: what a kernel writes there is
         * not read again from a cache (SVM pointers: size unknown); on a
         * cache line, as buffers are unless made over an application's
         * memory, so vector stores through it can be proved aligned */
        if (arg->kind == CC_ARG_BUFFER && i < 32 && cache && !state->is_svm && state->mem &&
            state->mem->size > cache && (uintptr_t)state->mem->storage % CC_STREAMING_ALIGN == 0)
            facts->streaming_args |= 1u << i;
        if (arg->kind == CC_ARG_IMAGE) {
            const struct cc_image *image = &kernel->args[i].mem->image;
            if (first_image) {
                facts->images_alike = 1;
                facts->image_order = image->channel_order;
                facts->image_type = image->channel_data_type;
                facts->image_element_size = image->element_size;
            } else if (image->channel_order != facts->image_order ||
                       image->channel_data_type != facts->image_type) {
                facts->images_alike = 0;
            }
            first_image = false;
        } else if (arg->kind == CC_ARG_SAMPLER) {
            uint64_t bits = 0;
            memcpy(&bits, kernel->arg_block + arg->offset,
                   arg->size < sizeof bits ? arg->size : sizeof bits);
            if (first_sampler) {
                facts->samplers_alike = 1;
                facts->sampler_bits = (uint32_t)(bits & CC_SAMPLER_BITS_MASK);
            } else if ((uint32_t)(bits & CC_SAMPLER_BITS_MASK) != facts->sampler_bits) {
                facts->samplers_alike = 0;
            }
            first_sampler = false;
        }
    }
    if (!facts->images_alike)
        facts->image_order = facts->image_type = facts->image_element_size = 0;
    if (!facts->samplers_alike)
        facts->sampler_bits = 0;
}

/* The argument block of one launch: the kernel's values with buffers
 * replaced by their storage and __local arguments by arena offsets. */
static cl_int bind_arguments(cl_kernel kernel, struct rt_command *command)
{
    const struct cc_kernel_info *info = kernel->info;
    unsigned char *block = malloc(info->arg_block_size ? info->arg_block_size : 1);
    cl_mem *mems = calloc(info->num_args ? info->num_args : 1, sizeof *mems);
    if (!block || !mems) {
        free(block);
        free(mems);
        return CL_OUT_OF_HOST_MEMORY;
    }
    memcpy(block, kernel->arg_block, info->arg_block_size);
    size_t local_offset = info->local_mem_size;
    for (unsigned i = 0; i < info->num_args; i++) {
        const struct cc_arg_info *arg = &info->args[i];
        const struct rt_kernel_arg *state = &kernel->args[i];
        if (arg->kind == CC_ARG_BUFFER || arg->kind == CC_ARG_PIPE) {
            void *pointer = state->is_svm ? state->svm_pointer
                            : state->mem  ? state->mem->storage
                                          : NULL;
            memcpy(block + arg->offset, &pointer, sizeof pointer);
            if (state->mem) {
                mems[command->num_kernel_mems++] = state->mem;
                rt_object_hold(RT_OBJ(state->mem));
            }
        } else if (arg->kind == CC_ARG_IMAGE) {
            const struct cc_image *image = &state->mem->image;
            memcpy(block + arg->offset, &image, sizeof image);
            mems[command->num_kernel_mems++] = state->mem;
            rt_object_hold(RT_OBJ(state->mem));
        } else if (arg->kind == CC_ARG_LOCAL) {
            local_offset = (local_offset + 127) & ~(size_t)127;
            memcpy(block + arg->offset, &local_offset, sizeof local_offset);
            local_offset += state->local_size;
        }
    }
    command->owned = block;
    command->kernel_mems = mems;
    command->kernel = kernel;
    rt_object_hold(RT_OBJ(kernel));
    command->job.u.kernel.arg_block = block;
    command->job.u.kernel.local_mem_size = local_offset;
    return CL_SUCCESS;
}

cl_int api_build_ndrange_kernel(cl_command_queue queue, cl_kernel kernel, cl_uint work_dim,
                                const size_t *global_work_offset, const size_t *global_work_size,
                                const size_t *local_work_size, cl_uint num_events,
                                const cl_event *wait_list, unsigned use, struct rt_command **out)
{
    if (!api_valid_queue(queue))
        return CL_INVALID_COMMAND_QUEUE;
    if (!api_valid_kernel(kernel))
        return CL_INVALID_KERNEL;
    if (kernel->program->context != queue->context)
        return CL_INVALID_CONTEXT;
    bool args_set = true;
    for (unsigned i = 0; i < kernel->info->num_args; i++)
        args_set &= kernel->args[i].set;
    if (!args_set && !(use & API_LAUNCH_ARGS_LATER))
        return CL_INVALID_KERNEL_ARGS;
    if (work_dim < 1 || work_dim > 3)
        return CL_INVALID_WORK_DIMENSION;
    size_t offset[3] = {0, 0, 0}, global[3] = {1, 1, 1}, local[3] = {1, 1, 1};
    /* 5.10 (2.1+): a NULL global size, like a zero in any dimension, is a
     * command that runs no work-item. */
    int empty = global_work_size == NULL;
    for (cl_uint d = 0; d < work_dim; d++) {
        global[d] = global_work_size ? global_work_size[d] : 0;
        offset[d] = global_work_offset ? global_work_offset[d] : 0;
        empty |= global[d] == 0;
        /* 5.10: offset + size must fit in size_t. */
        if (global[d] + offset[d] < global[d])
            return CL_INVALID_GLOBAL_OFFSET;
    }
    /* Each size fits in size_t, but the range's work-items must too: their
     * count (and get_global_linear_id) is a size_t, and the device counts
     * its work-groups in one. A range of 2^66 items is no launch this
     * device can queue (5.10: CL_OUT_OF_RESOURCES). */
    size_t items;
    if (!empty && (__builtin_mul_overflow(global[0], global[1], &items) ||
                   __builtin_mul_overflow(items, global[2], &items)))
        return CL_OUT_OF_RESOURCES;
    cl_int err;
    if (local_work_size) {
        for (cl_uint d = 0; d < work_dim; d++)
            local[d] = local_work_size[d];
        if (!empty && (err = check_local_size(kernel, queue->device, work_dim, global, local)))
            return err;
    } else if (kernel->info->reqd_work_group_size[0]) {
        for (cl_uint d = 0; d < work_dim; d++)
            local[d] = kernel->info->reqd_work_group_size[d];
        if (!empty && (err = check_local_size(kernel, queue->device, work_dim, global, local)))
            return err;
    } else if (!empty) {
        choose_local_size(kernel, queue->device, work_dim, global, local);
    }
    if ((err = api_check_wait_list(queue->context, num_events, wait_list)))
        return err;
    if (api_kernel_local_mem_size(kernel) > cpu_device_local_mem_size(queue->device->cpu))
        return CL_OUT_OF_RESOURCES;
    if (!args_set) {
        *out = NULL; /* checked; built once the arguments are set */
        return CL_SUCCESS;
    }

    /* The kernel's code is made at its first launch, a copy for this
     * launch's facts after a few (src/compiler/codegen.c). */
    cc_wg_fn wg = NULL, wg_full = NULL;
    unsigned band = 0;
    if (!empty) {
        struct cc_launch_facts facts;
        launch_facts(kernel, queue->device, local, offset, &facts);
        if ((err = cc_kernel_code_for_launch(kernel->program->built, kernel->info, &facts,
                                             use & API_LAUNCH_RECORDED, &wg, &wg_full, &band)))
            return err;
        /* 5.10: CL_OUT_OF_RESOURCES "if there is a failure to queue the
         * execution instance of kernel ... because of insufficient
         * resources needed to execute the kernel": private arrays larger
         * than a worker's stack (or a fiber's) would overflow it. */
        if (kernel->info->stack_size >
            cpu_device_kernel_stack(queue->device->cpu, kernel->info->fibers))
            return CL_OUT_OF_RESOURCES;
        /* Values kept across barriers: one buffer a worker for the group's
         * work-items, which must be an allocation the device can make. */
        if (kernel->info->context_size &&
            kernel->info->context_size >
                api_device_max_mem_alloc_size(queue->device) / (local[0] * local[1] * local[2]))
            return CL_OUT_OF_RESOURCES;
    }
    struct rt_command *command = rt_command_create(queue, CL_COMMAND_NDRANGE_KERNEL);
    if (!command)
        return CL_OUT_OF_HOST_MEMORY;
    /* 2.1+: a range with a zero size is a command that does nothing. */
    if (!empty) {
        if ((err = bind_arguments(kernel, command))) {
            rt_command_discard(command);
            return err;
        }
        command->has_job = true;
        command->job.kind = CPU_JOB_KERNEL;
        struct cpu_kernel_launch *launch = &command->job.u.kernel;
        launch->wg = wg;
        launch->wg_full = wg_full;
        launch->group_band = band;
        launch->work_dim = work_dim;
        launch->sub_group_size = kernel->info->sub_group_size;
        launch->flush_denormals = kernel->program->flush_denormals;
        launch->context_bytes = kernel->info->context_size * local[0] * local[1] * local[2];
        for (int d = 0; d < 3; d++) {
            launch->global_offset[d] = offset[d];
            launch->global_size[d] = global[d];
            launch->local_size[d] = local[d];
        }
    }
    *out = command;
    return CL_SUCCESS;
}

API_EXPORT CL_API_ENTRY cl_int CL_API_CALL clEnqueueNDRangeKernel(
    cl_command_queue queue, cl_kernel kernel, cl_uint work_dim, const size_t *global_work_offset,
    const size_t *global_work_size, const size_t *local_work_size, cl_uint num_events,
    const cl_event *wait_list, cl_event *event)
{
    struct rt_command *command = NULL;
    cl_int err =
        api_build_ndrange_kernel(queue, kernel, work_dim, global_work_offset, global_work_size,
                                 local_work_size, num_events, wait_list, API_LAUNCH_NOW, &command);
    return api_submit_built(err, command, num_events, wait_list, event, CL_FALSE);
}

/* cl_khr_suggested_local_work_size: the local size clEnqueueNDRangeKernel
 * would choose for this launch (the kernel's required size if it has one). */
API_EXPORT CL_API_ENTRY cl_int CL_API_CALL
clGetKernelSuggestedLocalWorkSizeKHR(cl_command_queue queue, cl_kernel kernel, cl_uint work_dim,
                                     const size_t *global_work_offset,
                                     const size_t *global_work_size,
                                     size_t *suggested_local_work_size)
{
    if (!api_valid_queue(queue))
        return CL_INVALID_COMMAND_QUEUE;
    if (!api_valid_kernel(kernel))
        return CL_INVALID_KERNEL;
    if (kernel->program->context != queue->context)
        return CL_INVALID_CONTEXT;
    if (work_dim < 1 || work_dim > 3)
        return CL_INVALID_WORK_DIMENSION;
    if (!global_work_size)
        return CL_INVALID_GLOBAL_WORK_SIZE;
    for (cl_uint d = 0; d < work_dim; d++) {
        if (global_work_size[d] == 0)
            return CL_INVALID_GLOBAL_WORK_SIZE;
        size_t offset = global_work_offset ? global_work_offset[d] : 0;
        if (global_work_size[d] + offset < global_work_size[d])
            return CL_INVALID_GLOBAL_OFFSET;
    }
    if (!suggested_local_work_size)
        return CL_INVALID_VALUE;
    for (unsigned i = 0; i < kernel->info->num_args; i++)
        if (!kernel->args[i].set)
            return CL_INVALID_KERNEL_ARGS;
    size_t local[3] = {1, 1, 1};
    if (kernel->info->reqd_work_group_size[0]) {
        for (cl_uint d = 0; d < work_dim; d++)
            local[d] = kernel->info->reqd_work_group_size[d];
        cl_int err = check_local_size(kernel, queue->device, work_dim, global_work_size, local);
        if (err)
            return err;
    } else {
        choose_local_size(kernel, queue->device, work_dim, global_work_size, local);
    }
    for (cl_uint d = 0; d < work_dim; d++)
        suggested_local_work_size[d] = local[d];
    return CL_SUCCESS;
}

API_EXPORT CL_API_ENTRY cl_int CL_API_CALL
clEnqueueTask(cl_command_queue queue, cl_kernel kernel, cl_uint num_events,
              const cl_event *wait_list, cl_event *event)
{
    const size_t one = 1;
    return clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &one, &one, num_events, wait_list, event);
}

/* --- native kernels: a host function run on a worker --- */

struct native_call {
    void (CL_CALLBACK *fn)(void *);
    char args[]; /* the copy of the application's argument block */
};

static void run_native(void *arg)
{
    struct native_call *call = arg;
    call->fn(call->args);
}

/* 5.10: the argument block is copied at enqueue; in the copy, each
 * cl_mem that args_mem_loc points at becomes a pointer to that memory
 * object's bytes, which stay alive until the command completes. */
API_EXPORT CL_API_ENTRY cl_int CL_API_CALL
clEnqueueNativeKernel(cl_command_queue queue, void (CL_CALLBACK *user_func)(void *), void *args,
                      size_t cb_args, cl_uint num_mem_objects, const cl_mem *mem_list,
                      const void **args_mem_loc, cl_uint num_events, const cl_event *wait_list,
                      cl_event *event)
{
    if (!api_valid_queue(queue))
        return CL_INVALID_COMMAND_QUEUE;
    if (!user_func || (args == NULL) != (cb_args == 0) ||
        (num_mem_objects > 0 && (!args || !mem_list || !args_mem_loc)) ||
        (num_mem_objects == 0 && (mem_list || args_mem_loc)))
        return CL_INVALID_VALUE;
    /* an argument block past the end of the address space is no memory,
     * and its copy's size would wrap */
    if (api_past_address_space(args, cb_args) ||
        cb_args > SIZE_MAX - sizeof(struct native_call))
        return CL_INVALID_VALUE;
    for (cl_uint i = 0; i < num_mem_objects; i++) {
        if (!api_valid_mem(mem_list[i]) || mem_list[i]->type != CL_MEM_OBJECT_BUFFER)
            return CL_INVALID_MEM_OBJECT;
        if (mem_list[i]->context != queue->context)
            return CL_INVALID_CONTEXT;
        const char *at = args_mem_loc[i];
        if (at < (const char *)args || at + sizeof(void *) > (const char *)args + cb_args)
            return CL_INVALID_VALUE; /* not a slot of the argument block */
    }
    cl_int err = api_check_wait_list(queue->context, num_events, wait_list);
    if (err)
        return err;
    struct native_call *call = malloc(sizeof *call + cb_args);
    cl_mem *mems = malloc((num_mem_objects ? num_mem_objects : 1) * sizeof *mems);
    struct rt_command *command =
        call && mems ? rt_command_create(queue, CL_COMMAND_NATIVE_KERNEL) : NULL;
    if (!command) {
        free(call);
        free(mems);
        return CL_OUT_OF_HOST_MEMORY;
    }
    call->fn = user_func;
    if (cb_args)
        memcpy(call->args, args, cb_args);
    for (cl_uint i = 0; i < num_mem_objects; i++) {
        void *pointer = mem_list[i]->storage;
        memcpy(call->args + ((const char *)args_mem_loc[i] - (const char *)args), &pointer,
               sizeof pointer);
        mems[i] = mem_list[i];
        rt_object_hold(RT_OBJ(mem_list[i]));
    }
    command->kernel_mems = mems;
    command->num_kernel_mems = num_mem_objects;
    api_set_call_job(command, run_native, call);
    return api_submit(command, num_events, wait_list, event, CL_FALSE);
}
