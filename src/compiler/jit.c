/* jit.c - the host target and the process-wide ORC JIT.
 *
 * One LLJIT serves every program. Each build compiles its module to an
 * object file itself (cc_target_machine gives it a private TargetMachine, so
 * concurrent builds share nothing but the JIT) and hands the object to the
 * JIT under its own ResourceTracker; cc_program_free removes it. All
 * programs live in the JIT's main JITDylib, so the only symbols a program
 * exports are its work-group functions, whose names carry a program serial
 * number (build.c). The main JITDylib resolves the C math library and
 * LLVM's code-generation helpers from this process (cc_jit_symbol_allowed),
 * and CC_PRINTF_SYMBOL to a forwarder to the device's printf.
 */
#include <elf.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <string.h>

#include <llvm-c/Error.h>
#include <llvm-c/LLJIT.h>
#include <llvm-c/Orc.h>
#include <llvm-c/Support.h>
#include <llvm-c/Target.h>

#include "compiler/internal.h"

/* clang's triple for OpenCL on this host (COMPILER-NOTES 1). */
static const char host_triple[] = "x86_64-unknown-linux-gnu";

static pthread_once_t once = PTHREAD_ONCE_INIT;
static struct cc_host host;
static bool host_ok;
static LLVMTargetRef target;
static LLVMOrcLLJITRef jit;

/* The process symbols JITed code may reach: the C math library (the built-in
 * library calls it for transcendental functions, and LLVM lowers intrinsics
 * such as llvm.sin to it), the memory functions LLVM emits for
 * llvm.memcpy/memset, and the "__" helpers of libgcc/compiler-rt that code
 * generation calls (128-bit division, half conversions, ...). Everything
 * else stays invisible, so a kernel's call to an undefined function fails to
 * link instead of reaching some unrelated function of the application. */
static const char *const math_functions[] = {
    "acos",      "acosh",    "asin",  "asinh",  "atan",      "atan2",     "atanh",     "cbrt",
    "ceil",      "copysign", "cos",   "cosh",   "erf",       "erfc",      "exp",       "exp10",
    "exp2",      "expm1",    "fabs",  "fdim",   "floor",     "fma",       "fmax",      "fmin",
    "fmod",      "frexp",    "hypot", "ilogb",  "ldexp",     "lgamma",    "lgamma_r",  "log",
    "log10",     "log1p",    "log2",  "logb",   "modf",      "nearbyint", "nextafter", "pow",
    "remainder", "remquo",   "rint",  "round",  "roundeven", "sin",       "sincos",    "sinh",
    "sqrt",      "tan",      "tanh",  "tgamma", "trunc",
};

bool cc_jit_symbol_allowed(const char *name)
{
    if (!strcmp(name, "memcpy") || !strcmp(name, "memmove") || !strcmp(name, "memset") ||
        !strcmp(name, "memcmp") || !strcmp(name, "bcmp"))
        return true;
    size_t length = strlen(name);
    for (size_t i = 0; i < sizeof math_functions / sizeof math_functions[0]; i++) {
        size_t n = strlen(math_functions[i]);
        if (!strncmp(name, math_functions[i], n)) {
            /* sin, sinf; lgamma_r is spelled lgammaf_r in float */
            if (length == n || (length == n + 1 && name[n] == 'f'))
                return true;
        }
    }
    if (!strcmp(name, "lgammaf_r"))
        return true;
    if (cc_vecmath_symbol(name)) /* libmvec's and SLEEF's vector functions (vecmath.c) */
        return true;
    return name[0] == '_' && name[1] == '_' && strncmp(name, "__cpucl", 7) != 0;
}

/* The device's printf (cc_set_printf). The JIT binds CC_PRINTF_SYMBOL once,
 * to forward_printf, so the device may set it at any time. */
static _Atomic(cc_printf_fn) device_printf;

void cc_set_printf(cc_printf_fn fn)
{
    atomic_store(&device_printf, fn);
}

static int forward_printf(const char *format, uint32_t count, const uint32_t *sizes,
                          const void *data)
{
    cc_printf_fn fn = atomic_load(&device_printf);
    return fn ? fn(format, count, sizes, data) : -1;
}

