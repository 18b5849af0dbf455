/* half_vectors.h - comparisons and roundings of half vectors done in
 * float (half_vectors.c). */
#ifndef CPUCL_COMPILER_HALF_VECTORS_H
#define CPUCL_COMPILER_HALF_VECTORS_H

#include <stdbool.h>

#include <llvm-c/Core.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Rewrites each fcmp of half vectors in fn, and each call of a rounding,
 * minimum, maximum or copysign intrinsic on them, as the same on float
 * vectors (exact), unless the target has AVX-512 FP16; returns whether fn
 * changed. Runs after the loop vectorizer (optimize.cpp). */
bool cc_widen_half_vectors(LLVMValueRef fn);

#ifdef __cplusplus
}
#endif
#endif
