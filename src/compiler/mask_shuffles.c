/* mask_shuffles.c - comparisons moved after the shuffles of their
 * operands, so no vector of i1 is shuffled.
 *
 * A work-item that compares the components of a global float4 (`any(
 * isless(a[i], b[i]))`, `select(x, y, a[i] < b[i])`) reaches the loop
 * vectorizer as four scalar comparisons in an interleaved group: one wide
 * load of <32 x float> per operand, split into components by stride-4
 * shuffles. InstCombine then folds `fcmp (shuffle a, M), (shuffle b, M)`
 * into `shuffle (fcmp a, b), M`: one comparison of the whole group, whose
 * <32 x i1> result is shuffled instead of the floats. With AVX-512 that
 * result lives in mask registers, which have no shuffles: the selector
 * moves each mask to a vector register, permutes it and tests it back,
 * once per component, and the bench's `float4 any(isless(x, y))` ran at
 * 0.54x PoCL (6.7 against 3.7 ms for 4 Mi work-items, the latter the
 * memory's speed).
 *
 * Undoing the fold after the vectorizer (only code generation follows
 * the optimizer-last point, optimize.cpp) shuffles the floats, which
 * vpermt2ps does in one instruction a register, and compares each
 * component on its own. Without AVX-512 a mask is a vector of all-ones
 * or zero lanes and shuffles like any other vector, so the fold stays:
 * undoing it would double the shuffles (one per operand).
 */
#include <stddef.h>

#include "compiler/mask_shuffles.h"
#include "compiler/optimize.h"

/* A shuffle of one comparison's result, the second source unused */
static LLVMValueRef compared(LLVMValueRef inst)
{
    if (!LLVMIsAShuffleVectorInst(inst) || !LLVMIsUndef(LLVMGetOperand(inst, 1)))
        return NULL;
    LLVMTypeRef element = LLVMGetElementType(LLVMTypeOf(inst));
    if (LLVMGetTypeKind(element) != LLVMIntegerTypeKind || LLVMGetIntTypeWidth(element) != 1)
        return NULL;
    LLVMValueRef source = LLVMGetOperand(inst, 0);
    return LLVMIsAICmpInst(source) || LLVMIsAFCmpInst(source) ? source : NULL;
}

static LLVMValueRef mask_of(LLVMValueRef shuffle)
{
    LLVMTypeRef i32 = LLVMInt32TypeInContext(LLVMGetTypeContext(LLVMTypeOf(shuffle)));
    unsigned count = LLVMGetNumMaskElements(shuffle);
    LLVMValueRef elements[64];
    if (count > sizeof elements / sizeof elements[0])
        return NULL;
    for (unsigned i = 0; i < count; i++) {
        int index = LLVMGetMaskValue(shuffle, i);
        elements[i] = index == LLVMGetUndefMaskElem() ? LLVMGetUndef(i32)
                                                      : LLVMConstInt(i32, (unsigned)index, 0);
    }
    return LLVMConstVector(elements, count);
}

static bool compare_after(LLVMBuilderRef b, LLVMValueRef shuffle)
{
    LLVMValueRef compare = compared(shuffle), mask = mask_of(shuffle);
    if (!mask)
        return false;
    LLVMPositionBuilderBefore(b, shuffle);
    LLVMValueRef x = LLVMGetOperand(compare, 0), y = LLVMGetOperand(compare, 1);
    LLVMValueRef left = LLVMBuildShuffleVector(b, x, LLVMGetUndef(LLVMTypeOf(x)), mask, "");
    LLVMValueRef right = LLVMBuildShuffleVector(b, y, LLVMGetUndef(LLVMTypeOf(y)), mask, "");
    LLVMValueRef moved;
    if (LLVMIsAFCmpInst(compare)) {
        moved = LLVMBuildFCmp(b, LLVMGetFCmpPredicate(compare), left, right, "");
        if (LLVMIsAInstruction(moved))
            LLVMSetFastMathFlags(moved, LLVMGetFastMathFlags(compare));
    } else {
        moved = LLVMBuildICmp(b, LLVMGetICmpPredicate(compare), left, right, "");
    }
    LLVMReplaceAllUsesWith(shuffle, moved);
    LLVMInstructionEraseFromParent(shuffle);
    if (!LLVMGetFirstUse(compare))
        LLVMInstructionEraseFromParent(compare);
    return true;
}

bool cc_compare_after_shuffles(LLVMValueRef fn)
{
    if (!cc_function_has_feature(fn, "avx512f"))
        return false;
    LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetTypeContext(LLVMTypeOf(fn)));
    bool changed = false;
    for (LLVMBasicBlockRef block = LLVMGetFirstBasicBlock(fn); block;
         block = LLVMGetNextBasicBlock(block)) {
        LLVMValueRef next;
        for (LLVMValueRef inst = LLVMGetFirstInstruction(block); inst; inst = next) {
            next = LLVMGetNextInstruction(inst);
            if (compared(inst))
                changed = compare_after(b, inst) || changed;
        }
    }
    LLVMDisposeBuilder(b);
    return changed;
}
