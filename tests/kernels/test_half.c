/* test_half.c - half precision (cl_khr_fp16, OpenCL 2.0 extensions 9.4):
 * the device's report, conversions to half in every rounding mode and from
 * half with saturation, math, common, geometric and relational functions on
 * edge values (±0, ±inf, NaN, denormals, 65504, rounding ties), vloadN and
 * vstoreN of half vectors, and read_imageh/write_imageh on a CL_HALF_FLOAT
 * image. Every expected value is computed on the host: halves are decoded
 * and rounded here by integer scaling in double, independently of the
 * device's method (a round-to-nearest conversion stepped by one ulp). */
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>

#include "../harness.h"

static const char *source =
    "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"
    "kernel void to_half(global const float *f, global const double *d, global const int *n,\n"
    "                    global const long *l, global ushort *out)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    global ushort *o = out + i * 18;\n"
    "    float x = f[i];\n"
    "    o[0] = as_ushort(convert_half(x)); o[1] = as_ushort(convert_half_rte(x));\n"
    "    o[2] = as_ushort(convert_half_rtz(x)); o[3] = as_ushort(convert_half_rtp(x));\n"
    "    o[4] = as_ushort(convert_half_rtn(x)); o[5] = as_ushort((half)x);\n"
    "    o[6] = as_ushort(convert_half_rte(d[i])); o[7] = as_ushort(convert_half_rtz(d[i]));\n"
    "    o[8] = as_ushort(convert_half_rtp(d[i])); o[9] = as_ushort(convert_half_rtn(d[i]));\n"
    "    o[10] = as_ushort(convert_half(n[i])); o[11] = as_ushort(convert_half_rtz(n[i]));\n"
    "    o[12] = as_ushort(convert_half_rtp(n[i])); o[13] = as_ushort(convert_half_rtn(n[i]));\n"
    "    o[14] = as_ushort(convert_half(l[i])); o[15] = as_ushort(convert_half_rtz(l[i]));\n"
    "    o[16] = as_ushort(convert_half_rtp(l[i])); o[17] = as_ushort(convert_half_rtn(l[i]));\n"
    "}\n"
    "kernel void double_to_half(global const double *d, global ushort *out, global ushort4 *out4)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    out[2 * i] = as_ushort((half)d[i]);\n"
    "    out[2 * i + 1] = as_ushort(convert_half(d[i]));\n"
    "    if (i % 4 == 0)\n"
    "        out4[i / 4] = as_ushort4(convert_half4(vload4(i / 4, d)));\n"
    "}\n"
    "kernel void from_half(global const ushort *in, global float *f, global long *out)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    half x = as_half(in[i]);\n"
    "    global long *o = out + i * 10;\n"
    "    f[i] = convert_float(x);\n"
    "    o[0] = convert_int_rte(x); o[1] = convert_int_rtz(x); o[2] = convert_int_rtp(x);\n"
    "    o[3] = convert_int_rtn(x); o[4] = convert_int_sat(x); o[5] = convert_int_sat_rtn(x);\n"
    "    o[6] = convert_char_sat_rte(x); o[7] = convert_uchar_sat(x);\n"
    "    o[8] = convert_short_sat_rtp(x); o[9] = convert_long_sat_rtz(x);\n"
    "}\n"
    /* every half, one result a kernel: loops the vectorizer runs on half
       vectors, which compiler/half_vectors.c computes in float */
    "kernel void all_round(global const ushort *in, global ushort *fl, global ushort *ce,\n"
    "                      global ushort *tr, global ushort *ri, global ushort *ro)\n"
    "{\n"
    "    size_t i = get_global_id(0); half x = as_half(in[i]);\n"
    "    fl[i] = as_ushort(floor(x)); ce[i] = as_ushort(ceil(x)); tr[i] = as_ushort(trunc(x));\n"
    "    ri[i] = as_ushort(rint(x)); ro[i] = as_ushort(round(x));\n"
    "}\n"
    "kernel void all_pairs(global const ushort *in, global ushort *mn, global ushort *mx,\n"
    "                      global ushort *cs, global int *lt, global int *sat)\n"
    "{\n"
    "    size_t i = get_global_id(0); half x = as_half(in[i]);\n"
    "    half y = as_half((ushort)(in[i] * 40503u + 12345u));\n"
    "    mn[i] = as_ushort(fmin(x, y)); mx[i] = as_ushort(fmax(x, y));\n"
    "    cs[i] = as_ushort(copysign(x, y));\n"
    "    lt[i] = (x < y) + 2 * (x == y) + 4 * isunordered(x, y) + 8 * (x >= y);\n"
    "    sat[i] = convert_int_sat(x) + convert_short_sat_rte(x);\n"
    "}\n"
    "kernel void vec_convert(global const float8 *in, global ushort8 *out, global int8 *ints)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    out[i * 3] = as_ushort8(convert_half8_rtz(in[i]));\n"
    "    out[i * 3 + 1] = as_ushort8(convert_half8_rtp(in[i]));\n"
    "    out[i * 3 + 2] = as_ushort8(convert_half8(in[i]));\n"
    "    ints[i] = convert_int8_sat_rte(convert_half8(in[i]));\n"
    "}\n"
    /* one result per function: see math_expect() */
    "kernel void math(global const ushort *a, global const ushort *b, global const int *k,\n"
    "                 global ushort *out, global int *iout)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    half x = as_half(a[i]), y = as_half(b[i]), w;\n"
    "    int e;\n"
    "    global ushort *o = out + i * 40;\n"
    "    global int *io = iout + i * 16;\n"
    "    o[0] = as_ushort(sin(x)); o[1] = as_ushort(cos(x)); o[2] = as_ushort(exp(x));\n"
    "    o[3] = as_ushort(log(x)); o[4] = as_ushort(sqrt(x)); o[5] = as_ushort(rsqrt(x));\n"
    "    o[6] = as_ushort(pow(x, y)); o[7] = as_ushort(atan2(x, y));\n"
    "    o[8] = as_ushort(hypot(x, y)); o[9] = as_ushort(fmod(x, y));\n"
    "    o[10] = as_ushort(remainder(x, y)); o[11] = as_ushort(fract(x, &w));\n"
    "    o[12] = as_ushort(w); o[13] = as_ushort(nextafter(x, y));\n"
    "    o[14] = as_ushort(ldexp(x, k[i])); o[15] = as_ushort(frexp(x, &e)); io[0] = e;\n"
    "    o[16] = as_ushort(rint(x)); o[17] = as_ushort(floor(x)); o[18] = as_ushort(ceil(x));\n"
    "    o[19] = as_ushort(trunc(x)); o[20] = as_ushort(round(x)); o[21] = as_ushort(fabs(x));\n"
    "    o[22] = as_ushort(copysign(x, y)); o[23] = as_ushort(fmax(x, y));\n"
    "    o[24] = as_ushort(fmin(x, y)); o[25] = as_ushort(x / y); o[26] = as_ushort(x * y);\n"
    "    o[27] = as_ushort(x + y); o[28] = as_ushort(exp2(x)); o[29] = as_ushort(log2(x));\n"
    "    o[30] = as_ushort(tanh(x)); o[31] = as_ushort(modf(x, &w)); o[32] = as_ushort(w);\n"
    "    o[33] = as_ushort(clamp(x, (half)-1, (half)1)); o[34] = as_ushort(mix(x, y, "
    "(half)0.25));\n"
    "    o[35] = as_ushort(sign(x)); o[36] = as_ushort(step(y, x));\n"
    "    o[37] = as_ushort(smoothstep((half)-1, (half)1, x)); o[38] = as_ushort(degrees(x));\n"
    "    o[39] = as_ushort(fdim(x, y));\n"
    "    io[1] = ilogb(x); io[2] = isnan(x); io[3] = isinf(x); io[4] = isfinite(x);\n"
    "    io[5] = isnormal(x); io[6] = signbit(x); io[7] = isequal(x, y); io[8] = isless(x, y);\n"
    "    io[9] = isunordered(x, y); io[10] = islessgreater(x, y);\n"
    "    io[11] = as_ushort(select(x, y, (short)(i & 1)));\n"
    "    io[12] = as_ushort(bitselect(x, y, as_half((ushort)0x83ff)));\n"
    "}\n"
    "kernel void fmas(global const ushort4 *in, global ushort *out)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    half4 v = as_half4(in[i]);\n"
    "    out[i] = as_ushort(fma(v.x, v.y, v.z));\n"
    "}\n"
    /* vectors: the same functions lane by lane, relational results -1/0 */
    "kernel void vectors(global const half *in, global half *out, global short *rel)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    half8 x = vload8(i, in);\n"
    "    half3 t = vload3(i * 3 + 1, in);\n"
    "    vstore8(sqrt(x) + exp(x), i, out);\n"
    "    vstore3(t * (half)2, i * 3 + 1, out + 16 * get_global_size(0));\n"
    "    vstore8(isnan(x) | (isgreater(x, (half8)1) << 1), i, rel);\n"
    "    half16 s = shuffle2(x, -x, (ushort16)(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1,"
    " 0));\n"
    "    vstore16(s, i, out + 64 * get_global_size(0));\n"
    "}\n"
    "kernel void geometry(global const half4 *a, global const half4 *b, global half *out)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    global half *o = out + i * 12;\n"
    "    o[0] = dot(a[i], b[i]); o[1] = length(a[i]); o[2] = distance(a[i], b[i]);\n"
    "    vstore4(normalize(a[i]), 0, o + 4);\n"
    "    vstore4(cross(a[i], b[i]), 0, o + 8);\n"
    "    o[3] = work_group_reduce_add(a[i].x);\n"
    "}\n"
    "kernel void write_h(write_only image2d_t img, global const half4 *in)\n"
    "{\n"
    "    int2 p = (int2)(get_global_id(0), get_global_id(1));\n"
    "    write_imageh(img, p, in[p.y * get_image_width(img) + p.x]);\n"
    "}\n"
    "kernel void read_h(read_only image2d_t img, sampler_t s, global half4 *out)\n"
    "{\n"
    "    int2 p = (int2)(get_global_id(0), get_global_id(1));\n"
    "    size_t at = p.y * get_image_width(img) + p.x;\n"
    "    out[2 * at] = read_imageh(img, p);\n"
    "    out[2 * at + 1] = read_imageh(img, s, (float2)(p.x + 0.5f, p.y + 0.5f));\n"
    "}\n";

