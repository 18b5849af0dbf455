/* test_buffers.c - buffer objects and memory commands (API spec 5.2, 5.4):
 * creation flags and their errors, what each host-pointer flag means,
 * destructor callbacks, sub-buffers (flags, views of the parent, kernels
 * on them, overlap), read/write/copy blocking and not, fill with every
 * pattern size, copies and fills past the last-level cache, rect read/write/copy (appendix E's
 * overlap rule), map and unmap (USE_HOST_PTR, sub-buffers, blocking and not, behind a user event),
 * migration; new buffers, SVM allocations and images read as zeros (what
 * cpucl promises beyond the specification: ffmpeg's tonemap_opencl reads
 * a buffer it never wrote). */
#include "../harness.h"

/* Buffers of several sizes, made and released again and again (so the
 * allocator hands back memory an earlier one dirtied), read as zeros. */
static void test_zeroed(struct harness *h)
{
    static const size_t sizes[] = {4, 100, 4096, 65536, (size_t)5 << 20};
    size_t bad = 0;
    for (int round = 0; round < 3; round++)
        for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
            size_t size = sizes[i];
            unsigned char *back = malloc(size);
            REQUIRE(back);
            cl_mem mem = harness_buffer(h, CL_MEM_READ_WRITE, size, NULL);
            CHECK_OK(clEnqueueReadBuffer(h->queue, mem, CL_TRUE, 0, size, back, 0, NULL, NULL));
            for (size_t k = 0; k < size; k++)
                bad += back[k] != 0;
            unsigned char dirty = 0xa5;
            CHECK_OK(clEnqueueFillBuffer(h->queue, mem, &dirty, 1, 0, size, 0, NULL, NULL));
            CHECK_OK(clFinish(h->queue));
            clReleaseMemObject(mem);
            unsigned char *svm = clSVMAlloc(h->context, CL_MEM_READ_WRITE, size, 0);
            REQUIRE(svm);
            CHECK_OK(clEnqueueSVMMap(h->queue, CL_TRUE, CL_MAP_READ, svm, size, 0, NULL, NULL));
            for (size_t k = 0; k < size; k++)
                bad += svm[k] != 0;
            memset(svm, 0x5a, size);
            CHECK_OK(clEnqueueSVMUnmap(h->queue, svm, 0, NULL, NULL));
            CHECK_OK(clFinish(h->queue));
            clSVMFree(h->context, svm);
            free(back);
        }
    CHECK_NONE_WRONG(bad, "bytes of new buffers and SVM allocations that are not zero");
}

