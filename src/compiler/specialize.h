/* specialize.h - a work-group function for a kernel's required local size
 * (specialize.cpp). */
#ifndef CPUCL_COMPILER_SPECIALIZE_H
#define CPUCL_COMPILER_SPECIALIZE_H

#include <stdbool.h>
#include <stddef.h>

#include <llvm-c/Core.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Makes the work-group function wg_fn(args, state) run a copy of itself
 * with the local and enqueued local sizes (the 8-byte fields at those
 * offsets of *state, three each) folded to `size` when the group has that
 * size, and itself otherwise, with the enqueued size folded when every
 * launch enqueues `size` (always_enqueued: reqd_work_group_size). */
void cc_specialize_local_size(LLVMValueRef wg_fn, const size_t size[3], bool always_enqueued,
                              size_t local_size_offset, size_t enqueued_offset);

/* Folds the local and enqueued local sizes of wg_fn to `size` in place
 * (a launch's copy, codegen.c), and forbids unrolling its loops. */
void cc_fold_launch_local_size(LLVMValueRef wg_fn, const size_t size[3], size_t local_size_offset,
                               size_t enqueued_offset);

/* Folds the global offset of wg_fn (three 8-byte fields at that offset of
 * *state) to 0 in place: a launch's copy of a launch without one. */
void cc_fold_launch_no_offset(LLVMValueRef wg_fn, size_t global_offset_offset);

#ifdef __cplusplus
}
#endif
#endif
