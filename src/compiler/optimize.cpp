// optimize.cpp - LLVM's O3 pipeline with cpucl's own pass in it.
//
// LLVMRunPasses builds default<O3> from its text and offers no extension
// point; narrowing (narrow.cpp) has to run inside O3, after inlining and
// loop unswitching and right before the loop vectorizer. So this builds
// the pipeline the way LLVMRunPasses does in LLVM 19 (same
// PipelineTuningOptions, analysis managers with the default analyses,
// proxies cross-registered, standard instrumentation; the target library
// info is the default one for the module's triple, as there) and adds the
// passes through PassBuilder's vectorizer-start extension point: narrowing,
// then the width of half loops (below).
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/TargetTransformInfo.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/PassManager.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Passes/StandardInstrumentations.h>
#include <llvm/Support/Error.h>
#include <llvm/Target/TargetMachine.h>
#include <llvm-c/Core.h>

#include "compiler/narrow.h"
#include "compiler/optimize.h"
#include "compiler/parallel.h"

namespace
{

struct NarrowPass : llvm::PassInfoMixin<NarrowPass> {
    llvm::PreservedAnalyses run(llvm::Function &fn, llvm::FunctionAnalysisManager &)
    {
        return cc_narrow_loops(llvm::wrap(&fn)) ? llvm::PreservedAnalyses::none()
                                                : llvm::PreservedAnalyses::all();
    }
};

// Half work-item loops at the width of float. OpenCL C's half is computed
// in float (F16C converts 8 or 16 lanes in one instruction), but LLVM 19's
// x86 cost model prices `fpext <8 x half> to <8 x float>` and the fptrunc
// back at 22 against 1 for 4 lanes (print<cost-model>, znver3), so the
// vectorizer ran half loops at 4 lanes on SSE-wide variants of the math
// functions: a half log 8.5 ms for 4 Mi items, 3.4 ms at 8 lanes. A work-item
// loop that converts half and holds no double value gets
// llvm.loop.vectorize.width = the vector registers' width in floats (the
// vectorizer still checks that the width is legal and safe).
struct HalfWidthPass : llvm::PassInfoMixin<HalfWidthPass> {
    static bool converts_half(const llvm::Loop &loop, bool *has_double)
    {
        bool half = false;
        for (const llvm::BasicBlock *block : loop.blocks())
            for (const llvm::Instruction &inst : *block) {
                const llvm::Type *type = inst.getType()->getScalarType();
                *has_double = *has_double || type->isDoubleTy();
                if (auto *cast = llvm::dyn_cast<llvm::CastInst>(&inst))
                    half =
                        half || cast->getSrcTy()->getScalarType()->isHalfTy() || type->isHalfTy();
            }
        return half;
    }

    llvm::PreservedAnalyses run(llvm::Function &fn, llvm::FunctionAnalysisManager &analyses)
    {
        const llvm::TargetTransformInfo &target = analyses.getResult<llvm::TargetIRAnalysis>(fn);
        unsigned lanes =
            (unsigned)target.getRegisterBitWidth(llvm::TargetTransformInfo::RGK_FixedWidthVector)
                .getFixedValue() /
            32;
        bool changed = false;
        for (llvm::Loop *loop : analyses.getResult<llvm::LoopAnalysis>(fn).getLoopsInPreorder()) {
            llvm::MDNode *id = loop->getLoopID();
            bool has_double = false;
            if (lanes <= 4 || !loop->isInnermost() || !cc_is_work_item_loop(llvm::wrap(id)) ||
                !converts_half(*loop, &has_double) || has_double)
                continue;
            llvm::LLVMContext &context = fn.getContext();
            llvm::Metadata *width[] = {llvm::MDString::get(context, "llvm.loop.vectorize.width"),
                                       llvm::ConstantAsMetadata::get(llvm::ConstantInt::get(
                                           llvm::Type::getInt32Ty(context), lanes))};
            loop->setLoopID(llvm::makePostTransformationMetadata(
                context, id, {}, {llvm::MDNode::get(context, width)}));
            changed = true;
        }
        return changed ? llvm::PreservedAnalyses::none() : llvm::PreservedAnalyses::all();
    }
};

} // namespace

extern "C" LLVMErrorRef cc_optimize(LLVMModuleRef module_ref, LLVMTargetMachineRef machine_ref,
                                    bool optimize)
{
    llvm::Module &module = *llvm::unwrap(module_ref);
    auto *machine = reinterpret_cast<llvm::TargetMachine *>(machine_ref);
    llvm::PassInstrumentationCallbacks callbacks;
    llvm::PassBuilder builder(machine, llvm::PipelineTuningOptions(), std::nullopt, &callbacks);
    llvm::LoopAnalysisManager loops;
    llvm::FunctionAnalysisManager functions;
    llvm::CGSCCAnalysisManager sccs;
    llvm::ModuleAnalysisManager modules;
    builder.registerLoopAnalyses(loops);
    builder.registerFunctionAnalyses(functions);
    builder.registerCGSCCAnalyses(sccs);
    builder.registerModuleAnalyses(modules);
    builder.crossRegisterProxies(loops, functions, sccs, modules);
    llvm::StandardInstrumentations instrumentations(module.getContext(), false, false);
    instrumentations.registerCallbacks(callbacks, &modules);
    if (optimize && cc_narrowing_enabled())
        builder.registerVectorizerStartEPCallback(
            [](llvm::FunctionPassManager &passes, llvm::OptimizationLevel) {
                passes.addPass(NarrowPass());
            });
    if (optimize)
        builder.registerVectorizerStartEPCallback(
            [](llvm::FunctionPassManager &passes, llvm::OptimizationLevel) {
                passes.addPass(HalfWidthPass());
            });
    llvm::ModulePassManager passes;
    if (llvm::Error error =
            builder.parsePassPipeline(passes, optimize ? "default<O3>" : "default<O0>"))
        return llvm::wrap(std::move(error));
    passes.run(module, modules);
    return nullptr;
}
