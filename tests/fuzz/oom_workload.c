/* oom_workload.c - the program tests/fuzz/oom_sweep.sh runs once for each
 * allocation cpucl makes in it, that allocation failing (fail_alloc.c): a
 * context, queue, buffers and a sub-buffer, a program built from source,
 * a kernel with a barrier and __local memory launched behind a user
 * event, a read, a map, an image, a sampler and SVM; an out-of-order
 * queue with a chain of launches, a barrier and a marker; a command-buffer
 * recorded and run twice; device-side enqueue; a pipe; a SPIR-V build
 * (OOM_SPIRV names the module); each released. A
 * call may fail (the out-of-memory error is the spec's answer); the
 * program must neither crash nor hang, and what ran must be right.
 * Exits 0 unless a result is wrong. */
#include <stdio.h>
#include <stdlib.h>

#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <CL/cl_ext.h>

enum { N = 1024, LOCAL = 64 };

static const char *source =
    "kernel void reverse(global const int *a, global int *b, local int *t)\n"
    "{\n"
    "    int l = get_local_id(0);\n"
    "    t[l] = a[get_global_id(0)];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    b[get_global_id(0)] = t[get_local_size(0) - 1 - l] + 1;\n"
    "}\n"
    "kernel void inc(global int *p) { p[get_global_id(0)] += 1; }\n"
    "kernel void parent(global int *p)\n"
    "{\n"
    "    if (get_global_id(0) == 0)\n"
    "        enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(4),\n"
    "                       ^{ p[get_global_id(0)] += 10; });\n"
    "}\n"
    "kernel void to_pipe(write_only pipe int out) { int one = 1; write_pipe(out, &one); }\n";

static void CL_CALLBACK count_event(cl_event event, cl_int status, void *calls)
{
    (void)event, (void)status;
    ++*(int *)calls;
}

/* Launches reverse behind a user event and checks the values read back;
 * returns the number of wrong ones. */
static int run_kernel(cl_context context, cl_command_queue queue, cl_kernel kernel, cl_mem a,
                      cl_mem b, int *calls)
{
    cl_int err;
    clSetKernelArg(kernel, 0, sizeof a, &a);
    clSetKernelArg(kernel, 1, sizeof b, &b);
    clSetKernelArg(kernel, 2, LOCAL * sizeof(int), NULL);
    cl_event gate = clCreateUserEvent(context, &err), done = NULL;
    size_t global = N, local = LOCAL;
    if (clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global, &local, gate ? 1 : 0,
                               gate ? &gate : NULL, &done) == CL_SUCCESS)
        clSetEventCallback(done, CL_COMPLETE, count_event, calls);
    if (gate) {
        clSetUserEventStatus(gate, CL_COMPLETE);
        clReleaseEvent(gate);
    }
    int out[N], wrong = 0;
    cl_int status = -1;
    if (clEnqueueReadBuffer(queue, b, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL) == CL_SUCCESS &&
        done)
        clGetEventInfo(done, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL);
    for (int i = 0; status == CL_COMPLETE && i < N; i++)
        wrong += out[i] != i / LOCAL * LOCAL + LOCAL - 1 - i % LOCAL + 1;
    if (done)
        clReleaseEvent(done);
    void *mapped = clEnqueueMapBuffer(queue, b, CL_TRUE, CL_MAP_READ, 0, 64, 0, NULL, NULL, &err);
    if (mapped)
        clEnqueueUnmapMemObject(queue, b, mapped, 0, NULL, NULL);
    return wrong;
}

/* The out-of-order queue, command-buffer, device-side enqueue and pipe
 * paths; `counts` gets 5 launches of inc, 2 replays of 2 more, and 10
 * from each of 4 children when everything ran (checked by the caller). */
