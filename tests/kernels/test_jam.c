/* test_jam.c - kernels whose work-items each sum along an inner loop of the
 * same count (a matrix-vector product's row), which the compiler runs four
 * work-items at a time in one loop (src/compiler/jam.cpp): a float row sum,
 * two sums at once in double, a sum under a condition inside the loop, and
 * a loop already holding four sums (not taken). Row counts that leave a
 * remainder after the groups of four, local sizes that do not divide them,
 * and one local size launched several times (the third launch makes a
 * launch copy, codegen.c). Each work-item adds in its own order, so with
 * contraction off every result equals the host's bit for bit. */
#include <stdint.h>

#include "../harness.h"

static const char *source =
    "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
    "#pragma OPENCL FP_CONTRACT OFF\n"
    "kernel void rows(int n, global const float *a, global const float *x, global float *y)\n"
    "{\n"
    "    int row = get_global_id(0);\n"
    "    float s = 0.0f;\n"
    "    for (int k = 0; k < n; k++)\n"
    "        s += a[row * n + k] * x[k];\n"
    "    y[row] = s;\n"
    "}\n"
    "kernel void moments(int n, global const float *a, global double *mean, global double "
    "*square)\n"
    "{\n"
    "    size_t row = get_global_id(0);\n"
    "    double s = 0.0, q = 0.0;\n"
    "    for (int k = 0; k < n; k++) {\n"
    "        double v = a[row * n + k];\n"
    "        s += v;\n"
    "        q += v * v;\n"
    "    }\n"
    "    mean[row] = s / n;\n"
    "    square[row] = q;\n"
    "}\n"
    "kernel void positive(int n, global const float *a, global float *y)\n"
    "{\n"
    "    int row = get_global_id(0);\n"
    "    float s = 1.0f;\n"
    "    for (int k = 0; k < n; k++)\n"
    "        if (a[row * n + k] > 0.0f)\n"
    "            s = s * 0.5f + a[row * n + k];\n"
    "    y[row] = s;\n"
    "}\n"
    "kernel void four(int n, global const float *a, global float *y)\n"
    "{\n"
    "    int row = get_global_id(0);\n"
    "    float s0 = 0.0f, s1 = 0.0f, s2 = 0.0f, s3 = 0.0f;\n"
    "    for (int k = 0; k < n; k++) {\n"
    "        float v = a[row * n + k];\n"
    "        s0 += v;\n"
    "        s1 += v * 2.0f;\n"
    "        s2 -= v;\n"
    "        s3 += v * v;\n"
    "    }\n"
    "    y[row] = s0 + s1 * 3.0f + s2 * 5.0f + s3 * 7.0f;\n"
    "}\n";

enum { ROWS = 203, COLUMNS = 77 };

static float element(size_t i)
{
    return (float)((int)((i * 37 + 11) % 23) - 11) * 0.37f;
}

static void check(const char *what, const void *got, const void *want, size_t size,
                  const size_t *local)
{
    long bad = 0;
    for (size_t i = 0; i < ROWS; i++)
        if (memcmp((const char *)got + i * size, (const char *)want + i * size, size) && bad++ < 3)
            fprintf(stderr, "%s: row %zu differs\n", what, i);
    char name[128];
    snprintf(name, sizeof name, "%s, local size %zu", what, local ? *local : 0);
    CHECK_NONE_WRONG(bad, name);
}

