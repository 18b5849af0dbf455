/* divergent.h - work-item loops around a loop each work-item leaves after
 * its own count, run a vector's width of work-items at a time
 * (divergent.cpp). */
#ifndef CPUCL_COMPILER_DIVERGENT_H
#define CPUCL_COMPILER_DIVERGENT_H

#include <stdbool.h>

#include <llvm-c/Core.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Runs fn's work-item loops around one such loop in chunks of work-items,
 * four vector registers of register_bits (a power of two, at least 128)
 * of the loop's widest state, or eight, interleaved and unmasked, when the
 * loop has the same count for every work-item; returns whether fn changed.
 * Runs inside O3, right before the loop vectorizer (optimize.cpp); keeps
 * no analysis valid. */
bool cc_run_divergent_loops_in_lanes(LLVMValueRef fn, unsigned register_bits);

#ifdef __cplusplus
}
#endif
#endif
