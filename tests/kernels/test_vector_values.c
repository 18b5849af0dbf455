/* test_vector_values.c - kernels computing on short vectors (uchar4 pixels,
 * float3 geometry, uint4 bit tricks, vec3 reinterpreted, double2, float4
 * math, uchar3 and short3 in 16-item rows), which the compiler splits into components so that the
 * work-items run as vector lanes (src/compiler/README.md, "vector values"), and one on wide vectors
 * (uchar16), which it leaves whole. Every result is exact or checked against the host's C library;
 * the item counts are not a multiple of any vector width, so the vectorized loops' remainders run
 * too. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "../harness.h"

static const char *source =
    "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
    /* exact: integers and quarters, rounded to nearest even by the _rte */
    "kernel void pixels(global const uchar4 *in, global uchar4 *out)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    float4 c = convert_float4(in[i]);\n"
    "    float s = c.x + c.y * 2.0f + c.z * 4.0f;\n"
    "    out[i] = convert_uchar4_sat_rte(c * 3.0f - s * 0.25f).wzyx;\n"
    "}\n"
    "kernel void geometry(global const float *a, global const float *b, global float *out)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    float3 x = vload3(i, a), y = vload3(i, b);\n"
    "    vstore3(cross(x, y) + x.zxy, i, out);\n"
    "}\n"
    "kernel void bits(global const uint4 *in, global uint4 *out, global uint *packed)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    uint4 x = in[i];\n"
    "    out[i] = rotate(x ^ (x << 13), (uint4)(7, 0, 31, 16)) + x.wzyx +\n"
    "             as_uint4(select(as_int4(x), (int4)(-1), x > (uint4)(0x80000000u)));\n"
    "    packed[i] = as_uint(convert_uchar4(x)) ^ as_uint(as_ushort2(x.s1));\n"
    "}\n"
    /* a uchar3 as a uint, by as_uint and through a union (as Clang passes
     * it to printf: stored as a uchar4 with an undefined lane, loaded as a
     * uint): the fourth byte is undefined (6.2.4.2), the others must be
     * the vector's */
    "kernel void vec3_bytes(global const uchar *bytes, global uint *out)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    uchar3 v = vload3(i, bytes) + (uchar3)(1, 2, 3);\n"
    "    union { uchar3 v; uint u; } both;\n"
    "    both.v = v;\n"
    "    out[2 * i] = as_uint(v);\n"
    "    out[2 * i + 1] = both.u;\n"
    "}\n"
    "kernel void doubles(global const double2 *in, global double2 *out)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    double2 d = in[i];\n"
    "    out[i] = d * d.yx + 0.5;\n"
    "}\n"
    "kernel void math4(global const float4 *in, global float4 *out)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    out[2 * i] = sin(in[i]);\n"
    "    out[2 * i + 1] = erf(in[i]);\n"
    "}\n"
    /* a loop (so the work-items run as regions) reading vectors that move
     * with the work-items; then a barrier with local float4s */
    "kernel void rows(global const float4 *in, global const float *w, global float4 *out)\n"
    "{\n"
    "    size_t i = get_global_id(0), n = get_global_size(0);\n"
    "    float4 acc = 0;\n"
    "    for (int k = 0; k < 4; k++)\n"
    "        acc += in[k * n + i] * w[k] + fabs(in[k * n + i]).yzwx;\n"
    "    out[i] = acc;\n"
    "}\n"
    "kernel void shared(global const float4 *in, global float4 *out, local float4 *t)\n"
    "{\n"
    "    size_t i = get_global_id(0), l = get_local_id(0), s = get_local_size(0);\n"
    "    t[l] = in[i] * 2.0f;\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    out[i] = t[l] + t[s - 1 - l].wzyx;\n"
    "}\n"
    /* 3-component vectors, loaded as the 4 components their size holds
     * (the fourth dropped) by 16-item rows of 16x16 groups: loaded whole
     * as integers (src/compiler/scalarize.cpp, load_padded_vectors_whole) */
    "kernel void spread3(global const uchar3 *in, global uchar3 *out, global const short3 *sin,\n"
    "                    global short3 *sout, int w, int h)\n"
    "{\n"
    "    int x = get_global_id(0), y = get_global_id(1);\n"
    "    if (x >= w || y >= h) return;\n"
    "    uchar3 a = in[y * (w + 1) + x], b = in[y * (w + 1) + x + 1];\n"
    "    out[y * w + x] = max(a, b) - min(a, b) + a.zxy;\n"
    "    short3 s = sin[y * w + x];\n"
    "    sout[y * w + x] = s.zxy - s;\n"
    "}\n"
    /* a 3x3 median through local memory in 16x16 groups, the store
     * guarded, neighbours read at x + 1 and x + 2: the shape of OpenCV's
     * medianFilter3 and 5 (whose x loops GVN left with a phi of copies
     * of x + 1 as their increment: src/compiler/work_item_offset.cpp,
     * cc_rejoin_increment; this smaller one does not show it on LLVM 19) */
    "#define OP(a, b) { t = a; a = min(a, b); b = max(t, b); }\n"
    "kernel void median3(global const uchar *in, global uchar *out, int w, int h)\n"
    "{\n"
    "    local uchar3 data[18][18];\n"
    "    int x = get_local_id(0), y = get_local_id(1), gx = get_global_id(0), gy = "
    "get_global_id(1);\n"
    "    int id = min(x * 16 + y, 9 * 18 - 1), r = id / 18, c = id % 18;\n"
    "    int col = clamp(gx - x - 1 + c, 0, w - 1) * 3;\n"
    "    data[r][c] = vload3(0, in + mad24(clamp(gy - y - 1 + r, 0, h - 1), w * 3, col));\n"
    "    data[r + 9][c] = vload3(0, in + mad24(clamp(gy - y + 8 + r, 0, h - 1), w * 3, col));\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    uchar3 p0 = data[y][x], p1 = data[y][x + 1], p2 = data[y][x + 2];\n"
    "    uchar3 p3 = data[y + 1][x], p4 = data[y + 1][x + 1], p5 = data[y + 1][x + 2];\n"
    "    uchar3 p6 = data[y + 2][x], p7 = data[y + 2][x + 1], p8 = data[y + 2][x + 2], t;\n"
    "    OP(p1, p2); OP(p4, p5); OP(p7, p8); OP(p0, p1); OP(p3, p4); OP(p6, p7);\n"
    "    OP(p1, p2); OP(p4, p5); OP(p7, p8); OP(p0, p3); OP(p5, p8); OP(p4, p7);\n"
    "    OP(p3, p6); OP(p1, p4); OP(p2, p5); OP(p4, p7); OP(p4, p2); OP(p6, p4);\n"
    "    OP(p4, p2);\n"
    "    if (gy < h && gx < w) vstore3(p4, 0, out + mad24(gy, w * 3, gx * 3));\n"
    "}\n"
    "kernel void wide(global const uchar16 *a, global const uchar16 *b, global uchar16 *out)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    out[i] = add_sat(a[i], b[i]) ^ rhadd(a[i], (uchar16)(3));\n"
    "}\n";