/* Runs `name`(n, a, outputs...) over the rows and reads each output. */
static void run(struct harness *h, cl_program program, const char *name, cl_mem a,
                const cl_mem *extra, int extras, cl_mem *outputs, void **got, const size_t *sizes,
                int count, const size_t *local)
{
    cl_kernel kernel = harness_kernel(program, name);
    REQUIRE(kernel);
    cl_int n = COLUMNS;
    CHECK_OK(harness_args(kernel, 2, ARG(n), ARG(a)));
    for (int k = 0; k < extras; k++)
        CHECK_OK(clSetKernelArg(kernel, 2 + (cl_uint)k, sizeof extra[k], &extra[k]));
    for (int k = 0; k < count; k++)
        CHECK_OK(clSetKernelArg(kernel, 2 + (cl_uint)(extras + k), sizeof outputs[k], &outputs[k]));
    size_t global = ROWS;
    CHECK_OK(clEnqueueNDRangeKernel(h->queue, kernel, 1, NULL, &global, local, 0, NULL, NULL));
    for (int k = 0; k < count; k++)
        CHECK_OK(clEnqueueReadBuffer(h->queue, outputs[k], CL_TRUE, 0, ROWS * sizes[k], got[k], 0,
                                     NULL, NULL));
    clReleaseKernel(kernel);
}

int main(void)
{
    struct harness h = harness_open();
    cl_program program = harness_build(&h, source, "-cl-std=CL2.0");
    REQUIRE(program);
    static float a[ROWS * COLUMNS], x[COLUMNS];
    for (size_t i = 0; i < ROWS * COLUMNS; i++)
        a[i] = element(i);
    for (size_t k = 0; k < COLUMNS; k++)
        x[k] = element(k * 7 + 3) * 0.5f;
    static float want_rows[ROWS], want_positive[ROWS], want_four[ROWS];
    static double want_mean[ROWS], want_square[ROWS];
    for (size_t row = 0; row < ROWS; row++) {
        float s = 0.0f, p = 1.0f, s0 = 0.0f, s1 = 0.0f, s2 = 0.0f, s3 = 0.0f;
        double m = 0.0, q = 0.0;
        for (size_t k = 0; k < COLUMNS; k++) {
            float v = a[row * COLUMNS + k];
            float product = v * x[k];
            s += product;
            if (v > 0.0f)
                p = p * 0.5f + v;
            m += (double)v;
            q += (double)v * (double)v;
            s0 += v;
            s1 += v * 2.0f;
            s2 -= v;
            s3 += v * v;
        }
        want_rows[row] = s, want_positive[row] = p;
        want_mean[row] = m / COLUMNS, want_square[row] = q;
        want_four[row] = s0 + s1 * 3.0f + s2 * 5.0f + s3 * 7.0f;
    }
    cl_mem in = harness_buffer(&h, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof a, a);
    cl_mem vector = harness_buffer(&h, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof x, x);
    cl_mem out[2] = {harness_buffer(&h, CL_MEM_WRITE_ONLY, ROWS * sizeof(double), NULL),
                     harness_buffer(&h, CL_MEM_WRITE_ONLY, ROWS * sizeof(double), NULL)};
    /* 64 four times: the third launch makes a launch copy */
    static const size_t locals[] = {1, 3, 4, 100, 64, 64, 64, 64, 203};
    for (int l = -1; l < (int)(sizeof locals / sizeof locals[0]); l++) {
        const size_t *local = l < 0 ? NULL : &locals[l];
        float got_f[ROWS];
        double got_d[2][ROWS];
        void *one[1] = {got_f}, *two[2] = {got_d[0], got_d[1]};
        size_t float_size[1] = {sizeof(float)}, double_sizes[2] = {sizeof(double), sizeof(double)};
        run(&h, program, "rows", in, &vector, 1, out, one, float_size, 1, local);
        check("rows", got_f, want_rows, sizeof(float), local);
        run(&h, program, "moments", in, NULL, 0, out, two, double_sizes, 2, local);
        check("moments mean", got_d[0], want_mean, sizeof(double), local);
        check("moments square", got_d[1], want_square, sizeof(double), local);
        run(&h, program, "positive", in, NULL, 0, out, one, float_size, 1, local);
        check("positive", got_f, want_positive, sizeof(float), local);
        run(&h, program, "four", in, NULL, 0, out, one, float_size, 1, local);
        check("four", got_f, want_four, sizeof(float), local);
    }
    clReleaseMemObject(in), clReleaseMemObject(vector);
    clReleaseMemObject(out[0]), clReleaseMemObject(out[1]);
    clReleaseProgram(program);
    harness_close(&h);
    return harness_finish();
}
