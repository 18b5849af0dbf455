/* pool.c - the worker threads and how they share jobs.
 *
 * One pinned worker a core. Jobs wait in a FIFO list guarded by `lock`; a
 * worker takes the oldest job that still has pieces, then claims pieces from
 * the job's atomic counter without the lock until none is left. A job is
 * finished when its `refs` reach zero: one reference belongs to the list and
 * one to each worker inside it, so on_done runs after the last piece and
 * after every worker has stopped touching the job (the runtime may free it in
 * on_done).
 *
 * Idle workers spin briefly before sleeping on `wake`, so a launch on a busy
 * device starts within microseconds without burning a core when idle.
 *
 * A child process forked from a process that ran commands has none of the
 * workers (fork copies only the thread that called it); its first submit
 * starts them again (after_fork_child, start_again).
 */
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <emmintrin.h>
#include <time.h>

#include "devices/cpu/cpu.h"
#include "devices/cpu/fibers.h"
#include "devices/cpu/printf.h"
#include "devices/cpu/topology.h"

#define ARENA_SIZE (256u * 1024u)
#define SPIN_NS 50000
#define WORKER_STACK (16u << 20)
/* What a worker's or a fiber's stack keeps for the device's own frames
 * and the kernels' calls into it (cpu_device_kernel_stack). */
#define WORKER_RESERVE (256u << 10)
#define FIBER_RESERVE (32u << 10)
#define COPY_PIECE_BYTES (512u * 1024u)
/* At most this many pieces of a large copy or fill per worker: enough that
 * a worker slowed by another process on its core (workers are pinned)
 * leaves the rest to the others, instead of holding up the end with one of
 * four big pieces. */
#define PIECES_A_WORKER 32

struct worker {
    struct cpu_device *device;
    unsigned index;
    char *arena;
    struct cpu_fibers *fibers;
    pthread_t thread;
};

struct cpu_device {
    struct cpu_topology topology;
    hwloc_topology_t hw;
    unsigned num_workers;
    struct worker *workers;

    pthread_mutex_t lock;       /* guards head, tail, sleepers */
    pthread_cond_t wake;
    struct cpu_job *head, *tail;
    unsigned sleepers;
    _Atomic unsigned long submitted; /* bumped on submit: what spinners watch */
    _Atomic bool forked;             /* a child process without its workers */
    _Atomic unsigned busy;           /* workers inside a job or finishing jobs */
};


static void job_finish(struct cpu_job *job)
{
    if (atomic_fetch_sub(&job->refs, 1) == 1) {
        /* 6.13.13.1: printf output is visible once the kernel is complete */
        if (job->kind == CPU_JOB_KERNEL)
            cpu_printf_flush();
        job->on_done(job->context, atomic_load(&job->status));
    }
}

/* The kernel job whose work-groups this thread runs, for device-side
 * enqueue (cpu_running_kernel). */
static _Thread_local struct cpu_job *running_kernel;

void *cpu_running_kernel(void)
{
    return running_kernel ? running_kernel->context : NULL;
}

enum { MXCSR_DAZ = 1u << 6, MXCSR_FTZ = 1u << 15 };

