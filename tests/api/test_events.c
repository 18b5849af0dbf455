/* test_events.c - the command graph (API spec 5.11-5.14): user events
 * gating commands (also released from another thread), a negative user
 * event status failing its dependents with
 * CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST through chains of explicit
 * waits, callbacks for CL_SUBMITTED/CL_RUNNING/CL_COMPLETE each called
 * exactly once (also on failure, and at once on a finished event),
 * clWaitForEvents over queues, markers and barriers (with and without wait
 * lists, and the 1.1 forms) on in-order and out-of-order queues, ordering
 * kernels on an out-of-order queue through events only, and profiling
 * timestamps in order. */
#include <pthread.h>
#include <sched.h>
#include <unistd.h>
#include "../harness.h"

static const char *source =
    /* Each step depends on the one before: x = x * 3 + step. */
    "kernel void step(global uint *data, uint step) { size_t i = get_global_id(0);\n"
    "    data[i] = data[i] * 3u + step; }\n"
    "kernel void add(global const uint *a, global const uint *b, global uint *c)\n"
    "{ size_t i = get_global_id(0); c[i] = a[i] + b[i]; }\n";

static cl_program program;

/* Callback bookkeeping: calls[e][t] counts calls of event e's callback for
 * type t (0 complete, 1 running, 2 submitted); statuses records the status
 * each call passed; seen_status the event's own status inside the call. */
enum { EVENTS = 8 };
static int calls[EVENTS][3], passed[EVENTS][3], seen[EVENTS][3];

struct slot {
    int event, type;
};
static struct slot slots[EVENTS][3];

static void CL_CALLBACK record(cl_event event, cl_int status, void *data)
{
    struct slot *s = data;
    __atomic_fetch_add(&calls[s->event][s->type], 1, __ATOMIC_SEQ_CST);
    passed[s->event][s->type] = status;
    cl_int own = 99;
    clGetEventInfo(event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof own, &own, NULL);
    seen[s->event][s->type] = own;
}

static void watch(cl_event event, int index)
{
    static const cl_int types[3] = {CL_COMPLETE, CL_RUNNING, CL_SUBMITTED};
    for (int t = 0; t < 3; t++) {
        slots[index][t] = (struct slot){index, t};
        CHECK_OK(clSetEventCallback(event, types[t], record, &slots[index][t]));
    }
}

static cl_int status_of(cl_event event)
{
    cl_int status = 99;
    CHECK_OK(
        clGetEventInfo(event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL));
    return status;
}

/* Callbacks may run on another thread just after the status is set: wait
 * for the count to settle (a bound, not a timing). */
static int settled_calls(int e, int t, int want)
{
    for (int i = 0; i < 2000 && __atomic_load_n(&calls[e][t], __ATOMIC_SEQ_CST) < want; i++)
        usleep(1000);
    return __atomic_load_n(&calls[e][t], __ATOMIC_SEQ_CST);
}

