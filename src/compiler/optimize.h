/* optimize.h - LLVM's O3 pipeline with cpucl's own passes in it
 * (optimize.cpp). */
#ifndef CPUCL_COMPILER_OPTIMIZE_H
#define CPUCL_COMPILER_OPTIMIZE_H

#include <stdbool.h>

#include <llvm-c/Error.h>
#include <llvm-c/TargetMachine.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Runs default<O3> on module for machine, with narrow.cpp's pass and the
 * width of some loops before the loop vectorizer and int64_vectors.cpp's
 * pass at the end, or default<O0> when !optimize (-cl-opt-disable). NULL
 * on success, else the pipeline's error. */
LLVMErrorRef cc_optimize(LLVMModuleRef module, LLVMTargetMachineRef machine, bool optimize);

/* Whether fn's "target-features" attribute turns `feature` on ("avx512dq"
 * for "+avx512dq"): what the passes above ask before relying on an
 * instruction LLVM's x86 back end would otherwise expand. */
bool cc_function_has_feature(LLVMValueRef fn, const char *feature);

#ifdef __cplusplus
}
#endif
#endif
