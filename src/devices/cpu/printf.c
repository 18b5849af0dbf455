/* printf.c - OpenCL C printf (6.13.13) on the host's stdout.
 *
 * The compiler turns each printf call into a call of cpu_printf with the
 * arguments in memory (compiler.h, CC_PRINTF_SYMBOL). Here the OpenCL format
 * is parsed, each conversion is formatted with the C library's snprintf
 * (a vector conversion once per element, elements joined by ','), and the
 * whole output of the call goes to stdout in one fwrite under the stream's
 * lock, so the output of one work-item's printf call is never interleaved
 * with another's. cpu_printf_flush, called when a kernel job ends and
 * before its event completes, flushes stdout, so the output is visible
 * once the kernel has finished (6.13.13.1).
 *
 * A conversion the spec leaves undefined (unknown conversion, a vector
 * without a length modifier, hl on a scalar, a missing argument or one of
 * the wrong size) is copied to the output as written and makes the call
 * return -1; it never reads past the arguments.
 */
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "devices/cpu/printf.h"

/* CL_DEVICE_PRINTF_BUFFER_SIZE (src/api/device.c): no single call prints
 * more, so a huge field width cannot exhaust memory. */
#define MAX_CALL_OUTPUT (1u << 20)

static atomic_bool output_pending;

struct output {
    char *text;
    size_t length, capacity;
    bool failed;
    char small[512];
};

static void output_reserve(struct output *out, size_t more)
{
    if (out->failed)
        return;
    if (out->length + more > MAX_CALL_OUTPUT) {
        out->failed = true;
        return;
    }
    if (out->length + more + 1 <= out->capacity)
        return;
    size_t capacity = out->capacity * 2;
    while (capacity < out->length + more + 1)
        capacity *= 2;
    char *text = out->text == out->small ? malloc(capacity) : realloc(out->text, capacity);
    if (!text) {
        out->failed = true;
        return;
    }
    if (out->text == out->small)
        memcpy(text, out->small, out->length);
    out->text = text;
    out->capacity = capacity;
}

static void output_append(struct output *out, const char *text, size_t length)
{
    output_reserve(out, length);
    if (out->failed)
        return;
    memcpy(out->text + out->length, text, length);
    out->length += length;
}

/* Appends snprintf(spec, value...) for one value of the type spec wants. */
static void output_format(struct output *out, const char *spec, ...)
{
    va_list ap, again;
    va_start(ap, spec);
    va_copy(again, ap);
    size_t room = out->failed ? 0 : out->capacity - out->length;
    int n = out->failed ? -1 : vsnprintf(out->text + out->length, room, spec, ap);
    if (n < 0) {
        out->failed = true;
    } else if ((size_t)n < room) {
        out->length += (size_t)n;
    } else {
        output_reserve(out, (size_t)n);
        if (!out->failed) {
            vsnprintf(out->text + out->length, (size_t)n + 1, spec, again);
            out->length += (size_t)n;
        }
    }
    va_end(again);
    va_end(ap);
}

/* IEEE half to double, exactly (6.13.13.2: %hf vector elements). */
static double half_to_double(uint16_t h)
{
    int sign = h >> 15, exponent = (h >> 10) & 0x1f, mantissa = h & 0x3ff;
    double value;
    if (exponent == 0)
        value = mantissa * 0x1p-24;
    else if (exponent == 31)
        value = mantissa ? __builtin_nan("") : __builtin_inf();
    else
        value = (1024 + mantissa) * __builtin_ldexp(1.0, exponent - 25);
    return sign ? -value : value;
}

enum length { LENGTH_NONE, LENGTH_HH, LENGTH_H, LENGTH_HL, LENGTH_L };

/* One parsed conversion specification. */
struct spec {
    char flags[8]; /* each of "-+ #0" at most once */
    unsigned width, precision;
    bool has_width, has_precision;
    unsigned vector; /* 0 for a scalar, else 2, 3, 4, 8 or 16 */
    enum length length;
    char conversion;
};

/* Parses the specification after '%'; returns the character after it, or
 * NULL when it is not one the spec defines. */
