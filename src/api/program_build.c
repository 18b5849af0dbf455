/* program_build.c - building programs (API spec 5.8.2-5.8.5):
 * clBuildProgram (on a thread of its own when given a callback),
 * clCompileProgram and clLinkProgram; each records its outcome (log,
 * options, executable or object) in the program under its lock. */
#include <pthread.h>
#include <stdlib.h>

#include "api/api.h"

static char *join_kernel_names(const struct cc_program *built)
{
    size_t total = 1;
    unsigned n = cc_program_num_kernels(built);
    for (unsigned i = 0; i < n; i++)
        total += strlen(cc_program_kernel(built, i)->name) + 1;
    char *names = malloc(total);
    if (!names)
        return NULL;
    names[0] = 0;
    for (unsigned i = 0; i < n; i++) {
        if (i)
            strcat(names, ";");
        strcat(names, cc_program_kernel(built, i)->name);
    }
    return names;
}

/* 5.8.4.7 and 5.10 (clEnqueueNDRangeKernel): non-uniform work-groups
 * exist unless -cl-uniform-work-group-size is given, for a program from
 * source only when built as OpenCL C 2.0 or newer; a program from IL or a
 * binary has them by default. */
static bool allows_non_uniform(const cl_program program, const char *options)
{
    if (cc_options_have(options, "-cl-uniform-work-group-size"))
        return false;
    if (!program->source)
        return true;
    static const char *const two[] = {"-cl-std=CL2.0",   "-cl-std=CL3.0",    "-cl-std=cl2.0",
                                      "-cl-std=CLC++",   "-cl-std=CLC++1.0", "-cl-std=clc++",
                                      "-cl-std=clc++1.0"};
    for (size_t i = 0; i < sizeof two / sizeof two[0]; i++)
        if (cc_options_have(options, two[i]))
            return true;
    return false;
}

/* 5.8.2: a program from SPIR-V is translated, then linked on its own. */
static cl_int build_il(cl_program program, char **log, struct cc_program **built)
{
    void *object = NULL, *library = NULL;
    size_t object_size = 0, library_size = 0;
    cl_int err = cc_translate_spirv(program->il, program->il_size, program->spec_constants,
                                    program->num_spec_constants, log, &object, &object_size);
    if (!err) {
        char *link_log = NULL;
        const void *input = object;
        err = cc_link(1, &input, &object_size, "", &link_log, built, &library, &library_size);
        free(library);
        if (link_log && *link_log) {
            size_t a = strlen(*log), b = strlen(link_log);
            char *joined = realloc(*log, a + b + 1);
            if (joined) {
                memcpy(joined + a, link_log, b + 1);
                *log = joined;
            }
        }
        free(link_log);
    }
    free(object);
    if (err == CL_LINK_PROGRAM_FAILURE || err == CL_INVALID_BINARY)
        err = CL_BUILD_PROGRAM_FAILURE;
    return err;
}

/* What a build or compile produced; record_outcome takes it all over. */
struct build_outcome {
    cl_int err;
    char *log, *options;
    struct cc_program *built; /* a build's executable, with its kernel names */
    char *names;
    void *object; /* a compile's object */
    size_t object_size;
    cl_program_binary_type type; /* on success */
};

/* Replaces the program's build state with the outcome (freeing what it
 * replaces, and on failure the outcome's results). A compile replaces the
 * object; a build keeps it, since a program from a binary is rebuilt from it. */
static void record_outcome(cl_program program, struct build_outcome *o, bool replaces_object)
{
    pthread_mutex_lock(&program->lock);
    if (program->built)
        cc_program_free(program->built);
    free(program->build_log);
    free(program->build_options);
    free(program->kernel_names);
    program->built = o->err ? NULL : o->built;
    program->kernel_names = o->err ? NULL : o->names;
    if (replaces_object) {
        free(program->object);
        program->object = o->err ? NULL : o->object;
        program->object_size = o->err ? 0 : o->object_size;
    }
    program->build_log = o->log;
    program->build_options = o->options;
    program->build_status = o->err ? CL_BUILD_ERROR : CL_BUILD_SUCCESS;
    program->binary_type =
        o->err ? (replaces_object ? CL_PROGRAM_BINARY_TYPE_NONE : program->binary_type) : o->type;
    program->non_uniform = allows_non_uniform(program, o->options);
    program->flush_denormals = cc_options_have(o->options, "-cl-denorms-are-zero");
    pthread_mutex_unlock(&program->lock);
    if (o->err) {
        if (o->built)
            cc_program_free(o->built);
        free(o->names);
        free(o->object);
    }
}

