/* test_interleave.c - kernels whose work-items each run one long chain of
 * floating-point operations, and conversions of work-item indices to
 * floating point. A loop that carries the chain and touches no memory stays
 * a loop (src/compiler/loops.cpp), which work-items run in lockstep lanes
 * (src/compiler/divergent.cpp); one that reads its factors
 * from memory is unrolled whole, and when the local size is known the
 * compiler runs several vectors of work-items' chains side by side
 * (src/compiler/interleave.cpp). Conversions of the work-item indices are
 * done from 32 bits where their range allows
 * (src/compiler/item_conversions.cpp). float, double and float2 chains; a
 * required local size, and local sizes launched several times (the third
 * launch makes a launch copy, codegen.c) including ones that leave
 * work-items to the vector loop's remainder. Chains on float8, double8 and
 * float16 values, which the vectorizer does not take, are run several
 * work-items side by side by hand (interleave.cpp), the rest one at a time:
 * the same local sizes, a required one of 100, and one with a barrier after
 * the chain (run as regions); and uint, uint2, uint4 and uint8 chains of multiplies and adds
 * (kept loops too, their multiplies the chain's links). The
 * same vector chains with their count an argument, a loop in each
 * work-item, run four work-items in one loop (src/compiler/jam.cpp). float4, double4, float8
 * and double8 chains of one fma() after another (clpeak's kind: no memory in the loop) stay
 * loops too, scalarized where their vectors fill at most half a register. The chains are explicit
 * fma() and products with contraction off, so each result equals the host's bit for bit. */
#include <math.h>
#include <stdint.h>

#include "../harness.h"

