/* test_compiler.c - the compiler layer on its own: cc_build on small
 * programs, then their work-group functions called directly with a
 * cc_wg_state and an argument block, the results compared with the host's.
 *
 * Usage: test_compiler            run every test
 *        test_compiler vadd       build only the vector add (for CPUCL_DUMP_IR=1)
 */
#include <math.h>
#include <stdbool.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "compiler/compiler.h"
#include "compiler/internal.h" /* cc_sha256, cc_lower_fences */

#include <llvm-c/IRReader.h>

static int failures;

#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            failures++;                                                                            \
            printf("FAIL %s:%d: ", __FILE__, __LINE__);                                            \
            printf(__VA_ARGS__);                                                                   \
            printf("\n");                                                                          \
        }                                                                                          \
    } while (0)

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

/* Builds and expects success; prints the log on failure. Makes every
 * kernel's code, as its first launch would (cc_kernel_code), so the tests
 * call kernel->wg. */
static struct cc_program *build(const char *source, const char *options)
{
    char *log = NULL;
    struct cc_program *program = NULL;
    cl_int err = cc_build(source, options, &log, &program);
    if (err != CL_SUCCESS) {
        failures++;
        printf("FAIL: build returned %d, log:\n%s\n", err, log ? log : "(null)");
    }
    free(log);
    for (unsigned i = 0; program && i < cc_program_num_kernels(program); i++) {
        const struct cc_kernel_info *kernel = cc_program_kernel(program, i);
        cc_wg_fn wg = NULL;
        CHECK(cc_kernel_code(program, kernel, &wg) == CL_SUCCESS && wg == kernel->wg,
              "no code for kernel %s", kernel->name);
    }
    return program;
}

/* Builds and expects `expected`, with `needle` in the log. */
static void build_fails(const char *source, const char *options, cl_int expected,
                        const char *needle)
{
    char *log = NULL;
    struct cc_program *program = (struct cc_program *)1;
    cl_int err = cc_build(source, options, &log, &program);
    CHECK(err == expected, "expected %d, got %d; log: %s", expected, err, log);
    CHECK(program == NULL, "program set on failure");
    CHECK(log && strstr(log, needle), "log lacks '%s': %s", needle, log ? log : "(null)");
    free(log);
}

/* Argument block for a kernel. The block is deliberately only 8-byte
 * aligned: that is all the generated code may assume (metadata.c). */
struct args {
    const struct cc_kernel_info *kernel;
    unsigned char *block, *allocation;
    size_t local_bytes; /* __local arguments, after the kernel's own */
};

static struct args args_for(const struct cc_kernel_info *kernel)
{
    unsigned char *allocation = calloc(1, kernel->arg_block_size + 16);
    struct args a = {kernel, allocation + 8, allocation, kernel->local_mem_size};
    return a;
}

static void set_value(struct args *a, unsigned i, const void *value, size_t size)
{
    CHECK(a->kernel->args[i].kind == CC_ARG_VALUE, "arg %u is not a value", i);
    CHECK(a->kernel->args[i].size == size, "arg %u size %zu, expected %zu", i,
          a->kernel->args[i].size, size);
    memcpy(a->block + a->kernel->args[i].offset, value, size);
}

static void set_buffer(struct args *a, unsigned i, void *pointer)
{
    CHECK(a->kernel->args[i].kind == CC_ARG_BUFFER, "arg %u is not a buffer", i);
    memcpy(a->block + a->kernel->args[i].offset, &pointer, sizeof pointer);
}

static void set_local(struct args *a, unsigned i, size_t size)
{
    CHECK(a->kernel->args[i].kind == CC_ARG_LOCAL, "arg %u is not local", i);
    size_t offset = (a->local_bytes + 127) & ~(size_t)127;
    memcpy(a->block + a->kernel->args[i].offset, &offset, sizeof offset);
    a->local_bytes = offset + size;
}

/* A launch's state with the memory a kernel split into regions keeps its
 * work-items' values in (cc_wg_state.context), as the device's workers
 * give it: 64-byte aligned, kept until the next call, freed by run(). */
struct launch {
    struct cc_wg_state state; /* first: the kernel's state pointer is the launch's */
    void *memory;
    size_t size;
};

static void *region_context(struct cc_wg_state *state, size_t bytes)
{
    struct launch *launch = (struct launch *)state;
    if (bytes > launch->size) {
        free(launch->memory);
        launch->size = (bytes + 63) / 64 * 64;
        launch->memory = aligned_alloc(64, launch->size);
    }
    return launch->memory;
}

/* Runs an NDRange the way src/devices/cpu does: every group, the last
 * ones smaller when the global size is not a multiple (OpenCL 2.0). */
static char *run(struct args *a, unsigned dims, const size_t *global, const size_t *local,
                 const size_t *offset)
{
    struct launch launch;
    memset(&launch, 0, sizeof launch);
    struct cc_wg_state *state = &launch.state;
    size_t groups[3];
    char *arena = aligned_alloc(128, (a->local_bytes + 127) / 128 * 128 + 128);
    for (unsigned d = 0; d < 3; d++) {
        size_t g = d < dims ? global[d] : 1, l = d < dims ? local[d] : 1;
        state->enqueued_local_size[d] = l;
        state->global_size[d] = g;
        state->global_offset[d] = d < dims && offset ? offset[d] : 0;
        groups[d] = (g + l - 1) / l;
        state->num_groups[d] = groups[d];
    }
    state->work_dim = dims;
    state->local_mem = arena;
    state->context = region_context;
    for (size_t z = 0; z < groups[2]; z++)
        for (size_t y = 0; y < groups[1]; y++)
            for (size_t x = 0; x < groups[0]; x++) {
                size_t id[3] = {x, y, z};
                for (int d = 0; d < 3; d++) {
                    state->group_id[d] = id[d];
                    size_t rest = state->global_size[d] - id[d] * state->enqueued_local_size[d];
                    state->local_size[d] =
                        rest < state->enqueued_local_size[d] ? rest : state->enqueued_local_size[d];
                }
                a->kernel->wg(a->block, state);
            }
    free(launch.memory);
    return arena;
}

static void run1(struct args *a, size_t global, size_t local)
{
    free(run(a, 1, &global, &local, NULL));
}

/* ---------------------------------------------------------------- */

static const char vadd_source[] =
    "kernel void vadd(global const float *a, global const float *b, global float *c)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    c[i] = a[i] + b[i];\n"
    "}\n";

