/* async.cl - async copies and prefetch (OpenCL C 2.0, 6.13.10).
 *
 * async_work_group_copy, async_work_group_strided_copy and
 * wait_group_events are barrier-like (every work-item of the group must
 * reach them); until the compiler supports barriers, a kernel that calls
 * them fails to build (src/compiler/workgroup.c). prefetch is a hint with
 * no visible effect: here it does nothing, and the hardware prefetchers do
 * the work.
 */
#include "library.h"

#define PREFETCH(T, N) OVL void prefetch(const __global T##N *p, size_t num_elements) {}
#define PREFETCH_ALL(T) WIDTHS(PREFETCH, T)
PREFETCH_ALL(char)
PREFETCH_ALL(uchar)
PREFETCH_ALL(short)
PREFETCH_ALL(ushort)
PREFETCH_ALL(int)
PREFETCH_ALL(uint)
PREFETCH_ALL(long)
PREFETCH_ALL(ulong)
PREFETCH_ALL(float)
PREFETCH_ALL(double)
