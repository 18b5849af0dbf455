/* test_barriers.c - kernels with barriers (OpenCL C 6.13.8): in straight
 * code, in loops, in a called function, with private arrays live across
 * them, for several local sizes including non-uniform groups. */
#include "../harness.h"

static const char *source =
    "void sync(void) { barrier(CLK_LOCAL_MEM_FENCE); }\n"
    /* Tree reduction of each group's values in local memory. */
    "kernel void reduce(global const int *in, global int *out, local int *scratch)\n"
    "{\n"
    "    size_t l = get_local_id(0), n = get_local_size(0);\n"
    "    scratch[l] = in[get_global_id(0)];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    for (size_t stride = 1; stride < n; stride *= 2) {\n"
    "        int other = (l % (2 * stride) == 0 && l + stride < n) ? scratch[l + stride] : 0;\n"
    "        sync();\n"
    "        scratch[l] += other;\n"
    "        work_group_barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    }\n"
    "    if (l == 0) out[get_group_id(0)] = scratch[0];\n"
    "}\n"
    /* Reverse within the group through a kernel-scope local array, with a
     * private array that must survive the barrier. */
    "kernel void reverse(global int *data)\n"
    "{\n"
    "    local int tile[256];\n"
    "    int keep[4];\n"
    "    size_t l = get_local_id(0), n = get_local_size(0);\n"
    "    for (int i = 0; i < 4; i++) keep[i] = (int)l * i;\n"
    "    tile[l] = data[get_global_id(0)];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    data[get_global_id(0)] = tile[n - 1 - l] + keep[3] - 3 * (int)l;\n"
    "}\n"
    /* A kernel-scope __local array used in the kernel's first block, a
     * return before the barrier loop (uniform), a barrier in a do-while. */
    "kernel void local_sum(global const int *a, int n, global int *sum)\n"
    "{\n"
    "    local int tmp[64];\n"
    "    int tid = get_local_id(0), lsize = get_local_size(0);\n"
    "    tmp[tid] = 0;\n"
    "    for (int i = tid; i < n; i += lsize) tmp[tid] += a[i];\n"
    "    if (lsize == 1) { *sum = tmp[0]; return; }\n"
    "    do {\n"
    "        barrier(CLK_LOCAL_MEM_FENCE);\n"
    "        if (tid < lsize / 2) tmp[tid] += tmp[tid + lsize / 2];\n"
    "        lsize /= 2;\n"
    "    } while (lsize);\n"
    "    if (tid == 0) *sum = tmp[0];\n"
    "}\n"
    /* A strided copy into local memory and a plain one back, doubled. */
    "kernel void async(global const int *in, global int *out, local int *tile, int stride)\n"
    "{\n"
    "    size_t n = get_local_size(0), g = get_group_id(0);\n"
    "    event_t e = async_work_group_strided_copy(tile, in + g * n * stride, n, stride, 0);\n"
    "    wait_group_events(1, &e);\n"
    "    tile[get_local_id(0)] *= 2;\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    e = async_work_group_copy(out + g * n, tile, n, 0);\n"
    "    wait_group_events(1, &e);\n"
    "}\n";

