/* enqueue.c - device-side enqueue (OpenCL C 2.0 6.13.17): block kernels
 * and the runtime functions the generated code calls.
 *
 * The pass (cc_name_block_kernels) takes the front end's module before the
 * kernel table is read. For each block that a kernel enqueues, clang emits
 * a spir_kernel wrapper "__<fn>_block_invoke[_N]_kernel" (or
 * "<var>_block_invoke_kernel") with no kernel_arg_* metadata, and passes
 * its address to __enqueue_kernel_* and the __get_kernel_*_impl queries
 * (COMPILER-NOTES 3). Those addresses become the address of a constant
 * string holding the wrapper's name, so that the wrapper can turn into a
 * work-group function like any kernel (its original then has no use left)
 * and the runtime finds the child's compiled kernel by name in the parent's
 * program. Nothing else changes; the pass assumes the names clang gives.
 *
 * The runtime functions keep clang's names and signatures; each adapter
 * here forwards to the table the runtime hands over (cc_set_device_enqueue)
 * and the JIT binds the names to the adapters (cc_enqueue_symbols).
 */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/internal.h"

#define BLOCK_KERNEL_ATTRIBUTE "cpucl-block-kernel"

bool cc_is_block_kernel(LLVMValueRef fn)
{
    return LLVMGetStringAttributeAtIndex(fn, LLVMAttributeFunctionIndex, BLOCK_KERNEL_ATTRIBUTE,
                                         sizeof BLOCK_KERNEL_ATTRIBUTE - 1) != NULL;
}

/* A block's wrapper: a spir_kernel named "..._block_invoke..._kernel" that
 * clang emits without argument metadata, or that a module (the SPIR-V
 * translator's, which adds metadata) uses other than by calling it. */
static bool looks_like_block_kernel(LLVMValueRef fn)
{
    if (LLVMIsDeclaration(fn) || LLVMGetFunctionCallConv(fn) != CC_SPIR_KERNEL_CC)
        return false;
    size_t length;
    const char *name = LLVMGetValueName2(fn, &length);
    static const char suffix[] = "_kernel";
    size_t n = sizeof suffix - 1;
    if (length <= n || memcmp(name + length - n, suffix, n) || !strstr(name, "_block_invoke"))
        return false;
    for (LLVMUseRef use = LLVMGetFirstUse(fn); use; use = LLVMGetNextUse(use)) {
        LLVMValueRef user = LLVMGetUser(use);
        if (!LLVMIsACallInst(user) || LLVMGetCalledValue(user) != fn)
            return true;
    }
    LLVMContextRef context = LLVMGetModuleContext(LLVMGetGlobalParent(fn));
    unsigned kind = LLVMGetMDKindIDInContext(context, "kernel_arg_addr_space", 21);
    size_t num_entries = 0;
    LLVMValueMetadataEntry *entries = LLVMGlobalCopyAllMetadata(fn, &num_entries);
    bool has_arg_metadata = false;
    for (size_t i = 0; i < num_entries; i++)
        has_arg_metadata |= LLVMValueMetadataEntriesGetKind(entries, i) == kind;
    if (entries)
        LLVMDisposeValueMetadataEntries(entries);
    return !has_arg_metadata;
}

/* The index of `use` among its user's operands. */
static unsigned operand_index(LLVMValueRef user, LLVMValueRef value)
{
    int count = LLVMGetNumOperands(user);
    for (int i = 0; i < count; i++)
        if (LLVMGetOperand(user, i) == value)
            return (unsigned)i;
    return 0;
}

