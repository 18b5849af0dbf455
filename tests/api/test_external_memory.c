/* test_external_memory.c - buffers and images imported from a file
 * descriptor (cl_khr_external_memory, cl_khr_external_memory_dma_buf):
 * the queries, a kernel reading and writing an imported buffer and image
 * between acquire and release, the other side's view of the same memory,
 * the descriptor taken over (closed with the object), and the errors.
 *
 * This machine has no dma_buf heap, so the descriptors are memfds: cpucl
 * imports any descriptor it can map; a dma_buf is one such (the sync
 * calls that a dma_buf takes at acquire and release are no-ops on a
 * memfd). */
#include <fcntl.h>
#include <stdbool.h>
#include <sys/mman.h>
#include <unistd.h>

#include "../harness.h"

static const char *source =
    "kernel void bump(global uint *imported, global const uint *in)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    imported[i] = imported[i] * 2 + in[i];\n"
    "}\n"
    "kernel void invert(read_only image2d_t src, write_only image2d_t dst)\n"
    "{\n"
    "    int2 p = (int2)(get_global_id(0), get_global_id(1));\n"
    "    write_imageui(dst, p, (uint4)(255) - read_imageui(src, p));\n"
    "}\n";

static struct harness h;
static cl_program program;
static clEnqueueAcquireExternalMemObjectsKHR_fn acquire;
static clEnqueueReleaseExternalMemObjectsKHR_fn release;

/* A memfd of `size` bytes and the other side's mapping of it. */
static int shared_memory(size_t size, void **view)
{
    int fd = memfd_create("cpucl-test", MFD_CLOEXEC);
    REQUIRE(fd >= 0);
    REQUIRE(ftruncate(fd, (off_t)size) == 0);
    *view = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    REQUIRE(*view != MAP_FAILED);
    return fd;
}

static bool fd_open(int fd)
{
    return fcntl(fd, F_GETFD) != -1;
}

static void queries(void)
{
    cl_external_memory_handle_type_khr types[4];
    size_t size = 0;
    CHECK_OK(clGetDeviceInfo(h.device, CL_DEVICE_EXTERNAL_MEMORY_IMPORT_HANDLE_TYPES_KHR,
                             sizeof types, types, &size));
    CHECK(size == sizeof types[0] && types[0] == CL_EXTERNAL_MEMORY_HANDLE_DMA_BUF_KHR);
    CHECK_OK(clGetPlatformInfo(h.platform, CL_PLATFORM_EXTERNAL_MEMORY_IMPORT_HANDLE_TYPES_KHR,
                               sizeof types, types, &size));
    CHECK(size == sizeof types[0] && types[0] == CL_EXTERNAL_MEMORY_HANDLE_DMA_BUF_KHR);
}

