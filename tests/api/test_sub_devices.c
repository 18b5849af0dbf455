/* test_sub_devices.c - clCreateSubDevices (API spec 4.3): every partition
 * type, the queries of sub-devices, kernels on sub-device queues in one
 * context with their parent, reference counts and the spec's errors. */
#include "../harness.h"

static cl_uint units_of(cl_device_id device)
{
    cl_uint units = 0;
    clGetDeviceInfo(device, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof units, &units, NULL);
    return units;
}

/* Runs out[i] = in[i] * k + d on each device's own queue, all at once,
 * and checks every result. */
static void run_on_all(cl_uint count, const cl_device_id *devices)
{
    cl_int err;
    cl_context context = clCreateContext(NULL, count, devices, NULL, NULL, &err);
    CHECK_OK(err);
    const char *source = "kernel void f(global const int *in, global int *out, int k, int d)\n"
                         "{ size_t i = get_global_id(0); out[i] = in[i] * k + d; }\n";
    cl_program program = clCreateProgramWithSource(context, 1, &source, NULL, &err);
    CHECK_OK(err);
    CHECK_OK(clBuildProgram(program, count, devices, "", NULL, NULL));
    enum { N = 4096 };
    static int in[N], out[8][N];
    for (int i = 0; i < N; i++)
        in[i] = i * 3 - 1000;
    cl_mem din = clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof in, in,
                                &err);
    CHECK_OK(err);
    cl_command_queue queues[8];
    cl_mem douts[8];
    cl_kernel kernels[8];
    for (cl_uint d = 0; d < count; d++) {
        queues[d] = clCreateCommandQueueWithProperties(context, devices[d], NULL, &err);
        CHECK_OK(err);
        douts[d] = clCreateBuffer(context, CL_MEM_WRITE_ONLY, sizeof in, NULL, &err);
        kernels[d] = clCreateKernel(program, "f", &err);
        int k = (int)d + 2, add = (int)d * 7;
        CHECK_OK(harness_args(kernels[d], 4, ARG(din), ARG(douts[d]), ARG(k), ARG(add)));
        size_t global = N;
        CHECK_OK(clEnqueueNDRangeKernel(queues[d], kernels[d], 1, NULL, &global, NULL, 0, NULL,
                                        NULL));
    }
    for (cl_uint d = 0; d < count; d++) {
        CHECK_OK(clEnqueueReadBuffer(queues[d], douts[d], CL_TRUE, 0, sizeof in, out[d], 0, NULL,
                                     NULL));
        int bad = 0;
        for (int i = 0; i < N; i++)
            bad += out[d][i] != in[i] * ((int)d + 2) + (int)d * 7;
        CHECK(bad == 0);
        clReleaseKernel(kernels[d]);
        clReleaseMemObject(douts[d]);
        clReleaseCommandQueue(queues[d]);
    }
    clReleaseMemObject(din);
    clReleaseProgram(program);
    clReleaseContext(context);
}

static void uuid_of(cl_device_id device, cl_device_info name, unsigned char uuid[CL_UUID_SIZE_KHR])
{
    size_t size = 0;
    memset(uuid, 0, CL_UUID_SIZE_KHR);
    CHECK_OK(clGetDeviceInfo(device, name, CL_UUID_SIZE_KHR, uuid, &size));
    CHECK_EQ(size, CL_UUID_SIZE_KHR);
    CHECK((uuid[6] & 0xf0) == 0x80 && (uuid[8] & 0xc0) == 0x80); /* RFC 9562 version 8 */
}

/* cl_khr_device_uuid: each sub-device of a partition has a UUID of its
 * own, the same when the partition is made again; one driver UUID; no
 * LUID. */
