/* kernel.c - kernel objects and their arguments (API spec 5.9). */
#include <stdlib.h>

#include "api/api.h"

/* Called with program->lock held. */
static cl_kernel new_kernel(cl_program program, const struct cc_kernel_info *info,
                            cl_int *errcode_ret)
{
    unsigned char *arg_block = calloc(1, info->arg_block_size ? info->arg_block_size : 1);
    struct rt_kernel_arg *args = calloc(info->num_args ? info->num_args : 1, sizeof *args);
    cl_kernel kernel = arg_block && args ? rt_object_create(RT_KERNEL, sizeof *kernel) : NULL;
    if (!kernel) {
        free(arg_block);
        free(args);
        api_set_error(errcode_ret, CL_OUT_OF_HOST_MEMORY);
        return NULL;
    }
    kernel->arg_block = arg_block;
    kernel->args = args;
    kernel->program = program;
    kernel->info = info;
    rt_object_hold(RT_OBJ(program));
    program->kernels_attached++;
    api_set_error(errcode_ret, CL_SUCCESS);
    return kernel;
}

API_EXPORT CL_API_ENTRY cl_kernel CL_API_CALL
clCreateKernel(cl_program program, const char *kernel_name, cl_int *errcode_ret)
{
    if (!api_valid_program(program)) {
        api_set_error(errcode_ret, CL_INVALID_PROGRAM);
        return NULL;
    }
    cl_kernel kernel = NULL;
    pthread_mutex_lock(&program->lock);
    if (!program->built) {
        api_set_error(errcode_ret, CL_INVALID_PROGRAM_EXECUTABLE);
    } else if (!kernel_name) {
        api_set_error(errcode_ret, CL_INVALID_VALUE);
    } else {
        const struct cc_kernel_info *info = cc_program_find_kernel(program->built, kernel_name);
        if (!info)
            api_set_error(errcode_ret, CL_INVALID_KERNEL_NAME);
        else
            kernel = new_kernel(program, info, errcode_ret);
    }
    pthread_mutex_unlock(&program->lock);
    return kernel;
}

API_EXPORT CL_API_ENTRY cl_int CL_API_CALL
clCreateKernelsInProgram(cl_program program, cl_uint num_kernels, cl_kernel *kernels,
                         cl_uint *num_kernels_ret)
{
    if (!api_valid_program(program))
        return CL_INVALID_PROGRAM;
    cl_int err = CL_SUCCESS;
    pthread_mutex_lock(&program->lock);
    if (!program->built) {
        err = CL_INVALID_PROGRAM_EXECUTABLE;
        goto out;
    }
    unsigned n = cc_program_num_kernels(program->built);
    if (kernels && num_kernels < n) {
        err = CL_INVALID_VALUE;
        goto out;
    }
    if (kernels) {
        for (unsigned i = 0; i < n; i++) {
            kernels[i] = new_kernel(program, cc_program_kernel(program->built, i), &err);
            if (!kernels[i]) {
                while (i--) {
                    pthread_mutex_unlock(&program->lock);
                    rt_object_release(RT_OBJ(kernels[i]));
                    pthread_mutex_lock(&program->lock);
                }
                goto out;
            }
        }
    }
    if (num_kernels_ret)
        *num_kernels_ret = n;
out:
    pthread_mutex_unlock(&program->lock);
    return err;
}

API_EXPORT CL_API_ENTRY cl_int CL_API_CALL clRetainKernel(cl_kernel kernel)
{
    if (!api_valid_kernel(kernel))
        return CL_INVALID_KERNEL;
    rt_object_retain(RT_OBJ(kernel));
    return CL_SUCCESS;
}

API_EXPORT CL_API_ENTRY cl_int CL_API_CALL clReleaseKernel(cl_kernel kernel)
{
    if (!api_valid_kernel(kernel))
        return CL_INVALID_KERNEL;
    rt_object_release(RT_OBJ(kernel));
    return CL_SUCCESS;
}

