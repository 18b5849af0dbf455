/* api.h - helpers shared by the cl* entry points (internal to src/api).
 *
 * Entry points check their arguments here, once, in the order the spec lists
 * the errors, and then call into src/runtime, which trusts them.
 */
#ifndef CPUCL_API_API_H
#define CPUCL_API_API_H

#include <string.h>

#include <CL/cl_ext.h>

#include "runtime/command.h"
#include "runtime/runtime.h"

/* Entry points are exported from the direct library; the ICD library's
 * version script keeps them local. */
#define API_EXPORT __attribute__((visibility("default")))

/* Handle checks: the object when `handle` is a live object of the type. */
static inline int api_valid_platform(cl_platform_id p) { return p == rt_platform() && p; }
static inline int api_valid_device(cl_device_id d) { return rt_object_valid(d, RT_DEVICE); }
static inline int api_valid_context(cl_context c) { return rt_object_valid(c, RT_CONTEXT); }
/* A host command-queue: what every clEnqueue*, clFlush and clFinish take
 * (5.1: commands go to an on-device queue only from kernels). */
static inline int api_valid_queue(cl_command_queue q)
{
    return rt_object_valid(q, RT_QUEUE) && !(q->properties & CL_QUEUE_ON_DEVICE);
}
/* Any queue, host or on-device: retain, release, info. */
static inline int api_valid_any_queue(cl_command_queue q) { return rt_object_valid(q, RT_QUEUE); }
static inline int api_valid_mem(cl_mem m) { return rt_object_valid(m, RT_MEM); }
static inline int api_valid_program(cl_program p) { return rt_object_valid(p, RT_PROGRAM); }
static inline int api_valid_kernel(cl_kernel k) { return rt_object_valid(k, RT_KERNEL); }
static inline int api_valid_event(cl_event e) { return rt_object_valid(e, RT_EVENT); }
static inline int api_valid_sampler(cl_sampler s) { return rt_object_valid(s, RT_SAMPLER); }
static inline int api_valid_semaphore(cl_semaphore_khr s)
{
    return rt_object_valid(s, RT_SEMAPHORE);
}

/* cl_khr_command_buffer 0.9.8 (Debian 12's headers have 0.9.1, without
 * these): command_buffer.c. */
#ifndef CL_DEVICE_COMMAND_BUFFER_SUPPORTED_QUEUE_PROPERTIES_KHR
#define CL_DEVICE_COMMAND_BUFFER_SUPPORTED_QUEUE_PROPERTIES_KHR 0x129A
#endif
#ifndef CL_COMMAND_BUFFER_CONTEXT_KHR
#define CL_COMMAND_BUFFER_CONTEXT_KHR 0x1299
#endif
/* The properties of the host queues a command-buffer may run on: all. */
#define API_COMMAND_BUFFER_QUEUE_PROPERTIES                                                        \
    ((cl_command_queue_properties)(CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE |                        \
                                   CL_QUEUE_PROFILING_ENABLE))
static inline int api_valid_command_buffer(cl_command_buffer_khr b)
{
    return rt_object_valid(b, RT_COMMAND_BUFFER);
}
/* The address of a cl_khr_command_buffer or _mutable_dispatch function by
 * name, NULL for other names (clGetExtensionFunctionAddress). */
void *api_command_buffer_function(const char *name);
void *api_mutable_dispatch_function(const char *name);

/* cl_khr_command_buffer_mutable_dispatch 0.9.5 (mutable_dispatch.c;
 * Debian 12's headers have 0.9.0's, whose values partly differ) */
