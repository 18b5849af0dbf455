kernel void spv_scale(global const float *in, global float *out, float factor)
{
    size_t i = get_global_id(0);
    out[i] = in[i] * factor + sqrt((float)i);
}
