// jam.cpp - work-item loops around a loop of the same count for every
// work-item, several work-items' inner loops run as one (unroll and jam).
//
// Takes a function inside O3, right before the loop vectorizer, after
// divergent.cpp (which takes the loops it can). A work-item whose inner
// loop sums in floating point (`for (k = 0; k < n; k++) s += a[row * n +
// k] * x[k]`, a matrix-vector product's row) waits for each addition to
// finish before the next: the vectorizer may not reorder a float sum, and
// running the work-items as lanes would gather across rows. Four
// work-items' loops in one loop give four independent sums and four
// streams of consecutive loads (bench matvec, 8192 rows of 1024: 4.4 ->
// 1.5-1.7 ms; PoCL 4.6).
//
// A work-item loop L is taken when it is counted (work_item_offset.h),
// its induction variable x its only header phi, nothing after it uses its
// values, and it holds exactly one loop I, innermost, whose latch is its
// only exit, run by every iteration of L (I's preheader and exit dominate
// L's latch), with a count the same for every work-item: its latch tests a
// header phi of I (or that phi plus a constant step) that starts from a
// value and steps by a constant the same for every work-item, against a
// bound the same for every work-item; and I keeps floating-point header
// phis, one or two registers' worth when I touches memory (the sums; a
// vector counts as the registers it takes: the
// vectorizer does not take a loop on float8s, so a clpeak-like chain of
// float8 `mad`s with its count an argument ran one work-item's chain at a
// time, 27 GFLOPS on AVX-512, jammed 106). L's first F = T - T mod C work-items then run
// C at a time (C = 4 here; when I touches no memory, as many as the
// registers hold, up to 8):
//
//   A(x), A(x+1), A(x+2), A(x+3);
//   loop { I's body for x, x+1, x+2, x+3 }   (the last copy's latch decides)
//   Z(x), Z(x+1), Z(x+2), Z(x+3)
//
// (C = 4; A: L's blocks before I, Z: from I's exit on), and L itself the rest.
// Work-items are independent between barriers (`llvm.loop.
// parallel_accesses`), so their parts may run in this order.
//
// Keeps no analysis valid (the pass manager is told so).
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <llvm/Transforms/Utils/Local.h>
#include <llvm/Transforms/Utils/ValueMapper.h>
#include <llvm-c/Core.h>

#include <algorithm>
#include <vector>

#include "compiler/jam.h"
#include "compiler/parallel.h"
#include "compiler/work_item_offset.h"

