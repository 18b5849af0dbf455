/* region_loops.c - the work-group function of a kernel split at its
 * barriers (regions.c): for each region, z/y/x loops over the group's
 * work-items calling the region's function (inlined by the optimiser, so
 * that the x loop is the one the loop vectorizer runs across work-items),
 * then a switch to the region after the barrier the work-items reached.
 *
 *   void __cpucl_wg_K(const void *args, struct cc_wg_state *state)
 *
 * gets the context (state->context: n * per_item bytes for the group, the
 * group's uniform values first), runs the prologue once when no value of
 * it depends on the work-item, and keeps each work-item's next region in
 * a status array when work-items may part ways (one returned while
 * others went on to a barrier). A kernel of many regions has each
 * region's loops in a function of their own (below).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/DebugInfo.h>

#include "compiler/internal.h"
#include "compiler/parallel.h"
#include "compiler/regions.h"
#include "compiler/workgroup.h"

static LLVMValueRef load_state(struct regions *r, LLVMValueRef state, LLVMTypeRef type,
                               size_t offset)
{
    LLVMValueRef index = LLVMConstInt(r->i64, offset, 0);
    LLVMValueRef at = LLVMBuildInBoundsGEP2(r->b, r->i8, state, &index, 1, "");
    LLVMValueRef value = LLVMBuildLoad2(r->b, type, at, "");
    LLVMSetAlignment(value, 8);
    return value;
}

/* Each region runs in for (z) for (y) for (x), counters in allocas that
 * SROA turns into the phis of bottom-tested loops (every dimension of a
 * group has an item). */
/* What a region's work-item loops need from the work-group function. */
struct group_loop {
    struct regions *r;
    LLVMValueRef fn, args, state, ctx, n, status, next_region, returned;
    LLVMValueRef *call_args;
    unsigned num_args;
    LLVMValueRef size[3], counters[3];
};

/* A new internal, noinline function `name` of `type`, with the string
 * attributes (the target's) of `attributes_from`. */
static LLVMValueRef noinline_function(struct regions *r, const char *name, LLVMTypeRef type,
                                      LLVMValueRef attributes_from)
{
    LLVMValueRef fn = LLVMAddFunction(r->module, name, type);
    LLVMSetLinkage(fn, LLVMInternalLinkage);
    cc_copy_string_attributes(attributes_from, fn);
    LLVMAddAttributeAtIndex(
        fn, LLVMAttributeFunctionIndex,
        LLVMCreateEnumAttribute(r->context, LLVMGetEnumAttributeKindForName("noinline", 8), 0));
    return fn;
}

/* Parameters 1..count of fn (1 is the first) are noalias. */
static void noalias_params(struct regions *r, LLVMValueRef fn, unsigned count)
{
    unsigned noalias = LLVMGetEnumAttributeKindForName("noalias", 7);
    for (unsigned i = 1; i <= count; i++)
        LLVMAddAttributeAtIndex(fn, i, LLVMCreateEnumAttribute(r->context, noalias, 0));
}

/* The status array in the group's context: each work-item's next region
 * (regions.c places it). */
static LLVMValueRef status_array(struct regions *r, LLVMValueRef ctx, LLVMValueRef n)
{
    LLVMValueRef index = LLVMBuildMul(r->b, n, LLVMConstInt(r->i64, r->status_offset, 0), "");
    index = LLVMBuildAdd(r->b, index, LLVMConstInt(r->i64, r->item_base, 0), "");
    return LLVMBuildInBoundsGEP2(r->b, r->i8, ctx, &index, 1, "status");
}

/* A noinline wrapper of a region function (which is always inlined). */
static LLVMValueRef out_of_line(struct regions *r, LLVMValueRef region)
{
    size_t length;
    const char *name = LLVMGetValueName2(region, &length);
    char wrapper_name[160];
    snprintf(wrapper_name, sizeof wrapper_name, "%.140s.checked", name);
    LLVMTypeRef type = LLVMGlobalGetValueType(region);
    LLVMValueRef fn = noinline_function(r, wrapper_name, type, region);
    unsigned n = LLVMCountParams(fn);
    LLVMValueRef *args = malloc((n ? n : 1) * sizeof *args);
    if (!args) {
        r->failed = true;
        return region;
    }
    LLVMGetParams(fn, args);
    LLVMBuilderRef b = LLVMCreateBuilderInContext(r->context);
    LLVMPositionBuilderAtEnd(b, LLVMAppendBasicBlockInContext(r->context, fn, "entry"));
    LLVMBuildRet(b, LLVMBuildCall2(b, type, region, args, n, ""));
    LLVMDisposeBuilder(b);
    free(args);
    return fn;
}

