/* test_math.c - accuracy of the math built-ins that the vectorizer turns
 * into calls of glibc's vector functions (src/compiler/vecmath.c), in a
 * work-item loop wide enough to be vectorized: every result, float and
 * double, within OpenCL C 7.4's ulp bound of a long double reference
 * computed on the host (libmvec or SLEEF, vecmath.c chooses). The inputs
 * sweep the bit patterns of each type and add the points where libmvec
 * variants we do not use are out of bounds (the CTS's bruteforce failures
 * of exp10f and logf on AVX-512). Also cbrt (glibc's double one is refined
 * here), log1p (libmvec's AVX2 float variant; SLEEF's for double below
 * 2^60, log above), tgamma (float computed in double by the library,
 * double the C library's), rootn for double, and the pi functions (float
 * sinpi, cospi, tanpi from polynomials, asinpi & co. from the float
 * functions), with the exact values 7.5.1 gives them. Then the functions
 * that the library computes inline so that they vectorize (logb, ilogb,
 * nextafter, ldexp, frexp, float and double; fmod, remainder and remquo,
 * float): exactly the C library's results, over the same sweeps and every
 * special value. */
#include <float.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "../harness.h"

typedef long double (*reference1)(long double);
typedef long double (*reference2)(long double, long double);

/* sin(pi x) and cos(pi x) in long double: reduced exactly to t in
 * [0, 1/4] (Sterbenz), where sinl and cosl of pi t are well conditioned;
 * glibc has no sinpil */
static const long double pi_l = 3.141592653589793238462643383279502884L;
/* r in [0, 1/2] with sin(pi x) = s sin(pi r) (sine) or cos(pi x) = s cos(pi r) */
static long double pi_reduce(long double x, bool sine, long double *s)
{
    long double a = fabsl(x), r = a - 2 * floorl(a / 2); /* [0, 2) */
    *s = sine && signbit(x) ? -1 : 1;
    if (r >= 1)
        r -= 1, *s = -*s;
    if (r > 0.5L)
        r = 1 - r, *s = sine ? *s : -*s;
    return r;
}
static long double sinpi_ref(long double x)
{
    long double s, r = pi_reduce(x, true, &s);
    return s * (r <= 0.25L ? sinl(pi_l * r) : cosl(pi_l * (0.5L - r)));
}
static long double cospi_ref(long double x)
{
    long double s, r = pi_reduce(x, false, &s);
    return s * (r <= 0.25L ? cosl(pi_l * r) : sinl(pi_l * (0.5L - r)));
}
static long double tanpi_ref(long double x)
{
    return sinpi_ref(x) / cospi_ref(x);
}
static long double asinpi_ref(long double x)
{
    return asinl(x) / pi_l;
}
static long double acospi_ref(long double x)
{
    return acosl(x) / pi_l;
}
static long double atanpi_ref(long double x)
{
    return atanl(x) / pi_l;
}

static const struct function {
    const char *name;
    int arity;
    double bound; /* OpenCL C 7.4, float and double alike for these */
    reference1 one;
    reference2 two;
} functions[] = {
    {"sin", 1, 4, sinl, NULL},          {"cos", 1, 4, cosl, NULL},
    {"tan", 1, 5, tanl, NULL},          {"asin", 1, 4, asinl, NULL},
    {"acos", 1, 4, acosl, NULL},        {"atan", 1, 5, atanl, NULL},
    {"sinh", 1, 4, sinhl, NULL},        {"cosh", 1, 4, coshl, NULL},
    {"tanh", 1, 5, tanhl, NULL},        {"asinh", 1, 4, asinhl, NULL},
    {"acosh", 1, 4, acoshl, NULL},      {"atanh", 1, 5, atanhl, NULL},
    {"exp", 1, 3, expl, NULL},          {"exp2", 1, 3, exp2l, NULL},
    {"exp10", 1, 3, exp10l, NULL},      {"expm1", 1, 3, expm1l, NULL},
    {"log", 1, 3, logl, NULL},          {"log2", 1, 3, log2l, NULL},
    {"log10", 1, 3, log10l, NULL},      {"erf", 1, 16, erfl, NULL},
    {"erfc", 1, 16, erfcl, NULL},       {"cbrt", 1, 2, cbrtl, NULL},
    {"pow", 2, 16, NULL, powl},         {"atan2", 2, 6, NULL, atan2l},
    {"hypot", 2, 4, NULL, hypotl},      {"log1p", 1, 2, log1pl, NULL},
    {"tgamma", 1, 16, tgammal, NULL},   {"sinpi", 1, 4, sinpi_ref, NULL},
    {"cospi", 1, 4, cospi_ref, NULL},   {"tanpi", 1, 6, tanpi_ref, NULL},
    {"asinpi", 1, 5, asinpi_ref, NULL}, {"acospi", 1, 5, acospi_ref, NULL},
    {"atanpi", 1, 5, atanpi_ref, NULL},
};
enum { NUM_FUNCTIONS = sizeof functions / sizeof functions[0], N = 1 << 16 };

/* vector widths also checked: 2 and 3 are padded to the narrowest
 * variant, 16 split among the widest (src/compiler/vecmath.c); Clang
 * passes a float2 to a function as a double, a float16 below AVX-512 by
 * pointer */
static const int widths[] = {2, 3, 4, 8, 16};
enum { NUM_WIDTHS = sizeof widths / sizeof widths[0] };

/* |got - want| in ulps of want's exponent for a type of `digits` bits of
 * mantissa and smallest normal exponent `min_exp` (frexp's). Results that
 * the reference puts outside the finite normal range are not judged: the
 * CTS lets denormal results flush and overflow differ near the edge. */
static bool judged(long double want, int min_exp, long double max)
{
    int e;
    frexpl(want, &e);
    return isfinite(want) && fabsl(want) <= max && (want == 0 || e >= min_exp);
}

static double ulps(long double got, long double want, int digits)
{
    int e;
    frexpl(want, &e);
    return (double)(fabsl(got - want) / ldexpl(1.0L, e - digits));
}

