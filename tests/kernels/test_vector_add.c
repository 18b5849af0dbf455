/* test_vector_add.c - c = a + b over many sizes (1 to a million, primes
 * among them), for float, int and float4 elements; the range is split into
 * a uniform part with a given local size and a remainder placed with a
 * global offset, or given whole with the local size left to the runtime. */
#include "../harness.h"

static const char *source =
    "kernel void add_float(global const float *a, global const float *b, global float *c)\n"
    "{ size_t i = get_global_id(0); c[i] = a[i] + b[i]; }\n"
    "kernel void add_int(global const int *a, global const int *b, global int *c)\n"
    "{ size_t i = get_global_id(0); c[i] = a[i] + b[i]; }\n"
    "kernel void add_float4(global const float4 *a, global const float4 *b, global float4 *c)\n"
    "{ size_t i = get_global_id(0); c[i] = a[i] + b[i]; }\n";

enum kind { FLOAT, INT, FLOAT4 };
static const char *kernel_names[] = {"add_float", "add_int", "add_float4"};

/* Launches the kernel over n elements: with `local` 0 as one range with
 * no local size; otherwise the largest multiple of `local` with that local
 * size, then the rest through a global offset. */
static void launch(struct harness *h, cl_kernel k, size_t n, size_t local)
{
    if (!local) {
        CHECK_OK(clEnqueueNDRangeKernel(h->queue, k, 1, NULL, &n, NULL, 0, NULL, NULL));
        return;
    }
    size_t body = n / local * local, rest = n - body;
    if (body)
        CHECK_OK(clEnqueueNDRangeKernel(h->queue, k, 1, NULL, &body, &local, 0, NULL, NULL));
    if (rest)
        CHECK_OK(clEnqueueNDRangeKernel(h->queue, k, 1, &body, &rest, NULL, 0, NULL, NULL));
}

static void run(struct harness *h, cl_program program, enum kind kind, size_t n, size_t local,
                cl_mem_flags host_flags)
{
    size_t lanes = kind == FLOAT4 ? 4 : 1, bytes = n * lanes * 4;
    float *fa = malloc(bytes), *fb = malloc(bytes), *fc = malloc(bytes);
    int *ia = (int *)fa, *ib = (int *)fb, *ic = (int *)fc;
    for (size_t i = 0; i < n * lanes; i++) {
        if (kind == INT) {
            ia[i] = (int)(i * 2654435761u);
            ib[i] = (int)(i ^ 0x55555555u);
        } else {
            fa[i] = (float)i * 0.5f;
            fb[i] = (float)(n * lanes - i) - 0.25f;
        }
    }
    memset(fc, 0xff, bytes);
    cl_int err;
    cl_mem da, db, dc;
    if (host_flags == CL_MEM_USE_HOST_PTR) {
        da = clCreateBuffer(h->context, CL_MEM_USE_HOST_PTR | CL_MEM_READ_ONLY, bytes, fa, &err);
        db = clCreateBuffer(h->context, CL_MEM_USE_HOST_PTR | CL_MEM_READ_ONLY, bytes, fb, &err);
        dc = clCreateBuffer(h->context, CL_MEM_USE_HOST_PTR | CL_MEM_WRITE_ONLY, bytes, fc, &err);
        REQUIRE(err == CL_SUCCESS && da && db);
    } else {
        da = harness_buffer(h, CL_MEM_READ_ONLY | host_flags, bytes, fa);
        db = harness_buffer(h, CL_MEM_READ_ONLY | host_flags, bytes, fb);
        dc = harness_buffer(h, CL_MEM_WRITE_ONLY | host_flags, bytes, NULL);
    }
    cl_kernel k = harness_kernel(program, kernel_names[kind]);
    CHECK_OK(harness_args(k, 3, ARG(da), ARG(db), ARG(dc)));
    launch(h, k, n, local);
    if (host_flags == CL_MEM_USE_HOST_PTR) {
        /* The results are in fc once a map says so (5.2.1). */
        void *p =
            clEnqueueMapBuffer(h->queue, dc, CL_TRUE, CL_MAP_READ, 0, bytes, 0, NULL, NULL, &err);
        CHECK_OK(err);
        CHECK(p == fc);
        CHECK_OK(clEnqueueUnmapMemObject(h->queue, dc, p, 0, NULL, NULL));
        CHECK_OK(clFinish(h->queue));
    } else {
        CHECK_OK(clEnqueueReadBuffer(h->queue, dc, CL_TRUE, 0, bytes, fc, 0, NULL, NULL));
    }
    long bad = 0;
    for (size_t i = 0; i < n * lanes; i++)
        bad += kind == INT ? ic[i] != (int)((unsigned)ia[i] + (unsigned)ib[i])
                           : fc[i] != fa[i] + fb[i];
    if (bad)
        fprintf(stderr, "%s n=%zu local=%zu flags=%#llx: ", kernel_names[kind], n, local,
                (unsigned long long)host_flags);
    CHECK_NONE_WRONG(bad, kernel_names[kind]);
    clReleaseKernel(k);
    clReleaseMemObject(da), clReleaseMemObject(db), clReleaseMemObject(dc);
    free(fa), free(fb), free(fc);
}

int main(void)
{
    struct harness h = harness_open();
    cl_program program = harness_build(&h, source, "");
    REQUIRE(program);
    const size_t sizes[] = {1, 2, 7, 16, 63, 64, 65, 1000, 4099, 100003, 1 << 20};
    const size_t locals[] = {0, 1, 16, 64, 256};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
        for (size_t l = 0; l < sizeof locals / sizeof locals[0]; l++) {
            if (locals[l] == 1 && sizes[s] > 4099)
                continue; /* a million groups of one: slow, and nothing new */
            run(&h, program, FLOAT, sizes[s], locals[l], 0);
        }
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        run(&h, program, INT, sizes[s], 0, 0);
        run(&h, program, FLOAT4, sizes[s], 32, 0);
    }
    run(&h, program, FLOAT, 100003, 0, CL_MEM_USE_HOST_PTR);
    run(&h, program, INT, 4099, 64, CL_MEM_ALLOC_HOST_PTR);
    clReleaseProgram(program);
    harness_close(&h);
    return harness_finish();
}
