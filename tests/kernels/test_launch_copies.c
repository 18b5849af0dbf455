/* test_launch_copies.c - the copies of a kernel that the compiler makes for
 * what its launches fix (src/compiler/codegen.c, cc_kernel_code_for_launch):
 * after a few launches with the same local size, image formats and sampler,
 * full groups run a copy with those folded in, the last groups of a
 * non-uniform range and launches with other facts the general code.
 * Every launch is checked: work-item queries and a reduction with barriers
 * against the host, image filtering against the first launch (which ran
 * the general code) bit for bit and, for nearest reads, against the host;
 * then a second program of the same source, whose copies come from the
 * kernel cache at its first launch. Buffers larger than the last-level
 * cache that a kernel only writes get streaming stores in the copy
 * (src/compiler/launch.c) when their data is on a cache line and the
 * launch has no global offset (stores then provably aligned): checked
 * element by element, also with an offset and for a buffer over an
 * application's memory off a cache line, beside a kernel
 * that reads and writes its buffer and one with an atomic, which keep
 * ordinary stores. A transpose's copy runs its groups in bands of rows
 * (src/compiler/order.c, cpu/pool.c): every element is checked, in 2D and
 * 3D, with partial groups and a last band shorter than the others. */
#include "../harness.h"

enum { LAUNCHES = 5 };

static const char *source =
    "kernel void ids(global long *out, int width)\n"
    "{\n"
    "    size_t x = get_global_id(0), y = get_global_id(1);\n"
    "    global long *o = out + 5 * (y * width + x);\n"
    "    o[0] = get_local_id(0) + 100 * get_local_id(1);\n"
    "    o[1] = get_local_size(0) + 100 * get_local_size(1);\n"
    "    o[2] = get_enqueued_local_size(0) + 100 * get_enqueued_local_size(1);\n"
    "    o[3] = get_group_id(0) + 100 * get_group_id(1);\n"
    "    o[4] = get_local_linear_id();\n"
    "}\n"
    "kernel void sums(global const int *in, global int *out, local int *t)\n"
    "{\n"
    "    size_t l = get_local_id(0), n = get_local_size(0);\n"
    "    t[l] = in[get_global_id(0)];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    for (size_t s = (n + 1) / 2, m = n; m > 1; m = s, s = (s + 1) / 2) {\n"
    "        if (l < m - s) t[l] += t[l + s];\n"
    "        barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    }\n"
    "    if (l == 0) out[get_group_id(0)] = t[0];\n"
    "}\n"
    "kernel void scale(global const float *in, global float *out, float k)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    out[i] = k * in[i] + 1.0f;\n"
    "}\n"
    "kernel void in_place(global float *a, float k)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    a[i] = k * a[i] + 1.0f;\n"
    "}\n"
    "kernel void counted(global float *out, volatile global int *count)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    out[i] = (float)i;\n"
    "    if ((i & 1023) == 0) atomic_inc(count);\n"
    "}\n"
    "kernel void transpose(global const int *in, global int *out, int width, int height)\n"
    "{\n"
    "    int x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);\n"
    "    out[(z * width + x) * height + y] = in[(z * height + y) * width + x];\n"
    "}\n"
    "kernel void filter(read_only image2d_t in, sampler_t s, write_only image2d_t out,\n"
    "                   float scale)\n"
    "{\n"
    "    int x = get_global_id(0), y = get_global_id(1);\n"
    "    float2 c = (float2)(x + 0.5f, y + 0.5f) * scale;\n"
    "    float4 v = read_imagef(in, s, c) + 0.5f * read_imagef(in, s, c + (float2)(0.3f, 0.4f) * "
    "scale);\n"
    "    write_imagef(out, (int2)(x, y), v * (1.0f / 1.5f));\n"
    "}\n";

