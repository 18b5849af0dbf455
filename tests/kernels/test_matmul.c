/* test_matmul.c - C = A x B for a 67x45 A and a 45x93 B (sizes no
 * work-group size divides), in 2D ranges:
 *   - OpenCL C 1.2: a uniform block with local size 8x4, and the three
 *     remainders launched separately, each placed with a global offset;
 *   - the same range in one launch is CL_INVALID_WORK_GROUP_SIZE in 1.2,
 *     and runs with non-uniform groups under -cl-std=CL2.0;
 *   - a tiled version with __local tiles and barriers over a padded range;
 *   - integers (exact) as well as floats (tolerance). */
#include "../harness.h"

enum { N = 67, K = 45, M = 93 };

static const char *source =
    "kernel void matmul(global const float *a, global const float *b, global float *c,\n"
    "                   int n, int k, int m)\n"
    "{\n"
    "    int col = get_global_id(0), row = get_global_id(1);\n"
    "    if (row >= n || col >= m) return;\n"
    "    float sum = 0.0f;\n"
    "    for (int i = 0; i < k; i++) sum += a[row * k + i] * b[i * m + col];\n"
    "    c[row * m + col] = sum;\n"
    "}\n"
    "kernel void matmul_int(global const int *a, global const int *b, global int *c,\n"
    "                       int n, int k, int m)\n"
    "{\n"
    "    int col = get_global_id(0), row = get_global_id(1);\n"
    "    int sum = 0;\n"
    "    for (int i = 0; i < k; i++) sum += a[row * k + i] * b[i * m + col];\n"
    "    c[row * m + col] = sum;\n"
    "}\n"
    "#define T 8\n"
    "kernel void matmul_tiled(global const float *a, global const float *b, global float *c,\n"
    "                         int n, int k, int m)\n"
    "{\n"
    "    local float ta[T][T], tb[T][T];\n"
    "    int lx = get_local_id(0), ly = get_local_id(1);\n"
    "    int col = get_global_id(0), row = get_global_id(1);\n"
    "    float sum = 0.0f;\n"
    "    for (int t = 0; t < k; t += T) {\n"
    "        ta[ly][lx] = row < n && t + lx < k ? a[row * k + t + lx] : 0.0f;\n"
    "        tb[ly][lx] = col < m && t + ly < k ? b[(t + ly) * m + col] : 0.0f;\n"
    "        barrier(CLK_LOCAL_MEM_FENCE);\n"
    "        for (int i = 0; i < T; i++) sum += ta[ly][i] * tb[i][lx];\n"
    "        barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    }\n"
    "    if (row < n && col < m) c[row * m + col] = sum;\n"
    "}\n";

static float a[N * K], b[K * M], want[N * M];
static int ia[N * K], ib[K * M], iwant[N * M];

static void host_matmul(void)
{
    for (int i = 0; i < N * K; i++)
        a[i] = (float)((i * 7) % 11) - 5.0f + 0.125f * (i % 3), ia[i] = (i * 7) % 23 - 11;
    for (int i = 0; i < K * M; i++)
        b[i] = (float)((i * 3) % 7) - 3.0f - 0.25f * (i % 5), ib[i] = (i * 5) % 19 - 9;
    for (int r = 0; r < N; r++)
        for (int col = 0; col < M; col++) {
            float sum = 0;
            int isum = 0;
            for (int i = 0; i < K; i++) {
                sum += a[r * K + i] * b[i * M + col];
                isum += ia[r * K + i] * ib[i * M + col];
            }
            want[r * M + col] = sum;
            iwant[r * M + col] = isum;
        }
}

/* The four launches that cover M x N with local size 8x4 in 1.2: the
 * uniform block and the three remainders, placed by global offsets. */
static void launch_split(struct harness *h, cl_kernel k)
{
    size_t bx = M / 8 * 8, by = N / 4 * 4, local[2] = {8, 4};
    size_t parts[4][4] = {
        {0, 0, bx, by}, {bx, 0, M - bx, by}, {0, by, bx, N - by}, {bx, by, M - bx, N - by}};
    for (int p = 0; p < 4; p++) {
        size_t offset[2] = {parts[p][0], parts[p][1]}, global[2] = {parts[p][2], parts[p][3]};
        CHECK_OK(clEnqueueNDRangeKernel(h->queue, k, 2, offset, global, p ? NULL : local, 0, NULL,
                                        NULL));
    }
}

