/* local_memory.c - what a work-group function does with __local memory.
 *
 * Atomics on local memory: a group runs on one thread, so a plain load
 * and store do (cc_localize_atomics), marked `cpucl.sequential` so that
 * the work-item loop is not claimed parallel for them.
 *
 * Kernel-scope __local variables become slices of state->local_mem, so
 * that work-groups running at once on different workers never share
 * them; the kernel's local memory size is their sum.
 */
#include <stdlib.h>
#include <string.h>

#include "compiler/internal.h"

/* --- atomics on local memory --- */

bool cc_parallel_access(LLVMValueRef inst)
{
    if (!(LLVMIsALoadInst(inst) || LLVMIsAStoreInst(inst) || LLVMIsAAtomicRMWInst(inst) ||
          LLVMIsAAtomicCmpXchgInst(inst) || LLVMIsACallInst(inst)))
        return false;
    /* looked up each time: a custom kind's number belongs to its context
     * (builds run in contexts of their own, on any thread, and number
     * their kinds in the order they meet them) */
    unsigned sequential_kind =
        LLVMGetMDKindIDInContext(LLVMGetTypeContext(LLVMTypeOf(inst)), "cpucl.sequential", 16);
    return !LLVMGetMetadata(inst, sequential_kind);
}

static void mark_sequential(LLVMValueRef inst)
{
    LLVMContextRef context = LLVMGetTypeContext(LLVMTypeOf(inst));
    LLVMSetMetadata(inst, LLVMGetMDKindIDInContext(context, "cpucl.sequential", 16),
                    LLVMMDNodeInContext(context, NULL, 0));
}

static bool is_local_pointer(LLVMValueRef pointer)
{
    return LLVMGetPointerAddressSpace(LLVMTypeOf(pointer)) == 3;
}

/* The new value of an atomicrmw, from the old one; NULL for the
 * operations left atomic. */
static LLVMValueRef rmw_result(LLVMBuilderRef b, LLVMAtomicRMWBinOp op, LLVMValueRef old,
                               LLVMValueRef v)
{
    switch (op) {
    case LLVMAtomicRMWBinOpXchg: return v;
    case LLVMAtomicRMWBinOpAdd: return LLVMBuildAdd(b, old, v, "");
    case LLVMAtomicRMWBinOpSub: return LLVMBuildSub(b, old, v, "");
    case LLVMAtomicRMWBinOpAnd: return LLVMBuildAnd(b, old, v, "");
    case LLVMAtomicRMWBinOpNand: return LLVMBuildNot(b, LLVMBuildAnd(b, old, v, ""), "");
    case LLVMAtomicRMWBinOpOr: return LLVMBuildOr(b, old, v, "");
    case LLVMAtomicRMWBinOpXor: return LLVMBuildXor(b, old, v, "");
    case LLVMAtomicRMWBinOpMax:
        return LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntSGT, v, old, ""), v, old, "");
    case LLVMAtomicRMWBinOpMin:
        return LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntSLT, v, old, ""), v, old, "");
    case LLVMAtomicRMWBinOpUMax:
        return LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntUGT, v, old, ""), v, old, "");
    case LLVMAtomicRMWBinOpUMin:
        return LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntULT, v, old, ""), v, old, "");
    case LLVMAtomicRMWBinOpFAdd: return LLVMBuildFAdd(b, old, v, "");
    case LLVMAtomicRMWBinOpFSub: return LLVMBuildFSub(b, old, v, "");
    default: return NULL;
    }
}

/* Local memory belongs to one work-group, and a kernel run as loops runs
 * its whole group on one thread: no other thread can see an atomic on it
 * happen halfway, so a plain load and store do (no lock prefix). They are
 * kept out of the parallel-loop claim: work-items that update the same
 * local variable through atomics do depend on each other. */