enum { N = 1003 };

/* A buffer argument: `in` copied to the device, or `size` bytes read back
 * into `out` after the run. */
struct arg {
    const void *in;
    void *out;
    size_t size;
};

/* Runs kernel `name` over `global` work-items (in groups of `local`; 0: the
 * driver's choice) with buffers for `args` and then, if `local_bytes`, a
 * local buffer; reads the outputs back. */
static void launch(struct harness *h, cl_program program, const char *name, size_t global,
                   size_t local, size_t local_bytes, const struct arg *args, int count)
{
    cl_kernel k = harness_kernel(program, name);
    cl_mem mem[4];
    for (int i = 0; i < count; i++) {
        mem[i] = harness_buffer(h, args[i].in ? CL_MEM_READ_ONLY : CL_MEM_WRITE_ONLY, args[i].size,
                                (void *)args[i].in);
        CHECK_OK(clSetKernelArg(k, (cl_uint)i, sizeof mem[i], &mem[i]));
    }
    if (local_bytes)
        CHECK_OK(clSetKernelArg(k, (cl_uint)count, local_bytes, NULL));
    CHECK_OK(clEnqueueNDRangeKernel(h->queue, k, 1, NULL, &global, local ? &local : NULL, 0, NULL,
                                    NULL));
    for (int i = 0; i < count; i++)
        if (args[i].out)
            CHECK_OK(clEnqueueReadBuffer(h->queue, mem[i], CL_TRUE, 0, args[i].size, args[i].out, 0,
                                         NULL, NULL));
    for (int i = 0; i < count; i++)
        clReleaseMemObject(mem[i]);
    clReleaseKernel(k);
}

