/* loops.h - implicit barriers at the head of uniform inner loops
 * (loops.cpp). */
#ifndef CPUCL_COMPILER_LOOPS_H
#define CPUCL_COMPILER_LOOPS_H

#include <stdbool.h>

#include <llvm-c/Core.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Adds a call of `barrier` (a work-group barrier's declaration, void(i32))
 * with no fence flags at the head of every innermost loop of the
 * work-item function `fn` that all work-items of a group enter and leave
 * alike and whose body gains from running work-items as lanes (loops.cpp
 * says which). `prologue` is fn's entry block of per-group values, as for
 * cc_find_divergent; `is_barrier` tells barrier calls. Returns how many
 * barriers it added; *kept_chains says whether it kept a loop that
 * carries a long chain from unrolling (for scalarizing_pays). */
unsigned cc_add_loop_barriers(LLVMValueRef fn, LLVMBasicBlockRef prologue,
                              bool (*is_barrier)(LLVMValueRef), LLVMValueRef barrier,
                              bool *kept_chains);

/* Whether every vector load and store of the work-item function `fn`
 * reaches the next vector (or the same one) for the next work-item in x. */
bool cc_vector_accesses_follow_lanes(LLVMValueRef fn);

#ifdef __cplusplus
}
#endif
#endif