static const char *source =
    "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
    "#pragma OPENCL FP_CONTRACT OFF\n"
    "#define STEPS 160\n"
    "#define TURN(x, y) x = fma(y, -0.6f, 0.8f * x); y = fma(x, 0.6f, 0.8f * y);\n"
    "#define TURN_BY(x, y, s, c) x = fma(y, -s, c * x); y = fma(x, s, c * y);\n"
    "#define CHAIN(name, attributes)                                              \\\n"
    "kernel attributes void name(global float *out, float a)                      \\\n"
    "{                                                                            \\\n"
    "    float x = a + (float)get_local_id(0), y = (float)get_global_id(0) * 0.25f; \\\n"
    "    for (int i = 0; i < STEPS; i++) { TURN(x, y) }                           \\\n"
    "    out[get_global_id(0)] = x - y;                                           \\\n"
    "}\n"
    "CHAIN(chain_float, )\n"
    "#define CHAIN_BY(name, attributes)                                           \\\n"
    "kernel attributes void name(global float *out, float a, constant float *f)  \\\n"
    "{                                                                            \\\n"
    "    float x = a + (float)get_local_id(0), y = (float)get_global_id(0) * 0.25f; \\\n"
    "    for (int i = 0; i < STEPS; i++) { TURN_BY(x, y, f[i & 1], f[2]) }        \\\n"
    "    out[get_global_id(0)] = x - y;                                           \\\n"
    "}\n"
    "CHAIN_BY(chain_by, )\n"
    "CHAIN_BY(chain_48, __attribute__((reqd_work_group_size(48, 1, 1))))\n"
    "CHAIN_BY(chain_100, __attribute__((reqd_work_group_size(100, 1, 1))))\n"
    "kernel void chain_double(global double *out, double a, constant float *f)\n"
    "{\n"
    "    double x = a + (double)get_local_id(0), y = (double)get_global_id(0) * 0.25;\n"
    "    for (int i = 0; i < STEPS; i++) {\n"
    "        x = fma(y, -(double)f[i & 1], (double)f[2] * x);\n"
    "        y = fma(x, (double)f[i & 1], (double)f[2] * y);\n"
    "    }\n"
    "    out[get_global_id(0)] = x - y;\n"
    "}\n"
    "kernel void chain_float2(global float *out, float a, constant float *f)\n"
    "{\n"
    "    float2 x = (float2)(a, a * 0.5f) + (float)get_local_id(0);\n"
    "    float2 y = (float2)((float)get_global_id(0) * 0.25f, 1.0f);\n"
    "    for (int i = 0; i < STEPS; i++) { TURN_BY(x, y, f[i & 1], f[2]) }\n"
    "    out[get_global_id(0)] = x.x - y.x + x.y * y.y;\n"
    "}\n"
    "constant float lanes[16] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};\n"
    "#define CHAIN_VECTOR(name, T, S, W, attributes, after)                       \\\n"
    "kernel attributes void name(global S *out, S a, constant float *f)           \\\n"
    "{                                                                            \\\n"
    "    T k = convert_##T(vload##W(0, lanes));                                   \\\n"
    "    T x = a + (S)get_local_id(0) + k * (S)0.125, y = (S)get_global_id(0) * (S)0.25 + k; \\\n"
    "    for (int i = 0; i < STEPS; i++) { TURN_BY(x, y, (S)f[i & 1], (S)f[2]) }   \\\n"
    "    after                                                                    \\\n"
    "    vstore##W(x - y, get_global_id(0), out);                                 \\\n"
    "}\n"
    "CHAIN_VECTOR(chain_float8, float8, float, 8, , )\n"
    "CHAIN_VECTOR(chain_double8, double8, double, 8, , )\n"
    "CHAIN_VECTOR(chain_float16, float16, float, 16, , )\n"
    "CHAIN_VECTOR(chain_double16, double16, double, 16, , )\n"
    "CHAIN_VECTOR(chain_float8_100, float8, float, 8,\n"
    "             __attribute__((reqd_work_group_size(100, 1, 1))), )\n"
    "CHAIN_VECTOR(chain_float8_barrier, float8, float, 8, , barrier(CLK_LOCAL_MEM_FENCE);)\n"
    "#define CHAIN_COUNTED(name, T, S, W)                                         \\\n"
    "kernel void name(global S *out, S a, constant float *f, int n)               \\\n"
    "{                                                                            \\\n"
    "    T k = convert_##T(vload##W(0, lanes));                                   \\\n"
    "    T x = a + (S)get_local_id(0) + k * (S)0.125, y = (S)get_global_id(0) * (S)0.25 + k; \\\n"
    "    for (int i = 0; i < n; i++) { TURN_BY(x, y, (S)0.6f, (S)0.8f) }           \\\n"
    "    vstore##W(x - y, get_global_id(0), out);                                 \\\n"
    "}\n"
    "CHAIN_COUNTED(chain_float8_n, float8, float, 8)\n"
    "CHAIN_COUNTED(chain_double8_n, double8, double, 8)\n"
    "CHAIN_COUNTED(chain_float16_n, float16, float, 16)\n"
    "CHAIN_COUNTED(chain_double16_n, double16, double, 16)\n"
    "#define CHAIN_TIGHT(name, T, S, W)                                           \\\n"
    "kernel void name(global S *out, S a, constant float *f)                      \\\n"
    "{                                                                            \\\n"
    "    T k = convert_##T(vload##W(0, lanes));                                   \\\n"
    "    T x = a + (S)get_local_id(0) + k * (S)0.125, y = (S)get_global_id(0) * (S)0.25 + k; \\\n"
    "    for (int i = 0; i < STEPS; i++) {                                        \\\n"
    "        x = fma(y, (T)(S)-0.375, x); y = fma(x, (T)(S)0.375, y);             \\\n"
    "    }                                                                        \\\n"
    "    vstore##W(x - y, get_global_id(0), out);                                 \\\n"
    "}\n"
    "CHAIN_TIGHT(tight_float4, float4, float, 4)\n"
    "CHAIN_TIGHT(tight_double4, double4, double, 4)\n"
    "CHAIN_TIGHT(tight_float8, float8, float, 8)\n"
    "CHAIN_TIGHT(tight_double8, double8, double, 8)\n"
    "#define CHAIN_UINT(name, T, W, store)                                        \\\n"
    "kernel void name(global uint *out, uint a)                                   \\\n"
    "{                                                                            \\\n"
    "    T x = a + (uint)get_local_id(0) + convert_##T(vload##W(0, lanes));       \\\n"
    "    T y = (uint)get_global_id(0);                                            \\\n"
    "    for (int i = 0; i < 32; i++) {                                           \\\n"
    "        x = y * x + y; y = x * y + x; x = y * x + y; y = x * y + x;          \\\n"
    "    }                                                                        \\\n"
    "    store;                                                                   \\\n"
    "}\n"
    "CHAIN_UINT(chain_uint8, uint8, 8, vstore8(x ^ y, get_global_id(0), out))\n"
    "CHAIN_UINT(chain_uint4, uint4, 4, vstore4(x ^ y, get_global_id(0), out))\n"
    "CHAIN_UINT(chain_uint2, uint2, 2, vstore2(x ^ y, get_global_id(0), out))\n"
    "kernel void chain_uint(global uint *out, uint a)\n"
    "{\n"
    "    uint x = a + (uint)get_local_id(0), y = (uint)get_global_id(0);\n"
    "    for (int i = 0; i < 32; i++) { x = y * x + y; y = x * y + x; x = y * x + y; y = x * y + "
    "x; }\n"
    "    out[get_global_id(0)] = x ^ y;\n"
    "}\n"
    "kernel void convert(global float *f, global double *d)\n"
    "{\n"
    "    size_t l = get_local_id(0), g = get_global_id(0);\n"
    "    f[g] = (float)l + (float)((long)l - 40) * 0.5f + (float)(g * 0x100000001ul);\n"
    "    d[g] = (double)l - (double)((long)l - 40) * 0.25 + (double)(g * 0x100000001ul);\n"
    "}\n";

