// interleave.cpp - several vectors of work-items at once where each
// work-item runs one long chain of floating-point operations.
//
// The loop vectorizer runs a work-item loop's body for VF work-items at a
// time, one vector instruction for each scalar one. When a work-item's body
// is one long chain of dependent floating-point operations (peak-compute
// kernels like clpeak's, thousands of `mad`s each on the one before;
// iterations of a solver unrolled in full), the vector body is that same
// chain: each instruction waits for the one before (four cycles for an FMA
// on Zen 3/4 and recent Intel cores) where the core could start two a
// cycle, and out-of-order execution cannot overlap the next work-items'
// chain when a chain is longer than its window (256-512 instructions). The
// vectorizer interleaves small loops only, so such a body ran at one
// vector at a time: clpeak's scalar `float` 11.9 GFLOPS where its `float4`,
// scalarized into four chains, reached 44.8.
//
// So, right before the vectorizer, each innermost work-item loop with a
// constant trip count T (a launch copy's or a required local size's: the
// general code's x loop runs any number of work-items, and an interleaved
// loop leaves all of them to its scalar remainder when they are fewer than
// VF times the count) and no vector-typed values (the vectorizer takes no
// such loop) is measured: N, the floating-point operations of one
// iteration, and L, the longest chain of them, each waiting for the one
// before (through any other instructions; header phis start chains). Where
// L >= 64 and fewer than four chains run side by side (N < 4L) the loop
// gets `llvm.loop.interleave.count`, and the vectorizer emits that many
// vectors of work-items per iteration, instruction by instruction side by
// side. The count is 8L / N as a power of two (eight operations in flight:
// two pipes of four cycles), at most 8, halved while
// - the registers would not hold the chains: count * P + 4 > R, with P the
//   most floating-point values of one work-item alive at once (in the
//   body's order; values the same for every work-item are not counted: a
//   vector of them serves every count), four registers left for those, and
//   R the vector registers (16 with AVX2, 32 with AVX-512). Past it the
//   machine scheduler runs the chains one after the other to save
//   registers: `float4` scalarized (four chains, P = 9) at count 2 ran at
//   25 GFLOPS where count 1 gives 97;
// - or more work-items would be left to the scalar remainder, each costing
//   as much as a vector of them: VF * count must leave the remainder VF
//   leaves (T mod VF*count == T mod VF), VF the vector registers' width
//   over the loop's widest loaded, stored or floating-point type.
//
// A work-item loop that computes on vector types (`float8`, `double8`,
// `float16`: scalarize.cpp splits narrower ones into components) the
// vectorizer does not take at all, and each work-item's chain ran alone:
// clpeak's `float8` at 33 GFLOPS where `float4` reached 240 (AVX-512). Its
// work-items are run side by side here instead, by hand: when the body is
// one block, counted (work_item_offset.h), keeps in header phis nothing
// but the index and values the same from the second work-item on, and
// nothing after it uses its values, the first T - T mod C work-items run C
// at a time in a loop whose body has each instruction C times in a row,
// one copy a work-item (the chains then interleave as the vectorizer's
// would), and the loop itself runs the rest. C is chosen as above, but
// as the largest count the registers hold rather than a power of two,
// counting a vector operation and value as the registers it takes (a
// `float16` is two on AVX2), integer multiplies as links of the chains and
// integer vectors as registers too (clpeak's `int8`: 33 -> 143 GIOPS), and
// bounded by the body's size (at most max_side_by_side instructions). Work-items are independent
// between barriers (`llvm.loop.parallel_accesses`), so their instructions may run in this order;
// each work-item's own stay in theirs. The trip count need not be a constant here: no vector
// remainder is lost.
#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/ADT/SmallVector.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/LoopIterator.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/TargetTransformInfo.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Metadata.h>
#include <llvm/Transforms/Utils/LoopUtils.h>
#include <llvm/Transforms/Utils/ValueMapper.h>
#include <llvm-c/Core.h>

#include <algorithm>
#include <vector>

#include "compiler/interleave.h"
#include "compiler/parallel.h"
#include "compiler/work_item_offset.h"

