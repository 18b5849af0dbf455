/* order.c - the order in which a launch copy's work-groups should run.
 *
 * The device hands out a launch's groups in row-major order (group id 0
 * fastest), which suits kernels whose stores move along a row as group id
 * 0 grows: copies, stencils, GEMM. A transpose stores down a column
 * instead: group (x, y) writes its tile at rows 16x.., columns 16y.., so
 * consecutive groups write 64 bytes into each of 16 new rows and each row
 * is left until the next row of groups, 4096 rows later. Run in bands of
 * B rows of groups, column by column inside a band, the same kernel
 * writes B * 64 contiguous bytes into each row (cpu/pool.c): on Zen 3
 * the bench's 4096^2 transpose went from 12 to 8 ms.
 *
 * cc_group_band reads that from a launch copy's optimised work-group
 * function, where the local size is a constant: every store to global
 * memory has its address written as a linear form in the group ids
 * (constants and unknowns as coefficients, anything non-linear "big").
 * When some store moves by an unknown or a large stride per group in x
 * but a small constant one per group in y, and no store moves by a
 * small stride in x, bands pay: B = 1 KiB / the y stride, within [2, 64].
 * The order changes no result: groups are independent (API spec 3.2.2:
 * no order among work-groups is defined). */
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include <llvm-c/Core.h>
#include <llvm-c/Target.h>

#include "compiler/compiler.h"
#include "compiler/internal.h"

enum { ZERO, CONST, BIG }; /* a coefficient's kind */
enum { SMALL_STRIDE = 4096, BAND_BYTES = 1024, MIN_BAND = 2, MAX_BAND = 64, BUDGET = 4000 };

struct form {
    int kind[2];    /* of group id 0 and 1 */
    long long c[2]; /* the coefficient when CONST */
    bool cyclic;    /* reached the phi being evaluated */
    bool none;      /* poison or undef: no information */
};

struct walk {
    LLVMValueRef state; /* the work-group function's state pointer */
    LLVMTargetDataRef data;
    LLVMValueRef open[64]; /* phis being evaluated */
    unsigned num_open, budget;
};

static const struct form zero_form;

static struct form big_where_nonzero(struct form a)
{
    for (int d = 0; d < 2; d++)
        if (a.kind[d] != ZERO)
            a.kind[d] = BIG;
    return a;
}

static struct form add(struct form a, struct form b, long long sign)
{
    if (a.none)
        return b;
    if (b.none)
        return a;
    struct form r = {.cyclic = a.cyclic || b.cyclic};
    for (int d = 0; d < 2; d++) {
        if (a.kind[d] == BIG || b.kind[d] == BIG) {
            r.kind[d] = BIG;
            continue;
        }
        long long c = a.c[d] + sign * b.c[d];
        r.kind[d] = c ? CONST : ZERO;
        r.c[d] = c;
    }
    return r;
}

static struct form scale(struct form a, long long k)
{
    for (int d = 0; d < 2; d++) {
        if (a.kind[d] != CONST)
            continue;
        long long c = a.c[d];
        if (k && (c > (1LL << 40) || c < -(1LL << 40) || k > (1LL << 20) || k < -(1LL << 20)))
            a.kind[d] = BIG;
        else
            a.c[d] = c * k, a.kind[d] = a.c[d] != 0 ? CONST : ZERO;
    }
    return a;
}

/* Merges the values a phi or select may take. */
static struct form merge(struct form a, struct form b)
{
    if (a.none || (a.cyclic && !b.cyclic && !b.none))
        return b;
    if (b.none || (b.cyclic && !a.cyclic))
        return a;
    struct form r = a;
    for (int d = 0; d < 2; d++)
        if (a.kind[d] != b.kind[d] || (a.kind[d] == CONST && a.c[d] != b.c[d]))
            r.kind[d] = BIG;
    return r;
}

static bool constant_int(LLVMValueRef v, long long *k)
{
    if (!LLVMIsAConstantInt(v))
        return false;
    *k = LLVMConstIntGetSExtValue(v);
    return true;
}

