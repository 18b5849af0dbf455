// scalarize.cpp - vector-typed values of one work-item split into their
// components. C++ for LLVM's Scalarizer and IRBuilder.
//
// Vector-typed values of one work-item (a float4 position, a float3 sum)
// become their scalar components, loads and stores too: the loop
// vectorizer takes no loop with vector-typed instructions. Each component
// then gets lanes of its own across the work-items (a float4 load of
// consecutive work-items becomes an interleaved group: wide loads and
// shuffles), and regions.c keeps each component of a value that lives
// across a barrier in an array of its own, consecutive work-items
// adjacent, which the vectorized loop reads with plain vector loads rather
// than gathers. Math on vectors becomes math on the components: LLVM's
// intrinsics by the Scalarizer, the vector overloads of C library
// functions (cpucl.vmath calls) by vecmath.c, one C call per lane, which
// the loop vectorizer then gives vector variants across the work-items.
#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Transforms/Scalar/EarlyCSE.h>
#include <llvm/Transforms/Scalar/SROA.h>
#include <llvm/Transforms/Scalar/Scalarizer.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>
#include <llvm-c/Core.h>

extern "C" {
#include "compiler/internal.h"
}
#include "compiler/scalarize.h"

namespace
{

// A vector's undefined lanes (poison) stay apart from its defined ones as
// long as it is one value; once its lanes are scalars, SROA and InstCombine
// may merge them, and a poison byte makes a whole integer poison. Clang
// makes such lanes: a uchar3 passed to printf is widened to <4 x i8> with
// a poison lane, stored and loaded back as an i32 -- all of it poison once
// scalarized. Giving every undefined lane a value first (a lane the
// shuffle already takes, or zero) is a refinement, which LLVM allows.
void define_undefined_lanes(llvm::Function &fn)
{
    auto defined = [](llvm::Constant *c) -> llvm::Constant * {
        auto *type = llvm::dyn_cast<llvm::FixedVectorType>(c->getType());
        if (!type || !c->containsUndefElement())
            return c;
        if (llvm::isa<llvm::UndefValue>(c))
            return llvm::Constant::getNullValue(type);
        llvm::SmallVector<llvm::Constant *, 16> lanes;
        for (unsigned i = 0; i < type->getNumElements(); i++) {
            llvm::Constant *lane = c->getAggregateElement(i);
            lanes.push_back(!lane || llvm::isa<llvm::UndefValue>(lane)
                                ? llvm::Constant::getNullValue(type->getElementType())
                                : lane);
        }
        return llvm::ConstantVector::get(lanes);
    };
    for (llvm::BasicBlock &bb : fn)
        for (llvm::Instruction &inst : bb) {
            if (auto *shuffle = llvm::dyn_cast<llvm::ShuffleVectorInst>(&inst)) {
                llvm::SmallVector<int, 16> mask(shuffle->getShuffleMask());
                auto taken = llvm::find_if(mask, [](int lane) { return lane >= 0; });
                if (taken != mask.end() && llvm::is_contained(mask, llvm::PoisonMaskElem)) {
                    int lane = *taken;
                    for (int &m : mask)
                        m = m < 0 ? lane : m;
                    shuffle->setShuffleMask(mask);
                }
            }
            for (llvm::Use &use : inst.operands())
                if (auto *c = llvm::dyn_cast<llvm::Constant>(use.get());
                    c && !llvm::isa<llvm::GlobalValue>(c) && c->getType()->isVectorTy())
                    use.set(defined(c));
        }
}

// Clang loads a 3-component vector as the 4 components its type's size
// holds (OpenCL C 6.1.5: a T3 has the size of a T4) and drops the fourth
// with a shuffle. Split into components, the fourth load dies, and the
// loads of consecutive work-items become an interleaved group with a gap
// at its end, which the loop vectorizer takes only with a scalar epilogue
// of at least one work-item: a row of 16 work-items (a 16x16 group, as
// OpenCV's filters have) is then never vectorized at a width of 8 times
// 2. So a small vector load whose lanes are not all used becomes one
// integer load of the same bytes (which Clang's load reads anyway),
// taken apart by integer_bitcasts below: consecutive work-items then load
// consecutive integers. (OpenCV's medianBlur of a BGR image: 198 -> 39 ms.)
bool all_lanes_used(llvm::LoadInst *load, unsigned lanes)
{
    llvm::SmallVector<bool, 8> used(lanes, false);
    for (llvm::User *user : load->users()) {
        if (auto *extract = llvm::dyn_cast<llvm::ExtractElementInst>(user)) {
            auto *index = llvm::dyn_cast<llvm::ConstantInt>(extract->getIndexOperand());
            if (!index)
                return true;
            if (index->getZExtValue() < lanes)
                used[index->getZExtValue()] = true;
        } else if (auto *shuffle = llvm::dyn_cast<llvm::ShuffleVectorInst>(user)) {
            for (int m : shuffle->getShuffleMask()) {
                if (m < 0)
                    continue;
                unsigned operand = (unsigned)m / lanes, lane = (unsigned)m % lanes;
                if (shuffle->getOperand(operand) == load)
                    used[lane] = true;
            }
        } else {
            return true;
        }
    }
    return llvm::all_of(used, [](bool u) { return u; });
}

void load_padded_vectors_whole(llvm::Function &fn)
{
    llvm::SmallVector<llvm::LoadInst *, 16> work;
    for (llvm::BasicBlock &bb : fn)
        for (llvm::Instruction &inst : bb) {
            auto *load = llvm::dyn_cast<llvm::LoadInst>(&inst);
            auto *type = load ? llvm::dyn_cast<llvm::FixedVectorType>(load->getType()) : nullptr;
            if (!type || !load->isSimple() ||
                !(type->getElementType()->isIntegerTy() ||
                  type->getElementType()->isFloatingPointTy()))
                continue;
            unsigned bits = type->getPrimitiveSizeInBits();
            if ((bits == 16 || bits == 32 || bits == 64) &&
                !all_lanes_used(load, type->getNumElements()))
                work.push_back(load);
        }
    for (llvm::LoadInst *load : work) {
        llvm::IRBuilder<> b(load);
        llvm::Type *whole = b.getIntNTy(load->getType()->getPrimitiveSizeInBits());
        llvm::LoadInst *integer =
            b.CreateAlignedLoad(whole, load->getPointerOperand(), load->getAlign());
        integer->copyMetadata(*load);
        load->replaceAllUsesWith(b.CreateBitCast(integer, load->getType()));
        load->eraseFromParent();
    }
}

// The Scalarizer splits bitcasts between vectors but leaves a bitcast
// between a vector and a scalar (as_uint(uchar4), as_uchar4(uint), a uchar3
// returned as an i24): an insertelement chain builds the vector, or
// extractelements take it apart, and the loop vectorizer takes no loop
// with them. Written as integer arithmetic instead, little-endian as the
// host: the scalar is the lanes' bits, lane j at bit j * K, so
// bitcast <N x T> v to S = or of zext(bits(v[j])) << j * K, and
// extractelement (bitcast S s to <N x T>), j = trunc(bits(s) >> j * K).
// The extracts of insertelement chains then fold (EarlyCSE) and the
// chains die.
llvm::Value *as_integer(llvm::IRBuilder<> &b, llvm::Value *v)
{
    llvm::Type *type = v->getType();
    if (type->isIntegerTy())
        return v;
    return b.CreateBitCast(v, b.getIntNTy(type->getPrimitiveSizeInBits()));
}

void integer_bitcasts(llvm::Function &fn)
{
    llvm::SmallVector<llvm::Instruction *, 16> work;
    for (llvm::BasicBlock &bb : fn)
        for (llvm::Instruction &inst : bb) {
            if (auto *cast = llvm::dyn_cast<llvm::BitCastInst>(&inst)) {
                if (cast->getSrcTy()->isVectorTy() && !cast->getDestTy()->isVectorTy())
                    work.push_back(cast);
            } else if (auto *extract = llvm::dyn_cast<llvm::ExtractElementInst>(&inst)) {
                auto *source = llvm::dyn_cast<llvm::BitCastInst>(extract->getVectorOperand());
                if (source && !source->getSrcTy()->isVectorTy() &&
                    llvm::isa<llvm::ConstantInt>(extract->getIndexOperand()))
                    work.push_back(extract);
            }
        }
    for (llvm::Instruction *inst : work) {
        llvm::IRBuilder<> b(inst);
        llvm::Value *result;
        if (auto *extract = llvm::dyn_cast<llvm::ExtractElementInst>(inst)) {
            auto *source = llvm::cast<llvm::BitCastInst>(extract->getVectorOperand());
            llvm::Type *element = extract->getType();
            unsigned bits = element->getPrimitiveSizeInBits();
            uint64_t lane =
                llvm::cast<llvm::ConstantInt>(extract->getIndexOperand())->getZExtValue();
            llvm::Value *whole = as_integer(b, source->getOperand(0));
            llvm::Value *part = b.CreateTrunc(b.CreateLShr(whole, lane * bits), b.getIntNTy(bits));
            result = element->isIntegerTy() ? part : b.CreateBitCast(part, element);
        } else {
            llvm::Value *vector = inst->getOperand(0);
            auto *type = llvm::cast<llvm::FixedVectorType>(vector->getType());
            unsigned bits = type->getElementType()->getPrimitiveSizeInBits();
            llvm::Type *whole_type = b.getIntNTy(type->getPrimitiveSizeInBits());
            llvm::Value *whole = llvm::ConstantInt::get(whole_type, 0);
            for (unsigned j = 0; j < type->getNumElements(); j++) {
                llvm::Value *lane = as_integer(b, b.CreateExtractElement(vector, j));
                whole = b.CreateOr(whole, b.CreateShl(b.CreateZExt(lane, whole_type), j * bits));
            }
            result =
                inst->getType()->isIntegerTy() ? whole : b.CreateBitCast(whole, inst->getType());
        }
        inst->replaceAllUsesWith(result);
        inst->eraseFromParent();
    }
}

// The Scalarizer puts the addresses of an alloca's components (getelementptrs)
// right after the alloca, in the entry block. For regions.c the entry is
// the prologue, values computed once per group, while each work-item's
// allocas are its own: such a value would point into one copy (or into an
// alloca regions.c replaced). So whatever the entry computes from its
// allocas moves to the start of the kernel's code, after the entry.
void keep_prologue_free_of_allocas(llvm::Function &fn)
{
    llvm::BasicBlock &entry = fn.getEntryBlock();
    auto *branch = llvm::dyn_cast<llvm::BranchInst>(entry.getTerminator());
    if (!branch || branch->isConditional())
        return;
    llvm::BasicBlock *start = branch->getSuccessor(0);
    llvm::SmallPtrSet<llvm::Value *, 16> from_allocas;
    llvm::SmallVector<llvm::Instruction *, 16> moved;
    for (llvm::Instruction &inst : entry) {
        if (llvm::isa<llvm::AllocaInst>(inst)) {
            from_allocas.insert(&inst);
            continue;
        }
        if (inst.isTerminator() || inst.isLifetimeStartOrEnd())
            continue;
        if (llvm::any_of(inst.operands(), [&](llvm::Value *v) { return from_allocas.count(v); })) {
            from_allocas.insert(&inst);
            moved.push_back(&inst);
        }
    }
    if (moved.empty())
        return;
    // a block of their own before it: the start may be a loop header
    // whose phis take them from the entry
    llvm::BasicBlock *first = llvm::SplitEdge(&entry, start);
    for (llvm::Instruction *inst : moved)
        inst->moveBefore(first->getTerminator());
}

// The two rewrites above, as passes between the Scalarizer and the
// clean-up, so that one pipeline runs them all.
struct IntegerBitcasts : llvm::PassInfoMixin<IntegerBitcasts> {
    llvm::PreservedAnalyses run(llvm::Function &fn, llvm::FunctionAnalysisManager &)
    {
        integer_bitcasts(fn);
        return llvm::PreservedAnalyses::none();
    }
};
struct PrologueFreeOfAllocas : llvm::PassInfoMixin<PrologueFreeOfAllocas> {
    llvm::PreservedAnalyses run(llvm::Function &fn, llvm::FunctionAnalysisManager &)
    {
        keep_prologue_free_of_allocas(fn);
        return llvm::PreservedAnalyses::none();
    }
};

} // namespace

extern "C" void cc_scalarize_work_items(LLVMValueRef fn_ref)
{
    auto &fn = *llvm::cast<llvm::Function>(llvm::unwrap(fn_ref));
    cc_lower_vector_math_in(fn_ref, false);
    define_undefined_lanes(fn);
    load_padded_vectors_whole(fn);
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
    passes.addPass(IntegerBitcasts());
    passes.addPass(PrologueFreeOfAllocas());
    passes.addPass(llvm::SROAPass(llvm::SROAOptions::ModifyCFG));
    passes.addPass(llvm::EarlyCSEPass());
    passes.run(fn, function_analyses);
}
