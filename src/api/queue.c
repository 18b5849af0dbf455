/* queue.c - command queues (API spec 5.1), clFlush and clFinish. */
#include <stdlib.h>

#include "api/api.h"

static const cl_command_queue_properties host_queue_properties =
    CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE;

static cl_command_queue create_queue(cl_context context, cl_device_id device,
                                     cl_command_queue_properties properties, cl_uint size,
                                     int priority, const cl_queue_properties *list,
                                     size_t list_count, cl_int *errcode_ret)
{
    if (!api_valid_context(context)) {
        api_set_error(errcode_ret, CL_INVALID_CONTEXT);
        return NULL;
    }
    if (!api_valid_device(device) || !api_context_has_device(context, device)) {
        api_set_error(errcode_ret, CL_INVALID_DEVICE);
        return NULL;
    }
    if (properties & ~(host_queue_properties | CL_QUEUE_ON_DEVICE | CL_QUEUE_ON_DEVICE_DEFAULT)) {
        api_set_error(errcode_ret, CL_INVALID_VALUE);
        return NULL;
    }
    /* 5.1: an on-device queue must be out-of-order; ON_DEVICE_DEFAULT only
     * comes with ON_DEVICE; CL_QUEUE_SIZE at most the device's maximum. */
    bool on_device = properties & CL_QUEUE_ON_DEVICE;
    if (((properties & CL_QUEUE_ON_DEVICE_DEFAULT) && !on_device) ||
        (on_device && !(properties & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE)) ||
        size > API_DEVICE_QUEUE_MAX_SIZE) {
        api_set_error(errcode_ret, CL_INVALID_VALUE);
        return NULL;
    }
    cl_queue_properties *list_copy = NULL;
    if (list_count) {
        list_copy = malloc(list_count * sizeof *list);
        if (!list_copy)
            goto oom;
        memcpy(list_copy, list, list_count * sizeof *list);
    }
    cl_command_queue queue = rt_object_create(RT_QUEUE, sizeof *queue);
    if (!queue) {
        free(list_copy);
        goto oom;
    }
    queue->property_list = list_copy;
    queue->num_property_list = list_count;
    queue->context = context;
    queue->device = device;
    queue->properties = properties;
    queue->size = on_device ? (size ? size : API_DEVICE_QUEUE_PREFERRED_SIZE) : 0;
    queue->priority = priority;
    pthread_mutex_init(&queue->lock, NULL);
    pthread_cond_init(&queue->idle, NULL);
    rt_object_hold(RT_OBJ(context));
    rt_object_hold(RT_OBJ(device));
    if (on_device) {
        cl_command_queue existing;
        rt_add_device_queue(queue, properties & CL_QUEUE_ON_DEVICE_DEFAULT, &existing);
        if (existing) {
            rt_object_release(RT_OBJ(queue));
            api_set_error(errcode_ret, CL_SUCCESS);
            return existing;
        }
    }
    api_set_error(errcode_ret, CL_SUCCESS);
    return queue;
oom:
    api_set_error(errcode_ret, CL_OUT_OF_HOST_MEMORY);
    return NULL;
}

API_EXPORT CL_API_ENTRY cl_command_queue CL_API_CALL
clCreateCommandQueue(cl_context context, cl_device_id device,
                     cl_command_queue_properties properties, cl_int *errcode_ret)
{
    /* 5.1 (1.x): no on-device queues through the old entry point */
    if (properties & (CL_QUEUE_ON_DEVICE | CL_QUEUE_ON_DEVICE_DEFAULT)) {
        api_set_error(errcode_ret, !api_valid_context(context) ? CL_INVALID_CONTEXT
                                   : !api_valid_device(device) ? CL_INVALID_DEVICE
                                                               : CL_INVALID_VALUE);
        return NULL;
    }
    return create_queue(context, device, properties, 0, 0, NULL, 0, errcode_ret);
}

