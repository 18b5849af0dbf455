/* not_offered.c - entry points of features this device does not offer yet.
 *
 * The device reports each of these features as absent (no GL sharing),
 * and every entry point here gives the answer the specification
 * prescribes for such a device, after the handle checks that come first.
 * The README's status table lists each of them as missing.
 */
#include "api/api.h"

static cl_int check_queue(cl_command_queue queue)
{
    return api_valid_queue(queue) ? CL_SUCCESS : CL_INVALID_COMMAND_QUEUE;
}

/* --- OpenGL sharing (cl_khr_gl_sharing is not reported): no context is
 * created from a GL context, so every call meets the spec's first error. --- */
#include <CL/cl_gl.h>

static void *no_gl_context(cl_context context, cl_int *errcode_ret)
{
    api_set_error(errcode_ret, CL_INVALID_CONTEXT);
    return NULL;
}

API_EXPORT CL_API_ENTRY cl_mem CL_API_CALL
clCreateFromGLBuffer(cl_context context, cl_mem_flags flags, cl_GLuint bufobj, cl_int *errcode_ret)
{
    return no_gl_context(context, errcode_ret);
}

API_EXPORT CL_API_ENTRY cl_mem CL_API_CALL
clCreateFromGLTexture(cl_context context, cl_mem_flags flags, cl_GLenum target, cl_GLint miplevel,
                      cl_GLuint texture, cl_int *errcode_ret)
{
    return no_gl_context(context, errcode_ret);
}

API_EXPORT CL_API_ENTRY cl_mem CL_API_CALL
clCreateFromGLTexture2D(cl_context context, cl_mem_flags flags, cl_GLenum target,
                        cl_GLint miplevel, cl_GLuint texture, cl_int *errcode_ret)
{
    return no_gl_context(context, errcode_ret);
}

API_EXPORT CL_API_ENTRY cl_mem CL_API_CALL
clCreateFromGLTexture3D(cl_context context, cl_mem_flags flags, cl_GLenum target,
                        cl_GLint miplevel, cl_GLuint texture, cl_int *errcode_ret)
{
    return no_gl_context(context, errcode_ret);
}

API_EXPORT CL_API_ENTRY cl_mem CL_API_CALL
clCreateFromGLRenderbuffer(cl_context context, cl_mem_flags flags, cl_GLuint renderbuffer,
                           cl_int *errcode_ret)
{
    return no_gl_context(context, errcode_ret);
}

API_EXPORT CL_API_ENTRY cl_int CL_API_CALL
clGetGLObjectInfo(cl_mem memobj, cl_gl_object_type *gl_object_type, cl_GLuint *gl_object_name)
{
    return CL_INVALID_MEM_OBJECT; /* no memory object comes from GL */
}

API_EXPORT CL_API_ENTRY cl_int CL_API_CALL
clGetGLTextureInfo(cl_mem memobj, cl_gl_texture_info param_name, size_t param_value_size,
                   void *param_value, size_t *param_value_size_ret)
{
    return CL_INVALID_MEM_OBJECT;
}

API_EXPORT CL_API_ENTRY cl_int CL_API_CALL
clEnqueueAcquireGLObjects(cl_command_queue queue, cl_uint num_objects, const cl_mem *mem_objects,
                          cl_uint num_events, const cl_event *wait_list, cl_event *event)
{
    return check_queue(queue) ? CL_INVALID_COMMAND_QUEUE : CL_INVALID_CONTEXT;
}

API_EXPORT CL_API_ENTRY cl_int CL_API_CALL
clEnqueueReleaseGLObjects(cl_command_queue queue, cl_uint num_objects, const cl_mem *mem_objects,
                          cl_uint num_events, const cl_event *wait_list, cl_event *event)
{
    return check_queue(queue) ? CL_INVALID_COMMAND_QUEUE : CL_INVALID_CONTEXT;
}

API_EXPORT CL_API_ENTRY cl_int CL_API_CALL
clGetGLContextInfoKHR(const cl_context_properties *properties, cl_gl_context_info param_name,
                      size_t param_value_size, void *param_value, size_t *param_value_size_ret)
{
    return CL_INVALID_GL_SHAREGROUP_REFERENCE_KHR;
}

API_EXPORT CL_API_ENTRY cl_event CL_API_CALL
clCreateEventFromGLsyncKHR(cl_context context, cl_GLsync sync, cl_int *errcode_ret)
{
    return no_gl_context(context, errcode_ret);
}

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
