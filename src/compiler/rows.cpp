// rows.cpp - work-item loops cut where a quotient of the work-item's id
// changes: 1D launches over 2D data (`x = i % w`, `y = i / w`).
//
// Takes a function inside O3, right before narrowing (optimize.cpp), at
// the vectorizer-start point. A kernel launched over the pixels of an
// image in one dimension computes its row and column by dividing its id
// by the width; the quotient changes every w work-items, so no address
// built from it moves with the work-items, and the loop vectorizer
// gathered every load (a 5x5 convolution written so was 10x slower than
// the same kernel with 2D ids). Within a row the quotient is one value
// and the remainder moves with the id.
//
// A loop is taken when it is an innermost work-item loop (parallel.cpp's
// mark) in loop-simplify form with a canonical induction variable iv as
// its only header phi, its latch is its only exit and tests iv.next
// against a loop-invariant N (as narrow.cpp's), its exit has no phis, and
// it holds a quotient Q of A = (C + iv) mod 2^w (w <= 32; C loop-
// invariant, matched as narrow.cpp does) by a loop-invariant B:
// - `sdiv`/`udiv` A, K for a constant K > 0, or `lshr` A, k (an unsigned
//   division by 2^k, as InstCombine writes it; its remainder `and`), or
// - division.c's form of a division by a value: `fptosi`/`fptoui` of
//   `fdiv (sitofp A), (sitofp D)` (uitofp for unsigned) in double (float
//   for w <= 16), D being B or division.c's safe divisor `select(bad, 1,
//   B)`, or of the quotient corrected under "unsafe-fp-math"
//   (`trunc(ratio) - select(past, step, 0) + select(short, step, 0)`).
//   Either is exactly the integer quotient trunc(A / B) (division.c).
// Every such quotient of the same A and B is taken.
//
// The loop becomes, behind a check that B > 0 and that c + iv stays in
// [0, 2^w - 1] (2^(w-1) - 1 signed) for iv < T = max(N, 1), c = C mod 2^w
// extended by the signedness (then A = c + iv, and trunc is floor):
//
//   for (s = 0; s < T; s = e) {              // one row a segment
//       q0 = (c + s) / B;  e = min(T, (q0 + 1) B - c);
//       for (j = 0; j < e - s; j++) body with iv = s + j, Q = q0, D = B
//   }
//
// and the original loop otherwise. In the copy the quotient is the same
// for every work-item and the remainder `A - D Q` moves with them, so the
// addresses are consecutive; narrowing (next) then cuts the copy at the
// columns its guard selects (`x >= 2 && x < w - 2`). The copy's induction
// variable counts from 0, as narrowing and work-item addresses expect.
//
// Keeps no analysis valid (the pass manager is told so).
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/PatternMatch.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <llvm/Transforms/Utils/Local.h>
#include <llvm/Transforms/Utils/ValueMapper.h>
#include <llvm-c/Core.h>

#include <set>
#include <vector>

#include "compiler/parallel.h"
#include "compiler/rows.h"
#include "compiler/work_item_offset.h"

