/* gl.c - OpenGL sharing (cl_khr_gl_sharing): the GL functions, describing
 * GL objects, and copying their contents in and out.
 *
 * Every call makes its GL calls in a context that shares the application's
 * objects (gl_binding.c says which). The GL state a call changes (a
 * binding, the pixel store) is put back as it was; GL errors pending
 * before a call are consumed so that the call can see its own.
 */
#include <stdlib.h>
#include <string.h>

#include "runtime/gl_internal.h"
#include "runtime/image_format.h"
#include "runtime/runtime.h"

cl_int rt_gl_open(enum rt_gl_binding binding, void *display, void *context, struct rt_gl **out)
{
    struct rt_gl *gl = calloc(1, sizeof *gl);
    if (!gl)
        return CL_OUT_OF_HOST_MEMORY;
    cl_int err = gl_binding_open(binding, display, context, &gl->binding);
    if (err) {
        free(gl);
        return err;
    }
#define FIND(name, result, params)                                                                 \
    gl->fn.name = (result(*) params)gl_binding_function(gl->binding, "gl" #name);                  \
    if (!gl->fn.name)                                                                              \
        err = CL_INVALID_OPERATION;
    GL_FUNCTIONS(FIND)
#undef FIND
    if (err) {
        rt_gl_close(gl);
        return err;
    }
    *out = gl;
    return CL_SUCCESS;
}

void rt_gl_close(struct rt_gl *gl)
{
    if (!gl)
        return;
    gl_delete_msaa_programs(gl);
    gl_binding_close(gl->binding);
    free(gl);
}

/* --- a call's GL context and state --- */

cl_int gl_enter(struct rt_gl *gl, struct gl_scope *scope, bool own_only)
{
    cl_int err = gl_binding_enter(gl->binding, scope, own_only);
    if (!err)
        while (gl->fn.GetError() != GL_NO_ERROR)
            ;
    return err;
}

void gl_leave(struct rt_gl *gl, struct gl_scope *scope, bool wrote)
{
    /* what cpucl's own context wrote is there for the application's once
     * it is done */
    if (scope->own && wrote)
        gl->fn.Finish();
    gl_binding_leave(gl->binding, scope);
}

/* The pixel store: rows tightly packed, bytes as they are, no pixel
 * buffer object in the way. */
static const GLenum pixel_store[] = {
    GL_PACK_SWAP_BYTES,   GL_PACK_LSB_FIRST,     GL_PACK_ROW_LENGTH,    GL_PACK_IMAGE_HEIGHT,
    GL_PACK_SKIP_ROWS,    GL_PACK_SKIP_PIXELS,   GL_PACK_SKIP_IMAGES,   GL_PACK_ALIGNMENT,
    GL_UNPACK_SWAP_BYTES, GL_UNPACK_LSB_FIRST,   GL_UNPACK_ROW_LENGTH,  GL_UNPACK_IMAGE_HEIGHT,
    GL_UNPACK_SKIP_ROWS,  GL_UNPACK_SKIP_PIXELS, GL_UNPACK_SKIP_IMAGES, GL_UNPACK_ALIGNMENT,
};
#define PIXEL_STORE_COUNT (sizeof pixel_store / sizeof pixel_store[0])

struct saved_state {
    GLint store[PIXEL_STORE_COUNT];
    GLint pack_buffer, unpack_buffer;
};

static void save_pixel_store(struct rt_gl *gl, struct saved_state *saved)
{
    for (size_t i = 0; i < PIXEL_STORE_COUNT; i++) {
        gl->fn.GetIntegerv(pixel_store[i], &saved->store[i]);
        bool alignment =
            pixel_store[i] == GL_PACK_ALIGNMENT || pixel_store[i] == GL_UNPACK_ALIGNMENT;
        gl->fn.PixelStorei(pixel_store[i], alignment ? 1 : 0);
    }
    gl->fn.GetIntegerv(GL_PIXEL_PACK_BUFFER_BINDING, &saved->pack_buffer);
    gl->fn.GetIntegerv(GL_PIXEL_UNPACK_BUFFER_BINDING, &saved->unpack_buffer);
    gl->fn.BindBuffer(GL_PIXEL_PACK_BUFFER, 0);
    gl->fn.BindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
}

static void restore_pixel_store(struct rt_gl *gl, const struct saved_state *saved)
{
    for (size_t i = 0; i < PIXEL_STORE_COUNT; i++)
        gl->fn.PixelStorei(pixel_store[i], saved->store[i]);
    gl->fn.BindBuffer(GL_PIXEL_PACK_BUFFER, (GLuint)saved->pack_buffer);
    gl->fn.BindBuffer(GL_PIXEL_UNPACK_BUFFER, (GLuint)saved->unpack_buffer);
}

/* Textures are bound to their target (a cube map's face to the cube map);
 * the binding the query returns is put back afterwards. */
static GLenum base_target(GLenum target)
{
    if (target >= GL_TEXTURE_CUBE_MAP_POSITIVE_X && target <= GL_TEXTURE_CUBE_MAP_NEGATIVE_Z)
        return GL_TEXTURE_CUBE_MAP;
    return target;
}

static GLenum binding_query(GLenum base)
{
    switch (base) {
    case GL_TEXTURE_1D: return GL_TEXTURE_BINDING_1D;
    case GL_TEXTURE_1D_ARRAY: return GL_TEXTURE_BINDING_1D_ARRAY;
    case GL_TEXTURE_2D: return GL_TEXTURE_BINDING_2D;
    case GL_TEXTURE_2D_ARRAY: return GL_TEXTURE_BINDING_2D_ARRAY;
    case GL_TEXTURE_3D: return GL_TEXTURE_BINDING_3D;
    case GL_TEXTURE_RECTANGLE: return GL_TEXTURE_BINDING_RECTANGLE;
    case GL_TEXTURE_CUBE_MAP: return GL_TEXTURE_BINDING_CUBE_MAP;
    case GL_TEXTURE_BUFFER: return GL_TEXTURE_BINDING_BUFFER;
    case GL_TEXTURE_2D_MULTISAMPLE: return GL_TEXTURE_BINDING_2D_MULTISAMPLE;
    case GL_TEXTURE_2D_MULTISAMPLE_ARRAY: return GL_TEXTURE_BINDING_2D_MULTISAMPLE_ARRAY;
    default: return 0;
    }
}

static GLint bind_texture(struct rt_gl *gl, GLenum target, GLuint name)
{
    GLint old = 0;
    gl->fn.GetIntegerv(binding_query(base_target(target)), &old);
    gl->fn.BindTexture(base_target(target), name);
    return old;
}

static GLint bind_buffer(struct rt_gl *gl, GLuint name)
{
    GLint old = 0;
    gl->fn.GetIntegerv(GL_ARRAY_BUFFER_BINDING, &old);
    gl->fn.BindBuffer(GL_ARRAY_BUFFER, name);
    return old;
}

/* --- formats --- */

/* The extension's table of GL internal formats and the OpenCL image
 * formats they map to (cl_khr_gl_sharing, "Image Formats for OpenGL Texture
 * and Renderbuffer Sharing"): one, two and four channels of each type. */
static const struct {
    GLenum r, rg, rgba;
    cl_channel_type type;
} sized_formats[] = {
    {GL_R8, GL_RG8, GL_RGBA8, CL_UNORM_INT8},
    {GL_R8_SNORM, GL_RG8_SNORM, GL_RGBA8_SNORM, CL_SNORM_INT8},
    {GL_R16, GL_RG16, GL_RGBA16, CL_UNORM_INT16},
    {GL_R16_SNORM, GL_RG16_SNORM, GL_RGBA16_SNORM, CL_SNORM_INT16},
    {GL_R8I, GL_RG8I, GL_RGBA8I, CL_SIGNED_INT8},
    {GL_R16I, GL_RG16I, GL_RGBA16I, CL_SIGNED_INT16},
    {GL_R32I, GL_RG32I, GL_RGBA32I, CL_SIGNED_INT32},
    {GL_R8UI, GL_RG8UI, GL_RGBA8UI, CL_UNSIGNED_INT8},
    {GL_R16UI, GL_RG16UI, GL_RGBA16UI, CL_UNSIGNED_INT16},
    {GL_R32UI, GL_RG32UI, GL_RGBA32UI, CL_UNSIGNED_INT32},
    {GL_R16F, GL_RG16F, GL_RGBA16F, CL_HALF_FLOAT},
    {GL_R32F, GL_RG32F, GL_RGBA32F, CL_FLOAT},
};

static bool cl_format_of(GLenum internal, cl_image_format *format)
{
    for (size_t i = 0; i < sizeof sized_formats / sizeof sized_formats[0]; i++) {
        format->image_channel_data_type = sized_formats[i].type;
        if (internal == sized_formats[i].r)
            return format->image_channel_order = CL_R, true;
        if (internal == sized_formats[i].rg)
            return format->image_channel_order = CL_RG, true;
        if (internal == sized_formats[i].rgba)
            return format->image_channel_order = CL_RGBA, true;
    }
    switch (internal) {
    case GL_RGBA: /* unsized: GL gives it 8 bits a channel */
        *format = (cl_image_format){CL_RGBA, CL_UNORM_INT8};
        return true;
    case GL_SRGB8_ALPHA8: *format = (cl_image_format){CL_sRGBA, CL_UNORM_INT8}; return true;
    /* cl_khr_gl_depth_images */
    case GL_DEPTH_COMPONENT16: *format = (cl_image_format){CL_DEPTH, CL_UNORM_INT16}; return true;
    case GL_DEPTH_COMPONENT32F: *format = (cl_image_format){CL_DEPTH, CL_FLOAT}; return true;
    case GL_DEPTH24_STENCIL8:
        *format = (cl_image_format){CL_DEPTH_STENCIL, CL_UNORM_INT24};
        return true;
    case GL_DEPTH32F_STENCIL8: *format = (cl_image_format){CL_DEPTH_STENCIL, CL_FLOAT}; return true;
    default: return false;
    }
}

/* The GL format and type that transfer an image's pixels as OpenCL stores
 * them. */
static void transfer_format(const cl_image_format *format, GLenum *gl_format, GLenum *gl_type)
{
    cl_channel_type type = format->image_channel_data_type;
    bool integer = type >= CL_SIGNED_INT8 && type <= CL_UNSIGNED_INT32;
    /* GL's packed depth and stencil are cl_khr_gl_depth_images' layouts */
    if (format->image_channel_order == CL_DEPTH_STENCIL) {
        *gl_format = GL_DEPTH_STENCIL;
        *gl_type = type == CL_FLOAT ? GL_FLOAT_32_UNSIGNED_INT_24_8_REV : GL_UNSIGNED_INT_24_8;
        return;
    }
    switch (format->image_channel_order) {
    case CL_R: *gl_format = integer ? GL_RED_INTEGER : GL_RED; break;
    case CL_RG: *gl_format = integer ? GL_RG_INTEGER : GL_RG; break;
    case CL_DEPTH: *gl_format = GL_DEPTH_COMPONENT; break;
    default: *gl_format = integer ? GL_RGBA_INTEGER : GL_RGBA; break;
    }
    switch (type) {
    case CL_UNORM_INT8:
    case CL_UNSIGNED_INT8: *gl_type = GL_UNSIGNED_BYTE; break;
    case CL_SNORM_INT8:
    case CL_SIGNED_INT8: *gl_type = GL_BYTE; break;
    case CL_UNORM_INT16:
    case CL_UNSIGNED_INT16: *gl_type = GL_UNSIGNED_SHORT; break;
    case CL_SNORM_INT16:
    case CL_SIGNED_INT16: *gl_type = GL_SHORT; break;
    case CL_SIGNED_INT32: *gl_type = GL_INT; break;
    case CL_UNSIGNED_INT32: *gl_type = GL_UNSIGNED_INT; break;
    case CL_HALF_FLOAT: *gl_type = GL_HALF_FLOAT; break;
    default: *gl_type = GL_FLOAT; break;
    }
}

/* --- describing a GL object --- */

static cl_int describe_buffer(struct rt_gl *gl, GLuint name, struct rt_gl_shape *shape)
{
    if (!gl->fn.IsBuffer(name))
        return CL_INVALID_GL_OBJECT;
    GLint old = bind_buffer(gl, name), size = 0;
    gl->fn.GetBufferParameteriv(GL_ARRAY_BUFFER, GL_BUFFER_SIZE, &size);
    gl->fn.BindBuffer(GL_ARRAY_BUFFER, (GLuint)old);
    /* "does not have an existing data store or the size of the buffer is 0" */
    if (size <= 0)
        return CL_INVALID_GL_OBJECT;
    shape->size = (size_t)size;
    return CL_SUCCESS;
}

static cl_int describe_renderbuffer(struct rt_gl *gl, GLuint name, struct rt_gl_shape *shape)
{
    if (!gl->fn.IsRenderbuffer(name))
        return CL_INVALID_GL_OBJECT;
    GLint old = 0, width = 0, height = 0, internal = 0, samples = 0;
    gl->fn.GetIntegerv(GL_RENDERBUFFER_BINDING, &old);
    gl->fn.BindRenderbuffer(GL_RENDERBUFFER, name);
    gl->fn.GetRenderbufferParameteriv(GL_RENDERBUFFER, GL_RENDERBUFFER_WIDTH, &width);
    gl->fn.GetRenderbufferParameteriv(GL_RENDERBUFFER, GL_RENDERBUFFER_HEIGHT, &height);
    gl->fn.GetRenderbufferParameteriv(GL_RENDERBUFFER, GL_RENDERBUFFER_INTERNAL_FORMAT, &internal);
    gl->fn.GetRenderbufferParameteriv(GL_RENDERBUFFER, GL_RENDERBUFFER_SAMPLES, &samples);
    gl->fn.BindRenderbuffer(GL_RENDERBUFFER, (GLuint)old);
    if (width <= 0 || height <= 0)
        return CL_INVALID_GL_OBJECT;
    /* cl_khr_gl_msaa_sharing is about textures: no multi-sample renderbuffers */
    if (samples > 1)
        return CL_INVALID_OPERATION;
    if (!cl_format_of((GLenum)internal, &shape->format))
        return CL_INVALID_IMAGE_FORMAT_DESCRIPTOR;
    shape->desc = (cl_image_desc){.image_type = CL_MEM_OBJECT_IMAGE2D,
                                  .image_width = (size_t)width,
                                  .image_height = (size_t)height};
    return CL_SUCCESS;
}

static cl_mem_object_type image_type_of(GLenum base)
{
    switch (base) {
    case GL_TEXTURE_1D: return CL_MEM_OBJECT_IMAGE1D;
    case GL_TEXTURE_1D_ARRAY: return CL_MEM_OBJECT_IMAGE1D_ARRAY;
    case GL_TEXTURE_2D_ARRAY:
    case GL_TEXTURE_2D_MULTISAMPLE_ARRAY: return CL_MEM_OBJECT_IMAGE2D_ARRAY;
    case GL_TEXTURE_3D: return CL_MEM_OBJECT_IMAGE3D;
    case GL_TEXTURE_BUFFER: return CL_MEM_OBJECT_IMAGE1D_BUFFER;
    default: return CL_MEM_OBJECT_IMAGE2D; /* 2D, rectangle, a cube map's face */
    }
}

/* 2.2 extensions spec, clCreateFromGLTexture: CL_INVALID_MIP_LEVEL below
 * the texture's base level or above q (the last level of its chain),
 * CL_INVALID_GL_OBJECT when the texture's type is not the target's or the
 * level is not defined, CL_INVALID_OPERATION for a border. */
static cl_int describe_texture_bound(struct rt_gl *gl, const struct rt_gl_object *object,
                                     struct rt_gl_shape *shape)
{
    GLenum target = object->target, base = base_target(target);
    if (gl->fn.GetError() != GL_NO_ERROR) /* bound to a target of another type */
        return CL_INVALID_GL_OBJECT;
    GLint level = object->level;
    bool multisample = base == GL_TEXTURE_2D_MULTISAMPLE || base == GL_TEXTURE_2D_MULTISAMPLE_ARRAY;
    if (base == GL_TEXTURE_BUFFER || base == GL_TEXTURE_RECTANGLE || multisample) {
        if (level != 0)
            return CL_INVALID_MIP_LEVEL;
    } else {
        GLint base_level = 0, max_level = 1000;
        gl->fn.GetTexParameteriv(base, GL_TEXTURE_BASE_LEVEL, &base_level);
        gl->fn.GetTexParameteriv(base, GL_TEXTURE_MAX_LEVEL, &max_level);
        /* q: the base level's chain, down to 1 in every dimension */
        GLint w = 0, h = 0, d = 0, q = base_level;
        gl->fn.GetTexLevelParameteriv(target, base_level, GL_TEXTURE_WIDTH, &w);
        gl->fn.GetTexLevelParameteriv(target, base_level, GL_TEXTURE_HEIGHT, &h);
        gl->fn.GetTexLevelParameteriv(target, base_level, GL_TEXTURE_DEPTH, &d);
        GLint largest = w;
        if (base != GL_TEXTURE_1D_ARRAY && h > largest)
            largest = h;
        if (base == GL_TEXTURE_3D && d > largest)
            largest = d;
        while (largest > 1) {
            largest /= 2;
            q++;
        }
        if (level < base_level || level > (q < max_level ? q : max_level))
            return CL_INVALID_MIP_LEVEL;
    }
    GLint width = 0, height = 0, depth = 0, internal = 0, border = 0;
    gl->fn.GetTexLevelParameteriv(target, level, GL_TEXTURE_WIDTH, &width);
    gl->fn.GetTexLevelParameteriv(target, level, GL_TEXTURE_HEIGHT, &height);
    gl->fn.GetTexLevelParameteriv(target, level, GL_TEXTURE_DEPTH, &depth);
    gl->fn.GetTexLevelParameteriv(target, level, GL_TEXTURE_INTERNAL_FORMAT, &internal);
    if (gl->fn.GetError() != GL_NO_ERROR || width <= 0 || height <= 0 || depth <= 0)
        return CL_INVALID_GL_OBJECT;
    /* GL_TEXTURE_BORDER is gone from core profiles: an error there */
    gl->fn.GetTexLevelParameteriv(target, level, GL_TEXTURE_BORDER, &border);
    if (gl->fn.GetError() == GL_NO_ERROR && border > 0)
        return CL_INVALID_OPERATION;
    if (!cl_format_of((GLenum)internal, &shape->format))
        return CL_INVALID_IMAGE_FORMAT_DESCRIPTOR;
    cl_image_desc *d = &shape->desc;
    *d = (cl_image_desc){.image_type = image_type_of(base), .image_width = (size_t)width};
    switch (d->image_type) {
    case CL_MEM_OBJECT_IMAGE1D_ARRAY: d->image_array_size = (size_t)height; break;
    case CL_MEM_OBJECT_IMAGE2D: d->image_height = (size_t)height; break;
    case CL_MEM_OBJECT_IMAGE2D_ARRAY:
        d->image_height = (size_t)height;
        d->image_array_size = (size_t)depth;
        break;
    case CL_MEM_OBJECT_IMAGE3D:
        d->image_height = (size_t)height;
        d->image_depth = (size_t)depth;
        break;
    default: break;
    }
    if (multisample) {
        GLint samples = 0;
        gl->fn.GetTexLevelParameteriv(target, 0, GL_TEXTURE_SAMPLES, &samples);
        d->num_samples = samples > 1 ? (cl_uint)samples : 0;
        /* cpucl reads the samples as the values a shader fetches (below),
         * which for sRGB are decoded: not those */
        if (shape->format.image_channel_order == CL_sRGBA)
            return CL_INVALID_IMAGE_FORMAT_DESCRIPTOR;
    }
    return CL_SUCCESS;
}

static cl_int describe_texture(struct rt_gl *gl, const struct rt_gl_object *object,
                               struct rt_gl_shape *shape)
{
    if (!gl->fn.IsTexture(object->name))
        return CL_INVALID_GL_OBJECT;
    GLint old = bind_texture(gl, object->target, object->name);
    cl_int err = describe_texture_bound(gl, object, shape);
    gl->fn.BindTexture(base_target(object->target), (GLuint)old);
    return err;
}

/* cl_khr_egl_image: an EGLImage is bound to a texture of cpucl's context
 * (glEGLImageTargetTexture2DOES) for each look at it; the texture goes
 * afterwards, the image stays the application's. */
static GLuint bind_egl_image(struct rt_gl *gl, void *image)
{
    GLuint texture = 0;
    gl->fn.GenTextures(1, &texture);
    gl->fn.BindTexture(GL_TEXTURE_2D, texture);
    gl->fn.EGLImageTargetTexture2DOES(GL_TEXTURE_2D, image);
    return texture;
}

static void unbind_egl_image(struct rt_gl *gl, GLuint texture)
{
    gl->fn.BindTexture(GL_TEXTURE_2D, 0);
    gl->fn.DeleteTextures(1, &texture);
}

/* The extension: CL_INVALID_EGL_OBJECT_KHR for an image that is not one,
 * CL_IMAGE_FORMAT_NOT_SUPPORTED for a format OpenCL has no match for. */
static cl_int describe_egl_image(struct rt_gl *gl, void *image, struct rt_gl_shape *shape)
{
    GLuint texture = bind_egl_image(gl, image);
    GLint width = 0, height = 0, internal = 0;
    cl_int err = CL_SUCCESS;
    if (gl->fn.GetError() != GL_NO_ERROR) {
        err = CL_INVALID_EGL_OBJECT_KHR;
    } else {
        gl->fn.GetTexLevelParameteriv(GL_TEXTURE_2D, 0, GL_TEXTURE_WIDTH, &width);
        gl->fn.GetTexLevelParameteriv(GL_TEXTURE_2D, 0, GL_TEXTURE_HEIGHT, &height);
        gl->fn.GetTexLevelParameteriv(GL_TEXTURE_2D, 0, GL_TEXTURE_INTERNAL_FORMAT, &internal);
        if (width <= 0 || height <= 0)
            err = CL_INVALID_EGL_OBJECT_KHR;
        else if (!cl_format_of((GLenum)internal, &shape->format) ||
                 shape->format.image_channel_order == CL_DEPTH_STENCIL)
            err = CL_IMAGE_FORMAT_NOT_SUPPORTED;
    }
    shape->desc = (cl_image_desc){.image_type = CL_MEM_OBJECT_IMAGE2D,
                                  .image_width = (size_t)width,
                                  .image_height = (size_t)height};
    unbind_egl_image(gl, texture);
    return err;
}

static void copy_egl_image(struct rt_gl *gl, cl_mem mem, bool to_gl)
{
    GLenum format, type;
    transfer_format(&mem->format, &format, &type);
    GLuint texture = bind_egl_image(gl, mem->gl.egl_image);
    if (to_gl)
        gl->fn.TexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, (GLsizei)mem->desc.image_width,
                             (GLsizei)mem->desc.image_height, format, type, mem->image.data);
    else
        gl->fn.GetTexImage(GL_TEXTURE_2D, 0, format, type, mem->image.data);
    unbind_egl_image(gl, texture);
}

