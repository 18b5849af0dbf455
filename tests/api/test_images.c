/* test_images.c - image objects, samplers and the kernel image functions
 * (API spec 5.3, 5.7; OpenCL C 2.0 6.13.14 and chapter 8): host round
 * trips for every image type with pitches, fills, copies, maps, kernel
 * reads (nearest and linear, every addressing mode) and writes in several
 * formats, queries, and the errors. Every pixel is compared with a value
 * computed here on the host. */
#include <stdint.h>

#include "../harness.h"

static const char *source =
    "constant sampler_t program_sampler = CLK_NORMALIZED_COORDS_FALSE |\n"
    "    CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;\n"
    "kernel void copy2d(read_only image2d_t src, write_only image2d_t dst)\n"
    "{\n"
    "    int2 p = (int2)(get_global_id(0), get_global_id(1));\n"
    "    write_imageui(dst, p, read_imageui(src, p) + (uint4)(1, 2, 3, 4));\n"
    "}\n"
    "kernel void copy3d(read_only image3d_t src, write_only image3d_t dst)\n"
    "{\n"
    "    int4 p = (int4)(get_global_id(0), get_global_id(1), get_global_id(2), 0);\n"
    "    write_imagei(dst, p, read_imagei(src, program_sampler, p) * 2);\n"
    "}\n"
    "kernel void sample2d(read_only image2d_t img, sampler_t s, global const float2 *coord,\n"
    "                     global float4 *out)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    out[i] = read_imagef(img, s, coord[i]);\n"
    "}\n"
    "kernel void sample1d(read_only image1d_t img, sampler_t s, global const float *coord,\n"
    "                     global float4 *out)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    out[i] = read_imagef(img, s, coord[i]);\n"
    "}\n"
    "kernel void sample_array(read_only image2d_array_t img, sampler_t s,\n"
    "                         global const float4 *coord, global float4 *out)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    out[i] = read_imagef(img, s, coord[i]);\n"
    "}\n"
    "kernel void write_f(write_only image2d_t img, global const float4 *in)\n"
    "{\n"
    "    int2 p = (int2)(get_global_id(0), get_global_id(1));\n"
    "    write_imagef(img, p, in[p.y * get_image_width(img) + p.x]);\n"
    "}\n"
    "kernel void read_f(read_only image2d_t img, global float4 *out)\n"
    "{\n"
    "    int2 p = (int2)(get_global_id(0), get_global_id(1));\n"
    "    out[p.y * get_image_width(img) + p.x] = read_imagef(img, p);\n"
    "}\n"
    "kernel void rw(read_write image1d_array_t img)\n"
    "{\n"
    "    int2 p = (int2)(get_global_id(0), get_global_id(1));\n"
    "    float4 v = read_imagef(img, p);\n"
    "    write_imagef(img, p, v * 0.5f);\n"
    "}\n"
    "kernel void depth(read_only image2d_depth_t src, write_only image2d_depth_t dst,\n"
    "                  sampler_t s)\n"
    "{\n"
    "    int2 p = (int2)(get_global_id(0), get_global_id(1));\n"
    "    write_imagef(dst, p, 1.0f - read_imagef(src, s, p));\n"
    "}\n"
    "kernel void queries(read_only image3d_t a, write_only image2d_array_t b,\n"
    "                    read_only image1d_buffer_t c, read_only image1d_array_t d,\n"
    "                    global int *out)\n"
    "{\n"
    "    int4 dim = get_image_dim(a);\n"
    "    out[0] = dim.x; out[1] = dim.y; out[2] = dim.z; out[3] = get_image_depth(a);\n"
    "    out[4] = get_image_width(b); out[5] = get_image_height(b);\n"
    "    out[6] = (int)get_image_array_size(b);\n"
    "    out[7] = get_image_channel_order(b) == CLK_RGBA;\n"
    "    out[8] = get_image_channel_data_type(a) == CLK_SIGNED_INT16;\n"
    "    out[9] = get_image_width(c); out[10] = (int)get_image_array_size(d);\n"
    "    out[11] = get_image_width(d);\n"
    "}\n";

static struct harness h;
static cl_program program;

static cl_mem image(cl_mem_object_type type, cl_channel_order order, cl_channel_type data,
                    size_t w, size_t ht, size_t depth, size_t layers, cl_mem_flags flags,
                    void *host)
{
    cl_image_format format = {order, data};
    cl_image_desc desc = {.image_type = type, .image_width = w, .image_height = ht,
                          .image_depth = depth, .image_array_size = layers};
    cl_int err;
    cl_mem mem = clCreateImage(h.context, flags, &format, &desc, host, &err);
    CHECK_OK(err);
    return mem;
}

static uint32_t seed = 12345;
static unsigned char random_byte(void)
{
    seed = seed * 1103515245u + 12345u;
    return (unsigned char)(seed >> 16);
}

