/* test_divergent.c - kernels with a loop that each work-item leaves after
 * its own count, which the compiler runs a vector's width of work-items at
 * a time (src/compiler/divergent.cpp): a rotated `while` whose guard lets
 * some work-items pass the loop by (Collatz steps, with the start 1), a
 * Mandelbrot in 2D keeping where z ended, a loop with two exits (a
 * `break`) using the work-item's id inside it, a double Newton
 * iteration whose start and limit come from both sides of a branch, and
 * two loops one after the other, the second's exit depending on the
 * first's count (the lane loop after the first is taken in turn), and a
 * binary search, whose loop loads the table where its last load said;
 * and loops of the same count for every work-item (an argument), which
 * the lanes run in lockstep without masks: a float and double chain with
 * a branch inside and its ends used after, and a float chain alone (128
 * lanes with AVX-512), run with counts 37, 1 and 0.
 * Launched with local sizes below, at and above the vector's width and
 * not dividing it, global offsets, and the same local size several times
 * (the third launch makes a launch copy, codegen.c). Contraction is off in
 * the kernels and every operation is correctly rounded, so each result
 * equals the host's bit for bit. */
#include <stdbool.h>
#include <stdint.h>

#include "../harness.h"

static const char *source =
    "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
    "#pragma OPENCL FP_CONTRACT OFF\n"
    "kernel void collatz(global const uint *start, global uint *steps, global uint *peak)\n"
    "{\n"
    "    size_t i = get_global_id(0) - get_global_offset(0);\n"
    "    uint v = start[i], n = 0, top = v;\n"
    "    while (v != 1 && n < 300) {\n"
    "        v = (v & 1) ? 3 * v + 1 : v / 2;\n"
    "        top = max(top, v);\n"
    "        n++;\n"
    "    }\n"
    "    steps[i] = n;\n"
    "    peak[i] = top;\n"
    "}\n"
    "kernel void escape(int w, float sx, float sy, global int *count, global float *last)\n"
    "{\n"
    "    int x = get_global_id(0), y = get_global_id(1);\n"
    "    float cx = x * sx - 2.0f, cy = y * sy - 1.0f, zx = 0.0f, zy = 0.0f;\n"
    "    int it = 0;\n"
    "    while (it < 100 && zx * zx + zy * zy < 4.0f) {\n"
    "        float t = zx * zx - zy * zy + cx;\n"
    "        zy = 2.0f * zx * zy + cy;\n"
    "        zx = t;\n"
    "        it++;\n"
    "    }\n"
    "    count[y * w + x] = it;\n"
    "    last[y * w + x] = zx;\n"
    "}\n"
    "kernel void search(uint key, global uint *found, global uint *value)\n"
    "{\n"
    "    uint x = get_global_id(0), h = x * 2654435761u, k;\n"
    "    for (k = 0; k < 200; k++) {\n"
    "        if ((h & 255) == key)\n"
    "            break;\n"
    "        h = h * 1103515245u + 12345u + x;\n"
    "    }\n"
    "    found[get_global_id(0) - get_global_offset(0)] = k;\n"
    "    value[get_global_id(0) - get_global_offset(0)] = h;\n"
    "}\n"
    "kernel void newton(global const double *in, global double *root, global int *rounds)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    double a = in[i], y;\n"
    "    int limit;\n"
    "    if (i % 3 == 0) {\n"
    "        y = 1.0;\n"
    "        limit = 40;\n"
    "    } else {\n"
    "        y = a > 1.0 ? a : 1.0;\n"
    "        limit = 60;\n"
    "    }\n"
    "    int k = 0;\n"
    "    do {\n"
    "        y = 0.5 * (y + a / y);\n"
    "        k++;\n"
    "    } while (k < limit && fabs(y * y - a) > 1e-12 * a);\n"
    "    root[i] = y;\n"
    "    rounds[i] = k;\n"
    "}\n"
    "kernel void stages(global uint *first, global uint *second)\n"
    "{\n"
    "    uint x = get_global_id(0), a = x, n = 0;\n"
    "    while (a > 1 && n < 100) {\n"
    "        a = a / 2 + (a & 1) * 3;\n"
    "        n++;\n"
    "    }\n"
    "    uint b = x ^ 0x5a5au, m = 0;\n"
    "    do {\n"
    "        b = b * 69069u + 1u;\n"
    "        m++;\n"
    "    } while ((b >> 28) != (n & 15) && m < 300);\n"
    "    first[x] = n + a * 1000u;\n"
    "    second[x] = m + (b << 9);\n"
    "}\n"
    "kernel void lookup(global const int *table, int n, global const int *keys, global int *at,\n"
    "                   global int *seen)\n"
    "{\n"
    "    int i = get_global_id(0), key = keys[i], lo = 0, hi = n, probes = 0;\n"
    "    while (lo < hi) {\n"
    "        int mid = (lo + hi) >> 1;\n"
    "        if (table[mid] < key)\n"
    "            lo = mid + 1;\n"
    "        else\n"
    "            hi = mid;\n"
    "        probes++;\n"
    "    }\n"
    "    at[i] = lo;\n"
    "    seen[i] = probes * 1000 + (lo < n ? table[lo] % 1000 : 999);\n"
    "}\n"
    "kernel void lockstep(int n, global float *out, global double *last)\n"
    "{\n"
    "    int i = get_global_id(0);\n"
    "    float x = 0.5f, y = (float)i * 0.25f;\n"
    "    double d = (double)i;\n"
    "    for (int k = 0; k < n; k++) {\n"
    "        x = x * y + (float)((k + i) % 5) * 0.375f - 0.5f;\n"
    "        y = y * 0.75f + x * 0.125f;\n"
    "        if (x > 1000.0f)\n"
    "            x = x * 0.001f;\n"
    "        d = d * 0.5 + (double)x;\n"
    "    }\n"
    "    out[i] = x + y;\n"
    "    last[i] = d;\n"
    "}\n"
    "kernel void chain(int n, global float *out, global float *last)\n"
    "{\n"
    "    int i = get_global_id(0);\n"
    "    float x = 1.0f / (float)(i + 1), y = (float)(i % 7) * 0.125f;\n"
    "    for (int k = 0; k < n; k++) {\n"
    "        x = y * x + 0.25f;\n"
    "        y = x * y + 0.5f;\n"
    "        y = y - (float)(int)y;\n"
    "    }\n"
    "    out[i] = x;\n"
    "    last[i] = y;\n"
    "}\n";

