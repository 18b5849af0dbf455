/* command.c - from enqueue to completion: dependencies, submission to the
 * device, and the release of everything a command held. */
#include <stdlib.h>
#include <string.h>

#include "runtime/command.h"

int rt_event_add_dependent(cl_event event, struct rt_command *command, bool explicit_wait,
                           struct rt_event_list *entry);
void rt_command_dependency_done(struct rt_command *command);

struct rt_command *rt_command_create(cl_command_queue queue, cl_command_type type)
{
    struct rt_command *command = calloc(1, sizeof *command);
    if (!command)
        return NULL;
    command->event = rt_event_create(queue->context, queue, type, CL_QUEUED);
    if (!command->event) {
        free(command);
        return NULL;
    }
    command->queue = queue;
    atomic_store(&command->unfinished, 1);
    rt_object_hold(RT_OBJ(queue));
    return command;
}

void rt_command_use_mem(struct rt_command *command, cl_mem mem)
{
    for (int i = 0; i < RT_COMMAND_MAX_MEMS; i++) {
        if (!command->mems[i]) {
            command->mems[i] = mem;
            rt_object_hold(RT_OBJ(mem));
            return;
        }
    }
}

struct rt_command *rt_command_copy(const struct rt_command *original, cl_command_queue queue)
{
    struct rt_command *command = rt_command_create(queue, original->event->command_type);
    if (!command)
        return NULL;
    /* Only a kernel launch owns a block (its arguments); commands with
     * other blocks (native kernels, SVM frees) are never recorded. */
    size_t block_size = original->owned ? original->kernel->info->arg_block_size : 0;
    void *block = block_size ? malloc(block_size) : NULL;
    cl_mem *mems =
        original->num_kernel_mems ? malloc(original->num_kernel_mems * sizeof *mems) : NULL;
    if ((block_size && !block) || (original->num_kernel_mems && !mems)) {
        free(block);
        free(mems);
        rt_command_discard(command);
        return NULL;
    }
    command->has_job = original->has_job;
    command->is_barrier = original->is_barrier;
    command->job = original->job;
    if (block) {
        memcpy(block, original->owned, block_size);
        command->owned = block;
        command->job.u.kernel.arg_block = block;
    }
    for (int i = 0; i < RT_COMMAND_MAX_MEMS; i++)
        if (original->mems[i])
            rt_command_use_mem(command, original->mems[i]);
    for (unsigned i = 0; i < original->num_kernel_mems; i++) {
        mems[i] = original->kernel_mems[i];
        rt_object_hold(RT_OBJ(mems[i]));
    }
    command->kernel_mems = mems;
    command->num_kernel_mems = original->num_kernel_mems;
    if (original->kernel) {
        command->kernel = original->kernel;
        rt_object_hold(RT_OBJ(command->kernel));
    }
    return command;
}

/* Lets go of the memory objects and kernel a command used. Done before its
 * event completes, so that an application that waits for the command and
 * then releases a buffer sees the buffer (and its destructor callback) go at
 * once. */
static void release_resources(struct rt_command *command)
{
    for (int i = 0; i < RT_COMMAND_MAX_MEMS; i++)
        if (command->mems[i])
            rt_object_unhold(RT_OBJ(command->mems[i]));
    for (unsigned i = 0; i < command->num_kernel_mems; i++)
        rt_object_unhold(RT_OBJ(command->kernel_mems[i]));
    free(command->kernel_mems);
    if (command->kernel)
        rt_object_unhold(RT_OBJ(command->kernel));
    free(command->owned);
    memset(command->mems, 0, sizeof command->mems);
    command->kernel_mems = NULL;
    command->num_kernel_mems = 0;
    command->kernel = NULL;
    command->owned = NULL;
}

static void command_free(struct rt_command *command)
{
    release_resources(command);
    rt_object_unhold(RT_OBJ(command->queue));
    if (command->event)
        rt_object_unhold(RT_OBJ(command->event));
    free(command);
}

void rt_command_discard(struct rt_command *command)
{
    /* The event was never given out: drop the application reference too. */
    rt_object_release(RT_OBJ(command->event));
    command->event = NULL;
    command_free(command);
}

