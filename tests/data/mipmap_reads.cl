#pragma OPENCL EXTENSION cl_khr_mipmap_image : enable
kernel void at_lod(read_only image2d_t img, sampler_t s, float2 coord, global const float *lod,
                   global float4 *out)
{
    size_t i = get_global_id(0);
    out[i] = read_imagef(img, s, coord, lod[i]);
}
kernel void at_gradient(read_only image2d_t img, sampler_t s, float2 coord,
                        global const float4 *gradients, global uint4 *out)
{
    size_t i = get_global_id(0);
    out[i] = read_imageui(img, s, coord, gradients[i].xy, gradients[i].zw);
}