static void test_create(struct harness *h)
{
    cl_int err;
    char host[256];
    CHECK_FAILS(clCreateBuffer(h->context, CL_MEM_READ_WRITE, 0, NULL, &err), err,
                CL_INVALID_BUFFER_SIZE);
    cl_ulong max_alloc = 0;
    clGetDeviceInfo(h->device, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof max_alloc, &max_alloc, NULL);
    CHECK_FAILS(clCreateBuffer(h->context, CL_MEM_READ_WRITE, (size_t)max_alloc + 1, NULL, &err),
                err, CL_INVALID_BUFFER_SIZE);
    CHECK_FAILS(clCreateBuffer(h->context, CL_MEM_READ_WRITE | CL_MEM_READ_ONLY, 64, NULL, &err),
                err, CL_INVALID_VALUE);
    CHECK_FAILS(clCreateBuffer(h->context, CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY, 64, NULL, &err),
                err, CL_INVALID_VALUE);
    CHECK_FAILS(
        clCreateBuffer(h->context, CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS, 64, NULL, &err),
        err, CL_INVALID_VALUE);
    CHECK_FAILS(
        clCreateBuffer(h->context, CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR, 64, host, &err), err,
        CL_INVALID_VALUE);
    CHECK_FAILS(
        clCreateBuffer(h->context, CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR, 64, host, &err),
        err, CL_INVALID_VALUE);
    CHECK_FAILS(clCreateBuffer(h->context, CL_MEM_COPY_HOST_PTR, 64, NULL, &err), err,
                CL_INVALID_HOST_PTR);
    CHECK_FAILS(clCreateBuffer(h->context, CL_MEM_USE_HOST_PTR, 64, NULL, &err), err,
                CL_INVALID_HOST_PTR);
    CHECK_FAILS(clCreateBuffer(h->context, CL_MEM_READ_WRITE, 64, host, &err), err,
                CL_INVALID_HOST_PTR);
    CHECK_FAILS(clCreateBuffer(h->context, (cl_mem_flags)1 << 40, 64, NULL, &err), err,
                CL_INVALID_VALUE);
    CHECK_FAILS(clCreateBuffer(NULL, CL_MEM_READ_WRITE, 64, NULL, &err), err, CL_INVALID_CONTEXT);

    cl_mem m =
        clCreateBuffer(h->context, CL_MEM_READ_ONLY | CL_MEM_HOST_NO_ACCESS, 100, NULL, &err);
    CHECK_OK(err);
    cl_mem_flags flags;
    size_t size;
    cl_uint refs;
    cl_mem_object_type type;
    cl_context context;
    void *host_ptr = host;
    cl_bool svm = CL_TRUE;
    CHECK_OK(clGetMemObjectInfo(m, CL_MEM_FLAGS, sizeof flags, &flags, NULL));
    CHECK(flags == (CL_MEM_READ_ONLY | CL_MEM_HOST_NO_ACCESS));
    CHECK_OK(clGetMemObjectInfo(m, CL_MEM_SIZE, sizeof size, &size, NULL));
    CHECK_EQ(size, 100);
    CHECK_OK(clGetMemObjectInfo(m, CL_MEM_TYPE, sizeof type, &type, NULL));
    CHECK_EQ(type, CL_MEM_OBJECT_BUFFER);
    CHECK_OK(clGetMemObjectInfo(m, CL_MEM_CONTEXT, sizeof context, &context, NULL));
    CHECK(context == h->context);
    CHECK_OK(clGetMemObjectInfo(m, CL_MEM_HOST_PTR, sizeof host_ptr, &host_ptr, NULL));
    CHECK(host_ptr == NULL);
    CHECK_OK(clGetMemObjectInfo(m, CL_MEM_USES_SVM_POINTER, sizeof svm, &svm, NULL));
    CHECK(svm == CL_FALSE);
    CHECK_ERR(clGetMemObjectInfo(m, CL_MEM_SIZE, sizeof size - 1, &size, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clGetMemObjectInfo(m, 0x7777, sizeof size, &size, NULL), CL_INVALID_VALUE);
    CHECK_OK(clRetainMemObject(m));
    CHECK_OK(clGetMemObjectInfo(m, CL_MEM_REFERENCE_COUNT, sizeof refs, &refs, NULL));
    CHECK_EQ(refs, 2);
    /* 5.2.2: the host may not touch a HOST_NO_ACCESS buffer. */
    CHECK_ERR(clEnqueueReadBuffer(h->queue, m, CL_TRUE, 0, 10, host, 0, NULL, NULL),
              CL_INVALID_OPERATION);
    CHECK_ERR(clEnqueueWriteBuffer(h->queue, m, CL_TRUE, 0, 10, host, 0, NULL, NULL),
              CL_INVALID_OPERATION);
    CHECK_OK(clReleaseMemObject(m));
    CHECK_OK(clReleaseMemObject(m));

    /* No access flag means READ_WRITE. */
    m = clCreateBuffer(h->context, 0, 16, NULL, &err);
    CHECK_OK(clGetMemObjectInfo(m, CL_MEM_FLAGS, sizeof flags, &flags, NULL));
    CHECK(flags & CL_MEM_READ_WRITE);
    clReleaseMemObject(m);

    /* HOST_READ_ONLY reads but does not write; HOST_WRITE_ONLY the reverse. */
    m = clCreateBuffer(h->context, CL_MEM_HOST_READ_ONLY, 16, NULL, &err);
    CHECK_OK(clEnqueueReadBuffer(h->queue, m, CL_TRUE, 0, 16, host, 0, NULL, NULL));
    CHECK_ERR(clEnqueueWriteBuffer(h->queue, m, CL_TRUE, 0, 16, host, 0, NULL, NULL),
              CL_INVALID_OPERATION);
    clReleaseMemObject(m);
    m = clCreateBuffer(h->context, CL_MEM_HOST_WRITE_ONLY, 16, NULL, &err);
    CHECK_OK(clEnqueueWriteBuffer(h->queue, m, CL_TRUE, 0, 16, host, 0, NULL, NULL));
    CHECK_ERR(clEnqueueReadBuffer(h->queue, m, CL_TRUE, 0, 16, host, 0, NULL, NULL),
              CL_INVALID_OPERATION);
    clReleaseMemObject(m);
}

/* COPY_HOST_PTR copies once; USE_HOST_PTR is the host's memory;
 * ALLOC_HOST_PTR (with COPY_HOST_PTR) starts from the host's data. */
static void test_host_pointers(struct harness *h)
{
    cl_int err;
    int host[64], got[64];
    for (int i = 0; i < 64; i++)
        host[i] = i * i;
    cl_mem copy = clCreateBuffer(h->context, CL_MEM_COPY_HOST_PTR, sizeof host, host, &err);
    CHECK_OK(err);
    cl_mem use = clCreateBuffer(h->context, CL_MEM_USE_HOST_PTR, sizeof host, host, &err);
    CHECK_OK(err);
    cl_mem alloc = clCreateBuffer(h->context, CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR,
                                  sizeof host, host, &err);
    CHECK_OK(err);
    host[5] = -1; /* after creation: only the USE_HOST_PTR buffer sees it */
    CHECK_OK(clEnqueueReadBuffer(h->queue, copy, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL));
    CHECK(got[5] == 25 && got[63] == 63 * 63);
    CHECK_OK(clEnqueueReadBuffer(h->queue, alloc, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL));
    CHECK(got[5] == 25 && got[63] == 63 * 63);
    void *host_ptr = NULL;
    CHECK_OK(clGetMemObjectInfo(use, CL_MEM_HOST_PTR, sizeof host_ptr, &host_ptr, NULL));
    CHECK(host_ptr == host);
    CHECK_OK(clGetMemObjectInfo(copy, CL_MEM_HOST_PTR, sizeof host_ptr, &host_ptr, NULL));
    CHECK(host_ptr == NULL);
    /* A USE_HOST_PTR buffer written by a command: the host sees it after a
     * map (5.2.1); on this device, its own memory changed. */
    int value = 4242;
    CHECK_OK(clEnqueueWriteBuffer(h->queue, use, CL_TRUE, 8 * 4, 4, &value, 0, NULL, NULL));
    int *p = clEnqueueMapBuffer(h->queue, use, CL_TRUE, CL_MAP_READ, 0, sizeof host, 0, NULL, NULL,
                                &err);
    CHECK_OK(err);
    CHECK(p == host && p[8] == 4242 && p[5] == -1);
    CHECK_OK(clEnqueueUnmapMemObject(h->queue, use, p, 0, NULL, NULL));
    CHECK_OK(clFinish(h->queue));
    clReleaseMemObject(copy), clReleaseMemObject(use), clReleaseMemObject(alloc);
}

/* 5.4.1: destructor callbacks run in the reverse order of registration,
 * once, when the object goes (after commands using it are done). */
static int destructor_order[8], destructor_count;
static void CL_CALLBACK on_destroy(cl_mem mem, void *data)
{
    destructor_order[destructor_count++ & 7] = *(int *)data;
}

static void test_destructors(struct harness *h)
{
    static int ids[3] = {1, 2, 3};
    cl_mem m = harness_buffer(h, CL_MEM_READ_WRITE, 1 << 20, NULL);
    for (int i = 0; i < 3; i++)
        CHECK_OK(clSetMemObjectDestructorCallback(m, on_destroy, &ids[i]));
    CHECK_ERR(clSetMemObjectDestructorCallback(m, NULL, NULL), CL_INVALID_VALUE);
    int zero = 0;
    CHECK_OK(clEnqueueFillBuffer(h->queue, m, &zero, 4, 0, 1 << 20, 0, NULL, NULL));
    CHECK_OK(clRetainMemObject(m));
    CHECK_OK(clReleaseMemObject(m));
    CHECK_OK(clFinish(h->queue));
    CHECK_EQ(destructor_count, 0);
    CHECK_OK(clReleaseMemObject(m));
    CHECK_OK(clFinish(h->queue));
    CHECK_EQ(destructor_count, 3);
    CHECK(destructor_order[0] == 3 && destructor_order[1] == 2 && destructor_order[2] == 1);

    /* A sub-buffer holds its parent: the parent's callbacks wait for it. */
    destructor_count = 0;
    cl_mem parent = harness_buffer(h, CL_MEM_READ_WRITE, 4096, NULL);
    cl_buffer_region region = {1024, 1024};
    cl_int err;
    cl_mem sub = clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &region, &err);
    CHECK_OK(err);
    CHECK_OK(clSetMemObjectDestructorCallback(parent, on_destroy, &ids[0]));
    CHECK_OK(clSetMemObjectDestructorCallback(sub, on_destroy, &ids[1]));
    CHECK_OK(clReleaseMemObject(parent));
    CHECK_EQ(destructor_count, 0);
    CHECK_OK(clReleaseMemObject(sub));
    CHECK_EQ(destructor_count, 2);
    CHECK(destructor_order[0] == 2 && destructor_order[1] == 1);
}

