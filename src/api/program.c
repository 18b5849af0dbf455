/* program.c - program objects (API spec 5.8): creating them from source,
 * IL or binaries, their binaries' format, their info and release. Building,
 * compiling and linking them: program_build.c. */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

#include "api/api.h"

cl_program api_new_program(cl_context context, char *source)
{
    cl_program program = rt_object_create(RT_PROGRAM, sizeof *program);
    if (!program)
        return NULL;
    pthread_mutex_init(&program->lock, NULL);
    program->context = context;
    rt_object_hold(RT_OBJ(context));
    program->source = source;
    program->build_status = CL_BUILD_NONE;
    return program;
}

API_EXPORT CL_API_ENTRY cl_program CL_API_CALL
clCreateProgramWithSource(cl_context context, cl_uint count, const char **strings,
                          const size_t *lengths, cl_int *errcode_ret)
{
    if (!api_valid_context(context)) {
        api_set_error(errcode_ret, CL_INVALID_CONTEXT);
        return NULL;
    }
    if (count == 0 || !strings) {
        api_set_error(errcode_ret, CL_INVALID_VALUE);
        return NULL;
    }
    size_t total = 0;
    for (cl_uint i = 0; i < count; i++) {
        if (!strings[i]) {
            api_set_error(errcode_ret, CL_INVALID_VALUE);
            return NULL;
        }
        /* 5.8.1: a length of 0 means the string is NUL-terminated. A total
         * past the address space is no source (and would wrap the copy's
         * size). */
        size_t length = lengths && lengths[i] ? lengths[i] : strlen(strings[i]);
        if (__builtin_add_overflow(total, length, &total) || total == SIZE_MAX) {
            api_set_error(errcode_ret, CL_INVALID_VALUE);
            return NULL;
        }
    }
    char *source = malloc(total + 1);
    if (!source) {
        api_set_error(errcode_ret, CL_OUT_OF_HOST_MEMORY);
        return NULL;
    }
    size_t at = 0;
    for (cl_uint i = 0; i < count; i++) {
        size_t n = lengths && lengths[i] ? lengths[i] : strlen(strings[i]);
        memcpy(source + at, strings[i], n);
        at += n;
    }
    source[at] = 0;
    cl_program program = api_new_program(context, source);
    if (!program) {
        free(source);
        api_set_error(errcode_ret, CL_OUT_OF_HOST_MEMORY);
        return NULL;
    }
    api_set_error(errcode_ret, CL_SUCCESS);
    return program;
}

cl_int api_check_device_list(cl_context context, cl_uint num_devices,
                             const cl_device_id *device_list)
{
    if ((num_devices == 0) != (device_list == NULL))
        return CL_INVALID_VALUE;
    for (cl_uint i = 0; i < num_devices; i++)
        if (!api_valid_device(device_list[i]) || !api_context_has_device(context, device_list[i]))
            return CL_INVALID_DEVICE;
    return CL_SUCCESS;
}

/* A cpucl program binary (CL_PROGRAM_BINARIES): this header, then LLVM
 * bitcode of the program as the compiler's front end (or linker) left it.
 * clCreateProgramWithBinary takes it back; clBuildProgram links it again.
 *
 * The header carries the bitcode's SHA-256: LLVM's bitcode reader trusts
 * its input (a flipped bit can make it abort on an allocation of terabytes
 * or read out of bounds), so a binary damaged on disk or in transit must
 * be refused before it is parsed (API spec 5.8.1: CL_INVALID_BINARY). A
 * binary whose checksum was made to match altered bitcode is as trusted as
 * any code the application runs. Version 1 binaries had no checksum and
 * are refused; applications then build from source. */
struct binary_header {
    char magic[8];        /* "cpuclbin" */
    uint32_t version;     /* BINARY_VERSION */
    uint32_t type;        /* cl_program_binary_type */
    uint64_t size;        /* bytes of bitcode that follow */
    unsigned char digest[CC_SHA256_SIZE]; /* the bitcode's SHA-256 */
};
#define BINARY_VERSION 2

/* The size of the program's binary; 0 when it has none. Called with the
 * program's lock held. */
static size_t binary_size(cl_program program)
{
    const void *bitcode = program->object;
    size_t bitcode_size = program->object_size;
    if (program->built)
        bitcode = cc_program_bitcode(program->built, &bitcode_size);
    if (!bitcode || program->binary_type == CL_PROGRAM_BINARY_TYPE_NONE)
        return 0;
    return sizeof(struct binary_header) + bitcode_size;
}

