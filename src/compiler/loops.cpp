// loops.cpp - implicit barriers at the head of uniform inner loops.
//
// A kernel split into regions (regions.c) runs each region as a loop over
// the work-items, which the loop vectorizer turns into SIMD lanes. But the
// vectorizer only takes innermost loops: when the code between two barriers
// holds a loop of its own (n-body's loop over the tile, a dot product over
// a row), that loop is the innermost one, and the work-items run one after
// another around it.
//
// When every work-item of the group enters such a loop alike and leaves it
// after the same iteration (its exits depend only on group-uniform values),
// a work-group barrier at the head of the loop changes nothing a kernel can
// observe: every work-item meets it the same number of times, in
// OpenCL C 6.13.8's sense, and no work-item waits for memory another one
// has not yet written that it would have read before. regions.c then
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
// gain little over the context traffic the interchange adds.
//
// C++ for LLVM's LoopInfo and ScalarEvolution, which the C API lacks.
#include <llvm/Analysis/AssumptionCache.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/ScalarEvolutionExpressions.h>
#include <llvm/Analysis/TargetLibraryInfo.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/TargetParser/Triple.h>
#include <llvm/Transforms/Scalar/EarlyCSE.h>
#include <llvm/Transforms/Scalar/SROA.h>
#include <llvm/Transforms/Scalar/Scalarizer.h>
#include <llvm-c/Core.h>

extern "C" {
#include "compiler/internal.h"
}
#include "compiler/loops.h"

