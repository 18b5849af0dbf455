/* regions.c - kernels with work-group barriers as loops over regions.
 *
 * Input: a kernel's work-item function (workgroup.c)
 *
 *   void __cpucl_wi_K(const void *args, struct cc_wg_state *state,
 *                     size_t x, size_t y, size_t z)
 *
 * with everything inlined, the work-item builtins lowered, and the calls
 * of barrier()/work_group_barrier() still in place. Its entry block is the
 * prologue (argument and state loads, __local pointers, allocas), the same
 * for every work-item; the kernel's code starts at the entry's successor.
 *
 * Output: the work-group function __cpucl_wg_K that runs the code between
 * barriers (a region) for every work-item in a z/y/x loop, x innermost, so
 * the loop vectorizer can run consecutive work-items as SIMD lanes:
 *
 *   region 0 (the kernel's start) for every item -> barrier j -> region j
 *   for every item -> ... -> every item returned
 *
 * This is continuation-based: each region is a function
 *
 *   i32 region_j(args, state, x, y, z, ctx, n, lin)
 *
 * cloned from the blocks reachable from its start without crossing a
 * barrier, returning the number of the region after the barrier it reached
 * (-1 when the work-item returned); the optimiser inlines it into its
 * loop. Barriers may sit in any control flow the spec allows (loops,
 * conditionals, called functions): the barrier a work-item stopped at
 * says where it goes on, and OpenCL C 6.13.8 makes that the same for every
 * work-item of the group. A work-item that returned before a barrier its
 * siblings wait at (outside the spec, but common) sits out the following
 * regions: each work-item's next region is kept in a status array.
 *
 * Values live across a barrier: first every SSA value used outside its
 * block is demoted to an alloca (phis too), then each alloca is either
 * private to one region (cloned as an alloca: SROA makes it a register
 * again) or kept per work-item in the context array: state->context gives
 * the group n * per_item bytes (not the thread's stack), one array per
 * alloca with consecutive work-items adjacent, so the vectorized loop
 * reads and writes them as vectors. An alloca is kept per work-item when
 * more than one region uses it, when its region can run again after a
 * barrier (a barrier in a loop), or when its address escapes.
 *
 * Kernels with sub_group_barrier, or that need sub-groups' independent
 * forward progress, keep the fibers (src/devices/cpu/fibers.c).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/DebugInfo.h>

#include "compiler/internal.h"
#include "compiler/parallel.h"
#include "compiler/ptrmap.h"
#include "compiler/regions.h"

static bool is_lifetime_marker(LLVMValueRef inst)
{
    if (!LLVMIsACallInst(inst))
        return false;
    LLVMValueRef callee = LLVMGetCalledValue(inst);
    if (!LLVMIsAFunction(callee) || !LLVMGetIntrinsicID(callee))
        return false;
    size_t length;
    return strncmp(LLVMGetValueName2(callee, &length), "llvm.lifetime", 13) == 0;
}

/* --- the transformation --- */

static bool is_barrier_block(struct regions *r, LLVMBasicBlockRef bb)
{
    return map_get(&r->region_of_start, bb) != NULL;
}

static LLVMValueRef first_barrier_in(struct regions *r, LLVMBasicBlockRef bb, bool skip_first)
{
    for (LLVMValueRef inst = LLVMGetFirstInstruction(bb); inst;
         inst = LLVMGetNextInstruction(inst)) {
        if (skip_first && inst == LLVMGetFirstInstruction(bb))
            continue;
        if (LLVMIsACallInst(inst) && r->is_barrier(inst))
            return inst;
    }
    return NULL;
}

/* Rebuilds the phis of `bb`'s successors with incoming block `from`
 * replaced by `to` (the C API cannot set an incoming block). */
static void retarget_phis(struct regions *r, LLVMBasicBlockRef bb, LLVMBasicBlockRef from,
                          LLVMBasicBlockRef to)
{
    LLVMValueRef term = LLVMGetBasicBlockTerminator(bb);
    unsigned n = term ? LLVMGetNumSuccessors(term) : 0;
    for (unsigned s = 0; s < n; s++) {
        LLVMBasicBlockRef succ = LLVMGetSuccessor(term, s);
        LLVMValueRef next;
        for (LLVMValueRef phi = LLVMGetFirstInstruction(succ); phi && LLVMIsAPHINode(phi);
             phi = next) {
            next = LLVMGetNextInstruction(phi);
            unsigned count = LLVMCountIncoming(phi);
            bool touches = false;
            for (unsigned i = 0; i < count; i++)
                touches |= LLVMGetIncomingBlock(phi, i) == from;
            if (!touches)
                continue;
            LLVMPositionBuilderBefore(r->b, phi);
            LLVMValueRef fresh = LLVMBuildPhi(r->b, LLVMTypeOf(phi), "");
            for (unsigned i = 0; i < count; i++) {
                LLVMValueRef value = LLVMGetIncomingValue(phi, i);
                LLVMBasicBlockRef block = LLVMGetIncomingBlock(phi, i);
                if (block == from)
                    block = to;
                LLVMAddIncoming(fresh, &value, &block, 1);
            }
            LLVMReplaceAllUsesWith(phi, fresh);
            LLVMInstructionEraseFromParent(phi);
        }
    }
}

