/* enqueue_memory.c - read, write, copy, fill, map and unmap of buffers
 * (API spec 5.2.2-5.2.3, 5.4.2-5.4.3). */
#include <stdlib.h>

#include "api/api.h"

cl_int api_submit(struct rt_command *command, cl_uint num_events, const cl_event *wait_list,
                  cl_event *event, cl_bool blocking)
{
    cl_event own;
    rt_command_enqueue(command, num_events, wait_list, &own);
    cl_int status = blocking ? rt_event_wait(own) : CL_COMPLETE;
    if (event)
        *event = own;
    else
        rt_object_release(RT_OBJ(own));
    /* 5.2.2: a blocking command whose wait list failed reports it. */
    return status < 0 ? CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST : CL_SUCCESS;
}

cl_int api_enqueue_no_work(cl_command_queue queue, cl_command_type type, bool is_barrier,
                           cl_bool blocking, cl_uint num_events, const cl_event *wait_list,
                           cl_event *event)
{
    cl_int err = api_check_wait_list(queue->context, num_events, wait_list);
    if (err)
        return err;
    struct rt_command *command = rt_command_create(queue, type);
    if (!command)
        return CL_OUT_OF_HOST_MEMORY;
    command->is_barrier = is_barrier;
    return api_submit(command, num_events, wait_list, event, blocking);
}

void api_set_call_job(struct rt_command *command, void (*fn)(void *), void *arg)
{
    command->has_job = true;
    command->job.kind = CPU_JOB_CALL;
    command->job.u.call.fn = fn;
    command->job.u.call.arg = arg;
    command->owned = arg;
}

/* The checks every buffer command starts with, in the spec's order. */
static cl_int check_queue_buffer(cl_command_queue queue, cl_mem buffer)
{
    if (!api_valid_queue(queue))
        return CL_INVALID_COMMAND_QUEUE;
    if (!api_valid_mem(buffer) || buffer->type != CL_MEM_OBJECT_BUFFER)
        return CL_INVALID_MEM_OBJECT;
    if (buffer->context != queue->context)
        return CL_INVALID_CONTEXT;
    return CL_SUCCESS;
}

static int out_of_bounds(cl_mem buffer, size_t offset, size_t size)
{
    return offset > buffer->size || size > buffer->size - offset;
}

struct rt_command *api_new_box_copy(cl_command_queue queue, cl_command_type type, char *dst,
                                    size_t dst_row, size_t dst_slice, const char *src,
                                    size_t src_row, size_t src_slice, size_t row_bytes,
                                    size_t rows, size_t slices)
{
    struct rt_command *command = rt_command_create(queue, type);
    if (!command)
        return NULL;
    command->has_job = true;
    command->job.kind = CPU_JOB_COPY;
    command->job.u.copy = (struct cpu_copy){
        .dst = dst, .src = src, .row_bytes = row_bytes, .rows = rows, .slices = slices,
        .dst_row_pitch = dst_row, .dst_slice_pitch = dst_slice,
        .src_row_pitch = src_row, .src_slice_pitch = src_slice};
    return command;
}

cl_int api_copy_command(struct rt_command *command, cl_mem src, cl_mem dst, struct rt_command **out)
{
    if (!command)
        return CL_OUT_OF_HOST_MEMORY;
    rt_command_use_mem(command, src);
    rt_command_use_mem(command, dst);
    *out = command;
    return CL_SUCCESS;
}

cl_int api_submit_built(cl_int err, struct rt_command *command, cl_uint num_events,
                        const cl_event *wait_list, cl_event *event, cl_bool blocking)
{
    return err ? err : api_submit(command, num_events, wait_list, event, blocking);
}

static struct rt_command *new_copy(cl_command_queue queue, cl_command_type type, void *dst,
                                   const void *src, size_t size)
{
    return api_new_box_copy(queue, type, dst, 0, 0, src, 0, 0, size, 1, 1);
}

