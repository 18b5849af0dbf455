/* printf.c - OpenCL C printf calls (6.13.13) to calls of the runtime's
 * printf, with the arguments in memory.
 *
 * Takes a module whose printf calls are variadic calls of
 * `i32 @printf(ptr addrspace(2) format, ...)`, as Clang emits them and as
 * llvm-spirv-15 -r (CL2.0) gives the OpenCL.std printf instruction. Gives
 * calls of
 *
 *   i32 @__cpucl_printf(ptr addrspace(2) format, i32 count, ptr sizes, ptr data)
 *
 * (CC_PRINTF_SYMBOL, bound by the JIT to the device's function, compiler.h)
 * and no printf declaration. Argument i is stored at the next 8-byte
 * aligned offset of `data`, sizes[i] bytes (a private constant array).
 *
 * Why not pass the variadic call through: the host function would have to
 * agree with two different producers on the x86-64 variadic ABI of every
 * vector type. Clang coerces small vectors to integers or doubles and passes
 * 256/512-bit vectors in registers or through byval pointers depending on
 * the ABI level, while the SPIR-V translator passes raw vectors (which the
 * backend puts in XMM registers or on the stack) and does not promote
 * float. In memory, the bytes of a vector are the same in every case.
 *
 * What is stored: the value's bytes (the pointee of a byval argument);
 * float and half become double, the default argument promotion (C99
 * 6.5.2.2) that Clang applies and SPIR-V does not. Integers narrower than
 * int are left alone: after Clang they are small vectors coerced to
 * integers (char2 as i16), whose bytes must stay as they are; the device
 * widens a scalar conversion's 1- or 2-byte argument itself.
 */
#include <stdio.h>
#include <string.h>

#include "compiler/internal.h"

static LLVMValueRef entry_alloca(LLVMBuilderRef builder, LLVMValueRef fn, LLVMTypeRef type,
                                 unsigned align)
{
    LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(fn);
    LLVMValueRef first = LLVMGetFirstInstruction(entry);
    if (first)
        LLVMPositionBuilderBefore(builder, first);
    else
        LLVMPositionBuilderAtEnd(builder, entry);
    LLVMValueRef slot = LLVMBuildAlloca(builder, type, "printf.args");
    LLVMSetAlignment(slot, align);
    return slot;
}

/* The value to store for call argument `index` (0 is the format) and its
 * type; builder is positioned before the call. */
static LLVMValueRef promoted_argument(LLVMBuilderRef builder, LLVMContextRef context,
                                      LLVMValueRef call, unsigned index)
{
    LLVMValueRef value = LLVMGetOperand(call, index);
    unsigned byval_kind = LLVMGetEnumAttributeKindForName("byval", 5);
    LLVMAttributeRef byval =
        LLVMGetCallSiteEnumAttribute(call, (LLVMAttributeIndex)(index + 1), byval_kind);
    if (byval) {
        LLVMValueRef load =
            LLVMBuildLoad2(builder, LLVMGetTypeAttributeValue(byval), value, "printf.byval");
        LLVMSetAlignment(load, 1);
        return load;
    }
    LLVMTypeRef type = LLVMTypeOf(value);
    switch (LLVMGetTypeKind(type)) {
    case LLVMHalfTypeKind:
    case LLVMBFloatTypeKind:
    case LLVMFloatTypeKind:
        return LLVMBuildFPExt(builder, value, LLVMDoubleTypeInContext(context), "");
    case LLVMIntegerTypeKind:
        /* i8 and i16 stay as they are: Clang has already promoted char and
         * short, so these are char2, char4 or short2 coerced to integers
         * (or an unpromoted SPIR-V scalar, which the device widens) */
        if (LLVMGetIntTypeWidth(type) == 1)
            return LLVMBuildZExt(builder, value, LLVMInt32TypeInContext(context), "");
        return value;
    default: return value;
    }
}

