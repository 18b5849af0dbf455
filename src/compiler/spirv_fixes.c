/* spirv_fixes.c - valid SPIR-V that llvm-spirv-15 cannot read, rewritten
 * into SPIR-V it can (src/compiler/spirv.c hands it the result).
 *
 * The translator stops on an assertion (or misreads the module) at:
 *  - OpConstantNull of a scalar type (SPIR-V spec 3.32.7: the null value of
 *    any type; it takes only composites, pointers and opaque types): an
 *    OpConstant 0 (one or two literal words) or OpConstantFalse;
 *  - OpVectorShuffle of vectors of different lengths (3.32.12 allows any
 *    two of one component type): the shorter one is first widened to the
 *    longer one's type by a shuffle of its own, and the indices into the
 *    second vector move with it;
 *  - OpCompositeConstruct of a vector from values that are not constants
 *    (it makes a constant vector of them): inserts into an OpUndef, a
 *    vector constituent taken apart with OpCompositeExtract;
 *  - SPIR-V 1.4's OpCopyLogical of a struct into a struct of the same member
 *    types: extracts and inserts (or OpCopyObject for one type);
 *  - 1.4's OpPtrEqual, OpPtrNotEqual (OpConvertPtrToU to an integer type of
 *    the addressing model's width, then OpIEqual / OpINotEqual) and OpPtrDiff
 *    (both converted to the result type, subtracted, divided by the element
 *    size: a constant the module gets before its first function) for
 *    pointers to scalars and vectors;
 *  - 1.4's OpDecorateString and OpMemberDecorateString (UserSemantic, an
 *    annotation): dropped;
 *  - OpCopyMemory (misread even without memory operands): an OpLoad of the
 *    source's pointee and an OpStore, each with its memory operands; 1.4's
 *    second set of OpCopyMemorySized's memory operands (the source's):
 *    dropped, the first set kept;
 *  - a version above 1.4 (it knows no later one): 1.4, once what 1.5 and 1.6
 *    add for kernels that it cannot read is rewritten: 1.5's OpBitcast
 *    between a pointer and an integer scalar or vector of the pointer's
 *    width (OpConvertPtrToU or OpConvertUToPtr through an integer of the
 *    addressing model's width, with an OpBitcast to or from the vector);
 *    1.6's Nontemporal image operand (a hint), cleared: beside it the
 *    translator keeps a Lod of 0, asking for a mipmapped read.
 *    The rest it reads as 1.4: the UniformDecoration capability with the
 *    Uniform and UniformId decorations (which it drops), OpSDot, OpUDot and
 *    OpSUDot (SPV_KHR_integer_dot_product's opcodes), 1.5's dynamically
 *    uniform OpGroupNonUniformBroadcast index;
 *  - SPV_KHR_shader_clock's OpReadClockKHR (cl_khr_kernel_clock), which it
 *    does not know: a call of the library's clock_read_device (a ulong
 *    result) or clock_read_hilo_device (a uint2), imported functions
 *    declared before the first function (LinkageAttributes Import, and the
 *    Linkage capability if the module lacks it); every scope's clock is the
 *    same counter here (src/builtins/clock.cl). The extension and its
 *    ShaderClockKHR capability are dropped;
 *  - the OpExtension "SPV_EXT_shader_atomic_float16_add", which it does not
 *    know (cl_ext_float_atomics on half): dropped; it reads the extension's
 *    OpAtomicFAddEXT on half (SPV_EXT_shader_atomic_float_add's opcode) and
 *    its capability.
 * The CTS's cl_khr_expect_assume, spirv14_*, spirv15_* and spirv16_*
 * modules have all of these, other producers too. Two passes: the first
 * learns types, the values' types, which PtrDiff constants and which clock
 * functions are needed; the second writes the copy. New ids continue from
 * the module's bound. Each rewrite needs the types it reads to be known,
 * else the instruction goes as it is (and the translator reports it).
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/internal.h"

enum {
    OP_UNDEF = 1,
    OP_EXTENSION = 10,
    OP_MEMORY_MODEL = 14,
    OP_CAPABILITY = 17,
    OP_TYPE_BOOL = 20,
    OP_TYPE_INT = 21,
    OP_TYPE_FLOAT = 22,
    OP_TYPE_VECTOR = 23,
    OP_TYPE_STRUCT = 30,
    OP_TYPE_POINTER = 32,
    OP_TYPE_FUNCTION = 33,
    OP_CONSTANT_FALSE = 42,
    OP_CONSTANT = 43,
    OP_CONSTANT_NULL = 46,
    OP_FUNCTION = 54,
    OP_FUNCTION_END = 56,
    OP_FUNCTION_CALL = 57,
    OP_LOAD = 61,
    OP_STORE = 62,
    OP_COPY_MEMORY = 63,
    OP_COPY_MEMORY_SIZED = 64,
    OP_DECORATE = 71,
    OP_VECTOR_SHUFFLE = 79,
    OP_COMPOSITE_CONSTRUCT = 80,
    OP_COMPOSITE_EXTRACT = 81,
    OP_COMPOSITE_INSERT = 82,
    OP_COPY_OBJECT = 83,
    OP_IMAGE_SAMPLE_EXPLICIT_LOD = 88,
    OP_IMAGE_FETCH = 95,
    OP_IMAGE_READ = 98,
    OP_IMAGE_WRITE = 99,
    OP_CONVERT_PTR_TO_U = 117,
    OP_CONVERT_U_TO_PTR = 120,
    OP_BITCAST = 124,
    OP_I_SUB = 130,
    OP_S_DIV = 135,
    OP_I_EQUAL = 170,
    OP_I_NOT_EQUAL = 171,
    OP_COPY_LOGICAL = 400,
    OP_PTR_EQUAL = 401,
    OP_PTR_NOT_EQUAL = 402,
    OP_PTR_DIFF = 403,
    OP_READ_CLOCK = 5056,
    OP_DECORATE_STRING = 5632,
    OP_MEMBER_DECORATE_STRING = 5633,
    IMAGE_OPERAND_NONTEMPORAL = 0x4000,
    CAPABILITY_LINKAGE = 5,
    CAPABILITY_SHADER_CLOCK = 5055,
    DECORATION_LINKAGE_ATTRIBUTES = 41,
    LINKAGE_IMPORT = 1,
    VERSION_1_4 = 0x00010400,
    VERSION_1_6 = 0x00010600,
    ADDRESSING_PHYSICAL32 = 1,
    ADDRESSING_PHYSICAL64 = 2,
    MAX_ELEMENT_SIZES = 16,
};

/* What the first pass learns, by id (arrays of `ids` entries). */
struct facts {
    uint32_t ids;
    uint16_t *type_bits;     /* scalar type: its width, 1 for bool */
    bool *is_int;            /* OpTypeInt */
    uint32_t *vector_length; /* vector type: its length; its component type: */
    uint32_t *component;
    uint32_t *pointee;     /* pointer type: what it points to */
    size_t *struct_at;     /* struct type: word offset of its OpTypeStruct + 1 */
    uint32_t *value_type;  /* a value: its type (a guess for instructions without
                            * a result: only rewritten instructions' operands
                            * are asked for) */
    uint32_t address_bits; /* the addressing model's pointer width, 0 if logical */
    uint32_t address_int;  /* an OpTypeInt of that width, 0 if none */
    /* OpPtrDiff's divisors: (result type, element size) -> a new constant */
    struct {
        uint32_t type, size, id;
    } sizes[MAX_ELEMENT_SIZES];
    unsigned num_sizes;
    /* OpReadClockKHR's functions: [0] for a ulong result, [1] for a uint2:
     * the result type, the function's and its type's ids (new ones, or an
     * OpTypeFunction of the module's returning that type) */
    struct {
        uint32_t type, function, function_type;
        bool new_function_type;
    } clocks[2];
    bool has_linkage;
};

