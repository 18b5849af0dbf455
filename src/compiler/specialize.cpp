// specialize.cpp - a work-group function for the local size a kernel
// requires (reqd_work_group_size) or hints at (work_group_size_hint),
// beside the general one.
//
// API spec 5.10: a kernel with reqd_work_group_size(X, Y, Z) is always
// enqueued with that local size, so every work-group but the last ones of
// a non-uniform range (OpenCL 2.0) has exactly X x Y x Z work-items. The
// work-group function W becomes
//
//   W(args, state): if state->local_size == (X, Y, Z) W.fixed(args, state)
//                   else W.general(args, state)
//
// where W.general is W as it was and W.fixed a copy whose loads of the
// local and enqueued local sizes are the constants: the work-item loops
// then have constant trip counts, the vectorizer needs no remainder, and
// index arithmetic folds (the bench's 16x16-tiled SGEMM: 1.6x faster). In
// W.fixed the work-item loops may not be unrolled at all: with a constant
// trip count the unroller would unroll the x loop fully before the
// vectorizer sees it (4x slower than the general function). Both are
// inlined into W by O3. A required size is also the enqueued one of every
// group, so W.general gets that constant too; a hinted one is only a hint.
#include <llvm/IR/Constants.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <llvm-c/Core.h>

#include <vector>

#include "compiler/specialize.h"

namespace {

// The byte offset from `state` that `pointer` has, if it is state itself
// or a constant in-bounds i8 GEP of it.
bool state_offset(llvm::Value *pointer, llvm::Value *state, uint64_t *offset)
{
    if (pointer == state) {
        *offset = 0;
        return true;
    }
    auto *gep = llvm::dyn_cast<llvm::GetElementPtrInst>(pointer);
    if (!gep || gep->getPointerOperand() != state || gep->getNumIndices() != 1 ||
        !gep->getSourceElementType()->isIntegerTy(8))
        return false;
    auto *index = llvm::dyn_cast<llvm::ConstantInt>(gep->getOperand(1));
    if (!index)
        return false;
    *offset = index->getZExtValue();
    return true;
}

// Replaces fn's loads of the given state fields by the constants.
void fold_fields(llvm::Function &fn, const uint64_t *offsets, const uint64_t *values,
                 unsigned count)
{
    llvm::Value *state = fn.getArg(1);
    std::vector<llvm::LoadInst *> loads;
    for (llvm::BasicBlock &block : fn)
        for (llvm::Instruction &inst : block)
            if (auto *load = llvm::dyn_cast<llvm::LoadInst>(&inst))
                loads.push_back(load);
    for (llvm::LoadInst *load : loads) {
        uint64_t offset;
        if (!load->getType()->isIntegerTy(64) ||
            !state_offset(load->getPointerOperand(), state, &offset))
            continue;
        for (unsigned i = 0; i < count; i++)
            if (offsets[i] == offset) {
                load->replaceAllUsesWith(llvm::ConstantInt::get(load->getType(), values[i]));
                load->eraseFromParent();
                break;
            }
    }
}

// In fn's loop IDs, llvm.loop.unroll.runtime.disable (parallel.cpp's
// work-item loops) becomes llvm.loop.unroll.disable.
void forbid_unrolling(llvm::Function &fn)
{
    llvm::LLVMContext &context = fn.getContext();
    for (llvm::BasicBlock &block : fn) {
        llvm::Instruction *latch = block.getTerminator();
        llvm::MDNode *loop = latch ? latch->getMetadata(llvm::LLVMContext::MD_loop) : nullptr;
        if (!loop)
            continue;
        std::vector<llvm::Metadata *> operands{nullptr};
        bool changed = false;
        for (unsigned i = 1; i < loop->getNumOperands(); i++) {
            llvm::Metadata *operand = loop->getOperand(i);
            auto *node = llvm::dyn_cast<llvm::MDNode>(operand);
            auto *name = node && node->getNumOperands()
                             ? llvm::dyn_cast<llvm::MDString>(node->getOperand(0))
                             : nullptr;
            if (name && name->getString() == "llvm.loop.unroll.runtime.disable") {
                operand = llvm::MDNode::get(
                    context, {llvm::MDString::get(context, "llvm.loop.unroll.disable")});
                changed = true;
            }
            operands.push_back(operand);
        }
        if (!changed)
            continue;
        llvm::MDNode *id = llvm::MDNode::getDistinct(context, operands);
        id->replaceOperandWith(0, id);
        latch->setMetadata(llvm::LLVMContext::MD_loop, id);
    }
}

llvm::Function *copy(llvm::Function &fn, const char *suffix)
{
    llvm::ValueToValueMapTy map;
    llvm::Function *clone = llvm::CloneFunction(&fn, map);
    clone->setName(fn.getName() + suffix);
    clone->setLinkage(llvm::GlobalValue::InternalLinkage);
    clone->addFnAttr(llvm::Attribute::AlwaysInline);
    clone->removeFnAttr(llvm::Attribute::NoInline);
    return clone;
}

// The 8-byte state fields of the enqueued (0-2) and local (3-5) sizes and
// the values `size` gives them.
void size_fields(const size_t size[3], size_t local_size_offset, size_t enqueued_offset,
                 uint64_t offsets[6], uint64_t values[6])
{
    for (unsigned d = 0; d < 3; d++) {
        offsets[d] = enqueued_offset + 8 * d;
        offsets[3 + d] = local_size_offset + 8 * d;
        values[d] = values[3 + d] = size[d];
    }
}

} // namespace

