/* command_buffer.c - command-buffers (cl_khr_command_buffer 0.9.8; API spec
 * "Command-Buffers").
 *
 * Recording a command builds it with the function its enqueue uses
 * (api_build_*), on the command-buffer's queue, so it is checked exactly as
 * that enqueue checks it; the built command is kept, never submitted, with
 * the sync points it waits for. Each clEnqueueCommandBufferKHR makes a copy
 * of every recorded command (rt_command_copy) on the queue it runs on. The
 * copies are the children of one command of type
 * CL_COMMAND_COMMAND_BUFFER_KHR, which its queue orders like any other
 * command and whose event completes when the last copy has; they start
 * when it runs and, among themselves, are ordered only by their sync
 * points and barriers. A recorded kernel launch keeps the arguments it had
 * when it was recorded (until an update, mutable_dispatch.c) and gets its
 * launch copy at once, as it will run again and again (codegen.c). Copies
 * of one enqueue share nothing with another's, so a command-buffer may run
 * again while it runs (simultaneous use), and an update never waits for a
 * run.
 *
 * The functions are found by name (clGetExtensionFunctionAddress): Debian
 * 12's headers declare the provisional 0.9.1 signatures, which differ.
 */
#include <stdlib.h>

#include "api/api.h"

/* cl_command_properties_khr (0.9.8): no command properties are defined
 * but a kernel launch's (mutable_dispatch.c). */
typedef cl_properties command_properties;

/* CL_COMMAND_BUFFER_STATE_FINALIZED_KHR (0.9.8; 2 was 0.9.1's PENDING) */
#define STATE_FINALIZED ((cl_command_buffer_state_khr)2)

/* CL_COMMAND_BUFFER_FLAGS_KHR's bit that cl_khr_command_buffer_multi_device
 * defines (device-side sync): known, not supported. */
#define DEVICE_SIDE_SYNC_FLAG ((cl_bitfield)1 << 2)

/* The properties into `buffer` (kept as given in `list`, `*count` entries
 * with the 0, 0 when none were given). Flags: mutable
 * (mutable_dispatch.c) and simultaneous use (every run is a copy of its
 * own) are supported. */
static cl_int read_properties(const cl_command_buffer_properties_khr *properties,
                              cl_command_buffer_properties_khr list[5], size_t *count,
                              cl_bitfield *flags, cl_bitfield *asserts)
{
    *count = 0;
    *flags = *asserts = 0;
    if (!properties)
        return CL_SUCCESS;
    bool has_flags = false, has_asserts = false;
    size_t i = 0;
    for (; properties[i]; i += 2) {
        cl_bitfield value = properties[i + 1];
        if (properties[i] == CL_COMMAND_BUFFER_FLAGS_KHR && !has_flags) {
            has_flags = true;
            if (value & ~(API_MUTABLE_FLAG | API_SIMULTANEOUS_FLAG | DEVICE_SIDE_SYNC_FLAG))
                return CL_INVALID_VALUE;
            if (value & DEVICE_SIDE_SYNC_FLAG)
                return CL_INVALID_PROPERTY;
            *flags = value;
        } else if (properties[i] == API_BUFFER_ASSERTS && !has_asserts) {
            has_asserts = true;
            if (value & ~API_NO_ADDITIONAL_WORK_GROUPS)
                return CL_INVALID_VALUE;
            *asserts = value;
        } else {
            return CL_INVALID_VALUE; /* unknown, or given twice */
        }
    }
    *count = i + 1;
    memcpy(list, properties, *count * sizeof *properties);
    return CL_SUCCESS;
}

