/* side_by_side.h - the part of cpucl_bench_kernels and cpucl_bench_math
 * that picks the platforms, runs each workload on them in one process and
 * prints the table and the ratios (side_by_side.c). */
#ifndef CPUCL_BENCH_SIDE_BY_SIDE_H
#define CPUCL_BENCH_SIDE_BY_SIDE_H

#include <CL/cl.h>

enum { BENCH_MAX_WORKLOADS = 24 };

/* One platform's results: per workload the best time in ms (0: not run)
 * and whether its result matched the host's. */
struct bench_run {
    const char *name;
    double ms[BENCH_MAX_WORKLOADS];
    int ok[BENCH_MAX_WORKLOADS];
};

struct bench {
    int workloads;
    const char *const *names; /* of the workloads */
    void (*make_inputs)(void);
    /* fills `out->ms` and `out->ok` */
    void (*run_platform)(cl_platform_id platform, int repetitions, struct bench_run *out);
};

/* usage: [-r repetitions] [platform-name ...], default 5 repetitions on
 * cpucl and PoCL ("Portable Computing Language"). Returns main's status. */
int bench_side_by_side(const struct bench *bench, int argc, char **argv);

#endif