API_EXPORT CL_API_ENTRY cl_command_queue CL_API_CALL
clCreateCommandQueueWithProperties(cl_context context, cl_device_id device,
                                   const cl_queue_properties *properties, cl_int *errcode_ret)
{
    cl_command_queue_properties flags = 0;
    cl_uint size = 0;
    size_t n = 0;
    int seen_flags = 0, seen_size = 0, seen_priority = 0, seen_throttle = 0, priority = 0;
    for (; properties && properties[n]; n += 2) {
        switch (properties[n]) {
        case CL_QUEUE_PROPERTIES:
            if (seen_flags++)
                goto invalid;
            flags = (cl_command_queue_properties)properties[n + 1];
            break;
        case CL_QUEUE_SIZE:
            if (seen_size++ || properties[n + 1] == 0 || properties[n + 1] > CL_UINT_MAX)
                goto invalid;
            size = (cl_uint)properties[n + 1];
            break;
        case CL_QUEUE_PRIORITY_KHR:
            /* cl_khr_priority_hints: the queue's commands go before (after)
             * those of medium-priority queues on the workers */
            if (seen_priority++)
                goto invalid;
            switch (properties[n + 1]) {
            case CL_QUEUE_PRIORITY_HIGH_KHR: priority = 1; break;
            case CL_QUEUE_PRIORITY_MED_KHR: priority = 0; break;
            case CL_QUEUE_PRIORITY_LOW_KHR: priority = -1; break;
            default: goto invalid;
            }
            break;
        case CL_QUEUE_THROTTLE_KHR:
            /* cl_khr_throttle_hints: accepted and kept in
             * CL_QUEUE_PROPERTIES_ARRAY; a CPU's clock is the OS's to set,
             * so the hint changes nothing */
            if (seen_throttle++ || (properties[n + 1] != CL_QUEUE_THROTTLE_HIGH_KHR &&
                                    properties[n + 1] != CL_QUEUE_THROTTLE_MED_KHR &&
                                    properties[n + 1] != CL_QUEUE_THROTTLE_LOW_KHR))
                goto invalid;
            break;
        default:
            goto invalid;
        }
    }
    /* 5.1: CL_QUEUE_SIZE is for device queues only. */
    if (seen_size && !(flags & CL_QUEUE_ON_DEVICE))
        goto invalid;
    /* cl_khr_priority_hints, cl_khr_throttle_hints: host queues only */
    if ((seen_priority || seen_throttle) && (flags & CL_QUEUE_ON_DEVICE)) {
        if (!api_valid_context(context))
            api_set_error(errcode_ret, CL_INVALID_CONTEXT);
        else if (!api_valid_device(device) || !api_context_has_device(context, device))
            api_set_error(errcode_ret, CL_INVALID_DEVICE);
        else
            api_set_error(errcode_ret, CL_INVALID_QUEUE_PROPERTIES);
        return NULL;
    }
    return create_queue(context, device, flags, size, priority, properties,
                        properties ? n + 1 : 0, errcode_ret);
invalid:
    if (!api_valid_context(context))
        api_set_error(errcode_ret, CL_INVALID_CONTEXT);
    else if (!api_valid_device(device) || !api_context_has_device(context, device))
        api_set_error(errcode_ret, CL_INVALID_DEVICE);
    else
        api_set_error(errcode_ret, CL_INVALID_VALUE);
    return NULL;
}

API_EXPORT CL_API_ENTRY cl_int CL_API_CALL clRetainCommandQueue(cl_command_queue queue)
{
    if (!api_valid_any_queue(queue))
        return CL_INVALID_COMMAND_QUEUE;
    rt_object_retain(RT_OBJ(queue));
    return CL_SUCCESS;
}

API_EXPORT CL_API_ENTRY cl_int CL_API_CALL clReleaseCommandQueue(cl_command_queue queue)
{
    if (!api_valid_any_queue(queue))
        return CL_INVALID_COMMAND_QUEUE;
    /* 5.1: clReleaseCommandQueue performs an implicit flush; commands here
     * are submitted as soon as they are enqueued, so nothing is left to do. */
    rt_object_release(RT_OBJ(queue));
    return CL_SUCCESS;
}

