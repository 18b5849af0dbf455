/* test_math_domains.c - the math built-ins at the edges of their domains,
 * where math.cl answers the special inputs itself rather than let glibc's
 * vector functions compute them one lane at a time (asin of |x| > 1, exp
 * that overflows, log of x <= 0, pow of a negative x, ...), and at the
 * bands next to its thresholds, where the C library still computes.
 *
 * Every function, float and double, scalar (a work-item loop the
 * vectorizer turns into vector calls), float4/double4 and float8/double8,
 * optimised and with -cl-opt-disable, over +-0, +-inf, NaN, +-1 and its
 * neighbours, denormals, the largest values and both signs of every
 * threshold (and one part in 2^20 either side), against the C library's
 * long double function: NaN where it is NaN, the same infinity, zero (with
 * its sign) and -1 where it gives them, and elsewhere within OpenCL C 7.4's
 * ulp bound. pow takes every pair of a list of x (negative integers and
 * fractions, +-0, +-inf, NaN, ...) and of y (odd and even integers, 2^24
 * and 2^53 and their neighbours, fractions, +-inf, NaN). sin and cos go
 * to SLEEF's functions for vectors with a lane beyond libmvec's vector
 * reduction (guards.c): their edges are the bounds on either side. */
#include <float.h>
#include <stdbool.h>
#include <string.h>

#include "../harness.h"

static const struct function {
    const char *name;
    double bound; /* OpenCL C 7.4, float and double alike for these */
    long double (*one)(long double);
} functions[] = {
    {"asin", 4, asinl},   {"acos", 4, acosl},   {"acosh", 4, acoshl}, {"atanh", 5, atanhl},
    {"sinh", 4, sinhl},   {"cosh", 4, coshl},   {"exp", 3, expl},     {"exp2", 3, exp2l},
    {"exp10", 3, exp10l}, {"expm1", 3, expm1l}, {"erfc", 16, erfcl},  {"log", 3, logl},
    {"log2", 3, log2l},   {"log10", 3, log10l}, {"pow", 16, NULL},    {"sin", 4, sinl},
    {"cos", 4, cosl},
};
enum { NUM_FUNCTIONS = sizeof functions / sizeof functions[0] };

/* the magnitudes around which math.cl or libmvec changes how it computes */
static const double edges[] = {
    0.5,
    1.0,
    2.0,
    10.0,
    10.05,
    10.06,
    10.1,
    10.2,
    17.0,
    20.0,
    26.5,
    27.2,
    27.3,
    27.4,
    32.0,
    33.0,
    37.9,
    38.5,
    38.6,
    38.7,
    41.0, /* inside the bands below FLT_MIN computed as f(x / 2)^2 (guards.c) */
    45.1,
    45.2,
    45.3,
    64.0,
    86.5,
    87.3,
    87.34,
    88.7,
    88.72,
    88.73,
    89.0,
    89.4,
    89.5,
    89.6,
    90.0,
    95.5,
    100.25,
    103.9,
    104.0,
    104.1,
    126.0,
    127.9,
    128.0,
    128.1,
    140.7,
    149.5,
    150.0,
    150.1,
    307.6,
    308.2,
    308.3,
    308.4,
    323.6,
    323.7,
    323.8,
    707.7,
    708.4,
    709.7,
    709.8,
    710.0,
    710.4,
    710.5,
    711.0,
    744.0,
    745.1,
    745.2,
    746.0,
    747.0,
    1021.0,
    1022.,
    1023.9,
    1024.,
    1025.0,
    1074.0,
    1075.0,
    1076.,
    1e3,
    1e5,
    1e10,
    1e30,
    1e300,
    /* sin and cos: where guards.c sends vectors to SLEEF, and libmvec's bounds */
    8192.0,
    9000.,
    10000.,
    8e6,
    8388608.,
    1.6e7,
    1e9,
    1e15,
};
enum { NUM_EDGES = sizeof edges / sizeof edges[0] };

