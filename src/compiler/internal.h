/* internal.h - what the files of src/compiler share with each other.
 *
 * compiler.h is the interface the runtime sees; this header is the one the
 * compiler's own files see. The pipeline (build.c drives it):
 *
 *   options.c    build options (API spec 5.8.4) -> clang cc1 arguments
 *   frontend.cpp OpenCL C -> LLVM IR, in process (the only C++ file)
 *   library.c    link the built-in library bitcode of src/builtins
 *   metadata.c   kernel_arg_* metadata -> cc_kernel_info
 *   printf.c     printf calls -> calls of the device's printf, arguments in memory
 *   division.c   integer division and remainder -> never trapping (6.3)
 *   workgroup.c  kernels -> work-group functions, work-item builtins lowered
 *   regions.c    kernels with barriers -> loops over the code between them
 *   vecmath.c    math calls -> also their libmvec vector variants (VFABI)
 *   parts.cpp    the module cut into one module per work-group function
 *   codegen.c    a part's O3 and machine code, at the kernel's first use, and
 *                the copies made for what launches fix (cc_launch_facts)
 *   background.c the thread that compiles those copies
 *   launch.c     the built-in library's hooks for image formats and samplers
 *   fences.c     memory fences -> LLVM fences with their scope and !mmra
 *   jit.c        host target, O3, native code, the process-wide ORC JIT
 *   cache.c      the on-disk kernel cache: built programs by a hash of their inputs
 *   sha256.c     the hash of the cache's keys and checksums
 *   values.c     a growable array of values, for the passes; type widths
 */
#ifndef CPUCL_COMPILER_INTERNAL_H
#define CPUCL_COMPILER_INTERNAL_H

#include <stdarg.h>
#include <stdbool.h>
#include <pthread.h>
#include <stdint.h>
#include <time.h>

#include <llvm-c/Core.h>
#include <llvm-c/Target.h>
#include <llvm-c/TargetMachine.h>

#include "compiler/compiler.h"

/* log.c: the build log, text the application reads with CL_PROGRAM_BUILD_LOG.
 * Appending never fails visibly; on allocation failure the log keeps what it
 * had and `failed` says so, and cc_build reports CL_OUT_OF_HOST_MEMORY. */
struct cc_log {
    char *text;
    size_t length, capacity;
    bool failed;
};
void cc_log_append(struct cc_log *log, const char *text, size_t length);
void cc_log_printf(struct cc_log *log, const char *format, ...)
    __attribute__((format(printf, 2, 3)));

/* values.c: a growable array of values; free `items` when done. */
struct cc_values {
    LLVMValueRef *items;
    size_t count, capacity;
};
bool cc_values_add(struct cc_values *v, LLVMValueRef value); /* false when out of memory */
bool cc_values_have(const struct cc_values *v, LLVMValueRef value);
/* the bits of an integer, half, float, double or pointer (64), or of a
 * vector of them; 0 for any other type */
unsigned cc_type_bits(LLVMTypeRef type);

/* options.c: the parsed build options. */
struct cc_options {
    char **clang_args; /* extra cc1 arguments, each malloc'd: -D, -I, -w, math flags */
    unsigned num_clang_args;
    int cl_std;           /* OpenCL C version: 100, 110, 120 or 200 */
    bool cxx;             /* C++ for OpenCL 1.0 (cl_std 200) */
    bool opt_disable;     /* -cl-opt-disable */
    bool kernel_arg_info; /* -cl-kernel-arg-info */
};
cl_int cc_options_parse(const char *text, struct cc_options *options, struct cc_log *log);
void cc_options_free(struct cc_options *options);

/* jit.c: facts about the host, found once. */
struct cc_host {
    const char *cpu;      /* LLVMGetHostCPUName, e.g. "znver5" */
    const char *features; /* LLVMGetHostCPUFeatures, "+avx2,+avx512f,..." */
    const char *abi_cpu;  /* the x86-64 level whose vector ABI the host has: clang's
                           * -target-cpu for kernels and the built-in library variant */
    const char *triple;
    const char *data_layout;
};
const struct cc_host *cc_host(void); /* initialises LLVM's native target on first use */
LLVMTargetMachineRef cc_target_machine(bool optimize);
/* Adds one object file to the process-wide JIT under *tracker (a new
 * one when NULL) and looks up `count` symbols. Takes the buffer. */
