/* image.c - image objects (API spec 5.3.1, 5.3.2, 5.3.7). Host commands on
 * images are in enqueue_image.c, formats in runtime/image_format.c.
 *
 * An image is a memory object whose bytes are a box of pixels (image.h):
 * its own allocation, the application's memory (CL_MEM_USE_HOST_PTR), a
 * buffer's (1D buffer images and 2D images from buffers) or another 2D
 * image's (2D images from images).
 */
#include <stdlib.h>

#include "api/api.h"
#include "runtime/image_format.h"

static bool is_image_type(cl_mem_object_type type)
{
    switch (type) {
    case CL_MEM_OBJECT_IMAGE1D: case CL_MEM_OBJECT_IMAGE1D_BUFFER: case CL_MEM_OBJECT_IMAGE1D_ARRAY:
    case CL_MEM_OBJECT_IMAGE2D: case CL_MEM_OBJECT_IMAGE2D_ARRAY: case CL_MEM_OBJECT_IMAGE3D:
        return true;
    default:
        return false;
    }
}

bool api_is_image(cl_mem mem)
{
    return api_valid_mem(mem) && is_image_type(mem->type);
}

/* The box (image.h) of a described image: width, height and depth in
 * pixels, with 1 where the type has no such dimension. */
static void box_size(const cl_image_desc *d, size_t box[3])
{
    box[0] = d->image_width;
    box[1] = box[2] = 1;
    switch (d->image_type) {
    case CL_MEM_OBJECT_IMAGE1D_ARRAY: box[1] = d->image_array_size; break;
    case CL_MEM_OBJECT_IMAGE2D: box[1] = d->image_height; break;
    case CL_MEM_OBJECT_IMAGE2D_ARRAY:
        box[1] = d->image_height;
        box[2] = d->image_array_size;
        break;
    case CL_MEM_OBJECT_IMAGE3D:
        box[1] = d->image_height;
        box[2] = d->image_depth;
        break;
    default: break;
    }
    /* a multi-sample image's samples are slices (image.h) */
    if (d->num_samples > 1)
        box[2] *= d->num_samples;
}

/* 5.3.1: the sizes each type needs, within the device's limits. */
static cl_int check_sizes(const cl_image_desc *d, cl_device_id device, size_t element_size)
{
    size_t w = d->image_width, h = d->image_height, depth = d->image_depth;
    size_t layers = d->image_array_size;
    bool fits = w >= 1;
    switch (d->image_type) {
    case CL_MEM_OBJECT_IMAGE1D: fits &= w <= API_IMAGE2D_MAX; break;
    case CL_MEM_OBJECT_IMAGE1D_BUFFER: fits &= w <= API_IMAGE_MAX_BUFFER_SIZE; break;
    case CL_MEM_OBJECT_IMAGE1D_ARRAY:
        fits &= w <= API_IMAGE2D_MAX && layers >= 1 && layers <= API_IMAGE_MAX_ARRAY_SIZE;
        break;
    case CL_MEM_OBJECT_IMAGE2D: fits &= w <= API_IMAGE2D_MAX && h >= 1 && h <= API_IMAGE2D_MAX; break;
    case CL_MEM_OBJECT_IMAGE2D_ARRAY:
        fits &= w <= API_IMAGE2D_MAX && h >= 1 && h <= API_IMAGE2D_MAX && layers >= 1 &&
                layers <= API_IMAGE_MAX_ARRAY_SIZE;
        break;
    case CL_MEM_OBJECT_IMAGE3D:
        fits &= w <= API_IMAGE3D_MAX && h >= 1 && h <= API_IMAGE3D_MAX && depth >= 1 &&
                depth <= API_IMAGE3D_MAX;
        break;
    default: break;
    }
    if (!fits)
        return CL_INVALID_IMAGE_SIZE;
    size_t box[3];
    box_size(d, box);
    double bytes = (double)box[0] * box[1] * box[2] * element_size;
    if (bytes > (double)api_device_max_mem_alloc_size(device))
        return CL_INVALID_IMAGE_SIZE;
    return CL_SUCCESS;
}