static void test_user_event_gates(struct harness *h)
{
    cl_int err;
    cl_event gate = clCreateUserEvent(h->context, &err);
    CHECK_OK(err);
    CHECK_EQ(status_of(gate), CL_SUBMITTED);
    cl_command_queue owner = (cl_command_queue)1;
    CHECK_OK(clGetEventInfo(gate, CL_EVENT_COMMAND_QUEUE, sizeof owner, &owner, NULL));
    CHECK(owner == NULL);
    cl_command_type type = 0;
    CHECK_OK(clGetEventInfo(gate, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL));
    CHECK_EQ(type, CL_COMMAND_USER);
    cl_context context = NULL;
    CHECK_OK(clGetEventInfo(gate, CL_EVENT_CONTEXT, sizeof context, &context, NULL));
    CHECK(context == h->context);

    cl_uint value[64], out[64];
    for (int i = 0; i < 64; i++)
        value[i] = i, out[i] = 0;
    cl_mem m = harness_buffer(h, CL_MEM_READ_WRITE, sizeof value, NULL);
    cl_kernel k = harness_kernel(program, "step");
    cl_uint step = 5;
    CHECK_OK(harness_args(k, 2, ARG(m), ARG(step)));
    cl_event write, kernel, read;
    CHECK_OK(clEnqueueWriteBuffer(h->queue, m, CL_FALSE, 0, sizeof value, value, 1, &gate, &write));
    size_t global = 64;
    CHECK_OK(clEnqueueNDRangeKernel(h->queue, k, 1, NULL, &global, NULL, 0, NULL, &kernel));
    CHECK_OK(clEnqueueReadBuffer(h->queue, m, CL_FALSE, 0, sizeof out, out, 0, NULL, &read));
    watch(write, 0), watch(kernel, 1), watch(read, 2), watch(gate, 3);
    CHECK_EQ(status_of(write), CL_QUEUED);
    CHECK_EQ(status_of(kernel), CL_QUEUED);
    CHECK(calls[0][0] + calls[1][0] + calls[2][0] == 0);
    CHECK(out[63] == 0);
    CHECK_ERR(clSetUserEventStatus(gate, CL_RUNNING), CL_INVALID_VALUE);
    CHECK_OK(clSetUserEventStatus(gate, CL_COMPLETE));
    CHECK_ERR(clSetUserEventStatus(gate, CL_COMPLETE), CL_INVALID_OPERATION);
    CHECK_OK(clWaitForEvents(1, &read));
    long bad = 0;
    for (int i = 0; i < 64; i++)
        bad += out[i] != (cl_uint)i * 3u + 5u;
    CHECK_NONE_WRONG(bad, "commands behind a user event");
    CHECK_OK(clFinish(h->queue));
    /* Each command's three callbacks, exactly once, with their own status;
     * the user event's COMPLETE one too (5.11: a user event is never
     * running, but a status past a callback's type calls it). */
    for (int e = 0; e < 4; e++)
        for (int t = 0; t < 3; t++) {
            CHECK_EQ(settled_calls(e, t, 1), 1);
            CHECK_EQ(passed[e][t], t == 0 ? CL_COMPLETE : t == 1 ? CL_RUNNING : CL_SUBMITTED);
        }
    /* In a COMPLETE callback the event already says CL_COMPLETE. */
    CHECK_EQ(seen[2][0], CL_COMPLETE);
    /* A callback on a finished event runs at once. */
    CHECK_OK(clSetEventCallback(read, CL_COMPLETE, record, &slots[2][0]));
    CHECK_EQ(settled_calls(2, 0, 2), 2);
    CHECK_ERR(clSetEventCallback(read, 42, record, &slots[2][0]), CL_INVALID_VALUE);
    CHECK_ERR(clSetEventCallback(read, CL_COMPLETE, NULL, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clSetUserEventStatus(write, CL_COMPLETE), CL_INVALID_EVENT);
    CHECK_OK(clGetEventInfo(write, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL));
    CHECK_EQ(type, CL_COMMAND_WRITE_BUFFER);
    CHECK_OK(clGetEventInfo(kernel, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL));
    CHECK_EQ(type, CL_COMMAND_NDRANGE_KERNEL);
    CHECK_OK(clGetEventInfo(kernel, CL_EVENT_COMMAND_QUEUE, sizeof owner, &owner, NULL));
    CHECK(owner == h->queue);
    cl_uint refs = 0;
    CHECK_OK(clRetainEvent(kernel));
    CHECK_OK(clGetEventInfo(kernel, CL_EVENT_REFERENCE_COUNT, sizeof refs, &refs, NULL));
    CHECK_EQ(refs, 2);
    CHECK_OK(clReleaseEvent(kernel));
    clReleaseEvent(gate), clReleaseEvent(write), clReleaseEvent(kernel), clReleaseEvent(read);
    clReleaseKernel(k);
    clReleaseMemObject(m);
}

/* 5.11: commands waiting on an event with a negative status are not run;
 * their events get a negative status; the failure passes along explicit
 * waits; every callback is called once, with the error. */
static void test_failed_dependency(struct harness *h)
{
    memset(calls, 0, sizeof calls);
    cl_int err;
    cl_event gate = clCreateUserEvent(h->context, &err);
    cl_uint original[16], value[16], out[16];
    for (int i = 0; i < 16; i++)
        original[i] = 1000 + i, value[i] = 7;
    cl_mem m = harness_buffer(h, CL_MEM_READ_WRITE, sizeof original, original);
    cl_kernel k = harness_kernel(program, "step");
    cl_uint step = 1;
    CHECK_OK(harness_args(k, 2, ARG(m), ARG(step)));
    cl_event write, kernel;
    CHECK_OK(clEnqueueWriteBuffer(h->queue, m, CL_FALSE, 0, sizeof value, value, 1, &gate, &write));
    size_t global = 16;
    CHECK_OK(clEnqueueNDRangeKernel(h->queue, k, 1, NULL, &global, NULL, 1, &write, &kernel));
    watch(write, 0), watch(kernel, 1);
    CHECK_OK(clSetUserEventStatus(gate, -1234));
    CHECK_EQ(status_of(gate), -1234);
    CHECK_ERR(clWaitForEvents(1, &write), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    CHECK_ERR(clWaitForEvents(1, &kernel), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    cl_event pair[2] = {kernel, gate};
    CHECK_ERR(clWaitForEvents(2, pair), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    CHECK(status_of(write) < 0);
    CHECK(status_of(kernel) < 0);
    for (int e = 0; e < 2; e++)
        for (int t = 0; t < 3; t++) {
            CHECK_EQ(settled_calls(e, t, 1), 1);
            CHECK(passed[e][t] < 0);
        }
    /* Neither the write nor the kernel touched the buffer. */
    CHECK_OK(clFinish(h->queue));
    CHECK_OK(clEnqueueReadBuffer(h->queue, m, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
    CHECK(memcmp(out, original, sizeof out) == 0);
    /* A blocking command waiting on a failed event reports it. */
    CHECK_ERR(clEnqueueReadBuffer(h->queue, m, CL_TRUE, 0, 4, out, 1, &gate, NULL),
              CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    /* A command enqueued after the failure, waiting on it, fails at once. */
    cl_event late;
    CHECK_OK(clEnqueueMarkerWithWaitList(h->queue, 1, &kernel, &late));
    CHECK_ERR(clWaitForEvents(1, &late), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    /* The queue goes on: later independent commands run. */
    CHECK_OK(clEnqueueNDRangeKernel(h->queue, k, 1, NULL, &global, NULL, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(h->queue, m, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
    CHECK(out[0] == 1000 * 3 + 1 && out[15] == 1015 * 3 + 1);
    clReleaseEvent(gate), clReleaseEvent(write), clReleaseEvent(kernel), clReleaseEvent(late);
    clReleaseKernel(k);
    clReleaseMemObject(m);
}

/* On an out-of-order queue, only events order commands: a chain of
 * dependent kernels, then a diamond. */
static void test_out_of_order_chain(struct harness *h, cl_command_queue q)
{
    enum { N = 4096, STEPS = 24 };
    cl_uint *host = malloc(N * 4), *want = malloc(N * 4), *out = malloc(N * 4);
    for (int i = 0; i < N; i++)
        host[i] = want[i] = (cl_uint)i * 2654435761u;
    for (int s = 0; s < STEPS; s++)
        for (int i = 0; i < N; i++)
            want[i] = want[i] * 3u + (cl_uint)s;
    cl_mem a = harness_buffer(h, CL_MEM_READ_WRITE, N * 4, host);
    cl_mem b = harness_buffer(h, CL_MEM_READ_WRITE, N * 4, host);
    cl_mem c = harness_buffer(h, CL_MEM_READ_WRITE, N * 4, NULL);
    cl_kernel ks[STEPS];
    cl_event previous = NULL, last_b = NULL;
    size_t global = N;
    for (int s = 0; s < STEPS; s++) {
        ks[s] = harness_kernel(program, "step");
        cl_uint step = (cl_uint)s;
        CHECK_OK(harness_args(ks[s], 2, ARG(a), ARG(step)));
        cl_event next;
        CHECK_OK(clEnqueueNDRangeKernel(q, ks[s], 1, NULL, &global, NULL, previous ? 1 : 0,
                                        previous ? &previous : NULL, &next));
        if (previous)
            clReleaseEvent(previous);
        previous = next;
    }
    /* Buffer b gets the same steps through one kernel object whose value
     * argument changes between enqueues. */
    cl_kernel kb = harness_kernel(program, "step");
    CHECK_OK(clSetKernelArg(kb, 0, sizeof b, &b));
    for (int s = 0; s < STEPS; s++) {
        cl_uint step = (cl_uint)s;
        CHECK_OK(clSetKernelArg(kb, 1, sizeof step, &step));
        cl_event next;
        CHECK_OK(clEnqueueNDRangeKernel(q, kb, 1, NULL, &global, NULL, last_b ? 1 : 0,
                                        last_b ? &last_b : NULL, &next));
        if (last_b)
            clReleaseEvent(last_b);
        last_b = next;
    }
    /* The diamond's bottom: c = a + b once both chains are done. */
    cl_kernel add = harness_kernel(program, "add");
    CHECK_OK(harness_args(add, 3, ARG(a), ARG(b), ARG(c)));
    cl_event both[2] = {previous, last_b}, sum;
    CHECK_OK(clEnqueueNDRangeKernel(q, add, 1, NULL, &global, NULL, 2, both, &sum));
    CHECK_OK(clEnqueueReadBuffer(q, c, CL_TRUE, 0, N * 4, out, 1, &sum, NULL));
    long bad = 0;
    for (int i = 0; i < N; i++)
        bad += out[i] != want[i] * 2u;
    CHECK_NONE_WRONG(bad, "out-of-order chains joined by events");
    for (int s = 0; s < STEPS; s++)
        clReleaseKernel(ks[s]);
    clReleaseKernel(kb), clReleaseKernel(add);
    clReleaseEvent(previous), clReleaseEvent(last_b), clReleaseEvent(sum);
    clReleaseMemObject(a), clReleaseMemObject(b), clReleaseMemObject(c);
    free(host), free(want), free(out);
}

/* Barriers and markers on an out-of-order queue. */
static void test_out_of_order_sync(struct harness *h, cl_command_queue q)
{
    cl_int err;
    enum { N = 1 << 20 };
    int *a = malloc(N * 4), *b = malloc(N * 4);
    for (int i = 0; i < N; i++)
        a[i] = i ^ 0x5a5a;
    cl_mem m1 = harness_buffer(h, CL_MEM_READ_WRITE, N * 4, NULL);
    cl_mem m2 = harness_buffer(h, CL_MEM_READ_WRITE, N * 4, NULL);
    cl_event gate = clCreateUserEvent(h->context, &err), write, barrier, copy, marker;
    CHECK_OK(clEnqueueWriteBuffer(q, m1, CL_FALSE, 0, N * 4, a, 1, &gate, &write));
    CHECK_OK(clEnqueueBarrierWithWaitList(q, 0, NULL, &barrier));
    /* After the barrier: runs only once the gated write is done. */
    CHECK_OK(clEnqueueCopyBuffer(q, m1, m2, 0, 0, N * 4, 0, NULL, &copy));
    CHECK_OK(clEnqueueMarkerWithWaitList(q, 1, &copy, &marker));
    cl_command_type type = 0;
    CHECK_OK(clGetEventInfo(barrier, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL));
    CHECK_EQ(type, CL_COMMAND_BARRIER);
    CHECK_OK(clGetEventInfo(marker, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL));
    CHECK_EQ(type, CL_COMMAND_MARKER);
    CHECK_EQ(status_of(copy), CL_QUEUED);
    CHECK(status_of(barrier) > CL_COMPLETE);
    CHECK_OK(clSetUserEventStatus(gate, CL_COMPLETE));
    CHECK_OK(clWaitForEvents(1, &marker));
    CHECK_EQ(status_of(copy), CL_COMPLETE);
    CHECK_OK(clEnqueueReadBuffer(q, m2, CL_TRUE, 0, N * 4, b, 0, NULL, NULL));
    CHECK(memcmp(a, b, N * 4) == 0);
    clReleaseEvent(write), clReleaseEvent(barrier), clReleaseEvent(copy), clReleaseEvent(marker);
    clReleaseEvent(gate);

    /* A marker without a wait list waits for everything before it. */
    gate = clCreateUserEvent(h->context, &err);
    cl_event first, second;
    int one = 1, two = 2;
    CHECK_OK(clEnqueueWriteBuffer(q, m1, CL_FALSE, 0, 4, &one, 1, &gate, &first));
    CHECK_OK(clEnqueueWriteBuffer(q, m2, CL_FALSE, 0, 4, &two, 0, NULL, &second));
    CHECK_OK(clEnqueueMarkerWithWaitList(q, 0, NULL, &marker));
    CHECK_OK(clWaitForEvents(1, &second));
    CHECK(status_of(marker) > CL_COMPLETE);
    CHECK_OK(clSetUserEventStatus(gate, CL_COMPLETE));
    CHECK_OK(clWaitForEvents(1, &marker));
    CHECK_EQ(status_of(first), CL_COMPLETE);
    clReleaseEvent(first), clReleaseEvent(second), clReleaseEvent(marker), clReleaseEvent(gate);

    /* The 1.1 forms: clEnqueueMarker, clEnqueueWaitForEvents,
     * clEnqueueBarrier. */
    gate = clCreateUserEvent(h->context, &err);
    CHECK_OK(clEnqueueWaitForEvents(q, 1, &gate));
    cl_event after;
    CHECK_OK(clEnqueueWriteBuffer(q, m1, CL_FALSE, 0, 4, &two, 0, NULL, &after));
    CHECK_OK(clEnqueueBarrier(q));
    CHECK_OK(clEnqueueMarker(q, &marker));
    CHECK_ERR(clEnqueueMarker(q, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clEnqueueWaitForEvents(q, 0, NULL), CL_INVALID_VALUE);
    CHECK(status_of(after) > CL_COMPLETE);
    CHECK_OK(clSetUserEventStatus(gate, CL_COMPLETE));
    CHECK_OK(clWaitForEvents(1, &marker));
    CHECK_EQ(status_of(after), CL_COMPLETE);
    clReleaseEvent(after), clReleaseEvent(marker), clReleaseEvent(gate);
    CHECK_OK(clFinish(q));
    clReleaseMemObject(m1), clReleaseMemObject(m2);
    free(a), free(b);
}

/* An out-of-order queue need not wait for an unrelated earlier command:
 * cpucl runs independent commands as soon as they are ready (README). */
static void test_out_of_order_independence(struct harness *h, cl_command_queue q)
{
    cl_int err;
    cl_event gate = clCreateUserEvent(h->context, &err), held, free_event;
    cl_mem m = harness_buffer(h, CL_MEM_READ_WRITE, 64, NULL);
    int value = 3;
    CHECK_OK(clEnqueueWriteBuffer(q, m, CL_FALSE, 0, 4, &value, 1, &gate, &held));
    CHECK_OK(clEnqueueWriteBuffer(q, m, CL_FALSE, 32, 4, &value, 0, NULL, &free_event));
    int done = 0;
    for (int i = 0; i < 10000 && !done; i++) {
        cl_int status = 99;
        clGetEventInfo(free_event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL);
        done = status == CL_COMPLETE;
        if (!done)
            usleep(1000);
    }
    CHECK(done);
    CHECK(status_of(held) > CL_COMPLETE);
    CHECK_OK(clSetUserEventStatus(gate, CL_COMPLETE));
    CHECK_OK(clFinish(q));
    CHECK_EQ(status_of(held), CL_COMPLETE);
    clReleaseEvent(gate), clReleaseEvent(held), clReleaseEvent(free_event);
    clReleaseMemObject(m);
}

/* Callbacks registered while their commands may be completing, on an
 * out-of-order queue: each called once. The application's reference is
 * dropped inside the callback, a common pattern (5.11 allows it). */
static int released_in_callback;
static void CL_CALLBACK release_in_callback(cl_event event, cl_int status, void *data)
{
    if (status == CL_COMPLETE)
        __atomic_fetch_add(&released_in_callback, 1, __ATOMIC_SEQ_CST);
    clReleaseEvent(event);
}

static void test_callback_races(struct harness *h, cl_command_queue q)
{
    enum { COMMANDS = 300 };
    cl_int err;
    static cl_uint zeros[COMMANDS];
    cl_mem m = harness_buffer(h, CL_MEM_READ_WRITE, sizeof zeros, zeros);
    cl_kernel k = harness_kernel(program, "step");
    cl_uint step = 1;
    CHECK_OK(harness_args(k, 2, ARG(m), ARG(step)));
    for (int i = 0; i < COMMANDS; i++) {
        cl_event e;
        size_t offset = (size_t)i, one = 1;
        CHECK_OK(clEnqueueNDRangeKernel(q, k, 1, &offset, &one, NULL, 0, NULL, &e));
        CHECK_OK(clSetEventCallback(e, CL_COMPLETE, release_in_callback, NULL));
    }
    /* User events completed from here, released in their callbacks. */
    for (int i = 0; i < COMMANDS; i++) {
        cl_event u = clCreateUserEvent(h->context, &err);
        CHECK_OK(clSetEventCallback(u, CL_COMPLETE, release_in_callback, NULL));
        CHECK_OK(clSetUserEventStatus(u, CL_COMPLETE));
    }
    CHECK_OK(clFinish(q));
    for (int i = 0;
         i < 5000 && __atomic_load_n(&released_in_callback, __ATOMIC_SEQ_CST) < 2 * COMMANDS; i++)
        usleep(1000);
    CHECK_EQ(released_in_callback, 2 * COMMANDS);
    cl_uint out[COMMANDS];
    CHECK_OK(clEnqueueReadBuffer(h->queue, m, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
    long bad = 0;
    for (int i = 0; i < COMMANDS; i++)
        bad += out[i] != 1;
    CHECK_NONE_WRONG(bad, "one-item kernels at offsets");
    clReleaseKernel(k);
    clReleaseMemObject(m);
}

static void profile(cl_event event, cl_ulong times[5])
{
    const cl_profiling_info names[5] = {CL_PROFILING_COMMAND_QUEUED, CL_PROFILING_COMMAND_SUBMIT,
                                        CL_PROFILING_COMMAND_START, CL_PROFILING_COMMAND_END,
                                        CL_PROFILING_COMMAND_COMPLETE};
    for (int i = 0; i < 5; i++) {
        times[i] = 0;
        CHECK_OK(clGetEventProfilingInfo(event, names[i], sizeof times[i], &times[i], NULL));
    }
}

static void test_profiling(struct harness *h)
{
    cl_int err;
    cl_queue_properties props[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
    cl_command_queue q = clCreateCommandQueueWithProperties(h->context, h->device, props, &err);
    CHECK_OK(err);
    enum { N = 1 << 16, COMMANDS = 6 };
    cl_mem m = harness_buffer(h, CL_MEM_READ_WRITE, N * 4, NULL);
    cl_kernel k = harness_kernel(program, "step");
    cl_uint step = 1;
    CHECK_OK(harness_args(k, 2, ARG(m), ARG(step)));
    cl_ulong device_before = 0, host_before = 0, device_after = 0, host_after = 0;
    CHECK_OK(clGetDeviceAndHostTimer(h->device, &device_before, &host_before));
    cl_event gate = clCreateUserEvent(h->context, &err);
    cl_event events[COMMANDS];
    size_t global = N;
    CHECK_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, NULL, 1, &gate, &events[0]));
    cl_ulong t[5];
    /* 5.14: no times before the command is complete. */
    CHECK_ERR(clGetEventProfilingInfo(events[0], CL_PROFILING_COMMAND_END, sizeof t[0], t, NULL),
              CL_PROFILING_INFO_NOT_AVAILABLE);
    int zero = 0;
    CHECK_OK(clEnqueueFillBuffer(q, m, &zero, 4, 0, N * 4, 0, NULL, &events[1]));
    CHECK_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, NULL, 0, NULL, &events[2]));
    CHECK_OK(clEnqueueMarkerWithWaitList(q, 0, NULL, &events[3]));
    static cl_uint host[N];
    CHECK_OK(clEnqueueReadBuffer(q, m, CL_FALSE, 0, N * 4, host, 0, NULL, &events[4]));
    CHECK_OK(clEnqueueCopyBuffer(q, m, m, 0, N * 2, N * 2, 0, NULL, &events[5]));
    CHECK_OK(clSetUserEventStatus(gate, CL_COMPLETE));
    CHECK_OK(clWaitForEvents(COMMANDS, events));
    CHECK_OK(clGetDeviceAndHostTimer(h->device, &device_after, &host_after));
    cl_ulong previous_end = 0;
    for (int i = 0; i < COMMANDS; i++) {
        profile(events[i], t);
        int ordered = t[0] <= t[1] && t[1] <= t[2] && t[2] <= t[3] && t[3] <= t[4];
        /* In order: a command starts after the one before it ended; all of
         * it between the two readings of the device timer. */
        int in_order = t[2] >= previous_end;
        int within = t[0] >= device_before && t[4] <= device_after;
        if (!ordered || !in_order || !within)
            fprintf(stderr, "command %d: %llu %llu %llu %llu %llu (previous end %llu)\n", i,
                    (unsigned long long)t[0], (unsigned long long)t[1], (unsigned long long)t[2],
                    (unsigned long long)t[3], (unsigned long long)t[4],
                    (unsigned long long)previous_end);
        CHECK(ordered);
        CHECK(in_order);
        CHECK(within);
        previous_end = t[3];
    }
    CHECK(host[0] == 1 && host[N - 1] == 1);
    CHECK_ERR(clGetEventProfilingInfo(gate, CL_PROFILING_COMMAND_END, sizeof t[0], t, NULL),
              CL_PROFILING_INFO_NOT_AVAILABLE);
    CHECK_ERR(clGetEventProfilingInfo(events[0], 0x7777, sizeof t[0], t, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clGetEventProfilingInfo(events[0], CL_PROFILING_COMMAND_END, 4, t, NULL),
              CL_INVALID_VALUE);
    for (int i = 0; i < COMMANDS; i++)
        clReleaseEvent(events[i]);
    clReleaseEvent(gate);
    clReleaseKernel(k);
    clReleaseMemObject(m);
    clReleaseCommandQueue(q);

    /* A queue without profiling has no times. */
    cl_event e;
    CHECK_OK(clEnqueueMarkerWithWaitList(h->queue, 0, NULL, &e));
    CHECK_OK(clWaitForEvents(1, &e));
    CHECK_ERR(clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_END, sizeof t[0], t, NULL),
              CL_PROFILING_INFO_NOT_AVAILABLE);
    clReleaseEvent(e);
}

/* clWaitForEvents over events of two queues; commands gated by a user
 * event that another thread completes, while this one blocks. */
static void *release_later(void *arg)
{
    sched_yield();
    usleep(20000);
    clSetUserEventStatus(*(cl_event *)arg, CL_COMPLETE);
    return NULL;
}

static void test_cross_queue_wait(struct harness *h)
{
    cl_int err;
    cl_command_queue other = clCreateCommandQueueWithProperties(h->context, h->device, NULL, &err);
    CHECK_OK(err);
    cl_event gate = clCreateUserEvent(h->context, &err);
    cl_mem m = harness_buffer(h, CL_MEM_READ_WRITE, 4 * 1000, NULL);
    int values[1000];
    cl_event last[2];
    for (int i = 0; i < 1000; i++) {
        values[i] = i * 3;
        cl_command_queue q = i % 2 ? other : h->queue;
        CHECK_OK(clEnqueueWriteBuffer(q, m, CL_FALSE, i * 4, 4, &values[i], i < 2 ? 1 : 0,
                                      i < 2 ? &gate : NULL, i >= 998 ? &last[i - 998] : NULL));
    }
    pthread_t thread;
    pthread_create(&thread, NULL, release_later, &gate);
    CHECK_OK(clWaitForEvents(2, last));
    pthread_join(thread, NULL);
    int out[1000];
    /* The blocking read on the first queue waits on the second's last
     * write explicitly. */
    CHECK_OK(clEnqueueReadBuffer(h->queue, m, CL_TRUE, 0, sizeof out, out, 1, &last[1], NULL));
    CHECK(memcmp(values, out, sizeof out) == 0);

    /* A blocking read whose wait list is completed from another thread. */
    cl_event gate2 = clCreateUserEvent(h->context, &err);
    pthread_create(&thread, NULL, release_later, &gate2);
    CHECK_OK(clEnqueueReadBuffer(other, m, CL_TRUE, 0, sizeof out, out, 1, &gate2, NULL));
    CHECK_EQ(status_of(gate2), CL_COMPLETE);
    pthread_join(thread, NULL);
    clReleaseEvent(gate), clReleaseEvent(gate2), clReleaseEvent(last[0]), clReleaseEvent(last[1]);
    clReleaseMemObject(m);
    clReleaseCommandQueue(other);

    /* Errors. */
    CHECK_ERR(clWaitForEvents(0, NULL), CL_INVALID_VALUE);
    cl_event none = NULL;
    CHECK_ERR(clWaitForEvents(1, &none), CL_INVALID_EVENT);
    CHECK_FAILS(clCreateUserEvent(NULL, &err), err, CL_INVALID_CONTEXT);
}

int main(void)
{
    struct harness h = harness_open();
    program = harness_build(&h, source, "");
    REQUIRE(program);
    test_user_event_gates(&h);
    test_failed_dependency(&h);
    cl_int err;
    cl_queue_properties props[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, 0};
    cl_command_queue ooo = clCreateCommandQueueWithProperties(h.context, h.device, props, &err);
    REQUIRE(err == CL_SUCCESS);
    test_out_of_order_chain(&h, ooo);
    test_out_of_order_sync(&h, ooo);
    test_out_of_order_independence(&h, ooo);
    test_callback_races(&h, ooo);
    clReleaseCommandQueue(ooo);
    test_profiling(&h);
    test_cross_queue_wait(&h);
    clReleaseProgram(program);
    harness_close(&h);
    return harness_finish();
}