void cc_localize_atomics(LLVMBuilderRef b, LLVMValueRef fn)
{
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb)) {
        LLVMValueRef next;
        for (LLVMValueRef inst = LLVMGetFirstInstruction(bb); inst; inst = next) {
            next = LLVMGetNextInstruction(inst);
            if ((LLVMIsALoadInst(inst) || LLVMIsAStoreInst(inst)) &&
                LLVMGetOrdering(inst) != LLVMAtomicOrderingNotAtomic) {
                LLVMValueRef pointer = LLVMGetOperand(inst, LLVMIsALoadInst(inst) ? 0 : 1);
                if (is_local_pointer(pointer)) {
                    LLVMSetOrdering(inst, LLVMAtomicOrderingNotAtomic);
                    LLVMSetVolatile(inst, 0);
                    mark_sequential(inst);
                }
                continue;
            }
            if (LLVMIsAAtomicRMWInst(inst) && is_local_pointer(LLVMGetOperand(inst, 0))) {
                LLVMValueRef pointer = LLVMGetOperand(inst, 0), v = LLVMGetOperand(inst, 1);
                LLVMPositionBuilderBefore(b, inst);
                LLVMValueRef old = LLVMBuildLoad2(b, LLVMTypeOf(v), pointer, "");
                LLVMValueRef now = rmw_result(b, LLVMGetAtomicRMWBinOp(inst), old, v);
                if (!now) {
                    LLVMInstructionEraseFromParent(old);
                    continue;
                }
                LLVMSetAlignment(old, LLVMGetAlignment(inst));
                LLVMValueRef store = LLVMBuildStore(b, now, pointer);
                LLVMSetAlignment(store, LLVMGetAlignment(inst));
                mark_sequential(old);
                mark_sequential(store);
                LLVMReplaceAllUsesWith(inst, old);
                LLVMInstructionEraseFromParent(inst);
            } else if (LLVMIsAAtomicCmpXchgInst(inst) &&
                       is_local_pointer(LLVMGetOperand(inst, 0))) {
                LLVMValueRef pointer = LLVMGetOperand(inst, 0);
                LLVMValueRef expected = LLVMGetOperand(inst, 1), desired = LLVMGetOperand(inst, 2);
                LLVMPositionBuilderBefore(b, inst);
                LLVMValueRef old = LLVMBuildLoad2(b, LLVMTypeOf(expected), pointer, "");
                LLVMValueRef same = LLVMBuildICmp(b, LLVMIntEQ, old, expected, "");
                LLVMValueRef store =
                    LLVMBuildStore(b, LLVMBuildSelect(b, same, desired, old, ""), pointer);
                mark_sequential(old);
                mark_sequential(store);
                LLVMValueRef pair = LLVMGetUndef(LLVMTypeOf(inst));
                pair = LLVMBuildInsertValue(b, pair, old, 0, "");
                pair = LLVMBuildInsertValue(b, pair, same, 1, "");
                LLVMReplaceAllUsesWith(inst, pair);
                LLVMInstructionEraseFromParent(inst);
            }
        }
    }
}

/* --- kernel-scope __local variables --- */

struct local_layout {
    LLVMValueRef fn;         /* the function whose uses are replaced */
    LLVMBasicBlockRef entry; /* where the pointers are made */
    LLVMValueRef local_mem;  /* the group's local memory (state->local_mem) */
    LLVMValueRef *globals, *pointers;
    unsigned count, capacity;
    size_t size;
    bool failed;
};

static bool is_local_global(LLVMValueRef value)
{
    return LLVMIsAGlobalVariable(value) && LLVMGetPointerAddressSpace(LLVMTypeOf(value)) == 3;
}

/* Whether a constant refers to a __local variable, possibly through
 * constant expressions (getelementptr, addrspacecast, ...). */
static bool refers_to_local(LLVMValueRef value)
{
    if (is_local_global(value))
        return true;
    if (!LLVMIsAConstant(value) || LLVMIsAGlobalValue(value))
        return false;
    int n = LLVMGetNumOperands(value);
    for (int i = 0; i < n; i++)
        if (refers_to_local(LLVMGetOperand(value, i)))
            return true;
    return false;
}

/* The per-group pointer replacing a __local variable, made in the entry
 * block on first use. */
static LLVMValueRef local_pointer(struct local_layout *layout, LLVMValueRef global)
{
    for (unsigned i = 0; i < layout->count; i++)
        if (layout->globals[i] == global)
            return layout->pointers[i];
    if (layout->count == layout->capacity) {
        unsigned capacity = layout->capacity ? 2 * layout->capacity : 8;
        LLVMValueRef *g = realloc(layout->globals, capacity * sizeof *g);
        if (g)
            layout->globals = g;
        LLVMValueRef *p = g ? realloc(layout->pointers, capacity * sizeof *p) : NULL;
        if (p)
            layout->pointers = p;
        if (!g || !p) {
            layout->failed = true;
            return NULL;
        }
        layout->capacity = capacity;
    }
    LLVMModuleRef module = LLVMGetGlobalParent(layout->fn);
    LLVMContextRef context = LLVMGetModuleContext(module);
    LLVMTargetDataRef data_layout = LLVMGetModuleDataLayout(module);
    LLVMTypeRef type = LLVMGlobalGetValueType(global);
    size_t align = LLVMGetAlignment(global);
    if (align < LLVMABIAlignmentOfType(data_layout, type))
        align = LLVMABIAlignmentOfType(data_layout, type);
    size_t offset = (layout->size + align - 1) & ~(align - 1);
    layout->size = offset + (size_t)LLVMABISizeOfType(data_layout, type);

    LLVMBuilderRef b = LLVMCreateBuilderInContext(context);
    LLVMPositionBuilderBefore(b, LLVMGetBasicBlockTerminator(layout->entry));
    LLVMValueRef index = LLVMConstInt(LLVMInt64TypeInContext(context), offset, 0);
    LLVMValueRef address =
        LLVMBuildInBoundsGEP2(b, LLVMInt8TypeInContext(context), layout->local_mem, &index, 1, "");
    size_t length;
    const char *name = LLVMGetValueName2(global, &length);
    LLVMValueRef pointer = LLVMBuildAddrSpaceCast(b, address, LLVMTypeOf(global), name);
    LLVMDisposeBuilder(b);
    layout->globals[layout->count] = global;
    layout->pointers[layout->count++] = pointer;
    return pointer;
}

