/* image.cl - image reads, writes and queries (OpenCL C 2.0 6.13.14), with
 * the sampler rules and format conversions of the OpenCL 2.0 C
 * specification chapter 8: addressing and filtering (8.2), conversions
 * between pixels and the values kernels see (8.3).
 *
 * An image argument points to a cc_image (image.h); a sampler's value is
 * its bits. Every function finds its pixels through the same box
 * addressing, whatever the image type: a 1D array's layer is the y index,
 * a 2D array's the z index.
 *
 * Indices that fall outside the image read the border colour and writes
 * there are dropped. The specification makes such accesses undefined
 * except under CLK_ADDRESS_CLAMP, where the border colour is the answer;
 * doing the same everywhere keeps a wrong kernel from touching memory
 * outside its image.
 *
 * read_imageh and write_imageh (cl_khr_fp16) are read_imagef with its
 * result rounded to the nearest half (8.3: the float value, converted to
 * half) and write_imagef of the half's exact float value.
 */
#include "library.h"
#include "image.h"

typedef const global struct cc_image *image_desc;

#define DESC(image) __builtin_astype(image, const global struct cc_image *)
#define BITS(sampler)                                                                          \
    __cpucl_sampler_bits((uint)__builtin_astype(sampler, ulong) & CC_SAMPLER_BITS_MASK)

/* The format fields and the sampler are read through these hooks, which
 * the compiler replaces before optimising (src/compiler/launch.c): by
 * loads that never change during the kernel, or, in a copy of the kernel
 * made for a launch whose images share one format and whose samplers
 * agree, by those constants, so that the format and addressing switches
 * fold and the work-item loop can vectorize. */
int __cpucl_image_order(image_desc im) __attribute__((const));
int __cpucl_image_type(image_desc im) __attribute__((const));
int __cpucl_image_element_size(image_desc im) __attribute__((const));
/* the descriptor's other fields, which no launch fixes but no kernel
 * changes: loads the optimiser may take out of the work-item loop */
global uchar *__cpucl_image_data(image_desc im) __attribute__((const));
ulong __cpucl_image_row_pitch(image_desc im) __attribute__((const));
ulong __cpucl_image_slice_pitch(image_desc im) __attribute__((const));
int __cpucl_image_width(image_desc im) __attribute__((const));
int __cpucl_image_height(image_desc im) __attribute__((const));
int __cpucl_image_depth(image_desc im) __attribute__((const));
int __cpucl_image_array_size(image_desc im) __attribute__((const));
uint __cpucl_sampler_bits(uint bits) __attribute__((const));

/* A program's sampler constant (6.13.14.1) becomes a call of this with the
 * constant's bits; the bits are the sampler. */
constant void *__translate_sampler_initializer(int bits)
{
    return (constant void *)(ulong)(uint)bits;
}

/* --- pixels --- */

static global uchar *pixel(image_desc im, int x, int y, int z)
{
    return __cpucl_image_data(im) + (ulong)z * __cpucl_image_slice_pitch(im) +
           (ulong)y * __cpucl_image_row_pitch(im) +
           (ulong)x * (ulong)__cpucl_image_element_size(im);
}

static bool inside(image_desc im, int x, int y, int z)
{
    return (uint)x < (uint)__cpucl_image_width(im) && (uint)y < (uint)__cpucl_image_height(im) &&
           (uint)z < (uint)__cpucl_image_depth(im);
}

/* How many channels a pixel stores (packed formats store one word). */
static int stored_channels(int order)
{
    switch (order) {
    case CLK_RG: case CLK_RA: case CLK_RGx:
        return 2;
    case CLK_RGB: case CLK_RGBx: case CLK_sRGB: case CLK_sRGBx:
        return 3;
    case CLK_RGBA: case CLK_BGRA: case CLK_ARGB: case CLK_ABGR: case CLK_sRGBA: case CLK_sBGRA:
        return 4;
    default:
        return 1;
    }
}

static bool is_srgb(int order)
{
    return order == CLK_sRGB || order == CLK_sRGBx || order == CLK_sRGBA || order == CLK_sBGRA;
}

/* 8.2: the border colour has alpha 0 where the format has alpha, else 1. */
static bool has_alpha(int order)
{
    switch (order) {
    case CLK_A: case CLK_INTENSITY: case CLK_RA: case CLK_ARGB: case CLK_BGRA: case CLK_RGBA:
    case CLK_ABGR: case CLK_sRGBA: case CLK_sBGRA:
        return true;
    default:
        return false;
    }
}

