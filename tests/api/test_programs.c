/* test_programs.c - separate compilation with embedded headers, linking of
 * objects and libraries, program binaries (API spec 5.8), and programs
 * most of whose functions no kernel calls. */
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

/* Helpers no kernel calls (one of them calls a function defined nowhere,
 * which only a call from a kernel makes an error) and a program-scope
 * variable no kernel uses: the program builds, its kernel runs, and the
 * variable still counts in CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE. */
static void check_unused_functions(struct harness *h)
{
    static const char *source =
        "int defined_nowhere(int x);\n"
        "global int unused_table[100];\n"
        "int unused_a(int x) { return defined_nowhere(x) * 3; }\n"
        "float unused_b(float x) { return sin(x) + unused_a((int)x); }\n"
        "int used(int x) { return x * 5 + 1; }\n"
        "kernel void apply(global int *p) { size_t i = get_global_id(0); p[i] = used(p[i]); }\n";
    cl_int err;
    cl_program program = clCreateProgramWithSource(h->context, 1, &source, NULL, &err);
    CHECK_OK(clBuildProgram(program, 1, &h->device, "-cl-std=CL2.0", NULL, NULL));
    size_t globals = 0;
    CHECK_OK(clGetProgramBuildInfo(program, h->device, CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE,
                                   sizeof globals, &globals, NULL));
    CHECK(globals >= 100 * sizeof(int));
    int data[64];
    for (int i = 0; i < 64; i++)
        data[i] = 7 * i - 100;
    cl_mem m = harness_buffer(h, CL_MEM_READ_WRITE, sizeof data, data);
    cl_kernel k = clCreateKernel(program, "apply", &err);
    CHECK_OK(err);
    size_t global = 64;
    CHECK_OK(clSetKernelArg(k, 0, sizeof m, &m));
    CHECK_OK(clEnqueueNDRangeKernel(h->queue, k, 1, NULL, &global, NULL, 0, NULL, NULL));
    int out[64];
    CHECK_OK(clEnqueueReadBuffer(h->queue, m, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
    int wrong = 0;
    for (int i = 0; i < 64; i++)
        wrong += out[i] != (7 * i - 100) * 5 + 1;
    CHECK_NONE_WRONG(wrong, "kernel beside unused functions");
    clReleaseKernel(k);
    clReleaseMemObject(m);
    clReleaseProgram(program);
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
    /* A damaged binary is refused before its bitcode is read: one bit
     * flipped anywhere (header or bitcode; LLVM's reader would abort or
     * crash on some), or the binary cut short. */
    for (size_t at = 0; at < size; at += 1 + size / 97) {
        unsigned char bit = (unsigned char)(1u << (at % 8));
        binary[at] ^= bit;
        status = CL_SUCCESS;
        cl_program damaged =
            clCreateProgramWithBinary(h.context, 1, &h.device, &size, binaries, &status, &err);
        CHECK(damaged == NULL && err == CL_INVALID_BINARY && status == CL_INVALID_BINARY);
        binary[at] ^= bit;
    }
    size_t shorter = size - 1;
    CHECK(!clCreateProgramWithBinary(h.context, 1, &h.device, &shorter, binaries, &status, &err));
    CHECK(err == CL_INVALID_BINARY && status == CL_INVALID_BINARY);
    /* Undamaged again, it still builds. */
    cl_program again =
        clCreateProgramWithBinary(h.context, 1, &h.device, &size, binaries, &status, &err);
    CHECK(err == CL_SUCCESS && status == CL_SUCCESS);
    CHECK_OK(clBuildProgram(again, 1, &h.device, "", NULL, NULL));
    run_combine(&h, again);
    clReleaseProgram(again);
    free(binary);

    check_unused_functions(&h);

    clReleaseProgram(from_binary);
    clReleaseProgram(exe2);
    clReleaseProgram(lib);
    clReleaseProgram(exe);
    clReleaseProgram(a), clReleaseProgram(b), clReleaseProgram(m), clReleaseProgram(hdr);
    harness_close(&h);
    return harness_finish();
}