static void test_read_write_copy(struct harness *h)
{
    enum { N = 3 << 20 }; /* big enough to be split across workers */
    unsigned char *a = malloc(N), *b = malloc(N);
    for (int i = 0; i < N; i++)
        a[i] = (unsigned char)(i * 7 + (i >> 11));
    cl_mem src = harness_buffer(h, CL_MEM_READ_WRITE, N, NULL);
    cl_mem dst = harness_buffer(h, CL_MEM_READ_WRITE, N, NULL);
    cl_event write, copy, read;
    CHECK_OK(clEnqueueWriteBuffer(h->queue, src, CL_FALSE, 0, N, a, 0, NULL, &write));
    CHECK_OK(clEnqueueCopyBuffer(h->queue, src, dst, 0, 0, N, 0, NULL, &copy));
    CHECK_OK(clEnqueueReadBuffer(h->queue, dst, CL_FALSE, 0, N, b, 0, NULL, &read));
    CHECK_OK(clWaitForEvents(1, &read));
    CHECK(memcmp(a, b, N) == 0);
    cl_command_type types[3];
    cl_event events[3] = {write, copy, read};
    for (int i = 0; i < 3; i++) {
        CHECK_OK(
            clGetEventInfo(events[i], CL_EVENT_COMMAND_TYPE, sizeof types[i], &types[i], NULL));
        clReleaseEvent(events[i]);
    }
    CHECK(types[0] == CL_COMMAND_WRITE_BUFFER && types[1] == CL_COMMAND_COPY_BUFFER &&
          types[2] == CL_COMMAND_READ_BUFFER);
    /* Partial transfers at odd offsets. */
    CHECK_OK(clEnqueueCopyBuffer(h->queue, src, dst, 1000, 5, 4096, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(h->queue, dst, CL_TRUE, 5, 4096, b, 0, NULL, NULL));
    CHECK(memcmp(a + 1000, b, 4096) == 0);
    CHECK_OK(clEnqueueWriteBuffer(h->queue, dst, CL_TRUE, N - 3, 3, "xyz", 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(h->queue, dst, CL_TRUE, N - 4, 4, b, 0, NULL, NULL));
    CHECK(b[0] == a[N - 4] && !memcmp(b + 1, "xyz", 3));
    /* Errors: out of bounds, NULL pointer, overlap in one buffer. */
    CHECK_ERR(clEnqueueReadBuffer(h->queue, dst, CL_TRUE, N - 10, 11, b, 0, NULL, NULL),
              CL_INVALID_VALUE);
    CHECK_ERR(clEnqueueReadBuffer(h->queue, dst, CL_TRUE, N + 1, 1, b, 0, NULL, NULL),
              CL_INVALID_VALUE);
    CHECK_ERR(clEnqueueWriteBuffer(h->queue, dst, CL_TRUE, (size_t)-8, 16, b, 0, NULL, NULL),
              CL_INVALID_VALUE);
    CHECK_ERR(clEnqueueReadBuffer(h->queue, dst, CL_TRUE, 0, 10, NULL, 0, NULL, NULL),
              CL_INVALID_VALUE);
    CHECK_ERR(clEnqueueCopyBuffer(h->queue, src, dst, N - 10, 0, 11, 0, NULL, NULL),
              CL_INVALID_VALUE);
    CHECK_ERR(clEnqueueCopyBuffer(h->queue, src, src, 0, 100, 200, 0, NULL, NULL),
              CL_MEM_COPY_OVERLAP);
    CHECK_OK(clEnqueueCopyBuffer(h->queue, src, src, 0, 200, 200, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(h->queue, src, CL_TRUE, 200, 200, b, 0, NULL, NULL));
    CHECK(memcmp(a, b, 200) == 0);
    CHECK_OK(clFinish(h->queue));
    clReleaseMemObject(src);
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
        CHECK_OK(
            clEnqueueFillBuffer(h->queue, m, pattern, pattern_size, offset, size, 0, NULL, NULL));
        /* One element alone, at the very end. */
        CHECK_OK(clEnqueueFillBuffer(h->queue, m, pattern, pattern_size, N - pattern_size,
                                     pattern_size, 0, NULL, NULL));
        CHECK_OK(clEnqueueReadBuffer(h->queue, m, CL_TRUE, 0, N, out, 0, NULL, NULL));
        long bad = 0;
        for (size_t i = 0; i < N; i++) {
            unsigned char want = i >= offset && i < offset + size
                                     ? pattern[(i - offset) % pattern_size]
                                 : i >= N - pattern_size ? pattern[i - (N - pattern_size)]
                                                         : 0;
            bad += out[i] != want;
        }
        if (bad)
            fprintf(stderr, "pattern size %zu: ", pattern_size);
        CHECK_NONE_WRONG(bad, "fill");
    }
    unsigned char p[4] = {0};
    CHECK_ERR(clEnqueueFillBuffer(h->queue, m, p, 3, 0, 12, 0, NULL, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clEnqueueFillBuffer(h->queue, m, p, 256, 0, 256, 0, NULL, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clEnqueueFillBuffer(h->queue, m, p, 0, 0, 12, 0, NULL, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clEnqueueFillBuffer(h->queue, m, p, 4, 2, 12, 0, NULL, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clEnqueueFillBuffer(h->queue, m, p, 4, 0, 10, 0, NULL, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clEnqueueFillBuffer(h->queue, m, p, 4, N - 4, 8, 0, NULL, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clEnqueueFillBuffer(h->queue, m, NULL, 4, 0, 12, 0, NULL, NULL), CL_INVALID_VALUE);
    clReleaseMemObject(m);

    /* A large fill (split across workers) of a 16-byte pattern. */
    enum { BIG = 5 << 20 };
    unsigned char *big = malloc(BIG);
    m = harness_buffer(h, CL_MEM_READ_WRITE, BIG, NULL);
    cl_uint pattern4[4] = {0x01020304u, 0xa0b0c0d0u, 0xdeadbeefu, 0x7f7f7f7fu};
    CHECK_OK(clEnqueueFillBuffer(h->queue, m, pattern4, 16, 16, BIG - 32, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(h->queue, m, CL_TRUE, 0, BIG, big, 0, NULL, NULL));
    long bad = 0;
    for (size_t i = 16; i < BIG - 16; i += 16)
        bad += memcmp(big + i, pattern4, 16) != 0;
    CHECK_NONE_WRONG(bad, "large fill");
    clReleaseMemObject(m);
    free(big);
    free(out);
}

/* Copies and fills larger than the last-level cache, which the device
 * makes with streaming stores (src/devices/cpu/pool.c): every pattern
 * size, ranges that start and end off a cache line (in a buffer whose
 * memory starts off one), a copy between two halves of one buffer. */
static void test_past_the_cache(struct harness *h)
{
    cl_ulong cache = 0;
    CHECK_OK(
        clGetDeviceInfo(h->device, CL_DEVICE_GLOBAL_MEM_CACHE_SIZE, sizeof cache, &cache, NULL));
    size_t n = (size_t)cache * 3 / 2 + 1000;
    unsigned char *host = malloc(2 * n), *out = malloc(2 * n);
    REQUIRE(host && out);
    for (size_t i = 0; i < 2 * n; i++)
        host[i] = (unsigned char)(i * 13 + (i >> 12));
    cl_mem a = harness_buffer(h, CL_MEM_READ_WRITE, 2 * n, host);
    /* b over an application's memory three bytes past a cache line */
    unsigned char *raw = calloc(2 * n + 128, 1); /* room for the 67 bytes below */
    REQUIRE(raw);
    cl_int err;
    cl_mem b = clCreateBuffer(h->context, CL_MEM_USE_HOST_PTR, 2 * n,
                              raw + 64 - (uintptr_t)raw % 64 + 3, &err);
    CHECK_OK(err);
    long bad = 0;

    CHECK_OK(clEnqueueCopyBuffer(h->queue, a, b, 3, 61, n + 5, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(h->queue, b, CL_TRUE, 0, 2 * n, out, 0, NULL, NULL));
    for (size_t i = 0; i < 2 * n; i++)
        bad += out[i] != (i >= 61 && i < 61 + n + 5 ? host[i - 58] : 0);
    CHECK_NONE_WRONG(bad, "copied bytes");
    CHECK_OK(clEnqueueCopyBuffer(h->queue, a, a, 7, n + 9, n - 20, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(h->queue, a, CL_TRUE, 0, 2 * n, out, 0, NULL, NULL));
    bad = 0;
    for (size_t i = 0; i < 2 * n; i++)
        bad += out[i] != (i >= n + 9 && i < 2 * n - 11 ? host[i - n - 2] : host[i]);
    CHECK_NONE_WRONG(bad, "bytes copied within one buffer");

    for (size_t pattern_size = 1; pattern_size <= 128; pattern_size *= 2) {
        unsigned char pattern[128];
        for (size_t i = 0; i < pattern_size; i++)
            pattern[i] = (unsigned char)(pattern_size * 5 + i * 3 + 1);
        size_t offset = pattern_size * 5, size = (n / pattern_size - 3) * pattern_size;
        CHECK_OK(clEnqueueWriteBuffer(h->queue, b, CL_FALSE, 0, 2 * n, host, 0, NULL, NULL));
        CHECK_OK(
            clEnqueueFillBuffer(h->queue, b, pattern, pattern_size, offset, size, 0, NULL, NULL));
        CHECK_OK(clEnqueueReadBuffer(h->queue, b, CL_TRUE, 0, 2 * n, out, 0, NULL, NULL));
        bad = 0;
        for (size_t i = 0; i < 2 * n; i++)
            bad +=
                out[i] !=
                (i >= offset && i < offset + size ? pattern[(i - offset) % pattern_size] : host[i]);
        if (bad)
            fprintf(stderr, "pattern size %zu: ", pattern_size);
        CHECK_NONE_WRONG(bad, "bytes filled");
    }
    clReleaseMemObject(a);
    clReleaseMemObject(b);
    free(raw);
    free(host);
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
    cl_mem sub =
        clCreateSubBuffer(parent, CL_MEM_READ_ONLY, CL_BUFFER_CREATE_TYPE_REGION, &region, &err);
    CHECK_OK(err);
    int got[128];
    CHECK_OK(clEnqueueReadBuffer(h->queue, sub, CL_TRUE, 0, 512, got, 0, NULL, NULL));
    CHECK(got[0] == 256 && got[127] == 383);
    size_t offset, size;
    cl_mem assoc;
    cl_mem_flags flags;
    CHECK_OK(clGetMemObjectInfo(sub, CL_MEM_OFFSET, sizeof offset, &offset, NULL));
    CHECK_EQ(offset, 1024);
    CHECK_OK(clGetMemObjectInfo(sub, CL_MEM_SIZE, sizeof size, &size, NULL));
    CHECK_EQ(size, 512);
    CHECK_OK(clGetMemObjectInfo(sub, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof assoc, &assoc, NULL));
    CHECK(assoc == parent);
    CHECK_OK(clGetMemObjectInfo(parent, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof assoc, &assoc, NULL));
    CHECK(assoc == NULL);
    CHECK_OK(clGetMemObjectInfo(sub, CL_MEM_FLAGS, sizeof flags, &flags, NULL));
    CHECK(flags & CL_MEM_READ_ONLY);

    /* The alignment unit is CL_DEVICE_MEM_BASE_ADDR_ALIGN (bits). */
    cl_uint align_bits = 0;
    clGetDeviceInfo(h->device, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof align_bits, &align_bits, NULL);
    size_t align = align_bits / 8;
    cl_buffer_region misaligned = {align / 2, 16}, outside = {N - align, 2 * align}, empty = {0, 0};
    CHECK_FAILS(clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &misaligned, &err), err,
                CL_MISALIGNED_SUB_BUFFER_OFFSET);
    CHECK_FAILS(clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &outside, &err), err,
                CL_INVALID_VALUE);
    CHECK_FAILS(clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &empty, &err), err,
                CL_INVALID_BUFFER_SIZE);
    CHECK_FAILS(clCreateSubBuffer(sub, 0, CL_BUFFER_CREATE_TYPE_REGION, &region, &err), err,
                CL_INVALID_MEM_OBJECT);
    CHECK_FAILS(clCreateSubBuffer(parent, 0, 0x7777, &region, &err), err, CL_INVALID_VALUE);
    CHECK_FAILS(clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, NULL, &err), err,
                CL_INVALID_VALUE);
    CHECK_FAILS(
        clCreateSubBuffer(parent, CL_MEM_USE_HOST_PTR, CL_BUFFER_CREATE_TYPE_REGION, &region, &err),
        err, CL_INVALID_VALUE);
    /* 5.2.2: no more access than the parent allows. */
    cl_mem write_only = harness_buffer(h, CL_MEM_WRITE_ONLY | CL_MEM_HOST_READ_ONLY, N, NULL);
    CHECK_FAILS(clCreateSubBuffer(write_only, CL_MEM_READ_ONLY, CL_BUFFER_CREATE_TYPE_REGION,
                                  &region, &err),
                err, CL_INVALID_VALUE);
    CHECK_FAILS(clCreateSubBuffer(write_only, CL_MEM_HOST_WRITE_ONLY, CL_BUFFER_CREATE_TYPE_REGION,
                                  &region, &err),
                err, CL_INVALID_VALUE);
    cl_mem inherits = clCreateSubBuffer(write_only, 0, CL_BUFFER_CREATE_TYPE_REGION, &region, &err);
    CHECK_OK(err);
    CHECK_OK(clGetMemObjectInfo(inherits, CL_MEM_FLAGS, sizeof flags, &flags, NULL));
    CHECK((flags & CL_MEM_WRITE_ONLY) && (flags & CL_MEM_HOST_READ_ONLY));
    clReleaseMemObject(inherits);
    clReleaseMemObject(write_only);

    /* Writes through one view are seen through the other. */
    cl_buffer_region second = {2048, 1024};
    cl_mem rw = clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &second, &err);
    CHECK_OK(err);
    int value = -7;
    CHECK_OK(clEnqueueWriteBuffer(h->queue, rw, CL_TRUE, 12, 4, &value, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(h->queue, parent, CL_TRUE, 2048 + 12, 4, got, 0, NULL, NULL));
    CHECK_EQ(got[0], -7);
    /* Sub-buffers of one parent: overlapping copies are refused. */
    cl_buffer_region overlapping = {1024 + 256, 1024};
    cl_mem over = clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &overlapping, &err);
    CHECK_OK(err);
    CHECK_ERR(clEnqueueCopyBuffer(h->queue, sub, over, 0, 0, 512, 0, NULL, NULL),
              CL_MEM_COPY_OVERLAP);
    CHECK_OK(clEnqueueCopyBuffer(h->queue, sub, rw, 0, 0, 512, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(h->queue, parent, CL_TRUE, 2048, 512, got, 0, NULL, NULL));
    CHECK(got[0] == 256 && got[127] == 383);

    /* A kernel on a sub-buffer sees the sub-buffer's first element at 0. */
    const char *source = "kernel void bump(global int *p) { p[get_global_id(0)] += 1000; }\n";
    cl_program program = harness_build(h, source, "");
    REQUIRE(program);
    cl_kernel k = harness_kernel(program, "bump");
    CHECK_OK(clSetKernelArg(k, 0, sizeof rw, &rw));
    size_t global = 1024 / 4;
    CHECK_OK(clEnqueueNDRangeKernel(h->queue, k, 1, NULL, &global, NULL, 0, NULL, NULL));
    int all[N / 4];
    CHECK_OK(clEnqueueReadBuffer(h->queue, parent, CL_TRUE, 0, N, all, 0, NULL, NULL));
    long bad = 0;
    for (int i = 0; i < N / 4; i++) {
        int want = i >= 512 && i < 640 ? i - 256 : i == 515 ? -7 : i;
        if (i >= 512 && i < 768)
            want += 1000;
        bad += all[i] != want;
    }
    CHECK_NONE_WRONG(bad, "kernel on a sub-buffer");
    clReleaseKernel(k);
    clReleaseProgram(program);

    /* The parent may go first: the sub-buffer keeps the storage alive. */
    clReleaseMemObject(parent);
    CHECK_OK(clEnqueueReadBuffer(h->queue, sub, CL_TRUE, 4, 4, got, 0, NULL, NULL));
    CHECK_EQ(got[0], 257);
    clReleaseMemObject(sub), clReleaseMemObject(rw), clReleaseMemObject(over);

    /* A sub-buffer of a USE_HOST_PTR buffer: its host pointer is offset. */
    static int backing[N / 4];
    cl_mem use = clCreateBuffer(h->context, CL_MEM_USE_HOST_PTR, N, backing, &err);
    CHECK_OK(err);
    cl_mem use_sub = clCreateSubBuffer(use, 0, CL_BUFFER_CREATE_TYPE_REGION, &region, &err);
    CHECK_OK(err);
    void *host_ptr = NULL;
    CHECK_OK(clGetMemObjectInfo(use_sub, CL_MEM_HOST_PTR, sizeof host_ptr, &host_ptr, NULL));
    CHECK(host_ptr == (char *)backing + 1024);
    CHECK_OK(clGetMemObjectInfo(use_sub, CL_MEM_FLAGS, sizeof flags, &flags, NULL));
    CHECK(flags & CL_MEM_USE_HOST_PTR);
    int *mapped =
        clEnqueueMapBuffer(h->queue, use_sub, CL_TRUE, CL_MAP_WRITE, 4, 8, 0, NULL, NULL, &err);
    CHECK_OK(err);
    CHECK(mapped == backing + 257);
    CHECK_OK(clEnqueueUnmapMemObject(h->queue, use_sub, mapped, 0, NULL, NULL));
    CHECK_OK(clFinish(h->queue));
    clReleaseMemObject(use_sub), clReleaseMemObject(use);
}

static void test_rect(struct harness *h)
{
    /* A 3D box of 16 x 8 x 4 bytes moved out of a 32 x 16 x 8 buffer. */
    enum { W = 32, H = 16, D = 8 };
    unsigned char host[W * H * D], box[16 * 8 * 4], back[W * H * D];
    for (int i = 0; i < W * H * D; i++)
        host[i] = (unsigned char)(i * 13 + i / 256);
    cl_mem m = harness_buffer(h, CL_MEM_READ_WRITE, sizeof host, host);
    size_t origin[3] = {5, 3, 2}, zero[3] = {0, 0, 0}, region[3] = {16, 8, 4};
    CHECK_OK(clEnqueueReadBufferRect(h->queue, m, CL_TRUE, origin, zero, region, W, W * H, 0, 0,
                                     box, 0, NULL, NULL));
    long bad = 0;
    for (int z = 0; z < 4; z++)
        for (int y = 0; y < 8; y++)
            for (int x = 0; x < 16; x++)
                bad += box[(z * 8 + y) * 16 + x] != host[((z + 2) * H + y + 3) * W + x + 5];
    CHECK_NONE_WRONG(bad, "read rect");
    /* Write it back elsewhere and copy within the buffer. */
    CHECK_OK(clEnqueueWriteBufferRect(h->queue, m, CL_TRUE, zero, zero, region, W, W * H, 0, 0, box,
                                      0, NULL, NULL));
    size_t copy_to[3] = {16, 8, 4};
    CHECK_OK(clEnqueueCopyBufferRect(h->queue, m, m, zero, copy_to, region, W, W * H, W, W * H, 0,
                                     NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(h->queue, m, CL_TRUE, 0, sizeof back, back, 0, NULL, NULL));
    bad = 0;
    for (int z = 0; z < 4; z++)
        for (int y = 0; y < 8; y++)
            for (int x = 0; x < 16; x++) {
                unsigned char want = box[(z * 8 + y) * 16 + x];
                bad += back[(z * H + y) * W + x] != want;
                bad += back[((z + 4) * H + y + 8) * W + x + 16] != want;
            }
    CHECK_NONE_WRONG(bad, "write rect and copy rect");

    /* A 2D rect with a host origin and explicit host pitches: a 7 x 5 block
     * into a host image of 40 x 12 bytes at (3, 4). */
    unsigned char image[40 * 12];
    memset(image, 0, sizeof image);
    size_t buffer_origin[3] = {9, 1, 0}, host_origin[3] = {3, 4, 0}, block[3] = {7, 5, 1};
    CHECK_OK(clEnqueueReadBufferRect(h->queue, m, CL_TRUE, buffer_origin, host_origin, block, W, 0,
                                     40, 0, image, 0, NULL, NULL));
    bad = 0;
    for (int y = 0; y < 12; y++)
        for (int x = 0; x < 40; x++) {
            int inside = x >= 3 && x < 10 && y >= 4 && y < 9;
            unsigned char want = inside ? back[(y - 4 + 1) * W + x - 3 + 9] : 0;
            bad += image[y * 40 + x] != want;
        }
    CHECK_NONE_WRONG(bad, "read rect with host origin and pitch");

    /* Appendix E: two boxes side by side in one buffer do not overlap, even
     * though the byte ranges they span do. */
    size_t left[3] = {0, 0, 0}, right[3] = {16, 0, 0}, half[3] = {16, 16, 1};
    CHECK_OK(clEnqueueCopyBufferRect(h->queue, m, m, left, right, half, W, W * H, W, W * H, 0, NULL,
                                     NULL));
    CHECK_OK(clEnqueueReadBuffer(h->queue, m, CL_TRUE, 0, W * H, host, 0, NULL, NULL));
    bad = 0;
    for (int y = 0; y < 16; y++)
        for (int x = 0; x < 16; x++)
            bad += host[y * W + x + 16] != back[y * W + x] || host[y * W + x] != back[y * W + x];
    CHECK_NONE_WRONG(bad, "copy rect between side-by-side boxes");
    size_t shifted[3] = {8, 0, 0};
    CHECK_ERR(clEnqueueCopyBufferRect(h->queue, m, m, left, shifted, half, W, W * H, W, W * H, 0,
                                      NULL, NULL),
              CL_MEM_COPY_OVERLAP);

    /* Errors (5.2.3). */
    size_t bad_region[3] = {16, 0, 1}, box2[3] = {16, 8, 1};
    CHECK_ERR(clEnqueueReadBufferRect(h->queue, m, CL_TRUE, origin, zero, bad_region, W, W * H, 0,
                                      0, box, 0, NULL, NULL),
              CL_INVALID_VALUE);
    CHECK_ERR(clEnqueueReadBufferRect(h->queue, m, CL_TRUE, origin, zero, box2, 8, 0, 0, 0, box, 0,
                                      NULL, NULL),
              CL_INVALID_VALUE); /* row pitch below region[0] */
    CHECK_ERR(clEnqueueReadBufferRect(h->queue, m, CL_TRUE, origin, zero, box2, W, W * 8 + 1, 0, 0,
                                      box, 0, NULL, NULL),
              CL_INVALID_VALUE); /* slice pitch not a multiple of the row pitch */
    size_t deep[3] = {0, 0, 7}, tall[3] = {16, 8, 2};
    CHECK_ERR(clEnqueueReadBufferRect(h->queue, m, CL_TRUE, deep, zero, tall, W, W * H, 0, 0, box,
                                      0, NULL, NULL),
              CL_INVALID_VALUE); /* past the end of the buffer */
    CHECK_ERR(clEnqueueCopyBufferRect(h->queue, m, m, zero, copy_to, region, W, W * H, 2 * W,
                                      2 * W * H, 0, NULL, NULL),
              CL_INVALID_VALUE); /* one buffer, different pitches */
    CHECK_ERR(clEnqueueWriteBufferRect(h->queue, m, CL_TRUE, origin, zero, region, W, W * H, 0, 0,
                                       NULL, 0, NULL, NULL),
              CL_INVALID_VALUE);
    clReleaseMemObject(m);
}

/* The reference for every rect command: bytes at (x, y, z) of a region,
 * from one (origin, row pitch, slice pitch) layout to another. */
static void host_rect_copy(unsigned char *dst, const size_t *dst_origin, size_t dst_row,
                           size_t dst_slice, const unsigned char *src, const size_t *src_origin,
                           size_t src_row, size_t src_slice, const size_t *region)
{
    for (size_t z = 0; z < region[2]; z++)
        for (size_t y = 0; y < region[1]; y++)
            for (size_t x = 0; x < region[0]; x++)
                dst[(dst_origin[2] + z) * dst_slice + (dst_origin[1] + y) * dst_row +
                    dst_origin[0] + x] = src[(src_origin[2] + z) * src_slice +
                                             (src_origin[1] + y) * src_row + src_origin[0] + x];
}

static size_t pick(unsigned *seed, size_t below)
{
    *seed = *seed * 1103515245u + 12345u;
    return (*seed >> 8) % below;
}

/* Random rect reads, writes and copies (fixed seed), each compared with
 * the host's reference on the whole of both memories. */
static void test_random_rects(struct harness *h)
{
    enum { BW = 48, BH = 20, BD = 6, BYTES = BW * BH * BD, HOST = 64 * 24 * 8 };
    static unsigned char mirror[BYTES], mirror2[BYTES], host[HOST], want_host[HOST], got[BYTES];
    for (int i = 0; i < BYTES; i++)
        mirror[i] = (unsigned char)(i * 29 + 3), mirror2[i] = (unsigned char)(i * 7 + 1);
    cl_mem m = harness_buffer(h, CL_MEM_READ_WRITE, BYTES, mirror);
    cl_mem m2 = harness_buffer(h, CL_MEM_READ_WRITE, BYTES, mirror2);
    unsigned seed = 12345;
    long bad = 0;
    for (int round = 0; round < 60; round++) {
        size_t region[3] = {1 + pick(&seed, 20), 1 + pick(&seed, 10), 1 + pick(&seed, 3)};
        size_t b_origin[3] = {pick(&seed, BW - region[0] + 1), pick(&seed, BH - region[1] + 1),
                              pick(&seed, BD - region[2] + 1)};
        /* host layout: a row pitch of at least region[0], 0 sometimes */
        size_t h_row = pick(&seed, 2) ? 0 : region[0] + pick(&seed, 8);
        size_t row = h_row ? h_row : region[0];
        size_t h_slice = pick(&seed, 2) ? 0 : row * (region[1] + pick(&seed, 3));
        size_t slice = h_slice ? h_slice : row * region[1];
        size_t h_origin[3] = {pick(&seed, 3), pick(&seed, 3), pick(&seed, 2)};
        if ((h_origin[2] + region[2]) * slice > HOST)
            continue;
        int kind = (int)pick(&seed, 3);
        if (kind == 0) { /* read */
            memset(host, 0, sizeof host);
            memset(want_host, 0, sizeof want_host);
            host_rect_copy(want_host, h_origin, row, slice, mirror, b_origin, BW, BW * BH, region);
            CHECK_OK(clEnqueueReadBufferRect(h->queue, m, CL_TRUE, b_origin, h_origin, region, BW,
                                             BW * BH, h_row, h_slice, host, 0, NULL, NULL));
            bad += memcmp(host, want_host, sizeof host) != 0;
        } else if (kind == 1) { /* write */
            for (int i = 0; i < HOST; i++)
                host[i] = (unsigned char)(i + round * 17);
            host_rect_copy(mirror, b_origin, BW, BW * BH, host, h_origin, row, slice, region);
            CHECK_OK(clEnqueueWriteBufferRect(h->queue, m, CL_TRUE, b_origin, h_origin, region, BW,
                                              BW * BH, h_row, h_slice, host, 0, NULL, NULL));
        } else { /* copy m2 -> m, m2 laid out with other pitches */
            size_t row2 = region[0] + pick(&seed, 4), slice2 = row2 * (region[1] + pick(&seed, 2));
            size_t o2[3] = {0, 0, 0};
            if ((region[2] - 1) * slice2 + (region[1] - 1) * row2 + region[0] > BYTES)
                continue;
            host_rect_copy(mirror, b_origin, BW, BW * BH, mirror2, o2, row2, slice2, region);
            CHECK_OK(clEnqueueCopyBufferRect(h->queue, m2, m, o2, b_origin, region, row2, slice2,
                                             BW, BW * BH, 0, NULL, NULL));
        }
        CHECK_OK(clEnqueueReadBuffer(h->queue, m, CL_TRUE, 0, BYTES, got, 0, NULL, NULL));
        bad += memcmp(got, mirror, BYTES) != 0;
    }
    CHECK_NONE_WRONG(bad, "random rects");
    clReleaseMemObject(m), clReleaseMemObject(m2);
}

static void test_map(struct harness *h)
{
    cl_int err;
    int host[1024];
    for (int i = 0; i < 1024; i++)
        host[i] = i;
    cl_mem m = clCreateBuffer(h->context, CL_MEM_USE_HOST_PTR, sizeof host, host, &err);
    CHECK_OK(err);
    int *p = clEnqueueMapBuffer(h->queue, m, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 400, 400, 0, NULL,
                                NULL, &err);
    CHECK_OK(err);
    /* USE_HOST_PTR: the mapped region is the application's own memory. */
    CHECK(p == host + 100);
    cl_uint count;
    CHECK_OK(clGetMemObjectInfo(m, CL_MEM_MAP_COUNT, sizeof count, &count, NULL));
    CHECK_EQ(count, 1);
    p[0] = -1;
    CHECK_OK(clEnqueueUnmapMemObject(h->queue, m, p, 0, NULL, NULL));
    int got;
    CHECK_OK(clEnqueueReadBuffer(h->queue, m, CL_TRUE, 400, 4, &got, 0, NULL, NULL));
    CHECK_EQ(got, -1);
    CHECK_OK(clGetMemObjectInfo(m, CL_MEM_MAP_COUNT, sizeof count, &count, NULL));
    CHECK_EQ(count, 0);
    CHECK_ERR(clEnqueueUnmapMemObject(h->queue, m, p, 0, NULL, NULL), CL_INVALID_VALUE);
    p = clEnqueueMapBuffer(h->queue, m, CL_TRUE, CL_MAP_WRITE_INVALIDATE_REGION | CL_MAP_READ, 0, 4,
                           0, NULL, NULL, &err);
    CHECK(p == NULL && err == CL_INVALID_VALUE);
    p = clEnqueueMapBuffer(h->queue, m, CL_TRUE, CL_MAP_READ, 4000, 400, 0, NULL, NULL, &err);
    CHECK(p == NULL && err == CL_INVALID_VALUE);
    p = clEnqueueMapBuffer(h->queue, m, CL_TRUE, CL_MAP_READ, 0, 0, 0, NULL, NULL, &err);
    CHECK(p == NULL && err == CL_INVALID_VALUE);
    clReleaseMemObject(m);

    cl_mem ro = clCreateBuffer(h->context, CL_MEM_HOST_READ_ONLY, 64, NULL, &err);
    p = clEnqueueMapBuffer(h->queue, ro, CL_TRUE, CL_MAP_WRITE, 0, 64, 0, NULL, NULL, &err);
    CHECK(p == NULL && err == CL_INVALID_OPERATION);
    p = clEnqueueMapBuffer(h->queue, ro, CL_TRUE, CL_MAP_READ, 0, 64, 0, NULL, NULL, &err);
    CHECK_OK(err);
    CHECK_OK(clEnqueueUnmapMemObject(h->queue, ro, p, 0, NULL, NULL));
    clReleaseMemObject(ro);

    /* An ordinary buffer: two regions mapped at once, one for reading and
     * one for writing; the written one reaches the buffer after unmap. */
    for (int i = 0; i < 1024; i++)
        host[i] = i;
    cl_mem b = harness_buffer(h, CL_MEM_READ_WRITE, sizeof host, host);
    int *r = clEnqueueMapBuffer(h->queue, b, CL_TRUE, CL_MAP_READ, 0, 256, 0, NULL, NULL, &err);
    CHECK_OK(err);
    int *w = clEnqueueMapBuffer(h->queue, b, CL_TRUE, CL_MAP_WRITE_INVALIDATE_REGION, 2048, 1024, 0,
                                NULL, NULL, &err);
    CHECK_OK(err);
    CHECK(r && r[0] == 0 && r[63] == 63);
    CHECK_OK(clGetMemObjectInfo(b, CL_MEM_MAP_COUNT, sizeof count, &count, NULL));
    CHECK_EQ(count, 2);
    for (int i = 0; w && i < 256; i++)
        w[i] = -i;
    CHECK_OK(clEnqueueUnmapMemObject(h->queue, b, w, 0, NULL, NULL));
    CHECK_OK(clEnqueueUnmapMemObject(h->queue, b, r, 0, NULL, NULL));
    int back[1024];
    CHECK_OK(clEnqueueReadBuffer(h->queue, b, CL_TRUE, 0, sizeof back, back, 0, NULL, NULL));
    long bad = 0;
    for (int i = 0; i < 1024; i++)
        bad += back[i] != (i >= 512 && i < 768 ? -(i - 512) : i);
    CHECK_NONE_WRONG(bad, "map for writing");
    /* 5.4.2: only a pointer a map returned may be unmapped, once. */
    int *whole =
        clEnqueueMapBuffer(h->queue, b, CL_TRUE, CL_MAP_READ, 64, 256, 0, NULL, NULL, &err);
    CHECK_OK(err);
    CHECK_ERR(clEnqueueUnmapMemObject(h->queue, b, whole + 8, 0, NULL, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clEnqueueUnmapMemObject(h->queue, b, back, 0, NULL, NULL), CL_INVALID_VALUE);
    CHECK_OK(clEnqueueUnmapMemObject(h->queue, b, whole, 0, NULL, NULL));
    CHECK_ERR(clEnqueueUnmapMemObject(h->queue, b, whole, 0, NULL, NULL), CL_INVALID_VALUE);

    /* A non-blocking map behind a user event: the pointer is usable once
     * the map's event is complete, and shows what the earlier write put
     * there. */
    cl_event gate = clCreateUserEvent(h->context, &err), map_event;
    int fresh = 31337;
    CHECK_OK(clEnqueueWriteBuffer(h->queue, b, CL_FALSE, 40, 4, &fresh, 1, &gate, NULL));
    int *q =
        clEnqueueMapBuffer(h->queue, b, CL_FALSE, CL_MAP_READ, 0, 64, 0, NULL, &map_event, &err);
    CHECK_OK(err);
    CHECK(q != NULL);
    cl_int status = 0;
    CHECK_OK(
        clGetEventInfo(map_event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL));
    CHECK(status > CL_COMPLETE);
    cl_command_type type = 0;
    CHECK_OK(clGetEventInfo(map_event, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL));
    CHECK_EQ(type, CL_COMMAND_MAP_BUFFER);
    CHECK_OK(clSetUserEventStatus(gate, CL_COMPLETE));
    CHECK_OK(clWaitForEvents(1, &map_event));
    CHECK(q && q[10] == 31337);
    cl_event unmap_event;
    CHECK_OK(clEnqueueUnmapMemObject(h->queue, b, q, 0, NULL, &unmap_event));
    CHECK_OK(clWaitForEvents(1, &unmap_event));
    CHECK_OK(clGetEventInfo(unmap_event, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL));
    CHECK_EQ(type, CL_COMMAND_UNMAP_MEM_OBJECT);
    clReleaseEvent(gate), clReleaseEvent(map_event), clReleaseEvent(unmap_event);

    /* A kernel's writes are seen through a map after it. */
    const char *source =
        "kernel void square(global int *p) { size_t i = get_global_id(0); p[i] *= p[i]; }\n";
    cl_program program = harness_build(h, source, "");
    REQUIRE(program);
    cl_kernel k = harness_kernel(program, "square");
    CHECK_OK(clSetKernelArg(k, 0, sizeof b, &b));
    size_t global = 1024;
    CHECK_OK(clEnqueueNDRangeKernel(h->queue, k, 1, NULL, &global, NULL, 0, NULL, NULL));
    int *s =
        clEnqueueMapBuffer(h->queue, b, CL_TRUE, CL_MAP_READ, 0, sizeof host, 0, NULL, NULL, &err);
    CHECK_OK(err);
    bad = 0;
    for (int i = 0; s && i < 1024; i++) {
        int before = i == 10 ? 31337 : i >= 512 && i < 768 ? -(i - 512) : i;
        bad += s[i] != before * before;
    }
    CHECK_NONE_WRONG(bad, "map after a kernel");
    CHECK_OK(clEnqueueUnmapMemObject(h->queue, b, s, 0, NULL, NULL));
    CHECK_OK(clFinish(h->queue));
    clReleaseKernel(k);
    clReleaseProgram(program);

    /* Migration only orders on a device that shares the host's memory. */
    CHECK_OK(
        clEnqueueMigrateMemObjects(h->queue, 1, &b, CL_MIGRATE_MEM_OBJECT_HOST, 0, NULL, NULL));
    CHECK_OK(clEnqueueMigrateMemObjects(h->queue, 1, &b, 0, 0, NULL, NULL));
    CHECK_ERR(clEnqueueMigrateMemObjects(h->queue, 0, NULL, 0, 0, NULL, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clEnqueueMigrateMemObjects(h->queue, 1, &b, 0x100, 0, NULL, NULL), CL_INVALID_VALUE);
    CHECK_OK(clFinish(h->queue));
    clReleaseMemObject(b);
}

int main(void)
{
    struct harness h = harness_open();
    test_create(&h);
    test_zeroed(&h);
    test_host_pointers(&h);
    test_destructors(&h);
    test_read_write_copy(&h);
    test_fill(&h);
    test_past_the_cache(&h);
    test_sub_buffers(&h);
    test_rect(&h);
    test_random_rects(&h);
    test_map(&h);
    harness_close(&h);
    return harness_finish();
}
