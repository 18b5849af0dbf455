/* metadata.c - the kernel table: what clGetKernelInfo, clGetKernelArgInfo
 * and clSetKernelArg need to know about each kernel.
 *
 * Takes the front end's module: kernels are the functions with the
 * spir_kernel calling convention, and clang attaches !kernel_arg_addr_space,
 * !kernel_arg_access_qual, !kernel_arg_type, !kernel_arg_base_type,
 * !kernel_arg_type_qual (always) and !kernel_arg_name (with
 * -cl-kernel-arg-info) to each, plus !reqd_work_group_size,
 * !work_group_size_hint and !vec_type_hint when the source has those
 * attributes (COMPILER-NOTES 1).
 *
 * The argument block: argument i occupies a slot at args[i].offset, aligned
 * to the larger of 8 and the argument's natural alignment, so that any
 * argument can be read with a plain 8-byte-aligned load (the runtime only
 * has to give the block malloc's alignment). Buffers, images, samplers,
 * pipes and queues take a pointer, __local arguments a size_t arena offset,
 * values their OpenCL size, which for a 3-component vector is that of the
 * 4-component one (6.1.5) and for a struct its allocation size.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Target.h>

#include "compiler/internal.h"

/* The operands of the function metadata node `kind`, or NULL. */
static LLVMValueRef *md_operands(LLVMValueRef fn, const char *kind, unsigned *count)
{
    LLVMContextRef context = LLVMGetModuleContext(LLVMGetGlobalParent(fn));
    unsigned id = LLVMGetMDKindIDInContext(context, kind, strlen(kind));
    size_t num_entries = 0;
    LLVMValueMetadataEntry *entries = LLVMGlobalCopyAllMetadata(fn, &num_entries);
    LLVMValueRef *operands = NULL;
    for (size_t i = 0; i < num_entries; i++) {
        if (LLVMValueMetadataEntriesGetKind(entries, i) != id)
            continue;
        LLVMValueRef node =
            LLVMMetadataAsValue(context, LLVMValueMetadataEntriesGetMetadata(entries, i));
        *count = LLVMGetMDNodeNumOperands(node);
        operands = malloc((*count ? *count : 1) * sizeof *operands);
        if (operands)
            LLVMGetMDNodeOperands(node, operands);
        break;
    }
    if (entries)
        LLVMDisposeValueMetadataEntries(entries);
    return operands;
}

/* Operand i of a string node as a new string ("" when absent). */
static char *md_string(LLVMValueRef *operands, unsigned count, unsigned i)
{
    unsigned length = 0;
    const char *text =
        operands && i < count && operands[i] ? LLVMGetMDString(operands[i], &length) : NULL;
    char *copy = malloc(length + 1);
    if (copy) {
        if (text)
            memcpy(copy, text, length);
        copy[length] = 0;
    }
    return copy;
}

static bool has_word(const char *text, const char *word)
{
    size_t n = strlen(word);
    for (const char *p = text; (p = strstr(p, word)); p += n)
        if ((p == text || p[-1] == ' ') && (p[n] == 0 || p[n] == ' '))
            return true;
    return false;
}

static void read_sizes(LLVMValueRef fn, const char *kind, size_t out[3])
{
    unsigned count = 0;
    LLVMValueRef *operands = md_operands(fn, kind, &count);
    for (unsigned d = 0; operands && d < 3 && d < count; d++)
        if (LLVMIsAConstantInt(operands[d]))
            out[d] = (size_t)LLVMConstIntGetZExtValue(operands[d]);
    free(operands);
}

/* vec_type_hint(<type>): the node holds an undef of the vector type and a
 * flag that is 1 for signed integers (COMPILER-NOTES 1). */
