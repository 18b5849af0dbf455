/* gl.h - OpenGL sharing (cl_khr_gl_sharing): the GL side.
 *
 * The device is the host's CPU and a GL driver keeps its objects' storage
 * to itself, so a memory object made from a GL object has storage of its
 * own, and the GL object's contents are copied in when the object is
 * acquired and out when it is released, through the GL API, on the
 * application's thread (api/gl_sharing.c says why). The GL functions are
 * found at run time through the window-system binding the context was
 * made with (GLX's libGL or EGL's libEGL): the driver links no GL library.
 */
#ifndef CPUCL_RUNTIME_GL_H
#define CPUCL_RUNTIME_GL_H

#include <CL/cl_egl.h>
#include <CL/cl_gl.h>

/* A context's GL: the binding's library, the GL context the application
 * gave, and the GL functions. Read-only once opened, but for the programs
 * of gl_msaa.c, made while cpucl's own context is held. */
struct rt_gl;

enum rt_gl_binding { RT_GL_GLX, RT_GL_EGL };

/* Opens `binding`'s library and finds the GL functions. `display` may be
 * NULL for GLX (the context is then only used when current). An EGL
 * binding without a context is for the EGL images of `display`
 * (cl_khr_egl_image; CL_INVALID_EGL_OBJECT_KHR for a display that is no
 * initialized one). Returns CL_INVALID_OPERATION when the binding or a
 * GL function is not there, CL_INVALID_GL_SHAREGROUP_REFERENCE_KHR when
 * EGL rejects the context. */
cl_int rt_gl_open(enum rt_gl_binding binding, void *display, void *context, struct rt_gl **out);
void rt_gl_close(struct rt_gl *gl);

/* What a memory object made from a GL object remembers of it. */
struct rt_gl_object {
    cl_gl_object_type type; /* 0 for objects not made from GL */
    cl_GLuint name;
    cl_GLenum target; /* as the application named it (a cube face); GL_RENDERBUFFER;
                       * 0 for buffers */
    cl_GLint level;
    void *egl_image; /* cl_khr_egl_image: the EGLImage (type 0), else NULL */
};

/* What a new memory object over a GL object has to be: a buffer's size, or
 * an image's format and descriptor. */
struct rt_gl_shape {
    size_t size;
    cl_image_format format;
    cl_image_desc desc;
};

/* Looks at the GL object (or EGL image) `object` names (with the calling thread's GL
 * context, or the context's own made current for the call) and says what
 * the memory object over it is; the errors are clCreateFromGL*'s. */
cl_int rt_gl_describe(struct rt_gl *gl, const struct rt_gl_object *object,
                      struct rt_gl_shape *shape);

/* Copies the GL object's contents into mem's storage (acquire) or mem's
 * storage into the GL object (release). */
cl_int rt_gl_read(struct rt_gl *gl, cl_mem mem);
cl_int rt_gl_write(struct rt_gl *gl, cl_mem mem);

/* Waits until the GL fence `sync` (a GLsync) is signalled;
 * CL_INVALID_GL_OBJECT when it is no sync object of the share group. */
cl_int rt_gl_wait_sync(struct rt_gl *gl, void *sync);

/* cl_khr_egl_event: waits until the EGL fence sync `sync` of `display` is
 * signalled; CL_INVALID_EGL_OBJECT_KHR when either is not valid, or the
 * sync is no fence. No GL context is needed. */
cl_int rt_egl_wait_sync(void *display, void *sync);

#endif