static char *kernel_source(void)
{
    static char text[65536];
    size_t used = snprintf(text, sizeof text, "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n");
    for (int f = 0; f < NUM_FUNCTIONS; f++)
        for (int d = 0; d < 2; d++) {
            const char *t = d ? "double" : "float";
            used +=
                snprintf(text + used, sizeof text - used,
                         "kernel void %s_%s(global const %s *a, global const %s *b, "
                         "global %s *out)\n{ size_t i = get_global_id(0); out[i] = %s(a[i]%s); }\n",
                         t, functions[f].name, t, t, t, functions[f].name,
                         functions[f].arity == 2 ? ", b[i]" : "");
            for (int w = 0; w < NUM_WIDTHS; w++) {
                char second[32] = "";
                if (functions[f].arity == 2)
                    snprintf(second, sizeof second, ", vload%d(i, b)", widths[w]);
                used += snprintf(
                    text + used, sizeof text - used,
                    "kernel void %s%d_%s(global const %s *a, global const %s *b, global %s *out)\n"
                    "{ size_t i = get_global_id(0); vstore%d(%s(vload%d(i, a)%s), i, out); }\n",
                    t, widths[w], functions[f].name, t, t, t, widths[w], functions[f].name,
                    widths[w], second);
            }
        }
    used += snprintf(text + used, sizeof text - used,
                     "kernel void rootn_double(global const double *a, global const int *n, "
                     "global double *out)\n{ size_t i = get_global_id(0); out[i] = rootn(a[i], "
                     "n[i]); }\n");
    used += snprintf(text + used, sizeof text - used,
                     "kernel void remquo_float(global const float *a, global const float *b, "
                     "global float *out, global int *quo)\n{ size_t i = get_global_id(0); out[i] "
                     "= remquo(a[i], b[i], quo + i); }\n");
    return text;
}

/* remquo near the top of the float range, where 2|y| overflows: the
 * CTS's bruteforce case and its like. The remainder is exact; the
 * quotient's low 7 bits and sign are known here. */
