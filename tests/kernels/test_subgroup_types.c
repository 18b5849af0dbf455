/* test_subgroup_types.c - cl_khr_subgroup_extended_types: the reductions
 * and scans of char, uchar, short and ushort, and sub_group_broadcast of
 * those and of vector types of every element type (a vector of more than
 * 32 bytes goes as its two halves: long16, double8, int16), compared with
 * the host's for several local sizes and a non-uniform range. The device
 * reports the extension and kernels see its macro. */
#include "sub_group_check.h"

/* per work-item: 10 scalars, then the vectors' components */
#define RESULTS 87

static const char *source =
    "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"
    "#ifndef cl_khr_subgroup_extended_types\n"
    "#error the extension's macro is not defined\n"
    "#endif\n"
    "kernel void ext(global const int *in, global int *out)\n"
    "{\n"
    "    size_t g = get_global_id(0);\n"
    "    int x = in[g];\n"
    "    global int *o = out + g * RESULTS;\n"
    "    uint last = get_sub_group_size() - 1;\n"
    "    char c = (char)(x * 5);\n"
    "    uchar uc = (uchar)(x + 3);\n"
    "    short s = (short)(x * 300);\n"
    "    ushort us = (ushort)(x * 700 + 2100);\n"
    "    o[0] = sub_group_reduce_add(c);\n"
    "    o[1] = sub_group_reduce_min(uc);\n"
    "    o[2] = sub_group_reduce_max(s);\n"
    "    o[3] = sub_group_scan_inclusive_add(us);\n"
    "    o[4] = sub_group_scan_exclusive_min(c);\n"
    "    o[5] = sub_group_scan_exclusive_max(us);\n"
    "    o[6] = sub_group_scan_inclusive_max(s);\n"
    "    o[7] = sub_group_scan_exclusive_add(s);\n"
    "    o[8] = sub_group_broadcast(c, last);\n"
    "    o[9] = sub_group_broadcast(us, 0u);\n"
    "    int k = 10;\n"
    "    char3 c3 = sub_group_broadcast((char3)(c, c + 1, c + 2), last);\n"
    "    for (int i = 0; i < 3; i++) o[k++] = c3[i];\n"
    "    short8 s8 = sub_group_broadcast((short8)(s) + (short8)(0, 1, 2, 3, 4, 5, 6, 7), 0u);\n"
    "    for (int i = 0; i < 8; i++) o[k++] = s8[i];\n"
    "    uchar16 u16 = sub_group_broadcast((uchar16)(uc) + (uchar16)(0, 1, 2, 3, 4, 5, 6, 7, 8,\n"
    "        9, 10, 11, 12, 13, 14, 15), last);\n"
    "    for (int i = 0; i < 16; i++) o[k++] = u16[i];\n"
    "    int16 i16 = sub_group_broadcast((int16)(x) * (int16)(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11,\n"
    "        12, 13, 14, 15, 16), last / 2);\n"
    "    for (int i = 0; i < 16; i++) o[k++] = i16[i];\n"
    "    float3 f3 = sub_group_broadcast((float3)(x, x + 0.5f, -x), 0u);\n"
    "    for (int i = 0; i < 3; i++) o[k++] = (int)(f3[i] * 2.0f);\n"
    "    long16 l16 = sub_group_broadcast((long16)(x) - (long16)(0, 1, 2, 3, 4, 5, 6, 7, 8, 9,\n"
    "        10, 11, 12, 13, 14, 15), last);\n"
    "    for (int i = 0; i < 16; i++) o[k++] = (int)l16[i];\n"
    "    ulong3 u3 = sub_group_broadcast((ulong3)(x + 3, x + 4, x + 5), last);\n"
    "    for (int i = 0; i < 3; i++) o[k++] = (int)u3[i];\n"
    "    double8 d8 = sub_group_broadcast((double8)(x) * 0.5 + (double8)(0, 1, 2, 3, 4, 5, 6, 7),\n"
    "        last);\n"
    "    for (int i = 0; i < 8; i++) o[k++] = (int)(d8[i] * 2.0);\n"
    "    half4 h4 = sub_group_broadcast((half4)((half)x, (half)(x + 1), (half)(x + 2),\n"
    "        (half)(x + 3)), 0u);\n"
    "    for (int i = 0; i < 4; i++) o[k++] = (int)h4[i];\n"
    "}\n";