struct writer {
    uint32_t *words;
    size_t used, capacity;
    bool failed;
    uint32_t bound; /* the next new id */
};

static void emit(struct writer *w, const uint32_t *words, size_t count)
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

/* An instruction of up to 8 words: opcode, then `count` operands. */
static void emit_op(struct writer *w, uint32_t opcode, unsigned count, const uint32_t *operands)
{
    uint32_t words[8] = {(count + 1) << 16 | opcode};
    memcpy(words + 1, operands, count * sizeof *operands);
    emit(w, words, count + 1);
}

static uint32_t type_of(const struct facts *f, uint32_t value)
{
    return value < f->ids ? f->value_type[value] : 0;
}

/* Bytes of a scalar or vector type (a 3-vector takes 4 components'
 * room), 0 for any other. */
static uint32_t size_of(const struct facts *f, uint32_t type)
{
    if (type >= f->ids)
        return 0;
    if (f->type_bits[type] >= 8)
        return f->type_bits[type] / 8;
    uint32_t n = f->vector_length[type], component = f->component[type];
    if (n && component < f->ids && f->type_bits[component] >= 8) /* a vector of scalars */
        return (n == 3 ? 4 : n) * (f->type_bits[component] / 8);
    return 0;
}

/* The constant OpPtrDiff divides by for pointers a and b and result type
 * `type`, 0 when the element size is not known. */
