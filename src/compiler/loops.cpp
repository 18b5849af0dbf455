// loops.cpp - implicit barriers at the head of uniform inner loops.
//
// A kernel split into regions (regions.c) runs each region as a loop over
// the work-items, which the loop vectorizer turns into SIMD lanes. But the
// vectorizer only takes innermost loops: when the code between two barriers
// holds a loop of its own (n-body's loop over the tile, a dot product over
// a row), that loop is the innermost one, and the work-items run one after
// another around it.
//
// When every work-item of the group that enters such a loop leaves it
// after the same iteration (its exits depend only on values the same for
// all of them), and the work-items that do not enter it meet no barrier
// again (they return: a bounds check), a work-group barrier at the head of
// the loop changes nothing a kernel can observe: the work-items meet it
// the same number of times, in OpenCL C 6.13.8's sense, or leave, which
// regions.c supports; and no work-item waits for memory another one has
// not yet written that it would have read before. regions.c then
// makes the loop's body a region: the group runs iteration j of the loop
// for all its work-items (a vectorized work-item loop), then iteration j+1,
// with the loop's per-work-item values (an accumulator) kept in the context
// array and its uniform ones (the counter) once per group. This is the
// loop interchange that the region machinery gives for free.
//
// Left alone: loops with a constant trip count of at most 64 (unrolled
// whole by O3, after which the work-item loop around them vectorizes), loops
// with a barrier, an atomic or a call that is not an intrinsic or a math
// function, and loops without floating-point work or loads, where lanes
// gain little over the context traffic the interchange adds. But a counter
// the loop only adds to atomically (ffmpeg's nlmeans: `if (any(...))
// atomic_inc(overflow)` in each step of a column walk) does not stop it: see
// coalesce_atomics.
//
// C++ for LLVM's LoopInfo and ScalarEvolution, which the C API lacks.
#include <llvm/Analysis/AssumptionCache.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/LoopIterator.h>
#include <llvm/Analysis/PostDominators.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/ScalarEvolutionExpressions.h>
#include <llvm/Analysis/TargetLibraryInfo.h>
#include <llvm/IR/Dominators.h>
#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/IR/CFG.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/TargetParser/Triple.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>
#include <llvm/Transforms/Utils/LoopUtils.h>
#include <llvm/Transforms/Utils/PromoteMemToReg.h>
#include <llvm-c/Core.h>

extern "C" {
#include "compiler/internal.h"
}
#include "compiler/loops.h"
#include "compiler/narrow.h"
#include "compiler/scalarize.h"