static void name_block_kernel(LLVMModuleRef module, LLVMValueRef fn)
{
    size_t length;
    const char *name = LLVMGetValueName2(fn, &length);
    LLVMContextRef context = LLVMGetModuleContext(module);
    LLVMValueRef text = LLVMConstStringInContext(context, name, (unsigned)length, false);
    LLVMValueRef global = LLVMAddGlobal(module, LLVMTypeOf(text), "__cpucl.block_kernel");
    LLVMSetInitializer(global, text);
    LLVMSetGlobalConstant(global, true);
    LLVMSetLinkage(global, LLVMPrivateLinkage);
    LLVMSetUnnamedAddress(global, LLVMGlobalUnnamedAddr);

    /* Collect first: replacing changes the use list. */
    size_t count = 0;
    for (LLVMUseRef use = LLVMGetFirstUse(fn); use; use = LLVMGetNextUse(use))
        count++;
    LLVMValueRef *users = malloc((count ? count : 1) * sizeof *users);
    if (!users)
        return; /* the build then fails at the undefined wrapper address, not silently */
    count = 0;
    for (LLVMUseRef use = LLVMGetFirstUse(fn); use; use = LLVMGetNextUse(use))
        users[count++] = LLVMGetUser(use);
    for (size_t i = 0; i < count; i++) {
        LLVMValueRef user = users[i];
        if (LLVMIsAConstantExpr(user)) {
            /* addrspacecast to the generic space: the same cast of the name */
            LLVMReplaceAllUsesWith(user, LLVMConstPointerCast(global, LLVMTypeOf(user)));
        } else if (LLVMIsACallInst(user) && LLVMGetCalledValue(user) == fn) {
            continue; /* a direct call stays a call */
        } else if (LLVMIsAInstruction(user)) {
            LLVMSetOperand(user, operand_index(user, fn), global);
        }
    }
    free(users);
}

/* The block literal also holds the address of the block's invoke function,
 * which the wrapper calls directly. Clang calls blocks in OpenCL directly
 * too, never through the literal, so the field is never read; it is made
 * null, or the invoke function would outlive its inlining into the
 * work-group functions with its work-item builtins unlowered. */
static void forget_invoke_addresses(LLVMValueRef wrapper)
{
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(wrapper); bb;
         bb = LLVMGetNextBasicBlock(bb)) {
        for (LLVMValueRef inst = LLVMGetFirstInstruction(bb); inst;
             inst = LLVMGetNextInstruction(inst)) {
            LLVMValueRef callee = LLVMIsACallInst(inst) ? LLVMGetCalledValue(inst) : NULL;
            if (!callee || !LLVMIsAFunction(callee) || LLVMIsDeclaration(callee))
                continue;
            LLVMUseRef use = LLVMGetFirstUse(callee);
            while (use) {
                LLVMValueRef user = LLVMGetUser(use);
                use = LLVMGetNextUse(use);
                if (LLVMIsAConstantExpr(user))
                    LLVMReplaceAllUsesWith(user, LLVMConstNull(LLVMTypeOf(user)));
                else if (LLVMIsACastInst(user))
                    LLVMReplaceAllUsesWith(user, LLVMConstNull(LLVMTypeOf(user)));
            }
        }
    }
}

/* Clang passes the ND-range of __enqueue_kernel_basic by value (byval);
 * the SPIR-V translator passes a plain pointer to it. The adapter takes it
 * by value, so the translator's calls get byval too. */
static void pass_ndrange_by_value(LLVMModuleRef module)
{
    LLVMValueRef fn = LLVMGetNamedFunction(module, "__enqueue_kernel_basic");
    if (!fn)
        return;
    LLVMContextRef context = LLVMGetModuleContext(module);
    unsigned byval = LLVMGetEnumAttributeKindForName("byval", 5);
    LLVMTypeRef i64 = LLVMInt64TypeInContext(context), range = LLVMArrayType2(i64, 3);
    LLVMTypeRef fields[4] = {LLVMInt32TypeInContext(context), range, range, range};
    LLVMTypeRef ndrange = LLVMStructTypeInContext(context, fields, 4, false);
    LLVMAttributeRef attribute = LLVMCreateTypeAttribute(context, byval, ndrange);
    if (!LLVMGetEnumAttributeAtIndex(fn, 3, byval))
        LLVMAddAttributeAtIndex(fn, 3, attribute);
    for (LLVMUseRef use = LLVMGetFirstUse(fn); use; use = LLVMGetNextUse(use)) {
        LLVMValueRef call = LLVMGetUser(use);
        if (LLVMIsACallInst(call) && LLVMGetCalledValue(call) == fn &&
            !LLVMGetCallSiteEnumAttribute(call, 3, byval))
            LLVMAddCallSiteAttribute(call, 3, attribute);
    }
}

