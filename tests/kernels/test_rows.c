/* test_rows.c - 1D launches over 2D data, each work-item's row and column
 * the quotient and remainder of its id by the width (`y = i / w`,
 * `x = i % w`), whose work-item loops the compiler cuts into one loop a
 * row (src/compiler/rows.cpp): a 5x5 filter with its border copied (int,
 * division by a value), a gradient over uint, by a constant width, by a
 * power of two in uint (a shift and a mask), and in ushort (promoted to
 * int: not taken), then the filter again built with -cl-fast-relaxed-math
 * (division.c's corrected quotient). Widths below, at and above the
 * local size, a width of 1, a negative one and a global offset near
 * INT_MAX (ids that wrap to negative ints: the original loops run
 * there), local sizes that do not divide the range, and one local size
 * launched several times (the third launch makes a launch copy,
 * codegen.c). Inputs and weights are small integers,
 * so every result is exact and compared with the host's. */
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>

#include "../harness.h"

static const char *source =
    "kernel void filter(global const float *in, global float *out, int w, int h,\n"
    "                   constant float *weights)\n"
    "{\n"
    "    int i = get_global_id(0) - get_global_offset(0), x = i % w, y = i / w;\n"
    "    if (x < 2 || y < 2 || x >= w - 2 || y >= h - 2) {\n"
    "        out[i] = in[i];\n"
    "        return;\n"
    "    }\n"
    "    float sum = 0.0f;\n"
    "    for (int dy = -2; dy <= 2; dy++)\n"
    "        for (int dx = -2; dx <= 2; dx++)\n"
    "            sum += in[(y + dy) * w + x + dx] * weights[(dy + 2) * 5 + dx + 2];\n"
    "    out[i] = sum;\n"
    "}\n"
    "kernel void gradient(global const float *in, global float *out, uint w, uint h)\n"
    "{\n"
    "    uint i = get_global_id(0), x = i % w, y = i / w;\n"
    "    float left = x > 0 ? in[y * w + x - 1] : 0.0f;\n"
    "    float up = y > 0 ? in[(y - 1) * w + x] : 0.0f;\n"
    "    out[i] = (in[y * w + x] - left) * 3.0f + (in[y * w + x] - up) + (float)(y * 1000 + x);\n"
    "}\n"
    "#define W 37\n"
    "kernel void fixed(global const float *in, global float *out)\n"
    "{\n"
    "    int i = get_global_id(0), x = i % W, y = i / W;\n"
    "    out[i] = in[y * W + (x + 1) % W] * 2.0f - (float)(x * 100 + y);\n"
    "}\n"
    "kernel void tiles(global const float *in, global float *out)\n"
    "{\n"
    "    uint i = get_global_id(0), x = i % 64, y = i / 64;\n"
    "    out[i] = in[y * 64 + (x ^ 1)] + (float)(y * 1000 + x);\n"
    "}\n"
    "kernel void narrow_ids(global const float *in, global float *out, ushort w)\n"
    "{\n"
    "    ushort i = get_global_id(0), x = i % w, y = i / w;\n"
    "    out[i] = in[y * w + x] + (float)(x * 1000 + y);\n"
    "}\n"
    "kernel void labels(global float *out, int w)\n"
    "{\n"
    "    int i = get_global_id(0), x = i % w, y = i / w;\n"
    "    out[get_global_id(0) - get_global_offset(0)] = (float)x * 0.5f + (float)(y % 4096);\n"
    "}\n";

enum { PIXELS = 3000 };

static float input(size_t i)
{
    return (float)((i * 37 + 11) % 23) - 11.0f;
}

static cl_mem input_buffer(struct harness *h)
{
    float data[PIXELS];
    for (size_t i = 0; i < PIXELS; i++)
        data[i] = input(i);
    return harness_buffer(h, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof data, data);
}

static void check(const char *what, const float *got, const float *want, size_t count, int w,
                  size_t offset, const size_t *local)
{
    long bad = 0;
    for (size_t i = 0; i < count; i++)
        if (got[i] != want[i] && bad++ < 3)
            fprintf(stderr, "%s (w %d): item %zu is %g, expected %g\n", what, w, i, got[i],
                    want[i]);
    char name[160];
    snprintf(name, sizeof name, "%s, width %d, offset %zu, local size %zu", what, w, offset,
             local ? *local : 0);
    CHECK_NONE_WRONG(bad, name);
}

