/* codegen.c - a kernel's machine code, made when the kernel is first used.
 *
 * A build ends with the program cut into parts, one module per
 * work-group function (parts.cpp), still unoptimised. O3 and code
 * generation, two thirds or more of a cold build, run per part when
 * something needs the kernel's code: its first launch, or a query of its
 * private memory size, which is measured on the optimised code. A program
 * of twenty kernels of which an application runs three pays for three; a
 * clBuildProgram returns after the front end, the built-in library and
 * the work-group passes, which is also where every error a build can
 * report is found (the last check, for functions nothing defines, runs
 * before the split).
 *
 * Each part's object file is a kernel cache entry of its own, keyed by the
 * program's key and the part's number, so a cached program's kernels load
 * without compiling. Parts are compiled in a context and TargetMachine of
 * their own, under the program's lock: launches of different programs'
 * kernels compile in parallel, two threads launching one kernel compile
 * it once. Launch copies (the end of the file) are compiled by a
 * background thread (background.c), outside the lock.
 */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/BitReader.h>

#include "compiler/internal.h"
#include "compiler/optimize.h"
#include "compiler/parts.h"
#include "compiler/specialize.h"

/* Whether `fn` is among the `count` functions of `set`. */
static bool contains(LLVMValueRef *set, size_t count, LLVMValueRef fn)
{
    for (size_t i = 0; i < count; i++)
        if (set[i] == fn)
            return true;
    return false;
}

/* The functions the roots call, directly or through others, the roots
 * included (malloc'd; NULL when out of memory). Only calls count: OpenCL C
 * has no function pointers, and a block is called directly (a program-scope
 * block's invoke function stays referenced by its literal until O3 folds
 * it, but runs only where it was inlined). */
static LLVMValueRef *called_from(LLVMValueRef *roots, size_t num_roots, size_t *count)
{
    size_t capacity = num_roots + 16, n = 0;
    LLVMValueRef *set = malloc(capacity * sizeof *set);
    for (size_t i = 0; set && i < num_roots; i++)
        set[n++] = roots[i];
    for (size_t next = 0; set && next < n; next++)
        for (LLVMBasicBlockRef block = LLVMGetFirstBasicBlock(set[next]); block;
             block = LLVMGetNextBasicBlock(block))
            for (LLVMValueRef inst = LLVMGetFirstInstruction(block); inst;
                 inst = LLVMGetNextInstruction(inst)) {
                LLVMValueRef callee = LLVMIsACallInst(inst) ? LLVMGetCalledValue(inst) : NULL;
                if (!callee || !LLVMIsAFunction(callee) || contains(set, n, callee))
                    continue;
                if (n == capacity) {
                    LLVMValueRef *grown = realloc(set, 2 * capacity * sizeof *set);
                    if (!grown) {
                        free(set);
                        return NULL;
                    }
                    set = grown;
                    capacity *= 2;
                }
                set[n++] = callee;
            }
    *count = n;
    return set;
}

/* cc_check_undefined: every declaration the code can call must be
 * something the JIT can bind: an intrinsic or a C library function
 * (jit.c). With roots, only what they call counts (before O3, whose dead
 * code removal the check used to follow), and the cpucl.vmath calls of
 * the vector overloads pass: code generation replaces them
 * (cc_lower_vector_math); without roots (after it) they are errors. */