extern "C" void cc_specialize_local_size(LLVMValueRef wg_fn, const size_t required[3],
                                         bool always_enqueued, size_t local_size_offset,
                                         size_t enqueued_offset)
{
    llvm::Function &wg = *llvm::cast<llvm::Function>(llvm::unwrap(wg_fn));
    uint64_t offsets[6], values[6];
    size_fields(required, local_size_offset, enqueued_offset, offsets, values);
    llvm::Function *general = copy(wg, ".general");
    if (always_enqueued)
        fold_fields(*general, offsets, values, 3);
    llvm::Function *fixed = copy(wg, ".fixed");
    fold_fields(*fixed, offsets, values, 6);
    forbid_unrolling(*fixed);

    wg.deleteBody();
    llvm::LLVMContext &context = wg.getContext();
    llvm::BasicBlock *entry = llvm::BasicBlock::Create(context, "entry", &wg);
    llvm::BasicBlock *full = llvm::BasicBlock::Create(context, "full", &wg);
    llvm::BasicBlock *partial = llvm::BasicBlock::Create(context, "partial", &wg);
    llvm::IRBuilder<> b(entry);
    llvm::Value *args = wg.getArg(0), *state = wg.getArg(1);
    llvm::Value *same = b.getTrue();
    for (unsigned d = 0; d < 3; d++) {
        llvm::Value *at = b.CreateConstInBoundsGEP1_64(b.getInt8Ty(), state, offsets[3 + d]);
        llvm::LoadInst *size = b.CreateAlignedLoad(b.getInt64Ty(), at, llvm::Align(8));
        same = b.CreateAnd(same, b.CreateICmpEQ(size, b.getInt64(values[3 + d])));
    }
    b.CreateCondBr(same, full, partial);
    b.SetInsertPoint(full);
    b.CreateCall(fixed, {args, state});
    b.CreateRetVoid();
    b.SetInsertPoint(partial);
    b.CreateCall(general, {args, state});
    b.CreateRetVoid();
}

// A launch's copy (codegen.c): every group it runs has `size` items, the
// enqueued size too (the runtime runs the general function for the last,
// smaller groups of a non-uniform range). Called after the region functions
// were inlined into wg_fn, so the kernel's own get_local_size folds too.
extern "C" void cc_fold_launch_local_size(LLVMValueRef wg_fn, const size_t size[3],
                                          size_t local_size_offset, size_t enqueued_offset)
{
    llvm::Function &wg = *llvm::cast<llvm::Function>(llvm::unwrap(wg_fn));
    uint64_t offsets[6], values[6];
    size_fields(size, local_size_offset, enqueued_offset, offsets, values);
    fold_fields(wg, offsets, values, 6);
    forbid_unrolling(wg);
}

// A launch's copy of a launch without a global offset: the three 8-byte
// offset fields at `global_offset_offset` fold to 0, so a global id is the
// group's first item plus the local id, whose alignment O3 can then see.
extern "C" void cc_fold_launch_no_offset(LLVMValueRef wg_fn, size_t global_offset_offset)
{
    llvm::Function &wg = *llvm::cast<llvm::Function>(llvm::unwrap(wg_fn));
    uint64_t offsets[3], values[3] = {0, 0, 0};
    for (unsigned d = 0; d < 3; d++)
        offsets[d] = global_offset_offset + 8 * d;
    fold_fields(wg, offsets, values, 3);
}