cl_int rt_gl_describe(struct rt_gl *gl, const struct rt_gl_object *object,
                      struct rt_gl_shape *shape)
{
    struct gl_scope scope;
    cl_int err = gl_enter(gl, &scope, false);
    if (err)
        return err;
    if (object->egl_image) {
        err = describe_egl_image(gl, object->egl_image, shape);
        gl_leave(gl, &scope, false);
        return err;
    }
    switch (object->type) {
    case CL_GL_OBJECT_BUFFER: err = describe_buffer(gl, object->name, shape); break;
    case CL_GL_OBJECT_RENDERBUFFER: err = describe_renderbuffer(gl, object->name, shape); break;
    default: err = describe_texture(gl, object, shape); break;
    }
    gl_leave(gl, &scope, false);
    return err;
}

/* --- copies --- */

/* A buffer's bytes, or a buffer texture's data store (from its offset). */
static void copy_buffer(struct rt_gl *gl, GLuint name, GLintptr offset, cl_mem mem, bool to_gl)
{
    GLint old = bind_buffer(gl, name);
    if (to_gl)
        gl->fn.BufferSubData(GL_ARRAY_BUFFER, offset, (GLsizeiptr)mem->size, mem->storage);
    else
        gl->fn.GetBufferSubData(GL_ARRAY_BUFFER, offset, (GLsizeiptr)mem->size, mem->storage);
    gl->fn.BindBuffer(GL_ARRAY_BUFFER, (GLuint)old);
}

