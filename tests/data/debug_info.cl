float helper(float x) { float y = x * 2.0f; return y + 1.0f; }
kernel void scale(global float *p) { size_t i = get_global_id(0); p[i] = helper(p[i]); }
