/* test_item_order.c - kernels whose work-items reach the same memory twice
 * in one work-item's code, in an order the loop vectorizer's interleaved
 * groups would break if they trusted the work-item loops' parallel mark
 * (src/compiler/item_order.cpp), and a complex product whose per-work-item
 * arrays live across barriers (src/compiler/context_scopes.c):
 * - reload: reads p[2x + 1], writes p[2x], writes q[x] (which may be p as
 *   far as the compiler knows), reads p[2x] back: it must see its write;
 * - sink: writes p[2x], reads it back through q (the same buffer, passed
 *   twice), writes p[2x + 1] from it: the read must come after the write;
 * - tiles: C = A B for complex float2 matrices in 16 x 8 groups, each
 *   work-item keeping one A value, two B values and two sums in private
 *   arrays across the tile loop's barriers (CLBlast's XgemmDirect reduced:
 *   its sums came out wrong when the loop over a tile was unrolled).
 * - random: 120 straight-line kernels drawn from a fixed seed, each a
 *   work-item's mix of loads and stores to its own S elements of p and q
 *   (one buffer passed twice, or two), in the order the host replays them
 *   (the twentieth session's first library computes 8 of these 120 wrong;
 *   PoCL 3.1, 9 of 200 such kernels), then 60 more that also use a private
 *   array, a barrier and a loop around it all (regions, loop barriers,
 *   unrolled loops: the context arrays' alias scopes), and 60 with each
 *   operation also under a guard on x or repeated x & 3 times (narrowing,
 *   divergent loops).
 * Every result is computed on the host and compared exactly (small
 * integers in float). */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "../harness.h"

static const char *source =
    "kernel void reload(global float *p, global float *q, global float *out)\n"
    "{\n"
    "    int x = get_global_id(0);\n"
    "    float b = p[2 * x + 1];\n"
    "    p[2 * x] = b * 2.0f;\n"
    "    q[x] = 7.0f;\n"
    "    float a = p[2 * x];\n"
    "    out[x] = a + b;\n"
    "}\n"
    "kernel void sink(global float *p, global const float *q)\n"
    "{\n"
    "    int x = get_global_id(0);\n"
    "    p[2 * x] = (float)(3 * x);\n"
    "    float t = q[2 * x];\n"
    "    p[2 * x + 1] = t + 1.0f;\n"
    "}\n"
    "#define MulReal(a, b) (a.x * b.x - a.y * b.y)\n"
    "#define MulImag(a, b) (a.x * b.y + a.y * b.x)\n"
    "__attribute__((reqd_work_group_size(16, 8, 1)))\n"
    "kernel void tiles(int n, global const float2 *a, global const float2 *b, global float2 *c)\n"
    "{\n"
    "    local float2 al[16 * 17], bl[16 * 17];\n"
    "    float2 ap[1], bp[2], cp[2];\n"
    "    for (int j = 0; j < 2; j++)\n"
    "        cp[j] = (float2)(0.0f, 0.0f);\n"
    "    int l0 = get_local_id(0), l1 = get_local_id(1);\n"
    "    int m = l0 + get_group_id(0) * 16, col = 2 * l1 + get_group_id(1) * 16;\n"
    "    for (int kt = 0; kt < n; kt += 16) {\n"
    "        for (int k = 0; k < 2; k++) {\n"
    "            int kg = k + 2 * l1;\n"
    "            al[kg * 17 + l0] = a[(kt + kg) * n + m];\n"
    "            bl[kg * 17 + l0] = b[(kt + kg) * n + l0 + get_group_id(1) * 16];\n"
    "        }\n"
    "        barrier(CLK_LOCAL_MEM_FENCE);\n"
    "        for (int kg = 0; kg < 16; kg++) {\n"
    "            for (int i = 0; i < 1; i++)\n"
    "                ap[i] = al[kg * 17 + i + l0];\n"
    "            for (int j = 0; j < 2; j++)\n"
    "                bp[j] = bl[kg * 17 + j + 2 * l1];\n"
    "            for (int j = 0; j < 2; j++)\n"
    "                for (int i = 0; i < 1; i++) {\n"
    "                    cp[j].x += MulReal(ap[i], bp[j]);\n"
    "                    cp[j].y += MulImag(ap[i], bp[j]);\n"
    "                }\n"
    "        }\n"
    "        barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    }\n"
    "    for (int j = 0; j < 2; j++)\n"
    "        c[(col + j) * n + m] = cp[j];\n"
    "}\n";

enum { ITEMS = 1000, N = 64 };

