/* test_barriers.c - kernels with barriers (OpenCL C 6.13.8): in straight
 * code, in loops, in a called function, with private arrays live across
 * them, for several local sizes including non-uniform groups. */
#include <stdbool.h>
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
    /* A private array indexed at run time on both sides of a barrier: it
     * lives in the work-items' storage, and CL_KERNEL_PRIVATE_MEM_SIZE
     * counts it. */
    "kernel void keep_array(global int *data)\n"
    "{\n"
    "    local int tile[256];\n"
    "    int keep[32];\n"
    "    size_t l = get_local_id(0), n = get_local_size(0);\n"
    "    for (int i = 0; i < 32; i++) keep[i] = data[get_global_id(0)] + i;\n"
    "    tile[l] = keep[l % 32];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    data[get_global_id(0)] = tile[n - 1 - l] + keep[(l * 7) % 32];\n"
    "}\n"
    /* A private array filled in a loop of three before the barrier and
     * reused after it (OpenCV's row_filter): the loops are unrolled before
     * the regions are formed, so it is registers, not kept per work-item
     * (src/compiler/workgroup.c). Rows of P ints, 16x16 groups. */
    "#define P 128\n"
    "kernel void taps(global const int *in, global int *out, int w)\n"
    "{\n"
    "    local int row[16][3 * 16 + 1];\n"
    "    int temp[3];\n"
    "    int lx = get_local_id(0), ly = get_local_id(1), x = get_global_id(0), y = "
    "get_global_id(1);\n"
    "    for (int i = 0; i < 3; i++) temp[i] = in[y * P + x + i * 16];\n"
    "    for (int i = 0; i < 3; i++) row[ly][i * 16 + lx] = temp[i];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    int sum = row[ly][lx + 16] * 2;\n"
    "    for (int i = 1; i <= 3; i++) {\n"
    "        temp[0] = row[ly][lx + 16 - i];\n"
    "        temp[1] = row[ly][lx + 16 + i];\n"
    "        sum += temp[0] * i + temp[1] * (4 - i);\n"
    "    }\n"
    "    if (x < w) out[y * w + x] = sum;\n"
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
    "}\n"
    /* Barriers in nested loops with uniform trip counts, in a called
     * function, in both arms of a uniform if/else (with different numbers
     * of barriers), a struct and a private array live across them, in 1D
     * or 2D groups; work-items at or past `limit` return before the first
     * barrier and their siblings go on without them. */
    "typedef struct { int a; float b; int c[3]; } S;\n"
    "void step(local int *t, S *s, int l, int m)\n"
    "{\n"
    "    t[l] = s->a + s->c[l % 3];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    s->a = t[(l + 1) % m];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "}\n"
    "kernel void mixed(global int *out, int mode, int limit)\n"
    "{\n"
    "    local int t[1024];\n"
    "    int l = get_local_linear_id(), g = get_global_linear_id();\n"
    "    int n = get_local_size(0) * get_local_size(1), m = min(limit, n);\n"
    "    if (l >= m) { out[g] = -1; return; }\n"
    "    S s = { l, 0.5f * l, { g, 2 * g, 3 * g } };\n"
    "    int priv[4] = { l, l + 1, l + 2, l + 3 };\n"
    "    for (int r = 0; r < 3; r++)\n"
    "        for (int q = 0; q < r; q++) {\n"
    "            t[l] = s.a + priv[q];\n"
    "            barrier(CLK_LOCAL_MEM_FENCE);\n"
    "            s.a = t[(l + 1) % m];\n"
    "            barrier(CLK_LOCAL_MEM_FENCE);\n"
    "        }\n"
    "    if (mode == 1) {\n"
    "        step(t, &s, l, m);\n"
    "    } else {\n"
    "        t[l] = s.c[1];\n"
    "        barrier(CLK_LOCAL_MEM_FENCE);\n"
    "        s.c[1] = t[m - 1 - l];\n"
    "        work_group_barrier(CLK_LOCAL_MEM_FENCE);\n"
    "        s.c[1] += t[l];\n"
    "        barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    }\n"
    "    out[g] = s.a * 1000 + s.c[1] + (int)(s.b * 2) + priv[3];\n"
    "}\n"
    /* Values the same for every work-item (the loop counter, step, tmp)
     * live across barriers and change inside regions; work-items at or
     * past `limit` return first. */
    "kernel void uniform_loop(global int *out, int rounds, int limit, local int *t)\n"
    "{\n"
    "    int l = get_local_id(0), n = get_local_size(0), m = min(limit, n);\n"
    "    if (l >= m) { out[get_global_id(0)] = -1; return; }\n"
    "    int acc = 0, step = 1;\n"
    "    for (int r = 0; r < rounds; r++) {\n"
    "        t[l] = l * step + r;\n"
    "        barrier(CLK_LOCAL_MEM_FENCE);\n"
    "        acc += t[(l + step) % m];\n"
    "        step = step * 2 % 7 + 1;\n"
    "        int tmp = step + r;\n"
    "        barrier(CLK_LOCAL_MEM_FENCE);\n"
    "        step += tmp & 1;\n"
    "    }\n"
    "    out[get_global_id(0)] = acc * 100 + step;\n"
    "}\n"
    /* A barrier as the kernel's first statement (region 0 is then empty):
     * such kernels failed to build ("barrier is not provided"). */
    "kernel void barrier_first(global int *out, local int *t)\n"
    "{\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    size_t l = get_local_id(0), n = get_local_size(0);\n"
    "    t[l] = (int)get_global_id(0) * 3;\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    out[get_global_id(0)] = t[n - 1 - l];\n"
    "}\n"
    /* piglit's atomic_cmpxchg-global: the work-items take turns */
    "kernel void barrier_first_turns(global int *out)\n"
    "{\n"
    "    barrier(CLK_GLOBAL_MEM_FENCE);\n"
    "    int id = get_global_id(0);\n"
    "    for (int i = 0; i < get_global_size(0); i++) {\n"
    "        if (i == id)\n"
    "            atomic_cmpxchg(out, id, id + 1);\n"
    "        barrier(CLK_GLOBAL_MEM_FENCE);\n"
    "    }\n"
    "}\n";

