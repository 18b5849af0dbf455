/* test_gl_sharing.c - OpenGL sharing (cl_khr_gl_sharing) with an EGL
 * context of Mesa's software renderer, made without a window
 * (EGL_MESA_platform_surfaceless): a context made from the GL context and
 * its queries; GL buffers, 1D, 2D, 2D array, 3D, cube map, buffer
 * textures, a mipmap level, depth textures, multi-sample textures
 * (cl_khr_gl_msaa_sharing) and renderbuffers read and written by kernels
 * between acquire and release, each compared with what the host computes
 * and with what GL holds afterwards; the application's GL state left as it
 * was; acquiring on a thread with no current GL context and on one while
 * the application's is current on another; events from GL fences
 * (cl_khr_gl_event) and EGL fences (cl_khr_egl_event); an EGL image
 * (cl_khr_egl_image); the errors.
 *
 * The GL functions are found through eglGetProcAddress: the test links
 * only libEGL. */
#define GL_GLEXT_PROTOTYPES
#include <CL/cl_egl.h>
#include <CL/cl_gl.h>
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GL/gl.h>
#include <GL/glext.h>

#include <pthread.h>

#include "../harness.h"

#define GL_KERNELS CPUCL_TEST_DATA "/gl_kernels.cl"

/* clang-format off */
#define GL_TEST_FUNCTIONS(X)                                                                       \
    X(GetError)                                                                                    \
    X(GetIntegerv)                                                                                 \
    X(PixelStorei)                                                                                 \
    X(Finish)                                                                                      \
    X(GenBuffers)                                                                                  \
    X(DeleteBuffers)                                                                               \
    X(BindBuffer)                                                                                  \
    X(BufferData)                                                                                  \
    X(GetBufferSubData)                                                                            \
    X(GenTextures)                                                                                 \
    X(DeleteTextures)                                                                              \
    X(BindTexture)                                                                                 \
    X(TexParameteri)                                                                               \
    X(TexImage1D)                                                                                  \
    X(TexImage2D)                                                                                  \
    X(TexImage3D)                                                                                  \
    X(GetTexImage)                                                                                 \
    X(TexBuffer)                                                                                   \
    X(GenRenderbuffers)                                                                            \
    X(DeleteRenderbuffers)                                                                         \
    X(BindRenderbuffer)                                                                            \
    X(RenderbufferStorage)                                                                         \
    X(GenFramebuffers)                                                                             \
    X(DeleteFramebuffers)                                                                          \
    X(BindFramebuffer)                                                                             \
    X(FramebufferRenderbuffer)                                                                     \
    X(ClearColor)                                                                                  \
    X(Clear)                                                                                       \
    X(ReadPixels)                                                                                  \
    X(FenceSync)                                                                                   \
    X(DeleteSync)                                                                                  \
    X(TexImage2DMultisample)                                                                       \
    X(TexImage3DMultisample)                                                                       \
    X(FramebufferTexture2D)                                                                        \
    X(FramebufferTextureLayer)                                                                     \
    X(ClearBufferuiv)                                                                              \
    X(ClearBufferfv)
/* clang-format on */

static struct {
#define FIELD(name) __typeof__(gl##name) *name;
    GL_TEST_FUNCTIONS(FIELD)
#undef FIELD
} gl;

static struct harness h; /* its context made from the GL context */
static cl_program program;
static EGLDisplay display;
static EGLContext gl_context;

/* A desktop OpenGL context on Mesa's surfaceless platform, current. */
static void open_gl(void)
{
    PFNEGLGETPLATFORMDISPLAYEXTPROC get_display =
        (PFNEGLGETPLATFORMDISPLAYEXTPROC)eglGetProcAddress("eglGetPlatformDisplayEXT");
    REQUIRE(get_display);
    display = get_display(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
    REQUIRE(display != EGL_NO_DISPLAY && eglInitialize(display, NULL, NULL));
    REQUIRE(eglBindAPI(EGL_OPENGL_API));
    const EGLint attributes[] = {EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE,
                                 EGL_OPENGL_BIT, EGL_NONE};
    EGLConfig config;
    EGLint count = 0;
    REQUIRE(eglChooseConfig(display, attributes, &config, 1, &count) && count == 1);
    gl_context = eglCreateContext(display, config, EGL_NO_CONTEXT, NULL);
    REQUIRE(gl_context != EGL_NO_CONTEXT);
    REQUIRE(eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, gl_context));
#define FIND(name) REQUIRE((gl.name = (__typeof__(gl##name) *)eglGetProcAddress("gl" #name)));
    GL_TEST_FUNCTIONS(FIND)
#undef FIND
}

static cl_context_properties gl_properties[] = {
    CL_CONTEXT_PLATFORM, 0, CL_GL_CONTEXT_KHR, 0, CL_EGL_DISPLAY_KHR, 0, 0};

static void open_cl(void)
{
    REQUIRE(harness_find_cpucl(&h.platform, &h.device));
    REQUIRE(harness_has_extension(&h, "cl_khr_gl_sharing"));
    gl_properties[1] = (cl_context_properties)h.platform;
    gl_properties[3] = (cl_context_properties)gl_context;
    gl_properties[5] = (cl_context_properties)display;
    cl_int err;
    h.context = clCreateContext(gl_properties, 1, &h.device, NULL, NULL, &err);
    REQUIRE(err == CL_SUCCESS);
    h.queue = clCreateCommandQueueWithProperties(h.context, h.device, NULL, &err);
    REQUIRE(err == CL_SUCCESS);
}

static void context_queries(void)
{
    clGetGLContextInfoKHR_fn info =
        (clGetGLContextInfoKHR_fn)clGetExtensionFunctionAddressForPlatform(h.platform,
                                                                           "clGetGLContextInfoKHR");
    REQUIRE(info);
    cl_device_id device = NULL;
    size_t size = 0;
    CHECK_OK(
        info(gl_properties, CL_CURRENT_DEVICE_FOR_GL_CONTEXT_KHR, sizeof device, &device, &size));
    CHECK(device == h.device && size == sizeof device);
    CHECK_OK(info(gl_properties, CL_DEVICES_FOR_GL_CONTEXT_KHR, 0, NULL, &size));
    CHECK_EQ(size, sizeof(cl_device_id));
    CHECK_ERR(info(gl_properties, CL_CURRENT_DEVICE_FOR_GL_CONTEXT_KHR, 1, &device, NULL),
              CL_INVALID_VALUE);
    CHECK_ERR(info(gl_properties, 0x7777, sizeof device, &device, NULL), CL_INVALID_VALUE);
    cl_context_properties no_gl[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)h.platform, 0};
    CHECK_ERR(info(no_gl, CL_CURRENT_DEVICE_FOR_GL_CONTEXT_KHR, sizeof device, &device, NULL),
              CL_INVALID_GL_SHAREGROUP_REFERENCE_KHR);
    /* the context keeps the properties it was made with */
    cl_context_properties kept[8];
    CHECK_OK(clGetContextInfo(h.context, CL_CONTEXT_PROPERTIES, sizeof kept, kept, &size));
    CHECK(size == sizeof gl_properties && !memcmp(kept, gl_properties, size));
}

static void run_2d(cl_kernel k, size_t width, size_t height)
{
    size_t global[2] = {width, height};
    CHECK_OK(clEnqueueNDRangeKernel(h.queue, k, 2, NULL, global, NULL, 0, NULL, NULL));
}

