/* constant_arrays.h - private arrays that hold constants made constant
 * globals (constant_arrays.cpp). */
#ifndef CPUCL_COMPILER_CONSTANT_ARRAYS_H
#define CPUCL_COMPILER_CONSTANT_ARRAYS_H

#include <llvm-c/Core.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Replaces each private array of the work-item function `fn` that is only
 * ever filled with constants (a Sobel mask, `float m[3][3] = {...}`),
 * before anything reads it, by one constant global; returns how many. */
unsigned cc_share_constant_arrays(LLVMValueRef fn);

#ifdef __cplusplus
}
#endif
#endif
