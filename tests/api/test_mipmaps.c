/* test_mipmaps.c - mipmapped images (cl_khr_mipmap_image and
 * cl_khr_mipmap_image_writes): creation and its errors, every host command
 * on a level named by the origin, kernel reads with a level of detail
 * (nearest and linear mip filters, the sampler's range of levels) and with
 * gradients, kernel writes to a level, get_image_num_mip_levels. Every
 * pixel is compared with a value computed here on the host. */
#include <math.h>
#include <stdint.h>

#include "../harness.h"

static const char *source =
    "#pragma OPENCL EXTENSION cl_khr_mipmap_image : enable\n"
    "#pragma OPENCL EXTENSION cl_khr_mipmap_image_writes : enable\n"
    "kernel void at_lod(read_only image2d_t img, sampler_t s, float2 coord,\n"
    "                   global const float *lod, global float4 *out)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    out[i] = read_imagef(img, s, coord, lod[i]);\n"
    "}\n"
    "kernel void at_gradient(read_only image2d_t img, sampler_t s, float2 coord,\n"
    "                        global const float4 *gradients, global float4 *out)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    out[i] = read_imagef(img, s, coord, gradients[i].xy, gradients[i].zw);\n"
    "}\n"
    "kernel void ui_3d(read_only image3d_t img, sampler_t s, global const float *lod,\n"
    "                  global uint4 *out)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    out[i] = read_imageui(img, s, (float4)(0.2f, 0.7f, 0.4f, 0.0f), lod[i]);\n"
    "}\n"
    "kernel void write_level(write_only image2d_t img, int lod, global int *levels)\n"
    "{\n"
    "    int2 p = (int2)(get_global_id(0), get_global_id(1));\n"
    "    write_imagef(img, p, lod, (float4)(p.x, p.y, lod, 1.0f));\n"
    "    if (p.x == 0 && p.y == 0)\n"
    "        *levels = get_image_num_mip_levels(img);\n"
    "}\n"
    "kernel void depth_levels(read_only image2d_depth_t img, sampler_t s, global float *out)\n"
    "{\n"
    "    int i = get_global_id(0);\n"
    "    float2 c = (float2)(0.4f, 0.6f);\n"
    "    out[2 * i] = read_imagef(img, s, c, (float)i);\n"
    "    out[2 * i + 1] = read_imagef(img, s, c, (float2)(0.0f, (float)(1 << i) / 4.0f),\n"
    "                                 (float2)(0.0f));\n"
    "}\n"
    "kernel void write_layers(write_only image1d_array_t img, int lod)\n"
    "{\n"
    "    int2 p = (int2)(get_global_id(0), get_global_id(1));\n"
    "    write_imageui(img, p, lod, (uint4)(p.x, p.y, lod, 7));\n"
    "}\n";

static struct harness h;
static cl_program program;

/* A level's size: half the previous, rounded down, at least 1. */
static size_t shrink(size_t n, unsigned level)
{
    return n >> level ? n >> level : 1;
}

static cl_mem mipmapped(cl_mem_object_type type, cl_channel_order order, cl_channel_type data,
                        size_t w, size_t ht, size_t depth, size_t layers, cl_uint levels)
{
    cl_image_format format = {order, data};
    cl_image_desc desc = {.image_type = type,
                          .image_width = w,
                          .image_height = ht,
                          .image_depth = depth,
                          .image_array_size = layers,
                          .num_mip_levels = levels};
    cl_int err;
    cl_mem mem = clCreateImage(h.context, CL_MEM_READ_WRITE, &format, &desc, NULL, &err);
    CHECK_OK(err);
    return mem;
}

/* RGBA float pixels of a 13x6 image with 4 levels: level l, pixel (x, y)
 * holds (x, y, l, 100 + l). */
enum { W = 13, H = 6, LEVELS = 4 };

