/* memory.c - buffers and sub-buffers (API spec 5.2, 5.4). */
#include <stdbool.h>
#include <stdlib.h>

#include "api/api.h"

#define ACCESS_FLAGS (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY)
#define HOST_PTR_FLAGS (CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR)
#define HOST_ACCESS_FLAGS (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS)
#define BUFFER_FLAGS (ACCESS_FLAGS | HOST_PTR_FLAGS | HOST_ACCESS_FLAGS | CL_MEM_IMMUTABLE_EXT)

static int more_than_one(cl_mem_flags flags)
{
    return (flags & (flags - 1)) != 0;
}

/* 5.2.1, table 5.3: which flags are valid together. */
int api_valid_buffer_flags(cl_mem_flags flags)
{
    if (flags & ~(cl_mem_flags)BUFFER_FLAGS)
        return 0;
    if (more_than_one(flags & ACCESS_FLAGS) || more_than_one(flags & HOST_ACCESS_FLAGS))
        return 0;
    if ((flags & CL_MEM_USE_HOST_PTR) && (flags & (CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR)))
        return 0;
    /* cl_ext_immutable_memory_objects: nothing that would let it be written */
    if ((flags & CL_MEM_IMMUTABLE_EXT) && (flags & API_MEM_WRITABLE_FLAGS))
        return 0;
    return 1;
}

static cl_mem create_buffer(cl_context context, cl_mem_flags flags, size_t size, void *host_ptr,
                            const cl_mem_properties *properties, cl_int *errcode_ret)
{
    cl_int err;
    if (!api_valid_context(context)) {
        err = CL_INVALID_CONTEXT;
        goto fail;
    }
    /* 3.0 cl_mem_properties: cl_ext_buffer_device_address's and the
     * external memory's (external_memory.c) */
    struct api_mem_properties read;
    if ((err = api_read_mem_properties(context, properties, true, &read)))
        goto fail;
    size_t num_properties = read.count;
    bool device_address = read.device_address, external = read.external_fd >= 0;
    /* an immutable buffer gets its contents at creation (API 5.2.1) */
    if (!api_valid_buffer_flags(flags) ||
        ((flags & CL_MEM_IMMUTABLE_EXT) &&
         !(flags & (CL_MEM_COPY_HOST_PTR | CL_MEM_USE_HOST_PTR)))) {
        err = CL_INVALID_VALUE;
        goto fail;
    }
    if (size == 0 || size > api_device_max_mem_alloc_size(context->devices[0])) {
        err = CL_INVALID_BUFFER_SIZE;
        goto fail;
    }
    if (external && (err = api_check_external_flags(flags, host_ptr)))
        goto fail;
    int needs_ptr = (flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR)) != 0;
    if (needs_ptr != (host_ptr != NULL)) {
        err = CL_INVALID_HOST_PTR;
        goto fail;
    }
    /* 5.2.1: a buffer on SVM memory must fit in its allocation. */
    size_t svm_room = (flags & CL_MEM_USE_HOST_PTR) ? api_svm_room(context, host_ptr) : 0;
    if (svm_room && size > svm_room) {
        err = CL_INVALID_BUFFER_SIZE;
        goto fail;
    }
    if (!(flags & (ACCESS_FLAGS | CL_MEM_IMMUTABLE_EXT)))
        flags |= CL_MEM_READ_WRITE;

    cl_mem mem = api_mem_new(context, CL_MEM_OBJECT_BUFFER, flags);
    if (!mem) {
        err = CL_OUT_OF_HOST_MEMORY;
        goto fail;
    }
    mem->size = size;
    mem->host_ptr = (flags & CL_MEM_USE_HOST_PTR) ? host_ptr : NULL;
    if (num_properties) {
        mem->properties = malloc(num_properties * sizeof *mem->properties);
        if (mem->properties)
            memcpy(mem->properties, properties, num_properties * sizeof *mem->properties);
        mem->num_properties = num_properties;
    }
    if (device_address)
        mem->internal_flags |= RT_MEM_DEVICE_ADDRESS;
    if ((flags & CL_MEM_USE_HOST_PTR) && num_properties && !mem->properties) {
        rt_object_release(RT_OBJ(mem));
        err = CL_OUT_OF_HOST_MEMORY;
        goto fail;
    }
    if (external) {
        err = num_properties && !mem->properties
                  ? CL_OUT_OF_HOST_MEMORY
                  : api_map_external(mem, read.external_fd, size, CL_INVALID_BUFFER_SIZE);
        if (err) {
            rt_object_release(RT_OBJ(mem));
            goto fail;
        }
    } else if (flags & CL_MEM_USE_HOST_PTR) {
        /* The CPU works on the application's memory directly (so a
         * device address over SVM memory is the SVM pointer, as
         * cl_ext_buffer_device_address asks). */
        mem->storage = host_ptr;
        mem->uses_svm_pointer = svm_room != 0;
    } else {
        mem->storage = rt_alloc_storage(size, 128);
        if (!mem->storage || (num_properties && !mem->properties)) {
            rt_object_release(RT_OBJ(mem));
            err = CL_MEM_OBJECT_ALLOCATION_FAILURE;
            goto fail;
        }
        mem->internal_flags |= RT_MEM_OWNS_STORAGE;
        if (flags & CL_MEM_COPY_HOST_PTR)
            memcpy(mem->storage, host_ptr, size);
    }
    api_set_error(errcode_ret, CL_SUCCESS);
    return mem;
