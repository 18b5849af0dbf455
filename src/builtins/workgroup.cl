/* workgroup.cl - work-group collectives (OpenCL C 2.0, 6.13.15) and the
 * sub-group functions of cl_khr_subgroups (OpenCL 2.2 extension spec,
 * 9.17; core in OpenCL 2.1) and cl_khr_subgroup_extended_types (at the
 * end).
 *
 * A collective is built from barriers and a scratch area of 8-byte slots
 * that the device gives each work-group (cc_wg_state.scratch, sized by
 * CC_SCRATCH_SLOTS in src/compiler/compiler.h), for MAX = MAX_ITEMS:
 *
 *   [0, MAX)             the value of each work-item (by local linear id)
 *   [MAX, 2 MAX)         the scans' outputs
 *   2 MAX, 2 MAX + 1     the work-group's reduction result and broadcast value
 *   2 MAX + 2 + k        the reduction result of sub-group k
 *   3 MAX + 2 + k        the broadcast value of sub-group k
 *
 * Reductions and scans: each work-item writes its value, barrier, the first
 * work-item computes (in local linear id order, so float results do not
 * depend on scheduling), barrier, each reads its result. Broadcast: the
 * chosen work-item writes, barrier, all read, barrier (the next broadcast's
 * writer must wait for every read). A kernel that calls a collective thus
 * calls barrier() (src/compiler/workgroup.c splits it into regions or runs
 * it on fibers); a sub-group collective uses sub_group_barrier.
 *
 * Sub-groups: sub-group k of a work-group holds the work-items whose local
 * linear id is in [k * S, (k + 1) * S), S = __cpucl_sub_group_size(), the
 * host's SIMD width for 32-bit lanes (cc_sub_group_size); the last one may
 * be smaller.
 */
#include "library.h"

#define MAX_ITEMS 4096 /* CC_MAX_WORK_GROUP_SIZE */

/* Lowered by src/compiler/workgroup.c. */
__local ulong *__cpucl_wg_scratch(void);
uint __cpucl_sub_group_size(void);

static size_t items_in_group(void)
{
    return get_local_size(0) * get_local_size(1) * get_local_size(2);
}

static size_t enqueued_items_in_group(void)
{
    return get_enqueued_local_size(0) * get_enqueued_local_size(1) * get_enqueued_local_size(2);
}

/* --- sub-group queries --- */

OVL uint get_max_sub_group_size(void)
{
    /* 9.17.2: invariant for the dispatch; a group smaller than S has one
     * sub-group of its own size. */
    size_t n = enqueued_items_in_group();
    return n < __cpucl_sub_group_size() ? (uint)n : __cpucl_sub_group_size();
}

OVL uint get_num_sub_groups(void)
{
    uint s = __cpucl_sub_group_size();
    return (uint)((items_in_group() + s - 1) / s);
}

OVL uint get_enqueued_num_sub_groups(void)
{
    uint s = __cpucl_sub_group_size();
    return (uint)((enqueued_items_in_group() + s - 1) / s);
}

OVL uint get_sub_group_id(void)
{
    return (uint)(get_local_linear_id() / __cpucl_sub_group_size());
}

OVL uint get_sub_group_local_id(void)
{
    return (uint)(get_local_linear_id() % __cpucl_sub_group_size());
}

OVL uint get_sub_group_size(void)
{
    size_t s = __cpucl_sub_group_size();
    size_t first = get_sub_group_id() * s, n = items_in_group();
    return (uint)(n - first < s ? n - first : s);
}

/* --- the collectives --- */

#define ADD(a, b) ((a) + (b))
#define MIN(a, b) ((b) < (a) ? (b) : (a))
#define MAX(a, b) ((b) > (a) ? (b) : (a))
#define SLOT(T, s, i) (*(__local T *)&(s)[i])

/* The work-group's and a sub-group's view of the scratch (the layout
 * above): where their values and scan outputs start, how many, the result
 * and broadcast slots, the barrier. */
