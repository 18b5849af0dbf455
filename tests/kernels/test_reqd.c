/* test_reqd.c - kernels with reqd_work_group_size (and one with
 * work_group_size_hint), which the compiler runs through a work-group
 * function specialized for that size (src/compiler/specialize.cpp) in full
 * groups and the general one in the partial groups of a non-uniform range
 * (OpenCL 2.0) or, for the hint, in launches of another size: every
 * work-item function's value, a reduction through local memory with
 * barriers, and a tiled matrix product, each checked on the host, in
 * uniform and non-uniform ranges. */
#include "../harness.h"

static const char *source =
    "#define IDS(NAME, ATTRIBUTE)                                              \\\n"
    "ATTRIBUTE kernel void NAME(global long *out, int width)                   \\\n"
    "{                                                                         \\\n"
    "    size_t x = get_global_id(0), y = get_global_id(1);                    \\\n"
    "    global long *o = out + 6 * (y * width + x);                           \\\n"
    "    o[0] = get_local_id(0) + 100 * get_local_id(1);                       \\\n"
    "    o[1] = get_local_size(0) + 100 * get_local_size(1);                   \\\n"
    "    o[2] = get_enqueued_local_size(0) + 100 * get_enqueued_local_size(1); \\\n"
    "    o[3] = get_group_id(0) + 100 * get_group_id(1);                       \\\n"
    "    o[4] = get_local_linear_id();                                         \\\n"
    "    o[5] = get_global_linear_id();                                        \\\n"
    "}\n"
    "IDS(ids, __attribute__((reqd_work_group_size(8, 4, 1))))\n"
    "IDS(ids_hint, __attribute__((work_group_size_hint(8, 4, 1))))\n"
    "__attribute__((reqd_work_group_size(16, 1, 1)))\n"
    "kernel void sums(global const int *in, global int *out, local int *t)\n"
    "{\n"
    "    size_t l = get_local_id(0), n = get_local_size(0);\n"
    "    t[l] = in[get_global_id(0)];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    if (l == 0) {\n"
    "        int s = 0;\n"
    "        for (size_t i = 0; i < n; i++) s += t[i];\n"
    "        out[get_group_id(0)] = s;\n"
    "    }\n"
    "}\n"
    "#define TS 4\n"
    "__attribute__((reqd_work_group_size(TS, TS, 1)))\n"
    "kernel void gemm(int n, global const float *a, global const float *b, global float *c)\n"
    "{\n"
    "    local float ta[TS][TS], tb[TS][TS];\n"
    "    int lx = get_local_id(0), ly = get_local_id(1);\n"
    "    int col = get_global_id(0), row = get_global_id(1);\n"
    "    float sum = 0.0f;\n"
    "    for (int k0 = 0; k0 < n; k0 += TS) {\n"
    "        ta[ly][lx] = a[row * n + k0 + lx];\n"
    "        tb[ly][lx] = b[(k0 + ly) * n + col];\n"
    "        barrier(CLK_LOCAL_MEM_FENCE);\n"
    "        for (int k = 0; k < TS; k++) sum += ta[ly][k] * tb[k][lx];\n"
    "        barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    }\n"
    "    c[row * n + col] = sum;\n"
    "}\n";

