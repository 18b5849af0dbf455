/* mutable_dispatch.c - kernel launches in a command-buffer that updates
 * change between runs (cl_khr_command_buffer_mutable_dispatch 0.9.5; API
 * spec "Mutable Commands").
 *
 * A recorded launch keeps, beside its built command, a clone of its kernel
 * (`state`) holding the launch's arguments, and its sizes. An update works
 * on a fresh clone of that state: it sets the new arguments and execution
 * info through clSetKernelArg, clSetKernelArgSVMPointer and
 * clSetKernelExecInfo and builds the launch again with
 * api_build_ndrange_kernel, so that every value is checked as those
 * functions and clEnqueueNDRangeKernel check it. Only when every config of
 * the call has been built are they all swapped in (API spec: on an error
 * none of the updates is kept). Runs in flight hold copies of the old
 * launches, so an update never waits for them, and a buffer may run while
 * it is updated (simultaneous use).
 */
#include <stdlib.h>

#include "api/api.h"

/* 0.9.5's names and values (Debian 12's headers have 0.9.0's) */
#define DISPATCH_CONFIG 0       /* CL_STRUCTURE_TYPE_MUTABLE_DISPATCH_CONFIG_KHR */
#define UPDATABLE_FIELDS 0x12B1 /* CL_MUTABLE_DISPATCH_UPDATABLE_FIELDS_KHR */
#define FIELD_OFFSET ((cl_bitfield)1 << 0)
#define FIELD_GLOBAL ((cl_bitfield)1 << 1)
#define FIELD_LOCAL ((cl_bitfield)1 << 2)
#define FIELD_ARGUMENTS ((cl_bitfield)1 << 3)
#define FIELD_EXEC_INFO ((cl_bitfield)1 << 4)
#define INFO_QUEUE 0x12A0      /* CL_MUTABLE_COMMAND_COMMAND_QUEUE_KHR */
#define INFO_BUFFER 0x12A1     /* CL_MUTABLE_COMMAND_COMMAND_BUFFER_KHR */
#define INFO_TYPE 0x12AD       /* CL_MUTABLE_COMMAND_COMMAND_TYPE_KHR */
#define INFO_PROPERTIES 0x12A2 /* CL_MUTABLE_COMMAND_PROPERTIES_ARRAY_KHR */
#define INFO_KERNEL 0x12A3     /* CL_MUTABLE_DISPATCH_KERNEL_KHR */
#define INFO_DIMENSIONS 0x12A4 /* CL_MUTABLE_DISPATCH_DIMENSIONS_KHR */
#define INFO_OFFSET 0x12A5     /* CL_MUTABLE_DISPATCH_GLOBAL_WORK_OFFSET_KHR */
#define INFO_GLOBAL 0x12A6     /* CL_MUTABLE_DISPATCH_GLOBAL_WORK_SIZE_KHR */
#define INFO_LOCAL 0x12A7      /* CL_MUTABLE_DISPATCH_LOCAL_WORK_SIZE_KHR */

/* cl_mutable_dispatch_config_khr as 0.9.5 lays it out (0.9.0's starts
 * with a type and a next pointer) */
struct dispatch_config {
    cl_mutable_command_khr command;
    cl_uint num_args;
    cl_uint num_svm_args;
    cl_uint num_exec_infos;
    cl_uint work_dim;
    const cl_mutable_dispatch_arg_khr *arg_list;
    const cl_mutable_dispatch_arg_khr *arg_svm_list;
    const cl_mutable_dispatch_exec_info_khr *exec_info_list;
    const size_t *global_work_offset;
    const size_t *global_work_size;
    const size_t *local_work_size;
};

static void sizes_from(struct rt_launch_sizes *s, cl_uint work_dim, const size_t *offset,
                       const size_t *global, const size_t *local)
{
    memset(s, 0, sizeof *s);
    s->work_dim = work_dim;
    /* an invalid work_dim is the builder's CL_INVALID_WORK_DIMENSION: the
     * arrays are not read then */
    for (cl_uint d = 0; work_dim <= 3 && d < work_dim; d++) {
        s->offset[d] = offset ? offset[d] : 0;
        s->global[d] = global ? global[d] : 0;
        s->local[d] = local ? local[d] : 0;
    }
    s->has_offset = offset != NULL;
    s->has_global = global != NULL;
    s->has_local = local != NULL;
}

