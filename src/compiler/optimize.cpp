// optimize.cpp - LLVM's O3 pipeline with cpucl's own pass in it.
//
// LLVMRunPasses builds default<O3> from its text and offers no extension
// point; narrowing (narrow.cpp) has to run inside O3, after inlining and
// loop unswitching and right before the loop vectorizer. So this builds
// the pipeline the way LLVMRunPasses does in LLVM 19 (same
// PipelineTuningOptions, analysis managers with the default analyses,
// proxies cross-registered, standard instrumentation; the target library
// info is the default one for the module's triple, as there) and adds the
// pass through PassBuilder's vectorizer-start extension point.
#include <llvm/IR/Function.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/PassManager.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Passes/StandardInstrumentations.h>
#include <llvm/Support/Error.h>
#include <llvm/Target/TargetMachine.h>
#include <llvm-c/Core.h>

#include "compiler/narrow.h"
#include "compiler/optimize.h"

namespace
{

struct NarrowPass : llvm::PassInfoMixin<NarrowPass> {
    llvm::PreservedAnalyses run(llvm::Function &fn, llvm::FunctionAnalysisManager &)
    {
        return cc_narrow_loops(llvm::wrap(&fn)) ? llvm::PreservedAnalyses::none()
                                                : llvm::PreservedAnalyses::all();
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
    llvm::ModulePassManager passes;
    if (llvm::Error error =
            builder.parsePassPipeline(passes, optimize ? "default<O3>" : "default<O0>"))
        return llvm::wrap(std::move(error));
    passes.run(module, modules);
    return nullptr;
}