static void test_vadd(void)
{
    double t0 = now_ms();
    struct cc_program *p = build(vadd_source, "");
    double t1 = now_ms();
    struct cc_program *p2 = build(vadd_source, "");
    double t2 = now_ms();
    printf("cc_build vadd: first %.1f ms (includes LLVM/JIT start), second %.1f ms\n", t1 - t0,
           t2 - t1);
    if (!p || !p2)
        return;
    CHECK(cc_program_num_kernels(p) == 1, "kernels %u", cc_program_num_kernels(p));
    const struct cc_kernel_info *k = cc_program_find_kernel(p, "vadd");
    CHECK(k && k->wg && k->num_args == 3, "vadd missing");
    CHECK(cc_program_find_kernel(p, "nope") == NULL, "found a kernel that is not there");
    if (!k)
        return;
    CHECK(k->args[0].type_qualifier == CL_KERNEL_ARG_TYPE_CONST, "const qualifier");
    CHECK(k->args[0].address_qualifier == CL_KERNEL_ARG_ADDRESS_GLOBAL, "global qualifier");
    CHECK(!strcmp(k->args[0].type_name, "float*"), "type name %s", k->args[0].type_name);
    CHECK(k->args[0].name == NULL, "name without -cl-kernel-arg-info");
    enum { N = 1000 };
    float *a = malloc(N * sizeof *a), *b = malloc(N * sizeof *b), *c = malloc(N * sizeof *c);
    for (int i = 0; i < N; i++) {
        a[i] = i * 0.5f;
        b[i] = 1000.0f - i;
        c[i] = -1;
    }
    struct args args = args_for(k);
    set_buffer(&args, 0, a);
    set_buffer(&args, 1, b);
    set_buffer(&args, 2, c);
    run1(&args, N, 64); /* 16 groups, the last one of 40 */
    int bad = 0;
    for (int i = 0; i < N; i++)
        bad += c[i] != a[i] + b[i];
    CHECK(bad == 0, "vadd: %d wrong results", bad);
    /* the second program's kernel has the same name and its own code */
    const struct cc_kernel_info *k2 = cc_program_find_kernel(p2, "vadd");
    CHECK(k2 && k2->wg && k2->wg != k->wg, "second program shares code");
    cc_program_free(p);
    memset(c, 0, N * sizeof *c);
    struct args args2 = args_for(k2);
    set_buffer(&args2, 0, a);
    set_buffer(&args2, 1, b);
    set_buffer(&args2, 2, c);
    run1(&args2, N, 100);
    bad = 0;
    for (int i = 0; i < N; i++)
        bad += c[i] != a[i] + b[i];
    CHECK(bad == 0, "vadd after freeing the other program: %d wrong", bad);
    cc_program_free(p2);
    free(args.allocation);
    free(args2.allocation);
    free(a);
    free(b);
    free(c);
}

static void test_2d(void)
{
    static const char source[] =
        "kernel void ids(global uint *out, uint pitch)\n"
        "{\n"
        "    size_t x = get_global_id(0), y = get_global_id(1);\n"
        "    size_t i = (y - get_global_offset(1)) * pitch + (x - get_global_offset(0));\n"
        "    out[4 * i + 0] = (uint)(x * 1000 + y);\n"
        "    out[4 * i + 1] = (uint)(get_global_size(0) * 100 + get_global_size(1));\n"
        "    out[4 * i + 2] = (uint)(get_local_id(0) * 10000 + get_local_id(1) * 100 + "
        "get_group_id(0) * 10 + get_group_id(1));\n"
        "    out[4 * i + 3] = (uint)(get_num_groups(0) * 1000000 + get_local_size(0) * 10000 +\n"
        "        get_enqueued_local_size(1) * 100 + get_work_dim() * 10 + get_global_id(2) + "
        "get_local_size(2));\n"
        "}\n"
        "__attribute__((noinline)) size_t local_linear(void) { return get_local_linear_id(); }\n"
        "kernel void linear(global uint *out, uint which)\n"
        "{\n"
        "    size_t g = get_global_linear_id();\n"
        "    out[2 * g] = (uint)local_linear();\n"
        "    out[2 * g + 1] = (uint)(get_global_id(which) + 100 * get_local_size(which));\n"
        "}\n";
    struct cc_program *p = build(source, "-cl-std=CL2.0");
    if (!p)
        return;
    const struct cc_kernel_info *k = cc_program_find_kernel(p, "ids");
    enum { W = 13, H = 7 };
    size_t global[2] = {W, H}, local[2] = {4, 3}, offset[2] = {5, 2};
    unsigned *out = calloc(4 * W * H, sizeof *out);
    struct args a = args_for(k);
    set_buffer(&a, 0, out);
    unsigned pitch = W;
    set_value(&a, 1, &pitch, sizeof pitch);
    free(run(&a, 2, global, local, offset));
    int bad = 0;
    for (unsigned y = 0; y < H; y++)
        for (unsigned x = 0; x < W; x++) {
            unsigned *o = out + 4 * (y * W + x);
            unsigned gx = x + 5, gy = y + 2;
            unsigned lx = x % 4, ly = y % 3, bx = x / 4, by = y / 3;
            unsigned lsx = bx == 3 ? 1 : 4;
            bad += o[0] != gx * 1000 + gy;
            bad += o[1] != W * 100 + H;
            bad += o[2] != lx * 10000 + ly * 100 + bx * 10 + by;
            bad += o[3] != 4 * 1000000 + lsx * 10000 + 3 * 100 + 2 * 10 + 0 + 1;
        }
    CHECK(bad == 0, "2D ids: %d wrong values", bad);
    free(a.allocation);

    /* linear ids, and a dimension index only known at run time: ids beyond
     * the dimensions are 0, sizes 1 (6.13.1) */
    k = cc_program_find_kernel(p, "linear");
    size_t global3[3] = {6, 4, 2}, local3[3] = {3, 2, 2}, offset3[3] = {1, 1, 1};
    unsigned *lin = calloc(2 * 48, sizeof *lin);
    for (unsigned which = 0; which < 5; which += 4) {
        struct args b = args_for(k);
        set_buffer(&b, 0, lin);
        set_value(&b, 1, &which, sizeof which);
        free(run(&b, 3, global3, local3, offset3));
        bad = 0;
        for (unsigned z = 0; z < 2; z++)
            for (unsigned y = 0; y < 4; y++)
                for (unsigned x = 0; x < 6; x++) {
                    unsigned g = (z * 4 + y) * 6 + x;
                    unsigned l = ((z % 2) * 2 + y % 2) * 3 + x % 3;
                    unsigned expect = which == 0 ? (x + 1) + 100 * 3 : 0 + 100 * 1;
                    bad += lin[2 * g] != l;
                    bad += lin[2 * g + 1] != expect;
                }
        CHECK(bad == 0, "linear ids (which=%u): %d wrong", which, bad);
        free(b.allocation);
    }
    free(lin);
    free(out);
    cc_program_free(p);
}

static void test_local(void)
{
    static const char source[] =
        "kernel void tile(global const int *in, global int *out, local int *scratch)\n"
        "{\n"
        "    local int tile[64];\n"
        "    local float other[3];\n"
        "    size_t l = get_local_id(0);\n"
        "    tile[l] = in[get_global_id(0)] * 2;\n"
        "    scratch[l] = 7;\n"
        "    if (l == 0) other[1] = 1.5f;\n"
        "    out[get_global_id(0)] = tile[l] + scratch[l] + (int)(other[1] * 2);\n"
        "}\n";
    struct cc_program *p = build(source, "");
    if (!p)
        return;
    const struct cc_kernel_info *k = cc_program_find_kernel(p, "tile");
    CHECK(k->local_mem_size >= 64 * 4 + 3 * 4, "local_mem_size %zu", k->local_mem_size);
    CHECK(k->args[2].kind == CC_ARG_LOCAL, "local arg kind");
    CHECK(k->args[2].address_qualifier == CL_KERNEL_ARG_ADDRESS_LOCAL, "local qualifier");
    enum { N = 256 };
    int in[N], out[N];
    for (int i = 0; i < N; i++)
        in[i] = i * 3;
    struct args a = args_for(k);
    set_buffer(&a, 0, in);
    set_buffer(&a, 1, out);
    set_local(&a, 2, 64 * sizeof(int));
    size_t global = N, local = 64;
    char *arena = run(&a, 1, &global, &local, NULL);
    int bad = 0;
    for (int i = 0; i < N; i++)
        bad += out[i] != in[i] * 2 + 7 + 3;
    CHECK(bad == 0, "local: %d wrong", bad);
    /* the __local variables live in the arena: the last group's tile and
     * the __local argument are there */
    int found_tile = 0, found_scratch = 0;
    for (size_t off = 0; off + 64 * 4 <= k->local_mem_size; off += 4)
        found_tile |=
            !memcmp(arena + off, &in[N - 64], 4) || ((int *)(arena + off))[0] == in[N - 64] * 2;
    size_t scratch_offset = (k->local_mem_size + 127) & ~(size_t)127;
    found_scratch = ((int *)(arena + scratch_offset))[5] == 7;
    CHECK(found_tile, "kernel-scope __local array not in the arena");
    CHECK(found_scratch, "__local argument not at its arena offset");
    free(arena);
    free(a.allocation);
    cc_program_free(p);
}

