/* lanes.c - vector variants that compute lane by lane with the C library.
 *
 * For the math functions that no vector library has an accurate variant of
 * (double remainder and tgamma, lgamma; vecmath.c's table), a call in a
 * work-item loop would keep the whole loop from vectorizing. These
 * functions take and return the vector of one ISA (SSE, AVX2, AVX-512:
 * the x86-64 vector function ABI's b, d and e) and call the C library once
 * per lane, so the loop vectorizer can still vectorize the rest of the
 * loop around them. The JIT binds them by name (cc_lanes_symbols).
 *
 * lgamma itself is bound here too: the C library's writes the global
 * signgam, a data race between work-items, so "lgammaf" and "lgamma" in
 * JITed code mean the reentrant versions with the sign dropped.
 */
#include <math.h>
#include <string.h>

#include "compiler/internal.h"

float lgammaf_r(float x, int *sign);
double lgamma_r(double x, int *sign);

static float lgamma_float(float x)
{
    int sign;
    return lgammaf_r(x, &sign);
}

static double lgamma_double(double x)
{
    int sign;
    return lgamma_r(x, &sign);
}


/* NAME(V x) = (F(x[0]), F(x[1]), ...), compiled for TARGET's registers */
#define LANES1(NAME, V, E, TARGET, F)                                                              \
    __attribute__((target(TARGET))) static V NAME(V x)                                             \
    {                                                                                              \
        E lane[sizeof(V) / sizeof(E)];                                                             \
        memcpy(lane, &x, sizeof lane);                                                             \
        for (size_t i = 0; i < sizeof lane / sizeof lane[0]; i++)                                  \
            lane[i] = F(lane[i]);                                                                  \
        memcpy(&x, lane, sizeof lane);                                                             \
        return x;                                                                                  \
    }
#define LANES2(NAME, V, E, TARGET, F)                                                              \
    __attribute__((target(TARGET))) static V NAME(V x, V y)                                        \
    {                                                                                              \
        E lane[sizeof(V) / sizeof(E)], other[sizeof(V) / sizeof(E)];                               \
        memcpy(lane, &x, sizeof lane);                                                             \
        memcpy(other, &y, sizeof other);                                                           \
        for (size_t i = 0; i < sizeof lane / sizeof lane[0]; i++)                                  \
            lane[i] = F(lane[i], other[i]);                                                        \
        memcpy(&x, lane, sizeof lane);                                                             \
        return x;                                                                                  \
    }

/* One function, type and arity for the three ISAs; the names are what
 * vecmath.c asks for: cpucl_lanes_<stem><f|d><lanes>_<isa> */
#define ISAS(LANES, STEM, T, E, NARROW, MIDDLE, WIDE, F)                                           \
    LANES(cpucl_lanes_##STEM##T##_sse2, NARROW, E, "sse2", F)                                      \
    LANES(cpucl_lanes_##STEM##T##_avx2, MIDDLE, E, "avx2", F)                                      \
    LANES(cpucl_lanes_##STEM##T##_avx512f, WIDE, E, "avx512f", F)
ISAS(LANES1, lgamma, f, float, f4, f8, f16, lgamma_float)
ISAS(LANES1, lgamma, d, double, d2, d4, d8, lgamma_double)
ISAS(LANES1, tgamma, d, double, d2, d4, d8, tgamma)
ISAS(LANES2, remainder, d, double, d2, d4, d8, remainder)

#define SYMBOL(NAME)                                                                               \
    {                                                                                              \
#NAME, (void *)NAME                                                                        \
    }
#define SYMBOLS(STEM, T)                                                                           \
    SYMBOL(cpucl_lanes_##STEM##T##_sse2), SYMBOL(cpucl_lanes_##STEM##T##_avx2),                    \
        SYMBOL(cpucl_lanes_##STEM##T##_avx512f)

static const struct cc_runtime_symbol symbols[] = {
    {"lgammaf", (void *)lgamma_float},
    {"lgamma", (void *)lgamma_double},
    SYMBOLS(lgamma, f),
    SYMBOLS(lgamma, d),
    SYMBOLS(tgamma, d),
    SYMBOLS(remainder, d),
};

const struct cc_runtime_symbol *cc_lanes_symbols(unsigned *count)
{
    *count = sizeof symbols / sizeof symbols[0];
    return symbols;
}

bool cc_is_lanes_symbol(const char *name)
{
    unsigned count;
    const struct cc_runtime_symbol *table = cc_lanes_symbols(&count);
    for (unsigned i = 2; i < count; i++) /* not the scalar lgamma ones */
        if (!strcmp(table[i].name, name))
            return true;
    return false;
}
