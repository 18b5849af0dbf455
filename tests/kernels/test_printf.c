/* test_printf.c - OpenCL C printf (6.13.13): the kernel's output on stdout,
 * captured by pointing file descriptor 1 at a temporary file around each
 * launch, compared with the same values formatted by the host's C printf.
 * Every conversion with flags, width, precision and the hh/h/l length
 * modifiers; infinities and NaN; %s of literals and constant arrays; %p;
 * %%; vectors of 2, 3, 4, 8 and 16 elements of every type with hh/h/hl/l
 * (the sizes whose variadic passing differs: 2 and 4 bytes, 8, 16, 32, 64);
 * thousands of work-items, with and without a barrier, whose lines must
 * each come out whole; printf's return value; the output being on the file
 * when clFinish returns, before the test flushes anything; and programs
 * from SPIR-V (data/printf.spv with raw vectors, data/printf_raw.spv with
 * unpromoted char, short and float). */
#include <stdint.h>
#include <unistd.h>

#include "../harness.h"

/* ---- capturing stdout ---------------------------------------------------- */

struct capture {
    int saved, fd;
    char path[64];
};

static void capture_begin(struct capture *c)
{
    fflush(stdout);
    strcpy(c->path, "/tmp/cpucl-printf-XXXXXX");
    c->fd = mkstemp(c->path);
    REQUIRE(c->fd >= 0);
    c->saved = dup(1);
    REQUIRE(c->saved >= 0 && dup2(c->fd, 1) == 1);
}

static char *read_all(int fd)
{
    off_t size = lseek(fd, 0, SEEK_END);
    char *text = malloc((size_t)size + 1);
    REQUIRE(text);
    ssize_t n = pread(fd, text, (size_t)size, 0);
    text[n > 0 ? n : 0] = 0;
    return text;
}

/* The captured text, as it was on the file before this program flushed its
 * stdout: what cpucl made visible by the end of the kernel. A text that
 * grows when stdout is flushed here was left in a buffer. */
static char *capture_end(struct capture *c)
{
    char *text = read_all(c->fd);
    fflush(stdout);
    char *after = read_all(c->fd);
    if (strlen(after) != strlen(text))
        HARNESS_FAIL("printf output not flushed by the end of the kernel (%zu of %zu bytes)\n",
                     strlen(text), strlen(after));
    free(after);
    dup2(c->saved, 1);
    close(c->saved);
    close(c->fd);
    unlink(c->path);
    return text;
}

/* Appends to a growing expected text. */
struct text {
    char *s;
    size_t length, capacity;
};

static void text_add(struct text *t, const char *s)
{
    size_t n = strlen(s);
    if (t->length + n + 1 > t->capacity) {
        t->capacity = (t->length + n + 1) * 2;
        t->s = realloc(t->s, t->capacity);
        REQUIRE(t->s);
    }
    memcpy(t->s + t->length, s, n + 1);
    t->length += n;
}

static void text_printf(struct text *t, const char *format, ...)
{
    char buffer[4096];
    va_list ap;
    va_start(ap, format);
    vsnprintf(buffer, sizeof buffer, format, ap);
    va_end(ap);
    text_add(t, buffer);
}

/* Compares line by line, so a failure names the first wrong line. */
static void check_text(const char *what, const char *got, const char *want)
{
    if (!strcmp(got, want)) {
        harness_passed++;
        return;
    }
    const char *g = got, *w = want;
    int line = 1;
    while (*g && *g == *w) {
        if (*g == '\n')
            line++;
        g++, w++;
    }
    while (g > got && g[-1] != '\n')
        g--, w--;
    int gn = (int)strcspn(g, "\n"), wn = (int)strcspn(w, "\n");
    HARNESS_FAIL("%s: line %d is \"%.*s\", expected \"%.*s\"\n", what, line, gn, g, wn, w);
}

static void run_1d(struct harness *h, cl_kernel kernel, size_t global, size_t local)
{
    CHECK_OK(clEnqueueNDRangeKernel(h->queue, kernel, 1, NULL, &global, local ? &local : NULL, 0,
                                    NULL, NULL));
    CHECK_OK(clFinish(h->queue));
}

/* ---- scalars ------------------------------------------------------------- */

