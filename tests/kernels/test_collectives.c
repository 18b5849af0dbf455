/* test_collectives.c - work-group collectives (OpenCL C 2.0, 6.13.15) for
 * every type, and the sub-group functions of cl_khr_subgroups with
 * clGetKernelSubGroupInfo (5.9.3): results computed on the host for local
 * sizes 1, 7, 64, 256, 1024, 2D groups and non-uniform ranges. Values are
 * small integers, so float sums are exact in any order. */
#include <limits.h>

#include "../harness.h"

#define RESULTS 12 /* per work-item: see the kernel */

#define KERNEL(T)                                                                                  \
    "kernel void wg_" #T "(global const " #T " *in, global " #T " *out, uint from)\n"              \
    "{\n"                                                                                          \
    "    size_t g = get_global_linear_id();\n"                                                     \
    "    " #T " x = in[g];\n"                                                                      \
    "    global " #T " *o = out + g * 12;\n"                                                       \
    "    o[0] = work_group_reduce_add(x);\n"                                                       \
    "    o[1] = work_group_reduce_min(x);\n"                                                       \
    "    o[2] = work_group_reduce_max(x);\n"                                                       \
    "    o[3] = work_group_scan_inclusive_add(x);\n"                                               \
    "    o[4] = work_group_scan_inclusive_min(x);\n"                                               \
    "    o[5] = work_group_scan_inclusive_max(x);\n"                                               \
    "    o[6] = work_group_scan_exclusive_add(x);\n"                                               \
    "    o[7] = work_group_scan_exclusive_min(x);\n"                                               \
    "    o[8] = work_group_scan_exclusive_max(x);\n"                                               \
    "    o[9] = get_work_dim() == 1 ? work_group_broadcast(x, from)\n"                             \
    "         : work_group_broadcast(x, from % get_local_size(0), from / get_local_size(0));\n"    \
    "    o[10] = work_group_all(x > 0);\n"                                                         \
    "    o[11] = work_group_any(x > 40);\n"                                                        \
    "}\n"

static const char *source = KERNEL(int) KERNEL(uint) KERNEL(long) KERNEL(ulong) KERNEL(float)
    KERNEL(double)
    /* Sub-groups: queries, collectives, and a sub_group_barrier exchange
     * through local memory; sub-group 0 goes round its loop three times,
     * the others once, so sub-groups pass different numbers of barriers. */
    "kernel void sg(global const int *in, global int *out, local int *tile)\n"
    "{\n"
    "    size_t g = get_global_linear_id(), l = get_local_linear_id();\n"
    "    int x = in[g];\n"
    "    global int *o = out + g * 14;\n"
    "    o[0] = get_sub_group_size();\n"
    "    o[1] = get_max_sub_group_size();\n"
    "    o[2] = get_num_sub_groups();\n"
    "    o[3] = get_enqueued_num_sub_groups();\n"
    "    o[4] = get_sub_group_id();\n"
    "    o[5] = get_sub_group_local_id();\n"
    "    o[6] = sub_group_reduce_add(x);\n"
    "    o[7] = sub_group_scan_inclusive_add(x);\n"
    "    o[8] = sub_group_scan_exclusive_max(x);\n"
    "    o[9] = sub_group_broadcast(x, get_sub_group_size() - 1);\n"
    "    o[10] = sub_group_all(x > 0);\n"
    "    o[11] = sub_group_any(x > 40);\n"
    "    size_t first = l - get_sub_group_local_id();\n"
    "    int v = x;\n"
    "    for (int round = 0; round < (get_sub_group_id() == 0 ? 3 : 1); round++) {\n"
    "        tile[l] = v;\n"
    "        sub_group_barrier(CLK_LOCAL_MEM_FENCE);\n"
    "        v = tile[first + (get_sub_group_local_id() + 1) % get_sub_group_size()];\n"
    "        sub_group_barrier(CLK_LOCAL_MEM_FENCE, memory_scope_sub_group);\n"
    "    }\n"
    "    o[12] = v;\n"
    "    o[13] = work_group_reduce_max(x) + sub_group_reduce_min(x);\n"
    "}\n"
    /* Sub-group collectives every work-item reaches alike: run as regions,
     * vectorized, rather than on fibers. */
    "kernel void sg_alike(global const int *in, global int *out)\n"
    "{\n"
    "    size_t g = get_global_id(0);\n"
    "    int x = in[g];\n"
    "    out[g * 4 + 0] = sub_group_reduce_add(x);\n"
    "    out[g * 4 + 1] = sub_group_scan_exclusive_add(x);\n"
    "    out[g * 4 + 2] = sub_group_broadcast(x, 0);\n"
    "    sub_group_barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    out[g * 4 + 3] = sub_group_reduce_max(x) + work_group_reduce_min(x);\n"
    "}\n"
    /* Independent forward progress (9.17.1): the first sub-group spins
     * until the last one has written, with no barrier between them. */
    "kernel void progress(global int *out)\n"
    "{\n"
    "    local atomic_int flag;\n"
    "    if (get_local_linear_id() == 0) atomic_init(&flag, 0);\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    int seen = 0;\n"
    "    if (get_sub_group_id() == 0) {\n"
    "        while (!(seen = atomic_load(&flag)))\n"
    "            ;\n"
    "    } else if (get_sub_group_id() == get_num_sub_groups() - 1 &&\n"
    "               get_sub_group_local_id() == 0) {\n"
    "        atomic_store(&flag, 7);\n"
    "    }\n"
    "    out[get_global_id(0)] = seen;\n"
    "}\n";

