/* not_offered.c - entry points of features this device does not offer yet.
 *
 * The device reports each of these features as absent,
 * and every entry point here gives the answer the specification
 * prescribes for such a device, after the handle checks that come first.
 * The README's status table lists each of them as missing.
 */
#include "api/api.h"

/* --- external semaphores (cl_khr_external_semaphore is not reported): a
 * semaphore is created with no export handle types (semaphore.c takes no
 * CL_SEMAPHORE_EXPORT_HANDLE_TYPES_KHR), so after the handle checks every
 * handle type is one "not specified when sema_object was created". The
 * function is found by name because cl_khr_semaphore's users (the CTS
 * among them) ask for it beside the others. --- */

API_EXPORT CL_API_ENTRY cl_int CL_API_CALL
clGetSemaphoreHandleForTypeKHR(cl_semaphore_khr sema_object, cl_device_id device,
                               cl_external_semaphore_handle_type_khr handle_type,
                               size_t handle_size, void *handle_ptr, size_t *handle_size_ret)
{
    if (!api_valid_semaphore(sema_object))
        return CL_INVALID_SEMAPHORE_KHR;
    if (!api_valid_device(device) || device != sema_object->device)
        return CL_INVALID_DEVICE;
    return CL_INVALID_VALUE;
}
