/* relational.cl - relational functions (OpenCL C 2.0, 6.13.6).
 *
 * OpenCL C's own comparison operators already give what these return:
 * int 1/0 for scalars and -1/0 per component for vectors, with intn for
 * floatn and longn for doublen. So most of the chapter is the operators.
 */
#include "library.h"

#define COMPARE(T, BITS, INF, MIN)                                                            \
    OVL BITS isequal(T x, T y) { return x == y; }                                             \
    OVL BITS isnotequal(T x, T y) { return x != y; }                                          \
    OVL BITS isgreater(T x, T y) { return x > y; }                                            \
    OVL BITS isgreaterequal(T x, T y) { return x >= y; }                                      \
    OVL BITS isless(T x, T y) { return x < y; }                                               \
    OVL BITS islessequal(T x, T y) { return x <= y; }                                         \
    OVL BITS islessgreater(T x, T y) { return (x < y) | (x > y); }                            \
    OVL BITS isfinite(T x) { return fabs(x) < (T)INF; }                                       \
    OVL BITS isinf(T x) { return fabs(x) == (T)INF; }                                         \
    OVL BITS isnan(T x) { return x != x; }                                                    \
    OVL BITS isnormal(T x) { return (fabs(x) >= (T)MIN) & (fabs(x) < (T)INF); }               \
    OVL BITS isordered(T x, T y) { return (x == x) & (y == y); }                              \
    OVL BITS isunordered(T x, T y) { return (x != x) | (y != y); }

/* Result types: int for every scalar, intn for floatn, longn for doublen,
 * shortn for halfn (cl_khr_fp16). Half denormals are normal floats, so
 * isnormal compares with the half's own smallest normal, 2^-14. */
#define COMPARE_F(T, N) COMPARE(float##N, int##N, INFINITY, FLT_MIN)
#define COMPARE_D(T, N) COMPARE(double##N, long##N, INFINITY, DBL_MIN)
#define COMPARE_H(T, N) COMPARE(half##N, short##N, INFINITY, 0x1p-14h)
COMPARE(double, int, INFINITY, DBL_MIN)
COMPARE(half, int, INFINITY, 0x1p-14h)
COMPARE_H(half, 2) COMPARE_H(half, 3) COMPARE_H(half, 4) COMPARE_H(half, 8) COMPARE_H(half, 16)
COMPARE_F(float, ) COMPARE_F(float, 2) COMPARE_F(float, 3) COMPARE_F(float, 4)
COMPARE_F(float, 8) COMPARE_F(float, 16)
COMPARE_D(double, 2) COMPARE_D(double, 3) COMPARE_D(double, 4) COMPARE_D(double, 8)
COMPARE_D(double, 16)

/* signbit: the sign bit as an integer comparison */
OVL int signbit(float x) { return as_int(x) < 0; }
OVL int signbit(double x) { return as_long(x) < 0; }
#define SIGNBIT(T, N) OVL int##N signbit(float##N x) { return as_int##N(x) < 0; }
#define SIGNBIT_D(T, N) OVL long##N signbit(double##N x) { return as_long##N(x) < 0; }
SIGNBIT(float, 2) SIGNBIT(float, 3) SIGNBIT(float, 4) SIGNBIT(float, 8) SIGNBIT(float, 16)
SIGNBIT_D(double, 2) SIGNBIT_D(double, 3) SIGNBIT_D(double, 4) SIGNBIT_D(double, 8)
SIGNBIT_D(double, 16)
OVL int signbit(half x) { return as_short(x) < 0; }
#define SIGNBIT_H(T, N) OVL short##N signbit(half##N x) { return as_short##N(x) < (short##N)0; }
SIGNBIT_H(half, 2) SIGNBIT_H(half, 3) SIGNBIT_H(half, 4) SIGNBIT_H(half, 8) SIGNBIT_H(half, 16)

/* any/all: the most significant bit of any/all components (signed types) */
#define ANY_ALL(T)                                                                            \
    OVL int any(T x) { return x < 0; }                                                        \
    OVL int any(T##2 x) { return (x.s0 | x.s1) < 0; }                                         \
    OVL int any(T##3 x) { return (x.s0 | x.s1 | x.s2) < 0; }                                  \
    OVL int any(T##4 x) { return any(x.lo | x.hi); }                                          \
    OVL int any(T##8 x) { return any(x.lo | x.hi); }                                          \
    OVL int any(T##16 x) { return any(x.lo | x.hi); }                                         \
    OVL int all(T x) { return x < 0; }                                                        \
    OVL int all(T##2 x) { return (x.s0 & x.s1) < 0; }                                         \
    OVL int all(T##3 x) { return (x.s0 & x.s1 & x.s2) < 0; }                                  \
    OVL int all(T##4 x) { return all(x.lo & x.hi); }                                          \
    OVL int all(T##8 x) { return all(x.lo & x.hi); }                                          \
    OVL int all(T##16 x) { return all(x.lo & x.hi); }
ANY_ALL(char)
ANY_ALL(short)
ANY_ALL(int)
ANY_ALL(long)

/* bitselect: each bit from b where c has a 1, else from a */
#define BITSELECT_INT(T, N) OVL T##N bitselect(T##N a, T##N b, T##N c) { return (a & ~c) | (b & c); }
#define BITSELECT_REAL(T, I, N)                                                               \
    OVL T##N bitselect(T##N a, T##N b, T##N c)                                                \
    {                                                                                         \
        return as_##T##N(bitselect(as_##I##N(a), as_##I##N(b), as_##I##N(c)));               \
    }
#define BITSELECT_INTS(T, U, BITS) WIDTHS(BITSELECT_INT, T)
INTEGER_TYPES(BITSELECT_INTS)
#define BITSELECT_F(T, N) BITSELECT_REAL(float, uint, N)
#define BITSELECT_D(T, N) BITSELECT_REAL(double, ulong, N)
WIDTHS(BITSELECT_F, float)
WIDTHS(BITSELECT_D, double)
#define BITSELECT_H(T, N) BITSELECT_REAL(half, ushort, N)
WIDTHS(BITSELECT_H, half)

/* select: per component, b where the most significant bit of c is set,
 * else a; for scalars, b where c is non-zero (6.13.6). c is a signed or
 * unsigned integer of the element size of a. */
#define SELECT_SCALAR(T, I, U)                                                                \
    OVL T select(T a, T b, I c) { return c ? b : a; }                                         \
    OVL T select(T a, T b, U c) { return c ? b : a; }
#define SELECT_VECTOR(T, I, U, N)                                                             \
    OVL T##N select(T##N a, T##N b, I##N c) { return c < (I##N)0 ? b : a; }                  \
    OVL T##N select(T##N a, T##N b, U##N c) { return as_##I##N(c) < (I##N)0 ? b : a; }
#define SELECT(T, I, U)                                                                       \
    SELECT_SCALAR(T, I, U)                                                                    \
    SELECT_VECTOR(T, I, U, 2) SELECT_VECTOR(T, I, U, 3) SELECT_VECTOR(T, I, U, 4)             \
    SELECT_VECTOR(T, I, U, 8) SELECT_VECTOR(T, I, U, 16)
SELECT(char, char, uchar)
SELECT(uchar, char, uchar)
SELECT(short, short, ushort)
SELECT(ushort, short, ushort)
SELECT(int, int, uint)
SELECT(uint, int, uint)
SELECT(long, long, ulong)
SELECT(ulong, long, ulong)
SELECT(float, int, uint)
SELECT(double, long, ulong)
SELECT(half, short, ushort)