static const char *parse_spec(const char *p, struct spec *spec)
{
    memset(spec, 0, sizeof *spec);
    size_t n = 0;
    while (*p && strchr("-+ #0", *p)) {
        if (!memchr(spec->flags, *p, n))
            spec->flags[n++] = *p;
        p++;
    }
    for (; *p >= '0' && *p <= '9'; p++) {
        spec->has_width = true;
        spec->width = spec->width * 10 + (unsigned)(*p - '0');
        if (spec->width > MAX_CALL_OUTPUT)
            return NULL;
    }
    if (*p == '.') {
        spec->has_precision = true;
        for (p++; *p >= '0' && *p <= '9'; p++) {
            spec->precision = spec->precision * 10 + (unsigned)(*p - '0');
            if (spec->precision > MAX_CALL_OUTPUT)
                return NULL;
        }
    }
    if (*p == 'v') {
        p++;
        if (p[0] == '1' && p[1] == '6') {
            spec->vector = 16;
            p += 2;
        } else if (*p == '2' || *p == '3' || *p == '4' || *p == '8') {
            spec->vector = (unsigned)(*p++ - '0');
        } else {
            return NULL;
        }
    }
    if (p[0] == 'h' && p[1] == 'h') {
        spec->length = LENGTH_HH;
        p += 2;
    } else if (p[0] == 'h' && p[1] == 'l') {
        spec->length = LENGTH_HL;
        p += 2;
    } else if (*p == 'h') {
        spec->length = LENGTH_H;
        p++;
    } else if (*p == 'l') {
        spec->length = LENGTH_L;
        p++;
    }
    if (!*p || !strchr("diouxXfFeEgGaAcsp", *p))
        return NULL;
    spec->conversion = *p++;
    bool is_float = strchr("fFeEgGaA", spec->conversion) != NULL;
    bool is_integer = strchr("diouxX", spec->conversion) != NULL;
    if (spec->vector) {
        /* 6.13.13.2: a vector conversion needs a length modifier; hh is
         * for integers only; c, s and p take no vectors */
        if (spec->length == LENGTH_NONE || (!is_float && !is_integer) ||
            (is_float && spec->length == LENGTH_HH))
            return NULL;
    } else if (spec->length == LENGTH_HL) {
        return NULL; /* hl is only for vectors */
    } else if (spec->length != LENGTH_NONE && !is_integer &&
               !(is_float && spec->length == LENGTH_L)) {
        return NULL; /* %hf, %lc, %ls, %lp: not OpenCL C */
    }
    return p;
}

/* The snprintf specification for one value: flags, width, precision, the
 * given C length modifier and the conversion. */
static void host_spec(const struct spec *spec, const char *c_length, char *text, size_t size)
{
    char width[16] = "", precision[16] = "";
    if (spec->has_width)
        snprintf(width, sizeof width, "%u", spec->width);
    if (spec->has_precision)
        snprintf(precision, sizeof precision, ".%u", spec->precision);
    snprintf(text, size, "%%%s%s%s%s%c", spec->flags, width, precision, c_length, spec->conversion);
}

static int64_t load_unsigned(const unsigned char *at, size_t size)
{
    switch (size) {
    case 1: return at[0];
    case 2: {
        uint16_t v;
        memcpy(&v, at, 2);
        return v;
    }
    case 4: {
        uint32_t v;
        memcpy(&v, at, 4);
        return v;
    }
    default: {
        int64_t v;
        memcpy(&v, at, 8);
        return v;
    }
    }
}

static int64_t load_signed(const unsigned char *at, size_t size)
{
    switch (size) {
    case 1: return (int8_t)at[0];
    case 2: {
        int16_t v;
        memcpy(&v, at, 2);
        return v;
    }
    case 4: {
        int32_t v;
        memcpy(&v, at, 4);
        return v;
    }
    default: {
        int64_t v;
        memcpy(&v, at, 8);
        return v;
    }
    }
}

/* An integer as the length modifier says: char, short, int or long. */
static void format_integer(struct output *out, const struct spec *spec, const char *host,
                           int64_t value)
{
    bool is_signed = spec->conversion == 'd' || spec->conversion == 'i';
    switch (spec->length) {
    case LENGTH_HH: value = is_signed ? (int64_t)(int8_t)value : (int64_t)(uint8_t)value; break;
    case LENGTH_H: value = is_signed ? (int64_t)(int16_t)value : (int64_t)(uint16_t)value; break;
    case LENGTH_L: break;
    default: value = is_signed ? (int64_t)(int32_t)value : (int64_t)(uint32_t)value; break;
    }
    if (is_signed)
        output_format(out, host, (long long)value);
    else
        output_format(out, host, (unsigned long long)value);
}

/* Formats one conversion whose argument is `size` bytes at `at`; false
 * when the size is not the one the conversion needs. */