static void test_values(void)
{
    static const char source[] =
        "typedef struct { float a; int b; float4 c; char d; } S;\n"
        "kernel void values(global float4 *out, float4 scale, S s, float3 v3, uchar u, long l)\n"
        "{\n"
        "    size_t i = get_global_id(0);\n"
        "    out[i] = scale * (float)i + s.c * s.a + (float4)(s.b, s.d, v3.z, u + l);\n"
        "}\n";
    struct cc_program *p = build(source, "-cl-kernel-arg-info");
    if (!p)
        return;
    const struct cc_kernel_info *k = cc_program_find_kernel(p, "values");
    struct S {
        float a;
        int b;
        float c[4] __attribute__((aligned(16)));
        char d;
    } s = {2.0f, 5, {1, 2, 3, 4}, 9};
    CHECK(k->args[2].size == sizeof s, "struct size %zu vs %zu", k->args[2].size, sizeof s);
    CHECK(k->args[3].size == 16, "float3 size %zu", k->args[3].size);
    CHECK(k->args[4].size == 1 && k->args[5].size == 8, "scalar sizes");
    CHECK(k->args[1].offset % 16 == 0 && k->args[3].offset % 16 == 0, "vector slot alignment");
    CHECK(k->args[0].name && !strcmp(k->args[0].name, "out") && !strcmp(k->args[2].name, "s"),
          "arg names");
    CHECK(!strcmp(k->args[1].type_name, "float4"), "type name %s", k->args[1].type_name);
    CHECK(k->args[2].address_qualifier == CL_KERNEL_ARG_ADDRESS_PRIVATE, "private qualifier");
    enum { N = 40 };
    float out[N][4];
    float scale[4] = {1, 10, 100, 1000}, v3[4] = {0, 0, 6.5f, 0};
    unsigned char u = 3;
    long l = 1L << 20;
    struct args a = args_for(k);
    set_buffer(&a, 0, out);
    set_value(&a, 1, scale, sizeof scale);
    set_value(&a, 2, &s, sizeof s);
    set_value(&a, 3, v3, sizeof v3);
    set_value(&a, 4, &u, 1);
    set_value(&a, 5, &l, 8);
    run1(&a, N, 8);
    int bad = 0;
    for (int i = 0; i < N; i++) {
        float expect[4] = {scale[0] * i + s.c[0] * s.a + s.b, scale[1] * i + s.c[1] * s.a + s.d,
                           scale[2] * i + s.c[2] * s.a + 6.5f,
                           scale[3] * i + s.c[3] * s.a + (float)(u + l)};
        for (int j = 0; j < 4; j++)
            bad += out[i][j] != expect[j];
    }
    CHECK(bad == 0, "by-value args: %d wrong", bad);
    free(a.allocation);
    cc_program_free(p);
}

static void test_math(void)
{
    static const char source[] =
        "float helper(float x) { return sqrt(x) + sin(x) * cos(x) + exp(x * 0.01f) + log(x + "
        "1.0f); }\n"
        "double dhelper(double x) { return pow(x, 1.5) + tan(x * 0.1) + fma(x, x, 1.0); }\n"
        "kernel void math(global const float *in, global float *out, global double *dout)\n"
        "{\n"
        "    size_t i = get_global_id(0);\n"
        "    float x = in[i];\n"
        "    out[8 * i + 0] = helper(x);\n"
        "    out[8 * i + 1] = floor(x * 1.7f) + ceil(x * 0.3f) + fabs(-x) + mad(x, 2.0f, 1.0f);\n"
        "    out[8 * i + 2] = pow(x, 1.5f) + exp2(x * 0.1f) + log2(x + 1.0f) + atan2(x, 3.0f);\n"
        "    out[8 * i + 3] = sinpi(x * 0.25f) + cospi(x * 0.125f) + fmin(x, 5.0f) + fmax(x, "
        "7.0f);\n"
        "    float4 v = (float4)(x, x + 1.0f, x + 2.0f, x + 3.0f);\n"
        "    float4 r = sqrt(v) + sin(v) + clamp(v, 2.0f, 9.0f) + mix(v, v * 2.0f, 0.25f);\n"
        "    out[8 * i + 4] = r.x + r.y + r.z + r.w;\n"
        "    out[8 * i + 5] = dot(v, v) + length(v.xyz) + distance(v, v * 3.0f) + normalize(v).y + "
        "cross(v, v.wzyx).z;\n"
        "    float ip; out[8 * i + 6] = fract(x * 1.3f, &ip) + ip + rsqrt(x + 1.0f) + cbrt(x) + "
        "hypot(x, 2.0f);\n"
        "    out[8 * i + 7] = step(3.0f, x) + smoothstep(0.0f, 10.0f, x) + sign(x - 5.0f) + "
        "degrees(x) + radians(x);\n"
        "    dout[2 * i] = dhelper((double)x);\n"
        "    double4 dv = (double4)(x, 1.0, 2.0, 3.0);\n"
        "    dout[2 * i + 1] = sqrt(dv).x + exp(dv).y + length(dv) + floor(dv.x * 1.5);\n"
        "}\n";
    struct cc_program *p = build(source, "");
    if (!p)
        return;
    const struct cc_kernel_info *k = cc_program_find_kernel(p, "math");
    enum { N = 64 };
    float in[N], out[N * 8];
    double dout[N * 2];
    for (int i = 0; i < N; i++)
        in[i] = i * 0.37f;
    struct args a = args_for(k);
    set_buffer(&a, 0, in);
    set_buffer(&a, 1, out);
    set_buffer(&a, 2, dout);
    run1(&a, N, 16);
    int bad = 0;
    for (int i = 0; i < N; i++) {
        float x = in[i];
        double e[8];
        e[0] = sqrtf(x) + sinf(x) * cosf(x) + expf(x * 0.01f) + logf(x + 1.0f);
        e[1] = floorf(x * 1.7f) + ceilf(x * 0.3f) + x + (x * 2.0f + 1.0f);
        e[2] = powf(x, 1.5f) + exp2f(x * 0.1f) + log2f(x + 1.0f) + atan2f(x, 3.0f);
        e[3] = sin(M_PI * x * 0.25) + cos(M_PI * x * 0.125) + fminf(x, 5.0f) + fmaxf(x, 7.0f);
        double v[4] = {x, x + 1.0, x + 2.0, x + 3.0}, r = 0, dotv = 0, len3 = 0, dist = 0;
        for (int j = 0; j < 4; j++) {
            double c = v[j] < 2 ? 2 : v[j] > 9 ? 9 : v[j];
            r += sqrt(v[j]) + sin(v[j]) + c + (v[j] + (v[j] * 2 - v[j]) * 0.25);
            dotv += v[j] * v[j];
            dist += (2 * v[j]) * (2 * v[j]);
            if (j < 3)
                len3 += v[j] * v[j];
        }
        e[4] = r;
        /* cross(v, v.wzyx).z = v.x * v.z - v.y * v.w */
        e[5] = dotv + sqrt(len3) + sqrt(dist) + v[1] / sqrt(dotv) + (v[0] * v[2] - v[1] * v[3]);
        double y = (float)(x * 1.3f);
        e[6] = (y - floor(y)) + floor(y) + 1 / sqrt(x + 1.0) + cbrt(x) + hypot(x, 2.0);
        double t = x / 10.0;
        t = t < 0 ? 0 : t > 1 ? 1 : t;
        e[7] = (x < 3 ? 0 : 1) + t * t * (3 - 2 * t) +
               (x > 5   ? 1
                : x < 5 ? -1
                        : 0) +
               x * 180 / M_PI + x * M_PI / 180;
        for (int j = 0; j < 8; j++) {
            double got = out[8 * i + j], tolerance = 1e-5 * (fabs(e[j]) + 1);
            if (fabs(got - e[j]) > tolerance) {
                if (bad < 5)
                    printf("  math[%d][%d] = %.9g, host %.9g\n", i, j, got, e[j]);
                bad++;
            }
        }
        double d0 = pow(x, 1.5) + tan(x * 0.1) + fma(x, x, 1.0);
        double d1 = sqrt(x) + exp(1.0) + sqrt((double)x * x + 1 + 4 + 9) + floor(x * 1.5);
        if (fabs(dout[2 * i] - d0) > 1e-12 * (fabs(d0) + 1) ||
            fabs(dout[2 * i + 1] - d1) > 1e-12 * (fabs(d1) + 1)) {
            if (bad < 5)
                printf("  dmath[%d] = %.17g %.17g, host %.17g %.17g\n", i, dout[2 * i],
                       dout[2 * i + 1], d0, d1);
            bad++;
        }
    }
    CHECK(bad == 0, "math: %d wrong", bad);
    free(a.allocation);
    cc_program_free(p);
}

