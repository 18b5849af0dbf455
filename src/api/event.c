/* event.c - events, user events, waits, markers and barriers (API spec 5.11-5.12, 5.14). */
#include <stdlib.h>

#include "api/api.h"

API_EXPORT CL_API_ENTRY cl_int CL_API_CALL clWaitForEvents(cl_uint num_events,
                                                          const cl_event *event_list)
{
    if (num_events == 0 || !event_list)
        return CL_INVALID_VALUE;
    for (cl_uint i = 0; i < num_events; i++) {
        if (!api_valid_event(event_list[i]))
            return CL_INVALID_EVENT;
        if (event_list[i]->context != event_list[0]->context)
            return CL_INVALID_CONTEXT;
    }
    cl_int result = CL_SUCCESS;
    for (cl_uint i = 0; i < num_events; i++)
        if (rt_event_wait(event_list[i]) < 0)
            result = CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
    return result;
}

API_EXPORT CL_API_ENTRY cl_int CL_API_CALL
clGetEventInfo(cl_event event, cl_event_info param_name, size_t param_value_size,
               void *param_value, size_t *param_value_size_ret)
{
    if (!api_valid_event(event))
        return CL_INVALID_EVENT;
    switch (param_name) {
    case CL_EVENT_COMMAND_QUEUE:
        return API_INFO(event->queue);
    case CL_EVENT_CONTEXT:
        return API_INFO(event->context);
    case CL_EVENT_COMMAND_TYPE:
        return API_INFO(event->command_type);
    case CL_EVENT_COMMAND_EXECUTION_STATUS: {
        pthread_mutex_lock(&event->lock);
        cl_int status = event->status;
        pthread_mutex_unlock(&event->lock);
        return API_INFO(status);
    }
    case CL_EVENT_REFERENCE_COUNT: {
        cl_uint count = atomic_load(&event->obj.refcount);
        return API_INFO(count);
    }
    default:
        return CL_INVALID_VALUE;
    }
}

API_EXPORT CL_API_ENTRY cl_int CL_API_CALL
clGetEventProfilingInfo(cl_event event, cl_profiling_info param_name, size_t param_value_size,
                        void *param_value, size_t *param_value_size_ret)
{
    if (!api_valid_event(event))
        return CL_INVALID_EVENT;
    /* 5.14: only commands of a profiling queue have times, and only once
     * they are complete. */
    if (!event->queue || !(event->queue->properties & CL_QUEUE_PROFILING_ENABLE))
        return CL_PROFILING_INFO_NOT_AVAILABLE;
    pthread_mutex_lock(&event->lock);
    cl_int status = event->status;
    cl_ulong times[5];
    memcpy(times, event->times, sizeof times);
    pthread_mutex_unlock(&event->lock);
    if (status != CL_COMPLETE)
        return CL_PROFILING_INFO_NOT_AVAILABLE;
    cl_ulong value;
    switch (param_name) {
    case CL_PROFILING_COMMAND_QUEUED: value = times[0]; break;
    case CL_PROFILING_COMMAND_SUBMIT: value = times[1]; break;
    case CL_PROFILING_COMMAND_START: value = times[2]; break;
    case CL_PROFILING_COMMAND_END: value = times[3]; break;
    case CL_PROFILING_COMMAND_COMPLETE: value = times[4]; break;
    default: return CL_INVALID_VALUE;
    }
    return API_INFO(value);
}

API_EXPORT CL_API_ENTRY cl_int CL_API_CALL clRetainEvent(cl_event event)
{
    if (!api_valid_event(event))
        return CL_INVALID_EVENT;
    rt_object_retain(RT_OBJ(event));
    return CL_SUCCESS;
}

API_EXPORT CL_API_ENTRY cl_int CL_API_CALL clReleaseEvent(cl_event event)
{
    if (!api_valid_event(event))
        return CL_INVALID_EVENT;
    rt_object_release(RT_OBJ(event));
    return CL_SUCCESS;
}

API_EXPORT CL_API_ENTRY cl_event CL_API_CALL clCreateUserEvent(cl_context context,
                                                              cl_int *errcode_ret)
{
    if (!api_valid_context(context)) {
        api_set_error(errcode_ret, CL_INVALID_CONTEXT);
        return NULL;
    }
    cl_event event = rt_event_create(context, NULL, CL_COMMAND_USER, CL_SUBMITTED);
    api_set_error(errcode_ret, event ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY);
    return event;
}