/* Every barrier call becomes the first instruction of a block of its own
 * start: the tail of its block, from the barrier on, moves to a new block.
 * Region 0 starts at the prologue's successor, not at a barrier, so a
 * barrier first in that block (a kernel whose first statement is a
 * barrier) is split off too: region 0 is then that empty block. */
static void split_at_barriers(struct regions *r)
{
    LLVMBasicBlockRef first = LLVMGetSuccessor(LLVMGetBasicBlockTerminator(r->prologue), 0);
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(r->wi); bb;
         bb = LLVMGetNextBasicBlock(bb)) {
        LLVMValueRef barrier = first_barrier_in(r, bb, bb != first);
        if (!barrier)
            continue;
        LLVMBasicBlockRef tail = LLVMInsertBasicBlockInContext(
            r->context, LLVMGetNextBasicBlock(bb) ? LLVMGetNextBasicBlock(bb) : bb, "barrier");
        if (!LLVMGetNextBasicBlock(bb)) {
            /* insert after bb: move the new block to the end */
            LLVMMoveBasicBlockAfter(tail, bb);
        }
        LLVMPositionBuilderAtEnd(r->b, tail);
        for (LLVMValueRef inst = barrier, next; inst; inst = next) {
            next = LLVMGetNextInstruction(inst);
            LLVMInstructionRemoveFromParent(inst);
            LLVMInsertIntoBuilder(r->b, inst);
        }
        LLVMPositionBuilderAtEnd(r->b, bb);
        LLVMBuildBr(r->b, tail);
        retarget_phis(r, tail, bb, tail);
        /* the loop goes on with `tail`, which may hold further barriers */
    }
}

/* --- regions --- */

static void find_regions(struct regions *r)
{
    r->start[0] = LLVMGetSuccessor(LLVMGetBasicBlockTerminator(r->prologue), 0);
    r->num_regions = 1;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(r->wi); bb;
         bb = LLVMGetNextBasicBlock(bb)) {
        LLVMValueRef first = LLVMGetFirstInstruction(bb);
        if (!(first && LLVMIsACallInst(first) && r->is_barrier(first)))
            continue;
        if (r->num_regions == MAX_REGIONS) {
            r->too_many = true;
            r->failed = true;
            return;
        }
        r->start[r->num_regions] = bb;
        r->failed |= !map_put(&r->region_of_start, bb, (void *)(uintptr_t)(r->num_regions + 1));
        r->num_regions++;
    }
}

/* The blocks of region j: reachable from its start without entering a
 * barrier block. */
static void collect_blocks(struct regions *r, unsigned j)
{
    LLVMBasicBlockRef *stack = malloc(sizeof *stack * (LLVMCountBasicBlocks(r->wi) + 1));
    if (!stack) {
        r->failed = true;
        return;
    }
    size_t top = 0;
    stack[top++] = r->start[j];
    r->failed |= !map_put(&r->blocks[j], r->start[j], (void *)1);
    while (top) {
        LLVMValueRef term = LLVMGetBasicBlockTerminator(stack[--top]);
        unsigned n = LLVMGetNumSuccessors(term);
        for (unsigned s = 0; s < n; s++) {
            LLVMBasicBlockRef succ = LLVMGetSuccessor(term, s);
            if (is_barrier_block(r, succ) || map_get(&r->blocks[j], succ))
                continue;
            r->failed |= !map_put(&r->blocks[j], succ, (void *)1);
            stack[top++] = succ;
        }
    }
    free(stack);
}

/* The regions each region can hand over to. */
static bool region_leads_to(struct regions *r, unsigned from, unsigned to)
{
    for (size_t i = 0; i < r->blocks[from].capacity; i++) {
        LLVMBasicBlockRef bb = r->blocks[from].keys[i];
        if (!bb)
            continue;
        LLVMValueRef term = LLVMGetBasicBlockTerminator(bb);
        unsigned n = LLVMGetNumSuccessors(term);
        for (unsigned s = 0; s < n; s++)
            if ((uintptr_t)map_get(&r->region_of_start, LLVMGetSuccessor(term, s)) == to + 1)
                return true;
    }
    return false;
}

