/* test_queue_extensions.c - the extensions of the queue layer:
 * cl_khr_priority_hints (a high-priority queue's kernel overtakes a busy
 * device's earlier work, a low-priority one waits), cl_khr_throttle_hints
 * (accepted, kept, refused on device queues), cl_khr_create_command_queue
 * (the KHR entry point through the extension lookup),
 * cl_khr_suggested_local_work_size (sizes that divide the range, the
 * required size, the errors), cl_khr_extended_versioning (lists that match
 * the strings). */
#include "../harness.h"

static const char *source =
    "kernel void busy(global volatile int *sink)\n"
    "{\n"
    "    int x = (int)get_global_id(0);\n"
    "    for (int i = 0; i < 2000000; i++) x = x * 1103515245 + 12345;\n"
    "    sink[get_global_id(0)] = x;\n"
    "}\n"
    "kernel void ticket(global int *counter, global int *mine)\n"
    "{\n"
    "    mine[0] = atomic_inc(counter);\n"
    "}\n"
    "__attribute__((reqd_work_group_size(8, 2, 1)))\n"
    "kernel void fixed(global int *p) { p[0] = 1; }\n";

static cl_command_queue queue_with(struct harness *h, cl_queue_properties name,
                                   cl_queue_properties value, cl_int *err)
{
    cl_queue_properties props[] = {name, value, 0};
    return clCreateCommandQueueWithProperties(h->context, h->device, props, err);
}

