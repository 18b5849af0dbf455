/* work_items.c - the calls a kernel makes to reach its work-item and
 * work-group (OpenCL C 6.13.1 get_global_id and the other work-item
 * functions, 6.5.5 to_global/to_local/to_private and get_fence, the built-in
 * library's hooks), lowered once the kernel is inlined into its work-group
 * function (workgroup.c), where the loop counters and *state are; on
 * fibers also the barriers and, after every atomic, a yield. Then the
 * sub-group size of kernels calling the non-uniform sub-group functions. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/internal.h"
#include "compiler/workgroup.h"

static bool name_starts(const char *name, size_t length, const char *prefix)
{
    size_t n = strlen(prefix);
    return length >= n && !memcmp(name, prefix, n);
}

/* Builtins that synchronise the work-items of a group (OpenCL C 6.13.8,
 * 6.13.10, 6.13.15, 6.13.16.*, and the sub-group functions of
 * cl_khr_subgroups): those the library does not define are not supported. */
static bool is_barrier_like(const char *name, size_t length)
{
    return cc_name_is(name, length, "barrier") || name_starts(name, length, "work_group_") ||
           name_starts(name, length, "sub_group_") || name_starts(name, length, "__work_group_") ||
           name_starts(name, length, "__sub_group_") ||
           cc_name_is(name, length, "async_work_group_copy") ||
           cc_name_is(name, length, "async_work_group_strided_copy") ||
           cc_name_is(name, length, "async_work_group_copy_fence") ||
           cc_name_is(name, length, "wait_group_events");
}

/* --- work-item functions (OpenCL C 6.13.1) --- */

enum query {
    Q_NONE,
    Q_GLOBAL_ID,
    Q_LOCAL_ID,
    Q_GROUP_ID,
    Q_LOCAL_SIZE,
    Q_ENQUEUED_LOCAL_SIZE,
    Q_GLOBAL_SIZE,
    Q_NUM_GROUPS,
    Q_GLOBAL_OFFSET,
    Q_WORK_DIM,
    Q_GLOBAL_LINEAR_ID,
    Q_LOCAL_LINEAR_ID,
};

static enum query query_of(const char *mangled)
{
    static const struct {
        const char *name;
        enum query query;
    } table[] = {
        {"_Z13get_global_idj", Q_GLOBAL_ID},
        {"_Z12get_local_idj", Q_LOCAL_ID},
        {"_Z12get_group_idj", Q_GROUP_ID},
        {"_Z14get_local_sizej", Q_LOCAL_SIZE},
        {"_Z23get_enqueued_local_sizej", Q_ENQUEUED_LOCAL_SIZE},
        {"_Z15get_global_sizej", Q_GLOBAL_SIZE},
        {"_Z14get_num_groupsj", Q_NUM_GROUPS},
        {"_Z17get_global_offsetj", Q_GLOBAL_OFFSET},
        {"_Z12get_work_dimv", Q_WORK_DIM},
        {"_Z20get_global_linear_idv", Q_GLOBAL_LINEAR_ID},
        {"_Z19get_local_linear_idv", Q_LOCAL_LINEAR_ID},
    };
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        if (!strcmp(mangled, table[i].name))
            return table[i].query;
    return Q_NONE;
}

/* The value of a per-dimension query in dimension d (0..2), built at b. */
static LLVMValueRef query_value(LLVMBuilderRef b, const struct wg *wg, enum query query, int d)
{
    switch (query) {
    case Q_GLOBAL_ID: {
        LLVMValueRef base = LLVMBuildMul(b, wg->group_id[d], wg->enqueued_local_size[d], "");
        base = LLVMBuildAdd(b, base, wg->global_offset[d], "");
        return LLVMBuildAdd(b, base, wg->id[d], "global_id");
    }
    case Q_LOCAL_ID: return wg->id[d];
    case Q_GROUP_ID: return wg->group_id[d];
    case Q_LOCAL_SIZE: return wg->local_size[d];
    case Q_ENQUEUED_LOCAL_SIZE: return wg->enqueued_local_size[d];
    case Q_GLOBAL_SIZE: return wg->global_size[d];
    case Q_NUM_GROUPS: return wg->num_groups[d];
    case Q_GLOBAL_OFFSET: return wg->global_offset[d];
    default: return NULL;
    }
}