cl_int cc_check_undefined(LLVMModuleRef module, LLVMValueRef *roots, size_t num_roots,
                          struct cc_log *log)
{
    size_t num_called = 0;
    LLVMValueRef *called = roots ? called_from(roots, num_roots, &num_called) : NULL;
    if (roots && !called)
        return CL_OUT_OF_HOST_MEMORY;
    cl_int err = CL_SUCCESS;
    for (LLVMValueRef fn = LLVMGetFirstFunction(module); fn; fn = LLVMGetNextFunction(fn)) {
        if (!LLVMIsDeclaration(fn) || LLVMGetIntrinsicID(fn) || !LLVMGetFirstUse(fn))
            continue;
        if (roots && !contains(called, num_called, fn))
            continue;
        size_t length;
        const char *name = LLVMGetValueName2(fn, &length);
        if ((strncmp(name, "__", 2) && cc_jit_symbol_allowed(name)) ||
            !strcmp(name, CC_PRINTF_SYMBOL) || cc_is_enqueue_symbol(name) ||
            cc_vecmath_symbol(name) || (roots && cc_is_vmath_call(name)) ||
            cc_is_launch_hook(name))
            continue;
        const char *plain = name;
        size_t plain_length = length;
        if (name[0] == '_' && name[1] == 'Z') {
            char *end;
            unsigned long n = strtoul(name + 2, &end, 10);
            if (end != name + 2 && n <= strlen(end)) {
                plain = end;
                plain_length = n;
            }
        }
        if (plain != name)
            cc_log_printf(log, "error: function '%.*s' (%s) is not provided by cpucl yet\n",
                          (int)plain_length, plain, name);
        else
            cc_log_printf(log,
                          "error: undefined function '%s' (neither the program nor cpucl's "
                          "built-in library defines it)\n",
                          name);
        err = CL_BUILD_PROGRAM_FAILURE;
    }
    free(called);
    return err;
}

/* In the object file a work-group function is named "<wg>.<placeholder>";
 * loading renames it "<wg>.<serial>", the serial number of the program in
 * this process, in hex of the same width, and so the shared globals. All
 * programs share the JIT's main JITDylib, so exported names must differ
 * between programs, while the object file must not depend on the process
 * that made it: the kernel cache stores it. */
static char *placeholder_name(const char *kernel_name)
{
    char *wg = cc_wg_function_name(kernel_name);
    size_t length = wg ? strlen(wg) + sizeof CC_SERIAL_PLACEHOLDER + 1 : 0;
    char *name = wg ? malloc(length) : NULL;
    if (name)
        snprintf(name, length, "%s.%s", wg, CC_SERIAL_PLACEHOLDER);
    free(wg);
    return name;
}

/* `name`, ending in the placeholder, with `serial` instead. */
static char *with_serial(const char *name, unsigned long serial)
{
    char *renamed = strdup(name);
    if (renamed)
        snprintf(renamed + strlen(renamed) - strlen(CC_SERIAL_PLACEHOLDER),
                 sizeof CC_SERIAL_PLACEHOLDER, "%016lx", serial);
    return renamed;
}

static char *serial_name(const struct cc_program *program, const char *name)
{
    return with_serial(name, program->serial);
}

/* A launch's copy of a kernel (cc_kernel_code_for_launch) is named
 * "<wg>.launch.<placeholder>" in its object, and gets a serial of its own
 * when loaded: a program may have several. */
static char *copy_placeholder_name(const char *kernel_name)
{
    char *wg = cc_wg_function_name(kernel_name);
    size_t length = wg ? strlen(wg) + sizeof ".launch." + sizeof CC_SERIAL_PLACEHOLDER : 0;
    char *name = wg ? malloc(length) : NULL;
    if (name)
        snprintf(name, length, "%s.launch.%s", wg, CC_SERIAL_PLACEHOLDER);
    free(wg);
    return name;
}

/* cc_variable_not(name, off) read once into *cache (-1 until then;
 * launches on several threads may ask at once): launches ask at each
 * launch, and getenv walks the whole environment. */
static bool switch_on(atomic_int *cache, const char *name, const char *off)
{
    int now = atomic_load_explicit(cache, memory_order_relaxed);
    if (now < 0) {
        now = cc_variable_not(name, off);
        atomic_store_explicit(cache, now, memory_order_relaxed);
    }
    return now;
}

/* Streaming stores in launch copies (launch.c), CPUCL_STREAMING=0 turns
 * them off. Only whole vectors known to be aligned stream: stores x86 must
 * split into non-temporal pieces of 4 or 8 bytes made the bench's stencil
 * 14-18 ms instead of 12.8 on a Zen 3 (eighth session) and 9.4-10.7
 * instead of 5.6-6.1 on an AVX2 EPYC (twenty-fourth). */
