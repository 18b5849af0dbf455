/* gl_sharing.c - OpenGL sharing (cl_khr_gl_sharing): contexts made from a
 * GL context, memory objects made from GL buffers, textures and
 * renderbuffers, and the commands that acquire and release them; images
 * from EGL images (cl_khr_egl_image), which work the same way; events
 * from GL and EGL fences (cl_khr_gl_event, cl_khr_egl_event).
 *
 * Such a memory object has storage of its own (runtime/gl.h): acquiring it
 * copies the GL object's contents in, releasing it copies them back. Both
 * copies are GL calls, which go to a thread's current GL context, and the
 * application's GL context is current on the application's thread, not on
 * cpucl's workers: so the acquire and release commands do their copies on
 * the thread that enqueues them, once what they wait for (their wait
 * list, and in an in-order queue the commands before them) has completed.
 * That is the order the extension has the application keep anyway
 * (glFinish before the acquire; the release complete before GL uses the
 * object again), and it makes what the release wrote visible to the GL
 * commands that follow it on that thread. A wait list holding a user event
 * that only the enqueuing thread would set never completes: such an event
 * must be set before the acquire or release is enqueued.
 */
#include <GL/gl.h>
#include <GL/glext.h>

#include <CL/cl_egl.h>

#include "api/api.h"
#include "runtime/image_format.h"

/* --- contexts --- */

/* The context properties of the extension's table (clCreateContext):
 * the GL context and the one window-system binding it belongs to. */
struct gl_properties {
    void *context;
    void *display;
    enum rt_gl_binding binding;
};

static cl_int read_gl_properties(const cl_context_properties *properties, struct gl_properties *out)
{
    *out = (struct gl_properties){.binding = RT_GL_GLX};
    int bindings = 0;
    for (size_t n = 0; properties && properties[n]; n += 2) {
        void *value = (void *)properties[n + 1];
        switch (properties[n]) {
        case CL_GL_CONTEXT_KHR: out->context = value; break;
        case CL_GLX_DISPLAY_KHR:
            bindings += value != NULL;
            out->display = value;
            break;
        case CL_EGL_DISPLAY_KHR:
            bindings += value != NULL;
            out->display = value;
            out->binding = RT_GL_EGL;
            break;
        /* "the OpenGL implementation does not support that window-system
         * binding API": WGL and CGL are not Linux's */
        case CL_WGL_HDC_KHR:
        case CL_CGL_SHAREGROUP_KHR:
            if (value)
                return CL_INVALID_OPERATION;
            break;
        default: break;
        }
    }
    /* "more than one of the attributes CL_CGL_SHAREGROUP_KHR,
     * CL_EGL_DISPLAY_KHR, CL_GLX_DISPLAY_KHR, and CL_WGL_HDC_KHR is set to a
     * non-default value" */
    if (bindings > 1)
        return CL_INVALID_OPERATION;
    return CL_SUCCESS;
}

cl_int api_gl_open(const cl_context_properties *properties, struct rt_gl **gl)
{
    *gl = NULL;
    struct gl_properties read;
    cl_int err = read_gl_properties(properties, &read);
    if (err || !read.context)
        return err;
    return rt_gl_open(read.binding, read.display, read.context, gl);
}

/* The device is the host's CPU, which reaches any GL context's objects
 * through the copies above: it is the device of every GL context. */
API_EXPORT CL_API_ENTRY cl_int CL_API_CALL
clGetGLContextInfoKHR(const cl_context_properties *properties, cl_gl_context_info param_name,
                      size_t param_value_size, void *param_value, size_t *param_value_size_ret)
{
    struct gl_properties read;
    cl_int err = read_gl_properties(properties, &read);
    if (err)
        return err;
    for (size_t n = 0; properties && properties[n]; n += 2)
        if (properties[n] == CL_CONTEXT_PLATFORM &&
            !api_valid_platform((cl_platform_id)properties[n + 1]))
            return CL_INVALID_PLATFORM;
    /* "properties must identify a single valid GL context" */
    struct rt_gl *gl = NULL;
    if (!read.context)
        return CL_INVALID_GL_SHAREGROUP_REFERENCE_KHR;
    if ((err = rt_gl_open(read.binding, read.display, read.context, &gl)))
        return err;
    rt_gl_close(gl);
    cl_device_id device = rt_root_device();
    switch (param_name) {
    case CL_CURRENT_DEVICE_FOR_GL_CONTEXT_KHR:
    case CL_DEVICES_FOR_GL_CONTEXT_KHR: return API_INFO(device);
    default: return CL_INVALID_VALUE;
    }
}

