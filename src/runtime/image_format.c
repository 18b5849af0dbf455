/* image_format.c - image formats (API spec 5.3.1.1, 5.3.2.1) and the
 * host's side of the pixel conversions of OpenCL C 2.0 chapter 8.3, which
 * the built-in library (src/builtins/image.cl) does for kernels. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "runtime/image_format.h"

/* The twelve data types every plain channel order takes. */
static const cl_channel_type plain_types[] = {
    CL_UNORM_INT8,    CL_UNORM_INT16,    CL_SNORM_INT8,      CL_SNORM_INT16,
    CL_SIGNED_INT8,   CL_SIGNED_INT16,   CL_SIGNED_INT32,    CL_UNSIGNED_INT8,
    CL_UNSIGNED_INT16, CL_UNSIGNED_INT32, CL_HALF_FLOAT,     CL_FLOAT,
};
/* 5.3.1.1: CL_INTENSITY and CL_LUMINANCE take no integer types. */
static const cl_channel_type normalized_types[] = {
    CL_UNORM_INT8, CL_UNORM_INT16, CL_SNORM_INT8, CL_SNORM_INT16, CL_HALF_FLOAT, CL_FLOAT,
};
/* ... CL_ARGB, CL_BGRA and CL_ABGR only 8-bit ones, */
static const cl_channel_type byte_types[] = {
    CL_UNORM_INT8, CL_SNORM_INT8, CL_SIGNED_INT8, CL_UNSIGNED_INT8,
};
/* ... CL_RGB only the packed ones, sRGB only CL_UNORM_INT8, depth these. */
static const cl_channel_type packed_types[] = {
    CL_UNORM_SHORT_565, CL_UNORM_SHORT_555, CL_UNORM_INT_101010,
};
static const cl_channel_type srgb_types[] = {CL_UNORM_INT8};
static const cl_channel_type depth_types[] = {CL_UNORM_INT16, CL_FLOAT};
/* cl_khr_gl_depth_images: depth and stencil, made from GL textures only */
static const cl_channel_type depth_stencil_types[] = {CL_UNORM_INT24, CL_FLOAT};

#define TYPES(list) list, sizeof list / sizeof list[0]

/* Every channel order cpucl knows: the types it pairs with, how many
 * channels a pixel stores, which RGBA component each stored channel holds,
 * and whether the device offers it. */
static const struct order {
    cl_channel_order order;
    const cl_channel_type *types;
    unsigned num_types;
    unsigned channels;
    unsigned char component[4];
    bool offered;
} orders[] = {
    {CL_R, TYPES(plain_types), 1, {0}, true},
    {CL_A, TYPES(plain_types), 1, {3}, true},
    {CL_RG, TYPES(plain_types), 2, {0, 1}, true},
    {CL_RA, TYPES(plain_types), 2, {0, 3}, true},
    {CL_RGBA, TYPES(plain_types), 4, {0, 1, 2, 3}, true},
    {CL_BGRA, TYPES(byte_types), 4, {2, 1, 0, 3}, true},
    {CL_ARGB, TYPES(byte_types), 4, {3, 0, 1, 2}, true},
    {CL_ABGR, TYPES(byte_types), 4, {3, 2, 1, 0}, true},
    {CL_INTENSITY, TYPES(normalized_types), 1, {0}, true},
    {CL_LUMINANCE, TYPES(normalized_types), 1, {0}, true},
    {CL_RGB, TYPES(packed_types), 3, {0, 1, 2}, true},
    {CL_sRGBA, TYPES(srgb_types), 4, {0, 1, 2, 3}, true},
    {CL_sBGRA, TYPES(srgb_types), 4, {2, 1, 0, 3}, true},
    {CL_DEPTH, TYPES(depth_types), 1, {0}, true},
    {CL_DEPTH_STENCIL, TYPES(depth_stencil_types), 1, {0}, false},
    /* formats that exist but the device does not offer */
    {CL_Rx, TYPES(plain_types), 1, {0}, false},
    {CL_RGx, TYPES(plain_types), 2, {0, 1}, false},
    {CL_RGBx, TYPES(packed_types), 3, {0, 1, 2}, false},
    {CL_sRGB, TYPES(srgb_types), 3, {0, 1, 2}, false},
    {CL_sRGBx, TYPES(srgb_types), 3, {0, 1, 2}, false},
};