/* kind: i int, l long, u uint, f float, d double, c char, I +inf, M -inf,
 * N NaN (float), s string literal `text`, k the constant array, P %p */
struct scalar_case {
    const char *format;
    char kind;
    const char *text;
};

static const struct scalar_case scalar_cases[] = {
    {"%d", 'i', NULL},          {"%i", 'i', NULL},
    {"%+d", 'i', NULL},         {"% d", 'i', NULL},
    {"[%-12d]", 'i', NULL},     {"[%12d]", 'i', NULL},
    {"%012d", 'i', NULL},       {"%.8d", 'i', NULL},
    {"%hd", 'i', NULL},         {"%hhd", 'i', NULL},
    {"%hi", 'i', NULL},         {"%x", 'i', NULL},
    {"%X", 'i', NULL},          {"%#x", 'i', NULL},
    {"%o", 'i', NULL},          {"%#o", 'i', NULL},
    {"%u", 'i', NULL},          {"%hu", 'i', NULL},
    {"%hhu", 'i', NULL},        {"%hhx", 'i', NULL},
    {"%hX", 'i', NULL},         {"%ld", 'l', NULL},
    {"%li", 'l', NULL},         {"%lx", 'l', NULL},
    {"%lX", 'l', NULL},         {"%lo", 'l', NULL},
    {"%lu", 'l', NULL},         {"%+ld", 'l', NULL},
    {"[%24ld]", 'l', NULL},     {"%u", 'u', NULL},
    {"%x", 'u', NULL},          {"%#X", 'u', NULL},
    {"%o", 'u', NULL},          {"%d", 'u', NULL},
    {"%f", 'f', NULL},          {"%F", 'f', NULL},
    {"%e", 'f', NULL},          {"%E", 'f', NULL},
    {"%g", 'f', NULL},          {"%G", 'f', NULL},
    {"%a", 'f', NULL},          {"%A", 'f', NULL},
    {"%.2f", 'f', NULL},        {"[%10.3e]", 'f', NULL},
    {"[%-12.4g]", 'f', NULL},   {"%+f", 'f', NULL},
    {"%#g", 'f', NULL},         {"%010.2f", 'f', NULL},
    {"%.0f", 'f', NULL},        {"%#.0f", 'f', NULL},
    {"%.1a", 'f', NULL},        {"% e", 'f', NULL},
    {"%f", 'd', NULL},          {"%.15g", 'd', NULL},
    {"%e", 'd', NULL},          {"%a", 'd', NULL},
    {"%lf", 'd', NULL},         {"%.17E", 'd', NULL},
    {"%f", 'I', NULL},          {"%e", 'I', NULL},
    {"%G", 'I', NULL},          {"%a", 'I', NULL},
    {"%F", 'I', NULL},          {"[%8f]", 'M', NULL},
    {"%g", 'M', NULL},          {"%f", 'N', NULL},
    {"%E", 'N', NULL},          {"%a", 'N', NULL},
    {"%c", 'c', NULL},          {"[%5c]", 'c', NULL},
    {"[%-3c]", 'c', NULL},      {"%s", 's', "hello"},
    {"[%10s]", 's', "right"},   {"[%-10s]", 's', "left"},
    {"%.3s", 's', "truncated"}, {"<%s>", 's', ""},
    {"%s", 'k', NULL},          {"%5.2s|%s", 'k', NULL},
    {"%p", 'P', NULL},          {"100%%", 0, NULL},
    {"%%d %d%%", 'i', NULL},    {"no conversion at all", 0, NULL},
};

static const int value_i = -123456;
static const long long value_l = -1234567890123LL;
static const unsigned value_u = 4000000000u;
static const float value_f = 3.14159274f;
static const double value_d = 2.718281828459045;
static const char value_c = 'Z';
static const char constant_text[] = "constant array";