API_EXPORT CL_API_ENTRY cl_int CL_API_CALL
clEnqueueReadBuffer(cl_command_queue queue, cl_mem buffer, cl_bool blocking, size_t offset,
                    size_t size, void *ptr, cl_uint num_events, const cl_event *wait_list,
                    cl_event *event)
{
    cl_int err = check_queue_buffer(queue, buffer);
    if (err)
        return err;
    if (!ptr || size == 0 || out_of_bounds(buffer, offset, size))
        return CL_INVALID_VALUE;
    if ((err = api_check_wait_list(queue->context, num_events, wait_list)))
        return err;
    if (buffer->flags & (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS))
        return CL_INVALID_OPERATION;
    struct rt_command *command =
        new_copy(queue, CL_COMMAND_READ_BUFFER, ptr, buffer->storage + offset, size);
    if (!command)
        return CL_OUT_OF_HOST_MEMORY;
    rt_command_use_mem(command, buffer);
    return api_submit(command, num_events, wait_list, event, blocking);
}

API_EXPORT CL_API_ENTRY cl_int CL_API_CALL
clEnqueueWriteBuffer(cl_command_queue queue, cl_mem buffer, cl_bool blocking, size_t offset,
                     size_t size, const void *ptr, cl_uint num_events, const cl_event *wait_list,
                     cl_event *event)
{
    cl_int err = check_queue_buffer(queue, buffer);
    if (err)
        return err;
    if (!ptr || size == 0 || out_of_bounds(buffer, offset, size))
        return CL_INVALID_VALUE;
    if ((err = api_check_wait_list(queue->context, num_events, wait_list)))
        return err;
    if ((buffer->flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS)) ||
        api_mem_immutable(buffer))
        return CL_INVALID_OPERATION;
    struct rt_command *command =
        new_copy(queue, CL_COMMAND_WRITE_BUFFER, buffer->storage + offset, ptr, size);
    if (!command)
        return CL_OUT_OF_HOST_MEMORY;
    rt_command_use_mem(command, buffer);
    return api_submit(command, num_events, wait_list, event, blocking);
}

/* Two views of memory overlap when their byte ranges in the same storage
 * intersect (a buffer and its sub-buffers share storage). */
static int ranges_overlap(const char *a, size_t a_size, const char *b, size_t b_size)
{
    return a < b + b_size && b < a + a_size;
}

static char *root_storage(cl_mem mem)
{
    return mem->parent ? mem->parent->storage : mem->storage;
}

cl_int api_build_copy_buffer(cl_command_queue queue, cl_mem src, cl_mem dst, size_t src_offset,
                             size_t dst_offset, size_t size, cl_uint num_events,
                             const cl_event *wait_list, struct rt_command **out)
{
    cl_int err = check_queue_buffer(queue, src);
    if (!err)
        err = check_queue_buffer(queue, dst);
    if (err)
        return err;
    if (size == 0 || out_of_bounds(src, src_offset, size) || out_of_bounds(dst, dst_offset, size))
        return CL_INVALID_VALUE;
    if ((err = api_check_wait_list(queue->context, num_events, wait_list)))
        return err;
    if (api_mem_immutable(dst))
        return CL_INVALID_OPERATION;
    if (root_storage(src) == root_storage(dst) &&
        ranges_overlap(src->storage + src_offset, size, dst->storage + dst_offset, size))
        return CL_MEM_COPY_OVERLAP;
    struct rt_command *command = new_copy(queue, CL_COMMAND_COPY_BUFFER,
                                          dst->storage + dst_offset, src->storage + src_offset, size);
    return api_copy_command(command, src, dst, out);
}

API_EXPORT CL_API_ENTRY cl_int CL_API_CALL clEnqueueCopyBuffer(
    cl_command_queue queue, cl_mem src, cl_mem dst, size_t src_offset, size_t dst_offset,
    size_t size, cl_uint num_events, const cl_event *wait_list, cl_event *event)
{
    struct rt_command *command = NULL;
    cl_int err = api_build_copy_buffer(queue, src, dst, src_offset, dst_offset, size, num_events,
                                       wait_list, &command);
    return api_submit_built(err, command, num_events, wait_list, event, CL_FALSE);
}

