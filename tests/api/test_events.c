/* test_events.c - the command graph (API spec 5.11-5.14): user events
 * gating commands, failed dependencies, callbacks called exactly once,
 * markers and barriers on out-of-order queues, profiling times. */
#include <pthread.h>
#include "../harness.h"

static int callback_counts[4]; /* by status: complete, running, submitted */

static void CL_CALLBACK count_callback(cl_event event, cl_int status, void *data)
{
    __atomic_fetch_add(&callback_counts[*(int *)data], 1, __ATOMIC_SEQ_CST);
}

static void test_user_event_gates(struct harness *h)
{
    cl_int err;
    cl_event gate = clCreateUserEvent(h->context, &err);
    CHECK_OK(err);
    cl_int status;
    CHECK_OK(clGetEventInfo(gate, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL));
    CHECK(status == CL_SUBMITTED);
    int value = 7, out = 0;
    cl_mem m = harness_buffer(h, CL_MEM_READ_WRITE, sizeof value, NULL);
    cl_event write, read;
    CHECK_OK(clEnqueueWriteBuffer(h->queue, m, CL_FALSE, 0, sizeof value, &value, 1, &gate, &write));
    CHECK_OK(clEnqueueReadBuffer(h->queue, m, CL_FALSE, 0, sizeof out, &out, 0, NULL, &read));
    static int slots[3] = {CL_COMPLETE, CL_RUNNING, CL_SUBMITTED};
    for (int i = 0; i < 3; i++)
        CHECK_OK(clSetEventCallback(read, slots[i], count_callback, &slots[i]));
    CHECK_OK(clGetEventInfo(write, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL));
    CHECK(status == CL_QUEUED);
    CHECK(out == 0);
    CHECK_OK(clSetUserEventStatus(gate, CL_COMPLETE));
    CHECK_ERR(clSetUserEventStatus(gate, CL_COMPLETE), CL_INVALID_OPERATION);
    CHECK_OK(clWaitForEvents(1, &read));
    CHECK(out == 7);
    CHECK_OK(clFinish(h->queue));
    CHECK(callback_counts[CL_COMPLETE] == 1 && callback_counts[CL_RUNNING] == 1 &&
          callback_counts[CL_SUBMITTED] == 1);
    /* A callback on a finished event runs at once. */
    CHECK_OK(clSetEventCallback(read, CL_COMPLETE, count_callback, &slots[0]));
    CHECK(callback_counts[CL_COMPLETE] == 2);
    CHECK_ERR(clSetEventCallback(read, 42, count_callback, &slots[0]), CL_INVALID_VALUE);
    CHECK_ERR(clSetUserEventStatus(write, CL_COMPLETE), CL_INVALID_EVENT);
    cl_command_type type;
    CHECK_OK(clGetEventInfo(write, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL));
    CHECK(type == CL_COMMAND_WRITE_BUFFER);
    clReleaseEvent(gate), clReleaseEvent(write), clReleaseEvent(read);
    clReleaseMemObject(m);
}

