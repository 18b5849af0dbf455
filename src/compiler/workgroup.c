/* workgroup.c - kernels become work-group functions.
 *
 * Takes the linked module (program + built-in library, host attributes
 * set) and the kernel table from metadata.c. Gives, for each kernel K, a
 * function
 *
 *   void __cpucl_wg_K(const void *arg_block, struct cc_wg_state *state)
 *
 * that runs every work-item of one work-group: it loads K's arguments from
 * the argument block (layout: metadata.c), then loops z, y, x over the
 * group's local size (x innermost, so that consecutive work-items are
 * consecutive iterations the loop vectorizer can put in one SIMD register)
 * and calls K. Everything is then inlined into the work-group functions and
 * the work-item builtins are replaced by the loop counters and the fields
 * of *state, so get_global_id(0) becomes group_id[0] * enqueued_local_size[0]
 * + global_offset[0] + x. Kernel-scope __local variables become slices of
 * state->local_mem (local_memory.c), so work-groups running at the same
 * time on different workers never share them. All other functions and variables become
 * internal; the work-group functions are the program's only exports.
 *
 * A kernel that calls barrier() or work_group_barrier() (directly, through
 * its functions, or through wait_group_events in the library) is built
 * differently: its body becomes a work-item function
 *
 *   void __cpucl_wi_K(const void *arg_block, struct cc_wg_state *state,
 *                     size_t x, size_t y, size_t z)
 *
 * with the local ids as parameters, each barrier a call of state->barrier,
 * and __cpucl_wg_K only hands it to state->run_items, which runs every
 * work-item on its own stack (src/devices/cpu/fibers.c).
 *
 * sub_group_barrier works the same way, with state->sub_group_barrier; the
 * work-group and sub-group collectives are library functions made of
 * barriers (src/builtins/workgroup.cl), so they take the fiber path too.
 *
 * Assumes: no recursion (OpenCL C 6.9). Without barriers the work-items of a group run one after
 * the other, which is correct exactly because nothing synchronises them.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Target.h>
#include <llvm-c/Transforms/PassBuilder.h>

#include "compiler/internal.h"
#include "compiler/constant_arrays.h"
#include "compiler/loops.h"
#include "compiler/parallel.h"
#include "compiler/scalarize.h"
#include "compiler/specialize.h"

/* How a kernel's work-items run in a work-group function. */
enum wg_form {
    LOOPS,   /* no barriers: z/y/x loops around the kernel */
    REGIONS, /* work-group barriers: loops around the code between them (regions.c) */
    FIBERS,  /* sub-group barriers or independent forward progress: a stack per item */
};

/* The work-group function of one kernel while it is being built. */
struct wg {
    struct cc_kernel_info *kernel;
    LLVMValueRef kernel_fn;
    LLVMValueRef fn;       /* where the kernel is inlined: the work-group function, or for
                            * a kernel with barriers its work-item function */
    LLVMValueRef exported; /* the work-group function */
    enum wg_form form;
    LLVMValueRef id[3]; /* x, y, z loop counters (local ids) */
    LLVMValueRef group_id[3], local_size[3], enqueued_local_size[3];
    LLVMValueRef global_size[3], global_offset[3], num_groups[3];
    LLVMValueRef work_dim, local_mem;
    LLVMBasicBlockRef entry;
    LLVMValueRef x_latch;    /* LOOPS: the x loop's branch, marked parallel at the end */
    bool sub_group_barriers; /* REGIONS: the kernel also calls sub_group_barrier */
    bool non_uniform;        /* it calls the non-uniform sub-group functions: its sub-group
                              * size is settled after lower_calls (settle_sub_group_size) */
};

char *cc_wg_function_name(const char *kernel_name)
{
    static const char prefix[] = "__cpucl_wg_";
    char *name = malloc(sizeof prefix + strlen(kernel_name));
    if (name) {
        strcpy(name, prefix);
        strcat(name, kernel_name);
    }
    return name;
}

/* The name inside an Itanium-mangled builtin name: "barrier" for
 * "_Z7barrierj". Unmangled names are returned whole. */
static size_t plain_name(const char *mangled, const char **name)
{
    if (mangled[0] == '_' && mangled[1] == 'Z') {
        char *end;
        unsigned long length = strtoul(mangled + 2, &end, 10);
        if (end != mangled + 2 && length <= strlen(end)) {
            *name = end;
            return length;
        }
    }
    *name = mangled;
    return strlen(mangled);
}

static bool name_is(const char *name, size_t length, const char *what)
{
    return strlen(what) == length && !memcmp(name, what, length);
}

static bool name_starts(const char *name, size_t length, const char *prefix)
{
    size_t n = strlen(prefix);
    return length >= n && !memcmp(name, prefix, n);
}

/* Builtins that synchronise the work-items of a group (OpenCL C 6.13.8,
 * 6.13.10, 6.13.15, 6.13.16.*, and the sub-group functions of
 * cl_khr_subgroups): a work-group function that runs the items one after
 * the other cannot implement them. */
enum barrier_kind { NOT_A_BARRIER, WORK_GROUP_BARRIER, SUB_GROUP_BARRIER };

/* barrier and work_group_barrier (6.13.8), sub_group_barrier
 * (cl_khr_subgroups): what the fibers implement. */
static enum barrier_kind barrier_kind_of(const char *name, size_t length)
{
    if (name_is(name, length, "barrier") || name_is(name, length, "work_group_barrier"))
        return WORK_GROUP_BARRIER;
    if (name_is(name, length, "sub_group_barrier"))
        return SUB_GROUP_BARRIER;
    return NOT_A_BARRIER;
}

static bool is_barrier_like(const char *name, size_t length)
{
    return name_is(name, length, "barrier") || name_starts(name, length, "work_group_") ||
           name_starts(name, length, "sub_group_") || name_starts(name, length, "__work_group_") ||
           name_starts(name, length, "__sub_group_") ||
           name_is(name, length, "async_work_group_copy") ||
           name_is(name, length, "async_work_group_strided_copy") ||
           name_is(name, length, "async_work_group_copy_fence") ||
           name_is(name, length, "wait_group_events");
}