static const double pow_x[] = {-3.0,     -2.0,      -1.0, -0.5,  -0.0,     0.0,   0.5,
                               1.0,      2.0,       3.0,  -10.0, -1e-3,    -1e30, 1e-30,
                               INFINITY, -INFINITY, NAN,  -1.5,  -0x1p-140};
static const double pow_y[] = {-3.0,       -2.0,       -1.0,   -0.5, 0.0,      -0.0,      0.5,
                               1.0,        2.0,        3.0,    2.5,  101.0,    -101.0,    0x1p24,
                               0x1p24 + 2, 0x1p24 - 1, 0x1p53, 1e10, INFINITY, -INFINITY, NAN};
enum { PX = sizeof pow_x / sizeof pow_x[0], PY = sizeof pow_y / sizeof pow_y[0] };

/* the unary inputs: specials, then every edge with both signs and its
 * neighbours one part in 2^20 away */
static int unary_inputs(double *x)
{
    static const double specials[] = {0.0,           -0.0,          INFINITY,      -INFINITY,
                                      NAN,           1.0 + 0x1p-23, 1.0 - 0x1p-24, 1.0 + 0x1p-52,
                                      1.0 - 0x1p-53, 0x1p-140,      0x1p-1070,     FLT_MAX,
                                      DBL_MAX,       FLT_MIN,       DBL_MIN};
    int n = 0;
    for (size_t i = 0; i < sizeof specials / sizeof specials[0]; i++) {
        x[n++] = specials[i];
        x[n++] = -specials[i];
    }
    for (int i = 0; i < NUM_EDGES; i++)
        for (int sign = -1; sign <= 1; sign += 2)
            for (int k = -1; k <= 1; k++)
                x[n++] = sign * edges[i] * (1.0 + k * 0x1p-20);
    return n;
}

enum { N = 1024 }; /* a multiple of every width; the inputs repeat to fill it */

static char *kernel_source(void)
{
    static char text[32768];
    size_t used = snprintf(text, sizeof text, "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n");
    static const char *types[] = {"float", "double"};
    for (int f = 0; f < NUM_FUNCTIONS; f++)
        for (int d = 0; d < 2; d++) {
            const char *t = types[d], *name = functions[f].name;
            const char *second = functions[f].one ? "" : ", b[i]";
            used += snprintf(text + used, sizeof text - used,
                             "kernel void %s_%s(global const %s *a, global const %s *b, "
                             "global %s *out)\n{ size_t i = get_global_id(0); out[i] = %s(a[i]%s); "
                             "}\n",
                             t, name, t, t, t, name, second);
            for (int w = 4; w <= 8; w += 4)
                used += snprintf(
                    text + used, sizeof text - used,
                    "kernel void %s%d_%s(global const %s *a, global const %s *b, "
                    "global %s *out)\n{ size_t i = get_global_id(0); vstore%d(%s(vload%d(i, "
                    "a)%s), i, out); }\n",
                    t, w, name, t, t, t, w, name, w,
                    functions[f].one ? ""
                    : w == 4         ? ", vload4(i, b)"
                                     : ", vload8(i, b)");
        }
    return text;
}

/* Whether got (of a type of `digits` bits of mantissa, smallest normal
 * exponent min_exp, largest finite max) is the right answer to want. */
static bool acceptable(long double got, long double want, int digits, int min_exp, long double max,
                       double bound)
{
    if (isnan(want))
        return isnan(got);
    if (isnan(got))
        return false;
    int e;
    frexpl(want, &e);
    if (e < min_exp)
        e = min_exp;
    long double ulp = ldexpl(1.0L, e - digits);
    /* overflow: infinity, or the largest values, as the reference's
     * rounding near the top allows */
    if (fabsl(want) >= max - bound * ulp)
        return (isinf(got) && signbit(got) == signbit(want)) || fabsl(got - want) <= bound * ulp;
    if (isinf(got))
        return false;
    if (want == 0 && got == 0)
        return signbit(got) == signbit(want);
    if (want == -1 || want == 1)
        return got == want;
    return fabsl(got - want) <= bound * ulp;
}

