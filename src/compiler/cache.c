/* cache.c - the on-disk kernel cache (DESIGN.md: "a second run of an
 * application builds its programs from the cache").
 *
 * What: for a program built from source (or linked, or translated), what
 * the build makes before optimisation: the build log, the kernel table,
 * the program's bitcode (CL_PROGRAM_BINARIES) and its parts, one module per
 * work-group function (parts.cpp). A cached build skips the front end, the
 * built-in library and the work-group passes. Each part's object file, made
 * at the kernel's first use (codegen.c), is an entry of its own, under a
 * key derived from the program's and the part's number: a cached kernel
 * skips O3 and code generation too, and only loads the object (README.md
 * has the measurements behind the choice).
 *
 * The keys (what makes two builds the same) are cache_key.c's.
 *
 * Where: $CPUCL_CACHE_DIR, else $XDG_CACHE_HOME/cpucl, else
 * $HOME/.cache/cpucl, created when missing; CPUCL_CACHE=0 turns the cache
 * off. One file an entry, named by its key in hex.
 *
 * An entry is a header (magic, format version, key, payload size, SHA-256
 * of the payload) and the payload. It is written to a temporary file in
 * the same folder and renamed over the entry, so a reader sees a whole old
 * entry or a whole new one, and processes building the same program at
 * once need no lock: the last rename wins, and all wrote the same thing.
 * A short, damaged or foreign file is a miss; the build then compiles and
 * writes the entry again. Nothing here ever fails a build.
 *
 * Size: when the folder's entries take more than CPUCL_CACHE_MAX_SIZE
 * bytes of disk (default 1 GiB), the least recently used go until they
 * fit; a hit sets its entry's access time (explicitly, since file systems
 * mounted relatime or noatime would not), so "used" means loaded or stored.
 * What the entries take is kept in the folder's ledger (LEDGER: the total,
 * eight bytes, under flock): each store adds its blocks, and only a store
 * that takes the total past the bound, or finds no ledger, scans the
 * folder (a stat per entry: a second for a full folder), evicts down to
 * seven eighths of the bound and writes the true total. A store over an
 * entry, or an entry removed by hand, makes the ledger count high, which
 * the next scan corrects.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "compiler/internal.h"

static const char magic[8] = "cpuclKC\n";

struct entry_header {
    char magic[8];
    uint32_t format;
    uint32_t header_size;
    unsigned char key[CC_SHA256_SIZE];
    uint64_t payload_size;
    unsigned char checksum[CC_SHA256_SIZE]; /* SHA-256 of the payload */
};

/* --- files --- */

/* The cache folder, malloc'd, or NULL when no variable names one. */
static char *cache_directory(void)
{
    const char *dir = getenv("CPUCL_CACHE_DIR");
    const char *suffix = "";
    if (!dir || !*dir) {
        /* XDG Base Directory: a relative XDG_CACHE_HOME is to be ignored */
        dir = getenv("XDG_CACHE_HOME");
        suffix = "/cpucl";
        if (!dir || dir[0] != '/') {
            dir = getenv("HOME");
            suffix = "/.cache/cpucl";
        }
    }
    if (!dir || !*dir)
        return NULL;
    size_t length = strlen(dir) + strlen(suffix) + 1;
    char *path = malloc(length);
    if (path)
        snprintf(path, length, "%s%s", dir, suffix);
    return path;
}

/* "<dir>/<key in hex><suffix>", malloc'd. */
static char *entry_path(const char *dir, const struct cc_cache_key *key, const char *suffix)
{
    size_t length = strlen(dir) + 1 + 2 * CC_SHA256_SIZE + strlen(suffix) + 1;
    char *path = malloc(length);
    if (!path)
        return NULL;
    char *end = path + sprintf(path, "%s/", dir);
    for (int i = 0; i < CC_SHA256_SIZE; i++)
        end += sprintf(end, "%02x", key->digest[i]);
    strcpy(end, suffix);
    return path;
}