static void run_kernel_piece(struct cpu_job *job, size_t piece, struct worker *worker)
{
    const struct cpu_kernel_launch *launch = &job->u.kernel;
    if (!cpu_fibers_reserve_context(worker->fibers, launch->context_bytes)) {
        /* 5.11: the command ends with an error status; no group of this
         * piece runs */
        int none = 0;
        atomic_compare_exchange_strong(&job->status, &none, CL_OUT_OF_RESOURCES);
        return;
    }
    struct cc_wg_state state;
    size_t groups[3];
    memset(&state, 0, sizeof state);
    for (int d = 0; d < 3; d++) {
        groups[d] = (launch->global_size[d] + launch->local_size[d] - 1) / launch->local_size[d];
        state.enqueued_local_size[d] = launch->local_size[d];
        state.global_size[d] = launch->global_size[d];
        state.global_offset[d] = launch->global_offset[d];
        state.num_groups[d] = groups[d];
    }
    state.work_dim = launch->work_dim;
    state.sub_group_size = launch->sub_group_size;
    state.local_mem = worker->arena;
    state.fibers = worker->fibers;
    state.run_items = cpu_fibers_run;
    state.barrier = cpu_fibers_barrier;
    state.sub_group_barrier = cpu_fibers_sub_group_barrier;
    state.yield = cpu_fibers_yield;
    state.context = cpu_fibers_context;
    state.pointer_space = cpu_fibers_pointer_space;
    state.scratch = cpu_fibers_scratch(worker->fibers);

    /* -cl-denorms-are-zero (API 5.8.4.2): denormals "may be flushed to
     * zero", a performance hint (Intel's cores take a microcode assist of
     * around a hundred cycles for a denormal operand or result; AMD's Zen
     * cores little or none), and the program gets it: MXCSR's DAZ
     * (operands) and FTZ (results) bits, float and double alike, on this
     * thread while it runs the program's groups, then the thread's own
     * setting again. */
    unsigned int mxcsr = 0;
    if (launch->flush_denormals) {
        mxcsr = _mm_getcsr();
        _mm_setcsr(mxcsr | MXCSR_DAZ | MXCSR_FTZ);
    }
    size_t total = groups[0] * groups[1] * groups[2];
    size_t first = piece * job->piece_size;
    size_t last = first + job->piece_size < total ? first + job->piece_size : total;
    size_t band = launch->group_band;
    for (size_t linear = first; linear < last; linear++) {
        size_t g0 = linear % groups[0];
        size_t g1 = (linear / groups[0]) % groups[1];
        size_t g2 = linear / (groups[0] * groups[1]);
        if (band && groups[1] > 1) {
            /* bands of `band` rows of groups, column by column in each
             * (src/compiler/order.c says when that pays) */
            size_t r = linear % (groups[0] * groups[1]);
            size_t b = r / (groups[0] * band), in = r % (groups[0] * band);
            size_t height = groups[1] - b * band < band ? groups[1] - b * band : band;
            g0 = in / height;
            g1 = b * band + in % height;
        }
        size_t ids[3] = {g0, g1, g2};
        bool full = true;
        for (int d = 0; d < 3; d++) {
            state.group_id[d] = ids[d];
            size_t start = ids[d] * launch->local_size[d];
            size_t rest = launch->global_size[d] - start;
            /* 2.0 non-uniform work-groups: the last group in a dimension
             * holds what remains. */
            state.local_size[d] = rest < launch->local_size[d] ? rest : launch->local_size[d];
            full &= state.local_size[d] == launch->local_size[d];
        }
        running_kernel = job;
        cc_wg_fn wg = full && launch->wg_full ? launch->wg_full : launch->wg;
        wg(launch->arg_block, &state);
        running_kernel = NULL;
    }
    if (launch->flush_denormals)
        _mm_setcsr(mxcsr);
}

/* Streaming (non-temporal) stores for copies and fills larger than the
 * last-level cache (split): what they write would only evict what is
 * cached, and a cached store first reads the line it overwrites, a third
 * of a copy's memory traffic. glibc's memcpy streams only within a call
 * past its own threshold, which the pieces here are below. The stores are
 * ordered by run_piece's fence. */
static void stream_copy(char *dst, const char *src, size_t size)
{
    size_t head = -(uintptr_t)dst & 63;
    if (head > size)
        head = size;
    memcpy(dst, src, head);
    size_t done = head;
    for (; size - done >= 64; done += 64) {
        const __m128i *from = (const __m128i *)(src + done);
        __m128i a = _mm_loadu_si128(from), b = _mm_loadu_si128(from + 1),
                c = _mm_loadu_si128(from + 2), d = _mm_loadu_si128(from + 3);
        __m128i *to = (__m128i *)(dst + done);
        _mm_stream_si128(to, a);
        _mm_stream_si128(to + 1, b);
        _mm_stream_si128(to + 2, c);
        _mm_stream_si128(to + 3, d);
    }
    memcpy(dst + done, src + done, size - done);
}

