/* values.c - a growable array of LLVM values, shared by the passes that
 * collect instructions or functions before changing them; and the width
 * of a value's type. */
#include <stdlib.h>

#include "compiler/internal.h"

bool cc_values_add(struct cc_values *v, LLVMValueRef value)
{
    if (v->count == v->capacity) {
        size_t capacity = v->capacity ? 2 * v->capacity : 16;
        LLVMValueRef *items = realloc(v->items, capacity * sizeof *items);
        if (!items)
            return false;
        v->items = items;
        v->capacity = capacity;
    }
    v->items[v->count++] = value;
    return true;
}

bool cc_values_have(const struct cc_values *v, LLVMValueRef value)
{
    for (size_t i = 0; i < v->count; i++)
        if (v->items[i] == value)
            return true;
    return false;
}

unsigned cc_type_bits(LLVMTypeRef type)
{
    unsigned lanes = 1;
    if (LLVMGetTypeKind(type) == LLVMVectorTypeKind) {
        lanes = LLVMGetVectorSize(type);
        type = LLVMGetElementType(type);
    }
    switch (LLVMGetTypeKind(type)) {
    case LLVMIntegerTypeKind: return LLVMGetIntTypeWidth(type) * lanes;
    case LLVMHalfTypeKind: return 16 * lanes;
    case LLVMFloatTypeKind: return 32 * lanes;
    case LLVMDoubleTypeKind:
    case LLVMPointerTypeKind: return 64 * lanes;
    default: return 0;
    }
}