#define API_MUTABLE_FLAG ((cl_bitfield)1 << 1)      /* CL_COMMAND_BUFFER_MUTABLE_KHR */
#define API_SIMULTANEOUS_FLAG ((cl_bitfield)1 << 0) /* CL_COMMAND_BUFFER_SIMULTANEOUS_USE_KHR */
#define API_MUTABLE_FIELDS ((cl_bitfield)0x1f)      /* every CL_MUTABLE_DISPATCH_*_KHR field */
#define API_BUFFER_ASSERTS 0x12B7  /* CL_COMMAND_BUFFER_MUTABLE_DISPATCH_ASSERTS_KHR */
#define API_COMMAND_ASSERTS 0x12B8 /* CL_MUTABLE_DISPATCH_ASSERTS_KHR */
#define API_NO_ADDITIONAL_WORK_GROUPS                                                              \
    ((cl_bitfield)1) /* ..._ASSERT_NO_ADDITIONAL_WORK_GROUPS_KHR */

/* Records a kernel launch into `buffer` (locked by the caller), checked as
 * clEnqueueNDRangeKernel checks it and by its command properties: *command
 * is the built launch, or NULL when a mutable buffer's launch waits for
 * its arguments; *handle (when asked for or the buffer is mutable) the
 * launch's mutable-command object, owned by the buffer from record_end. */
cl_int api_record_launch(cl_command_buffer_khr buffer, const cl_properties *properties,
                         cl_kernel kernel, cl_uint work_dim, const size_t *global_work_offset,
                         const size_t *global_work_size, const size_t *local_work_size,
                         bool want_handle, struct rt_command **command,
                         cl_mutable_command_khr *handle);

/* cl_ext_buffer_device_address 1.0.2 (not in Debian 12's headers):
 * memory.c, kernel arguments in svm.c. A buffer's device address is its
 * storage's address: the device is the host. */
#ifndef CL_MEM_DEVICE_PRIVATE_ADDRESS_EXT
#define CL_MEM_DEVICE_PRIVATE_ADDRESS_EXT 0x5000
#define CL_MEM_DEVICE_ADDRESS_EXT 0x5001
#define CL_KERNEL_EXEC_INFO_DEVICE_PTRS_EXT 0x5002
typedef cl_ulong cl_mem_device_address_ext;
#endif
/* clSetKernelArgDevicePointerEXT, found by name (svm.c) */
cl_int CL_API_CALL api_set_kernel_arg_device_pointer(cl_kernel kernel, cl_uint arg_index,
                                                     cl_mem_device_address_ext arg_value);

/* Writes an info answer of `size` bytes per the rules every clGet*Info
 * shares: param_value may be NULL; if not, param_value_size must be at
 * least `size` (else CL_INVALID_VALUE); param_value_size_ret may be NULL. */
static inline cl_int api_info(size_t param_value_size, void *param_value,
                              size_t *param_value_size_ret, const void *answer, size_t size)
{
    if (param_value) {
        if (param_value_size < size)
            return CL_INVALID_VALUE;
        if (size)
            memcpy(param_value, answer, size);
    }
    if (param_value_size_ret)
        *param_value_size_ret = size;
    return CL_SUCCESS;
}

static inline cl_int api_info_string(size_t param_value_size, void *param_value,
                                     size_t *param_value_size_ret, const char *text)
{
    return api_info(param_value_size, param_value, param_value_size_ret, text, strlen(text) + 1);
}

#define API_INFO(value) api_info(param_value_size, param_value, param_value_size_ret, &(value), sizeof(value))
#define API_INFO_STRING(text) api_info_string(param_value_size, param_value, param_value_size_ret, (text))

static inline void api_set_error(cl_int *errcode_ret, cl_int error)
{
    if (errcode_ret)
        *errcode_ret = error;
}

/* True when `device` is one of the context's devices. */
int api_context_has_device(cl_context context, cl_device_id device);

/* 5.11: a wait list and its count must agree, and every event must be valid
 * and belong to `context`. */
cl_int api_check_wait_list(cl_context context, cl_uint num_events, const cl_event *events);

/* Enqueues a built command; with `blocking` waits for it. Returns
 * CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST when a blocking command
 * failed because of its wait list. */
cl_int api_submit(struct rt_command *command, cl_uint num_events, const cl_event *wait_list,
                  cl_event *event, cl_bool blocking);

/* Bytes from `pointer` to the end of the SVM allocation of `context` it
 * lies in; 0 when it lies in none. */
