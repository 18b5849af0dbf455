/* library.c - linking the built-in function library into a program.
 *
 * Takes the module from the front end, whose builtin calls are declarations
 * of Itanium-mangled names (`_Z3sinf`), and gives it the definitions from
 * the bitcode src/builtins embeds in the driver, compiled for the same
 * x86-64 ABI level as the kernel (cc_host()->abi_cpu). Assumes both were
 * compiled with the same triple and address-space mapping.
 *
 * Cost: the library is large and a kernel uses a handful of its functions,
 * so it is read lazily (only the module-level records are parsed) and all
 * its definitions are given linkonce_odr linkage before linking. The IR
 * linker links a linkonce definition only when the program refers to it, and
 * materialises (parses) only the bodies it links.
 *
 * Afterwards every function of the program gets the host's target-cpu and
 * target-features: the inliner refuses to inline a callee whose features
 * are not a subset of the caller's (COMPILER-NOTES 1), and the kernel and
 * library were compiled for a generic CPU of the host's ABI level.
 */
#include <string.h>

#include <llvm-c/BitReader.h>
#include <llvm-c/Linker.h>

#include "builtins/builtins.h"
#include "compiler/internal.h"

static void set_host_attributes(LLVMModuleRef module, const struct cc_host *host)
{
    LLVMContextRef context = LLVMGetModuleContext(module);
    LLVMAttributeRef cpu =
        LLVMCreateStringAttribute(context, "target-cpu", 10, host->cpu, strlen(host->cpu));
    LLVMAttributeRef features = LLVMCreateStringAttribute(context, "target-features", 15,
                                                          host->features, strlen(host->features));
    for (LLVMValueRef fn = LLVMGetFirstFunction(module); fn; fn = LLVMGetNextFunction(fn)) {
        if (LLVMIsDeclaration(fn))
            continue;
        LLVMRemoveStringAttributeAtIndex(fn, LLVMAttributeFunctionIndex, "tune-cpu", 8);
        LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex, cpu);
        LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex, features);
    }
}

cl_int cc_link_builtins(LLVMModuleRef module, struct cc_log *log)
{
    const struct cc_host *host = cc_host();
    size_t size = 0;
    const void *bitcode = builtins_bitcode(host->abi_cpu, &size);
    if (!bitcode) {
        cc_log_printf(log, "error: no built-in library for %s in this build of cpucl\n",
                      host->abi_cpu);
        return CL_BUILD_PROGRAM_FAILURE;
    }
    LLVMContextRef context = LLVMGetModuleContext(module);
    LLVMMemoryBufferRef buffer =
        LLVMCreateMemoryBufferWithMemoryRange(bitcode, size, "cpucl-builtins", 0);
    LLVMModuleRef library = NULL;
    /* The lazy module owns the buffer (a view of the embedded bytes). */
    if (LLVMGetBitcodeModuleInContext2(context, buffer, &library)) {
        cc_log_printf(log, "error: the built-in library of this build of cpucl is corrupt\n");
        return CL_BUILD_PROGRAM_FAILURE;
    }
    for (LLVMValueRef fn = LLVMGetFirstFunction(library); fn; fn = LLVMGetNextFunction(fn))
        if (!LLVMIsDeclaration(fn) && LLVMGetLinkage(fn) == LLVMExternalLinkage)
            LLVMSetLinkage(fn, LLVMLinkOnceODRLinkage);
    LLVMSetTarget(library, LLVMGetTarget(module));
    LLVMSetDataLayout(library, LLVMGetDataLayoutStr(module));
    /* LLVMLinkModules2 destroys the library module in any case. */
    if (LLVMLinkModules2(module, library)) {
        cc_log_printf(log, "error: linking the built-in library failed\n");
        return CL_BUILD_PROGRAM_FAILURE;
    }
    set_host_attributes(module, host);
    return CL_SUCCESS;
}