static LLVMOrcCSymbolMapPair runtime_symbol(const char *name, void *address)
{
    LLVMOrcCSymbolMapPair pair = {
        .Name = LLVMOrcExecutionSessionIntern(LLVMOrcLLJITGetExecutionSession(jit), name),
        .Sym = {.Address = (LLVMOrcExecutorAddress)(uintptr_t)address,
                .Flags = {.GenericFlags = LLVMJITSymbolGenericFlagsExported |
                                          LLVMJITSymbolGenericFlagsCallable}},
    };
    return pair;
}

/* printf's forwarder, device-side enqueue's functions (enqueue.c), the
 * per-lane math variants with the race-free lgamma (lanes.c), double ->
 * half (half.c) and the guarded math functions (guards.c). */
static LLVMErrorRef define_runtime_symbols(void)
{
    unsigned count, lanes_count, half_count, guard_count;
    const struct cc_runtime_symbol *enqueue = cc_enqueue_symbols(&count);
    const struct cc_runtime_symbol *lanes = cc_lanes_symbols(&lanes_count);
    const struct cc_runtime_symbol *half = cc_half_symbols(&half_count);
    const struct cc_runtime_symbol *guard = cc_guard_symbols(&guard_count);
    LLVMOrcCSymbolMapPair pairs[384];
    if (1 + count + lanes_count + half_count + guard_count > sizeof pairs / sizeof pairs[0])
        abort(); /* tables larger than this array are a bug here */
    unsigned n = 0;
    pairs[n++] = runtime_symbol(CC_PRINTF_SYMBOL, (void *)forward_printf);
    for (unsigned i = 0; i < count; i++)
        pairs[n++] = runtime_symbol(enqueue[i].name, enqueue[i].address);
    for (unsigned i = 0; i < lanes_count; i++)
        pairs[n++] = runtime_symbol(lanes[i].name, lanes[i].address);
    for (unsigned i = 0; i < half_count; i++)
        pairs[n++] = runtime_symbol(half[i].name, half[i].address);
    for (unsigned i = 0; i < guard_count; i++)
        pairs[n++] = runtime_symbol(guard[i].name, guard[i].address);
    return LLVMOrcJITDylibDefine(LLVMOrcLLJITGetMainJITDylib(jit),
                                 LLVMOrcAbsoluteSymbols(pairs, n));
}

static int process_symbol_filter(void *context, LLVMOrcSymbolStringPoolEntryRef symbol)
{
    return cc_jit_symbol_allowed(LLVMOrcSymbolStringPoolEntryStr(symbol));
}

/* Materialisation errors reach the lookup that triggered them (and so the
 * build log); the session's copy is dropped instead of printed to stderr. */
static void drop_session_error(void *context, LLVMErrorRef error)
{
    LLVMConsumeError(error);
}

/* Whether LLVM's feature list ("+avx2,-avx512f,...") turns a feature on. */
static bool lists_feature(const char *features, const char *name)
{
    size_t length = strlen(name);
    for (const char *item = features; *item;) {
        size_t item_length = strcspn(item, ",");
        if (item[0] == '+' && item_length == length + 1 && !strncmp(item + 1, name, length))
            return true;
        item += item_length + (item[item_length] == ',');
    }
    return false;
}

/* The x86-64 level whose vector calling convention the host has. Clang
 * passes vectors wider than 128 bits in registers only with AVX (256) or
 * AVX-512 (512), so kernels and the built-in library must be compiled for
 * the same level or their signatures disagree. */
static const char *abi_cpu_for(const char *features)
{
    if (lists_feature(features, "avx512f"))
        return "x86-64-v4";
    if (lists_feature(features, "avx") || lists_feature(features, "avx2"))
        return "x86-64-v3";
    return "x86-64";
}

/* 0, 1, 2 for x86-64, x86-64-v3, x86-64-v4; -1 for any other name. */
static int level_rank(const char *level)
{
    if (!strcmp(level, "x86-64"))
        return 0;
    if (!strcmp(level, "x86-64-v3"))
        return 1;
    return strcmp(level, "x86-64-v4") ? -1 : 2;
}