/* A GL buffer doubled (and one added) by a kernel; GL sees the result. */
static void buffers(void)
{
    enum { N = 1000 };
    int data[N], back[N];
    for (int i = 0; i < N; i++)
        data[i] = i * 7 - 300;
    GLuint name;
    gl.GenBuffers(1, &name);
    gl.BindBuffer(GL_ARRAY_BUFFER, name);
    gl.BufferData(GL_ARRAY_BUFFER, sizeof data, data, GL_DYNAMIC_DRAW);
    gl.BindBuffer(GL_ARRAY_BUFFER, 0);
    gl.Finish();
    cl_int err;
    cl_mem mem = clCreateFromGLBuffer(h.context, CL_MEM_READ_WRITE, name, &err);
    CHECK_OK(err);
    size_t size = 0;
    CHECK_OK(clGetMemObjectInfo(mem, CL_MEM_SIZE, sizeof size, &size, NULL));
    CHECK_EQ(size, sizeof data);
    cl_gl_object_type type = 0;
    cl_GLuint object_name = 0;
    CHECK_OK(clGetGLObjectInfo(mem, &type, &object_name));
    CHECK(type == CL_GL_OBJECT_BUFFER && object_name == name);
    CHECK_ERR(clGetGLTextureInfo(mem, CL_GL_TEXTURE_TARGET, sizeof type, &type, NULL),
              CL_INVALID_GL_OBJECT);

    cl_event acquired;
    CHECK_OK(clEnqueueAcquireGLObjects(h.queue, 1, &mem, 0, NULL, &acquired));
    cl_command_type command = 0;
    CHECK_OK(clGetEventInfo(acquired, CL_EVENT_COMMAND_TYPE, sizeof command, &command, NULL));
    CHECK_EQ(command, CL_COMMAND_ACQUIRE_GL_OBJECTS);
    clReleaseEvent(acquired);
    cl_kernel k = harness_kernel(program, "scale");
    CHECK_OK(clSetKernelArg(k, 0, sizeof mem, &mem));
    size_t global = N;
    CHECK_OK(clEnqueueNDRangeKernel(h.queue, k, 1, NULL, &global, NULL, 0, NULL, NULL));
    cl_event released;
    CHECK_OK(clEnqueueReleaseGLObjects(h.queue, 1, &mem, 0, NULL, &released));
    CHECK_OK(clWaitForEvents(1, &released));
    clReleaseEvent(released);

    gl.BindBuffer(GL_ARRAY_BUFFER, name);
    gl.GetBufferSubData(GL_ARRAY_BUFFER, 0, sizeof back, back);
    gl.BindBuffer(GL_ARRAY_BUFFER, 0);
    int wrong = 0;
    for (int i = 0; i < N; i++)
        wrong += back[i] != data[i] * 2 + 1;
    CHECK_NONE_WRONG(wrong, "GL buffer after the kernel");
    clReleaseKernel(k);
    clReleaseMemObject(mem);
    gl.DeleteBuffers(1, &name);
}

static GLuint texture_2d(GLenum target, GLenum internal, GLsizei width, GLsizei height,
                         GLenum format, GLenum type, const void *pixels)
{
    GLuint name;
    gl.GenTextures(1, &name);
    gl.BindTexture(target, name);
    gl.TexParameteri(target, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    gl.TexImage2D(target, 0, internal, width, height, 0, format, type, pixels);
    gl.BindTexture(target, 0);
    return name;
}

/* RGBA8 and RGBA32F 2D textures (and a rectangle) inverted into another
 * texture, which GL then holds. */
static void textures_2d(void)
{
    enum { W = 13, H = 7 };
    unsigned char bytes[W * H * 4], back_bytes[W * H * 4];
    float floats[W * H * 4], back_floats[W * H * 4];
    for (int i = 0; i < W * H * 4; i++) {
        bytes[i] = (unsigned char)(i * 37 + 11);
        floats[i] = (float)i / 64.0f - 2.0f;
    }
    const struct {
        GLenum target, internal, type;
        const void *pixels;
        void *back;
    } cases[] = {
        {GL_TEXTURE_2D, GL_RGBA8, GL_UNSIGNED_BYTE, bytes, back_bytes},
        {GL_TEXTURE_RECTANGLE, GL_RGBA8, GL_UNSIGNED_BYTE, bytes, back_bytes},
        {GL_TEXTURE_2D, GL_RGBA32F, GL_FLOAT, floats, back_floats},
    };
    cl_kernel k = harness_kernel(program, "invert");
    for (int c = 0; c < 3; c++) {
        GLenum target = cases[c].target, type = cases[c].type;
        GLuint src = texture_2d(target, cases[c].internal, W, H, GL_RGBA, type, cases[c].pixels);
        GLuint dst = texture_2d(target, cases[c].internal, W, H, GL_RGBA, type, NULL);
        gl.Finish();
        cl_int err;
        cl_mem images[2];
        images[0] = clCreateFromGLTexture(h.context, CL_MEM_READ_ONLY, target, 0, src, &err);
        CHECK_OK(err);
        images[1] = clCreateFromGLTexture(h.context, CL_MEM_WRITE_ONLY, target, 0, dst, &err);
        CHECK_OK(err);
        if (!images[0] || !images[1])
            continue;
        cl_image_format format;
        CHECK_OK(clGetImageInfo(images[0], CL_IMAGE_FORMAT, sizeof format, &format, NULL));
        CHECK_EQ(format.image_channel_order, CL_RGBA);
        CHECK_EQ(format.image_channel_data_type, type == GL_FLOAT ? CL_FLOAT : CL_UNORM_INT8);
        size_t width = 0, height = 0;
        CHECK_OK(clGetImageInfo(images[0], CL_IMAGE_WIDTH, sizeof width, &width, NULL));
        CHECK_OK(clGetImageInfo(images[0], CL_IMAGE_HEIGHT, sizeof height, &height, NULL));
        CHECK(width == W && height == H);
        cl_GLenum gl_target = 0;
        cl_GLint level = -1;
        CHECK_OK(clGetGLTextureInfo(images[0], CL_GL_TEXTURE_TARGET, sizeof gl_target, &gl_target,
                                    NULL));
        CHECK_OK(clGetGLTextureInfo(images[0], CL_GL_MIPMAP_LEVEL, sizeof level, &level, NULL));
        CHECK(gl_target == target && level == 0);
        cl_gl_object_type object_type;
        CHECK_OK(clGetGLObjectInfo(images[1], &object_type, NULL));
        CHECK_EQ(object_type, CL_GL_OBJECT_TEXTURE2D);

        CHECK_OK(clEnqueueAcquireGLObjects(h.queue, 2, images, 0, NULL, NULL));
        CHECK_OK(harness_args(k, 2, ARG(images[0]), ARG(images[1])));
        run_2d(k, W, H);
        CHECK_OK(clEnqueueReleaseGLObjects(h.queue, 2, images, 0, NULL, NULL));
        CHECK_OK(clFinish(h.queue));

        gl.BindTexture(target, dst);
        gl.GetTexImage(target, 0, GL_RGBA, type, cases[c].back);
        gl.BindTexture(target, 0);
        int wrong = 0;
        for (int i = 0; i < W * H * 4; i++)
            wrong += type == GL_FLOAT ? back_floats[i] != 1.0f - floats[i]
                                      : back_bytes[i] != 255 - bytes[i];
        CHECK_NONE_WRONG(wrong, "inverted texels");
        clReleaseMemObject(images[0]);
        clReleaseMemObject(images[1]);
        GLuint names[2] = {src, dst};
        gl.DeleteTextures(2, names);
    }
    clReleaseKernel(k);
}

/* A 3D RGBA16UI texture read by a kernel; a 2D array RGBA8UI texture
 * written by one. */
static void textures_3d(void)
{
    enum { W = 5, H = 4, D = 3, N = W * H * D };
    unsigned short texels[N * 4];
    for (int i = 0; i < N * 4; i++)
        texels[i] = (unsigned short)(i * 1021 + 5);
    GLuint names[2];
    gl.GenTextures(2, names);
    gl.BindTexture(GL_TEXTURE_3D, names[0]);
    gl.TexImage3D(GL_TEXTURE_3D, 0, GL_RGBA16UI, W, H, D, 0, GL_RGBA_INTEGER, GL_UNSIGNED_SHORT,
                  texels);
    gl.BindTexture(GL_TEXTURE_3D, 0);
    gl.BindTexture(GL_TEXTURE_2D_ARRAY, names[1]);
    gl.TexImage3D(GL_TEXTURE_2D_ARRAY, 0, GL_RGBA8UI, W, H, D, 0, GL_RGBA_INTEGER, GL_UNSIGNED_BYTE,
                  NULL);
    gl.BindTexture(GL_TEXTURE_2D_ARRAY, 0);
    gl.Finish();
    cl_int err;
    cl_mem volume =
        clCreateFromGLTexture3D(h.context, CL_MEM_READ_ONLY, GL_TEXTURE_3D, 0, names[0], &err);
    CHECK_OK(err);
    cl_mem array =
        clCreateFromGLTexture(h.context, CL_MEM_WRITE_ONLY, GL_TEXTURE_2D_ARRAY, 0, names[1], &err);
    CHECK_OK(err);
    REQUIRE(volume && array);
    cl_mem_object_type type;
    CHECK_OK(clGetMemObjectInfo(array, CL_MEM_TYPE, sizeof type, &type, NULL));
    CHECK_EQ(type, CL_MEM_OBJECT_IMAGE2D_ARRAY);
    size_t layers = 0;
    CHECK_OK(clGetImageInfo(array, CL_IMAGE_ARRAY_SIZE, sizeof layers, &layers, NULL));
    CHECK_EQ(layers, D);
    cl_mem out = harness_buffer(&h, CL_MEM_WRITE_ONLY, sizeof(cl_uint4) * N, NULL);
    cl_mem both[2] = {volume, array};
    CHECK_OK(clEnqueueAcquireGLObjects(h.queue, 2, both, 0, NULL, NULL));
    cl_kernel read = harness_kernel(program, "read_3d");
    cl_kernel fill = harness_kernel(program, "fill_array");
    CHECK_OK(harness_args(read, 2, ARG(volume), ARG(out)));
    CHECK_OK(harness_args(fill, 1, ARG(array)));
    size_t global[3] = {W, H, D};
    CHECK_OK(clEnqueueNDRangeKernel(h.queue, read, 3, NULL, global, NULL, 0, NULL, NULL));
    CHECK_OK(clEnqueueNDRangeKernel(h.queue, fill, 3, NULL, global, NULL, 0, NULL, NULL));
    CHECK_OK(clEnqueueReleaseGLObjects(h.queue, 2, both, 0, NULL, NULL));
    cl_uint read_back[N * 4];
    CHECK_OK(
        clEnqueueReadBuffer(h.queue, out, CL_TRUE, 0, sizeof read_back, read_back, 0, NULL, NULL));
    int wrong = 0;
    for (int i = 0; i < N * 4; i++)
        wrong += read_back[i] != texels[i];
    CHECK_NONE_WRONG(wrong, "3D texels read");
    unsigned char written[N * 4];
    gl.BindTexture(GL_TEXTURE_2D_ARRAY, names[1]);
    gl.GetTexImage(GL_TEXTURE_2D_ARRAY, 0, GL_RGBA_INTEGER, GL_UNSIGNED_BYTE, written);
    gl.BindTexture(GL_TEXTURE_2D_ARRAY, 0);
    wrong = 0;
    for (int z = 0; z < D; z++)
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) {
                const unsigned char *t = &written[((z * H + y) * W + x) * 4];
                wrong += t[0] != x || t[1] != y || t[2] != z || t[3] != x + y + z;
            }
    CHECK_NONE_WRONG(wrong, "2D array texels written");
    clReleaseKernel(read);
    clReleaseKernel(fill);
    clReleaseMemObject(out);
    clReleaseMemObject(volume);
    clReleaseMemObject(array);
    gl.DeleteTextures(2, names);
}

