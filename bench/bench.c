/* bench.c - the same workloads on every OpenCL platform asked for, side by
 * side, with the ratio against the first one (cpucl):
 *   latency     enqueue-to-completion of a one-work-item kernel (median, us)
 *   throughput  10000 tiny kernels then one clFinish (kernels/s)
 *   triad       a[i] = b[i] + s * c[i] on 64 Mi floats (GB/s, best of 5)
 *   build       clBuildProgram of a small program (ms, first build)
 *
 * usage: cpucl_bench [platform-name ...]   (default: cpucl and PoCL)
 */
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char *source =
    "kernel void tiny(global int *p) { p[0] = 1; }\n"
    "kernel void triad(global float *a, global const float *b, global const float *c, float s)\n"
    "{ size_t i = get_global_id(0); a[i] = b[i] + s * c[i]; }\n";

struct result {
    const char *name;
    double latency_us, kernels_per_s, triad_gbs, build_ms;
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

#define TRY(call)                                                                          \
    do {                                                                                   \
        cl_int e_ = (call);                                                                \
        if (e_ != CL_SUCCESS) {                                                            \
            fprintf(stderr, "%s: %s failed (%d)\n", r->name, #call, e_);                  \
            return;                                                                        \
        }                                                                                  \
    } while (0)

static void run(cl_platform_id platform, struct result *r)
{
    cl_device_id device;
    cl_int err;
    TRY(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL));
    cl_context context = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    TRY(err);
    cl_command_queue queue = clCreateCommandQueueWithProperties(context, device, NULL, &err);
    TRY(err);
    cl_program program = clCreateProgramWithSource(context, 1, &source, NULL, &err);
    TRY(err);
    double t0 = now();
    TRY(clBuildProgram(program, 1, &device, "", NULL, NULL));
    r->build_ms = (now() - t0) * 1e3;
    cl_kernel tiny = clCreateKernel(program, "tiny", &err);
    TRY(err);
    cl_kernel triad = clCreateKernel(program, "triad", &err);
    TRY(err);

    cl_mem flag = clCreateBuffer(context, CL_MEM_READ_WRITE, 64, NULL, &err);
    TRY(err);
    TRY(clSetKernelArg(tiny, 0, sizeof flag, &flag));
    size_t one = 1;
    enum { LATENCY_RUNS = 2000 };
    static double samples[LATENCY_RUNS];
    for (int i = 0; i < 100; i++) /* warm up */
        clEnqueueNDRangeKernel(queue, tiny, 1, NULL, &one, &one, 0, NULL, NULL), clFinish(queue);
    for (int i = 0; i < LATENCY_RUNS; i++) {
        double start = now();
        TRY(clEnqueueNDRangeKernel(queue, tiny, 1, NULL, &one, &one, 0, NULL, NULL));
        TRY(clFinish(queue));
        samples[i] = (now() - start) * 1e6;
    }
    qsort(samples, LATENCY_RUNS, sizeof samples[0], compare_doubles);
    r->latency_us = samples[LATENCY_RUNS / 2];

    enum { MANY = 10000 };
    t0 = now();
    for (int i = 0; i < MANY; i++)
        TRY(clEnqueueNDRangeKernel(queue, tiny, 1, NULL, &one, &one, 0, NULL, NULL));
    TRY(clFinish(queue));
    r->kernels_per_s = MANY / (now() - t0);

    size_t n = (size_t)64 << 20;
    cl_mem a = clCreateBuffer(context, CL_MEM_READ_WRITE, n * 4, NULL, &err);
    TRY(err);
    cl_mem b = clCreateBuffer(context, CL_MEM_READ_WRITE, n * 4, NULL, &err);
    TRY(err);
    cl_mem c = clCreateBuffer(context, CL_MEM_READ_WRITE, n * 4, NULL, &err);
    TRY(err);
    float one_f = 1.0f, s = 3.0f;
    TRY(clEnqueueFillBuffer(queue, b, &one_f, 4, 0, n * 4, 0, NULL, NULL));
    TRY(clEnqueueFillBuffer(queue, c, &one_f, 4, 0, n * 4, 0, NULL, NULL));
    TRY(clSetKernelArg(triad, 0, sizeof a, &a));
    TRY(clSetKernelArg(triad, 1, sizeof b, &b));
    TRY(clSetKernelArg(triad, 2, sizeof c, &c));
    TRY(clSetKernelArg(triad, 3, sizeof s, &s));
    TRY(clEnqueueNDRangeKernel(queue, triad, 1, NULL, &n, NULL, 0, NULL, NULL));
    TRY(clFinish(queue));
    double best = 1e9;
    for (int i = 0; i < 5; i++) {
        t0 = now();
        TRY(clEnqueueNDRangeKernel(queue, triad, 1, NULL, &n, NULL, 0, NULL, NULL));
        TRY(clFinish(queue));
        double t = now() - t0;
        best = t < best ? t : best;
    }
    float check[4];
    TRY(clEnqueueReadBuffer(queue, a, CL_TRUE, (n - 4) * 4, sizeof check, check, 0, NULL, NULL));
    if (check[3] != 4.0f)
        fprintf(stderr, "%s: triad gave %g, expected 4\n", r->name, check[3]);
    r->triad_gbs = 3.0 * n * 4 / best * 1e-9;
    r->ok = check[3] == 4.0f;

    clReleaseMemObject(a), clReleaseMemObject(b), clReleaseMemObject(c), clReleaseMemObject(flag);
    clReleaseKernel(tiny), clReleaseKernel(triad);
    clReleaseProgram(program);
    clReleaseCommandQueue(queue);
    clReleaseContext(context);
}

int main(int argc, char **argv)
{
    const char *defaults[] = {"cpucl", "Portable Computing Language"};
    const char **names = argc > 1 ? (const char **)argv + 1 : defaults;
    int count = argc > 1 ? argc - 1 : 2;
    cl_platform_id platforms[16];
    cl_uint found = 0;
    if (clGetPlatformIDs(16, platforms, &found) != CL_SUCCESS || found == 0) {
        fprintf(stderr, "no OpenCL platform\n");
        return 1;
    }
    struct result results[16] = {{0}};
    int ran = 0;
    for (int i = 0; i < count && ran < 16; i++) {
        for (cl_uint p = 0; p < found && p < 16; p++) {
            char name[256] = "";
            clGetPlatformInfo(platforms[p], CL_PLATFORM_NAME, sizeof name, name, NULL);
            if (strcmp(name, names[i]))
                continue;
            results[ran].name = names[i];
            run(platforms[p], &results[ran]);
            ran++;
            break;
        }
    }
    printf("%-28s %14s %16s %12s %10s\n", "platform", "latency (us)", "kernels/s", "triad GB/s",
           "build ms");
    for (int i = 0; i < ran; i++)
        printf("%-28s %14.1f %16.0f %12.1f %10.1f%s\n", results[i].name, results[i].latency_us,
               results[i].kernels_per_s, results[i].triad_gbs, results[i].build_ms,
               results[i].ok ? "" : "  (failed)");
    for (int i = 1; i < ran; i++)
        printf("ratio %s/%s: latency %.2fx lower, throughput %.2fx, triad %.2fx, build %.2fx faster\n",
               results[0].name, results[i].name, results[i].latency_us / results[0].latency_us,
               results[0].kernels_per_s / results[i].kernels_per_s,
               results[0].triad_gbs / results[i].triad_gbs, results[i].build_ms / results[0].build_ms);
    return 0;
}
