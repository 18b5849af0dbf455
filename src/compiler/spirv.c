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
 * Specialization constants: cc_spirv_spec_constants reads their SpecIds and
 * types from the module's words; the values set are handed to the
 * translator as --spec-const=id:type:value.
 *
 * Vectors of 8 bytes or less at calls into the built-in library keep
 * SPIR's form (`<2 x i32>`) where the library has x86's coerced one
 * (`double`); library.c makes each such call again with the library's
 * type once linked.
 */
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
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

/* --- specialization constants --- */

enum {
    OP_TYPE_BOOL = 20,
    OP_TYPE_INT = 21,
    OP_TYPE_FLOAT = 22,
    OP_CONSTANT_FALSE = 42,
    OP_CONSTANT = 43,
    OP_CONSTANT_NULL = 46,
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

/* --- what llvm-spirv-15 cannot read ---
 *
 * Two forms of valid SPIR-V stop llvm-spirv-15 on an assertion; the CTS's
 * cl_khr_expect_assume modules have both, other producers too:
 *  - OpConstantNull of a scalar type (SPIR-V 3.32.7: the null value of
 *    any type; the translator takes only composites, pointers and opaque
 *    types): it becomes OpConstant 0 (integer and floating point, one or
 *    two literal words) or OpConstantFalse;
 *  - OpVectorShuffle of two vectors of different lengths (3.32.12 allows
 *    any two of one component type): the shorter one is first widened to
 *    the longer one's type by a shuffle of its own (a new id), and the
 *    indices into the second vector move with it;
 *  - OpCompositeConstruct of a vector from values that are not constants
 *    (the translator makes a constant vector of them): an OpUndef of the
 *    type and one OpCompositeInsert per component (a vector constituent
 *    taken apart with OpCompositeExtract), new ids but the last.
 * A copy of the module gets the rewrites; NULL when it needs none (or is
 * out of memory: the module then goes as it is). */

enum {
    OP_UNDEF = 1,
    OP_TYPE_VECTOR = 23,
    OP_VECTOR_SHUFFLE = 79,
    OP_COMPOSITE_CONSTRUCT = 80,
    OP_COMPOSITE_EXTRACT = 81,
    OP_COMPOSITE_INSERT = 82,
};

struct rewrite {
    uint32_t *words;
    size_t used, capacity;
    bool failed;
};

static void emit(struct rewrite *w, const uint32_t *words, size_t count)
{
    if (w->failed)
        return;
    if (w->used + count > w->capacity) {
        size_t capacity = 2 * (w->used + count);
        uint32_t *more = realloc(w->words, capacity * sizeof *more);
        if (!more) {
            w->failed = true;
            return;
        }
        w->words = more, w->capacity = capacity;
    }
    memcpy(w->words + w->used, words, count * sizeof *words);
    w->used += count;
}

/* The null constant `op` (OpConstantNull of a scalar type of `bits`, 1 for
 * bool) as a plain one. */
static void emit_null(struct rewrite *w, const uint32_t *op, unsigned bits)
{
    uint32_t literals = bits == 1 ? 0 : bits > 32 ? 2 : 1;
    uint32_t words[5] = {(3 + literals) << 16 | (bits == 1 ? OP_CONSTANT_FALSE : OP_CONSTANT),
                         op[1], op[2], 0, 0};
    emit(w, words, 3 + literals);
}

/* The shuffle `op` of vectors of `n1` and `n2` components (types t1, t2),
 * its shorter operand widened first as id `fresh`. */
static void emit_shuffle(struct rewrite *w, const uint32_t *op, uint32_t length, uint32_t n1,
                         uint32_t t1, uint32_t n2, uint32_t t2, uint32_t fresh)
{
    bool first = n1 < n2; /* which operand widens */
    uint32_t small = first ? n1 : n2, big = first ? n2 : n1, source = op[first ? 3 : 4];
    uint32_t widen[5 + 16] = {(5 + big) << 16 | OP_VECTOR_SHUFFLE, first ? t2 : t1, fresh, source,
                              source};
    for (uint32_t i = 0; i < big; i++)
        widen[5 + i] = i < small ? i : 0;
    emit(w, widen, 5 + big);
    uint32_t shuffle[4 + 16 + 1];
    memcpy(shuffle, op, 5 * sizeof *op);
    shuffle[first ? 3 : 4] = fresh;
    for (uint32_t i = 5; i < length; i++) {
        uint32_t index = op[i];
        /* an index into the second vector counts from the first's length */
        shuffle[i] = first && index != 0xffffffffu && index >= n1 ? index - n1 + n2 : index;
    }
    emit(w, shuffle, length);
}

/* The vector construction `op` (type `type`, of `count` components of type
 * `component`) as inserts into an undefined vector; new ids from *bound. */
static void emit_construct(struct rewrite *w, const uint32_t *op, uint32_t length, uint32_t count,
                           uint32_t component, const uint32_t *value_type,
                           const uint32_t *vector_length, uint32_t ids, uint32_t *bound)
{
    uint32_t type = op[1], vector = (*bound)++;
    uint32_t undef[3] = {3u << 16 | OP_UNDEF, type, vector};
    emit(w, undef, 3);
    uint32_t at = 0;
    for (uint32_t c = 3; c < length; c++) {
        uint32_t t = op[c] < ids ? value_type[op[c]] : 0, parts = t ? vector_length[t] : 0;
        for (uint32_t j = 0; j < (parts ? parts : 1); j++, at++) {
            uint32_t value = op[c];
            if (parts) {
                value = (*bound)++;
                uint32_t extract[5] = {5u << 16 | OP_COMPOSITE_EXTRACT, component, value, op[c], j};
                emit(w, extract, 5);
            }
            uint32_t result = at + 1 == count ? op[2] : (*bound)++;
            uint32_t insert[6] = {6u << 16 | OP_COMPOSITE_INSERT, type, result, value, vector, at};
            emit(w, insert, 6);
            vector = result;
        }
    }
}

static void *translator_fixes(const void *il, size_t size, size_t *out_size)
{
    const uint32_t *words = il;
    size_t n = size / 4;
    uint32_t ids = words[3], bound = ids; /* the arrays' size; the next new id */
    if (ids == 0 || ids > (1u << 24))
        return NULL;
    uint16_t *type_bits = calloc(ids, sizeof *type_bits); /* scalar type: width, 1 for bool */
    uint32_t *vector_length = calloc(ids, sizeof *vector_length); /* vector type: length */
    uint32_t *component = calloc(ids, sizeof *component);         /* vector type: component type */
    uint32_t *value_type = calloc(ids, sizeof *value_type);       /* value: its type */
    struct rewrite w = {0};
    size_t changed = 0;
    emit(&w, words, 5);
    for (size_t at = 5;
         at < n && type_bits && vector_length && component && value_type && !w.failed;) {
        uint32_t opcode = words[at] & 0xffff, length = words[at] >> 16;
        if (length == 0 || at + length > n) {
            changed = 0; /* the module goes as it is: the translator reports it */
            break;
        }
        const uint32_t *op = words + at;
        at += length;
        if (opcode == OP_TYPE_BOOL && length >= 2 && op[1] < ids)
            type_bits[op[1]] = 1;
        else if ((opcode == OP_TYPE_INT || opcode == OP_TYPE_FLOAT) && length >= 3 && op[1] < ids &&
                 op[2] >= 8 && op[2] <= 64)
            type_bits[op[1]] = (uint16_t)op[2];
        else if (opcode == OP_TYPE_VECTOR && length >= 4 && op[1] < ids && op[3] <= 16)
            vector_length[op[1]] = op[3], component[op[1]] = op[2];
        else if (length >= 3 && op[2] < ids && op[1] < ids &&
                 (type_bits[op[1]] || vector_length[op[1]]))
            value_type[op[2]] = op[1]; /* (a guess for instructions without a result;
                                        * only the operands of shuffles and
                                        * constructions are asked for) */
        if (opcode == OP_CONSTANT_NULL && length == 3 && op[1] < ids && type_bits[op[1]]) {
            emit_null(&w, op, type_bits[op[1]]);
            changed++;
            continue;
        }
        if (opcode == OP_VECTOR_SHUFFLE && length >= 5 && length <= 5 + 16 && op[3] < ids &&
            op[4] < ids && bound < (1u << 24)) {
            uint32_t t1 = value_type[op[3]], t2 = value_type[op[4]];
            uint32_t n1 = t1 ? vector_length[t1] : 0, n2 = t2 ? vector_length[t2] : 0;
            if (n1 && n2 && n1 != n2) {
                emit_shuffle(&w, op, length, n1, t1, n2, t2, bound++);
                changed++;
                continue;
            }
        }
        if (opcode == OP_COMPOSITE_CONSTRUCT && length >= 4 && op[1] < ids &&
            vector_length[op[1]] && bound < (1u << 24) - 64) {
            /* the constituents' components must add up to the vector's */
            uint32_t count = 0;
            for (uint32_t c = 3; c < length; c++) {
                uint32_t t = op[c] < ids ? value_type[op[c]] : 0;
                count += t && vector_length[t] ? vector_length[t] : 1;
            }
            if (count == vector_length[op[1]]) {
                emit_construct(&w, op, length, count, component[op[1]], value_type, vector_length,
                               ids, &bound);
                changed++;
                continue;
            }
        }
        emit(&w, op, length);
    }
    free(type_bits), free(vector_length), free(component), free(value_type);
    if (!changed || w.failed) {
        free(w.words);
        return NULL;
    }
    w.words[3] = bound;
    *out_size = w.used * 4;
    return w.words;
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

/* Runs llvm-spirv-15 -r on `spv`, writing `bc`; its messages go to `messages`. */
static int run_translator(const char *spv, const char *bc, const char *messages,
                          const struct cc_spec_constant *constants, unsigned num_constants)
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
    void *rewritten = translator_fixes(il, size, &rewritten_size);
    int written =
        rewritten ? write_file(spv, rewritten, rewritten_size) : write_file(spv, il, size);
    free(rewritten);
    if (written != 0) {
        cc_log_printf(&log, "error: cannot write the SPIR-V module for the translator\n");
        goto cleanup;
    }
    int rc = run_translator(spv, bc, messages, constants, num_constants);
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