/* A buffer texture (R32F) doubled into a 1D texture; a 1D array texture
 * (RGBA16I) changed in place; a cube map's face and a mipmap level read. */
static void textures_other(void)
{
    enum { N = 40, LAYERS = 3 };
    float values[N], doubled[N];
    for (int i = 0; i < N; i++)
        values[i] = (float)i * 0.25f - 3.0f;
    GLuint buffer, names[4];
    gl.GenBuffers(1, &buffer);
    gl.BindBuffer(GL_TEXTURE_BUFFER, buffer);
    gl.BufferData(GL_TEXTURE_BUFFER, sizeof values, values, GL_STATIC_DRAW);
    gl.BindBuffer(GL_TEXTURE_BUFFER, 0);
    gl.GenTextures(4, names);
    gl.BindTexture(GL_TEXTURE_BUFFER, names[0]);
    gl.TexBuffer(GL_TEXTURE_BUFFER, GL_R32F, buffer);
    gl.BindTexture(GL_TEXTURE_BUFFER, 0);
    gl.BindTexture(GL_TEXTURE_1D, names[1]);
    gl.TexImage1D(GL_TEXTURE_1D, 0, GL_R32F, N, 0, GL_RED, GL_FLOAT, NULL);
    gl.BindTexture(GL_TEXTURE_1D, 0);
    short shorts[N * LAYERS * 4];
    for (int i = 0; i < N * LAYERS * 4; i++)
        shorts[i] = (short)(i * 13 - 700);
    gl.BindTexture(GL_TEXTURE_1D_ARRAY, names[2]);
    gl.TexImage2D(GL_TEXTURE_1D_ARRAY, 0, GL_RGBA16I, N, LAYERS, 0, GL_RGBA_INTEGER, GL_SHORT,
                  shorts);
    gl.BindTexture(GL_TEXTURE_1D_ARRAY, 0);
    gl.Finish();

    cl_int err;
    cl_mem src =
        clCreateFromGLTexture(h.context, CL_MEM_READ_ONLY, GL_TEXTURE_BUFFER, 0, names[0], &err);
    CHECK_OK(err);
    cl_mem dst =
        clCreateFromGLTexture(h.context, CL_MEM_WRITE_ONLY, GL_TEXTURE_1D, 0, names[1], &err);
    CHECK_OK(err);
    cl_mem layered =
        clCreateFromGLTexture(h.context, CL_MEM_READ_WRITE, GL_TEXTURE_1D_ARRAY, 0, names[2], &err);
    CHECK_OK(err);
    REQUIRE(src && dst && layered);
    cl_gl_object_type type;
    CHECK_OK(clGetGLObjectInfo(src, &type, NULL));
    CHECK_EQ(type, CL_GL_OBJECT_TEXTURE_BUFFER);
    CHECK_OK(clGetGLObjectInfo(layered, &type, NULL));
    CHECK_EQ(type, CL_GL_OBJECT_TEXTURE1D_ARRAY);
    cl_mem all[3] = {src, dst, layered};
    CHECK_OK(clEnqueueAcquireGLObjects(h.queue, 3, all, 0, NULL, NULL));
    cl_kernel k = harness_kernel(program, "double_1d");
    CHECK_OK(harness_args(k, 2, ARG(src), ARG(dst)));
    size_t global[2] = {N, LAYERS};
    CHECK_OK(clEnqueueNDRangeKernel(h.queue, k, 1, NULL, global, NULL, 0, NULL, NULL));
    cl_kernel add = harness_kernel(program, "add_layer");
    CHECK_OK(harness_args(add, 1, ARG(layered)));
    CHECK_OK(clEnqueueNDRangeKernel(h.queue, add, 2, NULL, global, NULL, 0, NULL, NULL));
    CHECK_OK(clEnqueueReleaseGLObjects(h.queue, 3, all, 0, NULL, NULL));
    CHECK_OK(clFinish(h.queue));
    gl.BindTexture(GL_TEXTURE_1D, names[1]);
    gl.GetTexImage(GL_TEXTURE_1D, 0, GL_RED, GL_FLOAT, doubled);
    gl.BindTexture(GL_TEXTURE_1D, 0);
    int wrong = 0;
    for (int i = 0; i < N; i++)
        wrong += doubled[i] != values[i] * 2.0f;
    CHECK_NONE_WRONG(wrong, "1D texels from the buffer texture");
    short back[N * LAYERS * 4];
    gl.BindTexture(GL_TEXTURE_1D_ARRAY, names[2]);
    gl.GetTexImage(GL_TEXTURE_1D_ARRAY, 0, GL_RGBA_INTEGER, GL_SHORT, back);
    gl.BindTexture(GL_TEXTURE_1D_ARRAY, 0);
    wrong = 0;
    for (int i = 0; i < N * LAYERS * 4; i++)
        wrong += back[i] != shorts[i] + i / (N * 4);
    CHECK_NONE_WRONG(wrong, "1D array texels changed in place");
    clReleaseKernel(k);
    clReleaseKernel(add);
    clReleaseMemObject(src);
    clReleaseMemObject(dst);
    clReleaseMemObject(layered);

    /* a cube map's face (the others hold other bytes) and level 1 of a 2D
     * texture, each copied out through an image read */
    enum { S = 8 };
    unsigned char faces[6][S * S * 4], level1[4 * 4 * 4], got[S * S * 4];
    gl.BindTexture(GL_TEXTURE_CUBE_MAP, names[3]);
    for (int f = 0; f < 6; f++) {
        for (int i = 0; i < S * S * 4; i++)
            faces[f][i] = (unsigned char)(i + f * 40);
        gl.TexImage2D(GL_TEXTURE_CUBE_MAP_POSITIVE_X + f, 0, GL_RGBA8, S, S, 0, GL_RGBA,
                      GL_UNSIGNED_BYTE, faces[f]);
    }
    gl.BindTexture(GL_TEXTURE_CUBE_MAP, 0);
    GLuint mipmapped;
    gl.GenTextures(1, &mipmapped);
    gl.BindTexture(GL_TEXTURE_2D, mipmapped);
    gl.TexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, S, S, 0, GL_RGBA, GL_UNSIGNED_BYTE, faces[0]);
    for (int i = 0; i < 4 * 4 * 4; i++)
        level1[i] = (unsigned char)(200 - i);
    gl.TexImage2D(GL_TEXTURE_2D, 1, GL_RGBA8, 4, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE, level1);
    gl.BindTexture(GL_TEXTURE_2D, 0);
    gl.Finish();
    cl_mem face = clCreateFromGLTexture2D(h.context, CL_MEM_READ_ONLY,
                                          GL_TEXTURE_CUBE_MAP_NEGATIVE_Y, 0, names[3], &err);
    CHECK_OK(err);
    cl_mem level =
        clCreateFromGLTexture(h.context, CL_MEM_READ_ONLY, GL_TEXTURE_2D, 1, mipmapped, &err);
    CHECK_OK(err);
    REQUIRE(face && level);
    cl_GLint level_number = 0;
    CHECK_OK(
        clGetGLTextureInfo(level, CL_GL_MIPMAP_LEVEL, sizeof level_number, &level_number, NULL));
    CHECK_EQ(level_number, 1);
    cl_mem two[2] = {face, level};
    CHECK_OK(clEnqueueAcquireGLObjects(h.queue, 2, two, 0, NULL, NULL));
    size_t origin[3] = {0}, region[3] = {S, S, 1};
    CHECK_OK(clEnqueueReadImage(h.queue, face, CL_TRUE, origin, region, 0, 0, got, 0, NULL, NULL));
    CHECK(!memcmp(got, faces[3], sizeof got)); /* NEGATIVE_Y is the fourth face */
    region[0] = region[1] = 4;
    CHECK_OK(clEnqueueReadImage(h.queue, level, CL_TRUE, origin, region, 0, 0, got, 0, NULL, NULL));
    CHECK(!memcmp(got, level1, sizeof level1));
    CHECK_OK(clEnqueueReleaseGLObjects(h.queue, 2, two, 0, NULL, NULL));
    clReleaseMemObject(face);
    clReleaseMemObject(level);
    gl.DeleteTextures(1, &mipmapped);
    gl.DeleteTextures(4, names);
    gl.DeleteBuffers(1, &buffer);
}