static void check_ids(struct harness *h, cl_kernel kernel, size_t width, size_t height,
                      const size_t *local)
{
    size_t count = width * height * 5;
    cl_long *out = malloc(count * sizeof *out);
    REQUIRE(out);
    cl_mem buffer = harness_buffer(h, CL_MEM_WRITE_ONLY, count * sizeof *out, NULL);
    cl_int w = (cl_int)width;
    CHECK_OK(harness_args(kernel, 2, ARG(buffer), ARG(w)));
    size_t global[2] = {width, height};
    for (int launch = 0; launch < LAUNCHES; launch++) {
        memset(out, 0xff, count * sizeof *out);
        CHECK_OK(clEnqueueNDRangeKernel(h->queue, kernel, 2, NULL, global, local, 0, NULL, NULL));
        CHECK_OK(clEnqueueReadBuffer(h->queue, buffer, CL_TRUE, 0, count * sizeof *out, out, 0,
                                     NULL, NULL));
        size_t bad = 0;
        for (size_t y = 0; y < height; y++)
            for (size_t x = 0; x < width; x++) {
                const cl_long *o = out + 5 * (y * width + x);
                size_t lx = x % local[0], ly = y % local[1];
                size_t sx = width - x + lx < local[0] ? width - x + lx : local[0];
                size_t sy = height - y + ly < local[1] ? height - y + ly : local[1];
                bad += o[0] != (cl_long)(lx + 100 * ly) || o[1] != (cl_long)(sx + 100 * sy) ||
                       o[2] != (cl_long)(local[0] + 100 * local[1]) ||
                       o[3] != (cl_long)(x / local[0] + 100 * (y / local[1])) ||
                       o[4] != (cl_long)(ly * sx + lx);
            }
        CHECK_NONE_WRONG(bad, "work-item values");
    }
    clReleaseMemObject(buffer);
    free(out);
}

static void check_sums(struct harness *h, cl_kernel kernel, size_t n, size_t local)
{
    size_t groups = (n + local - 1) / local;
    cl_int *in = malloc(n * sizeof *in), *out = malloc(groups * sizeof *out);
    REQUIRE(in && out);
    for (size_t i = 0; i < n; i++)
        in[i] = (cl_int)(i * 7 % 13) - 6;
    cl_mem a = harness_buffer(h, CL_MEM_READ_ONLY, n * sizeof *in, in);
    cl_mem b = harness_buffer(h, CL_MEM_WRITE_ONLY, groups * sizeof *out, NULL);
    CHECK_OK(clSetKernelArg(kernel, 0, sizeof a, &a));
    CHECK_OK(clSetKernelArg(kernel, 1, sizeof b, &b));
    CHECK_OK(clSetKernelArg(kernel, 2, local * sizeof(cl_int), NULL));
    for (int launch = 0; launch < LAUNCHES; launch++) {
        memset(out, 0x55, groups * sizeof *out);
        CHECK_OK(clEnqueueNDRangeKernel(h->queue, kernel, 1, NULL, &n, &local, 0, NULL, NULL));
        CHECK_OK(
            clEnqueueReadBuffer(h->queue, b, CL_TRUE, 0, groups * sizeof *out, out, 0, NULL, NULL));
        size_t bad = 0;
        for (size_t g = 0; g < groups; g++) {
            cl_int want = 0;
            for (size_t i = g * local; i < n && i < (g + 1) * local; i++)
                want += in[i];
            bad += out[g] != want;
        }
        CHECK_NONE_WRONG(bad, "group sums");
    }
    clReleaseMemObject(a);
    clReleaseMemObject(b);
    free(in);
    free(out);
}

static void check_transpose(struct harness *h, cl_kernel kernel, const size_t *global,
                            const size_t *local)
{
    size_t count = global[0] * global[1] * global[2];
    cl_int *in = malloc(count * sizeof *in), *out = malloc(count * sizeof *out);
    REQUIRE(in && out);
    for (size_t i = 0; i < count; i++)
        in[i] = (cl_int)(i * 2654435761u >> 7);
    cl_mem a = harness_buffer(h, CL_MEM_READ_ONLY, count * sizeof *in, in);
    cl_mem b = harness_buffer(h, CL_MEM_WRITE_ONLY, count * sizeof *out, NULL);
    cl_int width = (cl_int)global[0], height = (cl_int)global[1];
    CHECK_OK(harness_args(kernel, 4, ARG(a), ARG(b), ARG(width), ARG(height)));
    for (int launch = 0; launch < LAUNCHES; launch++) {
        memset(out, 0x55, count * sizeof *out);
        CHECK_OK(clEnqueueWriteBuffer(h->queue, b, CL_TRUE, 0, count * sizeof *out, out, 0, NULL,
                                      NULL));
        CHECK_OK(clEnqueueNDRangeKernel(h->queue, kernel, 3, NULL, global, local, 0, NULL, NULL));
        CHECK_OK(
            clEnqueueReadBuffer(h->queue, b, CL_TRUE, 0, count * sizeof *out, out, 0, NULL, NULL));
        size_t bad = 0;
        for (size_t z = 0; z < global[2]; z++)
            for (size_t y = 0; y < global[1]; y++)
                for (size_t x = 0; x < global[0]; x++)
                    bad += out[(z * global[0] + x) * global[1] + y] !=
                           in[(z * global[1] + y) * global[0] + x];
        CHECK_NONE_WRONG(bad, "transposed elements");
    }
    clReleaseMemObject(a);
    clReleaseMemObject(b);
    free(in);
    free(out);
}

