/* build.c - cc_build: the compiler pipeline from source to JITed
 * work-group functions, and the program object the runtime keeps.
 *
 *   options -> Clang (frontend.cpp) -> link built-ins (library.c)
 *   -> kernel table (metadata.c) -> work-group functions (workgroup.c)
 *   -> verify -> one part per work-group function (parts.cpp)
 *   ... at a kernel's first use: O3 for the host -> object file -> JIT
 *   (codegen.c, jit.c)
 *
 * A build from source first looks in the kernel cache (cache.c) for the
 * parts and the rest of the program, and stores them after a build.
 *
 * Every build has its own LLVMContext and TargetMachine, so builds on
 * different threads share only the JIT. Errors never abort: LLVM's
 * diagnostics go to the build log through the context's handler (whose
 * default would exit the process on an error).
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <llvm-c/Analysis.h>
#include <llvm-c/BitReader.h>
#include <llvm-c/BitWriter.h>
#include <llvm-c/Linker.h>

#include "compiler/frontend.h"
#include "compiler/internal.h"
#include "compiler/parts.h"

#ifndef CPUCL_CLANG_RESOURCE_INCLUDE
#error "CPUCL_CLANG_RESOURCE_INCLUDE must name clang's resource include directory"
#endif

/* CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE: the program's own variables
 * in the global address space (COMPILER-NOTES 5), before the built-ins. */
static size_t global_variable_size(LLVMModuleRef module)
{
    LLVMTargetDataRef layout = LLVMGetModuleDataLayout(module);
    size_t total = 0;
    for (LLVMValueRef g = LLVMGetFirstGlobal(module); g; g = LLVMGetNextGlobal(g)) {
        if (LLVMIsDeclaration(g) || LLVMGetPointerAddressSpace(LLVMTypeOf(g)) != 1)
            continue;
        total += LLVMABISizeOfType(layout, LLVMGlobalGetValueType(g));
    }
    return total;
}

/* Keeps a copy of the module as bitcode: what CL_PROGRAM_BINARIES returns
 * and cc_link can build again. */
static cl_int keep_bitcode(LLVMModuleRef module, void **bitcode, size_t *size)
{
    LLVMMemoryBufferRef buffer = LLVMWriteBitcodeToMemoryBuffer(module);
    size_t length = buffer ? LLVMGetBufferSize(buffer) : 0;
    *bitcode = length ? malloc(length) : NULL;
    if (*bitcode)
        memcpy(*bitcode, LLVMGetBufferStart(buffer), length);
    *size = *bitcode ? length : 0;
    if (buffer)
        LLVMDisposeMemoryBuffer(buffer);
    return *bitcode ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY;
}

/* The device's extensions whose macros opencl-c-base.h defines for SPIR
 * targets only (their functions are declared under them, in both header
 * modes): each is in device_extensions and -D'd at every compile. All are
 * built-in functions: src/builtins/workgroup.cl (sub-groups) and
 * integer.cl (bit operations, dot products), clock.cl (kernel clocks),
 * atomic.cl (floating-point atomics), async.cl (2D and 3D async copies,
 * declared by the prelude below, as Clang 19 does not), but cl_khr_expect_assume's
 * __builtin_expect and __builtin_assume, which are Clang's (from SPIR-V,
 * the translator's llvm.expect and llvm.assume). */
#define HEADER_EXTENSIONS(X)                                                                       \
    X(cl_ext_float_atomics)                                                                        \
    X(cl_khr_expect_assume)                                                                        \
    X(cl_khr_extended_async_copies)                                                                \
    X(cl_khr_extended_bit_ops)                                                                     \
    X(cl_khr_integer_dot_product)                                                                  \
    X(cl_khr_kernel_clock)                                                                         \
    X(cl_khr_subgroup_extended_types)                                                              \
    X(cl_khr_subgroup_non_uniform_vote)                                                            \
    X(cl_khr_subgroup_ballot)                                                                      \
    X(cl_khr_subgroup_non_uniform_arithmetic)                                                      \
    X(cl_khr_subgroup_shuffle)                                                                     \
    X(cl_khr_subgroup_shuffle_relative)                                                            \
    X(cl_khr_subgroup_clustered_reduce)                                                            \
    X(cl_khr_subgroup_rotate)
/* Extensions whose built-ins work and whose macros are defined, but which
 * the device does not report: the CTS's compiler_defines_for_extensions
 * fails a device naming a cl_khr_ extension missing from its approved
 * list, and cl_khr_async_work_group_copy_fence (async.cl, declared by the
 * prelude) is missing there although test_basic tests it (its six tests
 * pass when it is reported). */
