/* semaphore.c - binary semaphores (cl_khr_semaphore; API spec "Semaphores",
 * "Waiting On and Signaling Semaphores").
 *
 * A signal is a command that does no work: when it completes, the
 * semaphore is signaled. A wait is a command that depends on the signal it
 * takes: the event of the last signal enqueued that no wait has taken, or,
 * when a wait comes first, a user event of the semaphore's that the next
 * signal completes when it does (with its status, so a failed signal fails
 * the wait). Neither call blocks: a semaphore is safe to signal again as
 * soon as a wait has taken the signal, and to wait on again once signaled.
 * Signaling twice, or waiting twice, without the other in between is
 * undefined (API spec); here a second signal replaces the first and a
 * second wait shares the first's user event. Binary semaphores have no
 * payload: payload lists are ignored.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "api/api.h"

#define MAX_PROPERTIES 6 /* type (2), a one-device list (3), the terminating 0 */

/* the final extension's names (Debian 12's headers have the provisional
 * one's: CL_DEVICE_HANDLE_LIST_KHR, 0x2051, also taken here) */
#ifndef CL_SEMAPHORE_DEVICE_HANDLE_LIST_KHR
#define CL_SEMAPHORE_DEVICE_HANDLE_LIST_KHR 0x2053
#define CL_SEMAPHORE_DEVICE_HANDLE_LIST_END_KHR 0
#endif
#define PROVISIONAL_DEVICE_HANDLE_LIST_KHR 0x2051

static bool context_has(cl_context context, cl_device_id device)
{
    for (cl_uint i = 0; i < context->num_devices; i++)
        if (context->devices[i] == device)
            return true;
    return false;
}

/* Reads the properties into `semaphore` (its device, its copy of them). */
static cl_int read_properties(cl_context context, const cl_semaphore_properties_khr *props,
                              cl_semaphore_khr semaphore)
{
    if (!props)
        return CL_INVALID_VALUE;
    bool has_type = false, has_devices = false;
    size_t i = 0;
    while (props[i]) {
        if (props[i] == CL_SEMAPHORE_TYPE_KHR) {
            if (has_type || props[i + 1] != CL_SEMAPHORE_TYPE_BINARY_KHR)
                return CL_INVALID_PROPERTY;
            has_type = true;
            i += 2;
        } else if (props[i] == CL_SEMAPHORE_DEVICE_HANDLE_LIST_KHR ||
                   props[i] == PROVISIONAL_DEVICE_HANDLE_LIST_KHR) {
            if (has_devices)
                return CL_INVALID_PROPERTY;
            has_devices = true;
            size_t count = 0;
            for (i++; props[i] != CL_SEMAPHORE_DEVICE_HANDLE_LIST_END_KHR; i++, count++)
                semaphore->device = (cl_device_id)props[i];
            i++;
            /* exactly one device, of the context */
            if (count != 1 || !api_valid_device(semaphore->device) ||
                !context_has(context, semaphore->device))
                return CL_INVALID_DEVICE;
        } else {
            return CL_INVALID_PROPERTY;
        }
        if (i >= MAX_PROPERTIES)
            return CL_INVALID_PROPERTY;
    }
    if (!has_type)
        return CL_INVALID_VALUE;
    if (!has_devices) {
        /* a multi-device context must name the device */
        if (context->num_devices != 1)
            return CL_INVALID_PROPERTY;
        semaphore->device = context->devices[0];
    }
    semaphore->num_properties = i + 1;
    memcpy(semaphore->properties, props, (i + 1) * sizeof *props);
    return CL_SUCCESS;
}

API_EXPORT CL_API_ENTRY cl_semaphore_khr CL_API_CALL clCreateSemaphoreWithPropertiesKHR(
    cl_context context, const cl_semaphore_properties_khr *sema_props, cl_int *errcode_ret)
{
    cl_int err;
    if (!api_valid_context(context)) {
        api_set_error(errcode_ret, CL_INVALID_CONTEXT);
        return NULL;
    }
    cl_semaphore_khr semaphore = rt_object_create(RT_SEMAPHORE, sizeof *semaphore);
    if (!semaphore) {
        api_set_error(errcode_ret, CL_OUT_OF_HOST_MEMORY);
        return NULL;
    }
    semaphore->context = context;
    rt_object_hold(RT_OBJ(context));
    pthread_mutex_init(&semaphore->lock, NULL);
    if ((err = read_properties(context, sema_props, semaphore))) {
        rt_object_release(RT_OBJ(semaphore));
        api_set_error(errcode_ret, err);
        return NULL;
    }
    api_set_error(errcode_ret, CL_SUCCESS);
    return semaphore;
}