/* --- memory objects --- */

/* "Only CL_MEM_READ_ONLY, CL_MEM_WRITE_ONLY and CL_MEM_READ_WRITE values
 * ... can be used" (0 meaning read and write, as for every memory object). */
static bool valid_gl_flags(cl_mem_flags flags)
{
    return flags == 0 || flags == CL_MEM_READ_WRITE || flags == CL_MEM_READ_ONLY ||
           flags == CL_MEM_WRITE_ONLY;
}

/* A buffer texture's image is an image over a buffer of its own. */
static cl_mem create_buffer_image(cl_context context, cl_mem_flags flags, struct rt_gl_shape *shape,
                                  cl_int *err)
{
    size_t size = shape->desc.image_width * rt_image_element_size(&shape->format);
    cl_mem buffer = clCreateBuffer(context, flags, size, NULL, err);
    if (!buffer)
        return NULL;
    shape->desc.buffer = buffer;
    cl_mem image = clCreateImage(context, flags, &shape->format, &shape->desc, NULL, err);
    clReleaseMemObject(buffer); /* the image holds it */
    return image;
}

static cl_mem create_from_gl(cl_context context, cl_mem_flags flags, struct rt_gl_object object,
                             cl_int *errcode_ret)
{
    cl_int err;
    cl_mem mem = NULL;
    if (!api_valid_context(context) || !context->gl) {
        err = CL_INVALID_CONTEXT;
        goto done;
    }
    if (!valid_gl_flags(flags)) {
        err = CL_INVALID_VALUE;
        goto done;
    }
    struct rt_gl_shape shape;
    if ((err = rt_gl_describe(context->gl, &object, &shape)))
        goto done;
    if (object.type == CL_GL_OBJECT_BUFFER)
        mem = clCreateBuffer(context, flags, shape.size, NULL, &err);
    else if (object.type == CL_GL_OBJECT_TEXTURE_BUFFER)
        mem = create_buffer_image(context, flags, &shape, &err);
    else
        mem = api_create_gl_image(context, flags, &shape.format, &shape.desc, &err);
    /* "CL_INVALID_IMAGE_FORMAT_DESCRIPTOR if the OpenGL texture internal
     * format does not map to a supported OpenCL image format" */
    if (err == CL_IMAGE_FORMAT_NOT_SUPPORTED)
        err = CL_INVALID_IMAGE_FORMAT_DESCRIPTOR;
    if (mem)
        mem->gl = object;
done:
    api_set_error(errcode_ret, err);
    return mem;
}

API_EXPORT CL_API_ENTRY cl_mem CL_API_CALL clCreateFromGLBuffer(cl_context context,
                                                                cl_mem_flags flags,
                                                                cl_GLuint bufobj,
                                                                cl_int *errcode_ret)
{
    struct rt_gl_object object = {.type = CL_GL_OBJECT_BUFFER, .name = bufobj};
    return create_from_gl(context, flags, object, errcode_ret);
}

/* The texture targets of clCreateFromGLTexture and the object type each
 * makes; 0 for the others. */
static cl_gl_object_type texture_object_type(cl_GLenum target)
{
    switch (target) {
    case GL_TEXTURE_1D: return CL_GL_OBJECT_TEXTURE1D;
    case GL_TEXTURE_1D_ARRAY: return CL_GL_OBJECT_TEXTURE1D_ARRAY;
    case GL_TEXTURE_BUFFER: return CL_GL_OBJECT_TEXTURE_BUFFER;
    case GL_TEXTURE_2D:
    case GL_TEXTURE_RECTANGLE:
    case GL_TEXTURE_CUBE_MAP_POSITIVE_X:
    case GL_TEXTURE_CUBE_MAP_NEGATIVE_X:
    case GL_TEXTURE_CUBE_MAP_POSITIVE_Y:
    case GL_TEXTURE_CUBE_MAP_NEGATIVE_Y:
    case GL_TEXTURE_CUBE_MAP_POSITIVE_Z:
    case GL_TEXTURE_CUBE_MAP_NEGATIVE_Z: return CL_GL_OBJECT_TEXTURE2D;
    case GL_TEXTURE_2D_ARRAY: return CL_GL_OBJECT_TEXTURE2D_ARRAY;
    case GL_TEXTURE_3D: return CL_GL_OBJECT_TEXTURE3D;
    /* cl_khr_gl_msaa_sharing */
    case GL_TEXTURE_2D_MULTISAMPLE: return CL_GL_OBJECT_TEXTURE2D;
    case GL_TEXTURE_2D_MULTISAMPLE_ARRAY: return CL_GL_OBJECT_TEXTURE2D_ARRAY;
    default: return 0;
    }
}

