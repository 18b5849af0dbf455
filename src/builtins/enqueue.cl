/* enqueue.cl - the ND-range descriptors of device-side enqueue (OpenCL C
 * 2.0, 6.13.17.1). The enqueue and event functions themselves belong to the
 * runtime (src/compiler/enqueue.c, src/runtime/device_enqueue.c).
 *
 * 6.13.17.1: a local size left out is 0, meaning the runtime picks it; an
 * offset left out is 0; dimensions past the range's have size 1.
 */
#include "library.h"

static ndrange_t range(uint dims, const size_t *offset, const size_t *global_size,
                       const size_t *local_size)
{
    ndrange_t r;
    r.workDimension = dims;
    for (uint d = 0; d < 3; d++) {
        r.globalWorkOffset[d] = d < dims && offset ? offset[d] : 0;
        r.globalWorkSize[d] = d < dims ? global_size[d] : 1;
        r.localWorkSize[d] = d < dims ? (local_size ? local_size[d] : 0) : 1;
    }
    return r;
}

OVL ndrange_t ndrange_1D(size_t global_size) { return range(1, 0, &global_size, 0); }

OVL ndrange_t ndrange_1D(size_t global_size, size_t local_size) { return range(1, 0, &global_size, &local_size); }

OVL ndrange_t ndrange_1D(size_t offset, size_t global_size, size_t local_size)
{
    return range(1, &offset, &global_size, &local_size);
}

#define RANGES(N)                                                                             \
    OVL ndrange_t ndrange_##N##D(const size_t global_size[N]) { return range(N, 0, global_size, 0); }   \
    OVL ndrange_t ndrange_##N##D(const size_t global_size[N], const size_t local_size[N])               \
    {                                                                                         \
        return range(N, 0, global_size, local_size);                                                    \
    }                                                                                         \
    OVL ndrange_t ndrange_##N##D(const size_t offset[N], const size_t global_size[N],              \
                                 const size_t local_size[N])                                       \
    {                                                                                         \
        return range(N, offset, global_size, local_size);                                               \
    }
RANGES(2)
RANGES(3)
