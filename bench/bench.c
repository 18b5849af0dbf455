/* bench.c - the same workloads on every OpenCL platform asked for, side by
 * side, with the ratio of the first one (cpucl) to each other:
 *   latency     enqueue-to-completion of a one-work-item kernel on an
 *               in-order queue, clFinish after each (median, us)
 *   throughput  10000 one-work-item kernels enqueued, then one clFinish
 *               (kernels/s)
 *   triad       a[i] = b[i] + s * c[i] on 64 Mi floats, best of 5 after a
 *               warm-up (GB/s, 12 bytes an element)
 *   build       clBuildProgram of a small program never built before (a
 *               fresh comment defeats disk caches); 1st run: from there to
 *               the end of the first launch (drivers that generate code at
 *               the first launch pay it here); rebuild: the same source
 *               again in a new program object (ms)
 *
 * usage: cpucl_bench [-r repetitions] [platform-name ...]
 *        (default: 3 repetitions; cpucl and PoCL's "Portable Computing
 *        Language"; the first platform named is the base of the ratios)
 */
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const char *source_body =
    "kernel void tiny(global int *p) { p[0] = 1; }\n"
    "kernel void triad(global float *a, global const float *b, global const float *c, float s)\n"
    "{ size_t i = get_global_id(0); a[i] = b[i] + s * c[i]; }\n";

enum { LATENCY_RUNS = 2000, WARM_UP = 100, MANY = 10000, TRIAD_RUNS = 5 };
#define TRIAD_ELEMENTS ((size_t)64 << 20)

struct result {
    const char *name;
    char device[128];
    double latency_us, kernels_per_s, triad_gbs, build_ms, first_result_ms, rebuild_ms;
    int ok;
};

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