/* Whether a feature adds vector instructions beyond the level of the given
 * rank: AVX-512 and its successors beyond x86-64-v3; SSE3 and everything
 * after it (AVX, FMA, F16C, ...) beyond x86-64's SSE2. */
static bool beyond_level(const char *feature, int rank)
{
    static const char *const past_v3[] = {"avx512", "evex512", "avx10", "amx"};
    static const char *const past_v1[] = {"sse3", "ssse3", "sse4", "avx",       "fma",
                                          "f16c", "xop",   "vaes", "vpclmulqdq"};
    for (size_t i = 0; i < sizeof past_v3 / sizeof past_v3[0]; i++)
        if (rank < 2 && !strncmp(feature, past_v3[i], strlen(past_v3[i])))
            return true;
    for (size_t i = 0; i < sizeof past_v1 / sizeof past_v1[0]; i++)
        if (rank < 1 && !strncmp(feature, past_v1[i], strlen(past_v1[i])))
            return true;
    return false;
}

/* CPUCL_ABI_LEVEL below the host's: the code generator gets that level's
 * vector instructions only (each "+feature" beyond it becomes "-feature",
 * in place), so that what an AVX2 or SSE machine runs (vector widths,
 * register counts, libmvec's variants, the sub-group size) can be run and
 * tested on an AVX-512 one. */
static void limit_to_level(char *features, int rank)
{
    for (char *item = features; *item;) {
        size_t length = strcspn(item, ",");
        if (item[0] == '+' && beyond_level(item + 1, rank))
            item[0] = '-';
        item += length + (item[length] == ',');
    }
}

/* CPUCL_LLVM_OPTIONS: LLVM's own command-line options, separated by
 * spaces (for example "-time-passes"), for looking into the compiler. */
static void parse_llvm_options(void)
{
    const char *text = getenv("CPUCL_LLVM_OPTIONS");
    if (!text || !*text)
        return;
    char *copy = strdup(text);
    const char *args[33] = {"cpucl"};
    int count = 1;
    for (char *save = NULL, *word = copy ? strtok_r(copy, " ", &save) : NULL; word && count < 33;
         word = strtok_r(NULL, " ", &save))
        args[count++] = word;
    LLVMParseCommandLineOptions(count, args, "cpucl");
    /* LLVM keeps pointers to the words: copy stays allocated */
}

/* AMD's cores (znver*) run a gather as one load a lane and more, but
 * LLVM 19's cost model prices it below the loads it replaces, so the loop
 * vectorizer gathered where scalar loads are faster: on Zen 4 the bench's
 * image blur (every texel's four channels gathered) took 69 ms against 19
 * ms with "prefer-no-gather" (and transpose 10-12 against 7-9 ms), and no
 * kernel or built-in of bench/ got slower. The feature is LLVM's own
 * (Intel's parts that the Gather Data Sampling mitigation slowed down get
 * it by default); the features string also goes into the functions'
 * attributes (library.c) and the kernel cache's key. */
static char *prefer_no_gathers(const char *cpu, char *features)
{
    static const char more[] = ",+prefer-no-gather,+prefer-no-scatter";
    if (strncmp(cpu, "znver", 5))
        return features;
    size_t length = strlen(features);
    char *longer = malloc(length + sizeof more); /* kept for the process, as host.features was */
    if (!longer)
        return features;
    memcpy(longer, features, length);
    memcpy(longer + length, more, sizeof more);
    LLVMDisposeMessage(features);
    return longer;
}

