/* convert.cl - explicit conversions (OpenCL C 2.0, 6.2.3):
 * convert_<dest><n>[_sat][_rte|_rtz|_rtp|_rtn](<src><n>) for every pair of
 * char, uchar, short, ushort, int, uint, long, ulong, float, double, half
 * (cl_khr_fp16) and n in 1, 2, 3, 4, 8, 16.
 *
 * Rules (6.2.3.1-6.2.3.3):
 *  - to an integer, the default rounding is toward zero; from floating
 *    point the value is rounded first (rint, trunc, ceil, floor);
 *  - _sat clamps to the destination's range and turns NaN into 0; without
 *    it an out-of-range value is undefined (here: what the cast gives);
 *  - integer to integer ignores the rounding mode;
 *  - to floating point, the default is round to nearest even, which the
 *    C cast does; the other modes take that result and step one ulp
 *    (nextafter) when it lies on the wrong side of the exact value, found
 *    by an exact comparison (in double for 32-bit integers, in the integer
 *    type itself for 64-bit ones, in double for double -> float).
 *  - half: from half, the value converts exactly to float first and then
 *    follows float's rules; to half, the cast rounds once to nearest even
 *    (LLVM converts double to half directly, and integers through float,
 *    exact below 2^24 where every half result lies), compared in double.
 *
 * Vectors convert element by element through the scalar function; the
 * default conversions, equal to C casts, use __builtin_convertvector.
 */
#include "library.h"

/* --- per type: signedness and range, as compile-time facts --- */
#define IS_SIGNED_char 1
#define IS_SIGNED_uchar 0
#define IS_SIGNED_short 1
#define IS_SIGNED_ushort 0
#define IS_SIGNED_int 1
#define IS_SIGNED_uint 0
#define IS_SIGNED_long 1
#define IS_SIGNED_ulong 0
#define MIN_char CHAR_MIN
#define MAX_char CHAR_MAX
#define MIN_uchar 0
#define MAX_uchar UCHAR_MAX
#define MIN_short SHRT_MIN
#define MAX_short SHRT_MAX
#define MIN_ushort 0
#define MAX_ushort USHRT_MAX
#define MIN_int INT_MIN
#define MAX_int INT_MAX
#define MIN_uint 0
#define MAX_uint UINT_MAX
#define MIN_long LONG_MIN
#define MAX_long LONG_MAX
#define MIN_ulong 0
#define MAX_ulong ULONG_MAX
/* 2^bits as a double: one past the largest value of an unsigned type, or
 * of the positive range of a signed one (exact in double) */
#define TOP_char 0x1p7
#define TOP_uchar 0x1p8
#define TOP_short 0x1p15
#define TOP_ushort 0x1p16
#define TOP_int 0x1p31
#define TOP_uint 0x1p32
#define TOP_long 0x1p63
#define TOP_ulong 0x1p64

/* --- the roundings of floating point before an integer conversion --- */
#define ROUND_(x) trunc(x)
#define ROUND__rtz(x) trunc(x)
#define ROUND__rte(x) rint(x)
#define ROUND__rtp(x) ceil(x)
#define ROUND__rtn(x) floor(x)