static void copy_texture_buffer(struct rt_gl *gl, GLuint texture, cl_mem mem, bool to_gl)
{
    GLint old = bind_texture(gl, GL_TEXTURE_BUFFER, texture), store = 0, offset = 0;
    gl->fn.GetTexLevelParameteriv(GL_TEXTURE_BUFFER, 0, GL_TEXTURE_BUFFER_DATA_STORE_BINDING,
                                  &store);
    gl->fn.GetTexLevelParameteriv(GL_TEXTURE_BUFFER, 0, GL_TEXTURE_BUFFER_OFFSET, &offset);
    if (gl->fn.GetError() != GL_NO_ERROR) /* GL_TEXTURE_BUFFER_OFFSET is GL 4.3 */
        offset = 0;
    gl->fn.BindTexture(GL_TEXTURE_BUFFER, (GLuint)old);
    copy_buffer(gl, (GLuint)store, offset, mem, to_gl);
}

static void copy_texture(struct rt_gl *gl, cl_mem mem, bool to_gl)
{
    const struct rt_gl_object *object = &mem->gl;
    const cl_image_desc *d = &mem->desc;
    GLenum format, type;
    transfer_format(&mem->format, &format, &type);
    GLint old = bind_texture(gl, object->target, object->name);
    GLenum target = object->target;
    GLint level = object->level;
    GLsizei width = (GLsizei)d->image_width;
    void *pixels = mem->image.data;
    if (!to_gl)
        gl->fn.GetTexImage(target, level, format, type, pixels);
    else if (d->image_type == CL_MEM_OBJECT_IMAGE1D)
        gl->fn.TexSubImage1D(target, level, 0, width, format, type, pixels);
    else if (d->image_type == CL_MEM_OBJECT_IMAGE1D_ARRAY)
        gl->fn.TexSubImage2D(target, level, 0, 0, width, (GLsizei)d->image_array_size, format, type,
                             pixels);
    else if (d->image_type == CL_MEM_OBJECT_IMAGE2D)
        gl->fn.TexSubImage2D(target, level, 0, 0, width, (GLsizei)d->image_height, format, type,
                             pixels);
    else
        gl->fn.TexSubImage3D(target, level, 0, 0, 0, width, (GLsizei)d->image_height,
                             (GLsizei)(d->image_type == CL_MEM_OBJECT_IMAGE3D
                                           ? d->image_depth
                                           : d->image_array_size),
                             format, type, pixels);
    gl->fn.BindTexture(base_target(target), (GLuint)old);
}

