/* math.c - math-heavy kernels on every OpenCL platform asked for, side by
 * side, each result checked against the host (in double):
 *   blackscholes  call and put prices of 8 Mi options (log, exp, sqrt, erfc)
 *   transcendental  sin(x) + cos(x) * exp(y) + pow(z, w) over 16 Mi floats
 *   transcendental4 the same in float4 (vload4/vstore4), as hand-vectorized
 *                   kernels write it: 4 Mi work-items
 *   mad_chain       256 Ki work-items each running one chain of 1024 dependent
 *                   mad()s (peak-compute benchmarks such as clpeak's): bound by
 *                   the latency of the FMA unless several work-items' chains
 *                   run side by side
 *   mad_chain_double the same in double
 * Each figure is the best of `repetitions` launches after a warm-up, in
 * milliseconds; the ratio is other / first (above 1: the first is faster).
 *
 * usage: cpucl_bench_math [-r repetitions] [platform-name ...]
 *        (default 5; cpucl and PoCL's "Portable Computing Language")
 */
#include <CL/cl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "side_by_side.h"

static const char *source =
    "float cnd(float d) { return 0.5f * erfc(-d * M_SQRT1_2_F); }\n"
    "kernel void blackscholes(global const float *price, global const float *strike,\n"
    "                         global const float *years, global float *call, global float *put,\n"
    "                         float rate, float volatility)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    float s = price[i], k = strike[i], t = years[i];\n"
    "    float root = sqrt(t);\n"
    "    float d1 = (log(s / k) + (rate + 0.5f * volatility * volatility) * t) / (volatility * "
    "root);\n"
    "    float d2 = d1 - volatility * root;\n"
    "    float discounted = k * exp(-rate * t);\n"
    "    call[i] = s * cnd(d1) - discounted * cnd(d2);\n"
    "    put[i] = discounted * cnd(-d2) - s * cnd(-d1);\n"
    "}\n"
    "kernel void transcendental(global const float *x, global const float *y,\n"
    "                            global const float *z, global const float *w, global float *out)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    out[i] = sin(x[i]) + cos(x[i]) * exp(y[i]) + pow(z[i], w[i]);\n"
    "}\n"
    "kernel void transcendental4(global const float *x, global const float *y,\n"
    "                             global const float *z, global const float *w, global float "
    "*out)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    float4 a = vload4(i, x);\n"
    "    vstore4(sin(a) + cos(a) * exp(vload4(i, y)) + pow(vload4(i, z), vload4(i, w)), i, out);\n"
    "}\n"
    "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
    "#define CHAIN(x, y, k) for (int i = 0; i < CHAIN_LENGTH / 8; i++) {                 \\\n"
    "    x = mad(x, k, y); x = mad(x, k, y); x = mad(x, k, y); x = mad(x, k, y);          \\\n"
    "    x = mad(x, k, y); x = mad(x, k, y); x = mad(x, k, y); x = mad(x, k, y); }\n"
    "kernel void mad_chain(global float *out, float k)\n"
    "{\n"
    "    float x = 0.0f, y = (float)get_local_id(0) * 0.001f;\n"
    "    CHAIN(x, y, k)\n"
    "    out[get_global_id(0)] = x;\n"
    "}\n"
    "kernel void mad_chain_double(global double *out, double k)\n"
    "{\n"
    "    double x = 0.0, y = (double)get_local_id(0) * 0.001;\n"
    "    CHAIN(x, y, k)\n"
    "    out[get_global_id(0)] = x;\n"
    "}\n";

enum { OPTIONS = 8 << 20, VALUES = 16 << 20, WORKLOADS = 5, SAMPLES = 4096 };
enum { CHAIN_ITEMS = 256 << 10, CHAIN_LENGTH = 1024, CHAIN_LOCAL = 256 };
static const char *const workload_names[WORKLOADS] = {
    "blackscholes", "transcendental", "transcendental4", "mad_chain", "mad_chain_double"};
static const float rate = 0.02f, volatility = 0.30f;

