/* builtins.c - the built-in functions one at a time, on every platform
 * asked for, side by side: each row is a kernel computing one expression
 * of a built-in per work-item over N items (`o[i] = sinpi(x)`, with x and
 * y loaded from two buffers), built and launched on each platform in turn;
 * the figure is the best of the repetitions after a warm-up launch, in
 * milliseconds, and the ratio is other / first (above 1: the first
 * platform is faster). The end lists the rows where the first platform is
 * behind, which is what this bench is for: finding the built-ins whose
 * code does not vectorize or takes a slow path. Results are not checked
 * here (tests/kernels does that, at the spec's tolerance).
 *
 * usage: cpucl_bench_builtins [-r repetitions] [-n items] [-f substring]
 *                             [platform-name ...]
 *        (default 3, 4 Mi items, every row; cpucl and PoCL's "Portable
 *        Computing Language")
 */
#include <CL/cl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* argument type, result type, expression of x and y (and i, the index) */
static const struct row {
    const char *type, *result, *expression;
} rows[] = {
    /* math (6.13.2), float: inputs 0.01 .. 9.7, y 0.5 .. 2.3 */
    {"float", "float", "sin(x)"},
    {"float", "float", "cos(x)"},
    {"float", "float", "sin(x * 1e5f)"}, /* beyond libmvec's vector reduction */
    {"float", "float", "tan(x)"},
    {"float", "float", "asin(x * 0.1f)"},
    {"float", "float", "acos(x * 0.1f)"},
    {"float", "float", "atan(x)"},
    {"float", "float", "sinh(x)"},
    {"float", "float", "cosh(x)"},
    {"float", "float", "tanh(x)"},
    {"float", "float", "asinh(x)"},
    {"float", "float", "acosh(x + 1.0f)"},
    {"float", "float", "atanh(x * 0.1f)"},
    {"float", "float", "sinpi(x)"},
    {"float", "float", "cospi(x)"},
    {"float", "float", "tanpi(x)"},
    {"float", "float", "asinpi(x * 0.1f)"},
    {"float", "float", "acospi(x * 0.1f)"},
    {"float", "float", "atanpi(x)"},
    {"float", "float", "exp(x)"},
    {"float", "float", "exp(x * -10.5f)"}, /* Gaussian weights: 10% of lanes give denormals */
    {"float", "float", "exp2(x)"},
    {"float", "float", "exp10(x)"},
    {"float", "float", "expm1(x)"},
    {"float", "float", "log(x)"},
    {"float", "float", "log2(x)"},
    {"float", "float", "log10(x)"},
    {"float", "float", "log1p(x)"},
    {"float", "float", "cbrt(x)"},
    {"float", "float", "sqrt(x)"},
    {"float", "float", "rsqrt(x)"},
    {"float", "float", "erf(x)"},
    {"float", "float", "erfc(x)"},
    {"float", "float", "tgamma(x)"},
    {"float", "float", "lgamma(x)"},
    {"float", "float", "pow(x, y)"},
    {"float", "float", "pown(x, (int)y)"},
    {"float", "float", "powr(x, y)"},
    {"float", "float", "rootn(x, (int)y + 1)"},
    {"float", "float", "atan2(x, y)"},
    {"float", "float", "atan2pi(x, y)"},
    {"float", "float", "hypot(x, y)"},
    {"float", "float", "fmod(x, y)"},
    {"float", "float", "remainder(x, y)"},
    {"float", "float", "({int q; remquo(x, y, &q) + q;})"},
    {"float", "float", "({float c; sincos(x, &c) + c;})"},
    {"float", "float", "({int e; frexp(x, &e) + e;})"},
    {"float", "float", "ldexp(x, (int)y)"},
    {"float", "float", "({float p; fract(x, &p) + p;})"},
    {"float", "float", "({float p; modf(x, &p) + p;})"},
    {"float", "float", "floor(x) + ceil(y)"},
    {"float", "float", "rint(x) + round(y)"},
    {"float", "float", "fma(x, y, x)"},
    {"float", "float", "fmax(x, y) + fmin(x, y)"},
    {"float", "float", "maxmag(x, y) + minmag(x, y)"},
    {"float", "float", "nextafter(x, y)"},
    {"float", "float", "logb(x) + ilogb(y)"},
    {"float", "float", "half_sin(x) + half_exp(y)"},
    {"float", "float", "native_sin(x) + native_exp(y)"},
    /* math, double */
    {"double", "double", "sin(x)"},
    {"double", "double", "cos(x)"},
    {"double", "double", "cos(x * 1e7)"}, /* beyond libmvec's vector reduction */
    {"double", "double", "sin(x * 1e12)"},
    {"double", "double", "tan(x)"},
    {"double", "double", "asin(x * 0.1)"},
    {"double", "double", "atan(x)"},
    {"double", "double", "sinh(x)"},
    {"double", "double", "tanh(x)"},
    {"double", "double", "sinpi(x)"},
    {"double", "double", "tanpi(x)"},
    {"double", "double", "exp(x)"},
    {"double", "double", "expm1(x)"},
    {"double", "double", "log(x)"},
    {"double", "double", "log1p(x)"},
    {"double", "double", "cbrt(x)"},
    {"double", "double", "erf(x)"},
    {"double", "double", "tgamma(x)"},
    {"double", "double", "pow(x, y)"},
    {"double", "double", "atan2(x, y)"},
    {"double", "double", "hypot(x, y)"},
    {"double", "double", "fmod(x, y)"},
    {"double", "double", "({int e; frexp(x, &e) + e;})"},
    {"double", "double", "sqrt(x)"},
    {"double", "double", "logb(x) + ilogb(y)"},
    {"double", "double", "rint(x) + round(y) + trunc(x)"},
    {"double", "double", "atan2pi(x, y)"},
    {"double", "double", "lgamma(x)"},
    /* half (cl_khr_fp16: PoCL's CPU device has none, so cpucl alone) */
    {"half", "half", "sin(x)"},
    {"half", "half", "exp(x)"},
    {"half", "half", "log(x)"},
    {"half", "half", "pow(x, y)"},
    {"half", "half", "asinpi(x * 0.1h)"},
    {"half", "half", "fmod(x, y)"},
    {"half", "half", "rootn(x, 3)"},
    {"half", "half", "lgamma(x)"},
    {"half", "half", "floor(x) + fmax(x, y)"},
    {"half", "int", "convert_int_sat(x * 1000)"},
    {"float", "half", "convert_half_rtz(x)"},
    {"double", "half", "convert_half_rtn(x)"},
    /* vectors of math */
    {"float4", "float4", "sin(x) + exp(y)"},
    {"float8", "float8", "sin(x) + exp(y)"},
    {"float16", "float16", "log(x) * y"},
    {"double2", "double2", "exp(x) + log(y)"},
    {"double4", "double4", "log(x)"},
    /* integer (6.13.3): inputs are byte patterns */
    {"int", "int", "abs(x) + abs_diff(x, y)"},
    {"int", "int", "add_sat(x, y) + sub_sat(x, y)"},
    {"int", "int", "hadd(x, y) + rhadd(x, y)"},
    {"int", "int", "clz(x) + ctz(y) + popcount(x)"},
    {"int", "int", "mul_hi(x, y)"},
    {"int", "int", "mad_sat(x, y, x)"},
    {"int", "int", "mad24(x, y, x)"},
    {"int", "int", "rotate(x, y)"},
    {"int", "int", "clamp(x, -5, 100)"},
    {"int", "int", "x / (y | 1) + x % (y | 1)"},
    {"uint", "uint", "x / (y | 1)"},
    {"short", "short", "add_sat(x, y) + rhadd(x, y)"},
    {"uchar", "uchar", "add_sat(x, y) + mul_hi(x, y)"},
    {"char", "char", "clz(x) + abs_diff(x, y)"},
    {"long", "long", "mul_hi(x, y) + add_sat(x, y)"},
    {"long", "long", "x / (y | 1)"},
    {"ushort", "uint", "upsample(x, y)"},
    {"short8", "short8", "mad_sat(x, y, x)"},
    {"int4", "int4", "popcount(x) + clz(y)"},
    {"int8", "int8", "x * y + (x >> 3)"},
    {"uchar16", "uchar16", "add_sat(x, y) + rhadd(x, y)"},
    /* index arithmetic: get_global_id is a size_t, so these divide 64-bit
       integers by a divisor known only at run time */
    {"float", "float", "x * (float)(i / (get_global_size(0) >> 6))"},
    {"float", "float", "x * (float)(i % (get_global_size(0) >> 6))"},
    {"float", "float", "x * (float)((uint)i / ((uint)get_global_size(0) >> 6))"},
    {"float", "float", "x + (float)i"},
    {"double", "double", "x + (double)i"},
    {"float", "float", "x + a[(size_t)(x * 1000.0f)]"},
    /* common (6.13.4) */
    {"float", "float", "clamp(x, 1.0f, 5.0f)"},
    {"float", "float", "mix(x, y, 0.3f)"},
    {"float", "float", "smoothstep(1.0f, 5.0f, x) + step(y, x)"},
    {"float", "float", "degrees(x) + sign(y)"},
    /* geometric (6.13.5) */
    {"float4", "float", "dot(x, y)"},
    {"float4", "float", "length(x)"},
    {"float4", "float", "distance(x, y)"},
    {"float4", "float4", "normalize(x)"},
    {"float4", "float4", "cross(x, y)"},
    {"float4", "float4",
     "cross(a[(int)i], b[(int)i])"}, /* an int index: not counted from the group */
    {"float4", "float4", "fast_normalize(x)"},
    {"double4", "double", "length(x)"},
    {"double4", "double4", "normalize(x)"},
    {"double4", "double4", "cross(x, y)"},
    {"double4", "double", "sqrt(dot(x, x))"},       /* the floor under length */
    {"double4", "double4", "x * rsqrt(dot(x, x))"}, /* and under normalize */
    /* relational (6.13.6) */
    {"float", "int", "isnan(x) + isinf(y) + signbit(x)"},
    {"float", "float", "select(x, y, isgreater(x, y))"},
    {"float4", "int", "any(isless(x, y))"},
    {"float", "float", "bitselect(x, y, x)"},
    /* conversions (6.2.3) */
    {"float", "int", "convert_int_rte(x * 1000)"},
    {"float", "int", "convert_int_sat(x * 1000)"},
    {"float", "uchar", "convert_uchar_sat(x * 30)"},
    {"float", "uchar", "convert_uchar_sat_rte(x * 30)"},
    {"float", "short", "convert_short_rtn(x * 1000)"},
    {"float", "long", "convert_long(x * 1000)"},
    {"float", "ulong", "convert_ulong_sat_rtz(x * 1000)"},
    {"double", "int", "convert_int_rte(x * 1000)"},
    {"double", "char", "convert_char_sat(x * 1000)"},
    {"double", "float", "convert_float_rtz(x)"},
    {"int", "float", "convert_float_rtz(x)"},
    {"uint", "float", "convert_float(x)"},
    {"long", "double", "convert_double_rtn(x)"},
    {"ulong", "float", "convert_float(x)"},
    {"float4", "uchar4", "convert_uchar4_sat(x * 30.0f)"},
    {"float8", "int8", "convert_int8_sat_rte(x * 1000.0f)"},
    {"uchar4", "float4", "convert_float4(x) * 0.5f"},
    /* vector data (6.13.7) and misc (6.13.12) */
    {"float", "float", "vload_half(i, (global const half *)a)"},
    {"float", "float", "({vstore_half_rtz(x, i, (global half *)o); 0.0f;})"},
    {"float4", "float4", "vload_half4(i, (global const half *)a)"},
    {"float4", "float4", "shuffle(x, (uint4)(3, 2, 1, 0))"},
    {"float4", "float4", "shuffle2(x, y, (uint4)(7, 2, 5, 0))"},
};
enum { ROWS = sizeof rows / sizeof rows[0], MAX_PLATFORMS = 8 };

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static bool is_floating(const char *type)
{
    return !strncmp(type, "float", 5) || !strncmp(type, "double", 6) || !strncmp(type, "half", 4);
}

