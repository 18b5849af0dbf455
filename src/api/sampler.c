/* sampler.c - sampler objects (API spec 5.7). A sampler's whole meaning is
 * the value a kernel's sampler_t holds (builtins/image.h): its bits and,
 * for mipmaps (cl_khr_mipmap_image), its range of levels of detail. */
#include <math.h>
#include <stdlib.h>

#include "api/api.h"

static cl_uint addressing_bits(cl_addressing_mode mode)
{
    switch (mode) {
    case CL_ADDRESS_NONE: return 0;
    case CL_ADDRESS_CLAMP_TO_EDGE: return 2;
    case CL_ADDRESS_CLAMP: return 4;
    case CL_ADDRESS_REPEAT: return 6;
    case CL_ADDRESS_MIRRORED_REPEAT: return 8;
    default: return ~0u;
    }
}

/* What a kernel's sampler_t holds of a level of detail (image.h): the
 * nearest code of the fixed point, the range [0, 32) levels. */
static uint64_t lod_code(float lod)
{
    if (!(lod > 0.0f))
        return 0;
    if (lod >= (float)CC_SAMPLER_LOD_CODES * CC_SAMPLER_LOD_UNIT)
        return CC_SAMPLER_LOD_CODES;
    return (uint64_t)lrintf(lod / CC_SAMPLER_LOD_UNIT);
}

/* The properties cl_khr_mipmap_image adds (5.7.1 with the extension: the
 * mip filter and the range of levels of detail). */
struct mip_properties {
    cl_filter_mode filter;
    float lod_min, lod_max;
};

static cl_sampler create_sampler(cl_context context, cl_bool normalized,
                                 cl_addressing_mode addressing, cl_filter_mode filter,
                                 const struct mip_properties *mip,
                                 const cl_sampler_properties *properties, cl_int *errcode_ret)
{
    cl_int err;
    if (!api_valid_context(context)) {
        err = CL_INVALID_CONTEXT;
        goto fail;
    }
    cl_uint address = addressing_bits(addressing);
    if ((normalized != CL_TRUE && normalized != CL_FALSE) || address == ~0u ||
        (filter != CL_FILTER_NEAREST && filter != CL_FILTER_LINEAR) ||
        (mip->filter != CL_FILTER_NEAREST && mip->filter != CL_FILTER_LINEAR) ||
        isnan(mip->lod_min) || isnan(mip->lod_max) || mip->lod_min > mip->lod_max) {
        err = CL_INVALID_VALUE;
        goto fail;
    }
    size_t num_properties = 0;
    if (properties)
        while (properties[num_properties])
            num_properties += 2;
    cl_sampler sampler = rt_object_create(RT_SAMPLER, sizeof *sampler);
    cl_sampler_properties *copy =
        properties ? malloc((num_properties + 1) * sizeof *copy) : NULL;
    if (!sampler || (properties && !copy)) {
        free(copy);
        if (sampler)
            rt_object_release(RT_OBJ(sampler));
        err = CL_OUT_OF_HOST_MEMORY;
        goto fail;
    }
    if (copy)
        memcpy(copy, properties, (num_properties + 1) * sizeof *copy);
    sampler->context = context;
    rt_object_hold(RT_OBJ(context));
    sampler->normalized_coords = normalized;
    sampler->addressing_mode = addressing;
    sampler->filter_mode = filter;
    sampler->mip_filter_mode = mip->filter;
    sampler->lod_min = mip->lod_min;
    sampler->lod_max = mip->lod_max;
    cl_uint bits = (normalized ? CC_SAMPLER_NORMALIZED : 0) | address |
                   (filter == CL_FILTER_LINEAR ? CC_SAMPLER_FILTER_LINEAR : 0x10) |
                   (mip->filter == CL_FILTER_LINEAR ? CC_SAMPLER_MIP_LINEAR : 0);
    sampler->value =
        bits | lod_code(mip->lod_min) << 16 | (CC_SAMPLER_LOD_CODES - lod_code(mip->lod_max)) << 40;
    sampler->properties = copy;
    sampler->num_properties = copy ? num_properties + 1 : 0;
    api_set_error(errcode_ret, CL_SUCCESS);
    return sampler;
fail:
    api_set_error(errcode_ret, err);
    return NULL;
}

API_EXPORT CL_API_ENTRY cl_sampler CL_API_CALL
clCreateSampler(cl_context context, cl_bool normalized_coords, cl_addressing_mode addressing_mode,
                cl_filter_mode filter_mode, cl_int *errcode_ret)
{
    struct mip_properties mip = {CL_FILTER_NEAREST, 0.0f, CL_MAXFLOAT};
    return create_sampler(context, normalized_coords, addressing_mode, filter_mode, &mip, NULL,
                          errcode_ret);
}