static void buffers(void)
{
    enum { N = 4096 };
    uint32_t *view;
    int fd = shared_memory(N * sizeof *view, (void **)&view);
    for (uint32_t i = 0; i < N; i++)
        view[i] = i;
    cl_mem_properties properties[] = {CL_EXTERNAL_MEMORY_HANDLE_DMA_BUF_KHR,
                                      (cl_mem_properties)fd,
                                      CL_DEVICE_HANDLE_LIST_KHR,
                                      (cl_mem_properties)(uintptr_t)h.device,
                                      CL_DEVICE_HANDLE_LIST_END_KHR,
                                      0};
    cl_int err;
    cl_mem imported = clCreateBufferWithProperties(h.context, properties, CL_MEM_READ_WRITE,
                                                   N * sizeof *view, NULL, &err);
    CHECK_OK(err);
    REQUIRE(imported);
    cl_mem_properties got[8];
    size_t got_size = 0;
    CHECK_OK(clGetMemObjectInfo(imported, CL_MEM_PROPERTIES, sizeof got, got, &got_size));
    CHECK(got_size == sizeof properties && memcmp(got, properties, sizeof properties) == 0);
    uint32_t in[N];
    for (uint32_t i = 0; i < N; i++)
        in[i] = 3 * i + 1;
    cl_mem input = harness_buffer(&h, CL_MEM_READ_ONLY, sizeof in, in);
    cl_kernel k = harness_kernel(program, "bump");
    CHECK_OK(harness_args(k, 2, ARG(imported), ARG(input)));
    cl_event acquired, released;
    CHECK_OK(acquire(h.queue, 1, &imported, 0, NULL, &acquired));
    size_t n = N;
    CHECK_OK(clEnqueueNDRangeKernel(h.queue, k, 1, NULL, &n, NULL, 0, NULL, NULL));
    CHECK_OK(release(h.queue, 1, &imported, 0, NULL, &released));
    CHECK_OK(clWaitForEvents(1, &released));
    cl_command_type type = 0;
    CHECK_OK(clGetEventInfo(acquired, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL));
    CHECK_EQ(type, CL_COMMAND_ACQUIRE_EXTERNAL_MEM_OBJECTS_KHR);
    CHECK_OK(clGetEventInfo(released, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL));
    CHECK_EQ(type, CL_COMMAND_RELEASE_EXTERNAL_MEM_OBJECTS_KHR);
    clReleaseEvent(acquired);
    clReleaseEvent(released);
    /* the other side sees the kernel's writes, and the host commands see
     * the other side's */
    int bad = 0;
    for (uint32_t i = 0; i < N; i++)
        bad += view[i] != 2 * i + 3 * i + 1;
    CHECK_NONE_WRONG(bad, "imported buffer written by a kernel");
    view[7] = 0xdeadbeef;
    uint32_t seven = 0;
    CHECK_OK(acquire(h.queue, 1, &imported, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(h.queue, imported, CL_TRUE, 7 * sizeof seven, sizeof seven, &seven,
                                 0, NULL, NULL));
    CHECK_OK(release(h.queue, 1, &imported, 0, NULL, NULL));
    CHECK_OK(clFinish(h.queue));
    CHECK(seven == 0xdeadbeef);
    /* the descriptor is cpucl's until the object goes */
    CHECK(fd_open(fd));
    clReleaseMemObject(imported);
    CHECK(!fd_open(fd));
    clReleaseKernel(k);
    clReleaseMemObject(input);
    munmap(view, N * sizeof *view);
}

static void images(void)
{
    enum { W = 5, H = 3, PITCH = 32 };
    unsigned char *view;
    int src_fd = shared_memory(PITCH * H, (void **)&view);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W * 4; x++)
            view[y * PITCH + x] = (unsigned char)(y * 40 + x);
    cl_image_format format = {CL_RGBA, CL_UNSIGNED_INT8};
    /* the other API's rows are PITCH bytes apart */
    cl_image_desc desc = {.image_type = CL_MEM_OBJECT_IMAGE2D,
                          .image_width = W,
                          .image_height = H,
                          .image_row_pitch = PITCH};
    cl_mem_properties properties[] = {CL_EXTERNAL_MEMORY_HANDLE_DMA_BUF_KHR,
                                      (cl_mem_properties)src_fd, 0};
    cl_int err;
    cl_mem src = clCreateImageWithProperties(h.context, properties, CL_MEM_READ_ONLY, &format,
                                             &desc, NULL, &err);
    CHECK_OK(err);
    size_t pitch = 0;
    CHECK_OK(clGetImageInfo(src, CL_IMAGE_ROW_PITCH, sizeof pitch, &pitch, NULL));
    CHECK_EQ(pitch, PITCH);
    /* a tightly packed one (no pitch given) */
    unsigned char *out_view;
    int dst_fd = shared_memory(W * 4 * H, (void **)&out_view);
    desc.image_row_pitch = 0;
    properties[1] = (cl_mem_properties)dst_fd;
    cl_mem dst = clCreateImageWithProperties(h.context, properties, CL_MEM_WRITE_ONLY, &format,
                                             &desc, NULL, &err);
    CHECK_OK(err);
    if (src && dst) {
        cl_mem both[2] = {src, dst};
        cl_kernel k = harness_kernel(program, "invert");
        CHECK_OK(harness_args(k, 2, ARG(src), ARG(dst)));
        size_t global[2] = {W, H};
        CHECK_OK(acquire(h.queue, 2, both, 0, NULL, NULL));
        CHECK_OK(clEnqueueNDRangeKernel(h.queue, k, 2, NULL, global, NULL, 0, NULL, NULL));
        CHECK_OK(release(h.queue, 2, both, 0, NULL, NULL));
        CHECK_OK(clFinish(h.queue));
        int bad = 0;
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W * 4; x++)
                bad += out_view[y * W * 4 + x] != 255 - view[y * PITCH + x];
        CHECK_NONE_WRONG(bad, "imported images read and written by a kernel");
        clReleaseKernel(k);
    }
    if (src)
        clReleaseMemObject(src);
    if (dst)
        clReleaseMemObject(dst);
    CHECK(!fd_open(src_fd) && !fd_open(dst_fd));
    munmap(view, PITCH * H);
    munmap(out_view, W * 4 * H);
}

