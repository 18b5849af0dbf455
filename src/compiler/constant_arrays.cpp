// constant_arrays.cpp - private arrays that hold constants made constant
// globals.
//
// `float mask[3][3] = {{-1, 0, 1}, ...}` in a kernel is a private array
// (an alloca) that the front end fills with a memset and stores of
// constants. SROA makes it registers only once every index into it is a
// constant, that is after O3 has unrolled the loops that read it; a kernel
// with barriers is split into regions before that (regions.c), and an
// array that lives across a barrier is then kept per work-item in the
// group's context memory: each work-item writes its copy, and every read
// is a load from memory that differs per work-item (ffmpeg's deshake reads
// two such masks 450 times a pixel, a gather each in vector code).
//
// An array whose every write is one of those constants, all in one block,
// and whose every read is a load that comes after the last of them (the
// block dominates it), holds the same bytes for every work-item from its
// first read on: it becomes one internal constant global with those bytes,
// its writes and lifetime markers deleted. Any other use (a call, a store
// of its address, a write at an offset not known here) leaves it alone.
#include <llvm/ADT/SmallVector.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/DataLayout.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/GlobalVariable.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>
#include <llvm-c/Core.h>

#include <algorithm>
#include <vector>

#include "compiler/constant_arrays.h"

namespace
{

const uint64_t max_bytes = 4096;

// A write to the array: a store of a constant or a memset, at a byte
// offset known here.
struct Write {
    llvm::Instruction *inst;
    int64_t offset;
};

// Collects every use of `pointer` (the array plus `offset` bytes): loads,
// stores of constants, memsets, lifetime markers; false on anything else.
bool collect(llvm::Value *pointer, int64_t offset, bool known, const llvm::DataLayout &layout,
             std::vector<llvm::Instruction *> &reads, std::vector<Write> &writes,
             std::vector<llvm::Instruction *> &markers, unsigned depth = 0)
{
    if (depth > 8)
        return false;
    for (llvm::User *user : pointer->users()) {
        auto *inst = llvm::dyn_cast<llvm::Instruction>(user);
        if (!inst)
            return false;
        if (auto *gep = llvm::dyn_cast<llvm::GetElementPtrInst>(inst)) {
            llvm::APInt step(layout.getIndexTypeSizeInBits(gep->getType()), 0);
            bool constant = known && gep->accumulateConstantOffset(layout, step);
            if (!collect(gep, constant ? offset + step.getSExtValue() : 0, constant, layout, reads,
                         writes, markers, depth + 1))
                return false;
        } else if (auto *load = llvm::dyn_cast<llvm::LoadInst>(inst)) {
            if (load->isVolatile())
                return false;
            reads.push_back(inst);
        } else if (auto *store = llvm::dyn_cast<llvm::StoreInst>(inst)) {
            llvm::Value *value = store->getValueOperand();
            if (store->isVolatile() || value == pointer || !known ||
                !(llvm::isa<llvm::ConstantInt>(value) || llvm::isa<llvm::ConstantFP>(value)))
                return false;
            writes.push_back({inst, offset});
        } else if (auto *set = llvm::dyn_cast<llvm::MemSetInst>(inst)) {
            if (!known || set->getDest() != pointer || set->isVolatile() ||
                !llvm::isa<llvm::ConstantInt>(set->getValue()) ||
                !llvm::isa<llvm::ConstantInt>(set->getLength()))
                return false;
            writes.push_back({inst, offset});
        } else if (auto *intrinsic = llvm::dyn_cast<llvm::IntrinsicInst>(inst)) {
            if (!intrinsic->isLifetimeStartOrEnd())
                return false;
            markers.push_back(inst);
        } else {
            return false;
        }
    }
    return true;
}

// Writes `bits` (little-endian, as x86 stores them) at bytes[offset...].
bool put(std::vector<uint8_t> &bytes, int64_t offset, const llvm::APInt &bits, uint64_t size)
{
    if (offset < 0 || (uint64_t)offset + size > bytes.size())
        return false;
    for (uint64_t i = 0; i < size; i++)
        bytes[offset + i] = (uint8_t)bits.extractBitsAsZExtValue(8, (unsigned)(8 * i));
    return true;
}

bool share(llvm::AllocaInst *array, const llvm::DominatorTree &tree)
{
    llvm::Function &fn = *array->getFunction();
    const llvm::DataLayout &layout = fn.getParent()->getDataLayout();
    std::optional<llvm::TypeSize> size = array->getAllocationSize(layout);
    if (!size || size->isScalable() || size->getFixedValue() == 0 ||
        size->getFixedValue() > max_bytes || !array->isStaticAlloca())
        return false;
    std::vector<llvm::Instruction *> reads;
    std::vector<Write> writes;
    std::vector<llvm::Instruction *> markers;
    if (!collect(array, 0, true, layout, reads, writes, markers) || writes.empty() ||
        reads.empty())
        return false;
    // every write in one block, in program order; every read after the
    // last of them
    llvm::BasicBlock *block = writes[0].inst->getParent();
    for (const Write &w : writes)
        if (w.inst->getParent() != block)
            return false;
    std::sort(writes.begin(), writes.end(),
              [](const Write &a, const Write &b) { return a.inst->comesBefore(b.inst); });
    for (llvm::Instruction *read : reads)
        if (!tree.dominates(writes.back().inst, read))
            return false;

    // the bytes, the writes replayed
    std::vector<uint8_t> bytes(size->getFixedValue(), 0);
    for (const Write &w : writes) {
        if (auto *set = llvm::dyn_cast<llvm::MemSetInst>(w.inst)) {
            uint64_t length = llvm::cast<llvm::ConstantInt>(set->getLength())->getZExtValue();
            uint64_t fill = llvm::cast<llvm::ConstantInt>(set->getValue())->getZExtValue();
            if (w.offset < 0 || (uint64_t)w.offset + length > bytes.size())
                return false;
            std::fill_n(bytes.begin() + w.offset, length, (uint8_t)fill);
            continue;
        }
        llvm::Value *value = llvm::cast<llvm::StoreInst>(w.inst)->getValueOperand();
        llvm::APInt bits = llvm::isa<llvm::ConstantInt>(value)
                               ? llvm::cast<llvm::ConstantInt>(value)->getValue()
                               : llvm::cast<llvm::ConstantFP>(value)->getValueAPF().bitcastToAPInt();
        if (bits.getBitWidth() % 8 ||
            !put(bytes, w.offset, bits, layout.getTypeStoreSize(value->getType())))
            return false;
    }

    llvm::LLVMContext &context = fn.getContext();
    auto *global = new llvm::GlobalVariable(
        *fn.getParent(), llvm::ArrayType::get(llvm::Type::getInt8Ty(context), bytes.size()), true,
        llvm::GlobalValue::InternalLinkage, llvm::ConstantDataArray::get(context, bytes),
        fn.getName() + ".constant", nullptr, llvm::GlobalValue::NotThreadLocal,
        array->getType()->getPointerAddressSpace());
    global->setUnnamedAddr(llvm::GlobalValue::UnnamedAddr::Global);
    global->setAlignment(array->getAlign());
    for (const Write &w : writes)
        w.inst->eraseFromParent();
    for (llvm::Instruction *marker : markers)
        marker->eraseFromParent();
    array->replaceAllUsesWith(global);
    array->eraseFromParent();
    return true;
}

} // namespace

extern "C" unsigned cc_share_constant_arrays(LLVMValueRef fn_ref)
{
    llvm::Function &fn = *llvm::cast<llvm::Function>(llvm::unwrap(fn_ref));
    if (fn.isDeclaration())
        return 0;
    llvm::DominatorTree tree(fn);
    std::vector<llvm::AllocaInst *> arrays;
    for (llvm::Instruction &inst : fn.getEntryBlock())
        if (auto *array = llvm::dyn_cast<llvm::AllocaInst>(&inst))
            arrays.push_back(array);
    unsigned shared = 0;
    for (llvm::AllocaInst *array : arrays)
        shared += share(array, tree); // (deletes instructions only: the tree stays valid)
    return shared;
}