enum { ITEMS = 400, STEPS = 160, WIDEST = 16 };

/* The factors the kernels but chain_float read from memory; chain_float's
 * are constants, { 0.6, 0.6, 0.8 }. */
static const float factors[3] = {0.6f, 0.5f, 0.8f}, constants[3] = {0.6f, 0.6f, 0.8f};

static float chain_float(size_t local_id, size_t global_id, float a, const float *f)
{
    float x = a + (float)local_id, y = (float)global_id * 0.25f;
    for (int i = 0; i < STEPS; i++) {
        x = fmaf(y, -f[i & 1], f[2] * x);
        y = fmaf(x, f[i & 1], f[2] * y);
    }
    return x - y;
}

static double chain_double(size_t local_id, size_t global_id, double a, const float *f)
{
    double x = a + (double)local_id, y = (double)global_id * 0.25;
    for (int i = 0; i < STEPS; i++) {
        x = fma(y, -(double)f[i & 1], (double)f[2] * x);
        y = fma(x, (double)f[i & 1], (double)f[2] * y);
    }
    return x - y;
}

static float chain_float2(size_t local_id, size_t global_id, float a, const float *f)
{
    float x0 = a + (float)local_id, x1 = a * 0.5f + (float)local_id;
    float y0 = (float)global_id * 0.25f, y1 = 1.0f;
    for (int i = 0; i < STEPS; i++) {
        x0 = fmaf(y0, -f[i & 1], f[2] * x0);
        x1 = fmaf(y1, -f[i & 1], f[2] * x1);
        y0 = fmaf(x0, f[i & 1], f[2] * y0);
        y1 = fmaf(x1, f[i & 1], f[2] * y1);
    }
    return x0 - y0 + x1 * y1;
}

/* Lane c of the vector kernels' result, in float and in double. */
static float chain_lane_float(size_t local_id, size_t global_id, int c, const float *f)
{
    float x = 1.5f + (float)local_id + (float)c * 0.125f, y = (float)global_id * 0.25f + (float)c;
    for (int i = 0; i < STEPS; i++) {
        x = fmaf(y, -f[i & 1], f[2] * x);
        y = fmaf(x, f[i & 1], f[2] * y);
    }
    return x - y;
}

static double chain_lane_double(size_t local_id, size_t global_id, int c, const float *f)
{
    double x = 1.5 + (double)local_id + (double)c * 0.125, y = (double)global_id * 0.25 + c;
    for (int i = 0; i < STEPS; i++) {
        x = fma(y, -(double)f[i & 1], (double)f[2] * x);
        y = fma(x, (double)f[i & 1], (double)f[2] * y);
    }
    return x - y;
}