static uint32_t next_random(uint32_t *state)
{
    *state = *state * 1664525u + 1013904223u;
    return *state;
}

static uint8_t saturate_rte(float v)
{
    float r = nearbyintf(v); /* the host rounds to nearest even */
    return r < 0 ? 0 : r > 255 ? 255 : (uint8_t)r;
}

static void test_pixels(struct harness *h, cl_program program, uint32_t *seed)
{
    static uint8_t in[N][4], out[N][4];
    for (int i = 0; i < N; i++)
        for (int j = 0; j < 4; j++)
            in[i][j] = (uint8_t)(next_random(seed) >> 24);
    const struct arg args[] = {{in, NULL, sizeof in}, {NULL, out, sizeof out}};
    launch(h, program, "pixels", N, 0, 0, args, 2);
    int bad = 0;
    for (int i = 0; i < N; i++) {
        float s = in[i][0] + in[i][1] * 2.0f + in[i][2] * 4.0f;
        for (int j = 0; j < 4; j++) {
            uint8_t want = saturate_rte(in[i][j] * 3.0f - s * 0.25f);
            if (out[i][3 - j] != want && bad++ < 4)
                HARNESS_FAIL("pixels %d.%d: got %u want %u\n", i, j, out[i][3 - j], want);
        }
    }
    CHECK_NONE_WRONG(bad, "uchar4 pixels through float4");
}

static void test_geometry(struct harness *h, cl_program program, uint32_t *seed)
{
    static float a[N * 3], b[N * 3], out[N * 3];
    for (int i = 0; i < N * 3; i++) {
        a[i] = (float)((int)(next_random(seed) >> 20) - 2048); /* products exact */
        b[i] = (float)((int)(next_random(seed) >> 20) - 2048);
    }
    const struct arg args[] = {{a, NULL, sizeof a}, {b, NULL, sizeof b}, {NULL, out, sizeof out}};
    launch(h, program, "geometry", N, 0, 0, args, 3);
    int bad = 0;
    for (int i = 0; i < N; i++) {
        const float *x = a + 3 * i, *y = b + 3 * i;
        float want[3] = {x[1] * y[2] - x[2] * y[1] + x[2], x[2] * y[0] - x[0] * y[2] + x[0],
                         x[0] * y[1] - x[1] * y[0] + x[1]};
        for (int j = 0; j < 3; j++)
            if (out[3 * i + j] != want[j] && bad++ < 4)
                HARNESS_FAIL("geometry %d.%d: got %g want %g\n", i, j, out[3 * i + j], want[j]);
    }
    CHECK_NONE_WRONG(bad, "float3 cross products");
}

static uint32_t rotl(uint32_t x, unsigned n)
{
    return n ? x << n | x >> (32 - n) : x;
}

static void test_bits(struct harness *h, cl_program program, uint32_t *seed)
{
    static uint32_t in[N][4], out[N][4], packed[N];
    for (int i = 0; i < N; i++)
        for (int j = 0; j < 4; j++)
            in[i][j] = next_random(seed);
    const struct arg args[] = {
        {in, NULL, sizeof in}, {NULL, out, sizeof out}, {NULL, packed, sizeof packed}};
    launch(h, program, "bits", N, 0, 0, args, 3);
    static const unsigned turns[4] = {7, 0, 31, 16};
    int bad = 0;
    for (int i = 0; i < N; i++) {
        const uint32_t *x = in[i];
        for (int j = 0; j < 4; j++) {
            uint32_t chosen = x[j] > 0x80000000u ? 0xffffffffu : x[j];
            uint32_t want = rotl(x[j] ^ x[j] << 13, turns[j]) + x[3 - j] + chosen;
            if (out[i][j] != want && bad++ < 4)
                HARNESS_FAIL("bits %d.%d: got 0x%08x want 0x%08x\n", i, j, out[i][j], want);
        }
        uint8_t bytes[4] = {(uint8_t)x[0], (uint8_t)x[1], (uint8_t)x[2], (uint8_t)x[3]};
        uint32_t want;
        memcpy(&want, bytes, 4);
        want ^= x[1]; /* as_ushort2 then as_uint: the same bits */
        if (packed[i] != want && bad++ < 4)
            HARNESS_FAIL("packed %d: got 0x%08x want 0x%08x\n", i, packed[i], want);
    }
    CHECK_NONE_WRONG(bad, "uint4 bit operations and reinterpretations");
}

