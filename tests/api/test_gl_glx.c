/* test_gl_glx.c - OpenGL sharing through GLX (cl_khr_gl_sharing with
 * CL_GLX_DISPLAY_KHR), as X11 applications use it: a GL context of a
 * pbuffer on an X server (Xvfb, started by tests/with_xvfb.sh) with Mesa's
 * software renderer. A buffer and a texture changed by kernels with the
 * application's context current; the same from another thread while this
 * one keeps it, which goes through a GLX context of cpucl's sharing the
 * application's objects; a multi-sample texture read (a compute shader in
 * that context). test_gl_sharing.c covers the rest through EGL.
 *
 * The GL functions are found through glXGetProcAddressARB. */
#define GL_GLEXT_PROTOTYPES
#include <CL/cl_gl.h>
#include <GL/glx.h>
#include <pthread.h>

#include "../harness.h"

#define GL_KERNELS CPUCL_TEST_DATA "/gl_kernels.cl"

/* clang-format off */
#define GL_TEST_FUNCTIONS(X)                                                                       \
    X(Finish)                                                                                      \
    X(GenBuffers)                                                                                  \
    X(DeleteBuffers)                                                                               \
    X(BindBuffer)                                                                                  \
    X(BufferData)                                                                                  \
    X(GetBufferSubData)                                                                            \
    X(GenTextures)                                                                                 \
    X(DeleteTextures)                                                                              \
    X(BindTexture)                                                                                 \
    X(TexImage2D)                                                                                  \
    X(GetTexImage)                                                                                 \
    X(TexImage2DMultisample)                                                                       \
    X(GenFramebuffers)                                                                             \
    X(DeleteFramebuffers)                                                                          \
    X(BindFramebuffer)                                                                             \
    X(FramebufferTexture2D)                                                                        \
    X(ClearBufferfv)                                                                               \
    X(GetError)
/* clang-format on */

static struct {
#define FIELD(name) __typeof__(gl##name) *name;
    GL_TEST_FUNCTIONS(FIELD)
#undef FIELD
} gl;

static struct harness h;
static cl_program program;
static Display *display;
static GLXContext gl_context;