/* Runs kernel over `count` items from `offset` (arguments set) and reads
 * the results. */
static void launch(struct harness *h, cl_kernel kernel, cl_mem out, size_t offset, size_t count,
                   const size_t *local, float *got)
{
    CHECK_OK(clEnqueueNDRangeKernel(h->queue, kernel, 1, &offset, &count, local, 0, NULL, NULL));
    CHECK_OK(
        clEnqueueReadBuffer(h->queue, out, CL_TRUE, 0, count * sizeof(float), got, 0, NULL, NULL));
}

static void run_filter(struct harness *h, cl_program program, const char *what, int w,
                       size_t offset, const size_t *local)
{
    int rows = PIXELS / abs(w);
    size_t count = (size_t)abs(w) * (size_t)rows;
    float weights[25], got[PIXELS], want[PIXELS];
    for (int k = 0; k < 25; k++)
        weights[k] = (float)(k % 7 - 3);
    for (int i = 0; i < (int)count; i++) {
        int x = i % w, y = i / w;
        if (x < 2 || y < 2 || x >= w - 2 || y >= rows - 2) {
            want[i] = input((size_t)i);
            continue;
        }
        float sum = 0.0f;
        for (int dy = -2; dy <= 2; dy++)
            for (int dx = -2; dx <= 2; dx++)
                sum += input((size_t)((y + dy) * w + x + dx)) * weights[(dy + 2) * 5 + dx + 2];
        want[i] = sum;
    }
    cl_mem in = input_buffer(h), out = harness_buffer(h, CL_MEM_WRITE_ONLY, sizeof got, NULL);
    cl_mem f = harness_buffer(h, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof weights, weights);
    cl_kernel kernel = harness_kernel(program, "filter");
    REQUIRE(kernel);
    CHECK_OK(harness_args(kernel, 5, ARG(in), ARG(out), ARG(w), ARG(rows), ARG(f)));
    launch(h, kernel, out, offset, count, local, got);
    check(what, got, want, count, w, offset, local);
    clReleaseKernel(kernel);
    clReleaseMemObject(in), clReleaseMemObject(out), clReleaseMemObject(f);
}

static void run_gradient(struct harness *h, cl_program program, cl_uint w, const size_t *local)
{
    cl_uint rows = PIXELS / w;
    size_t count = (size_t)w * rows;
    float got[PIXELS], want[PIXELS];
    for (uint32_t i = 0; i < count; i++) {
        uint32_t x = i % w, y = i / w;
        float left = x > 0 ? input(y * w + x - 1) : 0.0f,
              up = y > 0 ? input((y - 1) * w + x) : 0.0f;
        want[i] = (input(i) - left) * 3.0f + (input(i) - up) + (float)(y * 1000 + x);
    }
    cl_mem in = input_buffer(h), out = harness_buffer(h, CL_MEM_WRITE_ONLY, sizeof got, NULL);
    cl_kernel kernel = harness_kernel(program, "gradient");
    REQUIRE(kernel);
    CHECK_OK(harness_args(kernel, 4, ARG(in), ARG(out), ARG(w), ARG(rows)));
    launch(h, kernel, out, 0, count, local, got);
    check("gradient", got, want, count, (int)w, 0, local);
    clReleaseKernel(kernel);
    clReleaseMemObject(in), clReleaseMemObject(out);
}

static void run_fixed(struct harness *h, cl_program program, const size_t *local)
{
    size_t count = 37 * 80;
    float got[PIXELS], want[PIXELS];
    for (int i = 0; i < (int)count; i++) {
        int x = i % 37, y = i / 37;
        want[i] = input((size_t)(y * 37 + (x + 1) % 37)) * 2.0f - (float)(x * 100 + y);
    }
    cl_mem in = input_buffer(h), out = harness_buffer(h, CL_MEM_WRITE_ONLY, sizeof got, NULL);
    cl_kernel kernel = harness_kernel(program, "fixed");
    REQUIRE(kernel);
    CHECK_OK(harness_args(kernel, 2, ARG(in), ARG(out)));
    launch(h, kernel, out, 0, count, local, got);
    check("fixed", got, want, count, 37, 0, local);
    clReleaseKernel(kernel);
    clReleaseMemObject(in), clReleaseMemObject(out);
}

