/* test_context_queue.c - contexts (API spec 4.4) and command queues (5.1):
 * creation with and without properties, by device and by type, their
 * queries, reference counts, destructor callbacks (reverse order, after
 * the last object that holds the context goes), release in any order,
 * objects of two contexts kept apart, queue properties and their errors,
 * clFlush/clFinish, and the implicit flush of clReleaseCommandQueue. */
#include <unistd.h>
#include "../harness.h"

static int context_destroyed[4], context_destroyed_count;
static void CL_CALLBACK on_context_destroyed(cl_context context, void *data)
{
    context_destroyed[context_destroyed_count & 3] = *(int *)data;
    __atomic_fetch_add(&context_destroyed_count, 1, __ATOMIC_SEQ_CST);
}

static cl_uint context_refs(cl_context context)
{
    cl_uint refs = 0;
    CHECK_OK(clGetContextInfo(context, CL_CONTEXT_REFERENCE_COUNT, sizeof refs, &refs, NULL));
    return refs;
}

static void test_create_context(cl_platform_id platform, cl_device_id device)
{
    cl_int err;
    cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)platform, 0};
    cl_context c = clCreateContext(props, 1, &device, NULL, NULL, &err);
    CHECK_OK(err);
    cl_uint num = 0;
    CHECK_OK(clGetContextInfo(c, CL_CONTEXT_NUM_DEVICES, sizeof num, &num, NULL));
    CHECK_EQ(num, 1);
    cl_device_id devices[4] = {NULL};
    size_t size = 0;
    CHECK_OK(clGetContextInfo(c, CL_CONTEXT_DEVICES, sizeof devices, devices, &size));
    CHECK(size == sizeof(cl_device_id) && devices[0] == device);
    cl_context_properties got[8] = {0};
    CHECK_OK(clGetContextInfo(c, CL_CONTEXT_PROPERTIES, sizeof got, got, &size));
    CHECK(size == sizeof props && got[0] == CL_CONTEXT_PLATFORM &&
          got[1] == (cl_context_properties)platform && got[2] == 0);
    CHECK_EQ(context_refs(c), 1);
    CHECK_OK(clRetainContext(c));
    CHECK_EQ(context_refs(c), 2);
    CHECK_OK(clReleaseContext(c));
    CHECK_EQ(context_refs(c), 1);
    CHECK_ERR(clGetContextInfo(c, 0x7777, sizeof num, &num, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clGetContextInfo(c, CL_CONTEXT_DEVICES, 1, devices, NULL), CL_INVALID_VALUE);
    CHECK_OK(clReleaseContext(c));

    /* Without properties, CL_CONTEXT_PROPERTIES may be empty or a lone 0. */
    c = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    CHECK_OK(err);
    size = 99;
    CHECK_OK(clGetContextInfo(c, CL_CONTEXT_PROPERTIES, 0, NULL, &size));
    CHECK(size == 0 || size == sizeof(cl_context_properties));
    CHECK_OK(clReleaseContext(c));

    /* By type (with the platform named: the loader may know others). */
    c = clCreateContextFromType(props, CL_DEVICE_TYPE_CPU, NULL, NULL, &err);
    CHECK_OK(err);
    CHECK_OK(clGetContextInfo(c, CL_CONTEXT_DEVICES, sizeof devices, devices, NULL));
    CHECK(devices[0] == device);
    CHECK_OK(clReleaseContext(c));
    c = clCreateContextFromType(props, CL_DEVICE_TYPE_ALL, NULL, NULL, &err);
    CHECK_OK(err);
    CHECK_OK(clReleaseContext(c));
    CHECK_FAILS(clCreateContextFromType(props, CL_DEVICE_TYPE_GPU, NULL, NULL, &err), err,
                CL_DEVICE_NOT_FOUND);
    CHECK_FAILS(clCreateContextFromType(props, (cl_device_type)1 << 40, NULL, NULL, &err), err,
                CL_INVALID_DEVICE_TYPE);

    /* Errors (4.4). */
    CHECK_FAILS(clCreateContext(props, 0, &device, NULL, NULL, &err), err, CL_INVALID_VALUE);
    CHECK_FAILS(clCreateContext(props, 1, NULL, NULL, NULL, &err), err, CL_INVALID_VALUE);
    int data = 0;
    CHECK_FAILS(clCreateContext(props, 1, &device, NULL, &data, &err), err, CL_INVALID_VALUE);
    cl_device_id null_device = NULL;
    CHECK_FAILS(clCreateContext(props, 1, &null_device, NULL, NULL, &err), err, CL_INVALID_DEVICE);
    cl_context_properties twice[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)platform,
                                     CL_CONTEXT_PLATFORM, (cl_context_properties)platform, 0};
    CHECK_FAILS(clCreateContext(twice, 1, &device, NULL, NULL, &err), err, CL_INVALID_PROPERTY);
    cl_context_properties unknown[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)platform, 0x7777,
                                       1, 0};
    CHECK_FAILS(clCreateContext(unknown, 1, &device, NULL, NULL, &err), err, CL_INVALID_PROPERTY);
    cl_context_properties wrong_platform[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)device,
                                              0};
    CHECK_FAILS(clCreateContext(wrong_platform, 1, &device, NULL, NULL, &err), err,
                CL_INVALID_PLATFORM);
}

