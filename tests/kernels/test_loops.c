/* test_loops.c - kernels whose barriers enclose inner loops, which the
 * compiler may run iteration by iteration across the group (an implicit
 * barrier at the loop's head, src/compiler/loops.cpp): float4 n-body
 * tiles, a uniform loop with a uniform early break, a loop with a private
 * array, a loop whose exit depends on the work-item (must keep its own
 * trip count), a loop under a divergent branch, and a loop reading local
 * memory that the group wrote before it; and kernels without barriers:
 * a bounds-checked matrix product on a grid larger than the matrix, an
 * early return, loops on both sides of a divergent branch, an outer loop
 * that work-items leave after different counts; a column walk that counts
 * atomically in its loop (ffmpeg's nlmeans). Several local sizes, each
 * result computed on the host. */
#include <math.h>
#include <stdbool.h>
#include <string.h>

#include <stdint.h>

#include "../harness.h"

static const char *source =
    "kernel void nbody(int n, global const float4 *pos, global float4 *acc, local float4 "
    "*tile)\n"
    "{\n"
    "    size_t i = get_global_id(0), l = get_local_id(0), m = get_local_size(0);\n"
    "    float4 p = pos[i];\n"
    "    float3 a = (float3)(0.0f);\n"
    "    for (int j0 = 0; j0 < n; j0 += m) {\n"
    "        tile[l] = pos[j0 + l];\n"
    "        barrier(CLK_LOCAL_MEM_FENCE);\n"
    "        for (size_t j = 0; j < m; j++) {\n"
    "            float3 d = tile[j].xyz - p.xyz;\n"
    "            float inv = rsqrt(dot(d, d) + 0.01f);\n"
    "            a += d * (tile[j].w * inv * inv * inv);\n"
    "        }\n"
    "        barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    }\n"
    "    acc[i] = (float4)(a, 0.0f);\n"
    "}\n"
    /* uniform loop with a uniform early exit and a private array */
    "kernel void mixed(int n, int stop, global const float *in, global float *out, local "
    "float *t)\n"
    "{\n"
    "    size_t i = get_global_id(0), l = get_local_id(0), m = get_local_size(0);\n"
    "    float hist[4] = {0, 0, 0, 0};\n"
    "    t[l] = in[i];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    float s = 0.0f;\n"
    "    for (int k = 0; k < n; k++) {\n"
    "        if (k == stop) break;\n"
    "        float v = t[(l + k) % m] * in[k];\n"
    "        hist[k & 3] += v;\n"
    "        s += v;\n"
    "    }\n"
    "    /* the trip count depends on the work-item: stays per work-item */\n"
    "    float w = 0.0f;\n"
    "    for (size_t k = 0; k <= l % 5; k++) w += t[k % m];\n"
    "    /* a loop only some work-items enter */\n"
    "    float u = 0.0f;\n"
    "    if (l % 2)\n"
    "        for (int k = 0; k < n; k++) u += t[(k * 3) % m];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    out[i] = s + 0.5f * hist[1] - 0.25f * hist[2] + 2.0f * w + u;\n"
    "}\n"
    /* no barriers: a bounds check around the loop, an early return, loops
     * on both sides of a divergent branch, an outer loop that work-items
     * leave at different times */
    "kernel void guarded(int n, int rows, global const float *a, global const float *b,\n"
    "                    global float *c)\n"
    "{\n"
    "    int row = get_global_id(1), col = get_global_id(0);\n"
    "    if (row < rows && col < n) {\n"
    "        float sum = 0.0f;\n"
    "        for (int k = 0; k < n; k++) sum += a[row * n + k] * b[k * n + col];\n"
    "        c[row * n + col] = sum;\n"
    "    }\n"
    "}\n"
    "kernel void early(int n, int count, global const float *a, global float *c)\n"
    "{\n"
    "    int i = get_global_id(0);\n"
    "    if (i >= count) return;\n"
    "    float s = 0.0f;\n"
    "    for (int r = 0; r <= i % 3; r++)\n"
    "        for (int k = 0; k < n; k++) s += a[k] * (float)(r + 1) + a[i];\n"
    "    if (i % 2) { for (int k = 0; k < n; k++) s -= a[k + 1]; }\n"
    "    else { for (int k = 0; k < n; k++) s += 0.5f * a[k]; }\n"
    "    c[i] = s;\n"
    "}\n"
    /* a row of a matrix per work-item (an int row: the addresses' sign
     * extension; and a row chosen by `%`): the loop over k stays innermost */
    "kernel void rows(int n, global const float *a, global float *c)\n"
    "{\n"
    "    int row = get_global_id(0);\n"
    "    float s = 0.0f, t = 0.0f;\n"
    "    for (int k = 0; k < n; k++) s += a[row * n + k] * a[k];\n"
    "    for (int k = 0; k < n; k++) t += a[(row % 5) * n + k];\n"
    "    c[row] = s - 2.0f * t;\n"
    "}\n"
    /* 64 integer rounds with a constant count: unrolled whole, then the
     * work-items run as lanes (loops.cpp) */
    "kernel void rounds(global const uint *in, global uint *out)\n"
    "{\n"
    "    uint i = get_global_id(0), a = in[i], b = 0xefcdab89u ^ i, c = 0x98badcfeu;\n"
    "    for (int r = 0; r < 64; r++) {\n"
    "        uint f = r < 32 ? (b & c) | (~b & a) : b ^ c ^ a;\n"
    "        uint t = a; a = c; c = b;\n"
    "        b = b + rotate(t + f + (uint)r * 0x9e3779b9u, (uint)((r * 7) & 31));\n"
    "    }\n"
    "    out[i] = a ^ b ^ c;\n"
    "}\n"
    /* ffmpeg's nlmeans column walk: counters added to atomically in the
     * loop (coalesced per work-item), a uniform early exit as a second exit */
    "kernel void columns(global uint4 *img, global int *overflow, global int *counts, int width,\n"
    "                    int height, int step)\n"
    "{\n"
    "    int x = get_global_id(0);\n"
    "    uint4 sum = 0;\n"
    "    for (int i = 0; i < height; i++) {\n"
    "        if (any((uint4)UINT_MAX - img[i * width + x] < sum))\n"
    "            atomic_inc(overflow);\n"
    "        if ((img[i * width + x].x & 7) == 0) atomic_sub(&counts[0], step);\n"
    "        atomic_add(&counts[1], step);\n"
    "        img[i * width + x] += sum;\n"
    "        sum = img[i * width + x];\n"
    "        if (i == step * 3) break;\n"
    "    }\n"
    "}\n"
    /* ffmpeg deshake's corner response: every work-item loads the whole
     * tile (the rows' loop around the columns' one, after an early return),
     * a barrier, then 5 x 5 products of two 3 x 3 convolutions with private
     * masks (a nest of constant loops, unrolled whole; the masks shared) */
    "const sampler_t edge = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE |\n"
    "                       CLK_FILTER_NEAREST;\n"
    "kernel void corners(read_only image2d_t img, global float *out)\n"
    "{\n"
    "    int x = get_global_id(0), y = get_global_id(1);\n"
    "    if (x > get_image_width(img) - 1 || y > get_image_height(img) - 1) {\n"
    "        out[y * get_global_size(0) + x] = -1.0f;\n"
    "        return;\n"
    "    }\n"
    "    float mx[3][3] = {{-1, 0, 1}, {-2, 0, 2}, {-1, 0, 1}};\n"
    "    float my[3][3] = {{1, 2, 1}, {0, 0, 0}, {-1, -2, -1}};\n"
    "    local float tile[196];\n"
    "    int gx = get_group_id(0) * get_local_size(0), gy = get_group_id(1) * get_local_size(1);\n"
    "    for (int i = gy - 3, it = 0; i < gy + (int)get_local_size(1) + 3; i++, it++)\n"
    "        for (int j = gx - 3, jt = 0; j < gx + (int)get_local_size(0) + 3; j++, jt++)\n"
    "            tile[jt + it * 14] = read_imagef(img, edge, (int2)(j, i)).x;\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    float sxy = 0.0f, sxx = 0.0f;\n"
    "    int lx = get_local_id(0), ly = get_local_id(1);\n"
    "    for (int i = -2; i <= 2; i++)\n"
    "        for (int j = -2; j <= 2; j++) {\n"
    "            float dx = 0.0f, dy = 0.0f;\n"
    "            for (int a = 0; a < 3; a++)\n"
    "                for (int b = 0; b < 3; b++) {\n"
    "                    float g = tile[(ly + 2 + i + a) * 14 + lx + 2 + j + b];\n"
    "                    dx += mx[a][b] * g;\n"
    "                    dy += my[a][b] * g;\n"
    "                }\n"
    "            sxy += dx * dy;\n"
    "            sxx += dx * dx;\n"
    "        }\n"
    "    out[y * get_image_width(img) + x] = sxy - 0.04f * sxx;\n"
    "}\n";