/* The pitches of the image's bytes: the application's (host_ptr or a
 * buffer's rows) where it gives them, else tightly packed. `row` is the
 * bytes between rows, `layer` between a 1D array's layers, 2D array's
 * layers or 3D slices (CL_IMAGE_ROW_PITCH, CL_IMAGE_SLICE_PITCH);
 * `extent` the bytes from the first pixel to the end of the last row.
 * Pitches so large that the extent does not fit in size_t describe no
 * memory (and would wrap the copies' and bounds checks' arithmetic). */
static cl_int pitches(const cl_image_desc *d, size_t element_size, bool given, size_t *row,
                      size_t *layer, size_t *extent)
{
    size_t tight = d->image_width * element_size;
    size_t r = given && d->image_row_pitch ? d->image_row_pitch : tight;
    if (r < tight || r % element_size)
        return CL_INVALID_IMAGE_DESCRIPTOR;
    size_t rows = d->image_type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? 1
                  : d->image_type == CL_MEM_OBJECT_IMAGE2D_ARRAY ||
                          d->image_type == CL_MEM_OBJECT_IMAGE3D
                      ? d->image_height
                      : 0;
    size_t l = 0, rows_bytes = 0;
    if (rows) {
        if (__builtin_mul_overflow(r, rows, &rows_bytes))
            return CL_INVALID_IMAGE_DESCRIPTOR;
        l = given && d->image_slice_pitch ? d->image_slice_pitch : rows_bytes;
        if (l < rows_bytes || l % r)
            return CL_INVALID_IMAGE_DESCRIPTOR;
    }
    size_t box[3], last_row, last_layer;
    box_size(d, box);
    bool layered_rows = d->image_type == CL_MEM_OBJECT_IMAGE1D_ARRAY; /* a layer a row */
    size_t row_step = layered_rows ? l : r, rows_in_box = box[1], layers_in_box = box[2];
    if (__builtin_mul_overflow(row_step, rows_in_box - 1, &last_row) ||
        __builtin_mul_overflow(l, layers_in_box - 1, &last_layer) ||
        __builtin_add_overflow(last_row, last_layer, extent) ||
        __builtin_add_overflow(*extent, tight, extent))
        return CL_INVALID_IMAGE_DESCRIPTOR;
    *row = r;
    *layer = l;
    return CL_SUCCESS;
}

/* cl_khr_mipmap_image: level `level` of a mipmapped image, "half the size
 * of the previous level ... rounded down", at least 1, its layers as many
 * as level 0's, its pixels tightly packed after the previous level's.
 * The data pointer is level 0's; describe_levels adds the offsets. */
static struct cc_image level_shape(cl_mem mem, cl_uint level)
{
    struct cc_image shape = mem->image;
    int type = shape.type;
    shape.width = shape.width >> level ? shape.width >> level : 1;
    if (type == CL_MEM_OBJECT_IMAGE2D || type == CL_MEM_OBJECT_IMAGE2D_ARRAY ||
        type == CL_MEM_OBJECT_IMAGE3D)
        shape.height = shape.height >> level ? shape.height >> level : 1;
    if (type == CL_MEM_OBJECT_IMAGE3D)
        shape.depth = shape.depth >> level ? shape.depth >> level : 1;
    size_t row = (size_t)shape.width * (size_t)shape.element_size;
    shape.row_pitch = row; /* a 1D array's layers are the box's rows */
    shape.slice_pitch = row * (size_t)shape.height;
    return shape;
}