static bool streaming_wanted(void)
{
    static atomic_int wanted = -1;
    return switch_on(&wanted, "CPUCL_STREAMING", "0");
}

/* A launch's copy runs only groups of facts->local_size items: the
 * runtime runs the general function for the smaller last groups of a
 * non-uniform range. The region functions are inlined first, so that the
 * kernel's own reads of its local size fold too. */
static cl_int fold_launch(struct cc_program *program, unsigned index, LLVMModuleRef module,
                          LLVMTargetMachineRef machine, const struct cc_launch_facts *facts,
                          struct cc_log *log)
{
    cl_int err = cc_run_passes(module, "always-inline", machine, log);
    if (err)
        return err;
    char *wg = cc_wg_function_name(program->kernels[index].name);
    LLVMValueRef fn = wg ? LLVMGetNamedFunction(module, wg) : NULL;
    free(wg);
    if (!fn)
        return CL_BUILD_PROGRAM_FAILURE;
    cc_fold_launch_local_size(fn, facts->local_size, offsetof(struct cc_wg_state, local_size),
                              offsetof(struct cc_wg_state, enqueued_local_size));
    if (facts->no_global_offset)
        cc_fold_launch_no_offset(fn, offsetof(struct cc_wg_state, global_offset));
    if (streaming_wanted())
        cc_align_streaming_arguments(fn, &program->kernels[index], facts->streaming_args);
    return CL_SUCCESS;
}

static bool is_kernel_part(const struct cc_program *program, unsigned index)
{
    return index < program->num_kernels;
}

/* Part `index` to an object file: O3 (O0 under -cl-opt-disable) and code
 * for the host, its kernel's private memory measured; with facts, a
 * launch's copy of its kernel instead. */
