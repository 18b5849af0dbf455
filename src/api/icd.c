/* icd.c - cl_khr_icd: the dispatch table every handle points to, and the
 * extension-function lookup.
 *
 * The ICD loader calls through the table of the first handle argument, so
 * every slot of OpenCL 1.0-2.2 that cpucl implements is filled. Slots of
 * interop extensions cpucl does not list (D3D, DX9, device fission)
 * stay NULL: an application reaches them only through an extension the
 * device does not report.
 */
#include "api/api.h"
#include "api/icd.h"

const struct _cl_icd_dispatch api_dispatch = {
    /* OpenCL 1.0 */
    .clGetPlatformIDs = clGetPlatformIDs,
    .clGetPlatformInfo = clGetPlatformInfo,
    .clGetDeviceIDs = clGetDeviceIDs,
    .clGetDeviceInfo = clGetDeviceInfo,
    .clCreateContext = clCreateContext,
    .clCreateContextFromType = clCreateContextFromType,
    .clRetainContext = clRetainContext,
    .clReleaseContext = clReleaseContext,
    .clGetContextInfo = clGetContextInfo,
    .clCreateCommandQueue = clCreateCommandQueue,
    .clRetainCommandQueue = clRetainCommandQueue,
    .clReleaseCommandQueue = clReleaseCommandQueue,
    .clGetCommandQueueInfo = clGetCommandQueueInfo,
    .clCreateBuffer = clCreateBuffer,
    .clCreateImage2D = clCreateImage2D,
    .clCreateImage3D = clCreateImage3D,
    .clRetainMemObject = clRetainMemObject,
    .clReleaseMemObject = clReleaseMemObject,
    .clGetSupportedImageFormats = clGetSupportedImageFormats,
    .clGetMemObjectInfo = clGetMemObjectInfo,
    .clGetImageInfo = clGetImageInfo,
    .clCreateSampler = clCreateSampler,
    .clRetainSampler = clRetainSampler,
    .clReleaseSampler = clReleaseSampler,
    .clGetSamplerInfo = clGetSamplerInfo,
    .clCreateProgramWithSource = clCreateProgramWithSource,
    .clCreateProgramWithBinary = clCreateProgramWithBinary,
    .clRetainProgram = clRetainProgram,
    .clReleaseProgram = clReleaseProgram,
    .clBuildProgram = clBuildProgram,
    .clUnloadCompiler = clUnloadCompiler,
    .clGetProgramInfo = clGetProgramInfo,
    .clGetProgramBuildInfo = clGetProgramBuildInfo,
    .clCreateKernel = clCreateKernel,
    .clCreateKernelsInProgram = clCreateKernelsInProgram,
    .clRetainKernel = clRetainKernel,
    .clReleaseKernel = clReleaseKernel,
    .clSetKernelArg = clSetKernelArg,
    .clGetKernelInfo = clGetKernelInfo,
    .clGetKernelWorkGroupInfo = clGetKernelWorkGroupInfo,
    .clWaitForEvents = clWaitForEvents,
    .clGetEventInfo = clGetEventInfo,
    .clRetainEvent = clRetainEvent,
    .clReleaseEvent = clReleaseEvent,
    .clGetEventProfilingInfo = clGetEventProfilingInfo,
    .clFlush = clFlush,
    .clFinish = clFinish,
    .clEnqueueReadBuffer = clEnqueueReadBuffer,
    .clEnqueueWriteBuffer = clEnqueueWriteBuffer,
    .clEnqueueCopyBuffer = clEnqueueCopyBuffer,
    .clEnqueueReadImage = clEnqueueReadImage,
    .clEnqueueWriteImage = clEnqueueWriteImage,
    .clEnqueueCopyImage = clEnqueueCopyImage,
    .clEnqueueCopyImageToBuffer = clEnqueueCopyImageToBuffer,
    .clEnqueueCopyBufferToImage = clEnqueueCopyBufferToImage,
    .clEnqueueMapBuffer = clEnqueueMapBuffer,
    .clEnqueueMapImage = clEnqueueMapImage,
    .clEnqueueUnmapMemObject = clEnqueueUnmapMemObject,
    .clEnqueueNDRangeKernel = clEnqueueNDRangeKernel,
    .clEnqueueTask = clEnqueueTask,
    .clEnqueueNativeKernel = clEnqueueNativeKernel,
    .clEnqueueMarker = clEnqueueMarker,
    .clEnqueueWaitForEvents = clEnqueueWaitForEvents,
    .clEnqueueBarrier = clEnqueueBarrier,
    .clGetExtensionFunctionAddress = clGetExtensionFunctionAddress,
    .clSetCommandQueueProperty = clSetCommandQueueProperty,
    .clCreateFromGLBuffer = clCreateFromGLBuffer,
    .clCreateFromGLTexture2D = clCreateFromGLTexture2D,
    .clCreateFromGLTexture3D = clCreateFromGLTexture3D,
    .clCreateFromGLRenderbuffer = clCreateFromGLRenderbuffer,
    .clGetGLObjectInfo = clGetGLObjectInfo,
    .clGetGLTextureInfo = clGetGLTextureInfo,
    .clEnqueueAcquireGLObjects = clEnqueueAcquireGLObjects,
    .clEnqueueReleaseGLObjects = clEnqueueReleaseGLObjects,
    .clGetGLContextInfoKHR = clGetGLContextInfoKHR,
    /* OpenCL 1.1 */
    .clCreateEventFromGLsyncKHR = clCreateEventFromGLsyncKHR,
    .clCreateEventFromEGLSyncKHR = clCreateEventFromEGLSyncKHR, /* cl_khr_egl_event */
    .clCreateFromEGLImageKHR = clCreateFromEGLImageKHR,         /* cl_khr_egl_image */
    .clEnqueueAcquireEGLObjectsKHR = clEnqueueAcquireEGLObjectsKHR,
    .clEnqueueReleaseEGLObjectsKHR = clEnqueueReleaseEGLObjectsKHR,
    .clSetEventCallback = clSetEventCallback,
    .clCreateSubBuffer = clCreateSubBuffer,
    .clSetMemObjectDestructorCallback = clSetMemObjectDestructorCallback,
    .clCreateUserEvent = clCreateUserEvent,
    .clSetUserEventStatus = clSetUserEventStatus,
    .clEnqueueReadBufferRect = clEnqueueReadBufferRect,
    .clEnqueueWriteBufferRect = clEnqueueWriteBufferRect,
    .clEnqueueCopyBufferRect = clEnqueueCopyBufferRect,
    /* OpenCL 1.2 */
    .clCreateSubDevices = clCreateSubDevices,
    .clRetainDevice = clRetainDevice,
    .clReleaseDevice = clReleaseDevice,
    .clCreateImage = clCreateImage,
    .clCreateProgramWithBuiltInKernels = clCreateProgramWithBuiltInKernels,
    .clCompileProgram = clCompileProgram,
    .clLinkProgram = clLinkProgram,
    .clUnloadPlatformCompiler = clUnloadPlatformCompiler,
    .clGetKernelArgInfo = clGetKernelArgInfo,
    .clEnqueueFillBuffer = clEnqueueFillBuffer,
    .clEnqueueFillImage = clEnqueueFillImage,
    .clEnqueueMigrateMemObjects = clEnqueueMigrateMemObjects,
    .clEnqueueMarkerWithWaitList = clEnqueueMarkerWithWaitList,
    .clEnqueueBarrierWithWaitList = clEnqueueBarrierWithWaitList,
    .clCreateFromGLTexture = clCreateFromGLTexture,
    .clGetExtensionFunctionAddressForPlatform = clGetExtensionFunctionAddressForPlatform,
    /* OpenCL 2.0 */
    .clCreateCommandQueueWithProperties = clCreateCommandQueueWithProperties,
    .clCreatePipe = clCreatePipe,
    .clGetPipeInfo = clGetPipeInfo,
    .clSVMAlloc = clSVMAlloc,
    .clSVMFree = clSVMFree,
    .clEnqueueSVMFree = clEnqueueSVMFree,
    .clEnqueueSVMMemcpy = clEnqueueSVMMemcpy,
    .clEnqueueSVMMemFill = clEnqueueSVMMemFill,
    .clEnqueueSVMMap = clEnqueueSVMMap,
    .clEnqueueSVMUnmap = clEnqueueSVMUnmap,
    .clCreateSamplerWithProperties = clCreateSamplerWithProperties,
    .clSetKernelArgSVMPointer = clSetKernelArgSVMPointer,
    .clSetKernelExecInfo = clSetKernelExecInfo,
    /* OpenCL 2.1 */
    .clCloneKernel = clCloneKernel,
    .clCreateProgramWithIL = clCreateProgramWithIL,
    .clEnqueueSVMMigrateMem = clEnqueueSVMMigrateMem,
    .clGetDeviceAndHostTimer = clGetDeviceAndHostTimer,
    .clGetHostTimer = clGetHostTimer,
    .clGetKernelSubGroupInfo = clGetKernelSubGroupInfo,
    .clGetKernelSubGroupInfoKHR = clGetKernelSubGroupInfoKHR,
    .clSetDefaultDeviceCommandQueue = clSetDefaultDeviceCommandQueue,
    /* OpenCL 2.2 */
    .clSetProgramReleaseCallback = clSetProgramReleaseCallback,
    .clSetProgramSpecializationConstant = clSetProgramSpecializationConstant,
    /* OpenCL 3.0 entry points cpucl already has */
    .clCreateBufferWithProperties = clCreateBufferWithProperties,
    .clCreateImageWithProperties = clCreateImageWithProperties,
    .clSetContextDestructorCallback = clSetContextDestructorCallback,
};