/* The checks both commands start with, in the spec's order; then the wait
 * list's, with its events' statuses (a failed one is an error here, for a
 * command that does not block). */
static cl_int check_command(cl_command_queue queue, cl_uint count,
                            const cl_semaphore_khr *semaphores, cl_uint num_events,
                            const cl_event *wait_list)
{
    if (!api_valid_queue(queue))
        return CL_INVALID_COMMAND_QUEUE;
    if (count == 0 || !semaphores)
        return CL_INVALID_VALUE;
    for (cl_uint i = 0; i < count; i++)
        if (!api_valid_semaphore(semaphores[i]))
            return CL_INVALID_SEMAPHORE_KHR;
    for (cl_uint i = 0; i < count; i++) {
        if (semaphores[i]->context != queue->context)
            return CL_INVALID_CONTEXT;
        if (semaphores[i]->device != queue->device)
            return CL_INVALID_COMMAND_QUEUE;
    }
    cl_int err = api_check_wait_list(queue->context, num_events, wait_list);
    for (cl_uint i = 0; i < num_events && !err; i++) {
        pthread_mutex_lock(&wait_list[i]->lock);
        if (wait_list[i]->status < 0)
            err = CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
        pthread_mutex_unlock(&wait_list[i]->lock);
    }
    return err;
}

/* A signal completed: so does the wait that came before it. */
static void CL_CALLBACK complete_waiter(cl_event signal, cl_int status, void *data)
{
    cl_event waiter = data;
    rt_event_set_status(waiter, status < 0 ? status : CL_COMPLETE);
    rt_object_release(RT_OBJ(waiter));
}

API_EXPORT CL_API_ENTRY cl_int CL_API_CALL clEnqueueSignalSemaphoresKHR(
    cl_command_queue command_queue, cl_uint num_sema_objects, const cl_semaphore_khr *sema_objects,
    const cl_semaphore_payload_khr *sema_payload_list, cl_uint num_events_in_wait_list,
    const cl_event *event_wait_list, cl_event *event)
{
    cl_int err = check_command(command_queue, num_sema_objects, sema_objects,
                               num_events_in_wait_list, event_wait_list);
    if (err)
        return err;
    cl_event done;
    err = api_enqueue_no_work(command_queue, CL_COMMAND_SEMAPHORE_SIGNAL_KHR, false, CL_FALSE,
                              num_events_in_wait_list, event_wait_list, &done);
    if (err)
        return err;
    for (cl_uint i = 0; i < num_sema_objects; i++) {
        cl_semaphore_khr semaphore = sema_objects[i];
        pthread_mutex_lock(&semaphore->lock);
        cl_event waiter = semaphore->waiter, replaced = NULL;
        semaphore->waiter = NULL;
        if (!waiter) {
            replaced = semaphore->signal;
            rt_object_retain(RT_OBJ(done));
            semaphore->signal = done;
        }
        pthread_mutex_unlock(&semaphore->lock);
        if (replaced)
            rt_object_release(RT_OBJ(replaced));
        /* the waiter's reference passes to the callback */
        if (waiter && rt_event_add_callback(done, CL_COMPLETE, complete_waiter, waiter)) {
            rt_event_set_status(waiter, CL_OUT_OF_HOST_MEMORY);
            rt_object_release(RT_OBJ(waiter));
        }
    }
    if (event)
        *event = done;
    else
        rt_object_release(RT_OBJ(done));
    return CL_SUCCESS;
}

