/* frontend.h - Clang in process: OpenCL C source -> LLVM module.
 *
 * The one place where the compiler needs C++ (Clang has no C API for its
 * front end); frontend.cpp implements it and nothing else.
 */
#ifndef CPUCL_COMPILER_FRONTEND_H
#define CPUCL_COMPILER_FRONTEND_H

#include <stddef.h>

#include <llvm-c/Core.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Compiles source (length bytes, need not be NUL-terminated) with the given
 * cc1 arguments (no input file among them) into a new module in context.
 * The main file is called "input.cl" in diagnostics; `prelude` (may be
 * NULL) comes before the source, which keeps its own line numbers.
 * Returns 0 and sets
 * *module on success, -1 on a compile error, -2 on bad arguments. *diagnostics
 * gets Clang's diagnostics text (malloc'd, maybe ""; NULL only when out of
 * memory). Thread safe: every call has its own CompilerInstance. */
int cc_frontend_compile(LLVMContextRef context, const char *source, size_t length,
                        const char *prelude, const char *const *args, unsigned num_args,
                        LLVMModuleRef *module, char **diagnostics);

#ifdef __cplusplus
}
#endif
#endif
