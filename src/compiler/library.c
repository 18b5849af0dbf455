/* library.c - linking the built-in function library into a program.
 *
 * Takes the module from the front end, whose builtin calls are declarations
 * of Itanium-mangled names (`_Z3sinf`), and gives it the definitions from
 * the bitcode src/builtins embeds in the driver, compiled for the same
 * x86-64 ABI level as the kernel (cc_host()->abi_cpu). Assumes both were
 * compiled with the same triple and address-space mapping.
 *
 * Cost: the library has ~13,000 functions and a kernel calls a handful.
 * Reading all of it, even lazily, made a Function for each: 16-20 ms of
 * every build. So it is embedded cut into parts with an index of the names
 * each defines (src/builtins/split.cpp): a build looks up the names its
 * module declares, reads just those parts (lazily: bodies are parsed only
 * when linked), and links them; a part's calls into other parts are
 * declarations again, so it repeats until no declared name is in the
 * index. Definitions are given linkonce_odr linkage before linking, so the
 * IR linker takes only those the program refers to (and a part may be
 * read again when a later part calls more of it).
 *
 * Afterwards every function of the program gets the host's target-cpu and
 * target-features: the inliner refuses to inline a callee whose features
 * are not a subset of the caller's (COMPILER-NOTES 1), and the kernel and
 * library were compiled for a generic CPU of the host's ABI level.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/BitReader.h>
#include <llvm-c/Linker.h>

#include "builtins/builtins.h"
#include "compiler/internal.h"

/* The container split.cpp writes, read in place. */
struct parts {
    const unsigned char *bytes;
    size_t size;
    uint32_t count, num_names;
    const unsigned char *table, *index;
    const char *strings;
    size_t strings_size;
};

static uint32_t read32(const unsigned char *p)
{
    uint32_t value;
    memcpy(&value, p, 4);
    return value;
}

static uint64_t read64(const unsigned char *p)
{
    uint64_t value;
    memcpy(&value, p, 8);
    return value;
}

static bool parts_open(const void *bytes, size_t size, struct parts *parts)
{
    const unsigned char *p = bytes;
    if (size < 16 || memcmp(p, "cpuclLP\n", 8))
        return false;
    parts->bytes = p;
    parts->size = size;
    parts->count = read32(p + 8);
    parts->num_names = read32(p + 12);
    size_t index_at = 16 + (size_t)parts->count * 16;
    size_t strings_at = index_at + (size_t)parts->num_names * 8;
    if (strings_at > size)
        return false;
    parts->table = p + 16;
    parts->index = p + index_at;
    parts->strings = (const char *)p + strings_at;
    parts->strings_size = size - strings_at;
    return true;
}

/* The part that defines `name`, or -1. */
static long parts_find(const struct parts *parts, const char *name)
{
    size_t low = 0, high = parts->num_names;
    while (low < high) {
        size_t middle = (low + high) / 2;
        const unsigned char *entry = parts->index + middle * 8;
        uint32_t offset = read32(entry);
        if (offset >= parts->strings_size)
            return -1;
        int order = strcmp(name, parts->strings + offset);
        if (order == 0) {
            uint32_t part = read32(entry + 4);
            return part < parts->count ? (long)part : -1;
        }
        if (order < 0)
            high = middle;
        else
            low = middle + 1;
    }
    return -1;
}

/* Reads part `number` lazily into the module's context and links it. */
static cl_int link_part(LLVMModuleRef module, const struct parts *parts, uint32_t number,
                        struct cc_log *log)
{
    uint64_t offset = read64(parts->table + (size_t)number * 16);
    uint64_t size = read64(parts->table + (size_t)number * 16 + 8);
    if (offset > parts->size || size > parts->size - offset) {
        cc_log_printf(log, "error: the built-in library of this build of cpucl is corrupt\n");
        return CL_BUILD_PROGRAM_FAILURE;
    }
    LLVMContextRef context = LLVMGetModuleContext(module);
    LLVMMemoryBufferRef buffer = LLVMCreateMemoryBufferWithMemoryRange(
        (const char *)parts->bytes + offset, (size_t)size, "cpucl-builtins", 0);
    LLVMModuleRef part = NULL;
    /* The lazy module owns the buffer (a view of the embedded bytes). */
    if (LLVMGetBitcodeModuleInContext2(context, buffer, &part)) {
        cc_log_printf(log, "error: the built-in library of this build of cpucl is corrupt\n");
        return CL_BUILD_PROGRAM_FAILURE;
    }
    for (LLVMValueRef fn = LLVMGetFirstFunction(part); fn; fn = LLVMGetNextFunction(fn))
        if (!LLVMIsDeclaration(fn) && LLVMGetLinkage(fn) == LLVMExternalLinkage)
            LLVMSetLinkage(fn, LLVMLinkOnceODRLinkage);
    LLVMSetTarget(part, LLVMGetTarget(module));
    LLVMSetDataLayout(part, LLVMGetDataLayoutStr(module));
    /* LLVMLinkModules2 destroys the part in any case. */
    if (LLVMLinkModules2(module, part)) {
        cc_log_printf(log, "error: linking the built-in library failed\n");
        return CL_BUILD_PROGRAM_FAILURE;
    }
    return CL_SUCCESS;
}