namespace
{

const unsigned max_unrolled_trip_count = 64;
const unsigned max_loop_barriers = 16;
// the instructions a loop with a constant trip count may unroll to
const unsigned max_unrolled_size = 4096;
// the same for a nest, counted before O3 has simplified anything: the
// unoptimised body of an inner loop is several times what it becomes
const unsigned max_unrolled_nest_size = 16384;
// the chains' worth of operations in a loop carrying a long chain that is
// kept a loop (long_chains)
const unsigned max_long_chains = 8;

bool divergent(LLVMValueRef *values, size_t count, llvm::Value *v)
{
    return cc_is_divergent(values, count, llvm::wrap(v));
}

// Whether value is the same in every iteration of loop: made outside it,
// or there by address arithmetic and casts of such values (`&counts[1]`
// before LICM has run).
bool invariant(const llvm::Value *value, const llvm::Loop *loop, unsigned depth = 0)
{
    if (loop->isLoopInvariant(value))
        return true;
    auto *inst = llvm::dyn_cast<llvm::Instruction>(value);
    if (!inst || depth > 8 ||
        !(llvm::isa<llvm::GetElementPtrInst>(inst) || llvm::isa<llvm::CastInst>(inst) ||
          inst->getOpcode() == llvm::Instruction::Add ||
          inst->getOpcode() == llvm::Instruction::Sub ||
          inst->getOpcode() == llvm::Instruction::Mul ||
          inst->getOpcode() == llvm::Instruction::Shl))
        return false;
    for (const llvm::Value *operand : inst->operands())
        if (!invariant(operand, loop, depth + 1))
            return false;
    return true;
}

// An invariant value made again where b inserts (outside the loop).
llvm::Value *rebuild(llvm::Value *value, const llvm::Loop *loop, llvm::IRBuilder<> &b)
{
    if (loop->isLoopInvariant(value))
        return value;
    auto *copy = llvm::cast<llvm::Instruction>(value)->clone();
    for (unsigned i = 0; i < copy->getNumOperands(); i++)
        copy->setOperand(i, rebuild(copy->getOperand(i), loop, b));
    return b.Insert(copy);
}

// An atomic addition to (or subtraction from) one address that the loop
// does not change, whose result is not used: a counter.
bool is_counter(const llvm::Instruction &inst, const llvm::Loop *loop)
{
    auto *rmw = llvm::dyn_cast<llvm::AtomicRMWInst>(&inst);
    return rmw && rmw->use_empty() && rmw->getType()->isIntegerTy() &&
           (rmw->getOperation() == llvm::AtomicRMWInst::Add ||
            rmw->getOperation() == llvm::AtomicRMWInst::Sub) &&
           invariant(rmw->getPointerOperand(), loop) && invariant(rmw->getValOperand(), loop);
}

// Whether the loop's only atomics are counters, and nothing else in it
// orders memory (no other atomic, fence or volatile access).
bool only_counters(const llvm::Loop *loop)
{
    bool any = false;
    for (llvm::BasicBlock *bb : loop->blocks())
        for (llvm::Instruction &inst : *bb) {
            if (is_counter(inst, loop)) {
                any = true;
                continue;
            }
            auto *load = llvm::dyn_cast<llvm::LoadInst>(&inst);
            auto *store = llvm::dyn_cast<llvm::StoreInst>(&inst);
            if (inst.isAtomic() || llvm::isa<llvm::FenceInst>(inst) ||
                (load && load->isVolatile()) || (store && store->isVolatile()))
                return false;
        }
    return any;
}

// Whether the loop's work is of the kind that gains from running its
// work-items as lanes, and nothing in it stops the interchange.
bool suitable_body(const llvm::Loop *loop, bool (*is_barrier)(LLVMValueRef))
{
    bool work = false, counters = only_counters(loop);
    for (llvm::BasicBlock *bb : loop->blocks())
        for (llvm::Instruction &inst : *bb) {
            if (counters && is_counter(inst, loop))
                continue;
            if (inst.isAtomic() || inst.getMetadata("cpucl.sequential"))
                return false;
            if (auto *call = llvm::dyn_cast<llvm::CallBase>(&inst)) {
                if (is_barrier(llvm::wrap(call)))
                    return false;
                llvm::Function *callee = call->getCalledFunction();
                // after inlining, what is left is intrinsics and the C
                // library's math functions, both free of side effects on
                // the program's memory; anything else could be a hook
                if (!callee || (!callee->isIntrinsic() && !callee->doesNotAccessMemory() &&
                                !callee->onlyWritesMemory() && !callee->onlyReadsMemory()))
                    return false;
                if (llvm::isa<llvm::IntrinsicInst>(call) &&
                    llvm::cast<llvm::IntrinsicInst>(call)->isAssumeLikeIntrinsic())
                    continue;
                work = true;
            }
            if (inst.getType()->isFPOrFPVectorTy() || llvm::isa<llvm::LoadInst>(inst))
                work = true;
        }
    return work;
}

// ScalarEvolution of a function, with the analyses it is built on.
struct Analyses {
    explicit Analyses(llvm::Function &fn)
        : dominators(fn), loops(dominators),
          library_impl(llvm::Triple(fn.getParent()->getTargetTriple())), library(library_impl, &fn),
          assumptions(fn), evolution(fn, library, assumptions, dominators, loops)
    {
    }
    llvm::DominatorTree dominators;
    llvm::LoopInfo loops;
    llvm::TargetLibraryInfoImpl library_impl;
    llvm::TargetLibraryInfo library;
    llvm::AssumptionCache assumptions;
    llvm::ScalarEvolution evolution;
};

// An address as if none of the integers in it wrapped: every truncation
// and extension dropped, each integer taken at 64 bits. `int x =
// get_global_id(0)` makes `in[y * n + x + 1]` a sign extension of a 32-bit
// sum of a truncated id, whose step from one work-item to the next
// ScalarEvolution cannot tell (the sum could wrap between them); without
// the casts it is one element. The questions below only choose how a
// kernel's loops run (all choices compute the same), and they are about
// the work-items of a buffer's range, where such indices do not wrap.
// Likewise a clamp of the work-item's index to bounds the same for every
// work-item (`clamp(x + dx, 0, n - 1)`, a minimum or maximum with one
// operand that varies) is taken as that operand, as between the bounds,
// where narrow.cpp runs a copy of the work-item loop without the clamps.
class WithoutWraps : public llvm::SCEVRewriteVisitor<WithoutWraps>
{
    const llvm::SCEV *item;

    template <typename MinMax> const llvm::SCEV *inside(const MinMax *e)
    {
        const llvm::SCEV *varying = nullptr;
        unsigned count = 0;
        for (const llvm::SCEV *operand : e->operands())
            if (llvm::SCEVExprContains(operand, [&](const llvm::SCEV *s) { return s == item; }))
                varying = operand, count++;
        return count == 1 && cc_switch_on("CPUCL_NARROW") ? visit(varying) : nullptr;
    }

  public:
    WithoutWraps(llvm::ScalarEvolution &evolution, const llvm::SCEV *item)
        : SCEVRewriteVisitor(evolution), item(item)
    {
    }

