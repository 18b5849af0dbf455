/* test_args.c - kernel arguments (API spec 5.9.2, OpenCL C 6.9): scalars
 * of every size (char, short, int, long, float, double, unsigned ones),
 * vectors by value (float4, int3, long2, char16, double2, char3, short3,
 * uchar2, float8, ulong16), structs by value (with a vector member, a
 * packed one, and a large one), __local pointers of sizes given
 * at clSetKernelArg (used without barriers), a __constant buffer and a
 * program-scope __constant table, a NULL buffer; argument values captured
 * at enqueue time; kernel and argument queries; clCreateKernelsInProgram
 * and clCloneKernel. */
#include "../harness.h"

static const char *source =
    "typedef struct { int a; float b; char c; long d; } S;\n"
    "typedef struct { char tag; float4 v; int n[3]; } V;\n"
    "typedef struct { int values[128]; } Big;\n"
    "constant int primes[8] = {2, 3, 5, 7, 11, 13, 17, 19};\n"
    "kernel void scalars(global long *out, char c, short s, int i, long l, float f, double d,\n"
    "                    uchar uc, ushort us, uint ui, ulong ul)\n"
    "{\n"
    "    out[0] = c; out[1] = s; out[2] = i; out[3] = l; out[4] = (long)(f * 4.0f);\n"
    "    out[5] = (long)(d * 8.0); out[6] = uc; out[7] = us; out[8] = ui; out[9] = (long)ul;\n"
    "    out[10] = d == 1.125 + 0x1p-40; /* a double, not a float */\n"
    "}\n"
    "kernel void vectors(global long *out, float4 v, int3 w, long2 l2, char16 c16, double2 d2)\n"
    "{\n"
    "    out[0] = (long)(v.x + v.y * 10 + v.z * 100 + v.w * 1000);\n"
    "    out[1] = w.x + w.y * 10 + w.z * 100; out[2] = l2.x; out[3] = l2.y;\n"
    "    long sum = 0; for (int i = 0; i < 16; i++) sum = sum * 3 + c16[i];\n"
    "    out[4] = sum; out[5] = (long)(d2.x * d2.y);\n"
    "}\n"
    "typedef struct __attribute__((packed)) { char c; int i; short s; } P;\n"
    "kernel void odd_shapes(global long *out, P p, char3 c3, short3 s3, uchar2 u2, float8 f8,\n"
    "                       ulong16 big)\n"
    "{\n"
    "    out[0] = p.c; out[1] = p.i; out[2] = p.s; out[3] = c3.x + c3.y * 10 + c3.z * 100;\n"
    "    out[4] = s3.x + s3.y * 10 + s3.z * 100; out[5] = u2.x + u2.y * 1000;\n"
    "    out[6] = (long)(f8.s0 + f8.s7 * 10); out[7] = big.sf + big.s0;\n"
    "}\n"
    "kernel void structs(global long *out, S st, V vt, Big big)\n"
    "{\n"
    "    out[0] = st.a; out[1] = (long)(st.b * 2.0f); out[2] = st.c; out[3] = st.d;\n"
    "    out[4] = vt.tag; out[5] = (long)(vt.v.x + vt.v.y + vt.v.z + vt.v.w);\n"
    "    out[6] = vt.n[0] * 100 + vt.n[1] * 10 + vt.n[2];\n"
    "    long sum = 0; for (int i = 0; i < 128; i++) sum += (long)big.values[i] * i;\n"
    "    out[7] = sum;\n"
    "}\n"
    /* Two __local arguments and a kernel-scope __local array, each
     * work-item using only its own slots: no barrier needed. */
    "kernel void locals(global const int *in, global int *out, local int *scratch,\n"
    "                   local short *other, constant int *table)\n"
    "{\n"
    "    local int fixed[16];\n"
    "    size_t l = get_local_id(0), g = get_global_id(0);\n"
    "    scratch[l] = in[g] * 2;\n"
    "    other[l] = (short)(l + 1);\n"
    "    fixed[l % 16] = (int)l;\n"
    "    out[g] = scratch[l] + table[g % 4] + fixed[l % 16] - (int)l + other[l] - (int)l - 1\n"
    "             + primes[g % 8];\n"
    "}\n"
    "kernel void maybe_null(global int *p, global int *flag)\n"
    "{ flag[0] = p == 0 ? 1 : 2; if (p) p[0] = 77; }\n"
    "kernel void store(global int *out, int slot, int value) { out[slot] = value; }\n"
    "__attribute__((reqd_work_group_size(4, 2, 1)))\n"
    "kernel void fixed_size(global int *out, const int n, global volatile int *restrict v)\n"
    "{ out[get_global_id(0)] = n; }\n";

