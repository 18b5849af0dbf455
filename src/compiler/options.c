/* options.c - the build options of API spec 5.8.4, turned into clang cc1
 * arguments.
 *
 * The option string is split like a shell would split it (whitespace
 * separates, single and double quotes group, a backslash escapes the next
 * character outside single quotes), so `-D NAME="a b"` defines NAME as `a b`
 * and `-I "/dir with spaces"` works. Every option the specification lists is
 * accepted; anything else is CL_INVALID_BUILD_OPTIONS with a log line naming
 * it (5.8.2: "invalid build options specified by options").
 */
#include <stdlib.h>
#include <string.h>

#include "compiler/internal.h"

/* Options passed to cc1 unchanged: cc1 knows them under the same name. */
static const char *const passed_through[] = {
    "-cl-single-precision-constant",
    "-cl-fp32-correctly-rounded-divide-sqrt",
    "-cl-mad-enable",
    "-cl-no-signed-zeros",
    "-cl-unsafe-math-optimizations",
    "-cl-finite-math-only",
    "-cl-fast-relaxed-math",
    "-cl-uniform-work-group-size",
    "-w",
    "-Werror",
};

/* Options that only grant the implementation a freedom (or ask what the
 * runtime, not the compiler, does): accepted, nothing to do here.
 * -cl-denorms-are-zero allows flushing (5.8.4.2), which the workers do
 * for the program's launches (src/api/program.c, src/devices/cpu/pool.c);
 * -cl-strict-aliasing is the OpenCL 1.0 option, deprecated since 1.1 and
 * still passed by old programs; -cl-no-subgroup-ifp (2.2) says the program
 * needs no independent forward progress of sub-groups. */
static const char *const accepted_only[] = {
    "-cl-denorms-are-zero",
    "-cl-strict-aliasing",
    "-cl-no-subgroup-ifp",
};

/* -cl-std's values; C++ for OpenCL 1.0 (cl_ext_cxx_for_opencl) is OpenCL C
 * 2.0 with C++17, under Clang's names for it */
static const struct {
    const char *option;
    int version;
    bool cxx;
} cl_std_values[] = {
    {"CL1.0", 100, false}, {"CL1.1", 110, false},   {"CL1.2", 120, false}, {"CL2.0", 200, false},
    {"CLC++", 200, true},  {"CLC++1.0", 200, true}, {"clc++", 200, true},  {"clc++1.0", 200, true},
};

/* Splits text into tokens. Returns the number of tokens, -1 on an
 * unterminated quote, -2 on allocation failure (nothing to free then). */
static int tokenize(const char *text, char ***tokens_out)
{
    char **tokens = NULL;
    int count = 0, status = 0;
    char *token = malloc(strlen(text) + 1);
    if (!token)
        return -2;
    const char *p = text;
    for (;;) {
        while (*p && strchr(" \t\n\r\f\v", *p))
            p++;
        if (!*p)
            break;
        size_t n = 0;
        char quote = 0;
        for (; *p && (quote || !strchr(" \t\n\r\f\v", *p)); p++) {
            if (quote == '\'') {
                if (*p == '\'')
                    quote = 0;
                else
                    token[n++] = *p;
            } else if (*p == '\\' && p[1] && (!quote || p[1] == '"' || p[1] == '\\')) {
                token[n++] = *++p;
            } else if (*p == '"' && quote) {
                quote = 0;
            } else if ((*p == '"' || *p == '\'') && !quote) {
                quote = *p;
            } else {
                token[n++] = *p;
            }
        }
        if (quote) {
            status = -1;
            break;
        }
        char **grown = realloc(tokens, (count + 1) * sizeof *tokens);
        char *copy = grown ? malloc(n + 1) : NULL;
        if (grown)
            tokens = grown;
        if (!copy) {
            status = -2;
            break;
        }
        memcpy(copy, token, n);
        copy[n] = 0;
        tokens[count++] = copy;
    }
    free(token);
    if (status) {
        while (count)
            free(tokens[--count]);
        free(tokens);
        return status;
    }
    *tokens_out = tokens;
    return count;
}

static bool add_arg(struct cc_options *options, const char *prefix, const char *value)
{
    size_t a = strlen(prefix), b = value ? strlen(value) : 0;
    char *arg = malloc(a + b + 1);
    char **grown =
        arg ? realloc(options->clang_args, (options->num_clang_args + 1) * sizeof *grown) : NULL;
    if (!grown) {
        free(arg);
        return false;
    }
    memcpy(arg, prefix, a);
    if (b)
        memcpy(arg + a, value, b);
    arg[a + b] = 0;
    options->clang_args = grown;
    options->clang_args[options->num_clang_args++] = arg;
    return true;
}