static LLVMValueRef load_field(LLVMBuilderRef b, LLVMTypeRef type, LLVMValueRef base, size_t offset,
                               const char *name)
{
    LLVMContextRef context = LLVMGetTypeContext(type);
    LLVMValueRef index = LLVMConstInt(LLVMInt64TypeInContext(context), offset, 0);
    LLVMValueRef address =
        LLVMBuildInBoundsGEP2(b, LLVMInt8TypeInContext(context), base, &index, 1, "");
    LLVMValueRef value = LLVMBuildLoad2(b, type, address, name);
    LLVMSetAlignment(value, 8);
    return value;
}

/* The work-group function takes the kernel's target-cpu, target-features
 * and the other string attributes clang gave it (denormal and math modes),
 * so that inlining the kernel into it is allowed and changes nothing. */
void cc_copy_string_attributes(LLVMValueRef from, LLVMValueRef to)
{
    unsigned count = LLVMGetAttributeCountAtIndex(from, LLVMAttributeFunctionIndex);
    LLVMAttributeRef *attributes = malloc((count ? count : 1) * sizeof *attributes);
    if (!attributes)
        return;
    LLVMGetAttributesAtIndex(from, LLVMAttributeFunctionIndex, attributes);
    for (unsigned i = 0; i < count; i++) {
        if (!LLVMIsStringAttribute(attributes[i]))
            continue;
        unsigned length;
        const char *kind = LLVMGetStringAttributeKind(attributes[i], &length);
        if (length == 23 && !memcmp(kind, "uniform-work-group-size", 23))
            continue;
        LLVMAddAttributeAtIndex(to, LLVMAttributeFunctionIndex, attributes[i]);
    }
    free(attributes);
}

/* Builds __cpucl_wg_K around a call of K. */
/* A kernel with barriers gets a work-group function that hands the device
 * its work-item function: state->run_items(state, item, arg_block). */
static LLVMValueRef build_fiber_wg(LLVMModuleRef module, struct wg *wg, LLVMValueRef item)
{
    LLVMContextRef context = LLVMGetModuleContext(module);
    LLVMTypeRef ptr = LLVMPointerTypeInContext(context, 0);
    LLVMTypeRef params[2] = {ptr, ptr};
    char *name = cc_wg_function_name(wg->kernel->name);
    if (!name)
        return NULL;
    LLVMValueRef fn = LLVMAddFunction(
        module, name, LLVMFunctionType(LLVMVoidTypeInContext(context), params, 2, 0));
    free(name);
    cc_copy_string_attributes(wg->kernel_fn, fn);
    LLVMBuilderRef b = LLVMCreateBuilderInContext(context);
    LLVMPositionBuilderAtEnd(b, LLVMAppendBasicBlockInContext(context, fn, "entry"));
    LLVMValueRef state = LLVMGetParam(fn, 1);
    LLVMValueRef run = load_field(b, ptr, state, offsetof(struct cc_wg_state, run_items), "run");
    LLVMTypeRef run_params[3] = {ptr, ptr, ptr};
    LLVMValueRef run_args[3] = {state, item, LLVMGetParam(fn, 0)};
    LLVMBuildCall2(b, LLVMFunctionType(LLVMVoidTypeInContext(context), run_params, 3, 0), run,
                   run_args, 3, "");
    LLVMBuildRetVoid(b);
    LLVMDisposeBuilder(b);
    return fn;
}