cl_int api_build_fill_buffer(cl_command_queue queue, cl_mem buffer, const void *pattern,
                             size_t pattern_size, size_t offset, size_t size, cl_uint num_events,
                             const cl_event *wait_list, struct rt_command **out)
{
    cl_int err = check_queue_buffer(queue, buffer);
    if (err)
        return err;
    /* 5.2.3: the pattern is 1, 2, 4, ..., 128 bytes; offset and size are
     * multiples of it. */
    if (!pattern || pattern_size == 0 || pattern_size > 128 ||
        (pattern_size & (pattern_size - 1)) || offset % pattern_size || size % pattern_size ||
        out_of_bounds(buffer, offset, size))
        return CL_INVALID_VALUE;
    if ((err = api_check_wait_list(queue->context, num_events, wait_list)))
        return err;
    if (api_mem_immutable(buffer))
        return CL_INVALID_OPERATION;
    struct rt_command *command = rt_command_create(queue, CL_COMMAND_FILL_BUFFER);
    if (!command)
        return CL_OUT_OF_HOST_MEMORY;
    command->has_job = true;
    command->job.kind = CPU_JOB_FILL;
    command->job.u.fill.dst = buffer->storage + offset;
    command->job.u.fill.size = size;
    command->job.u.fill.pattern_size = pattern_size;
    memcpy(command->job.u.fill.pattern, pattern, pattern_size);
    rt_command_use_mem(command, buffer);
    *out = command;
    return CL_SUCCESS;
}

API_EXPORT CL_API_ENTRY cl_int CL_API_CALL clEnqueueFillBuffer(
    cl_command_queue queue, cl_mem buffer, const void *pattern, size_t pattern_size, size_t offset,
    size_t size, cl_uint num_events, const cl_event *wait_list, cl_event *event)
{
    struct rt_command *command = NULL;
    cl_int err = api_build_fill_buffer(queue, buffer, pattern, pattern_size, offset, size,
                                       num_events, wait_list, &command);
    return api_submit_built(err, command, num_events, wait_list, event, CL_FALSE);
}

/* 5.2.3 rect commands: pitches of 0 mean tightly packed. */
struct rect {
    size_t row_pitch, slice_pitch, offset, extent;
};

/* CL_INVALID_VALUE for pitches below the region, and for a box whose
 * offset or extent does not fit in size_t: no buffer or host array holds
 * it (and the sums would wrap past the bounds checks). */
static cl_int make_rect(const size_t *origin, const size_t *region, size_t row_pitch,
                        size_t slice_pitch, struct rect *out)
{
    if (row_pitch == 0)
        row_pitch = region[0];
    else if (row_pitch < region[0])
        return CL_INVALID_VALUE;
    size_t rows_bytes;
    if (__builtin_mul_overflow(region[1], row_pitch, &rows_bytes))
        return CL_INVALID_VALUE;
    if (slice_pitch == 0)
        slice_pitch = rows_bytes;
    else if (slice_pitch < rows_bytes || slice_pitch % row_pitch)
        return CL_INVALID_VALUE;
    size_t z, y, last_slice, last_row;
    bool wraps = __builtin_mul_overflow(origin[2], slice_pitch, &z) ||
                 __builtin_mul_overflow(origin[1], row_pitch, &y) ||
                 __builtin_add_overflow(z, y, &out->offset) ||
                 __builtin_add_overflow(out->offset, origin[0], &out->offset) ||
                 __builtin_mul_overflow(region[2] - 1, slice_pitch, &last_slice) ||
                 __builtin_mul_overflow(region[1] - 1, row_pitch, &last_row) ||
                 __builtin_add_overflow(last_slice, last_row, &out->extent) ||
                 __builtin_add_overflow(out->extent, region[0], &out->extent) ||
                 out->offset + out->extent < out->offset;
    if (wraps)
        return CL_INVALID_VALUE;
    out->row_pitch = row_pitch;
    out->slice_pitch = slice_pitch;
    return CL_SUCCESS;
}

/* Appendix on copy overlap: within one buffer (equal pitches, checked
 * before) two regions overlap when their boxes intersect in every
 * dimension. Views of one storage through different sub-buffers are
 * compared by byte span, which is conservative. */
static int boxes_overlap(const size_t *a, const size_t *b, const size_t *region)
{
    for (int d = 0; d < 3; d++)
        if (a[d] + region[d] <= b[d] || b[d] + region[d] <= a[d])
            return 0;
    return 1;
}