static bool near(float got, float want)
{
    return fabsf(got - want) <= 1e-3f * fmaxf(1.0f, fabsf(want));
}

/* columns on the host: img walked in place, the three counters */
static void host_columns(uint32_t *img, int width, int height, int step, int counters[3])
{
    for (int x = 0; x < width; x++) {
        uint32_t sum[4] = {0, 0, 0, 0};
        for (int i = 0; i < height; i++) {
            uint32_t *v = img + 4 * ((size_t)i * (size_t)width + (size_t)x);
            bool over = false;
            for (int c = 0; c < 4; c++)
                over |= UINT32_MAX - v[c] < sum[c];
            counters[0] += over;
            if ((v[0] & 7) == 0)
                counters[1] -= step;
            counters[2] += step;
            for (int c = 0; c < 4; c++)
                sum[c] = v[c] += sum[c];
            if (i == step * 3)
                break;
        }
    }
}

static void check_columns(struct harness *h, cl_program program)
{
    enum { WIDTH = 100, HEIGHT = 50, WORDS = 4 * WIDTH * HEIGHT };
    cl_kernel k = harness_kernel(program, "columns");
    REQUIRE(k);
    static uint32_t start[WORDS], want[WORDS], got[WORDS];
    for (size_t i = 0; i < WORDS; i++)
        start[i] = (uint32_t)(i * 2654435761u) >> (i % 3 == 0 ? 2 : 9);
    cl_mem img = harness_buffer(h, CL_MEM_READ_WRITE, sizeof start, NULL);
    cl_mem overflow = harness_buffer(h, CL_MEM_READ_WRITE, sizeof(int), NULL);
    cl_mem counts = harness_buffer(h, CL_MEM_READ_WRITE, 2 * sizeof(int), NULL);
    static const size_t locals[] = {1, 7, 64, 0};
    static const int steps[] = {1, 5, 1000};
    for (size_t t = 0; t < sizeof locals / sizeof locals[0]; t++)
        for (size_t si = 0; si < sizeof steps / sizeof steps[0]; si++) {
            int step = steps[si], width = WIDTH, height = HEIGHT, zero[3] = {0, 0, 0};
            int counters[3] = {0, 0, 0}, got_counters[3];
            memcpy(want, start, sizeof start);
            host_columns(want, WIDTH, HEIGHT, step, counters);
            CHECK_OK(clEnqueueWriteBuffer(h->queue, img, CL_TRUE, 0, sizeof start, start, 0, NULL,
                                          NULL));
            CHECK_OK(clEnqueueWriteBuffer(h->queue, overflow, CL_TRUE, 0, sizeof(int), zero, 0,
                                          NULL, NULL));
            CHECK_OK(clEnqueueWriteBuffer(h->queue, counts, CL_TRUE, 0, 2 * sizeof(int), zero, 0,
                                          NULL, NULL));
            harness_args(k, 6, sizeof img, &img, sizeof overflow, &overflow, sizeof counts, &counts,
                         sizeof width, &width, sizeof height, &height, sizeof step, &step);
            size_t global = WIDTH, local = locals[t];
            CHECK_OK(clEnqueueNDRangeKernel(h->queue, k, 1, NULL, &global, local ? &local : NULL,
                                            0, NULL, NULL));
            CHECK_OK(
                clEnqueueReadBuffer(h->queue, img, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL));
            CHECK_OK(clEnqueueReadBuffer(h->queue, overflow, CL_TRUE, 0, sizeof(int),
                                         got_counters, 0, NULL, NULL));
            CHECK_OK(clEnqueueReadBuffer(h->queue, counts, CL_TRUE, 0, 2 * sizeof(int),
                                         got_counters + 1, 0, NULL, NULL));
            size_t bad = 0;
            for (size_t i = 0; i < WORDS; i++)
                bad += got[i] != want[i];
            for (int c = 0; c < 3; c++)
                bad += got_counters[c] != counters[c];
            if (bad)
                HARNESS_FAIL("columns, local %zu, step %d: %zu wrong; counters %d %d %d, want %d "
                             "%d %d\n",
                             local, step, bad, got_counters[0], got_counters[1], got_counters[2],
                             counters[0], counters[1], counters[2]);
            else
                harness_passed++;
        }
    clReleaseMemObject(img);
    clReleaseMemObject(overflow);
    clReleaseMemObject(counts);
    clReleaseKernel(k);
}