/* Marks in `wanted` the parts that define a name the module declares;
 * returns how many names that is, and the first of them in *first (so the
 * caller can tell whether a round made progress). A part linked before may
 * be wanted again: linking takes only the definitions referred to at the
 * time, and a later part may call another function of it. */
static unsigned parts_wanted(LLVMModuleRef module, const struct parts *parts, bool *wanted,
                             LLVMValueRef *first)
{
    unsigned count = 0;
    *first = NULL;
    for (LLVMValueRef fn = LLVMGetFirstFunction(module); fn; fn = LLVMGetNextFunction(fn)) {
        if (!LLVMIsDeclaration(fn) || LLVMGetIntrinsicID(fn))
            continue;
        size_t length;
        long part = parts_find(parts, LLVMGetValueName2(fn, &length));
        if (part >= 0) {
            wanted[part] = true;
            if (!count++)
                *first = fn;
        }
    }
    return count;
}

static void set_host_attributes(LLVMModuleRef module, const struct cc_host *host)
{
    LLVMContextRef context = LLVMGetModuleContext(module);
    LLVMAttributeRef cpu =
        LLVMCreateStringAttribute(context, "target-cpu", 10, host->cpu, strlen(host->cpu));
    LLVMAttributeRef features = LLVMCreateStringAttribute(context, "target-features", 15,
                                                          host->features, strlen(host->features));
    for (LLVMValueRef fn = LLVMGetFirstFunction(module); fn; fn = LLVMGetNextFunction(fn)) {
        if (LLVMIsDeclaration(fn))
            continue;
        LLVMRemoveStringAttributeAtIndex(fn, LLVMAttributeFunctionIndex, "tune-cpu", 8);
        LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex, cpu);
        LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex, features);
    }
}

/* A value as type `to`, of the same size and both bitcastable (same_sizes
 * checked that). */
static LLVMValueRef same_bits(LLVMBuilderRef b, LLVMValueRef value, LLVMTypeRef to)
{
    return LLVMTypeOf(value) == to ? value : LLVMBuildBitCast(b, value, to, "");
}

/* Whether a value of type `a` can be bitcast to type `b`: the same type,
 * or two scalars or vectors (no pointers, no aggregates) of one size. */
static bool bitcastable(LLVMTargetDataRef layout, LLVMTypeRef a, LLVMTypeRef b)
{
    if (a == b)
        return true;
    LLVMTypeKind kinds[2] = {LLVMGetTypeKind(a), LLVMGetTypeKind(b)};
    for (int i = 0; i < 2; i++)
        if (kinds[i] != LLVMIntegerTypeKind && kinds[i] != LLVMHalfTypeKind &&
            kinds[i] != LLVMFloatTypeKind && kinds[i] != LLVMDoubleTypeKind &&
            kinds[i] != LLVMVectorTypeKind)
            return false;
    return LLVMSizeOfTypeInBits(layout, a) == LLVMSizeOfTypeInBits(layout, b);
}

/* Whether a call of type `call` can be made as one of type `callee`: the
 * same number of parameters, each pair (and the results) bitcastable. */
static bool same_sizes(LLVMTargetDataRef layout, LLVMTypeRef call, LLVMTypeRef callee)
{
    unsigned n = LLVMCountParamTypes(call);
    if (n != LLVMCountParamTypes(callee) || LLVMIsFunctionVarArg(call) ||
        LLVMIsFunctionVarArg(callee))
        return false;
    LLVMTypeRef *a = malloc((n ? n : 1) * sizeof *a), *b = malloc((n ? n : 1) * sizeof *b);
    bool same = a && b;
    if (same) {
        LLVMGetParamTypes(call, a);
        LLVMGetParamTypes(callee, b);
        same = bitcastable(layout, LLVMGetReturnType(call), LLVMGetReturnType(callee));
        for (unsigned i = 0; same && i < n; i++)
            same = bitcastable(layout, a[i], b[i]);
    }
    free(a);
    free(b);
    return same;
}