static float *price, *strike, *years, *values;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void make_inputs(void)
{
    price = malloc(sizeof(float) * OPTIONS);
    strike = malloc(sizeof(float) * OPTIONS);
    years = malloc(sizeof(float) * OPTIONS);
    values = malloc(sizeof(float) * 4 * (size_t)VALUES); /* x, y, z and w, one after another */
    unsigned seed = 12345;
    for (size_t i = 0; i < OPTIONS; i++) {
        seed = seed * 1103515245u + 12345u;
        price[i] = 5.0f + (seed >> 8) % 2500 / 100.0f;
        strike[i] = 1.0f + (seed >> 12) % 9900 / 99.0f;
        years[i] = 0.25f + (seed >> 4) % 1000 / 100.0f;
    }
    for (size_t i = 0; i < (size_t)VALUES; i++) {
        seed = seed * 1103515245u + 12345u;
        float *v = values + i;
        v[0] = ((seed >> 8) % 20000) / 1000.0f - 10.0f;         /* sin/cos argument */
        v[VALUES] = ((seed >> 4) % 8000) / 1000.0f - 4.0f;      /* exp argument */
        v[2 * VALUES] = ((seed >> 12) % 1000) / 100.0f + 0.01f; /* pow base > 0 */
        v[3 * VALUES] = ((seed >> 2) % 600) / 100.0f - 3.0f;    /* pow exponent */
    }
}

static double cnd(double d)
{
    return 0.5 * erfc(-d / sqrt(2.0));
}

/* Best time of `reps` launches of `k` over `global` work-items in groups
 * of `local` (0: the driver's choice), ms. */
static double best_of(cl_command_queue queue, cl_kernel k, size_t global, size_t local, int reps)
{
    double best = 1e30;
    for (int r = -1; r < reps; r++) { /* r = -1: warm-up (first launch builds lazily elsewhere) */
        double t0 = now();
        if (clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, local ? &local : NULL, 0, NULL,
                                   NULL) ||
            clFinish(queue))
            return -1;
        double ms = (now() - t0) * 1e3;
        if (r >= 0 && ms < best)
            best = ms;
    }
    return best;
}

static cl_mem buffer(cl_context context, size_t size, void *data)
{
    cl_int err;
    return clCreateBuffer(context, CL_MEM_READ_WRITE | (data ? CL_MEM_COPY_HOST_PTR : 0), size,
                          data, &err);
}

/* x = k x + y, CHAIN_LENGTH times from 0, in double on the host: the
 * device's mad may or may not round its product, so 1e-4 apart. Local size
 * CHAIN_LOCAL, as clpeak gives one. */
static void run_chain(cl_context context, cl_command_queue queue, cl_program program, int is_double,
                      int reps, double *ms, int *ok)
{
    cl_int err;
    cl_kernel k = clCreateKernel(program, is_double ? "mad_chain_double" : "mad_chain", &err);
    size_t size = is_double ? sizeof(double) : sizeof(float);
    cl_mem o = buffer(context, size * CHAIN_ITEMS, NULL);
    float factor = 0.99f;
    double factor_double = 0.99;
    clSetKernelArg(k, 0, sizeof o, &o);
    if (is_double)
        clSetKernelArg(k, 1, sizeof factor_double, &factor_double);
    else
        clSetKernelArg(k, 1, sizeof factor, &factor);
    *ms = best_of(queue, k, CHAIN_ITEMS, CHAIN_LOCAL, reps);
    void *result = malloc(size * CHAIN_ITEMS);
    clEnqueueReadBuffer(queue, o, CL_TRUE, 0, size * CHAIN_ITEMS, result, 0, NULL, NULL);
    int bad = 0;
    for (size_t i = 0; i < CHAIN_ITEMS; i += CHAIN_ITEMS / SAMPLES - 1) {
        double got = is_double ? ((double *)result)[i] : ((float *)result)[i];
        double x = 0.0, y = (double)(i % CHAIN_LOCAL) * 0.001;
        for (int n = 0; n < CHAIN_LENGTH; n++)
            x = x * 0.99 + y;
        bad += fabs(got - x) > 1e-4 * (1 + fabs(x));
    }
    *ok = *ms > 0 && bad == 0;
    free(result);
    clReleaseMemObject(o);
    clReleaseKernel(k);
}

