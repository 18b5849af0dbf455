/* narrow.h - work-item loops cut at the work-items their guard selects
 * (narrow.cpp). */
#ifndef CPUCL_COMPILER_NARROW_H
#define CPUCL_COMPILER_NARROW_H

#include <stdbool.h>

#include <llvm-c/Core.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Narrows fn's innermost work-item loops (parallel.cpp's mark) by one
 * guard each; returns whether fn changed. Runs inside O3, right before
 * the loop vectorizer (optimize.cpp); keeps no analysis valid. */
bool cc_narrow_loops(LLVMValueRef fn);

#ifdef __cplusplus
}
#endif
#endif
