/* gl_kernels.cl - the kernels of the GL sharing tests
 * (tests/api/test_gl_sharing.c, test_gl_glx.c), built with -cl-std=CL2.0. */
#pragma OPENCL EXTENSION cl_khr_gl_msaa_sharing : enable
kernel void read_msaa(read_only image2d_msaa_t src, global float4 *out)
{
    int2 p = (int2)(get_global_id(0), get_global_id(1));
    int n = get_image_num_samples(src), i = p.y * get_image_width(src) + p.x;
    for (int s = 0; s < n; s++)
        out[i * n + s] = read_imagef(src, p, s);
}
kernel void read_msaa_array(read_only image2d_array_msaa_t src, global uint4 *out)
{
    int4 p = (int4)(get_global_id(0), get_global_id(1), get_global_id(2), 0);
    int n = get_image_num_samples(src);
    int i = (p.z * get_image_height(src) + p.y) * get_image_width(src) + p.x;
    for (int s = 0; s < n; s++)
        out[i * n + s] = read_imageui(src, p, s);
    if (i == 0)
        out[get_global_size(0) * get_global_size(1) * get_global_size(2) * n] =
            (uint4)(n, get_image_array_size(src), get_image_dim(src).x, get_image_dim(src).y);
}
kernel void read_msaa_depth(read_only image2d_msaa_depth_t src, global float *out)
{
    int2 p = (int2)(get_global_id(0), get_global_id(1));
    int n = get_image_num_samples(src), i = p.y * get_image_width(src) + p.x;
    for (int s = 0; s < n; s++)
        out[i * n + s] = read_imagef(src, p, s);
}
kernel void invert_in_place(read_write image2d_t img)
{
    int2 p = (int2)(get_global_id(0), get_global_id(1));
    write_imagef(img, p, (float4)(1.0f) - read_imagef(img, p));
}
kernel void scale(global int *data)
{
    size_t i = get_global_id(0);
    data[i] = data[i] * 2 + 1;
}
kernel void invert(read_only image2d_t src, write_only image2d_t dst)
{
    int2 p = (int2)(get_global_id(0), get_global_id(1));
    write_imagef(dst, p, (float4)(1.0f) - read_imagef(src, p));
}
kernel void read_3d(read_only image3d_t src, global uint4 *out)
{
    int4 p = (int4)(get_global_id(0), get_global_id(1), get_global_id(2), 0);
    size_t i = (p.z * get_global_size(1) + p.y) * get_global_size(0) + p.x;
    out[i] = read_imageui(src, p);
}
kernel void fill_array(write_only image2d_array_t dst)
{
    int4 p = (int4)(get_global_id(0), get_global_id(1), get_global_id(2), 0);
    write_imageui(dst, p, (uint4)(p.x, p.y, p.z, p.x + p.y + p.z));
}
kernel void double_1d(read_only image1d_buffer_t src, write_only image1d_t dst)
{
    int i = get_global_id(0);
    write_imagef(dst, i, read_imagef(src, i) * 2.0f);
}
kernel void read_depth(read_only image2d_depth_t src, global float *out)
{
    int2 p = (int2)(get_global_id(0), get_global_id(1));
    out[p.y * get_global_size(0) + p.x] = read_imagef(src, p);
}
kernel void add_layer(read_write image1d_array_t img)
{
    int2 p = (int2)(get_global_id(0), get_global_id(1));
    write_imagei(img, p, read_imagei(img, p) + (int4)(p.y));
}
