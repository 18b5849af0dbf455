// narrow.cpp - work-item loops cut at the work-items their guard selects.
//
// Takes a function inside O3, right before the loop vectorizer (after
// inlining, and after loop unswitching hoisted the branches on values the
// same for every work-item out of the x loops), whose innermost work-item
// loops carry parallel.cpp's mark (!{!"cpucl.work_items"} in the loop ID;
// unswitching copies loop IDs, so its copies carry it too). A loop is
// taken when it is in loop-simplify and LCSSA form with a canonical
// induction variable iv (0, 1, 2, ...), its latch is its only exit and
// tests iv.next against a loop-invariant N (`ult` or LFTR's `eq`/`ne`:
// bottom-tested, so it runs T = max(N, 1) times), and a conditional
// branch in it other than the latch's tests `icmp pred A, U` (either
// order), U loop-invariant and A = (C + iv) mod 2^w for a loop-invariant
// C, w >= 16: a chain of truncs and adds or subs of invariants from iv
// (`l < s`, `get_global_id(0) < n`, `int l = get_local_id(0)`). Or the
// branch tests an and/or of such compares (a compound guard, below).
//
// Gives, in the preheader, c = trunc_w(C) extended by pred's signedness,
// and the question whether c + iv stays in range over iv in [0, T)
// (computed in i128); if it does, the iv where the condition holds (for
// `ne`: fails) are one interval [lo, hi), clamped to [0, T], and the loop
// becomes
//
//   if (no wrap) { loop over [0, lo) with the condition the other value;
//                  loop over [lo, hi) with it constant;
//                  loop over [hi, T) with the other value }
//   else original loop
//
// each copy skipped when empty, its header phis (the regions' `next
// region` maximum) starting from the previous copy's values, the exit's
// LCSSA phis taking the last one's. Each copy counts from 0 again (its iv
// over [0, hi - lo), the work-item lo + iv), so that the clamps round and
// the passes after this one (divergent.cpp, jam.cpp) take it as they take
// any work-item loop. The copies' branches on the constant
// are folded here, so the vectorizer sees straight-line bodies: a tree
// reduction's level runs its s active work-items with plain vector loads
// and stores instead of all of them under a mask (AVX2's masked stores
// are slow on AMD), and the others only store their bookkeeping. One
// guard per loop (the one over most instructions), not recursively, to
// bound code size; `eq`/`ne` leave a middle copy of at most one work-item,
// which is kept scalar. When C is a constant the question is answered
// here, assuming T <= 4096 (CL_DEVICE_MAX_WORK_GROUP_SIZE, compiler.h:
// every work-item loop runs over a local size), and the original loop is
// dropped.
//
// A compound guard: an `and` of compares other than `ne` holds exactly on
// the intersection of their intervals (`x > 0 && x < n - 1`), an `or` of
// compares other than `eq` fails exactly on the intersection of where
// each fails (`x < 1 || x >= n - 1`): the three copies are made for that
// interval, each with the condition folded. Any other and/or of `eq` and
// `ne` compares (a stencil's `x == 0 || x == n - 1`) is quiet: each leaf
// meets its one work-item at most once and allows the longer side of it;
// the middle copy runs where all of them allow, with every leaf at its
// value away from that work-item (`eq` false, `ne` true) and the
// condition folded, and the outer copies, usually empty or a work-item
// long (a stencil's first and last groups), keep the condition as it is.
// A tree of one operator may also hold conditions the same for every
// work-item (SimplifyCFG merges `if (x < n && y < n)` into one branch on
// `x >= n | y >= n` after unswitching has run): the copies run only when
// each of those has the value that leaves the tree to its leaves (false
// in an `or`, true in an `and`); else the original loop runs, as for a
// wrap.
//
// Before the rounds, fold_short_circuits turns a short-circuit `||` or
// `&&` whose value a kernel keeps (`int oob = x < p || ...; if (!oob)`),
// which reaches the loop as a triangle and an i1 phi, into an and/or tree
// the guards can be made of.
//
// Clamps, in a second round over the loops (the guards' copies included):
// a minimum or maximum of A = (C + iv) mod 2^w and a loop-invariant U
// returns A exactly where `A <= U` holds (`>=` for a maximum; signed or
// not as it is), and so does one of C' plus such a clamp where that one
// returns its A (`clamp(x + dx, 0, n - 1)` is `smin(smax(x + dx, 0), n -
// 1)`, which InstCombine writes as `smin(smax(x, -dx) + dx, n - 1)`). A
// loop whose clamps make an address (`in[clamp(x + 1, 0, n - 1)]`, a
// blur's edge) runs as three copies: the middle one, where every clamp
// returns its A, without them, so that the vectorizer loads consecutive
// elements instead of gathering; the outer ones as they are.
//
// Assumes that work-item loops are loops over the local size (the same
// order of iterations is kept, so nothing about parallelism is assumed),
// and keeps no analysis valid (the pass manager is told so).
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/CFG.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Metadata.h>
#include <llvm/IR/PatternMatch.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <llvm/Transforms/Utils/Local.h>
#include <llvm/Transforms/Utils/LoopSimplify.h>
#include <llvm/Transforms/Utils/LoopUtils.h>
#include <llvm/Transforms/Utils/ValueMapper.h>
#include <llvm-c/Core.h>

#include <algorithm>
#include <utility>
#include <vector>

#include "compiler/compiler.h"
#include "compiler/narrow.h"
#include "compiler/parallel.h"
#include "compiler/work_item_offset.h"

