/* test_int64_vectors.c - 64-bit integer division, remainder and
 * conversions in work-item loops, which the compiler vectorizes and
 * computes in double when every lane of a vector is within 2^51
 * (src/compiler/int64_vectors.cpp): each result is compared with the
 * host's, for values that take that path, values around 2^51, 2^52, 2^53
 * and 2^63 that must not, and vectors mixing both; built plain and with
 * -cl-fast-relaxed-math (which must not make integer results inexact). */
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "../harness.h"

enum { N = 4096 };

static const char *source =
    "kernel void sdiv(global const long *a, global const long *b, global long *q,\n"
    "                 global long *r)\n"
    "{ size_t i = get_global_id(0); q[i] = a[i] / b[i]; r[i] = a[i] % b[i]; }\n"
    "kernel void udiv(global const ulong *a, global const ulong *b, global ulong *q,\n"
    "                 global ulong *r)\n"
    "{ size_t i = get_global_id(0); q[i] = a[i] / b[i]; r[i] = a[i] % b[i]; }\n"
    /* an index divided by an argument, twice by the same divisor */
    "kernel void index(ulong w, global ulong *q, global ulong *r, global float *f)\n"
    "{\n"
    "    size_t i = get_global_id(0), k = i - get_global_offset(0);\n"
    "    q[k] = i / w; r[k] = (i + 12345) % w; f[k] = (float)i;\n"
    "}\n"
    "kernel void to_real(global const long *a, global const ulong *u, global double *sd,\n"
    "                    global double *ud, global float *sf, global float *uf)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    sd[i] = (double)a[i]; ud[i] = (double)u[i]; sf[i] = (float)a[i]; uf[i] = (float)u[i];\n"
    "}\n"
    "kernel void from_real(global const double *d, global const float *f, global long *sd,\n"
    "                      global ulong *ud, global long *sf, global ulong *uf)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    sd[i] = (long)d[i]; ud[i] = (ulong)fabs(d[i]); sf[i] = (long)f[i];\n"
    "    uf[i] = (ulong)fabs(f[i]);\n"
    "}\n";

#define P2(n) ((long long)1 << (n))

/* values at the edges of the double paths and of the types */
static const long long edges[] = {0,
                                  1,
                                  -1,
                                  2,
                                  -3,
                                  7,
                                  1000003,
                                  P2(51) - 1,
                                  P2(51),
                                  -P2(51),
                                  -P2(51) - 1,
                                  P2(52) - 1,
                                  P2(52),
                                  -P2(52),
                                  P2(53) + 1,
                                  -P2(53) - 3,
                                  P2(62) + 12345,
                                  LLONG_MAX,
                                  LLONG_MIN,
                                  LLONG_MIN + 1};
enum { EDGES = sizeof edges / sizeof edges[0] };

static unsigned long long next_random(unsigned long long *state)
{
    *state = *state * 6364136223846793005ull + 1442695040888963407ull;
    return *state ^ (*state >> 29);
}

/* Blocks of 64 values: all small (the double path), edges, small with
 * one large value every 8 (a vector mixing both), and random 64-bit
 * values (the original instructions). */
static long long value(size_t i, unsigned long long *state, int small_bits)
{
    unsigned long long random = next_random(state);
    switch (i / 64 % 4) {
    case 0: return (long long)(random >> (64 - small_bits)) - P2(small_bits - 1);
    case 1: return edges[(i * 7 + small_bits) % EDGES];
    case 2:
        return i % 8 == 3 ? (long long)random
                          : (long long)(random >> (64 - small_bits)) - P2(small_bits - 1);
    default: return (long long)random;
    }
}

static cl_mem input(struct harness *h, const void *data, size_t size)
{
    return harness_buffer(h, CL_MEM_READ_ONLY, size, (void *)data);
}

static void run(struct harness *h, cl_kernel kernel, const size_t *offset)
{
    size_t global = N;
    CHECK_OK(clEnqueueNDRangeKernel(h->queue, kernel, 1, offset, &global, NULL, 0, NULL, NULL));
}

static void read_buffer(struct harness *h, cl_mem buffer, void *out, size_t size)
{
    CHECK_OK(clEnqueueReadBuffer(h->queue, buffer, CL_TRUE, 0, size, out, 0, NULL, NULL));
}