enum { N = 1000, W = 96, H = 64 };

/* Counts the elements of got that differ from want (bit for bit), with
 * the first few reported. */
static void check(const char *what, const void *got, const void *want, size_t count, size_t size,
                  const size_t *local)
{
    long bad = 0;
    for (size_t i = 0; i < count; i++)
        if (memcmp((const char *)got + i * size, (const char *)want + i * size, size) && bad++ < 3)
            fprintf(stderr, "%s: element %zu differs\n", what, i);
    char name[128];
    snprintf(name, sizeof name, "%s, local size %zu x %zu", what, local ? local[0] : 0,
             local ? local[1] : 0);
    CHECK_NONE_WRONG(bad, name);
}

/* Enqueues kernel over `dims` dimensions and reads `outputs` buffers of
 * `count` elements of `size` bytes into the host arrays. */
static void launch(struct harness *h, cl_kernel kernel, cl_uint dims, const size_t *offset,
                   const size_t *global, const size_t *local, cl_mem *outputs, void **results,
                   int outputs_count, size_t count, size_t size)
{
    CHECK_OK(clEnqueueNDRangeKernel(h->queue, kernel, dims, offset, global, local, 0, NULL, NULL));
    for (int k = 0; k < outputs_count; k++)
        CHECK_OK(clEnqueueReadBuffer(h->queue, outputs[k], CL_TRUE, 0, count * size, results[k], 0,
                                     NULL, NULL));
}

/* What a 1D kernel writes: two arrays of N elements, its last two
 * arguments, and the host's answers. */
struct outputs {
    const char *what[2];
    const void *want[2];
    size_t size[2];
};