/* Host results, as doubles: every value is a small integer. */
struct expect {
    double v[RESULTS];
};

static double add(double a, double b) { return a + b; }
static double lo(double a, double b) { return b < a ? b : a; }
static double hi(double a, double b) { return b > a ? b : a; }

/* The group of work-items [first, first + n) in local linear order. */
static void expect_group(const double *x, size_t first, size_t n, size_t from, double largest,
                         double smallest, struct expect *e)
{
    double (*op[3])(double, double) = {add, lo, hi};
    double identity[3] = {0, largest, smallest};
    for (int k = 0; k < 3; k++) {
        double total = x[first], prefix = identity[k];
        for (size_t i = 1; i < n; i++)
            total = op[k](total, x[first + i]);
        for (size_t i = 0; i < n; i++) {
            e[first + i].v[k] = total;
            e[first + i].v[6 + k] = prefix;
            prefix = op[k](prefix, x[first + i]);
            e[first + i].v[3 + k] = prefix;
        }
    }
    int all = 1, any = 0;
    for (size_t i = 0; i < n; i++) {
        all &= x[first + i] > 0;
        any |= x[first + i] > 40;
    }
    for (size_t i = 0; i < n; i++) {
        e[first + i].v[9] = x[first + from];
        e[first + i].v[10] = all;
        e[first + i].v[11] = any;
    }
}

enum type { INT, UINT, LONG, ULONG, FLOAT, DOUBLE };
static const char *const type_names[] = {"int", "uint", "long", "ulong", "float", "double"};
static const size_t type_sizes[] = {4, 4, 8, 8, 4, 8};

static void store(enum type t, void *array, size_t i, double value)
{
    switch (t) {
    case INT: ((cl_int *)array)[i] = (cl_int)value; break;
    case UINT: ((cl_uint *)array)[i] = (cl_uint)value; break;
    case LONG: ((cl_long *)array)[i] = (cl_long)value; break;
    case ULONG: ((cl_ulong *)array)[i] = (cl_ulong)value; break;
    case FLOAT: ((cl_float *)array)[i] = (cl_float)value; break;
    case DOUBLE: ((cl_double *)array)[i] = value; break;
    }
}

