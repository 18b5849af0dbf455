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
#include "compiler/workgroup.h"

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
size_t cc_plain_name(const char *mangled, const char **name)
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

bool cc_name_is(const char *name, size_t length, const char *what)
{
    return strlen(what) == length && !memcmp(name, what, length);
}

/* barrier and work_group_barrier (6.13.8), sub_group_barrier
 * (cl_khr_subgroups): what the fibers implement. */
enum barrier_kind cc_barrier_kind_of(const char *name, size_t length)
{
    if (cc_name_is(name, length, "barrier") || cc_name_is(name, length, "work_group_barrier"))
        return WORK_GROUP_BARRIER;
    if (cc_name_is(name, length, "sub_group_barrier"))
        return SUB_GROUP_BARRIER;
    return NOT_A_BARRIER;
}

LLVMValueRef cc_load_field(LLVMBuilderRef b, LLVMTypeRef type, LLVMValueRef base, size_t offset,
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

void cc_mark_local_size(LLVMValueRef load)
{
    LLVMContextRef context = LLVMGetTypeContext(LLVMTypeOf(load));
    LLVMTypeRef i64 = LLVMInt64TypeInContext(context);
    LLVMMetadataRef bounds[2] = {
        LLVMValueAsMetadata(LLVMConstInt(i64, 1, 0)),
        LLVMValueAsMetadata(LLVMConstInt(i64, CC_MAX_WORK_GROUP_SIZE + 1, 0))};
    LLVMSetMetadata(load, LLVMGetMDKindIDInContext(context, "range", 5),
                    LLVMMetadataAsValue(context, LLVMMDNodeInContext2(context, bounds, 2)));
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
    LLVMValueRef run = cc_load_field(b, ptr, state, offsetof(struct cc_wg_state, run_items), "run");
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
            cc_load_field(b, i64, state, offsetof(struct cc_wg_state, group_id) + s, "group_id");
        wg->local_size[d] = cc_load_field(
            b, i64, state, offsetof(struct cc_wg_state, local_size) + s, "local_size");
        wg->enqueued_local_size[d] =
            cc_load_field(b, i64, state, offsetof(struct cc_wg_state, enqueued_local_size) + s,
                          "enqueued_local_size");
        cc_mark_local_size(wg->local_size[d]);
        cc_mark_local_size(wg->enqueued_local_size[d]);
        wg->global_size[d] = cc_load_field(
            b, i64, state, offsetof(struct cc_wg_state, global_size) + s, "global_size");
        wg->global_offset[d] = cc_load_field(
            b, i64, state, offsetof(struct cc_wg_state, global_offset) + s, "global_offset");
        wg->num_groups[d] = cc_load_field(
            b, i64, state, offsetof(struct cc_wg_state, num_groups) + s, "num_groups");
    }
    wg->work_dim = cc_load_field(b, i32, state, offsetof(struct cc_wg_state, work_dim), "work_dim");
    wg->local_mem =
        cc_load_field(b, ptr, state, offsetof(struct cc_wg_state, local_mem), "local_mem");

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
            LLVMValueRef offset = cc_load_field(b, i64, args, arg->offset, "local_offset");
            LLVMValueRef address = LLVMBuildInBoundsGEP2(b, LLVMInt8TypeInContext(context),
                                                         wg->local_mem, &offset, 1, "");
            call_args[i] = LLVMBuildAddrSpaceCast(b, address, type, "");
        } else if (LLVMGetEnumAttributeAtIndex(wg->kernel_fn, i + 1, byval_kind)) {
            /* The inliner gives the kernel its own copy, as byval requires. */
            LLVMValueRef index = LLVMConstInt(i64, arg->offset, 0);
            call_args[i] =
                LLVMBuildInBoundsGEP2(b, LLVMInt8TypeInContext(context), args, &index, 1, "");
        } else {
            call_args[i] = cc_load_field(b, type, args, arg->offset, "");
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
    return cc_switch_on("CPUCL_LOOP_BARRIERS");
}

/* CPUCL_SCALARIZE=0 keeps the vector-typed values of kernels whole (for
 * comparison), except where loops.cpp adds loop barriers: their work-item
 * loops are then not vectorized across the work-items. */
static bool scalarize_wanted(void)
{
    return cc_switch_on("CPUCL_SCALARIZE");
}

/* Whether the work-item loops of a kernel gain from having its vector
 * values scalarized (scalarize.cpp), unless CPUCL_SCALARIZE=0: no vector
 * has more than 4 lanes (8 when the kernel has a loop that carries a long
 * chain, kept_chains, and it fills at most half a register: a float8 on
 * AVX-512, each operation of whose chains ran at half the machine's width,
 * clpeak's float8 195 -> 355-386 GFLOPS; in general a float8 sin was 1.1-1.3x
 * slower scalarized and a uchar8 kernel on AVX2 2.8x), and the vectors it
 * loads and stores are narrower than the host's registers (a float4 on
 * AVX2, not a double4, but see the end).
 * Their components then take the registers' full width across the
 * work-items: on AVX2, float4 sin, cos, exp and pow 1.45x faster, uchar4
 * pixels through float4 5x, float3 cross products and normalize 1.25x,
 * float4 erf and atan2 1.75x, float4 arithmetic that only streams memory
 * the same. Others lose: a double4 log 1.1x slower (its loads filled the
 * registers already); a uchar16 kernel 6x slower, and 2 s to compile
 * (16-way interleaving); float16 arithmetic 1.35x slower. */
