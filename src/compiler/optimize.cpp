// optimize.cpp - LLVM's O3 pipeline with cpucl's own passes in it.
//
// LLVMRunPasses builds default<O3> from its text and offers no extension
// point; narrowing (narrow.cpp) has to run inside O3, after inlining and
// loop unswitching and right before the loop vectorizer. So this builds
// the pipeline the way LLVMRunPasses does in LLVM 19 (same
// PipelineTuningOptions, analysis managers with the default analyses,
// proxies cross-registered, standard instrumentation; the target library
// info is the default one for the module's triple, as there) and adds the
// passes through PassBuilder's vectorizer-start extension point: full
// unrolling of small constant loops again (a filter's loops over dy and dx
// in a work-item loop, which the simplification pipeline's unrolling left
// whole while the inlined image reads in them were still large, keep the
// work-item loop from being innermost), the rows of 1D launches over 2D
// data (rows.cpp; with narrowing, which then cuts each row: CPUCL_NARROW=0
// turns both off), narrowing, divergent inner loops in chunks of lanes
// (divergent.cpp), float sums of one count four work-items at a time
// (jam.cpp), addresses counted from the group's first work-item
// (group_addresses.cpp), conversions of work-item indices from 32 bits
// (item_conversions.cpp), then the width of some loops (below), interleave counts for
// long floating-point chains (interleave.cpp; on vector values, work-items
// side by side by hand), then the
// parallel mark taken off loops it would make wrong (item_order.cpp); and
// int64_vectors.cpp's,
// half_vectors.c's and mask_shuffles.c's at the optimizer-last one.
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/TargetTransformInfo.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/PassManager.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Passes/StandardInstrumentations.h>
#include <llvm/Transforms/Scalar/LoopPassManager.h>
#include <llvm/Transforms/Scalar/LoopUnrollPass.h>
#include <llvm/Support/Error.h>
#include <llvm/Target/TargetMachine.h>
#include <llvm-c/Core.h>

extern "C" {
#include "compiler/internal.h"
}
#include "compiler/group_addresses.h"
#include "compiler/divergent.h"
#include "compiler/interleave.h"
#include "compiler/jam.h"
#include "compiler/narrow.h"
#include "compiler/rows.h"
#include "compiler/optimize.h"
#include "compiler/parallel.h"
#include "compiler/half_vectors.h"
#include "compiler/item_conversions.h"
#include "compiler/item_order.h"
#include "compiler/int64_vectors.h"
#include "compiler/mask_shuffles.h"
#include "compiler/work_item_offset.h"

