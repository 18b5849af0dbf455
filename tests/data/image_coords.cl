/* Image built-ins whose coordinates are int2 (8 bytes: SPIR-V passes them
 * as themselves, the x86-64 library takes them coerced; tests/api/test_spirv.c). */
constant sampler_t nearest = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE |
                             CLK_FILTER_NEAREST;

kernel void image_coords(read_only image2d_t in, write_only image2d_t out)
{
    int x = get_global_id(0), y = get_global_id(1);
    int2 dim = get_image_dim(in);
    float4 p = read_imagef(in, nearest, (int2)(x + 1, y - 1));
    write_imagef(out, (int2)(x, y), p + (float4)(dim.x, dim.y, 0.0f, 0.0f));
}