/* Runs the kernel `name`, its first arguments set by the caller, over N
 * items from offset, with two new output buffers as its next arguments,
 * and compares them with the host's (bit for bit). */
static void run_1d(struct harness *h, cl_kernel kernel, cl_uint outputs_at, size_t offset,
                   const size_t *local, const struct outputs *o)
{
    cl_mem out[2];
    void *got[2];
    for (int k = 0; k < 2; k++) {
        out[k] = harness_buffer(h, CL_MEM_WRITE_ONLY, N * o->size[k], NULL);
        got[k] = malloc(N * o->size[k]);
        REQUIRE(got[k]);
        CHECK_OK(clSetKernelArg(kernel, outputs_at + (cl_uint)k, sizeof out[k], &out[k]));
    }
    size_t global = N, sizes[2] = {local ? local[0] : 0, 1};
    launch(h, kernel, 1, &offset, &global, local, out, got, 1, N, o->size[0]);
    CHECK_OK(
        clEnqueueReadBuffer(h->queue, out[1], CL_TRUE, 0, N * o->size[1], got[1], 0, NULL, NULL));
    for (int k = 0; k < 2; k++) {
        check(o->what[k], got[k], o->want[k], N, o->size[k], local ? sizes : NULL);
        free(got[k]);
        clReleaseMemObject(out[k]);
    }
    clReleaseKernel(kernel);
}

static void run_collatz(struct harness *h, cl_program program, size_t offset, const size_t *local)
{
    cl_uint start[N], want_steps[N], want_peak[N];
    for (size_t i = 0; i < N; i++)
        start[i] = (cl_uint)((i * 7919u) % 100000u);
    start[0] = 1, start[1] = 0, start[2] = 27, start[3] = 0x9fffffffu, start[N - 1] = 1;
    for (size_t i = 0; i < N; i++) {
        uint32_t v = start[i], n = 0, top = v;
        while (v != 1 && n < 300) {
            v = (v & 1) ? 3 * v + 1 : v / 2;
            top = v > top ? v : top;
            n++;
        }
        want_steps[i] = n, want_peak[i] = top;
    }
    cl_mem in = harness_buffer(h, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof start, start);
    cl_kernel kernel = harness_kernel(program, "collatz");
    REQUIRE(kernel);
    CHECK_OK(clSetKernelArg(kernel, 0, sizeof in, &in));
    struct outputs o = {{"collatz steps", "collatz peak"},
                        {want_steps, want_peak},
                        {sizeof(cl_uint), sizeof(cl_uint)}};
    run_1d(h, kernel, 1, offset, local, &o);
    clReleaseMemObject(in);
}

static void run_escape(struct harness *h, cl_program program, const size_t *local)
{
    static cl_int count[W * H], want_count[W * H];
    static float last[W * H], want_last[W * H];
    cl_int w = W;
    float sx = 3.0f / W, sy = 2.0f / W;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            float cx = (float)x * sx - 2.0f, cy = (float)y * sy - 1.0f, zx = 0.0f, zy = 0.0f;
            int it = 0;
            while (it < 100 && zx * zx + zy * zy < 4.0f) {
                float t = zx * zx - zy * zy + cx;
                zy = 2.0f * zx * zy + cy;
                zx = t;
                it++;
            }
            want_count[y * W + x] = it, want_last[y * W + x] = zx;
        }
    cl_mem out[2] = {harness_buffer(h, CL_MEM_WRITE_ONLY, sizeof count, NULL),
                     harness_buffer(h, CL_MEM_WRITE_ONLY, sizeof last, NULL)};
    cl_kernel kernel = harness_kernel(program, "escape");
    REQUIRE(kernel);
    CHECK_OK(harness_args(kernel, 5, ARG(w), ARG(sx), ARG(sy), ARG(out[0]), ARG(out[1])));
    size_t global[2] = {W, H};
    void *results[2] = {count, last};
    launch(h, kernel, 2, NULL, global, local, out, results, 2, W * H, 4);
    check("escape count", count, want_count, W * H, 4, local);
    check("escape last", last, want_last, W * H, 4, local);
    clReleaseKernel(kernel);
    clReleaseMemObject(out[0]), clReleaseMemObject(out[1]);
}

