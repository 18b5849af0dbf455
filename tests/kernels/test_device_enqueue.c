/* test_device_enqueue.c - kernels that enqueue kernels (OpenCL C 2.0
 * 6.13.17) on on-device queues (API spec 5.1): blocks with captures, local
 * memory arguments, events and markers between children, nested enqueues,
 * 2D ranges with offsets, queue_t arguments, the kernel queries, the return
 * codes of bad requests, profiling of parents and children, and the host
 * side of on-device queues. Every result is computed on the host too. */
#include "../harness.h"

static const char *source =
    /* one work-item enqueues a child over 1000 work-items */
    "kernel void fill(global int *out, int scale)\n"
    "{\n"
    "    if (get_global_id(0) == 0) {\n"
    "        void (^blk)(void) = ^{ out[get_global_id(0)] = (int)get_global_id(0) * scale; };\n"
    "        out[1000] = enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_WAIT_KERNEL,\n"
    "                                   ndrange_1D(1000, 10), blk);\n"
    "    }\n"
    "}\n"
    /* every work-item enqueues one child; the runtime picks its local size */
    "kernel void each(global int *out, global int *codes)\n"
    "{\n"
    "    int i = (int)get_global_id(0);\n"
    "    codes[i] = enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_NO_WAIT,\n"
    "                              ndrange_1D(16),\n"
    "                              ^{ out[i * 16 + get_global_id(0)] = i * 100 + "
    "(int)get_global_id(0); });\n"
    "}\n"
    /* __local arguments: a child sums its group in local memory */
    "kernel void group_sums(global const int *in, global int *sums, int n)\n"
    "{\n"
    "    void (^sum)(local void *) = ^(local void *scratch) {\n"
    "        local int *s = (local int *)scratch;\n"
    "        size_t l = get_local_id(0);\n"
    "        s[l] = in[get_global_id(0)];\n"
    "        barrier(CLK_LOCAL_MEM_FENCE);\n"
    "        for (size_t w = get_local_size(0) / 2; w > 0; w /= 2) {\n"
    "            if (l < w) s[l] += s[l + w];\n"
    "            barrier(CLK_LOCAL_MEM_FENCE);\n"
    "        }\n"
    "        if (l == 0) sums[get_group_id(0)] = s[0];\n"
    "    };\n"
    "    if (get_global_id(0) == 0)\n"
    "        sums[n / 64] = enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_WAIT_KERNEL,\n"
    "                                      ndrange_1D((size_t)n, 64), sum, 64u * sizeof(int));\n"
    "}\n"
    /* events: b waits for a; a marker waits for both */
    "kernel void chain(global int *data, global int *codes)\n"
    "{\n"
    "    queue_t q = get_default_queue();\n"
    "    clk_event_t a, b, m;\n"
    "    codes[0] = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(256), 0, NULL, &a,\n"
    "                              ^{ data[get_global_id(0)] = (int)get_global_id(0) + 1; });\n"
    "    codes[1] = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(256), 1, &a, &b,\n"
    "                              ^{ data[256 + get_global_id(0)] = data[255 - get_global_id(0)] "
    "* 2; });\n"
    "    clk_event_t both[2] = {a, b};\n"
    "    codes[2] = enqueue_marker(q, 2, both, &m);\n"
    "    codes[3] = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), 1, &m, NULL,\n"
    "                              ^{ int s = 0; for (int i = 0; i < 512; i++) s += data[i]; "
    "data[512] = s; });\n"
    "    codes[4] = is_valid_event(a) && is_valid_event(m) ? 1 : 0;\n"
    "    release_event(a); release_event(b); release_event(m);\n"
    "}\n"
    /* a child that enqueues a grandchild, three levels deep */
    "void level(queue_t q, global int *out, int depth)\n"
    "{\n"
    "    out[depth * 8 + get_global_id(0)] = depth * 10 + (int)get_global_id(0);\n"
    "    if (depth < 3 && get_global_id(0) == 0)\n"
    "        enqueue_kernel(q, CLK_ENQUEUE_FLAGS_WAIT_KERNEL, ndrange_1D(8),\n"
    "                       ^{ level(q, out, depth + 1); });\n"
    "}\n"
    "kernel void nested(queue_t q, global int *out)\n"
    "{\n"
    "    level(q, out, 0);\n"
    "}\n"
    /* a 2D range with an offset and local size */
    "kernel void range2d(global int *out, global uint *query)\n"
    "{\n"
    "    size_t offset[2] = {3, 5}, global_size[2] = {12, 6}, local_size[2] = {4, 3};\n"
    "    void (^blk)(void) = ^{\n"
    "        size_t x = get_global_id(0) - 3, y = get_global_id(1) - 5;\n"
    "        out[y * 12 + x] = (int)(get_group_id(0) * 100 + get_group_id(1) * 10 +\n"
    "                                get_local_id(0) + get_num_groups(0) * 1000);\n"
    "    };\n"
    "    query[0] = enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_WAIT_WORK_GROUP,\n"
    "                              ndrange_2D(offset, global_size, local_size), blk);\n"
    "    query[1] = get_kernel_work_group_size(blk);\n"
    "    query[2] = get_kernel_preferred_work_group_size_multiple(blk);\n"
    "}\n"
    /* bad requests and their codes */
    "kernel void bad(global int *codes)\n"
    "{\n"
    "    queue_t q = get_default_queue();\n"
    "    void (^nothing)(void) = ^{};\n"
    "    codes[0] = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(0), nothing);\n"
    "    codes[1] = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(10, 5000), nothing);\n"
    "    clk_event_t e;\n"
    "    codes[2] = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(4), 1, NULL, &e, "
    "nothing);\n"
    "    codes[3] = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(4),\n"
    "                              ^(local void *p){}, 0u);\n"
    "    codes[4] = enqueue_marker(q, 0, NULL, &e);\n"
    "}\n"
    /* profiling of a child from its event */
    "kernel void timed(global ulong *times, global int *out)\n"
    "{\n"
    "    clk_event_t e;\n"
    "    enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(4096), 0, NULL, "
    "&e,\n"
    "                   ^{ int s = 0; for (int i = 0; i < 1000; i++) s += i ^ "
    "(int)get_global_id(0);\n"
    "                      out[get_global_id(0)] = s; });\n"
    "    capture_event_profiling_info(e, CLK_PROFILING_COMMAND_EXEC_TIME, times);\n"
    "    release_event(e);\n"
    "}\n"
    /* a user event made and completed on the device */
    "kernel void user(global int *out)\n"
    "{\n"
    "    clk_event_t u = create_user_event(), done;\n"
    "    enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), 1, &u, "
    "&done,\n"
    "                   ^{ out[0] = 42; });\n"
    "    out[1] = is_valid_event(u);\n"
    "    set_user_event_status(u, CL_COMPLETE);\n"
    "    release_event(u); release_event(done);\n"
    "}\n";