static void level_pixels(unsigned level, float *pixels)
{
    size_t w = shrink(W, level), ht = shrink(H, level);
    for (size_t y = 0; y < ht; y++)
        for (size_t x = 0; x < w; x++) {
            float *p = pixels + 4 * (y * w + x);
            p[0] = (float)x;
            p[1] = (float)y;
            p[2] = (float)level;
            p[3] = 100.0f + (float)level;
        }
}

static cl_mem filled_2d(void)
{
    cl_mem img = mipmapped(CL_MEM_OBJECT_IMAGE2D, CL_RGBA, CL_FLOAT, W, H, 0, 0, LEVELS);
    float pixels[W * H * 4];
    for (unsigned l = 0; l < LEVELS; l++) {
        level_pixels(l, pixels);
        size_t origin[3] = {0, 0, l}, region[3] = {shrink(W, l), shrink(H, l), 1};
        CHECK_OK(clEnqueueWriteImage(h.queue, img, CL_TRUE, origin, region, 0, 0, pixels, 0, NULL,
                                     NULL));
    }
    return img;
}

static void creation(void)
{
    cl_mem img = filled_2d();
    cl_uint levels = 0;
    CHECK_OK(clGetImageInfo(img, CL_IMAGE_NUM_MIP_LEVELS, sizeof levels, &levels, NULL));
    CHECK_EQ(levels, LEVELS);
    size_t size = 0, expected = 0;
    for (unsigned l = 0; l < LEVELS; l++)
        expected += shrink(W, l) * shrink(H, l) * 16;
    CHECK_OK(clGetMemObjectInfo(img, CL_MEM_SIZE, sizeof size, &size, NULL));
    CHECK_EQ(size, expected);
    /* every level reads back as written */
    float got[W * H * 4], want[W * H * 4];
    int bad = 0;
    for (unsigned l = 0; l < LEVELS; l++) {
        size_t origin[3] = {0, 0, l}, region[3] = {shrink(W, l), shrink(H, l), 1};
        CHECK_OK(
            clEnqueueReadImage(h.queue, img, CL_TRUE, origin, region, 0, 0, got, 0, NULL, NULL));
        level_pixels(l, want);
        bad += memcmp(got, want, region[0] * region[1] * 16) != 0;
    }
    CHECK_NONE_WRONG(bad, "levels read back");
    clReleaseMemObject(img);
}

/* Fill, copies between levels, images and buffers, and a map, each on a
 * level the origin names. */
