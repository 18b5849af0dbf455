/* fibers.c - running the work-items of a kernel with barriers.
 *
 * A kernel that calls barrier() is compiled to a work-item function (see
 * src/compiler/workgroup.c). Each work-item of the group runs it on a stack
 * of its own (a fiber); barrier() switches back to the scheduler, which
 * resumes the next work-item, so every work-item reaches the barrier before
 * any goes past it (OpenCL C 6.13.8). Values live across a barrier simply
 * stay on their fiber's stack, which is mmap'd memory of this worker, not
 * the thread's stack. All fibers of a group run on one thread, so the
 * barrier needs no memory fence beyond the compiler's.
 *
 * This is the general method: correct for barriers anywhere the spec allows
 * them, at the price of a context switch per work-item and barrier and no
 * vectorization across work-items.
 */
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "devices/cpu/fibers.h"

#define FIBER_STACK (256u * 1024u)

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/common_interface_defs.h>
#define ASAN_FIBERS 1
#endif

/* Where a fiber stopped when it last gave the thread back. */
enum fiber_state {
    RUNNABLE,          /* not started, or paused by cpu_fibers_yield */
    AT_BARRIER,        /* waiting for the whole work-group */
    AT_SUB_GROUP_BARRIER,
    DONE,
};

struct fiber {
    void *sp;
    char *stack;
    size_t id[3];
    enum fiber_state state;
};

struct cpu_fibers {
    struct fiber *fibers;
    size_t capacity;      /* fibers with a stack */
    void *scheduler_sp;
    size_t current;
    uint64_t scratch[CC_SCRATCH_SLOTS];
    void *context;        /* cpu_fibers_context's buffer */
    size_t context_size;
    const char *arena, *stack; /* the worker's local arena and thread stack */
    size_t arena_size, stack_size;
    cc_wi_fn item;
    const void *args;
    struct cc_wg_state *state;
#ifdef ASAN_FIBERS
    const void *scheduler_bottom;
    size_t scheduler_size;
#endif
};

/* Saves the callee-saved registers and the stack pointer in *save, then
 * continues where `load` was saved. */
void cpucl_fiber_switch(void **save, void *load);
void cpucl_fiber_start(void);

__asm__(".text\n"
        ".globl cpucl_fiber_switch\n"
        ".hidden cpucl_fiber_switch\n"
        ".type cpucl_fiber_switch,@function\n"
        "cpucl_fiber_switch:\n"
        "    pushq %rbp\n"
        "    pushq %rbx\n"
        "    pushq %r12\n"
        "    pushq %r13\n"
        "    pushq %r14\n"
        "    pushq %r15\n"
        "    movq %rsp, (%rdi)\n"
        "    movq %rsi, %rsp\n"
        "    popq %r15\n"
        "    popq %r14\n"
        "    popq %r13\n"
        "    popq %r12\n"
        "    popq %rbx\n"
        "    popq %rbp\n"
        "    ret\n"
        ".size cpucl_fiber_switch, .-cpucl_fiber_switch\n"
        /* A new fiber starts here with its cpu_fibers in r12. */
        ".globl cpucl_fiber_start\n"
        ".hidden cpucl_fiber_start\n"
        ".type cpucl_fiber_start,@function\n"
        "cpucl_fiber_start:\n"
        "    movq %r12, %rdi\n"
        "    call cpucl_fiber_main\n"
        "    ud2\n"
        ".size cpucl_fiber_start, .-cpucl_fiber_start\n");

static void switch_to_fiber(struct cpu_fibers *set, struct fiber *fiber)
{
#ifdef ASAN_FIBERS
    void *fake = NULL;
    __sanitizer_start_switch_fiber(&fake, fiber->stack, FIBER_STACK);
    cpucl_fiber_switch(&set->scheduler_sp, fiber->sp);
    __sanitizer_finish_switch_fiber(fake, NULL, NULL);
#else
    cpucl_fiber_switch(&set->scheduler_sp, fiber->sp);
#endif
}

static void switch_to_scheduler(struct cpu_fibers *set, struct fiber *fiber, int finished)
{
#ifdef ASAN_FIBERS
    void *fake = NULL;
    __sanitizer_start_switch_fiber(finished ? NULL : &fake, set->scheduler_bottom,
                                   set->scheduler_size);
    cpucl_fiber_switch(&fiber->sp, set->scheduler_sp);
    __sanitizer_finish_switch_fiber(fake, &set->scheduler_bottom, &set->scheduler_size);
#else
    (void)finished;
    cpucl_fiber_switch(&fiber->sp, set->scheduler_sp);
#endif
}

