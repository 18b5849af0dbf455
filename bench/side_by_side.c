/* side_by_side.c - runs a bench's workloads on each platform asked for, in
 * one process, and prints the table and each platform's ratio to the
 * first. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "side_by_side.h"

enum { MAX_RUNS = 8, MAX_PLATFORMS = 16 };

static void print_table(const struct bench *bench, const struct bench_run *runs, int used, int reps)
{
    printf("best of %d launches, ms (* = wrong result)\n%-28s", reps, "platform");
    for (int w = 0; w < bench->workloads; w++)
        printf(" %14s", bench->names[w]);
    printf("\n");
    for (int i = 0; i < used; i++) {
        printf("%-28.28s", runs[i].name);
        for (int w = 0; w < bench->workloads; w++)
            printf(" %13.1f%s", runs[i].ms[w], runs[i].ok[w] ? " " : "*");
        printf("\n");
    }
    for (int i = 1; i < used; i++) {
        printf("%s vs %s (above 1: %s is faster):", runs[0].name, runs[i].name, runs[0].name);
        for (int w = 0; w < bench->workloads; w++)
            printf(" %s %.2fx", bench->names[w], runs[i].ms[w] / runs[0].ms[w]);
        printf("\n");
    }
}

int bench_side_by_side(const struct bench *bench, int argc, char **argv)
{
    int reps = 5;
    if (argc > 2 && !strcmp(argv[1], "-r")) {
        reps = atoi(argv[2]);
        reps = reps < 1 ? 1 : reps;
        argc -= 2, argv += 2;
    }
    /* cpucl compiles a kernel's launch copy in the background by default,
     * so the first timed launches could still run the general code: the
     * figures here are a kernel's in a loop, copy made (unless the user
     * asks otherwise). */
    setenv("CPUCL_LAUNCH_COPIES", "sync", 0);
    const char *defaults[] = {"cpucl", "Portable Computing Language"};
    const char **names = argc > 1 ? (const char **)argv + 1 : defaults;
    int count = argc > 1 ? argc - 1 : 2;
    count = count > MAX_RUNS ? MAX_RUNS : count;
    cl_platform_id platforms[MAX_PLATFORMS];
    cl_uint found = 0;
    if (clGetPlatformIDs(MAX_PLATFORMS, platforms, &found) || !found) {
        fprintf(stderr, "no OpenCL platform (is OCL_ICD_VENDORS set?)\n");
        return 1;
    }
    bench->make_inputs();
    struct bench_run runs[MAX_RUNS];
    int used = 0;
    for (int i = 0; i < count; i++)
        for (cl_uint p = 0; p < found && p < MAX_PLATFORMS; p++) {
            char name[256] = "";
            clGetPlatformInfo(platforms[p], CL_PLATFORM_NAME, sizeof name, name, NULL);
            if (strcmp(name, names[i]))
                continue;
            memset(&runs[used], 0, sizeof runs[used]);
            runs[used].name = names[i];
            bench->run_platform(platforms[p], reps, &runs[used]);
            used++;
            break;
        }
    print_table(bench, runs, used, reps);
    return 0;
}