struct image_case {
    cl_image_format in, out;
    cl_bool normalized;
    cl_addressing_mode addressing;
    cl_filter_mode filter;
};

static size_t format_bytes(cl_image_format f)
{
    size_t channels = f.image_channel_order == CL_R ? 1 : 4;
    return channels * (f.image_channel_data_type == CL_FLOAT ? 4 : 1);
}

/* The filter kernel LAUNCHES times on one case; every launch must give
 * the first one's bytes. Nearest reads at pixel centres, unnormalized,
 * copy the pixels (0.3, 0.4 further is the same pixel): checked on the host. */
static void check_image_case(struct harness *h, cl_kernel kernel, const struct image_case *c)
{
    enum { W = 37, H = 21 };
    size_t in_bytes = format_bytes(c->in), out_bytes = format_bytes(c->out);
    unsigned char *pixels = malloc(W * H * in_bytes), *first = malloc(W * H * out_bytes),
                  *got = malloc(W * H * out_bytes);
    REQUIRE(pixels && first && got);
    for (size_t i = 0; i < W * H * in_bytes; i++)
        pixels[i] = (unsigned char)(i * 37 % 251);
    if (c->in.image_channel_data_type == CL_FLOAT)
        for (size_t i = 0; i < W * H * in_bytes / 4; i++)
            ((float *)pixels)[i] = (float)(i * 37 % 251) / 251.0f;
    cl_image_desc desc = {.image_type = CL_MEM_OBJECT_IMAGE2D, .image_width = W, .image_height = H};
    cl_int err;
    cl_mem in = clCreateImage(h->context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, &c->in, &desc,
                              pixels, &err);
    REQUIRE(err == CL_SUCCESS);
    cl_mem out = clCreateImage(h->context, CL_MEM_WRITE_ONLY, &c->out, &desc, NULL, &err);
    REQUIRE(err == CL_SUCCESS);
    cl_sampler_properties properties[] = {CL_SAMPLER_NORMALIZED_COORDS,
                                          c->normalized,
                                          CL_SAMPLER_ADDRESSING_MODE,
                                          c->addressing,
                                          CL_SAMPLER_FILTER_MODE,
                                          c->filter,
                                          0};
    cl_sampler sampler = clCreateSamplerWithProperties(h->context, properties, &err);
    REQUIRE(err == CL_SUCCESS);
    cl_float scale = c->normalized ? 1.0f / W : 1.0f;
    CHECK_OK(harness_args(kernel, 4, ARG(in), ARG(sampler), ARG(out), ARG(scale)));
    size_t global[2] = {W, H}, local[2] = {8, 4}, origin[3] = {0, 0, 0}, region[3] = {W, H, 1};
    for (int launch = 0; launch < LAUNCHES; launch++) {
        memset(got, 0xee, W * H * out_bytes);
        CHECK_OK(clEnqueueNDRangeKernel(h->queue, kernel, 2, NULL, global, local, 0, NULL, NULL));
        CHECK_OK(
            clEnqueueReadImage(h->queue, out, CL_TRUE, origin, region, 0, 0, got, 0, NULL, NULL));
        if (launch == 0)
            memcpy(first, got, W * H * out_bytes);
        else
            CHECK(memcmp(first, got, W * H * out_bytes) == 0);
    }
    if (c->filter == CL_FILTER_NEAREST && !c->normalized && c->in.image_channel_order == CL_RGBA &&
        c->in.image_channel_data_type == CL_FLOAT && out_bytes == in_bytes) {
        size_t bad = 0;
        for (size_t i = 0; i < W * H * 4; i++)
            bad += !harness_near(((float *)got)[i], ((float *)pixels)[i], 1e-6f);
        CHECK_NONE_WRONG(bad, "nearest pixels");
    }
    clReleaseSampler(sampler);
    clReleaseMemObject(in);
    clReleaseMemObject(out);
    free(pixels);
    free(first);
    free(got);
}