static void check_division(struct harness *h, cl_program program, bool is_signed, const char *what)
{
    static long long a[N], b[N], q[N], r[N];
    unsigned long long state = is_signed ? 1 : 2;
    for (size_t i = 0; i < N; i++) {
        a[i] = value(i, &state, 44);
        b[i] = value(i + 64 * (i % 3), &state, 20); /* other blocks' kinds too */
        if (b[i] == 0)
            b[i] = 5;
    }
    size_t bytes = sizeof a;
    cl_mem da = input(h, a, bytes), db = input(h, b, bytes);
    cl_mem dq = harness_buffer(h, CL_MEM_WRITE_ONLY, bytes, NULL);
    cl_mem dr = harness_buffer(h, CL_MEM_WRITE_ONLY, bytes, NULL);
    cl_kernel k = harness_kernel(program, is_signed ? "sdiv" : "udiv");
    CHECK_OK(harness_args(k, 4, ARG(da), ARG(db), ARG(dq), ARG(dr)));
    run(h, k, NULL);
    read_buffer(h, dq, q, bytes);
    read_buffer(h, dr, r, bytes);
    long bad = 0;
    for (size_t i = 0; i < N; i++) {
        long long want_q, want_r;
        if (is_signed) {
            if (a[i] == LLONG_MIN && b[i] == -1)
                continue; /* undefined (OpenCL C 6.3) */
            want_q = a[i] / b[i], want_r = a[i] % b[i];
        } else {
            unsigned long long ua = (unsigned long long)a[i], ub = (unsigned long long)b[i];
            want_q = (long long)(ua / ub), want_r = (long long)(ua % ub);
        }
        if (q[i] != want_q || r[i] != want_r) {
            if (bad < 5)
                HARNESS_FAIL("%s %s: %lld, %lld: got %lld, %lld want %lld, %lld\n", what,
                             is_signed ? "signed" : "unsigned", a[i], b[i], q[i], r[i], want_q,
                             want_r);
            bad++;
        }
    }
    CHECK_NONE_WRONG(bad, what);
    clReleaseKernel(k);
    clReleaseMemObject(da), clReleaseMemObject(db), clReleaseMemObject(dq), clReleaseMemObject(dr);
}

/* get_global_id(0) / w and % w, and (float) of the id, from offsets that
 * put the ids below 2^51, across it and far above it */
static void check_index(struct harness *h, cl_program program, const char *what)
{
    static const cl_ulong divisors[] = {3, 1000, ((cl_ulong)1 << 31) + 7, (cl_ulong)1 << 52};
    static const size_t offsets[] = {0, ((size_t)1 << 51) - N / 2, ((size_t)1 << 62) + 5};
    static cl_ulong q[N], r[N];
    static float f[N];
    cl_mem dq = harness_buffer(h, CL_MEM_WRITE_ONLY, sizeof q, NULL);
    cl_mem dr = harness_buffer(h, CL_MEM_WRITE_ONLY, sizeof r, NULL);
    cl_mem df = harness_buffer(h, CL_MEM_WRITE_ONLY, sizeof f, NULL);
    cl_kernel k = harness_kernel(program, "index");
    long bad = 0;
    for (size_t d = 0; d < sizeof divisors / sizeof divisors[0]; d++)
        for (size_t o = 0; o < sizeof offsets / sizeof offsets[0]; o++) {
            cl_ulong w = divisors[d];
            CHECK_OK(harness_args(k, 4, ARG(w), ARG(dq), ARG(dr), ARG(df)));
            run(h, k, &offsets[o]);
            read_buffer(h, dq, q, sizeof q);
            read_buffer(h, dr, r, sizeof r);
            read_buffer(h, df, f, sizeof f);
            for (size_t i = 0; i < N; i++) {
                cl_ulong id = offsets[o] + i;
                if (q[i] != id / w || r[i] != (id + 12345) % w || f[i] != (float)id) {
                    if (bad < 5)
                        HARNESS_FAIL("%s index %llu / %llu: got %llu, %llu, %a\n", what,
                                     (unsigned long long)id, (unsigned long long)w,
                                     (unsigned long long)q[i], (unsigned long long)r[i], f[i]);
                    bad++;
                }
            }
        }
    CHECK_NONE_WRONG(bad, what);
    clReleaseKernel(k);
    clReleaseMemObject(dq), clReleaseMemObject(dr), clReleaseMemObject(df);
}

