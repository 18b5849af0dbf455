/* test_atomics.c - work-items of all workers updating the same memory
 * (OpenCL C 6.13.11, 6.13.11 of 2.0): 1.x atomic functions on global and
 * local ints (counts, unique tickets, min/max, cmpxchg), OpenCL C 2.0
 * atomic_fetch_add on atomic_int and atomic_long, and 2.0 program-scope
 * variables that keep their value from one launch to the next. */
#include "../harness.h"

static const char *source =
    "kernel void count(global int *counter, global uint *tickets)\n"
    "{\n"
    "    int ticket = atomic_inc(&counter[0]);\n"
    "    tickets[get_global_id(0)] = ticket;\n"
    "    atomic_add(&counter[1], (int)(get_global_id(0) % 7));\n"
    "    atomic_min(&counter[2], (int)get_global_id(0) - 1000);\n"
    "    atomic_max(&counter[3], (int)get_global_id(0));\n"
    "    atomic_or(&counter[4], 1 << (get_global_id(0) % 31));\n"
    "    atomic_xor(&counter[5], (int)get_global_id(0));\n"
    "    int old;\n"
    "    do { old = counter[6]; } while (atomic_cmpxchg(&counter[6], old, old + 2) != old);\n"
    "}\n"
    "kernel void local_count(global int *per_group)\n"
    "{\n"
    "    local int hits;\n"
    "    if (get_local_id(0) == 0) hits = 0;\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    atomic_add(&hits, (int)get_local_id(0) + 1);\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    if (get_local_id(0) == 0) per_group[get_group_id(0)] = hits;\n"
    "}\n"
    /* A histogram through local atomics: neighbouring work-items hit the
     * same bins, so the work-item loop must not run them as SIMD lanes. */
    "kernel void local_histogram(global const uchar *in, global uint *bins)\n"
    "{\n"
    "    local uint h[16];\n"
    "    size_t l = get_local_id(0);\n"
    "    if (l < 16) h[l] = 0;\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    atomic_inc(&h[in[get_global_id(0)] % 16]);\n"
    "    atom_add(&h[(l * 7) % 16], 2u);\n"
    "    atomic_max(&h[0], (uint)l);\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    if (l < 16) atomic_add(&bins[l], h[l]);\n"
    "}\n";

static const char *source20 =
    "kernel void c11(global atomic_int *i, global atomic_long *l)\n"
    "{\n"
    "    atomic_fetch_add_explicit(i, 3, memory_order_relaxed, memory_scope_device);\n"
    "    atomic_fetch_add(l, (long)get_global_id(0) << 20);\n"
    "}\n"
    "global int launches = 100;\n"
    "global int history[8];\n"
    "kernel void remember(global int *out)\n"
    "{\n"
    "    int n = launches++;\n"
    "    history[n % 8] = n;\n"
    "    out[0] = n; out[1] = history[(n + 7) % 8];\n"
    "}\n";