static cl_int build(cl_command_buffer_khr buffer, cl_kernel kernel, const struct rt_launch_sizes *s,
                    bool args_later, struct rt_command **out)
{
    unsigned use = API_LAUNCH_RECORDED | (args_later ? API_LAUNCH_ARGS_LATER : 0);
    return api_build_ndrange_kernel(
        buffer->queue, kernel, s->work_dim, s->has_offset ? s->offset : NULL,
        s->has_global ? s->global : NULL, s->has_local ? s->local : NULL, 0, NULL, use, out);
}

/* A launch's properties: the fields updates may change (default: all,
 * CL_DEVICE_MUTABLE_DISPATCH_CAPABILITIES_KHR) and the assertion of no
 * additional work-groups. */
static cl_int read_properties(const cl_properties *properties, cl_bitfield *updatable,
                              cl_bitfield *asserts, size_t *count)
{
    *updatable = API_MUTABLE_FIELDS;
    *asserts = 0;
    *count = 0;
    if (!properties)
        return CL_SUCCESS;
    bool has_fields = false, has_asserts = false;
    size_t i = 0;
    for (; properties[i]; i += 2) {
        if (i >= 4)
            return CL_INVALID_VALUE;
        cl_bitfield value = properties[i + 1];
        if (properties[i] == UPDATABLE_FIELDS && !has_fields && !(value & ~API_MUTABLE_FIELDS)) {
            has_fields = true;
            *updatable = value;
        } else if (properties[i] == API_COMMAND_ASSERTS && !has_asserts &&
                   !(value & ~API_NO_ADDITIONAL_WORK_GROUPS)) {
            has_asserts = true;
            *asserts = value;
        } else {
            return CL_INVALID_VALUE;
        }
    }
    *count = i + 1;
    return CL_SUCCESS;
}

cl_int api_record_launch(cl_command_buffer_khr buffer, const cl_properties *properties,
                         cl_kernel kernel, cl_uint work_dim, const size_t *global_work_offset,
                         const size_t *global_work_size, const size_t *local_work_size,
                         bool want_handle, struct rt_command **command,
                         cl_mutable_command_khr *handle)
{
    cl_bitfield updatable, asserts;
    size_t num_properties;
    cl_int err = read_properties(properties, &updatable, &asserts, &num_properties);
    if (err)
        return err;
    /* the asserted work-group count needs a local size to count by */
    if (((asserts | buffer->asserts) & API_NO_ADDITIONAL_WORK_GROUPS) && !local_work_size)
        return CL_INVALID_VALUE;
    bool is_mutable = (buffer->flags & API_MUTABLE_FLAG) != 0;
    struct rt_launch_sizes s;
    sizes_from(&s, work_dim, global_work_offset, global_work_size, local_work_size);
    /* a mutable launch may leave its arguments to an update */
    bool args_later = is_mutable && (updatable & FIELD_ARGUMENTS);
    if ((err = build(buffer, kernel, &s, args_later, command)))
        return err;
    if (!is_mutable && !want_handle)
        return CL_SUCCESS;
    cl_mutable_command_khr m = calloc(1, sizeof *m);
    cl_kernel state = m ? clCloneKernel(kernel, &err) : NULL;
    if (!state) {
        free(m);
        if (*command)
            rt_command_discard(*command);
        *command = NULL;
        return m ? err : CL_OUT_OF_HOST_MEMORY;
    }
    m->magic = RT_MUTABLE_MAGIC;
    m->buffer = buffer;
    m->kernel = kernel;
    rt_object_hold(RT_OBJ(kernel));
    m->state = state;
    m->updatable = updatable;
    m->num_properties = num_properties;
    if (num_properties)
        memcpy(m->properties, properties, num_properties * sizeof *properties);
    m->sizes = s;
    *handle = m;
    return CL_SUCCESS;
}

/* --- updates --- */

