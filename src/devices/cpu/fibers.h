/* fibers.h - work-items on their own stacks, for kernels with barriers
 * (internal to src/devices/cpu). */
#ifndef CPUCL_DEVICES_CPU_FIBERS_H
#define CPUCL_DEVICES_CPU_FIBERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "compiler/compiler.h"

struct cpu_fibers;

/* Bytes of each fiber's stack. */
size_t cpu_fibers_stack_size(void);

/* One a worker; NULL when out of memory. */
struct cpu_fibers *cpu_fibers_create(void);
/* The cc_wg_state callbacks: state->fibers is the worker's cpu_fibers. */
void cpu_fibers_run(struct cc_wg_state *state, cc_wi_fn item, const void *args);
void cpu_fibers_barrier(struct cc_wg_state *state);
void cpu_fibers_sub_group_barrier(struct cc_wg_state *state);
void cpu_fibers_yield(struct cc_wg_state *state);
uint64_t *cpu_fibers_scratch(struct cpu_fibers *set);
/* Grows the set's buffer for cpu_fibers_context to at least `bytes`;
 * false when out of memory (the buffer stays as it was). */
bool cpu_fibers_reserve_context(struct cpu_fibers *set, size_t bytes);
void *cpu_fibers_context(struct cc_wg_state *state, size_t bytes);
/* The worker's local arena and thread stack, for cpu_fibers_pointer_space. */
void cpu_fibers_set_memory(struct cpu_fibers *set, const void *arena, size_t arena_size,
                           const void *stack, size_t stack_size);
int cpu_fibers_pointer_space(struct cc_wg_state *state, const void *pointer);

#endif