static void test_reload(struct harness *h, cl_program program, const size_t *local)
{
    static float p[2 * ITEMS], out[ITEMS];
    for (int i = 0; i < 2 * ITEMS; i++)
        p[i] = (float)i;
    cl_mem pb = harness_buffer(h, CL_MEM_READ_WRITE, sizeof p, p);
    cl_mem qb = harness_buffer(h, CL_MEM_READ_WRITE, ITEMS * sizeof(float), NULL);
    cl_mem ob = harness_buffer(h, CL_MEM_WRITE_ONLY, sizeof out, NULL);
    cl_kernel kernel = harness_kernel(program, "reload");
    CHECK_OK(harness_args(kernel, 3, ARG(pb), ARG(qb), ARG(ob)));
    size_t global = ITEMS;
    CHECK_OK(clEnqueueNDRangeKernel(h->queue, kernel, 1, NULL, &global, local, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(h->queue, ob, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
    long bad = 0;
    for (int x = 0; x < ITEMS; x++)
        bad += out[x] != 3.0f * (float)(2 * x + 1);
    CHECK_NONE_WRONG(bad, local ? "reload, local size given" : "reload, driver's local size");
    clReleaseKernel(kernel);
    clReleaseMemObject(pb), clReleaseMemObject(qb), clReleaseMemObject(ob);
}

static void test_sink(struct harness *h, cl_program program, const size_t *local)
{
    static float p[2 * ITEMS];
    for (int i = 0; i < 2 * ITEMS; i++)
        p[i] = -1.0f;
    cl_mem pb = harness_buffer(h, CL_MEM_READ_WRITE, sizeof p, p);
    cl_kernel kernel = harness_kernel(program, "sink");
    CHECK_OK(harness_args(kernel, 2, ARG(pb), ARG(pb)));
    size_t global = ITEMS;
    CHECK_OK(clEnqueueNDRangeKernel(h->queue, kernel, 1, NULL, &global, local, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(h->queue, pb, CL_TRUE, 0, sizeof p, p, 0, NULL, NULL));
    long bad = 0;
    for (int x = 0; x < ITEMS; x++)
        bad += p[2 * x] != (float)(3 * x) || p[2 * x + 1] != (float)(3 * x + 1);
    CHECK_NONE_WRONG(bad, local ? "sink, local size given" : "sink, driver's local size");
    clReleaseKernel(kernel);
    clReleaseMemObject(pb);
}

static void test_tiles(struct harness *h, cl_program program, int launches)
{
    /* column-major n x n complex matrices of small integers */
    static float a[2 * N * N], b[2 * N * N], c[2 * N * N], want[2 * N * N];
    for (int i = 0; i < 2 * N * N; i++) {
        a[i] = (float)((i * 7 + 3) % 9) - 4.0f;
        b[i] = (float)((i * 5 + 1) % 7) - 3.0f;
    }
    for (int col = 0; col < N; col++)
        for (int m = 0; m < N; m++) {
            float re = 0.0f, im = 0.0f;
            for (int k = 0; k < N; k++) {
                const float *x = &a[2 * (k * N + m)], *y = &b[2 * (col * N + k)];
                re += x[0] * y[0] - x[1] * y[1];
                im += x[0] * y[1] + x[1] * y[0];
            }
            want[2 * (col * N + m)] = re, want[2 * (col * N + m) + 1] = im;
        }
    /* b is read as bl[kg][l0] = b[(kt + kg) * n + ...]: the kernel's B is
     * the transpose of the host's, so pass it transposed */
    static float bt[2 * N * N];
    for (int col = 0; col < N; col++)
        for (int k = 0; k < N; k++)
            memcpy(&bt[2 * (k * N + col)], &b[2 * (col * N + k)], 2 * sizeof(float));
    cl_mem ab = harness_buffer(h, CL_MEM_READ_ONLY, sizeof a, a);
    cl_mem bb = harness_buffer(h, CL_MEM_READ_ONLY, sizeof bt, bt);
    cl_mem cb = harness_buffer(h, CL_MEM_WRITE_ONLY, sizeof c, NULL);
    cl_kernel kernel = harness_kernel(program, "tiles");
    cl_int n = N;
    CHECK_OK(harness_args(kernel, 4, ARG(n), ARG(ab), ARG(bb), ARG(cb)));
    size_t global[2] = {N, N / 2}, local[2] = {16, 8};
    for (int l = 0; l < launches; l++) {
        memset(c, 0, sizeof c);
        CHECK_OK(clEnqueueWriteBuffer(h->queue, cb, CL_TRUE, 0, sizeof c, c, 0, NULL, NULL));
        CHECK_OK(clEnqueueNDRangeKernel(h->queue, kernel, 2, NULL, global, local, 0, NULL, NULL));
        CHECK_OK(clEnqueueReadBuffer(h->queue, cb, CL_TRUE, 0, sizeof c, c, 0, NULL, NULL));
        long bad = 0;
        for (int i = 0; i < 2 * N * N; i++)
            if (c[i] != want[i] && bad++ < 3)
                fprintf(stderr, "tiles: element %d is %g, not %g\n", i, c[i], want[i]);
        CHECK_NONE_WRONG(bad, "tiles");
    }
    clReleaseKernel(kernel);
    clReleaseMemObject(ab), clReleaseMemObject(bb), clReleaseMemObject(cb);
}

/* --- random kernels --- */

enum { RANDOM_ITEMS = 512, MAX_OPS = 12, TEMPS = 6, PRIVATES = 4 };

enum kind { LOAD, STORE, PRIVATE_STORE, PRIVATE_LOAD };

/* what runs an operation: always, under a condition on x, or (x & 3) times */
enum guard { ALWAYS, THIRD, LOW, MIDDLE, REPEAT, GUARDS };

struct op {
    enum kind kind;
    enum guard guard;
    bool on_q;
    int offset, temp, a, b, c;
};

/* A random kernel: `count` operations on the work-item's own `stride`
 * elements of p and q (alias: one buffer passed as both), with private
 * mode also on a private array, a barrier before operation `barrier_at`
 * and a loop of `trips` around them all (a constant, or the argument n);
 * guarded, each operation under a guard. */
struct shape {
    int stride, count, barrier_at, trips;
    bool alias, private_mode, guarded, loop, trips_known;
    struct op ops[MAX_OPS];
};

static unsigned random_state;

static unsigned next_random(unsigned below)
{
    random_state = random_state * 1103515245u + 12345u;
    return ((random_state >> 16) & 0x7fff) % below;
}

#define EMIT(...) (n += (size_t)snprintf(source + n, size - n, __VA_ARGS__))

static void draw_kernel(unsigned seed, bool private_mode, bool guarded, struct shape *k,
                        char *source, size_t size)
{
    static const char *guards[GUARDS] = {"", "if (x % 3 == 1) ", "if (x < 200) ",
                                         "if (x > 7 && x < 500) ",
                                         "for (int m = 0; m < (x & 3); m++) "};
    random_state = seed * 7919u + (guarded ? 1u : 0u);
    k->stride = 2 + (int)next_random(3);
    k->count = 4 + (int)next_random(MAX_OPS - 3);
    k->alias = next_random(2);
    k->private_mode = private_mode;
    k->guarded = guarded;
    k->barrier_at = private_mode ? (int)next_random(MAX_OPS) : -1;
    k->loop = private_mode && next_random(3) != 0;
    k->trips_known = next_random(2);
    k->trips = k->loop ? 1 + (int)next_random(3) : 1;
    size_t n = 0;
    EMIT("kernel void k(global float *p, global float *q, global float *out, int n)\n"
         "{\n    int x = get_global_id(0);\n"
         "    float t0 = 1, t1 = 2, t2 = 3, t3 = 4, t4 = 5, t5 = 6;\n"
         "    float a[4] = {7, 8, 9, 10};\n");
    if (k->loop)
        k->trips_known ? EMIT("    for (int r = 0; r < %d; r++) {\n", k->trips)
                       : EMIT("    for (int r = 0; r < n; r++) {\n");
    for (int i = 0; i < k->count; i++) {
        struct op *o = &k->ops[i];
        o->kind = (enum kind)next_random(private_mode ? 4 : 2);
        o->on_q = next_random(2);
        o->offset = (int)next_random((unsigned)k->stride);
        o->temp = (int)next_random(TEMPS), o->a = (int)next_random(TEMPS);
        o->b = (int)next_random(TEMPS), o->c = (int)next_random(7);
        o->guard = guarded ? (enum guard)next_random(GUARDS) : ALWAYS;
        const char *buffer = o->on_q ? "q" : "p";
        if (i == k->barrier_at)
            EMIT("    barrier(CLK_LOCAL_MEM_FENCE);\n");
        EMIT("%s", guards[o->guard]);
        switch (o->kind) {
        case LOAD:
            EMIT("    t%d = %s[%d * x + %d];\n", o->temp, buffer, k->stride, o->offset);
            break;
        case STORE:
            EMIT("    %s[%d * x + %d] = t%d * 2 + t%d + %d;\n", buffer, k->stride, o->offset, o->a,
                 o->b, o->c);
            break;
        case PRIVATE_STORE: EMIT("    a[%d] = t%d + t%d * 3;\n", o->offset, o->a, o->b); break;
        case PRIVATE_LOAD: EMIT("    t%d = a[%d];\n", o->temp, o->offset); break;
        }
    }
    if (k->loop)
        EMIT("    }\n");
    for (int j = 0; j < TEMPS; j++)
        EMIT("    out[%d * x + %d] = t%d + a[%d];\n", TEMPS, j, j, j % PRIVATES);
    EMIT("}\n");
}

static int times(enum guard guard, int x)
{
    switch (guard) {
    case THIRD: return x % 3 == 1;
    case LOW: return x < 200;
    case MIDDLE: return x > 7 && x < 500;
    case REPEAT: return x & 3;
    default: return 1;
    }
}

/* What each work-item computes, in the kernel's order. */
static void replay(const struct shape *k, float *p, float *q, float *out)
{
    for (int x = 0; x < RANDOM_ITEMS; x++) {
        float t[TEMPS] = {1, 2, 3, 4, 5, 6}, a[PRIVATES] = {7, 8, 9, 10};
        for (int r = 0; r < k->trips; r++)
            for (int i = 0; i < k->count; i++) {
                const struct op *o = &k->ops[i];
                float *b = o->on_q && !k->alias ? q : p;
                for (int m = times(o->guard, x); m > 0; m--)
                    switch (o->kind) {
                    case LOAD: t[o->temp] = b[k->stride * x + o->offset]; break;
                    case STORE:
                        b[k->stride * x + o->offset] = t[o->a] * 2 + t[o->b] + (float)o->c;
                        break;
                    case PRIVATE_STORE: a[o->offset] = t[o->a] + t[o->b] * 3; break;
                    case PRIVATE_LOAD: t[o->temp] = a[o->offset]; break;
                    }
            }
        for (int j = 0; j < TEMPS; j++)
            out[TEMPS * x + j] = t[j] + a[j % PRIVATES];
    }
}

static void test_random(struct harness *h, unsigned seed, bool private_mode, bool guarded)
{
    char source[4096];
    struct shape k;
    draw_kernel(seed, private_mode, guarded, &k, source, sizeof source);
    static float p[4 * RANDOM_ITEMS], q[4 * RANDOM_ITEMS], out[TEMPS * RANDOM_ITEMS];
    static float want_p[4 * RANDOM_ITEMS], want_q[4 * RANDOM_ITEMS], want[TEMPS * RANDOM_ITEMS];
    for (int i = 0; i < 4 * RANDOM_ITEMS; i++) {
        p[i] = want_p[i] = (float)(i % 13);
        q[i] = want_q[i] = (float)(i % 11 + 100);
    }
    replay(&k, want_p, want_q, want);
    cl_program program = harness_build(h, source, "-cl-std=CL2.0");
    REQUIRE(program);
    cl_kernel kernel = harness_kernel(program, "k");
    cl_mem pb = harness_buffer(h, CL_MEM_READ_WRITE, sizeof p, p);
    cl_mem qb = harness_buffer(h, CL_MEM_READ_WRITE, sizeof q, q);
    cl_mem ob = harness_buffer(h, CL_MEM_WRITE_ONLY, sizeof out, NULL);
    cl_mem second = k.alias ? pb : qb;
    cl_int trips = k.trips;
    CHECK_OK(harness_args(kernel, 4, ARG(pb), ARG(second), ARG(ob), ARG(trips)));
    size_t global = RANDOM_ITEMS, local = seed % 3 == 0 ? 1 : 64;
    CHECK_OK(clEnqueueNDRangeKernel(h->queue, kernel, 1, NULL, &global, &local, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(h->queue, ob, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(h->queue, pb, CL_TRUE, 0, sizeof p, p, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(h->queue, qb, CL_TRUE, 0, sizeof q, q, 0, NULL, NULL));
    bool right = !memcmp(out, want, sizeof out) && !memcmp(p, want_p, sizeof p) &&
                 (k.alias || !memcmp(q, want_q, sizeof q));
    if (!right)
        fprintf(stderr, "random kernel %u (p and q %s) computes wrong results:\n%s", seed,
                k.alias ? "one buffer" : "two buffers", source);
    CHECK(right);
    clReleaseKernel(kernel);
    clReleaseProgram(program);
    clReleaseMemObject(pb), clReleaseMemObject(qb), clReleaseMemObject(ob);
}

int main(void)
{
    struct harness h = harness_open();
    cl_program program = harness_build(&h, source, "-cl-std=CL2.0");
    REQUIRE(program);
    static const size_t locals[] = {1, 8, 64, 200};
    for (int l = -1; l < (int)(sizeof locals / sizeof locals[0]); l++) {
        const size_t *local = l < 0 ? NULL : &locals[l];
        test_reload(&h, program, local);
        test_sink(&h, program, local);
    }
    /* the third launch runs a launch copy (codegen.c) */
    test_tiles(&h, program, 4);
    for (unsigned seed = 1; seed <= 120; seed++)
        test_random(&h, seed, false, false);
    for (unsigned seed = 1; seed <= 60; seed++)
        test_random(&h, seed, true, false);
    for (unsigned seed = 1; seed <= 60; seed++)
        test_random(&h, seed, true, true);
    clReleaseProgram(program);
    harness_close(&h);
    return harness_finish();
}