static void check_uuids(cl_device_id root, cl_uint units)
{
    cl_device_partition_property equally[] = {CL_DEVICE_PARTITION_EQUALLY, 1, 0};
    cl_device_id first[8], again[8];
    cl_uint n = units < 8 ? units : 8;
    CHECK_OK(clCreateSubDevices(root, equally, n, first, NULL));
    CHECK_OK(clCreateSubDevices(root, equally, n, again, NULL));
    unsigned char root_uuid[CL_UUID_SIZE_KHR], driver[CL_UUID_SIZE_KHR];
    uuid_of(root, CL_DEVICE_UUID_KHR, root_uuid);
    uuid_of(root, CL_DRIVER_UUID_KHR, driver);
    unsigned char uuids[8][CL_UUID_SIZE_KHR];
    for (cl_uint i = 0; i < n; i++) {
        unsigned char same[CL_UUID_SIZE_KHR], sub_driver[CL_UUID_SIZE_KHR];
        uuid_of(first[i], CL_DEVICE_UUID_KHR, uuids[i]);
        uuid_of(again[i], CL_DEVICE_UUID_KHR, same);
        uuid_of(first[i], CL_DRIVER_UUID_KHR, sub_driver);
        CHECK(!memcmp(uuids[i], same, sizeof same));
        CHECK(!memcmp(driver, sub_driver, sizeof driver));
        CHECK(memcmp(uuids[i], root_uuid, sizeof root_uuid));
        for (cl_uint j = 0; j < i; j++)
            CHECK(memcmp(uuids[i], uuids[j], sizeof root_uuid));
        cl_bool valid = CL_TRUE;
        CHECK_OK(clGetDeviceInfo(first[i], CL_DEVICE_LUID_VALID_KHR, sizeof valid, &valid, NULL));
        CHECK(valid == CL_FALSE);
        clReleaseDevice(first[i]), clReleaseDevice(again[i]);
    }
    unsigned char small[8];
    CHECK_ERR(clGetDeviceInfo(root, CL_DEVICE_UUID_KHR, sizeof small, small, NULL),
              CL_INVALID_VALUE);
    char extensions[4096] = "";
    CHECK_OK(clGetDeviceInfo(root, CL_DEVICE_EXTENSIONS, sizeof extensions, extensions, NULL));
    CHECK(strstr(extensions, "cl_khr_device_uuid") != NULL);
}