static void check_remquo(struct harness *h, cl_program program)
{
    static const float x[] = {0x1.f0679ep+127f, -0x1.fffffep+127f, 7.0f, 0x1.8p+127f,
                              -0x1.010318p-128f};
    static const float y[] = {0x1.1d5688p+127f, 0x1.0p+126f, 2.0f, -0x1.0p+127f, -0x1.8fb372p+120f};
    static const int want_quo[] = {2, -4, 4, -2, 0};
    enum { Q = sizeof x / sizeof x[0] };
    float got[Q];
    int quo[Q];
    cl_mem dx = harness_buffer(h, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof x, (void *)x);
    cl_mem dy = harness_buffer(h, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof y, (void *)y);
    cl_mem dout = harness_buffer(h, CL_MEM_WRITE_ONLY, sizeof got, NULL);
    cl_mem dquo = harness_buffer(h, CL_MEM_WRITE_ONLY, sizeof quo, NULL);
    cl_kernel k = harness_kernel(program, "remquo_float");
    size_t global = Q;
    harness_args(k, 4, sizeof dx, &dx, sizeof dy, &dy, sizeof dout, &dout, sizeof dquo, &dquo);
    CHECK_OK(clEnqueueNDRangeKernel(h->queue, k, 1, NULL, &global, NULL, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(h->queue, dout, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(h->queue, dquo, CL_TRUE, 0, sizeof quo, quo, 0, NULL, NULL));
    for (int i = 0; i < Q; i++) {
        int ignored;
        float want = (float)remquo((double)x[i], (double)y[i], &ignored);
        if (got[i] != want || quo[i] != want_quo[i])
            HARNESS_FAIL("remquo(%a, %a) = %a, quo %d; want %a, %d\n", x[i], y[i], got[i], quo[i],
                         want, want_quo[i]);
        else
            harness_passed++;
    }
    clReleaseKernel(k);
    clReleaseMemObject(dx), clReleaseMemObject(dy), clReleaseMemObject(dout),
        clReleaseMemObject(dquo);
}

/* rootn for double (OpenCL C 7.4: 4 ulp) over magnitudes 2^-1000..2^1000
 * and n in -40..40, the sizes where a rounded 1/n costs most. */
static void check_rootn(struct harness *h, cl_program program)
{
    enum { R = 4096 };
    double *x = malloc(R * sizeof *x), *got = malloc(R * sizeof *got);
    int *n = malloc(R * sizeof *n);
    REQUIRE(x && got && n);
    for (int i = 0; i < R; i++) {
        n[i] = i % 81 - 40;
        if (n[i] == 0)
            n[i] = 3;
        x[i] =
            ldexp(1.0 + (double)((i * 2654435761u) % 1000003) / 1000003.0, (i * 37) % 2001 - 1000);
        if (i % 3 == 0 && (n[i] & 1))
            x[i] = -x[i];
    }
    cl_mem dx = harness_buffer(h, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, R * sizeof *x, x);
    cl_mem dn = harness_buffer(h, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, R * sizeof *n, n);
    cl_mem dout = harness_buffer(h, CL_MEM_WRITE_ONLY, R * sizeof *got, NULL);
    cl_kernel k = harness_kernel(program, "rootn_double");
    size_t global = R;
    harness_args(k, 3, sizeof dx, &dx, sizeof dn, &dn, sizeof dout, &dout);
    CHECK_OK(clEnqueueNDRangeKernel(h->queue, k, 1, NULL, &global, NULL, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(h->queue, dout, CL_TRUE, 0, R * sizeof *got, got, 0, NULL, NULL));
    double worst = 0;
    int at = 0;
    for (int i = 0; i < R; i++) {
        long double want = powl(fabsl((long double)x[i]), 1.0L / n[i]);
        if (x[i] < 0)
            want = -want;
        if (!judged(want, DBL_MIN_EXP, DBL_MAX))
            continue;
        double e = ulps(got[i], want, DBL_MANT_DIG);
        if (!(e <= worst))
            worst = e, at = i;
    }
    if (!(worst <= 4.0))
        HARNESS_FAIL("rootn(double): %g ulp at rootn(%a, %d)\n", worst, x[at], n[at]);
    else
        harness_passed++;
    clReleaseKernel(k);
    clReleaseMemObject(dx), clReleaseMemObject(dn), clReleaseMemObject(dout);
    free(x), free(got), free(n);
}

/* inputs: a sweep of the type's bit patterns, then the listed points */
static void fill_float(float *a, float *b)
{
    static const float points[] = {-0x1.0de4p+1f, -0x1.521ap-7f, 0x1.5566p-1f, 1.0f, 0.5f};
    const int fixed = sizeof points / sizeof points[0];
    for (int i = 0; i < N; i++) {
        uint32_t u = (uint32_t)i * 65537u, v = (uint32_t)i * 2654435761u;
        memcpy(&a[i], &u, sizeof u);
        memcpy(&b[i], &v, sizeof v);
        if (i < fixed)
            a[i] = points[i];
        else if (i & 1) /* half of them near 1, where most arguments are */
            a[i] = ldexpf(1.0f + (float)(u & 0xffffff) / 0x1p24f, (int)(u >> 24) % 8 - 4) *
                   ((u & 0x80000000u) ? -1.0f : 1.0f);
        if (i & 2)
            b[i] = ldexpf(1.0f + (float)(v & 0xffffff) / 0x1p24f, (int)(v >> 24) % 8 - 4);
    }
}

static void fill_double(double *a, double *b)
{
    uint64_t s = 88172645463325252ull;
    for (int i = 0; i < N; i++) {
        uint64_t u, v;
        s ^= s << 13, s ^= s >> 7, s ^= s << 17;
        u = s;
        s ^= s << 13, s ^= s >> 7, s ^= s << 17;
        v = s;
        if (i & 1) /* exponents near 0 */
            u = (u & 0x800fffffffffffffull) | (uint64_t)(0x3f8 + (u >> 52) % 16) << 52;
        if (i & 2)
            v = (v & 0x800fffffffffffffull) | (uint64_t)(0x3f8 + (v >> 52) % 16) << 52;
        memcpy(&a[i], &u, sizeof u);
        memcpy(&b[i], &v, sizeof v);
    }
    a[0] = -0x1.27p+898, a[1] = -0x1.27p+961; /* glibc's cbrt: 2.02 ulp */
}

static void check(struct harness *h, cl_program program, const struct function *fn, bool is_double,
                  int width, cl_mem a, cl_mem b, cl_mem out, const void *ha, const void *hb,
                  void *hout)
{
    char name[64], digits[12] = "";
    if (width > 1)
        snprintf(digits, sizeof digits, "%d", width);
    snprintf(name, sizeof name, "%s%s_%s", is_double ? "double" : "float", digits, fn->name);
    cl_kernel k = harness_kernel(program, name);
    if (!k)
        return;
    /* width 3: N / 3 items cover all but the last element, which is not judged */
    size_t size = is_double ? sizeof(double) : sizeof(float), global = N / width;
    int count = (int)global * width;
    harness_args(k, 3, sizeof a, &a, sizeof b, &b, sizeof out, &out);
    CHECK_OK(clEnqueueNDRangeKernel(h->queue, k, 1, NULL, &global, NULL, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(h->queue, out, CL_TRUE, 0, N * size, hout, 0, NULL, NULL));
    double worst = 0;
    int at = 0;
    for (int i = 0; i < count; i++) {
        long double x = is_double ? ((const double *)ha)[i] : ((const float *)ha)[i];
        long double y = is_double ? ((const double *)hb)[i] : ((const float *)hb)[i];
        long double got = is_double ? ((double *)hout)[i] : ((float *)hout)[i];
        long double want = fn->arity == 1 ? fn->one(x) : fn->two(x, y);
        if (isnan(want)) {
            if (!isnan(got)) {
                worst = INFINITY, at = i;
                break;
            }
            continue;
        }
        bool in_range =
            is_double ? judged(want, DBL_MIN_EXP, DBL_MAX) : judged(want, FLT_MIN_EXP, FLT_MAX);
        if (!in_range)
            continue;
        double e = ulps(got, want, is_double ? DBL_MANT_DIG : FLT_MANT_DIG);
        if (!(e <= worst))
            worst = e, at = i;
    }
    if (!(worst <= fn->bound))
        HARNESS_FAIL("%s: %g ulp at input %d (bound %g)\n", name, worst, at, fn->bound);
    else
        harness_passed++;
    clReleaseKernel(k);
}

static const char *exact_source =
    "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
    "kernel void exact_float(global const float *a, global const float *b, global float *l,\n"
    "                        global int *e, global float *n)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    l[i] = logb(a[i]); e[i] = ilogb(a[i]); n[i] = nextafter(a[i], b[i]);\n"
    "}\n"
    "kernel void exact_double(global const double *a, global const double *b, global double *l,\n"
    "                         global int *e, global double *n)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    l[i] = logb(a[i]); e[i] = ilogb(a[i]); n[i] = nextafter(a[i], b[i]);\n"
    "    if (i == 0) { double4 v = nextafter((double4)(a[1], a[2], a[3], a[4]), (double4)(b[1], "
    "b[2], b[3], b[4])); n[0] = v.s2; }\n"
    "}\n";

/* OpenCL's ilogb: FP_ILOGBNAN is INT_MAX (glibc's is INT_MIN). */
static int want_ilogb(long double x, int c_value)
{
    return isnan(x) ? INT32_MAX : x == 0 ? INT32_MIN : isinf(x) ? INT32_MAX : c_value;
}

static bool same_bits(const void *a, const void *b, size_t size, bool nan_a, bool nan_b)
{
    return nan_a ? nan_b : !memcmp(a, b, size);
}

static void check_exact(struct harness *h, const float *fa, const float *fb, const double *da,
                        const double *db)
{
    cl_program program = harness_build(h, exact_source, NULL);
    REQUIRE(program);
    enum { SPECIALS = 14 };
    const float fs[SPECIALS][2] = {{0.0f, 1.0f},      {-0.0f, -1.0f},      {0.0f, -0.0f},
                                   {-0.0f, 0.0f},     {INFINITY, 0.0f},    {-INFINITY, INFINITY},
                                   {NAN, 1.0f},       {1.0f, NAN},         {FLT_MAX, INFINITY},
                                   {0x1p-149f, 0.0f}, {-0x1p-149f, -1.0f}, {0x1.fffffcp-127f, 1.0f},
                                   {FLT_MIN, 0.0f},   {1.0f, 1.0f}};
    const double ds[SPECIALS][2] = {
        {0.0, 1.0},       {-0.0, -1.0},       {0.0, -0.0},
        {-0.0, 0.0},      {INFINITY, 0.0},    {-INFINITY, INFINITY},
        {NAN, 1.0},       {1.0, NAN},         {DBL_MAX, INFINITY},
        {0x1p-1074, 0.0}, {-0x1p-1074, -1.0}, {0x1.ffffffffffffep-1023, 1.0},
        {DBL_MIN, 0.0},   {1.0, 1.0}};
    for (int is_double = 0; is_double < 2; is_double++) {
        size_t size = is_double ? sizeof(double) : sizeof(float), global = N, local = 64;
        char *x = malloc(N * size), *y = malloc(N * size), *l = malloc(N * size),
             *n = malloc(N * size);
        int *e = malloc(N * sizeof *e);
        REQUIRE(x && y && l && n && e);
        memcpy(x, is_double ? (const void *)da : fa, N * size);
        memcpy(y, is_double ? (const void *)db : fb, N * size);
        for (int i = 0; i < SPECIALS; i++) {
            if (is_double)
                ((double *)x)[5 + i] = ds[i][0], ((double *)y)[5 + i] = ds[i][1];
            else
                ((float *)x)[5 + i] = fs[i][0], ((float *)y)[5 + i] = fs[i][1];
        }
        cl_mem dx = harness_buffer(h, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, N * size, x);
        cl_mem dy = harness_buffer(h, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, N * size, y);
        cl_mem dl = harness_buffer(h, CL_MEM_WRITE_ONLY, N * size, NULL);
        cl_mem de = harness_buffer(h, CL_MEM_WRITE_ONLY, N * sizeof *e, NULL);
        cl_mem dn = harness_buffer(h, CL_MEM_WRITE_ONLY, N * size, NULL);
        cl_kernel k = harness_kernel(program, is_double ? "exact_double" : "exact_float");
        CHECK_OK(harness_args(k, 5, ARG(dx), ARG(dy), ARG(dl), ARG(de), ARG(dn)));
        CHECK_OK(clEnqueueNDRangeKernel(h->queue, k, 1, NULL, &global, &local, 0, NULL, NULL));
        CHECK_OK(clEnqueueReadBuffer(h->queue, dl, CL_TRUE, 0, N * size, l, 0, NULL, NULL));
        CHECK_OK(clEnqueueReadBuffer(h->queue, de, CL_TRUE, 0, N * sizeof *e, e, 0, NULL, NULL));
        CHECK_OK(clEnqueueReadBuffer(h->queue, dn, CL_TRUE, 0, N * size, n, 0, NULL, NULL));
        size_t bad = 0;
        for (int i = 0; i < N; i++) {
            /* item 0 stores the double4 overload's lane 2: item 3's inputs */
            int j = is_double && i == 0 ? 3 : i;
            bool ok;
            if (is_double) {
                double a = ((double *)x)[i], b = ((double *)y)[j], lw = logb(a),
                       nw = nextafter(((double *)x)[j], b);
                ok = same_bits(&((double *)l)[i], &lw, size, isnan(lw), isnan(((double *)l)[i])) &&
                     e[i] == want_ilogb(a, ilogb(a)) &&
                     same_bits(&((double *)n)[i], &nw, size, isnan(nw), isnan(((double *)n)[i]));
            } else {
                float a = ((float *)x)[i], b = ((float *)y)[i], lw = logbf(a),
                      nw = nextafterf(a, b);
                ok = same_bits(&((float *)l)[i], &lw, size, isnan(lw), isnan(((float *)l)[i])) &&
                     e[i] == want_ilogb(a, ilogbf(a)) &&
                     same_bits(&((float *)n)[i], &nw, size, isnan(nw), isnan(((float *)n)[i]));
            }
            if (!ok && bad++ < 3)
                fprintf(stderr, "%s item %d: logb/ilogb/nextafter differ from the C library\n",
                        is_double ? "double" : "float", i);
        }
        CHECK_NONE_WRONG(bad, is_double ? "exact double functions" : "exact float functions");
        clReleaseKernel(k);
        clReleaseMemObject(dx), clReleaseMemObject(dy), clReleaseMemObject(dl);
        clReleaseMemObject(de), clReleaseMemObject(dn);
        free(x), free(y), free(l), free(n), free(e);
    }
    clReleaseProgram(program);
}

static const char *division_source =
    "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
    "#define DIVISION(T) kernel void division_##T(global const T *a, global const T *b,\\\n"
    "    global T *f, global T *r, global T *q, global int *quo)\\\n"
    "{ size_t i = get_global_id(0); f[i] = fmod(a[i], b[i]); r[i] = remainder(a[i], b[i]);\\\n"
    "  q[i] = remquo(a[i], b[i], quo + i); }\n"
    "DIVISION(float)\nDIVISION(double)\n";

/* remquo's quo: the sign of x/y and the low 7 bits of the nearest
 * quotient's magnitude (OpenCL C 6.13.2 asks for at least 3; the library
 * gives 7, as the CTS checks). Long double holds 128|y| and the exact
 * quotient of the reduced argument. */
static int want_quo(long double x, long double y)
{
    long double ax = fabsl(x), ay = fabsl(y);
    if (isnan(x) || isnan(y) || isinf(x) || y == 0 || isinf(y))
        return 0;
    long double reduced = fmodl(ax, 128 * ay), r = remainderl(reduced, ay);
    int n = (int)rintl((reduced - r) / ay) % 128;
    return signbit(x) != signbit(y) ? -n : n;
}

/* fmod, remainder and remquo, float (computed inline, exact: math.cl) and
 * double (the C library's): bit for bit the C library's result, and
 * remquo's quo as above, over the sweeps and the special pairs of 7.5.1,
 * ties, and the widest exponent gaps. */
static void check_division(struct harness *h, const float *fa, const float *fb, const double *da,
                           const double *db)
{
    cl_program program = harness_build(h, division_source, NULL);
    REQUIRE(program);
    enum { SPECIALS = 20 };
    const double s[SPECIALS][2] = {
        {5.0, 2.0},
        {7.0, 2.0},
        {-5.0, 2.0},
        {-7.0, -2.0},
        {0.0, 1.0},
        {-0.0, 3.0},
        {-4.0, 2.0},
        {1.0, 0.0},
        {INFINITY, 2.0},
        {2.0, INFINITY},
        {-2.0, -INFINITY},
        {NAN, 1.0},
        {1.0, NAN},
        {0x1p-149, 0x1p-149},
        {3e38, 0x1p-149},
        {3e38, 0x1.8p-148},
        {0x1.fffffep127, 0x1.000002p-126},
        {-0x1.234p100, 0x1.fp-120},
        {0x1p-130, 0x1p-140},
        {1e30, 3.0},
    };
    for (int is_double = 0; is_double < 2; is_double++) {
        size_t size = is_double ? sizeof(double) : sizeof(float), global = N, local = 64;
        char *x = malloc(N * size), *y = malloc(N * size), *f = malloc(N * size),
             *r = malloc(N * size), *q = malloc(N * size);
        int *quo = malloc(N * sizeof *quo);
        REQUIRE(x && y && f && r && q && quo);
        memcpy(x, is_double ? (const void *)da : fa, N * size);
        memcpy(y, is_double ? (const void *)db : fb, N * size);
        for (int i = 0; i < SPECIALS; i++) {
            if (is_double)
                ((double *)x)[i] = s[i][0], ((double *)y)[i] = s[i][1];
            else
                ((float *)x)[i] = (float)s[i][0], ((float *)y)[i] = (float)s[i][1];
        }
        cl_mem dx = harness_buffer(h, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, N * size, x);
        cl_mem dy = harness_buffer(h, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, N * size, y);
        cl_mem df = harness_buffer(h, CL_MEM_WRITE_ONLY, N * size, NULL);
        cl_mem dr = harness_buffer(h, CL_MEM_WRITE_ONLY, N * size, NULL);
        cl_mem dq = harness_buffer(h, CL_MEM_WRITE_ONLY, N * size, NULL);
        cl_mem dquo = harness_buffer(h, CL_MEM_WRITE_ONLY, N * sizeof *quo, NULL);
        cl_kernel k = harness_kernel(program, is_double ? "division_double" : "division_float");
        CHECK_OK(harness_args(k, 6, ARG(dx), ARG(dy), ARG(df), ARG(dr), ARG(dq), ARG(dquo)));
        CHECK_OK(clEnqueueNDRangeKernel(h->queue, k, 1, NULL, &global, &local, 0, NULL, NULL));
        CHECK_OK(clEnqueueReadBuffer(h->queue, df, CL_TRUE, 0, N * size, f, 0, NULL, NULL));
        CHECK_OK(clEnqueueReadBuffer(h->queue, dr, CL_TRUE, 0, N * size, r, 0, NULL, NULL));
        CHECK_OK(clEnqueueReadBuffer(h->queue, dq, CL_TRUE, 0, N * size, q, 0, NULL, NULL));
        CHECK_OK(
            clEnqueueReadBuffer(h->queue, dquo, CL_TRUE, 0, N * sizeof *quo, quo, 0, NULL, NULL));
        size_t bad = 0;
        for (int i = 0; i < N; i++) {
            bool ok;
            long double a, b;
            if (is_double) {
                a = ((double *)x)[i], b = ((double *)y)[i];
                double fw = fmod((double)a, (double)b), rw = remainder((double)a, (double)b);
                ok = same_bits(&((double *)f)[i], &fw, size, isnan(fw), isnan(((double *)f)[i])) &&
                     same_bits(&((double *)r)[i], &rw, size, isnan(rw), isnan(((double *)r)[i])) &&
                     same_bits(&((double *)q)[i], &rw, size, isnan(rw), isnan(((double *)q)[i]));
            } else {
                a = ((float *)x)[i], b = ((float *)y)[i];
                float fw = fmodf((float)a, (float)b), rw = remainderf((float)a, (float)b);
                ok = same_bits(&((float *)f)[i], &fw, size, isnan(fw), isnan(((float *)f)[i])) &&
                     same_bits(&((float *)r)[i], &rw, size, isnan(rw), isnan(((float *)r)[i])) &&
                     same_bits(&((float *)q)[i], &rw, size, isnan(rw), isnan(((float *)q)[i]));
            }
            ok = ok && quo[i] == want_quo(a, b);
            if (!ok && bad++ < 3)
                fprintf(stderr, "%s fmod/remainder/remquo(%La, %La) differ: quo %d, want %d\n",
                        is_double ? "double" : "float", a, b, quo[i], want_quo(a, b));
        }
        CHECK_NONE_WRONG(bad, is_double ? "double fmod, remainder, remquo"
                                        : "float fmod, remainder, remquo");
        clReleaseKernel(k);
        clReleaseMemObject(dx), clReleaseMemObject(dy), clReleaseMemObject(df);
        clReleaseMemObject(dr), clReleaseMemObject(dq), clReleaseMemObject(dquo);
        free(x), free(y), free(f), free(r), free(q), free(quo);
    }
    clReleaseProgram(program);
}

static const char *ldexp_source =
    "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
    "kernel void ldexp_float(global const float *a, global const int *k, global float *out)\n"
    "{ size_t i = get_global_id(0); out[i] = ldexp(a[i], k[i]); }\n"
    "kernel void ldexp_double(global const double *a, global const int *k, global double *out)\n"
    "{ size_t i = get_global_id(0); out[i] = ldexp(a[i], k[i]); }\n";

/* ldexp (computed from the bits, math.cl): bit for bit the C library's,
 * over the sweeps with exponents that cross both ends of each type's range
 * (subnormal results round once), and the extreme int exponents. */
static void check_ldexp(struct harness *h, const float *fa, const double *da)
{
    cl_program program = harness_build(h, ldexp_source, NULL);
    REQUIRE(program);
    int *k = malloc(N * sizeof *k);
    REQUIRE(k);
    for (int is_double = 0; is_double < 2; is_double++) {
        size_t size = is_double ? sizeof(double) : sizeof(float), global = N, local = 64;
        int span = is_double ? 2300 : 400;
        for (int i = 0; i < N; i++)
            k[i] = (int)((uint32_t)i * 2654435761u % (uint32_t)(2 * span + 1)) - span;
        k[0] = INT32_MIN, k[1] = INT32_MAX, k[2] = -1074, k[3] = 1074, k[4] = -2098;
        char *out = malloc(N * size);
        REQUIRE(out);
        const void *x = is_double ? (const void *)da : fa;
        cl_mem dx = harness_buffer(h, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, N * size, (void *)x);
        cl_mem dk = harness_buffer(h, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, N * sizeof *k, k);
        cl_mem dout = harness_buffer(h, CL_MEM_WRITE_ONLY, N * size, NULL);
        cl_kernel kernel = harness_kernel(program, is_double ? "ldexp_double" : "ldexp_float");
        CHECK_OK(harness_args(kernel, 3, ARG(dx), ARG(dk), ARG(dout)));
        CHECK_OK(clEnqueueNDRangeKernel(h->queue, kernel, 1, NULL, &global, &local, 0, NULL, NULL));
        CHECK_OK(clEnqueueReadBuffer(h->queue, dout, CL_TRUE, 0, N * size, out, 0, NULL, NULL));
        size_t bad = 0;
        for (int i = 0; i < N; i++) {
            bool ok;
            if (is_double) {
                double want = ldexp(da[i], k[i]), got = ((double *)out)[i];
                ok = same_bits(&got, &want, size, isnan(want), isnan(got));
            } else {
                float want = ldexpf(fa[i], k[i]), got = ((float *)out)[i];
                ok = same_bits(&got, &want, size, isnan(want), isnan(got));
            }
            if (!ok && bad++ < 3)
                fprintf(stderr, "%s ldexp item %d (k %d) differs from the C library\n",
                        is_double ? "double" : "float", i, k[i]);
        }
        CHECK_NONE_WRONG(bad, is_double ? "double ldexp" : "float ldexp");
        clReleaseKernel(kernel);
        clReleaseMemObject(dx), clReleaseMemObject(dk), clReleaseMemObject(dout);
        free(out);
    }
    free(k);
    clReleaseProgram(program);
}

/* element i of a buffer of floats or doubles */
static void store_value(char *buffer, bool is_double, size_t i, double value)
{
    if (is_double)
        ((double *)buffer)[i] = value;
    else
        ((float *)buffer)[i] = (float)value;
}

static const char *frexp_source =
    "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
    "#define FREXP(T) kernel void frexp_##T(global const T *a, global T *out, global int *e)\\\n"
    "{ size_t i = get_global_id(0); out[i] = frexp(a[i], e + i); }\n"
    "FREXP(float)\nFREXP(double)\n";

/* frexp (from the bits, math.cl): the C library's fraction bit for bit and
 * its exponent (0 for inf and NaN, which C leaves unspecified), over the
 * sweeps, zeros, infinities, NaN and the denormals. */
static void check_frexp(struct harness *h, const float *fa, const double *da)
{
    static const double specials[] = {0.0,       -0.0,       INFINITY,  -INFINITY, NAN,
                                      0x1p-149,  -0x1p-149,  0x1p-127,  0x1p-126,  0x1p-1074,
                                      0x1p-1060, -0x1p-1023, 0x1p-1022, 1.0,       -0.75};
    enum { SPECIALS = sizeof specials / sizeof specials[0] };
    cl_program program = harness_build(h, frexp_source, NULL);
    REQUIRE(program);
    for (int is_double = 0; is_double < 2; is_double++) {
        size_t size = is_double ? sizeof(double) : sizeof(float), global = N;
        char *x = malloc(N * size), *out = malloc(N * size);
        int *e = malloc(N * sizeof *e);
        REQUIRE(x && out && e);
        memcpy(x, is_double ? (const void *)da : fa, N * size);
        for (int i = 0; i < SPECIALS; i++)
            store_value(x, is_double, i, specials[i]);
        cl_mem dx = harness_buffer(h, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, N * size, x);
        cl_mem dout = harness_buffer(h, CL_MEM_WRITE_ONLY, N * size, NULL);
        cl_mem de = harness_buffer(h, CL_MEM_WRITE_ONLY, N * sizeof *e, NULL);
        cl_kernel kernel = harness_kernel(program, is_double ? "frexp_double" : "frexp_float");
        CHECK_OK(harness_args(kernel, 3, ARG(dx), ARG(dout), ARG(de)));
        CHECK_OK(clEnqueueNDRangeKernel(h->queue, kernel, 1, NULL, &global, NULL, 0, NULL, NULL));
        CHECK_OK(clEnqueueReadBuffer(h->queue, dout, CL_TRUE, 0, N * size, out, 0, NULL, NULL));
        CHECK_OK(clEnqueueReadBuffer(h->queue, de, CL_TRUE, 0, N * sizeof *e, e, 0, NULL, NULL));
        size_t bad = 0;
        for (int i = 0; i < N; i++) {
            int want_e;
            bool ok;
            if (is_double) {
                double a = ((double *)x)[i], want = frexp(a, &want_e), got = ((double *)out)[i];
                ok = same_bits(&got, &want, size, isnan(want), isnan(got));
                want_e = isfinite(a) ? want_e : 0;
            } else {
                float a = ((float *)x)[i], want = frexpf(a, &want_e), got = ((float *)out)[i];
                ok = same_bits(&got, &want, size, isnan(want), isnan(got));
                want_e = isfinite(a) ? want_e : 0;
            }
            if (!(ok && e[i] == want_e) && bad++ < 3)
                fprintf(stderr, "%s frexp item %d differs from the C library\n",
                        is_double ? "double" : "float", i);
        }
        CHECK_NONE_WRONG(bad, is_double ? "double frexp" : "float frexp");
        clReleaseKernel(kernel);
        clReleaseMemObject(dx), clReleaseMemObject(dout), clReleaseMemObject(de);
        free(x), free(out), free(e);
    }
    clReleaseProgram(program);
}

static const char *pi_source =
    "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
    "#define PI(T) kernel void pi_##T(global const T *a, global T *s, global T *c, global T *t)\\\n"
    "{ size_t i = get_global_id(0); s[i] = sinpi(a[i]); c[i] = cospi(a[i]); t[i] = tanpi(a[i]); }\n"
    "PI(float)\nPI(double)\n";

/* The exact values of OpenCL C 7.5.1 for sinpi, cospi and tanpi: at
 * integers n, sinpi(n) = copysign(0, n), cospi(n) = (-1)^n, tanpi(n) =
 * copysign(0, n) for even n and copysign(0, -n) for odd n; at n + 0.5,
 * sinpi = (-1)^n, cospi = +0, tanpi = +inf for even n and -inf for odd
 * n; NaN at +-inf and NaN. Sign bits included. */
static void pi_wants(double x, double want[3])
{
    double n = floor(x);
    bool odd = fmod(fabs(n), 2) == 1;
    if (!isfinite(x)) {
        want[0] = want[1] = want[2] = NAN;
    } else if (x == n) {
        want[0] = copysign(0.0, x), want[1] = odd ? -1.0 : 1.0;
        want[2] = copysign(0.0, odd ? -x : x);
    } else { /* x - n == 0.5 */
        want[0] = odd ? -1.0 : 1.0, want[1] = 0.0, want[2] = odd ? -INFINITY : INFINITY;
    }
}
static void check_pi_specials(struct harness *h)
{
    static const double x[] = {0.0,  -0.0,     1.0,       -1.0,    2.0,           -2.0,
                               3.0,  -3.0,     0.5,       -0.5,    1.5,           -1.5,
                               2.5,  -2.5,     0x1p24,    -0x1p24, 0x1.000002p23, -0x1.000002p23,
                               1e30, INFINITY, -INFINITY, NAN,     0x1p52 + 1,    -0x1p52 - 1};
    enum { X = sizeof x / sizeof x[0], FLOAT_X = X - 2 }; /* the last two are not floats */
    cl_program program = harness_build(h, pi_source, NULL);
    REQUIRE(program);
    for (int is_double = 0; is_double < 2; is_double++) {
        size_t size = is_double ? sizeof(double) : sizeof(float), global = is_double ? X : FLOAT_X;
        char in[X * sizeof(double)], got[3][X * sizeof(double)];
        for (size_t i = 0; i < global; i++)
            store_value(in, is_double, i, x[i]);
        cl_mem dx = harness_buffer(h, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, global * size, in);
        cl_mem out[3];
        for (int f = 0; f < 3; f++)
            out[f] = harness_buffer(h, CL_MEM_WRITE_ONLY, global * size, NULL);
        cl_kernel kernel = harness_kernel(program, is_double ? "pi_double" : "pi_float");
        CHECK_OK(harness_args(kernel, 4, ARG(dx), ARG(out[0]), ARG(out[1]), ARG(out[2])));
        CHECK_OK(clEnqueueNDRangeKernel(h->queue, kernel, 1, NULL, &global, NULL, 0, NULL, NULL));
        for (int f = 0; f < 3; f++)
            CHECK_OK(clEnqueueReadBuffer(h->queue, out[f], CL_TRUE, 0, global * size, got[f], 0,
                                         NULL, NULL));
        size_t bad = 0;
        for (size_t i = 0; i < global; i++) {
            double want[3];
            pi_wants(x[i], want);
            for (int f = 0; f < 3; f++) {
                bool ok;
                if (is_double) {
                    double g = ((double *)got[f])[i];
                    ok = same_bits(&g, &want[f], size, isnan(want[f]), isnan(g));
                } else {
                    float g = ((float *)got[f])[i], w = (float)want[f];
                    ok = same_bits(&g, &w, size, isnan(w), isnan(g));
                }
                if (!ok && bad++ < 5)
                    fprintf(stderr, "%s %s(%a) is not %a\n", is_double ? "double" : "float",
                            f == 0   ? "sinpi"
                            : f == 1 ? "cospi"
                                     : "tanpi",
                            x[i], want[f]);
            }
        }
        CHECK_NONE_WRONG(bad, is_double ? "double sinpi/cospi/tanpi exact values"
                                        : "float sinpi/cospi/tanpi exact values");
        clReleaseKernel(kernel);
        clReleaseMemObject(dx);
        for (int f = 0; f < 3; f++)
            clReleaseMemObject(out[f]);
    }
    clReleaseProgram(program);
}

static const char *lgamma_source =
    "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
    "kernel void lgamma_float(global const float *a, global float *out, global float *out_r,\n"
    "                         global int *sign)\n"
    "{ size_t i = get_global_id(0); out[i] = lgamma(a[i]); out_r[i] = lgamma_r(a[i], sign + i); }\n"
    "kernel void lgamma_double(global const double *a, global double *out, global double *out_r,\n"
    "                          global int *sign)\n"
    "{ size_t i = get_global_id(0); out[i] = lgamma(a[i]); out_r[i] = lgamma_r(a[i], sign + i); "
    "}\n";

/* lgamma and lgamma_r (no vector library's lgamma is accurate near its
 * negative zeros): the C library's reentrant result and sign bit for bit,
 * now that a work-item loop around them vectorizes with a call per lane
 * (src/compiler/lanes.c) and the sign computed inline, over the sweeps
 * and the poles, zeros, infinities and NaN. */
static void check_lgamma(struct harness *h, const float *fa, const double *da)
{
    static const double specials[] = {0.0,  -0.0,  -1.0,    -2.0,      -3.0,      -0.5, -1.5,
                                      -2.5, 1e-30, -1e-30,  INFINITY,  -INFINITY, NAN,  2.0,
                                      1.0,  -1e20, -0x1p52, -0x1.8p22, -0x1.4p21};
    enum { SPECIALS = sizeof specials / sizeof specials[0] };
    cl_program program = harness_build(h, lgamma_source, NULL);
    REQUIRE(program);
    int *sign = malloc(N * sizeof *sign);
    REQUIRE(sign);
    for (int is_double = 0; is_double < 2; is_double++) {
        size_t size = is_double ? sizeof(double) : sizeof(float), global = N;
        char *x = malloc(N * size), *out = malloc(N * size), *out_r = malloc(N * size);
        REQUIRE(x && out && out_r);
        memcpy(x, is_double ? (const void *)da : fa, N * size);
        for (int i = 0; i < SPECIALS; i++) {
            if (is_double)
                ((double *)x)[i] = specials[i];
            else
                ((float *)x)[i] = (float)specials[i];
        }
        cl_mem dx = harness_buffer(h, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, N * size, x);
        cl_mem dout = harness_buffer(h, CL_MEM_WRITE_ONLY, N * size, NULL);
        cl_mem dout_r = harness_buffer(h, CL_MEM_WRITE_ONLY, N * size, NULL);
        cl_mem dsign = harness_buffer(h, CL_MEM_WRITE_ONLY, N * sizeof *sign, NULL);
        cl_kernel kernel = harness_kernel(program, is_double ? "lgamma_double" : "lgamma_float");
        CHECK_OK(harness_args(kernel, 4, ARG(dx), ARG(dout), ARG(dout_r), ARG(dsign)));
        CHECK_OK(clEnqueueNDRangeKernel(h->queue, kernel, 1, NULL, &global, NULL, 0, NULL, NULL));
        CHECK_OK(clEnqueueReadBuffer(h->queue, dout, CL_TRUE, 0, N * size, out, 0, NULL, NULL));
        CHECK_OK(clEnqueueReadBuffer(h->queue, dout_r, CL_TRUE, 0, N * size, out_r, 0, NULL, NULL));
        CHECK_OK(clEnqueueReadBuffer(h->queue, dsign, CL_TRUE, 0, N * sizeof *sign, sign, 0, NULL,
                                     NULL));
        size_t bad = 0;
        for (int i = 0; i < N; i++) {
            int want_sign;
            bool ok;
            if (is_double) {
                double want = lgamma_r(((double *)x)[i], &want_sign);
                double got = ((double *)out)[i], got_r = ((double *)out_r)[i];
                ok = same_bits(&got, &want, size, isnan(want), isnan(got)) &&
                     same_bits(&got_r, &want, size, isnan(want), isnan(got_r));
            } else {
                float want = lgammaf_r(((float *)x)[i], &want_sign);
                float got = ((float *)out)[i], got_r = ((float *)out_r)[i];
                ok = same_bits(&got, &want, size, isnan(want), isnan(got)) &&
                     same_bits(&got_r, &want, size, isnan(want), isnan(got_r));
            }
            ok = ok && sign[i] == want_sign;
            if (!ok && bad++ < 3)
                fprintf(stderr, "%s lgamma/lgamma_r item %d differs from the C library (sign %d)\n",
                        is_double ? "double" : "float", i, sign[i]);
        }
        CHECK_NONE_WRONG(bad, is_double ? "double lgamma, lgamma_r" : "float lgamma, lgamma_r");
        clReleaseKernel(kernel);
        clReleaseMemObject(dx), clReleaseMemObject(dout), clReleaseMemObject(dout_r);
        clReleaseMemObject(dsign);
        free(x), free(out), free(out_r);
    }
    free(sign);
    clReleaseProgram(program);
}

int main(void)
{
    struct harness h = harness_open();
    cl_program program = harness_build(&h, kernel_source(), NULL);
    REQUIRE(program);
    float *fa = malloc(N * sizeof *fa), *fb = malloc(N * sizeof *fb), *fo = malloc(N * sizeof *fo);
    double *da = malloc(N * sizeof *da), *db = malloc(N * sizeof *db),
           *dout = malloc(N * sizeof *dout);
    REQUIRE(fa && fb && fo && da && db && dout);
    fill_float(fa, fb);
    fill_double(da, db);
    cl_mem a[2], b[2], out[2];
    a[0] = harness_buffer(&h, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, N * sizeof *fa, fa);
    b[0] = harness_buffer(&h, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, N * sizeof *fb, fb);
    out[0] = harness_buffer(&h, CL_MEM_WRITE_ONLY, N * sizeof *fo, NULL);
    a[1] = harness_buffer(&h, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, N * sizeof *da, da);
    b[1] = harness_buffer(&h, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, N * sizeof *db, db);
    out[1] = harness_buffer(&h, CL_MEM_WRITE_ONLY, N * sizeof *dout, NULL);
    for (int f = 0; f < NUM_FUNCTIONS; f++) {
        for (int w = -1; w < NUM_WIDTHS; w++) {
            int width = w < 0 ? 1 : widths[w];
            check(&h, program, &functions[f], false, width, a[0], b[0], out[0], fa, fb, fo);
            check(&h, program, &functions[f], true, width, a[1], b[1], out[1], da, db, dout);
        }
    }
    check_rootn(&h, program);
    /* without optimisation the vector overloads of the C library's functions
     * call it per lane (src/compiler/vecmath.c) */
    cl_program plain = harness_build(&h, kernel_source(), "-cl-opt-disable");
    REQUIRE(plain);
    for (int f = 0; f < NUM_FUNCTIONS; f++)
        for (int w = 0; w < NUM_WIDTHS; w++) {
            check(&h, plain, &functions[f], false, widths[w], a[0], b[0], out[0], fa, fb, fo);
            check(&h, plain, &functions[f], true, widths[w], a[1], b[1], out[1], da, db, dout);
        }
    clReleaseProgram(plain);
    check_exact(&h, fa, fb, da, db);
    check_division(&h, fa, fb, da, db);
    check_ldexp(&h, fa, da);
    check_frexp(&h, fa, da);
    check_pi_specials(&h);
    check_lgamma(&h, fa, da);
    check_remquo(&h, program);
    for (int i = 0; i < 2; i++) {
        clReleaseMemObject(a[i]);
        clReleaseMemObject(b[i]);
        clReleaseMemObject(out[i]);
    }
    free(fa), free(fb), free(fo), free(da), free(db), free(dout);
    clReleaseProgram(program);
    harness_close(&h);
    return harness_finish();
}
