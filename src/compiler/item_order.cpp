// item_order.cpp - work-item loops whose parallel mark LLVM 19 would turn
// into wrong code.
//
// parallel.cpp marks each work-item loop `llvm.loop.parallel_accesses`:
// two work-items never touch the same memory between barriers without
// racing, so no dependence crosses iterations. But LoopAccessAnalysis then
// skips its dependence analysis altogether, and the loop vectorizer's
// interleaved groups read that as "no dependence at all", also inside one
// iteration: a group of strided loads is emitted at its first member, a
// group of strided stores at its last, moving the other members across
// whatever lies between. A work-item that reads `p[2x + 1]`, writes
// `p[2x]`, writes `q[x]` and reads `p[2x]` again (kept: q may alias p) got
// the old `p[2x]` (PoCL's CPU device too, from the same LLVM).
//
// So before the vectorizer, for each innermost loop marked parallel: if a
// strided load could join a group whose first member comes before a store
// that may write what the load reads, or a strided store a group whose last
// member comes after an access that may touch what the store writes, the
// loop loses its parallel mark. LoopAccessAnalysis then analyses it: it
// records the dependence inside the iteration, which keeps the group apart,
// and checks at run time what it cannot prove (the vectorizer may also give
// up). "Could join" is what the grouping needs: a constant step of more
// than one element, the same step and base and a constant distance between
// the members. "May" is the alias analysis (context_scopes.c's scopes tell
// a work-item's private arrays apart).
#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/SmallVector.h>
#include <llvm/Analysis/AliasAnalysis.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/LoopIterator.h>
#include <llvm/Analysis/MemoryLocation.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/ScalarEvolutionExpressions.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Instructions.h>
#include <llvm/Transforms/Utils/LoopUtils.h>

#include <cstdio>
#include <cstdlib>

#include "compiler/item_order.h"

namespace
{

// Questions to the alias analysis a loop may ask before it is taken as
// unsafe without more of them (a loop of thousands of accesses).
const unsigned max_queries = 20000;

struct Access {
    llvm::Instruction *inst;
    bool store;
    const llvm::SCEV *base; // with the constant offset taken off; null when not strided
    const llvm::SCEV *step;
};

// The access's address as base + a constant + step * iteration, when the
// step is a constant of more than one element: only such accesses join
// groups, those of one base and step.
// As the vectorizer does, an index's sign extension is assumed not to
// wrap (it checks that at run time).
void describe(Access &a, llvm::Loop *loop, llvm::PredicatedScalarEvolution &predicated)
{
    llvm::ScalarEvolution &evolution = *predicated.getSE();
    llvm::Value *pointer = llvm::getLoadStorePointerOperand(a.inst);
    llvm::Type *type = llvm::getLoadStoreType(a.inst);
    const llvm::SCEVAddRecExpr *rec = predicated.getAsAddRec(pointer);
    if (!rec || rec->getLoop() != loop || !rec->isAffine())
        return;
    auto *step = llvm::dyn_cast<llvm::SCEVConstant>(rec->getStepRecurrence(evolution));
    uint64_t size = a.inst->getDataLayout().getTypeStoreSize(type).getFixedValue();
    if (!step || size == 0)
        return;
    int64_t bytes = step->getAPInt().getSExtValue();
    if (bytes % (int64_t)size != 0 || (bytes / (int64_t)size >= -1 && bytes / (int64_t)size <= 1))
        return;
    const llvm::SCEV *start = rec->getStart();
    if (auto *sum = llvm::dyn_cast<llvm::SCEVAddExpr>(start))
        if (auto *constant = llvm::dyn_cast<llvm::SCEVConstant>(sum->getOperand(0)))
            start = evolution.getMinusSCEV(start, constant);
    a.base = start;
    a.step = step;
}

bool may_meet(llvm::BatchAAResults &aliases, const Access &a, const Access &b, unsigned &queries)
{
    queries++;
    return aliases.alias(llvm::MemoryLocation::get(a.inst), llvm::MemoryLocation::get(b.inst)) !=
           llvm::AliasResult::NoAlias;
}

// Whether moving a strided access to its group's first (loads) or last
// (stores) possible member could cross an access it depends on.
bool unsafe(llvm::Loop *loop, llvm::LoopInfo &loops, llvm::ScalarEvolution &evolution,
            llvm::AAResults &alias_results)
{
    llvm::SmallVector<Access, 64> accesses;
    llvm::PredicatedScalarEvolution predicated(evolution, *loop);
    llvm::LoopBlocksRPO order(loop);
    order.perform(&loops);
    for (llvm::BasicBlock *bb : order)
        for (llvm::Instruction &inst : *bb)
            if (llvm::isa<llvm::LoadInst>(inst) || llvm::isa<llvm::StoreInst>(inst)) {
                Access a = {&inst, llvm::isa<llvm::StoreInst>(inst), nullptr, nullptr};
                describe(a, loop, predicated);
                accesses.push_back(a);
            }
    // the members a group could have: same kind, base and step
    llvm::DenseMap<std::pair<const llvm::SCEV *, const llvm::SCEV *>,
                   llvm::SmallVector<unsigned, 4>>
        loads, stores;
    for (unsigned i = 0; i < accesses.size(); i++)
        if (accesses[i].base)
            (accesses[i].store ? stores : loads)[{accesses[i].base, accesses[i].step}].push_back(i);
    llvm::BatchAAResults aliases(alias_results);
    unsigned queries = 0;
    for (auto &group : loads) {
        unsigned first = group.second.front();
        for (unsigned member : group.second)
            for (unsigned i = first + 1; i < member; i++)
                if (accesses[i].store && may_meet(aliases, accesses[i], accesses[member], queries))
                    return true;
        if (queries > max_queries)
            return true;
    }
    for (auto &group : stores) {
        unsigned last = group.second.back();
        for (unsigned member : group.second)
            for (unsigned i = member + 1; i < last; i++)
                if (may_meet(aliases, accesses[member], accesses[i], queries))
                    return true;
        if (queries > max_queries)
            return true;
    }
    return false;
}

} // namespace

bool cc_keep_item_order(llvm::Function &fn, llvm::LoopInfo &loops, llvm::ScalarEvolution &evolution,
                        llvm::AAResults &aliases)
{
    bool changed = false;
    for (llvm::Loop *loop : loops.getLoopsInPreorder()) {
        if (!loop->isInnermost() || !loop->isAnnotatedParallel() ||
            !unsafe(loop, loops, evolution, aliases))
            continue;
        llvm::LLVMContext &context = fn.getContext();
        loop->setLoopID(llvm::makePostTransformationMetadata(context, loop->getLoopID(),
                                                             {"llvm.loop.parallel_accesses"}, {}));
        if (std::getenv("CPUCL_VECTORIZE"))
            std::fprintf(stderr,
                         "cpucl: %s: a work-item loop loses its parallel mark (an access "
                         "inside a work-item's iteration depends on another)\n",
                         fn.getName().str().c_str());
        changed = true;
    }
    return changed;
}
