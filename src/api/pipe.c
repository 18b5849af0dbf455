/* pipe.c - pipe objects (API spec 5.4).
 *
 * A pipe is a cl_mem of type CL_MEM_OBJECT_PIPE whose storage is the
 * queue the kernels share: a struct cc_pipe header, the cells' sequence
 * numbers and the packets (layout and concurrency: src/builtins/pipe.h).
 * Only kernels touch it: the host cannot read, write or map a pipe (the
 * buffer and image commands reject any other type, 5.2 and 5.3), and a
 * kernel's pipe argument receives the storage's address.
 */
#include <stdlib.h>

#include "api/api.h"
#include "builtins/pipe.h"

/* 5.4.1: a pipe accepts only these flags; 0 means both. */
#define PIPE_FLAGS (CL_MEM_READ_WRITE | CL_MEM_HOST_NO_ACCESS)

static size_t round_up(size_t n, size_t to)
{
    return (n + to - 1) / to * to;
}

/* Bytes of a pipe's storage: header, sequence numbers, packets. */
static size_t pipe_storage_size(cl_uint packet_size, cl_uint max_packets, size_t *packets)
{
    *packets = round_up(sizeof(struct cc_pipe) + (size_t)max_packets * sizeof(uint64_t),
                        CC_PIPE_PACKET_ALIGNMENT);
    return *packets + (size_t)packet_size * max_packets;
}

bool api_is_pipe(cl_mem mem)
{
    return api_valid_mem(mem) && mem->type == CL_MEM_OBJECT_PIPE;
}

API_EXPORT CL_API_ENTRY cl_mem CL_API_CALL
clCreatePipe(cl_context context, cl_mem_flags flags, cl_uint pipe_packet_size,
             cl_uint pipe_max_packets, const cl_pipe_properties *properties, cl_int *errcode_ret)
{
    cl_int err;
    if (!api_valid_context(context)) {
        err = CL_INVALID_CONTEXT;
        goto fail;
    }
    if ((flags & ~(cl_mem_flags)PIPE_FLAGS) || properties) {
        err = CL_INVALID_VALUE; /* 5.4.1: properties must be NULL */
        goto fail;
    }
    if (pipe_packet_size == 0 || pipe_packet_size > API_PIPE_MAX_PACKET_SIZE ||
        pipe_max_packets == 0) {
        err = CL_INVALID_PIPE_SIZE;
        goto fail;
    }
    size_t packets;
    size_t size = pipe_storage_size(pipe_packet_size, pipe_max_packets, &packets);
    if (size > api_device_max_mem_alloc_size(context->devices[0])) {
        err = CL_MEM_OBJECT_ALLOCATION_FAILURE;
        goto fail;
    }
    cl_mem mem = api_mem_new(context, CL_MEM_OBJECT_PIPE, flags ? flags : PIPE_FLAGS);
    if (!mem) {
        err = CL_OUT_OF_HOST_MEMORY;
        goto fail;
    }
    mem->size = size;
    mem->storage = rt_alloc_storage(round_up(size, CC_PIPE_PACKET_ALIGNMENT), CC_PIPE_PACKET_ALIGNMENT);
    if (!mem->storage) {
        rt_object_release(RT_OBJ(mem));
        err = CL_MEM_OBJECT_ALLOCATION_FAILURE;
        goto fail;
    }
    mem->internal_flags |= RT_MEM_OWNS_STORAGE;
    /* An empty pipe: every cell free for the writer of its first lap. */
    struct cc_pipe *pipe = (struct cc_pipe *)mem->storage;
    memset(pipe, 0, sizeof *pipe);
    pipe->packet_size = pipe_packet_size;
    pipe->max_packets = pipe_max_packets;
    pipe->packets = packets;
    for (cl_uint i = 0; i < pipe_max_packets; i++)
        pipe->sequence[i] = i;
    api_set_error(errcode_ret, CL_SUCCESS);
    return mem;
fail:
    api_set_error(errcode_ret, err);
    return NULL;
}

API_EXPORT CL_API_ENTRY cl_int CL_API_CALL
clGetPipeInfo(cl_mem pipe, cl_pipe_info param_name, size_t param_value_size, void *param_value,
              size_t *param_value_size_ret)
{
    if (!api_is_pipe(pipe))
        return CL_INVALID_MEM_OBJECT;
    const struct cc_pipe *header = (const struct cc_pipe *)pipe->storage;
    switch (param_name) {
    case CL_PIPE_PACKET_SIZE: {
        cl_uint size = header->packet_size;
        return API_INFO(size);
    }
    case CL_PIPE_MAX_PACKETS: {
        cl_uint count = header->max_packets;
        return API_INFO(count);
    }
#ifdef CL_VERSION_3_0
    case CL_PIPE_PROPERTIES:
        /* 3.0: properties were NULL, so the answer is empty. */
        return api_info(param_value_size, param_value, param_value_size_ret, NULL, 0);
#endif
    default: return CL_INVALID_VALUE;
    }
}