/* The load of group_id[d] from the state pointer, if v is one. */
static int group_dimension(LLVMValueRef v, LLVMValueRef state, LLVMTargetDataRef data)
{
    if (!LLVMIsALoadInst(v) || LLVMGetTypeKind(LLVMTypeOf(v)) != LLVMIntegerTypeKind)
        return -1;
    LLVMValueRef address = LLVMGetOperand(v, 0);
    long long offset = 0;
    if (LLVMIsAGetElementPtrInst(address) && LLVMGetNumOperands(address) == 2 &&
        LLVMGetOperand(address, 0) == state && constant_int(LLVMGetOperand(address, 1), &offset))
        offset *= (long long)LLVMABISizeOfType(data, LLVMGetGEPSourceElementType(address));
    else if (address != state)
        return -1;
    for (int d = 0; d < 2; d++)
        if (offset == (long long)(offsetof(struct cc_wg_state, group_id) + d * sizeof(size_t)))
            return d;
    return -1;
}

static struct form eval(struct walk *w, LLVMValueRef v);

static struct form gep(struct walk *w, LLVMValueRef v)
{
    struct form r = eval(w, LLVMGetOperand(v, 0));
    LLVMTypeRef type = LLVMGetGEPSourceElementType(v);
    int operands = LLVMGetNumOperands(v);
    for (int i = 1; i < operands && type; i++) {
        LLVMValueRef index = LLVMGetOperand(v, (unsigned)i);
        if (i > 1 && LLVMGetTypeKind(type) == LLVMStructTypeKind) {
            long long k;
            if (!constant_int(index, &k))
                return big_where_nonzero(r);
            type = LLVMStructGetTypeAtIndex(type, (unsigned)k);
            continue;
        }
        if (i > 1) {
            LLVMTypeKind kind = LLVMGetTypeKind(type);
            if (kind != LLVMArrayTypeKind && kind != LLVMVectorTypeKind)
                return big_where_nonzero(r);
            type = LLVMGetElementType(type);
        }
        r = add(r, scale(eval(w, index), (long long)LLVMABISizeOfType(w->data, type)), 1);
    }
    return r;
}

static struct form instruction(struct walk *w, LLVMValueRef v)
{
    LLVMOpcode op = LLVMGetInstructionOpcode(v);
    long long k;
    switch (op) {
    case LLVMLoad: /* a group id, or a value the same for every group */
        switch (group_dimension(v, w->state, w->data)) {
        case 0: return (struct form){{CONST, ZERO}, {1, 0}, false, false};
        case 1: return (struct form){{ZERO, CONST}, {0, 1}, false, false};
        default: return zero_form;
        }
    case LLVMTrunc:
    case LLVMZExt:
    case LLVMSExt:
    case LLVMFreeze:
    case LLVMAddrSpaceCast:
    case LLVMBitCast: return eval(w, LLVMGetOperand(v, 0));
    case LLVMAdd:
    case LLVMOr: /* `or disjoint` is an add; a real or of group ids is rare */
        return add(eval(w, LLVMGetOperand(v, 0)), eval(w, LLVMGetOperand(v, 1)), 1);
    case LLVMSub: return add(eval(w, LLVMGetOperand(v, 0)), eval(w, LLVMGetOperand(v, 1)), -1);
    case LLVMMul: {
        struct form a = eval(w, LLVMGetOperand(v, 0)), b = eval(w, LLVMGetOperand(v, 1));
        if (constant_int(LLVMGetOperand(v, 1), &k))
            return scale(a, k);
        if (constant_int(LLVMGetOperand(v, 0), &k))
            return scale(b, k);
        return big_where_nonzero(add(big_where_nonzero(a), big_where_nonzero(b), 1));
    }
    case LLVMShl:
        if (constant_int(LLVMGetOperand(v, 1), &k) && k >= 0 && k < 40)
            return scale(eval(w, LLVMGetOperand(v, 0)), 1LL << k);
        break;
    case LLVMGetElementPtr: return gep(w, v);
    case LLVMSelect: return merge(eval(w, LLVMGetOperand(v, 1)), eval(w, LLVMGetOperand(v, 2)));
    case LLVMInsertElement:
        return merge(eval(w, LLVMGetOperand(v, 0)), eval(w, LLVMGetOperand(v, 1)));
    case LLVMShuffleVector:
        return merge(eval(w, LLVMGetOperand(v, 0)), eval(w, LLVMGetOperand(v, 1)));
    case LLVMPHI: {
        for (unsigned i = 0; i < w->num_open; i++)
            if (w->open[i] == v)
                return (struct form){.cyclic = true};
        if (w->num_open == sizeof w->open / sizeof w->open[0])
            return (struct form){{BIG, BIG}, {0, 0}, false, false};
        w->open[w->num_open++] = v;
        struct form r = {.none = true};
        for (unsigned i = 0; i < LLVMCountIncoming(v); i++)
            r = merge(r, eval(w, LLVMGetIncomingValue(v, i)));
        w->num_open--;
        r.cyclic = false; /* a recurrence steps by what it adds: merged above */
        return r;
    }
    default: break;
    }
    /* anything else: unknown, and non-linear in a group id it depends on */
    struct form r = zero_form;
    int operands = LLVMGetNumOperands(v);
    for (int i = 0; i < operands; i++)
        r = add(r, big_where_nonzero(eval(w, LLVMGetOperand(v, (unsigned)i))), 1);
    return big_where_nonzero(r);
}

