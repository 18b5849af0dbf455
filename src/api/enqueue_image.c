/* enqueue_image.c - read, write, copy, fill and map of images, and copies
 * between images and buffers (API spec 5.3.3-5.3.6).
 *
 * Every image is a box of pixels (builtins/image.h) whose coordinates are
 * the commands' own: origin[1] names a 1D array's layer, origin[2] a 2D
 * array's. So each command is a copy or fill of rows of region[0] pixels
 * on the workers (CPU_JOB_COPY, CPU_JOB_FILL).
 */
#include <stdlib.h>
#include <string.h>

#include "api/api.h"
#include "runtime/image_format.h"

static cl_int check_queue_image(cl_command_queue queue, cl_mem image)
{
    if (!api_valid_queue(queue))
        return CL_INVALID_COMMAND_QUEUE;
    if (!api_is_image(image))
        return CL_INVALID_MEM_OBJECT;
    if (image->context != queue->context)
        return CL_INVALID_CONTEXT;
    /* cl_khr_gl_depth_images (API 5.3.14.1): depth-stencil images "cannot
     * be used as arguments to" the host's image commands; nor can GL's
     * multi-sample images, which only kernels read (cl_khr_gl_msaa_sharing) */
    if (image->format.image_channel_order == CL_DEPTH_STENCIL || image->desc.num_samples > 1)
        return CL_INVALID_OPERATION;
    return CL_SUCCESS;
}

static size_t element_size(cl_mem image)
{
    return (size_t)image->image.element_size;
}

/* Where a command's origin falls: the level it names (the image itself
 * without mipmaps) and the origin in that level's box. */
struct place {
    const struct cc_image *level;
    size_t origin[3];
};

/* cl_khr_mipmap_image: in a mipmapped image the origin names the level
 * too, "origin[1]" of a 1D image, "origin[2]" of a 1D image array or a
 * 2D image, "origin[3]" of a 2D image array or a 3D image; "If the mip
 * level specified is not a valid value, these functions return the error
 * CL_INVALID_MIP_LEVEL". */
static cl_int find_level(cl_mem image, const size_t *origin, struct place *place)
{
    place->level = &image->image;
    memcpy(place->origin, origin, sizeof place->origin);
    cl_uint levels = image->desc.num_mip_levels;
    if (levels <= 1)
        return CL_SUCCESS;
    int at;
    switch (image->type) {
    case CL_MEM_OBJECT_IMAGE1D: at = 1; break;
    case CL_MEM_OBJECT_IMAGE1D_ARRAY:
    case CL_MEM_OBJECT_IMAGE2D: at = 2; break;
    default: at = 3; break; /* 2D arrays and 3D images */
    }
    size_t level = origin[at];
    if (level >= levels)
        return CL_INVALID_MIP_LEVEL;
    place->level = &image->image.levels[level];
    if (at < 3)
        place->origin[at] = 0;
    return CL_SUCCESS;
}

/* 5.3.3: origin and region within the image (or the level the origin
 * names), with the dimensions the type does not have at 0 and 1. */
static cl_int check_box(cl_mem image, const size_t *origin, const size_t *region,
                        struct place *place)
{
    if (!origin || !region || !region[0] || !region[1] || !region[2])
        return CL_INVALID_VALUE;
    cl_int err = find_level(image, origin, place);
    if (err)
        return err;
    const struct cc_image *im = place->level;
    const size_t size[3] = {(size_t)im->width, (size_t)im->height, (size_t)im->depth};
    for (int d = 0; d < 3; d++)
        if (place->origin[d] > size[d] || region[d] > size[d] - place->origin[d])
            return CL_INVALID_VALUE;
    return CL_SUCCESS;
}

static char *box_address(const struct place *place)
{
    const struct cc_image *im = place->level;
    return (char *)im->data + place->origin[2] * im->slice_pitch +
           place->origin[1] * im->row_pitch + place->origin[0] * (size_t)im->element_size;
}