namespace
{

namespace pm = llvm::PatternMatch;

// A quotient of (C + iv) mod 2^w by B, as the loop computes it.
struct Quotient {
    llvm::Instruction *value; // Q
    llvm::Value *dividend;    // A
    llvm::Value *divisor;     // B
    llvm::SelectInst *safe;   // division.c's select(bad, 1, B), if any
    bool is_signed;
    std::vector<cc_offset_term> offset; // C
};

struct Candidate : cc_counted_loop {
    std::vector<llvm::BasicBlock *> blocks;
    std::vector<Quotient> quotients;         // of one A and B
    std::set<llvm::BasicBlock *> every_item; // the blocks every iteration runs
};

// D's integer value without division.c's safe select: B.
llvm::Value *divisor_of(llvm::Value *d, llvm::SelectInst *&safe)
{
    safe = nullptr;
    auto *select = llvm::dyn_cast<llvm::SelectInst>(d);
    if (select && pm::match(select->getTrueValue(), pm::m_One())) {
        safe = select;
        return select->getFalseValue();
    }
    return d;
}

// The fdiv under division.c's corrected quotient, or null.
llvm::Value *corrected_ratio(llvm::Value *v)
{
    llvm::Value *stepped, *ratio;
    if (!pm::match(v, pm::m_c_FAdd(pm::m_Value(stepped), pm::m_Select(pm::m_Value(), pm::m_Value(),
                                                                      pm::m_AnyZeroFP()))) ||
        !pm::match(stepped,
                   pm::m_FSub(pm::m_Intrinsic<llvm::Intrinsic::trunc>(pm::m_Value(ratio)),
                              pm::m_Select(pm::m_Value(), pm::m_Value(), pm::m_AnyZeroFP()))))
        return nullptr;
    return ratio;
}

// Whether inst is a quotient Q of some A by a loop-invariant B (filled in
// q but for the offset).
bool match_quotient(llvm::Instruction &inst, const llvm::Loop &loop, Quotient &q)
{
    q.value = &inst;
    q.safe = nullptr;
    unsigned op = inst.getOpcode();
    if (op == llvm::Instruction::SDiv || op == llvm::Instruction::UDiv) {
        auto *k = llvm::dyn_cast<llvm::ConstantInt>(inst.getOperand(1));
        if (!k || !k->getValue().isStrictlyPositive() || inst.getType()->getIntegerBitWidth() > 32)
            return false;
        q.dividend = inst.getOperand(0), q.divisor = k;
        q.is_signed = op == llvm::Instruction::SDiv;
        return true;
    }
    if (op == llvm::Instruction::LShr) {
        // an unsigned division by 2^k, as InstCombine writes it
        auto *k = llvm::dyn_cast<llvm::ConstantInt>(inst.getOperand(1));
        unsigned bits = inst.getType()->getIntegerBitWidth();
        if (!k || bits > 32 || k->getZExtValue() >= bits)
            return false;
        q.dividend = inst.getOperand(0);
        q.divisor = llvm::ConstantInt::get(inst.getType(), 1ull << k->getZExtValue());
        q.is_signed = false;
        return true;
    }
    if (op != llvm::Instruction::FPToSI && op != llvm::Instruction::FPToUI)
        return false;
    q.is_signed = op == llvm::Instruction::FPToSI;
    llvm::Type *type = inst.getType();
    if (!type->isIntegerTy() || type->getIntegerBitWidth() > 32)
        return false;
    llvm::Value *ratio = inst.getOperand(0);
    if (llvm::Value *inner = corrected_ratio(ratio))
        ratio = inner;
    auto *division = llvm::dyn_cast<llvm::BinaryOperator>(ratio);
    if (!division || division->getOpcode() != llvm::Instruction::FDiv ||
        division->getFastMathFlags().any())
        return false;
    unsigned bits = type->getIntegerBitWidth();
    llvm::Type *real = division->getType();
    if (!(real->isDoubleTy() || (real->isFloatTy() && bits <= 16)))
        return false;
    auto integer_of = [&](llvm::Value *v) -> llvm::Value * {
        auto *cast = llvm::dyn_cast<llvm::CastInst>(v);
        unsigned want = q.is_signed ? llvm::Instruction::SIToFP : llvm::Instruction::UIToFP;
        if (!cast || cast->getOpcode() != want || cast->getSrcTy() != type)
            return nullptr;
        return cast->getOperand(0);
    };
    llvm::Value *a = integer_of(division->getOperand(0)), *d = integer_of(division->getOperand(1));
    if (!a || !d)
        return false;
    q.dividend = a;
    q.divisor = divisor_of(d, q.safe);
    return loop.isLoopInvariant(q.divisor);
}

bool match_loop(llvm::Loop &loop, const llvm::DominatorTree &tree, Candidate &c)
{
    if (!loop.isInnermost() || !cc_is_work_item_loop(llvm::wrap(loop.getLoopID())) ||
        !loop.isLoopSimplifyForm())
        return false;
    if (!cc_match_counted_loop(loop, c) || !c.exit->phis().empty())
        return false;
    for (llvm::PHINode &phi : c.header->phis())
        if (&phi != c.iv)
            return false;

    for (llvm::BasicBlock *block : loop.blocks())
        for (llvm::Instruction &inst : *block) {
            if (llvm::isa<llvm::AllocaInst>(inst))
                return false;
            for (const llvm::User *user : inst.users())
                if (!loop.contains(llvm::cast<llvm::Instruction>(user)))
                    return false;
            Quotient q;
            if (!match_quotient(inst, loop, q) ||
                !cc_match_offset(q.dividend, c.iv, loop, true, q.offset))
                continue;
            // the first quotient's A and B decide; others of the same join
            if (!c.quotients.empty() &&
                (c.quotients[0].dividend != q.dividend || c.quotients[0].divisor != q.divisor ||
                 c.quotients[0].is_signed != q.is_signed))
                continue;
            c.quotients.push_back(q);
        }
    if (c.quotients.empty())
        return false;
    c.blocks.assign(loop.block_begin(), loop.block_end());
    for (llvm::BasicBlock *block : c.blocks)
        if (tree.dominates(block, c.latch))
            c.every_item.insert(block);
    return true;
}

void cut_rows(Candidate &c)
{
    const Quotient &first = c.quotients[0];
    llvm::Function *fn = c.header->getParent();
    llvm::LLVMContext &context = fn->getContext();
    llvm::IRBuilder<> b(c.preheader->getTerminator());
    llvm::Type *index = c.iv->getType(), *i64 = b.getInt64Ty(), *wide = b.getIntNTy(128);
    unsigned bits = first.dividend->getType()->getIntegerBitWidth();
    auto extend = [&](llvm::Value *v, llvm::Type *to) {
        return first.is_signed ? b.CreateSExtOrTrunc(v, to) : b.CreateZExtOrTrunc(v, to);
    };

    // T, c, and whether c + iv stays in range with B > 0
    llvm::Value *trips =
        b.CreateBinaryIntrinsic(llvm::Intrinsic::umax, c.latch_compare->getOperand(c.count_operand),
                                llvm::ConstantInt::get(index, 1), nullptr, "rows.count");
    llvm::Type *narrow = b.getIntNTy(bits);
    llvm::Value *offset = extend(cc_sum_of_terms(b, narrow, first.offset), wide);
    llvm::APInt top = first.is_signed ? llvm::APInt::getSignedMaxValue(bits).zext(128)
                                      : llvm::APInt::getMaxValue(bits).zext(128);
    llvm::Value *last = b.CreateAdd(
        offset, b.CreateSub(b.CreateZExt(trips, wide), llvm::ConstantInt::get(wide, 1)));
    llvm::Value *divisor = first.divisor;
    llvm::Value *positive =
        first.is_signed ? b.CreateICmpSGT(divisor, llvm::ConstantInt::get(divisor->getType(), 0))
                        : b.CreateICmpNE(divisor, llvm::ConstantInt::get(divisor->getType(), 0));
    llvm::Value *fits =
        b.CreateAnd(b.CreateAnd(positive, b.CreateICmpSGE(offset, llvm::ConstantInt::get(wide, 0))),
                    b.CreateICmpSLE(last, llvm::ConstantInt::get(wide, top)), "rows.fit");
    llvm::Value *c64 = b.CreateTrunc(offset, i64), *b64 = b.CreateZExt(divisor, i64);
    llvm::Value *t64 = b.CreateZExtOrTrunc(trips, i64);

    llvm::BasicBlock *row = llvm::BasicBlock::Create(context, "rows.row", fn, c.header);
    llvm::BasicBlock *next_row = llvm::BasicBlock::Create(context, "rows.next", fn);
    c.preheader->getTerminator()->eraseFromParent();
    b.SetInsertPoint(c.preheader);
    b.CreateCondBr(fits, row, c.header);

    // a row: s, q0 and e
    b.SetInsertPoint(row);
    llvm::PHINode *start = b.CreatePHI(i64, 2, "rows.start");
    start->addIncoming(b.getInt64(0), c.preheader);
    llvm::Value *q64 = b.CreateUDiv(b.CreateAdd(c64, start), b64, "rows.q");
    llvm::Value *end = b.CreateBinaryIntrinsic(
        llvm::Intrinsic::umin, t64,
        b.CreateSub(b.CreateMul(b.CreateAdd(q64, b.getInt64(1)), b64), c64), nullptr, "rows.end");
    llvm::Value *count = b.CreateZExtOrTrunc(b.CreateSub(end, start), index);
    llvm::Value *row_start = b.CreateZExtOrTrunc(start, index);
    llvm::Value *quotient = b.CreateTrunc(q64, first.value->getType(), "rows.quotient");

    // the copy of the loop for one row
    llvm::ValueToValueMapTy map;
    std::vector<llvm::BasicBlock *> copies;
    for (llvm::BasicBlock *block : c.blocks) {
        llvm::BasicBlock *copy = llvm::CloneBasicBlock(block, map, ".row", fn);
        map[block] = copy;
        copies.push_back(copy);
    }
    llvm::remapInstructionsInBlocks(copies, map);
    auto *header = llvm::cast<llvm::BasicBlock>(map[c.header]);
    auto *latch = llvm::cast<llvm::BasicBlock>(map[c.latch]);
    b.CreateBr(header);
    auto *iv = llvm::cast<llvm::PHINode>(map[c.iv]);
    iv->setIncomingBlock(iv->getBasicBlockIndex(c.preheader), row);
    auto *iv_next = llvm::cast<llvm::Instruction>(map[c.iv->getIncomingValueForBlock(c.latch)]);
    auto *compare = llvm::cast<llvm::ICmpInst>(map[c.latch_compare]);
    compare->setOperand(c.count_operand, count);
    auto *latch_branch = llvm::cast<llvm::BranchInst>(latch->getTerminator());
    for (unsigned k = 0; k < latch_branch->getNumSuccessors(); k++)
        if (latch_branch->getSuccessor(k) == c.exit)
            latch_branch->setSuccessor(k, next_row);

    // iv = s + j in the body (the counting keeps j)
    llvm::IRBuilder<> at_head(header, header->getFirstInsertionPt());
    llvm::Value *item = at_head.CreateAdd(row_start, iv, "rows.iv", true, true);
    iv->replaceUsesWithIf(
        item, [&](llvm::Use &use) { return use.getUser() != iv_next && use.getUser() != item; });
    llvm::IRBuilder<> at_latch(compare);
    llvm::Value *item_next = nullptr;
    for (llvm::Use &use : llvm::make_early_inc_range(iv_next->uses())) {
        if (use.getUser() == iv || use.getUser() == compare)
            continue;
        if (!item_next)
            item_next = at_latch.CreateAdd(row_start, iv_next, "rows.iv.next", true, true);
        use.set(item_next);
    }
    // the quotients are q0, their divisor B; a remainder by a constant
    // (`and` A, K - 1 for K = 2^k unsigned) A - K q0
    auto *constant = llvm::dyn_cast<llvm::ConstantInt>(first.divisor);
    for (llvm::BasicBlock *copy : copies)
        for (llvm::Instruction &inst : llvm::make_early_inc_range(*copy)) {
            unsigned op = inst.getOpcode();
            bool remainder = (op == llvm::Instruction::SRem && first.is_signed) ||
                             (op == llvm::Instruction::URem && !first.is_signed);
            bool mask = op == llvm::Instruction::And && !first.is_signed && constant &&
                        constant->getValue().isPowerOf2() &&
                        pm::match(inst.getOperand(1), pm::m_SpecificInt(constant->getValue() - 1));
            if ((!remainder || inst.getOperand(1) != first.divisor) && !mask)
                continue;
            if (inst.getOperand(0) != map.lookup(first.dividend))
                continue;
            llvm::IRBuilder<> here(&inst);
            inst.replaceAllUsesWith(here.CreateSub(
                inst.getOperand(0), here.CreateMul(quotient, first.divisor), "rows.r"));
            inst.eraseFromParent();
        }
    for (const Quotient &q : c.quotients) {
        auto *copy = llvm::cast<llvm::Instruction>(map[q.value]);
        copy->replaceAllUsesWith(quotient);
        llvm::RecursivelyDeleteTriviallyDeadInstructions(copy);
        if (q.safe)
            if (auto *safe = llvm::dyn_cast_or_null<llvm::Instruction>(map.lookup(q.safe)))
                safe->replaceAllUsesWith(q.divisor);
    }

    // What is now the same for every work-item of the row moves to the
    // row's block (narrowing asks its offsets and bounds to be outside the
    // loop, and no LICM runs before it): `w * q0`, `q0 < 2`. What moves
    // out of a block that not every work-item runs loses its flags that
    // may make poison (a border row's `inbounds` address above the image
    // is poison; a check computed from it would decide at random).
    std::set<llvm::BasicBlock *> inside(copies.begin(), copies.end());
    std::set<llvm::BasicBlock *> every_item;
    for (llvm::BasicBlock *block : c.every_item)
        every_item.insert(llvm::cast<llvm::BasicBlock>(map[block]));
    for (bool moved = true; moved;) {
        moved = false;
        for (llvm::BasicBlock *copy : copies)
            for (llvm::Instruction &inst : llvm::make_early_inc_range(*copy)) {
                if (llvm::isa<llvm::PHINode>(inst) || inst.isTerminator() ||
                    !llvm::isSafeToSpeculativelyExecute(&inst) || inst.mayReadOrWriteMemory())
                    continue;
                bool invariant = true;
                for (llvm::Value *operand : inst.operands())
                    if (auto *def = llvm::dyn_cast<llvm::Instruction>(operand))
                        invariant = invariant && !inside.count(def->getParent());
                if (!invariant)
                    continue;
                if (!every_item.count(copy))
                    inst.dropPoisonGeneratingAnnotations();
                inst.moveBefore(row->getTerminator());
                moved = true;
            }
    }

    // the next row, or the loop's exit
    b.SetInsertPoint(next_row);
    start->addIncoming(end, next_row);
    b.CreateCondBr(b.CreateICmpULT(end, t64), row, c.exit);
}

} // namespace

extern "C" bool cc_cut_rows(LLVMValueRef fn_ref)
{
    llvm::Function &fn = *llvm::cast<llvm::Function>(llvm::unwrap(fn_ref));
    llvm::DominatorTree tree(fn);
    llvm::LoopInfo loops(tree);
    std::vector<Candidate> candidates;
    for (llvm::Loop *loop : loops.getLoopsInPreorder()) {
        Candidate c;
        if (match_loop(*loop, tree, c))
            candidates.push_back(std::move(c));
    }
    for (Candidate &c : candidates)
        cut_rows(c);
    return !candidates.empty();
}
