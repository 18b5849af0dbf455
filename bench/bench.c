/* bench.c - the same workloads on every OpenCL platform asked for, side by
 * side, with the ratio of the first one (cpucl) to each other:
 *   latency     enqueue-to-completion of a one-work-item kernel on an
 *               in-order queue, clFinish after each (median, us)
 *   throughput  100000 one-work-item kernels enqueued, then one clFinish
 *               (kernels/s)
 *   replay      cl_khr_command_buffer: 1000 of those kernels recorded once,
 *               the buffer enqueued 100 times, a clFinish after each
 *               (kernels/s; 0: the platform has no command-buffers)
 *   triad       a[i] = b[i] + s * c[i] on 64 Mi floats, best of 5 after a
 *               warm-up (GB/s, 12 bytes an element)
 *   copy        clEnqueueCopyBuffer of 1 GiB, best of 3 after a warm-up
 *               (GB/s copied), beside memcpy of 1 GiB split over one host
 *               thread per core, the best the machine's memory allows
 *   mapped      memcpy of 256 MiB from a buffer mapped for reading into
 *               malloc'd host memory, as programs read results (one host
 *               thread: what the host's memcpy makes of the driver's
 *               storage), best of 3 (GB/s)
 *   build       clBuildProgram of a small program never built before (a
 *               fresh unused constant defeats kernel caches); 1st run:
 *               from there to the end of the first launch (drivers that
 *               generate code at the first launch pay it here); rebuild:
 *               the same source again in a new program object, which a
 *               driver with a kernel cache answers from it (ms)
 *   20 kernels  the same two builds of a program of 20 kernels (math,
 *               barriers, local memory, atomics): cold, then cached, each
 *               also to the end of a first launch of every kernel (ms)
 *
 * usage: cpucl_bench [-r repetitions] [platform-name ...]
 *        (default: 3 repetitions; cpucl and PoCL's "Portable Computing
 *        Language"; the first platform named is the base of the ratios)
 */
#include <CL/cl.h>
#include <CL/cl_ext.h>
#include <ftw.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const char *source_body =
    "kernel void tiny(global int *p) { p[0] = 1; }\n"
    "kernel void triad(global float *a, global const float *b, global const float *c, float s)\n"
    "{ size_t i = get_global_id(0); a[i] = b[i] + s * c[i]; }\n";