static void test_scalars(struct harness *h)
{
    struct text src = {0}, want = {0};
    text_add(&src, "constant char message[] = \"constant array\";\n"
                   "kernel void scalars(int i, long l, uint u, float f, double d, char c,\n"
                   "                    float inf, float nan, global ulong *out)\n{\n"
                   "    out[0] = (ulong)out;\n");
    int n = (int)(sizeof scalar_cases / sizeof scalar_cases[0]);
    for (int k = 0; k < n; k++) {
        const struct scalar_case *s = &scalar_cases[k];
        static const char *const args[128] = {
            ['i'] = "i",  ['l'] = "l",   ['u'] = "u",    ['f'] = "f",   ['d'] = "d",
            ['c'] = "c",  ['I'] = "inf", ['M'] = "-inf", ['N'] = "nan", ['k'] = "message, message",
            ['P'] = "out"};
        if (s->kind == 's')
            text_printf(&src, "    printf(\"%s\\n\", \"%s\");\n", s->format, s->text);
        else if (s->kind)
            text_printf(&src, "    printf(\"%s\\n\", %s);\n", s->format, args[(int)s->kind]);
        else
            text_printf(&src, "    printf(\"%s\\n\");\n", s->format);
    }
    text_add(&src, "}\n");

    cl_program program = harness_build(h, src.s, "-cl-std=CL2.0");
    REQUIRE(program);
    cl_kernel kernel = harness_kernel(program, "scalars");
    cl_ulong device_pointer = 0;
    cl_mem out = harness_buffer(h, CL_MEM_READ_WRITE, sizeof device_pointer, NULL);
    cl_int i = value_i;
    cl_long l = value_l;
    cl_uint u = value_u;
    cl_float f = value_f, inf = INFINITY, nan = NAN;
    cl_double d = value_d;
    cl_char c = value_c;
    CHECK_OK(harness_args(kernel, 9, ARG(i), ARG(l), ARG(u), ARG(f), ARG(d), ARG(c), ARG(inf),
                          ARG(nan), ARG(out)));
    struct capture cap;
    capture_begin(&cap);
    run_1d(h, kernel, 1, 1);
    char *got = capture_end(&cap);
    CHECK_OK(clEnqueueReadBuffer(h->queue, out, CL_TRUE, 0, sizeof device_pointer, &device_pointer,
                                 0, NULL, NULL));

    for (int k = 0; k < n; k++) {
        const struct scalar_case *s = &scalar_cases[k];
        char format[64];
        snprintf(format, sizeof format, "%s\n", s->format);
        switch (s->kind) {
        case 'i': text_printf(&want, format, value_i); break;
        case 'l': text_printf(&want, format, value_l); break;
        case 'u': text_printf(&want, format, value_u); break;
        case 'f': text_printf(&want, format, (double)value_f); break;
        case 'd': text_printf(&want, format, value_d); break;
        case 'c': text_printf(&want, format, value_c); break;
        case 'I': text_printf(&want, format, (double)INFINITY); break;
        case 'M': text_printf(&want, format, -(double)INFINITY); break;
        case 'N': text_printf(&want, format, (double)NAN); break;
        case 's': text_printf(&want, format, s->text); break;
        case 'k': text_printf(&want, format, constant_text, constant_text); break;
        case 'P': text_printf(&want, format, (void *)(uintptr_t)device_pointer); break;
        default: text_printf(&want, format); break;
        }
    }
    check_text("scalar conversions", got, want.s);
    free(got);
    free(src.s);
    free(want.s);
    clReleaseMemObject(out);
    clReleaseKernel(kernel);
    clReleaseProgram(program);
}

/* ---- vectors ------------------------------------------------------------- */

/* elem: c char, C uchar, s short, S ushort, i int, I uint, l long, L ulong,
 * f float, d double. `element_format` is the C format of one element. */
struct vector_case {
    const char *format, *element_format, *type;
    int n;
    char elem;
};

