/* integer.cl - integer functions (OpenCL C 2.0, 6.13.3), for char, uchar,
 * short, ushort, int, uint, long and ulong, scalars and vectors.
 *
 * Vector operations stay in the element type (no promotion, 6.3), and
 * vectors convert only through as_* (same size) or __builtin_convertvector;
 * that is why the scalar and vector forms are written apart where a cast is
 * needed.
 */
#include "library.h"

/* --- every type and width: M(T, U, BITS, N) --- */

#define SAME_TYPE(T, U, BITS, N)                                                              \
    OVL T##N max(T##N x, T##N y) { return __builtin_elementwise_max(x, y); }                  \
    OVL T##N min(T##N x, T##N y) { return __builtin_elementwise_min(x, y); }                  \
    OVL T##N clamp(T##N x, T##N lo, T##N hi) { return min(max(x, lo), hi); }                  \
    /* (x + y) >> 1 and (x + y + 1) >> 1 without the intermediate overflow */                 \
    OVL T##N hadd(T##N x, T##N y) { return (x >> 1) + (y >> 1) + (x & y & (T##N)1); }         \
    OVL T##N rhadd(T##N x, T##N y) { return (x >> 1) + (y >> 1) + ((x | y) & (T##N)1); }      \
    OVL U##N abs_diff(T##N x, T##N y)                                                         \
    {                                                                                         \
        return x > y ? as_##U##N(x) - as_##U##N(y) : as_##U##N(y) - as_##U##N(x);            \
    }                                                                                         \
    OVL T##N mad_hi(T##N a, T##N b, T##N c) { return mul_hi(a, b) + c; }                      \
    /* 6.13.3: the shift count is taken modulo the width */                                   \
    OVL T##N rotate(T##N v, T##N i)                                                           \
    {                                                                                         \
        U##N u = as_##U##N(v), n = as_##U##N(i) & (U##N)(BITS - 1);                           \
        return as_##T##N((U##N)((u << n) | (u >> (((U##N)BITS - n) & (U##N)(BITS - 1)))));  \
    }

/* --- the scalar forms where a cast is needed: M(T, U, BITS) --- */

/* add_sat and sub_sat: a scalar argument of the elementwise builtins is
 * promoted (char and short to int, where nothing saturates at 8 or 16
 * bits), a vector one is not, so the scalar forms compute in a vector of
 * two */
#define SATURATING(T, N)                                                                      \
    OVL T##N add_sat(T##N x, T##N y) { return __builtin_elementwise_add_sat(x, y); }          \
    OVL T##N sub_sat(T##N x, T##N y) { return __builtin_elementwise_sub_sat(x, y); }