    const llvm::SCEV *wide(const llvm::SCEV *s)
    {
        llvm::Type *type = s->getType();
        if (!type->isIntegerTy() || type->getIntegerBitWidth() >= 64)
            return s;
        return SE.getSignExtendExpr(s, llvm::Type::getInt64Ty(type->getContext()));
    }
    // (a cast to or from more than 64 bits, mul_hi's i128, stays as it is,
    // at 64 bits where it is narrower: the operands of one expression keep
    // one type)
    const llvm::SCEV *dropped(const llvm::SCEVCastExpr *cast)
    {
        if (cast->getType()->getIntegerBitWidth() > 64)
            return cast;
        const llvm::SCEV *inner = visit(cast->getOperand());
        if (inner->getType()->isIntegerTy() && inner->getType()->getIntegerBitWidth() <= 64)
            return wide(inner);
        return wide(cast);
    }
    const llvm::SCEV *visitConstant(const llvm::SCEVConstant *c) { return wide(c); }
    const llvm::SCEV *visitUnknown(const llvm::SCEVUnknown *u) { return wide(u); }
    const llvm::SCEV *visitTruncateExpr(const llvm::SCEVTruncateExpr *e) { return dropped(e); }
    const llvm::SCEV *visitZeroExtendExpr(const llvm::SCEVZeroExtendExpr *e) { return dropped(e); }
    const llvm::SCEV *visitSignExtendExpr(const llvm::SCEVSignExtendExpr *e) { return dropped(e); }
    const llvm::SCEV *visitSMinExpr(const llvm::SCEVSMinExpr *e)
    {
        const llvm::SCEV *s = inside(e);
        return s ? s : SCEVRewriteVisitor::visitSMinExpr(e);
    }
    const llvm::SCEV *visitSMaxExpr(const llvm::SCEVSMaxExpr *e)
    {
        const llvm::SCEV *s = inside(e);
        return s ? s : SCEVRewriteVisitor::visitSMaxExpr(e);
    }
    const llvm::SCEV *visitUMinExpr(const llvm::SCEVUMinExpr *e)
    {
        const llvm::SCEV *s = inside(e);
        return s ? s : SCEVRewriteVisitor::visitUMinExpr(e);
    }
    const llvm::SCEV *visitUMaxExpr(const llvm::SCEVUMaxExpr *e)
    {
        const llvm::SCEV *s = inside(e);
        return s ? s : SCEVRewriteVisitor::visitUMaxExpr(e);
    }
};

// How far `address` moves from one work-item to the next in x (`local_x`,
// the local id): a constant number of bytes, or null if not constant.
const llvm::SCEVConstant *step_across_items(llvm::ScalarEvolution &evolution, llvm::Value *local_x,
                                            const llvm::SCEV *address)
{
    llvm::ValueToSCEVMapTy next_item;
    const llvm::SCEV *x = evolution.getSCEV(local_x);
    next_item[local_x] = evolution.getAddExpr(x, evolution.getOne(x->getType()));
    const llvm::SCEV *neighbour =
        llvm::SCEVParameterRewriter::rewrite(address, evolution, next_item);
    WithoutWraps unwrapped(evolution, x);
    return llvm::dyn_cast<llvm::SCEVConstant>(
        evolution.getMinusSCEV(unwrapped.visit(neighbour), unwrapped.visit(address)));
}

// Whether running the loop's iterations across the group (lanes = work-
// items) suits its memory accesses better than leaving the loop innermost
// (lanes = iterations). Each load and store counts for the interchange
// when its address is the same for neighbouring work-items or one element
// apart (a broadcast or a plain vector access across lanes), and against
// it when the address moves by one element per iteration but not so per
// work-item (a row per work-item: the loop itself vectorizes, the
// interchange would gather), however the row's start moves between
// work-items (`a[(row % m) * n + k]`). Addresses ScalarEvolution cannot
// follow count for neither; the interchange needs more for than against.
bool accesses_favour_lanes(const llvm::Loop *loop, llvm::ScalarEvolution &evolution,
                           llvm::Function &fn, LLVMValueRef *values, size_t count)
{
    // the work-item function's local ids: x varies across lanes, y and z
    // are the same for all lanes of one vector
    llvm::Value *local_x = fn.getArg(2), *local_y = fn.getArg(3), *local_z = fn.getArg(4);
    // an opaque part of an address (a load, an `and`) that differs between
    // work-items hides how the address does
    auto opaque = [&](const llvm::SCEV *part) {
        auto *unknown = llvm::dyn_cast<llvm::SCEVUnknown>(part);
        llvm::Value *v = unknown ? unknown->getValue() : nullptr;
        return v && v != local_x && v != local_y && v != local_z && divergent(values, count, v);
    };
    const llvm::DataLayout &layout = loop->getHeader()->getModule()->getDataLayout();
    int score = 0;
    for (llvm::BasicBlock *bb : loop->blocks())
        for (llvm::Instruction &inst : *bb) {
            llvm::Value *pointer = llvm::getLoadStorePointerOperand(&inst);
            if (!pointer)
                continue;
            llvm::Type *type = llvm::getLoadStoreType(&inst);
            uint64_t size = layout.getTypeStoreSize(type);
            const llvm::SCEV *address = evolution.getSCEV(pointer);
            const llvm::SCEVConstant *constant =
                llvm::SCEVExprContains(address, opaque)
                    ? nullptr
                    : step_across_items(evolution, local_x, address);
            if (constant && (constant->getValue()->isZero() ||
                             constant->getAPInt().getSExtValue() == (int64_t)size)) {
                score++;
                continue;
            }
            // (`a[row * n + k]` of an int row: a sign extension of the
            // 32-bit recurrence, which the unwrapped view sees as one)
            WithoutWraps unwrapped(evolution, evolution.getSCEV(local_x));
            auto *recurrence = llvm::dyn_cast<llvm::SCEVAddRecExpr>(unwrapped.visit(address));
            if (recurrence && recurrence->getLoop() == loop) {
                auto *step =
                    llvm::dyn_cast<llvm::SCEVConstant>(recurrence->getStepRecurrence(evolution));
                if (step && step->getAPInt().abs().getZExtValue() == size)
                    score--;
            }
        }
    return score > 0;
}

// Marks a loop with a constant trip count for full unrolling when its
// copies stay within max_unrolled_size instructions (a nest:
// max_unrolled_nest_size) and it meets no barrier: the work-item loop
// around it is then innermost again, and the vectorizer runs the unrolled
// body across the work-items. O3 unrolls only up to a smaller size by
// itself, so a hash's 64 integer rounds (`for (r = 0; r < 64; r++)` of a
// dozen instructions) stayed a loop, and every work-item ran it alone:
// 185 ms for 4 Mi items, 15 ms unrolled. A nest of such loops is unrolled
// whole too, inner ones first (`unrolled`: each loop's size once
// unrolled): ffmpeg's deshake sums 5 x 5 products of two 3 x 3
// convolutions per work-item, which O3 left as a loop of 5, and the
// work-items ran it in chunks under a mask, loading their pixels one at a
// time. (Unrolled nests once made CLBlast's complex XgemmDirect wrong: the
// vectorizer reordered a work-item's reloads of its private arrays, see
// item_order.cpp and context_scopes.c.) Larger trip counts go to the
// interchange below, when it suits them.
bool has_barrier(llvm::BasicBlock *bb, bool (*is_barrier)(LLVMValueRef));

// Whether a nest's only branches are its loops' own tests: unrolled whole,
// a body with conditions multiplies its blocks by every trip count, and a
// branchy nest (CLBlast's Xgemv: a banded matrix's bounds tests in a loop
// of 64 over a tile) took O3 and code generation from 3 to 24 s.
bool straight(const llvm::Loop *nest, const llvm::LoopInfo &loops)
{
    for (llvm::BasicBlock *bb : nest->blocks()) {
        llvm::Instruction *end = bb->getTerminator();
        auto *branch = llvm::dyn_cast<llvm::BranchInst>(end);
        if (!branch)
            return false;
        if (branch->isUnconditional())
            continue;
        const llvm::Loop *own = loops.getLoopFor(bb);
        if (!own->contains(branch->getSuccessor(0)) == !own->contains(branch->getSuccessor(1)))
            return false; // (a branch inside its loop, not one leaving it)
    }
    return true;
}

bool unroll_whole(llvm::Loop *loop, unsigned trips, bool (*is_barrier)(LLVMValueRef),
                  const llvm::LoopInfo &loops,
                  llvm::DenseMap<const llvm::Loop *, uint64_t> &unrolled)
{
    uint64_t size = 0;
    for (const llvm::Loop *inner : loop->getSubLoops()) {
        auto found = unrolled.find(inner);
        if (found == unrolled.end())
            return false;
        size += found->second;
    }
    for (llvm::BasicBlock *bb : loop->blocks()) {
        if (loops.getLoopFor(bb) != loop)
            continue; // (counted above)
        if (has_barrier(bb, is_barrier))
            return false;
        size += bb->size();
    }
    if (size * trips > (loop->isInnermost() ? max_unrolled_size : max_unrolled_nest_size))
        return false;
    if (!loop->isInnermost() && !straight(loop, loops))
        return false;
    unrolled[loop] = size * trips;
    llvm::LLVMContext &context = loop->getHeader()->getContext();
    llvm::Metadata *full[] = {llvm::MDString::get(context, "llvm.loop.unroll.full")};
    loop->setLoopID(llvm::makePostTransformationMetadata(
        context, loop->getLoopID(), {"llvm.loop.unroll."}, {llvm::MDNode::get(context, full)}));
    return true;
}

// How many chains' worth of operations a loop runs when it carries one
// long chain of floating-point operations or integer multiplies from each
// iteration to the next and touches no memory (0 when it does not):
// clpeak's `for (i = 0; i < 128; i++) { x = mad(y, x, y); y = mad(x, y,
// x); ... }`, one. (A chain is counted from the header phis but counters:
// a hash's `(uint)r * K` on its round counter is no link of its chain.)
// Unrolled whole, each work-item is one chain of thousands of operations,
// each waiting for the one before (four cycles an FMA), too long for
// out-of-order execution to reach the next work-items' chains: 23 GFLOPS
// on AVX2 for 2048 mads a work-item. So a loop of at most max_long_chains
// (N <= 8C: C operations from the header phis to the latch's values, N in
// the loop, a vector operation counted once per lane) spanning trips * C
// >= 64 operations is not unrolled whatever its trip count, and a fraction
// of the unrolled code is compiled: it stays a loop inside the work-item
// loop (with no memory access, accesses_favour_lanes gives it no loop
// barrier), which divergent.cpp runs for a chunk of work-items in lockstep,
// eight vector registers of independent chains, once its vector values are
// scalarized (workgroup.c's scalarizing_pays, told of the kept loops,
// takes a float8 that fills half a register then too). clpeak on AVX-512:
// float 153 -> 339-363 GFLOPS (thirty-fourth session), float4 190-210 ->
// 350-390 and double4 100-110 -> 170-196, whose four chains a work-item had
// been unrolled and scalarized, half of what two FMA pipes of four cycles
// take; float8 195 -> 355-386, run whole before (half-register operations),
// 280 -> 40 ms to compile; integer chains of multiplies and adds, int 50
// -> 270-340 GIOPS, int2 100 -> 230-330, int4 170-210 -> 250-310, int8
// 130-160 -> 250-330 (thirty-fifth); at x86-64-v3 float4 111 -> 190.
unsigned long_chains(llvm::Loop *loop, unsigned trips, llvm::LoopInfo &loops)
{
    llvm::BasicBlock *latch = loop->getLoopLatch();
    if (!trips || !loop->isInnermost() || !latch)
        return 0;
    llvm::LoopBlocksRPO blocks(loop);
    blocks.perform(&loops);
    // the links of the chains (floating-point operations, integer
    // multiplies) from the header phis to each value computed from them;
    // a phi stepped by a constant (a counter, known ahead) starts none
    llvm::DenseMap<const llvm::Value *, unsigned> depth;
    for (llvm::PHINode &phi : loop->getHeader()->phis()) {
        auto *step = llvm::dyn_cast<llvm::BinaryOperator>(phi.getIncomingValueForBlock(latch));
        if (!step || step->getOpcode() != llvm::Instruction::Add || step->getOperand(0) != &phi ||
            !llvm::isa<llvm::ConstantInt>(step->getOperand(1)))
            depth[&phi] = 0;
    }
    uint64_t operations = 0;
    for (llvm::BasicBlock *bb : blocks)
        for (llvm::Instruction &inst : *bb) {
            if (inst.mayReadOrWriteMemory() && !llvm::isa<llvm::CallInst>(inst))
                return 0;
            if (llvm::isa<llvm::PHINode>(inst) && bb == loop->getHeader())
                continue;
            llvm::Type *type = inst.getType();
            bool link = type->isFPOrFPVectorTy() ? llvm::isa<llvm::BinaryOperator>(inst) ||
                                                       llvm::isa<llvm::CallInst>(inst)
                                                 : inst.getOpcode() == llvm::Instruction::Mul;
            if (link) {
                auto *vector = llvm::dyn_cast<llvm::FixedVectorType>(type);
                operations += vector ? vector->getNumElements() : 1;
            }
            bool chained = false;
            unsigned d = 0;
            for (const llvm::Use &use : inst.operands()) {
                auto found = depth.find(use.get());
                if (found != depth.end())
                    chained = true, d = std::max(d, found->second);
            }
            if (chained)
                depth[&inst] = d + (link ? 1 : 0);
        }
    uint64_t carried = 0;
    for (llvm::PHINode &phi : loop->getHeader()->phis()) {
        auto found = depth.find(phi.getIncomingValueForBlock(latch));
        if (found != depth.end())
            carried = std::max<uint64_t>(carried, found->second);
    }
    if (!carried || carried * trips < 64)
        return 0;
    return (unsigned)std::min<uint64_t>((operations + carried - 1) / carried, UINT32_MAX);
}

// Whether a value is the same for every work-item that computes it.
// uniform.c answers "the same for the whole group", which is stricter: it
// counts every value made between a divergent branch and its join as
// divergent, so the counter of a loop inside `if (i < n)` is divergent
// there, while all work-items that run the loop count alike. Here a loop
// header's phi is the same when its incoming values are and every exit of
// its loop is taken alike (the work-items run the loop in lockstep); a
// cycle through such phis is assumed the same until shown otherwise.
// Loads, calls and other phis are not followed: what uniform.c does not
// clear is taken as differing.
class Lanes
{
  public:
    Lanes(llvm::LoopInfo &loops, LLVMValueRef *values, size_t count)
        : loops(loops), values(values), count(count)
    {
    }

