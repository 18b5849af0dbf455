/* test_conversions.c - explicit conversions (OpenCL C 2.0, 6.2.3): every
 * rounding mode and saturation on edge values (±0, ±inf, NaN, limits,
 * halfway points, 2^24 + 1, 2^53 + 1, values just past a type's range),
 * each compared with a host result computed independently (integer
 * reasoning, fesetround with the host's conversions, nextafter). */
#include <fenv.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>

#include "../harness.h"

static const char *source =
    "kernel void f2i(global const float *in, global int *out)\n"
    "{\n"
    "    size_t i = get_global_id(0); float x = in[i];\n"
    "    global int *o = out + i * 10;\n"
    "    o[0] = convert_int_rte(x); o[1] = convert_int_rtz(x); o[2] = convert_int_rtp(x);\n"
    "    o[3] = convert_int_rtn(x); o[4] = convert_int_sat(x); o[5] = convert_int_sat_rte(x);\n"
    "    o[6] = convert_int_sat_rtp(x); o[7] = convert_int_sat_rtn(x);\n"
    "    o[8] = convert_uchar_sat(x); o[9] = convert_char_sat_rte(x);\n"
    "}\n"
    "kernel void l2f(global const long *in, global float *out)\n"
    "{\n"
    "    size_t i = get_global_id(0); long x = in[i];\n"
    "    global float *o = out + i * 4;\n"
    "    o[0] = convert_float_rte(x); o[1] = convert_float_rtz(x);\n"
    "    o[2] = convert_float_rtp(x); o[3] = convert_float_rtn(x);\n"
    "}\n"
    "kernel void d2f(global const double *in, global float *out)\n"
    "{\n"
    "    size_t i = get_global_id(0); double x = in[i];\n"
    "    global float *o = out + i * 4;\n"
    "    o[0] = convert_float(x); o[1] = convert_float_rtz(x);\n"
    "    o[2] = convert_float_rtp(x); o[3] = convert_float_rtn(x);\n"
    "}\n"
    "kernel void ints(global const long *in, global int *out)\n"
    "{\n"
    "    size_t i = get_global_id(0); long x = in[i];\n"
    "    global int *o = out + i * 6;\n"
    "    o[0] = convert_char_sat(x); o[1] = convert_uchar_sat(x); o[2] = convert_short_sat(x);\n"
    "    o[3] = (int)convert_uint_sat(x); o[4] = convert_int_sat(x); o[5] = convert_char(x);\n"
    "}\n"
    "kernel void vec(global const float4 *in, global int4 *out, global uchar8 *bytes)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    out[i] = convert_int4_sat_rtn(in[i]);\n"
    "    bytes[i] = convert_uchar8_sat((float8)(in[i], -in[i]));\n"
    "}\n";

static int round_mode[4] = {FE_TONEAREST, FE_TOWARDZERO, FE_UPWARD, FE_DOWNWARD};

/* x rounded as `mode` (0 rte, 1 rtz, 2 rtp, 3 rtn) to an integral double */
static double rounded(double x, int mode)
{
    return mode == 0 ? nearbyint(x) : mode == 1 ? trunc(x) : mode == 2 ? ceil(x) : floor(x);
}

static long long sat(double r, long long lo, long long hi)
{
    if (isnan(r))
        return 0;
    if (r <= (double)lo)
        return lo;
    if (r >= (double)hi + 1.0)
        return hi;
    return (long long)r;
}