/* Writes the program's binary, binary_size(program) bytes, to `out`.
 * Called with the program's lock held. */
static void write_binary(cl_program program, unsigned char *out)
{
    const void *bitcode = program->object;
    size_t bitcode_size = program->object_size;
    if (program->built)
        bitcode = cc_program_bitcode(program->built, &bitcode_size);
    struct binary_header header = {{'c', 'p', 'u', 'c', 'l', 'b', 'i', 'n'},
                                   BINARY_VERSION,
                                   (uint32_t)program->binary_type,
                                   bitcode_size,
                                   {0}};
    cc_sha256(bitcode, bitcode_size, header.digest);
    memcpy(out, &header, sizeof header);
    memcpy(out + sizeof header, bitcode, bitcode_size);
}

static cl_int read_binary(const unsigned char *binary, size_t size, void **bitcode,
                          size_t *bitcode_size, cl_program_binary_type *type)
{
    struct binary_header header;
    if (size < sizeof header)
        return CL_INVALID_BINARY;
    memcpy(&header, binary, sizeof header);
    if (memcmp(header.magic, "cpuclbin", 8) || header.version != BINARY_VERSION ||
        header.size != size - sizeof header || header.size < 4 ||
        (header.type != CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT &&
         header.type != CL_PROGRAM_BINARY_TYPE_LIBRARY &&
         header.type != CL_PROGRAM_BINARY_TYPE_EXECUTABLE))
        return CL_INVALID_BINARY;
    /* LLVM bitcode starts with "BC\xC0\xDE". */
    const unsigned char *payload = binary + sizeof header;
    unsigned char digest[CC_SHA256_SIZE];
    cc_sha256(payload, header.size, digest);
    if (memcmp(payload, "BC\xc0\xde", 4) || memcmp(digest, header.digest, sizeof digest))
        return CL_INVALID_BINARY;
    *bitcode = malloc(header.size);
    if (!*bitcode)
        return CL_OUT_OF_HOST_MEMORY;
    memcpy(*bitcode, payload, header.size);
    *bitcode_size = header.size;
    *type = header.type;
    return CL_SUCCESS;
}

API_EXPORT CL_API_ENTRY cl_program CL_API_CALL
clCreateProgramWithBinary(cl_context context, cl_uint num_devices, const cl_device_id *device_list,
                          const size_t *lengths, const unsigned char **binaries,
                          cl_int *binary_status, cl_int *errcode_ret)
{
    cl_int err;
    if (!api_valid_context(context)) {
        err = CL_INVALID_CONTEXT;
        goto fail;
    }
    if (!device_list || num_devices == 0) {
        err = CL_INVALID_VALUE;
        goto fail;
    }
    if ((err = api_check_device_list(context, num_devices, device_list)))
        goto fail;
    if (!lengths || !binaries) {
        err = CL_INVALID_VALUE;
        goto fail;
    }
    for (cl_uint i = 0; i < num_devices; i++) {
        if (!lengths[i] || !binaries[i]) {
            if (binary_status)
                binary_status[i] = CL_INVALID_VALUE;
            err = CL_INVALID_VALUE;
            goto fail;
        }
    }
    /* One device per context today, so one binary makes the program. */
    void *bitcode = NULL;
    size_t bitcode_size = 0;
    cl_program_binary_type type = CL_PROGRAM_BINARY_TYPE_NONE;
    for (cl_uint i = 0; i < num_devices; i++) {
        void *b;
        size_t n;
        cl_program_binary_type t;
        cl_int status = read_binary(binaries[i], lengths[i], &b, &n, &t);
        if (binary_status)
            binary_status[i] = status;
        if (status) {
            free(bitcode);
            err = status;
            goto fail;
        }
        if (bitcode)
            free(b);
        else
            bitcode = b, bitcode_size = n, type = t;
    }
    cl_program program = api_new_program(context, NULL);
    if (!program) {
        free(bitcode);
        err = CL_OUT_OF_HOST_MEMORY;
        goto fail;
    }
    program->object = bitcode;
    program->object_size = bitcode_size;
    program->binary_type = type;
    api_set_error(errcode_ret, CL_SUCCESS);
    return program;
fail:
    api_set_error(errcode_ret, err);
    return NULL;
}

