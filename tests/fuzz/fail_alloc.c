/* fail_alloc.c - an LD_PRELOAD library for tests/fuzz/oom_sweep.sh: the
 * FAIL_AT-th allocation (malloc, calloc, realloc, aligned_alloc,
 * posix_memalign; counted from 0) that code of the library whose path
 * contains FAIL_LIB makes itself returns NULL, as under memory pressure;
 * it says so on stderr ("failing allocation N"). Allocations made for
 * that library by others (glibc's strdup, libstdc++'s operator new, LLVM)
 * are not counted: those libraries do not survive a failure themselves.
 * With FAIL_COUNT set, the count is printed at exit. (_GNU_SOURCE, for
 * RTLD_NEXT, comes from the build.) */
#include <dlfcn.h>
#include <errno.h>
#include <link.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void *(*real_malloc)(size_t);
static void *(*real_calloc)(size_t, size_t);
static void *(*real_realloc)(void *, size_t);
static void *(*real_aligned_alloc)(size_t, size_t);
static int (*real_posix_memalign)(void **, size_t, size_t);
static void (*real_free)(void *);
static _Atomic long counted;
static long fail_at = -1;
static uintptr_t text_start, text_end; /* the library's code */
static enum { UNSET, LOOKING, READY } state;
/* dlsym allocates with calloc before the real one is known */
static _Alignas(16) char early[4096];
static size_t early_used;

static int find_library(struct dl_phdr_info *info, size_t size, void *name)
{
    (void)size;
    if (!info->dlpi_name || !strstr(info->dlpi_name, name))
        return 0;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *segment = &info->dlpi_phdr[i];
        if (segment->p_type == PT_LOAD && (segment->p_flags & PF_X)) {
            text_start = info->dlpi_addr + segment->p_vaddr;
            text_end = text_start + segment->p_memsz;
        }
    }
    return 1;
}

static void set_up(void)
{
    if (state != UNSET)
        return;
    state = LOOKING;
    real_malloc = dlsym(RTLD_NEXT, "malloc");
    real_calloc = dlsym(RTLD_NEXT, "calloc");
    real_realloc = dlsym(RTLD_NEXT, "realloc");
    real_aligned_alloc = dlsym(RTLD_NEXT, "aligned_alloc");
    real_posix_memalign = dlsym(RTLD_NEXT, "posix_memalign");
    real_free = dlsym(RTLD_NEXT, "free");
    const char *at = getenv("FAIL_AT");
    fail_at = at ? atol(at) : -1;
    state = READY;
}

/* Whether the allocation called from `caller` is to fail. */
static int failing(const void *caller)
{
    if (state != READY)
        return 0;
    if (!text_start) {
        const char *name = getenv("FAIL_LIB");
        dl_iterate_phdr(find_library, (void *)(name ? name : "libOpenCL.so"));
        if (!text_start)
            return 0;
    }
    if ((uintptr_t)caller < text_start || (uintptr_t)caller >= text_end)
        return 0;
    long n = atomic_fetch_add(&counted, 1);
    if (n != fail_at)
        return 0;
    fprintf(stderr, "failing allocation %ld\n", n);
    return 1;
}

void *malloc(size_t size)
{
    set_up();
    if (state != READY || failing(__builtin_return_address(0)))
        return NULL;
    return real_malloc(size);
}

void *calloc(size_t count, size_t size)
{
    if (state == LOOKING) {
        size_t bytes = (count * size + 15) & ~(size_t)15;
        if (early_used + bytes > sizeof early)
            return NULL;
        void *p = early + early_used;
        early_used += bytes;
        return p;
    }
    set_up();
    return failing(__builtin_return_address(0)) ? NULL : real_calloc(count, size);
}

void *realloc(void *p, size_t size)
{
    set_up();
    return failing(__builtin_return_address(0)) ? NULL : real_realloc(p, size);
}

void *aligned_alloc(size_t alignment, size_t size)
{
    set_up();
    return failing(__builtin_return_address(0)) ? NULL : real_aligned_alloc(alignment, size);
}

int posix_memalign(void **p, size_t alignment, size_t size)
{
    set_up();
    return failing(__builtin_return_address(0)) ? ENOMEM : real_posix_memalign(p, alignment, size);
}

void free(void *p)
{
    if ((char *)p >= early && (char *)p < early + sizeof early)
        return;
    set_up();
    real_free(p);
}

__attribute__((destructor)) static void report(void)
{
    if (getenv("FAIL_COUNT"))
        fprintf(stderr, "allocations counted: %ld\n", (long)counted);
}
