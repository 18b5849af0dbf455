/* test_args.c - kernel arguments of every kind the foundation supports, and
 * every work-item function, checked per work-item on the host. */
#include "../harness.h"

static const char *source =
    "typedef struct { int a; float b; char c; long d; } S;\n"
    "kernel void values(global long *out, char c, short s, int i, long l, float f, double d,\n"
    "                   float4 v, int3 w, S st, uchar u)\n"
    "{\n"
    "    out[0] = c; out[1] = s; out[2] = i; out[3] = l; out[4] = (long)(f * 4.0f);\n"
    "    out[5] = (long)(d * 8.0); out[6] = (long)(v.x + v.y * 10 + v.z * 100 + v.w * 1000);\n"
    "    out[7] = w.x + w.y * 10 + w.z * 100; out[8] = st.a; out[9] = (long)(st.b * 2.0f);\n"
    "    out[10] = st.c; out[11] = st.d; out[12] = u;\n"
    "}\n"
    "kernel void locals(global const int *in, global int *out, local int *scratch,\n"
    "                   constant int *table)\n"
    "{\n"
    "    local int fixed[16];\n"
    "    size_t l = get_local_id(0), g = get_global_id(0);\n"
    "    scratch[l] = in[g] * 2;\n"
    "    fixed[l % 16] = (int)l;\n"
    "    out[g] = scratch[l] + table[g % 4] + fixed[l % 16] - (int)l;\n"
    "}\n"
    "kernel void workitems(global uint *out)\n"
    "{\n"
    "    size_t lin = get_global_linear_id();\n"
    "    global uint *o = out + lin * 32;\n"
    "    o[0] = get_work_dim();\n"
    "    for (uint d = 0; d < 3; d++) {\n"
    "        o[1 + d] = get_global_id(d); o[4 + d] = get_local_id(d);\n"
    "        o[7 + d] = get_group_id(d); o[10 + d] = get_local_size(d);\n"
    "        o[13 + d] = get_global_size(d); o[16 + d] = get_num_groups(d);\n"
    "        o[19 + d] = get_global_offset(d); o[22 + d] = get_enqueued_local_size(d);\n"
    "    }\n"
    "    o[25] = lin; o[26] = get_local_linear_id();\n"
    "    o[27] = get_global_id(3); o[28] = get_local_size(7);\n"
    "}\n";

typedef struct {
    cl_int a;
    cl_float b;
    cl_char c;
    cl_long d;
} S;

static void test_values(struct harness *h, cl_program program)
{
    cl_kernel k = harness_kernel(program, "values");
    cl_mem out = harness_buffer(h, CL_MEM_WRITE_ONLY, 16 * 8, NULL);
    cl_char c = -5;
    cl_short s = -300;
    cl_int i = 123456;
    cl_long l = -(1LL << 40);
    cl_float f = 2.25f;
    cl_double d = 1.125;
    cl_float4 v = {{1, 2, 3, 4}};
    cl_int3 w = {{7, 8, 9}};
    S st = {42, 3.5f, 'x', 1LL << 50};
    cl_uchar u = 250;
    CHECK_OK(clSetKernelArg(k, 0, sizeof out, &out));
    CHECK_OK(clSetKernelArg(k, 1, sizeof c, &c));
    CHECK_OK(clSetKernelArg(k, 2, sizeof s, &s));
    CHECK_OK(clSetKernelArg(k, 3, sizeof i, &i));
    CHECK_OK(clSetKernelArg(k, 4, sizeof l, &l));
    CHECK_OK(clSetKernelArg(k, 5, sizeof f, &f));
    CHECK_OK(clSetKernelArg(k, 6, sizeof d, &d));
    CHECK_OK(clSetKernelArg(k, 7, sizeof v, &v));
    CHECK_OK(clSetKernelArg(k, 8, sizeof w, &w));
    CHECK_OK(clSetKernelArg(k, 9, sizeof st, &st));
    CHECK_OK(clSetKernelArg(k, 10, sizeof u, &u));
    /* Wrong sizes are refused. */
    CHECK_ERR(clSetKernelArg(k, 3, sizeof l, &l), CL_INVALID_ARG_SIZE);
    CHECK_ERR(clSetKernelArg(k, 3, sizeof i, NULL), CL_INVALID_ARG_VALUE);
    CHECK_ERR(clSetKernelArg(k, 11, sizeof i, &i), CL_INVALID_ARG_INDEX);
    CHECK_OK(clEnqueueTask(h->queue, k, 0, NULL, NULL));
    cl_long got[13];
    CHECK_OK(clEnqueueReadBuffer(h->queue, out, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL));
    cl_long want[13] = {-5, -300, 123456, -(1LL << 40), 9, 9, 4321, 987, 42, 7, 'x', 1LL << 50, 250};
    for (int j = 0; j < 13; j++) {
        if (got[j] != want[j])
            fprintf(stderr, "value %d: got %lld want %lld\n", j, (long long)got[j],
                    (long long)want[j]);
        CHECK(got[j] == want[j]);
    }
    clReleaseKernel(k);
    clReleaseMemObject(out);
}

