/* object.c - allocation, type tags and reference counts of all handles. */
#include "runtime/object.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "api/icd.h"
#include "runtime/runtime.h"

/* One free list per type: an object of a type always has the same size, so
 * dead objects are recycled as objects of their own type only. */
struct dead_object {
    struct rt_object header;
    struct dead_object *next;
};

static pthread_mutex_t free_lock = PTHREAD_MUTEX_INITIALIZER;
static struct dead_object *free_lists[RT_TYPE_COUNT];

void *rt_object_create(enum rt_type type, size_t size)
{
    struct rt_object *object = NULL;

    pthread_mutex_lock(&free_lock);
    if (free_lists[type]) {
        struct dead_object *dead = free_lists[type];
        free_lists[type] = dead->next;
        object = &dead->header;
    }
    pthread_mutex_unlock(&free_lock);
    if (!object) {
        object = malloc(size < sizeof(struct dead_object) ? sizeof(struct dead_object) : size);
        if (!object)
            return NULL;
    }
    memset(object, 0, size);
    object->dispatch = &api_dispatch;
    atomic_init(&object->refcount, 1);
    atomic_init(&object->holds, 1);
    /* Written last: a racing validity check sees a live tag only on a
     * complete header. */
    atomic_store_explicit((_Atomic uint32_t *)&object->magic, RT_MAGIC_LIVE | type,
                          memory_order_release);
    return object;
}

int rt_object_valid(const void *handle, enum rt_type type)
{
    const struct rt_object *object = handle;
    if (!object)
        return 0;
    uint32_t magic = atomic_load_explicit((_Atomic uint32_t *)&object->magic, memory_order_acquire);
    return magic == (RT_MAGIC_LIVE | type) && atomic_load(&object->refcount) > 0;
}

void rt_object_retain(struct rt_object *object)
{
    atomic_fetch_add(&object->refcount, 1);
}

void rt_object_release(struct rt_object *object)
{
    if (atomic_fetch_sub(&object->refcount, 1) == 1) {
        rt_object_released(object);
        rt_object_unhold(object);
    }
}

void rt_object_hold(struct rt_object *object)
{
    atomic_fetch_add(&object->holds, 1);
}

void rt_object_unhold(struct rt_object *object)
{
    if (atomic_fetch_sub(&object->holds, 1) != 1)
        return;
    enum rt_type type = object->magic & 0xff;
    rt_object_destroy(object);
    atomic_store((_Atomic uint32_t *)&object->magic, RT_MAGIC_DEAD);
    struct dead_object *dead = (struct dead_object *)object;
    pthread_mutex_lock(&free_lock);
    dead->next = free_lists[type];
    free_lists[type] = dead;
    pthread_mutex_unlock(&free_lock);
}