/* Fills mem->image, the box kernels and host commands address. */
static void describe(cl_mem mem, size_t element_size)
{
    const cl_image_desc *d = &mem->desc;
    size_t box[3];
    box_size(d, box);
    struct cc_image *im = &mem->image;
    im->data = (unsigned char *)mem->storage;
    im->width = (int)box[0];
    im->height = (int)box[1];
    im->depth = (int)box[2];
    if (d->image_type == CL_MEM_OBJECT_IMAGE1D_ARRAY) {
        im->row_pitch = d->image_slice_pitch; /* a layer is a row of the box */
        im->slice_pitch = d->image_slice_pitch * box[1];
    } else {
        im->row_pitch = d->image_row_pitch;
        im->slice_pitch = d->image_slice_pitch ? d->image_slice_pitch : d->image_row_pitch * box[1];
    }
    bool is_array = d->image_type == CL_MEM_OBJECT_IMAGE1D_ARRAY ||
                    d->image_type == CL_MEM_OBJECT_IMAGE2D_ARRAY;
    im->array_size = is_array ? (int)d->image_array_size : 0;
    im->channel_order = (int)mem->format.image_channel_order;
    im->channel_data_type = (int)mem->format.image_channel_data_type;
    im->element_size = (int)element_size;
    im->type = (int)d->image_type;
    im->num_mip_levels = (int)d->num_mip_levels;
    im->levels = NULL;
    im->num_samples = (int)d->num_samples;
    mem->size = im->slice_pitch * box[2];
    for (cl_uint level = 1; level < d->num_mip_levels; level++) {
        struct cc_image shrunk = level_shape(mem, level);
        mem->size += shrunk.slice_pitch * (size_t)shrunk.depth;
    }
}

/* The descriptors of a mipmapped image's levels (image.h), which kernels
 * reach through mem->image.levels; false when memory is short. */
static bool describe_levels(cl_mem mem)
{
    cl_uint count = mem->desc.num_mip_levels;
    struct cc_image *levels = malloc(count * sizeof *levels);
    if (!levels)
        return false;
    size_t offset = 0;
    for (cl_uint level = 0; level < count; level++) {
        levels[level] = level_shape(mem, level);
        levels[level].data += offset;
        levels[level].levels = levels;
        offset += levels[level].slice_pitch * (size_t)levels[level].depth;
    }
    mem->image.levels = levels;
    return true;
}

/* cl_khr_mipmap_image: at most as many levels as halving the largest
 * dimension takes to reach 1 (not counting layers); not for 1D buffer
 * images, images over other objects or the application's memory ("The
 * host_ptr argument to clCreateImage must be a NULL value"). 0 and 1 are
 * images without mipmaps. */
static cl_int check_mip_levels(const cl_image_desc *d, cl_mem_flags flags, const void *host_ptr)
{
    if (d->num_mip_levels <= 1)
        return CL_SUCCESS;
    size_t largest = d->image_width;
    if (d->image_type == CL_MEM_OBJECT_IMAGE2D || d->image_type == CL_MEM_OBJECT_IMAGE2D_ARRAY ||
        d->image_type == CL_MEM_OBJECT_IMAGE3D)
        largest = largest > d->image_height ? largest : d->image_height;
    if (d->image_type == CL_MEM_OBJECT_IMAGE3D)
        largest = largest > d->image_depth ? largest : d->image_depth;
    cl_uint most = 1;
    while (largest >> most)
        most++;
    if (d->image_type == CL_MEM_OBJECT_IMAGE1D_BUFFER || d->mem_object || host_ptr ||
        (flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR)) || d->num_mip_levels > most)
        return CL_INVALID_IMAGE_DESCRIPTOR;
    return CL_SUCCESS;
}

/* Copies the application's pixels (with its pitches) into tightly packed
 * storage (CL_MEM_COPY_HOST_PTR). */
static void copy_in(cl_mem mem, const char *host, size_t host_row, size_t host_layer)
{
    const struct cc_image *im = &mem->image;
    size_t bytes = (size_t)im->width * im->element_size;
    bool is_1d_array = mem->desc.image_type == CL_MEM_OBJECT_IMAGE1D_ARRAY;
    size_t src_row = is_1d_array ? host_layer : host_row;
    size_t src_slice = is_1d_array ? 0 : host_layer;
    for (int z = 0; z < im->depth; z++)
        for (int y = 0; y < im->height; y++)
            memcpy(mem->storage + z * im->slice_pitch + y * im->row_pitch,
                   host + z * src_slice + y * src_row, bytes);
}