/* --- host halves --- */

static double half_value(uint16_t h)
{
    int e = (h >> 10) & 0x1f, m = h & 0x3ff;
    double v = e == 0 ? ldexp(m, -24) : e == 31 ? (m ? NAN : INFINITY) : ldexp(m | 0x400, e - 25);
    return (h & 0x8000) ? -v : v;
}

static bool half_is_nan(uint16_t h)
{
    return (h & 0x7c00) == 0x7c00 && (h & 0x3ff);
}

enum { RTE, RTZ, RTP, RTN };

/* x rounded to half as `mode` says: the significand scaled to an integer
 * (exact in double) and rounded there. */
static uint16_t to_half(double x, int mode)
{
    if (isnan(x))
        return 0x7e00;
    uint16_t sign = signbit(x) ? 0x8000 : 0;
    double a = fabs(x);
    if (isinf(a))
        return sign | 0x7c00;
    if (a == 0)
        return sign;
    int e;
    frexp(a, &e);
    e = e - 1 < -14 ? -14 : e - 1; /* a in [2^e, 2^(e+1)), or denormal */
    double q = ldexp(a, 10 - e), r;
    bool up = (mode == RTP && !sign) || (mode == RTN && sign); /* away from zero */
    if (mode == RTE) {
        r = floor(q);
        double rest = q - r;
        if (rest > 0.5 || (rest == 0.5 && fmod(r, 2) == 1))
            r += 1;
    } else {
        r = up ? ceil(q) : floor(q);
    }
    double v = ldexp(r, e - 10);
    if (v > 65504)
        return sign | ((mode == RTE || up) ? 0x7c00 : 0x7bff);
    if (v < 0x1p-14)
        return sign | (uint16_t)ldexp(v, 24);
    frexp(v, &e);
    e -= 1;
    return sign | (uint16_t)((e + 15) << 10) | ((uint16_t)ldexp(v, 10 - e) & 0x3ff);
}

/* The size of one half ulp at the half nearest to x. */
static double half_ulp(double x)
{
    double a = fabs(half_value(to_half(x, RTE)));
    if (a < 0x1p-14)
        return 0x1p-24;
    int e;
    frexp(a, &e);
    return ldexp(1.0, e - 11);
}

/* got is within `ulps` of the reference value (NaN for NaN, infinities and
 * zeros exactly when the reference rounds to them). */
static bool half_close(uint16_t got, double want, double ulps)
{
    if (isnan(want))
        return half_is_nan(got);
    uint16_t nearest = to_half(want, RTE);
    if (ulps == 0 || isinf(half_value(nearest)))
        return got == nearest;
    return !half_is_nan(got) && fabs(half_value(got) - want) <= ulps * half_ulp(want);
}

/* Interesting halves: signed zeros, infinities, NaN, the extremes and
 * denormals, ties of the integer roundings, values near 1. */
