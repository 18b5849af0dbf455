/* spirv.c - SPIR-V programs (clCreateProgramWithIL, cl_khr_il_program).
 *
 * Takes SPIR-V 1.0-1.6 and gives LLVM 19 bitcode in the form the rest of
 * the pipeline expects from Clang, so that cc_link builds it like any other
 * object. The SPIRV-LLVM-Translator runs as a subprocess (llvm-spirv-15 -r
 * --spirv-target-env=CL2.0): loading its LLVM 15 library into this LLVM 19
 * process is not possible (COMPILER-NOTES 8). Its LLVM 15 bitcode reads into
 * LLVM 19; then the fix-ups of COMPILER-NOTES 8: host triple and data
 * layout, spir_func calls become C calls (a calling-convention mismatch
 * would make them poison), no noinline/optnone.
 *
 * Specialization constants: cc_spirv_spec_constants reads their SpecIds and
 * types from the module's words; the values set are handed to the
 * translator as --spec-const=id:type:value.
 *
 * Valid SPIR-V on which the translator stops goes to it rewritten
 * (spirv_fixes.c).
 *
 * Vectors of 8 bytes or less at calls into the built-in library keep
 * SPIR's form (`<2 x i32>`) where the library has x86's coerced one
 * (`double`); library.c makes each such call again with the library's
 * type once linked.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <llvm-c/BitReader.h>
#include <llvm-c/BitWriter.h>

#include "compiler/internal.h"

#ifndef CPUCL_LLVM_SPIRV
#define CPUCL_LLVM_SPIRV "llvm-spirv-15"
#endif

#define SPIR_FUNC_CC 75
#define SPIR_KERNEL_CC 76
#define SPIRV_MAGIC 0x07230203u

extern char **environ;

int cc_il_is_spirv(const void *il, size_t size)
{
    uint32_t word;
    if (size < 20 || size % 4)
        return 0;
    memcpy(&word, il, 4);
    return word == SPIRV_MAGIC || word == __builtin_bswap32(SPIRV_MAGIC);
}

static int write_file(const char *path, const void *data, size_t size)
{
    FILE *file = fopen(path, "wb");
    if (!file)
        return -1;
    size_t written = fwrite(data, 1, size, file);
    return fclose(file) == 0 && written == size ? 0 : -1;
}

static char *read_file(const char *path, size_t *size)
{
    FILE *file = fopen(path, "rb");
    if (!file)
        return NULL;
    char *data = NULL;
    if (fseek(file, 0, SEEK_END) == 0) {
        long length = ftell(file);
        if (length >= 0 && fseek(file, 0, SEEK_SET) == 0 && (data = malloc(length + 1))) {
            *size = fread(data, 1, length, file);
            data[*size] = 0;
        }
    }
    fclose(file);
    return data;
}

/* --- specialization constants --- */

enum {
    OP_TYPE_BOOL = 20,
    OP_TYPE_INT = 21,
    OP_TYPE_FLOAT = 22,
    OP_SPEC_CONSTANT_TRUE = 48,
    OP_SPEC_CONSTANT_FALSE = 49,
    OP_SPEC_CONSTANT = 50,
    OP_DECORATE = 71,
    DECORATION_SPEC_ID = 1,
};

/* One pass over the instructions: the SpecId decorations, the scalar
 * types, and the spec constants that have a SpecId. */