static bool scalarizing_pays(LLVMValueRef fn, bool kept_chains)
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
                unsigned lanes = LLVMGetVectorSize(type);
                if (lanes > 8 ||
                    (lanes > 4 && (!kept_chains || 2 * cc_type_bits(type) > register_bits)))
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

/* CPUCL_SPECIALIZE=0: no copy of the work-group function for a required
 * local size, to compare. */
static bool specialization_wanted(void)
{
    return cc_switch_on("CPUCL_SPECIALIZE");
}

/* Whether fn has a loop: a branch back to its own block or an earlier one
 * (Clang lays out a loop's condition before its body; a false answer only
 * costs loops.cpp a chance). */
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
            scan->atomics |= cc_is_atomic(inst);
            if (!LLVMIsACallInst(inst))
                continue;
            LLVMValueRef callee = LLVMIsAFunction(LLVMGetCalledValue(inst));
            if (!callee || callee == fn)
                continue;
            size_t length;
            const char *name;
            size_t name_length = cc_plain_name(LLVMGetValueName2(callee, &length), &name);
            if (LLVMIsDeclaration(callee)) {
                enum barrier_kind kind = cc_barrier_kind_of(name, name_length);
                scan->barrier |= kind == WORK_GROUP_BARRIER;
                scan->sub_group_barrier |= kind == SUB_GROUP_BARRIER;
                scan->sub_groups |= cc_name_is(name, name_length, "__cpucl_sub_group_size");
                /* a kernel calling them runs as regions or fibers, where
                 * the work-item function is what uniform.c analyses */
                if (cc_name_is(name, name_length, "__cpucl_non_uniform"))
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
    size_t name_length = cc_plain_name(LLVMGetValueName2(callee, &length), &name);
    return cc_barrier_kind_of(name, name_length) == WORK_GROUP_BARRIER;
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
    size_t name_length = cc_plain_name(LLVMGetValueName2(callee, &length), &name);
    return cc_barrier_kind_of(name, name_length) != NOT_A_BARRIER;
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
                cc_plain_name(LLVMGetValueName2(LLVMGetCalledValue(inst), &length), &name);
            cc_call_state_hook(b, wg, inst,
                               cc_barrier_kind_of(name, name_length) == SUB_GROUP_BARRIER
                                   ? offsetof(struct cc_wg_state, sub_group_barrier)
                                   : offsetof(struct cc_wg_state, barrier));
            LLVMInstructionEraseFromParent(inst);
        }
    }
    wg->form = FIBERS;
    wg->exported = build_fiber_wg(module, wg, wg->fn);
    return wg->exported != NULL;
}

bool cc_is_sub_group_barrier(LLVMValueRef call)
{
    return is_any_barrier(call) && !is_work_group_barrier(call);
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
        cl_int e = cc_lower_work_item_calls(b, &wgs[i], log);
        if (!e)
            e = cc_place_locals(wgs[i].fn, wgs[i].entry, wgs[i].local_mem, wgs[i].kernel, log);
        if (!e && wgs[i].form != FIBERS)
            cc_localize_atomics(b, wgs[i].fn);
        if (!e && wgs[i].form == LOOPS && scalarizing_pays(wgs[i].fn, false))
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
        else if (!cc_settle_sub_group_size(b, &wgs[i]))
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
            size_t n = cc_calls_in(wgs[i].fn, cc_is_sub_group_barrier, &calls);
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
        bool kept_chains = false;
        if (loop_barriers_wanted())
            added = cc_add_loop_barriers(wgs[i].fn, LLVMGetEntryBasicBlock(wgs[i].fn), split_at,
                                         barrier_declaration(module), &kept_chains);
        /* (with loop barriers, loops.cpp has scalarized it already) */
        if (!added && scalarizing_pays(wgs[i].fn, kept_chains) &&
            cc_vector_accesses_follow_lanes(wgs[i].fn))
            cc_scalarize_work_items(wgs[i].fn);
        bool unsuitable;
        wgs[i].exported = cc_build_regions(module, wgs[i].fn, wgs[i].kernel->name, split_at,
                                           &unsuitable, &wgs[i].kernel->context_size, log);
        wgs[i].kernel->private_mem_size = wgs[i].kernel->context_size;
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
        wgs[i].kernel->fibers = wgs[i].form == FIBERS;
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