static cl_int compile(struct cc_program *program, unsigned index,
                      const struct cc_launch_facts *facts, LLVMMemoryBufferRef *object,
                      unsigned *band, struct cc_log *log)
{
    *object = NULL;
    *band = 0;
    const struct cc_part *part = &program->parts[index];
    LLVMContextRef context = LLVMContextCreate();
    LLVMTargetMachineRef machine = cc_target_machine(!program->opt_disable);
    LLVMMemoryBufferRef buffer = LLVMCreateMemoryBufferWithMemoryRange(
        part->bitcode, part->bitcode_size, "part", false);
    LLVMModuleRef module = NULL;
    cl_int err = CL_SUCCESS;
    struct cc_timer timer;
    cc_timer_start(&timer);
    if (!context || !machine || !buffer) {
        err = CL_OUT_OF_HOST_MEMORY;
        goto out;
    }
    struct cc_diagnostics diagnostics = {log, false};
    LLVMContextSetDiagnosticHandler(context, cc_diagnostic_handler, &diagnostics);
    if (LLVMParseBitcodeInContext2(context, buffer, &module)) {
        cc_log_printf(log, "error: internal: part %u of the program does not parse\n", index);
        err = CL_BUILD_PROGRAM_FAILURE;
        goto out;
    }
    cc_lower_launch_hooks(module, facts);
    if (facts && (err = fold_launch(program, index, module, machine, facts, log)))
        goto out;
    cc_dump(module, facts ? "a launch's copy, before O3" : "a part, before O3", false);
    cc_lower_vector_math(module, !program->opt_disable);
    if (!program->opt_disable)
        cc_add_vector_math(module);
    cc_timer_step(&timer, "prepare");
    LLVMErrorRef error = cc_optimize(module, machine, !program->opt_disable);
    cc_timer_step(&timer, "O3");
    if (error) {
        char *text = LLVMGetErrorMessage(error);
        cc_log_printf(log, "error: internal: optimisation failed: %s\n", text);
        LLVMDisposeErrorMessage(text);
        err = CL_BUILD_PROGRAM_FAILURE;
        goto out;
    }
    if (!program->opt_disable)
        cc_fix_wide_vector_calls(module);
    if (facts && streaming_wanted()) {
        char *wg = cc_wg_function_name(program->kernels[index].name);
        LLVMValueRef fn = wg ? LLVMGetNamedFunction(module, wg) : NULL;
        if (fn)
            cc_stream_stores(fn, &program->kernels[index], facts->streaming_args);
        free(wg);
    }
    cc_dump(module, "optimised", true);
    if ((err = cc_check_undefined(module, NULL, 0, log)))
        goto out;
    if (is_kernel_part(program, index)) {
        struct cc_kernel_info *kernel = &program->kernels[index];
        if (!facts)
            cc_measure_private_mem(module, kernel, 1);
        if (getenv("CPUCL_VECTORIZE"))
            cc_report_vectorization(module, kernel, 1);
        char *wg = cc_wg_function_name(kernel->name);
        char *name = facts ? copy_placeholder_name(kernel->name) : placeholder_name(kernel->name);
        LLVMValueRef fn = wg ? LLVMGetNamedFunction(module, wg) : NULL;
        if (fn && facts) {
            LLVMTargetDataRef data = LLVMCreateTargetDataLayout(machine);
            *band = cc_group_band(fn, data);
            LLVMDisposeTargetData(data);
        }
        if (fn && name)
            LLVMSetValueName2(fn, name, strlen(name));
        else if (wg && name)
            cc_log_printf(log, "error: internal: no work-group function for kernel '%s'\n",
                          kernel->name);
        err = !wg || !name ? CL_OUT_OF_HOST_MEMORY : fn ? CL_SUCCESS : CL_BUILD_PROGRAM_FAILURE;
        free(wg);
        free(name);
        if (err)
            goto out;
    }
    char *message = NULL;
    if (LLVMTargetMachineEmitToMemoryBuffer(machine, module, LLVMObjectFile, &message, object)) {
        cc_log_printf(log, "error: code generation failed: %s\n",
                      message ? message : "unknown reason");
        *object = NULL;
        err = CL_BUILD_PROGRAM_FAILURE;
    }
    LLVMDisposeMessage(message);
    if (!err && diagnostics.error)
        err = CL_BUILD_PROGRAM_FAILURE;
    cc_timer_step(&timer, "codegen");
    if (timer.on) {
        char what[200];
        if (is_kernel_part(program, index))
            snprintf(what, sizeof what, "kernel '%.120s'%s code times",
                     program->kernels[index].name, facts ? ", launch copy," : "");
        else
            snprintf(what, sizeof what, "part %u code times", index);
        cc_timer_report(&timer, what);
    }
out:
    if (module)
        LLVMDisposeModule(module);
    if (buffer)
        LLVMDisposeMemoryBuffer(buffer);
    if (machine)
        LLVMDisposeTargetMachine(machine);
    if (context)
        LLVMContextDispose(context);
    if (err && *object) {
        LLVMDisposeMemoryBuffer(*object);
        *object = NULL;
    }
    return err;
}

/* Gives the object's exported names their serials (the shared globals the
 * program's, the work-group function, named `placeholder` in the object,
 * `name`), adds it to the JIT and looks the function up. */
static cl_int load(struct cc_program *program, const void *object, size_t size,
                   const char *placeholder, const char *name, void **address, struct cc_log *log)
{
    char *copy = malloc(size ? size : 1);
    cl_int err = copy ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY;
    if (!err)
        memcpy(copy, object, size);
    for (unsigned k = 0; k < program->num_shared && !err; k++) {
        char shared[64];
        cc_shared_name(k, shared, sizeof shared);
        char *renamed = serial_name(program, shared);
        if (!renamed)
            err = CL_OUT_OF_HOST_MEMORY;
        else
            cc_object_rename(copy, size, shared, renamed); /* absent where not used */
        free(renamed);
    }
    if (!err && placeholder && !cc_object_rename(copy, size, placeholder, name)) {
        cc_log_printf(log, "error: internal: no work-group function %s\n", placeholder);
        err = CL_BUILD_PROGRAM_FAILURE;
    }
    LLVMMemoryBufferRef buffer = NULL;
    if (!err && !(buffer = LLVMCreateMemoryBufferWithMemoryRangeCopy(copy, size, "program")))
        err = CL_OUT_OF_HOST_MEMORY;
    const char *symbols[1] = {name};
    if (!err)
        err = cc_jit_add(buffer, symbols, placeholder ? 1 : 0, address, &program->tracker, log);
    free(copy);
    return err;
}