__attribute__((used, visibility("hidden"))) void cpucl_fiber_main(struct cpu_fibers *set)
{
#ifdef ASAN_FIBERS
    __sanitizer_finish_switch_fiber(NULL, &set->scheduler_bottom, &set->scheduler_size);
#endif
    struct fiber *fiber = &set->fibers[set->current];
    set->item(set->args, set->state, fiber->id[0], fiber->id[1], fiber->id[2]);
    fiber->state = DONE;
    switch_to_scheduler(set, fiber, 1);
    __builtin_unreachable();
}

/* A fresh stack that starts in cpucl_fiber_start: six saved registers
 * (r12 = set), the return address, and padding that leaves the stack
 * 16-byte aligned at the call in cpucl_fiber_start. */
static void prepare(struct cpu_fibers *set, struct fiber *fiber, size_t index)
{
    /* Stacks start at staggered offsets: equal offsets in 256 KiB-aligned
     * stacks would all compete for the same cache sets. */
    void **top = (void **)(fiber->stack + FIBER_STACK - 64 * (index % 61));
    void **sp = top - 9;
    memset(sp, 0, 9 * sizeof *sp);
    sp[3] = set;                         /* r12 */
    sp[6] = (void *)cpucl_fiber_start;   /* return address */
    fiber->sp = sp;
    fiber->state = RUNNABLE;
}

