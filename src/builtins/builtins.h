/* builtins.h - the built-in function library, as the compiler sees it.
 *
 * The library is OpenCL C (the *.cl files here, one per chapter of the
 * OpenCL C specification), compiled at build time by clang-19 into LLVM
 * bitcode and embedded in the driver. It is compiled once per x86-64 ABI
 * level, because the vector calling convention differs between them (see
 * src/compiler/jit.c): "x86-64", "x86-64-v3" (AVX) and "x86-64-v4"
 * (AVX-512).
 */
#ifndef CPUCL_BUILTINS_H
#define CPUCL_BUILTINS_H

#include <stddef.h>

/* The library for one ABI level (a clang -target-cpu name), or NULL: its
 * bitcode cut into parts, with an index of the names each part defines
 * (the container split.cpp describes; src/compiler/library.c reads it). */
const void *builtins_parts(const char *abi_cpu, size_t *size);

/* The SHA-256 of those bytes in hex, computed when cpucl was built (the
 * kernel cache's keys name the library by it), or NULL. */
const char *builtins_identity(const char *abi_cpu);

#endif
