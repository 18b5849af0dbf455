/* interleave.h - work-item loops bound by the latency of one long chain of
 * floating-point operations get an interleave count, or run several
 * work-items side by side (interleave.cpp). C++
 * only: it takes the pass manager's analyses. */
#ifndef CPUCL_COMPILER_INTERLEAVE_H
#define CPUCL_COMPILER_INTERLEAVE_H

#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/TargetTransformInfo.h>
#include <llvm/IR/Function.h>

/* Gives each innermost work-item loop of fn with a constant trip count
 * whose work-items each run a long dependent chain of floating-point
 * operations `llvm.loop.interleave.count`, and runs such loops on vector
 * values (which the vectorizer does not take) several work-items side by
 * side, new blocks and a new loop; returns whether fn changed (then no
 * analysis is kept). Right before the loop vectorizer (optimize.cpp). */
bool cc_interleave_chains(llvm::Function &fn, llvm::LoopInfo &loops,
                          llvm::ScalarEvolution &evolution,
                          const llvm::TargetTransformInfo &target);

#endif
