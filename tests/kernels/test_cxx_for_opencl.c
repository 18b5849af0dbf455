/* test_cxx_for_opencl.c - cl_ext_cxx_for_opencl: programs in C++ for
 * OpenCL 1.0 (-cl-std=CLC++): templates, classes with members and
 * methods, references, lambdas, built-ins on template types, a
 * program-scope object's constructor run through the initialization
 * kernel Clang makes (`_GLOBAL__sub_I_<file>`, its ABI for program-scope
 * constructors), clCompileProgram and clLinkProgram; the results computed on
 * the host. The device reports version 1.0.0, which __OPENCL_CPP_VERSION__
 * agrees with; an unknown C++ version is a bad build option. */
#include <math.h>

#include "../harness.h"

static const char *source =
    "template <typename T> T clampsq(T v, T hi) { return min(v * v, hi); }\n"
    "template <typename T, int N> struct Ring {\n"
    "    T items[N];\n"
    "    T sum() const { T s = 0; for (int i = 0; i < N; i++) s += items[i]; return s; }\n"
    "};\n"
    "struct Point { float x, y; float norm() const { return sqrt(x * x + y * y); } };\n"
    "void scale(Point &p, float k) { p.x *= k; p.y *= k; }\n"
    "struct Counter { int start; Counter() : start(41) {} };\n"
    "__global Counter counter;\n"
    "__kernel void run(__global const float *in, __global float *out, __global int *ints)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    Point p{in[2 * i], in[2 * i + 1]};\n"
    "    scale(p, 2.0f);\n"
    "    Ring<float, 4> r{{p.x, p.y, p.norm(), clampsq(in[2 * i], 100.0f)}};\n"
    "    auto twice = [](float v) { return v + v; };\n"
    "    out[i] = twice(r.sum());\n"
    "    ints[i] = clampsq((int)i, 1000) + counter.start + __OPENCL_CPP_VERSION__;\n"
    "}\n";

enum { N = 256 };

static void run_program(struct harness *h, cl_program program, const char *initializer)
{
    cl_int err;
    if (initializer) {
        /* constructs `counter` (once, before the kernels that use it) */
        cl_kernel init = clCreateKernel(program, initializer, &err);
        CHECK_OK(err);
        size_t one = 1;
        if (init)
            CHECK_OK(clEnqueueNDRangeKernel(h->queue, init, 1, NULL, &one, NULL, 0, NULL, NULL));
        clReleaseKernel(init);
    }
    cl_kernel k = clCreateKernel(program, "run", &err);
    CHECK_OK(err);
    if (!k)
        return;
    static float in[2 * N], out[N];
    static cl_int ints[N];
    for (int i = 0; i < 2 * N; i++)
        in[i] = (float)(i % 37) * 0.75f - 9;
    cl_mem din = harness_buffer(h, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof in, in);
    cl_mem dout = harness_buffer(h, CL_MEM_WRITE_ONLY, sizeof out, NULL);
    cl_mem dints = harness_buffer(h, CL_MEM_WRITE_ONLY, sizeof ints, NULL);
    CHECK_OK(harness_args(k, 3, ARG(din), ARG(dout), ARG(dints)));
    size_t global = N;
    CHECK_OK(clEnqueueNDRangeKernel(h->queue, k, 1, NULL, &global, NULL, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(h->queue, dout, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(h->queue, dints, CL_TRUE, 0, sizeof ints, ints, 0, NULL, NULL));
    int bad = 0;
    for (int i = 0; i < N; i++) {
        float x = 2 * in[2 * i], y = 2 * in[2 * i + 1], sq = in[2 * i] * in[2 * i];
        float want = 2 * (x + y + sqrtf(x * x + y * y) + (sq < 100 ? sq : 100));
        int want_int = (i * i < 1000 ? i * i : 1000) + 41 + 100;
        if ((fabsf(out[i] - want) > 1e-5f * fabsf(want) + 1e-6f || ints[i] != want_int) &&
            bad++ < 5)
            HARNESS_FAIL("item %d: %g and %d, want %g and %d\n", i, out[i], ints[i], want,
                         want_int);
    }
    CHECK_NONE_WRONG(bad, "C++ for OpenCL templates, classes, references, lambdas");
    clReleaseMemObject(din), clReleaseMemObject(dout), clReleaseMemObject(dints);
    clReleaseKernel(k);
}

/* the initialization kernel's name: Clang's _GLOBAL__sub_I_ prefix */
static const char *initializer_of(cl_program program, char *names, size_t size)
{
    CHECK_OK(clGetProgramInfo(program, CL_PROGRAM_KERNEL_NAMES, size, names, NULL));
    for (char *p = strtok(names, ";"); p; p = strtok(NULL, ";"))
        if (!strncmp(p, "_GLOBAL__sub_I_", 15))
            return p;
    return NULL;
}

int main(void)
{
    struct harness h = harness_open();
    char extensions[4096] = "", names[1024];
    CHECK_OK(clGetDeviceInfo(h.device, CL_DEVICE_EXTENSIONS, sizeof extensions, extensions, NULL));
    CHECK(strstr(extensions, "cl_ext_cxx_for_opencl") != NULL);
    cl_version_khr version = 0;
    CHECK_OK(clGetDeviceInfo(h.device, CL_DEVICE_CXX_FOR_OPENCL_NUMERIC_VERSION_EXT, sizeof version,
                             &version, NULL));
    CHECK_EQ(version, CL_MAKE_VERSION_KHR(1, 0, 0));

    cl_program program = harness_build(&h, source, "-cl-std=CLC++");
    REQUIRE(program);
    const char *init = initializer_of(program, names, sizeof names);
    CHECK(init != NULL);
    run_program(&h, program, init);
    clReleaseProgram(program);

    /* compiled, then linked */
    cl_int err;
    cl_program object = clCreateProgramWithSource(h.context, 1, &source, NULL, &err);
    CHECK_OK(err);
    CHECK_OK(clCompileProgram(object, 1, &h.device, "-cl-std=CLC++1.0", 0, NULL, NULL, NULL, NULL));
    cl_program linked = clLinkProgram(h.context, 1, &h.device, "", 1, &object, NULL, NULL, &err);
    CHECK_OK(err);
    if (linked) {
        run_program(&h, linked, initializer_of(linked, names, sizeof names));
        clReleaseProgram(linked);
    }
    clReleaseProgram(object);

    /* C++ for OpenCL 2021 is OpenCL C 3.0's: not this device's */
    cl_program newer = clCreateProgramWithSource(h.context, 1, &source, NULL, &err);
    CHECK_ERR(clBuildProgram(newer, 1, &h.device, "-cl-std=CLC++2021", NULL, NULL),
              CL_INVALID_BUILD_OPTIONS);
    clReleaseProgram(newer);
    harness_close(&h);
    return harness_finish();
}
