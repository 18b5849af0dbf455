/* geometric.cl - geometric functions (OpenCL C 2.0, 6.13.5), for float,
 * double and half scalars and 2-, 3- and 4-component vectors.
 *
 * length, distance and normalize must not overflow or underflow where the
 * result is representable: float length and distance are computed in
 * double; normalize, and the double ones when the largest component is
 * extreme, scale by a power of two (exact).
 */
#include "library.h"

#define DOT(T)                                                                                \
    OVL T dot(T x, T y) { return x * y; }                                                     \
    OVL T dot(T##2 x, T##2 y) { return x.s0 * y.s0 + x.s1 * y.s1; }                           \
    OVL T dot(T##3 x, T##3 y) { return x.s0 * y.s0 + x.s1 * y.s1 + x.s2 * y.s2; }             \
    OVL T dot(T##4 x, T##4 y)                                                                 \
    {                                                                                         \
        return x.s0 * y.s0 + x.s1 * y.s1 + x.s2 * y.s2 + x.s3 * y.s3;                         \
    }                                                                                         \
    OVL T##3 cross(T##3 a, T##3 b)                                                            \
    {                                                                                         \
        return (T##3)(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);   \
    }                                                                                         \
    OVL T##4 cross(T##4 a, T##4 b) { return (T##4)(cross(a.xyz, b.xyz), 0); }
DOT(float)
DOT(double)

/* the largest magnitude of the components (fmax: NaNs are passed over) */
#define MAX_ABS(T, E)                                                                         \
    static OVL E max_abs(T p)                                                                 \
    {                                                                                         \
        T a = fabs(p);                                                                        \
        E m = a.s0;                                                                           \
        for (int i = 1; i < (int)vec_step(T); i++)                                            \
            m = fmax(m, ((E *)&a)[i]);                                                        \
        return m;                                                                             \
    }
MAX_ABS(float2, float)
MAX_ABS(float3, float)
MAX_ABS(float4, float)
MAX_ABS(double2, double)
MAX_ABS(double3, double)
MAX_ABS(double4, double)

/* --- float: in double, where no sum of squares of floats overflows --- */

#define FLOAT_GEOMETRY(T, D)                                                                  \
    OVL float length(T p)                                                                     \
    {                                                                                         \
        D d = __builtin_convertvector(p, D);                                                  \
        return (float)sqrt(dot(d, d));                                                        \
    }                                                                                         \
    OVL float distance(T p0, T p1) { return length(p0 - p1); }                                \
    OVL float fast_length(T p) { return half_sqrt(dot(p, p)); }                               \
    OVL float fast_distance(T p0, T p1) { return fast_length(p0 - p1); }                      \
    OVL T fast_normalize(T p)                                                                 \
    {                                                                                         \
        float d = dot(p, p);                                                                  \
        return d == 0.0f ? p : p * half_rsqrt(d);                                             \
    }

/* normalize (6.13.5): zero vectors stay, NaN gives NaN, and infinite
 * components count as +-1 with the finite ones as 0. In float, scaled by
 * a power of two that brings the largest component m into [2, 4): the
 * sum of squares then neither overflows nor loses a share of the result,
 * and the scaling is exact: by 2^64 first when m is denormal (then every
 * component is), then by a factor built from m's exponent bits. One
 * division a vector. Within 2.3 ulp (the CTS allows 2 + n for n
 * components); in double, with a division per component, a float4
 * normalize ran at 0.6 of PoCL's speed. */
#define NORMALIZE_F(T, L)                                                                     \
    OVL T normalize(T p)                                                                      \
    {                                                                                         \
        L inf = isinf(p);                                                                     \
        p = any(inf) ? (inf ? copysign((T)1, p) : (T)0 * p) : p;                              \
        float m = max_abs(p);                                                                 \
        float pre = m < 0x1p-126f ? 0x1p64f : 1.0f; /* a denormal m becomes normal */         \
        uint biased = as_uint(m * pre) & 0x7f800000u;                                         \
        T q = p * pre * as_float(0x7f800000u - biased); /* m: [2, 4) */                       \
        return all(p == (T)0) ? p : q * (1.0f / sqrt(dot(q, q))); /* NaN: all NaN */          \
    }
NORMALIZE_F(float2, int2)
NORMALIZE_F(float3, int3)
NORMALIZE_F(float4, int4)
FLOAT_GEOMETRY(float2, double2)
FLOAT_GEOMETRY(float3, double3)
FLOAT_GEOMETRY(float4, double4)

OVL float length(float p) { return fabs(p); }
OVL float distance(float p0, float p1) { return fabs(p0 - p1); }
OVL float normalize(float p) { return p == 0.0f || isnan(p) ? p : copysign(1.0f, p); }
OVL float fast_length(float p) { return fabs(p); }
OVL float fast_distance(float p0, float p1) { return fabs(p0 - p1); }
OVL float fast_normalize(float p) { return normalize(p); }

/* --- double: the sum of squares n as it comes when it neither overflows
 * nor comes near the denormals: every square that underflowed is then
 * below 2^-122 of n, so scaling could not make the result more accurate (a
 * double4 length or normalize ran at a third of PoCL's speed when every
 * call looked for the largest component). Otherwise every component is
 * scaled by a power of two s built from the exponent bits of the largest
 * component m, which brings m into [2, 4) (by 2^100 first when m is below
 * 2^-1000, so that its exponent bits are not those of a denormal), and
 * the result is scaled back: as the float normalize does, with
 * multiplications only. Smaller components then become denormal only
 * where their share of the result is denormal too; a fixed factor such as
 * 2^-600 would push a component 2^-439 of a vector with m = 2^581 into the
 * denormals and lose bits the normalized vector has.
 *
 * In a work-item loop the vectorizer computes both sides of the branch for
 * every lane: written with ldexp and a second sqrt, the scaled side made
 * double4 length take 7.5 ms for 4 Mi items against 4.5 ms for
 * sqrt(dot(x, x)) (bench/builtins.c). normalize multiplies by one
 * reciprocal (the CTS allows 2 * (2.5 + n / 2) ulp) instead of dividing
 * every component. --- */

/* the factors that bring m into [2, 4): *pre, then the returned one */
static double scale_of(double m, double *pre)
{
    *pre = m < 0x1p-1000 ? 0x1p100 : 1.0;
    ulong biased = as_ulong(m * *pre) >> 52;
    return as_double((2047ul - biased) << 52);
}

#define DOUBLE_GEOMETRY(T, L)                                                                 \
    OVL double length(T p)                                                                    \
    {                                                                                         \
        double n = dot(p, p), m = 1.0, pre = 1.0, s = 1.0;                                    \
        if (!(n > 0x1p-900 && n < INFINITY)) {                                                \
            m = max_abs(p); /* zero, tiny or huge; NaN if every component is */               \
            s = m == 0.0 || isinf(m) ? 1.0 : scale_of(m, &pre);                               \
            T q = p * pre * s;                                                                \
            n = dot(q, q);                                                                    \
        }                                                                                     \
        /* 1 / s is exact: m * pre is at least 2^-974 */                                      \
        double r = sqrt(n) * as_double(0x7fe0000000000000ul - as_ulong(s)) * (1.0 / pre);     \
        return isinf(m) ? INFINITY : r;                                                       \
    }                                                                                         \
    OVL double distance(T p0, T p1) { return length(p0 - p1); }                               \
    OVL T normalize(T p)                                                                      \
    {                                                                                         \
        double n = dot(p, p);                                                                 \
        if (!(n > 0x1p-900 && n < INFINITY)) {                                                \
            L inf = isinf(p);                                                                 \
            if (any(inf))                                                                     \
                p = inf ? copysign((T)1, p) : (T)0 * p;                                       \
            double m = max_abs(p), pre = 1.0;                                                 \
            double s = m == 0.0 ? 1.0 : scale_of(m, &pre);                                    \
            p = p * pre * s;                                                                  \
            n = m == 0.0 ? 1.0 : dot(p, p);                                                   \
        }                                                                                     \
        return p * (1.0 / sqrt(n));                                                           \
    }                                                                                         \
    OVL double fast_length(T p) { return length(p); }                                         \
    OVL double fast_distance(T p0, T p1) { return distance(p0, p1); }                         \
    OVL T fast_normalize(T p) { return normalize(p); }
DOUBLE_GEOMETRY(double2, long2)
DOUBLE_GEOMETRY(double3, long3)
DOUBLE_GEOMETRY(double4, long4)

OVL double length(double p) { return fabs(p); }
OVL double distance(double p0, double p1) { return fabs(p0 - p1); }
OVL double normalize(double p) { return p == 0.0 || isnan(p) ? p : copysign(1.0, p); }
OVL double fast_length(double p) { return fabs(p); }
OVL double fast_distance(double p0, double p1) { return fabs(p0 - p1); }
OVL double fast_normalize(double p) { return normalize(p); }

/* --- half (cl_khr_fp16): in float, rounded once to half. Products of
 * halves are exact in float and no sum of squares of halves overflows or
 * underflows there (65504^2 < 2^32, 2^-48 is a normal float), so the float
 * functions' care for range is not even needed. --- */

#define HALF_GEOMETRY(H, F)                                                                   \
    OVL half dot(H x, H y) { return (half)dot(convert_##F(x), convert_##F(y)); }              \
    OVL half length(H p) { return (half)length(convert_##F(p)); }                             \
    OVL half distance(H p0, H p1) { return (half)distance(convert_##F(p0), convert_##F(p1)); } \
    OVL H normalize(H p) { return convert_##H(normalize(convert_##F(p))); }
HALF_GEOMETRY(half, float)
HALF_GEOMETRY(half2, float2)
HALF_GEOMETRY(half3, float3)
HALF_GEOMETRY(half4, float4)
OVL half3 cross(half3 a, half3 b)
{
    return convert_half3(cross(convert_float3(a), convert_float3(b)));
}
OVL half4 cross(half4 a, half4 b)
{
    return convert_half4(cross(convert_float4(a), convert_float4(b)));
}