API_EXPORT CL_API_ENTRY cl_int CL_API_CALL clEnqueueWaitSemaphoresKHR(
    cl_command_queue command_queue, cl_uint num_sema_objects, const cl_semaphore_khr *sema_objects,
    const cl_semaphore_payload_khr *sema_payload_list, cl_uint num_events_in_wait_list,
    const cl_event *event_wait_list, cl_event *event)
{
    cl_int err = check_command(command_queue, num_sema_objects, sema_objects,
                               num_events_in_wait_list, event_wait_list);
    if (err)
        return err;
    size_t total = (size_t)num_events_in_wait_list + num_sema_objects;
    cl_event *waits = malloc(total * sizeof *waits);
    if (!waits)
        return CL_OUT_OF_HOST_MEMORY;
    if (num_events_in_wait_list)
        memcpy(waits, event_wait_list, num_events_in_wait_list * sizeof *waits);
    /* each semaphore's part, a reference of ours: the signal it takes, or
     * the user event the next signal completes */
    cl_uint taken = 0;
    for (cl_uint i = 0; i < num_sema_objects; i++) {
        cl_semaphore_khr semaphore = sema_objects[i];
        cl_event dependency;
        pthread_mutex_lock(&semaphore->lock);
        if (semaphore->signal) {
            dependency = semaphore->signal;
            semaphore->signal = NULL;
        } else {
            if (!semaphore->waiter)
                semaphore->waiter = clCreateUserEvent(semaphore->context, NULL);
            dependency = semaphore->waiter;
            if (dependency)
                rt_object_retain(RT_OBJ(dependency));
        }
        pthread_mutex_unlock(&semaphore->lock);
        if (!dependency) {
            err = CL_OUT_OF_HOST_MEMORY;
            break;
        }
        waits[num_events_in_wait_list + taken++] = dependency;
    }
    if (!err)
        err = api_enqueue_no_work(command_queue, CL_COMMAND_SEMAPHORE_WAIT_KHR, false, CL_FALSE,
                                  num_events_in_wait_list + taken, waits, event);
    for (cl_uint i = 0; i < taken; i++)
        rt_object_release(RT_OBJ(waits[num_events_in_wait_list + i]));
    free(waits);
    return err;
}

API_EXPORT CL_API_ENTRY cl_int CL_API_CALL clGetSemaphoreInfoKHR(cl_semaphore_khr sema_object,
                                                                 cl_semaphore_info_khr param_name,
                                                                 size_t param_value_size,
                                                                 void *param_value,
                                                                 size_t *param_value_size_ret)
{
    if (!api_valid_semaphore(sema_object))
        return CL_INVALID_SEMAPHORE_KHR;
    switch (param_name) {
    case CL_SEMAPHORE_CONTEXT_KHR: return API_INFO(sema_object->context);
    case CL_SEMAPHORE_REFERENCE_COUNT_KHR: {
        cl_uint count = atomic_load(&sema_object->obj.refcount);
        return API_INFO(count);
    }
    case CL_SEMAPHORE_PROPERTIES_KHR:
        return api_info(param_value_size, param_value, param_value_size_ret,
                        sema_object->properties,
                        sema_object->num_properties * sizeof sema_object->properties[0]);
    case CL_SEMAPHORE_TYPE_KHR: {
        cl_semaphore_type_khr type = CL_SEMAPHORE_TYPE_BINARY_KHR;
        return API_INFO(type);
    }
    case CL_SEMAPHORE_DEVICE_HANDLE_LIST_KHR: return API_INFO(sema_object->device);
    case CL_SEMAPHORE_PAYLOAD_KHR: {
        /* 1 once a signal no wait has taken has completed, else 0 */
        pthread_mutex_lock(&sema_object->lock);
        cl_event signal = sema_object->signal;
        cl_semaphore_payload_khr payload = 0;
        if (signal) {
            pthread_mutex_lock(&signal->lock);
            payload = signal->status == CL_COMPLETE;
            pthread_mutex_unlock(&signal->lock);
        }
        pthread_mutex_unlock(&sema_object->lock);
        return API_INFO(payload);
    }
    default: return CL_INVALID_VALUE;
    }
}

API_EXPORT CL_API_ENTRY cl_int CL_API_CALL clRetainSemaphoreKHR(cl_semaphore_khr sema_object)
{
    if (!api_valid_semaphore(sema_object))
        return CL_INVALID_SEMAPHORE_KHR;
    rt_object_retain(RT_OBJ(sema_object));
    return CL_SUCCESS;
}

API_EXPORT CL_API_ENTRY cl_int CL_API_CALL clReleaseSemaphoreKHR(cl_semaphore_khr sema_object)
{
    if (!api_valid_semaphore(sema_object))
        return CL_INVALID_SEMAPHORE_KHR;
    rt_object_release(RT_OBJ(sema_object));
    return CL_SUCCESS;
}