#define UNREPORTED_EXTENSIONS(X) X(cl_khr_async_work_group_copy_fence)
/* Extensions Clang 19 does not know: the macro is -D'd. What
 * cl_khr_gl_depth_images adds to OpenCL C is the depth-stencil format
 * (CLK_DEPTH_STENCIL, CLK_UNORM_INT24, in opencl-c-base.h already) of
 * images made from GL textures (src/builtins/image.cl reads it). */
#define UNKNOWN_TO_CLANG_EXTENSIONS(X) X(cl_khr_gl_depth_images)
#define EXTENSION_NAME(name) " " #name
#define EXTENSION_MACRO(name) "-D" #name "=1",

/* The device's OpenCL C extensions: CL_DEVICE_EXTENSIONS and the -cl-ext
 * list of every compile come from this one string. */
static const char device_extensions[] =
    "cl_khr_byte_addressable_store cl_khr_global_int32_base_atomics "
    "cl_khr_global_int32_extended_atomics cl_khr_local_int32_base_atomics "
    "cl_khr_local_int32_extended_atomics cl_khr_int64_base_atomics "
    "cl_khr_int64_extended_atomics cl_khr_fp64 cl_khr_subgroups cl_khr_3d_image_writes "
    "cl_khr_depth_images cl_khr_image2d_from_buffer cl_khr_srgb_image_writes "
    "cl_khr_mipmap_image cl_khr_mipmap_image_writes cl_khr_gl_msaa_sharing "
    "cl_khr_fp16" HEADER_EXTENSIONS(EXTENSION_NAME) UNKNOWN_TO_CLANG_EXTENSIONS(EXTENSION_NAME);

const char *cc_device_extensions(void)
{
    return device_extensions;
}

/* Included before every program's source (cc_frontend_compile): the
 * built-ins of the device's extensions that Clang 19's headers do not
 * declare, each defined in the library (src/builtins/). */
static const char prelude[] =
    "#ifdef cl_khr_extended_async_copies\n"
    "#define CPUCL_OVL __attribute__((overloadable))\n"
    "event_t CPUCL_OVL async_work_group_copy_2D2D(__local void *, size_t, const __global void *,\n"
    "    size_t, size_t, size_t, size_t, size_t, size_t, event_t);\n"
    "event_t CPUCL_OVL async_work_group_copy_2D2D(__global void *, size_t, const __local void *,\n"
    "    size_t, size_t, size_t, size_t, size_t, size_t, event_t);\n"
    "event_t CPUCL_OVL async_work_group_copy_3D3D(__local void *, size_t, const __global void *,\n"
    "    size_t, size_t, size_t, size_t, size_t, size_t, size_t, size_t, size_t, event_t);\n"
    "event_t CPUCL_OVL async_work_group_copy_3D3D(__global void *, size_t, const __local void *,\n"
    "    size_t, size_t, size_t, size_t, size_t, size_t, size_t, size_t, size_t, event_t);\n"
    "#undef CPUCL_OVL\n"
    "#endif\n"
    "#ifdef cl_khr_async_work_group_copy_fence\n"
    "void __attribute__((overloadable)) async_work_group_copy_fence(cl_mem_fence_flags);\n"
    "#endif\n";

/* --- the pipeline --- */

