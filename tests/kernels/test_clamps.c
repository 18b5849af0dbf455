/* test_clamps.c - kernels that clamp the work-item's index to the edges of
 * a buffer (`in[clamp(x + dx, 0, n - 1)]`, `min(i + 1, n - 1)`, a 3x3 blur
 * of float4 pixels), whose work-item loops the compiler runs in three
 * copies, the middle one without the clamps so that the loop vectorizer
 * loads consecutive elements (src/compiler/narrow.cpp, and loops.cpp's
 * view of such addresses); int and size_t indices, signed and unsigned
 * minimums and maximums, a shift the same for every work-item, an int
 * index that wraps past INT_MAX (a global offset near 2^31: the clamps
 * keep every load inside the buffer, and the original loop must run
 * there, as x is converted from size_t, not computed past INT_MAX), and
 * clamps beside a guard on the work-items (each of the guard's copies has
 * its clamps narrowed). Run with global offsets, groups that do not divide
 * the range and the local size left to the driver; the inputs are small
 * integers, so every result is exact and compared with the host's. */
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>

#include "../harness.h"

static const char *source =
    /* five taps along a row, int index */
    "kernel void taps(global const float *in, global float *out, int n, int shift)\n"
    "{\n"
    "    int x = get_global_id(0);\n"
    "    float sum = 0.0f;\n"
    "    for (int dx = -2; dx <= 2; dx++)\n"
    "        sum += in[clamp(x + dx + shift, 0, n - 1)] * (float)(3 - abs(dx));\n"
    "    out[get_global_id(0) - get_global_offset(0)] = sum;\n"
    "}\n"
    /* size_t index: unsigned minimum, and a maximum on the other side */
    "kernel void neighbours(global const float *in, global float *out, ulong n)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    out[i - get_global_offset(0)] =\n"
    "        in[min(i + 1, (size_t)n - 1)] * 2.0f + in[max(i, (size_t)3) - 3] - in[min(i, "
    "(size_t)n - 1)];\n"
    "}\n"
    /* int x past INT_MAX (a conversion, not an overflow): the clamps
     * keep the loads inside the buffer */
    "kernel void wrapped(global const float *in, global float *out, int n)\n"
    "{\n"
    "    int x = get_global_id(0);\n"
    "    out[get_global_id(0) - get_global_offset(0)] = in[clamp(x, 0, n - 1)] * 2.0f - "
    "in[max(min(x, n - 2), 1)];\n"
    "}\n"
    /* a guard on the work-items with clamps beside it (ffmpeg's nlmeans
     * window): the guard's copies count from 0, so each gets its clamps
     * narrowed too */
    "kernel void guarded(global const float *in, global float *out, int n, int p)\n"
    "{\n"
    "    int x = get_global_id(0);\n"
    "    int oob = x - p < 0 || x + p >= n;\n"
    "    float sum = in[clamp(x - 3, 0, n - 1)] + 2.0f * in[clamp(x + 1, 0, n - 1)];\n"
    "    if (!oob)\n"
    "        sum += in[x - p] * in[clamp(x + p, 0, n - 1)];\n"
    "    out[get_global_id(0) - get_global_offset(0)] = sum;\n"
    "}\n"
    /* the bench's blur through buffers: 3x3 float4 pixels, both axes clamped */
    "kernel void blur(global const float4 *in, global float4 *out, int n)\n"
    "{\n"
    "    int x = get_global_id(0), y = get_global_id(1);\n"
    "    float4 sum = 0;\n"
    "    for (int dy = -1; dy <= 1; dy++)\n"
    "        for (int dx = -1; dx <= 1; dx++) {\n"
    "            int xx = clamp(x + dx, 0, n - 1), yy = clamp(y + dy, 0, n - 1);\n"
    "            sum += in[yy * n + xx] * (float)((2 - abs(dx)) * (2 - abs(dy)));\n"
    "        }\n"
    "    if (x < n && y < n)\n"
    "        out[y * n + x] = sum;\n"
    "}\n";

enum { N = 1000, IMAGE = 70 };

static float input(size_t i)
{
    return (float)((i * 37 + 11) % 23) - 11.0f;
}

/* the int arithmetic of the kernels, wrapping as two's complement */
static int32_t wrap(int64_t v)
{
    return (int32_t)(uint32_t)(uint64_t)v;
}

