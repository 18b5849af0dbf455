/* spirv.c - SPIR-V programs (clCreateProgramWithIL, cl_khr_il_program).
 *
 * Takes SPIR-V 1.0-1.2 and gives LLVM 19 bitcode in the form the rest of
 * the pipeline expects from Clang, so that cc_link builds it like any other
 * object. The SPIRV-LLVM-Translator runs as a subprocess (llvm-spirv-15 -r
 * --spirv-target-env=CL2.0): loading its LLVM 15 library into this LLVM 19
 * process is not possible (COMPILER-NOTES 8). Its LLVM 15 bitcode reads into
 * LLVM 19; then the fix-ups of COMPILER-NOTES 8: host triple and data
 * layout, spir_func calls become C calls (a calling-convention mismatch
 * would make them poison), no noinline/optnone.
 *
 * Not yet: 8-byte vectors at calls into the built-in library keep SPIR's
 * <2 x i32> form where the library has x86's coerced one, and
 * specialization constants are not applied.
 */
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

/* Runs llvm-spirv-15 -r on `spv`, writing `bc`; its messages go to `messages`. */
static int run_translator(const char *spv, const char *bc, const char *messages)
{
    char output[512];
    snprintf(output, sizeof output, "%s", bc);
    char *argv[] = {(char *)CPUCL_LLVM_SPIRV, (char *)"-r",
                    (char *)"--spirv-target-env=CL2.0", (char *)spv, (char *)"-o", output, NULL};
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, messages, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    posix_spawn_file_actions_adddup2(&actions, 1, 2);
    pid_t pid;
    int rc = posix_spawnp(&pid, argv[0], &actions, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&actions);
    if (rc != 0)
        return -1;
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            return -1;
    return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 1;
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

cl_int cc_translate_spirv(const void *il, size_t size, char **log_out, void **bitcode,
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
    if (write_file(spv, il, size) != 0) {
        cc_log_printf(&log, "error: cannot write the SPIR-V module for the translator\n");
        goto cleanup;
    }
    int rc = run_translator(spv, bc, messages);
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
