/* library.h - what the chapters of the built-in library share.
 *
 * The library is compiled as OpenCL C 2.0 with clang's full opencl-c.h
 * (-finclude-default-header without -fdeclare-opencl-builtins), so every
 * builtin is declared and each chapter may call the others. A definition
 * here must have exactly the parameter types of the declaration it
 * implements: the linker matches kernels and library by mangled name.
 *
 * Pointer arguments: OpenCL C 1.x kernels call the named-address-space
 * overloads (__global, __local, __private, and __constant for loads), 2.0
 * kernels the __generic one (COMPILER-NOTES 1). Each such builtin is
 * written once for __generic pointers and the named overloads forward to it;
 * on x86 every address space is the same flat pointer, and after inlining
 * the forwarding costs nothing.
 */
#ifndef CPUCL_BUILTINS_LIBRARY_H
#define CPUCL_BUILTINS_LIBRARY_H

#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable

#define OVL __attribute__((overloadable))

/* --- type lists: M(T) for every type of a family --- */
#define FLOATN(M) M(float) M(float2) M(float3) M(float4) M(float8) M(float16)
#define DOUBLEN(M) M(double) M(double2) M(double3) M(double4) M(double8) M(double16)
#define HALFN(M) M(half) M(half2) M(half3) M(half4) M(half8) M(half16)

/* M(T, S): vector type and its element type, for one element type S */
#define VECTORS_OF(M, S) M(S##2, S) M(S##3, S) M(S##4, S) M(S##8, S) M(S##16, S)

/* M(T, N): T##N names the vector of N; N empty for the scalar */
#define WIDTHS(M, T) M(T, ) M(T, 2) M(T, 3) M(T, 4) M(T, 8) M(T, 16)

/* Integer element types with their unsigned partner and bit width:
 * M(T, U, BITS) */
#define INTEGER_TYPES(M)                                                                      \
    M(char, uchar, 8) M(uchar, uchar, 8) M(short, ushort, 16) M(ushort, ushort, 16)           \
    M(int, uint, 32) M(uint, uint, 32) M(long, ulong, 64) M(ulong, ulong, 64)

/* --- component-wise application of a scalar function to vectors ---
 *
 * For builtins that have no vector form in LLVM (most C library calls):
 * a vector overload applies the scalar overload to its halves, down to
 * scalars. R is the result's element type, S the argument's. */
#define SPLIT1(R, F, S)                                                                       \
    OVL R##2 F(S##2 x) { return (R##2)(F(x.s0), F(x.s1)); }                                   \
    OVL R##3 F(S##3 x) { return (R##3)(F(x.s0), F(x.s1), F(x.s2)); }                          \
    OVL R##4 F(S##4 x) { return (R##4)(F(x.lo), F(x.hi)); }                                   \
    OVL R##8 F(S##8 x) { return (R##8)(F(x.lo), F(x.hi)); }                                   \
    OVL R##16 F(S##16 x) { return (R##16)(F(x.lo), F(x.hi)); }

#define SPLIT2(R, F, S, S2)                                                                   \
    OVL R##2 F(S##2 x, S2##2 y) { return (R##2)(F(x.s0, y.s0), F(x.s1, y.s1)); }              \
    OVL R##3 F(S##3 x, S2##3 y)                                                               \
    {                                                                                         \
        return (R##3)(F(x.s0, y.s0), F(x.s1, y.s1), F(x.s2, y.s2));                           \
    }                                                                                         \
    OVL R##4 F(S##4 x, S2##4 y) { return (R##4)(F(x.lo, y.lo), F(x.hi, y.hi)); }              \
    OVL R##8 F(S##8 x, S2##8 y) { return (R##8)(F(x.lo, y.lo), F(x.hi, y.hi)); }              \
    OVL R##16 F(S##16 x, S2##16 y) { return (R##16)(F(x.lo, y.lo), F(x.hi, y.hi)); }

#define SPLIT3(R, F, S)                                                                       \
    OVL R##2 F(S##2 x, S##2 y, S##2 z)                                                        \
    {                                                                                         \
        return (R##2)(F(x.s0, y.s0, z.s0), F(x.s1, y.s1, z.s1));                              \
    }                                                                                         \
    OVL R##3 F(S##3 x, S##3 y, S##3 z)                                                        \
    {                                                                                         \
        return (R##3)(F(x.s0, y.s0, z.s0), F(x.s1, y.s1, z.s1), F(x.s2, y.s2, z.s2));         \
    }                                                                                         \
    OVL R##4 F(S##4 x, S##4 y, S##4 z) { return (R##4)(F(x.lo, y.lo, z.lo), F(x.hi, y.hi, z.hi)); } \
    OVL R##8 F(S##8 x, S##8 y, S##8 z) { return (R##8)(F(x.lo, y.lo, z.lo), F(x.hi, y.hi, z.hi)); } \
    OVL R##16 F(S##16 x, S##16 y, S##16 z)                                                    \
    {                                                                                         \
        return (R##16)(F(x.lo, y.lo, z.lo), F(x.hi, y.hi, z.hi));                             \
    }

/* Vector overloads of a function with an output pointer, F(S x, P *out)
 * returning R, applied lane by lane through private arrays. T##N: the
 * vector types; generic pointers only (the named overloads forward). */
#define SPLIT_OUT1(R, F, S, P)                                                                \
    SPLIT_OUT1_N(R, F, S, P, 2) SPLIT_OUT1_N(R, F, S, P, 3) SPLIT_OUT1_N(R, F, S, P, 4)       \
    SPLIT_OUT1_N(R, F, S, P, 8) SPLIT_OUT1_N(R, F, S, P, 16)
#define SPLIT_OUT1_N(R, F, S, P, N)                                                           \
    OVL R##N F(S##N x, __generic P##N *out)                                                   \
    {                                                                                         \
        R r[N];                                                                               \
        P o[N];                                                                               \
        for (int i = 0; i < N; i++)                                                           \
            r[i] = F(((S *)&x)[i], (__generic P *)&o[i]);                                      \
        *out = vload##N(0, o);                                                                \
        return vload##N(0, r);                                                                \
    }

/* Named-address-space overloads forwarding to the __generic one, for
 * F(A x, AS P *out) and F(A x, B y, AS P *out). */
#define NAMED_OUT1(R, F, A, P)                                                                \
    OVL R F(A x, __global P *p) { return F(x, (__generic P *)p); }                            \
    OVL R F(A x, __local P *p) { return F(x, (__generic P *)p); }                             \
    OVL R F(A x, __private P *p) { return F(x, (__generic P *)p); }
#define NAMED_OUT2(R, F, A, B, P)                                                             \
    OVL R F(A x, B y, __global P *p) { return F(x, y, (__generic P *)p); }                    \
    OVL R F(A x, B y, __local P *p) { return F(x, y, (__generic P *)p); }                     \
    OVL R F(A x, B y, __private P *p) { return F(x, y, (__generic P *)p); }

#endif
