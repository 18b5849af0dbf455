/* test_narrow.c - work-item loops narrowed by their guards
 * (src/compiler/narrow.cpp): branches on `l OP s` for every comparison,
 * on ulong, int (negative bounds and offsets too) and uint (offsets that
 * wrap, which must take the original loop), with and without barriers;
 * bounds checks `get_global_id(0) < n` with n not a multiple of the local
 * size and a global offset; tree reductions; work-items that return
 * before a barrier; compound guards, and/or of `==` and `!=` (a
 * stencil's `x == 0 || x == n - 1`), with wrapping offsets and with a
 * barrier; kept short-circuit guards in 2D (`int oob = x < p || y < p
 * || ...; if (!oob)`), also of the row alone (unswitched). Local sizes 1, 7, 64, 256 and 1024, non-uniform
 * global sizes; every result computed on the host. ctest runs it also
 * with CPUCL_NARROW=0. */
#include <stdbool.h>
#include <stdint.h>
#include "../harness.h"

#define GUARD_KERNELS(T, OPNAME, OP)                                                               \
    "kernel void " #OPNAME "_" #T "(global const int *in, global int *out, " #T " s, " #T          \
    " off)\n"                                                                                      \
    "{\n"                                                                                          \
    "    " #T " l = (" #T ")get_local_id(0) + off;\n"                                              \
    "    size_t g = get_global_id(0);\n"                                                           \
    "    if (l " #OP " s) out[g] = in[g] * 3 + (int)get_local_id(0);\n"                            \
    "}\n"                                                                                          \
    "kernel void " #OPNAME "_" #T "_barrier(global const int *in, global int *out, " #T " s, " #T  \
    " off)\n"                                                                                      \
    "{\n"                                                                                          \
    "    local int t[1024];\n"                                                                     \
    "    size_t i = get_local_id(0), n = get_local_size(0), g = get_global_id(0);\n"               \
    "    " #T " l = (" #T ")i + off;\n"                                                            \
    "    t[i] = in[g];\n"                                                                          \
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"                                                          \
    "    if (l " #OP " s) out[g] = t[n - 1 - i] * 3 + (int)i;\n"                                   \
    "}\n"

/* clang-format off */
#define GUARDS(T)                                                                                  \
    GUARD_KERNELS(T, lt, <) GUARD_KERNELS(T, le, <=) GUARD_KERNELS(T, gt, >)                       \
    GUARD_KERNELS(T, ge, >=) GUARD_KERNELS(T, eq, ==) GUARD_KERNELS(T, ne, !=)