/* z/y/x loops calling region `j` for each work-item (only those whose
 * status is j when `checked`), recording where each stopped, the furthest
 * region reached and whether one returned; then on to `after`. Returns the
 * first block; *latch gets the x loop's branch, and the status accesses
 * join `accesses`. */
static LLVMBasicBlockRef emit_loop(struct group_loop *g, LLVMValueRef region, unsigned j,
                                   bool checked, LLVMBasicBlockRef after,
                                   struct cc_values *accesses, LLVMValueRef *latch_branch)
{
    struct regions *r = g->r;
    LLVMTypeRef i1 = LLVMInt1TypeInContext(r->context);
    LLVMBasicBlockRef start = LLVMAppendBasicBlockInContext(r->context, g->fn, "loops");
    LLVMBasicBlockRef head[3], latch[3];
    LLVMPositionBuilderAtEnd(r->b, start);
    for (int d = 2; d >= 0; d--) {
        LLVMBuildStore(r->b, LLVMConstInt(r->i64, 0, 0), g->counters[d]);
        head[d] = LLVMAppendBasicBlockInContext(r->context, g->fn, d ? "items" : "items.x");
        LLVMBuildBr(r->b, head[d]);
        LLVMPositionBuilderAtEnd(r->b, head[d]);
    }
    for (int d = 0; d < 3; d++)
        latch[d] = LLVMAppendBasicBlockInContext(r->context, g->fn, d ? "next" : "next.x");
    LLVMValueRef id[3];
    for (int d = 0; d < 3; d++)
        id[d] = LLVMBuildLoad2(r->b, r->i64, g->counters[d], "");
    LLVMValueRef lin = LLVMBuildMul(r->b, id[2], g->size[1], "");
    lin = LLVMBuildAdd(r->b, lin, id[1], "");
    lin = LLVMBuildMul(r->b, lin, g->size[0], "");
    lin = LLVMBuildAdd(r->b, lin, id[0], "lin");
    LLVMValueRef my_status = LLVMBuildInBoundsGEP2(r->b, r->i32, g->status, &lin, 1, "");
    LLVMBasicBlockRef run = LLVMAppendBasicBlockInContext(r->context, g->fn, "run");
    if (checked) {
        LLVMValueRef where = LLVMBuildLoad2(r->b, r->i32, my_status, "");
        r->failed |= !cc_values_add(accesses, where);
        LLVMValueRef here = LLVMBuildICmp(r->b, LLVMIntEQ, where, LLVMConstInt(r->i32, j, 0), "");
        LLVMBuildCondBr(r->b, here, run, latch[0]);
    } else {
        LLVMBuildBr(r->b, run);
    }
    LLVMPositionBuilderAtEnd(r->b, run);
    LLVMValueRef fixed[8] = {g->args, g->state, id[0], id[1], id[2], g->ctx, g->n, lin};
    memcpy(g->call_args, fixed, sizeof fixed);
    /* The checked loops run only in the rare mixed case: they call the
     * region out of line (one scalar copy), so that compile time and code
     * size go to the fast loops. */
    LLVMValueRef callee = checked ? out_of_line(r, region) : region;
    LLVMValueRef to =
        LLVMBuildCall2(r->b, LLVMGlobalGetValueType(region), callee, g->call_args, g->num_args, "");
    if (r->may_mix)
        r->failed |= !cc_values_add(accesses, LLVMBuildStore(r->b, to, my_status));
    LLVMValueRef so_far = LLVMBuildLoad2(r->b, r->i32, g->next_region, "");
    LLVMValueRef more = LLVMBuildICmp(r->b, LLVMIntSGT, to, so_far, "");
    LLVMBuildStore(r->b, LLVMBuildSelect(r->b, more, to, so_far, ""), g->next_region);
    if (r->may_mix) {
        LLVMValueRef gone = LLVMBuildICmp(r->b, LLVMIntSLT, to, LLVMConstInt(r->i32, 0, 0), "");
        LLVMBuildStore(r->b, LLVMBuildOr(r->b, LLVMBuildLoad2(r->b, i1, g->returned, ""), gone, ""),
                       g->returned);
    }
    LLVMBuildBr(r->b, latch[0]);
    for (int d = 0; d < 3; d++) {
        LLVMPositionBuilderAtEnd(r->b, latch[d]);
        LLVMValueRef now = d ? LLVMBuildLoad2(r->b, r->i64, g->counters[d], "") : id[0];
        LLVMValueRef bumped = LLVMBuildNUWAdd(r->b, now, LLVMConstInt(r->i64, 1, 0), "");
        LLVMBuildStore(r->b, bumped, g->counters[d]);
        LLVMValueRef again = LLVMBuildICmp(r->b, LLVMIntULT, bumped, g->size[d], "");
        LLVMValueRef br = LLVMBuildCondBr(r->b, again, head[d], d < 2 ? latch[d + 1] : after);
        if (d == 0)
            *latch_branch = br;
        else
            cc_no_runtime_unroll(br);
    }
    return start;
}