/* corners on the host: an 8 x 8 group's work-item (x, y) of a w x h image */
static float host_corners(const float *img, int w, int h, int x, int y)
{
    static const float mx[3][3] = {{-1, 0, 1}, {-2, 0, 2}, {-1, 0, 1}};
    static const float my[3][3] = {{1, 2, 1}, {0, 0, 0}, {-1, -2, -1}};
    float sxy = 0.0f, sxx = 0.0f;
    for (int i = -2; i <= 2; i++)
        for (int j = -2; j <= 2; j++) {
            float dx = 0.0f, dy = 0.0f;
            for (int a = 0; a < 3; a++)
                for (int b = 0; b < 3; b++) {
                    int py = y + i + a - 1, px = x + j + b - 1;
                    py = py < 0 ? 0 : py >= h ? h - 1 : py;
                    px = px < 0 ? 0 : px >= w ? w - 1 : px;
                    float g = img[py * w + px];
                    dx += mx[a][b] * g;
                    dy += my[a][b] * g;
                }
            sxy += dx * dy;
            sxx += dx * dx;
        }
    return sxy - 0.04f * sxx;
}

static void check_corners(struct harness *h, cl_program program)
{
    enum { W = 40, H = 24 };
    cl_kernel k = harness_kernel(program, "corners");
    REQUIRE(k);
    static float img[W * H], got[W * H];
    for (int i = 0; i < W * H; i++)
        img[i] = (float)((i * 37 + (i / W) * 11) % 17) * 0.25f;
    cl_image_format format = {CL_R, CL_FLOAT};
    cl_image_desc desc = {.image_type = CL_MEM_OBJECT_IMAGE2D, .image_width = W, .image_height = H};
    cl_int err;
    cl_mem image = clCreateImage(h->context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, &format,
                                 &desc, img, &err);
    CHECK_OK(err);
    cl_mem out = harness_buffer(h, CL_MEM_READ_WRITE, sizeof got, NULL);
    harness_args(k, 2, sizeof image, &image, sizeof out, &out);
    size_t global[2] = {W, H}, local[2] = {8, 8};
    for (int launch = 0; launch < 4; launch++) { /* past the launch copies' threshold */
        CHECK_OK(clEnqueueNDRangeKernel(h->queue, k, 2, NULL, global, local, 0, NULL, NULL));
        CHECK_OK(clEnqueueReadBuffer(h->queue, out, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL));
        int bad = -1;
        for (int i = 0; i < W * H && bad < 0; i++)
            if (!near(got[i], host_corners(img, W, H, i % W, i / W)))
                bad = i;
        if (bad >= 0)
            HARNESS_FAIL("corners, launch %d: [%d] = %g, want %g\n", launch, bad, got[bad],
                         host_corners(img, W, H, bad % W, bad / W));
        else
            harness_passed++;
    }
    clReleaseMemObject(image);
    clReleaseMemObject(out);
    clReleaseKernel(k);
}

