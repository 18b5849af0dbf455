/* test_kernels.c - whole OpenCL programs on cpucl: vector add, saxpy, a 2D
 * matrix multiply, a 3D stencil, each checked against the host, over sizes
 * that are not multiples of the work-group size (split with offsets, and as
 * non-uniform ranges in OpenCL C 2.0). */
#include "../harness.h"

static const char *source =
    "kernel void vector_add(global const float *a, global const float *b, global float *c)\n"
    "{ size_t i = get_global_id(0); c[i] = a[i] + b[i]; }\n"
    "kernel void saxpy(float alpha, global const float *x, global float *y)\n"
    "{ size_t i = get_global_id(0); y[i] = alpha * x[i] + y[i]; }\n"
    "kernel void matmul(global const float *a, global const float *b, global float *c,\n"
    "                   int n, int k, int m)\n"
    "{\n"
    "    int col = get_global_id(0), row = get_global_id(1);\n"
    "    if (row >= n || col >= m) return;\n"
    "    float sum = 0.0f;\n"
    "    for (int i = 0; i < k; i++) sum += a[row * k + i] * b[i * m + col];\n"
    "    c[row * m + col] = sum;\n"
    "}\n"
    "kernel void stencil(global const float *in, global float *out, int nx, int ny, int nz)\n"
    "{\n"
    "    int x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);\n"
    "    int i = (z * ny + y) * nx + x;\n"
    "    if (x == 0 || y == 0 || z == 0 || x == nx - 1 || y == ny - 1 || z == nz - 1) {\n"
    "        out[i] = in[i]; return;\n"
    "    }\n"
    "    out[i] = 0.5f * in[i] + (in[i - 1] + in[i + 1] + in[i - nx] + in[i + nx]\n"
    "             + in[i - nx * ny] + in[i + nx * ny]) / 12.0f;\n"
    "}\n";

static int close_enough(float a, float b)
{
    return fabsf(a - b) <= 1e-4f * (1.0f + fabsf(b));
}

