/* common.cl - common functions (OpenCL C 2.0, 6.13.4), float, double and half.
 *
 * 6.13.4 allows these to be implemented with contractions (mad/fma) and
 * leaves results with NaN or infinite inputs to max, min and clamp
 * undefined; the fmax/fmin forms used here give the NaN-ignoring ones.
 */
#include "library.h"

#define COMMON(T)                                                                             \
    OVL T clamp(T x, T lo, T hi) { return fmin(fmax(x, lo), hi); }                            \
    OVL T degrees(T radians) { return (T)(180 / M_PI) * radians; }                            \
    OVL T radians(T degrees) { return (T)(M_PI / 180) * degrees; }                            \
    OVL T max(T x, T y) { return fmax(x, y); }                                                \
    OVL T min(T x, T y) { return fmin(x, y); }                                                \
    OVL T mix(T x, T y, T a) { return x + (y - x) * a; }                                      \
    OVL T step(T edge, T x) { return x < edge ? (T)0 : (T)1; }                                \
    OVL T smoothstep(T edge0, T edge1, T x)                                                   \
    {                                                                                         \
        T t = clamp((x - edge0) / (edge1 - edge0), (T)0, (T)1);                               \
        return t * t * ((T)3 - (T)2 * t);                                                     \
    }                                                                                         \
    /* 1, -1, or x itself for +-0; 0 for NaN */                                               \
    OVL T sign(T x) { return isnan(x) ? (T)0 : x > 0 ? (T)1 : x < 0 ? (T)-1 : x; }

FLOATN(COMMON)
DOUBLEN(COMMON)

/* The forms with scalar arguments for vector gentypes. */
#define COMMON_SCALAR(T, S)                                                                   \
    OVL T clamp(T x, S lo, S hi) { return clamp(x, (T)lo, (T)hi); }                           \
    OVL T max(T x, S y) { return fmax(x, (T)y); }                                             \
    OVL T min(T x, S y) { return fmin(x, (T)y); }                                             \
    OVL T mix(T x, T y, S a) { return mix(x, y, (T)a); }                                      \
    OVL T step(S edge, T x) { return step((T)edge, x); }                                      \
    OVL T smoothstep(S edge0, S edge1, T x) { return smoothstep((T)edge0, (T)edge1, x); }

VECTORS_OF(COMMON_SCALAR, float)
VECTORS_OF(COMMON_SCALAR, double)

/* half (cl_khr_fp16): in float, rounded once to half (see math.cl); the
 * products and sums of mix and smoothstep and the constant of degrees
 * would each round to 11 bits in half arithmetic. */
#define HALF_COMMON_N(H, F)                                                                   \
    OVL H clamp(H x, H lo, H hi) { return fmin(fmax(x, lo), hi); }                            \
    OVL H degrees(H radians) { return convert_##H(degrees(convert_##F(radians))); }           \
    OVL H radians(H degrees) { return convert_##H(radians(convert_##F(degrees))); }           \
    OVL H max(H x, H y) { return fmax(x, y); }                                                \
    OVL H min(H x, H y) { return fmin(x, y); }                                                \
    OVL H mix(H x, H y, H a)                                                                  \
    {                                                                                         \
        return convert_##H(mix(convert_##F(x), convert_##F(y), convert_##F(a)));              \
    }                                                                                         \
    OVL H step(H edge, H x) { return x < edge ? (H)0 : (H)1; }                                \
    OVL H smoothstep(H edge0, H edge1, H x)                                                   \
    {                                                                                         \
        return convert_##H(smoothstep(convert_##F(edge0), convert_##F(edge1), convert_##F(x))); \
    }                                                                                         \
    OVL H sign(H x) { return convert_##H(sign(convert_##F(x))); }
#define HALF_COMMON(T, N) HALF_COMMON_N(half##N, float##N)
WIDTHS(HALF_COMMON, half)
VECTORS_OF(COMMON_SCALAR, half)