static void host_commands(void)
{
    cl_mem img = filled_2d();
    /* level 2 is 3x1: fill its middle pixel */
    float colour[4] = {-1.0f, -2.0f, -3.0f, -4.0f};
    size_t fill_origin[3] = {1, 0, 2}, one[3] = {1, 1, 1};
    CHECK_OK(clEnqueueFillImage(h.queue, img, colour, fill_origin, one, 0, NULL, NULL));
    /* level 1 (6x3) to a plain 6x3 image */
    cl_image_format format = {CL_RGBA, CL_FLOAT};
    cl_image_desc desc = {.image_type = CL_MEM_OBJECT_IMAGE2D, .image_width = 6, .image_height = 3};
    cl_int err;
    cl_mem plain = clCreateImage(h.context, CL_MEM_READ_WRITE, &format, &desc, NULL, &err);
    CHECK_OK(err);
    size_t level1[3] = {0, 0, 1}, zero[3] = {0, 0, 0}, region1[3] = {6, 3, 1};
    CHECK_OK(clEnqueueCopyImage(h.queue, img, plain, level1, zero, region1, 0, NULL, NULL));
    float got[6 * 3 * 4], want[6 * 3 * 4];
    CHECK_OK(clEnqueueReadImage(h.queue, plain, CL_TRUE, zero, region1, 0, 0, got, 0, NULL, NULL));
    level_pixels(1, want);
    CHECK(memcmp(got, want, sizeof got) == 0);
    /* level 2 to a buffer: the filled pixel in the middle */
    cl_mem buffer = harness_buffer(&h, CL_MEM_READ_WRITE, 3 * 16, NULL);
    size_t level2[3] = {0, 0, 2}, region2[3] = {3, 1, 1};
    CHECK_OK(clEnqueueCopyImageToBuffer(h.queue, img, buffer, level2, region2, 0, 0, NULL, NULL));
    float row[12];
    CHECK_OK(clEnqueueReadBuffer(h.queue, buffer, CL_TRUE, 0, sizeof row, row, 0, NULL, NULL));
    float want_row[12];
    level_pixels(2, want_row);
    memcpy(want_row + 4, colour, sizeof colour);
    CHECK(memcmp(row, want_row, sizeof row) == 0);
    /* the buffer back into level 3 (1x1) from its filled pixel */
    size_t level3[3] = {0, 0, 3};
    CHECK_OK(clEnqueueCopyBufferToImage(h.queue, buffer, img, 16, level3, one, 0, NULL, NULL));
    /* a map of level 1's last row, its pitch the level's */
    size_t map_origin[3] = {0, 2, 1}, map_region[3] = {6, 1, 1}, pitch = 0;
    float *mapped = clEnqueueMapImage(h.queue, img, CL_TRUE, CL_MAP_READ, map_origin, map_region,
                                      &pitch, NULL, 0, NULL, NULL, &err);
    CHECK_OK(err);
    CHECK_EQ(pitch, 6 * 16);
    if (mapped) {
        CHECK(mapped[0] == 0.0f && mapped[1] == 2.0f && mapped[2] == 1.0f);
        CHECK(mapped[4 * 5] == 5.0f && mapped[4 * 5 + 3] == 101.0f);
        CHECK_OK(clEnqueueUnmapMemObject(h.queue, img, mapped, 0, NULL, NULL));
    }
    float last[4];
    CHECK_OK(clEnqueueReadImage(h.queue, img, CL_TRUE, level3, one, 0, 0, last, 0, NULL, NULL));
    CHECK(memcmp(last, colour, sizeof last) == 0);
    /* the other types name the level in origin[1], [2] or [3] */
    struct {
        cl_mem_object_type type;
        size_t w, ht, depth, layers;
        int at;
    } types[] = {{CL_MEM_OBJECT_IMAGE1D, 9, 0, 0, 0, 1},
                 {CL_MEM_OBJECT_IMAGE1D_ARRAY, 9, 0, 0, 3, 2},
                 {CL_MEM_OBJECT_IMAGE2D_ARRAY, 9, 5, 0, 2, 3},
                 {CL_MEM_OBJECT_IMAGE3D, 9, 5, 4, 0, 3}};
    for (size_t t = 0; t < sizeof types / sizeof types[0]; t++) {
        cl_mem m = mipmapped(types[t].type, CL_R, CL_UNSIGNED_INT8, types[t].w, types[t].ht,
                             types[t].depth, types[t].layers, 3);
        /* level 1: 4 wide, 2 high, 2 deep; layers stay */
        size_t region[3] = {4, 1, 1};
        if (types[t].type == CL_MEM_OBJECT_IMAGE1D_ARRAY)
            region[1] = 3;
        if (types[t].type == CL_MEM_OBJECT_IMAGE2D_ARRAY)
            region[1] = 2, region[2] = 2;
        if (types[t].type == CL_MEM_OBJECT_IMAGE3D)
            region[1] = 2, region[2] = 2;
        size_t origin[4] = {0, 0, 0, 0};
        origin[types[t].at] = 1;
        unsigned char in[64], out[64];
        size_t n = region[0] * region[1] * region[2];
        for (size_t i = 0; i < n; i++)
            in[i] = (unsigned char)(i * 7 + t);
        CHECK_OK(clEnqueueWriteImage(h.queue, m, CL_TRUE, origin, region, 0, 0, in, 0, NULL, NULL));
        memset(out, 0, sizeof out);
        CHECK_OK(clEnqueueReadImage(h.queue, m, CL_TRUE, origin, region, 0, 0, out, 0, NULL, NULL));
        CHECK(memcmp(in, out, n) == 0);
        /* a region one pixel wider than level 1 */
        region[0] = 5;
        CHECK_ERR(clEnqueueReadImage(h.queue, m, CL_TRUE, origin, region, 0, 0, out, 0, NULL, NULL),
                  CL_INVALID_VALUE);
        region[0] = 1;
        origin[types[t].at] = 3;
        CHECK_ERR(clEnqueueReadImage(h.queue, m, CL_TRUE, origin, region, 0, 0, out, 0, NULL, NULL),
                  CL_INVALID_MIP_LEVEL);
        clReleaseMemObject(m);
    }
    clReleaseMemObject(buffer);
    clReleaseMemObject(plain);
    clReleaseMemObject(img);
}