/* mkdir -p, private to the user: the entries are code that will run. */
static bool make_directories(char *path)
{
    for (char *slash = strchr(path + 1, '/');; slash = strchr(slash + 1, '/')) {
        if (slash)
            *slash = 0;
        bool ok = mkdir(path, 0700) == 0 || errno == EEXIST;
        if (slash)
            *slash = '/';
        if (!ok)
            return false;
        if (!slash)
            return true;
    }
}

static bool write_all(int fd, const void *data, size_t size)
{
    const char *p = data;
    while (size) {
        ssize_t n = write(fd, p, size);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        p += n;
        size -= (size_t)n;
    }
    return true;
}

static bool read_all(int fd, void *data, size_t size)
{
    char *p = data;
    while (size) {
        ssize_t n = read(fd, p, size);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        p += n;
        size -= (size_t)n;
    }
    return true;
}

/* --- the payload --- */

struct writer {
    unsigned char *data;
    size_t length, capacity;
    bool failed;
};

static void put(struct writer *w, const void *bytes, size_t size)
{
    if (w->failed || !size)
        return;
    if (w->length + size > w->capacity) {
        size_t capacity = w->capacity ? w->capacity : 4096;
        while (capacity < w->length + size)
            capacity *= 2;
        unsigned char *grown = realloc(w->data, capacity);
        if (!grown) {
            w->failed = true;
            return;
        }
        w->data = grown;
        w->capacity = capacity;
    }
    memcpy(w->data + w->length, bytes, size);
    w->length += size;
}

/* Native byte order: the key holds the host's triple, so an entry is only
 * ever read on the kind of machine that wrote it. */
static void put_u64(struct writer *w, uint64_t value)
{
    put(w, &value, sizeof value);
}

static void put_bytes(struct writer *w, const void *bytes, size_t size)
{
    put_u64(w, size);
    put(w, bytes, size);
}

/* NULL is stored as the length UINT64_MAX. */
static void put_string(struct writer *w, const char *text)
{
    if (!text)
        put_u64(w, UINT64_MAX);
    else
        put_bytes(w, text, strlen(text));
}

static void put_kernel(struct writer *w, const struct cc_kernel_info *kernel)
{
    put_string(w, kernel->name);
    put_u64(w, kernel->num_args);
    put_u64(w, kernel->arg_block_size);
    for (int d = 0; d < 3; d++) {
        put_u64(w, kernel->reqd_work_group_size[d]);
        put_u64(w, kernel->work_group_size_hint[d]);
    }
    put_string(w, kernel->attributes);
    put_u64(w, kernel->local_mem_size);
    put_u64(w, kernel->private_mem_size);
    put_u64(w, kernel->sub_group_size);
    put_u64(w, kernel->is_block);
    put_u64(w, kernel->fibers);
    put_u64(w, kernel->context_size);
    for (unsigned a = 0; a < kernel->num_args; a++) {
        const struct cc_arg_info *arg = &kernel->args[a];
        put_u64(w, arg->kind);
        put_u64(w, arg->address_qualifier);
        put_u64(w, arg->access_qualifier);
        put_u64(w, arg->type_qualifier);
        put_u64(w, arg->size);
        put_u64(w, arg->offset);
        put_string(w, arg->type_name);
        put_string(w, arg->name);
    }
}

static void put_entry(struct writer *w, const struct cc_cache_entry *entry)
{
    put_bytes(w, entry->log, entry->log_length);
    put_bytes(w, entry->bitcode, entry->bitcode_size);
    put_u64(w, entry->global_variable_size);
    put_u64(w, entry->num_kernels);
    for (unsigned i = 0; i < entry->num_kernels; i++)
        put_kernel(w, &entry->kernels[i]);
    for (unsigned i = 0; i <= entry->num_kernels; i++)
        put_bytes(w, entry->parts[i], entry->part_sizes[i]);
    put_u64(w, entry->num_shared);
    put_u64(w, entry->opt_disable);
}

/* Reading checks every length against what is left: the checksum makes a
 * damaged payload unlikely to get here, the checks make it harmless. */
struct reader {
    const unsigned char *p, *end;
    bool failed;
};