API_EXPORT CL_API_ENTRY cl_program CL_API_CALL
clCreateProgramWithIL(cl_context context, const void *il, size_t length, cl_int *errcode_ret)
{
    cl_int err;
    if (!api_valid_context(context)) {
        err = CL_INVALID_CONTEXT;
        goto fail;
    }
    /* 5.8.1: CL_INVALID_VALUE for no IL or IL the runtime cannot take; the
     * header is checked here, the rest when the program is built. */
    if (!il || !length || !cc_il_is_spirv(il, length)) {
        err = CL_INVALID_VALUE;
        goto fail;
    }
    void *copy = malloc(length);
    cl_program program = copy ? api_new_program(context, NULL) : NULL;
    if (!program) {
        free(copy);
        err = CL_OUT_OF_HOST_MEMORY;
        goto fail;
    }
    memcpy(copy, il, length);
    program->il = copy;
    program->il_size = length;
    api_set_error(errcode_ret, CL_SUCCESS);
    return program;
fail:
    api_set_error(errcode_ret, err);
    return NULL;
}

API_EXPORT CL_API_ENTRY cl_program CL_API_CALL
clCreateProgramWithBuiltInKernels(cl_context context, cl_uint num_devices,
                                  const cl_device_id *device_list, const char *kernel_names,
                                  cl_int *errcode_ret)
{
    cl_int err;
    if (!api_valid_context(context))
        err = CL_INVALID_CONTEXT;
    else if (!device_list || num_devices == 0 || !kernel_names)
        err = CL_INVALID_VALUE;
    else if ((err = api_check_device_list(context, num_devices, device_list)) == CL_SUCCESS)
        err = CL_INVALID_VALUE; /* 5.8.1: the device lists no built-in kernels */
    api_set_error(errcode_ret, err);
    return NULL;
}

API_EXPORT CL_API_ENTRY cl_int CL_API_CALL clRetainProgram(cl_program program)
{
    if (!api_valid_program(program))
        return CL_INVALID_PROGRAM;
    rt_object_retain(RT_OBJ(program));
    return CL_SUCCESS;
}

API_EXPORT CL_API_ENTRY cl_int CL_API_CALL clReleaseProgram(cl_program program)
{
    if (!api_valid_program(program))
        return CL_INVALID_PROGRAM;
    rt_object_release(RT_OBJ(program));
    return CL_SUCCESS;
}

API_EXPORT CL_API_ENTRY cl_int CL_API_CALL
clGetProgramInfo(cl_program program, cl_program_info param_name, size_t param_value_size,
                 void *param_value, size_t *param_value_size_ret)
{
    if (!api_valid_program(program))
        return CL_INVALID_PROGRAM;
    cl_context context = program->context;
    cl_int err;
    switch (param_name) {
    case CL_PROGRAM_REFERENCE_COUNT: {
        cl_uint count = atomic_load(&program->obj.refcount);
        return API_INFO(count);
    }
    case CL_PROGRAM_CONTEXT:
        return API_INFO(program->context);
    case CL_PROGRAM_NUM_DEVICES:
        return API_INFO(context->num_devices);
    case CL_PROGRAM_DEVICES:
        return api_info(param_value_size, param_value, param_value_size_ret, context->devices,
                        context->num_devices * sizeof(cl_device_id));
    case CL_PROGRAM_SOURCE:
        return API_INFO_STRING(program->source ? program->source : "");
    case CL_PROGRAM_IL:
        return api_info(param_value_size, param_value, param_value_size_ret, program->il,
                        program->il ? program->il_size : 0);
    case CL_PROGRAM_BINARY_SIZES:
    case CL_PROGRAM_BINARIES: {
        size_t size = context->num_devices * sizeof(size_t);
        if (param_value && param_value_size < size)
            return CL_INVALID_VALUE;
        if (param_value_size_ret)
            *param_value_size_ret = size;
        if (!param_value)
            return CL_SUCCESS;
        pthread_mutex_lock(&program->lock);
        size_t bytes = binary_size(program);
        const unsigned char *first = NULL;
        for (cl_uint i = 0; i < context->num_devices; i++) {
            if (param_name == CL_PROGRAM_BINARY_SIZES) {
                ((size_t *)param_value)[i] = bytes;
                continue;
            }
            /* 5.8.7: the application gives one buffer per device, large
             * enough for CL_PROGRAM_BINARY_SIZES; NULL entries are skipped. */
            unsigned char *out = ((unsigned char **)param_value)[i];
            if (!out || !bytes)
                continue;
            if (first)
                memcpy(out, first, bytes);
            else
                write_binary(program, out), first = out;
        }
        pthread_mutex_unlock(&program->lock);
        return CL_SUCCESS;
    }
    case CL_PROGRAM_NUM_KERNELS:
    case CL_PROGRAM_KERNEL_NAMES:
        pthread_mutex_lock(&program->lock);
        if (!program->built) {
            err = CL_INVALID_PROGRAM_EXECUTABLE;
        } else if (param_name == CL_PROGRAM_NUM_KERNELS) {
            size_t n = cc_program_num_kernels(program->built);
            err = API_INFO(n);
        } else {
            err = API_INFO_STRING(program->kernel_names);
        }
        pthread_mutex_unlock(&program->lock);
        return err;
    case CL_PROGRAM_SCOPE_GLOBAL_CTORS_PRESENT:
    case CL_PROGRAM_SCOPE_GLOBAL_DTORS_PRESENT: {
        cl_bool no = CL_FALSE; /* OpenCL C has no constructors */
        return API_INFO(no);
    }
    default:
        return CL_INVALID_VALUE;
    }
}

