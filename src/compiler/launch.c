/* launch.c - the built-in library's hooks for what a launch may fix.
 *
 * Input: a part (parts.cpp) whose image built-ins read an image's format
 * through calls of __cpucl_image_order, __cpucl_image_type and
 * __cpucl_image_element_size, its other fields (data, pitches, size)
 * through __cpucl_image_data ... __cpucl_image_array_size (the image's
 * descriptor, struct cc_image of src/builtins/image.h) and a sampler's bits through
 * __cpucl_sampler_bits(raw bits), all declared and defined nowhere.
 * Output: the same part without those calls, before O3.
 *
 * The general work-group function gets loads of the descriptor's fields,
 * marked !invariant.load (nothing writes a descriptor while a kernel runs),
 * and a sampler's own bits. A launch's copy (codegen.c) gets constants
 * where the launch's facts give them: images carry their format, samplers
 * their bits, so a kernel whose images all share one format and whose
 * sampler arguments agree can have both folded, whichever image or
 * sampler a call reads (OpenCL C 6.13.14: image and sampler values only
 * come from kernel arguments, or, for samplers, from constants, which keep
 * their own bits). The format and addressing switches of image.cl then
 * fold away and a loop of image reads can vectorize.
 *
 * Streaming stores (cc_stream_stores, opt-in with CPUCL_STREAMING=1: codegen.c
 * says why), also for a launch's copy, after O3
 * (before it, the loop vectorizer refuses a store it cannot prove aligned
 * to the vector: x86 then splits it into non-temporal pieces): a buffer
 * larger than the last-level cache that the kernel only writes, in a kernel
 * without atomics or device-scope fences, gets its stores marked
 * !nontemporal. They then skip the cache: no line is read
 * from memory just to be overwritten (a third of the traffic of a kernel
 * that reads one such buffer and writes another), nor evicts what the
 * kernel reads. x86 orders such stores only with a fence: the device
 * (cpu/pool.c, run_piece) ends each piece of groups it runs with an
 * sfence, before it reports the piece done.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "builtins/image.h"
#include "compiler/internal.h"

/* The format's fields, which a launch may fix; the other fields of the
 * descriptor, which none fixes but which never change while a kernel runs
 * (as invariant loads, LICM takes them out of the work-item loop, which
 * the image's stores through a global pointer would otherwise stop); the
 * sampler. */
enum hook {
    ORDER,
    TYPE,
    ELEMENT_SIZE,
    DATA,
    ROW_PITCH,
    SLICE_PITCH,
    WIDTH,
    HEIGHT,
    DEPTH,
    ARRAY_SIZE,
    SAMPLER,
    NUM_HOOKS
};

static const char *const hook_names[NUM_HOOKS] = {
    "__cpucl_image_order",       "__cpucl_image_type",        "__cpucl_image_element_size",
    "__cpucl_image_data",        "__cpucl_image_row_pitch",   "__cpucl_image_slice_pitch",
    "__cpucl_image_width",       "__cpucl_image_height",      "__cpucl_image_depth",
    "__cpucl_image_array_size",  "__cpucl_sampler_bits"};

static const size_t field_offsets[SAMPLER] = {
    offsetof(struct cc_image, channel_order), offsetof(struct cc_image, channel_data_type),
    offsetof(struct cc_image, element_size),  offsetof(struct cc_image, data),
    offsetof(struct cc_image, row_pitch),     offsetof(struct cc_image, slice_pitch),
    offsetof(struct cc_image, width),         offsetof(struct cc_image, height),
    offsetof(struct cc_image, depth),         offsetof(struct cc_image, array_size)};

bool cc_is_launch_hook(const char *name)
{
    for (int h = 0; h < NUM_HOOKS; h++)
        if (!strcmp(name, hook_names[h]))
            return true;
    return false;
}

/* What a call of hook h becomes: a constant of the facts, or NULL when the
 * facts do not fix it. */
static LLVMValueRef fixed_value(enum hook h, LLVMValueRef call, const struct cc_launch_facts *facts)
{
    LLVMTypeRef type = LLVMTypeOf(call);
    if (!facts)
        return NULL;
    if (h == SAMPLER)
        return facts->samplers_alike ? LLVMConstInt(type, facts->sampler_bits, 0) : NULL;
    if (!facts->images_alike || h > ELEMENT_SIZE)
        return NULL;
    int value = h == ORDER  ? facts->image_order
                : h == TYPE ? facts->image_type
                            : facts->image_element_size;
    return LLVMConstInt(type, (unsigned long long)(long long)value, 1);
}