/* Region j's loops in g->fn, entered from the builder's block and going
 * on to `after` once every work-item ran: one loop over all of them, and
 * when some may have returned early while others went on (outside the
 * spec, but common) also one over those whose status says this region,
 * taken when `mixed`. */
static void emit_loops(struct group_loop *g, LLVMValueRef region, unsigned j, LLVMValueRef mixed,
                       LLVMBasicBlockRef after)
{
    struct regions *r = g->r;
    LLVMBasicBlockRef entry = LLVMGetInsertBlock(r->b);
    /* every access of the region, and the status array's */
    struct cc_values accesses = {0};
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(region); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef inst = LLVMGetFirstInstruction(bb); inst;
             inst = LLVMGetNextInstruction(inst))
            if (cc_parallel_access(inst))
                r->failed |= !cc_values_add(&accesses, inst);
    LLVMValueRef latches[2];
    unsigned num_latches = 0;
    LLVMBasicBlockRef all =
        emit_loop(g, region, j, false, after, &accesses, &latches[num_latches++]);
    if (j == 0 || !r->may_mix) {
        LLVMPositionBuilderAtEnd(r->b, entry);
        LLVMBuildBr(r->b, all);
    } else {
        LLVMBasicBlockRef some =
            emit_loop(g, region, j, true, after, &accesses, &latches[num_latches++]);
        LLVMPositionBuilderAtEnd(r->b, entry);
        LLVMBuildCondBr(r->b, mixed, some, all);
    }
    cc_mark_parallel_loops(latches, num_latches, accesses.items, (unsigned)accesses.count);
    free(accesses.items);
}

/* Past this many regions (CPUCL_REGION_FUNCTIONS, read at every build;
 * 0 for every kernel, as the tests do), each region's loops go to a
 * function of their own. Inlined one after the other into the work-group
 * function, the loops of a kernel with hundreds of barriers made O3 and
 * code generation superlinear in the barriers (SCEV walks the chain of
 * dominating blocks for each loop): 800 barriers in straight code took 72
 * s of O3 and 16 of code generation, against 6 and 6 in functions of
 * their own. The functions do not see the constants a work-group function
 * is specialized for (a required local size, a launch copy's facts: the
 * bench's sgemm_reqd 19 -> 77 ms with every kernel's regions out of line),
 * so they wait until the compile time matters (128 regions: about 2 s of
 * O3 and code generation inlined). */
static unsigned max_inline_regions(void)
{
    const char *setting = getenv("CPUCL_REGION_FUNCTIONS");
    return setting && *setting ? (unsigned)strtoul(setting, NULL, 10) : 128;
}

/* Region j's loops in a noinline function of their own,
 *
 *   i32 loops(args, state, ctx, n, size x, y, z, i1 mixed, ptr returned,
 *             the region's other arguments)
 *
 * returning the furthest region reached (the work-group function's
 * next_region) and storing whether a work-item returned; called from the
 * builder's block, going on to `after`. */