static void check_ids(struct harness *h, cl_program program, const char *name, size_t lx_size,
                      size_t ly_size, size_t width, size_t height)
{
    size_t count = width * height * 6;
    cl_long *out = malloc(count * sizeof *out);
    cl_mem d = harness_buffer(h, CL_MEM_WRITE_ONLY, count * sizeof *out, NULL);
    cl_kernel k = harness_kernel(program, name);
    cl_int w = (cl_int)width;
    CHECK_OK(harness_args(k, 2, ARG(d), ARG(w)));
    size_t global[2] = {width, height}, local[2] = {lx_size, ly_size};
    CHECK_OK(clEnqueueNDRangeKernel(h->queue, k, 2, NULL, global, local, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(h->queue, d, CL_TRUE, 0, count * sizeof *out, out, 0, NULL, NULL));
    long bad = 0;
    for (size_t y = 0; y < height; y++)
        for (size_t x = 0; x < width; x++) {
            const cl_long *o = out + 6 * (y * width + x);
            size_t gx = x / lx_size, gy = y / ly_size, lx = x % lx_size, ly = y % ly_size;
            size_t sx = width - gx * lx_size < lx_size ? width - gx * lx_size : lx_size;
            size_t sy = height - gy * ly_size < ly_size ? height - gy * ly_size : ly_size;
            bad += o[0] != (cl_long)(lx + 100 * ly) || o[1] != (cl_long)(sx + 100 * sy) ||
                   o[2] != (cl_long)(lx_size + 100 * ly_size) || o[3] != (cl_long)(gx + 100 * gy) ||
                   o[4] != (cl_long)(ly * sx + lx) || o[5] != (cl_long)(y * width + x);
        }
    CHECK_NONE_WRONG(bad, "work-item functions");
    clReleaseKernel(k);
    clReleaseMemObject(d);
    free(out);
}

static void check_sums(struct harness *h, cl_program program, size_t n)
{
    size_t groups = (n + 15) / 16;
    int *in = malloc(n * sizeof *in), *out = malloc(groups * sizeof *out);
    for (size_t i = 0; i < n; i++)
        in[i] = (int)(i * 7 % 23) - 11;
    cl_mem din = harness_buffer(h, CL_MEM_READ_ONLY, n * sizeof *in, in);
    cl_mem dout = harness_buffer(h, CL_MEM_WRITE_ONLY, groups * sizeof *out, NULL);
    cl_kernel k = harness_kernel(program, "sums");
    CHECK_OK(harness_args(k, 2, ARG(din), ARG(dout)));
    CHECK_OK(clSetKernelArg(k, 2, 16 * sizeof(int), NULL));
    size_t local = 16;
    CHECK_OK(clEnqueueNDRangeKernel(h->queue, k, 1, NULL, &n, &local, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(h->queue, dout, CL_TRUE, 0, groups * sizeof *out, out, 0, NULL,
                                 NULL));
    long bad = 0;
    for (size_t g = 0; g < groups; g++) {
        int want = 0;
        for (size_t i = g * 16; i < n && i < g * 16 + 16; i++)
            want += in[i];
        bad += out[g] != want;
    }
    CHECK_NONE_WRONG(bad, "group sums");
    clReleaseKernel(k);
    clReleaseMemObject(din), clReleaseMemObject(dout);
    free(in), free(out);
}

static void check_gemm(struct harness *h, cl_program program, int n)
{
    size_t count = (size_t)n * n;
    float *a = malloc(count * 4), *b = malloc(count * 4), *c = malloc(count * 4);
    for (size_t i = 0; i < count; i++)
        a[i] = (float)(i % 7) - 3.0f, b[i] = (float)(i % 5) * 0.5f;
    cl_mem da = harness_buffer(h, CL_MEM_READ_ONLY, count * 4, a);
    cl_mem db = harness_buffer(h, CL_MEM_READ_ONLY, count * 4, b);
    cl_mem dc = harness_buffer(h, CL_MEM_WRITE_ONLY, count * 4, NULL);
    cl_kernel k = harness_kernel(program, "gemm");
    CHECK_OK(harness_args(k, 4, ARG(n), ARG(da), ARG(db), ARG(dc)));
    size_t global[2] = {(size_t)n, (size_t)n}, local[2] = {4, 4};
    CHECK_OK(clEnqueueNDRangeKernel(h->queue, k, 2, NULL, global, local, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(h->queue, dc, CL_TRUE, 0, count * 4, c, 0, NULL, NULL));
    long bad = 0;
    for (int r = 0; r < n; r++)
        for (int col = 0; col < n; col++) {
            float want = 0.0f;
            for (int k2 = 0; k2 < n; k2++)
                want += a[r * n + k2] * b[k2 * n + col];
            bad += !harness_near(c[r * n + col], want, 1e-4f);
        }
    CHECK_NONE_WRONG(bad, "tiled product");
    clReleaseKernel(k);
    clReleaseMemObject(da), clReleaseMemObject(db), clReleaseMemObject(dc);
    free(a), free(b), free(c);
}

int main(void)
{
    struct harness h = harness_open();
    cl_program program = harness_build(&h, source, "-cl-std=CL2.0");
    REQUIRE(program);
    check_ids(&h, program, "ids", 8, 4, 32, 8);  /* uniform: every group full */
    check_ids(&h, program, "ids", 8, 4, 37, 10); /* partial groups in x, y and both */
    check_ids(&h, program, "ids", 8, 4, 5, 3);   /* one group, partial */
    check_ids(&h, program, "ids_hint", 8, 4, 37, 10); /* the hinted size */
    check_ids(&h, program, "ids_hint", 4, 2, 37, 10); /* another one */
    check_ids(&h, program, "ids_hint", 16, 1, 40, 3);
    check_sums(&h, program, 256);
    check_sums(&h, program, 100);
    check_sums(&h, program, 7);
    check_gemm(&h, program, 12);
    check_gemm(&h, program, 64);
    clReleaseProgram(program);
    harness_close(&h);
    return harness_finish();
}