/* The object an image is made over: a buffer for 1D buffer images and 2D
 * images from buffers, a 2D image for 2D images from images. */
static cl_int check_parent(cl_context context, const cl_image_format *format,
                           const cl_image_desc *d, size_t element_size, size_t row_pitch,
                           size_t extent)
{
    cl_mem parent = d->mem_object;
    bool may_have = d->image_type == CL_MEM_OBJECT_IMAGE1D_BUFFER ||
                    d->image_type == CL_MEM_OBJECT_IMAGE2D;
    if (!parent)
        return d->image_type == CL_MEM_OBJECT_IMAGE1D_BUFFER ? CL_INVALID_IMAGE_DESCRIPTOR
                                                             : CL_SUCCESS;
    if (!may_have || !api_valid_mem(parent) || parent->context != context)
        return CL_INVALID_IMAGE_DESCRIPTOR;
    if (parent->type == CL_MEM_OBJECT_BUFFER) {
        /* cl_khr_image2d_from_buffer: rows at the pitch alignment, within
         * the buffer */
        if (row_pitch % (API_IMAGE_PITCH_ALIGNMENT * element_size) ||
            (uintptr_t)parent->storage % (API_IMAGE_BASE_ADDRESS_ALIGNMENT * element_size) ||
            extent > parent->size)
            return CL_INVALID_IMAGE_SIZE;
        return CL_SUCCESS;
    }
    /* 5.3.1 (2.0): a 2D image from a 2D image shares its pixels; the
     * channel order may differ, the data type and sizes may not. */
    if (d->image_type != CL_MEM_OBJECT_IMAGE2D || parent->type != CL_MEM_OBJECT_IMAGE2D ||
        parent->desc.num_mip_levels > 1)
        return CL_INVALID_IMAGE_DESCRIPTOR;
    if (parent->desc.image_width != d->image_width ||
        parent->desc.image_height != d->image_height ||
        (d->image_row_pitch && d->image_row_pitch != parent->desc.image_row_pitch))
        return CL_INVALID_IMAGE_DESCRIPTOR;
    if (parent->format.image_channel_data_type != format->image_channel_data_type ||
        (size_t)parent->image.element_size != element_size)
        return CL_INVALID_IMAGE_FORMAT_DESCRIPTOR;
    return CL_SUCCESS;
}