static cl_mem create_from_texture(cl_context context, cl_mem_flags flags, cl_GLenum target,
                                  cl_GLint miplevel, cl_GLuint texture, cl_gl_object_type only,
                                  cl_int *errcode_ret)
{
    struct rt_gl_object object = {
        .type = texture_object_type(target), .name = texture, .target = target, .level = miplevel};
    cl_int err = CL_SUCCESS;
    if (!api_valid_context(context) || !context->gl)
        err = CL_INVALID_CONTEXT;
    else if (!valid_gl_flags(flags) || !object.type || (only && object.type != only))
        err = CL_INVALID_VALUE;
    else if (miplevel < 0)
        err = CL_INVALID_MIP_LEVEL;
    if (err) {
        api_set_error(errcode_ret, err);
        return NULL;
    }
    return create_from_gl(context, flags, object, errcode_ret);
}

API_EXPORT CL_API_ENTRY cl_mem CL_API_CALL
clCreateFromGLTexture(cl_context context, cl_mem_flags flags, cl_GLenum target, cl_GLint miplevel,
                      cl_GLuint texture, cl_int *errcode_ret)
{
    return create_from_texture(context, flags, target, miplevel, texture, 0, errcode_ret);
}

/* OpenCL 1.1's: a 2D texture (a rectangle or a cube map's face too), a 3D one. */
API_EXPORT CL_API_ENTRY cl_mem CL_API_CALL
clCreateFromGLTexture2D(cl_context context, cl_mem_flags flags, cl_GLenum target, cl_GLint miplevel,
                        cl_GLuint texture, cl_int *errcode_ret)
{
    return create_from_texture(context, flags, target, miplevel, texture, CL_GL_OBJECT_TEXTURE2D,
                               errcode_ret);
}

API_EXPORT CL_API_ENTRY cl_mem CL_API_CALL
clCreateFromGLTexture3D(cl_context context, cl_mem_flags flags, cl_GLenum target, cl_GLint miplevel,
                        cl_GLuint texture, cl_int *errcode_ret)
{
    return create_from_texture(context, flags, target, miplevel, texture, CL_GL_OBJECT_TEXTURE3D,
                               errcode_ret);
}

API_EXPORT CL_API_ENTRY cl_mem CL_API_CALL clCreateFromGLRenderbuffer(cl_context context,
                                                                      cl_mem_flags flags,
                                                                      cl_GLuint renderbuffer,
                                                                      cl_int *errcode_ret)
{
    struct rt_gl_object object = {
        .type = CL_GL_OBJECT_RENDERBUFFER, .name = renderbuffer, .target = GL_RENDERBUFFER};
    return create_from_gl(context, flags, object, errcode_ret);
}

API_EXPORT CL_API_ENTRY cl_int CL_API_CALL clGetGLObjectInfo(cl_mem memobj,
                                                             cl_gl_object_type *gl_object_type,
                                                             cl_GLuint *gl_object_name)
{
    if (!api_valid_mem(memobj))
        return CL_INVALID_MEM_OBJECT;
    if (!memobj->gl.type)
        return CL_INVALID_GL_OBJECT;
    if (gl_object_type)
        *gl_object_type = memobj->gl.type;
    if (gl_object_name)
        *gl_object_name = memobj->gl.name;
    return CL_SUCCESS;
}