/* scale(a, b, k) with the items from `offset` on: a copy each for the
 * offset 0 (folded) and any other; the items before it keep their -1. */
static void check_scale(struct harness *h, cl_kernel scale, cl_mem a, cl_mem b, const float *in,
                        float *out, size_t n, size_t offset)
{
    size_t local = 256, count = n - offset;
    cl_float minus_one = -1.0f;
    for (int launch = 0; launch < LAUNCHES; launch++) {
        cl_float k = 1.0f + (float)launch;
        CHECK_OK(clEnqueueFillBuffer(h->queue, b, &minus_one, sizeof minus_one, 0, n * sizeof *out,
                                     0, NULL, NULL));
        CHECK_OK(harness_args(scale, 3, ARG(a), ARG(b), ARG(k)));
        CHECK_OK(
            clEnqueueNDRangeKernel(h->queue, scale, 1, &offset, &count, &local, 0, NULL, NULL));
        CHECK_OK(clEnqueueReadBuffer(h->queue, b, CL_TRUE, 0, n * sizeof *out, out, 0, NULL, NULL));
        size_t bad = 0;
        for (size_t i = 0; i < n; i++)
            bad += out[i] != (i < offset ? -1.0f : k * in[i] + 1.0f);
        CHECK_NONE_WRONG(bad, "scaled elements");
    }
}