static cl_mem create_image(cl_context context, const cl_mem_properties *properties,
                           cl_mem_flags flags, const cl_image_format *format,
                           const cl_image_desc *desc, void *host_ptr, bool from_gl,
                           cl_int *errcode_ret)
{
    cl_int err;
    cl_mem mem = NULL;
    if (!api_valid_context(context)) {
        err = CL_INVALID_CONTEXT;
        goto fail;
    }
    /* an image's properties: external memory's (external_memory.c) */
    struct api_mem_properties read;
    if ((err = api_read_mem_properties(context, properties, false, &read)))
        goto fail;
    bool external = read.external_fd >= 0;
    if (!api_valid_buffer_flags(flags)) {
        err = CL_INVALID_VALUE;
        goto fail;
    }
    size_t element_size = format ? rt_image_element_size(format) : 0;
    if (!element_size) {
        err = CL_INVALID_IMAGE_FORMAT_DESCRIPTOR;
        goto fail;
    }
    /* multi-sample images come from GL textures only (cl_khr_gl_msaa_sharing) */
    bool samples_ok = !desc || !desc->num_samples ||
                      (from_gl && (desc->image_type == CL_MEM_OBJECT_IMAGE2D ||
                                   desc->image_type == CL_MEM_OBJECT_IMAGE2D_ARRAY));
    if (!desc || !is_image_type(desc->image_type) || !samples_ok) {
        err = CL_INVALID_IMAGE_DESCRIPTOR;
        goto fail;
    }
    cl_image_desc d = *desc;
    cl_mem parent = d.mem_object;
    if ((err = check_mip_levels(&d, flags, host_ptr)))
        goto fail;
    if (external && ((err = api_check_external_flags(flags, host_ptr)) ||
                     (parent && (err = CL_INVALID_IMAGE_DESCRIPTOR)) ||
                     (d.num_mip_levels > 1 && (err = CL_INVALID_IMAGE_DESCRIPTOR))))
        goto fail;
    /* 5.3.1: without host memory (or a buffer to give rows) the pitches
     * must be 0; cl_khr_external_memory: an imported image may give them
     * too (else they are "implementation-defined": tightly packed) */
    bool rows_given = host_ptr || external ||
                      (parent && api_valid_mem(parent) && parent->type == CL_MEM_OBJECT_BUFFER);
    if (!host_ptr && !rows_given && (d.image_row_pitch || d.image_slice_pitch)) {
        err = CL_INVALID_IMAGE_DESCRIPTOR;
        goto fail;
    }
    size_t row_pitch, layer_pitch, extent;
    if ((err = check_sizes(&d, context->devices[0], element_size)) ||
        (err = pitches(&d, element_size, rows_given, &row_pitch, &layer_pitch, &extent)) ||
        (err = check_parent(context, format, &d, element_size, row_pitch, extent)))
        goto fail;
    if (host_ptr && api_past_address_space(host_ptr, extent)) {
        err = CL_INVALID_IMAGE_DESCRIPTOR;
        goto fail;
    }
    if (parent && parent->type != CL_MEM_OBJECT_BUFFER)
        row_pitch = parent->desc.image_row_pitch; /* the parent image's rows */
    /* cl_ext_immutable_memory_objects (API 5.3.1): an immutable image gets
     * its contents at creation or from the object it is made over, and an
     * image over an immutable object must say it is immutable */
    if ((flags & CL_MEM_IMMUTABLE_EXT) && !parent &&
        !(flags & (CL_MEM_COPY_HOST_PTR | CL_MEM_USE_HOST_PTR))) {
        err = CL_INVALID_VALUE;
        goto fail;
    }
    if (parent && api_valid_mem(parent) && api_mem_immutable(parent) &&
        !(flags & CL_MEM_IMMUTABLE_EXT)) {
        err = CL_INVALID_VALUE;
        goto fail;
    }
    cl_mem_flags own_flags = flags;
    if (parent && (err = api_derived_mem_flags(parent, flags, &own_flags))) {
        goto fail;
    }
    bool needs_ptr = (flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR)) != 0;
    if (needs_ptr != (host_ptr != NULL)) {
        err = CL_INVALID_HOST_PTR;
        goto fail;
    }
    if (!rt_image_format_supported(format, d.image_type, flags) &&
        !(from_gl && rt_image_format_from_gl(format, d.image_type))) {
        err = CL_IMAGE_FORMAT_NOT_SUPPORTED;
        goto fail;
    }
    if (!(own_flags &
          (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY | CL_MEM_IMMUTABLE_EXT)))
        own_flags |= CL_MEM_READ_WRITE;

    mem = api_mem_new(context, d.image_type, own_flags);
    if (!mem) {
        err = CL_OUT_OF_HOST_MEMORY;
        goto fail;
    }
    mem->format = *format;
    if (read.count) {
        mem->properties = malloc(read.count * sizeof *mem->properties);
        mem->num_properties = read.count;
        if (mem->properties)
            memcpy(mem->properties, properties, read.count * sizeof *mem->properties);
        if (!mem->properties) {
            err = CL_OUT_OF_HOST_MEMORY;
            goto fail_release;
        }
    }
    bool keeps_host_rows = (flags & CL_MEM_USE_HOST_PTR) || parent || external;
    d.image_row_pitch = keeps_host_rows ? row_pitch : d.image_width * element_size;
    d.image_slice_pitch = layer_pitch == 0          ? 0
                          : keeps_host_rows         ? layer_pitch
                          : d.image_type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? d.image_row_pitch
                                                    : d.image_row_pitch * d.image_height;
    if (d.image_type != CL_MEM_OBJECT_IMAGE1D_ARRAY && d.image_type != CL_MEM_OBJECT_IMAGE2D_ARRAY)
        d.image_array_size = 0;
    if (d.image_type != CL_MEM_OBJECT_IMAGE3D)
        d.image_depth = 0;
    if (d.image_type == CL_MEM_OBJECT_IMAGE1D || d.image_type == CL_MEM_OBJECT_IMAGE1D_BUFFER ||
        d.image_type == CL_MEM_OBJECT_IMAGE1D_ARRAY)
        d.image_height = 0;
    mem->desc = d;
    if (parent) {
        mem->parent = parent;
        rt_object_hold(RT_OBJ(parent));
        mem->storage = parent->storage;
        mem->host_ptr = NULL;
        describe(mem, element_size);
    } else if (flags & CL_MEM_USE_HOST_PTR) {
        mem->storage = host_ptr;
        mem->host_ptr = host_ptr;
        describe(mem, element_size);
    } else if (external) {
        describe(mem, element_size); /* computes the size */
        if ((err = api_map_external(mem, read.external_fd, mem->size, CL_INVALID_IMAGE_SIZE)))
            goto fail_release;
        mem->image.data = (unsigned char *)mem->storage;
    } else {
        mem->storage = NULL;
        describe(mem, element_size); /* computes the size */
        size_t rounded = (mem->size + 127) & ~(size_t)127;
        mem->storage = rt_alloc_storage(rounded, 128);
        if (!mem->storage) {
            err = CL_MEM_OBJECT_ALLOCATION_FAILURE;
            goto fail_release;
        }
        mem->internal_flags |= RT_MEM_OWNS_STORAGE;
        mem->image.data = (unsigned char *)mem->storage;
        if (d.num_mip_levels > 1 && !describe_levels(mem)) {
            err = CL_OUT_OF_HOST_MEMORY;
            goto fail_release;
        }
        if (flags & CL_MEM_COPY_HOST_PTR)
            copy_in(mem, host_ptr, row_pitch, layer_pitch);
    }
    api_set_error(errcode_ret, CL_SUCCESS);
    return mem;