/* Rebuilds a constant that refers to a __local variable as instructions at
 * b, with the variable replaced by its per-group pointer. NULL when the
 * constant has a form this does not handle. */
static LLVMValueRef materialize(LLVMBuilderRef b, struct local_layout *layout, LLVMValueRef value)
{
    if (is_local_global(value))
        return local_pointer(layout, value);
    if (!refers_to_local(value))
        return value;
    if (!LLVMIsAConstantExpr(value))
        return NULL;
    int n = LLVMGetNumOperands(value);
    LLVMValueRef operands[16];
    if (n > 16)
        return NULL;
    for (int i = 0; i < n; i++)
        if (!(operands[i] = materialize(b, layout, LLVMGetOperand(value, i))))
            return NULL;
    LLVMOpcode opcode = LLVMGetConstOpcode(value);
    switch (opcode) {
    case LLVMGetElementPtr: {
        LLVMValueRef gep = LLVMBuildGEP2(b, LLVMGetGEPSourceElementType(value), operands[0],
                                         operands + 1, (unsigned)n - 1, "");
        if (LLVMIsAGetElementPtrInst(gep))
            LLVMSetIsInBounds(gep, LLVMIsInBounds(value));
        return gep;
    }
    case LLVMAddrSpaceCast:
    case LLVMBitCast:
    case LLVMPtrToInt:
    case LLVMIntToPtr:
    case LLVMTrunc: return LLVMBuildCast(b, opcode, operands[0], LLVMTypeOf(value), "");
    case LLVMAdd:
    case LLVMSub:
    case LLVMMul:
    case LLVMXor: return LLVMBuildBinOp(b, opcode, operands[0], operands[1], "");
    default: return NULL;
    }
}

cl_int cc_place_locals(LLVMValueRef fn, LLVMBasicBlockRef entry, LLVMValueRef local_mem,
                       struct cc_kernel_info *kernel, struct cc_log *log)
{
    LLVMContextRef context = LLVMGetModuleContext(LLVMGetGlobalParent(fn));
    LLVMBuilderRef b = LLVMCreateBuilderInContext(context);
    struct local_layout layout = {.fn = fn, .entry = entry, .local_mem = local_mem};
    cl_int err = CL_SUCCESS;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb && !err;
         bb = LLVMGetNextBasicBlock(bb)) {
        for (LLVMValueRef inst = LLVMGetFirstInstruction(bb); inst && !err;
             inst = LLVMGetNextInstruction(inst)) {
            int n = LLVMGetNumOperands(inst);
            for (int i = 0; i < n; i++) {
                LLVMValueRef operand = LLVMGetOperand(inst, i);
                if (!operand || !refers_to_local(operand))
                    continue;
                if (LLVMIsAPHINode(inst))
                    LLVMPositionBuilderBefore(
                        b, LLVMGetBasicBlockTerminator(LLVMGetIncomingBlock(inst, (unsigned)i)));
                else
                    LLVMPositionBuilderBefore(b, inst);
                LLVMValueRef replacement = materialize(b, &layout, operand);
                if (layout.failed) {
                    err = CL_OUT_OF_HOST_MEMORY;
                    break;
                }
                if (!replacement) {
                    cc_log_printf(log,
                                  "error: kernel '%s': unsupported use of a __local variable "
                                  "in a constant expression\n",
                                  kernel->name);
                    err = CL_BUILD_PROGRAM_FAILURE;
                    break;
                }
                LLVMSetOperand(inst, (unsigned)i, replacement);
            }
        }
    }
    LLVMDisposeBuilder(b);
    free(layout.globals);
    free(layout.pointers);
    kernel->local_mem_size = layout.size;
    return err;
}