static uint32_t *element_size_slot(struct facts *f, const uint32_t *op)
{
    uint32_t pointer = type_of(f, op[3]);
    uint32_t size = pointer && pointer < f->ids ? size_of(f, f->pointee[pointer]) : 0;
    if (!size || op[1] >= f->ids || !f->is_int[op[1]])
        return NULL;
    for (unsigned i = 0; i < f->num_sizes; i++)
        if (f->sizes[i].type == op[1] && f->sizes[i].size == size)
            return &f->sizes[i].id;
    if (f->num_sizes == MAX_ELEMENT_SIZES)
        return NULL;
    f->sizes[f->num_sizes].type = op[1];
    f->sizes[f->num_sizes].size = size;
    f->sizes[f->num_sizes].id = 0;
    return &f->sizes[f->num_sizes++].id;
}

/* The first pass. */
static void learn(struct facts *f, const uint32_t *words, size_t n, uint32_t *bound)
{
    for (size_t at = 5; at < n;) {
        uint32_t opcode = words[at] & 0xffff, length = words[at] >> 16;
        if (length == 0 || at + length > n)
            return;
        const uint32_t *op = words + at;
        if (opcode == OP_MEMORY_MODEL && length >= 3)
            f->address_bits = op[1] == ADDRESSING_PHYSICAL64   ? 64
                              : op[1] == ADDRESSING_PHYSICAL32 ? 32
                                                               : 0;
        else if (opcode == OP_TYPE_BOOL && length >= 2 && op[1] < f->ids)
            f->type_bits[op[1]] = 1;
        else if ((opcode == OP_TYPE_INT || opcode == OP_TYPE_FLOAT) && length >= 3 &&
                 op[1] < f->ids && op[2] >= 8 && op[2] <= 64) {
            f->type_bits[op[1]] = (uint16_t)op[2];
            f->is_int[op[1]] = opcode == OP_TYPE_INT;
            if (opcode == OP_TYPE_INT && op[2] == f->address_bits && !f->address_int)
                f->address_int = op[1];
        } else if (opcode == OP_TYPE_VECTOR && length >= 4 && op[1] < f->ids && op[3] <= 16)
            f->vector_length[op[1]] = op[3], f->component[op[1]] = op[2];
        else if (opcode == OP_TYPE_STRUCT && length >= 2 && op[1] < f->ids)
            f->struct_at[op[1]] = at + 1;
        else if (opcode == OP_TYPE_POINTER && length >= 4 && op[1] < f->ids)
            f->pointee[op[1]] = op[3];
        else if (length >= 3 && op[2] < f->ids && op[1] < f->ids &&
                 (f->type_bits[op[1]] || f->vector_length[op[1]] || f->struct_at[op[1]] ||
                  f->pointee[op[1]]))
            f->value_type[op[2]] = op[1];
        if (opcode == OP_CAPABILITY && length == 2 && op[1] == CAPABILITY_LINKAGE)
            f->has_linkage = true;
        if (opcode == OP_READ_CLOCK && length == 4 && op[1] < f->ids) {
            uint32_t t = op[1];
            int c = f->type_bits[t] == 64 && f->is_int[t] ? 0
                    : f->vector_length[t] == 2 && f->component[t] < f->ids &&
                            f->type_bits[f->component[t]] == 32 && f->is_int[f->component[t]]
                        ? 1
                        : -1;
            if (c >= 0 && !f->clocks[c].function) {
                f->clocks[c].type = t;
                f->clocks[c].function = (*bound)++;
            }
        }
        if (opcode == OP_PTR_DIFF && length == 5) {
            uint32_t *id = element_size_slot(f, op);
            if (id && !*id)
                *id = (*bound)++;
        }
        at += length;
    }
}