/* Buffers of more floats than the last-level cache holds. */
static void check_streaming(struct harness *h, cl_program program)
{
    cl_ulong cache = 0;
    CHECK_OK(
        clGetDeviceInfo(h->device, CL_DEVICE_GLOBAL_MEM_CACHE_SIZE, sizeof cache, &cache, NULL));
    size_t n = (size_t)(cache / sizeof(float)) * 3 / 2 + 4096;
    n = (n + 255) / 256 * 256;
    float *in = malloc(n * sizeof *in), *out = malloc(n * sizeof *out);
    REQUIRE(in && out);
    for (size_t i = 0; i < n; i++)
        in[i] = (float)(i % 1000) * 0.25f;
    cl_mem a = harness_buffer(h, CL_MEM_READ_WRITE, n * sizeof *in, in);
    cl_mem b = harness_buffer(h, CL_MEM_READ_WRITE, n * sizeof *out, NULL);
    size_t local = 256;

    cl_kernel scale = harness_kernel(program, "scale");
    check_scale(h, scale, a, b, in, out, n, 0);
    check_scale(h, scale, a, b, in, out, n, 2 * local); /* the offset is not folded */
    /* an application's memory off a cache line: its stores are not proved
     * aligned, so they stay ordinary */
    char *raw = malloc(n * sizeof *out + 64);
    REQUIRE(raw);
    cl_int err;
    cl_mem off_line =
        clCreateBuffer(h->context, CL_MEM_USE_HOST_PTR, n * sizeof *out, raw + 4, &err);
    CHECK_OK(err);
    check_scale(h, scale, a, off_line, in, out, n, 0);
    clReleaseMemObject(off_line);
    free(raw);
    clReleaseKernel(scale);

    cl_kernel in_place = harness_kernel(program, "in_place");
    cl_float k = 0.5f;
    CHECK_OK(harness_args(in_place, 2, ARG(a), ARG(k)));
    for (int launch = 0; launch < LAUNCHES; launch++)
        CHECK_OK(clEnqueueNDRangeKernel(h->queue, in_place, 1, NULL, &n, &local, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(h->queue, a, CL_TRUE, 0, n * sizeof *out, out, 0, NULL, NULL));
    size_t bad = 0;
    for (size_t i = 0; i < n; i++) {
        float want = in[i];
        for (int launch = 0; launch < LAUNCHES; launch++)
            want = k * want + 1.0f;
        bad += out[i] != want;
    }
    CHECK_NONE_WRONG(bad, "elements updated in place");
    clReleaseKernel(in_place);

    cl_kernel counted = harness_kernel(program, "counted");
    cl_int zero = 0, count = 0;
    cl_mem c = harness_buffer(h, CL_MEM_READ_WRITE, sizeof zero, &zero);
    CHECK_OK(harness_args(counted, 2, ARG(b), ARG(c)));
    for (int launch = 0; launch < LAUNCHES; launch++)
        CHECK_OK(clEnqueueNDRangeKernel(h->queue, counted, 1, NULL, &n, &local, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(h->queue, b, CL_TRUE, 0, n * sizeof *out, out, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(h->queue, c, CL_TRUE, 0, sizeof count, &count, 0, NULL, NULL));
    bad = 0;
    for (size_t i = 0; i < n; i++)
        bad += out[i] != (float)i;
    CHECK_NONE_WRONG(bad, "written indices");
    CHECK_EQ(count, (cl_int)(LAUNCHES * ((n + 1023) / 1024)));
    clReleaseKernel(counted);
    clReleaseMemObject(c);
    clReleaseMemObject(a);
    clReleaseMemObject(b);
    free(in);
    free(out);
}

static void run_program(struct harness *h, cl_program program)
{
    check_streaming(h, program);
    cl_kernel ids = harness_kernel(program, "ids");
    size_t l84[2] = {8, 4}, l161[2] = {16, 1};
    check_ids(h, ids, 30, 10, l84); /* partial groups in x and y */
    check_ids(h, ids, 32, 8, l84);  /* uniform */
    check_ids(h, ids, 45, 3, l161); /* another size: a copy of its own */
    clReleaseKernel(ids);

    cl_kernel sums = harness_kernel(program, "sums");
    check_sums(h, sums, 4096, 256);
    check_sums(h, sums, 1000, 64); /* the last group has 40 */
    check_sums(h, sums, 999, 7);
    clReleaseKernel(sums);

    cl_kernel transpose = harness_kernel(program, "transpose");
    size_t g2[3] = {72, 600, 1}, l2[3] = {8, 8, 1};  /* bands of 32 rows of groups: 32, 32, 11 */
    size_t g3[3] = {37, 203, 3}, l3[3] = {4, 2, 1};  /* partial groups, bands of 64 */
    size_t g4[3] = {40, 70, 4}, l4[3] = {8, 5, 2};   /* 2 planes of groups */
    check_transpose(h, transpose, g2, l2);
    check_transpose(h, transpose, g3, l3);
    check_transpose(h, transpose, g4, l4);
    clReleaseKernel(transpose);

    cl_image_format rgba_f = {CL_RGBA, CL_FLOAT}, rgba_8 = {CL_RGBA, CL_UNORM_INT8},
                    r_f = {CL_R, CL_FLOAT}, bgra_8 = {CL_BGRA, CL_UNORM_INT8};
    const struct image_case cases[] = {
        {rgba_f, rgba_f, CL_FALSE, CL_ADDRESS_CLAMP_TO_EDGE, CL_FILTER_NEAREST},
        {rgba_f, rgba_f, CL_FALSE, CL_ADDRESS_CLAMP_TO_EDGE, CL_FILTER_LINEAR},
        {rgba_8, rgba_8, CL_FALSE, CL_ADDRESS_CLAMP, CL_FILTER_LINEAR},
        {r_f, r_f, CL_TRUE, CL_ADDRESS_REPEAT, CL_FILTER_LINEAR},
        {bgra_8, bgra_8, CL_TRUE, CL_ADDRESS_MIRRORED_REPEAT, CL_FILTER_NEAREST},
        {rgba_8, rgba_f, CL_FALSE, CL_ADDRESS_NONE, CL_FILTER_LINEAR},          /* formats differ */
        {rgba_f, rgba_f, CL_FALSE, CL_ADDRESS_CLAMP_TO_EDGE, CL_FILTER_LINEAR}, /* again */
    };
    cl_kernel filter = harness_kernel(program, "filter");
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        check_image_case(h, filter, &cases[i]);
    clReleaseKernel(filter);
}

int main(void)
{
    struct harness h = harness_open();
    cl_bool images = CL_FALSE;
    clGetDeviceInfo(h.device, CL_DEVICE_IMAGE_SUPPORT, sizeof images, &images, NULL);
    REQUIRE(images);
    /* the second program finds the first one's copies in the kernel cache */
    for (int round = 0; round < 2; round++) {
        cl_program program = harness_build(&h, source, "-cl-std=CL2.0");
        REQUIRE(program);
        run_program(&h, program);
        clReleaseProgram(program);
    }
    harness_close(&h);
    return harness_finish();
}