namespace
{

const unsigned max_unrolled_trip_count = 64;
const unsigned max_loop_barriers = 16;

bool divergent(LLVMValueRef *values, size_t count, llvm::Value *v)
{
    return cc_is_divergent(values, count, llvm::wrap(v));
}

// Whether the loop's work is of the kind that gains from running its
// work-items as lanes, and nothing in it stops the interchange.
bool suitable_body(const llvm::Loop *loop, bool (*is_barrier)(LLVMValueRef))
{
    bool work = false;
    for (llvm::BasicBlock *bb : loop->blocks())
        for (llvm::Instruction &inst : *bb) {
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

// Whether running the loop's iterations across the group (lanes = work-
// items) suits its memory accesses better than leaving the loop innermost
// (lanes = iterations). Each load and store counts for the interchange
// when its address is the same for neighbouring work-items or one element
// apart (a broadcast or a plain vector access across lanes), and against
// it when the address moves by one element per iteration but not so per
// work-item (a row per work-item: the loop itself vectorizes, the
// interchange would gather). Addresses ScalarEvolution cannot follow count
// for neither; the interchange needs more for than against.
bool accesses_favour_lanes(const llvm::Loop *loop, llvm::ScalarEvolution &evolution,
                           llvm::Value *local_x, LLVMValueRef *values, size_t count)
{
    // an opaque part of an address (a load, an `and`) that differs between
    // work-items hides how the address does
    auto opaque = [&](const llvm::SCEV *part) {
        auto *unknown = llvm::dyn_cast<llvm::SCEVUnknown>(part);
        return unknown && unknown->getValue() != local_x &&
               divergent(values, count, unknown->getValue());
    };
    const llvm::DataLayout &layout = loop->getHeader()->getModule()->getDataLayout();
    llvm::ValueToSCEVMapTy next_item;
    const llvm::SCEV *x = evolution.getSCEV(local_x);
    next_item[local_x] = evolution.getAddExpr(x, evolution.getOne(x->getType()));
    int score = 0;
    for (llvm::BasicBlock *bb : loop->blocks())
        for (llvm::Instruction &inst : *bb) {
            llvm::Value *pointer = llvm::getLoadStorePointerOperand(&inst);
            if (!pointer)
                continue;
            llvm::Type *type = llvm::getLoadStoreType(&inst);
            uint64_t size = layout.getTypeStoreSize(type);
            const llvm::SCEV *address = evolution.getSCEV(pointer);
            if (llvm::SCEVExprContains(address, opaque))
                continue;
            const llvm::SCEV *neighbour =
                llvm::SCEVParameterRewriter::rewrite(address, evolution, next_item);
            const llvm::SCEV *across = evolution.getMinusSCEV(neighbour, address);
            auto *constant = llvm::dyn_cast<llvm::SCEVConstant>(across);
            if (constant && (constant->getValue()->isZero() ||
                             constant->getAPInt().getSExtValue() == (int64_t)size)) {
                score++;
                continue;
            }
            auto *recurrence = llvm::dyn_cast<llvm::SCEVAddRecExpr>(address);
            if (recurrence && recurrence->getLoop() == loop) {
                auto *step =
                    llvm::dyn_cast<llvm::SCEVConstant>(recurrence->getStepRecurrence(evolution));
                if (step && step->getAPInt().abs().getZExtValue() == size)
                    score--;
            }
        }
    return score > 0;
}

// Every exit of the loop is taken by all work-items alike.
bool uniform_exits(const llvm::Loop *loop, LLVMValueRef *values, size_t count)
{
    llvm::SmallVector<llvm::BasicBlock *, 4> exiting;
    loop->getExitingBlocks(exiting);
    for (llvm::BasicBlock *bb : exiting) {
        llvm::Instruction *term = bb->getTerminator();
        if (auto *br = llvm::dyn_cast<llvm::BranchInst>(term)) {
            if (br->isConditional() && divergent(values, count, br->getCondition()))
                return false;
        } else if (auto *sw = llvm::dyn_cast<llvm::SwitchInst>(term)) {
            if (divergent(values, count, sw->getCondition()))
                return false;
        } else {
            return false;
        }
    }
    return true;
}

// Vector-typed values of one work-item (a float4 position, a float3 sum)
// become their scalar components, loads and stores too: the loop
// vectorizer takes no loop with vector-typed instructions, and regions.c
// then keeps each component in an array of its own, consecutive
// work-items adjacent, which the vectorized loop reads with plain vector
// loads rather than gathers.
void scalarize(llvm::Function &fn)
{
    llvm::PassBuilder builder;
    llvm::LoopAnalysisManager loop_analyses;
    llvm::FunctionAnalysisManager function_analyses;
    llvm::CGSCCAnalysisManager cgscc_analyses;
    llvm::ModuleAnalysisManager module_analyses;
    builder.registerModuleAnalyses(module_analyses);
    builder.registerCGSCCAnalyses(cgscc_analyses);
    builder.registerFunctionAnalyses(function_analyses);
    builder.registerLoopAnalyses(loop_analyses);
    builder.crossRegisterProxies(loop_analyses, function_analyses, cgscc_analyses, module_analyses);
    llvm::ScalarizerPassOptions options;
    options.ScalarizeLoadStore = true;
    llvm::FunctionPassManager passes;
    passes.addPass(llvm::ScalarizerPass(options));
    passes.addPass(llvm::SROAPass(llvm::SROAOptions::ModifyCFG));
    passes.addPass(llvm::EarlyCSEPass());
    passes.run(fn, function_analyses);
}

} // namespace

extern "C" unsigned cc_add_loop_barriers(LLVMValueRef fn_ref, LLVMBasicBlockRef prologue,
                                         bool (*is_barrier)(LLVMValueRef), LLVMValueRef barrier)
{
    auto &fn = *llvm::cast<llvm::Function>(llvm::unwrap(fn_ref));
    LLVMValueRef *values = nullptr;
    size_t count = 0;
    if (!cc_find_divergent(fn_ref, prologue, &values, &count))
        return 0;

    llvm::DominatorTree dominators(fn);
    llvm::LoopInfo loops(dominators);
    llvm::TargetLibraryInfoImpl library_impl(llvm::Triple(fn.getParent()->getTargetTriple()));
    llvm::TargetLibraryInfo library(library_impl, &fn);
    llvm::AssumptionCache assumptions(fn);
    llvm::ScalarEvolution evolution(fn, library, assumptions, dominators, loops);

    llvm::SmallVector<llvm::BasicBlock *, 8> headers;
    for (llvm::Loop *loop : loops.getLoopsInPreorder()) {
        if (!loop->isInnermost() || headers.size() == max_loop_barriers)
            continue;
        unsigned trips = evolution.getSmallConstantTripCount(loop);
        if (trips && trips <= max_unrolled_trip_count)
            continue;
        if (!suitable_body(loop, is_barrier) || !uniform_exits(loop, values, count) ||
            !accesses_favour_lanes(loop, evolution, fn.getArg(2), values, count))
            continue;
        headers.push_back(loop->getHeader());
    }
    free(values);

    // Whether all work-items reach each header (none is only on one side
    // of a divergent branch), asked before any barrier is added.
    unsigned added = 0;
    llvm::FunctionType *type = llvm::cast<llvm::Function>(llvm::unwrap(barrier))->getFunctionType();
    for (llvm::BasicBlock *header : headers) {
        LLVMValueRef first = llvm::wrap(&*header->getFirstInsertionPt());
        if (!cc_all_work_items_reach(fn_ref, prologue, &first, 1))
            continue;
        llvm::Value *no_fence = llvm::ConstantInt::get(type->getParamType(0), 0);
        llvm::CallInst::Create(type, llvm::unwrap(barrier), {no_fence}, "",
                               header->getFirstInsertionPt());
        added++;
    }
    if (added)
        scalarize(fn);
    return added;
}
