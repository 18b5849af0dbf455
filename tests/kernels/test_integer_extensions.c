/* test_integer_extensions.c - cl_khr_extended_bit_ops (bitfield_insert,
 * bitfield_extract_signed/_unsigned, bit_reverse),
 * cl_khr_integer_dot_product 2.0.0 (dot, dot_acc_sat, their packed forms)
 * and, beside them, cl_khr_expect_assume (kernel `hints`),
 * on scalars and vectors of several widths, compared with the host's over
 * random inputs with every valid offset and count (the extremes, 0 and the
 * full width, included). The device reports both extensions, the
 * capabilities query and the acceleration queries answer. */
#include <limits.h>
#include <stdint.h>
#include <string.h>

#include "../harness.h"

#define RESULTS 16

static const char *source =
    "#if !defined(cl_khr_extended_bit_ops) || !defined(cl_khr_integer_dot_product) || \\\n"
    "    !defined(__opencl_c_integer_dot_product_input_4x8bit) || \\\n"
    "    !defined(__opencl_c_integer_dot_product_input_4x8bit_packed)\n"
    "#error a macro is not defined\n"
    "#endif\n"
    "kernel void ops(global const ulong *in, global const uint *fields, global long *out)\n"
    "{\n"
    "    size_t g = get_global_id(0);\n"
    "    ulong a = in[2 * g], b = in[2 * g + 1];\n"
    "    uint offset = fields[2 * g], count = fields[2 * g + 1];\n"
    "    global long *o = out + g * 16;\n"
    "    o[0] = bitfield_insert(a, b, offset, count);\n"
    "    o[1] = bitfield_insert((uint)a, (uint)b, offset % 33, count % (33 - offset % 33));\n"
    "    o[2] = bitfield_insert((char)a, (char)b, offset % 9, count % (9 - offset % 9));\n"
    "    short4 s4 = bitfield_insert(as_short4(a), as_short4(b), offset % 17,\n"
    "                                count % (17 - offset % 17));\n"
    "    o[3] = as_long(s4);\n"
    "    o[4] = bitfield_extract_signed(a, offset, count);\n"
    "    o[5] = bitfield_extract_signed((uchar)a, offset % 9, count % (9 - offset % 9));\n"
    "    o[6] = bitfield_extract_unsigned((long)a, offset, count);\n"
    "    int2 i2 = as_int2(bitfield_extract_unsigned(as_int2(a), offset % 33,\n"
    "                                                count % (33 - offset % 33)));\n"
    "    o[7] = as_long(i2);\n"
    "    o[8] = bit_reverse(a);\n"
    "    o[9] = bit_reverse((ushort)a);\n"
    "    o[10] = as_long(bit_reverse(as_char8(b)));\n"
    "    o[11] = dot(as_uchar4((uint)a), as_uchar4((uint)b));\n"
    "    o[12] = dot(as_char4((uint)a), as_uchar4((uint)b));\n"
    "    o[13] = dot_acc_sat(as_char4((uint)a), as_char4((uint)b), (int)(b >> 32));\n"
    "    o[14] = dot_acc_sat_4x8packed_uu_uint((uint)a, (uint)b, (uint)(a >> 32));\n"
    "    o[15] = dot_4x8packed_su_int((uint)a, (uint)b);\n"
    "}\n"
    "#ifndef cl_khr_expect_assume\n"
    "#error the macro is not defined\n"
    "#endif\n"
    "kernel void hints(global long *out, int n)\n"
    "{\n"
    "    __builtin_assume(n > 0);\n"
    "    long sum = 0;\n"
    "    for (int i = 0; i < n; i++)\n"
    "        sum += __builtin_expect(i % 7 == 3, 0) ? 100 : i;\n"
    "    out[get_global_id(0)] = sum;\n"
    "}\n";

static uint64_t mask_of(unsigned offset, unsigned count)
{
    uint64_t ones = count >= 64 ? ~0ull : (1ull << count) - 1;
    return offset >= 64 ? 0 : ones << offset;
}

static uint64_t insert(uint64_t base, uint64_t bits, unsigned offset, unsigned count,
                       unsigned width)
{
    uint64_t m = mask_of(offset, count);
    uint64_t r = (base & ~m) | ((offset < 64 ? bits << offset : 0) & m);
    return width == 64 ? r : r & ((1ull << width) - 1);
}