static uint64_t get_u64(struct reader *r)
{
    uint64_t value = 0;
    if ((size_t)(r->end - r->p) < sizeof value) {
        r->failed = true;
        return 0;
    }
    memcpy(&value, r->p, sizeof value);
    r->p += sizeof value;
    return value;
}

/* A malloc'd copy of the next bytes, NUL-terminated (also when empty);
 * NULL for a stored NULL or on failure (then r->failed). */
static void *get_copy(struct reader *r, size_t *size)
{
    uint64_t length = get_u64(r);
    if (length == UINT64_MAX || r->failed)
        return NULL;
    char *copy = length <= (uint64_t)(r->end - r->p) ? malloc(length + 1) : NULL;
    if (!copy) {
        r->failed = true;
        return NULL;
    }
    memcpy(copy, r->p, length);
    copy[length] = 0;
    r->p += length;
    if (size)
        *size = length;
    return copy;
}

/* A string that may not be NULL. */
static char *get_string(struct reader *r)
{
    char *text = get_copy(r, NULL);
    if (!text)
        r->failed = true;
    return text;
}

static void get_kernel(struct reader *r, struct cc_kernel_info *kernel)
{
    kernel->name = get_string(r);
    uint64_t num_args = get_u64(r);
    kernel->arg_block_size = get_u64(r);
    for (int d = 0; d < 3; d++) {
        kernel->reqd_work_group_size[d] = get_u64(r);
        kernel->work_group_size_hint[d] = get_u64(r);
    }
    kernel->attributes = get_string(r);
    kernel->local_mem_size = get_u64(r);
    kernel->private_mem_size = get_u64(r);
    uint64_t sub_group_size = get_u64(r);
    if (sub_group_size != 1 && sub_group_size != cc_sub_group_size())
        r->failed = true; /* an entry for another host's width */
    kernel->sub_group_size = (unsigned)sub_group_size;
    kernel->is_block = get_u64(r) != 0;
    kernel->fibers = get_u64(r) != 0;
    kernel->context_size = get_u64(r);
    /* each argument takes at least 64 bytes of the payload */
    if (r->failed || num_args > (uint64_t)(r->end - r->p) / 64) {
        r->failed = true;
        return;
    }
    kernel->args = calloc(num_args ? num_args : 1, sizeof *kernel->args);
    if (!kernel->args) {
        r->failed = true;
        return;
    }
    kernel->num_args = (unsigned)num_args;
    for (unsigned a = 0; a < kernel->num_args && !r->failed; a++) {
        struct cc_arg_info *arg = &kernel->args[a];
        arg->kind = (enum cc_arg_kind)get_u64(r);
        arg->address_qualifier = (cl_kernel_arg_address_qualifier)get_u64(r);
        arg->access_qualifier = (cl_kernel_arg_access_qualifier)get_u64(r);
        arg->type_qualifier = (cl_kernel_arg_type_qualifier)get_u64(r);
        arg->size = get_u64(r);
        arg->offset = get_u64(r);
        arg->type_name = get_string(r);
        arg->name = get_copy(r, NULL);
    }
}

static bool get_entry(struct reader *r, struct cc_cache_entry *entry)
{
    entry->log = get_copy(r, &entry->log_length);
    entry->bitcode = get_copy(r, &entry->bitcode_size);
    entry->global_variable_size = get_u64(r);
    uint64_t num_kernels = get_u64(r);
    /* each kernel takes at least 96 bytes of the payload */
    if (r->failed || num_kernels > (uint64_t)(r->end - r->p) / 96)
        return false;
    entry->kernels = calloc(num_kernels ? num_kernels : 1, sizeof *entry->kernels);
    entry->parts = calloc(num_kernels + 1, sizeof *entry->parts);
    entry->part_sizes = calloc(num_kernels + 1, sizeof *entry->part_sizes);
    if (!entry->kernels || !entry->parts || !entry->part_sizes)
        return false;
    entry->num_kernels = (unsigned)num_kernels;
    for (unsigned i = 0; i < entry->num_kernels && !r->failed; i++)
        get_kernel(r, &entry->kernels[i]);
    for (unsigned i = 0; i <= entry->num_kernels && !r->failed; i++)
        entry->parts[i] = get_copy(r, &entry->part_sizes[i]);
    entry->num_shared = (unsigned)get_u64(r);
    entry->opt_disable = get_u64(r) != 0;
    for (unsigned i = 0; i < entry->num_kernels; i++)
        if (!entry->parts[i] || !entry->part_sizes[i])
            return false;
    if (entry->num_shared && !entry->part_sizes[entry->num_kernels])
        return false;
    return !r->failed && entry->log && r->p == r->end;
}

