// int64_vectors.cpp - vectors of 64-bit integers divided and converted in
// double when every lane allows it.
//
// x86 has no vector integer division, and before AVX-512DQ no conversion
// between 64-bit integers and floating point either; LLVM scalarizes
// `udiv <4 x i64>` into a `div` a lane and `sitofp <8 x i64>` into eight
// `cvtsi2ss`, with the extracts and inserts around them. Index arithmetic
// is 64-bit in OpenCL C (`get_global_id(0) / width`, `(float)i`), so a
// work-item loop with it either ran scalar (the cost model prices the
// scalarized division above what vectorizing saves; optimize.cpp's
// WidthPass now sets those loops' width) or spent most of its time in the
// scalarized lanes. division.c's floating-point division, exact for up to
// 32 bits, runs before O3 and leaves 64-bit division alone.
//
// This pass runs at O3's optimizer-last point: after the vectorizer,
// nothing but code generation follows. Each such vector instruction gets
// a fast path, taken when every lane is small enough, and keeps the
// original instruction for the rest:
//
//   sdiv, srem    dividend and divisor in [-2^51, 2^51)   q = trunc(a / b),
//   udiv, urem    dividend and divisor in [0, 2^51)       r = a - q b
//   sitofp        [-2^51, 2^51)       exact in double, then rounded once
//   uitofp        [0, 2^51)           (fptrunc) when the result is float
//   fptosi/fptoui |x| < 2^51          trunc(x)
//
// (the conversions only without AVX-512DQ, which has them). Exact: those
// integers convert to double exactly; the quotient's distance to the next
// integer away from zero is at least 1/|b|, more than the division's
// rounding error |a/b| 2^-53 when |a| < 2^53, so truncating the rounded
// quotient gives the integer one; q b is an integer of magnitude at most
// |a|, so the product and the difference are exact. An integer in that
// range goes to double and back through the bits of 1.5 * 2^52 + x, whose
// mantissa holds it: an integer add and a subtraction in, the reverse out.
// division.c has already replaced a zero divisor (and MIN / -1) by 1.
//
// Each fast path has its own block: the instruction selector works a block
// at a time, so no two divisions share a divisor there, which under
// "unsafe-fp-math" (-cl-fast-relaxed-math) would let it divide once and
// multiply by the reciprocal, which is not exact.
#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/MDBuilder.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>

#include "compiler/int64_vectors.h"
#include "compiler/optimize.h"

