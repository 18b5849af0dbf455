/* device_enqueue.c - what kernels call to enqueue kernels and markers on
 * device queues and to use events (OpenCL C 2.0 6.13.17; API spec 5.1 for
 * the queues). The compiler binds clang's names for these builtins to
 * adapters that call the functions here (compiler.h, cc_set_device_enqueue).
 *
 * A child kernel is an ordinary command on the device queue: its event is
 * the clk_event_t the kernel sees, its argument block holds a copy of the
 * block literal (the enqueuing work-item's copy dies with its frame), and
 * it waits for its wait list and for the end of its parent's run, which
 * completes only when all its children have (command.c). Every call comes
 * from a worker thread inside a kernel: cpu_running_kernel() says which.
 */
#include <stdlib.h>
#include <string.h>

#include "runtime/command.h"

/* OpenCL C 6.13.17 return codes (clang's opencl-c-base.h spells them). */
enum {
    CLK_SUCCESS = 0,
    CLK_ENQUEUE_FAILURE = -101,
    CLK_INVALID_QUEUE = -102,
    CLK_INVALID_NDRANGE = -160,
    CLK_INVALID_EVENT_WAIT_LIST = -57,
    CLK_INVALID_ARG_SIZE = -51,
    CLK_EVENT_ALLOCATION_FAILURE = -100,
    CLK_OUT_OF_RESOURCES = -5,
};
enum { CLK_PROFILING_COMMAND_EXEC_TIME = 1 };
#define ENQUEUE_FLAGS_MAX 2 /* NO_WAIT 0, WAIT_KERNEL 1, WAIT_WORK_GROUP 2 */

static struct rt_command *parent_command(void)
{
    return cpu_running_kernel();
}

static bool is_device_queue(cl_command_queue queue)
{
    return queue && rt_object_valid(queue, RT_QUEUE) && (queue->properties & CL_QUEUE_ON_DEVICE);
}

static bool valid_wait_list(uint32_t num_events, void *const *wait_list)
{
    if ((num_events == 0) != (wait_list == NULL))
        return false;
    for (uint32_t i = 0; i < num_events; i++)
        if (wait_list[i] == CC_NULL_EVENT || !rt_object_valid(wait_list[i], RT_EVENT))
            return false;
    return true;
}

static size_t largest_divisor_at_most(size_t n, size_t limit)
{
    for (size_t d = limit < n ? limit : n; d > 1; d--)
        if (n % d == 0)
            return d;
    return 1;
}

/* 6.13.17.1: an ND-range whose local size is 0 lets the runtime choose, as
 * a host enqueue with no local size does. Groups of up to 256 that divide
 * the range, big enough for the vectorized work-item loop. */
static void choose_local_size(const struct cc_ndrange *ndrange, size_t local[3])
{
    size_t budget = 256;
    for (uint32_t d = 0; d < 3; d++) {
        local[d] = d < ndrange->work_dim ? largest_divisor_at_most(ndrange->global[d], budget) : 1;
        budget /= local[d];
        if (budget < 1)
            budget = 1;
    }
}

/* CLK_INVALID_NDRANGE unless the range can run as given (6.13.17.2). */
static int check_ndrange(const struct cc_ndrange *ndrange, bool non_uniform, size_t local[3])
{
    uint32_t dims = ndrange->work_dim;
    if (dims < 1 || dims > 3)
        return CLK_INVALID_NDRANGE;
    bool chosen = true;
    for (uint32_t d = 0; d < dims; d++) {
        if (ndrange->global[d] == 0 || ndrange->global[d] + ndrange->offset[d] < ndrange->global[d])
            return CLK_INVALID_NDRANGE;
        chosen &= ndrange->local[d] == 0;
    }
    if (chosen) {
        choose_local_size(ndrange, local);
        return CLK_SUCCESS;
    }
    size_t items = 1;
    for (uint32_t d = 0; d < 3; d++) {
        local[d] = d < dims ? ndrange->local[d] : 1;
        if (local[d] == 0 || local[d] > CC_MAX_WORK_GROUP_SIZE)
            return CLK_INVALID_NDRANGE;
        /* non-uniform groups need OpenCL C 2.0 without
         * -cl-uniform-work-group-size, as on the host (5.10) */
        if (d < dims && ndrange->global[d] % local[d] && !non_uniform)
            return CLK_INVALID_NDRANGE;
        items *= local[d];
    }
    return items <= CC_MAX_WORK_GROUP_SIZE ? CLK_SUCCESS : CLK_INVALID_NDRANGE;
}

/* The argument block of a child: the block literal's address, then the
 * arena offsets of its __local arguments, followed by the block's copy. */