/* 4.4: the context goes when its last reference and the last object that
 * holds it go; destructor callbacks run then, last registered first. */
static void test_context_lifetime(cl_device_id device)
{
    static int ids[2] = {1, 2};
    cl_int err;
    cl_context c = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    CHECK_OK(err);
    CHECK_OK(clSetContextDestructorCallback(c, on_context_destroyed, &ids[0]));
    CHECK_OK(clSetContextDestructorCallback(c, on_context_destroyed, &ids[1]));
    CHECK_ERR(clSetContextDestructorCallback(c, NULL, NULL), CL_INVALID_VALUE);
    cl_command_queue q = clCreateCommandQueueWithProperties(c, device, NULL, &err);
    CHECK_OK(err);
    cl_mem m = clCreateBuffer(c, CL_MEM_READ_WRITE, 64, NULL, &err);
    CHECK_OK(err);
    const char *source = "kernel void k(global int *p) { p[get_global_id(0)] = 5; }\n";
    cl_program p = clCreateProgramWithSource(c, 1, &source, NULL, &err);
    CHECK_OK(clBuildProgram(p, 1, &device, "", NULL, NULL));
    cl_kernel k = clCreateKernel(p, "k", &err);
    CHECK_OK(err);
    /* The application lets go of the context first: everything still works. */
    CHECK_OK(clReleaseContext(c));
    CHECK_EQ(context_destroyed_count, 0);
    CHECK_OK(clSetKernelArg(k, 0, sizeof m, &m));
    size_t global = 16;
    CHECK_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, NULL, 0, NULL, NULL));
    int out[16] = {0};
    CHECK_OK(clEnqueueReadBuffer(q, m, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
    CHECK(out[0] == 5 && out[15] == 5);
    cl_context owner = NULL;
    CHECK_OK(clGetCommandQueueInfo(q, CL_QUEUE_CONTEXT, sizeof owner, &owner, NULL));
    CHECK(owner == c);
    CHECK_OK(clReleaseKernel(k));
    CHECK_OK(clReleaseProgram(p));
    CHECK_OK(clReleaseMemObject(m));
    CHECK_EQ(context_destroyed_count, 0);
    CHECK_OK(clReleaseCommandQueue(q));
    /* The context may go a moment later, when the worker that ran the last
     * command lets go of the queue (4.4 sets no time): wait for it, within
     * a bound. */
    for (int i = 0; i < 5000 && __atomic_load_n(&context_destroyed_count, __ATOMIC_SEQ_CST) < 2;
         i++)
        usleep(1000);
    CHECK_EQ(context_destroyed_count, 2);
    CHECK(context_destroyed[0] == 2 && context_destroyed[1] == 1);
}

static void test_queues(cl_device_id device)
{
    cl_int err;
    cl_context c = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    CHECK_OK(err);
    cl_command_queue q = clCreateCommandQueueWithProperties(c, device, NULL, &err);
    CHECK_OK(err);
    cl_command_queue_properties props = 1;
    CHECK_OK(clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES, sizeof props, &props, NULL));
    CHECK_EQ(props, 0);
    cl_device_id qdevice = NULL;
    CHECK_OK(clGetCommandQueueInfo(q, CL_QUEUE_DEVICE, sizeof qdevice, &qdevice, NULL));
    CHECK(qdevice == device);
    cl_uint refs = 0;
    CHECK_OK(clRetainCommandQueue(q));
    CHECK_OK(clGetCommandQueueInfo(q, CL_QUEUE_REFERENCE_COUNT, sizeof refs, &refs, NULL));
    CHECK_EQ(refs, 2);
    CHECK_OK(clReleaseCommandQueue(q));
    CHECK_ERR(clGetCommandQueueInfo(q, 0x7777, sizeof refs, &refs, NULL), CL_INVALID_VALUE);
    CHECK_OK(clFlush(q));
    CHECK_OK(clFinish(q));
    CHECK_OK(clReleaseCommandQueue(q));

    cl_queue_properties list[] = {
        CL_QUEUE_PROPERTIES, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE, 0};
    q = clCreateCommandQueueWithProperties(c, device, list, &err);
    CHECK_OK(err);
    CHECK_OK(clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES, sizeof props, &props, NULL));
    CHECK_EQ(props, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE);
    CHECK_OK(clReleaseCommandQueue(q));
    /* The 1.x entry point. */
    q = clCreateCommandQueue(c, device, CL_QUEUE_PROFILING_ENABLE, &err);
    CHECK_OK(err);
    CHECK_OK(clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES, sizeof props, &props, NULL));
    CHECK_EQ(props, CL_QUEUE_PROFILING_ENABLE);
    /* 1.0's clSetCommandQueueProperty (deprecated, still in the ICD). */
    cl_command_queue_properties old = 0;
    CHECK_OK(clSetCommandQueueProperty(q, CL_QUEUE_PROFILING_ENABLE, CL_FALSE, &old));
    CHECK_EQ(old, CL_QUEUE_PROFILING_ENABLE);
    CHECK_OK(clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES, sizeof props, &props, NULL));
    CHECK_EQ(props, 0);
    CHECK_OK(clReleaseCommandQueue(q));

    /* Errors (5.1). */
    cl_queue_properties unknown[] = {0x7777, 0, 0};
    CHECK_FAILS(clCreateCommandQueueWithProperties(c, device, unknown, &err), err,
                CL_INVALID_VALUE);
    cl_queue_properties bad_bits[] = {CL_QUEUE_PROPERTIES, (cl_queue_properties)1 << 20, 0};
    CHECK_FAILS(clCreateCommandQueueWithProperties(c, device, bad_bits, &err), err,
                CL_INVALID_VALUE);
    cl_queue_properties device_only[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_ON_DEVICE, 0};
    CHECK_FAILS(clCreateCommandQueueWithProperties(c, device, device_only, &err), err,
                CL_INVALID_VALUE); /* on-device queues must be out of order */
    cl_queue_properties size_on_host[] = {CL_QUEUE_SIZE, 1024, 0};
    CHECK_FAILS(clCreateCommandQueueWithProperties(c, device, size_on_host, &err), err,
                CL_INVALID_VALUE);
    cl_command_queue_properties on_device = 0;
    clGetDeviceInfo(device, CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES, sizeof on_device, &on_device,
                    NULL);
    if (!on_device) {
        cl_queue_properties device_queue[] = {
            CL_QUEUE_PROPERTIES, CL_QUEUE_ON_DEVICE | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, 0};
        CHECK_FAILS(clCreateCommandQueueWithProperties(c, device, device_queue, &err), err,
                    CL_INVALID_QUEUE_PROPERTIES);
    }
    CHECK_FAILS(clCreateCommandQueue(c, device, (cl_command_queue_properties)1 << 20, &err), err,
                CL_INVALID_VALUE);
    CHECK_FAILS(clCreateCommandQueueWithProperties(NULL, device, NULL, &err), err,
                CL_INVALID_CONTEXT);
    CHECK_FAILS(clCreateCommandQueueWithProperties(c, NULL, NULL, &err), err, CL_INVALID_DEVICE);
    CHECK_FAILS(clCreateCommandQueueWithProperties(c, (cl_device_id)c, NULL, &err), err,
                CL_INVALID_DEVICE);
    CHECK_ERR(clFinish(NULL), CL_INVALID_COMMAND_QUEUE);
    CHECK_ERR(clFlush(NULL), CL_INVALID_COMMAND_QUEUE);
    CHECK_OK(clReleaseContext(c));
}