namespace
{

constexpr uint64_t MAGIC_BITS = 0x4338000000000000ull; // 1.5 * 2^52
constexpr double MAGIC = 0x1.8p52;
constexpr uint64_t SIGNED_BIAS = 1ull << 51;

bool is_i64_vector(const llvm::Type *type)
{
    auto *vector = llvm::dyn_cast<llvm::FixedVectorType>(type);
    return vector && vector->getElementType()->isIntegerTy(64);
}

bool is_real_vector(const llvm::Type *type)
{
    auto *vector = llvm::dyn_cast<llvm::FixedVectorType>(type);
    return vector &&
           (vector->getElementType()->isFloatTy() || vector->getElementType()->isDoubleTy());
}

// Whether inst is one this pass gives a fast path; conversions (to and
// from float and double) only when the target has no instructions for them.
bool has_fast_path(const llvm::Instruction &inst, bool has_conversions)
{
    switch (inst.getOpcode()) {
    case llvm::Instruction::UDiv:
    case llvm::Instruction::SDiv:
    case llvm::Instruction::URem:
    case llvm::Instruction::SRem:
        return is_i64_vector(inst.getType()) && !llvm::isa<llvm::Constant>(inst.getOperand(1));
    case llvm::Instruction::SIToFP:
    case llvm::Instruction::UIToFP:
        return !has_conversions && is_i64_vector(inst.getOperand(0)->getType()) &&
               is_real_vector(inst.getType());
    case llvm::Instruction::FPToSI:
    case llvm::Instruction::FPToUI:
        return !has_conversions && is_i64_vector(inst.getType()) &&
               is_real_vector(inst.getOperand(0)->getType());
    default: return false;
    }
}

// Splits the block of insts (which are in one block, the first before the
// others, and have only operands defined before it): `fits` chooses
// between a block that computes their results with `fast` and one with
// the instructions themselves, whose values meet in phis that take their
// place.
template <typename Fast>
void add_fast_path(llvm::ArrayRef<llvm::Instruction *> insts, llvm::Value *fits, Fast fast)
{
    llvm::LLVMContext &context = insts[0]->getContext();
    llvm::Instruction *fast_end, *slow_end;
    llvm::SplitBlockAndInsertIfThenElse(fits, insts[0]->getIterator(), &fast_end, &slow_end,
                                        llvm::MDBuilder(context).createBranchWeights(1 << 20, 1));
    llvm::BasicBlock *tail = insts[0]->getParent();
    for (llvm::Instruction *inst : insts)
        inst->moveBefore(slow_end);
    llvm::IRBuilder<> b(fast_end);
    llvm::SmallVector<llvm::Value *, 2> values = fast(b);
    for (size_t i = 0; i < insts.size(); i++) {
        llvm::PHINode *result = llvm::PHINode::Create(insts[i]->getType(), 2, "i64v");
        result->insertInto(tail, tail->begin());
        insts[i]->replaceAllUsesWith(result);
        result->addIncoming(values[i], fast_end->getParent());
        result->addIncoming(insts[i], slow_end->getParent());
    }
}

// Whether no lane of any of `integers` has a bit set in high_bits once
// `bias` is added.
llvm::Value *integers_fit(llvm::IRBuilder<> &b, llvm::ArrayRef<llvm::Value *> integers,
                          uint64_t bias, uint64_t high_bits)
{
    llvm::Type *type = integers[0]->getType();
    llvm::Value *all = nullptr;
    for (llvm::Value *x : integers) {
        llvm::Value *biased = b.CreateAdd(x, llvm::ConstantInt::get(type, bias));
        all = all ? b.CreateOr(all, biased) : biased;
    }
    llvm::Value *high = b.CreateAnd(all, llvm::ConstantInt::get(type, high_bits));
    return b.CreateICmpEQ(b.CreateOrReduce(high), b.getInt64(0), "i64v.fits");
}

// Lanes of type i64 in [-2^51, 2^51) to double, and integer-valued doubles
// in that range back.
llvm::Value *to_double(llvm::IRBuilder<> &b, llvm::Value *x)
{
    auto *type = llvm::cast<llvm::FixedVectorType>(x->getType());
    auto *real = llvm::FixedVectorType::get(b.getDoubleTy(), type->getNumElements());
    return b.CreateFSub(
        b.CreateBitCast(b.CreateAdd(x, llvm::ConstantInt::get(type, MAGIC_BITS)), real),
        llvm::ConstantFP::get(real, MAGIC));
}

llvm::Value *to_integer(llvm::IRBuilder<> &b, llvm::Value *x, llvm::Type *type)
{
    llvm::Value *biased = b.CreateFAdd(x, llvm::ConstantFP::get(x->getType(), MAGIC));
    return b.CreateSub(b.CreateBitCast(biased, type), llvm::ConstantInt::get(type, MAGIC_BITS));
}

// A division, and the remainder of the same operands when `remainder` is
// one (a / w and a % w share the quotient), or a lone remainder.
void divide(llvm::Instruction *division, llvm::Instruction *remainder)
{
    unsigned op = division->getOpcode();
    bool is_signed = op == llvm::Instruction::SDiv || op == llvm::Instruction::SRem;
    bool is_quotient = op == llvm::Instruction::SDiv || op == llvm::Instruction::UDiv;
    llvm::Value *dividend = division->getOperand(0), *divisor = division->getOperand(1);
    llvm::IRBuilder<> b(division);
    llvm::Value *fits = is_signed
                            ? integers_fit(b, {dividend, divisor}, SIGNED_BIAS, ~((1ull << 52) - 1))
                            : integers_fit(b, {dividend, divisor}, 0, ~((1ull << 51) - 1));
    llvm::SmallVector<llvm::Instruction *, 2> insts = {division};
    if (remainder)
        insts.push_back(remainder);
    add_fast_path(insts, fits, [&](llvm::IRBuilder<> &fast) {
        llvm::Type *type = division->getType();
        llvm::Value *a = to_double(fast, dividend), *d = to_double(fast, divisor);
        llvm::Value *q = fast.CreateUnaryIntrinsic(llvm::Intrinsic::trunc, fast.CreateFDiv(a, d));
        llvm::Value *r = fast.CreateFSub(a, fast.CreateFMul(q, d));
        llvm::SmallVector<llvm::Value *, 2> values;
        if (is_quotient)
            values.push_back(to_integer(fast, q, type));
        if (!is_quotient || remainder)
            values.push_back(to_integer(fast, r, type));
        return values;
    });
}

// The remainder in `found` of division's operands, if division is a
// quotient and the remainder comes later in its block.
llvm::Instruction *remainder_of(llvm::Instruction *division,
                                llvm::ArrayRef<llvm::Instruction *> found)
{
    unsigned op = division->getOpcode();
    if (op != llvm::Instruction::SDiv && op != llvm::Instruction::UDiv)
        return nullptr;
    unsigned partner =
        op == llvm::Instruction::SDiv ? llvm::Instruction::SRem : llvm::Instruction::URem;
    for (llvm::Instruction *inst : found)
        if (inst->getOpcode() == partner && inst->getParent() == division->getParent() &&
            inst->getOperand(0) == division->getOperand(0) &&
            inst->getOperand(1) == division->getOperand(1) && division->comesBefore(inst))
            return inst;
    return nullptr;
}

// i64 lanes to double, every value: x = h 2^32 + l with l the low 32 bits
// (unsigned) and h the high ones (signed for sitofp); h 2^32 and l are
// exact in double (the bits of 2^84 + h' 2^32 with h' = h + 2^31 for
// signed, and of 2^52 + l), and their sum rounds once, as the conversion
// does.
llvm::Value *int_to_double(llvm::IRBuilder<> &b, llvm::Value *x, bool is_signed)
{
    auto *type = llvm::cast<llvm::FixedVectorType>(x->getType());
    auto *real = llvm::FixedVectorType::get(b.getDoubleTy(), type->getNumElements());
    auto constant = [&](uint64_t value) { return llvm::ConstantInt::get(type, value); };
    llvm::Value *high =
        is_signed ? b.CreateAdd(b.CreateAShr(x, 32), constant(1ull << 31)) : b.CreateLShr(x, 32);
    llvm::Value *high_bits = b.CreateOr(high, constant(0x4530000000000000ull)); // 2^84
    llvm::Value *high_value =
        b.CreateFSub(b.CreateBitCast(high_bits, real),
                     llvm::ConstantFP::get(real, is_signed ? 0x1p84 + 0x1p63 : 0x1p84));
    llvm::Value *low_bits =
        b.CreateOr(b.CreateAnd(x, constant(0xffffffffull)), constant(0x4330000000000000ull));
    llvm::Value *low_value =
        b.CreateFSub(b.CreateBitCast(low_bits, real), llvm::ConstantFP::get(real, 0x1p52));
    return b.CreateFAdd(high_value, low_value);
}

// To float through double would round twice for |x| >= 2^53; the fast path
// takes the lanes below 2^51, exact in double, and rounds them once.
void int_to_float(llvm::Instruction *conversion)
{
    llvm::Value *x = conversion->getOperand(0);
    llvm::IRBuilder<> b(conversion);
    llvm::Value *fits = conversion->getOpcode() == llvm::Instruction::SIToFP
                            ? integers_fit(b, {x}, SIGNED_BIAS, ~((1ull << 52) - 1))
                            : integers_fit(b, {x}, 0, ~((1ull << 51) - 1));
    add_fast_path({conversion}, fits, [&](llvm::IRBuilder<> &fast) {
        return llvm::SmallVector<llvm::Value *, 2>{
            fast.CreateFPTrunc(to_double(fast, x), conversion->getType())};
    });
}

// Float or double lanes to i64, every value the conversion defines (|x| <
// 2^63, or below 2^64 unsigned): t = trunc(x) = h 2^32 + l with h =
// floor(t 2^-32) and l = t - h 2^32 in [0, 2^32), both exact, each converted
// through the bits of 1.5 * 2^52 + v.
llvm::Value *real_to_int(llvm::IRBuilder<> &b, llvm::Value *x, llvm::Type *type)
{
    auto *vector = llvm::cast<llvm::FixedVectorType>(x->getType());
    auto *real = llvm::FixedVectorType::get(b.getDoubleTy(), vector->getNumElements());
    llvm::Value *wide = vector->getElementType()->isDoubleTy() ? x : b.CreateFPExt(x, real);
    llvm::Value *whole = b.CreateUnaryIntrinsic(llvm::Intrinsic::trunc, wide);
    llvm::Value *high = b.CreateUnaryIntrinsic(
        llvm::Intrinsic::floor, b.CreateFMul(whole, llvm::ConstantFP::get(real, 0x1p-32)));
    llvm::Value *low = b.CreateFSub(whole, b.CreateFMul(high, llvm::ConstantFP::get(real, 0x1p32)));
    return b.CreateAdd(b.CreateShl(to_integer(b, high, type), 32), to_integer(b, low, type));
}

} // namespace

