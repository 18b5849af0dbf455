/* background.c - the background compiler: one thread for the process,
 * started at the first launch copy it is given (codegen.c), compiling the
 * copies in the order they were asked for, below the kernels' priority.
 *
 * A launch never waits for a copy (compiling one took up to 1.2 s, which
 * an application met at its third launch: inside clpeak's timed loop,
 * float4 ran at 30 GFLOPS where its general code gives 76). A program's
 * release drops its copies still waiting and waits for the one being
 * compiled (cc_cancel_launch_copies); at the process's exit the queue is
 * dropped and the copy being compiled finished first, so no compilation
 * runs while the exit destroys LLVM's static objects (stop_background,
 * registered with atexit after LLVM's constructors ran, so it runs before
 * their destructors).
 *
 * fork(): the child has only the thread that called it. The fork waits
 * for the copy being compiled (no LLVM lock or JIT state is left half
 * held for the child) and holds the queue's lock across; the child drops
 * the queue, whose copies its later launches ask for again, and starts
 * its own thread at its next copy.
 */
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>

#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "compiler/internal.h"

struct copy_job {
    struct cc_program *program;
    unsigned index;
    struct cc_launch_copy *copy;
    struct copy_job *next;
};

static pthread_mutex_t background_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t background_changed = PTHREAD_COND_INITIALIZER;
static struct copy_job *queue_head, **queue_end = &queue_head;
static const struct cc_program *compiling; /* the program of the copy compiled now */
static bool background_started, background_failed, background_stopping, hooks_registered;

static void *background_compiler(void *unused)
{
    (void)unused;
    /* Below the kernels' workers: a copy is an optimisation, and on a busy
     * machine compiling it beside them took 10-15% off hashcat's benchmark
     * (NTLM 294 -> 246-269 MH/s on 2 cores); idle moments compile it. (A
     * thread's own nice value: Linux's setpriority on a thread id.) */
    setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), 10);
    pthread_mutex_lock(&background_lock);
    for (;;) {
        while (!queue_head && !background_stopping)
            pthread_cond_wait(&background_changed, &background_lock);
        if (background_stopping)
            break;
        struct copy_job *job = queue_head;
        queue_head = job->next;
        if (!queue_head)
            queue_end = &queue_head;
        compiling = job->program;
        pthread_mutex_unlock(&background_lock);
        cc_compile_launch_copy(job->program, job->index, job->copy);
        free(job);
        pthread_mutex_lock(&background_lock);
        compiling = NULL;
        pthread_cond_broadcast(&background_changed);
    }
    pthread_mutex_unlock(&background_lock);
    return NULL;
}

/* Drops the jobs waiting (of `program`, or all when NULL) and waits for
 * the one being compiled when it is the program's (any program's); under
 * background_lock. */
static void drop_jobs(const struct cc_program *program)
{
    for (struct copy_job **at = &queue_head; *at;) {
        struct copy_job *job = *at;
        if (program && job->program != program) {
            at = &job->next;
            continue;
        }
        *at = job->next;
        free(job);
    }
    queue_end = &queue_head;
    while (*queue_end)
        queue_end = &(*queue_end)->next;
    while (compiling && (!program || compiling == program))
        pthread_cond_wait(&background_changed, &background_lock);
}

static void stop_background(void)
{
    pthread_mutex_lock(&background_lock);
    background_stopping = true;
    pthread_cond_broadcast(&background_changed);
    drop_jobs(NULL);
    pthread_mutex_unlock(&background_lock);
}

static void before_fork(void)
{
    pthread_mutex_lock(&background_lock);
    while (compiling)
        pthread_cond_wait(&background_changed, &background_lock);
}

static void after_fork_parent(void)
{
    pthread_mutex_unlock(&background_lock);
}

static void after_fork_child(void)
{
    while (queue_head) {
        struct copy_job *job = queue_head;
        queue_head = job->next;
        cc_launch_copy_dropped(job->copy);
        free(job);
    }
    queue_end = &queue_head;
    background_started = false;
    /* the parent's thread waited on it */
    pthread_cond_init(&background_changed, NULL);
    pthread_mutex_unlock(&background_lock);
}

void cc_cancel_launch_copies(const struct cc_program *program)
{
    pthread_mutex_lock(&background_lock);
    drop_jobs(program);
    pthread_mutex_unlock(&background_lock);
}

bool cc_compile_in_background(struct cc_program *program, unsigned index,
                              struct cc_launch_copy *copy)
{
    struct copy_job *job = malloc(sizeof *job);
    if (!job)
        return false;
    *job = (struct copy_job){program, index, copy, NULL};
    pthread_mutex_lock(&background_lock);
    if (!background_started && !background_failed) {
        /* the hooks first: a thread without the exit hook could compile
         * into the exit (they stay harmless if the thread then fails) */
        if (!hooks_registered)
            hooks_registered = !atexit(stop_background) &&
                               !pthread_atfork(before_fork, after_fork_parent, after_fork_child);
        pthread_t thread;
        pthread_attr_t attributes;
        bool made = hooks_registered && !pthread_attr_init(&attributes);
        if (made) {
            made = !pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED) &&
                   !pthread_create(&thread, &attributes, background_compiler, NULL);
            pthread_attr_destroy(&attributes);
        }
        background_started = made;
        background_failed = !made;
    }
    bool taken = background_started && !background_stopping;
    if (taken) {
        *queue_end = job;
        queue_end = &job->next;
        pthread_cond_broadcast(&background_changed);
    }
    pthread_mutex_unlock(&background_lock);
    if (!taken)
        free(job);
    return taken;
}
