// divergent.cpp - work-item loops around a loop that each work-item leaves
// after its own count, run a vector's width of work-items at a time.
//
// Takes a function inside O3, right before the loop vectorizer, after
// narrowing (optimize.cpp). LLVM 19's vectorizer takes innermost loops
// only, so a work-item loop (parallel.cpp's mark) with a loop inside it
// (Mandelbrot's `while (it < 64 && |z| < 2)`, a Newton iteration until
// it converges) ran one work-item at a time, and loops.cpp's loop barriers
// need exits the same for every work-item. Such a loop L is taken when it
// is in loop-simplify form with a canonical induction variable x as its
// only header phi, its latch is its only exit and tests x.next against a
// loop-invariant N (as narrow.cpp's loops), and nothing after it uses its
// values. I is the first loop inside it: innermost, with one exit block E
// (LCSSA), no loop of L before it, and reached from one block (its
// preheader) and passed by at most one edge (the guard a rotated `while`
// keeps when its condition may fail at once). I may not read or write
// memory (it would gather under a mask in the vector code): computation
// only, calls of functions with vector variants included.
//
// L's blocks then fall into three stages: A (before I), I, and C (what E
// and the edge passing I by reach before the latch). For V = the vector
// registers' width in floats, L's first F = T - T mod V work-items
// (T = max(N, 1)) run in chunks of V:
//
//   for (c = 0; c < F; c += V) {
//       for (l = 0; l < V; l++) A(c + l), its values that I or C use
//                                  stored in arrays [V] (x = c + l);
//       do {                       // I's iterations, all lanes at once
//           any = false;
//           for (l = 0; l < V; l++) {
//               if (active[l]) one iteration of I: its header phis from
//                  the arrays and back, or its exit: active[l] = false
//                  and E's phis into arrays;
//               any |= active[l];
//           }
//       } while (any);
//       for (l = 0; l < V; l++) C(c + l), its A and E values from arrays
//                                  (from where it passed I by, if it did);
//   }
//   L itself over [F, T), counting from 0 again
//
// so that the next round takes what L has left (T mod V work-items, or a
// group smaller than V) in chunks of one vector register: a group of 16
// in the general code (before its launch copy) ran a work-item at a time.
// Each l loop is innermost, with the trip count V and L's marks, so the
// loop vectorizer makes it one vector iteration (`llvm.loop.vectorize.
// enable`): every array access is a whole vector at one offset, and SROA
// (after the vectorizer) turns the arrays into registers. The lanes of a
// chunk run I as long as the longest of them; the work-items' order
// within each stage is kept. Work-items are independent between barriers
// (the loop's `llvm.loop.parallel_accesses`), which is what lets a stage
// of one run before another's. What A stores, it stores in its lane
// loop's latch (through phis over the two ways out of A), and I its state
// in its own latch, so that no store is conditional: a masked store would
// keep SROA from the arrays.
//
// The lane loop of C is a work-item loop too: when C holds another loop
// (two `while` loops one after the other), the next round takes it.
//
// When I runs as many iterations for every work-item (cc_same_count: a
// counter against a bound the same for all, clpeak's chain of `mad`s with
// its count an argument), its latch is its only exit and no edge passes it
// by, the lanes run it in lockstep: the inside lane loop runs I's body for
// every lane with no mask (no `active` test, no select of the old state or
// of the exit values, which are stored at every iteration and the last
// one's kept), and a chunk holds up to eight vector registers of lanes,
// which that loop runs interleaved (`llvm.loop.interleave.count`): eight
// independent chains for two FMA pipes of four cycles. The vectorizer then
// leaves one iteration, and SROA the state in registers.
//
// Keeps no analysis valid (the pass manager is told so).
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/KnownBits.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Metadata.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <llvm/Transforms/Utils/Local.h>
#include <llvm/Transforms/Utils/LoopUtils.h>
#include <llvm/Transforms/Utils/ValueMapper.h>
#include <llvm-c/Core.h>

#include <algorithm>
#include <map>
#include <set>
#include <vector>

#include "compiler/divergent.h"
#include "compiler/parallel.h"
#include "compiler/work_item_offset.h"