/* 6.13.1: for a dimension index outside 0..get_work_dim()-1 the ids and the
 * offset are 0 and the sizes 1. The state holds exactly those values for
 * the unused dimensions below 3, so only indices of 3 and more need care. */
static LLVMValueRef out_of_range_value(LLVMTypeRef i64, enum query query)
{
    bool is_size = query == Q_LOCAL_SIZE || query == Q_ENQUEUED_LOCAL_SIZE ||
                   query == Q_GLOBAL_SIZE || query == Q_NUM_GROUPS;
    return LLVMConstInt(i64, is_size ? 1 : 0, 0);
}

static LLVMValueRef lower_query(LLVMBuilderRef b, const struct wg *wg, enum query query,
                                LLVMValueRef call)
{
    LLVMContextRef context = LLVMGetModuleContext(LLVMGetGlobalParent(wg->fn));
    LLVMTypeRef i64 = LLVMInt64TypeInContext(context);
    switch (query) {
    case Q_WORK_DIM: return wg->work_dim;
    case Q_LOCAL_LINEAR_ID: {
        LLVMValueRef v = LLVMBuildMul(b, wg->id[2], wg->local_size[1], "");
        v = LLVMBuildAdd(b, v, wg->id[1], "");
        v = LLVMBuildMul(b, v, wg->local_size[0], "");
        return LLVMBuildAdd(b, v, wg->id[0], "local_linear_id");
    }
    case Q_GLOBAL_LINEAR_ID: {
        /* 6.13.1: (id(2) - offset(2)) * size(1) * size(0)
         *        + (id(1) - offset(1)) * size(0) + (id(0) - offset(0)) */
        LLVMValueRef rel[3];
        for (int d = 0; d < 3; d++) {
            rel[d] = LLVMBuildMul(b, wg->group_id[d], wg->enqueued_local_size[d], "");
            rel[d] = LLVMBuildAdd(b, rel[d], wg->id[d], "");
        }
        LLVMValueRef v = LLVMBuildMul(b, rel[2], wg->global_size[1], "");
        v = LLVMBuildAdd(b, v, rel[1], "");
        v = LLVMBuildMul(b, v, wg->global_size[0], "");
        return LLVMBuildAdd(b, v, rel[0], "global_linear_id");
    }
    default: break;
    }
    LLVMValueRef dim = LLVMGetOperand(call, 0);
    if (LLVMIsAConstantInt(dim)) {
        unsigned long long d = LLVMConstIntGetZExtValue(dim);
        return d < 3 ? query_value(b, wg, query, (int)d) : out_of_range_value(i64, query);
    }
    LLVMValueRef result = out_of_range_value(i64, query);
    for (int d = 2; d >= 0; d--) {
        LLVMValueRef is_d =
            LLVMBuildICmp(b, LLVMIntEQ, dim, LLVMConstInt(LLVMTypeOf(dim), d, 0), "");
        result = LLVMBuildSelect(b, is_d, query_value(b, wg, query, d), result, "");
    }
    return result;
}

bool cc_is_atomic(LLVMValueRef inst)
{
    return LLVMIsAAtomicRMWInst(inst) || LLVMIsAAtomicCmpXchgInst(inst) ||
           (LLVMIsALoadInst(inst) && LLVMGetOrdering(inst) != LLVMAtomicOrderingNotAtomic);
}

/* A call of one of the device's hooks in *state (barrier,
 * sub_group_barrier, yield), placed before `before`. The call is opaque to
 * the optimiser, so no access to shared memory moves across it. */
void cc_call_state_hook(LLVMBuilderRef b, const struct wg *wg, LLVMValueRef before, size_t field)
{
    LLVMContextRef context = LLVMGetModuleContext(LLVMGetGlobalParent(wg->fn));
    LLVMTypeRef ptr = LLVMPointerTypeInContext(context, 0);
    LLVMValueRef state = LLVMGetParam(wg->fn, 1);
    LLVMPositionBuilderBefore(b, before);
    LLVMValueRef hook = cc_load_field(b, ptr, state, field, "hook");
    LLVMBuildCall2(b, LLVMFunctionType(LLVMVoidTypeInContext(context), &ptr, 1, 0), hook, &state, 1,
                   "");
}