    bool same(llvm::Value *v, unsigned depth = 0)
    {
        if (llvm::isa<llvm::Constant>(v))
            return true;
        if (auto *arg = llvm::dyn_cast<llvm::Argument>(v))
            return arg->getArgNo() < 2 || arg->getArgNo() > 4; // 2-4: the local ids
        auto *inst = llvm::dyn_cast<llvm::Instruction>(v);
        if (!inst || depth > 64 || differs.count(v))
            return false;
        if (!divergent(values, count, v))
            return true;
        if (!visiting.insert(v).second)
            return true; /* a cycle through loop phis: assumed */
        bool answer = follow(inst, depth);
        visiting.erase(v);
        if (!answer)
            differs.insert(v); /* only "differs" is kept: "same" may rest on an assumption */
        return answer;
    }

    // Every exit of the loop is taken by all work-items alike.
    bool exits_alike(const llvm::Loop *loop, unsigned depth = 0)
    {
        llvm::SmallVector<llvm::BasicBlock *, 4> exiting;
        loop->getExitingBlocks(exiting);
        for (llvm::BasicBlock *bb : exiting) {
            llvm::Value *condition = branch_condition(bb->getTerminator());
            if (!condition || !same(condition, depth + 1))
                return false;
        }
        return true;
    }

    // The condition of a conditional branch or switch; null for others.
    static llvm::Value *branch_condition(llvm::Instruction *term)
    {
        if (auto *br = llvm::dyn_cast<llvm::BranchInst>(term))
            return br->isConditional() ? br->getCondition() : nullptr;
        if (auto *sw = llvm::dyn_cast<llvm::SwitchInst>(term))
            return sw->getCondition();
        return nullptr;
    }

