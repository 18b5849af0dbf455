/* image_format.h - image formats: which exist, which the device offers,
 * how big a pixel is, and how a fill colour becomes a pixel. */
#ifndef CPUCL_RUNTIME_IMAGE_FORMAT_H
#define CPUCL_RUNTIME_IMAGE_FORMAT_H

#include <stdbool.h>
#include <stddef.h>

#include <CL/cl.h>

/* Bytes a pixel of the format takes; 0 when the pair of channel order and
 * data type is not a format at all (API spec 5.3.1.1, table 5.6 notes). */
size_t rt_image_element_size(const cl_image_format *format);

/* Whether the device offers the format for images of `type` used as
 * `flags` say (clGetSupportedImageFormats). */
bool rt_image_format_supported(const cl_image_format *format, cl_mem_object_type type,
                               cl_mem_flags flags);

/* Whether the format is one only an image made from a GL texture has
 * (cl_khr_gl_depth_images' CL_DEPTH_STENCIL, 2D images and arrays, read by
 * kernels only): not offered, but taken from GL (api/gl_sharing.c). */
bool rt_image_format_from_gl(const cl_image_format *format, cl_mem_object_type type);

/* The offered formats for `type`, up to `max` of them into `out` (may be
 * NULL); returns how many there are. */
cl_uint rt_image_formats(cl_mem_object_type type, cl_mem_flags flags, cl_image_format *out,
                         cl_uint max);

/* clEnqueueFillImage: the pixel a fill colour (float4, int4 or uint4 by
 * the format's data type) becomes, with the conversions of OpenCL C 2.0
 * 8.3 (round to nearest even, saturate; sRGB encoded). */
void rt_image_pack_color(const cl_image_format *format, const void *color, unsigned char *pixel);

#endif