/* Marks the program as building, unless a build or compile of it is under
 * way (or its callback has not run yet) or kernels are attached to it:
 * 5.8.2 and 5.8.3 make those CL_INVALID_OPERATION. */
static bool begin_build(cl_program program)
{
    pthread_mutex_lock(&program->lock);
    bool free_to_build = program->build_status != CL_BUILD_IN_PROGRESS &&
                         !program->build_callback_pending && !program->kernels_attached;
    if (free_to_build)
        program->build_status = CL_BUILD_IN_PROGRESS;
    pthread_mutex_unlock(&program->lock);
    return free_to_build;
}

/* Builds the program for its device with `options` (taken over) and
 * records the outcome; returns clBuildProgram's code. */
static cl_int build_now(cl_program program, char *options)
{
    char *log = NULL, *names = NULL;
    struct cc_program *built = NULL;
    cl_int err;
    if (program->source) {
        err = cc_build(program->source, options, &log, &built);
    } else if (program->il) {
        err = build_il(program, &log, &built);
    } else {
        /* 5.8.2: a program from a binary is built by linking that binary. */
        void *library = NULL;
        size_t library_size;
        const void *object = program->object;
        err = cc_link(1, &object, &program->object_size, "", &log, &built, &library, &library_size);
        free(library);
        if (err == CL_LINK_PROGRAM_FAILURE || err == CL_INVALID_BINARY)
            err = CL_BUILD_PROGRAM_FAILURE;
    }
    if (!err && !(names = join_kernel_names(built)))
        err = CL_OUT_OF_HOST_MEMORY;

    struct build_outcome outcome = {err,   log,  options, built,
                                    names, NULL, 0,       CL_PROGRAM_BINARY_TYPE_EXECUTABLE};
    record_outcome(program, &outcome, false);
    if (err == CL_INVALID_BUILD_OPTIONS || err == CL_OUT_OF_HOST_MEMORY)
        return err;
    return err ? CL_BUILD_PROGRAM_FAILURE : CL_SUCCESS;
}

struct async_build {
    cl_program program; /* held */
    char *options;
    void(CL_CALLBACK *notify)(cl_program, void *);
    void *user_data;
};

/* Builds running on threads of their own. A fork waits for them (as for a
 * launch copy being compiled, src/compiler/background.c): the child has
 * only the forking thread, and a build cut off there would leave its
 * program building forever and LLVM's locks held. The callback is not
 * waited for: it is the application's, and may wait for the forking
 * thread. */
static pthread_mutex_t async_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t async_done = PTHREAD_COND_INITIALIZER;
static unsigned async_running;
static pthread_once_t async_hooks_once = PTHREAD_ONCE_INIT;

static void async_before_fork(void)
{
    pthread_mutex_lock(&async_lock);
    while (async_running)
        pthread_cond_wait(&async_done, &async_lock);
}

static void async_after_fork_parent(void)
{
    pthread_mutex_unlock(&async_lock);
}

static void async_after_fork_child(void)
{
    pthread_cond_init(&async_done, NULL);
    pthread_mutex_unlock(&async_lock);
}

static void register_async_hooks(void)
{
    pthread_atfork(async_before_fork, async_after_fork_parent, async_after_fork_child);
}

static void *run_async_build(void *arg)
{
    struct async_build *job = arg;
    build_now(job->program, job->options);
    pthread_mutex_lock(&async_lock);
    async_running--;
    pthread_cond_broadcast(&async_done);
    pthread_mutex_unlock(&async_lock);
    job->notify(job->program, job->user_data);
    pthread_mutex_lock(&job->program->lock);
    job->program->build_callback_pending = false;
    pthread_mutex_unlock(&job->program->lock);
    rt_object_unhold(RT_OBJ(job->program));
    free(job);
    return NULL;
}

/* 0 when the build runs on a new thread (which then owns `options`). */
static int start_build(cl_program program, char *options,
                       void(CL_CALLBACK *notify)(cl_program, void *), void *user_data, char *log)
{
    free(log);
    struct async_build *job = malloc(sizeof *job);
    if (!job)
        return -1;
    *job = (struct async_build){program, options, notify, user_data};
    rt_object_hold(RT_OBJ(program));
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    /* Clang and LLVM recurse deeply on large sources: the main thread's size */
    pthread_attr_setstacksize(&attr, 8u << 20);
    pthread_once(&async_hooks_once, register_async_hooks);
    /* 5.8.2: until the callback has run the build is not over for the
     * application: another build of the program is CL_INVALID_OPERATION,
     * and the callback sees its own build's status */
    pthread_mutex_lock(&program->lock);
    program->build_callback_pending = true;
    pthread_mutex_unlock(&program->lock);
    pthread_mutex_lock(&async_lock);
    pthread_t thread;
    int failed = pthread_create(&thread, &attr, run_async_build, job);
    async_running += !failed;
    pthread_mutex_unlock(&async_lock);
    pthread_attr_destroy(&attr);
    if (failed) {
        pthread_mutex_lock(&program->lock);
        program->build_callback_pending = false;
        pthread_mutex_unlock(&program->lock);
        rt_object_unhold(RT_OBJ(program));
        free(job);
        return -1;
    }
    return 0;
}

