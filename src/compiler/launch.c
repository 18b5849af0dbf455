/* launch.c - the built-in library's hooks for what a launch may fix.
 *
 * Input: a part (parts.cpp) whose image built-ins read an image's format
 * through calls of __cpucl_image_order, __cpucl_image_type and
 * __cpucl_image_element_size (the image's descriptor, struct cc_image of
 * src/builtins/image.h) and a sampler's bits through
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
 */
#include <stddef.h>
#include <string.h>

#include "builtins/image.h"
#include "compiler/internal.h"

enum hook { ORDER, TYPE, ELEMENT_SIZE, SAMPLER, NUM_HOOKS };

static const char *const hook_names[NUM_HOOKS] = {
    "__cpucl_image_order", "__cpucl_image_type", "__cpucl_image_element_size",
    "__cpucl_sampler_bits"};

static const size_t field_offsets[ELEMENT_SIZE + 1] = {
    offsetof(struct cc_image, channel_order), offsetof(struct cc_image, channel_data_type),
    offsetof(struct cc_image, element_size)};

bool cc_is_launch_hook(const char *name)
{
    for (int h = 0; h < NUM_HOOKS; h++)
        if (!strcmp(name, hook_names[h]))
            return true;
    return false;
}

/* What a call of hook h becomes: a constant of the facts, or NULL when the
 * facts do not fix it. */
static LLVMValueRef fixed_value(enum hook h, LLVMValueRef call,
                                const struct cc_launch_facts *facts)
{
    LLVMTypeRef type = LLVMTypeOf(call);
    if (!facts)
        return NULL;
    if (h == SAMPLER)
        return facts->samplers_alike ? LLVMConstInt(type, facts->sampler_bits, 0) : NULL;
    if (!facts->images_alike)
        return NULL;
    int value = h == ORDER ? facts->image_order
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
    LLVMContextRef context = LLVMGetModuleContext(LLVMGetGlobalParent(
        LLVMGetBasicBlockParent(LLVMGetInstructionParent(call))));
    LLVMPositionBuilderBefore(b, call);
    LLVMValueRef offset = LLVMConstInt(LLVMInt64TypeInContext(context), field_offsets[h], 0);
    LLVMValueRef at =
        LLVMBuildInBoundsGEP2(b, LLVMInt8TypeInContext(context), argument, &offset, 1, "");
    LLVMValueRef load = LLVMBuildLoad2(b, LLVMTypeOf(call), at, "");
    LLVMSetAlignment(load, 4);
    unsigned kind = LLVMGetMDKindIDInContext(context, "invariant.load", 14);
    LLVMSetMetadata(load, kind, LLVMMetadataAsValue(context, LLVMMDNodeInContext2(context, NULL, 0)));
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
