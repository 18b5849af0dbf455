// group_addresses.cpp - work-item addresses counted from the group's first.
//
// Takes a function inside O3, right before the loop vectorizer (after
// narrow.cpp), whose innermost work-item loops carry parallel.cpp's mark.
// In such a loop, with induction variable x (0, 1, 2, ..., or from where a
// copy that narrow.cpp made starts), an
// address `getelementptr inbounds T, P, (A + x)` with P and A the same for
// every work-item (`a[get_global_id(0)]`: A is the group's first global id;
// A may be a sum and difference of such values, as work_item_offset.h
// matches them: `a[get_global_id(0) + 1]`)
// becomes `getelementptr nusw T, B, x` with B = `getelementptr T, P, A`
// computed once before the loop, and x's increment gets `nsw`. Where LICM
// has already split it so (its `invariant.gep`s, without flags), the
// address `P[x]` gets `nusw`.
//
// Why: a kernel that loads only some components of a vector of global
// memory (`float4 p = a[i]; ... p.xyz`, cross(float4) ...) leaves, once
// scalarize.cpp has split the vector, an interleave group with a gap at
// its end. LLVM 19's vectorizer keeps such a group only when it can prove
// that the address of its first member does not wrap (VectorUtils.cpp,
// analyzeInterleaving, without run-time checks), which ScalarEvolution
// proves for an inbounds address whose index is an induction variable that
// does not wrap, but not for {A,+,1} with an unknown A: the loads became
// gathers, one per component (float4 cross 15 ms against PoCL's 5.9 ms for
// 4 Mi items on Zen 4, where gathers are slow); with B and x they are
// wide loads and shuffles.
//
// Sound because the address is the same (B + x * sizeof(T) equals
// P + (A + x) * sizeof(T)) and the flags claim only what holds of every
// address a work-item computes: x counts work-items of one group (at most
// CL_DEVICE_MAX_WORK_GROUP_SIZE), so neither x + 1 nor x * sizeof(T)
// overflows, and adding that non-negative offset to B gives the original
// address, which does not wrap: the original was inbounds, or (InstCombine
// drops inbounds when it splits `a[i + 1]` into `&a[i]` plus 16 bytes) it
// is only ever loaded or stored through, and a wrapped address would lie
// within 64 KiB of address 0, which no buffer holds. B itself gets no
// flag, since the group's first work-item may compute no address at all
// (a guard).
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Operator.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>
#include <llvm-c/Core.h>

#include <vector>

#include "compiler/group_addresses.h"
#include "compiler/parallel.h"
#include "compiler/work_item_offset.h"