static void test_failed_dependency(struct harness *h)
{
    cl_int err;
    cl_event gate = clCreateUserEvent(h->context, &err);
    int value = 1;
    cl_mem m = harness_buffer(h, CL_MEM_READ_WRITE, sizeof value, NULL);
    cl_event write;
    CHECK_OK(clEnqueueWriteBuffer(h->queue, m, CL_FALSE, 0, sizeof value, &value, 1, &gate, &write));
    CHECK_OK(clSetUserEventStatus(gate, -1234));
    CHECK_ERR(clWaitForEvents(1, &write), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    cl_int status;
    CHECK_OK(clGetEventInfo(write, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL));
    CHECK(status < 0);
    /* A blocking command waiting on a failed event reports it. */
    CHECK_ERR(clEnqueueReadBuffer(h->queue, m, CL_TRUE, 0, 4, &value, 1, &gate, NULL),
              CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    clFinish(h->queue);
    clReleaseEvent(gate), clReleaseEvent(write);
    clReleaseMemObject(m);
}

static void test_out_of_order(struct harness *h)
{
    cl_int err;
    cl_queue_properties props[] = {CL_QUEUE_PROPERTIES,
                                   CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE, 0};
    cl_command_queue q = clCreateCommandQueueWithProperties(h->context, h->device, props, &err);
    CHECK_OK(err);
    enum { N = 1 << 20 };
    int *a = malloc(N * 4), *b = malloc(N * 4);
    for (int i = 0; i < N; i++)
        a[i] = i ^ 0x5a5a;
    cl_mem m1 = harness_buffer(h, CL_MEM_READ_WRITE, N * 4, NULL);
    cl_mem m2 = harness_buffer(h, CL_MEM_READ_WRITE, N * 4, NULL);
    cl_event gate = clCreateUserEvent(h->context, &err), write, copy, marker;
    CHECK_OK(clEnqueueWriteBuffer(q, m1, CL_FALSE, 0, N * 4, a, 1, &gate, &write));
    CHECK_OK(clEnqueueBarrierWithWaitList(q, 0, NULL, NULL));
    /* After the barrier: runs only once the gated write is done. */
    CHECK_OK(clEnqueueCopyBuffer(q, m1, m2, 0, 0, N * 4, 0, NULL, &copy));
    CHECK_OK(clEnqueueMarkerWithWaitList(q, 1, &copy, &marker));
    cl_int status;
    CHECK_OK(clGetEventInfo(copy, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL));
    CHECK(status == CL_QUEUED);
    CHECK_OK(clSetUserEventStatus(gate, CL_COMPLETE));
    CHECK_OK(clWaitForEvents(1, &marker));
    CHECK_OK(clEnqueueReadBuffer(q, m2, CL_TRUE, 0, N * 4, b, 0, NULL, NULL));
    CHECK(memcmp(a, b, N * 4) == 0);
    cl_ulong t[4];
    cl_profiling_info names[4] = {CL_PROFILING_COMMAND_QUEUED, CL_PROFILING_COMMAND_SUBMIT,
                                  CL_PROFILING_COMMAND_START, CL_PROFILING_COMMAND_END};
    for (int i = 0; i < 4; i++)
        CHECK_OK(clGetEventProfilingInfo(copy, names[i], sizeof t[i], &t[i], NULL));
    CHECK(t[0] <= t[1] && t[1] <= t[2] && t[2] <= t[3] && t[0] > 0);
    CHECK_ERR(clGetEventProfilingInfo(gate, CL_PROFILING_COMMAND_END, sizeof t[0], t, NULL),
              CL_PROFILING_INFO_NOT_AVAILABLE);
    clReleaseEvent(gate), clReleaseEvent(write), clReleaseEvent(copy), clReleaseEvent(marker);
    clReleaseMemObject(m1), clReleaseMemObject(m2);
    clReleaseCommandQueue(q);
    free(a), free(b);
}

static void test_no_profiling(struct harness *h)
{
    cl_event e;
    CHECK_OK(clEnqueueMarkerWithWaitList(h->queue, 0, NULL, &e));
    CHECK_OK(clWaitForEvents(1, &e));
    cl_ulong t;
    CHECK_ERR(clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_END, sizeof t, &t, NULL),
              CL_PROFILING_INFO_NOT_AVAILABLE);
    cl_uint refs;
    CHECK_OK(clGetEventInfo(e, CL_EVENT_REFERENCE_COUNT, sizeof refs, &refs, NULL));
    CHECK(refs == 1);
    clReleaseEvent(e);
}

/* Many commands behind one user event, released from another thread. */
static void *release_gate(void *arg)
{
    clSetUserEventStatus(*(cl_event *)arg, CL_COMPLETE);
    return NULL;
}

static void test_chain(struct harness *h)
{
    cl_int err;
    cl_event gate = clCreateUserEvent(h->context, &err);
    cl_mem m = harness_buffer(h, CL_MEM_READ_WRITE, 4 * 1000, NULL);
    int values[1000];
    for (int i = 0; i < 1000; i++) {
        values[i] = i * 3;
        CHECK_OK(clEnqueueWriteBuffer(h->queue, m, CL_FALSE, i * 4, 4, &values[i], i ? 0 : 1,
                                      i ? NULL : &gate, NULL));
    }
    pthread_t thread;
    pthread_create(&thread, NULL, release_gate, &gate);
    pthread_join(thread, NULL);
    int out[1000];
    CHECK_OK(clEnqueueReadBuffer(h->queue, m, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
    CHECK(memcmp(values, out, sizeof out) == 0);
    clReleaseEvent(gate);
    clReleaseMemObject(m);
}

int main(void)
{
    struct harness h = harness_open();
    test_user_event_gates(&h);
    test_failed_dependency(&h);
    test_out_of_order(&h);
    test_no_profiling(&h);
    test_chain(&h);
    harness_close(&h);
    return harness_finish();
}