/* One config of an update, made ready but not yet swapped in. */
struct prepared {
    cl_mutable_command_khr m;
    cl_kernel state;            /* retained */
    struct rt_command *command; /* NULL while arguments are missing */
    struct rt_launch_sizes sizes;
};

static bool uniform(const struct rt_launch_sizes *s)
{
    for (cl_uint d = 0; s->has_local && s->has_global && d < s->work_dim; d++)
        if (s->local[d] && s->global[d] % s->local[d])
            return false;
    return true;
}

/* The state and sizes a config starts from: the launch's, or what an
 * earlier config of the same call made of it. */
static const struct prepared *earlier(const struct prepared *done, cl_uint count,
                                      cl_mutable_command_khr m)
{
    for (cl_uint i = count; i-- > 0;)
        if (done[i].m == m)
            return &done[i];
    return NULL;
}

static cl_int apply_arguments(cl_kernel state, const struct dispatch_config *c)
{
    cl_int err = CL_SUCCESS;
    for (cl_uint i = 0; i < c->num_args && !err; i++)
        err = clSetKernelArg(state, c->arg_list[i].arg_index, c->arg_list[i].arg_size,
                             c->arg_list[i].arg_value);
    for (cl_uint i = 0; i < c->num_svm_args && !err; i++)
        err = clSetKernelArgSVMPointer(state, c->arg_svm_list[i].arg_index,
                                       c->arg_svm_list[i].arg_value);
    for (cl_uint i = 0; i < c->num_exec_infos && !err; i++)
        err = clSetKernelExecInfo(state, c->exec_info_list[i].param_name,
                                  c->exec_info_list[i].param_value_size,
                                  c->exec_info_list[i].param_value);
    return err;
}

/* Checks one config (API spec, clUpdateMutableCommandsKHR) and makes its
 * launch into *p. */
static cl_int prepare(cl_command_buffer_khr buffer, const struct dispatch_config *c,
                      const struct prepared *done, cl_uint num_done, struct prepared *p)
{
    cl_mutable_command_khr m = c->command;
    if (!m || m->magic != RT_MUTABLE_MAGIC || m->buffer != buffer)
        return CL_INVALID_MUTABLE_COMMAND_KHR;
    if ((c->arg_list == NULL) != (c->num_args == 0) ||
        (c->arg_svm_list == NULL) != (c->num_svm_args == 0) ||
        (c->exec_info_list == NULL) != (c->num_exec_infos == 0))
        return CL_INVALID_VALUE;
    if ((c->work_dim && c->work_dim != m->sizes.work_dim) ||
        (c->global_work_offset && !(m->updatable & FIELD_OFFSET)) ||
        (c->global_work_size && !(m->updatable & FIELD_GLOBAL)) ||
        (c->local_work_size && !(m->updatable & FIELD_LOCAL)) ||
        ((c->num_args || c->num_svm_args) && !(m->updatable & FIELD_ARGUMENTS)) ||
        (c->num_exec_infos && !(m->updatable & FIELD_EXEC_INFO)))
        return CL_INVALID_OPERATION;

    const struct prepared *before = earlier(done, num_done, m);
    struct rt_launch_sizes s = before ? before->sizes : m->sizes;
    bool was_uniform = uniform(&s);
    for (cl_uint d = 0; d < s.work_dim; d++) {
        if (c->global_work_offset)
            s.offset[d] = c->global_work_offset[d];
        if (c->global_work_size)
            s.global[d] = c->global_work_size[d];
        if (c->local_work_size)
            s.local[d] = c->local_work_size[d];
    }
    s.has_offset |= c->global_work_offset != NULL;
    s.has_global |= c->global_work_size != NULL;
    s.has_local |= c->local_work_size != NULL;
    if (uniform(&s) != was_uniform)
        return CL_INVALID_OPERATION;

    cl_int err;
    cl_kernel state = clCloneKernel(before ? before->state : m->state, &err);
    if (!state)
        return err;
    struct rt_command *command = NULL;
    if ((err = apply_arguments(state, c)) || (err = build(buffer, state, &s, true, &command))) {
        rt_object_release(RT_OBJ(state));
        return err;
    }
    *p = (struct prepared){.m = m, .state = state, .command = command, .sizes = s};
    return CL_SUCCESS;
}