API_EXPORT CL_API_ENTRY cl_int CL_API_CALL clSetUserEventStatus(cl_event event,
                                                               cl_int execution_status)
{
    if (!api_valid_event(event) || event->command_type != CL_COMMAND_USER)
        return CL_INVALID_EVENT;
    if (execution_status != CL_COMPLETE && execution_status >= 0)
        return CL_INVALID_VALUE;
    pthread_mutex_lock(&event->lock);
    int already = event->status <= CL_COMPLETE;
    pthread_mutex_unlock(&event->lock);
    /* 5.11: the status of a user event may be set only once. */
    if (already)
        return CL_INVALID_OPERATION;
    rt_event_set_status(event, execution_status);
    return CL_SUCCESS;
}

API_EXPORT CL_API_ENTRY cl_int CL_API_CALL
clSetEventCallback(cl_event event, cl_int command_exec_callback_type,
                   void (CL_CALLBACK *pfn_notify)(cl_event, cl_int, void *), void *user_data)
{
    if (!api_valid_event(event))
        return CL_INVALID_EVENT;
    if (!pfn_notify || (command_exec_callback_type != CL_SUBMITTED &&
                        command_exec_callback_type != CL_RUNNING &&
                        command_exec_callback_type != CL_COMPLETE))
        return CL_INVALID_VALUE;
    return rt_event_add_callback(event, command_exec_callback_type, pfn_notify, user_data);
}

static cl_int enqueue_sync(cl_command_queue queue, cl_command_type type, bool barrier,
                           cl_uint num_events, const cl_event *wait_list, cl_event *event)
{
    if (!api_valid_queue(queue))
        return CL_INVALID_COMMAND_QUEUE;
    /* 5.12: with no wait list a marker or barrier waits for every command
     * enqueued before it; a barrier also holds back the ones after it. A
     * marker with an empty list is ordered like a barrier here: stricter,
     * and what an application can observe is the same. */
    return api_enqueue_no_work(queue, type, barrier || num_events == 0, CL_FALSE, num_events,
                               wait_list, event);
}

API_EXPORT CL_API_ENTRY cl_int CL_API_CALL
clEnqueueMarkerWithWaitList(cl_command_queue queue, cl_uint num_events, const cl_event *wait_list,
                            cl_event *event)
{
    return enqueue_sync(queue, CL_COMMAND_MARKER, false, num_events, wait_list, event);
}

API_EXPORT CL_API_ENTRY cl_int CL_API_CALL
clEnqueueBarrierWithWaitList(cl_command_queue queue, cl_uint num_events,
                             const cl_event *wait_list, cl_event *event)
{
    return enqueue_sync(queue, CL_COMMAND_BARRIER, true, num_events, wait_list, event);
}

API_EXPORT CL_API_ENTRY cl_int CL_API_CALL clEnqueueMarker(cl_command_queue queue, cl_event *event)
{
    if (api_valid_queue(queue) && !event)
        return CL_INVALID_VALUE;
    return enqueue_sync(queue, CL_COMMAND_MARKER, false, 0, NULL, event);
}

API_EXPORT CL_API_ENTRY cl_int CL_API_CALL clEnqueueBarrier(cl_command_queue queue)
{
    return enqueue_sync(queue, CL_COMMAND_BARRIER, true, 0, NULL, NULL);
}

API_EXPORT CL_API_ENTRY cl_int CL_API_CALL
clEnqueueWaitForEvents(cl_command_queue queue, cl_uint num_events, const cl_event *event_list)
{
    if (!api_valid_queue(queue))
        return CL_INVALID_COMMAND_QUEUE;
    if (num_events == 0 || !event_list)
        return CL_INVALID_VALUE;
    for (cl_uint i = 0; i < num_events; i++)
        if (!api_valid_event(event_list[i]))
            return CL_INVALID_EVENT;
    return enqueue_sync(queue, CL_COMMAND_BARRIER, true, num_events, event_list, NULL);
}

API_EXPORT CL_API_ENTRY cl_int CL_API_CALL
clGetDeviceAndHostTimer(cl_device_id device, cl_ulong *device_timestamp,
                        cl_ulong *host_timestamp)
{
    if (!api_valid_device(device))
        return CL_INVALID_DEVICE;
    if (!device_timestamp || !host_timestamp)
        return CL_INVALID_VALUE;
    /* The device is the host: one clock serves both. */
    *device_timestamp = *host_timestamp = rt_now_ns();
    return CL_SUCCESS;
}

API_EXPORT CL_API_ENTRY cl_int CL_API_CALL clGetHostTimer(cl_device_id device,
                                                         cl_ulong *host_timestamp)
{
    if (!api_valid_device(device))
        return CL_INVALID_DEVICE;
    if (!host_timestamp)
        return CL_INVALID_VALUE;
    *host_timestamp = rt_now_ns();
    return CL_SUCCESS;
}