static uint64_t extract_unsigned(uint64_t base, unsigned offset, unsigned count)
{
    return count ? (base >> offset) & mask_of(0, count) : 0;
}

static int64_t extract_signed(uint64_t base, unsigned offset, unsigned count)
{
    if (!count)
        return 0;
    uint64_t v = extract_unsigned(base, offset, count);
    if (count < 64 && (v >> (count - 1)) & 1)
        v |= ~mask_of(0, count);
    return (int64_t)v;
}

static uint64_t reverse(uint64_t v, unsigned width)
{
    uint64_t r = 0;
    for (unsigned i = 0; i < width; i++)
        r |= ((v >> i) & 1) << (width - 1 - i);
    return r;
}

/* dot of the four bytes of a and b, each signed or not */
static int64_t dot4(uint32_t a, uint32_t b, int a_signed, int b_signed)
{
    int64_t sum = 0;
    for (int i = 0; i < 4; i++) {
        int64_t x = (a >> (8 * i)) & 0xff, y = (b >> (8 * i)) & 0xff;
        if (a_signed && x > 127)
            x -= 256;
        if (b_signed && y > 127)
            y -= 256;
        sum += x * y;
    }
    return sum;
}

static int64_t saturate(int64_t v, int64_t lo, int64_t hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

static void expect(uint64_t a, uint64_t b, unsigned offset, unsigned count, int64_t *want)
{
    unsigned o32 = offset % 33, c32 = count % (33 - o32);
    unsigned o8 = offset % 9, c8 = count % (9 - o8);
    unsigned o16 = offset % 17, c16 = count % (17 - o16);
    want[0] = (int64_t)insert(a, b, offset, count, 64);
    want[1] = (int64_t)insert((uint32_t)a, (uint32_t)b, o32, c32, 32);
    want[2] = (int8_t)insert((uint8_t)a, (uint8_t)b, o8, c8, 8);
    uint64_t s4 = 0;
    for (int i = 0; i < 4; i++)
        s4 |= insert((a >> (16 * i)) & 0xffff, (b >> (16 * i)) & 0xffff, o16, c16, 16) << (16 * i);
    want[3] = (int64_t)s4;
    want[4] = extract_signed(a, offset, count);
    want[5] = (int8_t)extract_signed((uint8_t)a, o8, c8);
    want[6] = (int64_t)extract_unsigned(a, offset, count);
    want[7] = (int64_t)(extract_unsigned((uint32_t)a, o32, c32) |
                        extract_unsigned(a >> 32, o32, c32) << 32);
    want[8] = (int64_t)reverse(a, 64);
    want[9] = (int64_t)reverse(a & 0xffff, 16);
    uint64_t r8 = 0;
    for (int i = 0; i < 8; i++)
        r8 |= reverse((b >> (8 * i)) & 0xff, 8) << (8 * i);
    want[10] = (int64_t)r8;
    want[11] = dot4((uint32_t)a, (uint32_t)b, 0, 0);
    want[12] = dot4((uint32_t)a, (uint32_t)b, 1, 0);
    want[13] =
        saturate(dot4((uint32_t)a, (uint32_t)b, 1, 1) + (int32_t)(b >> 32), INT_MIN, INT_MAX);
    want[14] = saturate(dot4((uint32_t)a, (uint32_t)b, 0, 0) + (uint32_t)(a >> 32), 0, UINT_MAX);
    want[15] = dot4((uint32_t)a, (uint32_t)b, 1, 0);
}

int main(void)
{
    struct harness h = harness_open();
    CHECK(harness_has_extension(&h, "cl_khr_extended_bit_ops"));
    CHECK(harness_has_extension(&h, "cl_khr_integer_dot_product"));
    cl_device_integer_dot_product_capabilities_khr caps = 0;
    CHECK_OK(clGetDeviceInfo(h.device, CL_DEVICE_INTEGER_DOT_PRODUCT_CAPABILITIES_KHR, sizeof caps,
                             &caps, NULL));
    CHECK(caps == (CL_DEVICE_INTEGER_DOT_PRODUCT_INPUT_4x8BIT_PACKED_KHR |
                   CL_DEVICE_INTEGER_DOT_PRODUCT_INPUT_4x8BIT_KHR));
    cl_device_integer_dot_product_acceleration_properties_khr accel;
    size_t size = 0;
    CHECK_OK(clGetDeviceInfo(h.device,
                             CL_DEVICE_INTEGER_DOT_PRODUCT_ACCELERATION_PROPERTIES_8BIT_KHR,
                             sizeof accel, &accel, &size));
    CHECK(size == sizeof accel);
    cl_name_version_khr versions[64];
    size_t bytes = 0;
    CHECK_OK(clGetDeviceInfo(h.device, CL_DEVICE_EXTENSIONS_WITH_VERSION_KHR, sizeof versions,
                             versions, &bytes));
    for (size_t i = 0; i < bytes / sizeof versions[0]; i++)
        if (!strcmp(versions[i].name, "cl_khr_integer_dot_product"))
            CHECK(versions[i].version == CL_MAKE_VERSION_KHR(2, 0, 0));

    cl_program program = harness_build(&h, source, "-cl-std=CL2.0");
    REQUIRE(program);
    cl_kernel k = harness_kernel(program, "ops");
    REQUIRE(k);
    /* every (offset, count) with offset + count <= 64, several inputs each */
    enum { REPEAT = 3 };
    size_t n = 0;
    for (unsigned offset = 0; offset <= 64; offset++)
        n += (size_t)(65 - offset) * REPEAT;
    uint64_t *in = malloc(2 * n * sizeof *in);
    cl_uint *fields = malloc(2 * n * sizeof *fields);
    int64_t *out = malloc(n * RESULTS * sizeof *out);
    REQUIRE(in && fields && out);
    uint64_t seed = 0x9e3779b97f4a7c15ull;
    size_t i = 0;
    for (unsigned offset = 0; offset <= 64; offset++)
        for (unsigned count = 0; offset + count <= 64; count++)
            for (int r = 0; r < REPEAT; r++, i++) {
                for (int j = 0; j < 2; j++) {
                    seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
                    in[2 * i + j] = seed;
                }
                fields[2 * i] = offset, fields[2 * i + 1] = count;
            }
    cl_mem din =
        harness_buffer(&h, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, 2 * n * sizeof *in, in);
    cl_mem dfields =
        harness_buffer(&h, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, 2 * n * sizeof *fields, fields);
    cl_mem dout = harness_buffer(&h, CL_MEM_WRITE_ONLY, n * RESULTS * sizeof *out, NULL);
    CHECK_OK(harness_args(k, 3, ARG(din), ARG(dfields), ARG(dout)));
    CHECK_OK(clEnqueueNDRangeKernel(h.queue, k, 1, NULL, &n, NULL, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(h.queue, dout, CL_TRUE, 0, n * RESULTS * sizeof *out, out, 0, NULL,
                                 NULL));
    size_t bad = 0;
    for (i = 0; i < n; i++) {
        int64_t want[RESULTS];
        expect(in[2 * i], in[2 * i + 1], fields[2 * i], fields[2 * i + 1], want);
        for (int r = 0; r < RESULTS; r++)
            if (out[i * RESULTS + r] != want[r] && bad++ < 8)
                HARNESS_FAIL("offset %u count %u, a %llx b %llx, result %d: got %llx, want %llx\n",
                             fields[2 * i], fields[2 * i + 1], (unsigned long long)in[2 * i],
                             (unsigned long long)in[2 * i + 1], r,
                             (unsigned long long)out[i * RESULTS + r], (unsigned long long)want[r]);
    }
    CHECK(bad == 0);
    clReleaseMemObject(din), clReleaseMemObject(dfields), clReleaseMemObject(dout);
    clReleaseKernel(k);

    CHECK(harness_has_extension(&h, "cl_khr_expect_assume"));
    k = harness_kernel(program, "hints");
    REQUIRE(k);
    cl_long sums[4];
    cl_int count = 1000;
    dout = harness_buffer(&h, CL_MEM_WRITE_ONLY, sizeof sums, NULL);
    CHECK_OK(harness_args(k, 2, ARG(dout), ARG(count)));
    size_t four = 4;
    CHECK_OK(clEnqueueNDRangeKernel(h.queue, k, 1, NULL, &four, NULL, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(h.queue, dout, CL_TRUE, 0, sizeof sums, sums, 0, NULL, NULL));
    cl_long want_sum = 0;
    for (int j = 0; j < count; j++)
        want_sum += j % 7 == 3 ? 100 : j;
    for (int j = 0; j < 4; j++)
        CHECK(sums[j] == want_sum);
    clReleaseMemObject(dout);
    clReleaseKernel(k);
    clReleaseProgram(program);
    free(in), free(fields), free(out);
    harness_close(&h);
    return harness_finish();
}