static void run_narrow_ids(struct harness *h, cl_program program, cl_ushort w, const size_t *local)
{
    size_t count = PIXELS - PIXELS % w;
    float got[PIXELS], want[PIXELS];
    for (size_t i = 0; i < count; i++) {
        uint16_t x = (uint16_t)(i % w), y = (uint16_t)(i / w);
        want[i] = input((size_t)(y * w + x)) + (float)(x * 1000 + y);
    }
    cl_mem in = input_buffer(h), out = harness_buffer(h, CL_MEM_WRITE_ONLY, sizeof got, NULL);
    cl_kernel kernel = harness_kernel(program, "narrow_ids");
    REQUIRE(kernel);
    CHECK_OK(harness_args(kernel, 3, ARG(in), ARG(out), ARG(w)));
    launch(h, kernel, out, 0, count, local, got);
    check("narrow_ids", got, want, count, w, 0, local);
    clReleaseKernel(kernel);
    clReleaseMemObject(in), clReleaseMemObject(out);
}

/* uint ids by a constant power of two (InstCombine's lshr and and) */
static void run_tiles(struct harness *h, cl_program program, const size_t *local)
{
    float got[PIXELS], want[PIXELS];
    size_t count = PIXELS - PIXELS % 64;
    for (uint32_t i = 0; i < count; i++) {
        uint32_t x = i % 64, y = i / 64;
        want[i] = input(y * 64 + (x ^ 1)) + (float)(y * 1000 + x);
    }
    cl_mem in = input_buffer(h), out = harness_buffer(h, CL_MEM_WRITE_ONLY, sizeof got, NULL);
    cl_kernel kernel = harness_kernel(program, "tiles");
    REQUIRE(kernel);
    CHECK_OK(harness_args(kernel, 2, ARG(in), ARG(out)));
    launch(h, kernel, out, 0, count, local, got);
    check("tiles", got, want, count, 64, 0, local);
    clReleaseKernel(kernel);
    clReleaseMemObject(in), clReleaseMemObject(out);
}

/* ids from a global offset: past INT_MAX they wrap to negative ints */
static void run_labels(struct harness *h, cl_program program, int w, size_t offset,
                       const size_t *local)
{
    float got[PIXELS], want[PIXELS];
    for (size_t k = 0; k < PIXELS; k++) {
        int32_t i = (int32_t)(uint32_t)(offset + k), x = i % w, y = i / w;
        want[k] = (float)x * 0.5f + (float)(y % 4096);
    }
    cl_mem out = harness_buffer(h, CL_MEM_WRITE_ONLY, sizeof got, NULL);
    cl_kernel kernel = harness_kernel(program, "labels");
    REQUIRE(kernel);
    CHECK_OK(harness_args(kernel, 2, ARG(out), ARG(w)));
    launch(h, kernel, out, offset, PIXELS, local, got);
    check("labels", got, want, PIXELS, w, offset, local);
    clReleaseKernel(kernel);
    clReleaseMemObject(out);
}

int main(void)
{
    struct harness h = harness_open();
    cl_program program = harness_build(&h, source, "-cl-std=CL2.0");
    cl_program relaxed = harness_build(&h, source, "-cl-std=CL2.0 -cl-fast-relaxed-math");
    REQUIRE(program && relaxed);
    /* 64 four times: the third launch makes a launch copy */
    static const size_t locals[] = {1, 7, 16, 100, 64, 64, 64, 64, 256};
    static const int widths[] = {60, 7, 1, 300, 1000, 256};
    for (int l = -1; l < (int)(sizeof locals / sizeof locals[0]); l++) {
        const size_t *local = l < 0 ? NULL : &locals[l];
        for (size_t k = 0; k < sizeof widths / sizeof widths[0]; k++) {
            run_filter(&h, program, "filter", widths[k], 0, local);
            run_gradient(&h, program, (cl_uint)widths[k], local);
            run_narrow_ids(&h, program, (cl_ushort)widths[k], local);
        }
        run_filter(&h, relaxed, "filter, relaxed math", 60, 0, local);
        run_filter(&h, relaxed, "filter, relaxed math", 7, 0, local);
        run_filter(&h, program, "filter", -9, 0, local);
        run_filter(&h, program, "filter", 60, 5, local);
        run_labels(&h, program, 60, 0, local);
        run_labels(&h, program, 60, (size_t)INT_MAX - 1000, local);
        run_labels(&h, program, -13, 50, local);
        run_fixed(&h, program, local);
        run_tiles(&h, program, local);
    }
    clReleaseProgram(program);
    clReleaseProgram(relaxed);
    harness_close(&h);
    return harness_finish();
}