/* A renderbuffer has no call that reads or writes its pixels outside a
 * framebuffer; its contents go through a texture of its format instead
 * (glCopyImageSubData, GL 4.3 or ARB_copy_image), which leaves the
 * application's framebuffer state alone. */
static void copy_renderbuffer(struct rt_gl *gl, cl_mem mem, bool to_gl)
{
    GLenum format, type;
    transfer_format(&mem->format, &format, &type);
    GLsizei width = (GLsizei)mem->desc.image_width, height = (GLsizei)mem->desc.image_height;
    GLint old_renderbuffer = 0, internal = 0;
    gl->fn.GetIntegerv(GL_RENDERBUFFER_BINDING, &old_renderbuffer);
    gl->fn.BindRenderbuffer(GL_RENDERBUFFER, mem->gl.name);
    gl->fn.GetRenderbufferParameteriv(GL_RENDERBUFFER, GL_RENDERBUFFER_INTERNAL_FORMAT, &internal);
    gl->fn.BindRenderbuffer(GL_RENDERBUFFER, (GLuint)old_renderbuffer);
    GLuint texture = 0;
    gl->fn.GenTextures(1, &texture);
    GLint old = bind_texture(gl, GL_TEXTURE_2D, texture);
    /* glCopyImageSubData takes complete textures only: one level */
    gl->fn.TexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAX_LEVEL, 0);
    gl->fn.TexImage2D(GL_TEXTURE_2D, 0, internal, width, height, 0, format, type,
                      to_gl ? mem->image.data : NULL);
    if (to_gl) {
        gl->fn.CopyImageSubData(texture, GL_TEXTURE_2D, 0, 0, 0, 0, mem->gl.name, GL_RENDERBUFFER,
                                0, 0, 0, 0, width, height, 1);
    } else {
        gl->fn.CopyImageSubData(mem->gl.name, GL_RENDERBUFFER, 0, 0, 0, 0, texture, GL_TEXTURE_2D,
                                0, 0, 0, 0, width, height, 1);
        gl->fn.GetTexImage(GL_TEXTURE_2D, 0, format, type, mem->image.data);
    }
    gl->fn.BindTexture(GL_TEXTURE_2D, (GLuint)old);
    gl->fn.DeleteTextures(1, &texture);
}