static bool vec_type_hint(LLVMValueRef fn, char *text, size_t size)
{
    unsigned count = 0;
    LLVMValueRef *operands = md_operands(fn, "vec_type_hint", &count);
    if (!operands || count < 2) {
        free(operands);
        return false;
    }
    LLVMTypeRef type = LLVMTypeOf(operands[0]);
    bool is_signed = LLVMIsAConstantInt(operands[1]) && LLVMConstIntGetZExtValue(operands[1]);
    free(operands);
    unsigned n = 1;
    if (LLVMGetTypeKind(type) == LLVMVectorTypeKind) {
        n = LLVMGetVectorSize(type);
        type = LLVMGetElementType(type);
    }
    const char *name;
    switch (LLVMGetTypeKind(type)) {
    case LLVMHalfTypeKind: name = "half"; break;
    case LLVMFloatTypeKind: name = "float"; break;
    case LLVMDoubleTypeKind: name = "double"; break;
    case LLVMIntegerTypeKind:
        switch (LLVMGetIntTypeWidth(type)) {
        case 8: name = is_signed ? "char" : "uchar"; break;
        case 16: name = is_signed ? "short" : "ushort"; break;
        case 32: name = is_signed ? "int" : "uint"; break;
        default: name = is_signed ? "long" : "ulong"; break;
        }
        break;
    default: return false;
    }
    if (n > 1)
        snprintf(text, size, "vec_type_hint(%s%u)", name, n);
    else
        snprintf(text, size, "vec_type_hint(%s)", name);
    return true;
}

/* CL_KERNEL_ATTRIBUTES: the attributes that survive into the IR, written
 * as the source writes them, separated by spaces. */
static char *attribute_text(LLVMValueRef fn, const struct cc_kernel_info *kernel)
{
    char text[256] = "", part[80];
    const size_t *r = kernel->reqd_work_group_size, *h = kernel->work_group_size_hint;
    if (r[0] || r[1] || r[2]) {
        snprintf(part, sizeof part, "reqd_work_group_size(%zu,%zu,%zu)", r[0], r[1], r[2]);
        strcat(text, part);
    }
    if (h[0] || h[1] || h[2]) {
        snprintf(part, sizeof part, "%swork_group_size_hint(%zu,%zu,%zu)", *text ? " " : "", h[0],
                 h[1], h[2]);
        strcat(text, part);
    }
    if (vec_type_hint(fn, part, sizeof part)) {
        if (*text)
            strcat(text, " ");
        strcat(text, part);
    }
    return strdup(text);
}

static enum cc_arg_kind arg_kind(const char *base_type, const char *type_qualifier,
                                 LLVMTypeRef type, unsigned address_space, bool byval)
{
    if (has_word(type_qualifier, "pipe"))
        return CC_ARG_PIPE;
    /* image1d_t ... image2d_array_depth_t; not a pointer to a type whose
     * name merely starts so (the CTS's image_kernel_data *) */
    size_t length = strlen(base_type);
    if (!byval && !strncmp(base_type, "image", 5) && !strchr(base_type, '*') && length > 7 &&
        !strcmp(base_type + length - 2, "_t"))
        return CC_ARG_IMAGE;
    if (!strcmp(base_type, "sampler_t"))
        return CC_ARG_SAMPLER;
    if (!strcmp(base_type, "queue_t"))
        return CC_ARG_QUEUE;
    if (!byval && LLVMGetTypeKind(type) == LLVMPointerTypeKind)
        return address_space == 3 ? CC_ARG_LOCAL : CC_ARG_BUFFER;
    return CC_ARG_VALUE;
}

