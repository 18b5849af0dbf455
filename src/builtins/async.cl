/* async.cl - async copies, wait_group_events and prefetch (OpenCL C 2.0,
 * 6.13.10).
 *
 * Every work-item of the group calls an async copy with the same arguments
 * (6.13.10), so the copy is shared out: work-item i of the group copies
 * elements i, i + group size, ... The copy is complete for the whole group
 * only after wait_group_events, which is a work-group barrier; kernels that
 * call it therefore run as fibers (src/devices/cpu/fibers.c). The event
 * returned is the one passed in: there is nothing asynchronous left to
 * track once each work-item has done its part. prefetch is a hint with no
 * visible effect: here it does nothing, and the hardware prefetchers do the
 * work.
 */
#include "library.h"

static size_t group_item(void)
{
    return get_local_linear_id();
}

static size_t group_size(void)
{
    return get_local_size(0) * get_local_size(1) * get_local_size(2);
}

#define ASYNC(T, N)                                                                            \
    OVL event_t async_work_group_copy(__local T##N *dst, const __global T##N *src, size_t n,  \
                                      event_t event)                                          \
    {                                                                                          \
        for (size_t i = group_item(); i < n; i += group_size())                               \
            dst[i] = src[i];                                                                   \
        return event;                                                                          \
    }                                                                                          \
    OVL event_t async_work_group_copy(__global T##N *dst, const __local T##N *src, size_t n,  \
                                      event_t event)                                          \
    {                                                                                          \
        for (size_t i = group_item(); i < n; i += group_size())                               \
            dst[i] = src[i];                                                                   \
        return event;                                                                          \
    }                                                                                          \
    OVL event_t async_work_group_strided_copy(__local T##N *dst, const __global T##N *src,    \
                                              size_t n, size_t stride, event_t event)         \
    {                                                                                          \
        for (size_t i = group_item(); i < n; i += group_size())                               \
            dst[i] = src[i * stride];                                                          \
        return event;                                                                          \
    }                                                                                          \
    OVL event_t async_work_group_strided_copy(__global T##N *dst, const __local T##N *src,    \
                                              size_t n, size_t stride, event_t event)         \
    {                                                                                          \
        for (size_t i = group_item(); i < n; i += group_size())                               \
            dst[i * stride] = src[i];                                                          \
        return event;                                                                          \
    }                                                                                          \
    OVL void prefetch(const __global T##N *p, size_t num_elements) {}

#define ASYNC_ALL(T) WIDTHS(ASYNC, T)
ASYNC_ALL(char)
ASYNC_ALL(uchar)
ASYNC_ALL(short)
ASYNC_ALL(ushort)
ASYNC_ALL(int)
ASYNC_ALL(uint)
ASYNC_ALL(long)
ASYNC_ALL(ulong)
ASYNC_ALL(float)
ASYNC_ALL(double)
ASYNC_ALL(half)

/* 6.13.10: waits for the copies of the group, which every work-item did its
 * part of before it arrived here. */
OVL void wait_group_events(int num_events, event_t *event_list)
{
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
}

/* OpenCL C 1.x kernels name the private-pointer overload. */
OVL void wait_group_events(int num_events, __private event_t *event_list)
{
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
}
