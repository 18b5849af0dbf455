/* guards.c - glibc's vector math functions without their slow lanes.
 *
 * libmvec's vector functions compute the lanes they have no vector code
 * for (asin of |x| > 1, exp that overflows or underflows, log of x <= 0,
 * pow of a negative x, ...) by calling the scalar C function once for each
 * such lane; for asin, acos, acosh, atanh, sinh and cosh that is glibc's
 * SVID wrapper, which raises the exception and sets errno through
 * __kernel_standard: a kernel whose inputs were half outside the domain
 * ran 5-15 times slower than one inside it (float asin: 1.4 -> 21 ms for
 * 4 Mi items).
 *
 * vecmath.c names these wrappers as the vector variants instead of
 * libmvec's functions. A wrapper tests its lanes against the inputs
 * libmvec leaves to the scalar function (measured on glibc 2.36 by
 * interposing the scalar functions: asin |x| > 1, expf |x| > 87.3, ...;
 * the bounds below are a little inside them) and, when no lane is one,
 * which is one predictable branch, calls libmvec's function with the
 * argument still in its register. Otherwise the marked lanes get a
 * harmless argument for the vector call and then their result from the
 * guarded scalar function below, which answers the inputs whose result
 * OpenCL C 7.5.1 fixes (NaN, +-inf, +-0, -1) itself and calls the C
 * library for the rest (the bands where the result is finite but libmvec
 * stops: rare, and correct). Testing inside math.cl instead cost 10-28%
 * of a cheap function: the values tested stayed live across the call,
 * which preserves no vector register.
 *
 * The guarded scalar functions are also what the JIT binds for the C
 * library's names (asinf, coshf, ...): scalar calls avoid the SVID path
 * too.
 *
 * sin and cos have wrappers of another kind (FAR below): libmvec reduces
 * their argument in vector code only up to a magnitude, and calls the
 * scalar function for each lane beyond it, where glibc's double reduction
 * (__branred) costs 50 ns a lane from about 1e9 on. SLEEF's _u10
 * functions reduce every argument in vector code, within 1 ulp; a vector
 * with a lane beyond the bound goes to SLEEF's function whole.
 */
#include <dlfcn.h>
#include <immintrin.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "compiler/internal.h"

/* --- the guarded scalar functions --- */

static float g_asinf(float x)
{
    return fabsf(x) <= 1 ? asinf(x) : NAN;
}
static double g_asin(double x)
{
    return fabs(x) <= 1 ? asin(x) : NAN;
}
static float g_acosf(float x)
{
    return fabsf(x) <= 1 ? acosf(x) : NAN;
}
static double g_acos(double x)
{
    return fabs(x) <= 1 ? acos(x) : NAN;
}
static float g_acoshf(float x)
{
    return x >= 1 ? acoshf(x) : NAN;
}
static double g_acosh(double x)
{
    return x >= 1 ? acosh(x) : NAN;
}
/* atanh(+-1) = +-inf */
static float g_atanhf(float x)
{
    return fabsf(x) < 1 ? atanhf(x) : fabsf(x) == 1 ? x * INFINITY : NAN;
}
static double g_atanh(double x)
{
    return fabs(x) < 1 ? atanh(x) : fabs(x) == 1 ? x * INFINITY : NAN;
}
/* Beyond these magnitudes (erfc: above these x) the result is fixed:
 * e^89.5 / 2 > FLT_MAX, e^710.5 / 2 > DBL_MAX; e^-104 < 2^-150, 2^-1075,
 * 10^-45.2 < 2^-150, 10^-323.7 < 2^-1075; expm1 rounds to -1 from -89 and
 * -710; erfc(10.1) < 2^-150, erfc(27.3) < 2^-1075. */
#define HYPERBOLIC_F 89.5f
#define HYPERBOLIC_D 710.5
#define EXP_F 104.0f
#define EXP_D 746.0
#define EXP2_F 150.0f
#define EXP2_D 1075.0
#define EXP10_F 45.2f
#define EXP10_D 323.7
#define EXPM1_F 89.0f
#define EXPM1_D 710.0
#define ERFC_F 10.1f
#define ERFC_D 27.3