/* The pattern (of a size that divides 128) over `size` bytes from dst,
 * which begins a pattern, with streaming stores: every 128 bytes from the
 * first cache line on are the same. */
static void stream_fill(char *dst, size_t size, const unsigned char *pattern, size_t pattern_size)
{
    size_t head = -(uintptr_t)dst & 127;
    if (head > size)
        head = size;
    for (size_t i = 0; i < head; i++)
        dst[i] = (char)pattern[i % pattern_size];
    _Alignas(16) unsigned char line[128];
    for (size_t i = 0; i < sizeof line; i++)
        line[i] = pattern[(head + i) % pattern_size];
    __m128i v[8];
    for (int k = 0; k < 8; k++)
        v[k] = _mm_load_si128((const __m128i *)line + k);
    size_t done = head;
    for (; size - done >= 128; done += 128)
        for (int k = 0; k < 8; k++)
            _mm_stream_si128((__m128i *)(dst + done) + k, v[k]);
    for (size_t i = done; i < size; i++)
        dst[i] = (char)pattern[i % pattern_size];
}

static void run_copy_piece(struct cpu_job *job, size_t piece)
{
    const struct cpu_copy *copy = &job->u.copy;
    if (copy->rows == 1 && copy->slices == 1) {
        size_t offset = piece * job->piece_size;
        size_t size = copy->row_bytes - offset < job->piece_size ? copy->row_bytes - offset
                                                                 : job->piece_size;
        if (job->stream)
            stream_copy(copy->dst + offset, copy->src + offset, size);
        else
            memmove(copy->dst + offset, copy->src + offset, size);
        return;
    }
    size_t total_rows = copy->rows * copy->slices;
    size_t first = piece * job->piece_size;
    size_t last = first + job->piece_size < total_rows ? first + job->piece_size : total_rows;
    for (size_t r = first; r < last; r++) {
        size_t row = r % copy->rows, slice = r / copy->rows;
        memmove(copy->dst + slice * copy->dst_slice_pitch + row * copy->dst_row_pitch,
                copy->src + slice * copy->src_slice_pitch + row * copy->src_row_pitch,
                copy->row_bytes);
    }
}

/* Writes the pattern over `size` bytes (a multiple of the pattern): one
 * pattern, then doubles what is written. */
static void fill_bytes(char *dst, size_t size, const unsigned char *pattern, size_t pattern_size)
{
    if (pattern_size == 1) {
        memset(dst, pattern[0], size);
        return;
    }
    size_t done = pattern_size < size ? pattern_size : size;
    memcpy(dst, pattern, done);
    while (done < size) {
        size_t n = done < size - done ? done : size - done;
        memcpy(dst + done, dst, n);
        done += n;
    }
}

static size_t fill_rows(const struct cpu_fill *fill)
{
    return (fill->rows ? fill->rows : 1) * (fill->slices ? fill->slices : 1);
}

static void run_fill_piece(struct cpu_job *job, size_t piece)
{
    const struct cpu_fill *fill = &job->u.fill;
    if (fill_rows(fill) > 1) {
        /* a box: pieces of piece_size whole rows */
        size_t total = fill_rows(fill), first = piece * job->piece_size;
        for (size_t r = first; r < total && r < first + job->piece_size; r++)
            fill_bytes(fill->dst + r / fill->rows * fill->slice_pitch + r % fill->rows * fill->row_pitch,
                       fill->size, fill->pattern, fill->pattern_size);
        return;
    }
    /* piece_size is a multiple of pattern_size, so every piece starts on a
     * pattern boundary */
    size_t offset = piece * job->piece_size;
    size_t size = fill->size - offset < job->piece_size ? fill->size - offset : job->piece_size;
    if (job->stream)
        stream_fill(fill->dst + offset, size, fill->pattern, fill->pattern_size);
    else
        fill_bytes(fill->dst + offset, size, fill->pattern, fill->pattern_size);
}