/* reenters[j]: region j can be reached again from itself through
 * barriers, so a value it leaves behind may be read by its next run. */
static void find_reentry(struct regions *r)
{
    unsigned n = r->num_regions;
    bool *edge = calloc((size_t)n * n, sizeof *edge);
    bool *seen = calloc(n, sizeof *seen);
    unsigned *stack = calloc(n, sizeof *stack);
    r->leads_to = edge;
    if (!edge || !seen || !stack) {
        r->failed = true;
        free(seen), free(stack);
        return;
    }
    for (unsigned a = 0; a < n; a++)
        for (unsigned b = 1; b < n; b++)
            edge[(size_t)a * n + b] = region_leads_to(r, a, b);
    for (unsigned j = 0; j < n; j++) {
        memset(seen, 0, n * sizeof *seen);
        unsigned top = 0;
        for (unsigned b = 0; b < n; b++)
            if (edge[(size_t)j * n + b] && !seen[b])
                seen[b] = true, stack[top++] = b;
        while (top) {
            unsigned a = stack[--top];
            for (unsigned b = 0; b < n; b++)
                if (edge[(size_t)a * n + b] && !seen[b])
                    seen[b] = true, stack[top++] = b;
        }
        r->reenters[j] = seen[j];
    }
    free(seen), free(stack);
}

static int region_of_block(struct regions *r, LLVMBasicBlockRef bb)
{
    int found = -1;
    for (unsigned j = 0; j < r->num_regions; j++)
        if (map_get(&r->blocks[j], bb)) {
            if (found >= 0)
                return -2; /* in several */
            found = (int)j;
        }
    return found;
}

/* How an alloca is used: the regions it is touched in, and whether its
 * address leaves the pointer arithmetic (stored, passed to a call). */
struct alloca_use {
    int region; /* -1 none yet, -2 several */
    bool escapes;
};

static void note_region(struct alloca_use *use, int region)
{
    if (use->region == -1)
        use->region = region;
    else if (use->region != region)
        use->region = -2;
}

static void scan_pointer_uses(struct regions *r, LLVMValueRef pointer, struct alloca_use *use,
                              int depth)
{
    for (LLVMUseRef u = LLVMGetFirstUse(pointer); u; u = LLVMGetNextUse(u)) {
        LLVMValueRef user = LLVMGetUser(u);
        LLVMBasicBlockRef bb = LLVMGetInstructionParent(user);
        note_region(use, bb == r->prologue ? -2 : region_of_block(r, bb));
        if (LLVMIsAGetElementPtrInst(user) || LLVMIsABitCastInst(user) ||
            LLVMIsAAddrSpaceCastInst(user)) {
            if (depth < 32)
                scan_pointer_uses(r, user, use, depth + 1);
            else
                use->escapes = true;
        } else if (LLVMIsAStoreInst(user)) {
            if (LLVMGetOperand(user, 0) == pointer)
                use->escapes = true;
        } else if (LLVMIsALoadInst(user)) {
        } else if (LLVMIsACallInst(user)) {
            LLVMValueRef callee = LLVMGetCalledValue(user);
            unsigned id = LLVMIsAFunction(callee) ? LLVMGetIntrinsicID(callee) : 0;
            /* memcpy/memset and lifetime markers only touch the memory */
            size_t length;
            const char *name = id ? LLVMGetValueName2(callee, &length) : "";
            if (!(strncmp(name, "llvm.memcpy", 11) == 0 || strncmp(name, "llvm.memset", 11) == 0 ||
                  strncmp(name, "llvm.memmove", 12) == 0 ||
                  strncmp(name, "llvm.lifetime", 13) == 0))
                use->escapes = true;
        } else {
            use->escapes = true; /* select, phi, ptrtoint, atomics: keep it simple */
        }
    }
}

/* --- which allocas carry values across a barrier --- */

enum access { READS = 1, KILLS = 2 };

/* The instructions that read an alloca (loads, and calls such as memcpy,
 * through any pointer derived from it) and those that overwrite all of it
 * (a store of its whole type to it directly). False when the analysis
 * cannot follow a use. */
