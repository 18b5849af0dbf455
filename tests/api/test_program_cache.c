/* test_program_cache.c - the on-disk kernel cache (src/compiler/cache.c):
 * a second build of the same source comes from the cache with the same
 * results, build log, kernel table and binary; a truncated or damaged
 * entry is ignored and written again; CPUCL_CACHE=0 writes nothing; a
 * folder that cannot be made only costs the cache; builds of one program
 * on several threads at once leave one whole entry; a program from a
 * binary is linked once and then comes from the cache; past
 * CPUCL_CACHE_MAX_SIZE the least recently used entries go; a process
 * whose first build is of a binary, with the cache off, builds it (the
 * compiler's host set-up was once only reached through the cache key).
 *
 * cpucl reads CPUCL_CACHE_DIR and CPUCL_CACHE at every build, so the test
 * points them at folders of its own with setenv. */
#include <dirent.h>
#include <fcntl.h>
#include <ftw.h>
#include <pthread.h>
#include <stdbool.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../harness.h"

/* A warning (the log of a cached build must carry it too), a kernel with
 * attributes, one with a barrier and a __local argument. */
static const char *source =
    "#warning this program is built for the cache test\n"
    "__attribute__((reqd_work_group_size(16, 1, 1)))\n"
    "kernel void polynomial(global const float *x, global float *y, float a)\n"
    "{ size_t i = get_global_id(0); y[i] = a * x[i] * x[i] + OFFSET; }\n"
    "kernel void neighbours(global const int *in, global int *out, local int *tile)\n"
    "{\n"
    "    size_t l = get_local_id(0), n = get_local_size(0);\n"
    "    tile[l] = in[get_global_id(0)];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    out[get_global_id(0)] = tile[l] + tile[(l + 1) % n];\n"
    "}\n";
static const char *options = "-cl-kernel-arg-info -DOFFSET=5";

enum { N = 256, GROUP = 16 };