static bool in_list(const char *token, const char *const *list, size_t count)
{
    for (size_t i = 0; i < count; i++)
        if (!strcmp(token, list[i]))
            return true;
    return false;
}

/* A macro definition must start with a name (5.8.4.1: -D name,
 * -D name=definition); a function-like `-D 'f(x)=x'` is accepted as gcc
 * and clang accept it. */
static bool valid_macro(const char *definition)
{
    char c = definition[0];
    return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

cl_int cc_options_parse(const char *text, struct cc_options *options, struct cc_log *log)
{
    memset(options, 0, sizeof *options);
    options->cl_std = 120; /* 5.8.4.5: without -cl-std, the highest OpenCL C 1.x */
    char **tokens = NULL;
    int count = tokenize(text ? text : "", &tokens);
    if (count == -2)
        return CL_OUT_OF_HOST_MEMORY;
    if (count == -1) {
        cc_log_printf(log, "error: unterminated quote in build options\n");
        return CL_INVALID_BUILD_OPTIONS;
    }
    cl_int err = CL_SUCCESS;
    for (int i = 0; i < count && !err; i++) {
        const char *token = tokens[i];
        bool ok = true;
        if (!strcmp(token, "-D") || !strcmp(token, "-I")) {
            if (i + 1 == count || (token[1] == 'D' && !valid_macro(tokens[i + 1]))) {
                cc_log_printf(log, "error: build option '%s' needs a %s\n", token,
                              token[1] == 'D' ? "macro name" : "directory");
                err = CL_INVALID_BUILD_OPTIONS;
                break;
            }
            ok = add_arg(options, token, tokens[++i]);
        } else if (!strncmp(token, "-D", 2) || !strncmp(token, "-I", 2)) {
            if (token[1] == 'D' && !valid_macro(token + 2)) {
                cc_log_printf(log, "error: invalid macro definition in build option '%s'\n", token);
                err = CL_INVALID_BUILD_OPTIONS;
                break;
            }
            ok = add_arg(options, token, NULL);
        } else if (!strncmp(token, "-cl-std=", 8)) {
            size_t k, n = sizeof cl_std_values / sizeof cl_std_values[0];
            for (k = 0; k < n; k++)
                if (!strcmp(token + 8, cl_std_values[k].option))
                    break;
            if (k == n) {
                cc_log_printf(log,
                              "error: unsupported OpenCL C version in build option '%s' "
                              "(this device compiles CL1.0, CL1.1, CL1.2, CL2.0 and CLC++1.0)\n",
                              token);
                err = CL_INVALID_BUILD_OPTIONS;
                break;
            }
            options->cl_std = cl_std_values[k].version;
            options->cxx = cl_std_values[k].cxx;
        } else if (!strcmp(token, "-cl-opt-disable")) {
            options->opt_disable = true;
        } else if (!strcmp(token, "-cl-kernel-arg-info")) {
            options->kernel_arg_info = true;
            ok = add_arg(options, token, NULL);
        } else if (!strcmp(token, "-g")) {
            /* 5.8.4.7: debug information. Line tables are what a debugger of
             * JITed code can use. */
            ok = add_arg(options, "-debug-info-kind=line-tables-only", NULL) &&
                 add_arg(options, "-dwarf-version=5", NULL);
        } else if (in_list(token, passed_through,
                           sizeof passed_through / sizeof passed_through[0])) {
            ok = add_arg(options, token, NULL);
        } else if (in_list(token, accepted_only, sizeof accepted_only / sizeof accepted_only[0])) {
            /* nothing */
        } else {
            cc_log_printf(log, "error: invalid build option '%s'\n", token);
            err = CL_INVALID_BUILD_OPTIONS;
        }
        if (!ok)
            err = CL_OUT_OF_HOST_MEMORY;
    }
    for (int i = 0; i < count; i++)
        free(tokens[i]);
    free(tokens);
    if (err)
        cc_options_free(options);
    return err;
}

bool cc_options_have(const char *text, const char *name)
{
    char **tokens = NULL;
    int count = tokenize(text ? text : "", &tokens);
    bool found = false;
    for (int i = 0; i < count; i++) {
        if ((!strcmp(tokens[i], "-D") || !strcmp(tokens[i], "-I")) && i + 1 < count)
            free(tokens[i++]); /* its value is not an option */
        found |= !strcmp(tokens[i], name);
        free(tokens[i]);
    }
    free(tokens);
    return found;
}

void cc_options_free(struct cc_options *options)
{
    for (unsigned i = 0; i < options->num_clang_args; i++)
        free(options->clang_args[i]);
    free(options->clang_args);
    options->clang_args = NULL;
    options->num_clang_args = 0;
}
