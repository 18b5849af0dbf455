// work_item_offset.cpp - work-item loops that count their work-items, and
// values that are such a loop's induction variable plus loop-invariant
// terms (see work_item_offset.h).
#include <llvm/IR/Constants.h>
#include <llvm/IR/InstrTypes.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/PatternMatch.h>

#include <algorithm>

#include "compiler/work_item_offset.h"

bool cc_match_counted_loop(const llvm::Loop &loop, cc_counted_loop &c)
{
    c.preheader = loop.getLoopPreheader();
    c.header = loop.getHeader();
    c.latch = loop.getLoopLatch();
    c.exit = loop.getExitBlock();
    c.iv = loop.getCanonicalInductionVariable();
    if (!c.preheader || !c.exit || loop.getExitingBlock() != c.latch || !c.iv)
        return false;
    auto *latch_branch = llvm::dyn_cast<llvm::BranchInst>(c.latch->getTerminator());
    if (!latch_branch || !latch_branch->isConditional())
        return false;
    c.latch_compare = llvm::dyn_cast<llvm::ICmpInst>(latch_branch->getCondition());
    llvm::Value *next = c.iv->getIncomingValueForBlock(c.latch);
    if (!c.latch_compare || !c.latch_compare->hasOneUse() || !loop.contains(c.latch_compare))
        return false;
    llvm::CmpInst::Predicate stay;
    if (c.latch_compare->getOperand(0) == next) {
        c.count_operand = 1;
        stay = c.latch_compare->getPredicate();
    } else if (c.latch_compare->getOperand(1) == next) {
        c.count_operand = 0;
        stay = c.latch_compare->getSwappedPredicate();
    } else {
        return false;
    }
    if (latch_branch->getSuccessor(0) != c.header)
        stay = llvm::CmpInst::getInversePredicate(stay);
    return (stay == llvm::CmpInst::ICMP_ULT || stay == llvm::CmpInst::ICMP_NE) &&
           loop.isLoopInvariant(c.latch_compare->getOperand(c.count_operand));
}

cc_loop_split cc_split_counted_loop(const cc_counted_loop &c, unsigned multiple,
                                    llvm::BasicBlock *chunks, const char *name)
{
    llvm::Function *fn = c.header->getParent();
    llvm::LLVMContext &context = fn->getContext();
    llvm::IRBuilder<> b(c.preheader->getTerminator());
    llvm::Type *index = c.iv->getType();
    cc_loop_split s;
    s.trips = b.CreateBinaryIntrinsic(
        llvm::Intrinsic::umax, c.latch_compare->getOperand(c.count_operand),
        llvm::ConstantInt::get(index, 1), nullptr, llvm::Twine(name) + ".count");
    llvm::Value *step = llvm::ConstantInt::get(index, multiple);
    s.full = llvm::isPowerOf2_32(multiple)
                 ? b.CreateAnd(s.trips, llvm::ConstantInt::get(index, -(int64_t)multiple),
                               llvm::Twine(name) + ".full")
                 : b.CreateSub(s.trips, b.CreateURem(s.trips, step), llvm::Twine(name) + ".full");
    s.rest = llvm::BasicBlock::Create(context, llvm::Twine(name) + ".rest", fn);
    s.rest_start = llvm::BasicBlock::Create(context, llvm::Twine(name) + ".rest.start", fn);
    llvm::BasicBlock *rest_exit =
        llvm::BasicBlock::Create(context, llvm::Twine(name) + ".rest.exit", fn);
    c.preheader->getTerminator()->eraseFromParent();
    b.SetInsertPoint(c.preheader);
    b.CreateCondBr(b.CreateICmpNE(s.full, llvm::ConstantInt::get(index, 0)), chunks, s.rest);
    b.SetInsertPoint(s.rest);
    b.CreateCondBr(b.CreateICmpULT(s.full, s.trips), s.rest_start, c.exit);
    llvm::BranchInst::Create(c.header, s.rest_start);
    llvm::BranchInst::Create(c.exit, rest_exit);
    c.latch->getTerminator()->replaceUsesOfWith(c.exit, rest_exit);
    c.iv->setIncomingBlock(c.iv->getBasicBlockIndex(c.preheader), s.rest_start);
    c.iv->setIncomingValueForBlock(s.rest_start, s.full);
    return s;
}

bool cc_work_items_may_be_copied(const llvm::Loop &loop)
{
    for (const llvm::BasicBlock *block : loop.blocks())
        for (const llvm::Instruction &inst : *block) {
            if (llvm::isa<llvm::AllocaInst>(inst))
                return false;
            if (auto *call = llvm::dyn_cast<llvm::CallBase>(&inst);
                call && (call->isInlineAsm() || call->isConvergent() || call->cannotDuplicate()))
                return false;
            for (const llvm::User *user : inst.users())
                if (!loop.contains(llvm::cast<llvm::Instruction>(user)))
                    return false;
        }
    return true;
}

