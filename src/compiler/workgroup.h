/* workgroup.h - what workgroup.c, which makes each kernel a work-group
 * function, shares with work_items.c, which lowers the work-item calls in
 * it (get_global_id, the address-space queries, the barriers of fibers,
 * the library's hooks) and settles the sub-group size of kernels using the
 * non-uniform sub-group functions. Private to those two files; the
 * compiler's interface to them is cc_make_workgroup_functions
 * (internal.h). */
#ifndef CPUCL_COMPILER_WORKGROUP_H
#define CPUCL_COMPILER_WORKGROUP_H

#include <stdbool.h>
#include <stddef.h>

#include <llvm-c/Core.h>

#include "compiler/internal.h"

/* How a kernel's work-items run in a work-group function. */
enum wg_form {
    LOOPS,   /* no barriers: z/y/x loops around the kernel */
    REGIONS, /* work-group barriers: loops around the code between them (regions.c) */
    FIBERS,  /* sub-group barriers or independent forward progress: a stack per item */
};

/* The work-group function of one kernel while it is being built. */
struct wg {
    struct cc_kernel_info *kernel;
    LLVMValueRef kernel_fn;
    LLVMValueRef fn;       /* where the kernel is inlined: the work-group function, or for
                            * a kernel with barriers its work-item function */
    LLVMValueRef exported; /* the work-group function */
    enum wg_form form;
    LLVMValueRef id[3]; /* x, y, z loop counters (local ids) */
    LLVMValueRef group_id[3], local_size[3], enqueued_local_size[3];
    LLVMValueRef global_size[3], global_offset[3], num_groups[3];
    LLVMValueRef work_dim, local_mem;
    LLVMBasicBlockRef entry;
    LLVMValueRef x_latch;    /* LOOPS: the x loop's branch, marked parallel at the end */
    bool sub_group_barriers; /* REGIONS: the kernel also calls sub_group_barrier */
    bool non_uniform;        /* it calls the non-uniform sub-group functions: its sub-group
                              * size is settled after cc_lower_work_item_calls
                              * (cc_settle_sub_group_size) */
};

/* What a call is to the work-items of a group: barrier() and
 * work_group_barrier() (6.13.8) wait for the group, sub_group_barrier()
 * (cl_khr_subgroups) for the sub-group. */
enum barrier_kind { NOT_A_BARRIER, WORK_GROUP_BARRIER, SUB_GROUP_BARRIER };

/* workgroup.c */

/* The name inside an Itanium-mangled builtin name: "barrier" for
 * "_Z7barrierj". Unmangled names are returned whole. */
size_t cc_plain_name(const char *mangled, const char **name);
/* Whether the name of `length` bytes at `name` is `what`. */
bool cc_name_is(const char *name, size_t length, const char *what);
/* barrier and work_group_barrier (6.13.8), sub_group_barrier
 * (cl_khr_subgroups): what the fibers implement. */
enum barrier_kind cc_barrier_kind_of(const char *name, size_t length);
/* A call of sub_group_barrier. */
bool cc_is_sub_group_barrier(LLVMValueRef call);
/* The field of *base at byte `offset`, of `type`, loaded at b. */
/* Marks a load of a local size (state->local_size or enqueued_local_size)
 * `!range [1, CC_MAX_WORK_GROUP_SIZE]`: the runtime never launches a
 * larger group, and a work-item index then has a range LLVM can use (its
 * conversion to floating point, interleave.cpp). */
void cc_mark_local_size(LLVMValueRef load);

LLVMValueRef cc_load_field(LLVMBuilderRef b, LLVMTypeRef type, LLVMValueRef base, size_t offset,
                           const char *name);

/* work_items.c */

/* An atomic read-modify-write, compare-exchange or load. */
bool cc_is_atomic(LLVMValueRef inst);
/* A call of one of the device's hooks in *state (barrier,
 * sub_group_barrier, yield), placed before `before`. */
void cc_call_state_hook(LLVMBuilderRef b, const struct wg *wg, LLVMValueRef before, size_t field);
/* Replaces the work-item calls of wg->fn; fails on barrier-like calls and
 * on calls that were not inlined (recursion). */
cl_int cc_lower_work_item_calls(LLVMBuilderRef b, struct wg *wg, struct cc_log *log);
/* The calls in fn that `wanted` picks; (size_t)-1 when out of memory. */
size_t cc_calls_in(LLVMValueRef fn, bool (*wanted)(LLVMValueRef), LLVMValueRef **calls);
/* The sub-group size of a kernel calling the non-uniform sub-group
 * functions, made a constant; false when out of memory. */
bool cc_settle_sub_group_size(LLVMBuilderRef b, struct wg *wg);

#endif
