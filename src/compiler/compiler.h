/* compiler.h - the whole interface of src/compiler.
 *
 * The compiler turns OpenCL C source into native work-group functions. It
 * knows nothing of queues, events or cl_mem: the runtime hands it text and
 * options and gets back a cc_program, a table of kernels, each with its
 * argument layout and one entry point that runs a whole work-group.
 *
 * Calling convention of a work-group function (the ABI shared between the
 * generated code and src/devices/cpu):
 *
 *   void wg(const void *arg_block, struct cc_wg_state *state);
 *
 * arg_block holds the kernel's arguments at the offsets given by
 * cc_arg_info.offset: for CC_ARG_BUFFER the data pointer (void *), for
 * CC_ARG_VALUE the argument's bytes, for CC_ARG_LOCAL a size_t offset into
 * the work-group's local arena (state->local_mem). Kernel-scope __local
 * variables occupy the first cc_kernel_info.local_mem_size bytes of the
 * arena; the runtime places __local arguments after them.
 */
#ifndef CPUCL_COMPILER_H
#define CPUCL_COMPILER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 300 /* 2.2 plus the few 3.0 names cpucl answers */
#endif
#include <CL/cl.h>

#ifdef __cplusplus
extern "C" {
#endif

struct cc_wg_state;
/* One work-item of a kernel with barriers: local ids x, y, z. */
typedef void (*cc_wi_fn)(const void *arg_block, struct cc_wg_state *state, size_t x, size_t y,
                         size_t z);

/* Per-work-group state. The layout is ABI: the generated code reads these
 * fields at fixed offsets, so change both sides together. */
struct cc_wg_state {
    size_t group_id[3];
    size_t local_size[3];          /* of this group (smaller in the last group of a non-uniform range) */
    size_t enqueued_local_size[3];
    size_t global_size[3];
    size_t global_offset[3];
    size_t num_groups[3];
    uint32_t work_dim;
    uint32_t sub_group_size;       /* the kernel's (cc_kernel_info.sub_group_size) */
    char *local_mem;               /* this worker's local arena */
    /* For kernels with barriers, which run each work-item on its own stack
     * (a fiber): the work-group function calls run_items with its work-item
     * function, and every barrier calls barrier. Set by the device. */
    void *fibers;
    void (*run_items)(struct cc_wg_state *state, cc_wi_fn item, const void *arg_block);
    void (*barrier)(struct cc_wg_state *state);
    void (*sub_group_barrier)(struct cc_wg_state *state);
    void (*yield)(struct cc_wg_state *state); /* after atomics: lets other sub-groups run */
    /* CC_SCRATCH_SLOTS slots of 8 bytes where the built-in library's
     * collectives exchange values (src/builtins/workgroup.cl). */
    uint64_t *scratch;
    /* For kernels with barriers split into regions (src/compiler/regions.c):
     * `bytes` of this worker's memory for the values the work-items keep
     * across barriers, 64-byte aligned, valid until the next call. */
    void *(*context)(struct cc_wg_state *state, size_t bytes);
    /* OpenCL C 6.5.5 (to_global, to_local, to_private, get_fence): which
     * named address space a generic pointer points into, a CC_SPACE_*. */
    int (*pointer_space)(struct cc_wg_state *state, const void *pointer);
};

enum { CC_SPACE_GLOBAL, CC_SPACE_LOCAL, CC_SPACE_PRIVATE };

/* The largest work-group (CL_DEVICE_MAX_WORK_GROUP_SIZE) and the scratch
 * the collectives need for it (layout: src/builtins/workgroup.cl, which
 * repeats the number). */
#define CC_MAX_WORK_GROUP_SIZE 4096
#define CC_SCRATCH_SLOTS (4 * CC_MAX_WORK_GROUP_SIZE + 2)

typedef void (*cc_wg_fn)(const void *arg_block, struct cc_wg_state *state);

enum cc_arg_kind {
    CC_ARG_BUFFER,  /* __global or __constant pointer: a cl_mem (or NULL) */
    CC_ARG_LOCAL,   /* __local pointer: clSetKernelArg gives a size, value NULL */
    CC_ARG_VALUE,   /* scalar, vector or struct passed by value */
    CC_ARG_IMAGE,
    CC_ARG_SAMPLER,
    CC_ARG_PIPE,
    CC_ARG_QUEUE,
};

struct cc_arg_info {
    enum cc_arg_kind kind;
    cl_kernel_arg_address_qualifier address_qualifier;
    cl_kernel_arg_access_qualifier access_qualifier;
    cl_kernel_arg_type_qualifier type_qualifier;
    size_t size;          /* CC_ARG_VALUE: bytes clSetKernelArg must pass; others: slot size */
    size_t offset;        /* offset of the slot in the argument block */
    char *type_name;      /* as in kernel_arg_type metadata, e.g. "float4*" */
    char *name;           /* NULL when built without -cl-kernel-arg-info */
};

struct cc_kernel_info {
    char *name;
    unsigned num_args;
    struct cc_arg_info *args;
    size_t arg_block_size;
    size_t reqd_work_group_size[3];   /* all 0 when the attribute is absent */
    size_t work_group_size_hint[3];   /* all 0 when absent */
    char *attributes;                 /* CL_KERNEL_ATTRIBUTES text, "" when none */
    size_t local_mem_size;            /* kernel-scope __local variables, bytes */
    size_t private_mem_size;          /* estimate of per-work-item private memory */
    /* The stack its code needs: the static allocas of every function of its
     * part (report.c), an upper bound for a call chain since OpenCL C has no
     * recursion; what the work-group function needs of a worker's stack, or
     * on fibers each work-item of its fiber's. 0 until the code is made. */
    size_t stack_size;
    /* Bytes regions keep per work-item across barriers, in a buffer of the
     * worker's for the group (regions.c; part of private_mem_size). */
    size_t context_size;
    bool fibers; /* its work-items run on fibers (workgroup.c) */
    /* Work-items per sub-group: cc_sub_group_size(), or 1 for a kernel
     * that calls the non-uniform sub-group functions where not every
     * work-item reaches them alike (src/compiler/workgroup.c). */
    unsigned sub_group_size;
    /* A block that kernels of the program enqueue (6.13.17): hidden from
     * the kernel API. Its argument 0 is the block literal (a pointer in
     * CC_ARG_VALUE), the others CC_ARG_LOCAL. */
    bool is_block;
    cc_wg_fn wg;                      /* NULL until the code is made: cc_kernel_code */
};

struct cc_program;  /* opaque: JITed code and its kernel table */

/* Builds source with the OpenCL build options of API spec 5.8.4.
 * Returns CL_SUCCESS, CL_INVALID_BUILD_OPTIONS (unknown or malformed option,
 * *log says which), CL_BUILD_PROGRAM_FAILURE (*log holds Clang's diagnostics
 * or the reason), or CL_OUT_OF_HOST_MEMORY. *log is always set (maybe ""),
 * malloc'd, owned by the caller. Thread safe: builds may run concurrently. */
cl_int cc_build(const char *source, const char *options, char **log,
                struct cc_program **out);

/* Whether the build or link options `text` hold the option `name`, split
 * as cc_build splits them (quotes, backslashes), a -D or -I value not
 * counting; false on a bad quote or when out of memory. */
bool cc_options_have(const char *text, const char *name);

/* Checks build options as cc_build parses them: CL_SUCCESS, or
 * CL_INVALID_BUILD_OPTIONS with *log (malloc'd, always set) saying why. */
cl_int cc_check_options(const char *options, char **log);

/* clCompileProgram: source (with embedded headers, found by their include
 * names) to an object, LLVM bitcode in *bitcode (malloc'd). Returns
 * CL_SUCCESS, CL_INVALID_COMPILER_OPTIONS... as cc_build, with
 * CL_COMPILE_PROGRAM_FAILURE for source errors. */
cl_int cc_compile(const char *source, const char *options, unsigned num_headers,
                  const char *const *header_names, const char *const *header_sources,
                  char **log, void **bitcode, size_t *bitcode_size);

/* clLinkProgram: links objects and libraries (bitcode from cc_compile or an
 * earlier -create-library link). With -create-library the result is a
 * library in *library; otherwise an executable *program. Returns
 * CL_INVALID_LINKER_OPTIONS, CL_INVALID_BINARY, CL_LINK_PROGRAM_FAILURE or
 * CL_OUT_OF_HOST_MEMORY on failure, with *log saying why. */
cl_int cc_link(unsigned count, const void *const *bitcodes, const size_t *sizes,
               const char *options, char **log, struct cc_program **program, void **library,
               size_t *library_size);

/* SPIR-V (API spec 5.8.1, clCreateProgramWithIL). cc_il_is_spirv: the
 * header is a SPIR-V module's. cc_translate_spirv: SPIR-V to an object as
 * cc_compile makes them (for cc_link), or CL_BUILD_PROGRAM_FAILURE with the
 * translator's messages in *log. */
int cc_il_is_spirv(const void *il, size_t size);

/* A SPIR-V specialization constant (API spec 5.8.1, SPIR-V 2.12): its
 * SpecId, its size in bytes, the translator's name of its type (i1, i8,
 * i16, i32, i64, f16, f32, f64), and the value
 * clSetProgramSpecializationConstant gave, if any (little-endian bytes). */
struct cc_spec_constant {
    uint32_t id;
    uint32_t size;
    char type[8];
    int set;
    uint64_t value;
};
/* The specialization constants a SPIR-V module declares (*constants
 * malloc'd, NULL when none); CL_INVALID_VALUE when the module is not well
 * formed enough to say. */
cl_int cc_spirv_spec_constants(const void *il, size_t size, struct cc_spec_constant **constants,
                               unsigned *count);
/* The constants that are set replace their defaults in the module. */
cl_int cc_translate_spirv(const void *il, size_t size, const struct cc_spec_constant *constants,
                          unsigned num_constants, char **log, void **bitcode,
                          size_t *bitcode_size);

/* The program as LLVM bitcode before the built-ins were linked: cc_link
 * builds it again, so it serves as the program's binary. */
const void *cc_program_bitcode(const struct cc_program *program, size_t *size);

/* Bytes of program-scope variables in the global address space. */
size_t cc_program_global_variable_size(const struct cc_program *program);

/* The kernels the application sees (block kernels are not among them). */
unsigned cc_program_num_kernels(const struct cc_program *program);
const struct cc_kernel_info *cc_program_kernel(const struct cc_program *program,
                                               unsigned index);
/* NULL when the program has no kernel of that name. */
const struct cc_kernel_info *cc_program_find_kernel(const struct cc_program *program,
                                                    const char *name);
/* A block kernel by the name the generated code passes (6.13.17), NULL
 * when there is none. */
const struct cc_kernel_info *cc_program_find_block(const struct cc_program *program,
                                                   const char *name);
/* Frees the code and the kernel table; no wg function may run afterwards. */
void cc_program_free(struct cc_program *program);

/* A kernel's work-group function, compiled (or loaded from the kernel
 * cache) at the first call for the kernel; safe from any thread. Fails
 * only for want of memory or on an internal error, which goes to stderr. */
cl_int cc_kernel_code(struct cc_program *program, const struct cc_kernel_info *kernel,
                      cc_wg_fn *wg);
/* What a launch fixes that the general work-group function reads at run
 * time: the enqueued local size (the size of every group but the last ones
 * of a non-uniform range), the format of the image arguments when they all
 * share one, the bits of the sampler arguments when they all agree, which
 * buffers are too large for the caches, whether the global offset is 0. Zero
 * the struct before filling it: launches compare them bytewise. */
struct cc_launch_facts {
    size_t local_size[3];
    uint32_t images_alike;       /* the fields below are the image arguments' */
    int32_t image_order, image_type, image_element_size;
    uint32_t samplers_alike;
    uint32_t sampler_bits;
    /* bit i: buffer argument i is larger than the last-level cache and its
     * data starts on a cache line (CC_STREAMING_ALIGN), so a kernel that
     * only writes it gets streaming (non-temporal) stores */
    uint32_t streaming_args;
    uint32_t no_global_offset; /* 1: the launch's global offset is 0 */
};
/* The alignment, in bytes, a streaming buffer's data has. */
#define CC_STREAMING_ALIGN 64

/* The kernel's code for a launch: *wg, the general work-group function
 * (cc_kernel_code), and *wg_full, one with `facts` folded in that runs the
 * groups of exactly facts->local_size, or NULL. A kernel gets such a copy
 * once it has been launched a few times with the same facts (compiled then,
 * or found in the kernel cache): launches seen once pay no compilation.
 * *band is the copy's group order (order.c): 0 row-major, else bands of
 * that many rows of groups, run column by column. A `repeated` launch (a
 * command-buffer's, run again and again) gets its copy at once.
 * CPUCL_SPECIALIZE=0 turns these copies off. */
cl_int cc_kernel_code_for_launch(struct cc_program *program, const struct cc_kernel_info *kernel,
                                 const struct cc_launch_facts *facts, bool repeated, cc_wg_fn *wg,
                                 cc_wg_fn *wg_full, unsigned *band);
/* CL_KERNEL_PRIVATE_MEM_SIZE, measured on the kernel's optimised code (so
 * made by this call when no launch made it yet). */
cl_int cc_kernel_private_mem_size(struct cc_program *program, const struct cc_kernel_info *kernel,
                                  size_t *size);

/* printf (OpenCL C 6.13.13). The generated code calls, once per printf
 * call of a work-item,
 *
 *   int CC_PRINTF_SYMBOL(const char *format, uint32_t count,
 *                        const uint32_t *sizes, const void *data);
 *
 * `format` is the kernel's format string; argument i (0 <= i < count) is
 * sizes[i] bytes at the next 8-byte aligned offset of `data` (the first at
 * 0): int and narrower integers as int, long as long, float and double as
 * double, pointers as pointers, an n-element vector as its elements in
 * order (3-element vectors take the space of 4). The result is printf's.
 * The device sets the function before any program is built; until then the
 * call returns -1. */
#define CC_PRINTF_SYMBOL "__cpucl_printf"
typedef int (*cc_printf_fn)(const char *format, uint32_t count, const uint32_t *sizes,
                            const void *data);
void cc_set_printf(cc_printf_fn fn);

/* Device-side enqueue (OpenCL C 6.13.17, COMPILER-NOTES 3). Kernels call
 * runtime functions by the names clang gives them; the compiler binds those
 * names to adapters that forward to the functions the runtime hands over
 * with cc_set_device_enqueue (before any such kernel runs). A queue_t is
 * the device queue's cl_command_queue, a clk_event_t a cl_event (or
 * CC_NULL_EVENT), the kernel a block kernel's name in the enqueuing
 * kernel's program (cc_program_find_block). */
struct cc_ndrange { /* clang's ndrange_t, 80 bytes */
    uint32_t work_dim;
    size_t offset[3], global[3], local[3];
};

#define CC_NULL_EVENT ((void *)SIZE_MAX) /* CLK_NULL_EVENT */

struct cc_enqueue {
    void *queue;
    int flags;                      /* CLK_ENQUEUE_FLAGS_* */
    const struct cc_ndrange *ndrange;
    uint32_t num_events;
    void *const *wait_list;
    void **event_ret;               /* NULL: no event wanted */
    const char *kernel;
    const void *block;              /* the block literal: int size, int align, ... */
    uint32_t num_locals;
    const size_t *local_sizes;
};

/* Each returns what the OpenCL C builtin of its name returns. */
struct cc_device_enqueue {
    int (*enqueue_kernel)(const struct cc_enqueue *request);
    int (*enqueue_marker)(void *queue, uint32_t num_events, void *const *wait_list,
                          void **event_ret);
    void *(*default_queue)(void);
    void (*retain_event)(void *event);
    void (*release_event)(void *event);
    void *(*create_user_event)(void);
    void (*set_user_event_status)(void *event, int status);
    void (*capture_profiling_info)(void *event, int name, void *value);
    bool (*is_valid_event)(void *event);
    /* the sub-group size of the block kernel named `kernel` in the running
     * kernel's program (cc_kernel_info.sub_group_size), 0 when unknown */
    unsigned (*block_sub_group_size)(const char *kernel);
};
void cc_set_device_enqueue(const struct cc_device_enqueue *functions);

/* cl_khr_device_uuid. cc_name_uuid (sha256.c): a name-based UUID of the
 * bytes of `name`: the first 16 bytes of their SHA-256 with RFC 9562's
 * version (8, custom) and variant bits. cc_driver_uuid (cache.c): the name
 * UUID of the kernel cache's identity (cpucl's build, the built-in library,
 * LLVM and Clang, the host), which changes exactly when the code this
 * library would make may; false when it cannot be computed. */
void cc_name_uuid(const void *name, size_t size, unsigned char uuid[16]);

/* The SHA-256 (FIPS 180-4) of `size` bytes (sha256.c): the kernel cache's
 * keys and checksums, and program binaries' checksums (api/program.c). */
#define CC_SHA256_SIZE 32
void cc_sha256(const void *data, size_t size, unsigned char digest[CC_SHA256_SIZE]);
bool cc_driver_uuid(unsigned char uuid[16]);

/* Facts about the host the device layer reports (from LLVM). */
const char *cc_host_cpu_name(void);

/* The OpenCL C extensions the compiler supports, space separated: what the
 * device reports as CL_DEVICE_EXTENSIONS (plus any runtime-only ones), so
 * that the two never disagree. Static storage. */
const char *cc_device_extensions(void);

/* The width in bytes of the vector registers kernels are compiled for: the
 * host's widest (16, 32 or 64), or CPUCL_ABI_LEVEL's (README). */
unsigned cc_vector_bytes(void);
/* Work-items per sub-group (cl_khr_subgroups): cc_vector_bytes() / 4, the
 * SIMD width for 32-bit lanes. Sub-group k of a work-group holds the work-items whose
 * local linear id is in [k * size, (k + 1) * size). */
unsigned cc_sub_group_size(void);

#ifdef __cplusplus
}
#endif
#endif