static void run_piece(struct cpu_job *job, size_t piece, struct worker *worker)
{
    switch (job->kind) {
    case CPU_JOB_KERNEL: run_kernel_piece(job, piece, worker); break;
    case CPU_JOB_COPY: run_copy_piece(job, piece); break;
    case CPU_JOB_FILL: run_fill_piece(job, piece); break;
    case CPU_JOB_CALL: job->u.call.fn(job->u.call.arg); break;
    }
    /* Streaming stores (a launch copy's, src/compiler/launch.c; a large
     * copy's or fill's, above) are ordered on x86 only by a fence: before
     * the piece is reported done. Once a piece, not once a work-group: a
     * fence waits for the write-combining buffers, and small groups made
     * that cost what the streaming saved. */
    _mm_sfence();
}

/* Takes a reference on the first job of the list (highest priority, then
 * oldest) that has pieces left and that this worker may run (a
 * sub-device's job only runs on that sub-device's workers), or NULL.
 * Exhausted jobs leave the list wherever they are, so a job behind a
 * long-running one completes as soon as its last piece has run; their list
 * reference is dropped after the lock is released, because on_done may
 * submit new jobs. */
static struct cpu_job *take_job(struct cpu_device *device, const struct worker *worker)
{
    struct cpu_job *retired = NULL, *taken = NULL, *previous = NULL;
    pthread_mutex_lock(&device->lock);
    for (struct cpu_job *job = device->head, *next; job; job = next) {
        next = job->next;
        if (atomic_load_explicit(&job->next_piece, memory_order_relaxed) >= job->pieces) {
            if (previous)
                previous->next = next;
            else
                device->head = next;
            if (device->tail == job)
                device->tail = previous;
            job->next = retired;
            retired = job;
            continue;
        }
        if (!taken && (!job->allowed || job->allowed[worker->index])) {
            atomic_fetch_add(&job->refs, 1);
            taken = job;
        }
        previous = job;
    }
    if (taken || retired) /* until the worker is out of them (worker_main) */
        atomic_fetch_add(&device->busy, 1);
    pthread_mutex_unlock(&device->lock);
    bool finishing = retired;
    while (retired) {
        struct cpu_job *next = retired->next;
        job_finish(retired);
        retired = next;
    }
    if (finishing && !taken)
        atomic_fetch_sub(&device->busy, 1);
    return taken;
}

static void work_on(struct cpu_job *job, struct worker *worker)
{
    int expected = 0;
    if (job->on_start && atomic_compare_exchange_strong(&job->started, &expected, 1))
        job->on_start(job->context);
    for (;;) {
        size_t piece = atomic_fetch_add(&job->next_piece, 1);
        if (piece >= job->pieces)
            break;
        run_piece(job, piece, worker);
    }
    job_finish(job);
}

static long elapsed_ns(const struct timespec *since)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (now.tv_sec - since->tv_sec) * 1000000000L + (now.tv_nsec - since->tv_nsec);
}