/* cc1 arguments: the fixed ones of COMPILER-NOTES 1, then the user's. */
static const char **clang_arguments(const struct cc_options *options, const struct cc_host *host,
                                    char *cl_std, char *cl_ext, unsigned *count)
{
    static const char *const fixed[] = {
        "-triple", NULL, "-target-cpu", NULL, "-ffake-address-space-map",
        "-faddress-space-map-mangling=yes", "-internal-isystem", CPUCL_CLANG_RESOURCE_INCLUDE,
        "-finclude-default-header", "-fdeclare-opencl-builtins",
        /* -O2 without LLVM passes: unoptimised IR without optnone/noinline,
         * with TBAA; the pipeline below optimises after forming the loops. */
        "-O2", "-disable-llvm-passes",
        /* kernels and library share one vector ABI by construction (jit.c),
         * so clang's warning about ABI changes is noise */
        "-Wno-psabi",
        /* 6.10 of OpenCL C 2.0: macros the device defines that clang does
         * not for an x86 triple. The device is OpenCL 2.2; every x86-64
         * host cpucl runs on with AVX2 or later has fast fma. */
        "-D__OPENCL_VERSION__=220", "-DCL_VERSION_2_1=210", "-DCL_VERSION_2_2=220",
        "-D__IMAGE_SUPPORT__=1",
        HEADER_EXTENSIONS(EXTENSION_MACRO) UNREPORTED_EXTENSIONS(EXTENSION_MACRO)
            UNKNOWN_TO_CLANG_EXTENSIONS(EXTENSION_MACRO)
        /* cl_khr_integer_dot_product 2.0.0's features (the OpenCL C 3.0
         * names its functions are declared under) */
        "-D__opencl_c_integer_dot_product_input_4x8bit=1",
        "-D__opencl_c_integer_dot_product_input_4x8bit_packed=1",
        /* cl_khr_kernel_clock's scopes (CL_DEVICE_KERNEL_CLOCK_CAPABILITIES_KHR) */
        "-D__opencl_c_kernel_clock_scope_device=1", "-D__opencl_c_kernel_clock_scope_work_group=1",
        "-D__opencl_c_kernel_clock_scope_sub_group=1",
        /* cl_ext_float_atomics' features: every operation on every type in
         * global and local memory (CL_DEVICE_*_FP_ATOMIC_CAPABILITIES_EXT) */
        "-D__opencl_c_ext_fp16_global_atomic_load_store=1",
        "-D__opencl_c_ext_fp16_local_atomic_load_store=1",
        "-D__opencl_c_ext_fp16_global_atomic_add=1", "-D__opencl_c_ext_fp16_local_atomic_add=1",
        "-D__opencl_c_ext_fp32_global_atomic_add=1", "-D__opencl_c_ext_fp32_local_atomic_add=1",
        "-D__opencl_c_ext_fp64_global_atomic_add=1", "-D__opencl_c_ext_fp64_local_atomic_add=1",
        "-D__opencl_c_ext_fp16_global_atomic_min_max=1",
        "-D__opencl_c_ext_fp16_local_atomic_min_max=1",
        "-D__opencl_c_ext_fp32_global_atomic_min_max=1",
        "-D__opencl_c_ext_fp32_local_atomic_min_max=1",
        "-D__opencl_c_ext_fp64_global_atomic_min_max=1",
        "-D__opencl_c_ext_fp64_local_atomic_min_max=1"};
    size_t n_fixed = sizeof fixed / sizeof fixed[0];
    const char **args = malloc((n_fixed + 3 + options->num_clang_args) * sizeof *args);
    if (!args)
        return NULL;
    unsigned n = 0;
    for (size_t i = 0; i < n_fixed; i++)
        args[n++] = fixed[i];
    args[1] = host->triple;
    args[3] = host->abi_cpu;
    if (options->cxx)
        snprintf(cl_std, 24, "-cl-std=CLC++1.0");
    else
        snprintf(cl_std, 24, "-cl-std=CL%d.%d", options->cl_std / 100, options->cl_std / 10 % 10);
    args[n++] = cl_std;
    args[n++] = cl_ext;
    /* value names cost memory and time; keep them only for IR dumps */
    const char *dump = getenv("CPUCL_DUMP_IR");
    if (!dump || !*dump || !strcmp(dump, "0"))
        args[n++] = "-discard-value-names";
    for (unsigned i = 0; i < options->num_clang_args; i++)
        args[n++] = options->clang_args[i];
    *count = n;
    return args;
}

/* "-cl-ext=-all,+ext1,+ext2,...": the front end knows exactly the device's
 * extensions and defines their macros. */
static char *cl_ext_argument(void)
{
    size_t length = strlen("-cl-ext=-all") + 2 * strlen(device_extensions) + 1;
    char *arg = malloc(length);
    if (!arg)
        return NULL;
    strcpy(arg, "-cl-ext=-all");
    char *end = arg + strlen(arg);
    for (const char *p = device_extensions; *p;) {
        const char *space = strchr(p, ' ');
        size_t n = space ? (size_t)(space - p) : strlen(p);
        *end++ = ',';
        *end++ = '+';
        memcpy(end, p, n);
        end += n;
        p += n + (space ? 1 : 0);
    }
    *end = 0;
    return arg;
}

/* Source to an unoptimised module in `context`, with the host's triple and
 * data layout: the front half of every build and all of clCompileProgram.
 * `include_dir` (may be NULL) is searched for headers before -I paths. */
