/* fuzz_program.c - one program input, as an application would hand it to
 * cpucl, for scripts/fuzz-programs.py: OpenCL C source (.cl), SPIR-V
 * (.spv) or a cpucl binary (.bin) is created, built, its kernels created,
 * and each kernel compiled for a launch that never runs (it waits for a
 * user event that is then set to an error, so kernels that loop or read
 * out of bounds, as mutated ones do, run nothing). Exit status: 0 built,
 * 1 refused or failed with a build log, 2 failed without a log (a bug:
 * "bad source or SPIR-V gets a build log"), 3 the input could not be
 * read. A crash or a hang is the script's to see.
 *
 *   fuzz_program INPUT [BUILD_OPTIONS]
 *   fuzz_program --write-binary SOURCE.cl OUTPUT.bin
 */
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { BUILT = 0, REFUSED = 1, NO_LOG = 2, UNREADABLE = 3, MAX_KERNELS = 64 };

static unsigned char *read_input(const char *path, size_t *size)
{
    FILE *file = fopen(path, "rb");
    if (!file)
        return NULL;
    unsigned char *data = NULL;
    if (fseek(file, 0, SEEK_END) == 0) {
        long length = ftell(file);
        if (length >= 0 && fseek(file, 0, SEEK_SET) == 0 && (data = malloc((size_t)length + 1))) {
            *size = fread(data, 1, (size_t)length, file);
            data[*size] = 0;
        }
    }
    fclose(file);
    return data;
}

static int ends_with(const char *text, const char *suffix)
{
    size_t n = strlen(text), m = strlen(suffix);
    return n >= m && !strcmp(text + n - m, suffix);
}

static size_t build_log_size(cl_program program, cl_device_id device)
{
    size_t size = 0;
    clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, 0, NULL, &size);
    return size;
}

/* Sets every argument it can: buffers for pointers, sizes for __local,
 * zeros of the first size the kernel takes for values. */
static int set_arguments(cl_kernel kernel, cl_mem buffer)
{
    static const unsigned char zeros[256];
    cl_uint count = 0;
    clGetKernelInfo(kernel, CL_KERNEL_NUM_ARGS, sizeof count, &count, NULL);
    for (cl_uint a = 0; a < count; a++) {
        cl_kernel_arg_address_qualifier space = CL_KERNEL_ARG_ADDRESS_PRIVATE;
        clGetKernelArgInfo(kernel, a, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof space, &space, NULL);
        if (space == CL_KERNEL_ARG_ADDRESS_LOCAL) {
            if (clSetKernelArg(kernel, a, 256, NULL))
                return 0;
            continue;
        }
        if (!clSetKernelArg(kernel, a, sizeof buffer, &buffer))
            continue;
        int set = 0;
        for (size_t size = 1; size <= sizeof zeros && !set; size++)
            set = clSetKernelArg(kernel, a, size, zeros) == CL_SUCCESS;
        if (!set)
            return 0; /* images, samplers, pipes, queues */
    }
    return 1;
}

/* Compiles each kernel for a launch gated by a user event, then fails the
 * event: the launch is aborted before any work-item runs. */
static void compile_launches(cl_context context, cl_device_id device, cl_program program)
{
    cl_int err;
    cl_command_queue queue = clCreateCommandQueueWithProperties(context, device, NULL, &err);
    cl_mem buffer = clCreateBuffer(context, CL_MEM_READ_WRITE, 1 << 20, NULL, &err);
    cl_kernel kernels[MAX_KERNELS];
    cl_uint count = 0;
    if (clCreateKernelsInProgram(program, MAX_KERNELS, kernels, &count) != CL_SUCCESS)
        count = 0;
    for (cl_uint k = 0; k < count; k++) {
        if (set_arguments(kernels[k], buffer)) {
            cl_event gate = clCreateUserEvent(context, &err);
            size_t global[3] = {64, 4, 2}, local[3] = {16, 2, 1};
            clEnqueueNDRangeKernel(queue, kernels[k], 1 + k % 3, NULL, global, k % 2 ? local : NULL,
                                   1, &gate, NULL);
            clSetUserEventStatus(gate, -1);
            clReleaseEvent(gate);
        }
        clReleaseKernel(kernels[k]);
    }
    clFinish(queue);
    clReleaseMemObject(buffer);
    clReleaseCommandQueue(queue);
}

static int write_binary(cl_context context, cl_device_id device, const char *source,
                        const char *output)
{
    cl_int err;
    cl_program program = clCreateProgramWithSource(context, 1, &source, NULL, &err);
    if (err || clBuildProgram(program, 1, &device, "", NULL, NULL))
        return REFUSED;
    size_t size = 0;
    clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, NULL);
    unsigned char *binary = malloc(size ? size : 1);
    FILE *file = fopen(output, "wb");
    int ok = binary && file &&
             !clGetProgramInfo(program, CL_PROGRAM_BINARIES, sizeof binary, &binary, NULL) &&
             fwrite(binary, 1, size, file) == size;
    if (file)
        fclose(file);
    free(binary);
    clReleaseProgram(program);
    return ok ? BUILT : UNREADABLE;
}

int main(int argc, char **argv)
{
    int writing = argc == 4 && !strcmp(argv[1], "--write-binary");
    if (argc < 2 || (!writing && argc > 3)) {
        fprintf(stderr, "usage: %s INPUT [OPTIONS] | --write-binary SOURCE OUTPUT\n", argv[0]);
        return UNREADABLE;
    }
    const char *path = writing ? argv[2] : argv[1];
    size_t size = 0;
    unsigned char *input = read_input(path, &size);
    cl_platform_id platform;
    cl_device_id device;
    if (!input || clGetPlatformIDs(1, &platform, NULL) ||
        clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL))
        return UNREADABLE;
    cl_int err;
    cl_context context = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    if (writing)
        return write_binary(context, device, (const char *)input, argv[3]);
    cl_program program = NULL;
    const unsigned char *binaries[1] = {input};
    if (ends_with(path, ".spv"))
        program = clCreateProgramWithIL(context, input, size, &err);
    else if (ends_with(path, ".bin"))
        program = clCreateProgramWithBinary(context, 1, &device, &size, binaries, NULL, &err);
    else
        program = clCreateProgramWithSource(context, 1, (const char **)binaries, NULL, &err);
    if (!program)
        return REFUSED;
    int status = BUILT;
    if (clBuildProgram(program, 1, &device, argc > 2 ? argv[2] : "", NULL, NULL))
        status = build_log_size(program, device) > 1 || ends_with(path, ".bin") ? REFUSED : NO_LOG;
    else
        compile_launches(context, device, program);
    clReleaseProgram(program);
    clReleaseContext(context);
    free(input);
    return status;
}