static cl_sampler mip_sampler(cl_filter_mode filter, cl_filter_mode mip_filter, int lod_min,
                              int lod_max)
{
    cl_sampler_properties properties[] = {CL_SAMPLER_NORMALIZED_COORDS,
                                          CL_TRUE,
                                          CL_SAMPLER_ADDRESSING_MODE,
                                          CL_ADDRESS_CLAMP_TO_EDGE,
                                          CL_SAMPLER_FILTER_MODE,
                                          filter,
                                          CL_SAMPLER_MIP_FILTER_MODE_KHR,
                                          mip_filter,
                                          CL_SAMPLER_LOD_MIN_KHR,
                                          (cl_sampler_properties)lod_min,
                                          CL_SAMPLER_LOD_MAX_KHR,
                                          (cl_sampler_properties)lod_max,
                                          0};
    cl_int err;
    cl_sampler s = clCreateSamplerWithProperties(h.context, properties, &err);
    CHECK_OK(err);
    return s;
}

/* The pixel a nearest read at normalized (u, v) finds in a level of the
 * 13x6 image: level_pixels' value. */
static void nearest_pixel(float u, float v, unsigned level, float out[4])
{
    size_t w = shrink(W, level), ht = shrink(H, level);
    size_t x = (size_t)floorf(u * (float)w), y = (size_t)floorf(v * (float)ht);
    x = x < w ? x : w - 1;
    y = y < ht ? y : ht - 1;
    out[0] = (float)x;
    out[1] = (float)y;
    out[2] = (float)level;
    out[3] = 100.0f + (float)level;
}