static int bind_child(struct rt_command *child, const struct cc_kernel_info *info,
                      const struct cc_enqueue *request, size_t local_limit)
{
    if (request->num_locals + 1 != info->num_args)
        return CLK_INVALID_ARG_SIZE;
    const int *header = request->block;
    size_t block_size = (size_t)header[0];
    size_t args_size = (info->arg_block_size + 127) & ~(size_t)127;
    char *memory = aligned_alloc(128, (args_size + block_size + 127) & ~(size_t)127);
    if (!memory)
        return CLK_OUT_OF_RESOURCES;
    char *block = memory + args_size;
    memcpy(block, request->block, block_size);
    memcpy(memory + info->args[0].offset, &block, sizeof block);
    size_t local_offset = info->local_mem_size;
    for (uint32_t i = 0; i < request->num_locals; i++) {
        if (request->local_sizes[i] == 0) {
            free(memory);
            return CLK_INVALID_ARG_SIZE;
        }
        local_offset = (local_offset + 127) & ~(size_t)127;
        memcpy(memory + info->args[i + 1].offset, &local_offset, sizeof local_offset);
        local_offset += request->local_sizes[i];
    }
    if (local_offset > local_limit) {
        free(memory);
        return CLK_OUT_OF_RESOURCES;
    }
    child->owned = memory;
    child->job.u.kernel.arg_block = memory;
    child->job.u.kernel.local_mem_size = local_offset;
    return CLK_SUCCESS;
}

static int enqueue_kernel(const struct cc_enqueue *request)
{
    struct rt_command *parent = parent_command();
    if (!parent || !parent->kernel)
        return CLK_ENQUEUE_FAILURE;
    cl_command_queue queue = request->queue;
    if (!is_device_queue(queue))
        return CLK_INVALID_QUEUE;
    if ((unsigned)request->flags > ENQUEUE_FLAGS_MAX)
        return CLK_ENQUEUE_FAILURE;
    if (!valid_wait_list(request->num_events, request->wait_list))
        return CLK_INVALID_EVENT_WAIT_LIST;
    cl_program program = parent->kernel->program;
    const struct cc_kernel_info *info = cc_program_find_block(program->built, request->kernel);
    if (!info)
        return CLK_ENQUEUE_FAILURE;
    size_t local[3];
    int err = check_ndrange(request->ndrange, program->non_uniform, local);
    if (err)
        return err;
    /* private arrays larger than the stacks the block would run on */
    if (info->stack_size > cpu_device_kernel_stack(queue->device->cpu, info->fibers))
        return CLK_OUT_OF_RESOURCES;

    struct rt_command *child = rt_command_create(queue, CL_COMMAND_NDRANGE_KERNEL);
    if (!child)
        return request->event_ret ? CLK_EVENT_ALLOCATION_FAILURE : CLK_OUT_OF_RESOURCES;
    err = bind_child(child, info, request, cpu_device_local_mem_size(queue->device->cpu));
    if (err) {
        rt_command_discard(child);
        return err;
    }
    child->kernel = parent->kernel; /* keeps the program and its code alive */
    rt_object_hold(RT_OBJ(child->kernel));
    child->has_job = true;
    child->job.kind = CPU_JOB_KERNEL;
    struct cpu_kernel_launch *launch = &child->job.u.kernel;
    launch->wg = info->wg;
    launch->work_dim = request->ndrange->work_dim;
    launch->sub_group_size = info->sub_group_size;
    launch->flush_denormals = parent->job.u.kernel.flush_denormals; /* the same program */
    if (__builtin_mul_overflow(info->context_size, local[0] * local[1] * local[2],
                               &launch->context_bytes)) {
        rt_command_discard(child);
        return CLK_OUT_OF_RESOURCES;
    }
    for (int d = 0; d < 3; d++) {
        bool in_range = (uint32_t)d < launch->work_dim;
        launch->global_offset[d] = in_range ? request->ndrange->offset[d] : 0;
        launch->global_size[d] = in_range ? request->ndrange->global[d] : 1;
        launch->local_size[d] = local[d];
    }
    child->parent = parent;
    rt_command_enqueue(child, request->num_events, (const cl_event *)request->wait_list,
                       (cl_event *)request->event_ret);
    return CLK_SUCCESS;
}

/* 6.13.17.3: a marker completes when the events it waits for have. */
static int enqueue_marker(void *queue, uint32_t num_events, void *const *wait_list,
                          void **event_ret)
{
    if (!is_device_queue(queue))
        return CLK_INVALID_QUEUE;
    if (num_events == 0 || !valid_wait_list(num_events, wait_list))
        return CLK_INVALID_EVENT_WAIT_LIST;
    struct rt_command *marker = rt_command_create(queue, CL_COMMAND_MARKER);
    if (!marker)
        return CLK_EVENT_ALLOCATION_FAILURE;
    rt_command_enqueue(marker, num_events, (const cl_event *)wait_list, (cl_event *)event_ret);
    return CLK_SUCCESS;
}

/* 6.13.17.5: the default device queue of the device the kernel runs on,
 * in its context; CLK_NULL_QUEUE (0) when there is none. */