void cc_name_block_kernels(LLVMModuleRef module)
{
    LLVMContextRef context = LLVMGetModuleContext(module);
    LLVMAttributeRef mark = LLVMCreateStringAttribute(
        context, BLOCK_KERNEL_ATTRIBUTE, sizeof BLOCK_KERNEL_ATTRIBUTE - 1, "", 0);
    for (LLVMValueRef fn = LLVMGetFirstFunction(module); fn; fn = LLVMGetNextFunction(fn)) {
        if (looks_like_block_kernel(fn)) {
            LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex, mark);
            name_block_kernel(module, fn);
            forget_invoke_addresses(fn);
        }
    }
    pass_ndrange_by_value(module);
}

/* --- the runtime functions --- */

static _Atomic(const struct cc_device_enqueue *) runtime;

void cc_set_device_enqueue(const struct cc_device_enqueue *functions)
{
    atomic_store(&runtime, functions);
}

static const struct cc_device_enqueue *the_runtime(void)
{
    return atomic_load_explicit(&runtime, memory_order_acquire);
}

/* 6.13.17.1: CLK_ENQUEUE_FAILURE when nothing can take the request. */
#define CLK_ENQUEUE_FAILURE (-101)

static int enqueue(const struct cc_enqueue *request)
{
    const struct cc_device_enqueue *rt = the_runtime();
    return rt ? rt->enqueue_kernel(request) : CLK_ENQUEUE_FAILURE;
}

/* Only this form takes the ND-range by value (COMPILER-NOTES 3). */
static int enqueue_kernel_basic(void *queue, int flags, struct cc_ndrange ndrange,
                                const char *kernel, const void *block)
{
    struct cc_enqueue request = {
        .queue = queue, .flags = flags, .ndrange = &ndrange, .kernel = kernel, .block = block};
    return enqueue(&request);
}

static int enqueue_kernel_basic_events(void *queue, int flags, const struct cc_ndrange *ndrange,
                                       uint32_t num_events, void *const *wait_list,
                                       void **event_ret, const char *kernel, const void *block)
{
    struct cc_enqueue request = {.queue = queue,
                                 .flags = flags,
                                 .ndrange = ndrange,
                                 .num_events = num_events,
                                 .wait_list = wait_list,
                                 .event_ret = event_ret,
                                 .kernel = kernel,
                                 .block = block};
    return enqueue(&request);
}

static int enqueue_kernel_varargs(void *queue, int flags, const struct cc_ndrange *ndrange,
                                  const char *kernel, const void *block, uint32_t num_locals,
                                  const size_t *local_sizes)
{
    struct cc_enqueue request = {.queue = queue,
                                 .flags = flags,
                                 .ndrange = ndrange,
                                 .kernel = kernel,
                                 .block = block,
                                 .num_locals = num_locals,
                                 .local_sizes = local_sizes};
    return enqueue(&request);
}

static int enqueue_kernel_events_varargs(void *queue, int flags, const struct cc_ndrange *ndrange,
                                         uint32_t num_events, void *const *wait_list,
                                         void **event_ret, const char *kernel, const void *block,
                                         uint32_t num_locals, const size_t *local_sizes)
{
    struct cc_enqueue request = {.queue = queue,
                                 .flags = flags,
                                 .ndrange = ndrange,
                                 .num_events = num_events,
                                 .wait_list = wait_list,
                                 .event_ret = event_ret,
                                 .kernel = kernel,
                                 .block = block,
                                 .num_locals = num_locals,
                                 .local_sizes = local_sizes};
    return enqueue(&request);
}

/* 6.13.17.6: a block kernel runs in work-groups of any size the device
 * allows, like a host-enqueued kernel (CL_KERNEL_WORK_GROUP_SIZE). */
static uint32_t kernel_work_group_size(const char *kernel, const void *block)
{
    return CC_MAX_WORK_GROUP_SIZE;
}

static uint32_t kernel_preferred_multiple(const char *kernel, const void *block)
{
    return cc_sub_group_size();
}

static size_t local_items(const struct cc_ndrange *ndrange)
{
    size_t items = 1;
    for (uint32_t d = 0; d < ndrange->work_dim && d < 3; d++)
        items *= ndrange->local[d] ? ndrange->local[d] : 1;
    return items;
}

/* Sub-groups of S work-items, the block kernel's size (cc_sub_group_size
 * or 1: cc_kernel_info.sub_group_size): a group of n work-items has
 * ceil(n / S) of them, the largest min(n, S) work-items. */
