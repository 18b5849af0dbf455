/* demote.c - the first step of regions.c: every SSA value of a work-item
 * function used outside its block (phis too) goes to an alloca of the
 * prologue, stored where it is computed and loaded where it is used, so
 * that regions.c can cut the function at its barriers and then decide,
 * alloca by alloca, what each work-item keeps across them. Cheap
 * arithmetic on the local ids and the prologue's values is computed again
 * where it is used instead. Demoted values the divergence analysis
 * (uniform.c) found uniform are noted, so their slots can be one for the
 * group. */
#include <stdbool.h>
#include <stdlib.h>

#include "compiler/internal.h"
#include "compiler/ptrmap.h"
#include "compiler/regions.h"

static LLVMValueRef new_alloca(struct regions *r, LLVMTypeRef type)
{
    LLVMValueRef first = LLVMGetFirstInstruction(r->prologue);
    LLVMPositionBuilderBefore(r->b, first);
    return LLVMBuildAlloca(r->b, type, "");
}

static bool is_uniform(struct regions *r, LLVMValueRef v)
{
    return !r->all_divergent && !cc_is_divergent(r->divergent, r->num_divergent, v) &&
           !map_get(&r->new_divergent, v);
}

static void demote_phi(struct regions *r, LLVMValueRef phi)
{
    LLVMValueRef slot = new_alloca(r, LLVMTypeOf(phi));
    bool uniform = is_uniform(r, phi);
    if (uniform)
        r->failed |= !map_put(&r->uniform_slots, slot, (void *)1);
    unsigned count = LLVMCountIncoming(phi);
    for (unsigned i = 0; i < count; i++) {
        LLVMPositionBuilderBefore(r->b, LLVMGetBasicBlockTerminator(LLVMGetIncomingBlock(phi, i)));
        LLVMBuildStore(r->b, LLVMGetIncomingValue(phi, i), slot);
    }
    LLVMBasicBlockRef bb = LLVMGetInstructionParent(phi);
    LLVMValueRef after = LLVMGetFirstInstruction(bb);
    while (after && LLVMIsAPHINode(after))
        after = LLVMGetNextInstruction(after);
    LLVMPositionBuilderBefore(r->b, after);
    LLVMValueRef value = LLVMBuildLoad2(r->b, LLVMTypeOf(phi), slot, "");
    if (!uniform)
        r->failed |= !map_put(&r->new_divergent, value, (void *)1);
    LLVMReplaceAllUsesWith(phi, value);
    LLVMInstructionEraseFromParent(phi);
}

/* Whether a value is cheap arithmetic on the local ids, the prologue's
 * values and constants: then each region computes it again where it needs
 * it, instead of keeping it per work-item (get_local_id(0) stays the loop
 * counter the vectorizer knows, not an opaque load). An alloca's own
 * address counts as such a value inside an address (each region maps the
 * alloca to its home): the Scalarizer's component addresses, computed once
 * in the first block, were kept as pointers per work-item, and a load
 * through such a pointer was one LLVM could not tell from any other.
 *
 * recompute_height: the height of v's computation above its leaves
 * (constants, arguments, the prologue's values), or -1 when it is not such
 * arithmetic; memoized in r->heights (height + 2, 1 for -1), since a
 * sub-group's ids and a tile's indices are chains of a dozen operations
 * sharing operands. At most MAX_RECOMPUTE high: allowing 16 made bench
 * transpose 7.5 -> 10 ms and reduce 5.2 -> 7.4 ms (chains of address
 * arithmetic recomputed per region rather than loaded). */
enum { MAX_RECOMPUTE = 8 };

static int recompute_height(struct regions *r, LLVMValueRef v)
{
    if (LLVMIsAConstant(v) || LLVMIsAArgument(v))
        return 0;
    if (!LLVMIsAInstruction(v))
        return -1;
    if (LLVMGetInstructionParent(v) == r->prologue)
        return 0;
    uintptr_t memo = (uintptr_t)map_get(&r->heights, v);
    if (memo)
        return (int)memo - 2;
    int height = -1;
    switch (LLVMGetInstructionOpcode(v)) {
    case LLVMAdd:
    case LLVMSub:
    case LLVMMul:
    case LLVMShl:
    case LLVMLShr:
    case LLVMAShr:
    case LLVMAnd:
    case LLVMOr:
    case LLVMXor:
    case LLVMTrunc:
    case LLVMZExt:
    case LLVMSExt:
    case LLVMICmp:
    case LLVMSelect:
    case LLVMGetElementPtr:
    case LLVMAddrSpaceCast:
    case LLVMBitCast:
    case LLVMIntToPtr:
    case LLVMPtrToInt: height = 0; break;
    case LLVMUDiv:
    case LLVMURem:
    case LLVMSDiv:
    case LLVMSRem: {
        /* by a constant that cannot trap (not 0, nor -1 when signed): a
         * sub-group's id and local id, lid / S and lid % S, and tiles' */
        LLVMValueRef divisor = LLVMGetOperand(v, 1);
        LLVMOpcode op = LLVMGetInstructionOpcode(v);
        if (LLVMIsAConstantInt(divisor) && LLVMConstIntGetZExtValue(divisor) &&
            ((op != LLVMSDiv && op != LLVMSRem) || LLVMConstIntGetSExtValue(divisor) != -1))
            height = 0;
        break;
    }
    case LLVMCall: {
        /* the integer minimum and maximum instcombine made of selects */
        LLVMValueRef callee = LLVMIsAFunction(LLVMGetCalledValue(v));
        size_t length;
        const char *name =
            callee && LLVMGetIntrinsicID(callee) ? LLVMGetValueName2(callee, &length) : "";
        if (!strncmp(name, "llvm.umin.", 10) || !strncmp(name, "llvm.umax.", 10) ||
            !strncmp(name, "llvm.smin.", 10) || !strncmp(name, "llvm.smax.", 10))
            height = 0;
        break;
    }
    default: break;
    }
    int n = LLVMGetNumOperands(v);
    for (int i = 0; i < n && height >= 0; i++) {
        int h = recompute_height(r, LLVMGetOperand(v, (unsigned)i));
        height = h < 0 || h + 1 > MAX_RECOMPUTE ? -1 : h + 1 > height ? h + 1 : height;
    }
    r->failed |= !map_put(&r->heights, v, (void *)(uintptr_t)(height + 2));
    return height;
}

