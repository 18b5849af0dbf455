/* test_threads.c - many host threads at once (API spec appendix A.2: every
 * entry point but clSetKernelArg on one kernel is thread safe). Eight
 * threads each build their own programs, create buffers and kernels, and
 * enqueue both on a queue they share and on their own queue; they also
 * create kernels from one shared program, retain and release one shared
 * buffer, wait on one user event that the main thread completes, and call
 * clFinish on the shared queue together. Every result is checked. The
 * rounds of their own go on for at least STRESS_SECONDS. */
#include <pthread.h>
#include <time.h>
#include "../harness.h"

enum { THREADS = 8, ROUNDS = 4, N = 5000, STRESS_SECONDS = 3 };

static double seconds_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + t.tv_nsec / 1e9;
}

static struct harness shared;
static cl_program shared_program;
static cl_mem shared_buffer;
static cl_event start_gate;
static pthread_barrier_t everyone;
static int thread_failures;

static const char *source =
    "kernel void scale(global const int *in, global int *out, int factor)\n"
    "{ size_t i = get_global_id(0); out[i] = in[i] * factor + FACTOR_BIAS; }\n";

static const char *shared_source =
    "kernel void fill(global int *out, int value) { out[get_global_id(0)] = value; }\n"
    "kernel void sum_into(global const int *shared_in, global int *out)\n"
    "{ size_t i = get_global_id(0); out[i] += shared_in[i]; }\n";

#define FAIL(...)                                                                                  \
    do {                                                                                           \
        __atomic_fetch_add(&thread_failures, 1, __ATOMIC_SEQ_CST);                                 \
        fprintf(stderr, __VA_ARGS__);                                                              \
    } while (0)

/* Rounds of: build a program of its own, run it on the shared queue or on
 * its own, check; at least ROUNDS of them, and until STRESS_SECONDS have
 * passed. Every fourth round builds a program with other options. */
static void own_programs(int id, cl_command_queue own)
{
    cl_int err;
    int *in = malloc(N * 4), *out = malloc(N * 4);
    double end = seconds_now() + STRESS_SECONDS;
    for (int round = 0; round < ROUNDS || seconds_now() < end; round++) {
        char options[96];
        snprintf(options, sizeof options, "-DFACTOR_BIAS=%d -DROUND_GROUP=%d", id, round / 4);
        cl_program p = clCreateProgramWithSource(shared.context, 1, &source, NULL, &err);
        if (err ||
            (err = clBuildProgram(p, 1, &shared.device, options, NULL, NULL)) != CL_SUCCESS) {
            FAIL("thread %d: build: %s\n", id, harness_error_name(err));
            clReleaseProgram(p);
            continue;
        }
        cl_kernel k = clCreateKernel(p, "scale", &err);
        for (int i = 0; i < N; i++)
            in[i] = i + round * 7 + id;
        cl_mem din = clCreateBuffer(shared.context, CL_MEM_COPY_HOST_PTR, N * 4, in, &err);
        cl_mem dout = clCreateBuffer(shared.context, CL_MEM_READ_WRITE, N * 4, NULL, &err);
        int factor = round + 2;
        err = harness_args(k, 3, ARG(din), ARG(dout), ARG(factor));
        cl_command_queue q = round % 2 ? own : shared.queue;
        size_t global = N;
        err |= clEnqueueNDRangeKernel(q, k, 1, NULL, &global, NULL, 0, NULL, NULL);
        err |= clEnqueueReadBuffer(q, dout, CL_TRUE, 0, N * 4, out, 0, NULL, NULL);
        long bad = 0;
        for (int i = 0; i < N; i++)
            bad += out[i] != in[i] * factor + id;
        if (err || bad)
            FAIL("thread %d round %d: err %d, %ld wrong\n", id, round, err, bad);
        clReleaseMemObject(din);
        clReleaseMemObject(dout);
        clReleaseKernel(k);
        clReleaseProgram(p);
    }
    free(in), free(out);
}