static LLVMValueRef build_wg(LLVMModuleRef module, struct wg *wg)
{
    LLVMContextRef context = LLVMGetModuleContext(module);
    LLVMTypeRef ptr = LLVMPointerTypeInContext(context, 0);
    LLVMTypeRef i64 = LLVMInt64TypeInContext(context);
    LLVMTypeRef i32 = LLVMInt32TypeInContext(context);
    LLVMTypeRef params[5] = {ptr, ptr, i64, i64, i64};
    char *name = cc_wg_function_name(wg->kernel->name);
    if (!name)
        return NULL;
    bool per_item = wg->form != LOOPS;
    if (per_item) /* the work-item function: __cpucl_wi_K */
        name[9] = 'i';
    LLVMValueRef fn = LLVMAddFunction(
        module, name,
        LLVMFunctionType(LLVMVoidTypeInContext(context), params, per_item ? 5 : 2, 0));
    free(name);
    wg->fn = fn;
    /* regions.c builds the exported function of REGIONS kernels later */
    wg->exported = wg->form == FIBERS ? build_fiber_wg(module, wg, fn) : fn;
    if (!wg->exported)
        return NULL;
    cc_copy_string_attributes(wg->kernel_fn, fn);
    LLVMAddAttributeAtIndex(
        fn, LLVMAttributeFunctionIndex,
        LLVMCreateEnumAttribute(context, LLVMGetEnumAttributeKindForName("nounwind", 8), 0));
    LLVMValueRef args = LLVMGetParam(fn, 0), state = LLVMGetParam(fn, 1);
    LLVMSetValueName2(args, "arg_block", 9);
    LLVMSetValueName2(state, "state", 5);

    LLVMBuilderRef b = LLVMCreateBuilderInContext(context);
    wg->entry = LLVMAppendBasicBlockInContext(context, fn, "entry");
    LLVMBasicBlockRef z_loop = LLVMAppendBasicBlockInContext(context, fn, "wi.z");
    LLVMBasicBlockRef y_loop = LLVMAppendBasicBlockInContext(context, fn, "wi.y");
    LLVMBasicBlockRef x_loop = LLVMAppendBasicBlockInContext(context, fn, "wi.x");
    LLVMBasicBlockRef y_next = LLVMAppendBasicBlockInContext(context, fn, "wi.y.next");
    LLVMBasicBlockRef z_next = LLVMAppendBasicBlockInContext(context, fn, "wi.z.next");
    LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(context, fn, "wi.done");

    /* Everything the work-items read from *state is loaded once, here, so
     * no store of a kernel can be thought to change a loop bound. */
    LLVMPositionBuilderAtEnd(b, wg->entry);
    for (int d = 0; d < 3; d++) {
        size_t s = sizeof(size_t) * d;
        wg->group_id[d] =
            load_field(b, i64, state, offsetof(struct cc_wg_state, group_id) + s, "group_id");
        wg->local_size[d] =
            load_field(b, i64, state, offsetof(struct cc_wg_state, local_size) + s, "local_size");
        wg->enqueued_local_size[d] =
            load_field(b, i64, state, offsetof(struct cc_wg_state, enqueued_local_size) + s,
                       "enqueued_local_size");
        wg->global_size[d] =
            load_field(b, i64, state, offsetof(struct cc_wg_state, global_size) + s, "global_size");
        wg->global_offset[d] = load_field(
            b, i64, state, offsetof(struct cc_wg_state, global_offset) + s, "global_offset");
        wg->num_groups[d] =
            load_field(b, i64, state, offsetof(struct cc_wg_state, num_groups) + s, "num_groups");
    }
    wg->work_dim = load_field(b, i32, state, offsetof(struct cc_wg_state, work_dim), "work_dim");
    wg->local_mem = load_field(b, ptr, state, offsetof(struct cc_wg_state, local_mem), "local_mem");

    unsigned num_args = wg->kernel->num_args;
    LLVMValueRef *call_args = malloc((num_args ? num_args : 1) * sizeof *call_args);
    if (!call_args) {
        LLVMDisposeBuilder(b);
        return NULL;
    }
    unsigned byval_kind = LLVMGetEnumAttributeKindForName("byval", 5);
    for (unsigned i = 0; i < num_args; i++) {
        const struct cc_arg_info *arg = &wg->kernel->args[i];
        LLVMTypeRef type = LLVMTypeOf(LLVMGetParam(wg->kernel_fn, i));
        if (arg->kind == CC_ARG_LOCAL) {
            LLVMValueRef offset = load_field(b, i64, args, arg->offset, "local_offset");
            LLVMValueRef address = LLVMBuildInBoundsGEP2(b, LLVMInt8TypeInContext(context),
                                                         wg->local_mem, &offset, 1, "");
            call_args[i] = LLVMBuildAddrSpaceCast(b, address, type, "");
        } else if (LLVMGetEnumAttributeAtIndex(wg->kernel_fn, i + 1, byval_kind)) {
            /* The inliner gives the kernel its own copy, as byval requires. */
            LLVMValueRef index = LLVMConstInt(i64, arg->offset, 0);
            call_args[i] =
                LLVMBuildInBoundsGEP2(b, LLVMInt8TypeInContext(context), args, &index, 1, "");
        } else {
            call_args[i] = load_field(b, type, args, arg->offset, "");
        }
    }
    if (per_item) {
        /* The entry block ends before the kernel's code, as in the loop
         * form: kernel-scope __local pointers are placed at its end. */
        for (int d = 0; d < 3; d++)
            wg->id[d] = LLVMGetParam(fn, 2 + d);
        LLVMBuildBr(b, x_loop);
        LLVMPositionBuilderAtEnd(b, x_loop);
        LLVMValueRef call = LLVMBuildCall2(b, LLVMGlobalGetValueType(wg->kernel_fn), wg->kernel_fn,
                                           call_args, num_args, "");
        LLVMSetInstructionCallConv(call, CC_SPIR_KERNEL_CC);
        LLVMBuildRetVoid(b);
        free(call_args);
        LLVMDisposeBuilder(b);
        LLVMBasicBlockRef unused[5] = {z_loop, y_loop, y_next, z_next, done};
        for (int i = 0; i < 5; i++)
            LLVMDeleteBasicBlock(unused[i]);
        return fn;
    }
    LLVMBuildBr(b, z_loop);

    /* Bottom-tested loops: every dimension of a group has at least one
     * work-item. */
    LLVMValueRef zero = LLVMConstInt(i64, 0, 0), one = LLVMConstInt(i64, 1, 0);
    LLVMBasicBlockRef headers[3] = {x_loop, y_loop, z_loop};
    LLVMBasicBlockRef preheaders[3] = {y_loop, z_loop, wg->entry};
    LLVMBasicBlockRef latches[3] = {x_loop, y_next, z_next};
    LLVMBasicBlockRef exits[3] = {y_next, z_next, done};
    static const char *const names[3] = {"x", "y", "z"};
    for (int d = 2; d >= 0; d--) {
        LLVMPositionBuilderAtEnd(b, headers[d]);
        wg->id[d] = LLVMBuildPhi(b, i64, names[d]);
        if (d > 0)
            LLVMBuildBr(b, headers[d - 1]);
    }
    LLVMPositionBuilderAtEnd(b, x_loop);
    LLVMValueRef call = LLVMBuildCall2(b, LLVMGlobalGetValueType(wg->kernel_fn), wg->kernel_fn,
                                       call_args, num_args, "");
    LLVMSetInstructionCallConv(call, CC_SPIR_KERNEL_CC);
    free(call_args);
    for (int d = 0; d < 3; d++) {
        if (d > 0)
            LLVMPositionBuilderAtEnd(b, latches[d]);
        LLVMValueRef next = LLVMBuildNUWAdd(b, wg->id[d], one, "");
        LLVMValueRef more = LLVMBuildICmp(b, LLVMIntULT, next, wg->local_size[d], "");
        LLVMValueRef br = LLVMBuildCondBr(b, more, headers[d], exits[d]);
        if (d == 0)
            wg->x_latch = br;
        else
            cc_no_runtime_unroll(br);
        LLVMValueRef values[2] = {zero, next};
        LLVMBasicBlockRef blocks[2] = {preheaders[d], latches[d]};
        LLVMAddIncoming(wg->id[d], values, blocks, 2);
    }
    LLVMPositionBuilderAtEnd(b, done);
    LLVMBuildRetVoid(b);
    LLVMDisposeBuilder(b);
    return fn;
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

static bool is_atomic(LLVMValueRef inst)
{
    return LLVMIsAAtomicRMWInst(inst) || LLVMIsAAtomicCmpXchgInst(inst) ||
           (LLVMIsALoadInst(inst) && LLVMGetOrdering(inst) != LLVMAtomicOrderingNotAtomic);
}

/* A call of one of the device's hooks in *state (barrier,
 * sub_group_barrier, yield), placed before `before`. The call is opaque to
 * the optimiser, so no access to shared memory moves across it. */
static void call_state_hook(LLVMBuilderRef b, const struct wg *wg, LLVMValueRef before,
                            size_t field)
{
    LLVMContextRef context = LLVMGetModuleContext(LLVMGetGlobalParent(wg->fn));
    LLVMTypeRef ptr = LLVMPointerTypeInContext(context, 0);
    LLVMValueRef state = LLVMGetParam(wg->fn, 1);
    LLVMPositionBuilderBefore(b, before);
    LLVMValueRef hook = load_field(b, ptr, state, field, "hook");
    LLVMBuildCall2(b, LLVMFunctionType(LLVMVoidTypeInContext(context), &ptr, 1, 0), hook, &state, 1,
                   "");
}

/* The generic-pointer conversions clang emits for to_global, to_local and
 * to_private (COMPILER-NOTES 6), and the library's own query behind
 * get_fence: the CC_SPACE_* each asks about; -1 for other calls, and
 * CC_SPACE_PRIVATE + 1 for the plain query. */
static int address_space_query(const char *name, size_t length)
{
    if (name_is(name, length, "__to_global"))
        return CC_SPACE_GLOBAL;
    if (name_is(name, length, "__to_local"))
        return CC_SPACE_LOCAL;
    if (name_is(name, length, "__to_private"))
        return CC_SPACE_PRIVATE;
    if (name_is(name, length, "__cpucl_pointer_space"))
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
        load_field(b, ptr, state, offsetof(struct cc_wg_state, pointer_space), "pointer_space");
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
 * sub-group size until settle_sub_group_size replaces every load of it. */
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
    if (size) /* until settle_sub_group_size makes it a constant */
        value = LLVMBuildLoad2(entry, LLVMTypeOf(call),
                               pending_sub_group_size(LLVMGetGlobalParent(wg->fn)), "");
    else
        value = load_field(entry, ptr, LLVMGetParam(wg->fn, 1),
                           offsetof(struct cc_wg_state, scratch), "scratch");
    LLVMDisposeBuilder(entry);
    return size ? value : LLVMBuildAddrSpaceCast(b, value, LLVMTypeOf(call), "");
}

/* Replaces the work-item calls of wg->fn; fails on barrier-like calls and
 * on calls that were not inlined (recursion). */
static cl_int lower_calls(LLVMBuilderRef b, struct wg *wg, struct cc_log *log)
{
    cl_int err = CL_SUCCESS;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(wg->fn); bb;
         bb = LLVMGetNextBasicBlock(bb)) {
        LLVMValueRef next;
        for (LLVMValueRef inst = LLVMGetFirstInstruction(bb); inst; inst = next) {
            next = LLVMGetNextInstruction(inst);
            if (wg->form == FIBERS && next && is_atomic(inst)) {
                call_state_hook(b, wg, next, offsetof(struct cc_wg_state, yield));
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
            size_t name_length = plain_name(mangled, &name);
            if (!LLVMIsDeclaration(callee)) {
                cc_log_printf(log,
                              "error: kernel '%s': recursive call of '%.*s' (OpenCL C 6.9: "
                              "recursion is not supported)\n",
                              wg->kernel->name, (int)name_length, name);
                return CL_BUILD_PROGRAM_FAILURE;
            }
            enum barrier_kind kind = barrier_kind_of(name, name_length);
            if (wg->form == REGIONS && kind != NOT_A_BARRIER)
                continue; /* where regions.c splits the kernel */
            if (wg->form == FIBERS && kind == SUB_GROUP_BARRIER && wg->non_uniform)
                continue; /* settle_sub_group_size's */
            if (wg->form == FIBERS && kind != NOT_A_BARRIER) {
                /* Switch to the next work-item (of the sub-group); the call
                 * is opaque to the optimiser, so no access to shared memory
                 * moves across it. */
                call_state_hook(b, wg, inst,
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
            if (name_is(name, name_length, "__cpucl_wg_scratch") ||
                name_is(name, name_length, "__cpucl_sub_group_size")) {
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

/* The x loop of a LOOPS kernel: every access but the local atomics made
 * plain is independent between work-items (a race would be undefined). */
static void mark_parallel(struct wg *wg)
{
    struct {
        LLVMValueRef *items;
        unsigned count, capacity;
    } list = {0};
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(wg->fn); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef inst = LLVMGetFirstInstruction(bb); inst;
             inst = LLVMGetNextInstruction(inst)) {
            if (!cc_parallel_access(inst))
                continue;
            if (list.count == list.capacity) {
                unsigned capacity = list.capacity ? 2 * list.capacity : 64;
                LLVMValueRef *items = realloc(list.items, capacity * sizeof *items);
                if (!items) {
                    free(list.items);
                    return; /* no claim: slower, still correct */
                }
                list.items = items;
                list.capacity = capacity;
            }
            list.items[list.count++] = inst;
        }
    cc_mark_parallel_loop(wg->x_latch, list.items, list.count);
    free(list.items);
}

/* --- the whole module --- */

/* CPUCL_LOOP_BARRIERS=0 turns off the barriers loops.cpp adds at the
 * head of uniform inner loops (for comparison). */
static bool loop_barriers_wanted(void)
{
    const char *value = getenv("CPUCL_LOOP_BARRIERS");
    return !value || strcmp(value, "0");
}

/* CPUCL_SCALARIZE=0 keeps the vector-typed values of kernels whole (for
 * comparison), except where loops.cpp adds loop barriers: their work-item
 * loops are then not vectorized across the work-items. */
static bool scalarize_wanted(void)
{
    const char *value = getenv("CPUCL_SCALARIZE");
    return !value || strcmp(value, "0");
}

/* Whether the work-item loops of a kernel gain from having its vector
 * values scalarized (scalarize.cpp), unless CPUCL_SCALARIZE=0: no vector
 * has more than 4 lanes, and the vectors it loads and stores are
 * narrower than the host's registers (a float4 on AVX2, not a double4,
 * but see the end).
 * Their components then take the registers' full width across the
 * work-items: on AVX2, float4 sin, cos, exp and pow 1.45x faster, uchar4
 * pixels through float4 5x, float3 cross products and normalize 1.25x,
 * float4 erf and atan2 1.75x, float4 arithmetic that only streams memory
 * the same. Others lose: a double4 log 1.1x slower (its loads filled the
 * registers already); a uchar16 kernel 6x slower, and 2 s to compile
 * (16-way interleaving); float16 arithmetic 1.35x slower. */
static bool scalarizing_pays(LLVMValueRef fn)
{
    if (!scalarize_wanted())
        return false;
    bool any = false, full_loads = false, full_stores = false, reduced = false;
    unsigned register_bits = 32 * cc_sub_group_size();
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef inst = LLVMGetFirstInstruction(bb); inst;
             inst = LLVMGetNextInstruction(inst)) {
            reduced |= LLVMIsAExtractElementInst(inst) != NULL;
            int operands = LLVMGetNumOperands(inst);
            for (int k = -1; k < operands; k++) {
                LLVMTypeRef type = LLVMTypeOf(k < 0 ? inst : LLVMGetOperand(inst, (unsigned)k));
                if (LLVMGetTypeKind(type) != LLVMVectorTypeKind)
                    continue;
                if (LLVMGetVectorSize(type) > 4)
                    return false;
                bool full = cc_type_bits(type) >= register_bits;
                full_loads |= full && LLVMIsALoadInst(inst);
                full_stores |= full && LLVMIsAStoreInst(inst);
                any = true;
            }
        }
    /* vectors that fill the registers stay whole, unless the kernel loads
     * them only to take their components apart (dot and length of a
     * double4 on AVX2: 10 ms whole, a square root an item, 7.7 ms
     * scalarized; PoCL 7.5); storing them whole (normalize, cross) keeps
     * them whole: scalarized, those ran 1.4x slower */
    return any && !full_stores && (!full_loads || reduced);
}

/* What decides how a kernel runs: the barriers it (or a function it
 * calls) meets, and whether it asks for its sub-group while using atomics,
 * the one way work-items of a group can wait for each other without a
 * barrier (sub-groups make independent forward progress, 9.17.1). */
struct kernel_scan {
    bool barrier, sub_group_barrier, sub_groups, atomics, loops, non_uniform;
};

/* Whether fn has a loop: a branch back to its own block or an earlier one
 * (Clang lays out a loop's condition before its body; a false answer only
 * costs loops.cpp a chance). */
/* CPUCL_SPECIALIZE=0: no copy of the work-group function for a required
 * local size, to compare. */
static bool specialization_wanted(void)
{
    const char *value = getenv("CPUCL_SPECIALIZE");
    return !value || strcmp(value, "0");
}

static bool has_loop(LLVMValueRef fn)
{
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb)) {
        LLVMValueRef term = LLVMGetBasicBlockTerminator(bb);
        unsigned n = term ? LLVMGetNumSuccessors(term) : 0;
        for (unsigned i = 0; i < n; i++)
            for (LLVMBasicBlockRef before = LLVMGetFirstBasicBlock(fn);;
                 before = LLVMGetNextBasicBlock(before)) {
                if (before == LLVMGetSuccessor(term, i))
                    return true;
                if (before == bb)
                    break;
            }
    }
    return false;
}

/* Depth-limited: OpenCL C has no recursion. */
static void scan_calls(LLVMValueRef fn, int depth, struct kernel_scan *scan)
{
    if (depth > 64)
        return;
    scan->loops = scan->loops || has_loop(fn);
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef inst = LLVMGetFirstInstruction(bb); inst;
             inst = LLVMGetNextInstruction(inst)) {
            scan->atomics |= is_atomic(inst);
            if (!LLVMIsACallInst(inst))
                continue;
            LLVMValueRef callee = LLVMIsAFunction(LLVMGetCalledValue(inst));
            if (!callee || callee == fn)
                continue;
            size_t length;
            const char *name;
            size_t name_length = plain_name(LLVMGetValueName2(callee, &length), &name);
            if (LLVMIsDeclaration(callee)) {
                enum barrier_kind kind = barrier_kind_of(name, name_length);
                scan->barrier |= kind == WORK_GROUP_BARRIER;
                scan->sub_group_barrier |= kind == SUB_GROUP_BARRIER;
                scan->sub_groups |= name_is(name, name_length, "__cpucl_sub_group_size");
                /* a kernel calling them runs as regions or fibers, where
                 * the work-item function is what uniform.c analyses */
                if (name_is(name, name_length, "__cpucl_non_uniform"))
                    scan->non_uniform = scan->sub_group_barrier = true;
            } else {
                scan_calls(callee, depth + 1, scan);
            }
        }
}

/* For regions.c: a call of barrier() or work_group_barrier(). */
static bool is_work_group_barrier(LLVMValueRef call)
{
    LLVMValueRef callee = LLVMIsAFunction(LLVMGetCalledValue(call));
    if (!callee || !LLVMIsDeclaration(callee))
        return false;
    size_t length;
    const char *name;
    size_t name_length = plain_name(LLVMGetValueName2(callee, &length), &name);
    return barrier_kind_of(name, name_length) == WORK_GROUP_BARRIER;
}

/* A kernel with sub-group barriers starts as REGIONS with
 * *sub_group_barriers set: whether every work-item meets them alike is
 * only known once it is inlined (cc_all_work_items_reach). */
static enum wg_form form_of(LLVMValueRef kernel, bool *sub_group_barriers, bool *non_uniform)
{
    struct kernel_scan scan = {false, false, false, false, false, false};
    scan_calls(kernel, 0, &scan);
    *sub_group_barriers = scan.sub_group_barrier;
    *non_uniform = scan.non_uniform;
    if (scan.sub_groups && scan.atomics)
        return FIBERS;
    /* A kernel without barriers but with a loop is made regions too, for
     * the barriers loops.cpp may add at the head of its inner loops (with
     * none added, it is one region: the same loop over the work-items). */
    if (!scan.barrier && !scan.sub_group_barrier)
        return scan.loops && loop_barriers_wanted() ? REGIONS : LOOPS;
    /* CPUCL_BARRIERS=fibers: the general method for every kernel with
     * barriers, to compare the two. */
    const char *method = getenv("CPUCL_BARRIERS");
    return method && !strcmp(method, "fibers") ? FIBERS : REGIONS;
}

/* For regions.c, in a kernel whose sub-group barriers every work-item
 * meets alike: those split the kernel too (a region then ends for the
 * whole group where it would for each sub-group, which orders no less). */
static bool is_any_barrier(LLVMValueRef call)
{
    LLVMValueRef callee = LLVMIsAFunction(LLVMGetCalledValue(call));
    if (!callee || !LLVMIsDeclaration(callee))
        return false;
    size_t length;
    const char *name;
    size_t name_length = plain_name(LLVMGetValueName2(callee, &length), &name);
    return barrier_kind_of(name, name_length) != NOT_A_BARRIER;
}

/* barrier(cl_mem_fence_flags), as Clang's mangling names it */
static LLVMValueRef barrier_declaration(LLVMModuleRef module)
{
    LLVMValueRef fn = LLVMGetNamedFunction(module, "_Z7barrierj");
    if (fn)
        return fn;
    LLVMContextRef context = LLVMGetModuleContext(module);
    LLVMTypeRef i32 = LLVMInt32TypeInContext(context);
    return LLVMAddFunction(module, "_Z7barrierj",
                           LLVMFunctionType(LLVMVoidTypeInContext(context), &i32, 1, false));
}

/* A REGIONS kernel whose sub-group barriers only some work-items meet goes
 * back to fibers: its barriers become the device's hooks and its
 * work-group function hands the work-item function to run_items. */
static bool back_to_fibers(LLVMModuleRef module, LLVMBuilderRef b, struct wg *wg)
{
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(wg->fn); bb;
         bb = LLVMGetNextBasicBlock(bb)) {
        LLVMValueRef next;
        for (LLVMValueRef inst = LLVMGetFirstInstruction(bb); inst; inst = next) {
            next = LLVMGetNextInstruction(inst);
            if (!LLVMIsACallInst(inst) || !is_any_barrier(inst))
                continue;
            size_t length;
            const char *name;
            size_t name_length =
                plain_name(LLVMGetValueName2(LLVMGetCalledValue(inst), &length), &name);
            call_state_hook(b, wg, inst,
                            barrier_kind_of(name, name_length) == SUB_GROUP_BARRIER
                                ? offsetof(struct cc_wg_state, sub_group_barrier)
                                : offsetof(struct cc_wg_state, barrier));
            LLVMInstructionEraseFromParent(inst);
        }
    }
    wg->form = FIBERS;
    wg->exported = build_fiber_wg(module, wg, wg->fn);
    return wg->exported != NULL;
}

static bool is_sub_group_barrier(LLVMValueRef call)
{
    return is_any_barrier(call) && !is_work_group_barrier(call);
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
static size_t calls_in(LLVMValueRef fn, bool (*wanted)(LLVMValueRef), LLVMValueRef **calls)
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
 * that keeps S become the device's hook now (lower_calls left them). The
 * loads of the pending size become the constant; the library's marks go. */
static bool settle_sub_group_size(LLVMBuilderRef b, struct wg *wg)
{
    LLVMValueRef *calls;
    size_t n = calls_in(wg->fn, is_non_uniform_mark, &calls);
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

    n = calls_in(wg->fn, is_sub_group_barrier, &calls);
    if (n == (size_t)-1)
        return false;
    for (size_t i = 0; i < n; i++) {
        if (size > 1 && wg->form != FIBERS)
            continue;
        if (size > 1)
            call_state_hook(b, wg, calls[i], offsetof(struct cc_wg_state, sub_group_barrier));
        LLVMInstructionEraseFromParent(calls[i]);
    }
    free(calls);
    if (size == 1)
        wg->sub_group_barriers = false;
    return true;
}

/* Every defined function is inlined into the work-group functions: the
 * work-item calls can only be lowered where the loop counters are. */
static void prepare_inlining(LLVMModuleRef module)
{
    LLVMContextRef context = LLVMGetModuleContext(module);
    unsigned always = LLVMGetEnumAttributeKindForName("alwaysinline", 12);
    unsigned noinline = LLVMGetEnumAttributeKindForName("noinline", 8);
    unsigned optnone = LLVMGetEnumAttributeKindForName("optnone", 7);
    LLVMAttributeRef always_attr = LLVMCreateEnumAttribute(context, always, 0);
    for (LLVMValueRef fn = LLVMGetFirstFunction(module); fn; fn = LLVMGetNextFunction(fn)) {
        if (LLVMIsDeclaration(fn))
            continue;
        LLVMRemoveEnumAttributeAtIndex(fn, LLVMAttributeFunctionIndex, noinline);
        LLVMRemoveEnumAttributeAtIndex(fn, LLVMAttributeFunctionIndex, optnone);
        LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex, always_attr);
        /* the SPIR-V translator marks the calls of a DontInline function
         * too, and a call's noinline overrides its callee's alwaysinline */
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
            for (LLVMValueRef inst = LLVMGetFirstInstruction(bb); inst;
                 inst = LLVMGetNextInstruction(inst))
                if (LLVMIsACallInst(inst))
                    LLVMRemoveCallSiteEnumAttribute(inst, LLVMAttributeFunctionIndex, noinline);
    }
}

cl_int cc_run_passes(LLVMModuleRef module, const char *passes, LLVMTargetMachineRef machine,
                     struct cc_log *log)
{
    LLVMPassBuilderOptionsRef options = LLVMCreatePassBuilderOptions();
    LLVMErrorRef error = LLVMRunPasses(module, passes, machine, options);
    LLVMDisposePassBuilderOptions(options);
    if (error) {
        char *message = LLVMGetErrorMessage(error);
        cc_log_printf(log, "error: %s: %s\n", passes, message);
        LLVMDisposeErrorMessage(message);
        return CL_BUILD_PROGRAM_FAILURE;
    }
    return CL_SUCCESS;
}

cl_int cc_make_workgroup_functions(LLVMModuleRef module, struct cc_kernel_info *kernels,
                                   unsigned num_kernels, LLVMTargetMachineRef machine,
                                   struct cc_log *log)
{
    struct wg *wgs = calloc(num_kernels ? num_kernels : 1, sizeof *wgs);
    if (!wgs)
        return CL_OUT_OF_HOST_MEMORY;
    cl_int err = CL_SUCCESS;
    unsigned i;
    for (i = 0; i < num_kernels; i++) {
        wgs[i].kernel = &kernels[i];
        wgs[i].kernel_fn = LLVMGetNamedFunction(module, kernels[i].name);
        if (!wgs[i].kernel_fn) {
            cc_log_printf(log, "error: internal: kernel '%s' vanished\n", kernels[i].name);
            free(wgs);
            return CL_BUILD_PROGRAM_FAILURE;
        }
    }
    for (i = 0; i < num_kernels; i++)
        wgs[i].form = form_of(wgs[i].kernel_fn, &wgs[i].sub_group_barriers, &wgs[i].non_uniform);
    prepare_inlining(module);
    /* Every call inlined into the kernels, bottom-up: each function is
     * simplified (its allocas made registers, common expressions merged)
     * after its callees are inlined into it and before it is inlined into
     * its callers, as LLVM's inliner does. Inlining the front end's
     * unoptimised functions as they are multiplied their allocas and loads
     * by every call site: one of hashcat's WPA kernels became 445,000
     * instructions and 35,000 allocas (42,000 and none this way), and the
     * program took 36 s to reach its regions, 2.7 s now. Before build_wg:
     * the work-group functions' loads of the launch state have no uses yet,
     * and early-cse would delete them. */
    if ((err = cc_run_passes(module, "cgscc(inline<only-mandatory>,function(sroa,early-cse))",
                             machine, log)))
        goto out;
    for (i = 0; i < num_kernels; i++) {
        if (!build_wg(module, &wgs[i])) {
            err = CL_OUT_OF_HOST_MEMORY;
            goto out;
        }
    }
    if ((err = cc_run_passes(module, "always-inline", machine, log)))
        goto out;

    LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetModuleContext(module));
    for (i = 0; i < num_kernels; i++) {
        cl_int e = lower_calls(b, &wgs[i], log);
        if (!e)
            e = cc_place_locals(wgs[i].fn, wgs[i].entry, wgs[i].local_mem, wgs[i].kernel, log);
        if (!e && wgs[i].form != FIBERS)
            cc_localize_atomics(b, wgs[i].fn);
        if (!e && wgs[i].form == LOOPS && scalarizing_pays(wgs[i].fn))
            cc_scalarize_work_items(wgs[i].fn);
        if (!e && wgs[i].form == LOOPS)
            mark_parallel(&wgs[i]);
        if (e && !err)
            err = e;
    }
    LLVMDisposeBuilder(b);
    if (err)
        goto out;

    /* Kernels with barriers: the front end's allocas become registers
     * first, so that only what really lives across a barrier is kept per
     * work-item. Loops of a few constant iterations are unrolled first
     * (what O3 would do later), so that a private array they index (OpenCV's
     * row_filter: `srcT temp[3]`, filled in a loop before the barrier and
     * reused after it) becomes registers too: kept per work-item across the
     * barrier, written bytewise and read back whole, it stopped the
     * vectorizer (GaussianBlur of a BGR image 56 -> 21 ms, PoCL 58). */
    bool any_regions = false, any_non_uniform = false;
    for (i = 0; i < num_kernels; i++) {
        any_regions |= wgs[i].form == REGIONS;
        any_non_uniform |= wgs[i].non_uniform;
    }
    if ((any_regions || any_non_uniform) &&
        (err = cc_run_passes(
             module,
             "function(sroa,early-cse,loop-simplify,lcssa,loop(loop-unroll-full),sroa,early-cse)",
             machine, log)))
        goto out;
    b = LLVMCreateBuilderInContext(LLVMGetModuleContext(module));
    for (i = 0; i < num_kernels && !err; i++) {
        if (!wgs[i].non_uniform)
            wgs[i].kernel->sub_group_size = cc_sub_group_size();
        else if (!settle_sub_group_size(b, &wgs[i]))
            err = CL_OUT_OF_HOST_MEMORY;
    }
    LLVMValueRef pending = LLVMGetNamedGlobal(module, "__cpucl_pending_sub_group_size");
    if (pending && !LLVMGetFirstUse(pending))
        LLVMDeleteGlobal(pending);
    for (i = 0; i < num_kernels && !err; i++) {
        if (wgs[i].form != REGIONS)
            continue;
        bool (*split_at)(LLVMValueRef) = is_work_group_barrier;
        if (wgs[i].sub_group_barriers) {
            /* Sub-group barriers that every work-item meets alike can be
             * work-group barriers; others need the fibers' sub-group
             * scheduling. */
            LLVMValueRef *calls;
            size_t n = calls_in(wgs[i].fn, is_sub_group_barrier, &calls);
            bool alike =
                n != (size_t)-1 &&
                cc_all_work_items_reach(wgs[i].fn, LLVMGetEntryBasicBlock(wgs[i].fn), calls, n);
            free(calls);
            if (!alike) {
                if (!back_to_fibers(module, b, &wgs[i]))
                    err = CL_OUT_OF_HOST_MEMORY;
                continue;
            }
            split_at = is_any_barrier;
        }
        /* private arrays of constants (a convolution's mask) read after a
         * barrier: one constant global, not a copy per work-item */
        cc_share_constant_arrays(wgs[i].fn);
        unsigned added = 0;
        if (loop_barriers_wanted())
            added = cc_add_loop_barriers(wgs[i].fn, LLVMGetEntryBasicBlock(wgs[i].fn), split_at,
                                         barrier_declaration(module));
        /* (with loop barriers, loops.cpp has scalarized it already) */
        if (!added && scalarizing_pays(wgs[i].fn) &&
            cc_vector_accesses_follow_lanes(wgs[i].fn))
            cc_scalarize_work_items(wgs[i].fn);
        bool unsuitable;
        wgs[i].exported =
            cc_build_regions(module, wgs[i].fn, wgs[i].kernel->name, split_at, &unsuitable,
                             &wgs[i].kernel->private_mem_size, log);
        if (!wgs[i].exported && unsuitable && !back_to_fibers(module, b, &wgs[i]))
            err = CL_OUT_OF_HOST_MEMORY;
        else if (!wgs[i].exported && !unsuitable)
            err = CL_OUT_OF_HOST_MEMORY;
    }
    LLVMDisposeBuilder(b);
    if (err)
        goto out;

    /* A kernel with reqd_work_group_size (or work_group_size_hint): a copy
     * of its work-group function for groups of that size, with constant
     * trip counts (specialize.cpp). Not for fibers, whose work-items the
     * device runs. */
    for (i = 0; i < num_kernels; i++) {
        const size_t *required = wgs[i].kernel->reqd_work_group_size;
        const size_t *hint = wgs[i].kernel->work_group_size_hint;
        bool is_required = required[0] && required[1] && required[2];
        const size_t *size = is_required ? required : hint;
        if (wgs[i].form != FIBERS && size[0] && size[1] && size[2] && specialization_wanted())
            cc_specialize_local_size(wgs[i].exported, size, is_required,
                                     offsetof(struct cc_wg_state, local_size),
                                     offsetof(struct cc_wg_state, enqueued_local_size));
    }

    /* Only the work-group functions stay visible; the kernels, helpers and
     * library functions, all inlined now, are dropped by globaldce. */
    for (LLVMValueRef fn = LLVMGetFirstFunction(module); fn; fn = LLVMGetNextFunction(fn)) {
        if (LLVMIsDeclaration(fn))
            continue;
        bool is_wg = false;
        for (i = 0; i < num_kernels && !is_wg; i++)
            is_wg = wgs[i].exported == fn;
        if (!is_wg) {
            LLVMSetLinkage(fn, LLVMInternalLinkage);
            LLVMSetVisibility(fn, LLVMDefaultVisibility);
        }
    }
    for (LLVMValueRef g = LLVMGetFirstGlobal(module); g; g = LLVMGetNextGlobal(g)) {
        if (!LLVMIsDeclaration(g)) {
            LLVMSetLinkage(g, LLVMInternalLinkage);
            LLVMSetVisibility(g, LLVMDefaultVisibility);
        }
    }
    err = cc_run_passes(module, "globaldce", machine, log);
out:
    free(wgs);
    return err;
}