/* A GL context of a small pbuffer, current on this thread. */
static void open_gl(void)
{
    display = XOpenDisplay(NULL);
    REQUIRE(display);
    const int attributes[] = {
        GLX_DRAWABLE_TYPE, GLX_PBUFFER_BIT, GLX_RENDER_TYPE, GLX_RGBA_BIT, GLX_RED_SIZE, 8, None};
    int count = 0;
    GLXFBConfig *configs = glXChooseFBConfig(display, DefaultScreen(display), attributes, &count);
    REQUIRE(configs && count > 0);
    const int size[] = {GLX_PBUFFER_WIDTH, 16, GLX_PBUFFER_HEIGHT, 16, None};
    GLXPbuffer pbuffer = glXCreatePbuffer(display, configs[0], size);
    gl_context = glXCreateNewContext(display, configs[0], GLX_RGBA_TYPE, NULL, True);
    XFree(configs);
    REQUIRE(gl_context && glXMakeContextCurrent(display, pbuffer, pbuffer, gl_context));
#define FIND(name)                                                                                 \
    REQUIRE((gl.name = (__typeof__(gl##name) *)glXGetProcAddressARB((const GLubyte *)"g"           \
                                                                                     "l" #name)));
    GL_TEST_FUNCTIONS(FIND)
#undef FIND
}

static cl_context_properties properties[] = {
    CL_CONTEXT_PLATFORM, 0, CL_GL_CONTEXT_KHR, 0, CL_GLX_DISPLAY_KHR, 0, 0};

static void open_cl(void)
{
    REQUIRE(harness_find_cpucl(&h.platform, &h.device));
    properties[1] = (cl_context_properties)h.platform;
    properties[3] = (cl_context_properties)gl_context;
    properties[5] = (cl_context_properties)display;
    cl_int err;
    h.context = clCreateContext(properties, 1, &h.device, NULL, NULL, &err);
    REQUIRE(err == CL_SUCCESS);
    h.queue = clCreateCommandQueueWithProperties(h.context, h.device, NULL, &err);
    REQUIRE(err == CL_SUCCESS);
    clGetGLContextInfoKHR_fn info =
        (clGetGLContextInfoKHR_fn)clGetExtensionFunctionAddressForPlatform(h.platform,
                                                                           "clGetGLContextInfoKHR");
    cl_device_id device = NULL;
    REQUIRE(info);
    CHECK_OK(info(properties, CL_CURRENT_DEVICE_FOR_GL_CONTEXT_KHR, sizeof device, &device, NULL));
    CHECK(device == h.device);
}

enum { N = 500, W = 11, H = 7 };

struct textures {
    GLuint src, dst;
    unsigned char texels[W * H * 4];
};

/* A buffer scaled and a texture inverted into another: acquire, kernels,
 * release, on whichever thread calls it. */
static void run(GLuint buffer, const struct textures *t, cl_int results[6])
{
    cl_int err;
    cl_mem mems[3];
    mems[0] = clCreateFromGLBuffer(h.context, CL_MEM_READ_WRITE, buffer, &err);
    results[0] = err;
    mems[1] = clCreateFromGLTexture(h.context, CL_MEM_READ_ONLY, GL_TEXTURE_2D, 0, t->src, &err);
    results[1] = err;
    mems[2] = clCreateFromGLTexture(h.context, CL_MEM_WRITE_ONLY, GL_TEXTURE_2D, 0, t->dst, &err);
    results[2] = err;
    if (!mems[0] || !mems[1] || !mems[2])
        return;
    results[3] = clEnqueueAcquireGLObjects(h.queue, 3, mems, 0, NULL, NULL);
    cl_kernel scale = harness_kernel(program, "scale");
    cl_kernel invert = harness_kernel(program, "invert");
    clSetKernelArg(scale, 0, sizeof mems[0], &mems[0]);
    clSetKernelArg(invert, 0, sizeof mems[1], &mems[1]);
    clSetKernelArg(invert, 1, sizeof mems[2], &mems[2]);
    size_t count = N, global[2] = {W, H};
    results[4] = clEnqueueNDRangeKernel(h.queue, scale, 1, NULL, &count, NULL, 0, NULL, NULL) |
                 clEnqueueNDRangeKernel(h.queue, invert, 2, NULL, global, NULL, 0, NULL, NULL);
    results[5] = clEnqueueReleaseGLObjects(h.queue, 3, mems, 0, NULL, NULL) | clFinish(h.queue);
    clReleaseKernel(scale);
    clReleaseKernel(invert);
    for (int i = 0; i < 3; i++)
        clReleaseMemObject(mems[i]);
}

struct elsewhere {
    GLuint buffer;
    const struct textures *textures;
    cl_int results[6];
};

static void *run_elsewhere(void *arg)
{
    struct elsewhere *e = arg;
    run(e->buffer, e->textures, e->results);
    return NULL;
}

static void check_results(GLuint buffer, const struct textures *t, const int *data, int times)
{
    int back[N];
    unsigned char texels[W * H * 4];
    gl.BindBuffer(GL_ARRAY_BUFFER, buffer);
    gl.GetBufferSubData(GL_ARRAY_BUFFER, 0, sizeof back, back);
    gl.BindBuffer(GL_ARRAY_BUFFER, 0);
    gl.BindTexture(GL_TEXTURE_2D, t->dst);
    gl.GetTexImage(GL_TEXTURE_2D, 0, GL_RGBA, GL_UNSIGNED_BYTE, texels);
    gl.BindTexture(GL_TEXTURE_2D, 0);
    int wrong = 0;
    for (int i = 0; i < N; i++) {
        int want = data[i];
        for (int k = 0; k < times; k++)
            want = want * 2 + 1;
        wrong += back[i] != want;
    }
    CHECK_NONE_WRONG(wrong, "buffer values");
    wrong = 0;
    for (int i = 0; i < W * H * 4; i++)
        wrong += texels[i] != 255 - t->texels[i];
    CHECK_NONE_WRONG(wrong, "inverted texels");
}

static void buffers_and_textures(void)
{
    int data[N];
    for (int i = 0; i < N; i++)
        data[i] = 3 * i - 100;
    GLuint buffer;
    gl.GenBuffers(1, &buffer);
    gl.BindBuffer(GL_ARRAY_BUFFER, buffer);
    gl.BufferData(GL_ARRAY_BUFFER, sizeof data, data, GL_DYNAMIC_DRAW);
    gl.BindBuffer(GL_ARRAY_BUFFER, 0);
    struct textures t;
    for (int i = 0; i < W * H * 4; i++)
        t.texels[i] = (unsigned char)(i * 7 + 1);
    gl.GenTextures(1, &t.src);
    gl.GenTextures(1, &t.dst);
    gl.BindTexture(GL_TEXTURE_2D, t.src);
    gl.TexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, W, H, 0, GL_RGBA, GL_UNSIGNED_BYTE, t.texels);
    gl.BindTexture(GL_TEXTURE_2D, t.dst);
    gl.TexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, W, H, 0, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
    gl.BindTexture(GL_TEXTURE_2D, 0);
    gl.Finish();

    /* with the application's context current on this thread */
    cl_int results[6] = {0};
    run(buffer, &t, results);
    for (int i = 0; i < 6; i++)
        CHECK_OK(results[i]);
    check_results(buffer, &t, data, 1);

    /* on another thread, this one keeping the context current */
    struct elsewhere e = {.buffer = buffer, .textures = &t};
    gl.Finish();
    pthread_t thread;
    REQUIRE(pthread_create(&thread, NULL, run_elsewhere, &e) == 0);
    pthread_join(thread, NULL);
    for (int i = 0; i < 6; i++)
        CHECK_OK(e.results[i]);
    CHECK(glXGetCurrentContext() == gl_context);
    check_results(buffer, &t, data, 2);
    gl.DeleteBuffers(1, &buffer);
    gl.DeleteTextures(1, &t.src);
    gl.DeleteTextures(1, &t.dst);
}

/* A 4-sample RGBA8 texture cleared by GL, every sample read by a kernel. */
static void multisample(void)
{
    enum { SAMPLES = 4 };
    GLuint texture, framebuffer;
    gl.GenTextures(1, &texture);
    gl.BindTexture(GL_TEXTURE_2D_MULTISAMPLE, texture);
    gl.TexImage2DMultisample(GL_TEXTURE_2D_MULTISAMPLE, SAMPLES, GL_RGBA8, W, H, GL_TRUE);
    gl.BindTexture(GL_TEXTURE_2D_MULTISAMPLE, 0);
    gl.GenFramebuffers(1, &framebuffer);
    gl.BindFramebuffer(GL_FRAMEBUFFER, framebuffer);
    gl.FramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D_MULTISAMPLE,
                            texture, 0);
    const GLfloat colour[4] = {0.6f, 0.2f, 1.0f, 0.4f};
    gl.ClearBufferfv(GL_COLOR, 0, colour);
    gl.BindFramebuffer(GL_FRAMEBUFFER, 0);
    gl.Finish();
    CHECK_EQ(gl.GetError(), GL_NO_ERROR);
    cl_int err;
    cl_mem image = clCreateFromGLTexture(h.context, CL_MEM_READ_ONLY, GL_TEXTURE_2D_MULTISAMPLE, 0,
                                         texture, &err);
    CHECK_OK(err);
    REQUIRE(image);
    cl_float4 got[W * H * SAMPLES];
    cl_mem out = harness_buffer(&h, CL_MEM_WRITE_ONLY, sizeof got, NULL);
    CHECK_OK(clEnqueueAcquireGLObjects(h.queue, 1, &image, 0, NULL, NULL));
    cl_kernel k = harness_kernel(program, "read_msaa");
    CHECK_OK(harness_args(k, 2, ARG(image), ARG(out)));
    size_t global[2] = {W, H};
    CHECK_OK(clEnqueueNDRangeKernel(h.queue, k, 2, NULL, global, NULL, 0, NULL, NULL));
    CHECK_OK(clEnqueueReleaseGLObjects(h.queue, 1, &image, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(h.queue, out, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL));
    int wrong = 0;
    for (int i = 0; i < W * H * SAMPLES; i++)
        for (int c = 0; c < 4; c++)
            wrong += got[i].s[c] != roundf(colour[c] * 255.0f) / 255.0f;
    CHECK_NONE_WRONG(wrong, "samples");
    clReleaseKernel(k);
    clReleaseMemObject(out);
    clReleaseMemObject(image);
    gl.DeleteFramebuffers(1, &framebuffer);
    gl.DeleteTextures(1, &texture);
}

int main(void)
{
    open_gl();
    open_cl();
    program = harness_build_file(&h, GL_KERNELS, "-cl-std=CL2.0");
    REQUIRE(program);
    buffers_and_textures();
    multisample();
    clReleaseProgram(program);
    harness_close(&h);
    glXMakeContextCurrent(display, None, None, NULL);
    glXDestroyContext(display, gl_context);
    return harness_finish();
}