/* The clock functions' types: the module's OpTypeFunction of no parameters
 * returning the type, else a new one. */
static void find_clock_types(struct facts *f, const uint32_t *words, size_t n, uint32_t *bound)
{
    for (size_t at = 5; at < n;) {
        uint32_t opcode = words[at] & 0xffff, length = words[at] >> 16;
        if (length == 0 || at + length > n)
            break;
        for (int c = 0; c < 2; c++)
            if (opcode == OP_TYPE_FUNCTION && length == 3 && f->clocks[c].function &&
                !f->clocks[c].function_type && words[at + 2] == f->clocks[c].type)
                f->clocks[c].function_type = words[at + 1];
        at += length;
    }
    for (int c = 0; c < 2; c++)
        if (f->clocks[c].function && !f->clocks[c].function_type) {
            f->clocks[c].function_type = (*bound)++;
            f->clocks[c].new_function_type = true;
        }
}

/* Where the clock functions' pieces go: the Linkage capability before the
 * first instruction after the capabilities; their LinkageAttributes
 * decorations before the first instruction after the annotations (the
 * first type, constant or variable); their types and declarations before
 * the first function. */
static bool after_capabilities(uint32_t opcode)
{
    return opcode != OP_CAPABILITY;
}

static bool after_annotations(uint32_t opcode)
{
    /* the debug and annotation instructions, and what precedes them */
    static const uint16_t before[] = {2,  3,  4,  5,  6,  7,  10,  11,  14,  15,   16,
                                      17, 71, 72, 73, 74, 75, 330, 331, 332, 5632, 5633};
    for (unsigned i = 0; i < sizeof before / sizeof before[0]; i++)
        if (opcode == before[i])
            return false;
    return true;
}

static void emit_clock_linkage(struct writer *w, const struct facts *f)
{
    static const char *const names[2] = {"_Z17clock_read_devicev", "_Z22clock_read_hilo_devicev"};
    for (int c = 0; c < 2; c++) {
        if (!f->clocks[c].function)
            continue;
        uint32_t words[16] = {0, f->clocks[c].function, DECORATION_LINKAGE_ATTRIBUTES};
        size_t bytes = strlen(names[c]) + 1, name_words = (bytes + 3) / 4;
        memcpy(words + 3, names[c], bytes); /* the rest of the last word stays 0 */
        words[3 + name_words] = LINKAGE_IMPORT;
        words[0] = (uint32_t)(4 + name_words) << 16 | OP_DECORATE;
        emit(w, words, 4 + name_words);
    }
}

static void emit_clock_functions(struct writer *w, const struct facts *f)
{
    for (int c = 0; c < 2; c++)
        if (f->clocks[c].new_function_type)
            emit_op(w, OP_TYPE_FUNCTION, 2,
                    (uint32_t[]){f->clocks[c].function_type, f->clocks[c].type});
    for (int c = 0; c < 2; c++)
        if (f->clocks[c].function) {
            emit_op(w, OP_FUNCTION, 4,
                    (uint32_t[]){f->clocks[c].type, f->clocks[c].function, 0,
                                 f->clocks[c].function_type});
            emit_op(w, OP_FUNCTION_END, 0, (uint32_t[]){0});
        }
}

/* OpConstantNull of a scalar type as a plain zero constant. */
static bool fix_null(struct writer *w, const struct facts *f, const uint32_t *op, uint32_t length)
{
    unsigned bits = op[1] < f->ids ? f->type_bits[op[1]] : 0;
    if (length != 3 || !bits)
        return false;
    uint32_t operands[4] = {op[1], op[2], 0, 0};
    emit_op(w, bits == 1 ? OP_CONSTANT_FALSE : OP_CONSTANT,
            bits == 1   ? 2
            : bits > 32 ? 4
                        : 3,
            operands);
    return true;
}