namespace
{

// work-items jammed when I reads or writes memory (its streams)
constexpr unsigned JAM = 4;
// at most, when I touches no memory, and instructions of I, all copies
constexpr unsigned most_jammed = 8;
constexpr unsigned most_jammed_instructions = 4096;

struct Candidate : cc_counted_loop {
    unsigned count;
    llvm::Loop *inner;
    std::vector<llvm::BasicBlock *> blocks;
    llvm::BasicBlock *inner_preheader, *inner_header, *inner_latch, *inner_exit;
};

bool touches_memory(const llvm::Loop &loop)
{
    for (const llvm::BasicBlock *block : loop.blocks())
        for (const llvm::Instruction &inst : *block)
            if (inst.mayReadOrWriteMemory())
                return true;
    return false;
}

bool match_loop(llvm::Loop &loop, const llvm::DominatorTree &tree, unsigned register_bits,
                unsigned registers, Candidate &c)
{
    if (loop.getSubLoops().size() != 1 || !cc_is_work_item_loop(llvm::wrap(loop.getLoopID())) ||
        !loop.isLoopSimplifyForm() || !cc_match_counted_loop(loop, c) || !c.exit->phis().empty())
        return false;
    for (llvm::PHINode &phi : c.header->phis())
        if (&phi != c.iv)
            return false;
    llvm::Loop &inner = *loop.getSubLoops()[0];
    c.inner = &inner;
    c.inner_preheader = inner.getLoopPreheader();
    c.inner_header = inner.getHeader();
    c.inner_latch = inner.getLoopLatch();
    c.inner_exit = inner.getUniqueExitBlock();
    if (!inner.isInnermost() || !inner.isLoopSimplifyForm() || !c.inner_exit ||
        inner.getExitingBlock() != c.inner_latch || c.inner_exit == c.header ||
        !tree.dominates(c.inner_preheader, c.latch) || !tree.dominates(c.inner_exit, c.latch) ||
        !cc_same_count(loop, inner))
        return false;
    // one or two sums, counted in registers (a float8 sum is one with
    // AVX2, a float16 two): a loop that already keeps more (a kernel jammed
    // by hand, four rows a work-item) gained nothing and lost streams (1.6
    // -> 2.9 ms). An I that touches no memory (a chain of arithmetic, its
    // count an argument) has no streams to lose: as many work-items as the
    // registers hold, up to 8 (AVX-512, two float8 sums: 8, 115 -> 190
    // GFLOPS; AVX2, two float16 or double8 sums, four registers: 3)
    unsigned sums = 0;
    for (llvm::PHINode &phi : c.inner_header->phis()) {
        if (phi.getType()->isFPOrFPVectorTy())
            sums += cc_vector_registers(phi.getType(), register_bits);
    }
    if (sums < 1)
        return false;
    if (touches_memory(inner)) {
        if (sums > 2)
            return false;
        c.count = JAM;
    } else {
        size_t size = 0;
        for (const llvm::BasicBlock *block : inner.blocks())
            size += block->size();
        c.count = std::min(cc_work_items_in_registers(most_jammed, sums, registers),
                           (unsigned)(most_jammed_instructions / std::max<size_t>(size, 1)));
        if (c.count < 2)
            return false;
    }
    if (!cc_work_items_may_be_copied(loop))
        return false;
    c.blocks.assign(loop.block_begin(), loop.block_end());
    return true;
}

void jam(Candidate &c)
{
    llvm::Function *fn = c.header->getParent();
    llvm::LLVMContext &context = fn->getContext();
    // T, F = T - T mod count, and the choice between the jammed loop and L
    llvm::BasicBlock *head = llvm::BasicBlock::Create(context, "jam", fn);
    llvm::BasicBlock *next = llvm::BasicBlock::Create(context, "jam.next", fn);
    const unsigned count = c.count;
    cc_loop_split split = cc_split_counted_loop(c, count, head, "jam");
    llvm::Value *full = split.full;
    llvm::BasicBlock *rest = split.rest;
    llvm::IRBuilder<> b(head);
    llvm::Type *index = c.iv->getType();

    // count copies of L's body, each with its x
    llvm::PHINode *first = b.CreatePHI(index, 2, "jam.first");
    first->addIncoming(llvm::ConstantInt::get(index, 0), c.preheader);
    struct Copy {
        llvm::ValueToValueMapTy map;
        llvm::BasicBlock *header, *latch, *preheader, *inner_header, *inner_latch, *exit;
    };
    std::vector<Copy> copies(count);
    for (unsigned k = 0; k < count; k++) {
        Copy &copy = copies[k];
        std::vector<llvm::BasicBlock *> cloned;
        for (llvm::BasicBlock *block : c.blocks) {
            llvm::BasicBlock *clone = llvm::CloneBasicBlock(block, copy.map, ".jam", fn);
            copy.map[block] = clone;
            cloned.push_back(clone);
        }
        llvm::remapInstructionsInBlocks(cloned, copy.map);
        auto of = [&](llvm::BasicBlock *block) {
            return llvm::cast<llvm::BasicBlock>(copy.map[block]);
        };
        copy.header = of(c.header), copy.latch = of(c.latch);
        copy.preheader = of(c.inner_preheader), copy.inner_header = of(c.inner_header);
        copy.inner_latch = of(c.inner_latch), copy.exit = of(c.inner_exit);
        auto *iv = llvm::cast<llvm::PHINode>(copy.map[c.iv]);
        iv->replaceAllUsesWith(
            b.CreateAdd(first, llvm::ConstantInt::get(index, k), "jam.x", true, true));
        iv->eraseFromParent();
    }
    b.CreateBr(copies[0].header);
    Copy &last = copies[count - 1];

    // every copy's A, then one loop of every copy's I body, then every copy's Z
    for (unsigned k = 0; k < count; k++) {
        Copy &copy = copies[k];
        copy.preheader->getTerminator()->replaceUsesOfWith(
            copy.inner_header, k + 1 < count ? copies[k + 1].header : copies[0].inner_header);
        llvm::Instruction *old_latch = copy.latch->getTerminator();
        llvm::BranchInst::Create(k + 1 < count ? copies[k + 1].exit : next, old_latch);
        old_latch->eraseFromParent();
        if (k + 1 < count) {
            llvm::Instruction *inner_branch = copy.inner_latch->getTerminator();
            llvm::BranchInst::Create(copies[k + 1].inner_header, inner_branch);
            inner_branch->eraseFromParent();
        }
    }
    auto *back = llvm::cast<llvm::BranchInst>(last.inner_latch->getTerminator());
    back->replaceUsesOfWith(last.inner_header, copies[0].inner_header);
    back->replaceUsesOfWith(last.exit, copies[0].exit);
    back->setMetadata(llvm::LLVMContext::MD_loop, nullptr);

    // each copy's header phis, in the one loop's header; each copy's exit
    // phis, the values they take from its latch
    std::vector<std::pair<llvm::PHINode *, llvm::PHINode *>> moved;
    for (unsigned k = 0; k < count; k++) {
        Copy &copy = copies[k];
        for (llvm::PHINode &phi : llvm::make_early_inc_range(copy.inner_header->phis())) {
            llvm::PHINode *carried = &phi;
            if (k > 0) {
                carried = llvm::PHINode::Create(phi.getType(), 2, phi.getName(),
                                                copies[0].inner_header->getFirstNonPHI());
                phi.replaceAllUsesWith(carried);
            }
            moved.push_back({&phi, carried});
        }
    }
    for (unsigned k = 0, m = 0; k < count; k++) {
        Copy &copy = copies[k];
        for (; m < moved.size() && moved[m].first->getParent() == copy.inner_header; m++) {
            auto [phi, carried] = moved[m];
            llvm::Value *start = phi->getIncomingValueForBlock(copy.preheader);
            llvm::Value *step = phi->getIncomingValueForBlock(copy.inner_latch);
            if (k == 0) {
                phi->setIncomingBlock(phi->getBasicBlockIndex(copy.preheader), last.preheader);
                phi->setIncomingBlock(phi->getBasicBlockIndex(copy.inner_latch), last.inner_latch);
                continue;
            }
            carried->addIncoming(start, last.preheader);
            carried->addIncoming(step, last.inner_latch);
        }
    }
    for (auto [phi, carried] : moved)
        if (phi != carried)
            phi->eraseFromParent();
    for (unsigned k = 0; k < count; k++)
        for (llvm::PHINode &phi : llvm::make_early_inc_range(copies[k].exit->phis())) {
            phi.replaceAllUsesWith(phi.getIncomingValueForBlock(copies[k].inner_latch));
            phi.eraseFromParent();
        }
    for (unsigned k = 0; k < count; k++)
        llvm::RecursivelyDeleteTriviallyDeadInstructions(copies[k].map[c.latch_compare]);

    // the next count, or L for the rest
    b.SetInsertPoint(next);
    llvm::Value *next_first =
        b.CreateAdd(first, llvm::ConstantInt::get(index, count), "", true, true);
    first->addIncoming(next_first, next);
    b.CreateCondBr(b.CreateICmpEQ(next_first, full), rest, head);
}

} // namespace

extern "C" bool cc_jam_loops(LLVMValueRef fn_ref, unsigned register_bits, unsigned registers)
{
    llvm::Function &fn = *llvm::cast<llvm::Function>(llvm::unwrap(fn_ref));
    llvm::DominatorTree tree(fn);
    llvm::LoopInfo loops(tree);
    std::vector<Candidate> candidates;
    for (llvm::Loop *loop : loops.getLoopsInPreorder()) {
        Candidate c;
        if (match_loop(*loop, tree, register_bits, registers, c))
            candidates.push_back(c);
    }
    for (Candidate &c : candidates)
        jam(c);
    return !candidates.empty();
}