static bool collect_accesses(struct regions *r, LLVMValueRef alloca, LLVMValueRef pointer,
                             struct map *accesses, int depth)
{
    LLVMTypeRef type = LLVMGetAllocatedType(alloca);
    for (LLVMUseRef u = LLVMGetFirstUse(pointer); u; u = LLVMGetNextUse(u)) {
        LLVMValueRef user = LLVMGetUser(u);
        if (LLVMGetInstructionParent(user) == r->prologue)
            return false;
        if (LLVMIsAGetElementPtrInst(user) || LLVMIsABitCastInst(user) ||
            LLVMIsAAddrSpaceCastInst(user)) {
            if (depth > 32 || !collect_accesses(r, alloca, user, accesses, depth + 1))
                return false;
        } else if (LLVMIsAStoreInst(user)) {
            if (LLVMGetOperand(user, 0) == pointer)
                return false; /* the address itself is stored */
            bool whole = pointer == alloca &&
                         LLVMTypeOf(LLVMGetOperand(user, 0)) == type &&
                         LLVMIsAConstantInt(LLVMGetOperand(alloca, 0)) &&
                         LLVMConstIntGetZExtValue(LLVMGetOperand(alloca, 0)) == 1;
            if (whole && !map_put(accesses, user, (void *)(uintptr_t)KILLS))
                return false;
        } else if (LLVMIsALoadInst(user)) {
            if (!map_put(accesses, user, (void *)(uintptr_t)READS))
                return false;
        } else if (LLVMIsACallInst(user)) {
            if (!is_lifetime_marker(user) && !map_put(accesses, user, (void *)(uintptr_t)READS))
                return false;
        } else {
            return false;
        }
    }
    return true;
}

/* Whether, in region j, a read of the alloca can see a value stored before
 * the region began (by an earlier region, or an earlier run of this one):
 * the blocks reached from the region's start along paths on which nothing
 * has overwritten it yet (a walk that stops at a block's kill and at the
 * region's end, a branch to a barrier block), and a read on one of them.
 * Each block is looked at once. */
static bool exposed_in_region(struct regions *r, unsigned j, const struct map *accesses)
{
    const struct map *blocks = &r->blocks[j];
    struct map seen = {0};
    LLVMBasicBlockRef *stack = malloc(sizeof *stack * (blocks->count + 1));
    if (!stack) {
        r->failed = true;
        return true; /* (unused: the build fails) */
    }
    size_t top = 0;
    bool found = false;
    stack[top++] = r->start[j];
    r->failed |= !map_put(&seen, r->start[j], r->start[j]);
    while (top && !found && !r->failed) {
        LLVMBasicBlockRef bb = stack[--top];
        bool open = true;
        for (LLVMValueRef inst = LLVMGetFirstInstruction(bb); inst && open && !found;
             inst = LLVMGetNextInstruction(inst)) {
            uintptr_t kind = (uintptr_t)map_get(accesses, inst);
            found = kind == READS;
            open = kind != KILLS;
        }
        if (!open || found)
            continue;
        LLVMValueRef term = LLVMGetBasicBlockTerminator(bb);
        unsigned n = term ? LLVMGetNumSuccessors(term) : 0;
        for (unsigned s = 0; s < n; s++) {
            LLVMBasicBlockRef succ = LLVMGetSuccessor(term, s);
            if (is_barrier_block(r, succ) || !map_get(blocks, succ) || map_get(&seen, succ))
                continue;
            r->failed |= !map_put(&seen, succ, succ);
            stack[top++] = succ;
        }
    }
    free(stack);
    map_free(&seen);
    return found;
}

/* Whether an alloca must live per work-item: some region can read a value
 * it held when the region began. */
static bool lives_across_barriers(struct regions *r, LLVMValueRef alloca)
{
    struct map accesses = {0};
    bool followed = collect_accesses(r, alloca, alloca, &accesses, 0);
    bool lives = !followed;
    for (unsigned j = 0; j < r->num_regions && !lives; j++)
        lives = exposed_in_region(r, j, &accesses);
    map_free(&accesses);
    return lives;
}

static size_t align_up(size_t value, size_t align)
{
    return (value + align - 1) / align * align;
}

/* Which allocas live per work-item, and where in the context. Arrays are
 * laid out by decreasing alignment, so each starts aligned for any n. */