static void test_vector_add(struct harness *h, cl_program program)
{
    enum { N = 100003 }; /* prime: no work-group size divides it */
    float *a = malloc(N * 4), *b = malloc(N * 4), *c = calloc(N, 4);
    for (int i = 0; i < N; i++)
        a[i] = (float)i * 0.5f, b[i] = (float)(N - i);
    cl_mem da = harness_buffer(h, CL_MEM_READ_ONLY, N * 4, a);
    cl_mem db = harness_buffer(h, CL_MEM_READ_ONLY, N * 4, b);
    cl_mem dc = harness_buffer(h, CL_MEM_WRITE_ONLY, N * 4, NULL);
    cl_kernel k = harness_kernel(program, "vector_add");
    CHECK_OK(clSetKernelArg(k, 0, sizeof da, &da));
    CHECK_OK(clSetKernelArg(k, 1, sizeof db, &db));
    CHECK_OK(clSetKernelArg(k, 2, sizeof dc, &dc));
    /* A uniform part with local size 64 and the rest through an offset. */
    size_t body = N / 64 * 64, rest = N - body, local = 64;
    CHECK_OK(clEnqueueNDRangeKernel(h->queue, k, 1, NULL, &body, &local, 0, NULL, NULL));
    CHECK_OK(clEnqueueNDRangeKernel(h->queue, k, 1, &body, &rest, NULL, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(h->queue, dc, CL_TRUE, 0, N * 4, c, 0, NULL, NULL));
    int bad = 0;
    for (int i = 0; i < N; i++)
        bad += c[i] != a[i] + b[i];
    CHECK(bad == 0);

    /* local_work_size NULL: the runtime chooses. */
    memset(c, 0, N * 4);
    CHECK_OK(clEnqueueWriteBuffer(h->queue, dc, CL_TRUE, 0, N * 4, c, 0, NULL, NULL));
    size_t global = N;
    CHECK_OK(clEnqueueNDRangeKernel(h->queue, k, 1, NULL, &global, NULL, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(h->queue, dc, CL_TRUE, 0, N * 4, c, 0, NULL, NULL));
    bad = 0;
    for (int i = 0; i < N; i++)
        bad += c[i] != a[i] + b[i];
    CHECK(bad == 0);

    clReleaseKernel(k);
    clReleaseMemObject(da), clReleaseMemObject(db), clReleaseMemObject(dc);
    free(a), free(b), free(c);
}

static void test_saxpy(struct harness *h, cl_program program)
{
    enum { N = 1 << 16 };
    float *x = malloc(N * 4), *y = malloc(N * 4), *out = malloc(N * 4);
    for (int i = 0; i < N; i++)
        x[i] = (float)(i % 97) - 40.0f, y[i] = (float)(i % 13);
    cl_mem dx = harness_buffer(h, CL_MEM_READ_ONLY, N * 4, x);
    cl_mem dy = harness_buffer(h, CL_MEM_READ_WRITE, N * 4, y);
    cl_kernel k = harness_kernel(program, "saxpy");
    float alpha = 2.5f;
    CHECK_OK(clSetKernelArg(k, 0, sizeof alpha, &alpha));
    CHECK_OK(clSetKernelArg(k, 1, sizeof dx, &dx));
    CHECK_OK(clSetKernelArg(k, 2, sizeof dy, &dy));
    size_t global = N, local = 256;
    CHECK_OK(clEnqueueNDRangeKernel(h->queue, k, 1, NULL, &global, &local, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(h->queue, dy, CL_TRUE, 0, N * 4, out, 0, NULL, NULL));
    int bad = 0;
    for (int i = 0; i < N; i++)
        bad += !close_enough(out[i], alpha * x[i] + y[i]);
    CHECK(bad == 0);
    clReleaseKernel(k);
    clReleaseMemObject(dx), clReleaseMemObject(dy);
    free(x), free(y), free(out);
}

static void test_matmul(struct harness *h, cl_program program, int non_uniform)
{
    int n = 67, kk = 45, m = 93;
    float *a = malloc(sizeof(float) * n * kk), *b = malloc(sizeof(float) * kk * m);
    float *c = calloc((size_t)n * m, sizeof(float));
    for (int i = 0; i < n * kk; i++)
        a[i] = (float)((i * 7) % 11) - 5.0f;
    for (int i = 0; i < kk * m; i++)
        b[i] = (float)((i * 3) % 7) - 3.0f;
    cl_mem da = harness_buffer(h, CL_MEM_READ_ONLY, sizeof(float) * n * kk, a);
    cl_mem db = harness_buffer(h, CL_MEM_READ_ONLY, sizeof(float) * kk * m, b);
    cl_mem dc = harness_buffer(h, CL_MEM_READ_WRITE, sizeof(float) * n * m, NULL);
    cl_kernel k = harness_kernel(program, "matmul");
    CHECK_OK(clSetKernelArg(k, 0, sizeof da, &da));
    CHECK_OK(clSetKernelArg(k, 1, sizeof db, &db));
    CHECK_OK(clSetKernelArg(k, 2, sizeof dc, &dc));
    CHECK_OK(clSetKernelArg(k, 3, sizeof n, &n));
    CHECK_OK(clSetKernelArg(k, 4, sizeof kk, &kk));
    CHECK_OK(clSetKernelArg(k, 5, sizeof m, &m));
    size_t local[2] = {8, 4};
    if (non_uniform) {
        size_t global[2] = {(size_t)m, (size_t)n};
        CHECK_OK(clEnqueueNDRangeKernel(h->queue, k, 2, NULL, global, local, 0, NULL, NULL));
    } else {
        /* Four launches: the uniform block and the three remainders, each
         * placed with a global offset. */
        size_t bx = m / 8 * 8, by = n / 4 * 4;
        size_t parts[4][4] = {{0, 0, bx, by}, {bx, 0, m - bx, by}, {0, by, bx, n - by},
                              {bx, by, m - bx, n - by}};
        for (int p = 0; p < 4; p++) {
            size_t offset[2] = {parts[p][0], parts[p][1]}, global[2] = {parts[p][2], parts[p][3]};
            CHECK_OK(clEnqueueNDRangeKernel(h->queue, k, 2, offset, global, p ? NULL : local, 0,
                                            NULL, NULL));
        }
    }
    CHECK_OK(clEnqueueReadBuffer(h->queue, dc, CL_TRUE, 0, sizeof(float) * n * m, c, 0, NULL, NULL));
    int bad = 0;
    for (int r = 0; r < n; r++)
        for (int col = 0; col < m; col++) {
            float sum = 0;
            for (int i = 0; i < kk; i++)
                sum += a[r * kk + i] * b[i * m + col];
            bad += !close_enough(c[r * m + col], sum);
        }
    CHECK(bad == 0);
    clReleaseKernel(k);
    clReleaseMemObject(da), clReleaseMemObject(db), clReleaseMemObject(dc);
    free(a), free(b), free(c);
}

static void test_stencil(struct harness *h, cl_program program)
{
    int nx = 37, ny = 21, nz = 13;
    size_t count = (size_t)nx * ny * nz;
    float *in = malloc(count * 4), *out = malloc(count * 4);
    for (size_t i = 0; i < count; i++)
        in[i] = (float)((i * 31) % 101) * 0.25f;
    cl_mem din = harness_buffer(h, CL_MEM_READ_ONLY, count * 4, in);
    cl_mem dout = harness_buffer(h, CL_MEM_WRITE_ONLY, count * 4, NULL);
    cl_kernel k = harness_kernel(program, "stencil");
    CHECK_OK(clSetKernelArg(k, 0, sizeof din, &din));
    CHECK_OK(clSetKernelArg(k, 1, sizeof dout, &dout));
    CHECK_OK(clSetKernelArg(k, 2, sizeof nx, &nx));
    CHECK_OK(clSetKernelArg(k, 3, sizeof ny, &ny));
    CHECK_OK(clSetKernelArg(k, 4, sizeof nz, &nz));
    size_t global[3] = {(size_t)nx, (size_t)ny, (size_t)nz};
    CHECK_OK(clEnqueueNDRangeKernel(h->queue, k, 3, NULL, global, NULL, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(h->queue, dout, CL_TRUE, 0, count * 4, out, 0, NULL, NULL));
    int bad = 0;
    for (int z = 0; z < nz; z++)
        for (int y = 0; y < ny; y++)
            for (int x = 0; x < nx; x++) {
                int i = (z * ny + y) * nx + x;
                float want = in[i];
                if (x && y && z && x < nx - 1 && y < ny - 1 && z < nz - 1)
                    want = 0.5f * in[i] + (in[i - 1] + in[i + 1] + in[i - nx] + in[i + nx] +
                                           in[i - nx * ny] + in[i + nx * ny]) / 12.0f;
                bad += !close_enough(out[i], want);
            }
    CHECK(bad == 0);
    clReleaseKernel(k);
    clReleaseMemObject(din), clReleaseMemObject(dout);
    free(in), free(out);
}

int main(void)
{
    struct harness h = harness_open();
    cl_program program = harness_build(&h, source, "");
    REQUIRE(program);
    test_vector_add(&h, program);
    test_saxpy(&h, program);
    test_matmul(&h, program, 0);
    test_stencil(&h, program);
    /* The same matmul as OpenCL C 2.0 with a non-uniform range; in 1.2 that
     * range is CL_INVALID_WORK_GROUP_SIZE. */
    {
        cl_kernel k = harness_kernel(program, "matmul");
        size_t global[2] = {93, 67}, local[2] = {8, 4};
        cl_mem dummy = harness_buffer(&h, CL_MEM_READ_WRITE, 64, NULL);
        int zero = 0;
        for (int i = 0; i < 3; i++)
            clSetKernelArg(k, i, sizeof dummy, &dummy);
        for (int i = 3; i < 6; i++)
            clSetKernelArg(k, i, sizeof zero, &zero);
        CHECK_ERR(clEnqueueNDRangeKernel(h.queue, k, 2, NULL, global, local, 0, NULL, NULL),
                  CL_INVALID_WORK_GROUP_SIZE);
        clReleaseKernel(k);
        clReleaseMemObject(dummy);
    }
    cl_program program20 = harness_build(&h, source, "-cl-std=CL2.0");
    REQUIRE(program20);
    test_matmul(&h, program20, 1);
    clReleaseProgram(program20);
    clReleaseProgram(program);
    harness_close(&h);
    return harness_finish();
}