static cl_int lower_call(LLVMModuleRef module, LLVMValueRef call, LLVMValueRef target,
                         LLVMTypeRef target_type, LLVMBuilderRef builder, struct cc_log *log)
{
    LLVMContextRef context = LLVMGetModuleContext(module);
    LLVMTargetDataRef layout = LLVMGetModuleDataLayout(module);
    LLVMTypeRef i8 = LLVMInt8TypeInContext(context);
    LLVMTypeRef i32 = LLVMInt32TypeInContext(context);
    LLVMTypeRef i64 = LLVMInt64TypeInContext(context);
    LLVMTypeRef ptr = LLVMPointerTypeInContext(context, 0);
    LLVMValueRef fn = LLVMGetBasicBlockParent(LLVMGetInstructionParent(call));
    unsigned count = LLVMGetNumArgOperands(call) - 1;

    LLVMPositionBuilderBefore(builder, call);
    LLVMValueRef values[count ? count : 1];
    LLVMValueRef sizes[count ? count : 1];
    uint64_t offsets[count ? count : 1];
    uint64_t total = 0;
    for (unsigned i = 0; i < count; i++) {
        values[i] = promoted_argument(builder, context, call, i + 1);
        uint64_t size = LLVMABISizeOfType(layout, LLVMTypeOf(values[i]));
        if (size > UINT32_MAX) {
            cc_log_printf(log, "error: printf argument %u is too large\n", i + 1);
            return CL_BUILD_PROGRAM_FAILURE;
        }
        sizes[i] = LLVMConstInt(i32, size, 0);
        offsets[i] = total;
        total += (size + 7) & ~(uint64_t)7;
    }

    LLVMValueRef sizes_ptr = LLVMConstNull(ptr), data_ptr = LLVMConstNull(ptr);
    if (count) {
        LLVMTypeRef sizes_type = LLVMArrayType2(i32, count);
        LLVMValueRef table = LLVMAddGlobal(module, sizes_type, "__cpucl_printf_sizes");
        LLVMSetInitializer(table, LLVMConstArray2(i32, sizes, count));
        LLVMSetGlobalConstant(table, 1);
        LLVMSetLinkage(table, LLVMPrivateLinkage);
        LLVMSetUnnamedAddress(table, LLVMGlobalUnnamedAddr);
        sizes_ptr = table;

        LLVMBuilderRef at_entry = LLVMCreateBuilderInContext(context);
        data_ptr = entry_alloca(at_entry, fn, LLVMArrayType2(i8, total), 16);
        LLVMDisposeBuilder(at_entry);
        LLVMPositionBuilderBefore(builder, call);
        for (unsigned i = 0; i < count; i++) {
            LLVMValueRef offset = LLVMConstInt(i64, offsets[i], 0);
            LLVMValueRef at = LLVMBuildGEP2(builder, i8, data_ptr, &offset, 1, "");
            LLVMValueRef store = LLVMBuildStore(builder, values[i], at);
            LLVMSetAlignment(store, 8);
        }
    }
    /* SPIR-V may give a call's format another address space than the
     * declaration's (all are plain pointers on this device) */
    LLVMTypeRef format_type;
    LLVMGetParamTypes(target_type, &format_type);
    LLVMValueRef format = LLVMGetOperand(call, 0);
    if (LLVMTypeOf(format) != format_type)
        format = LLVMBuildAddrSpaceCast(builder, format, format_type, "");
    LLVMValueRef args[4] = {format, LLVMConstInt(i32, count, 0), sizes_ptr, data_ptr};
    LLVMValueRef lowered = LLVMBuildCall2(builder, target_type, target, args, 4, "");
    LLVMReplaceAllUsesWith(call, lowered);
    LLVMInstructionEraseFromParent(call);
    return CL_SUCCESS;
}

cl_int cc_lower_printf(LLVMModuleRef module, struct cc_log *log)
{
    LLVMValueRef printf_fn = LLVMGetNamedFunction(module, "printf");
    if (!printf_fn || !LLVMIsDeclaration(printf_fn))
        return CL_SUCCESS;
    LLVMTypeRef printf_type = LLVMGlobalGetValueType(printf_fn);
    if (LLVMCountParamTypes(printf_type) != 1 || !LLVMIsFunctionVarArg(printf_type)) {
        cc_log_printf(log, "error: printf is declared with an unexpected signature\n");
        return CL_BUILD_PROGRAM_FAILURE;
    }
    LLVMContextRef context = LLVMGetModuleContext(module);
    LLVMTypeRef format_type;
    LLVMGetParamTypes(printf_type, &format_type);
    LLVMTypeRef params[4] = {format_type, LLVMInt32TypeInContext(context),
                             LLVMPointerTypeInContext(context, 0),
                             LLVMPointerTypeInContext(context, 0)};
    LLVMTypeRef target_type = LLVMFunctionType(LLVMInt32TypeInContext(context), params, 4, 0);
    LLVMValueRef target = LLVMGetNamedFunction(module, CC_PRINTF_SYMBOL);
    if (!target)
        target = LLVMAddFunction(module, CC_PRINTF_SYMBOL, target_type);
    LLVMSetLinkage(target, LLVMExternalLinkage);

    cl_int err = CL_SUCCESS;
    LLVMBuilderRef builder = LLVMCreateBuilderInContext(context);
    LLVMUseRef use = LLVMGetFirstUse(printf_fn);
    while (use && !err) {
        LLVMValueRef user = LLVMGetUser(use);
        use = LLVMGetNextUse(use);
        if (!LLVMIsACallInst(user) || LLVMGetCalledValue(user) != printf_fn) {
            cc_log_printf(log, "error: printf is used other than by calling it\n");
            err = CL_BUILD_PROGRAM_FAILURE;
            break;
        }
        /* the next use may be another operand of this same call */
        while (use && LLVMGetUser(use) == user)
            use = LLVMGetNextUse(use);
        err = lower_call(module, user, target, target_type, builder, log);
    }
    LLVMDisposeBuilder(builder);
    if (!err && !LLVMGetFirstUse(printf_fn))
        LLVMDeleteFunction(printf_fn);
    return err;
}