fail_release:
    rt_object_release(RT_OBJ(mem));
fail:
    api_set_error(errcode_ret, err);
    return NULL;
}

cl_mem api_create_gl_image(cl_context context, cl_mem_flags flags, const cl_image_format *format,
                           const cl_image_desc *desc, cl_int *errcode_ret)
{
    return create_image(context, NULL, flags, format, desc, NULL, true, errcode_ret);
}

API_EXPORT CL_API_ENTRY cl_mem CL_API_CALL
clCreateImage(cl_context context, cl_mem_flags flags, const cl_image_format *format,
              const cl_image_desc *desc, void *host_ptr, cl_int *errcode_ret)
{
    return create_image(context, NULL, flags, format, desc, host_ptr, false, errcode_ret);
}

API_EXPORT CL_API_ENTRY cl_mem CL_API_CALL
clCreateImageWithProperties(cl_context context, const cl_mem_properties *properties,
                            cl_mem_flags flags, const cl_image_format *format,
                            const cl_image_desc *desc, void *host_ptr, cl_int *errcode_ret)
{
    return create_image(context, properties, flags, format, desc, host_ptr, false, errcode_ret);
}

/* The 1.x entry points: the same with their sizes (deprecated, 5.3.1). */
API_EXPORT CL_API_ENTRY cl_mem CL_API_CALL
clCreateImage2D(cl_context context, cl_mem_flags flags, const cl_image_format *format,
                size_t width, size_t height, size_t row_pitch, void *host_ptr, cl_int *errcode_ret)
{
    cl_image_desc desc = {.image_type = CL_MEM_OBJECT_IMAGE2D, .image_width = width,
                          .image_height = height, .image_row_pitch = row_pitch};
    if (api_valid_context(context) && format && rt_image_element_size(format) &&
        (width == 0 || height == 0)) {
        api_set_error(errcode_ret, CL_INVALID_IMAGE_SIZE);
        return NULL;
    }
    return create_image(context, NULL, flags, format, &desc, host_ptr, false, errcode_ret);
}