static size_t block_sub_group_size(const char *kernel)
{
    const struct cc_device_enqueue *rt = the_runtime();
    unsigned size = rt ? rt->block_sub_group_size(kernel) : 0;
    return size ? size : cc_sub_group_size();
}

static uint32_t kernel_sub_group_count(const struct cc_ndrange *ndrange, const char *kernel,
                                       const void *block)
{
    size_t size = block_sub_group_size(kernel);
    return (uint32_t)((local_items(ndrange) + size - 1) / size);
}

static uint32_t kernel_max_sub_group_size(const struct cc_ndrange *ndrange, const char *kernel,
                                          const void *block)
{
    size_t items = local_items(ndrange), size = block_sub_group_size(kernel);
    return (uint32_t)(items < size ? items : size);
}

static int enqueue_marker(void *queue, uint32_t num_events, void *const *wait_list,
                          void **event_ret)
{
    const struct cc_device_enqueue *rt = the_runtime();
    return rt ? rt->enqueue_marker(queue, num_events, wait_list, event_ret) : CLK_ENQUEUE_FAILURE;
}

static void *get_default_queue(void)
{
    const struct cc_device_enqueue *rt = the_runtime();
    return rt ? rt->default_queue() : NULL;
}

static void retain_event(void *event)
{
    const struct cc_device_enqueue *rt = the_runtime();
    if (rt)
        rt->retain_event(event);
}

static void release_event(void *event)
{
    const struct cc_device_enqueue *rt = the_runtime();
    if (rt)
        rt->release_event(event);
}

static void *create_user_event(void)
{
    const struct cc_device_enqueue *rt = the_runtime();
    return rt ? rt->create_user_event() : CC_NULL_EVENT;
}

static void set_user_event_status(void *event, int status)
{
    const struct cc_device_enqueue *rt = the_runtime();
    if (rt)
        rt->set_user_event_status(event, status);
}

static void capture_event_profiling_info(void *event, int name, void *value)
{
    const struct cc_device_enqueue *rt = the_runtime();
    if (rt)
        rt->capture_profiling_info(event, name, value);
}

static bool is_valid_event(void *event)
{
    const struct cc_device_enqueue *rt = the_runtime();
    return rt && rt->is_valid_event(event);
}

static const struct cc_runtime_symbol symbols[] = {
    {"__enqueue_kernel_basic", (void *)enqueue_kernel_basic},
    {"__enqueue_kernel_basic_events", (void *)enqueue_kernel_basic_events},
    {"__enqueue_kernel_varargs", (void *)enqueue_kernel_varargs},
    {"__enqueue_kernel_events_varargs", (void *)enqueue_kernel_events_varargs},
    {"__get_kernel_work_group_size_impl", (void *)kernel_work_group_size},
    {"__get_kernel_preferred_work_group_size_multiple_impl", (void *)kernel_preferred_multiple},
    {"__get_kernel_sub_group_count_for_ndrange_impl", (void *)kernel_sub_group_count},
    {"__get_kernel_max_sub_group_size_for_ndrange_impl", (void *)kernel_max_sub_group_size},
    {"_Z14enqueue_marker9ocl_queuejPU3AS4K12ocl_clkeventPU3AS4S0_", (void *)enqueue_marker},
    {"_Z17get_default_queuev", (void *)get_default_queue},
    {"_Z12retain_event12ocl_clkevent", (void *)retain_event},
    {"_Z13release_event12ocl_clkevent", (void *)release_event},
    {"_Z17create_user_eventv", (void *)create_user_event},
    {"_Z21set_user_event_status12ocl_clkeventi", (void *)set_user_event_status},
    {"_Z28capture_event_profiling_info12ocl_clkeventiPU3AS1v",
     (void *)capture_event_profiling_info},
    {"_Z14is_valid_event12ocl_clkevent", (void *)is_valid_event},
};

const struct cc_runtime_symbol *cc_enqueue_symbols(unsigned *count)
{
    *count = sizeof symbols / sizeof symbols[0];
    return symbols;
}

bool cc_is_enqueue_symbol(const char *name)
{
    for (unsigned i = 0; i < sizeof symbols / sizeof symbols[0]; i++)
        if (!strcmp(symbols[i].name, name))
            return true;
    return false;
}