/* Lane c of the tight_ kernels' result: each step one fma after the last. */
static float tight_lane_float(size_t local_id, size_t global_id, int c)
{
    float x = 1.5f + (float)local_id + (float)c * 0.125f, y = (float)global_id * 0.25f + (float)c;
    for (int i = 0; i < STEPS; i++) {
        x = fmaf(y, -0.375f, x);
        y = fmaf(x, 0.375f, y);
    }
    return x - y;
}

static double tight_lane_double(size_t local_id, size_t global_id, int c)
{
    double x = 1.5 + (double)local_id + (double)c * 0.125, y = (double)global_id * 0.25 + c;
    for (int i = 0; i < STEPS; i++) {
        x = fma(y, -0.375, x);
        y = fma(x, 0.375, y);
    }
    return x - y;
}

/* Launches the vector chain `name` (width lanes of float or double) over
 * ITEMS work-items and compares every lane with the host's. */
static void check_vector_chain(struct harness *h, cl_program program, const char *name, cl_mem out,
                               cl_mem factor_buffer, size_t local, int width, int is_double)
{
    /* the counted chains use chain_float's constant factors */
    int counted = name[strlen(name) - 1] == 'n', tight = !strncmp(name, "tight_", 6);
    const float *f = counted ? constants : factors;
    cl_kernel kernel = harness_kernel(program, name);
    REQUIRE(kernel);
    float a = 1.5f;
    double a_double = 1.5;
    CHECK_OK(clSetKernelArg(kernel, 0, sizeof out, &out));
    CHECK_OK(is_double ? clSetKernelArg(kernel, 1, sizeof a_double, &a_double)
                       : clSetKernelArg(kernel, 1, sizeof a, &a));
    CHECK_OK(clSetKernelArg(kernel, 2, sizeof factor_buffer, &factor_buffer));
    cl_int steps = STEPS;
    if (counted) /* the count as an argument */
        CHECK_OK(clSetKernelArg(kernel, 3, sizeof steps, &steps));
    size_t global = ITEMS;
    CHECK_OK(clEnqueueNDRangeKernel(h->queue, kernel, 1, NULL, &global, &local, 0, NULL, NULL));
    static double got_double[ITEMS * WIDEST];
    static float got_float[ITEMS * WIDEST];
    size_t values = ITEMS * (size_t)width;
    CHECK_OK(clEnqueueReadBuffer(
        h->queue, out, CL_TRUE, 0, values * (is_double ? sizeof(double) : sizeof(float)),
        is_double ? (void *)got_double : (void *)got_float, 0, NULL, NULL));
    long bad = 0;
    for (size_t v = 0; v < values; v++) {
        size_t g = v / (size_t)width, l = g % local;
        int c = (int)(v % (size_t)width);
        int wrong;
        if (tight)
            wrong = is_double ? got_double[v] != tight_lane_double(l, g, c)
                              : got_float[v] != tight_lane_float(l, g, c);
        else
            wrong = is_double ? got_double[v] != chain_lane_double(l, g, c, f)
                              : got_float[v] != chain_lane_float(l, g, c, f);
        if (wrong && bad++ < 3)
            fprintf(stderr, "%s: work-item %zu lane %d differs\n", name, g, c);
    }
    char what[128];
    snprintf(what, sizeof what, "%s, local size %zu", name, local);
    CHECK_NONE_WRONG(bad, what);
    clReleaseKernel(kernel);
}