static bool recomputable(struct regions *r, LLVMValueRef v)
{
    if (LLVMIsAAllocaInst(v) && LLVMGetInstructionParent(v) == r->prologue)
        return false; /* on its own: the region's home is what it needs */
    return recompute_height(r, v) >= 0;
}

/* A copy of recomputable v's computation, placed at the builder. */
static LLVMValueRef recompute(struct regions *r, LLVMValueRef v)
{
    if (!LLVMIsAInstruction(v) || LLVMGetInstructionParent(v) == r->prologue)
        return v;
    LLVMValueRef copy = LLVMInstructionClone(v);
    int n = LLVMGetNumOperands(v);
    for (int i = 0; i < n; i++)
        LLVMSetOperand(copy, (unsigned)i, recompute(r, LLVMGetOperand(v, (unsigned)i)));
    LLVMInsertIntoBuilder(r->b, copy);
    return copy;
}

/* A value used outside its block: recomputed before each such use when it
 * is cheap arithmetic on the ids, else stored to an alloca after its
 * definition and loaded before each such use. */
static void demote_value(struct regions *r, LLVMValueRef inst)
{
    LLVMBasicBlockRef home = LLVMGetInstructionParent(inst);
    struct cc_values users = {0};
    for (LLVMUseRef use = LLVMGetFirstUse(inst); use; use = LLVMGetNextUse(use)) {
        LLVMValueRef user = LLVMGetUser(use);
        if (LLVMGetInstructionParent(user) != home && !cc_values_add(&users, user))
            r->failed = true;
    }
    if (!users.count)
        return;
    LLVMValueRef slot = NULL;
    if (!recomputable(r, inst)) {
        slot = new_alloca(r, LLVMTypeOf(inst));
        if (is_uniform(r, inst))
            r->failed |= !map_put(&r->uniform_slots, slot, (void *)1);
        LLVMPositionBuilderBefore(r->b, LLVMGetNextInstruction(inst));
        LLVMBuildStore(r->b, inst, slot);
    }
    for (size_t u = 0; u < users.count; u++) {
        LLVMValueRef user = users.items[u];
        bool seen = false;
        for (size_t v = 0; v < u; v++)
            seen |= users.items[v] == user;
        if (seen)
            continue;
        LLVMPositionBuilderBefore(r->b, user);
        LLVMValueRef value =
            slot ? LLVMBuildLoad2(r->b, LLVMTypeOf(inst), slot, "") : recompute(r, inst);
        int n = LLVMGetNumOperands(user);
        for (int i = 0; i < n; i++)
            if (LLVMGetOperand(user, (unsigned)i) == inst)
                LLVMSetOperand(user, (unsigned)i, value);
    }
    free(users.items);
}

void cc_demote_values(struct regions *r)
{
    /* phis first: the loads that replace them are values like any other */
    struct cc_values phis = {0}, values = {0};
    for (LLVMBasicBlockRef bb = LLVMGetNextBasicBlock(r->prologue); bb;
         bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef inst = LLVMGetFirstInstruction(bb); inst && LLVMIsAPHINode(inst);
             inst = LLVMGetNextInstruction(inst))
            r->failed |= !cc_values_add(&phis, inst);
    for (size_t i = 0; i < phis.count; i++)
        demote_phi(r, phis.items[i]);
    for (LLVMBasicBlockRef bb = LLVMGetNextBasicBlock(r->prologue); bb;
         bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef inst = LLVMGetFirstInstruction(bb); inst;
             inst = LLVMGetNextInstruction(inst)) {
            if (LLVMGetTypeKind(LLVMTypeOf(inst)) == LLVMVoidTypeKind)
                continue;
            for (LLVMUseRef use = LLVMGetFirstUse(inst); use; use = LLVMGetNextUse(use))
                if (LLVMGetInstructionParent(LLVMGetUser(use)) != bb) {
                    r->failed |= !cc_values_add(&values, inst);
                    break;
                }
        }
    for (size_t i = 0; i < values.count; i++)
        demote_value(r, values.items[i]);
    free(phis.items), free(values.items);
}