API_EXPORT CL_API_ENTRY cl_int CL_API_CALL
clGetCommandQueueInfo(cl_command_queue queue, cl_command_queue_info param_name,
                      size_t param_value_size, void *param_value, size_t *param_value_size_ret)
{
    if (!api_valid_any_queue(queue))
        return CL_INVALID_COMMAND_QUEUE;
    switch (param_name) {
    case CL_QUEUE_CONTEXT:
        return API_INFO(queue->context);
    case CL_QUEUE_DEVICE:
        return API_INFO(queue->device);
    case CL_QUEUE_REFERENCE_COUNT: {
        cl_uint count = atomic_load(&queue->obj.refcount);
        return API_INFO(count);
    }
    case CL_QUEUE_PROPERTIES:
        return API_INFO(queue->properties);
    case CL_QUEUE_PROPERTIES_ARRAY:
        return api_info(param_value_size, param_value, param_value_size_ret, queue->property_list,
                        queue->num_property_list * sizeof(cl_queue_properties));
    case CL_QUEUE_SIZE:
        /* 5.1: "This query is only supported for device command queues";
         * the error is CL_INVALID_COMMAND_QUEUE, "if command_queue is not a
         * valid command-queue for param_name". */
        if (!(queue->properties & CL_QUEUE_ON_DEVICE))
            return CL_INVALID_COMMAND_QUEUE;
        return API_INFO(queue->size);
    case CL_QUEUE_DEVICE_DEFAULT: {
        /* 2.1: the device's current default device queue, for any queue */
        cl_command_queue current = rt_default_device_queue(queue->context, queue->device);
        return API_INFO(current);
    }
    default:
        return CL_INVALID_VALUE;
    }
}

API_EXPORT CL_API_ENTRY cl_int CL_API_CALL clFlush(cl_command_queue queue)
{
    if (!api_valid_queue(queue))
        return CL_INVALID_COMMAND_QUEUE;
    /* Commands go to the device as soon as they are ready; there is no
     * batch to push. */
    return CL_SUCCESS;
}

API_EXPORT CL_API_ENTRY cl_int CL_API_CALL clFinish(cl_command_queue queue)
{
    if (!api_valid_queue(queue))
        return CL_INVALID_COMMAND_QUEUE;
    rt_queue_finish(queue);
    return CL_SUCCESS;
}

API_EXPORT CL_API_ENTRY cl_int CL_API_CALL
clSetCommandQueueProperty(cl_command_queue queue, cl_command_queue_properties properties,
                          cl_bool enable, cl_command_queue_properties *old_properties)
{
    /* OpenCL 1.0 5.1: changes the properties of a live queue. Commands
     * already enqueued keep the order they were given. */
    if (!api_valid_queue(queue))
        return CL_INVALID_COMMAND_QUEUE;
    if (properties & ~host_queue_properties)
        return CL_INVALID_VALUE;
    pthread_mutex_lock(&queue->lock);
    if (old_properties)
        *old_properties = queue->properties;
    if (enable)
        queue->properties |= properties;
    else
        queue->properties &= ~properties;
    pthread_mutex_unlock(&queue->lock);
    return CL_SUCCESS;
}

/* 5.1 (2.1): makes an on-device queue of the device its default. */
API_EXPORT CL_API_ENTRY cl_int CL_API_CALL
clSetDefaultDeviceCommandQueue(cl_context context, cl_device_id device,
                               cl_command_queue command_queue)
{
    if (!api_valid_context(context))
        return CL_INVALID_CONTEXT;
    if (!api_valid_device(device) || !api_context_has_device(context, device))
        return CL_INVALID_DEVICE;
    if (!api_valid_any_queue(command_queue) || command_queue->device != device ||
        command_queue->context != context || !(command_queue->properties & CL_QUEUE_ON_DEVICE))
        return CL_INVALID_COMMAND_QUEUE;
    rt_set_default_device_queue(command_queue);
    return CL_SUCCESS;
}

/* cl_khr_create_command_queue: the 2.0 entry point under its 1.2 name. */
API_EXPORT CL_API_ENTRY cl_command_queue CL_API_CALL
clCreateCommandQueueWithPropertiesKHR(cl_context context, cl_device_id device,
                                      const cl_queue_properties_khr *properties,
                                      cl_int *errcode_ret)
{
    return clCreateCommandQueueWithProperties(context, device, properties, errcode_ret);
}
