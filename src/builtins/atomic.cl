/* atomic.cl - atomic functions: the OpenCL C 1.x ones (6.13.11 of 1.2,
 * and the atom_* of the cl_khr_*_atomics extensions) and the C11-style ones
 * of OpenCL C 2.0 (6.13.11), plus the memory fences (6.13.9, 6.13.11.4).
 *
 * Everything becomes one atomicrmw/cmpxchg/load/store instruction
 * through clang's __atomic_* and __opencl_atomic_* builtins. The 1.x
 * functions are sequentially consistent: on x86 the locked instruction is
 * the same, and old code that uses a counter as a signal stays correct.
 *
 * Fences: the work-items of a work-group run one after another on one
 * thread (src/compiler/workgroup.c), so ordering at work-group scope or
 * below, or of local memory only, only has to stop the compiler: a
 * `fence syncscope("singlethread")`, which costs no instruction; device and
 * all-devices scopes on global memory need the processor's fence too. (The
 * !mmra annotations of LLVM 19 would say the same to a back end that reads
 * them; x86's does not, so the scope carries it.)
 */
#include "library.h"

/* --- OpenCL C 1.x (global and local int/uint; float exchange) --- */

#define ATOMIC_1X(PREFIX, T, AS)                                                              \
    OVL T PREFIX##_add(volatile AS T *p, T v) { return __atomic_fetch_add(p, v, __ATOMIC_SEQ_CST); } \
    OVL T PREFIX##_sub(volatile AS T *p, T v) { return __atomic_fetch_sub(p, v, __ATOMIC_SEQ_CST); } \
    OVL T PREFIX##_xchg(volatile AS T *p, T v) { return __atomic_exchange_n(p, v, __ATOMIC_SEQ_CST); } \
    OVL T PREFIX##_inc(volatile AS T *p) { return __atomic_fetch_add(p, (T)1, __ATOMIC_SEQ_CST); } \
    OVL T PREFIX##_dec(volatile AS T *p) { return __atomic_fetch_sub(p, (T)1, __ATOMIC_SEQ_CST); } \
    OVL T PREFIX##_min(volatile AS T *p, T v) { return __atomic_fetch_min(p, v, __ATOMIC_SEQ_CST); } \
    OVL T PREFIX##_max(volatile AS T *p, T v) { return __atomic_fetch_max(p, v, __ATOMIC_SEQ_CST); } \
    OVL T PREFIX##_and(volatile AS T *p, T v) { return __atomic_fetch_and(p, v, __ATOMIC_SEQ_CST); } \
    OVL T PREFIX##_or(volatile AS T *p, T v) { return __atomic_fetch_or(p, v, __ATOMIC_SEQ_CST); } \
    OVL T PREFIX##_xor(volatile AS T *p, T v) { return __atomic_fetch_xor(p, v, __ATOMIC_SEQ_CST); } \
    OVL T PREFIX##_cmpxchg(volatile AS T *p, T cmp, T v)                                      \
    {                                                                                         \
        __atomic_compare_exchange_n(p, &cmp, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);   \
        return cmp;                                                                           \
    }
#define ATOMIC_1X_AS(PREFIX, T) ATOMIC_1X(PREFIX, T, __global) ATOMIC_1X(PREFIX, T, __local)

ATOMIC_1X_AS(atomic, int)
ATOMIC_1X_AS(atomic, uint)
ATOMIC_1X_AS(atom, int)
ATOMIC_1X_AS(atom, uint)
ATOMIC_1X_AS(atom, long)
ATOMIC_1X_AS(atom, ulong)

#define XCHG_FLOAT(AS)                                                                        \
    OVL float atomic_xchg(volatile AS float *p, float v)                                      \
    {                                                                                         \
        return as_float(__atomic_exchange_n((volatile AS int *)p, as_int(v), __ATOMIC_SEQ_CST)); \
    }
XCHG_FLOAT(__global)
XCHG_FLOAT(__local)

