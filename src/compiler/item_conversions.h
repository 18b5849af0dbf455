/* item_conversions.h - conversions of small 64-bit integers to floating
 * point done from 32 bits (item_conversions.cpp). C++ only: it takes the
 * pass manager's analyses. */
#ifndef CPUCL_COMPILER_ITEM_CONVERSIONS_H
#define CPUCL_COMPILER_ITEM_CONVERSIONS_H

#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/IR/Function.h>

/* In each innermost work-item loop of fn, `sitofp`/`uitofp` of an i64 that
 * scalar evolution bounds to [-2^31, 2^31) (or [0, 2^31)) becomes `sitofp`
 * of its `trunc` to i32; returns whether fn changed (no block did). Right
 * before the loop vectorizer (optimize.cpp). */
bool cc_narrow_item_conversions(llvm::Function &fn, llvm::LoopInfo &loops,
                                llvm::ScalarEvolution &evolution);

#endif