static cl_command_buffer_khr CL_API_CALL
create_command_buffer(cl_uint num_queues, const cl_command_queue *queues,
                      const cl_command_buffer_properties_khr *properties, cl_int *errcode_ret)
{
    cl_command_buffer_properties_khr list[5];
    size_t count = 0;
    cl_bitfield flags, asserts;
    cl_int err = CL_SUCCESS;
    cl_command_buffer_khr buffer = NULL;
    /* without cl_khr_command_buffer_multi_device exactly one queue */
    if (!queues || num_queues != 1)
        err = CL_INVALID_VALUE;
    else if (!api_valid_queue(queues[0]))
        err = CL_INVALID_COMMAND_QUEUE;
    else if (!(err = read_properties(properties, list, &count, &flags, &asserts)) &&
             !(buffer = rt_object_create(RT_COMMAND_BUFFER, sizeof *buffer)))
        err = CL_OUT_OF_HOST_MEMORY;
    api_set_error(errcode_ret, err);
    if (err)
        return NULL;
    memcpy(buffer->properties, list, count * sizeof list[0]);
    buffer->num_properties = count;
    buffer->flags = flags;
    buffer->asserts = asserts;
    buffer->queue = queues[0];
    rt_object_retain(RT_OBJ(buffer->queue));
    buffer->context = buffer->queue->context;
    rt_object_hold(RT_OBJ(buffer->context));
    pthread_mutex_init(&buffer->lock, NULL);
    return buffer;
}

static cl_int CL_API_CALL retain_command_buffer(cl_command_buffer_khr buffer)
{
    if (!api_valid_command_buffer(buffer))
        return CL_INVALID_COMMAND_BUFFER_KHR;
    rt_object_retain(RT_OBJ(buffer));
    return CL_SUCCESS;
}

/* The recorded commands go with the last reference: each enqueue's copies
 * hold what they use themselves. */
static cl_int CL_API_CALL release_command_buffer(cl_command_buffer_khr buffer)
{
    if (!api_valid_command_buffer(buffer))
        return CL_INVALID_COMMAND_BUFFER_KHR;
    rt_object_release(RT_OBJ(buffer));
    return CL_SUCCESS;
}

static cl_int CL_API_CALL finalize_command_buffer(cl_command_buffer_khr buffer)
{
    if (!api_valid_command_buffer(buffer))
        return CL_INVALID_COMMAND_BUFFER_KHR;
    pthread_mutex_lock(&buffer->lock);
    cl_int err = buffer->finalized ? CL_INVALID_OPERATION : CL_SUCCESS;
    buffer->finalized = true;
    pthread_mutex_unlock(&buffer->lock);
    return err;
}

/* --- recording --- */

/* The checks every recording function shares (the errors its enqueue does
 * not have). On success the buffer is locked until record_end. */
static cl_int record_begin(cl_command_buffer_khr buffer, cl_command_queue queue,
                           const command_properties *properties, cl_uint num_sync_points,
                           const cl_sync_point_khr *sync_points, const void *mutable_handle)
{
    if (!api_valid_command_buffer(buffer))
        return CL_INVALID_COMMAND_BUFFER_KHR;
    /* without cl_khr_command_buffer_multi_device the queue is the buffer's,
     * named by NULL */
    if (queue)
        return CL_INVALID_COMMAND_QUEUE;
    if ((properties && properties[0]) || mutable_handle)
        return CL_INVALID_VALUE;
    if ((num_sync_points == 0) != (sync_points == NULL))
        return CL_INVALID_SYNC_POINT_WAIT_LIST_KHR;
    pthread_mutex_lock(&buffer->lock);
    cl_int err = CL_SUCCESS;
    if (buffer->finalized)
        err = CL_INVALID_OPERATION;
    for (cl_uint i = 0; i < num_sync_points && !err; i++)
        if (sync_points[i] == 0 || sync_points[i] > buffer->count)
            err = CL_INVALID_SYNC_POINT_WAIT_LIST_KHR;
    if (err)
        pthread_mutex_unlock(&buffer->lock);
    return err;
}

static bool has(const cl_sync_point_khr *list, cl_uint count, cl_sync_point_khr point)
{
    for (cl_uint i = 0; i < count; i++)
        if (list[i] == point)
            return true;
    return false;
}

/* What a new command waits for besides its sync points: the newest
 * barrier, and on an in-order queue the command recorded before it ("an
 * additional dependency ... on the last command appended"). A barrier
 * without sync points waits for every command since the barrier before. */