static void *default_queue(void)
{
    struct rt_command *parent = parent_command();
    if (!parent)
        return NULL;
    return rt_default_device_queue(parent->queue->context, parent->queue->device);
}

static bool is_event(void *event)
{
    return event != CC_NULL_EVENT && rt_object_valid(event, RT_EVENT);
}

static void retain_event(void *event)
{
    if (is_event(event))
        rt_object_retain(RT_OBJ((cl_event)event));
}

static void release_event(void *event)
{
    if (is_event(event))
        rt_object_release(RT_OBJ((cl_event)event));
}

static void *create_user_event(void)
{
    struct rt_command *parent = parent_command();
    cl_event event =
        parent ? rt_event_create(parent->queue->context, NULL, CL_COMMAND_USER, CL_SUBMITTED)
               : NULL;
    return event ? event : CC_NULL_EVENT;
}

/* 6.13.17.4: CL_COMPLETE or a negative error; the first one counts. */
static void set_user_event_status(void *event, int status)
{
    cl_event e = event;
    if (is_event(e) && !e->queue && status <= CL_COMPLETE)
        rt_event_set_status(e, status);
}

/* 6.13.17.6: two 64-bit values once the command is complete: the time its
 * own run took (START to END) and the time until it and its children had
 * completed (START to COMPLETE). */
static void CL_CALLBACK write_exec_time(cl_event event, cl_int status, void *value)
{
    cl_ulong times[2] = {event->times[3] - event->times[2], event->times[4] - event->times[2]};
    memcpy(value, times, sizeof times);
}

static void capture_profiling_info(void *event, int name, void *value)
{
    cl_event e = event;
    if (is_event(e) && name == CLK_PROFILING_COMMAND_EXEC_TIME && value && e->profiled)
        rt_event_add_callback(e, CL_COMPLETE, write_exec_time, value);
}

static unsigned block_sub_group_size(const char *kernel)
{
    struct rt_command *parent = parent_command();
    const struct cc_kernel_info *info =
        parent && parent->kernel ? cc_program_find_block(parent->kernel->program->built, kernel)
                                 : NULL;
    return info ? info->sub_group_size : 0;
}

static const struct cc_device_enqueue functions = {
    .enqueue_kernel = enqueue_kernel,
    .enqueue_marker = enqueue_marker,
    .default_queue = default_queue,
    .retain_event = retain_event,
    .release_event = release_event,
    .create_user_event = create_user_event,
    .set_user_event_status = set_user_event_status,
    .capture_profiling_info = capture_profiling_info,
    .is_valid_event = is_event,
    .block_sub_group_size = block_sub_group_size,
};

void rt_device_enqueue_init(void)
{
    cc_set_device_enqueue(&functions);
}

/* --- the device queues of a context (API spec 5.1) --- */

void rt_add_device_queue(cl_command_queue queue, bool make_default, cl_command_queue *existing)
{
    cl_context context = queue->context;
    *existing = NULL;
    pthread_mutex_lock(&context->lock);
    cl_command_queue current_default = NULL;
    for (cl_command_queue q = context->device_queues; q; q = q->next_device_queue)
        if (q->device == queue->device && q->is_default_device_queue)
            current_default = q;
    /* 5.1: asking for the default device queue when there is one returns
     * it, with its reference count incremented. */
    if (make_default && current_default) {
        rt_object_retain(RT_OBJ(current_default));
        *existing = current_default;
    } else {
        queue->is_default_device_queue = make_default;
        queue->next_device_queue = context->device_queues;
        context->device_queues = queue;
    }
    pthread_mutex_unlock(&context->lock);
}

void rt_remove_device_queue(cl_command_queue queue)
{
    cl_context context = queue->context;
    pthread_mutex_lock(&context->lock);
    for (cl_command_queue *link = &context->device_queues; *link;
         link = &(*link)->next_device_queue) {
        if (*link == queue) {
            *link = queue->next_device_queue;
            break;
        }
    }
    queue->is_default_device_queue = false;
    pthread_mutex_unlock(&context->lock);
}

void rt_set_default_device_queue(cl_command_queue queue)
{
    cl_context context = queue->context;
    pthread_mutex_lock(&context->lock);
    for (cl_command_queue q = context->device_queues; q; q = q->next_device_queue)
        if (q->device == queue->device)
            q->is_default_device_queue = q == queue;
    pthread_mutex_unlock(&context->lock);
}

cl_command_queue rt_default_device_queue(cl_context context, cl_device_id device)
{
    cl_command_queue found = NULL;
    pthread_mutex_lock(&context->lock);
    for (cl_command_queue q = context->device_queues; q && !found; q = q->next_device_queue)
        if (q->device == device && q->is_default_device_queue)
            found = q;
    pthread_mutex_unlock(&context->lock);
    return found;
}