static cl_mem buffer(struct harness *h, size_t size, const void *data)
{
    cl_int err;
    cl_mem mem = clCreateBuffer(h->context, CL_MEM_READ_WRITE | (data ? CL_MEM_COPY_HOST_PTR : 0),
                                size, (void *)data, &err);
    REQUIRE(err == CL_SUCCESS);
    return mem;
}

static void run(struct harness *h, cl_kernel kernel, size_t global, size_t local)
{
    CHECK_OK(clEnqueueNDRangeKernel(h->queue, kernel, 1, NULL, &global, local ? &local : NULL, 0,
                                    NULL, NULL));
    CHECK_OK(clFinish(h->queue));
}

static void read(struct harness *h, cl_mem mem, size_t size, void *out)
{
    CHECK_OK(clEnqueueReadBuffer(h->queue, mem, CL_TRUE, 0, size, out, 0, NULL, NULL));
}

static void test_fill(struct harness *h, cl_program program)
{
    cl_kernel k = harness_kernel(program, "fill");
    cl_mem out = buffer(h, 1001 * sizeof(int), NULL);
    int scale = 7, result[1001];
    clSetKernelArg(k, 0, sizeof out, &out);
    clSetKernelArg(k, 1, sizeof scale, &scale);
    run(h, k, 64, 16);
    read(h, out, sizeof result, result);
    int bad = 0;
    for (int i = 0; i < 1000; i++)
        bad += result[i] != i * scale;
    CHECK_NONE_WRONG(bad, "child fill");
    CHECK_EQ(result[1000], 0); /* CLK_SUCCESS */
    clReleaseMemObject(out);
    clReleaseKernel(k);
}