bool cc_same_count(const llvm::Loop &loop, const llvm::Loop &inner, llvm::PHINode **counter_phi)
{
    auto *branch = llvm::dyn_cast<llvm::BranchInst>(inner.getLoopLatch()->getTerminator());
    auto *compare = branch && branch->isConditional()
                        ? llvm::dyn_cast<llvm::ICmpInst>(branch->getCondition())
                        : nullptr;
    if (!compare)
        return false;
    auto step_of = [](llvm::Value *v, const llvm::Value *from) {
        auto *add = llvm::dyn_cast<llvm::BinaryOperator>(v);
        return add && add->getOpcode() == llvm::Instruction::Add && add->getOperand(0) == from &&
               llvm::isa<llvm::ConstantInt>(add->getOperand(1));
    };
    for (unsigned side = 0; side < 2; side++) {
        llvm::Value *counter = compare->getOperand(side);
        if (!loop.isLoopInvariant(compare->getOperand(1 - side)))
            continue;
        auto *phi = llvm::dyn_cast<llvm::PHINode>(counter);
        if (auto *add = llvm::dyn_cast<llvm::BinaryOperator>(counter); !phi && add)
            phi = llvm::dyn_cast<llvm::PHINode>(add->getOperand(0));
        if (!phi || phi->getParent() != inner.getHeader() || phi->getNumIncomingValues() != 2 ||
            (counter != phi && !step_of(counter, phi)))
            continue;
        if (loop.isLoopInvariant(phi->getIncomingValueForBlock(inner.getLoopPreheader())) &&
            step_of(phi->getIncomingValueForBlock(inner.getLoopLatch()), phi)) {
            if (counter_phi)
                *counter_phi = phi;
            return true;
        }
    }
    return false;
}

unsigned cc_vector_registers(const llvm::Type *type, unsigned register_bits)
{
    if (!type->isVectorTy())
        return 1;
    unsigned bits = (unsigned)type->getPrimitiveSizeInBits().getFixedValue();
    return std::max(1u, (bits + register_bits - 1) / register_bits);
}

unsigned cc_work_items_in_registers(unsigned most, unsigned registers_each, unsigned registers)
{
    unsigned count = most;
    while (count > 1 && count * registers_each + cc_reserved_registers > registers)
        count--;
    return std::max(count, 1u);
}

bool cc_match_offset(llvm::Value *value, const llvm::Value *iv, const llvm::Loop &loop,
                     bool through_truncs, std::vector<cc_offset_term> &terms)
{
    for (;;) {
        if (value == iv)
            return true;
        if (auto *trunc = llvm::dyn_cast<llvm::TruncInst>(value); trunc && through_truncs) {
            value = trunc->getOperand(0);
            continue;
        }
        auto *op = llvm::dyn_cast<llvm::BinaryOperator>(value);
        if (!op)
            return false;
        llvm::Value *left = op->getOperand(0), *right = op->getOperand(1);
        bool add = op->getOpcode() == llvm::Instruction::Add ||
                   (op->getOpcode() == llvm::Instruction::Or &&
                    llvm::cast<llvm::PossiblyDisjointInst>(op)->isDisjoint());
        if (add && loop.isLoopInvariant(right)) {
            terms.push_back({right, false});
            value = left;
        } else if (add && loop.isLoopInvariant(left)) {
            terms.push_back({left, false});
            value = right;
        } else if (op->getOpcode() == llvm::Instruction::Sub && loop.isLoopInvariant(right)) {
            terms.push_back({right, true});
            value = left;
        } else {
            return false;
        }
    }
}

llvm::Value *cc_sum_of_terms(llvm::IRBuilderBase &b, llvm::Type *type,
                             const std::vector<cc_offset_term> &terms)
{
    llvm::Value *sum = llvm::ConstantInt::get(type, 0);
    for (const cc_offset_term &term : terms) {
        llvm::Value *v = b.CreateZExtOrTrunc(term.value, type);
        sum = term.subtracted ? b.CreateSub(sum, v) : b.CreateAdd(sum, v);
    }
    return sum;
}

bool cc_rejoin_increment(llvm::Loop &loop)
{
    using namespace llvm::PatternMatch;
    llvm::BasicBlock *header = loop.getHeader(), *latch = loop.getLoopLatch();
    if (!latch || !loop.getLoopPreheader())
        return false;
    for (llvm::PHINode &iv : header->phis()) {
        auto *merged = llvm::dyn_cast<llvm::PHINode>(iv.getIncomingValueForBlock(latch));
        if (!merged || merged->getParent() != latch || !iv.getType()->isIntegerTy())
            continue;
        bool nuw = true, nsw = true, all = merged->getNumIncomingValues() > 0;
        for (llvm::Value *in : merged->incoming_values()) {
            auto *add = llvm::dyn_cast<llvm::BinaryOperator>(in);
            all &= add && match(add, m_c_Add(m_Specific(&iv), m_One()));
            nuw &= add && add->hasNoUnsignedWrap();
            nsw &= add && add->hasNoSignedWrap();
        }
        if (!all)
            continue;
        llvm::IRBuilder<> b(&*latch->getFirstInsertionPt());
        llvm::Value *next = b.CreateAdd(&iv, llvm::ConstantInt::get(iv.getType(), 1),
                                        iv.getName() + ".next", nuw, nsw);
        merged->replaceAllUsesWith(next);
        merged->eraseFromParent();
        return true;
    }
    return false;
}