static const struct {
    const char *name;
    void *address;
} extension_functions[] = {
    {"clIcdGetPlatformIDsKHR", (void *)clIcdGetPlatformIDsKHR},
    {"clCreateProgramWithILKHR", (void *)clCreateProgramWithIL},        /* cl_khr_il_program */
    {"clGetKernelSubGroupInfoKHR", (void *)clGetKernelSubGroupInfoKHR}, /* cl_khr_subgroups */
    {"clCreateCommandQueueWithPropertiesKHR", /* cl_khr_create_command_queue */
     (void *)clCreateCommandQueueWithPropertiesKHR},
    {"clGetKernelSuggestedLocalWorkSizeKHR", /* cl_khr_suggested_local_work_size */
     (void *)clGetKernelSuggestedLocalWorkSizeKHR},
    /* cl_khr_semaphore (semaphore.c) */
    {"clCreateSemaphoreWithPropertiesKHR", (void *)clCreateSemaphoreWithPropertiesKHR},
    {"clEnqueueWaitSemaphoresKHR", (void *)clEnqueueWaitSemaphoresKHR},
    {"clEnqueueSignalSemaphoresKHR", (void *)clEnqueueSignalSemaphoresKHR},
    {"clGetSemaphoreInfoKHR", (void *)clGetSemaphoreInfoKHR},
    {"clRetainSemaphoreKHR", (void *)clRetainSemaphoreKHR},
    {"clReleaseSemaphoreKHR", (void *)clReleaseSemaphoreKHR},
    {"clGetSemaphoreHandleForTypeKHR", (void *)clGetSemaphoreHandleForTypeKHR}, /* not_offered.c */
    /* cl_khr_external_memory (external_memory.c) */
    {"clEnqueueAcquireExternalMemObjectsKHR", (void *)clEnqueueAcquireExternalMemObjectsKHR},
    {"clEnqueueReleaseExternalMemObjectsKHR", (void *)clEnqueueReleaseExternalMemObjectsKHR},
    /* cl_khr_gl_sharing (gl_sharing.c): the loader finds the first this
     * way, applications (the CTS among them) all of them */
    {"clGetGLContextInfoKHR", (void *)clGetGLContextInfoKHR},
    {"clCreateFromGLBuffer", (void *)clCreateFromGLBuffer},
    {"clCreateFromGLTexture", (void *)clCreateFromGLTexture},
    {"clCreateFromGLTexture2D", (void *)clCreateFromGLTexture2D},
    {"clCreateFromGLTexture3D", (void *)clCreateFromGLTexture3D},
    {"clCreateFromGLRenderbuffer", (void *)clCreateFromGLRenderbuffer},
    {"clGetGLObjectInfo", (void *)clGetGLObjectInfo},
    {"clGetGLTextureInfo", (void *)clGetGLTextureInfo},
    {"clEnqueueAcquireGLObjects", (void *)clEnqueueAcquireGLObjects},
    {"clEnqueueReleaseGLObjects", (void *)clEnqueueReleaseGLObjects},
    {"clCreateEventFromGLsyncKHR", (void *)clCreateEventFromGLsyncKHR},   /* cl_khr_gl_event */
    {"clCreateEventFromEGLSyncKHR", (void *)clCreateEventFromEGLSyncKHR}, /* cl_khr_egl_event */
    {"clCreateFromEGLImageKHR", (void *)clCreateFromEGLImageKHR},         /* cl_khr_egl_image */
    {"clEnqueueAcquireEGLObjectsKHR", (void *)clEnqueueAcquireEGLObjectsKHR},
    {"clEnqueueReleaseEGLObjectsKHR", (void *)clEnqueueReleaseEGLObjectsKHR},
    /* cl_ext_buffer_device_address (svm.c) */
    {"clSetKernelArgDevicePointerEXT", (void *)api_set_kernel_arg_device_pointer},
};

API_EXPORT CL_API_ENTRY void *CL_API_CALL clGetExtensionFunctionAddress(const char *name)
{
    if (!name)
        return NULL;
    for (size_t i = 0; i < sizeof extension_functions / sizeof extension_functions[0]; i++)
        if (!strcmp(name, extension_functions[i].name))
            return extension_functions[i].address;
    return api_command_buffer_function(name);
}

API_EXPORT CL_API_ENTRY void *CL_API_CALL
clGetExtensionFunctionAddressForPlatform(cl_platform_id platform, const char *name)
{
    if (!api_valid_platform(platform))
        return NULL;
    return clGetExtensionFunctionAddress(name);
}