namespace
{

const unsigned long_chain = 64;
const unsigned in_flight = 8;
const unsigned max_count = 8;
// instructions of a body run side by side by hand, all copies together
const unsigned max_side_by_side = 4096;

struct Body {
    std::vector<llvm::Instruction *> order; // the loop's instructions, blocks in RPO
    unsigned operations = 0;                // N
    unsigned longest = 0;                   // L
    unsigned widest_bits = 0;
    unsigned most_alive = 0; // P
    bool vectors = false;    // run side by side by hand: integer vectors count
};

// A link of a chain: floating-point arithmetic and calls (fma, fmuladd,
// sqrt, a math function); with vectors (a loop run side by side by hand),
// integer multiplies too (clpeak's `int8` chains: 3-5 cycles each).
bool is_chain_operation(const llvm::Instruction &inst, bool vectors)
{
    if (vectors && inst.getOpcode() == llvm::Instruction::Mul)
        return true;
    if (!inst.getType()->isFPOrFPVectorTy())
        return false;
    return llvm::isa<llvm::BinaryOperator>(inst) || llvm::isa<llvm::CallInst>(inst);
}

// Whether values of type take vector registers: floating-point ones, and
// with vectors any vector.
bool in_vector_registers(const llvm::Type *type, bool vectors)
{
    return type->isFPOrFPVectorTy() || (vectors && type->isVectorTy());
}

bool has_vector_values(const llvm::Loop &loop)
{
    for (const llvm::BasicBlock *block : loop.blocks())
        for (const llvm::Instruction &inst : *block) {
            if (inst.getType()->isVectorTy())
                return true;
            for (const llvm::Use &use : inst.operands())
                if (use->getType()->isVectorTy())
                    return true;
        }
    return false;
}

unsigned type_bits(const llvm::Type *type)
{
    type = type->getScalarType();
    return type->isPointerTy() ? 0 : (unsigned)type->getPrimitiveSizeInBits().getFixedValue();
}

// N, L and the widest type, walking the blocks in reverse post-order: an
// innermost loop's body without its back edge is acyclic, so every operand
// inside the loop but a header phi's is seen before its user.
void measure_chains(llvm::Loop &loop, llvm::LoopInfo &loops, unsigned register_bits, Body &body)
{
    llvm::LoopBlocksRPO blocks(&loop);
    blocks.perform(&loops);
    llvm::DenseMap<const llvm::Instruction *, unsigned> depth;
    for (llvm::BasicBlock *block : blocks)
        for (llvm::Instruction &inst : *block) {
            body.order.push_back(&inst);
            unsigned d = 0;
            if (!(llvm::isa<llvm::PHINode>(inst) && block == loop.getHeader()))
                for (const llvm::Use &use : inst.operands())
                    if (auto *def = llvm::dyn_cast<llvm::Instruction>(use.get())) {
                        auto found = depth.find(def);
                        if (found != depth.end())
                            d = std::max(d, found->second);
                    }
            if (is_chain_operation(inst, body.vectors)) {
                d++;
                body.operations += cc_vector_registers(inst.getType(), register_bits);
            }
            depth[&inst] = d;
            body.longest = std::max(body.longest, d);
            if (inst.getType()->isFPOrFPVectorTy())
                body.widest_bits = std::max(body.widest_bits, type_bits(inst.getType()));
            else if (llvm::isa<llvm::LoadInst>(inst))
                body.widest_bits = std::max(body.widest_bits, type_bits(inst.getType()));
            else if (auto *store = llvm::dyn_cast<llvm::StoreInst>(&inst))
                body.widest_bits =
                    std::max(body.widest_bits, type_bits(store->getValueOperand()->getType()));
        }
}

// P: each floating-point value of the body that differs from one
// work-item to the next (it depends on a header phi: the work-item's index
// or a value it carries) is alive from its definition to its last use in
// the body's order (whose result may take its register: AVX's forms have
// three operands), or to the end when it is used after the loop or by a
// header phi (the next iteration). Values the same for every work-item (a
// factor loaded from a kernel argument, a loop-invariant) are one register
// whatever the count, or a memory operand of the instructions using them.
void measure_pressure(llvm::Loop &loop, unsigned register_bits, Body &body)
{
    unsigned n = (unsigned)body.order.size();
    llvm::DenseMap<const llvm::Instruction *, unsigned> position;
    llvm::SmallPtrSet<const llvm::Instruction *, 32> varies;
    for (unsigned i = 0; i < n; i++) {
        llvm::Instruction *inst = body.order[i];
        position[inst] = i;
        bool from_item = llvm::isa<llvm::PHINode>(inst) && inst->getParent() == loop.getHeader();
        for (const llvm::Use &use : inst->operands())
            if (auto *def = llvm::dyn_cast<llvm::Instruction>(use.get()))
                from_item = from_item || varies.count(def);
        if (from_item)
            varies.insert(inst);
    }
    std::vector<int> change(n + 1, 0);
    for (unsigned i = 0; i < n; i++) {
        llvm::Instruction *inst = body.order[i];
        if (!in_vector_registers(inst->getType(), body.vectors) || !varies.count(inst))
            continue;
        unsigned last = i;
        for (const llvm::User *user : inst->users()) {
            auto *use = llvm::dyn_cast<llvm::Instruction>(user);
            if (!use || !loop.contains(use) ||
                (llvm::isa<llvm::PHINode>(use) && use->getParent() == loop.getHeader()))
                last = n - 1;
            else
                last = std::max(last, position.lookup(use));
        }
        int registers = (int)cc_vector_registers(inst->getType(), register_bits);
        if (last > i) {
            change[i] += registers;
            change[last] -= registers;
        }
    }
    // the most alive at once but for a sixteenth of the body: a few spills
    // where a chain ends (clpeak's horizontal sum of its float8 after 256
    // `mad`s keeps three values, the chain two) cost less than chains too
    // few to hide the latency (AVX2: six float8 chains 101 -> 148 GFLOPS)
    if (n == 0)
        return;
    std::vector<int> alive(n);
    for (int i = 0, sum = 0; i < (int)n; i++)
        alive[i] = sum += change[i];
    std::sort(alive.begin(), alive.end());
    body.most_alive = (unsigned)alive[n - 1 - n / 16];
}

unsigned power_of_two_at_most(unsigned value)
{
    unsigned power = 1;
    while (power * 2 <= value)
        power *= 2;
    return power;
}

// The count before the trip count has its say: 8L / N, at most 8, as a
// power of two halved while the registers would not hold the chains (the
// vectorizer's interleave count), or, side by side by hand (any count
// works), the largest whose chains the registers hold: on AVX2 a float8
// chain of two values a work-item runs six work-items, not four (101 ->
// 155 GFLOPS), float16 and double8 chains three, not two (94 -> 160, 46 ->
// 64); 1 when the body has no long chain or several side by side already.
unsigned chain_count(llvm::Loop &loop, llvm::LoopInfo &loops, unsigned register_bits,
                     unsigned registers, Body &body)
{
    measure_chains(loop, loops, register_bits, body);
    if (body.longest < long_chain || body.operations >= 4 * body.longest)
        return 1;
    measure_pressure(loop, register_bits, body);
    unsigned count = std::min(max_count, in_flight * body.longest / body.operations);
    if (body.vectors)
        return cc_work_items_in_registers(count, body.most_alive, registers);
    count = power_of_two_at_most(count);
    while (count > 1 && count * body.most_alive + cc_reserved_registers > registers)
        count /= 2;
    return count;
}

unsigned interleave_count(llvm::Loop &loop, llvm::LoopInfo &loops, unsigned trips,
                          unsigned register_bits, unsigned registers)
{
    Body body;
    unsigned count = chain_count(loop, loops, register_bits, registers, body);
    unsigned lanes = register_bits / std::max(body.widest_bits, 8u);
    if (count < 2 || lanes < 2)
        return 1;
    while (count > 1 && (trips < lanes * count || trips % (lanes * count) != trips % lanes))
        count /= 2;
    return count;
}

// A loop the vectorizer does not take, to run side by side by hand.
struct SideBySide : cc_counted_loop {
    unsigned count;
};

// Whether loop is one block, counted, none of its values used after it,
// nothing in it that may not be duplicated or must run in step with other
// work-items, and header phis besides the index only of values the same
// from the second work-item on (GVN leaves a phi of a loop-invariant load
// and its copy before the loop).
bool match_side_by_side(llvm::Loop &loop, SideBySide &c)
{
    if (loop.getNumBlocks() != 1 || !loop.isLoopSimplifyForm() || !cc_match_counted_loop(loop, c) ||
        !c.exit->phis().empty())
        return false;
    for (llvm::PHINode &phi : c.header->phis())
        if (&phi != c.iv && !loop.isLoopInvariant(phi.getIncomingValueForBlock(c.latch)))
            return false;
    return cc_work_items_may_be_copied(loop);
}

// The first T - T mod count work-items of c, count at a time: each
// instruction of the body count times in a row, one copy a work-item.
void run_side_by_side(SideBySide &c)
{
    llvm::Function *fn = c.header->getParent();
    llvm::LLVMContext &context = fn->getContext();
    llvm::BasicBlock *body = llvm::BasicBlock::Create(context, "side", fn);
    cc_loop_split split = cc_split_counted_loop(c, c.count, body, "side");
    llvm::IRBuilder<> b(body);
    llvm::Type *index = c.iv->getType();
    llvm::PHINode *first = b.CreatePHI(index, 2, "side.first");
    first->addIncoming(llvm::ConstantInt::get(index, 0), c.preheader);
    std::vector<llvm::ValueToValueMapTy> maps(c.count);
    for (unsigned k = 0; k < c.count; k++)
        maps[k][c.iv] = b.CreateAdd(first, llvm::ConstantInt::get(index, k), "side.x", true, true);
    // the other header phis: their start for the very first work-item,
    // then their steady value, in the chunks and in the loop after them
    llvm::IRBuilder<> at_rest(split.rest, split.rest->begin());
    for (llvm::PHINode &phi : c.header->phis()) {
        if (&phi == c.iv)
            continue;
        llvm::Value *start = phi.getIncomingValueForBlock(c.preheader);
        llvm::Value *steady = phi.getIncomingValueForBlock(c.latch);
        llvm::PHINode *chunk = llvm::PHINode::Create(phi.getType(), 2, phi.getName(), first);
        chunk->addIncoming(start, c.preheader);
        chunk->addIncoming(steady, body);
        maps[0][&phi] = chunk;
        for (unsigned k = 1; k < c.count; k++)
            maps[k][&phi] = steady;
        llvm::PHINode *rest = at_rest.CreatePHI(phi.getType(), 2, phi.getName());
        rest->addIncoming(start, c.preheader);
        rest->addIncoming(steady, body);
        unsigned entry = (unsigned)phi.getBasicBlockIndex(c.preheader);
        phi.setIncomingBlock(entry, split.rest_start);
        phi.setIncomingValue(entry, rest);
    }
    for (llvm::Instruction &inst : *c.header) {
        if (llvm::isa<llvm::PHINode>(inst) || &inst == c.latch_compare || inst.isTerminator())
            continue;
        for (unsigned k = 0; k < c.count; k++) {
            llvm::Instruction *copy = inst.clone();
            b.Insert(copy, inst.getName());
            maps[k][&inst] = copy;
            llvm::RemapInstruction(copy, maps[k],
                                   llvm::RF_NoModuleLevelChanges | llvm::RF_IgnoreMissingLocals);
        }
    }
    llvm::Value *next = b.CreateAdd(first, llvm::ConstantInt::get(index, c.count), "", true, true);
    first->addIncoming(next, body);
    llvm::Instruction *back = b.CreateCondBr(b.CreateICmpEQ(next, split.full), split.rest, body);
    // unrolled enough: LLVM's unroller would only grow it
    llvm::Metadata *disable[] = {llvm::MDString::get(context, "llvm.loop.unroll.disable")};
    back->setMetadata(llvm::LLVMContext::MD_loop,
                      llvm::makePostTransformationMetadata(context, nullptr, {},
                                                           {llvm::MDNode::get(context, disable)}));
}

} // namespace

