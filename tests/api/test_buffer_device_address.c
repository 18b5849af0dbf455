/* test_buffer_device_address.c - cl_ext_buffer_device_address (1.0.2): a
 * buffer made with CL_MEM_DEVICE_PRIVATE_ADDRESS_EXT has a fixed device
 * address that a kernel sees as the buffer's pointer; the address, or one
 * inside the buffer, passed by clSetKernelArgDevicePointerEXT or stored in
 * memory and named by CL_KERNEL_EXEC_INFO_DEVICE_PTRS_EXT, reaches the
 * buffer's contents; a sub-buffer's address is its parent's plus its
 * origin; bad arguments get the extension's errors. */
#include <stdint.h>

#include "../harness.h"

#ifndef CL_MEM_DEVICE_PRIVATE_ADDRESS_EXT
#define CL_MEM_DEVICE_PRIVATE_ADDRESS_EXT 0x5000
#define CL_MEM_DEVICE_ADDRESS_EXT 0x5001
#define CL_KERNEL_EXEC_INFO_DEVICE_PTRS_EXT 0x5002
#endif
typedef cl_int(CL_API_CALL *set_pointer_fn)(cl_kernel, cl_uint, cl_ulong);

static const char *source =
    "kernel void address(global int *p, global ulong *out) { out[0] = (ulong)p; }\n"
    "kernel void read3(global int *p, global int *out, int k, local int *l)\n"
    "{ out[0] = p[3] * k; }\n"
    "kernel void through(global const ulong *pointers, global int *out)\n"
    "{ global int *q = (global int *)pointers[0]; out[0] = q[5]; q[6] = 77; }\n";

enum { N = 64 };

