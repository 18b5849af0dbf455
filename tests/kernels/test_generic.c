/* test_generic.c - the generic address space (OpenCL C 2.0, 6.5.5):
 * to_global, to_local, to_private and get_fence on pointers into global,
 * local and private memory, in a kernel without barriers, one split at a
 * barrier (private values kept across it) and one run on fibers. */
#include "../harness.h"

#define BODY                                                                                       \
    "    generic int *p = which == 0 ? (generic int *)g : which == 1 ? (generic int *)l\n"        \
    "                   : (generic int *)priv;\n"                                                  \
    "    int r = 0;\n"                                                                             \
    "    global int *pg = to_global(p);\n"                                                         \
    "    local int *pl = to_local(p);\n"                                                           \
    "    private int *pp = to_private(p);\n"                                                       \
    "    r |= pg ? 1 : 0;\n"                                                                       \
    "    r |= pl ? 2 : 0;\n"                                                                       \
    "    r |= pp ? 4 : 0;\n"                                                                       \
    "    if (pg) r |= (*pg == 10 + (int)i) << 3;\n"                                                \
    "    if (pl) r |= (*pl == 20 + (int)i) << 3;\n"                                                \
    "    if (pp) r |= (pp[1] == 31 + (int)i) << 3;\n"                                              \
    "    cl_mem_fence_flags f = get_fence(p);\n"                                                   \
    "    r |= (f == CLK_GLOBAL_MEM_FENCE) << 4;\n"                                                 \
    "    r |= (f == CLK_LOCAL_MEM_FENCE) << 5;\n"

static const char *source =
    "kernel void plain(global int *g, local int *l, global int *out, int which)\n"
    "{\n"
    "    size_t i = get_global_id(0), li = get_local_id(0);\n"
    "    int priv[4] = {30 + (int)i, 31 + (int)i, 32, 33};\n"
    "    g += i; l += li; *l = 20 + (int)i;\n" /* each item its own slot: no barrier needed */
    BODY
    "    out[i] = r;\n"
    "}\n"
    "kernel void split(global int *g, local int *l, global int *out, int which)\n"
    "{\n"
    "    size_t i = get_global_id(0), li = get_local_id(0);\n"
    "    int priv[4] = {30 + (int)i, 31 + (int)i, 32, 33};\n"
    "    l[li] = 20 + (int)i;\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n" /* priv lives across the barrier */
    "    g += i; l += li;\n"
    BODY
    "    out[i] = r;\n"
    "}\n";

static void check(struct harness *h, cl_program program, const char *name, int which)
{
    enum { N = 64, LOCAL = 16 };
    int g[N], out[N];
    for (int i = 0; i < N; i++)
        g[i] = 10 + i;
    cl_mem dg = harness_buffer(h, CL_MEM_READ_ONLY, sizeof g, g);
    cl_mem dout = harness_buffer(h, CL_MEM_WRITE_ONLY, sizeof out, NULL);
    cl_kernel k = harness_kernel(program, name);
    CHECK_OK(harness_args(k, 4, ARG(dg), sizeof(int) * LOCAL, NULL, ARG(dout), ARG(which)));
    size_t global = N, local = LOCAL;
    CHECK_OK(clEnqueueNDRangeKernel(h->queue, k, 1, NULL, &global, &local, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(h->queue, dout, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
    /* the one conversion that succeeds, the value through it, the fence */
    static const int want[3] = {1 | 8 | 16, 2 | 8 | 32, 4 | 8};
    int bad = 0;
    for (int i = 0; i < N; i++)
        if (out[i] != want[which] && bad++ < 3)
            HARNESS_FAIL("%s, pointer to %s memory: item %d got %#x want %#x", name,
                         which == 0 ? "global" : which == 1 ? "local" : "private", i, out[i],
                         want[which]);
    CHECK(bad == 0);
    clReleaseKernel(k);
    clReleaseMemObject(dg), clReleaseMemObject(dout);
}

int main(void)
{
    struct harness h = harness_open();
    for (int fibers = 0; fibers < 2; fibers++) {
        if (fibers)
            setenv("CPUCL_BARRIERS", "fibers", 1);
        cl_program program = harness_build(&h, source, "-cl-std=CL2.0");
        REQUIRE(program);
        for (int which = 0; which < 3; which++) {
            if (!fibers)
                check(&h, program, "plain", which);
            check(&h, program, "split", which);
        }
        clReleaseProgram(program);
    }
    unsetenv("CPUCL_BARRIERS");
    harness_close(&h);
    return harness_finish();
}
