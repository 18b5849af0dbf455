/* math.cl - math functions (OpenCL C 2.0, 6.13.2), float, double and half.
 *
 * Accuracy (OpenCL C 7.4, tables 7.1 and 7.2): what LLVM has an intrinsic
 * for (sin, exp, pow, ...) becomes that intrinsic, which the x86 back end
 * turns into the C library's function (glibc: within 1-2 ulp, well inside
 * the 2-16 ulp OpenCL allows) or into an instruction (sqrt, fma, floor,
 * ...). The functions C has no equivalent of (sinpi, acospi, rootn, ...) are
 * computed here; for float through double arithmetic, which makes them far
 * more accurate than required.
 *
 * Double functions whose C library version is not accurate enough for
 * OpenCL's bound are refined here: cbrt (glibc's is within 4 ulp, OpenCL
 * allows 2) and rootn (through pow, corrected for the rounding of 1/n).
 */
#include "library.h"


/* --- functions LLVM has (vector) intrinsics for --- */

#define INTRINSIC1(T)                                                                         \
    OVL T acos(T x) { return __builtin_elementwise_acos(x); }                                 \
    OVL T asin(T x) { return __builtin_elementwise_asin(x); }                                 \
    OVL T atan(T x) { return __builtin_elementwise_atan(x); }                                 \
    OVL T ceil(T x) { return __builtin_elementwise_ceil(x); }                                 \
    OVL T cos(T x) { return __builtin_elementwise_cos(x); }                                   \
    OVL T cosh(T x) { return __builtin_elementwise_cosh(x); }                                 \
    OVL T exp(T x) { return __builtin_elementwise_exp(x); }                                   \
    OVL T exp2(T x) { return __builtin_elementwise_exp2(x); }                                 \
    OVL T fabs(T x) { return __builtin_elementwise_abs(x); }                                  \
    OVL T floor(T x) { return __builtin_elementwise_floor(x); }                               \
    OVL T log(T x) { return __builtin_elementwise_log(x); }                                   \
    OVL T log2(T x) { return __builtin_elementwise_log2(x); }                                 \
    OVL T log10(T x) { return __builtin_elementwise_log10(x); }                               \
    OVL T rint(T x) { return __builtin_elementwise_rint(x); }                                 \
    OVL T round(T x) { return __builtin_elementwise_round(x); }                               \
    OVL T sin(T x) { return __builtin_elementwise_sin(x); }                                   \
    OVL T sinh(T x) { return __builtin_elementwise_sinh(x); }                                 \
    OVL T sqrt(T x) { return __builtin_elementwise_sqrt(x); }                                 \
    OVL T tan(T x) { return __builtin_elementwise_tan(x); }                                   \
    OVL T tanh(T x) { return __builtin_elementwise_tanh(x); }                                 \
    OVL T trunc(T x) { return __builtin_elementwise_trunc(x); }                               \
    OVL T copysign(T x, T y) { return __builtin_elementwise_copysign(x, y); }                 \
    /* fmax/fmin: a NaN argument yields the other one, as llvm.maxnum does */                  \
    OVL T fmax(T x, T y) { return __builtin_elementwise_max(x, y); }                          \
    OVL T fmin(T x, T y) { return __builtin_elementwise_min(x, y); }                          \
    OVL T pow(T x, T y) { return __builtin_elementwise_pow(x, y); }                           \
    OVL T fma(T a, T b, T c) { return __builtin_elementwise_fma(a, b, c); }                   \
    /* mad may be computed either way; contraction makes it one fma on FMA hosts */            \
    OVL T mad(T a, T b, T c) { return a * b + c; }                                            \
    /* 1/sqrt: two correctly rounded operations, < 1.5 ulp (2 allowed) */                      \
    OVL T rsqrt(T x) { return (T)1 / sqrt(x); }                                               \
    OVL T maxmag(T x, T y)                                                                    \
    {                                                                                         \
        T ax = fabs(x), ay = fabs(y);                                                         \
        return ax > ay ? x : ay > ax ? y : fmax(x, y);                                        \
    }                                                                                         \
    OVL T minmag(T x, T y)                                                                    \
    {                                                                                         \
        T ax = fabs(x), ay = fabs(y);                                                         \
        return ax < ay ? x : ay < ax ? y : fmin(x, y);                                        \
    }                                                                                         \
    /* 7.5.1: NaN if either is NaN, else x - y or +0 */                                       \
    OVL T fdim(T x, T y) { return x > y ? x - y : x <= y ? (T)0 : x + y; }                    \
    OVL T fract(T x, __generic T *iptr)                                                       \
    {                                                                                         \
        T whole = floor(x);                                                                   \
        *iptr = whole;                                                                        \
        T f = fmin(x - whole, (T)FRACT_MAX);                                                  \
        f = isinf(x) ? copysign((T)0, x) : f; /* 7.5.1: fract(+-inf) = +-0 */                 \
        f = x == (T)0 ? x : f; /* fract(-0) = -0 */                                           \
        return isnan(x) ? x : f;                                                              \
    }                                                                                         \
    OVL T modf(T x, __generic T *iptr)                                                        \
    {                                                                                         \
        T whole = trunc(x);                                                                   \
        *iptr = whole;                                                                        \
        return copysign(isinf(x) ? (T)0 : x - whole, x);                                      \
    }                                                                                         \
    OVL T sincos(T x, __generic T *cosval)                                                    \
    {                                                                                         \
        *cosval = cos(x);                                                                     \
        return sin(x);                                                                        \
    }                                                                                         \
    NAMED_OUT1(T, fract, T, T)                                                                \
    NAMED_OUT1(T, modf, T, T)                                                                 \
    NAMED_OUT1(T, sincos, T, T)

#define FRACT_MAX 0x1.fffffep-1f
FLOATN(INTRINSIC1)
#undef FRACT_MAX
#define FRACT_MAX 0x1.fffffffffffffp-1
DOUBLEN(INTRINSIC1)
#undef FRACT_MAX

/* --- functions only the C library has: scalar calls, vectors split --- */

/* Their vector overloads make one call of cpucl.vmath.<F>.v<N>f32 (or
 * f64), which the compiler turns into calls of the function's vector
 * variants, or back into a C library call per lane where there is none
 * (src/compiler/vecmath.c): float4 code gets vector math too, which the
 * loop vectorizer (it leaves vector-typed loops alone) would not give it. */
#define VMATH_ONE(T, S, F, N, ARGS, PARAMS)                                                   \
    T##N cpucl_vmath_##F##_##T##N PARAMS __asm__("cpucl.vmath." #F ".v" #N S)                \
        __attribute__((const));                                                               \
    OVL T##N F PARAMS { return cpucl_vmath_##F##_##T##N ARGS; }