/* x * inf: +-inf, NaN for NaN */
static float g_sinhf(float x)
{
    return fabsf(x) <= HYPERBOLIC_F ? sinhf(x) : x * INFINITY;
}
static double g_sinh(double x)
{
    return fabs(x) <= HYPERBOLIC_D ? sinh(x) : x * INFINITY;
}
static float g_coshf(float x)
{
    return fabsf(x) <= HYPERBOLIC_F ? coshf(x) : fabsf(x) * INFINITY;
}
static double g_cosh(double x)
{
    return fabs(x) <= HYPERBOLIC_D ? cosh(x) : fabs(x) * INFINITY;
}
/* beyond +-H: +inf above, LOW below (the correctly rounded result there),
 * NaN for NaN */
#define EXPONENTIAL(NAME, T, F, H, LOW)                                                            \
    static T NAME(T x)                                                                             \
    {                                                                                              \
        return fabs(x) <= H ? F(x) : x < 0 ? LOW : x * INFINITY;                                   \
    }
EXPONENTIAL(g_expf, float, expf, EXP_F, 0.0f)
EXPONENTIAL(g_exp, double, exp, EXP_D, 0.0)
EXPONENTIAL(g_exp2f, float, exp2f, EXP2_F, 0.0f)
EXPONENTIAL(g_exp2, double, exp2, EXP2_D, 0.0)
EXPONENTIAL(g_exp10f, float, exp10f, EXP10_F, 0.0f)
EXPONENTIAL(g_exp10, double, exp10, EXP10_D, 0.0)
EXPONENTIAL(g_expm1f, float, expm1f, EXPM1_F, -1.0f)
EXPONENTIAL(g_expm1, double, expm1, EXPM1_D, -1.0)
static float g_erfcf(float x)
{
    return x <= ERFC_F ? erfcf(x) : x > 0 ? 0.0f : x;
}
static double g_erfc(double x)
{
    return x <= ERFC_D ? erfc(x) : x > 0 ? 0.0 : x;
}
/* x < 0: NaN; +-0: -inf; +inf and NaN: themselves */
#define LOGARITHM(NAME, T, F, MAX)                                                                 \
    static T NAME(T x)                                                                             \
    {                                                                                              \
        return x > 0 && x <= MAX ? F(x) : x == 0 ? -INFINITY : x > 0 ? x : NAN;                    \
    }
LOGARITHM(g_logf, float, logf, 0x1.fffffep127f)
LOGARITHM(g_log, double, log, 0x1.fffffffffffffp1023)
LOGARITHM(g_log2f, float, log2f, 0x1.fffffep127f)
LOGARITHM(g_log2, double, log2, 0x1.fffffffffffffp1023)
LOGARITHM(g_log10f, float, log10f, 0x1.fffffep127f)
LOGARITHM(g_log10, double, log10, 0x1.fffffffffffffp1023)

/* --- the vector wrappers --- */

typedef int i4 __attribute__((vector_size(16)));
typedef int i8 __attribute__((vector_size(32)));
typedef int i16 __attribute__((vector_size(64)));
typedef long l2 __attribute__((vector_size(16)));
typedef long l4 __attribute__((vector_size(32)));
typedef long l8 __attribute__((vector_size(64)));

/* whether every lane of a comparison's result is set, per ISA and type */
#define ALL_sse2_f(m) (_mm_movemask_ps((__m128)(m)) == 0xf)
#define ALL_avx2_f(m) (_mm256_movemask_ps((__m256)(m)) == 0xff)
#define ALL_avx512f_f(m) (_mm512_test_epi32_mask((__m512i)(m), (__m512i)(m)) == 0xffff)
#define ALL_sse2_d(m) (_mm_movemask_pd((__m128d)(m)) == 0x3)
#define ALL_avx2_d(m) (_mm256_movemask_pd((__m256d)(m)) == 0xf)
#define ALL_avx512f_d(m) (_mm512_test_epi64_mask((__m512i)(m), (__m512i)(m)) == 0xff)

