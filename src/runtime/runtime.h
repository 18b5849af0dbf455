/* runtime.h - the objects of the OpenCL runtime and their life cycle.
 *
 * Each cl_* handle type is defined here as the struct the ICD header leaves
 * opaque. Field comments say which lock guards what; fields without a lock
 * note are set at creation and read-only afterwards.
 */
#ifndef CPUCL_RUNTIME_RUNTIME_H
#define CPUCL_RUNTIME_RUNTIME_H

#include <pthread.h>
#include <stdbool.h>

#include <CL/cl_ext.h>

#include "builtins/image.h"
#include "compiler/compiler.h"
#include "devices/cpu/cpu.h"
#include "runtime/gl.h"
#include "runtime/object.h"

struct _cl_platform_id {
    struct rt_object obj;
};

struct _cl_device_id {
    struct rt_object obj;
    struct cpu_device *cpu;
    cl_device_type type;
    cl_uint compute_units;
    cl_device_id parent;             /* NULL for the root device; held */
    /* Sub-devices (API spec 4.3): allowed[w] for each worker w of the CPU
     * device that is one of this device's compute units; the properties it
     * was made with (CL_DEVICE_PARTITION_TYPE). NULL for the root. */
    unsigned char *allowed;
    cl_device_partition_property *partition;
    size_t partition_size;           /* bytes, with the terminating 0 */
};

struct _cl_context {
    struct rt_object obj;
    cl_uint num_devices;
    cl_device_id *devices;
    cl_context_properties *properties;   /* copy incl. the 0, NULL when none given */
    size_t num_properties;               /* entries incl. the terminating 0 */
    void (CL_CALLBACK *notify)(const char *, const void *, size_t, void *);
    void *notify_data;
    pthread_mutex_t lock;                /* guards the lists below */
    struct rt_callback *destructor_callbacks;
    struct rt_svm_allocation *svm_allocations;
    cl_command_queue device_queues;      /* live on-device queues, by next_device_queue */
    struct rt_gl *gl;                    /* made from a GL context (cl_khr_gl_sharing), else NULL */
    struct rt_gl *egl_images;            /* cl_khr_egl_image: its display's, from the first */
    void *egl_images_display;            /* image on (guarded by lock), else NULL */
};

/* A block from clSVMAlloc, remembered by its context so that a buffer made
 * from SVM memory can say so (CL_MEM_USES_SVM_POINTER). */
struct rt_svm_allocation {
    struct rt_svm_allocation *next;
    char *pointer;
    size_t size;
};

/* A queue orders its commands. In an in-order queue each command waits for
 * the previous one; in an out-of-order queue only for its wait list and the
 * last barrier. */
struct _cl_command_queue {
    struct rt_object obj;
    cl_context context;
    cl_device_id device;
    cl_command_queue_properties properties;
    cl_queue_properties *property_list;  /* as given to ...WithProperties, NULL otherwise */
    size_t num_property_list;
    cl_uint size;                        /* CL_QUEUE_SIZE, device queues only */
    int priority;                        /* cl_khr_priority_hints: a cpu_job priority */
    /* On-device queues: the context's list (guarded by context->lock). */
    cl_command_queue next_device_queue;
    bool is_default_device_queue;
    pthread_mutex_t lock;                /* guards the fields below */
    pthread_cond_t idle;                 /* signalled when outstanding becomes 0 */
    cl_event last;                       /* in-order: the newest command; held */
    cl_event barrier;                    /* out-of-order: the newest barrier; held */
    struct rt_event_list *since_barrier; /* out-of-order: commands after it; held */
    size_t outstanding;                  /* commands enqueued and not complete */
};

/* Host-side callbacks registered on an object. */
struct rt_callback {
    struct rt_callback *next;
    void (CL_CALLBACK *fn)();
    void *user_data;
    cl_int when;                         /* events: the status that triggers it */
};

struct rt_mapping {
    struct rt_mapping *next;
    void *pointer;
};

/* RT_MEM_DEVICE_ADDRESS: made with CL_MEM_DEVICE_PRIVATE_ADDRESS_EXT
 * (cl_ext_buffer_device_address), its storage its device address. */
/* RT_MEM_EXTERNAL: imported (cl_khr_external_memory_dma_buf), its storage
 * a mapping of external_fd (api/external_memory.c). */
enum rt_mem_flags_internal {
    RT_MEM_OWNS_STORAGE = 1,
    RT_MEM_DEVICE_ADDRESS = 2,
    RT_MEM_EXTERNAL = 4
};

/* Zeroed storage of `size` bytes aligned to `alignment` (a power of two;
 * 2 MiB for 4 MiB and more), NULL when memory is short; freed only by
 * rt_free_storage (storage.c). */