static void call_outlined(struct group_loop *g, LLVMValueRef region, unsigned j, LLVMValueRef mixed,
                          LLVMValueRef copy_attributes_from, LLVMBasicBlockRef after)
{
    struct regions *r = g->r;
    enum { FIXED = 9 };
    unsigned extra = g->num_args - 8, count = FIXED + extra;
    LLVMTypeRef *params = malloc(count * sizeof *params);
    LLVMTypeRef *region_params = malloc(g->num_args * sizeof *region_params);
    LLVMValueRef *values = malloc(count * sizeof *values);
    LLVMValueRef *call_args = malloc(g->num_args * sizeof *call_args);
    if (!params || !region_params || !values || !call_args) {
        r->failed = true;
        goto out;
    }
    LLVMTypeRef i1 = LLVMInt1TypeInContext(r->context);
    LLVMTypeRef fixed[FIXED] = {r->ptr, r->ptr, r->ptr, r->i64, r->i64, r->i64, r->i64, i1, r->ptr};
    memcpy(params, fixed, sizeof fixed);
    LLVMGetParamTypes(r->region_type, region_params);
    for (unsigned i = 0; i < extra; i++)
        params[FIXED + i] = region_params[8 + i];
    size_t length;
    const char *region_name = LLVMGetValueName2(region, &length);
    char name[160];
    snprintf(name, sizeof name, "%.140s.loops", region_name);
    LLVMValueRef fn = noinline_function(r, name, LLVMFunctionType(r->i32, params, count, 0),
                                        copy_attributes_from);
    /* as in the work-group function: the argument block and the state are
     * not written while the group runs, and the context is the group's own
     * (the status array is reached from it here) */
    noalias_params(r, fn, 3);

    /* the call, in the work-group function */
    values[0] = g->args, values[1] = g->state, values[2] = g->ctx, values[3] = g->n;
    for (int d = 0; d < 3; d++)
        values[4 + d] = g->size[d];
    values[7] = mixed, values[8] = g->returned;
    for (unsigned i = 0; i < extra; i++)
        values[FIXED + i] = g->call_args[8 + i];
    LLVMValueRef reached =
        LLVMBuildCall2(r->b, LLVMGlobalGetValueType(fn), fn, values, count, "reached");
    LLVMBuildStore(r->b, reached, g->next_region);
    LLVMBuildBr(r->b, after);
    LLVMBasicBlockRef back = LLVMGetInsertBlock(r->b);

    /* the function: its own counters and results, then the loops */
    struct group_loop inner = *g;
    inner.fn = fn;
    inner.args = LLVMGetParam(fn, 0), inner.state = LLVMGetParam(fn, 1);
    inner.ctx = LLVMGetParam(fn, 2), inner.n = LLVMGetParam(fn, 3);
    for (int d = 0; d < 3; d++)
        inner.size[d] = LLVMGetParam(fn, 4 + (unsigned)d);
    inner.call_args = call_args;
    for (unsigned i = 0; i < extra; i++)
        call_args[8 + i] = LLVMGetParam(fn, FIXED + i);
    LLVMBasicBlockRef entry = LLVMAppendBasicBlockInContext(r->context, fn, "entry");
    LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(r->context, fn, "done");
    LLVMPositionBuilderAtEnd(r->b, entry);
    inner.next_region = LLVMBuildAlloca(r->b, r->i32, "next");
    inner.returned = LLVMBuildAlloca(r->b, i1, "returned");
    for (int d = 0; d < 3; d++)
        inner.counters[d] = LLVMBuildAlloca(r->b, r->i64, "");
    LLVMBuildStore(r->b, LLVMConstInt(r->i32, (unsigned long long)-1, 1), inner.next_region);
    LLVMBuildStore(r->b, LLVMConstInt(i1, 0, 0), inner.returned);
    inner.status = status_array(r, inner.ctx, inner.n);
    emit_loops(&inner, region, j, LLVMGetParam(fn, 7), done);
    LLVMPositionBuilderAtEnd(r->b, done);
    LLVMBuildStore(r->b, LLVMBuildLoad2(r->b, i1, inner.returned, ""), LLVMGetParam(fn, 8));
    LLVMBuildRet(r->b, LLVMBuildLoad2(r->b, r->i32, inner.next_region, ""));
    LLVMPositionBuilderAtEnd(r->b, back);
out:
    free(params), free(region_params), free(values), free(call_args);
}