/* The lanes libmvec computes in vector code (glibc 2.36; a = |x|), each
 * test a little narrower than libmvec's. Left to the scalar function are
 * NaN everywhere, and asin, acos |x| > 1; acosh x <= 1 and +inf; atanh |x| >= 1; sinh, cosh |x|
 * > 87.3 (float), 707.8 (double); exp |x| > 87.3, 708.4; exp2 |x| > 126, 1022; exp10 |x| > 37.9,
 * 307.6; expm1 |x| > 86.6, 707.8; erfc x > 10.05, 27.2; log, log2, log10 and pow's x zero,
 * denormal, negative or infinite. */
#define GOOD_UNIT(x, a) (a <= 1)
#define GOOD_ACOSH(x, a) ((x > 1) & (x < INFINITY))
#define GOOD_ATANH(x, a) (a < 1)
#define GOOD_HYPERBOLIC_F(x, a) (a <= 87.0f)
#define GOOD_HYPERBOLIC_D(x, a) (a <= 707.0)
#define GOOD_EXP_F(x, a) (a <= 87.0f)
#define GOOD_EXP_D(x, a) (a <= 708.0)
#define GOOD_EXP2_F(x, a) (a <= 126.0f)
#define GOOD_EXP2_D(x, a) (a <= 1022.0)
#define GOOD_EXP10_F(x, a) (a <= 37.5f)
#define GOOD_EXP10_D(x, a) (a <= 307.0)
#define GOOD_EXPM1_F(x, a) (a <= 86.0f)
#define GOOD_EXPM1_D(x, a) (a <= 707.0)
#define GOOD_ERFC_F(x, a) (x <= 10.0f)
#define GOOD_ERFC_D(x, a) (x <= 27.0)
#define GOOD_LOG_F(x, a) ((x >= 0x1p-126f) & (x <= 0x1.fffffep127f))
#define GOOD_LOG_D(x, a) ((x >= 0x1p-1022) & (x <= 0x1.fffffffffffffp1023))

/* Of the other lanes, those whose result the guarded scalar function fixes
 * without calling the C library, and that result in vector code (V the
 * vector type, I its lanes as integers): in the slow path they take a
 * select, so only the bands where the result is finite but libmvec stops
 * (exp of 87.3..88.7, log of a denormal, ...) cost a scalar call each. */
#define FIXED_ALL(x, a) ((x == x) | (x != x))
#define FIXED_NONE(x, a) ((x == x) & (x != x))
#define FIXED_HYPERBOLIC_F(x, a) ((a > HYPERBOLIC_F) | (x != x))
#define FIXED_HYPERBOLIC_D(x, a) ((a > HYPERBOLIC_D) | (x != x))
#define FIXED_EXP_F(x, a) ((a > EXP_F) | (x != x))
#define FIXED_EXP_D(x, a) ((a > EXP_D) | (x != x))
#define FIXED_EXP2_F(x, a) ((a > EXP2_F) | (x != x))
#define FIXED_EXP2_D(x, a) ((a > EXP2_D) | (x != x))
#define FIXED_EXP10_F(x, a) ((a > EXP10_F) | (x != x))
#define FIXED_EXP10_D(x, a) ((a > EXP10_D) | (x != x))
#define FIXED_EXPM1_F(x, a) ((a > EXPM1_F) | (x != x))
#define FIXED_EXPM1_D(x, a) ((a > EXPM1_D) | (x != x))
#define FIXED_ERFC_F(x, a) ((x > ERFC_F) | (x != x))
#define FIXED_ERFC_D(x, a) ((x > ERFC_D) | (x != x))
#define FIXED_LOG(x, a) (~(x > 0) | (x == INFINITY))
/* HALVES (guards.def): the float functions whose results below FLT_MIN
 * (where libmvec stops: exp of -104..-87.34, exp2 of -150..-126, exp10 of
 * -45.2..-37.93) are computed in vector code as f(x / 2)^2: x / 2 is exact
 * and inside libmvec's range, and the square's error, twice f's relative
 * error (libmvec's float exp, exp2 and exp10: under 1 ulp, so under 2^-23)
 * on a result below 2^-126, is under 2 ulp of 2^-149 before its one
 * rounding (OpenCL C 7.4: 3 ulp). Normal results keep the scalar call:
 * there twice f's error could pass 3 ulp. Gaussian weights and softmax
 * take such arguments a lane in ten, and each cost a scalar call. */

