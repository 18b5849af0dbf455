/* test_denormals.c - -cl-denorms-are-zero (API 5.8.4.2): a program built
 * with it runs with denormals flushed to zero, operands and results, float
 * and double; one built without it keeps them (CL_FP_DENORM), also when it
 * runs after a flushing one on the same workers; the option counts when
 * given to clLinkProgram (5.8.5.1); and the calling thread's own floating
 * point setting is left as it was. The references are computed on the
 * host: IEEE arithmetic, and for flushing programs the same with every
 * denormal operand and result made a zero of its sign. */
#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <string.h>
#include <xmmintrin.h>

#include "../harness.h"

static const char *source = "kernel void denormals(global const float *in, global float *out,\n"
                            "                      global const double *din, global double *dout)\n"
                            "{\n"
                            "    size_t i = get_global_id(0);\n"
                            "    float tiny = as_float(64);\n"
                            "    double dtiny = as_double(64L);\n"
                            "    out[2 * i] = in[i] + tiny;\n"
                            "    out[2 * i + 1] = in[i] * 0x1p-10f;\n"
                            "    dout[2 * i] = din[i] + dtiny;\n"
                            "    dout[2 * i + 1] = din[i] * 0x1p-10;\n"
                            "}\n";

enum { N = 64 };

static float flushf(float x)
{
    return fpclassify(x) == FP_SUBNORMAL ? copysignf(0.0f, x) : x;
}
static double flush(double x)
{
    return fpclassify(x) == FP_SUBNORMAL ? copysign(0.0, x) : x;
}

static bool same_bits_f(float a, float b)
{
    return memcmp(&a, &b, sizeof a) == 0;
}
static bool same_bits(double a, double b)
{
    return memcmp(&a, &b, sizeof a) == 0;
}

/* Runs `program`'s kernel over in/din and compares with the host. */
static void check(struct harness *h, cl_program program, bool flushes)
{
    float in[N], out[2 * N];
    double din[N], dout[2 * N];
    float tiny;
    double dtiny;
    int bits = 64;
    long long dbits = 64;
    memcpy(&tiny, &bits, sizeof tiny);
    memcpy(&dtiny, &dbits, sizeof dtiny);
    for (int i = 0; i < N; i++) {
        /* zeros, FLT_MIN/DBL_MIN (whose product is denormal), denormals,
         * and ordinary numbers, of both signs */
        static const float fs[] = {0.0f, FLT_MIN, 1e-40f, 1.5f, -FLT_MIN, -0.0f, -3e-39f, 1e30f};
        static const double ds[] = {0.0, DBL_MIN, 1e-310, 1.5, -DBL_MIN, -0.0, -3e-309, 1e300};
        in[i] = fs[i % 8] * (float)(1 + i / 8 % 2);
        din[i] = ds[i % 8] * (double)(1 + i / 8 % 2);
    }
    cl_mem d_in = harness_buffer(h, CL_MEM_READ_ONLY, sizeof in, in);
    cl_mem d_out = harness_buffer(h, CL_MEM_WRITE_ONLY, sizeof out, NULL);
    cl_mem d_din = harness_buffer(h, CL_MEM_READ_ONLY, sizeof din, din);
    cl_mem d_dout = harness_buffer(h, CL_MEM_WRITE_ONLY, sizeof dout, NULL);
    cl_kernel k = harness_kernel(program, "denormals");
    CHECK_OK(harness_args(k, 4, ARG(d_in), ARG(d_out), ARG(d_din), ARG(d_dout)));
    size_t global = N;
    CHECK_OK(clEnqueueNDRangeKernel(h->queue, k, 1, NULL, &global, NULL, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(h->queue, d_out, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(h->queue, d_dout, CL_TRUE, 0, sizeof dout, dout, 0, NULL, NULL));
    int bad = 0;
    for (int i = 0; i < N; i++) {
        float x = flushes ? flushf(in[i]) : in[i], t = flushes ? 0.0f : tiny;
        double y = flushes ? flush(din[i]) : din[i], dt = flushes ? 0.0 : dtiny;
        float sum = x + t, product = x * 0x1p-10f;
        double dsum = y + dt, dproduct = y * 0x1p-10;
        if (flushes) {
            sum = flushf(sum), product = flushf(product);
            dsum = flush(dsum), dproduct = flush(dproduct);
        }
        bad += !same_bits_f(out[2 * i], sum) + !same_bits_f(out[2 * i + 1], product);
        bad += !same_bits(dout[2 * i], dsum) + !same_bits(dout[2 * i + 1], dproduct);
    }
    CHECK(bad == 0);
    clReleaseKernel(k);
    clReleaseMemObject(d_in), clReleaseMemObject(d_out);
    clReleaseMemObject(d_din), clReleaseMemObject(d_dout);
}

static cl_program linked(struct harness *h, const char *link_options)
{
    cl_int err;
    cl_program compiled = clCreateProgramWithSource(h->context, 1, &source, NULL, &err);
    CHECK_OK(err);
    CHECK_OK(clCompileProgram(compiled, 0, NULL, "", 0, NULL, NULL, NULL, NULL));
    cl_program program =
        clLinkProgram(h->context, 0, NULL, link_options, 1, &compiled, NULL, NULL, &err);
    CHECK_OK(err);
    clReleaseProgram(compiled);
    return program;
}

int main(void)
{
    struct harness h = harness_open();
    unsigned int mxcsr = _mm_getcsr();
    cl_program keeps = harness_build(&h, source, "");
    cl_program flushes = harness_build(&h, source, "-cl-denorms-are-zero -cl-std=CL2.0");
    cl_program keeps_linked = linked(&h, "");
    cl_program flushes_linked = linked(&h, "-cl-denorms-are-zero");
    REQUIRE(keeps && flushes && keeps_linked && flushes_linked);
    check(&h, keeps, false);
    check(&h, flushes, true);
    check(&h, keeps, false); /* the workers' setting is back */
    check(&h, flushes_linked, true);
    check(&h, keeps_linked, false);
    /* a word that only contains the option is not the option */
    cl_program defined = harness_build(&h, source, "-DX=-cl-denorms-are-zero");
    REQUIRE(defined);
    check(&h, defined, false);
    /* its control bits (the low six are the sticky exception flags) */
    CHECK((_mm_getcsr() & ~0x3fu) == (mxcsr & ~0x3fu));
    clReleaseProgram(keeps), clReleaseProgram(flushes), clReleaseProgram(defined);
    clReleaseProgram(keeps_linked), clReleaseProgram(flushes_linked);
    harness_close(&h);
    return harness_finish();
}