static const uint16_t specials[] = {
    0x0000, 0x8000, 0x7c00, 0xfc00, 0x7e00, 0x7bff, 0xfbff, 0x0001, 0x8001, 0x03ff, 0x0400,
    0x8400, 0x3c00, 0xbc00, 0x3800, 0x3e00, 0x4100, 0xc100, 0x3c01, 0x3bff, 0x4248, 0xc248,
    0x5bf8, 0x5c04, 0x2e66, 0xae66, 0x4d00, 0xd640, 0x0200, 0x1400, 0x7800, 0x4b00,
};
enum { NSPECIAL = sizeof specials / sizeof specials[0] };

static void test_device(struct harness *h)
{
    CHECK(harness_has_extension(h, "cl_khr_fp16"));
    cl_device_fp_config config = 0;
    CHECK_OK(clGetDeviceInfo(h->device, CL_DEVICE_HALF_FP_CONFIG, sizeof config, &config, NULL));
    cl_device_fp_config needed = CL_FP_ROUND_TO_NEAREST | CL_FP_INF_NAN | CL_FP_DENORM;
    CHECK((config & needed) == needed);
    cl_uint width = 0;
    CHECK_OK(clGetDeviceInfo(h->device, CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF, sizeof width, &width,
                             NULL));
    CHECK(width > 0);
    CHECK_OK(
        clGetDeviceInfo(h->device, CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF, sizeof width, &width, NULL));
    CHECK(width > 0);
}

static void run_1d(struct harness *h, cl_kernel k, size_t n)
{
    CHECK_OK(clEnqueueNDRangeKernel(h->queue, k, 1, NULL, &n, NULL, 0, NULL, NULL));
}

static void read_back(struct harness *h, cl_mem m, size_t size, void *out)
{
    CHECK_OK(clEnqueueReadBuffer(h->queue, m, CL_TRUE, 0, size, out, 0, NULL, NULL));
}

static void test_to_half(struct harness *h, cl_program program)
{
    static const float floats[] = {
        0.0f,        -0.0f,     1.0f,      0x1.002p0f,   0x1.006p0f,   0x1.002002p0f,
        -0x1.002p0f, 0.1f,      -0.1f,     1.0f / 3.0f,  65504.0f,     65519.996f,
        65520.0f,    -65520.0f, 1e6f,      -1e6f,        0x1p-24f,     0x1p-25f,
        0x1.8p-25f,  0x1p-26f,  -0x1p-26f, 0x1.ffcp-15f, 0x1.ffep-15f, 1e-40f,
        INFINITY,    -INFINITY, NAN,       2049.0f,      2051.0f,      0x1.fffp15f,
    };
    enum { N = sizeof floats / sizeof floats[0] };
    double doubles[N];
    cl_int ints[N];
    cl_long longs[N];
    for (int i = 0; i < N; i++) {
        /* doubles a little off the floats' ties; integers around 2^11 and 65504 */
        doubles[i] = floats[i] * (1.0 + 0x1p-40);
        ints[i] = i % 2 ? 2047 + i : -65500 - 3 * i;
        longs[i] = i % 3 == 0 ? LLONG_MIN + i : i % 3 == 1 ? (1ll << 40) + i : 4095 + i;
    }
    ints[0] = INT_MAX, ints[2] = 65519, ints[4] = 65520;
    cl_mem df = harness_buffer(h, CL_MEM_READ_ONLY, sizeof floats, (void *)floats);
    cl_mem dd = harness_buffer(h, CL_MEM_READ_ONLY, sizeof doubles, doubles);
    cl_mem dn = harness_buffer(h, CL_MEM_READ_ONLY, sizeof ints, ints);
    cl_mem dl = harness_buffer(h, CL_MEM_READ_ONLY, sizeof longs, longs);
    cl_ushort out[N * 18];
    cl_mem dout = harness_buffer(h, CL_MEM_WRITE_ONLY, sizeof out, NULL);
    cl_kernel k = harness_kernel(program, "to_half");
    CHECK_OK(harness_args(k, 5, ARG(df), ARG(dd), ARG(dn), ARG(dl), ARG(dout)));
    run_1d(h, k, N);
    read_back(h, dout, sizeof out, out);
    int bad = 0;
    for (int i = 0; i < N; i++) {
        double source[18];
        int mode[18] = {RTE, RTE, RTZ, RTP, RTN, RTE};
        for (int r = 0; r < 6; r++)
            source[r] = floats[i];
        for (int r = 0; r < 4; r++) {
            source[6 + r] = doubles[i];
            source[10 + r] = ints[i];
            source[14 + r] = (double)longs[i]; /* beyond 2^53 far past the half range */
            mode[6 + r] = mode[10 + r] = mode[14 + r] = r == 0 ? RTE : r;
        }
        for (int r = 0; r < 18; r++) {
            uint16_t want = to_half(source[r], mode[r]);
            uint16_t got = out[i * 18 + r];
            bool ok = half_is_nan(want) ? half_is_nan(got) : got == want;
            if (!ok && bad++ < 8)
                HARNESS_FAIL("to_half %d of %a: got 0x%04x want 0x%04x\n", r, source[r], got, want);
        }
    }
    CHECK_NONE_WRONG(bad, "conversions to half");

    /* vectors: float8 -> half8 rtz, rtp, default; and back to int8 sat */
    cl_float vin[16];
    for (int i = 0; i < 16; i++)
        vin[i] = floats[(i * 7) % N];
    cl_ushort vout[48];
    cl_int vints[16];
    cl_mem dvin = harness_buffer(h, CL_MEM_READ_ONLY, sizeof vin, vin);
    cl_mem dvout = harness_buffer(h, CL_MEM_WRITE_ONLY, sizeof vout, NULL);
    cl_mem dvints = harness_buffer(h, CL_MEM_WRITE_ONLY, sizeof vints, NULL);
    cl_kernel kv = harness_kernel(program, "vec_convert");
    CHECK_OK(harness_args(kv, 3, ARG(dvin), ARG(dvout), ARG(dvints)));
    run_1d(h, kv, 2);
    read_back(h, dvout, sizeof vout, vout);
    read_back(h, dvints, sizeof vints, vints);
    bad = 0;
    for (int g = 0; g < 2; g++)
        for (int j = 0; j < 8; j++) {
            float x = vin[g * 8 + j];
            uint16_t want[3] = {to_half(x, RTZ), to_half(x, RTP), to_half(x, RTE)};
            for (int r = 0; r < 3; r++) {
                uint16_t got = vout[(g * 3 + r) * 8 + j];
                if (half_is_nan(want[r]) ? !half_is_nan(got) : got != want[r])
                    bad++;
            }
            double v = half_value(want[2]);
            long long w = isnan(v)       ? 0
                          : v >= INT_MAX ? INT_MAX
                          : v <= INT_MIN ? INT_MIN
                                         : (long long)nearbyint(v);
            if (vints[g * 8 + j] != w)
                bad++;
        }
    CHECK_NONE_WRONG(bad, "vector conversions with half");
    clReleaseKernel(k), clReleaseKernel(kv);
    clReleaseMemObject(df), clReleaseMemObject(dd), clReleaseMemObject(dn), clReleaseMemObject(dl),
        clReleaseMemObject(dout), clReleaseMemObject(dvin), clReleaseMemObject(dvout),
        clReleaseMemObject(dvints);
}