static const char *source =
    GUARDS(ulong) GUARDS(int) GUARDS(uint)
    /* clang-format on */
    /* Bounds checks, on size_t and int global ids. */
    "kernel void bounds(global const int *in, global int *out, uint n)\n"
    "{\n"
    "    size_t g = get_global_id(0);\n"
    "    if (g < n) out[g] = in[g] * 2 + 1;\n"
    "}\n"
    "kernel void bounds_int(global const int *in, global int *out, int n)\n"
    "{\n"
    "    int g = get_global_id(0);\n"
    "    if (g < n) out[g] = in[g] * 2 + 1;\n"
    "}\n"
    "kernel void bounds_barrier(global const int *in, global int *out, uint n, local int *t)\n"
    "{\n"
    "    size_t g = get_global_id(0), i = get_local_id(0), m = get_local_size(0);\n"
    "    t[i] = g < n ? in[g] : 0;\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    if (g < n) out[g] = t[i] + 2 * t[(i + 1) % m];\n"
    "}\n"
    /* Tree reductions, size_t and int, as in the bench. */
    "kernel void reduce(global const int *in, global int *out, local int *t)\n"
    "{\n"
    "    size_t l = get_local_id(0), n = get_local_size(0);\n"
    "    t[l] = in[get_global_id(0)];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    for (size_t s = n / 2; s > 0; s /= 2) {\n"
    "        if (l < s) t[l] += t[l + s];\n"
    "        barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    }\n"
    "    if (l == 0) out[get_group_id(0)] = t[0];\n"
    "}\n"
    "kernel void reduce_int(global const int *in, global int *out, local int *t)\n"
    "{\n"
    "    int l = get_local_id(0), n = get_local_size(0);\n"
    "    t[l] = in[get_global_id(0)];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    for (int s = n / 2; s > 0; s >>= 1) {\n"
    "        if (l < s) t[l] += t[l + s];\n"
    "        barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    }\n"
    "    if (l == 0) out[get_group_id(0)] = t[0];\n"
    "}\n"
    /* Work-items at or past m return before the barrier: the region's loop
     * carries which region comes next. */
    "kernel void early(global const int *in, global int *out, int m, local int *t)\n"
    "{\n"
    "    int l = get_local_id(0);\n"
    "    size_t g = get_global_id(0);\n"
    "    if (l >= m) { out[g] = -1; return; }\n"
    "    t[l] = in[g];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    out[g] = t[m - 1 - l] + l;\n"
    "}\n"
    /* Compound guards. */
    "kernel void edges(global const int *in, global int *out, int n)\n"
    "{\n"
    "    int x = get_global_id(0);\n"
    "    if (x == 0 || x == n - 1) out[x] = in[x];\n"
    "    else out[x] = in[x - 1] + 2 * in[x] + in[x + 1];\n"
    "}\n"
    "kernel void pair(global const int *in, global int *out, uint a, uint b, uint off)\n"
    "{\n"
    "    uint l = (uint)get_local_id(0) + off;\n"
    "    size_t g = get_global_id(0);\n"
    "    if (l != a && l != b) out[g] = in[g] * 3;\n"
    "}\n"
    "kernel void inside(global const int *in, global int *out, int a, int b)\n"
    "{\n"
    "    int x = get_global_id(0);\n"
    "    if (x > a && x < b && x != b - 2) out[x] = in[x] * 5;\n"
    "}\n"
    "kernel void inside_and(global const int *in, global int *out, int a, int b)\n"
    "{\n"
    "    int x = get_global_id(0);\n"
    "    if (x >= a && x <= b) out[x] = in[x] * 5;\n"
    "}\n"
    "kernel void outside(global const int *in, global int *out, uint a, uint b, uint off)\n"
    "{\n"
    "    uint l = (uint)get_local_id(0) + off;\n"
    "    size_t g = get_global_id(0);\n"
    "    if (l < a || l > b || l != b - 1) out[g] = in[g] - 9;\n"
    "}\n"
    "kernel void outside_or(global const int *in, global int *out, uint a, uint b, uint off)\n"
    "{\n"
    "    uint l = (uint)get_local_id(0) + off;\n"
    "    size_t g = get_global_id(0);\n"
    "    if (l <= a || l >= b) out[g] = in[g] - 9;\n"
    "}\n"
    "kernel void triple_barrier(global const int *in, global int *out, int a, local int *t)\n"
    "{\n"
    "    int l = get_local_id(0), m = get_local_size(0);\n"
    "    size_t g = get_global_id(0);\n"
    "    t[l] = in[g];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    if (!(l == 0 || l == m - 1 || l == a)) out[g] = t[l - 1] - t[l + 1];\n"
    "}\n"
    /* Short-circuit guards whose value is kept, in 2D (ffmpeg's nlmeans):
     * the row's compares sit between the column's. */
    "kernel void window_or(global const int *in, global int *out, int w, int h, int p)\n"
    "{\n"
    "    int x = get_global_id(0), y = get_global_id(1);\n"
    "    int oob = x - p < 0 || y - p < 0 || y + p >= h || x + p >= w;\n"
    "    int v = x - 2 * y;\n"
    "    if (!oob) v += in[(y - p) * w + x - p] - in[(y + p) * w + x + p] + 2 * in[y * w + x];\n"
    "    out[y * w + x] = v;\n"
    "}\n"
    "kernel void window_and(global const int *in, global int *out, int w, int h, int p)\n"
    "{\n"
    "    int x = get_global_id(0), y = get_global_id(1);\n"
    "    int ok = x >= p && y >= p && y + p < h && x + p < w;\n"
    "    int v = -1;\n"
    "    if (ok) v = in[(y - p) * w + x] * 3 + in[(y + p) * w + x - p];\n"
    "    out[y * w + x] = v + ok;\n"
    "}\n"
    /* (mixed enough that LLVM's unswitching finds the loop too large) */
    "#define MIX(v) v = (v ^ (v >> 3)) * 747796405u + (uint)x\n"
    "#define MIX4(v) MIX(v); MIX(v); MIX(v); MIX(v)\n"
    "kernel void window_rows(global const int *in, global int *out, int w, int h, int p)\n"
    "{\n"
    "    int x = get_global_id(0), y = get_global_id(1);\n"
    "    int edge = y < p || y >= h - p;\n"
    "    uint v = in[y * w + x];\n"
    "    MIX4(v); MIX4(v); MIX4(v); MIX4(v); MIX4(v); MIX4(v);\n"
    "    if (!edge) v += in[(y - p) * w + x] - 3 * in[(y + p) * w + x];\n"
    "    out[y * w + x] = v;\n"
    "}\n";