static uint32_t host_rounds(uint32_t input, uint32_t i)
{
    uint32_t a = input, b = 0xefcdab89u ^ i, c = 0x98badcfeu;
    for (uint32_t r = 0; r < 64; r++) {
        uint32_t f = r < 32 ? (b & c) | (~b & a) : b ^ c ^ a;
        uint32_t t = a, s = (r * 7) & 31, v = t + f + r * 0x9e3779b9u;
        a = c;
        c = b;
        b = b + (s ? (v << s) | (v >> (32 - s)) : v);
    }
    return a ^ b ^ c;
}

static void host_nbody(int n, size_t local, const float *pos, float *acc)
{
    for (int i = 0; i < n; i++) {
        float a[3] = {0, 0, 0};
        for (int j = 0; j < n; j++) {
            float d[3] = {pos[4 * j] - pos[4 * i], pos[4 * j + 1] - pos[4 * i + 1],
                          pos[4 * j + 2] - pos[4 * i + 2]};
            float inv = 1.0f / sqrtf(d[0] * d[0] + d[1] * d[1] + d[2] * d[2] + 0.01f);
            for (int c = 0; c < 3; c++)
                a[c] += d[c] * (pos[4 * j + 3] * inv * inv * inv);
        }
        memcpy(acc + 4 * i, a, sizeof a);
        acc[4 * i + 3] = 0;
    }
    (void)local;
}