static LLVMValueRef lowered(enum hook h, LLVMValueRef call, LLVMBuilderRef b,
                            const struct cc_launch_facts *facts)
{
    LLVMValueRef argument = LLVMGetOperand(call, 0);
    if (h == SAMPLER && LLVMIsAConstantInt(argument))
        return argument; /* a program's sampler constant */
    LLVMValueRef value = fixed_value(h, call, facts);
    if (value)
        return value;
    if (h == SAMPLER)
        return argument;
    LLVMContextRef context = LLVMGetModuleContext(
        LLVMGetGlobalParent(LLVMGetBasicBlockParent(LLVMGetInstructionParent(call))));
    LLVMPositionBuilderBefore(b, call);
    LLVMValueRef offset = LLVMConstInt(LLVMInt64TypeInContext(context), field_offsets[h], 0);
    LLVMValueRef at =
        LLVMBuildInBoundsGEP2(b, LLVMInt8TypeInContext(context), argument, &offset, 1, "");
    LLVMValueRef load = LLVMBuildLoad2(b, LLVMTypeOf(call), at, "");
    LLVMSetAlignment(load, h >= DATA && h <= SLICE_PITCH ? 8 : 4);
    unsigned kind = LLVMGetMDKindIDInContext(context, "invariant.load", 14);
    LLVMSetMetadata(load, kind,
                    LLVMMetadataAsValue(context, LLVMMDNodeInContext2(context, NULL, 0)));
    return load;
}

void cc_lower_launch_hooks(LLVMModuleRef module, const struct cc_launch_facts *facts)
{
    LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetModuleContext(module));
    for (int h = 0; h < NUM_HOOKS; h++) {
        LLVMValueRef fn = LLVMGetNamedFunction(module, hook_names[h]);
        if (!fn)
            continue;
        LLVMUseRef use;
        while ((use = LLVMGetFirstUse(fn))) {
            LLVMValueRef call = LLVMGetUser(use);
            if (!LLVMIsACallInst(call) || LLVMGetCalledValue(call) != fn)
                break; /* not a call: left alone (the library makes none) */
            LLVMValueRef value = lowered((enum hook)h, call, b, facts);
            LLVMReplaceAllUsesWith(call, value);
            LLVMInstructionEraseFromParent(call);
        }
        if (!LLVMGetFirstUse(fn))
            LLVMDeleteFunction(fn);
    }
    LLVMDisposeBuilder(b);
}

/* The stores through `pointer` (and what is derived from it by address
 * arithmetic, phis and selects) join *stores; false when anything else
 * uses it: a load, a call, an atomic, the pointer stored as a value.
 * `merged` holds the phis and selects already followed (a loop's phi comes
 * back to itself). */
static bool only_stored_through(LLVMValueRef pointer, struct cc_values *stores,
                                struct cc_values *merged, int depth)
{
    if (depth > 32)
        return false;
    for (LLVMUseRef u = LLVMGetFirstUse(pointer); u; u = LLVMGetNextUse(u)) {
        LLVMValueRef user = LLVMGetUser(u);
        if (LLVMIsAPHINode(user) || LLVMIsASelectInst(user)) {
            if (LLVMIsASelectInst(user) && LLVMGetOperand(user, 0) == pointer)
                return false;
            if (cc_values_have(merged, user))
                continue;
            if (!cc_values_add(merged, user) ||
                !only_stored_through(user, stores, merged, depth + 1))
                return false;
        } else if (LLVMIsAGetElementPtrInst(user) || LLVMIsAAddrSpaceCastInst(user) ||
                   LLVMIsABitCastInst(user)) {
            if (!only_stored_through(user, stores, merged, depth + 1))
                return false;
        } else if (LLVMIsAICmpInst(user)) {
            /* comparing addresses reads no memory */
        } else if (LLVMIsAStoreInst(user) && LLVMGetOperand(user, 1) == pointer &&
                   LLVMGetOperand(user, 0) != pointer && !LLVMGetVolatile(user) &&
                   LLVMGetOrdering(user) == LLVMAtomicOrderingNotAtomic) {
            if (!cc_values_add(stores, user))
                return false;
        } else {
            return false;
        }
    }
    return true;
}

/* Whether fn orders memory beyond its own thread: an atomic, or a fence
 * of system scope. A release fence costs no instruction on x86 and would
 * not order streaming stores before a flag another group reads. */
static bool synchronizes(LLVMValueRef fn)
{
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef inst = LLVMGetFirstInstruction(bb); inst;
             inst = LLVMGetNextInstruction(inst)) {
            if (LLVMIsAAtomicRMWInst(inst) || LLVMIsAAtomicCmpXchgInst(inst))
                return true;
            if (LLVMIsAFenceInst(inst) && !LLVMIsAtomicSingleThread(inst))
                return true;
            if ((LLVMIsALoadInst(inst) || LLVMIsAStoreInst(inst)) &&
                LLVMGetOrdering(inst) != LLVMAtomicOrderingNotAtomic)
                return true;
            if (LLVMIsACallInst(inst)) {
                LLVMValueRef callee = LLVMGetCalledValue(inst);
                if (!LLVMIsAFunction(callee) || !LLVMGetIntrinsicID(callee))
                    return true; /* what it does is not seen here */
            }
        }
    return false;
}

