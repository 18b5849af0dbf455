/* half_vectors.c - comparisons and roundings of half vectors done in
 * float.
 *
 * Without AVX-512 FP16, x86 has no half arithmetic: F16C converts 8 lanes
 * between half and float in one instruction, and LLVM 19's x86 back end
 * promotes a vector `fadd`, `fmul` or `fptosi` of half to float as a whole,
 * but it splits `fcmp` and the rounding intrinsics (`llvm.trunc`,
 * `llvm.floor`, ...) of a half vector into a scalar conversion, operation
 * and conversion back per lane: `convert_int_sat(half)` (a trunc and
 * compares) took 10 ms for 4 Mi items where the float one takes 1.
 *
 * Runs at O3's optimizer-last point, after the vectorizer (optimize.cpp),
 * on one function: each such instruction on a half vector becomes the same
 * on float vectors, with fpext of the operands and, for the intrinsics,
 * fptrunc of the result. Exact: every half is a float, a comparison of the
 * floats is the comparison of the halves, and what the intrinsics give
 * (an integer of a half's magnitude, one of the operands, a sign change)
 * is a half again, so the fptrunc does not round.
 */
#include <string.h>

#include "compiler/half_vectors.h"
#include "compiler/optimize.h"

static bool is_half_vector(LLVMTypeRef type)
{
    return LLVMGetTypeKind(type) == LLVMVectorTypeKind &&
           LLVMGetTypeKind(LLVMGetElementType(type)) == LLVMHalfTypeKind;
}

/* The intrinsics whose results on halves are halves exactly. */
static bool is_exact_intrinsic(LLVMValueRef callee)
{
    static const char *const names[] = {"llvm.trunc",     "llvm.floor",     "llvm.ceil",
                                        "llvm.rint",      "llvm.nearbyint", "llvm.round",
                                        "llvm.roundeven", "llvm.minnum",    "llvm.maxnum",
                                        "llvm.minimum",   "llvm.maximum",   "llvm.copysign"};
    unsigned id = callee && LLVMIsAFunction(callee) ? LLVMGetIntrinsicID(callee) : 0;
    for (size_t i = 0; id && i < sizeof names / sizeof names[0]; i++)
        if (id == LLVMLookupIntrinsicID(names[i], strlen(names[i])))
            return true;
    return false;
}

static LLVMTypeRef as_float(LLVMTypeRef type)
{
    return LLVMVectorType(LLVMFloatTypeInContext(LLVMGetTypeContext(type)),
                          LLVMGetVectorSize(type));
}

static void compare_in_float(LLVMBuilderRef b, LLVMValueRef compare)
{
    LLVMPositionBuilderBefore(b, compare);
    LLVMTypeRef real = as_float(LLVMTypeOf(LLVMGetOperand(compare, 0)));
    LLVMValueRef x = LLVMBuildFPExt(b, LLVMGetOperand(compare, 0), real, "");
    LLVMValueRef y = LLVMBuildFPExt(b, LLVMGetOperand(compare, 1), real, "");
    LLVMValueRef result = LLVMBuildFCmp(b, LLVMGetFCmpPredicate(compare), x, y, "");
    if (LLVMIsAInstruction(result))
        LLVMSetFastMathFlags(result, LLVMGetFastMathFlags(compare));
    LLVMReplaceAllUsesWith(compare, result);
    LLVMInstructionEraseFromParent(compare);
}

static void call_in_float(LLVMBuilderRef b, LLVMModuleRef module, LLVMValueRef call)
{
    LLVMPositionBuilderBefore(b, call);
    LLVMTypeRef type = LLVMTypeOf(call), real = as_float(type);
    unsigned id = LLVMGetIntrinsicID(LLVMGetCalledValue(call));
    LLVMValueRef fn = LLVMGetIntrinsicDeclaration(module, id, &real, 1);
    LLVMTypeRef fn_type = LLVMIntrinsicGetType(LLVMGetModuleContext(module), id, &real, 1);
    LLVMValueRef operands[2];
    unsigned count = (unsigned)LLVMGetNumArgOperands(call);
    for (unsigned i = 0; i < count && i < 2; i++)
        operands[i] = LLVMBuildFPExt(b, LLVMGetOperand(call, i), real, "");
    LLVMValueRef result = LLVMBuildCall2(b, fn_type, fn, operands, count, "");
    LLVMReplaceAllUsesWith(call, LLVMBuildFPTrunc(b, result, type, ""));
    LLVMInstructionEraseFromParent(call);
}

bool cc_widen_half_vectors(LLVMValueRef fn)
{
    if (cc_function_has_feature(fn, "avx512fp16"))
        return false;
    LLVMModuleRef module = LLVMGetGlobalParent(fn);
    LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetModuleContext(module));
    bool changed = false;
    for (LLVMBasicBlockRef block = LLVMGetFirstBasicBlock(fn); block;
         block = LLVMGetNextBasicBlock(block)) {
        LLVMValueRef next;
        for (LLVMValueRef inst = LLVMGetFirstInstruction(block); inst; inst = next) {
            next = LLVMGetNextInstruction(inst);
            if (LLVMIsAFCmpInst(inst) && is_half_vector(LLVMTypeOf(LLVMGetOperand(inst, 0)))) {
                compare_in_float(b, inst);
                changed = true;
            } else if (LLVMIsACallInst(inst) && is_half_vector(LLVMTypeOf(inst)) &&
                       is_exact_intrinsic(LLVMGetCalledValue(inst))) {
                call_in_float(b, module, inst);
                changed = true;
            }
        }
    }
    LLVMDisposeBuilder(b);
    return changed;
}
