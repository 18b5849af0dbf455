/* platform.c - the platform (API spec 4.1) and cl_khr_icd's platform lookup.
 *
 * There is one platform, rt_platform(). It is reported only when its root
 * device exists, so that a platform the application finds always has a
 * device. */
#include "api/api.h"

/* 4.1 and cl_khr_icd share one contract; they differ only in what an empty
 * list means, so the count is also given back in *count. */
static cl_int get_platform_ids(cl_uint num_entries, cl_platform_id *platforms,
                               cl_uint *num_platforms, cl_uint *count)
{
    if ((num_entries == 0 && platforms) || (!platforms && !num_platforms))
        return CL_INVALID_VALUE;
    cl_platform_id platform = rt_platform();
    *count = platform && rt_root_device() ? 1 : 0;
    if (platforms && *count)
        platforms[0] = platform;
    if (num_platforms)
        *num_platforms = *count;
    return CL_SUCCESS;
}

API_EXPORT CL_API_ENTRY cl_int CL_API_CALL clGetPlatformIDs(cl_uint num_entries,
                                                            cl_platform_id *platforms,
                                                            cl_uint *num_platforms)
{
    cl_uint count;
    return get_platform_ids(num_entries, platforms, num_platforms, &count);
}

/* cl_khr_icd: as clGetPlatformIDs, but CL_PLATFORM_NOT_FOUND_KHR when there
 * is no platform to offer, so that the loader skips this library. */
API_EXPORT CL_API_ENTRY cl_int CL_API_CALL clIcdGetPlatformIDsKHR(cl_uint num_entries,
                                                                  cl_platform_id *platforms,
                                                                  cl_uint *num_platforms)
{
    cl_uint count;
    cl_int err = get_platform_ids(num_entries, platforms, num_platforms, &count);
    if (err)
        return err;
    return count ? CL_SUCCESS : CL_PLATFORM_NOT_FOUND_KHR;
}

API_EXPORT CL_API_ENTRY cl_int CL_API_CALL clGetPlatformInfo(cl_platform_id platform,
                                                             cl_platform_info param_name,
                                                             size_t param_value_size,
                                                             void *param_value,
                                                             size_t *param_value_size_ret)
{
    /* 4.1: what a NULL platform means is implementation-defined; it selects
     * ours. */
    if (!platform)
        platform = rt_platform();
    if (!api_valid_platform(platform))
        return CL_INVALID_PLATFORM;

    switch (param_name) {
    case CL_PLATFORM_PROFILE: return API_INFO_STRING("FULL_PROFILE");
    case CL_PLATFORM_VERSION: return API_INFO_STRING("OpenCL 2.2 cpucl 0.1");
    case CL_PLATFORM_NAME: return API_INFO_STRING("cpucl");
    case CL_PLATFORM_VENDOR: return API_INFO_STRING("cpucl");
    case CL_PLATFORM_EXTENSIONS: {
        /* 4.1: the platform's extensions are those all its devices support;
         * with one device, exactly the device's list (cl_khr_icd first). */
        cl_device_id device = rt_root_device();
        if (!device)
            return API_INFO_STRING("cl_khr_icd");
        return clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS, param_value_size, param_value,
                               param_value_size_ret);
    }
    case CL_PLATFORM_ICD_SUFFIX_KHR: return API_INFO_STRING("cpucl");
    /* cl_khr_extended_versioning */
    case CL_PLATFORM_NUMERIC_VERSION_KHR: {
        cl_version_khr version = CL_MAKE_VERSION_KHR(2, 2, 0);
        return API_INFO(version);
    }
    case CL_PLATFORM_EXTENSIONS_WITH_VERSION_KHR:
        return clGetDeviceInfo(rt_root_device(), CL_DEVICE_EXTENSIONS_WITH_VERSION_KHR,
                               param_value_size, param_value, param_value_size_ret);
    case CL_PLATFORM_EXTERNAL_MEMORY_IMPORT_HANDLE_TYPES_KHR: { /* external_memory.c */
        cl_external_memory_handle_type_khr types[] = {CL_EXTERNAL_MEMORY_HANDLE_DMA_BUF_KHR};
        return api_info(param_value_size, param_value, param_value_size_ret, types, sizeof types);
    }
    case CL_PLATFORM_SEMAPHORE_TYPES_KHR: { /* cl_khr_semaphore: binary */
        cl_semaphore_type_khr types[] = {CL_SEMAPHORE_TYPE_BINARY_KHR};
        return api_info(param_value_size, param_value, param_value_size_ret, types, sizeof types);
    }
    case CL_PLATFORM_HOST_TIMER_RESOLUTION: {
        cl_ulong resolution = 1; /* ns: rt_now_ns reads CLOCK_MONOTONIC */
        return API_INFO(resolution);
    }
    default: return CL_INVALID_VALUE;
    }
}
