/* test_semaphores.c - cl_khr_semaphore: binary semaphores between queues.
 * A wait holds back what follows it in its queue until the signal it takes
 * completes (whether the wait or the signal is enqueued first), a kernel
 * after the wait sees what a kernel before the signal wrote, a semaphore
 * is signaled and waited on again and again, the queries answer, and bad
 * arguments get the spec's errors. The functions are found by name, as an
 * application through the ICD loader finds them. */
#include <stdbool.h>
#include <time.h>

#include "../harness.h"

#ifndef CL_SEMAPHORE_DEVICE_HANDLE_LIST_KHR
#define CL_SEMAPHORE_DEVICE_HANDLE_LIST_KHR 0x2053
#define CL_SEMAPHORE_DEVICE_HANDLE_LIST_END_KHR 0
#endif

static clCreateSemaphoreWithPropertiesKHR_fn create_semaphore;
static clEnqueueWaitSemaphoresKHR_fn wait_semaphores;
static clEnqueueSignalSemaphoresKHR_fn signal_semaphores;
static clGetSemaphoreInfoKHR_fn semaphore_info;
static clRetainSemaphoreKHR_fn retain_semaphore;
static clReleaseSemaphoreKHR_fn release_semaphore;

static const char *source = "kernel void add(global int *p, int v) { p[get_global_id(0)] += v; }\n";

enum { N = 1024 };

static void sleep_ms(int ms)
{
    struct timespec t = {0, ms * 1000000L};
    nanosleep(&t, NULL);
}

static cl_int status_of(cl_event event)
{
    cl_int status = 0;
    CHECK_OK(
        clGetEventInfo(event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL));
    return status;
}

static cl_semaphore_payload_khr payload_of(cl_semaphore_khr semaphore)
{
    cl_semaphore_payload_khr payload = 9;
    CHECK_OK(semaphore_info(semaphore, CL_SEMAPHORE_PAYLOAD_KHR, sizeof payload, &payload, NULL));
    return payload;
}

/* A kernel on `q1` gated by a user event, a signal after it; on the
 * out-of-order `q2` a wait (before or after the signal is enqueued), a
 * barrier and a kernel: the second kernel runs only after the first, and
 * sees its writes. */
static void test_ordering(struct harness *h, cl_kernel add, cl_command_queue q2, bool wait_first)
{
    cl_int err;
    static int data[N];
    for (int i = 0; i < N; i++)
        data[i] = i;
    cl_mem buffer = harness_buffer(h, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof data, data);
    cl_semaphore_properties_khr props[] = {CL_SEMAPHORE_TYPE_KHR, CL_SEMAPHORE_TYPE_BINARY_KHR, 0};
    cl_semaphore_khr semaphore = create_semaphore(h->context, props, &err);
    CHECK_OK(err);
    cl_event gate = clCreateUserEvent(h->context, &err), second = NULL, waited = NULL;
    size_t global = N;
    int ten = 10, times = 3;
    CHECK_OK(clSetKernelArg(add, 0, sizeof buffer, &buffer));
    CHECK_OK(clSetKernelArg(add, 1, sizeof ten, &ten));
    if (wait_first)
        CHECK_OK(wait_semaphores(q2, 1, &semaphore, NULL, 0, NULL, &waited));
    CHECK_OK(clEnqueueNDRangeKernel(h->queue, add, 1, NULL, &global, NULL, 1, &gate, NULL));
    CHECK_OK(signal_semaphores(h->queue, 1, &semaphore, NULL, 0, NULL, NULL));
    if (!wait_first)
        CHECK_OK(wait_semaphores(q2, 1, &semaphore, NULL, 0, NULL, &waited));
    CHECK_OK(clEnqueueBarrierWithWaitList(q2, 0, NULL, NULL));
    CHECK_OK(clSetKernelArg(add, 1, sizeof times, &times));
    CHECK_OK(clEnqueueNDRangeKernel(q2, add, 1, NULL, &global, NULL, 0, NULL, &second));
    CHECK_OK(clFlush(q2));
    sleep_ms(50);
    /* nothing after the wait has run while the first kernel is held back */
    CHECK(status_of(waited) > CL_COMPLETE && status_of(second) > CL_COMPLETE);
    CHECK_EQ(payload_of(semaphore), 0);
    CHECK_OK(clSetUserEventStatus(gate, CL_COMPLETE));
    CHECK_OK(clFinish(q2));
    CHECK_OK(clFinish(h->queue));
    CHECK_OK(clEnqueueReadBuffer(h->queue, buffer, CL_TRUE, 0, sizeof data, data, 0, NULL, NULL));
    int bad = 0;
    for (int i = 0; i < N; i++)
        bad += data[i] != i + 10 + 3; /* (+10 then +3: +13; the other order is the same sum) */
    CHECK_NONE_WRONG(bad, wait_first ? "a wait before its signal" : "a wait after its signal");
    CHECK_EQ(status_of(waited), CL_COMPLETE);
    cl_command_type type = 0;
    CHECK_OK(clGetEventInfo(waited, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL));
    CHECK_EQ(type, CL_COMMAND_SEMAPHORE_WAIT_KHR);
    clReleaseEvent(gate), clReleaseEvent(second), clReleaseEvent(waited);
    release_semaphore(semaphore);
    clReleaseMemObject(buffer);
}