static cl_int front(const char *source, const struct cc_options *options, const char *include_dir,
                    LLVMContextRef context, struct cc_log *log, LLVMModuleRef *out)
{
    const struct cc_host *host = cc_host();
    *out = NULL;
    if (!host) {
        cc_log_printf(log, "error: LLVM has no usable native target in this process\n");
        return CL_BUILD_PROGRAM_FAILURE;
    }
    char cl_std[24];
    char *cl_ext = cl_ext_argument();
    unsigned num_args = 0;
    const char **args = cl_ext ? clang_arguments(options, host, cl_std, cl_ext, &num_args) : NULL;
    const char **all = args ? malloc((num_args + 2) * sizeof *all) : NULL;
    if (!all) {
        free(args);
        free(cl_ext);
        return CL_OUT_OF_HOST_MEMORY;
    }
    unsigned n = 0;
    if (include_dir) {
        all[n++] = "-I";
        all[n++] = include_dir;
    }
    memcpy(all + n, args, num_args * sizeof *all);
    n += num_args;

    cl_int err = CL_SUCCESS;
    LLVMModuleRef module = NULL;
    char *clang_text = NULL;
    int status =
        cc_frontend_compile(context, source, strlen(source), prelude, all, n, &module, &clang_text);
    if (clang_text)
        cc_log_append(log, clang_text, strlen(clang_text));
    free(clang_text);
    if (status == -2) {
        cc_log_printf(log, "error: internal: clang rejected the compiler's arguments\n");
        err = CL_BUILD_PROGRAM_FAILURE;
    } else if (status || !module) {
        err = CL_BUILD_PROGRAM_FAILURE;
    } else {
        LLVMSetTarget(module, host->triple);
        LLVMSetDataLayout(module, host->data_layout);
        cc_dump(module, "front end", false);
    }
    if (err && module) {
        LLVMDisposeModule(module);
        module = NULL;
    }
    free(all);
    free(args);
    free(cl_ext);
    *out = module;
    return err;
}

/* The work-group functions of a program's module as parts: the names of
 * the roots, in the kernel table's order. */
static cl_int split(LLVMModuleRef module, struct cc_program *program)
{
    unsigned n = program->num_kernels;
    char **roots = calloc(n ? n : 1, sizeof *roots);
    void **bitcodes = calloc(n + 1, sizeof *bitcodes);
    size_t *sizes = calloc(n + 1, sizeof *sizes);
    program->parts = calloc(n + 1, sizeof *program->parts);
    cl_int err = roots && bitcodes && sizes && program->parts ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY;
    for (unsigned i = 0; i < n && !err; i++)
        if (!(roots[i] = cc_wg_function_name(program->kernels[i].name)))
            err = CL_OUT_OF_HOST_MEMORY;
    if (!err && !cc_split_module(module, (const char *const *)roots, n, bitcodes, sizes,
                                 &program->num_shared))
        err = CL_OUT_OF_HOST_MEMORY;
    for (unsigned i = 0; i <= n && !err; i++) {
        program->parts[i].bitcode = bitcodes[i];
        program->parts[i].bitcode_size = sizes[i];
    }
    for (unsigned i = 0; roots && i < n; i++)
        free(roots[i]);
    free(roots);
    free(bitcodes);
    free(sizes);
    return err;
}

/* Before the split: no work-group function may call what nothing defines. */
static cl_int check_called(LLVMModuleRef module, const struct cc_program *program,
                           struct cc_log *log)
{
    unsigned n = program->num_kernels;
    LLVMValueRef *roots = calloc(n ? n : 1, sizeof *roots);
    if (!roots)
        return CL_OUT_OF_HOST_MEMORY;
    size_t count = 0;
    for (unsigned i = 0; i < n; i++) {
        char *name = cc_wg_function_name(program->kernels[i].name);
        LLVMValueRef fn = name ? LLVMGetNamedFunction(module, name) : NULL;
        if (fn)
            roots[count++] = fn;
        free(name);
    }
    cl_int err = cc_check_undefined(module, roots, count, log);
    free(roots);
    return err;
}

/* Drops the functions no kernel reaches. A program's source often holds
 * many more functions than its kernels call (an application's shared
 * headers: hashcat's SHA-512 program, its built-ins linked, before inlining
 * was 270,000 instructions in 213 functions; its six kernels, inlined, are
 * 25,000), and everything after this point (built-ins linked for their
 * calls, inlining every call, SROA) worked on each of them: 94 s to build
 * it, 1.3 s now. Only function definitions other than kernels (block
 * kernels included, which are spir_kernel too) become internal; variables
 * of the program scope stay, whether used or not. */
static cl_int drop_unreached(LLVMModuleRef module, LLVMTargetMachineRef machine, struct cc_log *log)
{
    for (LLVMValueRef fn = LLVMGetFirstFunction(module); fn; fn = LLVMGetNextFunction(fn)) {
        if (LLVMIsDeclaration(fn) || LLVMGetFunctionCallConv(fn) == CC_SPIR_KERNEL_CC)
            continue;
        LLVMSetLinkage(fn, LLVMInternalLinkage);
        LLVMSetVisibility(fn, LLVMDefaultVisibility);
    }
    return cc_run_passes(module, "globaldce", machine, log);
}

/* A whole program's module to its parts: built-ins, kernel table,
 * work-group functions, the check that everything called is defined; the
 * parts' code is made by codegen.c. Takes the module. */