static void test_integer_relational(void)
{
    static const char source[] =
        "kernel void ints(global const int *in, global int *out)\n"
        "{\n"
        "    size_t i = get_global_id(0);\n"
        "    int x = in[i];\n"
        "    uint u = (uint)x;\n"
        "    out[16 * i + 0] = clamp(x, -5, 5);\n"
        "    out[16 * i + 1] = (int)rotate(u, 7u);\n"
        "    out[16 * i + 2] = popcount(x);\n"
        "    out[16 * i + 3] = clz(x);\n"
        "    out[16 * i + 4] = mul_hi(x, 123456789);\n"
        "    out[16 * i + 5] = add_sat(x, 2147483000);\n"
        "    out[16 * i + 6] = (int)abs(x);\n"
        "    out[16 * i + 7] = hadd(x, 7) + mad24(x, 3, 1) + mul24(x, 2);\n"
        "    int4 v = (int4)(x, -x, x * 2, 3);\n"
        "    int4 m = max(v, 1) + min(v, (int4)(0, 1, 2, 3)) + sub_sat(v, (int4)(1));\n"
        "    out[16 * i + 8] = m.x + m.y + m.z + m.w;\n"
        "    out[16 * i + 9] = any(v < 0) * 10 + all(v > -1000);\n"
        "    float4 f = (float4)((float)x, NAN, INFINITY, 1.0f);\n"
        "    int4 r = isnan(f) + isinf(f) * 2 + isequal(f, f) * 4 + signbit(-f) * 8;\n"
        "    out[16 * i + 10] = r.x * 1000 + r.y * 100 + r.z * 10 + r.w;\n"
        "    out[16 * i + 11] = select(1, 2, x > 3) + isnan((float)x) * 10 + isless(1.0f, 2.0f) * "
        "100;\n"
        "    out[16 * i + 12] = bitselect(x, ~x, 0xff) ;\n"
        "    int4 s = select((int4)(1, 2, 3, 4), (int4)(5, 6, 7, 8), (int4)(-1, 0, -1, 0));\n"
        "    out[16 * i + 13] = s.x * 1000 + s.y * 100 + s.z * 10 + s.w;\n"
        "    out[16 * i + 14] = (int)upsample((short)x, (ushort)3);\n"
        "    out[16 * i + 15] = abs_diff(x, -7) + rhadd(x, 8) + mad_sat(x, 1000000, 5);\n"
        "}\n";
    struct cc_program *p = build(source, "");
    if (!p)
        return;
    const struct cc_kernel_info *k = cc_program_find_kernel(p, "ints");
    enum { N = 33 };
    int in[N], out[N * 16];
    for (int i = 0; i < N; i++)
        in[i] = i == 0 ? INT32_MIN + 1234567 : (i - 16) * 98765;
    struct args a = args_for(k);
    set_buffer(&a, 0, in);
    set_buffer(&a, 1, out);
    run1(&a, N, 8);
    int bad = 0;
    for (int i = 0; i < N; i++) {
        int x = in[i];
        unsigned u = (unsigned)x;
        long long e[16];
        e[0] = x < -5 ? -5 : x > 5 ? 5 : x;
        e[1] = (int)((u << 7) | (u >> 25));
        e[2] = __builtin_popcount(u);
        e[3] = x ? __builtin_clz(u) : 32;
        e[4] = (int)(((long long)x * 123456789) >> 32);
        long long s = (long long)x + 2147483000;
        e[5] = s > INT32_MAX ? INT32_MAX : s;
        e[6] = (int)(x < 0 ? -(long long)x : x);
        e[7] = (int)((((long long)x + 7) >> 1) + (int)(u * 3u + 1u) + (int)(u * 2u));
        long long v[4] = {x, -(long long)x, (int)(u * 2u), 3}, m = 0;
        long long mins[4] = {0, 1, 2, 3};
        for (int j = 0; j < 4; j++) {
            long long sat = v[j] - 1 < INT32_MIN ? INT32_MIN : v[j] - 1;
            m += (v[j] > 1 ? v[j] : 1) + (v[j] < mins[j] ? v[j] : mins[j]) + sat;
        }
        e[8] = (int)m;
        int anyneg = 0, allgt = 1;
        for (int j = 0; j < 4; j++) {
            anyneg |= v[j] < 0;
            allgt &= v[j] > -1000;
        }
        e[9] = anyneg * 10 + allgt;
        /* r = isnan + 2 isinf + 4 isequal + 8 signbit(-f), each -1/0, for
         * f = (x, NaN, inf, 1): -NaN has its sign bit set */
        e[10] = (-4 - 8 * (x >= 0)) * 1000 + (-1 - 8) * 100 + (-2 - 4 - 8) * 10 + (-4 - 8);
        e[11] = (x > 3 ? 2 : 1) + 0 + 100;
        e[12] = (x & ~0xff) | (~x & 0xff);
        e[13] = 5000 + 200 + 70 + 4;
        e[14] = (int)(((unsigned)(short)x << 16) | 3u);
        long long diff = (long long)x - (-7);
        long long ms = (long long)x * 1000000 + 5;
        ms = ms > INT32_MAX ? INT32_MAX : ms < INT32_MIN ? INT32_MIN : ms;
        e[15] = (int)((unsigned)(diff < 0 ? -diff : diff) + (int)(((long long)x + 8 + 1) >> 1) +
                      (int)ms);
        for (int j = 0; j < 16; j++) {
            if (out[16 * i + j] != (int)e[j]) {
                if (bad < 8)
                    printf("  ints[%d][%d] (x=%d) = %d, host %d\n", i, j, x, out[16 * i + j],
                           (int)e[j]);
                bad++;
            }
        }
    }
    CHECK(bad == 0, "integer/relational: %d wrong", bad);
    free(a.allocation);
    cc_program_free(p);
}