static void run_more(cl_platform_id platform, cl_context context, cl_device_id device,
                     cl_program program, cl_mem counts)
{
    cl_int err;
    cl_queue_properties out_of_order[] = {CL_QUEUE_PROPERTIES,
                                          CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, 0};
    cl_command_queue queue =
        clCreateCommandQueueWithProperties(context, device, out_of_order, &err);
    cl_kernel inc = clCreateKernel(program, "inc", &err);
    size_t global = 64;
    if (queue && inc) {
        clSetKernelArg(inc, 0, sizeof counts, &counts);
        cl_event chain[5];
        int n = 0;
        for (int i = 0; i < 5; i++)
            if (clEnqueueNDRangeKernel(queue, inc, 1, NULL, &global, NULL, n ? 1 : 0,
                                       n ? &chain[n - 1] : NULL, &chain[n]) == CL_SUCCESS)
                n++;
        clEnqueueBarrierWithWaitList(queue, 0, NULL, NULL);
        if (n)
            clEnqueueMarkerWithWaitList(queue, (cl_uint)n, chain, NULL);
        clFinish(queue);
        for (int i = 0; i < n; i++)
            clReleaseEvent(chain[i]);
    }
    cl_command_queue in_order = clCreateCommandQueueWithProperties(context, device, NULL, &err);
    clCreateCommandBufferKHR_fn create =
        (clCreateCommandBufferKHR_fn)clGetExtensionFunctionAddressForPlatform(
            platform, "clCreateCommandBufferKHR");
    clCommandNDRangeKernelKHR_fn record =
        (clCommandNDRangeKernelKHR_fn)clGetExtensionFunctionAddressForPlatform(
            platform, "clCommandNDRangeKernelKHR");
    clFinalizeCommandBufferKHR_fn finalize =
        (clFinalizeCommandBufferKHR_fn)clGetExtensionFunctionAddressForPlatform(
            platform, "clFinalizeCommandBufferKHR");
    clEnqueueCommandBufferKHR_fn enqueue =
        (clEnqueueCommandBufferKHR_fn)clGetExtensionFunctionAddressForPlatform(
            platform, "clEnqueueCommandBufferKHR");
    clReleaseCommandBufferKHR_fn release =
        (clReleaseCommandBufferKHR_fn)clGetExtensionFunctionAddressForPlatform(
            platform, "clReleaseCommandBufferKHR");
    cl_command_buffer_khr buffer =
        in_order && inc && create ? create(1, &in_order, NULL, &err) : NULL;
    if (buffer) {
        cl_sync_point_khr first, second;
        if (record(buffer, NULL, NULL, inc, 1, NULL, &global, NULL, 0, NULL, &first, NULL) ==
            CL_SUCCESS)
            record(buffer, NULL, NULL, inc, 1, NULL, &global, NULL, 1, &first, &second, NULL);
        if (finalize(buffer) == CL_SUCCESS) {
            enqueue(0, NULL, buffer, 0, NULL, NULL);
            enqueue(0, NULL, buffer, 0, NULL, NULL);
        }
        clFinish(in_order);
        release(buffer);
    }
    cl_queue_properties on_device[] = {CL_QUEUE_PROPERTIES,
                                       CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_ON_DEVICE |
                                           CL_QUEUE_ON_DEVICE_DEFAULT,
                                       0};
    cl_command_queue device_queue =
        clCreateCommandQueueWithProperties(context, device, on_device, &err);
    cl_kernel parent = clCreateKernel(program, "parent", &err);
    if (in_order && device_queue && parent) {
        size_t one = 1;
        clSetKernelArg(parent, 0, sizeof counts, &counts);
        clEnqueueNDRangeKernel(in_order, parent, 1, NULL, &one, NULL, 0, NULL, NULL);
        clFinish(in_order);
    }
    cl_mem pipe = clCreatePipe(context, 0, sizeof(int), 16, NULL, &err);
    cl_kernel to_pipe = clCreateKernel(program, "to_pipe", &err);
    if (in_order && pipe && to_pipe) {
        size_t four = 4;
        clSetKernelArg(to_pipe, 0, sizeof pipe, &pipe);
        clEnqueueNDRangeKernel(in_order, to_pipe, 1, NULL, &four, NULL, 0, NULL, NULL);
        clFinish(in_order);
    }
    const char *path = getenv("OOM_SPIRV");
    FILE *file = path ? fopen(path, "rb") : NULL;
    static unsigned char il[1 << 16];
    size_t il_size = file ? fread(il, 1, sizeof il, file) : 0;
    if (file)
        fclose(file);
    cl_program from_il = il_size ? clCreateProgramWithIL(context, il, il_size, &err) : NULL;
    if (from_il) {
        clBuildProgram(from_il, 1, &device, "", NULL, NULL);
        clReleaseProgram(from_il);
    }
    if (to_pipe)
        clReleaseKernel(to_pipe);
    if (pipe)
        clReleaseMemObject(pipe);
    if (parent)
        clReleaseKernel(parent);
    if (device_queue)
        clReleaseCommandQueue(device_queue);
    if (in_order)
        clReleaseCommandQueue(in_order);
    if (inc)
        clReleaseKernel(inc);
    if (queue)
        clReleaseCommandQueue(queue);
}