/* Doubles to half by the cast and the default conversion, scalar and
 * double4: every half, the doubles next to it, and the ties between it and
 * the next half with the doubles next to them; then the edges of the range.
 * x86 has no instruction for it: the JIT binds __truncdfhf2 (half.c). */
static void test_double_to_half(struct harness *h, cl_program program)
{
    enum { PER_HALF = 6, EDGES = 16, N = 0x10000 * PER_HALF + EDGES };
    double *d = malloc(N * sizeof *d);
    cl_ushort *out = malloc(2 * N * sizeof *out), *out4 = malloc(N * sizeof *out4);
    REQUIRE(d && out && out4);
    size_t n = 0;
    for (uint32_t bits = 0; bits < 0x10000; bits++) {
        double v = half_value((uint16_t)bits);
        uint16_t next_bits = (bits & 0x7fff) == 0x7bff ? 0 : (uint16_t)(bits + 1);
        double next = (bits & 0x7fff) == 0x7bff ? copysign(65536.0, v) : half_value(next_bits);
        double tie = (v + next) / 2; /* exact: halves have 11 bits */
        if (isnan(v) || isinf(v) || (bits & 0x7fff) == 0x7fff)
            tie = next = v;
        double at[PER_HALF] = {v,   nextafter(v, INFINITY), nextafter(v, -INFINITY),
                               tie, nextafter(tie, 0),      nextafter(tie, 2 * tie)};
        for (int k = 0; k < PER_HALF; k++)
            d[n++] = at[k];
    }
    const double edges[EDGES] = {
        0x1p-25,
        -0x1p-25,
        0x1.0000000000001p-25,
        0x1p-26,
        0x1p-1074,
        -0x1p-1022,
        65520.0,
        65519.999999999993,
        65536.0,
        1e300,
        -1e300,
        INFINITY,
        -INFINITY,
        NAN,
        0x1.fffffffffffffp-15,
        0x1.ffep-15,
    };
    for (int k = 0; k < EDGES; k++)
        d[n++] = edges[k];
    cl_mem dd = harness_buffer(h, CL_MEM_READ_ONLY, N * sizeof *d, d);
    cl_mem dout = harness_buffer(h, CL_MEM_WRITE_ONLY, 2 * N * sizeof *out, NULL);
    cl_mem dout4 = harness_buffer(h, CL_MEM_WRITE_ONLY, N * sizeof *out4, NULL);
    cl_kernel k = harness_kernel(program, "double_to_half");
    CHECK_OK(harness_args(k, 3, ARG(dd), ARG(dout), ARG(dout4)));
    run_1d(h, k, N);
    read_back(h, dout, 2 * N * sizeof *out, out);
    read_back(h, dout4, N * sizeof *out4, out4);
    static const char *const how[] = {"cast", "convert_half", "convert_half4"};
    int bad = 0;
    for (size_t i = 0; i < N; i++) {
        uint16_t want = to_half(d[i], RTE);
        uint16_t got[3] = {out[2 * i], out[2 * i + 1], out4[i]};
        for (int r = 0; r < 3; r++) {
            bool ok = half_is_nan(want) ? half_is_nan(got[r]) : got[r] == want;
            if (!ok && bad++ < 8)
                HARNESS_FAIL("double to half (%s) of %a: got 0x%04x want 0x%04x\n", how[r], d[i],
                             got[r], want);
        }
    }
    CHECK_NONE_WRONG(bad, "doubles to half, by the cast and convert_half(4)");
    clReleaseKernel(k);
    clReleaseMemObject(dd), clReleaseMemObject(dout), clReleaseMemObject(dout4);
    free(d), free(out), free(out4);
}

static long long sat(double r, long long lo, long long hi)
{
    if (isnan(r))
        return 0;
    if (r <= (double)lo)
        return lo;
    if (r >= (double)hi)
        return hi;
    return (long long)r;
}

static void test_from_half(struct harness *h, cl_program program)
{
    cl_ushort in[NSPECIAL];
    memcpy(in, specials, sizeof in);
    cl_float f[NSPECIAL];
    cl_long out[NSPECIAL * 10];
    cl_mem din = harness_buffer(h, CL_MEM_READ_ONLY, sizeof in, in);
    cl_mem dfl = harness_buffer(h, CL_MEM_WRITE_ONLY, sizeof f, NULL);
    cl_mem dout = harness_buffer(h, CL_MEM_WRITE_ONLY, sizeof out, NULL);
    cl_kernel k = harness_kernel(program, "from_half");
    CHECK_OK(harness_args(k, 3, ARG(din), ARG(dfl), ARG(dout)));
    run_1d(h, k, NSPECIAL);
    read_back(h, dfl, sizeof f, f);
    read_back(h, dout, sizeof out, out);
    int bad = 0;
    for (int i = 0; i < NSPECIAL; i++) {
        double x = half_value(in[i]);
        if ((isnan(x) ? !isnan(f[i]) : (f[i] != x || !signbit(f[i]) != !signbit(x))) && bad++ < 8)
            HARNESS_FAIL("convert_float(%a): got %a\n", x, f[i]);
        double r[4] = {nearbyint(x), trunc(x), ceil(x), floor(x)};
        long long want[10];
        bool defined[10];
        for (int m = 0; m < 4; m++) {
            defined[m] = !isnan(r[m]) && r[m] >= INT_MIN && r[m] <= INT_MAX;
            want[m] = defined[m] ? (long long)r[m] : 0;
        }
        want[4] = sat(trunc(x), INT_MIN, INT_MAX);
        want[5] = sat(floor(x), INT_MIN, INT_MAX);
        want[6] = sat(nearbyint(x), SCHAR_MIN, SCHAR_MAX);
        want[7] = sat(trunc(x), 0, UCHAR_MAX);
        want[8] = sat(ceil(x), SHRT_MIN, SHRT_MAX);
        want[9] = sat(trunc(x), LLONG_MIN, LLONG_MAX);
        for (int j = 4; j < 10; j++)
            defined[j] = true;
        for (int j = 0; j < 10; j++)
            if (defined[j] && out[i * 10 + j] != want[j] && bad++ < 8)
                HARNESS_FAIL("from_half %d of %a: got %lld want %lld\n", j, x,
                             (long long)out[i * 10 + j], want[j]);
    }
    CHECK_NONE_WRONG(bad, "conversions from half");
    clReleaseKernel(k);
    clReleaseMemObject(din), clReleaseMemObject(dfl), clReleaseMemObject(dout);
}

