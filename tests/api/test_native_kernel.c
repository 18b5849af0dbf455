/* test_native_kernel.c - clEnqueueNativeKernel (API spec 5.10): the
 * argument block is copied at enqueue, memory objects in it become
 * pointers to their bytes, the function runs in order with kernels, and
 * bad arguments get the spec's errors. */
#include "../harness.h"

struct native_args {
    cl_mem in;   /* a pointer to the buffer's bytes when the function runs */
    cl_mem out;
    int count;
    int scale;
};

static void CL_CALLBACK scale_into(void *p)
{
    struct native_args *a = p;
    const int *in = (const int *)a->in;
    int *out = (int *)a->out;
    for (int i = 0; i < a->count; i++)
        out[i] = in[i] * a->scale;
}

static int calls;
static void CL_CALLBACK count_call(void *p)
{
    (void)p;
    calls++;
}

int main(void)
{
    struct harness h = harness_open();
    cl_device_exec_capabilities caps = 0;
    CHECK_OK(clGetDeviceInfo(h.device, CL_DEVICE_EXECUTION_CAPABILITIES, sizeof caps, &caps,
                             NULL));
    REQUIRE(caps & CL_EXEC_NATIVE_KERNEL);

    enum { N = 1000 };
    int in[N], out[N];
    for (int i = 0; i < N; i++)
        in[i] = i - 300;
    cl_mem din = harness_buffer(&h, CL_MEM_READ_ONLY, sizeof in, in);
    cl_mem dout = harness_buffer(&h, CL_MEM_READ_WRITE, sizeof out, NULL);
    /* a kernel first, in order: the native function reads what it wrote */
    cl_program program =
        harness_build(&h, "kernel void add1(global int *p) { p[get_global_id(0)] += 1; }\n", "");
    cl_kernel k = harness_kernel(program, "add1");
    CHECK_OK(clSetKernelArg(k, 0, sizeof din, &din));
    size_t global = N;
    CHECK_OK(clEnqueueNDRangeKernel(h.queue, k, 1, NULL, &global, NULL, 0, NULL, NULL));

    struct native_args args = {din, dout, N, 3};
    cl_mem mems[2] = {din, dout};
    const void *locations[2] = {&args.in, &args.out};
    cl_event done;
    CHECK_OK(clEnqueueNativeKernel(h.queue, scale_into, &args, sizeof args, 2, mems, locations, 0,
                                   NULL, &done));
    /* the block was copied: changing it now changes nothing */
    args.scale = 1000;
    CHECK_OK(clEnqueueReadBuffer(h.queue, dout, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
    int bad = 0;
    for (int i = 0; i < N; i++)
        bad += out[i] != (in[i] + 1) * 3;
    CHECK(bad == 0);
    cl_command_type type = 0;
    CHECK_OK(clGetEventInfo(done, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL));
    CHECK(type == CL_COMMAND_NATIVE_KERNEL);
    clReleaseEvent(done);

    /* no arguments at all */
    CHECK_OK(clEnqueueNativeKernel(h.queue, count_call, NULL, 0, 0, NULL, NULL, 0, NULL, NULL));
    CHECK_OK(clFinish(h.queue));
    CHECK(calls == 1);

    /* errors, 5.10 */
    CHECK_ERR(clEnqueueNativeKernel(NULL, count_call, NULL, 0, 0, NULL, NULL, 0, NULL, NULL),
              CL_INVALID_COMMAND_QUEUE);
    CHECK_ERR(clEnqueueNativeKernel(h.queue, NULL, NULL, 0, 0, NULL, NULL, 0, NULL, NULL),
              CL_INVALID_VALUE);
    CHECK_ERR(clEnqueueNativeKernel(h.queue, count_call, NULL, 8, 0, NULL, NULL, 0, NULL, NULL),
              CL_INVALID_VALUE);
    CHECK_ERR(clEnqueueNativeKernel(h.queue, count_call, &args, 0, 0, NULL, NULL, 0, NULL, NULL),
              CL_INVALID_VALUE);
    CHECK_ERR(clEnqueueNativeKernel(h.queue, scale_into, &args, sizeof args, 2, NULL, locations, 0,
                                    NULL, NULL),
              CL_INVALID_VALUE);
    CHECK_ERR(clEnqueueNativeKernel(h.queue, scale_into, &args, sizeof args, 0, mems, NULL, 0,
                                    NULL, NULL),
              CL_INVALID_VALUE);
    cl_mem bad_mems[2] = {din, (cl_mem)&args};
    CHECK_ERR(clEnqueueNativeKernel(h.queue, scale_into, &args, sizeof args, 2, bad_mems,
                                    locations, 0, NULL, NULL),
              CL_INVALID_MEM_OBJECT);
    const void *outside[2] = {&args.in, &args + 1};
    CHECK_ERR(clEnqueueNativeKernel(h.queue, scale_into, &args, sizeof args, 2, mems, outside, 0,
                                    NULL, NULL),
              CL_INVALID_VALUE);
    cl_event null_event = NULL;
    CHECK_ERR(clEnqueueNativeKernel(h.queue, count_call, NULL, 0, 0, NULL, NULL, 1, &null_event,
                                    NULL),
              CL_INVALID_EVENT_WAIT_LIST);
    CHECK_OK(clFinish(h.queue));
    CHECK(calls == 1);

    clReleaseKernel(k);
    clReleaseProgram(program);
    clReleaseMemObject(din), clReleaseMemObject(dout);
    harness_close(&h);
    return harness_finish();
}
