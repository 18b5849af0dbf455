/* lifecycle.c - what each object type frees when it is destroyed. */
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "runtime/command.h"

cl_int rt_callback_push(struct rt_callback **list, pthread_mutex_t *lock,
                        void (CL_CALLBACK *fn)(), void *user_data)
{
    struct rt_callback *callback = calloc(1, sizeof *callback);
    if (!callback)
        return CL_OUT_OF_HOST_MEMORY;
    callback->fn = fn;
    callback->user_data = user_data;
    pthread_mutex_lock(lock);
    callback->next = *list;
    *list = callback;
    pthread_mutex_unlock(lock);
    return CL_SUCCESS;
}

static void call_destructor_callbacks(struct rt_callback *callbacks, void *handle)
{
    /* 5.4.1/5.5.1: destructor callbacks run in the reverse order of
     * registration; the list is kept newest first. */
    while (callbacks) {
        struct rt_callback *next = callbacks->next;
        ((void (CL_CALLBACK *)(void *, void *))callbacks->fn)(handle, callbacks->user_data);
        free(callbacks);
        callbacks = next;
    }
}

static void destroy_context(cl_context context)
{
    call_destructor_callbacks(context->destructor_callbacks, context);
    /* 5.6.1: SVM memory the application did not free goes with its context. */
    while (context->svm_allocations) {
        struct rt_svm_allocation *next = context->svm_allocations->next;
        rt_free_storage(context->svm_allocations->pointer);
        free(context->svm_allocations);
        context->svm_allocations = next;
    }
    for (cl_uint i = 0; i < context->num_devices; i++)
        rt_object_unhold(RT_OBJ(context->devices[i]));
    free(context->devices);
    free(context->properties);
    rt_gl_close(context->gl);
    rt_gl_close(context->egl_images);
    pthread_mutex_destroy(&context->lock);
}

static void drop_queue_order(cl_command_queue queue)
{
    pthread_mutex_lock(&queue->lock);
    cl_event last = queue->last, barrier = queue->barrier;
    struct rt_event_list *list = queue->since_barrier;
    queue->last = queue->barrier = NULL;
    queue->since_barrier = NULL;
    pthread_mutex_unlock(&queue->lock);
    if (last)
        rt_object_unhold(RT_OBJ(last));
    if (barrier)
        rt_object_unhold(RT_OBJ(barrier));
    while (list) {
        struct rt_event_list *next = list->next;
        rt_object_unhold(RT_OBJ(list->event));
        free(list);
        list = next;
    }
}

static void destroy_queue(cl_command_queue queue)
{
    drop_queue_order(queue);
    free(queue->property_list);
    pthread_mutex_destroy(&queue->lock);
    pthread_cond_destroy(&queue->idle);
    rt_object_unhold(RT_OBJ(queue->device));
    rt_object_unhold(RT_OBJ(queue->context));
}

static void destroy_mem(cl_mem mem)
{
    call_destructor_callbacks(mem->destructor_callbacks, mem);
    while (mem->mappings) {
        struct rt_mapping *next = mem->mappings->next;
        free(mem->mappings);
        mem->mappings = next;
    }
    if (mem->internal_flags & RT_MEM_OWNS_STORAGE)
        rt_free_storage(mem->storage);
    if (mem->internal_flags & RT_MEM_EXTERNAL) { /* api/external_memory.c */
        munmap(mem->storage, mem->mapped_size);
        close(mem->external_fd);
    }
    free((void *)mem->image.levels); /* a mipmapped image's (api/image.c) */
    if (mem->parent)
        rt_object_unhold(RT_OBJ(mem->parent));
    free(mem->properties);
    pthread_mutex_destroy(&mem->lock);
    rt_object_unhold(RT_OBJ(mem->context));
}

static void destroy_program(cl_program program)
{
    struct rt_callback *callbacks = program->release_callbacks;
    while (callbacks) {
        struct rt_callback *next = callbacks->next;
        ((void (CL_CALLBACK *)(cl_program, void *))callbacks->fn)(program, callbacks->user_data);
        free(callbacks);
        callbacks = next;
    }
    if (program->built)
        cc_program_free(program->built);
    free(program->source);
    free(program->spec_constants);
    free(program->build_options);
    free(program->build_log);
    free(program->kernel_names);
    free(program->object);
    free(program->il);
    pthread_mutex_destroy(&program->lock);
    rt_object_unhold(RT_OBJ(program->context));
}

