/* printf.h - OpenCL C printf for JITed kernels (internal to src/devices/cpu). */
#ifndef CPUCL_DEVICES_CPU_PRINTF_H
#define CPUCL_DEVICES_CPU_PRINTF_H

#include <stdint.h>

/* The function the compiler's printf calls reach (compiler.h,
 * CC_PRINTF_SYMBOL): prints one call's output to stdout in one piece;
 * 0 on success, -1 when the format is one the spec leaves undefined or the
 * output cannot be written. */
int cpu_printf(const char *format, uint32_t count, const uint32_t *sizes, const void *data);

/* Flushes stdout if a printf wrote since the last flush: called when a
 * kernel job ends, before its event completes. */
void cpu_printf_flush(void);

#endif