namespace
{

struct RowsPass : llvm::PassInfoMixin<RowsPass> {
    llvm::PreservedAnalyses run(llvm::Function &fn, llvm::FunctionAnalysisManager &)
    {
        return cc_cut_rows(llvm::wrap(&fn)) ? llvm::PreservedAnalyses::none()
                                            : llvm::PreservedAnalyses::all();
    }
};

struct JamPass : llvm::PassInfoMixin<JamPass> {
    llvm::PreservedAnalyses run(llvm::Function &fn, llvm::FunctionAnalysisManager &analyses)
    {
        const llvm::TargetTransformInfo &target = analyses.getResult<llvm::TargetIRAnalysis>(fn);
        unsigned register_bits =
            (unsigned)target.getRegisterBitWidth(llvm::TargetTransformInfo::RGK_FixedWidthVector)
                .getFixedValue();
        unsigned registers = target.getNumberOfRegisters(target.getRegisterClassForType(true));
        return cc_jam_loops(llvm::wrap(&fn), register_bits, registers)
                   ? llvm::PreservedAnalyses::none()
                   : llvm::PreservedAnalyses::all();
    }
};

// Work-item loops given back the induction variable GVN hid
// (work_item_offset.cpp), right before the passes that look for it:
// narrowing, or divergent.cpp and jam.cpp when narrowing is off. (Added
// ahead of the full unroll and rows.cpp instead, it left medianFilter5's
// launch copy unvectorized: checked.)
struct RejoinIncrementsPass : llvm::PassInfoMixin<RejoinIncrementsPass> {
    llvm::PreservedAnalyses run(llvm::Function &fn, llvm::FunctionAnalysisManager &analyses)
    {
        bool changed = false;
        for (llvm::Loop *loop : analyses.getResult<llvm::LoopAnalysis>(fn).getLoopsInPreorder())
            if (cc_is_work_item_loop(llvm::wrap(loop->getLoopID())))
                changed |= cc_rejoin_increment(*loop);
        if (!changed)
            return llvm::PreservedAnalyses::all();
        llvm::PreservedAnalyses kept; // no block changed
        kept.preserveSet<llvm::CFGAnalyses>();
        return kept;
    }
};

struct NarrowPass : llvm::PassInfoMixin<NarrowPass> {
    llvm::PreservedAnalyses run(llvm::Function &fn, llvm::FunctionAnalysisManager &)
    {
        return cc_narrow_loops(llvm::wrap(&fn)) ? llvm::PreservedAnalyses::none()
                                                : llvm::PreservedAnalyses::all();
    }
};

// Work-item loops around a loop each work-item leaves after its own count,
// in chunks of a few vector registers' width (divergent.cpp).
struct DivergentPass : llvm::PassInfoMixin<DivergentPass> {
    llvm::PreservedAnalyses run(llvm::Function &fn, llvm::FunctionAnalysisManager &analyses)
    {
        const llvm::TargetTransformInfo &target = analyses.getResult<llvm::TargetIRAnalysis>(fn);
        unsigned bits =
            (unsigned)target.getRegisterBitWidth(llvm::TargetTransformInfo::RGK_FixedWidthVector)
                .getFixedValue();
        return cc_run_divergent_loops_in_lanes(llvm::wrap(&fn), bits)
                   ? llvm::PreservedAnalyses::none()
                   : llvm::PreservedAnalyses::all();
    }
};

// The width of two kinds of work-item loop the x86 cost model misjudges
// (the vectorizer still checks that the width is legal and safe):
// - Half at the width of float. OpenCL C's half is computed in float (F16C
//   converts 8 or 16 lanes in one instruction), but LLVM 19's x86 cost
//   model prices `fpext <8 x half> to <8 x float>` and the fptrunc back at
//   22 against 1 for 4 lanes (print<cost-model>, znver3), so the vectorizer
//   ran half loops at 4 lanes on SSE-wide variants of the math functions: a
//   half log 8.5 ms for 4 Mi items, 3.4 ms at 8 lanes. A loop that converts
//   half and holds no double value gets the registers' width in floats.
// - 64-bit division by a divisor that is not a constant (`i / width` of a
//   size_t index), and without AVX-512DQ conversions between 64-bit
//   integers and floating point (`(float)i`): priced as a scalar
//   instruction a lane, they kept the whole loop scalar. int64_vectors.cpp
//   gives them vector code after the vectorizer, so such a loop gets the
//   registers' width in floats (in doubles if it holds a double).
struct WidthPass : llvm::PassInfoMixin<WidthPass> {
    struct survey {
        bool half, has_double, wide_integers;
    };

    static bool is_i64_conversion(const llvm::Instruction &inst)
    {
        auto *cast = llvm::dyn_cast<llvm::CastInst>(&inst);
        if (!cast)
            return false;
        const llvm::Type *from = cast->getSrcTy(), *to = cast->getDestTy();
        switch (cast->getOpcode()) {
        case llvm::Instruction::SIToFP:
        case llvm::Instruction::UIToFP: break;
        case llvm::Instruction::FPToSI:
        case llvm::Instruction::FPToUI: std::swap(from, to); break;
        default: return false;
        }
        return from->isIntegerTy(64) && (to->isFloatTy() || to->isDoubleTy());
    }

