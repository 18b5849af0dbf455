/* vector_data.cl - vector data load and store functions (OpenCL C 2.0,
 * 6.13.7): vloadN/vstoreN, and the half-precision vload_half, vloada_half,
 * vstore_half and vstorea_half with their rounding modes.
 *
 * vloadN and vstoreN need only the alignment of the element type (6.13.7),
 * so they go through vector types declared with that alignment: one
 * unaligned SIMD access, never an alignment fault. The 3-component forms
 * touch exactly three elements.
 */
#include "library.h"

/* --- vloadN / vstoreN --- */

#define UNALIGNED(T, N) typedef T T##N##_unaligned __attribute__((ext_vector_type(N), aligned(sizeof(T))));
#define UNALIGNED_ALL(T) UNALIGNED(T, 2) UNALIGNED(T, 4) UNALIGNED(T, 8) UNALIGNED(T, 16)

#define VLOAD_N(T, N, AS)                                                                     \
    OVL T##N vload##N(size_t offset, const AS T *p)                                           \
    {                                                                                         \
        return *(const AS T##N##_unaligned *)(p + offset * N);                                \
    }
#define VSTORE_N(T, N, AS)                                                                    \
    OVL void vstore##N(T##N data, size_t offset, AS T *p)                                     \
    {                                                                                         \
        *(AS T##N##_unaligned *)(p + offset * N) = data;                                      \
    }
#define VLOAD_3(T, AS)                                                                        \
    OVL T##3 vload3(size_t offset, const AS T *p)                                             \
    {                                                                                         \
        const AS T *q = p + offset * 3;                                                       \
        return (T##3)(q[0], q[1], q[2]);                                                      \
    }
#define VSTORE_3(T, AS)                                                                       \
    OVL void vstore3(T##3 data, size_t offset, AS T *p)                                       \
    {                                                                                         \
        AS T *q = p + offset * 3;                                                             \
        q[0] = data.s0;                                                                       \
        q[1] = data.s1;                                                                       \
        q[2] = data.s2;                                                                       \
    }
#define VLOAD_AS(T, AS)                                                                       \
    VLOAD_N(T, 2, AS) VLOAD_3(T, AS) VLOAD_N(T, 4, AS) VLOAD_N(T, 8, AS) VLOAD_N(T, 16, AS)
#define VSTORE_AS(T, AS)                                                                      \
    VSTORE_N(T, 2, AS) VSTORE_3(T, AS) VSTORE_N(T, 4, AS) VSTORE_N(T, 8, AS)                  \
    VSTORE_N(T, 16, AS)
#define VLOAD_VSTORE(T)                                                                       \
    UNALIGNED_ALL(T)                                                                          \
    VLOAD_AS(T, __generic) VLOAD_AS(T, __global) VLOAD_AS(T, __local)                         \
    VLOAD_AS(T, __constant) VLOAD_AS(T, __private)                                            \
    VSTORE_AS(T, __generic) VSTORE_AS(T, __global) VSTORE_AS(T, __local)                      \
    VSTORE_AS(T, __private)

VLOAD_VSTORE(char)
VLOAD_VSTORE(uchar)
VLOAD_VSTORE(short)
VLOAD_VSTORE(ushort)
VLOAD_VSTORE(int)
VLOAD_VSTORE(uint)
VLOAD_VSTORE(long)
VLOAD_VSTORE(ulong)
VLOAD_VSTORE(float)
VLOAD_VSTORE(double)
VLOAD_VSTORE(half) /* cl_khr_fp16: half vectors as they are, no conversion */

/* --- half: loads convert exactly; stores round --- */

/* The half nearest in the given direction to m * 2^(e - p), where m holds
 * p + 1 significant bits (the leading one explicit, or fewer for
 * subnormal input). Integer arithmetic: the directed rounding modes cannot
 * be had from LLVM's conversions. The default mode (RTE) never comes here:
 * stores take LLVM's conversion for it (STORE_HALF below). */
enum rounding { RTE, RTZ, RTP, RTN };

static ushort to_half(uint sign, int e, ulong m, int p, enum rounding mode)
{
    bool negative = sign != 0;
    bool away = (mode == RTP && !negative) || (mode == RTN && negative);
    if (m == 0)
        return (ushort)sign;
    int E = e < -14 ? -14 : e;    /* half exponent: normal, or subnormal scale */
    int shift = p - 10 + (E - e); /* bits of m below the half's last place */
    ulong q = shift >= 64 ? 0 : m >> shift;
    bool inexact = shift >= 64 || (m & ((1ul << shift) - 1)) != 0;
    q += away && inexact;
    if (q == 0x800) { /* rounding carried into the next binade */
        q = 0x400;
        E++;
    }
    if (q >= 0x400 && E + 15 >= 31) /* overflow: infinity, or the largest finite */
        return (ushort)(sign | (away ? 0x7c00 : 0x7bff));
    if (q < 0x400)                  /* subnormal (E == -14) */
        return (ushort)(sign | q);
    return (ushort)(sign | ((uint)(E + 15) << 10) | (q & 0x3ff));
}

static ushort float_to_half(float f, enum rounding mode)
{
    uint u = as_uint(f), a = u & 0x7fffffffu, sign = (u >> 16) & 0x8000u;
    if (a >= 0x7f800000u) /* inf, or NaN (quiet, top payload bits kept) */
        return (ushort)(sign | 0x7c00u | (a > 0x7f800000u ? 0x200u | ((a >> 13) & 0x3ffu) : 0));
    int e = a >= 0x800000u ? (int)(a >> 23) - 127 : -126;
    ulong m = (a & 0x7fffffu) | (a >= 0x800000u ? 0x800000u : 0);
    return to_half(sign, e, m, 23, mode);
}

static ushort double_to_half(double d, enum rounding mode)
{
    ulong u = as_ulong(d), a = u & 0x7ffffffffffffffful;
    uint sign = (uint)(u >> 48) & 0x8000u;
    if (a >= 0x7ff0000000000000ul)
        return (ushort)(sign | 0x7c00u |
                        (a > 0x7ff0000000000000ul ? 0x200u | (uint)((a >> 42) & 0x3ffu) : 0));
    int e = a >= 0x0010000000000000ul ? (int)(a >> 52) - 1023 : -1022;
    ulong m = (a & 0xffffffffffffful) | (a >= 0x0010000000000000ul ? 0x0010000000000000ul : 0);
    return to_half(sign, e, m, 52, mode);
}

/* loads: (float)half is exact */
#define VLOAD_HALF_AS(AS)                                                                     \
    OVL float vload_half(size_t offset, const AS half *p) { return (float)p[offset]; }        \
    OVL float2 vload_half2(size_t offset, const AS half *p) { return VLOAD_HALF_N(2, 2); }    \
    OVL float3 vload_half3(size_t offset, const AS half *p) { return VLOAD_HALF_N(3, 3); }    \
    OVL float4 vload_half4(size_t offset, const AS half *p) { return VLOAD_HALF_N(4, 4); }    \
    OVL float8 vload_half8(size_t offset, const AS half *p) { return VLOAD_HALF_N(8, 8); }    \
    OVL float16 vload_half16(size_t offset, const AS half *p) { return VLOAD_HALF_N(16, 16); } \
    OVL float vloada_half(size_t offset, const AS half *p) { return (float)p[offset]; }       \
    OVL float2 vloada_half2(size_t offset, const AS half *p) { return VLOAD_HALF_N(2, 2); }   \
    OVL float3 vloada_half3(size_t offset, const AS half *p) { return VLOAD_HALF_N(3, 4); }   \
    OVL float4 vloada_half4(size_t offset, const AS half *p) { return VLOAD_HALF_N(4, 4); }   \
    OVL float8 vloada_half8(size_t offset, const AS half *p) { return VLOAD_HALF_N(8, 8); }   \
    OVL float16 vloada_half16(size_t offset, const AS half *p) { return VLOAD_HALF_N(16, 16); }
/* N components from p + offset * STRIDE (vloada_half3 strides by 4) */
#define VLOAD_HALF_N(N, STRIDE)                                                               \
    ({                                                                                        \
        float r[N];                                                                           \
        for (int i = 0; i < N; i++)                                                           \
            r[i] = (float)p[offset * STRIDE + i];                                             \
        vload##N(0, r);                                                                       \
    })
VLOAD_HALF_AS(__generic)
VLOAD_HALF_AS(__global)
VLOAD_HALF_AS(__local)
VLOAD_HALF_AS(__constant)
VLOAD_HALF_AS(__private)

/* stores: the default rounding (and _rte) by LLVM's conversion,
 * round-to-nearest-even: F16C's vcvtps2ph where the host has it, for a
 * double after compiler/half.c's rounding to odd into float (x86 has no
 * double -> half instruction; LLVM's call a lane, even to half.c's own
 * __truncdfhf2, left a loop of them at 11.5 ms for 4 Mi doubles, the
 * integer code to_half at the same); the directed ones by to_half, integer
 * code the loop vectorizer takes whole. */
#define VSTORE_HALF_MODE(T, CONVERT, SUFFIX, MODE, AS)                                        \
    OVL void vstore_half##SUFFIX(T data, size_t offset, AS half *p)                           \
    {                                                                                         \
        p[offset] = STORE_HALF(data, CONVERT, MODE);                                          \
    }                                                                                         \
    OVL void vstorea_half##SUFFIX(T data, size_t offset, AS half *p)                          \
    {                                                                                         \
        p[offset] = STORE_HALF(data, CONVERT, MODE);                                          \
    }                                                                                         \
    VSTORE_HALF_N(T, CONVERT, SUFFIX, MODE, AS, 2, 2)                                         \
    VSTORE_HALF_N(T, CONVERT, SUFFIX, MODE, AS, 3, 3)                                         \
    VSTORE_HALF_N(T, CONVERT, SUFFIX, MODE, AS, 4, 4)                                         \
    VSTORE_HALF_N(T, CONVERT, SUFFIX, MODE, AS, 8, 8)                                         \
    VSTORE_HALF_N(T, CONVERT, SUFFIX, MODE, AS, 16, 16)
#define VSTORE_HALF_N(T, CONVERT, SUFFIX, MODE, AS, N, STRIDE)                                \
    OVL void vstore_half##N##SUFFIX(T##N data, size_t offset, AS half *p)                     \
    {                                                                                         \
        for (int i = 0; i < N; i++)                                                           \
            p[offset * N + i] = STORE_HALF(((T *)&data)[i], CONVERT, MODE);                   \
    }                                                                                         \
    OVL void vstorea_half##N##SUFFIX(T##N data, size_t offset, AS half *p)                    \
    {                                                                                         \
        for (int i = 0; i < N; i++)                                                           \
            p[offset * STRIDE_A##N + i] = STORE_HALF(((T *)&data)[i], CONVERT, MODE);         \
    }
#define STRIDE_A2 2
#define STRIDE_A3 4
#define STRIDE_A4 4
#define STRIDE_A8 8
#define STRIDE_A16 16
#define STORE_HALF(v, CONVERT, MODE) (MODE == RTE ? (half)(v) : as_half(CONVERT(v, MODE)))

#define VSTORE_HALF_AS(T, CONVERT, AS)                                                        \
    VSTORE_HALF_MODE(T, CONVERT, , RTE, AS)                                                   \
    VSTORE_HALF_MODE(T, CONVERT, _rte, RTE, AS)                                               \
    VSTORE_HALF_MODE(T, CONVERT, _rtz, RTZ, AS)                                               \
    VSTORE_HALF_MODE(T, CONVERT, _rtp, RTP, AS)                                               \
    VSTORE_HALF_MODE(T, CONVERT, _rtn, RTN, AS)
#define VSTORE_HALF(T, CONVERT)                                                               \
    VSTORE_HALF_AS(T, CONVERT, __generic)                                                     \
    VSTORE_HALF_AS(T, CONVERT, __global)                                                      \
    VSTORE_HALF_AS(T, CONVERT, __local)                                                       \
    VSTORE_HALF_AS(T, CONVERT, __private)
VSTORE_HALF(float, float_to_half)
VSTORE_HALF(double, double_to_half)