API_EXPORT CL_API_ENTRY cl_int CL_API_CALL
clGetProgramBuildInfo(cl_program program, cl_device_id device, cl_program_build_info param_name,
                      size_t param_value_size, void *param_value, size_t *param_value_size_ret)
{
    if (!api_valid_program(program))
        return CL_INVALID_PROGRAM;
    if (!api_valid_device(device) || !api_context_has_device(program->context, device))
        return CL_INVALID_DEVICE;
    cl_int err;
    pthread_mutex_lock(&program->lock);
    switch (param_name) {
    case CL_PROGRAM_BUILD_STATUS:
        err = API_INFO(program->build_status);
        break;
    case CL_PROGRAM_BUILD_OPTIONS:
        err = API_INFO_STRING(program->build_options ? program->build_options : "");
        break;
    case CL_PROGRAM_BUILD_LOG:
        err = API_INFO_STRING(program->build_log ? program->build_log : "");
        break;
    case CL_PROGRAM_BINARY_TYPE:
        err = API_INFO(program->binary_type);
        break;
    case CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE: {
        size_t size = program->built ? cc_program_global_variable_size(program->built) : 0;
        err = API_INFO(size);
        break;
    }
    default:
        err = CL_INVALID_VALUE;
    }
    pthread_mutex_unlock(&program->lock);
    return err;
}

API_EXPORT CL_API_ENTRY cl_int CL_API_CALL
clSetProgramReleaseCallback(cl_program program,
                            void (CL_CALLBACK *pfn_notify)(cl_program, void *), void *user_data)
{
    if (!api_valid_program(program))
        return CL_INVALID_PROGRAM;
    if (!pfn_notify)
        return CL_INVALID_VALUE;
    return rt_callback_push(&program->release_callbacks, &program->lock, (void (CL_CALLBACK *)())pfn_notify,
                            user_data);
}

API_EXPORT CL_API_ENTRY cl_int CL_API_CALL
clSetProgramSpecializationConstant(cl_program program, cl_uint spec_id, size_t spec_size,
                                   const void *spec_value)
{
    if (!api_valid_program(program))
        return CL_INVALID_PROGRAM;
    /* 5.8.1: only programs created from IL have specialization constants;
     * the value is used by the next build. */
    if (!program->il)
        return CL_INVALID_PROGRAM;
    if (!spec_value)
        return CL_INVALID_VALUE;
    pthread_mutex_lock(&program->lock);
    cl_int err = CL_SUCCESS;
    if (!program->spec_constants_read) {
        err = cc_spirv_spec_constants(program->il, program->il_size, &program->spec_constants,
                                      &program->num_spec_constants);
        program->spec_constants_read = err == CL_SUCCESS;
    }
    struct cc_spec_constant *constant = NULL;
    for (unsigned i = 0; !err && i < program->num_spec_constants; i++)
        if (program->spec_constants[i].id == spec_id)
            constant = &program->spec_constants[i];
    if (!err && !constant)
        err = CL_INVALID_SPEC_ID;
    else if (!err && spec_size != constant->size)
        err = CL_INVALID_VALUE;
    if (!err) {
        constant->value = 0;
        memcpy(&constant->value, spec_value, spec_size);
        constant->set = 1;
    }
    pthread_mutex_unlock(&program->lock);
    return err;
}
