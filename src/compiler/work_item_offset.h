// work_item_offset.h - work-item loops that count their work-items, and
// values that are such a loop's induction variable plus loop-invariant
// terms (work_item_offset.cpp). C++: for the passes inside O3 that reason
// about work-item loops (narrow.cpp, rows.cpp, divergent.cpp,
// group_addresses.cpp, jam.cpp, interleave.cpp).
#ifndef CPUCL_COMPILER_WORK_ITEM_OFFSET_H
#define CPUCL_COMPILER_WORK_ITEM_OFFSET_H

#include <llvm/Analysis/LoopInfo.h>
#include <llvm/IR/IRBuilder.h>

#include <vector>

// A loop that counts its iterations: a canonical induction variable iv
// (0, 1, 2, ...), its latch its only exit, testing iv.next against a
// loop-invariant N (`ult`, or LFTR's `eq`/`ne`: bottom-tested, so it runs
// T = max(N, 1) times) in a compare with no other use.
struct cc_counted_loop {
    llvm::BasicBlock *preheader, *header, *latch, *exit;
    llvm::PHINode *iv;
    llvm::ICmpInst *latch_compare;
    unsigned count_operand; // the operand of latch_compare that is N
};

// Whether loop, in loop-simplify form, is such a loop (then filled in c).
bool cc_match_counted_loop(const llvm::Loop &loop, cc_counted_loop &c);

// Whether a work-item loop's body may be copied, one copy a work-item, and
// the copies run in another order across work-items (jam.cpp, and the
// loops interleave.cpp runs side by side by hand): no alloca, no inline
// assembly, convergent or non-duplicable call, and no value of it used
// after the loop.
bool cc_work_items_may_be_copied(const llvm::Loop &loop);

// Whether inner, the loop inside the work-item loop `loop`, runs as many
// iterations for every work-item: its latch compares a counter (a header
// phi from a start the same for every work-item, stepping by a constant,
// or that phi plus a constant) with a bound the same for every work-item
// (jam.cpp jams such loops; divergent.cpp runs their lanes in lockstep);
// the counter's phi in *counter_phi when it is given.
bool cc_same_count(const llvm::Loop &loop, const llvm::Loop &inner,
                   llvm::PHINode **counter_phi = nullptr);

// The vector registers of register_bits a value of type takes: one for a
// scalar or a narrow vector, several for a vector wider than a register
// (a float16 takes two with AVX2).
unsigned cc_vector_registers(const llvm::Type *type, unsigned register_bits);

// Vector registers left to values the same for every work-item, addresses
// and the conversions of the index when work-items run side by side.
constexpr unsigned cc_reserved_registers = 4;

// How many work-items, at most `most`, run side by side when each keeps
// registers_each of the target's `registers` vector registers (and
// cc_reserved_registers stay free): the largest that fits, at least 1.
unsigned cc_work_items_in_registers(unsigned most, unsigned registers_each, unsigned registers);

// GVN's partial-redundancy elimination can leave a loop's increment as a
// phi, in the latch, of one copy of iv + 1 per path that reaches it (when a
// guarded path uses iv + 1 itself: OpenCV's medianFilter5 reads the pixel at
// x + 1). The canonical induction variable is then gone, and with it the
// counted loop above for narrow.cpp, divergent.cpp and jam.cpp: a launch
// copy of that kernel kept its guard and was not vectorized (270 ms instead
// of 50). One add at the start of the latch takes the phi's place (it
// computes what every copy did); whether the loop changed.
bool cc_rejoin_increment(llvm::Loop &loop);

// The loop's first F = T - T mod multiple iterations (T = max(N, 1),
// multiple a power of two) to be run elsewhere: the preheader branches to
// chunks (whose phis start from it) when F > 0, else to rest, which runs
// the loop itself from F when F < T, through a dedicated preheader
// (rest_start) and exit; whoever runs the chunks goes to rest after them.
struct cc_loop_split {
    llvm::Value *trips, *full;
    llvm::BasicBlock *rest, *rest_start;
};
cc_loop_split cc_split_counted_loop(const cc_counted_loop &c, unsigned multiple,
                                    llvm::BasicBlock *chunks, const char *name);

// A loop-invariant value added to or subtracted from the induction variable.
struct cc_offset_term {
    llvm::Value *value;
    bool subtracted;
};

// Whether value is C + iv, C the sum of terms (adds, disjoint ors and subs
// of loop-invariant values, in either order for adds), appended to terms;
// with through_truncs, also (C + iv) mod 2^w through truncations to w bits.
bool cc_match_offset(llvm::Value *value, const llvm::Value *iv, const llvm::Loop &loop,
                     bool through_truncs, std::vector<cc_offset_term> &terms);

// C, the terms' sum, computed at b's insertion point in type (each term
// truncated or zero-extended to it).
llvm::Value *cc_sum_of_terms(llvm::IRBuilderBase &b, llvm::Type *type,
                             const std::vector<cc_offset_term> &terms);

#endif