#define WG_SCOPE()                                                                            \
    __local ulong *s = __cpucl_wg_scratch();                                                  \
    __local ulong *o = s + MAX_ITEMS;                                                         \
    __local ulong *result = s + 2 * MAX_ITEMS, *shout = s + 2 * MAX_ITEMS + 1;                \
    size_t me = get_local_linear_id(), n = items_in_group();
#define WG_BARRIER() barrier(CLK_LOCAL_MEM_FENCE)
#define SG_SCOPE()                                                                            \
    uint group = get_sub_group_id();                                                          \
    __local ulong *s = __cpucl_wg_scratch() + group * __cpucl_sub_group_size();               \
    __local ulong *o = s + MAX_ITEMS;                                                         \
    __local ulong *result = __cpucl_wg_scratch() + 2 * MAX_ITEMS + 2 + group;                 \
    __local ulong *shout = __cpucl_wg_scratch() + 3 * MAX_ITEMS + 2 + group;                  \
    size_t me = get_sub_group_local_id(), n = get_sub_group_size();
#define SG_BARRIER() sub_group_barrier(CLK_LOCAL_MEM_FENCE)

/* reduce: the first item folds the values in id order. Two barriers are
 * enough: the next collective writes the values only after this fold (the
 * second barrier), and the result slot only after its own first barrier,
 * which every work-item reaches after reading this result. */
#define REDUCE(SCOPE, BARRIER, PREFIX, T, NAME, OP)                                          \
    OVL T PREFIX##_reduce_##NAME(T x)                                                         \
    {                                                                                         \
        SCOPE()                                                                               \
        SLOT(T, s, me) = x;                                                                   \
        BARRIER();                                                                            \
        if (me == 0) {                                                                        \
            T r = SLOT(T, s, 0);                                                              \
            for (size_t i = 1; i < n; i++)                                                    \
                r = OP(r, SLOT(T, s, i));                                                     \
            *(__local T *)result = r;                                                         \
        }                                                                                     \
        BARRIER();                                                                            \
        return *(__local T *)result;                                                          \
    }

/* scans: the first item writes the inclusive prefixes to the outputs,
 * apart from the values (which the next collective may overwrite while
 * this one's results are still being read); the exclusive result of item i
 * is the inclusive one of item i - 1. */
#define SCAN(SCOPE, BARRIER, PREFIX, T, NAME, OP, IDENTITY)                                  \
    OVL T PREFIX##_scan_inclusive_##NAME(T x)                                                 \
    {                                                                                         \
        SCOPE()                                                                               \
        SLOT(T, s, me) = x;                                                                   \
        BARRIER();                                                                            \
        if (me == 0) {                                                                        \
            T r = SLOT(T, s, 0);                                                              \
            SLOT(T, o, 0) = r;                                                                \
            for (size_t i = 1; i < n; i++)                                                    \
                SLOT(T, o, i) = r = OP(r, SLOT(T, s, i));                                     \
        }                                                                                     \
        BARRIER();                                                                            \
        return SLOT(T, o, me);                                                                \
    }                                                                                         \
    OVL T PREFIX##_scan_exclusive_##NAME(T x)                                                 \
    {                                                                                         \
        SCOPE()                                                                               \
        SLOT(T, s, me) = x;                                                                   \
        BARRIER();                                                                            \
        if (me == 0) {                                                                        \
            T r = SLOT(T, s, 0);                                                              \
            SLOT(T, o, 0) = r;                                                                \
            for (size_t i = 1; i < n; i++)                                                    \
                SLOT(T, o, i) = r = OP(r, SLOT(T, s, i));                                     \
        }                                                                                     \
        BARRIER();                                                                            \
        return me == 0 ? (T)(IDENTITY) : SLOT(T, o, me - 1);                                  \
    }

/* 6.13.15: the identity of the exclusive scans is 0 for add, the type's
 * largest value (+INF for floating point) for min, its smallest (-INF) for
 * max. */