static void run_search(struct harness *h, cl_program program, size_t offset, const size_t *local)
{
    cl_uint want_found[N], want_value[N], key = 7;
    for (size_t i = 0; i < N; i++) {
        uint32_t x = (uint32_t)(offset + i), v = x * 2654435761u, k;
        for (k = 0; k < 200; k++) {
            if ((v & 255) == key)
                break;
            v = v * 1103515245u + 12345u + x;
        }
        want_found[i] = k, want_value[i] = v;
    }
    cl_kernel kernel = harness_kernel(program, "search");
    REQUIRE(kernel);
    CHECK_OK(clSetKernelArg(kernel, 0, sizeof key, &key));
    struct outputs o = {{"search found", "search value"},
                        {want_found, want_value},
                        {sizeof(cl_uint), sizeof(cl_uint)}};
    run_1d(h, kernel, 1, offset, local, &o);
}

static void run_newton(struct harness *h, cl_program program, const size_t *local)
{
    static double in[N], want_root[N];
    static cl_int want_rounds[N];
    for (size_t i = 0; i < N; i++)
        in[i] = (double)((i * 37) % 1000) * 0.731 + 0.01;
    in[4] = 0.0, in[5] = 1e300;
    for (size_t i = 0; i < N; i++) {
        double a = in[i], y;
        int limit;
        if (i % 3 == 0) {
            y = 1.0;
            limit = 40;
        } else {
            y = a > 1.0 ? a : 1.0;
            limit = 60;
        }
        int k = 0;
        do {
            y = 0.5 * (y + a / y);
            k++;
        } while (k < limit && fabs(y * y - a) > 1e-12 * a);
        want_root[i] = y, want_rounds[i] = k;
    }
    cl_mem input = harness_buffer(h, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof in, in);
    cl_kernel kernel = harness_kernel(program, "newton");
    REQUIRE(kernel);
    CHECK_OK(clSetKernelArg(kernel, 0, sizeof input, &input));
    struct outputs o = {{"newton root", "newton rounds"},
                        {want_root, want_rounds},
                        {sizeof(double), sizeof(cl_int)}};
    run_1d(h, kernel, 1, 0, local, &o);
    clReleaseMemObject(input);
}

static void run_stages(struct harness *h, cl_program program, const size_t *local)
{
    cl_uint want_first[N], want_second[N];
    for (uint32_t x = 0; x < N; x++) {
        uint32_t a = x, n = 0;
        while (a > 1 && n < 100) {
            a = a / 2 + (a & 1) * 3;
            n++;
        }
        uint32_t b = x ^ 0x5a5au, m = 0;
        do {
            b = b * 69069u + 1u;
            m++;
        } while ((b >> 28) != (n & 15) && m < 300);
        want_first[x] = n + a * 1000u, want_second[x] = m + (b << 9);
    }
    cl_kernel kernel = harness_kernel(program, "stages");
    REQUIRE(kernel);
    struct outputs o = {{"stages first", "stages second"},
                        {want_first, want_second},
                        {sizeof(cl_uint), sizeof(cl_uint)}};
    run_1d(h, kernel, 0, 0, local, &o);
}