/* OpVectorShuffle of vectors of different lengths: the shorter one widened
 * to the other's type first (its extra components any of its own). */
static bool fix_shuffle(struct writer *w, const struct facts *f, const uint32_t *op,
                        uint32_t length)
{
    if (length < 5 || length > 5 + 16)
        return false;
    uint32_t t1 = type_of(f, op[3]), t2 = type_of(f, op[4]);
    uint32_t n1 = t1 ? f->vector_length[t1] : 0, n2 = t2 ? f->vector_length[t2] : 0;
    if (!n1 || !n2 || n1 == n2)
        return false;
    bool first = n1 < n2; /* which operand widens */
    uint32_t small = first ? n1 : n2, big = first ? n2 : n1, source = op[first ? 3 : 4];
    uint32_t fresh = w->bound++;
    uint32_t widen[5 + 16] = {(5 + big) << 16 | OP_VECTOR_SHUFFLE, first ? t2 : t1, fresh, source,
                              source};
    for (uint32_t i = 0; i < big; i++)
        widen[5 + i] = i < small ? i : 0;
    emit(w, widen, 5 + big);
    uint32_t shuffle[5 + 16];
    memcpy(shuffle, op, length * sizeof *op);
    shuffle[first ? 3 : 4] = fresh;
    for (uint32_t i = 5; i < length; i++)
        /* an index into the second vector counts from the first's length */
        if (first && op[i] != 0xffffffffu && op[i] >= n1)
            shuffle[i] = op[i] - n1 + n2;
    emit(w, shuffle, length);
    return true;
}

/* OpCompositeConstruct of a vector: inserts into an OpUndef. */
static bool fix_construct(struct writer *w, const struct facts *f, const uint32_t *op,
                          uint32_t length)
{
    uint32_t type = op[1], count = 0;
    if (length < 4 || type >= f->ids || !f->vector_length[type])
        return false;
    for (uint32_t c = 3; c < length; c++) {
        uint32_t t = type_of(f, op[c]);
        count += t && f->vector_length[t] ? f->vector_length[t] : 1;
    }
    if (count != f->vector_length[type])
        return false;
    uint32_t vector = w->bound++, at = 0;
    emit_op(w, OP_UNDEF, 2, (uint32_t[]){type, vector});
    for (uint32_t c = 3; c < length; c++) {
        uint32_t t = type_of(f, op[c]), parts = t ? f->vector_length[t] : 0;
        for (uint32_t j = 0; j < (parts ? parts : 1); j++, at++) {
            uint32_t value = op[c];
            if (parts) {
                value = w->bound++;
                emit_op(w, OP_COMPOSITE_EXTRACT, 4,
                        (uint32_t[]){f->component[type], value, op[c], j});
            }
            uint32_t result = at + 1 == count ? op[2] : w->bound++;
            emit_op(w, OP_COMPOSITE_INSERT, 5, (uint32_t[]){type, result, value, vector, at});
            vector = result;
        }
    }
    return true;
}

/* OpCopyLogical between structs of the same member types. */
static bool fix_copy_logical(struct writer *w, const uint32_t *words, const struct facts *f,
                             const uint32_t *op, uint32_t length)
{
    uint32_t to = op[1], from = type_of(f, op[3]);
    if (length != 4 || !from || to >= f->ids)
        return false;
    if (from == to) {
        emit_op(w, OP_COPY_OBJECT, 3, op + 1);
        return true;
    }
    if (!f->struct_at[to] || !f->struct_at[from])
        return false;
    const uint32_t *a = words + f->struct_at[from] - 1, *b = words + f->struct_at[to] - 1;
    uint32_t members = (a[0] >> 16) - 2;
    if ((b[0] >> 16) - 2 != members || !members || memcmp(a + 2, b + 2, members * 4))
        return false;
    uint32_t value = w->bound++;
    emit_op(w, OP_UNDEF, 2, (uint32_t[]){to, value});
    for (uint32_t i = 0; i < members; i++) {
        uint32_t member = w->bound++, result = i + 1 == members ? op[2] : w->bound++;
        emit_op(w, OP_COMPOSITE_EXTRACT, 4, (uint32_t[]){a[2 + i], member, op[3], i});
        emit_op(w, OP_COMPOSITE_INSERT, 5, (uint32_t[]){to, result, member, value, i});
        value = result;
    }
    return true;
}