static void test_float_to_int(struct harness *h, cl_program program)
{
    static const float values[] = {0.0f, -0.0f, 0.5f, 1.5f, 2.5f, -0.5f, -1.5f, -2.5f,
                                   0.49999997f, 1e-40f, -1e-40f, 127.5f, -128.5f, 255.5f,
                                   2147483520.0f, -2147483648.0f, 2147483648.0f, 3e9f, -3e9f,
                                   INFINITY, -INFINITY, NAN, 16777217.0f, 123456.7f};
    enum { N = sizeof values / sizeof values[0] };
    int out[N * 10];
    cl_mem din = harness_buffer(h, CL_MEM_READ_ONLY, sizeof values, (void *)values);
    cl_mem dout = harness_buffer(h, CL_MEM_WRITE_ONLY, sizeof out, NULL);
    cl_kernel k = harness_kernel(program, "f2i");
    CHECK_OK(harness_args(k, 2, ARG(din), ARG(dout)));
    size_t global = N;
    CHECK_OK(clEnqueueNDRangeKernel(h->queue, k, 1, NULL, &global, NULL, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(h->queue, dout, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
    int bad = 0;
    for (int i = 0; i < N; i++) {
        double x = values[i];
        long long want[10];
        bool defined[10];
        for (int m = 0; m < 4; m++) {
            double r = rounded(x, m);
            defined[m] = !isnan(r) && r >= INT_MIN && r <= INT_MAX; /* undefined otherwise */
            want[m] = defined[m] ? (long long)r : 0;
        }
        want[4] = sat(trunc(x), INT_MIN, INT_MAX);
        want[5] = sat(rounded(x, 0), INT_MIN, INT_MAX);
        want[6] = sat(rounded(x, 2), INT_MIN, INT_MAX);
        want[7] = sat(rounded(x, 3), INT_MIN, INT_MAX);
        want[8] = sat(trunc(x), 0, UCHAR_MAX);
        want[9] = sat(rounded(x, 0), SCHAR_MIN, SCHAR_MAX);
        for (int r = 4; r < 10; r++)
            defined[r] = true;
        for (int r = 0; r < 10; r++)
            if (defined[r] && out[i * 10 + r] != (int)want[r] && bad++ < 5)
                HARNESS_FAIL("f2i(%a) result %d: got %d want %lld", x, r, out[i * 10 + r],
                             want[r]);
    }
    CHECK(bad == 0);
    clReleaseKernel(k);
    clReleaseMemObject(din), clReleaseMemObject(dout);
}

static void test_to_float(struct harness *h, cl_program program)
{
    static const cl_long longs[] = {0, 1, -1, 16777216, 16777217, -16777217, 16777219,
                                    (1ll << 53) + 1, LLONG_MAX, LLONG_MIN, LLONG_MIN + 1,
                                    123456789012345ll, -987654321987ll};
    static const double doubles[] = {0.0, -0.0, 1.0 / 3.0, -1.0 / 3.0, 1e39, -1e39, 1e-46,
                                     -1e-46, 3.4028235677973366e38, NAN, INFINITY, -INFINITY,
                                     0x1.000001p0, 0x1.0000018p0, 1.17549435e-38 * 0.75};
    enum { NL = sizeof longs / sizeof longs[0], ND = sizeof doubles / sizeof doubles[0] };
    float lout[NL * 4], dout[ND * 4];
    cl_mem dl = harness_buffer(h, CL_MEM_READ_ONLY, sizeof longs, (void *)longs);
    cl_mem dd = harness_buffer(h, CL_MEM_READ_ONLY, sizeof doubles, (void *)doubles);
    cl_mem ol = harness_buffer(h, CL_MEM_WRITE_ONLY, sizeof lout, NULL);
    cl_mem od = harness_buffer(h, CL_MEM_WRITE_ONLY, sizeof dout, NULL);
    cl_kernel kl = harness_kernel(program, "l2f"), kd = harness_kernel(program, "d2f");
    CHECK_OK(harness_args(kl, 2, ARG(dl), ARG(ol)));
    CHECK_OK(harness_args(kd, 2, ARG(dd), ARG(od)));
    size_t gl = NL, gd = ND;
    CHECK_OK(clEnqueueNDRangeKernel(h->queue, kl, 1, NULL, &gl, NULL, 0, NULL, NULL));
    CHECK_OK(clEnqueueNDRangeKernel(h->queue, kd, 1, NULL, &gd, NULL, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(h->queue, ol, CL_TRUE, 0, sizeof lout, lout, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(h->queue, od, CL_TRUE, 0, sizeof dout, dout, 0, NULL, NULL));
    int bad = 0;
    /* the host converts under each rounding mode */
    for (int m = 0; m < 4; m++) {
        fesetround(round_mode[m]);
        for (int i = 0; i < NL; i++) {
            volatile cl_long x = longs[i];
            float want = (float)x;
            if (memcmp(&want, &lout[i * 4 + m], sizeof want) && bad++ < 5)
                HARNESS_FAIL("l2f(%lld) mode %d: got %a want %a", (long long)x, m, lout[i * 4 + m],
                             want);
        }
        for (int i = 0; i < ND; i++) {
            volatile double x = doubles[i];
            float want = (float)x, got = dout[i * 4 + m];
            if (!(isnan(want) && isnan(got)) && memcmp(&want, &got, sizeof want) && bad++ < 5)
                HARNESS_FAIL("d2f(%a) mode %d: got %a want %a", x, m, got, want);
        }
    }
    fesetround(FE_TONEAREST);
    CHECK(bad == 0);
    clReleaseKernel(kl), clReleaseKernel(kd);
    clReleaseMemObject(dl), clReleaseMemObject(dd), clReleaseMemObject(ol),
        clReleaseMemObject(od);
}

static void test_integers_and_vectors(struct harness *h, cl_program program)
{
    static const cl_long values[] = {0, 127, 128, -128, -129, 255, 256, -1, 32767, 32768, -32769,
                                     65535, 65536, INT_MAX, (cl_long)INT_MAX + 1, INT_MIN,
                                     (cl_long)INT_MIN - 1, UINT_MAX, (cl_long)UINT_MAX + 1,
                                     LLONG_MAX, LLONG_MIN};
    enum { N = sizeof values / sizeof values[0] };
    int out[N * 6];
    cl_mem din = harness_buffer(h, CL_MEM_READ_ONLY, sizeof values, (void *)values);
    cl_mem dout = harness_buffer(h, CL_MEM_WRITE_ONLY, sizeof out, NULL);
    cl_kernel k = harness_kernel(program, "ints");
    CHECK_OK(harness_args(k, 2, ARG(din), ARG(dout)));
    size_t global = N;
    CHECK_OK(clEnqueueNDRangeKernel(h->queue, k, 1, NULL, &global, NULL, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(h->queue, dout, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
    int bad = 0;
    for (int i = 0; i < N; i++) {
        cl_long x = values[i];
        long long want[6] = {
            x < SCHAR_MIN ? SCHAR_MIN : x > SCHAR_MAX ? SCHAR_MAX : x,
            x < 0 ? 0 : x > UCHAR_MAX ? UCHAR_MAX : x,
            x < SHRT_MIN ? SHRT_MIN : x > SHRT_MAX ? SHRT_MAX : x,
            (int)(cl_uint)(x < 0 ? 0 : x > (cl_long)UINT_MAX ? UINT_MAX : x),
            x < INT_MIN ? INT_MIN : x > INT_MAX ? INT_MAX : x,
            (signed char)(x & 0xff),
        };
        for (int r = 0; r < 6; r++)
            if (out[i * 6 + r] != (int)want[r] && bad++ < 5)
                HARNESS_FAIL("ints(%lld) result %d: got %d want %lld", (long long)x, r,
                             out[i * 6 + r], want[r]);
    }
    CHECK(bad == 0);

    /* vectors: float4 -> int4 sat rtn, float8 -> uchar8 sat */
    cl_float in[8] = {1.5f, -1.5f, 3e9f, NAN, 300.7f, -0.2f, 254.9f, 0.99f};
    cl_int vout[8];
    cl_uchar bytes[16];
    cl_mem vin = harness_buffer(h, CL_MEM_READ_ONLY, sizeof in, in);
    cl_mem vo = harness_buffer(h, CL_MEM_WRITE_ONLY, sizeof vout, NULL);
    cl_mem vb = harness_buffer(h, CL_MEM_WRITE_ONLY, sizeof bytes, NULL);
    cl_kernel kv = harness_kernel(program, "vec");
    CHECK_OK(harness_args(kv, 3, ARG(vin), ARG(vo), ARG(vb)));
    size_t two = 2;
    CHECK_OK(clEnqueueNDRangeKernel(h->queue, kv, 1, NULL, &two, NULL, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(h->queue, vo, CL_TRUE, 0, sizeof vout, vout, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(h->queue, vb, CL_TRUE, 0, sizeof bytes, bytes, 0, NULL, NULL));
    for (int i = 0; i < 8; i++) {
        CHECK_EQ(vout[i], (int)sat(floor(in[i]), INT_MIN, INT_MAX));
        int g = i / 4, e = i % 4;
        CHECK_EQ(bytes[g * 8 + e], (int)sat(trunc(in[i]), 0, UCHAR_MAX));
        CHECK_EQ(bytes[g * 8 + 4 + e], (int)sat(trunc(-in[i]), 0, UCHAR_MAX));
    }
    clReleaseKernel(k), clReleaseKernel(kv);
    clReleaseMemObject(din), clReleaseMemObject(dout), clReleaseMemObject(vin),
        clReleaseMemObject(vo), clReleaseMemObject(vb);
}

int main(void)
{
    struct harness h = harness_open();
    cl_program program = harness_build(&h, source, "");
    REQUIRE(program);
    test_float_to_int(&h, program);
    test_to_float(&h, program);
    test_integers_and_vectors(&h, program);
    clReleaseProgram(program);
    harness_close(&h);
    return harness_finish();
}