/* the bytes of one element of a type (a 3-vector takes 4) */
static size_t element_size(const char *type)
{
    static const struct {
        const char *name;
        size_t size;
    } scalars[] = {{"double", 8}, {"ulong", 8}, {"long", 8}, {"float", 4}, {"uint", 4}, {"int", 4},
                   {"ushort", 2}, {"short", 2}, {"half", 2}, {"uchar", 1}, {"char", 1}};
    for (size_t s = 0; s < sizeof scalars / sizeof scalars[0]; s++) {
        size_t n = strlen(scalars[s].name);
        if (!strncmp(type, scalars[s].name, n)) {
            int lanes = type[n] ? atoi(type + n) : 1;
            return scalars[s].size * (lanes == 3 ? 4 : lanes);
        }
    }
    return 0;
}

/* x: 0.01 .. 9.7, y: 0.5 .. 2.3 for floating types; byte patterns else */
static void fill(const char *type, size_t items, char *x, char *y)
{
    size_t bytes = items * element_size(type);
    if (!is_floating(type)) {
        for (size_t b = 0; b < bytes; b++) {
            x[b] = (char)(b * 37 + (b >> 5));
            y[b] = (char)(b * 11 + 3 + (b >> 3));
        }
        return;
    }
    size_t size = type[0] == 'd' ? 8 : type[0] == 'h' ? 2 : 4;
    for (size_t e = 0; e < bytes / size; e++) {
        double u = 0.01 + (double)(e % 1000) * 0.0097, v = 0.5 + (double)(e % 7) * 0.3;
        if (size == 8) {
            ((double *)x)[e] = u;
            ((double *)y)[e] = v;
        } else if (size == 2) {
            ((_Float16 *)x)[e] = (_Float16)u;
            ((_Float16 *)y)[e] = (_Float16)v;
        } else {
            ((float *)x)[e] = (float)u;
            ((float *)y)[e] = (float)v;
        }
    }
}

