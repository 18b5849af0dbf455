/* gl_binding.h - the window-system bindings OpenGL sharing goes through
 * (GLX, EGL): the GL functions by name, and a GL context current on the
 * calling thread for the length of a call. Used by gl.c.
 */
#ifndef CPUCL_RUNTIME_GL_BINDING_H
#define CPUCL_RUNTIME_GL_BINDING_H

#include <stdbool.h>
#include <stdint.h>

#include "runtime/gl.h"

/* The binding's library and the application's GL context. */
struct gl_binding;

/* Errors as rt_gl_open's. An EGL binding without a context is for the
 * display's images (cl_khr_egl_image): CL_INVALID_EGL_OBJECT_KHR when the
 * display is not an initialized one. */
cl_int gl_binding_open(enum rt_gl_binding kind, void *display, void *context,
                       struct gl_binding **out);
void gl_binding_close(struct gl_binding *binding);

/* A GL function of the binding's GL library, NULL when there is none. */
void *gl_binding_function(struct gl_binding *binding, const char *name);

/* What a call found current on its thread, to put back. */
struct gl_scope {
    bool own;                /* cpucl's context was made current for the call */
    unsigned api;            /* EGL: the thread's bound client API */
    void *display, *context; /* what was current */
    uintptr_t draw, read;
};

/* Makes current, on the calling thread, the application's GL context when
 * it already is (and `own_only` is false), else a context of cpucl's that
 * shares its objects (made the first time; one thread uses it at a time).
 * CL_OUT_OF_RESOURCES when no such context can be had. gl_binding_leave
 * puts back what was current. */
cl_int gl_binding_enter(struct gl_binding *binding, struct gl_scope *scope, bool own_only);
void gl_binding_leave(struct gl_binding *binding, struct gl_scope *scope);

#endif
