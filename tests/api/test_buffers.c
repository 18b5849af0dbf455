/* test_buffers.c - buffer objects and memory commands (API spec 5.2, 5.4):
 * creation flags and their errors, sub-buffers, read/write/copy/fill with
 * every pattern size, rect transfers, map/unmap, USE_HOST_PTR. */
#include "../harness.h"

static void test_create(struct harness *h)
{
    cl_int err;
    char host[256];
    cl_mem m = clCreateBuffer(h->context, CL_MEM_READ_WRITE, 0, NULL, &err);
    CHECK(m == NULL && err == CL_INVALID_BUFFER_SIZE);
    m = clCreateBuffer(h->context, CL_MEM_READ_WRITE | CL_MEM_READ_ONLY, 64, NULL, &err);
    CHECK(m == NULL && err == CL_INVALID_VALUE);
    m = clCreateBuffer(h->context, CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR, 64, host, &err);
    CHECK(m == NULL && err == CL_INVALID_VALUE);
    m = clCreateBuffer(h->context, CL_MEM_COPY_HOST_PTR, 64, NULL, &err);
    CHECK(m == NULL && err == CL_INVALID_HOST_PTR);
    m = clCreateBuffer(h->context, CL_MEM_READ_WRITE, 64, host, &err);
    CHECK(m == NULL && err == CL_INVALID_HOST_PTR);
    m = clCreateBuffer(h->context, (cl_mem_flags)1 << 40, 64, NULL, &err);
    CHECK(m == NULL && err == CL_INVALID_VALUE);
    m = clCreateBuffer(NULL, CL_MEM_READ_WRITE, 64, NULL, &err);
    CHECK(m == NULL && err == CL_INVALID_CONTEXT);

    m = clCreateBuffer(h->context, CL_MEM_READ_ONLY | CL_MEM_HOST_NO_ACCESS, 100, NULL, &err);
    CHECK_OK(err);
    cl_mem_flags flags;
    size_t size;
    cl_uint refs;
    CHECK_OK(clGetMemObjectInfo(m, CL_MEM_FLAGS, sizeof flags, &flags, NULL));
    CHECK(flags == (CL_MEM_READ_ONLY | CL_MEM_HOST_NO_ACCESS));
    CHECK_OK(clGetMemObjectInfo(m, CL_MEM_SIZE, sizeof size, &size, NULL));
    CHECK(size == 100);
    CHECK_OK(clRetainMemObject(m));
    CHECK_OK(clGetMemObjectInfo(m, CL_MEM_REFERENCE_COUNT, sizeof refs, &refs, NULL));
    CHECK(refs == 2);
    /* 5.2.2: the host may not touch a HOST_NO_ACCESS buffer. */
    CHECK_ERR(clEnqueueReadBuffer(h->queue, m, CL_TRUE, 0, 10, host, 0, NULL, NULL),
              CL_INVALID_OPERATION);
    CHECK_ERR(clEnqueueWriteBuffer(h->queue, m, CL_TRUE, 0, 10, host, 0, NULL, NULL),
              CL_INVALID_OPERATION);
    CHECK_OK(clReleaseMemObject(m));
    CHECK_OK(clReleaseMemObject(m));
}

static int destructor_calls;
static void CL_CALLBACK on_destroy(cl_mem mem, void *data)
{
    destructor_calls += *(int *)data;
}