fail:
    api_set_error(errcode_ret, err);
    return NULL;
}

API_EXPORT CL_API_ENTRY cl_mem CL_API_CALL
clCreateBuffer(cl_context context, cl_mem_flags flags, size_t size, void *host_ptr,
               cl_int *errcode_ret)
{
    return create_buffer(context, flags, size, host_ptr, NULL, errcode_ret);
}

API_EXPORT CL_API_ENTRY cl_mem CL_API_CALL
clCreateBufferWithProperties(cl_context context, const cl_mem_properties *properties,
                             cl_mem_flags flags, size_t size, void *host_ptr, cl_int *errcode_ret)
{
    return create_buffer(context, flags, size, host_ptr, properties, errcode_ret);
}

/* 5.2.2: a sub-buffer inherits what its flags do not say, and may not ask
 * for access its parent forbids. */
cl_mem api_mem_new(cl_context context, cl_mem_object_type type, cl_mem_flags flags)
{
    cl_mem mem = rt_object_create(RT_MEM, sizeof *mem);
    if (!mem)
        return NULL;
    pthread_mutex_init(&mem->lock, NULL);
    mem->context = context;
    rt_object_hold(RT_OBJ(context));
    mem->type = type;
    mem->flags = flags;
    return mem;
}

cl_int api_derived_mem_flags(cl_mem parent, cl_mem_flags flags, cl_mem_flags *out)
{
    if (flags & ~(cl_mem_flags)(ACCESS_FLAGS | HOST_ACCESS_FLAGS | CL_MEM_IMMUTABLE_EXT))
        return CL_INVALID_VALUE;
    if (more_than_one(flags & ACCESS_FLAGS) || more_than_one(flags & HOST_ACCESS_FLAGS))
        return CL_INVALID_VALUE;
    cl_mem_flags p = parent->flags;
    bool immutable = (flags | p) & CL_MEM_IMMUTABLE_EXT;
    if (immutable && (flags & API_MEM_WRITABLE_FLAGS))
        return CL_INVALID_VALUE;
    if ((p & CL_MEM_WRITE_ONLY) && (flags & (CL_MEM_READ_WRITE | CL_MEM_READ_ONLY)))
        return CL_INVALID_VALUE;
    if ((p & CL_MEM_READ_ONLY) && (flags & (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY)))
        return CL_INVALID_VALUE;
    if ((p & CL_MEM_HOST_WRITE_ONLY) && (flags & CL_MEM_HOST_READ_ONLY))
        return CL_INVALID_VALUE;
    if ((p & CL_MEM_HOST_READ_ONLY) && (flags & CL_MEM_HOST_WRITE_ONLY))
        return CL_INVALID_VALUE;
    if ((p & CL_MEM_HOST_NO_ACCESS) && (flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_WRITE_ONLY)))
        return CL_INVALID_VALUE;
    cl_mem_flags result = p & HOST_PTR_FLAGS;
    if (immutable)
        result |= CL_MEM_IMMUTABLE_EXT;
    result |= (flags & ACCESS_FLAGS) ? (flags & ACCESS_FLAGS) : (p & ACCESS_FLAGS);
    result |= (flags & HOST_ACCESS_FLAGS) ? (flags & HOST_ACCESS_FLAGS) : (p & HOST_ACCESS_FLAGS);
    *out = result;
    return CL_SUCCESS;
}