/* A mid-size program: 20 kernels of the kinds applications have. */
static const char *mid_source_body =
    "kernel void k_add(global const float *a, global const float *b, global float *c)\n"
    "{ size_t i = get_global_id(0); c[i] = a[i] + b[i]; }\n"
    "kernel void k_saxpy(global float *y, global const float *x, float a)\n"
    "{ size_t i = get_global_id(0); y[i] = a * x[i] + y[i]; }\n"
    "kernel void k_scale4(global float4 *v, float s) { v[get_global_id(0)] *= s; }\n"
    "kernel void k_exp(global float *v)\n"
    "{ size_t i = get_global_id(0); v[i] = exp(v[i]) + log1p(fabs(v[i])); }\n"
    "kernel void k_trig(global float *v)\n"
    "{ size_t i = get_global_id(0); v[i] = sin(v[i]) * cos(v[i]) + atan2(v[i], 2.0f); }\n"
    "kernel void k_pow(global double *v, double e)\n"
    "{ size_t i = get_global_id(0); v[i] = pow(v[i], e); }\n"
    "kernel void k_clamp(global int *v, int lo, int hi)\n"
    "{ size_t i = get_global_id(0); v[i] = clamp(v[i], lo, hi); }\n"
    "kernel void k_popcnt(global uint *v)\n"
    "{ size_t i = get_global_id(0); v[i] = popcount(v[i]) + clz(v[i]) + rotate(v[i], 3u); }\n"
    "kernel void k_dot(global const float4 *a, global const float4 *b, global float *r)\n"
    "{ size_t i = get_global_id(0); r[i] = dot(a[i], b[i]) + length(a[i]); }\n"
    "kernel void k_convert(global const float *f, global int *o)\n"
    "{ size_t i = get_global_id(0); o[i] = convert_int_sat_rte(f[i] * 1000.0f); }\n"
    "kernel void k_reduce(global const float *in, global float *out, local float *t)\n"
    "{\n"
    "    size_t l = get_local_id(0), n = get_local_size(0);\n"
    "    t[l] = in[get_global_id(0)];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    for (size_t s = n / 2; s > 0; s /= 2) {\n"
    "        if (l < s) t[l] += t[l + s];\n"
    "        barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    }\n"
    "    if (l == 0) out[get_group_id(0)] = t[0];\n"
    "}\n"
    "#define TS 16\n"
    "kernel void k_sgemm(int n, global const float *a, global const float *b, global float *c)\n"
    "{\n"
    "    local float ta[TS][TS], tb[TS][TS];\n"
    "    int lx = get_local_id(0), ly = get_local_id(1);\n"
    "    int col = get_global_id(0), row = get_global_id(1);\n"
    "    float sum = 0.0f;\n"
    "    for (int k0 = 0; k0 < n; k0 += TS) {\n"
    "        ta[ly][lx] = a[row * n + k0 + lx];\n"
    "        tb[ly][lx] = b[(k0 + ly) * n + col];\n"
    "        barrier(CLK_LOCAL_MEM_FENCE);\n"
    "        for (int k = 0; k < TS; k++) sum += ta[ly][k] * tb[k][lx];\n"
    "        barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    }\n"
    "    c[row * n + col] = sum;\n"
    "}\n"
    "kernel void k_transpose(int n, global const float *in, global float *out)\n"
    "{\n"
    "    local float tile[TS][TS + 1];\n"
    "    int lx = get_local_id(0), ly = get_local_id(1);\n"
    "    int bx = get_group_id(0) * TS, by = get_group_id(1) * TS;\n"
    "    tile[ly][lx] = in[(by + ly) * n + bx + lx];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    out[(bx + ly) * n + by + lx] = tile[lx][ly];\n"
    "}\n"
    "kernel void k_stencil(int n, global const float *in, global float *out)\n"
    "{\n"
    "    int x = get_global_id(0), y = get_global_id(1), i = y * n + x;\n"
    "    if (x == 0 || y == 0 || x == n - 1 || y == n - 1) { out[i] = in[i]; return; }\n"
    "    out[i] = 0.2f * (in[i] + in[i - 1] + in[i + 1] + in[i - n] + in[i + n]);\n"
    "}\n"
    "kernel void k_histogram(global const uchar *data, global uint *bins)\n"
    "{\n"
    "    local uint local_bins[256];\n"
    "    size_t l = get_local_id(0);\n"
    "    for (size_t b = l; b < 256; b += get_local_size(0)) local_bins[b] = 0;\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    atomic_inc(&local_bins[data[get_global_id(0)]]);\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    for (size_t b = l; b < 256; b += get_local_size(0)) atomic_add(&bins[b], local_bins[b]);\n"
    "}\n"
    "kernel void k_nbody(int n, global const float4 *pos, global float4 *acc, local float4 *tile)\n"
    "{\n"
    "    size_t i = get_global_id(0), l = get_local_id(0), m = get_local_size(0);\n"
    "    float4 p = pos[i];\n"
    "    float3 a = (float3)(0.0f);\n"
    "    for (int j0 = 0; j0 < n; j0 += m) {\n"
    "        tile[l] = pos[j0 + l];\n"
    "        barrier(CLK_LOCAL_MEM_FENCE);\n"
    "        for (size_t j = 0; j < m; j++) {\n"
    "            float3 d = tile[j].xyz - p.xyz;\n"
    "            float inv = rsqrt(dot(d, d) + 0.01f);\n"
    "            a += d * (tile[j].w * inv * inv * inv);\n"
    "        }\n"
    "        barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    }\n"
    "    acc[i] = (float4)(a, 0.0f);\n"
    "}\n"
    "kernel void k_scan(global int *v, local int *t)\n"
    "{\n"
    "    size_t l = get_local_id(0);\n"
    "    t[l] = v[get_global_id(0)];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    for (size_t d = 1; d < get_local_size(0); d *= 2) {\n"
    "        int x = l >= d ? t[l - d] : 0;\n"
    "        barrier(CLK_LOCAL_MEM_FENCE);\n"
    "        t[l] += x;\n"
    "        barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    }\n"
    "    v[get_global_id(0)] = t[l];\n"
    "}\n"
    "kernel void k_mandel(global int *out, int w, float scale)\n"
    "{\n"
    "    int x = get_global_id(0), y = get_global_id(1), it = 0;\n"
    "    float cr = x * scale - 2.0f, ci = y * scale - 1.0f, zr = 0.0f, zi = 0.0f;\n"
    "    while (it < 256 && zr * zr + zi * zi < 4.0f) {\n"
    "        float t = zr * zr - zi * zi + cr;\n"
    "        zi = 2.0f * zr * zi + ci;\n"
    "        zr = t;\n"
    "        it++;\n"
    "    }\n"
    "    out[y * w + x] = it;\n"
    "}\n"
    "kernel void k_vload(global const float *in, global float *out)\n"
    "{ size_t i = get_global_id(0); float8 v = vload8(i, in); vstore8(v * v + 1.0f, i, out); }\n"
    "kernel void k_select(global const int *a, global const int *b, global int *c)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    c[i] = select(a[i], b[i], a[i] > b[i]) + mad24(a[i], b[i], 1) + hadd(a[i], b[i]);\n"
    "}\n";