void cc_cache_entry_free(struct cc_cache_entry *entry)
{
    free(entry->log);
    free(entry->bitcode);
    for (unsigned i = 0; entry->parts && i <= entry->num_kernels; i++)
        free(entry->parts[i]);
    free(entry->parts);
    free(entry->part_sizes);
    cc_free_kernels(entry->kernels, entry->num_kernels);
    memset(entry, 0, sizeof *entry);
}

/* --- loading and storing --- */

/* The whole file at `path` if it is a valid entry of `key`, else NULL. */
static unsigned char *read_entry(const char *path, const struct cc_cache_key *key,
                                 size_t *payload_size)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return NULL;
    struct stat status;
    struct entry_header header;
    unsigned char *data = NULL;
    if (fstat(fd, &status) || (size_t)status.st_size < sizeof header)
        goto fail;
    size_t size = (size_t)status.st_size;
    if (!(data = malloc(size)) || !read_all(fd, data, size))
        goto fail;
    memcpy(&header, data, sizeof header);
    if (memcmp(header.magic, magic, sizeof magic) || header.format != CC_CACHE_FORMAT ||
        header.header_size != sizeof header || memcmp(header.key, key->digest, sizeof header.key) ||
        header.payload_size != size - sizeof header)
        goto fail;
    unsigned char checksum[CC_SHA256_SIZE];
    cc_sha256(data + sizeof header, size - sizeof header, checksum);
    if (memcmp(checksum, header.checksum, sizeof checksum))
        goto fail;
    close(fd);
    *payload_size = size - sizeof header;
    return data;
fail:
    free(data);
    close(fd);
    return NULL;
}

/* --- the size bound --- */

#define DEFAULT_MAX_SIZE (1ull << 30)

static unsigned long long max_size(void)
{
    const char *text = getenv("CPUCL_CACHE_MAX_SIZE");
    if (!text || !*text)
        return DEFAULT_MAX_SIZE;
    char *end;
    unsigned long long value = strtoull(text, &end, 10);
    return *end ? DEFAULT_MAX_SIZE : value;
}

/* A program's entry is named by its key in hex; a part's code entry has
 * CODE_SUFFIX after it. */
#define CODE_SUFFIX ".o"
/* a store writes its entry to a file named with this and a random tail,
 * then renames it */
#define TEMPORARY_SUFFIX ".tmp-"

struct file_use {
    char name[2 * CC_SHA256_SIZE + sizeof CODE_SUFFIX]; /* either name, NUL-terminated */
    unsigned long long size;                            /* bytes it takes on disk */
    struct timespec used;
};

static int older_first(const void *a, const void *b)
{
    const struct timespec *x = &((const struct file_use *)a)->used;
    const struct timespec *y = &((const struct file_use *)b)->used;
    if (x->tv_sec != y->tv_sec)
        return x->tv_sec < y->tv_sec ? -1 : 1;
    return x->tv_nsec < y->tv_nsec ? -1 : x->tv_nsec > y->tv_nsec;
}

