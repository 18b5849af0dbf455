/* sub_group_check.h - the run-and-compare loop of the sub-group tests
 * (test_subgroup_types.c, test_subgroup_non_uniform.c).
 *
 * The kernel is k(global const int *in, global int *out): each work-item
 * reads in[its global id] and writes `results` ints at out[id * results].
 * in[i] = (i * 29 + 5) % 45 - 3. Sub-group k of a work-group holds the
 * local ids [k * width, (k + 1) * width), width the largest sub-group the
 * kernel reports for the local size (CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_
 * NDRANGE); expect(v, size, width, j, want) gives the results of the
 * work-item j of a sub-group of `size` whose inputs are v[0..size). A
 * wanted value of SUB_GROUP_UNDEFINED (the spec leaves it undefined) is not
 * compared. */
#ifndef CPUCL_TESTS_SUB_GROUP_CHECK_H
#define CPUCL_TESTS_SUB_GROUP_CHECK_H

#include <limits.h>
#include <string.h>

#include "../harness.h"

#define SUB_GROUP_UNDEFINED INT_MIN
#define SUB_GROUP_MAX_RESULTS 128

typedef void (*sub_group_expect)(const int *v, size_t size, size_t width, size_t j, int *want);

/* Runs it over `global` work-items in groups of `local`; the width. */
static size_t sub_group_check(struct harness *h, cl_kernel k, const char *name, size_t global,
                              size_t local, int results, sub_group_expect expect)
{
    size_t width = 0;
    CHECK_OK(clGetKernelSubGroupInfo(k, h->device, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE,
                                     sizeof local, &local, sizeof width, &width, NULL));
    REQUIRE(width > 0 && results <= SUB_GROUP_MAX_RESULTS);
    int *in = malloc(global * sizeof *in), *out = malloc(global * results * sizeof *out);
    REQUIRE(in && out);
    for (size_t i = 0; i < global; i++)
        in[i] = (int)((i * 29 + 5) % 45) - 3;
    cl_mem din =
        harness_buffer(h, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, global * sizeof *in, in);
    cl_mem dout = harness_buffer(h, CL_MEM_WRITE_ONLY, global * results * sizeof *out, NULL);
    CHECK_OK(harness_args(k, 2, ARG(din), ARG(dout)));
    CHECK_OK(clEnqueueNDRangeKernel(h->queue, k, 1, NULL, &global, &local, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(h->queue, dout, CL_TRUE, 0, global * results * sizeof *out, out, 0,
                                 NULL, NULL));
    size_t bad = 0;
    for (size_t g0 = 0; g0 < global; g0 += local) {
        size_t items = global - g0 < local ? global - g0 : local;
        for (size_t l = 0; l < items; l++) {
            size_t first = l / width * width;
            size_t size = items - first < width ? items - first : width;
            int want[SUB_GROUP_MAX_RESULTS];
            memset(want, 0, sizeof want);
            expect(in + g0 + first, size, width, l - first, want);
            for (int r = 0; r < results; r++)
                if (want[r] != SUB_GROUP_UNDEFINED && out[(g0 + l) * results + r] != want[r] &&
                    bad++ < 5)
                    HARNESS_FAIL("%s %zu/%zu (sub-groups of %zu): item %zu result %d: got %d, "
                                 "want %d\n",
                                 name, global, local, width, g0 + l, r, out[(g0 + l) * results + r],
                                 want[r]);
        }
    }
    CHECK(bad == 0);
    clReleaseMemObject(din), clReleaseMemObject(dout);
    free(in), free(out);
    return width;
}

#endif
