/* test_image_filters.c - 3x3 filters through images with integer
 * coordinates and a sampler that clamps to the edge (the way image
 * filters are written: `read_imagef(in, sampler, (int2)(x + dx, y + dy))`),
 * whose reads skip the bounds check (clamped, the coordinates are inside)
 * and whose work-item loops the compiler cuts at the clamps
 * (src/builtins/image.cl, src/compiler/narrow.cpp, launch.c's invariant
 * descriptor loads): RGBA float and RGBA unorm8 through read_imagef, R
 * uint16 through read_imageui and R int32 through read_imagei; and, for
 * the other addressing modes, a border read (CLK_ADDRESS_CLAMP) beside
 * them. Images that are not a whole number of groups wide, a global offset,
 * the local size left to the driver and launches that make a launch copy;
 * every result compared with the host's (exact: small integers, and unorm8
 * values n / 255 summed in float). */
#include <stdbool.h>
#include <stdint.h>

#include "../harness.h"

static const char *source =
    "constant sampler_t edge = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE |\n"
    "                          CLK_FILTER_NEAREST;\n"
    "constant sampler_t border = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP |\n"
    "                            CLK_FILTER_NEAREST;\n"
    "kernel void blur_f(read_only image2d_t in, write_only image2d_t out)\n"
    "{\n"
    "    int x = get_global_id(0), y = get_global_id(1);\n"
    "    float4 sum = 0;\n"
    "    for (int dy = -1; dy <= 1; dy++)\n"
    "        for (int dx = -1; dx <= 1; dx++)\n"
    "            sum += read_imagef(in, edge, (int2)(x + dx, y + dy)) *\n"
    "                   (float)((2 - abs(dx)) * (2 - abs(dy)));\n"
    "    sum += read_imagef(in, border, (int2)(x - 2, y));\n"
    "    write_imagef(out, (int2)(x, y), sum);\n"
    "}\n"
    "kernel void blur_ui(read_only image2d_t in, write_only image2d_t out)\n"
    "{\n"
    "    int x = get_global_id(0), y = get_global_id(1);\n"
    "    uint4 sum = 0;\n"
    "    for (int dy = -1; dy <= 1; dy++)\n"
    "        for (int dx = -1; dx <= 1; dx++)\n"
    "            sum += read_imageui(in, edge, (int2)(x + dx, y + dy)) * (uint)(2 + dx);\n"
    "    write_imageui(out, (int2)(x, y), sum + read_imageui(in, border, (int2)(x, y + 2)));\n"
    "}\n"
    "kernel void blur_i(read_only image2d_t in, write_only image2d_t out)\n"
    "{\n"
    "    int x = get_global_id(0), y = get_global_id(1);\n"
    "    int4 sum = 0;\n"
    "    for (int dx = -2; dx <= 2; dx++)\n"
    "        sum += read_imagei(in, edge, (int2)(x + dx, y)) * (dx + 3);\n"
    "    write_imagei(out, (int2)(x, y), sum);\n"
    "}\n";

enum { W = 67, H = 21 };

enum kind { RGBA_FLOAT, RGBA_UNORM8, R_UINT16, R_INT32 };

static int value(int x, int y, int c)
{
    return (x * 7 + y * 13 + c * 5) % 31;
}

static int clampi(int v, int hi)
{
    return v < 0 ? 0 : v > hi ? hi : v;
}

/* the channel c of pixel (x, y) as the kernels read it */
static float texel_f(enum kind kind, int x, int y, int c)
{
    int v = value(clampi(x, W - 1), clampi(y, H - 1), c);
    return kind == RGBA_UNORM8 ? (float)v / 255.0f : (float)v;
}

static void expected(enum kind kind, int x, int y, double want[4])
{
    int channels = kind == RGBA_FLOAT || kind == RGBA_UNORM8 ? 4 : 1;
    for (int c = 0; c < channels; c++) {
        if (kind == R_INT32) {
            long sum = 0;
            for (int dx = -2; dx <= 2; dx++)
                sum += (long)value(clampi(x + dx, W - 1), y, c) * (dx + 3);
            want[c] = (double)sum;
        } else if (kind == R_UINT16) {
            long sum = 0;
            for (int dy = -1; dy <= 1; dy++)
                for (int dx = -1; dx <= 1; dx++)
                    sum += (long)value(clampi(x + dx, W - 1), clampi(y + dy, H - 1), c) * (2 + dx);
            if (y + 2 < H)
                sum += value(x, y + 2, c);
            want[c] = (double)sum;
        } else {
            float sum = 0.0f;
            for (int dy = -1; dy <= 1; dy++)
                for (int dx = -1; dx <= 1; dx++)
                    sum +=
                        texel_f(kind, x + dx, y + dy, c) * (float)((2 - abs(dx)) * (2 - abs(dy)));
            /* CLK_ADDRESS_CLAMP: outside, the border colour (0, 0, 0, 0) */
            if (x - 2 >= 0)
                sum += texel_f(kind, x - 2, y, c);
            want[c] = sum;
        }
    }
}

