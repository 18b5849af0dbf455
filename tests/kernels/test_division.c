/* test_division.c - integer division and remainder by zero, and of the
 * minimum signed value by -1, give some value and never stop the process
 * (OpenCL C 6.3: the result is undefined, not the behaviour; x86's idiv
 * would raise SIGFPE). Every other quotient and remainder is checked
 * against the host, for char, short, int and long, signed and unsigned,
 * scalars and vectors (int4, long2), with divisors the compiler cannot see;
 * and, built with -cl-fast-relaxed-math, several divisions by one divisor
 * (LLVM may then multiply by a reciprocal, which must not show). */
#include <limits.h>
#include <stdbool.h>
#include <string.h>
#include "../harness.h"

enum { N = 4096 };

#define KERNEL(T)                                                                                  \
    "kernel void div_" #T "(global const " #T " *a, global const " #T " *b, global " #T " *q,\n"   \
    "                       global " #T " *r)\n"                                                   \
    "{ size_t i = get_global_id(0); q[i] = a[i] / b[i]; r[i] = a[i] % b[i]; }\n"

static const char *source = KERNEL(char) KERNEL(uchar) KERNEL(short) KERNEL(ushort) KERNEL(int)
    KERNEL(uint) KERNEL(long) KERNEL(ulong) KERNEL(int4) KERNEL(long2);

/* three quotients and a remainder by one divisor a work-item */
#define SHARED(T)                                                                                  \
    "kernel void shared_" #T "(global const " #T " *a, " #T " w, global " #T " *q)\n"              \
    "{ size_t i = 4 * get_global_id(0);\n"                                                         \
    "  q[i] = a[i] / w; q[i + 1] = a[i + 1] / w; q[i + 2] = a[i + 2] / w;\n"                       \
    "  q[i + 3] = a[i + 3] % w; }\n"

static const char *shared_source =
    SHARED(char) SHARED(uchar) SHARED(short) SHARED(ushort) SHARED(int) SHARED(uint);

/* Dividends and divisors: every fourth divisor 0, every fourth -1 (the
 * all-ones value for unsigned types), the rest small or large, positive or
 * negative; a third of the dividends the minimum value. */
static long long dividend(size_t i, long long min, long long max)
{
    if (i % 3 == 0)
        return min;
    long long v = (long long)(i * 2654435761u % 1000003) - 500001;
    return i % 5 == 0 ? max - (long long)(i % 7) : v % (max / 2 + 1);
}

static long long divisor(size_t i, long long max)
{
    switch (i % 4) {
    case 0: return 0;
    case 1: return -1;
    case 2: return (long long)(i % 29) - 14 == 0 ? 3 : (long long)(i % 29) - 14;
    default: return (long long)(i * 40503u % (unsigned long long)max) + 1;
    }
}

/* One element type: `size` bytes, signed or not; `lanes` elements a value
 * in the kernel (vectors divide lane by lane, so the host checks lanes). */