static void info(void)
{
    cl_bool support = CL_FALSE;
    CHECK_OK(clGetDeviceInfo(h.device, CL_DEVICE_IMAGE_SUPPORT, sizeof support, &support, NULL));
    CHECK(support == CL_TRUE);
    cl_uint n = 0;
    CHECK_OK(clGetSupportedImageFormats(h.context, CL_MEM_READ_WRITE, CL_MEM_OBJECT_IMAGE2D, 0,
                                        NULL, &n));
    cl_image_format *formats = calloc(n, sizeof *formats);
    CHECK_OK(clGetSupportedImageFormats(h.context, CL_MEM_READ_WRITE, CL_MEM_OBJECT_IMAGE2D, n,
                                        formats, NULL));
    /* table 5.8 (2.x): the minimum list */
    static const cl_image_format needed[] = {
        {CL_RGBA, CL_UNORM_INT8}, {CL_RGBA, CL_FLOAT}, {CL_RGBA, CL_HALF_FLOAT},
        {CL_R, CL_SIGNED_INT32}, {CL_RG, CL_UNSIGNED_INT16}, {CL_BGRA, CL_UNORM_INT8},
        {CL_DEPTH, CL_FLOAT}, {CL_sRGBA, CL_UNORM_INT8}, {CL_DEPTH, CL_UNORM_INT16}};
    for (size_t k = 0; k < sizeof needed / sizeof needed[0]; k++) {
        int found = 0;
        for (cl_uint i = 0; i < n; i++)
            found |= formats[i].image_channel_order == needed[k].image_channel_order &&
                     formats[i].image_channel_data_type == needed[k].image_channel_data_type;
        CHECK(found);
    }
    free(formats);
    cl_uint n3d = 0;
    CHECK_OK(clGetSupportedImageFormats(h.context, CL_MEM_READ_ONLY, CL_MEM_OBJECT_IMAGE3D, 0,
                                        NULL, &n3d));
    CHECK(n3d > 0 && n3d < n); /* no depth formats for 3D */

    cl_mem img = image(CL_MEM_OBJECT_IMAGE2D_ARRAY, CL_RGBA, CL_UNSIGNED_INT16, 5, 3, 0, 4,
                       CL_MEM_READ_WRITE, NULL);
    size_t v = 0;
    CHECK_OK(clGetImageInfo(img, CL_IMAGE_ELEMENT_SIZE, sizeof v, &v, NULL));
    CHECK_EQ(v, 8);
    CHECK_OK(clGetImageInfo(img, CL_IMAGE_ROW_PITCH, sizeof v, &v, NULL));
    CHECK_EQ(v, 40);
    CHECK_OK(clGetImageInfo(img, CL_IMAGE_SLICE_PITCH, sizeof v, &v, NULL));
    CHECK_EQ(v, 120);
    CHECK_OK(clGetImageInfo(img, CL_IMAGE_ARRAY_SIZE, sizeof v, &v, NULL));
    CHECK_EQ(v, 4);
    CHECK_OK(clGetImageInfo(img, CL_IMAGE_DEPTH, sizeof v, &v, NULL));
    CHECK_EQ(v, 0);
    CHECK_OK(clGetMemObjectInfo(img, CL_MEM_SIZE, sizeof v, &v, NULL));
    CHECK_EQ(v, 480);
    cl_mem_object_type type = 0;
    CHECK_OK(clGetMemObjectInfo(img, CL_MEM_TYPE, sizeof type, &type, NULL));
    CHECK_EQ(type, CL_MEM_OBJECT_IMAGE2D_ARRAY);
    clReleaseMemObject(img);
}

/* Writes a region with host pitches, reads the whole image back, compares
 * with the host's copy; for each image type. */
static void host_round_trip(cl_mem_object_type type, size_t w, size_t ht, size_t d, size_t layers)
{
    const size_t elem = 4;
    cl_mem buffer = NULL;
    cl_mem img;
    if (type == CL_MEM_OBJECT_IMAGE1D_BUFFER) {
        buffer = harness_buffer(&h, CL_MEM_READ_WRITE, w * elem, NULL);
        cl_image_format format = {CL_RGBA, CL_UNSIGNED_INT8};
        cl_image_desc desc = {.image_type = type, .image_width = w, .mem_object = buffer};
        cl_int err;
        img = clCreateImage(h.context, CL_MEM_READ_WRITE, &format, &desc, NULL, &err);
        CHECK_OK(err);
    } else {
        img = image(type, CL_RGBA, CL_UNSIGNED_INT8, w, ht, d, layers, CL_MEM_READ_WRITE, NULL);
    }
    /* the box in the commands' coordinates */
    size_t box[3] = {w, 1, 1};
    if (type == CL_MEM_OBJECT_IMAGE1D_ARRAY)
        box[1] = layers;
    if (type == CL_MEM_OBJECT_IMAGE2D || type == CL_MEM_OBJECT_IMAGE2D_ARRAY ||
        type == CL_MEM_OBJECT_IMAGE3D)
        box[1] = ht;
    if (type == CL_MEM_OBJECT_IMAGE2D_ARRAY)
        box[2] = layers;
    if (type == CL_MEM_OBJECT_IMAGE3D)
        box[2] = d;
    size_t total = box[0] * box[1] * box[2] * elem;
    unsigned char *expect = calloc(total, 1), *got = calloc(total, 1);
    size_t origin0[3] = {0, 0, 0};
    CHECK_OK(clEnqueueWriteImage(h.queue, img, CL_TRUE, origin0, box, 0, 0, expect, 0, NULL, NULL));
    /* a region written from padded host rows */
    size_t origin[3] = {1, box[1] > 1 ? 1 : 0, box[2] > 1 ? 1 : 0};
    size_t region[3] = {box[0] - 1, box[1] > 1 ? box[1] - 1 : 1, box[2] > 1 ? box[2] - 1 : 1};
    size_t row = region[0] * elem + 12, slice = row * region[1] + 20;
    if (type == CL_MEM_OBJECT_IMAGE1D_ARRAY)
        slice = row + 8; /* a 1D array's layers are slice_pitch apart */
    unsigned char *host = calloc(slice * region[2] * (type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? region[1] : 1), 1);
    for (size_t z = 0; z < region[2]; z++)
        for (size_t y = 0; y < region[1]; y++)
            for (size_t x = 0; x < region[0] * elem; x++) {
                unsigned char b = random_byte();
                size_t at = type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? y * slice + x
                                                                : z * slice + y * row + x;
                host[at] = b;
                expect[((z + origin[2]) * box[1] + y + origin[1]) * box[0] * elem +
                       origin[0] * elem + x] = b;
            }
    size_t slice_arg = type == CL_MEM_OBJECT_IMAGE2D || type == CL_MEM_OBJECT_IMAGE1D ||
                               type == CL_MEM_OBJECT_IMAGE1D_BUFFER
                           ? 0
                           : slice;
    CHECK_OK(clEnqueueWriteImage(h.queue, img, CL_FALSE, origin, region, row, slice_arg, host, 0,
                                 NULL, NULL));
    CHECK_OK(clEnqueueReadImage(h.queue, img, CL_TRUE, origin0, box, 0, 0, got, 0, NULL, NULL));
    CHECK(memcmp(got, expect, total) == 0);
    if (buffer) {
        /* the 1D buffer image's pixels are the buffer's bytes */
        memset(got, 0, total);
        CHECK_OK(clEnqueueReadBuffer(h.queue, buffer, CL_TRUE, 0, total, got, 0, NULL, NULL));
        CHECK(memcmp(got, expect, total) == 0);
        clReleaseMemObject(buffer);
    }
    /* map: the pixels with their pitches */
    size_t map_row = 0, map_slice = 0;
    cl_int err;
    unsigned char *mapped = clEnqueueMapImage(h.queue, img, CL_TRUE, CL_MAP_READ, origin0, box,
                                              &map_row, &map_slice, 0, NULL, NULL, &err);
    CHECK_OK(err);
    if (mapped) {
        int same = 1;
        size_t step = type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? map_slice : map_row;
        size_t zstep = type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? 0 : map_slice;
        for (size_t z = 0; z < box[2]; z++)
            for (size_t y = 0; y < box[1]; y++)
                same &= !memcmp(mapped + z * zstep + y * step,
                                expect + (z * box[1] + y) * box[0] * elem, box[0] * elem);
        CHECK(same);
        CHECK_OK(clEnqueueUnmapMemObject(h.queue, img, mapped, 0, NULL, NULL));
    }
    clFinish(h.queue);
    clReleaseMemObject(img);
    free(expect);
    free(got);
    free(host);
}