API_EXPORT CL_API_ENTRY cl_int CL_API_CALL clGetGLTextureInfo(cl_mem memobj,
                                                              cl_gl_texture_info param_name,
                                                              size_t param_value_size,
                                                              void *param_value,
                                                              size_t *param_value_size_ret)
{
    if (!api_valid_mem(memobj))
        return CL_INVALID_MEM_OBJECT;
    cl_gl_object_type type = memobj->gl.type;
    if (!type || type == CL_GL_OBJECT_BUFFER || type == CL_GL_OBJECT_RENDERBUFFER)
        return CL_INVALID_GL_OBJECT;
    switch (param_name) {
    case CL_GL_TEXTURE_TARGET: {
        cl_GLenum target = memobj->gl.target;
        return API_INFO(target);
    }
    case CL_GL_MIPMAP_LEVEL: {
        cl_GLint level = memobj->gl.level;
        return API_INFO(level);
    }
    case CL_GL_NUM_SAMPLES: { /* cl_khr_gl_msaa_sharing: 1 for other textures */
        GLsizei samples = memobj->desc.num_samples > 1 ? (GLsizei)memobj->desc.num_samples : 1;
        return API_INFO(samples);
    }
    default: return CL_INVALID_VALUE;
    }
}

/* --- acquire and release --- */

static cl_int enqueue_gl(cl_command_queue queue, cl_command_type type, cl_uint num_objects,
                         const cl_mem *mem_objects, cl_uint num_events, const cl_event *wait_list,
                         cl_event *event)
{
    if (!api_valid_queue(queue))
        return CL_INVALID_COMMAND_QUEUE;
    if ((num_objects == 0) != (mem_objects == NULL))
        return CL_INVALID_VALUE;
    for (cl_uint i = 0; i < num_objects; i++)
        if (!api_valid_mem(mem_objects[i]))
            return CL_INVALID_MEM_OBJECT;
    bool egl =
        type == CL_COMMAND_ACQUIRE_EGL_OBJECTS_KHR || type == CL_COMMAND_RELEASE_EGL_OBJECTS_KHR;
    if (!egl && !queue->context->gl)
        return CL_INVALID_CONTEXT;
    for (cl_uint i = 0; i < num_objects; i++) {
        if (mem_objects[i]->context != queue->context)
            return CL_INVALID_CONTEXT;
        if (egl && !mem_objects[i]->gl.egl_image)
            return CL_INVALID_EGL_OBJECT_KHR;
        if (!egl && !mem_objects[i]->gl.type)
            return CL_INVALID_GL_OBJECT;
    }
    struct rt_gl *gl = egl ? queue->context->egl_images : queue->context->gl;
    /* the command itself does no work on a worker: it completes when what
     * it waits for has, and the copies follow here (see the top) */
    cl_event own = NULL;
    cl_int err = api_enqueue_no_work(queue, type, false, CL_TRUE, num_events, wait_list, &own);
    bool acquire =
        type == CL_COMMAND_ACQUIRE_GL_OBJECTS || type == CL_COMMAND_ACQUIRE_EGL_OBJECTS_KHR;
    for (cl_uint i = 0; i < num_objects && !err; i++) {
        cl_mem mem = mem_objects[i];
        if (acquire)
            err = rt_gl_read(gl, mem);
        else if (!(mem->flags & CL_MEM_READ_ONLY)) /* kernels could not have changed it */
            err = rt_gl_write(gl, mem);
    }
    if (own && (err || !event))
        rt_object_release(RT_OBJ(own));
    else if (own)
        *event = own;
    return err;
}

API_EXPORT CL_API_ENTRY cl_int CL_API_CALL
clEnqueueAcquireGLObjects(cl_command_queue queue, cl_uint num_objects, const cl_mem *mem_objects,
                          cl_uint num_events, const cl_event *wait_list, cl_event *event)
{
    return enqueue_gl(queue, CL_COMMAND_ACQUIRE_GL_OBJECTS, num_objects, mem_objects, num_events,
                      wait_list, event);
}

API_EXPORT CL_API_ENTRY cl_int CL_API_CALL
clEnqueueReleaseGLObjects(cl_command_queue queue, cl_uint num_objects, const cl_mem *mem_objects,
                          cl_uint num_events, const cl_event *wait_list, cl_event *event)
{
    return enqueue_gl(queue, CL_COMMAND_RELEASE_GL_OBJECTS, num_objects, mem_objects, num_events,
                      wait_list, event);
}

/* --- EGL images (cl_khr_egl_image) --- */

/* The context's GL for EGL images: made with the first image, on its
 * display; an image of another display is refused. */
static cl_int egl_images_of(cl_context context, void *display, struct rt_gl **gl)
{
    cl_int err = CL_SUCCESS;
    pthread_mutex_lock(&context->lock);
    if (!context->egl_images) {
        if (!(err = rt_gl_open(RT_GL_EGL, display, NULL, &context->egl_images)))
            context->egl_images_display = display;
    } else if (context->egl_images_display != display) {
        err = CL_INVALID_EGL_OBJECT_KHR;
    }
    *gl = context->egl_images;
    pthread_mutex_unlock(&context->lock);
    return err;
}

