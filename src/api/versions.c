/* versions.c - cl_khr_extended_versioning: the numeric versions and the
 * name-version lists that clGetPlatformInfo and clGetDeviceInfo answer
 * next to their version strings, built from those strings so that the two
 * never disagree. */
#include <stdlib.h>
#include <string.h>

#include "api/api.h"

/* The revision of an extension's specification cpucl implements: 1.0.0
 * (the Khronos registry's version of each) but where listed. */
static cl_version_khr extension_version(const char *name, size_t length)
{
    static const struct {
        const char *name;
        cl_version_khr version;
    } later[] = {
        /* 2.0.0: the unpacked 4x8-bit inputs and the acceleration queries */
        {"cl_khr_integer_dot_product", CL_MAKE_VERSION_KHR(2, 0, 0)},
        /* provisional: the 0.9.8 entry points and queries (command_buffer.c) */
        {"cl_khr_command_buffer", CL_MAKE_VERSION_KHR(0, 9, 8)},
        {"cl_khr_command_buffer_mutable_dispatch", CL_MAKE_VERSION_KHR(0, 9, 5)},
        /* the address passed by value */
        {"cl_ext_buffer_device_address", CL_MAKE_VERSION_KHR(1, 0, 2)},
    };
    for (size_t i = 0; i < sizeof later / sizeof later[0]; i++)
        if (strlen(later[i].name) == length && !memcmp(later[i].name, name, length))
            return later[i].version;
    return CL_MAKE_VERSION_KHR(1, 0, 0);
}

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
        list[i].version = extension_version(p, length);
        i++;
        while (*p && *p != ' ')
            p++;
    }
    *count = n;
    return list;
}

/* CL_DEVICE_ILS_WITH_VERSION_KHR: the SPIR-V versions of
 * CL_DEVICE_IL_VERSION ("SPIR-V_1.0 ... SPIR-V_1.6"). */
const cl_name_version_khr api_il_versions[API_NUM_IL_VERSIONS] = {
    {CL_MAKE_VERSION_KHR(1, 0, 0), "SPIR-V"}, {CL_MAKE_VERSION_KHR(1, 1, 0), "SPIR-V"},
    {CL_MAKE_VERSION_KHR(1, 2, 0), "SPIR-V"}, {CL_MAKE_VERSION_KHR(1, 3, 0), "SPIR-V"},
    {CL_MAKE_VERSION_KHR(1, 4, 0), "SPIR-V"}, {CL_MAKE_VERSION_KHR(1, 5, 0), "SPIR-V"},
    {CL_MAKE_VERSION_KHR(1, 6, 0), "SPIR-V"},
};