#define TRY(call)                                                                                  \
    do {                                                                                           \
        cl_int e_ = (call);                                                                        \
        if (e_ != CL_SUCCESS) {                                                                    \
            fprintf(stderr, "%s: %s failed (%d)\n", r->name, #call, e_);                           \
            goto out;                                                                              \
        }                                                                                          \
    } while (0)

/* Builds `source` in a new program object; returns the program (NULL on
 * failure) and the time clBuildProgram took. */
static cl_program timed_build(cl_context context, cl_device_id device, const char *source,
                              double *ms)
{
    cl_int err;
    cl_program program = clCreateProgramWithSource(context, 1, &source, NULL, &err);
    if (err != CL_SUCCESS)
        return NULL;
    double t0 = now();
    err = clBuildProgram(program, 1, &device, "", NULL, NULL);
    *ms = (now() - t0) * 1e3;
    if (err != CL_SUCCESS) {
        char log[4096] = "";
        clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
        fprintf(stderr, "build failed (%d): %s\n", err, log);
        clReleaseProgram(program);
        return NULL;
    }
    return program;
}

static void run(cl_platform_id platform, struct result *r)
{
    cl_device_id device;
    cl_context context = NULL;
    cl_command_queue queue = NULL;
    cl_program program = NULL, again = NULL;
    cl_kernel tiny = NULL, triad = NULL;
    cl_mem flag = NULL, a = NULL, b = NULL, c = NULL;
    float *check = NULL;
    cl_int err;
    TRY(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL));
    clGetDeviceInfo(device, CL_DEVICE_NAME, sizeof r->device, r->device, NULL);
    context = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    TRY(err);
    queue = clCreateCommandQueueWithProperties(context, device, NULL, &err);
    TRY(err);

    /* A comment no cache has seen: the first build compiles. */
    static int builds;
    char source[1024];
    snprintf(source, sizeof source, "// cpucl_bench %ld.%ld.%d\n%s", (long)getpid(),
             (long)time(NULL), builds++, source_body);
    program = timed_build(context, device, source, &r->build_ms);
    TRY(program ? CL_SUCCESS : CL_BUILD_PROGRAM_FAILURE);
    again = timed_build(context, device, source, &r->rebuild_ms);
    TRY(again ? CL_SUCCESS : CL_BUILD_PROGRAM_FAILURE);
    /* Some drivers generate machine code only at the first launch: the
     * time to the first result counts that too. */
    flag = clCreateBuffer(context, CL_MEM_READ_WRITE, 64, NULL, &err);
    TRY(err);
    size_t one = 1;
    double first = now();
    tiny = clCreateKernel(program, "tiny", &err);
    TRY(err);
    TRY(clSetKernelArg(tiny, 0, sizeof flag, &flag));
    TRY(clEnqueueNDRangeKernel(queue, tiny, 1, NULL, &one, &one, 0, NULL, NULL));
    TRY(clFinish(queue));
    r->first_result_ms = r->build_ms + (now() - first) * 1e3;
    triad = clCreateKernel(program, "triad", &err);
    TRY(err);

    /* latency */
    static double samples[LATENCY_RUNS];
    for (int i = 0; i < WARM_UP; i++) {
        TRY(clEnqueueNDRangeKernel(queue, tiny, 1, NULL, &one, &one, 0, NULL, NULL));
        TRY(clFinish(queue));
    }
    for (int i = 0; i < LATENCY_RUNS; i++) {
        double start = now();
        TRY(clEnqueueNDRangeKernel(queue, tiny, 1, NULL, &one, &one, 0, NULL, NULL));
        TRY(clFinish(queue));
        samples[i] = (now() - start) * 1e6;
    }
    qsort(samples, LATENCY_RUNS, sizeof samples[0], compare_doubles);
    r->latency_us = samples[LATENCY_RUNS / 2];

    /* throughput */
    double t0 = now();
    for (int i = 0; i < MANY; i++)
        TRY(clEnqueueNDRangeKernel(queue, tiny, 1, NULL, &one, &one, 0, NULL, NULL));
    TRY(clFinish(queue));
    r->kernels_per_s = MANY / (now() - t0);

    /* triad */
    size_t n = TRIAD_ELEMENTS;
    a = clCreateBuffer(context, CL_MEM_READ_WRITE, n * 4, NULL, &err);
    TRY(err);
    b = clCreateBuffer(context, CL_MEM_READ_WRITE, n * 4, NULL, &err);
    TRY(err);
    c = clCreateBuffer(context, CL_MEM_READ_WRITE, n * 4, NULL, &err);
    TRY(err);
    float b_value = 1.0f, c_value = 0.5f, s = 3.0f, zero = 0.0f;
    TRY(clEnqueueFillBuffer(queue, a, &zero, 4, 0, n * 4, 0, NULL, NULL));
    TRY(clEnqueueFillBuffer(queue, b, &b_value, 4, 0, n * 4, 0, NULL, NULL));
    TRY(clEnqueueFillBuffer(queue, c, &c_value, 4, 0, n * 4, 0, NULL, NULL));
    TRY(clSetKernelArg(triad, 0, sizeof a, &a));
    TRY(clSetKernelArg(triad, 1, sizeof b, &b));
    TRY(clSetKernelArg(triad, 2, sizeof c, &c));
    TRY(clSetKernelArg(triad, 3, sizeof s, &s));
    TRY(clEnqueueNDRangeKernel(queue, triad, 1, NULL, &n, NULL, 0, NULL, NULL)); /* warm-up */
    TRY(clFinish(queue));
    double best = 1e30;
    for (int i = 0; i < TRIAD_RUNS; i++) {
        t0 = now();
        TRY(clEnqueueNDRangeKernel(queue, triad, 1, NULL, &n, NULL, 0, NULL, NULL));
        TRY(clFinish(queue));
        double t = now() - t0;
        best = t < best ? t : best;
    }
    r->triad_gbs = 3.0 * n * 4 / best * 1e-9;
    /* Every element must be 1 + 3 * 0.5. */
    check = malloc(n * 4);
    TRY(check ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY);
    TRY(clEnqueueReadBuffer(queue, a, CL_TRUE, 0, n * 4, check, 0, NULL, NULL));
    size_t wrong = 0;
    for (size_t i = 0; i < n; i++)
        wrong += check[i] != 2.5f;
    if (wrong)
        fprintf(stderr, "%s: triad gave %zu wrong elements\n", r->name, wrong);
    r->ok = wrong == 0;

out:
    free(check);
    if (a)
        clReleaseMemObject(a);
    if (b)
        clReleaseMemObject(b);
    if (c)
        clReleaseMemObject(c);
    if (flag)
        clReleaseMemObject(flag);
    if (tiny)
        clReleaseKernel(tiny);
    if (triad)
        clReleaseKernel(triad);
    if (program)
        clReleaseProgram(program);
    if (again)
        clReleaseProgram(again);
    if (queue)
        clReleaseCommandQueue(queue);
    if (context)
        clReleaseContext(context);
}

static double median(double *values, int count)
{
    qsort(values, count, sizeof values[0], compare_doubles);
    return count % 2 ? values[count / 2] : (values[count / 2 - 1] + values[count / 2]) / 2;
}