static void kernel_reads(void)
{
    cl_mem img = filled_2d();
    cl_kernel k = harness_kernel(program, "at_lod");
    float u = 0.55f, v = 0.7f;
    float coord[2] = {u, v};
    /* lod, and the level (nearest) or levels (linear) it reads */
    static const float lods[] = {-1.0f, 0.0f, 0.4f,  0.5f, 0.6f, 1.0f,
                                 1.25f, 1.5f, 2.75f, 3.0f, 7.0f, NAN};
    enum { N = sizeof lods / sizeof lods[0] };
    cl_mem lod_buf = harness_buffer(&h, CL_MEM_READ_ONLY, sizeof lods, (void *)lods);
    cl_mem out = harness_buffer(&h, CL_MEM_WRITE_ONLY, N * 16, NULL);
    struct {
        cl_filter_mode mip;
        int lod_min, lod_max;
    } samplers[] = {{CL_FILTER_NEAREST, 0, 1000},
                    {CL_FILTER_LINEAR, 0, 1000},
                    {CL_FILTER_LINEAR, 1, 2},
                    {CL_FILTER_NEAREST, 2, 2}};
    for (size_t s = 0; s < sizeof samplers / sizeof samplers[0]; s++) {
        cl_sampler sampler = mip_sampler(CL_FILTER_NEAREST, samplers[s].mip, samplers[s].lod_min,
                                         samplers[s].lod_max);
        CHECK_OK(harness_args(k, 5, ARG(img), ARG(sampler), ARG(coord), ARG(lod_buf), ARG(out)));
        size_t n = N;
        CHECK_OK(clEnqueueNDRangeKernel(h.queue, k, 1, NULL, &n, NULL, 0, NULL, NULL));
        float got[N * 4];
        CHECK_OK(clEnqueueReadBuffer(h.queue, out, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL));
        int bad = 0;
        for (size_t i = 0; i < N; i++) {
            /* the extension's clamp, then OpenGL 3.0 3.9.8's choice */
            float lod = isnan(lods[i]) ? (float)samplers[s].lod_min : lods[i];
            lod = fminf(fmaxf(lod, (float)samplers[s].lod_min), (float)samplers[s].lod_max);
            lod = fminf(fmaxf(lod, 0.0f), (float)(LEVELS - 1));
            float want[4], high[4];
            if (samplers[s].mip == CL_FILTER_NEAREST) {
                unsigned level = lod <= 0.5f ? 0 : (unsigned)ceilf(lod + 0.5f) - 1;
                nearest_pixel(u, v, level, want);
            } else {
                unsigned low = (unsigned)floorf(lod);
                float a = lod - (float)low;
                nearest_pixel(u, v, low, want);
                if (a > 0.0f) {
                    nearest_pixel(u, v, low + 1, high);
                    for (int c = 0; c < 4; c++)
                        want[c] = (1.0f - a) * want[c] + a * high[c];
                }
            }
            int wrong = 0;
            for (int c = 0; c < 4; c++)
                wrong += !harness_near(got[4 * i + c], want[c], 1e-6f);
            if (wrong)
                fprintf(stderr, "sampler %zu, lod %g: got %g %g %g %g, expected %g %g %g %g\n", s,
                        lods[i], got[4 * i], got[4 * i + 1], got[4 * i + 2], got[4 * i + 3],
                        want[0], want[1], want[2], want[3]);
            bad += wrong;
        }
        CHECK_NONE_WRONG(bad, "reads at a level of detail");
        clReleaseSampler(sampler);
    }
    clReleaseKernel(k);
    /* gradients: a footprint 4 pixels of level 0 wide is level 2 */
    k = harness_kernel(program, "at_gradient");
    static const float gradients[][4] = {
        {4.0f / W, 0.0f, 0.0f, 1.0f / H}, /* 4 pixels across: lod 2 */
        {0.0f, 0.0f, 0.0f, 2.0f / H},     /* 2 pixels down: lod 1 */
        {0.5f / W, 0.0f, 0.0f, 0.5f / H}, /* half a pixel: lod -1, level 0 */
        {64.0f / W, 0.0f, 0.0f, 0.0f}};   /* past the last level */
    static const unsigned gradient_levels[] = {2, 1, 0, 3};
    cl_mem grad_buf = harness_buffer(&h, CL_MEM_READ_ONLY, sizeof gradients, (void *)gradients);
    cl_sampler sampler = mip_sampler(CL_FILTER_NEAREST, CL_FILTER_NEAREST, 0, 1000);
    CHECK_OK(harness_args(k, 5, ARG(img), ARG(sampler), ARG(coord), ARG(grad_buf), ARG(out)));
    size_t n = 4;
    CHECK_OK(clEnqueueNDRangeKernel(h.queue, k, 1, NULL, &n, NULL, 0, NULL, NULL));
    float got[16];
    CHECK_OK(clEnqueueReadBuffer(h.queue, out, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL));
    int bad = 0;
    for (int i = 0; i < 4; i++) {
        float want[4];
        nearest_pixel(u, v, gradient_levels[i], want);
        bad += memcmp(got + 4 * i, want, sizeof want) != 0;
    }
    CHECK_NONE_WRONG(bad, "reads with gradients");
    clReleaseSampler(sampler);
    clReleaseKernel(k);
    clReleaseMemObject(grad_buf);
    clReleaseMemObject(lod_buf);
    clReleaseMemObject(out);
    clReleaseMemObject(img);
}

/* read_imageui of a 3D image: each level holds its level number in every
 * pixel; the nearest level is read even with a linear mip filter. */