static cl_int back(LLVMModuleRef module, const struct cc_options *options, struct cc_log *log,
                   struct cc_program *program, struct cc_timer *timer)
{
    cl_int err = CL_SUCCESS;
    LLVMTargetMachineRef machine = cc_target_machine(!options->opt_disable);
    if (!machine) {
        err = CL_OUT_OF_HOST_MEMORY;
        goto out;
    }
    program->opt_disable = options->opt_disable;
    program->global_variable_size = global_variable_size(module);
    if ((err = drop_unreached(module, machine, log)))
        goto out;
    cc_lower_fences(module);
    if ((err = cc_link_builtins(module, log)))
        goto out;
    if ((err = cc_lower_printf(module, log)))
        goto out;
    if ((err = cc_guard_division(module)))
        goto out;
    if ((err = cc_lower_double_to_half(module)))
        goto out;
    cc_timer_step(timer, "link");
    cc_name_block_kernels(module);
    if ((err = cc_read_kernels(module, options->kernel_arg_info, &program->kernels,
                               &program->num_kernels, log)))
        goto out;
    if ((err = cc_make_workgroup_functions(module, program->kernels, program->num_kernels, machine,
                                           log)))
        goto out;
    cc_timer_step(timer, "workgroup");
    cc_dump(module, "work-group functions", false);

    char *message = NULL;
    if (LLVMVerifyModule(module, LLVMReturnStatusAction, &message)) {
        cc_log_printf(log, "error: internal: invalid IR before optimisation: %s\n", message);
        LLVMDisposeMessage(message);
        err = CL_BUILD_PROGRAM_FAILURE;
        goto out;
    }
    LLVMDisposeMessage(message);
    if ((err = check_called(module, program, log)))
        goto out;
    cc_timer_step(timer, "verify");
    err = split(module, program);
    cc_timer_step(timer, "split");
out:
    LLVMDisposeModule(module);
    if (machine)
        LLVMDisposeTargetMachine(machine);
    return err;
}

/* A build from the kernel cache: the entry's parts become the program's.
 * CL_SUCCESS, or a miss (any other code; the program is left as it was and
 * the log untouched). */
static cl_int load_cached(const struct cc_cache_key *key, struct cc_program *program,
                          struct cc_log *log)
{
    struct cc_cache_entry entry;
    if (!cc_cache_load(key, &entry))
        return CL_BUILD_PROGRAM_FAILURE;
    unsigned n = entry.num_kernels;
    struct cc_part *parts = calloc(n + 1, sizeof *parts);
    if (!parts) {
        cc_cache_entry_free(&entry);
        return CL_BUILD_PROGRAM_FAILURE;
    }
    for (unsigned i = 0; i <= n; i++) {
        parts[i].bitcode = entry.part_sizes[i] ? entry.parts[i] : NULL;
        parts[i].bitcode_size = entry.part_sizes[i];
        if (!parts[i].bitcode)
            free(entry.parts[i]);
        entry.parts[i] = NULL;
    }
    program->kernels = entry.kernels;
    program->num_kernels = n;
    program->parts = parts;
    program->num_shared = entry.num_shared;
    program->opt_disable = entry.opt_disable;
    program->bitcode = entry.bitcode;
    program->bitcode_size = entry.bitcode_size;
    program->global_variable_size = entry.global_variable_size;
    cc_log_append(log, entry.log, entry.log_length);
    entry.kernels = NULL;
    entry.num_kernels = 0;
    entry.bitcode = NULL;
    cc_cache_entry_free(&entry);
    return CL_SUCCESS;
}

static void store_cached(const struct cc_cache_key *key, const struct cc_program *program,
                         const struct cc_log *log)
{
    unsigned n = program->num_kernels;
    void **parts = calloc(n + 1, sizeof *parts);
    size_t *sizes = calloc(n + 1, sizeof *sizes);
    if (!parts || !sizes)
        goto out;
    for (unsigned i = 0; i <= n; i++) {
        parts[i] = program->parts[i].bitcode;
        sizes[i] = program->parts[i].bitcode_size;
    }
    struct cc_cache_entry entry = {
        .log = log->text,
        .log_length = log->length,
        .bitcode = program->bitcode,
        .bitcode_size = program->bitcode_size,
        .global_variable_size = program->global_variable_size,
        .kernels = program->kernels,
        .num_kernels = n,
        .parts = parts,
        .part_sizes = sizes,
        .num_shared = program->num_shared,
        .opt_disable = program->opt_disable,
    };
    cc_cache_store(key, &entry);
out:
    free(parts);
    free(sizes);
}

unsigned long cc_new_serial(void)
{
    static atomic_ulong serial;
    return atomic_fetch_add(&serial, 1) + 1;
}