/* One row on one platform: the best time in ms, or -1 if the kernel did
 * not build or run (PoCL has no cl_khr_fp16, for instance). */
static double run_row(cl_context context, cl_device_id device, cl_command_queue queue,
                      const struct row *row, size_t items, int repetitions, const char *x,
                      const char *y)
{
    char source[1024];
    snprintf(source, sizeof source,
             "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
             "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"
             "kernel void k(global const %s *a, global const %s *b, global %s *o)\n"
             "{ size_t i = get_global_id(0); %s x = a[i], y = b[i]; o[i] = %s; }\n",
             row->type, row->type, row->result, row->type, row->expression);
    const char *text = source;
    double best = -1;
    cl_int err;
    cl_program program = clCreateProgramWithSource(context, 1, &text, NULL, &err);
    if (err || clBuildProgram(program, 1, &device, "-cl-std=CL2.0", NULL, NULL)) {
        clReleaseProgram(program);
        return -1;
    }
    cl_kernel kernel = clCreateKernel(program, "k", &err);
    size_t in_bytes = items * element_size(row->type);
    size_t out_bytes = items * (element_size(row->result) > 8 ? element_size(row->result) : 8);
    cl_mem a = clCreateBuffer(context, CL_MEM_COPY_HOST_PTR, in_bytes, (void *)x, NULL);
    cl_mem b = clCreateBuffer(context, CL_MEM_COPY_HOST_PTR, in_bytes, (void *)y, NULL);
    cl_mem o = clCreateBuffer(context, 0, out_bytes, NULL, NULL);
    if (!err && a && b && o) {
        clSetKernelArg(kernel, 0, sizeof a, &a);
        clSetKernelArg(kernel, 1, sizeof b, &b);
        clSetKernelArg(kernel, 2, sizeof o, &o);
        for (int r = 0; r <= repetitions; r++) { /* r = 0: the warm-up */
            double start = now_ms();
            if (clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &items, NULL, 0, NULL, NULL) ||
                clFinish(queue)) {
                best = -1;
                break;
            }
            double ms = now_ms() - start;
            if (r && (best < 0 || ms < best))
                best = ms;
        }
    }
    clReleaseMemObject(a), clReleaseMemObject(b), clReleaseMemObject(o);
    clReleaseKernel(kernel);
    clReleaseProgram(program);
    return best;
}