/* A renderbuffer GL cleared to one colour, inverted by a kernel into
 * another, which GL reads back through a framebuffer. */
static void renderbuffers(void)
{
    enum { W = 9, H = 6 };
    GLuint names[2], framebuffer;
    gl.GenRenderbuffers(2, names);
    for (int i = 0; i < 2; i++) {
        gl.BindRenderbuffer(GL_RENDERBUFFER, names[i]);
        gl.RenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, W, H);
    }
    gl.BindRenderbuffer(GL_RENDERBUFFER, 0);
    gl.GenFramebuffers(1, &framebuffer);
    gl.BindFramebuffer(GL_FRAMEBUFFER, framebuffer);
    gl.FramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, names[0]);
    gl.ClearColor(0.2f, 0.4f, 0.6f, 0.8f);
    gl.Clear(GL_COLOR_BUFFER_BIT);
    gl.Finish();
    cl_int err;
    cl_mem src = clCreateFromGLRenderbuffer(h.context, CL_MEM_READ_ONLY, names[0], &err);
    CHECK_OK(err);
    cl_mem dst = clCreateFromGLRenderbuffer(h.context, CL_MEM_WRITE_ONLY, names[1], &err);
    CHECK_OK(err);
    REQUIRE(src && dst);
    cl_gl_object_type type;
    cl_GLuint name;
    CHECK_OK(clGetGLObjectInfo(src, &type, &name));
    CHECK(type == CL_GL_OBJECT_RENDERBUFFER && name == names[0]);
    cl_mem both[2] = {src, dst};
    CHECK_OK(clEnqueueAcquireGLObjects(h.queue, 2, both, 0, NULL, NULL));
    cl_kernel k = harness_kernel(program, "invert");
    CHECK_OK(harness_args(k, 2, ARG(src), ARG(dst)));
    run_2d(k, W, H);
    CHECK_OK(clEnqueueReleaseGLObjects(h.queue, 2, both, 0, NULL, NULL));
    CHECK_OK(clFinish(h.queue));
    unsigned char pixels[W * H * 4];
    gl.FramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, names[1]);
    gl.ReadPixels(0, 0, W, H, GL_RGBA, GL_UNSIGNED_BYTE, pixels);
    gl.BindFramebuffer(GL_FRAMEBUFFER, 0);
    const unsigned char cleared[4] = {51, 102, 153, 204}; /* 0.2 .. 0.8 of 255 */
    int wrong = 0;
    for (int i = 0; i < W * H * 4; i++)
        wrong += pixels[i] != 255 - cleared[i % 4];
    CHECK_NONE_WRONG(wrong, "renderbuffer pixels");
    clReleaseKernel(k);
    clReleaseMemObject(src);
    clReleaseMemObject(dst);
    gl.DeleteFramebuffers(1, &framebuffer);
    gl.DeleteRenderbuffers(2, names);
}

/* Depth textures (cl_khr_gl_depth_images): 16-bit and float depth, and
 * depth with stencil (24-bit and float depth), read by a kernel. */
static void depth_textures(void)
{
    enum { W = 6, H = 5, N = W * H };
    unsigned short d16[N];
    float d32[N], expected[N], got[N];
    cl_uint d24s8[N];
    struct {
        float depth;
        cl_uint stencil;
    } d32s8[N];
    for (int i = 0; i < N; i++) {
        d16[i] = (unsigned short)(i * 2111);
        d32[i] = (float)i / N;
        d24s8[i] = (cl_uint)(i * 500009) << 8 | (cl_uint)(i & 255);
        d32s8[i].depth = 1.0f - (float)i / N;
        d32s8[i].stencil = (cl_uint)i;
    }
    const struct {
        GLenum internal, format, type;
        const void *pixels;
        cl_channel_order order;
        cl_channel_type cl_type;
    } cases[] = {
        {GL_DEPTH_COMPONENT16, GL_DEPTH_COMPONENT, GL_UNSIGNED_SHORT, d16, CL_DEPTH,
         CL_UNORM_INT16},
        {GL_DEPTH_COMPONENT32F, GL_DEPTH_COMPONENT, GL_FLOAT, d32, CL_DEPTH, CL_FLOAT},
        {GL_DEPTH24_STENCIL8, GL_DEPTH_STENCIL, GL_UNSIGNED_INT_24_8, d24s8, CL_DEPTH_STENCIL,
         CL_UNORM_INT24},
        {GL_DEPTH32F_STENCIL8, GL_DEPTH_STENCIL, GL_FLOAT_32_UNSIGNED_INT_24_8_REV, d32s8,
         CL_DEPTH_STENCIL, CL_FLOAT},
    };
    cl_kernel k = harness_kernel(program, "read_depth");
    cl_mem out = harness_buffer(&h, CL_MEM_WRITE_ONLY, sizeof got, NULL);
    for (int c = 0; c < 4; c++) {
        for (int i = 0; i < N; i++)
            expected[i] = c == 0   ? d16[i] / 65535.0f
                          : c == 1 ? d32[i]
                          : c == 2 ? (d24s8[i] >> 8) / 16777215.0f
                                   : d32s8[i].depth;
        GLuint texture = texture_2d(GL_TEXTURE_2D, cases[c].internal, W, H, cases[c].format,
                                    cases[c].type, cases[c].pixels);
        gl.Finish();
        cl_int err;
        cl_mem image =
            clCreateFromGLTexture(h.context, CL_MEM_READ_ONLY, GL_TEXTURE_2D, 0, texture, &err);
        CHECK_OK(err);
        if (!image)
            continue;
        cl_image_format format;
        CHECK_OK(clGetImageInfo(image, CL_IMAGE_FORMAT, sizeof format, &format, NULL));
        CHECK(format.image_channel_order == cases[c].order &&
              format.image_channel_data_type == cases[c].cl_type);
        CHECK_OK(clEnqueueAcquireGLObjects(h.queue, 1, &image, 0, NULL, NULL));
        CHECK_OK(harness_args(k, 2, ARG(image), ARG(out)));
        run_2d(k, W, H);
        if (cases[c].order == CL_DEPTH_STENCIL) {
            /* API 5.3.14.1: no host command takes a depth-stencil image */
            size_t origin[3] = {0}, region[3] = {W, H, 1};
            CHECK_ERR(clEnqueueReadImage(h.queue, image, CL_TRUE, origin, region, 0, 0, got, 0,
                                         NULL, NULL),
                      CL_INVALID_OPERATION);
        }
        CHECK_OK(clEnqueueReleaseGLObjects(h.queue, 1, &image, 0, NULL, NULL));
        CHECK_OK(clEnqueueReadBuffer(h.queue, out, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL));
        int wrong = 0;
        for (int i = 0; i < N; i++)
            wrong += fabsf(got[i] - expected[i]) > 1e-7f;
        CHECK_NONE_WRONG(wrong, "depth texels read");
        clReleaseMemObject(image);
        gl.DeleteTextures(1, &texture);
    }
    /* not a format clCreateImage takes, nor one the device lists */
    cl_image_format format = {CL_DEPTH_STENCIL, CL_UNORM_INT24};
    cl_image_desc desc = {.image_type = CL_MEM_OBJECT_IMAGE2D, .image_width = 4, .image_height = 4};
    cl_int err;
    CHECK_FAILS(clCreateImage(h.context, CL_MEM_READ_ONLY, &format, &desc, NULL, &err), err,
                CL_IMAGE_FORMAT_NOT_SUPPORTED);
    clReleaseMemObject(out);
    clReleaseKernel(k);
}

