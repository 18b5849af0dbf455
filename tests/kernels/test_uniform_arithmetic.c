/* test_uniform_arithmetic.c - the library's work-group reduce, inclusive
 * and exclusive scans of cl_khr_work_group_uniform_arithmetic (mul of int,
 * uint, long, ulong, float, double, half; and, or, xor of the integers; the
 * logical and, or, xor of predicates), which SPIR-V's
 * SPV_KHR_uniform_group_instructions reaches (tests/api/test_spirv.c); the
 * extension is not reported (src/builtins/workgroup.cl says why), so the
 * kernel declares what it calls. Groups of 64 and of 48 (a last partial
 * group of a non-uniform launch), compared with the host's folds in local
 * id order; values chosen so that every product is exact. */
#include <stdint.h>

#include "../harness.h"

#define RESULTS 24

static const char *source =
    "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"
    "#define SCANS(T, OP) T __attribute__((overloadable)) work_group_reduce_##OP(T); \\\n"
    "    T __attribute__((overloadable)) work_group_scan_inclusive_##OP(T); \\\n"
    "    T __attribute__((overloadable)) work_group_scan_exclusive_##OP(T);\n"
    "#define INTEGER(T) SCANS(T, mul) SCANS(T, and) SCANS(T, or) SCANS(T, xor)\n"
    "INTEGER(int) INTEGER(uint) INTEGER(long) INTEGER(ulong)\n"
    "SCANS(float, mul) SCANS(double, mul) SCANS(half, mul)\n"
    "SCANS(int, logical_and) SCANS(int, logical_or) SCANS(int, logical_xor)\n"
    "kernel void uniform(global const uint *in, global long *out, global double *fout)\n"
    "{\n"
    "    size_t g = get_global_id(0), l = get_local_id(0);\n"
    "    uint v = in[g];\n"
    "    global long *o = out + g * 24;\n"
    "    global double *f = fout + g * 9;\n"
    "    int small = l % 5 == 0 ? 2 : 1;\n"
    "    o[0] = work_group_reduce_mul(small);\n"
    "    o[1] = work_group_scan_inclusive_mul(small);\n"
    "    o[2] = work_group_scan_exclusive_mul(small);\n"
    "    o[3] = work_group_reduce_mul((ulong)small << 1);\n"
    "    o[4] = work_group_reduce_and(v | 0x10u);\n"
    "    o[5] = work_group_reduce_or(v & 0xf0f0u);\n"
    "    o[6] = work_group_reduce_xor(v);\n"
    "    o[7] = work_group_scan_inclusive_and((int)v | 1);\n"
    "    o[8] = work_group_scan_exclusive_and((int)v | 1);\n"
    "    o[9] = work_group_scan_inclusive_or(v & 0x0f0fu);\n"
    "    o[10] = work_group_scan_exclusive_or(v & 0x0f0fu);\n"
    "    o[11] = work_group_scan_inclusive_xor(v);\n"
    "    o[12] = work_group_scan_exclusive_xor(v);\n"
    "    o[13] = work_group_reduce_xor((long)v << 24);\n"
    "    o[14] = work_group_scan_exclusive_or((ulong)v << 32);\n"
    "    o[15] = work_group_reduce_logical_and(v % 7 != 3);\n"
    "    o[16] = work_group_reduce_logical_or(v % 97 == 5);\n"
    "    o[17] = work_group_reduce_logical_xor(v & 1);\n"
    "    o[18] = work_group_scan_inclusive_logical_and(v % 7 != 3);\n"
    "    o[19] = work_group_scan_exclusive_logical_and(v % 7 != 3);\n"
    "    o[20] = work_group_scan_inclusive_logical_or(v % 13 == 0);\n"
    "    o[21] = work_group_scan_exclusive_logical_or(v % 13 == 0);\n"
    "    o[22] = work_group_scan_inclusive_logical_xor(v & 2);\n"
    "    o[23] = work_group_scan_exclusive_logical_xor(v & 2);\n"
    "    float x = l % 7 == 0 ? 2.0f : l % 7 == 1 ? 0.5f : l % 7 == 2 ? 4.0f : 1.0f;\n"
    "    f[0] = work_group_reduce_mul(x);\n"
    "    f[1] = work_group_scan_inclusive_mul(x);\n"
    "    f[2] = work_group_scan_exclusive_mul(x);\n"
    "    f[3] = work_group_reduce_mul((double)x * 0.75);\n"
    "    f[4] = work_group_scan_inclusive_mul((double)x);\n"
    "    f[5] = work_group_scan_exclusive_mul((double)x);\n"
    "    half hx = small == 2 ? (half)2 : (half)1;\n"
    "    f[6] = work_group_reduce_mul(hx);\n"
    "    f[7] = work_group_scan_inclusive_mul(hx);\n"
    "    f[8] = work_group_scan_exclusive_mul(hx);\n"
    "}\n";