/* Kernels of the shared program, one per thread; the shared buffer is
 * read by all of them, retained and released meanwhile. Commands wait on
 * the user event the main thread completes. */
static void shared_objects(int id, cl_command_queue own)
{
    cl_int err;
    cl_kernel fill = clCreateKernel(shared_program, "fill", &err);
    cl_kernel sum = clCreateKernel(shared_program, "sum_into", &err);
    if (!fill || !sum) {
        FAIL("thread %d: clCreateKernel: %s\n", id, harness_error_name(err));
        pthread_barrier_wait(&everyone);
        return;
    }
    for (int i = 0; i < 50; i++) {
        clRetainMemObject(shared_buffer);
        clReleaseMemObject(shared_buffer);
    }
    cl_mem out = clCreateBuffer(shared.context, CL_MEM_READ_WRITE, N * 4, NULL, &err);
    int value = id * 100;
    err = harness_args(fill, 2, ARG(out), ARG(value));
    err |= harness_args(sum, 2, ARG(shared_buffer), ARG(out));
    size_t global = N;
    cl_event filled;
    err |= clEnqueueNDRangeKernel(own, fill, 1, NULL, &global, NULL, 1, &start_gate, &filled);
    err |= clEnqueueNDRangeKernel(shared.queue, sum, 1, NULL, &global, NULL, 1, &filled, NULL);
    pthread_barrier_wait(&everyone); /* all enqueued: main completes the gate */
    err |= clFinish(shared.queue);
    int *host = malloc(N * 4);
    err |= clEnqueueReadBuffer(own, out, CL_TRUE, 0, N * 4, host, 0, NULL, NULL);
    long bad = 0;
    for (int i = 0; i < N; i++)
        bad += host[i] != id * 100 + i;
    if (err || bad)
        FAIL("thread %d shared objects: err %d, %ld wrong\n", id, err, bad);
    free(host);
    clReleaseEvent(filled);
    clReleaseMemObject(out);
    clReleaseKernel(fill);
    clReleaseKernel(sum);
}

static void *worker(void *arg)
{
    int id = (int)(size_t)arg;
    cl_int err;
    cl_command_queue own =
        clCreateCommandQueueWithProperties(shared.context, shared.device, NULL, &err);
    if (err != CL_SUCCESS) {
        FAIL("thread %d: queue: %s\n", id, harness_error_name(err));
        pthread_barrier_wait(&everyone);
        return NULL;
    }
    shared_objects(id, own);
    own_programs(id, own);
    clReleaseCommandQueue(own);
    return NULL;
}

int main(void)
{
    shared = harness_open();
    shared_program = harness_build(&shared, shared_source, "");
    REQUIRE(shared_program);
    int *ramp = malloc(N * 4);
    for (int i = 0; i < N; i++)
        ramp[i] = i;
    shared_buffer = harness_buffer(&shared, CL_MEM_READ_ONLY, N * 4, ramp);
    cl_int err;
    start_gate = clCreateUserEvent(shared.context, &err);
    REQUIRE(err == CL_SUCCESS);
    pthread_barrier_init(&everyone, NULL, THREADS + 1);
    pthread_t threads[THREADS];
    for (size_t i = 0; i < THREADS; i++)
        pthread_create(&threads[i], NULL, worker, (void *)i);
    pthread_barrier_wait(&everyone);
    CHECK_OK(clSetUserEventStatus(start_gate, CL_COMPLETE));
    for (int i = 0; i < THREADS; i++)
        pthread_join(threads[i], NULL);
    CHECK_EQ(thread_failures, 0);
    CHECK_OK(clFinish(shared.queue));
    cl_uint refs = 0;
    CHECK_OK(clGetMemObjectInfo(shared_buffer, CL_MEM_REFERENCE_COUNT, sizeof refs, &refs, NULL));
    CHECK_EQ(refs, 1);
    pthread_barrier_destroy(&everyone);
    clReleaseEvent(start_gate);
    clReleaseMemObject(shared_buffer);
    clReleaseProgram(shared_program);
    harness_close(&shared);
    free(ramp);
    return harness_finish();
}