    static survey look_at(const llvm::Loop &loop, bool has_conversions)
    {
        survey found = {};
        for (const llvm::BasicBlock *block : loop.blocks())
            for (const llvm::Instruction &inst : *block) {
                const llvm::Type *type = inst.getType()->getScalarType();
                found.has_double = found.has_double || type->isDoubleTy();
                if (auto *cast = llvm::dyn_cast<llvm::CastInst>(&inst))
                    found.half = found.half || cast->getSrcTy()->getScalarType()->isHalfTy() ||
                                 type->isHalfTy();
                unsigned op = inst.getOpcode();
                if ((op == llvm::Instruction::UDiv || op == llvm::Instruction::SDiv ||
                     op == llvm::Instruction::URem || op == llvm::Instruction::SRem) &&
                    inst.getType()->isIntegerTy(64) &&
                    !llvm::isa<llvm::Constant>(inst.getOperand(1)))
                    found.wide_integers = true;
                if (!has_conversions && is_i64_conversion(inst))
                    found.wide_integers = true;
            }
        return found;
    }

    llvm::PreservedAnalyses run(llvm::Function &fn, llvm::FunctionAnalysisManager &analyses)
    {
        const llvm::TargetTransformInfo &target = analyses.getResult<llvm::TargetIRAnalysis>(fn);
        unsigned floats =
            (unsigned)target.getRegisterBitWidth(llvm::TargetTransformInfo::RGK_FixedWidthVector)
                .getFixedValue() /
            32;
        bool has_conversions = cc_function_has_feature(llvm::wrap(&fn), "avx512dq");
        bool changed = false;
        for (llvm::Loop *loop : analyses.getResult<llvm::LoopAnalysis>(fn).getLoopsInPreorder()) {
            llvm::MDNode *id = loop->getLoopID();
            if (floats < 4 || !loop->isInnermost() || !cc_is_work_item_loop(llvm::wrap(id)))
                continue;
            survey found = look_at(*loop, has_conversions);
            unsigned lanes = 0;
            if (found.half && !found.has_double && floats > 4)
                lanes = floats;
            else if (found.wide_integers)
                lanes = found.has_double ? floats / 2 : floats;
            if (!lanes)
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

// Work-item loops each of whose work-items runs one long chain of
// floating-point operations: several vectors of them at once, or on vector
// values several work-items side by side (interleave.cpp).
struct InterleavePass : llvm::PassInfoMixin<InterleavePass> {
    llvm::PreservedAnalyses run(llvm::Function &fn, llvm::FunctionAnalysisManager &analyses)
    {
        bool changed = cc_interleave_chains(fn, analyses.getResult<llvm::LoopAnalysis>(fn),
                                            analyses.getResult<llvm::ScalarEvolutionAnalysis>(fn),
                                            analyses.getResult<llvm::TargetIRAnalysis>(fn));
        return changed ? llvm::PreservedAnalyses::none() : llvm::PreservedAnalyses::all();
    }
};

// Conversions of work-item indices to floating point from 32 bits
// (item_conversions.cpp).
struct ItemConversionsPass : llvm::PassInfoMixin<ItemConversionsPass> {
    llvm::PreservedAnalyses run(llvm::Function &fn, llvm::FunctionAnalysisManager &analyses)
    {
        bool changed =
            cc_narrow_item_conversions(fn, analyses.getResult<llvm::LoopAnalysis>(fn),
                                       analyses.getResult<llvm::ScalarEvolutionAnalysis>(fn));
        if (!changed)
            return llvm::PreservedAnalyses::all();
        llvm::PreservedAnalyses kept; // no block changed
        kept.preserveSet<llvm::CFGAnalyses>();
        return kept;
    }
};

struct GroupAddressesPass : llvm::PassInfoMixin<GroupAddressesPass> {
    llvm::PreservedAnalyses run(llvm::Function &fn, llvm::FunctionAnalysisManager &)
    {
        return cc_group_addresses(llvm::wrap(&fn)) ? llvm::PreservedAnalyses::none()
                                                   : llvm::PreservedAnalyses::all();
    }
};

// Last before the vectorizer: work-item loops it would reorder inside a
// work-item lose their parallel mark (item_order.cpp).
struct ItemOrderPass : llvm::PassInfoMixin<ItemOrderPass> {
    llvm::PreservedAnalyses run(llvm::Function &fn, llvm::FunctionAnalysisManager &analyses)
    {
        bool changed = cc_keep_item_order(fn, analyses.getResult<llvm::LoopAnalysis>(fn),
                                          analyses.getResult<llvm::ScalarEvolutionAnalysis>(fn),
                                          analyses.getResult<llvm::AAManager>(fn));
        return changed ? llvm::PreservedAnalyses::none() : llvm::PreservedAnalyses::all();
    }
};

struct Int64VectorsPass : llvm::PassInfoMixin<Int64VectorsPass> {
    llvm::PreservedAnalyses run(llvm::Function &fn, llvm::FunctionAnalysisManager &)
    {
        return cc_lower_int64_vectors(llvm::wrap(&fn)) ? llvm::PreservedAnalyses::none()
                                                       : llvm::PreservedAnalyses::all();
    }
};

struct CompareAfterShufflesPass : llvm::PassInfoMixin<CompareAfterShufflesPass> {
    llvm::PreservedAnalyses run(llvm::Function &fn, llvm::FunctionAnalysisManager &)
    {
        return cc_compare_after_shuffles(llvm::wrap(&fn)) ? llvm::PreservedAnalyses::none()
                                                          : llvm::PreservedAnalyses::all();
    }
};

struct HalfVectorsPass : llvm::PassInfoMixin<HalfVectorsPass> {
    llvm::PreservedAnalyses run(llvm::Function &fn, llvm::FunctionAnalysisManager &)
    {
        return cc_widen_half_vectors(llvm::wrap(&fn)) ? llvm::PreservedAnalyses::none()
                                                      : llvm::PreservedAnalyses::all();
    }
};

} // namespace

extern "C" bool cc_function_has_feature(LLVMValueRef fn_ref, const char *feature)
{
    llvm::Attribute features =
        llvm::unwrap<llvm::Function>(fn_ref)->getFnAttribute("target-features");
    if (!features.isValid())
        return false;
    llvm::SmallVector<llvm::StringRef, 64> list;
    features.getValueAsString().split(list, ',');
    for (llvm::StringRef item : list)
        if (item.consume_front("+") && item == feature)
            return true;
    return false;
}

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
    if (optimize && cc_switch_on("CPUCL_NARROW"))
        builder.registerVectorizerStartEPCallback(
            [](llvm::FunctionPassManager &passes, llvm::OptimizationLevel) {
                passes.addPass(llvm::createFunctionToLoopPassAdaptor(llvm::LoopFullUnrollPass(3)));
                if (cc_switch_on("CPUCL_ROWS"))
                    passes.addPass(RowsPass());
                passes.addPass(RejoinIncrementsPass());
                passes.addPass(NarrowPass());
            });
    if (optimize)
        builder.registerVectorizerStartEPCallback(
            [](llvm::FunctionPassManager &passes, llvm::OptimizationLevel) {
                if (!cc_switch_on("CPUCL_NARROW"))
                    passes.addPass(RejoinIncrementsPass());
                if (cc_switch_on("CPUCL_DIVERGENT"))
                    passes.addPass(DivergentPass());
                if (cc_switch_on("CPUCL_JAM"))
                    passes.addPass(JamPass());
                passes.addPass(GroupAddressesPass());
                passes.addPass(ItemConversionsPass());
                passes.addPass(WidthPass());
                if (cc_switch_on("CPUCL_INTERLEAVE"))
                    passes.addPass(InterleavePass());
                passes.addPass(ItemOrderPass());
            });
    if (optimize)
        builder.registerOptimizerLastEPCallback(
            [](llvm::ModulePassManager &passes, llvm::OptimizationLevel) {
                passes.addPass(llvm::createModuleToFunctionPassAdaptor(Int64VectorsPass()));
                passes.addPass(llvm::createModuleToFunctionPassAdaptor(HalfVectorsPass()));
                passes.addPass(llvm::createModuleToFunctionPassAdaptor(CompareAfterShufflesPass()));
            });
    llvm::ModulePassManager passes;
    if (llvm::Error error =
            builder.parsePassPipeline(passes, optimize ? "default<O3>" : "default<O0>"))
        return llvm::wrap(std::move(error));
    passes.run(module, modules);
    return nullptr;
}