/* Every half through the rounding functions, fmin, fmax, copysign, the
 * comparisons and a saturating conversion, in loops the vectorizer runs on
 * half vectors (once split lane by lane by x86's back end, now computed in
 * float by compiler/half_vectors.c): all exact. */
static bool same_half(uint16_t got, double want)
{
    if (isnan(want))
        return half_is_nan(got);
    return got == to_half(want, RTE);
}

static void test_every_half(struct harness *h, cl_program program)
{
    enum { N = 65536 };
    static cl_ushort in[N], out[5][N];
    static cl_int ints[2][N];
    for (int i = 0; i < N; i++)
        in[i] = (cl_ushort)i;
    cl_mem din = harness_buffer(h, CL_MEM_READ_ONLY, sizeof in, in), dout[5], dint[2];
    for (int j = 0; j < 5; j++)
        dout[j] = harness_buffer(h, CL_MEM_WRITE_ONLY, sizeof out[j], NULL);
    for (int j = 0; j < 2; j++)
        dint[j] = harness_buffer(h, CL_MEM_WRITE_ONLY, sizeof ints[j], NULL);
    cl_kernel k = harness_kernel(program, "all_round");
    CHECK_OK(harness_args(k, 6, ARG(din), ARG(dout[0]), ARG(dout[1]), ARG(dout[2]), ARG(dout[3]),
                          ARG(dout[4])));
    run_1d(h, k, N);
    for (int j = 0; j < 5; j++)
        read_back(h, dout[j], sizeof out[j], out[j]);
    clReleaseKernel(k);
    int bad = 0;
    static const char *const round_names[] = {"floor", "ceil", "trunc", "rint", "round"};
    for (int i = 0; i < N; i++) {
        double x = half_value(in[i]);
        double want[5] = {floor(x), ceil(x), trunc(x), nearbyint(x), round(x)};
        for (int j = 0; j < 5; j++)
            if (!same_half(out[j][i], want[j]) && bad++ < 8)
                HARNESS_FAIL("%s(%a): got 0x%04x\n", round_names[j], x, out[j][i]);
    }
    CHECK_NONE_WRONG(bad, "rounding every half");

    k = harness_kernel(program, "all_pairs");
    CHECK_OK(harness_args(k, 6, ARG(din), ARG(dout[0]), ARG(dout[1]), ARG(dout[2]), ARG(dint[0]),
                          ARG(dint[1])));
    run_1d(h, k, N);
    for (int j = 0; j < 3; j++)
        read_back(h, dout[j], sizeof out[j], out[j]);
    for (int j = 0; j < 2; j++)
        read_back(h, dint[j], sizeof ints[j], ints[j]);
    clReleaseKernel(k);
    bad = 0;
    for (int i = 0; i < N; i++) {
        uint16_t y_bits = (uint16_t)(in[i] * 40503u + 12345u);
        double x = half_value(in[i]), y = half_value(y_bits);
        /* fmin and fmax: either zero of two zeros */
        double lo = isnan(x) ? y : isnan(y) ? x : x < y ? x : y;
        double hi = isnan(x) ? y : isnan(y) ? x : x > y ? x : y;
        bool zeros = x == 0 && y == 0;
        bool min_ok = zeros ? half_value(out[0][i]) == 0 : same_half(out[0][i], lo);
        bool max_ok = zeros ? half_value(out[1][i]) == 0 : same_half(out[1][i], hi);
        uint16_t sign = (uint16_t)((in[i] & 0x7fff) | (y_bits & 0x8000));
        /* a NaN's payload may come back quieted (computed in float) */
        bool sign_ok = half_is_nan(in[i])
                           ? half_is_nan(out[2][i]) && (out[2][i] & 0x8000) == (y_bits & 0x8000)
                           : out[2][i] == sign;
        int compares = (x < y) + 2 * (x == y) + 4 * (isnan(x) || isnan(y)) + 8 * (x >= y);
        long long sat_int = isnan(x)       ? 0
                            : x >= 0x1p31  ? INT_MAX
                            : x <= -0x1p31 ? INT_MIN
                                           : (long long)trunc(x);
        long long sat_short = isnan(x)                   ? 0
                              : nearbyint(x) >= SHRT_MAX ? SHRT_MAX
                              : nearbyint(x) <= SHRT_MIN ? SHRT_MIN
                                                         : (long long)nearbyint(x);
        if ((!min_ok || !max_ok || !sign_ok || ints[0][i] != compares ||
             ints[1][i] != (cl_int)(sat_int + sat_short)) &&
            bad++ < 8)
            HARNESS_FAIL("pairs of %a, %a: min 0x%04x max 0x%04x copysign 0x%04x compares %d "
                         "sat %d\n",
                         x, y, out[0][i], out[1][i], out[2][i], ints[0][i], ints[1][i]);
    }
    CHECK_NONE_WRONG(bad, "pairs of every half");
    clReleaseMemObject(din);
    for (int j = 0; j < 5; j++)
        clReleaseMemObject(dout[j]);
    for (int j = 0; j < 2; j++)
        clReleaseMemObject(dint[j]);
}

/* Reference results of the math kernel, in double, with the tolerance in
 * half ulps (the half table of cl_khr_fp16; 0: exact). */
struct expect {
    double value;
    double ulps;
};

static double fract_ref(double x, double *whole)
{
    *whole = floor(x);
    if (isnan(x))
        return x;
    if (isinf(x)) /* 7.5.1: +-0 */
        return copysign(0.0, x);
    return x == 0 ? x : fmin(x - *whole, 0x1.ffcp-1);
}