static void test_global(struct harness *h, cl_program program)
{
    enum { N = 200003 };
    cl_int counters[7] = {0, 0, 1 << 30, -(1 << 30), 0, 0, 0};
    cl_mem dc = harness_buffer(h, CL_MEM_READ_WRITE, sizeof counters, counters);
    cl_mem dt = harness_buffer(h, CL_MEM_READ_WRITE, N * 4, NULL);
    cl_kernel k = harness_kernel(program, "count");
    CHECK_OK(harness_args(k, 2, ARG(dc), ARG(dt)));
    size_t global = N;
    CHECK_OK(clEnqueueNDRangeKernel(h->queue, k, 1, NULL, &global, NULL, 0, NULL, NULL));
    cl_uint *tickets = malloc(N * 4);
    unsigned char *seen = calloc(N, 1);
    CHECK_OK(
        clEnqueueReadBuffer(h->queue, dc, CL_TRUE, 0, sizeof counters, counters, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(h->queue, dt, CL_TRUE, 0, N * 4, tickets, 0, NULL, NULL));
    long long sum = 0;
    int xor_all = 0;
    for (int i = 0; i < N; i++)
        sum += i % 7, xor_all ^= i;
    CHECK_EQ(counters[0], N);
    CHECK_EQ(counters[1], sum);
    CHECK_EQ(counters[2], -1000);
    CHECK_EQ(counters[3], N - 1);
    CHECK_EQ(counters[4], 0x7fffffff);
    CHECK_EQ(counters[5], xor_all);
    CHECK_EQ(counters[6], 2 * N);
    /* atomic_inc gave every work-item its own ticket. */
    long bad = 0;
    for (int i = 0; i < N; i++) {
        if (tickets[i] >= (cl_uint)N || seen[tickets[i]])
            bad++;
        else
            seen[tickets[i]] = 1;
    }
    CHECK_NONE_WRONG(bad, "unique tickets");
    free(tickets), free(seen);
    clReleaseKernel(k);
    clReleaseMemObject(dc), clReleaseMemObject(dt);
}

static void test_local(struct harness *h, cl_program program)
{
    enum { GROUPS = 300, LOCAL = 64 };
    cl_mem d = harness_buffer(h, CL_MEM_READ_WRITE, GROUPS * 4, NULL);
    cl_kernel k = harness_kernel(program, "local_count");
    CHECK_OK(clSetKernelArg(k, 0, sizeof d, &d));
    size_t global = GROUPS * LOCAL, local = LOCAL;
    CHECK_OK(clEnqueueNDRangeKernel(h->queue, k, 1, NULL, &global, &local, 0, NULL, NULL));
    cl_int per_group[GROUPS];
    CHECK_OK(
        clEnqueueReadBuffer(h->queue, d, CL_TRUE, 0, sizeof per_group, per_group, 0, NULL, NULL));
    long bad = 0;
    for (int g = 0; g < GROUPS; g++)
        bad += per_group[g] != LOCAL * (LOCAL + 1) / 2;
    CHECK_NONE_WRONG(bad, "local atomics");
    clReleaseKernel(k);
    clReleaseMemObject(d);
}

static void test_local_histogram(struct harness *h, cl_program program)
{
    enum { GROUPS = 40, LOCAL = 128, N = GROUPS * LOCAL };
    static cl_uchar in[N];
    cl_uint want[16] = {0}, bins[16];
    for (int i = 0; i < N; i++)
        in[i] = (cl_uchar)((i * 37 + i / 5) % 251);
    for (int g = 0; g < GROUPS; g++) {
        cl_uint h[16] = {0};
        for (int l = 0; l < LOCAL; l++) {
            h[in[g * LOCAL + l] % 16]++;
            h[(l * 7) % 16] += 2;
            h[0] = h[0] > (cl_uint)l ? h[0] : (cl_uint)l;
        }
        for (int b = 0; b < 16; b++)
            want[b] += h[b];
    }
    cl_mem din = harness_buffer(h, CL_MEM_READ_ONLY, sizeof in, in);
    cl_mem dbins = harness_buffer(h, CL_MEM_READ_WRITE, sizeof bins, NULL);
    cl_uint zero = 0;
    CHECK_OK(clEnqueueFillBuffer(h->queue, dbins, &zero, sizeof zero, 0, sizeof bins, 0, NULL,
                                 NULL));
    cl_kernel k = harness_kernel(program, "local_histogram");
    CHECK_OK(harness_args(k, 2, ARG(din), ARG(dbins)));
    size_t global = N, local = LOCAL;
    CHECK_OK(clEnqueueNDRangeKernel(h->queue, k, 1, NULL, &global, &local, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(h->queue, dbins, CL_TRUE, 0, sizeof bins, bins, 0, NULL, NULL));
    CHECK(!memcmp(bins, want, sizeof bins));
    clReleaseKernel(k);
    clReleaseMemObject(din), clReleaseMemObject(dbins);
}

static void test_c11_and_globals(struct harness *h)
{
    cl_program program = harness_build(h, source20, "-cl-std=CL2.0");
    CHECK(program != NULL);
    if (!program)
        return;
    enum { N = 100000 };
    cl_int i = 5;
    cl_long l = 0;
    cl_mem di = harness_buffer(h, CL_MEM_READ_WRITE, sizeof i, &i);
    cl_mem dl = harness_buffer(h, CL_MEM_READ_WRITE, sizeof l, &l);
    cl_kernel k = harness_kernel(program, "c11");
    CHECK_OK(harness_args(k, 2, ARG(di), ARG(dl)));
    size_t global = N;
    CHECK_OK(clEnqueueNDRangeKernel(h->queue, k, 1, NULL, &global, NULL, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(h->queue, di, CL_TRUE, 0, sizeof i, &i, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(h->queue, dl, CL_TRUE, 0, sizeof l, &l, 0, NULL, NULL));
    CHECK_EQ(i, 5 + 3 * N);
    CHECK(l == ((cl_long)N * (N - 1) / 2) << 20);
    clReleaseKernel(k);
    clReleaseMemObject(di), clReleaseMemObject(dl);

    /* Program-scope variables live as long as the program: each launch
     * sees what the one before left. */
    size_t total = 0;
    CHECK_OK(clGetProgramBuildInfo(program, h->device, CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE,
                                   sizeof total, &total, NULL));
    CHECK(total >= 9 * sizeof(cl_int));
    cl_mem out = harness_buffer(h, CL_MEM_READ_WRITE, 8, NULL);
    k = harness_kernel(program, "remember");
    CHECK_OK(clSetKernelArg(k, 0, sizeof out, &out));
    cl_int got[2];
    for (int n = 0; n < 5; n++) {
        CHECK_OK(clEnqueueTask(h->queue, k, 0, NULL, NULL));
        CHECK_OK(clEnqueueReadBuffer(h->queue, out, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL));
        CHECK_EQ(got[0], 100 + n);
        CHECK_EQ(got[1], n ? 100 + n - 1 : 0);
    }
    clReleaseKernel(k);
    clReleaseMemObject(out);
    clReleaseProgram(program);
}

int main(void)
{
    struct harness h = harness_open();
    cl_program program = harness_build(&h, source, "");
    REQUIRE(program);
    test_global(&h, program);
    test_local(&h, program);
    test_local_histogram(&h, program);
    clReleaseProgram(program);
    test_c11_and_globals(&h);
    harness_close(&h);
    return harness_finish();
}