/* 5.1: clReleaseCommandQueue flushes: commands enqueued before it still
 * run, here once their user event lets them. */
static void test_release_flushes(cl_device_id device)
{
    cl_int err;
    cl_context c = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    cl_command_queue q = clCreateCommandQueueWithProperties(c, device, NULL, &err);
    CHECK_OK(err);
    cl_event gate = clCreateUserEvent(c, &err), done;
    CHECK_OK(err);
    cl_mem m = clCreateBuffer(c, CL_MEM_READ_WRITE, 4, NULL, &err);
    static int value = 99, out = 0;
    CHECK_OK(clEnqueueWriteBuffer(q, m, CL_FALSE, 0, 4, &value, 1, &gate, NULL));
    CHECK_OK(clEnqueueReadBuffer(q, m, CL_FALSE, 0, 4, &out, 0, NULL, &done));
    CHECK_OK(clReleaseCommandQueue(q));
    CHECK_OK(clReleaseMemObject(m));
    CHECK_OK(clSetUserEventStatus(gate, CL_COMPLETE));
    CHECK_OK(clWaitForEvents(1, &done));
    CHECK_EQ(out, 99);
    cl_command_queue owner = NULL;
    CHECK_OK(clGetEventInfo(done, CL_EVENT_COMMAND_QUEUE, sizeof owner, &owner, NULL));
    CHECK(owner == q);
    clReleaseEvent(done), clReleaseEvent(gate);
    CHECK_OK(clReleaseContext(c));
}