/* the host's folds over one group of `n` work-items from `first` */
static void expect(const uint32_t *in, size_t first, size_t n, int64_t *want, double *fwant)
{
    for (size_t l = 0; l < n; l++) {
        int64_t *o = want + (first + l) * RESULTS;
        double *f = fwant + (first + l) * 9;
        int64_t red_mul = 1, inc = 1, exc = 1, inc_and = -1, exc_and = -1;
        uint64_t umul = 1; /* wraps, as the kernel's ulong does */
        uint32_t red_and = ~0u, red_or = 0, red_xor = 0, inc_or = 0, exc_or = 0, inc_xor = 0,
                 exc_xor = 0;
        int64_t xor24 = 0;
        uint64_t exc_or32 = 0;
        int land = 1, lor = 0, lxor = 0, inc_land = 1, exc_land = 1, inc_lor = 0, exc_lor = 0,
            inc_lxor = 0, exc_lxor = 0;
        double fred = 1, finc = 1, fexc = 1, dred = 1, hred = 1, hinc = 1, hexc = 1;
        for (size_t j = 0; j < n; j++) {
            uint32_t v = in[first + j];
            int small = j % 5 == 0 ? 2 : 1;
            double x = j % 7 == 0 ? 2.0 : j % 7 == 1 ? 0.5 : j % 7 == 2 ? 4.0 : 1.0;
            red_mul *= small;
            umul *= (uint64_t)small << 1;
            red_and &= v | 0x10u;
            red_or |= v & 0xf0f0u;
            red_xor ^= v;
            xor24 ^= (int64_t)v << 24;
            land &= v % 7 != 3;
            lor |= v % 97 == 5;
            lxor ^= (int)(v & 1);
            fred *= x;
            dred *= x * 0.75;
            hred *= small;
            if (j < l) {
                exc *= small;
                exc_and &= (int32_t)(v | 1);
                exc_or |= v & 0x0f0fu;
                exc_xor ^= v;
                exc_or32 |= (uint64_t)v << 32;
                exc_land &= v % 7 != 3;
                exc_lor |= v % 13 == 0;
                exc_lxor ^= (v & 2) != 0;
                fexc *= x;
                hexc *= small;
            }
            if (j <= l) {
                inc *= small;
                inc_and &= (int32_t)(v | 1);
                inc_or |= v & 0x0f0fu;
                inc_xor ^= v;
                inc_land &= v % 7 != 3;
                inc_lor |= v % 13 == 0;
                inc_lxor ^= (v & 2) != 0;
                finc *= x;
                hinc *= small;
            }
        }
        const int64_t w[RESULTS] = {red_mul, inc,     exc,      (int64_t)umul, (int32_t)red_and,
                                    red_or,  red_xor, inc_and,  exc_and,       inc_or,
                                    exc_or,  inc_xor, exc_xor,  xor24,         (int64_t)exc_or32,
                                    land,    lor,     lxor,     inc_land,      exc_land,
                                    inc_lor, exc_lor, inc_lxor, exc_lxor};
        for (int r = 0; r < RESULTS; r++)
            o[r] = w[r];
        /* uint results through long: zero-extended, as the kernel stores them */
        o[5] = (uint32_t)red_or, o[6] = (uint32_t)red_xor, o[9] = (uint32_t)inc_or;
        o[10] = (uint32_t)exc_or, o[11] = (uint32_t)inc_xor, o[12] = (uint32_t)exc_xor;
        o[4] = (uint32_t)red_and;
        const double fw[9] = {fred, finc, fexc, dred, finc, fexc, hred, hinc, hexc};
        for (int r = 0; r < 9; r++)
            f[r] = fw[r];
    }
}

int main(void)
{
    struct harness h = harness_open();
    cl_program program = harness_build(&h, source, "-cl-std=CL2.0");
    REQUIRE(program);
    cl_int err;
    cl_kernel k = clCreateKernel(program, "uniform", &err);
    CHECK_OK(err);
    enum { N = 240, LOCAL = 64 }; /* groups of 64, 64, 64 and 48 */
    static uint32_t in[N];
    static int64_t out[N * RESULTS], want[N * RESULTS];
    static double fout[N * 9], fwant[N * 9];
    uint32_t state = 12345;
    for (int i = 0; i < N; i++) {
        state = state * 1103515245u + 12345u;
        in[i] = state ^ (state >> 13);
    }
    cl_mem din = harness_buffer(&h, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof in, in);
    cl_mem dout = harness_buffer(&h, CL_MEM_WRITE_ONLY, sizeof out, NULL);
    cl_mem dfout = harness_buffer(&h, CL_MEM_WRITE_ONLY, sizeof fout, NULL);
    CHECK_OK(harness_args(k, 3, ARG(din), ARG(dout), ARG(dfout)));
    size_t global = N, local = LOCAL;
    CHECK_OK(clEnqueueNDRangeKernel(h.queue, k, 1, NULL, &global, &local, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(h.queue, dout, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(h.queue, dfout, CL_TRUE, 0, sizeof fout, fout, 0, NULL, NULL));
    for (size_t first = 0; first < N; first += LOCAL)
        expect(in, first, first + LOCAL <= N ? LOCAL : N - first, want, fwant);
    int bad = 0;
    for (int i = 0; i < N * RESULTS; i++)
        if (out[i] != want[i] && bad++ < 8)
            HARNESS_FAIL("work-item %d result %d: got %lld, want %lld\n", i / RESULTS, i % RESULTS,
                         (long long)out[i], (long long)want[i]);
    for (int i = 0; i < N * 9; i++)
        if (fout[i] != fwant[i] && bad++ < 16)
            HARNESS_FAIL("work-item %d floating result %d: got %g, want %g\n", i / 9, i % 9,
                         fout[i], fwant[i]);
    CHECK_NONE_WRONG(bad, "work-group uniform arithmetic");
    clReleaseMemObject(din), clReleaseMemObject(dout), clReleaseMemObject(dfout);
    clReleaseKernel(k);
    clReleaseProgram(program);
    harness_close(&h);
    return harness_finish();
}