namespace
{

bool has_mark(const llvm::MDNode *id)
{
    return cc_is_work_item_loop(llvm::wrap(const_cast<llvm::MDNode *>(id)));
}

// A compare `icmp pred A, U` with A = (C + iv) mod 2^w; or a clamp, a
// minimum or maximum of A and U, which returns A exactly where `A <= U`
// (`>=` for a maximum) holds, signed or not as it is.
struct Leaf {
    llvm::ICmpInst *compare = nullptr;
    llvm::MinMaxIntrinsic *clamp = nullptr; // (then compare is null)
    unsigned varying = 0;                   // the clamp's operand that is A
    llvm::CmpInst::Predicate predicate;     // with A on the left
    llvm::Value *bound = nullptr;           // U
    std::vector<cc_offset_term> offset;     // C
    unsigned width = 0;                     // w
};

// A branch on one leaf, or on an and/or of leaves (a compound guard).
// Where the compound condition holds is one interval of work-items for an
// `and` of leaves that hold on one (no `ne`: `x > 0 && x < n - 1`); where
// it fails is one for an `or` of leaves that fail on one (no `eq`:
// `x < 1 || x >= n - 1`). Otherwise, when every leaf is `eq` or `ne`
// (`x == 0 || x == n - 1`), the guard is quiet: only its middle copy is
// folded. A branch on a condition the same for every work-item (the
// value of `y < 1 || y >= h - 1` kept in an int, which unswitching saw as
// a phi in the loop before fold_short_circuits, or one unswitching left in
// a loop too large for its cost model) is unswitched: one copy runs where
// it is false, the original loop where it is true, each with it folded.
enum class Kind { single, and_interval, or_interval, quiet, invariant };

struct Guard {
    llvm::BranchInst *branch = nullptr;
    llvm::Value *condition = nullptr;
    std::vector<Leaf> leaves;
    // Loop-invariant conditions in a tree of one operator (SimplifyCFG
    // merges `if (x < n && y < n)` into one branch on an `or` after
    // unswitching): the copies run when each has its neutral value (false
    // in an `or`, true in an `and`), which makes the tree its leaves'.
    std::vector<llvm::Value *> invariants;
    bool neutral = false;
    Kind kind = Kind::single;
    unsigned guarded = 0; // instructions only one side runs
};
struct Candidate : cc_counted_loop {
    std::vector<llvm::BasicBlock *> blocks;
    Guard guard; // (its condition null when there is none)
    std::vector<Leaf> clamps;
};

// Whether compare is a leaf on iv.
bool match_leaf(llvm::ICmpInst *compare, const llvm::PHINode *iv, const llvm::Loop &loop,
                Leaf &leaf)
{
    if (!compare->getOperand(0)->getType()->isIntegerTy() || !loop.contains(compare))
        return false;
    unsigned width = compare->getOperand(0)->getType()->getIntegerBitWidth();
    if (width < 16 || width > 64)
        return false;
    for (unsigned side = 0; side < 2; side++) {
        llvm::Value *a = compare->getOperand(side), *u = compare->getOperand(1 - side);
        std::vector<cc_offset_term> offset;
        if (!loop.isLoopInvariant(u) || !cc_match_offset(a, iv, loop, true, offset))
            continue;
        leaf.compare = compare;
        leaf.predicate = side ? compare->getSwappedPredicate() : compare->getPredicate();
        leaf.bound = u;
        leaf.offset = std::move(offset);
        leaf.width = width;
        return true;
    }
    return false;
}

enum { MAX_LEAVES = 8, MAX_CLAMPS = 32 };

// Where a minimum or maximum returns its first operand.
llvm::CmpInst::Predicate keeps_first(const llvm::MinMaxIntrinsic &clamp)
{
    switch (clamp.getIntrinsicID()) {
    case llvm::Intrinsic::smin: return llvm::CmpInst::ICMP_SLE;
    case llvm::Intrinsic::smax: return llvm::CmpInst::ICMP_SGE;
    case llvm::Intrinsic::umin: return llvm::CmpInst::ICMP_ULE;
    default: return llvm::CmpInst::ICMP_UGE; // umax
    }
}

// The minimum or maximum that value adds loop-invariant terms to, if any.
llvm::MinMaxIntrinsic *clamp_below(llvm::Value *value, const llvm::Loop &loop)
{
    for (unsigned depth = 0; depth < 8; depth++) {
        if (auto *clamp = llvm::dyn_cast<llvm::MinMaxIntrinsic>(value))
            return clamp;
        auto *inst = llvm::dyn_cast<llvm::Instruction>(value);
        if (!inst || !loop.contains(inst))
            return nullptr;
        if (llvm::isa<llvm::TruncInst>(inst)) {
            value = inst->getOperand(0);
        } else if (inst->getOpcode() == llvm::Instruction::Add ||
                   inst->getOpcode() == llvm::Instruction::Sub) {
            bool right = loop.isLoopInvariant(inst->getOperand(1));
            if (!right && (inst->getOpcode() == llvm::Instruction::Sub ||
                           !loop.isLoopInvariant(inst->getOperand(0))))
                return nullptr;
            value = inst->getOperand(right ? 0 : 1);
        } else {
            return nullptr;
        }
    }
    return nullptr;
}

// Whether clamp is a leaf on iv: a minimum or maximum of A and a
// loop-invariant U, A = (C + iv) mod 2^w or C' plus another such clamp
// (`clamp(x + dx, 0, n - 1)` is `smin(smax(x + dx, 0), n - 1)`), whose A
// it adds C' to: where every leaf holds, every clamp returns its operand,
// so the outer one's operand is C' plus the inner one's A.
bool match_clamp(llvm::MinMaxIntrinsic *clamp, const llvm::PHINode *iv, const llvm::Loop &loop,
                 Leaf &leaf, unsigned depth = 0)
{
    if (depth > 4 || !loop.contains(clamp) || !clamp->getType()->isIntegerTy())
        return false;
    unsigned width = clamp->getType()->getIntegerBitWidth();
    if (width < 16 || width > 64)
        return false;
    for (unsigned side = 0; side < 2; side++) {
        llvm::Value *a = clamp->getOperand(side), *u = clamp->getOperand(1 - side);
        if (!loop.isLoopInvariant(u))
            continue;
        Leaf inner;
        if (!cc_match_offset(a, iv, loop, true, inner.offset)) {
            // C' + another clamp: InstCombine writes `smax(x - 1, 0)` as
            // `smax(x, 1) - 1`
            llvm::MinMaxIntrinsic *nested = clamp_below(a, loop);
            std::vector<cc_offset_term> more;
            if (!nested || !match_clamp(nested, iv, loop, inner, depth + 1) ||
                !cc_match_offset(a, nested, loop, true, more))
                continue;
            inner.offset.insert(inner.offset.end(), more.begin(), more.end());
        }
        leaf.clamp = clamp;
        leaf.varying = side;
        leaf.predicate = keeps_first(*clamp);
        leaf.bound = u;
        leaf.offset = std::move(inner.offset);
        leaf.width = width;
        return true;
    }
    return false;
}

// Whether value flows into an address (a getelementptr) through integer
// arithmetic: where narrowing the clamps lets the vectorizer load
// consecutive elements instead of gathering.
bool feeds_address(const llvm::Value *value, unsigned depth = 0)
{
    for (const llvm::User *user : value->users()) {
        if (llvm::isa<llvm::GetElementPtrInst>(user))
            return true;
        auto *inst = llvm::dyn_cast<llvm::Instruction>(user);
        if (inst && depth < 6 &&
            (inst->isBinaryOp() || inst->isCast() || llvm::isa<llvm::MinMaxIntrinsic>(inst)) &&
            feeds_address(inst, depth + 1))
            return true;
    }
    return false;
}

// The loop's clamps on iv, when one of them makes an address.
bool match_clamps(const llvm::Loop &loop, const llvm::PHINode *iv, std::vector<Leaf> &clamps)
{
    bool addresses = false;
    for (llvm::BasicBlock *block : loop.blocks())
        for (llvm::Instruction &inst : *block) {
            auto *clamp = llvm::dyn_cast<llvm::MinMaxIntrinsic>(&inst);
            Leaf leaf;
            if (!clamp || !match_clamp(clamp, iv, loop, leaf))
                continue;
            if (clamps.size() == MAX_CLAMPS)
                return false;
            addresses = addresses || feeds_address(clamp);
            clamps.push_back(std::move(leaf));
        }
    return addresses;
}

// The compares at the leaves of an and/or tree (`or`, `and`, and their
// `select` forms), in order; false when something else is in it.
bool collect_leaves(llvm::Value *value, const llvm::Loop &loop,
                    std::vector<llvm::ICmpInst *> &leaves, std::vector<llvm::Value *> &invariants)
{
    using namespace llvm::PatternMatch;
    llvm::Value *a, *b;
    if (loop.isLoopInvariant(value)) {
        if (std::find(invariants.begin(), invariants.end(), value) == invariants.end())
            invariants.push_back(value);
        return invariants.size() <= MAX_LEAVES;
    }
    if (auto *compare = llvm::dyn_cast<llvm::ICmpInst>(value)) {
        if (std::find(leaves.begin(), leaves.end(), compare) == leaves.end())
            leaves.push_back(compare);
        return leaves.size() <= MAX_LEAVES;
    }
    if (match(value, m_LogicalOr(m_Value(a), m_Value(b))) ||
        match(value, m_LogicalAnd(m_Value(a), m_Value(b))))
        return collect_leaves(a, loop, leaves, invariants) &&
               collect_leaves(b, loop, leaves, invariants);
    return false;
}

// Which operators an and/or tree has: 1 `and`, 2 `or`.
unsigned tree_operators(llvm::Value *value)
{
    using namespace llvm::PatternMatch;
    llvm::Value *a, *b;
    if (match(value, m_LogicalOr(m_Value(a), m_Value(b))))
        return 2 | tree_operators(a) | tree_operators(b);
    if (match(value, m_LogicalAnd(m_Value(a), m_Value(b))))
        return 1 | tree_operators(a) | tree_operators(b);
    return 0;
}

// The value of a compound guard when every leaf has its value away from
// its one work-item: `eq` false, `ne` true.
bool quiet_value(llvm::Value *value, const Guard &g)
{
    using namespace llvm::PatternMatch;
    llvm::Value *a = nullptr, *b = nullptr;
    if (std::find(g.invariants.begin(), g.invariants.end(), value) != g.invariants.end())
        return g.neutral;
    if (auto *compare = llvm::dyn_cast<llvm::ICmpInst>(value))
        return compare->getPredicate() == llvm::CmpInst::ICMP_NE;
    if (match(value, m_LogicalOr(m_Value(a), m_Value(b))))
        return quiet_value(a, g) || quiet_value(b, g);
    bool is_and = match(value, m_LogicalAnd(m_Value(a), m_Value(b)));
    return is_and && quiet_value(a, g) && quiet_value(b, g); // collect_leaves saw the tree
}

// Counts the instructions of loop that only one side of guard's branch
// runs; whether there are any.
bool count_guarded(const llvm::Loop &loop, const llvm::DominatorTree &tree, Guard &guard)
{
    guard.guarded = 0;
    llvm::BasicBlock *from = guard.branch->getParent();
    for (llvm::BasicBlock *to : llvm::successors(guard.branch)) {
        if (!loop.contains(to) || to->getSinglePredecessor() != from || to == loop.getHeader())
            continue;
        for (llvm::BasicBlock *block : loop.blocks())
            if (tree.dominates(to, block))
                guard.guarded += (unsigned)block->size();
    }
    return guard.guarded > 0;
}

// The guard `branch` is, if it is one.
bool match_guard(llvm::BranchInst *branch, const llvm::PHINode *iv, const llvm::Loop &loop,
                 const llvm::DominatorTree &tree, Guard &guard)
{
    guard.branch = branch;
    auto *condition = llvm::dyn_cast<llvm::Instruction>(branch->getCondition());
    bool hoisted = false; // (a tree of invariants that fold_short_circuits made)
    if (!llvm::isa<llvm::Constant>(branch->getCondition()) &&
        (!condition || loop.makeLoopInvariant(condition, hoisted))) {
        guard.kind = Kind::invariant;
        guard.condition = branch->getCondition();
        guard.invariants.assign(1, guard.condition);
        return count_guarded(loop, tree, guard);
    }
    std::vector<llvm::ICmpInst *> compares;
    if (!condition || !loop.contains(condition) ||
        !collect_leaves(condition, loop, compares, guard.invariants) || compares.empty())
        return false;
    guard.condition = condition;
    guard.leaves.assign(compares.size(), Leaf());
    bool any_eq = false, any_ne = false, any_order = false;
    for (size_t i = 0; i < compares.size(); i++) {
        Leaf &leaf = guard.leaves[i];
        if (!match_leaf(compares[i], iv, loop, leaf))
            return false;
        any_eq |= leaf.predicate == llvm::CmpInst::ICMP_EQ;
        any_ne |= leaf.predicate == llvm::CmpInst::ICMP_NE;
        any_order |= !llvm::CmpInst::isEquality(leaf.predicate);
    }
    unsigned operators = tree_operators(condition);
    if (compares.size() == 1)
        guard.kind = Kind::single;
    else if (operators == 1 && !any_ne)
        guard.kind = Kind::and_interval;
    else if (operators == 2 && !any_eq)
        guard.kind = Kind::or_interval;
    else if (!any_order)
        guard.kind = Kind::quiet;
    else
        return false;
    if (!guard.invariants.empty() && operators != 1 && operators != 2)
        return false;
    guard.neutral = operators == 1;
    return count_guarded(loop, tree, guard);
}

// Whether loop is a work-item loop narrowing can take, with its guard (or
// its clamps).
bool match_loop(llvm::Loop &loop, const llvm::DominatorTree &tree, bool clamps_only, Candidate &c)
{
    if (!loop.isInnermost() || !has_mark(loop.getLoopID()) || !loop.isLoopSimplifyForm())
        return false;
    if (!cc_match_counted_loop(loop, c))
        return false;

    // a guard on the work-items before a branch on an invariant (which the
    // vectorizer handles under one mask for all lanes), then the one over
    // most instructions
    auto rank = [](const Guard &g) {
        return std::make_pair(g.condition && g.kind != Kind::invariant, g.guarded);
    };
    for (llvm::BasicBlock *block : loop.blocks()) {
        auto *branch = llvm::dyn_cast<llvm::BranchInst>(block->getTerminator());
        Guard guard;
        if (!clamps_only && block != c.latch && branch && branch->isConditional() &&
            match_guard(branch, c.iv, loop, tree, guard) && rank(guard) > rank(c.guard))
            c.guard = std::move(guard);
    }
    if (clamps_only ? !match_clamps(loop, c.iv, c.clamps) : !c.guard.condition)
        return false;
    c.blocks.assign(loop.block_begin(), loop.block_end());
    return true;
}

// Whether c + iv provably stays in range for iv < T: C constant, and T at
// most N when N is a constant, else CL_DEVICE_MAX_WORK_GROUP_SIZE.
bool never_wraps(const Candidate &c, const Leaf &g)
{
    llvm::APInt offset(g.width, 0);
    for (const cc_offset_term &term : g.offset) {
        auto *k = llvm::dyn_cast<llvm::ConstantInt>(term.value);
        if (!k)
            return false;
        llvm::APInt v = k->getValue().trunc(g.width);
        offset = term.subtracted ? offset - v : offset + v;
    }
    bool is_signed = llvm::CmpInst::isSigned(g.predicate);
    auto *n = llvm::dyn_cast<llvm::ConstantInt>(c.latch_compare->getOperand(c.count_operand));
    uint64_t trips = n ? std::max<uint64_t>(n->getZExtValue(), 1) : CC_MAX_WORK_GROUP_SIZE;
    if (n && n->getValue().getActiveBits() > 32)
        return false;
    llvm::APInt last = (is_signed ? offset.sext(128) : offset.zext(128)) + (trips - 1);
    llvm::APInt limit = is_signed ? llvm::APInt::getSignedMaxValue(g.width).sext(128)
                                  : llvm::APInt::getMaxValue(g.width).zext(128);
    return last.sle(limit);
}

// The loop ID with llvm.loop.vectorize.enable false added: the middle copy
// of an `eq`/`ne` guard runs at most one work-item.
llvm::MDNode *scalar_loop_id(llvm::MDNode *id)
{
    llvm::LLVMContext &context = id->getContext();
    std::vector<llvm::Metadata *> operands{nullptr};
    for (unsigned i = 1; i < id->getNumOperands(); i++)
        operands.push_back(id->getOperand(i));
    llvm::Metadata *disable[] = {
        llvm::MDString::get(context, "llvm.loop.vectorize.enable"),
        llvm::ConstantAsMetadata::get(llvm::ConstantInt::getFalse(context))};
    operands.push_back(llvm::MDNode::get(context, disable));
    llvm::MDNode *scalar = llvm::MDNode::getDistinct(context, operands);
    scalar->replaceOperandWith(0, scalar);
    return scalar;
}

// Where leaf's condition holds (for `ne`: fails) in c + iv: the iv of
// [lo, hi), in i128, unclamped; and whether c + iv may wrap (null: never).
struct Interval {
    llvm::Value *lo, *hi, *may_wrap;
    bool inside; // whether the condition holds in [lo, hi)
};

Interval leaf_interval(llvm::IRBuilder<> &b, const Candidate &c, const Leaf &g,
                       llvm::Value *count_wide)
{
    llvm::Type *wide = b.getIntNTy(128), *narrow = b.getIntNTy(g.width);
    bool is_signed = llvm::CmpInst::isSigned(g.predicate);
    auto extend = [&](llvm::Value *v) {
        return is_signed ? b.CreateSExt(v, wide) : b.CreateZExt(v, wide);
    };
    llvm::Value *c_wide = extend(cc_sum_of_terms(b, narrow, g.offset));
    llvm::Value *d = b.CreateSub(extend(g.bound), c_wide);
    llvm::Value *d1 = b.CreateAdd(d, llvm::ConstantInt::get(wide, 1));
    llvm::Value *zero = llvm::ConstantInt::get(wide, 0);
    Interval r{d, d1, nullptr, g.predicate != llvm::CmpInst::ICMP_NE};
    switch (g.predicate) {
    case llvm::CmpInst::ICMP_ULT:
    case llvm::CmpInst::ICMP_SLT: r.lo = zero, r.hi = d; break;
    case llvm::CmpInst::ICMP_ULE:
    case llvm::CmpInst::ICMP_SLE: r.lo = zero, r.hi = d1; break;
    case llvm::CmpInst::ICMP_UGT:
    case llvm::CmpInst::ICMP_SGT: r.lo = d1, r.hi = count_wide; break;
    case llvm::CmpInst::ICMP_UGE:
    case llvm::CmpInst::ICMP_SGE: r.lo = d, r.hi = count_wide; break;
    default: break; // eq, ne
    }
    if (!never_wraps(c, g)) {
        llvm::APInt limit = is_signed ? llvm::APInt::getSignedMaxValue(g.width).sext(128)
                                      : llvm::APInt::getMaxValue(g.width).zext(128);
        llvm::Value *last =
            b.CreateAdd(c_wide, b.CreateSub(count_wide, llvm::ConstantInt::get(wide, 1)));
        r.may_wrap = b.CreateICmpSGT(last, llvm::ConstantInt::get(wide, limit));
    }
    return r;
}

// A copy of the loop running over [start, end) counts from 0 instead
// (a canonical induction variable, which the clamps round after the
// guards' and the passes after this one take loops by): its iv runs over
// [0, end - start), and start + iv stands for the work-item where the
// body used iv. The copy runs at least once (start < end).
void count_from_zero(llvm::PHINode *iv, llvm::BasicBlock *preheader, llvm::BasicBlock *latch,
                     llvm::ICmpInst *latch_compare, unsigned count_operand, llvm::Value *start,
                     llvm::Value *end)
{
    auto *next = llvm::cast<llvm::Instruction>(iv->getIncomingValueForBlock(latch));
    llvm::IRBuilder<> b(preheader->getTerminator());
    latch_compare->setOperand(count_operand, b.CreateNUWSub(end, start, "narrow.trips"));
    iv->setIncomingValueForBlock(preheader, llvm::ConstantInt::get(iv->getType(), 0));
    b.SetInsertPoint(iv->getParent(), iv->getParent()->getFirstInsertionPt());
    llvm::Value *item = b.CreateNUWAdd(iv, start, "narrow.item");
    iv->replaceUsesWithIf(
        item, [&](llvm::Use &use) { return use.getUser() != next && use.getUser() != item; });
    b.SetInsertPoint(next->getNextNode());
    llvm::Value *next_item = b.CreateNUWAdd(next, start, "narrow.next_item");
    next->replaceUsesWithIf(next_item, [&](llvm::Use &use) {
        return use.getUser() != iv && use.getUser() != latch_compare && use.getUser() != next_item;
    });
}

void narrow(Candidate &c)
{
    const Guard &g = c.guard;
    bool compound = g.leaves.size() > 1;
    llvm::Function *fn = c.header->getParent();
    llvm::LLVMContext &context = fn->getContext();
    llvm::IRBuilder<> b(c.preheader->getTerminator());
    llvm::Type *index = c.iv->getType(), *wide = b.getIntNTy(128);
    auto clamp = [&](llvm::Value *v, llvm::Value *top) {
        v = b.CreateBinaryIntrinsic(llvm::Intrinsic::smin, v, top);
        return b.CreateBinaryIntrinsic(llvm::Intrinsic::smax, v, llvm::ConstantInt::get(wide, 0));
    };

    llvm::Value *count =
        b.CreateBinaryIntrinsic(llvm::Intrinsic::umax, c.latch_compare->getOperand(c.count_operand),
                                llvm::ConstantInt::get(index, 1), nullptr, "narrow.count");
    llvm::Value *count_wide = b.CreateZExt(count, wide);
    llvm::Value *zero = llvm::ConstantInt::get(wide, 0), *lo = zero, *hi = count_wide;
    llvm::Value *may_wrap = nullptr;
    bool inside = true;
    for (const Leaf &leaf : g.leaves) {
        Interval r = leaf_interval(b, c, leaf, count_wide);
        if (r.may_wrap)
            may_wrap = may_wrap ? b.CreateOr(may_wrap, r.may_wrap) : r.may_wrap;
        if (!compound) {
            lo = r.lo, hi = r.hi, inside = r.inside;
            continue;
        }
        llvm::Value *left = clamp(r.lo, count_wide), *right = clamp(r.hi, count_wide);
        llvm::Value *from, *to; // where this leaf lets the middle copy run
        if (g.kind == Kind::and_interval) {
            from = left, to = right; // where it holds
        } else if (g.kind == Kind::or_interval) {
            // where it fails: `<` fails after its interval, `>` before, `ne` inside
            bool low = r.lo == zero, high = r.hi == count_wide;
            from = low ? right : high ? zero : left;
            to = low ? count_wide : high ? left : right;
        } else {
            // quiet: the longer side of its one work-item, [0, lo) or [hi, T)
            llvm::Value *take_left = b.CreateICmpSGE(left, b.CreateSub(count_wide, right));
            from = b.CreateSelect(take_left, zero, right);
            to = b.CreateSelect(take_left, left, count_wide);
        }
        lo = b.CreateBinaryIntrinsic(llvm::Intrinsic::smax, lo, from);
        hi = b.CreateBinaryIntrinsic(llvm::Intrinsic::smin, hi, to);
    }
    if (compound)
        hi = b.CreateBinaryIntrinsic(llvm::Intrinsic::smax, hi, lo);
    // Clamps (a loop without a guard): the middle copy runs where each
    // returns its A.
    for (const Leaf &leaf : c.clamps) {
        Interval r = leaf_interval(b, c, leaf, count_wide);
        if (r.may_wrap)
            may_wrap = may_wrap ? b.CreateOr(may_wrap, r.may_wrap) : r.may_wrap;
        lo = b.CreateBinaryIntrinsic(llvm::Intrinsic::smax, lo, clamp(r.lo, count_wide));
        hi = b.CreateBinaryIntrinsic(llvm::Intrinsic::smin, hi, clamp(r.hi, count_wide));
    }
    if (!c.clamps.empty())
        hi = b.CreateBinaryIntrinsic(llvm::Intrinsic::smax, hi, lo);
    // The original loop also runs when an invariant part of the guard is
    // not neutral (frozen: the loop may never have looked at it, as when
    // a `select` form of `or` takes it only where its other side is false,
    // and a poison one must not decide anything here).
    for (llvm::Value *invariant : g.invariants) {
        llvm::Value *frozen = b.CreateFreeze(invariant);
        llvm::Value *differs = g.neutral ? b.CreateNot(frozen) : frozen;
        may_wrap = may_wrap ? b.CreateOr(may_wrap, differs) : differs;
    }
    bool guarded = g.condition != nullptr;
    bool single = guarded && g.leaves.size() == 1 &&
                  (g.leaves[0].predicate == llvm::CmpInst::ICMP_EQ ||
                   g.leaves[0].predicate == llvm::CmpInst::ICMP_NE);
    // `<` leaves no work-items before the interval, `>` none after it: those
    // copies are not made (the bounds are then the same value).
    llvm::Value *start = llvm::ConstantInt::get(index, 0);
    llvm::Value *bounds[4] = {
        start, lo == zero ? start : b.CreateTrunc(clamp(lo, count_wide), index, "narrow.lo"),
        hi == count_wide ? count : b.CreateTrunc(clamp(hi, count_wide), index, "narrow.hi"), count};

    // The original loop stays for when c + iv wraps, unless it cannot.
    llvm::BasicBlock *fallback = nullptr;
    if (may_wrap) {
        fallback = llvm::BasicBlock::Create(context, "narrow.fallback", fn, c.header);
        llvm::BranchInst::Create(c.header, fallback);
        for (llvm::PHINode &phi : c.header->phis())
            phi.replaceIncomingBlockWith(c.preheader, fallback);
    }

    // What flows from one copy to the next: the header phis' values on the
    // back edge (but the induction variable's), and the exit's LCSSA values.
    std::vector<llvm::Value *> flowing, current;
    std::vector<llvm::PHINode *> header_phis, exit_phis;
    for (llvm::PHINode &phi : c.header->phis()) {
        if (&phi == c.iv)
            continue;
        header_phis.push_back(&phi);
        flowing.push_back(phi.getIncomingValueForBlock(c.latch));
        current.push_back(phi.getIncomingValueForBlock(fallback ? fallback : c.preheader));
    }
    for (llvm::PHINode &phi : c.exit->phis()) {
        exit_phis.push_back(&phi);
        flowing.push_back(phi.getIncomingValueForBlock(c.latch));
        current.push_back(llvm::PoisonValue::get(phi.getType()));
    }
    auto in_loop = [&](llvm::Value *v) {
        auto *inst = llvm::dyn_cast<llvm::Instruction>(v);
        return inst &&
               std::find(c.blocks.begin(), c.blocks.end(), inst->getParent()) != c.blocks.end();
    };

    llvm::BasicBlock *guard = llvm::BasicBlock::Create(context, "narrow.guard", fn);
    c.preheader->getTerminator()->eraseFromParent();
    if (fallback)
        llvm::BranchInst::Create(fallback, guard, may_wrap, c.preheader);
    else
        llvm::BranchInst::Create(guard, c.preheader);

    for (unsigned k = 0; k < 3; k++) {
        if (bounds[k] == bounds[k + 1])
            continue;
        llvm::ValueToValueMapTy map;
        std::vector<llvm::BasicBlock *> copies;
        for (llvm::BasicBlock *block : c.blocks) {
            llvm::BasicBlock *copy = llvm::CloneBasicBlock(block, map, ".narrow", fn);
            map[block] = copy;
            copies.push_back(copy);
        }
        llvm::remapInstructionsInBlocks(copies, map);
        auto *header = llvm::cast<llvm::BasicBlock>(map[c.header]);
        auto *latch = llvm::cast<llvm::BasicBlock>(map[c.latch]);
        llvm::BasicBlock *preheader =
            llvm::BasicBlock::Create(context, "narrow.preheader", fn, header);
        llvm::BasicBlock *exit = llvm::BasicBlock::Create(context, "narrow.exit", fn);
        llvm::BasicBlock *next = llvm::BasicBlock::Create(context, "narrow.next", fn);
        llvm::BranchInst::Create(header, preheader);
        llvm::BranchInst::Create(next, exit);
        b.SetInsertPoint(guard);
        b.CreateCondBr(b.CreateICmpULT(bounds[k], bounds[k + 1]), preheader, next);

        for (llvm::PHINode &phi : header->phis())
            phi.replaceIncomingBlockWith(fallback ? fallback : c.preheader, preheader);
        llvm::cast<llvm::PHINode>(map[c.iv])->setIncomingValueForBlock(preheader, bounds[k]);
        for (size_t i = 0; i < header_phis.size(); i++)
            llvm::cast<llvm::PHINode>(map[header_phis[i]])
                ->setIncomingValueForBlock(preheader, current[i]);
        auto *latch_branch = llvm::cast<llvm::BranchInst>(latch->getTerminator());
        for (unsigned s = 0; s < latch_branch->getNumSuccessors(); s++)
            if (latch_branch->getSuccessor(s) == c.exit)
                latch_branch->setSuccessor(s, exit);
        llvm::cast<llvm::ICmpInst>(map[c.latch_compare])
            ->setOperand(c.count_operand, bounds[k + 1]);
        if (single && k == 1)
            latch_branch->setMetadata(
                llvm::LLVMContext::MD_loop,
                scalar_loop_id(latch_branch->getMetadata(llvm::LLVMContext::MD_loop)));

        for (const Leaf &leaf : c.clamps) // in the middle each returns its A
            if (k == 1) {
                auto *clamp = llvm::cast<llvm::Instruction>(map[leaf.clamp]);
                clamp->replaceAllUsesWith(clamp->getOperand(leaf.varying));
                clamp->eraseFromParent();
            }
        if (!guarded) {
            // clamps only
        } else if (g.kind == Kind::invariant) {
            // one copy, run where the condition is false
            llvm::cast<llvm::BranchInst>(map[g.branch])
                ->setCondition(llvm::ConstantInt::getFalse(context));
        } else if (!compound) {
            // (with its invariants neutral, a tree has its one leaf's value)
            llvm::Constant *value = llvm::ConstantInt::getBool(context, (k == 1) == inside);
            auto *compare = llvm::cast<llvm::Instruction>(map[g.leaves[0].compare]);
            auto *condition = llvm::cast<llvm::Instruction>(map[g.condition]);
            compare->replaceAllUsesWith(value);
            compare->eraseFromParent();
            if (condition != compare) {
                condition->replaceAllUsesWith(value);
                llvm::RecursivelyDeleteTriviallyDeadInstructions(condition);
            }
        } else if (k == 1 || g.kind != Kind::quiet) {
            // a quiet guard's outer copies keep the condition as it is; an
            // interval's hold its other value
            bool middle = g.kind == Kind::and_interval  ? true
                          : g.kind == Kind::or_interval ? false
                                                        : quiet_value(g.condition, g);
            auto *condition = llvm::cast<llvm::Instruction>(map[g.condition]);
            condition->replaceAllUsesWith(llvm::ConstantInt::getBool(context, (k == 1) == middle));
            for (const Leaf &leaf : g.leaves) // in the middle every leaf has one value
                if (k == 1)
                    map[leaf.compare]->replaceAllUsesWith(llvm::ConstantInt::getBool(
                        context,
                        g.kind == Kind::and_interval ||
                            (g.kind == Kind::quiet && leaf.predicate == llvm::CmpInst::ICMP_NE)));
            llvm::RecursivelyDeleteTriviallyDeadInstructions(condition);
            for (const Leaf &leaf : g.leaves)
                if (auto *compare = llvm::dyn_cast_or_null<llvm::Instruction>(map[leaf.compare]))
                    llvm::RecursivelyDeleteTriviallyDeadInstructions(compare);
        }
        for (llvm::BasicBlock *copy : copies)
            llvm::ConstantFoldTerminator(copy, true);
        if (bounds[k] != start)
            count_from_zero(llvm::cast<llvm::PHINode>(map[c.iv]), preheader, latch,
                            llvm::cast<llvm::ICmpInst>(map[c.latch_compare]), c.count_operand,
                            bounds[k], bounds[k + 1]);

        // the values after this copy, then where the next one starts
        b.SetInsertPoint(exit, exit->begin());
        std::vector<llvm::Value *> after(flowing.size());
        for (size_t i = 0; i < flowing.size(); i++) {
            if (!in_loop(flowing[i])) {
                after[i] = flowing[i];
                continue;
            }
            llvm::PHINode *lcssa = b.CreatePHI(flowing[i]->getType(), 1);
            lcssa->addIncoming(map[flowing[i]], latch);
            after[i] = lcssa;
        }
        b.SetInsertPoint(next);
        for (size_t i = 0; i < flowing.size(); i++) {
            llvm::PHINode *merged = b.CreatePHI(flowing[i]->getType(), 2);
            merged->addIncoming(current[i], guard);
            merged->addIncoming(after[i], exit);
            current[i] = merged;
        }
        guard = next;
    }
    b.SetInsertPoint(guard);
    b.CreateBr(c.exit);
    for (size_t i = 0; i < exit_phis.size(); i++)
        exit_phis[i]->addIncoming(current[header_phis.size() + i], guard);
    if (g.kind == Kind::invariant) {
        // the original loop runs only where the condition is true
        g.branch->setCondition(llvm::ConstantInt::getTrue(context));
        llvm::ConstantFoldTerminator(g.branch->getParent(), true);
    }
}

// The negation of an and/or tree of compares, pushed to its leaves (De
// Morgan's laws; a compare gets the inverse predicate, anything else a
// `not`); what is made of loop-invariant values goes to the preheader, so
// that collect_leaves sees it as invariant.
llvm::Value *negate(llvm::Value *value, llvm::IRBuilder<> &b, llvm::Loop &loop,
                    unsigned depth = 0)
{
    using namespace llvm::PatternMatch;
    llvm::Value *x, *y, *result;
    auto *compare = llvm::dyn_cast<llvm::ICmpInst>(value);
    if (depth >= 2 * MAX_LEAVES)
        result = b.CreateNot(value);
    else if (match(value, m_Not(m_Value(x))))
        return x;
    else if (compare)
        result = b.CreateICmp(compare->getInversePredicate(), compare->getOperand(0),
                              compare->getOperand(1));
    else if (match(value, m_LogicalAnd(m_Value(x), m_Value(y))))
        result = b.CreateLogicalOr(negate(x, b, loop, depth + 1), negate(y, b, loop, depth + 1));
    else if (match(value, m_LogicalOr(m_Value(x), m_Value(y))))
        result = b.CreateLogicalAnd(negate(x, b, loop, depth + 1), negate(y, b, loop, depth + 1));
    else
        result = b.CreateNot(value);
    bool changed = false;
    if (auto *inst = llvm::dyn_cast<llvm::Instruction>(result))
        loop.makeLoopInvariant(inst, changed);
    return result;
}

// A short-circuit `||` or `&&` whose value is kept (`int oob = x < p || y <
// p || x + p >= w; ... if (!oob)`) reaches the work-item loop as a triangle,
// A: br c, B, M; B: v = (the last compare); M: phi [K, A], [v, B], with K a
// constant, which SimplifyCFG leaves as it is (it keeps i1 phis over and/or
// conditions for jump threading): then the branch on the phi is no and/or
// tree and the loop is not narrowed. The triangle becomes straight code,
// B's few speculatable instructions hoisted into A and each phi of M a
// select; a phi of that form an and/or tree: `c ? v : false` is `c && v`,
// `c ? v : true` is `!c || v`, `!c` pushed to the leaves. Returns whether
// fn changed.
bool fold_short_circuits(llvm::Function &fn)
{
    enum { MAX_HOISTED = 8 };
    llvm::DominatorTree tree(fn);
    llvm::LoopInfo loops(tree);
    std::vector<std::pair<llvm::BasicBlock *, llvm::Loop *>> sides;
    for (llvm::Loop *loop : loops.getLoopsInPreorder()) {
        if (!loop->isInnermost() || !has_mark(loop->getLoopID()))
            continue;
        for (llvm::BasicBlock *side : loop->blocks()) {
            llvm::BasicBlock *from = side->getSinglePredecessor();
            llvm::BasicBlock *merge = side->getSingleSuccessor();
            auto *branch = from ? llvm::dyn_cast<llvm::BranchInst>(from->getTerminator()) : nullptr;
            if (!branch || !merge || !branch->isConditional() || merge == side || merge == from ||
                side == loop->getHeader() || merge == loop->getHeader() ||
                !loop->contains(from) || !loop->contains(merge) ||
                llvm::isa<llvm::PHINode>(side->front()) ||
                !llvm::is_contained(llvm::successors(from), merge) ||
                merge->hasNPredecessorsOrMore(3) || side->size() > MAX_HOISTED + 1)
                continue;
            bool short_circuit = false, speculatable = true;
            for (llvm::PHINode &phi : merge->phis())
                short_circuit |= phi.getType()->isIntegerTy(1) &&
                                 llvm::isa<llvm::ConstantInt>(phi.getIncomingValueForBlock(from));
            for (llvm::Instruction &inst : side->instructionsWithoutDebug())
                speculatable &= &inst == side->getTerminator() ||
                                llvm::isSafeToSpeculativelyExecute(&inst);
            if (short_circuit && speculatable)
                sides.emplace_back(side, loop);
        }
    }
    for (auto [side, loop] : sides) {
        llvm::BasicBlock *from = side->getSinglePredecessor(), *merge = side->getSingleSuccessor();
        auto *branch = llvm::cast<llvm::BranchInst>(from->getTerminator());
        llvm::Value *c = branch->getCondition();
        bool side_if_true = branch->getSuccessor(0) == side;
        while (side->size() > 1) // B's instructions, in order, before A's branch
            side->front().moveBefore(branch);
        llvm::IRBuilder<> b(branch);
        llvm::Value *not_c = nullptr;
        for (llvm::PHINode &phi : llvm::make_early_inc_range(merge->phis())) {
            llvm::Value *k = phi.getIncomingValueForBlock(from);
            llvm::Value *v = phi.getIncomingValueForBlock(side);
            auto *constant = llvm::dyn_cast<llvm::ConstantInt>(k);
            llvm::Value *value;
            if (constant && phi.getType()->isIntegerTy(1)) {
                // side_if_true: c ? v : k; else c ? k : v
                bool positive = side_if_true == constant->isZero();
                llvm::Value *test = c;
                if (!positive) {
                    if (!not_c)
                        not_c = negate(c, b, *loop);
                    test = not_c;
                }
                value = constant->isZero() ? b.CreateLogicalAnd(test, v)
                                           : b.CreateLogicalOr(test, v);
            } else {
                value = side_if_true ? b.CreateSelect(c, v, k) : b.CreateSelect(c, k, v);
            }
            phi.replaceAllUsesWith(value);
            phi.eraseFromParent();
        }
        llvm::BranchInst::Create(merge, branch);
        branch->eraseFromParent();
        side->eraseFromParent();
        llvm::RecursivelyDeleteTriviallyDeadInstructions(c);
    }
    return !sides.empty();
}

// One round over fn's work-item loops: by their guards, or by their clamps.
bool narrow_round(llvm::Function &fn, bool clamps_only)
{
    llvm::DominatorTree tree(fn);
    llvm::LoopInfo loops(tree);
    // All candidates first, while the analyses are valid: narrowing one
    // loop touches only its blocks, preheader and exit.
    std::vector<Candidate> candidates;
    bool changed = false;
    for (llvm::Loop *loop : loops.getLoopsInPreorder()) {
        // Unswitching and peeling (a launch copy's constant trip counts
        // invite both) can leave a work-item loop without a dedicated
        // preheader or exit: give it them (keeps the tree and loop info).
        if (loop->isInnermost() && has_mark(loop->getLoopID()) && !loop->isLoopSimplifyForm())
            changed |= llvm::simplifyLoop(loop, &tree, &loops, nullptr, nullptr, nullptr, false);
        Candidate c;
        if (!match_loop(*loop, tree, clamps_only, c))
            continue;
        if (!loop->isLCSSAForm(tree))
            llvm::formLCSSA(*loop, tree, &loops, nullptr);
        candidates.push_back(std::move(c));
    }
    for (Candidate &c : candidates)
        narrow(c);
    if (!candidates.empty())
        llvm::removeUnreachableBlocks(fn);
    return changed || !candidates.empty();
}

} // namespace

extern "C" bool cc_narrow_loops(LLVMValueRef fn_ref)
{
    llvm::Function &fn = *llvm::cast<llvm::Function>(llvm::unwrap(fn_ref));
    bool marked = false;
    for (llvm::BasicBlock &block : fn)
        marked = marked || has_mark(block.getTerminator()->getMetadata(llvm::LLVMContext::MD_loop));
    if (!marked)
        return false;
    // guards first; then the clamps of each copy (a guarded body's copy
    // keeps its clamps until the second round)
    bool changed = fold_short_circuits(fn);
    changed |= narrow_round(fn, false);
    return narrow_round(fn, true) || changed;
}