static void run_platform(cl_platform_id platform, int reps, struct bench_run *out)
{
    for (int w = 0; w < WORKLOADS; w++)
        out->ms[w] = -1, out->ok[w] = 0;
    cl_device_id device;
    cl_int err;
    if (clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL))
        return;
    cl_context context = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    cl_command_queue queue = clCreateCommandQueueWithProperties(context, device, NULL, &err);
    cl_program program = clCreateProgramWithSource(context, 1, &source, NULL, &err);
    char options[64];
    snprintf(options, sizeof options, "-DCHAIN_LENGTH=%d", CHAIN_LENGTH);
    if (clBuildProgram(program, 1, &device, options, NULL, NULL)) {
        fprintf(stderr, "%s: build failed\n", out->name);
        return;
    }
    { /* Black-Scholes */
        cl_kernel k = clCreateKernel(program, "blackscholes", &err);
        cl_mem p = buffer(context, sizeof(float) * OPTIONS, price);
        cl_mem s = buffer(context, sizeof(float) * OPTIONS, strike);
        cl_mem y = buffer(context, sizeof(float) * OPTIONS, years);
        cl_mem c = buffer(context, sizeof(float) * OPTIONS, NULL);
        cl_mem u = buffer(context, sizeof(float) * OPTIONS, NULL);
        cl_mem args[5] = {p, s, y, c, u};
        for (int i = 0; i < 5; i++)
            clSetKernelArg(k, i, sizeof(cl_mem), &args[i]);
        clSetKernelArg(k, 5, sizeof rate, &rate);
        clSetKernelArg(k, 6, sizeof volatility, &volatility);
        out->ms[0] = best_of(queue, k, OPTIONS, 0, reps);
        float *calls = malloc(sizeof(float) * OPTIONS), *puts = malloc(sizeof(float) * OPTIONS);
        clEnqueueReadBuffer(queue, c, CL_TRUE, 0, sizeof(float) * OPTIONS, calls, 0, NULL, NULL);
        clEnqueueReadBuffer(queue, u, CL_TRUE, 0, sizeof(float) * OPTIONS, puts, 0, NULL, NULL);
        int bad = 0;
        for (size_t i = 0; i < OPTIONS; i += OPTIONS / SAMPLES) {
            double root = sqrt(years[i]);
            double d1 = (log((double)price[i] / strike[i]) +
                         (rate + 0.5 * volatility * volatility) * years[i]) /
                        (volatility * root);
            double d2 = d1 - volatility * root;
            double discounted = strike[i] * exp(-(double)rate * years[i]);
            double call = price[i] * cnd(d1) - discounted * cnd(d2);
            double put = discounted * cnd(-d2) - price[i] * cnd(-d1);
            bad += fabs(calls[i] - call) > 1e-3 * (1 + fabs(call));
            bad += fabs(puts[i] - put) > 1e-3 * (1 + fabs(put));
        }
        out->ok[0] = out->ms[0] > 0 && bad == 0;
        free(calls);
        free(puts);
        for (int i = 0; i < 5; i++)
            clReleaseMemObject(args[i]);
        clReleaseKernel(k);
    }
    for (int w = 1; w <= 2; w++) { /* transcendental, scalar and float4 */
        cl_kernel k = clCreateKernel(program, w == 1 ? "transcendental" : "transcendental4", &err);
        cl_mem in[4];
        for (int a = 0; a < 4; a++) {
            in[a] = buffer(context, sizeof(float) * (size_t)VALUES, values + a * (size_t)VALUES);
            clSetKernelArg(k, a, sizeof in[a], &in[a]);
        }
        cl_mem o = buffer(context, sizeof(float) * (size_t)VALUES, NULL);
        clSetKernelArg(k, 4, sizeof o, &o);
        out->ms[w] = best_of(queue, k, w == 1 ? VALUES : VALUES / 4, 0, reps);
        float *result = malloc(sizeof(float) * (size_t)VALUES);
        clEnqueueReadBuffer(queue, o, CL_TRUE, 0, sizeof(float) * (size_t)VALUES, result, 0, NULL,
                            NULL);
        int bad = 0;
        for (size_t i = 0; i < (size_t)VALUES; i += VALUES / SAMPLES - 1) {
            const float *v = values + i;
            double want =
                sin(v[0]) + cos(v[0]) * exp(v[VALUES]) + pow(v[2 * VALUES], v[3 * VALUES]);
            bad += fabs(result[i] - want) > 1e-4 * (1 + fabs(want));
        }
        out->ok[w] = out->ms[w] > 0 && bad == 0;
        free(result);
        for (int a = 0; a < 4; a++)
            clReleaseMemObject(in[a]);
        clReleaseMemObject(o);
        clReleaseKernel(k);
    }
    for (int w = 3; w <= 4; w++) /* the chains, float and double */
        run_chain(context, queue, program, w == 4, reps, &out->ms[w], &out->ok[w]);
    clReleaseProgram(program);
    clReleaseCommandQueue(queue);
    clReleaseContext(context);
}

int main(int argc, char **argv)
{
    const struct bench bench = {WORKLOADS, workload_names, make_inputs, run_platform};
    return bench_side_by_side(&bench, argc, argv);
}