static void check_local_sum(struct harness *h, cl_program program, size_t local)
{
    enum { N = 1000 };
    int a[N], sum = 0, want = 0;
    for (int i = 0; i < N; i++)
        want += a[i] = i % 17 - 3;
    cl_mem da = harness_buffer(h, CL_MEM_READ_ONLY, sizeof a, a);
    cl_mem ds = harness_buffer(h, CL_MEM_READ_WRITE, sizeof sum, &sum);
    cl_kernel k = harness_kernel(program, "local_sum");
    int n = N;
    CHECK_OK(clSetKernelArg(k, 0, sizeof da, &da));
    CHECK_OK(clSetKernelArg(k, 1, sizeof n, &n));
    CHECK_OK(clSetKernelArg(k, 2, sizeof ds, &ds));
    CHECK_OK(clEnqueueNDRangeKernel(h->queue, k, 1, NULL, &local, &local, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(h->queue, ds, CL_TRUE, 0, sizeof sum, &sum, 0, NULL, NULL));
    CHECK(sum == want);
    clReleaseKernel(k);
    clReleaseMemObject(da), clReleaseMemObject(ds);
}

static void check_async(struct harness *h, cl_program program, size_t local)
{
    enum { GROUPS = 5, STRIDE = 3 };
    size_t global = GROUPS * local;
    int *in = malloc(global * STRIDE * sizeof *in), *out = calloc(global, sizeof *out);
    for (size_t i = 0; i < global * STRIDE; i++)
        in[i] = (int)(i * 5 + 1);
    cl_mem din = harness_buffer(h, CL_MEM_READ_ONLY, global * STRIDE * sizeof *in, in);
    cl_mem dout = harness_buffer(h, CL_MEM_WRITE_ONLY, global * sizeof *out, NULL);
    cl_kernel k = harness_kernel(program, "async");
    int stride = STRIDE;
    CHECK_OK(clSetKernelArg(k, 0, sizeof din, &din));
    CHECK_OK(clSetKernelArg(k, 1, sizeof dout, &dout));
    CHECK_OK(clSetKernelArg(k, 2, local * sizeof(int), NULL));
    CHECK_OK(clSetKernelArg(k, 3, sizeof stride, &stride));
    CHECK_OK(clEnqueueNDRangeKernel(h->queue, k, 1, NULL, &global, &local, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(h->queue, dout, CL_TRUE, 0, global * sizeof *out, out, 0, NULL,
                                 NULL));
    int bad = 0;
    for (size_t i = 0; i < global; i++)
        bad += out[i] != 2 * in[i * STRIDE];
    CHECK(bad == 0);
    clReleaseKernel(k);
    clReleaseMemObject(din), clReleaseMemObject(dout);
    free(in), free(out);
}

static void check_reduce(struct harness *h, cl_program program, size_t global, size_t local)
{
    int *in = malloc(global * sizeof *in);
    size_t groups = (global + local - 1) / local;
    int *out = calloc(groups, sizeof *out);
    for (size_t i = 0; i < global; i++)
        in[i] = (int)(i % 23) - 7;
    cl_mem din = harness_buffer(h, CL_MEM_READ_ONLY, global * sizeof *in, in);
    cl_mem dout = harness_buffer(h, CL_MEM_WRITE_ONLY, groups * sizeof *out, NULL);
    cl_kernel k = harness_kernel(program, "reduce");
    CHECK_OK(clSetKernelArg(k, 0, sizeof din, &din));
    CHECK_OK(clSetKernelArg(k, 1, sizeof dout, &dout));
    CHECK_OK(clSetKernelArg(k, 2, local * sizeof(int), NULL));
    CHECK_OK(clEnqueueNDRangeKernel(h->queue, k, 1, NULL, &global, &local, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(h->queue, dout, CL_TRUE, 0, groups * sizeof *out, out, 0, NULL,
                                 NULL));
    int bad = 0;
    for (size_t g = 0; g < groups; g++) {
        int sum = 0;
        for (size_t i = g * local; i < (g + 1) * local && i < global; i++)
            sum += in[i];
        bad += out[g] != sum;
    }
    if (bad)
        fprintf(stderr, "reduce global %zu local %zu: %d groups wrong\n", global, local, bad);
    CHECK(bad == 0);
    clReleaseKernel(k);
    clReleaseMemObject(din), clReleaseMemObject(dout);
    free(in), free(out);
}

static void check_reverse(struct harness *h, cl_program program, size_t global, size_t local)
{
    int *data = malloc(global * sizeof *data), *out = malloc(global * sizeof *out);
    for (size_t i = 0; i < global; i++)
        data[i] = (int)(i * 7);
    cl_mem d = harness_buffer(h, CL_MEM_READ_WRITE, global * sizeof *data, data);
    cl_kernel k = harness_kernel(program, "reverse");
    CHECK_OK(clSetKernelArg(k, 0, sizeof d, &d));
    CHECK_OK(clEnqueueNDRangeKernel(h->queue, k, 1, NULL, &global, &local, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(h->queue, d, CL_TRUE, 0, global * sizeof *out, out, 0, NULL, NULL));
    int bad = 0;
    for (size_t i = 0; i < global; i++) {
        size_t start = i / local * local, n = global - start < local ? global - start : local;
        bad += out[i] != data[start + (n - 1 - (i - start))];
    }
    CHECK(bad == 0);
    clReleaseKernel(k);
    clReleaseMemObject(d);
    free(data), free(out);
}

int main(void)
{
    struct harness h = harness_open();
    cl_program program = harness_build(&h, source, "-cl-std=CL2.0");
    REQUIRE(program);
    size_t locals[] = {1, 7, 64, 256, 1024};
    for (size_t i = 0; i < sizeof locals / sizeof locals[0]; i++)
        check_reduce(&h, program, locals[i] * 6, locals[i]);
    check_reduce(&h, program, 1000, 64); /* non-uniform: the last group has 40 */
    check_reverse(&h, program, 1024, 256);
    check_reverse(&h, program, 999, 128);
    check_local_sum(&h, program, 1);
    check_local_sum(&h, program, 64);
    check_async(&h, program, 1);
    check_async(&h, program, 64);
    clReleaseProgram(program);
    harness_close(&h);
    return harness_finish();
}
