/* int64_vectors.h - vectors of 64-bit integers divided and converted in
 * double when every lane allows it (int64_vectors.cpp). */
#ifndef CPUCL_COMPILER_INT64_VECTORS_H
#define CPUCL_COMPILER_INT64_VECTORS_H

#include <stdbool.h>

#include <llvm-c/Core.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Gives every sdiv/udiv/srem/urem of an i64 vector in fn whose divisor is
 * not a constant, and (without AVX-512DQ) every conversion between i64
 * vectors and float or double vectors, a branch to an exact computation
 * in double, taken when every lane is within 2^51; returns whether fn
 * changed. Runs after the loop vectorizer (optimize.cpp), after division.c
 * made divisors nonzero. */
bool cc_lower_int64_vectors(LLVMValueRef fn);

#ifdef __cplusplus
}
#endif
#endif