  private:
    bool follow(llvm::Instruction *inst, unsigned depth)
    {
        if (llvm::isa<llvm::LoadInst>(inst) || llvm::isa<llvm::AllocaInst>(inst) ||
            inst->isAtomic() ||
            (llvm::isa<llvm::CallBase>(inst) && !llvm::isa<llvm::IntrinsicInst>(inst)))
            return false;
        if (auto *phi = llvm::dyn_cast<llvm::PHINode>(inst)) {
            llvm::Loop *loop = loops.getLoopFor(phi->getParent());
            if (!loop || loop->getHeader() != phi->getParent() || !exits_alike(loop, depth))
                return false;
        }
        for (llvm::Value *operand : inst->operands())
            if (!llvm::isa<llvm::BasicBlock>(operand) && !same(operand, depth + 1))
                return false;
        return true;
    }

    llvm::LoopInfo &loops;
    LLVMValueRef *values;
    size_t count;
    llvm::SmallPtrSet<llvm::Value *, 16> visiting, differs;
};

// The blocks reachable from `from` (itself included) without entering
// `stop` (none: null).
void reach(llvm::BasicBlock *from, llvm::BasicBlock *stop,
           llvm::SmallPtrSetImpl<llvm::BasicBlock *> &seen)
{
    llvm::SmallVector<llvm::BasicBlock *, 16> work;
    if (from != stop && seen.insert(from).second)
        work.push_back(from);
    while (!work.empty()) {
        llvm::BasicBlock *bb = work.pop_back_val();
        for (llvm::BasicBlock *next : llvm::successors(bb))
            if (next != stop && seen.insert(next).second)
                work.push_back(next);
    }
}

bool has_barrier(llvm::BasicBlock *bb, bool (*is_barrier)(LLVMValueRef))
{
    for (llvm::Instruction &inst : *bb)
        if (llvm::isa<llvm::CallInst>(inst) && is_barrier(llvm::wrap(&inst)))
            return true;
    return false;
}

// Whether a barrier at `header` is met alike by the work-items: each meets
// the same sequence of barriers, or stops (returns) and meets none after,
// which regions.c supports (a returned work-item sits out the regions
// after). So every divergent branch (condition differing between
// work-items) that decides whether the header is reached must have a side
// that leaves for good: from it, no barrier and no header that may get
// one (`candidates`, a superset of those that will) is reachable. That
// admits the usual bounds checks (`if (i >= n) return;`, `if (row < n) {
// loop }`) and outer loops that work-items leave at different times.
bool met_alike(llvm::BasicBlock *header, llvm::ArrayRef<llvm::BasicBlock *> candidates,
               llvm::Function &fn, llvm::PostDominatorTree &post_dominators,
               bool (*is_barrier)(LLVMValueRef), Lanes &lanes)
{
    auto loud = [&](llvm::BasicBlock *bb) {
        return has_barrier(bb, is_barrier) || llvm::is_contained(candidates, bb);
    };
    for (llvm::BasicBlock &bb : fn) {
        llvm::Value *condition = Lanes::branch_condition(bb.getTerminator());
        if (!condition || lanes.same(condition))
            continue;
        llvm::DomTreeNode *node = post_dominators.getNode(&bb);
        llvm::BasicBlock *join = node && node->getIDom() ? node->getIDom()->getBlock() : nullptr;
        llvm::SmallPtrSet<llvm::BasicBlock *, 32> region;
        for (llvm::BasicBlock *next : llvm::successors(&bb))
            reach(next, join, region);
        if (!region.count(header))
            continue;
        bool leaves = false;
        for (llvm::BasicBlock *next : llvm::successors(&bb)) {
            llvm::SmallPtrSet<llvm::BasicBlock *, 32> after;
            reach(next, nullptr, after);
            leaves = leaves || llvm::none_of(after, loud);
        }
        if (!leaves)
            return false;
    }
    return true;
}

// The counters of each loop that got a barrier (suitable_body let no other
// atomic through), added up per work-item in a register and added to
// memory once, when the work-item leaves the loop (if it counted
// anything): an atomic instruction in the loop would keep
// the vectorizer from running the loop's iterations across the
// work-items. The OpenCL C 1.x atomic functions make no promise about
// when other work-items see each addition, and nothing else in the loop
// orders memory (only_counters), so no work-item can tell the additions of
// one visit of the loop from their sum made when it leaves; the value
// each would have returned is not used.
void coalesce_atomics(llvm::Function &fn, llvm::ArrayRef<llvm::Loop *> loops)
{
    llvm::SmallVector<llvm::AllocaInst *, 4> sums;
    llvm::IRBuilder<> b(&*fn.getEntryBlock().getFirstInsertionPt());
    for (llvm::Loop *loop : loops) {
        llvm::SmallVector<llvm::AtomicRMWInst *, 4> counters;
        for (llvm::BasicBlock *bb : loop->blocks())
            for (llvm::Instruction &inst : *bb)
                if (is_counter(inst, loop))
                    counters.push_back(llvm::cast<llvm::AtomicRMWInst>(&inst));
        if (counters.empty())
            continue;
        llvm::SmallVector<llvm::Loop::Edge, 4> exits;
        loop->getExitEdges(exits);
        llvm::SmallVector<llvm::BasicBlock *, 4> flushes;
        for (const llvm::Loop::Edge &exit : exits)
            flushes.push_back(llvm::SplitEdge(const_cast<llvm::BasicBlock *>(exit.first),
                                              const_cast<llvm::BasicBlock *>(exit.second)));
        for (llvm::AtomicRMWInst *rmw : counters) {
            llvm::Type *type = rmw->getType();
            b.SetInsertPoint(&*fn.getEntryBlock().getFirstInsertionPt());
            llvm::AllocaInst *sum = b.CreateAlloca(type, nullptr, "counted");
            b.CreateStore(llvm::ConstantInt::get(type, 0), sum);
            sums.push_back(sum);
            b.SetInsertPoint(rmw);
            llvm::Value *before = b.CreateLoad(type, sum);
            b.CreateStore(rmw->getOperation() == llvm::AtomicRMWInst::Add
                              ? b.CreateAdd(before, rmw->getValOperand())
                              : b.CreateSub(before, rmw->getValOperand()),
                          sum);
            for (llvm::BasicBlock *flush : flushes) {
                b.SetInsertPoint(flush->getTerminator());
                llvm::Value *total = b.CreateLoad(type, sum);
                b.CreateStore(llvm::ConstantInt::get(type, 0), sum);
                llvm::Instruction *then = llvm::SplitBlockAndInsertIfThen(
                    b.CreateIsNotNull(total), flush->getTerminator(), false);
                b.SetInsertPoint(then);
                llvm::AtomicRMWInst *add = b.CreateAtomicRMW(
                    llvm::AtomicRMWInst::Add, rebuild(rmw->getPointerOperand(), loop, b), total,
                    rmw->getAlign(),
                    rmw->getOrdering(), rmw->getSyncScopeID());
                add->setVolatile(rmw->isVolatile());
            }
            rmw->eraseFromParent();
        }
    }
    if (sums.empty())
        return;
    llvm::DominatorTree dominators(fn);
    llvm::PromoteMemToReg(sums, dominators);
}

} // namespace

