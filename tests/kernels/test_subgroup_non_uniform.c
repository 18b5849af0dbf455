/* test_subgroup_non_uniform.c - the non-uniform sub-group extensions
 * (cl_khr_subgroup_non_uniform_vote, _ballot, _non_uniform_arithmetic,
 * _shuffle, _shuffle_relative, _clustered_reduce, _rotate), compared with
 * the host's for several local sizes and a non-uniform range.
 *
 * Kernel `uniform` calls them where every work-item does: it keeps the
 * host's sub-group width (more than one work-item) and every work-item of a
 * sub-group is active. Kernels `divergent`, `early_return` and `loop` call
 * them under branches on the work-items' own values: each call's active
 * work-items are those of the sub-group that reach it, for whatever
 * sub-group size the kernel reports (cpucl gives such kernels sub-groups of
 * one work-item); the reference follows that definition, not the size.
 *
 * The kernels are tests/data/non_uniform.cl, built from source and as
 * tests/data/non_uniform.spv (SPIR-V 1.4, made by llvm-spirv-15: the
 * translator's names for the OpGroupNonUniform* instructions reach the
 * same library functions). */
#include "sub_group_check.h"

#define UNIFORM_RESULTS 26

static int min_int(int a, int b)
{
    return a < b ? a : b;
}

/* What work-item j of a sub-group of `size` (inputs v[0..size), largest
 * sub-group `max`) writes in kernel `uniform`. */
static void expect_uniform(const int *v, size_t size, size_t max, size_t j, int *want)
{
    int k = 0, x = v[j];
    want[k++] = v[(j * 3 + 1) % size];
    want[k++] = (j ^ 1) < size ? v[j ^ 1] : SUB_GROUP_UNDEFINED;
    want[k++] = j >= 2 ? v[j - 2] : SUB_GROUP_UNDEFINED;
    want[k++] = j + 1 < size ? v[j + 1] : SUB_GROUP_UNDEFINED;
    size_t rotated = (j + 3) % max;
    want[k++] = rotated < size ? v[rotated] : SUB_GROUP_UNDEFINED;
    size_t first4 = j & ~(size_t)3, clustered = first4 + ((j + 3) & 3);
    want[k++] = clustered < size ? v[clustered] : SUB_GROUP_UNDEFINED;
    int sum = 0, product = 1, xor_before = 0, any_big = 0;
    unsigned odd = 0, big = 0;
    float fmax = -1e30f;
    signed char csum = 0;
    int all_equal = 1;
    for (size_t i = 0; i < size; i++) {
        sum += v[i];
        if (i <= j)
            product *= v[i] % 3 + 1;
        if (i < j)
            xor_before ^= v[i];
        any_big |= v[i] > 38;
        odd |= (unsigned)(v[i] & 1) << i;
        big |= (unsigned)(v[i] > 10) << i;
        fmax = (float)v[i] * 0.5f > fmax ? (float)v[i] * 0.5f : fmax;
        csum = (signed char)(csum + (signed char)(v[i] * 7));
        all_equal &= v[i] / 20 == v[0] / 20;
    }
    want[k++] = sum;
    want[k++] = product;
    want[k++] = xor_before;
    want[k++] = any_big;
    size_t first2 = j & ~(size_t)1;
    want[k++] = v[first2] + (first2 + 1 < size ? v[first2 + 1] : 0);
    int cmin = INT_MAX;
    for (size_t i = first4; i < first4 + 4 && i < size; i++)
        cmin = min_int(cmin, v[i]);
    want[k++] = cmin;
    want[k++] = (int)odd;
    want[k++] = __builtin_popcount(odd);
    want[k++] = __builtin_popcount(odd & ((2u << j) - 1));
    want[k++] = big ? 31 - __builtin_clz(big) : SUB_GROUP_UNDEFINED;
    want[k++] = j == 0;
    want[k++] = all_equal;
    want[k++] = v[0];
    want[k++] = (int)(1u << j);
    want[k++] = (int)((1u << j) - 1);
    want[k++] = v[size - 1];
    want[k++] = x & 1;
    want[k++] = (int)(fmax * 2.0f);
    want[k++] = (int)((long long)v[0] * 3000000000LL / 1000000000LL);
    want[k++] = csum;
}