static void run_lookup(struct harness *h, cl_program program, const size_t *local)
{
    enum { TABLE = 777 };
    static cl_int table[TABLE], keys[N], want_at[N], want_seen[N];
    for (int k = 0; k < TABLE; k++)
        table[k] = 5 * k + (k % 3) - 40;
    for (int i = 0; i < N; i++)
        keys[i] = (int)(((uint32_t)i * 2654435761u) % 4100u) - 100;
    keys[0] = INT32_MIN, keys[1] = INT32_MAX, keys[2] = table[0], keys[3] = table[TABLE - 1];
    for (int i = 0; i < N; i++) {
        int lo = 0, hi = TABLE, probes = 0;
        while (lo < hi) {
            int mid = (lo + hi) >> 1;
            if (table[mid] < keys[i])
                lo = mid + 1;
            else
                hi = mid;
            probes++;
        }
        want_at[i] = lo, want_seen[i] = probes * 1000 + (lo < TABLE ? table[lo] % 1000 : 999);
    }
    cl_int n = TABLE;
    cl_mem in[2] = {harness_buffer(h, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof table, table),
                    harness_buffer(h, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof keys, keys)};
    cl_kernel kernel = harness_kernel(program, "lookup");
    REQUIRE(kernel);
    CHECK_OK(harness_args(kernel, 3, ARG(in[0]), ARG(n), ARG(in[1])));
    struct outputs o = {
        {"lookup at", "lookup seen"}, {want_at, want_seen}, {sizeof(cl_int), sizeof(cl_int)}};
    run_1d(h, kernel, 3, 0, local, &o);
    clReleaseMemObject(in[0]), clReleaseMemObject(in[1]);
}

static void run_lockstep(struct harness *h, cl_program program, cl_int n, const size_t *local)
{
    static float want_out[N], want_x[N], want_y[N];
    static double want_last[N];
    for (int i = 0; i < N; i++) {
        float x = 0.5f, y = (float)i * 0.25f;
        double d = (double)i;
        for (int k = 0; k < n; k++) {
            x = x * y + (float)((k + i) % 5) * 0.375f - 0.5f;
            y = y * 0.75f + x * 0.125f;
            if (x > 1000.0f)
                x = x * 0.001f;
            d = d * 0.5 + (double)x;
        }
        want_out[i] = x + y, want_last[i] = d;
        x = 1.0f / (float)(i + 1), y = (float)(i % 7) * 0.125f;
        for (int k = 0; k < n; k++) {
            x = y * x + 0.25f;
            y = x * y + 0.5f;
            y = y - (float)(int)y;
        }
        want_x[i] = x, want_y[i] = y;
    }
    cl_kernel kernel = harness_kernel(program, "lockstep");
    REQUIRE(kernel);
    CHECK_OK(clSetKernelArg(kernel, 0, sizeof n, &n));
    struct outputs o = {
        {"lockstep out", "lockstep last"}, {want_out, want_last}, {sizeof(float), sizeof(double)}};
    run_1d(h, kernel, 1, 0, local, &o);
    kernel = harness_kernel(program, "chain");
    REQUIRE(kernel);
    CHECK_OK(clSetKernelArg(kernel, 0, sizeof n, &n));
    struct outputs c = {{"chain x", "chain y"}, {want_x, want_y}, {sizeof(float), sizeof(float)}};
    run_1d(h, kernel, 1, 0, local, &c);
}

int main(void)
{
    struct harness h = harness_open();
    cl_program program = harness_build(&h, source, "-cl-std=CL2.0");
    REQUIRE(program);
    /* 64 four times: the third launch makes a launch copy */
    static const size_t locals[] = {1, 7, 16, 100, 64, 64, 64, 64, 256};
    static const size_t offsets[] = {0, 21};
    for (int l = -1; l < (int)(sizeof locals / sizeof locals[0]); l++) {
        const size_t *local = l < 0 ? NULL : &locals[l];
        for (size_t o = 0; o < sizeof offsets / sizeof offsets[0]; o++) {
            run_collatz(&h, program, offsets[o], local);
            run_search(&h, program, offsets[o], local);
        }
        run_newton(&h, program, local);
        run_stages(&h, program, local);
        run_lookup(&h, program, local);
        for (int c = 0; c < 3; c++)
            run_lockstep(&h, program, (cl_int[]){37, 1, 0}[c], local);
    }
    static const size_t locals2d[][2] = {{16, 4}, {13, 3}, {96, 1}, {32, 2}, {32, 2}, {32, 2}};
    run_escape(&h, program, NULL);
    for (size_t l = 0; l < sizeof locals2d / sizeof locals2d[0]; l++)
        run_escape(&h, program, locals2d[l]);
    clReleaseProgram(program);
    harness_close(&h);
    return harness_finish();
}