extern "C" bool cc_lower_int64_vectors(LLVMValueRef fn_ref)
{
    llvm::Function &fn = *llvm::unwrap<llvm::Function>(fn_ref);
    bool has_conversions = cc_function_has_feature(fn_ref, "avx512dq");
    llvm::SmallVector<llvm::Instruction *, 8> found;
    for (llvm::BasicBlock &block : fn)
        for (llvm::Instruction &inst : block)
            if (has_fast_path(inst, has_conversions))
                found.push_back(&inst);
    llvm::SmallPtrSet<llvm::Instruction *, 8> done;
    for (llvm::Instruction *inst : found) {
        if (done.contains(inst))
            continue;
        unsigned op = inst->getOpcode();
        if ((op == llvm::Instruction::SIToFP || op == llvm::Instruction::UIToFP) &&
            inst->getType()->getScalarType()->isFloatTy()) {
            int_to_float(inst);
            continue;
        }
        llvm::IRBuilder<> b(inst);
        llvm::Value *value;
        if (op == llvm::Instruction::SIToFP || op == llvm::Instruction::UIToFP)
            value = int_to_double(b, inst->getOperand(0), op == llvm::Instruction::SIToFP);
        else if (op == llvm::Instruction::FPToSI || op == llvm::Instruction::FPToUI)
            value = real_to_int(b, inst->getOperand(0), inst->getType());
        else {
            llvm::Instruction *remainder = remainder_of(inst, found);
            if (remainder)
                done.insert(remainder);
            divide(inst, remainder);
            continue;
        }
        inst->replaceAllUsesWith(value);
        inst->eraseFromParent();
    }
    return !found.empty();
}