static void place_allocas(struct regions *r)
{
    for (LLVMValueRef inst = LLVMGetFirstInstruction(r->prologue); inst;
         inst = LLVMGetNextInstruction(inst))
        if (LLVMIsAAllocaInst(inst))
            r->failed |= !cc_values_add(&r->allocas, inst);
    size_t offset = 0;
    for (unsigned align = 128; align >= 1; align /= 2)
        for (size_t i = 0; i < r->allocas.count; i++) {
            LLVMValueRef a = r->allocas.items[i];
            LLVMTypeRef type = LLVMGetAllocatedType(a);
            size_t a_align = LLVMGetAlignment(a);
            if (a_align < LLVMABIAlignmentOfType(r->layout, type))
                a_align = LLVMABIAlignmentOfType(r->layout, type);
            if (a_align > 128)
                a_align = 128;
            if (a_align != align)
                continue;
            /* A kernel of one region (a loop without barriers sent here by
             * loops.cpp) has no barrier for a value, or an escaping address,
             * to cross: its allocas stay private (image.cl's texel structs
             * kept 196 bytes a work-item of blur_img in the context). */
            if (r->num_regions == 1)
                continue;
            struct alloca_use use = {-1, false};
            scan_pointer_uses(r, a, &use, 0);
            bool kept = use.escapes || use.region == -2 ||
                        (use.region >= 0 && r->reenters[use.region]);
            if (kept && !use.escapes)
                kept = lives_across_barriers(r, a);
            if (!kept)
                continue;
            LLVMValueRef count = LLVMGetOperand(a, 0);
            size_t n = LLVMIsAConstantInt(count) ? (size_t)LLVMConstIntGetZExtValue(count) : 1;
            size_t size = align_up((size_t)LLVMABISizeOfType(r->layout, type) * n, align);
            if (!use.escapes && map_get(&r->uniform_slots, a)) {
                r->failed |= !map_put(&r->group_slots, a, (void *)(uintptr_t)(r->uniform_size + 1));
                r->failed |= !cc_values_add(&r->group_allocas, a);
                r->uniform_size += size;
                continue;
            }
            r->failed |= !map_put(&r->kept, a, (void *)(uintptr_t)(offset + 1));
            offset += size;
        }
    r->status_offset = offset;
    r->per_item = offset + 4;
    r->uniform_size = align_up(r->uniform_size, 128);
    r->item_base = r->uniform_size;
}

/* The prologue's values. If one depends on a local id (it should not:
 * workgroup.c lowers the ids inside the kernel's code), every region
 * computes the prologue itself instead. */
static void collect_shared(struct regions *r)
{
    for (LLVMValueRef inst = LLVMGetFirstInstruction(r->prologue);
         inst && inst != LLVMGetBasicBlockTerminator(r->prologue);
         inst = LLVMGetNextInstruction(inst)) {
        if (LLVMIsAAllocaInst(inst) || is_lifetime_marker(inst))
            continue;
        if (LLVMGetTypeKind(LLVMTypeOf(inst)) == LLVMVoidTypeKind ||
            LLVMGetInstructionOpcode(inst) == LLVMCall)
            r->clone_prologue = true;
        int operands = LLVMGetNumOperands(inst);
        for (int k = 0; k < operands; k++)
            for (unsigned p = 2; p < 5; p++)
                r->clone_prologue |= LLVMGetOperand(inst, (unsigned)k) == LLVMGetParam(r->wi, p);
        r->failed |= !cc_values_add(&r->shared, inst);
    }
}

/* --- cloning one region into its own function --- */

struct clone {
    struct regions *r;
    unsigned region;
    LLVMValueRef fn;
    struct map values; /* old value (instruction, block, argument) -> new */
    struct map exits;  /* barrier block -> the block returning its region's number */
    struct map publish; /* home of a shared uniform alloca -> the group's slot */
    struct cc_values cloned;
    LLVMBasicBlockRef entry;
    bool returns, continues; /* the region can end the work-item / reach a barrier */
};

static LLVMValueRef mapped(struct clone *c, LLVMValueRef old)
{
    LLVMValueRef now = map_get(&c->values, old);
    return now ? now : old;
}

/* A barrier block as a branch target: a return of the number of the
 * region that starts there. */
static LLVMBasicBlockRef exit_block(struct clone *c, LLVMBasicBlockRef barrier_bb)
{
    LLVMBasicBlockRef done = map_get(&c->exits, barrier_bb);
    if (done)
        return done;
    struct regions *r = c->r;
    LLVMBasicBlockRef out = LLVMAppendBasicBlockInContext(r->context, c->fn, "to_region");
    unsigned next = (unsigned)(uintptr_t)map_get(&r->region_of_start, barrier_bb) - 1;
    LLVMPositionBuilderAtEnd(r->b, out);
    LLVMBuildRet(r->b, LLVMConstInt(r->i32, next, 0));
    c->continues = true;
    r->failed |= !map_put(&c->exits, barrier_bb, out);
    return out;
}


/* The copy of a block of the region (its own start block without the
 * barrier); operands are pointed at the copies afterwards. */