static void integer_reads(void)
{
    cl_mem img = mipmapped(CL_MEM_OBJECT_IMAGE3D, CL_RGBA, CL_UNSIGNED_INT32, 8, 4, 4, 0, 4);
    for (cl_uint l = 0; l < 4; l++) {
        cl_uint colour[4] = {l, l * 10, 3, 4};
        size_t origin[4] = {0, 0, 0, l};
        size_t region[3] = {shrink(8, l), shrink(4, l), shrink(4, l)};
        CHECK_OK(clEnqueueFillImage(h.queue, img, colour, origin, region, 0, NULL, NULL));
    }
    static const float lods[] = {0.0f, 1.4f, 1.6f, 2.2f, 9.0f};
    static const cl_uint levels[] = {0, 1, 2, 2, 3};
    cl_mem lod_buf = harness_buffer(&h, CL_MEM_READ_ONLY, sizeof lods, (void *)lods);
    cl_mem out = harness_buffer(&h, CL_MEM_WRITE_ONLY, 5 * 16, NULL);
    cl_sampler sampler = mip_sampler(CL_FILTER_NEAREST, CL_FILTER_LINEAR, 0, 1000);
    cl_kernel k = harness_kernel(program, "ui_3d");
    CHECK_OK(harness_args(k, 4, ARG(img), ARG(sampler), ARG(lod_buf), ARG(out)));
    size_t n = 5;
    CHECK_OK(clEnqueueNDRangeKernel(h.queue, k, 1, NULL, &n, NULL, 0, NULL, NULL));
    cl_uint got[20];
    CHECK_OK(clEnqueueReadBuffer(h.queue, out, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL));
    int bad = 0;
    for (int i = 0; i < 5; i++)
        bad += got[4 * i] != levels[i] || got[4 * i + 1] != levels[i] * 10 || got[4 * i + 2] != 3;
    CHECK_NONE_WRONG(bad, "read_imageui at a level of detail");
    clReleaseKernel(k);
    clReleaseSampler(sampler);
    clReleaseMemObject(out);
    clReleaseMemObject(lod_buf);
    clReleaseMemObject(img);
}

/* A depth image's levels, each filled with its own depth, read at a
 * level of detail and through gradients of 1, 2 and 4 pixels of level 0. */
static void depth_reads(void)
{
    cl_mem img = mipmapped(CL_MEM_OBJECT_IMAGE2D, CL_DEPTH, CL_FLOAT, 8, 4, 0, 0, 3);
    for (cl_uint l = 0; l < 3; l++) {
        float depth[4] = {0.25f * (float)(l + 1), 0.0f, 0.0f, 0.0f};
        size_t origin[3] = {0, 0, l}, region[3] = {shrink(8, l), shrink(4, l), 1};
        CHECK_OK(clEnqueueFillImage(h.queue, img, depth, origin, region, 0, NULL, NULL));
    }
    cl_mem out = harness_buffer(&h, CL_MEM_WRITE_ONLY, 6 * sizeof(float), NULL);
    cl_sampler sampler = mip_sampler(CL_FILTER_NEAREST, CL_FILTER_NEAREST, 0, 1000);
    cl_kernel k = harness_kernel(program, "depth_levels");
    CHECK_OK(harness_args(k, 3, ARG(img), ARG(sampler), ARG(out)));
    size_t n = 3;
    CHECK_OK(clEnqueueNDRangeKernel(h.queue, k, 1, NULL, &n, NULL, 0, NULL, NULL));
    float got[6];
    CHECK_OK(clEnqueueReadBuffer(h.queue, out, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL));
    int bad = 0;
    for (int i = 0; i < 3; i++)
        bad += got[2 * i] != 0.25f * (float)(i + 1) || got[2 * i + 1] != 0.25f * (float)(i + 1);
    CHECK_NONE_WRONG(bad, "depth image levels");
    clReleaseKernel(k);
    clReleaseSampler(sampler);
    clReleaseMemObject(out);
    clReleaseMemObject(img);
}

