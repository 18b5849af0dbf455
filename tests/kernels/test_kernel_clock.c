/* test_kernel_clock.c - cl_khr_kernel_clock: clock_read_device,
 * _work_group, _sub_group and their _hilo forms. The device reports the
 * extension, its three scopes and their macros; within a work-item every
 * read follows the one before (the hilo forms the same clock); the device
 * clock, shared by every compute unit, reads between the host's
 * time-stamp counter before the launch and after it (cpucl's clocks are
 * that counter: src/builtins/clock.cl); and across a barrier every read of a
 * work-group's (sub-group's) clock after it follows every read before it. */
#include <stdint.h>
#include <x86intrin.h>

#include "../harness.h"

#define READS 8

static const char *source =
    "#if !defined(cl_khr_kernel_clock) || !defined(__opencl_c_kernel_clock_scope_device) || \\\n"
    "    !defined(__opencl_c_kernel_clock_scope_work_group) || \\\n"
    "    !defined(__opencl_c_kernel_clock_scope_sub_group)\n"
    "#error a macro is not defined\n"
    "#endif\n"
    "ulong join(uint2 v) { return (ulong)v.hi << 32 | v.lo; }\n"
    "kernel void reads(global ulong *out)\n"
    "{\n"
    "    global ulong *o = out + get_global_id(0) * 8;\n"
    "    o[0] = clock_read_device();\n"
    "    o[1] = join(clock_read_hilo_device());\n"
    "    o[2] = clock_read_work_group();\n"
    "    o[3] = join(clock_read_hilo_work_group());\n"
    "    o[4] = clock_read_sub_group();\n"
    "    o[5] = join(clock_read_hilo_sub_group());\n"
    "    o[6] = clock_read_device();\n"
    "    o[7] = join(clock_read_hilo_device());\n"
    "}\n"
    "kernel void across_barriers(global ulong *out)\n"
    "{\n"
    "    global ulong *o = out + get_global_id(0) * 4;\n"
    "    o[0] = clock_read_work_group();\n"
    "    barrier(CLK_GLOBAL_MEM_FENCE);\n"
    "    o[1] = clock_read_work_group();\n"
    "    o[2] = clock_read_sub_group();\n"
    "    sub_group_barrier(CLK_GLOBAL_MEM_FENCE);\n"
    "    o[3] = clock_read_sub_group();\n"
    "}\n";

enum { N = 4096, LOCAL = 64 };

static void test_reads(struct harness *h, cl_program program)
{
    static cl_ulong out[N * READS];
    cl_int err;
    cl_kernel k = clCreateKernel(program, "reads", &err);
    CHECK_OK(err);
    cl_mem dout = harness_buffer(h, CL_MEM_WRITE_ONLY, sizeof out, NULL);
    CHECK_OK(harness_args(k, 1, ARG(dout)));
    size_t global = N, local = LOCAL;
    CHECK_OK(clFinish(h->queue));
    uint64_t before = __rdtsc();
    CHECK_OK(clEnqueueNDRangeKernel(h->queue, k, 1, NULL, &global, &local, 0, NULL, NULL));
    CHECK_OK(clFinish(h->queue));
    uint64_t after = __rdtsc();
    CHECK_OK(clEnqueueReadBuffer(h->queue, dout, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
    int bad = 0;
    for (int i = 0; i < N; i++) {
        const cl_ulong *o = out + i * READS;
        int ok = o[0] >= before && o[READS - 1] <= after;
        for (int j = 1; j < READS; j++)
            ok &= o[j] >= o[j - 1];
        if (!ok && bad++ < 5)
            HARNESS_FAIL("work-item %d: reads %llu .. %llu, host %llu .. %llu\n", i,
                         (unsigned long long)o[0], (unsigned long long)o[READS - 1],
                         (unsigned long long)before, (unsigned long long)after);
    }
    CHECK_NONE_WRONG(bad, "clock reads in order, within the launch");
    clReleaseMemObject(dout);
    clReleaseKernel(k);
}

static void test_barriers(struct harness *h, cl_program program)
{
    static cl_ulong out[N * 4];
    cl_int err;
    cl_kernel k = clCreateKernel(program, "across_barriers", &err);
    CHECK_OK(err);
    size_t sub_group = 0, global = N, local = LOCAL;
    CHECK_OK(clGetKernelSubGroupInfo(k, h->device, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE,
                                     sizeof local, &local, sizeof sub_group, &sub_group, NULL));
    REQUIRE(sub_group >= 1 && LOCAL % sub_group == 0);
    cl_mem dout = harness_buffer(h, CL_MEM_WRITE_ONLY, sizeof out, NULL);
    CHECK_OK(harness_args(k, 1, ARG(dout)));
    CHECK_OK(clEnqueueNDRangeKernel(h->queue, k, 1, NULL, &global, &local, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(h->queue, dout, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
    int bad = 0;
    /* a group of `size` work-items from `first`: every read `after` follows
     * every read `before` */
    for (int pass = 0; pass < 2; pass++) {
        int size = pass ? (int)sub_group : LOCAL, before = pass ? 2 : 0;
        for (int first = 0; first < N; first += size) {
            cl_ulong latest = 0, earliest = UINT64_MAX;
            for (int i = first; i < first + size; i++) {
                latest = out[i * 4 + before] > latest ? out[i * 4 + before] : latest;
                earliest = out[i * 4 + before + 1] < earliest ? out[i * 4 + before + 1] : earliest;
            }
            if (earliest < latest && bad++ < 5)
                HARNESS_FAIL("%s from %d: a read after the barrier precedes one before it\n",
                             pass ? "sub-group" : "work-group", first);
        }
    }
    CHECK_NONE_WRONG(bad, "clock reads ordered by barriers");
    clReleaseMemObject(dout);
    clReleaseKernel(k);
}

int main(void)
{
    struct harness h = harness_open();
    CHECK(harness_has_extension(&h, "cl_khr_kernel_clock"));
    cl_ulong scopes = 0;
    CHECK_OK(clGetDeviceInfo(h.device, 0x1076 /* CL_DEVICE_KERNEL_CLOCK_CAPABILITIES_KHR */,
                             sizeof scopes, &scopes, NULL));
    CHECK_EQ(scopes, 7); /* device, work-group and sub-group */
    cl_program program = harness_build(&h, source, "-cl-std=CL2.0"); /* sub-groups */
    REQUIRE(program);
    test_reads(&h, program);
    test_barriers(&h, program);
    clReleaseProgram(program);
    harness_close(&h);
    return harness_finish();
}