API_EXPORT CL_API_ENTRY cl_int CL_API_CALL
clSetKernelArg(cl_kernel kernel, cl_uint arg_index, size_t arg_size, const void *arg_value)
{
    if (!api_valid_kernel(kernel))
        return CL_INVALID_KERNEL;
    if (arg_index >= kernel->info->num_args)
        return CL_INVALID_ARG_INDEX;
    const struct cc_arg_info *arg = &kernel->info->args[arg_index];
    struct rt_kernel_arg *state = &kernel->args[arg_index];
    switch (arg->kind) {
    case CC_ARG_BUFFER: {
        if (arg_size != sizeof(cl_mem))
            return CL_INVALID_ARG_SIZE;
        /* 5.9.2: a NULL value or a NULL cl_mem gives the kernel NULL. */
        cl_mem mem = arg_value ? *(const cl_mem *)arg_value : NULL;
        if (mem && (!api_valid_mem(mem) || mem->type != CL_MEM_OBJECT_BUFFER))
            return CL_INVALID_MEM_OBJECT;
        /* cl_ext_immutable_memory_objects: a buffer no command may change
         * cannot back a pointer the kernel may write through (to non-const
         * global memory; the CTS's negative_set_immutable_memory_to_
         * writeable_kernel_arg) */
        if (mem && api_mem_immutable(mem) && !(arg->type_qualifier & CL_KERNEL_ARG_TYPE_CONST))
            return CL_INVALID_ARG_VALUE;
        state->mem = mem;
        state->is_svm = false;
        break;
    }
    case CC_ARG_LOCAL:
        if (arg_value)
            return CL_INVALID_ARG_VALUE;
        if (arg_size == 0)
            return CL_INVALID_ARG_SIZE;
        state->local_size = arg_size;
        break;
    case CC_ARG_VALUE:
        if (!arg_value)
            return CL_INVALID_ARG_VALUE;
        if (arg_size != arg->size)
            return CL_INVALID_ARG_SIZE;
        memcpy(kernel->arg_block + arg->offset, arg_value, arg_size);
        break;
    case CC_ARG_IMAGE: {
        if (arg_size != sizeof(cl_mem))
            return CL_INVALID_ARG_SIZE;
        if (!arg_value)
            return CL_INVALID_ARG_VALUE;
        cl_mem image = *(const cl_mem *)arg_value;
        if (!api_is_image(image))
            return CL_INVALID_MEM_OBJECT;
        /* cl_khr_gl_msaa_sharing: a multi-sample image argument
         * (image2d_msaa_t ...) takes multi-sample images, no other does */
        bool msaa_arg = arg->type_name && strstr(arg->type_name, "_msaa") != NULL;
        if (msaa_arg != (image->desc.num_samples > 1))
            return CL_INVALID_MEM_OBJECT;
        /* 5.9.2: a read_only argument cannot take a write-only image, nor
         * a write_only one a read-only or immutable image. */
        if ((arg->access_qualifier == CL_KERNEL_ARG_ACCESS_READ_ONLY &&
             (image->flags & CL_MEM_WRITE_ONLY)) ||
            (arg->access_qualifier == CL_KERNEL_ARG_ACCESS_WRITE_ONLY &&
             (image->flags & (CL_MEM_READ_ONLY | CL_MEM_IMMUTABLE_EXT))))
            return CL_INVALID_ARG_VALUE;
        state->mem = image;
        state->is_svm = false;
        break;
    }
    case CC_ARG_SAMPLER: {
        if (arg_size != sizeof(cl_sampler))
            return CL_INVALID_ARG_SIZE;
        if (!arg_value || !api_valid_sampler(*(const cl_sampler *)arg_value))
            return CL_INVALID_SAMPLER;
        /* the kernel's sampler_t holds the sampler's value (builtins/image.h) */
        uint64_t value = (*(const cl_sampler *)arg_value)->value;
        memcpy(kernel->arg_block + arg->offset, &value, sizeof value);
        break;
    }
    case CC_ARG_PIPE: {
        if (arg_size != sizeof(cl_mem))
            return CL_INVALID_ARG_SIZE;
        if (!arg_value)
            return CL_INVALID_ARG_VALUE;
        cl_mem pipe = *(const cl_mem *)arg_value;
        if (!api_valid_mem(pipe))
            return CL_INVALID_MEM_OBJECT;
        if (pipe->type != CL_MEM_OBJECT_PIPE)
            return CL_INVALID_ARG_VALUE; /* a memory object, but no pipe */
        state->mem = pipe;
        state->is_svm = false;
        break;
    }
    case CC_ARG_QUEUE: {
        /* 5.9.2: a queue_t argument takes an on-device queue */
        if (arg_size != sizeof(cl_command_queue))
            return CL_INVALID_ARG_SIZE;
        cl_command_queue queue = arg_value ? *(const cl_command_queue *)arg_value : NULL;
        if (!api_valid_any_queue(queue) || !(queue->properties & CL_QUEUE_ON_DEVICE))
            return CL_INVALID_DEVICE_QUEUE;
        memcpy(kernel->arg_block + arg->offset, &queue, sizeof queue);
        break;
    }
    }
    state->set = true;
    return CL_SUCCESS;
}