/* The 20 kernels' arguments, a letter each: b a buffer, i the int 16,
 * f the float 0.5, d the double 2.0, l 1 KiB of local memory. Each runs
 * once on 256 work-items in groups of 16 (16x16 in 2D). */
static const struct {
    const char *name, *args;
    cl_uint dims;
} mid_kernels[] = {
    {"k_add", "bbb", 1},       {"k_saxpy", "bbf", 1},   {"k_scale4", "bf", 1},
    {"k_exp", "b", 1},         {"k_trig", "b", 1},      {"k_pow", "bd", 1},
    {"k_clamp", "bii", 1},     {"k_popcnt", "b", 1},    {"k_dot", "bbb", 1},
    {"k_convert", "bb", 1},    {"k_reduce", "bbl", 1},  {"k_sgemm", "ibbb", 2},
    {"k_transpose", "ibb", 2}, {"k_stencil", "ibb", 2}, {"k_histogram", "bb", 1},
    {"k_nbody", "ibbl", 1},    {"k_scan", "bl", 1},     {"k_mandel", "bif", 2},
    {"k_vload", "bb", 1},      {"k_select", "bbb", 1},
};

enum { LATENCY_RUNS = 2000, WARM_UP = 100, MANY = 100000, TRIAD_RUNS = 5, COPY_RUNS = 3 };
enum { RECORDED = 1000 }; /* kernels in the replayed command-buffer */
#define TRIAD_ELEMENTS ((size_t)64 << 20)
#define COPY_BYTES ((size_t)1 << 30)
#define MAPPED_BYTES ((size_t)256 << 20)