namespace
{

// A budget on the code this adds: each loop taken gets lane loops that the
// vectorizer then copies again. CLBlast's Xgemv, whose work-item loops
// loading switch-heavy banded matrices came in many unswitched copies,
// had 18 taken, which made its O3 and code generation 6 -> 27 s. Mandelbrot
// and a binary search take one.
const unsigned max_loops = 4;
const unsigned max_function_size = 16000; // instructions

enum Stage { before, inside, after };

struct Candidate : cc_counted_loop {
    llvm::Loop *loop, *inner;
    std::vector<llvm::BasicBlock *> blocks;
    llvm::BasicBlock *inner_preheader, *inner_header, *inner_latch, *inner_exit;
    // Stages of L's blocks; the edge from A to C that passes I by, if any
    // (a rotated `while` loop's guard), and A's blocks that dominate each
    // end of A (I's preheader, the skip's start).
    std::map<llvm::BasicBlock *, Stage> stages;
    llvm::BasicBlock *skip_from = nullptr, *skip_to = nullptr;
    std::set<llvm::BasicBlock *> before_enter, before_skip;
    // whether the lanes run I in lockstep: as many iterations for every
    // work-item (cc_same_count), its latch its only exit and no edge passing
    // it by; then how many vector registers of lanes the inside lane loop
    // runs interleaved, and I's counter (the same in every lane)
    bool lockstep = false;
    llvm::PHINode *counter = nullptr;
    unsigned interleave = 0;
};

// Whether a load's address steps through memory with I's iterations: an
// index (or its sign or zero extension) that is a header phi of I to
// which each iteration adds a constant (`vals[j]` of `for (j = first;
// j < last; j++)`).
bool walks(const llvm::LoadInst &load, const llvm::Loop &inner)
{
    auto *address = llvm::dyn_cast<llvm::GetElementPtrInst>(load.getPointerOperand());
    if (!address)
        return false;
    for (const llvm::Use &index : address->indices()) {
        const llvm::Value *v = index.get();
        if (auto *cast = llvm::dyn_cast<llvm::CastInst>(v))
            if (cast->getOpcode() == llvm::Instruction::SExt ||
                cast->getOpcode() == llvm::Instruction::ZExt)
                v = cast->getOperand(0);
        auto *phi = llvm::dyn_cast<llvm::PHINode>(v);
        if (!phi || phi->getParent() != inner.getHeader() || !inner.getLoopLatch())
            continue;
        auto *step = llvm::dyn_cast<llvm::BinaryOperator>(
            phi->getIncomingValueForBlock(inner.getLoopLatch()));
        if (step &&
            (step->getOpcode() == llvm::Instruction::Add ||
             step->getOpcode() == llvm::Instruction::Sub) &&
            step->getOperand(0) == phi && llvm::isa<llvm::ConstantInt>(step->getOperand(1)))
            return true;
    }
    return false;
}

// Whether an instruction of I keeps the lanes' vector code worth it: no
// stores, nothing that throws or must not be duplicated, and loads only
// where the work-items' own loops would not stream through memory. A
// load whose address a work-item computes from what it loaded before (a
// binary search's `table[mid]`) waits for memory once an iteration; the
// lanes make those waits overlap (a binary search of 4 Mi keys 3x
// faster). A load that walks memory with the iterations (a sparse
// row's `vals[j]`) is a stream the hardware fetches ahead for one
// work-item, which a gather across the lanes' rows would lose (CSR
// SpMV 1.7x slower when taken).
bool computes_only(const llvm::Instruction &inst, const llvm::Loop &inner)
{
    // (the vectorizer takes no loop with vector values)
    if (inst.getType()->isVectorTy())
        return false;
    for (const llvm::Value *operand : inst.operands())
        if (operand->getType()->isVectorTy())
            return false;
    if (auto *load = llvm::dyn_cast<llvm::LoadInst>(&inst))
        return load->isSimple() && !walks(*load, inner);
    if (inst.mayReadOrWriteMemory() || inst.mayThrow() || llvm::isa<llvm::AllocaInst>(inst))
        return false;
    if (auto *call = llvm::dyn_cast<llvm::CallBase>(&inst))
        return !call->isInlineAsm() && !call->isConvergent() && !call->cannotDuplicate();
    return true;
}

// Whether an instruction of A or C may be copied into the chunks.
bool copyable(const llvm::Instruction &inst)
{
    if (llvm::isa<llvm::AllocaInst>(inst))
        return false;
    if (auto *call = llvm::dyn_cast<llvm::CallBase>(&inst))
        return !call->isInlineAsm() && !call->isConvergent() && !call->cannotDuplicate();
    return true;
}

bool match_inner(llvm::Loop &inner, const llvm::DominatorTree &tree, Candidate &c);

bool match_loop(llvm::Loop &loop, const llvm::DominatorTree &tree, Candidate &c)
{
    if (loop.isInnermost() || !cc_is_work_item_loop(llvm::wrap(loop.getLoopID())) ||
        !loop.isLoopSimplifyForm())
        return false;
    c.loop = &loop;
    if (!cc_match_counted_loop(loop, c) || !c.exit->phis().empty())
        return false;
    for (llvm::PHINode &phi : c.header->phis())
        if (&phi != c.iv)
            return false;
    for (llvm::Loop *inner : loop.getSubLoops()) {
        c.stages.clear(), c.before_enter.clear(), c.before_skip.clear();
        c.skip_from = c.skip_to = nullptr;
        if (match_inner(*inner, tree, c))
            return true;
    }
    return false;
}

// Whether I = inner can be run in lanes in c's loop L: every other loop
// in L comes after it (in C, where the lane loop of C, a work-item loop
// of its own, may be taken in turn).
bool match_inner(llvm::Loop &inner, const llvm::DominatorTree &tree, Candidate &c)
{
    llvm::Loop &loop = *c.loop;
    c.inner = &inner;
    c.inner_preheader = inner.getLoopPreheader();
    c.inner_header = inner.getHeader();
    c.inner_latch = inner.getLoopLatch();
    c.inner_exit = inner.getUniqueExitBlock();
    if (!inner.isInnermost() || !inner.isLoopSimplifyForm() || !c.inner_exit ||
        c.inner_exit == c.header || !c.inner_latch)
        return false;
    // C: what E reaches before the next iteration; A: the rest but I
    std::vector<llvm::BasicBlock *> work{c.inner_exit};
    c.stages[c.inner_exit] = after;
    while (!work.empty()) {
        llvm::BasicBlock *block = work.back();
        work.pop_back();
        for (llvm::BasicBlock *next : llvm::successors(block))
            if (loop.contains(next) && next != c.header && !c.stages.count(next)) {
                c.stages[next] = after;
                work.push_back(next);
            }
    }
    for (llvm::BasicBlock *block : loop.blocks()) {
        if (c.stages.count(block))
            continue;
        c.stages[block] = inner.contains(block) ? inside : before;
        for (llvm::Loop *other : loop.getSubLoops())
            if (other != &inner && other->contains(block))
                return false; // a loop before I
    }
    if (c.stages[c.latch] != after || c.stages[c.inner_preheader] != before)
        return false;
    // A enters I only from its preheader; at most one edge passes it by
    for (llvm::BasicBlock *block : loop.blocks()) {
        if (c.stages[block] != before)
            continue;
        if (!llvm::isa<llvm::BranchInst>(block->getTerminator()))
            return false;
        for (llvm::BasicBlock *next : llvm::successors(block)) {
            if (c.stages[next] != after)
                continue;
            if (c.skip_from)
                return false;
            c.skip_from = block, c.skip_to = next;
        }
    }
    for (llvm::BasicBlock *block : loop.blocks()) {
        if (c.stages[block] != before)
            continue;
        if (tree.dominates(block, c.inner_preheader))
            c.before_enter.insert(block);
        if (c.skip_from && tree.dominates(block, c.skip_from))
            c.before_skip.insert(block);
    }
    for (llvm::BasicBlock *block : loop.blocks())
        for (llvm::Instruction &inst : *block) {
            if (!(inner.contains(block) ? computes_only(inst, inner) : copyable(inst)))
                return false;
            for (const llvm::User *user : inst.users())
                if (!loop.contains(llvm::cast<llvm::Instruction>(user)))
                    return false;
        }
    c.blocks.assign(loop.block_begin(), loop.block_end());
    c.lockstep = cc_same_count(loop, inner, &c.counter) &&
                 inner.getExitingBlock() == c.inner_latch && !c.skip_from;
    if (!c.lockstep)
        c.counter = nullptr;
    return true;
}

// A lane loop's ID: L's (its parallel accesses and marks), with the
// vectorizer told to vectorize, and to interleave so many vectors when
// interleave > 1.
llvm::MDNode *lane_loop_id(llvm::MDNode *id, unsigned interleave)
{
    llvm::LLVMContext &context = id->getContext();
    std::vector<llvm::Metadata *> operands{nullptr};
    for (unsigned i = 1; i < id->getNumOperands(); i++)
        operands.push_back(id->getOperand(i));
    llvm::Metadata *enable[] = {llvm::MDString::get(context, "llvm.loop.vectorize.enable"),
                                llvm::ConstantAsMetadata::get(llvm::ConstantInt::getTrue(context))};
    operands.push_back(llvm::MDNode::get(context, enable));
    if (interleave > 1) {
        llvm::Metadata *count[] = {llvm::MDString::get(context, "llvm.loop.interleave.count"),
                                   llvm::ConstantAsMetadata::get(llvm::ConstantInt::get(
                                       llvm::Type::getInt32Ty(context), interleave))};
        operands.push_back(llvm::MDNode::get(context, count));
    }
    llvm::MDNode *lanes = llvm::MDNode::getDistinct(context, operands);
    lanes->replaceOperandWith(0, lanes);
    return lanes;
}

// The access groups L's accesses are parallel in (null if none).
llvm::MDNode *access_groups(llvm::MDNode *id)
{
    for (unsigned i = 1; i < id->getNumOperands(); i++) {
        auto *node = llvm::dyn_cast<llvm::MDNode>(id->getOperand(i));
        auto *name = node && node->getNumOperands() > 1
                         ? llvm::dyn_cast<llvm::MDString>(node->getOperand(0))
                         : nullptr;
        if (name && name->getString() == "llvm.loop.parallel_accesses")
            return llvm::cast<llvm::MDNode>(node->getOperand(1));
    }
    return nullptr;
}

// The chunks' state: arrays of V values, one element a lane, in the
// function's entry block.
struct Lanes {
    unsigned count;      // V
    llvm::MDNode *group; // the access group of the arrays' accesses
    llvm::Instruction *entry;