/* Runs both kernels and compares them with the host. */
static void check_results(struct harness *h, cl_program program)
{
    float x[N], y[N];
    int in[N], out[N];
    for (int i = 0; i < N; i++) {
        x[i] = (float)(i % 17) - 8.0f;
        in[i] = i * 7 - 300;
    }
    cl_mem x_mem = harness_buffer(h, CL_MEM_READ_ONLY, sizeof x, x);
    cl_mem y_mem = harness_buffer(h, CL_MEM_WRITE_ONLY, sizeof y, NULL);
    cl_mem in_mem = harness_buffer(h, CL_MEM_READ_ONLY, sizeof in, in);
    cl_mem out_mem = harness_buffer(h, CL_MEM_WRITE_ONLY, sizeof out, NULL);
    cl_kernel polynomial = harness_kernel(program, "polynomial");
    cl_kernel neighbours = harness_kernel(program, "neighbours");
    float a = 1.5f;
    size_t global = N, local = GROUP;
    CHECK_OK(harness_args(polynomial, 3, ARG(x_mem), ARG(y_mem), ARG(a)));
    CHECK_OK(harness_args(neighbours, 2, ARG(in_mem), ARG(out_mem)));
    CHECK_OK(clSetKernelArg(neighbours, 2, GROUP * sizeof(int), NULL));
    CHECK_OK(clEnqueueNDRangeKernel(h->queue, polynomial, 1, NULL, &global, &local, 0, NULL, NULL));
    CHECK_OK(clEnqueueNDRangeKernel(h->queue, neighbours, 1, NULL, &global, &local, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(h->queue, y_mem, CL_TRUE, 0, sizeof y, y, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(h->queue, out_mem, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
    int wrong_y = 0, wrong_out = 0;
    for (int i = 0; i < N; i++) {
        wrong_y += !harness_near(y[i], a * x[i] * x[i] + 5.0f, 1e-6f);
        int group = i / GROUP * GROUP, next = group + (i - group + 1) % GROUP;
        wrong_out += out[i] != in[i] + in[next];
    }
    CHECK_NONE_WRONG(wrong_y, "polynomial");
    CHECK_NONE_WRONG(wrong_out, "neighbours");
    clReleaseKernel(polynomial);
    clReleaseKernel(neighbours);
    clReleaseMemObject(x_mem);
    clReleaseMemObject(y_mem);
    clReleaseMemObject(in_mem);
    clReleaseMemObject(out_mem);
}

/* Appends what the application can learn of a program's kernels: names,
 * arguments, attributes, sizes. */
static void describe(struct harness *h, cl_program program, char *text, size_t size)
{
    size_t used = 0;
#define SAY(...) used += (size_t)snprintf(text + used, used < size ? size - used : 0, __VA_ARGS__)
    char names[256] = "";
    clGetProgramInfo(program, CL_PROGRAM_KERNEL_NAMES, sizeof names, names, NULL);
    SAY("kernels %s;", names);
    const char *kernel_names[] = {"polynomial", "neighbours"};
    for (int k = 0; k < 2; k++) {
        cl_kernel kernel = harness_kernel(program, kernel_names[k]);
        cl_uint num_args = 0;
        char attributes[256] = "";
        size_t compile_size[3] = {0};
        cl_ulong local_mem = 0, private_mem = 0;
        clGetKernelInfo(kernel, CL_KERNEL_NUM_ARGS, sizeof num_args, &num_args, NULL);
        clGetKernelInfo(kernel, CL_KERNEL_ATTRIBUTES, sizeof attributes, attributes, NULL);
        clGetKernelWorkGroupInfo(kernel, h->device, CL_KERNEL_COMPILE_WORK_GROUP_SIZE,
                                 sizeof compile_size, compile_size, NULL);
        clGetKernelWorkGroupInfo(kernel, h->device, CL_KERNEL_LOCAL_MEM_SIZE, sizeof local_mem,
                                 &local_mem, NULL);
        clGetKernelWorkGroupInfo(kernel, h->device, CL_KERNEL_PRIVATE_MEM_SIZE, sizeof private_mem,
                                 &private_mem, NULL);
        SAY(" %s: %u args, attributes '%s', compile size %zu %zu %zu, local %llu, private %llu;",
            kernel_names[k], num_args, attributes, compile_size[0], compile_size[1],
            compile_size[2], (unsigned long long)local_mem, (unsigned long long)private_mem);
        for (cl_uint a = 0; a < num_args; a++) {
            char name[64] = "", type[64] = "";
            cl_kernel_arg_address_qualifier space = 0;
            clGetKernelArgInfo(kernel, a, CL_KERNEL_ARG_NAME, sizeof name, name, NULL);
            clGetKernelArgInfo(kernel, a, CL_KERNEL_ARG_TYPE_NAME, sizeof type, type, NULL);
            clGetKernelArgInfo(kernel, a, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof space, &space,
                               NULL);
            SAY(" %s %s %#x,", type, name, (unsigned)space);
        }
        clReleaseKernel(kernel);
    }
#undef SAY
}

/* The program's binary (CL_PROGRAM_BINARIES), malloc'd. */
static unsigned char *binary(cl_program program, size_t *size)
{
    *size = 0;
    clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, sizeof *size, size, NULL);
    unsigned char *bytes = malloc(*size ? *size : 1);
    REQUIRE(bytes);
    CHECK_OK(clGetProgramInfo(program, CL_PROGRAM_BINARIES, sizeof bytes, &bytes, NULL));
    return bytes;
}

/* What a build gives the application, to compare a cached build with the
 * cold one. */
struct outcome {
    char *log;
    char description[4096];
    unsigned char *binary;
    size_t binary_size;
};

static struct outcome build_and_check(struct harness *h, const char *text)
{
    struct outcome o = {0};
    cl_program program = harness_build(h, text, options);
    REQUIRE(program);
    check_results(h, program);
    o.log = harness_build_log(program, h->device);
    describe(h, program, o.description, sizeof o.description);
    o.binary = binary(program, &o.binary_size);
    clReleaseProgram(program);
    return o;
}

static void check_same(const struct outcome *cached, const struct outcome *cold)
{
    CHECK(!strcmp(cached->log, cold->log));
    CHECK(!strcmp(cached->description, cold->description));
    CHECK(cached->binary_size == cold->binary_size &&
          !memcmp(cached->binary, cold->binary, cold->binary_size));
}

static void outcome_free(struct outcome *o)
{
    free(o->log);
    free(o->binary);
}

/* The folder's program entries: how many, and the path of the one entry
 * (malloc'd; NULL unless there is exactly one). Temporary files count;
 * the kernels' code entries ("<key>.o") do not. */
static int files_in(const char *dir, char **entry)
{
    int count = 0;
    if (entry)
        *entry = NULL;
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    for (struct dirent *e; (e = readdir(d));) {
        size_t length = strlen(e->d_name);
        if (e->d_name[0] == '.' || (length > 2 && !strcmp(e->d_name + length - 2, ".o")))
            continue; /* a kernel's code: code_entries() counts them */
        count++;
        if (entry) {
            free(*entry);
            size_t length = strlen(dir) + strlen(e->d_name) + 2;
            *entry = malloc(length);
            REQUIRE(*entry);
            snprintf(*entry, length, "%s/%s", dir, e->d_name);
        }
    }
    closedir(d);
    if (count != 1 && entry) {
        free(*entry);
        *entry = NULL;
    }
    return count;
}

/* The disk blocks a file holds, in bytes (what the cache's bound counts). */
static size_t disk_size(const char *path)
{
    struct stat st;
    return path && stat(path, &st) == 0 ? (size_t)st.st_blocks * 512 : 0;
}

/* The disk blocks of every file in `dir`. */
static size_t folder_disk_size(const char *dir)
{
    size_t total = 0;
    DIR *d = opendir(dir);
    for (struct dirent *e; d && (e = readdir(d));) {
        char path[512];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (e->d_name[0] != '.')
            total += disk_size(path);
    }
    if (d)
        closedir(d);
    return total;
}

/* The folder's kernel code entries; with `damage`, each gets bytes flipped. */
static int code_entries(const char *dir, bool damage)
{
    int count = 0;
    DIR *d = opendir(dir);
    for (struct dirent *e; d && (e = readdir(d));) {
        size_t length = strlen(e->d_name);
        if (e->d_name[0] == '.' || length <= 2 || strcmp(e->d_name + length - 2, ".o"))
            continue;
        count++;
        char path[512];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        FILE *f = damage ? fopen(path, "r+b") : NULL;
        if (f) {
            fseek(f, 100, SEEK_SET);
            fwrite("damaged!", 1, 8, f);
            fclose(f);
        }
    }
    if (d)
        closedir(d);
    return count;
}

static unsigned char *read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    REQUIRE(f);
    fseek(f, 0, SEEK_END);
    *size = (size_t)ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *bytes = malloc(*size ? *size : 1);
    REQUIRE(bytes && fread(bytes, 1, *size, f) == *size);
    fclose(f);
    return bytes;
}

static void write_file(const char *path, const unsigned char *bytes, size_t size)
{
    FILE *f = fopen(path, "wb");
    REQUIRE(f);
    REQUIRE(fwrite(bytes, 1, size, f) == size);
    fclose(f);
}

/* Damage the entry one way, build: the build must still be right, and the
 * entry be written again and serve a cached build with the same outcome
 * (not byte for byte what the first build wrote: the parts' bitcode of the
 * first build in a process differs in its bytes, not in its IR, from a
 * later one's). */
static void check_recovers(struct harness *h, const char *dir, const char *what,
                           const unsigned char *good, size_t good_size, const struct outcome *cold)
{
    char *entry;
    REQUIRE(files_in(dir, &entry) == 1);
    unsigned char *damaged = malloc(good_size);
    REQUIRE(damaged);
    memcpy(damaged, good, good_size);
    size_t damaged_size = good_size;
    if (!strcmp(what, "truncated")) {
        damaged_size = good_size / 2;
    } else if (!strcmp(what, "empty")) {
        damaged_size = 0;
    } else if (!strcmp(what, "flipped")) {
        for (size_t i = good_size / 2; i < good_size / 2 + 16; i++)
            damaged[i] ^= 0x5a;
    } else { /* "magic" */
        damaged[0] ^= 0xff;
    }
    write_file(entry, damaged, damaged_size);
    struct outcome again = build_and_check(h, source);
    check_same(&again, cold);
    size_t size;
    unsigned char *now = read_file(entry, &size);
    if (!size || (size == damaged_size && !memcmp(now, damaged, size)))
        HARNESS_FAIL("%s:%d: the %s entry was not written again\n", __FILE__, __LINE__, what);
    else
        harness_passed++;
    struct outcome cached = build_and_check(h, source);
    check_same(&cached, cold);
    outcome_free(&cached);
    CHECK(files_in(dir, NULL) == 1);
    free(now);
    free(damaged);
    free(entry);
    outcome_free(&again);
}

struct concurrent {
    struct harness *h;
    const char *source;
    int ok;
};

static void *build_concurrently(void *data)
{
    struct concurrent *c = data;
    cl_program program = harness_build(c->h, c->source, options);
    c->ok = program != NULL;
    if (program)
        clReleaseProgram(program);
    return NULL;
}

/* The child process of from_binary_first: its first build is of the
 * binary in `path`, with CPUCL_CACHE=0. */
static int child_from_binary(const char *path)
{
    struct harness h = harness_open();
    size_t size;
    unsigned char *bytes = read_file(path, &size);
    const unsigned char *binaries[1] = {bytes};
    cl_int status, err;
    cl_program program =
        clCreateProgramWithBinary(h.context, 1, &h.device, &size, binaries, &status, &err);
    CHECK(err == CL_SUCCESS && status == CL_SUCCESS);
    REQUIRE(program);
    CHECK_OK(clBuildProgram(program, 1, &h.device, "", NULL, NULL));
    check_results(&h, program);
    clReleaseProgram(program);
    free(bytes);
    harness_close(&h);
    return harness_finish();
}

/* Runs this program again as a new process (see child_from_binary). */
static void from_binary_first(const char *path)
{
    fflush(stdout);
    pid_t pid = fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
        setenv("CPUCL_CACHE", "0", 1);
        execl("/proc/self/exe", "test_program_cache", "--from-binary", path, (char *)NULL);
        _exit(127);
    }
    int status = 0;
    REQUIRE(waitpid(pid, &status, 0) == pid);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

static int remove_one(const char *path, const struct stat *status, int flag, struct FTW *ftw)
{
    return remove(path);
}

int main(int argc, char **argv)
{
    if (argc == 3 && !strcmp(argv[1], "--from-binary"))
        return child_from_binary(argv[2]);
    struct harness h = harness_open();
    char top[] = "/tmp/cpucl-cache-test-XXXXXX";
    REQUIRE(mkdtemp(top));
    char dir[256], off_dir[256], concurrent_dir[256];
    /* a folder that does not exist yet: the cache makes it */
    snprintf(dir, sizeof dir, "%s/made/by/cpucl", top);
    snprintf(off_dir, sizeof off_dir, "%s/off", top);
    snprintf(concurrent_dir, sizeof concurrent_dir, "%s/concurrent", top);
    unsetenv("CPUCL_CACHE");
    setenv("CPUCL_CACHE_DIR", dir, 1);

    /* Cold, then from the cache: one entry, not rewritten by the hit. */
    struct outcome cold = build_and_check(&h, source);
    CHECK(strstr(cold.log, "built for the cache test") != NULL);
    char *entry;
    CHECK(files_in(dir, &entry) == 1);
    REQUIRE(entry);
    struct stat before, after;
    REQUIRE(stat(entry, &before) == 0);
    size_t good_size;
    unsigned char *good = read_file(entry, &good_size);
    char binary_path[256];
    snprintf(binary_path, sizeof binary_path, "%s/program.bin", top);
    write_file(binary_path, cold.binary, cold.binary_size);
    from_binary_first(binary_path);
    remove(binary_path);
    struct outcome cached = build_and_check(&h, source);
    check_same(&cached, &cold);
    REQUIRE(stat(entry, &after) == 0);
    CHECK(after.st_ino == before.st_ino && after.st_mtim.tv_nsec == before.st_mtim.tv_nsec &&
          after.st_mtim.tv_sec == before.st_mtim.tv_sec);
    outcome_free(&cached);

    /* Each launched kernel's code has an entry of its own; damaged ones
     * are compiled again. */
    int codes = code_entries(dir, false);
    CHECK(codes >= 1);
    CHECK_EQ(code_entries(dir, true), codes);
    struct outcome recompiled = build_and_check(&h, source);
    check_same(&recompiled, &cold);
    outcome_free(&recompiled);
    CHECK_EQ(code_entries(dir, false), codes);

    /* Damaged entries are rebuilt and written again. */
    check_recovers(&h, dir, "truncated", good, good_size, &cold);
    check_recovers(&h, dir, "flipped", good, good_size, &cold);
    check_recovers(&h, dir, "magic", good, good_size, &cold);
    check_recovers(&h, dir, "empty", good, good_size, &cold);

    /* CPUCL_CACHE=0: nothing written, not even the folder. */
    setenv("CPUCL_CACHE", "0", 1);
    setenv("CPUCL_CACHE_DIR", off_dir, 1);
    struct outcome off = build_and_check(&h, source);
    check_same(&off, &cold);
    struct stat status;
    CHECK(stat(off_dir, &status) != 0);
    outcome_free(&off);
    unsetenv("CPUCL_CACHE");

    /* A folder that cannot be made is no error. */
    setenv("CPUCL_CACHE_DIR", "/proc/cpucl-cannot-be-made", 1);
    struct outcome nowhere = build_and_check(&h, source);
    check_same(&nowhere, &cold);
    outcome_free(&nowhere);

    /* Four threads build one program at once: all succeed, one entry. */
    setenv("CPUCL_CACHE_DIR", concurrent_dir, 1);
    pthread_t threads[4];
    struct concurrent builds[4];
    for (int i = 0; i < 4; i++) {
        builds[i] = (struct concurrent){&h, source, 0};
        REQUIRE(pthread_create(&threads[i], NULL, build_concurrently, &builds[i]) == 0);
    }
    for (int i = 0; i < 4; i++) {
        pthread_join(threads[i], NULL);
        CHECK(builds[i].ok);
    }
    char *concurrent_entry;
    CHECK(files_in(concurrent_dir, &concurrent_entry) == 1);
    if (concurrent_entry) {
        size_t size;
        unsigned char *bytes = read_file(concurrent_entry, &size);
        CHECK(size > 0);
        free(bytes);
    }
    free(concurrent_entry);

    /* A program from its binary is linked once, then comes from the cache
     * (the entry is not rewritten), with the same results. */
    char binary_dir[256];
    snprintf(binary_dir, sizeof binary_dir, "%s/binary", top);
    setenv("CPUCL_CACHE_DIR", binary_dir, 1);
    struct stat first = {0};
    for (int round = 0; round < 2; round++) {
        const unsigned char *bytes = cold.binary;
        size_t size = cold.binary_size;
        cl_int status, err;
        cl_program program =
            clCreateProgramWithBinary(h.context, 1, &h.device, &size, &bytes, &status, &err);
        CHECK_OK(err);
        CHECK_OK(clBuildProgram(program, 1, &h.device, "", NULL, NULL));
        check_results(&h, program);
        clReleaseProgram(program);
        char *binary_entry = NULL;
        CHECK_EQ(files_in(binary_dir, &binary_entry), 1);
        struct stat now = {0};
        CHECK(binary_entry && stat(binary_entry, &now) == 0);
        if (round == 0)
            first = now;
        else
            CHECK(now.st_ino == first.st_ino && now.st_mtim.tv_nsec == first.st_mtim.tv_nsec);
        free(binary_entry);
    }

    /* The size bound, counted in the disk blocks the entries hold: room for
     * two entries and a half. A, B, a hit on A, then C: B, the least
     * recently used, goes. */
    char bound_dir[256];
    snprintf(bound_dir, sizeof bound_dir, "%s/bound", top);
    setenv("CPUCL_CACHE_DIR", bound_dir, 1);
    char bound[32];
    snprintf(bound, sizeof bound, "%zu", disk_size(entry) * 5 / 2);
    setenv("CPUCL_CACHE_MAX_SIZE", bound, 1);
    const char *variants[3] = {"-DOFFSET=1", "-DOFFSET=2", "-DOFFSET=3"};
    char *names[3] = {NULL, NULL, NULL};
    for (int i = 0; i < 3; i++) {
        /* file times tick at the kernel's clock (a few ms): keep the uses
         * apart */
        usleep(30000);
        if (i == 2) { /* use A again */
            cl_program again = harness_build(&h, source, variants[0]);
            CHECK(again != NULL);
            clReleaseProgram(again);
            usleep(30000);
        }
        cl_program p = harness_build(&h, source, variants[i]);
        CHECK(p != NULL);
        clReleaseProgram(p);
        /* the newest entry is the one file not seen before */
        DIR *d = opendir(bound_dir);
        for (struct dirent *e; d && (e = readdir(d));) {
            if (e->d_name[0] == '.')
                continue;
            int seen = 0;
            for (int j = 0; j < i; j++)
                seen |= names[j] && !strcmp(names[j], e->d_name);
            if (!seen)
                names[i] = strdup(e->d_name);
        }
        if (d)
            closedir(d);
    }
    CHECK_EQ(files_in(bound_dir, NULL), 2);
    char path[512];
    for (int i = 0; i < 3; i++) {
        snprintf(path, sizeof path, "%s/%s", bound_dir, names[i] ? names[i] : "?");
        struct stat st;
        CHECK((stat(path, &st) == 0) == (i != 1)); /* A and C stay, B went */
        free(names[i]);
    }

    /* Kernels' code entries go too: launches of eight programs under a
     * bound of four program entries leave about that much on disk. */
    char code_dir[256];
    snprintf(code_dir, sizeof code_dir, "%s/code-bound", top);
    setenv("CPUCL_CACHE_DIR", code_dir, 1);
    snprintf(bound, sizeof bound, "%zu", disk_size(entry) * 4);
    setenv("CPUCL_CACHE_MAX_SIZE", bound, 1);
    for (int i = 0; i < 8; i++) {
        char variant[128];
        snprintf(variant, sizeof variant, "%s -DVARIANT=%d", options, i);
        cl_program p = harness_build(&h, source, variant);
        CHECK(p != NULL);
        if (p)
            check_results(&h, p); /* launches make code entries */
        clReleaseProgram(p);
    }
    /* a process may pass the bound by a sixteenth of it between scans, and
     * the last store comes after the last scan */
    size_t held = folder_disk_size(code_dir), limit = disk_size(entry) * 4;
    if (held > limit + limit / 16 + disk_size(entry))
        fprintf(stderr, "code-bound: %zu bytes on disk, bound %zu\n", held, limit);
    CHECK(held <= limit + limit / 16 + disk_size(entry));
    CHECK(code_entries(code_dir, false) < 8); /* code entries went too */
    /* the folder's ledger (cache.c) holds about what the entries take */
    char ledger_path[512];
    snprintf(ledger_path, sizeof ledger_path, "%s/.usage", code_dir);
    size_t ledger_size = 0;
    unsigned char *ledger = read_file(ledger_path, &ledger_size);
    unsigned long long usage = 0;
    CHECK(ledger && ledger_size == sizeof usage);
    if (ledger && ledger_size == sizeof usage)
        memcpy(&usage, ledger, sizeof usage);
    CHECK(usage + limit / 8 >= held && usage <= held + limit / 8);
    free(ledger);

    /* a scan (the ledger gone, the next store makes one) removes a store's
     * temporary file a dead process left an hour ago, not a fresh one */
    char stale[512], fresh[512];
    snprintf(stale, sizeof stale, "%s/%064d.tmp-AbCdEf", code_dir, 0);
    snprintf(fresh, sizeof fresh, "%s/%064d.tmp-GhIjKl", code_dir, 1);
    write_file(stale, (const unsigned char *)"half", 4);
    write_file(fresh, (const unsigned char *)"half", 4);
    struct timespec old_times[2] = {{time(NULL) - 7200, 0}, {time(NULL) - 7200, 0}};
    CHECK(utimensat(AT_FDCWD, stale, old_times, 0) == 0);
    unlink(ledger_path);
    cl_program scanned = harness_build(&h, source, "-DOFFSET=5 -DVARIANT=99");
    CHECK(scanned != NULL);
    clReleaseProgram(scanned);
    CHECK(access(stale, F_OK) != 0 && access(fresh, F_OK) == 0);
    unsetenv("CPUCL_CACHE_MAX_SIZE");

    free(good);
    free(entry);
    outcome_free(&cold);
    nftw(top, remove_one, 16, FTW_DEPTH | FTW_PHYS);
    harness_close(&h);
    return harness_finish();
}