#define COLLECTIVES(SCOPE, BARRIER, PREFIX, T, LARGEST, SMALLEST)                            \
    REDUCE(SCOPE, BARRIER, PREFIX, T, add, ADD)                                               \
    REDUCE(SCOPE, BARRIER, PREFIX, T, min, MIN)                                               \
    REDUCE(SCOPE, BARRIER, PREFIX, T, max, MAX)                                               \
    SCAN(SCOPE, BARRIER, PREFIX, T, add, ADD, 0)                                              \
    SCAN(SCOPE, BARRIER, PREFIX, T, min, MIN, LARGEST)                                        \
    SCAN(SCOPE, BARRIER, PREFIX, T, max, MAX, SMALLEST)

#define BOTH_SCOPES(T, LARGEST, SMALLEST)                                                     \
    COLLECTIVES(WG_SCOPE, WG_BARRIER, work_group, T, LARGEST, SMALLEST)                       \
    COLLECTIVES(SG_SCOPE, SG_BARRIER, sub_group, T, LARGEST, SMALLEST)

BOTH_SCOPES(int, INT_MAX, INT_MIN)
BOTH_SCOPES(uint, UINT_MAX, 0)
BOTH_SCOPES(long, LONG_MAX, LONG_MIN)
BOTH_SCOPES(ulong, ULONG_MAX, 0)
BOTH_SCOPES(float, INFINITY, -INFINITY)
BOTH_SCOPES(double, INFINITY, -INFINITY)
BOTH_SCOPES(half, (half)INFINITY, -(half)INFINITY)

/* all and any: a reduction of the predicates' truth. */
#define VOTE(SCOPE, BARRIER, PREFIX)                                                          \
    OVL int PREFIX##_all(int predicate)                                                       \
    {                                                                                         \
        return PREFIX##_reduce_min((uint)(predicate != 0)) != 0;                              \
    }                                                                                         \
    OVL int PREFIX##_any(int predicate)                                                       \
    {                                                                                         \
        return PREFIX##_reduce_max((uint)(predicate != 0)) != 0;                              \
    }
VOTE(WG_SCOPE, WG_BARRIER, work_group)
VOTE(SG_SCOPE, SG_BARRIER, sub_group)

/* broadcast: the chosen item's value, through the broadcast slot. */
#define SG_BROADCAST_SCALAR(T)                                                                \
    OVL T sub_group_broadcast(T a, uint from)                                                 \
    {                                                                                         \
        SG_SCOPE()                                                                            \
        if (me == from)                                                                       \
            *(__local T *)shout = a;                                                          \
        SG_BARRIER();                                                                         \
        T r = *(__local T *)shout;                                                            \
        SG_BARRIER();                                                                         \
        return r;                                                                             \
    }
#define WG_BROADCAST(T)                                                                       \
    static T broadcast_##T(T a, size_t from)                                                  \
    {                                                                                         \
        WG_SCOPE()                                                                            \
        if (me == from)                                                                       \
            *(__local T *)shout = a;                                                          \
        WG_BARRIER();                                                                         \
        T r = *(__local T *)shout;                                                            \
        WG_BARRIER();                                                                         \
        return r;                                                                             \
    }                                                                                         \
    OVL T work_group_broadcast(T a, size_t x)                                                 \
    {                                                                                         \
        return broadcast_##T(a, x);                                                           \
    }                                                                                         \
    OVL T work_group_broadcast(T a, size_t x, size_t y)                                       \
    {                                                                                         \
        return broadcast_##T(a, x + y * get_local_size(0));                                   \
    }                                                                                         \
    OVL T work_group_broadcast(T a, size_t x, size_t y, size_t z)                             \
    {                                                                                         \
        return broadcast_##T(a, x + (y + z * get_local_size(1)) * get_local_size(0));         \
    }                                                                                         \
    SG_BROADCAST_SCALAR(T)
WG_BROADCAST(int)
WG_BROADCAST(uint)
WG_BROADCAST(long)
WG_BROADCAST(ulong)
WG_BROADCAST(float)
WG_BROADCAST(double)
WG_BROADCAST(half)

/* --- cl_khr_subgroup_extended_types (OpenCL extension spec, "Extended
 * Types for Sub-group Functions"): sub_group_broadcast of char, uchar,
 * short and ushort and of every vector type, and the reductions and scans
 * of char, uchar, short and ushort --- */

