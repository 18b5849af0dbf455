#pragma OPENCL EXTENSION cl_khr_mipmap_image_writes : enable
kernel void write_level(write_only image2d_t img, int lod)
{
    int2 p = (int2)(get_global_id(0), get_global_id(1));
    write_imagef(img, p, lod, (float4)(p.x, p.y, lod, 1.0f));
}
