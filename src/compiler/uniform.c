/* uniform.c - which values of a work-item function can differ between the
 * work-items of a group (divergence analysis), for regions.c: a value that
 * is the same for all of them and lives across a barrier is kept once, not
 * once per work-item.
 *
 * The work-item function's parameters 2-4 are the local ids: divergent.
 * So is every load outside the prologue (memory may differ per item, and a
 * work-item's own private memory does), every call that is not an
 * intrinsic, every alloca (its address is the item's own), and every value
 * computed from a divergent one. Control flow spreads it (sync
 * dependence): a conditional branch on a divergent value sends work-items
 * different ways until its immediate post-dominator, so a phi there or in
 * between is divergent, and so is a value defined in between and used
 * after (a loop the work-items leave at different iterations). Repeated
 * until nothing changes. Post-dominators come from the classic iterative
 * bit-set equations; kernels are small enough.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/internal.h"
#include "compiler/ptrmap.h"

struct cfg {
    LLVMBasicBlockRef *blocks;
    struct map index; /* block -> its number + 1 */
    unsigned n, words;
    unsigned *num_succ, **succ;
    uint64_t *postdom; /* n rows of `words` words */
};

static unsigned block_index(const struct cfg *g, LLVMBasicBlockRef bb)
{
    uintptr_t i = (uintptr_t)map_get(&g->index, bb);
    return i ? (unsigned)(i - 1) : g->n;
}

static bool build_cfg(LLVMValueRef fn, struct cfg *g)
{
    g->n = LLVMCountBasicBlocks(fn);
    g->words = (g->n + 63) / 64;
    g->blocks = malloc(g->n * sizeof *g->blocks);
    g->num_succ = calloc(g->n, sizeof *g->num_succ);
    g->succ = calloc(g->n, sizeof *g->succ);
    g->postdom = malloc((size_t)g->n * g->words * sizeof *g->postdom);
    if (!g->blocks || !g->num_succ || !g->succ || !g->postdom)
        return false;
    LLVMGetBasicBlocks(fn, g->blocks);
    for (unsigned i = 0; i < g->n; i++)
        if (!map_put(&g->index, g->blocks[i], (void *)(uintptr_t)(i + 1)))
            return false;
    for (unsigned i = 0; i < g->n; i++) {
        LLVMValueRef term = LLVMGetBasicBlockTerminator(g->blocks[i]);
        unsigned count = term ? LLVMGetNumSuccessors(term) : 0;
        g->succ[i] = malloc((count ? count : 1) * sizeof **g->succ);
        if (!g->succ[i])
            return false;
        for (unsigned s = 0; s < count; s++)
            g->succ[i][s] = block_index(g, LLVMGetSuccessor(term, s));
        g->num_succ[i] = count;
    }
    /* postdom(b) = {b} + the intersection over successors; exits {b} */
    for (unsigned i = 0; i < g->n; i++)
        memset(g->postdom + (size_t)i * g->words, g->num_succ[i] ? 0xff : 0,
               g->words * sizeof *g->postdom);
    for (unsigned i = 0; i < g->n; i++)
        g->postdom[(size_t)i * g->words + i / 64] |= 1ull << (i % 64);
    bool changed = true;
    uint64_t *row = malloc(g->words * sizeof *row);
    if (!row)
        return false;
    while (changed) {
        changed = false;
        for (unsigned k = g->n; k-- > 0;) {
            if (!g->num_succ[k])
                continue;
            memset(row, 0xff, g->words * sizeof *row);
            for (unsigned s = 0; s < g->num_succ[k]; s++)
                for (unsigned w = 0; w < g->words; w++)
                    row[w] &= g->postdom[(size_t)g->succ[k][s] * g->words + w];
            row[k / 64] |= 1ull << (k % 64);
            uint64_t *now = g->postdom + (size_t)k * g->words;
            if (memcmp(row, now, g->words * sizeof *row)) {
                memcpy(now, row, g->words * sizeof *row);
                changed = true;
            }
        }
    }
    free(row);
    return true;
}

static void free_cfg(struct cfg *g)
{
    for (unsigned i = 0; g->succ && i < g->n; i++)
        free(g->succ[i]);
    free(g->blocks), free(g->num_succ), free(g->succ), free(g->postdom);
    map_free(&g->index);
}

static bool postdominates(const struct cfg *g, unsigned p, unsigned b)
{
    return g->postdom[(size_t)b * g->words + p / 64] >> (p % 64) & 1;
}

