/* cache_key.c - the keys of the kernel cache (cache.c): SHA-256 of the
 * process's identity (cpucl, its built-in library, LLVM and Clang, the
 * host), the environment variables that change code generation, the
 * build's kind and options, and its source or binary inputs; a kernel's
 * code is keyed by its program's key and its part. Builds that may read
 * something else (an #include, the clock) get no key, nor builds while the
 * cache is off or a debugging output is asked for. The identity also makes
 * CL_DRIVER_UUID_KHR. */
#include <link.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <llvm-c/Core.h>
#include <llvm/Config/llvm-config.h>

#include "builtins/builtins.h"
#include "compiler/internal.h"

#ifndef CPUCL_VERSION
#error "CPUCL_VERSION must name cpucl's version"
#endif

/* Hashes a field with its length, so that no two different sequences of
 * fields hash the same bytes. */
static void hash_field(struct cc_sha256 *s, const void *data, size_t size)
{
    uint64_t length = size;
    cc_sha256_update(s, &length, sizeof length);
    cc_sha256_update(s, data, size);
}

static void hash_string(struct cc_sha256 *s, const char *text)
{
    hash_field(s, text ? text : "", text ? strlen(text) + 1 : 0);
}

struct object_search {
    uintptr_t address;
    bool found;
    char path[4096];
    const void *build_id;
    size_t build_id_size;
};

/* The GNU build ID of the loaded object that contains `address` (the
 * linker's hash of its contents), or that object's path. */
static int search_object(struct dl_phdr_info *info, size_t size, void *data)
{
    struct object_search *search = data;
    bool contains = false;
    for (int i = 0; i < info->dlpi_phnum && !contains; i++) {
        const ElfW(Phdr) *segment = &info->dlpi_phdr[i];
        uintptr_t start = info->dlpi_addr + segment->p_vaddr;
        contains = segment->p_type == PT_LOAD && search->address >= start &&
                   search->address - start < segment->p_memsz;
    }
    if (!contains)
        return 0;
    search->found = true;
    snprintf(search->path, sizeof search->path, "%s",
             info->dlpi_name && *info->dlpi_name ? info->dlpi_name : "/proc/self/exe");
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *segment = &info->dlpi_phdr[i];
        if (segment->p_type != PT_NOTE)
            continue;
        const char *note = (const char *)(info->dlpi_addr + segment->p_vaddr);
        const char *end = note + segment->p_memsz;
        while ((size_t)(end - note) >= sizeof(ElfW(Nhdr))) {
            const ElfW(Nhdr) *header = (const ElfW(Nhdr) *)note;
            const char *name = note + sizeof *header;
            const char *desc = name + ((header->n_namesz + 3) & ~3u);
            if (desc + header->n_descsz > end)
                break;
            if (header->n_type == NT_GNU_BUILD_ID && header->n_namesz == 4 &&
                !memcmp(name, "GNU", 4)) {
                search->build_id = desc;
                search->build_id_size = header->n_descsz;
                return 1;
            }
            note = desc + ((header->n_descsz + 3) & ~3u);
        }
    }
    return 1;
}

/* Names the shared object (or executable) that holds `address`: its build
 * ID, which changes whenever its code or embedded data does, or else its
 * path, size and modification time. */
static void hash_object_identity(struct cc_sha256 *s, const void *address)
{
    struct object_search search = {.address = (uintptr_t)address};
    dl_iterate_phdr(search_object, &search);
    if (search.build_id) {
        hash_field(s, search.build_id, search.build_id_size);
        return;
    }
    struct stat status;
    memset(&status, 0, sizeof status);
    if (search.found)
        stat(search.path, &status);
    hash_string(s, search.path);
    uint64_t facts[4] = {(uint64_t)status.st_size, (uint64_t)status.st_ino,
                         (uint64_t)status.st_mtim.tv_sec, (uint64_t)status.st_mtim.tv_nsec};
    hash_field(s, facts, sizeof facts);
}

static pthread_once_t identity_once = PTHREAD_ONCE_INIT;
static unsigned char identity[CC_SHA256_SIZE];
static bool identity_ok;

/* Everything the code depends on that is fixed for the process: cpucl (its
 * version and the build ID of its library, which holds the compiler and
 * the embedded built-in library), the built-in library variant, LLVM and
 * Clang (versions, libLLVM's build ID, the resource headers), and the host
 * (triple, CPU, features, ABI level, data layout). */
static void compute_identity(void)
{
    const struct cc_host *host = cc_host();
    if (!host)
        return;
    struct cc_sha256 s;
    cc_sha256_init(&s);
    uint32_t format = CC_CACHE_FORMAT;
    hash_field(&s, &format, sizeof format);
    hash_string(&s, CPUCL_VERSION);
    hash_object_identity(&s, (const void *)cc_cache_key);
    hash_string(&s, builtins_identity(host->abi_cpu));
    unsigned version[3];
    LLVMGetVersion(&version[0], &version[1], &version[2]);
    hash_field(&s, version, sizeof version);
    hash_string(&s, LLVM_VERSION_STRING);
    hash_object_identity(&s, (const void *)LLVMGetVersion);
    hash_string(&s, CPUCL_CLANG_RESOURCE_INCLUDE);
    hash_string(&s, host->triple);
    hash_string(&s, host->cpu);
    hash_string(&s, host->features);
    hash_string(&s, host->abi_cpu);
    hash_string(&s, host->data_layout);
    hash_string(&s, cc_device_extensions());
    cc_sha256_final(&s, identity);
    identity_ok = true;
}