static const struct vector_case vector_cases[] = {
    {"%v2hhd", "%hhd", "char2", 2, 'c'},
    {"%v3hhu", "%hhu", "uchar3", 3, 'C'},
    {"%v4hhd", "%hhd", "char4", 4, 'c'},
    {"%v8hhx", "%hhx", "uchar8", 8, 'C'},
    {"%v16hhd", "%hhd", "char16", 16, 'c'},
    {"%#v4hho", "%#hho", "uchar4", 4, 'C'},
    {"%v2hd", "%hd", "short2", 2, 's'},
    {"%v3hx", "%hx", "ushort3", 3, 'S'},
    {"%v4hu", "%hu", "ushort4", 4, 'S'},
    {"%6v8hd", "%6hd", "short8", 8, 's'},
    {"%v16hX", "%hX", "ushort16", 16, 'S'},
    {"%v2hld", "%d", "int2", 2, 'i'},
    {"%v3hli", "%i", "int3", 3, 'i'},
    {"%+v4hld", "%+d", "int4", 4, 'i'},
    {"%v4hlx", "%x", "uint4", 4, 'I'},
    {"%v8hlu", "%u", "uint8", 8, 'I'},
    {"%v16hld", "%d", "int16", 16, 'i'},
    {"%v2ld", "%ld", "long2", 2, 'l'},
    {"%v3lu", "%lu", "ulong3", 3, 'L'},
    {"%v4lx", "%lx", "ulong4", 4, 'L'},
    {"%v8ld", "%ld", "long8", 8, 'l'},
    {"%v16lo", "%lo", "ulong16", 16, 'L'},
    {"%v2hlf", "%f", "float2", 2, 'f'},
    {"%v3hle", "%e", "float3", 3, 'f'},
    {"%v4hlf", "%f", "float4", 4, 'f'},
    {"%.2v4hlf", "%.2f", "float4", 4, 'f'},
    {"%+10.3v4hle", "%+10.3e", "float4", 4, 'f'},
    {"%v4hlg", "%g", "float4", 4, 'f'},
    {"%v4hla", "%a", "float4", 4, 'f'},
    {"%v8hlG", "%G", "float8", 8, 'f'},
    {"%v16hlf", "%f", "float16", 16, 'f'},
    {"%v2lf", "%f", "double2", 2, 'd'},
    {"%v3le", "%e", "double3", 3, 'd'},
    {"%v4lg", "%g", "double4", 4, 'd'},
    {"%v8lA", "%A", "double8", 8, 'd'},
    {"%.3v16lf", "%.3f", "double16", 16, 'd'},
};

enum { VECTOR_STRIDE = 128 };

static size_t element_size(char elem)
{
    switch (elem) {
    case 'c':
    case 'C': return 1;
    case 's':
    case 'S': return 2;
    case 'i':
    case 'I':
    case 'f': return 4;
    default: return 8;
    }
}

/* Element j of case k: varied signs and magnitudes. */
static long long int_element(int k, int j)
{
    long long v = (long long)((k + 1) * 7919 + j * 104729) * (j % 3 == 1 ? -1 : 1);
    return v * (j % 5 == 4 ? 1000003 : 1);
}

static double float_element(int k, int j)
{
    return (j - 3.25) * (k + 1) * (j % 2 ? 1.0e3 : 1.0e-2) + 0.125 * j;
}

static void store_element(unsigned char *at, char elem, int k, int j)
{
    long long v = int_element(k, j);
    switch (elem) {
    case 'c':
    case 'C': {
        uint8_t x = (uint8_t)v;
        memcpy(at, &x, 1);
        break;
    }
    case 's':
    case 'S': {
        uint16_t x = (uint16_t)v;
        memcpy(at, &x, 2);
        break;
    }
    case 'i':
    case 'I': {
        uint32_t x = (uint32_t)v;
        memcpy(at, &x, 4);
        break;
    }
    case 'l':
    case 'L': memcpy(at, &v, 8); break;
    case 'f': {
        float x = (float)float_element(k, j);
        memcpy(at, &x, 4);
        break;
    }
    default: {
        double x = float_element(k, j);
        memcpy(at, &x, 8);
        break;
    }
    }
}

static void format_element(struct text *t, const struct vector_case *v, const unsigned char *at)
{
    switch (v->elem) {
    case 'c': text_printf(t, v->element_format, (int)(int8_t)at[0]); break;
    case 'C': text_printf(t, v->element_format, (unsigned)at[0]); break;
    case 's': {
        int16_t x;
        memcpy(&x, at, 2);
        text_printf(t, v->element_format, (int)x);
        break;
    }
    case 'S': {
        uint16_t x;
        memcpy(&x, at, 2);
        text_printf(t, v->element_format, (unsigned)x);
        break;
    }
    case 'i': {
        int32_t x;
        memcpy(&x, at, 4);
        text_printf(t, v->element_format, x);
        break;
    }
    case 'I': {
        uint32_t x;
        memcpy(&x, at, 4);
        text_printf(t, v->element_format, x);
        break;
    }
    case 'l': {
        long x;
        memcpy(&x, at, 8);
        text_printf(t, v->element_format, x);
        break;
    }
    case 'L': {
        unsigned long x;
        memcpy(&x, at, 8);
        text_printf(t, v->element_format, x);
        break;
    }
    case 'f': {
        float x;
        memcpy(&x, at, 4);
        text_printf(t, v->element_format, (double)x);
        break;
    }
    default: {
        double x;
        memcpy(&x, at, 8);
        text_printf(t, v->element_format, x);
        break;
    }
    }
}