/* Repetitions run the platforms in turn (a, b, a, b, ...) so that a slow
 * moment of the machine is shared; each figure is then the median over
 * them, except triad, which is the best (it is a best-of already). */
static void combine(struct result *runs, int reps, struct result *out)
{
    double values[6][64];
    *out = runs[0];
    out->ok = 1;
    for (int i = 0; i < reps; i++) {
        values[0][i] = runs[i].latency_us;
        values[1][i] = runs[i].kernels_per_s;
        values[2][i] = runs[i].build_ms;
        values[3][i] = runs[i].rebuild_ms;
        values[4][i] = runs[i].first_result_ms;
        out->triad_gbs = runs[i].triad_gbs > out->triad_gbs ? runs[i].triad_gbs : out->triad_gbs;
        out->ok &= runs[i].ok;
    }
    out->latency_us = median(values[0], reps);
    out->kernels_per_s = median(values[1], reps);
    out->build_ms = median(values[2], reps);
    out->rebuild_ms = median(values[3], reps);
    out->first_result_ms = median(values[4], reps);
}

int main(int argc, char **argv)
{
    int reps = 3;
    if (argc > 2 && !strcmp(argv[1], "-r")) {
        reps = atoi(argv[2]);
        reps = reps < 1 ? 1 : reps > 64 ? 64 : reps;
        argc -= 2, argv += 2;
    }
    const char *defaults[] = {"cpucl", "Portable Computing Language"};
    const char **names = argc > 1 ? (const char **)argv + 1 : defaults;
    int count = argc > 1 ? argc - 1 : 2;
    count = count > 16 ? 16 : count;
    cl_platform_id platforms[16], chosen[16];
    cl_uint found = 0;
    if (clGetPlatformIDs(16, platforms, &found) != CL_SUCCESS || found == 0) {
        fprintf(stderr, "no OpenCL platform (is OCL_ICD_VENDORS set?)\n");
        return 1;
    }
    const char *chosen_names[16];
    int platforms_used = 0;
    for (int i = 0; i < count; i++) {
        int seen = 0;
        for (cl_uint p = 0; p < found && p < 16 && !seen; p++) {
            char name[256] = "";
            clGetPlatformInfo(platforms[p], CL_PLATFORM_NAME, sizeof name, name, NULL);
            if (!strcmp(name, names[i])) {
                chosen[platforms_used] = platforms[p];
                chosen_names[platforms_used++] = names[i];
                seen = 1;
            }
        }
        if (!seen)
            fprintf(stderr, "platform \"%s\" not found\n", names[i]);
    }
    if (!platforms_used)
        return 1;
    static struct result runs[16][64], results[16];
    for (int rep = 0; rep < reps; rep++)
        for (int i = 0; i < platforms_used; i++) {
            runs[i][rep].name = chosen_names[i];
            run(chosen[i], &runs[i][rep]);
        }
    for (int i = 0; i < platforms_used; i++)
        combine(runs[i], reps, &results[i]);
    printf("%d repetitions; latency, kernels/s, build: median; triad: best\n", reps);
    printf("%-28s %-24s %11s %10s %10s %9s %9s %9s\n", "platform", "device", "latency us",
           "kernels/s", "triad GB/s", "build ms", "1st run", "rebuild");
    for (int i = 0; i < platforms_used; i++)
        printf("%-28s %-24.24s %11.1f %10.0f %10.1f %9.1f %9.1f %9.1f%s\n", results[i].name,
               results[i].device, results[i].latency_us, results[i].kernels_per_s,
               results[i].triad_gbs, results[i].build_ms, results[i].first_result_ms,
               results[i].rebuild_ms, results[i].ok ? "" : "  (failed)");
    for (int i = 1; i < platforms_used; i++)
        printf("%s vs %s (above 1: %s is better): latency %.2fx, throughput %.2fx, triad %.2fx, "
               "build %.2fx, 1st run %.2fx, rebuild %.2fx\n",
               results[0].name, results[i].name, results[0].name,
               results[i].latency_us / results[0].latency_us,
               results[0].kernels_per_s / results[i].kernels_per_s,
               results[0].triad_gbs / results[i].triad_gbs,
               results[i].build_ms / results[0].build_ms,
               results[i].first_result_ms / results[0].first_result_ms,
               results[i].rebuild_ms / results[0].rebuild_ms);
    int all_ok = 1;
    for (int i = 0; i < platforms_used; i++)
        all_ok &= results[i].ok;
    return all_ok ? 0 : 1;
}
