/* misc.cl - miscellaneous vector functions (OpenCL C 2.0, 6.13.12):
 * shuffle and shuffle2, for every element type and m, n in 2, 4, 8, 16;
 * and get_fence (6.13.9), at the end.
 *
 * The mask is a run-time value, so the components are picked through
 * private arrays; only the low bits that index the input count (6.13.12:
 * ilogb(2m-1)+1 bits for shuffle2), which for power-of-two m is the mask
 * modulo m (2m).
 */
#include "library.h"

#define SHUFFLE(T, U, M, N)                                                                   \
    OVL T##N shuffle(T##M x, U##N mask)                                                       \
    {                                                                                         \
        T r[N];                                                                               \
        for (int i = 0; i < N; i++)                                                           \
            r[i] = ((T *)&x)[((U *)&mask)[i] % M];                                            \
        return vload##N(0, r);                                                                \
    }                                                                                         \
    OVL T##N shuffle2(T##M x, T##M y, U##N mask)                                              \
    {                                                                                         \
        T r[N];                                                                               \
        for (int i = 0; i < N; i++) {                                                         \
            U k = ((U *)&mask)[i] % (2 * M);                                                  \
            r[i] = k < M ? ((T *)&x)[k] : ((T *)&y)[k - M];                                   \
        }                                                                                     \
        return vload##N(0, r);                                                                \
    }
#define SHUFFLE_N(T, U, M) SHUFFLE(T, U, M, 2) SHUFFLE(T, U, M, 4) SHUFFLE(T, U, M, 8) SHUFFLE(T, U, M, 16)
#define SHUFFLE_ALL(T, U) SHUFFLE_N(T, U, 2) SHUFFLE_N(T, U, 4) SHUFFLE_N(T, U, 8) SHUFFLE_N(T, U, 16)

SHUFFLE_ALL(char, uchar)
SHUFFLE_ALL(uchar, uchar)
SHUFFLE_ALL(short, ushort)
SHUFFLE_ALL(ushort, ushort)
SHUFFLE_ALL(int, uint)
SHUFFLE_ALL(uint, uint)
SHUFFLE_ALL(long, ulong)
SHUFFLE_ALL(ulong, ulong)
SHUFFLE_ALL(float, uint)
SHUFFLE_ALL(double, ulong)
SHUFFLE_ALL(half, ushort)

/* --- get_fence (6.13.9): the fence flags that order a generic pointer's
 * memory; which address space it points into is the device's answer
 * (src/compiler/workgroup.c lowers the query). --- */
int __cpucl_pointer_space(const __generic void *pointer);

OVL cl_mem_fence_flags get_fence(const __generic void *pointer)
{
    switch (__cpucl_pointer_space(pointer)) {
    case 0: return CLK_GLOBAL_MEM_FENCE;
    case 1: return CLK_LOCAL_MEM_FENCE;
    default: return 0; /* private memory: nothing to order with others */
    }
}

OVL cl_mem_fence_flags get_fence(__generic void *pointer)
{
    return get_fence((const __generic void *)pointer);
}