static void test_vec3_bytes(struct harness *h, cl_program program, uint32_t *seed)
{
    static uint8_t bytes[N * 3];
    static uint32_t out[2 * N];
    for (int i = 0; i < N * 3; i++)
        bytes[i] = (uint8_t)(next_random(seed) >> 24);
    const struct arg args[] = {{bytes, NULL, sizeof bytes}, {NULL, out, sizeof out}};
    launch(h, program, "vec3_bytes", N, 0, 0, args, 2);
    int bad = 0;
    for (int i = 0; i < 2 * N; i++) {
        uint8_t got[4];
        memcpy(got, &out[i], 4);
        for (int j = 0; j < 3; j++) {
            uint8_t want = (uint8_t)(bytes[3 * (i / 2) + j] + j + 1);
            if (got[j] != want && bad++ < 4)
                HARNESS_FAIL("vec3 %s %d.%d: got %u want %u\n", i % 2 ? "union" : "as_uint", i / 2,
                             j, got[j], want);
        }
    }
    CHECK_NONE_WRONG(bad, "uchar3 as uint");
}

static void test_doubles(struct harness *h, cl_program program, uint32_t *seed)
{
    static double in[N][2], out[N][2];
    for (int i = 0; i < N; i++)
        for (int j = 0; j < 2; j++)
            in[i][j] = (double)(int32_t)next_random(seed) / 1024;
    const struct arg args[] = {{in, NULL, sizeof in}, {NULL, out, sizeof out}};
    launch(h, program, "doubles", N, 0, 0, args, 2);
    int bad = 0;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < 2; j++) {
            /* one product, one sum: the kernel may contract them (6.13.2:
             * fma is as exact or more), so allow either */
            double p = in[i][j] * in[i][1 - j];
            double separate = p + 0.5, fused = fma(in[i][j], in[i][1 - j], 0.5);
            if (out[i][j] != separate && out[i][j] != fused && bad++ < 4)
                HARNESS_FAIL("doubles %d.%d: got %a want %a\n", i, j, out[i][j], separate);
        }
    CHECK_NONE_WRONG(bad, "double2 arithmetic");
}

/* |got - want| within `ulps` units of float's last place at want */
static int float_close(float got, double want, double ulps)
{
    int e;
    frexp(want, &e);
    return fabs(got - want) <= ulps * ldexp(1.0, (e < -125 ? -125 : e) - 24);
}

static void test_math4(struct harness *h, cl_program program, uint32_t *seed)
{
    static float in[N][4], out[2 * N][4];
    for (int i = 0; i < N; i++)
        for (int j = 0; j < 4; j++)
            in[i][j] = ((float)(next_random(seed) >> 8) / (1 << 24) - 0.5f) * 12.0f;
    const struct arg args[] = {{in, NULL, sizeof in}, {NULL, out, sizeof out}};
    launch(h, program, "math4", N, 0, 0, args, 2);
    int bad = 0;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < 4; j++) {
            double x = in[i][j];
            /* OpenCL C 7.4: sin 4 ulp, erf 16 ulp */
            if (!float_close(out[2 * i][j], sin(x), 4) && bad++ < 4)
                HARNESS_FAIL("sin(%a): got %a want %a\n", x, out[2 * i][j], sin(x));
            if (!float_close(out[2 * i + 1][j], erf(x), 16) && bad++ < 4)
                HARNESS_FAIL("erf(%a): got %a want %a\n", x, out[2 * i + 1][j], erf(x));
        }
    CHECK_NONE_WRONG(bad, "float4 sin and erf");
}

static void test_rows(struct harness *h, cl_program program, uint32_t *seed)
{
    static float in[4 * N][4], w[4], out[N][4];
    for (int i = 0; i < 4 * N; i++)
        for (int j = 0; j < 4; j++)
            in[i][j] = (float)((int)(next_random(seed) >> 22) - 512); /* sums exact */
    for (int k = 0; k < 4; k++)
        w[k] = (float)(k - 2);
    const struct arg args[] = {{in, NULL, sizeof in}, {w, NULL, sizeof w}, {NULL, out, sizeof out}};
    launch(h, program, "rows", N, 0, 0, args, 3);
    int bad = 0;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < 4; j++) {
            float want = 0;
            for (int r = 0; r < 4; r++)
                want += in[r * N + i][j] * w[r] + fabsf(in[r * N + i][(j + 1) % 4]);
            if (out[i][j] != want && bad++ < 4)
                HARNESS_FAIL("rows %d.%d: got %g want %g\n", i, j, out[i][j], want);
        }
    CHECK_NONE_WRONG(bad, "float4 rows summed in a loop");
}

