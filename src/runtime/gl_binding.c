/* gl_binding.c - GLX and EGL for OpenGL sharing: the libraries found at
 * run time, and the GL context each call makes its GL calls in.
 *
 * A call is made on whatever thread the application calls from. When the
 * application's GL context (the one the OpenCL context was made from) is
 * current there, the call uses it, so what it does is ordered with the
 * application's own GL commands. On any other thread (one with no context
 * current, or another context: the application's is current on its own
 * thread) the call uses a context of cpucl's that shares the application's
 * objects (GLX's share list, EGL's share_context), made without a drawable
 * the first time it is needed, and puts back what was current afterwards.
 * That context is used by one thread at a time (`lock`).
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>

#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GL/glx.h>

#include "runtime/gl_binding.h"

struct glx_functions {
    GLXContext (*get_current_context)(void);
    Display *(*get_current_display)(void);
    GLXDrawable (*get_current_drawable)(void);
    GLXDrawable (*get_current_read_drawable)(void);
    Bool (*make_context_current)(Display *, GLXDrawable, GLXDrawable, GLXContext);
    int (*query_context)(Display *, GLXContext, int, int *);
    GLXFBConfig *(*choose_fb_config)(Display *, int, const int *, int *);
    GLXFBConfig *(*get_fb_configs)(Display *, int, int *);
    int (*get_fb_config_attrib)(Display *, GLXFBConfig, int, int *);
    void (*destroy_context)(Display *, GLXContext);
    /* libX11's, which GLX uses (loaded by the application already) */
    XErrorHandler (*set_error_handler)(XErrorHandler);
    int (*sync)(Display *, Bool);
    int (*free)(void *);
};

struct egl_functions {
    EGLContext (*get_current_context)(void);
    EGLDisplay (*get_current_display)(void);
    EGLSurface (*get_current_surface)(EGLint);
    EGLBoolean (*make_current)(EGLDisplay, EGLSurface, EGLSurface, EGLContext);
    EGLBoolean (*query_context)(EGLDisplay, EGLContext, EGLint, EGLint *);
    EGLBoolean (*choose_config)(EGLDisplay, const EGLint *, EGLConfig *, EGLint, EGLint *);
    EGLContext (*create_context)(EGLDisplay, EGLConfig, EGLContext, const EGLint *);
    EGLBoolean (*destroy_context)(EGLDisplay, EGLContext);
    EGLBoolean (*bind_api)(EGLenum);
    EGLenum (*query_api)(void);
    const char *(*query_string)(EGLDisplay, EGLint);
};

struct gl_binding {
    enum rt_gl_binding kind;
    void *library, *x11;
    void *(*get_proc)(const char *);
    void *display, *context; /* the application's */
    struct glx_functions glx;
    struct egl_functions egl;
    pthread_mutex_t lock; /* held while `own` is current on a thread */
    void *own;            /* cpucl's context, NULL until first needed */
};

static bool find_glx(struct gl_binding *b)
{
    struct glx_functions *f = &b->glx;
    void *l = b->library;
    b->x11 = dlopen("libX11.so.6", RTLD_NOW | RTLD_LOCAL);
    if (!b->x11)
        return false;
    b->get_proc = dlsym(l, "glXGetProcAddressARB");
    f->get_current_context = dlsym(l, "glXGetCurrentContext");
    f->get_current_display = dlsym(l, "glXGetCurrentDisplay");
    f->get_current_drawable = dlsym(l, "glXGetCurrentDrawable");
    f->get_current_read_drawable = dlsym(l, "glXGetCurrentReadDrawable");
    f->make_context_current = dlsym(l, "glXMakeContextCurrent");
    f->query_context = dlsym(l, "glXQueryContext");
    f->choose_fb_config = dlsym(l, "glXChooseFBConfig");
    f->get_fb_configs = dlsym(l, "glXGetFBConfigs");
    f->get_fb_config_attrib = dlsym(l, "glXGetFBConfigAttrib");
    f->destroy_context = dlsym(l, "glXDestroyContext");
    f->set_error_handler = dlsym(b->x11, "XSetErrorHandler");
    f->sync = dlsym(b->x11, "XSync");
    f->free = dlsym(b->x11, "XFree");
    return b->get_proc && f->get_current_context && f->get_current_display &&
           f->get_current_drawable && f->get_current_read_drawable && f->make_context_current &&
           f->query_context && f->choose_fb_config && f->get_fb_configs &&
           f->get_fb_config_attrib && f->destroy_context && f->set_error_handler && f->sync &&
           f->free;
}

static bool find_egl(struct gl_binding *b)
{
    struct egl_functions *f = &b->egl;
    void *l = b->library;
    b->get_proc = dlsym(l, "eglGetProcAddress");
    f->get_current_context = dlsym(l, "eglGetCurrentContext");
    f->get_current_display = dlsym(l, "eglGetCurrentDisplay");
    f->get_current_surface = dlsym(l, "eglGetCurrentSurface");
    f->make_current = dlsym(l, "eglMakeCurrent");
    f->query_context = dlsym(l, "eglQueryContext");
    f->choose_config = dlsym(l, "eglChooseConfig");
    f->create_context = dlsym(l, "eglCreateContext");
    f->destroy_context = dlsym(l, "eglDestroyContext");
    f->bind_api = dlsym(l, "eglBindAPI");
    f->query_api = dlsym(l, "eglQueryAPI");
    f->query_string = dlsym(l, "eglQueryString");
    return b->get_proc && f->get_current_context && f->get_current_display &&
           f->get_current_surface && f->make_current && f->query_context && f->choose_config &&
           f->create_context && f->destroy_context && f->bind_api && f->query_api &&
           f->query_string;
}

