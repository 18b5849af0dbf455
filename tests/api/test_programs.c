/* test_programs.c - separate compilation with embedded headers, linking of
 * objects and libraries, and program binaries (API spec 5.8). */
#include "../harness.h"

static const char *header = "#define SCALE 3\nint helper_twice(int x);\nint helper_add(int a, int b);\n";
static const char *part_a = "#include \"util/defs.h\"\nint helper_twice(int x) { return 2 * x; }\n";
static const char *part_b = "#include \"util/defs.h\"\nint helper_add(int a, int b) { return a + b; }\n";
static const char *part_main =
    "#include \"util/defs.h\"\n"
    "kernel void combine(global int *p)\n"
    "{ size_t i = get_global_id(0); p[i] = helper_add(helper_twice(p[i]), SCALE); }\n";

static cl_program compiled(struct harness *h, const char *source, cl_program hdr)
{
    cl_int err;
    cl_program p = clCreateProgramWithSource(h->context, 1, &source, NULL, &err);
    const char *name = "util/defs.h";
    CHECK_OK(clCompileProgram(p, 1, &h->device, "", 1, &hdr, &name, NULL, NULL));
    return p;
}

static void run_combine(struct harness *h, cl_program program)
{
    int data[64];
    for (int i = 0; i < 64; i++)
        data[i] = i - 20;
    cl_mem m = harness_buffer(h, CL_MEM_READ_WRITE, sizeof data, data);
    cl_int err;
    cl_kernel k = clCreateKernel(program, "combine", &err);
    CHECK_OK(err);
    if (err)
        return;
    CHECK_OK(clSetKernelArg(k, 0, sizeof m, &m));
    size_t global = 64;
    CHECK_OK(clEnqueueNDRangeKernel(h->queue, k, 1, NULL, &global, NULL, 0, NULL, NULL));
    int out[64];
    CHECK_OK(clEnqueueReadBuffer(h->queue, m, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
    int bad = 0;
    for (int i = 0; i < 64; i++)
        bad += out[i] != 2 * (i - 20) + 3;
    CHECK(bad == 0);
    clReleaseKernel(k);
    clReleaseMemObject(m);
}

int main(void)
{
    struct harness h = harness_open();
    cl_int err;
    cl_program hdr = clCreateProgramWithSource(h.context, 1, &header, NULL, &err);
    cl_program a = compiled(&h, part_a, hdr), b = compiled(&h, part_b, hdr);
    cl_program m = compiled(&h, part_main, hdr);
    cl_program_binary_type type;
    CHECK_OK(clGetProgramBuildInfo(a, h.device, CL_PROGRAM_BINARY_TYPE, sizeof type, &type, NULL));
    CHECK(type == CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT);

    /* Three objects into one executable. */
    cl_program inputs[3] = {m, a, b};
    cl_program exe = clLinkProgram(h.context, 1, &h.device, "", 3, inputs, NULL, NULL, &err);
    CHECK_OK(err);
    run_combine(&h, exe);

    /* Two of them as a library, then the library with the main object. */
    cl_program lib = clLinkProgram(h.context, 1, &h.device, "-create-library", 2, inputs + 1, NULL,
                                   NULL, &err);
    CHECK_OK(err);
    CHECK_OK(clGetProgramBuildInfo(lib, h.device, CL_PROGRAM_BINARY_TYPE, sizeof type, &type, NULL));
    CHECK(type == CL_PROGRAM_BINARY_TYPE_LIBRARY);
    cl_program pair[2] = {m, lib};
    cl_program exe2 = clLinkProgram(h.context, 1, &h.device, "", 2, pair, NULL, NULL, &err);
    CHECK_OK(err);
    run_combine(&h, exe2);

    /* A missing function fails the link with a log that names it. */
    cl_program only_main = clLinkProgram(h.context, 1, &h.device, "", 1, &m, NULL, NULL, &err);
    CHECK(err == CL_LINK_PROGRAM_FAILURE && only_main != NULL);
    char log[4096] = "";
    if (only_main) {
        clGetProgramBuildInfo(only_main, h.device, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
        CHECK(strstr(log, "helper_") != NULL);
        clReleaseProgram(only_main);
    }
    cl_program bad = clLinkProgram(h.context, 1, &h.device, "-no-such", 1, &m, NULL, NULL, &err);
    CHECK(bad == NULL && err == CL_INVALID_LINKER_OPTIONS);
    const char *broken = "int f( { }";
    cl_program broken_p = clCreateProgramWithSource(h.context, 1, &broken, NULL, &err);
    CHECK_ERR(clCompileProgram(broken_p, 1, &h.device, "", 0, NULL, NULL, NULL, NULL),
              CL_COMPILE_PROGRAM_FAILURE);
    CHECK_ERR(clCompileProgram(broken_p, 1, &h.device, "-bogus", 0, NULL, NULL, NULL, NULL),
              CL_INVALID_COMPILER_OPTIONS);
    clReleaseProgram(broken_p);

    /* Binaries: the executable's binary builds into a working program. */
    size_t size = 0;
    CHECK_OK(clGetProgramInfo(exe, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, NULL));
    CHECK(size > 16);
    unsigned char *binary = malloc(size);
    CHECK_OK(clGetProgramInfo(exe, CL_PROGRAM_BINARIES, sizeof binary, &binary, NULL));
    cl_int status;
    const unsigned char *binaries[1] = {binary};
    cl_program from_binary =
        clCreateProgramWithBinary(h.context, 1, &h.device, &size, binaries, &status, &err);
    CHECK(err == CL_SUCCESS && status == CL_SUCCESS);
    CHECK_OK(clBuildProgram(from_binary, 1, &h.device, "", NULL, NULL));
    run_combine(&h, from_binary);
    /* A damaged binary is refused. */
    binary[3] ^= 0xff;
    cl_program damaged =
        clCreateProgramWithBinary(h.context, 1, &h.device, &size, binaries, &status, &err);
    CHECK(damaged == NULL && err == CL_INVALID_BINARY && status == CL_INVALID_BINARY);
    free(binary);

    clReleaseProgram(from_binary);
    clReleaseProgram(exe2);
    clReleaseProgram(lib);
    clReleaseProgram(exe);
    clReleaseProgram(a), clReleaseProgram(b), clReleaseProgram(m), clReleaseProgram(hdr);
    harness_close(&h);
    return harness_finish();
}