static LLVMBasicBlockRef clone_block(struct clone *c, LLVMBasicBlockRef bb)
{
    struct regions *r = c->r;
    bool own_start = bb == r->start[c->region];
    LLVMBasicBlockRef done = map_get(&c->values, LLVMBasicBlockAsValue(bb));
    if (done)
        return done;
    LLVMBasicBlockRef copy = LLVMAppendBasicBlockInContext(r->context, c->fn, "");
    r->failed |= !map_put(&c->values, LLVMBasicBlockAsValue(bb), copy);
    LLVMValueRef inst = LLVMGetFirstInstruction(bb);
    if (own_start && c->region > 0)
        inst = LLVMGetNextInstruction(inst); /* the barrier itself */
    for (; inst; inst = LLVMGetNextInstruction(inst)) {
        if (is_lifetime_marker(inst))
            continue;
        LLVMValueRef dup;
        if (LLVMGetInstructionOpcode(inst) == LLVMRet) {
            LLVMPositionBuilderAtEnd(r->b, copy);
            dup = LLVMBuildRet(r->b, LLVMConstInt(r->i32, (unsigned long long)-1, 1));
            c->returns = true;
        } else {
            dup = LLVMInstructionClone(inst);
            LLVMPositionBuilderAtEnd(r->b, copy);
            LLVMInsertIntoBuilder(r->b, dup);
            LLVMInstructionSetDebugLoc(dup, NULL);
            r->failed |= !cc_values_add(&c->cloned, dup);
        }
        r->failed |= !map_put(&c->values, inst, dup);
    }
    return copy;
}

/* A load of the work-item function's argument block or state. */
static bool reads_args_or_state(struct regions *r, LLVMValueRef load)
{
    LLVMValueRef p = LLVMGetOperand(load, 0);
    if (LLVMIsAGetElementPtrInst(p))
        p = LLVMGetOperand(p, 0);
    return p == LLVMGetParam(r->wi, 0) || p == LLVMGetParam(r->wi, 1);
}