static void kernel_writes(void)
{
    cl_mem img = mipmapped(CL_MEM_OBJECT_IMAGE2D, CL_RGBA, CL_FLOAT, W, H, 0, 0, LEVELS);
    cl_mem levels = harness_buffer(&h, CL_MEM_WRITE_ONLY, sizeof(cl_int), NULL);
    cl_kernel k = harness_kernel(program, "write_level");
    int bad = 0;
    for (cl_int l = 0; l < LEVELS; l++) {
        size_t global[2] = {shrink(W, (unsigned)l), shrink(H, (unsigned)l)};
        CHECK_OK(harness_args(k, 3, ARG(img), ARG(l), ARG(levels)));
        CHECK_OK(clEnqueueNDRangeKernel(h.queue, k, 2, NULL, global, NULL, 0, NULL, NULL));
    }
    float got[W * H * 4], want[W * H * 4];
    for (unsigned l = 0; l < LEVELS; l++) {
        size_t origin[3] = {0, 0, l}, region[3] = {shrink(W, l), shrink(H, l), 1};
        CHECK_OK(
            clEnqueueReadImage(h.queue, img, CL_TRUE, origin, region, 0, 0, got, 0, NULL, NULL));
        level_pixels(l, want);
        for (size_t i = 0; i < region[0] * region[1]; i++)
            want[4 * i + 3] = 1.0f;
        bad += memcmp(got, want, region[0] * region[1] * 16) != 0;
    }
    CHECK_NONE_WRONG(bad, "levels written by kernels");
    cl_int count = 0;
    CHECK_OK(clEnqueueReadBuffer(h.queue, levels, CL_TRUE, 0, sizeof count, &count, 0, NULL, NULL));
    CHECK_EQ(count, LEVELS);
    clReleaseKernel(k);
    /* a 1D array's level keeps every layer */
    cl_mem arr = mipmapped(CL_MEM_OBJECT_IMAGE1D_ARRAY, CL_RGBA, CL_UNSIGNED_INT16, 10, 0, 0, 3, 3);
    k = harness_kernel(program, "write_layers");
    cl_int level = 2;
    CHECK_OK(harness_args(k, 2, ARG(arr), ARG(level)));
    size_t global[2] = {2, 3};
    CHECK_OK(clEnqueueNDRangeKernel(h.queue, k, 2, NULL, global, NULL, 0, NULL, NULL));
    uint16_t pixels[2 * 3 * 4];
    size_t origin[3] = {0, 0, 2}, region[3] = {2, 3, 1};
    CHECK_OK(
        clEnqueueReadImage(h.queue, arr, CL_TRUE, origin, region, 0, 0, pixels, 0, NULL, NULL));
    bad = 0;
    for (int y = 0; y < 3; y++)
        for (int x = 0; x < 2; x++) {
            const uint16_t *p = pixels + 4 * (y * 2 + x);
            bad += p[0] != x || p[1] != y || p[2] != 2 || p[3] != 7;
        }
    CHECK_NONE_WRONG(bad, "1D array level written by a kernel");
    clReleaseKernel(k);
    clReleaseMemObject(arr);
    clReleaseMemObject(levels);
    clReleaseMemObject(img);
}