struct platform {
    const char *name;
    cl_context context;
    cl_device_id device;
    cl_command_queue queue;
};

static bool open_platform(const char *name, struct platform *out)
{
    cl_platform_id ids[MAX_PLATFORMS];
    cl_uint found = 0;
    if (clGetPlatformIDs(MAX_PLATFORMS, ids, &found))
        return false;
    for (cl_uint p = 0; p < found && p < MAX_PLATFORMS; p++) {
        char platform_name[256] = "";
        clGetPlatformInfo(ids[p], CL_PLATFORM_NAME, sizeof platform_name, platform_name, NULL);
        if (strcmp(platform_name, name) ||
            clGetDeviceIDs(ids[p], CL_DEVICE_TYPE_ALL, 1, &out->device, NULL))
            continue;
        out->name = name;
        out->context = clCreateContext(NULL, 1, &out->device, NULL, NULL, NULL);
        out->queue = clCreateCommandQueueWithProperties(out->context, out->device, NULL, NULL);
        return out->context && out->queue;
    }
    return false;
}

int main(int argc, char **argv)
{
    int repetitions = 3;
    size_t items = 4 << 20;
    const char *filter = NULL;
    int first = 1;
    for (; first + 1 < argc && argv[first][0] == '-'; first += 2) {
        if (!strcmp(argv[first], "-r"))
            repetitions = atoi(argv[first + 1]) < 1 ? 1 : atoi(argv[first + 1]);
        else if (!strcmp(argv[first], "-n"))
            items = strtoul(argv[first + 1], NULL, 0);
        else if (!strcmp(argv[first], "-f"))
            filter = argv[first + 1];
    }
    const char *defaults[] = {"cpucl", "Portable Computing Language"};
    const char **names = first < argc ? (const char **)argv + first : defaults;
    int asked = first < argc ? argc - first : 2;
    struct platform platforms[MAX_PLATFORMS];
    int used = 0;
    for (int i = 0; i < asked && used < MAX_PLATFORMS; i++)
        if (open_platform(names[i], &platforms[used]))
            used++;
        else
            fprintf(stderr, "no platform named \"%s\" (is OCL_ICD_VENDORS set?)\n", names[i]);
    if (!used)
        return 1;
    char *x = malloc(items * 64), *y = malloc(items * 64); /* float16 at most */
    if (!x || !y)
        return 1;
    printf("best of %d launches of %zu work-items, ms; ratio: other / %s\n%-8s %-44s", repetitions,
           items, platforms[0].name, "type", "expression");
    for (int p = 0; p < used; p++)
        printf(" %10.10s", platforms[p].name);
    printf("\n");
    int behind[ROWS], behind_count = 0;
    double worst_ratio[ROWS];
    for (int r = 0; r < ROWS; r++) {
        if (filter && !strstr(rows[r].expression, filter))
            continue;
        fill(rows[r].type, items, x, y);
        printf("%-8s %-44.44s", rows[r].type, rows[r].expression);
        double ms[MAX_PLATFORMS];
        for (int p = 0; p < used; p++) {
            ms[p] = run_row(platforms[p].context, platforms[p].device, platforms[p].queue, &rows[r],
                            items, repetitions, x, y);
            if (ms[p] < 0)
                printf(" %10s", "-");
            else
                printf(" %10.3f", ms[p]);
        }
        double lowest = 0;
        for (int p = 1; p < used; p++)
            if (ms[0] > 0 && ms[p] > 0) {
                printf(" %6.2fx", ms[p] / ms[0]);
                lowest = lowest == 0 || ms[p] / ms[0] < lowest ? ms[p] / ms[0] : lowest;
            }
        printf("\n");
        fflush(stdout);
        if (lowest > 0 && lowest < 0.9) {
            behind[behind_count] = r;
            worst_ratio[behind_count++] = lowest;
        }
    }
    if (used > 1) {
        printf("\n%d rows where %s is behind (ratio below 0.9):\n", behind_count,
               platforms[0].name);
        for (int i = 0; i < behind_count; i++)
            printf("  %-8s %-44s %.2fx\n", rows[behind[i]].type, rows[behind[i]].expression,
                   worst_ratio[i]);
    }
    for (int p = 0; p < used; p++) {
        clReleaseCommandQueue(platforms[p].queue);
        clReleaseContext(platforms[p].context);
    }
    free(x), free(y);
    return 0;
}