/* The same vectors printed by kernels built for each ABI path the
 * arguments can take: `options` adds -cl-opt-disable or not. */
static void test_vectors(struct harness *h, const char *options)
{
    int n = (int)(sizeof vector_cases / sizeof vector_cases[0]);
    struct text src = {0}, want = {0};
    text_add(&src, "kernel void vectors(global const uchar *bytes)\n{\n");
    for (int k = 0; k < n; k++)
        text_printf(&src, "    printf(\"%%d: %s|\\n\", %d, *(global const %s *)(bytes + %d));\n",
                    vector_cases[k].format, k, vector_cases[k].type, k * VECTOR_STRIDE);
    text_add(&src, "}\n");

    unsigned char *bytes = calloc((size_t)n, VECTOR_STRIDE);
    REQUIRE(bytes);
    for (int k = 0; k < n; k++) {
        const struct vector_case *v = &vector_cases[k];
        size_t size = element_size(v->elem);
        text_printf(&want, "%d: ", k);
        for (int j = 0; j < v->n; j++) {
            unsigned char *at = bytes + k * VECTOR_STRIDE + j * size;
            store_element(at, v->elem, k, j);
            if (j)
                text_add(&want, ",");
            format_element(&want, v, at);
        }
        text_add(&want, "|\n");
    }

    cl_program program = harness_build(h, src.s, options);
    REQUIRE(program);
    cl_kernel kernel = harness_kernel(program, "vectors");
    cl_mem buffer = harness_buffer(h, CL_MEM_READ_ONLY, (size_t)n * VECTOR_STRIDE, bytes);
    CHECK_OK(harness_args(kernel, 1, ARG(buffer)));
    struct capture cap;
    capture_begin(&cap);
    run_1d(h, kernel, 1, 1);
    char *got = capture_end(&cap);
    check_text(options, got, want.s);
    free(got);
    free(bytes);
    free(src.s);
    free(want.s);
    clReleaseMemObject(buffer);
    clReleaseKernel(kernel);
    clReleaseProgram(program);
}

/* ---- many work-items ----------------------------------------------------- */

static const char *items_source =
    "kernel void items(global const int4 *v)\n"
    "{\n"
    "    uint gid = get_global_id(0);\n"
    "    printf(\"item %u of %u in group %u: %v4hld and %s, %f\\n\", gid, "
    "(uint)get_global_size(0),\n"
    "           (uint)get_group_id(0), v[gid], \"a string that makes the line longer\", gid * "
    "0.5f);\n"
    "}\n"
    "kernel void items_barrier(global const int4 *v, local int *scratch)\n"
    "{\n"
    "    uint gid = get_global_id(0), lid = get_local_id(0);\n"
    "    printf(\"before %u %u\\n\", (uint)get_group_id(0), gid);\n"
    "    scratch[lid] = v[gid].x;\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    int left = scratch[(lid + 1) % get_local_size(0)];\n"
    "    printf(\"after %u %u %d\\n\", (uint)get_group_id(0), gid, left);\n"
    "}\n";

enum { ITEMS = 4000, ITEMS_LOCAL = 40 };

static void item_line(char *line, size_t size, unsigned gid, const cl_int4 *v)
{
    snprintf(line, size, "item %u of %u in group %u: %d,%d,%d,%d and %s, %f", gid, ITEMS,
             gid / ITEMS_LOCAL, v[gid].s[0], v[gid].s[1], v[gid].s[2], v[gid].s[3],
             "a string that makes the line longer", gid * 0.5);
}