static void test_locals(struct harness *h, cl_program program)
{
    enum { N = 4096 };
    cl_int in[N], out[N], table[4] = {1000, 2000, 3000, 4000};
    for (int j = 0; j < N; j++)
        in[j] = j * 3 - 100;
    cl_mem din = harness_buffer(h, CL_MEM_READ_ONLY, sizeof in, in);
    cl_mem dout = harness_buffer(h, CL_MEM_WRITE_ONLY, sizeof out, NULL);
    cl_mem dtable = harness_buffer(h, CL_MEM_READ_ONLY, sizeof table, table);
    cl_kernel k = harness_kernel(program, "locals");
    CHECK_OK(clSetKernelArg(k, 0, sizeof din, &din));
    CHECK_OK(clSetKernelArg(k, 1, sizeof dout, &dout));
    CHECK_ERR(clSetKernelArg(k, 2, 64, &din), CL_INVALID_ARG_VALUE);
    CHECK_ERR(clSetKernelArg(k, 2, 0, NULL), CL_INVALID_ARG_SIZE);
    CHECK_OK(clSetKernelArg(k, 2, 256 * sizeof(cl_int), NULL));
    CHECK_OK(clSetKernelArg(k, 3, sizeof dtable, &dtable));
    cl_ulong local_mem = 0;
    CHECK_OK(clGetKernelWorkGroupInfo(k, h->device, CL_KERNEL_LOCAL_MEM_SIZE, sizeof local_mem,
                                      &local_mem, NULL));
    CHECK(local_mem >= 256 * sizeof(cl_int) + 16 * sizeof(cl_int));
    size_t global = N, local = 256;
    CHECK_OK(clEnqueueNDRangeKernel(h->queue, k, 1, NULL, &global, &local, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(h->queue, dout, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
    int bad = 0;
    for (int j = 0; j < N; j++)
        bad += out[j] != in[j] * 2 + table[j % 4];
    CHECK(bad == 0);
    clReleaseKernel(k);
    clReleaseMemObject(din), clReleaseMemObject(dout), clReleaseMemObject(dtable);
}

/* Runs `workitems` over a range and checks every field of every work-item. */
static void check_workitems(struct harness *h, cl_program program, cl_uint dims,
                            const size_t *offset, const size_t *global, const size_t *local)
{
    size_t g[3] = {1, 1, 1}, o[3] = {0, 0, 0}, l[3] = {1, 1, 1};
    for (cl_uint d = 0; d < dims; d++) {
        g[d] = global[d];
        o[d] = offset ? offset[d] : 0;
        if (local)
            l[d] = local[d];
    }
    size_t count = g[0] * g[1] * g[2];
    cl_uint *out = calloc(count * 32, sizeof *out);
    cl_mem dout = harness_buffer(h, CL_MEM_READ_WRITE, count * 32 * 4, NULL);
    cl_kernel k = harness_kernel(program, "workitems");
    CHECK_OK(clSetKernelArg(k, 0, sizeof dout, &dout));
    CHECK_OK(clEnqueueNDRangeKernel(h->queue, k, dims, offset, global, local, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(h->queue, dout, CL_TRUE, 0, count * 32 * 4, out, 0, NULL, NULL));
    if (!local) /* the runtime chose: read the size back from work-item 0 */
        for (int d = 0; d < 3; d++)
            l[d] = out[22 + d] ? out[22 + d] : 1;
    int bad = 0;
    for (size_t z = 0; z < g[2]; z++)
        for (size_t y = 0; y < g[1]; y++)
            for (size_t x = 0; x < g[0]; x++) {
                size_t id[3] = {x, y, z};
                size_t lin = (z * g[1] + y) * g[0] + x;
                const cl_uint *w = out + lin * 32;
                int ok = w[0] == dims && w[25] == lin && w[27] == 0 && w[28] == 1;
                size_t local_lin = 0, stride = 1;
                for (int d = 0; d < 3; d++) {
                    size_t group = id[d] / l[d];
                    size_t groups = (g[d] + l[d] - 1) / l[d];
                    size_t this_size = group == groups - 1 && g[d] % l[d] ? g[d] % l[d] : l[d];
                    ok &= w[1 + d] == id[d] + o[d] && w[4 + d] == id[d] % l[d] &&
                          w[7 + d] == group && w[10 + d] == this_size && w[13 + d] == g[d] &&
                          w[16 + d] == groups && w[19 + d] == o[d] && w[22 + d] == l[d];
                    local_lin += (id[d] % l[d]) * stride;
                    stride *= this_size;
                }
                ok &= w[26] == local_lin;
                bad += !ok;
            }
    if (bad)
        fprintf(stderr, "workitems: %d of %zu work-items wrong (dims %u)\n", bad, count, dims);
    CHECK(bad == 0);
    clReleaseKernel(k);
    clReleaseMemObject(dout);
    free(out);
}

int main(void)
{
    struct harness h = harness_open();
    /* get_global_linear_id and friends are OpenCL C 2.0. */
    cl_program program = harness_build(&h, source, "-cl-std=CL2.0 -cl-uniform-work-group-size");
    REQUIRE(program);
    test_values(&h, program);
    test_locals(&h, program);

    size_t g1[1] = {96}, l1[1] = {16}, o1[1] = {1000};
    check_workitems(&h, program, 1, o1, g1, l1);
    check_workitems(&h, program, 1, NULL, g1, NULL);
    size_t g2[2] = {24, 10}, l2[2] = {8, 5}, o2[2] = {3, 7};
    check_workitems(&h, program, 2, o2, g2, l2);
    size_t g3[3] = {8, 6, 4}, l3[3] = {4, 3, 2}, o3[3] = {1, 2, 3};
    check_workitems(&h, program, 3, o3, g3, l3);
    check_workitems(&h, program, 3, NULL, g3, NULL);
    clReleaseProgram(program);

    /* Non-uniform ranges (OpenCL C 2.0): the last group in each dimension is
     * smaller, and get_local_size says so. */
    cl_program program20 = harness_build(&h, source, "-cl-std=CL2.0");
    REQUIRE(program20);
    size_t gn[3] = {10, 7, 5}, ln[3] = {4, 3, 2};
    check_workitems(&h, program20, 3, NULL, gn, ln);
    size_t gn1[1] = {1001}, ln1[1] = {64};
    check_workitems(&h, program20, 1, o1, gn1, ln1);
    clReleaseProgram(program20);
    harness_close(&h);
    return harness_finish();
}