API_EXPORT CL_API_ENTRY cl_mem CL_API_CALL
clCreateSubBuffer(cl_mem buffer, cl_mem_flags flags, cl_buffer_create_type create_type,
                  const void *create_info, cl_int *errcode_ret)
{
    cl_int err;
    cl_mem_flags sub_flags;
    if (!api_valid_mem(buffer) || buffer->type != CL_MEM_OBJECT_BUFFER || buffer->parent) {
        err = CL_INVALID_MEM_OBJECT;
        goto fail;
    }
    if ((err = api_derived_mem_flags(buffer, flags, &sub_flags)) != CL_SUCCESS)
        goto fail;
    if (create_type != CL_BUFFER_CREATE_TYPE_REGION || !create_info) {
        err = CL_INVALID_VALUE;
        goto fail;
    }
    const cl_buffer_region *region = create_info;
    if (region->size == 0) {
        err = CL_INVALID_BUFFER_SIZE;
        goto fail;
    }
    if (region->origin > buffer->size || region->size > buffer->size - region->origin) {
        err = CL_INVALID_VALUE;
        goto fail;
    }
    if (region->origin % (API_MEM_BASE_ADDR_ALIGN_BITS / 8)) {
        err = CL_MISALIGNED_SUB_BUFFER_OFFSET;
        goto fail;
    }
    cl_mem mem = api_mem_new(buffer->context, CL_MEM_OBJECT_BUFFER, sub_flags);
    if (!mem) {
        err = CL_OUT_OF_HOST_MEMORY;
        goto fail;
    }
    mem->size = region->size;
    mem->parent = buffer;
    rt_object_hold(RT_OBJ(buffer));
    mem->origin = region->origin;
    mem->storage = buffer->storage + region->origin;
    mem->host_ptr = buffer->host_ptr ? (char *)buffer->host_ptr + region->origin : NULL;
    api_set_error(errcode_ret, CL_SUCCESS);
    return mem;
fail:
    api_set_error(errcode_ret, err);
    return NULL;
}

API_EXPORT CL_API_ENTRY cl_int CL_API_CALL clRetainMemObject(cl_mem mem)
{
    if (!api_valid_mem(mem))
        return CL_INVALID_MEM_OBJECT;
    rt_object_retain(RT_OBJ(mem));
    return CL_SUCCESS;
}

API_EXPORT CL_API_ENTRY cl_int CL_API_CALL clReleaseMemObject(cl_mem mem)
{
    if (!api_valid_mem(mem))
        return CL_INVALID_MEM_OBJECT;
    rt_object_release(RT_OBJ(mem));
    return CL_SUCCESS;
}

API_EXPORT CL_API_ENTRY cl_int CL_API_CALL
clGetMemObjectInfo(cl_mem mem, cl_mem_info param_name, size_t param_value_size,
                   void *param_value, size_t *param_value_size_ret)
{
    if (!api_valid_mem(mem))
        return CL_INVALID_MEM_OBJECT;
    switch (param_name) {
    case CL_MEM_TYPE:
        return API_INFO(mem->type);
    case CL_MEM_FLAGS:
        return API_INFO(mem->flags);
    case CL_MEM_SIZE:
        return API_INFO(mem->size);
    case CL_MEM_HOST_PTR:
        return API_INFO(mem->host_ptr);
    case CL_MEM_MAP_COUNT: {
        pthread_mutex_lock(&mem->lock);
        cl_uint count = mem->map_count;
        pthread_mutex_unlock(&mem->lock);
        return API_INFO(count);
    }
    case CL_MEM_REFERENCE_COUNT: {
        cl_uint count = atomic_load(&mem->obj.refcount);
        return API_INFO(count);
    }
    case CL_MEM_CONTEXT:
        return API_INFO(mem->context);
    case CL_MEM_ASSOCIATED_MEMOBJECT:
        return API_INFO(mem->parent);
    case CL_MEM_OFFSET:
        return API_INFO(mem->origin);
    case CL_MEM_USES_SVM_POINTER: {
        cl_mem root = mem->parent ? mem->parent : mem;
        cl_bool uses = root->uses_svm_pointer ? CL_TRUE : CL_FALSE;
        return API_INFO(uses);
    }
    case CL_MEM_PROPERTIES:
        return api_info(param_value_size, param_value, param_value_size_ret, mem->properties,
                        mem->num_properties * sizeof(cl_mem_properties));
    case CL_MEM_DEVICE_ADDRESS_EXT: {
        /* one address per device of the context, all the same; a
         * sub-buffer's is its parent's plus its origin */
        cl_mem root = mem->parent ? mem->parent : mem;
        if (!(root->internal_flags & RT_MEM_DEVICE_ADDRESS))
            return CL_INVALID_OPERATION;
        cl_uint count = mem->context->num_devices;
        cl_mem_device_address_ext *addresses = malloc(count * sizeof *addresses);
        if (!addresses)
            return CL_OUT_OF_HOST_MEMORY;
        for (cl_uint i = 0; i < count; i++)
            addresses[i] = (cl_mem_device_address_ext)(uintptr_t)mem->storage;
        cl_int err = api_info(param_value_size, param_value, param_value_size_ret, addresses,
                              count * sizeof *addresses);
        free(addresses);
        return err;
    }
    default:
        return CL_INVALID_VALUE;
    }
}

API_EXPORT CL_API_ENTRY cl_int CL_API_CALL
clSetMemObjectDestructorCallback(cl_mem mem, void (CL_CALLBACK *pfn_notify)(cl_mem, void *),
                                 void *user_data)
{
    if (!api_valid_mem(mem))
        return CL_INVALID_MEM_OBJECT;
    if (!pfn_notify)
        return CL_INVALID_VALUE;
    return rt_callback_push(&mem->destructor_callbacks, &mem->lock, (void (CL_CALLBACK *)())pfn_notify,
                            user_data);
}