static void errors(void)
{
    cl_image_format format = {CL_RGBA, CL_UNORM_INT8};
    cl_int err;
    /* 13 wide has 4 levels (13, 6, 3, 1), not 5 */
    cl_image_desc desc = {.image_type = CL_MEM_OBJECT_IMAGE2D,
                          .image_width = 13,
                          .image_height = 2,
                          .num_mip_levels = 5};
    CHECK_FAILS(clCreateImage(h.context, CL_MEM_READ_WRITE, &format, &desc, NULL, &err), err,
                CL_INVALID_IMAGE_DESCRIPTOR);
    /* no application memory */
    unsigned char host[13 * 2 * 4 * 2];
    desc.num_mip_levels = 2;
    CHECK_FAILS(clCreateImage(h.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, &format, &desc,
                              host, &err),
                err, CL_INVALID_IMAGE_DESCRIPTOR);
    /* nor over a buffer */
    cl_mem buffer = harness_buffer(&h, CL_MEM_READ_WRITE, 4096, NULL);
    cl_image_desc over = {.image_type = CL_MEM_OBJECT_IMAGE1D_BUFFER,
                          .image_width = 64,
                          .num_mip_levels = 2,
                          .mem_object = buffer};
    CHECK_FAILS(clCreateImage(h.context, CL_MEM_READ_WRITE, &format, &over, NULL, &err), err,
                CL_INVALID_IMAGE_DESCRIPTOR);
    clReleaseMemObject(buffer);
    /* one level is an image without mipmaps: a 3-element origin is enough */
    desc.num_mip_levels = 1;
    cl_mem single = clCreateImage(h.context, CL_MEM_READ_WRITE, &format, &desc, NULL, &err);
    CHECK_OK(err);
    size_t origin[3] = {0, 0, 0}, region[3] = {13, 2, 1};
    CHECK_OK(
        clEnqueueReadImage(h.queue, single, CL_TRUE, origin, region, 0, 0, host, 0, NULL, NULL));
    clReleaseMemObject(single);
    /* samplers: the mip filter's values, a range upside down; the queries */
    cl_sampler_properties bad_filter[] = {CL_SAMPLER_MIP_FILTER_MODE_KHR, 0x1234, 0};
    CHECK_FAILS(clCreateSamplerWithProperties(h.context, bad_filter, &err), err, CL_INVALID_VALUE);
    cl_sampler_properties upside_down[] = {CL_SAMPLER_LOD_MIN_KHR, 3, CL_SAMPLER_LOD_MAX_KHR, 1, 0};
    CHECK_FAILS(clCreateSamplerWithProperties(h.context, upside_down, &err), err, CL_INVALID_VALUE);
    cl_sampler_properties twice[] = {CL_SAMPLER_LOD_MIN_KHR, 1, CL_SAMPLER_LOD_MIN_KHR, 1, 0};
    CHECK_FAILS(clCreateSamplerWithProperties(h.context, twice, &err), err, CL_INVALID_VALUE);
    cl_sampler s = mip_sampler(CL_FILTER_LINEAR, CL_FILTER_LINEAR, 1, 3);
    cl_filter_mode mip = 0;
    cl_float lod_min = -1.0f, lod_max = -1.0f;
    CHECK_OK(clGetSamplerInfo(s, CL_SAMPLER_MIP_FILTER_MODE_KHR, sizeof mip, &mip, NULL));
    CHECK_OK(clGetSamplerInfo(s, CL_SAMPLER_LOD_MIN_KHR, sizeof lod_min, &lod_min, NULL));
    CHECK_OK(clGetSamplerInfo(s, CL_SAMPLER_LOD_MAX_KHR, sizeof lod_max, &lod_max, NULL));
    CHECK(mip == CL_FILTER_LINEAR && lod_min == 1.0f && lod_max == 3.0f);
    clReleaseSampler(s);
    cl_sampler plain =
        clCreateSampler(h.context, CL_TRUE, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST, &err);
    CHECK_OK(err);
    CHECK_OK(clGetSamplerInfo(plain, CL_SAMPLER_LOD_MAX_KHR, sizeof lod_max, &lod_max, NULL));
    CHECK(lod_max == CL_MAXFLOAT);
    clReleaseSampler(plain);
}

int main(void)
{
    h = harness_open();
    REQUIRE(harness_has_extension(&h, "cl_khr_mipmap_image"));
    REQUIRE(harness_has_extension(&h, "cl_khr_mipmap_image_writes"));
    program = harness_build(&h, source, "-cl-std=CL2.0");
    REQUIRE(program);
    creation();
    host_commands();
    kernel_reads();
    integer_reads();
    depth_reads();
    kernel_writes();
    errors();
    clReleaseProgram(program);
    harness_close(&h);
    return harness_finish();
}
