// parallel.cpp - marking work-item loops as parallel for the vectorizer.
//
// The work-items of a group between two barriers are independent: without
// a barrier, two work-items that touch the same memory (other than through
// atomics) race, which OpenCL C leaves undefined. So a loop over work-items
// may claim llvm.loop.parallel_accesses, and the loop vectorizer then needs
// no run-time alias checks. That takes distinct metadata nodes (an access
// group, a self-referencing loop ID), which LLVM's C API cannot make: hence
// this one function in C++.
#include <llvm/IR/Constants.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Metadata.h>
#include <llvm-c/Core.h>

#include "compiler/parallel.h"

extern "C" void cc_mark_parallel_loops(LLVMValueRef *latches, unsigned num_latches,
                                       LLVMValueRef *accesses, unsigned count)
{
    if (!num_latches)
        return;
    llvm::LLVMContext &context = llvm::cast<llvm::Instruction>(llvm::unwrap(latches[0]))->getContext();
    llvm::MDNode *group = llvm::MDNode::getDistinct(context, {});
    for (unsigned i = 0; i < count; i++)
        llvm::cast<llvm::Instruction>(llvm::unwrap(accesses[i]))
            ->setMetadata(llvm::LLVMContext::MD_access_group, group);
    for (unsigned l = 0; l < num_latches; l++) {
        llvm::Metadata *parallel[] = {
            llvm::MDString::get(context, "llvm.loop.parallel_accesses"), group};
        llvm::Metadata *once[] = {
            llvm::MDString::get(context, "llvm.loop.interleave.count"),
            llvm::ConstantAsMetadata::get(
                llvm::ConstantInt::get(llvm::Type::getInt32Ty(context), 1))};
        // The loop vectorizer leaves a scalar loop for the work-items that
        // do not fill a vector; unrolling it at run time (with a prologue)
        // doubled the machine code of region-heavy kernels and the time to
        // generate it. (No unrolling at all made the bench's reduction
        // 1.7x slower; where the trip count is a constant, specialize.cpp
        // forbids all unrolling.)
        llvm::Metadata *no_runtime_unroll[] = {
            llvm::MDString::get(context, "llvm.loop.unroll.runtime.disable")};
        // No interleaving: an x loop runs the local size's x work-items,
        // often 16 or 32. Interleaving 4 vectors of 8 made the vector body
        // need 32 items, so a 16x16 group ran every item in the scalar
        // remainder (transpose 28 -> 21 ms on AVX2). Work-items are
        // independent, so out-of-order execution overlaps iterations anyway.
        // Not LLVM's: tells the passes inside O3 (narrow.cpp,
        // optimize.cpp) which loops run over work-items (loop unswitching
        // copies the mark with the loop).
        llvm::Metadata *work_items[] = {llvm::MDString::get(context, "cpucl.work_items")};
        llvm::Metadata *operands[] = {nullptr, llvm::MDNode::get(context, parallel),
                                      llvm::MDNode::get(context, no_runtime_unroll),
                                      llvm::MDNode::get(context, once),
                                      llvm::MDNode::get(context, work_items)};
        llvm::MDNode *loop = llvm::MDNode::getDistinct(context, operands);
        loop->replaceOperandWith(0, loop);
        llvm::cast<llvm::Instruction>(llvm::unwrap(latches[l]))
            ->setMetadata(llvm::LLVMContext::MD_loop, loop);
    }
}

extern "C" void cc_no_runtime_unroll(LLVMValueRef latch)
{
    // The y and z loops over work-items: unrolling one copies the whole
    // vectorized x loop inside it, for no gain.
    llvm::LLVMContext &context = llvm::cast<llvm::Instruction>(llvm::unwrap(latch))->getContext();
    llvm::Metadata *disable[] = {llvm::MDString::get(context, "llvm.loop.unroll.disable")};
    llvm::Metadata *operands[] = {nullptr, llvm::MDNode::get(context, disable)};
    llvm::MDNode *loop = llvm::MDNode::getDistinct(context, operands);
    loop->replaceOperandWith(0, loop);
    llvm::cast<llvm::Instruction>(llvm::unwrap(latch))->setMetadata(llvm::LLVMContext::MD_loop, loop);
}

extern "C" void cc_mark_parallel_loop(LLVMValueRef latch, LLVMValueRef *accesses, unsigned count)
{
    cc_mark_parallel_loops(&latch, 1, accesses, count);
}

bool cc_is_work_item_loop(LLVMMetadataRef loop_id)
{
    auto *id = llvm::cast_or_null<llvm::MDNode>(llvm::unwrap(loop_id));
    for (unsigned i = 1; id && i < id->getNumOperands(); i++) {
        auto *node = llvm::dyn_cast<llvm::MDNode>(id->getOperand(i));
        auto *name = node && node->getNumOperands() == 1
                         ? llvm::dyn_cast<llvm::MDString>(node->getOperand(0))
                         : nullptr;
        if (name && name->getString() == "cpucl.work_items")
            return true;
    }
    return false;
}