bool cc_interleave_chains(llvm::Function &fn, llvm::LoopInfo &loops,
                          llvm::ScalarEvolution &evolution, const llvm::TargetTransformInfo &target)
{
    unsigned register_bits =
        (unsigned)target.getRegisterBitWidth(llvm::TargetTransformInfo::RGK_FixedWidthVector)
            .getFixedValue();
    unsigned registers = target.getNumberOfRegisters(target.getRegisterClassForType(true));
    bool changed = false;
    std::vector<SideBySide> by_hand;
    for (llvm::Loop *loop : loops.getLoopsInPreorder()) {
        llvm::MDNode *id = loop->getLoopID();
        if (!loop->isInnermost() || !cc_is_work_item_loop(llvm::wrap(id)))
            continue;
        unsigned trips = evolution.getSmallConstantTripCount(loop);
        if (has_vector_values(*loop)) {
            SideBySide c;
            Body body;
            body.vectors = true;
            if (!match_side_by_side(*loop, c))
                continue;
            c.count = chain_count(*loop, loops, register_bits, registers, body);
            while (c.count > 1 &&
                   ((trips && trips < c.count) || c.count * body.order.size() > max_side_by_side))
                c.count--;
            if (c.count > 1)
                by_hand.push_back(c);
            continue;
        }
        if (!trips)
            continue;
        unsigned count = interleave_count(*loop, loops, trips, register_bits, registers);
        if (count < 2)
            continue;
        llvm::LLVMContext &context = fn.getContext();
        llvm::Metadata *hint[] = {llvm::MDString::get(context, "llvm.loop.interleave.count"),
                                  llvm::ConstantAsMetadata::get(llvm::ConstantInt::get(
                                      llvm::Type::getInt32Ty(context), count))};
        loop->setLoopID(llvm::makePostTransformationMetadata(context, id, {},
                                                             {llvm::MDNode::get(context, hint)}));
        changed = true;
    }
    for (SideBySide &c : by_hand)
        run_side_by_side(c);
    return changed || !by_hand.empty();
}