static void test_each(struct harness *h, cl_program program)
{
    enum { PARENTS = 200 };
    cl_kernel k = harness_kernel(program, "each");
    cl_mem out = buffer(h, PARENTS * 16 * sizeof(int), NULL);
    cl_mem codes = buffer(h, PARENTS * sizeof(int), NULL);
    clSetKernelArg(k, 0, sizeof out, &out);
    clSetKernelArg(k, 1, sizeof codes, &codes);
    run(h, k, PARENTS, 8);
    int result[PARENTS * 16], code[PARENTS], bad = 0, bad_codes = 0;
    read(h, out, sizeof result, result);
    read(h, codes, sizeof code, code);
    for (int i = 0; i < PARENTS; i++) {
        bad_codes += code[i] != 0;
        for (int j = 0; j < 16; j++)
            bad += result[i * 16 + j] != i * 100 + j;
    }
    CHECK_NONE_WRONG(bad_codes, "codes of 200 enqueues");
    CHECK_NONE_WRONG(bad, "200 children");
    clReleaseMemObject(out);
    clReleaseMemObject(codes);
    clReleaseKernel(k);
}

static void test_local_args(struct harness *h, cl_program program)
{
    enum { N = 64 * 40 };
    cl_kernel k = harness_kernel(program, "group_sums");
    int in[N], n = N;
    for (int i = 0; i < N; i++)
        in[i] = (i * 37) % 101 - 50;
    cl_mem input = buffer(h, sizeof in, in);
    cl_mem sums = buffer(h, (N / 64 + 1) * sizeof(int), NULL);
    clSetKernelArg(k, 0, sizeof input, &input);
    clSetKernelArg(k, 1, sizeof sums, &sums);
    clSetKernelArg(k, 2, sizeof n, &n);
    run(h, k, 1, 1);
    int result[N / 64 + 1], bad = 0;
    read(h, sums, sizeof result, result);
    for (int g = 0; g < N / 64; g++) {
        int want = 0;
        for (int i = 0; i < 64; i++)
            want += in[g * 64 + i];
        bad += result[g] != want;
    }
    CHECK_EQ(result[N / 64], 0);
    CHECK_NONE_WRONG(bad, "group sums through a __local block argument");
    clReleaseMemObject(input);
    clReleaseMemObject(sums);
    clReleaseKernel(k);
}

static void test_events(struct harness *h, cl_program program)
{
    cl_kernel k = harness_kernel(program, "chain");
    cl_mem data = buffer(h, 513 * sizeof(int), NULL);
    cl_mem codes = buffer(h, 5 * sizeof(int), NULL);
    clSetKernelArg(k, 0, sizeof data, &data);
    clSetKernelArg(k, 1, sizeof codes, &codes);
    run(h, k, 1, 1);
    int result[513], code[5], bad = 0, sum = 0;
    read(h, data, sizeof result, result);
    read(h, codes, sizeof code, code);
    for (int i = 0; i < 256; i++) {
        bad += result[i] != i + 1;
        bad += result[256 + i] != (256 - i) * 2;
        sum += (i + 1) + (256 - i) * 2;
    }
    CHECK_NONE_WRONG(bad, "a child waiting for another child's event");
    CHECK_EQ(result[512], sum);
    for (int i = 0; i < 4; i++)
        CHECK_EQ(code[i], 0);
    CHECK_EQ(code[4], 1);
    clReleaseMemObject(data);
    clReleaseMemObject(codes);
    clReleaseKernel(k);
}