static float host_mixed(int n, int stop, const float *in, size_t i, size_t local)
{
    size_t l = i % local, base = i - l;
    float hist[4] = {0, 0, 0, 0}, s = 0, w = 0, u = 0;
    for (int k = 0; k < n && k != stop; k++) {
        float v = in[base + (l + (size_t)k) % local] * in[k];
        hist[k & 3] += v;
        s += v;
    }
    for (size_t k = 0; k <= l % 5; k++)
        w += in[base + k % local];
    if (l % 2)
        for (int k = 0; k < n; k++)
            u += in[base + ((size_t)k * 3) % local];
    return s + 0.5f * hist[1] - 0.25f * hist[2] + 2.0f * w + u;
}

static float host_early(int n, const float *a, int i)
{
    float s = 0.0f;
    for (int r = 0; r <= i % 3; r++)
        for (int k = 0; k < n; k++)
            s += a[k] * (float)(r + 1) + a[i];
    if (i % 2)
        for (int k = 0; k < n; k++)
            s -= a[k + 1];
    else
        for (int k = 0; k < n; k++)
            s += 0.5f * a[k];
    return s;
}


int main(void)
{
    struct harness h = harness_open();
    cl_program program = harness_build(&h, source, "-cl-std=CL2.0");
    REQUIRE(program);
    cl_kernel nbody = harness_kernel(program, "nbody");
    cl_kernel mixed = harness_kernel(program, "mixed");
    static const size_t locals[] = {1, 7, 64, 256};
    enum { N = 7 * 256 };
    float *pos = malloc(4 * N * sizeof *pos), *acc = malloc(4 * N * sizeof *acc),
          *want = malloc(4 * N * sizeof *want);
    REQUIRE(pos && acc && want);
    for (int i = 0; i < 4 * N; i++)
        pos[i] = (float)((i * 7919) % 1000) / 250.0f - 2.0f;
    cl_mem in =
        harness_buffer(&h, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, 4 * N * sizeof *pos, pos);
    cl_mem out = harness_buffer(&h, CL_MEM_READ_WRITE, 4 * N * sizeof *acc, NULL);
    host_nbody(N, 0, pos, want);
    for (size_t t = 0; t < sizeof locals / sizeof locals[0]; t++) {
        size_t local = locals[t], global = N;
        int n = N;
        harness_args(nbody, 4, sizeof n, &n, sizeof in, &in, sizeof out, &out,
                     local * 4 * sizeof(float), NULL);
        CHECK_OK(clEnqueueNDRangeKernel(h.queue, nbody, 1, NULL, &global, &local, 0, NULL, NULL));
        CHECK_OK(
            clEnqueueReadBuffer(h.queue, out, CL_TRUE, 0, 4 * N * sizeof *acc, acc, 0, NULL, NULL));
        int bad = -1;
        for (int i = 0; i < 4 * N && bad < 0; i++)
            if (!(fabsf(acc[i] - want[i]) <= 2e-3f * fmaxf(1.0f, fabsf(want[i]))))
                bad = i;
        if (bad >= 0)
            HARNESS_FAIL("nbody, local %zu: [%d] = %g, want %g\n", local, bad, acc[bad], want[bad]);
        else
            harness_passed++;

        static const int runs[][2] = {{40, 1000}, {40, 13}, {0, 5}, {300, 299}};
        for (size_t r = 0; r < sizeof runs / sizeof runs[0]; r++) {
            int trips = runs[r][0], stop = runs[r][1];
            harness_args(mixed, 5, sizeof trips, &trips, sizeof stop, &stop, sizeof in, &in,
                         sizeof out, &out, local * sizeof(float), NULL);
            CHECK_OK(
                clEnqueueNDRangeKernel(h.queue, mixed, 1, NULL, &global, &local, 0, NULL, NULL));
            CHECK_OK(
                clEnqueueReadBuffer(h.queue, out, CL_TRUE, 0, N * sizeof *acc, acc, 0, NULL, NULL));
            bad = -1;
            for (size_t i = 0; i < N && bad < 0; i++)
                if (!near(acc[i], host_mixed(trips, stop, pos, i, local)))
                    bad = (int)i;
            if (bad >= 0)
                HARNESS_FAIL("mixed, local %zu, n %d, stop %d: [%d] = %g, want %g\n", local, trips,
                             stop, bad, acc[bad], host_mixed(trips, stop, pos, (size_t)bad, local));
            else
                harness_passed++;
        }
    }

    /* guarded: a 61 x 50 product, launched over 64 x 64 work-items */
    cl_kernel guarded = harness_kernel(program, "guarded");
    cl_kernel early = harness_kernel(program, "early");
    enum { COLS = 50, ROWS = 61 };
    static const size_t locals2[][2] = {{16, 16}, {7, 3}, {64, 1}, {1, 1}};
    for (size_t t = 0; t < sizeof locals2 / sizeof locals2[0]; t++) {
        int n = COLS, rows = ROWS;
        size_t global[2] = {64, 64};
        cl_float fill = -1.0f;
        CHECK_OK(clEnqueueFillBuffer(h.queue, out, &fill, sizeof fill, 0, 4 * N * sizeof(float), 0,
                                     NULL, NULL));
        harness_args(guarded, 5, sizeof n, &n, sizeof rows, &rows, sizeof in, &in, sizeof in, &in,
                     sizeof out, &out);
        CHECK_OK(
            clEnqueueNDRangeKernel(h.queue, guarded, 2, NULL, global, locals2[t], 0, NULL, NULL));
        CHECK_OK(clEnqueueReadBuffer(h.queue, out, CL_TRUE, 0, ROWS * COLS * sizeof(float), acc, 0,
                                     NULL, NULL));
        int bad = -1;
        for (int r = 0; r < ROWS && bad < 0; r++)
            for (int c = 0; c < COLS && bad < 0; c++) {
                float sum = 0.0f;
                for (int k = 0; k < COLS; k++)
                    sum += pos[r * COLS + k] * pos[k * COLS + c];
                if (!near(acc[r * COLS + c], sum))
                    bad = r * COLS + c;
            }
        if (bad >= 0)
            HARNESS_FAIL("guarded, local %zux%zu: [%d] = %g\n", locals2[t][0], locals2[t][1], bad,
                         acc[bad]);
        else
            harness_passed++;

        int count = 1000, terms = 37;
        size_t global1 = 1024, local1 = locals2[t][0] * locals2[t][1];
        harness_args(early, 4, sizeof terms, &terms, sizeof count, &count, sizeof in, &in,
                     sizeof out, &out);
        CHECK_OK(clEnqueueNDRangeKernel(h.queue, early, 1, NULL, &global1, &local1, 0, NULL, NULL));
        CHECK_OK(clEnqueueReadBuffer(h.queue, out, CL_TRUE, 0, count * sizeof(float), acc, 0, NULL,
                                     NULL));
        bad = -1;
        for (int i = 0; i < count && bad < 0; i++)
            if (!near(acc[i], host_early(terms, pos, i)))
                bad = i;
        if (bad >= 0)
            HARNESS_FAIL("early, local %zu: [%d] = %g, want %g\n", local1, bad, acc[bad],
                         host_early(terms, pos, bad));
        else
            harness_passed++;
    }
    /* rows: 40 rows of 37 */
    cl_kernel rows = harness_kernel(program, "rows");
    REQUIRE(rows);
    for (size_t t = 0; t < 3; t++) {
        int terms = 37, count = 40;
        size_t global1 = (size_t)count, local1 = t == 0 ? 1 : t == 1 ? 8 : 40;
        harness_args(rows, 3, sizeof terms, &terms, sizeof in, &in, sizeof out, &out);
        CHECK_OK(clEnqueueNDRangeKernel(h.queue, rows, 1, NULL, &global1, &local1, 0, NULL, NULL));
        CHECK_OK(clEnqueueReadBuffer(h.queue, out, CL_TRUE, 0, count * sizeof(float), acc, 0, NULL,
                                     NULL));
        int bad = -1;
        float expect = 0.0f;
        for (int i = 0; i < count && bad < 0; i++) {
            float s = 0.0f, u = 0.0f;
            for (int k = 0; k < terms; k++)
                s += pos[i * terms + k] * pos[k];
            for (int k = 0; k < terms; k++)
                u += pos[(i % 5) * terms + k];
            expect = s - 2.0f * u;
            if (!near(acc[i], expect))
                bad = i;
        }
        if (bad >= 0)
            HARNESS_FAIL("rows, local %zu: [%d] = %g, want %g\n", local1, bad, acc[bad], expect);
        else
            harness_passed++;
    }
    clReleaseKernel(rows);

    /* rounds: 1000 items (groups that do not divide them) */
    cl_kernel rounds = harness_kernel(program, "rounds");
    REQUIRE(rounds);
    for (size_t t = 0; t < 3; t++) {
        size_t global1 = 1000, local1 = t == 0 ? 1 : t == 1 ? 64 : 0;
        harness_args(rounds, 2, sizeof in, &in, sizeof out, &out);
        CHECK_OK(clEnqueueNDRangeKernel(h.queue, rounds, 1, NULL, &global1, local1 ? &local1 : NULL,
                                        0, NULL, NULL));
        uint32_t words[1000], got[1000];
        CHECK_OK(clEnqueueReadBuffer(h.queue, in, CL_TRUE, 0, sizeof words, words, 0, NULL, NULL));
        CHECK_OK(clEnqueueReadBuffer(h.queue, out, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL));
        int bad = -1;
        for (uint32_t i = 0; i < 1000 && bad < 0; i++)
            if (got[i] != host_rounds(words[i], i))
                bad = (int)i;
        if (bad >= 0)
            HARNESS_FAIL("rounds, local %zu: [%d] = %u, want %u\n", local1, bad, got[bad],
                         host_rounds(words[bad], (uint32_t)bad));
        else
            harness_passed++;
    }
    clReleaseKernel(rounds);
    check_columns(&h, program);
    check_corners(&h, program);
    clReleaseKernel(guarded);
    clReleaseKernel(early);
    clReleaseMemObject(in);
    clReleaseMemObject(out);
    free(pos), free(acc), free(want);
    clReleaseKernel(nbody);
    clReleaseKernel(mixed);
    clReleaseProgram(program);
    harness_close(&h);
    return harness_finish();
}