/* OpPtrEqual, OpPtrNotEqual, OpPtrDiff on the pointers' addresses. */
static bool fix_pointers(struct writer *w, struct facts *f, uint32_t opcode, const uint32_t *op,
                         uint32_t length)
{
    if (length != 5)
        return false;
    uint32_t type = opcode == OP_PTR_DIFF ? op[1] : f->address_int;
    uint32_t *divisor = opcode == OP_PTR_DIFF ? element_size_slot(f, op) : NULL;
    if (!type || (opcode == OP_PTR_DIFF && (!divisor || !*divisor)))
        return false;
    uint32_t a = w->bound++, b = w->bound++;
    emit_op(w, OP_CONVERT_PTR_TO_U, 3, (uint32_t[]){type, a, op[3]});
    emit_op(w, OP_CONVERT_PTR_TO_U, 3, (uint32_t[]){type, b, op[4]});
    if (opcode == OP_PTR_DIFF) {
        uint32_t bytes = w->bound++;
        emit_op(w, OP_I_SUB, 4, (uint32_t[]){type, bytes, a, b});
        emit_op(w, OP_S_DIV, 4, (uint32_t[]){type, op[2], bytes, *divisor});
    } else {
        emit_op(w, opcode == OP_PTR_EQUAL ? OP_I_EQUAL : OP_I_NOT_EQUAL, 4,
                (uint32_t[]){op[1], op[2], a, b});
    }
    return true;
}

/* The words of one set of memory operands at op[at]: the mask and, for
 * Aligned, MakePointerAvailable and MakePointerVisible, one word each. */
static uint32_t memory_operands(const uint32_t *op, uint32_t at)
{
    uint32_t mask = op[at];
    return 1 + !!(mask & 0x2) + !!(mask & 0x8) + !!(mask & 0x10);
}

/* OpCopyMemory (which llvm-spirv-15 misreads even without memory
 * operands) as an OpLoad of the source's pointee and an OpStore; of
 * OpCopyMemorySized with the source's memory operands after the target's
 * (1.4), the first set only. With one set, it is both pointers'. */
static bool fix_copy_memory(struct writer *w, const struct facts *f, uint32_t opcode,
                            const uint32_t *op, uint32_t length)
{
    uint32_t first = opcode == OP_COPY_MEMORY ? 3 : 4;
    uint32_t target_set = length > first ? memory_operands(op, first) : 0;
    uint32_t second = first + target_set;
    uint32_t source_set = length > second ? memory_operands(op, second) : target_set;
    if (second + (length > second ? source_set : 0) != length || target_set > 4)
        return false;
    if (opcode == OP_COPY_MEMORY_SIZED) {
        if (length == second)
            return false; /* nothing to drop */
        uint32_t copy[8];
        memcpy(copy, op, second * sizeof *op);
        copy[0] = second << 16 | opcode;
        emit(w, copy, second);
        return true;
    }
    uint32_t pointer = type_of(f, op[2]);
    uint32_t pointee = pointer && pointer < f->ids ? f->pointee[pointer] : 0;
    if (!pointee)
        return false;
    uint32_t value = w->bound++;
    uint32_t load[8] = {(4 + source_set) << 16 | OP_LOAD, pointee, value, op[2]};
    memcpy(load + 4, op + (length > second ? second : first), source_set * sizeof *op);
    emit(w, load, 4 + source_set);
    uint32_t store[8] = {(3 + target_set) << 16 | OP_STORE, op[1], value};
    memcpy(store + 3, op + first, target_set * sizeof *op);
    emit(w, store, 3 + target_set);
    return true;
}

/* 1.5's OpBitcast between a pointer and an integer scalar or vector of
 * its width, through OpConvertPtrToU / OpConvertUToPtr. */
