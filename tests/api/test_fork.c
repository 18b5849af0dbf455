/* test_fork.c - a process that ran commands forks. POSIX's fork copies
 * only the thread that calls it: the device's workers and the background
 * compiler of launch copies are not in the child. The child runs kernels
 * in the parent's context and in a context of its own, with launch copies
 * compiled in the background (no kernel cache, so they are compiled),
 * and the parent goes on after it; a child forked while a copy may be
 * compiling exits at once, through the exit hooks; a child forked while
 * clBuildProgram builds on a thread of its own finds the program built. Each child has a time
 * limit (alarm), so a hang fails the test instead of stopping it. */
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../harness.h"

enum { N = 4096, LOCAL = 64, LAUNCHES = 5, CHILD_SECONDS = 60 };

static const char *source = "kernel void affine(global int *out, int m)\n"
                            "{ size_t i = get_global_id(0); out[i] = (int)i * m + 7; }\n";

/* Builds the kernel in `context` and launches it LAUNCHES times (the third
 * asks for a launch copy), each time with another factor; returns how
 * many results were wrong, or -1 when a call failed. */
static int run_affine(cl_context context, cl_device_id device, cl_command_queue queue)
{
    cl_int err;
    int wrong = -1;
    cl_program program = clCreateProgramWithSource(context, 1, &source, NULL, &err);
    cl_kernel kernel = NULL;
    cl_mem out = NULL;
    if (err || clBuildProgram(program, 1, &device, NULL, NULL, NULL))
        goto done;
    kernel = clCreateKernel(program, "affine", &err);
    out = clCreateBuffer(context, CL_MEM_WRITE_ONLY, N * sizeof(int), NULL, &err);
    if (!kernel || !out)
        goto done;
    wrong = 0;
    for (int m = 1; m <= LAUNCHES; m++) {
        int host[N];
        size_t global = N, local = LOCAL;
        if (clSetKernelArg(kernel, 0, sizeof out, &out) ||
            clSetKernelArg(kernel, 1, sizeof m, &m) ||
            clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global, &local, 0, NULL, NULL) ||
            clEnqueueReadBuffer(queue, out, CL_TRUE, 0, sizeof host, host, 0, NULL, NULL)) {
            wrong = -1;
            break;
        }
        for (int i = 0; i < N; i++)
            wrong += host[i] != i * m + 7;
    }
done:
    if (out)
        clReleaseMemObject(out);
    if (kernel)
        clReleaseKernel(kernel);
    clReleaseProgram(program);
    return wrong;
}

/* The child of the first fork: the parent's context, then one of its own. */
static int child_runs(const struct harness *h)
{
    int failed = 0;
    int wrong = run_affine(h->context, h->device, h->queue);
    if (wrong) {
        fprintf(stderr, "child, parent's context: %d\n", wrong);
        failed = 1;
    }
    cl_int err;
    cl_context own = clCreateContext(NULL, 1, &h->device, NULL, NULL, &err);
    cl_command_queue queue =
        own ? clCreateCommandQueueWithProperties(own, h->device, NULL, &err) : NULL;
    wrong = queue ? run_affine(own, h->device, queue) : -1;
    if (wrong) {
        fprintf(stderr, "child, its own context: %d\n", wrong);
        failed = 1;
    }
    if (queue)
        clReleaseCommandQueue(queue);
    if (own)
        clReleaseContext(own);
    return failed;
}

static void CL_CALLBACK built(cl_program program, void *done)
{
    (void)program;
    __atomic_store_n((int *)done, 1, __ATOMIC_RELEASE);
}

/* The child of a fork right after an asynchronous clBuildProgram: the
 * fork waited for the build, so the child finds the program built (its
 * callback, the parent's, may not have run) and runs its kernel. */
static int child_after_async_build(const struct harness *h, cl_program program)
{
    cl_build_status status = CL_BUILD_NONE;
    clGetProgramBuildInfo(program, h->device, CL_PROGRAM_BUILD_STATUS, sizeof status, &status,
                          NULL);
    if (status != CL_BUILD_SUCCESS) {
        fprintf(stderr, "child after an asynchronous build: status %d\n", (int)status);
        return 1;
    }
    cl_int err;
    cl_kernel kernel = clCreateKernel(program, "affine", &err);
    cl_mem out = clCreateBuffer(h->context, CL_MEM_WRITE_ONLY, N * sizeof(int), NULL, &err);
    int m = 9, host[N], wrong = -1;
    size_t global = N;
    if (kernel && out && !clSetKernelArg(kernel, 0, sizeof out, &out) &&
        !clSetKernelArg(kernel, 1, sizeof m, &m) &&
        !clEnqueueNDRangeKernel(h->queue, kernel, 1, NULL, &global, NULL, 0, NULL, NULL) &&
        !clEnqueueReadBuffer(h->queue, out, CL_TRUE, 0, sizeof host, host, 0, NULL, NULL)) {
        wrong = 0;
        for (int i = 0; i < N; i++)
            wrong += host[i] != i * m + 7;
    }
    if (wrong)
        fprintf(stderr, "child after an asynchronous build: %d\n", wrong);
    if (out)
        clReleaseMemObject(out);
    if (kernel)
        clReleaseKernel(kernel);
    return wrong != 0;
}

/* Waits for the child; true when it exited with status 0. */
static int child_passed(pid_t child, const char *what)
{
    int status = 0;
    if (waitpid(child, &status, 0) != child) {
        fprintf(stderr, "%s: waitpid failed\n", what);
        return 0;
    }
    if (WIFSIGNALED(status))
        fprintf(stderr, "%s: killed by signal %d%s\n", what, WTERMSIG(status),
                WTERMSIG(status) == SIGALRM ? " (its time limit: it hung)" : "");
    return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

int main(void)
{
    /* before any cpucl call: copies compiled in the background, not cached */
    setenv("CPUCL_LAUNCH_COPIES", "background", 1);
    setenv("CPUCL_CACHE", "0", 1);
    struct harness h = harness_open();
    CHECK_EQ(run_affine(h.context, h.device, h.queue), 0);

    fflush(NULL);
    pid_t child = fork();
    REQUIRE(child >= 0);
    if (child == 0) {
        alarm(CHILD_SECONDS);
        exit(child_runs(&h));
    }
    CHECK(child_passed(child, "child running kernels"));

    /* The parent's next launches ask for copies again (a new program);
     * the child forked among them leaves at once. */
    CHECK_EQ(run_affine(h.context, h.device, h.queue), 0);
    fflush(NULL);
    child = fork();
    REQUIRE(child >= 0);
    if (child == 0) {
        alarm(CHILD_SECONDS);
        exit(0);
    }
    CHECK_EQ(run_affine(h.context, h.device, h.queue), 0);
    CHECK(child_passed(child, "child exiting at once"));

    /* a fork while clBuildProgram builds on a thread of its own */
    cl_int err;
    cl_program program = clCreateProgramWithSource(h.context, 1, &source, NULL, &err);
    int done = 0;
    CHECK_OK(clBuildProgram(program, 1, &h.device, "-DASYNC", built, &done));
    fflush(NULL);
    child = fork();
    REQUIRE(child >= 0);
    if (child == 0) {
        alarm(CHILD_SECONDS);
        exit(child_after_async_build(&h, program));
    }
    CHECK(child_passed(child, "child after an asynchronous build"));
    while (!__atomic_load_n(&done, __ATOMIC_ACQUIRE))
        usleep(1000);
    clReleaseProgram(program);

    harness_close(&h);
    return harness_finish();
}