/* Stored channels c to (r, g, b, a); `one` fills a missing alpha. */
#define ARRANGE(T, one)                                                                       \
    static T##4 arrange_##T(int order, T c0, T c1, T c2, T c3)                                \
    {                                                                                         \
        switch (order) {                                                                      \
        case CLK_A: return (T##4)(0, 0, 0, c0);                                               \
        case CLK_RG: case CLK_RGx: return (T##4)(c0, c1, 0, one);                             \
        case CLK_RA: return (T##4)(c0, 0, 0, c1);                                             \
        case CLK_RGB: case CLK_RGBx: case CLK_sRGB: case CLK_sRGBx:                           \
            return (T##4)(c0, c1, c2, one);                                                   \
        case CLK_RGBA: case CLK_sRGBA: return (T##4)(c0, c1, c2, c3);                         \
        case CLK_BGRA: case CLK_sBGRA: return (T##4)(c2, c1, c0, c3);                         \
        case CLK_ARGB: return (T##4)(c1, c2, c3, c0);                                         \
        case CLK_ABGR: return (T##4)(c3, c2, c1, c0);                                         \
        case CLK_INTENSITY: return (T##4)(c0, c0, c0, c0);                                    \
        case CLK_LUMINANCE: return (T##4)(c0, c0, c0, one);                                   \
        default: return (T##4)(c0, 0, 0, one); /* R, Rx, DEPTH */                             \
        }                                                                                     \
    }                                                                                         \
    /* (r, g, b, a) to the channels a pixel stores, in storage order */                       \
    static T##4 disarrange_##T(int order, T##4 v)                                             \
    {                                                                                         \
        switch (order) {                                                                      \
        case CLK_A: return (T##4)(v.w, 0, 0, 0);                                              \
        case CLK_RA: return (T##4)(v.x, v.w, 0, 0);                                           \
        case CLK_BGRA: case CLK_sBGRA: return v.zyxw;                                         \
        case CLK_ARGB: return v.wxyz;                                                         \
        case CLK_ABGR: return v.wzyx;                                                         \
        default: return v;                                                                    \
        }                                                                                     \
    }
ARRANGE(float, 1.0f)
ARRANGE(int, 1)
ARRANGE(uint, 1u)

/* 8.3.4: sRGB to linear and back, for the r, g and b channels. */
static float srgb_to_linear(float c)
{
    return c <= 0.04045f ? c / 12.92f : pow((c + 0.055f) / 1.055f, 2.4f);
}

static float linear_to_srgb(float c)
{
    if (isnan(c))
        return 0.0f;
    c = clamp(c, 0.0f, 1.0f);
    return c < 0.0031308f ? 12.92f * c : 1.055f * pow(c, 1.0f / 2.4f) - 0.055f;
}

/* --- pixel to value: 8.3.1 (normalized), 8.3.2 (half), 8.3.3 (float) --- */

static float channel_f(int type, const global uchar *p, int i)
{
    switch (type) {
    case CLK_UNORM_INT8: return p[i] / 255.0f;
    case CLK_UNORM_INT16: return ((const global ushort *)p)[i] / 65535.0f;
    case CLK_SNORM_INT8: return max(((const global char *)p)[i] / 127.0f, -1.0f);
    case CLK_SNORM_INT16: return max(((const global short *)p)[i] / 32767.0f, -1.0f);
    case CLK_HALF_FLOAT: return vload_half(i, (const global half *)p);
    case CLK_FLOAT: return ((const global float *)p)[i];
    /* cl_khr_gl_depth_images: GL's packing, the depth above the stencil */
    case CLK_UNORM_INT24: return (((const global uint *)p)[i] >> 8) / 16777215.0f;
    /* integer formats under read_imagef: undefined (8.3); the raw value */
    case CLK_SIGNED_INT8: return ((const global char *)p)[i];
    case CLK_SIGNED_INT16: return ((const global short *)p)[i];
    case CLK_SIGNED_INT32: return ((const global int *)p)[i];
    case CLK_UNSIGNED_INT8: return p[i];
    case CLK_UNSIGNED_INT16: return ((const global ushort *)p)[i];
    case CLK_UNSIGNED_INT32: return ((const global uint *)p)[i];
    default: return 0.0f;
    }
}

static float4 load_f(image_desc im, int x, int y, int z)
{
    const global uchar *p = pixel(im, x, y, z);
    int type = __cpucl_image_type(im), order = __cpucl_image_order(im);
    /* the commonest formats at once */
    if (order == CLK_RGBA) {
        if (type == CLK_FLOAT)
            return vload4(0, (const global float *)p);
        if (type == CLK_UNORM_INT8)
            return convert_float4(vload4(0, p)) / 255.0f;
    }
    float4 v;
    if (type == CLK_UNORM_SHORT_565) {
        ushort w = *(const global ushort *)p;
        v = (float4)((w >> 11) / 31.0f, ((w >> 5) & 63) / 63.0f, (w & 31) / 31.0f, 1.0f);
    } else if (type == CLK_UNORM_SHORT_555) {
        ushort w = *(const global ushort *)p;
        v = (float4)(((w >> 10) & 31) / 31.0f, ((w >> 5) & 31) / 31.0f, (w & 31) / 31.0f, 1.0f);
    } else if (type == CLK_UNORM_INT_101010) {
        uint w = *(const global uint *)p;
        v = (float4)(((w >> 20) & 1023) / 1023.0f, ((w >> 10) & 1023) / 1023.0f,
                     (w & 1023) / 1023.0f, 1.0f);
    } else {
        int n = stored_channels(order);
        float c[4] = {0.0f, 0.0f, 0.0f, 0.0f};
        for (int i = 0; i < n; i++)
            c[i] = channel_f(type, p, i);
        v = arrange_float(order, c[0], c[1], c[2], c[3]);
    }
    if (is_srgb(order))
        v = (float4)(srgb_to_linear(v.x), srgb_to_linear(v.y), srgb_to_linear(v.z), v.w);
    return v;
}

static uint channel_bits(int type, const global uchar *p, int i)
{
    switch (type) {
    case CLK_SIGNED_INT8: return (uint)(int)((const global char *)p)[i];
    case CLK_SIGNED_INT16: return (uint)(int)((const global short *)p)[i];
    case CLK_SIGNED_INT32: return ((const global uint *)p)[i];
    case CLK_UNSIGNED_INT8: return p[i];
    case CLK_UNSIGNED_INT16: return ((const global ushort *)p)[i];
    case CLK_UNSIGNED_INT32: return ((const global uint *)p)[i];
    default: return 0; /* normalized or float formats under read_imagei/ui: undefined (8.3) */
    }
}

/* 8.3.5: read_imagei/ui return the stored integers, widened. */
static uint4 load_bits(image_desc im, int x, int y, int z)
{
    const global uchar *p = pixel(im, x, y, z);
    int type = __cpucl_image_type(im), order = __cpucl_image_order(im);
    int n = stored_channels(order);
    uint c[4] = {0, 0, 0, 0};
    for (int i = 0; i < n; i++)
        c[i] = channel_bits(type, p, i);
    return arrange_uint(order, c[0], c[1], c[2], c[3]);
}

/* --- value to pixel: the same sections, rounding to nearest even and
 * saturating --- */

static void store_channel_f(int type, global uchar *p, int i, float f)
{
    switch (type) {
    case CLK_UNORM_INT8: p[i] = convert_uchar_sat_rte(f * 255.0f); break;
    case CLK_UNORM_INT16: ((global ushort *)p)[i] = convert_ushort_sat_rte(f * 65535.0f); break;
    case CLK_SNORM_INT8: ((global char *)p)[i] = convert_char_sat_rte(f * 127.0f); break;
    case CLK_SNORM_INT16: ((global short *)p)[i] = convert_short_sat_rte(f * 32767.0f); break;
    case CLK_HALF_FLOAT: vstore_half_rte(f, i, (global half *)p); break;
    case CLK_FLOAT: ((global float *)p)[i] = f; break;
    case CLK_UNORM_INT24: {
        global uint *w = (global uint *)p + i;
        *w = (*w & 0xffu) | convert_uint_sat_rte(f * 16777215.0f) << 8;
        break;
    }
    default: break; /* write_imagef to an integer format: undefined (8.3); nothing */
    }
}

static void store_f(image_desc im, int x, int y, int z, float4 v)
{
    if (!inside(im, x, y, z))
        return;
    global uchar *p = pixel(im, x, y, z);
    int type = __cpucl_image_type(im), order = __cpucl_image_order(im);
    if (order == CLK_RGBA && type == CLK_FLOAT) {
        vstore4(v, 0, (global float *)p);
        return;
    }
    if (order == CLK_RGBA && type == CLK_UNORM_INT8) {
        vstore4(convert_uchar4_sat_rte(v * 255.0f), 0, p);
        return;
    }
    if (is_srgb(order))
        v = (float4)(linear_to_srgb(v.x), linear_to_srgb(v.y), linear_to_srgb(v.z), v.w);
    if (type == CLK_UNORM_SHORT_565) {
        *(global ushort *)p = (ushort)(min(convert_ushort_sat_rte(v.x * 31.0f), (ushort)31) << 11 |
                                       min(convert_ushort_sat_rte(v.y * 63.0f), (ushort)63) << 5 |
                                       min(convert_ushort_sat_rte(v.z * 31.0f), (ushort)31));
    } else if (type == CLK_UNORM_SHORT_555) {
        *(global ushort *)p = (ushort)(min(convert_ushort_sat_rte(v.x * 31.0f), (ushort)31) << 10 |
                                       min(convert_ushort_sat_rte(v.y * 31.0f), (ushort)31) << 5 |
                                       min(convert_ushort_sat_rte(v.z * 31.0f), (ushort)31));
    } else if (type == CLK_UNORM_INT_101010) {
        *(global uint *)p = min(convert_uint_sat_rte(v.x * 1023.0f), 1023u) << 20 |
                            min(convert_uint_sat_rte(v.y * 1023.0f), 1023u) << 10 |
                            min(convert_uint_sat_rte(v.z * 1023.0f), 1023u);
    } else {
        float4 c = disarrange_float(order, v);
        int n = stored_channels(order);
        store_channel_f(type, p, 0, c.x);
        if (n > 1)
            store_channel_f(type, p, 1, c.y);
        if (n > 2)
            store_channel_f(type, p, 2, c.z);
        if (n > 3)
            store_channel_f(type, p, 3, c.w);
    }
}

/* write_imagei: saturate to the channel's signed range (8.3.5). */
static void store_channel_i(int type, global uchar *p, int i, int v)
{
    switch (type) {
    case CLK_SIGNED_INT8: ((global char *)p)[i] = convert_char_sat(v); break;
    case CLK_SIGNED_INT16: ((global short *)p)[i] = convert_short_sat(v); break;
    case CLK_SIGNED_INT32: ((global int *)p)[i] = v; break;
    default: break; /* undefined for other formats: nothing */
    }
}

static void store_channel_u(int type, global uchar *p, int i, uint v)
{
    switch (type) {
    case CLK_UNSIGNED_INT8: p[i] = convert_uchar_sat(v); break;
    case CLK_UNSIGNED_INT16: ((global ushort *)p)[i] = convert_ushort_sat(v); break;
    case CLK_UNSIGNED_INT32: ((global uint *)p)[i] = v; break;
    default: break;
    }
}

#define STORE_INT(name, T, channel)                                                           \
    static void name(image_desc im, int x, int y, int z, T##4 v)                              \
    {                                                                                         \
        if (!inside(im, x, y, z))                                                             \
            return;                                                                           \
        global uchar *p = pixel(im, x, y, z);                                                 \
        int order = __cpucl_image_order(im);                                                        \
        T##4 c = disarrange_##T(order, v);                                                    \
        int n = stored_channels(order);                                                       \
        channel(__cpucl_image_type(im), p, 0, c.x);                                            \
        if (n > 1)                                                                            \
            channel(__cpucl_image_type(im), p, 1, c.y);                                        \
        if (n > 2)                                                                            \
            channel(__cpucl_image_type(im), p, 2, c.z);                                        \
        if (n > 3)                                                                            \
            channel(__cpucl_image_type(im), p, 3, c.w);                                        \
    }
STORE_INT(store_i, int, store_channel_i)
STORE_INT(store_u, uint, store_channel_u)

/* --- fetching one pixel by index: the border colour outside --- */

static float4 fetch_f(image_desc im, int x, int y, int z)
{
    if (inside(im, x, y, z))
        return load_f(im, x, y, z);
    return (float4)(0.0f, 0.0f, 0.0f, has_alpha(__cpucl_image_order(im)) ? 0.0f : 1.0f);
}

static uint4 fetch_bits(image_desc im, int x, int y, int z)
{
    if (inside(im, x, y, z))
        return load_bits(im, x, y, z);
    return (uint4)(0, 0, 0, has_alpha(__cpucl_image_order(im)) ? 0 : 1);
}

/* --- coordinates to indices (8.2) ---
 *
 * `dims` coordinates are filtered (1, 2 or 3); an array image's layer is
 * the next coordinate, rounded and clamped to the layers (8.2: "the
 * layer index is clamp(rint(v), 0, d - 1)"). */

struct texels {
    int i0[3], i1[3]; /* the two pixels each dimension blends (nearest: i0 only) */
    float a[3];       /* weight of i1 */
};

/* floor(u) as an int, NaN and huge coordinates clamped (fmax/fmin drop a
 * NaN); any such coordinate lands outside the image or at its edge. */
static int floor_int(float u)
{
    return (int)fmin(fmax(floor(u), -16777216.0f), 16777216.0f);
}

static void nearest(float s, int n, uint bits, int *i)
{
    uint addressing = bits & CC_SAMPLER_ADDRESS_MASK;
    if (addressing == CLK_ADDRESS_REPEAT) {
        int k = floor_int((s - floor(s)) * n);
        *i = k > n - 1 ? k - n : k;
        return;
    }
    if (addressing == CLK_ADDRESS_MIRRORED_REPEAT) {
        float t = fabs(s - 2.0f * rint(0.5f * s));
        *i = min(floor_int(t * n), n - 1);
        return;
    }
    float u = (bits & CC_SAMPLER_NORMALIZED) ? s * n : s;
    int k = floor_int(u);
    *i = addressing == CLK_ADDRESS_CLAMP_TO_EDGE ? clamp(k, 0, n - 1) : k;
}

static void linear(float s, int n, uint bits, int *i0, int *i1, float *a)
{
    uint addressing = bits & CC_SAMPLER_ADDRESS_MASK;
    float u;
    if (addressing == CLK_ADDRESS_REPEAT)
        u = (s - floor(s)) * n;
    else if (addressing == CLK_ADDRESS_MIRRORED_REPEAT)
        u = fabs(s - 2.0f * rint(0.5f * s)) * n;
    else
        u = (bits & CC_SAMPLER_NORMALIZED) ? s * n : s;
    float v = u - 0.5f;
    int k = floor_int(v);
    *a = v - floor(v);
    *i0 = k;
    *i1 = k + 1;
    if (addressing == CLK_ADDRESS_REPEAT) {
        if (*i0 < 0)
            *i0 += n;
        if (*i1 > n - 1)
            *i1 -= n;
    } else if (addressing == CLK_ADDRESS_MIRRORED_REPEAT) {
        *i0 = max(*i0, 0);
        *i1 = min(*i1, n - 1);
    } else if (addressing == CLK_ADDRESS_CLAMP_TO_EDGE) {
        *i0 = clamp(*i0, 0, n - 1);
        *i1 = clamp(*i1, 0, n - 1);
    }
}

static int layer(float v, int layers)
{
    return clamp(convert_int_sat(rint(v)), 0, layers - 1);
}

static void place(image_desc im, float4 coord, int dims, bool is_array, uint bits, bool filter,
                  struct texels *t)
{
    float c[4] = {coord.x, coord.y, coord.z, coord.w};
    int size[3] = {__cpucl_image_width(im), __cpucl_image_height(im), __cpucl_image_depth(im)};
    for (int d = 0; d < 3; d++) {
        t->i0[d] = t->i1[d] = 0;
        t->a[d] = 0.0f;
    }
    for (int d = 0; d < dims; d++) {
        if (filter)
            linear(c[d], size[d], bits, &t->i0[d], &t->i1[d], &t->a[d]);
        else
            nearest(c[d], size[d], bits, &t->i0[d]);
    }
    if (is_array)
        t->i0[dims] = t->i1[dims] = layer(c[dims], __cpucl_image_array_size(im));
}

/* 8.2: linear filtering blends the 2, 4 or 8 nearest pixels. */
static float4 sample_f(image_desc im, uint bits, float4 coord, int dims, bool is_array)
{
    struct texels t;
    bool filter = (bits & CC_SAMPLER_FILTER_LINEAR) != 0;
    place(im, coord, dims, is_array, bits, filter, &t);
    /* only CLK_ADDRESS_CLAMP and NONE reach outside the image */
    uint addressing = bits & CC_SAMPLER_ADDRESS_MASK;
    bool inside_always = addressing != CLK_ADDRESS_CLAMP && addressing != CLK_ADDRESS_NONE;
    if (!filter)
        return inside_always ? load_f(im, t.i0[0], t.i0[1], t.i0[2])
                             : fetch_f(im, t.i0[0], t.i0[1], t.i0[2]);
    float4 sum = 0.0f;
    int corners = 1 << dims;
    for (int k = 0; k < corners; k++) {
        float w = 1.0f;
        int i[3] = {t.i0[0], t.i0[1], t.i0[2]};
        for (int d = 0; d < dims; d++) {
            bool high = (k >> d) & 1;
            i[d] = high ? t.i1[d] : t.i0[d];
            w *= high ? t.a[d] : 1.0f - t.a[d];
        }
        sum += w * (inside_always ? load_f(im, i[0], i[1], i[2]) : fetch_f(im, i[0], i[1], i[2]));
    }
    return sum;
}

/* read_imagei/ui: nearest only (linear filtering is undefined for them). */
static uint4 sample_bits(image_desc im, uint bits, float4 coord, int dims, bool is_array)
{
    struct texels t;
    place(im, coord, dims, is_array, bits, false, &t);
    return fetch_bits(im, t.i0[0], t.i0[1], t.i0[2]);
}

/* Whether integer coordinates placed by int_place are inside the image:
 * clamped to the edge, they are (an image is at least one pixel each way),
 * and the read needs no bounds check, which lets a work-item loop of such
 * reads load without branches. */
static bool clamped_to_edge(uint bits)
{
    return (bits & CC_SAMPLER_ADDRESS_MASK) == CLK_ADDRESS_CLAMP_TO_EDGE;
}

/* Integer coordinates (6.13.14.2): unnormalized, nearest; the addressing
 * mode clamps to the edge or answers the border. */
static int4 int_place(image_desc im, uint bits, int4 c, int dims, bool is_array)
{
    /* component by component, without an array indexed by the dimension:
     * until the optimiser has unrolled such a loop, it is a loop inside
     * every kernel loop around a read, and the array lives in memory */
    int4 i = (int4)(c.x, c.y, c.z, 0);
    if (clamped_to_edge(bits)) {
        i.x = clamp(i.x, 0, __cpucl_image_width(im) - 1);
        if (dims > 1)
            i.y = clamp(i.y, 0, __cpucl_image_height(im) - 1);
        if (dims > 2)
            i.z = clamp(i.z, 0, __cpucl_image_depth(im) - 1);
    }
    if (is_array) {
        int last = __cpucl_image_array_size(im) - 1;
        if (dims == 1)
            i.y = clamp(i.y, 0, last);
        else
            i.z = clamp(i.z, 0, last);
    }
    int used = dims + (is_array ? 1 : 0);
    if (used < 2)
        i.y = 0;
    if (used < 3)
        i.z = 0;
    return i;
}

/* --- the overloads: one line per image type --- *
 *
 * M(type, dims, is_array, icoord, fcoord, widen_i, widen_f): widen_* turn
 * the type's coordinate into a 4-vector. */
#define TO4_1(c) ((int4)((c), 0, 0, 0))
#define TO4_2(c) ((int4)((c), 0, 0))
#define TO4_4(c) (c)
#define TO4F_1(c) ((float4)((c), 0.0f, 0.0f, 0.0f))
#define TO4F_2(c) ((float4)((c), 0.0f, 0.0f))
#define TO4F_4(c) (c)

#define SAMPLED_TYPES(M)                                                                      \
    M(image1d_t, 1, false, int, float, 1)                                                     \
    M(image1d_array_t, 1, true, int2, float2, 2)                                              \
    M(image2d_t, 2, false, int2, float2, 2)                                                   \
    M(image2d_array_t, 2, true, int4, float4, 4)                                              \
    M(image3d_t, 3, false, int4, float4, 4)

/* read_image{f,i,ui} with a sampler, both coordinate types (read_only). */
#define SAMPLER_READS(IMG, DIMS, ARR, IC, FC, W)                                              \
    OVL float4 read_imagef(read_only IMG image, sampler_t sampler, FC coord)                  \
    {                                                                                         \
        return sample_f(DESC(image), BITS(sampler), TO4F_##W(coord), DIMS, ARR);              \
    }                                                                                         \
    OVL int4 read_imagei(read_only IMG image, sampler_t sampler, FC coord)                    \
    {                                                                                         \
        return as_int4(sample_bits(DESC(image), BITS(sampler), TO4F_##W(coord), DIMS, ARR));  \
    }                                                                                         \
    OVL uint4 read_imageui(read_only IMG image, sampler_t sampler, FC coord)                  \
    {                                                                                         \
        return sample_bits(DESC(image), BITS(sampler), TO4F_##W(coord), DIMS, ARR);           \
    }                                                                                         \
    OVL float4 read_imagef(read_only IMG image, sampler_t sampler, IC coord)                  \
    {                                                                                         \
        image_desc im = DESC(image);                                                          \
        uint bits = BITS(sampler);                                                            \
        int4 i = int_place(im, bits, TO4_##W(coord), DIMS, ARR);                              \
        return clamped_to_edge(bits) ? load_f(im, i.x, i.y, i.z) : fetch_f(im, i.x, i.y, i.z); \
    }                                                                                         \
    OVL half4 read_imageh(read_only IMG image, sampler_t sampler, FC coord)                   \
    {                                                                                         \
        return convert_half4(read_imagef(image, sampler, coord));                             \
    }                                                                                         \
    OVL half4 read_imageh(read_only IMG image, sampler_t sampler, IC coord)                   \
    {                                                                                         \
        return convert_half4(read_imagef(image, sampler, coord));                             \
    }                                                                                         \
    OVL int4 read_imagei(read_only IMG image, sampler_t sampler, IC coord)                    \
    {                                                                                         \
        return as_int4(read_imageui(image, sampler, coord));                                  \
    }                                                                                         \
    OVL uint4 read_imageui(read_only IMG image, sampler_t sampler, IC coord)                  \
    {                                                                                         \
        image_desc im = DESC(image);                                                          \
        uint bits = BITS(sampler);                                                            \
        int4 i = int_place(im, bits, TO4_##W(coord), DIMS, ARR);                              \
        return clamped_to_edge(bits) ? load_bits(im, i.x, i.y, i.z)                           \
                                     : fetch_bits(im, i.x, i.y, i.z);                         \
    }
SAMPLED_TYPES(SAMPLER_READS)

/* Sampler-less reads (6.13.14.3): integer coordinates, nearest. */
#define PLAIN_READS(ACCESS, IMG, DIMS, ARR, IC, W)                                            \
    OVL float4 read_imagef(ACCESS IMG image, IC coord)                                        \
    {                                                                                         \
        image_desc im = DESC(image);                                                          \
        int4 i = int_place(im, 0, TO4_##W(coord), DIMS, ARR);                                 \
        return fetch_f(im, i.x, i.y, i.z);                                                    \
    }                                                                                         \
    OVL int4 read_imagei(ACCESS IMG image, IC coord)                                          \
    {                                                                                         \
        image_desc im = DESC(image);                                                          \
        int4 i = int_place(im, 0, TO4_##W(coord), DIMS, ARR);                                 \
        return as_int4(fetch_bits(im, i.x, i.y, i.z));                                        \
    }                                                                                         \
    OVL uint4 read_imageui(ACCESS IMG image, IC coord)                                        \
    {                                                                                         \
        image_desc im = DESC(image);                                                          \
        int4 i = int_place(im, 0, TO4_##W(coord), DIMS, ARR);                                 \
        return fetch_bits(im, i.x, i.y, i.z);                                                 \
    }                                                                                         \
    OVL half4 read_imageh(ACCESS IMG image, IC coord)                                         \
    {                                                                                         \
        return convert_half4(read_imagef(image, coord));                                      \
    }

#define WRITES(ACCESS, IMG, DIMS, ARR, IC, W)                                                 \
    OVL void write_imagef(ACCESS IMG image, IC coord, float4 color)                           \
    {                                                                                         \
        int4 i = TO4_##W(coord);                                                              \
        store_f(DESC(image), i.x, i.y, i.z, color);                                           \
    }                                                                                         \
    OVL void write_imagei(ACCESS IMG image, IC coord, int4 color)                             \
    {                                                                                         \
        int4 i = TO4_##W(coord);                                                              \
        store_i(DESC(image), i.x, i.y, i.z, color);                                           \
    }                                                                                         \
    OVL void write_imageui(ACCESS IMG image, IC coord, uint4 color)                           \
    {                                                                                         \
        int4 i = TO4_##W(coord);                                                              \
        store_u(DESC(image), i.x, i.y, i.z, color);                                           \
    }                                                                                         \
    OVL void write_imageh(ACCESS IMG image, IC coord, half4 color)                            \
    {                                                                                         \
        write_imagef(image, coord, convert_float4(color));                                    \
    }

/* The types a mipmap may have (cl_khr_mipmap_image: not 1D buffers) */
#define MIPMAPPABLE_TYPES(M, ACCESS)                                                          \
    M(ACCESS, image1d_t, 1, false, int, 1)                                                    \
    M(ACCESS, image1d_array_t, 1, true, int2, 2)                                              \
    M(ACCESS, image2d_t, 2, false, int2, 2)                                                   \
    M(ACCESS, image2d_array_t, 2, true, int4, 4)                                              \
    M(ACCESS, image3d_t, 3, false, int4, 4)
#define INDEXED_TYPES(M, ACCESS)                                                              \
    MIPMAPPABLE_TYPES(M, ACCESS)                                                              \
    M(ACCESS, image1d_buffer_t, 1, false, int, 1)
INDEXED_TYPES(PLAIN_READS, read_only)
INDEXED_TYPES(PLAIN_READS, read_write)
INDEXED_TYPES(WRITES, write_only)
INDEXED_TYPES(WRITES, read_write)

/* Depth images (cl_khr_depth_images): one float channel. */
OVL float read_imagef(read_only image2d_depth_t image, sampler_t sampler, float2 coord)
{
    return sample_f(DESC(image), BITS(sampler), TO4F_2(coord), 2, false).x;
}

OVL float read_imagef(read_only image2d_array_depth_t image, sampler_t sampler, float4 coord)
{
    return sample_f(DESC(image), BITS(sampler), coord, 2, true).x;
}

OVL float read_imagef(read_only image2d_depth_t image, sampler_t sampler, int2 coord)
{
    image_desc im = DESC(image);
    int4 i = int_place(im, BITS(sampler), TO4_2(coord), 2, false);
    return fetch_f(im, i.x, i.y, i.z).x;
}

OVL float read_imagef(read_only image2d_array_depth_t image, sampler_t sampler, int4 coord)
{
    image_desc im = DESC(image);
    int4 i = int_place(im, BITS(sampler), coord, 2, true);
    return fetch_f(im, i.x, i.y, i.z).x;
}

#define DEPTH_ACCESS(ACCESS)                                                                  \
    OVL float read_imagef(ACCESS image2d_depth_t image, int2 coord)                           \
    {                                                                                         \
        image_desc im = DESC(image);                                                          \
        int4 i = int_place(im, 0, TO4_2(coord), 2, false);                                    \
        return fetch_f(im, i.x, i.y, i.z).x;                                                  \
    }                                                                                         \
    OVL float read_imagef(ACCESS image2d_array_depth_t image, int4 coord)                     \
    {                                                                                         \
        image_desc im = DESC(image);                                                          \
        int4 i = int_place(im, 0, coord, 2, true);                                            \
        return fetch_f(im, i.x, i.y, i.z).x;                                                  \
    }
#define DEPTH_WRITES(ACCESS)                                                                  \
    OVL void write_imagef(ACCESS image2d_depth_t image, int2 coord, float depth)              \
    {                                                                                         \
        store_f(DESC(image), coord.x, coord.y, 0, (float4)(depth, 0.0f, 0.0f, 1.0f));         \
    }                                                                                         \
    OVL void write_imagef(ACCESS image2d_array_depth_t image, int4 coord, float depth)        \
    {                                                                                         \
        store_f(DESC(image), coord.x, coord.y, coord.z, (float4)(depth, 0.0f, 0.0f, 1.0f));   \
    }
DEPTH_ACCESS(read_only)
DEPTH_ACCESS(read_write)
DEPTH_WRITES(write_only)
DEPTH_WRITES(read_write)

/* --- mipmaps (cl_khr_mipmap_image, cl_khr_mipmap_image_writes) ---
 *
 * The reads above use level 0 of a mipmapped image (the extension: "read
 * from and write to mip-level 0"). A read with a level of detail clamps it
 * to the sampler's CL_SAMPLER_LOD_MIN_KHR and CL_SAMPLER_LOD_MAX_KHR and to
 * the image's last level (the extension: "clamped to the minimum of
 * (actual number of mip-levels - 1) in the image or value specified for
 * CL_SAMPLER_LOD_MAX"), then picks levels as the OpenGL 3.0 specification
 * (3.9.7, 3.9.8) does, to which the extension refers: a level of detail of
 * 0 or less reads level 0; a nearest mip filter reads level
 * ceil(lod + 0.5) - 1 (level 0 up to 0.5); a linear one blends levels
 * floor(lod) and floor(lod) + 1 by lod's fraction. read_imagei and
 * read_imageui, which cannot blend, read the nearest level. */

static image_desc mip_level(image_desc im, int level)
{
    return level > 0 ? im->levels + level : im;
}

static int last_level(image_desc im)
{
    return max(im->num_mip_levels, 1) - 1;
}

/* The sampler's range of levels of detail (image.h). */
static float lod_min(sampler_t sampler)
{
    ulong raw = __builtin_astype(sampler, ulong);
    return (float)((raw >> 16) & CC_SAMPLER_LOD_CODES) * CC_SAMPLER_LOD_UNIT;
}

static float lod_max(sampler_t sampler)
{
    ulong raw = __builtin_astype(sampler, ulong);
    return (float)(CC_SAMPLER_LOD_CODES - (uint)(raw >> 40)) * CC_SAMPLER_LOD_UNIT;
}

/* The clamped level of detail; a NaN is the sampler's least (fmax drops
 * it). */
static float clamp_lod(image_desc im, sampler_t sampler, float lod)
{
    float top = fmin(lod_max(sampler), (float)last_level(im));
    return fmax(fmin(fmax(lod, lod_min(sampler)), top), 0.0f);
}

static int nearest_level(float lod)
{
    return lod <= 0.5f ? 0 : (int)ceil(lod + 0.5f) - 1;
}

static float4 mip_sample_f(image_desc im, sampler_t sampler, float4 coord, float lod, int dims,
                           bool is_array)
{
    uint bits = BITS(sampler);
    float l = clamp_lod(im, sampler, lod);
    if (!(bits & CC_SAMPLER_MIP_LINEAR))
        return sample_f(mip_level(im, nearest_level(l)), bits, coord, dims, is_array);
    int low = (int)floor(l);
    float a = l - (float)low;
    float4 v = sample_f(mip_level(im, low), bits, coord, dims, is_array);
    if (a == 0.0f)
        return v;
    float4 w = sample_f(mip_level(im, low + 1), bits, coord, dims, is_array);
    return (1.0f - a) * v + a * w;
}

static uint4 mip_sample_bits(image_desc im, sampler_t sampler, float4 coord, float lod, int dims,
                             bool is_array)
{
    int level = nearest_level(clamp_lod(im, sampler, lod));
    return sample_bits(mip_level(im, level), BITS(sampler), coord, dims, is_array);
}

/* OpenGL 3.0 3.9.7: the level of detail of a footprint whose sides are
 * the gradients, log2 of the longer side measured in level 0's pixels
 * (in pixels already when the coordinates are not normalized). */
static float gradient_lod(image_desc im, sampler_t sampler, float4 gx, float4 gy, int dims)
{
    float4 size = (float4)(1.0f);
    if (BITS(sampler) & CC_SAMPLER_NORMALIZED)
        size = (float4)(__cpucl_image_width(im), __cpucl_image_height(im),
                        __cpucl_image_depth(im), 0.0f);
    float4 keep = (float4)(1.0f, dims > 1 ? 1.0f : 0.0f, dims > 2 ? 1.0f : 0.0f, 0.0f);
    float4 x = gx * size * keep, y = gy * size * keep;
    return log2(fmax(length(x), length(y)));
}

#define MIP_TYPES(M)                                                                          \
    M(image1d_t, 1, false, float, 1, float, 1)                                                \
    M(image1d_array_t, 1, true, float2, 2, float, 1)                                          \
    M(image2d_t, 2, false, float2, 2, float2, 2)                                              \
    M(image2d_array_t, 2, true, float4, 4, float2, 2)                                         \
    M(image3d_t, 3, false, float4, 4, float4, 4)

#define MIP_READS(ACCESS, IMG, DIMS, ARR, FC, W, G, GW)                                       \
    OVL float4 read_imagef(ACCESS IMG image, sampler_t sampler, FC coord, float lod)          \
    {                                                                                         \
        return mip_sample_f(DESC(image), sampler, TO4F_##W(coord), lod, DIMS, ARR);          \
    }                                                                                         \
    OVL int4 read_imagei(ACCESS IMG image, sampler_t sampler, FC coord, float lod)            \
    {                                                                                         \
        return as_int4(mip_sample_bits(DESC(image), sampler, TO4F_##W(coord), lod, DIMS, ARR)); \
    }                                                                                         \
    OVL uint4 read_imageui(ACCESS IMG image, sampler_t sampler, FC coord, float lod)          \
    {                                                                                         \
        return mip_sample_bits(DESC(image), sampler, TO4F_##W(coord), lod, DIMS, ARR);       \
    }                                                                                         \
    OVL float4 read_imagef(ACCESS IMG image, sampler_t sampler, FC coord, G gx, G gy)         \
    {                                                                                         \
        float lod = gradient_lod(DESC(image), sampler, TO4F_##GW(gx), TO4F_##GW(gy), DIMS);   \
        return read_imagef(image, sampler, coord, lod);                                       \
    }                                                                                         \
    OVL int4 read_imagei(ACCESS IMG image, sampler_t sampler, FC coord, G gx, G gy)           \
    {                                                                                         \
        return as_int4(read_imageui(image, sampler, coord, gx, gy));                          \
    }                                                                                         \
    OVL uint4 read_imageui(ACCESS IMG image, sampler_t sampler, FC coord, G gx, G gy)         \
    {                                                                                         \
        float lod = gradient_lod(DESC(image), sampler, TO4F_##GW(gx), TO4F_##GW(gy), DIMS);   \
        return read_imageui(image, sampler, coord, lod);                                      \
    }
#define MIP_READS_RO(...) MIP_READS(read_only, __VA_ARGS__)
#define MIP_READS_RW(...) MIP_READS(read_write, __VA_ARGS__)
MIP_TYPES(MIP_READS_RO)
MIP_TYPES(MIP_READS_RW)

#define MIP_DEPTH_READ(ACCESS, IMG, FC, W, ARR)                                               \
    OVL float read_imagef(ACCESS IMG image, sampler_t sampler, FC coord, float lod)           \
    {                                                                                         \
        return mip_sample_f(DESC(image), sampler, TO4F_##W(coord), lod, 2, ARR).x;           \
    }                                                                                         \
    OVL float read_imagef(ACCESS IMG image, sampler_t sampler, FC coord, float2 gx, float2 gy) \
    {                                                                                         \
        float lod = gradient_lod(DESC(image), sampler, TO4F_2(gx), TO4F_2(gy), 2);            \
        return read_imagef(image, sampler, coord, lod);                                       \
    }
#define MIP_DEPTH_READS(ACCESS)                                                               \
    MIP_DEPTH_READ(ACCESS, image2d_depth_t, float2, 2, false)                                 \
    MIP_DEPTH_READ(ACCESS, image2d_array_depth_t, float4, 4, true)
MIP_DEPTH_READS(read_only)
MIP_DEPTH_READS(read_write)

/* Writes to a level: a level past the image's last, like a pixel outside
 * the level, writes nothing (the extension leaves both undefined). */
static image_desc written_level(image_desc im, int lod)
{
    return (uint)lod <= (uint)last_level(im) ? mip_level(im, lod) : NULL;
}

#define MIP_WRITE(ACCESS, IMG, IC, W, NAME, T, STORE)                                        \
    OVL void NAME(ACCESS IMG image, IC coord, int lod, T color)                               \
    {                                                                                         \
        image_desc im = written_level(DESC(image), lod);                                      \
        int4 i = TO4_##W(coord);                                                              \
        if (im)                                                                               \
            STORE(im, i.x, i.y, i.z, color);                                                  \
    }
#define MIP_WRITES(ACCESS, IMG, DIMS, ARR, IC, W)                                             \
    MIP_WRITE(ACCESS, IMG, IC, W, write_imagef, float4, store_f)                              \
    MIP_WRITE(ACCESS, IMG, IC, W, write_imagei, int4, store_i)                                \
    MIP_WRITE(ACCESS, IMG, IC, W, write_imageui, uint4, store_u)
MIPMAPPABLE_TYPES(MIP_WRITES, write_only)
MIPMAPPABLE_TYPES(MIP_WRITES, read_write)

#define MIP_DEPTH_WRITES(ACCESS)                                                              \
    OVL void write_imagef(ACCESS image2d_depth_t image, int2 coord, int lod, float depth)     \
    {                                                                                         \
        image_desc im = written_level(DESC(image), lod);                                      \
        if (im)                                                                               \
            store_f(im, coord.x, coord.y, 0, (float4)(depth, 0.0f, 0.0f, 1.0f));              \
    }                                                                                         \
    OVL void write_imagef(ACCESS image2d_array_depth_t image, int4 coord, int lod, float depth) \
    {                                                                                         \
        image_desc im = written_level(DESC(image), lod);                                      \
        if (im)                                                                               \
            store_f(im, coord.x, coord.y, coord.z, (float4)(depth, 0.0f, 0.0f, 1.0f));        \
    }
MIP_DEPTH_WRITES(write_only)
MIP_DEPTH_WRITES(read_write)

/* --- queries (6.13.14.5), for every access qualifier --- */

#define QUERIES_ALL(ACCESS, IMG)                                                              \
    OVL int get_image_width(ACCESS IMG image) { return DESC(image)->width; }                  \
    OVL int get_image_channel_data_type(ACCESS IMG image)                                     \
    {                                                                                         \
        return __cpucl_image_type(DESC(image));                                                \
    }                                                                                         \
    OVL int get_image_channel_order(ACCESS IMG image) { return __cpucl_image_order(DESC(image)); }
#define QUERY_MIP_LEVELS(ACCESS, IMG)                                                         \
    OVL int get_image_num_mip_levels(ACCESS IMG image) { return DESC(image)->num_mip_levels; }
#define QUERY_HEIGHT(ACCESS, IMG)                                                             \
    OVL int get_image_height(ACCESS IMG image) { return DESC(image)->height; }
#define QUERY_DIM2(ACCESS, IMG)                                                               \
    OVL int2 get_image_dim(ACCESS IMG image)                                                  \
    {                                                                                         \
        return (int2)(DESC(image)->width, DESC(image)->height);                               \
    }
/* The layers of an array are rows (1D) or slices (2D) of the box. */
#define QUERY_LAYERS(ACCESS, IMG)                                                             \
    OVL size_t get_image_array_size(ACCESS IMG image) { return DESC(image)->array_size; }

#define QUERIES(ACCESS)                                                                       \
    QUERIES_ALL(ACCESS, image1d_t)                                                            \
    QUERIES_ALL(ACCESS, image1d_buffer_t)                                                     \
    QUERIES_ALL(ACCESS, image1d_array_t)                                                      \
    QUERIES_ALL(ACCESS, image2d_t)                                                            \
    QUERIES_ALL(ACCESS, image2d_array_t)                                                      \
    QUERIES_ALL(ACCESS, image3d_t)                                                            \
    QUERIES_ALL(ACCESS, image2d_depth_t)                                                      \
    QUERIES_ALL(ACCESS, image2d_array_depth_t)                                                \
    QUERY_HEIGHT(ACCESS, image2d_t)                                                           \
    QUERY_HEIGHT(ACCESS, image2d_array_t)                                                     \
    QUERY_HEIGHT(ACCESS, image3d_t)                                                           \
    QUERY_HEIGHT(ACCESS, image2d_depth_t)                                                     \
    QUERY_HEIGHT(ACCESS, image2d_array_depth_t)                                               \
    QUERY_DIM2(ACCESS, image2d_t)                                                             \
    QUERY_DIM2(ACCESS, image2d_array_t)                                                       \
    QUERY_DIM2(ACCESS, image2d_depth_t)                                                       \
    QUERY_DIM2(ACCESS, image2d_array_depth_t)                                                 \
    QUERY_LAYERS(ACCESS, image1d_array_t)                                                     \
    QUERY_LAYERS(ACCESS, image2d_array_t)                                                     \
    QUERY_LAYERS(ACCESS, image2d_array_depth_t)                                               \
    QUERY_MIP_LEVELS(ACCESS, image1d_t)                                                       \
    QUERY_MIP_LEVELS(ACCESS, image1d_array_t)                                                 \
    QUERY_MIP_LEVELS(ACCESS, image2d_t)                                                       \
    QUERY_MIP_LEVELS(ACCESS, image2d_array_t)                                                 \
    QUERY_MIP_LEVELS(ACCESS, image3d_t)                                                       \
    QUERY_MIP_LEVELS(ACCESS, image2d_depth_t)                                                 \
    QUERY_MIP_LEVELS(ACCESS, image2d_array_depth_t)                                           \
    OVL int get_image_depth(ACCESS image3d_t image) { return DESC(image)->depth; }            \
    OVL int4 get_image_dim(ACCESS image3d_t image)                                            \
    {                                                                                         \
        image_desc im = DESC(image);                                                          \
        return (int4)(im->width, im->height, im->depth, 0);                                   \
    }
QUERIES(read_only)
QUERIES(write_only)
QUERIES(read_write)

/* --- multi-sample images (cl_khr_gl_msaa_sharing), made from GL textures
 * only: sample s of layer l is slice l * num_samples + s of the box
 * (image.h); a sample the image does not have reads the border colour. */
#pragma OPENCL EXTENSION cl_khr_gl_msaa_sharing : enable

static int sample_slice(image_desc im, int layer, int sample)
{
    int samples = im->num_samples;
    return (uint)sample < (uint)samples ? layer * samples + sample : -1;
}

#define MSAA_READS(ACCESS, IMG, IC, LAYER)                                                    \
    OVL float4 read_imagef(ACCESS IMG image, IC coord, int sample)                            \
    {                                                                                         \
        image_desc im = DESC(image);                                                          \
        return fetch_f(im, coord.x, coord.y, sample_slice(im, LAYER, sample));                \
    }                                                                                         \
    OVL int4 read_imagei(ACCESS IMG image, IC coord, int sample)                              \
    {                                                                                         \
        image_desc im = DESC(image);                                                          \
        return as_int4(fetch_bits(im, coord.x, coord.y, sample_slice(im, LAYER, sample)));    \
    }                                                                                         \
    OVL uint4 read_imageui(ACCESS IMG image, IC coord, int sample)                            \
    {                                                                                         \
        image_desc im = DESC(image);                                                          \
        return fetch_bits(im, coord.x, coord.y, sample_slice(im, LAYER, sample));             \
    }
#define MSAA_DEPTH_READ(ACCESS, IMG, IC, LAYER)                                               \
    OVL float read_imagef(ACCESS IMG image, IC coord, int sample)                             \
    {                                                                                         \
        image_desc im = DESC(image);                                                          \
        return fetch_f(im, coord.x, coord.y, sample_slice(im, LAYER, sample)).x;              \
    }
#define MSAA_ACCESS(ACCESS)                                                                   \
    MSAA_READS(ACCESS, image2d_msaa_t, int2, 0)                                               \
    MSAA_READS(ACCESS, image2d_array_msaa_t, int4, coord.z)                                   \
    MSAA_DEPTH_READ(ACCESS, image2d_msaa_depth_t, int2, 0)                                    \
    MSAA_DEPTH_READ(ACCESS, image2d_array_msaa_depth_t, int4, coord.z)
MSAA_ACCESS(read_only)
MSAA_ACCESS(read_write)

#define QUERY_SAMPLES(ACCESS, IMG)                                                            \
    QUERIES_ALL(ACCESS, IMG)                                                                  \
    QUERY_HEIGHT(ACCESS, IMG)                                                                 \
    QUERY_DIM2(ACCESS, IMG)                                                                   \
    OVL int get_image_num_samples(ACCESS IMG image) { return DESC(image)->num_samples; }
#define MSAA_QUERIES(ACCESS)                                                                  \
    QUERY_SAMPLES(ACCESS, image2d_msaa_t)                                                     \
    QUERY_SAMPLES(ACCESS, image2d_array_msaa_t)                                               \
    QUERY_SAMPLES(ACCESS, image2d_msaa_depth_t)                                               \
    QUERY_SAMPLES(ACCESS, image2d_array_msaa_depth_t)                                         \
    QUERY_LAYERS(ACCESS, image2d_array_msaa_t)                                                \
    QUERY_LAYERS(ACCESS, image2d_array_msaa_depth_t)
MSAA_QUERIES(read_only)
MSAA_QUERIES(write_only)
MSAA_QUERIES(read_write)
