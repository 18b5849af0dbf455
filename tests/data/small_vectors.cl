/* Built-ins taking and returning vectors of 8 bytes or less, which SPIR-V
 * passes as themselves and the x86-64 library coerced (tests/api/test_spirv.c). */
kernel void small_vectors(global const float2 *f, global const int2 *i, global const char8 *c,
                          global const short4 *s, global const uchar4 *u, global float *out)
{
    size_t g = get_global_id(0);
    float2 a = f[g];
    global float *o = out + g * 12;
    o[0] = dot(a, (float2)(2.0f, 3.0f));
    float2 m = fmax(a, (float2)(1.5f));
    o[1] = m.x;
    o[2] = m.y;
    uint2 d = abs_diff(i[g], (int2)(5, -5));
    o[3] = (float)d.x;
    o[4] = (float)d.y;
    char8 cc = add_sat(c[g], (char8)(100));
    o[5] = cc.s0;
    o[6] = cc.s7;
    short4 ss = rotate(s[g], (short4)(3));
    o[7] = ss.x;
    o[8] = ss.w;
    uchar4 h = hadd(u[g], (uchar4)(255));
    o[9] = h.y;
    float2 fl = floor(a * 3.5f);
    o[10] = fl.x;
    o[11] = fl.y;
}