static const struct order *find_order(cl_channel_order order)
{
    for (size_t i = 0; i < sizeof orders / sizeof orders[0]; i++)
        if (orders[i].order == order)
            return &orders[i];
    return NULL;
}

static bool pairs_with(const struct order *o, cl_channel_type type)
{
    for (unsigned i = 0; i < o->num_types; i++)
        if (o->types[i] == type)
            return true;
    return false;
}

static size_t channel_size(cl_channel_type type)
{
    switch (type) {
    case CL_UNORM_INT8: case CL_SNORM_INT8: case CL_SIGNED_INT8: case CL_UNSIGNED_INT8:
        return 1;
    case CL_UNORM_INT16: case CL_SNORM_INT16: case CL_SIGNED_INT16: case CL_UNSIGNED_INT16:
    case CL_HALF_FLOAT:
        return 2;
    default:
        return 4;
    }
}

size_t rt_image_element_size(const cl_image_format *format)
{
    const struct order *o = find_order(format->image_channel_order);
    if (!o || !pairs_with(o, format->image_channel_data_type))
        return 0;
    /* API 5.3.14.1: CL_UNORM_INT24 depth with the stencil in 32 bits; a
     * float's depth and the stencil in two 32-bit values */
    if (o->order == CL_DEPTH_STENCIL)
        return format->image_channel_data_type == CL_FLOAT ? 8 : 4;
    switch (format->image_channel_data_type) {
    case CL_UNORM_SHORT_565: case CL_UNORM_SHORT_555: return 2;
    case CL_UNORM_INT_101010: return 4;
    default: return o->channels * channel_size(format->image_channel_data_type);
    }
}

bool rt_image_format_supported(const cl_image_format *format, cl_mem_object_type type,
                               cl_mem_flags flags)
{
    (void)flags; /* every offered format takes every kind of access */
    const struct order *o = find_order(format->image_channel_order);
    if (!o || !o->offered || !pairs_with(o, format->image_channel_data_type))
        return false;
    /* cl_khr_depth_images: depth formats are for 2D images and arrays */
    if (o->order == CL_DEPTH)
        return type == CL_MEM_OBJECT_IMAGE2D || type == CL_MEM_OBJECT_IMAGE2D_ARRAY;
    return true;
}

bool rt_image_format_from_gl(const cl_image_format *format, cl_mem_object_type type)
{
    return format->image_channel_order == CL_DEPTH_STENCIL && rt_image_element_size(format) &&
           (type == CL_MEM_OBJECT_IMAGE2D || type == CL_MEM_OBJECT_IMAGE2D_ARRAY);
}

cl_uint rt_image_formats(cl_mem_object_type type, cl_mem_flags flags, cl_image_format *out,
                         cl_uint max)
{
    cl_uint n = 0;
    for (size_t i = 0; i < sizeof orders / sizeof orders[0]; i++) {
        for (unsigned t = 0; t < orders[i].num_types; t++) {
            cl_image_format format = {orders[i].order, orders[i].types[t]};
            if (!rt_image_format_supported(&format, type, flags))
                continue;
            if (out && n < max)
                out[n] = format;
            n++;
        }
    }
    return n;
}

/* --- fill colours --- */

/* f * scale rounded to nearest even and saturated to [lo, hi]; NaN is 0
 * (convert_<type>_sat_rte). */
static long scaled(float f, float scale, long lo, long hi)
{
    if (isnan(f))
        return 0;
    float x = f * scale;
    if (x <= (float)lo)
        return lo;
    if (x >= (float)hi)
        return hi;
    return lrintf(x); /* the default rounding mode: to nearest even */
}