static void fill_and_copy(void)
{
    /* fill: float colour into UNORM_INT8 BGRA (rounded, saturated, reordered) */
    cl_mem img = image(CL_MEM_OBJECT_IMAGE2D, CL_BGRA, CL_UNORM_INT8, 8, 6, 0, 0,
                       CL_MEM_READ_WRITE, NULL);
    unsigned char zero[8 * 6 * 4] = {0}, got[8 * 6 * 4];
    size_t o0[3] = {0, 0, 0}, all[3] = {8, 6, 1};
    CHECK_OK(clEnqueueWriteImage(h.queue, img, CL_TRUE, o0, all, 0, 0, zero, 0, NULL, NULL));
    float color[4] = {0.5f, 1.5f, -1.0f, 0.2f};
    size_t o[3] = {2, 1, 0}, r[3] = {3, 4, 1};
    CHECK_OK(clEnqueueFillImage(h.queue, img, color, o, r, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadImage(h.queue, img, CL_TRUE, o0, all, 0, 0, got, 0, NULL, NULL));
    int right = 1;
    for (int y = 0; y < 6; y++)
        for (int x = 0; x < 8; x++) {
            int in = x >= 2 && x < 5 && y >= 1 && y < 5;
            const unsigned char *p = got + (y * 8 + x) * 4;
            /* B, G, R, A: 0, 255, 128 (0.5 * 255 = 127.5 rounds to even), 51 */
            right &= in ? p[0] == 0 && p[1] == 255 && p[2] == 128 && p[3] == 51
                        : !p[0] && !p[1] && !p[2] && !p[3];
        }
    CHECK(right);

    /* copy image to buffer and back into a 3D image's slice */
    cl_mem buffer = harness_buffer(&h, CL_MEM_READ_WRITE, 3 * 4 * 4 + 16, NULL);
    CHECK_OK(clEnqueueCopyImageToBuffer(h.queue, img, buffer, o, r, 16, 0, NULL, NULL));
    cl_mem vol = image(CL_MEM_OBJECT_IMAGE3D, CL_BGRA, CL_UNORM_INT8, 4, 5, 3, 0,
                       CL_MEM_READ_WRITE, NULL);
    size_t v0[3] = {0, 0, 0}, vall[3] = {4, 5, 3};
    unsigned char vz[4 * 5 * 3 * 4] = {0}, vgot[4 * 5 * 3 * 4];
    CHECK_OK(clEnqueueWriteImage(h.queue, vol, CL_TRUE, v0, vall, 0, 0, vz, 0, NULL, NULL));
    size_t vo[3] = {1, 0, 2};
    CHECK_OK(clEnqueueCopyBufferToImage(h.queue, buffer, vol, 16, vo, r, 0, NULL, NULL));
    size_t io[3] = {0, 0, 0}, ir[3] = {1, 2, 1}, vo2[3] = {0, 3, 0};
    CHECK_OK(clEnqueueCopyImage(h.queue, img, vol, io, vo2, ir, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadImage(h.queue, vol, CL_TRUE, v0, vall, 0, 0, vgot, 0, NULL, NULL));
    right = 1;
    for (int z = 0; z < 3; z++)
        for (int y = 0; y < 5; y++)
            for (int x = 0; x < 4; x++) {
                const unsigned char *p = vgot + ((z * 5 + y) * 4 + x) * 4;
                int filled = z == 2 && x >= 1 && y < 4;
                right &= filled ? p[1] == 255 && p[3] == 51 : (p[0] | p[1] | p[2] | p[3]) == 0;
            }
    CHECK(right);
    /* copies within one image may not overlap; formats must match */
    size_t a[3] = {0, 0, 0}, b[3] = {1, 1, 0}, rr[3] = {2, 2, 1};
    CHECK_ERR(clEnqueueCopyImage(h.queue, img, img, a, b, rr, 0, NULL, NULL), CL_MEM_COPY_OVERLAP);
    cl_mem other = image(CL_MEM_OBJECT_IMAGE2D, CL_RGBA, CL_UNORM_INT8, 8, 6, 0, 0,
                         CL_MEM_READ_WRITE, NULL);
    CHECK_ERR(clEnqueueCopyImage(h.queue, img, other, a, a, rr, 0, NULL, NULL),
              CL_IMAGE_FORMAT_MISMATCH);
    /* fill with an integer colour: saturated to SIGNED_INT16 */
    cl_mem ints = image(CL_MEM_OBJECT_IMAGE1D, CL_RG, CL_SIGNED_INT16, 5, 0, 0, 0,
                        CL_MEM_READ_WRITE, NULL);
    cl_int icolor[4] = {-70000, 1234, 9, 9};
    size_t io1[3] = {0, 0, 0}, ir1[3] = {5, 1, 1};
    CHECK_OK(clEnqueueFillImage(h.queue, ints, icolor, io1, ir1, 0, NULL, NULL));
    int16_t igot[10];
    CHECK_OK(clEnqueueReadImage(h.queue, ints, CL_TRUE, io1, ir1, 0, 0, igot, 0, NULL, NULL));
    CHECK(igot[0] == -32768 && igot[1] == 1234 && igot[8] == -32768 && igot[9] == 1234);
    clReleaseMemObject(ints);
    clReleaseMemObject(other);
    clReleaseMemObject(vol);
    clReleaseMemObject(buffer);
    clReleaseMemObject(img);
}

static void kernel_copies(void)
{
    enum { W = 13, H = 7, D = 3 };
    unsigned char in[W * H * 4], out[W * H * 4];
    for (int i = 0; i < W * H * 4; i++)
        in[i] = random_byte();
    cl_mem src = image(CL_MEM_OBJECT_IMAGE2D, CL_RGBA, CL_UNSIGNED_INT8, W, H, 0, 0,
                       CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, in);
    cl_mem dst = image(CL_MEM_OBJECT_IMAGE2D, CL_RGBA, CL_UNSIGNED_INT8, W, H, 0, 0,
                       CL_MEM_WRITE_ONLY, NULL);
    cl_kernel k = harness_kernel(program, "copy2d");
    CHECK_OK(clSetKernelArg(k, 0, sizeof src, &src));
    CHECK_OK(clSetKernelArg(k, 1, sizeof dst, &dst));
    /* 5.9.2: access qualifiers and image flags must agree */
    CHECK_ERR(clSetKernelArg(k, 0, sizeof dst, &dst), CL_INVALID_ARG_VALUE);
    CHECK_ERR(clSetKernelArg(k, 1, sizeof src, &src), CL_INVALID_ARG_VALUE);
    cl_mem plain = harness_buffer(&h, CL_MEM_READ_WRITE, 16, NULL);
    CHECK_ERR(clSetKernelArg(k, 0, sizeof plain, &plain), CL_INVALID_MEM_OBJECT);
    size_t global[2] = {W, H}, o[3] = {0, 0, 0}, r[3] = {W, H, 1};
    CHECK_OK(clEnqueueNDRangeKernel(h.queue, k, 2, NULL, global, NULL, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadImage(h.queue, dst, CL_TRUE, o, r, 0, 0, out, 0, NULL, NULL));
    int right = 1;
    for (int i = 0; i < W * H * 4; i++) {
        int sum = in[i] + 1 + i % 4;
        right &= out[i] == (sum > 255 ? 255 : sum); /* write_imageui saturates */
    }
    CHECK(right);
    clReleaseKernel(k);

    /* 3D, signed 16-bit, with the program's sampler constant */
    int16_t vin[W * H * D * 2], vout[W * H * D * 2];
    for (int i = 0; i < W * H * D * 2; i++)
        vin[i] = (int16_t)((random_byte() << 8 | random_byte()) - 32768);
    cl_mem vsrc = image(CL_MEM_OBJECT_IMAGE3D, CL_RG, CL_SIGNED_INT16, W, H, D, 0,
                        CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, vin);
    cl_mem vdst = image(CL_MEM_OBJECT_IMAGE3D, CL_RG, CL_SIGNED_INT16, W, H, D, 0,
                        CL_MEM_WRITE_ONLY, NULL);
    k = harness_kernel(program, "copy3d");
    CHECK_OK(clSetKernelArg(k, 0, sizeof vsrc, &vsrc));
    CHECK_OK(clSetKernelArg(k, 1, sizeof vdst, &vdst));
    size_t g3[3] = {W, H, D}, r3[3] = {W, H, D};
    CHECK_OK(clEnqueueNDRangeKernel(h.queue, k, 3, NULL, g3, NULL, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadImage(h.queue, vdst, CL_TRUE, o, r3, 0, 0, vout, 0, NULL, NULL));
    right = 1;
    for (int i = 0; i < W * H * D * 2; i++) {
        int v = vin[i] * 2;
        right &= vout[i] == (v > 32767 ? 32767 : v < -32768 ? -32768 : v);
    }
    CHECK(right);
    clReleaseKernel(k);
    clReleaseMemObject(vsrc);
    clReleaseMemObject(vdst);
    clReleaseMemObject(plain);
    clReleaseMemObject(src);
    clReleaseMemObject(dst);
}

/* Host reference of 8.2 for one dimension: the pixel nearest, or the two
 * blended and the weight, for normalized coordinate s. */
static int wrap_nearest(float s, int n, cl_addressing_mode mode)
{
    if (mode == CL_ADDRESS_REPEAT) {
        int i = (int)floorf((s - floorf(s)) * n);
        return i > n - 1 ? i - n : i;
    }
    if (mode == CL_ADDRESS_MIRRORED_REPEAT) {
        float t = fabsf(s - 2.0f * rintf(0.5f * s));
        int i = (int)floorf(t * n);
        return i < n - 1 ? i : n - 1;
    }
    int i = (int)floorf(s * n);
    if (mode == CL_ADDRESS_CLAMP_TO_EDGE)
        return i < 0 ? 0 : i > n - 1 ? n - 1 : i;
    return i; /* CL_ADDRESS_CLAMP: out of range is the border */
}

static void sampling_1d(void)
{
    enum { N = 10, M = 64 };
    float pixels[N];
    for (int i = 0; i < N; i++)
        pixels[i] = (float)(i * i) / 7.0f;
    cl_mem img = image(CL_MEM_OBJECT_IMAGE1D, CL_R, CL_FLOAT, N, 0, 0, 0,
                       CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, pixels);
    float coords[M];
    for (int i = 0; i < M; i++)
        coords[i] = -1.3f + i * 0.061f;
    cl_mem cbuf = harness_buffer(&h, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof coords, coords);
    cl_mem obuf = harness_buffer(&h, CL_MEM_WRITE_ONLY, M * 16, NULL);
    cl_kernel k = harness_kernel(program, "sample1d");
    static const cl_addressing_mode modes[] = {CL_ADDRESS_CLAMP_TO_EDGE, CL_ADDRESS_CLAMP,
                                               CL_ADDRESS_REPEAT, CL_ADDRESS_MIRRORED_REPEAT};
    for (int m = 0; m < 4; m++) {
        for (int filter = 0; filter < 2; filter++) {
            cl_int err;
            cl_sampler s = clCreateSampler(h.context, CL_TRUE, modes[m],
                                           filter ? CL_FILTER_LINEAR : CL_FILTER_NEAREST, &err);
            CHECK_OK(err);
            CHECK_OK(clSetKernelArg(k, 0, sizeof img, &img));
            CHECK_OK(clSetKernelArg(k, 1, sizeof s, &s));
            CHECK_OK(clSetKernelArg(k, 2, sizeof cbuf, &cbuf));
            CHECK_OK(clSetKernelArg(k, 3, sizeof obuf, &obuf));
            size_t global = M;
            CHECK_OK(clEnqueueNDRangeKernel(h.queue, k, 1, NULL, &global, NULL, 0, NULL, NULL));
            float out[M * 4];
            CHECK_OK(clEnqueueReadBuffer(h.queue, obuf, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
            int right = 1;
            for (int i = 0; i < M; i++) {
                float s0 = coords[i], want, alpha;
                if (!filter) {
                    int p = wrap_nearest(s0, N, modes[m]);
                    int in = p >= 0 && p < N;
                    want = in ? pixels[p] : 0.0f;
                    alpha = 1.0f; /* CL_R has no alpha: the border's is 1 */
                } else {
                    float u;
                    if (modes[m] == CL_ADDRESS_REPEAT)
                        u = (s0 - floorf(s0)) * N;
                    else if (modes[m] == CL_ADDRESS_MIRRORED_REPEAT)
                        u = fabsf(s0 - 2.0f * rintf(0.5f * s0)) * N;
                    else
                        u = s0 * N;
                    int i0 = (int)floorf(u - 0.5f), i1 = i0 + 1;
                    float a = (u - 0.5f) - floorf(u - 0.5f);
                    if (modes[m] == CL_ADDRESS_REPEAT) {
                        if (i0 < 0) i0 += N;
                        if (i1 > N - 1) i1 -= N;
                    } else if (modes[m] == CL_ADDRESS_MIRRORED_REPEAT) {
                        if (i0 < 0) i0 = 0;
                        if (i1 > N - 1) i1 = N - 1;
                    } else if (modes[m] == CL_ADDRESS_CLAMP_TO_EDGE) {
                        i0 = i0 < 0 ? 0 : i0 > N - 1 ? N - 1 : i0;
                        i1 = i1 < 0 ? 0 : i1 > N - 1 ? N - 1 : i1;
                    }
                    float t0 = i0 >= 0 && i0 < N ? pixels[i0] : 0.0f;
                    float t1 = i1 >= 0 && i1 < N ? pixels[i1] : 0.0f;
                    want = (1 - a) * t0 + a * t1;
                    alpha = 1.0f;
                }
                right &= harness_near(out[i * 4], want, 1e-4f) && out[i * 4 + 1] == 0.0f &&
                         out[i * 4 + 3] == alpha;
                if (!harness_near(out[i * 4], want, 1e-4f))
                    fprintf(stderr, "mode %d filter %d s=%g: got %g want %g\n", m, filter, s0,
                            out[i * 4], want);
            }
            CHECK(right);
            clReleaseSampler(s);
        }
    }
    clReleaseKernel(k);
    clReleaseMemObject(img);
    clReleaseMemObject(cbuf);
    clReleaseMemObject(obuf);
}

/* Bilinear filtering of a UNORM_INT8 RGBA image, unnormalized coordinates,
 * against the host (8.2, within 8.3's tolerance). */
static void sampling_2d(void)
{
    enum { W = 9, H = 5, M = 100 };
    unsigned char pixels[W * H * 4];
    for (int i = 0; i < W * H * 4; i++)
        pixels[i] = random_byte();
    cl_mem img = image(CL_MEM_OBJECT_IMAGE2D, CL_RGBA, CL_UNORM_INT8, W, H, 0, 0,
                       CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, pixels);
    float coords[M * 2];
    for (int i = 0; i < M; i++) {
        coords[2 * i] = -1.0f + (random_byte() / 255.0f) * (W + 2);
        coords[2 * i + 1] = -1.0f + (random_byte() / 255.0f) * (H + 2);
    }
    cl_mem cbuf = harness_buffer(&h, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof coords, coords);
    cl_mem obuf = harness_buffer(&h, CL_MEM_WRITE_ONLY, M * 16, NULL);
    cl_int err;
    cl_sampler_properties props[] = {CL_SAMPLER_NORMALIZED_COORDS, CL_FALSE,
                                     CL_SAMPLER_ADDRESSING_MODE, CL_ADDRESS_CLAMP_TO_EDGE,
                                     CL_SAMPLER_FILTER_MODE, CL_FILTER_LINEAR, 0};
    cl_sampler s = clCreateSamplerWithProperties(h.context, props, &err);
    CHECK_OK(err);
    cl_kernel k = harness_kernel(program, "sample2d");
    CHECK_OK(clSetKernelArg(k, 0, sizeof img, &img));
    CHECK_OK(clSetKernelArg(k, 1, sizeof s, &s));
    CHECK_OK(clSetKernelArg(k, 2, sizeof cbuf, &cbuf));
    CHECK_OK(clSetKernelArg(k, 3, sizeof obuf, &obuf));
    size_t global = M;
    CHECK_OK(clEnqueueNDRangeKernel(h.queue, k, 1, NULL, &global, NULL, 0, NULL, NULL));
    float out[M * 4];
    CHECK_OK(clEnqueueReadBuffer(h.queue, obuf, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
    int right = 1;
    for (int i = 0; i < M; i++) {
        float u = coords[2 * i] - 0.5f, v = coords[2 * i + 1] - 0.5f;
        int x0 = (int)floorf(u), y0 = (int)floorf(v);
        float a = u - floorf(u), b = v - floorf(v);
        for (int c = 0; c < 4; c++) {
            float want = 0.0f;
            for (int k2 = 0; k2 < 4; k2++) {
                int x = x0 + (k2 & 1), y = y0 + (k2 >> 1);
                x = x < 0 ? 0 : x > W - 1 ? W - 1 : x;
                y = y < 0 ? 0 : y > H - 1 ? H - 1 : y;
                float wgt = ((k2 & 1) ? a : 1 - a) * ((k2 >> 1) ? b : 1 - b);
                want += wgt * pixels[(y * W + x) * 4 + c] / 255.0f;
            }
            right &= harness_near(out[i * 4 + c], want, 1e-4f);
        }
    }
    CHECK(right);
    cl_bool norm = CL_TRUE;
    cl_filter_mode fm = 0;
    CHECK_OK(clGetSamplerInfo(s, CL_SAMPLER_NORMALIZED_COORDS, sizeof norm, &norm, NULL));
    CHECK_OK(clGetSamplerInfo(s, CL_SAMPLER_FILTER_MODE, sizeof fm, &fm, NULL));
    CHECK(norm == CL_FALSE && fm == CL_FILTER_LINEAR);
    size_t psize = 0;
    CHECK_OK(clGetSamplerInfo(s, CL_SAMPLER_PROPERTIES, 0, NULL, &psize));
    CHECK_EQ(psize, sizeof props);
    clReleaseSampler(s);
    clReleaseKernel(k);
    clReleaseMemObject(img);
    clReleaseMemObject(cbuf);
    clReleaseMemObject(obuf);
}

/* Layers of a 2D array: the layer coordinate is rounded and clamped. */
static void sampling_array(void)
{
    enum { W = 4, H = 3, L = 3 };
    float pixels[W * H * L * 4];
    for (int i = 0; i < W * H * L * 4; i++)
        pixels[i] = (float)i;
    cl_mem img = image(CL_MEM_OBJECT_IMAGE2D_ARRAY, CL_RGBA, CL_FLOAT, W, H, 0, L,
                       CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, pixels);
    float coords[4 * 4] = {1.5f, 1.5f, 0.4f, 0, 2.5f, 0.5f, 1.6f, 0, 3.5f, 2.5f, 9.0f, 0,
                           0.5f, 0.5f, -3.0f, 0};
    int want_layer[4] = {0, 2, 2, 0}, want_x[4] = {1, 2, 3, 0}, want_y[4] = {1, 0, 2, 0};
    cl_mem cbuf = harness_buffer(&h, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof coords, coords);
    cl_mem obuf = harness_buffer(&h, CL_MEM_WRITE_ONLY, 4 * 16, NULL);
    cl_int err;
    cl_sampler s = clCreateSampler(h.context, CL_FALSE, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST, &err);
    cl_kernel k = harness_kernel(program, "sample_array");
    CHECK_OK(clSetKernelArg(k, 0, sizeof img, &img));
    CHECK_OK(clSetKernelArg(k, 1, sizeof s, &s));
    CHECK_OK(clSetKernelArg(k, 2, sizeof cbuf, &cbuf));
    CHECK_OK(clSetKernelArg(k, 3, sizeof obuf, &obuf));
    size_t global = 4;
    CHECK_OK(clEnqueueNDRangeKernel(h.queue, k, 1, NULL, &global, NULL, 0, NULL, NULL));
    float out[16];
    CHECK_OK(clEnqueueReadBuffer(h.queue, obuf, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
    for (int i = 0; i < 4; i++)
        CHECK_EQ(out[i * 4], pixels[((want_layer[i] * H + want_y[i]) * W + want_x[i]) * 4]);
    clReleaseSampler(s);
    clReleaseKernel(k);
    clReleaseMemObject(img);
    clReleaseMemObject(cbuf);
    clReleaseMemObject(obuf);
}

static float srgb_to_linear(float c)
{
    return c <= 0.04045f ? c / 12.92f : powf((c + 0.055f) / 1.055f, 2.4f);
}

/* write_imagef and read_imagef through several formats' conversions. */
static void formats(void)
{
    enum { W = 6, H = 2 };
    float in[W * H * 4], out[W * H * 4];
    for (int i = 0; i < W * H * 4; i++)
        in[i] = -0.2f + (float)i / (W * H * 4) * 1.4f; /* -0.2 .. 1.2: saturation both ways */
    struct {
        cl_channel_order order;
        cl_channel_type type;
    } cases[] = {{CL_RGBA, CL_UNORM_INT8}, {CL_RGBA, CL_SNORM_INT16}, {CL_RGBA, CL_HALF_FLOAT},
                 {CL_sRGBA, CL_UNORM_INT8}, {CL_RGB, CL_UNORM_SHORT_565}, {CL_LUMINANCE, CL_UNORM_INT16},
                 {CL_ARGB, CL_UNORM_INT8}, {CL_RA, CL_FLOAT}};
    cl_kernel wk = harness_kernel(program, "write_f"), rk = harness_kernel(program, "read_f");
    cl_mem ibuf = harness_buffer(&h, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof in, in);
    cl_mem obuf = harness_buffer(&h, CL_MEM_WRITE_ONLY, sizeof out, NULL);
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        cl_mem img = image(CL_MEM_OBJECT_IMAGE2D, cases[c].order, cases[c].type, W, H, 0, 0,
                           CL_MEM_READ_WRITE, NULL);
        size_t global[2] = {W, H};
        CHECK_OK(clSetKernelArg(wk, 0, sizeof img, &img));
        CHECK_OK(clSetKernelArg(wk, 1, sizeof ibuf, &ibuf));
        CHECK_OK(clEnqueueNDRangeKernel(h.queue, wk, 2, NULL, global, NULL, 0, NULL, NULL));
        CHECK_OK(clSetKernelArg(rk, 0, sizeof img, &img));
        CHECK_OK(clSetKernelArg(rk, 1, sizeof obuf, &obuf));
        CHECK_OK(clEnqueueNDRangeKernel(h.queue, rk, 2, NULL, global, NULL, 0, NULL, NULL));
        CHECK_OK(clEnqueueReadBuffer(h.queue, obuf, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
        int right = 1;
        for (int p = 0; p < W * H; p++) {
            for (int ch = 0; ch < 4; ch++) {
                float x = in[p * 4 + ch], want, tol = 1e-6f;
                cl_channel_type t = cases[c].type;
                cl_channel_order o = cases[c].order;
                if (t == CL_UNORM_INT8) {
                    float v = x < 0 ? 0 : x > 1 ? 1 : x;
                    if (o == CL_sRGBA && ch < 3) {
                        /* encoded to 8 bits: compare in the encoded domain */
                        v = v < 0.0031308f ? 12.92f * v : 1.055f * powf(v, 1 / 2.4f) - 0.055f;
                        want = srgb_to_linear(rintf(v * 255.0f) / 255.0f);
                        tol = 2e-3f;
                    } else {
                        want = rintf(v * 255.0f) / 255.0f;
                    }
                } else if (t == CL_SNORM_INT16) {
                    float v = x < -1 ? -1 : x > 1 ? 1 : x;
                    want = rintf(v * 32767.0f) / 32767.0f;
                } else if (t == CL_HALF_FLOAT) {
                    want = (float)(_Float16)x;
                } else if (t == CL_UNORM_SHORT_565) {
                    float v = x < 0 ? 0 : x > 1 ? 1 : x;
                    want = ch == 3 ? 1.0f : rintf(v * (ch == 1 ? 63.0f : 31.0f)) / (ch == 1 ? 63.0f : 31.0f);
                } else if (t == CL_UNORM_INT16) { /* luminance: r everywhere, alpha 1 */
                    float v = in[p * 4];
                    v = v < 0 ? 0 : v > 1 ? 1 : v;
                    want = ch == 3 ? 1.0f : rintf(v * 65535.0f) / 65535.0f;
                } else { /* RA float: g and b read 0 */
                    want = ch == 1 || ch == 2 ? 0.0f : x;
                }
                if (fabsf(out[p * 4 + ch] - want) > tol) {
                    right = 0;
                    fprintf(stderr, "format %zu pixel %d channel %d: %g, want %g\n", c, p, ch,
                            out[p * 4 + ch], want);
                }
            }
        }
        CHECK(right);
        clReleaseMemObject(img);
    }
    clReleaseKernel(wk);
    clReleaseKernel(rk);
    clReleaseMemObject(ibuf);
    clReleaseMemObject(obuf);
}

static void read_write_and_depth(void)
{
    enum { W = 5, L = 3 };
    float px[W * L * 4];
    for (int i = 0; i < W * L * 4; i++)
        px[i] = (float)i;
    cl_mem img = image(CL_MEM_OBJECT_IMAGE1D_ARRAY, CL_RGBA, CL_FLOAT, W, 0, 0, L,
                       CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, px);
    cl_kernel k = harness_kernel(program, "rw");
    CHECK_OK(clSetKernelArg(k, 0, sizeof img, &img));
    size_t global[2] = {W, L}, o[3] = {0, 0, 0}, r[3] = {W, L, 1};
    CHECK_OK(clEnqueueNDRangeKernel(h.queue, k, 2, NULL, global, NULL, 0, NULL, NULL));
    float got[W * L * 4];
    CHECK_OK(clEnqueueReadImage(h.queue, img, CL_TRUE, o, r, 0, 0, got, 0, NULL, NULL));
    int right = 1;
    for (int i = 0; i < W * L * 4; i++)
        right &= got[i] == px[i] * 0.5f;
    CHECK(right);
    clReleaseKernel(k);
    clReleaseMemObject(img);

    enum { DW = 7, DH = 4 };
    uint16_t depth[DW * DH], dout[DW * DH];
    for (int i = 0; i < DW * DH; i++)
        depth[i] = (uint16_t)(i * 2000);
    cl_mem src = image(CL_MEM_OBJECT_IMAGE2D, CL_DEPTH, CL_UNORM_INT16, DW, DH, 0, 0,
                       CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, depth);
    cl_mem dst = image(CL_MEM_OBJECT_IMAGE2D, CL_DEPTH, CL_UNORM_INT16, DW, DH, 0, 0,
                       CL_MEM_WRITE_ONLY, NULL);
    cl_int err;
    cl_sampler s = clCreateSampler(h.context, CL_FALSE, CL_ADDRESS_NONE, CL_FILTER_NEAREST, &err);
    k = harness_kernel(program, "depth");
    CHECK_OK(clSetKernelArg(k, 0, sizeof src, &src));
    CHECK_OK(clSetKernelArg(k, 1, sizeof dst, &dst));
    CHECK_OK(clSetKernelArg(k, 2, sizeof s, &s));
    size_t g2[2] = {DW, DH}, r2[3] = {DW, DH, 1};
    CHECK_OK(clEnqueueNDRangeKernel(h.queue, k, 2, NULL, g2, NULL, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadImage(h.queue, dst, CL_TRUE, o, r2, 0, 0, dout, 0, NULL, NULL));
    right = 1;
    for (int i = 0; i < DW * DH; i++)
        right &= dout[i] == (uint16_t)rintf((1.0f - depth[i] / 65535.0f) * 65535.0f);
    CHECK(right);
    clReleaseSampler(s);
    clReleaseKernel(k);
    clReleaseMemObject(src);
    clReleaseMemObject(dst);
}

static void queries(void)
{
    cl_mem a = image(CL_MEM_OBJECT_IMAGE3D, CL_RG, CL_SIGNED_INT16, 6, 5, 4, 0, CL_MEM_READ_ONLY, NULL);
    cl_mem b = image(CL_MEM_OBJECT_IMAGE2D_ARRAY, CL_RGBA, CL_UNORM_INT8, 3, 2, 0, 7,
                     CL_MEM_WRITE_ONLY, NULL);
    cl_mem buffer = harness_buffer(&h, CL_MEM_READ_WRITE, 64 * 4, NULL);
    cl_image_format format = {CL_RGBA, CL_UNSIGNED_INT8};
    cl_image_desc desc = {.image_type = CL_MEM_OBJECT_IMAGE1D_BUFFER, .image_width = 64,
                          .mem_object = buffer};
    cl_int err;
    cl_mem c = clCreateImage(h.context, 0, &format, &desc, NULL, &err);
    CHECK_OK(err);
    cl_mem d = image(CL_MEM_OBJECT_IMAGE1D_ARRAY, CL_R, CL_FLOAT, 9, 0, 0, 11, CL_MEM_READ_ONLY, NULL);
    cl_mem out = harness_buffer(&h, CL_MEM_WRITE_ONLY, 12 * sizeof(int), NULL);
    cl_kernel k = harness_kernel(program, "queries");
    cl_mem args[] = {a, b, c, d, out};
    for (cl_uint i = 0; i < 5; i++)
        CHECK_OK(clSetKernelArg(k, i, sizeof args[i], &args[i]));
    size_t one = 1;
    CHECK_OK(clEnqueueNDRangeKernel(h.queue, k, 1, NULL, &one, NULL, 0, NULL, NULL));
    int got[12];
    CHECK_OK(clEnqueueReadBuffer(h.queue, out, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL));
    int want[12] = {6, 5, 4, 4, 3, 2, 7, 1, 1, 64, 11, 9};
    CHECK(memcmp(got, want, sizeof want) == 0);
    cl_mem assoc = NULL;
    CHECK_OK(clGetImageInfo(c, CL_IMAGE_BUFFER, sizeof assoc, &assoc, NULL));
    CHECK(assoc == buffer);
    clReleaseKernel(k);
    cl_mem all[] = {a, b, c, d, out, buffer};
    for (int i = 0; i < 6; i++)
        clReleaseMemObject(all[i]);
}

static void errors(void)
{
    cl_int err;
    cl_image_format bad = {CL_RGB, CL_UNORM_INT8}; /* CL_RGB takes only packed types */
    cl_image_format ok = {CL_RGBA, CL_UNORM_INT8};
    cl_image_format offered_not = {CL_Rx, CL_FLOAT};
    cl_image_desc desc = {.image_type = CL_MEM_OBJECT_IMAGE2D, .image_width = 4, .image_height = 4};
    CHECK(!clCreateImage(h.context, 0, &bad, &desc, NULL, &err));
    CHECK_ERR(err, CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
    CHECK(!clCreateImage(h.context, 0, NULL, &desc, NULL, &err));
    CHECK_ERR(err, CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
    CHECK(!clCreateImage(h.context, 0, &offered_not, &desc, NULL, &err));
    CHECK_ERR(err, CL_IMAGE_FORMAT_NOT_SUPPORTED);
    CHECK(!clCreateImage(h.context, 0, &ok, NULL, NULL, &err));
    CHECK_ERR(err, CL_INVALID_IMAGE_DESCRIPTOR);
    cl_image_desc zero = desc;
    zero.image_height = 0;
    CHECK(!clCreateImage(h.context, 0, &ok, &zero, NULL, &err));
    CHECK_ERR(err, CL_INVALID_IMAGE_SIZE);
    cl_image_desc huge = desc;
    huge.image_width = 1u << 20;
    CHECK(!clCreateImage(h.context, 0, &ok, &huge, NULL, &err));
    CHECK_ERR(err, CL_INVALID_IMAGE_SIZE);
    cl_image_desc pitch = desc;
    pitch.image_row_pitch = 64;
    CHECK(!clCreateImage(h.context, 0, &ok, &pitch, NULL, &err));
    CHECK_ERR(err, CL_INVALID_IMAGE_DESCRIPTOR);
    cl_image_desc depth3d = {.image_type = CL_MEM_OBJECT_IMAGE3D, .image_width = 4,
                             .image_height = 4, .image_depth = 4};
    cl_image_format depth = {CL_DEPTH, CL_FLOAT};
    CHECK(!clCreateImage(h.context, 0, &depth, &depth3d, NULL, &err));
    CHECK_ERR(err, CL_IMAGE_FORMAT_NOT_SUPPORTED);
    unsigned char host[4 * 4 * 4];
    CHECK(!clCreateImage(h.context, CL_MEM_USE_HOST_PTR, &ok, &desc, NULL, &err));
    CHECK_ERR(err, CL_INVALID_HOST_PTR);
    cl_mem img = clCreateImage(h.context, CL_MEM_USE_HOST_PTR, &ok, &desc, host, &err);
    CHECK_OK(err);
    size_t o[3] = {0, 0, 0}, r[3] = {5, 1, 1}, r3[3] = {4, 4, 2};
    CHECK_ERR(clEnqueueReadImage(h.queue, img, CL_TRUE, o, r, 0, 0, host, 0, NULL, NULL),
              CL_INVALID_VALUE);
    CHECK_ERR(clEnqueueReadImage(h.queue, img, CL_TRUE, o, r3, 0, 0, host, 0, NULL, NULL),
              CL_INVALID_VALUE);
    CHECK_ERR(clEnqueueReadImage(h.queue, img, CL_TRUE, NULL, r, 0, 0, host, 0, NULL, NULL),
              CL_INVALID_VALUE);
    size_t rp = 0;
    CHECK(!clEnqueueMapImage(h.queue, img, CL_TRUE, CL_MAP_READ, o, r3, &rp, NULL, 0, NULL,
                             NULL, &err));
    CHECK_ERR(err, CL_INVALID_VALUE);
    cl_mem buffer = harness_buffer(&h, CL_MEM_READ_WRITE, 16, NULL);
    CHECK_ERR(clGetImageInfo(buffer, CL_IMAGE_WIDTH, sizeof rp, &rp, NULL), CL_INVALID_MEM_OBJECT);
    CHECK_ERR(clEnqueueReadImage(h.queue, buffer, CL_TRUE, o, r, 0, 0, host, 0, NULL, NULL),
              CL_INVALID_MEM_OBJECT);
    CHECK_ERR(clEnqueueReadBuffer(h.queue, img, CL_TRUE, 0, 4, host, 0, NULL, NULL),
              CL_INVALID_MEM_OBJECT);
    clReleaseMemObject(buffer);
    clReleaseMemObject(img);
    CHECK(!clCreateSampler(h.context, CL_TRUE, 0x9999, CL_FILTER_LINEAR, &err));
    CHECK_ERR(err, CL_INVALID_VALUE);
    cl_sampler_properties twice[] = {CL_SAMPLER_FILTER_MODE, CL_FILTER_LINEAR,
                                     CL_SAMPLER_FILTER_MODE, CL_FILTER_NEAREST, 0};
    CHECK(!clCreateSamplerWithProperties(h.context, twice, &err));
    CHECK_ERR(err, CL_INVALID_VALUE);
    CHECK_ERR(clRetainSampler(NULL), CL_INVALID_SAMPLER);
    cl_kernel k = harness_kernel(program, "sample1d");
    cl_sampler none = NULL;
    CHECK_ERR(clSetKernelArg(k, 1, sizeof none, &none), CL_INVALID_SAMPLER);
    clReleaseKernel(k);
}

int main(void)
{
    h = harness_open();
    program = harness_build(&h, source, "-cl-std=CL2.0");
    REQUIRE(program);
    info();
    host_round_trip(CL_MEM_OBJECT_IMAGE1D, 17, 0, 0, 0);
    host_round_trip(CL_MEM_OBJECT_IMAGE1D_BUFFER, 33, 0, 0, 0);
    host_round_trip(CL_MEM_OBJECT_IMAGE1D_ARRAY, 9, 0, 0, 5);
    host_round_trip(CL_MEM_OBJECT_IMAGE2D, 11, 7, 0, 0);
    host_round_trip(CL_MEM_OBJECT_IMAGE2D_ARRAY, 6, 5, 0, 4);
    host_round_trip(CL_MEM_OBJECT_IMAGE3D, 7, 4, 3, 0);
    fill_and_copy();
    kernel_copies();
    sampling_1d();
    sampling_2d();
    sampling_array();
    formats();
    read_write_and_depth();
    queries();
    errors();
    clReleaseProgram(program);
    harness_close(&h);
    return harness_finish();
}
