/* context.c - contexts (API spec 4.4). */
#include <stdlib.h>

#include "api/api.h"

/* 4.4: properties are (name, value) pairs ending with 0. Known are
 * CL_CONTEXT_PLATFORM, CL_CONTEXT_INTEROP_USER_SYNC and cl_khr_gl_sharing's
 * (gl_sharing.c reads those), each at most once. */
static cl_int check_properties(const cl_context_properties *properties, size_t *count)
{
    int seen_platform = 0, seen_sync = 0;
    unsigned seen_gl = 0;
    size_t n = 0;
    if (!properties) {
        *count = 0;
        return CL_SUCCESS;
    }
    for (; properties[n]; n += 2) {
        switch (properties[n]) {
        case CL_CONTEXT_PLATFORM:
            if (seen_platform++)
                return CL_INVALID_PROPERTY;
            if (!api_valid_platform((cl_platform_id)properties[n + 1]))
                return CL_INVALID_PLATFORM;
            break;
        case CL_CONTEXT_INTEROP_USER_SYNC:
            if (seen_sync++ || (properties[n + 1] != CL_TRUE && properties[n + 1] != CL_FALSE))
                return CL_INVALID_PROPERTY;
            break;
        case CL_GL_CONTEXT_KHR:
        case CL_EGL_DISPLAY_KHR:
        case CL_GLX_DISPLAY_KHR:
        case CL_WGL_HDC_KHR:
        case CL_CGL_SHAREGROUP_KHR: {
            unsigned bit = 1u << (properties[n] - CL_GL_CONTEXT_KHR);
            if (seen_gl & bit)
                return CL_INVALID_PROPERTY;
            seen_gl |= bit;
            break;
        }
        default:
            return CL_INVALID_PROPERTY;
        }
    }
    *count = n + 1;
    return CL_SUCCESS;
}

static cl_context create_context(const cl_context_properties *properties, cl_uint num_devices,
                                 const cl_device_id *devices,
                                 void (CL_CALLBACK *notify)(const char *, const void *, size_t, void *),
                                 void *user_data, cl_int *errcode_ret)
{
    size_t num_properties;
    struct rt_gl *gl = NULL;
    cl_int err = check_properties(properties, &num_properties);
    if (err || (err = api_gl_open(properties, &gl)))
        goto fail;
    cl_context context = rt_object_create(RT_CONTEXT, sizeof *context);
    if (!context) {
        rt_gl_close(gl);
        goto oom;
    }
    pthread_mutex_init(&context->lock, NULL);
    context->gl = gl;
    context->notify = notify;
    context->notify_data = user_data;
    context->num_devices = num_devices;
    context->devices = malloc(num_devices * sizeof *devices);
    if (num_properties) {
        context->properties = malloc(num_properties * sizeof *properties);
        context->num_properties = num_properties;
    }
    if (!context->devices || (num_properties && !context->properties)) {
        /* Nothing is held yet: free by hand. */
        context->num_devices = 0;
        rt_object_release(RT_OBJ(context));
        goto oom;
    }
    if (num_properties)
        memcpy(context->properties, properties, num_properties * sizeof *properties);
    for (cl_uint i = 0; i < num_devices; i++) {
        context->devices[i] = devices[i];
        rt_object_hold(RT_OBJ(devices[i]));
    }
    api_set_error(errcode_ret, CL_SUCCESS);
    return context;
oom:
    err = CL_OUT_OF_HOST_MEMORY;
fail:
    api_set_error(errcode_ret, err);
    return NULL;
}

API_EXPORT CL_API_ENTRY cl_context CL_API_CALL
clCreateContext(const cl_context_properties *properties, cl_uint num_devices,
                const cl_device_id *devices,
                void (CL_CALLBACK *pfn_notify)(const char *, const void *, size_t, void *),
                void *user_data, cl_int *errcode_ret)
{
    if (!devices || num_devices == 0 || (!pfn_notify && user_data)) {
        api_set_error(errcode_ret, CL_INVALID_VALUE);
        return NULL;
    }
    for (cl_uint i = 0; i < num_devices; i++) {
        if (!api_valid_device(devices[i])) {
            api_set_error(errcode_ret, CL_INVALID_DEVICE);
            return NULL;
        }
    }
    return create_context(properties, num_devices, devices, pfn_notify, user_data, errcode_ret);
}