static long saturated(long v, long lo, long hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

/* OpenCL C 2.0 8.3.4: linear to sRGB. */
static float linear_to_srgb(float c)
{
    if (isnan(c))
        return 0.0f;
    c = c < 0.0f ? 0.0f : c > 1.0f ? 1.0f : c;
    return c < 0.0031308f ? 12.92f * c : 1.055f * powf(c, 1.0f / 2.4f) - 0.055f;
}

static void put(unsigned char *p, const void *value, size_t size)
{
    memcpy(p, value, size);
}

static void pack_channel(cl_channel_type type, float f, cl_int i, cl_uint u, unsigned char *p)
{
    switch (type) {
    case CL_UNORM_INT8: *p = (unsigned char)scaled(f, 255.0f, 0, 255); break;
    case CL_SNORM_INT8: *(signed char *)p = (signed char)scaled(f, 127.0f, -128, 127); break;
    case CL_UNORM_INT16: { uint16_t v = (uint16_t)scaled(f, 65535.0f, 0, 65535); put(p, &v, 2); break; }
    case CL_SNORM_INT16: { int16_t v = (int16_t)scaled(f, 32767.0f, -32768, 32767); put(p, &v, 2); break; }
    case CL_HALF_FLOAT: { _Float16 v = (_Float16)f; put(p, &v, 2); break; }
    case CL_FLOAT: put(p, &f, 4); break;
    case CL_SIGNED_INT8: *(signed char *)p = (signed char)saturated(i, -128, 127); break;
    case CL_SIGNED_INT16: { int16_t v = (int16_t)saturated(i, -32768, 32767); put(p, &v, 2); break; }
    case CL_SIGNED_INT32: put(p, &i, 4); break;
    case CL_UNSIGNED_INT8: *p = (unsigned char)(u > 255 ? 255 : u); break;
    case CL_UNSIGNED_INT16: { uint16_t v = (uint16_t)(u > 65535 ? 65535 : u); put(p, &v, 2); break; }
    case CL_UNSIGNED_INT32: put(p, &u, 4); break;
    default: break;
    }
}

void rt_image_pack_color(const cl_image_format *format, const void *color, unsigned char *pixel)
{
    cl_channel_type type = format->image_channel_data_type;
    const struct order *o = find_order(format->image_channel_order);
    float f[4];
    cl_int i[4];
    cl_uint u[4];
    memcpy(f, color, sizeof f);
    memcpy(i, color, sizeof i);
    memcpy(u, color, sizeof u);
    if (o->order == CL_sRGBA || o->order == CL_sBGRA || o->order == CL_sRGB || o->order == CL_sRGBx)
        for (int c = 0; c < 3; c++)
            f[c] = linear_to_srgb(f[c]);
    if (type == CL_UNORM_SHORT_565) {
        uint16_t v = (uint16_t)(scaled(f[0], 31.0f, 0, 31) << 11 | scaled(f[1], 63.0f, 0, 63) << 5 |
                                scaled(f[2], 31.0f, 0, 31));
        put(pixel, &v, 2);
    } else if (type == CL_UNORM_SHORT_555) {
        uint16_t v = (uint16_t)(scaled(f[0], 31.0f, 0, 31) << 10 | scaled(f[1], 31.0f, 0, 31) << 5 |
                                scaled(f[2], 31.0f, 0, 31));
        put(pixel, &v, 2);
    } else if (type == CL_UNORM_INT_101010) {
        uint32_t v = (uint32_t)(scaled(f[0], 1023.0f, 0, 1023) << 20 |
                                scaled(f[1], 1023.0f, 0, 1023) << 10 | scaled(f[2], 1023.0f, 0, 1023));
        put(pixel, &v, 4);
    } else {
        size_t size = channel_size(type);
        for (unsigned c = 0; c < o->channels; c++) {
            unsigned k = o->component[c];
            pack_channel(type, f[k], i[k], u[k], pixel + c * size);
        }
    }
}