#define SG_COLLECTIVES(T, LARGEST, SMALLEST)                                                  \
    COLLECTIVES(SG_SCOPE, SG_BARRIER, sub_group, T, LARGEST, SMALLEST)
SG_COLLECTIVES(char, CHAR_MAX, CHAR_MIN)
SG_COLLECTIVES(uchar, UCHAR_MAX, 0)
SG_COLLECTIVES(short, SHRT_MAX, SHRT_MIN)
SG_COLLECTIVES(ushort, USHRT_MAX, 0)

SG_BROADCAST_SCALAR(char)
SG_BROADCAST_SCALAR(uchar)
SG_BROADCAST_SCALAR(short)
SG_BROADCAST_SCALAR(ushort)

/* A vector of up to 32 bytes goes through the sub-group's value slots (S
 * of 8 bytes, S >= 4: SSE's width), stored and loaded element by element
 * (vstoren/vloadn: the slots are 8-byte aligned, a vector type may want
 * more); a larger one as its two halves. The second barrier keeps the
 * slots until every work-item has read them. */
#define SG_BROADCAST_THROUGH_SLOTS(T, N)                                                      \
    OVL T##N sub_group_broadcast(T##N a, uint from)                                           \
    {                                                                                         \
        SG_SCOPE()                                                                            \
        if (me == from)                                                                       \
            vstore##N(a, 0, (__local T *)s);                                                  \
        SG_BARRIER();                                                                         \
        T##N r = vload##N(0, (__local T *)s);                                                 \
        SG_BARRIER();                                                                         \
        return r;                                                                             \
    }
#define SG_BROADCAST_HALVES(T, N)                                                             \
    OVL T##N sub_group_broadcast(T##N a, uint from)                                           \
    {                                                                                         \
        return (T##N)(sub_group_broadcast(a.lo, from), sub_group_broadcast(a.hi, from));      \
    }
/* 1- and 2-byte elements: every width fits (16 shorts are 32 bytes) */
#define SG_BROADCAST_SMALL(T)                                                                 \
    SG_BROADCAST_THROUGH_SLOTS(T, 2)                                                          \
    SG_BROADCAST_THROUGH_SLOTS(T, 3)                                                          \
    SG_BROADCAST_THROUGH_SLOTS(T, 4)                                                          \
    SG_BROADCAST_THROUGH_SLOTS(T, 8)                                                          \
    SG_BROADCAST_THROUGH_SLOTS(T, 16)
/* 4-byte elements: 16 of them (64 bytes) as two halves */
#define SG_BROADCAST_WORDS(T)                                                                 \
    SG_BROADCAST_THROUGH_SLOTS(T, 2)                                                          \
    SG_BROADCAST_THROUGH_SLOTS(T, 3)                                                          \
    SG_BROADCAST_THROUGH_SLOTS(T, 4)                                                          \
    SG_BROADCAST_THROUGH_SLOTS(T, 8)                                                          \
    SG_BROADCAST_HALVES(T, 16)
/* 8-byte elements: 8 and 16 of them as halves */
#define SG_BROADCAST_LONGS(T)                                                                 \
    SG_BROADCAST_THROUGH_SLOTS(T, 2)                                                          \
    SG_BROADCAST_THROUGH_SLOTS(T, 3)                                                          \
    SG_BROADCAST_THROUGH_SLOTS(T, 4)                                                          \
    SG_BROADCAST_HALVES(T, 8)                                                                 \
    SG_BROADCAST_HALVES(T, 16)
SG_BROADCAST_SMALL(char)
SG_BROADCAST_SMALL(uchar)
SG_BROADCAST_SMALL(short)
SG_BROADCAST_SMALL(ushort)
SG_BROADCAST_SMALL(half)
SG_BROADCAST_WORDS(int)
SG_BROADCAST_WORDS(uint)
SG_BROADCAST_WORDS(float)
SG_BROADCAST_LONGS(long)
SG_BROADCAST_LONGS(ulong)
SG_BROADCAST_LONGS(double)