cl_int gl_binding_open(enum rt_gl_binding kind, void *display, void *context,
                       struct gl_binding **out)
{
    struct gl_binding *b = calloc(1, sizeof *b);
    if (!b)
        return CL_OUT_OF_HOST_MEMORY;
    pthread_mutex_init(&b->lock, NULL);
    b->kind = kind;
    b->display = display;
    b->context = context;
    bool egl = kind == RT_GL_EGL;
    cl_int err = CL_INVALID_OPERATION;
    b->library = dlopen(egl ? "libEGL.so.1" : "libGL.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!b->library || !(egl ? find_egl(b) : find_glx(b)))
        goto fail;
    if (egl && !context) {
        /* images of a display (cl_khr_egl_image): an initialized display */
        if (!b->egl.query_string(display, EGL_VERSION)) {
            err = CL_INVALID_EGL_OBJECT_KHR;
            goto fail;
        }
    } else if (egl) {
        /* an EGL context its display does not know is no share group */
        EGLint api = 0;
        if (!b->egl.query_context(display, context, EGL_CONTEXT_CLIENT_TYPE, &api)) {
            err = CL_INVALID_GL_SHAREGROUP_REFERENCE_KHR;
            goto fail;
        }
        /* OpenGL ES has neither glGetTexImage nor glGetBufferSubData */
        if (api != EGL_OPENGL_API)
            goto fail;
    } else if (!b->display) {
        /* CL_GL_CONTEXT_KHR alone: the display it is current on */
        b->display = b->glx.get_current_display();
    }
    *out = b;
    return CL_SUCCESS;
fail:
    gl_binding_close(b);
    return err;
}

void gl_binding_close(struct gl_binding *b)
{
    if (!b)
        return;
    if (b->own && b->kind == RT_GL_EGL)
        b->egl.destroy_context(b->display, b->own);
    else if (b->own)
        b->glx.destroy_context(b->display, b->own);
    if (b->library)
        dlclose(b->library);
    if (b->x11)
        dlclose(b->x11);
    pthread_mutex_destroy(&b->lock);
    free(b);
}

void *gl_binding_function(struct gl_binding *b, const char *name)
{
    return b->get_proc(name);
}

/* --- cpucl's context --- */

/* GLX reports a failure as an X error, whose default handler ends the
 * process; creation runs under this one, which notes them for the thread
 * that makes the context (XSync reports them there). */
static _Thread_local bool x_error_seen;

static int note_x_error(Display *display, XErrorEvent *event)
{
    (void)display;
    (void)event;
    x_error_seen = true;
    return 0;
}

/* A context of the application's frame-buffer configuration (any RGBA one
 * when it has none, as contexts of glXCreateContext do), sharing its
 * objects, of OpenGL 3.0 or later so that it can be current without a
 * drawable (GLX_ARB_create_context). */
static void *make_glx_context(struct gl_binding *b)
{
    struct glx_functions *f = &b->glx;
    GLXContext (*create)(Display *, GLXFBConfig, GLXContext, Bool, const int *) =
        (GLXContext(*)(Display *, GLXFBConfig, GLXContext, Bool, const int *))b->get_proc(
            "glXCreateContextAttribsARB");
    if (!create || !b->display)
        return NULL;
    x_error_seen = false;
    XErrorHandler previous = f->set_error_handler(note_x_error);
    int screen = 0, id = 0, count = 0;
    f->query_context(b->display, b->context, GLX_SCREEN, &screen);
    f->query_context(b->display, b->context, GLX_FBCONFIG_ID, &id);
    /* found by its id among all of them (glXChooseFBConfig, which should
     * then ignore its other attributes, keeps a window-only default in
     * Mesa 22) */
    GLXFBConfig *configs = f->get_fb_configs(b->display, screen, &count), config = NULL;
    for (int i = 0; configs && i < count && !config; i++) {
        int config_id = 0;
        if (!f->get_fb_config_attrib(b->display, configs[i], GLX_FBCONFIG_ID, &config_id) &&
            config_id == id)
            config = configs[i];
    }
    if (!config) {
        if (configs)
            f->free(configs);
        const int any[] = {GLX_RENDER_TYPE, GLX_RGBA_BIT, None};
        configs = f->choose_fb_config(b->display, screen, any, &count);
        config = configs && count > 0 ? configs[0] : NULL;
    }
    const int attributes[] = {GLX_CONTEXT_MAJOR_VERSION_ARB, 3, GLX_CONTEXT_MINOR_VERSION_ARB, 0,
                              None};
    GLXContext own = config ? create(b->display, config, b->context, True, attributes) : NULL;
    f->sync(b->display, False);
    f->set_error_handler(previous);
    if (configs)
        f->free(configs);
    if (own && x_error_seen) {
        f->destroy_context(b->display, own);
        own = NULL;
    }
    return own;
}

/* A context of the application's configuration (none for a configless
 * one), sharing its objects (of none when there is no application context:
 * EGL images are the display's); made current with no surface
 * (EGL_KHR_surfaceless_context). */
static void *make_egl_context(struct gl_binding *b)
{
    struct egl_functions *f = &b->egl;
    EGLint id = 0, count = 0;
    EGLConfig config = (EGLConfig)0; /* EGL_NO_CONFIG_KHR */
    if (b->context)
        f->query_context(b->display, b->context, EGL_CONFIG_ID, &id);
    const EGLint by_id[] = {EGL_CONFIG_ID, id, EGL_NONE};
    if (id > 0 && !f->choose_config(b->display, by_id, &config, 1, &count))
        return NULL;
    EGLContext share = b->context ? b->context : EGL_NO_CONTEXT;
    EGLContext own = f->create_context(b->display, config, share, NULL);
    return own == EGL_NO_CONTEXT ? NULL : own;
}

/* --- a call's context --- */

cl_int gl_binding_enter(struct gl_binding *b, struct gl_scope *scope, bool own_only)
{
    *scope = (struct gl_scope){0};
    bool egl = b->kind == RT_GL_EGL;
    if (egl) {
        /* the thread's current OpenGL context (not its OpenGL ES one) */
        scope->api = b->egl.query_api();
        b->egl.bind_api(EGL_OPENGL_API);
        scope->display = b->egl.get_current_display();
        scope->context = b->egl.get_current_context();
        scope->draw = (uintptr_t)b->egl.get_current_surface(EGL_DRAW);
        scope->read = (uintptr_t)b->egl.get_current_surface(EGL_READ);
    } else {
        scope->display = b->glx.get_current_display();
        scope->context = b->glx.get_current_context();
        scope->draw = b->glx.get_current_drawable();
        scope->read = b->glx.get_current_read_drawable();
    }
    if (!own_only && b->context && scope->context == b->context)
        return CL_SUCCESS;
    pthread_mutex_lock(&b->lock);
    if (!b->own)
        b->own = egl ? make_egl_context(b) : make_glx_context(b);
    bool made = false;
    if (b->own && egl)
        made = b->egl.make_current(b->display, EGL_NO_SURFACE, EGL_NO_SURFACE, b->own);
    else if (b->own)
        made = b->glx.make_context_current(b->display, None, None, b->own);
    if (!made) {
        pthread_mutex_unlock(&b->lock);
        if (egl)
            b->egl.bind_api(scope->api);
        return CL_OUT_OF_RESOURCES;
    }
    scope->own = true;
    return CL_SUCCESS;
}

void gl_binding_leave(struct gl_binding *b, struct gl_scope *scope)
{
    bool egl = b->kind == RT_GL_EGL;
    if (scope->own) {
        if (egl && scope->context)
            b->egl.make_current(scope->display, (EGLSurface)scope->draw, (EGLSurface)scope->read,
                                scope->context);
        else if (egl)
            b->egl.make_current(b->display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
        else if (scope->context)
            b->glx.make_context_current(scope->display, scope->draw, scope->read, scope->context);
        else
            b->glx.make_context_current(b->display, None, None, NULL);
        pthread_mutex_unlock(&b->lock);
    }
    if (egl)
        b->egl.bind_api(scope->api);
}

/* --- EGL fences (cl_khr_egl_event) --- */

cl_int rt_egl_wait_sync(void *display, void *sync)
{
    /* without EGL there is no EGL display to be valid */
    void *library = dlopen("libEGL.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!library)
        return CL_INVALID_EGL_OBJECT_KHR;
    void *(*get_proc)(const char *) = dlsym(library, "eglGetProcAddress");
    PFNEGLGETSYNCATTRIBKHRPROC get_attribute =
        get_proc ? (PFNEGLGETSYNCATTRIBKHRPROC)get_proc("eglGetSyncAttribKHR") : NULL;
    PFNEGLCLIENTWAITSYNCKHRPROC client_wait =
        get_proc ? (PFNEGLCLIENTWAITSYNCKHRPROC)get_proc("eglClientWaitSyncKHR") : NULL;
    /* the extension: "a sync object of type EGL_SYNC_FENCE_KHR created with
     * respect to EGLDisplay display"; EGL checks both handles */
    cl_int err = CL_INVALID_EGL_OBJECT_KHR;
    EGLint type = 0;
    if (get_attribute && client_wait && get_attribute(display, sync, EGL_SYNC_TYPE_KHR, &type) &&
        type == EGL_SYNC_FENCE_KHR &&
        client_wait(display, sync, EGL_SYNC_FLUSH_COMMANDS_BIT_KHR, EGL_FOREVER_KHR) ==
            EGL_CONDITION_SATISFIED_KHR)
        err = CL_SUCCESS;
    dlclose(library);
    return err;
}