static void test_shared(struct harness *h, cl_program program, uint32_t *seed)
{
    enum { GROUP = 64, ITEMS = 16 * GROUP };
    static float in[ITEMS][4], out[ITEMS][4];
    for (int i = 0; i < ITEMS; i++)
        for (int j = 0; j < 4; j++)
            in[i][j] = (float)((int)(next_random(seed) >> 20) - 2048);
    const struct arg args[] = {{in, NULL, sizeof in}, {NULL, out, sizeof out}};
    launch(h, program, "shared", ITEMS, GROUP, GROUP * 4 * sizeof(float), args, 2);
    int bad = 0;
    for (int i = 0; i < ITEMS; i++) {
        int mirror = i / GROUP * GROUP + GROUP - 1 - i % GROUP;
        for (int j = 0; j < 4; j++) {
            float want = in[i][j] * 2.0f + in[mirror][3 - j] * 2.0f;
            if (out[i][j] != want && bad++ < 4)
                HARNESS_FAIL("shared %d.%d: got %g want %g\n", i, j, out[i][j], want);
        }
    }
    CHECK_NONE_WRONG(bad, "float4 through local memory across a barrier");
}

/* spread3 over a 69x40 image of uchar3 (4 bytes each, a column more to
 * read) and one of short3, in 16x16 groups, launched three times so that
 * a launch copy runs too. */