cl_int cc_spirv_spec_constants(const void *il, size_t size, struct cc_spec_constant **constants,
                               unsigned *count)
{
    *constants = NULL;
    *count = 0;
    if (size % 4 || size < 20 || !cc_il_is_spirv(il, size))
        return CL_INVALID_VALUE;
    const uint32_t *words = il;
    size_t n = size / 4;
    uint32_t bound = words[3];
    if (bound == 0 || bound > (1u << 24))
        return CL_INVALID_VALUE;
    uint32_t *spec_id = calloc(bound, sizeof *spec_id); /* id -> SpecId + 1 */
    uint16_t *type_bits = calloc(bound, sizeof *type_bits); /* id -> width, 1 for bool */
    char *type_kind = calloc(bound, 1);                       /* 'i', 'f', 'b' */
    struct cc_spec_constant *list = NULL;
    unsigned used = 0;
    cl_int err = spec_id && type_bits && type_kind ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY;
    for (size_t at = 5; at < n && !err;) {
        uint32_t opcode = words[at] & 0xffff, length = words[at] >> 16;
        if (length == 0 || at + length > n) {
            err = CL_INVALID_VALUE;
            break;
        }
        const uint32_t *op = words + at;
        if (opcode == OP_DECORATE && length >= 4 && op[2] == DECORATION_SPEC_ID && op[1] < bound)
            spec_id[op[1]] = op[3] + 1;
        else if (opcode == OP_TYPE_BOOL && length >= 2 && op[1] < bound)
            type_kind[op[1]] = 'b', type_bits[op[1]] = 1;
        else if ((opcode == OP_TYPE_INT || opcode == OP_TYPE_FLOAT) && length >= 3 &&
                 op[1] < bound)
            type_kind[op[1]] = opcode == OP_TYPE_INT ? 'i' : 'f', type_bits[op[1]] = (uint16_t)op[2];
        else if ((opcode == OP_SPEC_CONSTANT_TRUE || opcode == OP_SPEC_CONSTANT_FALSE ||
                  opcode == OP_SPEC_CONSTANT) &&
                 length >= 3 && op[1] < bound && op[2] < bound && spec_id[op[2]]) {
            /* SPIR-V puts decorations before the constants they name */
            struct cc_spec_constant *more = realloc(list, (used + 1) * sizeof *more);
            if (!more) {
                err = CL_OUT_OF_HOST_MEMORY;
                break;
            }
            list = more;
            struct cc_spec_constant *c = &list[used++];
            memset(c, 0, sizeof *c);
            c->id = spec_id[op[2]] - 1;
            unsigned bits = type_bits[op[1]];
            char kind = type_kind[op[1]];
            c->size = kind == 'b' ? 1 : bits / 8;
            if (kind == 'b')
                strcpy(c->type, "i1");
            else if ((kind == 'i' && (bits == 8 || bits == 16 || bits == 32 || bits == 64)) ||
                     (kind == 'f' && (bits == 16 || bits == 32 || bits == 64)))
                snprintf(c->type, sizeof c->type, "%c%u", kind, bits);
            else
                used--; /* a type the API cannot set: leave it to its default */
        }
        at += length;
    }
    free(spec_id), free(type_bits), free(type_kind);
    if (err) {
        free(list);
        return err;
    }
    *constants = list;
    *count = used;
    return CL_SUCCESS;
}

/* "id:type:value" for the translator: integers as unsigned decimals of
 * their bits, floating point with enough digits to come back exact. */
static int spec_entry(const struct cc_spec_constant *c, char *out, size_t size)
{
    if (c->type[0] == 'f') {
        double value;
        if (c->size == 8) {
            memcpy(&value, &c->value, 8);
        } else if (c->size == 4) {
            float f;
            memcpy(&f, &c->value, 4);
            value = f;
        } else { /* half: sign, 5-bit exponent, 10-bit mantissa */
            unsigned h = (unsigned)(c->value & 0xffff), e = (h >> 10) & 31, m = h & 1023;
            value = e == 0 ? ldexp(m, -24) : e == 31 ? (m ? NAN : INFINITY)
                                                     : ldexp(m + 1024, (int)e - 25);
            if (h & 0x8000)
                value = -value;
        }
        return snprintf(out, size, "%u:%s:%.17g", c->id, c->type, value);
    }
    uint64_t bits = c->size == 8 ? c->value : c->value & ((1ull << (8 * c->size)) - 1);
    if (!strcmp(c->type, "i1"))
        bits = bits != 0;
    return snprintf(out, size, "%u:%s:%llu", c->id, c->type, (unsigned long long)bits);
}

/* Bounds on the translator's process. Malformed SPIR-V can send it into
 * allocating without end (one flipped bit in a 6 KiB module: all 24 GiB
 * of a machine until the kernel's OOM killer stopped it, two minutes
 * later, with the application's other processes at risk) or into long
 * loops. Valid modules need far less: about 60 MiB of memory and 0.05 s
 * for the tests' modules of a few KiB. */
#define TRANSLATOR_MEMORY(size) (((rlim_t)2 << 30) + (rlim_t)(size)*512)
#define TRANSLATOR_SECONDS(size) (rlim_t)(60 + (size) / 65536)

/* Runs llvm-spirv-15 -r on `spv` (`size` bytes), writing `bc`; its
 * messages go to `messages`. Returns 0 when it succeeded, -1 when it could
 * not run, 1 when it failed, 2 when a signal ended it (`*stop_signal`). */