static void destroy_kernel(cl_kernel kernel)
{
    cl_program program = kernel->program;
    pthread_mutex_lock(&program->lock);
    program->kernels_attached--;
    pthread_mutex_unlock(&program->lock);
    free(kernel->arg_block);
    free(kernel->args);
    rt_object_unhold(RT_OBJ(program));
}

static void destroy_event(cl_event event)
{
    struct rt_callback *callback = event->callbacks;
    while (callback) {
        struct rt_callback *next = callback->next;
        free(callback);
        callback = next;
    }
    pthread_mutex_destroy(&event->lock);
    pthread_cond_destroy(&event->changed);
    if (event->queue)
        rt_object_unhold(RT_OBJ(event->queue));
    rt_object_unhold(RT_OBJ(event->context));
}

static void destroy_sampler(cl_sampler sampler)
{
    free(sampler->properties);
    rt_object_unhold(RT_OBJ(sampler->context));
}

static void destroy_semaphore(cl_semaphore_khr semaphore)
{
    if (semaphore->signal)
        rt_object_release(RT_OBJ(semaphore->signal));
    if (semaphore->waiter)
        rt_object_release(RT_OBJ(semaphore->waiter));
    pthread_mutex_destroy(&semaphore->lock);
    rt_object_unhold(RT_OBJ(semaphore->context));
}

void rt_mutable_command_free(cl_mutable_command_khr command)
{
    rt_object_release(RT_OBJ(command->state));
    rt_object_unhold(RT_OBJ(command->kernel));
    command->magic = 0;
    free(command);
}

static void destroy_command_buffer(cl_command_buffer_khr buffer)
{
    for (cl_uint i = 0; i < buffer->count; i++) {
        struct rt_recorded *entry = &buffer->commands[i];
        if (entry->command)
            rt_command_discard(entry->command);
        free(entry->waits);
        if (entry->mutable_launch)
            rt_mutable_command_free(entry->mutable_launch);
    }
    free(buffer->commands);
    pthread_mutex_destroy(&buffer->lock);
    rt_object_release(RT_OBJ(buffer->queue));
    rt_object_unhold(RT_OBJ(buffer->context));
}

/* Only sub-devices are ever destroyed: the root device lives as long as
 * the process. */
static void destroy_device(cl_device_id device)
{
    free(device->allowed);
    free(device->partition);
    if (device->parent)
        rt_object_unhold(RT_OBJ(device->parent));
}

void rt_object_released(struct rt_object *object)
{
    /* A released queue takes no more commands, so it no longer needs to
     * remember the ones that order new commands (and must not: they hold
     * events that hold the queue). */
    if ((object->magic & 0xff) == RT_QUEUE) {
        cl_command_queue queue = (cl_command_queue)object;
        drop_queue_order(queue);
        if (queue->properties & CL_QUEUE_ON_DEVICE)
            rt_remove_device_queue(queue);
    }
}

void rt_object_destroy(struct rt_object *object)
{
    switch ((enum rt_type)(object->magic & 0xff)) {
    case RT_CONTEXT: destroy_context((cl_context)object); break;
    case RT_QUEUE: destroy_queue((cl_command_queue)object); break;
    case RT_MEM: destroy_mem((cl_mem)object); break;
    case RT_PROGRAM: destroy_program((cl_program)object); break;
    case RT_KERNEL: destroy_kernel((cl_kernel)object); break;
    case RT_EVENT: destroy_event((cl_event)object); break;
    case RT_DEVICE: destroy_device((cl_device_id)object); break;
    case RT_SAMPLER: destroy_sampler((cl_sampler)object); break;
    case RT_SEMAPHORE: destroy_semaphore((cl_semaphore_khr)object); break;
    case RT_COMMAND_BUFFER: destroy_command_buffer((cl_command_buffer_khr)object); break;
    case RT_PLATFORM:
    case RT_TYPE_COUNT:
        break;
    }
}