static void test_cl20(void)
{
    static const char source[] =
        "int twice(generic int *p) { return *p * 2; }\n"
        "global int program_scope = 42;\n"
        "constant int table[3] = {1, 2, 3};\n"
        "kernel void globals(global int *out)\n"
        "{\n"
        "    out[get_global_id(0)] = program_scope++ + table[get_global_id(0) % 3];\n"
        "}\n"
        "kernel void cl20(global int *data, global atomic_int *counter, global int *legacy,\n"
        "                 global float *f, local float *unused)\n"
        "{\n"
        "    size_t i = get_global_id(0);\n"
        "    private int mine = (int)i;\n"
        "    data[i] = twice(&mine) + twice(&data[i]);\n"
        "    atomic_fetch_add(counter, 1);\n"
        "    atomic_fetch_add_explicit(counter, 2, memory_order_relaxed, memory_scope_device);\n"
        "    atomic_inc(legacy);\n"
        "    atomic_max(legacy + 1, (int)i);\n"
        "    int expected = 0;\n"
        "    atomic_compare_exchange_strong((global atomic_int *)(legacy + 2), &expected, 1);\n"
        "    float4 v = vload4(i, f);\n"
        "    vstore4(v * 2.0f, i, f);\n"
        "    float3 t = vload3(0, f + 4 * i);\n"
        "    f[4 * i + 3] += t.z * 0.0f;\n"
        "}\n";
    struct cc_program *p = build(source, "-cl-std=CL2.0");
    if (!p)
        return;
    const struct cc_kernel_info *k = cc_program_find_kernel(p, "cl20");
    enum { N = 100 };
    int data[N], counter = 0, legacy[3] = {0, -1, 0};
    float f[4 * N];
    for (int i = 0; i < N; i++)
        data[i] = i + 1;
    for (int i = 0; i < 4 * N; i++)
        f[i] = i;
    struct args a = args_for(k);
    set_buffer(&a, 0, data);
    set_buffer(&a, 1, &counter);
    set_buffer(&a, 2, legacy);
    set_buffer(&a, 3, f);
    set_local(&a, 4, 16);
    run1(&a, N, 32);
    int bad = 0;
    for (int i = 0; i < N; i++)
        bad += data[i] != 2 * i + 2 * (i + 1);
    for (int i = 0; i < 4 * N; i++)
        bad += f[i] != 2.0f * i;
    CHECK(bad == 0, "CL2.0 data: %d wrong", bad);
    CHECK(counter == 3 * N, "atomic counter %d", counter);
    CHECK(legacy[0] == N && legacy[1] == N - 1 && legacy[2] == 1, "1.x atomics %d %d %d", legacy[0],
          legacy[1], legacy[2]);
    free(a.allocation);
    /* program-scope variables keep their value from launch to launch */
    const struct cc_kernel_info *g = cc_program_find_kernel(p, "globals");
    int out[6];
    for (int launch = 0; launch < 2; launch++) {
        struct args b = args_for(g);
        set_buffer(&b, 0, out);
        run1(&b, 3, 3);
        for (int i = 0; i < 3; i++)
            CHECK(out[i] == 42 + 3 * launch + i + (i % 3) + 1, "program scope [%d][%d] = %d",
                  launch, i, out[i]);
        free(b.allocation);
    }
    cc_program_free(p);
}

static void test_options_and_errors(void)
{
    /* -D and -I, with quoting */
    static const char source[] = "#include \"cpucl_test_header.h\"\n"
                                 "kernel void k(global int *out) { out[0] = VALUE + OTHER + "
                                 "FROM_HEADER; out[1] = sizeof(STR); }\n";
    char dir[] = "/tmp/cpucl test XXXXXX";
    if (mkdtemp(dir)) {
        char path[256];
        snprintf(path, sizeof path, "%s/cpucl_test_header.h", dir);
        FILE *f = fopen(path, "w");
        fputs("#define FROM_HEADER 100\n", f);
        fclose(f);
        char options[512];
        snprintf(options, sizeof options,
                 "-D VALUE=3 -DOTHER=4 -D STR=\\\"a\\ b\\\" -I \"%s\" -cl-mad-enable -w "
                 "-cl-denorms-are-zero -cl-std=CL1.1",
                 dir);
        struct cc_program *p = build(source, options);
        if (p) {
            const struct cc_kernel_info *k = cc_program_kernel(p, 0);
            int out[2] = {0, 0};
            struct args a = args_for(k);
            set_buffer(&a, 0, out);
            run1(&a, 1, 1);
            CHECK(out[0] == 107 && out[1] == 4, "macros: %d %d", out[0], out[1]);
            free(a.allocation);
            cc_program_free(p);
        }
        remove(path);
        rmdir(dir);
    }

    build_fails("kernel void k(global int *p)\n{\n    p[0] = 1\n}\n", "", CL_BUILD_PROGRAM_FAILURE,
                "input.cl:3:13: error: expected ';'");
    build_fails("kernel void k(global int *p) {}\n", "-cl-fancy-option", CL_INVALID_BUILD_OPTIONS,
                "-cl-fancy-option");
    build_fails("kernel void k(global int *p) {}\n", "-D", CL_INVALID_BUILD_OPTIONS, "-D");
    build_fails("kernel void k(global int *p) {}\n", "-cl-std=CL2.1", CL_INVALID_BUILD_OPTIONS,
                "CL2.1");
    build_fails("kernel void k(global int *p) {}\n", "-D \"unterminated", CL_INVALID_BUILD_OPTIONS,
                "quote");
    build_fails("int undefined_function(int);\n"
                "kernel void k(global int *p) { p[0] = undefined_function(p[1]); }\n",
                "", CL_BUILD_PROGRAM_FAILURE, "undefined_function");
    build_fails("kernel void k(global int *p) { p[0] = undeclared; }\n", "-Werror",
                CL_BUILD_PROGRAM_FAILURE, "undeclared");
    build_fails("kernel void k(global char *p) { p[0] = 1000; }\n", "-Werror",
                CL_BUILD_PROGRAM_FAILURE, "error: implicit conversion");

    /* an empty program builds, with no kernels */
    char *log = NULL;
    struct cc_program *p = NULL;
    cl_int err = cc_build("", "", &log, &p);
    CHECK(err == CL_SUCCESS && p && cc_program_num_kernels(p) == 0, "empty source: %d", err);
    free(log);
    cc_program_free(p);
    err = cc_build("", NULL, &log, &p);
    CHECK(err == CL_SUCCESS, "NULL options: %d", err);
    free(log);
    cc_program_free(p);
}

static void test_attributes_and_modes(void)
{
    static const char source[] =
        "__attribute__((reqd_work_group_size(8, 4, 1))) __attribute__((vec_type_hint(uint4)))\n"
        "kernel void a(global int *p) { p[get_global_id(0)] = 1; }\n"
        "__attribute__((work_group_size_hint(16, 1, 1)))\n"
        "kernel void b(global int *p, int n) { a(p); if (get_global_id(0) == 0) p[0] += n; }\n";
    for (int mode = 0; mode < 3; mode++) {
        static const char *const options[] = {"", "-cl-opt-disable", "-g -cl-fast-relaxed-math"};
        struct cc_program *p = build(source, options[mode]);
        if (!p)
            continue;
        const struct cc_kernel_info *a = cc_program_find_kernel(p, "a");
        const struct cc_kernel_info *b = cc_program_find_kernel(p, "b");
        CHECK(a->reqd_work_group_size[0] == 8 && a->reqd_work_group_size[1] == 4 &&
                  a->reqd_work_group_size[2] == 1,
              "reqd_work_group_size");
        CHECK(!strcmp(a->attributes, "reqd_work_group_size(8,4,1) vec_type_hint(uint4)"),
              "attributes '%s'", a->attributes);
        CHECK(!strcmp(b->attributes, "work_group_size_hint(16,1,1)"), "attributes '%s'",
              b->attributes);
        CHECK(b->work_group_size_hint[0] == 16, "hint");
        /* a kernel calling a kernel */
        int data[8] = {0};
        struct args args = args_for(b);
        set_buffer(&args, 0, data);
        int n = 5;
        set_value(&args, 1, &n, sizeof n);
        run1(&args, 8, 8);
        int bad = 0;
        for (int i = 0; i < 8; i++)
            bad += data[i] != (i == 0 ? 1 + 5 : 1);
        CHECK(bad == 0, "kernel calling a kernel (mode %d): %d wrong", mode, bad);
        free(args.allocation);
        cc_program_free(p);
    }
}

/* Special values of 7.5.1 and other exact results, compared bit for bit
 * (NaN with NaN). */