/* A program from SPIR-V calls the built-ins with SPIR's types: a vector of
 * 8 bytes or less as itself (`<2 x float>`), where the library, compiled
 * by Clang for x86-64, takes and returns it coerced (`double`, `i32`;
 * COMPILER-NOTES 2). After linking, such a call's type is not its
 * callee's, which the inliner will not inline; the call was then reported
 * as recursion. Each is made again with its callee's type, its arguments
 * and result bitcast (the sizes agree). */
static void match_call_types(LLVMModuleRef module)
{
    LLVMTargetDataRef layout = LLVMGetModuleDataLayout(module);
    LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetModuleContext(module));
    for (LLVMValueRef fn = LLVMGetFirstFunction(module); fn; fn = LLVMGetNextFunction(fn))
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
            for (LLVMValueRef inst = LLVMGetFirstInstruction(bb), next; inst; inst = next) {
                next = LLVMGetNextInstruction(inst);
                LLVMValueRef callee = LLVMIsACallInst(inst) ? LLVMGetCalledValue(inst) : NULL;
                if (!callee || !LLVMIsAFunction(callee) || LLVMIsDeclaration(callee))
                    continue;
                LLVMTypeRef want = LLVMGlobalGetValueType(callee);
                LLVMTypeRef have = LLVMGetCalledFunctionType(inst);
                if (want == have || !same_sizes(layout, have, want))
                    continue;
                unsigned n = LLVMCountParamTypes(want);
                LLVMTypeRef *types = malloc((n ? n : 1) * sizeof *types);
                LLVMValueRef *args = malloc((n ? n : 1) * sizeof *args);
                if (types && args) {
                    LLVMGetParamTypes(want, types);
                    LLVMPositionBuilderBefore(b, inst);
                    for (unsigned i = 0; i < n; i++)
                        args[i] = same_bits(b, LLVMGetOperand(inst, i), types[i]);
                    LLVMValueRef call = LLVMBuildCall2(b, want, callee, args, n, "");
                    LLVMSetInstructionCallConv(call, LLVMGetInstructionCallConv(inst));
                    if (LLVMGetTypeKind(LLVMGetReturnType(have)) != LLVMVoidTypeKind)
                        LLVMReplaceAllUsesWith(inst, same_bits(b, call, LLVMGetReturnType(have)));
                    LLVMInstructionEraseFromParent(inst);
                }
                free(types);
                free(args);
            }
    LLVMDisposeBuilder(b);
}

cl_int cc_link_builtins(LLVMModuleRef module, struct cc_log *log)
{
    const struct cc_host *host = cc_host();
    size_t size = 0;
    const void *bytes = builtins_parts(host->abi_cpu, &size);
    struct parts parts;
    if (!bytes) {
        cc_log_printf(log, "error: no built-in library for %s in this build of cpucl\n",
                      host->abi_cpu);
        return CL_BUILD_PROGRAM_FAILURE;
    }
    if (!parts_open(bytes, size, &parts)) {
        cc_log_printf(log, "error: the built-in library of this build of cpucl is corrupt\n");
        return CL_BUILD_PROGRAM_FAILURE;
    }
    bool *wanted = calloc(parts.count ? parts.count : 1, sizeof *wanted);
    cl_int err = wanted ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY;
    /* Each round defines every name it found declared (the linker turns
     * the declaration into the definition), so a name still declared
     * after its round means a library that does not define what its index
     * says: an error, not another round. */
    LLVMValueRef first = NULL;
    char *first_name = NULL;
    while (!err && parts_wanted(module, &parts, wanted, &first)) {
        size_t length;
        const char *name = LLVMGetValueName2(first, &length);
        if (first_name && !strcmp(first_name, name)) {
            cc_log_printf(log, "error: the built-in library of this build of cpucl is corrupt\n");
            err = CL_BUILD_PROGRAM_FAILURE;
            break;
        }
        free(first_name);
        first_name = strdup(name);
        if (!first_name)
            err = CL_OUT_OF_HOST_MEMORY;
        for (uint32_t i = 0; i < parts.count && !err; i++) {
            if (!wanted[i])
                continue;
            wanted[i] = false;
            err = link_part(module, &parts, i, log);
        }
    }
    free(first_name);
    free(wanted);
    if (!err) {
        match_call_types(module);
        set_host_attributes(module, host);
    }
    return err;
}