/* A new, empty program: its serial number, its lock. */
static struct cc_program *new_program(void)
{
    struct cc_program *program = calloc(1, sizeof *program);
    if (!program)
        return NULL;
    program->serial = cc_new_serial();
    pthread_mutex_init(&program->lock, NULL);
    return program;
}

static cl_int build(const char *source, const char *options_text, const struct cc_options *options,
                    struct cc_log *log, struct cc_program *program)
{
    struct cc_timer timer;
    cc_timer_start(&timer);
    program->cacheable = cc_cache_key(source, options_text, &program->key);
    if (program->cacheable && load_cached(&program->key, program, log) == CL_SUCCESS) {
        cc_timer_step(&timer, "from cache");
        struct cc_log scratch = {0}; /* a failure to load says nothing the application reads */
        cl_int err = cc_program_load_eager_parts(program, &scratch);
        free(scratch.text);
        cc_timer_step(&timer, "load");
        cc_timer_report(&timer, "build times");
        return err;
    }
    if (program->cacheable)
        cc_timer_step(&timer, "cache miss");
    LLVMContextRef context = LLVMContextCreate();
    if (!context)
        return CL_OUT_OF_HOST_MEMORY;
    struct cc_diagnostics diagnostics = {log, false};
    LLVMContextSetDiagnosticHandler(context, cc_diagnostic_handler, &diagnostics);
    LLVMModuleRef module;
    cl_int err = front(source, options, NULL, context, log, &module);
    cc_timer_step(&timer, "frontend");
    if (!err && (err = keep_bitcode(module, &program->bitcode, &program->bitcode_size)))
        LLVMDisposeModule(module);
    if (!err)
        err = back(module, options, log, program, &timer);
    if (!err && diagnostics.error)
        err = CL_BUILD_PROGRAM_FAILURE;
    if (!err && program->cacheable && !log->failed) {
        store_cached(&program->key, program, log);
        cc_timer_step(&timer, "cache store");
    }
    if (!err)
        err = cc_program_load_eager_parts(program, log);
    cc_timer_step(&timer, "load");
    cc_timer_report(&timer, "build times");
    LLVMContextDispose(context);
    return err;
}

cl_int cc_check_options(const char *options_text, char **log_out)
{
    struct cc_log log = {0};
    struct cc_options options;
    cl_int err = cc_options_parse(options_text, &options, &log);
    if (!err)
        cc_options_free(&options);
    if (!log.text && !(log.text = calloc(1, 1)))
        err = CL_OUT_OF_HOST_MEMORY;
    *log_out = log.text;
    return err;
}

cl_int cc_build(const char *source, const char *options_text, char **log_out,
                struct cc_program **out)
{
    struct cc_log log = {0};
    struct cc_options options;
    struct cc_program *program = NULL;
    *out = NULL;
    cl_int err = cc_options_parse(options_text, &options, &log);
    if (!err) {
        program = new_program();
        err = program ? build(source ? source : "", options_text ? options_text : "", &options,
                              &log, program)
                      : CL_OUT_OF_HOST_MEMORY;
        cc_options_free(&options);
    }
    if (log.failed && !err)
        err = CL_OUT_OF_HOST_MEMORY;
    if (err) {
        cc_program_free(program);
        program = NULL;
    }
    if (!log.text && !(log.text = calloc(1, 1))) {
        cc_program_free(program);
        program = NULL;
        err = CL_OUT_OF_HOST_MEMORY;
    }
    *log_out = log.text;
    *out = program;
    return err;
}

/* --- separate compilation (API spec 5.8.3-5.8.5) --- */

/* Writes the embedded headers of clCompileProgram into a fresh folder, by
 * their include names, so Clang finds them as files. */
static char *write_headers(unsigned count, const char *const *names, const char *const *sources,
                           struct cc_log *log)
{
    char pattern[] = "/tmp/cpucl-headers-XXXXXX";
    if (!mkdtemp(pattern)) {
        cc_log_printf(log, "error: cannot create a folder for the embedded headers\n");
        return NULL;
    }
    char *dir = strdup(pattern);
    for (unsigned i = 0; dir && i < count; i++) {
        size_t length = strlen(dir) + strlen(names[i]) + 2;
        char *path = malloc(length);
        if (!path)
            break;
        snprintf(path, length, "%s/%s", dir, names[i]);
        /* Create the folders of names such as "lib/util.h". */
        for (char *slash = path + strlen(dir) + 1; (slash = strchr(slash, '/')); slash++) {
            *slash = 0;
            mkdir(path, 0700);
            *slash = '/';
        }
        FILE *file = fopen(path, "w");
        if (file) {
            fputs(sources[i], file);
            fclose(file);
        } else {
            cc_log_printf(log, "warning: cannot write embedded header '%s'\n", names[i]);
        }
        free(path);
    }
    return dir;
}