/* The host's pitches in box terms: bytes between the region's rows and
 * between its slices (5.3.3: 0 means tightly packed; a 1D array's layers
 * are slice_pitch apart and are the box's rows). */
static cl_int host_pitches(cl_mem image, const size_t *region, size_t row_pitch, size_t slice_pitch,
                           const void *ptr, size_t *row, size_t *slice)
{
    size_t tight = region[0] * element_size(image);
    size_t r = row_pitch ? row_pitch : tight;
    if (r < tight)
        return CL_INVALID_VALUE;
    size_t rows_bytes; /* r * region[1] */
    if (__builtin_mul_overflow(r, region[1], &rows_bytes))
        return CL_INVALID_VALUE;
    switch (image->type) {
    case CL_MEM_OBJECT_IMAGE1D_ARRAY: {
        size_t layer = slice_pitch ? slice_pitch : r;
        if (layer < r || __builtin_mul_overflow(layer, region[1], slice))
            return CL_INVALID_VALUE;
        *row = layer;
        break;
    }
    case CL_MEM_OBJECT_IMAGE2D_ARRAY:
    case CL_MEM_OBJECT_IMAGE3D: {
        size_t s = slice_pitch ? slice_pitch : rows_bytes;
        if (s < rows_bytes)
            return CL_INVALID_VALUE;
        *row = r;
        *slice = s;
        break;
    }
    default:
        *row = r;
        *slice = rows_bytes;
        break;
    }
    /* The host's box must fit in memory: pitches so large that its last
     * row lies past the end of the address space describe no array (and
     * would wrap the copy's addresses). */
    size_t last_row, last_slice, extent;
    if (__builtin_mul_overflow(*row, region[1] - 1, &last_row) ||
        __builtin_mul_overflow(*slice, region[2] - 1, &last_slice) ||
        __builtin_add_overflow(last_row, last_slice, &extent) ||
        __builtin_add_overflow(extent, tight, &extent) || api_past_address_space(ptr, extent))
        return CL_INVALID_VALUE;
    return CL_SUCCESS;
}

static cl_int transfer(cl_command_queue queue, cl_mem image, cl_bool blocking,
                       const size_t *origin, const size_t *region, size_t row_pitch,
                       size_t slice_pitch, void *ptr, cl_uint num_events,
                       const cl_event *wait_list, cl_event *event, bool is_read)
{
    cl_int err = check_queue_image(queue, image);
    if (err)
        return err;
    size_t row, slice;
    struct place place;
    if ((err = check_box(image, origin, region, &place)))
        return err;
    if (!ptr || (err = host_pitches(image, region, row_pitch, slice_pitch, ptr, &row, &slice)))
        return CL_INVALID_VALUE;
    if ((err = api_check_wait_list(queue->context, num_events, wait_list)))
        return err;
    cl_mem_flags forbidden = is_read ? CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS
                                     : CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS;
    if ((image->flags & forbidden) || (!is_read && api_mem_immutable(image)))
        return CL_INVALID_OPERATION;
    const struct cc_image *im = place.level;
    char *pixels = box_address(&place);
    size_t bytes = region[0] * element_size(image);
    struct rt_command *command =
        is_read ? api_new_box_copy(queue, CL_COMMAND_READ_IMAGE, ptr, row, slice, pixels,
                                   im->row_pitch, im->slice_pitch, bytes, region[1], region[2])
                : api_new_box_copy(queue, CL_COMMAND_WRITE_IMAGE, pixels, im->row_pitch,
                                   im->slice_pitch, ptr, row, slice, bytes, region[1], region[2]);
    if (!command)
        return CL_OUT_OF_HOST_MEMORY;
    rt_command_use_mem(command, image);
    return api_submit(command, num_events, wait_list, event, blocking);
}