static void check(struct harness *h, cl_program program, const struct function *fn, bool is_double,
                  int width, const char *build)
{
    double inputs[N], a[N], b[N];
    int count;
    if (fn->one) {
        count = unary_inputs(inputs);
        REQUIRE(count <= N);
        for (int i = 0; i < N; i++)
            a[i] = inputs[i % count], b[i] = 0;
    } else {
        count = PX * PY;
        for (int i = 0; i < N; i++)
            a[i] = pow_x[(i % count) / PY], b[i] = pow_y[i % PY];
    }
    size_t size = is_double ? sizeof(double) : sizeof(float);
    float fa[N], fb[N];
    for (int i = 0; i < N; i++)
        fa[i] = (float)a[i], fb[i] = (float)b[i];
    cl_mem da = harness_buffer(h, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, N * size,
                               is_double ? (void *)a : (void *)fa);
    cl_mem db = harness_buffer(h, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, N * size,
                               is_double ? (void *)b : (void *)fb);
    cl_mem dout = harness_buffer(h, CL_MEM_WRITE_ONLY, N * size, NULL);
    char name[64];
    snprintf(name, sizeof name, "%s%.0d_%s", is_double ? "double" : "float", width > 1 ? width : 0,
             fn->name);
    cl_kernel kernel = harness_kernel(program, name);
    REQUIRE(kernel);
    CHECK_OK(harness_args(kernel, 3, ARG(da), ARG(db), ARG(dout)));
    size_t global = N / (size_t)width;
    CHECK_OK(clEnqueueNDRangeKernel(h->queue, kernel, 1, NULL, &global, NULL, 0, NULL, NULL));
    double out[N];
    float fout[N];
    CHECK_OK(clEnqueueReadBuffer(h->queue, dout, CL_TRUE, 0, N * size,
                                 is_double ? (void *)out : (void *)fout, 0, NULL, NULL));
    long bad = 0;
    for (int i = 0; i < N; i++) {
        long double x = is_double ? a[i] : fa[i], y = is_double ? b[i] : fb[i];
        long double want = fn->one ? fn->one(x) : powl(x, y);
        long double got = is_double ? out[i] : fout[i];
        bool ok = is_double ? acceptable(got, want, DBL_MANT_DIG, DBL_MIN_EXP, DBL_MAX, fn->bound)
                            : acceptable(got, want, FLT_MANT_DIG, FLT_MIN_EXP, FLT_MAX, fn->bound);
        if (!ok && bad++ < 3 && fn->one)
            fprintf(stderr, "%s (%s): %s(%La) = %La, want %La\n", name, build, fn->name, x, got,
                    want);
        else if (!ok && bad <= 3)
            fprintf(stderr, "%s (%s): %s(%La, %La) = %La, want %La\n", name, build, fn->name, x, y,
                    got, want);
    }
    char what[96];
    snprintf(what, sizeof what, "%s (%s)", name, build);
    CHECK_NONE_WRONG(bad, what);
    clReleaseKernel(kernel);
    clReleaseMemObject(da), clReleaseMemObject(db), clReleaseMemObject(dout);
}

int main(void)
{
    struct harness h = harness_open();
    static const char *builds[] = {"", "-cl-opt-disable"};
    for (int o = 0; o < 2; o++) {
        cl_program program = harness_build(&h, kernel_source(), builds[o]);
        REQUIRE(program);
        for (int f = 0; f < NUM_FUNCTIONS; f++)
            for (int d = 0; d < 2; d++)
                for (int w = 1; w <= 8; w *= w == 1 ? 4 : 2)
                    check(&h, program, &functions[f], d, w, o ? builds[o] : "optimised");
        clReleaseProgram(program);
    }
    harness_close(&h);
    return harness_finish();
}