static void command_started(void *context)
{
    struct rt_command *command = context;
    rt_event_set_status(command->event, CL_RUNNING);
}

/* The value of `children` once a command's run has ended: a child
 * attached later (a command-buffer's copy) starts at once. */
#define RUN_ENDED ((struct rt_command *)&run_ended_mark)
static const char run_ended_mark;

/* The command and all its children have ended: its event completes. */
static void command_finished(struct rt_command *command)
{
    if (atomic_fetch_sub(&command->unfinished, 1) != 1)
        return;
    cl_command_queue queue = command->queue;
    struct rt_command *parent = command->parent;
    int status = command->status;
    int child_status = atomic_load(&command->child_status);
    if (status >= 0 && child_status < 0)
        status = child_status;

    release_resources(command);
    rt_event_set_status(command->event, status ? status : CL_COMPLETE);
    pthread_mutex_lock(&queue->lock);
    __atomic_store_n(&queue->outstanding, queue->outstanding - 1, __ATOMIC_RELEASE);
    if (queue->outstanding == 0)
        pthread_cond_broadcast(&queue->idle);
    pthread_mutex_unlock(&queue->lock);
    command_free(command);
    if (parent) {
        int expected = 0;
        if (status < 0)
            atomic_compare_exchange_strong(&parent->child_status, &expected, status);
        command_finished(parent);
    }
}

/* The command's own run has ended: its children may start. */
static void command_done(void *context, int status)
{
    struct rt_command *command = context;
    command->status = status;
    if (!command->ends_with_children)
        rt_event_record_end(command->event);
    struct rt_command *child = atomic_exchange(&command->children, RUN_ENDED);
    while (child) {
        struct rt_command *next = child->next_child;
        if (status < 0)
            atomic_store(&child->failed, 1);
        rt_command_dependency_done(child);
        child = next;
    }
    command_finished(command);
}

