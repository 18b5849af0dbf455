/* test_group_addresses.c - kernels that load some components of vectors in
 * global memory (`a[i].xyz`, cross of float4 and double4) at indices that
 * are the global id plus or minus values the same for every work-item
 * (`b[i + 1]`, `c[i - 1 + shift]`), also behind a guard (`if (i < n)`),
 * which the compiler counts from the group's first work-item (src/compiler/group_addresses.cpp) so
 * that the loop vectorizer loads them with wide loads instead of gathers; and the same with an int
 * index, which it leaves alone. Run with a global offset, groups that do not divide the range
 * (OpenCL 2.0 non-uniform groups) and the local size left to the driver. The inputs are small
 * integers, so every result is exact and compared with the host's. */
#include <stdbool.h>
#include <stdint.h>

#include "../harness.h"

static const char *source =
    "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
    "kernel void float_xyz(global const float4 *a, global const float4 *b,\n"
    "                      global const float4 *c, global float4 *out, long shift)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    float4 p = a[i], q = b[i + 1], r = c[i - 1 + shift];\n"
    "    out[i] = cross(p, q) + (float4)(r.xyz * 2.0f, p.x - q.y);\n"
    "}\n"
    "kernel void double_xyz(global const double4 *a, global const double4 *b,\n"
    "                       global const double4 *c, global double4 *out, long shift)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    double4 p = a[i], q = b[i + 1], r = c[i - 1 + shift];\n"
    "    out[i] = cross(p, q) + (double4)(r.xyz * 2.0, p.x - q.y);\n"
    "}\n"
    /* behind a guard: narrow.cpp cuts the loop, group_addresses.cpp
     * merges the blocks its folded branch leaves */
    "kernel void guarded_xyz(global const float4 *a, global const float4 *b,\n"
    "                        global const float4 *c, global float4 *out, long shift)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    if (i < LIMIT) {\n"
    "        float4 p = a[i], q = b[i + 1], r = c[i - 1 + shift];\n"
    "        out[i] = cross(p, q) + (float4)(r.xyz * 2.0f, p.x - q.y);\n"
    "    }\n"
    "}\n"
    "kernel void int_xyz(global const float4 *a, global const float4 *b,\n"
    "                    global const float4 *c, global float4 *out, long shift)\n"
    "{\n"
    "    int i = get_global_id(0);\n"
    "    float4 p = a[i], q = b[i + 1], r = c[i - 1 + (int)shift];\n"
    "    out[i] = cross(p, q) + (float4)(r.xyz * 2.0f, p.x - q.y);\n"
    "}\n";

enum { N = 3000, OFFSET = 7, SHIFT = 5, LIMIT = 2950 };

/* the kernels' results at item i, in double (exact for these inputs) */
static void expected(const double *a, const double *b, const double *c, size_t i, double *want)
{
    const double *p = a + 4 * i, *q = b + 4 * (i + 1), *r = c + 4 * (i - 1 + SHIFT);
    want[0] = p[1] * q[2] - p[2] * q[1] + r[0] * 2;
    want[1] = p[2] * q[0] - p[0] * q[2] + r[1] * 2;
    want[2] = p[0] * q[1] - p[1] * q[0] + r[2] * 2;
    want[3] = p[0] - q[1];
}

static void run(struct harness *h, cl_program program, const char *name, bool is_double,
                const size_t *local)
{
    bool guarded = !strcmp(name, "guarded_xyz");
    size_t element = is_double ? sizeof(double) : sizeof(float);
    size_t count = 4 * (N + OFFSET + SHIFT + 2), bytes = count * element;
    double *values[3];
    void *data[3];
    for (int k = 0; k < 3; k++) {
        values[k] = malloc(count * sizeof(double));
        data[k] = malloc(bytes);
        REQUIRE(values[k] && data[k]);
        for (size_t j = 0; j < count; j++) {
            /* small integers: products and sums are exact in float */
            values[k][j] = (double)((int)((j * (37 + 11 * k) + 5 * k) % 61) - 30);
            if (is_double)
                ((double *)data[k])[j] = values[k][j];
            else
                ((float *)data[k])[j] = (float)values[k][j];
        }
    }
    cl_mem a = harness_buffer(h, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, data[0]);
    cl_mem b = harness_buffer(h, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, data[1]);
    cl_mem c = harness_buffer(h, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, data[2]);
    void *got = calloc(1, bytes); /* zeros where a guarded kernel writes nothing */
    REQUIRE(got);
    cl_mem out = harness_buffer(h, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes, got);
    cl_long shift = SHIFT;
    cl_kernel kernel = harness_kernel(program, name);
    REQUIRE(kernel);
    CHECK_OK(harness_args(kernel, 5, ARG(a), ARG(b), ARG(c), ARG(out), ARG(shift)));
    size_t offset = OFFSET, global = N;
    CHECK_OK(clEnqueueNDRangeKernel(h->queue, kernel, 1, &offset, &global, local, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(h->queue, out, CL_TRUE, 0, bytes, got, 0, NULL, NULL));
    long bad = 0;
    for (size_t i = OFFSET; i < OFFSET + N; i++) {
        double want[4] = {0, 0, 0, 0};
        if (!guarded || i < LIMIT)
            expected(values[0], values[1], values[2], i, want);
        for (int k = 0; k < 4; k++) {
            double value = is_double ? ((double *)got)[4 * i + k] : ((float *)got)[4 * i + k];
            if (value != want[k] && bad++ < 3)
                fprintf(stderr, "%s: item %zu component %d is %g, expected %g\n", name, i, k, value,
                        want[k]);
        }
    }
    char what[96];
    snprintf(what, sizeof what, "%s, local size %zu", name, local ? *local : 0);
    CHECK_NONE_WRONG(bad, what);
    free(got);
    for (int k = 0; k < 3; k++)
        free(values[k]), free(data[k]);
    clReleaseKernel(kernel);
    clReleaseMemObject(a), clReleaseMemObject(b), clReleaseMemObject(c), clReleaseMemObject(out);
}

int main(void)
{
    struct harness h = harness_open();
    char options[64];
    snprintf(options, sizeof options, "-cl-std=CL2.0 -DLIMIT=%d", LIMIT);
    cl_program program = harness_build(&h, source, options);
    REQUIRE(program);
    /* 64 four times: the third launch makes a launch copy (codegen.c) */
    static const size_t locals[] = {1, 7, 64, 64, 64, 64, 256};
    for (int l = -1; l < (int)(sizeof locals / sizeof locals[0]); l++) {
        const size_t *local = l < 0 ? NULL : &locals[l];
        run(&h, program, "float_xyz", false, local);
        run(&h, program, "double_xyz", true, local);
        run(&h, program, "int_xyz", false, local);
        run(&h, program, "guarded_xyz", false, local);
    }
    clReleaseProgram(program);
    harness_close(&h);
    return harness_finish();
}