static bool variable_set(const char *name)
{
    const char *value = getenv(name);
    return value && *value && strcmp(value, "0");
}

bool cc_variable_not(const char *name, const char *off)
{
    const char *value = getenv(name);
    return !value || strcmp(value, off);
}

bool cc_switch_on(const char *name)
{
    return cc_variable_not(name, "0");
}

/* An environment variable that changes code generation: whether it is set,
 * and its value (CPUCL_NO_UNIFORM counts when set to anything). */
static void hash_variable(struct cc_sha256 *s, const char *name)
{
    const char *value = getenv(name);
    unsigned char set = value != NULL;
    cc_sha256_update(s, &set, 1);
    hash_string(s, value);
}

/* Whether the source may read something besides itself and the options:
 * a file (#include, #embed, __has_include) or the clock (__DATE__,
 * __TIME__, __TIMESTAMP__). Such builds are not cached; a directive is
 * recognised loosely (any '#', blanks, then the word), erring towards not
 * caching. */
static bool source_reads_outside(const char *source)
{
    static const char *const words[] = {"__has_include", "__DATE__", "__TIME__", "__TIMESTAMP__"};
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (strstr(source, words[i]))
            return true;
    for (const char *p = strchr(source, '#'); p; p = strchr(p + 1, '#')) {
        const char *q = p + 1;
        while (*q == ' ' || *q == '\t' || (*q == '\\' && q[1] == '\n'))
            q += *q == '\\' ? 2 : 1;
        if (!strncmp(q, "include", 7) || !strncmp(q, "embed", 5))
            return true;
    }
    return false;
}

/* Off, or a debugging output is asked for (a cached build would print
 * nothing), or LLVM's own options are set (CPUCL_LLVM_OPTIONS: any of them
 * may change the code), or the process identity is unknown. */
static bool cache_usable(void)
{
    const char *setting = getenv("CPUCL_CACHE");
    if (setting && !strcmp(setting, "0"))
        return false;
    if (variable_set("CPUCL_DUMP_IR") || getenv("CPUCL_VECTORIZE") || getenv("CPUCL_REGIONS") ||
        variable_set("CPUCL_LLVM_OPTIONS"))
        return false;
    pthread_once(&identity_once, compute_identity);
    return identity_ok;
}

bool cc_driver_uuid(unsigned char uuid[16])
{
    pthread_once(&identity_once, compute_identity);
    if (identity_ok)
        cc_name_uuid(identity, sizeof identity, uuid);
    return identity_ok;
}

static void key_start(struct cc_sha256 *s, const char *kind, const char *options)
{
    cc_sha256_init(s);
    cc_sha256_update(s, identity, sizeof identity);
    /* Read at every build (workgroup.c, regions.c, optimize.cpp,
     * loops.cpp), CPUCL_SPECIALIZE and CPUCL_STREAMING for launch copies
     * once per process (codegen.c); CPUCL_ABI_LEVEL is in the identity
     * through host->abi_cpu. */
    hash_variable(s, "CPUCL_BARRIERS");
    hash_variable(s, "CPUCL_REGION_FUNCTIONS");
    hash_variable(s, "CPUCL_LOOP_BARRIERS");
    hash_variable(s, "CPUCL_NO_UNIFORM");
    hash_variable(s, "CPUCL_SPECIALIZE");
    hash_variable(s, "CPUCL_STREAMING");
    hash_variable(s, "CPUCL_NARROW");
    hash_variable(s, "CPUCL_DIVERGENT");
    hash_variable(s, "CPUCL_ROWS");
    hash_variable(s, "CPUCL_JAM");
    hash_variable(s, "CPUCL_INTERLEAVE");
    hash_variable(s, "CPUCL_SCALARIZE");
    hash_string(s, kind);
    hash_string(s, options);
}

bool cc_cache_key(const char *source, const char *options, struct cc_cache_key *key)
{
    if (!cache_usable() || source_reads_outside(source))
        return false;
    struct cc_sha256 s;
    key_start(&s, "source", options);
    hash_string(&s, source);
    cc_sha256_final(&s, key->digest);
    return true;
}

bool cc_cache_key_inputs(const char *kind, const char *options, unsigned count,
                         const void *const *inputs, const size_t *sizes, struct cc_cache_key *key)
{
    if (!cache_usable())
        return false;
    struct cc_sha256 s;
    key_start(&s, kind, options);
    uint64_t n = count;
    hash_field(&s, &n, sizeof n);
    for (unsigned i = 0; i < count; i++) {
        uint64_t size = sizes[i];
        hash_field(&s, &size, sizeof size);
        cc_sha256_update(&s, inputs[i], sizes[i]);
    }
    cc_sha256_final(&s, key->digest);
    return true;
}

/* A part's code has the key SHA-256(program key, "code", index), a
 * launch's copy of it SHA-256(program key, "code", index, its facts). */
void cc_cache_code_key(const struct cc_cache_key *program, unsigned index, const void *variant,
                       size_t variant_size, struct cc_cache_key *key)
{
    struct cc_sha256 s;
    cc_sha256_init(&s);
    hash_field(&s, program->digest, sizeof program->digest);
    hash_string(&s, "code");
    uint64_t number = index;
    hash_field(&s, &number, sizeof number);
    if (variant)
        hash_field(&s, variant, variant_size);
    cc_sha256_final(&s, key->digest);
}
