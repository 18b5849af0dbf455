/* test_command_buffer.c - cl_khr_command_buffer (0.9.8): commands recorded
 * once and run again and again. A buffer of fills, copies (buffer, rect,
 * image, SVM) and kernels gives, at every run, what the host computes; a
 * kernel keeps the arguments it was recorded with; sync points and
 * barriers order the commands of an out-of-order buffer; a run waits for
 * its wait list and its queue, fails with a failed wait list, runs on a
 * substitute queue, and reports its type and times; a buffer released
 * while it runs finishes; host threads running one buffer at once lose
 * nothing; bad arguments get the spec's errors. The
 * functions are found by name, with the 0.9.8 signatures (Debian 12's
 * headers declare 0.9.1's). */
#include <pthread.h>
#include <stdbool.h>
#include <time.h>

#include "command_buffer.h"

static const char *source = "kernel void scale(global int *dst, global const int *src, int k)\n"
                            "{ size_t i = get_global_id(0); dst[i] = src[i] * k; }\n"
                            "kernel void add_one(global int *p) { p[get_global_id(0)] += 1; }\n"
                            "kernel void slow_set(global int *p, int v)\n"
                            "{ size_t i = get_global_id(0); volatile int spin = 0;\n"
                            "  for (int k = 0; k < 20000; k++) spin += k;\n"
                            "  p[i] = v + (spin & 0); }\n";

enum { N = 4096, W = 16, H = 8 };

static cl_int status_of(cl_event event)
{
    cl_int status = 0;
    CHECK_OK(
        clGetEventInfo(event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL));
    return status;
}

static void read_ints(struct harness *h, cl_mem buffer, int *out, size_t count)
{
    CHECK_OK(
        clEnqueueReadBuffer(h->queue, buffer, CL_TRUE, 0, count * sizeof *out, out, 0, NULL, NULL));
}

/* fill -> kernel -> copy -> rect copy -> SVM copy, and an image fill read
 * back into a buffer, recorded on the in-order queue; run three times,
 * with the inputs changed between runs. */