static cl_int read_args(LLVMValueRef fn, LLVMTargetDataRef layout, bool arg_names,
                        struct cc_kernel_info *kernel, struct cc_log *log)
{
    static const char *const kinds[] = {"kernel_arg_addr_space", "kernel_arg_access_qual",
                                        "kernel_arg_type",       "kernel_arg_base_type",
                                        "kernel_arg_type_qual",  "kernel_arg_name"};
    LLVMValueRef *md[6] = {NULL};
    unsigned md_count[6] = {0};
    cl_int err = CL_SUCCESS;
    unsigned num_args = LLVMCountParams(fn);
    for (int k = 0; k < 6; k++)
        md[k] = md_operands(fn, kinds[k], &md_count[k]);
    for (int k = 0; k < 5; k++) {
        if (num_args && (!md[k] || md_count[k] != num_args)) {
            cc_log_printf(log, "error: kernel '%s': missing or malformed !%s metadata\n",
                          kernel->name, kinds[k]);
            err = CL_BUILD_PROGRAM_FAILURE;
            goto out;
        }
    }
    kernel->num_args = num_args;
    kernel->args = calloc(num_args ? num_args : 1, sizeof *kernel->args);
    if (!kernel->args) {
        err = CL_OUT_OF_HOST_MEMORY;
        goto out;
    }
    unsigned byval_kind = LLVMGetEnumAttributeKindForName("byval", 5);
    size_t offset = 0;
    for (unsigned i = 0; i < num_args; i++) {
        struct cc_arg_info *arg = &kernel->args[i];
        LLVMTypeRef type = LLVMTypeOf(LLVMGetParam(fn, i));
        LLVMAttributeRef byval = LLVMGetEnumAttributeAtIndex(fn, i + 1, byval_kind);
        if (byval)
            type = LLVMGetTypeAttributeValue(byval);
        unsigned address_space =
            LLVMIsAConstantInt(md[0][i]) ? (unsigned)LLVMConstIntGetZExtValue(md[0][i]) : 0;
        char *access = md_string(md[1], md_count[1], i);
        char *base_type = md_string(md[3], md_count[3], i);
        char *qualifiers = md_string(md[4], md_count[4], i);
        arg->type_name = md_string(md[2], md_count[2], i);
        arg->name = arg_names && md[5] ? md_string(md[5], md_count[5], i) : NULL;
        if (!access || !base_type || !qualifiers || !arg->type_name ||
            (arg_names && md[5] && !arg->name)) {
            free(access);
            free(base_type);
            free(qualifiers);
            err = CL_OUT_OF_HOST_MEMORY;
            goto out;
        }
        arg->kind = arg_kind(base_type, qualifiers, type, address_space, byval != NULL);
        switch (address_space) {
        case 1: arg->address_qualifier = CL_KERNEL_ARG_ADDRESS_GLOBAL; break;
        case 2: arg->address_qualifier = CL_KERNEL_ARG_ADDRESS_CONSTANT; break;
        case 3: arg->address_qualifier = CL_KERNEL_ARG_ADDRESS_LOCAL; break;
        default: arg->address_qualifier = CL_KERNEL_ARG_ADDRESS_PRIVATE; break;
        }
        arg->access_qualifier = !strcmp(access, "read_only")    ? CL_KERNEL_ARG_ACCESS_READ_ONLY
                                : !strcmp(access, "write_only") ? CL_KERNEL_ARG_ACCESS_WRITE_ONLY
                                : !strcmp(access, "read_write") ? CL_KERNEL_ARG_ACCESS_READ_WRITE
                                                                : CL_KERNEL_ARG_ACCESS_NONE;
        arg->type_qualifier = CL_KERNEL_ARG_TYPE_NONE;
        if (has_word(qualifiers, "const") || address_space == 2)
            arg->type_qualifier |= CL_KERNEL_ARG_TYPE_CONST; /* 5.9.3: also for __constant */
        if (has_word(qualifiers, "restrict"))
            arg->type_qualifier |= CL_KERNEL_ARG_TYPE_RESTRICT;
        if (has_word(qualifiers, "volatile"))
            arg->type_qualifier |= CL_KERNEL_ARG_TYPE_VOLATILE;
        if (has_word(qualifiers, "pipe"))
            arg->type_qualifier |= CL_KERNEL_ARG_TYPE_PIPE;
        free(access);
        free(base_type);
        free(qualifiers);

        size_t size = 8, align = 8;
        if (arg->kind == CC_ARG_VALUE) {
            size = (size_t)LLVMABISizeOfType(layout, type);
            size_t natural = LLVMABIAlignmentOfType(layout, type);
            /* a vector's alloc size is rounded to its alignment: 16 for float3 */
            if (natural > align)
                align = natural;
        }
        offset = (offset + align - 1) & ~(align - 1);
        arg->offset = offset;
        arg->size = size;
        offset += size;
    }
    kernel->arg_block_size = (offset + 7) & ~(size_t)7;
out:
    for (int k = 0; k < 6; k++)
        free(md[k]);
    return err;
}

/* A block kernel (enqueue.c) has no argument metadata: its parameters are
 * the block literal, a generic pointer passed as an 8-byte value, and one
 * __local pointer for each local argument of the block. */