static void errors(void)
{
    void *view;
    int fd = shared_memory(256, &view);
    cl_int err;
    cl_mem_properties properties[] = {CL_EXTERNAL_MEMORY_HANDLE_DMA_BUF_KHR, (cl_mem_properties)fd,
                                      0};
    /* host pointers do not go with imported memory */
    char host[256];
    CHECK_FAILS(clCreateBufferWithProperties(h.context, properties,
                                             CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, 256, host,
                                             &err),
                err, CL_INVALID_VALUE);
    CHECK_FAILS(
        clCreateBufferWithProperties(h.context, properties, CL_MEM_READ_WRITE, 256, host, &err),
        err, CL_INVALID_HOST_PTR);
    /* more than the payload */
    CHECK_FAILS(
        clCreateBufferWithProperties(h.context, properties, CL_MEM_READ_WRITE, 512, NULL, &err),
        err, CL_INVALID_BUFFER_SIZE);
    /* a failed import leaves the descriptor to the application */
    CHECK(fd_open(fd));
    /* twice the same property, a handle that is no device, a bad descriptor */
    cl_mem_properties twice[] = {CL_EXTERNAL_MEMORY_HANDLE_DMA_BUF_KHR, (cl_mem_properties)fd,
                                 CL_EXTERNAL_MEMORY_HANDLE_DMA_BUF_KHR, (cl_mem_properties)fd, 0};
    CHECK_FAILS(clCreateBufferWithProperties(h.context, twice, 0, 256, NULL, &err), err,
                CL_INVALID_PROPERTY);
    cl_mem_properties not_a_device[] = {CL_EXTERNAL_MEMORY_HANDLE_DMA_BUF_KHR,
                                        (cl_mem_properties)fd,
                                        CL_DEVICE_HANDLE_LIST_KHR,
                                        (cl_mem_properties)(uintptr_t)h.context,
                                        CL_DEVICE_HANDLE_LIST_END_KHR,
                                        0};
    CHECK_FAILS(clCreateBufferWithProperties(h.context, not_a_device, 0, 256, NULL, &err), err,
                CL_INVALID_DEVICE);
    cl_mem_properties closed[] = {CL_EXTERNAL_MEMORY_HANDLE_DMA_BUF_KHR, 1000000, 0};
    CHECK_FAILS(clCreateBufferWithProperties(h.context, closed, 0, 256, NULL, &err), err,
                CL_INVALID_PROPERTY);
    /* acquire and release: only imported objects, lists that agree */
    cl_mem plain = harness_buffer(&h, CL_MEM_READ_WRITE, 64, NULL);
    CHECK_ERR(acquire(h.queue, 1, &plain, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
    CHECK_ERR(release(h.queue, 1, NULL, 0, NULL, NULL), CL_INVALID_VALUE);
    CHECK_ERR(acquire(h.queue, 0, &plain, 0, NULL, NULL), CL_INVALID_VALUE);
    CHECK_ERR(acquire(NULL, 0, NULL, 0, NULL, NULL), CL_INVALID_COMMAND_QUEUE);
    /* none at all: a command that only waits */
    cl_event event;
    CHECK_OK(acquire(h.queue, 0, NULL, 0, NULL, &event));
    CHECK_OK(clWaitForEvents(1, &event));
    clReleaseEvent(event);
    clReleaseMemObject(plain);
    close(fd);
    munmap(view, 256);
}

int main(void)
{
    h = harness_open();
    REQUIRE(harness_has_extension(&h, "cl_khr_external_memory"));
    REQUIRE(harness_has_extension(&h, "cl_khr_external_memory_dma_buf"));
    acquire = (clEnqueueAcquireExternalMemObjectsKHR_fn)clGetExtensionFunctionAddressForPlatform(
        h.platform, "clEnqueueAcquireExternalMemObjectsKHR");
    release = (clEnqueueReleaseExternalMemObjectsKHR_fn)clGetExtensionFunctionAddressForPlatform(
        h.platform, "clEnqueueReleaseExternalMemObjectsKHR");
    REQUIRE(acquire && release);
    program = harness_build(&h, source, NULL);
    REQUIRE(program);
    queries();
    buffers();
    images();
    errors();
    clReleaseProgram(program);
    harness_close(&h);
    return harness_finish();
}