static void *worker_main(void *arg)
{
    struct worker *worker = arg;
    struct cpu_device *device = worker->device;
    unsigned long seen = atomic_load(&device->submitted);
    /* A thread inherits its creator's floating-point environment, and the
     * application's thread may flush denormals (the CTS harness does for
     * its references). Kernels get what the device reports (CL_FP_DENORM,
     * round to nearest, exceptions masked): MXCSR's power-on value. */
    _mm_setcsr(0x1f80);
    /* Private memory of kernels that run as loops lives on this stack. */
    pthread_attr_t attr;
    void *stack = NULL;
    size_t stack_size = 0;
    if (pthread_getattr_np(pthread_self(), &attr) == 0) {
        pthread_attr_getstack(&attr, &stack, &stack_size);
        pthread_attr_destroy(&attr);
    }
    cpu_fibers_set_memory(worker->fibers, worker->arena, ARENA_SIZE, stack, stack_size);

    for (;;) {
        seen = atomic_load_explicit(&device->submitted, memory_order_acquire);
        struct cpu_job *job = take_job(device, worker);
        if (job) {
            work_on(job, worker);
            atomic_fetch_sub(&device->busy, 1);
            continue;
        }
        /* Nothing to do: spin a little, then sleep until a submit. */
        struct timespec start;
        clock_gettime(CLOCK_MONOTONIC, &start);
        while (atomic_load_explicit(&device->submitted, memory_order_acquire) == seen &&
               elapsed_ns(&start) < SPIN_NS)
            __builtin_ia32_pause();
        /* Jobs in the list this worker may not run do not keep it awake:
         * only a submit after the look above does. */
        pthread_mutex_lock(&device->lock);
        while (atomic_load(&device->submitted) == seen) {
            device->sleepers++;
            pthread_cond_wait(&device->wake, &device->lock);
            device->sleepers--;
        }
        seen = atomic_load(&device->submitted);
        pthread_mutex_unlock(&device->lock);
    }
    return NULL;
}

static void pin_worker(struct cpu_device *device, struct worker *worker)
{
    hwloc_obj_t core = hwloc_get_obj_by_type(device->hw, HWLOC_OBJ_CORE, worker->index);
    if (!core)
        core = hwloc_get_obj_by_type(device->hw, HWLOC_OBJ_PU, worker->index);
    if (core && core->cpuset)
        hwloc_set_thread_cpubind(device->hw, worker->thread, core->cpuset, 0);
}

/* Starts a thread for each of the device's workers, up to the first that
 * cannot start (fewer workers than cores still works); returns how many
 * started. */
static unsigned start_workers(struct cpu_device *device)
{
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, WORKER_STACK);
    unsigned started = 0;
    for (; started < device->num_workers; started++) {
        struct worker *worker = &device->workers[started];
        if (pthread_create(&worker->thread, &attr, worker_main, worker) != 0)
            break;
        if (device->num_workers <= device->topology.cores)
            pin_worker(device, worker);
    }
    pthread_attr_destroy(&attr);
    return started;
}

static struct cpu_device *device_create(void)
{
    struct cpu_device *device = calloc(1, sizeof *device);
    if (!device)
        return NULL;
    if (cpu_topology_read(&device->topology, &device->hw) != 0) {
        free(device);
        return NULL;
    }
    const char *env = getenv("CPUCL_WORKERS");
    device->num_workers = device->topology.cores;
    if (env && atoi(env) > 0)
        device->num_workers = (unsigned)atoi(env);
    pthread_mutex_init(&device->lock, NULL);
    pthread_cond_init(&device->wake, NULL);
    device->workers = calloc(device->num_workers, sizeof *device->workers);
    if (!device->workers)
        goto fail;

    for (unsigned i = 0; i < device->num_workers; i++) {
        struct worker *worker = &device->workers[i];
        worker->device = device;
        worker->index = i;
        worker->arena = aligned_alloc(128, ARENA_SIZE);
        worker->fibers = cpu_fibers_create();
        if (!worker->arena || !worker->fibers) {
            free(worker->arena);
            device->num_workers = i;
            break;
        }
    }
    device->num_workers = start_workers(device);
    if (device->num_workers == 0)
        goto fail;
    return device;
fail:
    free(device->workers);
    hwloc_topology_destroy(device->hw);
    free(device);
    return NULL;
}

static struct cpu_device *the_device;
static pthread_once_t device_once = PTHREAD_ONCE_INIT;

/* fork(): the child has only the thread that called it. The fork waits
 * until the device has no job and no worker is inside one or finishing
 * one: a worker completing a command holds the runtime's locks (its
 * event's, its queue's) and allocates, and the child would wait forever
 * for what it held (seen under AddressSanitizer, whose allocator a fork
 * cut mid-call). The device's lock is held across the fork; the child's
 * condition variable is made anew (the parent's sleeping workers were
 * waiting on it) and its first submit starts the workers again
 * (start_again): programs that fork workers after using OpenCL (Python's
 * multiprocessing) run commands in them instead of waiting forever. What
 * another thread was doing in OpenCL at the fork is lost to the child,
 * as POSIX says of every multithreaded fork. */
