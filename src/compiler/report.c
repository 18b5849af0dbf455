/* report.c - what a build tells about its work-group functions once
 * they are optimised: the private memory each uses (CL_KERNEL_PRIVATE_MEM_SIZE)
 * and, under CPUCL_VECTORIZE, whether each was vectorized across its
 * work-items. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/internal.h"

/* Bytes of the static allocas in `fn`'s entry block. */
static size_t entry_allocas(LLVMValueRef fn, LLVMTargetDataRef layout)
{
    size_t total = 0;
    for (LLVMValueRef inst = LLVMGetFirstInstruction(LLVMGetEntryBasicBlock(fn)); inst;
         inst = LLVMGetNextInstruction(inst)) {
        if (!LLVMIsAAllocaInst(inst))
            continue;
        LLVMValueRef count = LLVMGetOperand(inst, 0);
        unsigned long long n = LLVMIsAConstantInt(count) ? LLVMConstIntGetZExtValue(count) : 1;
        total += (size_t)(n * LLVMABISizeOfType(layout, LLVMGetAllocatedType(inst)));
    }
    return total;
}

void cc_measure_private_mem(LLVMModuleRef module, struct cc_kernel_info *kernels,
                            unsigned num_kernels)
{
    LLVMTargetDataRef layout = LLVMGetModuleDataLayout(module);
    for (unsigned i = 0; i < num_kernels; i++) {
        char *name = cc_wg_function_name(kernels[i].name);
        LLVMValueRef fn = name ? LLVMGetNamedFunction(module, name) : NULL;
        free(name);
        if (!fn || LLVMIsDeclaration(fn))
            continue;
        /* Static allocas live in the entry blocks; the work-items reuse
         * them. Every function of the part counts: on fibers the
         * work-items' own function holds the kernel's arrays, and calls not
         * inlined (a region's loops past CPUCL_REGION_FUNCTIONS, library
         * functions run per lane) have frames of their own. */
        size_t total = 0;
        for (LLVMValueRef f = LLVMGetFirstFunction(module); f; f = LLVMGetNextFunction(f))
            if (!LLVMIsDeclaration(f))
                total += entry_allocas(f, layout);
        /* on top of what regions keep per work-item across barriers */
        kernels[i].private_mem_size += total;
        kernels[i].stack_size = total;
    }
}

/* Whether a loop ID (llvm.loop metadata) says the loop vectorizer did it. */
static bool says_vectorized(LLVMValueRef loop_id)
{
    unsigned n = LLVMGetMDNodeNumOperands(loop_id);
    LLVMValueRef *operands = malloc((n ? n : 1) * sizeof *operands);
    bool found = false;
    if (!operands)
        return false;
    LLVMGetMDNodeOperands(loop_id, operands);
    for (unsigned i = 0; i < n && !found; i++) {
        unsigned count =
            operands[i] && LLVMIsAMDNode(operands[i]) ? LLVMGetMDNodeNumOperands(operands[i]) : 0;
        LLVMValueRef *inner = count ? malloc(count * sizeof *inner) : NULL;
        if (!inner)
            continue;
        LLVMGetMDNodeOperands(operands[i], inner);
        unsigned length = 0;
        const char *text = inner[0] ? LLVMGetMDString(inner[0], &length) : NULL;
        found = text && length == 22 && !memcmp(text, "llvm.loop.isvectorized", 22);
        free(inner);
    }
    free(operands);
    return found;
}

void cc_report_vectorization(LLVMModuleRef module, const struct cc_kernel_info *kernels,
                             unsigned num_kernels)
{
    unsigned loop_kind = LLVMGetMDKindIDInContext(LLVMGetModuleContext(module), "llvm.loop", 9);
    for (unsigned k = 0; k < num_kernels; k++) {
        char *name = cc_wg_function_name(kernels[k].name);
        LLVMValueRef fn = name ? LLVMGetNamedFunction(module, name) : NULL;
        free(name);
        if (!fn)
            continue;
        bool vectorized = false;
        unsigned widest = 1;
        char widest_type[64] = "";
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
            for (LLVMValueRef inst = LLVMGetFirstInstruction(bb); inst;
                 inst = LLVMGetNextInstruction(inst)) {
                LLVMValueRef loop =
                    LLVMIsATerminatorInst(inst) ? LLVMGetMetadata(inst, loop_kind) : NULL;
                if (loop && says_vectorized(loop))
                    vectorized = true;
                LLVMTypeRef type = LLVMTypeOf(inst);
                if (LLVMGetTypeKind(type) != LLVMVectorTypeKind)
                    continue;
                LLVMTypeRef element = LLVMGetElementType(type);
                if (LLVMGetTypeKind(element) == LLVMIntegerTypeKind &&
                    LLVMGetIntTypeWidth(element) == 1)
                    continue; /* masks */
                if (LLVMGetVectorSize(type) > widest) {
                    widest = LLVMGetVectorSize(type);
                    LLVMTypeKind kind = LLVMGetTypeKind(element);
                    if (kind == LLVMIntegerTypeKind)
                        snprintf(widest_type, sizeof widest_type, "<%u x i%u>", widest,
                                 LLVMGetIntTypeWidth(element));
                    else
                        snprintf(widest_type, sizeof widest_type, "<%u x %s>", widest,
                                 kind == LLVMFloatTypeKind    ? "float"
                                 : kind == LLVMDoubleTypeKind ? "double"
                                 : kind == LLVMHalfTypeKind   ? "half"
                                                              : "ptr");
                }
            }
        fprintf(stderr, "cpucl: kernel %s: %s across work-items; widest vector %s\n",
                kernels[k].name, vectorized ? "vectorized" : "not vectorized",
                widest > 1 ? widest_type : "none");
    }
}