static void check_conversions(struct harness *h, cl_program program, const char *what)
{
    static long long a[N], sl[N], sf_l[N];
    static unsigned long long u[N], ul[N], uf_l[N];
    static double sd[N], ud[N], d[N];
    static float sf[N], uf[N], f[N];
    unsigned long long state = 3;
    for (size_t i = 0; i < N; i++) {
        a[i] = value(i, &state, 52);
        u[i] = (unsigned long long)value(i, &state, 52);
        /* in range for the conversion to long: |x| < 2^63, and < 2^64 for
         * ulong of |x|; fractions near the small integers */
        double x = ldexp((double)(next_random(&state) >> 11), -(int)(next_random(&state) % 116));
        x = i % 5 == 0 ? (double)(long long)a[i] * 0.999 : x;
        x = i % 7 == 0 ? -x : x;
        d[i] = fabs(x) < 0x1p63 ? x : 1.5;
        f[i] = (float)d[i];
    }
    size_t bytes = sizeof a;
    cl_mem da = input(h, a, bytes), du = input(h, u, bytes);
    cl_mem dsd = harness_buffer(h, CL_MEM_WRITE_ONLY, bytes, NULL);
    cl_mem dud = harness_buffer(h, CL_MEM_WRITE_ONLY, bytes, NULL);
    cl_mem dsf = harness_buffer(h, CL_MEM_WRITE_ONLY, N * sizeof(float), NULL);
    cl_mem duf = harness_buffer(h, CL_MEM_WRITE_ONLY, N * sizeof(float), NULL);
    cl_kernel k = harness_kernel(program, "to_real");
    CHECK_OK(harness_args(k, 6, ARG(da), ARG(du), ARG(dsd), ARG(dud), ARG(dsf), ARG(duf)));
    run(h, k, NULL);
    read_buffer(h, dsd, sd, bytes);
    read_buffer(h, dud, ud, bytes);
    read_buffer(h, dsf, sf, sizeof sf);
    read_buffer(h, duf, uf, sizeof uf);
    long bad = 0;
    for (size_t i = 0; i < N; i++)
        if (sd[i] != (double)a[i] || ud[i] != (double)u[i] || sf[i] != (float)a[i] ||
            uf[i] != (float)u[i]) {
            if (bad < 5)
                HARNESS_FAIL("%s to real: %lld, %llu: got %a %a %a %a\n", what, a[i], u[i], sd[i],
                             ud[i], sf[i], uf[i]);
            bad++;
        }
    CHECK_NONE_WRONG(bad, what);
    clReleaseKernel(k);

    clReleaseMemObject(dsf), clReleaseMemObject(duf);
    cl_mem dd = input(h, d, sizeof d), df = input(h, f, sizeof f);
    dsf = harness_buffer(h, CL_MEM_WRITE_ONLY, bytes, NULL);
    duf = harness_buffer(h, CL_MEM_WRITE_ONLY, bytes, NULL);
    k = harness_kernel(program, "from_real");
    CHECK_OK(harness_args(k, 6, ARG(dd), ARG(df), ARG(dsd), ARG(dud), ARG(dsf), ARG(duf)));
    run(h, k, NULL);
    read_buffer(h, dsd, sl, bytes);
    read_buffer(h, dud, ul, bytes);
    read_buffer(h, dsf, sf_l, bytes);
    read_buffer(h, duf, uf_l, bytes);
    bad = 0;
    for (size_t i = 0; i < N; i++) {
        bool float_ok = fabsf(f[i]) < 0x1p63f; /* (float)d may round up to 2^63 */
        if (sl[i] != (long long)d[i] || ul[i] != (unsigned long long)fabs(d[i]) ||
            (float_ok && sf_l[i] != (long long)f[i]) ||
            uf_l[i] != (unsigned long long)fabsf(f[i])) {
            if (bad < 5)
                HARNESS_FAIL("%s from real: %a, %a: got %lld %llu %lld %llu\n", what, d[i], f[i],
                             sl[i], ul[i], sf_l[i], uf_l[i]);
            bad++;
        }
    }
    CHECK_NONE_WRONG(bad, what);
    clReleaseKernel(k);
    clReleaseMemObject(da), clReleaseMemObject(du), clReleaseMemObject(dsd);
    clReleaseMemObject(dud), clReleaseMemObject(dsf), clReleaseMemObject(duf);
    clReleaseMemObject(dd), clReleaseMemObject(df);
}

int main(void)
{
    struct harness h = harness_open();
    static const char *const options[] = {"", "-cl-fast-relaxed-math"};
    for (int o = 0; o < 2; o++) {
        cl_program program = harness_build(&h, source, options[o]);
        REQUIRE(program);
        const char *what = o ? "fast-relaxed" : "plain";
        check_division(&h, program, true, what);
        check_division(&h, program, false, what);
        check_index(&h, program, what);
        check_conversions(&h, program, what);
        clReleaseProgram(program);
    }
    harness_close(&h);
    return harness_finish();
}