API_EXPORT CL_API_ENTRY cl_int CL_API_CALL clBuildProgram(
    cl_program program, cl_uint num_devices, const cl_device_id *device_list, const char *options,
    void(CL_CALLBACK *pfn_notify)(cl_program, void *), void *user_data)
{
    if (!api_valid_program(program))
        return CL_INVALID_PROGRAM;
    cl_int err = api_check_device_list(program->context, num_devices, device_list);
    if (err)
        return err;
    if (!pfn_notify && user_data)
        return CL_INVALID_VALUE;
    if (!program->source && !program->object && !program->il)
        return CL_INVALID_BINARY;

    char *options_copy = strdup(options ? options : "");
    if (!options_copy)
        return CL_OUT_OF_HOST_MEMORY;
    if (!begin_build(program)) {
        free(options_copy);
        return CL_INVALID_OPERATION;
    }

    /* 5.8.2: with a callback, clBuildProgram "can return immediately once
     * the build operation can begin": the build runs on its own thread,
     * holding the program, and calls pfn_notify at the end. Options are
     * checked first, so that bad ones are still this call's error. */
    if (pfn_notify) {
        char *log = NULL;
        err = cc_check_options(options_copy, &log);
        if (!err && start_build(program, options_copy, pfn_notify, user_data, log) == 0)
            return CL_SUCCESS;
        if (err) {
            struct build_outcome outcome = {err, log, options_copy, NULL, NULL, NULL, 0, 0};
            record_outcome(program, &outcome, false);
            pfn_notify(program, user_data);
            return err;
        }
        free(log); /* no thread: build here */
    }
    err = build_now(program, options_copy);
    if (pfn_notify)
        pfn_notify(program, user_data);
    return err;
}

API_EXPORT CL_API_ENTRY cl_int CL_API_CALL clUnloadCompiler(void)
{
    /* 5.8.6: a hint that the compiler may be unloaded; LLVM stays loaded
     * because later builds would need it again. */
    return CL_SUCCESS;
}

API_EXPORT CL_API_ENTRY cl_int CL_API_CALL clUnloadPlatformCompiler(cl_platform_id platform)
{
    if (!api_valid_platform(platform))
        return CL_INVALID_PLATFORM;
    return CL_SUCCESS;
}

/* --- separate compilation and linking (5.8.3, 5.8.4) --- */

API_EXPORT CL_API_ENTRY cl_int CL_API_CALL clCompileProgram(
    cl_program program, cl_uint num_devices, const cl_device_id *device_list, const char *options,
    cl_uint num_input_headers, const cl_program *input_headers, const char **header_include_names,
    void(CL_CALLBACK *pfn_notify)(cl_program, void *), void *user_data)
{
    if (!api_valid_program(program))
        return CL_INVALID_PROGRAM;
    cl_int err = api_check_device_list(program->context, num_devices, device_list);
    if (err)
        return err;
    if ((num_input_headers == 0) != (input_headers == NULL) ||
        (num_input_headers == 0) != (header_include_names == NULL) || (!pfn_notify && user_data))
        return CL_INVALID_VALUE;
    const char **sources = calloc(num_input_headers ? num_input_headers : 1, sizeof *sources);
    if (!sources)
        return CL_OUT_OF_HOST_MEMORY;
    for (cl_uint i = 0; i < num_input_headers; i++) {
        if (!api_valid_program(input_headers[i]) || !header_include_names[i]) {
            free(sources);
            return header_include_names[i] ? CL_INVALID_PROGRAM : CL_INVALID_VALUE;
        }
        sources[i] = input_headers[i]->source ? input_headers[i]->source : "";
    }
    if (!program->source && !program->il) {
        free(sources);
        return CL_INVALID_OPERATION;
    }
    if (!begin_build(program)) {
        free(sources);
        return CL_INVALID_OPERATION;
    }

    char *log = NULL, *options_copy = strdup(options ? options : "");
    void *object = NULL;
    size_t object_size = 0;
    if (!options_copy)
        err = CL_OUT_OF_HOST_MEMORY;
    else if (program->il) /* 5.8.3: headers and options do not apply to IL */
        err = cc_translate_spirv(program->il, program->il_size, program->spec_constants,
                                 program->num_spec_constants, &log, &object, &object_size);
    else
        err = cc_compile(program->source, options_copy, num_input_headers,
                         (const char *const *)header_include_names, sources, &log, &object,
                         &object_size);
    if (err == CL_BUILD_PROGRAM_FAILURE)
        err = CL_COMPILE_PROGRAM_FAILURE;
    free(sources);
    if (err == CL_INVALID_BUILD_OPTIONS)
        err = CL_INVALID_COMPILER_OPTIONS;

    struct build_outcome outcome = {
        err,  log,    options_copy, NULL,
        NULL, object, object_size,  CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT};
    record_outcome(program, &outcome, true);
    if (pfn_notify)
        pfn_notify(program, user_data);
    return err;
}