extern "C" unsigned cc_add_loop_barriers(LLVMValueRef fn_ref, LLVMBasicBlockRef prologue,
                                         bool (*is_barrier)(LLVMValueRef), LLVMValueRef barrier,
                                         bool *kept_chains)
{
    auto &fn = *llvm::cast<llvm::Function>(llvm::unwrap(fn_ref));
    LLVMValueRef *values = nullptr;
    size_t count = 0;
    *kept_chains = false;
    if (!cc_find_divergent(fn_ref, prologue, &values, &count))
        return 0;

    Analyses analyses(fn);
    llvm::LoopInfo &loops = analyses.loops;
    llvm::ScalarEvolution &evolution = analyses.evolution;

    Lanes lanes(loops, values, count);
    llvm::SmallVector<llvm::BasicBlock *, 8> headers;
    // Loops unrolled whole, inner ones first.
    llvm::DenseMap<const llvm::Loop *, uint64_t> unrolled;
    auto preorder = loops.getLoopsInPreorder();
    llvm::SmallPtrSet<const llvm::Loop *, 8> chains;
    for (llvm::Loop *loop : llvm::reverse(preorder)) {
        unsigned trips = evolution.getSmallConstantTripCount(loop);
        unsigned n = long_chains(loop, trips, loops);
        if (n && n <= max_long_chains)
            chains.insert(loop);
        else if (trips)
            unroll_whole(loop, trips, is_barrier, loops, unrolled);
    }
    *kept_chains = !chains.empty();
    for (llvm::Loop *loop : preorder) {
        if (!loop->isInnermost() || unrolled.count(loop) || headers.size() == max_loop_barriers)
            continue;
        unsigned trips = evolution.getSmallConstantTripCount(loop);
        if (trips && trips <= max_unrolled_trip_count && !chains.count(loop))
            continue;
        if (!suitable_body(loop, is_barrier) || !lanes.exits_alike(loop) ||
            !accesses_favour_lanes(loop, evolution, fn, values, count))
            continue;
        headers.push_back(loop->getHeader());
    }

    // Which headers get a barrier: each in turn, in program order, when it
    // and those already taken are all met alike with it (a barrier taken
    // can keep another from leaving quietly). Decided before any is added.
    llvm::PostDominatorTree post_dominators(fn);
    llvm::SmallVector<llvm::BasicBlock *, 8> chosen;
    for (llvm::BasicBlock *header : headers) {
        chosen.push_back(header);
        bool alike = true;
        for (llvm::BasicBlock *taken : chosen)
            alike = alike && met_alike(taken, chosen, fn, post_dominators, is_barrier, lanes);
        if (!alike)
            chosen.pop_back();
    }

    unsigned added = 0;
    llvm::FunctionType *type = llvm::cast<llvm::Function>(llvm::unwrap(barrier))->getFunctionType();
    llvm::SmallVector<llvm::Loop *, 8> barrier_loops;
    for (llvm::BasicBlock *header : chosen) {
        barrier_loops.push_back(loops.getLoopFor(header));
        llvm::Value *no_fence = llvm::ConstantInt::get(type->getParamType(0), 0);
        llvm::CallInst::Create(type, llvm::unwrap(barrier), {no_fence}, "",
                               header->getFirstInsertionPt());
        // the loop's counters, for uniform.c (regions.c keeps them once
        // per group: a broadcast in the vectorized loop, not a gather), and
        // those of the loops around it that the work-items run alike too (a
        // tile's rows around the loop over its columns), which uniform.c
        // finds divergent when an early return came before
        for (llvm::Loop *loop = loops.getLoopFor(header); loop && lanes.exits_alike(loop);
             loop = loop->getParentLoop())
            for (llvm::PHINode &phi : loop->getHeader()->phis())
                if (lanes.same(&phi))
                    phi.setMetadata(CC_LOCKSTEP_KIND, llvm::MDNode::get(fn.getContext(), {}));
        added++;
    }
    free(values); /* after the last question to `lanes` */
    coalesce_atomics(fn, barrier_loops); /* (the loop info is not kept) */
    if (added)
        cc_scalarize_work_items(fn_ref);
    return added;
}

