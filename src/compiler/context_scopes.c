/* context_scopes.c - alias scopes for the per-work-item arrays regions.c
 * keeps in the context, so that LLVM sees they are distinct memory.
 *
 * Each kept alloca lives in an array of its own in state->context, at
 * ctx + n * offset + lin * size, with n the group's size known only at run
 * time: LLVM's alias analysis cannot tell two such arrays apart, nor an
 * array from a global buffer. A work-item that stored a value into one
 * array and read it back after a store into another kept the reload, and
 * in a loop the vectorizer runs across work-items that reload mattered:
 * a loop carrying `llvm.loop.parallel_accesses` gets no dependence
 * analysis at all (LoopAccessAnalysis stops early), and its interleaved
 * groups then move loads above stores of the same work-item to the same
 * address. CLBlast's complex XgemmDirect (a float2 accumulator per
 * work-item, the loop over k unrolled) computed wrong results that way.
 *
 * Every load and store whose address is computed from array k's home (by
 * GEPs and casts alone) gets `!alias.scope` {k} and `!noalias` {every
 * other array}; every load and store through a global, constant or local
 * pointer gets `!noalias` {every array} (OpenCL C 6.5: those address
 * spaces are disjoint from private memory, and the context is the
 * work-items' private memory). An address reached any other way (a phi, a
 * pointer loaded from memory) is left untagged, which claims nothing. The
 * lists are made once per kernel and applied to each of its region
 * functions, so the copies of regions inlined into one work-group
 * function agree (each scope is named after the kernel and the array's
 * number).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/internal.h"
#include "compiler/ptrmap.h"

/* Clang's numbers for OpenCL's address spaces on this target */
enum { SPACE_GLOBAL = 1, SPACE_CONSTANT = 2, SPACE_LOCAL = 3 };

/* More arrays than this make the lists long for little gain: untagged. */
enum { MAX_SCOPED_ARRAYS = 256 };

struct cc_context_scopes {
    LLVMContextRef context;
    unsigned scope_kind, noalias_kind;
    size_t count;
    LLVMMetadataRef *scope;  /* per array */
    LLVMMetadataRef *own;    /* per array: the list of its scope alone */
    LLVMMetadataRef *others; /* per array: the list of every other array's scope */
    LLVMMetadataRef all;     /* every array's scope */
};

/* `kind` on inst: its current list with `list`'s scopes added. */
static void add_scopes(const struct cc_context_scopes *s, LLVMValueRef inst, unsigned kind,
                       LLVMMetadataRef list)
{
    LLVMValueRef old = LLVMGetMetadata(inst, kind);
    if (!old) {
        LLVMSetMetadata(inst, kind, LLVMMetadataAsValue(s->context, list));
        return;
    }
    LLVMValueRef ours = LLVMMetadataAsValue(s->context, list);
    unsigned n_old = LLVMGetMDNodeNumOperands(old), n_ours = LLVMGetMDNodeNumOperands(ours);
    LLVMValueRef *values = malloc((n_old + n_ours) * sizeof *values);
    LLVMMetadataRef *merged = malloc((n_old + n_ours) * sizeof *merged);
    if (values && merged) {
        LLVMGetMDNodeOperands(old, values);
        LLVMGetMDNodeOperands(ours, values + n_old);
        for (unsigned i = 0; i < n_old + n_ours; i++)
            merged[i] = LLVMValueAsMetadata(values[i]);
        LLVMMetadataRef node = LLVMMDNodeInContext2(s->context, merged, n_old + n_ours);
        LLVMSetMetadata(inst, kind, LLVMMetadataAsValue(s->context, node));
    }
    free(values);
    free(merged);
}

static LLVMValueRef access_address(LLVMValueRef inst)
{
    if (LLVMIsALoadInst(inst))
        return LLVMGetOperand(inst, 0);
    if (LLVMIsAStoreInst(inst))
        return LLVMGetOperand(inst, 1);
    return NULL;
}

/* Tags the loads and stores reached from array k's home through GEPs and
 * casts; records them in `tagged`. */