static cl_int add_waits(cl_command_buffer_khr buffer, struct rt_recorded *entry,
                        cl_uint num_sync_points, const cl_sync_point_khr *sync_points,
                        bool is_barrier)
{
    bool all_since_barrier = is_barrier && num_sync_points == 0;
    cl_uint most = num_sync_points + 2 + (all_since_barrier ? buffer->count : 0);
    entry->waits = malloc(most * sizeof *entry->waits);
    if (!entry->waits)
        return CL_OUT_OF_HOST_MEMORY;
    cl_uint n = 0;
    for (cl_uint i = 0; i < num_sync_points; i++)
        if (!has(entry->waits, n, sync_points[i]))
            entry->waits[n++] = sync_points[i];
    if (buffer->last_barrier && !has(entry->waits, n, buffer->last_barrier))
        entry->waits[n++] = buffer->last_barrier;
    bool in_order = !(buffer->queue->properties & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
    if (in_order && buffer->count && !has(entry->waits, n, buffer->count))
        entry->waits[n++] = buffer->count;
    if (all_since_barrier)
        for (cl_uint point = buffer->last_barrier + 1; point <= buffer->count; point++)
            if (!has(entry->waits, n, point))
                entry->waits[n++] = point;
    entry->num_waits = n;
    return CL_SUCCESS;
}

/* Keeps a command built by an api_build_* function (err its result; for a
 * kernel launch also its mutable-command handle) and unlocks the buffer. */
static cl_int record_end(cl_command_buffer_khr buffer, cl_int err, struct rt_command *command,
                         cl_mutable_command_khr handle, cl_uint num_sync_points,
                         const cl_sync_point_khr *sync_points, bool is_barrier,
                         cl_sync_point_khr *sync_point)
{
    if (!err && buffer->count == CL_UINT_MAX - 1)
        err = CL_OUT_OF_RESOURCES;
    if (!err && buffer->count == buffer->capacity) {
        cl_uint capacity = buffer->capacity ? buffer->capacity * 2 : 16;
        struct rt_recorded *grown = realloc(buffer->commands, capacity * sizeof *grown);
        if (grown) {
            buffer->commands = grown;
            buffer->capacity = capacity;
        } else {
            err = CL_OUT_OF_HOST_MEMORY;
        }
    }
    struct rt_recorded *entry = err ? NULL : &buffer->commands[buffer->count];
    if (!err)
        err = add_waits(buffer, entry, num_sync_points, sync_points, is_barrier);
    if (err) {
        if (command)
            rt_command_discard(command);
        if (handle)
            rt_mutable_command_free(handle);
        pthread_mutex_unlock(&buffer->lock);
        return err;
    }
    entry->command = command;
    entry->mutable_launch = handle;
    if (handle)
        handle->index = buffer->count;
    buffer->count++;
    if (is_barrier)
        buffer->last_barrier = buffer->count;
    if (sync_point)
        *sync_point = buffer->count;
    pthread_mutex_unlock(&buffer->lock);
    return CL_SUCCESS;
}

/* The arguments every recording function starts and ends with. */
#define RECORD_START                                                                               \
    cl_command_buffer_khr buffer, cl_command_queue queue, const command_properties *properties
#define RECORD_SYNC                                                                                \
    cl_uint num_sync_points, const cl_sync_point_khr *sync_points, cl_sync_point_khr *sync_point,  \
        void *mutable_handle
#define RECORD(build, ...)                                                                         \
    do {                                                                                           \
        cl_int err =                                                                               \
            record_begin(buffer, queue, properties, num_sync_points, sync_points, mutable_handle); \
        if (err)                                                                                   \
            return err;                                                                            \
        struct rt_command *command = NULL;                                                         \
        err = build(buffer->queue, __VA_ARGS__, 0, NULL, &command);                                \
        return record_end(buffer, err, command, NULL, num_sync_points, sync_points, false,         \
                          sync_point);                                                             \
    } while (0)

/* A barrier: no work; it waits for its sync points, or for everything
 * recorded since the last barrier, and every later command waits for it. */
static cl_int CL_API_CALL command_barrier(RECORD_START, RECORD_SYNC)
{
    cl_int err =
        record_begin(buffer, queue, properties, num_sync_points, sync_points, mutable_handle);
    if (err)
        return err;
    struct rt_command *command = rt_command_create(buffer->queue, CL_COMMAND_BARRIER);
    return record_end(buffer, command ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY, command, NULL,
                      num_sync_points, sync_points, true, sync_point);
}

static cl_int CL_API_CALL command_copy_buffer(RECORD_START, cl_mem src, cl_mem dst,
                                              size_t src_offset, size_t dst_offset, size_t size,
                                              RECORD_SYNC)
{
    RECORD(api_build_copy_buffer, src, dst, src_offset, dst_offset, size);
}

static cl_int CL_API_CALL command_copy_buffer_rect(RECORD_START, cl_mem src, cl_mem dst,
                                                   const size_t *src_origin,
                                                   const size_t *dst_origin, const size_t *region,
                                                   size_t src_row_pitch, size_t src_slice_pitch,
                                                   size_t dst_row_pitch, size_t dst_slice_pitch,
                                                   RECORD_SYNC)
{
    RECORD(api_build_copy_buffer_rect, src, dst, src_origin, dst_origin, region, src_row_pitch,
           src_slice_pitch, dst_row_pitch, dst_slice_pitch);
}

static cl_int CL_API_CALL command_copy_buffer_to_image(RECORD_START, cl_mem src, cl_mem dst,
                                                       size_t src_offset, const size_t *dst_origin,
                                                       const size_t *region, RECORD_SYNC)
{
    RECORD(api_build_copy_buffer_to_image, src, dst, src_offset, dst_origin, region);
}

static cl_int CL_API_CALL command_copy_image(RECORD_START, cl_mem src, cl_mem dst,
                                             const size_t *src_origin, const size_t *dst_origin,
                                             const size_t *region, RECORD_SYNC)
{
    RECORD(api_build_copy_image, src, dst, src_origin, dst_origin, region);
}

static cl_int CL_API_CALL command_copy_image_to_buffer(RECORD_START, cl_mem src, cl_mem dst,
                                                       const size_t *src_origin,
                                                       const size_t *region, size_t dst_offset,
                                                       RECORD_SYNC)
{
    RECORD(api_build_copy_image_to_buffer, src, dst, src_origin, region, dst_offset);
}

static cl_int CL_API_CALL command_fill_buffer(RECORD_START, cl_mem target, const void *pattern,
                                              size_t pattern_size, size_t offset, size_t size,
                                              RECORD_SYNC)
{
    RECORD(api_build_fill_buffer, target, pattern, pattern_size, offset, size);
}

static cl_int CL_API_CALL command_fill_image(RECORD_START, cl_mem image, const void *fill_color,
                                             const size_t *origin, const size_t *region,
                                             RECORD_SYNC)
{
    RECORD(api_build_fill_image, image, fill_color, origin, region);
}

/* The launch's arguments are the kernel's at recording (API spec: only
 * an update changes them, mutable_dispatch.c). */
static cl_int CL_API_CALL command_ndrange_kernel(
    RECORD_START, cl_kernel kernel, cl_uint work_dim, const size_t *global_work_offset,
    const size_t *global_work_size, const size_t *local_work_size, cl_uint num_sync_points,
    const cl_sync_point_khr *sync_points, cl_sync_point_khr *sync_point,
    cl_mutable_command_khr *mutable_handle)
{
    /* the properties and the handle are the launch's own (mutable dispatch) */
    cl_int err = record_begin(buffer, queue, NULL, num_sync_points, sync_points, NULL);
    if (err)
        return err;
    struct rt_command *command = NULL;
    cl_mutable_command_khr handle = NULL;
    err = api_record_launch(buffer, properties, kernel, work_dim, global_work_offset,
                            global_work_size, local_work_size, mutable_handle != NULL, &command,
                            &handle);
    err = record_end(buffer, err, command, handle, num_sync_points, sync_points, false, sync_point);
    if (!err && mutable_handle)
        *mutable_handle = handle;
    return err;
}

static cl_int CL_API_CALL command_svm_memcpy(RECORD_START, void *dst, const void *src, size_t size,
                                             RECORD_SYNC)
{
    RECORD(api_build_svm_memcpy, dst, src, size);
}

static cl_int CL_API_CALL command_svm_memfill(RECORD_START, void *svm_ptr, const void *pattern,
                                              size_t pattern_size, size_t size, RECORD_SYNC)
{
    RECORD(api_build_svm_memfill, svm_ptr, pattern, pattern_size, size);
}

/* --- running --- */

/* Finalized, with every launch built (API spec: the Executable state; a
 * mutable launch recorded without its arguments leaves it Finalized). */
static bool executable(cl_command_buffer_khr buffer)
{
    if (!buffer->finalized)
        return false;
    for (cl_uint i = 0; i < buffer->count; i++)
        if (!buffer->commands[i].command)
            return false;
    return true;
}

/* The queue a run goes to: the buffer's, or (queue substitution) one of
 * the same device and context. */
static cl_int run_queue(cl_command_buffer_khr buffer, cl_uint num_queues,
                        const cl_command_queue *queues, cl_command_queue *out)
{
    if ((queues == NULL) != (num_queues == 0) || num_queues > 1)
        return CL_INVALID_VALUE;
    cl_command_queue queue = num_queues ? queues[0] : buffer->queue;
    if (!api_valid_queue(queue))
        return CL_INVALID_COMMAND_QUEUE;
    if (queue->properties & ~API_COMMAND_BUFFER_QUEUE_PROPERTIES)
        return CL_INCOMPATIBLE_COMMAND_QUEUE_KHR;
    if (queue->device != buffer->queue->device)
        return CL_INVALID_DEVICE;
    if (queue->context != buffer->context)
        return CL_INVALID_CONTEXT;
    *out = queue;
    return CL_SUCCESS;
}

static cl_int CL_API_CALL enqueue_command_buffer(cl_uint num_queues, cl_command_queue *queues,
                                                 cl_command_buffer_khr buffer, cl_uint num_events,
                                                 const cl_event *wait_list, cl_event *event)
{
    if (!api_valid_command_buffer(buffer))
        return CL_INVALID_COMMAND_BUFFER_KHR;
    pthread_mutex_lock(&buffer->lock);
    cl_int err = executable(buffer) ? CL_SUCCESS : CL_INVALID_OPERATION;
    cl_command_queue queue;
    if (!err)
        err = run_queue(buffer, num_queues, queues, &queue);
    if (!err)
        err = api_check_wait_list(buffer->context, num_events, wait_list);
    if (err) {
        pthread_mutex_unlock(&buffer->lock);
        return err;
    }

    /* The copies are made under the lock: an update may replace a
     * recorded launch; the run then goes on with its own copies. */
    cl_uint count = buffer->count;
    struct rt_command *run = rt_command_create(queue, CL_COMMAND_COMMAND_BUFFER_KHR);
    struct rt_command **copies = calloc(count ? count : 1, sizeof *copies);
    /* each copy's event, then room for one copy's wait list */
    cl_event *events = calloc(2 * (size_t)count + 1, sizeof *events);
    bool short_of_memory = !run || !copies || !events;
    for (cl_uint i = 0; i < count && !short_of_memory; i++)
        short_of_memory = !(copies[i] = rt_command_copy(buffer->commands[i].command, queue));
    pthread_mutex_unlock(&buffer->lock);
    if (short_of_memory) {
        for (cl_uint i = 0; copies && i < count; i++)
            if (copies[i])
                rt_command_discard(copies[i]);
        if (run)
            rt_command_discard(run);
        free(copies);
        free(events);
        return CL_OUT_OF_HOST_MEMORY;
    }
    run->ends_with_children = true;
    /* The run goes into the graph first, held until every copy is attached
     * to it, so that copies start as they come when it has run at once. A
     * copy waits only for earlier ones, whose events are held here: they
     * may have completed already. */
    rt_command_hold(run);
    cl_int status = api_submit(run, num_events, wait_list, event, CL_FALSE);
    for (cl_uint i = 0; i < count; i++) {
        const struct rt_recorded *entry = &buffer->commands[i];
        cl_event *list = events + count;
        for (cl_uint w = 0; w < entry->num_waits; w++)
            list[w] = events[entry->waits[w] - 1];
        copies[i]->detached = true;
        copies[i]->parent = run;
        rt_command_enqueue(copies[i], entry->num_waits, list, &events[i]);
    }
    rt_command_unhold(run);
    for (cl_uint i = 0; i < count; i++)
        rt_object_release(RT_OBJ(events[i]));
    free(copies);
    free(events);
    return status;
}

/* --- queries --- */

static cl_int CL_API_CALL get_command_buffer_info(cl_command_buffer_khr buffer,
                                                  cl_command_buffer_info_khr param_name,
                                                  size_t param_value_size, void *param_value,
                                                  size_t *param_value_size_ret)
{
    if (!api_valid_command_buffer(buffer))
        return CL_INVALID_COMMAND_BUFFER_KHR;
    switch (param_name) {
    case CL_COMMAND_BUFFER_NUM_QUEUES_KHR: {
        cl_uint one = 1;
        return API_INFO(one);
    }
    case CL_COMMAND_BUFFER_QUEUES_KHR: return API_INFO(buffer->queue);
    case CL_COMMAND_BUFFER_REFERENCE_COUNT_KHR: {
        cl_uint count = atomic_load(&buffer->obj.refcount);
        return API_INFO(count);
    }
    case CL_COMMAND_BUFFER_STATE_KHR: {
        pthread_mutex_lock(&buffer->lock);
        cl_command_buffer_state_khr state =
            !buffer->finalized   ? CL_COMMAND_BUFFER_STATE_RECORDING_KHR
            : executable(buffer) ? CL_COMMAND_BUFFER_STATE_EXECUTABLE_KHR
                                 : STATE_FINALIZED;
        pthread_mutex_unlock(&buffer->lock);
        return API_INFO(state);
    }
    case CL_COMMAND_BUFFER_PROPERTIES_ARRAY_KHR:
        return api_info(param_value_size, param_value, param_value_size_ret, buffer->properties,
                        buffer->num_properties * sizeof buffer->properties[0]);
    case CL_COMMAND_BUFFER_CONTEXT_KHR: return API_INFO(buffer->context);
    default: return CL_INVALID_VALUE;
    }
}

void *api_command_buffer_function(const char *name)
{
    static const struct {
        const char *name;
        void *address;
    } functions[] = {
        {"clCreateCommandBufferKHR", (void *)create_command_buffer},
        {"clRetainCommandBufferKHR", (void *)retain_command_buffer},
        {"clReleaseCommandBufferKHR", (void *)release_command_buffer},
        {"clFinalizeCommandBufferKHR", (void *)finalize_command_buffer},
        {"clEnqueueCommandBufferKHR", (void *)enqueue_command_buffer},
        {"clCommandBarrierWithWaitListKHR", (void *)command_barrier},
        {"clCommandCopyBufferKHR", (void *)command_copy_buffer},
        {"clCommandCopyBufferRectKHR", (void *)command_copy_buffer_rect},
        {"clCommandCopyBufferToImageKHR", (void *)command_copy_buffer_to_image},
        {"clCommandCopyImageKHR", (void *)command_copy_image},
        {"clCommandCopyImageToBufferKHR", (void *)command_copy_image_to_buffer},
        {"clCommandFillBufferKHR", (void *)command_fill_buffer},
        {"clCommandFillImageKHR", (void *)command_fill_image},
        {"clCommandNDRangeKernelKHR", (void *)command_ndrange_kernel},
        {"clCommandSVMMemcpyKHR", (void *)command_svm_memcpy},
        {"clCommandSVMMemFillKHR", (void *)command_svm_memfill},
        {"clGetCommandBufferInfoKHR", (void *)get_command_buffer_info},
    };
    for (size_t i = 0; i < sizeof functions / sizeof functions[0]; i++)
        if (!strcmp(name, functions[i].name))
            return functions[i].address;
    return api_mutable_dispatch_function(name);
}