static bool is_entry_name(const char *name)
{
    size_t length = strlen(name);
    if (length == 2 * CC_SHA256_SIZE + strlen(CODE_SUFFIX) &&
        !strcmp(name + 2 * CC_SHA256_SIZE, CODE_SUFFIX))
        length = 2 * CC_SHA256_SIZE;
    else if (length != 2 * CC_SHA256_SIZE)
        return false;
    for (const char *p = name; p < name + length; p++)
        if (!((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f')))
            return false;
    return true;
}

#define LEDGER ".usage"

/* Opens the ledger of `dir` (creating it when `create`) and locks it; -1
 * when it cannot. */
static int open_ledger(const char *dir, bool create)
{
    char path[4096];
    if (snprintf(path, sizeof path, "%s/" LEDGER, dir) >= (int)sizeof path)
        return -1;
    int fd = open(path, O_RDWR | O_CLOEXEC | (create ? O_CREAT : 0), 0600);
    if (fd >= 0 && flock(fd, LOCK_EX)) {
        close(fd);
        fd = -1;
    }
    return fd;
}

/* Adds `bytes` to the ledger: the new total, or ULLONG_MAX when there is no
 * readable ledger (then the caller scans). */
static unsigned long long ledger_add(const char *dir, unsigned long long bytes)
{
    int fd = open_ledger(dir, false);
    if (fd < 0)
        return ULLONG_MAX;
    unsigned long long total = ULLONG_MAX, held;
    if (pread(fd, &held, sizeof held, 0) == sizeof held) {
        held += bytes;
        if (pwrite(fd, &held, sizeof held, 0) == sizeof held)
            total = held;
    }
    close(fd); /* and unlocks */
    return total;
}

static void ledger_set(const char *dir, unsigned long long total)
{
    int fd = open_ledger(dir, true);
    if (fd < 0)
        return;
    if (pwrite(fd, &total, sizeof total, 0) != sizeof total)
        (void)ftruncate(fd, 0); /* unreadable: the next store scans */
    close(fd);
}

/* When the entries of `dir` take more than the bound, removes the least
 * recently used until the rest take seven eighths of it; writes what is
 * left to the ledger. Only files named like entries count and go; a file
 * another process removed first is simply gone. */
static void evict(const char *dir)
{
    unsigned long long limit = max_size(), total = 0;
    DIR *folder = opendir(dir);
    if (!folder)
        return;
    struct file_use *files = NULL;
    size_t count = 0, capacity = 0;
    int fd = dirfd(folder);
    time_t now = time(NULL);
    for (struct dirent *e; (e = readdir(folder));) {
        struct stat status;
        /* a store's temporary file left by a process that died before its
         * rename: gone once it is an hour old (a live store takes
         * milliseconds) */
        if (strstr(e->d_name, TEMPORARY_SUFFIX) && !fstatat(fd, e->d_name, &status, 0) &&
            S_ISREG(status.st_mode) && status.st_mtim.tv_sec + 3600 < now) {
            unlinkat(fd, e->d_name, 0);
            continue;
        }
        if (!is_entry_name(e->d_name) || fstatat(fd, e->d_name, &status, 0) ||
            !S_ISREG(status.st_mode))
            continue;
        if (count == capacity) {
            size_t more = capacity ? 2 * capacity : 64;
            struct file_use *grown = realloc(files, more * sizeof *grown);
            if (!grown)
                break;
            files = grown;
            capacity = more;
        }
        /* is_entry_name bounded the length: a code entry's name and its
         * NUL fit (a name without its NUL would be unlinked as another) */
        snprintf(files[count].name, sizeof files[count].name, "%s", e->d_name);
        /* the blocks it holds: thousands of entries of a few hundred
         * bytes take 4 KiB each */
        files[count].size = (unsigned long long)status.st_blocks * 512;
        files[count].used = status.st_atim;
        total += files[count].size;
        count++;
    }
    /* down to seven eighths of the bound, so that the stores that follow
     * do not each scan again */
    if (total > limit) {
        unsigned long long target = limit - limit / 8;
        qsort(files, count, sizeof *files, older_first);
        for (size_t i = 0; i < count && total > target; i++)
            if (unlinkat(fd, files[i].name, 0) == 0 || errno == ENOENT)
                total -= files[i].size;
    }
    free(files);
    closedir(folder);
    ledger_set(dir, total);
}

/* The payload of the entry of `key` (malloc'd, after its header), or NULL:
 * a miss. A hit marks the entry used. */
static unsigned char *load(const struct cc_cache_key *key, const char *suffix, struct reader *r)
{
    char *dir = cache_directory();
    char *path = dir ? entry_path(dir, key, suffix) : NULL;
    size_t payload_size = 0;
    unsigned char *data = path ? read_entry(path, key, &payload_size) : NULL;
    if (data) {
        /* used now: the access time only, the entry's contents stay as
         * they were written */
        const struct timespec times[2] = {{.tv_nsec = UTIME_NOW}, {.tv_nsec = UTIME_OMIT}};
        utimensat(AT_FDCWD, path, times, 0);
        *r = (struct reader){data + sizeof(struct entry_header),
                             data + sizeof(struct entry_header) + payload_size, false};
    }
    free(path);
    free(dir);
    return data;
}

bool cc_cache_load(const struct cc_cache_key *key, struct cc_cache_entry *entry)
{
    memset(entry, 0, sizeof *entry);
    struct reader r;
    unsigned char *data = load(key, "", &r);
    if (!data)
        return false;
    bool ok = get_entry(&r, entry);
    free(data);
    if (!ok)
        cc_cache_entry_free(entry);
    return ok;
}

/* Writes w's payload (after the room put for the header) as the entry of
 * `key`; frees w's data. */
static void store(const struct cc_cache_key *key, const char *suffix, struct writer *w)
{
    struct entry_header header = {.format = CC_CACHE_FORMAT, .header_size = sizeof header};
    memcpy(header.magic, magic, sizeof magic);
    memcpy(header.key, key->digest, sizeof header.key);
    char *dir = cache_directory();
    char *path = dir ? entry_path(dir, key, suffix) : NULL;
    char *temporary = dir ? entry_path(dir, key, TEMPORARY_SUFFIX "XXXXXX") : NULL;
    if (w->failed || !path || !temporary || !make_directories(dir))
        goto out;
    header.payload_size = w->length - sizeof header;
    cc_sha256(w->data + sizeof header, header.payload_size, header.checksum);
    memcpy(w->data, &header, sizeof header);
    int fd = mkostemp(temporary, O_CLOEXEC);
    if (fd < 0)
        goto out;
    bool written = write_all(fd, w->data, w->length);
    if (close(fd) || !written || rename(temporary, path))
        unlink(temporary);
    else if (ledger_add(dir, ((unsigned long long)w->length + 4095) & ~4095ull) > max_size())
        evict(dir); /* past the bound, or no ledger yet */
out:
    free(temporary);
    free(path);
    free(dir);
    free(w->data);
}

void cc_cache_store(const struct cc_cache_key *key, const struct cc_cache_entry *entry)
{
    struct writer w = {0};
    struct entry_header header = {0};
    put(&w, &header, sizeof header);
    put_entry(&w, entry);
    store(key, "", &w);
}

bool cc_cache_load_code(const struct cc_cache_key *program_key, unsigned index, const void *variant,
                        size_t variant_size, void **object, size_t *object_size,
                        size_t *private_mem_size, size_t *stack_size)
{
    struct cc_cache_key key;
    cc_cache_code_key(program_key, index, variant, variant_size, &key);
    struct reader r;
    unsigned char *data = load(&key, CODE_SUFFIX, &r);
    if (!data)
        return false;
    *private_mem_size = get_u64(&r);
    *stack_size = get_u64(&r);
    *object = get_copy(&r, object_size);
    bool ok = !r.failed && *object && r.p == r.end;
    free(data);
    if (!ok) {
        free(*object);
        *object = NULL;
    }
    return ok;
}

void cc_cache_store_code(const struct cc_cache_key *program_key, unsigned index,
                         const void *variant, size_t variant_size, const void *object,
                         size_t object_size, size_t private_mem_size, size_t stack_size)
{
    struct cc_cache_key key;
    cc_cache_code_key(program_key, index, variant, variant_size, &key);
    struct writer w = {0};
    struct entry_header header = {0};
    put(&w, &header, sizeof header);
    put_u64(&w, private_mem_size);
    put_u64(&w, stack_size);
    put_bytes(&w, object, object_size);
    store(&key, CODE_SUFFIX, &w);
}