static struct form eval(struct walk *w, LLVMValueRef v)
{
    if (!w->budget)
        return (struct form){{BIG, BIG}, {0, 0}, false, false};
    w->budget--;
    if (LLVMIsAPoisonValue(v) || LLVMIsAUndefValue(v))
        return (struct form){.none = true};
    if (!LLVMIsAInstruction(v))
        return zero_form; /* constants, arguments, globals */
    return instruction(w, v);
}

/* The address a store or a masked store or scatter writes, if global. */
static LLVMValueRef global_store_address(LLVMValueRef v)
{
    LLVMValueRef address = NULL;
    if (LLVMIsAStoreInst(v)) {
        address = LLVMGetOperand(v, 1);
    } else if (LLVMIsACallInst(v)) {
        LLVMValueRef callee = LLVMGetCalledValue(v);
        size_t length = 0;
        const char *name = LLVMIsAFunction(callee) ? LLVMGetValueName2(callee, &length) : "";
        if (!strncmp(name, "llvm.masked.store.", 18) || !strncmp(name, "llvm.masked.scatter.", 20))
            address = LLVMGetOperand(v, 1);
    }
    if (!address)
        return NULL;
    LLVMTypeRef type = LLVMTypeOf(address);
    if (LLVMGetTypeKind(type) == LLVMVectorTypeKind)
        type = LLVMGetElementType(type);
    return LLVMGetPointerAddressSpace(type) == 1 ? address : NULL;
}

unsigned cc_group_band(LLVMValueRef wg_fn, LLVMTargetDataRef data)
{
    struct walk w = {.state = LLVMGetParam(wg_fn, 1), .data = data};
    long long y_stride = 0;
    bool columns = false, rows = false;
    for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(wg_fn); b; b = LLVMGetNextBasicBlock(b))
        for (LLVMValueRef i = LLVMGetFirstInstruction(b); i; i = LLVMGetNextInstruction(i)) {
            LLVMValueRef address = global_store_address(i);
            if (!address)
                continue;
            w.budget = BUDGET;
            w.num_open = 0;
            struct form f = eval(&w, address);
            long long x = f.c[0] < 0 ? -f.c[0] : f.c[0], y = f.c[1] < 0 ? -f.c[1] : f.c[1];
            bool x_far = f.kind[0] == BIG || (f.kind[0] == CONST && x >= SMALL_STRIDE);
            if (f.kind[0] == CONST && x < SMALL_STRIDE)
                rows = true;
            else if (x_far && f.kind[1] == CONST && y <= BAND_BYTES / MIN_BAND) {
                columns = true;
                y_stride = y > y_stride ? y : y_stride;
            }
        }
    if (!columns || rows)
        return 0;
    long long band = BAND_BYTES / y_stride;
    return (unsigned)(band < MIN_BAND ? MIN_BAND : band > MAX_BAND ? MAX_BAND : band);
}
