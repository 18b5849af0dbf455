/* test_geometric.c - length and normalize of double vectors whose largest
 * component is near overflow or underflow (OpenCL C 6.13.5): results must
 * keep the precision a small component's share has, also where that share
 * is tiny or denormal. The references are computed on the host in long
 * double. */
#include <float.h>

#include "../harness.h"

static const char *source =
    "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
    "kernel void geo(global const double4 *in, global double4 *norm, global double *len)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    norm[i] = normalize(in[i]);\n"
    "    len[i] = length(in[i]);\n"
    "}\n";

/* |got - want| in units of the last place of want (denormal units below
 * the normal range). */
static double ulps(double got, long double want)
{
    int e;
    frexpl(want, &e);
    if (e < -1021)
        e = -1021;
    return (double)(fabsl((long double)got - want) / ldexpl(1.0L, e - 53));
}

int main(void)
{
    struct harness h = harness_open();
    cl_program program = harness_build(&h, source, NULL);
    REQUIRE(program);
    cl_kernel k = harness_kernel(program, "geo");
    /* the CTS's geometrics cases that a fixed 2^-600 scale got wrong, and
     * neighbours at the other end of the range */
    static const double in[][4] = {
        {-0x1.a93c74281d362p+581, 0x1.004af8232103cp-439, 0, 0},
        {0x1.8bcb4bd1a6a11p-418, -0x1.0579101a4015ap+561, -0x1.e1009095357bbp-436, 0},
        {0x1.0cbf17ae01644p-130, -0x1.b2781eaa2dc0ep-483, -0x1.b9160704547aap+560,
         0x1.de4333249dc38p+299},
        {0x1.8p-1000, 0x1.4p-1060, -0x1p-1070, 0},
        {0x1.fffffffffffffp+1023, 0x1p+1000, 0x1p-20, -0x1p+1023},
        {3.0, -4.0, 12.0, 0},
    };
    enum { N = sizeof in / sizeof in[0] };
    cl_int err;
    cl_mem input = clCreateBuffer(h.context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof in,
                                  (void *)in, &err);
    cl_mem norm = clCreateBuffer(h.context, CL_MEM_WRITE_ONLY, sizeof in, NULL, &err);
    cl_mem len = clCreateBuffer(h.context, CL_MEM_WRITE_ONLY, N * sizeof(double), NULL, &err);
    clSetKernelArg(k, 0, sizeof input, &input);
    clSetKernelArg(k, 1, sizeof norm, &norm);
    clSetKernelArg(k, 2, sizeof len, &len);
    size_t global = N;
    CHECK_OK(clEnqueueNDRangeKernel(h.queue, k, 1, NULL, &global, NULL, 0, NULL, NULL));
    double got[N][4], got_len[N];
    CHECK_OK(clEnqueueReadBuffer(h.queue, norm, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(h.queue, len, CL_TRUE, 0, sizeof got_len, got_len, 0, NULL, NULL));
    for (int i = 0; i < N; i++) {
        /* scale by the largest exponent so that the long double sum of
         * squares neither overflows nor underflows */
        int top = -100000;
        for (int j = 0; j < 4; j++)
            if (in[i][j] != 0 && ilogb(in[i][j]) > top)
                top = ilogb(in[i][j]);
        long double sum = 0;
        for (int j = 0; j < 4; j++) {
            long double q = ldexpl(in[i][j], -top);
            sum += q * q;
        }
        long double length = sqrtl(sum);
        double worst = 0;
        for (int j = 0; j < 4; j++) {
            long double want = ldexpl(in[i][j], -top) / length;
            double e = ulps(got[i][j], want);
            worst = e > worst ? e : worst;
        }
        if (worst > 4.5) /* OpenCL C 7.4: normalize, double */
            HARNESS_FAIL("normalize of vector %d: %g ulp\n", i, worst);
        else
            harness_passed++;
        double e = ulps(got_len[i], ldexpl(length, top));
        if (!(e <= 4.0) && !(isinf(got_len[i]) && ldexpl(length, top) > DBL_MAX))
            HARNESS_FAIL("length of vector %d: %g ulp\n", i, e);
        else
            harness_passed++;
    }
    clReleaseMemObject(input);
    clReleaseMemObject(norm);
    clReleaseMemObject(len);
    clReleaseKernel(k);
    clReleaseProgram(program);
    harness_close(&h);
    return harness_finish();
}
