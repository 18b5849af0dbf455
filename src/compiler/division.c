/* division.c - integer division that never traps.
 *
 * OpenCL C 2.0 6.3 (b): integer division or remainder by zero gives an
 * undefined value, not undefined behaviour, and the minimum signed value
 * divided by -1 likewise. x86's div and idiv raise a divide error (SIGFPE)
 * for both, which would kill the application's process, so every
 * division and remainder whose divisor is not a constant known to be safe
 * gets a divisor of 1 in those cases:
 *
 *   x / 0 and x % 0 -> x / 1 = x and x % 1 = 0 (any value would do)
 *   MIN / -1        -> MIN / 1 = MIN, the wrapped negation
 *   MIN % -1        -> MIN % 1 = 0, the true remainder
 *
 * Runs on the whole module after the built-in library is linked, on
 * scalars and vectors alike (select works lane by lane), before O3, which
 * then keeps the checks it cannot prove unneeded.
 */
#include <stdlib.h>
#include <string.h>

#include "compiler/internal.h"

/* `lane` in every lane of `type` (a scalar type, or a vector of lane's). */
static LLVMValueRef splat_lane(LLVMTypeRef type, LLVMValueRef lane)
{
    if (LLVMGetTypeKind(type) != LLVMVectorTypeKind)
        return lane;
    unsigned lanes = LLVMGetVectorSize(type);
    LLVMValueRef *all = malloc(lanes * sizeof *all);
    if (!all)
        return NULL;
    for (unsigned i = 0; i < lanes; i++)
        all[i] = lane;
    LLVMValueRef vector = LLVMConstVector(all, lanes);
    free(all);
    return vector;
}

static LLVMTypeRef lane_type(LLVMTypeRef type)
{
    return LLVMGetTypeKind(type) == LLVMVectorTypeKind ? LLVMGetElementType(type) : type;
}

/* `value` in every lane of `type` (an integer or a vector of them). */
static LLVMValueRef splat(LLVMTypeRef type, unsigned long long value, bool sign_extend)
{
    return splat_lane(type, LLVMConstInt(lane_type(type), value, sign_extend));
}

/* Whether the constant `divisor` is safe: no lane is 0, and for a signed
 * operation no lane is -1. Non-constant divisors are not. */
static bool safe_constant(LLVMValueRef divisor, bool is_signed)
{
    if (LLVMIsAConstantInt(divisor)) {
        long long value = LLVMConstIntGetSExtValue(divisor);
        return value != 0 && !(is_signed && value == -1);
    }
    if (LLVMIsAConstantDataVector(divisor) || LLVMIsAConstantVector(divisor)) {
        unsigned lanes = LLVMGetVectorSize(LLVMTypeOf(divisor));
        for (unsigned i = 0; i < lanes; i++) {
            LLVMValueRef lane = LLVMGetAggregateElement(divisor, i);
            if (!lane || !safe_constant(lane, is_signed))
                return false;
        }
        return true;
    }
    return false;
}

static bool guard(LLVMBuilderRef b, LLVMValueRef inst, bool is_signed)
{
    LLVMValueRef dividend = LLVMGetOperand(inst, 0), divisor = LLVMGetOperand(inst, 1);
    if (safe_constant(divisor, is_signed))
        return true;
    LLVMTypeRef type = LLVMTypeOf(divisor);
    unsigned bits = LLVMGetIntTypeWidth(lane_type(type));
    LLVMValueRef zero = LLVMConstNull(type), one = splat(type, 1, false);
    if (!one)
        return false;
    LLVMPositionBuilderBefore(b, inst);
    LLVMValueRef bad = LLVMBuildICmp(b, LLVMIntEQ, divisor, zero, "div.zero");
    if (is_signed) {
        LLVMValueRef minimum = splat(type, bits >= 64 ? 1ull << 63 : 1ull << (bits - 1), false);
        if (!minimum)
            return false;
        LLVMValueRef minus_one = LLVMBuildICmp(b, LLVMIntEQ, divisor, LLVMConstAllOnes(type), "");
        LLVMValueRef is_min = LLVMBuildICmp(b, LLVMIntEQ, dividend, minimum, "");
        bad = LLVMBuildOr(b, bad, LLVMBuildAnd(b, minus_one, is_min, ""), "div.overflow");
    }
    LLVMSetOperand(inst, 1, LLVMBuildSelect(b, bad, one, divisor, "div.safe"));
    return true;
}

