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

/* cl_khr_extended_async_copies (OpenCL C 3.0, "Extended Async Copy
 * Functions"): 2D and 3D copies of elements of any size between global and
 * local memory, offsets, line lengths and plane areas in elements. Shared
 * out by lines: work-item i copies lines i, i + group size, ... of all the
 * planes' lines, each byte by byte. */
static void copy_lines(char *dst, size_t dst_offset, const char *src, size_t src_offset,
                       size_t element, size_t per_line, size_t lines, size_t planes,
                       size_t src_line, size_t src_plane, size_t dst_line, size_t dst_plane)
{
    size_t bytes = per_line * element;
    for (size_t l = group_item(); l < lines * planes; l += group_size()) {
        size_t plane = l / lines, line = l % lines;
        const char *s = src + (src_offset + plane * src_plane + line * src_line) * element;
        char *d = dst + (dst_offset + plane * dst_plane + line * dst_line) * element;
        for (size_t b = 0; b < bytes; b++)
            d[b] = s[b];
    }
}

#define ASYNC_2D3D(DST_AS, SRC_AS)                                                             \
    OVL event_t async_work_group_copy_2D2D(DST_AS void *dst, size_t dst_offset,                \
                                           const SRC_AS void *src, size_t src_offset,          \
                                           size_t element, size_t per_line, size_t lines,      \
                                           size_t src_line, size_t dst_line, event_t event)    \
    {                                                                                          \
        copy_lines((char *)dst, dst_offset, (const char *)src, src_offset, element, per_line, \
                   lines, 1, src_line, 0, dst_line, 0);                                        \
        return event;                                                                          \
    }                                                                                          \
    OVL event_t async_work_group_copy_3D3D(DST_AS void *dst, size_t dst_offset,                \
                                           const SRC_AS void *src, size_t src_offset,          \
                                           size_t element, size_t per_line, size_t lines,      \
                                           size_t planes, size_t src_line, size_t src_plane,   \
                                           size_t dst_line, size_t dst_plane, event_t event)   \
    {                                                                                          \
        copy_lines((char *)dst, dst_offset, (const char *)src, src_offset, element, per_line, \
                   lines, planes, src_line, src_plane, dst_line, dst_plane);                   \
        return event;                                                                          \
    }
ASYNC_2D3D(__local, __global)
ASYNC_2D3D(__global, __local)

/* 6.13.10: waits for the copies of the group, which every work-item did its
 * part of before it arrived here. */
OVL void wait_group_events(int num_events, event_t *event_list)
{
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
}

/* cl_khr_async_work_group_copy_fence: async copies before the fence (in
 * the memory the flags name) happen before those after it. Each work-item
 * has done its part of the earlier copies when it arrives, so a barrier
 * orders them for the whole group. */
OVL void async_work_group_copy_fence(cl_mem_fence_flags flags)
{
    barrier(flags);
}

/* OpenCL C 1.x kernels name the private-pointer overload. */
OVL void wait_group_events(int num_events, __private event_t *event_list)
{
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
}