static void math_expect(double x, double y, int k, struct expect e[40])
{
    double w;
    int ex;
    e[0] = (struct expect){sin(x), 2};
    e[1] = (struct expect){cos(x), 2};
    e[2] = (struct expect){exp(x), 2};
    e[3] = (struct expect){log(x), 2};
    e[4] = (struct expect){sqrt(x), 1.5};
    e[5] = (struct expect){1.0 / sqrt(x), 1};
    e[6] = (struct expect){pow(x, y), 4};
    e[7] = (struct expect){atan2(x, y), 2};
    e[8] = (struct expect){hypot(x, y), 2};
    e[9] = (struct expect){fmod(x, y), 0};
    e[10] = (struct expect){remainder(x, y), 0};
    e[11] = (struct expect){fract_ref(x, &w), 0};
    e[12] = (struct expect){w, 0};
    e[13] = (struct expect){NAN, 0}; /* nextafter: by bits, below */
    e[14] = (struct expect){ldexp(x, k), 0};
    e[15] = (struct expect){frexp(x, &ex), 0};
    e[16] = (struct expect){nearbyint(x), 0};
    e[17] = (struct expect){floor(x), 0};
    e[18] = (struct expect){ceil(x), 0};
    e[19] = (struct expect){trunc(x), 0};
    e[20] = (struct expect){round(x), 0};
    e[21] = (struct expect){fabs(x), 0};
    e[22] = (struct expect){copysign(x, y), 0};
    e[23] = (struct expect){fmax(x, y), 0};
    e[24] = (struct expect){fmin(x, y), 0};
    e[25] = (struct expect){x / y, 0}; /* correctly rounded (6.1.1.1: IEEE 754) */
    e[26] = (struct expect){x * y, 0};
    e[27] = (struct expect){x + y, 0};
    e[28] = (struct expect){exp2(x), 2};
    e[29] = (struct expect){log2(x), 2};
    e[30] = (struct expect){tanh(x), 2};
    e[31] = (struct expect){copysign(isinf(x) ? 0.0 : x - trunc(x), x), 0};
    e[32] = (struct expect){trunc(x), 0};
    e[33] = (struct expect){fmin(fmax(x, -1), 1), 0};
    e[34] = (struct expect){x + (y - x) * 0.25, 1};
    e[35] = (struct expect){isnan(x) ? 0 : x > 0 ? 1 : x < 0 ? -1 : x, 0};
    e[36] = (struct expect){x < y ? 0 : 1, 0};
    double t = fmin(fmax((x + 1) / 2, 0), 1);
    e[37] = (struct expect){t * t * (3 - 2 * t), 1};
    e[38] = (struct expect){x * (180 / M_PI), 2};
    e[39] = (struct expect){x > y ? x - y : x <= y ? 0 : NAN, 0};
    /* where the mix and smoothstep references overflow or involve NaN,
     * the spec leaves the result open */
    if (isnan(e[34].value) || isinf(x) || isinf(y) || fabs(x) > 30000 || fabs(y) > 30000)
        e[34].ulps = INFINITY;
    if (isnan(x))
        e[36].ulps = e[37].ulps = INFINITY;
}

static uint16_t next_half(uint16_t x, uint16_t y)
{
    double a = half_value(x), b = half_value(y);
    if (isnan(a) || isnan(b))
        return 0x7e00;
    if (a == b)
        return y;
    if (a == 0)
        return (y & 0x8000) | 1;
    return (a < b) == (a > 0) ? x + 1 : x - 1;
}

static void test_math(struct harness *h, cl_program program)
{
    enum { N = NSPECIAL * 3 };
    cl_ushort a[N], b[N];
    cl_int k[N];
    for (int i = 0; i < N; i++) {
        a[i] = specials[i % NSPECIAL];
        b[i] = specials[(i * 7 + 3 + i / NSPECIAL) % NSPECIAL];
        k[i] = (i % 9) * 4 - 16;
    }
    cl_ushort out[N * 40];
    cl_int iout[N * 16];
    cl_mem da = harness_buffer(h, CL_MEM_READ_ONLY, sizeof a, a);
    cl_mem db = harness_buffer(h, CL_MEM_READ_ONLY, sizeof b, b);
    cl_mem dk = harness_buffer(h, CL_MEM_READ_ONLY, sizeof k, k);
    cl_mem dout = harness_buffer(h, CL_MEM_WRITE_ONLY, sizeof out, NULL);
    cl_mem diout = harness_buffer(h, CL_MEM_WRITE_ONLY, sizeof iout, NULL);
    cl_kernel kernel = harness_kernel(program, "math");
    CHECK_OK(harness_args(kernel, 5, ARG(da), ARG(db), ARG(dk), ARG(dout), ARG(diout)));
    run_1d(h, kernel, N);
    read_back(h, dout, sizeof out, out);
    read_back(h, diout, sizeof iout, iout);
    int bad = 0;
    for (int i = 0; i < N; i++) {
        double x = half_value(a[i]), y = half_value(b[i]);
        struct expect e[40];
        math_expect(x, y, k[i], e);
        for (int f = 0; f < 40; f++) {
            uint16_t got = out[i * 40 + f];
            bool ok = f == 13 ? got == next_half(a[i], b[i]) ||
                                    (half_is_nan(got) && half_is_nan(next_half(a[i], b[i])))
                      : isinf(e[f].ulps) ? true
                                         : half_close(got, e[f].value, e[f].ulps);
            /* signed zeros must match where the result is exact */
            if (ok && e[f].ulps == 0 && f != 13 && e[f].value == 0 &&
                (signbit(e[f].value) != 0) != ((got & 0x8000) != 0))
                ok = false;
            if (!ok && bad++ < 12)
                HARNESS_FAIL("math %d (x %a, y %a, k %d): got %a (0x%04x) want %a\n", f, x, y, k[i],
                             half_value(got), got, e[f].value);
        }
        int ex;
        frexp(x, &ex);
        double fx = fabs(x);
        /* OpenCL's FP_ILOGB0 is INT_MIN, FP_ILOGBNAN INT_MAX; ilogb(inf) is INT_MAX */
        int want[13] = {
            isinf(x) || isnan(x) ? 0 : ex, /* frexp's exponent: 0 for inf and NaN */
            x == 0                 ? INT_MIN
            : isnan(x) || isinf(x) ? INT_MAX
                                   : ilogb(x),
            isnan(x) != 0,
            isinf(x) != 0,
            isfinite(x) != 0,
            isnormal(x) && fx >= 0x1p-14,
            signbit(x) != 0,
            x == y,
            x < y,
            isnan(x) || isnan(y),
            x < y || x > y,
            (i & 1) ? b[i] : a[i],
            (a[i] & ~0x83ff) | (b[i] & 0x83ff),
        };
        for (int j = 0; j < 13; j++)
            if (iout[i * 16 + j] != want[j] && bad++ < 12)
                HARNESS_FAIL("math int %d (x %a, y %a): got %d want %d\n", j, x, y,
                             iout[i * 16 + j], want[j]);
    }
    CHECK_NONE_WRONG(bad, "half math, common and relational functions");
    clReleaseKernel(kernel);
    clReleaseMemObject(da), clReleaseMemObject(db), clReleaseMemObject(dk),
        clReleaseMemObject(dout), clReleaseMemObject(diout);

    /* fma: the rounding ties that a float computation gets wrong, as
     * 1.5 * 0.6669921875 = 1 + 2^-11 exactly, broken by a denormal c */
    static const cl_ushort fin[][4] = {
        {0x3e00, 0x3956, 0x0000, 0}, {0x3e00, 0x3956, 0x0001, 0}, {0x3e00, 0x3956, 0x8001, 0},
        {0xbe00, 0x3956, 0x0001, 0}, {0x7bff, 0x4000, 0xfbff, 0}, {0x7bff, 0x4000, 0x0000, 0},
        {0x0001, 0x0001, 0x0000, 0}, {0x0001, 0x3800, 0x0000, 0}, {0x0003, 0x3800, 0x0000, 0},
        {0x7c00, 0x0000, 0x3c00, 0}, {0x3c00, 0x3c00, 0xbc00, 0}, {0x5bf8, 0x5c04, 0xfbff, 0},
    };
    enum { F = sizeof fin / sizeof fin[0] };
    cl_ushort fout[F];
    cl_mem dfin = harness_buffer(h, CL_MEM_READ_ONLY, sizeof fin, (void *)fin);
    cl_mem dfout = harness_buffer(h, CL_MEM_WRITE_ONLY, sizeof fout, NULL);
    cl_kernel kf = harness_kernel(program, "fmas");
    CHECK_OK(harness_args(kf, 2, ARG(dfin), ARG(dfout)));
    run_1d(h, kf, F);
    read_back(h, dfout, sizeof fout, fout);
    bad = 0;
    for (int i = 0; i < F; i++) {
        /* exact in double: the products have 22 bits, the sums span < 53 */
        double x = half_value(fin[i][0]), y = half_value(fin[i][1]), z = half_value(fin[i][2]);
        double exact = x * y + z;
        uint16_t want = to_half(exact, RTE);
        if (x * y == 0 && z == 0) /* +0 + -0 rules: +0 unless both are -0 */
            want = (signbit(x * y) && signbit(z)) ? 0x8000 : 0x0000;
        if (half_is_nan(want) ? !half_is_nan(fout[i]) : fout[i] != want) {
            if (bad++ < 8)
                HARNESS_FAIL("fma(%a, %a, %a): got 0x%04x want 0x%04x\n", x, y, z, fout[i], want);
        }
    }
    CHECK_NONE_WRONG(bad, "half fma");
    clReleaseKernel(kf);
    clReleaseMemObject(dfin), clReleaseMemObject(dfout);
}