static void test_priorities(struct harness *h, cl_program program)
{
    cl_int err;
    cl_command_queue high = queue_with(h, CL_QUEUE_PRIORITY_KHR, CL_QUEUE_PRIORITY_HIGH_KHR, &err);
    CHECK_OK(err);
    cl_command_queue low = queue_with(h, CL_QUEUE_PRIORITY_KHR, CL_QUEUE_PRIORITY_LOW_KHR, &err);
    CHECK_OK(err);
    cl_command_queue medium = queue_with(h, CL_QUEUE_PRIORITY_KHR, CL_QUEUE_PRIORITY_MED_KHR, &err);
    CHECK_OK(err);
    CHECK_FAILS(queue_with(h, CL_QUEUE_PRIORITY_KHR, 3, &err), err, CL_INVALID_VALUE);

    cl_kernel busy = harness_kernel(program, "busy");
    cl_kernel first = harness_kernel(program, "ticket"), second = harness_kernel(program, "ticket");
    int zero[1] = {0};
    cl_mem sink = clCreateBuffer(h->context, CL_MEM_READ_WRITE, 64 * sizeof(int), NULL, &err);
    cl_mem tickets = clCreateBuffer(h->context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                                    sizeof zero, zero, &err);
    cl_mem low_slot = clCreateBuffer(h->context, CL_MEM_READ_WRITE, sizeof(int), NULL, &err);
    cl_mem high_slot = clCreateBuffer(h->context, CL_MEM_READ_WRITE, sizeof(int), NULL, &err);
    clSetKernelArg(busy, 0, sizeof sink, &sink);
    clSetKernelArg(first, 0, sizeof tickets, &tickets);
    clSetKernelArg(first, 1, sizeof low_slot, &low_slot);
    clSetKernelArg(second, 0, sizeof tickets, &tickets);
    clSetKernelArg(second, 1, sizeof high_slot, &high_slot);
    /* the device is busy with 64 long work-groups of a medium queue; then
     * a low-priority ticket and a high-priority one become ready together
     * (one user event releases both, so neither can start before the
     * other is enqueued) */
    size_t groups = 64, one = 1;
    /* the ticket's code is made now (a query of its private memory makes
     * it), not at its first enqueue, which on a loaded machine could
     * outlast the busy kernel and leave the device idle when the gate opens */
    cl_ulong private_mem = 0;
    CHECK_OK(clGetKernelWorkGroupInfo(first, h->device, CL_KERNEL_PRIVATE_MEM_SIZE,
                                      sizeof private_mem, &private_mem, NULL));
    cl_event gate = clCreateUserEvent(h->context, &err);
    CHECK_OK(err);
    CHECK_OK(clEnqueueNDRangeKernel(medium, busy, 1, NULL, &groups, &one, 0, NULL, NULL));
    CHECK_OK(clEnqueueNDRangeKernel(low, first, 1, NULL, &one, &one, 1, &gate, NULL));
    CHECK_OK(clEnqueueNDRangeKernel(high, second, 1, NULL, &one, &one, 1, &gate, NULL));
    CHECK_OK(clSetUserEventStatus(gate, CL_COMPLETE));
    clReleaseEvent(gate);
    CHECK_OK(clFinish(high));
    CHECK_OK(clFinish(low));
    CHECK_OK(clFinish(medium));
    int result[3];
    CHECK_OK(clEnqueueReadBuffer(medium, tickets, CL_TRUE, 0, sizeof(int), result, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(medium, low_slot, CL_TRUE, 0, sizeof(int), result + 1, 0, NULL,
                                 NULL));
    CHECK_OK(clEnqueueReadBuffer(medium, high_slot, CL_TRUE, 0, sizeof(int), result + 2, 0, NULL,
                                 NULL));
    CHECK_EQ(result[0], 2);
    CHECK_EQ(result[2], 0); /* the high-priority kernel ran first */
    CHECK_EQ(result[1], 1);

    cl_queue_properties props[4] = {0};
    size_t size = 0;
    CHECK_OK(clGetCommandQueueInfo(high, CL_QUEUE_PROPERTIES_ARRAY, sizeof props, props, &size));
    CHECK(size == 3 * sizeof(cl_queue_properties) && props[0] == CL_QUEUE_PRIORITY_KHR &&
          props[1] == CL_QUEUE_PRIORITY_HIGH_KHR);
    clReleaseMemObject(low_slot);
    clReleaseMemObject(high_slot);
    clReleaseMemObject(tickets);
    clReleaseMemObject(sink);
    clReleaseKernel(busy);
    clReleaseKernel(first);
    clReleaseKernel(second);
    clReleaseCommandQueue(high);
    clReleaseCommandQueue(low);
    clReleaseCommandQueue(medium);
}

static void test_throttle_and_khr_entry(struct harness *h)
{
    cl_int err;
    cl_command_queue q = queue_with(h, CL_QUEUE_THROTTLE_KHR, CL_QUEUE_THROTTLE_LOW_KHR, &err);
    CHECK_OK(err);
    clReleaseCommandQueue(q);
    CHECK_FAILS(queue_with(h, CL_QUEUE_THROTTLE_KHR, 0, &err), err, CL_INVALID_VALUE);
    cl_queue_properties on_device[] = {
        CL_QUEUE_PROPERTIES, CL_QUEUE_ON_DEVICE | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE,
        CL_QUEUE_PRIORITY_KHR, CL_QUEUE_PRIORITY_HIGH_KHR, 0};
    CHECK_FAILS(clCreateCommandQueueWithProperties(h->context, h->device, on_device, &err), err,
                CL_INVALID_QUEUE_PROPERTIES);

    clCreateCommandQueueWithPropertiesKHR_fn create =
        (clCreateCommandQueueWithPropertiesKHR_fn)clGetExtensionFunctionAddressForPlatform(
            h->platform, "clCreateCommandQueueWithPropertiesKHR");
    CHECK(create != NULL);
    if (create) {
        cl_queue_properties_khr props[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
        cl_command_queue khr = create(h->context, h->device, props, &err);
        CHECK_OK(err);
        cl_command_queue_properties got = 0;
        CHECK_OK(clGetCommandQueueInfo(khr, CL_QUEUE_PROPERTIES, sizeof got, &got, NULL));
        CHECK_EQ(got, CL_QUEUE_PROFILING_ENABLE);
        clReleaseCommandQueue(khr);
    }
}

static void test_suggested(struct harness *h, cl_program program)
{
    clGetKernelSuggestedLocalWorkSizeKHR_fn suggest =
        (clGetKernelSuggestedLocalWorkSizeKHR_fn)clGetExtensionFunctionAddressForPlatform(
            h->platform, "clGetKernelSuggestedLocalWorkSizeKHR");
    REQUIRE(suggest != NULL);
    cl_int err;
    cl_kernel k = harness_kernel(program, "ticket");
    cl_mem mem = clCreateBuffer(h->context, CL_MEM_READ_WRITE, 16, NULL, &err);
    size_t global[3] = {1000, 36, 7}, local[3] = {0, 0, 0};
    CHECK_ERR(suggest(h->queue, k, 3, NULL, global, local), CL_INVALID_KERNEL_ARGS);
    clSetKernelArg(k, 0, sizeof mem, &mem);
    clSetKernelArg(k, 1, sizeof mem, &mem);
    CHECK_OK(suggest(h->queue, k, 3, NULL, global, local));
    size_t max = 0, items = 1;
    clGetDeviceInfo(h->device, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof max, &max, NULL);
    for (int d = 0; d < 3; d++) {
        CHECK(local[d] >= 1 && global[d] % local[d] == 0);
        items *= local[d];
    }
    CHECK(items <= max);
    /* the suggested size launches */
    CHECK_OK(clEnqueueNDRangeKernel(h->queue, k, 3, NULL, global, local, 0, NULL, NULL));
    CHECK_OK(clFinish(h->queue));
    CHECK_ERR(suggest(h->queue, k, 0, NULL, global, local), CL_INVALID_WORK_DIMENSION);
    CHECK_ERR(suggest(h->queue, k, 1, NULL, NULL, local), CL_INVALID_GLOBAL_WORK_SIZE);
    size_t zero[1] = {0};
    CHECK_ERR(suggest(h->queue, k, 1, NULL, zero, local), CL_INVALID_GLOBAL_WORK_SIZE);
    size_t huge[1] = {SIZE_MAX}, offset[1] = {2};
    CHECK_ERR(suggest(h->queue, k, 1, offset, huge, local), CL_INVALID_GLOBAL_OFFSET);
    CHECK_ERR(suggest(h->queue, k, 1, NULL, global, NULL), CL_INVALID_VALUE);
    CHECK_ERR(suggest(NULL, k, 1, NULL, global, local), CL_INVALID_COMMAND_QUEUE);

    cl_kernel fixed = harness_kernel(program, "fixed");
    clSetKernelArg(fixed, 0, sizeof mem, &mem);
    size_t range[2] = {64, 4};
    CHECK_OK(suggest(h->queue, fixed, 2, NULL, range, local));
    CHECK(local[0] == 8 && local[1] == 2);
    clReleaseKernel(fixed);
    clReleaseKernel(k);
    clReleaseMemObject(mem);
}

static void test_versions(struct harness *h)
{
    cl_version_khr version = 0;
    CHECK_OK(clGetDeviceInfo(h->device, CL_DEVICE_NUMERIC_VERSION_KHR, sizeof version, &version,
                             NULL));
    CHECK(CL_VERSION_MAJOR_KHR(version) == 2 && CL_VERSION_MINOR_KHR(version) == 2);
    CHECK_OK(clGetPlatformInfo(h->platform, CL_PLATFORM_NUMERIC_VERSION_KHR, sizeof version,
                               &version, NULL));
    CHECK(CL_VERSION_MAJOR_KHR(version) == 2 && CL_VERSION_MINOR_KHR(version) == 2);
    char extensions[4096] = "";
    clGetDeviceInfo(h->device, CL_DEVICE_EXTENSIONS, sizeof extensions, extensions, NULL);
    size_t size = 0;
    CHECK_OK(clGetDeviceInfo(h->device, CL_DEVICE_EXTENSIONS_WITH_VERSION_KHR, 0, NULL, &size));
    cl_name_version_khr list[64];
    REQUIRE(size % sizeof list[0] == 0 && size <= sizeof list);
    CHECK_OK(clGetDeviceInfo(h->device, CL_DEVICE_EXTENSIONS_WITH_VERSION_KHR, size, list, NULL));
    size_t count = size / sizeof list[0], words = 0;
    for (char *p = strtok(extensions, " "); p; p = strtok(NULL, " ")) {
        int found = 0;
        for (size_t i = 0; i < count; i++)
            found |= !strcmp(list[i].name, p);
        CHECK(found);
        words++;
    }
    CHECK_EQ(words, count);
    CHECK_OK(clGetDeviceInfo(h->device, CL_DEVICE_ILS_WITH_VERSION_KHR, sizeof list, list, &size));
    /* SPIR-V 1.0 to 1.6, as CL_DEVICE_IL_VERSION says */
    CHECK_EQ(size / sizeof list[0], 7);
    for (unsigned i = 0; i < 7 && i < size / sizeof list[0]; i++)
        CHECK(!strcmp(list[i].name, "SPIR-V") && CL_VERSION_MAJOR_KHR(list[i].version) == 1 &&
              CL_VERSION_MINOR_KHR(list[i].version) == i);
}

int main(void)
{
    struct harness h = harness_open();
    cl_program program = harness_build(&h, source, NULL);
    REQUIRE(program);
    test_priorities(&h, program);
    test_throttle_and_khr_entry(&h);
    test_suggested(&h, program);
    test_versions(&h);
    clReleaseProgram(program);
    harness_close(&h);
    return harness_finish();
}