void cc_measure_private_mem(LLVMModuleRef module, struct cc_kernel_info *kernels,
                            unsigned num_kernels)
{
    LLVMTargetDataRef layout = LLVMGetModuleDataLayout(module);
    for (unsigned i = 0; i < num_kernels; i++) {
        char *name = cc_wg_function_name(kernels[i].name);
        LLVMValueRef fn = name ? LLVMGetNamedFunction(module, name) : NULL;
        free(name);
        if (!fn || LLVMIsDeclaration(fn))
            continue;
        size_t total = 0;
        /* Static allocas live in the entry block; the work-items reuse them. */
        for (LLVMValueRef inst = LLVMGetFirstInstruction(LLVMGetEntryBasicBlock(fn)); inst;
             inst = LLVMGetNextInstruction(inst)) {
            if (!LLVMIsAAllocaInst(inst))
                continue;
            LLVMValueRef count = LLVMGetOperand(inst, 0);
            unsigned long long n = LLVMIsAConstantInt(count) ? LLVMConstIntGetZExtValue(count) : 1;
            total += (size_t)(n * LLVMABISizeOfType(layout, LLVMGetAllocatedType(inst)));
        }
        /* on top of what regions keep per work-item across barriers */
        kernels[i].private_mem_size += total;
    }
}

