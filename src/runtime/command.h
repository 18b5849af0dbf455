/* command.h - commands and the graph of events they wait on.
 *
 * Every enqueue builds a command with an event. The command waits for its
 * wait list and for what its queue orders before it; when the last of those
 * completes it is ready: a command with a device job goes to the CPU device,
 * one without (marker, barrier, map, unmap) completes at once. A failed
 * dependency fails the command without running it (API spec 5.11:
 * CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST).
 */
#ifndef CPUCL_RUNTIME_COMMAND_H
#define CPUCL_RUNTIME_COMMAND_H

#include "runtime/runtime.h"

#define RT_COMMAND_MAX_MEMS 4
/* Entries for the events a command waits for, kept in the command: an
 * enqueue with up to this many waits (its wait list, its queue's order)
 * allocates none. More are malloc'd; only when that fails does the
 * enqueue wait for the event itself (rt_event_add_dependent). */
#define RT_COMMAND_INLINE_WAITS 4

struct rt_command {
    cl_event event;                      /* held until the command is freed */
    cl_command_queue queue;              /* held */
    _Atomic int pending;                 /* dependencies not yet complete, +1 while enqueuing */
    _Atomic int failed;                  /* a dependency completed with an error */
    bool has_job;
    bool is_barrier;                     /* orders all earlier commands (out-of-order queues) */
    /* A command-buffer's command (cl_khr_command_buffer) is ordered only by
     * its wait list and its parent, the enqueue of the command-buffer, which
     * its queue orders; that parent's CL_PROFILING_COMMAND_END is when its
     * last command ends. */
    bool detached;
    bool ends_with_children;
    struct cpu_job job;
    cl_mem mems[RT_COMMAND_MAX_MEMS];    /* held until completion */
    cl_kernel kernel;                    /* held until completion */
    cl_mem *kernel_mems;                 /* buffers a launch uses, held */
    unsigned num_kernel_mems;
    void *owned;                         /* freed at completion (argument block copy) */
    /* Device-side enqueue (API spec 5.13 / OpenCL C 6.13.17): a kernel that
     * enqueues children completes only when they have; each child starts
     * after its parent's own run has ended (which every enqueue flag
     * allows: NO_WAIT does not require the child to start earlier,
     * WAIT_WORK_GROUP is met once the whole kernel has ended). */
    struct rt_command *parent;           /* set before rt_command_enqueue; not held */
    _Atomic(struct rt_command *) children; /* waiting for this command's run to end */
    struct rt_command *next_child;
    _Atomic int unfinished;              /* own run + children not yet complete */
    int status;                          /* of its own run, once ended */
    _Atomic int child_status;            /* the first error a child completed with */
    struct rt_event_list waits[RT_COMMAND_INLINE_WAITS];
    unsigned waits_used; /* while enqueuing */
};

/* A new command of `type` on `queue`, its event queued. NULL when out of memory. */
struct rt_command *rt_command_create(cl_command_queue queue, cl_command_type type);

/* Holds a memory object until the command completes. */
void rt_command_use_mem(struct rt_command *command, cl_mem mem);

/* A new command on `queue` doing what `original` (built, never enqueued)
 * does: the same job, memory objects and kernel (held again), its own
 * copy of the kernel's argument block. NULL when out of memory. */
struct rt_command *rt_command_copy(const struct rt_command *original, cl_command_queue queue);

/* Keeps an enqueued command from completing (and from being freed) until
 * the matching rt_command_unhold: a command-buffer's run is held while its
 * copies are attached to it as children, which start as they come once its
 * own run has ended. */
void rt_command_hold(struct rt_command *command);
void rt_command_unhold(struct rt_command *command);

/* Frees a command that was never enqueued. */
void rt_command_discard(struct rt_command *command);

/* Puts the command into the graph and releases it to run when ready. When
 * `event_out` is not NULL it receives the event with one application
 * reference. The command belongs to the runtime afterwards. */
void rt_command_enqueue(struct rt_command *command, cl_uint num_wait, const cl_event *wait_list,
                        cl_event *event_out);

/* Events. */
cl_event rt_event_create(cl_context context, cl_command_queue queue, cl_command_type type,
                         cl_int status);
/* Moves the event to `status`: calls callbacks and, on completion (0 or
 * negative), releases the commands that wait for it. */
void rt_event_set_status(cl_event event, cl_int status);
/* Blocks until the event is complete; returns its final status. */
cl_int rt_event_wait(cl_event event);
/* Registers a callback; it runs at once (on this thread) when the event is
 * already past `when`. */
cl_int rt_event_add_callback(cl_event event, cl_int when,
                             void (CL_CALLBACK *fn)(cl_event, cl_int, void *), void *user_data);

/* Records CL_PROFILING_COMMAND_END: the command's own run has ended; it is
 * complete when its children are too (COMMAND_COMPLETE). */
void rt_event_record_end(cl_event event);

/* Blocks until every command of the queue has completed. */
void rt_queue_finish(cl_command_queue queue);

#endif