/* The loads of argument `offset` of the argument block in wg_fn. */
static bool is_argument_load(LLVMValueRef inst, LLVMValueRef args, size_t offset)
{
    if (!LLVMIsALoadInst(inst))
        return false;
    LLVMValueRef at = LLVMGetOperand(inst, 0);
    if (offset == 0 && at == args)
        return true;
    if (!LLVMIsAGetElementPtrInst(at) || LLVMGetOperand(at, 0) != args ||
        LLVMGetNumOperands(at) != 2 || !LLVMIsAConstantInt(LLVMGetOperand(at, 1)))
        return false;
    return LLVMConstIntGetZExtValue(LLVMGetOperand(at, 1)) == offset;
}

void cc_align_streaming_arguments(LLVMValueRef wg_fn, const struct cc_kernel_info *kernel,
                                  uint32_t streaming_args)
{
    LLVMContextRef context = LLVMGetModuleContext(LLVMGetGlobalParent(wg_fn));
    LLVMValueRef args = LLVMGetParam(wg_fn, 0);
    unsigned kind = LLVMGetMDKindIDInContext(context, "align", 5);
    LLVMValueRef align = LLVMConstInt(LLVMInt64TypeInContext(context), CC_STREAMING_ALIGN, 0);
    LLVMValueRef node = LLVMMDNodeInContext(context, &align, 1);
    for (unsigned i = 0; i < kernel->num_args && i < 32; i++) {
        if (!(streaming_args & (1u << i)) || kernel->args[i].kind != CC_ARG_BUFFER)
            continue;
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(wg_fn); bb;
             bb = LLVMGetNextBasicBlock(bb))
            for (LLVMValueRef inst = LLVMGetFirstInstruction(bb); inst;
                 inst = LLVMGetNextInstruction(inst))
                if (is_argument_load(inst, args, kernel->args[i].offset) &&
                    LLVMGetTypeKind(LLVMTypeOf(inst)) == LLVMPointerTypeKind)
                    LLVMSetMetadata(inst, kind, node);
    }
}

/* Whether a store moves a whole vector to an address aligned to its size:
 * what x86 makes one non-temporal store of (movntps/movntdq). A smaller
 * alignment it splits into non-temporal stores of 4 or 8 bytes, which are
 * slower than the cached vector store (the stencil in bench/kernels.c). */
static bool streams_whole(LLVMValueRef store, LLVMTargetDataRef data)
{
    LLVMTypeRef type = LLVMTypeOf(LLVMGetOperand(store, 0));
    if (LLVMGetTypeKind(type) != LLVMVectorTypeKind)
        return false;
    unsigned long long size = LLVMStoreSizeOfType(data, type);
    return size >= 16 && (size & (size - 1)) == 0 && LLVMGetAlignment(store) >= size;
}

bool cc_stream_stores(LLVMValueRef wg_fn, const struct cc_kernel_info *kernel,
                      uint32_t streaming_args)
{
    LLVMModuleRef module = LLVMGetGlobalParent(wg_fn);
    LLVMContextRef context = LLVMGetModuleContext(module);
    LLVMValueRef args = LLVMGetParam(wg_fn, 0);
    unsigned kind = LLVMGetMDKindIDInContext(context, "nontemporal", 11);
    LLVMValueRef one = LLVMConstInt(LLVMInt32TypeInContext(context), 1, 0);
    LLVMValueRef nontemporal = LLVMMDNodeInContext(context, &one, 1);
    LLVMTargetDataRef data = LLVMGetModuleDataLayout(module);
    bool marked = false;
    if (!streaming_args || synchronizes(wg_fn))
        return false;
    for (unsigned i = 0; i < kernel->num_args && i < 32; i++) {
        if (!(streaming_args & (1u << i)) || kernel->args[i].kind != CC_ARG_BUFFER)
            continue;
        struct cc_values stores = {0}, merged = {0};
        bool write_only = true;
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(wg_fn); bb && write_only;
             bb = LLVMGetNextBasicBlock(bb))
            for (LLVMValueRef inst = LLVMGetFirstInstruction(bb); inst && write_only;
                 inst = LLVMGetNextInstruction(inst))
                if (is_argument_load(inst, args, kernel->args[i].offset))
                    write_only = only_stored_through(inst, &stores, &merged, 0);
        for (size_t k = 0; write_only && k < stores.count; k++)
            if (streams_whole(stores.items[k], data)) {
                LLVMSetMetadata(stores.items[k], kind, nontemporal);
                marked = true;
            }
        free(stores.items);
        free(merged.items);
    }
    return marked;
}