static void test_special_values(void)
{
    static const char source[] =
        "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
        "kernel void specials(global float *f, global double *d, global int *i, global half *h,\n"
        "                     global long *l)\n"
        "{\n"
        "    float ip; int q;\n"
        "    f[0] = sinpi(-0.0f); f[1] = sinpi(3.0f); f[2] = sinpi(-3.0f); f[3] = cospi(2.5f);\n"
        "    f[4] = tanpi(0.5f); f[5] = tanpi(1.5f); f[6] = tanpi(2.0f); f[7] = tanpi(-1.0f);\n"
        "    f[8] = fract(-0.0f, &ip); f[9] = fract(-INFINITY, &ip); f[10] = ip;\n"
        "    f[11] = fract(NAN, &ip); f[12] = fract(-1e-30f, &ip); f[13] = modf(-INFINITY, &ip);\n"
        "    f[14] = powr(-1.0f, 2.0f); f[15] = powr(0.0f, 0.0f); f[16] = powr(1.0f, INFINITY);\n"
        "    f[17] = powr(2.0f, 3.0f); f[18] = pown(-2.0f, 3); f[19] = pown(NAN, 0);\n"
        "    f[20] = rootn(-8.0f, 3); f[21] = rootn(-8.0f, 2); f[22] = rootn(-0.0f, -3);\n"
        "    f[23] = acospi(-1.0f); f[24] = atan2pi(0.0f, -0.0f); f[25] = asinpi(1.0f);\n"
        "    f[26] = remquo(7.0f, 2.0f, &q); i[0] = q; f[27] = remquo(-1000.0f, 3.0f, &q); i[1] = "
        "q;\n"
        "    f[28] = maxmag(-3.0f, 2.0f); f[29] = minmag(-3.0f, 2.0f); f[30] = fdim(1.0f, NAN);\n"
        "    f[31] = fdim(1.0f, 2.0f); f[32] = nan(5u) ; i[2] = ilogb(NAN); i[3] = ilogb(0.0f);\n"
        "    i[4] = ilogb(1e-40f); f[33] = frexp(-0x1.8p-140f, &q); i[5] = q;\n"
        "    f[34] = ldexp(3.0f, -150); f[35] = copysign(2.0f, -0.0f); f[36] = fmin(NAN, 3.0f);\n"
        "    f[37] = sign(-0.0f); f[38] = sign(NAN); f[39] = lgamma_r(-2.5f, &q); i[6] = q;\n"
        "    d[0] = sinpi(-4.0); d[1] = cospi(0.5); d[2] = tanpi(-0.25); d[3] = fract(-1e-300, d + "
        "9);\n"
        "    d[4] = exp10(2.0); d[5] = cbrt(-27.0); d[6] = length((double4)(1e300, 1e300, 0, 0));\n"
        "    d[7] = length((double2)(3e-320, 4e-320)); d[8] = normalize((double2)(INFINITY, "
        "1.0)).x;\n"
        "    f[40] = length((float4)(1e30f, 1e30f, 1e30f, 1e30f)); f[41] = "
        "normalize((float2)(-INFINITY, INFINITY)).y;\n"
        "    f[42] = distance((float2)(0, 0), (float2)(3, 4));\n"
        "    vstore_half_rtz(1.0009765625f + 0x1p-20f, 0, h); vstore_half_rtp(1.0f + 0x1p-20f, 1, "
        "h);\n"
        "    vstore_half_rtn(-1.0f - 0x1p-20f, 2, h); vstore_half(65520.0f, 3, h); "
        "vstore_half_rtz(65520.0f, 4, h);\n"
        "    vstore_half_rte(0x1p-25f, 5, h); vstore_half_rtp(0x1p-30f, 6, h); "
        "vstore_half4_rtn((float4)(1, 2, 3, 4), 2, h);\n"
        "    vstore_half(1.0 / 3.0, 12, h); vstore_half_rtz((double)NAN, 13, h);\n"
        "    f[43] = vload_half(0, h) + vload_half4(2, h).w;\n"
        "    uint4 m = (uint4)(3, 0, 5, 6); float4 s = shuffle2((float4)(1, 2, 3, 4), (float4)(5, "
        "6, 7, 8), m);\n"
        "    f[44] = s.x * 1000 + s.y * 100 + s.z * 10 + s.w;\n"
        "    l[0] = atom_add(l + 1, 5L); l[2] = atom_max((global ulong *)l + 3, 7UL); l[4] = "
        "mul_hi(-1L, 3L);\n"
        "    l[5] = mad_sat(0x4000000000000000L, 4L, 1L); l[6] = (long)popcount(-1L); l[7] = "
        "rotate(1L, 65L);\n"
        "}\n";
    struct cc_program *p = build(source, "");
    if (!p)
        return;
    const struct cc_kernel_info *k = cc_program_kernel(p, 0);
    float f[64];
    double d[16];
    int iv[16];
    unsigned short h[16];
    long l[8] = {0, 10, 0, 3, 0, 0, 0, 0};
    memset(f, 0x55, sizeof f);
    struct args a = args_for(k);
    set_buffer(&a, 0, f);
    set_buffer(&a, 1, d);
    set_buffer(&a, 2, iv);
    set_buffer(&a, 3, h);
    set_buffer(&a, 4, l);
    run1(&a, 1, 1);
    const float nanf_ = NAN, inf = INFINITY;
    const float expect[] = {
        /* 0 sinpi, cospi, tanpi */ -0.0f, 0.0f, -0.0f, 0.0f, inf, -inf, 0.0f, 0.0f,
        /* 8 fract, modf; 7.5.1: fract(-inf) = -0 */ -0.0f, -0.0f, -inf, nanf_, 0x1.fffffep-1f,
        -0.0f,
        /* 14 powr, pown, rootn */ nanf_, nanf_, nanf_, 8.0f, -8.0f, 1.0f, -2.0f, nanf_, -inf,
        /* 23 acospi, atan2pi, asinpi */ 1.0f, 1.0f, 0.5f,
        /* 26 remquo */ -1.0f, -1.0f,
        /* 28 maxmag, minmag, fdim, nan */ -3.0f, 2.0f, nanf_, 0.0f, nanf_,
        /* 33 frexp, ldexp (1.5 * 2^-149 is a tie, to even) */ -0.75f, 0x1p-148f,
        /* 35 copysign, fmin, sign */ -2.0f, 3.0f, -0.0f, 0.0f,
        /* 39 lgamma_r */ lgammaf(-2.5f),
        /* 40 length (below), normalize((-inf, inf)) = (-1, 1) normalized, distance */
        0.0f, 0x1.6a09e6p-1f, 5.0f,
        /* 43 vload_half (below), shuffle2 */ 0.0f, 4167.0f};
    int bad = 0;
    for (unsigned j = 0; j < sizeof expect / sizeof expect[0]; j++) {
        if (j == 40 || j == 43)
            continue; /* checked below */
        bool same = (isnan(expect[j]) && isnan(f[j])) ||
                    (!isnan(expect[j]) && !memcmp(&expect[j], &f[j], sizeof(float)));
        if (!same) {
            printf("  specials f[%u] = %a, expected %a\n", j, f[j], expect[j]);
            bad++;
        }
    }
    CHECK(fabsf(f[40] - 2e30f) <= 2e30f * 1e-6f, "length of big float4: %g", f[40]);
    CHECK(iv[0] == 4 && (iv[1] & 127) == (-333 & 127) && iv[1] < 0, "remquo quotients %d %d", iv[0],
          iv[1]);
    CHECK(iv[2] == INT32_MAX && iv[3] == INT32_MIN && iv[4] == -133 && iv[5] == -139,
          "ilogb/frexp %d %d %d %d", iv[2], iv[3], iv[4], iv[5]);
    CHECK(iv[6] == -1, "lgamma_r sign %d (gamma(-2.5) < 0)", iv[6]);
    CHECK(d[0] == 0 && signbit(d[0]) && d[1] == 0 && !signbit(d[1]) &&
              fabs(d[2] + 1.0) <= 4 * 0x1p-53 /* 6 ulp allowed */ && d[3] == 0x1.fffffffffffffp-1 &&
              d[9] == -1.0,
          "double pi functions %a %a %a %a", d[0], d[1], d[2], d[3]);
    CHECK(d[4] == 100.0 && fabs(d[5] + 3.0) <= 2 * 0x1p-51 /* 2 ulp */, "exp10/cbrt %a %a", d[4],
          d[5]);
    CHECK(fabs(d[6] - sqrt(2.0) * 1e300) <= 1e285 && fabs(d[7] - 5e-320) <= 1e-323 && d[8] == 1.0,
          "double length/normalize %a %a %a", d[6], d[7], d[8]);
    /* half bits: rtz 1.0009765625+ -> 0x3c01; rtp 1+2^-20 -> 0x3c01; rtn -(1+2^-20) -> 0xbc01;
     * 65520 rte -> inf 0x7c00, rtz -> 0x7bff; 2^-25 rte -> 0 (tie to even), 2^-30 rtp -> 0x0001;
     * (1,2,3,4) at 8..11; 1/3 -> 0x3555; NaN -> a NaN */
    const unsigned short half_expect[] = {0x3c01, 0x3c01, 0xbc01, 0x7c00, 0x7bff, 0x0000, 0x0001,
                                          0,      0x3c00, 0x4000, 0x4200, 0x4400, 0x3555};
    for (unsigned j = 0; j < 13; j++) {
        if (j == 7)
            continue;
        if (h[j] != half_expect[j]) {
            printf("  half[%u] = 0x%04x, expected 0x%04x\n", j, h[j], half_expect[j]);
            bad++;
        }
    }
    CHECK((h[13] & 0x7c00) == 0x7c00 && (h[13] & 0x3ff), "half NaN 0x%04x", h[13]);
    CHECK(f[43] == 0x1.004p+0f + 4.0f, "vload_half %a", f[43]);
    CHECK(l[0] == 10 && l[1] == 15 && l[2] == 3 && l[3] == 7 && l[4] == -1 && l[5] == INT64_MAX &&
              l[6] == 64 && l[7] == 2,
          "long builtins %ld %ld %ld %ld %ld %ld %ld %ld", l[0], l[1], l[2], l[3], l[4], l[5], l[6],
          l[7]);
    CHECK(bad == 0, "special values: %d wrong", bad);
    free(a.allocation);
    cc_program_free(p);

    build_fails("int f(int n) { return n ? n * f(n - 1) : 1; }\n"
                "kernel void r(global int *p) { p[0] = f(p[1]); }\n",
                "", CL_BUILD_PROGRAM_FAILURE, "recursi");
    /* no arguments at all */
    p = build("kernel void nothing(void) {}\n", "");
    if (p) {
        const struct cc_kernel_info *n = cc_program_kernel(p, 0);
        CHECK(n->num_args == 0 && n->arg_block_size == 0, "empty kernel");
        struct args e = args_for(n);
        run1(&e, 4, 2);
        free(e.allocation);
        cc_program_free(p);
    }
}