static void test_many_items(struct harness *h)
{
    cl_program program = harness_build(h, items_source, "-cl-std=CL2.0");
    REQUIRE(program);
    cl_kernel items = harness_kernel(program, "items");
    cl_kernel items_barrier = harness_kernel(program, "items_barrier");
    cl_int4 *v = malloc(ITEMS * sizeof *v);
    REQUIRE(v);
    for (int i = 0; i < ITEMS; i++)
        for (int j = 0; j < 4; j++)
            v[i].s[j] = (i * 31 + j * 1000003) * (j % 2 ? -1 : 1);
    cl_mem buffer = harness_buffer(h, CL_MEM_READ_ONLY, ITEMS * sizeof *v, v);
    char *seen = calloc(ITEMS, 2);
    REQUIRE(seen);

    /* every line whole and once, in any order of the work-items */
    CHECK_OK(harness_args(items, 1, ARG(buffer)));
    struct capture cap;
    capture_begin(&cap);
    run_1d(h, items, ITEMS, ITEMS_LOCAL);
    char *got = capture_end(&cap);
    int bad = 0, lines = 0;
    for (char *line = got, *end; *line; line = end + 1) {
        end = strchr(line, '\n');
        if (!end)
            break;
        *end = 0;
        lines++;
        unsigned gid;
        char want[256];
        if (sscanf(line, "item %u", &gid) != 1 || gid >= ITEMS || seen[gid]) {
            bad++;
            continue;
        }
        seen[gid] = 1;
        item_line(want, sizeof want, gid, v);
        bad += strcmp(line, want) != 0;
    }
    CHECK_EQ(lines, ITEMS);
    CHECK_NONE_WRONG(bad, "lines of 4000 work-items");
    free(got);

    /* with a barrier (work-items on fibers): a group's "before" lines all
     * come before its "after" lines */
    CHECK_OK(clSetKernelArg(items_barrier, 0, sizeof buffer, &buffer));
    CHECK_OK(clSetKernelArg(items_barrier, 1, ITEMS_LOCAL * sizeof(cl_int), NULL));
    memset(seen, 0, ITEMS * 2);
    capture_begin(&cap);
    run_1d(h, items_barrier, ITEMS, ITEMS_LOCAL);
    got = capture_end(&cap);
    int after_count[ITEMS / ITEMS_LOCAL] = {0};
    bad = 0;
    lines = 0;
    for (char *line = got, *end; *line; line = end + 1) {
        end = strchr(line, '\n');
        if (!end)
            break;
        *end = 0;
        lines++;
        unsigned group, gid;
        int left;
        char want[128];
        if (sscanf(line, "before %u %u", &group, &gid) == 2 && gid < ITEMS &&
            group == gid / ITEMS_LOCAL) {
            snprintf(want, sizeof want, "before %u %u", group, gid);
            bad += strcmp(line, want) || seen[gid]++ || after_count[group];
        } else if (sscanf(line, "after %u %u %d", &group, &gid, &left) == 3 && gid < ITEMS &&
                   group == gid / ITEMS_LOCAL) {
            unsigned next = group * ITEMS_LOCAL + (gid + 1) % ITEMS_LOCAL;
            snprintf(want, sizeof want, "after %u %u %d", group, gid, v[next].s[0]);
            bad += strcmp(line, want) || seen[ITEMS + gid]++;
            after_count[group]++;
        } else {
            bad++;
        }
    }
    CHECK_EQ(lines, 2 * ITEMS);
    CHECK_NONE_WRONG(bad, "lines of 4000 work-items around a barrier");
    free(got);

    free(seen);
    free(v);
    clReleaseMemObject(buffer);
    clReleaseKernel(items);
    clReleaseKernel(items_barrier);
    clReleaseProgram(program);
}

/* ---- return value -------------------------------------------------------- */