static void remove_tree(const char *dir)
{
    size_t length = strlen(dir) + 32;
    char *command = malloc(length);
    if (!command)
        return;
    /* The folder is ours (mkdtemp); nftw would do the same in more lines. */
    snprintf(command, length, "rm -rf '%s'", dir);
    if (system(command) != 0)
        fprintf(stderr, "cpucl: could not remove %s\n", dir);
    free(command);
}

cl_int cc_compile(const char *source, const char *options_text, unsigned num_headers,
                  const char *const *header_names, const char *const *header_sources,
                  char **log_out, void **bitcode, size_t *bitcode_size)
{
    struct cc_log log = {0};
    struct cc_options options;
    *bitcode = NULL;
    *bitcode_size = 0;
    cl_int err = cc_options_parse(options_text, &options, &log);
    LLVMContextRef context = NULL;
    char *dir = NULL;
    if (err)
        goto out;
    if (num_headers && !(dir = write_headers(num_headers, header_names, header_sources, &log))) {
        err = CL_COMPILE_PROGRAM_FAILURE;
        goto out_options;
    }
    context = LLVMContextCreate();
    struct cc_diagnostics diagnostics = {&log, false};
    LLVMContextSetDiagnosticHandler(context, cc_diagnostic_handler, &diagnostics);
    LLVMModuleRef module;
    err = front(source ? source : "", &options, dir, context, &log, &module);
    if (!err) {
        err = keep_bitcode(module, bitcode, bitcode_size);
        LLVMDisposeModule(module);
    } else if (err == CL_BUILD_PROGRAM_FAILURE) {
        err = CL_COMPILE_PROGRAM_FAILURE;
    }
    LLVMContextDispose(context);
    if (dir) {
        remove_tree(dir);
        free(dir);
    }
out_options:
    cc_options_free(&options);
out:
    if (log.failed && !err)
        err = CL_OUT_OF_HOST_MEMORY;
    *log_out = log.text ? log.text : calloc(1, 1);
    return err;
}

/* 5.8.5: the options clLinkProgram takes. The math options matter at
 * compile time, where they were given, so here they are only accepted. */
static cl_int check_link_options(const char *text, bool *create_library, struct cc_log *log)
{
    static const char *const known[] = {
        "-create-library", "-enable-link-options", "-cl-denorms-are-zero",
        "-cl-no-signed-zeros", "-cl-unsafe-math-optimizations", "-cl-finite-math-only",
        "-cl-fast-relaxed-math", "-cl-no-subgroup-ifp"};
    *create_library = false;
    const char *p = text ? text : "";
    while (*p) {
        while (*p == ' ' || *p == '\t' || *p == '\n')
            p++;
        size_t length = strcspn(p, " \t\n");
        if (!length)
            break;
        bool found = false;
        for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
            if (strlen(known[i]) == length && !strncmp(p, known[i], length))
                found = true;
        if (!found) {
            cc_log_printf(log, "error: unknown link option '%.*s'\n", (int)length, p);
            return CL_INVALID_LINKER_OPTIONS;
        }
        if (length == 15 && !strncmp(p, "-create-library", 15))
            *create_library = true;
        p += length;
    }
    return CL_SUCCESS;
}