static cl_mem image(struct harness *h, enum kind kind, bool input)
{
    static const cl_image_format formats[] = {{CL_RGBA, CL_FLOAT},
                                              {CL_RGBA, CL_UNORM_INT8},
                                              {CL_R, CL_UNSIGNED_INT16},
                                              {CL_R, CL_SIGNED_INT32}};
    static const size_t sizes[] = {16, 4, 2, 4};
    cl_image_desc desc = {.image_type = CL_MEM_OBJECT_IMAGE2D, .image_width = W, .image_height = H};
    size_t element = sizes[kind], channels = kind <= RGBA_UNORM8 ? 4 : 1;
    unsigned char *data = calloc(W * H, element);
    REQUIRE(data);
    for (int y = 0; y < H && input; y++)
        for (int x = 0; x < W; x++)
            for (size_t c = 0; c < channels; c++) {
                size_t at = ((size_t)y * W + (size_t)x) * channels + c;
                int v = value(x, y, (int)c);
                if (kind == RGBA_FLOAT)
                    ((float *)data)[at] = (float)v;
                else if (kind == RGBA_UNORM8)
                    data[at] = (unsigned char)v;
                else if (kind == R_UINT16)
                    ((uint16_t *)data)[at] = (uint16_t)v;
                else
                    ((int32_t *)data)[at] = v;
            }
    cl_int err;
    cl_mem mem = clCreateImage(h->context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, &formats[kind],
                               &desc, data, &err);
    CHECK_OK(err);
    free(data);
    return mem;
}

static void run(struct harness *h, cl_program program, enum kind kind, const size_t *local)
{
    static const char *const names[] = {"blur_f", "blur_f", "blur_ui", "blur_i"};
    cl_mem in = image(h, kind, true), out = image(h, kind, false);
    cl_kernel kernel = harness_kernel(program, names[kind]);
    REQUIRE(kernel);
    CHECK_OK(harness_args(kernel, 2, ARG(in), ARG(out)));
    /* a column offset of 3, the first three columns then run on their own */
    size_t offset[2] = {3, 0}, global[2] = {W - 3, H}, local2[2] = {local ? local[0] : 0, 1};
    CHECK_OK(clEnqueueNDRangeKernel(h->queue, kernel, 2, offset, global, local ? local2 : NULL, 0,
                                    NULL, NULL));
    offset[0] = 0, global[0] = 3;
    CHECK_OK(clEnqueueNDRangeKernel(h->queue, kernel, 2, offset, global, NULL, 0, NULL, NULL));
    float got_f[W * H * 4];
    int32_t got_i[W * H * 4];
    size_t origin[3] = {0, 0, 0}, region[3] = {W, H, 1};
    bool real = kind <= RGBA_UNORM8;
    unsigned char raw[W * H * 16];
    CHECK_OK(clEnqueueReadImage(h->queue, out, CL_TRUE, origin, region, 0, 0, raw, 0, NULL, NULL));
    for (size_t i = 0; i < (size_t)W * H; i++)
        for (int c = 0; c < 4; c++) {
            size_t channels = real ? 4 : 1;
            if ((size_t)c >= channels)
                continue;
            size_t at = i * channels + (size_t)c;
            if (kind == RGBA_FLOAT)
                got_f[i * 4 + c] = ((float *)raw)[at];
            else if (kind == RGBA_UNORM8)
                got_f[i * 4 + c] = (float)raw[at]; /* stored rounded: compared below */
            else if (kind == R_UINT16)
                got_i[i * 4 + c] = ((uint16_t *)raw)[at];
            else
                got_i[i * 4 + c] = ((int32_t *)raw)[at];
        }
    long bad = 0;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            double want[4];
            expected(kind, x, y, want);
            int channels = real ? 4 : 1;
            for (int c = 0; c < channels; c++) {
                size_t i = ((size_t)y * W + (size_t)x) * 4 + (size_t)c;
                double got = real ? got_f[i] : got_i[i];
                double w = want[c];
                if (kind == RGBA_UNORM8) /* written back as unorm8: saturated, rounded */
                    w = w >= 1.0 ? 255.0 : (double)(int)(w * 255.0f + 0.5f);
                if (kind == R_UINT16 && w > 65535)
                    w = 65535;
                bool same = kind == RGBA_UNORM8 ? fabs(got - w) <= 1.0 : got == w;
                if (!same && bad++ < 3)
                    fprintf(stderr, "%s kind %d: (%d, %d) channel %d is %g, expected %g\n",
                            names[kind], kind, x, y, c, got, w);
            }
        }
    char what[96];
    snprintf(what, sizeof what, "%s, kind %d, local size %zu", names[kind], kind,
             local ? local[0] : 0);
    CHECK_NONE_WRONG(bad, what);
    clReleaseKernel(kernel);
    clReleaseMemObject(in), clReleaseMemObject(out);
}

int main(void)
{
    struct harness h = harness_open();
    cl_program program = harness_build(&h, source, "-cl-std=CL2.0");
    REQUIRE(program);
    /* 16 four times: the third launch with one local size and format makes
     * a launch copy (codegen.c) */
    static const size_t locals[] = {1, 16, 16, 16, 16, 64};
    for (int l = -1; l < (int)(sizeof locals / sizeof locals[0]); l++)
        for (int kind = RGBA_FLOAT; kind <= R_INT32; kind++)
            run(&h, program, (enum kind)kind, l < 0 ? NULL : &locals[l]);
    clReleaseProgram(program);
    harness_close(&h);
    return harness_finish();
}