/* What work-item j of a sub-group of `size` whose inputs are v[0..size)
 * writes: the kernel's results, by the same arithmetic in the same types. */
static void expect(const int *v, size_t size, size_t width, size_t j, int *want)
{
    size_t last = size - 1;
    signed char c_sum = 0, c_excl_min = CHAR_MAX;
    unsigned char uc_min = UCHAR_MAX;
    short s_max = SHRT_MIN, s_incl_max = SHRT_MIN, s_excl_add = 0;
    unsigned short us_incl_add = 0, us_excl_max = 0;
    for (size_t i = 0; i < size; i++) {
        signed char c = (signed char)(v[i] * 5);
        unsigned char uc = (unsigned char)(v[i] + 3);
        short s = (short)(v[i] * 300);
        unsigned short us = (unsigned short)(v[i] * 700 + 2100);
        c_sum = (signed char)(c_sum + c);
        uc_min = uc < uc_min ? uc : uc_min;
        s_max = s > s_max ? s : s_max;
        if (i <= j) {
            us_incl_add = (unsigned short)(us_incl_add + us);
            s_incl_max = s > s_incl_max ? s : s_incl_max;
        }
        if (i < j) {
            c_excl_min = c < c_excl_min ? c : c_excl_min;
            us_excl_max = us > us_excl_max ? us : us_excl_max;
            s_excl_add = (short)(s_excl_add + s);
        }
    }
    int k = 0;
    want[k++] = c_sum;
    want[k++] = uc_min;
    want[k++] = s_max;
    want[k++] = us_incl_add;
    want[k++] = c_excl_min;
    want[k++] = us_excl_max;
    want[k++] = s_incl_max;
    want[k++] = s_excl_add;
    want[k++] = (signed char)(v[last] * 5);
    want[k++] = (unsigned short)(v[0] * 700 + 2100);
    for (int i = 0; i < 3; i++)
        want[k++] = (signed char)((signed char)(v[last] * 5) + i);
    for (int i = 0; i < 8; i++)
        want[k++] = (short)((short)(v[0] * 300) + i);
    for (int i = 0; i < 16; i++)
        want[k++] = (unsigned char)((unsigned char)(v[last] + 3) + i);
    for (int i = 0; i < 16; i++)
        want[k++] = v[last / 2] * (i + 1);
    want[k++] = v[0] * 2, want[k++] = v[0] * 2 + 1, want[k++] = -v[0] * 2;
    for (int i = 0; i < 16; i++)
        want[k++] = v[last] - i;
    for (int i = 0; i < 3; i++)
        want[k++] = v[last] + 3 + i;
    for (int i = 0; i < 8; i++)
        want[k++] = v[last] + 2 * i;
    for (int i = 0; i < 4; i++)
        want[k++] = v[0] + i;
}

static void run(struct harness *h, cl_program program, size_t global, size_t local)
{
    cl_kernel k = harness_kernel(program, "ext");
    REQUIRE(k);
    sub_group_check(h, k, "ext", global, local, RESULTS, expect);
    clReleaseKernel(k);
}

int main(void)
{
    struct harness h = harness_open();
    CHECK(harness_has_extension(&h, "cl_khr_subgroup_extended_types"));
    cl_program program = harness_build(&h, source, "-cl-std=CL2.0 -DRESULTS=87");
    REQUIRE(program);
    static const size_t locals[] = {1, 7, 64, 100, 256};
    for (size_t i = 0; i < sizeof locals / sizeof locals[0]; i++)
        run(&h, program, locals[i] * 3, locals[i]);
    run(&h, program, 1000, 96); /* the last group: 40 */
    clReleaseProgram(program);
    harness_close(&h);
    return harness_finish();
}
