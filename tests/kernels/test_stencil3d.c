/* test_stencil3d.c - a 7-point stencil on a 37 x 21 x 13 grid in 3D
 * ranges: the whole grid with the local size left to the runtime; only the
 * interior through a global offset of (1,1,1), after copying the grid so
 * that its faces are kept; several Jacobi steps ping-ponging two buffers on
 * an in-order queue; and the whole grid with non-uniform 4x4x4 groups under
 * -cl-std=CL2.0. */
#include "../harness.h"

enum { NX = 37, NY = 21, NZ = 13, COUNT = NX * NY * NZ };

static const char *source =
    "#define AT(x, y, z) (((z) * ny + (y)) * nx + (x))\n"
    "float point(global const float *in, int x, int y, int z, int nx, int ny)\n"
    "{\n"
    "    int i = AT(x, y, z);\n"
    "    return 0.5f * in[i] + (in[i - 1] + in[i + 1] + in[i - nx] + in[i + nx]\n"
    "                           + in[i - nx * ny] + in[i + nx * ny]) / 12.0f;\n"
    "}\n"
    /* Every point: the faces are copied. */
    "kernel void stencil(global const float *in, global float *out, int nx, int ny, int nz)\n"
    "{\n"
    "    int x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);\n"
    "    if (x >= nx || y >= ny || z >= nz) return;\n"
    "    int i = AT(x, y, z);\n"
    "    if (x == 0 || y == 0 || z == 0 || x == nx - 1 || y == ny - 1 || z == nz - 1)\n"
    "        out[i] = in[i];\n"
    "    else\n"
    "        out[i] = point(in, x, y, z, nx, ny);\n"
    "}\n"
    /* Interior points only: launched with a global offset of (1,1,1). */
    "kernel void interior(global const float *in, global float *out, int nx, int ny)\n"
    "{\n"
    "    int x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);\n"
    "    out[AT(x, y, z)] = point(in, x, y, z, nx, ny);\n"
    "}\n";

static float grid[COUNT];

static void host_step(const float *in, float *out)
{
    for (int z = 0; z < NZ; z++)
        for (int y = 0; y < NY; y++)
            for (int x = 0; x < NX; x++) {
                int i = (z * NY + y) * NX + x;
                if (x && y && z && x < NX - 1 && y < NY - 1 && z < NZ - 1)
                    out[i] = 0.5f * in[i] + (in[i - 1] + in[i + 1] + in[i - NX] + in[i + NX] +
                                             in[i - NX * NY] + in[i + NX * NY]) /
                                                12.0f;
                else
                    out[i] = in[i];
            }
}

static void compare(struct harness *h, cl_mem result, const float *want, const char *what)
{
    static float got[COUNT];
    CHECK_OK(clEnqueueReadBuffer(h->queue, result, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL));
    long bad = 0;
    for (int i = 0; i < COUNT; i++)
        bad += !harness_near(got[i], want[i], 1e-5f);
    CHECK_NONE_WRONG(bad, what);
}

static void test_whole(struct harness *h, cl_program program, const size_t *local, const char *what)
{
    static float want[COUNT];
    host_step(grid, want);
    cl_mem in = harness_buffer(h, CL_MEM_READ_ONLY, sizeof grid, grid);
    cl_mem out = harness_buffer(h, CL_MEM_WRITE_ONLY, sizeof grid, NULL);
    cl_kernel k = harness_kernel(program, "stencil");
    int nx = NX, ny = NY, nz = NZ;
    CHECK_OK(harness_args(k, 5, ARG(in), ARG(out), ARG(nx), ARG(ny), ARG(nz)));
    size_t global[3] = {NX, NY, NZ};
    CHECK_OK(clEnqueueNDRangeKernel(h->queue, k, 3, NULL, global, local, 0, NULL, NULL));
    compare(h, out, want, what);
    clReleaseKernel(k);
    clReleaseMemObject(in), clReleaseMemObject(out);
}

/* Jacobi steps: copy the grid (faces), then the interior through an
 * offset, swapping the buffers each step. */
static void test_interior_steps(struct harness *h, cl_program program, int steps)
{
    static float want[COUNT], scratch[COUNT];
    memcpy(want, grid, sizeof grid);
    for (int s = 0; s < steps; s++) {
        host_step(want, scratch);
        memcpy(want, scratch, sizeof want);
    }
    cl_mem buffers[2] = {harness_buffer(h, CL_MEM_READ_WRITE, sizeof grid, grid),
                         harness_buffer(h, CL_MEM_READ_WRITE, sizeof grid, NULL)};
    cl_kernel k = harness_kernel(program, "interior");
    int nx = NX, ny = NY;
    CHECK_OK(clSetKernelArg(k, 2, sizeof nx, &nx));
    CHECK_OK(clSetKernelArg(k, 3, sizeof ny, &ny));
    size_t offset[3] = {1, 1, 1}, global[3] = {NX - 2, NY - 2, NZ - 2};
    for (int s = 0; s < steps; s++) {
        cl_mem in = buffers[s % 2], out = buffers[(s + 1) % 2];
        CHECK_OK(clEnqueueCopyBuffer(h->queue, in, out, 0, 0, sizeof grid, 0, NULL, NULL));
        CHECK_OK(clSetKernelArg(k, 0, sizeof in, &in));
        CHECK_OK(clSetKernelArg(k, 1, sizeof out, &out));
        CHECK_OK(clEnqueueNDRangeKernel(h->queue, k, 3, offset, global, NULL, 0, NULL, NULL));
    }
    compare(h, buffers[steps % 2], want, "interior steps");
    clReleaseKernel(k);
    clReleaseMemObject(buffers[0]), clReleaseMemObject(buffers[1]);
}

int main(void)
{
    struct harness h = harness_open();
    for (int i = 0; i < COUNT; i++)
        grid[i] = (float)((i * 31) % 101) * 0.25f - (float)(i % 7);
    cl_program program = harness_build(&h, source, "");
    REQUIRE(program);
    test_whole(&h, program, NULL, "stencil, local NULL");
    size_t divides[3] = {37, 3, 13}; /* divides 37 x 21 x 13 */
    test_whole(&h, program, divides, "stencil, local 37x3x13");
    size_t ones[3] = {1, 7, 1};
    test_whole(&h, program, ones, "stencil, local 1x7x1");
    test_interior_steps(&h, program, 1);
    test_interior_steps(&h, program, 6);
    clReleaseProgram(program);

    cl_program program20 = harness_build(&h, source, "-cl-std=CL2.0");
    REQUIRE(program20);
    size_t cube[3] = {4, 4, 4};
    test_whole(&h, program20, cube, "stencil, non-uniform 4x4x4");
    clReleaseProgram(program20);
    harness_close(&h);
    return harness_finish();
}