API_EXPORT CL_API_ENTRY cl_int CL_API_CALL
clGetKernelInfo(cl_kernel kernel, cl_kernel_info param_name, size_t param_value_size,
                void *param_value, size_t *param_value_size_ret)
{
    if (!api_valid_kernel(kernel))
        return CL_INVALID_KERNEL;
    switch (param_name) {
    case CL_KERNEL_FUNCTION_NAME:
        return API_INFO_STRING(kernel->info->name);
    case CL_KERNEL_NUM_ARGS: {
        cl_uint n = kernel->info->num_args;
        return API_INFO(n);
    }
    case CL_KERNEL_REFERENCE_COUNT: {
        cl_uint count = atomic_load(&kernel->obj.refcount);
        return API_INFO(count);
    }
    case CL_KERNEL_CONTEXT:
        return API_INFO(kernel->program->context);
    case CL_KERNEL_PROGRAM:
        return API_INFO(kernel->program);
    case CL_KERNEL_ATTRIBUTES:
        return API_INFO_STRING(kernel->info->attributes ? kernel->info->attributes : "");
    default:
        return CL_INVALID_VALUE;
    }
}

size_t api_kernel_local_mem_size(cl_kernel kernel)
{
    size_t total = kernel->info->local_mem_size;
    for (unsigned i = 0; i < kernel->info->num_args; i++)
        if (kernel->info->args[i].kind == CC_ARG_LOCAL)
            total = ((total + 127) & ~(size_t)127) + kernel->args[i].local_size;
    return total;
}

/* The device a work-group or sub-group query is about: one of the
 * program's context, or NULL when the context has only one (5.9.3). */
static bool kernel_device(cl_kernel kernel, cl_device_id *device)
{
    cl_context context = kernel->program->context;
    if (*device == NULL && context->num_devices == 1)
        *device = context->devices[0];
    bool found = false;
    for (cl_uint i = 0; *device && i < context->num_devices; i++)
        found |= context->devices[i] == *device;
    return found && api_valid_device(*device);
}

API_EXPORT CL_API_ENTRY cl_int CL_API_CALL
clGetKernelWorkGroupInfo(cl_kernel kernel, cl_device_id device,
                         cl_kernel_work_group_info param_name, size_t param_value_size,
                         void *param_value, size_t *param_value_size_ret)
{
    if (!api_valid_kernel(kernel))
        return CL_INVALID_KERNEL;
    if (!kernel_device(kernel, &device))
        return CL_INVALID_DEVICE;
    const struct cc_kernel_info *info = kernel->info;
    switch (param_name) {
    case CL_KERNEL_WORK_GROUP_SIZE: {
        size_t size = api_device_max_work_group_size(device);
        return API_INFO(size);
    }
    case CL_KERNEL_COMPILE_WORK_GROUP_SIZE:
        return api_info(param_value_size, param_value, param_value_size_ret,
                        info->reqd_work_group_size, sizeof info->reqd_work_group_size);
    case CL_KERNEL_LOCAL_MEM_SIZE: {
        cl_ulong size = api_kernel_local_mem_size(kernel);
        return API_INFO(size);
    }
    case CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE: {
        size_t multiple = cc_sub_group_size(); /* the x loop fills the registers */
        return API_INFO(multiple);
    }
    case CL_KERNEL_PRIVATE_MEM_SIZE: {
        size_t bytes = 0;
        cl_int err = cc_kernel_private_mem_size(kernel->program->built, info, &bytes);
        if (err)
            return err;
        cl_ulong size = bytes;
        return API_INFO(size);
    }
    case CL_KERNEL_GLOBAL_WORK_SIZE:
        /* 5.9.3: only for custom devices and built-in kernels. */
    default:
        return CL_INVALID_VALUE;
    }
}

API_EXPORT CL_API_ENTRY cl_int CL_API_CALL
clGetKernelArgInfo(cl_kernel kernel, cl_uint arg_index, cl_kernel_arg_info param_name,
                   size_t param_value_size, void *param_value, size_t *param_value_size_ret)
{
    if (!api_valid_kernel(kernel))
        return CL_INVALID_KERNEL;
    if (arg_index >= kernel->info->num_args)
        return CL_INVALID_ARG_INDEX;
    const struct cc_arg_info *arg = &kernel->info->args[arg_index];
    switch (param_name) {
    case CL_KERNEL_ARG_ADDRESS_QUALIFIER:
        return API_INFO(arg->address_qualifier);
    case CL_KERNEL_ARG_ACCESS_QUALIFIER:
        return API_INFO(arg->access_qualifier);
    case CL_KERNEL_ARG_TYPE_NAME:
        return API_INFO_STRING(arg->type_name ? arg->type_name : "");
    case CL_KERNEL_ARG_TYPE_QUALIFIER:
        return API_INFO(arg->type_qualifier);
    case CL_KERNEL_ARG_NAME:
        /* 5.9.4: names are kept only with -cl-kernel-arg-info. */
        if (!arg->name)
            return CL_KERNEL_ARG_INFO_NOT_AVAILABLE;
        return API_INFO_STRING(arg->name);
    default:
        return CL_INVALID_VALUE;
    }
}

