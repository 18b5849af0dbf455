/* oom_workload.c - the program tests/fuzz/oom_sweep.sh runs once for each
 * allocation cpucl makes in it, that allocation failing (fail_alloc.c): a
 * context, queue, buffers and a sub-buffer, a program built from source,
 * a kernel with a barrier and __local memory launched behind a user
 * event, a read, a map, an image, a sampler and SVM, each released. A
 * call may fail (the out-of-memory error is the spec's answer); the
 * program must neither crash nor hang, and what ran must be right.
 * Exits 0 unless a result is wrong. */
#include <stdio.h>
#include <stdlib.h>

#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>

enum { N = 1024, LOCAL = 64 };

static const char *source =
    "kernel void reverse(global const int *a, global int *b, local int *t)\n"
    "{\n"
    "    int l = get_local_id(0);\n"
    "    t[l] = a[get_global_id(0)];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    b[get_global_id(0)] = t[get_local_size(0) - 1 - l] + 1;\n"
    "}\n";

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