#define VMATH(T, S, F, ARGS, PARAMS)                                                          \
    VMATH_ONE(T, S, F, 2, ARGS, PARAMS(T##2))                                                 \
    VMATH_ONE(T, S, F, 3, ARGS, PARAMS(T##3))                                                 \
    VMATH_ONE(T, S, F, 4, ARGS, PARAMS(T##4))                                                 \
    VMATH_ONE(T, S, F, 8, ARGS, PARAMS(T##8))                                                 \
    VMATH_ONE(T, S, F, 16, ARGS, PARAMS(T##16))
#define ONE_PARAM(V) (V x)
#define TWO_PARAMS(V) (V x, V y)
#define VMATH1(T, S, F) VMATH(T, S, F, (x), ONE_PARAM)
#define VMATH2(T, S, F) VMATH(T, S, F, (x, y), TWO_PARAMS)

#define LIBM1(F)                                                                              \
    OVL float F(float x) { return __builtin_##F##f(x); }                                      \
    OVL double F(double x) { return __builtin_##F(x); }                                       \
    VMATH1(float, "f32", F)                                                                   \
    VMATH1(double, "f64", F)
#define LIBM2(F)                                                                              \
    OVL float F(float x, float y) { return __builtin_##F##f(x, y); }                          \
    OVL double F(double x, double y) { return __builtin_##F(x, y); }                          \
    VMATH2(float, "f32", F)                                                                   \
    VMATH2(double, "f64", F)

LIBM1(acosh)
LIBM1(asinh)
LIBM1(atanh)
LIBM1(erf)
LIBM1(erfc)
LIBM1(exp10)
LIBM1(expm1)
LIBM2(atan2)
LIBM2(hypot)

/* Only double goes to the C library for these; float is computed below. */
#define LIBM1_DOUBLE(F)                                                                       \
    OVL double F(double x) { return __builtin_##F(x); }                                       \
    SPLIT1(double, F, double)
#define LIBM2_DOUBLE(F)                                                                       \
    OVL double F(double x, double y) { return __builtin_##F(x, y); }                          \
    SPLIT2(double, F, double, double)
LIBM1_DOUBLE(tgamma)
LIBM2_DOUBLE(fmod)
LIBM2_DOUBLE(remainder)

/* log1p: float is the C library's (vecmath.c gives it libmvec's AVX2
 * variant). Double above 2^60 is log(x): log1p(x) - log(x) = log1p(1/x) <
 * 2^-60, far below half an ulp of a result above 41; below 2^60 the C
 * library's, whose vector variant (SLEEF's, vecmath.c) is within 1 ulp
 * there but infinite from about 1e307. */
OVL float log1p(float x) { return __builtin_log1pf(x); }
OVL double log1p(double x) { return x > 0x1p60 ? log(x) : __builtin_log1p(x); }
VMATH1(float, "f32", log1p)
SPLIT1(double, log1p, double)

/* fmod, remainder and remquo of float: exact, as OpenCL C 7.4 requires,
 * and with no call, so that the loop vectorizer vectorizes them (the C
 * library's are scalar calls; SLEEF's vector fmodf is wrong for quotients
 * above about 2^128). In double: |x| is reduced by Y = |y| 2^k for k =
 * 250, 200, ..., 0 (|x| / |y| < 2^277 for floats):
 * - q = trunc(r (1/|y|) 2^-k) is within one of the quotient r / Y, which
 *   is below 2^50: two roundings of a value below 2^50 move it less than
 *   1/2 (once a step has run, r < 2^50 Y for the next; the first step
 *   with q != 0 has k >= e - 50, e = ilogb|x| - ilogb|y| + 1);
 * - r - q Y, one fma, is exact: while k <= ilogb|x| - ilogb|y|, r and Y
 *   are multiples of ulp(|y|) 2^k or of ulp(|x|), the coarser of which is
 *   at least 2^-24 of Y, and the result is below 2 Y in magnitude, so it
 *   has at most 25 bits; for a larger k, r / Y < 1 - 2^-24 and q = 0;
 * - one correction each way makes 0 <= r < Y.
 * The last step's quotient is the whole quotient modulo 2^50: its low bits
 * decide remainder's ties and give remquo's quo. `top` is the first k:
 * FLOAT_TOP for floats; 0 for halves, whose |x| / |y| < 2^41 needs one
 * step. */
#define FLOAT_TOP 250
static double fmod_float_abs(float x, float y, int top, double *quotient)
{
    double ay = fabs((double)y), inv = 1.0 / ay, r = fabs((double)x), q = 0.0;
    for (int k = top; k >= 0; k -= 50) {
        double up = as_double((ulong)(1023 + k) << 52), down = as_double((ulong)(1023 - k) << 52);
        double big = ay * up;
        q = trunc(r * inv * down);
        r = fma(-q, big, r);
        bool low = r < 0.0, high = r >= big;
        r = low ? r + big : high ? r - big : r;
        q = low ? q - 1.0 : high ? q + 1.0 : q;
    }
    *quotient = q;
    return r;
}

/* 7.5.1: NaN for a NaN, x infinite or y zero; x itself for y infinite. */
static bool fmod_float_nan(float x, float y)
{
    return isnan(x) || isnan(y) || isinf(x) || y == 0.0f;
}

OVL float fmod(float x, float y)
{
    double q, r = fmod_float_abs(x, y, FLOAT_TOP, &q);
    float result = isinf(y) ? x : copysign((float)r, x);
    return fmod_float_nan(x, y) ? x + y + NAN : result;
}

/* remainder: the nearest quotient, ties to even. */
static double remainder_float_abs(float x, float y, int top, double *quotient)
{
    double ay = fabs((double)y), q, r = fmod_float_abs(x, y, top, &q);
    bool odd = q * 0.5 != trunc(q * 0.5);
    bool up = 2.0 * r > ay || (2.0 * r == ay && odd);
    *quotient = up ? q + 1.0 : q;
    return up ? r - ay : r;
}

OVL float remainder(float x, float y)
{
    double q, r = remainder_float_abs(x, y, FLOAT_TOP, &q);
    float result = isinf(y) ? x : (float)(signbit(x) ? -r : r);
    return fmod_float_nan(x, y) ? x + y + NAN : result;
}
SPLIT2(float, fmod, float, float)
SPLIT2(float, remainder, float, float)


/* lgamma through the C library's names, which the JIT binds to the
 * reentrant versions (the C library's lgamma writes the global signgam, a
 * data race between work-items), so that the call has no pointer and a
 * work-item loop around it vectorizes (src/compiler/lanes.c). lgamma_r's
 * sign is computed here, as the C library gives it: -1 for -0 and where
 * Gamma(x) < 0 (x < 0 not an integer with floor(x) odd), else +1 (also at
 * the poles, infinities and NaN). */
OVL float lgamma(float x) { return __builtin_lgammaf(x); }
OVL double lgamma(double x) { return __builtin_lgamma(x); }
#define LGAMMA_R(T)                                                                           \
    OVL T lgamma_r(T x, __generic int *signp)                                                 \
    {                                                                                         \
        T n = floor(x);                                                                       \
        bool odd = n != (T)2 * floor(n * (T)0.5);                                             \
        bool negative = x == (T)0 ? signbit(x) : x < (T)0 && x != n && odd;                   \
        *signp = negative ? -1 : 1;                                                           \
        return lgamma(x);                                                                     \
    }
LGAMMA_R(float)
LGAMMA_R(double)
SPLIT1(float, lgamma, float)
SPLIT1(double, lgamma, double)

/* --- exact functions of the bits: no calls, so a work-item loop that
 * uses them vectorizes (C's would be a call per lane) --- */

/* The exponent of a finite non-zero magnitude's bits: a subnormal's from
 * its leading bit (float: bit p of the bits is 2^(p - 149)). */
/* A denormal's exponent is its fraction's, less 149 (1074): the fraction
 * u < 2^23 (2^52) becomes exactly the floating-point value u as the bits
 * 2^23 + u (2^52 + u) less 2^23 (2^52), whose exponent field then gives
 * floor(log2 u). No clz: x86 has no vector one below AVX-512, and its
 * emulation made a loop of logb and ilogb run at 0.65 of PoCL's speed. */
static int exponent_of_f(uint u)
{
    uint fraction_exponent = as_uint(as_float(0x4b000000u | u) - 0x1p23f) >> 23;
    return u < 0x00800000u ? (int)fraction_exponent - 276 : (int)(u >> 23) - 127;
}
static int exponent_of_d(ulong u)
{
    ulong fraction_exponent = as_ulong(as_double(0x4330000000000000ul | u) - 0x1p52) >> 52;
    return u < 0x0010000000000000ul ? (int)fraction_exponent - 2097 : (int)(u >> 52) - 1023;
}

/* ilogb: 0 gives FP_ILOGB0, NaN FP_ILOGBNAN (OpenCL's is INT_MAX), an
 * infinity INT_MAX (C99 7.12.6.5). */
OVL int ilogb(float x)
{
    uint u = as_uint(x) & 0x7fffffffu;
    return u == 0 ? FP_ILOGB0 : u > 0x7f800000u ? FP_ILOGBNAN : u == 0x7f800000u ? INT_MAX
                                                                             : exponent_of_f(u);
}
OVL int ilogb(double x)
{
    ulong u = as_ulong(x) & 0x7ffffffffffffffful;
    return u == 0                         ? FP_ILOGB0
           : u > 0x7ff0000000000000ul    ? FP_ILOGBNAN
           : u == 0x7ff0000000000000ul   ? INT_MAX
                                          : exponent_of_d(u);
}
SPLIT1(int, ilogb, float)
SPLIT1(int, ilogb, double)

/* logb: -inf for 0, +inf for an infinity, NaN for NaN (C99 F.9.3.11). */
OVL float logb(float x)
{
    uint u = as_uint(x) & 0x7fffffffu;
    return u >= 0x7f800000u ? x * x : u == 0 ? -INFINITY : (float)exponent_of_f(u);
}
OVL double logb(double x)
{
    ulong u = as_ulong(x) & 0x7ffffffffffffffful;
    return u >= 0x7ff0000000000000ul ? x * x : u == 0 ? -(double)INFINITY
                                                       : (double)exponent_of_d(u);
}
SPLIT1(float, logb, float)
SPLIT1(double, logb, double)

/* nextafter: y when x == y; from 0 the smallest subnormal with y's sign;
 * else one step of the bits, away from zero when y is beyond x (C99
 * 7.12.11.3). */
#define NEXTAFTER(T, U, AS_U, AS_T, SIGN)                                                     \
    OVL T nextafter(T x, T y)                                                                 \
    {                                                                                         \
        U ux = AS_U(x), from_zero = (AS_U(y) & SIGN) | 1;                                     \
        U step = (y > x) == (x > (T)0) ? ux + 1 : ux - 1;                                     \
        T next = AS_T((ux & ~SIGN) == 0 ? from_zero : step);                                  \
        return isnan(x) || isnan(y) ? x + y : x == y ? y : next;                              \
    }
NEXTAFTER(float, uint, as_uint, as_float, 0x80000000u)
NEXTAFTER(double, ulong, as_ulong, as_double, 0x8000000000000000ul)
SPLIT2(float, nextafter, float, float)
SPLIT2(double, nextafter, double, double)

/* ldexp: products with powers of two built from the bits, so that it
 * vectorizes (LLVM's llvm.ldexp is a C library call per lane on x86).
 * Float: one product in double, exact (k clamped to +-300 keeps it far
 * from double's limits, and every float times 2^k with |k| > 300 is 0 or
 * inf in float), then one rounding to float. Double: at most two
 * pre-scalings by 2^1023 or by 2^-969 (= 2^-1022 2^53) and a final product
 * by 2^k, k in [-1022, 1023]. A pre-scaling rounds only if it makes a
 * subnormal, and then k is still below -53 and the final product is below
 * 2^-1075: 0 either way, so the one rounding is the final product's. */
static double power_of_two(long k) { return as_double((ulong)(k + 1023) << 52); }
OVL float ldexp(float x, int k)
{
    return (float)((double)x * power_of_two(clamp(k, -300, 300)));
}
OVL double ldexp(double x, int k)
{
    long n = clamp(k, -2200, 2200);
    for (int i = 0; i < 2; i++) {
        long step = n > 1023 ? 1023 : n < -1022 ? -969 : 0;
        x *= power_of_two(step);
        n -= step;
    }
    return x * power_of_two(clamp(n, -1022L, 1023L));
}
SPLIT2(float, ldexp, float, int)
SPLIT2(double, ldexp, double, int)
#define LDEXP_SCALAR(T, S) OVL T ldexp(T x, int k) { return ldexp(x, (int##S)k); }
#define LDEXP_F(T, N) LDEXP_SCALAR(float##N, N)
#define LDEXP_D(T, N) LDEXP_SCALAR(double##N, N)
LDEXP_F(float, 2) LDEXP_F(float, 3) LDEXP_F(float, 4) LDEXP_F(float, 8) LDEXP_F(float, 16)
LDEXP_D(double, 2) LDEXP_D(double, 3) LDEXP_D(double, 4) LDEXP_D(double, 8) LDEXP_D(double, 16)

/* frexp from the bits: a denormal x is first scaled by 2^32 (2^64), exact;
 * the fraction gets the exponent of [0.5, 1). 0, inf and NaN come back
 * unchanged with exponent 0. Integer operations of the float's width only,
 * so a loop of them vectorizes at the registers' full width (through
 * ilogb and a double ldexp it ran at 0.6 of PoCL's speed). */
#define FREXP(T, U, AS_T, AS_U, BITS, EXPONENT, SIGN_AND_FRACTION, HALF, LOWEST_NORMAL,        \
              SCALE, SCALE_BITS)                                                              \
    OVL T frexp(T x, __generic int *exp)                                                      \
    {                                                                                         \
        bool special = x == (T)0 || isinf(x) || isnan(x);                                     \
        bool denormal = fabs(x) < LOWEST_NORMAL;                                              \
        U u = AS_U(denormal ? x * SCALE : x);                                                 \
        int e = (int)((u >> BITS) & EXPONENT) - HALF - (denormal ? SCALE_BITS : 0);           \
        *exp = special ? 0 : e;                                                               \
        return special ? x : AS_T((u & SIGN_AND_FRACTION) | ((U)HALF << BITS));               \
    }
FREXP(float, uint, as_float, as_uint, 23, 0xffu, 0x807fffffu, 126, 0x1p-126f, 0x1p32f, 32)
FREXP(double, ulong, as_double, as_ulong, 52, 0x7fful, 0x800ffffffffffffful, 1022, 0x1p-1022,
      0x1p64, 64)
SPLIT_OUT1(float, frexp, float, int)
SPLIT_OUT1(double, frexp, double, int)
SPLIT_OUT1(float, lgamma_r, float, int)
SPLIT_OUT1(double, lgamma_r, double, int)
#define NAMED_INT_OUT(T, N)                                                                   \
    NAMED_OUT1(T##N, frexp, T##N, int##N)                                                     \
    NAMED_OUT1(T##N, lgamma_r, T##N, int##N)
WIDTHS(NAMED_INT_OUT, float)
WIDTHS(NAMED_INT_OUT, double)

/* remquo: C's remquo gives only 3 bits of the quotient in glibc; OpenCL
 * wants 7 (6.13.2). Reducing |x| modulo 128|y| first (fmod is exact) leaves
 * a quotient below 128 that the rounded division recovers exactly. When
 * both are near the top of the range they are quartered first (exact
 * there), so that 128|y| and the quotient's numerator stay finite; the
 * remainder is multiplied back. (A small x needs no scaling: its quotient
 * by a huge y is 0, and quartering it could round.) */
#define REMQUO(T, MAX)                                                                        \
    OVL T remquo(T x, T y, __generic int *quo)                                                \
    {                                                                                         \
        T ax = fabs(x), ay = fabs(y), scale = 1;                                              \
        if (ay > (MAX) / 256 && ax > (MAX) / 1024 && isfinite(ay))                            \
            ax *= (T)0.25, ay *= (T)0.25, scale = 4;                                          \
        T reduced = fmod(ax, (T)128 * ay);                                                    \
        T r = remainder(reduced, ay);                                                         \
        T q = fmod(rint((reduced - r) / ay), (T)128);                                         \
        int n = isnan(q) || isinf(q) ? 0 : (int)q;                                            \
        *quo = signbit(x) != signbit(y) ? -n : n;                                             \
        return copysign(1, x) * r * scale;                                                    \
    }
REMQUO(double, DBL_MAX)
/* float: from the exact reduction above, whose last quotient holds the
 * low bits; no call, so it vectorizes */
OVL float remquo(float x, float y, __generic int *quo)
{
    double q, r = remainder_float_abs(x, y, FLOAT_TOP, &q);
    int n = (int)(q - 128.0 * trunc(q * (1.0 / 128)));
    bool nan = fmod_float_nan(x, y);
    *quo = nan || isinf(y) ? 0 : signbit(x) != signbit(y) ? -n : n;
    float result = isinf(y) ? x : (float)(signbit(x) ? -r : r);
    return nan ? x + y + NAN : result;
}
#define SPLIT_REMQUO(T, N)                                                                    \
    OVL T##N remquo(T##N x, T##N y, __generic int##N *quo)                                    \
    {                                                                                         \
        T r[N];                                                                               \
        int q[N];                                                                             \
        for (int i = 0; i < N; i++)                                                           \
            r[i] = remquo(((T *)&x)[i], ((T *)&y)[i], (__generic int *)&q[i]);              \
        *quo = vload##N(0, q);                                                                \
        return vload##N(0, r);                                                                \
    }
#define REMQUO_VECTORS(T)                                                                     \
    SPLIT_REMQUO(T, 2) SPLIT_REMQUO(T, 3) SPLIT_REMQUO(T, 4) SPLIT_REMQUO(T, 8)               \
    SPLIT_REMQUO(T, 16)
REMQUO_VECTORS(float)
REMQUO_VECTORS(double)
#define NAMED_REMQUO(T, N) NAMED_OUT2(T##N, remquo, T##N, T##N, int##N)
WIDTHS(NAMED_REMQUO, float)
WIDTHS(NAMED_REMQUO, double)

/* nan: a quiet NaN with nancode in the significand */
#define NAN_F(T, N) OVL float##N nan(uint##N code) { return as_float##N(code | 0x7fc00000u); }
#define NAN_D(T, N)                                                                           \
    OVL double##N nan(ulong##N code) { return as_double##N(code | 0x7ff8000000000000ul); }
WIDTHS(NAN_F, float)
WIDTHS(NAN_D, double)

/* fmax/fmin(gentype, scalar) */
#define MINMAX_SCALAR(T, S)                                                                   \
    OVL T fmax(T x, S y) { return fmax(x, (T)y); }                                            \
    OVL T fmin(T x, S y) { return fmin(x, (T)y); }
VECTORS_OF(MINMAX_SCALAR, float)
VECTORS_OF(MINMAX_SCALAR, double)

/* --- powers --- */

/* pown: in double for float (an exact integer exponent, one rounding);
 * double pow for double, where every int is exact. */
OVL float pown(float x, int n) { return (float)pow((double)x, (double)n); }
OVL double pown(double x, int n) { return pow(x, (double)n); }
SPLIT2(float, pown, float, int)
SPLIT2(double, pown, double, int)

/* powr: pow for x >= 0, with the special cases of 7.5.1 where it differs
 * from pow (negative x, 0^0, inf^0, 1^inf, and NaN in either argument). */
#define POWR(T)                                                                               \
    OVL T powr(T x, T y)                                                                      \
    {                                                                                         \
        T r = pow(fabs(x), y);                                                                \
        bool nan = x < 0 || isnan(x) || isnan(y) || (x == 0 && y == 0) ||                     \
                   (isinf(x) && y == 0) || (x == 1 && isinf(y));                              \
        return nan ? (T)NAN : r;                                                              \
    }
POWR(float)
POWR(double)
SPLIT2(float, powr, float, float)
SPLIT2(double, powr, double, double)

/* cbrt: glibc's cbrtf is within 1 ulp; its cbrt within 4 (the CTS saw
 * 2.02, OpenCL C 7.4 allows 2), so one Newton step refines it:
 * y + (x - y^3) / (3 y^2), with y^3 carried as y3 + e3 + e2 y (fma gives
 * each product's rounding error) and x - y3 exact (Sterbenz: y3 is within
 * a few ulp of x). The step squares the relative error, so the result is
 * within 0.5 ulp plus a few 2^-100. Scaled by 2^(+-900) (the root by
 * 2^(+-300)) where y^3 could overflow or its error terms underflow. */
OVL float cbrt(float x) { return __builtin_cbrtf(x); }
VMATH1(float, "f32", cbrt)
OVL double cbrt(double x)
{
    double y = __builtin_cbrt(x);
    if (!isfinite(y) || y == 0.0)
        return y;
    double xs = x, ys = y, back = 1.0;
    if (fabs(x) > 0x1p900)
        xs = x * 0x1p-900, ys = y * 0x1p-300, back = 0x1p300;
    else if (fabs(x) < 0x1p-900)
        xs = x * 0x1p900, ys = y * 0x1p300, back = 0x1p-300;
    double y2 = ys * ys, e2 = fma(ys, ys, -y2);
    double y3 = y2 * ys, e3 = fma(y2, ys, -y3);
    double residual = ((xs - y3) - e3) - e2 * ys;
    return (ys + residual / (3.0 * y2)) * back;
}
SPLIT1(double, cbrt, double)

/* rootn for float in double: 1/n has a relative error of 2^-53, which
 * moves the result by at most |log(x)/n| * 2^-53, far below a float ulp. */
OVL float rootn(float x, int n)
{
    if (n == 0 || (x < 0 && !(n & 1)))
        return NAN;
    double r = pow(fabs((double)x), 1.0 / (double)n);
    return (float)((n & 1) ? copysign(r, (double)x) : r);
}
SPLIT2(float, rootn, float, int)

/* rootn for double: pow(|x|, r) with r = 1/n rounded, times the missing
 * factor |x|^(1/n - r) = exp(d log|x|) ~ 1 + d log|x|, where d = 1/n - r
 * comes from the exact residual fma(-r, n, 1) = 1 - r n. |d log|x|| is at
 * most 2^-53 * 745, so the first-order term is exact enough and the result
 * is within pow's error (about 1 ulp) of the root; without it, up to
 * 2^-53 |log x| / n relative, hundreds of ulp. Special values (7.5.1)
 * come from pow: rootn(+-0, n < 0) = inf (+-inf for odd n), NaN for
 * x < 0 and even n or for n = 0. */
OVL double rootn(double x, int n)
{
    if (n == 0 || (x < 0 && !(n & 1)))
        return NAN;
    double ax = fabs(x), r = 1.0 / (double)n;
    double p = pow(ax, r);
    if (isfinite(p) && p != 0.0 && isfinite(ax) && ax != 0.0) {
        double d = fma(-r, (double)n, 1.0) / (double)n;
        p = fma(p, d * log(ax), p);
    }
    return (n & 1) ? copysign(p, x) : p;
}
SPLIT2(double, rootn, double, int)

/* --- the pi functions --- */

/* sin(pi x) and cos(pi x), both from one exact reduction of |x| to t in
 * [0, 1/4] (every step a difference of numbers within a factor of two of
 * each other: Sterbenz's lemma), where sin and cos of pi t are well
 * conditioned and 7.5.1's exact values come out exact: sinpi(n) = +-0
 * with the sign of n, cospi(n + 0.5) = +0. tanpi is their quotient, whose
 * zeros and infinities then have 7.5.1's signs. sincospi_<T> returns
 * sinpi(x) and stores cospi(x). */
#define SINCOSPI(T, SIN_PI_T, COS_PI_T)                                                       \
    static T sincospi_##T(T x, T *cos_value)                                                  \
    {                                                                                         \
        T a = fabs(x);                                                                        \
        T r = a - (T)2 * floor(a * (T)0.5); /* [0, 2); NaN for +-inf */                       \
        bool upper = r >= (T)1;             /* sin, cos(pi (r + 1)) = -sin, -cos(pi r) */     \
        T s = upper ? (T)-1 : (T)1, c = s;                                                    \
        r = upper ? r - (T)1 : r;                                                             \
        bool far = r > (T)0.5; /* sin, cos(pi (1 - r)) = sin(pi r), -cos(pi r) */             \
        r = far ? (T)1 - r : r;                                                               \
        c = far ? -c : c;                                                                     \
        bool near = r <= (T)0.25; /* else sin, cos(pi r) = cos, sin(pi (1/2 - r)) */          \
        T t = near ? r : (T)0.5 - r;                                                          \
        T sp = SIN_PI_T(t), cp = COS_PI_T(t);                                                 \
        T v = s * (near ? sp : cp);                                                           \
        v = v == (T)0 ? (T)0 : v;                                                             \
        *cos_value = c * (near ? cp : sp) + (T)0;                                             \
        return copysign((T)1, x) * v;                                                         \
    }                                                                                         \
    OVL T sinpi(T x)                                                                          \
    {                                                                                         \
        T c;                                                                                  \
        return sincospi_##T(x, &c);                                                           \
    }                                                                                         \
    OVL T cospi(T x)                                                                          \
    {                                                                                         \
        T c;                                                                                  \
        sincospi_##T(x, &c);                                                                  \
        return c;                                                                             \
    }

/* float: sin(pi t) and cos(pi t) from their Taylor series in u = t^2 to
 * the terms in t^11 and t^10, whose first terms left out are below 2^-36
 * relative for t <= 1/4; evaluated by Horner's rule in float: within 1.69
 * ulp over every float input (7.4 allows 4; tanpi, their quotient in
 * double, 3.17 of 6). No call, so a work-item loop of them vectorizes at
 * the registers' full width: in double through the C library's sin and
 * cos they ran at a quarter of PoCL's speed. */
#define PI_D 3.14159265358979323846
#define PI_2 (PI_D * PI_D)
#define PI_4 (PI_2 * PI_2)
#define PI_8 (PI_4 * PI_4)
static float sin_pi_t(float t)
{
    float u = t * t;
    float p = (float)(PI_D * PI_2 * PI_8 / -39916800.0);
    p = p * u + (float)(PI_D * PI_8 / 362880.0);
    p = p * u + (float)(PI_D * PI_2 * PI_4 / -5040.0);
    p = p * u + (float)(PI_D * PI_4 / 120.0);
    p = p * u + (float)(PI_D * PI_2 / -6.0);
    p = p * u + (float)PI_D;
    return t * p;
}
static float cos_pi_t(float t)
{
    float u = t * t;
    float p = (float)(PI_2 * PI_8 / -3628800.0);
    p = p * u + (float)(PI_8 / 40320.0);
    p = p * u + (float)(PI_2 * PI_4 / -720.0);
    p = p * u + (float)(PI_4 / 24.0);
    p = p * u + (float)(PI_2 / -2.0);
    return p * u + 1.0f;
}
SINCOSPI(float, sin_pi_t, cos_pi_t)
OVL float tanpi(float x)
{
    float c, s = sincospi_float(x, &c);
    return (float)((double)s / (double)c);
}

/* double: the same series to the terms in t^17 and t^16 (the first left
 * out below 2^-60 relative), evaluated by Horner's rule in double: sinpi
 * and cospi within 1.50 ulp and tanpi 3.18 over 16 Mi inputs (3/4 of them
 * of magnitude 2^-63..2^16, the rest any bits; 4 and 6 allowed), where the
 * vector variants of sin and cos of M_PI t gave 3.47, 3.58 and 5.14; and
 * without a call: a loop of sinpi 2.4x faster. */
#define PI_16 (PI_8 * PI_8)
static double sin_pi_t_d(double t)
{
    double u = t * t;
    double p = PI_D * PI_16 / 355687428096000.0;
    p = p * u + PI_D * PI_2 * PI_4 * PI_8 / -1307674368000.0;
    p = p * u + PI_D * PI_4 * PI_8 / 6227020800.0;
    p = p * u + PI_D * PI_2 * PI_8 / -39916800.0;
    p = p * u + PI_D * PI_8 / 362880.0;
    p = p * u + PI_D * PI_2 * PI_4 / -5040.0;
    p = p * u + PI_D * PI_4 / 120.0;
    p = p * u + PI_D * PI_2 / -6.0;
    p = p * u + PI_D;
    return t * p;
}
static double cos_pi_t_d(double t)
{
    double u = t * t;
    double p = PI_16 / 20922789888000.0;
    p = p * u + PI_2 * PI_4 * PI_8 / -87178291200.0;
    p = p * u + PI_4 * PI_8 / 479001600.0;
    p = p * u + PI_2 * PI_8 / -3628800.0;
    p = p * u + PI_8 / 40320.0;
    p = p * u + PI_2 * PI_4 / -720.0;
    p = p * u + PI_4 / 24.0;
    p = p * u + PI_2 / -2.0;
    return p * u + 1.0;
}
SINCOSPI(double, sin_pi_t_d, cos_pi_t_d)
OVL double tanpi(double x)
{
    double c, s = sincospi_double(x, &c);
    return s / c;
}

/* acospi & co.: divided by M_PI, not multiplied by 1/pi, so that the exact
 * cases of 7.5.1 (acospi(-1) = 1, atan2pi(+-0, -0) = +-1, ...) stay exact.
 * For float: the float function, whose vector variants run at the
 * registers' full width, times 1/pi in double, rounded once: with
 * libmvec's AVX2 variants, asinpi within 3.85 ulp of 5 over every float
 * input, acospi 2.73, atanpi 3.21. vecmath.c admits only variants at
 * least half an ulp inside their bound, asin's and acos's 4, and the
 * product and rounding add half an ulp, so asinpi and acospi stay within 4
 * of 5 on every ISA; atanpi's margin (atan's bound is 5 too) rests on the
 * variants measured. The exact cases stay exact once rounded to float
 * (acosf(-1) / pi = 1 + 2.8e-8). Through the double functions they ran at half PoCL's speed. */
OVL float acospi(float x) { return (float)((double)acos(x) * M_1_PI); }
OVL float asinpi(float x) { return (float)((double)asin(x) * M_1_PI); }
OVL float atanpi(float x) { return (float)((double)atan(x) * M_1_PI); }
OVL float atan2pi(float y, float x) { return (float)(atan2((double)y, (double)x) / M_PI); }
OVL double acospi(double x) { return acos(x) / M_PI; }
OVL double asinpi(double x) { return asin(x) / M_PI; }
OVL double atanpi(double x) { return atan(x) / M_PI; }
OVL double atan2pi(double y, double x) { return atan2(y, x) / M_PI; }

#define PI_VECTORS(T)                                                                         \
    SPLIT1(T, sinpi, T)                                                                       \
    SPLIT1(T, cospi, T)                                                                       \
    SPLIT1(T, tanpi, T)                                                                       \
    SPLIT1(T, acospi, T)                                                                      \
    SPLIT1(T, asinpi, T)                                                                      \
    SPLIT1(T, atanpi, T)                                                                      \
    SPLIT2(T, atan2pi, T, T)
PI_VECTORS(float)
PI_VECTORS(double)

/* tgamma for float, in double: Stirling's series for ln Gamma(z) at
 * z = w + 8 (Abramowitz and Stegun 6.1.41, to the 1/(1188 z^9) term; the
 * first term left out, 691/(360360 z^11), is below 3e-13 for z >= 8),
 * divided by w (w + 1) ... (w + 7); for x < 0, Euler's reflection
 * Gamma(x) = pi / (sin(pi x) Gamma(1 - x)) with w = 1 - x. About 1e-14
 * relative, so the float result is within 0.5 ulp and a hair of the exact
 * one (OpenCL C 7.4 allows 16); it calls only log, exp and sin, which
 * have vector variants (vecmath.c). Special values of 7.5.1: +-inf at +-0
 * (from the division), NaN at negative integers and -inf, +inf at +inf.
 * Double keeps the C library's. */
OVL float tgamma(float xf)
{
    double x = xf;
    bool reflect = x < 0.0;
    double w = reflect ? 1.0 - x : x, z = w + 8.0;
    double p = w * (w + 1.0) * (w + 2.0) * (w + 3.0) * (w + 4.0) * (w + 5.0) * (w + 6.0) *
               (w + 7.0);
    double iz = 1.0 / z, iz2 = iz * iz;
    double series =
        iz * (1.0 / 12 + iz2 * (-1.0 / 360 + iz2 * (1.0 / 1260 + iz2 * (-1.0 / 1680 +
                                                                           iz2 * (1.0 / 1188)))));
    double ln_gamma_z = (z - 0.5) * log(z) - z + 0.91893853320467274178 + series;
    double g = exp(ln_gamma_z) / p;
    double r = reflect ? M_PI / (sinpi(x) * g) : g;
    r = x == INFINITY ? x : r;
    return (float)(reflect && x == floor(x) ? NAN : r);
}
SPLIT1(float, tgamma, float)

/* --- half_ and native_ (6.13.2.1: implementation-defined accuracy, at
 * least 8192 ulp for half_): the full-precision functions --- */

#define RELAXED(T)                                                                            \
    OVL T half_cos(T x) { return cos(x); }                                                    \
    OVL T half_divide(T x, T y) { return x / y; }                                             \
    OVL T half_exp(T x) { return exp(x); }                                                    \
    OVL T half_exp2(T x) { return exp2(x); }                                                  \
    OVL T half_exp10(T x) { return exp10(x); }                                                \
    OVL T half_log(T x) { return log(x); }                                                    \
    OVL T half_log2(T x) { return log2(x); }                                                  \
    OVL T half_log10(T x) { return log10(x); }                                                \
    OVL T half_powr(T x, T y) { return powr(x, y); }                                          \
    OVL T half_recip(T x) { return (T)1 / x; }                                                \
    OVL T half_rsqrt(T x) { return rsqrt(x); }                                                \
    OVL T half_sin(T x) { return sin(x); }                                                    \
    OVL T half_sqrt(T x) { return sqrt(x); }                                                  \
    OVL T half_tan(T x) { return tan(x); }                                                    \
    OVL T native_cos(T x) { return cos(x); }                                                  \
    OVL T native_divide(T x, T y) { return x / y; }                                           \
    OVL T native_exp(T x) { return exp(x); }                                                  \
    OVL T native_exp2(T x) { return exp2(x); }                                                \
    OVL T native_exp10(T x) { return exp10(x); }                                              \
    OVL T native_log(T x) { return log(x); }                                                  \
    OVL T native_log2(T x) { return log2(x); }                                                \
    OVL T native_log10(T x) { return log10(x); }                                              \
    OVL T native_powr(T x, T y) { return powr(x, y); }                                        \
    OVL T native_recip(T x) { return (T)1 / x; }                                              \
    OVL T native_rsqrt(T x) { return rsqrt(x); }                                              \
    OVL T native_sin(T x) { return sin(x); }                                                  \
    OVL T native_sqrt(T x) { return sqrt(x); }                                                \
    OVL T native_tan(T x) { return tan(x); }
FLOATN(RELAXED)

/* --- half (cl_khr_fp16, OpenCL 2.0 extensions 9.4): computed in float,
 * rounded once to half; half_ and native_ exist for float only ---
 *
 * A float result within a few float ulp of the exact value, rounded to the
 * nearest half, is within 0.5 + 2^-11 half ulp of it: inside every bound of
 * the half ULP table (1 to 4 ulp, and 0 for the exact functions, whose
 * float result is itself a half: fabs, floor, fmod, remainder, ldexp, ...).
 * For +, -, *, / and sqrt the float result rounded to half is the correctly
 * rounded half: float's 24 bits are at least 2 * 11 + 2, which makes
 * rounding twice innocuous (Figueroa, "When is double rounding
 * innocuous?", 1995). Half denormals are normal floats, so they are kept
 * (CL_FP_DENORM). */

#define HALF_VEC1_N(F, N)                                                                     \
    OVL half##N F(half##N x) { return convert_half##N(F(convert_float##N(x))); }
#define HALF_VEC2_N(F, N)                                                                     \
    OVL half##N F(half##N x, half##N y)                                                       \
    {                                                                                         \
        return convert_half##N(F(convert_float##N(x), convert_float##N(y)));                  \
    }
#define HALF_VEC3_N(F, N)                                                                     \
    OVL half##N F(half##N x, half##N y, half##N z)                                            \
    {                                                                                         \
        return convert_half##N(F(convert_float##N(x), convert_float##N(y), convert_float##N(z))); \
    }
#define HALF_VIA_FLOAT1(F)                                                                    \
    OVL half F(half x) { return (half)F((float)x); }                                          \
    HALF_VEC1_N(F, 2) HALF_VEC1_N(F, 3) HALF_VEC1_N(F, 4) HALF_VEC1_N(F, 8) HALF_VEC1_N(F, 16)
#define HALF_VIA_FLOAT2(F)                                                                    \
    OVL half F(half x, half y) { return (half)F((float)x, (float)y); }                        \
    HALF_VEC2_N(F, 2) HALF_VEC2_N(F, 3) HALF_VEC2_N(F, 4) HALF_VEC2_N(F, 8) HALF_VEC2_N(F, 16)
#define HALF_VIA_FLOAT3(F)                                                                    \
    OVL half F(half x, half y, half z) { return (half)F((float)x, (float)y, (float)z); }      \
    HALF_VEC3_N(F, 2) HALF_VEC3_N(F, 3) HALF_VEC3_N(F, 4) HALF_VEC3_N(F, 8) HALF_VEC3_N(F, 16)

/* The half pi functions from the float ones times 1/pi in float: the
 * float function's few float ulps and the product's rounding are far below
 * a half ulp, and the cases 7.5.1 makes exact stay exact once rounded to
 * half (acosf(-1) / pi = 1 + 3e-8). The float pi functions' double product
 * kept these loops at 4 lanes (half asinpi 11 ms for 4 Mi items). */
#define HALF_PI_N(F, G, N)                                                                    \
    OVL half##N F(half##N x) { return convert_half##N(G(convert_float##N(x)) * (float)M_1_PI); }
#define HALF_PI(F, G)                                                                         \
    OVL half F(half x) { return (half)(G((float)x) * (float)M_1_PI); }                        \
    HALF_PI_N(F, G, 2) HALF_PI_N(F, G, 3) HALF_PI_N(F, G, 4) HALF_PI_N(F, G, 8)               \
    HALF_PI_N(F, G, 16)
HALF_PI(acospi, acos)
HALF_PI(asinpi, asin)
HALF_PI(atanpi, atan)
#define ATAN2PI_HALF_N(N)                                                                     \
    OVL half##N atan2pi(half##N y, half##N x)                                                 \
    {                                                                                         \
        return convert_half##N(atan2(convert_float##N(y), convert_float##N(x)) * (float)M_1_PI); \
    }
OVL half atan2pi(half y, half x) { return (half)(atan2((float)y, (float)x) * (float)M_1_PI); }
ATAN2PI_HALF_N(2) ATAN2PI_HALF_N(3) ATAN2PI_HALF_N(4) ATAN2PI_HALF_N(8) ATAN2PI_HALF_N(16)
HALF_VIA_FLOAT1(acos)
HALF_VIA_FLOAT1(acosh)
HALF_VIA_FLOAT1(asin)
HALF_VIA_FLOAT1(asinh)
HALF_VIA_FLOAT1(atan)
HALF_VIA_FLOAT1(atanh)
HALF_VIA_FLOAT1(cbrt)
HALF_VIA_FLOAT1(ceil)
HALF_VIA_FLOAT1(cos)
HALF_VIA_FLOAT1(cosh)
HALF_VIA_FLOAT1(cospi)
HALF_VIA_FLOAT1(erf)
HALF_VIA_FLOAT1(erfc)
HALF_VIA_FLOAT1(exp)
HALF_VIA_FLOAT1(exp2)
HALF_VIA_FLOAT1(exp10)
HALF_VIA_FLOAT1(expm1)
HALF_VIA_FLOAT1(fabs)
HALF_VIA_FLOAT1(floor)
HALF_VIA_FLOAT1(lgamma)
HALF_VIA_FLOAT1(log)
HALF_VIA_FLOAT1(log2)
HALF_VIA_FLOAT1(log10)
HALF_VIA_FLOAT1(log1p)
HALF_VIA_FLOAT1(logb)
HALF_VIA_FLOAT1(rint)
HALF_VIA_FLOAT1(round)
HALF_VIA_FLOAT1(rsqrt)
HALF_VIA_FLOAT1(sin)
HALF_VIA_FLOAT1(sinh)
HALF_VIA_FLOAT1(sinpi)
HALF_VIA_FLOAT1(sqrt)
HALF_VIA_FLOAT1(tan)
HALF_VIA_FLOAT1(tanh)
HALF_VIA_FLOAT1(tanpi)
HALF_VIA_FLOAT1(tgamma)
HALF_VIA_FLOAT1(trunc)
HALF_VIA_FLOAT2(atan2)
HALF_VIA_FLOAT2(copysign)
HALF_VIA_FLOAT2(fdim)
HALF_VIA_FLOAT2(fmax)
HALF_VIA_FLOAT2(fmin)
HALF_VIA_FLOAT2(hypot)
HALF_VIA_FLOAT2(maxmag)
HALF_VIA_FLOAT2(minmag)
HALF_VIA_FLOAT2(pow)
HALF_VIA_FLOAT2(powr)
/* mad: any accuracy (6.13.2); a * b is exact in float, one rounding more */
HALF_VIA_FLOAT3(mad)

/* fma must be correctly rounded. In double a * b is exact (22 bits) and
 * the sum is rounded once; when that rounding is inexact the two terms are
 * more than 2^29 apart, so the double lies strictly between the same two
 * halves as the exact value and never on a half's rounding boundary (a
 * half midpoint has 12 bits): its rounding to half is the correct one. */
OVL half fma(half a, half b, half c)
{
    /* That double goes to half through float rounded to odd (toward zero,
     * then the last bit set when inexact): with 24 bits against half's 11
     * the second rounding is then the correct one (the innocuous double
     * rounding of p' >= 2p + 2). x86 converts float to half in vector
     * registers but double to half only by a call a lane (a loop of half
     * fma ran at 7-9 ms for 4 Mi items). */
    double s = (double)a * (double)b + (double)c;
    float f = (float)s;
    uint u = as_uint(f);
    u = fabs((double)f) > fabs(s) ? u - 1 : u;
    u = (double)f != s ? u | 1u : u;
    return (half)as_float(u);
}
SPLIT3(half, fma, half)

VECTORS_OF(MINMAX_SCALAR, half)

/* nextafter steps the half's own encoding: through float it would move by
 * a float ulp and round back. */
OVL half nextafter(half x, half y)
{
    if (isnan(x) || isnan(y))
        return x + y;
    if (x == y)
        return y;
    if (x == (half)0) /* the smallest denormal, with y's sign */
        return as_half((ushort)((as_ushort(y) & 0x8000) | 1));
    short bits = as_short(x);
    /* sign and magnitude: the magnitude grows when y lies beyond x */
    return as_half((short)((x < y) == (x > (half)0) ? bits + 1 : bits - 1));
}
SPLIT2(half, nextafter, half, half)

/* Exact through float: the half's bits, exponent and significand. */
OVL int ilogb(half x) { return ilogb((float)x); }
SPLIT1(int, ilogb, half)
OVL half ldexp(half x, int k) { return (half)ldexp((float)x, k); }
SPLIT2(half, ldexp, half, int)
LDEXP_SCALAR(half2, 2) LDEXP_SCALAR(half3, 3) LDEXP_SCALAR(half4, 4) LDEXP_SCALAR(half8, 8)
LDEXP_SCALAR(half16, 16)
OVL half pown(half x, int n) { return (half)pown((float)x, n); }
SPLIT2(half, pown, half, int)
OVL half rootn(half x, int n) { return (half)rootn((float)x, n); }
SPLIT2(half, rootn, half, int)
#define NAN_H(T, N)                                                                           \
    OVL half##N nan(ushort##N code) { return as_half##N((ushort##N)(code | (ushort##N)0x7e00)); }
WIDTHS(NAN_H, half)

/* fract in half arithmetic: through float, x - floor(x) of a tiny
 * negative x would be 1 - 2^-24, a float that rounds to 1.0 in half; the
 * clamp must be to the largest half below 1 (6.13.2). */
OVL half fract(half x, __generic half *iptr)
{
    half whole = floor(x);
    *iptr = whole;
    half f = fmin(x - whole, 0x1.ffcp-1h);
    f = isinf(x) ? copysign((half)0, x) : f;
    f = x == (half)0 ? x : f;
    return isnan(x) ? x : f;
}
OVL half modf(half x, __generic half *iptr)
{
    half whole = trunc(x);
    *iptr = whole;
    return copysign(isinf(x) ? (half)0 : x - whole, x);
}
OVL half sincos(half x, __generic half *cosval)
{
    *cosval = cos(x);
    return sin(x);
}
OVL half frexp(half x, __generic int *exp) { return (half)frexp((float)x, exp); }
OVL half lgamma_r(half x, __generic int *signp) { return (half)lgamma_r((float)x, signp); }
/* fmod, remainder and remquo of halves: the float reduction above in one
 * step (top 0), since |x| / |y| < 2^41 for halves (halves convert to float
 * exactly). Through the float functions' six steps they ran at a third of
 * this speed. */
OVL half fmod(half x, half y)
{
    double q, r = fmod_float_abs(x, y, 0, &q);
    half result = isinf(y) ? x : copysign((half)r, x);
    return fmod_float_nan(x, y) ? (half)NAN : result;
}
OVL half remainder(half x, half y)
{
    double q, r = remainder_float_abs(x, y, 0, &q);
    half result = isinf(y) ? x : (half)(signbit(x) ? -r : r);
    return fmod_float_nan(x, y) ? (half)NAN : result;
}
SPLIT2(half, fmod, half, half)
SPLIT2(half, remainder, half, half)
OVL half remquo(half x, half y, __generic int *quo)
{
    double q, r = remainder_float_abs(x, y, 0, &q);
    int n = (int)(q - 128.0 * trunc(q * (1.0 / 128)));
    bool nan = fmod_float_nan(x, y);
    *quo = nan || isinf(y) ? 0 : signbit(x) != signbit(y) ? -n : n;
    half result = isinf(y) ? x : (half)(signbit(x) ? -r : r);
    return nan ? (half)NAN : result;
}
SPLIT_OUT1(half, fract, half, half)
SPLIT_OUT1(half, modf, half, half)
SPLIT_OUT1(half, sincos, half, half)
SPLIT_OUT1(half, frexp, half, int)
SPLIT_OUT1(half, lgamma_r, half, int)
REMQUO_VECTORS(half)
#define NAMED_HALF_OUT(T, N)                                                                  \
    NAMED_OUT1(T##N, fract, T##N, T##N)                                                       \
    NAMED_OUT1(T##N, modf, T##N, T##N)                                                        \
    NAMED_OUT1(T##N, sincos, T##N, T##N)                                                      \
    NAMED_INT_OUT(T, N)                                                                       \
    NAMED_REMQUO(T, N)
WIDTHS(NAMED_HALF_OUT, half)
