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

/* Storage of 64 KiB and more begins half a page past a page boundary.
 * The host's memcpy (glibc 2.36, AVX2) runs at a third of its speed or
 * less when the destination lies a little past the source modulo 4 KiB
 * (4 KiB aliasing: 3.5-4.9 GB/s from 64 to 320 bytes, 7.5 at 512, 13-15
 * from 1 KiB to 3 KiB on this project's AVX2 VM). malloc'd host arrays
 * begin 16 bytes past a page, aligned ones on it, so storage on a page
 * boundary made every memcpy from a mapped buffer or SVM allocation into
 * such an array the slow one (clpeak's "memcpy from mapped ptr" 4.4 GB/s,
 * PoCL 12.6, whose storage is 128 bytes past a page: its memcpy into a
 * mapped buffer is the slow one, 3.9). Half a page keeps both directions
 * clear of it for host arrays that begin in the first KiB of a page; the
 * alignments asked here (128 bytes) divide it. Placing it costs up to
 * 6 KiB, hence the threshold. */
#define PAGE ((size_t)4096)
#define PAGE_OFFSET (PAGE / 2)
#define OFFSET_FROM ((size_t)64 << 10)

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
    size_t offset = size >= OFFSET_FROM && alignment <= PAGE_OFFSET ? PAGE_OFFSET : 0;
    if (offset && alignment < PAGE)
        alignment = PAGE;
    if (huge && alignment < HUGE_PAGE)
        alignment = HUGE_PAGE;
    if (alignment < sizeof(void *))
        alignment = sizeof(void *);
    size_t total = size + alignment + offset + sizeof(void *);
    if (total < size)
        return NULL;
    char *block = calloc(1, total);
    if (!block)
        return NULL;
    uintptr_t base =
        ((uintptr_t)block + sizeof(void *) + alignment - 1) & ~(uintptr_t)(alignment - 1);
    void **storage = (void **)(base + offset);
    storage[-1] = block;
    if (huge) /* a hint: failing costs nothing */
        madvise((void *)base, offset + size, MADV_HUGEPAGE);
    return storage;
}

void rt_free_storage(void *storage)
{
    if (storage)
        free(((void **)storage)[-1]);
}