struct result {
    const char *name;
    char device[128];
    double latency_us, kernels_per_s, replay_per_s, triad_gbs, copy_gbs, mapped_gbs, build_ms,
        first_result_ms, rebuild_ms;
    double mid_build_ms, mid_cached_ms, mid_first_ms, mid_cached_first_ms;
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

/* Launches every kernel of the 20-kernel program once and waits; returns
 * the time it took (ms), or -1 on an error. `buffer` is 64 KiB of zeros. */
static double launch_mid(cl_command_queue queue, cl_program program, cl_mem buffer)
{
    double t0 = now();
    cl_int i_value = 16, err = CL_SUCCESS;
    float f_value = 0.5f;
    double d_value = 2.0;
    for (size_t k = 0; k < sizeof mid_kernels / sizeof mid_kernels[0] && !err; k++) {
        cl_kernel kernel = clCreateKernel(program, mid_kernels[k].name, &err);
        if (err)
            break;
        for (cl_uint a = 0; mid_kernels[k].args[a] && !err; a++) {
            switch (mid_kernels[k].args[a]) {
            case 'b': err = clSetKernelArg(kernel, a, sizeof buffer, &buffer); break;
            case 'i': err = clSetKernelArg(kernel, a, sizeof i_value, &i_value); break;
            case 'f': err = clSetKernelArg(kernel, a, sizeof f_value, &f_value); break;
            case 'd': err = clSetKernelArg(kernel, a, sizeof d_value, &d_value); break;
            default: err = clSetKernelArg(kernel, a, 1024, NULL); break;
            }
        }
        size_t global[2] = {256, 1}, local[2] = {16, 1};
        if (mid_kernels[k].dims == 2)
            global[0] = global[1] = local[1] = 16;
        if (!err)
            err = clEnqueueNDRangeKernel(queue, kernel, mid_kernels[k].dims, NULL, global, local, 0,
                                         NULL, NULL);
        clReleaseKernel(kernel);
        if (err)
            fprintf(stderr, "%s: error %d\n", mid_kernels[k].name, err);
    }
    if (!err)
        err = clFinish(queue);
    return err ? -1 : (now() - t0) * 1e3;
}

/* cl_khr_command_buffer: the one-work-item kernel recorded RECORDED times
 * on the in-order queue, the buffer enqueued MANY / RECORDED times, each
 * run waited for (0.9.0, PoCL's version, refuses to enqueue a buffer still
 * pending): kernels/s; 0 without the extension, -1 on an error. Only
 * create, finalize, release, enqueue and clCommandNDRangeKernelKHR are
 * used: their signatures are the same from 0.9.0 to 0.9.8. */
static double replay_per_s(cl_platform_id platform, cl_command_queue queue, cl_kernel kernel)
{
#define FIND(name) (name##_fn) clGetExtensionFunctionAddressForPlatform(platform, #name)
    clCreateCommandBufferKHR_fn create = FIND(clCreateCommandBufferKHR);
    clFinalizeCommandBufferKHR_fn finalize = FIND(clFinalizeCommandBufferKHR);
    clReleaseCommandBufferKHR_fn release = FIND(clReleaseCommandBufferKHR);
    clEnqueueCommandBufferKHR_fn enqueue = FIND(clEnqueueCommandBufferKHR);
    clCommandNDRangeKernelKHR_fn record = FIND(clCommandNDRangeKernelKHR);
#undef FIND
    if (!create || !finalize || !release || !enqueue || !record)
        return 0;
    cl_int err;
    cl_command_buffer_khr buffer = create(1, &queue, NULL, &err);
    if (err)
        return -1;
    size_t one = 1;
    for (int i = 0; i < RECORDED && !err; i++)
        err = record(buffer, NULL, NULL, kernel, 1, NULL, &one, &one, 0, NULL, NULL, NULL);
    if (!err)
        err = finalize(buffer);
    double t0 = now();
    for (int i = 0; i < MANY / RECORDED && !err; i++)
        if (!(err = enqueue(0, NULL, buffer, 0, NULL, NULL)))
            err = clFinish(queue);
    double seconds = now() - t0;
    release(buffer);
    return err ? -1 : MANY / seconds;
}

static void run(cl_platform_id platform, struct result *r)
{
    cl_device_id device;
    cl_context context = NULL;
    cl_command_queue queue = NULL;
    cl_program program = NULL, again = NULL, mid = NULL, mid_again = NULL;
    cl_kernel tiny = NULL, triad = NULL;
    cl_mem flag = NULL, a = NULL, b = NULL, c = NULL, zeros = NULL;
    float *check = NULL;
    cl_uint *mapped = NULL;
    cl_int err;
    TRY(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL));
    clGetDeviceInfo(device, CL_DEVICE_NAME, sizeof r->device, r->device, NULL);
    context = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    TRY(err);
    queue = clCreateCommandQueueWithProperties(context, device, NULL, &err);
    TRY(err);

    /* A constant no cache has seen: the first build compiles. Not a
     * comment: PoCL hashes the preprocessed source, without comments. */
    static int builds;
    static char source[16384];
    snprintf(source, sizeof source, "constant int cpucl_bench_%ld_%ld_%d = 1;\n%s", (long)getpid(),
             (long)time(NULL), builds++, source_body);
    program = timed_build(context, device, source, &r->build_ms);
    TRY(program ? CL_SUCCESS : CL_BUILD_PROGRAM_FAILURE);
    again = timed_build(context, device, source, &r->rebuild_ms);
    TRY(again ? CL_SUCCESS : CL_BUILD_PROGRAM_FAILURE);
    snprintf(source, sizeof source, "constant int cpucl_bench_%ld_%ld_%d = 1;\n%s", (long)getpid(),
             (long)time(NULL), builds++, mid_source_body);
    mid = timed_build(context, device, source, &r->mid_build_ms);
    TRY(mid ? CL_SUCCESS : CL_BUILD_PROGRAM_FAILURE);
    mid_again = timed_build(context, device, source, &r->mid_cached_ms);
    TRY(mid_again ? CL_SUCCESS : CL_BUILD_PROGRAM_FAILURE);
    zeros = clCreateBuffer(context, CL_MEM_READ_WRITE, 65536, NULL, &err);
    TRY(err);
    cl_int zero_int = 0;
    TRY(clEnqueueFillBuffer(queue, zeros, &zero_int, sizeof zero_int, 0, 65536, 0, NULL, NULL));
    TRY(clFinish(queue));
    double launch_ms = launch_mid(queue, mid, zeros);
    TRY(launch_ms < 0 ? CL_INVALID_OPERATION : CL_SUCCESS);
    r->mid_first_ms = r->mid_build_ms + launch_ms;
    launch_ms = launch_mid(queue, mid_again, zeros);
    TRY(launch_ms < 0 ? CL_INVALID_OPERATION : CL_SUCCESS);
    r->mid_cached_first_ms = r->mid_cached_ms + launch_ms;
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

