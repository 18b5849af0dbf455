/* harness.h - what every cpucl test program shares: finding the cpucl
 * device among the loader's platforms, building programs (with the build
 * log on failure), and counting checks. Each program ends by printing
 * "N passed, N failed" and exits non-zero on a failure.
 *
 * Checks never stop the program (a failure is counted and reported with
 * file:line and, for OpenCL calls, the error's name); REQUIRE stops it when
 * the rest cannot run. */
#ifndef CPUCL_TESTS_HARNESS_H
#define CPUCL_TESTS_HARNESS_H

#include <CL/cl.h>
#include <CL/cl_ext.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int harness_passed, harness_failed;

/* The name of an OpenCL error code, for messages. */
static inline const char *harness_error_name(cl_int err)
{
    switch (err) {
#define NAME(code)                                                                                 \
    case code: return #code
        NAME(CL_SUCCESS);
        NAME(CL_DEVICE_NOT_FOUND);
        NAME(CL_DEVICE_NOT_AVAILABLE);
        NAME(CL_COMPILER_NOT_AVAILABLE);
        NAME(CL_MEM_OBJECT_ALLOCATION_FAILURE);
        NAME(CL_OUT_OF_RESOURCES);
        NAME(CL_OUT_OF_HOST_MEMORY);
        NAME(CL_PROFILING_INFO_NOT_AVAILABLE);
        NAME(CL_MEM_COPY_OVERLAP);
        NAME(CL_IMAGE_FORMAT_MISMATCH);
        NAME(CL_IMAGE_FORMAT_NOT_SUPPORTED);
        NAME(CL_BUILD_PROGRAM_FAILURE);
        NAME(CL_MAP_FAILURE);
        NAME(CL_MISALIGNED_SUB_BUFFER_OFFSET);
        NAME(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
        NAME(CL_COMPILE_PROGRAM_FAILURE);
        NAME(CL_LINKER_NOT_AVAILABLE);
        NAME(CL_LINK_PROGRAM_FAILURE);
        NAME(CL_DEVICE_PARTITION_FAILED);
        NAME(CL_KERNEL_ARG_INFO_NOT_AVAILABLE);
        NAME(CL_INVALID_VALUE);
        NAME(CL_INVALID_DEVICE_TYPE);
        NAME(CL_INVALID_PLATFORM);
        NAME(CL_INVALID_DEVICE);
        NAME(CL_INVALID_CONTEXT);
        NAME(CL_INVALID_QUEUE_PROPERTIES);
        NAME(CL_INVALID_COMMAND_QUEUE);
        NAME(CL_INVALID_HOST_PTR);
        NAME(CL_INVALID_MEM_OBJECT);
        NAME(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
        NAME(CL_INVALID_IMAGE_SIZE);
        NAME(CL_INVALID_SAMPLER);
        NAME(CL_INVALID_BINARY);
        NAME(CL_INVALID_BUILD_OPTIONS);
        NAME(CL_INVALID_PROGRAM);
        NAME(CL_INVALID_PROGRAM_EXECUTABLE);
        NAME(CL_INVALID_KERNEL_NAME);
        NAME(CL_INVALID_KERNEL_DEFINITION);
        NAME(CL_INVALID_KERNEL);
        NAME(CL_INVALID_ARG_INDEX);
        NAME(CL_INVALID_ARG_VALUE);
        NAME(CL_INVALID_ARG_SIZE);
        NAME(CL_INVALID_KERNEL_ARGS);
        NAME(CL_INVALID_WORK_DIMENSION);
        NAME(CL_INVALID_WORK_GROUP_SIZE);
        NAME(CL_INVALID_WORK_ITEM_SIZE);
        NAME(CL_INVALID_GLOBAL_OFFSET);
        NAME(CL_INVALID_EVENT_WAIT_LIST);
        NAME(CL_INVALID_EVENT);
        NAME(CL_INVALID_OPERATION);
        NAME(CL_INVALID_GL_OBJECT);
        NAME(CL_INVALID_BUFFER_SIZE);
        NAME(CL_INVALID_MIP_LEVEL);
        NAME(CL_INVALID_GLOBAL_WORK_SIZE);
        NAME(CL_INVALID_PROPERTY);
        NAME(CL_INVALID_IMAGE_DESCRIPTOR);
        NAME(CL_INVALID_COMPILER_OPTIONS);
        NAME(CL_INVALID_LINKER_OPTIONS);
        NAME(CL_INVALID_DEVICE_PARTITION_COUNT);
        NAME(CL_INVALID_PIPE_SIZE);
        NAME(CL_INVALID_DEVICE_QUEUE);
        NAME(CL_INVALID_SPEC_ID);
        NAME(CL_MAX_SIZE_RESTRICTION_EXCEEDED);
#undef NAME
    default: return "(not an OpenCL error code)";
    }
}

#define HARNESS_FAIL(...)                                                                          \
    do {                                                                                           \
        harness_failed++;                                                                          \
        fprintf(stderr, __VA_ARGS__);                                                              \
    } while (0)

#define CHECK(cond)                                                                                \
    do {                                                                                           \
        if (cond)                                                                                  \
            harness_passed++;                                                                      \
        else                                                                                       \
            HARNESS_FAIL("%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);                  \
    } while (0)

/* A call (or an error code) that must be `expected`. */
#define CHECK_ERR(call, expected)                                                                  \
    do {                                                                                           \
        cl_int got_ = (call);                                                                      \
        if (got_ == (expected))                                                                    \
            harness_passed++;                                                                      \
        else                                                                                       \
            HARNESS_FAIL("%s:%d: %s gave %s (%d), expected %s\n", __FILE__, __LINE__, #call,       \
                         harness_error_name(got_), got_, #expected);                               \
    } while (0)

#define CHECK_OK(call) CHECK_ERR(call, CL_SUCCESS)

/* A creation call that must fail: it returns NULL and sets `err` (the
 * variable the call writes its error code to) to `expected`. */
#define CHECK_FAILS(call, err, expected)                                                           \
    do {                                                                                           \
        err = CL_SUCCESS;                                                                          \
        const void *object_ = (const void *)(call);                                                \
        if (object_ == NULL && err == (expected))                                                  \
            harness_passed++;                                                                      \
        else                                                                                       \
            HARNESS_FAIL("%s:%d: %s gave %p, %s (%d), expected NULL, %s\n", __FILE__, __LINE__,    \
                         #call, object_, harness_error_name(err), err, #expected);                 \
    } while (0)

/* Two integers that must be equal; both are printed when they are not. */
#define CHECK_EQ(got, want)                                                                        \
    do {                                                                                           \
        long long got_ = (long long)(got), want_ = (long long)(want);                              \
        if (got_ == want_)                                                                         \
            harness_passed++;                                                                      \
        else                                                                                       \
            HARNESS_FAIL("%s:%d: %s is %lld, expected %lld\n", __FILE__, __LINE__, #got, got_,     \
                         want_);                                                                   \
    } while (0)

/* A count of wrong elements that must be 0. */
#define CHECK_NONE_WRONG(bad, what)                                                                \
    do {                                                                                           \
        long bad_ = (long)(bad);                                                                   \
        if (bad_ == 0)                                                                             \
            harness_passed++;                                                                      \
        else                                                                                       \
            HARNESS_FAIL("%s:%d: %s: %ld wrong\n", __FILE__, __LINE__, (what), bad_);              \
    } while (0)

/* Stops the program: the rest of it cannot run without this. */
#define REQUIRE(cond)                                                                              \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "%s:%d: required: %s\n", __FILE__, __LINE__, #cond);                   \
            printf("%d passed, %d failed\n", harness_passed, harness_failed + 1);                  \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

static inline int harness_finish(void)
{
    printf("%d passed, %d failed\n", harness_passed, harness_failed);
    fflush(stdout);
    return harness_failed ? 1 : 0;
}

/* Relative tolerance for float results computed in a different order. */
static inline int harness_near(float got, float want, float tolerance)
{
    return fabsf(got - want) <= tolerance * (1.0f + fabsf(want));
}

/* The platform named "cpucl" (the loader may list others, e.g. PoCL) and
 * its device. Returns 0 when there is none. */
static inline int harness_find_cpucl(cl_platform_id *platform, cl_device_id *device)
{
    cl_platform_id platforms[16];
    cl_uint n = 0;
    if (clGetPlatformIDs(16, platforms, &n) != CL_SUCCESS)
        return 0;
    for (cl_uint i = 0; i < n && i < 16; i++) {
        char name[64] = "";
        clGetPlatformInfo(platforms[i], CL_PLATFORM_NAME, sizeof name, name, NULL);
        if (strcmp(name, "cpucl"))
            continue;
        *platform = platforms[i];
        return clGetDeviceIDs(platforms[i], CL_DEVICE_TYPE_CPU, 1, device, NULL) == CL_SUCCESS;
    }
    return 0;
}

struct harness {
    cl_platform_id platform;
    cl_device_id device;
    cl_context context;
    cl_command_queue queue; /* in order, no profiling */
};

/* cpucl's platform and device, a context and an in-order queue. */
static inline struct harness harness_open(void)
{
    struct harness h = {0};
    REQUIRE(harness_find_cpucl(&h.platform, &h.device));
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

/* The build log of `program` for `device`, malloc'ed ("" when none). */
static inline char *harness_build_log(cl_program program, cl_device_id device)
{
    size_t size = 0;
    if (clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, 0, NULL, &size) != CL_SUCCESS)
        size = 0;
    char *log = calloc(size + 1, 1);
    if (log && size)
        clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, size, log, NULL);
    return log;
}

/* The whole of a file of tests/data (a SPIR-V module, a kernel source),
 * malloc'ed with a NUL after it; the
 * test stops when it cannot be read. */
static inline unsigned char *harness_load_file(const char *path, size_t *size)
{
    FILE *file = fopen(path, "rb");
    REQUIRE(file);
    fseek(file, 0, SEEK_END);
    *size = (size_t)ftell(file);
    fseek(file, 0, SEEK_SET);
    unsigned char *data = malloc(*size + 1);
    REQUIRE(data && fread(data, 1, *size, file) == *size);
    data[*size] = 0; /* a text file can go to clCreateProgramWithSource */
    fclose(file);
    return data;
}

/* Whether the device reports `name`, a whole word of CL_DEVICE_EXTENSIONS. */
static inline int harness_has_extension(const struct harness *h, const char *name)
{
    char extensions[8192] = "";
    if (clGetDeviceInfo(h->device, CL_DEVICE_EXTENSIONS, sizeof extensions, extensions, NULL))
        return 0;
    size_t n = strlen(name);
    for (const char *p = extensions; (p = strstr(p, name)); p += n)
        if ((p == extensions || p[-1] == ' ') && (p[n] == ' ' || p[n] == 0))
            return 1;
    return 0;
}

/* Builds source; on failure prints the build log and returns NULL. */
static inline cl_program harness_build(struct harness *h, const char *source, const char *options)
{
    cl_int err;
    cl_program program = clCreateProgramWithSource(h->context, 1, &source, NULL, &err);
    if (err != CL_SUCCESS) {
        fprintf(stderr, "clCreateProgramWithSource: %s\n", harness_error_name(err));
        return NULL;
    }
    err = clBuildProgram(program, 1, &h->device, options, NULL, NULL);
    if (err != CL_SUCCESS) {
        char *log = harness_build_log(program, h->device);
        fprintf(stderr, "clBuildProgram(\"%s\"): %s; log:\n%s\n", options ? options : "",
                harness_error_name(err), log ? log : "");
        free(log);
        clReleaseProgram(program);
        return NULL;
    }
    return program;
}

/* harness_build of a file's source (tests/data). */
static inline cl_program harness_build_file(struct harness *h, const char *path,
                                            const char *options)
{
    size_t size;
    char *source = (char *)harness_load_file(path, &size);
    cl_program program = harness_build(h, source, options);
    free(source);
    return program;
}

static inline cl_kernel harness_kernel(cl_program program, const char *name)
{
    cl_int err;
    cl_kernel kernel = clCreateKernel(program, name, &err);
    if (err != CL_SUCCESS)
        fprintf(stderr, "clCreateKernel(%s): %s\n", name, harness_error_name(err));
    REQUIRE(err == CL_SUCCESS);
    return kernel;
}

/* A buffer of `size` bytes, initialised from `data` when it is not NULL. */
static inline cl_mem harness_buffer(struct harness *h, cl_mem_flags flags, size_t size, void *data)
{
    cl_int err;
    cl_mem mem =
        clCreateBuffer(h->context, flags | (data ? CL_MEM_COPY_HOST_PTR : 0), size, data, &err);
    if (err != CL_SUCCESS)
        fprintf(stderr, "clCreateBuffer(%zu): %s\n", size, harness_error_name(err));
    REQUIRE(err == CL_SUCCESS);
    return mem;
}

/* Sets arguments in order: harness_args(kernel, n, ARG(a), ARG(b), ...). */
static inline cl_int harness_args(cl_kernel kernel, int count, ...)
{
    va_list list;
    va_start(list, count);
    cl_int result = CL_SUCCESS;
    for (int i = 0; i < count; i++) {
        size_t size = va_arg(list, size_t);
        const void *value = va_arg(list, const void *);
        cl_int err = clSetKernelArg(kernel, (cl_uint)i, size, value);
        if (err != CL_SUCCESS && result == CL_SUCCESS) {
            fprintf(stderr, "clSetKernelArg(%d): %s\n", i, harness_error_name(err));
            result = err;
        }
    }
    va_end(list);
    return result;
}
#define ARG(x) sizeof(x), (const void *)&(x)

#endif
