/* test_vector_compares.c - comparisons of the components of vectors in
 * global memory, reduced by any/all or used by select (`any(isless(a[i],
 * b[i]))` of float4): the loop vectorizer loads each operand's vectors as
 * one interleaved group and compares the group at once, and with AVX-512
 * the compiler then compares each component's lanes on their own instead
 * of shuffling the comparison's mask (src/compiler/mask_shuffles.c). Every
 * predicate kind (ordered, unordered, integer signed and unsigned), float,
 * double and integer vectors of 4 and 8, inputs with NaN, infinities and
 * both zeros; run with a global offset, groups that do not divide the
 * range, and the local size left to the driver. Compared with the host's
 * comparisons, which are exact. */
#include <stdbool.h>
#include <stdint.h>

#include "../harness.h"

#define REDUCE(name, T, expression)                                                                \
    "kernel void " name "(global const " T " *a, global const " T " *b, global int *out)\n"        \
    "{\n"                                                                                          \
    "    size_t i = get_global_id(0);\n"                                                           \
    "    " T " x = a[i], y = b[i];\n"                                                              \
    "    out[i] = " expression ";\n"                                                               \
    "}\n"

static const char *source = "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n" /* */
    REDUCE("float4_any_less", "float4", "any(isless(x, y))")
        REDUCE("float4_all_greater_equal", "float4", "all(isgreaterequal(x, y))")
            REDUCE("float4_any_less_greater", "float4", "any(islessgreater(x, y))")
                REDUCE("float4_any_unordered", "float4", "any(isunordered(x, y))")
                    REDUCE("float8_any_not_equal", "float8", "any(isnotequal(x, y))")
                        REDUCE("double4_any_less", "double4",
                               "any(isless(x, y))") REDUCE("int4_any_greater", "int4", "any(x > y)")
                            REDUCE("uint8_all_less_equal", "uint8",
                                   "all(x <= y)") "kernel void float4_select(global const float4 "
                                                  "*a, global const float4 *b,\n"
                                                  "                          global float4 *out)\n"
                                                  "{\n"
                                                  "    size_t i = get_global_id(0);\n"
                                                  "    float4 x = a[i], y = b[i];\n"
                                                  "    out[i] = select(x, y, isless(x, y));\n"
                                                  "}\n";

enum { N = 3000, OFFSET = 5, VALUES = 9 };

enum kind { FLOAT, DOUBLE, INT, UINT };
enum predicate { LESS, GREATER_EQUAL, LESS_GREATER, UNORDERED, NOT_EQUAL, GREATER, LESS_EQUAL };

static const struct test {
    const char *name;
    enum kind kind;
    int width;
    enum predicate predicate;
    bool all; /* all() rather than any() */
} tests[] = {
    {"float4_any_less", FLOAT, 4, LESS, false},
    {"float4_all_greater_equal", FLOAT, 4, GREATER_EQUAL, true},
    {"float4_any_less_greater", FLOAT, 4, LESS_GREATER, false},
    {"float4_any_unordered", FLOAT, 4, UNORDERED, false},
    {"float8_any_not_equal", FLOAT, 8, NOT_EQUAL, false},
    {"double4_any_less", DOUBLE, 4, LESS, false},
    {"int4_any_greater", INT, 4, GREATER, false},
    {"uint8_all_less_equal", UINT, 8, LESS_EQUAL, true},
};

static uint32_t mix(uint32_t x)
{
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    return x ^ (x >> 16);
}

/* Which of the VALUES component j of an operand holds (k = 0 for a, 1 for
 * b, in vectors of `width`): in half the items b equals a, so that any()
 * and all() are both often true and often false. */
static unsigned pick(int k, size_t j, int width)
{
    if (k == 1 && mix((uint32_t)(j / (size_t)width) * 2 + 1) % 2)
        k = 0;
    return mix((uint32_t)j * 2 + (uint32_t)k) % VALUES;
}

/* values that make each predicate true and false, NaN and both zeros
 * among them */
static double value(int k, size_t j, int width)
{
    static const double values[VALUES] = {-2.0, -1.0, -0.0, 0.0, 1.0, 2.0, NAN, INFINITY, 1.0};
    return values[pick(k, j, width)];
}

static int integer(int k, size_t j, int width)
{
    return (int)pick(k, j, width) - 4;
}

static bool holds(enum predicate p, double x, double y)
{
    switch (p) {
    case LESS: return x < y;
    case GREATER_EQUAL: return x >= y;
    case LESS_GREATER: return x < y || x > y;
    case UNORDERED: return isnan(x) || isnan(y);
    case NOT_EQUAL: return x != y; /* true when either is NaN */
    case GREATER: return x > y;
    case LESS_EQUAL: return x <= y;
    }
    return false;
}

static bool holds_int(const struct test *t, int x, int y)
{
    if (t->kind == UINT)
        return holds(t->predicate, (double)(uint32_t)x, (double)(uint32_t)y);
    return holds(t->predicate, x, y);
}

static size_t element_size(enum kind kind)
{
    return kind == DOUBLE ? sizeof(double) : 4;
}