size_t api_svm_room(cl_context context, const void *pointer);

/* cl_ext_immutable_memory_objects (not in Debian 12's headers): a memory
 * object no command may change after its creation. */
#ifndef CL_MEM_IMMUTABLE_EXT
#define CL_MEM_IMMUTABLE_EXT ((cl_mem_flags)1 << 6)
#endif
/* Flags that let commands write a memory object, which an immutable one may
 * not have (API 5.2.1, 5.3.1). */
#define API_MEM_WRITABLE_FLAGS (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_HOST_WRITE_ONLY)

/* 5.2.1, table 5.3: whether buffer (and image) flags are valid together. */
int api_valid_buffer_flags(cl_mem_flags flags);

/* Whether commands may not write `mem` (CL_MEM_IMMUTABLE_EXT): writes,
 * copies and fills into it and maps for writing answer
 * CL_INVALID_OPERATION. */
static inline int api_mem_immutable(cl_mem mem)
{
    return (mem->flags & CL_MEM_IMMUTABLE_EXT) != 0;
}

/* 5.2.2: the flags of an object made over `parent` (a sub-buffer, an image
 * from a buffer or from another image): what `flags` do not say is
 * inherited (immutability too), and no access the parent forbids may be
 * asked for. */
cl_int api_derived_mem_flags(cl_mem parent, cl_mem_flags flags, cl_mem_flags *out);
/* The properties of a memory object (external_memory.c):
 * CL_MEM_DEVICE_PRIVATE_ADDRESS_EXT (buffers), a dma_buf to import
 * (cl_khr_external_memory_dma_buf) and the devices that may use it. */
struct api_mem_properties {
    bool device_address;
    int external_fd; /* -1: none */
    size_t count;    /* entries with the ending 0; 0 without properties */
};
/* cl_khr_gl_sharing (gl_sharing.c): the GL of a context made with these
 * properties, NULL when they name no GL context; the errors are
 * clCreateContext's. */
cl_int api_gl_open(const cl_context_properties *properties, struct rt_gl **gl);
/* clCreateImage for an image over a GL texture (image.c): also takes the
 * formats only GL gives (rt_image_format_from_gl). */
cl_mem api_create_gl_image(cl_context context, cl_mem_flags flags, const cl_image_format *format,
                           const cl_image_desc *desc, cl_int *errcode_ret);

cl_int api_read_mem_properties(cl_context context, const cl_mem_properties *properties,
                               bool is_buffer, struct api_mem_properties *out);
/* An imported object's flags and host pointer: none of the host pointer's */
cl_int api_check_external_flags(cl_mem_flags flags, const void *host_ptr);
/* Maps `size` bytes of the dma_buf `fd` as mem's storage, which then owns
 * the descriptor; `too_big` is the error when its payload is smaller. */
cl_int api_map_external(cl_mem mem, int fd, size_t size, cl_int too_big);
/* A new memory object of `context` (held) with its type and flags set and
 * its lock ready; NULL when out of memory. */
cl_mem api_mem_new(cl_context context, cl_mem_object_type type, cl_mem_flags flags);
/* A copy of rows x slices rows of row_bytes between two pitched regions,
 * run on the workers; NULL when memory is short. */
struct rt_command *api_new_box_copy(cl_command_queue queue, cl_command_type type, char *dst,
                                    size_t dst_row, size_t dst_slice, const char *src,
                                    size_t src_row, size_t src_slice, size_t row_bytes,
                                    size_t rows, size_t slices);

/* Finishes a copy command made above: CL_OUT_OF_HOST_MEMORY for NULL,
 * else the command holds both objects and goes to *out. */
cl_int api_copy_command(struct rt_command *command, cl_mem src, cl_mem dst,
                        struct rt_command **out);

/* Enqueues a command an api_build_* function made (below). */
cl_int api_submit_built(cl_int err, struct rt_command *command, cl_uint num_events,
                        const cl_event *wait_list, cl_event *event, cl_bool blocking);