    r->replay_per_s = replay_per_s(platform, queue, tiny);
    TRY(r->replay_per_s < 0 ? CL_INVALID_OPERATION : CL_SUCCESS);

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
    clReleaseMemObject(a);
    clReleaseMemObject(b);
    clReleaseMemObject(c);
    a = b = c = NULL;

    /* copy: 1 GiB buffer to buffer; the destination's first and last
     * words are checked */
    a = clCreateBuffer(context, CL_MEM_READ_WRITE, COPY_BYTES, NULL, &err);
    TRY(err);
    b = clCreateBuffer(context, CL_MEM_READ_WRITE, COPY_BYTES, NULL, &err);
    TRY(err);
    cl_uint pattern = 0x5eed;
    TRY(clEnqueueFillBuffer(queue, a, &pattern, sizeof pattern, 0, COPY_BYTES, 0, NULL, NULL));
    TRY(clEnqueueFillBuffer(queue, b, &zero, 4, 0, COPY_BYTES, 0, NULL, NULL));
    TRY(clEnqueueCopyBuffer(queue, a, b, 0, 0, COPY_BYTES, 0, NULL, NULL)); /* warm-up */
    TRY(clFinish(queue));
    best = 1e30;
    for (int i = 0; i < COPY_RUNS; i++) {
        t0 = now();
        TRY(clEnqueueCopyBuffer(queue, a, b, 0, 0, COPY_BYTES, 0, NULL, NULL));
        TRY(clFinish(queue));
        double t = now() - t0;
        best = t < best ? t : best;
    }
    r->copy_gbs = COPY_BYTES / best * 1e-9;
    cl_uint ends[2] = {0, 0};
    TRY(clEnqueueReadBuffer(queue, b, CL_TRUE, 0, 4, &ends[0], 0, NULL, NULL));
    TRY(clEnqueueReadBuffer(queue, b, CL_TRUE, COPY_BYTES - 4, 4, &ends[1], 0, NULL, NULL));
    if (ends[0] != pattern || ends[1] != pattern) {
        fprintf(stderr, "%s: the copy gave wrong words\n", r->name);
        r->ok = 0;
    }

    /* mapped: the first 256 MiB of the copy's source, mapped for reading
     * and copied by the host into memory from malloc; every word checked */
    mapped = malloc(MAPPED_BYTES);
    if (!mapped)
        goto out;
    best = 1e30;
    for (int i = 0; i < COPY_RUNS; i++) {
        void *view = clEnqueueMapBuffer(queue, a, CL_TRUE, CL_MAP_READ, 0, MAPPED_BYTES, 0, NULL,
                                        NULL, &err);
        TRY(err);
        t0 = now();
        memcpy(mapped, view, MAPPED_BYTES);
        double t = now() - t0;
        best = t < best ? t : best;
        TRY(clEnqueueUnmapMemObject(queue, a, view, 0, NULL, NULL));
        TRY(clFinish(queue));
    }
    r->mapped_gbs = MAPPED_BYTES / best * 1e-9;
    for (size_t i = 0; i < MAPPED_BYTES / sizeof pattern; i++)
        if (mapped[i] != pattern) {
            fprintf(stderr, "%s: the mapped buffer gave wrong words\n", r->name);
            r->ok = 0;
            break;
        }

out:
    free(check);
    free(mapped);
    if (a)
        clReleaseMemObject(a);
    if (b)
        clReleaseMemObject(b);
    if (c)
        clReleaseMemObject(c);
    if (flag)
        clReleaseMemObject(flag);
    if (zeros)
        clReleaseMemObject(zeros);
    if (tiny)
        clReleaseKernel(tiny);
    if (triad)
        clReleaseKernel(triad);
    if (program)
        clReleaseProgram(program);
    if (again)
        clReleaseProgram(again);
    if (mid)
        clReleaseProgram(mid);
    if (mid_again)
        clReleaseProgram(mid_again);
    if (queue)
        clReleaseCommandQueue(queue);
    if (context)
        clReleaseContext(context);
}