static cl_mem operand(struct harness *h, const struct test *t, int k, size_t count)
{
    size_t size = element_size(t->kind);
    char *data = malloc(count * size);
    REQUIRE(data);
    for (size_t j = 0; j < count; j++) {
        if (t->kind == FLOAT)
            ((float *)data)[j] = (float)value(k, j, t->width);
        else if (t->kind == DOUBLE)
            ((double *)data)[j] = value(k, j, t->width);
        else
            ((int32_t *)data)[j] = integer(k, j, t->width);
    }
    cl_mem mem = harness_buffer(h, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, count * size, data);
    free(data);
    return mem;
}

static void run_reduction(struct harness *h, cl_program program, const struct test *t,
                          const size_t *local)
{
    size_t count = (size_t)t->width * (N + OFFSET);
    cl_mem a = operand(h, t, 0, count), b = operand(h, t, 1, count);
    int *got = malloc((N + OFFSET) * sizeof(int));
    REQUIRE(got);
    for (size_t i = 0; i < N + OFFSET; i++)
        got[i] = -7; /* no kernel result: it writes 0 or 1 */
    cl_mem out = harness_buffer(h, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                                (N + OFFSET) * sizeof(int), got);
    cl_kernel kernel = harness_kernel(program, t->name);
    REQUIRE(kernel);
    CHECK_OK(harness_args(kernel, 3, ARG(a), ARG(b), ARG(out)));
    size_t offset = OFFSET, global = N;
    CHECK_OK(clEnqueueNDRangeKernel(h->queue, kernel, 1, &offset, &global, local, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(h->queue, out, CL_TRUE, 0, (N + OFFSET) * sizeof(int), got, 0,
                                 NULL, NULL));
    long bad = 0, trues = 0;
    for (size_t i = 0; i < N + OFFSET; i++) {
        int want = -7;
        if (i >= OFFSET) {
            int found = 0;
            for (int c = 0; c < t->width; c++) {
                size_t j = i * (size_t)t->width + (size_t)c;
                found += t->kind == INT || t->kind == UINT
                             ? holds_int(t, integer(0, j, t->width), integer(1, j, t->width))
                             : holds(t->predicate, value(0, j, t->width), value(1, j, t->width));
            }
            want = t->all ? found == t->width : found > 0;
            trues += want;
        }
        if (got[i] != want && bad++ < 3)
            fprintf(stderr, "%s: item %zu is %d, expected %d\n", t->name, i, got[i], want);
    }
    char what[96];
    snprintf(what, sizeof what, "%s, local size %zu", t->name, local ? *local : 0);
    CHECK_NONE_WRONG(bad, what);
    /* the inputs make both results common, or the test would not tell */
    CHECK(trues > N / 10 && trues < N - N / 10);
    free(got);
    clReleaseKernel(kernel);
    clReleaseMemObject(a), clReleaseMemObject(b), clReleaseMemObject(out);
}

static void run_select(struct harness *h, cl_program program, const size_t *local)
{
    const struct test t = {"float4_select", FLOAT, 4, LESS, false};
    size_t count = 4 * (size_t)(N + OFFSET);
    cl_mem a = operand(h, &t, 0, count), b = operand(h, &t, 1, count);
    cl_mem out = harness_buffer(h, CL_MEM_WRITE_ONLY, count * sizeof(float), NULL);
    cl_kernel kernel = harness_kernel(program, t.name);
    REQUIRE(kernel);
    CHECK_OK(harness_args(kernel, 3, ARG(a), ARG(b), ARG(out)));
    size_t offset = OFFSET, global = N;
    CHECK_OK(clEnqueueNDRangeKernel(h->queue, kernel, 1, &offset, &global, local, 0, NULL, NULL));
    float *got = malloc(count * sizeof(float));
    REQUIRE(got);
    CHECK_OK(
        clEnqueueReadBuffer(h->queue, out, CL_TRUE, 0, count * sizeof(float), got, 0, NULL, NULL));
    long bad = 0;
    for (size_t j = 4 * OFFSET; j < count; j++) {
        /* select(x, y, c): y where c's sign bit is set, so x < y picks y */
        float x = (float)value(0, j, 4), y = (float)value(1, j, 4), want = x < y ? y : x;
        bool same = memcmp(&got[j], &want, sizeof want) == 0 || (isnan(got[j]) && isnan(want));
        if (!same && bad++ < 3)
            fprintf(stderr, "%s: component %zu is %g, expected %g\n", t.name, j, got[j], want);
    }
    char what[96];
    snprintf(what, sizeof what, "%s, local size %zu", t.name, local ? *local : 0);
    CHECK_NONE_WRONG(bad, what);
    free(got);
    clReleaseKernel(kernel);
    clReleaseMemObject(a), clReleaseMemObject(b), clReleaseMemObject(out);
}

int main(void)
{
    struct harness h = harness_open();
    cl_program program = harness_build(&h, source, "-cl-std=CL2.0");
    REQUIRE(program);
    /* 64 four times: the third launch makes a launch copy (codegen.c) */
    static const size_t locals[] = {1, 7, 64, 64, 64, 64, 256};
    for (int l = -1; l < (int)(sizeof locals / sizeof locals[0]); l++) {
        const size_t *local = l < 0 ? NULL : &locals[l];
        for (size_t t = 0; t < sizeof tests / sizeof tests[0]; t++)
            run_reduction(&h, program, &tests[t], local);
        run_select(&h, program, local);
    }
    clReleaseProgram(program);
    harness_close(&h);
    return harness_finish();
}
