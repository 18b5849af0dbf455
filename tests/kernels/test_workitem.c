/* test_workitem.c - every work-item function (OpenCL C 6.13.1) written out
 * by every work-item and checked on the host: get_work_dim,
 * get_global_size/id, get_local_size/id, get_enqueued_local_size,
 * get_num_groups, get_group_id, get_global_offset, and (OpenCL C 2.0)
 * get_global_linear_id and get_local_linear_id; plus their answers for a
 * dimension index out of range. Over 1D, 2D and 3D ranges with and without
 * global offsets, with the local size given or left NULL, as OpenCL C 1.2
 * and 2.0 programs, and as non-uniform ranges under -cl-std=CL2.0. */
#include "../harness.h"

enum { FIELDS = 48 };

/* Per work-item record, at its global linear index (computed from the ids
 * in 1.2, where get_global_linear_id does not exist):
 *   0 work_dim; for d in 0..2 at 1+d, 4+d, ...: global id, local id, group
 *   id, local size, global size, num groups, global offset, enqueued local
 *   size; 25 global linear id; 26 local linear id; 27.. out-of-range
 *   answers for dimension indices 3 and 1000: global id, local id, group
 *   id, local size, global size, num groups, global offset, enqueued local
 *   size. */
static const char *source =
    "kernel void workitems(global uint *out)\n"
    "{\n"
    "    size_t lin = ((get_global_id(2) - get_global_offset(2)) * get_global_size(1)\n"
    "                  + get_global_id(1) - get_global_offset(1)) * get_global_size(0)\n"
    "                 + get_global_id(0) - get_global_offset(0);\n"
    "    global uint *o = out + lin * 48;\n"
    "    o[0] = get_work_dim();\n"
    "    for (uint d = 0; d < 3; d++) {\n"
    "        o[1 + d] = get_global_id(d); o[4 + d] = get_local_id(d);\n"
    "        o[7 + d] = get_group_id(d); o[10 + d] = get_local_size(d);\n"
    "        o[13 + d] = get_global_size(d); o[16 + d] = get_num_groups(d);\n"
    "        o[19 + d] = get_global_offset(d);\n"
    "#if __OPENCL_C_VERSION__ >= 200\n"
    "        o[22 + d] = get_enqueued_local_size(d);\n"
    "#else\n"
    "        o[22 + d] = get_local_size(d);\n"
    "#endif\n"
    "    }\n"
    "#if __OPENCL_C_VERSION__ >= 200\n"
    "    o[25] = get_global_linear_id(); o[26] = get_local_linear_id();\n"
    "#else\n"
    "    o[25] = lin;\n"
    "    o[26] = (get_local_id(2) * get_local_size(1) + get_local_id(1)) * get_local_size(0)\n"
    "            + get_local_id(0);\n"
    "#endif\n"
    "    uint bad[2] = {3, 1000};\n"
    "    for (int j = 0; j < 2; j++) {\n"
    "        global uint *q = o + 27 + j * 8;\n"
    "        q[0] = get_global_id(bad[j]); q[1] = get_local_id(bad[j]);\n"
    "        q[2] = get_group_id(bad[j]); q[3] = get_local_size(bad[j]);\n"
    "        q[4] = get_global_size(bad[j]); q[5] = get_num_groups(bad[j]);\n"
    "        q[6] = get_global_offset(bad[j]);\n"
    "#if __OPENCL_C_VERSION__ >= 200\n"
    "        q[7] = get_enqueued_local_size(bad[j]);\n"
    "#else\n"
    "        q[7] = 1;\n"
    "#endif\n"
    "    }\n"
    "    o[47] = 0xC0DE;\n"
    "}\n";

/* Runs `workitems` over a range and checks every field of every
 * work-item. `uniform` says the local size must divide the global size. */
