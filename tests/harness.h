/* harness.h - what every cpucl test program shares: finding the cpucl
 * device, building programs, and counting checks. Each program ends by
 * printing "N passed, N failed" and exits non-zero on a failure. */
#ifndef CPUCL_TESTS_HARNESS_H
#define CPUCL_TESTS_HARNESS_H

#include <CL/cl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int harness_passed, harness_failed;

#define CHECK(cond)                                                              \
    do {                                                                         \
        if (cond) {                                                              \
            harness_passed++;                                                    \
        } else {                                                                 \
            harness_failed++;                                                    \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
        }                                                                        \
    } while (0)

/* A call that must return `expected`. */
#define CHECK_ERR(call, expected)                                                \
    do {                                                                         \
        cl_int got_ = (call);                                                    \
        if (got_ == (expected)) {                                                \
            harness_passed++;                                                    \
        } else {                                                                 \
            harness_failed++;                                                    \
            fprintf(stderr, "%s:%d: %s returned %d, expected %d (%s)\n", __FILE__, \
                    __LINE__, #call, got_, (int)(expected), #expected);          \
        }                                                                        \
    } while (0)

#define CHECK_OK(call) CHECK_ERR(call, CL_SUCCESS)

/* Stops the program: the rest of it cannot run without this. */
#define REQUIRE(cond)                                                            \
    do {                                                                         \
        if (!(cond)) {                                                           \
            fprintf(stderr, "%s:%d: required: %s\n", __FILE__, __LINE__, #cond); \
            printf("%d passed, %d failed\n", harness_passed, harness_failed + 1); \
            exit(1);                                                             \
        }                                                                        \
    } while (0)

static inline int harness_finish(void)
{
    printf("%d passed, %d failed\n", harness_passed, harness_failed);
    return harness_failed ? 1 : 0;
}

struct harness {
    cl_platform_id platform;
    cl_device_id device;
    cl_context context;
    cl_command_queue queue;
};

/* The cpucl platform (the loader may list others, e.g. PoCL), its device, a
 * context and an in-order queue. */
static inline struct harness harness_open(void)
{
    struct harness h = {0};
    cl_platform_id platforms[16];
    cl_uint n = 0;
    REQUIRE(clGetPlatformIDs(16, platforms, &n) == CL_SUCCESS && n > 0);
    for (cl_uint i = 0; i < n && i < 16; i++) {
        char name[64] = "";
        clGetPlatformInfo(platforms[i], CL_PLATFORM_NAME, sizeof name, name, NULL);
        if (!strcmp(name, "cpucl"))
            h.platform = platforms[i];
    }
    REQUIRE(h.platform != NULL);
    REQUIRE(clGetDeviceIDs(h.platform, CL_DEVICE_TYPE_CPU, 1, &h.device, NULL) == CL_SUCCESS);
    cl_int err;
    h.context = clCreateContext(NULL, 1, &h.device, NULL, NULL, &err);
    REQUIRE(err == CL_SUCCESS);
    h.queue = clCreateCommandQueueWithProperties(h.context, h.device, NULL, &err);
    REQUIRE(err == CL_SUCCESS);
    return h;
}

static inline void harness_close(struct harness *h)
{
    clReleaseCommandQueue(h->queue);
    clReleaseContext(h->context);
}

/* Builds source; on failure prints the build log and returns NULL. */
static inline cl_program harness_build(struct harness *h, const char *source, const char *options)
{
    cl_int err;
    cl_program program = clCreateProgramWithSource(h->context, 1, &source, NULL, &err);
    if (err != CL_SUCCESS)
        return NULL;
    err = clBuildProgram(program, 1, &h->device, options, NULL, NULL);
    if (err != CL_SUCCESS) {
        char log[16384] = "";
        clGetProgramBuildInfo(program, h->device, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
        fprintf(stderr, "build failed (%d):\n%s\n", err, log);
        clReleaseProgram(program);
        return NULL;
    }
    return program;
}

static inline cl_kernel harness_kernel(cl_program program, const char *name)
{
    cl_int err;
    cl_kernel kernel = clCreateKernel(program, name, &err);
    REQUIRE(err == CL_SUCCESS);
    return kernel;
}

static inline cl_mem harness_buffer(struct harness *h, cl_mem_flags flags, size_t size, void *data)
{
    cl_int err;
    cl_mem mem = clCreateBuffer(h->context, flags | (data ? CL_MEM_COPY_HOST_PTR : 0), size, data,
                                &err);
    REQUIRE(err == CL_SUCCESS);
    return mem;
}

#endif