/* Whether fn is compiled with "unsafe-fp-math" (-cl-fast-relaxed-math,
 * -cl-unsafe-math-optimizations): LLVM's instruction selector then turns
 * divisions by one divisor in a block into one reciprocal and
 * multiplications by it (whatever the instructions' own flags), whose
 * rounding can put a quotient just below the integer it should be: 197 /
 * 197 gave 0. */
static bool unsafe_fp_math(LLVMValueRef fn)
{
    LLVMAttributeRef attribute = LLVMGetStringAttributeAtIndex(
        fn, (LLVMAttributeIndex)LLVMAttributeFunctionIndex, "unsafe-fp-math", 14);
    unsigned length = 0;
    const char *value = attribute ? LLVMGetStringAttributeValue(attribute, &length) : NULL;
    return value && length == 4 && !memcmp(value, "true", 4);
}

/* llvm.<name> of x (a unary intrinsic overloaded on x's type) */
static LLVMValueRef unary_intrinsic(LLVMBuilderRef b, LLVMModuleRef module, const char *name,
                                    LLVMValueRef x)
{
    LLVMTypeRef type = LLVMTypeOf(x);
    unsigned id = LLVMLookupIntrinsicID(name, strlen(name));
    LLVMValueRef fn = LLVMGetIntrinsicDeclaration(module, id, &type, 1);
    LLVMTypeRef fn_type = LLVMIntrinsicGetType(LLVMGetModuleContext(module), id, &type, 1);
    return LLVMBuildCall2(b, fn_type, fn, &x, 1, "");
}

/* x `pred` 0 for a floating-point value or vector */
static LLVMValueRef compare_zero(LLVMBuilderRef b, LLVMRealPredicate pred, LLVMValueRef x)
{
    return LLVMBuildFCmp(b, pred, x, LLVMConstNull(LLVMTypeOf(x)), "");
}

/* A quotient q = trunc(a / b) in floating point that may be one away from
 * the integer quotient (the division's rounding once a reciprocal stands
 * in for it: the error is a few ulps, far below 1), moved to it: the
 * remainder r = a - q b is exact (|q b| <= |a| + |b| is an integer well
 * inside the type's precision); q is one too far from zero when r is not
 * 0 and its sign differs from a's, one too near when |r| >= |b|. NULL
 * when out of memory. */
static LLVMValueRef correct_quotient(LLVMBuilderRef b, LLVMModuleRef module, LLVMValueRef q,
                                     LLVMValueRef a, LLVMValueRef d)
{
    LLVMTypeRef real = LLVMTypeOf(q);
    LLVMValueRef r = LLVMBuildFSub(b, a, LLVMBuildFMul(b, q, d, ""), "");
    LLVMValueRef negative =
        LLVMBuildXor(b, compare_zero(b, LLVMRealOLT, a), compare_zero(b, LLVMRealOLT, d), "");
    LLVMValueRef minus_one = splat_lane(real, LLVMConstReal(lane_type(real), -1.0));
    LLVMValueRef one = splat_lane(real, LLVMConstReal(lane_type(real), 1.0));
    if (!minus_one || !one)
        return NULL;
    LLVMValueRef step = LLVMBuildSelect(b, negative, minus_one, one, "");
    LLVMValueRef past = LLVMBuildOr(
        b, LLVMBuildAnd(b, compare_zero(b, LLVMRealOLT, r), compare_zero(b, LLVMRealOGT, a), ""),
        LLVMBuildAnd(b, compare_zero(b, LLVMRealOGT, r), compare_zero(b, LLVMRealOLT, a), ""), "");
    LLVMValueRef short_of =
        LLVMBuildFCmp(b, LLVMRealOGE, unary_intrinsic(b, module, "llvm.fabs", r),
                      unary_intrinsic(b, module, "llvm.fabs", d), "");
    LLVMValueRef zero = LLVMConstNull(real);
    q = LLVMBuildFSub(b, q, LLVMBuildSelect(b, past, step, zero, ""), "");
    return LLVMBuildFAdd(b, q, LLVMBuildSelect(b, short_of, step, zero, ""), "div.q.corrected");
}

