/* versions.c - cl_khr_extended_versioning: the numeric versions and the
 * name-version lists that clGetPlatformInfo and clGetDeviceInfo answer
 * next to their version strings, built from those strings so that the two
 * never disagree. */
#include <stdlib.h>

#include "api/api.h"

/* Every extension cpucl reports is at revision 1.0.0 of its specification
 * (the Khronos registry's version of each). */
#define EXTENSION_VERSION CL_MAKE_VERSION_KHR(1, 0, 0)

cl_name_version_khr *api_extension_versions(const char *extensions, size_t *count)
{
    size_t n = 0;
    for (const char *p = extensions; *p;) {
        while (*p == ' ')
            p++;
        if (!*p)
            break;
        n++;
        while (*p && *p != ' ')
            p++;
    }
    cl_name_version_khr *list = calloc(n ? n : 1, sizeof *list);
    if (!list)
        return NULL;
    size_t i = 0;
    for (const char *p = extensions; *p && i < n;) {
        while (*p == ' ')
            p++;
        size_t length = 0;
        while (p[length] && p[length] != ' ')
            length++;
        if (length >= CL_NAME_VERSION_MAX_NAME_SIZE_KHR)
            length = CL_NAME_VERSION_MAX_NAME_SIZE_KHR - 1;
        memcpy(list[i].name, p, length);
        list[i].version = EXTENSION_VERSION;
        i++;
        while (*p && *p != ' ')
            p++;
    }
    *count = n;
    return list;
}

/* CL_DEVICE_ILS_WITH_VERSION_KHR: the SPIR-V versions of
 * CL_DEVICE_IL_VERSION ("SPIR-V_1.0 SPIR-V_1.1 SPIR-V_1.2"). */
const cl_name_version_khr api_il_versions[API_NUM_IL_VERSIONS] = {
    {CL_MAKE_VERSION_KHR(1, 0, 0), "SPIR-V"},
    {CL_MAKE_VERSION_KHR(1, 1, 0), "SPIR-V"},
    {CL_MAKE_VERSION_KHR(1, 2, 0), "SPIR-V"},
};