int main(void)
{
    struct harness h = harness_open();
    CHECK(harness_has_extension(&h, "cl_ext_buffer_device_address"));
    set_pointer_fn set_pointer = (set_pointer_fn)clGetExtensionFunctionAddressForPlatform(
        h.platform, "clSetKernelArgDevicePointerEXT");
    REQUIRE(set_pointer != NULL);
    cl_program program = harness_build(&h, source, NULL);
    REQUIRE(program);
    cl_kernel address = harness_kernel(program, "address");
    cl_kernel read3 = harness_kernel(program, "read3");
    cl_kernel through = harness_kernel(program, "through");
    cl_int err;
    int data[N];
    for (int i = 0; i < N; i++)
        data[i] = 1000 + i * 3;

    cl_mem_properties props[] = {CL_MEM_DEVICE_PRIVATE_ADDRESS_EXT, CL_TRUE, 0};
    cl_mem buffer = clCreateBufferWithProperties(
        h.context, props, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof data, data, &err);
    CHECK_OK(err);
    cl_ulong device_address = 0;
    size_t size = 0;
    CHECK_OK(clGetMemObjectInfo(buffer, CL_MEM_DEVICE_ADDRESS_EXT, sizeof device_address,
                                &device_address, &size));
    CHECK(size == sizeof device_address && device_address != 0);
    cl_mem_properties got_props[4] = {9, 9, 9, 9};
    CHECK_OK(clGetMemObjectInfo(buffer, CL_MEM_PROPERTIES, sizeof got_props, got_props, &size));
    CHECK(size == sizeof props && got_props[0] == CL_MEM_DEVICE_PRIVATE_ADDRESS_EXT &&
          got_props[1] == CL_TRUE && got_props[2] == 0);

    /* the kernel sees the buffer at its device address */
    cl_mem out_long = harness_buffer(&h, CL_MEM_READ_WRITE, sizeof(cl_ulong), NULL);
    cl_mem out_int = harness_buffer(&h, CL_MEM_READ_WRITE, sizeof(int), NULL);
    CHECK_OK(harness_args(address, 2, ARG(buffer), ARG(out_long)));
    size_t one = 1;
    CHECK_OK(clEnqueueNDRangeKernel(h.queue, address, 1, NULL, &one, NULL, 0, NULL, NULL));
    cl_ulong seen = 0;
    CHECK_OK(clEnqueueReadBuffer(h.queue, out_long, CL_TRUE, 0, sizeof seen, &seen, 0, NULL, NULL));
    CHECK_EQ(seen, device_address);

    /* an address inside the buffer as a pointer argument */
    int k = 2;
    CHECK_OK(set_pointer(read3, 0, device_address + 2 * sizeof(int)));
    CHECK_OK(clSetKernelArg(read3, 1, sizeof out_int, &out_int));
    CHECK_OK(clSetKernelArg(read3, 2, sizeof k, &k));
    CHECK_OK(clSetKernelArg(read3, 3, 16, NULL));
    CHECK_OK(clEnqueueNDRangeKernel(h.queue, read3, 1, NULL, &one, NULL, 0, NULL, NULL));
    int value = 0;
    CHECK_OK(
        clEnqueueReadBuffer(h.queue, out_int, CL_TRUE, 0, sizeof value, &value, 0, NULL, NULL));
    CHECK_EQ(value, data[5] * 2);

    /* an address stored in memory, named by the execution info */
    cl_mem pointers = harness_buffer(&h, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                                     sizeof device_address, &device_address);
    CHECK_OK(harness_args(through, 2, ARG(pointers), ARG(out_int)));
    CHECK_OK(clSetKernelExecInfo(through, CL_KERNEL_EXEC_INFO_DEVICE_PTRS_EXT,
                                 sizeof device_address, &device_address));
    CHECK_OK(clEnqueueNDRangeKernel(h.queue, through, 1, NULL, &one, NULL, 0, NULL, NULL));
    int contents[N];
    CHECK_OK(
        clEnqueueReadBuffer(h.queue, out_int, CL_TRUE, 0, sizeof value, &value, 0, NULL, NULL));
    CHECK_OK(
        clEnqueueReadBuffer(h.queue, buffer, CL_TRUE, 0, sizeof contents, contents, 0, NULL, NULL));
    CHECK_EQ(value, data[5]);
    CHECK_EQ(contents[6], 77);
    CHECK_EQ(contents[7], data[7]);

    /* a sub-buffer: the parent's address plus its origin */
    cl_buffer_region region = {128, 64};
    cl_mem sub =
        clCreateSubBuffer(buffer, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &region, &err);
    CHECK_OK(err);
    cl_ulong sub_address = 0;
    CHECK_OK(
        clGetMemObjectInfo(sub, CL_MEM_DEVICE_ADDRESS_EXT, sizeof sub_address, &sub_address, NULL));
    CHECK_EQ(sub_address, device_address + 128);

    /* errors */
    cl_mem plain = harness_buffer(&h, CL_MEM_READ_WRITE, 64, NULL);
    CHECK_ERR(clGetMemObjectInfo(plain, CL_MEM_DEVICE_ADDRESS_EXT, sizeof seen, &seen, NULL),
              CL_INVALID_OPERATION);
    cl_mem_properties off[] = {CL_MEM_DEVICE_PRIVATE_ADDRESS_EXT, CL_FALSE, 0};
    cl_mem not_fixed =
        clCreateBufferWithProperties(h.context, off, CL_MEM_READ_WRITE, 64, NULL, &err);
    CHECK_OK(err);
    CHECK_ERR(clGetMemObjectInfo(not_fixed, CL_MEM_DEVICE_ADDRESS_EXT, sizeof seen, &seen, NULL),
              CL_INVALID_OPERATION);
    CHECK_ERR(clGetMemObjectInfo(buffer, CL_MEM_DEVICE_ADDRESS_EXT, 4, &seen, NULL),
              CL_INVALID_VALUE);
    cl_mem_properties bad_value[] = {CL_MEM_DEVICE_PRIVATE_ADDRESS_EXT, 5, 0};
    CHECK_FAILS(
        clCreateBufferWithProperties(h.context, bad_value, CL_MEM_READ_WRITE, 64, NULL, &err), err,
        CL_INVALID_PROPERTY);
    cl_mem_properties twice[] = {CL_MEM_DEVICE_PRIVATE_ADDRESS_EXT, CL_TRUE,
                                 CL_MEM_DEVICE_PRIVATE_ADDRESS_EXT, CL_TRUE, 0};
    CHECK_FAILS(clCreateBufferWithProperties(h.context, twice, CL_MEM_READ_WRITE, 64, NULL, &err),
                err, CL_INVALID_PROPERTY);
    CHECK_ERR(set_pointer(NULL, 0, device_address), CL_INVALID_KERNEL);
    CHECK_ERR(set_pointer(read3, 4, device_address), CL_INVALID_ARG_INDEX);
    CHECK_ERR(set_pointer(read3, 2, device_address), CL_INVALID_ARG_INDEX); /* an int */
    CHECK_ERR(set_pointer(read3, 3, device_address), CL_INVALID_ARG_INDEX); /* local */
    CHECK_OK(set_pointer(read3, 0, 0)); /* any value, if never dereferenced */
    CHECK_ERR(clSetKernelExecInfo(through, CL_KERNEL_EXEC_INFO_DEVICE_PTRS_EXT, 3, &device_address),
              CL_INVALID_VALUE);

    clReleaseMemObject(not_fixed);
    clReleaseMemObject(plain);
    clReleaseMemObject(sub);
    clReleaseMemObject(pointers);
    clReleaseMemObject(out_int);
    clReleaseMemObject(out_long);
    clReleaseMemObject(buffer);
    clReleaseKernel(address);
    clReleaseKernel(read3);
    clReleaseKernel(through);
    clReleaseProgram(program);
    harness_close(&h);
    return harness_finish();
}
