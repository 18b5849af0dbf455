/* test_threads.c - many host threads at once (API spec appendix A.2): each
 * builds its own program, creates buffers and kernels, and enqueues on a
 * shared queue and on its own; every result is checked. */
#include <pthread.h>
#include "../harness.h"

enum { THREADS = 8, ROUNDS = 6, N = 5000 };

static struct harness shared;
static int thread_failures;

static const char *source =
    "kernel void scale(global const int *in, global int *out, int factor)\n"
    "{ size_t i = get_global_id(0); out[i] = in[i] * factor + FACTOR_BIAS; }\n";

static void *worker(void *arg)
{
    int id = (int)(size_t)arg;
    cl_int err;
    cl_command_queue own = clCreateCommandQueueWithProperties(shared.context, shared.device, NULL, &err);
    int *in = malloc(N * 4), *out = malloc(N * 4);
    for (int round = 0; round < ROUNDS; round++) {
        char options[64];
        snprintf(options, sizeof options, "-DFACTOR_BIAS=%d", id);
        cl_program p = clCreateProgramWithSource(shared.context, 1, &source, NULL, &err);
        if (err || clBuildProgram(p, 1, &shared.device, options, NULL, NULL) != CL_SUCCESS) {
            __atomic_fetch_add(&thread_failures, 1, __ATOMIC_SEQ_CST);
            continue;
        }
        cl_kernel k = clCreateKernel(p, "scale", &err);
        for (int i = 0; i < N; i++)
            in[i] = i + round * 7 + id;
        cl_mem din = clCreateBuffer(shared.context, CL_MEM_COPY_HOST_PTR, N * 4, in, &err);
        cl_mem dout = clCreateBuffer(shared.context, CL_MEM_READ_WRITE, N * 4, NULL, &err);
        int factor = round + 2;
        clSetKernelArg(k, 0, sizeof din, &din);
        clSetKernelArg(k, 1, sizeof dout, &dout);
        clSetKernelArg(k, 2, sizeof factor, &factor);
        cl_command_queue q = round % 2 ? own : shared.queue;
        size_t global = N;
        err = clEnqueueNDRangeKernel(q, k, 1, NULL, &global, NULL, 0, NULL, NULL);
        err |= clEnqueueReadBuffer(q, dout, CL_TRUE, 0, N * 4, out, 0, NULL, NULL);
        int bad = err != CL_SUCCESS;
        for (int i = 0; i < N; i++)
            bad += out[i] != in[i] * factor + id;
        if (bad)
            __atomic_fetch_add(&thread_failures, 1, __ATOMIC_SEQ_CST);
        clReleaseMemObject(din);
        clReleaseMemObject(dout);
        clReleaseKernel(k);
        clReleaseProgram(p);
    }
    clReleaseCommandQueue(own);
    free(in), free(out);
    return NULL;
}

int main(void)
{
    shared = harness_open();
    pthread_t threads[THREADS];
    for (size_t i = 0; i < THREADS; i++)
        pthread_create(&threads[i], NULL, worker, (void *)i);
    for (int i = 0; i < THREADS; i++)
        pthread_join(threads[i], NULL);
    CHECK(thread_failures == 0);
    CHECK_OK(clFinish(shared.queue));
    harness_close(&shared);
    return harness_finish();
}