/* Loads part `index`'s object: a kernel's sets its wg. */
static cl_int load_part(struct cc_program *program, unsigned index, const void *object,
                        size_t size, struct cc_log *log)
{
    if (!is_kernel_part(program, index))
        return load(program, object, size, NULL, NULL, NULL, log);
    char *placeholder = placeholder_name(program->kernels[index].name);
    char *name = placeholder ? serial_name(program, placeholder) : NULL;
    void *address = NULL;
    cl_int err = name ? load(program, object, size, placeholder, name, &address, log)
                      : CL_OUT_OF_HOST_MEMORY;
    if (!err)
        __atomic_store_n(&program->kernels[index].wg, (cc_wg_fn)address, __ATOMIC_RELEASE);
    free(placeholder);
    free(name);
    return err;
}

cl_int cc_program_load_part(struct cc_program *program, unsigned index, struct cc_log *log)
{
    pthread_mutex_lock(&program->lock);
    struct cc_part *part = &program->parts[index];
    cl_int err = CL_SUCCESS;
    if (part->loaded || !part->bitcode)
        goto out;
    void *cached = NULL;
    size_t cached_size = 0, private_mem = 0, stack = 0;
    if (program->cacheable && cc_cache_load_code(&program->key, index, NULL, 0, &cached,
                                                 &cached_size, &private_mem, &stack)) {
        struct cc_log scratch = {0}; /* a failure to load says nothing the application reads */
        err = load_part(program, index, cached, cached_size, &scratch);
        free(scratch.text);
        free(cached);
        if (!err) {
            if (is_kernel_part(program, index)) {
                program->kernels[index].private_mem_size = private_mem;
                program->kernels[index].stack_size = stack;
            }
            part->loaded = true;
            goto out;
        }
    }
    LLVMMemoryBufferRef object = NULL;
    unsigned no_band;
    if (!(err = compile(program, index, NULL, &object, &no_band, log))) {
        const void *bytes = LLVMGetBufferStart(object);
        size_t size = LLVMGetBufferSize(object);
        err = load_part(program, index, bytes, size, log);
        bool kernel = is_kernel_part(program, index);
        if (!err && program->cacheable)
            cc_cache_store_code(&program->key, index, NULL, 0, bytes, size,
                                kernel ? program->kernels[index].private_mem_size : 0,
                                kernel ? program->kernels[index].stack_size : 0);
        LLVMDisposeMemoryBuffer(object);
    }
    part->loaded = !err;
out:
    pthread_mutex_unlock(&program->lock);
    return err;
}

cl_int cc_program_load_eager_parts(struct cc_program *program, struct cc_log *log)
{
    cl_int err = cc_program_load_part(program, program->num_kernels, log);
    for (unsigned i = 0; i < program->num_kernels && !err; i++)
        if (program->kernels[i].is_block)
            err = cc_program_load_part(program, i, log);
    return err;
}

/* The runtime's way to a kernel's code (compiler.h). An error here is
 * internal (every error a program can cause was found by its build): the
 * log goes to stderr, where a developer sees it, and the launch fails. */
static cl_int ensure_code(struct cc_program *program, const struct cc_kernel_info *kernel)
{
    if (__atomic_load_n(&kernel->wg, __ATOMIC_ACQUIRE))
        return CL_SUCCESS;
    struct cc_log log = {0};
    cl_int err = cc_program_load_part(program, (unsigned)(kernel - program->kernels), &log);
    if (err && log.text)
        fprintf(stderr, "cpucl: kernel '%s': %s", kernel->name, log.text);
    free(log.text);
    if (err == CL_BUILD_PROGRAM_FAILURE)
        err = CL_OUT_OF_RESOURCES;
    return err;
}