/* The generic-pointer conversions clang emits for to_global, to_local and
 * to_private (COMPILER-NOTES 6), and the library's own query behind
 * get_fence: the CC_SPACE_* each asks about; -1 for other calls, and
 * CC_SPACE_PRIVATE + 1 for the plain query. */
static int address_space_query(const char *name, size_t length)
{
    if (cc_name_is(name, length, "__to_global"))
        return CC_SPACE_GLOBAL;
    if (cc_name_is(name, length, "__to_local"))
        return CC_SPACE_LOCAL;
    if (cc_name_is(name, length, "__to_private"))
        return CC_SPACE_PRIVATE;
    if (cc_name_is(name, length, "__cpucl_pointer_space"))
        return CC_SPACE_PRIVATE + 1;
    return -1;
}

/* state->pointer_space(state, p); for the conversions, p in the asked-for
 * address space when it points there, else NULL (6.5.5). */
static LLVMValueRef lower_address_query(LLVMBuilderRef b, const struct wg *wg, LLVMValueRef call,
                                        int space)
{
    LLVMContextRef context = LLVMGetModuleContext(LLVMGetGlobalParent(wg->fn));
    LLVMTypeRef ptr = LLVMPointerTypeInContext(context, 0);
    LLVMTypeRef i32 = LLVMInt32TypeInContext(context);
    LLVMValueRef state = LLVMGetParam(wg->fn, 1);
    LLVMValueRef pointer = LLVMGetOperand(call, 0);
    LLVMValueRef flat = LLVMGetPointerAddressSpace(LLVMTypeOf(pointer))
                            ? LLVMBuildAddrSpaceCast(b, pointer, ptr, "")
                            : pointer;
    LLVMValueRef hook =
        cc_load_field(b, ptr, state, offsetof(struct cc_wg_state, pointer_space), "pointer_space");
    LLVMTypeRef params[2] = {ptr, ptr};
    LLVMValueRef args[2] = {state, flat};
    LLVMValueRef found =
        LLVMBuildCall2(b, LLVMFunctionType(i32, params, 2, 0), hook, args, 2, "space");
    if (space > CC_SPACE_PRIVATE)
        return LLVMBuildIntCast2(b, found, LLVMTypeOf(call), 0, "");
    LLVMTypeRef type = LLVMTypeOf(call);
    LLVMValueRef same =
        LLVMBuildICmp(b, LLVMIntEQ, found, LLVMConstInt(i32, (unsigned)space, 0), "");
    LLVMValueRef converted =
        LLVMGetPointerAddressSpace(type) == LLVMGetPointerAddressSpace(LLVMTypeOf(pointer))
            ? pointer
            : LLVMBuildAddrSpaceCast(b, pointer, type, "");
    return LLVMBuildSelect(b, same, converted, LLVMConstNull(type), "");
}

/* Where a kernel that calls the non-uniform sub-group functions reads its
 * sub-group size until cc_settle_sub_group_size replaces every load of it. */
static LLVMValueRef pending_sub_group_size(LLVMModuleRef module)
{
    static const char name[] = "__cpucl_pending_sub_group_size";
    LLVMValueRef global = LLVMGetNamedGlobal(module, name);
    if (!global)
        global = LLVMAddGlobal(module, LLVMInt32TypeInContext(LLVMGetModuleContext(module)), name);
    return global;
}

/* The calls the built-in library makes to reach the work-group's state
 * (src/builtins/workgroup.cl): the collectives' scratch, which only kernels
 * run as fibers have, and the sub-group size. */