/* The host's own best: memcpy of COPY_BYTES split over one thread per
 * online core, best of COPY_RUNS after a warm-up (GB/s copied). */
struct copy_slice {
    char *to;
    const char *from;
    size_t bytes;
};

static void *copy_slice(void *arg)
{
    struct copy_slice *slice = arg;
    memcpy(slice->to, slice->from, slice->bytes);
    return NULL;
}

static double host_copy_gbs(int *threads_used)
{
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    int threads = cores < 1 ? 1 : cores > 256 ? 256 : (int)cores;
    *threads_used = threads;
    char *from = malloc(COPY_BYTES), *to = malloc(COPY_BYTES);
    double best = 1e30;
    if (!from || !to)
        goto out;
    memset(from, 0x5e, COPY_BYTES);
    memset(to, 0, COPY_BYTES);
    static struct copy_slice slices[256];
    pthread_t ids[256];
    size_t share = COPY_BYTES / (size_t)threads;
    for (int run = 0; run <= COPY_RUNS; run++) {
        double t0 = now();
        for (int t = 0; t < threads; t++) {
            slices[t] = (struct copy_slice){to + t * share, from + t * share,
                                            t == threads - 1 ? COPY_BYTES - t * share : share};
            pthread_create(&ids[t], NULL, copy_slice, &slices[t]);
        }
        for (int t = 0; t < threads; t++)
            pthread_join(ids[t], NULL);
        double t = now() - t0;
        if (run > 0) /* the first run is the warm-up */
            best = t < best ? t : best;
    }
out:
    free(from);
    free(to);
    return best < 1e30 ? COPY_BYTES / best * 1e-9 : 0;
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
    double values[10][64];
    *out = runs[0];
    out->ok = 1;
    for (int i = 0; i < reps; i++) {
        values[0][i] = runs[i].latency_us;
        values[1][i] = runs[i].kernels_per_s;
        values[2][i] = runs[i].build_ms;
        values[3][i] = runs[i].rebuild_ms;
        values[4][i] = runs[i].first_result_ms;
        values[5][i] = runs[i].mid_build_ms;
        values[6][i] = runs[i].mid_cached_ms;
        values[7][i] = runs[i].mid_first_ms;
        values[8][i] = runs[i].mid_cached_first_ms;
        values[9][i] = runs[i].replay_per_s;
        out->triad_gbs = runs[i].triad_gbs > out->triad_gbs ? runs[i].triad_gbs : out->triad_gbs;
        out->copy_gbs = runs[i].copy_gbs > out->copy_gbs ? runs[i].copy_gbs : out->copy_gbs;
        out->mapped_gbs =
            runs[i].mapped_gbs > out->mapped_gbs ? runs[i].mapped_gbs : out->mapped_gbs;
        out->ok &= runs[i].ok;
    }
    out->latency_us = median(values[0], reps);
    out->kernels_per_s = median(values[1], reps);
    out->build_ms = median(values[2], reps);
    out->rebuild_ms = median(values[3], reps);
    out->first_result_ms = median(values[4], reps);
    out->mid_build_ms = median(values[5], reps);
    out->mid_cached_ms = median(values[6], reps);
    out->mid_first_ms = median(values[7], reps);
    out->mid_cached_first_ms = median(values[8], reps);
    out->replay_per_s = median(values[9], reps);
}

static char cache_dir[] = "/tmp/cpucl-bench-cache-XXXXXX";

static int remove_one(const char *path, const struct stat *status, int flag, struct FTW *ftw)
{
    return remove(path);
}

/* The builds of a run are never built again by a later one (fresh
 * comments), so they go to a kernel cache folder of the run's own, for
 * cpucl and PoCL alike, unless the caller names one. */
static void use_own_cache_dir(void)
{
    if (getenv("CPUCL_CACHE_DIR") || getenv("POCL_CACHE_DIR") || !mkdtemp(cache_dir)) {
        cache_dir[0] = 0;
        return;
    }
    setenv("CPUCL_CACHE_DIR", cache_dir, 1);
    setenv("POCL_CACHE_DIR", cache_dir, 1);
}