cl_int cc_jit_add(LLVMMemoryBufferRef object, const char *const *symbols, unsigned count,
                  void **addresses, void **tracker, struct cc_log *log);
void cc_jit_remove(void *tracker);
/* Renames the symbol `from` of an ELF object to `to`, a name of the same
 * length, in place. False when the object has no such symbol (or is not
 * an ELF object): the work-group functions are named with a placeholder
 * in the object, which each program replaces with its serial number. */
bool cc_object_rename(void *object, size_t size, const char *from, const char *to);
/* Whether JITed code may call this process symbol (C math library and the
 * few helpers LLVM's code generator calls). */
bool cc_jit_symbol_allowed(const char *name);

/* enqueue.c: device-side enqueue. cc_name_block_kernels runs on the front
 * end's module: every block kernel's address becomes its name. The JIT
 * defines the runtime functions' symbols (clang's names, cpucl's
 * adapters). */
bool cc_is_block_kernel(LLVMValueRef fn);
void cc_name_block_kernels(LLVMModuleRef module);
struct cc_runtime_symbol {
    const char *name;
    void *address;
};
const struct cc_runtime_symbol *cc_enqueue_symbols(unsigned *count);
bool cc_is_enqueue_symbol(const char *name);

/* vecmath.c: vector variants (VFABI, glibc's libmvec) of the math calls of
 * the work-group functions, for the loop vectorizer; run before O3. */
void cc_add_vector_math(LLVMModuleRef module);
/* vector overloads of C library functions call CC_VMATH_PREFIX<stem>.v4f32
 * and the like (math.cl); cc_lower_vector_math replaces them (and LLVM's
 * vector math intrinsics) by calls of the variants, before O3 */
#define CC_VMATH_PREFIX "cpucl.vmath."
void cc_lower_vector_math(LLVMModuleRef module, bool use_variants);
/* the same for one function; without variants a cpucl.vmath call becomes
 * one C library call per lane (LLVM's intrinsics stay, for the Scalarizer) */
void cc_lower_vector_math_in(LLVMValueRef fn, bool use_variants);
bool cc_is_vmath_call(const char *name);
bool cc_vecmath_symbol(const char *name); /* a libmvec function the JIT binds */
/* libmvec's name of the vector function of stem and arity for ISA (0 SSE,
 * 1 AVX2, 2 AVX-512) and type: asin, 1, 1, float: _ZGVdN8v_asinf */
void cc_libmvec_name(char *out, size_t size, const char *stem, int arity, int isa, bool is_double);
/* The name of SLEEF's 1-ulp function of stem for ISA index isa and type:
 * sin, 2, double: Sleef_sind8_u10avx512f */
void cc_sleef_name(char *out, size_t size, const char *stem, int isa, bool is_double);

/* The vectors of the x86-64 vector function ABI's ISAs (SSE, AVX2,
 * AVX-512), for lanes.c's and guards.c's variants (GCC vector types) */
typedef float f4 __attribute__((vector_size(16)));
typedef float f8 __attribute__((vector_size(32)));
typedef float f16 __attribute__((vector_size(64)));
typedef double d2 __attribute__((vector_size(16)));
typedef double d4 __attribute__((vector_size(32)));
typedef double d8 __attribute__((vector_size(64)));

/* lanes.c: per-lane vector variants (and a race-free lgamma) for the
 * functions without an accurate vector variant; the JIT binds them */
const struct cc_runtime_symbol *cc_lanes_symbols(unsigned *count);
bool cc_is_lanes_symbol(const char *name);
/* guards.c: vector variants that keep libmvec's functions off their
 * lane-by-lane path, and the guarded scalar functions, bound by the JIT;
 * cc_guard_variant names the wrapper of libmvec's function of stem, ISA
 * (its suffix: sse2, avx2, avx512f) and type, if there is one */
const struct cc_runtime_symbol *cc_guard_symbols(unsigned *count);
bool cc_guard_variant(const char *stem, const char *isa, bool is_double, char *out, size_t size);
bool cc_is_guard_symbol(const char *name);
/* half.c: a fast __truncdfhf2 (double -> half), bound by the JIT in place
 * of libgcc's */