static void initialize(void)
{
    char *error = NULL;
    parse_llvm_options();
    if (LLVMInitializeNativeTarget() || LLVMInitializeNativeAsmPrinter())
        return;
    if (LLVMGetTargetFromTriple(host_triple, &target, &error)) {
        LLVMDisposeMessage(error);
        return;
    }
    host.cpu = LLVMGetHostCPUName();
    char *features = LLVMGetHostCPUFeatures();
    host.abi_cpu = abi_cpu_for(features);
    /* CPUCL_ABI_LEVEL picks another variant of the built-in library, so that
     * all three can be tested on one (AVX-512) machine, and below the host's
     * level takes the wider instructions from the code generator too. A
     * level above the host's is still correct code for the host: every
     * function is inlined into the work-group functions, which keep the
     * host's features. */
    const char *level = getenv("CPUCL_ABI_LEVEL");
    if (level && level_rank(level) >= 0) {
        if (level_rank(level) < level_rank(host.abi_cpu))
            limit_to_level(features, level_rank(level));
        host.abi_cpu = level;
    }
    host.features = prefer_no_gathers(host.cpu, features);
    host.triple = host_triple;

    LLVMTargetMachineRef machine =
        LLVMCreateTargetMachine(target, host_triple, host.cpu, host.features,
                                LLVMCodeGenLevelAggressive, LLVMRelocPIC, LLVMCodeModelSmall);
    if (!machine)
        return;
    LLVMTargetDataRef layout = LLVMCreateTargetDataLayout(machine);
    char *layout_text = LLVMCopyStringRepOfTargetData(layout);
    LLVMDisposeTargetData(layout);
    host.data_layout = strdup(layout_text);
    LLVMDisposeMessage(layout_text);

    LLVMOrcLLJITBuilderRef builder = LLVMOrcCreateLLJITBuilder();
    LLVMOrcLLJITBuilderSetJITTargetMachineBuilder(
        builder, LLVMOrcJITTargetMachineBuilderCreateFromTargetMachine(machine));
    LLVMErrorRef failure = LLVMOrcCreateLLJIT(&jit, builder);
    if (failure) {
        LLVMConsumeError(failure);
        jit = NULL;
        return;
    }
    LLVMOrcExecutionSessionSetErrorReporter(LLVMOrcLLJITGetExecutionSession(jit),
                                            drop_session_error, NULL);
    LLVMOrcDefinitionGeneratorRef generator;
    failure = LLVMOrcCreateDynamicLibrarySearchGeneratorForProcess(
        &generator, LLVMOrcLLJITGetGlobalPrefix(jit), process_symbol_filter, NULL);
    if (failure) {
        LLVMConsumeError(failure);
        return;
    }
    LLVMOrcJITDylibAddGenerator(LLVMOrcLLJITGetMainJITDylib(jit), generator);
    /* The ICD loader opens cpucl with RTLD_LOCAL, so the libraries it
     * depends on are not in the process's global scope unless the
     * application links them too: search them by name. libm: the C math
     * functions; libmvec and SLEEF: the vector variants vecmath.c offers;
     * libgcc: half conversions (__extendhfsf2, ...; __truncdfhf2 is
     * half.c's, bound by define_runtime_symbols). */
    static const char *const libraries[] = {"libm.so.6", "libmvec.so.1", "libsleef.so.3",
                                            "libgcc_s.so.1"};
    for (size_t i = 0; i < sizeof libraries / sizeof libraries[0]; i++) {
        failure = LLVMOrcCreateDynamicLibrarySearchGeneratorForPath(
            &generator, libraries[i], LLVMOrcLLJITGetGlobalPrefix(jit), process_symbol_filter,
            NULL);
        if (failure)
            LLVMConsumeError(failure);
        else
            LLVMOrcJITDylibAddGenerator(LLVMOrcLLJITGetMainJITDylib(jit), generator);
    }
    failure = define_runtime_symbols();
    if (failure) {
        LLVMConsumeError(failure);
        return;
    }
    host_ok = host.data_layout != NULL;
}

const struct cc_host *cc_host(void)
{
    pthread_once(&once, initialize);
    return host_ok ? &host : NULL;
}

LLVMTargetMachineRef cc_target_machine(bool optimize)
{
    /* The target, triple and CPU are set up once, by cc_host: a process
     * whose first build is of a binary with the cache off (CPUCL_CACHE=0,
     * whose key would have asked for the host) reaches here first. */
    if (!cc_host())
        return NULL;
    /* PIC and the small code model: what JITLink expects on x86-64; calls to
     * the math library (far from the JIT's memory) go through its stubs. */
    return LLVMCreateTargetMachine(target, host_triple, host.cpu, host.features,
                                   optimize ? LLVMCodeGenLevelAggressive : LLVMCodeGenLevelNone,
                                   LLVMRelocPIC, LLVMCodeModelSmall);
}

