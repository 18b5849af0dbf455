/* test_errors.c - bad input gets the spec's error code, never a crash:
 * NULL, wrong-type and released handles, bad sizes and flags, sources that
 * do not compile (with a build log), unknown build options. */
#include "../harness.h"

static void test_handles(struct harness *h)
{
    cl_int err;
    cl_mem m = harness_buffer(h, CL_MEM_READ_WRITE, 64, NULL);
    int value = 0;
    /* A buffer passed where a kernel, a queue or a program belongs. */
    CHECK_ERR(clSetKernelArg((cl_kernel)m, 0, sizeof value, &value), CL_INVALID_KERNEL);
    CHECK_ERR(clFinish((cl_command_queue)m), CL_INVALID_COMMAND_QUEUE);
    CHECK_ERR(clRetainProgram((cl_program)m), CL_INVALID_PROGRAM);
    CHECK_ERR(clGetEventInfo((cl_event)m, CL_EVENT_CONTEXT, 0, NULL, NULL), CL_INVALID_EVENT);
    CHECK_ERR(clGetContextInfo((cl_context)h->queue, CL_CONTEXT_NUM_DEVICES, 0, NULL, NULL),
              CL_INVALID_CONTEXT);
    CHECK_ERR(clEnqueueReadBuffer(h->queue, (cl_mem)h->context, CL_TRUE, 0, 4, &value, 0, NULL,
                                  NULL),
              CL_INVALID_MEM_OBJECT);
    /* A released handle. */
    CHECK_OK(clReleaseMemObject(m));
    CHECK_ERR(clReleaseMemObject(m), CL_INVALID_MEM_OBJECT);
    CHECK_ERR(clGetMemObjectInfo(m, CL_MEM_SIZE, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
    CHECK_ERR(clEnqueueWriteBuffer(h->queue, m, CL_TRUE, 0, 4, &value, 0, NULL, NULL),
              CL_INVALID_MEM_OBJECT);
    /* Wait lists that do not agree with their counts. */
    cl_mem n = harness_buffer(h, CL_MEM_READ_WRITE, 64, NULL);
    cl_event none = NULL;
    CHECK_ERR(clEnqueueReadBuffer(h->queue, n, CL_TRUE, 0, 4, &value, 1, NULL, NULL),
              CL_INVALID_EVENT_WAIT_LIST);
    CHECK_ERR(clEnqueueReadBuffer(h->queue, n, CL_TRUE, 0, 4, &value, 1, &none, NULL),
              CL_INVALID_EVENT_WAIT_LIST);
    CHECK_ERR(clWaitForEvents(0, NULL), CL_INVALID_VALUE);
    clReleaseMemObject(n);
    /* Info queries: unknown names and short buffers. */
    char small[2];
    CHECK_ERR(clGetDeviceInfo(h->device, CL_DEVICE_NAME, sizeof small, small, NULL),
              CL_INVALID_VALUE);
    CHECK_ERR(clGetDeviceInfo(h->device, 0x7fffffff, 0, NULL, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clGetPlatformInfo(h->platform, 0x7fffffff, 0, NULL, NULL), CL_INVALID_VALUE);
    cl_uint count;
    CHECK_ERR(clGetDeviceIDs(h->platform, CL_DEVICE_TYPE_GPU, 1, NULL, &count), CL_DEVICE_NOT_FOUND);
    CHECK_ERR(clGetDeviceIDs(h->platform, CL_DEVICE_TYPE_CPU, 0, NULL, NULL), CL_INVALID_VALUE);
    /* Contexts and queues. */
    cl_context c = clCreateContext(NULL, 0, NULL, NULL, NULL, &err);
    CHECK(c == NULL && err == CL_INVALID_VALUE);
    cl_context_properties bad_props[] = {0x7777, 0, 0};
    c = clCreateContext(bad_props, 1, &h->device, NULL, NULL, &err);
    CHECK(c == NULL && err == CL_INVALID_PROPERTY);
    cl_command_queue q = clCreateCommandQueue(h->context, h->device, (cl_command_queue_properties)1 << 20, &err);
    CHECK(q == NULL && err == CL_INVALID_VALUE);
}

static void test_build_errors(struct harness *h)
{
    cl_int err;
    const char *broken = "kernel void k(global int *p)\n{\n    p[0] = 1\n}\n";
    cl_program p = clCreateProgramWithSource(h->context, 1, &broken, NULL, &err);
    CHECK_OK(err);
    CHECK_ERR(clBuildProgram(p, 1, &h->device, "", NULL, NULL), CL_BUILD_PROGRAM_FAILURE);
    char log[8192] = "";
    CHECK_OK(clGetProgramBuildInfo(p, h->device, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL));
    CHECK(strstr(log, "error") != NULL && strstr(log, ":3:") != NULL);
    cl_build_status status;
    CHECK_OK(clGetProgramBuildInfo(p, h->device, CL_PROGRAM_BUILD_STATUS, sizeof status, &status, NULL));
    CHECK(status == CL_BUILD_ERROR);
    cl_kernel k = clCreateKernel(p, "k", &err);
    CHECK(k == NULL && err == CL_INVALID_PROGRAM_EXECUTABLE);
    clReleaseProgram(p);

    const char *fine = "kernel void k(global int *p) { p[get_global_id(0)] = 1; }\n";
    p = clCreateProgramWithSource(h->context, 1, &fine, NULL, &err);
    CHECK_ERR(clBuildProgram(p, 1, &h->device, "-cl-no-such-option", NULL, NULL),
              CL_INVALID_BUILD_OPTIONS);
    CHECK_OK(clBuildProgram(p, 1, &h->device, "-DX=1 -cl-mad-enable", NULL, NULL));
    k = clCreateKernel(p, "missing", &err);
    CHECK(k == NULL && err == CL_INVALID_KERNEL_NAME);
    k = clCreateKernel(p, "k", &err);
    CHECK_OK(err);
    /* 5.8.2: no rebuild while kernels are attached. */
    CHECK_ERR(clBuildProgram(p, 1, &h->device, "", NULL, NULL), CL_INVALID_OPERATION);
    size_t global = 4;
    CHECK_ERR(clEnqueueNDRangeKernel(h->queue, k, 1, NULL, &global, NULL, 0, NULL, NULL),
              CL_INVALID_KERNEL_ARGS);
    cl_mem m = harness_buffer(h, CL_MEM_READ_WRITE, 64, NULL);
    CHECK_OK(clSetKernelArg(k, 0, sizeof m, &m));
    CHECK_ERR(clEnqueueNDRangeKernel(h->queue, k, 0, NULL, &global, NULL, 0, NULL, NULL),
              CL_INVALID_WORK_DIMENSION);
    /* 2.1+: no global size means no work, not an error. */
    CHECK_OK(clEnqueueNDRangeKernel(h->queue, k, 1, NULL, NULL, NULL, 0, NULL, NULL));
    size_t local = 3;
    CHECK_ERR(clEnqueueNDRangeKernel(h->queue, k, 1, NULL, &global, &local, 0, NULL, NULL),
              CL_INVALID_WORK_GROUP_SIZE);
    size_t huge = 8192;
    CHECK_ERR(clEnqueueNDRangeKernel(h->queue, k, 1, NULL, &huge, &huge, 0, NULL, NULL),
              CL_INVALID_WORK_GROUP_SIZE);
    clReleaseMemObject(m);
    clReleaseKernel(k);
    clReleaseProgram(p);

    /* Work-group collectives come with a later issue: the build says so. */
    const char *collective = "kernel void k(global int *p)\n"
                             "{ p[0] = work_group_reduce_add(p[get_local_id(0)]); }\n";
    p = clCreateProgramWithSource(h->context, 1, &collective, NULL, &err);
    CHECK_ERR(clBuildProgram(p, 1, &h->device, "-cl-std=CL2.0", NULL, NULL),
              CL_BUILD_PROGRAM_FAILURE);
    CHECK_OK(clGetProgramBuildInfo(p, h->device, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL));
    CHECK(strstr(log, "work_group_reduce_add") != NULL);
    clReleaseProgram(p);

    p = clCreateProgramWithSource(h->context, 0, &fine, NULL, &err);
    CHECK(p == NULL && err == CL_INVALID_VALUE);
    const unsigned char junk[] = "not a binary";
    const unsigned char *binaries[] = {junk};
    size_t length = sizeof junk;
    cl_int binary_status;
    p = clCreateProgramWithBinary(h->context, 1, &h->device, &length, binaries, &binary_status, &err);
    CHECK(p == NULL && err == CL_INVALID_BINARY && binary_status == CL_INVALID_BINARY);
}

int main(void)
{
    struct harness h = harness_open();
    test_handles(&h);
    test_build_errors(&h);
    harness_close(&h);
    return harness_finish();
}
