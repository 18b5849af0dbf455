/* image.h - what an image argument points to, shared by the runtime (C)
 * and the built-in library (OpenCL C, image.cl).
 *
 * A kernel's image argument is a pointer to one cc_image, which lives in
 * the cl_mem. Every image type is addressed as a box of pixels x, y, z:
 * pixel (x, y, z) starts at data + z * slice_pitch + y * row_pitch +
 * x * element_size. A 1D image array keeps its layers as rows (y) and a 2D
 * image array its layers as slices (z), so the host commands, whose
 * origins name the layer in the same place, use the same box.
 *
 * A mipmapped image (cl_khr_mipmap_image) has num_mip_levels > 1 and
 * `levels`, one descriptor a level (levels[0] is the image itself), each
 * level's pixels tightly packed after the previous level's.
 *
 * A multi-sample image (cl_khr_gl_msaa_sharing, made from a GL texture
 * only) keeps sample s of layer l (0 for a 2D image) as slice
 * l * num_samples + s of the box.
 *
 * A sampler argument is no pointer: its value's low 16 bits are the
 * sampler's bits (CLK_NORMALIZED_COORDS_*, CLK_ADDRESS_*, CLK_FILTER_*,
 * and CC_SAMPLER_MIP_LINEAR), which is also what
 * __translate_sampler_initializer turns a program's sampler constant into;
 * bits 16-39 hold CL_SAMPLER_LOD_MIN_KHR and bits 40-63 the distance of
 * CL_SAMPLER_LOD_MAX_KHR below CC_SAMPLER_LOD_CODES, both in units of
 * CC_SAMPLER_LOD_UNIT levels, so that the defaults (0 and MAXFLOAT) are 0.
 */
#ifndef CPUCL_BUILTINS_IMAGE_H
#define CPUCL_BUILTINS_IMAGE_H

#ifdef __OPENCL_C_VERSION__
#define CC_IMAGE_DATA global uchar *
#define CC_IMAGE_SIZE ulong
#define CC_IMAGE_LEVELS const global struct cc_image *
#else
#define CC_IMAGE_DATA unsigned char *
#define CC_IMAGE_SIZE unsigned long
#define CC_IMAGE_LEVELS const struct cc_image *
#endif

struct cc_image {
    CC_IMAGE_DATA data;
    CC_IMAGE_SIZE row_pitch;   /* bytes from a row (or a 1D array's layer) to the next */
    CC_IMAGE_SIZE slice_pitch; /* bytes from a slice (or a 2D array's layer) to the next */
    int width, height, depth;  /* the box: 1 where the type has no such dimension */
    int array_size;            /* layers of an array type, 0 otherwise */
    int channel_order;         /* CL_R ... as cl_image_format says */
    int channel_data_type;     /* CL_UNORM_INT8 ... */
    int element_size;          /* bytes a pixel */
    int type;                  /* CL_MEM_OBJECT_IMAGE2D ... */
    int num_mip_levels;        /* as the application gave it: 0 or 1 without mipmaps */
    CC_IMAGE_LEVELS levels;    /* num_mip_levels > 1: a descriptor a level, else NULL */
    int num_samples;           /* multi-sample images (from GL): samples a pixel, else 0 */
};

/* Sampler bits (OpenCL C 6.13.14.1, the values of opencl-c-base.h). */
#define CC_SAMPLER_NORMALIZED 0x1
#define CC_SAMPLER_ADDRESS_MASK 0xe
#define CC_SAMPLER_FILTER_LINEAR 0x20
#define CC_SAMPLER_MIP_LINEAR 0x100 /* CL_SAMPLER_MIP_FILTER_MODE_KHR linear */
#define CC_SAMPLER_BITS_MASK 0xffff
/* Levels of detail of a sampler value: 24-bit fixed point with 19
 * fraction bits, [0, 32) levels (an image has at most 15). */
#define CC_SAMPLER_LOD_UNIT (1.0f / 524288.0f)
#define CC_SAMPLER_LOD_CODES 0xffffff

#endif