static unsigned count_bits(const uint64_t *row, unsigned words)
{
    unsigned n = 0;
    for (unsigned w = 0; w < words; w++)
        n += (unsigned)__builtin_popcountll(row[w]);
    return n;
}

/* The immediate post-dominator of b, or g->n when b has none (a path
 * that never leaves the function). */
static unsigned ipdom(const struct cfg *g, unsigned b)
{
    unsigned want = count_bits(g->postdom + (size_t)b * g->words, g->words) - 1;
    for (unsigned p = 0; p < g->n; p++)
        if (p != b && postdominates(g, p, b) &&
            count_bits(g->postdom + (size_t)p * g->words, g->words) == want)
            return p;
    return g->n;
}

/* --- the set of divergent values --- */

struct set {
    struct map members;
    struct cc_values list; /* the members in the order they were added */
};

static bool set_has(const struct set *s, LLVMValueRef v)
{
    return map_get(&s->members, v) != NULL;
}

static bool set_add(struct set *s, LLVMValueRef v)
{
    return cc_values_add(&s->list, v) && map_put(&s->members, v, (void *)1);
}

static bool is_seed(LLVMValueRef inst, LLVMBasicBlockRef prologue)
{
    if (LLVMIsAAllocaInst(inst) || LLVMIsAAtomicRMWInst(inst) || LLVMIsAAtomicCmpXchgInst(inst))
        return true;
    if (LLVMIsALoadInst(inst))
        return LLVMGetInstructionParent(inst) != prologue;
    if (LLVMIsACallInst(inst)) {
        LLVMValueRef callee = LLVMGetCalledValue(inst);
        return !(LLVMIsAFunction(callee) && LLVMGetIntrinsicID(callee));
    }
    return false;
}

static bool divergent_operand(const struct set *d, LLVMValueRef inst, LLVMValueRef fn)
{
    int n = LLVMGetNumOperands(inst);
    for (int i = 0; i < n; i++) {
        LLVMValueRef op = LLVMGetOperand(inst, (unsigned)i);
        if (!op)
            continue;
        for (unsigned p = 2; p < 5; p++)
            if (op == LLVMGetParam(fn, p))
                return true;
        if (LLVMIsAInstruction(op) && set_has(d, op))
            return true;
    }
    return false;
}

/* A loop counter that loops.cpp found the same for every work-item that
 * runs its loop (they run it in lockstep behind the barrier it added at
 * the loop's head): kept once for the group like a uniform value. The
 * work-items that do not run the loop have left for good, so they never
 * read it. */
static bool is_lockstep(LLVMValueRef inst)
{
    return LLVMIsAPHINode(inst) &&
           LLVMGetMetadata(inst,
                           LLVMGetMDKindIDInContext(LLVMGetTypeContext(LLVMTypeOf(inst)),
                                                    CC_LOCKSTEP_KIND, sizeof CC_LOCKSTEP_KIND - 1));
}

static int compare_pointers(const void *a, const void *b)
{
    uintptr_t x = (uintptr_t) * (const LLVMValueRef *)a, y = (uintptr_t) * (const LLVMValueRef *)b;
    return x < y ? -1 : x > y;
}

/* The analysis; `in_region`, when not NULL, gets per block (in function
 * order) whether it lies between a divergent branch and its immediate
 * post-dominator, where only some work-items go. */