void *rt_alloc_storage(size_t size, size_t alignment);
void rt_free_storage(void *storage);

struct _cl_mem {
    struct rt_object obj;
    cl_context context;
    cl_mem_object_type type;
    cl_mem_flags flags;
    size_t size;
    char *storage;                       /* the bytes; host_ptr itself with USE_HOST_PTR */
    void *host_ptr;                      /* as given at creation */
    cl_mem parent;                       /* sub-buffers: the buffer they view; held */
    size_t origin;                       /* sub-buffers: offset in the parent */
    unsigned internal_flags;
    int external_fd;                     /* RT_MEM_EXTERNAL: the imported descriptor */
    size_t mapped_size;                  /* RT_MEM_EXTERNAL: bytes of it mapped */
    bool uses_svm_pointer;               /* USE_HOST_PTR inside an SVM allocation */
    cl_mem_properties *properties;
    size_t num_properties;
    /* Images (type other than BUFFER): what the application asked for, and
     * what kernels see. An image over a buffer or another image has that
     * object as its parent. */
    cl_image_format format;
    cl_image_desc desc;
    struct cc_image image;
    struct rt_gl_object gl;              /* made from a GL object (api/gl_sharing.c) */
    pthread_mutex_t lock;                /* guards the fields below */
    cl_uint map_count;
    struct rt_mapping *mappings;         /* pointers clEnqueueMap* returned, not yet unmapped */
    struct rt_callback *destructor_callbacks;
};

struct _cl_sampler {
    struct rt_object obj;
    cl_context context;
    cl_bool normalized_coords;
    cl_addressing_mode addressing_mode;
    cl_filter_mode filter_mode;
    cl_filter_mode mip_filter_mode; /* cl_khr_mipmap_image */
    cl_float lod_min, lod_max;
    uint64_t value;                      /* what a kernel's sampler_t holds (image.h) */
    cl_sampler_properties *properties;   /* as given to ...WithProperties, incl. the 0 */
    size_t num_properties;
};

struct _cl_program {
    struct rt_object obj;
    cl_context context;
    char *source;                        /* NULL for binaries and IL */
    void *il;                            /* SPIR-V of clCreateProgramWithIL, else NULL */
    size_t il_size;
    struct cc_spec_constant *spec_constants; /* its specialization constants, read on the */
    unsigned num_spec_constants;             /* first clSetProgramSpecializationConstant */
    bool spec_constants_read;
    pthread_mutex_t lock;                /* guards the fields below */
    cl_build_status build_status;
    bool build_callback_pending; /* a build on its own thread has not called back yet */
    char *build_options;
    char *build_log;
    struct cc_program *built;            /* NULL until a build succeeded */
    char *kernel_names;                  /* ";"-joined, NULL until built */
    bool non_uniform;                    /* non-uniform work-groups allowed (program.c) */
    bool flush_denormals;                /* built or linked with -cl-denorms-are-zero */
    cl_program_binary_type binary_type;
    void *object;                        /* bitcode of a compiled object, a library, or a
                                          * binary given to clCreateProgramWithBinary */
    size_t object_size;
    cl_uint kernels_attached;            /* kernel objects alive: no rebuild while > 0 */
    struct rt_callback *release_callbacks;
};

struct rt_kernel_arg {
    bool set;
    bool is_svm;                         /* set by clSetKernelArgSVMPointer */
    void *svm_pointer;
    size_t local_size;                   /* CC_ARG_LOCAL */
    cl_mem mem;                          /* CC_ARG_BUFFER, CC_ARG_IMAGE; not held */
};

struct _cl_kernel {
    struct rt_object obj;
    cl_program program;                  /* held */
    const struct cc_kernel_info *info;   /* owned by program->built */
    unsigned char *arg_block;            /* info->arg_block_size bytes */
    struct rt_kernel_arg *args;
};

/* The part of a command the runtime keeps until it completes. */
struct rt_command;

struct _cl_event {
    struct rt_object obj;
    cl_context context;
    cl_command_queue queue;              /* NULL for user events; held while pending */
    cl_command_type command_type;
    pthread_mutex_t lock;                /* guards the fields below */
    pthread_cond_t changed;
    cl_int status;
    struct rt_callback *callbacks;
    struct rt_event_list *dependents;    /* commands waiting for this event */
    cl_ulong times[5];                   /* queued, submit, start, end, complete (ns) */
    bool ended;                          /* times[3] recorded before completion */
    bool profiled;                       /* its queue has CL_QUEUE_PROFILING_ENABLE */
};

/* cl_khr_semaphore: a binary semaphore (src/api/semaphore.c). `signal` is
 * the event of the last signal command no wait has taken yet; `waiter` a
 * user event that a wait enqueued before any signal depends on, which the
 * next signal's completion completes. Each is held (an application-style
 * reference) or NULL. */