int main(int argc, char **argv)
{
    int reps = 3;
    use_own_cache_dir();
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
    int copy_threads = 0;
    double memcpy_gbs = host_copy_gbs(&copy_threads);
    printf("%d repetitions; latency, kernels/s, build: median; triad: best\n", reps);
    printf("%-28s %-24s %11s %10s %10s %9s %9s %9s | 20 kernels: %8s %8s %8s %8s\n", "platform",
           "device", "latency us", "kernels/s", "triad GB/s", "build ms", "1st run", "rebuild",
           "build", "1st run", "cached", "1st run");
    for (int i = 0; i < platforms_used; i++)
        printf(
            "%-28s %-24.24s %11.1f %10.0f %10.1f %9.1f %9.1f %9.1f | %20.1f %8.1f %8.2f %8.1f%s\n",
            results[i].name, results[i].device, results[i].latency_us, results[i].kernels_per_s,
            results[i].triad_gbs, results[i].build_ms, results[i].first_result_ms,
            results[i].rebuild_ms, results[i].mid_build_ms, results[i].mid_first_ms,
            results[i].mid_cached_ms, results[i].mid_cached_first_ms,
            results[i].ok ? "" : "  (failed)");
    for (int i = 1; i < platforms_used; i++)
        printf("%s vs %s (above 1: %s is better): latency %.2fx, throughput %.2fx, triad %.2fx, "
               "build %.2fx, 1st run %.2fx, rebuild %.2fx; 20 kernels: build %.2fx, 1st run %.2fx, "
               "cached %.2fx, 1st run %.2fx\n",
               results[0].name, results[i].name, results[0].name,
               results[i].latency_us / results[0].latency_us,
               results[0].kernels_per_s / results[i].kernels_per_s,
               results[0].triad_gbs / results[i].triad_gbs,
               results[i].build_ms / results[0].build_ms,
               results[i].first_result_ms / results[0].first_result_ms,
               results[i].rebuild_ms / results[0].rebuild_ms,
               results[i].mid_build_ms / results[0].mid_build_ms,
               results[i].mid_first_ms / results[0].mid_first_ms,
               results[i].mid_cached_ms / results[0].mid_cached_ms,
               results[i].mid_cached_first_ms / results[0].mid_cached_first_ms);
    printf("1 GiB copy: memcpy over %d host threads %.1f GB/s;", copy_threads, memcpy_gbs);
    for (int i = 0; i < platforms_used; i++)
        printf(" %s clEnqueueCopyBuffer %.1f GB/s (%.0f%%)%s", results[i].name, results[i].copy_gbs,
               memcpy_gbs > 0 ? 100.0 * results[i].copy_gbs / memcpy_gbs : 0.0,
               i + 1 < platforms_used ? ";" : "\n");
    printf("256 MiB memcpy from a buffer mapped for reading into malloc'd memory:");
    for (int i = 0; i < platforms_used; i++) {
        printf(" %s %.1f GB/s", results[i].name, results[i].mapped_gbs);
        if (i > 0 && results[i].mapped_gbs > 0)
            printf(" (%.2fx)", results[0].mapped_gbs / results[i].mapped_gbs);
        printf("%s", i + 1 < platforms_used ? ";" : "\n");
    }
    printf("command-buffer replay (%d one-work-item kernels recorded once, run %d times, "
           "clFinish after each):",
           RECORDED, MANY / RECORDED);
    for (int i = 0; i < platforms_used; i++) {
        if (results[i].replay_per_s > 0)
            printf(" %s %.0f kernels/s", results[i].name, results[i].replay_per_s);
        else
            printf(" %s -", results[i].name);
        if (i > 0 && results[i].replay_per_s > 0 && results[0].replay_per_s > 0)
            printf(" (%.2fx)", results[0].replay_per_s / results[i].replay_per_s);
        printf("%s", i + 1 < platforms_used ? ";" : "\n");
    }
    int all_ok = 1;
    for (int i = 0; i < platforms_used; i++)
        all_ok &= results[i].ok;
    if (cache_dir[0])
        nftw(cache_dir, remove_one, 16, FTW_DEPTH | FTW_PHYS);
    return all_ok ? 0 : 1;
}