static void log_error(struct cc_log *log, const char *what, LLVMErrorRef error)
{
    char *message = LLVMGetErrorMessage(error);
    cc_log_printf(log, "error: %s: %s\n", what, message);
    LLVMDisposeErrorMessage(message);
}

/* The section headers of an ELF64 object: their offset and count, checked
 * to lie inside it (an object of more than SHN_LORESERVE sections keeps
 * the count in section 0). False when it is no such object. */
static bool elf_sections(const char *bytes, size_t size, size_t *offset, size_t *count)
{
    Elf64_Ehdr header;
    if (size < sizeof header)
        return false;
    memcpy(&header, bytes, sizeof header);
    if (memcmp(header.e_ident, ELFMAG, SELFMAG) || header.e_ident[EI_CLASS] != ELFCLASS64 ||
        header.e_shentsize != sizeof(Elf64_Shdr) || header.e_shoff > size)
        return false;
    *offset = header.e_shoff;
    *count = header.e_shnum;
    Elf64_Shdr first;
    if (!*count && size - *offset >= sizeof first) {
        memcpy(&first, bytes + *offset, sizeof first);
        *count = first.sh_size;
    }
    return *count <= (size - *offset) / sizeof first;
}

/* Section i's header (i < the count elf_sections gave), and whether the
 * bytes it describes lie inside the object. */
static bool elf_section(const char *bytes, size_t size, size_t offset, size_t i,
                        Elf64_Shdr *section)
{
    memcpy(section, bytes + offset + i * sizeof *section, sizeof *section);
    return section->sh_offset <= size && section->sh_size <= size - section->sh_offset;
}

/* The size an ELF object's symbol table gives the symbol `name`, 0 when it
 * has none. */
static size_t symbol_size(const char *bytes, size_t size, const char *name)
{
    size_t offset, count, length = strlen(name);
    if (!elf_sections(bytes, size, &offset, &count))
        return 0;
    for (size_t i = 0; i < count; i++) {
        Elf64_Shdr symtab, strtab;
        if (!elf_section(bytes, size, offset, i, &symtab) || symtab.sh_type != SHT_SYMTAB ||
            symtab.sh_link >= count || !elf_section(bytes, size, offset, symtab.sh_link, &strtab))
            continue;
        for (size_t j = 0; j < symtab.sh_size / sizeof(Elf64_Sym); j++) {
            Elf64_Sym symbol;
            memcpy(&symbol, bytes + symtab.sh_offset + j * sizeof symbol, sizeof symbol);
            if (symbol.st_name < strtab.sh_size && length < strtab.sh_size - symbol.st_name &&
                !memcmp(bytes + strtab.sh_offset + symbol.st_name, name, length + 1))
                return symbol.st_size;
        }
    }
    return 0;
}

/* CPUCL_PERF_MAP=1, read once: each loaded work-group function gets a line
 * "address size name" in /tmp/perf-<pid>.map, where perf looks for the
 * names of JIT-compiled code (linux
 * tools/perf/Documentation/jit-interface.txt), so that `perf report` shows
 * kernels by name instead of [JIT] addresses. */
static pthread_once_t perf_once = PTHREAD_ONCE_INIT;
static bool perf_map;

static void read_perf_map(void)
{
    const char *wanted = getenv("CPUCL_PERF_MAP");
    perf_map = wanted && !strcmp(wanted, "1");
}

static void note_for_perf(const char *const *symbols, void *const *addresses,
                          const size_t *sizes, unsigned count)
{
    static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    char path[64];
    snprintf(path, sizeof path, "/tmp/perf-%ld.map", (long)getpid());
    pthread_mutex_lock(&lock);
    FILE *map = fopen(path, "a");
    for (unsigned i = 0; map && i < count; i++)
        fprintf(map, "%lx %zx %s\n", (unsigned long)(uintptr_t)addresses[i], sizes[i],
                symbols[i]);
    if (map)
        fclose(map);
    pthread_mutex_unlock(&lock);
}