static bool format_argument(struct output *out, const struct spec *spec, const unsigned char *at,
                            uint32_t size)
{
    char host[64];
    bool is_float = strchr("fFeEgGaA", spec->conversion) != NULL;
    if (spec->vector) {
        static const unsigned element_sizes[] = {
            [LENGTH_HH] = 1, [LENGTH_H] = 2, [LENGTH_HL] = 4, [LENGTH_L] = 8};
        size_t element = element_sizes[spec->length];
        size_t stored = spec->vector == 3 ? 4 : spec->vector; /* 6.1.5: vec3 takes vec4's space */
        if (size != element * stored)
            return false;
        host_spec(spec, is_float ? "" : "ll", host, sizeof host);
        for (unsigned i = 0; i < spec->vector; i++) {
            const unsigned char *e = at + i * element;
            if (i)
                output_append(out, ",", 1);
            if (!is_float) {
                format_integer(out, spec, host, load_signed(e, element));
            } else if (element == 2) {
                uint16_t h;
                memcpy(&h, e, 2);
                output_format(out, host, half_to_double(h));
            } else if (element == 4) {
                float f;
                memcpy(&f, e, 4);
                output_format(out, host, (double)f);
            } else {
                double d;
                memcpy(&d, e, 8);
                output_format(out, host, d);
            }
        }
        return true;
    }
    switch (spec->conversion) {
    case 'c':
        if (size != 1 && size != 2 && size != 4 && size != 8)
            return false;
        host_spec(spec, "", host, sizeof host);
        output_format(out, host, (int)(unsigned char)at[0]);
        return true;
    case 's':
    case 'p': {
        if (size != sizeof(void *))
            return false;
        const void *pointer;
        memcpy(&pointer, at, sizeof pointer);
        host_spec(spec, "", host, sizeof host);
        if (spec->conversion == 's' && !pointer)
            output_format(out, host, "(null)");
        else
            output_format(out, host, pointer);
        return true;
    }
    default: break;
    }
    if (is_float) {
        double value;
        if (size == 8) {
            memcpy(&value, at, 8);
        } else if (size == 4) {
            float f;
            memcpy(&f, at, 4);
            value = f;
        } else {
            return false;
        }
        host_spec(spec, "", host, sizeof host);
        output_format(out, host, value);
        return true;
    }
    /* 1 and 2 bytes: a char or short from SPIR-V, which does not promote;
     * widened as the conversion's signedness suggests */
    if (size != 1 && size != 2 && size != 4 && size != 8)
        return false;
    host_spec(spec, "ll", host, sizeof host);
    bool is_signed = spec->conversion == 'd' || spec->conversion == 'i';
    format_integer(out, spec, host, is_signed ? load_signed(at, size) : load_unsigned(at, size));
    return true;
}

int cpu_printf(const char *format, uint32_t count, const uint32_t *sizes, const void *data)
{
    struct output out = {.text = NULL, .capacity = sizeof out.small};
    out.text = out.small;
    const unsigned char *args = data;
    size_t offset = 0;
    uint32_t next = 0;
    bool undefined = false;

    for (const char *p = format; *p;) {
        if (*p != '%') {
            const char *percent = strchr(p, '%');
            size_t n = percent ? (size_t)(percent - p) : strlen(p);
            output_append(&out, p, n);
            p += n;
            continue;
        }
        if (p[1] == '%') {
            output_append(&out, "%", 1);
            p += 2;
            continue;
        }
        struct spec spec;
        const char *end = parse_spec(p + 1, &spec);
        if (!end) {
            /* copy the '%' and go on with the text after it */
            undefined = true;
            output_append(&out, "%", 1);
            p++;
            continue;
        }
        if (next >= count || !format_argument(&out, &spec, args + offset, sizes[next])) {
            undefined = true;
            output_append(&out, p, (size_t)(end - p));
        }
        if (next < count) {
            offset += ((size_t)sizes[next] + 7) & ~(size_t)7;
            next++;
        }
        p = end;
    }

    int result = -1;
    if (!out.failed) {
        /* one fwrite: the stream's lock keeps the call's output whole */
        size_t written = fwrite(out.text, 1, out.length, stdout);
        atomic_store(&output_pending, true);
        if (written == out.length && !undefined)
            result = 0;
    }
    if (out.text != out.small)
        free(out.text);
    return result;
}

void cpu_printf_flush(void)
{
    if (atomic_exchange(&output_pending, false))
        fflush(stdout);
}