static void test_return_value(struct harness *h)
{
    /* 6.13.13.3: 0 on success, -1 otherwise; a vector conversion without a
     * length modifier is one the spec leaves undefined */
    static const char *source = "kernel void results(global int *r)\n"
                                "{\n"
                                "    r[0] = printf(\"ok %d\\n\", 1);\n"
                                "    r[1] = printf(\"%v4d\\n\", (int4)(1, 2, 3, 4));\n"
                                "    r[2] = printf(\"%d %d\\n\", 5);\n"
                                "    r[3] = printf(\"fine\\n\");\n"
                                "}\n";
    cl_program program = harness_build(h, source, "-w");
    REQUIRE(program);
    cl_kernel kernel = harness_kernel(program, "results");
    cl_int r[4] = {7, 7, 7, 7};
    cl_mem buffer = harness_buffer(h, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof r, r);
    CHECK_OK(harness_args(kernel, 1, ARG(buffer)));
    struct capture cap;
    capture_begin(&cap);
    run_1d(h, kernel, 1, 1);
    char *got = capture_end(&cap);
    CHECK_OK(clEnqueueReadBuffer(h->queue, buffer, CL_TRUE, 0, sizeof r, r, 0, NULL, NULL));
    CHECK_EQ(r[0], 0);
    CHECK_EQ(r[1], -1);
    CHECK_EQ(r[2], -1);
    CHECK_EQ(r[3], 0);
    CHECK(!strncmp(got, "ok 1\n", 5));
    CHECK(strlen(got) >= 10 && !strcmp(got + strlen(got) - 5, "fine\n"));
    free(got);
    clReleaseMemObject(buffer);
    clReleaseKernel(kernel);
    clReleaseProgram(program);
}

/* ---- separate compilation and binaries ----------------------------------- */

static void expect_linked_output(struct harness *h, cl_program program, const char *what)
{
    cl_kernel kernel = harness_kernel(program, "linked");
    cl_int x = 9;
    CHECK_OK(harness_args(kernel, 1, ARG(x)));
    struct capture cap;
    capture_begin(&cap);
    run_1d(h, kernel, 2, 1);
    char *got = capture_end(&cap);
    check_text(what, got, "linked 9 0.500000,9.000000\nlinked 9 0.500000,9.000000\n");
    free(got);
    clReleaseKernel(kernel);
}

/* printf through clCompileProgram + clLinkProgram, and through a program
 * binary built again (the binary keeps the printf calls as written). */
static void test_compile_link_binary(struct harness *h)
{
    static const char *source = "kernel void linked(int x)\n"
                                "{\n"
                                "    printf(\"linked %d %v2hlf\\n\", x, (float2)(0.5f, x));\n"
                                "}\n";
    cl_int err;
    cl_program compiled = clCreateProgramWithSource(h->context, 1, &source, NULL, &err);
    CHECK_OK(err);
    CHECK_OK(clCompileProgram(compiled, 1, &h->device, "-cl-std=CL2.0", 0, NULL, NULL, NULL, NULL));
    cl_program linked =
        clLinkProgram(h->context, 1, &h->device, "", 1, &compiled, NULL, NULL, &err);
    CHECK_OK(err);
    REQUIRE(linked);
    expect_linked_output(h, linked, "compiled and linked");

    size_t size = 0;
    CHECK_OK(clGetProgramInfo(linked, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, NULL));
    unsigned char *binary = malloc(size);
    REQUIRE(binary);
    CHECK_OK(clGetProgramInfo(linked, CL_PROGRAM_BINARIES, sizeof binary, &binary, NULL));
    const unsigned char *binaries[1] = {binary};
    cl_program rebuilt =
        clCreateProgramWithBinary(h->context, 1, &h->device, &size, binaries, NULL, &err);
    CHECK_OK(err);
    REQUIRE(rebuilt);
    CHECK_OK(clBuildProgram(rebuilt, 1, &h->device, "", NULL, NULL));
    expect_linked_output(h, rebuilt, "from a binary");
    free(binary);
    clReleaseProgram(rebuilt);
    clReleaseProgram(linked);
    clReleaseProgram(compiled);
}

/* ---- SPIR-V -------------------------------------------------------------- */

/* data/printf.cl as SPIR-V: the translator passes vectors as they are
 * (char2 and uchar4 are not coerced to integers as Clang does). */