static void before_fork(void)
{
    struct cpu_device *device = the_device;
    for (;;) {
        pthread_mutex_lock(&device->lock);
        if (!device->head && !atomic_load(&device->busy))
            return;
        pthread_mutex_unlock(&device->lock);
        nanosleep(&(struct timespec){0, 100000}, NULL);
    }
}

static void after_fork_parent(void)
{
    pthread_mutex_unlock(&the_device->lock);
}

static void after_fork_child(void)
{
    struct cpu_device *device = the_device;
    device->sleepers = 0;
    atomic_store(&device->busy, 0);
    pthread_cond_init(&device->wake, NULL);
    atomic_store(&device->forked, true);
    pthread_mutex_unlock(&device->lock);
}

static void start_again(struct cpu_device *device)
{
    pthread_mutex_lock(&device->lock);
    if (atomic_load(&device->forked)) {
        unsigned started = start_workers(device);
        if (started) { /* none: the next submit tries again */
            device->num_workers = started;
            atomic_store(&device->forked, false);
        }
    }
    pthread_mutex_unlock(&device->lock);
}

static void device_init(void)
{
    cc_set_printf(cpu_printf);
    the_device = device_create();
    if (the_device)
        pthread_atfork(before_fork, after_fork_parent, after_fork_child);
}

struct cpu_device *cpu_device_get(void)
{
    pthread_once(&device_once, device_init);
    return the_device;
}

const struct cpu_topology *cpu_device_topology(const struct cpu_device *device)
{
    return &device->topology;
}

size_t cpu_device_local_mem_size(const struct cpu_device *device)
{
    return ARENA_SIZE;
}

size_t cpu_device_kernel_stack(const struct cpu_device *device, bool fibers)
{
    (void)device;
    return fibers ? cpu_fibers_stack_size() - FIBER_RESERVE : WORKER_STACK - WORKER_RESERVE;
}

unsigned cpu_device_workers(const struct cpu_device *device)
{
    return device->num_workers;
}