/* Signal and wait 100 times on one in-order queue, around kernels. */
static void test_reuse(struct harness *h, cl_kernel add)
{
    cl_int err;
    cl_semaphore_properties_khr props[] = {CL_SEMAPHORE_TYPE_KHR, CL_SEMAPHORE_TYPE_BINARY_KHR, 0};
    cl_semaphore_khr semaphore = create_semaphore(h->context, props, &err);
    CHECK_OK(err);
    int zero[N] = {0}, out[N], one = 1;
    cl_mem buffer = harness_buffer(h, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof zero, zero);
    CHECK_OK(clSetKernelArg(add, 0, sizeof buffer, &buffer));
    CHECK_OK(clSetKernelArg(add, 1, sizeof one, &one));
    size_t global = N;
    for (int round = 0; round < 100; round++) {
        CHECK_OK(clEnqueueNDRangeKernel(h->queue, add, 1, NULL, &global, NULL, 0, NULL, NULL));
        CHECK_OK(signal_semaphores(h->queue, 1, &semaphore, NULL, 0, NULL, NULL));
        CHECK_OK(wait_semaphores(h->queue, 1, &semaphore, NULL, 0, NULL, NULL));
    }
    CHECK_OK(signal_semaphores(h->queue, 1, &semaphore, NULL, 0, NULL, NULL));
    CHECK_OK(clFinish(h->queue));
    CHECK_EQ(payload_of(semaphore), 1); /* signaled, not yet waited on */
    CHECK_OK(wait_semaphores(h->queue, 1, &semaphore, NULL, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(h->queue, buffer, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
    CHECK_EQ(payload_of(semaphore), 0);
    int bad = 0;
    for (int i = 0; i < N; i++)
        bad += out[i] != 100;
    CHECK_NONE_WRONG(bad, "100 rounds of signal and wait");
    release_semaphore(semaphore);
    clReleaseMemObject(buffer);
}

static void test_queries_and_errors(struct harness *h)
{
    cl_int err;
    cl_semaphore_properties_khr props[] = {CL_SEMAPHORE_TYPE_KHR,
                                           CL_SEMAPHORE_TYPE_BINARY_KHR,
                                           CL_SEMAPHORE_DEVICE_HANDLE_LIST_KHR,
                                           (cl_semaphore_properties_khr)h->device,
                                           CL_SEMAPHORE_DEVICE_HANDLE_LIST_END_KHR,
                                           0};
    cl_semaphore_khr semaphore = create_semaphore(h->context, props, &err);
    CHECK_OK(err);
    cl_semaphore_type_khr type = 0;
    CHECK_OK(semaphore_info(semaphore, CL_SEMAPHORE_TYPE_KHR, sizeof type, &type, NULL));
    CHECK_EQ(type, CL_SEMAPHORE_TYPE_BINARY_KHR);
    cl_context context = NULL;
    CHECK_OK(semaphore_info(semaphore, CL_SEMAPHORE_CONTEXT_KHR, sizeof context, &context, NULL));
    CHECK(context == h->context);
    cl_device_id device = NULL;
    size_t size = 0;
    CHECK_OK(semaphore_info(semaphore, CL_SEMAPHORE_DEVICE_HANDLE_LIST_KHR, sizeof device, &device,
                            &size));
    CHECK(device == h->device && size == sizeof device);
    cl_semaphore_properties_khr got[6] = {0};
    CHECK_OK(semaphore_info(semaphore, CL_SEMAPHORE_PROPERTIES_KHR, sizeof got, got, &size));
    CHECK(size == sizeof props && !memcmp(got, props, sizeof props));
    CHECK_OK(retain_semaphore(semaphore));
    cl_uint count = 0;
    CHECK_OK(
        semaphore_info(semaphore, CL_SEMAPHORE_REFERENCE_COUNT_KHR, sizeof count, &count, NULL));
    CHECK_EQ(count, 2);
    CHECK_OK(release_semaphore(semaphore));
    CHECK_ERR(semaphore_info(semaphore, 0x1234, sizeof count, &count, NULL), CL_INVALID_VALUE);
    CHECK_ERR(semaphore_info(NULL, CL_SEMAPHORE_TYPE_KHR, sizeof type, &type, NULL),
              CL_INVALID_SEMAPHORE_KHR);

    /* creation */
    CHECK(!create_semaphore(h->context, NULL, &err));
    CHECK_EQ(err, CL_INVALID_VALUE);
    cl_semaphore_properties_khr no_type[] = {CL_SEMAPHORE_DEVICE_HANDLE_LIST_KHR,
                                             (cl_semaphore_properties_khr)h->device,
                                             CL_SEMAPHORE_DEVICE_HANDLE_LIST_END_KHR, 0};
    CHECK(!create_semaphore(h->context, no_type, &err));
    CHECK_EQ(err, CL_INVALID_VALUE);
    cl_semaphore_properties_khr bad_type[] = {CL_SEMAPHORE_TYPE_KHR, 7, 0};
    CHECK(!create_semaphore(h->context, bad_type, &err));
    CHECK_EQ(err, CL_INVALID_PROPERTY);
    cl_semaphore_properties_khr two[] = {CL_SEMAPHORE_TYPE_KHR,
                                         CL_SEMAPHORE_TYPE_BINARY_KHR,
                                         CL_SEMAPHORE_DEVICE_HANDLE_LIST_KHR,
                                         (cl_semaphore_properties_khr)h->device,
                                         (cl_semaphore_properties_khr)h->device,
                                         CL_SEMAPHORE_DEVICE_HANDLE_LIST_END_KHR,
                                         0};
    CHECK(!create_semaphore(h->context, two, &err));
    CHECK_EQ(err, CL_INVALID_DEVICE);
    CHECK(!create_semaphore(NULL, props, &err));
    CHECK_EQ(err, CL_INVALID_CONTEXT);

    /* commands */
    CHECK_ERR(signal_semaphores(h->queue, 0, &semaphore, NULL, 0, NULL, NULL), CL_INVALID_VALUE);
    cl_semaphore_khr none = NULL;
    CHECK_ERR(wait_semaphores(h->queue, 1, &none, NULL, 0, NULL, NULL), CL_INVALID_SEMAPHORE_KHR);
    CHECK_ERR(signal_semaphores(NULL, 1, &semaphore, NULL, 0, NULL, NULL),
              CL_INVALID_COMMAND_QUEUE);
    cl_context other = clCreateContext(NULL, 1, &h->device, NULL, NULL, &err);
    cl_command_queue other_queue = clCreateCommandQueueWithProperties(other, h->device, NULL, &err);
    CHECK_ERR(signal_semaphores(other_queue, 1, &semaphore, NULL, 0, NULL, NULL),
              CL_INVALID_CONTEXT);
    cl_event failed = clCreateUserEvent(h->context, &err);
    CHECK_OK(clSetUserEventStatus(failed, -1));
    CHECK_ERR(signal_semaphores(h->queue, 1, &semaphore, NULL, 1, &failed, NULL),
              CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    CHECK_ERR(signal_semaphores(h->queue, 1, &semaphore, NULL, 1, NULL, NULL),
              CL_INVALID_EVENT_WAIT_LIST);
    clReleaseEvent(failed);
    clReleaseCommandQueue(other_queue);
    clReleaseContext(other);
    CHECK_OK(release_semaphore(semaphore));
    CHECK_ERR(release_semaphore(NULL), CL_INVALID_SEMAPHORE_KHR);
    CHECK_ERR(retain_semaphore(NULL), CL_INVALID_SEMAPHORE_KHR);

    cl_semaphore_type_khr types[4];
    CHECK_OK(clGetDeviceInfo(h->device, CL_DEVICE_SEMAPHORE_TYPES_KHR, sizeof types, types, &size));
    CHECK(size == sizeof types[0] && types[0] == CL_SEMAPHORE_TYPE_BINARY_KHR);
    CHECK_OK(clGetPlatformInfo(h->platform, CL_PLATFORM_SEMAPHORE_TYPES_KHR, sizeof types, types,
                               &size));
    CHECK(size == sizeof types[0] && types[0] == CL_SEMAPHORE_TYPE_BINARY_KHR);
}

int main(void)
{
    struct harness h = harness_open();
    CHECK(harness_has_extension(&h, "cl_khr_semaphore"));
#define FIND(variable, name)                                                                       \
    variable = (name##_fn)clGetExtensionFunctionAddressForPlatform(h.platform, #name);             \
    REQUIRE(variable != NULL)
    FIND(create_semaphore, clCreateSemaphoreWithPropertiesKHR);
    FIND(wait_semaphores, clEnqueueWaitSemaphoresKHR);
    FIND(signal_semaphores, clEnqueueSignalSemaphoresKHR);
    FIND(semaphore_info, clGetSemaphoreInfoKHR);
    FIND(retain_semaphore, clRetainSemaphoreKHR);
    FIND(release_semaphore, clReleaseSemaphoreKHR);
    cl_program program = harness_build(&h, source, NULL);
    REQUIRE(program);
    cl_int err;
    cl_kernel add = clCreateKernel(program, "add", &err);
    CHECK_OK(err);
    cl_queue_properties ooo[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, 0};
    cl_command_queue q2 = clCreateCommandQueueWithProperties(h.context, h.device, ooo, &err);
    CHECK_OK(err);
    test_ordering(&h, add, q2, false);
    test_ordering(&h, add, q2, true);
    test_reuse(&h, add);
    test_queries_and_errors(&h);
    clReleaseCommandQueue(q2);
    clReleaseKernel(add);
    clReleaseProgram(program);
    harness_close(&h);
    return harness_finish();
}