static void test_nested(struct harness *h, cl_program program, cl_command_queue device_queue)
{
    cl_kernel k = harness_kernel(program, "nested");
    cl_mem out = buffer(h, 32 * sizeof(int), NULL);
    CHECK_OK(clSetKernelArg(k, 0, sizeof device_queue, &device_queue));
    CHECK_OK(clSetKernelArg(k, 1, sizeof out, &out));
    /* 5.9.2: a host queue is no queue_t */
    CHECK_ERR(clSetKernelArg(k, 0, sizeof h->queue, &h->queue), CL_INVALID_DEVICE_QUEUE);
    cl_event done;
    size_t global = 8;
    CHECK_OK(clEnqueueNDRangeKernel(h->queue, k, 1, NULL, &global, NULL, 0, NULL, &done));
    /* the parent's event completes only after its grandchildren */
    CHECK_OK(clWaitForEvents(1, &done));
    int result[32], bad = 0;
    CHECK_OK(clEnqueueReadBuffer(h->queue, out, CL_TRUE, 0, sizeof result, result, 0, NULL, NULL));
    for (int depth = 0; depth < 4; depth++)
        for (int i = 0; i < 8; i++)
            bad += result[depth * 8 + i] != depth * 10 + i;
    CHECK_NONE_WRONG(bad, "three levels of children");
    clReleaseEvent(done);
    clReleaseMemObject(out);
    clReleaseKernel(k);
}

static void test_range2d(struct harness *h, cl_program program)
{
    cl_kernel k = harness_kernel(program, "range2d");
    cl_mem out = buffer(h, 72 * sizeof(int), NULL);
    cl_mem query = buffer(h, 3 * sizeof(cl_uint), NULL);
    clSetKernelArg(k, 0, sizeof out, &out);
    clSetKernelArg(k, 1, sizeof query, &query);
    run(h, k, 1, 1);
    int result[72], bad = 0;
    cl_uint q[3];
    read(h, out, sizeof result, result);
    read(h, query, sizeof q, q);
    for (int y = 0; y < 6; y++)
        for (int x = 0; x < 12; x++)
            bad += result[y * 12 + x] != (x / 4) * 100 + (y / 3) * 10 + x % 4 + 3 * 1000;
    CHECK_EQ(q[0], 0);
    CHECK_NONE_WRONG(bad, "2D child with an offset");
    size_t wg_size, multiple;
    clGetKernelWorkGroupInfo(k, h->device, CL_KERNEL_WORK_GROUP_SIZE, sizeof wg_size, &wg_size,
                             NULL);
    clGetKernelWorkGroupInfo(k, h->device, CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE,
                             sizeof multiple, &multiple, NULL);
    CHECK_EQ(q[1], wg_size);
    CHECK_EQ(q[2], multiple);
    clReleaseMemObject(out);
    clReleaseMemObject(query);
    clReleaseKernel(k);
}

static void test_bad_requests(struct harness *h, cl_program program)
{
    cl_kernel k = harness_kernel(program, "bad");
    cl_mem codes = buffer(h, 5 * sizeof(int), NULL);
    clSetKernelArg(k, 0, sizeof codes, &codes);
    run(h, k, 1, 1);
    int code[5];
    read(h, codes, sizeof code, code);
    CHECK_EQ(code[0], -160); /* CLK_INVALID_NDRANGE: an empty range */
    CHECK_EQ(code[1], -160); /* a group larger than the device's */
    CHECK_EQ(code[2], -57);  /* CLK_INVALID_EVENT_WAIT_LIST */
    CHECK_EQ(code[3], -51);  /* CLK_INVALID_ARG_SIZE: a __local size of 0 */
    CHECK_EQ(code[4], -57);  /* a marker waiting for nothing */
    clReleaseMemObject(codes);
    clReleaseKernel(k);
}