static int run_translator(const char *spv, size_t size, const char *bc, const char *messages,
                          const struct cc_spec_constant *constants, unsigned num_constants,
                          int *stop_signal)
{
    char output[512];
    snprintf(output, sizeof output, "%s", bc);
    /* All the values in one --spec-const, separated by spaces: the
     * translator keeps only the last of several. */
    size_t spec_size = 16 + 64 * (size_t)num_constants;
    char *specs = malloc(spec_size), *argv[8];
    if (!specs)
        return -1;
    size_t used = (size_t)snprintf(specs, spec_size, "--spec-const=");
    bool any = false;
    for (unsigned i = 0; i < num_constants; i++)
        if (constants[i].set) {
            if (any)
                specs[used++] = ' ';
            used += (size_t)spec_entry(&constants[i], specs + used, spec_size - used);
            any = true;
        }
    unsigned argc = 0;
    argv[argc++] = (char *)CPUCL_LLVM_SPIRV;
    argv[argc++] = (char *)"-r";
    argv[argc++] = (char *)"--spirv-target-env=CL2.0";
    if (any)
        argv[argc++] = specs;
    argv[argc++] = (char *)spv;
    argv[argc++] = (char *)"-o";
    argv[argc++] = output;
    argv[argc] = NULL;
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, messages, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    posix_spawn_file_actions_adddup2(&actions, 1, 2);
    pid_t pid;
    int rc = posix_spawnp(&pid, argv[0], &actions, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&actions);
    free(specs);
    if (rc != 0)
        return -1;
    /* posix_spawn returns once the child has run exec (glibc spawns with
     * CLONE_VFORK), so the bounds apply from the translator's first steps. */
    struct rlimit memory = {TRANSLATOR_MEMORY(size), TRANSLATOR_MEMORY(size)};
    struct rlimit seconds = {TRANSLATOR_SECONDS(size), TRANSLATOR_SECONDS(size) + 5};
    prlimit(pid, RLIMIT_AS, &memory, NULL);
    prlimit(pid, RLIMIT_CPU, &seconds, NULL);
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            return -1;
    if (WIFEXITED(status))
        return WEXITSTATUS(status) == 0 ? 0 : 1;
    /* Killed by a signal: out of memory under RLIMIT_AS it aborts
     * (std::bad_alloc, LLVM's allocation failure), past RLIMIT_CPU it gets
     * SIGXCPU, then SIGKILL; or it crashed. */
    *stop_signal = WTERMSIG(status);
    return 2;
}

static void fix_calling_conventions(LLVMModuleRef module)
{
    for (LLVMValueRef fn = LLVMGetFirstFunction(module); fn; fn = LLVMGetNextFunction(fn)) {
        if (LLVMGetFunctionCallConv(fn) == SPIR_FUNC_CC)
            LLVMSetFunctionCallConv(fn, LLVMCCallConv);
        unsigned noinline = LLVMGetEnumAttributeKindForName("noinline", 8);
        unsigned optnone = LLVMGetEnumAttributeKindForName("optnone", 7);
        LLVMRemoveEnumAttributeAtIndex(fn, LLVMAttributeFunctionIndex, noinline);
        LLVMRemoveEnumAttributeAtIndex(fn, LLVMAttributeFunctionIndex, optnone);
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
            for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
                if (LLVMIsACallInst(i) && LLVMGetInstructionCallConv(i) == SPIR_FUNC_CC)
                    LLVMSetInstructionCallConv(i, LLVMCCallConv);
    }
}