API_EXPORT CL_API_ENTRY cl_int CL_API_CALL
clEnqueueReadImage(cl_command_queue queue, cl_mem image, cl_bool blocking, const size_t *origin,
                   const size_t *region, size_t row_pitch, size_t slice_pitch, void *ptr,
                   cl_uint num_events, const cl_event *wait_list, cl_event *event)
{
    return transfer(queue, image, blocking, origin, region, row_pitch, slice_pitch, ptr,
                    num_events, wait_list, event, true);
}

API_EXPORT CL_API_ENTRY cl_int CL_API_CALL
clEnqueueWriteImage(cl_command_queue queue, cl_mem image, cl_bool blocking, const size_t *origin,
                    const size_t *region, size_t row_pitch, size_t slice_pitch, const void *ptr,
                    cl_uint num_events, const cl_event *wait_list, cl_event *event)
{
    return transfer(queue, image, blocking, origin, region, row_pitch, slice_pitch, (void *)ptr,
                    num_events, wait_list, event, false);
}

/* Two boxes of one image overlap when they meet in every dimension. */
static bool boxes_meet(const size_t *a, const size_t *b, const size_t *region)
{
    for (int d = 0; d < 3; d++)
        if (a[d] + region[d] <= b[d] || b[d] + region[d] <= a[d])
            return false;
    return true;
}

cl_int api_build_copy_image(cl_command_queue queue, cl_mem src, cl_mem dst,
                            const size_t *src_origin, const size_t *dst_origin,
                            const size_t *region, cl_uint num_events, const cl_event *wait_list,
                            struct rt_command **out)
{
    cl_int err = check_queue_image(queue, src);
    if (!err)
        err = check_queue_image(queue, dst);
    if (err)
        return err;
    if (src->format.image_channel_order != dst->format.image_channel_order ||
        src->format.image_channel_data_type != dst->format.image_channel_data_type)
        return CL_IMAGE_FORMAT_MISMATCH;
    struct place from, to;
    if ((err = check_box(src, src_origin, region, &from)) ||
        (err = check_box(dst, dst_origin, region, &to)))
        return err;
    if ((err = api_check_wait_list(queue->context, num_events, wait_list)))
        return err;
    if (api_mem_immutable(dst))
        return CL_INVALID_OPERATION;
    if (from.level->data == to.level->data && boxes_meet(from.origin, to.origin, region))
        return CL_MEM_COPY_OVERLAP;
    struct rt_command *command = api_new_box_copy(
        queue, CL_COMMAND_COPY_IMAGE, box_address(&to), to.level->row_pitch, to.level->slice_pitch,
        box_address(&from), from.level->row_pitch, from.level->slice_pitch,
        region[0] * element_size(src), region[1], region[2]);
    return api_copy_command(command, src, dst, out);
}

API_EXPORT CL_API_ENTRY cl_int CL_API_CALL
clEnqueueCopyImage(cl_command_queue queue, cl_mem src, cl_mem dst, const size_t *src_origin,
                   const size_t *dst_origin, const size_t *region, cl_uint num_events,
                   const cl_event *wait_list, cl_event *event)
{
    struct rt_command *command = NULL;
    cl_int err = api_build_copy_image(queue, src, dst, src_origin, dst_origin, region, num_events,
                                      wait_list, &command);
    return api_submit_built(err, command, num_events, wait_list, event, CL_FALSE);
}

/* The checks of a copy between an image and a buffer: the buffer holds
 * the region tightly packed from `offset`. */
static cl_int check_image_buffer(cl_command_queue queue, cl_mem image, cl_mem buffer,
                                 const size_t *origin, const size_t *region, size_t offset,
                                 struct place *place)
{
    cl_int err = check_queue_image(queue, image);
    if (err)
        return err;
    if (!api_valid_mem(buffer) || buffer->type != CL_MEM_OBJECT_BUFFER)
        return CL_INVALID_MEM_OBJECT;
    if (buffer->context != queue->context)
        return CL_INVALID_CONTEXT;
    if ((err = check_box(image, origin, region, place)))
        return err;
    size_t bytes = region[0] * region[1] * region[2] * element_size(image);
    if (offset > buffer->size || bytes > buffer->size - offset)
        return CL_INVALID_VALUE;
    return CL_SUCCESS;
}

