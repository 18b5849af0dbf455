/* test_errors.c - bad input gets the spec's error code, never a crash:
 * NULL handles, handles of the wrong type (a cl_mem passed as a cl_kernel,
 * and so on for every object type), released handles, wait lists that do
 * not agree with their counts, bad sizes, dimensions and flags, programs
 * that do not compile (CL_BUILD_PROGRAM_FAILURE with a log that quotes the
 * line and names the problem), unknown build options, the program and
 * kernel calls in the wrong state, and sizes, pitches and regions whose
 * products or sums do not fit in size_t. */
#include <stdint.h>
#include <unistd.h>
#include "../harness.h"

static const char *fine = "kernel void k(global int *p) { p[get_global_id(0)] = 1; }\n";

static void test_wrong_types(struct harness *h)
{
    cl_int err;
    cl_mem m = harness_buffer(h, CL_MEM_READ_WRITE, 64, NULL);
    cl_program p = harness_build(h, fine, "");
    REQUIRE(p);
    cl_kernel k = harness_kernel(p, "k");
    cl_event e = clCreateUserEvent(h->context, &err);
    int value = 0;
    size_t global = 1;
    /* A buffer where a kernel, a queue, a program, an event, a context or
     * a device belongs. */
    CHECK_ERR(clSetKernelArg((cl_kernel)m, 0, sizeof value, &value), CL_INVALID_KERNEL);
    CHECK_ERR(clReleaseKernel((cl_kernel)m), CL_INVALID_KERNEL);
    CHECK_ERR(clGetKernelInfo((cl_kernel)m, CL_KERNEL_NUM_ARGS, 0, NULL, NULL), CL_INVALID_KERNEL);
    CHECK_ERR(clFinish((cl_command_queue)m), CL_INVALID_COMMAND_QUEUE);
    CHECK_ERR(clRetainProgram((cl_program)m), CL_INVALID_PROGRAM);
    CHECK_ERR(clBuildProgram((cl_program)m, 0, NULL, "", NULL, NULL), CL_INVALID_PROGRAM);
    CHECK_ERR(clGetEventInfo((cl_event)m, CL_EVENT_CONTEXT, 0, NULL, NULL), CL_INVALID_EVENT);
    CHECK_ERR(clReleaseContext((cl_context)m), CL_INVALID_CONTEXT);
    CHECK_ERR(clGetDeviceInfo((cl_device_id)m, CL_DEVICE_NAME, 0, NULL, NULL), CL_INVALID_DEVICE);
    CHECK_ERR(clEnqueueNDRangeKernel(h->queue, (cl_kernel)m, 1, NULL, &global, NULL, 0, NULL, NULL),
              CL_INVALID_KERNEL);
    /* Other objects where a buffer belongs. */
    CHECK_ERR(
        clEnqueueReadBuffer(h->queue, (cl_mem)h->context, CL_TRUE, 0, 4, &value, 0, NULL, NULL),
        CL_INVALID_MEM_OBJECT);
    CHECK_ERR(clEnqueueWriteBuffer(h->queue, (cl_mem)k, CL_TRUE, 0, 4, &value, 0, NULL, NULL),
              CL_INVALID_MEM_OBJECT);
    CHECK_ERR(clGetMemObjectInfo((cl_mem)p, CL_MEM_SIZE, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
    CHECK_ERR(clRetainMemObject((cl_mem)e), CL_INVALID_MEM_OBJECT);
    /* And the rest, crosswise. */
    CHECK_ERR(clGetContextInfo((cl_context)h->queue, CL_CONTEXT_NUM_DEVICES, 0, NULL, NULL),
              CL_INVALID_CONTEXT);
    CHECK_ERR(clGetCommandQueueInfo((cl_command_queue)e, CL_QUEUE_CONTEXT, 0, NULL, NULL),
              CL_INVALID_COMMAND_QUEUE);
    CHECK_ERR(clGetProgramInfo((cl_program)k, CL_PROGRAM_NUM_DEVICES, 0, NULL, NULL),
              CL_INVALID_PROGRAM);
    CHECK_FAILS(clCreateKernel((cl_program)k, "k", &err), err, CL_INVALID_PROGRAM);
    CHECK_FAILS(clCreateBuffer((cl_context)h->queue, CL_MEM_READ_WRITE, 64, NULL, &err), err,
                CL_INVALID_CONTEXT);
    CHECK_ERR(clReleaseEvent((cl_event)k), CL_INVALID_EVENT);
    CHECK_ERR(clSetUserEventStatus((cl_event)m, CL_COMPLETE), CL_INVALID_EVENT);
    CHECK_ERR(clWaitForEvents(1, (cl_event *)&m), CL_INVALID_EVENT);
    CHECK_ERR(clEnqueueReadBuffer(h->queue, m, CL_TRUE, 0, 4, &value, 1, (cl_event *)&m, NULL),
              CL_INVALID_EVENT_WAIT_LIST);
    CHECK_ERR(
        clGetKernelWorkGroupInfo(k, (cl_device_id)m, CL_KERNEL_WORK_GROUP_SIZE, 0, NULL, NULL),
        CL_INVALID_DEVICE);
    CHECK_ERR(clGetProgramBuildInfo(p, (cl_device_id)m, CL_PROGRAM_BUILD_STATUS, 0, NULL, NULL),
              CL_INVALID_DEVICE);
    /* NULL handles. */
    CHECK_ERR(clReleaseMemObject(NULL), CL_INVALID_MEM_OBJECT);
    CHECK_ERR(clReleaseKernel(NULL), CL_INVALID_KERNEL);
    CHECK_ERR(clReleaseProgram(NULL), CL_INVALID_PROGRAM);
    CHECK_ERR(clReleaseEvent(NULL), CL_INVALID_EVENT);
    CHECK_ERR(clReleaseCommandQueue(NULL), CL_INVALID_COMMAND_QUEUE);
    CHECK_ERR(clReleaseContext(NULL), CL_INVALID_CONTEXT);
    CHECK_ERR(clEnqueueNDRangeKernel(h->queue, NULL, 1, NULL, &global, NULL, 0, NULL, NULL),
              CL_INVALID_KERNEL);
    CHECK_ERR(clEnqueueReadBuffer(h->queue, NULL, CL_TRUE, 0, 4, &value, 0, NULL, NULL),
              CL_INVALID_MEM_OBJECT);
    /* Nothing above touched the real objects. */
    cl_uint refs = 0;
    CHECK_OK(clGetMemObjectInfo(m, CL_MEM_REFERENCE_COUNT, sizeof refs, &refs, NULL));
    CHECK_EQ(refs, 1);
    CHECK_OK(clSetUserEventStatus(e, CL_COMPLETE));
    clReleaseEvent(e);
    clReleaseKernel(k);
    clReleaseProgram(p);
    clReleaseMemObject(m);
}

/* A released handle is answered with the spec's code. (Checked at once:
 * a new object of the same type may take the old one's place.) */
static void test_released(struct harness *h)
{
    cl_int err;
    int value = 0;
    cl_mem m = harness_buffer(h, CL_MEM_READ_WRITE, 64, NULL);
    CHECK_OK(clReleaseMemObject(m));
    CHECK_ERR(clReleaseMemObject(m), CL_INVALID_MEM_OBJECT);
    CHECK_ERR(clRetainMemObject(m), CL_INVALID_MEM_OBJECT);
    CHECK_ERR(clGetMemObjectInfo(m, CL_MEM_SIZE, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
    CHECK_ERR(clEnqueueWriteBuffer(h->queue, m, CL_TRUE, 0, 4, &value, 0, NULL, NULL),
              CL_INVALID_MEM_OBJECT);

    cl_program p = harness_build(h, fine, "");
    REQUIRE(p);
    cl_kernel k = harness_kernel(p, "k");
    CHECK_OK(clReleaseKernel(k));
    CHECK_ERR(clSetKernelArg(k, 0, sizeof m, &m), CL_INVALID_KERNEL);
    CHECK_ERR(clReleaseKernel(k), CL_INVALID_KERNEL);
    CHECK_OK(clReleaseProgram(p));
    CHECK_FAILS(clCreateKernel(p, "k", &err), err, CL_INVALID_PROGRAM);
    CHECK_ERR(clGetProgramInfo(p, CL_PROGRAM_NUM_KERNELS, 0, NULL, NULL), CL_INVALID_PROGRAM);

    cl_event e;
    CHECK_OK(clEnqueueMarkerWithWaitList(h->queue, 0, NULL, &e));
    CHECK_OK(clWaitForEvents(1, &e));
    CHECK_OK(clReleaseEvent(e));
    CHECK_ERR(clWaitForEvents(1, &e), CL_INVALID_EVENT);
    CHECK_ERR(clGetEventInfo(e, CL_EVENT_COMMAND_TYPE, 0, NULL, NULL), CL_INVALID_EVENT);
    CHECK_ERR(clReleaseEvent(e), CL_INVALID_EVENT);

    cl_context c = clCreateContext(NULL, 1, &h->device, NULL, NULL, &err);
    cl_command_queue q = clCreateCommandQueueWithProperties(c, h->device, NULL, &err);
    CHECK_OK(clReleaseCommandQueue(q));
    CHECK_ERR(clFinish(q), CL_INVALID_COMMAND_QUEUE);
    CHECK_ERR(clReleaseCommandQueue(q), CL_INVALID_COMMAND_QUEUE);
    CHECK_OK(clReleaseContext(c));
    CHECK_ERR(clReleaseContext(c), CL_INVALID_CONTEXT);
    CHECK_FAILS(clCreateUserEvent(c, &err), err, CL_INVALID_CONTEXT);
}

static void test_bad_arguments(struct harness *h)
{
    cl_int err;
    int value = 0;
    /* Wait lists that do not agree with their counts. */
    cl_mem n = harness_buffer(h, CL_MEM_READ_WRITE, 64, NULL);
    cl_event none = NULL, e = clCreateUserEvent(h->context, &err);
    CHECK_ERR(clEnqueueReadBuffer(h->queue, n, CL_TRUE, 0, 4, &value, 1, NULL, NULL),
              CL_INVALID_EVENT_WAIT_LIST);
    CHECK_ERR(clEnqueueReadBuffer(h->queue, n, CL_TRUE, 0, 4, &value, 0, &e, NULL),
              CL_INVALID_EVENT_WAIT_LIST);
    CHECK_ERR(clEnqueueReadBuffer(h->queue, n, CL_TRUE, 0, 4, &value, 1, &none, NULL),
              CL_INVALID_EVENT_WAIT_LIST);
    CHECK_ERR(clEnqueueMarkerWithWaitList(h->queue, 1, NULL, NULL), CL_INVALID_EVENT_WAIT_LIST);
    CHECK_ERR(clWaitForEvents(0, NULL), CL_INVALID_VALUE);
    clSetUserEventStatus(e, CL_COMPLETE);
    clReleaseEvent(e);
    clReleaseMemObject(n);

    /* Info queries: unknown names and short buffers. */
    char small[2];
    CHECK_ERR(clGetDeviceInfo(h->device, CL_DEVICE_NAME, sizeof small, small, NULL),
              CL_INVALID_VALUE);
    CHECK_ERR(clGetDeviceInfo(h->device, 0x7fffffff, 0, NULL, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clGetPlatformInfo(h->platform, 0x7fffffff, 0, NULL, NULL), CL_INVALID_VALUE);
    cl_uint count;
    CHECK_ERR(clGetDeviceIDs(h->platform, CL_DEVICE_TYPE_GPU, 1, NULL, &count),
              CL_DEVICE_NOT_FOUND);
    CHECK_ERR(clGetDeviceIDs(h->platform, CL_DEVICE_TYPE_CPU, 0, NULL, NULL), CL_INVALID_VALUE);

    /* Contexts and queues. */
    CHECK_FAILS(clCreateContext(NULL, 0, NULL, NULL, NULL, &err), err, CL_INVALID_VALUE);
    cl_context_properties bad_props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)h->platform,
                                         0x7777, 0, 0};
    CHECK_FAILS(clCreateContext(bad_props, 1, &h->device, NULL, NULL, &err), err,
                CL_INVALID_PROPERTY);
    CHECK_FAILS(
        clCreateCommandQueue(h->context, h->device, (cl_command_queue_properties)1 << 20, &err),
        err, CL_INVALID_VALUE);

    /* NDRange sizes and dimensions. */
    cl_program p = harness_build(h, fine, "");
    REQUIRE(p);
    cl_kernel k = harness_kernel(p, "k");
    size_t global = 4;
    CHECK_ERR(clEnqueueNDRangeKernel(h->queue, k, 1, NULL, &global, NULL, 0, NULL, NULL),
              CL_INVALID_KERNEL_ARGS);
    cl_mem m = harness_buffer(h, CL_MEM_READ_WRITE, 64, NULL);
    CHECK_OK(clSetKernelArg(k, 0, sizeof m, &m));
    CHECK_ERR(clEnqueueNDRangeKernel(h->queue, k, 0, NULL, &global, NULL, 0, NULL, NULL),
              CL_INVALID_WORK_DIMENSION);
    size_t global4[4] = {1, 1, 1, 1};
    CHECK_ERR(clEnqueueNDRangeKernel(h->queue, k, 4, NULL, global4, NULL, 0, NULL, NULL),
              CL_INVALID_WORK_DIMENSION);
    /* 2.1+: no global size means no work, not an error. */
    CHECK_OK(clEnqueueNDRangeKernel(h->queue, k, 1, NULL, NULL, NULL, 0, NULL, NULL));
    size_t local = 3;
    CHECK_ERR(clEnqueueNDRangeKernel(h->queue, k, 1, NULL, &global, &local, 0, NULL, NULL),
              CL_INVALID_WORK_GROUP_SIZE);
    size_t zero_local = 0;
    CHECK_ERR(clEnqueueNDRangeKernel(h->queue, k, 1, NULL, &global, &zero_local, 0, NULL, NULL),
              CL_INVALID_WORK_GROUP_SIZE);
    size_t max_group = 0;
    clGetDeviceInfo(h->device, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof max_group, &max_group, NULL);
    size_t huge = max_group * 2;
    CHECK_ERR(clEnqueueNDRangeKernel(h->queue, k, 1, NULL, &huge, &huge, 0, NULL, NULL),
              CL_INVALID_WORK_GROUP_SIZE);
    size_t offset = (size_t)-2;
    CHECK_ERR(clEnqueueNDRangeKernel(h->queue, k, 1, &offset, &global, NULL, 0, NULL, NULL),
              CL_INVALID_GLOBAL_OFFSET);
    CHECK_OK(clFinish(h->queue));
    clReleaseMemObject(m);
    clReleaseKernel(k);
    clReleaseProgram(p);
}

static int build_callbacks;
static void CL_CALLBACK on_built(cl_program program, void *data)
{
    __atomic_fetch_add(&build_callbacks, 1, __ATOMIC_SEQ_CST);
}

static void test_build_errors(struct harness *h)
{
    cl_int err;
    const char *broken = "kernel void k(global int *p)\n{\n    p[0] = 1\n}\n";
    cl_program p = clCreateProgramWithSource(h->context, 1, &broken, NULL, &err);
    CHECK_OK(err);
    CHECK_ERR(clBuildProgram(p, 1, &h->device, "", NULL, NULL), CL_BUILD_PROGRAM_FAILURE);
    char *log = harness_build_log(p, h->device);
    /* 5.8: the log names the line and the problem, and quotes the code. */
    CHECK(strstr(log, "error") != NULL && strstr(log, ":3:") != NULL);
    CHECK(strstr(log, "expected ';'") != NULL);
    CHECK(strstr(log, "p[0] = 1") != NULL);
    if (!strstr(log, "p[0] = 1"))
        fprintf(stderr, "build log:\n%s\n", log);
    free(log);
    cl_build_status status;
    CHECK_OK(
        clGetProgramBuildInfo(p, h->device, CL_PROGRAM_BUILD_STATUS, sizeof status, &status, NULL));
    CHECK_EQ(status, CL_BUILD_ERROR);
    CHECK_FAILS(clCreateKernel(p, "k", &err), err, CL_INVALID_PROGRAM_EXECUTABLE);
    cl_kernel kernels[1];
    CHECK_ERR(clCreateKernelsInProgram(p, 1, kernels, NULL), CL_INVALID_PROGRAM_EXECUTABLE);
    clReleaseProgram(p);

    /* A program never built. */
    p = clCreateProgramWithSource(h->context, 1, &fine, NULL, &err);
    CHECK_OK(
        clGetProgramBuildInfo(p, h->device, CL_PROGRAM_BUILD_STATUS, sizeof status, &status, NULL));
    CHECK_EQ(status, CL_BUILD_NONE);
    CHECK_FAILS(clCreateKernel(p, "k", &err), err, CL_INVALID_PROGRAM_EXECUTABLE);
    /* Unknown options: CL_INVALID_BUILD_OPTIONS, and the log names them. */
    CHECK_ERR(clBuildProgram(p, 1, &h->device, "-cl-no-such-option", NULL, NULL),
              CL_INVALID_BUILD_OPTIONS);
    log = harness_build_log(p, h->device);
    CHECK(strstr(log, "-cl-no-such-option") != NULL);
    free(log);
    CHECK_ERR(clBuildProgram(p, 1, &h->device, "-cl-std=CL9.9", NULL, NULL),
              CL_INVALID_BUILD_OPTIONS);
    /* Device lists. */
    CHECK_ERR(clBuildProgram(p, 0, &h->device, "", NULL, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clBuildProgram(p, 1, NULL, "", NULL, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clBuildProgram(p, 1, (cl_device_id *)&h->context, "", NULL, NULL), CL_INVALID_DEVICE);
    int data = 0;
    CHECK_ERR(clBuildProgram(p, 1, &h->device, "", NULL, &data), CL_INVALID_VALUE);
    /* Options the spec lists, with a callback. */
    CHECK_OK(clBuildProgram(p, 1, &h->device, "-DX=1 -cl-mad-enable -I /tmp -w", on_built, NULL));
    for (int i = 0; i < 5000 && !__atomic_load_n(&build_callbacks, __ATOMIC_SEQ_CST); i++)
        usleep(1000);
    CHECK_EQ(build_callbacks, 1);
    CHECK_OK(
        clGetProgramBuildInfo(p, h->device, CL_PROGRAM_BUILD_STATUS, sizeof status, &status, NULL));
    CHECK_EQ(status, CL_BUILD_SUCCESS);
    char options[128] = "";
    CHECK_OK(clGetProgramBuildInfo(p, h->device, CL_PROGRAM_BUILD_OPTIONS, sizeof options, options,
                                   NULL));
    CHECK(strstr(options, "-DX=1") != NULL);
    CHECK_FAILS(clCreateKernel(p, "missing", &err), err, CL_INVALID_KERNEL_NAME);
    CHECK_FAILS(clCreateKernel(p, NULL, &err), err, CL_INVALID_VALUE);
    cl_kernel k = clCreateKernel(p, "k", &err);
    CHECK_OK(err);
    /* 5.8.2: no rebuild while kernels are attached. */
    CHECK_ERR(clBuildProgram(p, 1, &h->device, "", NULL, NULL), CL_INVALID_OPERATION);
    clReleaseKernel(k);
    CHECK_OK(clBuildProgram(p, 1, &h->device, "-DY=2", NULL, NULL));
    clReleaseProgram(p);

    /* Creation errors; lengths limit the source. */
    CHECK_FAILS(clCreateProgramWithSource(h->context, 0, &fine, NULL, &err), err, CL_INVALID_VALUE);
    CHECK_FAILS(clCreateProgramWithSource(h->context, 1, NULL, NULL, &err), err, CL_INVALID_VALUE);
    const char *with_null[2] = {fine, NULL};
    CHECK_FAILS(clCreateProgramWithSource(h->context, 2, with_null, NULL, &err), err,
                CL_INVALID_VALUE);
    const char *parts[2] = {"kernel void k(global int *p) { p[0] = 3; }GARBAGE", "\n"};
    size_t lengths[2] = {strlen(parts[0]) - strlen("GARBAGE"), 0};
    p = clCreateProgramWithSource(h->context, 2, parts, lengths, &err);
    CHECK_OK(err);
    CHECK_OK(clBuildProgram(p, 1, &h->device, "", NULL, NULL));
    char text[256] = "";
    CHECK_OK(clGetProgramInfo(p, CL_PROGRAM_SOURCE, sizeof text, text, NULL));
    CHECK(!strcmp(text, "kernel void k(global int *p) { p[0] = 3; }\n"));
    clReleaseProgram(p);
    const unsigned char junk[] = "not a binary";
    const unsigned char *binaries[] = {junk};
    size_t length = sizeof junk;
    cl_int binary_status;
    CHECK_FAILS(clCreateProgramWithBinary(h->context, 1, &h->device, &length, binaries,
                                          &binary_status, &err),
                err, CL_INVALID_BINARY);
    CHECK_EQ(binary_status, CL_INVALID_BINARY);
    length = 0;
    CHECK_FAILS(clCreateProgramWithBinary(h->context, 1, &h->device, &length, binaries,
                                          &binary_status, &err),
                err, CL_INVALID_VALUE);
}

/* A feature the driver may not offer yet: either the program builds and
 * computes the right answer, or the build fails with a log naming it. */
static void test_reduce_or_named(struct harness *h)
{
    cl_int err;
    const char *collective = "kernel void k(global int *p)\n"
                             "{ int s = work_group_reduce_add(p[get_global_id(0)]);\n"
                             "  if (get_local_id(0) == 0) p[64 + get_group_id(0)] = s; }\n";
    cl_program p = clCreateProgramWithSource(h->context, 1, &collective, NULL, &err);
    err = clBuildProgram(p, 1, &h->device, "-cl-std=CL2.0", NULL, NULL);
    if (err == CL_BUILD_PROGRAM_FAILURE) {
        char *log = harness_build_log(p, h->device);
        CHECK(strstr(log, "work_group_reduce_add") != NULL);
        free(log);
    } else {
        CHECK_OK(err);
        int data[66];
        for (int i = 0; i < 64; i++)
            data[i] = i;
        cl_mem m = harness_buffer(h, CL_MEM_READ_WRITE, sizeof data, data);
        cl_kernel k = harness_kernel(p, "k");
        CHECK_OK(clSetKernelArg(k, 0, sizeof m, &m));
        size_t global = 64, local = 32;
        CHECK_OK(clEnqueueNDRangeKernel(h->queue, k, 1, NULL, &global, &local, 0, NULL, NULL));
        CHECK_OK(clEnqueueReadBuffer(h->queue, m, CL_TRUE, 0, sizeof data, data, 0, NULL, NULL));
        CHECK(data[64] == 31 * 32 / 2 && data[65] == (32 + 63) * 32 / 2);
        clReleaseKernel(k);
        clReleaseMemObject(m);
    }
    clReleaseProgram(p);
}

static void CL_CALLBACK native_nothing(void *args)
{
    (void)args;
}

/* Regions and pitches whose byte counts wrap around size_t are
 * CL_INVALID_VALUE: before the bounds checks did their arithmetic without
 * overflow checks, a read of 2^62 rows of 16 bytes passed them and the
 * copy read past the buffer's storage (AddressSanitizer: heap overflow). */
static void test_size_overflows(struct harness *h)
{
    enum { SIZE = 4096 };
    unsigned char data[SIZE], back[SIZE];
    for (int i = 0; i < SIZE; i++)
        data[i] = (unsigned char)(i * 7);
    cl_mem b = harness_buffer(h, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, SIZE, data);
    cl_mem c = harness_buffer(h, CL_MEM_READ_WRITE, SIZE, NULL);
    static unsigned char host[SIZE];
    size_t zero[3] = {0, 0, 0};
    size_t tall[3] = {16, (size_t)1 << 62, 1}, box[3] = {16, 4, 4};
    CHECK_ERR(clEnqueueReadBufferRect(h->queue, b, CL_TRUE, zero, zero, tall, 16, 0, 16, 0, host, 0,
                                      NULL, NULL),
              CL_INVALID_VALUE);
    CHECK_ERR(clEnqueueWriteBufferRect(h->queue, b, CL_TRUE, zero, zero, box, 16, (size_t)1 << 63,
                                       16, 0, host, 0, NULL, NULL),
              CL_INVALID_VALUE);
    CHECK_ERR(clEnqueueCopyBufferRect(h->queue, b, c, zero, zero, box, 16, (size_t)0 - 16, 16, 64,
                                      0, NULL, NULL),
              CL_INVALID_VALUE);
    cl_int err;
    size_t far[3] = {SIZE_MAX - 8, 0, 0};
    CHECK_ERR(clEnqueueReadBufferRect(h->queue, b, CL_TRUE, far, zero, box, 0, 0, 0, 0, host, 0,
                                      NULL, NULL),
              CL_INVALID_VALUE);
    /* the host's side too: a pitch that puts its last row past the end of
     * the address space */
    CHECK_ERR(clEnqueueReadBufferRect(h->queue, b, CL_TRUE, zero, zero, box, 0, 0, (size_t)1 << 62,
                                      0, host, 0, NULL, NULL),
              CL_INVALID_VALUE);
    /* A box that fits still reads what was written: rows of 16 bytes from
     * a 64-byte pitch into a tight array. */
    size_t rows[3] = {16, 8, 1};
    CHECK_OK(clEnqueueReadBufferRect(h->queue, b, CL_TRUE, zero, zero, rows, 64, 0, 16, 0, back, 0,
                                     NULL, NULL));
    int bad = 0;
    for (int r = 0; r < 8; r++)
        for (int i = 0; i < 16; i++)
            bad += back[r * 16 + i] != data[r * 64 + i];
    CHECK_NONE_WRONG(bad, "a rect read after the refused ones");

    {
        cl_image_format format = {CL_RGBA, CL_UNORM_INT8};
        cl_image_desc desc = {CL_MEM_OBJECT_IMAGE2D, 16, 16, 0, 0, 0, 0, 0, 0, {NULL}};
        cl_mem image = clCreateImage(h->context, CL_MEM_READ_WRITE, &format, &desc, NULL, &err);
        CHECK_OK(err);
        size_t region[3] = {8, 8, 1};
        CHECK_ERR(clEnqueueReadImage(h->queue, image, CL_TRUE, zero, region, (size_t)1 << 63, 0,
                                     host, 0, NULL, NULL),
                  CL_INVALID_VALUE);
        CHECK_ERR(clEnqueueWriteImage(h->queue, image, CL_TRUE, zero, region, SIZE_MAX - 3, 0, host,
                                      0, NULL, NULL),
                  CL_INVALID_VALUE);
        clReleaseMemObject(image);
        /* pitches whose image would span more than the address space: of
         * the application's memory, or of a buffer's rows */
        desc.image_row_pitch = (size_t)1 << 62;
        CHECK(!clCreateImage(h->context, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, &format, &desc,
                             host, &err));
        CHECK(err == CL_INVALID_IMAGE_DESCRIPTOR);
        if (harness_has_extension(h, "cl_khr_image2d_from_buffer")) {
            cl_image_desc over = {CL_MEM_OBJECT_IMAGE2D, 16, 16, 0, 0,
                                  (size_t)0 - 256,       0,  0,  0, {.buffer = b}};
            CHECK(!clCreateImage(h->context, CL_MEM_READ_WRITE, &format, &over, NULL, &err));
            CHECK(err == CL_INVALID_IMAGE_DESCRIPTOR);
        }
    }

    /* Sources whose lengths add up past the address space (the copy's size
     * wrapped to a byte); a native kernel's argument block likewise (its
     * copy's size wrapped: a heap overflow). */
    const char *halves[2] = {fine, fine};
    size_t half_lengths[2] = {SIZE_MAX / 2 + 2, SIZE_MAX / 2 + 2};
    CHECK(!clCreateProgramWithSource(h->context, 2, halves, half_lengths, &err));
    CHECK(err == CL_INVALID_VALUE);
    cl_device_exec_capabilities exec = 0;
    CHECK_OK(
        clGetDeviceInfo(h->device, CL_DEVICE_EXECUTION_CAPABILITIES, sizeof exec, &exec, NULL));
    if (exec & CL_EXEC_NATIVE_KERNEL)
        CHECK_ERR(clEnqueueNativeKernel(h->queue, native_nothing, host, SIZE_MAX, 0, NULL, NULL, 0,
                                        NULL, NULL),
                  CL_INVALID_VALUE);

    /* A range of 2^66 work-items: each size fits in size_t, their count
     * does not. */
    cl_program p = harness_build(h, fine, "");
    REQUIRE(p);
    cl_kernel k = harness_kernel(p, "k");
    CHECK_OK(clSetKernelArg(k, 0, sizeof c, &c));
    size_t huge[3] = {(size_t)1 << 32, (size_t)1 << 32, 4};
    CHECK_ERR(clEnqueueNDRangeKernel(h->queue, k, 3, NULL, huge, NULL, 0, NULL, NULL),
              CL_OUT_OF_RESOURCES);
    clReleaseKernel(k);
    clReleaseProgram(p);

    void *svm = clSVMAlloc(h->context, CL_MEM_READ_WRITE, SIZE, 0);
    CHECK(svm != NULL);
    int pattern = 1;
    CHECK_ERR(clEnqueueSVMMemFill(h->queue, svm, &pattern, 4, SIZE_MAX - 3, 0, NULL, NULL),
              CL_INVALID_VALUE);
    CHECK_ERR(clEnqueueSVMMemcpy(h->queue, CL_TRUE, host, svm, SIZE_MAX - 64, 0, NULL, NULL),
              CL_INVALID_VALUE);
    CHECK_OK(clFinish(h->queue));
    clSVMFree(h->context, svm);
    clReleaseMemObject(b);
    clReleaseMemObject(c);
}

int main(void)
{
    struct harness h = harness_open();
    test_wrong_types(&h);
    test_released(&h);
    test_bad_arguments(&h);
    test_build_errors(&h);
    test_reduce_or_named(&h);
    test_size_overflows(&h);
    harness_close(&h);
    return harness_finish();
}
