/* test_spirv.c - programs from SPIR-V (clCreateProgramWithIL, API spec
 * 5.8.1): built and run against the host, the IL returned as given, and
 * malformed IL refused or failing with a build log, never a crash. */
#include "../harness.h"

static void *load(const char *path, size_t *size)
{
    FILE *file = fopen(path, "rb");
    REQUIRE(file);
    fseek(file, 0, SEEK_END);
    *size = (size_t)ftell(file);
    fseek(file, 0, SEEK_SET);
    void *data = malloc(*size);
    REQUIRE(fread(data, 1, *size, file) == *size);
    fclose(file);
    return data;
}

int main(void)
{
    struct harness h = harness_open();
    cl_int err;
    char versions[128] = "";
    CHECK_OK(clGetDeviceInfo(h.device, CL_DEVICE_IL_VERSION, sizeof versions, versions, NULL));
    CHECK(strstr(versions, "SPIR-V_1.2") != NULL);

    size_t size;
    unsigned char *il = load(CPUCL_TEST_DATA "/scale.spv", &size);
    cl_program program = clCreateProgramWithIL(h.context, il, size, &err);
    CHECK_OK(err);
    CHECK_OK(clBuildProgram(program, 1, &h.device, "", NULL, NULL));
    size_t il_size = 0;
    CHECK_OK(clGetProgramInfo(program, CL_PROGRAM_IL, 0, NULL, &il_size));
    CHECK(il_size == size);

    enum { N = 1000 };
    float in[N], out[N], factor = 1.5f;
    for (int i = 0; i < N; i++)
        in[i] = (float)i * 0.25f - 7.0f;
    cl_mem din = harness_buffer(&h, CL_MEM_READ_ONLY, sizeof in, in);
    cl_mem dout = harness_buffer(&h, CL_MEM_WRITE_ONLY, sizeof out, NULL);
    cl_kernel k = clCreateKernel(program, "spv_scale", &err);
    CHECK_OK(err);
    if (!err) {
        CHECK_OK(clSetKernelArg(k, 0, sizeof din, &din));
        CHECK_OK(clSetKernelArg(k, 1, sizeof dout, &dout));
        CHECK_OK(clSetKernelArg(k, 2, sizeof factor, &factor));
        size_t global = N;
        CHECK_OK(clEnqueueNDRangeKernel(h.queue, k, 1, NULL, &global, NULL, 0, NULL, NULL));
        CHECK_OK(clEnqueueReadBuffer(h.queue, dout, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
        int bad = 0;
        for (int i = 0; i < N; i++) {
            float want = in[i] * factor + sqrtf((float)i);
            bad += fabsf(out[i] - want) > 1e-5f * (1.0f + fabsf(want));
        }
        CHECK(bad == 0);
        clReleaseKernel(k);
    }

    /* Not SPIR-V at all: refused at creation. */
    const char junk[64] = "definitely not spir-v";
    cl_program none = clCreateProgramWithIL(h.context, junk, sizeof junk, &err);
    CHECK(none == NULL && err == CL_INVALID_VALUE);
    /* A SPIR-V header with a damaged body: the build fails with a log. */
    memset(il + 20, 0xff, size - 20 > 64 ? 64 : size - 20);
    cl_program damaged = clCreateProgramWithIL(h.context, il, size, &err);
    CHECK_OK(err);
    CHECK_ERR(clBuildProgram(damaged, 1, &h.device, "", NULL, NULL), CL_BUILD_PROGRAM_FAILURE);
    char log[4096] = "";
    CHECK_OK(clGetProgramBuildInfo(damaged, h.device, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL));
    CHECK(strlen(log) > 0);
    clReleaseProgram(damaged);

    clReleaseMemObject(din), clReleaseMemObject(dout);
    clReleaseProgram(program);
    free(il);
    harness_close(&h);
    return harness_finish();
}