static void test_spread3(struct harness *h, cl_program program, uint32_t *seed)
{
    enum { W = 69, H = 40 };
    static uint8_t in[H][W + 1][4], out[H][W][4];
    static int16_t sin_[H][W][4], sout[H][W][4];
    for (int y = 0; y < H; y++)
        for (int x = 0; x <= W; x++)
            for (int c = 0; c < 4; c++) {
                in[y][x][c] = (uint8_t)(next_random(seed) >> 24);
                if (x < W)
                    sin_[y][x][c] = (int16_t)(next_random(seed) >> 16);
            }
    cl_kernel k = harness_kernel(program, "spread3");
    cl_mem a = harness_buffer(h, CL_MEM_READ_ONLY, sizeof in, in);
    cl_mem b = harness_buffer(h, CL_MEM_WRITE_ONLY, sizeof out, NULL);
    cl_mem c = harness_buffer(h, CL_MEM_READ_ONLY, sizeof sin_, sin_);
    cl_mem d = harness_buffer(h, CL_MEM_WRITE_ONLY, sizeof sout, NULL);
    cl_int w = W, hh = H;
    CHECK_OK(harness_args(k, 6, ARG(a), ARG(b), ARG(c), ARG(d), ARG(w), ARG(hh)));
    size_t global[2] = {80, 48}, local[2] = {16, 16};
    for (int launch = 0; launch < 3; launch++) {
        CHECK_OK(clEnqueueNDRangeKernel(h->queue, k, 2, NULL, global, local, 0, NULL, NULL));
        CHECK_OK(clEnqueueReadBuffer(h->queue, b, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
        CHECK_OK(clEnqueueReadBuffer(h->queue, d, CL_TRUE, 0, sizeof sout, sout, 0, NULL, NULL));
        int bad = 0;
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++)
                for (int ch = 0; ch < 3; ch++) {
                    int p = in[y][x][ch], q = in[y][x + 1][ch], turned = (ch + 2) % 3; /* .zxy */
                    uint8_t want = (uint8_t)((p > q ? p - q : q - p) + in[y][x][turned]);
                    int16_t want_s = (int16_t)(sin_[y][x][turned] - sin_[y][x][ch]);
                    if ((out[y][x][ch] != want || sout[y][x][ch] != want_s) && bad++ < 4)
                        HARNESS_FAIL("spread3 (%d, %d).%d: got %u, %d want %u, %d\n", x, y, ch,
                                     out[y][x][ch], sout[y][x][ch], want, want_s);
                }
        CHECK_NONE_WRONG(bad, "uchar3 and short3 loaded by 16-item rows");
    }
    clReleaseMemObject(a);
    clReleaseMemObject(b);
    clReleaseMemObject(c);
    clReleaseMemObject(d);
    clReleaseKernel(k);
}

static int compare_bytes(const void *a, const void *b)
{
    return *(const uint8_t *)a - *(const uint8_t *)b;
}

/* median3 over a 75x37 image of 3-byte pixels (edges clamped), 16x16
 * groups, three launches (the third a launch copy's). */
static void test_median3(struct harness *h, cl_program program, uint32_t *seed)
{
    enum { W = 75, H = 37 };
    static uint8_t in[H][W][3], out[H][W][3];
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            for (int c = 0; c < 3; c++)
                in[y][x][c] = (uint8_t)(next_random(seed) >> 24);
    cl_kernel k = harness_kernel(program, "median3");
    cl_mem a = harness_buffer(h, CL_MEM_READ_ONLY, sizeof in, in);
    cl_mem b = harness_buffer(h, CL_MEM_WRITE_ONLY, sizeof out, NULL);
    cl_int w = W, hh = H;
    CHECK_OK(harness_args(k, 4, ARG(a), ARG(b), ARG(w), ARG(hh)));
    size_t global[2] = {80, 48}, local[2] = {16, 16};
    for (int launch = 0; launch < 3; launch++) {
        CHECK_OK(clEnqueueNDRangeKernel(h->queue, k, 2, NULL, global, local, 0, NULL, NULL));
        CHECK_OK(clEnqueueReadBuffer(h->queue, b, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
        int bad = 0;
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++)
                for (int c = 0; c < 3; c++) {
                    uint8_t around[9];
                    for (int i = 0; i < 9; i++) {
                        int yy = y + i / 3 - 1, xx = x + i % 3 - 1;
                        yy = yy < 0 ? 0 : yy >= H ? H - 1 : yy;
                        xx = xx < 0 ? 0 : xx >= W ? W - 1 : xx;
                        around[i] = in[yy][xx][c];
                    }
                    qsort(around, 9, 1, compare_bytes);
                    if (out[y][x][c] != around[4] && bad++ < 4)
                        HARNESS_FAIL("median3 (%d, %d).%d: got %u want %u\n", x, y, c, out[y][x][c],
                                     around[4]);
                }
        CHECK_NONE_WRONG(bad, "3x3 medians of uchar3 through local memory");
    }
    clReleaseMemObject(a);
    clReleaseMemObject(b);
    clReleaseKernel(k);
}

static void test_wide(struct harness *h, cl_program program, uint32_t *seed)
{
    static uint8_t a[N][16], b[N][16], out[N][16];
    for (int i = 0; i < N; i++)
        for (int j = 0; j < 16; j++) {
            a[i][j] = (uint8_t)(next_random(seed) >> 24);
            b[i][j] = (uint8_t)(next_random(seed) >> 24);
        }
    const struct arg args[] = {{a, NULL, sizeof a}, {b, NULL, sizeof b}, {NULL, out, sizeof out}};
    launch(h, program, "wide", N, 0, 0, args, 3);
    int bad = 0;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < 16; j++) {
            unsigned sum = a[i][j] + b[i][j];
            uint8_t want = (uint8_t)((sum > 255 ? 255 : sum) ^ ((a[i][j] + 3 + 1) >> 1));
            if (out[i][j] != want && bad++ < 4)
                HARNESS_FAIL("wide %d.%d: got %u want %u\n", i, j, out[i][j], want);
        }
    CHECK_NONE_WRONG(bad, "uchar16 add_sat and rhadd");
}

int main(void)
{
    struct harness h = harness_open();
    cl_program program = harness_build(&h, source, NULL);
    REQUIRE(program);
    uint32_t seed = 12345;
    test_pixels(&h, program, &seed);
    test_geometry(&h, program, &seed);
    test_bits(&h, program, &seed);
    test_vec3_bytes(&h, program, &seed);
    test_doubles(&h, program, &seed);
    test_math4(&h, program, &seed);
    test_rows(&h, program, &seed);
    test_shared(&h, program, &seed);
    test_spread3(&h, program, &seed);
    test_median3(&h, program, &seed);
    test_wide(&h, program, &seed);
    clReleaseProgram(program);
    harness_close(&h);
    return harness_finish();
}
