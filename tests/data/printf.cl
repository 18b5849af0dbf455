kernel void spv_printf(float f, int i, global const float4 *v, global const char2 *c,
                       global const uchar4 *u, long l)
{
    printf("f=%f i=%d v=%v4hlf c=%v2hhd u=%v4hhu l=%ld s=%s e=%e\n", f, i, *v, *c, *u, l,
           "spir-v", f);
}
