/* command_buffer.h - cl_khr_command_buffer 0.9.8 and its mutable-dispatch
 * layer 0.9.5 for the tests: the entry points' signatures and the names
 * Debian 12's headers (0.9.1 and 0.9.0) lack or define differently, and
 * one pointer per entry point, found by name as an application through the
 * ICD loader finds them. */
#ifndef CPUCL_TESTS_COMMAND_BUFFER_H
#define CPUCL_TESTS_COMMAND_BUFFER_H

#include "../harness.h"

#ifndef CL_DEVICE_COMMAND_BUFFER_SUPPORTED_QUEUE_PROPERTIES_KHR
#define CL_DEVICE_COMMAND_BUFFER_SUPPORTED_QUEUE_PROPERTIES_KHR 0x129A
#endif
#ifndef CL_COMMAND_BUFFER_CONTEXT_KHR
#define CL_COMMAND_BUFFER_CONTEXT_KHR 0x1299
#endif
#define STATE_FINALIZED 2 /* CL_COMMAND_BUFFER_STATE_FINALIZED_KHR */

/* mutable dispatch 0.9.5: its config (0.9.0's starts with type and next) */
struct dispatch_config {
    cl_mutable_command_khr command;
    cl_uint num_args, num_svm_args, num_exec_infos, work_dim;
    const cl_mutable_dispatch_arg_khr *arg_list, *arg_svm_list;
    const cl_mutable_dispatch_exec_info_khr *exec_info_list;
    const size_t *global_work_offset, *global_work_size, *local_work_size;
};
#define DISPATCH_CONFIG 0u /* CL_STRUCTURE_TYPE_MUTABLE_DISPATCH_CONFIG_KHR */
#define MUTABLE_FLAG 2u    /* CL_COMMAND_BUFFER_MUTABLE_KHR */
#define INFO_BUFFER 0x12A1 /* CL_MUTABLE_COMMAND_COMMAND_BUFFER_KHR */
#define INFO_TYPE 0x12AD
#define INFO_PROPERTIES 0x12A2
#define INFO_KERNEL 0x12A3
#define INFO_DIMENSIONS 0x12A4
#define INFO_GLOBAL 0x12A6
#define INFO_LOCAL 0x12A7
#define UPDATABLE_FIELDS 0x12B1 /* CL_MUTABLE_DISPATCH_UPDATABLE_FIELDS_KHR */

typedef cl_properties command_props;
#define SYNC cl_uint, const cl_sync_point_khr *, cl_sync_point_khr *, cl_mutable_command_khr *
#define START cl_command_buffer_khr, cl_command_queue, const command_props *
static struct {
    cl_command_buffer_khr(CL_API_CALL *create)(cl_uint, const cl_command_queue *,
                                               const cl_command_buffer_properties_khr *, cl_int *);
    cl_int(CL_API_CALL *retain)(cl_command_buffer_khr);
    cl_int(CL_API_CALL *release)(cl_command_buffer_khr);
    cl_int(CL_API_CALL *finalize)(cl_command_buffer_khr);
    cl_int(CL_API_CALL *enqueue)(cl_uint, cl_command_queue *, cl_command_buffer_khr, cl_uint,
                                 const cl_event *, cl_event *);
    cl_int(CL_API_CALL *barrier)(START, SYNC);
    cl_int(CL_API_CALL *copy)(START, cl_mem, cl_mem, size_t, size_t, size_t, SYNC);
    cl_int(CL_API_CALL *copy_rect)(START, cl_mem, cl_mem, const size_t *, const size_t *,
                                   const size_t *, size_t, size_t, size_t, size_t, SYNC);
    cl_int(CL_API_CALL *fill)(START, cl_mem, const void *, size_t, size_t, size_t, SYNC);
    cl_int(CL_API_CALL *fill_image)(START, cl_mem, const void *, const size_t *, const size_t *,
                                    SYNC);
    cl_int(CL_API_CALL *image_to_buffer)(START, cl_mem, cl_mem, const size_t *, const size_t *,
                                         size_t, SYNC);
    cl_int(CL_API_CALL *ndrange)(START, cl_kernel, cl_uint, const size_t *, const size_t *,
                                 const size_t *, SYNC);
    cl_int(CL_API_CALL *svm_memcpy)(START, void *, const void *, size_t, SYNC);
    cl_int(CL_API_CALL *info)(cl_command_buffer_khr, cl_command_buffer_info_khr, size_t, void *,
                              size_t *);
    cl_int(CL_API_CALL *update)(cl_command_buffer_khr, cl_uint, const cl_uint *, const void **);
    cl_int(CL_API_CALL *command_info)(cl_mutable_command_khr, cl_uint, size_t, void *, size_t *);
} khr;
#undef SYNC
#undef START

/* Finds every entry point; stops the test when one is missing. */
static inline void find_command_buffer_functions(cl_platform_id platform)
{
#define FIND(member, name)                                                                         \
    *(void **)&khr.member = clGetExtensionFunctionAddressForPlatform(platform, #name);             \
    REQUIRE(khr.member != NULL)
    FIND(create, clCreateCommandBufferKHR);
    FIND(retain, clRetainCommandBufferKHR);
    FIND(release, clReleaseCommandBufferKHR);
    FIND(finalize, clFinalizeCommandBufferKHR);
    FIND(enqueue, clEnqueueCommandBufferKHR);
    FIND(barrier, clCommandBarrierWithWaitListKHR);
    FIND(copy, clCommandCopyBufferKHR);
    FIND(copy_rect, clCommandCopyBufferRectKHR);
    FIND(fill, clCommandFillBufferKHR);
    FIND(fill_image, clCommandFillImageKHR);
    FIND(image_to_buffer, clCommandCopyImageToBufferKHR);
    FIND(ndrange, clCommandNDRangeKernelKHR);
    FIND(svm_memcpy, clCommandSVMMemcpyKHR);
    FIND(info, clGetCommandBufferInfoKHR);
    FIND(update, clUpdateMutableCommandsKHR);
    FIND(command_info, clGetMutableCommandInfoKHR);
#undef FIND
}

#endif