API_EXPORT CL_API_ENTRY cl_kernel CL_API_CALL clCloneKernel(cl_kernel source, cl_int *errcode_ret)
{
    if (!api_valid_kernel(source)) {
        api_set_error(errcode_ret, CL_INVALID_KERNEL);
        return NULL;
    }
    cl_program program = source->program;
    pthread_mutex_lock(&program->lock);
    cl_kernel kernel = new_kernel(program, source->info, errcode_ret);
    pthread_mutex_unlock(&program->lock);
    if (!kernel)
        return NULL;
    memcpy(kernel->arg_block, source->arg_block, source->info->arg_block_size);
    memcpy(kernel->args, source->args, source->info->num_args * sizeof *kernel->args);
    return kernel;
}

/* 5.9.3, table 5.22. Sub-group k of a work-group holds the work-items of
 * local linear ids [k * S, (k + 1) * S), S = the kernel's sub_group_size
 * (cc_sub_group_size(), or 1: src/compiler/workgroup.c), the mapping the
 * built-in library implements (src/builtins/workgroup.cl). */
API_EXPORT CL_API_ENTRY cl_int CL_API_CALL
clGetKernelSubGroupInfo(cl_kernel kernel, cl_device_id device, cl_kernel_sub_group_info param_name,
                        size_t input_value_size, const void *input_value,
                        size_t param_value_size, void *param_value, size_t *param_value_size_ret)
{
    if (!api_valid_kernel(kernel))
        return CL_INVALID_KERNEL;
    if (!kernel_device(kernel, &device))
        return CL_INVALID_DEVICE;
    size_t s = kernel->info->sub_group_size, max_items = api_device_max_work_group_size(device);
    switch (param_name) {
    case CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE:
    case CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE: {
        /* input: the local work size, one size_t per dimension */
        if (!input_value || input_value_size == 0 || input_value_size % sizeof(size_t) ||
            input_value_size > 3 * sizeof(size_t))
            return CL_INVALID_VALUE;
        const size_t *local = input_value;
        size_t items = 1;
        for (size_t d = 0; d < input_value_size / sizeof(size_t); d++)
            items *= local[d];
        size_t answer = param_name == CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE ? (items + s - 1) / s
                        : items < s                                        ? items
                                                                           : s;
        return API_INFO(answer);
    }
    case CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT: {
        /* input: a sub-group count; the answer has as many dimensions as
         * param_value_size holds, all zero when no local size gives that
         * count. A kernel with reqd_work_group_size has only that size. */
        if (!input_value || input_value_size != sizeof(size_t))
            return CL_INVALID_VALUE;
        size_t dims = param_value_size / sizeof(size_t);
        if (param_value && (dims == 0 || dims > 3 || param_value_size % sizeof(size_t)))
            return CL_INVALID_VALUE;
        if (!param_value)
            dims = 3;
        size_t count = *(const size_t *)input_value, local[3] = {0, 0, 0};
        const size_t *reqd = kernel->info->reqd_work_group_size;
        if (reqd[0]) {
            size_t items = reqd[0] * reqd[1] * reqd[2];
            if ((items + s - 1) / s == count && (dims == 3 || reqd[2] == 1) &&
                (dims >= 2 || reqd[1] == 1))
                for (size_t d = 0; d < dims; d++)
                    local[d] = reqd[d];
        } else if (count > 0 && count * s <= max_items) {
            local[0] = count * s;
            for (size_t d = 1; d < dims; d++)
                local[d] = 1;
        }
        return api_info(param_value_size, param_value, param_value_size_ret, local,
                        dims * sizeof(size_t));
    }
    case CL_KERNEL_MAX_NUM_SUB_GROUPS: {
        size_t answer = (max_items + s - 1) / s;
        return API_INFO(answer);
    }
    case CL_KERNEL_COMPILE_NUM_SUB_GROUPS: {
        size_t answer = 0; /* OpenCL C has no attribute that fixes it */
        return API_INFO(answer);
    }
    default:
        return CL_INVALID_VALUE;
    }
}

/* cl_khr_subgroups' name for the same query (also the ICD dispatch slot). */
API_EXPORT CL_API_ENTRY cl_int CL_API_CALL
clGetKernelSubGroupInfoKHR(cl_kernel kernel, cl_device_id device,
                           cl_kernel_sub_group_info param_name, size_t input_value_size,
                           const void *input_value, size_t param_value_size, void *param_value,
                           size_t *param_value_size_ret)
{
    return clGetKernelSubGroupInfo(kernel, device, param_name, input_value_size, input_value,
                                   param_value_size, param_value, param_value_size_ret);
}
