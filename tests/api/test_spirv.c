/* test_spirv.c - programs from SPIR-V (clCreateProgramWithIL, API spec
 * 5.8.1): built and run against the host, the IL returned as given, and
 * malformed IL refused or failing with a build log, never a crash. */
#include <limits.h>

#include <x86intrin.h>

#include "../harness.h"

/* Runs spec_constants.spv's kernel over 64 work-items; every result must
 * be `want`. */
static void check_spec(struct harness *h, cl_program program, cl_uint want)
{
    cl_int err;
    CHECK_OK(clBuildProgram(program, 1, &h->device, "", NULL, NULL));
    cl_kernel k = clCreateKernel(program, "spec", &err);
    CHECK_OK(err);
    if (err)
        return;
    cl_uint out[64];
    cl_mem d = harness_buffer(h, CL_MEM_WRITE_ONLY, sizeof out, NULL);
    CHECK_OK(clSetKernelArg(k, 0, sizeof d, &d));
    size_t global = 64;
    CHECK_OK(clEnqueueNDRangeKernel(h->queue, k, 1, NULL, &global, NULL, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(h->queue, d, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
    int bad = 0;
    for (int i = 0; i < 64; i++)
        bad += out[i] != want;
    CHECK(bad == 0);
    clReleaseKernel(k);
    clReleaseMemObject(d);
}

/* clSetProgramSpecializationConstant (5.8.1): out = int(id 3, default 7)
 * + (bool(id 5, default false) ? 100 : 0) + (uint)ulong(id 9, default 1000). */
static void test_spec_constants(struct harness *h)
{
    size_t size;
    unsigned char *il = harness_load_file(CPUCL_TEST_DATA "/spec_constants.spv", &size);
    cl_int err;
    cl_program program = clCreateProgramWithIL(h->context, il, size, &err);
    CHECK_OK(err);
    free(il);
    check_spec(h, program, 7 + 0 + 1000); /* the defaults */
    cl_uint i = 40;
    cl_uchar b = 1;
    cl_ulong l = 5;
    CHECK_OK(clSetProgramSpecializationConstant(program, 3, sizeof i, &i));
    CHECK_OK(clSetProgramSpecializationConstant(program, 5, sizeof b, &b));
    CHECK_OK(clSetProgramSpecializationConstant(program, 9, sizeof l, &l));
    check_spec(h, program, 40 + 100 + 5); /* all three at once */
    b = 0;
    CHECK_OK(clSetProgramSpecializationConstant(program, 5, sizeof b, &b));
    check_spec(h, program, 40 + 0 + 5);
    /* errors: an id the module does not have, a wrong size, no value, a
     * program not made from IL */
    CHECK_ERR(clSetProgramSpecializationConstant(program, 4, sizeof i, &i), CL_INVALID_SPEC_ID);
    CHECK_ERR(clSetProgramSpecializationConstant(program, 3, sizeof l, &l), CL_INVALID_VALUE);
    CHECK_ERR(clSetProgramSpecializationConstant(program, 3, sizeof i, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clSetProgramSpecializationConstant(NULL, 3, sizeof i, &i), CL_INVALID_PROGRAM);
    const char *source = "kernel void k(global int *p) { *p = 1; }";
    cl_program from_source = clCreateProgramWithSource(h->context, 1, &source, NULL, &err);
    CHECK_ERR(clSetProgramSpecializationConstant(from_source, 3, sizeof i, &i),
              CL_INVALID_PROGRAM);
    clReleaseProgram(from_source);
    clReleaseProgram(program);
}

/* The program of tests/data/<file>, built, and its kernel `name` (NULL
 * when something failed, which the checks have counted). */
static cl_kernel build_il_kernel(struct harness *h, const char *file, const char *name,
                                 cl_program *program)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", CPUCL_TEST_DATA, file);
    size_t size;
    unsigned char *il = harness_load_file(path, &size);
    cl_int err;
    *program = clCreateProgramWithIL(h->context, il, size, &err);
    CHECK_OK(err);
    free(il);
    if (err)
        return NULL;
    CHECK_OK(clBuildProgram(*program, 1, &h->device, "", NULL, NULL));
    cl_kernel k = clCreateKernel(*program, name, &err);
    CHECK_OK(err);
    return err ? NULL : k;
}

/* translator_fixes.spv (SPIR-V assembly written by hand): OpConstantNull
 * of int, float, long and bool, OpVectorShuffle of a uint3 with a uint2
 * (each way round) and OpCompositeConstruct of vectors from values, on
 * which llvm-spirv-15 stops (src/compiler/spirv.c rewrites them), and a
 * vector null and an addition decorated NoSignedWrap and NoUnsignedWrap
 * (cl_khr_spirv_no_integer_wrap_decoration), which it takes. */
static void test_translator_fixes(struct harness *h)
{
    cl_program program;
    cl_kernel k = build_il_kernel(h, "translator_fixes.spv", "translator_fixes", &program);
    if (!k)
        return;
    enum { RESULTS = 19 };
    cl_uint out[RESULTS], x = 12345;
    for (int i = 0; i < RESULTS; i++)
        out[i] = 1;
    cl_mem dout = harness_buffer(h, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof out, out);
    CHECK_OK(harness_args(k, 2, ARG(dout), ARG(x)));
    size_t one = 1;
    CHECK_OK(clEnqueueNDRangeKernel(h->queue, k, 1, NULL, &one, NULL, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(h->queue, dout, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
    const cl_uint want[RESULTS] = {0,  0, x,     7,  0,     x,     x + 2, 10, x,    20,
                                   10, x, x + 2, 20, x + 1, x + 2, 20,    x,  x + 7};
    for (int i = 0; i < RESULTS; i++)
        if (out[i] != want[i])
            HARNESS_FAIL("translator_fixes result %d: got %u, want %u\n", i, out[i], want[i]);
    clReleaseMemObject(dout);
    clReleaseKernel(k);
    clReleaseProgram(program);
}

/* spirv14_fixes.spv (SPIR-V 1.4 assembly written by hand): OpPtrEqual,
 * OpPtrNotEqual, OpPtrDiff, OpCopyLogical, OpCopyMemory and
 * OpCopyMemorySized with two sets of memory operands, OpDecorateString,
 * which llvm-spirv-15 cannot read (src/compiler/spirv_fixes.c rewrites
 * them); the device reports SPIR-V 1.4. */
static void test_spirv14_fixes(struct harness *h)
{
    cl_program program;
    cl_kernel k = build_il_kernel(h, "spirv14_fixes.spv", "spirv14_fixes", &program);
    if (!k)
        return;
    enum { RESULTS = 6 };
    cl_uint out[RESULTS] = {9, 9, 9, 9, 9, 9}, other[1] = {0};
    cl_mem dout = harness_buffer(h, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof out, out);
    cl_mem dother =
        harness_buffer(h, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof other, other);
    CHECK_OK(harness_args(k, 2, ARG(dout), ARG(dother)));
    size_t one = 1;
    CHECK_OK(clEnqueueNDRangeKernel(h->queue, k, 1, NULL, &one, NULL, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(h->queue, dout, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
    const cl_uint want[RESULTS] = {1, 1, 5, 77, 42, 42};
    for (int i = 0; i < RESULTS; i++)
        if (out[i] != want[i])
            HARNESS_FAIL("spirv14_fixes result %d: got %u, want %u\n", i, out[i], want[i]);
    clReleaseMemObject(dout), clReleaseMemObject(dother);
    clReleaseKernel(k);
    clReleaseProgram(program);
}

/* spirv16_fixes.spv (SPIR-V 1.6 assembly written by hand): 1.5's OpBitcast
 * between pointers and integers, 1.6's core OpUDot, Uniform and UniformId
 * decorations and Nontemporal image operands (src/compiler/spirv_fixes.c
 * rewrites what llvm-spirv-15 cannot read); the device reports SPIR-V 1.6. */
static void test_spirv16_fixes(struct harness *h)
{
    cl_program program;
    cl_kernel k = build_il_kernel(h, "spirv16_fixes.spv", "spirv16_fixes", &program);
    if (!k)
        return;
    enum { RESULTS = 4, W = 8, H = 4 };
    cl_ulong out[RESULTS] = {9, 9, 9, 9};
    cl_mem dout = harness_buffer(h, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof out, out);
    CHECK_OK(harness_args(k, 1, ARG(dout)));
    size_t one = 1;
    CHECK_OK(clEnqueueNDRangeKernel(h->queue, k, 1, NULL, &one, NULL, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(h->queue, dout, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
    const cl_ulong want[RESULTS] = {24, 7, 70, 42};
    for (int i = 0; i < RESULTS; i++)
        if (out[i] != want[i])
            HARNESS_FAIL("spirv16_fixes result %d: got %llu, want %llu\n", i,
                         (unsigned long long)out[i], (unsigned long long)want[i]);
    clReleaseMemObject(dout);
    clReleaseKernel(k);

    cl_int err;
    k = clCreateKernel(program, "spirv16_image", &err);
    CHECK_OK(err);
    static float pixels[W * H * 4], got[W * H * 4];
    for (int i = 0; i < W * H * 4; i++)
        pixels[i] = (float)(i * 13 % 29) - 7.5f;
    cl_image_format format = {CL_RGBA, CL_FLOAT};
    cl_image_desc desc = {.image_type = CL_MEM_OBJECT_IMAGE2D, .image_width = W, .image_height = H};
    cl_mem in = clCreateImage(h->context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, &format, &desc,
                              pixels, &err);
    CHECK_OK(err);
    cl_mem image_out = clCreateImage(h->context, CL_MEM_WRITE_ONLY, &format, &desc, NULL, &err);
    CHECK_OK(err);
    if (k && in && image_out) {
        CHECK_OK(clSetKernelArg(k, 0, sizeof in, &in));
        CHECK_OK(clSetKernelArg(k, 1, sizeof image_out, &image_out));
        size_t global[2] = {W, H}, origin[3] = {0, 0, 0}, region[3] = {W, H, 1};
        CHECK_OK(clEnqueueNDRangeKernel(h->queue, k, 2, NULL, global, NULL, 0, NULL, NULL));
        CHECK_OK(clEnqueueReadImage(h->queue, image_out, CL_TRUE, origin, region, 0, 0, got, 0,
                                    NULL, NULL));
        int bad = 0;
        for (int i = 0; i < W * H * 4; i++)
            if (got[i] != 2 * pixels[i] && bad++ < 5)
                HARNESS_FAIL("spirv16_image value %d: got %g, want %g\n", i, got[i], 2 * pixels[i]);
        CHECK_NONE_WRONG(bad, "SPIR-V 1.6 image reads and writes with Nontemporal");
    }
    if (k)
        clReleaseKernel(k);
    if (in)
        clReleaseMemObject(in);
    if (image_out)
        clReleaseMemObject(image_out);
    clReleaseProgram(program);
}

/* float_atomics.spv: cl_ext_float_atomics' SPIR-V instructions,
 * OpAtomicFAddEXT on float, double and half, OpAtomicFMinEXT and
 * OpAtomicFMaxEXT on float, from every work-item at once. */
static void test_float_atomics(struct harness *h)
{
    cl_program program;
    cl_kernel k = build_il_kernel(h, "float_atomics.spv", "float_atomics", &program);
    if (!k)
        return;
    enum { N = 1000 };
    float f = 0.5f, lo = 1e9f, hi = -1;
    double d = 0.25;
    cl_ushort half = 0; /* +0 */
    cl_mem df = harness_buffer(h, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof f, &f);
    cl_mem dd = harness_buffer(h, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof d, &d);
    cl_mem dh = harness_buffer(h, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof half, &half);
    cl_mem dlo = harness_buffer(h, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof lo, &lo);
    cl_mem dhi = harness_buffer(h, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof hi, &hi);
    CHECK_OK(harness_args(k, 5, ARG(df), ARG(dd), ARG(dh), ARG(dlo), ARG(dhi)));
    size_t global = N;
    CHECK_OK(clEnqueueNDRangeKernel(h->queue, k, 1, NULL, &global, NULL, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(h->queue, df, CL_TRUE, 0, sizeof f, &f, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(h->queue, dd, CL_TRUE, 0, sizeof d, &d, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(h->queue, dh, CL_TRUE, 0, sizeof half, &half, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(h->queue, dlo, CL_TRUE, 0, sizeof lo, &lo, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(h->queue, dhi, CL_TRUE, 0, sizeof hi, &hi, 0, NULL, NULL));
    CHECK(f == N + 0.5f && d == N + 0.25);
    CHECK_EQ(half, 0x63d0); /* 1000 as a half: 2^9 * (1 + 0x3d0 / 1024) */
    CHECK(lo == 0 && hi == N - 1);
    clReleaseMemObject(df), clReleaseMemObject(dd), clReleaseMemObject(dh);
    clReleaseMemObject(dlo), clReleaseMemObject(dhi);
    clReleaseKernel(k);
    clReleaseProgram(program);
}

/* shader_clock.spv: SPV_KHR_shader_clock's OpReadClockKHR (cl_khr_kernel_clock)
 * at device and sub-group scope, as a ulong and a uint2: read in order,
 * between the host's time-stamp counter before and after the launch (the
 * device's clocks are that counter, src/builtins/clock.cl). */
static void test_shader_clock(struct harness *h)
{
    cl_program program;
    cl_kernel k = build_il_kernel(h, "shader_clock.spv", "shader_clock", &program);
    if (!k)
        return;
    cl_ulong out[3] = {0, 0, 0};
    cl_mem dout = harness_buffer(h, CL_MEM_WRITE_ONLY, sizeof out, NULL);
    CHECK_OK(harness_args(k, 1, ARG(dout)));
    size_t one = 1;
    CHECK_OK(clFinish(h->queue));
    cl_ulong before = __rdtsc();
    CHECK_OK(clEnqueueNDRangeKernel(h->queue, k, 1, NULL, &one, NULL, 0, NULL, NULL));
    CHECK_OK(clFinish(h->queue));
    cl_ulong after = __rdtsc();
    CHECK_OK(clEnqueueReadBuffer(h->queue, dout, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
    CHECK(before <= out[0] && out[0] <= out[1] && out[1] <= out[2] && out[2] <= after);
    clReleaseMemObject(dout);
    clReleaseKernel(k);
    clReleaseProgram(program);
}

/* debug_info.spv: debug_info.cl with -g, so with OpenCL.DebugInfo.100
 * instructions (cl_khr_spirv_extended_debug_info): it builds and runs. */
static void test_debug_info(struct harness *h)
{
    cl_program program;
    cl_kernel k = build_il_kernel(h, "debug_info.spv", "scale", &program);
    if (!k)
        return;
    enum { N = 64 };
    float v[N];
    for (int i = 0; i < N; i++)
        v[i] = (float)i - 20;
    cl_mem b = harness_buffer(h, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof v, v);
    CHECK_OK(harness_args(k, 1, ARG(b)));
    size_t global = N;
    CHECK_OK(clEnqueueNDRangeKernel(h->queue, k, 1, NULL, &global, NULL, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(h->queue, b, CL_TRUE, 0, sizeof v, v, 0, NULL, NULL));
    int bad = 0;
    for (int i = 0; i < N; i++)
        bad += v[i] != ((float)i - 20) * 2 + 1;
    CHECK_NONE_WRONG(bad, "a SPIR-V module with OpenCL.DebugInfo.100");
    clReleaseMemObject(b);
    clReleaseKernel(k);
    clReleaseProgram(program);
}

/* uniform_arithmetic.spv: SPV_KHR_uniform_group_instructions' work-group
 * product, inclusive and, logical and, and exclusive float product, in two
 * groups of 8 (the translator names the bitwise ones
 * work_group_*_bitwise_and). */
static void test_uniform_arithmetic(struct harness *h)
{
    cl_program program;
    cl_kernel k = build_il_kernel(h, "uniform_arithmetic.spv", "uniform", &program);
    if (!k)
        return;
    enum { N = 16, LOCAL = 8 };
    cl_uint o[N];
    float f[N];
    cl_mem bo = harness_buffer(h, CL_MEM_WRITE_ONLY, sizeof o, NULL);
    cl_mem bf = harness_buffer(h, CL_MEM_WRITE_ONLY, sizeof f, NULL);
    CHECK_OK(harness_args(k, 2, ARG(bo), ARG(bf)));
    size_t global = N, local = LOCAL;
    CHECK_OK(clEnqueueNDRangeKernel(h->queue, k, 1, NULL, &global, &local, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(h->queue, bo, CL_TRUE, 0, sizeof o, o, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(h->queue, bf, CL_TRUE, 0, sizeof f, f, 0, NULL, NULL));
    int bad = 0;
    for (cl_uint i = 0; i < N; i++) {
        cl_uint first = i / LOCAL * LOCAL, product = 1, and = ~0u, above = 1;
        float exclusive = 1;
        for (cl_uint j = first; j < first + LOCAL; j++) {
            product *= j;
            above &= j > 3;
            if (j <= i)
                and &= j;
            if (j < i)
                exclusive *= (float)j;
        }
        bad += o[i] != product + and+above || f[i] != exclusive;
    }
    CHECK_NONE_WRONG(bad, "SPIR-V work-group uniform arithmetic");
    clReleaseMemObject(bo), clReleaseMemObject(bf);
    clReleaseKernel(k);
    clReleaseProgram(program);
}

/* The program of tests/data/<file>, compiled (clCompileProgram). */
static cl_program compile_il(struct harness *h, const char *file)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", CPUCL_TEST_DATA, file);
    size_t size;
    unsigned char *il = harness_load_file(path, &size);
    cl_int err;
    cl_program program = clCreateProgramWithIL(h->context, il, size, &err);
    CHECK_OK(err);
    free(il);
    if (!err)
        CHECK_OK(clCompileProgram(program, 1, &h->device, "", 0, NULL, NULL, NULL, NULL));
    return err ? NULL : program;
}

/* cl_khr_spirv_linkonce_odr: linkonce_main.spv and linkonce_obj.spv both
 * define `twice` with LinkOnceODR linkage; compiled apart and linked, the
 * two merge and the kernel calls it and the other module's `thrice`. */
static void test_linkonce_odr(struct harness *h)
{
    cl_program objects[2] = {compile_il(h, "linkonce_main.spv"), compile_il(h, "linkonce_obj.spv")};
    if (!objects[0] || !objects[1])
        return;
    cl_int err;
    cl_program program = clLinkProgram(h->context, 1, &h->device, "", 2, objects, NULL, NULL, &err);
    CHECK_OK(err);
    cl_kernel k = program ? clCreateKernel(program, "linkonce", &err) : NULL;
    CHECK_OK(err);
    if (k) {
        enum { N = 64 };
        cl_uint out[N];
        cl_mem dout = harness_buffer(h, CL_MEM_WRITE_ONLY, sizeof out, NULL);
        CHECK_OK(harness_args(k, 1, ARG(dout)));
        size_t global = N;
        CHECK_OK(clEnqueueNDRangeKernel(h->queue, k, 1, NULL, &global, NULL, 0, NULL, NULL));
        CHECK_OK(clEnqueueReadBuffer(h->queue, dout, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
        for (cl_uint i = 0; i < N; i++)
            if (out[i] != 5 * i)
                HARNESS_FAIL("linkonce item %u: got %u, want %u\n", i, out[i], 5 * i);
        clReleaseMemObject(dout);
        clReleaseKernel(k);
    }
    if (program)
        clReleaseProgram(program);
    clReleaseProgram(objects[0]), clReleaseProgram(objects[1]);
}

/* dot of the four bytes of a and b, each signed or not */
static long long dot4(cl_uint a, cl_uint b, int a_signed, int b_signed)
{
    long long sum = 0;
    for (int i = 0; i < 4; i++) {
        long long x = (a >> (8 * i)) & 0xff, y = (b >> (8 * i)) & 0xff;
        sum += (a_signed && x > 127 ? x - 256 : x) * (b_signed && y > 127 ? y - 256 : y);
    }
    return sum;
}

static long long clamp_ll(long long v, long long lo, long long hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

/* bit_dot.spv (SPIR-V assembly written by hand): SPV_KHR_bit_instructions
 * (the translator calls bitfield_insert and the others, integer.cl) and
 * SPV_KHR_integer_dot_product (its __spirv_*DotKHR names, integer.cl),
 * packed and on uchar4s, with saturating accumulators. */
static void test_bit_dot(struct harness *h)
{
    cl_program program;
    cl_kernel k = build_il_kernel(h, "bit_dot.spv", "bit_dot", &program);
    if (!k)
        return;
    enum { RESULTS = 14 };
    static const cl_uint inputs[][2] = {
        {0x12345678u, 0x9abcdef0u}, {0xffffffffu, 0x7f7f7f7fu}, {0x80808080u, 0x80808080u}, {0, 5}};
    cl_mem dout = harness_buffer(h, CL_MEM_READ_WRITE, RESULTS * sizeof(cl_uint), NULL);
    for (size_t t = 0; t < sizeof inputs / sizeof inputs[0]; t++) {
        cl_uint x = inputs[t][0], y = inputs[t][1], out[RESULTS];
        cl_uchar4 v, w;
        memcpy(&v, &y, 4);
        memcpy(&w, &x, 4);
        CHECK_OK(harness_args(k, 5, ARG(dout), ARG(x), ARG(y), ARG(v), ARG(w)));
        size_t one = 1;
        CHECK_OK(clEnqueueNDRangeKernel(h->queue, k, 1, NULL, &one, NULL, 0, NULL, NULL));
        CHECK_OK(clEnqueueReadBuffer(h->queue, dout, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
        cl_uint field = (x >> 4) & 0x7f, reversed = 0;
        for (int i = 0; i < 32; i++)
            reversed |= ((x >> i) & 1u) << (31 - i);
        const cl_uint want[RESULTS] = {
            (x & ~0x78u) | ((y << 3) & 0x78u),
            field,
            field & 0x40 ? field | ~0x7fu : field,
            reversed,
            (cl_uint)dot4(x, y, 0, 0),
            (cl_uint)dot4(x, y, 1, 1),
            (cl_uint)dot4(x, y, 1, 0),
            (cl_uint)clamp_ll(dot4(x, y, 0, 0) + 0xffffff00ll, 0, 0xffffffffll),
            (cl_uint)clamp_ll(dot4(x, y, 1, 1) + 0x7fffff00ll, INT_MIN, INT_MAX),
            (cl_uint)clamp_ll(dot4(x, y, 1, 0) + 5, INT_MIN, INT_MAX),
            (cl_uint)dot4(y, x, 0, 0),
            (cl_uint)dot4(y, x, 1, 1),
            (cl_uint)dot4(y, x, 1, 0),
            (cl_uint)clamp_ll(dot4(y, x, 1, 1) + (cl_int)x, INT_MIN, INT_MAX),
        };
        for (int i = 0; i < RESULTS; i++)
            if (out[i] != want[i])
                HARNESS_FAIL("bit_dot x %08x y %08x result %d: got %08x, want %08x\n", x, y, i,
                             out[i], want[i]);
    }
    clReleaseMemObject(dout);
    clReleaseKernel(k);
    clReleaseProgram(program);
}

#ifndef CL_DEVICE_SPIRV_EXTENDED_INSTRUCTION_SETS_KHR
#define CL_DEVICE_SPIRV_EXTENDED_INSTRUCTION_SETS_KHR 0x12B9
#define CL_DEVICE_SPIRV_EXTENSIONS_KHR 0x12BA
#define CL_DEVICE_SPIRV_CAPABILITIES_KHR 0x12BB
#endif

/* cl_khr_spirv_queries: OpenCL.std, the SPIR-V extensions whose modules
 * this file builds (bit_dot.spv, linkonce_*.spv, translator_fixes.spv,
 * non_uniform.spv in test_subgroup_non_uniform.c) and the capabilities of
 * the instructions they use. */
static void test_spirv_queries(struct harness *h)
{
    const char *sets[8] = {NULL}, *extensions[32] = {NULL};
    cl_uint capabilities[128] = {0};
    size_t sets_size = 0, extensions_size = 0, capabilities_size = 0;
    CHECK_OK(clGetDeviceInfo(h->device, CL_DEVICE_SPIRV_EXTENDED_INSTRUCTION_SETS_KHR, sizeof sets,
                             sets, &sets_size));
    CHECK_OK(clGetDeviceInfo(h->device, CL_DEVICE_SPIRV_EXTENSIONS_KHR, sizeof extensions,
                             extensions, &extensions_size));
    CHECK_OK(clGetDeviceInfo(h->device, CL_DEVICE_SPIRV_CAPABILITIES_KHR, sizeof capabilities,
                             capabilities, &capabilities_size));
    CHECK(sets_size == 2 * sizeof sets[0] && sets[0] && !strcmp(sets[0], "OpenCL.std") && sets[1] &&
          !strcmp(sets[1], "OpenCL.DebugInfo.100"));
    static const char *const wanted[] = {"SPV_KHR_bit_instructions",
                                         "SPV_KHR_integer_dot_product",
                                         "SPV_KHR_linkonce_odr",
                                         "SPV_KHR_no_integer_wrap_decoration",
                                         "SPV_KHR_subgroup_rotate",
                                         "SPV_KHR_shader_clock",
                                         "SPV_EXT_shader_atomic_float_add",
                                         "SPV_EXT_shader_atomic_float_min_max"};
    for (size_t w = 0; w < sizeof wanted / sizeof wanted[0]; w++) {
        int found = 0;
        for (size_t i = 0; i < extensions_size / sizeof extensions[0]; i++)
            found |= !strcmp(extensions[i], wanted[w]);
        CHECK(found);
    }
    /* Kernel, Int8, GroupNonUniformArithmetic, DotProduct, BitInstructions */
    static const cl_uint capability[] = {6, 39, 63, 6019, 6025};
    for (size_t c = 0; c < sizeof capability / sizeof capability[0]; c++) {
        int found = 0;
        for (size_t i = 0; i < capabilities_size / sizeof capabilities[0]; i++)
            found |= capabilities[i] == capability[c];
        CHECK(found);
    }
}

/* small_vectors.spv: built-ins taking and returning vectors of 8 bytes or
 * less (float2, int2, char8, short4, uchar4), which SPIR-V passes as
 * themselves where the library takes them coerced (src/compiler/library.c
 * match_call_types; before it, the build failed: "recursive call of
 * 'dot'"). Every result is exact. */
static void test_small_vectors(struct harness *h)
{
    enum { N = 64, R = 12 };
    cl_program program = NULL;
    cl_kernel k = build_il_kernel(h, "small_vectors.spv", "small_vectors", &program);
    float f[2 * N], out[R * N];
    int i2[2 * N];
    signed char c8[8 * N];
    short s4[4 * N];
    unsigned char u4[4 * N];
    for (int j = 0; j < 2 * N; j++) {
        f[j] = (float)(j * 7 % 23) * 0.25f - 3.0f;
        i2[j] = j * 13 % 41 - 20;
    }
    for (int j = 0; j < 8 * N; j++)
        c8[j] = (signed char)(j * 37 % 256 - 128);
    for (int j = 0; j < 4 * N; j++) {
        s4[j] = (short)(j * 1237 % 65536 - 32768);
        u4[j] = (unsigned char)(j * 71 % 256);
    }
    cl_mem mem[6] = {harness_buffer(h, CL_MEM_READ_ONLY, sizeof f, f),
                     harness_buffer(h, CL_MEM_READ_ONLY, sizeof i2, i2),
                     harness_buffer(h, CL_MEM_READ_ONLY, sizeof c8, c8),
                     harness_buffer(h, CL_MEM_READ_ONLY, sizeof s4, s4),
                     harness_buffer(h, CL_MEM_READ_ONLY, sizeof u4, u4),
                     harness_buffer(h, CL_MEM_WRITE_ONLY, sizeof out, NULL)};
    if (k) {
        for (cl_uint a = 0; a < 6; a++)
            CHECK_OK(clSetKernelArg(k, a, sizeof mem[a], &mem[a]));
        size_t global = N;
        CHECK_OK(clEnqueueNDRangeKernel(h->queue, k, 1, NULL, &global, NULL, 0, NULL, NULL));
        CHECK_OK(clEnqueueReadBuffer(h->queue, mem[5], CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
        int bad = 0;
        for (int g = 0; g < N; g++) {
            float x = f[2 * g], y = f[2 * g + 1];
            int p = i2[2 * g], q = i2[2 * g + 1];
            int c0 = c8[8 * g] + 100, c7 = c8[8 * g + 7] + 100;
            unsigned short s0 = (unsigned short)s4[4 * g], s3 = (unsigned short)s4[4 * g + 3];
            float want[R] = {x * 2.0f + y * 3.0f,
                             x > 1.5f ? x : 1.5f,
                             y > 1.5f ? y : 1.5f,
                             (float)(p > 5 ? p - 5 : 5 - p),
                             (float)(q > -5 ? q + 5 : -5 - q),
                             (float)(c0 > 127 ? 127 : c0),
                             (float)(c7 > 127 ? 127 : c7),
                             (float)(short)(unsigned short)(s0 << 3 | s0 >> 13),
                             (float)(short)(unsigned short)(s3 << 3 | s3 >> 13),
                             (float)((u4[4 * g + 1] + 255) >> 1),
                             floorf(x * 3.5f),
                             floorf(y * 3.5f)};
            for (int r = 0; r < R; r++)
                if (out[g * R + r] != want[r] && bad++ < 5)
                    HARNESS_FAIL("small_vectors item %d result %d: got %g, want %g", g, r,
                                 out[g * R + r], want[r]);
        }
        CHECK_NONE_WRONG(bad, "built-ins with vectors of 8 bytes or less from SPIR-V");
        clReleaseKernel(k);
    }
    for (int a = 0; a < 6; a++)
        clReleaseMemObject(mem[a]);
    if (program)
        clReleaseProgram(program);
}

/* image_coords.spv: read_imagef and write_imagef with int2 coordinates,
 * get_image_dim's int2 (coerced in the library, as above; before, "recursive
 * call of 'read_imagef'"). A clamped read one to the right and one up,
 * plus the image's size. */
static void test_image_coords(struct harness *h)
{
    enum { W = 16, H = 8 };
    cl_program program = NULL;
    cl_kernel k = build_il_kernel(h, "image_coords.spv", "image_coords", &program);
    cl_int err;
    static float pixels[W * H * 4], got[W * H * 4];
    for (int i = 0; i < W * H * 4; i++)
        pixels[i] = (float)(i * 37 % 101) * 0.5f;
    cl_image_format format = {CL_RGBA, CL_FLOAT};
    cl_image_desc desc = {.image_type = CL_MEM_OBJECT_IMAGE2D, .image_width = W, .image_height = H};
    cl_mem in = clCreateImage(h->context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, &format, &desc,
                              pixels, &err);
    CHECK_OK(err);
    cl_mem out = clCreateImage(h->context, CL_MEM_WRITE_ONLY, &format, &desc, NULL, &err);
    CHECK_OK(err);
    if (k && in && out) {
        CHECK_OK(clSetKernelArg(k, 0, sizeof in, &in));
        CHECK_OK(clSetKernelArg(k, 1, sizeof out, &out));
        size_t global[2] = {W, H}, origin[3] = {0, 0, 0}, region[3] = {W, H, 1};
        CHECK_OK(clEnqueueNDRangeKernel(h->queue, k, 2, NULL, global, NULL, 0, NULL, NULL));
        CHECK_OK(
            clEnqueueReadImage(h->queue, out, CL_TRUE, origin, region, 0, 0, got, 0, NULL, NULL));
        int bad = 0;
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) {
                int sx = x + 1 < W ? x + 1 : W - 1, sy = y - 1 > 0 ? y - 1 : 0;
                for (int c = 0; c < 4; c++) {
                    float want = pixels[(sy * W + sx) * 4 + c] + (c == 0 ? W : c == 1 ? H : 0);
                    if (got[(y * W + x) * 4 + c] != want && bad++ < 5)
                        HARNESS_FAIL("image_coords (%d, %d) channel %d: got %g, want %g", x, y, c,
                                     got[(y * W + x) * 4 + c], want);
                }
            }
        CHECK_NONE_WRONG(bad, "image built-ins with int2 coordinates from SPIR-V");
    }
    if (k)
        clReleaseKernel(k);
    if (in)
        clReleaseMemObject(in);
    if (out)
        clReleaseMemObject(out);
    if (program)
        clReleaseProgram(program);
}

/* mipmap_reads.spv: OpImageSampleExplicitLod with Lod and with Grad
 * (cl_khr_mipmap_image) on a 4-level 8x8 image whose level l holds
 * (l, 2l, 3, 1) in every pixel: the level each read finds. */
static void test_mipmap_reads(struct harness *h)
{
    cl_program program = NULL;
    cl_kernel at_lod = build_il_kernel(h, "mipmap_reads.spv", "at_lod", &program);
    cl_int err;
    cl_kernel at_gradient = program ? clCreateKernel(program, "at_gradient", &err) : NULL;
    cl_mem images[2] = {NULL, NULL};
    cl_image_format formats[2] = {{CL_RGBA, CL_FLOAT}, {CL_RGBA, CL_UNSIGNED_INT32}};
    for (int i = 0; i < 2; i++) {
        cl_image_desc desc = {.image_type = CL_MEM_OBJECT_IMAGE2D,
                              .image_width = 8,
                              .image_height = 8,
                              .num_mip_levels = 4};
        images[i] = clCreateImage(h->context, CL_MEM_READ_ONLY, &formats[i], &desc, NULL, &err);
        CHECK_OK(err);
        for (unsigned l = 0; images[i] && l < 4; l++) {
            float f[4] = {(float)l, 2.0f * (float)l, 3.0f, 1.0f};
            cl_uint u[4] = {l, 2 * l, 3, 1};
            size_t origin[3] = {0, 0, l}, region[3] = {8u >> l, 8u >> l, 1};
            CHECK_OK(clEnqueueFillImage(h->queue, images[i], i ? (void *)u : (void *)f, origin,
                                        region, 0, NULL, NULL));
        }
    }
    cl_sampler_properties properties[] = {CL_SAMPLER_NORMALIZED_COORDS, CL_TRUE,
                                          CL_SAMPLER_MIP_FILTER_MODE_KHR, CL_FILTER_NEAREST, 0};
    cl_sampler sampler = clCreateSamplerWithProperties(h->context, properties, &err);
    CHECK_OK(err);
    static const float lods[] = {0.0f, 1.0f, 2.0f, 3.0f, 1.6f};
    static const float gradients[][4] = {{1.0f / 8, 0.0f, 0.0f, 0.0f},
                                         {2.0f / 8, 0.0f, 0.0f, 0.0f},
                                         {0.0f, 0.0f, 0.0f, 4.0f / 8},
                                         {0.0f, 8.0f / 8, 0.0f, 0.0f},
                                         {0.0f, 0.0f, 0.0f, 3.0f / 8}};
    /* lod 1.6 is level 2 (OpenGL 3.0 3.9.8: ceil(1.6 + 0.5) - 1); a
     * footprint 3 pixels wide, log2(3) = 1.58, too */
    static const unsigned levels[] = {0, 1, 2, 3, 2};
    cl_mem lod_buffer = harness_buffer(h, CL_MEM_READ_ONLY, sizeof lods, (void *)lods);
    cl_mem gradient_buffer =
        harness_buffer(h, CL_MEM_READ_ONLY, sizeof gradients, (void *)gradients);
    cl_mem out = harness_buffer(h, CL_MEM_WRITE_ONLY, 5 * 16, NULL);
    float coord[2] = {0.3f, 0.6f};
    size_t n = 5;
    if (at_lod && at_gradient && images[0] && images[1] && sampler) {
        CHECK_OK(harness_args(at_lod, 5, ARG(images[0]), ARG(sampler), ARG(coord), ARG(lod_buffer),
                              ARG(out)));
        CHECK_OK(clEnqueueNDRangeKernel(h->queue, at_lod, 1, NULL, &n, NULL, 0, NULL, NULL));
        float f[20];
        CHECK_OK(clEnqueueReadBuffer(h->queue, out, CL_TRUE, 0, sizeof f, f, 0, NULL, NULL));
        int bad = 0;
        for (int i = 0; i < 5; i++)
            bad += f[4 * i] != (float)levels[i] || f[4 * i + 1] != 2.0f * (float)levels[i] ||
                   f[4 * i + 2] != 3.0f;
        CHECK_NONE_WRONG(bad, "read_imagef at a level of detail from SPIR-V");
        CHECK_OK(harness_args(at_gradient, 5, ARG(images[1]), ARG(sampler), ARG(coord),
                              ARG(gradient_buffer), ARG(out)));
        CHECK_OK(clEnqueueNDRangeKernel(h->queue, at_gradient, 1, NULL, &n, NULL, 0, NULL, NULL));
        cl_uint u[20];
        CHECK_OK(clEnqueueReadBuffer(h->queue, out, CL_TRUE, 0, sizeof u, u, 0, NULL, NULL));
        bad = 0;
        for (int i = 0; i < 5; i++)
            bad += u[4 * i] != levels[i] || u[4 * i + 1] != 2 * levels[i] || u[4 * i + 2] != 3;
        CHECK_NONE_WRONG(bad, "read_imageui with gradients from SPIR-V");
    }
    clReleaseMemObject(out);
    clReleaseMemObject(gradient_buffer);
    clReleaseMemObject(lod_buffer);
    if (sampler)
        clReleaseSampler(sampler);
    for (int i = 0; i < 2; i++)
        if (images[i])
            clReleaseMemObject(images[i]);
    if (at_gradient)
        clReleaseKernel(at_gradient);
    if (at_lod)
        clReleaseKernel(at_lod);
    if (program)
        clReleaseProgram(program);
}

/* mipmap_writes.spv: OpImageWrite with a Lod (ImageMipmap,
 * cl_khr_mipmap_image_writes) into level 1 of a 3-level 8x4 image. */
/* Malformed SPIR-V on which the translator allocates without end (two
 * words of device_enqueue.spv changed, as a fuzzer found: an OpEntryPoint's
 * word count 12 -> 4 and a later operand 10 -> 14). Unbounded, it took
 * all of a 24 GiB machine's memory until the OOM killer ended it two
 * minutes later; bounded (spirv.c), the build fails at once with a log. */
static void test_translator_bounds(struct harness *h)
{
    size_t size;
    unsigned char *il = harness_load_file(CPUCL_TEST_DATA "/device_enqueue.spv", &size);
    uint32_t words[2];
    CHECK(size > 556 * 4);
    if (size <= 556 * 4)
        return;
    memcpy(&words[0], il + 34 * 4, 4);
    memcpy(&words[1], il + 555 * 4, 4);
    CHECK(words[0] == 0x000c000f && words[1] == 10);
    words[0] = 0x0004000f;
    words[1] = 14;
    memcpy(il + 34 * 4, &words[0], 4);
    memcpy(il + 555 * 4, &words[1], 4);
    cl_int err;
    cl_program program = clCreateProgramWithIL(h->context, il, size, &err);
    CHECK_OK(err);
    CHECK_ERR(clBuildProgram(program, 1, &h->device, "", NULL, NULL), CL_BUILD_PROGRAM_FAILURE);
    size_t log_size = 0;
    CHECK_OK(clGetProgramBuildInfo(program, h->device, CL_PROGRAM_BUILD_LOG, 0, NULL, &log_size));
    char *log = malloc(log_size + 1);
    log[0] = 0;
    CHECK_OK(clGetProgramBuildInfo(program, h->device, CL_PROGRAM_BUILD_LOG, log_size, log, NULL));
    CHECK(strstr(log, "SPIR-V translator stopped on signal") != NULL);
    free(log);
    clReleaseProgram(program);
    free(il);
}

static void test_mipmap_writes(struct harness *h)
{
    cl_program program = NULL;
    cl_kernel k = build_il_kernel(h, "mipmap_writes.spv", "write_level", &program);
    cl_int err;
    cl_image_format format = {CL_RGBA, CL_FLOAT};
    cl_image_desc desc = {.image_type = CL_MEM_OBJECT_IMAGE2D,
                          .image_width = 8,
                          .image_height = 4,
                          .num_mip_levels = 3};
    cl_mem img = clCreateImage(h->context, CL_MEM_READ_WRITE, &format, &desc, NULL, &err);
    CHECK_OK(err);
    if (k && img) {
        cl_int lod = 1;
        CHECK_OK(harness_args(k, 2, ARG(img), ARG(lod)));
        size_t global[2] = {4, 2}, origin[3] = {0, 0, 1}, region[3] = {4, 2, 1};
        CHECK_OK(clEnqueueNDRangeKernel(h->queue, k, 2, NULL, global, NULL, 0, NULL, NULL));
        float pixels[4 * 2 * 4];
        CHECK_OK(clEnqueueReadImage(h->queue, img, CL_TRUE, origin, region, 0, 0, pixels, 0, NULL,
                                    NULL));
        int bad = 0;
        for (int y = 0; y < 2; y++)
            for (int x = 0; x < 4; x++) {
                const float *v = pixels + 4 * (y * 4 + x);
                bad += v[0] != (float)x || v[1] != (float)y || v[2] != 1.0f || v[3] != 1.0f;
            }
        CHECK_NONE_WRONG(bad, "write_imagef to a level from SPIR-V");
    }
    if (img)
        clReleaseMemObject(img);
    if (k)
        clReleaseKernel(k);
    if (program)
        clReleaseProgram(program);
}

int main(void)
{
    struct harness h = harness_open();
    cl_int err;
    char versions[128] = "";
    CHECK_OK(clGetDeviceInfo(h.device, CL_DEVICE_IL_VERSION, sizeof versions, versions, NULL));
    CHECK(strstr(versions, "SPIR-V_1.2") != NULL && strstr(versions, "SPIR-V_1.6") != NULL);
    CHECK(harness_has_extension(&h, "cl_khr_spirv_no_integer_wrap_decoration"));
    CHECK(harness_has_extension(&h, "cl_khr_spirv_linkonce_odr"));

    size_t size;
    unsigned char *il = harness_load_file(CPUCL_TEST_DATA "/scale.spv", &size);
    cl_program program = clCreateProgramWithIL(h.context, il, size, &err);
    CHECK_OK(err);
    CHECK_OK(clBuildProgram(program, 1, &h.device, "", NULL, NULL));
    size_t il_size = 0;
    CHECK_OK(clGetProgramInfo(program, CL_PROGRAM_IL, 0, NULL, &il_size));
    CHECK(il_size == size);

    enum { N = 1000 };
    float in[N], out[N], factor = 1.5f;
    for (int i = 0; i < N; i++)
        in[i] = (float)i * 0.25f - 7.0f;
    cl_mem din = harness_buffer(&h, CL_MEM_READ_ONLY, sizeof in, in);
    cl_mem dout = harness_buffer(&h, CL_MEM_WRITE_ONLY, sizeof out, NULL);
    cl_kernel k = clCreateKernel(program, "spv_scale", &err);
    CHECK_OK(err);
    if (!err) {
        CHECK_OK(clSetKernelArg(k, 0, sizeof din, &din));
        CHECK_OK(clSetKernelArg(k, 1, sizeof dout, &dout));
        CHECK_OK(clSetKernelArg(k, 2, sizeof factor, &factor));
        size_t global = N;
        CHECK_OK(clEnqueueNDRangeKernel(h.queue, k, 1, NULL, &global, NULL, 0, NULL, NULL));
        CHECK_OK(clEnqueueReadBuffer(h.queue, dout, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
        int bad = 0;
        for (int i = 0; i < N; i++) {
            float want = in[i] * factor + sqrtf((float)i);
            bad += fabsf(out[i] - want) > 1e-5f * (1.0f + fabsf(want));
        }
        CHECK(bad == 0);
        /* API spec 5.10: a program from IL has non-uniform work-groups
         * unless built with -cl-uniform-work-group-size */
        size_t local = 96;
        CHECK_OK(clEnqueueNDRangeKernel(h.queue, k, 1, NULL, &global, &local, 0, NULL, NULL));
        CHECK_OK(clEnqueueReadBuffer(h.queue, dout, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
        for (int i = 0; i < N; i++) {
            float want = in[i] * factor + sqrtf((float)i);
            bad += fabsf(out[i] - want) > 1e-5f * (1.0f + fabsf(want));
        }
        CHECK(bad == 0);
        clReleaseKernel(k);
        CHECK_OK(clBuildProgram(program, 1, &h.device, "-cl-uniform-work-group-size", NULL, NULL));
        k = clCreateKernel(program, "spv_scale", &err);
        CHECK_OK(err);
        CHECK_OK(harness_args(k, 3, ARG(din), ARG(dout), ARG(factor)));
        CHECK_ERR(clEnqueueNDRangeKernel(h.queue, k, 1, NULL, &global, &local, 0, NULL, NULL),
                  CL_INVALID_WORK_GROUP_SIZE);
        clReleaseKernel(k);
    }

    /* A function the module asks never to inline (DontInline) builds and
     * runs: the translator marks its calls noinline, which the work-group
     * compiler must still inline (CTS spirv_new function_noinline). */
    size_t noinline_size;
    unsigned char *noinline_il = harness_load_file(CPUCL_TEST_DATA "/noinline.spv", &noinline_size);
    cl_program noinline = clCreateProgramWithIL(h.context, noinline_il, noinline_size, &err);
    CHECK_OK(err);
    CHECK_OK(clBuildProgram(noinline, 1, &h.device, "", NULL, NULL));
    cl_kernel nk = clCreateKernel(noinline, "noinline_call", &err);
    CHECK_OK(err);
    if (!err) {
        float data[N], y = 0.5f;
        for (int i = 0; i < N; i++)
            data[i] = (float)i - 100.0f;
        cl_mem dd = harness_buffer(&h, CL_MEM_READ_WRITE, sizeof data, data);
        CHECK_OK(clSetKernelArg(nk, 0, sizeof dd, &dd));
        CHECK_OK(clSetKernelArg(nk, 1, sizeof y, &y));
        size_t global = N;
        CHECK_OK(clEnqueueNDRangeKernel(h.queue, nk, 1, NULL, &global, NULL, 0, NULL, NULL));
        float result[N];
        CHECK_OK(clEnqueueReadBuffer(h.queue, dd, CL_TRUE, 0, sizeof result, result, 0, NULL,
                                     NULL));
        int bad = 0;
        for (int i = 0; i < N; i++)
            bad += result[i] != data[i] + y;
        CHECK_NONE_WRONG(bad, "a DontInline function's kernel");
        clReleaseMemObject(dd);
        clReleaseKernel(nk);
    }
    clReleaseProgram(noinline);
    free(noinline_il);

    /* Not SPIR-V at all: refused at creation. */
    const char junk[64] = "definitely not spir-v";
    cl_program none = clCreateProgramWithIL(h.context, junk, sizeof junk, &err);
    CHECK(none == NULL && err == CL_INVALID_VALUE);
    /* A SPIR-V header with a damaged body: the build fails with a log. */
    memset(il + 20, 0xff, size - 20 > 64 ? 64 : size - 20);
    cl_program damaged = clCreateProgramWithIL(h.context, il, size, &err);
    CHECK_OK(err);
    CHECK_ERR(clBuildProgram(damaged, 1, &h.device, "", NULL, NULL), CL_BUILD_PROGRAM_FAILURE);
    char log[4096] = "";
    CHECK_OK(clGetProgramBuildInfo(damaged, h.device, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL));
    CHECK(strlen(log) > 0);
    clReleaseProgram(damaged);

    clReleaseMemObject(din), clReleaseMemObject(dout);
    clReleaseProgram(program);
    free(il);
    test_spec_constants(&h);
    test_small_vectors(&h);
    test_translator_fixes(&h);
    test_spirv14_fixes(&h);
    test_spirv16_fixes(&h);
    test_linkonce_odr(&h);
    test_bit_dot(&h);
    test_float_atomics(&h);
    test_shader_clock(&h);
    test_debug_info(&h);
    test_uniform_arithmetic(&h);
    test_spirv_queries(&h);
    test_image_coords(&h);
    test_mipmap_reads(&h);
    test_mipmap_writes(&h);
    test_translator_bounds(&h);
    harness_close(&h);
    return harness_finish();
}