static bool tag_array(const struct cc_context_scopes *s, LLVMValueRef home, size_t k,
                      struct map *tagged)
{
    struct cc_values pointers = {0};
    struct map seen = {0};
    bool ok = cc_values_add(&pointers, home) && map_put(&seen, home, home);
    for (size_t i = 0; ok && i < pointers.count; i++) {
        LLVMValueRef p = pointers.items[i];
        for (LLVMUseRef use = LLVMGetFirstUse(p); use && ok; use = LLVMGetNextUse(use)) {
            LLVMValueRef user = LLVMGetUser(use);
            if (!LLVMIsAInstruction(user))
                continue;
            if (access_address(user) == p) {
                if (map_get(tagged, user))
                    continue;
                add_scopes(s, user, s->scope_kind, s->own[k]);
                add_scopes(s, user, s->noalias_kind, s->others[k]);
                ok = map_put(tagged, user, user);
                continue;
            }
            switch (LLVMGetInstructionOpcode(user)) {
            case LLVMGetElementPtr:
                if (LLVMGetOperand(user, 0) != p)
                    break;
                /* fall through */
            case LLVMBitCast:
            case LLVMAddrSpaceCast:
                if (!map_get(&seen, user))
                    ok = map_put(&seen, user, user) && cc_values_add(&pointers, user);
                break;
            default: break;
            }
        }
    }
    free(pointers.items);
    map_free(&seen);
    return ok;
}

void cc_context_scopes_free(struct cc_context_scopes *s)
{
    if (!s)
        return;
    free(s->scope);
    free(s->own);
    free(s->others);
    free(s);
}

bool cc_context_scopes_make(LLVMContextRef context, const char *kernel_name, size_t count,
                            struct cc_context_scopes **out)
{
    *out = NULL;
    if (count == 0 || count > MAX_SCOPED_ARRAYS)
        return true;
    struct cc_context_scopes *s = calloc(1, sizeof *s);
    LLVMMetadataRef *list = calloc(count, sizeof *list);
    if (s) {
        s->context = context;
        s->count = count;
        s->scope = calloc(count, sizeof *s->scope);
        s->own = calloc(count, sizeof *s->own);
        s->others = calloc(count, sizeof *s->others);
    }
    if (!s || !list || !s->scope || !s->own || !s->others) {
        cc_context_scopes_free(s);
        free(list);
        return false;
    }
    s->scope_kind = LLVMGetMDKindIDInContext(context, "alias.scope", 11);
    s->noalias_kind = LLVMGetMDKindIDInContext(context, "noalias", 7);
    char name[160];
    snprintf(name, sizeof name, "cpucl.context.%.120s", kernel_name);
    LLVMMetadataRef domain_name = LLVMMDStringInContext2(context, name, strlen(name));
    LLVMMetadataRef domain = LLVMMDNodeInContext2(context, &domain_name, 1);
    for (size_t k = 0; k < count; k++) {
        snprintf(name, sizeof name, "cpucl.context.%.120s.%zu", kernel_name, k);
        LLVMMetadataRef ops[2] = {LLVMMDStringInContext2(context, name, strlen(name)), domain};
        s->scope[k] = LLVMMDNodeInContext2(context, ops, 2);
        s->own[k] = LLVMMDNodeInContext2(context, &s->scope[k], 1);
    }
    for (size_t k = 0; k < count; k++) {
        size_t n = 0;
        for (size_t j = 0; j < count; j++)
            if (j != k)
                list[n++] = s->scope[j];
        s->others[k] = LLVMMDNodeInContext2(context, list, n);
    }
    s->all = LLVMMDNodeInContext2(context, s->scope, count);
    free(list);
    *out = s;
    return true;
}

bool cc_context_scopes_apply(const struct cc_context_scopes *s, LLVMValueRef fn,
                             const LLVMValueRef *homes)
{
    if (!s)
        return true;
    struct map tagged = {0};
    bool ok = true;
    for (size_t k = 0; ok && k < s->count; k++)
        if (homes[k])
            ok = tag_array(s, homes[k], k, &tagged);
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); ok && bb;
         bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef inst = LLVMGetFirstInstruction(bb); inst;
             inst = LLVMGetNextInstruction(inst)) {
            LLVMValueRef address = access_address(inst);
            if (!address || map_get(&tagged, inst))
                continue;
            unsigned space = LLVMGetPointerAddressSpace(LLVMTypeOf(address));
            if (space == SPACE_GLOBAL || space == SPACE_CONSTANT || space == SPACE_LOCAL)
                add_scopes(s, inst, s->noalias_kind, s->all);
        }
    map_free(&tagged);
    return ok;
}