const struct cc_runtime_symbol *cc_half_symbols(unsigned *count);
/* half.c: every `fptrunc double to half` becomes double -> float rounded to
 * odd, then float -> half, which x86 converts in vector registers. */
cl_int cc_lower_double_to_half(LLVMModuleRef module);
/* After O3: callers of 512-bit variants get the attribute that makes the
 * x86 back end pass those vectors in zmm registers, as the variants expect. */
void cc_fix_wide_vector_calls(LLVMModuleRef module);

/* launch.c: the calls by which the built-in library reads an image's
 * format and a sampler's bits become loads and values, or the constants
 * of `facts` (NULL: the general code), before O3. */
bool cc_is_launch_hook(const char *name);
void cc_lower_launch_hooks(LLVMModuleRef module, const struct cc_launch_facts *facts);
/* In a launch's copy whose region functions are inlined, before O3: the
 * loads of the buffer arguments of `streaming_args` (cc_launch_facts) from
 * the argument block give pointers aligned to CC_STREAMING_ALIGN (!align),
 * so O3 can prove the vector stores through them aligned. */
void cc_align_streaming_arguments(LLVMValueRef wg_fn, const struct cc_kernel_info *kernel,
                                  uint32_t streaming_args);
/* The same copy after O3: the whole aligned vector stores to those buffers,
 * when the kernel only writes them, become non-temporal (the device fences
 * them: cpu/pool.c). True when some store was marked. */
bool cc_stream_stores(LLVMValueRef wg_fn, const struct cc_kernel_info *kernel,
                      uint32_t streaming_args);

/* order.c: the band of group rows a launch copy's groups should run in
 * (column by column inside a band: cpu/pool.c), or 0 for row-major
 * order: bands when its global stores move by a large stride per group
 * in x and a small one per group in y (a transpose). */
unsigned cc_group_band(LLVMValueRef wg_fn, LLVMTargetDataRef data);

/* fences.c: calls of the fence built-ins with constant arguments become
 * fence instructions with the syncscope and !mmra tags of what they order;
 * run on the front end's module, before the library is linked. */
void cc_lower_fences(LLVMModuleRef module);

/* library.c: link the built-in library into module and give every function
 * the host's target attributes. */
cl_int cc_link_builtins(LLVMModuleRef module, struct cc_log *log);

/* division.c: every integer division and remainder whose divisor may be 0
 * (or -1 with a minimum dividend) divides by 1 instead, so no kernel
 * raises SIGFPE (OpenCL C 6.3: the result is only undefined). */
cl_int cc_guard_division(LLVMModuleRef module);

/* metadata.c: the kernel table, before any code exists. `kernels` gets one
 * entry per spir_kernel function: the application's in module order, then the
 * block kernels (enqueue.c). */
cl_int cc_read_kernels(LLVMModuleRef module, bool arg_names, struct cc_kernel_info **kernels,
                       unsigned *num_kernels, struct cc_log *log);
void cc_free_kernels(struct cc_kernel_info *kernels, unsigned num_kernels);

/* workgroup.c: one work-group function per kernel (named by
 * cc_wg_function_name), the original kernels made internal. Fills
 * local_mem_size; private_mem_size is filled by cc_measure_private_mem after
 * optimisation. */
cl_int cc_make_workgroup_functions(LLVMModuleRef module, struct cc_kernel_info *kernels,
                                   unsigned num_kernels, LLVMTargetMachineRef machine,
                                   struct cc_log *log);
char *cc_wg_function_name(const char *kernel_name);
/* Gives `to` the string attributes of function `from` (target-cpu,
 * target-features, denormal and math modes) but uniform-work-group-size:
 * what a function built around or cut from a kernel needs so that the
 * kernel's code inlines into it unchanged. */
void cc_copy_string_attributes(LLVMValueRef from, LLVMValueRef to);
/* Runs an LLVM pass pipeline (LLVMRunPasses' text) over the module; a
 * failure is logged with the pipeline's text: CL_BUILD_PROGRAM_FAILURE. */
cl_int cc_run_passes(LLVMModuleRef module, const char *passes, LLVMTargetMachineRef machine,
                     struct cc_log *log);

/* local_memory.c: whether a memory access may join a work-item loop's
 * parallel access group (all do but the local atomics made plain). */