static void test_vectors(struct harness *h, cl_program program)
{
    enum { G = 4 };
    cl_ushort in[G * 8 + 4];
    for (int i = 0; i < G * 8 + 4; i++)
        in[i] = specials[(i * 5) % NSPECIAL];
    cl_ushort out[G * 80];
    cl_short rel[G * 8];
    memset(out, 0, sizeof out);
    cl_mem din = harness_buffer(h, CL_MEM_READ_ONLY, sizeof in, in);
    cl_mem dout = harness_buffer(h, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof out, out);
    cl_mem drel = harness_buffer(h, CL_MEM_WRITE_ONLY, sizeof rel, NULL);
    cl_kernel k = harness_kernel(program, "vectors");
    CHECK_OK(harness_args(k, 3, ARG(din), ARG(dout), ARG(drel)));
    run_1d(h, k, G);
    read_back(h, dout, sizeof out, out);
    read_back(h, drel, sizeof rel, rel);
    int bad = 0;
    for (int i = 0; i < G * 8; i++) {
        double x = half_value(in[i]);
        /* sqrt + exp: each rounded to half, then added in half */
        double s = half_value(to_half(sqrt(x), RTE)), e = half_value(to_half(exp(x), RTE));
        double want = s + e;
        bool nan_ok = isnan(want) && half_is_nan(out[i]);
        if (!nan_ok && !half_close(out[i], want, 4))
            bad++;
        short r = (short)((isnan(x) ? -1 : 0) | ((x > 1 ? -1 : 0) * 2));
        if (rel[i] != r)
            bad++;
        /* shuffle2(x, -x, 15..0): lane j of group g is (-x)[7 - j] then x[15 - j] */
        int g = i / 8, j = i % 8;
        cl_ushort shuffled = out[64 * G + g * 16 + j];
        if (shuffled != (in[g * 8 + 7 - j] ^ 0x8000))
            bad++;
        if (out[64 * G + g * 16 + 8 + j] != in[g * 8 + 7 - j])
            bad++;
    }
    /* vload3/vstore3 at element offsets 3 * (3i + 1): exactly three halves */
    for (int g = 0; g < G; g++)
        for (int j = 0; j < 9; j++) {
            int at = 9 * g + j; /* 16 * G halves further on in out */
            bool written = j >= 3 && j < 6;
            cl_ushort got = out[16 * G + at];
            cl_ushort want = written ? to_half(half_value(in[at]) * 2, RTE) : 0;
            if (half_is_nan(want) ? !half_is_nan(got) : got != want)
                bad++;
        }
    CHECK_NONE_WRONG(bad, "half vectors: vloadN, vstoreN, shuffle2, relational");
    clReleaseKernel(k);
    clReleaseMemObject(din), clReleaseMemObject(dout), clReleaseMemObject(drel);
}