static LLVMValueRef lower_library_hook(LLVMBuilderRef b, const struct wg *wg, LLVMValueRef call,
                                       const char *name)
{
    LLVMContextRef context = LLVMGetModuleContext(LLVMGetGlobalParent(wg->fn));
    bool size = name[8] == 's'; /* __cpucl_sub_group_size */
    if (size && !wg->non_uniform)
        return LLVMConstInt(LLVMTypeOf(call), cc_sub_group_size(), 0);
    LLVMTypeRef ptr = LLVMPointerTypeInContext(context, 0);
    /* Read once in the entry block, the prologue: the same for every
     * work-item, so regions.c passes it in rather than keeping it per item
     * (and uniform.c counts it uniform). */
    LLVMBuilderRef entry = LLVMCreateBuilderInContext(context);
    LLVMPositionBuilderBefore(entry, LLVMGetBasicBlockTerminator(wg->entry));
    LLVMValueRef value;
    if (size) /* until cc_settle_sub_group_size makes it a constant */
        value = LLVMBuildLoad2(entry, LLVMTypeOf(call),
                               pending_sub_group_size(LLVMGetGlobalParent(wg->fn)), "");
    else
        value = cc_load_field(entry, ptr, LLVMGetParam(wg->fn, 1),
                              offsetof(struct cc_wg_state, scratch), "scratch");
    LLVMDisposeBuilder(entry);
    return size ? value : LLVMBuildAddrSpaceCast(b, value, LLVMTypeOf(call), "");
}

/* Replaces the work-item calls of wg->fn; fails on barrier-like calls and
 * on calls that were not inlined (recursion). */
cl_int cc_lower_work_item_calls(LLVMBuilderRef b, struct wg *wg, struct cc_log *log)
{
    cl_int err = CL_SUCCESS;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(wg->fn); bb;
         bb = LLVMGetNextBasicBlock(bb)) {
        LLVMValueRef next;
        for (LLVMValueRef inst = LLVMGetFirstInstruction(bb); inst; inst = next) {
            next = LLVMGetNextInstruction(inst);
            if (wg->form == FIBERS && next && cc_is_atomic(inst)) {
                cc_call_state_hook(b, wg, next, offsetof(struct cc_wg_state, yield));
                continue;
            }
            if (!LLVMIsACallInst(inst))
                continue;
            LLVMValueRef callee = LLVMIsAFunction(LLVMGetCalledValue(inst));
            if (!callee || LLVMGetIntrinsicID(callee))
                continue;
            size_t length;
            const char *mangled = LLVMGetValueName2(callee, &length);
            const char *name;
            size_t name_length = cc_plain_name(mangled, &name);
            if (!LLVMIsDeclaration(callee)) {
                cc_log_printf(log,
                              "error: kernel '%s': recursive call of '%.*s' (OpenCL C 6.9: "
                              "recursion is not supported)\n",
                              wg->kernel->name, (int)name_length, name);
                return CL_BUILD_PROGRAM_FAILURE;
            }
            enum barrier_kind kind = cc_barrier_kind_of(name, name_length);
            if (wg->form == REGIONS && kind != NOT_A_BARRIER)
                continue; /* where regions.c splits the kernel */
            if (wg->form == FIBERS && kind == SUB_GROUP_BARRIER && wg->non_uniform)
                continue; /* cc_settle_sub_group_size's */
            if (wg->form == FIBERS && kind != NOT_A_BARRIER) {
                /* Switch to the next work-item (of the sub-group); the call
                 * is opaque to the optimiser, so no access to shared memory
                 * moves across it. */
                cc_call_state_hook(b, wg, inst,
                                   kind == SUB_GROUP_BARRIER
                                       ? offsetof(struct cc_wg_state, sub_group_barrier)
                                       : offsetof(struct cc_wg_state, barrier));
                LLVMInstructionEraseFromParent(inst);
                continue;
            }
            int space = address_space_query(name, name_length);
            if (space >= 0) {
                LLVMPositionBuilderBefore(b, inst);
                LLVMReplaceAllUsesWith(inst, lower_address_query(b, wg, inst, space));
                LLVMInstructionEraseFromParent(inst);
                continue;
            }
            if (cc_name_is(name, name_length, "__cpucl_wg_scratch") ||
                cc_name_is(name, name_length, "__cpucl_sub_group_size")) {
                LLVMPositionBuilderBefore(b, inst);
                LLVMReplaceAllUsesWith(inst, lower_library_hook(b, wg, inst, name));
                LLVMInstructionEraseFromParent(inst);
                continue;
            }
            if (is_barrier_like(name, name_length)) {
                /* A collective the library does not define. */
                cc_log_printf(log, "error: kernel '%s': %.*s() is not supported by cpucl\n",
                              wg->kernel->name, (int)name_length, name);
                err = CL_BUILD_PROGRAM_FAILURE;
                continue;
            }
            enum query query = query_of(mangled);
            if (query == Q_NONE)
                continue;
            LLVMPositionBuilderBefore(b, inst);
            LLVMValueRef value = lower_query(b, wg, query, inst);
            LLVMReplaceAllUsesWith(inst, value);
            LLVMInstructionEraseFromParent(inst);
        }
    }
    return err;
}