/* chain_uint<width>'s lanes: integer multiplies and adds, wrapping. */
static void check_uint_chain(struct harness *h, cl_program program, const char *name, int width,
                             cl_mem out, size_t local)
{
    cl_kernel kernel = harness_kernel(program, name);
    REQUIRE(kernel);
    cl_uint a = 12345;
    CHECK_OK(harness_args(kernel, 2, ARG(out), ARG(a)));
    size_t global = ITEMS;
    CHECK_OK(clEnqueueNDRangeKernel(h->queue, kernel, 1, NULL, &global, &local, 0, NULL, NULL));
    static cl_uint got[ITEMS * 8];
    size_t values = ITEMS * (size_t)width;
    CHECK_OK(clEnqueueReadBuffer(h->queue, out, CL_TRUE, 0, values * sizeof(cl_uint), got, 0, NULL,
                                 NULL));
    long bad = 0;
    for (size_t v = 0; v < values; v++) {
        size_t g = v / (size_t)width, l = g % local;
        uint32_t x = a + (uint32_t)l + (uint32_t)(v % (size_t)width), y = (uint32_t)g;
        for (int i = 0; i < 64; i++) {
            x = y * x + y;
            y = x * y + x;
        }
        if (got[v] != (x ^ y) && bad++ < 3)
            fprintf(stderr, "%s: work-item %zu lane %zu differs\n", name, g, v % (size_t)width);
    }
    char what[64];
    snprintf(what, sizeof what, "%s, local size %zu", name, local);
    CHECK_NONE_WRONG(bad, what);
    clReleaseKernel(kernel);
}

/* Launches `name`(out, a[, factors]) over ITEMS work-items and compares
 * each with the host's chain for its local and global index. */
static void check_chain(struct harness *h, cl_program program, const char *name, cl_mem out,
                        cl_mem factor_buffer, const size_t *local, int is_double)
{
    int constant = !strcmp(name, "chain_float");
    const float *f = constant ? constants : factors;
    cl_kernel kernel = harness_kernel(program, name);
    REQUIRE(kernel);
    float a = 1.5f;
    double a_double = 1.5;
    CHECK_OK(clSetKernelArg(kernel, 0, sizeof out, &out));
    CHECK_OK(is_double ? clSetKernelArg(kernel, 1, sizeof a_double, &a_double)
                       : clSetKernelArg(kernel, 1, sizeof a, &a));
    if (!constant)
        CHECK_OK(clSetKernelArg(kernel, 2, sizeof factor_buffer, &factor_buffer));
    size_t global = ITEMS;
    CHECK_OK(clEnqueueNDRangeKernel(h->queue, kernel, 1, NULL, &global, local, 0, NULL, NULL));
    static double got_double[ITEMS];
    static float got_float[ITEMS];
    CHECK_OK(clEnqueueReadBuffer(
        h->queue, out, CL_TRUE, 0, ITEMS * (is_double ? sizeof(double) : sizeof(float)),
        is_double ? (void *)got_double : (void *)got_float, 0, NULL, NULL));
    long bad = 0;
    for (size_t g = 0; g < ITEMS; g++) {
        size_t l = g % *local;
        int wrong;
        if (is_double)
            wrong = got_double[g] != chain_double(l, g, a_double, f);
        else if (!strcmp(name, "chain_float2"))
            wrong = got_float[g] != chain_float2(l, g, a, f);
        else
            wrong = got_float[g] != chain_float(l, g, a, f);
        if (wrong && bad++ < 3)
            fprintf(stderr, "%s: work-item %zu differs\n", name, g);
    }
    char what[128];
    snprintf(what, sizeof what, "%s, local size %zu", name, *local);
    CHECK_NONE_WRONG(bad, what);
    clReleaseKernel(kernel);
}