static void check(struct harness *h, cl_program program, const char *what, cl_uint dims,
                  const size_t *offset, const size_t *global, const size_t *local, int uniform)
{
    size_t g[3] = {1, 1, 1}, o[3] = {0, 0, 0}, l[3] = {1, 1, 1};
    for (cl_uint d = 0; d < dims; d++) {
        g[d] = global[d];
        o[d] = offset ? offset[d] : 0;
        if (local)
            l[d] = local[d];
    }
    size_t count = g[0] * g[1] * g[2];
    cl_uint *out = calloc(count * FIELDS, sizeof *out);
    cl_mem dout = harness_buffer(h, CL_MEM_READ_WRITE, count * FIELDS * 4, NULL);
    cl_uint zero = 0;
    CHECK_OK(clEnqueueFillBuffer(h->queue, dout, &zero, 4, 0, count * FIELDS * 4, 0, NULL, NULL));
    cl_kernel k = harness_kernel(program, "workitems");
    CHECK_OK(clSetKernelArg(k, 0, sizeof dout, &dout));
    CHECK_OK(clEnqueueNDRangeKernel(h->queue, k, dims, offset, global, local, 0, NULL, NULL));
    CHECK_OK(
        clEnqueueReadBuffer(h->queue, dout, CL_TRUE, 0, count * FIELDS * 4, out, 0, NULL, NULL));
    if (!local) { /* the runtime chose: read it back from work-item 0 */
        for (int d = 0; d < 3; d++)
            l[d] = out[22 + d] ? out[22 + d] : 1;
        size_t product = l[0] * l[1] * l[2], max = 0;
        clGetKernelWorkGroupInfo(k, h->device, CL_KERNEL_WORK_GROUP_SIZE, sizeof max, &max, NULL);
        CHECK(product >= 1 && product <= max);
        if (uniform)
            CHECK(g[0] % l[0] == 0 && g[1] % l[1] == 0 && g[2] % l[2] == 0);
    }
    long bad = 0, first_bad = -1;
    for (size_t z = 0; z < g[2]; z++)
        for (size_t y = 0; y < g[1]; y++)
            for (size_t x = 0; x < g[0]; x++) {
                size_t id[3] = {x, y, z};
                size_t lin = (z * g[1] + y) * g[0] + x;
                const cl_uint *w = out + lin * FIELDS;
                int ok = w[47] == 0xC0DE && w[0] == dims && w[25] == lin;
                size_t local_lin = 0, stride = 1;
                for (int d = 0; d < 3; d++) {
                    size_t group = id[d] / l[d];
                    size_t groups = (g[d] + l[d] - 1) / l[d];
                    size_t this_size = group == groups - 1 && g[d] % l[d] ? g[d] % l[d] : l[d];
                    ok &= w[1 + d] == (cl_uint)(id[d] + o[d]) && w[4 + d] == id[d] % l[d] &&
                          w[7 + d] == group && w[10 + d] == this_size && w[13 + d] == g[d] &&
                          w[16 + d] == groups && w[19 + d] == (cl_uint)o[d] && w[22 + d] == l[d];
                    local_lin += (id[d] % l[d]) * stride;
                    stride *= this_size;
                }
                ok &= w[26] == local_lin;
                /* 6.13.1: out of range, ids and offsets are 0, sizes and
                 * counts 1. */
                for (int j = 0; j < 2; j++) {
                    const cl_uint *q = w + 27 + j * 8;
                    ok &= q[0] == 0 && q[1] == 0 && q[2] == 0 && q[3] == 1 && q[4] == 1 &&
                          q[5] == 1 && q[6] == 0 && q[7] == 1;
                }
                if (!ok && first_bad < 0)
                    first_bad = (long)lin;
                bad += !ok;
            }
    if (bad) {
        const cl_uint *w = out + first_bad * FIELDS;
        fprintf(stderr, "%s: first wrong work-item %ld:", what, first_bad);
        for (int i = 0; i < FIELDS; i++)
            fprintf(stderr, " %u", w[i]);
        fprintf(stderr, "\n");
    }
    CHECK_NONE_WRONG(bad, what);
    clReleaseKernel(k);
    clReleaseMemObject(dout);
    free(out);
}