/* Kernel `divergent`: the active work-items are the odd ones. */
static void expect_divergent(const int *v, size_t size, size_t width, size_t j, int *want)
{
    for (int i = 0; i < 6; i++)
        want[i] = -1;
    if (!(v[j] & 1))
        return;
    int sum = 0, before = 0, count = 0, first = -1, all = 1;
    for (size_t i = 0; i < size; i++) {
        if (!(v[i] & 1))
            continue;
        sum += v[i];
        if (i <= j)
            before += v[i];
        count++;
        if (first < 0)
            first = (int)i;
        all &= v[i] > 0;
    }
    want[0] = sum, want[1] = before, want[2] = count;
    want[3] = first == (int)j, want[4] = v[first], want[5] = all;
}

static void expect_early_return(const int *v, size_t size, size_t width, size_t j, int *want)
{
    *want = -1;
    if (v[j] > 30)
        return;
    *want = INT_MIN;
    for (size_t i = 0; i < size; i++)
        if (v[i] <= 30)
            *want = v[i] > *want ? v[i] : *want;
}

/* Kernel `loop`: iteration i's active work-items are those with
 * x % 4 > i (C's %, as OpenCL C's: negative for negative x). */
static void expect_loop(const int *v, size_t size, size_t width, size_t j, int *want)
{
    int acc = 0;
    for (int i = 0; i < v[j] % 4; i++) {
        int active = 0;
        for (size_t k = 0; k < size; k++)
            active += v[k] % 4 > i;
        acc = acc * 7 + (i + 1) * active;
    }
    *want = acc;
}

enum kernel_kind { UNIFORM, DIVERGENT, EARLY_RETURN, LOOP };

static const struct {
    const char *name;
    int results;
    sub_group_expect expect;
} kernels[] = {{"uniform", UNIFORM_RESULTS, expect_uniform},
               {"divergent", 6, expect_divergent},
               {"early_return", 1, expect_early_return},
               {"loop", 1, expect_loop}};

static size_t run(struct harness *h, cl_program program, enum kernel_kind kind, size_t global,
                  size_t local)
{
    cl_kernel k = harness_kernel(program, kernels[kind].name);
    REQUIRE(k);
    size_t width = sub_group_check(h, k, kernels[kind].name, global, local, kernels[kind].results,
                                   kernels[kind].expect);
    clReleaseKernel(k);
    return width;
}

/* Device-side enqueue's queries of a block (OpenCL C 2.0 6.13.17.6) answer
 * the block kernel's own sub-group size: S for a block that calls a
 * non-uniform function alike in every work-item, one for a block that
 * calls it under a branch (as clGetKernelSubGroupInfo would). The blocks
 * are only asked about, never enqueued. */
static const char *block_source =
    "kernel void query(global int *out)\n"
    "{\n"
    "    ndrange_t range = ndrange_1D(64, 64);\n"
    "    void (^alike)(void) = ^{ out[get_local_id(0)] = sub_group_elect(); };\n"
    "    void (^branch)(void) = ^{\n"
    "        if (get_local_id(0) & 1) out[get_local_id(0)] = sub_group_elect();\n"
    "    };\n"
    "    out[0] = get_kernel_sub_group_count_for_ndrange(range, alike);\n"
    "    out[1] = get_kernel_max_sub_group_size_for_ndrange(range, alike);\n"
    "    out[2] = get_kernel_sub_group_count_for_ndrange(range, branch);\n"
    "    out[3] = get_kernel_max_sub_group_size_for_ndrange(range, branch);\n"
    "}\n";