static void check_convert(struct harness *h, cl_program program, cl_mem f, cl_mem d, size_t local)
{
    cl_kernel kernel = harness_kernel(program, "convert");
    REQUIRE(kernel);
    CHECK_OK(harness_args(kernel, 2, ARG(f), ARG(d)));
    size_t global = ITEMS;
    CHECK_OK(clEnqueueNDRangeKernel(h->queue, kernel, 1, NULL, &global, &local, 0, NULL, NULL));
    static float got_f[ITEMS];
    static double got_d[ITEMS];
    CHECK_OK(clEnqueueReadBuffer(h->queue, f, CL_TRUE, 0, sizeof got_f, got_f, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(h->queue, d, CL_TRUE, 0, sizeof got_d, got_d, 0, NULL, NULL));
    long bad = 0;
    for (size_t g = 0; g < ITEMS; g++) {
        size_t l = g % local;
        uint64_t big = (uint64_t)g * 0x100000001ull;
        float want_f = (float)l + (float)((long)l - 40) * 0.5f + (float)big;
        double want_d = (double)l - (double)((long)l - 40) * 0.25 + (double)big;
        if ((got_f[g] != want_f || got_d[g] != want_d) && bad++ < 3)
            fprintf(stderr, "convert: work-item %zu: %.9g %.17g, want %.9g %.17g\n", g, got_f[g],
                    got_d[g], want_f, want_d);
    }
    char what[64];
    snprintf(what, sizeof what, "index conversions, local size %zu", local);
    CHECK_NONE_WRONG(bad, what);
    clReleaseKernel(kernel);
}

int main(void)
{
    struct harness h = harness_open();
    cl_program program = harness_build(&h, source, "-cl-std=CL2.0");
    REQUIRE(program);
    cl_mem out = harness_buffer(&h, CL_MEM_READ_WRITE, ITEMS * WIDEST * sizeof(double), NULL);
    cl_mem f = harness_buffer(&h, CL_MEM_READ_WRITE, ITEMS * sizeof(float), NULL);
    cl_mem by = harness_buffer(&h, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof factors,
                               (void *)factors);
    /* 64 four times: the third launch makes a launch copy */
    static const size_t locals[] = {1, 3, 100, 64, 64, 64, 64, 48, 400};
    for (int l = 0; l < (int)(sizeof locals / sizeof locals[0]); l++) {
        check_chain(&h, program, "chain_float", out, by, &locals[l], 0);
        check_chain(&h, program, "chain_by", out, by, &locals[l], 0);
        check_chain(&h, program, "chain_double", out, by, &locals[l], 1);
        check_chain(&h, program, "chain_float2", out, by, &locals[l], 0);
        check_convert(&h, program, f, out, locals[l]);
        check_vector_chain(&h, program, "chain_float8", out, by, locals[l], 8, 0);
        check_vector_chain(&h, program, "chain_double8", out, by, locals[l], 8, 1);
        check_vector_chain(&h, program, "chain_float16", out, by, locals[l], 16, 0);
        check_vector_chain(&h, program, "chain_double16", out, by, locals[l], 16, 1);
        check_vector_chain(&h, program, "chain_float8_barrier", out, by, locals[l], 8, 0);
        check_uint_chain(&h, program, "chain_uint8", 8, out, locals[l]);
        check_uint_chain(&h, program, "chain_uint4", 4, out, locals[l]);
        check_uint_chain(&h, program, "chain_uint2", 2, out, locals[l]);
        check_uint_chain(&h, program, "chain_uint", 1, out, locals[l]);
        check_vector_chain(&h, program, "chain_float8_n", out, by, locals[l], 8, 0);
        check_vector_chain(&h, program, "chain_double8_n", out, by, locals[l], 8, 1);
        check_vector_chain(&h, program, "chain_float16_n", out, by, locals[l], 16, 0);
        check_vector_chain(&h, program, "chain_double16_n", out, by, locals[l], 16, 1);
        check_vector_chain(&h, program, "tight_float4", out, by, locals[l], 4, 0);
        check_vector_chain(&h, program, "tight_double4", out, by, locals[l], 4, 1);
        check_vector_chain(&h, program, "tight_float8", out, by, locals[l], 8, 0);
        check_vector_chain(&h, program, "tight_double8", out, by, locals[l], 8, 1);
    }
    check_vector_chain(&h, program, "chain_float8_100", out, by, 100, 8, 0);
    /* required sizes: 48 leaves no work-item past the vectors of 8, 100
     * leaves 4 */
    static const size_t required[] = {48, 100};
    check_chain(&h, program, "chain_48", out, by, &required[0], 0);
    check_chain(&h, program, "chain_100", out, by, &required[1], 0);
    clReleaseMemObject(out), clReleaseMemObject(f), clReleaseMemObject(by);
    clReleaseProgram(program);
    harness_close(&h);
    return harness_finish();
}