/* Concurrent builds on several threads, each running its own kernel. */
static void *build_thread(void *arg)
{
    int id = (int)(intptr_t)arg;
    char source[256];
    snprintf(source, sizeof source,
             "kernel void t(global int *p) { p[get_global_id(0)] = %d * (int)get_global_id(0); }\n",
             id);
    for (int round = 0; round < 3; round++) {
        struct cc_program *p = build(source, "");
        if (!p)
            return NULL;
        int data[64];
        struct args a = args_for(cc_program_kernel(p, 0));
        set_buffer(&a, 0, data);
        run1(&a, 64, 16);
        for (int i = 0; i < 64; i++)
            if (data[i] != id * i) {
                failures++;
                printf("FAIL: thread %d round %d: data[%d] = %d\n", id, round, i, data[i]);
                break;
            }
        free(a.allocation);
        cc_program_free(p);
    }
    return NULL;
}

static void test_threads(void)
{
    pthread_t threads[4];
    for (int i = 0; i < 4; i++)
        pthread_create(&threads[i], NULL, build_thread, (void *)(intptr_t)(i + 1));
    for (int i = 0; i < 4; i++)
        pthread_join(threads[i], NULL);
}

/* The kernel cache's hash (sha256.c) against the examples of FIPS 180-2
 * (appendix B), the last one fed in uneven pieces. */