/* Whether a loop ID (llvm.loop metadata) says the loop vectorizer did it. */
static bool says_vectorized(LLVMValueRef loop_id)
{
    unsigned n = LLVMGetMDNodeNumOperands(loop_id);
    LLVMValueRef *operands = malloc((n ? n : 1) * sizeof *operands);
    bool found = false;
    if (!operands)
        return false;
    LLVMGetMDNodeOperands(loop_id, operands);
    for (unsigned i = 0; i < n && !found; i++) {
        unsigned count =
            operands[i] && LLVMIsAMDNode(operands[i]) ? LLVMGetMDNodeNumOperands(operands[i]) : 0;
        LLVMValueRef *inner = count ? malloc(count * sizeof *inner) : NULL;
        if (!inner)
            continue;
        LLVMGetMDNodeOperands(operands[i], inner);
        unsigned length = 0;
        const char *text = inner[0] ? LLVMGetMDString(inner[0], &length) : NULL;
        found = text && length == 22 && !memcmp(text, "llvm.loop.isvectorized", 22);
        free(inner);
    }
    free(operands);
    return found;
}

void cc_report_vectorization(LLVMModuleRef module, const struct cc_kernel_info *kernels,
                             unsigned num_kernels)
{
    unsigned loop_kind = LLVMGetMDKindIDInContext(LLVMGetModuleContext(module), "llvm.loop", 9);
    for (unsigned k = 0; k < num_kernels; k++) {
        char *name = cc_wg_function_name(kernels[k].name);
        LLVMValueRef fn = name ? LLVMGetNamedFunction(module, name) : NULL;
        free(name);
        if (!fn)
            continue;
        bool vectorized = false;
        unsigned widest = 1;
        char widest_type[64] = "";
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
            for (LLVMValueRef inst = LLVMGetFirstInstruction(bb); inst;
                 inst = LLVMGetNextInstruction(inst)) {
                LLVMValueRef loop =
                    LLVMIsATerminatorInst(inst) ? LLVMGetMetadata(inst, loop_kind) : NULL;
                if (loop && says_vectorized(loop))
                    vectorized = true;
                LLVMTypeRef type = LLVMTypeOf(inst);
                if (LLVMGetTypeKind(type) != LLVMVectorTypeKind)
                    continue;
                LLVMTypeRef element = LLVMGetElementType(type);
                if (LLVMGetTypeKind(element) == LLVMIntegerTypeKind &&
                    LLVMGetIntTypeWidth(element) == 1)
                    continue; /* masks */
                if (LLVMGetVectorSize(type) > widest) {
                    widest = LLVMGetVectorSize(type);
                    LLVMTypeKind kind = LLVMGetTypeKind(element);
                    if (kind == LLVMIntegerTypeKind)
                        snprintf(widest_type, sizeof widest_type, "<%u x i%u>", widest,
                                 LLVMGetIntTypeWidth(element));
                    else
                        snprintf(widest_type, sizeof widest_type, "<%u x %s>", widest,
                                 kind == LLVMFloatTypeKind    ? "float"
                                 : kind == LLVMDoubleTypeKind ? "double"
                                 : kind == LLVMHalfTypeKind   ? "half"
                                                              : "ptr");
                }
            }
        fprintf(stderr, "cpucl: kernel %s: %s across work-items; widest vector %s\n",
                kernels[k].name, vectorized ? "vectorized" : "not vectorized",
                widest > 1 ? widest_type : "none");
    }
}