bool cc_parallel_access(LLVMValueRef inst);
/* fn's atomics on __local memory become plain loads and stores, kept out
 * of the parallel claim. */
void cc_localize_atomics(LLVMBuilderRef b, LLVMValueRef fn);
/* fn's uses of kernel-scope __local variables become slices of
 * local_mem, made in block entry; sets kernel->local_mem_size.
 * CL_BUILD_PROGRAM_FAILURE (logged) for a use the slices cannot replace. */
cl_int cc_place_locals(LLVMValueRef fn, LLVMBasicBlockRef entry, LLVMValueRef local_mem,
                       struct cc_kernel_info *kernel, struct cc_log *log);

/* uniform.c: the values of work-item function fn (parameters 2-4 the
 * local ids) that can differ between the work-items of a group, as a
 * sorted array for cc_is_divergent. False when out of memory. */
/* Metadata on a loop header's phi that loops.cpp found the same for every
 * work-item running the loop in lockstep: uniform.c keeps it uniform. */
#define CC_LOCKSTEP_KIND "cpucl.lockstep"
bool cc_find_divergent(LLVMValueRef fn, LLVMBasicBlockRef prologue, LLVMValueRef **divergent,
                       size_t *count);
bool cc_is_divergent(LLVMValueRef *divergent, size_t count, LLVMValueRef value);
/* spirv_fixes.c: a copy of the SPIR-V module `il` with what llvm-spirv-15
 * cannot read rewritten into what it can (*out_size bytes, malloc'd);
 * NULL when there is nothing to rewrite (or no memory: the module then
 * goes as it is). */
void *cc_spirv_translator_fixes(const void *il, size_t size, size_t *out_size);

/* Whether every work-item of a group executes each of `calls` alike: none
 * lies where a divergent branch sends only some work-items. */
bool cc_all_work_items_reach(LLVMValueRef fn, LLVMBasicBlockRef prologue, LLVMValueRef *calls,
                             size_t num_calls);

/* context_scopes.c: alias scopes telling LLVM that the per-work-item
 * arrays regions.c keeps in the context are disjoint from each other and
 * from global, constant and local memory. Made once per kernel for its
 * `count` arrays (*out stays NULL when there are none or too many to be
 * worth it; false when out of memory), then applied to each region
 * function fn, where homes[k] is array k's address. */
struct cc_context_scopes;
bool cc_context_scopes_make(LLVMContextRef context, const char *kernel_name, size_t count,
                            struct cc_context_scopes **out);
bool cc_context_scopes_apply(const struct cc_context_scopes *scopes, LLVMValueRef fn,
                             const LLVMValueRef *homes);
void cc_context_scopes_free(struct cc_context_scopes *scopes);

/* regions.c: the work-group function of a kernel with work-group barriers,
 * built from its work-item function `wi` (workgroup.c) as loops over the
 * code between barriers; *per_item gets the bytes each work-item keeps
 * across barriers (its private memory outside registers). NULL on failure,
 * with the reason in the log, or with *unsuitable set when the kernel has
 * too many barriers for regions (the work-item function is then still a
 * correct one for fibers). */
LLVMValueRef cc_build_regions(LLVMModuleRef module, LLVMValueRef wi, const char *kernel_name,
                              bool (*is_barrier)(LLVMValueRef call), bool *unsuitable,
                              size_t *per_item, struct cc_log *log);

/* report.c: adds to each kernel's private_mem_size the static allocas of
 * its optimised part (`module`), and sets its stack_size to them. */
void cc_measure_private_mem(LLVMModuleRef module, struct cc_kernel_info *kernels,
                            unsigned num_kernels);
/* CPUCL_VECTORIZE=1: prints to stderr, per kernel, whether the loop
 * vectorizer vectorized one of its loops and the widest vector it uses. */
void cc_report_vectorization(LLVMModuleRef module, const struct cc_kernel_info *kernels,
                             unsigned num_kernels);

/* printf.c: every call of the variadic printf becomes a call of
 * CC_PRINTF_SYMBOL (compiler.h) with its arguments stored in memory. */
cl_int cc_lower_printf(LLVMModuleRef module, struct cc_log *log);