static void test_read_write_copy(struct harness *h)
{
    enum { N = 3 << 20 }; /* big enough to be split across workers */
    unsigned char *a = malloc(N), *b = malloc(N);
    for (int i = 0; i < N; i++)
        a[i] = (unsigned char)(i * 7 + (i >> 11));
    cl_mem src = harness_buffer(h, CL_MEM_READ_WRITE, N, NULL);
    cl_mem dst = harness_buffer(h, CL_MEM_READ_WRITE, N, NULL);
    int one = 1;
    CHECK_OK(clSetMemObjectDestructorCallback(src, on_destroy, &one));
    CHECK_OK(clEnqueueWriteBuffer(h->queue, src, CL_FALSE, 0, N, a, 0, NULL, NULL));
    CHECK_OK(clEnqueueCopyBuffer(h->queue, src, dst, 0, 0, N, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(h->queue, dst, CL_TRUE, 0, N, b, 0, NULL, NULL));
    CHECK(memcmp(a, b, N) == 0);
    /* Partial copies with offsets. */
    CHECK_OK(clEnqueueCopyBuffer(h->queue, src, dst, 1000, 5, 4096, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(h->queue, dst, CL_TRUE, 5, 4096, b, 0, NULL, NULL));
    CHECK(memcmp(a + 1000, b, 4096) == 0);
    /* Errors: out of bounds, overlap in one buffer. */
    CHECK_ERR(clEnqueueReadBuffer(h->queue, dst, CL_TRUE, N - 10, 11, b, 0, NULL, NULL),
              CL_INVALID_VALUE);
    CHECK_ERR(clEnqueueReadBuffer(h->queue, dst, CL_TRUE, 0, 10, NULL, 0, NULL, NULL),
              CL_INVALID_VALUE);
    CHECK_ERR(clEnqueueCopyBuffer(h->queue, src, src, 0, 100, 200, 0, NULL, NULL),
              CL_MEM_COPY_OVERLAP);
    CHECK_OK(clEnqueueCopyBuffer(h->queue, src, src, 0, 200, 200, 0, NULL, NULL));
    CHECK_OK(clFinish(h->queue));
    clReleaseMemObject(src);
    CHECK(destructor_calls == 1);
    clReleaseMemObject(dst);
    free(a), free(b);
}

static void test_fill(struct harness *h)
{
    enum { N = 1 << 16 };
    unsigned char *out = malloc(N);
    cl_mem m = harness_buffer(h, CL_MEM_READ_WRITE, N, NULL);
    for (size_t pattern_size = 1; pattern_size <= 128; pattern_size *= 2) {
        unsigned char pattern[128];
        for (size_t i = 0; i < pattern_size; i++)
            pattern[i] = (unsigned char)(pattern_size * 3 + i + 1);
        memset(out, 0, N);
        CHECK_OK(clEnqueueWriteBuffer(h->queue, m, CL_FALSE, 0, N, out, 0, NULL, NULL));
        size_t offset = pattern_size * 3, size = N - pattern_size * 7;
        CHECK_OK(clEnqueueFillBuffer(h->queue, m, pattern, pattern_size, offset, size, 0, NULL, NULL));
        CHECK_OK(clEnqueueReadBuffer(h->queue, m, CL_TRUE, 0, N, out, 0, NULL, NULL));
        int bad = 0;
        for (size_t i = 0; i < N; i++) {
            unsigned char want = i >= offset && i < offset + size
                                     ? pattern[(i - offset) % pattern_size] : 0;
            bad += out[i] != want;
        }
        CHECK(bad == 0);
    }
    unsigned char p[4] = {0};
    CHECK_ERR(clEnqueueFillBuffer(h->queue, m, p, 3, 0, 12, 0, NULL, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clEnqueueFillBuffer(h->queue, m, p, 4, 2, 12, 0, NULL, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clEnqueueFillBuffer(h->queue, m, NULL, 4, 0, 12, 0, NULL, NULL), CL_INVALID_VALUE);
    clReleaseMemObject(m);
    free(out);
}

static void test_sub_buffers(struct harness *h)
{
    cl_int err;
    enum { N = 4096 };
    int host[N / 4];
    for (int i = 0; i < N / 4; i++)
        host[i] = i;
    cl_mem parent = harness_buffer(h, CL_MEM_READ_WRITE, N, host);
    cl_buffer_region region = {1024, 512};
    cl_mem sub = clCreateSubBuffer(parent, CL_MEM_READ_ONLY, CL_BUFFER_CREATE_TYPE_REGION, &region, &err);
    CHECK_OK(err);
    int got[128];
    CHECK_OK(clEnqueueReadBuffer(h->queue, sub, CL_TRUE, 0, 512, got, 0, NULL, NULL));
    CHECK(got[0] == 256 && got[127] == 383);
    size_t offset;
    cl_mem assoc;
    CHECK_OK(clGetMemObjectInfo(sub, CL_MEM_OFFSET, sizeof offset, &offset, NULL));
    CHECK(offset == 1024);
    CHECK_OK(clGetMemObjectInfo(sub, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof assoc, &assoc, NULL));
    CHECK(assoc == parent);
    cl_buffer_region misaligned = {4, 16}, outside = {4000, 512}, empty = {0, 0};
    CHECK(!clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &misaligned, &err) &&
          err == CL_MISALIGNED_SUB_BUFFER_OFFSET);
    CHECK(!clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &outside, &err) &&
          err == CL_INVALID_VALUE);
    CHECK(!clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &empty, &err) &&
          err == CL_INVALID_BUFFER_SIZE);
    CHECK(!clCreateSubBuffer(sub, 0, CL_BUFFER_CREATE_TYPE_REGION, &region, &err) &&
          err == CL_INVALID_MEM_OBJECT);
    /* The parent may go first: the sub-buffer keeps the storage alive. */
    clReleaseMemObject(parent);
    CHECK_OK(clEnqueueReadBuffer(h->queue, sub, CL_TRUE, 4, 4, got, 0, NULL, NULL));
    CHECK(got[0] == 257);
    clReleaseMemObject(sub);
}

static void test_rect(struct harness *h)
{
    /* A 3D box of 16 x 8 x 4 bytes moved out of a 32 x 16 x 8 buffer. */
    enum { W = 32, H = 16, D = 8 };
    unsigned char host[W * H * D], box[16 * 8 * 4], back[W * H * D];
    for (int i = 0; i < W * H * D; i++)
        host[i] = (unsigned char)(i * 13);
    cl_mem m = harness_buffer(h, CL_MEM_READ_WRITE, sizeof host, host);
    size_t origin[3] = {5, 3, 2}, zero[3] = {0, 0, 0}, region[3] = {16, 8, 4};
    CHECK_OK(clEnqueueReadBufferRect(h->queue, m, CL_TRUE, origin, zero, region, W, W * H, 0, 0,
                                     box, 0, NULL, NULL));
    int bad = 0;
    for (int z = 0; z < 4; z++)
        for (int y = 0; y < 8; y++)
            for (int x = 0; x < 16; x++)
                bad += box[(z * 8 + y) * 16 + x] != host[((z + 2) * H + y + 3) * W + x + 5];
    CHECK(bad == 0);
    /* Write it back elsewhere and copy within the buffer. */
    size_t target[3] = {0, 0, 0};
    CHECK_OK(clEnqueueWriteBufferRect(h->queue, m, CL_TRUE, target, zero, region, W, W * H, 0, 0,
                                      box, 0, NULL, NULL));
    size_t copy_to[3] = {16, 8, 4};
    CHECK_OK(clEnqueueCopyBufferRect(h->queue, m, m, target, copy_to, region, W, W * H, W, W * H,
                                     0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(h->queue, m, CL_TRUE, 0, sizeof back, back, 0, NULL, NULL));
    bad = 0;
    for (int z = 0; z < 4; z++)
        for (int y = 0; y < 8; y++)
            for (int x = 0; x < 16; x++) {
                unsigned char want = box[(z * 8 + y) * 16 + x];
                bad += back[(z * H + y) * W + x] != want;
                bad += back[((z + 4) * H + y + 8) * W + x + 16] != want;
            }
    CHECK(bad == 0);
    size_t bad_region[3] = {16, 0, 1};
    CHECK_ERR(clEnqueueReadBufferRect(h->queue, m, CL_TRUE, origin, zero, bad_region, W, W * H, 0,
                                      0, box, 0, NULL, NULL),
              CL_INVALID_VALUE);
    clReleaseMemObject(m);
}

static void test_map(struct harness *h)
{
    cl_int err;
    int host[1024];
    for (int i = 0; i < 1024; i++)
        host[i] = i;
    cl_mem m = clCreateBuffer(h->context, CL_MEM_USE_HOST_PTR, sizeof host, host, &err);
    CHECK_OK(err);
    int *p = clEnqueueMapBuffer(h->queue, m, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 400, 400, 0,
                                NULL, NULL, &err);
    CHECK_OK(err);
    /* USE_HOST_PTR: the mapped region is the application's own memory. */
    CHECK(p == host + 100);
    cl_uint count;
    CHECK_OK(clGetMemObjectInfo(m, CL_MEM_MAP_COUNT, sizeof count, &count, NULL));
    CHECK(count == 1);
    p[0] = -1;
    CHECK_OK(clEnqueueUnmapMemObject(h->queue, m, p, 0, NULL, NULL));
    int got;
    CHECK_OK(clEnqueueReadBuffer(h->queue, m, CL_TRUE, 400, 4, &got, 0, NULL, NULL));
    CHECK(got == -1);
    CHECK_ERR(clEnqueueUnmapMemObject(h->queue, m, p, 0, NULL, NULL), CL_INVALID_VALUE);
    p = clEnqueueMapBuffer(h->queue, m, CL_TRUE, CL_MAP_WRITE_INVALIDATE_REGION | CL_MAP_READ, 0,
                           4, 0, NULL, NULL, &err);
    CHECK(p == NULL && err == CL_INVALID_VALUE);
    clReleaseMemObject(m);

    cl_mem ro = clCreateBuffer(h->context, CL_MEM_HOST_READ_ONLY, 64, NULL, &err);
    p = clEnqueueMapBuffer(h->queue, ro, CL_TRUE, CL_MAP_WRITE, 0, 64, 0, NULL, NULL, &err);
    CHECK(p == NULL && err == CL_INVALID_OPERATION);
    clReleaseMemObject(ro);
}

int main(void)
{
    struct harness h = harness_open();
    test_create(&h);
    test_read_write_copy(&h);
    test_fill(&h);
    test_sub_buffers(&h);
    test_rect(&h);
    test_map(&h);
    harness_close(&h);
    return harness_finish();
}