static cl_int read_block_args(LLVMValueRef fn, struct cc_kernel_info *kernel)
{
    unsigned num_args = LLVMCountParams(fn);
    kernel->is_block = true;
    kernel->num_args = num_args;
    kernel->args = calloc(num_args ? num_args : 1, sizeof *kernel->args);
    if (!kernel->args)
        return CL_OUT_OF_HOST_MEMORY;
    for (unsigned i = 0; i < num_args; i++) {
        struct cc_arg_info *arg = &kernel->args[i];
        LLVMTypeRef type = LLVMTypeOf(LLVMGetParam(fn, i));
        bool local = i > 0 && LLVMGetTypeKind(type) == LLVMPointerTypeKind &&
                     LLVMGetPointerAddressSpace(type) == 3;
        arg->kind = local ? CC_ARG_LOCAL : CC_ARG_VALUE;
        arg->address_qualifier =
            local ? CL_KERNEL_ARG_ADDRESS_LOCAL : CL_KERNEL_ARG_ADDRESS_PRIVATE;
        arg->access_qualifier = CL_KERNEL_ARG_ACCESS_NONE;
        arg->type_qualifier = CL_KERNEL_ARG_TYPE_NONE;
        arg->type_name = strdup(local ? "void*" : "block");
        if (!arg->type_name)
            return CL_OUT_OF_HOST_MEMORY;
        arg->size = 8;
        arg->offset = 8 * (size_t)i;
    }
    kernel->arg_block_size = 8 * (size_t)num_args;
    return CL_SUCCESS;
}

static cl_int read_kernel(LLVMValueRef fn, LLVMTargetDataRef layout, bool arg_names,
                          struct cc_kernel_info *kernel, struct cc_log *log)
{
    size_t length;
    const char *name = LLVMGetValueName2(fn, &length);
    kernel->name = strndup(name, length);
    if (!kernel->name)
        return CL_OUT_OF_HOST_MEMORY;
    cl_int err = cc_is_block_kernel(fn) ? read_block_args(fn, kernel)
                                        : read_args(fn, layout, arg_names, kernel, log);
    if (err)
        return err;
    read_sizes(fn, "reqd_work_group_size", kernel->reqd_work_group_size);
    read_sizes(fn, "work_group_size_hint", kernel->work_group_size_hint);
    kernel->attributes = attribute_text(fn, kernel);
    return kernel->attributes ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY;
}

cl_int cc_read_kernels(LLVMModuleRef module, bool arg_names, struct cc_kernel_info **kernels_out,
                       unsigned *num_kernels_out, struct cc_log *log)
{
    unsigned count = 0;
    for (LLVMValueRef fn = LLVMGetFirstFunction(module); fn; fn = LLVMGetNextFunction(fn))
        if (!LLVMIsDeclaration(fn) && LLVMGetFunctionCallConv(fn) == CC_SPIR_KERNEL_CC)
            count++;
    struct cc_kernel_info *kernels = calloc(count ? count : 1, sizeof *kernels);
    if (!kernels)
        return CL_OUT_OF_HOST_MEMORY;
    LLVMTargetDataRef layout = LLVMGetModuleDataLayout(module);
    cl_int err = CL_SUCCESS;
    unsigned i = 0;
    /* The application's kernels first, then the block kernels. */
    for (int blocks = 0; blocks < 2 && !err; blocks++) {
        for (LLVMValueRef fn = LLVMGetFirstFunction(module); fn && !err;
             fn = LLVMGetNextFunction(fn)) {
            if (!LLVMIsDeclaration(fn) && LLVMGetFunctionCallConv(fn) == CC_SPIR_KERNEL_CC &&
                cc_is_block_kernel(fn) == blocks)
                err = read_kernel(fn, layout, arg_names, &kernels[i++], log);
        }
    }
    if (err) {
        cc_free_kernels(kernels, count);
        return err;
    }
    *kernels_out = kernels;
    *num_kernels_out = count;
    return CL_SUCCESS;
}

void cc_free_kernels(struct cc_kernel_info *kernels, unsigned num_kernels)
{
    if (!kernels)
        return;
    for (unsigned i = 0; i < num_kernels; i++) {
        for (unsigned a = 0; kernels[i].args && a < kernels[i].num_args; a++) {
            free(kernels[i].args[a].type_name);
            free(kernels[i].args[a].name);
        }
        free(kernels[i].args);
        free(kernels[i].name);
        free(kernels[i].attributes);
    }
    free(kernels);
}
