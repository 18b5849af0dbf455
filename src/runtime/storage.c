/* storage.c - the memory behind buffers, images, pipes and SVM
 * allocations. */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>

#include "runtime/runtime.h"

/* Allocations of 4 MiB and more are aligned to 2 MiB and given
 * MADV_HUGEPAGE: where the kernel makes transparent huge pages only on
 * request ("madvise", Debian's default), kernels streaming through
 * hundreds of MiB otherwise take a TLB miss every 4 KiB (triad over 3 x
 * 256 MiB: 26-28 -> 32-35 GB/s alone). */
#define HUGE_PAGE ((size_t)2 << 20)

/* Storage starts zeroed. The specification leaves a new memory object's
 * contents undefined (API spec 5.2.1), but programs read them: ffmpeg's
 * tonemap_opencl keeps its peak detection's state in a buffer it never
 * writes first, and an index it read from there, whatever an earlier
 * allocation had left, crashed it one run in three. calloc takes large
 * blocks fresh from the kernel, already zero, without writing them, and
 * clears small ones; the block it returned is kept just below the aligned
 * storage, for rt_free_storage. */
void *rt_alloc_storage(size_t size, size_t alignment)
{
    bool huge = size >= 2 * HUGE_PAGE;
    if (huge && alignment < HUGE_PAGE)
        alignment = HUGE_PAGE;
    if (alignment < sizeof(void *))
        alignment = sizeof(void *);
    size_t rounded = (size + alignment - 1) & ~(alignment - 1);
    size_t total = rounded + alignment + sizeof(void *);
    if (rounded < size || total < rounded)
        return NULL;
    char *block = calloc(1, total);
    if (!block)
        return NULL;
    uintptr_t start = ((uintptr_t)block + sizeof(void *) + alignment - 1) & ~(uintptr_t)(alignment - 1);
    void **storage = (void **)start;
    storage[-1] = block;
    if (huge)
        madvise(storage, rounded, MADV_HUGEPAGE); /* a hint: failing costs nothing */
    return storage;
}

void rt_free_storage(void *storage)
{
    if (storage)
        free(((void **)storage)[-1]);
}