static bool analyse(LLVMValueRef fn, LLVMBasicBlockRef prologue, LLVMValueRef **divergent,
                    size_t *count, bool *in_region)
{
    struct cfg g = {0};
    struct set d = {0};
    bool ok = build_cfg(fn, &g);
    bool *branch_done = ok ? calloc(g.n, sizeof *branch_done) : NULL;
    bool *join = ok ? calloc(g.n, sizeof *join) : NULL;
    bool *inside = ok ? calloc(g.n, sizeof *inside) : NULL;
    unsigned *stack = ok ? malloc((g.n + 1) * sizeof *stack) : NULL;
    ok = ok && branch_done && join && inside && stack;
    bool changed = ok;
    while (changed && ok) {
        changed = false;
        for (unsigned b = 0; b < g.n && ok; b++)
            for (LLVMValueRef inst = LLVMGetFirstInstruction(g.blocks[b]); inst;
                 inst = LLVMGetNextInstruction(inst)) {
                if (set_has(&d, inst) || is_lockstep(inst))
                    continue;
                bool diverges = is_seed(inst, prologue) || divergent_operand(&d, inst, fn) ||
                                (LLVMIsAPHINode(inst) && join[b]);
                if (diverges) {
                    ok &= set_add(&d, inst);
                    changed = true;
                }
            }
        /* branches on divergent conditions, each once */
        for (unsigned b = 0; b < g.n && ok; b++) {
            LLVMValueRef term = LLVMGetBasicBlockTerminator(g.blocks[b]);
            if (branch_done[b] || !term || g.num_succ[b] < 2)
                continue;
            LLVMValueRef condition = LLVMGetOperand(term, 0);
            bool on_divergent = LLVMIsAInstruction(condition) ? set_has(&d, condition) : false;
            for (unsigned p = 2; p < 5; p++)
                on_divergent |= condition == LLVMGetParam(fn, p);
            if (!on_divergent)
                continue;
            branch_done[b] = true;
            changed = true;
            /* the blocks between the branch and its immediate
             * post-dominator, which joins the paths again */
            unsigned stop = ipdom(&g, b), top = 0;
            memset(inside, 0, g.n * sizeof *inside);
            for (unsigned s = 0; s < g.num_succ[b]; s++)
                if (g.succ[b][s] != stop && !inside[g.succ[b][s]])
                    inside[stack[top++] = g.succ[b][s]] = true;
            while (top) {
                unsigned x = stack[--top];
                for (unsigned s = 0; s < g.num_succ[x]; s++) {
                    unsigned y = g.succ[x][s];
                    if (y != stop && y < g.n && !inside[y])
                        inside[stack[top++] = y] = true;
                }
            }
            if (stop < g.n)
                join[stop] = true;
            for (unsigned x = 0; x < g.n; x++) {
                if (!inside[x])
                    continue;
                join[x] = true;
                if (in_region)
                    in_region[x] = true;
                /* values made on only some work-items' paths, or in a
                 * loop they leave at different times, and used after */
                for (LLVMValueRef inst = LLVMGetFirstInstruction(g.blocks[x]); inst && ok;
                     inst = LLVMGetNextInstruction(inst))
                    for (LLVMUseRef u = LLVMGetFirstUse(inst); u; u = LLVMGetNextUse(u)) {
                        unsigned where = block_index(&g, LLVMGetInstructionParent(LLVMGetUser(u)));
                        if (where < g.n && !inside[where] && !set_has(&d, inst) &&
                            !is_lockstep(inst)) {
                            ok &= set_add(&d, inst);
                            break;
                        }
                    }
            }
        }
    }
    free(branch_done), free(join), free(inside), free(stack);
    free_cfg(&g);
    map_free(&d.members);
    if (!ok) {
        free(d.list.items);
        return false;
    }
    if (d.list.count) /* no items: no array (qsort wants one) */
        qsort(d.list.items, d.list.count, sizeof *d.list.items, compare_pointers);
    *divergent = d.list.items;
    *count = d.list.count;
    return true;
}

bool cc_is_divergent(LLVMValueRef *divergent, size_t count, LLVMValueRef value)
{
    if (!count || !LLVMIsAInstruction(value))
        return false;
    return bsearch(&value, divergent, count, sizeof *divergent, compare_pointers) != NULL;
}

bool cc_find_divergent(LLVMValueRef fn, LLVMBasicBlockRef prologue, LLVMValueRef **divergent,
                       size_t *count)
{
    return analyse(fn, prologue, divergent, count, NULL);
}

bool cc_all_work_items_reach(LLVMValueRef fn, LLVMBasicBlockRef prologue, LLVMValueRef *calls,
                             size_t num_calls)
{
    unsigned n = LLVMCountBasicBlocks(fn);
    bool *in_region = calloc(n ? n : 1, sizeof *in_region);
    LLVMBasicBlockRef *blocks = malloc((n ? n : 1) * sizeof *blocks);
    LLVMValueRef *divergent = NULL;
    size_t count = 0;
    bool all = in_region && blocks && analyse(fn, prologue, &divergent, &count, in_region);
    if (all)
        LLVMGetBasicBlocks(fn, blocks);
    for (size_t c = 0; c < num_calls && all; c++)
        for (unsigned b = 0; b < n; b++)
            if (blocks[b] == LLVMGetInstructionParent(calls[c]) && in_region[b])
                all = false;
    free(in_region), free(blocks), free(divergent);
    return all;
}
