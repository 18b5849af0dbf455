/* regions.h - what regions.c, which splits a kernel at its barriers into
 * region functions, shares with demote.c, which first puts the values
 * crossing blocks in allocas, and hands region_loops.c, which builds the
 * work-group function that runs each region for every work-item. Private
 * to those three files; the compiler's interface to them is cc_build_regions
 * (internal.h). */
#ifndef CPUCL_COMPILER_REGIONS_H
#define CPUCL_COMPILER_REGIONS_H

#include <stdbool.h>
#include <stddef.h>

#include <llvm-c/Core.h>
#include <llvm-c/Target.h>

#include "compiler/internal.h"
#include "compiler/ptrmap.h"

enum { MAX_REGIONS = 1024 };

struct regions {
    LLVMModuleRef module;
    LLVMContextRef context;
    LLVMTargetDataRef layout;
    LLVMValueRef wi;            /* the work-item function being taken apart */
    LLVMBasicBlockRef prologue; /* its entry block */
    LLVMBuilderRef b;
    bool (*is_barrier)(LLVMValueRef call);
    bool failed;

    /* regions: 0 starts at the prologue's successor, j > 0 at barrier j */
    LLVMBasicBlockRef start[MAX_REGIONS];
    unsigned num_regions;
    struct map region_of_start; /* barrier block -> region number + 1 */
    struct map *blocks;         /* per region: block -> (void *)1 when in it */
    bool *reenters;             /* per region: can run again after a barrier */
    bool *leads_to;             /* [a * num_regions + b]: region a can stop at barrier b */

    /* per alloca of the prologue: where each work-item's copy lives */
    struct cc_values allocas;
    struct map kept; /* alloca -> offset of its array, per work-item, + 1 */
    size_t per_item; /* bytes a work-item needs in the context */
    size_t status_offset;
    /* Values the same for every work-item (uniform.c): what divergence
     * analysis found, plus the loads demotion made for divergent phis. A
     * kept alloca that only ever holds uniform values has one slot for the
     * group (`shared`: slot offset + 1), not one per work-item. */
    LLVMValueRef *divergent;
    size_t num_divergent;
    bool all_divergent;
    struct map new_divergent, uniform_slots, group_slots;
    struct map heights; /* regions.c recompute_height's memo */
    /* Whether some region can both end a work-item and reach a barrier:
     * only then can work-items part ways (some returned, some went on), and
     * only then do the work-group function's loops check each one's status. */
    bool may_mix;
    bool too_many;                  /* more barriers than MAX_REGIONS: the caller uses fibers */
    struct cc_values group_allocas; /* those, in slot order: one region argument each */
    unsigned first_group_param;
    size_t uniform_size; /* bytes of group slots; the context starts with
                          * them, the per-work-item arrays follow at item_base */
    size_t item_base;
    /* the kept arrays' alias scopes (context_scopes.c), one list for
     * every region function */
    struct cc_context_scopes *scopes;

    /* the prologue's values, computed once in the work-group function and
     * passed to every region (unless one depends on the local ids) */
    struct cc_values shared;
    bool clone_prologue;

    LLVMTypeRef i8, i32, i64, ptr, region_type;
};

/* demote.c: every value of r->wi used outside its block, phis too, goes
 * through an alloca of the prologue or is computed again where it is used;
 * sets r->failed when out of memory. */
void cc_demote_values(struct regions *r);

/* region_loops.c: the work-group function wg_name of a kernel split into
 * r->num_regions region functions `regions`, its string attributes (the
 * target's) copied from copy_attributes_from. */
LLVMValueRef cc_region_loops_function(struct regions *r, LLVMValueRef *regions, const char *wg_name,
                                      LLVMValueRef copy_attributes_from);

#endif