static void test_spirv(struct harness *h)
{
    size_t size;
    unsigned char *il = harness_load_file(CPUCL_TEST_DATA "/printf.spv", &size);
    cl_int err;
    cl_program program = clCreateProgramWithIL(h->context, il, size, &err);
    CHECK_OK(err);
    free(il);
    if (err)
        return;
    err = clBuildProgram(program, 1, &h->device, "", NULL, NULL);
    if (err) {
        char *log = harness_build_log(program, h->device);
        HARNESS_FAIL("printf.spv: %s; log:\n%s\n", harness_error_name(err), log);
        free(log);
        clReleaseProgram(program);
        return;
    }
    cl_kernel kernel = harness_kernel(program, "spv_printf");
    cl_float f = -7.375f;
    cl_int i = 424242;
    cl_float4 v = {{1.5f, -2.25f, 1e10f, 0.0625f}};
    cl_char2 c = {{-5, 100}};
    cl_uchar4 u = {{0, 127, 128, 255}};
    cl_long l = -9000000000000LL;
    cl_mem vb = harness_buffer(h, CL_MEM_READ_ONLY, sizeof v, &v);
    cl_mem cb = harness_buffer(h, CL_MEM_READ_ONLY, sizeof c, &c);
    cl_mem ub = harness_buffer(h, CL_MEM_READ_ONLY, sizeof u, &u);
    CHECK_OK(harness_args(kernel, 6, ARG(f), ARG(i), ARG(vb), ARG(cb), ARG(ub), ARG(l)));
    struct capture cap;
    capture_begin(&cap);
    run_1d(h, kernel, 3, 1);
    char *got = capture_end(&cap);
    struct text want = {0};
    for (int k = 0; k < 3; k++)
        text_printf(&want,
                    "f=%f i=%d v=%f,%f,%f,%f c=%hhd,%hhd u=%hhu,%hhu,%hhu,%hhu l=%ld s=%s e=%e\n",
                    (double)f, i, (double)v.s[0], (double)v.s[1], (double)v.s[2], (double)v.s[3],
                    c.s[0], c.s[1], u.s[0], u.s[1], u.s[2], u.s[3], (long)l, "spir-v", (double)f);
    check_text("printf.spv", got, want.s);
    free(got);
    free(want.s);
    clReleaseMemObject(vb);
    clReleaseMemObject(cb);
    clReleaseMemObject(ub);
    clReleaseKernel(kernel);
    clReleaseProgram(program);
}

/* data/printf_raw.spv: char, short and float reach printf unpromoted, as
 * SPIR-V allows (the CTS's spirv_new printf tests pass float so). */
static void test_spirv_unpromoted(struct harness *h)
{
    size_t size;
    unsigned char *il = harness_load_file(CPUCL_TEST_DATA "/printf_raw.spv", &size);
    cl_int err;
    cl_program program = clCreateProgramWithIL(h->context, il, size, &err);
    CHECK_OK(err);
    free(il);
    if (err)
        return;
    err = clBuildProgram(program, 1, &h->device, "", NULL, NULL);
    if (err) {
        char *log = harness_build_log(program, h->device);
        HARNESS_FAIL("printf_raw.spv: %s; log:\n%s\n", harness_error_name(err), log);
        free(log);
        clReleaseProgram(program);
        return;
    }
    cl_kernel kernel = harness_kernel(program, "spv_printf_raw");
    cl_char c = -100;
    cl_short s = -30000;
    cl_float f = 2.5f;
    cl_uchar u = 200;
    cl_ushort us = 0xbeef;
    CHECK_OK(harness_args(kernel, 5, ARG(c), ARG(s), ARG(f), ARG(u), ARG(us)));
    struct capture cap;
    capture_begin(&cap);
    run_1d(h, kernel, 1, 1);
    char *got = capture_end(&cap);
    char want[256];
    snprintf(want, sizeof want, "c=%hhd s=%hd f=%f u=%u ch=%c us=%x e=%.3e\n", c, s, (double)f,
             (unsigned)u, c, (unsigned)us, (double)f);
    check_text("printf_raw.spv", got, want);
    free(got);
    clReleaseKernel(kernel);
    clReleaseProgram(program);
}

int main(void)
{
    struct harness h = harness_open();
    test_scalars(&h);
    test_vectors(&h, "-cl-std=CL2.0");
    test_vectors(&h, "-cl-std=CL1.2 -cl-opt-disable");
    test_many_items(&h);
    test_return_value(&h);
    test_compile_link_binary(&h);
    test_spirv(&h);
    test_spirv_unpromoted(&h);
    harness_close(&h);
    return harness_finish();
}