static LLVMValueRef build_region(struct regions *r, unsigned j, const char *kernel_name)
{
    struct clone c = {.r = r, .region = j};
    char name[96];
    snprintf(name, sizeof name, "__cpucl_region_%u.%.60s", j, kernel_name);
    c.fn = LLVMAddFunction(r->module, name, r->region_type);
    LLVMSetLinkage(c.fn, LLVMInternalLinkage);
    /* the work-item function's attributes (target, math modes) */
    cc_copy_string_attributes(r->wi, c.fn);
    LLVMAddAttributeAtIndex(
        c.fn, LLVMAttributeFunctionIndex,
        LLVMCreateEnumAttribute(r->context, LLVMGetEnumAttributeKindForName("alwaysinline", 12),
                                0));
    for (unsigned i = 0; i < 5; i++)
        r->failed |= !map_put(&c.values, LLVMGetParam(r->wi, i), LLVMGetParam(c.fn, i));
    LLVMValueRef ctx = LLVMGetParam(c.fn, 5), n = LLVMGetParam(c.fn, 6),
                 lin = LLVMGetParam(c.fn, 7);

    /* entry: the allocas' homes, then the prologue */
    c.entry = LLVMAppendBasicBlockInContext(r->context, c.fn, "entry");
    LLVMPositionBuilderAtEnd(r->b, c.entry);
    struct cc_values arrays = {0}; /* the kept allocas' homes, in order */
    for (size_t i = 0; i < r->allocas.count; i++) {
        LLVMValueRef a = r->allocas.items[i];
        uintptr_t kept = (uintptr_t)map_get(&r->kept, a);
        LLVMValueRef home;
        if (kept) {
            LLVMTypeRef type = LLVMGetAllocatedType(a);
            LLVMValueRef items = LLVMGetOperand(a, 0);
            size_t k = LLVMIsAConstantInt(items) ? (size_t)LLVMConstIntGetZExtValue(items) : 1;
            size_t size = (size_t)LLVMABISizeOfType(r->layout, type) * k;
            size_t align = LLVMGetAlignment(a);
            if (align < LLVMABIAlignmentOfType(r->layout, type))
                align = LLVMABIAlignmentOfType(r->layout, type);
            if (align > 128)
                align = 128;
            size = align_up(size, align);
            /* ctx + item_base + n * offset + lin * size */
            LLVMValueRef base = LLVMBuildMul(r->b, n, LLVMConstInt(r->i64, kept - 1, 0), "");
            LLVMValueRef at = LLVMBuildMul(r->b, lin, LLVMConstInt(r->i64, size, 0), "");
            at = LLVMBuildAdd(r->b, base, at, "");
            at = LLVMBuildAdd(r->b, at, LLVMConstInt(r->i64, r->item_base, 0), "");
            home = LLVMBuildInBoundsGEP2(r->b, r->i8, ctx, &at, 1, "per_item");
            if (LLVMGetPointerAddressSpace(LLVMTypeOf(a)) != 0)
                home = LLVMBuildAddrSpaceCast(r->b, home, LLVMTypeOf(a), "");
            r->failed |= !cc_values_add(&arrays, home);
        } else {
            home = LLVMInstructionClone(a);
            LLVMInsertIntoBuilder(r->b, home);
            LLVMInstructionSetDebugLoc(home, NULL);
            uintptr_t shared = (uintptr_t)map_get(&r->group_slots, a);
            if (shared) {
                /* A uniform value kept across barriers: this work-item's
                 * copy starts as the group's value at the region's entry
                 * (an argument, read by the work-group function before the
                 * loops), and every store to it also goes to the group's
                 * slot, for the next region. */
                unsigned g = 0;
                while (g < r->group_allocas.count && r->group_allocas.items[g] != a)
                    g++;
                LLVMBuildStore(r->b, LLVMGetParam(c.fn, r->first_group_param + g), home);
                LLVMValueRef at = LLVMConstInt(r->i64, shared - 1, 0);
                LLVMValueRef slot = LLVMBuildInBoundsGEP2(r->b, r->i8, ctx, &at, 1, "group_value");
                r->failed |= !map_put(&c.publish, home, slot);
            }
        }
        r->failed |= !map_put(&c.values, a, home);
    }
    for (size_t i = 0; !r->clone_prologue && i < r->shared.count; i++)
        r->failed |= !map_put(&c.values, r->shared.items[i], LLVMGetParam(c.fn, 8 + (unsigned)i));
    for (LLVMValueRef inst = LLVMGetFirstInstruction(r->prologue);
         inst && inst != LLVMGetBasicBlockTerminator(r->prologue) && r->clone_prologue;
         inst = LLVMGetNextInstruction(inst)) {
        if (LLVMIsAAllocaInst(inst) || is_lifetime_marker(inst))
            continue;
        LLVMValueRef dup = LLVMInstructionClone(inst);
        LLVMPositionBuilderAtEnd(r->b, c.entry);
        LLVMInsertIntoBuilder(r->b, dup);
        LLVMInstructionSetDebugLoc(dup, NULL);
        /* The prologue reads the argument block and the state, which no
         * work-item writes: each region's copy may be hoisted out of the
         * work-item loops. */
        if (LLVMIsALoadInst(dup) && reads_args_or_state(r, inst))
            LLVMSetMetadata(dup, LLVMGetMDKindIDInContext(r->context, "invariant.load", 14),
                            LLVMMDNodeInContext(r->context, NULL, 0));
        r->failed |= !cc_values_add(&c.cloned, dup) || !map_put(&c.values, inst, dup);
    }

    /* the region's blocks, then every operand pointed at the copies; in
     * the work-item function's order, not the map's (which follows the
     * blocks' addresses: the copies' order, and with it what O3 made of
     * them, changed from one process to the next) */
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(r->wi); bb; bb = LLVMGetNextBasicBlock(bb))
        if (map_get(&r->blocks[j], bb))
            clone_block(&c, bb);
    LLVMBasicBlockRef first = map_get(&c.values, LLVMBasicBlockAsValue(r->start[j]));
    LLVMPositionBuilderAtEnd(r->b, c.entry);
    LLVMBuildBr(r->b, first);
    for (size_t i = 0; i < c.cloned.count; i++) {
        LLVMValueRef inst = c.cloned.items[i];
        int operands = LLVMGetNumOperands(inst);
        for (int k = 0; k < operands; k++) {
            LLVMValueRef op = LLVMGetOperand(inst, (unsigned)k);
            if (!op)
                continue;
            if (LLVMValueIsBasicBlock(op)) {
                /* a branch to a barrier, this region's own included, ends
                 * the region */
                LLVMBasicBlockRef to = LLVMValueAsBasicBlock(op);
                LLVMBasicBlockRef target =
                    is_barrier_block(r, to) ? exit_block(&c, to) : clone_block(&c, to);
                LLVMSetOperand(inst, (unsigned)k, LLVMBasicBlockAsValue(target));
            } else {
                LLVMValueRef now = mapped(&c, op);
                if (now != op)
                    LLVMSetOperand(inst, (unsigned)k, now);
            }
        }
    }
    r->failed |= !cc_context_scopes_apply(r->scopes, c.fn, arrays.items);
    free(arrays.items);
    for (size_t i = 0; i < c.cloned.count; i++) {
        LLVMValueRef inst = c.cloned.items[i];
        LLVMValueRef slot = LLVMIsAStoreInst(inst) ? map_get(&c.publish, LLVMGetOperand(inst, 1))
                                                   : NULL;
        if (slot) {
            LLVMPositionBuilderBefore(r->b, LLVMGetNextInstruction(inst));
            LLVMBuildStore(r->b, LLVMGetOperand(inst, 0), slot);
        }
    }
    r->may_mix |= c.returns && c.continues;
    map_free(&c.values);
    map_free(&c.exits);
    map_free(&c.publish);
    free(c.cloned.items);
    return c.fn;
}