/* --- OpenCL C 2.0: atomic_* on atomic types, on generic pointers, and on
 * global and local ones as OpenCL C 3.0 adds them --- */

#define SEQ memory_order_seq_cst
#define DEVICE memory_scope_device

/* init, load, store, exchange and compare-exchange: every atomic type.
 * EAS is the address space of compare-exchange's `expected`. */
#define C11_COMMON(T, AS)                                                                     \
    OVL void atomic_init(volatile AS atomic_##T *obj, T v) { __opencl_atomic_init(obj, v); }   \
    C11_LOAD_STORE(T, AS)
#define C11_LOAD_STORE(T, AS)                                                                 \
    OVL void atomic_store(volatile AS atomic_##T *obj, T v) { __opencl_atomic_store(obj, v, SEQ, DEVICE); } \
    OVL void atomic_store_explicit(volatile AS atomic_##T *obj, T v, memory_order o)          \
    {                                                                                         \
        __opencl_atomic_store(obj, v, o, DEVICE);                                             \
    }                                                                                         \
    OVL void atomic_store_explicit(volatile AS atomic_##T *obj, T v, memory_order o, memory_scope s) \
    {                                                                                         \
        __opencl_atomic_store(obj, v, o, s);                                                  \
    }                                                                                         \
    OVL T atomic_load(volatile AS atomic_##T *obj) { return __opencl_atomic_load(obj, SEQ, DEVICE); } \
    OVL T atomic_load_explicit(volatile AS atomic_##T *obj, memory_order o)                   \
    {                                                                                         \
        return __opencl_atomic_load(obj, o, DEVICE);                                          \
    }                                                                                         \
    OVL T atomic_load_explicit(volatile AS atomic_##T *obj, memory_order o, memory_scope s)   \
    {                                                                                         \
        return __opencl_atomic_load(obj, o, s);                                               \
    }                                                                                         \
    OVL T atomic_exchange(volatile AS atomic_##T *obj, T v)                                   \
    {                                                                                         \
        return __opencl_atomic_exchange(obj, v, SEQ, DEVICE);                                 \
    }                                                                                         \
    OVL T atomic_exchange_explicit(volatile AS atomic_##T *obj, T v, memory_order o)          \
    {                                                                                         \
        return __opencl_atomic_exchange(obj, v, o, DEVICE);                                   \
    }                                                                                         \
    OVL T atomic_exchange_explicit(volatile AS atomic_##T *obj, T v, memory_order o, memory_scope s) \
    {                                                                                         \
        return __opencl_atomic_exchange(obj, v, o, s);                                        \
    }
#define C11_CAS(T, AS, EAS, KIND)                                                             \
    OVL bool atomic_compare_exchange_##KIND(volatile AS atomic_##T *obj, EAS T *expected, T desired) \
    {                                                                                         \
        return __opencl_atomic_compare_exchange_##KIND(obj, expected, desired, SEQ, SEQ, DEVICE); \
    }                                                                                         \
    OVL bool atomic_compare_exchange_##KIND##_explicit(volatile AS atomic_##T *obj,           \
                                                       EAS T *expected, T desired,            \
                                                       memory_order success,                  \
                                                       memory_order failure)                  \
    {                                                                                         \
        return __opencl_atomic_compare_exchange_##KIND(obj, expected, desired, success,       \
                                                       failure, DEVICE);                      \
    }                                                                                         \
    OVL bool atomic_compare_exchange_##KIND##_explicit(volatile AS atomic_##T *obj,           \
                                                       EAS T *expected, T desired,            \
                                                       memory_order success,                  \
                                                       memory_order failure, memory_scope s)  \
    {                                                                                         \
        return __opencl_atomic_compare_exchange_##KIND(obj, expected, desired, success,       \
                                                       failure, s);                           \
    }
#define C11_CAS_BOTH(T, AS, EAS) C11_CAS(T, AS, EAS, strong) C11_CAS(T, AS, EAS, weak)

/* fetch-and-modify: the integer types; V is the operand type */
#define C11_FETCH_OP(T, V, AS, OP)                                                            \
    OVL T atomic_fetch_##OP(volatile AS atomic_##T *obj, V v)                                 \
    {                                                                                         \
        return __opencl_atomic_fetch_##OP(obj, (T)v, SEQ, DEVICE);                            \
    }                                                                                         \
    OVL T atomic_fetch_##OP##_explicit(volatile AS atomic_##T *obj, V v, memory_order o)      \
    {                                                                                         \
        return __opencl_atomic_fetch_##OP(obj, (T)v, o, DEVICE);                              \
    }                                                                                         \
    OVL T atomic_fetch_##OP##_explicit(volatile AS atomic_##T *obj, V v, memory_order o,      \
                                       memory_scope s)                                        \
    {                                                                                         \
        return __opencl_atomic_fetch_##OP(obj, (T)v, o, s);                                   \
    }
#define C11_FETCH(T, AS)                                                                      \
    C11_FETCH_OP(T, T, AS, add) C11_FETCH_OP(T, T, AS, sub) C11_FETCH_OP(T, T, AS, or)        \
    C11_FETCH_OP(T, T, AS, xor) C11_FETCH_OP(T, T, AS, and) C11_FETCH_OP(T, T, AS, min)       \
    C11_FETCH_OP(T, T, AS, max)

/* atomic_flag is an atomic_int (opencl-c-base.h) */
#define C11_FLAG(AS)                                                                          \
    OVL bool atomic_flag_test_and_set(volatile AS atomic_flag *obj)                           \
    {                                                                                         \
        return __opencl_atomic_exchange(obj, 1, SEQ, DEVICE) != 0;                            \
    }                                                                                         \
    OVL bool atomic_flag_test_and_set_explicit(volatile AS atomic_flag *obj, memory_order o)  \
    {                                                                                         \
        return __opencl_atomic_exchange(obj, 1, o, DEVICE) != 0;                              \
    }                                                                                         \
    OVL bool atomic_flag_test_and_set_explicit(volatile AS atomic_flag *obj, memory_order o,  \
                                               memory_scope s)                                \
    {                                                                                         \
        return __opencl_atomic_exchange(obj, 1, o, s) != 0;                                   \
    }                                                                                         \
    OVL void atomic_flag_clear(volatile AS atomic_flag *obj) { __opencl_atomic_store(obj, 0, SEQ, DEVICE); } \
    OVL void atomic_flag_clear_explicit(volatile AS atomic_flag *obj, memory_order o)         \
    {                                                                                         \
        __opencl_atomic_store(obj, 0, o, DEVICE);                                             \
    }                                                                                         \
    OVL void atomic_flag_clear_explicit(volatile AS atomic_flag *obj, memory_order o,         \
                                        memory_scope s)                                       \
    {                                                                                         \
        __opencl_atomic_store(obj, 0, o, s);                                                  \
    }

/* cl_ext_float_atomics: add, sub, min and max on atomic_half, atomic_float
 * and atomic_double (atomicrmw fadd, fsub, fmin, fmax, which x86 does as a
 * compare-exchange loop), and load, store and exchange on atomic_half. Min
 * and max are LLVM's minnum and maxnum, as the extension asks: min(x, y) is
 * x if x < y, else y; a quiet NaN loses to a number; either zero for -0 and
 * +0. */
#define C11_FLOAT_FETCH(T, AS)                                                                \
    C11_FETCH_OP(T, T, AS, add) C11_FETCH_OP(T, T, AS, sub) C11_FETCH_OP(T, T, AS, min)       \
    C11_FETCH_OP(T, T, AS, max)

/* Clang 19's declarations for kernels (-fdeclare-opencl-builtins) give
 * atomic_store on atomic_half a value of type atomic_half, not half (the
 * full header's), which mangles differently: those names too. */
#define C11_STORE_ATOMIC_HALF(AS)                                                             \
    OVL void atomic_store(volatile AS atomic_half *obj, atomic_half v)                        \
    {                                                                                         \
        __opencl_atomic_store(obj, __c11_atomic_load(&v, __ATOMIC_RELAXED), SEQ, DEVICE);     \
    }                                                                                         \
    OVL void atomic_store_explicit(volatile AS atomic_half *obj, atomic_half v, memory_order o) \
    {                                                                                         \
        __opencl_atomic_store(obj, __c11_atomic_load(&v, __ATOMIC_RELAXED), o, DEVICE);       \
    }                                                                                         \
    OVL void atomic_store_explicit(volatile AS atomic_half *obj, atomic_half v, memory_order o, \
                                   memory_scope s)                                            \
    {                                                                                         \
        __opencl_atomic_store(obj, __c11_atomic_load(&v, __ATOMIC_RELAXED), o, s);            \
    }

#define C11_AS(AS, CAS)                                                                       \
    C11_COMMON(int, AS) C11_COMMON(uint, AS) C11_COMMON(long, AS) C11_COMMON(ulong, AS)       \
    C11_COMMON(float, AS) C11_COMMON(double, AS) C11_LOAD_STORE(half, AS)                     \
    C11_STORE_ATOMIC_HALF(AS) C11_FLOAT_FETCH(half, AS) C11_FLOAT_FETCH(float, AS)            \
    C11_FLOAT_FETCH(double, AS)                                                               \
    CAS(int, AS) CAS(uint, AS) CAS(long, AS) CAS(ulong, AS) CAS(float, AS) CAS(double, AS)    \
    C11_FETCH(int, AS) C11_FETCH(uint, AS) C11_FETCH(long, AS) C11_FETCH(ulong, AS)           \
    /* 6.13.11.7.5: uintptr_t objects take a ptrdiff_t operand */                             \
    C11_FETCH_OP(ulong, long, AS, add) C11_FETCH_OP(ulong, long, AS, sub)                     \
    C11_FLAG(AS)

/* generic objects: generic `expected`; named objects: any named one */
#define CAS_GENERIC(T, AS) C11_CAS_BOTH(T, AS, __generic)
#define CAS_NAMED(T, AS)                                                                      \
    C11_CAS_BOTH(T, AS, __global) C11_CAS_BOTH(T, AS, __local) C11_CAS_BOTH(T, AS, __private)
C11_AS(__generic, CAS_GENERIC)
C11_AS(__global, CAS_NAMED)
C11_AS(__local, CAS_NAMED)

/* --- fences --- */

OVL void atomic_work_item_fence(cl_mem_fence_flags flags, memory_order order, memory_scope scope)
{
    if (order == memory_order_relaxed)
        return;
    /* Local memory is seen only by the work-group, which one thread runs:
     * a fence for it alone needs no instruction at any scope. */
    bool shared_memory = flags & (CLK_GLOBAL_MEM_FENCE | CLK_IMAGE_MEM_FENCE);
    bool processor = shared_memory &&
                     (scope == memory_scope_device || scope == memory_scope_all_svm_devices);
    if (processor && order == memory_order_seq_cst)
        __atomic_thread_fence(__ATOMIC_SEQ_CST);
    else if (processor)
        __atomic_thread_fence(__ATOMIC_ACQ_REL);
    else
        __atomic_signal_fence(__ATOMIC_SEQ_CST);
}

/* 6.13.9: these order the work-item's own accesses as other work-items of
 * its group see them */
OVL void mem_fence(cl_mem_fence_flags flags) { __atomic_signal_fence(__ATOMIC_SEQ_CST); }
OVL void read_mem_fence(cl_mem_fence_flags flags) { __atomic_signal_fence(__ATOMIC_SEQ_CST); }
OVL void write_mem_fence(cl_mem_fence_flags flags) { __atomic_signal_fence(__ATOMIC_SEQ_CST); }
