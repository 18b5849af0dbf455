/* test_saxpy.c - y = alpha * x + y in single precision (and double where
 * cl_khr_fp64 is offered): one launch, then a chain of launches on the same
 * buffer that an in-order queue must run one after the other, and a
 * strided variant that reads its scalars from a __constant buffer. */
#include "../harness.h"

static const char *source =
    "kernel void saxpy(float alpha, global const float *x, global float *y)\n"
    "{ size_t i = get_global_id(0); y[i] = alpha * x[i] + y[i]; }\n"
    "kernel void saxpy_strided(constant float *params, global const float *x,\n"
    "                          global float *y, uint stride)\n"
    "{ size_t i = get_global_id(0) * stride; y[i] = params[0] * x[i] + y[i] + params[1]; }\n";

static const char *source_fp64 =
    "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
    "kernel void daxpy(double alpha, global const double *x, global double *y)\n"
    "{ size_t i = get_global_id(0); y[i] = alpha * x[i] + y[i]; }\n";

static void test_saxpy(struct harness *h, cl_program program, size_t n, float alpha, int rounds)
{
    float *x = malloc(n * 4), *y = malloc(n * 4), *out = malloc(n * 4);
    for (size_t i = 0; i < n; i++)
        x[i] = (float)(i % 97) - 40.0f, y[i] = (float)(i % 13) * 0.125f;
    cl_mem dx = harness_buffer(h, CL_MEM_READ_ONLY, n * 4, x);
    cl_mem dy = harness_buffer(h, CL_MEM_READ_WRITE, n * 4, y);
    cl_kernel k = harness_kernel(program, "saxpy");
    CHECK_OK(harness_args(k, 3, ARG(alpha), ARG(dx), ARG(dy)));
    for (int r = 0; r < rounds; r++)
        CHECK_OK(clEnqueueNDRangeKernel(h->queue, k, 1, NULL, &n, NULL, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(h->queue, dy, CL_TRUE, 0, n * 4, out, 0, NULL, NULL));
    long bad = 0;
    for (size_t i = 0; i < n; i++) {
        float want = y[i];
        for (int r = 0; r < rounds; r++)
            want = alpha * x[i] + want;
        bad += !harness_near(out[i], want, 1e-5f);
    }
    CHECK_NONE_WRONG(bad, "saxpy");
    clReleaseKernel(k);
    clReleaseMemObject(dx), clReleaseMemObject(dy);
    free(x), free(y), free(out);
}

static void test_strided(struct harness *h, cl_program program)
{
    enum { N = 3000, STRIDE = 3 };
    float x[N], y[N], out[N], params[2] = {-1.5f, 0.25f};
    for (int i = 0; i < N; i++)
        x[i] = (float)i / 7.0f, y[i] = (float)(N - i);
    cl_mem dp = harness_buffer(h, CL_MEM_READ_ONLY, sizeof params, params);
    cl_mem dx = harness_buffer(h, CL_MEM_READ_ONLY, sizeof x, x);
    cl_mem dy = harness_buffer(h, CL_MEM_READ_WRITE, sizeof y, y);
    cl_kernel k = harness_kernel(program, "saxpy_strided");
    cl_uint stride = STRIDE;
    CHECK_OK(harness_args(k, 4, ARG(dp), ARG(dx), ARG(dy), ARG(stride)));
    size_t global = N / STRIDE;
    CHECK_OK(clEnqueueNDRangeKernel(h->queue, k, 1, NULL, &global, NULL, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(h->queue, dy, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
    long bad = 0;
    for (int i = 0; i < N; i++) {
        float want = i % STRIDE ? y[i] : params[0] * x[i] + y[i] + params[1];
        bad += !harness_near(out[i], want, 1e-5f);
    }
    CHECK_NONE_WRONG(bad, "saxpy_strided");
    clReleaseKernel(k);
    clReleaseMemObject(dp), clReleaseMemObject(dx), clReleaseMemObject(dy);
}

static void test_daxpy(struct harness *h)
{
    char extensions[4096] = "";
    clGetDeviceInfo(h->device, CL_DEVICE_EXTENSIONS, sizeof extensions, extensions, NULL);
    if (!strstr(extensions, "cl_khr_fp64"))
        return;
    cl_program program = harness_build(h, source_fp64, "");
    CHECK(program != NULL);
    if (!program)
        return;
    enum { N = 10007 };
    double *x = malloc(N * 8), *y = malloc(N * 8), *out = malloc(N * 8), alpha = 1.0 / 3.0;
    for (int i = 0; i < N; i++)
        x[i] = i * 1e-3 + 1e10, y[i] = -i * 1e10;
    cl_mem dx = harness_buffer(h, CL_MEM_READ_ONLY, N * 8, x);
    cl_mem dy = harness_buffer(h, CL_MEM_READ_WRITE, N * 8, y);
    cl_kernel k = harness_kernel(program, "daxpy");
    CHECK_OK(harness_args(k, 3, ARG(alpha), ARG(dx), ARG(dy)));
    size_t global = N;
    CHECK_OK(clEnqueueNDRangeKernel(h->queue, k, 1, NULL, &global, NULL, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(h->queue, dy, CL_TRUE, 0, N * 8, out, 0, NULL, NULL));
    long bad = 0;
    for (int i = 0; i < N; i++) {
        double want = alpha * x[i] + y[i];
        /* Double precision, not float: 1e-12 relative (fma or not). */
        bad += fabs(out[i] - want) > 1e-12 * (1.0 + fabs(want));
    }
    CHECK_NONE_WRONG(bad, "daxpy");
    clReleaseKernel(k);
    clReleaseMemObject(dx), clReleaseMemObject(dy);
    clReleaseProgram(program);
    free(x), free(y), free(out);
}

int main(void)
{
    struct harness h = harness_open();
    cl_program program = harness_build(&h, source, "");
    REQUIRE(program);
    test_saxpy(&h, program, 1, 2.0f, 1);
    test_saxpy(&h, program, 1 << 16, 2.5f, 1);
    test_saxpy(&h, program, 99991, -0.75f, 10);
    test_strided(&h, program);
    test_daxpy(&h);
    clReleaseProgram(program);
    harness_close(&h);
    return harness_finish();
}
