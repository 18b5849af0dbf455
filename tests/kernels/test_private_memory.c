/* test_private_memory.c - private arrays of every size up to what the
 * device's stacks hold run and give the right values; larger ones are
 * CL_OUT_OF_RESOURCES at the launch (API spec 5.10), not a stack overflow
 * in a worker: a work-group function's arrays live on its worker's stack,
 * a kernel on fibers has its work-items' arrays on the fibers' stacks
 * (src/devices/cpu/pool.c, fibers.c), and arrays that regions keep across
 * barriers in one buffer a worker for the group's work-items, which must
 * be an allocation the device can make (CL_DEVICE_MAX_MEM_ALLOC_SIZE).
 * CL_KERNEL_PRIVATE_MEM_SIZE counts them. */
#include "../harness.h"

/* Each work-item fills an array of WORDS ints and reads it back in another
 * order; FIBERS puts the kernel on fibers (a sub-group barrier that only
 * the first sub-group meets). */
static const char *source =
    "kernel void walk(global int *out, int n)\n"
    "{\n"
    "    int big[WORDS];\n"
    "    int g = get_global_id(0);\n"
    "    for (int i = 0; i < n; i++) big[i] = i ^ g;\n"
    "#ifdef FIBERS\n"
    "    if (get_sub_group_id() == 0) sub_group_barrier(CLK_LOCAL_MEM_FENCE);\n"
    "#endif\n"
    "    uint s = 0;\n"
    "    for (int i = 0; i < n; i++) s += big[(i * 7 + g) % n];\n"
    "    out[g] = s;\n"
    "}\n"
    "kernel void small(global int *out) { out[get_global_id(0)] = get_global_id(0); }\n";

/* An array each work-item updates in a loop with barriers: regions keep it
 * per work-item across them. */
static const char *kept_source =
    "kernel void kept(global int *o, int m)\n"
    "{\n"
    "    int big[WORDS];\n"
    "    int l = get_local_id(0), g = get_global_id(0), n = get_local_size(0);\n"
    "    for (int i = 0; i < m; i++) big[i] = i;\n"
    "    for (int it = 0; it < 3; it++) {\n"
    "        for (int i = 0; i < m; i++) big[i] += o[g - l + (i + l) % n];\n"
    "        barrier(CLK_GLOBAL_MEM_FENCE);\n"
    "        o[g] = big[(it * 7 + l) % m];\n"
    "        barrier(CLK_GLOBAL_MEM_FENCE);\n"
    "    }\n"
    "}\n";

enum { ITEMS = 256 };

/* Builds walk with `words` ints a work-item and runs it; returns the
 * launch's error. Checks the values when it ran. */
static cl_int run_walk(struct harness *h, int words, int fibers)
{
    char options[96];
    snprintf(options, sizeof options, "-cl-std=CL2.0 -DWORDS=%d%s", words,
             fibers ? " -DFIBERS" : "");
    cl_program program = harness_build(h, source, options);
    if (!program)
        return CL_BUILD_PROGRAM_FAILURE;
    cl_kernel kernel = harness_kernel(program, "walk");
    cl_ulong private_size = 0;
    CHECK_OK(clGetKernelWorkGroupInfo(kernel, h->device, CL_KERNEL_PRIVATE_MEM_SIZE,
                                      sizeof private_size, &private_size, NULL));
    CHECK(private_size >= (cl_ulong)words * sizeof(int));
    cl_int err;
    cl_mem out = clCreateBuffer(h->context, CL_MEM_READ_WRITE, ITEMS * sizeof(int), NULL, &err);
    CHECK_OK(err);
    int n = words;
    CHECK_OK(harness_args(kernel, 2, ARG(out), ARG(n)));
    size_t global = ITEMS, local = 64;
    cl_int launched =
        clEnqueueNDRangeKernel(h->queue, kernel, 1, NULL, &global, &local, 0, NULL, NULL);
    if (launched == CL_SUCCESS) {
        static int got[ITEMS];
        CHECK_OK(clEnqueueReadBuffer(h->queue, out, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL));
        int bad = 0;
        for (int g = 0; g < ITEMS; g++) {
            unsigned want = 0; /* sums wrap, in the kernel too */
            for (int i = 0; i < n; i++)
                want += (unsigned)(((i * 7 + g) % n) ^ g);
            bad += (unsigned)got[g] != want;
        }
        CHECK_NONE_WRONG(bad, "private array sums");
    }
    /* The queue goes on: a small kernel runs after a refused launch. */
    cl_kernel small = harness_kernel(program, "small");
    CHECK_OK(clSetKernelArg(small, 0, sizeof out, &out));
    CHECK_OK(clEnqueueNDRangeKernel(h->queue, small, 1, NULL, &global, NULL, 0, NULL, NULL));
    int ids[ITEMS];
    CHECK_OK(clEnqueueReadBuffer(h->queue, out, CL_TRUE, 0, sizeof ids, ids, 0, NULL, NULL));
    int bad = 0;
    for (int g = 0; g < ITEMS; g++)
        bad += ids[g] != g;
    CHECK_NONE_WRONG(bad, "a kernel after the private-array one");
    clReleaseMemObject(out);
    clReleaseKernel(small);
    clReleaseKernel(kernel);
    clReleaseProgram(program);
    return launched;
}

