/* half.c - the double -> half conversion the JIT binds in place of libgcc's.
 *
 * x86 has no instruction for double -> half (F16C converts float only), so
 * LLVM lowers `fptrunc double to half` -- the casts `(half)d`, the default
 * `convert_half*(double*)`, the first step of the directed ones -- to a
 * call of __truncdfhf2. libgcc's reads and raises the exception flags
 * through the x87 and SSE environments: about 20 ns a call here, against
 * 1-2 ns for the integer rounding below. The JIT defines the name with this
 * function (cc_half_symbols), as it defines lgamma with lanes.c's.
 *
 * The conversion rounds to nearest even, the rounding of a conversion to
 * floating point (OpenCL C 2.0, 6.2.3.2); kernels never run in another
 * rounding mode, so no environment is read. Overflow gives infinity, a
 * result below half's smallest subnormal rounds to a signed zero, NaNs stay
 * NaN (quiet, with the payload's top bits).
 */
#include <stdint.h>
#include <string.h>

#include "compiler/internal.h"

static uint16_t half_bits(double value)
{
    uint64_t bits;
    memcpy(&bits, &value, sizeof bits);
    uint16_t sign = (uint16_t)(bits >> 48 & 0x8000);
    uint64_t magnitude = bits & ~(UINT64_C(1) << 63);
    if (magnitude > UINT64_C(0x7ff0000000000000)) /* NaN */
        return sign | 0x7e00 | (uint16_t)(magnitude >> 42 & 0x3ff);
    if (magnitude >= UINT64_C(0x40f0000000000000)) /* 2^16 and above, infinity */
        return sign | 0x7c00;
    int exponent = (int)(magnitude >> 52); /* biased by 1023 */
    uint64_t mantissa;
    int shift;
    if (exponent >= 1023 - 14) {
        /* a normal half: rebias the exponent field from 1023 to 15 and keep
         * the top 10 bits of the fraction; a carry out of the fraction
         * steps the exponent, up to infinity past 65504 (65520 and above) */
        mantissa = magnitude - (UINT64_C(1008) << 52);
        shift = 42;
    } else if (exponent >= 1023 - 25) {
        /* a subnormal half counts units of 2^-24: the significand, implicit
         * bit included, shifted by 42 plus how far below 2^-14 it lies */
        mantissa = (magnitude & ((UINT64_C(1) << 52) - 1)) | UINT64_C(1) << 52;
        shift = 42 + (1023 - 14) - exponent;
    } else {
        return sign; /* below 2^-25, half of the smallest subnormal */
    }
    uint64_t kept = mantissa >> shift;
    uint64_t rest = mantissa & ((UINT64_C(1) << shift) - 1);
    uint64_t halfway = UINT64_C(1) << (shift - 1);
    kept += rest > halfway || (rest == halfway && (kept & 1));
    return sign | (uint16_t)kept;
}

/* __truncdfhf2's ABI on x86-64 (LLVM 15 and later, GCC 12): the double in
 * xmm0, the half returned in xmm0's low 16 bits, which is _Float16's. */
static _Float16 truncdfhf2(double value)
{
    uint16_t bits = half_bits(value);
    _Float16 half;
    memcpy(&half, &bits, sizeof half);
    return half;
}

static const struct cc_runtime_symbol symbols[] = {
    {"__truncdfhf2", (void *)truncdfhf2},
};

const struct cc_runtime_symbol *cc_half_symbols(unsigned *count)
{
    *count = sizeof symbols / sizeof symbols[0];
    return symbols;
}