LLVMValueRef cc_build_regions(LLVMModuleRef module, LLVMValueRef wi, const char *kernel_name,
                              bool (*is_barrier)(LLVMValueRef call), bool *unsuitable,
                              size_t *per_item, struct cc_log *log)
{
    *unsuitable = false;
    *per_item = 0;
    struct regions r = {0};
    r.module = module;
    r.context = LLVMGetModuleContext(module);
    r.layout = LLVMGetModuleDataLayout(module);
    r.wi = wi;
    r.prologue = LLVMGetEntryBasicBlock(wi);
    r.is_barrier = is_barrier;
    r.b = LLVMCreateBuilderInContext(r.context);
    r.i8 = LLVMInt8TypeInContext(r.context);
    r.i32 = LLVMInt32TypeInContext(r.context);
    r.i64 = LLVMInt64TypeInContext(r.context);
    r.ptr = LLVMPointerTypeInContext(r.context, 0);
    LLVMValueRef wg = NULL, *regions = NULL;
    LLVMTypeRef *params = NULL;
    split_at_barriers(&r);
    r.failed |= !cc_find_divergent(wi, r.prologue, &r.divergent, &r.num_divergent);
    r.all_divergent = getenv("CPUCL_NO_UNIFORM") != NULL;
    cc_demote_values(&r);
    find_regions(&r);
    collect_shared(&r);

    if (r.failed)
        goto out;
    r.blocks = calloc(r.num_regions, sizeof *r.blocks);
    r.reenters = calloc(r.num_regions, sizeof *r.reenters);
    regions = calloc(r.num_regions, sizeof *regions);
    if (!r.blocks || !r.reenters || !regions) {
        r.failed = true;
        goto out;
    }
    for (unsigned j = 0; j < r.num_regions && !r.failed; j++)
        collect_blocks(&r, j);
    if (!r.failed)
        find_reentry(&r);
    if (!r.failed)
        place_allocas(&r);
    size_t kept_arrays = 0;
    for (size_t i = 0; i < r.allocas.count; i++)
        kept_arrays += map_get(&r.kept, r.allocas.items[i]) != NULL;
    r.failed |= !cc_context_scopes_make(r.context, kernel_name, kept_arrays, &r.scopes);
    /* each region's arguments: the fixed ones, the prologue's values, the
     * group's uniform values */
    r.first_group_param = 8 + (r.clone_prologue ? 0 : (unsigned)r.shared.count);
    params = malloc((r.first_group_param + r.group_allocas.count + 1) * sizeof *params);
    if (!params) {
        r.failed = true;
        goto out;
    }
    LLVMTypeRef fixed[8] = {r.ptr, r.ptr, r.i64, r.i64, r.i64, r.ptr, r.i64, r.i64};
    memcpy(params, fixed, sizeof fixed);
    for (unsigned i = 8; i < r.first_group_param; i++)
        params[i] = LLVMTypeOf(r.shared.items[i - 8]);
    for (size_t g = 0; g < r.group_allocas.count; g++)
        params[r.first_group_param + g] = LLVMGetAllocatedType(r.group_allocas.items[g]);
    r.region_type = LLVMFunctionType(
        r.i32, params, r.first_group_param + (unsigned)r.group_allocas.count, 0);
    for (unsigned j = 0; j < r.num_regions && !r.failed; j++)
        regions[j] = build_region(&r, j, kernel_name);
    if (r.failed)
        goto out;
    char *name = cc_wg_function_name(kernel_name);
    if (!name) {
        r.failed = true;
        goto out;
    }
    wg = cc_region_loops_function(&r, regions, name, wi);
    free(name);
    if (!r.failed)
        *per_item = r.per_item;
    if (getenv("CPUCL_REGIONS"))
        fprintf(stderr,
                "cpucl: kernel %s: %u regions, %zu bytes per work-item, %zu for the group\n",
                kernel_name, r.num_regions, r.per_item, r.uniform_size);
out:
    if (r.failed && r.too_many) {
        *unsuitable = true;
        wg = NULL;
    } else if (r.failed) {
        cc_log_printf(log, "error: kernel '%s': out of memory splitting it at its barriers\n",
                      kernel_name);
        wg = NULL;
    }
    for (unsigned j = 0; r.blocks && j < r.num_regions; j++)
        map_free(&r.blocks[j]);
    free(r.blocks), free(r.reenters), free(r.leads_to), free(regions), free(params);
    free(r.shared.items);
    free(r.group_allocas.items);
    map_free(&r.region_of_start);
    map_free(&r.kept);
    cc_context_scopes_free(r.scopes);
    map_free(&r.group_slots);
    map_free(&r.uniform_slots);
    map_free(&r.new_divergent);
    map_free(&r.heights);
    free(r.divergent);
    free(r.allocas.items);
    LLVMDisposeBuilder(r.b);
    return wg;
}
