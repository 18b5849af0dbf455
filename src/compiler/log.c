/* log.c - the build log every compiler step writes to (cc_log_append,
 * cc_log_printf), LLVM's diagnostics turned into its lines, and two
 * debugging aids: CPUCL_DUMP_IR (modules to stderr) and CPUCL_BUILD_TIMES
 * (each build step's time to stderr). */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "compiler/internal.h"

/* --- build log --- */

void cc_log_append(struct cc_log *log, const char *text, size_t length)
{
    if (log->length + length + 1 > log->capacity) {
        size_t capacity = log->capacity ? log->capacity : 256;
        while (capacity < log->length + length + 1)
            capacity *= 2;
        char *grown = realloc(log->text, capacity);
        if (!grown) {
            log->failed = true;
            return;
        }
        log->text = grown;
        log->capacity = capacity;
    }
    memcpy(log->text + log->length, text, length);
    log->length += length;
    log->text[log->length] = 0;
}

void cc_log_printf(struct cc_log *log, const char *format, ...)
{
    char small[512];
    va_list ap;
    va_start(ap, format);
    int n = vsnprintf(small, sizeof small, format, ap);
    va_end(ap);
    if (n < 0)
        return;
    if ((size_t)n < sizeof small) {
        cc_log_append(log, small, (size_t)n);
        return;
    }
    char *big = malloc((size_t)n + 1);
    if (!big) {
        log->failed = true;
        return;
    }
    va_start(ap, format);
    vsnprintf(big, (size_t)n + 1, format, ap);
    va_end(ap);
    cc_log_append(log, big, (size_t)n);
    free(big);
}

/* --- LLVM diagnostics and debugging aids --- */

void cc_diagnostic_handler(LLVMDiagnosticInfoRef info, void *context)
{
    struct cc_diagnostics *d = context;
    LLVMDiagnosticSeverity severity = LLVMGetDiagInfoSeverity(info);
    if (severity != LLVMDSError && severity != LLVMDSWarning)
        return;
    char *text = LLVMGetDiagInfoDescription(info);
    cc_log_printf(d->log, "%s: %s\n", severity == LLVMDSError ? "error" : "warning", text);
    LLVMDisposeMessage(text);
    if (severity == LLVMDSError)
        d->error = true;
}

static pthread_mutex_t dump_lock = PTHREAD_MUTEX_INITIALIZER;

/* CPUCL_DUMP_IR=1 prints the optimised module of every build to stderr;
 * CPUCL_DUMP_IR=all also the front end's output and the module before
 * optimisation. */
void cc_dump(LLVMModuleRef module, const char *stage, bool final_stage)
{
    const char *setting = getenv("CPUCL_DUMP_IR");
    if (!setting || !*setting || !strcmp(setting, "0"))
        return;
    if (!final_stage && strcmp(setting, "all"))
        return;
    char *text = LLVMPrintModuleToString(module);
    pthread_mutex_lock(&dump_lock);
    fprintf(stderr, "; ---- cpucl: %s ----\n%s", stage, text);
    pthread_mutex_unlock(&dump_lock);
    LLVMDisposeMessage(text);
}

void cc_timer_start(struct cc_timer *t)
{
    const char *setting = getenv("CPUCL_BUILD_TIMES");
    t->on = setting && *setting && strcmp(setting, "0");
    t->length = 0;
    if (t->on)
        clock_gettime(CLOCK_MONOTONIC, &t->last);
}

void cc_timer_step(struct cc_timer *t, const char *step)
{
    if (!t->on)
        return;
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    double ms = (now.tv_sec - t->last.tv_sec) * 1e3 + (now.tv_nsec - t->last.tv_nsec) / 1e6;
    t->last = now;
    if (t->length < sizeof t->text)
        t->length +=
            (size_t)snprintf(t->text + t->length, sizeof t->text - t->length, " %s %.1f", step, ms);
}

void cc_timer_report(const struct cc_timer *t, const char *what)
{
    if (t->on && t->length)
        fprintf(stderr, "cpucl: %s (ms):%s\n", what, t->text);
}
