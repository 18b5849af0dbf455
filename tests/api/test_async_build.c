/* test_async_build.c - clBuildProgram with a callback returns before the
 * build ends and calls the callback once when it has (API spec 5.8.2):
 * eight programs built at once, each one's kernel run and checked; a
 * program that fails to build reports CL_BUILD_ERROR and its log in the
 * callback; bad options are still the call's own error; a second build
 * while one runs is CL_INVALID_OPERATION; a program the application
 * releases before its build ends is kept until the callback has run. */
#include <pthread.h>

#include "../harness.h"

enum { PROGRAMS = 8 };

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t changed = PTHREAD_COND_INITIALIZER;

struct build {
    cl_program program;
    int calls;
    cl_build_status status_in_callback;
};

static void CL_CALLBACK built(cl_program program, void *user_data)
{
    struct build *b = user_data;
    cl_device_id device;
    clGetProgramInfo(program, CL_PROGRAM_DEVICES, sizeof device, &device, NULL);
    cl_build_status status = CL_BUILD_NONE;
    clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_STATUS, sizeof status, &status, NULL);
    pthread_mutex_lock(&lock);
    b->status_in_callback = status;
    b->calls++;
    pthread_cond_broadcast(&changed);
    pthread_mutex_unlock(&lock);
}

static void wait_for(struct build *b)
{
    pthread_mutex_lock(&lock);
    while (b->calls == 0)
        pthread_cond_wait(&changed, &lock);
    pthread_mutex_unlock(&lock);
}

static cl_program source_program(struct harness *h, const char *source)
{
    cl_int err;
    cl_program program = clCreateProgramWithSource(h->context, 1, &source, NULL, &err);
    REQUIRE(err == CL_SUCCESS);
    return program;
}

int main(void)
{
    struct harness h = harness_open();
    static struct build builds[PROGRAMS];
    char sources[PROGRAMS][256];
    for (int i = 0; i < PROGRAMS; i++) {
        snprintf(sources[i], sizeof sources[i],
                 "kernel void k(global int *out) { out[get_global_id(0)] = (int)get_global_id(0) "
                 "* %d + %d; }\n",
                 i + 2, i);
        builds[i].program = source_program(&h, sources[i]);
    }
    for (int i = 0; i < PROGRAMS; i++)
        CHECK_OK(clBuildProgram(builds[i].program, 1, &h.device, "-cl-std=CL1.2", built,
                                &builds[i]));
    /* 5.8: one build at a time per program */
    cl_int again = clBuildProgram(builds[PROGRAMS - 1].program, 1, &h.device, "", NULL, NULL);
    CHECK(again == CL_INVALID_OPERATION || again == CL_SUCCESS); /* the build may have ended */

    cl_int err;
    cl_mem out = clCreateBuffer(h.context, CL_MEM_READ_WRITE, 64 * sizeof(int), NULL, &err);
    REQUIRE(err == CL_SUCCESS);
    for (int i = 0; i < PROGRAMS; i++) {
        wait_for(&builds[i]);
        CHECK_EQ(builds[i].calls, 1);
        CHECK_EQ(builds[i].status_in_callback, CL_BUILD_SUCCESS);
        cl_kernel k = clCreateKernel(builds[i].program, "k", &err);
        CHECK_OK(err);
        if (err)
            continue;
        clSetKernelArg(k, 0, sizeof out, &out);
        size_t global = 64;
        CHECK_OK(clEnqueueNDRangeKernel(h.queue, k, 1, NULL, &global, NULL, 0, NULL, NULL));
        int result[64], bad = 0;
        CHECK_OK(clEnqueueReadBuffer(h.queue, out, CL_TRUE, 0, sizeof result, result, 0, NULL,
                                     NULL));
        for (int j = 0; j < 64; j++)
            bad += result[j] != j * (i + 2) + i;
        CHECK_NONE_WRONG(bad, "kernel of an asynchronous build");
        clReleaseKernel(k);
    }

    /* a source error: the callback sees CL_BUILD_ERROR, the log says why */
    struct build broken = {.program = source_program(&h, "kernel void k(global int *p) { p[0] = nope; }")};
    CHECK_OK(clBuildProgram(broken.program, 1, &h.device, NULL, built, &broken));
    wait_for(&broken);
    CHECK_EQ(broken.status_in_callback, CL_BUILD_ERROR);
    char *log = harness_build_log(broken.program, h.device);
    CHECK(log && strstr(log, "nope"));
    free(log);

    /* bad options are this call's error */
    struct build options = {.program = source_program(&h, sources[0])};
    CHECK_ERR(clBuildProgram(options.program, 1, &h.device, "-cl-no-such-option", built,
                             &options),
              CL_INVALID_BUILD_OPTIONS);

    /* released before the build ends: the build keeps the program's memory
     * until the callback has run (the handle is no longer the
     * application's to use, so the callback only counts) */
    struct build orphan = {.program = source_program(&h, sources[1])};
    CHECK_OK(clBuildProgram(orphan.program, 1, &h.device, NULL, built, &orphan));
    CHECK_OK(clReleaseProgram(orphan.program));
    wait_for(&orphan);
    CHECK_EQ(orphan.calls, 1);

    for (int i = 0; i < PROGRAMS; i++)
        clReleaseProgram(builds[i].program);
    clReleaseProgram(broken.program);
    clReleaseProgram(options.program);
    clReleaseMemObject(out);
    harness_close(&h);
    return harness_finish();
}