API_EXPORT CL_API_ENTRY cl_program CL_API_CALL clLinkProgram(
    cl_context context, cl_uint num_devices, const cl_device_id *device_list, const char *options,
    cl_uint num_input_programs, const cl_program *input_programs,
    void(CL_CALLBACK *pfn_notify)(cl_program, void *), void *user_data, cl_int *errcode_ret)
{
    cl_int err;
    if (!api_valid_context(context)) {
        err = CL_INVALID_CONTEXT;
        goto fail;
    }
    if ((err = api_check_device_list(context, num_devices, device_list)))
        goto fail;
    if (num_input_programs == 0 || !input_programs || (!pfn_notify && user_data)) {
        err = CL_INVALID_VALUE;
        goto fail;
    }
    for (cl_uint i = 0; i < num_input_programs; i++) {
        if (!api_valid_program(input_programs[i])) {
            err = CL_INVALID_PROGRAM;
            goto fail;
        }
    }
    const void **objects = calloc(num_input_programs, sizeof *objects);
    size_t *sizes = calloc(num_input_programs, sizeof *sizes);
    if (!objects || !sizes) {
        free(objects);
        free(sizes);
        err = CL_OUT_OF_HOST_MEMORY;
        goto fail;
    }
    /* Inputs are held while their bitcode is read: another thread may not
     * rebuild them meanwhile (5.8.4 makes that the application's duty). */
    bool non_uniform = true;
    for (cl_uint i = 0; i < num_input_programs; i++) {
        cl_program input = input_programs[i];
        pthread_mutex_lock(&input->lock);
        int usable =
            input->object && (input->binary_type == CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT ||
                              input->binary_type == CL_PROGRAM_BINARY_TYPE_LIBRARY);
        objects[i] = input->object;
        sizes[i] = input->object_size;
        non_uniform &= input->non_uniform;
        pthread_mutex_unlock(&input->lock);
        if (!usable) {
            free(objects);
            free(sizes);
            err = CL_INVALID_OPERATION;
            goto fail;
        }
    }
    char *log = NULL;
    struct cc_program *built = NULL;
    void *library = NULL;
    size_t library_size = 0;
    err =
        cc_link(num_input_programs, objects, sizes, options, &log, &built, &library, &library_size);
    free(objects);
    free(sizes);
    if (err == CL_INVALID_LINKER_OPTIONS || err == CL_OUT_OF_HOST_MEMORY) {
        free(log);
        goto fail;
    }
    char *names = built ? join_kernel_names(built) : NULL;
    cl_program program = api_new_program(context, NULL);
    char *options_copy = strdup(options ? options : "");
    if (!program || !options_copy || (built && !names)) {
        if (program)
            rt_object_release(RT_OBJ(program));
        if (built)
            cc_program_free(built);
        free(library), free(names), free(log), free(options_copy);
        err = CL_OUT_OF_HOST_MEMORY;
        goto fail;
    }
    program->build_log = log;
    program->build_options = options_copy;
    program->non_uniform = non_uniform;
    /* 5.8.5.1: -cl-denorms-are-zero is a linker option too */
    program->flush_denormals = cc_options_have(options, "-cl-denorms-are-zero");
    if (err) {
        program->build_status = CL_BUILD_ERROR;
    } else if (built) {
        program->built = built;
        program->kernel_names = names;
        program->binary_type = CL_PROGRAM_BINARY_TYPE_EXECUTABLE;
        program->build_status = CL_BUILD_SUCCESS;
    } else {
        program->object = library;
        program->object_size = library_size;
        program->binary_type = CL_PROGRAM_BINARY_TYPE_LIBRARY;
        program->build_status = CL_BUILD_SUCCESS;
    }
    if (pfn_notify)
        pfn_notify(program, user_data);
    /* 5.8.4: a failed link still returns the program, so its log can be read. */
    api_set_error(errcode_ret, err);
    return program;
fail:
    api_set_error(errcode_ret, err);
    return NULL;
}