static bool fix_bitcast(struct writer *w, const struct facts *f, const uint32_t *op,
                        uint32_t length)
{
    uint32_t to = op[1], from = type_of(f, op[3]), integer = f->address_int;
    if (length != 4 || !from || to >= f->ids || !integer)
        return false;
    bool to_pointer = f->pointee[to] != 0, from_pointer = f->pointee[from] != 0;
    uint32_t other = to_pointer ? from : to; /* the integer side */
    if (to_pointer == from_pointer || size_of(f, other) * 8 != f->address_bits)
        return false;
    if (to_pointer) {
        uint32_t address = op[3];
        if (other != integer) {
            address = w->bound++;
            emit_op(w, OP_BITCAST, 3, (uint32_t[]){integer, address, op[3]});
        }
        emit_op(w, OP_CONVERT_U_TO_PTR, 3, (uint32_t[]){to, op[2], address});
    } else if (other == integer) {
        emit_op(w, OP_CONVERT_PTR_TO_U, 3, (uint32_t[]){to, op[2], op[3]});
    } else {
        uint32_t address = w->bound++;
        emit_op(w, OP_CONVERT_PTR_TO_U, 3, (uint32_t[]){integer, address, op[3]});
        emit_op(w, OP_BITCAST, 3, (uint32_t[]){to, op[2], address});
    }
    return true;
}

/* OpReadClockKHR as a call of the clock function for its result type. */
static bool fix_read_clock(struct writer *w, const struct facts *f, const uint32_t *op,
                           uint32_t length)
{
    for (int c = 0; c < 2 && length == 4; c++)
        if (f->clocks[c].function && f->clocks[c].type == op[1]) {
            emit_op(w, OP_FUNCTION_CALL, 3, (uint32_t[]){op[1], op[2], f->clocks[c].function});
            return true;
        }
    return false;
}

/* 1.6's Nontemporal image operand cleared (the mask dropped when nothing
 * is left of it and it is the last word). */
static bool fix_nontemporal(struct writer *w, uint32_t opcode, const uint32_t *op, uint32_t length)
{
    uint32_t at = opcode == OP_IMAGE_WRITE ? 4 : 5;
    if (length <= at || length > 16 || !(op[at] & IMAGE_OPERAND_NONTEMPORAL))
        return false;
    uint32_t copy[16];
    memcpy(copy, op, length * sizeof *op);
    copy[at] &= ~(uint32_t)IMAGE_OPERAND_NONTEMPORAL;
    if (!copy[at] && at + 1 == length)
        length--;
    copy[0] = length << 16 | opcode;
    emit(w, copy, length);
    return true;
}

/* An OpExtension the translator does not know, though it reads what the
 * extension adds. */
static bool is_unknown_extension(const uint32_t *op, uint32_t length)
{
    static const char *const names[] = {"SPV_EXT_shader_atomic_float16_add",
                                        "SPV_KHR_shader_clock"};
    for (unsigned i = 0; i < sizeof names / sizeof names[0]; i++) {
        size_t size = strlen(names[i]) + 1;
        if ((length - 1) * 4 >= size && !memcmp(op + 1, names[i], size))
            return true;
    }
    return false;
}

/* The constants OpPtrDiff divides by, before the first function. */
static void emit_sizes(struct writer *w, const struct facts *f)
{
    for (unsigned i = 0; i < f->num_sizes; i++)
        if (f->sizes[i].id) {
            uint32_t operands[4] = {f->sizes[i].type, f->sizes[i].id, f->sizes[i].size, 0};
            emit_op(w, OP_CONSTANT, f->type_bits[f->sizes[i].type] > 32 ? 4 : 3, operands);
        }
}