API_EXPORT CL_API_ENTRY cl_mem CL_API_CALL clCreateFromEGLImageKHR(
    cl_context context, CLeglDisplayKHR egldisplay, CLeglImageKHR eglimage, cl_mem_flags flags,
    const cl_egl_image_properties_khr *properties, cl_int *errcode_ret)
{
    cl_int err;
    cl_mem mem = NULL;
    struct rt_gl *gl;
    struct rt_gl_shape shape;
    struct rt_gl_object object = {.egl_image = eglimage};
    /* the extension defines no properties: an empty list or none */
    if (!api_valid_context(context))
        err = CL_INVALID_CONTEXT;
    else if (!valid_gl_flags(flags) || (properties && properties[0]))
        err = CL_INVALID_VALUE;
    else if (!eglimage) /* EGL has no query that says whether another handle is an image */
        err = CL_INVALID_EGL_OBJECT_KHR;
    else if (!(err = egl_images_of(context, egldisplay, &gl)) &&
             !(err = rt_gl_describe(gl, &object, &shape)))
        mem = api_create_gl_image(context, flags, &shape.format, &shape.desc, &err);
    if (mem)
        mem->gl = object;
    api_set_error(errcode_ret, err);
    return mem;
}

API_EXPORT CL_API_ENTRY cl_int CL_API_CALL clEnqueueAcquireEGLObjectsKHR(
    cl_command_queue queue, cl_uint num_objects, const cl_mem *mem_objects, cl_uint num_events,
    const cl_event *wait_list, cl_event *event)
{
    return enqueue_gl(queue, CL_COMMAND_ACQUIRE_EGL_OBJECTS_KHR, num_objects, mem_objects,
                      num_events, wait_list, event);
}

API_EXPORT CL_API_ENTRY cl_int CL_API_CALL clEnqueueReleaseEGLObjectsKHR(
    cl_command_queue queue, cl_uint num_objects, const cl_mem *mem_objects, cl_uint num_events,
    const cl_event *wait_list, cl_event *event)
{
    return enqueue_gl(queue, CL_COMMAND_RELEASE_EGL_OBJECTS_KHR, num_objects, mem_objects,
                      num_events, wait_list, event);
}

/* --- events from GL and EGL fences (cl_khr_gl_event, cl_khr_egl_event) --- */

/* An event for a fence that `err` says was waited for: complete from the
 * start. cpucl waits for the fence when the event is made (its commands
 * are GL's, which complete without OpenCL). Acquire and release already
 * synchronise with the enqueuing thread's GL context (see the top), which
 * is cl_khr_gl_event's implicit synchronisation. */
static cl_event fence_event(cl_context context, cl_int err, cl_command_type type,
                            cl_int *errcode_ret)
{
    cl_event event = NULL;
    if (!err) {
        event = rt_event_create(context, NULL, type, CL_COMPLETE);
        err = event ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY;
    }
    api_set_error(errcode_ret, err);
    return event;
}

API_EXPORT CL_API_ENTRY cl_event CL_API_CALL clCreateEventFromGLsyncKHR(cl_context context,
                                                                        cl_GLsync sync,
                                                                        cl_int *errcode_ret)
{
    if (!api_valid_context(context) || !context->gl)
        return fence_event(context, CL_INVALID_CONTEXT, 0, errcode_ret);
    return fence_event(context, rt_gl_wait_sync(context->gl, sync),
                       CL_COMMAND_GL_FENCE_SYNC_OBJECT_KHR, errcode_ret);
}

/* cl_khr_egl_event: the same for an EGL fence, in any context. */
API_EXPORT CL_API_ENTRY cl_event CL_API_CALL clCreateEventFromEGLSyncKHR(cl_context context,
                                                                         CLeglSyncKHR sync,
                                                                         CLeglDisplayKHR display,
                                                                         cl_int *errcode_ret)
{
    if (!api_valid_context(context))
        return fence_event(context, CL_INVALID_CONTEXT, 0, errcode_ret);
    return fence_event(context, rt_egl_wait_sync(display, sync),
                       CL_COMMAND_EGL_FENCE_SYNC_OBJECT_KHR, errcode_ret);
}
