/* platform.c - the platform (API spec 4.1) and cl_khr_icd's platform lookup. */
#include "api/api.h"

#define PLATFORM_EXTENSIONS "cl_khr_icd"

static cl_int get_platform_ids(cl_uint num_entries, cl_platform_id *platforms,
                               cl_uint *num_platforms)
{
    if ((num_entries == 0 && platforms) || (!platforms && !num_platforms))
        return CL_INVALID_VALUE;
    cl_platform_id platform = rt_platform();
    cl_uint count = platform && rt_root_device() ? 1 : 0;
    if (platforms && count)
        platforms[0] = platform;
    if (num_platforms)
        *num_platforms = count;
    return CL_SUCCESS;
}

API_EXPORT CL_API_ENTRY cl_int CL_API_CALL
clGetPlatformIDs(cl_uint num_entries, cl_platform_id *platforms, cl_uint *num_platforms)
{
    return get_platform_ids(num_entries, platforms, num_platforms);
}

API_EXPORT CL_API_ENTRY cl_int CL_API_CALL
clIcdGetPlatformIDsKHR(cl_uint num_entries, cl_platform_id *platforms, cl_uint *num_platforms)
{
    cl_uint count = 0;
    cl_int err = get_platform_ids(num_entries, platforms, num_platforms ? num_platforms : &count);
    if (err)
        return err;
    if ((num_platforms ? *num_platforms : count) == 0)
        return CL_PLATFORM_NOT_FOUND_KHR;
    return CL_SUCCESS;
}

API_EXPORT CL_API_ENTRY cl_int CL_API_CALL
clGetPlatformInfo(cl_platform_id platform, cl_platform_info param_name, size_t param_value_size,
                  void *param_value, size_t *param_value_size_ret)
{
    /* 4.1: a NULL platform selects the implementation's own. */
    if (!platform)
        platform = rt_platform();
    if (!api_valid_platform(platform))
        return CL_INVALID_PLATFORM;
    switch (param_name) {
    case CL_PLATFORM_PROFILE:
        return API_INFO_STRING("FULL_PROFILE");
    case CL_PLATFORM_VERSION:
        return API_INFO_STRING("OpenCL 2.2 cpucl 0.1");
    case CL_PLATFORM_NAME:
        return API_INFO_STRING("cpucl");
    case CL_PLATFORM_VENDOR:
        return API_INFO_STRING("cpucl");
    case CL_PLATFORM_EXTENSIONS:
        return API_INFO_STRING(PLATFORM_EXTENSIONS);
    case CL_PLATFORM_ICD_SUFFIX_KHR:
        return API_INFO_STRING("cpucl");
    case CL_PLATFORM_HOST_TIMER_RESOLUTION: {
        cl_ulong resolution = 1; /* ns: CLOCK_MONOTONIC */
        return API_INFO(resolution);
    }
    default:
        return CL_INVALID_VALUE;
    }
}