cl_int cc_kernel_code(struct cc_program *program, const struct cc_kernel_info *kernel,
                      cc_wg_fn *wg)
{
    cl_int err = ensure_code(program, kernel);
    *wg = err ? NULL : __atomic_load_n(&kernel->wg, __ATOMIC_ACQUIRE);
    return err;
}

cl_int cc_kernel_private_mem_size(struct cc_program *program, const struct cc_kernel_info *kernel,
                                  size_t *size)
{
    cl_int err = ensure_code(program, kernel);
    pthread_mutex_lock(&program->lock);
    *size = kernel->private_mem_size;
    pthread_mutex_unlock(&program->lock);
    return err;
}

/* --- launches' copies --- */

/* A kernel gets a copy for a launch's facts once COPY_AFTER launches had
 * them (or at the first, when the kernel cache has the copy): an
 * application that launches a kernel once or twice, as the conformance
 * tests mostly do, never pays for one. The copy is compiled in the
 * background (background.c), and launches run the general code until it is
 * loaded. At most MAX_COPIES sets of facts per kernel are followed;
 * launches with other facts run the general code. */
enum { COPY_AFTER = 3, MAX_COPIES = 4 };

struct cc_launch_copy {
    struct cc_launch_facts facts;
    unsigned launches;
    bool failed;
    bool queued; /* waiting for or in the background compiler (background.c) */
    cc_wg_fn wg;
    unsigned band; /* cc_group_band's; kept in the cache entry's extra word */
};

struct cc_launch_copies {
    struct cc_launch_copy copies[MAX_COPIES];
    unsigned count;
};

void cc_free_launch_copies(struct cc_program *program)
{
    free(program->copies);
    program->copies = NULL;
}

/* CPUCL_SPECIALIZE=0: no copies, to compare (and no reqd_work_group_size
 * copy either: workgroup.c). */
static bool copies_wanted(const struct cc_program *program, const struct cc_kernel_info *kernel,
                          const struct cc_launch_facts *facts)
{
    static atomic_int wanted = -1;
    if (!switch_on(&wanted, "CPUCL_SPECIALIZE", "0") || program->opt_disable || kernel->is_block)
        return false;
    /* a required size has its copy in the general code already */
    return !kernel->reqd_work_group_size[0] || facts->images_alike || facts->samplers_alike ||
           facts->streaming_args;
}

/* Loads a copy's object under a serial of its own; its address, or NULL. */
static cc_wg_fn load_copy(struct cc_program *program, unsigned index, const void *object,
                          size_t size, struct cc_log *log)
{
    char *placeholder = copy_placeholder_name(program->kernels[index].name);
    char *name = placeholder ? with_serial(placeholder, cc_new_serial()) : NULL;
    void *address = NULL;
    if (name && load(program, object, size, placeholder, name, &address, log))
        address = NULL;
    free(placeholder);
    free(name);
    return (cc_wg_fn)address;
}

/* The copy's code from the kernel cache, when it has it; under the
 * program's lock. */
static void load_cached_copy(struct cc_program *program, unsigned index,
                             struct cc_launch_copy *copy)
{
    void *cached = NULL;
    size_t cached_size = 0, band = 0, unused = 0;
    if (!program->cacheable ||
        !cc_cache_load_code(&program->key, index, &copy->facts, sizeof copy->facts, &cached,
                            &cached_size, &band, &unused))
        return;
    struct cc_log scratch = {0};
    copy->wg = load_copy(program, index, cached, cached_size, &scratch);
    copy->band = (unsigned)band;
    free(scratch.text);
    free(cached);
}