static struct rt_command *new_rect_copy(cl_command_queue queue, cl_command_type type, char *dst,
                                        const struct rect *d, const char *src,
                                        const struct rect *s, const size_t *region)
{
    return api_new_box_copy(queue, type, dst + d->offset, d->row_pitch, d->slice_pitch,
                            src + s->offset, s->row_pitch, s->slice_pitch, region[0], region[1],
                            region[2]);
}

static cl_int check_region(const size_t *buffer_origin, const size_t *host_origin,
                           const size_t *region, const void *ptr)
{
    if (!buffer_origin || !host_origin || !region || !ptr)
        return CL_INVALID_VALUE;
    if (!region[0] || !region[1] || !region[2])
        return CL_INVALID_VALUE;
    return CL_SUCCESS;
}

static cl_int rect_transfer(cl_command_queue queue, cl_mem buffer, cl_bool blocking,
                            const size_t *buffer_origin, const size_t *host_origin,
                            const size_t *region, size_t buffer_row_pitch,
                            size_t buffer_slice_pitch, size_t host_row_pitch,
                            size_t host_slice_pitch, void *ptr, cl_uint num_events,
                            const cl_event *wait_list, cl_event *event, int is_read)
{
    struct rect b, h;
    cl_int err = check_queue_buffer(queue, buffer);
    if (err)
        return err;
    if ((err = check_region(buffer_origin, host_origin, region, ptr)) ||
        (err = make_rect(buffer_origin, region, buffer_row_pitch, buffer_slice_pitch, &b)) ||
        (err = make_rect(host_origin, region, host_row_pitch, host_slice_pitch, &h)))
        return err;
    if (out_of_bounds(buffer, b.offset, b.extent) ||
        api_past_address_space(ptr, h.offset + h.extent))
        return CL_INVALID_VALUE;
    if ((err = api_check_wait_list(queue->context, num_events, wait_list)))
        return err;
    cl_mem_flags forbidden = is_read ? CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS
                                     : CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS;
    if ((buffer->flags & forbidden) || (!is_read && api_mem_immutable(buffer)))
        return CL_INVALID_OPERATION;
    struct rt_command *command =
        is_read ? new_rect_copy(queue, CL_COMMAND_READ_BUFFER_RECT, ptr, &h, buffer->storage, &b, region)
                : new_rect_copy(queue, CL_COMMAND_WRITE_BUFFER_RECT, buffer->storage, &b, ptr, &h, region);
    if (!command)
        return CL_OUT_OF_HOST_MEMORY;
    rt_command_use_mem(command, buffer);
    return api_submit(command, num_events, wait_list, event, blocking);
}

API_EXPORT CL_API_ENTRY cl_int CL_API_CALL
clEnqueueReadBufferRect(cl_command_queue queue, cl_mem buffer, cl_bool blocking,
                        const size_t *buffer_origin, const size_t *host_origin,
                        const size_t *region, size_t buffer_row_pitch, size_t buffer_slice_pitch,
                        size_t host_row_pitch, size_t host_slice_pitch, void *ptr,
                        cl_uint num_events, const cl_event *wait_list, cl_event *event)
{
    return rect_transfer(queue, buffer, blocking, buffer_origin, host_origin, region,
                         buffer_row_pitch, buffer_slice_pitch, host_row_pitch, host_slice_pitch,
                         ptr, num_events, wait_list, event, 1);
}

API_EXPORT CL_API_ENTRY cl_int CL_API_CALL
clEnqueueWriteBufferRect(cl_command_queue queue, cl_mem buffer, cl_bool blocking,
                         const size_t *buffer_origin, const size_t *host_origin,
                         const size_t *region, size_t buffer_row_pitch, size_t buffer_slice_pitch,
                         size_t host_row_pitch, size_t host_slice_pitch, const void *ptr,
                         cl_uint num_events, const cl_event *wait_list, cl_event *event)
{
    return rect_transfer(queue, buffer, blocking, buffer_origin, host_origin, region,
                         buffer_row_pitch, buffer_slice_pitch, host_row_pitch, host_slice_pitch,
                         (void *)ptr, num_events, wait_list, event, 0);
}