static cl_int copy(struct rt_gl *gl, cl_mem mem, bool to_gl)
{
    /* kernels only read multi-sample images: nothing to give back */
    if (mem->desc.num_samples > 1)
        return to_gl ? CL_SUCCESS : gl_read_multisample(gl, mem);
    struct gl_scope scope;
    cl_int err = gl_enter(gl, &scope, false);
    if (err)
        return err;
    struct saved_state saved;
    save_pixel_store(gl, &saved);
    switch (mem->gl.egl_image ? 0 : mem->gl.type) {
    case 0: copy_egl_image(gl, mem, to_gl); break;
    case CL_GL_OBJECT_BUFFER: copy_buffer(gl, mem->gl.name, 0, mem, to_gl); break;
    case CL_GL_OBJECT_TEXTURE_BUFFER: copy_texture_buffer(gl, mem->gl.name, mem, to_gl); break;
    case CL_GL_OBJECT_RENDERBUFFER: copy_renderbuffer(gl, mem, to_gl); break;
    default: copy_texture(gl, mem, to_gl); break;
    }
    restore_pixel_store(gl, &saved);
    /* the object gone, or changed under OpenCL (undefined by the extension) */
    if (gl->fn.GetError() != GL_NO_ERROR)
        err = CL_INVALID_GL_OBJECT;
    if (to_gl)
        gl->fn.Flush();
    gl_leave(gl, &scope, to_gl);
    return err;
}

cl_int rt_gl_read(struct rt_gl *gl, cl_mem mem)
{
    return copy(gl, mem, false);
}

cl_int rt_gl_write(struct rt_gl *gl, cl_mem mem)
{
    return copy(gl, mem, true);
}

/* cl_khr_gl_event: waits (flushing the calling thread's context, as
 * glClientWaitSync does) until the fence is signalled. */
cl_int rt_gl_wait_sync(struct rt_gl *gl, void *sync)
{
    struct gl_scope scope;
    cl_int err = gl_enter(gl, &scope, false);
    if (err)
        return err;
    if (!gl->fn.IsSync(sync)) {
        err = CL_INVALID_GL_OBJECT;
    } else {
        GLenum result;
        do
            result = gl->fn.ClientWaitSync(sync, GL_SYNC_FLUSH_COMMANDS_BIT, 1000000000);
        while (result == GL_TIMEOUT_EXPIRED);
        if (result == GL_WAIT_FAILED)
            err = CL_INVALID_GL_OBJECT;
    }
    gl_leave(gl, &scope, false);
    return err;
}
