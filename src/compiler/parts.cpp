// parts.cpp - a program's module cut into one module per work-group
// function, so each kernel is optimised and compiled to machine code only
// when it is first needed (codegen.c).
//
// A part holds its work-group function and what that function reaches:
// the internal functions it calls and the constant globals it reads
// (format strings, lookup tables, block-kernel names), copied into every
// part that reaches them. Copies are harmless: OpenCL C gives no way to
// compare the address of a constant seen by two kernels.
//
// The program's mutable globals (program-scope __global variables,
// OpenCL C 6.5.1; API spec 5.8.6: one instance per program, shared by its
// kernels) must exist once. They live in one more part, the shared one,
// renamed "__cpucl_gv<k>.<placeholder>" with external linkage; the
// kernels' parts declare them. Loading gives every such name the
// program's serial number (build.c), as it does the work-group functions,
// so two programs' variables never meet in the JIT.
#include <llvm/Bitcode/BitcodeWriter.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/GlobalVariable.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <llvm/Transforms/Utils/ValueMapper.h>
#include <llvm-c/Core.h>

#include <cstdlib>
#include <cstring>
#include <set>
#include <string>
#include <vector>

#include "compiler/parts.h"

namespace {

bool is_shared(const llvm::GlobalValue *gv)
{
    auto *var = llvm::dyn_cast<llvm::GlobalVariable>(gv);
    return var && !var->isDeclaration() && !var->isConstant() &&
           !var->getName().starts_with("llvm.");
}

// Every global value a constant mentions, through nested expressions.
void globals_in(const llvm::Constant *c, std::vector<const llvm::GlobalValue *> &out,
                std::set<const llvm::Constant *> &seen)
{
    if (!seen.insert(c).second)
        return;
    if (auto *gv = llvm::dyn_cast<llvm::GlobalValue>(c)) {
        out.push_back(gv);
        return;
    }
    for (const llvm::Use &op : c->operands())
        if (auto *inner = llvm::dyn_cast<llvm::Constant>(op.get()))
            globals_in(inner, out, seen);
}

// The definitions a part with these roots holds: the roots and, through
// instructions and initializers, every defined function and constant
// global they reach; mutable globals other than the roots stay outside.
std::set<const llvm::GlobalValue *> reach(const std::vector<const llvm::GlobalValue *> &roots)
{
    std::set<const llvm::GlobalValue *> part(roots.begin(), roots.end());
    std::vector<const llvm::GlobalValue *> work(roots.begin(), roots.end());
    std::set<const llvm::Constant *> seen;
    while (!work.empty()) {
        const llvm::GlobalValue *gv = work.back();
        work.pop_back();
        std::vector<const llvm::GlobalValue *> found;
        if (auto *fn = llvm::dyn_cast<llvm::Function>(gv)) {
            for (const llvm::BasicBlock &block : *fn)
                for (const llvm::Instruction &inst : block)
                    for (const llvm::Use &op : inst.operands())
                        if (auto *c = llvm::dyn_cast<llvm::Constant>(op.get()))
                            globals_in(c, found, seen);
        } else if (auto *var = llvm::dyn_cast<llvm::GlobalVariable>(gv)) {
            if (var->hasInitializer())
                globals_in(var->getInitializer(), found, seen);
        }
        for (const llvm::GlobalValue *next : found) {
            if (next->isDeclaration() || is_shared(next) || !part.insert(next).second)
                continue;
            work.push_back(next);
        }
    }
    return part;
}

// The part with these definitions as bitcode, malloc'd.
bool write_part(const llvm::Module &module, const std::set<const llvm::GlobalValue *> &defined,
                void **bitcode, size_t *size)
{
    llvm::ValueToValueMapTy map;
    std::unique_ptr<llvm::Module> part = llvm::CloneModule(
        module, map, [&](const llvm::GlobalValue *gv) { return defined.count(gv) != 0; });
    // Declarations the part does not use are dropped (so are arrays like
    // llvm.used, which reach() never takes and which would otherwise be
    // left as declarations, invalid for them).
    std::vector<llvm::GlobalValue *> unused;
    for (llvm::GlobalValue &gv : part->global_values())
        if (gv.isDeclaration() && gv.use_empty())
            unused.push_back(&gv);
    for (llvm::GlobalValue *gv : unused)
        gv->eraseFromParent();
    llvm::SmallVector<char, 0> bytes;
    llvm::raw_svector_ostream stream(bytes);
    llvm::WriteBitcodeToFile(*part, stream);
    *size = bytes.size();
    *bitcode = std::malloc(bytes.size() ? bytes.size() : 1);
    if (!*bitcode)
        return false;
    std::memcpy(*bitcode, bytes.data(), bytes.size());
    return true;
}

} // namespace

extern "C" {

void cc_shared_name(unsigned index, char *out, size_t size)
{
    std::snprintf(out, size, "__cpucl_gv%u.%s", index, CC_SERIAL_PLACEHOLDER);
}

bool cc_split_module(LLVMModuleRef module_ref, const char *const *roots, unsigned count,
                     void **bitcodes, size_t *sizes, unsigned *num_shared)
{
    llvm::Module &module = *llvm::unwrap(module_ref);
    std::vector<const llvm::GlobalValue *> shared;
    for (llvm::GlobalVariable &var : module.globals()) {
        if (!is_shared(&var))
            continue;
        char name[64];
        cc_shared_name((unsigned)shared.size(), name, sizeof name);
        var.setName(name);
        var.setLinkage(llvm::GlobalValue::ExternalLinkage);
        var.setVisibility(llvm::GlobalValue::DefaultVisibility);
        var.setDSOLocal(false);
        shared.push_back(&var);
    }
    *num_shared = (unsigned)shared.size();
    for (unsigned i = 0; i <= count; i++) {
        bitcodes[i] = nullptr;
        sizes[i] = 0;
    }
    for (unsigned i = 0; i < count; i++) {
        const llvm::Function *root = module.getFunction(roots[i]);
        if (!root || !write_part(module, reach(std::vector<const llvm::GlobalValue *>{root}), &bitcodes[i], &sizes[i]))
            goto fail;
    }
    if (!shared.empty() && !write_part(module, reach(shared), &bitcodes[count], &sizes[count]))
        goto fail;
    return true;
fail:
    for (unsigned i = 0; i <= count; i++) {
        std::free(bitcodes[i]);
        bitcodes[i] = nullptr;
    }
    return false;
}

} // extern "C"