/* Multi-sample textures (cl_khr_gl_msaa_sharing), cleared by GL through a
 * framebuffer: an RGBA8 2D one, an RGBA32UI 2D array one with a colour a
 * layer, a 32F depth one; every sample of every texel read by a kernel. */
static void multisample(void)
{
    enum { W = 7, H = 5, LAYERS = 3, SAMPLES = 4 };
    GLuint textures[3], framebuffer;
    gl.GenTextures(3, textures);
    gl.GenFramebuffers(1, &framebuffer);
    gl.BindFramebuffer(GL_FRAMEBUFFER, framebuffer);
    gl.BindTexture(GL_TEXTURE_2D_MULTISAMPLE, textures[0]);
    gl.TexImage2DMultisample(GL_TEXTURE_2D_MULTISAMPLE, SAMPLES, GL_RGBA8, W, H, GL_TRUE);
    gl.FramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D_MULTISAMPLE,
                            textures[0], 0);
    const GLfloat colour[4] = {0.2f, 0.4f, 0.6f, 0.8f};
    gl.ClearBufferfv(GL_COLOR, 0, colour);
    gl.BindTexture(GL_TEXTURE_2D_MULTISAMPLE_ARRAY, textures[1]);
    gl.TexImage3DMultisample(GL_TEXTURE_2D_MULTISAMPLE_ARRAY, SAMPLES, GL_RGBA32UI, W, H, LAYERS,
                             GL_TRUE);
    for (int layer = 0; layer < LAYERS; layer++) {
        gl.FramebufferTextureLayer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, textures[1], 0, layer);
        const GLuint values[4] = {(GLuint)layer, 70000u + (GLuint)layer, 3, 0xfffffff0u};
        gl.ClearBufferuiv(GL_COLOR, 0, values);
    }
    gl.FramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D_MULTISAMPLE, 0, 0);
    gl.BindTexture(GL_TEXTURE_2D_MULTISAMPLE, textures[2]);
    gl.TexImage2DMultisample(GL_TEXTURE_2D_MULTISAMPLE, SAMPLES, GL_DEPTH_COMPONENT32F, W, H,
                             GL_TRUE);
    gl.FramebufferTexture2D(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_TEXTURE_2D_MULTISAMPLE,
                            textures[2], 0);
    const GLfloat depth = 0.375f;
    gl.ClearBufferfv(GL_DEPTH, 0, &depth);
    gl.BindFramebuffer(GL_FRAMEBUFFER, 0);
    gl.BindTexture(GL_TEXTURE_2D_MULTISAMPLE, 0);
    gl.BindTexture(GL_TEXTURE_2D_MULTISAMPLE_ARRAY, 0);
    gl.Finish();
    CHECK_EQ(gl.GetError(), GL_NO_ERROR);

    cl_int err;
    cl_mem images[3];
    images[0] = clCreateFromGLTexture(h.context, CL_MEM_READ_ONLY, GL_TEXTURE_2D_MULTISAMPLE, 0,
                                      textures[0], &err);
    CHECK_OK(err);
    images[1] = clCreateFromGLTexture(h.context, CL_MEM_READ_ONLY, GL_TEXTURE_2D_MULTISAMPLE_ARRAY,
                                      0, textures[1], &err);
    CHECK_OK(err);
    images[2] = clCreateFromGLTexture(h.context, CL_MEM_READ_ONLY, GL_TEXTURE_2D_MULTISAMPLE, 0,
                                      textures[2], &err);
    CHECK_OK(err);
    REQUIRE(images[0] && images[1] && images[2]);
    cl_uint samples = 0;
    GLsizei gl_samples = 0;
    CHECK_OK(clGetImageInfo(images[1], CL_IMAGE_NUM_SAMPLES, sizeof samples, &samples, NULL));
    CHECK_OK(
        clGetGLTextureInfo(images[0], CL_GL_NUM_SAMPLES, sizeof gl_samples, &gl_samples, NULL));
    CHECK(samples == SAMPLES && gl_samples == SAMPLES);
    cl_gl_object_type type;
    CHECK_OK(clGetGLObjectInfo(images[1], &type, NULL));
    CHECK_EQ(type, CL_GL_OBJECT_TEXTURE2D_ARRAY);
    size_t origin[3] = {0}, region[3] = {W, H, 1};
    unsigned char bytes[W * H * 4];
    CHECK_ERR(
        clEnqueueReadImage(h.queue, images[0], CL_TRUE, origin, region, 0, 0, bytes, 0, NULL, NULL),
        CL_INVALID_OPERATION);

    /* a multi-sample argument takes multi-sample images only, and only it
     * takes them */
    cl_kernel msaa_kernel = harness_kernel(program, "read_msaa");
    cl_kernel plain_kernel = harness_kernel(program, "invert");
    cl_image_format plain_format = {CL_RGBA, CL_UNORM_INT8};
    cl_image_desc plain_desc = {
        .image_type = CL_MEM_OBJECT_IMAGE2D, .image_width = W, .image_height = H};
    cl_mem plain =
        clCreateImage(h.context, CL_MEM_READ_ONLY, &plain_format, &plain_desc, NULL, &err);
    CHECK_OK(err);
    CHECK_ERR(clSetKernelArg(msaa_kernel, 0, sizeof plain, &plain), CL_INVALID_MEM_OBJECT);
    CHECK_ERR(clSetKernelArg(plain_kernel, 0, sizeof images[0], &images[0]), CL_INVALID_MEM_OBJECT);
    clReleaseMemObject(plain);
    clReleaseKernel(msaa_kernel);
    clReleaseKernel(plain_kernel);

    CHECK_OK(clEnqueueAcquireGLObjects(h.queue, 3, images, 0, NULL, NULL));
    enum { N = W * H * SAMPLES };
    cl_float4 colours[N];
    cl_uint4 layered[N * LAYERS + 1];
    float depths[N];
    cl_mem out[3] = {harness_buffer(&h, CL_MEM_WRITE_ONLY, sizeof colours, NULL),
                     harness_buffer(&h, CL_MEM_WRITE_ONLY, sizeof layered, NULL),
                     harness_buffer(&h, CL_MEM_WRITE_ONLY, sizeof depths, NULL)};
    const char *names[3] = {"read_msaa", "read_msaa_array", "read_msaa_depth"};
    for (int i = 0; i < 3; i++) {
        cl_kernel k = harness_kernel(program, names[i]);
        CHECK_OK(harness_args(k, 2, ARG(images[i]), ARG(out[i])));
        size_t global[3] = {W, H, i == 1 ? LAYERS : 1};
        CHECK_OK(clEnqueueNDRangeKernel(h.queue, k, 3, NULL, global, NULL, 0, NULL, NULL));
        clReleaseKernel(k);
    }
    CHECK_OK(clEnqueueReleaseGLObjects(h.queue, 3, images, 0, NULL, NULL));
    CHECK_OK(
        clEnqueueReadBuffer(h.queue, out[0], CL_TRUE, 0, sizeof colours, colours, 0, NULL, NULL));
    CHECK_OK(
        clEnqueueReadBuffer(h.queue, out[1], CL_TRUE, 0, sizeof layered, layered, 0, NULL, NULL));
    CHECK_OK(
        clEnqueueReadBuffer(h.queue, out[2], CL_TRUE, 0, sizeof depths, depths, 0, NULL, NULL));
    int wrong = 0;
    for (int i = 0; i < N; i++)
        for (int c = 0; c < 4; c++) /* 8-bit channels: the nearest of 255ths */
            wrong += colours[i].s[c] != roundf(colour[c] * 255.0f) / 255.0f;
    CHECK_NONE_WRONG(wrong, "RGBA8 samples");
    wrong = 0;
    for (int i = 0; i < N * LAYERS; i++) {
        cl_uint layer = (cl_uint)(i / N);
        wrong += layered[i].s[0] != layer || layered[i].s[1] != 70000u + layer ||
                 layered[i].s[2] != 3 || layered[i].s[3] != 0xfffffff0u;
    }
    CHECK_NONE_WRONG(wrong, "RGBA32UI array samples");
    CHECK(layered[N * LAYERS].s[0] == SAMPLES && layered[N * LAYERS].s[1] == LAYERS &&
          layered[N * LAYERS].s[2] == W && layered[N * LAYERS].s[3] == H);
    wrong = 0;
    for (int i = 0; i < N; i++)
        wrong += depths[i] != depth;
    CHECK_NONE_WRONG(wrong, "depth samples");
    for (int i = 0; i < 3; i++) {
        clReleaseMemObject(out[i]);
        clReleaseMemObject(images[i]);
    }
    gl.DeleteFramebuffers(1, &framebuffer);
    gl.DeleteTextures(3, textures);
}

