/* object.h - the common header of every cl_* handle.
 *
 * Every handle the application sees points to a struct whose first member is
 * a struct rt_object: the ICD dispatch pointer first (cl_khr_icd requires it),
 * then a type tag and two reference counts.
 *
 *   refcount  the references the application holds (clRetain*, clRelease*,
 *             CL_*_REFERENCE_COUNT). When it reaches 0 the object is
 *             "released": the application may no longer use the handle.
 *   holds     internal references (a kernel on its program, a command on its
 *             queue and buffers) plus one that stands for all application
 *             references. When it reaches 0 the object is destroyed.
 *
 * Freed objects are not returned to malloc: their memory keeps a dead tag and
 * is reused for the next object of the same type, so a released handle is
 * answered with CL_INVALID_* instead of a use-after-free.
 */
#ifndef CPUCL_RUNTIME_OBJECT_H
#define CPUCL_RUNTIME_OBJECT_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <CL/cl.h>

enum rt_type {
    RT_PLATFORM = 1,
    RT_DEVICE,
    RT_CONTEXT,
    RT_QUEUE,
    RT_MEM,
    RT_PROGRAM,
    RT_KERNEL,
    RT_EVENT,
    RT_SAMPLER,
    RT_SEMAPHORE,
    RT_COMMAND_BUFFER,
    RT_TYPE_COUNT
};

#define RT_MAGIC_LIVE 0x43505500u /* "CPU" + type in the low byte */
#define RT_MAGIC_DEAD 0x44454144u

struct rt_object {
    const void *dispatch;
    uint32_t magic;
    _Atomic uint32_t refcount;
    _Atomic uint32_t holds;
};

typedef void (*rt_destroy_fn)(struct rt_object *object);

/* Returns zeroed memory of `size` bytes with the header set up: refcount 1,
 * holds 1. `destroy` frees what the object owns (not the object itself). */
void *rt_object_create(enum rt_type type, size_t size);

/* True when `handle` is a live object of `type` (the application still holds
 * a reference). NULL is never valid. */
int rt_object_valid(const void *handle, enum rt_type type);

/* Application reference counting: CL_SUCCESS, or the caller's invalid code
 * when the object is already released. */
void rt_object_retain(struct rt_object *object);
/* Drops one application reference; when it was the last one, drops the hold
 * that stands for them. */
void rt_object_release(struct rt_object *object);

/* Internal references. */
void rt_object_hold(struct rt_object *object);
void rt_object_unhold(struct rt_object *object);

#define RT_OBJ(handle) (&(handle)->obj)

#endif