cl_int cc_link(unsigned count, const void *const *bitcodes, const size_t *sizes,
               const char *options_text, char **log_out, struct cc_program **program_out,
               void **library, size_t *library_size)
{
    struct cc_log log = {0};
    struct cc_timer timer;
    bool create_library;
    struct cc_program *program = NULL;
    LLVMContextRef context = NULL;
    LLVMModuleRef linked = NULL;
    *program_out = NULL;
    *library = NULL;
    *library_size = 0;
    cc_timer_start(&timer);
    cl_int err = check_link_options(options_text, &create_library, &log);
    if (err)
        goto out;
    /* An executable from the same objects (clLinkProgram, a binary, a
     * SPIR-V module's translation) comes from the cache like a source
     * build. */
    struct cc_cache_key key;
    bool cacheable = !create_library && cc_cache_key_inputs("link", options_text, count, bitcodes,
                                                            sizes, &key);
    if (!create_library && !(program = new_program())) {
        err = CL_OUT_OF_HOST_MEMORY;
        goto out;
    }
    if (cacheable) {
        program->cacheable = true;
        program->key = key;
        if (load_cached(&key, program, &log) == CL_SUCCESS) {
            cc_timer_step(&timer, "from cache");
            struct cc_log scratch = {0};
            err = cc_program_load_eager_parts(program, &scratch);
            free(scratch.text);
            goto out;
        }
        cc_timer_step(&timer, "cache miss");
    }
    context = LLVMContextCreate();
    struct cc_diagnostics diagnostics = {&log, false};
    LLVMContextSetDiagnosticHandler(context, cc_diagnostic_handler, &diagnostics);
    for (unsigned i = 0; i < count && !err; i++) {
        LLVMMemoryBufferRef buffer =
            LLVMCreateMemoryBufferWithMemoryRangeCopy(bitcodes[i], sizes[i], "object");
        LLVMModuleRef module = NULL;
        if (!buffer || LLVMParseBitcodeInContext2(context, buffer, &module)) {
            cc_log_printf(&log, "error: input %u is not a cpucl object\n", i);
            err = CL_INVALID_BINARY;
        } else if (!linked) {
            linked = module;
        } else if (LLVMLinkModules2(linked, module)) {
            cc_log_printf(&log, "error: linking input %u failed (see messages above)\n", i);
            err = CL_LINK_PROGRAM_FAILURE;
        }
        if (buffer)
            LLVMDisposeMemoryBuffer(buffer);
    }
    if (!err && diagnostics.error)
        err = CL_LINK_PROGRAM_FAILURE;
    if (err || !linked)
        goto out;
    cc_timer_step(&timer, "link objects");
    if (create_library) {
        err = keep_bitcode(linked, library, library_size);
        LLVMDisposeModule(linked);
        goto out;
    }
    /* Argument names are in the objects' metadata exactly when they were
     * compiled with -cl-kernel-arg-info. */
    struct cc_options options = {.kernel_arg_info = true};
    if ((err = keep_bitcode(linked, &program->bitcode, &program->bitcode_size))) {
        LLVMDisposeModule(linked);
        goto out;
    }
    err = back(linked, &options, &log, program, &timer);
    if (!err && diagnostics.error)
        err = CL_LINK_PROGRAM_FAILURE;
    if (!err && cacheable && !log.failed) {
        store_cached(&key, program, &log);
        cc_timer_step(&timer, "cache store");
    }
    if (!err)
        err = cc_program_load_eager_parts(program, &log);
    cc_timer_step(&timer, "load");
    if (err == CL_BUILD_PROGRAM_FAILURE)
        err = CL_LINK_PROGRAM_FAILURE;
out:
    cc_timer_report(&timer, "build times");
    if (context)
        LLVMContextDispose(context);
    if (log.failed && !err)
        err = CL_OUT_OF_HOST_MEMORY;
    if (err) {
        cc_program_free(program);
        program = NULL;
        free(*library);
        *library = NULL;
        *library_size = 0;
    }
    *program_out = program;
    *log_out = log.text ? log.text : calloc(1, 1);
    return err;
}

size_t cc_program_global_variable_size(const struct cc_program *program)
{
    return program->global_variable_size;
}

const void *cc_program_bitcode(const struct cc_program *program, size_t *size)
{
    *size = program->bitcode_size;
    return program->bitcode;
}

/* The kernel table lists the application's kernels first, then the block
 * kernels (metadata.c). */
unsigned cc_program_num_kernels(const struct cc_program *program)
{
    unsigned n = 0;
    while (n < program->num_kernels && !program->kernels[n].is_block)
        n++;
    return n;
}

const struct cc_kernel_info *cc_program_kernel(const struct cc_program *program, unsigned index)
{
    return index < cc_program_num_kernels(program) ? &program->kernels[index] : NULL;
}

static const struct cc_kernel_info *find(const struct cc_program *program, const char *name,
                                         bool is_block)
{
    for (unsigned i = 0; i < program->num_kernels; i++)
        if (program->kernels[i].is_block == is_block && !strcmp(program->kernels[i].name, name))
            return &program->kernels[i];
    return NULL;
}

const struct cc_kernel_info *cc_program_find_kernel(const struct cc_program *program,
                                                    const char *name)
{
    return find(program, name, false);
}

const struct cc_kernel_info *cc_program_find_block(const struct cc_program *program,
                                                   const char *name)
{
    return find(program, name, true);
}

void cc_program_free(struct cc_program *program)
{
    if (!program)
        return;
    cc_cancel_launch_copies(program);
    if (program->tracker)
        cc_jit_remove(program->tracker);
    for (unsigned i = 0; program->parts && i <= program->num_kernels; i++)
        free(program->parts[i].bitcode);
    free(program->parts);
    cc_free_launch_copies(program);
    cc_free_kernels(program->kernels, program->num_kernels);
    free(program->bitcode);
    pthread_mutex_destroy(&program->lock);
    free(program);
}