static void check_type(struct harness *h, cl_program program, const char *kernel_name, size_t size,
                       bool is_signed, size_t lanes)
{
    size_t count = N * lanes;
    long long min = !is_signed ? 0 : size == 8 ? LLONG_MIN : -(1ll << (size * 8 - 1));
    long long max = size == 8   ? LLONG_MAX
                    : is_signed ? (1ll << (size * 8 - 1)) - 1
                                : (1ll << (size * 8)) - 1;
    unsigned char *a = malloc(count * size), *b = malloc(count * size);
    unsigned char *q = malloc(count * size), *r = malloc(count * size);
    for (size_t i = 0; i < count; i++) {
        long long x = dividend(i, min, max), y = divisor(i, max);
        memcpy(a + i * size, &x, size); /* little-endian: the low bytes */
        memcpy(b + i * size, &y, size);
    }
    cl_mem da = harness_buffer(h, CL_MEM_READ_ONLY, count * size, a);
    cl_mem db = harness_buffer(h, CL_MEM_READ_ONLY, count * size, b);
    cl_mem dq = harness_buffer(h, CL_MEM_WRITE_ONLY, count * size, NULL);
    cl_mem dr = harness_buffer(h, CL_MEM_WRITE_ONLY, count * size, NULL);
    cl_kernel k = harness_kernel(program, kernel_name);
    CHECK_OK(harness_args(k, 4, ARG(da), ARG(db), ARG(dq), ARG(dr)));
    size_t global = N;
    CHECK_OK(clEnqueueNDRangeKernel(h->queue, k, 1, NULL, &global, NULL, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(h->queue, dq, CL_TRUE, 0, count * size, q, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(h->queue, dr, CL_TRUE, 0, count * size, r, 0, NULL, NULL));
    long bad = 0, undefined = 0;
    for (size_t i = 0; i < count; i++) {
        unsigned long long ua = 0, ub = 0, uq = 0, ur = 0;
        memcpy(&ua, a + i * size, size), memcpy(&ub, b + i * size, size);
        memcpy(&uq, q + i * size, size), memcpy(&ur, r + i * size, size);
        unsigned long long want_q, want_r;
        if (is_signed) {
            int shift = 64 - (int)size * 8;
            long long sa = (long long)(ua << shift) >> shift,
                      sb = (long long)(ub << shift) >> shift;
            if (sb == 0 || (sa == min && sb == -1)) {
                undefined++; /* any value: it only had to come back */
                continue;
            }
            want_q = (unsigned long long)(sa / sb), want_r = (unsigned long long)(sa % sb);
        } else {
            if (ub == 0) {
                undefined++;
                continue;
            }
            want_q = ua / ub, want_r = ua % ub;
        }
        unsigned long long mask = size == 8 ? ~0ull : (1ull << (size * 8)) - 1;
        bad += (uq & mask) != (want_q & mask) || (ur & mask) != (want_r & mask);
    }
    CHECK_NONE_WRONG(bad, kernel_name);
    CHECK(undefined > 0); /* the undefined cases were really there */
    clReleaseKernel(k);
    clReleaseMemObject(da), clReleaseMemObject(db), clReleaseMemObject(dq), clReleaseMemObject(dr);
    free(a), free(b), free(q), free(r);
}

/* One type under -cl-fast-relaxed-math: dividends at, just above and just
 * below the multiples of each divisor (where a quotient through a rounded
 * reciprocal would land one below), both signs. */
static void check_shared(struct harness *h, cl_program program, const char *kernel_name,
                         size_t size, bool is_signed)
{
    enum { ITEMS = 4096 };
    long long max = is_signed ? (1ll << (size * 8 - 1)) - 1 : (1ll << (size * 8)) - 1;
    long long min = is_signed ? -max - 1 : 0;
    const long long divisors[] = {
        3, 7, 100, 197, max / 3, max, is_signed ? -197 : max - 1, is_signed ? -3 : 1};
    unsigned char *a = malloc(ITEMS * 4 * size), *q = malloc(ITEMS * 4 * size);
    cl_mem da = harness_buffer(h, CL_MEM_READ_ONLY, ITEMS * 4 * size, NULL);
    cl_mem dq = harness_buffer(h, CL_MEM_WRITE_ONLY, ITEMS * 4 * size, NULL);
    cl_kernel k = harness_kernel(program, kernel_name);
    long bad = 0;
    for (size_t d = 0; d < sizeof divisors / sizeof divisors[0]; d++) {
        long long w = divisors[d];
        if (w > max || w < min)
            continue; /* 197 is not a char */
        for (size_t i = 0; i < ITEMS * 4; i++) {
            long long multiple = (long long)(i / 3 % 512) * w,
                      x = multiple + (long long)(i % 3) - 1;
            x = i % 7 == 6 && is_signed ? -x : x;
            x = x > max ? max : x < min ? min : x;
            memcpy(a + i * size, &x, size);
        }
        CHECK_OK(
            clEnqueueWriteBuffer(h->queue, da, CL_TRUE, 0, ITEMS * 4 * size, a, 0, NULL, NULL));
        CHECK_OK(harness_args(k, 3, ARG(da), size, (const void *)&w, ARG(dq)));
        size_t global = ITEMS;
        CHECK_OK(clEnqueueNDRangeKernel(h->queue, k, 1, NULL, &global, NULL, 0, NULL, NULL));
        CHECK_OK(clEnqueueReadBuffer(h->queue, dq, CL_TRUE, 0, ITEMS * 4 * size, q, 0, NULL, NULL));
        for (size_t i = 0; i < ITEMS * 4; i++) {
            unsigned long long ua = 0, uq = 0;
            memcpy(&ua, a + i * size, size), memcpy(&uq, q + i * size, size);
            int shift = 64 - (int)size * 8;
            long long x = is_signed ? (long long)(ua << shift) >> shift : (long long)ua;
            long long want = i % 4 == 3 ? x % w : x / w;
            unsigned long long mask = (1ull << (size * 8)) - 1;
            if ((uq & mask) != ((unsigned long long)want & mask)) {
                if (bad < 3)
                    HARNESS_FAIL("%s: %lld %c %lld: got %llu want %lld\n", kernel_name, x,
                                 i % 4 == 3 ? '%' : '/', w, uq & mask, want);
                bad++;
            }
        }
    }
    CHECK_NONE_WRONG(bad, kernel_name);
    clReleaseKernel(k);
    clReleaseMemObject(da), clReleaseMemObject(dq);
    free(a), free(q);
}

int main(void)
{
    struct harness h = harness_open();
    cl_program program = harness_build(&h, source, "");
    REQUIRE(program);
    check_type(&h, program, "div_char", 1, true, 1);
    check_type(&h, program, "div_uchar", 1, false, 1);
    check_type(&h, program, "div_short", 2, true, 1);
    check_type(&h, program, "div_ushort", 2, false, 1);
    check_type(&h, program, "div_int", 4, true, 1);
    check_type(&h, program, "div_uint", 4, false, 1);
    check_type(&h, program, "div_long", 8, true, 1);
    check_type(&h, program, "div_ulong", 8, false, 1);
    check_type(&h, program, "div_int4", 4, true, 4);
    check_type(&h, program, "div_long2", 8, true, 2);
    clReleaseProgram(program);
    program = harness_build(&h, shared_source, "-cl-fast-relaxed-math");
    REQUIRE(program);
    check_shared(&h, program, "shared_char", 1, true);
    check_shared(&h, program, "shared_uchar", 1, false);
    check_shared(&h, program, "shared_short", 2, true);
    check_shared(&h, program, "shared_ushort", 2, false);
    check_shared(&h, program, "shared_int", 4, true);
    check_shared(&h, program, "shared_uint", 4, false);
    clReleaseProgram(program);
    harness_close(&h);
    return harness_finish();
}