enum { MAX_GLOBAL = 4 * 1024, SENTINEL = -7777 };

struct buffers {
    int in[MAX_GLOBAL], out[MAX_GLOBAL], want[MAX_GLOBAL];
    cl_mem din, dout;
};

static const char *const op_names[] = {"lt", "le", "gt", "ge", "eq", "ne"};

static bool compare_ll(int op, long long a, long long b)
{
    switch (op) {
    case 0: return a < b;
    case 1: return a <= b;
    case 2: return a > b;
    case 3: return a >= b;
    case 4: return a == b;
    default: return a != b;
    }
}

static bool compare_ull(int op, unsigned long long a, unsigned long long b)
{
    switch (op) {
    case 0: return a < b;
    case 1: return a <= b;
    case 2: return a > b;
    case 3: return a >= b;
    case 4: return a == b;
    default: return a != b;
    }
}

/* The local id of global item i and the size of its group. */
static size_t local_of(size_t i, size_t offset, size_t global, size_t local, size_t *n)
{
    size_t start = (i - offset) / local * local + offset;
    *n = global + offset - start < local ? global + offset - start : local;
    return i - start;
}

/* Launches kernel over [offset, offset + global) in groups of local with
 * out filled with SENTINEL first, reads out back and counts the items that
 * differ from want (printing the first few). */
