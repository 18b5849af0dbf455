/* item_order.h - work-item loops that lose their parallel mark where the
 * loop vectorizer would reorder accesses inside one work-item
 * (item_order.cpp). C++ only: it takes the pass manager's analyses. */
#ifndef CPUCL_COMPILER_ITEM_ORDER_H
#define CPUCL_COMPILER_ITEM_ORDER_H

#include <llvm/Analysis/AliasAnalysis.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/IR/Function.h>

/* Drops llvm.loop.parallel_accesses from each innermost loop of fn where
 * an interleaved group could move a strided access across one it depends
 * on in the same iteration; returns whether a loop changed (only loop
 * metadata: every analysis stays valid). Right before the vectorizer. */
bool cc_keep_item_order(llvm::Function &fn, llvm::LoopInfo &loops, llvm::ScalarEvolution &evolution,
                        llvm::AAResults &aliases);

#endif