/* sha256.c: SHA-256 (FIPS 180-4), incrementally; the one-shot cc_sha256
 * is in compiler.h. */
struct cc_sha256 {
    uint32_t state[8];
    uint64_t length;
    unsigned char block[64];
};
void cc_sha256_init(struct cc_sha256 *s);
void cc_sha256_update(struct cc_sha256 *s, const void *data, size_t size);
void cc_sha256_final(struct cc_sha256 *s, unsigned char digest[CC_SHA256_SIZE]);

/* cache.c: the on-disk kernel cache of built programs (from source, from
 * linked objects or binaries) and of SPIR-V translations. An
 * entry holds what cc_build makes that the runtime keeps or the JIT loads:
 * the build log, the program's bitcode (its binary), the kernel table and
 * the object file of the work-group functions, before the JIT renames
 * them (cc_object_rename). */
/* Bumped whenever the payload's layout or the meaning of a cache entry
 * changes, so older entries become misses (it is part of every key). */
#define CC_CACHE_FORMAT 4
/* cache_key.c: the keys; cache.c: the entries. */
/* Whether a compiler switch is on: its environment variable `name` is
 * unset or anything but "0" (src/compiler/README.md lists them). Read at
 * each build; the key hashes every variable that changes code. */
bool cc_switch_on(const char *name);
/* Whether the environment variable `name` is unset or other than `off`
 * (CPUCL_LAUNCH_COPIES=sync); cc_switch_on is it with "0". */
bool cc_variable_not(const char *name, const char *off);
struct cc_cache_key {
    unsigned char digest[CC_SHA256_SIZE];
};
/* The key of a build of `source` with `options`: a hash of them and of
 * everything else that changes the code (cpucl, its built-in library,
 * LLVM, the host CPU, the environment variables that change code
 * generation). False when this build is not to be cached: the cache is
 * off (CPUCL_CACHE=0), a debugging output is asked for (it would not be
 * printed), or the source reads other files (#include) or the clock. */
bool cc_cache_key(const char *source, const char *options, struct cc_cache_key *key);
/* The key of a build from binary inputs (`kind` names the step: "link",
 * "spirv"), with the same conditions but the #include one. */
bool cc_cache_key_inputs(const char *kind, const char *options, unsigned count,
                         const void *const *inputs, const size_t *sizes, struct cc_cache_key *key);
struct cc_cache_entry {
    char *log;
    size_t log_length;
    void *bitcode;
    size_t bitcode_size;
    size_t global_variable_size;
    struct cc_kernel_info *kernels; /* wg is not stored */
    unsigned num_kernels;
    /* num_kernels + 1 parts before optimisation (parts.cpp); the last one,
     * the shared globals', has size 0 when num_shared is 0 */
    void **parts;
    size_t *part_sizes;
    unsigned num_shared;
    bool opt_disable;
};
/* The entry of `key`, every part malloc'd (cc_cache_entry_free), or false
 * when there is none or it is damaged: never an error, a miss. */
bool cc_cache_load(const struct cc_cache_key *key, struct cc_cache_entry *entry);
void cc_cache_entry_free(struct cc_cache_entry *entry);
/* Writes the entry of `key` (whose parts the caller keeps), replacing any
 * other atomically; failures are silent (the next build compiles again). */
void cc_cache_store(const struct cc_cache_key *key, const struct cc_cache_entry *entry);
/* The key of part `index`'s code in the program of `program`, or of a
 * launch's copy of it (`variant`: the launch's facts). */
void cc_cache_code_key(const struct cc_cache_key *program, unsigned index, const void *variant,
                       size_t variant_size, struct cc_cache_key *key);
/* The machine code of part `index` of the program of `key`, compiled at
 * the part's first use (codegen.c), in an entry of its own: the object
 * file (malloc'd) and two words, the kernel's private memory and stack
 * sizes (a launch copy keeps its band in the first). `variant` (NULL for
 * the part itself) names a launch's copy: its facts' bytes. Same rules. */
bool cc_cache_load_code(const struct cc_cache_key *key, unsigned index, const void *variant,
                        size_t variant_size, void **object, size_t *object_size,
                        size_t *private_mem_size, size_t *stack_size);
void cc_cache_store_code(const struct cc_cache_key *key, unsigned index, const void *variant,
                         size_t variant_size, const void *object, size_t object_size,
                         size_t private_mem_size, size_t stack_size);

