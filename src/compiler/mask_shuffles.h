/* mask_shuffles.h - comparisons moved after the shuffles of their
 * operands, so no vector of i1 is shuffled (mask_shuffles.c). */
#ifndef CPUCL_COMPILER_MASK_SHUFFLES_H
#define CPUCL_COMPILER_MASK_SHUFFLES_H

#include <stdbool.h>

#include <llvm-c/Core.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Rewrites each one-source `shufflevector` of a vector comparison's i1
 * result in fn as the comparison of the shuffled operands, when fn's
 * target keeps masks in AVX-512 mask registers; returns whether fn
 * changed. Runs at O3's optimizer-last point (optimize.cpp). */
bool cc_compare_after_shuffles(LLVMValueRef fn);

#ifdef __cplusplus
}
#endif
#endif
