// item_conversions.cpp - `(float)get_local_id(0)` from 32 bits.
//
// OpenCL C's work-item functions return size_t, so a kernel that computes
// with its index in floating point (`(float)get_local_id(0)`, `(double)i`
// of a size_t counter) converts a 64-bit integer. Vectorized across the
// work-items, that is `uitofp <8 x i64>`: x86 has no instruction for it
// before AVX-512DQ, and LLVM 19's AVX2 expansion is a dozen instructions
// and eight constant registers a vector (int64_vectors.cpp adds a branch
// to a shorter form when the lanes fit): next to a long chain of
// arithmetic those constants alone made the machine scheduler run the
// chains of an interleaved loop one after the other (interleave.cpp). A
// work-item's local index is below CC_MAX_WORK_GROUP_SIZE
// (workgroup.c marks the local size loads `!range`), so scalar evolution
// bounds it.
//
// So, right before the vectorizer, in each innermost work-item loop: a
// `sitofp` or `uitofp` of an i64 that scalar evolution bounds to 32 bits
// (signed range within [-2^31, 2^31) for sitofp, unsigned range below 2^31
// for uitofp, so the i32 reads as the same number signed) becomes `sitofp`
// of its `trunc` to i32: `vcvtdq2ps`/`vcvtdq2pd`, one instruction. The
// value converted is the same, and so is its rounding.
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm-c/Core.h>

#include <vector>

#include "compiler/item_conversions.h"
#include "compiler/parallel.h"

namespace
{

bool fits_32_bits(llvm::CastInst &cast, llvm::ScalarEvolution &evolution)
{
    llvm::Value *from = cast.getOperand(0);
    if (!from->getType()->isIntegerTy(64) || !evolution.isSCEVable(from->getType()))
        return false;
    const llvm::SCEV *value = evolution.getSCEV(from);
    if (cast.getOpcode() == llvm::Instruction::UIToFP)
        return evolution.getUnsignedRange(value).getUnsignedMax().ult(llvm::APInt(64, 1) << 31);
    llvm::ConstantRange range = evolution.getSignedRange(value);
    return range.getSignedMin().sge(llvm::APInt::getSignedMinValue(32).sext(64)) &&
           range.getSignedMax().sle(llvm::APInt::getSignedMaxValue(32).sext(64));
}

} // namespace

bool cc_narrow_item_conversions(llvm::Function &fn, llvm::LoopInfo &loops,
                                llvm::ScalarEvolution &evolution)
{
    std::vector<llvm::CastInst *> found;
    for (llvm::Loop *loop : loops.getLoopsInPreorder()) {
        if (!loop->isInnermost() || !cc_is_work_item_loop(llvm::wrap(loop->getLoopID())))
            continue;
        for (llvm::BasicBlock *block : loop->blocks())
            for (llvm::Instruction &inst : *block)
                if ((llvm::isa<llvm::SIToFPInst>(inst) || llvm::isa<llvm::UIToFPInst>(inst)) &&
                    fits_32_bits(llvm::cast<llvm::CastInst>(inst), evolution))
                    found.push_back(llvm::cast<llvm::CastInst>(&inst));
    }
    for (llvm::CastInst *cast : found) {
        llvm::IRBuilder<> b(cast);
        llvm::Value *low = b.CreateTrunc(cast->getOperand(0), b.getInt32Ty());
        llvm::Value *converted = b.CreateSIToFP(low, cast->getType());
        converted->takeName(cast);
        cast->replaceAllUsesWith(converted);
        evolution.forgetValue(cast);
        cast->eraseFromParent();
    }
    return !found.empty();
}
