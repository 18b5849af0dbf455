/* cpu.h - the whole interface of the CPU device backend.
 *
 * The runtime turns each ready command into a cpu_job and hands it over with
 * cpu_submit(). The device splits a job into pieces (work-group chunks of a
 * kernel, byte ranges of a copy or fill) that its pinned worker threads take
 * from a shared counter, so every core works on the oldest job first and a
 * large job keeps all of them busy. The device never looks at cl_mem, events
 * or queues: it calls job->on_start once before the first piece runs and
 * job->on_done once after the last piece has finished.
 */
#ifndef CPUCL_DEVICES_CPU_H
#define CPUCL_DEVICES_CPU_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "compiler/compiler.h"

struct cpu_topology {
    unsigned cores;            /* physical cores the device uses: one worker each */
    unsigned numa_nodes;
    uint64_t global_mem_size;  /* bytes of RAM */
    uint64_t l1d_cache_size;   /* bytes, per core */
    uint64_t l2_cache_size;
    uint64_t l3_cache_size;    /* the last level, shared */
    unsigned cache_line;       /* bytes */
    unsigned clock_mhz;        /* max frequency, 0 when unknown */
    char name[128];            /* processor model name */
    char vendor[64];
};

enum cpu_job_kind {
    CPU_JOB_KERNEL,   /* run work-groups of a kernel */
    CPU_JOB_COPY,     /* memmove-safe copy of rows */
    CPU_JOB_FILL,     /* repeat a pattern */
    CPU_JOB_CALL,     /* one call of a host function on a worker */
};

struct cpu_kernel_launch {
    cc_wg_fn wg;
    cc_wg_fn wg_full;          /* NULL, or for groups of exactly local_size items */
    unsigned group_band;       /* 0: groups in row-major order; else in bands of
                                  that many rows of groups, column by column */
    const void *arg_block;
    uint32_t work_dim;
    uint32_t sub_group_size; /* the kernel's: how the fibers group its work-items */
    size_t global_offset[3];
    size_t global_size[3];
    size_t local_size[3];      /* enqueued local size */
    size_t local_mem_size;     /* arena bytes a work-group needs */
    size_t context_bytes;      /* what regions keep of a group's work-items across
                                  barriers (cpu_fibers_context): made room for on
                                  each worker before its groups run; a worker that
                                  cannot fails the job (CL_OUT_OF_RESOURCES) */
    bool flush_denormals;      /* built with -cl-denorms-are-zero: the worker runs
                                  the groups with denormals flushed to zero */
};

/* A 3D byte-region copy: rows of `row_bytes`, region[1] rows a slice,
 * region[2] slices. Plain copies use region {size, 1, 1}. */
struct cpu_copy {
    char *dst;
    const char *src;
    size_t row_bytes;
    size_t rows, slices;
    size_t dst_row_pitch, dst_slice_pitch;
    size_t src_row_pitch, src_slice_pitch;
};

/* A pattern repeated over `size` bytes, or over each of rows x slices rows
 * of `size` bytes (image fills; 0 rows or slices count as 1). */
struct cpu_fill {
    char *dst;
    size_t size;               /* a multiple of pattern_size */
    size_t pattern_size;       /* 1..128 */
    unsigned char pattern[128];
    size_t rows, slices;
    size_t row_pitch, slice_pitch;
};

struct cpu_call {
    void (*fn)(void *arg);
    void *arg;
};

struct cpu_job {
    enum cpu_job_kind kind;
    union {
        struct cpu_kernel_launch kernel;
        struct cpu_copy copy;
        struct cpu_fill fill;
        struct cpu_call call;
    } u;
    /* Called on a worker (or the submitting thread): before the first piece
     * and after the last. `status` is CL_SUCCESS or a negative error. */
    void (*on_start)(void *context);
    void (*on_done)(void *context, int status);
    void *context;
    /* A sub-device's job: allowed[w] says whether worker w may run it
     * (allowed_count of them); NULL: every worker. */
    const unsigned char *allowed;
    unsigned allowed_count;
    /* Workers take pieces of higher-priority jobs first (cl_khr_priority_hints:
     * 1 high, 0 medium, -1 low), and of older jobs among equals. */
    int priority;

    /* Owned by the device from cpu_submit() until on_done. */
    struct cpu_job *next;
    size_t pieces;
    size_t piece_size;
    bool stream; /* a copy or fill past the last-level cache */
    _Atomic size_t next_piece;
    _Atomic size_t refs;           /* the list + each worker inside the job */
    _Atomic int started;
    _Atomic int status;
};

struct cpu_device;

/* The machine's one CPU device; created on first use, never freed. Returns
 * NULL only when the topology cannot be read or memory is short. */
struct cpu_device *cpu_device_get(void);
const struct cpu_topology *cpu_device_topology(const struct cpu_device *device);

/* Largest local arena a work-group may use, bytes (CL_DEVICE_LOCAL_MEM_SIZE). */
size_t cpu_device_local_mem_size(const struct cpu_device *device);

/* The stack a kernel's code may use (cc_kernel_info.stack_size): of a
 * worker's stack for a work-group function, of a fiber's for a work-item
 * on fibers; the rest is the device's own frames and the calls kernels
 * make into it (printf, device-side enqueue). */
size_t cpu_device_kernel_stack(const struct cpu_device *device, bool fibers);

/* Number of worker threads (CL_DEVICE_MAX_COMPUTE_UNITS). */
unsigned cpu_device_workers(const struct cpu_device *device);

/* Affinity domains for sub-devices (API spec 4.3.1): the group worker
 * `worker` belongs to at that level, numbered from 0, or -1 when the
 * machine does not say. */
enum cpu_domain { CPU_DOMAIN_NUMA, CPU_DOMAIN_L4, CPU_DOMAIN_L3, CPU_DOMAIN_L2, CPU_DOMAIN_L1 };
int cpu_device_domain(const struct cpu_device *device, unsigned worker, enum cpu_domain domain);

/* The context of the kernel job whose work-group the calling thread is
 * running, NULL outside kernels: the parent of a device-side enqueue. */
void *cpu_running_kernel(void);

/* Queues a job; returns at once. The job memory must stay valid until
 * on_done has been called. */
void cpu_submit(struct cpu_device *device, struct cpu_job *job);

#endif