// Whether every load and store of a vector in the work-item function `fn`
// (REGIONS form: arguments 2-4 are the local ids) moves with the
// work-items: the neighbour in x reads or writes the next vector, or the
// same one. Scalarized, such accesses become interleaved groups across the
// lanes; others (clamped or computed indices, image texels) would become
// one gather per component, slower than the vector load of one work-item
// (a 3x3 float4 blur with clamped indices: 2x slower).
extern "C" bool cc_vector_accesses_follow_lanes(LLVMValueRef fn_ref)
{
    auto &fn = *llvm::cast<llvm::Function>(llvm::unwrap(fn_ref));
    Analyses analyses(fn);
    llvm::ScalarEvolution &evolution = analyses.evolution;
    const llvm::DataLayout &layout = fn.getParent()->getDataLayout();
    for (llvm::BasicBlock &bb : fn)
        for (llvm::Instruction &inst : bb) {
            llvm::Value *pointer = llvm::getLoadStorePointerOperand(&inst);
            if (!pointer || !llvm::getLoadStoreType(&inst)->isVectorTy())
                continue;
            uint64_t size = layout.getTypeStoreSize(llvm::getLoadStoreType(&inst));
            const llvm::SCEVConstant *across =
                step_across_items(evolution, fn.getArg(2), evolution.getSCEV(pointer));
            if (!across || (!across->getValue()->isZero() &&
                            across->getAPInt().getSExtValue() != (int64_t)size))
                return false;
        }
    return true;
}