/* integer -> integer, wrapping (the C cast) or saturating */
#define INT_TO_INT(D, S, R)                                                                   \
    OVL D convert_##D##R(S x) { return (D)x; }                                                \
    OVL D convert_##D##_sat##R(S x)                                                           \
    {                                                                                         \
        if (IS_SIGNED_##S && x < (S)0) {                                                      \
            if (!IS_SIGNED_##D)                                                               \
                return (D)0;                                                                  \
            return (long)x < (long)MIN_##D ? (D)MIN_##D : (D)x;                               \
        }                                                                                     \
        return (ulong)x > (ulong)MAX_##D ? (D)MAX_##D : (D)x;                                 \
    }

/* floating point -> integer: rounded first, then cast or clamped. The
 * bounds compare in the source type, where 2^bits is exact (inf for half
 * from 2^16, above every finite half); one select each, so that a loop of
 * them vectorizes at the source's width (in double, a float -> uchar
 * saturation ran at two thirds of PoCL's speed). */
#define FLOAT_TO_INT(D, S, R)                                                                 \
    OVL D convert_##D##R(S x) { return (D)ROUND_##R(x); }                                     \
    OVL D convert_##D##_sat##R(S x)                                                           \
    {                                                                                         \
        S r = ROUND_##R(x);                                                                   \
        D v = r >= (S)TOP_##D ? (D)MAX_##D                                                    \
              : r <= (IS_SIGNED_##D ? -(S)TOP_##D : (S)0) ? (D)MIN_##D                        \
                                                          : (D)r;                             \
        return isnan(x) ? (D)0 : v;                                                           \
    }

/* The step from a round-to-nearest result f toward the asked direction,
 * given cmp = sign(f - exact) and the sign of the exact value. */
#define STEP(f, cmp, negative, R, INF)                                                        \
    STEP_##R(f, cmp, negative, INF)
#define STEP_(f, cmp, negative, INF) (f)
#define STEP__rte(f, cmp, negative, INF) (f)
#define STEP__rtz(f, cmp, negative, INF)                                                      \
    ((cmp) > 0 && !(negative) ? nextafter(f, (__typeof__(f))0)                                \
     : (cmp) < 0 && (negative) ? nextafter(f, (__typeof__(f))0)                               \
                               : (f))
#define STEP__rtp(f, cmp, negative, INF) ((cmp) < 0 ? nextafter(f, (__typeof__(f))(INF)) : (f))
#define STEP__rtn(f, cmp, negative, INF) ((cmp) > 0 ? nextafter(f, -(__typeof__(f))(INF)) : (f))

/* 8-, 16- and 32-bit integers -> float or double: the nearest, compared
 * with the exact value in double */
#define NARROW_TO_FLOAT(D, S, R)                                                              \
    OVL D convert_##D##R(S x)                                                                 \
    {                                                                                         \
        D f = (D)x;                                                                           \
        double exact = (double)x, got = (double)f;                                            \
        int cmp = (got > exact) - (got < exact);                                              \
        return STEP(f, cmp, x < (S)0, R, INFINITY);                                           \
    }

/* 64-bit integers -> float or double: the comparison in the integer type;
 * a result of 2^63 (2^64 unsigned) is above every value */
#define WIDE_TO_FLOAT(D, S, R)                                                                \
    OVL D convert_##D##R(S x)                                                                 \
    {                                                                                         \
        D f = (D)x;                                                                           \
        int cmp;                                                                              \
        if ((double)f >= TOP_##S)                                                             \
            cmp = 1;                                                                          \
        else                                                                                  \
            cmp = ((S)f > x) - ((S)f < x);                                                    \
        return STEP(f, cmp, x < (S)0, R, INFINITY);                                           \
    }

/* floating point -> floating point: to a narrower type it rounds, and the
 * result is compared with x in the wider of the two types (exact: both
 * values are of it; float, not double, for float -> half keeps 8 lanes a
 * register); widening is exact */
#define FLOAT_TO_FLOAT(D, S, R)                                                               \
    OVL D convert_##D##R(S x)                                                                 \
    {                                                                                         \
        typedef __typeof__((S)0 + (D)0) wide;                                                 \
        D f = (D)x;                                                                           \
        wide got = (wide)f, exact = (wide)x;                                                  \
        int cmp = (got > exact) - (got < exact);                                              \
        return STEP(f, cmp, exact < (wide)0, R, INFINITY);                                    \
    }

/* --- one macro per destination family, over every source and rounding --- */
#define ROUNDINGS(M, D, S) M(D, S, ) M(D, S, _rte) M(D, S, _rtz) M(D, S, _rtp) M(D, S, _rtn)

#define TO_INT(D)                                                                             \
    ROUNDINGS(INT_TO_INT, D, char) ROUNDINGS(INT_TO_INT, D, uchar)                            \
    ROUNDINGS(INT_TO_INT, D, short) ROUNDINGS(INT_TO_INT, D, ushort)                          \
    ROUNDINGS(INT_TO_INT, D, int) ROUNDINGS(INT_TO_INT, D, uint)                              \
    ROUNDINGS(INT_TO_INT, D, long) ROUNDINGS(INT_TO_INT, D, ulong)                            \
    ROUNDINGS(FLOAT_TO_INT, D, float) ROUNDINGS(FLOAT_TO_INT, D, double)                      \
    ROUNDINGS(FLOAT_TO_INT, D, half)

#define TO_FLOAT(D)                                                                           \
    ROUNDINGS(NARROW_TO_FLOAT, D, char) ROUNDINGS(NARROW_TO_FLOAT, D, uchar)                  \
    ROUNDINGS(NARROW_TO_FLOAT, D, short) ROUNDINGS(NARROW_TO_FLOAT, D, ushort)                \
    ROUNDINGS(NARROW_TO_FLOAT, D, int) ROUNDINGS(NARROW_TO_FLOAT, D, uint)                    \
    ROUNDINGS(WIDE_TO_FLOAT, D, long) ROUNDINGS(WIDE_TO_FLOAT, D, ulong)                      \
    ROUNDINGS(FLOAT_TO_FLOAT, D, float) ROUNDINGS(FLOAT_TO_FLOAT, D, double)                  \
    ROUNDINGS(FLOAT_TO_FLOAT, D, half)

/* To half every integer compares in double: 64-bit ones too, since (double)x
 * is exact below 2^53, and above it x and (double)x both lie far beyond the
 * largest half, on the same side of every half. */
#define TO_HALF                                                                               \
    ROUNDINGS(NARROW_TO_FLOAT, half, char) ROUNDINGS(NARROW_TO_FLOAT, half, uchar)            \
    ROUNDINGS(NARROW_TO_FLOAT, half, short) ROUNDINGS(NARROW_TO_FLOAT, half, ushort)          \
    ROUNDINGS(NARROW_TO_FLOAT, half, int) ROUNDINGS(NARROW_TO_FLOAT, half, uint)              \
    ROUNDINGS(NARROW_TO_FLOAT, half, long) ROUNDINGS(NARROW_TO_FLOAT, half, ulong)            \
    ROUNDINGS(FLOAT_TO_FLOAT, half, float) ROUNDINGS(FLOAT_TO_FLOAT, half, double)            \
    ROUNDINGS(FLOAT_TO_FLOAT, half, half)

TO_INT(char)
TO_INT(uchar)
TO_INT(short)
TO_INT(ushort)
TO_INT(int)
TO_INT(uint)
TO_INT(long)
TO_INT(ulong)
TO_FLOAT(float)
TO_FLOAT(double)
TO_HALF

/* --- vectors: element by element through the scalar function --- */
#define VEC_ONE(D, S, N, SUFFIX)                                                              \
    OVL D##N convert_##D##N##SUFFIX(S##N x)                                                   \
    {                                                                                         \
        D r[N];                                                                               \
        for (int i = 0; i < N; i++)                                                           \
            r[i] = convert_##D##SUFFIX(((S *)&x)[i]);                                         \
        return vload##N(0, r);                                                                \
    }
#define VEC_SUFFIXES_INT(D, S, N)                                                             \
    VEC_ONE(D, S, N, _rte) VEC_ONE(D, S, N, _rtz) VEC_ONE(D, S, N, _rtp)                      \
    VEC_ONE(D, S, N, _rtn) VEC_ONE(D, S, N, _sat) VEC_ONE(D, S, N, _sat_rte)                  \
    VEC_ONE(D, S, N, _sat_rtz) VEC_ONE(D, S, N, _sat_rtp) VEC_ONE(D, S, N, _sat_rtn)
#define VEC_SUFFIXES_FLOAT(D, S, N)                                                           \
    VEC_ONE(D, S, N, _rte) VEC_ONE(D, S, N, _rtz) VEC_ONE(D, S, N, _rtp) VEC_ONE(D, S, N, _rtn)
/* the default conversion is the C cast, element-wise */
#define VEC_DEFAULT(D, S, N)                                                                  \
    OVL D##N convert_##D##N(S##N x) { return __builtin_convertvector(x, D##N); }

#define VEC_WIDTHS(M, D, S) M(D, S, 2) M(D, S, 3) M(D, S, 4) M(D, S, 8) M(D, S, 16)
#define VEC_INT_PAIR(D, S) VEC_WIDTHS(VEC_SUFFIXES_INT, D, S) VEC_WIDTHS(VEC_DEFAULT_INT, D, S)
#define VEC_FLOAT_PAIR(D, S)                                                                  \
    VEC_WIDTHS(VEC_SUFFIXES_FLOAT, D, S) VEC_WIDTHS(VEC_DEFAULT, D, S)
/* to an integer from floating point the default rounds toward zero, which
 * is the C cast too; out-of-range values are undefined either way */
#define VEC_DEFAULT_INT(D, S, N) VEC_DEFAULT(D, S, N)

#define VEC_TO_INT(D)                                                                         \
    VEC_INT_PAIR(D, char) VEC_INT_PAIR(D, uchar) VEC_INT_PAIR(D, short)                       \
    VEC_INT_PAIR(D, ushort) VEC_INT_PAIR(D, int) VEC_INT_PAIR(D, uint)                        \
    VEC_INT_PAIR(D, long) VEC_INT_PAIR(D, ulong) VEC_INT_PAIR(D, float)                       \
    VEC_INT_PAIR(D, double) VEC_INT_PAIR(D, half)
#define VEC_TO_FLOAT(D)                                                                       \
    VEC_FLOAT_PAIR(D, char) VEC_FLOAT_PAIR(D, uchar) VEC_FLOAT_PAIR(D, short)                 \
    VEC_FLOAT_PAIR(D, ushort) VEC_FLOAT_PAIR(D, int) VEC_FLOAT_PAIR(D, uint)                  \
    VEC_FLOAT_PAIR(D, long) VEC_FLOAT_PAIR(D, ulong) VEC_FLOAT_PAIR(D, float)                 \
    VEC_FLOAT_PAIR(D, double) VEC_FLOAT_PAIR(D, half)

VEC_TO_INT(char)
VEC_TO_INT(uchar)
VEC_TO_INT(short)
VEC_TO_INT(ushort)
VEC_TO_INT(int)
VEC_TO_INT(uint)
VEC_TO_INT(long)
VEC_TO_INT(ulong)
VEC_TO_FLOAT(float)
VEC_TO_FLOAT(double)
VEC_TO_FLOAT(half)