int main(void)
{
    cl_platform_id platform;
    cl_device_id device;
    cl_int err;
    if (clGetPlatformIDs(1, &platform, NULL) ||
        clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL))
        return 0;
    cl_context context = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    cl_command_queue queue =
        context ? clCreateCommandQueueWithProperties(context, device, NULL, &err) : NULL;
    if (!queue) {
        if (context)
            clReleaseContext(context);
        return 0;
    }
    int host[N], calls = 0, wrong = 0;
    for (int i = 0; i < N; i++)
        host[i] = i;
    cl_mem a =
        clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof host, host, &err);
    cl_mem b = clCreateBuffer(context, CL_MEM_READ_WRITE, sizeof host, NULL, &err);
    cl_buffer_region region = {1024, 1024};
    cl_mem sub = a ? clCreateSubBuffer(a, 0, CL_BUFFER_CREATE_TYPE_REGION, &region, &err) : NULL;
    cl_program program = clCreateProgramWithSource(context, 1, &source, NULL, &err);
    cl_kernel kernel = NULL;
    if (program && clBuildProgram(program, 1, &device, "-cl-std=CL2.0", NULL, NULL) == CL_SUCCESS)
        kernel = clCreateKernel(program, "reverse", &err);
    if (kernel && a && b)
        wrong += run_kernel(context, queue, kernel, a, b, &calls);
    int zeros[64] = {0};
    cl_mem counts = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof zeros,
                                   zeros, &err);
    if (kernel && counts) {
        run_more(platform, context, device, program, counts);
        /* each element counts what ran: at most 5 + 4, plus 10 for the
         * children's four; never more */
        int got[64];
        if (clEnqueueReadBuffer(queue, counts, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL) ==
            CL_SUCCESS)
            for (int i = 0; i < 64; i++)
                wrong += got[i] < 0 || got[i] > 9 + (i < 4 ? 10 : 0);
    }
    if (counts)
        clReleaseMemObject(counts);
    cl_image_format format = {CL_RGBA, CL_UNORM_INT8};
    cl_image_desc desc = {CL_MEM_OBJECT_IMAGE2D, 16, 16, 0, 0, 0, 0, 0, 0, {NULL}};
    cl_mem image = clCreateImage(context, CL_MEM_READ_WRITE, &format, &desc, NULL, &err);
    if (image) {
        size_t origin[3] = {0, 0, 0}, box[3] = {16, 16, 1};
        unsigned char pixels[16 * 16 * 4];
        clEnqueueReadImage(queue, image, CL_TRUE, origin, box, 0, 0, pixels, 0, NULL, NULL);
        clReleaseMemObject(image);
    }
    cl_sampler sampler = clCreateSamplerWithProperties(context, NULL, &err);
    if (sampler)
        clReleaseSampler(sampler);
    void *svm = clSVMAlloc(context, CL_MEM_READ_WRITE, sizeof host, 0);
    if (svm) {
        clEnqueueSVMMemcpy(queue, CL_TRUE, svm, host, sizeof host, 0, NULL, NULL);
        clEnqueueSVMFree(queue, 1, &svm, NULL, NULL, 0, NULL, NULL);
    }
    clFinish(queue);
    if (kernel)
        clReleaseKernel(kernel);
    if (program)
        clReleaseProgram(program);
    if (sub)
        clReleaseMemObject(sub);
    if (a)
        clReleaseMemObject(a);
    if (b)
        clReleaseMemObject(b);
    clReleaseCommandQueue(queue);
    clReleaseContext(context);
    if (wrong)
        fprintf(stderr, "%d wrong values\n", wrong);
    return wrong != 0;
}