cl_int api_build_copy_buffer_rect(cl_command_queue queue, cl_mem src, cl_mem dst,
                                  const size_t *src_origin, const size_t *dst_origin,
                                  const size_t *region, size_t src_row_pitch,
                                  size_t src_slice_pitch, size_t dst_row_pitch,
                                  size_t dst_slice_pitch, cl_uint num_events,
                                  const cl_event *wait_list, struct rt_command **out)
{
    struct rect s, d;
    cl_int err = check_queue_buffer(queue, src);
    if (!err)
        err = check_queue_buffer(queue, dst);
    if (err)
        return err;
    if ((err = check_region(src_origin, dst_origin, region, src)) ||
        (err = make_rect(src_origin, region, src_row_pitch, src_slice_pitch, &s)) ||
        (err = make_rect(dst_origin, region, dst_row_pitch, dst_slice_pitch, &d)))
        return err;
    if (out_of_bounds(src, s.offset, s.extent) || out_of_bounds(dst, d.offset, d.extent))
        return CL_INVALID_VALUE;
    /* 5.2.3: copying within one buffer needs equal pitches. */
    if (src == dst && (src_row_pitch != dst_row_pitch || src_slice_pitch != dst_slice_pitch))
        return CL_INVALID_VALUE;
    if ((err = api_check_wait_list(queue->context, num_events, wait_list)))
        return err;
    if (api_mem_immutable(dst))
        return CL_INVALID_OPERATION;
    if (src == dst ? boxes_overlap(src_origin, dst_origin, region)
                   : root_storage(src) == root_storage(dst) &&
                         ranges_overlap(src->storage + s.offset, s.extent,
                                        dst->storage + d.offset, d.extent))
        return CL_MEM_COPY_OVERLAP;
    struct rt_command *command = new_rect_copy(queue, CL_COMMAND_COPY_BUFFER_RECT, dst->storage,
                                               &d, src->storage, &s, region);
    return api_copy_command(command, src, dst, out);
}

API_EXPORT CL_API_ENTRY cl_int CL_API_CALL
clEnqueueCopyBufferRect(cl_command_queue queue, cl_mem src, cl_mem dst, const size_t *src_origin,
                        const size_t *dst_origin, const size_t *region, size_t src_row_pitch,
                        size_t src_slice_pitch, size_t dst_row_pitch, size_t dst_slice_pitch,
                        cl_uint num_events, const cl_event *wait_list, cl_event *event)
{
    struct rt_command *command = NULL;
    cl_int err = api_build_copy_buffer_rect(queue, src, dst, src_origin, dst_origin, region,
                                            src_row_pitch, src_slice_pitch, dst_row_pitch,
                                            dst_slice_pitch, num_events, wait_list, &command);
    return api_submit_built(err, command, num_events, wait_list, event, CL_FALSE);
}

/* 5.2.2, 5.3.6: READ and WRITE combine; WRITE_INVALIDATE_REGION stands
 * alone. */
bool api_valid_map_flags(cl_map_flags flags)
{
    const cl_map_flags known = CL_MAP_READ | CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION;
    return !(flags & ~known) && !((flags & CL_MAP_WRITE_INVALIDATE_REGION) &&
                                  (flags & (CL_MAP_READ | CL_MAP_WRITE)));
}

bool api_map_forbidden(cl_mem mem, cl_map_flags flags)
{
    return ((flags & CL_MAP_READ) &&
            (mem->flags & (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS))) ||
           ((flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION)) &&
            ((mem->flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS)) ||
             api_mem_immutable(mem)));
}

cl_int api_enqueue_map(cl_command_queue queue, cl_mem mem, cl_command_type type, void *pointer,
                       cl_bool blocking, cl_uint num_events, const cl_event *wait_list,
                       cl_event *event)
{
    struct rt_mapping *mapping = malloc(sizeof *mapping);
    struct rt_command *command = mapping ? rt_command_create(queue, type) : NULL;
    if (!command) {
        free(mapping);
        return CL_OUT_OF_HOST_MEMORY;
    }
    mapping->pointer = pointer;
    /* The device shares the host's memory: the mapped region is the object
     * itself (with CL_MEM_USE_HOST_PTR, the application's host_ptr), so the
     * command only orders the map after earlier writes. */
    rt_command_use_mem(command, mem);
    pthread_mutex_lock(&mem->lock);
    mapping->next = mem->mappings;
    mem->mappings = mapping;
    mem->map_count++;
    pthread_mutex_unlock(&mem->lock);
    return api_submit(command, num_events, wait_list, event, blocking);
}

