/* demo.c - an ordinary OpenCL program: finds the cpucl platform through the
 * ICD loader, adds two vectors and multiplies two matrices, and checks both
 * results against the host. */
#include <CL/cl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char *source =
    "kernel void vector_add(global const float *a, global const float *b, global float *c)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    c[i] = a[i] + b[i];\n"
    "}\n"
    "kernel void matmul(global const float *a, global const float *b, global float *c,\n"
    "                   int n, int k, int m)\n"
    "{\n"
    "    int row = get_global_id(1), col = get_global_id(0);\n"
    "    float sum = 0.0f;\n"
    "    for (int i = 0; i < k; i++)\n"
    "        sum += a[row * k + i] * b[i * m + col];\n"
    "    c[row * m + col] = sum;\n"
    "}\n";

#define CHECK(call)                                                                      \
    do {                                                                                 \
        cl_int err_ = (call);                                                            \
        if (err_ != CL_SUCCESS) {                                                        \
            fprintf(stderr, "%s:%d: %s failed: %d\n", __FILE__, __LINE__, #call, err_);   \
            exit(1);                                                                     \
        }                                                                                \
    } while (0)

static double seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static cl_platform_id find_platform(const char *want)
{
    cl_platform_id platforms[16];
    cl_uint n = 0;
    CHECK(clGetPlatformIDs(16, platforms, &n));
    for (cl_uint i = 0; i < n && i < 16; i++) {
        char name[256];
        CHECK(clGetPlatformInfo(platforms[i], CL_PLATFORM_NAME, sizeof name, name, NULL));
        if (!strcmp(name, want))
            return platforms[i];
    }
    fprintf(stderr, "no platform named %s\n", want);
    exit(1);
}

int main(void)
{
    cl_int err;
    cl_platform_id platform = find_platform("cpucl");
    cl_device_id device;
    CHECK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_CPU, 1, &device, NULL));
    char name[256];
    CHECK(clGetDeviceInfo(device, CL_DEVICE_NAME, sizeof name, name, NULL));
    printf("device: %s\n", name);

    cl_context context = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    CHECK(err);
    cl_command_queue queue = clCreateCommandQueueWithProperties(context, device, NULL, &err);
    CHECK(err);
    cl_program program = clCreateProgramWithSource(context, 1, &source, NULL, &err);
    CHECK(err);
    double t0 = seconds();
    if (clBuildProgram(program, 1, &device, "", NULL, NULL) != CL_SUCCESS) {
        char log[8192];
        clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
        fprintf(stderr, "build failed:\n%s\n", log);
        return 1;
    }
    printf("build: %.1f ms\n", (seconds() - t0) * 1e3);

    /* Vector add. */
    enum { N = 1 << 20 };
    float *a = malloc(N * sizeof *a), *b = malloc(N * sizeof *b), *c = malloc(N * sizeof *c);
    for (int i = 0; i < N; i++) {
        a[i] = (float)i;
        b[i] = 2.0f * (float)i;
    }
    cl_mem da = clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, N * sizeof *a, a, &err);
    CHECK(err);
    cl_mem db = clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, N * sizeof *b, b, &err);
    CHECK(err);
    cl_mem dc = clCreateBuffer(context, CL_MEM_WRITE_ONLY, N * sizeof *c, NULL, &err);
    CHECK(err);
    cl_kernel add = clCreateKernel(program, "vector_add", &err);
    CHECK(err);
    CHECK(clSetKernelArg(add, 0, sizeof da, &da));
    CHECK(clSetKernelArg(add, 1, sizeof db, &db));
    CHECK(clSetKernelArg(add, 2, sizeof dc, &dc));
    size_t global = N;
    CHECK(clEnqueueNDRangeKernel(queue, add, 1, NULL, &global, NULL, 0, NULL, NULL));
    CHECK(clEnqueueReadBuffer(queue, dc, CL_TRUE, 0, N * sizeof *c, c, 0, NULL, NULL));
    int bad = 0;
    for (int i = 0; i < N; i++)
        bad += c[i] != a[i] + b[i];
    printf("vector_add of %d floats: %s\n", N, bad ? "WRONG" : "correct");

    /* Matrix multiply: (n x k) * (k x m). */
    int n = 256, k = 300, m = 320;
    float *ma = malloc(sizeof(float) * n * k), *mb = malloc(sizeof(float) * k * m);
    float *mc = malloc(sizeof(float) * n * m);
    for (int i = 0; i < n * k; i++)
        ma[i] = (float)((i * 7) % 13) - 6.0f;
    for (int i = 0; i < k * m; i++)
        mb[i] = (float)((i * 5) % 11) - 5.0f;
    cl_mem dma = clCreateBuffer(context, CL_MEM_COPY_HOST_PTR, sizeof(float) * n * k, ma, &err);
    CHECK(err);
    cl_mem dmb = clCreateBuffer(context, CL_MEM_COPY_HOST_PTR, sizeof(float) * k * m, mb, &err);
    CHECK(err);
    cl_mem dmc = clCreateBuffer(context, CL_MEM_READ_WRITE, sizeof(float) * n * m, NULL, &err);
    CHECK(err);
    cl_kernel mul = clCreateKernel(program, "matmul", &err);
    CHECK(err);
    CHECK(clSetKernelArg(mul, 0, sizeof dma, &dma));
    CHECK(clSetKernelArg(mul, 1, sizeof dmb, &dmb));
    CHECK(clSetKernelArg(mul, 2, sizeof dmc, &dmc));
    CHECK(clSetKernelArg(mul, 3, sizeof n, &n));
    CHECK(clSetKernelArg(mul, 4, sizeof k, &k));
    CHECK(clSetKernelArg(mul, 5, sizeof m, &m));
    size_t range[2] = {(size_t)m, (size_t)n}, local[2] = {16, 16};
    t0 = seconds();
    CHECK(clEnqueueNDRangeKernel(queue, mul, 2, NULL, range, local, 0, NULL, NULL));
    CHECK(clFinish(queue));
    double elapsed = seconds() - t0;
    CHECK(clEnqueueReadBuffer(queue, dmc, CL_TRUE, 0, sizeof(float) * n * m, mc, 0, NULL, NULL));
    bad = 0;
    for (int r = 0; r < n; r++)
        for (int col = 0; col < m; col++) {
            float sum = 0;
            for (int i = 0; i < k; i++)
                sum += ma[r * k + i] * mb[i * m + col];
            bad += fabsf(sum - mc[r * m + col]) > 1e-3f * (1.0f + fabsf(sum));
        }
    printf("matmul %dx%d * %dx%d: %s (%.2f GFLOP/s)\n", n, k, k, m, bad ? "WRONG" : "correct",
           2.0 * n * k * m / elapsed * 1e-9);

    clReleaseKernel(add);
    clReleaseKernel(mul);
    clReleaseMemObject(da);
    clReleaseMemObject(db);
    clReleaseMemObject(dc);
    clReleaseMemObject(dma);
    clReleaseMemObject(dmb);
    clReleaseMemObject(dmc);
    clReleaseProgram(program);
    clReleaseCommandQueue(queue);
    clReleaseContext(context);
    free(a), free(b), free(c), free(ma), free(mb), free(mc);
    return bad ? 1 : 0;
}