void *cc_spirv_translator_fixes(const void *il, size_t size, size_t *out_size)
{
    const uint32_t *words = il;
    size_t n = size / 4;
    if (n < 5 || words[3] == 0 || words[3] > (1u << 24))
        return NULL;
    struct facts f = {.ids = words[3]};
    f.type_bits = calloc(f.ids, sizeof *f.type_bits);
    f.is_int = calloc(f.ids, sizeof *f.is_int);
    f.vector_length = calloc(f.ids, sizeof *f.vector_length);
    f.component = calloc(f.ids, sizeof *f.component);
    f.pointee = calloc(f.ids, sizeof *f.pointee);
    f.struct_at = calloc(f.ids, sizeof *f.struct_at);
    f.value_type = calloc(f.ids, sizeof *f.value_type);
    struct writer w = {.bound = f.ids};
    size_t changed = 0;
    bool usable = f.type_bits && f.is_int && f.vector_length && f.component && f.pointee &&
                  f.struct_at && f.value_type;
    if (usable) {
        learn(&f, words, n, &w.bound);
        find_clock_types(&f, words, n, &w.bound);
    }
    bool sizes_emitted = false, broken = false, linkage_emitted = false,
         decorations_emitted = false;
    emit(&w, words, 5);
    for (size_t at = 5; at < n && usable && !w.failed;) {
        uint32_t opcode = words[at] & 0xffff, length = words[at] >> 16;
        if (length == 0 || at + length > n || w.bound >= (1u << 24) - 64) {
            changed = 0; /* the module goes as it is: the translator reports it */
            broken = true;
            break;
        }
        const uint32_t *op = words + at;
        at += length;
        bool clocks = f.clocks[0].function || f.clocks[1].function;
        if (clocks && !linkage_emitted && after_capabilities(opcode)) {
            if (!f.has_linkage)
                emit_op(&w, OP_CAPABILITY, 1, (uint32_t[]){CAPABILITY_LINKAGE});
            linkage_emitted = true;
        }
        if (clocks && !decorations_emitted && after_annotations(opcode)) {
            emit_clock_linkage(&w, &f);
            decorations_emitted = true;
        }
        if (opcode == OP_FUNCTION && !sizes_emitted) {
            emit_sizes(&w, &f);
            if (clocks)
                emit_clock_functions(&w, &f);
            sizes_emitted = true;
        }
        bool fixed = false;
        switch (opcode) {
        case OP_CONSTANT_NULL: fixed = fix_null(&w, &f, op, length); break;
        case OP_VECTOR_SHUFFLE: fixed = fix_shuffle(&w, &f, op, length); break;
        case OP_COMPOSITE_CONSTRUCT: fixed = fix_construct(&w, &f, op, length); break;
        case OP_COPY_LOGICAL: fixed = fix_copy_logical(&w, words, &f, op, length); break;
        case OP_PTR_EQUAL:
        case OP_PTR_NOT_EQUAL:
        case OP_PTR_DIFF: fixed = fix_pointers(&w, &f, opcode, op, length); break;
        case OP_COPY_MEMORY:
        case OP_COPY_MEMORY_SIZED: fixed = fix_copy_memory(&w, &f, opcode, op, length); break;
        case OP_DECORATE_STRING:
        case OP_MEMBER_DECORATE_STRING: fixed = true; break;
        case OP_BITCAST: fixed = fix_bitcast(&w, &f, op, length); break;
        case OP_EXTENSION: fixed = is_unknown_extension(op, length); break;
        case OP_CAPABILITY: fixed = length == 2 && op[1] == CAPABILITY_SHADER_CLOCK; break;
        case OP_READ_CLOCK: fixed = fix_read_clock(&w, &f, op, length); break;
        case OP_IMAGE_SAMPLE_EXPLICIT_LOD:
        case OP_IMAGE_FETCH:
        case OP_IMAGE_READ:
        case OP_IMAGE_WRITE: fixed = fix_nontemporal(&w, opcode, op, length); break;
        default: break;
        }
        if (fixed)
            changed++;
        else
            emit(&w, op, length);
    }
    free(f.type_bits), free(f.is_int), free(f.vector_length), free(f.component);
    free(f.pointee), free(f.struct_at), free(f.value_type);
    /* the versions whose additions are rewritten above; a later one goes
     * as it is, for the translator to report */
    if (usable && !broken && !w.failed && words[1] > VERSION_1_4 && words[1] <= VERSION_1_6) {
        w.words[1] = VERSION_1_4;
        changed++;
    }
    if (!changed || w.failed) {
        free(w.words);
        return NULL;
    }
    w.words[3] = w.bound;
    *out_size = w.used * 4;
    return w.words;
}