#define SCALAR(T, U, BITS)                                                                    \
    OVL T add_sat(T x, T y) { return __builtin_elementwise_add_sat((T##2)(x), (T##2)(y)).s0; } \
    OVL T sub_sat(T x, T y) { return __builtin_elementwise_sub_sat((T##2)(x), (T##2)(y)).s0; } \
    OVL T clz(T x) { return (T)__builtin_clzg((U)x, BITS); }                                  \
    OVL T ctz(T x) { return (T)__builtin_ctzg((U)x, BITS); }                                  \
    OVL T popcount(T x) { return (T)__builtin_popcountg((U)x); }                              \
    SPLIT1(T, clz, T)                                                                         \
    SPLIT1(T, ctz, T)                                                                         \
    SPLIT1(T, popcount, T)

/* The forms with a scalar second argument: M(T, S) with T a vector */
#define SCALAR_ARG(T, S)                                                                      \
    OVL T max(T x, S y) { return max(x, (T)y); }                                              \
    OVL T min(T x, S y) { return min(x, (T)y); }                                              \
    OVL T clamp(T x, S lo, S hi) { return clamp(x, (T)lo, (T)hi); }

#define ALL_WIDTHS(T, U, BITS)                                                                \
    SAME_TYPE(T, U, BITS, ) SAME_TYPE(T, U, BITS, 2) SAME_TYPE(T, U, BITS, 3)                 \
    SAME_TYPE(T, U, BITS, 4) SAME_TYPE(T, U, BITS, 8) SAME_TYPE(T, U, BITS, 16)               \
    SCALAR(T, U, BITS)                                                                        \
    SATURATING(T, 2) SATURATING(T, 3) SATURATING(T, 4) SATURATING(T, 8) SATURATING(T, 16)     \
    VECTORS_OF(SCALAR_ARG, T)
INTEGER_TYPES(ALL_WIDTHS)

/* abs: |x| as the unsigned type; llvm.abs keeps the minimum value, whose
 * magnitude the unsigned type holds */
#define ABS_SIGNED(T, U, N) OVL U##N abs(T##N x) { return as_##U##N(__builtin_elementwise_abs(x)); }
#define ABS_UNSIGNED(T, N) OVL T##N abs(T##N x) { return x; }
#define ABS(T, U)                                                                             \
    OVL U abs(T x) { return (U)__builtin_elementwise_abs(x); }                                \
    ABS_SIGNED(T, U, 2) ABS_SIGNED(T, U, 3) ABS_SIGNED(T, U, 4)            \
    ABS_SIGNED(T, U, 8) ABS_SIGNED(T, U, 16) WIDTHS(ABS_UNSIGNED, U)
ABS(char, uchar)
ABS(short, ushort)
ABS(int, uint)
ABS(long, ulong)

/* --- mul_hi and mad_sat: through the type of twice the width (W), or
 * __int128 for long --- */

#define WIDE_SCALAR(T, W, BITS, LO, HI)                                                       \
    OVL T mul_hi(T x, T y) { return (T)(((W)x * (W)y) >> BITS); }                             \
    OVL T mad_sat(T a, T b, T c)                                                              \
    {                                                                                         \
        W r = (W)a * (W)b + (W)c;                                                             \
        return (T)(r < (W)LO ? (W)LO : r > (W)HI ? (W)HI : r);                                \
    }
#define WIDE_VECTOR(T, W, BITS, LO, HI, N)                                                    \
    OVL T##N mul_hi(T##N x, T##N y)                                                           \
    {                                                                                         \
        W##N p = __builtin_convertvector(x, W##N) * __builtin_convertvector(y, W##N);         \
        return __builtin_convertvector(p >> (W##N)BITS, T##N);                                \
    }                                                                                         \
    OVL T##N mad_sat(T##N a, T##N b, T##N c)                                                  \
    {                                                                                         \
        W##N r = __builtin_convertvector(a, W##N) * __builtin_convertvector(b, W##N) +        \
                 __builtin_convertvector(c, W##N);                                            \
        return __builtin_convertvector(clamp(r, (W##N)LO, (W##N)HI), T##N);                   \
    }
#define WIDE(T, W, BITS, LO, HI)                                                              \
    WIDE_SCALAR(T, W, BITS, LO, HI)                                                           \
    WIDE_VECTOR(T, W, BITS, LO, HI, 2) WIDE_VECTOR(T, W, BITS, LO, HI, 3)                     \
    WIDE_VECTOR(T, W, BITS, LO, HI, 4) WIDE_VECTOR(T, W, BITS, LO, HI, 8)                     \
    WIDE_VECTOR(T, W, BITS, LO, HI, 16)
WIDE(char, short, 8, CHAR_MIN, CHAR_MAX)
WIDE(uchar, ushort, 8, 0, UCHAR_MAX)
WIDE(short, int, 16, SHRT_MIN, SHRT_MAX)
WIDE(ushort, uint, 16, 0, USHRT_MAX)
WIDE(int, long, 32, INT_MIN, INT_MAX)
WIDE(uint, ulong, 32, 0, UINT_MAX)
WIDE_SCALAR(long, __int128, 64, LONG_MIN, LONG_MAX)
WIDE_SCALAR(ulong, unsigned __int128, 64, 0, ULONG_MAX)
SPLIT2(long, mul_hi, long, long)
SPLIT2(ulong, mul_hi, ulong, ulong)
SPLIT3(long, mad_sat, long)
SPLIT3(ulong, mad_sat, ulong)

/* --- upsample: (hi << bits) | lo, into twice the width --- */

#define UPSAMPLE(T, U, W, BITS)                                                               \
    OVL W upsample(T hi, U lo) { return ((W)hi << BITS) | (W)lo; }                            \
    UPSAMPLE_V(T, U, W, BITS, 2) UPSAMPLE_V(T, U, W, BITS, 3) UPSAMPLE_V(T, U, W, BITS, 4)    \
    UPSAMPLE_V(T, U, W, BITS, 8) UPSAMPLE_V(T, U, W, BITS, 16)
#define UPSAMPLE_V(T, U, W, BITS, N)                                                          \
    OVL W##N upsample(T##N hi, U##N lo)                                                       \
    {                                                                                         \
        return (__builtin_convertvector(hi, W##N) << (W##N)BITS) |                            \
               __builtin_convertvector(lo, W##N);                                             \
    }
UPSAMPLE(char, uchar, short, 8)
UPSAMPLE(uchar, uchar, ushort, 8)
UPSAMPLE(short, ushort, int, 16)
UPSAMPLE(ushort, ushort, uint, 16)
UPSAMPLE(int, uint, long, 32)
UPSAMPLE(uint, uint, ulong, 32)

/* --- 24-bit multiplies (6.13.3: results undefined outside 24 bits, so the
 * full 32-bit product is a valid one) --- */

#define MUL24(T, N)                                                                           \
    OVL T##N mad24(T##N a, T##N b, T##N c) { return a * b + c; }                              \
    OVL T##N mul24(T##N a, T##N b) { return a * b; }
WIDTHS(MUL24, int)
WIDTHS(MUL24, uint)

/* --- cl_khr_extended_bit_ops (OpenCL C spec 3.0, "Extended Bit
 * Operations"): bitfield_insert, bitfield_extract_signed and _unsigned,
 * bit_reverse. A vector shift is element-wise, modulo the element's width
 * (6.3.j), so the vector forms compute in place; a scalar goes through a
 * vector of two, where char and short are not promoted. Counts or offsets
 * past the width are undefined (any result will do). --- */

/* the mask of bits [offset, offset + count) */
static ulong field(uint offset, uint count)
{
    ulong ones = count >= 64 ? ~0ul : (1ul << count) - 1;
    return offset >= 64 ? 0 : ones << offset;
}

#define BIT_OPS_VECTOR(T, S, U, BITS, N)                                                      \
    OVL T##N bitfield_insert(T##N base, T##N insert, uint offset, uint count)                 \
    {                                                                                         \
        U##N mask = (U##N)(U)field(offset, count);                                            \
        return as_##T##N((as_##U##N(base) & ~mask) | ((as_##U##N(insert) << offset) & mask)); \
    }                                                                                         \
    /* the field's top bit to the top, then an arithmetic or logical shift \
     * down */                                                                                \
    OVL S##N bitfield_extract_signed(T##N base, uint offset, uint count)                      \
    {                                                                                         \
        S##N top = as_##S##N(base) << (BITS - offset - count);                                \
        return count ? top >> (BITS - count) : (S##N)0;                                       \
    }                                                                                         \
    OVL U##N bitfield_extract_unsigned(T##N base, uint offset, uint count)                    \
    {                                                                                         \
        U##N top = as_##U##N(base) << (BITS - offset - count);                                \
        return count ? top >> (BITS - count) : (U##N)0;                                       \
    }                                                                                         \
    OVL T##N bit_reverse(T##N base) { return __builtin_elementwise_bitreverse(base); }

#define BIT_OPS(T, S, U, BITS)                                                                \
    BIT_OPS_VECTOR(T, S, U, BITS, 2)                                                          \
    BIT_OPS_VECTOR(T, S, U, BITS, 3)                                                          \
    BIT_OPS_VECTOR(T, S, U, BITS, 4)                                                          \
    BIT_OPS_VECTOR(T, S, U, BITS, 8)                                                          \
    BIT_OPS_VECTOR(T, S, U, BITS, 16)                                                         \
    OVL T bitfield_insert(T base, T insert, uint offset, uint count)                          \
    {                                                                                         \
        return bitfield_insert((T##2)(base), (T##2)(insert), offset, count).s0;               \
    }                                                                                         \
    OVL S bitfield_extract_signed(T base, uint offset, uint count)                            \
    {                                                                                         \
        return bitfield_extract_signed((T##2)(base), offset, count).s0;                       \
    }                                                                                         \
    OVL U bitfield_extract_unsigned(T base, uint offset, uint count)                          \
    {                                                                                         \
        return bitfield_extract_unsigned((T##2)(base), offset, count).s0;                     \
    }                                                                                         \
    OVL T bit_reverse(T base) { return bit_reverse((T##2)(base)).s0; }
BIT_OPS(char, char, uchar, 8)
BIT_OPS(uchar, char, uchar, 8)
BIT_OPS(short, short, ushort, 16)
BIT_OPS(ushort, short, ushort, 16)
BIT_OPS(int, int, uint, 32)
BIT_OPS(uint, int, uint, 32)
BIT_OPS(long, long, ulong, 64)
BIT_OPS(ulong, long, ulong, 64)

/* --- cl_khr_integer_dot_product (OpenCL C spec 3.0, 6.15.3 "Integer
 * Functions"): dot products of four 8-bit components, each extended to the
 * result's width, plain and added to an accumulator with saturation; the
 * packed forms take the four components in a uint, component 0 in the
 * lowest byte (SPIR-V's PackedVectorFormat4x8Bit), which is as_uchar4's
 * order on this little-endian host. --- */

#define DOT(R, A, B)                                                                          \
    OVL R dot(A##4 a, B##4 b)                                                                 \
    {                                                                                         \
        R##4 p = __builtin_convertvector(a, R##4) * __builtin_convertvector(b, R##4);         \
        return p.x + p.y + p.z + p.w;                                                         \
    }                                                                                         \
    OVL R dot_acc_sat(A##4 a, B##4 b, R acc) { return add_sat(dot(a, b), acc); }
DOT(uint, uchar, uchar)
DOT(int, char, char)
DOT(int, uchar, char)
DOT(int, char, uchar)

#define DOT_PACKED(R, A, B, SUFFIX)                                                           \
    OVL R dot_4x8packed_##SUFFIX(uint a, uint b) { return dot(as_##A##4(a), as_##B##4(b)); }  \
    OVL R dot_acc_sat_4x8packed_##SUFFIX(uint a, uint b, R acc)                               \
    {                                                                                         \
        return dot_acc_sat(as_##A##4(a), as_##B##4(b), acc);                                  \
    }
DOT_PACKED(uint, uchar, uchar, uu_uint)
DOT_PACKED(int, char, char, ss_int)
DOT_PACKED(int, uchar, char, us_int)
DOT_PACKED(int, char, uchar, su_int)

/* The same dot products as the SPIRV-LLVM-Translator names SPIR-V's
 * OpUDot, OpSDot, OpSUDot and their AccSat forms (SPV_KHR_integer_dot_
 * product, which a device with cl_khr_integer_dot_product accepts): packed
 * (a format operand follows, PackedVectorFormat4x8Bit, the only one) or as
 * 4-component vectors of 8 bits, whose signedness SPIR-V leaves to the
 * instruction (char4 here). 32-bit results only (DotProductInputAll and
 * wider results are not offered). */
#define SPIRV_DOT(OP, R, A, B)                                                                \
    OVL R __spirv_##OP##DotKHR_R##R(int a, int b, int format)                                 \
    {                                                                                         \
        return dot(as_##A##4(a), as_##B##4(b));                                               \
    }                                                                                         \
    OVL R __spirv_##OP##DotAccSatKHR_R##R(int a, int b, int acc, int format)                  \
    {                                                                                         \
        return dot_acc_sat(as_##A##4(a), as_##B##4(b), (R)acc);                               \
    }                                                                                         \
    OVL R __spirv_##OP##DotKHR_R##R(char4 a, char4 b)                                         \
    {                                                                                         \
        return dot(as_##A##4(a), as_##B##4(b));                                               \
    }                                                                                         \
    OVL R __spirv_##OP##DotAccSatKHR_R##R(char4 a, char4 b, int acc)                          \
    {                                                                                         \
        return dot_acc_sat(as_##A##4(a), as_##B##4(b), (R)acc);                               \
    }
SPIRV_DOT(U, uint, uchar, uchar)
SPIRV_DOT(S, int, char, char)
SPIRV_DOT(SU, int, char, uchar)