static void test_profiling(struct harness *h, cl_program program)
{
    cl_int err;
    cl_queue_properties host_props[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
    cl_command_queue queue =
        clCreateCommandQueueWithProperties(h->context, h->device, host_props, &err);
    CHECK_OK(err);
    cl_kernel k = harness_kernel(program, "timed");
    cl_mem times = buffer(h, 2 * sizeof(cl_ulong), NULL);
    cl_mem out = buffer(h, 4096 * sizeof(int), NULL);
    cl_ulong zero[2] = {0, 0};
    CHECK_OK(clEnqueueWriteBuffer(queue, times, CL_TRUE, 0, sizeof zero, zero, 0, NULL, NULL));
    clSetKernelArg(k, 0, sizeof times, &times);
    clSetKernelArg(k, 1, sizeof out, &out);
    cl_event done;
    size_t one = 1;
    CHECK_OK(clEnqueueNDRangeKernel(queue, k, 1, NULL, &one, NULL, 0, NULL, &done));
    CHECK_OK(clFinish(queue));
    cl_ulong end = 0, complete = 0, value[2];
    CHECK_OK(clGetEventProfilingInfo(done, CL_PROFILING_COMMAND_END, sizeof end, &end, NULL));
    CHECK_OK(clGetEventProfilingInfo(done, CL_PROFILING_COMMAND_COMPLETE, sizeof complete,
                                     &complete, NULL));
    CHECK(end <= complete);
    CHECK_OK(clEnqueueReadBuffer(queue, times, CL_TRUE, 0, sizeof value, value, 0, NULL, NULL));
    /* the device queue profiles (it was made with CL_QUEUE_PROFILING_ENABLE) */
    CHECK(value[0] > 0 && value[0] <= value[1]);
    int result[4096], bad = 0;
    CHECK_OK(clEnqueueReadBuffer(queue, out, CL_TRUE, 0, sizeof result, result, 0, NULL, NULL));
    for (int g = 0; g < 4096; g++) {
        int s = 0;
        for (int i = 0; i < 1000; i++)
            s += i ^ g;
        bad += result[g] != s;
    }
    CHECK_NONE_WRONG(bad, "timed child");
    clReleaseEvent(done);
    clReleaseMemObject(times);
    clReleaseMemObject(out);
    clReleaseKernel(k);
    clReleaseCommandQueue(queue);
}

static void test_user_event(struct harness *h, cl_program program)
{
    cl_kernel k = harness_kernel(program, "user");
    int init[2] = {0, 0}, result[2];
    cl_mem out = buffer(h, sizeof init, init);
    clSetKernelArg(k, 0, sizeof out, &out);
    run(h, k, 1, 1);
    read(h, out, sizeof result, result);
    CHECK_EQ(result[0], 42);
    CHECK_EQ(result[1], 1);
    clReleaseMemObject(out);
    clReleaseKernel(k);
}

/* The same from SPIR-V (tests/data/device_enqueue.cl): the translator
 * gives the block kernels argument metadata and passes the ND-range of
 * enqueue_kernel's basic form by pointer. */
static void test_spirv(struct harness *h)
{
    size_t size;
    unsigned char *il = harness_load_file(CPUCL_TEST_DATA "/device_enqueue.spv", &size);
    cl_int err;
    cl_program program = clCreateProgramWithIL(h->context, il, size, &err);
    free(il);
    CHECK_OK(err);
    CHECK_OK(clBuildProgram(program, 1, &h->device, "", NULL, NULL));
    size_t num_kernels = 0;
    clGetProgramInfo(program, CL_PROGRAM_NUM_KERNELS, sizeof num_kernels, &num_kernels, NULL);
    CHECK_EQ(num_kernels, 2);

    cl_kernel fill = harness_kernel(program, "spv_fill");
    cl_mem out = buffer(h, 1001 * sizeof(int), NULL);
    int scale = 5, result[1001], bad = 0;
    clSetKernelArg(fill, 0, sizeof out, &out);
    clSetKernelArg(fill, 1, sizeof scale, &scale);
    run(h, fill, 4, 4);
    read(h, out, sizeof result, result);
    for (int i = 0; i < 1000; i++)
        bad += result[i] != i * scale;
    CHECK_NONE_WRONG(bad, "SPIR-V child");
    CHECK_EQ(result[1000], 0);

    cl_kernel sums = harness_kernel(program, "spv_sums");
    int in[256], total[67];
    for (int i = 0; i < 256; i++)
        in[i] = i * 3 - 100;
    cl_mem input = buffer(h, sizeof in, in);
    cl_mem output = buffer(h, sizeof total, NULL);
    clSetKernelArg(sums, 0, sizeof input, &input);
    clSetKernelArg(sums, 1, sizeof output, &output);
    run(h, sums, 1, 1);
    read(h, output, sizeof total, total);
    int all = 0;
    bad = 0;
    for (int g = 0; g < 4; g++) {
        int want = 0;
        for (int i = 0; i < 64; i++)
            want += in[g * 64 + i];
        bad += total[g] != want;
        all += want;
    }
    CHECK_NONE_WRONG(bad, "SPIR-V child with a __local argument");
    CHECK_EQ(total[64], 0);
    CHECK_EQ(total[65], 0);
    CHECK_EQ(total[66], all);
    clReleaseMemObject(input);
    clReleaseMemObject(output);
    clReleaseMemObject(out);
    clReleaseKernel(fill);
    clReleaseKernel(sums);
    clReleaseProgram(program);
}

/* The host side: creation rules, queries, defaults (API spec 5.1). */
static void test_queues(struct harness *h, cl_command_queue default_queue)
{
    cl_int err;
    cl_command_queue_properties props = 0;
    CHECK_OK(clGetDeviceInfo(h->device, CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES, sizeof props, &props,
                             NULL));
    CHECK(props & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
    cl_uint max_size = 0, preferred = 0;
    clGetDeviceInfo(h->device, CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE, sizeof max_size, &max_size,
                    NULL);
    clGetDeviceInfo(h->device, CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE, sizeof preferred,
                    &preferred, NULL);
    CHECK(preferred > 0 && preferred <= max_size);

    cl_queue_properties in_order[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_ON_DEVICE, 0};
    CHECK_FAILS(clCreateCommandQueueWithProperties(h->context, h->device, in_order, &err), err,
                CL_INVALID_VALUE);
    cl_queue_properties default_only[] = {
        CL_QUEUE_PROPERTIES, CL_QUEUE_ON_DEVICE_DEFAULT | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE,
        0};
    CHECK_FAILS(clCreateCommandQueueWithProperties(h->context, h->device, default_only, &err), err,
                CL_INVALID_VALUE);
    cl_queue_properties too_big[] = {CL_QUEUE_PROPERTIES,
                                     CL_QUEUE_ON_DEVICE | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE,
                                     CL_QUEUE_SIZE, (cl_queue_properties)max_size + 1, 0};
    CHECK_FAILS(clCreateCommandQueueWithProperties(h->context, h->device, too_big, &err), err,
                CL_INVALID_VALUE);
    CHECK_FAILS(clCreateCommandQueue(h->context, h->device,
                                     CL_QUEUE_ON_DEVICE | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE,
                                     &err),
                err, CL_INVALID_VALUE);

    /* asking for the default again returns it */
    cl_queue_properties as_default[] = {CL_QUEUE_PROPERTIES,
                                        CL_QUEUE_ON_DEVICE | CL_QUEUE_ON_DEVICE_DEFAULT |
                                            CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE,
                                        0};
    cl_command_queue again =
        clCreateCommandQueueWithProperties(h->context, h->device, as_default, &err);
    CHECK_OK(err);
    CHECK(again == default_queue);
    clReleaseCommandQueue(again);

    cl_queue_properties sized[] = {CL_QUEUE_PROPERTIES,
                                   CL_QUEUE_ON_DEVICE | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE,
                                   CL_QUEUE_SIZE, 4096, 0};
    cl_command_queue other = clCreateCommandQueueWithProperties(h->context, h->device, sized, &err);
    CHECK_OK(err);
    cl_uint size = 0;
    CHECK_OK(clGetCommandQueueInfo(other, CL_QUEUE_SIZE, sizeof size, &size, NULL));
    CHECK_EQ(size, 4096);
    CHECK_ERR(clGetCommandQueueInfo(h->queue, CL_QUEUE_SIZE, sizeof size, &size, NULL),
              CL_INVALID_COMMAND_QUEUE);
    cl_command_queue current = NULL;
    CHECK_OK(
        clGetCommandQueueInfo(h->queue, CL_QUEUE_DEVICE_DEFAULT, sizeof current, &current, NULL));
    CHECK(current == default_queue);
    CHECK_OK(clSetDefaultDeviceCommandQueue(h->context, h->device, other));
    CHECK_OK(clGetCommandQueueInfo(other, CL_QUEUE_DEVICE_DEFAULT, sizeof current, &current, NULL));
    CHECK(current == other);
    CHECK_ERR(clSetDefaultDeviceCommandQueue(h->context, h->device, h->queue),
              CL_INVALID_COMMAND_QUEUE);
    CHECK_OK(clSetDefaultDeviceCommandQueue(h->context, h->device, default_queue));

    /* the host enqueues nothing on a device queue */
    int value = 0;
    cl_mem mem = buffer(h, sizeof value, NULL);
    CHECK_ERR(clEnqueueWriteBuffer(other, mem, CL_TRUE, 0, sizeof value, &value, 0, NULL, NULL),
              CL_INVALID_COMMAND_QUEUE);
    CHECK_ERR(clFinish(other), CL_INVALID_COMMAND_QUEUE);
    clReleaseMemObject(mem);
    CHECK_OK(clReleaseCommandQueue(other));
}

int main(void)
{
    struct harness h = harness_open();
    cl_int err;
    cl_queue_properties props[] = {CL_QUEUE_PROPERTIES,
                                   CL_QUEUE_ON_DEVICE | CL_QUEUE_ON_DEVICE_DEFAULT |
                                       CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE |
                                       CL_QUEUE_PROFILING_ENABLE,
                                   0};
    cl_command_queue device_queue =
        clCreateCommandQueueWithProperties(h.context, h.device, props, &err);
    REQUIRE(err == CL_SUCCESS);
    cl_program program = harness_build(&h, source, "-cl-std=CL2.0");
    REQUIRE(program);

    /* blocks are not kernels the application sees */
    size_t num_kernels = 0;
    CHECK_OK(
        clGetProgramInfo(program, CL_PROGRAM_NUM_KERNELS, sizeof num_kernels, &num_kernels, NULL));
    CHECK_EQ(num_kernels, 9);

    test_fill(&h, program);
    test_each(&h, program);
    test_local_args(&h, program);
    test_events(&h, program);
    test_nested(&h, program, device_queue);
    test_range2d(&h, program);
    test_bad_requests(&h, program);
    test_profiling(&h, program);
    test_user_event(&h, program);
    test_queues(&h, device_queue);
    test_spirv(&h);

    clReleaseProgram(program);
    clReleaseCommandQueue(device_queue);
    harness_close(&h);
    return harness_finish();
}