/* Commands an enqueue and a command-buffer (cl_khr_command_buffer,
 * command_buffer.c) both make. Each checks its arguments as the enqueue
 * of its name does (the wait list too, which a command-buffer passes
 * empty), in the spec's order, and builds the command without submitting
 * it: *out is the command, or untouched on an error. */
cl_int api_build_copy_buffer(cl_command_queue queue, cl_mem src, cl_mem dst, size_t src_offset,
                             size_t dst_offset, size_t size, cl_uint num_events,
                             const cl_event *wait_list, struct rt_command **out);
cl_int api_build_copy_buffer_rect(cl_command_queue queue, cl_mem src, cl_mem dst,
                                  const size_t *src_origin, const size_t *dst_origin,
                                  const size_t *region, size_t src_row_pitch,
                                  size_t src_slice_pitch, size_t dst_row_pitch,
                                  size_t dst_slice_pitch, cl_uint num_events,
                                  const cl_event *wait_list, struct rt_command **out);
cl_int api_build_fill_buffer(cl_command_queue queue, cl_mem buffer, const void *pattern,
                             size_t pattern_size, size_t offset, size_t size, cl_uint num_events,
                             const cl_event *wait_list, struct rt_command **out);
cl_int api_build_copy_image(cl_command_queue queue, cl_mem src, cl_mem dst,
                            const size_t *src_origin, const size_t *dst_origin,
                            const size_t *region, cl_uint num_events, const cl_event *wait_list,
                            struct rt_command **out);
cl_int api_build_copy_image_to_buffer(cl_command_queue queue, cl_mem src, cl_mem dst,
                                      const size_t *src_origin, const size_t *region,
                                      size_t dst_offset, cl_uint num_events,
                                      const cl_event *wait_list, struct rt_command **out);
cl_int api_build_copy_buffer_to_image(cl_command_queue queue, cl_mem src, cl_mem dst,
                                      size_t src_offset, const size_t *dst_origin,
                                      const size_t *region, cl_uint num_events,
                                      const cl_event *wait_list, struct rt_command **out);
cl_int api_build_fill_image(cl_command_queue queue, cl_mem image, const void *fill_color,
                            const size_t *origin, const size_t *region, cl_uint num_events,
                            const cl_event *wait_list, struct rt_command **out);
cl_int api_build_svm_memcpy(cl_command_queue queue, void *dst, const void *src, size_t size,
                            cl_uint num_events, const cl_event *wait_list, struct rt_command **out);
cl_int api_build_svm_memfill(cl_command_queue queue, void *svm_ptr, const void *pattern,
                             size_t pattern_size, size_t size, cl_uint num_events,
                             const cl_event *wait_list, struct rt_command **out);
/* A launch's `use`: API_LAUNCH_RECORDED for a command-buffer's, which runs
 * again and again (its launch copy is made at once, codegen.c);
 * API_LAUNCH_ARGS_LATER too when its arguments may come later: a kernel
 * whose arguments are not all set is then checked as far as it can be and
 * gives CL_SUCCESS with *out NULL (a mutable launch, built when an update
 * sets them). */
enum { API_LAUNCH_NOW = 0, API_LAUNCH_RECORDED = 1, API_LAUNCH_ARGS_LATER = 2 };
cl_int api_build_ndrange_kernel(cl_command_queue queue, cl_kernel kernel, cl_uint work_dim,
                                const size_t *global_work_offset, const size_t *global_work_size,
                                const size_t *local_work_size, cl_uint num_events,
                                const cl_event *wait_list, unsigned use, struct rt_command **out);

/* Maps (5.2.2, 5.3.6): whether the map flags are valid together; whether
 * the object's host-access flags forbid what they ask; and the map command
 * of `pointer` into `mem`, remembered for the unmap. */
bool api_valid_map_flags(cl_map_flags flags);
bool api_map_forbidden(cl_mem mem, cl_map_flags flags);
cl_int api_enqueue_map(cl_command_queue queue, cl_mem mem, cl_command_type type, void *pointer,
                       cl_bool blocking, cl_uint num_events, const cl_event *wait_list,
                       cl_event *event);

