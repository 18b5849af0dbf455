/* test_saturate.c - add_sat and sub_sat (OpenCL C 6.13.3) for every
 * integer type, scalar and vector, against the host: the sum or
 * difference clamped to the type's range. (The scalar char and short
 * forms once wrapped: the builtin they used promoted their arguments to
 * int.) */
#include <limits.h>
#include <stdbool.h>
#include <string.h>
#include "../harness.h"

enum { N = 4096 };

#define KERNEL(T)                                                                                  \
    "kernel void sat_" #T "(global const " #T " *a, global const " #T " *b, global " #T " *s,\n"   \
    "                       global " #T " *d)\n"                                                   \
    "{ size_t i = get_global_id(0); s[i] = add_sat(a[i], b[i]); d[i] = sub_sat(a[i], b[i]); }\n"

static const char *source = KERNEL(char) KERNEL(uchar) KERNEL(short) KERNEL(ushort) KERNEL(int)
    KERNEL(uint) KERNEL(long) KERNEL(ulong) KERNEL(char4) KERNEL(ushort8) KERNEL(int2)
        KERNEL(ulong16);

/* x + y or x - y clamped to [min, max], exactly, for any of the types */
static __int128 saturate(__int128 v, __int128 min, __int128 max)
{
    return v < min ? min : v > max ? max : v;
}

static void check_type(struct harness *h, cl_program program, const char *kernel_name,
                       size_t size, bool is_signed, size_t lanes)
{
    size_t count = N * lanes;
    int bits = (int)size * 8;
    __int128 min = is_signed ? -((__int128)1 << (bits - 1)) : 0;
    __int128 max = is_signed ? ((__int128)1 << (bits - 1)) - 1 : ((__int128)1 << bits) - 1;
    unsigned char *a = malloc(count * size), *b = malloc(count * size);
    unsigned char *s = malloc(count * size), *d = malloc(count * size);
    unsigned long long state = 0x9e3779b97f4a7c15ull;
    for (size_t i = 0; i < count * size; i++) {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        a[i] = (unsigned char)(state >> 56), b[i] = (unsigned char)(state >> 48);
    }
    for (size_t i = 0; i < count && i < 8; i++) { /* the extremes, each way */
        memset(a + i * size, i & 1 ? 0xff : 0, size);
        memset(b + i * size, i & 2 ? 0xff : 0, size);
        if (is_signed && i & 4)
            a[i * size + size - 1] ^= 0x80, b[i * size + size - 1] ^= 0x80;
    }
    cl_mem da = harness_buffer(h, CL_MEM_READ_ONLY, count * size, a);
    cl_mem db = harness_buffer(h, CL_MEM_READ_ONLY, count * size, b);
    cl_mem ds = harness_buffer(h, CL_MEM_WRITE_ONLY, count * size, NULL);
    cl_mem dd = harness_buffer(h, CL_MEM_WRITE_ONLY, count * size, NULL);
    cl_kernel k = harness_kernel(program, kernel_name);
    CHECK_OK(harness_args(k, 4, ARG(da), ARG(db), ARG(ds), ARG(dd)));
    size_t global = N;
    CHECK_OK(clEnqueueNDRangeKernel(h->queue, k, 1, NULL, &global, NULL, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(h->queue, ds, CL_TRUE, 0, count * size, s, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(h->queue, dd, CL_TRUE, 0, count * size, d, 0, NULL, NULL));
    long bad = 0;
    for (size_t i = 0; i < count; i++) {
        unsigned long long ua = 0, ub = 0, us = 0, ud = 0;
        memcpy(&ua, a + i * size, size), memcpy(&ub, b + i * size, size);
        memcpy(&us, s + i * size, size), memcpy(&ud, d + i * size, size);
        __int128 x = ua, y = ub;
        if (is_signed && bits < 128) {
            if (ua >> (bits - 1) & 1)
                x -= (__int128)1 << bits;
            if (ub >> (bits - 1) & 1)
                y -= (__int128)1 << bits;
        }
        unsigned long long mask = bits == 64 ? ~0ull : (1ull << bits) - 1;
        unsigned long long want_s = (unsigned long long)saturate(x + y, min, max) & mask;
        unsigned long long want_d = (unsigned long long)saturate(x - y, min, max) & mask;
        bad += us != want_s || ud != want_d;
    }
    CHECK_NONE_WRONG(bad, kernel_name);
    clReleaseKernel(k);
    clReleaseMemObject(da), clReleaseMemObject(db), clReleaseMemObject(ds), clReleaseMemObject(dd);
    free(a), free(b), free(s), free(d);
}

int main(void)
{
    struct harness h = harness_open();
    cl_program program = harness_build(&h, source, "");
    REQUIRE(program);
    check_type(&h, program, "sat_char", 1, true, 1);
    check_type(&h, program, "sat_uchar", 1, false, 1);
    check_type(&h, program, "sat_short", 2, true, 1);
    check_type(&h, program, "sat_ushort", 2, false, 1);
    check_type(&h, program, "sat_int", 4, true, 1);
    check_type(&h, program, "sat_uint", 4, false, 1);
    check_type(&h, program, "sat_long", 8, true, 1);
    check_type(&h, program, "sat_ulong", 8, false, 1);
    check_type(&h, program, "sat_char4", 1, true, 4);
    check_type(&h, program, "sat_ushort8", 2, false, 8);
    check_type(&h, program, "sat_int2", 4, true, 2);
    check_type(&h, program, "sat_ulong16", 8, false, 16);
    clReleaseProgram(program);
    harness_close(&h);
    return harness_finish();
}