/* Objects of one context may not be used with another's (5.2.2, 5.10,
 * 5.11). */
static void test_two_contexts(cl_device_id device)
{
    cl_int err;
    cl_context a = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    cl_context b = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    cl_command_queue qa = clCreateCommandQueueWithProperties(a, device, NULL, &err);
    cl_mem mb = clCreateBuffer(b, CL_MEM_READ_WRITE, 64, NULL, &err);
    cl_mem ma = clCreateBuffer(a, CL_MEM_READ_WRITE, 64, NULL, &err);
    int host[16];
    CHECK_ERR(clEnqueueReadBuffer(qa, mb, CL_TRUE, 0, 64, host, 0, NULL, NULL), CL_INVALID_CONTEXT);
    CHECK_ERR(clEnqueueCopyBuffer(qa, ma, mb, 0, 0, 64, 0, NULL, NULL), CL_INVALID_CONTEXT);
    cl_event foreign = clCreateUserEvent(b, &err);
    CHECK_ERR(clEnqueueReadBuffer(qa, ma, CL_TRUE, 0, 64, host, 1, &foreign, NULL),
              CL_INVALID_CONTEXT);
    CHECK_ERR(clEnqueueMarkerWithWaitList(qa, 1, &foreign, NULL), CL_INVALID_CONTEXT);
    cl_event own = clCreateUserEvent(a, &err);
    cl_event both[2] = {own, foreign};
    CHECK_ERR(clWaitForEvents(2, both), CL_INVALID_CONTEXT);
    const char *source = "kernel void k(global int *p) { p[0] = 1; }\n";
    cl_program pb = clCreateProgramWithSource(b, 1, &source, NULL, &err);
    CHECK_OK(clBuildProgram(pb, 1, &device, "", NULL, NULL));
    cl_kernel kb = clCreateKernel(pb, "k", &err);
    CHECK_OK(clSetKernelArg(kb, 0, sizeof mb, &mb));
    CHECK_ERR(clEnqueueTask(qa, kb, 0, NULL, NULL), CL_INVALID_CONTEXT);
    clSetUserEventStatus(own, CL_COMPLETE);
    clSetUserEventStatus(foreign, CL_COMPLETE);
    clReleaseEvent(own), clReleaseEvent(foreign);
    clReleaseKernel(kb), clReleaseProgram(pb);
    clReleaseMemObject(ma), clReleaseMemObject(mb);
    clReleaseCommandQueue(qa);
    clReleaseContext(a), clReleaseContext(b);
}

int main(void)
{
    cl_platform_id platform;
    cl_device_id device;
    REQUIRE(harness_find_cpucl(&platform, &device));
    test_create_context(platform, device);
    test_context_lifetime(device);
    test_queues(device);
    test_release_flushes(device);
    test_two_contexts(device);
    return harness_finish();
}