/* 5.7.1: each property at most once; the defaults are normalized
 * coordinates, CL_ADDRESS_CLAMP and CL_FILTER_NEAREST, and with
 * cl_khr_mipmap_image a nearest mip filter and levels of detail from 0 to
 * MAXFLOAT. */
/* A cl_float property's value: the extension does not say how a float is
 * held in a cl_sampler_properties; as C converts `{CL_SAMPLER_LOD_MAX_KHR,
 * 3.0f}` in a property list, and as Intel's driver reads it, the integer's
 * value (so whole levels only). */
static float float_property(cl_sampler_properties value)
{
    return (float)(int64_t)value;
}

API_EXPORT CL_API_ENTRY cl_sampler CL_API_CALL
clCreateSamplerWithProperties(cl_context context, const cl_sampler_properties *properties,
                              cl_int *errcode_ret)
{
    if (!api_valid_context(context)) {
        api_set_error(errcode_ret, CL_INVALID_CONTEXT);
        return NULL;
    }
    cl_bool normalized = CL_TRUE;
    cl_addressing_mode addressing = CL_ADDRESS_CLAMP;
    cl_filter_mode filter = CL_FILTER_NEAREST;
    struct mip_properties mip = {CL_FILTER_NEAREST, 0.0f, CL_MAXFLOAT};
    unsigned seen = 0;
    for (size_t i = 0; properties && properties[i]; i += 2) {
        unsigned bit;
        switch (properties[i]) {
        case CL_SAMPLER_NORMALIZED_COORDS: bit = 1; normalized = (cl_bool)properties[i + 1]; break;
        case CL_SAMPLER_ADDRESSING_MODE: bit = 2; addressing = (cl_addressing_mode)properties[i + 1]; break;
        case CL_SAMPLER_FILTER_MODE: bit = 4; filter = (cl_filter_mode)properties[i + 1]; break;
        case CL_SAMPLER_MIP_FILTER_MODE_KHR:
            bit = 8;
            mip.filter = (cl_filter_mode)properties[i + 1];
            break;
        case CL_SAMPLER_LOD_MIN_KHR:
            bit = 16;
            mip.lod_min = float_property(properties[i + 1]);
            break;
        case CL_SAMPLER_LOD_MAX_KHR:
            bit = 32;
            mip.lod_max = float_property(properties[i + 1]);
            break;
        default: bit = 0; break;
        }
        if (!bit || (seen & bit)) {
            api_set_error(errcode_ret, CL_INVALID_VALUE);
            return NULL;
        }
        seen |= bit;
    }
    return create_sampler(context, normalized, addressing, filter, &mip, properties, errcode_ret);
}

API_EXPORT CL_API_ENTRY cl_int CL_API_CALL clRetainSampler(cl_sampler sampler)
{
    if (!api_valid_sampler(sampler))
        return CL_INVALID_SAMPLER;
    rt_object_retain(RT_OBJ(sampler));
    return CL_SUCCESS;
}

API_EXPORT CL_API_ENTRY cl_int CL_API_CALL clReleaseSampler(cl_sampler sampler)
{
    if (!api_valid_sampler(sampler))
        return CL_INVALID_SAMPLER;
    rt_object_release(RT_OBJ(sampler));
    return CL_SUCCESS;
}

API_EXPORT CL_API_ENTRY cl_int CL_API_CALL
clGetSamplerInfo(cl_sampler sampler, cl_sampler_info param_name, size_t param_value_size,
                 void *param_value, size_t *param_value_size_ret)
{
    if (!api_valid_sampler(sampler))
        return CL_INVALID_SAMPLER;
    switch (param_name) {
    case CL_SAMPLER_REFERENCE_COUNT: {
        cl_uint count = atomic_load(&sampler->obj.refcount);
        return API_INFO(count);
    }
    case CL_SAMPLER_CONTEXT: return API_INFO(sampler->context);
    case CL_SAMPLER_NORMALIZED_COORDS: return API_INFO(sampler->normalized_coords);
    case CL_SAMPLER_ADDRESSING_MODE: return API_INFO(sampler->addressing_mode);
    case CL_SAMPLER_FILTER_MODE: return API_INFO(sampler->filter_mode);
    case CL_SAMPLER_MIP_FILTER_MODE_KHR: return API_INFO(sampler->mip_filter_mode);
    case CL_SAMPLER_LOD_MIN_KHR: return API_INFO(sampler->lod_min);
    case CL_SAMPLER_LOD_MAX_KHR: return API_INFO(sampler->lod_max);
    case CL_SAMPLER_PROPERTIES:
        return api_info(param_value_size, param_value, param_value_size_ret, sampler->properties,
                        sampler->num_properties * sizeof *sampler->properties);
    default:
        return CL_INVALID_VALUE;
    }
}