/* build.c and codegen.c: a built program. Its kernels' code is made per
 * part at the first use (a launch, a query of the private memory size):
 * parts[i] is kernels[i]'s, parts[num_kernels] the shared globals', which
 * every build loads at once, as it does the block kernels' (device-side
 * enqueue finds them from running kernels). */
struct cc_part {
    void *bitcode; /* before optimisation; NULL for an absent shared part */
    size_t bitcode_size;
    bool loaded;   /* its code is in the JIT */
};
struct cc_program {
    struct cc_kernel_info *kernels;
    unsigned num_kernels;
    void *tracker;      /* the JIT's resource tracker of this program's code */
    void *bitcode;      /* the whole program before built-ins: its binary */
    size_t bitcode_size;
    size_t global_variable_size; /* program-scope __global variables, bytes */
    struct cc_part *parts;
    struct cc_launch_copies *copies; /* per kernel, made at the first need (codegen.c) */
    unsigned num_shared;
    bool opt_disable;
    bool cacheable;     /* key names the program's entry in the kernel cache */
    struct cc_cache_key key;
    unsigned long serial; /* the number that replaces CC_SERIAL_PLACEHOLDER */
    pthread_mutex_t lock; /* making a part's code */
};
/* build.c: a number no other program or launch copy of this process has,
 * for the names of their work-group functions in the JIT. */
unsigned long cc_new_serial(void);
/* codegen.c: frees what the launches' copies need (their code goes with
 * the program's tracker). */
void cc_free_launch_copies(struct cc_program *program);
/* background.c: drops the program's copies waiting for the background
 * compiler and waits for the one it compiles, if the program's; first
 * thing of a program's release. */
void cc_cancel_launch_copies(const struct cc_program *program);
/* background.c: gives a launch copy (codegen.c) to the background
 * compiler, which calls cc_compile_launch_copy; false when it cannot take
 * it (no memory, no thread, the process exiting). Under the program's
 * lock. */
struct cc_launch_copy;
bool cc_compile_in_background(struct cc_program *program, unsigned index,
                              struct cc_launch_copy *copy);
/* codegen.c: compiles and loads the copy, taking the program's lock to
 * load it; the background compiler's work. */
void cc_compile_launch_copy(struct cc_program *program, unsigned index,
                            struct cc_launch_copy *copy);
/* codegen.c: the background compiler dropped the copy before compiling it
 * (a forked child's queue): a later launch asks for it again. */
void cc_launch_copy_dropped(struct cc_launch_copy *copy);
/* codegen.c: the code of part `index`, from the kernel cache or compiled
 * now, loaded into the JIT (kernels[index].wg set). Safe from any thread. */
cl_int cc_program_load_part(struct cc_program *program, unsigned index, struct cc_log *log);
/* Loads what every build loads at once: the shared globals and the block kernels. */
cl_int cc_program_load_eager_parts(struct cc_program *program, struct cc_log *log);
/* The declarations left in a module that nothing defines and that code
 * calls (with roots: code the roots call): each one is an error in the log
 * (a built-in cpucl lacks, or a function the program declares but never
 * defines). */
cl_int cc_check_undefined(LLVMModuleRef module, LLVMValueRef *roots, size_t num_roots,
                          struct cc_log *log);

/* log.c: debugging aids (build.c, codegen.c) and LLVM diagnostics into the log. */
void cc_dump(LLVMModuleRef module, const char *stage, bool final_stage);
/* CPUCL_BUILD_TIMES=1: how long each step of a build, or of a kernel's
 * code, took, printed as one line "cpucl: <what> (ms): step ms ...". */
struct cc_timer {
    bool on;
    struct timespec last;
    char text[512];
    size_t length;
};
void cc_timer_start(struct cc_timer *t);
void cc_timer_step(struct cc_timer *t, const char *step);
void cc_timer_report(const struct cc_timer *t, const char *what);
struct cc_diagnostics {
    struct cc_log *log;
    bool error;
};
void cc_diagnostic_handler(LLVMDiagnosticInfoRef info, void *context);

/* The spir_kernel calling convention (COMPILER-NOTES 1). */
#define CC_SPIR_KERNEL_CC 76

#endif
