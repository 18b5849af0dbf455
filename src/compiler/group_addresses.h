/* group_addresses.h - work-item addresses counted from the group's first
 * (group_addresses.cpp). */
#ifndef CPUCL_COMPILER_GROUP_ADDRESSES_H
#define CPUCL_COMPILER_GROUP_ADDRESSES_H

#include <stdbool.h>

#include <llvm-c/Core.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Rewrites the addresses `P[A + x]` (P and A the same for every
 * work-item, x the work-item) in fn's innermost work-item loops as
 * `(P + A)[x]`, so that the loop vectorizer keeps interleave groups with
 * gaps; returns whether fn changed. Runs inside O3, right before the loop
 * vectorizer (optimize.cpp); merges straight-line blocks of those loops
 * (their CFG changes, the loops stay). */
bool cc_group_addresses(LLVMValueRef fn);

#ifdef __cplusplus
}
#endif
#endif