static void test_geometry(struct harness *h, cl_program program)
{
    enum { N = 4 };
    static const float av[N][4] = {
        {1, 2, 3, 4}, {0.5f, -0.25f, 100, 0}, {0, 0, 0, 0}, {60000, 60000, 1, 0}};
    static const float bv[N][4] = {
        {4, 3, 2, 1}, {-8, 0.125f, 1, 7}, {1, 1, 1, 1}, {0.5f, -1, 2, 3}};
    cl_ushort a[N * 4], b[N * 4];
    for (int i = 0; i < N * 4; i++) {
        a[i] = to_half(av[i / 4][i % 4], RTE);
        b[i] = to_half(bv[i / 4][i % 4], RTE);
    }
    cl_ushort out[N * 12];
    cl_mem da = harness_buffer(h, CL_MEM_READ_ONLY, sizeof a, a);
    cl_mem db = harness_buffer(h, CL_MEM_READ_ONLY, sizeof b, b);
    cl_mem dout = harness_buffer(h, CL_MEM_WRITE_ONLY, sizeof out, NULL);
    cl_kernel k = harness_kernel(program, "geometry");
    CHECK_OK(harness_args(k, 3, ARG(da), ARG(db), ARG(dout)));
    size_t global = N, local = N;
    CHECK_OK(clEnqueueNDRangeKernel(h->queue, k, 1, NULL, &global, &local, 0, NULL, NULL));
    read_back(h, dout, sizeof out, out);
    int bad = 0;
    double sum_x = 0;
    for (int i = 0; i < N; i++)
        sum_x += av[i][0];
    for (int i = 0; i < N; i++) {
        const float *p = av[i], *q = bv[i];
        double dot = 0, len = 0, dist = 0;
        for (int c = 0; c < 4; c++) {
            dot += (double)p[c] * q[c];
            len += (double)p[c] * p[c];
            dist += ((double)p[c] - q[c]) * ((double)p[c] - q[c]);
        }
        len = sqrt(len), dist = sqrt(dist);
        /* 6.13.5 and the half table: dot within a few ulp, length and
         * distance within 2 ulp + 1 ulp for each component */
        if (!half_close(out[i * 12], dot, 3) || !half_close(out[i * 12 + 1], len, 4) ||
            !half_close(out[i * 12 + 2], dist, 4))
            bad++;
        if (!half_close(out[i * 12 + 3], sum_x, 1)) /* work_group_reduce_add, exact here */
            bad++;
        for (int c = 0; c < 4; c++) {
            double n = len == 0 ? p[c] : p[c] / len;
            if (!half_close(out[i * 12 + 4 + c], n, 3))
                bad++;
        }
        double cross[4] = {(double)p[1] * q[2] - (double)p[2] * q[1],
                           (double)p[2] * q[0] - (double)p[0] * q[2],
                           (double)p[0] * q[1] - (double)p[1] * q[0], 0};
        for (int c = 0; c < 4; c++)
            if (!half_close(out[i * 12 + 8 + c], cross[c], 1))
                bad++;
    }
    CHECK_NONE_WRONG(bad, "half geometric functions");
    clReleaseKernel(k);
    clReleaseMemObject(da), clReleaseMemObject(db), clReleaseMemObject(dout);
}

/* write_imageh then read_imageh (sampler-less and with a nearest sampler)
 * on a 2D image of `type`; the pixels read by the host too. */
static void test_image(struct harness *h, cl_program program, cl_channel_type type)
{
    enum { W = 5, H = 3 };
    cl_ushort in[W * H * 4];
    for (int i = 0; i < W * H * 4; i++)
        in[i] = type == CL_HALF_FLOAT ? specials[(i * 3) % NSPECIAL] : to_half(i / 59.0, RTE);
    cl_int err;
    cl_image_format format = {CL_RGBA, type};
    cl_image_desc desc = {.image_type = CL_MEM_OBJECT_IMAGE2D, .image_width = W, .image_height = H};
    cl_mem img = clCreateImage(h->context, CL_MEM_READ_WRITE, &format, &desc, NULL, &err);
    CHECK_OK(err);
    cl_mem din = harness_buffer(h, CL_MEM_READ_ONLY, sizeof in, in);
    cl_mem dout = harness_buffer(h, CL_MEM_WRITE_ONLY, sizeof in * 2, NULL);
    cl_sampler sampler =
        clCreateSampler(h->context, CL_FALSE, CL_ADDRESS_CLAMP_TO_EDGE, CL_FILTER_NEAREST, &err);
    CHECK_OK(err);
    cl_kernel kw = harness_kernel(program, "write_h"), kr = harness_kernel(program, "read_h");
    CHECK_OK(harness_args(kw, 2, ARG(img), ARG(din)));
    CHECK_OK(harness_args(kr, 3, ARG(img), ARG(sampler), ARG(dout)));
    size_t global[2] = {W, H};
    CHECK_OK(clEnqueueNDRangeKernel(h->queue, kw, 2, NULL, global, NULL, 0, NULL, NULL));
    cl_ushort pixels[W * H * 4], back[W * H * 8];
    cl_uchar bytes[W * H * 4];
    size_t origin[3] = {0, 0, 0}, region[3] = {W, H, 1};
    CHECK_OK(clEnqueueReadImage(h->queue, img, CL_TRUE, origin, region, 0, 0,
                                type == CL_HALF_FLOAT ? (void *)pixels : (void *)bytes, 0, NULL,
                                NULL));
    CHECK_OK(clEnqueueNDRangeKernel(h->queue, kr, 2, NULL, global, NULL, 0, NULL, NULL));
    read_back(h, dout, sizeof back, back);
    int bad = 0;
    for (int i = 0; i < W * H * 4; i++) {
        int p = i / 4, c = i % 4;
        cl_ushort got[2] = {back[p * 8 + c], back[p * 8 + 4 + c]};
        if (type == CL_HALF_FLOAT) {
            /* 8.3.2: half data is stored and read as it is (NaN stays NaN) */
            bool nan = half_is_nan(in[i]);
            if (nan ? !half_is_nan(pixels[i]) : pixels[i] != in[i])
                bad++;
            for (int r = 0; r < 2; r++)
                if (nan ? !half_is_nan(got[r]) : got[r] != in[i])
                    bad++;
        } else {
            /* 8.3.1.1: to unorm8 round(255 v), within 0.6; back as u / 255,
             * rounded to half */
            double scaled = half_value(in[i]) * 255;
            if (fabs(bytes[i] - scaled) > 0.6)
                bad++;
            for (int r = 0; r < 2; r++)
                if (!half_close(got[r], bytes[i] / 255.0, 1))
                    bad++;
        }
    }
    CHECK_NONE_WRONG(bad, type == CL_HALF_FLOAT ? "write_imageh/read_imageh, CL_HALF_FLOAT"
                                                : "write_imageh/read_imageh, CL_UNORM_INT8");
    clReleaseKernel(kw), clReleaseKernel(kr);
    clReleaseSampler(sampler);
    clReleaseMemObject(img), clReleaseMemObject(din), clReleaseMemObject(dout);
}

static void test_images(struct harness *h, cl_program program)
{
    cl_bool images = CL_FALSE;
    CHECK_OK(clGetDeviceInfo(h->device, CL_DEVICE_IMAGE_SUPPORT, sizeof images, &images, NULL));
    if (!images)
        return;
    test_image(h, program, CL_HALF_FLOAT);
    test_image(h, program, CL_UNORM_INT8);
}

int main(void)
{
    struct harness h = harness_open();
    test_device(&h);
    cl_program program = harness_build(&h, source, "-cl-std=CL2.0");
    REQUIRE(program);
    test_to_half(&h, program);
    test_double_to_half(&h, program);
    test_from_half(&h, program);
    test_every_half(&h, program);
    test_math(&h, program);
    test_vectors(&h, program);
    test_geometry(&h, program);
    test_images(&h, program);
    clReleaseProgram(program);
    harness_close(&h);
    return harness_finish();
}