int main(void)
{
    struct harness h = harness_open();
    cl_program programs[3] = {
        harness_build(&h, source, ""),                                          /* 1.2 */
        harness_build(&h, source, "-cl-std=CL2.0 -cl-uniform-work-group-size"), /* 2.0 */
        harness_build(&h, source, "-cl-std=CL2.0"), /* 2.0, non-uniform allowed */
    };
    REQUIRE(programs[0] && programs[1] && programs[2]);
    const char *names[3] = {"1.2", "2.0 uniform", "2.0"};

    for (int p = 0; p < 3; p++) {
        char what[128];
#define CASE(label, dims, offset, global, local)                                                   \
    snprintf(what, sizeof what, "%s: %s", names[p], label);                                        \
    check(&h, programs[p], what, dims, offset, global, local, p < 2)
        size_t g1[1] = {96}, l1[1] = {16}, o1[1] = {1000}, big_o1[1] = {(size_t)1 << 33};
        CASE("1D offset", 1, o1, g1, l1);
        CASE("1D offset 2^33", 1, big_o1, g1, l1);
        CASE("1D local NULL", 1, NULL, g1, NULL);
        size_t g1b[1] = {5000}, l1b[1] = {250};
        CASE("1D 5000/250", 1, o1, g1b, l1b);
        size_t g2[2] = {24, 10}, l2[2] = {8, 5}, o2[2] = {3, 7};
        CASE("2D offset", 2, o2, g2, l2);
        CASE("2D local NULL", 2, NULL, g2, NULL);
        size_t g3[3] = {8, 6, 4}, l3[3] = {4, 3, 2}, o3[3] = {1, 2, 3};
        CASE("3D offset", 3, o3, g3, l3);
        CASE("3D local NULL", 3, NULL, g3, NULL);
        size_t g3b[3] = {16, 1, 12}, l3b[3] = {16, 1, 1};
        CASE("3D flat y", 3, o3, g3b, l3b);
        size_t one[3] = {1, 1, 1};
        CASE("3D one item", 3, NULL, one, one);
#undef CASE
    }

    /* Non-uniform ranges (OpenCL C 2.0): the last group in a dimension is
     * smaller, get_local_size says so, get_enqueued_local_size does not. */
    size_t gn1[1] = {1001}, ln1[1] = {64}, on1[1] = {5};
    check(&h, programs[2], "non-uniform 1D", 1, on1, gn1, ln1, 0);
    size_t gn2[2] = {13, 11}, ln2[2] = {4, 4}, on2[2] = {2, 9};
    check(&h, programs[2], "non-uniform 2D", 2, on2, gn2, ln2, 0);
    size_t gn3[3] = {10, 7, 5}, ln3[3] = {4, 3, 2};
    check(&h, programs[2], "non-uniform 3D", 3, NULL, gn3, ln3, 0);
    size_t gn3b[3] = {3, 5, 7}, ln3b[3] = {8, 8, 8}; /* every group is the last */
    check(&h, programs[2], "non-uniform 3D, local > global", 3, NULL, gn3b, ln3b, 0);
    size_t gn1c[1] = {100};
    check(&h, programs[2], "non-uniform 1D local NULL", 1, NULL, gn1c, NULL, 0);
    /* the option's name inside a macro's value is not the option */
    cl_program named = harness_build(&h, source, "-cl-std=CL2.0 -DX=-cl-uniform-work-group-size");
    REQUIRE(named);
    check(&h, named, "non-uniform 3D, option named in a -D", 3, NULL, gn3, ln3, 0);
    clReleaseProgram(named);

    /* A 1.2 and a -cl-uniform-work-group-size program refuse that range. */
    for (int p = 0; p < 2; p++) {
        cl_kernel k = harness_kernel(programs[p], "workitems");
        cl_mem dummy = harness_buffer(&h, CL_MEM_READ_WRITE, 64, NULL);
        CHECK_OK(clSetKernelArg(k, 0, sizeof dummy, &dummy));
        CHECK_ERR(clEnqueueNDRangeKernel(h.queue, k, 3, NULL, gn3, ln3, 0, NULL, NULL),
                  CL_INVALID_WORK_GROUP_SIZE);
        clReleaseKernel(k);
        clReleaseMemObject(dummy);
    }

    /* clEnqueueTask: one work-item in a 1D range of one group. */
    {
        cl_kernel k = harness_kernel(programs[2], "workitems");
        cl_uint out[FIELDS] = {0};
        cl_mem dout = harness_buffer(&h, CL_MEM_READ_WRITE, sizeof out, out);
        CHECK_OK(clSetKernelArg(k, 0, sizeof dout, &dout));
        CHECK_OK(clEnqueueTask(h.queue, k, 0, NULL, NULL));
        CHECK_OK(clEnqueueReadBuffer(h.queue, dout, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
        CHECK(out[0] == 1 && out[1] == 0 && out[10] == 1 && out[13] == 1 && out[16] == 1 &&
              out[47] == 0xC0DE);
        clReleaseKernel(k);
        clReleaseMemObject(dout);
    }
    for (int p = 0; p < 3; p++)
        clReleaseProgram(programs[p]);
    harness_close(&h);
    return harness_finish();
}
