/* parts.h - a program's module cut into one module per work-group
 * function plus one for its mutable globals (parts.cpp). */
#ifndef CPUCL_COMPILER_PARTS_H
#define CPUCL_COMPILER_PARTS_H

#include <stdbool.h>
#include <stddef.h>

#include <llvm-c/Core.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What every name a program exports ends in, in the module and the object
 * file; loading replaces it with the program's serial number, in hex of
 * the same width (build.c). */
#define CC_SERIAL_PLACEHOLDER "0000000000000000"

/* The name of the program's shared (mutable) global number `index`. */
void cc_shared_name(unsigned index, char *out, size_t size);

/* Renames the module's mutable globals to their shared names, then writes
 * `count` + 1 bitcode modules (malloc'd): bitcodes[i] holds the function
 * named roots[i] with what it reaches, bitcodes[count] the mutable globals
 * (NULL when there are none, *num_shared = 0). False when out of memory or
 * a root is missing. */
bool cc_split_module(LLVMModuleRef module, const char *const *roots, unsigned count,
                     void **bitcodes, size_t *sizes, unsigned *num_shared);

#ifdef __cplusplus
}
#endif
#endif