static double load(enum type t, const void *array, size_t i)
{
    switch (t) {
    case INT: return ((const cl_int *)array)[i];
    case UINT: return ((const cl_uint *)array)[i];
    case LONG: return (double)((const cl_long *)array)[i];
    case ULONG: return (double)((const cl_ulong *)array)[i];
    case FLOAT: return ((const cl_float *)array)[i];
    default: return ((const cl_double *)array)[i];
    }
}

/* One launch of wg_T over global x local (1D or 2D, both dimensions of a
 * 2D range given), compared item by item. */
static void check_work_group(struct harness *h, cl_program program, enum type t, cl_uint dims,
                             const size_t *global, const size_t *local)
{
    size_t n = global[0] * (dims > 1 ? global[1] : 1);
    double *x = malloc(n * sizeof *x);
    struct expect *e = malloc(n * sizeof *e);
    void *in = malloc(n * 8), *out = malloc(n * RESULTS * 8);
    REQUIRE(x && e && in && out);
    /* Signed types get negatives; all values fit every type exactly. */
    int is_signed = t == INT || t == LONG || t == FLOAT || t == DOUBLE;
    for (size_t i = 0; i < n; i++) {
        x[i] = (double)((i * 37 + 11) % 50) - (is_signed ? 9 : 0);
        store(t, in, i, x[i]);
    }
    double largest[] = {2147483647.0, 4294967295.0, 9223372036854775807.0,
                        18446744073709551615.0, INFINITY, INFINITY};
    double smallest[] = {-2147483648.0, 0, -9223372036854775808.0, 0, -INFINITY, -INFINITY};

    /* Groups in global linear order; the last in a dimension may be
     * smaller. The broadcast source, a local linear id, lies in the
     * smallest group, so in every group. */
    size_t gx = global[0], gy = dims > 1 ? global[1] : 1;
    size_t lx = local[0], ly = dims > 1 ? local[1] : 1;
    size_t last_w = gx % lx ? gx % lx : lx, last_h = gy % ly ? gy % ly : ly;
    cl_uint from = (cl_uint)(last_w * last_h / 2);
    double *group = malloc(lx * ly * sizeof *group);
    struct expect *ge = malloc(lx * ly * sizeof *ge);
    REQUIRE(group && ge);
    for (size_t oy = 0; oy < gy; oy += ly)
        for (size_t ox = 0; ox < gx; ox += lx) {
            size_t w = gx - ox < lx ? gx - ox : lx, hgt = gy - oy < ly ? gy - oy : ly;
            size_t i = 0;
            for (size_t y = 0; y < hgt; y++)
                for (size_t xx = 0; xx < w; xx++)
                    group[i++] = x[(oy + y) * gx + ox + xx];
            expect_group(group, 0, w * hgt, from, largest[t], smallest[t], ge);
            i = 0;
            for (size_t y = 0; y < hgt; y++)
                for (size_t xx = 0; xx < w; xx++)
                    e[(oy + y) * gx + ox + xx] = ge[i++];
        }

    cl_mem din = harness_buffer(h, CL_MEM_READ_ONLY, n * type_sizes[t], in);
    cl_mem dout = harness_buffer(h, CL_MEM_WRITE_ONLY, n * RESULTS * type_sizes[t], NULL);
    char name[16];
    snprintf(name, sizeof name, "wg_%s", type_names[t]);
    cl_kernel k = harness_kernel(program, name);
    CHECK_OK(harness_args(k, 3, ARG(din), ARG(dout), ARG(from)));
    CHECK_OK(clEnqueueNDRangeKernel(h->queue, k, dims, NULL, global, local, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(h->queue, dout, CL_TRUE, 0, n * RESULTS * type_sizes[t], out, 0,
                                 NULL, NULL));
    size_t bad = 0;
    for (size_t i = 0; i < n && bad < 5; i++)
        for (int r = 0; r < RESULTS; r++) {
            double got = load(t, out, i * RESULTS + r), want = e[i].v[r];
            if (r >= 10) /* all/any: non-zero for true */
                got = got != 0, want = want != 0;
            if (got != want && bad++ < 5)
                HARNESS_FAIL("%s %ux%u local %zux%zu: item %zu result %d: got %g, want %g",
                             name, (unsigned)gx, (unsigned)gy, lx, ly, i, r, got, want);
        }
    CHECK(bad == 0);
    clReleaseKernel(k);
    clReleaseMemObject(din), clReleaseMemObject(dout);
    free(x), free(e), free(in), free(out), free(group), free(ge);
}

static void test_sub_groups(struct harness *h, cl_program program, size_t global, size_t local)
{
    cl_kernel k = harness_kernel(program, "sg");
    size_t s = 0, count = 0, max_groups = 0;
    CHECK_OK(clGetKernelSubGroupInfo(k, h->device, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE,
                                     sizeof local, &local, sizeof s, &s, NULL));
    CHECK_OK(clGetKernelSubGroupInfo(k, h->device, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE,
                                     sizeof local, &local, sizeof count, &count, NULL));
    CHECK_OK(clGetKernelSubGroupInfo(k, h->device, CL_KERNEL_MAX_NUM_SUB_GROUPS, 0, NULL,
                                     sizeof max_groups, &max_groups, NULL));
    REQUIRE(s > 0 && count == (local + s - 1) / s && max_groups > 0);
    /* The full sub-group size, which a group smaller than it hides. */
    size_t big = 4096, width = 0;
    CHECK_OK(clGetKernelSubGroupInfo(k, h->device, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE,
                                     sizeof big, &big, sizeof width, &width, NULL));
    CHECK(local >= width ? s == width : s == local);

    int *in = malloc(global * sizeof *in), *out = malloc(global * 14 * sizeof *out);
    REQUIRE(in && out);
    for (size_t i = 0; i < global; i++)
        in[i] = (int)((i * 29 + 5) % 45) - 3;
    cl_mem din = harness_buffer(h, CL_MEM_READ_ONLY, global * sizeof *in, in);
    cl_mem dout = harness_buffer(h, CL_MEM_WRITE_ONLY, global * 14 * sizeof *out, NULL);
    CHECK_OK(harness_args(k, 3, ARG(din), ARG(dout), sizeof(int) * local, NULL));
    CHECK_OK(clEnqueueNDRangeKernel(h->queue, k, 1, NULL, &global, &local, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(h->queue, dout, CL_TRUE, 0, global * 14 * sizeof *out, out, 0,
                                 NULL, NULL));
    size_t bad = 0;
    for (size_t g0 = 0; g0 < global; g0 += local) {
        size_t items = global - g0 < local ? global - g0 : local;
        int group_max = in[g0];
        for (size_t i = 1; i < items; i++)
            group_max = in[g0 + i] > group_max ? in[g0 + i] : group_max;
        for (size_t l = 0; l < items; l++) {
            size_t sg = l / width, first = sg * width;
            size_t size = items - first < width ? items - first : width;
            size_t j = l - first;
            int want[14], sum = 0, incl = 0, excl = INT_MIN, all = 1, any = 0, min = in[g0 + first];
            for (size_t i = 0; i < size; i++) {
                int v = in[g0 + first + i];
                sum += v;
                all &= v > 0;
                any |= v > 40;
                min = v < min ? v : min;
                if (i <= j)
                    incl += v;
                if (i < j && v > excl)
                    excl = v;
            }
            /* sub-group 0 rotates three times, the others once */
            size_t rotate = sg == 0 ? 3 : 1;
            int rotated = in[g0 + first + (j + rotate) % size];
            int values[14] = {(int)size, (int)s, (int)((items + width - 1) / width),
                              (int)((local + width - 1) / width), (int)sg, (int)j, sum, incl,
                              excl, in[g0 + first + size - 1], all, any, rotated,
                              group_max + min};
            memcpy(want, values, sizeof want);
            for (int r = 0; r < 14; r++) {
                int got = out[(g0 + l) * 14 + r], w = want[r];
                if (r == 10 || r == 11)
                    got = got != 0, w = w != 0;
                if (got != w && bad++ < 5)
                    HARNESS_FAIL("sg %zu/%zu: item %zu result %d: got %d, want %d", global,
                                 local, g0 + l, r, got, w);
            }
        }
    }
    CHECK(bad == 0);
    clReleaseKernel(k);
    clReleaseMemObject(din), clReleaseMemObject(dout);
    free(in), free(out);
}

static void test_sub_group_info_errors(struct harness *h, cl_program program)
{
    cl_kernel k = harness_kernel(program, "sg");
    size_t local[2] = {64, 2}, value = 0, count = 3, size3[3];
    CHECK_ERR(clGetKernelSubGroupInfo(NULL, h->device, CL_KERNEL_MAX_NUM_SUB_GROUPS, 0, NULL,
                                      sizeof value, &value, NULL),
              CL_INVALID_KERNEL);
    CHECK_ERR(clGetKernelSubGroupInfo(k, h->device, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, 0,
                                      NULL, sizeof value, &value, NULL),
              CL_INVALID_VALUE);
    CHECK_ERR(clGetKernelSubGroupInfo(k, h->device, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE, 3,
                                      local, sizeof value, &value, NULL),
              CL_INVALID_VALUE);
    CHECK_ERR(clGetKernelSubGroupInfo(k, h->device, 0x7fff, 0, NULL, sizeof value, &value, NULL),
              CL_INVALID_VALUE);
    CHECK_ERR(clGetKernelSubGroupInfo(k, h->device, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE,
                                      sizeof local, local, 1, &value, NULL),
              CL_INVALID_VALUE);
    /* 2D: 128 work-items */
    CHECK_OK(clGetKernelSubGroupInfo(k, h->device, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE,
                                     sizeof local, local, sizeof value, &value, NULL));
    size_t width = 0, big = 4096;
    CHECK_OK(clGetKernelSubGroupInfo(k, h->device, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE,
                                     sizeof big, &big, sizeof width, &width, NULL));
    CHECK(value == (128 + width - 1) / width);
    /* a local size that makes exactly three sub-groups */
    CHECK_OK(clGetKernelSubGroupInfo(k, h->device, CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT,
                                     sizeof count, &count, sizeof size3, size3, NULL));
    CHECK(size3[0] * size3[1] * size3[2] > 2 * width &&
          size3[0] * size3[1] * size3[2] <= 3 * width);
    count = 1u << 20; /* more than any group holds: zeros */
    CHECK_OK(clGetKernelSubGroupInfo(k, h->device, CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT,
                                     sizeof count, &count, sizeof size3, size3, NULL));
    CHECK(size3[0] == 0 && size3[1] == 0 && size3[2] == 0);
    cl_uint device_max = 0;
    CHECK_OK(clGetDeviceInfo(h->device, CL_DEVICE_MAX_NUM_SUB_GROUPS, sizeof device_max,
                             &device_max, NULL));
    CHECK(device_max >= 1);
    clReleaseKernel(k);
}

static void test_sub_groups_alike(struct harness *h, cl_program program, size_t global,
                                  size_t local)
{
    cl_kernel k = harness_kernel(program, "sg_alike");
    size_t width = 0, big = 4096;
    CHECK_OK(clGetKernelSubGroupInfo(k, h->device, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE,
                                     sizeof big, &big, sizeof width, &width, NULL));
    int *in = malloc(global * sizeof *in), *out = malloc(global * 4 * sizeof *out);
    REQUIRE(in && out && width);
    for (size_t i = 0; i < global; i++)
        in[i] = (int)((i * 13 + 7) % 41) - 20;
    cl_mem din = harness_buffer(h, CL_MEM_READ_ONLY, global * sizeof *in, in);
    cl_mem dout = harness_buffer(h, CL_MEM_WRITE_ONLY, global * 4 * sizeof *out, NULL);
    CHECK_OK(harness_args(k, 2, ARG(din), ARG(dout)));
    CHECK_OK(clEnqueueNDRangeKernel(h->queue, k, 1, NULL, &global, &local, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(h->queue, dout, CL_TRUE, 0, global * 4 * sizeof *out, out, 0,
                                 NULL, NULL));
    size_t bad = 0;
    for (size_t g0 = 0; g0 < global; g0 += local) {
        size_t items = global - g0 < local ? global - g0 : local;
        int group_min = in[g0];
        for (size_t i = 1; i < items; i++)
            group_min = in[g0 + i] < group_min ? in[g0 + i] : group_min;
        for (size_t l = 0; l < items; l++) {
            size_t first = l / width * width, size = items - first < width ? items - first : width;
            int sum = 0, before = 0, max = in[g0 + first];
            for (size_t i = 0; i < size; i++) {
                int v = in[g0 + first + i];
                sum += v;
                before += i < l - first ? v : 0;
                max = v > max ? v : max;
            }
            int want[4] = {sum, before, in[g0 + first], max + group_min};
            for (int r = 0; r < 4; r++)
                if (out[(g0 + l) * 4 + r] != want[r] && bad++ < 3)
                    HARNESS_FAIL("sg_alike %zu/%zu: item %zu result %d: got %d want %d", global,
                                 local, g0 + l, r, out[(g0 + l) * 4 + r], want[r]);
        }
    }
    CHECK(bad == 0);
    clReleaseKernel(k);
    clReleaseMemObject(din), clReleaseMemObject(dout);
    free(in), free(out);
}

static void test_forward_progress(struct harness *h, cl_program program)
{
    cl_bool ifp = CL_FALSE;
    CHECK_OK(clGetDeviceInfo(h->device, CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS,
                             sizeof ifp, &ifp, NULL));
    REQUIRE(ifp);
    cl_kernel k = harness_kernel(program, "progress");
    enum { N = 512 };
    size_t global = N, local = 128, width = 0;
    CHECK_OK(clGetKernelSubGroupInfo(k, h->device, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE,
                                     sizeof local, &local, sizeof width, &width, NULL));
    int out[N];
    cl_mem dout = harness_buffer(h, CL_MEM_WRITE_ONLY, sizeof out, NULL);
    CHECK_OK(harness_args(k, 1, ARG(dout)));
    CHECK_OK(clEnqueueNDRangeKernel(h->queue, k, 1, NULL, &global, &local, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(h->queue, dout, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
    size_t bad = 0;
    for (size_t i = 0; i < N; i++)
        bad += out[i] != ((i % local) < width ? 7 : 0);
    CHECK(bad == 0);
    clReleaseKernel(k);
    clReleaseMemObject(dout);
}

int main(void)
{
    struct harness h = harness_open();
    cl_program program = harness_build(&h, source, "-cl-std=CL2.0");
    REQUIRE(program);

    static const size_t locals[] = {1, 7, 64, 256, 1024};
    for (int t = INT; t <= DOUBLE; t++) {
        for (size_t i = 0; i < sizeof locals / sizeof locals[0]; i++) {
            size_t global = locals[i] * 3;
            check_work_group(&h, program, t, 1, &global, &locals[i]);
        }
        size_t uneven = 1000, local = 64; /* last group: 40 */
        check_work_group(&h, program, t, 1, &uneven, &local);
        size_t global2[2] = {24, 10}, local2[2] = {8, 4}; /* 2D, last row of groups 2 high */
        check_work_group(&h, program, t, 2, global2, local2);
    }
    for (size_t i = 0; i < sizeof locals / sizeof locals[0]; i++)
        test_sub_groups(&h, program, locals[i] * 2, locals[i]);
    test_sub_groups(&h, program, 1000, 96);
    for (size_t i = 0; i < sizeof locals / sizeof locals[0]; i++)
        test_sub_groups_alike(&h, program, locals[i] * 3, locals[i]);
    test_sub_groups_alike(&h, program, 1000, 96);
    test_sub_groups(&h, program, 77, 50);
    test_sub_group_info_errors(&h, program);
    test_forward_progress(&h, program);

    clReleaseProgram(program);
    harness_close(&h);
    return harness_finish();
}