static void test_sha256(void)
{
    static const struct {
        const char *message;
        const char *digest;
    } examples[] = {
        {"", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
        {"abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
        {"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
         "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"},
    };
    for (size_t i = 0; i < sizeof examples / sizeof examples[0]; i++) {
        unsigned char digest[CC_SHA256_SIZE];
        char hex[2 * CC_SHA256_SIZE + 1];
        cc_sha256(examples[i].message, strlen(examples[i].message), digest);
        for (int b = 0; b < CC_SHA256_SIZE; b++)
            sprintf(hex + 2 * b, "%02x", digest[b]);
        CHECK(!strcmp(hex, examples[i].digest), "sha256(\"%s\") = %s", examples[i].message, hex);
    }
    static char million[1000000];
    memset(million, 'a', sizeof million);
    struct cc_sha256 s;
    cc_sha256_init(&s);
    for (size_t at = 0, step = 1; at < sizeof million; at += step, step = step * 7 % 997 + 1)
        cc_sha256_update(&s, million + at, at + step > sizeof million ? sizeof million - at : step);
    unsigned char digest[CC_SHA256_SIZE];
    char hex[2 * CC_SHA256_SIZE + 1];
    cc_sha256_final(&s, digest);
    for (int b = 0; b < CC_SHA256_SIZE; b++)
        sprintf(hex + 2 * b, "%02x", digest[b]);
    CHECK(!strcmp(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"),
          "sha256(a million a) = %s", hex);
}

/* A program-scope block calling a work-item function (OpenCL C 6.12):
 * its invoke function stays referenced by the block literal until O3, but
 * runs only inlined into the kernel, where get_global_id is lowered; the
 * build's check for undefined functions must not count it. */
static void test_global_block(void)
{
    struct cc_program *p = build("int __constant k = 7;\n"
                                 "int (^__constant block)(int) = ^int(int n) {\n"
                                 "    return k * n * (1 + (int)get_global_id(0));\n"
                                 "};\n"
                                 "kernel void f(global int *out) {\n"
                                 "    out[get_global_id(0)] = block(3);\n"
                                 "}\n",
                                 "-cl-std=CL2.0");
    const struct cc_kernel_info *k = p ? cc_program_find_kernel(p, "f") : NULL;
    CHECK(k && k->wg, "global block kernel missing");
    if (!k || !k->wg) {
        cc_program_free(p);
        return;
    }
    int out[10] = {0};
    struct args a = args_for(k);
    set_buffer(&a, 0, out);
    run1(&a, 10, 5);
    int bad = 0;
    for (int i = 0; i < 10; i++)
        bad += out[i] != 21 * (i + 1);
    CHECK(bad == 0, "global block: %d wrong results", bad);
    free(a.allocation);
    cc_program_free(p);
}


/* order.c: a launch copy of a kernel that stores down columns (a
 * transpose) runs its groups in bands of rows; one that stores along rows
 * keeps row-major order. The band comes with the copy, at the launch that
 * makes it (the third with the same facts). */
static void test_group_order(void)
{
    struct cc_program *p = build(
        "kernel void transpose(global const int *in, global int *out, int w, int h) {\n"
        "    int x = get_global_id(0), y = get_global_id(1);\n"
        "    out[x * h + y] = in[y * w + x];\n"
        "}\n"
        "kernel void rows(global const int *in, global int *out, int w) {\n"
        "    int x = get_global_id(0), y = get_global_id(1);\n"
        "    out[y * w + x] = in[y * w + x] + in[x * w + y];\n"
        "}\n"
        "kernel void tiles(global const float *in, global float *out, int n) {\n"
        "    local float tile[16][17];\n"
        "    int lx = get_local_id(0), ly = get_local_id(1);\n"
        "    int bx = get_group_id(0) * 16, by = get_group_id(1) * 16;\n"
        "    tile[ly][lx] = in[(by + ly) * n + bx + lx];\n"
        "    barrier(CLK_LOCAL_MEM_FENCE);\n"
        "    out[(bx + ly) * n + by + lx] = tile[lx][ly];\n"
        "}\n",
        "");
    static const struct {
        const char *name;
        size_t local[3];
        unsigned band;
    } cases[] = {
        {"transpose", {8, 8, 1}, 32},  /* 1 KiB / (8 rows * 4 bytes) */
        {"transpose", {16, 2, 1}, 64}, /* 128, at most 64 */
        {"rows", {8, 8, 1}, 0},
        {"tiles", {16, 16, 1}, 16},
    };
    for (size_t i = 0; p && i < sizeof cases / sizeof cases[0]; i++) {
        const struct cc_kernel_info *k = cc_program_find_kernel(p, cases[i].name);
        struct cc_launch_facts facts;
        memset(&facts, 0, sizeof facts);
        memcpy(facts.local_size, cases[i].local, sizeof facts.local_size);
        cc_wg_fn wg = NULL, full = NULL;
        unsigned band = 99;
        for (int launch = 0; k && launch < 3; launch++)
            CHECK(cc_kernel_code_for_launch(p, k, &facts, false, &wg, &full, &band) == CL_SUCCESS,
                  "%s: code for a launch", cases[i].name);
        CHECK(k && full, "%s: no copy at the third launch", cases[i].name);
        CHECK(band == cases[i].band, "%s %zux%zu: band %u, want %u", cases[i].name,
              cases[i].local[0], cases[i].local[1], band, cases[i].band);
    }
    CHECK(p, "group order program");
    cc_program_free(p);
}

/* fences.c: constant fences become fence instructions with their scope and
 * !mmra tags; a relaxed one disappears; one with run-time flags stays a
 * call. Then a kernel with fences of each kind computes as it should. */
static void test_fences(void)
{
    static const char ir[] =
        "declare void @_Z22atomic_work_item_fencej12memory_order12memory_scope(i32, i32, i32)\n"
        "declare void @_Z9mem_fencej(i32)\n"
        "declare void @_Z14read_mem_fencej(i32)\n"
        "declare void @_Z15write_mem_fencej(i32)\n"
        "define void @f(i32 %flags) {\n"
        "  call void @_Z22atomic_work_item_fencej12memory_order12memory_scope(i32 2, i32 5, i32 2)\n"
        "  call void @_Z22atomic_work_item_fencej12memory_order12memory_scope(i32 1, i32 4, i32 2)\n"
        "  call void @_Z22atomic_work_item_fencej12memory_order12memory_scope(i32 6, i32 3, i32 1)\n"
        "  call void @_Z22atomic_work_item_fencej12memory_order12memory_scope(i32 2, i32 0, i32 2)\n"
        "  call void @_Z22atomic_work_item_fencej12memory_order12memory_scope(i32 %flags, i32 5, i32 2)\n"
        "  call void @_Z9mem_fencej(i32 3)\n"
        "  call void @_Z14read_mem_fencej(i32 2)\n"
        "  call void @_Z15write_mem_fencej(i32 1)\n"
        "  ret void\n"
        "}\n";
    LLVMContextRef context = LLVMContextCreate();
    LLVMMemoryBufferRef buffer =
        LLVMCreateMemoryBufferWithMemoryRangeCopy(ir, sizeof ir - 1, "fences");
    LLVMModuleRef module = NULL;
    char *message = NULL;
    CHECK(!LLVMParseIRInContext(context, buffer, &module, &message), "fence IR: %s",
          message ? message : "");
    LLVMDisposeMessage(message);
    if (module) {
        cc_lower_fences(module);
        char *text = LLVMPrintModuleToString(module);
        /* in order: global at device scope (a processor fence), local at
         * device scope and global+image at work-group scope (no
         * instruction), mem_fence, read_mem_fence, write_mem_fence */
        const char *want[] = {
            "fence seq_cst, !mmra !",
            "fence syncscope(\"singlethread\") acq_rel, !mmra !",
            "fence syncscope(\"singlethread\") release, !mmra !",
            "call void @_Z22atomic_work_item_fencej12memory_order12memory_scope(i32 %flags",
            "fence syncscope(\"singlethread\") seq_cst, !mmra !",
            "fence syncscope(\"singlethread\") acquire, !mmra !",
            "fence syncscope(\"singlethread\") release, !mmra !",
            "!{!\"opencl-fence-mem\", !\"global\"}",
            "!{!\"opencl-fence-mem\", !\"local\"}",
            "!{!\"opencl-fence-mem\", !\"image\"}",
        };
        const char *at = text;
        for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
            const char *found = strstr(at, want[i]);
            CHECK(found, "lowered fences: no '%s' after the previous one in:\n%s", want[i], text);
            if (found && i < 7)
                at = found + 1;
        }
        int calls = 0;
        for (const char *c = text; (c = strstr(c, "call void @_Z")); c++)
            calls++;
        CHECK(calls == 1, "lowered fences: %d calls left, want the one with run-time flags", calls);
        LLVMDisposeMessage(text);
        LLVMDisposeModule(module);
    }
    LLVMContextDispose(context);

    struct cc_program *p = build(
        "kernel void f(global int *out, local int *t) {\n"
        "    size_t i = get_global_id(0), l = get_local_id(0);\n"
        "    t[l] = (int)i;\n"
        "    atomic_work_item_fence(CLK_LOCAL_MEM_FENCE, memory_order_release, memory_scope_work_group);\n"
        "    mem_fence(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);\n"
        "    out[i] = t[l] * 3;\n"
        "    atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_seq_cst, memory_scope_device);\n"
        "    write_mem_fence(CLK_GLOBAL_MEM_FENCE);\n"
        "    out[i] += 1;\n"
        "    read_mem_fence(CLK_GLOBAL_MEM_FENCE);\n"
        "    atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_relaxed, memory_scope_device);\n"
        "}\n",
        "-cl-std=CL2.0");
    const struct cc_kernel_info *k = p ? cc_program_find_kernel(p, "f") : NULL;
    CHECK(k && k->wg, "fence kernel missing");
    if (!k || !k->wg) {
        cc_program_free(p);
        return;
    }
    int out[64] = {0};
    struct args a = args_for(k);
    set_buffer(&a, 0, out);
    set_local(&a, 1, 64 * sizeof(int));
    run1(&a, 64, 16);
    int bad = 0;
    for (int i = 0; i < 64; i++)
        bad += out[i] != 3 * i + 1;
    CHECK(bad == 0, "fence kernel: %d wrong results", bad);
    free(a.allocation);
    cc_program_free(p);
}

int main(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "vadd")) {
        struct cc_program *p = build(vadd_source, argc > 2 ? argv[2] : "");
        cc_program_free(p);
        return failures != 0;
    }
    printf("host cpu: %s\nextensions: %s\n", cc_host_cpu_name(), cc_device_extensions());
    test_sha256();
    test_vadd();
    test_global_block();
    test_fences();
    test_2d();
    test_local();
    test_values();
    test_math();
    test_integer_relational();
    test_cl20();
    test_special_values();
    test_options_and_errors();
    test_attributes_and_modes();
    test_threads();
    test_group_order();
    if (failures)
        printf("%d FAILED\n", failures);
    else
        printf("all compiler tests passed\n");
    return failures != 0;
}
