/* event.c - event status, waits, callbacks, and releasing dependents. */
#include <stdlib.h>
#include <time.h>

#include "runtime/command.h"

cl_ulong rt_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (cl_ulong)ts.tv_sec * 1000000000ull + (cl_ulong)ts.tv_nsec;
}

cl_event rt_event_create(cl_context context, cl_command_queue queue, cl_command_type type,
                         cl_int status)
{
    cl_event event = rt_object_create(RT_EVENT, sizeof *event);
    if (!event)
        return NULL;
    event->context = context;
    event->queue = queue;
    event->command_type = type;
    event->status = status;
    pthread_mutex_init(&event->lock, NULL);
    pthread_cond_init(&event->changed, NULL);
    /* Times are read only on profiling queues (5.14); elsewhere no clock. */
    event->profiled = queue && (queue->properties & CL_QUEUE_PROFILING_ENABLE);
    if (event->profiled)
        event->times[0] = rt_now_ns();
    rt_object_hold(RT_OBJ(context));
    if (queue)
        rt_object_hold(RT_OBJ(queue));
    return event;
}

/* Status values count down: CL_QUEUED 3, CL_SUBMITTED 2, CL_RUNNING 1,
 * CL_COMPLETE 0, errors below 0. Profiling slot for each. */
static int time_slot(cl_int status)
{
    switch (status) {
    case CL_QUEUED: return 0;
    case CL_SUBMITTED: return 1;
    case CL_RUNNING: return 2;
    default: return 4; /* complete; slot 3, the end of its own run, on the way */
    }
}

/* 5.14: CL_PROFILING_COMMAND_END is when the command's own run ended,
 * _COMPLETE when its child commands (device-side enqueue) had too. */
void rt_event_record_end(cl_event event)
{
    if (!event->profiled)
        return;
    cl_ulong now = rt_now_ns();
    pthread_mutex_lock(&event->lock);
    if (event->status == CL_RUNNING) {
        event->times[3] = now;
        event->ended = true;
    }
    pthread_mutex_unlock(&event->lock);
}

void rt_command_dependency_done(struct rt_command *command);

void rt_event_set_status(cl_event event, cl_int status)
{
    struct rt_callback *due = NULL, **link;
    struct rt_event_list *dependents = NULL;
    cl_ulong now = event->profiled ? rt_now_ns() : 0;

    pthread_mutex_lock(&event->lock);
    if (event->status <= CL_COMPLETE) { /* already final: a status never moves back */
        pthread_mutex_unlock(&event->lock);
        return;
    }
    /* Fill the slots of skipped steps too, so the four times stay ordered. */
    for (int slot = time_slot(event->status) + 1; slot <= time_slot(status); slot++)
        if (slot != 3 || !event->ended)
            event->times[slot] = now;
    __atomic_store_n(&event->status, status, __ATOMIC_RELEASE);
    link = &event->callbacks;
    while (*link) {
        struct rt_callback *callback = *link;
        /* 5.11: a callback for CL_COMPLETE also runs on an error status. */
        if (status <= callback->when) {
            *link = callback->next;
            callback->next = due;
            due = callback;
        } else {
            link = &callback->next;
        }
    }
    if (status <= CL_COMPLETE) {
        dependents = event->dependents;
        event->dependents = NULL;
        pthread_cond_broadcast(&event->changed);
    }
    pthread_mutex_unlock(&event->lock);

    /* No lock is held while the application's code runs (appendix A). Run in
     * registration order. */
    struct rt_callback *ordered = NULL;
    while (due) {
        struct rt_callback *next = due->next;
        due->next = ordered;
        ordered = due;
        due = next;
    }
    while (ordered) {
        struct rt_callback *next = ordered->next;
        ((void (CL_CALLBACK *)(cl_event, cl_int, void *))ordered->fn)(event, status < 0 ? status : ordered->when,
                                                                     ordered->user_data);
        free(ordered);
        ordered = next;
    }
    while (dependents) {
        struct rt_event_list *next = dependents->next;
        /* 5.11: only events of the wait list pass their failure on; the
         * implicit order of an in-order queue or a barrier does not. */
        if (status < 0 && dependents->explicit_wait)
            atomic_store(&dependents->command->failed, 1);
        /* an entry in the command goes with it, which the call may free */
        bool own = !dependents->in_command;
        rt_command_dependency_done(dependents->command);
        if (own)
            free(dependents);
        dependents = next;
    }
}

/* A short command often completes within microseconds: spin that long
 * before sleeping, so a blocking call returns without a futex round trip. */
#define WAIT_SPIN_NS 20000

static int event_done(const cl_event event)
{
    return __atomic_load_n(&event->status, __ATOMIC_ACQUIRE) <= CL_COMPLETE;
}

cl_int rt_event_wait(cl_event event)
{
    cl_ulong start = rt_now_ns();
    while (!event_done(event) && rt_now_ns() - start < WAIT_SPIN_NS)
        __builtin_ia32_pause();
    pthread_mutex_lock(&event->lock);
    while (event->status > CL_COMPLETE)
        pthread_cond_wait(&event->changed, &event->lock);
    cl_int status = event->status;
    pthread_mutex_unlock(&event->lock);
    return status;
}

cl_int rt_event_add_callback(cl_event event, cl_int when,
                             void (CL_CALLBACK *fn)(cl_event, cl_int, void *), void *user_data)
{
    struct rt_callback *callback = calloc(1, sizeof *callback);
    if (!callback)
        return CL_OUT_OF_HOST_MEMORY;
    callback->fn = (void (CL_CALLBACK *)())fn;
    callback->user_data = user_data;
    callback->when = when;
    pthread_mutex_lock(&event->lock);
    cl_int status = event->status;
    if (status > when) {
        callback->next = event->callbacks;
        event->callbacks = callback;
        callback = NULL;
    }
    pthread_mutex_unlock(&event->lock);
    if (callback) {
        fn(event, status < 0 ? status : when, user_data);
        free(callback);
    }
    return CL_SUCCESS;
}

/* Adds `command` as a dependent of `event` through `entry` (taken over
 * when it must wait: then returns 1). With no entry (out of memory) it
 * waits here for the event instead. */
int rt_event_add_dependent(cl_event event, struct rt_command *command, bool explicit_wait,
                           struct rt_event_list *entry)
{
    int waits = 0;
    pthread_mutex_lock(&event->lock);
    if (event->status > CL_COMPLETE && entry) {
        entry->command = command;
        entry->event = event;
        entry->explicit_wait = explicit_wait;
        entry->next = event->dependents;
        event->dependents = entry;
        waits = 1;
    } else if (event->status < 0 && explicit_wait) {
        atomic_store(&command->failed, 1);
    } else if (event->status > CL_COMPLETE) {
        while (event->status > CL_COMPLETE)
            pthread_cond_wait(&event->changed, &event->lock);
        if (event->status < 0 && explicit_wait)
            atomic_store(&command->failed, 1);
    }
    pthread_mutex_unlock(&event->lock);
    return waits;
}
