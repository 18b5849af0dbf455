/* parallel.h - work-item loops the vectorizer may treat as parallel
 * (parallel.cpp). */
#ifndef CPUCL_COMPILER_PARALLEL_H
#define CPUCL_COMPILER_PARALLEL_H

#include <stdbool.h>

#include <llvm-c/Core.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Marks the loop whose latch ends in the branch `latch` as one whose
 * iterations are independent: the `count` instructions in `accesses` (calls
 * included: inlining hands their access group to what they bring) join a
 * new access group that the loop's llvm.loop.parallel_accesses names. */
void cc_mark_parallel_loop(LLVMValueRef latch, LLVMValueRef *accesses, unsigned count);
/* The same for several loops that share the accesses (copies of one
 * body): one access group, a loop ID each. Every work-item loop is marked
 * not to interleave (parallel.cpp says why). */
void cc_mark_parallel_loops(LLVMValueRef *latches, unsigned num_latches, LLVMValueRef *accesses,
                            unsigned count);

/* Keeps the loop unroller from unrolling the loop whose latch ends in the
 * branch `latch` (a work-item loop of the y or z dimension). */
void cc_no_runtime_unroll(LLVMValueRef latch);

/* Whether a loop ID (the latch's !llvm.loop, NULL for none) carries the
 * work-item loops' mark, which inlining and loop passes copy with the
 * loop: how passes inside O3 (narrow.cpp, optimize.cpp) find them. */
bool cc_is_work_item_loop(LLVMMetadataRef loop_id);

#ifdef __cplusplus
}
#endif
#endif