API_EXPORT CL_API_ENTRY cl_context CL_API_CALL
clCreateContextFromType(const cl_context_properties *properties, cl_device_type device_type,
                        void (CL_CALLBACK *pfn_notify)(const char *, const void *, size_t, void *),
                        void *user_data, cl_int *errcode_ret)
{
    if (!pfn_notify && user_data) {
        api_set_error(errcode_ret, CL_INVALID_VALUE);
        return NULL;
    }
    size_t count;
    cl_int err = check_properties(properties, &count);
    if (err) {
        api_set_error(errcode_ret, err);
        return NULL;
    }
    cl_device_id device;
    cl_uint found = 0;
    err = clGetDeviceIDs(rt_platform(), device_type, 1, &device, &found);
    if (err) {
        api_set_error(errcode_ret, err);
        return NULL;
    }
    return create_context(properties, 1, &device, pfn_notify, user_data, errcode_ret);
}

API_EXPORT CL_API_ENTRY cl_int CL_API_CALL clRetainContext(cl_context context)
{
    if (!api_valid_context(context))
        return CL_INVALID_CONTEXT;
    rt_object_retain(RT_OBJ(context));
    return CL_SUCCESS;
}

API_EXPORT CL_API_ENTRY cl_int CL_API_CALL clReleaseContext(cl_context context)
{
    if (!api_valid_context(context))
        return CL_INVALID_CONTEXT;
    rt_object_release(RT_OBJ(context));
    return CL_SUCCESS;
}

API_EXPORT CL_API_ENTRY cl_int CL_API_CALL
clGetContextInfo(cl_context context, cl_context_info param_name, size_t param_value_size,
                 void *param_value, size_t *param_value_size_ret)
{
    if (!api_valid_context(context))
        return CL_INVALID_CONTEXT;
    switch (param_name) {
    case CL_CONTEXT_REFERENCE_COUNT: {
        cl_uint count = atomic_load(&context->obj.refcount);
        return API_INFO(count);
    }
    case CL_CONTEXT_NUM_DEVICES:
        return API_INFO(context->num_devices);
    case CL_CONTEXT_DEVICES:
        return api_info(param_value_size, param_value, param_value_size_ret, context->devices,
                        context->num_devices * sizeof(cl_device_id));
    case CL_CONTEXT_PROPERTIES:
        return api_info(param_value_size, param_value, param_value_size_ret, context->properties,
                        context->num_properties * sizeof(cl_context_properties));
    default:
        return CL_INVALID_VALUE;
    }
}

API_EXPORT CL_API_ENTRY cl_int CL_API_CALL
clSetContextDestructorCallback(cl_context context,
                               void (CL_CALLBACK *pfn_notify)(cl_context, void *), void *user_data)
{
    if (!api_valid_context(context))
        return CL_INVALID_CONTEXT;
    if (!pfn_notify)
        return CL_INVALID_VALUE;
    return rt_callback_push(&context->destructor_callbacks, &context->lock, (void (CL_CALLBACK *)())pfn_notify,
                            user_data);
}

int api_context_has_device(cl_context context, cl_device_id device)
{
    for (cl_uint i = 0; i < context->num_devices; i++)
        if (context->devices[i] == device)
            return 1;
    return 0;
}

cl_int api_check_wait_list(cl_context context, cl_uint num_events, const cl_event *events)
{
    if ((num_events == 0) != (events == NULL))
        return CL_INVALID_EVENT_WAIT_LIST;
    for (cl_uint i = 0; i < num_events; i++) {
        if (!api_valid_event(events[i]))
            return CL_INVALID_EVENT_WAIT_LIST;
        if (context && events[i]->context != context)
            return CL_INVALID_CONTEXT;
    }
    return CL_SUCCESS;
}