static void test_in_order(struct harness *h, cl_kernel scale)
{
    cl_int err;
    cl_mem a = harness_buffer(h, CL_MEM_READ_WRITE, N * sizeof(int), NULL);
    cl_mem b = harness_buffer(h, CL_MEM_READ_WRITE, N * sizeof(int), NULL);
    cl_mem c = harness_buffer(h, CL_MEM_READ_WRITE, N * sizeof(int), NULL);
    cl_mem d = harness_buffer(h, CL_MEM_READ_WRITE, N * sizeof(int), NULL);
    int *svm_src = clSVMAlloc(h->context, CL_MEM_READ_WRITE, N * sizeof(int), 0);
    int *svm_dst = clSVMAlloc(h->context, CL_MEM_READ_WRITE, N * sizeof(int), 0);
    REQUIRE(svm_src && svm_dst);
    cl_image_format format = {CL_RGBA, CL_UNSIGNED_INT8};
    cl_image_desc desc = {.image_type = CL_MEM_OBJECT_IMAGE2D, .image_width = W, .image_height = H};
    cl_mem image = clCreateImage(h->context, CL_MEM_READ_WRITE, &format, &desc, NULL, &err);
    CHECK_OK(err);
    cl_mem pixels = harness_buffer(h, CL_MEM_READ_WRITE, W * H * 4, NULL);

    cl_command_buffer_khr cb = khr.create(1, &h->queue, NULL, &err);
    CHECK_OK(err);
    int pattern = 3, k = 5;
    CHECK_OK(harness_args(scale, 3, ARG(b), ARG(a), ARG(k)));
    size_t global = N;
    cl_sync_point_khr points[4];
    CHECK_OK(khr.fill(cb, NULL, NULL, a, &pattern, sizeof pattern, 0, N / 2 * sizeof(int), 0, NULL,
                      &points[0], NULL));
    CHECK_OK(khr.ndrange(cb, NULL, NULL, scale, 1, NULL, &global, NULL, 0, NULL, &points[1], NULL));
    /* recorded with k = 5: a later clSetKernelArg does not change it */
    int other = 100;
    CHECK_OK(clSetKernelArg(scale, 2, sizeof other, &other));
    CHECK_OK(
        khr.copy(cb, NULL, NULL, b, c, 0, 0, N * sizeof(int), 1, &points[1], &points[2], NULL));
    /* rows of 64 ints: the middle 32 of each of 64 rows, into d packed */
    size_t origin[3] = {16 * sizeof(int), 0, 0}, zero[3] = {0, 0, 0};
    size_t region[3] = {32 * sizeof(int), 64, 1};
    CHECK_OK(khr.copy_rect(cb, NULL, NULL, c, d, origin, zero, region, 64 * sizeof(int), 0,
                           32 * sizeof(int), 0, 0, NULL, NULL, NULL));
    CHECK_OK(
        khr.svm_memcpy(cb, NULL, NULL, svm_dst, svm_src, N * sizeof(int), 0, NULL, NULL, NULL));
    cl_uint4 color = {{7, 8, 9, 10}};
    size_t img_origin[3] = {0, 0, 0}, img_region[3] = {W, H, 1};
    CHECK_OK(
        khr.fill_image(cb, NULL, NULL, image, &color, img_origin, img_region, 0, NULL, NULL, NULL));
    CHECK_OK(khr.image_to_buffer(cb, NULL, NULL, image, pixels, img_origin, img_region, 0, 0, NULL,
                                 NULL, NULL));
    CHECK_OK(khr.finalize(cb));

    static int got_c[N], got_d[N], in[N];
    unsigned char got_pixels[W * H * 4];
    for (int run = 0; run < 3; run++) {
        for (int i = 0; i < N; i++) {
            in[i] = i * (run + 1);
            svm_src[i] = i ^ run;
        }
        CHECK_OK(clEnqueueWriteBuffer(h->queue, a, CL_FALSE, 0, sizeof in, in, 0, NULL, NULL));
        CHECK_OK(
            clEnqueueFillBuffer(h->queue, pixels, &(cl_uchar){0}, 1, 0, W * H * 4, 0, NULL, NULL));
        cl_event done;
        CHECK_OK(khr.enqueue(0, NULL, cb, 0, NULL, &done));
        read_ints(h, c, got_c, N);
        read_ints(h, d, got_d, N / 2);
        CHECK_OK(clEnqueueReadBuffer(h->queue, pixels, CL_TRUE, 0, sizeof got_pixels, got_pixels, 0,
                                     NULL, NULL));
        CHECK_EQ(status_of(done), CL_COMPLETE);
        long bad = 0;
        for (int i = 0; i < N; i++) {
            int want = (i < N / 2 ? pattern : in[i]) * k;
            bad += got_c[i] != want;
            bad += svm_dst[i] != (i ^ run);
        }
        for (int row = 0; row < 64; row++)
            for (int x = 0; x < 32; x++)
                bad += got_d[row * 32 + x] != got_c[row * 64 + 16 + x];
        for (int p = 0; p < W * H; p++)
            for (int ch = 0; ch < 4; ch++)
                bad += got_pixels[p * 4 + ch] != 7 + ch;
        CHECK_NONE_WRONG(bad, "in-order command-buffer run");
        clReleaseEvent(done);
    }
    cl_command_type type = 0;
    cl_event again;
    CHECK_OK(khr.enqueue(0, NULL, cb, 0, NULL, &again));
    CHECK_OK(clGetEventInfo(again, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL));
    CHECK_EQ(type, CL_COMMAND_COMMAND_BUFFER_KHR);
    CHECK_OK(clWaitForEvents(1, &again));
    clReleaseEvent(again);
    CHECK_OK(khr.release(cb));
    clSVMFree(h->context, svm_src);
    clSVMFree(h->context, svm_dst);
    clReleaseMemObject(image);
    clReleaseMemObject(pixels);
    clReleaseMemObject(a);
    clReleaseMemObject(b);
    clReleaseMemObject(c);
    clReleaseMemObject(d);
}

/* On an out-of-order queue only sync points and barriers order commands:
 * a slow kernel sets x, a copy that waits for it copies x to y; after a
 * barrier without sync points, add_one runs on y. Each run gives y = v + 1
 * however the workers take the commands. Also: a run's wait list holds it
 * back, a failed wait list fails it, it runs on a substitute queue with
 * profiling, and a buffer released while it runs finishes. */