/* What the application bound and set stays so; a thread with no current
 * GL context acquires and releases through the CL context's own. */
static void state_and_threads(void)
{
    enum { N = 64 };
    int data[N];
    for (int i = 0; i < N; i++)
        data[i] = i;
    GLuint buffer, texture, bound;
    gl.GenBuffers(1, &buffer);
    gl.BindBuffer(GL_ARRAY_BUFFER, buffer);
    gl.BufferData(GL_ARRAY_BUFFER, sizeof data, data, GL_STATIC_DRAW);
    gl.GenTextures(1, &texture);
    gl.GenTextures(1, &bound);
    gl.BindTexture(GL_TEXTURE_2D, texture);
    gl.TexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 3, 3, 0, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
    gl.BindTexture(GL_TEXTURE_2D, bound);
    gl.PixelStorei(GL_PACK_ALIGNMENT, 8);
    gl.PixelStorei(GL_UNPACK_ROW_LENGTH, 5);
    gl.Finish();
    cl_int err;
    cl_mem image =
        clCreateFromGLTexture(h.context, CL_MEM_READ_WRITE, GL_TEXTURE_2D, 0, texture, &err);
    CHECK_OK(err);
    CHECK_OK(clEnqueueAcquireGLObjects(h.queue, 1, &image, 0, NULL, NULL));
    CHECK_OK(clEnqueueReleaseGLObjects(h.queue, 1, &image, 0, NULL, NULL));
    GLint value = 0;
    gl.GetIntegerv(GL_TEXTURE_BINDING_2D, &value);
    CHECK_EQ(value, bound);
    gl.GetIntegerv(GL_ARRAY_BUFFER_BINDING, &value);
    CHECK_EQ(value, buffer);
    gl.GetIntegerv(GL_PACK_ALIGNMENT, &value);
    CHECK_EQ(value, 8);
    gl.GetIntegerv(GL_UNPACK_ROW_LENGTH, &value);
    CHECK_EQ(value, 5);
    CHECK_EQ(gl.GetError(), GL_NO_ERROR);
    gl.PixelStorei(GL_PACK_ALIGNMENT, 4);
    gl.PixelStorei(GL_UNPACK_ROW_LENGTH, 0);
    gl.BindBuffer(GL_ARRAY_BUFFER, 0);
    gl.BindTexture(GL_TEXTURE_2D, 0);
    clReleaseMemObject(image);

    /* no GL context current on this thread */
    cl_mem mem = clCreateFromGLBuffer(h.context, CL_MEM_READ_WRITE, buffer, &err);
    CHECK_OK(err);
    REQUIRE(eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT));
    CHECK_OK(clEnqueueAcquireGLObjects(h.queue, 1, &mem, 0, NULL, NULL));
    cl_kernel k = harness_kernel(program, "scale");
    CHECK_OK(clSetKernelArg(k, 0, sizeof mem, &mem));
    size_t global = N;
    CHECK_OK(clEnqueueNDRangeKernel(h.queue, k, 1, NULL, &global, NULL, 0, NULL, NULL));
    CHECK_OK(clEnqueueReleaseGLObjects(h.queue, 1, &mem, 0, NULL, NULL));
    CHECK(eglGetCurrentContext() == EGL_NO_CONTEXT);
    REQUIRE(eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, gl_context));
    int back[N];
    gl.BindBuffer(GL_ARRAY_BUFFER, buffer);
    gl.GetBufferSubData(GL_ARRAY_BUFFER, 0, sizeof back, back);
    gl.BindBuffer(GL_ARRAY_BUFFER, 0);
    int wrong = 0;
    for (int i = 0; i < N; i++)
        wrong += back[i] != i * 2 + 1;
    CHECK_NONE_WRONG(wrong, "buffer written with no GL context current");
    clReleaseKernel(k);
    clReleaseMemObject(mem);
    gl.DeleteBuffers(1, &buffer);
    gl.DeleteTextures(1, &texture);
    gl.DeleteTextures(1, &bound);
}

/* Another thread acquires, runs a kernel and releases while the GL
 * context stays current on this one, after an event made from a GL fence. */
struct elsewhere {
    cl_mem mem;
    cl_event fence;
    size_t count;
    cl_int results[4];
};

static void *use_elsewhere(void *arg)
{
    struct elsewhere *run = arg;
    run->results[0] = clEnqueueAcquireGLObjects(h.queue, 1, &run->mem, 1, &run->fence, NULL);
    cl_kernel k = harness_kernel(program, "scale");
    clSetKernelArg(k, 0, sizeof run->mem, &run->mem);
    run->results[1] = clEnqueueNDRangeKernel(h.queue, k, 1, NULL, &run->count, NULL, 0, NULL, NULL);
    run->results[2] = clEnqueueReleaseGLObjects(h.queue, 1, &run->mem, 0, NULL, NULL);
    run->results[3] = clFinish(h.queue);
    clReleaseKernel(k);
    return NULL;
}