/* True when `mem` is a live image (any image type). */
bool api_is_image(cl_mem mem);

/* True when `mem` is a live pipe (src/api/pipe.c). */
bool api_is_pipe(cl_mem mem);

/* Pipe limits the device reports (table 4.3 minimums: 16, 1, 1024) and
 * clCreatePipe enforces. Reservations are limited only by a pipe's
 * capacity (src/builtins/pipe.h). */
#define API_MAX_PIPE_ARGS 16
#define API_PIPE_MAX_ACTIVE_RESERVATIONS 65536
#define API_PIPE_MAX_PACKET_SIZE 65536

/* Image limits the device reports and clCreateImage enforces (pixels). */
/* On-device queues (table 4.3's 2.x minimums; see device.c). Queues are
 * not limited in number: API_MAX_DEVICE_QUEUES is what is promised. */
#define API_DEVICE_QUEUE_PREFERRED_SIZE (16 * 1024)
#define API_DEVICE_QUEUE_MAX_SIZE (256 * 1024)
#define API_MAX_DEVICE_QUEUES 4
#define API_MAX_DEVICE_EVENTS 1024

#define API_IMAGE2D_MAX 16384
#define API_IMAGE3D_MAX 2048
#define API_IMAGE_MAX_ARRAY_SIZE 2048
#define API_IMAGE_MAX_BUFFER_SIZE ((size_t)1 << 27)
#define API_IMAGE_PITCH_ALIGNMENT 1      /* pixels */
#define API_IMAGE_BASE_ADDRESS_ALIGNMENT 4 /* pixels */

/* Enqueues a command with no device work (marker, barrier, map of shared
 * memory, migration): it only orders, after the wait list is checked. */
cl_int api_enqueue_no_work(cl_command_queue queue, cl_command_type type, bool is_barrier,
                           cl_bool blocking, cl_uint num_events, const cl_event *wait_list,
                           cl_event *event);

/* Makes `command` one call of fn(arg) on a worker (native kernels, SVM
 * frees, external memory's syncs); arg is freed with the command. */
void api_set_call_job(struct rt_command *command, void (*fn)(void *), void *arg);

/* The CL_DEVICE_* facts other entry points need. */
size_t api_device_max_work_group_size(cl_device_id device);
cl_ulong api_device_max_mem_alloc_size(cl_device_id device);
/* The affinity domains that split the device in two or more, and
 * next-partitionable (sub_devices.c). */
cl_device_affinity_domain api_affinity_domains(cl_device_id device);
/* Whether `size` bytes from `p` run past the end of the address space:
 * no memory at all, whatever the application says it holds (and the
 * copies' address arithmetic would wrap). */
static inline bool api_past_address_space(const void *p, size_t size)
{
    return (uintptr_t)p + size < (uintptr_t)p;
}

/* A new program of the context (program.c), taking over `source` (may be
 * NULL); NULL when out of memory. */
cl_program api_new_program(cl_context context, char *source);
/* 5.8: the device list of clCreateProgramWithBinary, clBuildProgram,
 * clCompileProgram and clLinkProgram (NULL with 0, or devices of `context`). */
cl_int api_check_device_list(cl_context context, cl_uint num_devices,
                             const cl_device_id *device_list);
/* Bytes of local arena a launch of the kernel needs with its current args. */
size_t api_kernel_local_mem_size(cl_kernel kernel);
#define API_MEM_BASE_ADDR_ALIGN_BITS 1024   /* buffers are 128-byte aligned */

/* cl_khr_extended_versioning (versions.c): the list of a space-separated
 * extension string with each extension's version (malloc'd, *count
 * entries; NULL when out of memory), and the device's ILs. */
cl_name_version_khr *api_extension_versions(const char *extensions, size_t *count);
#define API_NUM_IL_VERSIONS 7
extern const cl_name_version_khr api_il_versions[API_NUM_IL_VERSIONS];
/* The device's extension string (static storage; NULL when out of memory). */
const char *api_device_extensions(void);

#endif