static void test_out_of_order(struct harness *h, cl_kernel slow_set, cl_kernel add_one)
{
    cl_int err;
    cl_queue_properties props[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, 0};
    cl_command_queue ooo = clCreateCommandQueueWithProperties(h->context, h->device, props, &err);
    CHECK_OK(err);
    cl_mem x = harness_buffer(h, CL_MEM_READ_WRITE, N * sizeof(int), NULL);
    cl_mem y = harness_buffer(h, CL_MEM_READ_WRITE, N * sizeof(int), NULL);
    cl_command_buffer_khr cb = khr.create(1, &ooo, NULL, &err);
    CHECK_OK(err);
    int v = 41;
    CHECK_OK(harness_args(slow_set, 2, ARG(x), ARG(v)));
    CHECK_OK(harness_args(add_one, 1, ARG(y)));
    size_t global = N;
    cl_sync_point_khr set_point, copy_point;
    CHECK_OK(
        khr.ndrange(cb, NULL, NULL, slow_set, 1, NULL, &global, NULL, 0, NULL, &set_point, NULL));
    CHECK_OK(
        khr.copy(cb, NULL, NULL, x, y, 0, 0, N * sizeof(int), 1, &set_point, &copy_point, NULL));
    CHECK_OK(khr.barrier(cb, NULL, NULL, 0, NULL, NULL, NULL));
    CHECK_OK(khr.ndrange(cb, NULL, NULL, add_one, 1, NULL, &global, NULL, 0, NULL, NULL, NULL));
    CHECK_OK(khr.finalize(cb));

    static int got[N];
    for (int run = 0; run < 4; run++) {
        /* x and y start wrong: a copy before the kernel, or add_one
         * before the copy, leaves a value other than v + 1 */
        CHECK_OK(clEnqueueFillBuffer(h->queue, x, &(int){0}, sizeof(int), 0, N * sizeof(int), 0,
                                     NULL, NULL));
        CHECK_OK(clEnqueueFillBuffer(h->queue, y, &(int){-5}, sizeof(int), 0, N * sizeof(int), 0,
                                     NULL, NULL));
        CHECK_OK(clFinish(h->queue));
        CHECK_OK(khr.enqueue(0, NULL, cb, 0, NULL, NULL));
        CHECK_OK(clFinish(ooo));
        read_ints(h, y, got, N);
        long bad = 0;
        for (int i = 0; i < N; i++)
            bad += got[i] != v + 1;
        CHECK_NONE_WRONG(bad, "out-of-order command-buffer run");
    }

    /* held back by a user event; then runs */
    cl_event gate = clCreateUserEvent(h->context, &err), run_event;
    CHECK_OK(err);
    CHECK_OK(khr.enqueue(0, NULL, cb, 1, &gate, &run_event));
    CHECK_OK(clFlush(ooo));
    struct timespec pause = {0, 20 * 1000000L};
    nanosleep(&pause, NULL);
    CHECK(status_of(run_event) > CL_RUNNING);
    CHECK_OK(clSetUserEventStatus(gate, CL_COMPLETE));
    CHECK_OK(clWaitForEvents(1, &run_event));
    clReleaseEvent(run_event);
    clReleaseEvent(gate);

    /* a failed wait list fails the run and runs none of its commands */
    CHECK_OK(clEnqueueFillBuffer(h->queue, y, &(int){-5}, sizeof(int), 0, N * sizeof(int), 0, NULL,
                                 NULL));
    CHECK_OK(clFinish(h->queue));
    cl_event failed = clCreateUserEvent(h->context, &err);
    CHECK_OK(khr.enqueue(0, NULL, cb, 1, &failed, &run_event));
    CHECK_OK(clSetUserEventStatus(failed, -1));
    CHECK_ERR(clWaitForEvents(1, &run_event), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    CHECK(status_of(run_event) < 0);
    read_ints(h, y, got, N);
    CHECK_EQ(got[0], -5);
    clReleaseEvent(run_event);
    clReleaseEvent(failed);

    /* a substitute queue: same device and context, profiling on */
    cl_queue_properties profiled[] = {
        CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, 0};
    cl_command_queue other =
        clCreateCommandQueueWithProperties(h->context, h->device, profiled, &err);
    CHECK_OK(err);
    CHECK_OK(khr.enqueue(1, &other, cb, 0, NULL, &run_event));
    CHECK_OK(clWaitForEvents(1, &run_event));
    cl_ulong t[4];
    for (int i = 0; i < 4; i++)
        CHECK_OK(clGetEventProfilingInfo(run_event, CL_PROFILING_COMMAND_QUEUED + i, sizeof t[i],
                                         &t[i], NULL));
    CHECK(t[0] <= t[1] && t[1] <= t[2] && t[2] <= t[3] && t[0] > 0);
    /* the slow kernel ran inside the run: its end is past its start */
    CHECK(t[3] > t[2]);
    read_ints(h, y, got, N);
    CHECK_EQ(got[N - 1], v + 1);
    clReleaseEvent(run_event);

    /* released while it runs: the run finishes */
    CHECK_OK(clEnqueueFillBuffer(h->queue, y, &(int){-5}, sizeof(int), 0, N * sizeof(int), 0, NULL,
                                 NULL));
    CHECK_OK(clFinish(h->queue));
    CHECK_OK(khr.enqueue(0, NULL, cb, 0, NULL, NULL));
    CHECK_OK(khr.release(cb));
    CHECK_OK(clFinish(ooo));
    read_ints(h, y, got, N);
    CHECK_EQ(got[N / 2], v + 1);
    CHECK_ERR(khr.finalize(cb), CL_INVALID_COMMAND_BUFFER_KHR);

    clReleaseCommandQueue(other);
    clReleaseMemObject(x);
    clReleaseMemObject(y);
    clReleaseCommandQueue(ooo);
}

/* A recorded kernel that enqueues a child kernel (device-side enqueue):
 * the copy that waits for it sees what the child wrote, at every run. */
static void test_device_enqueue(struct harness *h)
{
    static const char *parent_source =
        "kernel void parent(global int *p, int v)\n"
        "{ enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(4096),\n"
        "                 ^{ p[get_global_id(0)] = v + (int)get_global_id(0); }); }\n";
    cl_int err;
    cl_queue_properties device_props[] = {CL_QUEUE_PROPERTIES,
                                          CL_QUEUE_ON_DEVICE | CL_QUEUE_ON_DEVICE_DEFAULT |
                                              CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE,
                                          0};
    cl_command_queue device_queue =
        clCreateCommandQueueWithProperties(h->context, h->device, device_props, &err);
    CHECK_OK(err);
    cl_program program = harness_build(h, parent_source, "-cl-std=CL2.0");
    REQUIRE(program);
    cl_kernel parent = harness_kernel(program, "parent");
    cl_mem p = harness_buffer(h, CL_MEM_READ_WRITE, N * sizeof(int), NULL);
    cl_mem q = harness_buffer(h, CL_MEM_READ_WRITE, N * sizeof(int), NULL);
    cl_command_buffer_khr cb = khr.create(1, &h->queue, NULL, &err);
    CHECK_OK(err);
    int v = 1000;
    CHECK_OK(harness_args(parent, 2, ARG(p), ARG(v)));
    size_t one = 1;
    cl_sync_point_khr point;
    CHECK_OK(khr.ndrange(cb, NULL, NULL, parent, 1, NULL, &one, &one, 0, NULL, &point, NULL));
    CHECK_OK(khr.copy(cb, NULL, NULL, p, q, 0, 0, N * sizeof(int), 1, &point, NULL, NULL));
    CHECK_OK(khr.finalize(cb));
    static int got[N];
    for (int run = 0; run < 3; run++) {
        CHECK_OK(clEnqueueFillBuffer(h->queue, p, &(int){0}, sizeof(int), 0, N * sizeof(int), 0,
                                     NULL, NULL));
        CHECK_OK(khr.enqueue(0, NULL, cb, 0, NULL, NULL));
        read_ints(h, q, got, N);
        long bad = 0;
        for (int i = 0; i < N; i++)
            bad += got[i] != v + i;
        CHECK_NONE_WRONG(bad, "device-side enqueue in a command-buffer");
    }
    CHECK_OK(khr.release(cb));
    clReleaseMemObject(p);
    clReleaseMemObject(q);
    clReleaseKernel(parent);
    clReleaseProgram(program);
    clReleaseCommandQueue(device_queue);
}

/* Many host threads run one buffer at once, each on a queue of its own
 * (queue substitution; simultaneous use): every run's every launch counts. */
enum { THREADS = 4, RUNS = 25, LAUNCHES = 10, ITEMS = 256 };

struct runner {
    struct harness *h;
    cl_command_buffer_khr cb;
    cl_int err;
};

static void *run_many(void *arg)
{
    struct runner *r = arg;
    cl_queue_properties props[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, 0};
    cl_command_queue queue =
        clCreateCommandQueueWithProperties(r->h->context, r->h->device, props, &r->err);
    for (int i = 0; i < RUNS && !r->err; i++)
        r->err = khr.enqueue(1, &queue, r->cb, 0, NULL, NULL);
    if (!r->err)
        r->err = clFinish(queue);
    if (queue)
        clReleaseCommandQueue(queue);
    return NULL;
}

static void test_threads(struct harness *h)
{
    static const char *count_source = "kernel void count(global int *c) { atomic_inc(c); }\n";
    cl_int err;
    cl_program program = harness_build(h, count_source, NULL);
    REQUIRE(program);
    cl_kernel count = harness_kernel(program, "count");
    cl_mem counter = harness_buffer(h, CL_MEM_READ_WRITE, sizeof(int), NULL);
    CHECK_OK(clEnqueueFillBuffer(h->queue, counter, &(int){0}, sizeof(int), 0, sizeof(int), 0, NULL,
                                 NULL));
    CHECK_OK(clFinish(h->queue));
    CHECK_OK(harness_args(count, 1, ARG(counter)));
    cl_queue_properties props[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, 0};
    cl_command_queue ooo = clCreateCommandQueueWithProperties(h->context, h->device, props, &err);
    cl_command_buffer_properties_khr simultaneous[] = {CL_COMMAND_BUFFER_FLAGS_KHR, 1, 0};
    cl_command_buffer_khr cb = khr.create(1, &ooo, simultaneous, &err);
    CHECK_OK(err);
    size_t global = ITEMS;
    for (int i = 0; i < LAUNCHES; i++)
        CHECK_OK(khr.ndrange(cb, NULL, NULL, count, 1, NULL, &global, NULL, 0, NULL, NULL, NULL));
    CHECK_OK(khr.finalize(cb));
    struct runner runners[THREADS];
    pthread_t threads[THREADS];
    for (int t = 0; t < THREADS; t++) {
        runners[t] = (struct runner){.h = h, .cb = cb};
        REQUIRE(pthread_create(&threads[t], NULL, run_many, &runners[t]) == 0);
    }
    for (int t = 0; t < THREADS; t++) {
        pthread_join(threads[t], NULL);
        CHECK_OK(runners[t].err);
    }
    int total = 0;
    CHECK_OK(
        clEnqueueReadBuffer(h->queue, counter, CL_TRUE, 0, sizeof total, &total, 0, NULL, NULL));
    CHECK_EQ(total, THREADS * RUNS * LAUNCHES * ITEMS);
    CHECK_OK(khr.release(cb));
    clReleaseCommandQueue(ooo);
    clReleaseMemObject(counter);
    clReleaseKernel(count);
    clReleaseProgram(program);
}

static void test_queries_and_errors(struct harness *h, cl_kernel scale)
{
    cl_int err;
    cl_command_queue_properties supported = 0, required = 9;
    CHECK_OK(clGetDeviceInfo(h->device, CL_DEVICE_COMMAND_BUFFER_SUPPORTED_QUEUE_PROPERTIES_KHR,
                             sizeof supported, &supported, NULL));
    CHECK_EQ(supported, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE);
    CHECK_OK(clGetDeviceInfo(h->device, CL_DEVICE_COMMAND_BUFFER_REQUIRED_QUEUE_PROPERTIES_KHR,
                             sizeof required, &required, NULL));
    CHECK_EQ(required, 0);
    cl_device_command_buffer_capabilities_khr caps = 0;
    CHECK_OK(clGetDeviceInfo(h->device, CL_DEVICE_COMMAND_BUFFER_CAPABILITIES_KHR, sizeof caps,
                             &caps, NULL));
    CHECK_EQ(caps, CL_COMMAND_BUFFER_CAPABILITY_KERNEL_PRINTF_KHR |
                       CL_COMMAND_BUFFER_CAPABILITY_DEVICE_SIDE_ENQUEUE_KHR |
                       CL_COMMAND_BUFFER_CAPABILITY_SIMULTANEOUS_USE_KHR);
    cl_bitfield fields = 0;
    CHECK_OK(clGetDeviceInfo(h->device, CL_DEVICE_MUTABLE_DISPATCH_CAPABILITIES_KHR, sizeof fields,
                             &fields, NULL));
    CHECK_EQ(fields, 0x1f);
    size_t size = 0;
    CHECK_OK(clGetDeviceInfo(h->device, CL_DEVICE_EXTENSIONS_WITH_VERSION_KHR, 0, NULL, &size));
    cl_name_version_khr *versions = malloc(size);
    CHECK_OK(
        clGetDeviceInfo(h->device, CL_DEVICE_EXTENSIONS_WITH_VERSION_KHR, size, versions, NULL));
    cl_version_khr version = 0, mutable_version = 0;
    for (size_t i = 0; i < size / sizeof *versions; i++) {
        if (!strcmp(versions[i].name, "cl_khr_command_buffer"))
            version = versions[i].version;
        if (!strcmp(versions[i].name, "cl_khr_command_buffer_mutable_dispatch"))
            mutable_version = versions[i].version;
    }
    CHECK_EQ(version, CL_MAKE_VERSION_KHR(0, 9, 8));
    CHECK_EQ(mutable_version, CL_MAKE_VERSION_KHR(0, 9, 5));
    free(versions);

    /* creation */
    cl_command_queue two[2] = {h->queue, h->queue};
    CHECK_FAILS(khr.create(1, NULL, NULL, &err), err, CL_INVALID_VALUE);
    CHECK_FAILS(khr.create(2, two, NULL, &err), err, CL_INVALID_VALUE);
    CHECK_FAILS(khr.create(0, two, NULL, &err), err, CL_INVALID_VALUE);
    cl_command_queue bad_queue = (cl_command_queue)h->context;
    CHECK_FAILS(khr.create(1, &bad_queue, NULL, &err), err, CL_INVALID_COMMAND_QUEUE);
    cl_command_buffer_properties_khr repeated[] = {CL_COMMAND_BUFFER_FLAGS_KHR, 0,
                                                   CL_COMMAND_BUFFER_FLAGS_KHR, 0, 0};
    CHECK_FAILS(khr.create(1, &h->queue, repeated, &err), err, CL_INVALID_VALUE);
    cl_command_buffer_properties_khr junk[] = {CL_COMMAND_BUFFER_FLAGS_KHR,
                                               (cl_command_buffer_properties_khr)-1, 0};
    CHECK_FAILS(khr.create(1, &h->queue, junk, &err), err, CL_INVALID_VALUE);
    /* device-side sync (cl_khr_command_buffer_multi_device): not offered */
    cl_command_buffer_properties_khr device_sync[] = {CL_COMMAND_BUFFER_FLAGS_KHR, 4, 0};
    CHECK_FAILS(khr.create(1, &h->queue, device_sync, &err), err, CL_INVALID_PROPERTY);
    cl_command_buffer_properties_khr none[] = {CL_COMMAND_BUFFER_FLAGS_KHR, 0, 0};
    cl_command_buffer_khr cb = khr.create(1, &h->queue, none, &err);
    CHECK_OK(err);

    /* queries */
    cl_uint count = 0;
    CHECK_OK(khr.info(cb, CL_COMMAND_BUFFER_NUM_QUEUES_KHR, sizeof count, &count, NULL));
    CHECK_EQ(count, 1);
    cl_command_queue queue = NULL;
    CHECK_OK(khr.info(cb, CL_COMMAND_BUFFER_QUEUES_KHR, sizeof queue, &queue, NULL));
    CHECK(queue == h->queue);
    cl_context context = NULL;
    CHECK_OK(khr.info(cb, CL_COMMAND_BUFFER_CONTEXT_KHR, sizeof context, &context, NULL));
    CHECK(context == h->context);
    cl_command_buffer_properties_khr props[4] = {9, 9, 9, 9};
    CHECK_OK(khr.info(cb, CL_COMMAND_BUFFER_PROPERTIES_ARRAY_KHR, sizeof props, props, &size));
    CHECK(size == 3 * sizeof props[0] && props[0] == CL_COMMAND_BUFFER_FLAGS_KHR && props[1] == 0 &&
          props[2] == 0);
    CHECK_OK(khr.retain(cb));
    CHECK_OK(khr.info(cb, CL_COMMAND_BUFFER_REFERENCE_COUNT_KHR, sizeof count, &count, NULL));
    CHECK_EQ(count, 2);
    CHECK_OK(khr.release(cb));
    cl_command_buffer_state_khr state = 9;
    CHECK_OK(khr.info(cb, CL_COMMAND_BUFFER_STATE_KHR, sizeof state, &state, NULL));
    CHECK_EQ(state, CL_COMMAND_BUFFER_STATE_RECORDING_KHR);
    CHECK_ERR(khr.info(cb, CL_COMMAND_BUFFER_STATE_KHR, 1, &state, NULL), CL_INVALID_VALUE);
    CHECK_ERR(khr.info(cb, 0x4242, sizeof state, &state, NULL), CL_INVALID_VALUE);
    CHECK_ERR(khr.info(NULL, CL_COMMAND_BUFFER_STATE_KHR, sizeof state, &state, NULL),
              CL_INVALID_COMMAND_BUFFER_KHR);

    /* recording */
    cl_mem buffer = harness_buffer(h, CL_MEM_READ_WRITE, 256, NULL);
    int pattern = 1;
    cl_sync_point_khr point = 0, bogus = 77;
    CHECK_ERR(khr.fill(NULL, NULL, NULL, buffer, &pattern, 4, 0, 256, 0, NULL, NULL, NULL),
              CL_INVALID_COMMAND_BUFFER_KHR);
    CHECK_ERR(khr.fill(cb, h->queue, NULL, buffer, &pattern, 4, 0, 256, 0, NULL, NULL, NULL),
              CL_INVALID_COMMAND_QUEUE);
    void *handle = NULL;
    CHECK_ERR(khr.fill(cb, NULL, NULL, buffer, &pattern, 4, 0, 256, 0, NULL, NULL, (void *)&handle),
              CL_INVALID_VALUE);
    command_props bad_props[] = {0x1234, 1, 0};
    CHECK_ERR(khr.fill(cb, NULL, bad_props, buffer, &pattern, 4, 0, 256, 0, NULL, NULL, NULL),
              CL_INVALID_VALUE);
    CHECK_ERR(khr.fill(cb, NULL, NULL, buffer, &pattern, 4, 0, 256, 1, NULL, NULL, NULL),
              CL_INVALID_SYNC_POINT_WAIT_LIST_KHR);
    CHECK_ERR(khr.fill(cb, NULL, NULL, buffer, &pattern, 4, 0, 256, 1, &bogus, NULL, NULL),
              CL_INVALID_SYNC_POINT_WAIT_LIST_KHR);
    /* the enqueue's own errors */
    CHECK_ERR(khr.fill(cb, NULL, NULL, buffer, &pattern, 4, 0, 512, 0, NULL, NULL, NULL),
              CL_INVALID_VALUE);
    CHECK_ERR(khr.fill(cb, NULL, NULL, NULL, &pattern, 4, 0, 256, 0, NULL, NULL, NULL),
              CL_INVALID_MEM_OBJECT);
    CHECK_ERR(khr.copy(cb, NULL, NULL, buffer, buffer, 0, 8, 16, 0, NULL, NULL, NULL),
              CL_MEM_COPY_OVERLAP);
    cl_program program = clCreateProgramWithSource(h->context, 1, &source, NULL, &err);
    CHECK_OK(clBuildProgram(program, 1, &h->device, NULL, NULL, NULL));
    cl_kernel unset = clCreateKernel(program, "scale", &err);
    size_t global = 64;
    CHECK_ERR(khr.ndrange(cb, NULL, NULL, unset, 1, NULL, &global, NULL, 0, NULL, NULL, NULL),
              CL_INVALID_KERNEL_ARGS);
    CHECK_ERR(khr.ndrange(cb, NULL, NULL, scale, 4, NULL, &global, NULL, 0, NULL, NULL, NULL),
              CL_INVALID_WORK_DIMENSION);
    cl_context other = clCreateContext(NULL, 1, &h->device, NULL, NULL, &err);
    cl_mem foreign = clCreateBuffer(other, CL_MEM_READ_WRITE, 256, NULL, &err);
    CHECK_ERR(khr.copy(cb, NULL, NULL, buffer, foreign, 0, 0, 16, 0, NULL, NULL, NULL),
              CL_INVALID_CONTEXT);
    CHECK_OK(khr.fill(cb, NULL, NULL, buffer, &pattern, 4, 0, 256, 0, NULL, &point, NULL));
    CHECK(point != 0);
    CHECK_OK(khr.barrier(cb, NULL, NULL, 1, &point, NULL, NULL));
    CHECK_ERR(khr.enqueue(0, NULL, cb, 0, NULL, NULL), CL_INVALID_OPERATION);

    /* finalized */
    CHECK_OK(khr.finalize(cb));
    CHECK_ERR(khr.finalize(cb), CL_INVALID_OPERATION);
    CHECK_ERR(khr.fill(cb, NULL, NULL, buffer, &pattern, 4, 0, 256, 0, NULL, NULL, NULL),
              CL_INVALID_OPERATION);
    CHECK_OK(khr.info(cb, CL_COMMAND_BUFFER_STATE_KHR, sizeof state, &state, NULL));
    CHECK_EQ(state, CL_COMMAND_BUFFER_STATE_EXECUTABLE_KHR);

    /* running */
    CHECK_ERR(khr.enqueue(0, NULL, NULL, 0, NULL, NULL), CL_INVALID_COMMAND_BUFFER_KHR);
    CHECK_ERR(khr.enqueue(1, NULL, cb, 0, NULL, NULL), CL_INVALID_VALUE);
    CHECK_ERR(khr.enqueue(0, two, cb, 0, NULL, NULL), CL_INVALID_VALUE);
    CHECK_ERR(khr.enqueue(2, two, cb, 0, NULL, NULL), CL_INVALID_VALUE);
    CHECK_ERR(khr.enqueue(1, &bad_queue, cb, 0, NULL, NULL), CL_INVALID_COMMAND_QUEUE);
    cl_command_queue other_queue = clCreateCommandQueueWithProperties(other, h->device, NULL, &err);
    CHECK_ERR(khr.enqueue(1, &other_queue, cb, 0, NULL, NULL), CL_INVALID_CONTEXT);
    cl_event foreign_event = clCreateUserEvent(other, &err);
    CHECK_ERR(khr.enqueue(0, NULL, cb, 1, &foreign_event, NULL), CL_INVALID_CONTEXT);
    CHECK_ERR(khr.enqueue(0, NULL, cb, 1, NULL, NULL), CL_INVALID_EVENT_WAIT_LIST);
    unsigned char bytes[256];
    CHECK_OK(khr.enqueue(0, NULL, cb, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(h->queue, buffer, CL_TRUE, 0, sizeof bytes, bytes, 0, NULL, NULL));
    CHECK(bytes[0] == 1 && bytes[252] == 1 && bytes[1] == 0);

    CHECK_OK(khr.release(cb));
    CHECK_ERR(khr.release(cb), CL_INVALID_COMMAND_BUFFER_KHR);
    CHECK_ERR(khr.retain(NULL), CL_INVALID_COMMAND_BUFFER_KHR);
    clSetUserEventStatus(foreign_event, CL_COMPLETE);
    clReleaseEvent(foreign_event);
    clReleaseCommandQueue(other_queue);
    clReleaseMemObject(foreign);
    clReleaseContext(other);
    clReleaseKernel(unset);
    clReleaseProgram(program);
    clReleaseMemObject(buffer);
}

int main(void)
{
    struct harness h = harness_open();
    CHECK(harness_has_extension(&h, "cl_khr_command_buffer"));
    find_command_buffer_functions(h.platform);
    cl_program program = harness_build(&h, source, NULL);
    REQUIRE(program);
    cl_kernel scale = harness_kernel(program, "scale");
    cl_kernel add_one = harness_kernel(program, "add_one");
    cl_kernel slow_set = harness_kernel(program, "slow_set");
    test_in_order(&h, scale);
    test_out_of_order(&h, slow_set, add_one);
    test_device_enqueue(&h);
    test_threads(&h);
    test_queries_and_errors(&h, scale);
    clReleaseKernel(scale);
    clReleaseKernel(add_one);
    clReleaseKernel(slow_set);
    clReleaseProgram(program);
    harness_close(&h);
    return harness_finish();
}