static void test_block_queries(struct harness *h)
{
    cl_program program = harness_build(h, block_source, "-cl-std=CL2.0");
    REQUIRE(program);
    cl_kernel k = harness_kernel(program, "query");
    REQUIRE(k);
    int out[4] = {0, 0, 0, 0};
    cl_mem dout = harness_buffer(h, CL_MEM_READ_WRITE, sizeof out, NULL);
    CHECK_OK(harness_args(k, 1, ARG(dout)));
    size_t one = 1;
    CHECK_OK(clEnqueueNDRangeKernel(h->queue, k, 1, NULL, &one, &one, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(h->queue, dout, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
    size_t local = 64, width = 0; /* the host's: "query" calls no non-uniform function */
    CHECK_OK(clGetKernelSubGroupInfo(k, h->device, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE,
                                     sizeof local, &local, sizeof width, &width, NULL));
    CHECK(width > 1);
    CHECK(out[0] == (int)((64 + width - 1) / width) && out[1] == (int)width);
    CHECK(out[2] == 64 && out[3] == 1);
    clReleaseKernel(k);
    clReleaseMemObject(dout);
    clReleaseProgram(program);
}

/* Independent forward progress (CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_
 * PROGRESS) between sub-groups of one work-item: work-item 0 spins until
 * work-item 3 sets a flag, in a group smaller than the host's width (the
 * fibers once yielded after atomics only when a group was larger). */
static const char *progress_source =
    "kernel void progress(global atomic_int *flag, global int *out)\n"
    "{\n"
    "    int l = get_local_id(0);\n"
    "    if (l & 1) out[l] = sub_group_elect();\n"
    "    if (l == 0) {\n"
    "        while (atomic_load(flag) == 0)\n"
    "            ;\n"
    "        out[0] = 7;\n"
    "    }\n"
    "    if (l == 3) atomic_store(flag, 1);\n"
    "}\n";

static void test_progress(struct harness *h)
{
    cl_program program = harness_build(h, progress_source, "-cl-std=CL2.0");
    REQUIRE(program);
    cl_kernel k = harness_kernel(program, "progress");
    REQUIRE(k);
    cl_int zero[8] = {0};
    cl_mem flag = harness_buffer(h, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof(cl_int), zero);
    cl_mem dout = harness_buffer(h, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof zero, zero);
    CHECK_OK(harness_args(k, 2, ARG(flag), ARG(dout)));
    size_t n = 8, width = 0;
    CHECK_OK(clGetKernelSubGroupInfo(k, h->device, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE,
                                     sizeof n, &n, sizeof width, &width, NULL));
    CHECK(width == 1);
    CHECK_OK(clEnqueueNDRangeKernel(h->queue, k, 1, NULL, &n, &n, 0, NULL, NULL));
    cl_int out[8];
    CHECK_OK(clEnqueueReadBuffer(h->queue, dout, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
    CHECK(out[0] == 7 && out[1] == 1 && out[3] == 1);
    clReleaseMemObject(flag), clReleaseMemObject(dout);
    clReleaseKernel(k);
    clReleaseProgram(program);
}

int main(void)
{
    struct harness h = harness_open();
    char extensions[4096] = "";
    CHECK_OK(clGetDeviceInfo(h.device, CL_DEVICE_EXTENSIONS, sizeof extensions, extensions, NULL));
    static const char *const names[] = {"cl_khr_subgroup_non_uniform_vote",
                                        "cl_khr_subgroup_ballot",
                                        "cl_khr_subgroup_non_uniform_arithmetic",
                                        "cl_khr_subgroup_shuffle",
                                        "cl_khr_subgroup_shuffle_relative",
                                        "cl_khr_subgroup_clustered_reduce",
                                        "cl_khr_subgroup_rotate"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        CHECK(strstr(extensions, names[i]) != NULL);
    size_t size;
    char *source = (char *)harness_load_file(CPUCL_TEST_DATA "/non_uniform.cl", &size);
    unsigned char *il = harness_load_file(CPUCL_TEST_DATA "/non_uniform.spv", &size);
    REQUIRE(source && il);
    cl_int err;
    cl_program programs[2] = {harness_build(&h, source, "-cl-std=CL2.0"),
                              clCreateProgramWithIL(h.context, il, size, &err)};
    CHECK_OK(err);
    CHECK_OK(clBuildProgram(programs[1], 1, &h.device, "", NULL, NULL));
    REQUIRE(programs[0] && programs[1]);
    static const size_t locals[] = {1, 7, 64, 100, 256};
    for (int p = 0; p < 2; p++)
        for (int kind = UNIFORM; kind <= LOOP; kind++) {
            for (size_t i = 0; i < sizeof locals / sizeof locals[0]; i++) {
                size_t width =
                    run(&h, programs[p], (enum kernel_kind)kind, locals[i] * 3, locals[i]);
                /* called alike by every work-item: the host's width */
                if (kind == UNIFORM && locals[i] >= 64)
                    CHECK(width > 1);
            }
            run(&h, programs[p], (enum kernel_kind)kind, 1000, 96); /* the last group: 40 */
        }
    free(source), free(il);
    clReleaseProgram(programs[0]), clReleaseProgram(programs[1]);
    test_block_queries(&h);
    test_progress(&h);
    harness_close(&h);
    return harness_finish();
}