typedef struct {
    cl_int a;
    cl_float b;
    cl_char c;
    cl_long d;
} S;

typedef struct {
    cl_char tag;
    cl_float4 v;
    cl_int n[3];
} V;

typedef struct {
    cl_int values[128];
} Big;

static void run_and_read(struct harness *h, cl_kernel k, cl_mem out, cl_long *got, size_t count)
{
    CHECK_OK(clEnqueueTask(h->queue, k, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(h->queue, out, CL_TRUE, 0, count * 8, got, 0, NULL, NULL));
}

static void compare_longs(const char *what, const cl_long *got, const cl_long *want, size_t count)
{
    for (size_t j = 0; j < count; j++) {
        if (got[j] != want[j])
            fprintf(stderr, "%s value %zu: got %lld want %lld\n", what, j, (long long)got[j],
                    (long long)want[j]);
        CHECK(got[j] == want[j]);
    }
}

static void test_scalars(struct harness *h, cl_program program, cl_mem out)
{
    cl_kernel k = harness_kernel(program, "scalars");
    cl_char c = -5;
    cl_short s = -300;
    cl_int i = 123456;
    cl_long l = -(1LL << 40);
    cl_float f = 2.25f;
    cl_double d = 1.125 + 0x1p-40;
    cl_uchar uc = 250;
    cl_ushort us = 65000;
    cl_uint ui = 4000000000u;
    cl_ulong ul = 0x7fffffffffffff01ull;
    CHECK_OK(harness_args(k, 11, ARG(out), ARG(c), ARG(s), ARG(i), ARG(l), ARG(f), ARG(d), ARG(uc),
                          ARG(us), ARG(ui), ARG(ul)));
    /* 5.9.2: a value of the wrong size, no value, an index past the end. */
    CHECK_ERR(clSetKernelArg(k, 3, sizeof l, &l), CL_INVALID_ARG_SIZE);
    CHECK_ERR(clSetKernelArg(k, 1, sizeof s, &s), CL_INVALID_ARG_SIZE);
    CHECK_ERR(clSetKernelArg(k, 3, sizeof i, NULL), CL_INVALID_ARG_VALUE);
    CHECK_ERR(clSetKernelArg(k, 11, sizeof i, &i), CL_INVALID_ARG_INDEX);
    CHECK_ERR(clSetKernelArg(k, 0, sizeof i, &i), CL_INVALID_ARG_SIZE);
    cl_long got[11];
    run_and_read(h, k, out, got, 11);
    cl_long want[11] = {-5,  -300,  123456,       -(1LL << 40),         9, 9,
                        250, 65000, 4000000000ll, 0x7fffffffffffff01ll, 1};
    compare_longs("scalars", got, want, 11);
    clReleaseKernel(k);
}

static void test_vectors(struct harness *h, cl_program program, cl_mem out)
{
    cl_kernel k = harness_kernel(program, "vectors");
    cl_float4 v = {{1, 2, 3, 4}};
    cl_int3 w = {{7, 8, 9}};
    cl_long2 l2 = {{-(1LL << 50), 1LL << 45}};
    cl_char16 c16;
    long want_sum = 0;
    for (int j = 0; j < 16; j++) {
        c16.s[j] = (cl_char)(j * 9 - 70);
        want_sum = want_sum * 3 + c16.s[j];
    }
    cl_double2 d2 = {{1.5, -4.0}};
    /* 6.1.5: a 3-component vector takes the size of a 4-component one. */
    CHECK_ERR(clSetKernelArg(k, 2, 12, &w), CL_INVALID_ARG_SIZE);
    CHECK_OK(harness_args(k, 6, ARG(out), ARG(v), ARG(w), ARG(l2), ARG(c16), ARG(d2)));
    cl_long got[6];
    run_and_read(h, k, out, got, 6);
    cl_long want[6] = {4321, 987, -(1LL << 50), 1LL << 45, want_sum, -6};
    compare_longs("vectors", got, want, 6);
    clReleaseKernel(k);
}

static void test_structs(struct harness *h, cl_program program, cl_mem out)
{
    cl_kernel k = harness_kernel(program, "structs");
    S st = {42, 3.5f, 'x', 1LL << 50};
    V vt;
    memset(&vt, 0, sizeof vt);
    vt.tag = -3;
    vt.v = (cl_float4){{0.5f, 1.5f, 2.5f, 3.5f}};
    vt.n[0] = 4, vt.n[1] = 5, vt.n[2] = 6;
    Big big;
    long want_big = 0;
    for (int j = 0; j < 128; j++) {
        big.values[j] = j * 1000 - 7;
        want_big += (long)big.values[j] * j;
    }
    CHECK_OK(harness_args(k, 4, ARG(out), ARG(st), ARG(vt), ARG(big)));
    cl_long got[8];
    run_and_read(h, k, out, got, 8);
    cl_long want[8] = {42, 7, 'x', 1LL << 50, -3, 8, 456, want_big};
    compare_longs("structs", got, want, 8);
    clReleaseKernel(k);
}

typedef struct __attribute__((packed)) {
    cl_char c;
    cl_int i;
    cl_short s;
} P;

/* A packed struct, 3-component vectors of small types, wide vectors. */
static void test_odd_shapes(struct harness *h, cl_program program, cl_mem out)
{
    cl_kernel k = harness_kernel(program, "odd_shapes");
    P packed = {-3, 123456789, -1234};
    cl_char3 c3 = {{1, 2, 3}};
    cl_short3 s3 = {{-1, -2, -3}};
    cl_uchar2 u2 = {{200, 7}};
    cl_float8 f8 = {{1, 0, 0, 0, 0, 0, 0, 5}};
    cl_ulong16 big;
    for (int j = 0; j < 16; j++)
        big.s[j] = j * 1000000000000ull;
    CHECK_OK(
        harness_args(k, 7, ARG(out), ARG(packed), ARG(c3), ARG(s3), ARG(u2), ARG(f8), ARG(big)));
    cl_long got[8];
    run_and_read(h, k, out, got, 8);
    cl_long want[8] = {-3, 123456789, -1234, 321, -321, 7200, 51, 15000000000000ll};
    compare_longs("odd shapes", got, want, 8);
    clReleaseKernel(k);
}

static void test_locals(struct harness *h, cl_program program)
{
    enum { N = 4096 };
    static const int primes[8] = {2, 3, 5, 7, 11, 13, 17, 19};
    cl_int in[N], out[N], table[4] = {1000, 2000, 3000, 4000};
    for (int j = 0; j < N; j++)
        in[j] = j * 3 - 100;
    cl_mem din = harness_buffer(h, CL_MEM_READ_ONLY, sizeof in, in);
    cl_mem dout = harness_buffer(h, CL_MEM_WRITE_ONLY, sizeof out, NULL);
    cl_mem dtable = harness_buffer(h, CL_MEM_READ_ONLY, sizeof table, table);
    cl_kernel k = harness_kernel(program, "locals");
    CHECK_OK(clSetKernelArg(k, 0, sizeof din, &din));
    CHECK_OK(clSetKernelArg(k, 1, sizeof dout, &dout));
    /* 5.9.2: a __local argument takes a size and no value. */
    CHECK_ERR(clSetKernelArg(k, 2, 64, &din), CL_INVALID_ARG_VALUE);
    CHECK_ERR(clSetKernelArg(k, 2, 0, NULL), CL_INVALID_ARG_SIZE);
    CHECK_OK(clSetKernelArg(k, 4, sizeof dtable, &dtable));
    size_t locals[] = {1, 7, 64, 256};
    for (size_t t = 0; t < sizeof locals / sizeof locals[0]; t++) {
        size_t local = locals[t], global = N / local * local;
        CHECK_OK(clSetKernelArg(k, 2, local * sizeof(cl_int), NULL));
        CHECK_OK(clSetKernelArg(k, 3, local * sizeof(cl_short), NULL));
        cl_ulong local_mem = 0;
        CHECK_OK(clGetKernelWorkGroupInfo(k, h->device, CL_KERNEL_LOCAL_MEM_SIZE, sizeof local_mem,
                                          &local_mem, NULL));
        CHECK(local_mem >= local * 6 + 16 * sizeof(cl_int));
        memset(out, 0, sizeof out);
        CHECK_OK(clEnqueueWriteBuffer(h->queue, dout, CL_FALSE, 0, sizeof out, out, 0, NULL, NULL));
        CHECK_OK(clEnqueueNDRangeKernel(h->queue, k, 1, NULL, &global, &local, 0, NULL, NULL));
        CHECK_OK(clEnqueueReadBuffer(h->queue, dout, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
        long bad = 0;
        for (size_t j = 0; j < N; j++)
            bad += out[j] != (j < global ? in[j] * 2 + table[j % 4] + primes[j % 8] : 0);
        CHECK_NONE_WRONG(bad, "locals");
    }
    /* More __local memory than the device has is refused at enqueue. */
    cl_ulong device_local = 0;
    clGetDeviceInfo(h->device, CL_DEVICE_LOCAL_MEM_SIZE, sizeof device_local, &device_local, NULL);
    CHECK_OK(clSetKernelArg(k, 2, (size_t)device_local + 4096, NULL));
    size_t global = 64, local = 64;
    CHECK_ERR(clEnqueueNDRangeKernel(h->queue, k, 1, NULL, &global, &local, 0, NULL, NULL),
              CL_OUT_OF_RESOURCES);
    clReleaseKernel(k);
    clReleaseMemObject(din), clReleaseMemObject(dout), clReleaseMemObject(dtable);
}

static void test_null_buffer(struct harness *h, cl_program program)
{
    cl_kernel k = harness_kernel(program, "maybe_null");
    cl_mem flag = harness_buffer(h, CL_MEM_READ_WRITE, 4, NULL);
    cl_mem target = harness_buffer(h, CL_MEM_READ_WRITE, 4, NULL);
    cl_mem none = NULL;
    cl_int got = 0;
    CHECK_OK(clSetKernelArg(k, 1, sizeof flag, &flag));
    /* 5.9.2: a NULL arg_value, or one pointing to NULL, passes NULL. */
    CHECK_OK(clSetKernelArg(k, 0, sizeof(cl_mem), NULL));
    CHECK_OK(clEnqueueTask(h->queue, k, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(h->queue, flag, CL_TRUE, 0, 4, &got, 0, NULL, NULL));
    CHECK_EQ(got, 1);
    CHECK_OK(clSetKernelArg(k, 0, sizeof none, &none));
    got = 0;
    CHECK_OK(clEnqueueTask(h->queue, k, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(h->queue, flag, CL_TRUE, 0, 4, &got, 0, NULL, NULL));
    CHECK_EQ(got, 1);
    CHECK_OK(clSetKernelArg(k, 0, sizeof target, &target));
    CHECK_OK(clEnqueueTask(h->queue, k, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(h->queue, flag, CL_TRUE, 0, 4, &got, 0, NULL, NULL));
    CHECK_EQ(got, 2);
    CHECK_OK(clEnqueueReadBuffer(h->queue, target, CL_TRUE, 0, 4, &got, 0, NULL, NULL));
    CHECK_EQ(got, 77);
    /* A handle that is not a buffer. */
    CHECK_ERR(clSetKernelArg(k, 0, sizeof(cl_mem), &h->queue), CL_INVALID_MEM_OBJECT);
    clReleaseKernel(k);
    clReleaseMemObject(flag), clReleaseMemObject(target);
}

/* 5.10: the argument values a command uses are those set when it was
 * enqueued, even if it runs after they change. */
static void test_capture(struct harness *h, cl_program program)
{
    cl_int err;
    cl_event gate = clCreateUserEvent(h->context, &err);
    CHECK_OK(err);
    cl_int zeros[8] = {0};
    cl_mem out = harness_buffer(h, CL_MEM_READ_WRITE, sizeof zeros, zeros);
    cl_kernel k = harness_kernel(program, "store");
    CHECK_OK(clSetKernelArg(k, 0, sizeof out, &out));
    for (cl_int slot = 0; slot < 8; slot++) {
        cl_int value = 100 + slot * 11;
        CHECK_OK(clSetKernelArg(k, 1, sizeof slot, &slot));
        CHECK_OK(clSetKernelArg(k, 2, sizeof value, &value));
        CHECK_OK(clEnqueueNDRangeKernel(h->queue, k, 1, NULL, (size_t[]){1}, NULL, slot ? 0 : 1,
                                        slot ? NULL : &gate, NULL));
    }
    /* A kernel released while its commands wait still runs them. */
    clReleaseKernel(k);
    CHECK_OK(clSetUserEventStatus(gate, CL_COMPLETE));
    cl_int got[8];
    CHECK_OK(clEnqueueReadBuffer(h->queue, out, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL));
    long bad = 0;
    for (int slot = 0; slot < 8; slot++)
        bad += got[slot] != 100 + slot * 11;
    CHECK_NONE_WRONG(bad, "arguments captured at enqueue");
    clReleaseEvent(gate);
    clReleaseMemObject(out);
}

static void test_queries(struct harness *h)
{
    cl_program program = harness_build(h, source, "-cl-kernel-arg-info");
    REQUIRE(program);
    cl_kernel k = harness_kernel(program, "fixed_size");
    char text[256];
    cl_uint num_args = 0;
    CHECK_OK(clGetKernelInfo(k, CL_KERNEL_NUM_ARGS, sizeof num_args, &num_args, NULL));
    CHECK_EQ(num_args, 3);
    CHECK_OK(clGetKernelInfo(k, CL_KERNEL_FUNCTION_NAME, sizeof text, text, NULL));
    CHECK(!strcmp(text, "fixed_size"));
    CHECK_OK(clGetKernelInfo(k, CL_KERNEL_ATTRIBUTES, sizeof text, text, NULL));
    CHECK(strstr(text, "reqd_work_group_size(4,2,1)") != NULL);
    cl_program owner = NULL;
    cl_context context = NULL;
    CHECK_OK(clGetKernelInfo(k, CL_KERNEL_PROGRAM, sizeof owner, &owner, NULL));
    CHECK_OK(clGetKernelInfo(k, CL_KERNEL_CONTEXT, sizeof context, &context, NULL));
    CHECK(owner == program && context == h->context);
    size_t compile_size[3] = {0, 0, 0};
    CHECK_OK(clGetKernelWorkGroupInfo(k, h->device, CL_KERNEL_COMPILE_WORK_GROUP_SIZE,
                                      sizeof compile_size, compile_size, NULL));
    CHECK(compile_size[0] == 4 && compile_size[1] == 2 && compile_size[2] == 1);
    size_t multiple = 0, group = 0;
    CHECK_OK(clGetKernelWorkGroupInfo(k, h->device, CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE,
                                      sizeof multiple, &multiple, NULL));
    CHECK_OK(clGetKernelWorkGroupInfo(k, h->device, CL_KERNEL_WORK_GROUP_SIZE, sizeof group, &group,
                                      NULL));
    CHECK(multiple >= 1 && group >= 1);
    cl_ulong private_size = 0;
    CHECK_OK(clGetKernelWorkGroupInfo(k, h->device, CL_KERNEL_PRIVATE_MEM_SIZE, sizeof private_size,
                                      &private_size, NULL));

    struct {
        cl_kernel_arg_address_qualifier address;
        cl_kernel_arg_type_qualifier type_qualifier;
        const char *type, *name;
    } want[3] = {
        {CL_KERNEL_ARG_ADDRESS_GLOBAL, CL_KERNEL_ARG_TYPE_NONE, "int*", "out"},
        {CL_KERNEL_ARG_ADDRESS_PRIVATE, CL_KERNEL_ARG_TYPE_NONE, "int", "n"},
        {CL_KERNEL_ARG_ADDRESS_GLOBAL, CL_KERNEL_ARG_TYPE_VOLATILE | CL_KERNEL_ARG_TYPE_RESTRICT,
         "int*", "v"},
    };
    for (cl_uint a = 0; a < 3; a++) {
        cl_kernel_arg_address_qualifier address = 0;
        cl_kernel_arg_access_qualifier access = 0;
        cl_kernel_arg_type_qualifier type_qualifier = 0;
        CHECK_OK(clGetKernelArgInfo(k, a, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof address, &address,
                                    NULL));
        CHECK_EQ(address, want[a].address);
        CHECK_OK(
            clGetKernelArgInfo(k, a, CL_KERNEL_ARG_ACCESS_QUALIFIER, sizeof access, &access, NULL));
        CHECK_EQ(access, CL_KERNEL_ARG_ACCESS_NONE);
        CHECK_OK(clGetKernelArgInfo(k, a, CL_KERNEL_ARG_TYPE_QUALIFIER, sizeof type_qualifier,
                                    &type_qualifier, NULL));
        /* 5.9.4: a const scalar passed by value may or may not say const. */
        CHECK_EQ(type_qualifier & ~(cl_kernel_arg_type_qualifier)CL_KERNEL_ARG_TYPE_CONST,
                 want[a].type_qualifier);
        CHECK_OK(clGetKernelArgInfo(k, a, CL_KERNEL_ARG_TYPE_NAME, sizeof text, text, NULL));
        if (strcmp(text, want[a].type))
            fprintf(stderr, "arg %u type name \"%s\", expected \"%s\"\n", a, text, want[a].type);
        CHECK(!strcmp(text, want[a].type));
        CHECK_OK(clGetKernelArgInfo(k, a, CL_KERNEL_ARG_NAME, sizeof text, text, NULL));
        CHECK(!strcmp(text, want[a].name));
    }
    CHECK_ERR(clGetKernelArgInfo(k, 3, CL_KERNEL_ARG_NAME, sizeof text, text, NULL),
              CL_INVALID_ARG_INDEX);

    /* reqd_work_group_size: another local size is refused; NULL takes it. */
    cl_mem out = harness_buffer(h, CL_MEM_READ_WRITE, 64 * 4, NULL);
    cl_int n = 9;
    CHECK_OK(harness_args(k, 3, ARG(out), ARG(n), ARG(out)));
    size_t global[2] = {16, 2}, wrong[2] = {8, 2};
    CHECK_ERR(clEnqueueNDRangeKernel(h->queue, k, 2, NULL, global, wrong, 0, NULL, NULL),
              CL_INVALID_WORK_GROUP_SIZE);
    /* A 1D range has local sizes (4, 1, 1): not the (4, 2, 1) required. */
    size_t global1 = 16, local1 = 4;
    CHECK_ERR(clEnqueueNDRangeKernel(h->queue, k, 1, NULL, &global1, &local1, 0, NULL, NULL),
              CL_INVALID_WORK_GROUP_SIZE);
    CHECK_OK(clEnqueueNDRangeKernel(h->queue, k, 2, NULL, global, NULL, 0, NULL, NULL));
    cl_int got[16];
    CHECK_OK(clEnqueueReadBuffer(h->queue, out, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL));
    long bad = 0;
    for (int j = 0; j < 16; j++)
        bad += got[j] != 9;
    CHECK_NONE_WRONG(bad, "reqd_work_group_size launch");

    /* clCloneKernel copies the arguments; the two then go separate ways. */
    cl_int err;
    cl_kernel clone = clCloneKernel(k, &err);
    CHECK_OK(err);
    cl_int other = -4;
    CHECK_OK(clSetKernelArg(clone, 1, sizeof other, &other));
    size_t one_group[2] = {4, 2};
    CHECK_OK(clEnqueueNDRangeKernel(h->queue, clone, 2, NULL, one_group, NULL, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(h->queue, out, CL_TRUE, 0, 4 * 4, got, 0, NULL, NULL));
    CHECK(got[0] == -4 && got[3] == -4);
    CHECK_OK(clEnqueueNDRangeKernel(h->queue, k, 2, NULL, one_group, NULL, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(h->queue, out, CL_TRUE, 0, 4 * 4, got, 0, NULL, NULL));
    CHECK(got[0] == 9 && got[3] == 9);
    clReleaseKernel(clone);
    clReleaseMemObject(out);

    /* clCreateKernelsInProgram: one kernel object per kernel. */
    cl_uint count = 0;
    CHECK_OK(clCreateKernelsInProgram(program, 0, NULL, &count));
    CHECK_EQ(count, 8);
    cl_kernel all[16];
    CHECK_ERR(clCreateKernelsInProgram(program, 2, all, NULL), CL_INVALID_VALUE);
    CHECK_OK(clCreateKernelsInProgram(program, 16, all, &count));
    int found = 0;
    for (cl_uint j = 0; j < count && j < 16; j++) {
        CHECK_OK(clGetKernelInfo(all[j], CL_KERNEL_FUNCTION_NAME, sizeof text, text, NULL));
        found += !strcmp(text, "locals") || !strcmp(text, "fixed_size");
        clReleaseKernel(all[j]);
    }
    CHECK_EQ(found, 2);
    size_t names_size = 0;
    CHECK_OK(clGetProgramInfo(program, CL_PROGRAM_KERNEL_NAMES, 0, NULL, &names_size));
    char *names = calloc(names_size + 1, 1);
    CHECK_OK(clGetProgramInfo(program, CL_PROGRAM_KERNEL_NAMES, names_size, names, NULL));
    CHECK(strstr(names, "scalars") && strstr(names, "maybe_null") && strchr(names, ';'));
    free(names);
    clReleaseKernel(k);
    clReleaseProgram(program);
}

int main(void)
{
    struct harness h = harness_open();
    cl_program program = harness_build(&h, source, "");
    REQUIRE(program);
    cl_mem out = harness_buffer(&h, CL_MEM_READ_WRITE, 16 * 8, NULL);
    test_scalars(&h, program, out);
    test_vectors(&h, program, out);
    test_structs(&h, program, out);
    test_odd_shapes(&h, program, out);
    test_locals(&h, program);
    test_null_buffer(&h, program);
    test_capture(&h, program);
    test_queries(&h);
    clReleaseMemObject(out);
    clReleaseProgram(program);
    harness_close(&h);
    return harness_finish();
}