static void split(struct cpu_device *device, struct cpu_job *job)
{
    size_t workers = job->allowed ? job->allowed_count : device->num_workers;
    size_t cache = (size_t)device->topology.l3_cache_size;
    job->stream = false;
    switch (job->kind) {
    case CPU_JOB_KERNEL: {
        const struct cpu_kernel_launch *launch = &job->u.kernel;
        size_t total = 1;
        for (int d = 0; d < 3; d++)
            total *= (launch->global_size[d] + launch->local_size[d] - 1) / launch->local_size[d];
        /* Enough chunks that an uneven kernel still balances, few enough
         * that the shared counter is not a hot spot. */
        size_t chunk = total / (workers * 16);
        job->piece_size = chunk ? chunk : 1;
        job->pieces = (total + job->piece_size - 1) / job->piece_size;
        break;
    }
    case CPU_JOB_COPY: {
        const struct cpu_copy *copy = &job->u.copy;
        if (copy->rows == 1 && copy->slices == 1) {
            size_t size = copy->row_bytes;
            size_t pieces = size / COPY_PIECE_BYTES;
            if (pieces > workers * PIECES_A_WORKER)
                pieces = workers * PIECES_A_WORKER;
            if (pieces == 0)
                pieces = 1;
            job->piece_size = (size + pieces - 1) / pieces;
            job->pieces = size ? (size + job->piece_size - 1) / job->piece_size : 0;
            /* (overlapping ranges, which the API refuses, keep memmove) */
            uintptr_t dst = (uintptr_t)copy->dst, src = (uintptr_t)copy->src;
            job->stream = cache && size > cache && (dst + size <= src || src + size <= dst);
        } else {
            size_t rows = copy->rows * copy->slices;
            size_t rows_a_piece = COPY_PIECE_BYTES / (copy->row_bytes ? copy->row_bytes : 1);
            job->piece_size = rows_a_piece ? rows_a_piece : 1;
            job->pieces = (rows + job->piece_size - 1) / job->piece_size;
        }
        break;
    }
    case CPU_JOB_FILL: {
        const struct cpu_fill *fill = &job->u.fill;
        if (fill_rows(fill) > 1) {
            size_t rows_a_piece = COPY_PIECE_BYTES / (fill->size ? fill->size : 1);
            job->piece_size = rows_a_piece ? rows_a_piece : 1;
            job->pieces = (fill_rows(fill) + job->piece_size - 1) / job->piece_size;
            break;
        }
        size_t patterns = fill->size / fill->pattern_size;
        size_t pieces = fill->size / COPY_PIECE_BYTES;
        if (pieces > workers * PIECES_A_WORKER)
            pieces = workers * PIECES_A_WORKER;
        if (pieces == 0)
            pieces = 1;
        size_t patterns_a_piece = (patterns + pieces - 1) / pieces;
        job->piece_size = (patterns_a_piece ? patterns_a_piece : 1) * fill->pattern_size;
        job->pieces = fill->size ? (fill->size + job->piece_size - 1) / job->piece_size : 0;
        /* buffer patterns: 1, 2, 4, ... 128 bytes (5.2.3) */
        job->stream = cache && fill->size > cache && 128 % fill->pattern_size == 0;
        break;
    }
    case CPU_JOB_CALL:
        job->piece_size = 1;
        job->pieces = 1;
        break;
    }
}

void cpu_submit(struct cpu_device *device, struct cpu_job *job)
{
    if (atomic_load_explicit(&device->forked, memory_order_relaxed))
        start_again(device);
    split(device, job);
    job->next = NULL;
    atomic_store(&job->next_piece, 0);
    atomic_store(&job->started, 0);
    atomic_store(&job->status, 0);
    if (job->pieces == 0) {
        if (job->on_start)
            job->on_start(job->context);
        job->on_done(job->context, 0);
        return;
    }
    atomic_store(&job->refs, 1); /* the list's reference */
    pthread_mutex_lock(&device->lock);
    if (!device->tail || device->tail->priority >= job->priority) {
        if (device->tail)
            device->tail->next = job;
        else
            device->head = job;
        device->tail = job;
    } else {
        /* after the last job of at least its priority */
        struct cpu_job **link = &device->head;
        while (*link && (*link)->priority >= job->priority)
            link = &(*link)->next;
        job->next = *link;
        *link = job;
    }
    atomic_fetch_add_explicit(&device->submitted, 1, memory_order_release);
    if (device->sleepers)
        pthread_cond_broadcast(&device->wake);
    pthread_mutex_unlock(&device->lock);
}

int cpu_device_domain(const struct cpu_device *device, unsigned worker, enum cpu_domain domain)
{
    hwloc_obj_t core = hwloc_get_obj_by_type(device->hw, HWLOC_OBJ_CORE, worker);
    if (!core)
        core = hwloc_get_obj_by_type(device->hw, HWLOC_OBJ_PU, worker);
    if (!core)
        return -1;
    if (domain == CPU_DOMAIN_NUMA) {
        int node = core->nodeset ? hwloc_bitmap_first(core->nodeset) : -1;
        return node < 0 ? -1 : node;
    }
    static const hwloc_obj_type_t caches[] = {HWLOC_OBJ_L4CACHE, HWLOC_OBJ_L3CACHE,
                                              HWLOC_OBJ_L2CACHE, HWLOC_OBJ_L1CACHE};
    hwloc_obj_t cache =
        hwloc_get_ancestor_obj_by_type(device->hw, caches[domain - CPU_DOMAIN_L4], core);
    return cache ? (int)cache->logical_index : -1;
}
