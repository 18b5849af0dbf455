/* half.c - the double -> half conversion the JIT binds in place of libgcc's.
 *
 * x86 has no instruction for double -> half (F16C converts float only), so
 * LLVM lowers `fptrunc double to half` -- the casts `(half)d`, the default
 * `convert_half*(double*)`, the first step of the directed ones -- to a
 * call of __truncdfhf2. libgcc's reads and raises the exception flags
 * through the x87 and SSE environments: about 20 ns a call here, against
 * 1-2 ns for the integer rounding below. The JIT defines the name with this
 * function (cc_half_symbols), as it defines lgamma with lanes.c's.
 *
 * The conversion rounds to nearest even, the rounding of a conversion to
 * floating point (OpenCL C 2.0, 6.2.3.2); kernels never run in another
 * rounding mode, so no environment is read. Overflow gives infinity, a
 * result below half's smallest subnormal rounds to a signed zero, NaNs stay
 * NaN (quiet, with the payload's top bits).
 */
#include <stdint.h>
#include <string.h>

#include "compiler/internal.h"

static uint16_t half_bits(double value)
{
    uint64_t bits;
    memcpy(&bits, &value, sizeof bits);
    uint16_t sign = (uint16_t)(bits >> 48 & 0x8000);
    uint64_t magnitude = bits & ~(UINT64_C(1) << 63);
    if (magnitude > UINT64_C(0x7ff0000000000000)) /* NaN */
        return sign | 0x7e00 | (uint16_t)(magnitude >> 42 & 0x3ff);
    if (magnitude >= UINT64_C(0x40f0000000000000)) /* 2^16 and above, infinity */
        return sign | 0x7c00;
    int exponent = (int)(magnitude >> 52); /* biased by 1023 */
    uint64_t mantissa;
    int shift;
    if (exponent >= 1023 - 14) {
        /* a normal half: rebias the exponent field from 1023 to 15 and keep
         * the top 10 bits of the fraction; a carry out of the fraction
         * steps the exponent, up to infinity past 65504 (65520 and above) */
        mantissa = magnitude - (UINT64_C(1008) << 52);
        shift = 42;
    } else if (exponent >= 1023 - 25) {
        /* a subnormal half counts units of 2^-24: the significand, implicit
         * bit included, shifted by 42 plus how far below 2^-14 it lies */
        mantissa = (magnitude & ((UINT64_C(1) << 52) - 1)) | UINT64_C(1) << 52;
        shift = 42 + (1023 - 14) - exponent;
    } else {
        return sign; /* below 2^-25, half of the smallest subnormal */
    }
    uint64_t kept = mantissa >> shift;
    uint64_t rest = mantissa & ((UINT64_C(1) << shift) - 1);
    uint64_t halfway = UINT64_C(1) << (shift - 1);
    kept += rest > halfway || (rest == halfway && (kept & 1));
    return sign | (uint16_t)kept;
}

/* __truncdfhf2's ABI on x86-64 (LLVM 15 and later, GCC 12): the double in
 * xmm0, the half returned in xmm0's low 16 bits, which is _Float16's. */
static _Float16 truncdfhf2(double value)
{
    uint16_t bits = half_bits(value);
    _Float16 half;
    memcpy(&half, &bits, sizeof half);
    return half;
}

static const struct cc_runtime_symbol symbols[] = {
    {"__truncdfhf2", (void *)truncdfhf2},
};

const struct cc_runtime_symbol *cc_half_symbols(unsigned *count)
{
    *count = sizeof symbols / sizeof symbols[0];
    return symbols;
}

/* --- double -> half in vector registers ---
 *
 * The call above is still one a lane, so a work-item loop of (half)d,
 * convert_half(double) or vstore_half(double) vectorized around a
 * scalar call. cc_lower_double_to_half, run on the linked module before the
 * work-group functions are made, rewrites every `fptrunc double to half`
 * (scalar or vector) as double -> float rounded to odd, then float -> half,
 * which F16C does in vector registers: the nearest float, stepped toward
 * zero when it lies beyond the double, with its last bit set when it is
 * not exact. Float's 24 bits against half's 11 make the second rounding
 * the correct one (an innocuous double rounding, p' >= 2p + 2); a double
 * beyond float's range becomes FLT_MAX or inf, and one below it float's
 * smallest subnormal, which round to half as the double would; NaNs keep
 * their payload's top bits. */