LLVMValueRef cc_region_loops_function(struct regions *r, LLVMValueRef *regions, const char *wg_name,
                                      LLVMValueRef copy_attributes_from)
{
    LLVMTypeRef params[2] = {r->ptr, r->ptr};
    LLVMValueRef fn = LLVMAddFunction(
        r->module, wg_name, LLVMFunctionType(LLVMVoidTypeInContext(r->context), params, 2, 0));
    cc_copy_string_attributes(copy_attributes_from, fn);
    LLVMValueRef args = LLVMGetParam(fn, 0), state = LLVMGetParam(fn, 1);
    /* Neither block is written while the group runs. */
    noalias_params(r, fn, 2);
    LLVMBasicBlockRef entry = LLVMAppendBasicBlockInContext(r->context, fn, "entry");
    LLVMPositionBuilderAtEnd(r->b, entry);
    size_t num_args = r->first_group_param + r->group_allocas.count;
    LLVMValueRef *call_args = calloc(num_args, sizeof *call_args);
    if (!call_args) {
        r->failed = true;
        return fn;
    }
    if (!r->clone_prologue) {
        /* the prologue, once: its values become the regions' arguments */
        struct map copies = {0};
        r->failed |= !map_put(&copies, LLVMGetParam(r->wi, 0), args) ||
                     !map_put(&copies, LLVMGetParam(r->wi, 1), state);
        for (size_t i = 0; i < r->shared.count; i++) {
            LLVMValueRef inst = r->shared.items[i], dup = LLVMInstructionClone(inst);
            LLVMInsertIntoBuilder(r->b, dup);
            LLVMInstructionSetDebugLoc(dup, NULL);
            int operands = LLVMGetNumOperands(dup);
            for (int k = 0; k < operands; k++) {
                LLVMValueRef now = map_get(&copies, LLVMGetOperand(dup, (unsigned)k));
                if (now)
                    LLVMSetOperand(dup, (unsigned)k, now);
            }
            r->failed |= !map_put(&copies, inst, dup);
            call_args[8 + i] = dup;
        }
        map_free(&copies);
    }
    LLVMValueRef size[3];
    for (int d = 0; d < 3; d++) {
        size[d] = load_state(r, state, r->i64,
                             offsetof(struct cc_wg_state, local_size) + d * sizeof(size_t));
        cc_mark_local_size(size[d]);
    }
    LLVMValueRef n = LLVMBuildMul(r->b, LLVMBuildMul(r->b, size[0], size[1], ""), size[2], "n");
    LLVMValueRef hook = load_state(r, state, r->ptr, offsetof(struct cc_wg_state, context));
    LLVMTypeRef hook_params[2] = {r->ptr, r->i64};
    LLVMValueRef hook_args[2] = {
        state, LLVMBuildAdd(r->b, LLVMBuildMul(r->b, n, LLVMConstInt(r->i64, r->per_item, 0), ""),
                            LLVMConstInt(r->i64, r->item_base, 0), "")};
    LLVMValueRef ctx = LLVMBuildCall2(r->b, LLVMFunctionType(r->ptr, hook_params, 2, 0), hook,
                                      hook_args, 2, "ctx");
    /* the context is the group's own: nothing else points into it */
    LLVMAddCallSiteAttribute(
        ctx, LLVMAttributeReturnIndex,
        LLVMCreateEnumAttribute(r->context, LLVMGetEnumAttributeKindForName("noalias", 7), 0));
    LLVMValueRef counters[3], next_region = LLVMBuildAlloca(r->b, r->i32, "next");
    for (int d = 0; d < 3; d++)
        counters[d] = LLVMBuildAlloca(r->b, r->i64, "");
    LLVMValueRef status = status_array(r, ctx, n);

    LLVMBasicBlockRef *starts = malloc(r->num_regions * sizeof *starts);
    if (!starts) {
        r->failed = true;
        free(call_args);
        return fn;
    }
    for (unsigned j = 0; j < r->num_regions; j++)
        starts[j] = LLVMAppendBasicBlockInContext(r->context, fn, "region");
    LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(r->context, fn, "done");
    LLVMPositionBuilderAtEnd(r->b, entry);
    LLVMValueRef mixed = LLVMBuildAlloca(r->b, LLVMInt1TypeInContext(r->context), "mixed");
    LLVMValueRef returned = LLVMBuildAlloca(r->b, LLVMInt1TypeInContext(r->context), "returned");
    LLVMBuildStore(r->b, LLVMConstInt(LLVMInt1TypeInContext(r->context), 0, 0), mixed);
    LLVMBuildBr(r->b, starts[0]);

    bool outlined = r->num_regions > max_inline_regions();
    struct group_loop loop = {r,
                              fn,
                              args,
                              state,
                              ctx,
                              n,
                              status,
                              next_region,
                              returned,
                              call_args,
                              (unsigned)num_args,
                              {size[0], size[1], size[2]},
                              {counters[0], counters[1], counters[2]}};
    for (unsigned j = 0; j < r->num_regions; j++) {
        LLVMPositionBuilderAtEnd(r->b, starts[j]);
        LLVMBuildStore(r->b, LLVMConstInt(r->i32, (unsigned long long)-1, 1), next_region);
        LLVMBuildStore(r->b, LLVMConstInt(LLVMInt1TypeInContext(r->context), 0, 0), returned);
        /* the group's uniform values as the region begins */
        for (size_t g = 0; g < r->group_allocas.count; g++) {
            LLVMValueRef a = r->group_allocas.items[g];
            LLVMValueRef at = LLVMConstInt(r->i64, (uintptr_t)map_get(&r->group_slots, a) - 1, 0);
            call_args[r->first_group_param + g] =
                LLVMBuildLoad2(r->b, LLVMGetAllocatedType(a),
                               LLVMBuildInBoundsGEP2(r->b, r->i8, ctx, &at, 1, ""), "");
        }
        LLVMBasicBlockRef after = LLVMAppendBasicBlockInContext(r->context, fn, "region.done");
        LLVMValueRef is_mixed = LLVMBuildLoad2(r->b, LLVMInt1TypeInContext(r->context), mixed, "");
        if (outlined)
            call_outlined(&loop, regions[j], j, is_mixed, copy_attributes_from, after);
        else
            emit_loops(&loop, regions[j], j, is_mixed, after);
        /* every item has run: go on where they stopped */
        LLVMPositionBuilderAtEnd(r->b, after);
        LLVMValueRef go = LLVMBuildLoad2(r->b, r->i32, next_region, "");
        LLVMValueRef some_returned =
            LLVMBuildLoad2(r->b, LLVMInt1TypeInContext(r->context), returned, "");
        LLVMValueRef some_went_on =
            LLVMBuildICmp(r->b, LLVMIntSGE, go, LLVMConstInt(r->i32, 0, 0), "");
        LLVMValueRef now_mixed =
            LLVMBuildOr(r->b, LLVMBuildLoad2(r->b, LLVMInt1TypeInContext(r->context), mixed, ""),
                        LLVMBuildAnd(r->b, some_returned, some_went_on, ""), "");
        LLVMBuildStore(r->b, now_mixed, mixed);
        /* only the barriers this region can stop at: a case for every
         * region after every region made the CFG quadratic in the
         * barriers, and O3's time with it (400 barriers in straight code:
         * 95 s) */
        unsigned cases = 0;
        for (unsigned k = 1; k < r->num_regions; k++)
            cases += r->leads_to[(size_t)j * r->num_regions + k];
        LLVMValueRef sw = LLVMBuildSwitch(r->b, go, done, cases);
        for (unsigned k = 1; k < r->num_regions; k++)
            if (r->leads_to[(size_t)j * r->num_regions + k])
                LLVMAddCase(sw, LLVMConstInt(r->i32, k, 0), starts[k]);
    }
    LLVMPositionBuilderAtEnd(r->b, done);
    LLVMBuildRetVoid(r->b);
    free(starts);
    free(call_args);
    return fn;
}