namespace
{

// Whether every use of address is a load or store through it, directly or
// through getelementptrs with constant indices.
bool only_dereferenced(const llvm::Value *address)
{
    for (const llvm::User *user : address->users()) {
        if (auto *load = llvm::dyn_cast<llvm::LoadInst>(user)) {
            if (load->getPointerOperand() == address)
                continue;
        } else if (auto *store = llvm::dyn_cast<llvm::StoreInst>(user)) {
            if (store->getPointerOperand() == address && store->getValueOperand() != address)
                continue;
        } else if (auto *gep = llvm::dyn_cast<llvm::GetElementPtrInst>(user)) {
            if (gep->getPointerOperand() == address && gep->hasAllConstantIndices() &&
                only_dereferenced(gep))
                continue;
        }
        return false;
    }
    return true;
}

// The loop's work-item: a header phi that starts at a loop-invariant value
// (0, or where narrow.cpp's copy starts) and steps by 1; its increment.
llvm::PHINode *work_item(const llvm::Loop &loop, llvm::BasicBlock *preheader,
                         llvm::BasicBlock *latch, llvm::BinaryOperator *&increment)
{
    for (llvm::PHINode &phi : loop.getHeader()->phis()) {
        if (!phi.getType()->isIntegerTy(64) || phi.getNumIncomingValues() != 2 ||
            !loop.isLoopInvariant(phi.getIncomingValueForBlock(preheader)))
            continue;
        auto *step = llvm::dyn_cast<llvm::BinaryOperator>(phi.getIncomingValueForBlock(latch));
        auto *one = step ? llvm::dyn_cast<llvm::ConstantInt>(step->getOperand(1)) : nullptr;
        if (step && step->getOpcode() == llvm::Instruction::Add && step->getOperand(0) == &phi &&
            one && one->isOne()) {
            increment = step;
            return &phi;
        }
    }
    return nullptr;
}

// Merges the loop's blocks that follow an unconditional branch from their
// only predecessor: narrow.cpp's copies keep the blocks of the guard it
// folded, and LLVM 19 keeps an interleave group with a gap only in a loop
// whose accesses are in one block (float4 cross behind `if (i < n)` was
// scalar loads, 96 for 16 work-items, once gathers were off).
bool merge_straight_blocks(llvm::Loop &loop, llvm::LoopInfo &loops)
{
    std::vector<llvm::BasicBlock *> blocks(loop.block_begin(), loop.block_end());
    bool merged = false;
    for (llvm::BasicBlock *block : blocks)
        if (block != loop.getHeader() && block->getSinglePredecessor() &&
            block->getSinglePredecessor()->getSingleSuccessor() == block)
            merged |= llvm::MergeBlockIntoPredecessor(block, nullptr, &loops);
    return merged;
}

bool rewrite_loop(llvm::Loop &loop)
{
    llvm::BasicBlock *preheader = loop.getLoopPreheader();
    llvm::BasicBlock *latch = loop.getLoopLatch();
    llvm::BinaryOperator *increment = nullptr;
    llvm::PHINode *x = preheader && latch ? work_item(loop, preheader, latch, increment) : nullptr;
    if (!x)
        return false;
    struct address {
        llvm::GetElementPtrInst *gep;
        std::vector<cc_offset_term> terms;
    };
    std::vector<address> addresses;
    for (llvm::BasicBlock *block : loop.blocks())
        for (llvm::Instruction &inst : *block) {
            auto *gep = llvm::dyn_cast<llvm::GetElementPtrInst>(&inst);
            if (!gep || !(gep->isInBounds() || only_dereferenced(gep)) ||
                gep->getNumIndices() != 1 || !loop.isLoopInvariant(gep->getPointerOperand()) ||
                gep->getOperand(1)->getType() != x->getType())
                continue;
            address found = {gep, {}};
            if (cc_match_offset(gep->getOperand(1), x, loop, false, found.terms) &&
                !(found.terms.empty() && gep->hasNoUnsignedSignedWrap()))
                addresses.push_back(found);
        }
    if (addresses.empty())
        return false;
    increment->setHasNoSignedWrap(true);
    llvm::IRBuilder<> before(preheader->getTerminator());
    for (address &a : addresses) {
        if (a.terms.empty()) { /* P[x] already, with P = &Q[A] hoisted by LICM */
            a.gep->setNoWrapFlags(a.gep->getNoWrapFlags() |
                                  llvm::GEPNoWrapFlags::noUnsignedSignedWrap());
            continue;
        }
        llvm::Value *first = cc_sum_of_terms(before, x->getType(), a.terms);
        llvm::GetElementPtrInst *gep = a.gep;
        llvm::Value *base = before.CreateGEP(gep->getSourceElementType(), gep->getPointerOperand(),
                                             first, "group.base");
        llvm::Value *indices[] = {x};
        auto *relative = llvm::GetElementPtrInst::Create(gep->getSourceElementType(), base, indices,
                                                         gep->getName(), gep);
        relative->setNoWrapFlags(llvm::GEPNoWrapFlags::noUnsignedSignedWrap());
        relative->setDebugLoc(gep->getDebugLoc());
        gep->replaceAllUsesWith(relative);
        gep->eraseFromParent();
    }
    return true;
}

} // namespace

extern "C" bool cc_group_addresses(LLVMValueRef fn_ref)
{
    llvm::Function &fn = *llvm::unwrap<llvm::Function>(fn_ref);
    llvm::DominatorTree tree(fn);
    llvm::LoopInfo loops(tree);
    bool changed = false;
    for (llvm::Loop *loop : loops.getLoopsInPreorder())
        if (loop->isInnermost() && cc_is_work_item_loop(llvm::wrap(loop->getLoopID()))) {
            changed |= merge_straight_blocks(*loop, loops);
            changed |= rewrite_loop(*loop);
        }
    return changed;
}