/* m ? a : b, lane by lane */
#define SELECT(V, I, m, a, b) ((V)(((I)(a) & (m)) | ((I)(b) & ~(m))))
#define VALUE_NAN(V, I, x, a) ((V){} + NAN)
#define VALUE_ACOSH(V, I, x, a) SELECT(V, I, x == 1, (V){}, SELECT(V, I, x > 1, x, (V){} + NAN))
#define VALUE_ATANH(V, I, x, a) SELECT(V, I, a == 1, x * INFINITY, (V){} + NAN)
#define VALUE_SINH(V, I, x, a) (x * INFINITY)
#define VALUE_COSH(V, I, x, a) (a * INFINITY)
#define VALUE_EXP(V, I, x, a) SELECT(V, I, x < 0, (V){}, x * INFINITY)
#define VALUE_EXPM1(V, I, x, a) SELECT(V, I, x < 0, (V){} - 1, x * INFINITY)
#define VALUE_ERFC(V, I, x, a) SELECT(V, I, x > 0, (V){}, x)
#define VALUE_LOG(V, I, x, a)                                                                      \
    SELECT(V, I, x == 0, (V){} - INFINITY, SELECT(V, I, x > 0, x, (V){} + NAN))

/* libmvec's functions (or, where this process's glibc has none, the
 * guarded scalar function lane by lane: code from the kernel cache may
 * name a wrapper that this process's vecmath.c never chose), found when
 * the JIT first asks for the symbols */
enum guarded {
#define FUNCTION(STEM, ...) G_##STEM,
#include "compiler/guards.def"
#undef FUNCTION
    NUM_GUARDED
};
static void *libmvec_function[NUM_GUARDED][3][2]; /* [function][isa][double] */

/* The wrapper of function STEM for one ISA and type: V the vector, I the
 * integer vector of its lanes' width, E the element; GOOD(x, a) is set in
 * the lanes libmvec computes in vector code (a = |x|), HARMLESS an
 * argument it does. The lanes that are not get their result from SCALAR,
 * in a function of its own, so that the common path saves nothing on the
 * stack: a test, a branch and a tail call. */