API_EXPORT CL_API_ENTRY void *CL_API_CALL
clEnqueueMapBuffer(cl_command_queue queue, cl_mem buffer, cl_bool blocking, cl_map_flags flags,
                   size_t offset, size_t size, cl_uint num_events, const cl_event *wait_list,
                   cl_event *event, cl_int *errcode_ret)
{
    cl_int err = check_queue_buffer(queue, buffer);
    if (!err && (size == 0 || out_of_bounds(buffer, offset, size) || !api_valid_map_flags(flags)))
        err = CL_INVALID_VALUE;
    if (!err)
        err = api_check_wait_list(queue->context, num_events, wait_list);
    if (!err && api_map_forbidden(buffer, flags))
        err = CL_INVALID_OPERATION;
    if (!err)
        err = api_enqueue_map(queue, buffer, CL_COMMAND_MAP_BUFFER, buffer->storage + offset,
                              blocking, num_events, wait_list, event);
    api_set_error(errcode_ret, err);
    return err ? NULL : buffer->storage + offset;
}

API_EXPORT CL_API_ENTRY cl_int CL_API_CALL
clEnqueueUnmapMemObject(cl_command_queue queue, cl_mem mem, void *mapped_ptr, cl_uint num_events,
                        const cl_event *wait_list, cl_event *event)
{
    if (!api_valid_queue(queue))
        return CL_INVALID_COMMAND_QUEUE;
    if (!api_valid_mem(mem))
        return CL_INVALID_MEM_OBJECT;
    if (mem->context != queue->context)
        return CL_INVALID_CONTEXT;
    cl_int err = api_check_wait_list(queue->context, num_events, wait_list);
    if (err)
        return err;
    struct rt_command *command = rt_command_create(queue, CL_COMMAND_UNMAP_MEM_OBJECT);
    if (!command)
        return CL_OUT_OF_HOST_MEMORY;
    /* 5.4.2: only a pointer a map of this object returned, once per map. */
    struct rt_mapping *found = NULL;
    pthread_mutex_lock(&mem->lock);
    for (struct rt_mapping **link = &mem->mappings; *link; link = &(*link)->next) {
        if ((*link)->pointer == mapped_ptr) {
            found = *link;
            *link = found->next;
            mem->map_count--;
            break;
        }
    }
    pthread_mutex_unlock(&mem->lock);
    if (!found) {
        rt_command_discard(command);
        return CL_INVALID_VALUE;
    }
    free(found);
    rt_command_use_mem(command, mem);
    return api_submit(command, num_events, wait_list, event, CL_FALSE);
}

API_EXPORT CL_API_ENTRY cl_int CL_API_CALL
clEnqueueMigrateMemObjects(cl_command_queue queue, cl_uint num_mem_objects,
                           const cl_mem *mem_objects, cl_mem_migration_flags flags,
                           cl_uint num_events, const cl_event *wait_list, cl_event *event)
{
    if (!api_valid_queue(queue))
        return CL_INVALID_COMMAND_QUEUE;
    if (num_mem_objects == 0 || !mem_objects ||
        (flags & ~(cl_mem_migration_flags)(CL_MIGRATE_MEM_OBJECT_HOST |
                                           CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED)))
        return CL_INVALID_VALUE;
    for (cl_uint i = 0; i < num_mem_objects; i++) {
        if (!api_valid_mem(mem_objects[i]))
            return CL_INVALID_MEM_OBJECT;
        if (mem_objects[i]->context != queue->context)
            return CL_INVALID_CONTEXT;
    }
    /* Host and device share one memory: a migration only orders. */
    return api_enqueue_no_work(queue, CL_COMMAND_MIGRATE_MEM_OBJECTS, false, CL_FALSE, num_events,
                               wait_list, event);
}
