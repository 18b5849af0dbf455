/* test_immutable_memory.c - cl_ext_immutable_memory_objects: buffers and
 * images made with CL_MEM_IMMUTABLE_EXT get their contents at creation (or
 * from the object they are made over) and no command may change them:
 * writes, copies and fills into them and maps for writing answer
 * CL_INVALID_OPERATION, kernel arguments that could write them
 * CL_INVALID_ARG_VALUE; reads, copies from them and const arguments work
 * and see the contents. Creation errors, sub-buffers and images over them
 * inherit or must state it; pipes and SVM refuse the flag. */
#include "../harness.h"

#ifndef CL_MEM_IMMUTABLE_EXT
#define CL_MEM_IMMUTABLE_EXT ((cl_mem_flags)1 << 6)
#endif

static const char *source =
    "kernel void sum(const global int *in, global int *out)\n"
    "{ size_t i = get_global_id(0); out[i] = in[i] * 3; }\n"
    "kernel void scribble(global int *in) { in[get_global_id(0)] = 0; }\n"
    "kernel void copy_image(read_only image2d_t src, global float4 *out)\n"
    "{\n"
    "    int x = get_global_id(0), y = get_global_id(1);\n"
    "    out[y * get_image_width(src) + x] = read_imagef(src, (int2)(x, y));\n"
    "}\n"
    "kernel void write_image(write_only image2d_t dst)\n"
    "{ write_imagef(dst, (int2)(0, 0), (float4)(1)); }\n";

enum { N = 256, W = 8, H = 4 };