cl_int cc_jit_add(LLVMMemoryBufferRef object, const char *const *symbols, unsigned count,
                  void **addresses, void **tracker_inout, struct cc_log *log)
{
    /* the symbols' sizes for the perf map, read before the JIT takes the
     * object */
    pthread_once(&perf_once, read_perf_map);
    size_t *sizes = perf_map ? calloc(count ? count : 1, sizeof *sizes) : NULL;
    for (unsigned i = 0; sizes && i < count; i++)
        sizes[i] = symbol_size(LLVMGetBufferStart(object), LLVMGetBufferSize(object), symbols[i]);
    LLVMOrcResourceTrackerRef tracker = *tracker_inout;
    bool created = !tracker;
    if (created)
        tracker = LLVMOrcJITDylibCreateResourceTracker(LLVMOrcLLJITGetMainJITDylib(jit));
    LLVMErrorRef error = LLVMOrcLLJITAddObjectFileWithRT(jit, tracker, object);
    if (error) {
        log_error(log, "cannot load the compiled program", error);
        if (created)
            LLVMOrcReleaseResourceTracker(tracker);
        free(sizes);
        return CL_BUILD_PROGRAM_FAILURE;
    }
    /* The first lookup links the object: the cost of code loading is paid
     * here, where the code is made, not at a launch. */
    for (unsigned i = 0; i < count; i++) {
        LLVMOrcExecutorAddress address = 0;
        error = LLVMOrcLLJITLookup(jit, &address, symbols[i]);
        if (error) {
            log_error(log, "cannot link the compiled program", error);
            if (created)
                cc_jit_remove(tracker);
            else
                *tracker_inout = tracker;
            free(sizes);
            return CL_BUILD_PROGRAM_FAILURE;
        }
        addresses[i] = (void *)(uintptr_t)address;
    }
    if (sizes)
        note_for_perf(symbols, addresses, sizes, count);
    free(sizes);
    *tracker_inout = tracker;
    return CL_SUCCESS;
}

void cc_jit_remove(void *tracker)
{
    LLVMErrorRef error = LLVMOrcResourceTrackerRemove(tracker);
    if (error)
        LLVMConsumeError(error);
    LLVMOrcReleaseResourceTracker(tracker);
}

/* Symbol names live in the object's string tables (.strtab), which the
 * symbol table points into by offset: a name of the same length can be
 * written over the old one, and nothing else in the object changes.
 * Every occurrence is replaced, so a name the linker stored as the tail of
 * a longer one (string-table suffix merging) is renamed too; only the
 * work-group functions end in the placeholder, so nothing else is. */
bool cc_object_rename(void *object, size_t size, const char *from, const char *to)
{
    char *bytes = object;
    size_t offset, count;
    if (!elf_sections(bytes, size, &offset, &count))
        return false;
    size_t length = strlen(from) + 1; /* with the terminating NUL */
    bool found = false;
    for (size_t i = 0; i < count; i++) {
        Elf64_Shdr section;
        if (!elf_section(bytes, size, offset, i, &section) || section.sh_type != SHT_STRTAB)
            continue;
        char *table = bytes + section.sh_offset, *end = table + section.sh_size;
        for (char *p = table; (p = memmem(p, (size_t)(end - p), from, length)); p += length) {
            memcpy(p, to, length - 1);
            found = true;
        }
    }
    return found;
}

const char *cc_host_cpu_name(void)
{
    const struct cc_host *h = cc_host();
    return h ? h->cpu : "unknown";
}

/* The width in bytes of the ABI level's vectors: SSE 16, AVX 32, AVX-512
 * 64. Follows CPUCL_ABI_LEVEL, like the built-in library. */
unsigned cc_vector_bytes(void)
{
    const struct cc_host *h = cc_host();
    int rank = h ? level_rank(h->abi_cpu) : 0;
    return rank == 2 ? 64 : rank == 1 ? 32 : 16;
}

unsigned cc_sub_group_size(void)
{
    return cc_vector_bytes() / 4;
}
