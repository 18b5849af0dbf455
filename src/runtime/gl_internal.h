/* gl_internal.h - what the runtime's OpenCL/OpenGL files share (gl.c,
 * gl_msaa.c): the GL functions cpucl calls, struct rt_gl, and a call's GL
 * context. Nothing outside src/runtime/gl*.c includes it.
 */
#ifndef CPUCL_RUNTIME_GL_INTERNAL_H
#define CPUCL_RUNTIME_GL_INTERNAL_H

#include <GL/gl.h>
#include <GL/glext.h>

#include "runtime/gl.h"
#include "runtime/gl_binding.h"

/* The GL functions cpucl calls: name, result, parameters. */
#define GL_FUNCTIONS(X)                                                                            \
    X(GetError, GLenum, (void))                                                                    \
    X(GetIntegerv, void, (GLenum, GLint *))                                                        \
    X(PixelStorei, void, (GLenum, GLint))                                                          \
    X(Flush, void, (void))                                                                         \
    X(Finish, void, (void))                                                                        \
    X(IsSync, GLboolean, (GLsync))                                                                 \
    X(ClientWaitSync, GLenum, (GLsync, GLbitfield, GLuint64))                                      \
    X(IsTexture, GLboolean, (GLuint))                                                              \
    X(BindTexture, void, (GLenum, GLuint))                                                         \
    X(GenTextures, void, (GLsizei, GLuint *))                                                      \
    X(DeleteTextures, void, (GLsizei, const GLuint *))                                             \
    X(GetTexParameteriv, void, (GLenum, GLenum, GLint *))                                          \
    X(TexParameteri, void, (GLenum, GLenum, GLint))                                                \
    X(GetTexLevelParameteriv, void, (GLenum, GLint, GLenum, GLint *))                              \
    X(GetTexImage, void, (GLenum, GLint, GLenum, GLenum, void *))                                  \
    X(TexImage2D, void,                                                                            \
      (GLenum, GLint, GLint, GLsizei, GLsizei, GLint, GLenum, GLenum, const void *))               \
    X(TexSubImage1D, void, (GLenum, GLint, GLint, GLsizei, GLenum, GLenum, const void *))          \
    X(TexSubImage2D, void,                                                                         \
      (GLenum, GLint, GLint, GLint, GLsizei, GLsizei, GLenum, GLenum, const void *))               \
    X(TexSubImage3D, void,                                                                         \
      (GLenum, GLint, GLint, GLint, GLint, GLsizei, GLsizei, GLsizei, GLenum, GLenum,              \
       const void *))                                                                              \
    X(IsBuffer, GLboolean, (GLuint))                                                               \
    X(BindBuffer, void, (GLenum, GLuint))                                                          \
    X(GetBufferParameteriv, void, (GLenum, GLenum, GLint *))                                       \
    X(GetBufferSubData, void, (GLenum, GLintptr, GLsizeiptr, void *))                              \
    X(BufferSubData, void, (GLenum, GLintptr, GLsizeiptr, const void *))                           \
    X(IsRenderbuffer, GLboolean, (GLuint))                                                         \
    X(BindRenderbuffer, void, (GLenum, GLuint))                                                    \
    X(GetRenderbufferParameteriv, void, (GLenum, GLenum, GLint *))                                 \
    X(CreateShader, GLuint, (GLenum))                                                              \
    X(ShaderSource, void, (GLuint, GLsizei, const GLchar *const *, const GLint *))                 \
    X(CompileShader, void, (GLuint))                                                               \
    X(DeleteShader, void, (GLuint))                                                                \
    X(CreateProgram, GLuint, (void))                                                               \
    X(AttachShader, void, (GLuint, GLuint))                                                        \
    X(LinkProgram, void, (GLuint))                                                                 \
    X(GetProgramiv, void, (GLuint, GLenum, GLint *))                                               \
    X(DeleteProgram, void, (GLuint))                                                               \
    X(UseProgram, void, (GLuint))                                                                  \
    X(GetUniformLocation, GLint, (GLuint, const GLchar *))                                         \
    X(Uniform1i, void, (GLint, GLint))                                                             \
    X(GenBuffers, void, (GLsizei, GLuint *))                                                       \
    X(DeleteBuffers, void, (GLsizei, const GLuint *))                                              \
    X(BufferData, void, (GLenum, GLsizeiptr, const void *, GLenum))                                \
    X(BindBufferBase, void, (GLenum, GLuint, GLuint))                                              \
    X(DispatchCompute, void, (GLuint, GLuint, GLuint))                                             \
    X(MemoryBarrier, void, (GLbitfield))                                                           \
    X(EGLImageTargetTexture2DOES, void, (GLenum, void *))                                          \
    X(CopyImageSubData, void,                                                                      \
      (GLuint, GLenum, GLint, GLint, GLint, GLint, GLuint, GLenum, GLint, GLint, GLint, GLint,     \
       GLsizei, GLsizei, GLsizei))

struct gl_functions {
#define FIELD(name, result, params) result(*name) params;
    GL_FUNCTIONS(FIELD)
#undef FIELD
};

/* The programs that read multi-sample textures (gl_msaa.c): float, int
 * and uint samplers, 2D and 2D array. */
enum { MSAA_KINDS = 3, MSAA_PROGRAMS = 2 * MSAA_KINDS };

struct rt_gl {
    struct gl_binding *binding;
    struct gl_functions fn;
    GLuint msaa_programs[MSAA_PROGRAMS]; /* in cpucl's context, made when first needed */
};

/* Makes a context sharing the application's objects current for a call
 * (gl_binding.c says which; cpucl's own with `own_only`) and consumes the
 * GL errors pending before it;
 * gl_leave puts back what was current, after finishing what cpucl's own
 * context `wrote` so that the application's sees it. */
cl_int gl_enter(struct rt_gl *gl, struct gl_scope *scope, bool own_only);
void gl_leave(struct rt_gl *gl, struct gl_scope *scope, bool wrote);

/* cl_khr_gl_msaa_sharing (gl_msaa.c): every sample of a multi-sample
 * texture into mem's storage; the programs that do it, deleted. */
cl_int gl_read_multisample(struct rt_gl *gl, cl_mem mem);
void gl_delete_msaa_programs(struct rt_gl *gl);

#endif