/* Swaps a prepared launch in; the old command and state go. */
static void commit(cl_command_buffer_khr buffer, struct prepared *p)
{
    cl_mutable_command_khr m = p->m;
    struct rt_recorded *entry = &buffer->commands[m->index];
    if (entry->command)
        rt_command_discard(entry->command);
    entry->command = p->command;
    rt_object_release(RT_OBJ(m->state));
    m->state = p->state;
    m->sizes = p->sizes;
}

static cl_int CL_API_CALL update_mutable_commands(cl_command_buffer_khr buffer, cl_uint num_configs,
                                                  const cl_uint *config_types, const void **configs)
{
    if (!api_valid_command_buffer(buffer))
        return CL_INVALID_COMMAND_BUFFER_KHR;
    if ((config_types == NULL) != (num_configs == 0) || (configs == NULL) != (num_configs == 0))
        return CL_INVALID_VALUE;
    for (cl_uint i = 0; i < num_configs; i++)
        if (config_types[i] != DISPATCH_CONFIG || !configs[i])
            return CL_INVALID_VALUE;
    struct prepared *done = calloc(num_configs ? num_configs : 1, sizeof *done);
    if (!done)
        return CL_OUT_OF_HOST_MEMORY;
    pthread_mutex_lock(&buffer->lock);
    cl_int err = !buffer->finalized || !(buffer->flags & API_MUTABLE_FLAG) ? CL_INVALID_OPERATION
                                                                           : CL_SUCCESS;
    cl_uint count = 0;
    for (; count < num_configs && !err; count++)
        err = prepare(buffer, configs[count], done, count, &done[count]);
    if (err) {
        /* none is kept: the configs prepared before the failing one go */
        for (cl_uint i = 0; i + 1 < count; i++) {
            if (done[i].command)
                rt_command_discard(done[i].command);
            rt_object_release(RT_OBJ(done[i].state));
        }
    } else {
        for (cl_uint i = 0; i < count; i++)
            commit(buffer, &done[i]);
    }
    pthread_mutex_unlock(&buffer->lock);
    free(done);
    return err;
}

/* --- queries --- */

static cl_int CL_API_CALL get_mutable_command_info(cl_mutable_command_khr m, cl_uint param_name,
                                                   size_t param_value_size, void *param_value,
                                                   size_t *param_value_size_ret)
{
    if (!m || m->magic != RT_MUTABLE_MAGIC)
        return CL_INVALID_MUTABLE_COMMAND_KHR;
    size_t dims = m->sizes.work_dim * sizeof(size_t);
    switch (param_name) {
    case INFO_QUEUE: return API_INFO(m->buffer->queue);
    case INFO_BUFFER: return API_INFO(m->buffer);
    case INFO_TYPE: {
        cl_command_type type = CL_COMMAND_NDRANGE_KERNEL;
        return API_INFO(type);
    }
    case INFO_PROPERTIES:
        return api_info(param_value_size, param_value, param_value_size_ret, m->properties,
                        m->num_properties * sizeof m->properties[0]);
    case INFO_KERNEL: return API_INFO(m->kernel);
    case INFO_DIMENSIONS: return API_INFO(m->sizes.work_dim);
    /* sizes as last given; zeros where none was (API spec) */
    case INFO_OFFSET:
        return api_info(param_value_size, param_value, param_value_size_ret, m->sizes.offset, dims);
    case INFO_GLOBAL:
        return api_info(param_value_size, param_value, param_value_size_ret, m->sizes.global, dims);
    case INFO_LOCAL:
        return api_info(param_value_size, param_value, param_value_size_ret, m->sizes.local, dims);
    default: return CL_INVALID_VALUE;
    }
}

void *api_mutable_dispatch_function(const char *name)
{
    if (!strcmp(name, "clUpdateMutableCommandsKHR"))
        return (void *)update_mutable_commands;
    if (!strcmp(name, "clGetMutableCommandInfoKHR"))
        return (void *)get_mutable_command_info;
    return NULL;
}