static cl_int translate(const void *il, size_t size, const struct cc_spec_constant *constants,
                        unsigned num_constants, char **log_out, void **bitcode,
                        size_t *bitcode_size)
{
    struct cc_log log = {0};
    cl_int err = CL_BUILD_PROGRAM_FAILURE;
    *bitcode = NULL;
    *bitcode_size = 0;
    char dir[] = "/tmp/cpucl-spirv-XXXXXX";
    char spv[64], bc[64], messages[64];
    if (!mkdtemp(dir)) {
        cc_log_printf(&log, "error: cannot create a folder for the SPIR-V translator\n");
        goto out;
    }
    snprintf(spv, sizeof spv, "%s/in.spv", dir);
    snprintf(bc, sizeof bc, "%s/out.bc", dir);
    snprintf(messages, sizeof messages, "%s/messages", dir);
    size_t rewritten_size = 0;
    void *rewritten = cc_spirv_translator_fixes(il, size, &rewritten_size);
    int written =
        rewritten ? write_file(spv, rewritten, rewritten_size) : write_file(spv, il, size);
    size_t spv_size = rewritten ? rewritten_size : size;
    free(rewritten);
    if (written != 0) {
        cc_log_printf(&log, "error: cannot write the SPIR-V module for the translator\n");
        goto cleanup;
    }
    int stop_signal = 0;
    int rc = run_translator(spv, spv_size, bc, messages, constants, num_constants, &stop_signal);
    size_t text_size = 0;
    char *text = read_file(messages, &text_size);
    if (text && text_size)
        cc_log_append(&log, text, text_size);
    free(text);
    if (rc < 0) {
        cc_log_printf(&log, "error: could not run %s (is the llvm-spirv-15 package installed?)\n",
                      CPUCL_LLVM_SPIRV);
        goto cleanup;
    }
    if (rc == 2) {
        cc_log_printf(&log,
                      "error: the SPIR-V translator stopped on signal %d (%s); it may use %llu "
                      "MiB of memory and %llu s: the module is not valid, or too large\n",
                      stop_signal, strsignal(stop_signal),
                      (unsigned long long)(TRANSLATOR_MEMORY(spv_size) >> 20),
                      (unsigned long long)TRANSLATOR_SECONDS(spv_size));
        goto cleanup;
    }
    if (rc > 0) {
        cc_log_printf(&log, "error: the SPIR-V module is not valid or uses what cpucl cannot "
                            "translate (see the translator's messages above)\n");
        goto cleanup;
    }
    size_t translated_size = 0;
    char *translated = read_file(bc, &translated_size);
    if (!translated) {
        cc_log_printf(&log, "error: the SPIR-V translator wrote no module\n");
        goto cleanup;
    }

    const struct cc_host *host = cc_host();
    LLVMContextRef context = LLVMContextCreate();
    LLVMMemoryBufferRef buffer =
        LLVMCreateMemoryBufferWithMemoryRangeCopy(translated, translated_size, "spirv");
    LLVMModuleRef module = NULL;
    free(translated);
    if (!host || !buffer || LLVMParseBitcodeInContext2(context, buffer, &module)) {
        cc_log_printf(&log, "error: the translated SPIR-V module could not be read\n");
    } else {
        LLVMSetTarget(module, host->triple);
        LLVMSetDataLayout(module, host->data_layout);
        fix_calling_conventions(module);
        LLVMMemoryBufferRef out = LLVMWriteBitcodeToMemoryBuffer(module);
        size_t out_size = out ? LLVMGetBufferSize(out) : 0;
        *bitcode = out_size ? malloc(out_size) : NULL;
        if (*bitcode) {
            memcpy(*bitcode, LLVMGetBufferStart(out), out_size);
            *bitcode_size = out_size;
            err = CL_SUCCESS;
        } else {
            err = CL_OUT_OF_HOST_MEMORY;
        }
        if (out)
            LLVMDisposeMemoryBuffer(out);
        LLVMDisposeModule(module);
    }
    if (buffer)
        LLVMDisposeMemoryBuffer(buffer);
    LLVMContextDispose(context);
cleanup:
    unlink(spv);
    unlink(bc);
    unlink(messages);
    rmdir(dir);
out:
    if (log.failed && !err)
        err = CL_OUT_OF_HOST_MEMORY;
    *log_out = log.text ? log.text : calloc(1, 1);
    return err;
}

/* The translation is cached (cache.c) under the module and the values
 * given to its specialization constants: an entry with the translated
 * bitcode and the translator's messages, no kernels and no object. */
cl_int cc_translate_spirv(const void *il, size_t size, const struct cc_spec_constant *constants,
                          unsigned num_constants, char **log_out, void **bitcode,
                          size_t *bitcode_size)
{
    uint64_t *values = calloc(num_constants ? 3 * (size_t)num_constants : 1, sizeof *values);
    if (!values)
        return translate(il, size, constants, num_constants, log_out, bitcode, bitcode_size);
    for (unsigned i = 0; i < num_constants; i++) {
        values[3 * i] = constants[i].id;
        values[3 * i + 1] = constants[i].set;
        values[3 * i + 2] = constants[i].set ? constants[i].value : 0;
    }
    const void *inputs[2] = {il, values};
    size_t sizes[2] = {size, 3 * (size_t)num_constants * sizeof *values};
    struct cc_cache_key key;
    bool cacheable = cc_cache_key_inputs("spirv", "", 2, inputs, sizes, &key);
    free(values);
    struct cc_cache_entry entry;
    if (cacheable && cc_cache_load(&key, &entry)) {
        if (entry.bitcode_size && entry.num_kernels == 0) {
            *bitcode = entry.bitcode;
            *bitcode_size = entry.bitcode_size;
            *log_out = entry.log;
            entry.bitcode = NULL;
            entry.log = NULL;
            cc_cache_entry_free(&entry);
            return CL_SUCCESS;
        }
        cc_cache_entry_free(&entry);
    }
    cl_int err = translate(il, size, constants, num_constants, log_out, bitcode, bitcode_size);
    if (!err && cacheable) {
        struct cc_cache_entry translated = {
            .log = *log_out,
            .log_length = strlen(*log_out),
            .bitcode = *bitcode,
            .bitcode_size = *bitcode_size,
            .parts = (void *[1]){NULL}, /* no kernels, no shared globals */
            .part_sizes = (size_t[1]){0},
        };
        cc_cache_store(&key, &translated);
    }
    return err;
}