static void other_thread_and_fences(void)
{
    enum { N = 300 };
    int data[N], back[N];
    for (int i = 0; i < N; i++)
        data[i] = 5 - i;
    GLuint buffer;
    gl.GenBuffers(1, &buffer);
    gl.BindBuffer(GL_ARRAY_BUFFER, buffer);
    gl.BufferData(GL_ARRAY_BUFFER, sizeof data, data, GL_DYNAMIC_DRAW);
    gl.BindBuffer(GL_ARRAY_BUFFER, 0);
    GLsync fence = gl.FenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
    cl_int err;
    cl_event event = clCreateEventFromGLsyncKHR(h.context, fence, &err);
    CHECK_OK(err);
    REQUIRE(event);
    cl_command_type type = 0;
    cl_int status = -1;
    CHECK_OK(clGetEventInfo(event, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL));
    CHECK_OK(
        clGetEventInfo(event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL));
    CHECK(type == CL_COMMAND_GL_FENCE_SYNC_OBJECT_KHR && status == CL_COMPLETE);
    CHECK_ERR(clSetUserEventStatus(event, CL_COMPLETE), CL_INVALID_EVENT);
    struct elsewhere run = {.fence = event, .count = N};
    run.mem = clCreateFromGLBuffer(h.context, CL_MEM_READ_WRITE, buffer, &err);
    CHECK_OK(err);
    pthread_t thread;
    REQUIRE(pthread_create(&thread, NULL, use_elsewhere, &run) == 0);
    pthread_join(thread, NULL);
    for (int i = 0; i < 4; i++)
        CHECK_OK(run.results[i]);
    CHECK(eglGetCurrentContext() == gl_context);
    gl.BindBuffer(GL_ARRAY_BUFFER, buffer);
    gl.GetBufferSubData(GL_ARRAY_BUFFER, 0, sizeof back, back);
    gl.BindBuffer(GL_ARRAY_BUFFER, 0);
    int wrong = 0;
    for (int i = 0; i < N; i++)
        wrong += back[i] != data[i] * 2 + 1;
    CHECK_NONE_WRONG(wrong, "buffer written on another thread");

    struct harness plain = harness_open();
    CHECK_FAILS(clCreateEventFromGLsyncKHR(plain.context, fence, &err), err, CL_INVALID_CONTEXT);

    /* an EGL fence (cl_khr_egl_event), for any context */
    REQUIRE(harness_has_extension(&h, "cl_khr_egl_event"));
    clCreateEventFromEGLSyncKHR_fn from_egl =
        (clCreateEventFromEGLSyncKHR_fn)clGetExtensionFunctionAddressForPlatform(
            h.platform, "clCreateEventFromEGLSyncKHR");
    PFNEGLCREATESYNCKHRPROC create_sync =
        (PFNEGLCREATESYNCKHRPROC)eglGetProcAddress("eglCreateSyncKHR");
    PFNEGLDESTROYSYNCKHRPROC destroy_sync =
        (PFNEGLDESTROYSYNCKHRPROC)eglGetProcAddress("eglDestroySyncKHR");
    REQUIRE(from_egl && create_sync && destroy_sync);
    EGLSyncKHR egl_fence = create_sync(display, EGL_SYNC_FENCE_KHR, NULL);
    REQUIRE(egl_fence != EGL_NO_SYNC_KHR);
    cl_event egl_event = from_egl(plain.context, egl_fence, display, &err);
    CHECK_OK(err);
    if (egl_event) {
        CHECK_OK(clGetEventInfo(egl_event, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL));
        CHECK_OK(clGetEventInfo(egl_event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status,
                                &status, NULL));
        CHECK(type == CL_COMMAND_EGL_FENCE_SYNC_OBJECT_KHR && status == CL_COMPLETE);
        /* a command may wait for it */
        CHECK_OK(clEnqueueMarkerWithWaitList(plain.queue, 1, &egl_event, NULL));
        CHECK_OK(clFinish(plain.queue));
        clReleaseEvent(egl_event);
    }
    CHECK_FAILS(from_egl(plain.context, (CLeglSyncKHR)(uintptr_t)0x1234, display, &err), err,
                CL_INVALID_EGL_OBJECT_KHR);
    CHECK_FAILS(from_egl(plain.context, egl_fence, (CLeglDisplayKHR)(uintptr_t)0x1234, &err), err,
                CL_INVALID_EGL_OBJECT_KHR);
    CHECK_FAILS(from_egl(NULL, egl_fence, display, &err), err, CL_INVALID_CONTEXT);
    destroy_sync(display, egl_fence);
    CHECK_FAILS(clCreateEventFromGLsyncKHR(h.context, (cl_GLsync)(uintptr_t)0x1234, &err), err,
                CL_INVALID_GL_OBJECT);
    harness_close(&plain);
    gl.DeleteSync(fence);
    clReleaseEvent(event);
    clReleaseMemObject(run.mem);
    gl.DeleteBuffers(1, &buffer);
}

/* An EGL image of a GL texture (cl_khr_egl_image) in a context made
 * without GL: changed in place by a kernel, which GL then sees. */
static void egl_images(void)
{
    enum { W = 9, H = 6 };
    REQUIRE(harness_has_extension(&h, "cl_khr_egl_image"));
    PFNEGLCREATEIMAGEKHRPROC create_image =
        (PFNEGLCREATEIMAGEKHRPROC)eglGetProcAddress("eglCreateImageKHR");
    PFNEGLDESTROYIMAGEKHRPROC destroy_image =
        (PFNEGLDESTROYIMAGEKHRPROC)eglGetProcAddress("eglDestroyImageKHR");
    REQUIRE(create_image && destroy_image);
    unsigned char texels[W * H * 4], back[W * H * 4];
    for (int i = 0; i < W * H * 4; i++)
        texels[i] = (unsigned char)(i * 29 + 3);
    GLuint texture = texture_2d(GL_TEXTURE_2D, GL_RGBA8, W, H, GL_RGBA, GL_UNSIGNED_BYTE, texels);
    gl.Finish();
    EGLImageKHR image = create_image(display, gl_context, EGL_GL_TEXTURE_2D_KHR,
                                     (EGLClientBuffer)(uintptr_t)texture, NULL);
    REQUIRE(image != EGL_NO_IMAGE_KHR);

    struct harness plain = harness_open();
    cl_program plain_program = harness_build_file(&plain, GL_KERNELS, "-cl-std=CL2.0");
    REQUIRE(plain_program);
    cl_int err;
    const cl_egl_image_properties_khr no_properties[] = {0};
    cl_mem mem = clCreateFromEGLImageKHR(plain.context, display, image, CL_MEM_READ_WRITE,
                                         no_properties, &err);
    CHECK_OK(err);
    REQUIRE(mem);
    cl_image_format format;
    size_t width = 0, height = 0;
    CHECK_OK(clGetImageInfo(mem, CL_IMAGE_FORMAT, sizeof format, &format, NULL));
    CHECK_OK(clGetImageInfo(mem, CL_IMAGE_WIDTH, sizeof width, &width, NULL));
    CHECK_OK(clGetImageInfo(mem, CL_IMAGE_HEIGHT, sizeof height, &height, NULL));
    CHECK(format.image_channel_order == CL_RGBA &&
          format.image_channel_data_type == CL_UNORM_INT8 && width == W && height == H);
    cl_gl_object_type type;
    CHECK_ERR(clGetGLObjectInfo(mem, &type, NULL), CL_INVALID_GL_OBJECT);
    cl_event acquired;
    CHECK_OK(clEnqueueAcquireEGLObjectsKHR(plain.queue, 1, &mem, 0, NULL, &acquired));
    cl_command_type command = 0;
    CHECK_OK(clGetEventInfo(acquired, CL_EVENT_COMMAND_TYPE, sizeof command, &command, NULL));
    CHECK_EQ(command, CL_COMMAND_ACQUIRE_EGL_OBJECTS_KHR);
    clReleaseEvent(acquired);
    cl_kernel k = harness_kernel(plain_program, "invert_in_place");
    CHECK_OK(clSetKernelArg(k, 0, sizeof mem, &mem));
    size_t global[2] = {W, H};
    CHECK_OK(clEnqueueNDRangeKernel(plain.queue, k, 2, NULL, global, NULL, 0, NULL, NULL));
    CHECK_OK(clEnqueueReleaseEGLObjectsKHR(plain.queue, 1, &mem, 0, NULL, NULL));
    CHECK_OK(clFinish(plain.queue));
    gl.BindTexture(GL_TEXTURE_2D, texture);
    gl.GetTexImage(GL_TEXTURE_2D, 0, GL_RGBA, GL_UNSIGNED_BYTE, back);
    gl.BindTexture(GL_TEXTURE_2D, 0);
    int wrong = 0;
    for (int i = 0; i < W * H * 4; i++)
        wrong += back[i] != 255 - texels[i];
    CHECK_NONE_WRONG(wrong, "texels of the EGL image");

    /* errors */
    const cl_egl_image_properties_khr some_property[] = {0x7777, 1, 0};
    CHECK_FAILS(clCreateFromEGLImageKHR(plain.context, display, image, CL_MEM_READ_WRITE,
                                        some_property, &err),
                err, CL_INVALID_VALUE);
    CHECK_FAILS(
        clCreateFromEGLImageKHR(plain.context, display, image, CL_MEM_USE_HOST_PTR, NULL, &err),
        err, CL_INVALID_VALUE);
    CHECK_FAILS(clCreateFromEGLImageKHR(NULL, display, image, CL_MEM_READ_WRITE, NULL, &err), err,
                CL_INVALID_CONTEXT);
    /* (a handle that is no EGLImage cannot be told from one: EGL has no
     * query for images, and Mesa's glEGLImageTargetTexture2DOES follows it) */
    CHECK_FAILS(
        clCreateFromEGLImageKHR(plain.context, display, NULL, CL_MEM_READ_WRITE, NULL, &err), err,
        CL_INVALID_EGL_OBJECT_KHR);
    struct harness fresh = harness_open();
    CHECK_FAILS(clCreateFromEGLImageKHR(fresh.context, (CLeglDisplayKHR)(uintptr_t)0x1234, image,
                                        CL_MEM_READ_WRITE, NULL, &err),
                err, CL_INVALID_EGL_OBJECT_KHR);
    harness_close(&fresh);
    CHECK_ERR(clEnqueueAcquireGLObjects(plain.queue, 1, &mem, 0, NULL, NULL), CL_INVALID_CONTEXT);
    cl_mem not_egl = harness_buffer(&plain, CL_MEM_READ_WRITE, 64, NULL);
    CHECK_ERR(clEnqueueAcquireEGLObjectsKHR(plain.queue, 1, &not_egl, 0, NULL, NULL),
              CL_INVALID_EGL_OBJECT_KHR);
    clReleaseMemObject(not_egl);
    clReleaseKernel(k);
    clReleaseMemObject(mem);
    clReleaseProgram(plain_program);
    harness_close(&plain);
    destroy_image(display, image);
    gl.DeleteTextures(1, &texture);
}