static int32_t clamp_int(int32_t v, int32_t lo, int32_t hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

static cl_mem input_buffer(struct harness *h, size_t count)
{
    float *data = malloc(count * sizeof(float));
    REQUIRE(data);
    for (size_t i = 0; i < count; i++)
        data[i] = input(i);
    cl_mem mem =
        harness_buffer(h, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, count * sizeof(float), data);
    free(data);
    return mem;
}

static void check(const char *name, const float *got, const float *want, size_t count,
                  size_t offset, const size_t *local)
{
    long bad = 0;
    for (size_t i = 0; i < count; i++)
        if (got[i] != want[i] && bad++ < 3)
            fprintf(stderr, "%s (offset %zu): item %zu is %g, expected %g\n", name, offset, i,
                    got[i], want[i]);
    char what[128];
    snprintf(what, sizeof what, "%s, offset %zu, local size %zu", name, offset,
             local ? local[0] : 0);
    CHECK_NONE_WRONG(bad, what);
}

/* Runs the row kernel `name`(in, out, n[, shift]) over `global` items
 * from `offset` and reads their results into got. */
static void launch(struct harness *h, cl_program program, const char *name, const void *n,
                   size_t n_size, const cl_int *shift, size_t offset, size_t global,
                   const size_t *local, float *got)
{
    cl_mem in = input_buffer(h, N);
    cl_mem out = harness_buffer(h, CL_MEM_WRITE_ONLY, N * sizeof(float), NULL);
    cl_kernel kernel = harness_kernel(program, name);
    REQUIRE(kernel);
    CHECK_OK(harness_args(kernel, 2, ARG(in), ARG(out)));
    CHECK_OK(clSetKernelArg(kernel, 2, n_size, n));
    if (shift)
        CHECK_OK(clSetKernelArg(kernel, 3, sizeof *shift, shift));
    CHECK_OK(clEnqueueNDRangeKernel(h->queue, kernel, 1, &offset, &global, local, 0, NULL, NULL));
    CHECK_OK(
        clEnqueueReadBuffer(h->queue, out, CL_TRUE, 0, global * sizeof(float), got, 0, NULL, NULL));
    clReleaseKernel(kernel);
    clReleaseMemObject(in), clReleaseMemObject(out);
}

static void run_taps(struct harness *h, cl_program program, size_t offset, cl_int shift,
                     const size_t *local)
{
    cl_int n = N;
    float got[N], want[N];
    launch(h, program, "taps", &n, sizeof n, &shift, offset, N, local, got);
    for (size_t i = 0; i < N; i++) {
        int32_t x = wrap((int64_t)(offset + i)); /* int x = get_global_id(0) */
        float sum = 0.0f;
        for (int dx = -2; dx <= 2; dx++)
            sum += input((size_t)clamp_int(wrap((int64_t)x + dx + shift), 0, N - 1)) *
                   (float)(3 - abs(dx));
        want[i] = sum;
    }
    check("taps", got, want, N, offset, local);
}

static void run_wrapped(struct harness *h, cl_program program, size_t offset, const size_t *local)
{
    cl_int n = N;
    float got[N], want[N];
    launch(h, program, "wrapped", &n, sizeof n, NULL, offset, N, local, got);
    for (size_t i = 0; i < N; i++) {
        int32_t x = wrap((int64_t)(offset + i));
        int32_t inner = x < N - 2 ? x : N - 2;
        want[i] =
            input((size_t)clamp_int(x, 0, N - 1)) * 2.0f - input((size_t)(inner > 1 ? inner : 1));
    }
    check("wrapped", got, want, N, offset, local);
}

static void run_guarded(struct harness *h, cl_program program, size_t offset, cl_int p,
                        const size_t *local)
{
    cl_int n = N;
    float got[N], want[N];
    launch(h, program, "guarded", &n, sizeof n, &p, offset, N, local, got);
    for (size_t i = 0; i < N; i++) {
        int32_t x = (int32_t)(offset + i);
        float sum = input((size_t)clamp_int(x - 3, 0, N - 1)) +
                    2.0f * input((size_t)clamp_int(x + 1, 0, N - 1));
        if (x - p >= 0 && x + p < N)
            sum += input((size_t)(x - p)) * input((size_t)clamp_int(x + p, 0, N - 1));
        want[i] = sum;
    }
    check("guarded", got, want, N, offset, local);
}

static void run_neighbours(struct harness *h, cl_program program, size_t offset,
                           const size_t *local)
{
    cl_ulong n = N;
    size_t global = N - offset; /* i stays below n: max(i, 3) - 3 and min(i, n - 1) read in range */
    float got[N], want[N];
    launch(h, program, "neighbours", &n, sizeof n, NULL, offset, global, local, got);
    for (size_t k = 0; k < global; k++) {
        size_t i = offset + k;
        size_t next = i + 1 < N - 1 ? i + 1 : N - 1, back = (i > 3 ? i : 3) - 3;
        want[k] = input(next) * 2.0f + input(back) - input(i < N - 1 ? i : N - 1);
    }
    check("neighbours", got, want, global, offset, local);
}

static void run_blur(struct harness *h, cl_program program, const size_t *local)
{
    size_t count = (size_t)IMAGE * IMAGE * 4;
    cl_int n = IMAGE;
    cl_mem in = input_buffer(h, count);
    cl_mem out = harness_buffer(h, CL_MEM_WRITE_ONLY, count * sizeof(float), NULL);
    cl_kernel kernel = harness_kernel(program, "blur");
    REQUIRE(kernel);
    CHECK_OK(harness_args(kernel, 3, ARG(in), ARG(out), ARG(n)));
    /* rows of 72 work-items over 70 pixels, and a 71st row: the guard
     * skips the last two of each row and the whole last row (where its
     * part the same for a row's work-items, y < n, is false) */
    size_t global[2] = {IMAGE + 2, IMAGE + 1}, local2[2] = {local ? local[0] : 0, 1};
    CHECK_OK(clEnqueueNDRangeKernel(h->queue, kernel, 2, NULL, global, local ? local2 : NULL, 0,
                                    NULL, NULL));
    float *got = malloc(count * sizeof(float)), *want = malloc(count * sizeof(float));
    REQUIRE(got && want);
    CHECK_OK(
        clEnqueueReadBuffer(h->queue, out, CL_TRUE, 0, count * sizeof(float), got, 0, NULL, NULL));
    for (int y = 0; y < IMAGE; y++)
        for (int x = 0; x < IMAGE; x++)
            for (int c = 0; c < 4; c++) {
                float sum = 0.0f;
                for (int dy = -1; dy <= 1; dy++)
                    for (int dx = -1; dx <= 1; dx++) {
                        int xx = clamp_int(x + dx, 0, IMAGE - 1);
                        int yy = clamp_int(y + dy, 0, IMAGE - 1);
                        sum += input((size_t)(yy * IMAGE + xx) * 4 + (size_t)c) *
                               (float)((2 - abs(dx)) * (2 - abs(dy)));
                    }
                want[((size_t)y * IMAGE + (size_t)x) * 4 + (size_t)c] = sum;
            }
    check("blur", got, want, count, 0, local);
    free(got), free(want);
    clReleaseKernel(kernel);
    clReleaseMemObject(in), clReleaseMemObject(out);
}

int main(void)
{
    struct harness h = harness_open();
    cl_program program = harness_build(&h, source, "-cl-std=CL2.0");
    REQUIRE(program);
    /* 64 four times: the third launch makes a launch copy (codegen.c) */
    static const size_t locals[] = {1, 7, 64, 64, 64, 64, 256};
    /* offsets: none, some, and one where int x passes INT_MAX mid-range */
    static const size_t offsets[] = {0, 13, (size_t)INT_MAX - N / 2};
    static const cl_int shifts[] = {0, 3, -(N / 2)};
    for (int l = -1; l < (int)(sizeof locals / sizeof locals[0]); l++) {
        const size_t *local = l < 0 ? NULL : &locals[l];
        for (size_t o = 0; o < sizeof offsets / sizeof offsets[0]; o++)
            run_wrapped(&h, program, offsets[o], local);
        for (size_t s = 0; s < sizeof shifts / sizeof shifts[0]; s++) {
            run_taps(&h, program, 0, shifts[s], local);
            run_taps(&h, program, offsets[1], shifts[s], local);
        }
        /* p: none cut, a few, most of a group, more than the range */
        static const cl_int reaches[] = {0, 3, 40, N};
        for (size_t r = 0; r < sizeof reaches / sizeof reaches[0]; r++) {
            run_guarded(&h, program, 0, reaches[r], local);
            run_guarded(&h, program, offsets[1], reaches[r], local);
        }
        run_neighbours(&h, program, 0, local);
        run_neighbours(&h, program, 5, local);
        run_blur(&h, program, local);
    }
    clReleaseProgram(program);
    harness_close(&h);
    return harness_finish();
}