/* A call of the library's mark of a non-uniform sub-group function. */
static bool is_non_uniform_mark(LLVMValueRef call)
{
    LLVMValueRef callee = LLVMIsAFunction(LLVMGetCalledValue(call));
    size_t length;
    return callee && LLVMIsDeclaration(callee) &&
           !strcmp(LLVMGetValueName2(callee, &length), "__cpucl_non_uniform");
}

/* The calls in fn that `wanted` picks; (size_t)-1 when out of memory. */
size_t cc_calls_in(LLVMValueRef fn, bool (*wanted)(LLVMValueRef), LLVMValueRef **calls)
{
    size_t count = 0, capacity = 0;
    *calls = NULL;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef inst = LLVMGetFirstInstruction(bb); inst;
             inst = LLVMGetNextInstruction(inst)) {
            if (!LLVMIsACallInst(inst) || !wanted(inst))
                continue;
            if (count == capacity) {
                capacity = capacity ? 2 * capacity : 8;
                LLVMValueRef *more = realloc(*calls, capacity * sizeof *more);
                if (!more) {
                    free(*calls);
                    *calls = NULL;
                    return (size_t)-1;
                }
                *calls = more;
            }
            (*calls)[count++] = inst;
        }
    return count;
}

/* The sub-group size of a kernel that calls the non-uniform sub-group
 * functions (src/builtins/workgroup.cl), which act on the sub-group's
 * active work-items. When every work-item reaches each of those calls
 * alike (uniform.c), all S work-items of a sub-group are active at every
 * call: S. Else the kernel gets sub-groups of one work-item, each its own
 * active set (the size is the implementation's choice, per kernel: API
 * spec 5.9.3, clGetKernelSubGroupInfo), and its sub-group barriers, now
 * between a work-item and itself, go. On fibers, the barriers of a kernel
 * that keeps S become the device's hook now (cc_lower_work_item_calls left them). The
 * loads of the pending size become the constant; the library's marks go. */
bool cc_settle_sub_group_size(LLVMBuilderRef b, struct wg *wg)
{
    LLVMValueRef *calls;
    size_t n = cc_calls_in(wg->fn, is_non_uniform_mark, &calls);
    if (n == (size_t)-1)
        return false;
    bool alike = cc_all_work_items_reach(wg->fn, LLVMGetEntryBasicBlock(wg->fn), calls, n);
    unsigned size = alike ? cc_sub_group_size() : 1;
    for (size_t i = 0; i < n; i++)
        LLVMInstructionEraseFromParent(calls[i]);
    free(calls);
    wg->kernel->sub_group_size = size;

    LLVMValueRef pending = pending_sub_group_size(LLVMGetGlobalParent(wg->fn));
    LLVMUseRef use = LLVMGetFirstUse(pending);
    while (use) {
        LLVMValueRef load = LLVMGetUser(use);
        use = LLVMGetNextUse(use);
        if (!LLVMIsALoadInst(load) ||
            LLVMGetBasicBlockParent(LLVMGetInstructionParent(load)) != wg->fn)
            continue;
        LLVMReplaceAllUsesWith(load, LLVMConstInt(LLVMTypeOf(load), size, 0));
        LLVMInstructionEraseFromParent(load);
    }

    n = cc_calls_in(wg->fn, cc_is_sub_group_barrier, &calls);
    if (n == (size_t)-1)
        return false;
    for (size_t i = 0; i < n; i++) {
        if (size > 1 && wg->form != FIBERS)
            continue;
        if (size > 1)
            cc_call_state_hook(b, wg, calls[i], offsetof(struct cc_wg_state, sub_group_barrier));
        LLVMInstructionEraseFromParent(calls[i]);
    }
    free(calls);
    if (size == 1)
        wg->sub_group_barriers = false;
    return true;
}
