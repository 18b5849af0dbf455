/* test_float_atomics.c - cl_ext_float_atomics: atomic_fetch_add, _sub,
 * _min and _max on atomic_half, atomic_float and atomic_double in global,
 * local and generic memory, and atomic_store, _load and _exchange on
 * atomic_half. Every work-item adding one leaves the count, and the old
 * values it got back are each count before it exactly once (no addition
 * lost or repeated); min and max over inputs with quiet NaNs give the
 * smallest and largest number (a NaN loses to a number), per group in local
 * memory and over the launch in global memory; half slots hold what was
 * stored and exchanged. The device reports the extension and every
 * capability for the three types. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "../harness.h"

static const char *source =
    "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"
    "#if !defined(cl_ext_float_atomics) || !defined(__opencl_c_ext_fp32_global_atomic_add) || \\\n"
    "    !defined(__opencl_c_ext_fp64_local_atomic_min_max) || \\\n"
    "    !defined(__opencl_c_ext_fp16_global_atomic_load_store)\n"
    "#error a macro is not defined\n"
    "#endif\n"
    "float add_generic(volatile atomic_float *p, float v) { return atomic_fetch_add(p, v); }\n"
    "kernel void count(volatile global atomic_float *f, volatile global atomic_double *d,\n"
    "                  volatile global atomic_half *h, volatile global atomic_float *g,\n"
    "                  global float *of, global double *od, global float *oh, global float *og)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    of[i] = atomic_fetch_add(f, 1.0f);\n"
    "    od[i] = atomic_fetch_sub_explicit(d, 1.0, memory_order_relaxed);\n"
    "    oh[i] = atomic_fetch_add_explicit(h, (half)1, memory_order_acq_rel, "
    "memory_scope_device);\n"
    "    og[i] = add_generic(g, 0.5f);\n"
    "}\n"
    "kernel void extremes(global const float *x, volatile global atomic_float *fmin,\n"
    "                     volatile global atomic_float *fmax, volatile global atomic_double "
    "*dmin,\n"
    "                     volatile global atomic_double *dmax, volatile global atomic_half *hmax,\n"
    "                     global float *group)\n"
    "{\n"
    "    local atomic_float lmin, lmax;\n"
    "    local atomic_double ldmin;\n"
    "    local atomic_half lhmin;\n"
    "    local atomic_float lsum;\n"
    "    if (get_local_id(0) == 0) {\n"
    "        atomic_init(&lmin, INFINITY);\n"
    "        atomic_init(&lmax, -INFINITY);\n"
    "        atomic_init(&ldmin, INFINITY);\n"
    "        atomic_store(&lhmin, (half)INFINITY);\n"
    "        atomic_init(&lsum, 0.0f);\n"
    "    }\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    float v = x[get_global_id(0)];\n"
    "    atomic_fetch_min(fmin, v);\n"
    "    atomic_fetch_max_explicit(fmax, v, memory_order_relaxed);\n"
    "    atomic_fetch_min_explicit(dmin, (double)v, memory_order_relaxed, memory_scope_device);\n"
    "    atomic_fetch_max(dmax, (double)v);\n"
    "    atomic_fetch_max(hmax, (half)v);\n"
    "    atomic_fetch_min_explicit(&lmin, v, memory_order_relaxed, memory_scope_work_group);\n"
    "    atomic_fetch_max_explicit(&lmax, v, memory_order_relaxed, memory_scope_work_group);\n"
    "    atomic_fetch_min(&ldmin, (double)v);\n"
    "    atomic_fetch_min(&lhmin, (half)v);\n"
    "    atomic_fetch_add(&lsum, 2.0f);\n"
    "    atomic_fetch_sub_explicit(&lsum, 1.0f, memory_order_relaxed, memory_scope_work_group);\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    if (get_local_id(0) == 0) {\n"
    "        global float *o = group + get_group_id(0) * 5;\n"
    "        o[0] = atomic_load(&lmin);\n"
    "        o[1] = atomic_load(&lmax);\n"
    "        o[2] = (float)atomic_load(&ldmin);\n"
    "        o[3] = (float)atomic_load(&lhmin);\n"
    "        o[4] = atomic_load(&lsum);\n"
    "    }\n"
    "}\n"
    "kernel void half_slots(volatile global atomic_half *slots, global const float *in,\n"
    "                       global float *out)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    atomic_store(&slots[i], (half)in[i]);\n"
    "    half a = atomic_load(&slots[i]);\n"
    "    half b = atomic_exchange(&slots[i], a * (half)2);\n"
    "    half c = atomic_load_explicit(&slots[i], memory_order_acquire);\n"
    "    half d = atomic_exchange_explicit(&slots[i], c + (half)1, memory_order_acq_rel,\n"
    "                                      memory_scope_device);\n"
    "    out[4 * i] = a, out[4 * i + 1] = b, out[4 * i + 2] = c, out[4 * i + 3] = d;\n"
    "    atomic_store_explicit(&slots[i], c + (half)3, memory_order_release);\n"
    "}\n";

/* a half's value, for halfs that are numbers */
static double half_value(uint16_t h)
{
    int e = (h >> 10) & 31, m = h & 1023;
    double v = e ? ldexp(1024 + m, e - 25) : ldexp(m, -24);
    return h & 0x8000 ? -v : v;
}