static void test_buffers(struct harness *h, cl_program program)
{
    static int data[N], out[N];
    for (int i = 0; i < N; i++)
        data[i] = i * 5 - 100;
    cl_int err;
    /* creation */
    CHECK(!clCreateBuffer(h->context, CL_MEM_IMMUTABLE_EXT, sizeof data, NULL, &err));
    CHECK_EQ(err, CL_INVALID_VALUE);
    CHECK(!clCreateBuffer(h->context,
                          CL_MEM_IMMUTABLE_EXT | CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                          sizeof data, data, &err));
    CHECK_EQ(err, CL_INVALID_VALUE);
    CHECK(!clCreateBuffer(h->context,
                          CL_MEM_IMMUTABLE_EXT | CL_MEM_HOST_WRITE_ONLY | CL_MEM_COPY_HOST_PTR,
                          sizeof data, data, &err));
    CHECK_EQ(err, CL_INVALID_VALUE);
    cl_mem frozen = clCreateBuffer(h->context, CL_MEM_IMMUTABLE_EXT | CL_MEM_COPY_HOST_PTR,
                                   sizeof data, data, &err);
    CHECK_OK(err);
    if (!frozen)
        return;
    cl_mem_flags flags = 0;
    CHECK_OK(clGetMemObjectInfo(frozen, CL_MEM_FLAGS, sizeof flags, &flags, NULL));
    CHECK_EQ(flags, CL_MEM_IMMUTABLE_EXT | CL_MEM_COPY_HOST_PTR);
    cl_mem other = harness_buffer(h, CL_MEM_READ_WRITE, sizeof data, NULL);

    /* what may not change it */
    size_t origin[3] = {0, 0, 0}, region[3] = {16, 1, 1};
    int pattern = 7;
    CHECK_ERR(clEnqueueWriteBuffer(h->queue, frozen, CL_TRUE, 0, 16, data, 0, NULL, NULL),
              CL_INVALID_OPERATION);
    CHECK_ERR(clEnqueueWriteBufferRect(h->queue, frozen, CL_TRUE, origin, origin, region, 0, 0, 0,
                                       0, data, 0, NULL, NULL),
              CL_INVALID_OPERATION);
    CHECK_ERR(clEnqueueCopyBuffer(h->queue, other, frozen, 0, 0, 16, 0, NULL, NULL),
              CL_INVALID_OPERATION);
    CHECK_ERR(clEnqueueCopyBufferRect(h->queue, other, frozen, origin, origin, region, 0, 0, 0, 0,
                                      0, NULL, NULL),
              CL_INVALID_OPERATION);
    CHECK_ERR(clEnqueueFillBuffer(h->queue, frozen, &pattern, sizeof pattern, 0, 16, 0, NULL, NULL),
              CL_INVALID_OPERATION);
    CHECK(!clEnqueueMapBuffer(h->queue, frozen, CL_TRUE, CL_MAP_WRITE, 0, 16, 0, NULL, NULL, &err));
    CHECK_EQ(err, CL_INVALID_OPERATION);
    CHECK(!clEnqueueMapBuffer(h->queue, frozen, CL_TRUE, CL_MAP_WRITE_INVALIDATE_REGION, 0, 16, 0,
                              NULL, NULL, &err));
    CHECK_EQ(err, CL_INVALID_OPERATION);

    /* what reads it */
    int *mapped = clEnqueueMapBuffer(h->queue, frozen, CL_TRUE, CL_MAP_READ, 0, sizeof data, 0,
                                     NULL, NULL, &err);
    CHECK_OK(err);
    if (mapped) {
        CHECK(!memcmp(mapped, data, sizeof data));
        CHECK_OK(clEnqueueUnmapMemObject(h->queue, frozen, mapped, 0, NULL, NULL));
    }
    CHECK_OK(clEnqueueCopyBuffer(h->queue, frozen, other, 0, 0, sizeof data, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(h->queue, other, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
    CHECK(!memcmp(out, data, sizeof data));
    cl_kernel sum = clCreateKernel(program, "sum", &err);
    CHECK_OK(err);
    CHECK_OK(harness_args(sum, 2, ARG(frozen), ARG(other)));
    size_t global = N;
    CHECK_OK(clEnqueueNDRangeKernel(h->queue, sum, 1, NULL, &global, NULL, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(h->queue, other, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
    int bad = 0;
    for (int i = 0; i < N; i++)
        bad += out[i] != data[i] * 3;
    CHECK_NONE_WRONG(bad, "a kernel reading an immutable buffer through a const pointer");
    cl_kernel scribble = clCreateKernel(program, "scribble", &err);
    CHECK_OK(err);
    CHECK_ERR(clSetKernelArg(scribble, 0, sizeof frozen, &frozen), CL_INVALID_ARG_VALUE);

    /* sub-buffers inherit it and may not ask for write access */
    cl_buffer_region part = {128, 128};
    cl_mem sub = clCreateSubBuffer(frozen, 0, CL_BUFFER_CREATE_TYPE_REGION, &part, &err);
    CHECK_OK(err);
    if (sub) {
        CHECK_OK(clGetMemObjectInfo(sub, CL_MEM_FLAGS, sizeof flags, &flags, NULL));
        CHECK(flags & CL_MEM_IMMUTABLE_EXT);
        CHECK_ERR(
            clEnqueueFillBuffer(h->queue, sub, &pattern, sizeof pattern, 0, 16, 0, NULL, NULL),
            CL_INVALID_OPERATION);
        clReleaseMemObject(sub);
    }
    CHECK(!clCreateSubBuffer(frozen, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &part, &err));
    CHECK_EQ(err, CL_INVALID_VALUE);

    /* pipes and SVM take no such flag */
    CHECK(!clCreatePipe(h->context, CL_MEM_IMMUTABLE_EXT, 4, 16, NULL, &err));
    CHECK_EQ(err, CL_INVALID_VALUE);
    CHECK(!clSVMAlloc(h->context, CL_MEM_IMMUTABLE_EXT, 64, 0));
    clReleaseKernel(sum), clReleaseKernel(scribble);
    clReleaseMemObject(frozen), clReleaseMemObject(other);
}

static void test_images(struct harness *h, cl_program program)
{
    static float pixels[W * H * 4], out[W * H * 4];
    for (int i = 0; i < W * H * 4; i++)
        pixels[i] = (float)i * 0.5f;
    cl_image_format format = {CL_RGBA, CL_FLOAT};
    cl_image_desc desc = {.image_type = CL_MEM_OBJECT_IMAGE2D, .image_width = W, .image_height = H};
    cl_int err;
    CHECK(!clCreateImage(h->context, CL_MEM_IMMUTABLE_EXT, &format, &desc, NULL, &err));
    CHECK_EQ(err, CL_INVALID_VALUE);
    cl_mem frozen = clCreateImage(h->context, CL_MEM_IMMUTABLE_EXT | CL_MEM_COPY_HOST_PTR, &format,
                                  &desc, pixels, &err);
    CHECK_OK(err);
    cl_mem other = clCreateImage(h->context, CL_MEM_READ_WRITE, &format, &desc, NULL, &err);
    CHECK_OK(err);
    cl_mem buffer = harness_buffer(h, CL_MEM_READ_WRITE, sizeof pixels, NULL);
    if (!frozen || !other)
        return;
    size_t origin[3] = {0, 0, 0}, region[3] = {W, H, 1}, pitch;
    float color[4] = {1, 2, 3, 4};
    CHECK_ERR(
        clEnqueueWriteImage(h->queue, frozen, CL_TRUE, origin, region, 0, 0, pixels, 0, NULL, NULL),
        CL_INVALID_OPERATION);
    CHECK_ERR(clEnqueueFillImage(h->queue, frozen, color, origin, region, 0, NULL, NULL),
              CL_INVALID_OPERATION);
    CHECK_ERR(clEnqueueCopyImage(h->queue, other, frozen, origin, origin, region, 0, NULL, NULL),
              CL_INVALID_OPERATION);
    CHECK_ERR(
        clEnqueueCopyBufferToImage(h->queue, buffer, frozen, 0, origin, region, 0, NULL, NULL),
        CL_INVALID_OPERATION);
    CHECK(!clEnqueueMapImage(h->queue, frozen, CL_TRUE, CL_MAP_WRITE, origin, region, &pitch, NULL,
                             0, NULL, NULL, &err));
    CHECK_EQ(err, CL_INVALID_OPERATION);
    /* a NULL image is a bad object, not a crash */
    CHECK(!clEnqueueMapImage(h->queue, NULL, CL_TRUE, CL_MAP_READ, origin, region, &pitch, NULL, 0,
                             NULL, NULL, &err));
    CHECK_EQ(err, CL_INVALID_MEM_OBJECT);

    /* a kernel reads it; it cannot be written by one */
    cl_kernel copy = clCreateKernel(program, "copy_image", &err);
    CHECK_OK(err);
    CHECK_OK(harness_args(copy, 2, ARG(frozen), ARG(buffer)));
    size_t global[2] = {W, H};
    CHECK_OK(clEnqueueNDRangeKernel(h->queue, copy, 2, NULL, global, NULL, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(h->queue, buffer, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
    CHECK(!memcmp(out, pixels, sizeof out));
    cl_kernel write = clCreateKernel(program, "write_image", &err);
    CHECK_OK(err);
    CHECK_ERR(clSetKernelArg(write, 0, sizeof frozen, &frozen), CL_INVALID_ARG_VALUE);

    /* an image over an immutable buffer must say it is immutable */
    cl_mem rows = clCreateBuffer(h->context, CL_MEM_IMMUTABLE_EXT | CL_MEM_COPY_HOST_PTR,
                                 sizeof pixels, pixels, &err);
    CHECK_OK(err);
    cl_image_desc over = desc;
    over.buffer = rows;
    CHECK(!clCreateImage(h->context, CL_MEM_READ_ONLY, &format, &over, NULL, &err));
    CHECK_EQ(err, CL_INVALID_VALUE);
    cl_mem view = clCreateImage(h->context, CL_MEM_IMMUTABLE_EXT, &format, &over, NULL, &err);
    CHECK_OK(err);
    if (view) {
        CHECK_OK(
            clEnqueueReadImage(h->queue, view, CL_TRUE, origin, region, 0, 0, out, 0, NULL, NULL));
        CHECK(!memcmp(out, pixels, sizeof out));
        clReleaseMemObject(view);
    }
    clReleaseMemObject(rows);
    clReleaseKernel(copy), clReleaseKernel(write);
    clReleaseMemObject(frozen), clReleaseMemObject(other), clReleaseMemObject(buffer);
}

int main(void)
{
    struct harness h = harness_open();
    CHECK(harness_has_extension(&h, "cl_ext_immutable_memory_objects"));
    cl_program program = harness_build(&h, source, NULL);
    REQUIRE(program);
    test_buffers(&h, program);
    test_images(&h, program);
    clReleaseProgram(program);
    harness_close(&h);
    return harness_finish();
}