static int reserve(struct cpu_fibers *set, size_t count)
{
    if (count <= set->capacity)
        return 0;
    struct fiber *fibers = realloc(set->fibers, count * sizeof *fibers);
    if (!fibers)
        return -1;
    set->fibers = fibers;
    for (size_t i = set->capacity; i < count; i++) {
        /* Reserved, not committed: pages are touched only as deep as the
         * kernel's stack goes. */
        void *stack = mmap(NULL, FIBER_STACK, PROT_READ | PROT_WRITE,
                           MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (stack == MAP_FAILED)
            return -1;
        fibers[i].stack = stack;
        set->capacity = i + 1;
    }
    return 0;
}

struct cpu_fibers *cpu_fibers_create(void)
{
    return calloc(1, sizeof(struct cpu_fibers));
}

void cpu_fibers_run(struct cc_wg_state *state, cc_wi_fn item, const void *args)
{
    struct cpu_fibers *set = state->fibers;
    size_t count = state->local_size[0] * state->local_size[1] * state->local_size[2];
    if (reserve(set, count) != 0)
        abort(); /* no memory for the stacks of one work-group: nothing sane to return */
    set->item = item;
    set->args = args;
    set->state = state;
    state->scratch = set->scratch;
    size_t i = 0;
    for (size_t z = 0; z < state->local_size[2]; z++)
        for (size_t y = 0; y < state->local_size[1]; y++)
            for (size_t x = 0; x < state->local_size[0]; x++, i++) {
                set->fibers[i].id[0] = x;
                set->fibers[i].id[1] = y;
                set->fibers[i].id[2] = z;
                prepare(set, &set->fibers[i], i);
            }
    /* Passes, a sub-group at a time: each resumes every runnable work-item
     * of the sub-group until it stops at a barrier, pauses or ends. When
     * every unfinished work-item of a sub-group waits at sub_group_barrier
     * they all go on, at once; when every unfinished work-item of the group
     * waits at a work-group barrier, they all go on at the next pass.
     * Barriers are met by all the work-items of their group or sub-group
     * or by none (OpenCL C 6.13.8). A work-item paused at an atomic
     * operation (cpu_fibers_yield) lets the other sub-groups run, so that a
     * sub-group spinning on a value another one writes makes progress:
     * CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS. */
    size_t sub_group = state->sub_group_size; /* the kernel's (pool.c, from its launch) */
    size_t remaining = count;
    while (remaining) {
        size_t waiting = 0, resumed = 0;
        for (size_t first = 0; first < count; first += sub_group) {
            size_t end = first + sub_group < count ? first + sub_group : count;
            for (;;) {
                size_t live = 0, at_sub_group_barrier = 0;
                for (i = first; i < end; i++) {
                    struct fiber *fiber = &set->fibers[i];
                    if (fiber->state == RUNNABLE) {
                        resumed++;
                        set->current = i;
                        switch_to_fiber(set, fiber);
                        remaining -= fiber->state == DONE;
                    }
                    live += fiber->state != DONE;
                    at_sub_group_barrier += fiber->state == AT_SUB_GROUP_BARRIER;
                }
                if (!live || at_sub_group_barrier != live)
                    break;
                for (i = first; i < end; i++)
                    if (set->fibers[i].state == AT_SUB_GROUP_BARRIER)
                        set->fibers[i].state = RUNNABLE;
            }
            for (i = first; i < end; i++)
                waiting += set->fibers[i].state == AT_BARRIER;
        }
        /* Nothing could run: a kernel whose work-items wait at different
         * barriers (undefined behaviour) is let through rather than hung. */
        if ((waiting && waiting == remaining) || !resumed)
            for (i = 0; i < count; i++)
                if (set->fibers[i].state != DONE)
                    set->fibers[i].state = RUNNABLE;
    }
}

static void stop(struct cc_wg_state *state, enum fiber_state why)
{
    struct cpu_fibers *set = state->fibers;
    struct fiber *fiber = &set->fibers[set->current];
    fiber->state = why;
    switch_to_scheduler(set, fiber, 0);
}

void cpu_fibers_barrier(struct cc_wg_state *state)
{
    stop(state, AT_BARRIER);
}

void cpu_fibers_sub_group_barrier(struct cc_wg_state *state)
{
    stop(state, AT_SUB_GROUP_BARRIER);
}

/* After an atomic operation: only worth a switch when there is another
 * sub-group to run (a kernel's sub-groups may be of one work-item: its
 * non-uniform sub-group calls, src/compiler/workgroup.c). */
void cpu_fibers_yield(struct cc_wg_state *state)
{
    size_t items = state->local_size[0] * state->local_size[1] * state->local_size[2];
    if (items > state->sub_group_size)
        stop(state, RUNNABLE);
}

uint64_t *cpu_fibers_scratch(struct cpu_fibers *set)
{
    return set->scratch;
}

size_t cpu_fibers_stack_size(void)
{
    return FIBER_STACK;
}

/* The per-work-item values of a kernel split into regions: one buffer per
 * worker, grown to the largest group seen. */
bool cpu_fibers_reserve_context(struct cpu_fibers *set, size_t bytes)
{
    if (bytes <= set->context_size)
        return true;
    size_t size = (bytes + 4095) & ~(size_t)4095;
    void *context = size >= bytes ? aligned_alloc(64, size) : NULL;
    if (!context)
        return false;
    free(set->context);
    set->context = context;
    set->context_size = size;
    return true;
}

void *cpu_fibers_context(struct cc_wg_state *state, size_t bytes)
{
    struct cpu_fibers *set = state->fibers;
    /* The launch made room before its groups ran (pool.c); a launch that
     * did not say how much grows it here, where a group cannot fail. */
    if (!cpu_fibers_reserve_context(set, bytes))
        abort();
    return set->context;
}

/* Every worker's set, for cpu_fibers_pointer_space: a generic pointer may
 * come from another work-group (through global memory) and still point
 * into local or private memory. */
#define MAX_SETS 1024
static struct cpu_fibers *_Atomic all_sets[MAX_SETS];
static _Atomic unsigned num_sets;

void cpu_fibers_set_memory(struct cpu_fibers *set, const void *arena, size_t arena_size,
                           const void *stack, size_t stack_size)
{
    set->arena = arena;
    set->arena_size = arena_size;
    set->stack = stack;
    set->stack_size = stack_size;
    unsigned slot = atomic_fetch_add(&num_sets, 1);
    if (slot < MAX_SETS)
        atomic_store(&all_sets[slot], set);
}

static bool inside(const char *p, const char *start, size_t size)
{
    return start && p >= start && p < start + size;
}

/* The address space of p among one worker's memory, or -1. Fiber stacks
 * and the regions' context only for the running worker: another may be
 * reallocating them (ThreadSanitizer saw the context's pointer and size
 * read while their worker grew it). A pointer into another work-group's
 * context is a work-item's private memory, which no other work-item may
 * use (OpenCL C 6.5.4), so calling it global there loses nothing. */
static int space_in(const struct cpu_fibers *set, const char *p, bool own)
{
    if (inside(p, set->arena, set->arena_size))
        return CC_SPACE_LOCAL;
    if (inside(p, set->stack, set->stack_size) ||
        (own && inside(p, set->context, set->context_size)))
        return CC_SPACE_PRIVATE;
    for (size_t i = 0; own && i < set->capacity; i++)
        if (inside(p, set->fibers[i].stack, FIBER_STACK))
            return CC_SPACE_PRIVATE;
    return -1;
}

/* Where a generic pointer points (OpenCL C 6.5.5): a worker's local arena
 * is local memory; a worker's stack, its fibers' stacks and the regions'
 * per-work-item context hold private memory; anything else is global
 * (buffers, SVM, program-scope variables). The running worker's memory is
 * looked at first; a pointer into another's (handed over through global
 * memory) is classified the same way, but for its context (above). */
int cpu_fibers_pointer_space(struct cc_wg_state *state, const void *pointer)
{
    const char *p = pointer;
    int space = space_in(state->fibers, p, true);
    unsigned n = atomic_load(&num_sets);
    for (unsigned i = 0; i < n && i < MAX_SETS && space < 0; i++) {
        struct cpu_fibers *set = atomic_load(&all_sets[i]);
        if (set && set != state->fibers)
            space = space_in(set, p, false);
    }
    return space < 0 ? CC_SPACE_GLOBAL : space;
}