#define MAGNITUDE_f 0x7fffffff
#define MAGNITUDE_d 0x7fffffffffffffff
#define WRAPPER1(STEM, ISA, INDEX, T, D, V, I, E, GOOD, HARMLESS, SCALAR, FIXED, VALUE, HALVES)    \
    __attribute__((target(#ISA))) static V STEM##T##_##ISA##_lanes(V x)                            \
    {                                                                                              \
        for (unsigned i = 0; i < sizeof(V) / sizeof(E); i++)                                       \
            x[i] = SCALAR(x[i]);                                                                   \
        return x;                                                                                  \
    }                                                                                              \
    __attribute__((target(#ISA), noinline, cold)) static V STEM##T##_##ISA##_slow(V x, I bad)      \
    {                                                                                              \
        V (*call)(V) = (V(*)(V))libmvec_function[G_##STEM][INDEX][D];                              \
        V a = (V)((I)x & MAGNITUDE_##T);                                                           \
        (void)a;                                                                                   \
        I fixed = bad & (I)FIXED(x, a);                                                            \
        /* HALVES' lanes go into the same call as the good ones, halved */                         \
        I low = HALVES < 0 && !D ? bad & ~fixed & (I)(x < (E)HALVES) : (I){};                      \
        V r = call(SELECT(V, I, low, x * (E)0.5, SELECT(V, I, bad, (V){} + (E)HARMLESS, x)));      \
        r = SELECT(V, I, low, r * r, SELECT(V, I, fixed, VALUE(V, I, x, a), r));                   \
        bad &= ~(fixed | low);                                                                     \
        if (ALL_##ISA##_##T(~bad))                                                                 \
            return r;                                                                              \
        for (unsigned i = 0; i < sizeof(V) / sizeof(E); i++)                                       \
            if (bad[i])                                                                            \
                r[i] = SCALAR(x[i]);                                                               \
        return r;                                                                                  \
    }                                                                                              \
    __attribute__((target(#ISA))) static V cpucl_guard_##STEM##T##_##ISA(V x)                      \
    {                                                                                              \
        V a = (V)((I)x & MAGNITUDE_##T);                                                           \
        (void)a;                                                                                   \
        I good = GOOD(x, a);                                                                       \
        if (__builtin_expect(ALL_##ISA##_##T(good), 1))                                            \
            return ((V(*)(V))libmvec_function[G_##STEM][INDEX][D])(x);                             \
        return STEM##T##_##ISA##_slow(x, ~good);                                                   \
    }
#define WRAPPER2(STEM, ISA, INDEX, T, D, V, I, E, GOOD, HARMLESS, SCALAR, FIXED, VALUE, HALVES)    \
    __attribute__((target(#ISA))) static V STEM##T##_##ISA##_lanes(V x, V y)                       \
    {                                                                                              \
        for (unsigned i = 0; i < sizeof(V) / sizeof(E); i++)                                       \
            x[i] = SCALAR(x[i], y[i]);                                                             \
        return x;                                                                                  \
    }                                                                                              \
    __attribute__((target(#ISA), noinline, cold)) static V STEM##T##_##ISA##_slow(V x, V y, I bad) \
    {                                                                                              \
        V (*call)(V, V) = (V(*)(V, V))libmvec_function[G_##STEM][INDEX][D];                        \
        V r = call((V)(((I)x & ~bad) | ((I)((V){} + (E)HARMLESS) & bad)), y);                      \
        for (unsigned i = 0; i < sizeof(V) / sizeof(E); i++)                                       \
            if (bad[i])                                                                            \
                r[i] = SCALAR(x[i], y[i]);                                                         \
        return r;                                                                                  \
    }                                                                                              \
    __attribute__((target(#ISA))) static V cpucl_guard_##STEM##T##_##ISA(V x, V y)                 \
    {                                                                                              \
        V a = (V)((I)x & MAGNITUDE_##T);                                                           \
        (void)a;                                                                                   \
        I good = GOOD(x, a) & ((V)((I)y & MAGNITUDE_##T) < (E)INFINITY);                           \
        if (__builtin_expect(ALL_##ISA##_##T(good), 1))                                            \
            return ((V(*)(V, V))libmvec_function[G_##STEM][INDEX][D])(x, y);                       \
        return STEM##T##_##ISA##_slow(x, y, ~good);                                                \
    }
/* every ISA of one function and type */
#define ISAS(WRAPPER, STEM, T, D, E, I4, I8, I16, V4, V8, V16, ...)                                \
    WRAPPER(STEM, sse2, 0, T, D, V4, I4, E, __VA_ARGS__)                                           \
    WRAPPER(STEM, avx2, 1, T, D, V8, I8, E, __VA_ARGS__)                                           \
    WRAPPER(STEM, avx512f, 2, T, D, V16, I16, E, __VA_ARGS__)
#define FUNCTION(STEM, ARITY, GOOD_F, GOOD_D, HARMLESS, SCALAR_F, SCALAR_D, FIXED_F, FIXED_D,      \
                 VALUE, HALVES)                                                                    \
    ISAS(WRAPPER##ARITY, STEM, f, 0, float, i4, i8, i16, f4, f8, f16, GOOD_F, HARMLESS, SCALAR_F,  \
         FIXED_F, VALUE, HALVES)                                                                   \
    ISAS(WRAPPER##ARITY, STEM, d, 1, double, l2, l4, l8, d2, d4, d8, GOOD_D, HARMLESS, SCALAR_D,   \
         FIXED_D, VALUE, HALVES)
#include "compiler/guards.def"
#undef FUNCTION

/* --- sin and cos of large arguments ---
 *
 * FAR(stem, float bound, double bound): libmvec's vector code covers |x|
 * <= 10000 (float) and |x| < 2^23 (double) (glibc 2.36, measured: a lane
 * costs 0.3-1 ns below, 4-6 ns (float) and 11-54 ns (double, 1e7-1e15)
 * above, and NaN and inf 4-12 ns); SLEEF's Sleef_cosd8_u10avx512f 2.8 ns
 * at every magnitude up to 1e9 and 5.3 ns at 1e15, Sleef_cosf16_u10avx512f
 * 3 ns (AVX-512 Zen 4). The bounds are a little inside libmvec's. */
#define FAR_FUNCTIONS                                                                              \
    FAR(sin, 9000.0f, 8.0e6)                                                                       \
    FAR(cos, 9000.0f, 8.0e6)

enum far {
#define FAR(STEM, ...) F_##STEM,
    FAR_FUNCTIONS
#undef FAR
        NUM_FAR
};
/* [function][isa][double]: libmvec's function and SLEEF's (failing
 * either, the other; failing both, the C library's lane by lane) */
static void *far_libmvec[NUM_FAR][3][2], *far_sleef[NUM_FAR][3][2];

#define FAR_WRAPPER(STEM, ISA, INDEX, T, D, V, I, E, BOUND)                                        \
    __attribute__((target(#ISA))) static V STEM##T##_##ISA##_far_lanes(V x)                        \
    {                                                                                              \
        for (unsigned i = 0; i < sizeof(V) / sizeof(E); i++)                                       \
            x[i] = D ? STEM(x[i]) : STEM##f(x[i]);                                                 \
        return x;                                                                                  \
    }                                                                                              \
    __attribute__((target(#ISA))) static V cpucl_guard_##STEM##T##_##ISA(V x)                      \
    {                                                                                              \
        V a = (V)((I)x & MAGNITUDE_##T);                                                           \
        if (__builtin_expect(ALL_##ISA##_##T(a <= (E)BOUND), 1))                                   \
            return ((V(*)(V))far_libmvec[F_##STEM][INDEX][D])(x);                                  \
        return ((V(*)(V))far_sleef[F_##STEM][INDEX][D])(x);                                        \
    }
#define FAR(STEM, BOUND_F, BOUND_D)                                                                \
    FAR_WRAPPER(STEM, sse2, 0, f, 0, f4, i4, float, BOUND_F)                                       \
    FAR_WRAPPER(STEM, avx2, 1, f, 0, f8, i8, float, BOUND_F)                                       \
    FAR_WRAPPER(STEM, avx512f, 2, f, 0, f16, i16, float, BOUND_F)                                  \
    FAR_WRAPPER(STEM, sse2, 0, d, 1, d2, l2, double, BOUND_D)                                      \
    FAR_WRAPPER(STEM, avx2, 1, d, 1, d4, l4, double, BOUND_D)                                      \
    FAR_WRAPPER(STEM, avx512f, 2, d, 1, d8, l8, double, BOUND_D)
FAR_FUNCTIONS
#undef FAR

static const struct {
    const char *stem;
    void *lanes[3][2];
} far_functions[NUM_FAR] = {
#define FAR(STEM, ...)                                                                             \
    {#STEM,                                                                                        \
     {{(void *)STEM##f_sse2_far_lanes, (void *)STEM##d_sse2_far_lanes},                            \
      {(void *)STEM##f_avx2_far_lanes, (void *)STEM##d_avx2_far_lanes},                            \
      {(void *)STEM##f_avx512f_far_lanes, (void *)STEM##d_avx512f_far_lanes}}},
    FAR_FUNCTIONS
#undef FAR
};

/* --- names --- */

#define SYMBOL(NAME)                                                                               \
    {                                                                                              \
#NAME, (void *)NAME                                                                        \
    }
#define FUNCTION(STEM, ARITY, ...)                                                                 \
    SYMBOL(cpucl_guard_##STEM##f_sse2), SYMBOL(cpucl_guard_##STEM##f_avx2),                        \
        SYMBOL(cpucl_guard_##STEM##f_avx512f), SYMBOL(cpucl_guard_##STEM##d_sse2),                 \
        SYMBOL(cpucl_guard_##STEM##d_avx2), SYMBOL(cpucl_guard_##STEM##d_avx512f),
static const struct cc_runtime_symbol symbols[] = {
#include "compiler/guards.def"
#define FAR(STEM, ...) FUNCTION(STEM, 1)
    FAR_FUNCTIONS
#undef FAR
    /* the C library's names, for scalar calls */
    {"asinf", (void *)g_asinf},
    {"asin", (void *)g_asin},
    {"acosf", (void *)g_acosf},
    {"acos", (void *)g_acos},
    {"acoshf", (void *)g_acoshf},
    {"acosh", (void *)g_acosh},
    {"atanhf", (void *)g_atanhf},
    {"atanh", (void *)g_atanh},
    {"sinhf", (void *)g_sinhf},
    {"sinh", (void *)g_sinh},
    {"coshf", (void *)g_coshf},
    {"cosh", (void *)g_cosh},
    {"expf", (void *)g_expf},
    {"exp", (void *)g_exp},
    {"exp2f", (void *)g_exp2f},
    {"exp2", (void *)g_exp2},
    {"exp10f", (void *)g_exp10f},
    {"exp10", (void *)g_exp10},
    {"expm1f", (void *)g_expm1f},
    {"expm1", (void *)g_expm1},
    {"erfcf", (void *)g_erfcf},
    {"erfc", (void *)g_erfc},
    {"logf", (void *)g_logf},
    {"log", (void *)g_log},
    {"log2f", (void *)g_log2f},
    {"log2", (void *)g_log2},
    {"log10f", (void *)g_log10f},
    {"log10", (void *)g_log10},
};
#undef FUNCTION

#define FUNCTION(STEM, ARITY, ...)                                                                 \
    {#STEM,                                                                                        \
     ARITY,                                                                                        \
     {{(void *)STEM##f_sse2_lanes, (void *)STEM##d_sse2_lanes},                                    \
      {(void *)STEM##f_avx2_lanes, (void *)STEM##d_avx2_lanes},                                    \
      {(void *)STEM##f_avx512f_lanes, (void *)STEM##d_avx512f_lanes}}},
static const struct {
    const char *stem;
    int arity;
    void *lanes[3][2];
} functions[NUM_GUARDED] = {
#include "compiler/guards.def"
};
#undef FUNCTION

static void find_libmvec(void)
{
    void *libmvec = dlopen("libmvec.so.1", RTLD_LAZY | RTLD_LOCAL);
    void *sleef = dlopen("libsleef.so.3", RTLD_LAZY | RTLD_LOCAL);
    for (int i = 0; i < 3; i++)
        for (int d = 0; d < 2; d++) {
            char name[48];
            for (int f = 0; f < NUM_GUARDED; f++) {
                cc_libmvec_name(name, sizeof name, functions[f].stem, functions[f].arity, i, d);
                void *found = libmvec ? dlsym(libmvec, name) : NULL;
                libmvec_function[f][i][d] = found ? found : functions[f].lanes[i][d];
            }
            for (int f = 0; f < NUM_FAR; f++) {
                const char *stem = far_functions[f].stem;
                cc_libmvec_name(name, sizeof name, stem, 1, i, d);
                void *vector = libmvec ? dlsym(libmvec, name) : NULL;
                cc_sleef_name(name, sizeof name, stem, i, d);
                void *far = sleef ? dlsym(sleef, name) : NULL;
                if (!vector)
                    vector = far ? far : far_functions[f].lanes[i][d];
                far_libmvec[f][i][d] = vector;
                far_sleef[f][i][d] = far ? far : vector;
            }
        }
    /* the libraries stay loaded: the wrappers call into them */
}

const struct cc_runtime_symbol *cc_guard_symbols(unsigned *count)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, find_libmvec);
    *count = sizeof symbols / sizeof symbols[0];
    return symbols;
}

/* The name of the wrapper of libmvec's function of stem, ISA suffix and
 * type (asin, avx2, float: cpucl_guard_asinf_avx2); false if there is
 * none. */
bool cc_guard_variant(const char *stem, const char *isa, bool is_double, char *out, size_t size)
{
    for (int f = 0; f < NUM_GUARDED + NUM_FAR; f++)
        if (!strcmp(f < NUM_GUARDED ? functions[f].stem : far_functions[f - NUM_GUARDED].stem,
                    stem)) {
            snprintf(out, size, "cpucl_guard_%s%c_%s", stem, is_double ? 'd' : 'f', isa);
            return true;
        }
    return false;
}

bool cc_is_guard_symbol(const char *name)
{
    return !strncmp(name, "cpucl_guard_", 12);
}