static void command_ready(struct rt_command *command)
{
    if (atomic_load(&command->failed)) {
        command_done(command, CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
        return;
    }
    rt_event_set_status(command->event, CL_SUBMITTED);
    if (!command->has_job) {
        command_started(command);
        command_done(command, CL_SUCCESS);
        return;
    }
    command->job.on_start = command_started;
    command->job.on_done = command_done;
    command->job.context = command;
    cl_device_id device = command->queue->device;
    command->job.allowed = device->allowed;
    command->job.allowed_count = device->compute_units;
    command->job.priority = command->queue->priority;
    cpu_submit(device->cpu, &command->job);
}

void rt_command_hold(struct rt_command *command)
{
    atomic_fetch_add(&command->unfinished, 1);
}

void rt_command_unhold(struct rt_command *command)
{
    command_finished(command);
}

void rt_command_dependency_done(struct rt_command *command)
{
    if (atomic_fetch_sub(&command->pending, 1) == 1)
        command_ready(command);
}

/* `entry`: a list entry to use (NULL: one of the command's own, else a
 * malloc'd one); freed here when the event needs none. */
static void wait_for(struct rt_command *command, cl_event event, bool explicit_wait,
                     struct rt_event_list *entry)
{
    if (!event || event == command->event) {
        free(entry);
        return;
    }
    if (!entry && command->waits_used < RT_COMMAND_INLINE_WAITS) {
        entry = &command->waits[command->waits_used++];
        entry->in_command = true;
    } else if (!entry && (entry = malloc(sizeof *entry))) {
        entry->in_command = false;
    }
    /* Count first: the event may complete (and count down) the moment the
     * command is on its list. The enqueue's own +1 keeps pending above 0. */
    atomic_fetch_add(&command->pending, 1);
    if (!rt_event_add_dependent(event, command, explicit_wait, entry)) {
        atomic_fetch_sub(&command->pending, 1);
        if (entry && entry->in_command)
            command->waits_used--; /* the last taken: free again */
        else
            free(entry);
    }
}

/* Out-of-order bookkeeping: remembers a command issued since the last
 * barrier, so that the next barrier can wait for it. */
static void remember_since_barrier(cl_command_queue queue, cl_event event)
{
    struct rt_event_list *entry = malloc(sizeof *entry);
    if (!entry)
        return; /* the barrier then orders against fewer commands; see below */
    entry->event = event;
    entry->command = NULL;
    entry->in_command = false;
    entry->next = queue->since_barrier;
    queue->since_barrier = entry;
    rt_object_hold(RT_OBJ(event));
}

void rt_command_enqueue(struct rt_command *command, cl_uint num_wait, const cl_event *wait_list,
                        cl_event *event_out)
{
    cl_command_queue queue = command->queue;
    cl_event event = command->event;

    atomic_store(&command->pending, 1);
    for (cl_uint i = 0; i < num_wait; i++)
        wait_for(command, wait_list[i], true, NULL);
    struct rt_command *parent = command->parent;
    if (parent) {
        atomic_fetch_add(&command->pending, 1);    /* until the parent's run ends */
        atomic_fetch_add(&parent->unfinished, 1);  /* the parent completes after it */
        struct rt_command *head = atomic_load(&parent->children);
        do {
            if (head == RUN_ENDED)
                break;
            command->next_child = head;
        } while (!atomic_compare_exchange_weak(&parent->children, &head, command));
        if (head == RUN_ENDED) {
            /* a command-buffer's copy attached after its run ended: it
             * starts now, or fails with the run */
            if (parent->status < 0)
                atomic_store(&command->failed, 1);
            atomic_fetch_sub(&command->pending, 1);
        }
    }

    pthread_mutex_lock(&queue->lock);
    __atomic_store_n(&queue->outstanding, queue->outstanding + 1, __ATOMIC_RELEASE);
    if ((queue->properties & CL_QUEUE_ON_DEVICE) || command->detached) {
        /* OpenCL C 6.13.17: commands of a device queue are ordered only by
         * their events (and children by their parent); so are a
         * command-buffer's. */
    } else if (!(queue->properties & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE)) {
        wait_for(command, queue->last, false, NULL);
        if (queue->last)
            rt_object_unhold(RT_OBJ(queue->last));
        queue->last = event;
        rt_object_hold(RT_OBJ(event));
    } else if (command->is_barrier) {
        /* 5.11: a barrier waits for every command enqueued before it. A
         * command whose list entry could not be allocated was already
         * ordered after the previous barrier; wait for the newest command
         * too as a fallback. */
        struct rt_event_list *e = queue->since_barrier;
        queue->since_barrier = NULL;
        while (e) { /* each entry of the list serves as the wait's */
            struct rt_event_list *next = e->next;
            cl_event earlier = e->event;
            wait_for(command, earlier, false, e);
            rt_object_unhold(RT_OBJ(earlier));
            e = next;
        }
        wait_for(command, queue->barrier, false, NULL);
        wait_for(command, queue->last, false, NULL);
        if (queue->barrier)
            rt_object_unhold(RT_OBJ(queue->barrier));
        queue->barrier = event;
        rt_object_hold(RT_OBJ(event));
    } else {
        wait_for(command, queue->barrier, false, NULL);
        remember_since_barrier(queue, event);
    }
    if ((queue->properties & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE) &&
        !(queue->properties & CL_QUEUE_ON_DEVICE) && !command->detached) {
        if (queue->last)
            rt_object_unhold(RT_OBJ(queue->last));
        queue->last = event;
        rt_object_hold(RT_OBJ(event));
    }
    pthread_mutex_unlock(&queue->lock);

    /* The caller's reference on the event: kept for the application or
     * dropped; the command's own hold keeps the event alive until it ends. */
    rt_object_hold(RT_OBJ(event));
    if (event_out)
        *event_out = event;
    else
        rt_object_release(RT_OBJ(event));
    rt_command_dependency_done(command);
}

void rt_queue_finish(cl_command_queue queue)
{
    /* As in rt_event_wait: spin briefly before sleeping. */
    cl_ulong start = rt_now_ns();
    while (__atomic_load_n(&queue->outstanding, __ATOMIC_ACQUIRE) &&
           rt_now_ns() - start < 20000)
        __builtin_ia32_pause();
    pthread_mutex_lock(&queue->lock);
    while (queue->outstanding)
        pthread_cond_wait(&queue->idle, &queue->lock);
    pthread_mutex_unlock(&queue->lock);
}