/* barrier_first over groups of `local`, and barrier_first_turns in one
 * group of `local`: each item's turn moves the counter on by one. */
static void check_barrier_first(struct harness *h, cl_program program, size_t local)
{
    size_t global = 3 * local;
    int *out = malloc(global * sizeof *out);
    REQUIRE(out);
    cl_mem d = harness_buffer(h, CL_MEM_READ_WRITE, global * sizeof *out, NULL);
    cl_kernel k = harness_kernel(program, "barrier_first");
    CHECK_OK(harness_args(k, 2, ARG(d), sizeof(int) * local, NULL));
    CHECK_OK(clEnqueueNDRangeKernel(h->queue, k, 1, NULL, &global, &local, 0, NULL, NULL));
    CHECK_OK(
        clEnqueueReadBuffer(h->queue, d, CL_TRUE, 0, global * sizeof *out, out, 0, NULL, NULL));
    int bad = 0;
    for (size_t g = 0; g < global; g++) {
        size_t group = g / local, l = g % local;
        bad += out[g] != (int)(group * local + local - 1 - l) * 3;
    }
    CHECK(bad == 0);
    clReleaseKernel(k);

    cl_int zero = 0, count = -1;
    CHECK_OK(clEnqueueWriteBuffer(h->queue, d, CL_TRUE, 0, sizeof zero, &zero, 0, NULL, NULL));
    k = harness_kernel(program, "barrier_first_turns");
    CHECK_OK(harness_args(k, 1, ARG(d)));
    CHECK_OK(clEnqueueNDRangeKernel(h->queue, k, 1, NULL, &local, &local, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(h->queue, d, CL_TRUE, 0, sizeof count, &count, 0, NULL, NULL));
    CHECK(count == (cl_int)local);
    clReleaseKernel(k);
    clReleaseMemObject(d);
    free(out);
}

static void check_uniform_loop(struct harness *h, cl_program program, size_t local, int limit)
{
    enum { GROUPS = 3, ROUNDS = 9 };
    size_t global = GROUPS * local;
    int *out = malloc(global * sizeof *out), *t = malloc(local * sizeof *t);
    long *acc = calloc(local, sizeof *acc);
    REQUIRE(out && t && acc);
    int m = limit < (int)local ? limit : (int)local, step = 1;
    for (int r = 0; r < ROUNDS; r++) {
        for (int l = 0; l < m; l++)
            t[l] = l * step + r;
        for (int l = 0; l < m; l++)
            acc[l] += t[(l + step) % m];
        step = step * 2 % 7 + 1;
        int tmp = step + r;
        step += tmp & 1;
    }
    cl_mem d = harness_buffer(h, CL_MEM_WRITE_ONLY, global * sizeof *out, NULL);
    cl_kernel k = harness_kernel(program, "uniform_loop");
    int rounds = ROUNDS;
    CHECK_OK(harness_args(k, 4, ARG(d), ARG(rounds), ARG(limit), sizeof(int) * local, NULL));
    CHECK_OK(clEnqueueNDRangeKernel(h->queue, k, 1, NULL, &global, &local, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(h->queue, d, CL_TRUE, 0, global * sizeof *out, out, 0, NULL,
                                 NULL));
    size_t bad = 0;
    for (size_t i = 0; i < global; i++) {
        size_t l = i % local;
        int want = (int)l < m ? (int)(acc[l] * 100 + step) : -1;
        if (out[i] != want && bad++ < 3)
            HARNESS_FAIL("uniform_loop local %zu limit %d: item %zu got %d want %d", local, limit,
                         i, out[i], want);
    }
    CHECK(bad == 0);
    clReleaseKernel(k);
    clReleaseMemObject(d);
    free(out), free(t), free(acc);
}

/* The host's run of `mixed` over one group: every phase between barriers
 * for all its work-items. */
static void expect_mixed(int *want, size_t gx, size_t x0, size_t y0, size_t lx, size_t ly,
                         int mode, int limit)
{
    int n = (int)(lx * ly), m = limit < n ? limit : n;
    int a[1024], c1[1024], t[1024], g[1024];
    for (int l = 0; l < n; l++) {
        g[l] = (int)((y0 + (size_t)l / lx) * gx + x0 + (size_t)l % lx);
        a[l] = l;
        c1[l] = 2 * g[l];
    }
    for (int r = 0; r < 3; r++)
        for (int q = 0; q < r; q++) {
            for (int l = 0; l < m; l++)
                t[l] = a[l] + l + q;
            for (int l = 0; l < m; l++)
                a[l] = t[(l + 1) % m];
        }
    if (mode == 1) {
        for (int l = 0; l < m; l++)
            t[l] = a[l] + (l % 3 + 1) * g[l];
        for (int l = 0; l < m; l++)
            a[l] = t[(l + 1) % m];
    } else {
        for (int l = 0; l < m; l++)
            t[l] = c1[l];
        for (int l = 0; l < m; l++)
            c1[l] = t[m - 1 - l] + t[l];
    }
    for (int l = 0; l < n; l++)
        want[g[l]] = l < m ? a[l] * 1000 + c1[l] + l + l + 3 : -1;
}

static void check_mixed(struct harness *h, cl_program program, size_t dims, const size_t *global,
                        const size_t *local, int mode, int limit)
{
    size_t gx = global[0], gy = dims > 1 ? global[1] : 1;
    size_t lx = local[0], ly = dims > 1 ? local[1] : 1, total = gx * gy;
    int *out = malloc(total * sizeof *out), *want = malloc(total * sizeof *want);
    REQUIRE(out && want);
    for (size_t y0 = 0; y0 < gy; y0 += ly)
        for (size_t x0 = 0; x0 < gx; x0 += lx)
            expect_mixed(want, gx, x0, y0, lx, ly, mode, limit);
    cl_mem d = harness_buffer(h, CL_MEM_WRITE_ONLY, total * sizeof *out, NULL);
    cl_kernel k = harness_kernel(program, "mixed");
    CHECK_OK(harness_args(k, 3, ARG(d), ARG(mode), ARG(limit)));
    CHECK_OK(clEnqueueNDRangeKernel(h->queue, k, (cl_uint)dims, NULL, global, local, 0, NULL,
                                    NULL));
    CHECK_OK(clEnqueueReadBuffer(h->queue, d, CL_TRUE, 0, total * sizeof *out, out, 0, NULL,
                                 NULL));
    size_t bad = 0;
    for (size_t i = 0; i < total; i++)
        if (out[i] != want[i] && bad++ < 3)
            HARNESS_FAIL("mixed %zux%zu mode %d limit %d: item %zu got %d want %d", lx, ly, mode,
                         limit, i, out[i], want[i]);
    CHECK(bad == 0);
    clReleaseKernel(k);
    clReleaseMemObject(d);
    free(out), free(want);
}

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

/* Runs the 1D kernel `name` over `data` in place (one int argument buffer)
 * and reads the result into out; returns the kernel for further queries. */
static cl_kernel run_in_place(struct harness *h, cl_program program, const char *name,
                              size_t global, size_t local, int *data, int *out)
{
    cl_mem d = harness_buffer(h, CL_MEM_READ_WRITE, global * sizeof *data, data);
    cl_kernel k = harness_kernel(program, name);
    CHECK_OK(clSetKernelArg(k, 0, sizeof d, &d));
    CHECK_OK(clEnqueueNDRangeKernel(h->queue, k, 1, NULL, &global, &local, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(h->queue, d, CL_TRUE, 0, global * sizeof *out, out, 0, NULL, NULL));
    clReleaseMemObject(d);
    return k;
}

static void check_reverse(struct harness *h, cl_program program, size_t global, size_t local)
{
    int *data = malloc(global * sizeof *data), *out = malloc(global * sizeof *out);
    for (size_t i = 0; i < global; i++)
        data[i] = (int)(i * 7);
    cl_kernel k = run_in_place(h, program, "reverse", global, local, data, out);
    int bad = 0;
    for (size_t i = 0; i < global; i++) {
        size_t start = i / local * local, n = global - start < local ? global - start : local;
        bad += out[i] != data[start + (n - 1 - (i - start))];
    }
    CHECK(bad == 0);
    clReleaseKernel(k);
    free(data), free(out);
}

static void check_keep_array(struct harness *h, cl_program program, size_t global, size_t local,
                             bool regions)
{
    int *data = malloc(global * sizeof *data), *out = malloc(global * sizeof *out);
    for (size_t i = 0; i < global; i++)
        data[i] = (int)(i * 3);
    cl_kernel k = run_in_place(h, program, "keep_array", global, local, data, out);
    int bad = 0;
    for (size_t i = 0; i < global; i++) {
        size_t start = i / local * local, n = global - start < local ? global - start : local;
        size_t l = i - start, mirror = start + (n - 1 - l);
        int tile = data[mirror] + (int)((n - 1 - l) % 32);
        bad += out[i] != tile + data[i] + (int)((l * 7) % 32);
    }
    CHECK(bad == 0);
    if (regions) { /* on fibers the array is on the fiber's stack, not counted */
        cl_ulong private_size = 0;
        CHECK_OK(clGetKernelWorkGroupInfo(k, h->device, CL_KERNEL_PRIVATE_MEM_SIZE,
                                          sizeof private_size, &private_size, NULL));
        CHECK(private_size >= 32 * sizeof(int));
    }
    clReleaseKernel(k);
    free(data), free(out);
}

/* taps over 75 of each 128-int row, 32 rows, three launches (the third a
 * launch copy's). */
static void check_taps(struct harness *h, cl_program program)
{
    enum { P = 128, W = 75, H = 32 };
    static int in[H * P], out[H * W];
    for (int i = 0; i < H * P; i++)
        in[i] = (i * 37) % 1001 - 500;
    cl_mem a = harness_buffer(h, CL_MEM_READ_ONLY, sizeof in, in);
    cl_mem b = harness_buffer(h, CL_MEM_WRITE_ONLY, sizeof out, NULL);
    cl_kernel k = harness_kernel(program, "taps");
    cl_int w = W;
    CHECK_OK(harness_args(k, 3, ARG(a), ARG(b), ARG(w)));
    size_t global[2] = {80, H}, local[2] = {16, 16};
    for (int launch = 0; launch < 3; launch++) {
        CHECK_OK(clEnqueueNDRangeKernel(h->queue, k, 2, NULL, global, local, 0, NULL, NULL));
        CHECK_OK(clEnqueueReadBuffer(h->queue, b, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
        int bad = 0;
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) {
                const int *r = in + y * P + x + 16;
                int want = r[0] * 2;
                for (int i = 1; i <= 3; i++)
                    want += r[-i] * i + r[i] * (4 - i);
                bad += out[y * W + x] != want;
            }
        CHECK_NONE_WRONG(bad, "taps through a private array kept across a barrier");
    }
    clReleaseKernel(k);
    clReleaseMemObject(a);
    clReleaseMemObject(b);
}

static void run_all(struct harness *h, cl_program program, bool regions)
{
    size_t locals[] = {1, 7, 64, 256, 1024};
    for (size_t i = 0; i < sizeof locals / sizeof locals[0]; i++)
        check_reduce(h, program, locals[i] * 6, locals[i]);
    check_reduce(h, program, 1000, 64); /* non-uniform: the last group has 40 */
    check_reverse(h, program, 1024, 256);
    check_reverse(h, program, 999, 128);
    check_keep_array(h, program, 1024, 256, regions);
    check_keep_array(h, program, 999, 64, regions);
    check_taps(h, program);
    check_barrier_first(h, program, 1);
    check_barrier_first(h, program, 8);
    check_barrier_first(h, program, 100);
    check_local_sum(h, program, 1);
    check_local_sum(h, program, 64);
    check_async(h, program, 1);
    check_async(h, program, 64);
    for (size_t i = 0; i < sizeof locals / sizeof locals[0]; i++)
        for (int mode = 0; mode < 2; mode++) {
            size_t global = locals[i] * 3;
            int n = (int)locals[i];
            check_mixed(h, program, 1, &global, &locals[i], mode, n);
            if (n > 3)
                check_mixed(h, program, 1, &global, &locals[i], mode, n - 3);
        }
    for (size_t i = 0; i < sizeof locals / sizeof locals[0]; i++) {
        check_uniform_loop(h, program, locals[i], (int)locals[i]);
        if (locals[i] > 3)
            check_uniform_loop(h, program, locals[i], (int)locals[i] - 3);
    }
    size_t global2[2] = {64, 8}, local2[2] = {16, 4};
    check_mixed(h, program, 2, global2, local2, 0, 64);
    check_mixed(h, program, 2, global2, local2, 1, 50);
}

/* More barriers than regions.c splits a kernel at (1024): the kernel runs
 * on fibers instead, with the same results. */
static void check_many_barriers(struct harness *h)
{
    enum { BARRIERS = 1100, LOCAL = 16 };
    size_t size = 256 + BARRIERS * 64;
    char *source = malloc(size), *p = source;
    REQUIRE(source);
    p += sprintf(p, "kernel void many(global int *out)\n{\n    local int t[%d];\n"
                    "    int l = get_local_id(0), v = l;\n", LOCAL);
    for (int i = 0; i < BARRIERS / 2; i++)
        p += sprintf(p,
                     "    t[l] = v; barrier(CLK_LOCAL_MEM_FENCE);\n"
                     "    v = t[(l + 1) %% %d] + 1; barrier(CLK_LOCAL_MEM_FENCE);\n",
                     LOCAL);
    p += sprintf(p, "    out[get_global_id(0)] = v;\n}\n");
    cl_program program = harness_build(h, source, "");
    free(source);
    REQUIRE(program);
    cl_kernel k = harness_kernel(program, "many");
    int out[2 * LOCAL];
    cl_mem d = harness_buffer(h, CL_MEM_WRITE_ONLY, sizeof out, NULL);
    CHECK_OK(harness_args(k, 1, ARG(d)));
    size_t global = 2 * LOCAL, local = LOCAL;
    CHECK_OK(clEnqueueNDRangeKernel(h->queue, k, 1, NULL, &global, &local, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(h->queue, d, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
    /* each round (two barriers) moves every value one place down and
     * adds 1 */
    int bad = 0, rounds = BARRIERS / 2;
    for (int i = 0; i < 2 * LOCAL; i++)
        bad += out[i] != (i % LOCAL + rounds) % LOCAL + rounds;
    CHECK(bad == 0);
    clReleaseKernel(k);
    clReleaseMemObject(d);
    clReleaseProgram(program);
}

/* A loop with barriers around 250 branches (a generated kernel's shape):
 * regions.c decides which of its values live across the barriers block by
 * block, and once took a time cubic in the blocks for it (about 150 s to
 * build this kernel, 15 ms since). */
static void check_branchy_loop(struct harness *h)
{
    enum { BRANCHES = 250, LOCAL = 64, ROUNDS = 3 };
    size_t size = 512 + BRANCHES * 96;
    char *source = malloc(size), *p = source;
    REQUIRE(source);
    p += sprintf(p,
                 "kernel void branchy(global float *out, global const float *in, int m)\n{\n"
                 "    local float t[%d];\n    int l = get_local_id(0);\n    float s = 0;\n"
                 "    for (int k = 0; k < m; k++) {\n"
                 "        t[l] = in[k * %d + l];\n        barrier(CLK_LOCAL_MEM_FENCE);\n",
                 LOCAL, LOCAL);
    for (int i = 0; i < BRANCHES; i++)
        p += sprintf(
            p, "        if (t[(l + %d) %% %d] > %d.0f) s += t[(l * %d) %% %d]; else s -= %d.0f;\n",
            i, LOCAL, i % 7, i % 5 + 1, LOCAL, i % 3);
    p += sprintf(p, "        barrier(CLK_LOCAL_MEM_FENCE);\n    }\n"
                    "    out[get_global_id(0)] = s;\n}\n");
    cl_program program = harness_build(h, source, "");
    free(source);
    REQUIRE(program);
    cl_kernel k = harness_kernel(program, "branchy");
    float in[ROUNDS * LOCAL], out[2 * LOCAL];
    for (int i = 0; i < ROUNDS * LOCAL; i++)
        in[i] = (float)((i * 5) % 9);
    cl_mem d = harness_buffer(h, CL_MEM_WRITE_ONLY, sizeof out, NULL);
    cl_mem src = harness_buffer(h, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof in, in);
    cl_int m = ROUNDS;
    CHECK_OK(harness_args(k, 3, ARG(d), ARG(src), ARG(m)));
    size_t global = 2 * LOCAL, local = LOCAL;
    CHECK_OK(clEnqueueNDRangeKernel(h->queue, k, 1, NULL, &global, &local, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(h->queue, d, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
    int bad = 0;
    for (int g = 0; g < 2 * LOCAL; g++) {
        int l = g % LOCAL;
        float s = 0; /* small integers: exact in any order */
        for (int r = 0; r < ROUNDS; r++)
            for (int i = 0; i < BRANCHES; i++) {
                if (in[r * LOCAL + (l + i) % LOCAL] > (float)(i % 7))
                    s += in[r * LOCAL + (l * (i % 5 + 1)) % LOCAL];
                else
                    s -= (float)(i % 3);
            }
        bad += out[g] != s;
    }
    CHECK(bad == 0);
    clReleaseKernel(k);
    clReleaseMemObject(d), clReleaseMemObject(src);
    clReleaseProgram(program);
}

int main(void)
{
    struct harness h = harness_open();
    /* Both ways of running barriers (src/compiler/README.md): regions, the
     * default, with each region's loops inlined into the work-group
     * function, then in functions of their own (as for a kernel of many
     * barriers), then fibers; chosen at build time. */
    for (int way = 0; way < 3; way++) {
        if (way == 1)
            setenv("CPUCL_REGION_FUNCTIONS", "0", 1);
        if (way == 2)
            setenv("CPUCL_BARRIERS", "fibers", 1);
        cl_program program = harness_build(&h, source, "-cl-std=CL2.0");
        REQUIRE(program);
        run_all(&h, program, way < 2);
        clReleaseProgram(program);
    }
    unsetenv("CPUCL_BARRIERS");
    unsetenv("CPUCL_REGION_FUNCTIONS");
    check_many_barriers(&h);
    check_branchy_loop(&h);
    harness_close(&h);
    return harness_finish();
}
