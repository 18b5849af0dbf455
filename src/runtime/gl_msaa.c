/* gl_msaa.c - multi-sample GL textures (cl_khr_gl_msaa_sharing): every
 * sample of one, fetched into an image's storage.
 *
 * No GL call reads a multi-sample texture's samples (glGetTexImage refuses
 * them), so a compute shader fetches each (texelFetch) into a buffer, in
 * cpucl's own context so that the application's program and bindings are
 * untouched; the host then packs the values as the image's format stores
 * them. Sample s of layer l lands in slice l * samples + s (image.h).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/gl_internal.h"
#include "runtime/image_format.h"
#include "runtime/runtime.h"

static const char msaa_source[] =
    "#version 430\n"
    "layout(local_size_x = 64) in;\n"
    "uniform %s source;\n"
    "uniform int width, height, samples, total;\n"
    "layout(std430, binding = 0) writeonly buffer fetched { %s texels[]; };\n"
    "void main()\n"
    "{\n"
    "    int i = int(gl_WorkGroupID.y * gl_NumWorkGroups.x * 64u + gl_GlobalInvocationID.x);\n"
    "    if (i >= total)\n"
    "        return;\n"
    "    int x = i %% width, y = i / width %% height, z = i / (width * height);\n"
    "    texels[i] = texelFetch(source, %s, z %% samples);\n"
    "}\n";

/* 0: float (normalized, float and depth formats), 1: int, 2: uint */
static int msaa_kind(cl_channel_type type)
{
    if (type >= CL_SIGNED_INT8 && type <= CL_SIGNED_INT32)
        return 1;
    if (type >= CL_UNSIGNED_INT8 && type <= CL_UNSIGNED_INT32)
        return 2;
    return 0;
}

static GLuint msaa_program(struct rt_gl *gl, int kind, bool array)
{
    GLuint *program = &gl->msaa_programs[kind * 2 + array];
    if (*program)
        return *program;
    static const char *const prefixes[MSAA_KINDS] = {"", "i", "u"};
    char sampler[32], source[sizeof msaa_source + 64];
    snprintf(sampler, sizeof sampler, "%ssampler2DMS%s", prefixes[kind], array ? "Array" : "");
    snprintf(source, sizeof source, msaa_source, sampler,
             kind == 1   ? "ivec4"
             : kind == 2 ? "uvec4"
                         : "vec4",
             array ? "ivec3(x, y, z / samples)" : "ivec2(x, y)");
    const char *text = source;
    GLuint shader = gl->fn.CreateShader(GL_COMPUTE_SHADER);
    gl->fn.ShaderSource(shader, 1, &text, NULL);
    gl->fn.CompileShader(shader);
    GLuint made = gl->fn.CreateProgram();
    gl->fn.AttachShader(made, shader);
    gl->fn.LinkProgram(made);
    gl->fn.DeleteShader(shader);
    GLint linked = 0;
    gl->fn.GetProgramiv(made, GL_LINK_STATUS, &linked);
    if (!linked) {
        gl->fn.DeleteProgram(made);
        return 0;
    }
    return *program = made;
}

/* One fetched sample's values (vec4, ivec4 or uvec4) as the format's pixel. */
static void pack_sample(const cl_image_format *format, const void *values, unsigned char *pixel)
{
    if (format->image_channel_order != CL_DEPTH_STENCIL) {
        rt_image_pack_color(format, values, pixel);
        return;
    }
    /* the stencil is not fetched (kernels cannot read it): 0 */
    float depth = *(const float *)values;
    if (format->image_channel_data_type == CL_FLOAT) {
        uint32_t words[2] = {0, 0};
        memcpy(&words[0], &depth, sizeof depth);
        memcpy(pixel, words, sizeof words);
        return;
    }
    depth = depth < 0.0f ? 0.0f : depth > 1.0f ? 1.0f : depth;
    uint32_t word = (uint32_t)lrintf(depth * 16777215.0f) << 8;
    memcpy(pixel, &word, sizeof word);
}

cl_int gl_read_multisample(struct rt_gl *gl, cl_mem mem)
{
    struct gl_scope scope;
    cl_int err = gl_enter(gl, &scope, true);
    if (err)
        return err;
    const cl_image_desc *d = &mem->desc;
    bool array = d->image_type == CL_MEM_OBJECT_IMAGE2D_ARRAY;
    int kind = msaa_kind(mem->format.image_channel_data_type);
    size_t layers = array ? d->image_array_size : 1;
    size_t total = d->image_width * d->image_height * layers * d->num_samples;
    GLuint program = msaa_program(gl, kind, array);
    float(*fetched)[4] = total <= INT32_MAX ? malloc(total * sizeof *fetched) : NULL;
    if (!program || !fetched) {
        free(fetched);
        gl_leave(gl, &scope, false);
        return program ? CL_OUT_OF_HOST_MEMORY : CL_OUT_OF_RESOURCES;
    }
    GLuint buffer = 0;
    gl->fn.GenBuffers(1, &buffer);
    gl->fn.BindBuffer(GL_SHADER_STORAGE_BUFFER, buffer);
    gl->fn.BufferData(GL_SHADER_STORAGE_BUFFER, (GLsizeiptr)(total * sizeof *fetched), NULL,
                      GL_STREAM_READ);
    gl->fn.BindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, buffer);
    gl->fn.BindTexture(mem->gl.target, mem->gl.name);
    gl->fn.UseProgram(program);
    gl->fn.Uniform1i(gl->fn.GetUniformLocation(program, "source"), 0);
    gl->fn.Uniform1i(gl->fn.GetUniformLocation(program, "width"), (GLint)d->image_width);
    gl->fn.Uniform1i(gl->fn.GetUniformLocation(program, "height"), (GLint)d->image_height);
    gl->fn.Uniform1i(gl->fn.GetUniformLocation(program, "samples"), (GLint)d->num_samples);
    gl->fn.Uniform1i(gl->fn.GetUniformLocation(program, "total"), (GLint)total);
    /* 65535 groups a dimension is all GL promises */
    size_t groups = (total + 63) / 64;
    GLuint x = groups < 65535 ? (GLuint)groups : 65535;
    gl->fn.DispatchCompute(x, (GLuint)((groups + x - 1) / x), 1);
    gl->fn.MemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    gl->fn.GetBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, (GLsizeiptr)(total * sizeof *fetched),
                            fetched);
    gl->fn.UseProgram(0);
    gl->fn.BindTexture(mem->gl.target, 0);
    gl->fn.DeleteBuffers(1, &buffer);
    if (gl->fn.GetError() != GL_NO_ERROR)
        err = CL_INVALID_GL_OBJECT;
    /* the box's pixels are tightly packed in the order the shader wrote */
    size_t element_size = (size_t)mem->image.element_size;
    for (size_t i = 0; i < total && !err; i++)
        pack_sample(&mem->format, fetched[i], mem->image.data + i * element_size);
    free(fetched);
    gl_leave(gl, &scope, false);
    return err;
}

void gl_delete_msaa_programs(struct rt_gl *gl)
{
    bool any = false;
    for (int i = 0; i < MSAA_PROGRAMS; i++)
        any |= gl->msaa_programs[i] != 0;
    struct gl_scope scope;
    if (!any || gl_enter(gl, &scope, true))
        return;
    for (int i = 0; i < MSAA_PROGRAMS; i++)
        if (gl->msaa_programs[i])
            gl->fn.DeleteProgram(gl->msaa_programs[i]);
    gl_leave(gl, &scope, false);
}