/* A division or remainder of integers of at most 32 bits by a divisor that
 * is not a constant (LLVM turns those into multiplications) becomes one in
 * floating point: x86 has no vector integer division, so the loop
 * vectorizer would leave a work-item loop with an integer division scalar,
 * where a floating-point one vectorizes. It is exact: the quotient's
 * distance to the next integer is at least 1/|b|, relative 1/|a|, more
 * than the division's rounding error (2^-53 in double for 32 bits, 2^-24
 * in float for 16 bits), so truncating it gives the integer quotient; the
 * remainder is a - q b. Under "unsafe-fp-math" the quotient is corrected
 * (correct_quotient). Runs after guard(): no zero divisor, no MIN / -1. */
static bool divide_in_floating_point(LLVMBuilderRef b, LLVMModuleRef module, bool correct,
                                     LLVMValueRef inst, LLVMOpcode op)
{
    LLVMValueRef dividend = LLVMGetOperand(inst, 0), divisor = LLVMGetOperand(inst, 1);
    LLVMTypeRef type = LLVMTypeOf(inst);
    bool vector = LLVMGetTypeKind(type) == LLVMVectorTypeKind;
    unsigned bits = LLVMGetIntTypeWidth(lane_type(type));
    if (bits > 32)
        return true;
    LLVMContextRef context = LLVMGetTypeContext(type);
    LLVMTypeRef real =
        bits <= 16 ? LLVMFloatTypeInContext(context) : LLVMDoubleTypeInContext(context);
    if (vector)
        real = LLVMVectorType(real, LLVMGetVectorSize(type));
    bool is_signed = op == LLVMSDiv || op == LLVMSRem;
    LLVMPositionBuilderBefore(b, inst);
    LLVMValueRef a =
        is_signed ? LLVMBuildSIToFP(b, dividend, real, "") : LLVMBuildUIToFP(b, dividend, real, "");
    LLVMValueRef d =
        is_signed ? LLVMBuildSIToFP(b, divisor, real, "") : LLVMBuildUIToFP(b, divisor, real, "");
    LLVMValueRef ratio = LLVMBuildFDiv(b, a, d, "");
    if (correct && !(ratio = correct_quotient(
                         b, module, unary_intrinsic(b, module, "llvm.trunc", ratio), a, d)))
        return false;
    LLVMValueRef q = is_signed ? LLVMBuildFPToSI(b, ratio, type, "div.q")
                               : LLVMBuildFPToUI(b, ratio, type, "div.q");
    LLVMValueRef result = op == LLVMSDiv || op == LLVMUDiv
                              ? q
                              : LLVMBuildSub(b, dividend, LLVMBuildMul(b, q, divisor, ""), "div.r");
    LLVMReplaceAllUsesWith(inst, result);
    LLVMInstructionEraseFromParent(inst);
    return true;
}

cl_int cc_guard_division(LLVMModuleRef module)
{
    LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetModuleContext(module));
    if (!b)
        return CL_OUT_OF_HOST_MEMORY;
    bool ok = true;
    for (LLVMValueRef fn = LLVMGetFirstFunction(module); fn && ok; fn = LLVMGetNextFunction(fn)) {
        bool correct = unsafe_fp_math(fn);
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb && ok;
             bb = LLVMGetNextBasicBlock(bb)) {
            LLVMValueRef next;
            for (LLVMValueRef inst = LLVMGetFirstInstruction(bb); inst && ok; inst = next) {
                next = LLVMGetNextInstruction(inst);
                LLVMOpcode op = LLVMGetInstructionOpcode(inst);
                if (op != LLVMSDiv && op != LLVMSRem && op != LLVMUDiv && op != LLVMURem)
                    continue;
                bool constant = LLVMIsConstant(LLVMGetOperand(inst, 1));
                ok = guard(b, inst, op == LLVMSDiv || op == LLVMSRem);
                if (ok && !constant)
                    ok = divide_in_floating_point(b, module, correct, inst, op);
            }
        }
    }
    LLVMDisposeBuilder(b);
    return ok ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY;
}