int main(void)
{
    struct harness h = harness_open();
    cl_device_id root = h.device, subs[8];
    cl_uint units = units_of(root), made = 0;
    size_t size = 1;
    CHECK_OK(clGetDeviceInfo(root, CL_DEVICE_PARTITION_TYPE, 0, NULL, &size));
    CHECK(size == 0); /* a root device was not partitioned */

    /* equally, one compute unit each; all of them in one sub-device would
     * be the device itself */
    cl_device_partition_property equally[] = {CL_DEVICE_PARTITION_EQUALLY, 1, 0};
    cl_device_partition_property whole[] = {CL_DEVICE_PARTITION_EQUALLY, units, 0};
    CHECK_ERR(clCreateSubDevices(root, whole, 0, NULL, &made), CL_DEVICE_PARTITION_FAILED);
    if (units < 2) {
        CHECK_ERR(clCreateSubDevices(root, equally, 0, NULL, &made), CL_DEVICE_PARTITION_FAILED);
        harness_close(&h);
        return harness_finish();
    }
    CHECK_OK(clCreateSubDevices(root, equally, 0, NULL, &made));
    CHECK(made == units);
    cl_uint n = made < 7 ? made : 7;
    CHECK_ERR(clCreateSubDevices(root, equally, made - 1 ? made - 1 : 0, made > 1 ? subs : NULL,
                                 NULL),
              CL_INVALID_VALUE);
    if (made <= 7) {
        CHECK_OK(clCreateSubDevices(root, equally, made, subs, NULL));
        for (cl_uint i = 0; i < n; i++) {
            CHECK(units_of(subs[i]) == 1);
            cl_device_id parent = NULL;
            CHECK_OK(clGetDeviceInfo(subs[i], CL_DEVICE_PARENT_DEVICE, sizeof parent, &parent,
                                     NULL));
            CHECK(parent == root);
            cl_device_partition_property type[4] = {0};
            CHECK_OK(clGetDeviceInfo(subs[i], CL_DEVICE_PARTITION_TYPE, sizeof type, type, &size));
            CHECK(size == sizeof equally && !memcmp(type, equally, sizeof equally));
        }
        /* the sub-devices and their parent, side by side in one context */
        subs[n] = root;
        run_on_all(n + 1, subs);
        cl_uint count = 0;
        CHECK_OK(clRetainDevice(subs[0]));
        CHECK_OK(clGetDeviceInfo(subs[0], CL_DEVICE_REFERENCE_COUNT, sizeof count, &count, NULL));
        CHECK(count == 2);
        CHECK_OK(clReleaseDevice(subs[0]));
        for (cl_uint i = 0; i < n; i++)
            CHECK_OK(clReleaseDevice(subs[i]));
    }

    /* by counts: 1 and the rest */
    if (units >= 2) {
        cl_device_partition_property counts[] = {CL_DEVICE_PARTITION_BY_COUNTS, 1, units - 1,
                                                 CL_DEVICE_PARTITION_BY_COUNTS_LIST_END, 0};
        CHECK_OK(clCreateSubDevices(root, counts, 2, subs, &made));
        CHECK(made == 2 && units_of(subs[0]) == 1 && units_of(subs[1]) == units - 1);
        run_on_all(2, subs);
        /* a sub-device is partitioned in turn */
        if (units - 1 >= 2) {
            cl_device_id grand[8];
            cl_uint part = (units - 1) / 2;
            cl_device_partition_property halves[] = {CL_DEVICE_PARTITION_EQUALLY, part, 0};
            CHECK_OK(clCreateSubDevices(subs[1], halves, 0, NULL, &made));
            CHECK(made == (units - 1) / part);
            if (made <= 8) {
                CHECK_OK(clCreateSubDevices(subs[1], halves, made, grand, NULL));
                for (cl_uint i = 0; i < made; i++)
                    CHECK(units_of(grand[i]) == part);
                run_on_all(made, grand);
                for (cl_uint i = 0; i < made; i++)
                    clReleaseDevice(grand[i]);
            }
        }
        clReleaseDevice(subs[0]), clReleaseDevice(subs[1]);
        cl_device_partition_property too_many[] = {CL_DEVICE_PARTITION_BY_COUNTS, units, 1,
                                                   CL_DEVICE_PARTITION_BY_COUNTS_LIST_END, 0};
        CHECK_ERR(clCreateSubDevices(root, too_many, 8, subs, &made),
                  CL_INVALID_DEVICE_PARTITION_COUNT);
    }

    /* by affinity domain: each level the device lists either splits it or
     * says it cannot be partitioned further */
    cl_device_affinity_domain domains = 0;
    CHECK_OK(clGetDeviceInfo(root, CL_DEVICE_PARTITION_AFFINITY_DOMAIN, sizeof domains, &domains,
                             NULL));
    /* offered only when some level splits the device */
    CHECK(!domains || (domains & CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE));
    for (cl_device_affinity_domain d = 1; d <= CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE;
         d <<= 1) {
        cl_device_partition_property by_domain[] = {CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN,
                                                    (cl_device_partition_property)d, 0};
        cl_int err = clCreateSubDevices(root, by_domain, 0, NULL, &made);
        if (!(domains & d)) {
            CHECK(err == CL_INVALID_VALUE);
            continue;
        }
        CHECK_OK(err);
        if (err || made > 8)
            continue;
        CHECK_OK(clCreateSubDevices(root, by_domain, made, subs, NULL));
        cl_uint total = 0;
        for (cl_uint i = 0; i < made; i++)
            total += units_of(subs[i]);
        CHECK(made >= 2 && total == units);
        run_on_all(made, subs);
        for (cl_uint i = 0; i < made; i++)
            clReleaseDevice(subs[i]);
    }

    check_uuids(root, units);

    /* errors (4.3) */
    cl_device_partition_property zero[] = {CL_DEVICE_PARTITION_EQUALLY, 0, 0};
    CHECK_ERR(clCreateSubDevices(root, zero, 8, subs, &made), CL_INVALID_VALUE);
    cl_device_partition_property more[] = {CL_DEVICE_PARTITION_EQUALLY,
                                           (cl_device_partition_property)units + 1, 0};
    CHECK_ERR(clCreateSubDevices(root, more, 8, subs, &made), CL_INVALID_DEVICE_PARTITION_COUNT);
    CHECK_ERR(clCreateSubDevices(root, NULL, 8, subs, &made), CL_INVALID_VALUE);
    CHECK_ERR(clCreateSubDevices(NULL, equally, 8, subs, &made), CL_INVALID_DEVICE);
    CHECK_ERR(clReleaseDevice(NULL), CL_INVALID_DEVICE);

    harness_close(&h);
    return harness_finish();
}