static int compare_float(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return x < y ? -1 : x > y;
}

static int compare_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* N work-items: half counts exactly up to 2048 */
enum { N = 2048, LOCAL = 128, GROUPS = N / LOCAL };

static cl_mem scalar(struct harness *h, size_t size, const void *value)
{
    return harness_buffer(h, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, size, (void *)value);
}

static void test_count(struct harness *h, cl_program program)
{
    cl_int err;
    cl_kernel k = clCreateKernel(program, "count", &err);
    CHECK_OK(err);
    float f = 0, g = 0;
    double d = N;
    uint16_t hv = 0;
    static float of[N], oh[N], og[N];
    static double od[N];
    cl_mem df = scalar(h, sizeof f, &f), dd = scalar(h, sizeof d, &d), dh = scalar(h, 2, &hv),
           dg = scalar(h, sizeof g, &g);
    cl_mem dof = harness_buffer(h, CL_MEM_WRITE_ONLY, sizeof of, NULL);
    cl_mem dod = harness_buffer(h, CL_MEM_WRITE_ONLY, sizeof od, NULL);
    cl_mem doh = harness_buffer(h, CL_MEM_WRITE_ONLY, sizeof oh, NULL);
    cl_mem dog = harness_buffer(h, CL_MEM_WRITE_ONLY, sizeof og, NULL);
    CHECK_OK(harness_args(k, 8, ARG(df), ARG(dd), ARG(dh), ARG(dg), ARG(dof), ARG(dod), ARG(doh),
                          ARG(dog)));
    size_t global = N, local = LOCAL;
    CHECK_OK(clEnqueueNDRangeKernel(h->queue, k, 1, NULL, &global, &local, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(h->queue, df, CL_TRUE, 0, sizeof f, &f, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(h->queue, dd, CL_TRUE, 0, sizeof d, &d, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(h->queue, dh, CL_TRUE, 0, 2, &hv, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(h->queue, dg, CL_TRUE, 0, sizeof g, &g, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(h->queue, dof, CL_TRUE, 0, sizeof of, of, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(h->queue, dod, CL_TRUE, 0, sizeof od, od, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(h->queue, doh, CL_TRUE, 0, sizeof oh, oh, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(h->queue, dog, CL_TRUE, 0, sizeof og, og, 0, NULL, NULL));
    CHECK(f == N && d == 0 && half_value(hv) == N && g == N / 2);
    qsort(of, N, sizeof *of, compare_float);
    qsort(od, N, sizeof *od, compare_double);
    qsort(oh, N, sizeof *oh, compare_float);
    qsort(og, N, sizeof *og, compare_float);
    int bad = 0;
    for (int i = 0; i < N; i++)
        if ((of[i] != i || od[i] != i + 1 || oh[i] != i || og[i] != i * 0.5f) && bad++ < 5)
            HARNESS_FAIL("old value %d: float %g, double %g, half %g, generic %g\n", i, of[i],
                         od[i], oh[i], og[i]);
    CHECK_NONE_WRONG(bad, "floating-point atomic add and sub, each old value once");
    cl_mem all[] = {df, dd, dh, dg, dof, dod, doh, dog};
    for (unsigned i = 0; i < sizeof all / sizeof all[0]; i++)
        clReleaseMemObject(all[i]);
    clReleaseKernel(k);
}

static void test_extremes(struct harness *h, cl_program program)
{
    cl_int err;
    cl_kernel k = clCreateKernel(program, "extremes", &err);
    CHECK_OK(err);
    static float x[N], group[GROUPS * 5];
    srand(7);
    for (int i = 0; i < N; i++)
        /* numbers that half holds exactly, and quiet NaNs */
        x[i] = rand() % 16 == 0 ? NAN : (float)(rand() % 4001 - 2000) / 4;
    float fmin = INFINITY, fmax = -INFINITY;
    double dmin = INFINITY, dmax = -INFINITY;
    uint16_t hmax = 0xfc00; /* -inf */
    cl_mem dx = harness_buffer(h, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof x, x);
    cl_mem dfmin = scalar(h, sizeof fmin, &fmin), dfmax = scalar(h, sizeof fmax, &fmax);
    cl_mem ddmin = scalar(h, sizeof dmin, &dmin), ddmax = scalar(h, sizeof dmax, &dmax);
    cl_mem dhmax = scalar(h, 2, &hmax);
    cl_mem dgroup = harness_buffer(h, CL_MEM_WRITE_ONLY, sizeof group, NULL);
    CHECK_OK(harness_args(k, 7, ARG(dx), ARG(dfmin), ARG(dfmax), ARG(ddmin), ARG(ddmax), ARG(dhmax),
                          ARG(dgroup)));
    size_t global = N, local = LOCAL;
    CHECK_OK(clEnqueueNDRangeKernel(h->queue, k, 1, NULL, &global, &local, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(h->queue, dfmin, CL_TRUE, 0, sizeof fmin, &fmin, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(h->queue, dfmax, CL_TRUE, 0, sizeof fmax, &fmax, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(h->queue, ddmin, CL_TRUE, 0, sizeof dmin, &dmin, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(h->queue, ddmax, CL_TRUE, 0, sizeof dmax, &dmax, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(h->queue, dhmax, CL_TRUE, 0, 2, &hmax, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(h->queue, dgroup, CL_TRUE, 0, sizeof group, group, 0, NULL, NULL));
    float want_min = INFINITY, want_max = -INFINITY;
    int bad = 0;
    for (int g = 0; g < GROUPS; g++) {
        float lo = INFINITY, hi = -INFINITY;
        for (int i = g * LOCAL; i < (g + 1) * LOCAL; i++)
            if (!isnan(x[i])) {
                lo = x[i] < lo ? x[i] : lo;
                hi = x[i] > hi ? x[i] : hi;
            }
        want_min = lo < want_min ? lo : want_min;
        want_max = hi > want_max ? hi : want_max;
        const float *o = group + g * 5;
        if ((o[0] != lo || o[1] != hi || o[2] != lo || o[3] != lo || o[4] != LOCAL) && bad++ < 5)
            HARNESS_FAIL("group %d: local min %g max %g double min %g half min %g sum %g; want "
                         "%g %g, sum %d\n",
                         g, o[0], o[1], o[2], o[3], o[4], lo, hi, LOCAL);
    }
    CHECK_NONE_WRONG(bad, "local floating-point atomic min, max, add and sub");
    CHECK(fmin == want_min && fmax == want_max && dmin == want_min && dmax == want_max);
    CHECK(half_value(hmax) == want_max);
    cl_mem all[] = {dx, dfmin, dfmax, ddmin, ddmax, dhmax, dgroup};
    for (unsigned i = 0; i < sizeof all / sizeof all[0]; i++)
        clReleaseMemObject(all[i]);
    clReleaseKernel(k);
}

static void test_half_slots(struct harness *h, cl_program program)
{
    cl_int err;
    cl_kernel k = clCreateKernel(program, "half_slots", &err);
    CHECK_OK(err);
    enum { SLOTS = 256 };
    static float in[SLOTS], out[SLOTS * 4];
    static uint16_t slots[SLOTS];
    for (int i = 0; i < SLOTS; i++)
        in[i] = (float)(i % 64) * 0.25f - 4;
    cl_mem dslots = harness_buffer(h, CL_MEM_READ_WRITE, sizeof slots, NULL);
    cl_mem din = harness_buffer(h, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof in, in);
    cl_mem dout = harness_buffer(h, CL_MEM_WRITE_ONLY, sizeof out, NULL);
    CHECK_OK(harness_args(k, 3, ARG(dslots), ARG(din), ARG(dout)));
    size_t global = SLOTS;
    CHECK_OK(clEnqueueNDRangeKernel(h->queue, k, 1, NULL, &global, NULL, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(h->queue, dout, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(h->queue, dslots, CL_TRUE, 0, sizeof slots, slots, 0, NULL, NULL));
    int bad = 0;
    for (int i = 0; i < SLOTS; i++) {
        const float *o = out + 4 * i;
        float v = in[i];
        if ((o[0] != v || o[1] != v || o[2] != 2 * v || o[3] != 2 * v ||
             half_value(slots[i]) != 2 * v + 3) &&
            bad++ < 5)
            HARNESS_FAIL("half slot %d: %g %g %g %g, slot %g; want %g %g %g %g, slot %g\n", i, o[0],
                         o[1], o[2], o[3], half_value(slots[i]), v, v, 2 * v, 2 * v, 2 * v + 3);
    }
    CHECK_NONE_WRONG(bad, "atomic_half store, load and exchange");
    clReleaseMemObject(dslots), clReleaseMemObject(din), clReleaseMemObject(dout);
    clReleaseKernel(k);
}

int main(void)
{
    struct harness h = harness_open();
    CHECK(harness_has_extension(&h, "cl_ext_float_atomics"));
    /* CL_DEVICE_SINGLE/DOUBLE/HALF_FP_ATOMIC_CAPABILITIES_EXT: load/store,
     * add and min/max, global (bits 0-2) and local (bits 16-18) */
    for (cl_device_info query = 0x4231; query <= 0x4233; query++) {
        cl_ulong caps = 0;
        CHECK_OK(clGetDeviceInfo(h.device, query, sizeof caps, &caps, NULL));
        CHECK_EQ(caps, 0x70007);
    }
    cl_program program = harness_build(&h, source, "-cl-std=CL2.0");
    REQUIRE(program);
    test_count(&h, program);
    test_extremes(&h, program);
    test_half_slots(&h, program);
    clReleaseProgram(program);
    harness_close(&h);
    return harness_finish();
}