struct _cl_semaphore_khr {
    struct rt_object obj;
    cl_context context;  /* held */
    cl_device_id device; /* the device it is for */
    cl_semaphore_properties_khr properties[6];
    size_t num_properties; /* entries incl. the terminating 0 */
    pthread_mutex_t lock;  /* guards signal and waiter */
    cl_event signal;
    cl_event waiter;
};

/* cl_khr_command_buffer (src/api/command_buffer.c): commands built as
 * their enqueues build them, never enqueued themselves; each enqueue of the
 * buffer runs copies of them. A sync point is a command's index + 1. */
struct rt_recorded {
    struct rt_command *command; /* NULL: a mutable launch whose arguments are not all set */
    cl_sync_point_khr *waits;   /* the sync points it waits for */
    cl_uint num_waits;
    cl_mutable_command_khr mutable_launch; /* a kernel launch's handle, else NULL */
};

struct _cl_command_buffer_khr {
    struct rt_object obj;
    cl_command_queue queue; /* retained: an application reference (API spec) */
    cl_context context;     /* held */
    cl_command_buffer_properties_khr properties[5];
    size_t num_properties; /* entries incl. the terminating 0; 0: none given */
    cl_bitfield flags;     /* CL_COMMAND_BUFFER_FLAGS_KHR */
    cl_bitfield asserts;   /* CL_COMMAND_BUFFER_MUTABLE_DISPATCH_ASSERTS_KHR */
    pthread_mutex_t lock;  /* guards the fields below */
    bool finalized;
    struct rt_recorded *commands;
    cl_uint count, capacity;
    cl_uint last_barrier; /* the newest barrier's sync point, 0: none */
};

/* cl_khr_command_buffer_mutable_dispatch (src/api/mutable_dispatch.c): a
 * recorded kernel launch that updates may change; it lives as long as its
 * command-buffer, whose lock guards it. */
#define RT_MUTABLE_MAGIC 0x4d555444u
/* A launch's sizes as given: zeros where an array was NULL (has_* false). */
struct rt_launch_sizes {
    cl_uint work_dim;
    size_t offset[3], global[3], local[3];
    bool has_offset, has_global, has_local;
};
struct _cl_mutable_command_khr {
    uint32_t magic;
    cl_command_buffer_khr buffer; /* not held: the buffer owns the handle */
    cl_uint index;                /* its entry in buffer->commands */
    cl_kernel kernel;             /* as recorded (held) */
    cl_kernel state;              /* a clone with the launch's arguments (retained) */
    cl_bitfield updatable;        /* CL_MUTABLE_DISPATCH_UPDATABLE_FIELDS_KHR */
    cl_properties properties[5];
    size_t num_properties; /* as given, incl. the 0; 0: none given */
    struct rt_launch_sizes sizes; /* as last recorded or updated */
};

/* Frees a mutable-command object: its buffer's destruction, or a record
 * that failed. */
void rt_mutable_command_free(cl_mutable_command_khr command);

struct rt_event_list {
    struct rt_event_list *next;
    cl_event event;
    struct rt_command *command;
    bool explicit_wait;                  /* from a wait list: an error fails the command */
    bool in_command;                     /* one of command->waits: not freed on its own */
};

/* Lifecycle hooks called from object.c: `released` when the application's
 * last reference goes, `destroy` when the last hold goes. */
void rt_object_released(struct rt_object *object);
void rt_object_destroy(struct rt_object *object);

/* Adds a callback to `list` (guarded by `lock`), newest first. */
cl_int rt_callback_push(struct rt_callback **list, pthread_mutex_t *lock,
                        void (CL_CALLBACK *fn)(), void *user_data);

/* On-device queues (API spec 5.1), device_enqueue.c. rt_add_device_queue
 * puts a new device queue on its context's list, as the default one when
 * `make_default`, unless the device has a default already, which is then
 * returned in *existing with a new reference instead. */
void rt_add_device_queue(cl_command_queue queue, bool make_default, cl_command_queue *existing);
void rt_remove_device_queue(cl_command_queue queue);   /* at its release */
void rt_set_default_device_queue(cl_command_queue queue);
/* The device's default device queue in the context, NULL when none. */
cl_command_queue rt_default_device_queue(cl_context context, cl_device_id device);
/* Hands the kernels' device-side enqueue functions to the compiler. */
void rt_device_enqueue_init(void);

/* The single platform and its root device. */
cl_platform_id rt_platform(void);
/* The root CPU device, or NULL when the machine cannot be read. */
cl_device_id rt_root_device(void);
cl_ulong rt_now_ns(void);

#endif