static void launch_and_compare(struct harness *h, struct buffers *b, cl_kernel k, size_t offset,
                               size_t global, size_t local, size_t out_items, const char *what)
{
    int sentinel = SENTINEL;
    CHECK_OK(clEnqueueFillBuffer(h->queue, b->dout, &sentinel, sizeof sentinel, 0,
                                 MAX_GLOBAL * sizeof(int), 0, NULL, NULL));
    CHECK_OK(clEnqueueNDRangeKernel(h->queue, k, 1, offset ? &offset : NULL, &global, &local, 0,
                                    NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(h->queue, b->dout, CL_TRUE, 0, MAX_GLOBAL * sizeof(int), b->out, 0,
                                 NULL, NULL));
    size_t bad = 0;
    for (size_t i = 0; i < MAX_GLOBAL; i++) {
        int want = i < out_items ? b->want[i] : SENTINEL;
        if (b->out[i] != want && bad++ < 3)
            fprintf(stderr, "%s global %zu local %zu: item %zu got %d want %d\n", what, global,
                    local, i, b->out[i], want);
    }
    CHECK_NONE_WRONG(bad, what);
}

/* Every guard kernel for one type: type 0 ulong, 1 int, 2 uint. */
static void check_guards(struct harness *h, cl_program program, struct buffers *b, int type,
                         size_t global, size_t local)
{
    static const char *const types[] = {"ulong", "int", "uint"};
    long long n = (long long)local;
    long long bounds[] = {0, 1, n / 2, n - 1, n, n + 5, -3, -100000};
    /* ulong: (ulong)-2 wraps at l = 2; uint: 0xfffffff0 at l = 16 */
    long long offsets[3][3] = {{0, 3, -2}, {0, -5, 7}, {0, 5, 0xfffffff0LL}};
    unsigned num_bounds = type == 1 ? 8 : 6;
    for (int op = 0; op < 6; op++)
        for (int barrier = 0; barrier < 2; barrier++) {
            char name[64], what[160];
            snprintf(name, sizeof name, "%s_%s%s", op_names[op], types[type],
                     barrier ? "_barrier" : "");
            cl_kernel k = harness_kernel(program, name);
            for (unsigned bi = 0; bi < num_bounds; bi++)
                for (unsigned oi = 0; oi < 3; oi++) {
                    long long s = bounds[bi], off = offsets[type][oi];
                    for (size_t i = 0; i < global; i++) {
                        size_t m, l = local_of(i, 0, global, local, &m);
                        bool taken;
                        if (type == 0)
                            taken = compare_ull(op, (unsigned long long)l + (unsigned long long)off,
                                                (unsigned long long)s);
                        else if (type == 1)
                            taken = compare_ll(op, (long long)(int)l + off, s);
                        else
                            taken = compare_ull(op, (uint32_t)((uint32_t)l + (uint32_t)off),
                                                (uint32_t)s);
                        int value = barrier ? b->in[i - l + m - 1 - l] : b->in[i];
                        b->want[i] = taken ? value * 3 + (int)l : SENTINEL;
                    }
                    cl_int err;
                    if (type == 0) {
                        cl_ulong s64 = (cl_ulong)s, off64 = (cl_ulong)off;
                        err = harness_args(k, 4, ARG(b->din), ARG(b->dout), ARG(s64), ARG(off64));
                    } else {
                        cl_int s32 = (cl_int)s, off32 = (cl_int)(uint32_t)off;
                        err = harness_args(k, 4, ARG(b->din), ARG(b->dout), ARG(s32), ARG(off32));
                    }
                    CHECK_OK(err);
                    snprintf(what, sizeof what, "%s s %lld off %lld", name, s, off);
                    launch_and_compare(h, b, k, 0, global, local, global, what);
                }
            clReleaseKernel(k);
        }
}

static void check_bounds(struct harness *h, cl_program program, struct buffers *b, size_t offset,
                         size_t global, size_t local)
{
    static const char *const names[] = {"bounds", "bounds_int", "bounds_barrier"};
    size_t end = offset + global;
    size_t limits[] = {0, 1, local / 2 + 3, global / 2 + 1, end - 1, end, end + 9};
    for (int kind = 0; kind < 3; kind++) {
        cl_kernel k = harness_kernel(program, names[kind]);
        for (size_t li = 0; li < sizeof limits / sizeof limits[0]; li++) {
            cl_uint n = (cl_uint)limits[li];
            for (size_t i = 0; i < end; i++) {
                size_t m = 1, l = i < offset ? 0 : local_of(i, offset, global, local, &m);
                if (i < offset || i >= n)
                    b->want[i] = SENTINEL;
                else if (kind < 2)
                    b->want[i] = b->in[i] * 2 + 1;
                else {
                    size_t j = i - l + (l + 1) % m;
                    b->want[i] = b->in[i] + 2 * (j < n ? b->in[j] : 0);
                }
            }
            CHECK_OK(harness_args(k, 3, ARG(b->din), ARG(b->dout), ARG(n)));
            if (kind == 2)
                CHECK_OK(clSetKernelArg(k, 3, local * sizeof(int), NULL));
            char what[96];
            snprintf(what, sizeof what, "%s offset %zu n %u", names[kind], offset, n);
            launch_and_compare(h, b, k, offset, global, local, end, what);
        }
        clReleaseKernel(k);
    }
}

static void check_reduce(struct harness *h, cl_program program, struct buffers *b, const char *name,
                         size_t global, size_t local)
{
    size_t groups = (global + local - 1) / local;
    for (size_t g = 0; g < groups; g++) {
        int t[1024];
        size_t start = g * local, n = global - start < local ? global - start : local;
        for (size_t l = 0; l < n; l++)
            t[l] = b->in[start + l];
        for (size_t s = n / 2; s > 0; s /= 2)
            for (size_t l = 0; l < s; l++)
                t[l] += t[l + s];
        b->want[g] = t[0];
    }
    cl_kernel k = harness_kernel(program, name);
    CHECK_OK(harness_args(k, 2, ARG(b->din), ARG(b->dout)));
    CHECK_OK(clSetKernelArg(k, 2, local * sizeof(int), NULL));
    launch_and_compare(h, b, k, 0, global, local, groups, name);
    clReleaseKernel(k);
}

static void check_early(struct harness *h, cl_program program, struct buffers *b, size_t global,
                        size_t local)
{
    cl_kernel k = harness_kernel(program, "early");
    int limits[] = {0, 1, (int)local / 2, (int)local, -2};
    for (size_t li = 0; li < sizeof limits / sizeof limits[0]; li++) {
        int m_arg = limits[li];
        for (size_t i = 0; i < global; i++) {
            size_t n, l = local_of(i, 0, global, local, &n);
            b->want[i] =
                (int)l >= m_arg ? -1 : b->in[i - l + (size_t)(m_arg - 1 - (int)l)] + (int)l;
        }
        /* a group smaller than m would read past it: keep m within each group */
        if (global % local && m_arg > (int)(global % local))
            continue;
        CHECK_OK(harness_args(k, 3, ARG(b->din), ARG(b->dout), ARG(m_arg)));
        CHECK_OK(clSetKernelArg(k, 3, local * sizeof(int), NULL));
        char what[64];
        snprintf(what, sizeof what, "early m %d", m_arg);
        launch_and_compare(h, b, k, 0, global, local, global, what);
    }
    clReleaseKernel(k);
}

static void check_compound(struct harness *h, cl_program program, struct buffers *b,
                           size_t offset, size_t global, size_t local)
{
    size_t end = offset + global;
    cl_kernel k = harness_kernel(program, "edges");
    int limits[] = {0, 1, 2, (int)local, (int)local + 1, (int)end / 2, (int)end, (int)end + 3, -4};
    for (size_t li = 0; li < sizeof limits / sizeof limits[0]; li++) {
        int n = limits[li];
        for (size_t i = 0; i < end; i++) {
            int x = (int)i;
            b->want[i] = i < offset                   ? SENTINEL
                         : x == 0 || x == n - 1 ? b->in[i]
                                                : b->in[i - 1] + 2 * b->in[i] + b->in[i + 1];
        }
        CHECK_OK(harness_args(k, 3, ARG(b->din), ARG(b->dout), ARG(n)));
        char what[64];
        snprintf(what, sizeof what, "edges offset %zu n %d", offset, n);
        launch_and_compare(h, b, k, offset, global, local, end, what);
    }
    clReleaseKernel(k);

    k = harness_kernel(program, "pair");
    cl_uint l1 = (cl_uint)local - 1, pairs[][3] = {
        {0, l1, 0}, {3, 3, 0}, {l1 + 3, 1, 0}, {2, 0, 0}, {l1 / 2, l1 / 2 + 1, 0},
        {0xfffffff5u, 2, 0xfffffff0u}, {5, 0xffffffffu, 0xfffffffcu}, {0, 1, 0xffffffffu}};
    for (size_t pi = 0; pi < sizeof pairs / sizeof pairs[0]; pi++) {
        cl_uint a = pairs[pi][0], c = pairs[pi][1], off = pairs[pi][2];
        for (size_t i = 0; i < global; i++) {
            size_t m, l = local_of(i, 0, global, local, &m);
            cl_uint x = (cl_uint)l + off;
            b->want[i] = x != a && x != c ? b->in[i] * 3 : SENTINEL;
        }
        CHECK_OK(harness_args(k, 5, ARG(b->din), ARG(b->dout), ARG(a), ARG(c), ARG(off)));
        char what[80];
        snprintf(what, sizeof what, "pair a %u b %u off %u", a, c, off);
        launch_and_compare(h, b, k, 0, global, local, global, what);
    }
    clReleaseKernel(k);

    /* an and of order compares (and one mixing in != : not an interval) */
    const char *const ins[] = {"inside", "inside_and"};
    for (int which = 0; which < 2; which++) {
        k = harness_kernel(program, ins[which]);
        int ls = (int)local, e = (int)end;
        int ab[][2] = {{0, e - 1}, {-5, 3}, {2, ls + 3}, {ls, ls}, {e / 2, 3}, {-9, e + 9}, {1, 1}};
        for (size_t i = 0; i < sizeof ab / sizeof ab[0]; i++) {
            int a = ab[i][0], c = ab[i][1];
            for (size_t j = 0; j < end; j++) {
                int x = (int)j;
                bool taken = which ? x >= a && x <= c : x > a && x < c && x != c - 2;
                b->want[j] = j >= offset && taken ? b->in[j] * 5 : SENTINEL;
            }
            CHECK_OK(harness_args(k, 4, ARG(b->din), ARG(b->dout), ARG(a), ARG(c)));
            char what[80];
            snprintf(what, sizeof what, "%s offset %zu a %d b %d", ins[which], offset, a, c);
            launch_and_compare(h, b, k, offset, global, local, end, what);
        }
        clReleaseKernel(k);
    }

    /* an or of order compares, on uint with offsets that wrap */
    const char *const outs[] = {"outside", "outside_or"};
    for (int which = 0; which < 2; which++) {
        k = harness_kernel(program, outs[which]);
        cl_uint ab[][3] = {{1, l1 - 1, 0}, {0, l1, 0}, {3, 2, 0}, {l1 / 2, l1 / 2, 0},
                           {5, 9, 0xfffffffau}, {0xfffffff0u, 3, 0xfffffff8u}, {0, 0, 0}};
        for (size_t i = 0; i < sizeof ab / sizeof ab[0]; i++) {
            cl_uint a = ab[i][0], c = ab[i][1], off = ab[i][2];
            for (size_t j = 0; j < global; j++) {
                size_t m, l = local_of(j, 0, global, local, &m);
                cl_uint x = (cl_uint)l + off;
                bool taken = which ? x <= a || x >= c : x < a || x > c || x != c - 1;
                b->want[j] = taken ? b->in[j] - 9 : SENTINEL;
            }
            CHECK_OK(harness_args(k, 5, ARG(b->din), ARG(b->dout), ARG(a), ARG(c), ARG(off)));
            char what[96];
            snprintf(what, sizeof what, "%s a %u b %u off %u", outs[which], a, c, off);
            launch_and_compare(h, b, k, 0, global, local, global, what);
        }
        clReleaseKernel(k);
    }

    k = harness_kernel(program, "triple_barrier");
    int picks[] = {0, 1, (int)local / 2, (int)local - 2, (int)local + 4, -1};
    for (size_t pi = 0; pi < sizeof picks / sizeof picks[0]; pi++) {
        int a = picks[pi];
        for (size_t i = 0; i < global; i++) {
            size_t m, l = local_of(i, 0, global, local, &m);
            int li = (int)l, mi = (int)m;
            b->want[i] =
                li == 0 || li == mi - 1 || li == a ? SENTINEL : b->in[i - 1] - b->in[i + 1];
        }
        CHECK_OK(harness_args(k, 3, ARG(b->din), ARG(b->dout), ARG(a)));
        CHECK_OK(clSetKernelArg(k, 3, local * sizeof(int), NULL));
        char what[64];
        snprintf(what, sizeof what, "triple_barrier a %d", a);
        launch_and_compare(h, b, k, 0, global, local, global, what);
    }
    clReleaseKernel(k);
}

/* The window kernels over w x h work-items in groups of lx x ly. */
static void check_window(struct harness *h, cl_program program, struct buffers *b, int w, int ht,
                         size_t lx, size_t ly)
{
    const char *const names[] = {"window_or", "window_and", "window_rows"};
    int radii[] = {0, 1, 3, 7, ht / 2, ht};
    for (int which = 0; which < 3; which++) {
        cl_kernel k = harness_kernel(program, names[which]);
        for (size_t ri = 0; ri < sizeof radii / sizeof radii[0]; ri++) {
            int p = radii[ri];
            for (int y = 0; y < ht; y++)
                for (int x = 0; x < w; x++) {
                    bool inside = x - p >= 0 && y - p >= 0 && y + p < ht && x + p < w;
                    const int *in = b->in;
                    if (which == 2) {
                        bool edge = y < p || y >= ht - p;
                        uint32_t v = (uint32_t)in[y * w + x];
                        for (int m = 0; m < 24; m++)
                            v = (v ^ (v >> 3)) * 747796405u + (uint32_t)x;
                        if (!edge)
                            v += (uint32_t)(in[(y - p) * w + x] - 3 * in[(y + p) * w + x]);
                        b->want[y * w + x] = (int)v;
                        continue;
                    }
                    int v = which ? (inside ? in[(y - p) * w + x] * 3 + in[(y + p) * w + x - p]
                                            : -1) + inside
                                  : x - 2 * y + (inside ? in[(y - p) * w + x - p] -
                                                              in[(y + p) * w + x + p] +
                                                              2 * in[y * w + x]
                                                        : 0);
                    b->want[y * w + x] = v;
                }
            CHECK_OK(harness_args(k, 5, ARG(b->din), ARG(b->dout), ARG(w), ARG(ht), ARG(p)));
            int sentinel = SENTINEL;
            CHECK_OK(clEnqueueFillBuffer(h->queue, b->dout, &sentinel, sizeof sentinel, 0,
                                         MAX_GLOBAL * sizeof(int), 0, NULL, NULL));
            size_t global[2] = {(size_t)w, (size_t)ht}, local[2] = {lx, ly};
            CHECK_OK(clEnqueueNDRangeKernel(h->queue, k, 2, NULL, global, local, 0, NULL, NULL));
            CHECK_OK(clEnqueueReadBuffer(h->queue, b->dout, CL_TRUE, 0, MAX_GLOBAL * sizeof(int),
                                         b->out, 0, NULL, NULL));
            size_t bad = 0, items = (size_t)w * (size_t)ht;
            for (size_t i = 0; i < MAX_GLOBAL; i++) {
                int want = i < items ? b->want[i] : SENTINEL;
                if (b->out[i] != want && bad++ < 3)
                    fprintf(stderr, "%s %dx%d local %zux%zu p %d: item %zu got %d want %d\n",
                            names[which], w, ht, lx, ly, p, i, b->out[i], want);
            }
            char what[96];
            snprintf(what, sizeof what, "%s %dx%d local %zux%zu p %d", names[which], w, ht, lx, ly,
                     p);
            CHECK_NONE_WRONG(bad, what);
        }
        clReleaseKernel(k);
    }
}

int main(void)
{
    struct harness h = harness_open();
    cl_program program = harness_build(&h, source, "-cl-std=CL2.0");
    REQUIRE(program);
    struct buffers *b = calloc(1, sizeof *b);
    REQUIRE(b);
    for (size_t i = 0; i < MAX_GLOBAL; i++)
        b->in[i] = (int)(i * 7 % 101) - 50;
    b->din = harness_buffer(&h, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof b->in, b->in);
    b->dout = harness_buffer(&h, CL_MEM_READ_WRITE, sizeof b->out, NULL);

    size_t locals[] = {1, 7, 64, 256, 1024};
    for (size_t li = 0; li < sizeof locals / sizeof locals[0]; li++) {
        size_t local = locals[li];
        /* non-uniform: the last group is smaller */
        size_t uneven = 2 * local + (local > 1 ? local / 2 + 1 : 0) + (local == 1);
        for (int type = 0; type < 3; type++)
            check_guards(&h, program, b, type, uneven, local);
        check_bounds(&h, program, b, 0, uneven, local);
        check_bounds(&h, program, b, 5, 3 * local, local);
        check_reduce(&h, program, b, "reduce", 3 * local, local);
        check_reduce(&h, program, b, "reduce", uneven, local);
        check_reduce(&h, program, b, "reduce_int", uneven, local);
        check_early(&h, program, b, 3 * local, local);
        check_early(&h, program, b, uneven, local);
        check_compound(&h, program, b, 0, uneven, local);
        check_compound(&h, program, b, 3, 3 * local, local);
    }
    /* non-uniform groups in both dimensions too */
    check_window(&h, program, b, 64, 32, 16, 4);
    check_window(&h, program, b, 61, 13, 7, 3);
    check_window(&h, program, b, 200, 20, 64, 1);
    check_window(&h, program, b, 37, 50, 37, 2);
    clReleaseMemObject(b->din);
    clReleaseMemObject(b->dout);
    free(b);
    clReleaseProgram(program);
    harness_close(&h);
    return harness_finish();
}