    llvm::AllocaInst *array(llvm::Type *type, const llvm::Twine &name)
    {
        auto *a = new llvm::AllocaInst(llvm::ArrayType::get(type, count), 0, nullptr,
                                       llvm::Align(64), name, entry);
        return a;
    }
    llvm::Value *element(llvm::IRBuilder<> &b, llvm::AllocaInst *a, llvm::Value *lane)
    {
        return b.CreateInBoundsGEP(a->getAllocatedType(), a, {b.getInt64(0), lane});
    }
    llvm::Value *load(llvm::IRBuilder<> &b, llvm::AllocaInst *a, llvm::Value *lane,
                      const llvm::Twine &name = "")
    {
        llvm::LoadInst *v =
            b.CreateLoad(a->getAllocatedType()->getArrayElementType(), element(b, a, lane), name);
        if (group)
            v->setMetadata(llvm::LLVMContext::MD_access_group, group);
        return v;
    }
    void store(llvm::IRBuilder<> &b, llvm::Value *v, llvm::AllocaInst *a, llvm::Value *lane)
    {
        llvm::StoreInst *s = b.CreateStore(v, element(b, a, lane));
        if (group)
            s->setMetadata(llvm::LLVMContext::MD_access_group, group);
    }
};

// A loop over the V lanes: its preheader, its header (with the lane l),
// its latch and the block after it.
struct LaneLoop {
    llvm::BasicBlock *preheader, *header, *latch, *exit;
    llvm::PHINode *lane;
};

LaneLoop make_lane_loop(llvm::LLVMContext &context, llvm::Function *fn, unsigned count,
                        llvm::MDNode *id, const char *name, unsigned interleave = 0)
{
    LaneLoop l;
    l.preheader = llvm::BasicBlock::Create(context, llvm::Twine(name) + ".start", fn);
    l.header = llvm::BasicBlock::Create(context, llvm::Twine(name) + ".lane", fn);
    l.latch = llvm::BasicBlock::Create(context, llvm::Twine(name) + ".next", fn);
    l.exit = llvm::BasicBlock::Create(context, llvm::Twine(name) + ".done", fn);
    llvm::IRBuilder<> b(l.header);
    l.lane = b.CreatePHI(b.getInt64Ty(), 2, llvm::Twine(name) + ".l");
    l.lane->addIncoming(b.getInt64(0), l.preheader);
    llvm::BranchInst::Create(l.header, l.preheader);
    b.SetInsertPoint(l.latch);
    llvm::Value *next = b.CreateAdd(l.lane, b.getInt64(1), "", true, true);
    l.lane->addIncoming(next, l.latch);
    llvm::BranchInst *branch =
        b.CreateCondBr(b.CreateICmpEQ(next, b.getInt64(count)), l.exit, l.header);
    branch->setMetadata(llvm::LLVMContext::MD_loop, lane_loop_id(id, interleave));
    return l;
}

void run_in_lanes(Candidate &c, unsigned count)
{
    llvm::Function *fn = c.header->getParent();
    llvm::LLVMContext &context = fn->getContext();
    llvm::MDNode *id = c.loop->getLoopID();
    Lanes lanes{count, access_groups(id), &*fn->getEntryBlock().getFirstInsertionPt()};

    // T and F, and the choice between chunks and L
    llvm::BasicBlock *chunk = llvm::BasicBlock::Create(context, "chunk", fn);
    cc_loop_split split = cc_split_counted_loop(c, count, chunk, "lanes");
    llvm::Value *trips = split.trips, *full = split.full;
    llvm::BasicBlock *rest = split.rest, *rest_start = split.rest_start;
    llvm::IRBuilder<> b(chunk);
    llvm::Type *index = c.iv->getType();

    // the copy of L's blocks the chunks run, each with its stage
    llvm::ValueToValueMapTy map;
    std::vector<llvm::BasicBlock *> copies;
    std::map<llvm::BasicBlock *, Stage> stage;
    std::map<llvm::BasicBlock *, llvm::BasicBlock *> original;
    for (llvm::BasicBlock *block : c.blocks) {
        llvm::BasicBlock *copy = llvm::CloneBasicBlock(block, map, ".lanes", fn);
        map[block] = copy;
        copies.push_back(copy);
        stage[copy] = c.stages.at(block);
        original[copy] = block;
    }
    llvm::remapInstructionsInBlocks(copies, map);
    auto copy_of = [&](llvm::BasicBlock *block) {
        return llvm::cast<llvm::BasicBlock>(map[block]);
    };
    llvm::BasicBlock *header = copy_of(c.header), *latch = copy_of(c.latch);
    llvm::BasicBlock *inner_preheader = copy_of(c.inner_preheader);
    llvm::BasicBlock *inner_header = copy_of(c.inner_header);
    llvm::BasicBlock *inner_latch = copy_of(c.inner_latch), *inner_exit = copy_of(c.inner_exit);

    // chunk: c; the stages' lane loops; the next chunk
    b.SetInsertPoint(chunk);
    llvm::PHINode *first = b.CreatePHI(index, 2, "chunk.first");
    first->addIncoming(llvm::ConstantInt::get(index, 0), c.preheader);
    LaneLoop a = make_lane_loop(context, fn, count, id, "before");
    b.CreateBr(a.preheader);
    LaneLoop i = make_lane_loop(context, fn, count, id, "inside", c.interleave);
    llvm::BranchInst::Create(i.preheader, a.exit);
    LaneLoop z = make_lane_loop(context, fn, count, id, "after");
    llvm::BasicBlock *next_chunk = llvm::BasicBlock::Create(context, "chunk.next", fn);
    llvm::BranchInst::Create(next_chunk, z.exit);
    b.SetInsertPoint(next_chunk);
    llvm::Value *next_first =
        b.CreateAdd(first, llvm::ConstantInt::get(index, count), "", true, true);
    first->addIncoming(next_first, next_chunk);
    b.CreateCondBr(b.CreateICmpEQ(next_first, full), rest, chunk);
    for (llvm::BasicBlock *block : {a.preheader, a.header, a.latch, a.exit})
        stage[block] = before;
    for (llvm::BasicBlock *block : {i.preheader, i.header, i.latch})
        stage[block] = inside;
    for (llvm::BasicBlock *block : {z.preheader, z.header, z.latch})
        stage[block] = after;

    // each stage's x = c + l, at its lane loop's head
    llvm::Value *x[3];
    LaneLoop *loops[3] = {&a, &i, &z};
    for (int s = 0; s < 3; s++) {
        b.SetInsertPoint(loops[s]->header);
        x[s] = b.CreateAdd(first, b.CreateZExtOrTrunc(loops[s]->lane, index), "x", true, true);
    }

    // before: runs into its lane loop's latch instead of I (or C), where
    // what I and C need of it is stored, through phis when some lanes
    // pass I by (a value there only on one side is poison on the other)
    b.SetInsertPoint(a.header);
    b.CreateBr(header);
    inner_preheader->getTerminator()->replaceUsesOfWith(inner_header, a.latch);
    llvm::BasicBlock *skip = c.skip_from ? copy_of(c.skip_from) : nullptr;
    if (skip)
        skip->getTerminator()->replaceUsesOfWith(copy_of(c.skip_to), a.latch);
    llvm::IRBuilder<> ends(a.latch->getTerminator());
    auto ending = [&](llvm::Value *entering, llvm::Value *skipping) -> llvm::Value * {
        if (!skip || entering == skipping)
            return entering;
        llvm::PHINode *phi =
            llvm::PHINode::Create(entering->getType(), 2, "", a.latch->getFirstNonPHI());
        phi->addIncoming(entering, inner_preheader);
        phi->addIncoming(skipping, skip);
        return phi;
    };
    auto available = [&](llvm::Value *v, bool entering) -> llvm::Value * {
        auto *inst = llvm::dyn_cast<llvm::Instruction>(v);
        if (!inst || !original.count(inst->getParent()))
            return v;
        const std::set<llvm::BasicBlock *> &dominators = entering ? c.before_enter : c.before_skip;
        return dominators.count(original[inst->getParent()]) ? v
                                                             : llvm::PoisonValue::get(v->getType());
    };
    auto leaving = [&](llvm::Value *v) { return ending(available(v, true), available(v, false)); };

    // inside: I's header phis from their arrays (in lockstep, I's counter is
    // one phi of the loop around the inside lane loop, the same for every
    // lane, not an array of copies)
    llvm::PHINode *any = llvm::PHINode::Create(b.getInt1Ty(), 2, "any", i.header->getFirstNonPHI());
    any->addIncoming(b.getFalse(), i.preheader);
    b.SetInsertPoint(i.header);
    if (c.lockstep) {
        auto *counter_copy = llvm::cast<llvm::PHINode>(map[c.counter]);
        llvm::PHINode *counter = llvm::PHINode::Create(counter_copy->getType(), 2, "counter",
                                                       i.preheader->getFirstNonPHI());
        counter->addIncoming(counter_copy->getIncomingValueForBlock(inner_preheader), a.exit);
        counter->addIncoming(counter_copy->getIncomingValueForBlock(inner_latch), i.exit);
        counter_copy->replaceAllUsesWith(counter);
        counter_copy->eraseFromParent();
    }
    std::vector<llvm::AllocaInst *> state_arrays;
    std::vector<llvm::Value *> state_old, state_next;
    std::vector<llvm::PHINode *> header_phis;
    for (llvm::PHINode &phi : inner_header->phis()) {
        llvm::AllocaInst *array = lanes.array(phi.getType(), "state");
        llvm::Value *start = phi.getIncomingValueForBlock(inner_preheader);
        lanes.store(ends, ending(available(start, true), llvm::PoisonValue::get(start->getType())),
                    array, a.lane);
        state_arrays.push_back(array);
        state_old.push_back(lanes.load(b, array, i.lane));
        header_phis.push_back(&phi);
    }
    for (size_t k = 0; k < header_phis.size(); k++)
        header_phis[k]->replaceAllUsesWith(state_old[k]);
    for (llvm::PHINode *phi : header_phis) {
        state_next.push_back(phi->getIncomingValueForBlock(inner_latch));
        phi->eraseFromParent();
    }
    inner_latch->getTerminator()->setMetadata(llvm::LLVMContext::MD_loop, nullptr);

    // I's exits: E's phis, read by C from arrays
    std::vector<llvm::PHINode *> exit_phis;
    for (llvm::PHINode &phi : inner_exit->phis())
        exit_phis.push_back(&phi);
    std::vector<llvm::AllocaInst *> exit_arrays;
    llvm::IRBuilder<> then(z.header);
    for (llvm::PHINode *phi : exit_phis) {
        llvm::AllocaInst *array = lanes.array(phi->getType(), "exit");
        lanes.store(ends, llvm::Constant::getNullValue(phi->getType()), array, a.lane);
        phi->replaceAllUsesWith(lanes.load(then, array, z.lane));
        exit_arrays.push_back(array);
    }
    std::vector<std::pair<llvm::Value *, llvm::AllocaInst *>> now;
    llvm::Value *is_active, *enters = ending(b.getInt8(1), b.getInt8(0));
    if (c.lockstep) {
        // every lane runs I's body, with no mask: I's latch goes on to the
        // lane loop's, where the next state and what I's exit would take
        // are stored (at every iteration; the last one's stay), and all
        // lanes go on while the counter does
        auto *branch = llvm::cast<llvm::BranchInst>(inner_latch->getTerminator());
        is_active = branch->getCondition();
        b.CreateBr(inner_header);
        b.SetInsertPoint(i.latch, i.latch->begin());
        if (branch->getSuccessor(0) == inner_exit)
            is_active = b.CreateNot(is_active, "go_on");
        llvm::BranchInst::Create(i.latch, branch);
        branch->eraseFromParent();
        for (size_t k = 0; k < state_arrays.size(); k++)
            now.push_back({state_next[k], state_arrays[k]});
        for (size_t k = 0; k < exit_arrays.size(); k++) {
            now.push_back({exit_phis[k]->getIncomingValueForBlock(inner_latch), exit_arrays[k]});
            exit_phis[k]->eraseFromParent();
        }
    } else {
        // each lane's activity: a lane that was active runs one iteration
        // of I, and stays, or leaves with E's phis; the latch's phis hold
        // what each lane holds now
        llvm::AllocaInst *active = lanes.array(b.getInt8Ty(), "active");
        llvm::Value *was_active = b.CreateICmpNE(lanes.load(b, active, i.lane), b.getInt8(0));
        lanes.store(ends, enters, active, a.lane);
        llvm::BasicBlock *stays = llvm::BasicBlock::Create(context, "inside.stays", fn);
        llvm::BasicBlock *leaves = llvm::BasicBlock::Create(context, "inside.leaves", fn);
        stage[stays] = stage[leaves] = inside;
        inner_latch->getTerminator()->replaceUsesOfWith(inner_header, stays);
        llvm::BranchInst::Create(i.latch, stays);
        for (llvm::BasicBlock *block : copies)
            if (stage[block] == inside)
                block->getTerminator()->replaceUsesOfWith(inner_exit, leaves);
        for (llvm::PHINode *phi : exit_phis)
            phi->moveBefore(*leaves, leaves->end());
        llvm::BranchInst::Create(i.latch, leaves);
        std::vector<llvm::Value *> exit_old;
        for (llvm::AllocaInst *array : exit_arrays)
            exit_old.push_back(lanes.load(b, array, i.lane));
        b.CreateCondBr(was_active, inner_header, i.latch);

        // the latch's phis: a value for a lane that was idle, one that
        // stays in I and one that leaves it
        b.SetInsertPoint(i.latch, i.latch->begin());
        auto latch_phi = [&](llvm::Value *idle, llvm::Value *stayed, llvm::Value *left,
                             const char *name = "") {
            llvm::PHINode *phi = b.CreatePHI(idle->getType(), 3, name);
            phi->addIncoming(idle, i.header);
            phi->addIncoming(stayed, stays);
            phi->addIncoming(left, leaves);
            return phi;
        };
        llvm::PHINode *active_now =
            latch_phi(b.getFalse(), b.getTrue(), b.getFalse(), "active.now");
        for (size_t k = 0; k < state_arrays.size(); k++)
            now.push_back({latch_phi(state_old[k], state_next[k], state_old[k]), state_arrays[k]});
        for (size_t k = 0; k < exit_arrays.size(); k++)
            now.push_back({latch_phi(exit_old[k], exit_old[k], exit_phis[k]), exit_arrays[k]});
        now.push_back({b.CreateZExt(active_now, b.getInt8Ty()), active});
        is_active = active_now;
    }

    // inside's latch: what each lane holds now, stored back; another round
    // of the lanes while any is active
    for (auto [value, array] : now)
        lanes.store(b, value, array, i.lane);
    llvm::Value *any_now = b.CreateOr(any, is_active);
    any->addIncoming(any_now, i.latch);
    b.SetInsertPoint(i.exit);
    b.CreateCondBr(any_now, i.preheader, z.preheader);

    // after: from its lane loop's head into E (or where the lanes that
    // passed I by go), out into its latch
    then.SetInsertPoint(z.header);
    if (skip) {
        llvm::AllocaInst *entered = lanes.array(b.getInt8Ty(), "entered");
        lanes.store(ends, enters, entered, a.lane);
        llvm::BasicBlock *skip_to = copy_of(c.skip_to);
        then.CreateCondBr(then.CreateICmpNE(lanes.load(then, entered, z.lane), then.getInt8(0)),
                          inner_exit, skip_to);
        for (llvm::PHINode &phi : skip_to->phis())
            phi.setIncomingBlock(phi.getBasicBlockIndex(skip), z.header);
    } else {
        then.CreateBr(inner_exit);
    }
    llvm::Instruction *old_latch = latch->getTerminator();
    llvm::BranchInst::Create(z.latch, old_latch);
    old_latch->eraseFromParent();

    // x, and A's values that I or C use, in each stage's own terms
    auto stage_of_use = [&](llvm::Use &use) {
        auto *user = llvm::cast<llvm::Instruction>(use.getUser());
        llvm::BasicBlock *block = user->getParent();
        if (auto *phi = llvm::dyn_cast<llvm::PHINode>(user))
            block = phi->getIncomingBlock(use);
        return stage.at(block);
    };
    auto *iv = llvm::cast<llvm::PHINode>(map[c.iv]);
    for (llvm::Use &use : llvm::make_early_inc_range(iv->uses()))
        use.set(x[stage_of_use(use)]);
    iv->eraseFromParent();
    llvm::Instruction *heads[3] = {nullptr, i.header->getTerminator(), z.header->getTerminator()};
    for (llvm::BasicBlock *block : copies) {
        if (stage[block] != before)
            continue;
        for (llvm::Instruction &inst : *block) {
            llvm::Value *loaded[3] = {nullptr, nullptr, nullptr};
            llvm::AllocaInst *array = nullptr;
            for (llvm::Use &use : llvm::make_early_inc_range(inst.uses())) {
                Stage s = stage_of_use(use);
                if (s == before)
                    continue;
                if (!array) {
                    array = lanes.array(inst.getType(), inst.getName() + ".lanes");
                    lanes.store(ends, leaving(&inst), array, a.lane);
                }
                if (!loaded[s]) {
                    llvm::IRBuilder<> head(heads[s]);
                    loaded[s] = lanes.load(head, array, loops[s]->lane);
                }
                use.set(loaded[s]);
            }
        }
    }
    llvm::RecursivelyDeleteTriviallyDeadInstructions(map[c.latch_compare]);

    // L runs what is left, T mod V work-items from F, counting from 0 again
    // (x = F + j) so that the next round may take it in smaller chunks
    b.SetInsertPoint(rest_start->getTerminator());
    llvm::Value *left = b.CreateAnd(trips, llvm::ConstantInt::get(index, count - 1), "lanes.left");
    c.iv->setIncomingValueForBlock(rest_start, llvm::ConstantInt::get(index, 0));
    auto *iv_next = llvm::cast<llvm::Instruction>(c.iv->getIncomingValueForBlock(c.latch));
    llvm::IRBuilder<> at_head(c.header, c.header->getFirstInsertionPt());
    llvm::Value *item = at_head.CreateAdd(full, c.iv, "lanes.x", true, true);
    c.iv->replaceUsesWithIf(
        item, [&](llvm::Use &use) { return use.getUser() != iv_next && use.getUser() != item; });
    llvm::IRBuilder<> at_latch(c.latch_compare);
    llvm::Value *item_next = nullptr;
    for (llvm::Use &use : llvm::make_early_inc_range(iv_next->uses())) {
        if (use.getUser() == c.iv || use.getUser() == c.latch_compare)
            continue;
        if (!item_next)
            item_next = at_latch.CreateAdd(full, iv_next, "lanes.x.next", true, true);
        use.set(item_next);
    }
    c.latch_compare->setOperand(c.count_operand, left);
}

unsigned bits_of(const llvm::Value *v)
{
    unsigned bits = (unsigned)v->getType()->getPrimitiveSizeInBits();
    return bits ? bits : 64; // a pointer
}

// The bits of I's widest header phi (at least 32) but a lockstep counter
// (one for all lanes): a vector register of lanes holds register_bits /
// widest_state of them.
unsigned widest_state(const Candidate &c)
{
    unsigned widest = 32;
    for (llvm::PHINode &phi : c.inner_header->phis())
        if (&phi != c.counter)
            widest = std::max(widest, bits_of(&phi));
    return widest;
}

// How many lanes a chunk has: as many as keep what each iteration of I
// holds for its lanes (I's header phis, and the values of A and x it
// reads; a pointer counts 64 bits) within 24 vector registers, up to four
// registers of floats: then each iteration runs several independent
// vector operations where one would wait for the last. Mandelbrot over
// 2048^2 (five floats a lane) took 22.8 ms at 16 lanes (AVX-512), 15.1 at
// 32, 12.4 at 64, 15.0 at 128; in double (four doubles and an int) 26.5
// at 16, 20.6 at 32, 24.5 at 64; a binary search 103, 85, 76 and 90 ms.
// When I runs as many iterations for every lane, no lane idles while
// others finish: up to eight registers of the widest state, which the
// inside lane loop runs interleaved (the FMA pipes take eight chains).
// widest: widest_state(c).
unsigned chunk_lanes(const Candidate &c, unsigned register_bits, unsigned widest)
{
    unsigned per_lane = 0;
    std::set<const llvm::Value *> counted;
    for (llvm::PHINode &phi : c.inner_header->phis())
        if (&phi != c.counter) // (in lockstep, once for all lanes)
            per_lane += bits_of(&phi), counted.insert(&phi);
    for (llvm::BasicBlock *block : c.inner->blocks())
        for (llvm::Instruction &inst : *block)
            for (const llvm::Value *operand : inst.operands()) {
                auto *def = llvm::dyn_cast<llvm::Instruction>(operand);
                if (def && c.loop->contains(def) && !c.inner->contains(def) &&
                    counted.insert(def).second)
                    per_lane += bits_of(def);
            }
    unsigned lanes = c.lockstep ? 8 * register_bits / widest : 4 * register_bits / 32;
    while (lanes > 4 && lanes * std::max(per_lane, 32u) > 24 * register_bits)
        lanes /= 2;
    // a constant N (a launch copy's local size, a lane loop of the last
    // round): no more lanes than N, and fewer when that leaves more than an
    // eighth of the work-items to L (N = 100: 96 in chunks of 32, 4 after)
    llvm::Value *count = c.latch_compare->getOperand(c.count_operand);
    if (auto *n = llvm::dyn_cast<llvm::ConstantInt>(count)) {
        uint64_t trips = n->getValue().getLimitedValue(UINT32_MAX);
        while (lanes > 1 && (trips < lanes || (trips % lanes) * 8 > trips))
            lanes /= 2;
        return lanes;
    }
    // what an earlier round left (N = T mod V, below V): chunks of one
    // vector register of the widest state, if N may reach that (a group of
    // 16 work-items, whose launch copy has not been made yet, runs one)
    const llvm::DataLayout &layout = c.header->getModule()->getDataLayout();
    uint64_t most = llvm::computeKnownBits(count, layout).getMaxValue().getLimitedValue();
    if (most < lanes) {
        lanes = register_bits / widest;
        return most >= lanes ? lanes : 0;
    }
    return lanes;
}

// One round over fn's work-item loops; the next one takes what this one
// left in the lane loops of C.
bool run_round(llvm::Function &fn, unsigned register_bits, unsigned &budget)
{
    llvm::DominatorTree tree(fn);
    llvm::LoopInfo loops(tree);
    std::vector<Candidate> candidates;
    for (llvm::Loop *loop : loops.getLoopsInPreorder()) {
        Candidate c;
        if (!match_loop(*loop, tree, c))
            continue;
        if (!c.inner->isLCSSAForm(tree))
            llvm::formLCSSA(*c.inner, tree, &loops, nullptr);
        candidates.push_back(c);
    }
    bool changed = false;
    for (Candidate &c : candidates) {
        unsigned widest = widest_state(c);
        unsigned lanes = chunk_lanes(c, register_bits, widest);
        if (lanes < 4 || budget == 0 || fn.getInstructionCount() > max_function_size)
            continue;
        budget--;
        if (c.lockstep)
            c.interleave = lanes / (register_bits / widest);
        run_in_lanes(c, lanes);
        changed = true;
    }
    return changed;
}

} // namespace

extern "C" bool cc_run_divergent_loops_in_lanes(LLVMValueRef fn_ref, unsigned register_bits)
{
    llvm::Function &fn = *llvm::cast<llvm::Function>(llvm::unwrap(fn_ref));
    if (register_bits < 128 || (register_bits & (register_bits - 1)))
        return false;
    bool changed = false;
    unsigned budget = max_loops;
    for (int round = 0; round < 4 && run_round(fn, register_bits, budget); round++)
        changed = true;
    return changed;
}