/* Compiles the copy, then, under the program's lock (which `locked` says
 * the caller holds already), loads it and stores it in the kernel cache.
 * A copy that fails is internal trouble, not the application's: the
 * general code runs instead, and the reason goes to stderr. compile()
 * reads only what a built program no longer changes (its parts, the
 * kernel's name and arguments) and the copy's facts, fixed once the copy
 * was made. */
static void compile_copy(struct cc_program *program, unsigned index, struct cc_launch_copy *copy,
                         bool locked)
{
    struct cc_log log = {0};
    LLVMMemoryBufferRef object = NULL;
    unsigned band = 0;
    cl_int err = compile(program, index, &copy->facts, &object, &band, &log);
    if (!locked)
        pthread_mutex_lock(&program->lock);
    if (!err) {
        const void *bytes = LLVMGetBufferStart(object);
        size_t size = LLVMGetBufferSize(object);
        copy->wg = load_copy(program, index, bytes, size, &log);
        copy->band = band;
        if (copy->wg && program->cacheable)
            cc_cache_store_code(&program->key, index, &copy->facts, sizeof copy->facts, bytes, size,
                                band, 0);
        LLVMDisposeMemoryBuffer(object);
    }
    copy->failed = !copy->wg;
    copy->queued = false;
    if (!locked)
        pthread_mutex_unlock(&program->lock);
    if (copy->failed && log.text)
        fprintf(stderr, "cpucl: kernel '%s', launch copy: %s", program->kernels[index].name,
                log.text);
    free(log.text);
}

void cc_compile_launch_copy(struct cc_program *program, unsigned index, struct cc_launch_copy *copy)
{
    compile_copy(program, index, copy, false);
}

void cc_launch_copy_dropped(struct cc_launch_copy *copy)
{
    copy->queued = false;
}

/* CPUCL_LAUNCH_COPIES=sync: each copy compiled at the launch that asks
 * for it, not by the background compiler (background.c): the tests, whose
 * "third launch makes a copy" is then exact. */
static bool background_wanted(void)
{
    static atomic_int wanted = -1;
    return switch_on(&wanted, "CPUCL_LAUNCH_COPIES", "sync");
}

cl_int cc_kernel_code_for_launch(struct cc_program *program, const struct cc_kernel_info *kernel,
                                 const struct cc_launch_facts *facts, bool repeated, cc_wg_fn *wg,
                                 cc_wg_fn *wg_full, unsigned *band)
{
    *wg_full = NULL;
    *band = 0;
    cl_int err = cc_kernel_code(program, kernel, wg);
    if (err || !copies_wanted(program, kernel, facts))
        return err;
    unsigned index = (unsigned)(kernel - program->kernels);
    pthread_mutex_lock(&program->lock);
    if (!program->copies)
        program->copies = calloc(program->num_kernels, sizeof *program->copies);
    struct cc_launch_copies *copies = program->copies ? &program->copies[index] : NULL;
    struct cc_launch_copy *copy = NULL;
    for (unsigned i = 0; copies && i < copies->count && !copy; i++)
        if (!memcmp(&copies->copies[i].facts, facts, sizeof *facts))
            copy = &copies->copies[i];
    if (!copy && copies && copies->count < MAX_COPIES) {
        copy = &copies->copies[copies->count++];
        copy->facts = *facts;
    }
    if (copy && !copy->wg && !copy->failed && !copy->queued) {
        copy->launches++;
        /* a recorded command keeps the code it is given: its copy now */
        if (repeated && copy->launches < COPY_AFTER)
            copy->launches = COPY_AFTER;
        if (copy->launches == 1 || copy->launches >= COPY_AFTER)
            load_cached_copy(program, index, copy);
        if (!copy->wg && copy->launches >= COPY_AFTER) {
            if (!repeated && background_wanted() && cc_compile_in_background(program, index, copy))
                copy->queued = true;
            else
                compile_copy(program, index, copy, true);
        }
    }
    *wg_full = copy ? copy->wg : NULL;
    *band = copy && copy->wg ? copy->band : 0;
    pthread_mutex_unlock(&program->lock);
    return CL_SUCCESS;
}