enum mode { SPLIT, NON_UNIFORM, PADDED };

static void run(struct harness *h, cl_program program, const char *name, enum mode mode)
{
    int integer = !strcmp(name, "matmul_int");
    size_t elem = 4;
    cl_mem da = harness_buffer(h, CL_MEM_READ_ONLY, elem * N * K, integer ? (void *)ia : a);
    cl_mem db = harness_buffer(h, CL_MEM_READ_ONLY, elem * K * M, integer ? (void *)ib : b);
    cl_mem dc = harness_buffer(h, CL_MEM_READ_WRITE, elem * N * M, NULL);
    float pattern = -12345.0f;
    CHECK_OK(clEnqueueFillBuffer(h->queue, dc, &pattern, 4, 0, elem * N * M, 0, NULL, NULL));
    cl_kernel k = harness_kernel(program, name);
    int n = N, kk = K, m = M;
    CHECK_OK(harness_args(k, 6, ARG(da), ARG(db), ARG(dc), ARG(n), ARG(kk), ARG(m)));
    if (mode == SPLIT) {
        launch_split(h, k);
    } else if (mode == NON_UNIFORM) {
        size_t global[2] = {M, N}, local[2] = {8, 4};
        CHECK_OK(clEnqueueNDRangeKernel(h->queue, k, 2, NULL, global, local, 0, NULL, NULL));
    } else {
        size_t global[2] = {(M + 7) / 8 * 8, (N + 7) / 8 * 8}, local[2] = {8, 8};
        CHECK_OK(clEnqueueNDRangeKernel(h->queue, k, 2, NULL, global, local, 0, NULL, NULL));
    }
    static float c[N * M];
    CHECK_OK(clEnqueueReadBuffer(h->queue, dc, CL_TRUE, 0, elem * N * M, c, 0, NULL, NULL));
    long bad = 0;
    for (int i = 0; i < N * M; i++)
        bad += integer ? ((int *)c)[i] != iwant[i] : !harness_near(c[i], want[i], 1e-4f);
    if (bad)
        fprintf(stderr, "%s, mode %d: ", name, (int)mode);
    CHECK_NONE_WRONG(bad, name);
    clReleaseKernel(k);
    clReleaseMemObject(da), clReleaseMemObject(db), clReleaseMemObject(dc);
}

int main(void)
{
    struct harness h = harness_open();
    host_matmul();
    cl_program program = harness_build(&h, source, "");
    REQUIRE(program);
    run(&h, program, "matmul", SPLIT);
    run(&h, program, "matmul_int", SPLIT);
    run(&h, program, "matmul_tiled", PADDED);

    /* 5.10: in OpenCL C 1.x a local size must divide the global size. */
    {
        cl_kernel k = harness_kernel(program, "matmul");
        cl_mem dummy = harness_buffer(&h, CL_MEM_READ_WRITE, 64, NULL);
        int zero = 0;
        CHECK_OK(harness_args(k, 6, ARG(dummy), ARG(dummy), ARG(dummy), ARG(zero), ARG(zero),
                              ARG(zero)));
        size_t global[2] = {M, N}, local[2] = {8, 4};
        CHECK_ERR(clEnqueueNDRangeKernel(h.queue, k, 2, NULL, global, local, 0, NULL, NULL),
                  CL_INVALID_WORK_GROUP_SIZE);
        clReleaseKernel(k);
        clReleaseMemObject(dummy);
    }
    clReleaseProgram(program);

    cl_program program20 = harness_build(&h, source, "-cl-std=CL2.0");
    REQUIRE(program20);
    run(&h, program20, "matmul", NON_UNIFORM);
    run(&h, program20, "matmul", SPLIT);
    clReleaseProgram(program20);
    harness_close(&h);
    return harness_finish();
}