cl_int api_build_copy_image_to_buffer(cl_command_queue queue, cl_mem src, cl_mem dst,
                                      const size_t *src_origin, const size_t *region,
                                      size_t dst_offset, cl_uint num_events,
                                      const cl_event *wait_list, struct rt_command **out)
{
    struct place from;
    cl_int err = check_image_buffer(queue, src, dst, src_origin, region, dst_offset, &from);
    if (err || (err = api_check_wait_list(queue->context, num_events, wait_list)))
        return err;
    if (api_mem_immutable(dst))
        return CL_INVALID_OPERATION;
    size_t row = region[0] * element_size(src);
    struct rt_command *command =
        api_new_box_copy(queue, CL_COMMAND_COPY_IMAGE_TO_BUFFER, dst->storage + dst_offset, row,
                         row * region[1], box_address(&from), from.level->row_pitch,
                         from.level->slice_pitch, row, region[1], region[2]);
    return api_copy_command(command, src, dst, out);
}

API_EXPORT CL_API_ENTRY cl_int CL_API_CALL clEnqueueCopyImageToBuffer(
    cl_command_queue queue, cl_mem src, cl_mem dst, const size_t *src_origin, const size_t *region,
    size_t dst_offset, cl_uint num_events, const cl_event *wait_list, cl_event *event)
{
    struct rt_command *command = NULL;
    cl_int err = api_build_copy_image_to_buffer(queue, src, dst, src_origin, region, dst_offset,
                                                num_events, wait_list, &command);
    return api_submit_built(err, command, num_events, wait_list, event, CL_FALSE);
}

cl_int api_build_copy_buffer_to_image(cl_command_queue queue, cl_mem src, cl_mem dst,
                                      size_t src_offset, const size_t *dst_origin,
                                      const size_t *region, cl_uint num_events,
                                      const cl_event *wait_list, struct rt_command **out)
{
    struct place to;
    cl_int err = check_image_buffer(queue, dst, src, dst_origin, region, src_offset, &to);
    if (err || (err = api_check_wait_list(queue->context, num_events, wait_list)))
        return err;
    if (api_mem_immutable(dst))
        return CL_INVALID_OPERATION;
    size_t row = region[0] * element_size(dst);
    struct rt_command *command =
        api_new_box_copy(queue, CL_COMMAND_COPY_BUFFER_TO_IMAGE, box_address(&to),
                         to.level->row_pitch, to.level->slice_pitch, src->storage + src_offset, row,
                         row * region[1], row, region[1], region[2]);
    return api_copy_command(command, src, dst, out);
}

API_EXPORT CL_API_ENTRY cl_int CL_API_CALL clEnqueueCopyBufferToImage(
    cl_command_queue queue, cl_mem src, cl_mem dst, size_t src_offset, const size_t *dst_origin,
    const size_t *region, cl_uint num_events, const cl_event *wait_list, cl_event *event)
{
    struct rt_command *command = NULL;
    cl_int err = api_build_copy_buffer_to_image(queue, src, dst, src_offset, dst_origin, region,
                                                num_events, wait_list, &command);
    return api_submit_built(err, command, num_events, wait_list, event, CL_FALSE);
}

/* 5.3.5: the colour is a float4, int4 or uint4 by the format's data type,
 * converted as write_image{f,i,ui} would. */
