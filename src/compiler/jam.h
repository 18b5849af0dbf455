/* jam.h - several work-items' inner loops of the same count run as one
 * (jam.cpp). */
#ifndef CPUCL_COMPILER_JAM_H
#define CPUCL_COMPILER_JAM_H

#include <stdbool.h>

#include <llvm-c/Core.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Jams fn's work-item loops around one inner loop of a count the same for
 * every work-item that sums in floating point (scalars or vectors, which
 * take registers of register_bits; registers: how many vector registers
 * the target has); returns whether fn changed. Runs
 * inside O3, right before the loop vectorizer, after divergent.cpp
 * (optimize.cpp); keeps no analysis valid. */
bool cc_jam_loops(LLVMValueRef fn, unsigned register_bits, unsigned registers);

#ifdef __cplusplus
}
#endif
#endif