static LLVMValueRef splat(LLVMTypeRef type, LLVMValueRef scalar)
{
    if (LLVMGetTypeKind(type) != LLVMVectorTypeKind)
        return scalar;
    unsigned lanes = LLVMGetVectorSize(type);
    LLVMValueRef elements[64];
    for (unsigned i = 0; i < lanes && i < 64; i++)
        elements[i] = scalar;
    return LLVMConstVector(elements, lanes);
}

static LLVMTypeRef like(LLVMTypeRef shape, LLVMTypeRef element)
{
    return LLVMGetTypeKind(shape) == LLVMVectorTypeKind
               ? LLVMVectorType(element, LLVMGetVectorSize(shape))
               : element;
}

static void lower_one(LLVMModuleRef module, LLVMBuilderRef b, LLVMValueRef inst)
{
    LLVMContextRef context = LLVMGetModuleContext(module);
    LLVMValueRef value = LLVMGetOperand(inst, 0);
    LLVMTypeRef doubles = LLVMTypeOf(value), halves = LLVMTypeOf(inst);
    LLVMTypeRef floats = like(doubles, LLVMFloatTypeInContext(context));
    LLVMTypeRef words = like(doubles, LLVMInt32TypeInContext(context));
    unsigned fabs_id = LLVMLookupIntrinsicID("llvm.fabs", 9);
    LLVMValueRef fabs_fn = LLVMGetIntrinsicDeclaration(module, fabs_id, &doubles, 1);
    LLVMTypeRef fabs_type = LLVMIntrinsicGetType(context, fabs_id, &doubles, 1);
    LLVMValueRef one = splat(words, LLVMConstInt(LLVMInt32TypeInContext(context), 1, 0));

    LLVMPositionBuilderBefore(b, inst);
    LLVMValueRef nearest = LLVMBuildFPTrunc(b, value, floats, "");
    LLVMValueRef back = LLVMBuildFPExt(b, nearest, doubles, "");
    LLVMValueRef back_magnitude = LLVMBuildCall2(b, fabs_type, fabs_fn, &back, 1, "");
    LLVMValueRef magnitude = LLVMBuildCall2(b, fabs_type, fabs_fn, &value, 1, "");
    LLVMValueRef beyond = LLVMBuildFCmp(b, LLVMRealOGT, back_magnitude, magnitude, "");
    LLVMValueRef bits = LLVMBuildBitCast(b, nearest, words, "");
    bits = LLVMBuildSelect(b, beyond, LLVMBuildSub(b, bits, one, ""), bits, "");
    LLVMValueRef inexact = LLVMBuildFCmp(b, LLVMRealUNE, back, value, "");
    bits = LLVMBuildSelect(b, inexact, LLVMBuildOr(b, bits, one, ""), bits, "");
    LLVMValueRef odd = LLVMBuildBitCast(b, bits, floats, "");
    LLVMValueRef result = LLVMBuildFPTrunc(b, odd, halves, "to_half");
    LLVMReplaceAllUsesWith(inst, result);
    LLVMInstructionEraseFromParent(inst);
}

static bool is_double_to_half(LLVMValueRef inst)
{
    if (LLVMGetInstructionOpcode(inst) != LLVMFPTrunc)
        return false;
    LLVMTypeRef from = LLVMTypeOf(LLVMGetOperand(inst, 0)), to = LLVMTypeOf(inst);
    if (LLVMGetTypeKind(from) == LLVMVectorTypeKind) {
        if (LLVMGetVectorSize(from) > 64)
            return false;
        from = LLVMGetElementType(from);
        to = LLVMGetElementType(to);
    }
    return LLVMGetTypeKind(from) == LLVMDoubleTypeKind && LLVMGetTypeKind(to) == LLVMHalfTypeKind;
}

cl_int cc_lower_double_to_half(LLVMModuleRef module)
{
    LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetModuleContext(module));
    if (!b)
        return CL_OUT_OF_HOST_MEMORY;
    for (LLVMValueRef fn = LLVMGetFirstFunction(module); fn; fn = LLVMGetNextFunction(fn))
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb)) {
            LLVMValueRef next;
            for (LLVMValueRef inst = LLVMGetFirstInstruction(bb); inst; inst = next) {
                next = LLVMGetNextInstruction(inst);
                if (is_double_to_half(inst))
                    lower_one(module, b, inst);
            }
        }
    LLVMDisposeBuilder(b);
    return CL_SUCCESS;
}