static void errors(void)
{
    cl_int err;
    /* context properties */
    cl_context_properties props[9] = {CL_CONTEXT_PLATFORM,
                                      (cl_context_properties)h.platform,
                                      CL_GL_CONTEXT_KHR,
                                      (cl_context_properties)gl_context,
                                      CL_EGL_DISPLAY_KHR,
                                      (cl_context_properties)display,
                                      CL_GLX_DISPLAY_KHR,
                                      (cl_context_properties)display,
                                      0};
    CHECK_FAILS(clCreateContext(props, 1, &h.device, NULL, NULL, &err), err, CL_INVALID_OPERATION);
    props[6] = CL_WGL_HDC_KHR;
    CHECK_FAILS(clCreateContext(props, 1, &h.device, NULL, NULL, &err), err, CL_INVALID_OPERATION);
    props[6] = CL_GL_CONTEXT_KHR;
    CHECK_FAILS(clCreateContext(props, 1, &h.device, NULL, NULL, &err), err, CL_INVALID_PROPERTY);
    props[6] = 0;
    static int not_a_context;
    props[3] = (cl_context_properties)&not_a_context;
    CHECK_FAILS(clCreateContext(props, 1, &h.device, NULL, NULL, &err), err,
                CL_INVALID_GL_SHAREGROUP_REFERENCE_KHR);

    /* memory objects */
    struct harness plain = harness_open();
    GLuint buffer, texture, rgb;
    gl.GenBuffers(1, &buffer);
    gl.BindBuffer(GL_ARRAY_BUFFER, buffer);
    gl.BufferData(GL_ARRAY_BUFFER, 64, NULL, GL_STATIC_DRAW);
    gl.BindBuffer(GL_ARRAY_BUFFER, 0);
    texture = texture_2d(GL_TEXTURE_2D, GL_RGBA8, 4, 4, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
    rgb = texture_2d(GL_TEXTURE_2D, GL_RGB8, 4, 4, GL_RGB, GL_UNSIGNED_BYTE, NULL);
    CHECK_FAILS(clCreateFromGLBuffer(plain.context, CL_MEM_READ_WRITE, buffer, &err), err,
                CL_INVALID_CONTEXT);
    CHECK_FAILS(clCreateFromGLBuffer(NULL, CL_MEM_READ_WRITE, buffer, &err), err,
                CL_INVALID_CONTEXT);
    CHECK_FAILS(clCreateFromGLBuffer(h.context, CL_MEM_COPY_HOST_PTR, buffer, &err), err,
                CL_INVALID_VALUE);
    CHECK_FAILS(clCreateFromGLBuffer(h.context, CL_MEM_READ_WRITE, buffer + 100, &err), err,
                CL_INVALID_GL_OBJECT);
    CHECK_FAILS(clCreateFromGLBuffer(h.context, CL_MEM_READ_WRITE, texture, &err), err,
                CL_INVALID_GL_OBJECT);
    CHECK_FAILS(
        clCreateFromGLTexture(h.context, CL_MEM_READ_WRITE, GL_TEXTURE_2D, 0, buffer + 100, &err),
        err, CL_INVALID_GL_OBJECT);
    CHECK_FAILS(
        clCreateFromGLTexture(h.context, CL_MEM_READ_WRITE, GL_TEXTURE_3D, 0, texture, &err), err,
        CL_INVALID_GL_OBJECT);
    CHECK_FAILS(
        clCreateFromGLTexture(h.context, CL_MEM_READ_WRITE, GL_RENDERBUFFER, 0, texture, &err), err,
        CL_INVALID_VALUE);
    CHECK_FAILS(
        clCreateFromGLTexture2D(h.context, CL_MEM_READ_WRITE, GL_TEXTURE_3D, 0, texture, &err), err,
        CL_INVALID_VALUE);
    CHECK_FAILS(
        clCreateFromGLTexture(h.context, CL_MEM_READ_WRITE, GL_TEXTURE_2D, -1, texture, &err), err,
        CL_INVALID_MIP_LEVEL);
    CHECK_FAILS(
        clCreateFromGLTexture(h.context, CL_MEM_READ_WRITE, GL_TEXTURE_2D, 3, texture, &err), err,
        CL_INVALID_MIP_LEVEL);
    CHECK_FAILS(
        clCreateFromGLTexture(h.context, CL_MEM_READ_WRITE, GL_TEXTURE_2D, 1, texture, &err), err,
        CL_INVALID_GL_OBJECT); /* in the chain but not defined */
    CHECK_FAILS(clCreateFromGLTexture(h.context, CL_MEM_READ_WRITE, GL_TEXTURE_2D, 0, rgb, &err),
                err, CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
    CHECK_FAILS(clCreateFromGLRenderbuffer(h.context, CL_MEM_READ_WRITE, texture, &err), err,
                CL_INVALID_GL_OBJECT);
    CHECK_EQ(gl.GetError(), GL_NO_ERROR); /* the probing left no GL error behind */

    /* queries and commands */
    cl_mem mem = clCreateFromGLBuffer(h.context, CL_MEM_READ_WRITE, buffer, &err);
    CHECK_OK(err);
    cl_mem not_gl = harness_buffer(&h, CL_MEM_READ_WRITE, 64, NULL);
    cl_gl_object_type type;
    CHECK_ERR(clGetGLObjectInfo(not_gl, &type, NULL), CL_INVALID_GL_OBJECT);
    CHECK_ERR(clGetGLObjectInfo(NULL, &type, NULL), CL_INVALID_MEM_OBJECT);
    CHECK_ERR(clGetGLTextureInfo(not_gl, CL_GL_MIPMAP_LEVEL, sizeof type, &type, NULL),
              CL_INVALID_GL_OBJECT);
    CHECK_ERR(clEnqueueAcquireGLObjects(h.queue, 1, &not_gl, 0, NULL, NULL), CL_INVALID_GL_OBJECT);
    CHECK_ERR(clEnqueueAcquireGLObjects(h.queue, 1, NULL, 0, NULL, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clEnqueueAcquireGLObjects(h.queue, 0, &mem, 0, NULL, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clEnqueueAcquireGLObjects(NULL, 1, &mem, 0, NULL, NULL), CL_INVALID_COMMAND_QUEUE);
    CHECK_ERR(clEnqueueAcquireGLObjects(plain.queue, 1, &mem, 0, NULL, NULL), CL_INVALID_CONTEXT);
    CHECK_ERR(clEnqueueReleaseGLObjects(h.queue, 1, &mem, 1, NULL, NULL),
              CL_INVALID_EVENT_WAIT_LIST);
    /* none at all: a command that only waits */
    cl_event event;
    CHECK_OK(clEnqueueAcquireGLObjects(h.queue, 0, NULL, 0, NULL, &event));
    CHECK_OK(clWaitForEvents(1, &event));
    clReleaseEvent(event);
    /* a failed wait list: the release fails and copies nothing */
    cl_event user = clCreateUserEvent(h.context, &err);
    CHECK_OK(clSetUserEventStatus(user, -5));
    CHECK_ERR(clEnqueueReleaseGLObjects(h.queue, 1, &mem, 1, &user, NULL),
              CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    clReleaseEvent(user);
    clReleaseMemObject(mem);
    clReleaseMemObject(not_gl);
    harness_close(&plain);
    gl.DeleteBuffers(1, &buffer);
    gl.DeleteTextures(1, &texture);
    gl.DeleteTextures(1, &rgb);
}

int main(void)
{
    open_gl();
    open_cl();
    program = harness_build_file(&h, GL_KERNELS, "-cl-std=CL2.0");
    REQUIRE(program);
    context_queries();
    buffers();
    textures_2d();
    textures_3d();
    textures_other();
    renderbuffers();
    depth_textures();
    multisample();
    state_and_threads();
    other_thread_and_fences();
    egl_images();
    errors();
    clReleaseProgram(program);
    harness_close(&h);
    eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    eglDestroyContext(display, gl_context);
    /* no eglTerminate: Mesa 22.3 loses 128 bytes in it (the leak checker
     * of the sanitizer build reports them; a program of EGL calls alone
     * shows them too) */
    return harness_finish();
}
