/* fences.c - OpenCL C's memory fences as LLVM fences that say what they
 * order.
 *
 * Input: the front end's module (Clang's or the SPIR-V translator's), before
 * the built-in library is linked, with calls of atomic_work_item_fence
 * (6.13.11.4: flags, order, scope) and mem_fence, read_mem_fence,
 * write_mem_fence (6.13.9: flags). Output: each call whose arguments are
 * constants replaced by one `fence` instruction, or by nothing for a relaxed
 * one; calls with run-time arguments are left to the library's definitions
 * (src/builtins/atomic.cl), which decide the same way at run time.
 *
 * The fence's syncscope says how far it must reach: the work-items of a
 * work-group run one after another on one thread (workgroup.c), so a fence
 * at work-item, sub-group or work-group scope, or one that orders local
 * memory only, need only stop the compiler: syncscope("singlethread"),
 * which x86 emits as no instruction. Global or image memory at device or
 * all-SVM-devices scope is shared with other workers' threads and the host:
 * a system-scope fence (mfence for seq_cst; acquire/release cost no
 * instruction on x86 but still bind the compiler).
 *
 * Its !mmra (memory model relaxation annotations, LLVM 19) says which
 * address spaces it orders: one tag "opencl-fence-mem":"local", ":global"
 * or ":image" per flag. x86 reads neither the tags nor more than the scope,
 * but optimisations that understand MMRA may move other memory accesses
 * across a fence that does not order their address space, and a reader of
 * the IR sees what the kernel asked for.
 *
 * Barriers (barrier, work_group_barrier) do not come here: regions.c ends a
 * region at each, and every work-item of the group finishes one region on
 * the group's thread before any starts the next, which orders every address
 * space the flags could name.
 */
#include <stdlib.h>
#include <string.h>

#include "compiler/internal.h"

enum { LOCAL_FENCE = 1, GLOBAL_FENCE = 2, IMAGE_FENCE = 4 };
enum { RELAXED = 0, ACQUIRE = 2, RELEASE = 3, ACQ_REL = 4, SEQ_CST = 5 };
enum { SCOPE_WORK_ITEM = 0, SCOPE_WORK_GROUP = 1, SCOPE_DEVICE = 2, SCOPE_ALL_SVM = 3 };

struct fence_function {
    const char *name;            /* mangled, as Clang and the translator (CL2.0) name it */
    bool explicit;               /* atomic_work_item_fence: order and scope arguments */
    LLVMAtomicOrdering ordering; /* of the 1.x fences */
};

static const struct fence_function fence_functions[] = {
    {"_Z22atomic_work_item_fencej12memory_order12memory_scope", true,
     LLVMAtomicOrderingSequentiallyConsistent},
    {"_Z9mem_fencej", false, LLVMAtomicOrderingSequentiallyConsistent},
    {"_Z14read_mem_fencej", false, LLVMAtomicOrderingAcquire},
    {"_Z15write_mem_fencej", false, LLVMAtomicOrderingRelease},
};

static LLVMAtomicOrdering ordering_of(unsigned long long order)
{
    switch (order) {
    case ACQUIRE: return LLVMAtomicOrderingAcquire;
    case RELEASE: return LLVMAtomicOrderingRelease;
    case ACQ_REL: return LLVMAtomicOrderingAcquireRelease;
    default: return LLVMAtomicOrderingSequentiallyConsistent;
    }
}

/* The !mmra node: a tag, or a tuple of tags, one per address space. */
static LLVMMetadataRef fence_tags(LLVMContextRef context, unsigned flags)
{
    static const char *const spaces[3] = {"local", "global", "image"};
    LLVMMetadataRef tags[3];
    size_t count = 0;
    for (int i = 0; i < 3; i++)
        if (flags & (1u << i)) {
            LLVMMetadataRef pair[2] = {
                LLVMMDStringInContext2(context, "opencl-fence-mem", 16),
                LLVMMDStringInContext2(context, spaces[i], strlen(spaces[i]))};
            tags[count++] = LLVMMDNodeInContext2(context, pair, 2);
        }
    if (count == 1)
        return tags[0];
    return LLVMMDNodeInContext2(context, tags, count);
}

static bool constant_argument(LLVMValueRef call, unsigned i, unsigned long long *value)
{
    LLVMValueRef argument = LLVMGetOperand(call, i);
    if (!LLVMIsAConstantInt(argument))
        return false;
    *value = LLVMConstIntGetZExtValue(argument);
    return true;
}

/* Replaces one call, if its arguments are constants. */
static void lower_call(LLVMValueRef call, const struct fence_function *f, LLVMBuilderRef b,
                       LLVMContextRef context)
{
    unsigned long long flags, order = SEQ_CST, scope = SCOPE_WORK_GROUP;
    if (!constant_argument(call, 0, &flags))
        return;
    if (f->explicit && (!constant_argument(call, 1, &order) || !constant_argument(call, 2, &scope)))
        return;
    flags &= LOCAL_FENCE | GLOBAL_FENCE | IMAGE_FENCE;
    if (order == RELAXED || !flags) {
        /* orders nothing (6.13.11.4: a relaxed fence has no effect) */
        LLVMInstructionEraseFromParent(call);
        return;
    }
    bool shared_memory = flags & (GLOBAL_FENCE | IMAGE_FENCE);
    bool beyond_group = scope == SCOPE_DEVICE || scope == SCOPE_ALL_SVM;
    /* 6.13.9: mem_fence orders the work-item's accesses as the work-items
     * of its group see them: work-group scope */
    bool system = shared_memory && beyond_group && f->explicit;
    LLVMAtomicOrdering ordering = f->explicit ? ordering_of(order) : f->ordering;
    LLVMPositionBuilderBefore(b, call);
    LLVMValueRef fence = LLVMBuildFence(b, ordering, !system, "");
    unsigned kind = LLVMGetMDKindIDInContext(context, "mmra", 4);
    LLVMSetMetadata(fence, kind,
                    LLVMMetadataAsValue(context, fence_tags(context, (unsigned)flags)));
    LLVMInstructionEraseFromParent(call);
}

void cc_lower_fences(LLVMModuleRef module)
{
    LLVMContextRef context = LLVMGetModuleContext(module);
    LLVMBuilderRef b = LLVMCreateBuilderInContext(context);
    for (size_t i = 0; i < sizeof fence_functions / sizeof fence_functions[0]; i++) {
        const struct fence_function *f = &fence_functions[i];
        LLVMValueRef fn = LLVMGetNamedFunction(module, f->name);
        if (!fn)
            continue;
        /* collect first: lowering removes uses */
        size_t count = 0;
        for (LLVMUseRef u = LLVMGetFirstUse(fn); u; u = LLVMGetNextUse(u))
            count++;
        LLVMValueRef *calls = count ? malloc(count * sizeof *calls) : NULL;
        if (!calls)
            continue; /* out of memory: the library's fences serve */
        size_t n = 0;
        for (LLVMUseRef u = LLVMGetFirstUse(fn); u; u = LLVMGetNextUse(u)) {
            LLVMValueRef user = LLVMGetUser(u);
            if (LLVMIsACallInst(user) && LLVMGetCalledValue(user) == fn &&
                LLVMGetNumArgOperands(user) == (f->explicit ? 3u : 1u))
                calls[n++] = user;
        }
        for (size_t k = 0; k < n; k++)
            lower_call(calls[k], f, b, context);
        free(calls);
    }
    LLVMDisposeBuilder(b);
}