API_EXPORT CL_API_ENTRY cl_mem CL_API_CALL
clCreateImage3D(cl_context context, cl_mem_flags flags, const cl_image_format *format,
                size_t width, size_t height, size_t depth, size_t row_pitch, size_t slice_pitch,
                void *host_ptr, cl_int *errcode_ret)
{
    cl_image_desc desc = {.image_type = CL_MEM_OBJECT_IMAGE3D, .image_width = width,
                          .image_height = height, .image_depth = depth,
                          .image_row_pitch = row_pitch, .image_slice_pitch = slice_pitch};
    /* 1.x: a 3D image has a depth of at least 2 */
    if (api_valid_context(context) && format && rt_image_element_size(format) &&
        (width == 0 || height == 0 || depth < 2)) {
        api_set_error(errcode_ret, CL_INVALID_IMAGE_SIZE);
        return NULL;
    }
    return create_image(context, NULL, flags, format, &desc, host_ptr, false, errcode_ret);
}

API_EXPORT CL_API_ENTRY cl_int CL_API_CALL
clGetSupportedImageFormats(cl_context context, cl_mem_flags flags, cl_mem_object_type type,
                           cl_uint num_entries, cl_image_format *formats, cl_uint *num_formats)
{
    if (!api_valid_context(context))
        return CL_INVALID_CONTEXT;
    cl_mem_flags known = CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY |
                         CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR |
                         CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS |
                         CL_MEM_KERNEL_READ_AND_WRITE | CL_MEM_IMMUTABLE_EXT;
    if ((flags & ~known) || !is_image_type(type) || (num_entries == 0 && formats))
        return CL_INVALID_VALUE;
    cl_uint n = rt_image_formats(type, flags, formats, num_entries);
    if (num_formats)
        *num_formats = n;
    return CL_SUCCESS;
}

API_EXPORT CL_API_ENTRY cl_int CL_API_CALL
clGetImageInfo(cl_mem image, cl_image_info param_name, size_t param_value_size,
               void *param_value, size_t *param_value_size_ret)
{
    if (!api_is_image(image))
        return CL_INVALID_MEM_OBJECT;
    const cl_image_desc *d = &image->desc;
    size_t element_size = (size_t)image->image.element_size;
    switch (param_name) {
    case CL_IMAGE_FORMAT: return API_INFO(image->format);
    case CL_IMAGE_ELEMENT_SIZE: return API_INFO(element_size);
    case CL_IMAGE_ROW_PITCH: return API_INFO(d->image_row_pitch);
    case CL_IMAGE_SLICE_PITCH: return API_INFO(d->image_slice_pitch);
    case CL_IMAGE_WIDTH: return API_INFO(d->image_width);
    case CL_IMAGE_HEIGHT: return API_INFO(d->image_height);
    case CL_IMAGE_DEPTH: return API_INFO(d->image_depth);
    case CL_IMAGE_ARRAY_SIZE: return API_INFO(d->image_array_size);
    case CL_IMAGE_BUFFER: {
        cl_mem buffer = image->parent && image->parent->type == CL_MEM_OBJECT_BUFFER
                            ? image->parent
                            : NULL;
        return API_INFO(buffer);
    }
    case CL_IMAGE_NUM_MIP_LEVELS: return API_INFO(d->num_mip_levels);
    case CL_IMAGE_NUM_SAMPLES: return API_INFO(d->num_samples);
    default: return CL_INVALID_VALUE;
    }
}
