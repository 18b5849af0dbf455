/* A helper the module asks never to inline (SPIR-V FunctionControl
 * DontInline): the translator marks its call too (tests/api/test_spirv.c). */
__attribute__((noinline)) float negate_twice_plus(float x, float y) { return -(-x) + y; }

kernel void noinline_call(global float *data, float y)
{
    size_t i = get_global_id(0);
    data[i] = negate_twice_plus(data[i], y);
}
