/* scalarize.h - vector-typed values of one work-item split into their
 * components (scalarize.cpp). */
#ifndef CPUCL_COMPILER_SCALARIZE_H
#define CPUCL_COMPILER_SCALARIZE_H

#include <llvm-c/Core.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Splits the vector-typed values of the work-item function `fn` into
 * their components (loads, stores, math calls and reinterpretations too),
 * so that its loops over the work-items can be vectorized across them. */
void cc_scalarize_work_items(LLVMValueRef fn);

#ifdef __cplusplus
}
#endif
#endif