/* Runs kept with `words` ints a work-item in groups of `local`; returns the
 * launch's error. Checks the values, group by group, when it ran. */
static cl_int run_kept(struct harness *h, long words, size_t local)
{
    char options[64];
    snprintf(options, sizeof options, "-DWORDS=%ld", words);
    cl_program program = harness_build(h, kept_source, options);
    if (!program)
        return CL_BUILD_PROGRAM_FAILURE;
    cl_kernel kernel = harness_kernel(program, "kept");
    static int data[ITEMS], want[ITEMS];
    for (int g = 0; g < ITEMS; g++)
        data[g] = want[g] = g % 13;
    cl_mem o = harness_buffer(h, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof data, data);
    int m = (int)words;
    CHECK_OK(harness_args(kernel, 2, ARG(o), ARG(m)));
    size_t global = ITEMS;
    cl_int launched =
        clEnqueueNDRangeKernel(h->queue, kernel, 1, NULL, &global, &local, 0, NULL, NULL);
    if (launched == CL_SUCCESS) {
        CHECK_OK(clEnqueueReadBuffer(h->queue, o, CL_TRUE, 0, sizeof data, data, 0, NULL, NULL));
        int *big = malloc(sizeof(int) * (size_t)words * local);
        for (size_t g0 = 0; big && g0 < ITEMS; g0 += local) {
            for (size_t l = 0; l < local; l++)
                for (long i = 0; i < words; i++)
                    big[l * words + i] = (int)i;
            for (int it = 0; it < 3; it++) {
                for (size_t l = 0; l < local; l++)
                    for (long i = 0; i < words; i++)
                        big[l * words + i] += want[g0 + (i + l) % local];
                for (size_t l = 0; l < local; l++)
                    want[g0 + l] = big[l * words + (it * 7 + l) % words];
            }
        }
        int bad = 0;
        for (int g = 0; g < ITEMS; g++)
            bad += data[g] != want[g];
        CHECK_NONE_WRONG(bad, "arrays kept across barriers");
        free(big);
    }
    clReleaseMemObject(o);
    clReleaseKernel(kernel);
    clReleaseProgram(program);
    return launched;
}

int main(void)
{
    struct harness h = harness_open();
    /* On a worker's stack (16 MiB): 4 KiB, 1 MiB and 8 MiB run; 64 MiB is
     * refused. */
    CHECK_ERR(run_walk(&h, 1 << 10, 0), CL_SUCCESS);
    CHECK_ERR(run_walk(&h, 1 << 18, 0), CL_SUCCESS);
    CHECK_ERR(run_walk(&h, 1 << 21, 0), CL_SUCCESS);
    CHECK_ERR(run_walk(&h, 1 << 24, 0), CL_OUT_OF_RESOURCES);
    /* On fibers (256 KiB each): 64 KiB runs, 1 MiB is refused. */
    if (harness_has_extension(&h, "cl_khr_subgroups")) {
        CHECK_ERR(run_walk(&h, 1 << 14, 1), CL_SUCCESS);
        CHECK_ERR(run_walk(&h, 1 << 18, 1), CL_OUT_OF_RESOURCES);
    }
    /* Kept across barriers: 400 bytes a work-item run; a group's arrays
     * larger than CL_DEVICE_MAX_MEM_ALLOC_SIZE are refused. */
    CHECK_ERR(run_kept(&h, 100, 64), CL_SUCCESS);
    cl_ulong max_alloc = 0;
    CHECK_OK(clGetDeviceInfo(h.device, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof max_alloc, &max_alloc,
                             NULL));
    CHECK_ERR(run_kept(&h, (long)(max_alloc / 64 / sizeof(int) * 2), 64), CL_OUT_OF_RESOURCES);
    harness_close(&h);
    return harness_finish();
}