cl_int api_build_fill_image(cl_command_queue queue, cl_mem image, const void *fill_color,
                            const size_t *origin, const size_t *region, cl_uint num_events,
                            const cl_event *wait_list, struct rt_command **out)
{
    cl_int err = check_queue_image(queue, image);
    if (err)
        return err;
    if (!fill_color)
        return CL_INVALID_VALUE;
    struct place place;
    if ((err = check_box(image, origin, region, &place)) ||
        (err = api_check_wait_list(queue->context, num_events, wait_list)))
        return err;
    if (api_mem_immutable(image))
        return CL_INVALID_OPERATION;
    struct rt_command *command = rt_command_create(queue, CL_COMMAND_FILL_IMAGE);
    if (!command)
        return CL_OUT_OF_HOST_MEMORY;
    struct cpu_fill *fill = &command->job.u.fill;
    command->has_job = true;
    command->job.kind = CPU_JOB_FILL;
    *fill = (struct cpu_fill){.dst = box_address(&place),
                              .size = region[0] * element_size(image),
                              .pattern_size = element_size(image),
                              .rows = region[1],
                              .slices = region[2],
                              .row_pitch = place.level->row_pitch,
                              .slice_pitch = place.level->slice_pitch};
    rt_image_pack_color(&image->format, fill_color, fill->pattern);
    rt_command_use_mem(command, image);
    *out = command;
    return CL_SUCCESS;
}

API_EXPORT CL_API_ENTRY cl_int CL_API_CALL clEnqueueFillImage(
    cl_command_queue queue, cl_mem image, const void *fill_color, const size_t *origin,
    const size_t *region, cl_uint num_events, const cl_event *wait_list, cl_event *event)
{
    struct rt_command *command = NULL;
    cl_int err = api_build_fill_image(queue, image, fill_color, origin, region, num_events,
                                      wait_list, &command);
    return api_submit_built(err, command, num_events, wait_list, event, CL_FALSE);
}

/* The pitches a map returns: the image's as created, or, in a mipmapped
 * image, its level's (tightly packed; a 1D array's layers are the rows of
 * its box). */
static void map_pitches(cl_mem image, const struct place *place, size_t *row, size_t *slice)
{
    if (image->desc.num_mip_levels <= 1) {
        *row = image->desc.image_row_pitch;
        *slice = image->desc.image_slice_pitch;
        return;
    }
    *row = place->level->row_pitch;
    *slice = image->type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? place->level->row_pitch
                                                        : place->level->slice_pitch;
}

/* 5.3.6: the device shares the host's memory, so a map returns the pixels
 * themselves and their pitches. */
API_EXPORT CL_API_ENTRY void *CL_API_CALL
clEnqueueMapImage(cl_command_queue queue, cl_mem image, cl_bool blocking, cl_map_flags flags,
                  const size_t *origin, const size_t *region, size_t *row_pitch,
                  size_t *slice_pitch, cl_uint num_events, const cl_event *wait_list,
                  cl_event *event, cl_int *errcode_ret)
{
    cl_int err = check_queue_image(queue, image);
    bool needs_slice = !err && (image->type == CL_MEM_OBJECT_IMAGE3D ||
                                image->type == CL_MEM_OBJECT_IMAGE1D_ARRAY ||
                                image->type == CL_MEM_OBJECT_IMAGE2D_ARRAY);
    struct place place;
    if (!err)
        err = check_box(image, origin, region, &place);
    if (!err && !api_valid_map_flags(flags))
        err = CL_INVALID_VALUE;
    /* an access the image forbids comes before the pitches (the CTS's
     * negative_enqueue_map_image passes none with an immutable image) */
    if (!err && api_map_forbidden(image, flags))
        err = CL_INVALID_OPERATION;
    if (!err && (!row_pitch || (needs_slice && !slice_pitch)))
        err = CL_INVALID_VALUE;
    if (!err)
        err = api_check_wait_list(queue->context, num_events, wait_list);
    if (err)
        goto fail;
    char *pointer = box_address(&place);
    size_t row, slice;
    map_pitches(image, &place, &row, &slice);
    *row_pitch = row;
    if (slice_pitch)
        *slice_pitch = needs_slice ? slice : 0;
    err = api_enqueue_map(queue, image, CL_COMMAND_MAP_IMAGE, pointer, blocking, num_events,
                          wait_list, event);
    api_set_error(errcode_ret, err);
    return err ? NULL : pointer;
fail:
    api_set_error(errcode_ret, err);
    return NULL;
}
