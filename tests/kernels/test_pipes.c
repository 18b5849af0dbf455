/* test_pipes.c - pipes (API spec 5.4, OpenCL C 2.0 6.13.16): clCreatePipe's
 * errors, pipe and memory-object queries, pipe kernel arguments, and the
 * pipe built-ins run by many work-items on every worker: read_pipe and
 * write_pipe on empty, partly full and full pipes, reservations and their
 * commits, work-group and sub-group reservations, struct packets, the
 * num/max packets queries, and a producer and a consumer kernel running at
 * the same time on an out-of-order queue; the same built-ins from SPIR-V
 * (tests/data/pipes.spv). Every packet is checked on the
 * host: as a multiset where work-items race, in order where the spec's
 * FIFO and reservations fix it. */
#include "../harness.h"

static const char *source =
    "typedef struct { float f; char c; double d; } S;\n"
    "kernel void produce(write_only pipe int p, global const int *in, global int *status)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    status[i] = write_pipe(p, &in[i]);\n"
    "}\n"
    "kernel void consume(read_only pipe int p, global int *out, global int *status)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    int v = -1;\n"
    "    status[i] = read_pipe(p, &v);\n"
    "    out[i] = v;\n"
    "}\n"
    /* bounded retries: the other kernel may or may not run meanwhile */
    "kernel void produce_retry(write_only pipe int p, global const int *in, global int *status)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    int r = -1;\n"
    "    for (int t = 0; t < 2000 && r != 0; t++) {\n"
    "        if (i % 3 == 0) {\n"
    "            reserve_id_t id = reserve_write_pipe(p, 1);\n"
    "            if (is_valid_reserve_id(id)) {\n"
    "                r = write_pipe(p, id, 0, &in[i]);\n"
    "                commit_write_pipe(p, id);\n"
    "            }\n"
    "        } else {\n"
    "            r = write_pipe(p, &in[i]);\n"
    "        }\n"
    "    }\n"
    "    status[i] = r;\n"
    "}\n"
    "kernel void consume_retry(read_only pipe int p, global int *out, global int *status)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    int r = -1, v = -1;\n"
    "    for (int t = 0; t < 2000 && r != 0; t++) {\n"
    "        if (i % 4 == 1) {\n"
    "            reserve_id_t id = reserve_read_pipe(p, 1);\n"
    "            if (is_valid_reserve_id(id)) {\n"
    "                r = read_pipe(p, id, 0, &v);\n"
    "                commit_read_pipe(p, id);\n"
    "            }\n"
    "        } else {\n"
    "            r = read_pipe(p, &v);\n"
    "        }\n"
    "    }\n"
    "    status[i] = r;\n"
    "    out[i] = v;\n"
    "}\n"
    /* reservations of 3: write 3 values, and try an index past the end */
    "kernel void reserve3(write_only pipe int p, global int *status)\n"
    "{\n"
    "    int i = (int)get_global_id(0);\n"
    "    reserve_id_t id = reserve_write_pipe(p, 3);\n"
    "    if (!is_valid_reserve_id(id)) { status[i] = -100; return; }\n"
    "    int past = 7, s = 0;\n"
    "    for (int k = 2; k >= 0; k--) { int v = 3 * i + k; s += write_pipe(p, id, k, &v) != 0; }\n"
    "    s += 10 * (write_pipe(p, id, 3, &past) >= 0);\n"
    "    commit_write_pipe(p, id);\n"
    "    status[i] = s;\n"
    "}\n"
    "kernel void unreserve3(read_only pipe int p, global int *out, global int *status)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    reserve_id_t id = reserve_read_pipe(p, 3);\n"
    "    if (!is_valid_reserve_id(id)) { status[i] = -100; return; }\n"
    "    int s = 0;\n"
    "    for (int k = 0; k < 3; k++) s += read_pipe(p, id, k, &out[3 * i + k]) != 0;\n"
    "    commit_read_pipe(p, id);\n"
    "    status[i] = s;\n"
    "}\n"
    /* one work-item: a reservation is invisible until committed, FIFO
     * order across reservations, reservations larger than the pipe */
    "kernel void visibility(write_only pipe int w, read_only pipe int r, global int *out)\n"
    "{\n"
    "    int x = -1, v;\n"
    "    reserve_id_t a = reserve_write_pipe(w, 2);\n"
    "    reserve_id_t b = reserve_write_pipe(w, 2);\n"
    "    out[0] = is_valid_reserve_id(a) && is_valid_reserve_id(b);\n"
    "    v = 10; write_pipe(w, a, 0, &v); v = 11; write_pipe(w, a, 1, &v);\n"
    "    v = 20; write_pipe(w, b, 0, &v); v = 21; write_pipe(w, b, 1, &v);\n"
    "    out[1] = read_pipe(r, &x);\n"
    "    out[2] = get_pipe_max_packets(w);\n"
    "    commit_write_pipe(w, a);\n"
    "    commit_write_pipe(w, b);\n"
    "    out[3] = get_pipe_num_packets(r);\n"
    "    for (int k = 0; k < 4; k++) { out[4 + 2 * k] = read_pipe(r, &x); out[5 + 2 * k] = x; }\n"
    "    out[12] = read_pipe(r, &x);\n"
    "    out[13] = is_valid_reserve_id(reserve_write_pipe(w, 9));\n"
    "    out[14] = is_valid_reserve_id(reserve_read_pipe(r, 1));\n"
    "    out[15] = get_pipe_num_packets(w);\n"
    "}\n"
    "kernel void query(write_only pipe int w, read_only pipe int r, global int *out)\n"
    "{\n"
    "    out[0] = get_pipe_num_packets(w); out[1] = get_pipe_max_packets(w);\n"
    "    out[2] = get_pipe_num_packets(r); out[3] = get_pipe_max_packets(r);\n"
    "}\n"
    /* work-group reservations of a struct packet */
    "kernel void wg_write(write_only pipe S p, global const S *in, global int *status)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    reserve_id_t id = work_group_reserve_write_pipe(p, get_local_size(0));\n"
    "    status[i] = -1;\n"
    "    if (is_valid_reserve_id(id)) {\n"
    "        status[i] = write_pipe(p, id, get_local_id(0), &in[i]);\n"
    "        work_group_commit_write_pipe(p, id);\n"
    "    }\n"
    "}\n"
    "kernel void wg_read(read_only pipe S p, global S *out, global int *status)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    reserve_id_t id = work_group_reserve_read_pipe(p, get_local_size(0));\n"
    "    status[i] = -1;\n"
    "    if (is_valid_reserve_id(id)) {\n"
    "        status[i] = read_pipe(p, id, get_local_id(0), &out[i]);\n"
    "        work_group_commit_read_pipe(p, id);\n"
    "    }\n"
    "}\n";

static const char *sub_group_source =
    "#pragma OPENCL EXTENSION cl_khr_subgroups : enable\n"
    "kernel void sg_write(write_only pipe long p, global const long *in, global int *status)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    reserve_id_t id = sub_group_reserve_write_pipe(p, get_sub_group_size());\n"
    "    status[i] = -1;\n"
    "    if (is_valid_reserve_id(id)) {\n"
    "        status[i] = write_pipe(p, id, get_sub_group_local_id(), &in[i]);\n"
    "        sub_group_commit_write_pipe(p, id);\n"
    "    }\n"
    "}\n"
    "kernel void sg_read(read_only pipe long p, global long *out, global int *status,\n"
    "                    global int *size)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    if (i == 0) size[0] = get_max_sub_group_size();\n"
    "    reserve_id_t id = sub_group_reserve_read_pipe(p, get_sub_group_size());\n"
    "    status[i] = -1;\n"
    "    if (is_valid_reserve_id(id)) {\n"
    "        status[i] = read_pipe(p, id, get_sub_group_local_id(), &out[i]);\n"
    "        sub_group_commit_read_pipe(p, id);\n"
    "    }\n"
    "}\n";

typedef struct {
    float f;
    char c;
    double d;
} packet_s;

static cl_mem new_pipe(struct harness *h, cl_uint packet_size, cl_uint max_packets)
{
    cl_int err;
    cl_mem pipe = clCreatePipe(h->context, 0, packet_size, max_packets, NULL, &err);
    CHECK_OK(err);
    REQUIRE(pipe);
    return pipe;
}

static void run(struct harness *h, cl_command_queue queue, cl_kernel kernel, size_t global,
                size_t local, cl_event *event)
{
    CHECK_OK(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global, local ? &local : NULL, 0, NULL,
                                    event));
}

static void read_ints(struct harness *h, cl_mem buffer, void *to, size_t bytes)
{
    CHECK_OK(clEnqueueReadBuffer(h->queue, buffer, CL_TRUE, 0, bytes, to, 0, NULL, NULL));
}

static int compare_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* Whether `got` (n values) is exactly the multiset `want` (n values);
 * both are sorted in place. */
static int same_multiset(int *got, int *want, size_t n)
{
    qsort(got, n, sizeof *got, compare_int);
    qsort(want, n, sizeof *want, compare_int);
    return memcmp(got, want, n * sizeof *got) == 0;
}

static void test_create_errors(struct harness *h)
{
    cl_int err;
    cl_uint max_packet_size = 0, max_args = 0, max_reservations = 0;
    CHECK_OK(clGetDeviceInfo(h->device, CL_DEVICE_PIPE_MAX_PACKET_SIZE, sizeof max_packet_size,
                             &max_packet_size, NULL));
    CHECK_OK(clGetDeviceInfo(h->device, CL_DEVICE_MAX_PIPE_ARGS, sizeof max_args, &max_args, NULL));
    CHECK_OK(clGetDeviceInfo(h->device, CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS,
                             sizeof max_reservations, &max_reservations, NULL));
    CHECK(max_packet_size >= 1024 && max_args >= 16 && max_reservations >= 1);

    /* 5.4.1, in the spec's order */
    CHECK_FAILS(clCreatePipe(NULL, CL_MEM_READ_ONLY, 0, 0, NULL, &err), err, CL_INVALID_CONTEXT);
    CHECK_FAILS(clCreatePipe((cl_context)h->queue, 0, 4, 4, NULL, &err), err, CL_INVALID_CONTEXT);
    CHECK_FAILS(clCreatePipe(h->context, CL_MEM_READ_ONLY, 0, 0, NULL, &err), err,
                CL_INVALID_VALUE);
    CHECK_FAILS(clCreatePipe(h->context, CL_MEM_WRITE_ONLY, 4, 4, NULL, &err), err,
                CL_INVALID_VALUE);
    CHECK_FAILS(clCreatePipe(h->context, CL_MEM_HOST_READ_ONLY, 4, 4, NULL, &err), err,
                CL_INVALID_VALUE);
    CHECK_FAILS(clCreatePipe(h->context, CL_MEM_ALLOC_HOST_PTR, 4, 4, NULL, &err), err,
                CL_INVALID_VALUE);
    cl_pipe_properties properties[] = {0};
    CHECK_FAILS(clCreatePipe(h->context, 0, 4, 4, properties, &err), err, CL_INVALID_VALUE);
    CHECK_FAILS(clCreatePipe(h->context, 0, 0, 4, NULL, &err), err, CL_INVALID_PIPE_SIZE);
    CHECK_FAILS(clCreatePipe(h->context, 0, max_packet_size + 1, 4, NULL, &err), err,
                CL_INVALID_PIPE_SIZE);
    CHECK_FAILS(clCreatePipe(h->context, 0, 4, 0, NULL, &err), err, CL_INVALID_PIPE_SIZE);
    CHECK_FAILS(clCreatePipe(h->context, 0, max_packet_size, 0xffffffffu, NULL, &err), err,
                CL_MEM_OBJECT_ALLOCATION_FAILURE);
    cl_mem quiet = clCreatePipe(h->context, 0, 4, 4, NULL, NULL); /* errcode_ret NULL */
    CHECK(quiet != NULL);
    clReleaseMemObject(quiet);

    /* the four valid flag sets; 0 means both (5.4.1) */
    const cl_mem_flags flags[] = {0, CL_MEM_READ_WRITE, CL_MEM_HOST_NO_ACCESS,
                                  CL_MEM_READ_WRITE | CL_MEM_HOST_NO_ACCESS};
    for (int i = 0; i < 4; i++) {
        cl_mem pipe = clCreatePipe(h->context, flags[i], max_packet_size, 3, NULL, &err);
        CHECK_OK(err);
        cl_mem_flags got = 0;
        CHECK_OK(clGetMemObjectInfo(pipe, CL_MEM_FLAGS, sizeof got, &got, NULL));
        CHECK_EQ(got, flags[i] ? flags[i] : CL_MEM_READ_WRITE | CL_MEM_HOST_NO_ACCESS);
        clReleaseMemObject(pipe);
    }
}

static void test_info(struct harness *h)
{
    cl_int err;
    cl_mem pipe = clCreatePipe(h->context, CL_MEM_HOST_NO_ACCESS, 24, 1000, NULL, &err);
    CHECK_OK(err);
    cl_uint value = 0;
    size_t size = 0;
    CHECK_OK(clGetPipeInfo(pipe, CL_PIPE_PACKET_SIZE, sizeof value, &value, &size));
    CHECK(value == 24 && size == sizeof(cl_uint));
    CHECK_OK(clGetPipeInfo(pipe, CL_PIPE_MAX_PACKETS, sizeof value, &value, NULL));
    CHECK_EQ(value, 1000);
    CHECK_OK(clGetPipeInfo(pipe, CL_PIPE_MAX_PACKETS, 0, NULL, &size));
    CHECK_EQ(size, sizeof(cl_uint));
#ifdef CL_PIPE_PROPERTIES
    CHECK_OK(clGetPipeInfo(pipe, CL_PIPE_PROPERTIES, 0, NULL, &size));
    CHECK_EQ(size, 0);
#endif
    CHECK_ERR(clGetPipeInfo(pipe, CL_PIPE_PACKET_SIZE, 2, &value, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clGetPipeInfo(pipe, CL_MEM_SIZE, sizeof value, &value, NULL), CL_INVALID_VALUE);
    cl_mem buffer = harness_buffer(h, CL_MEM_READ_WRITE, 64, NULL);
    CHECK_ERR(clGetPipeInfo(buffer, CL_PIPE_PACKET_SIZE, sizeof value, &value, NULL),
              CL_INVALID_MEM_OBJECT);
    CHECK_ERR(clGetPipeInfo(NULL, CL_PIPE_PACKET_SIZE, sizeof value, &value, NULL),
              CL_INVALID_MEM_OBJECT);

    cl_mem_object_type type = 0;
    CHECK_OK(clGetMemObjectInfo(pipe, CL_MEM_TYPE, sizeof type, &type, NULL));
    CHECK_EQ(type, CL_MEM_OBJECT_PIPE);
    size_t mem_size = 0;
    CHECK_OK(clGetMemObjectInfo(pipe, CL_MEM_SIZE, sizeof mem_size, &mem_size, NULL));
    CHECK(mem_size >= 24 * 1000);
    cl_context context = NULL;
    CHECK_OK(clGetMemObjectInfo(pipe, CL_MEM_CONTEXT, sizeof context, &context, NULL));
    CHECK(context == h->context);
    void *host_ptr = &value;
    CHECK_OK(clGetMemObjectInfo(pipe, CL_MEM_HOST_PTR, sizeof host_ptr, &host_ptr, NULL));
    CHECK(host_ptr == NULL);

    /* the host has no access to a pipe's contents (5.2.2, 5.2.3) */
    char bytes[64];
    CHECK_ERR(clEnqueueReadBuffer(h->queue, pipe, CL_TRUE, 0, 4, bytes, 0, NULL, NULL),
              CL_INVALID_MEM_OBJECT);
    CHECK_ERR(clEnqueueWriteBuffer(h->queue, pipe, CL_TRUE, 0, 4, bytes, 0, NULL, NULL),
              CL_INVALID_MEM_OBJECT);
    CHECK_ERR(clEnqueueCopyBuffer(h->queue, pipe, buffer, 0, 0, 4, 0, NULL, NULL),
              CL_INVALID_MEM_OBJECT);
    CHECK_FAILS(clEnqueueMapBuffer(h->queue, pipe, CL_TRUE, CL_MAP_READ, 0, 4, 0, NULL, NULL, &err),
                err, CL_INVALID_MEM_OBJECT);
    cl_buffer_region region = {0, 4};
    CHECK_FAILS(clCreateSubBuffer(pipe, 0, CL_BUFFER_CREATE_TYPE_REGION, &region, &err), err,
                CL_INVALID_MEM_OBJECT);
    clReleaseMemObject(buffer);
    clReleaseMemObject(pipe);
}

static void test_args(struct harness *h, cl_program program)
{
    cl_kernel k = harness_kernel(program, "produce");
    cl_kernel_arg_type_qualifier qualifier = 0;
    cl_kernel_arg_address_qualifier address = 0;
    cl_kernel_arg_access_qualifier access = 0;
    char name[32] = "";
    CHECK_OK(
        clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_TYPE_QUALIFIER, sizeof qualifier, &qualifier, NULL));
    CHECK_EQ(qualifier, CL_KERNEL_ARG_TYPE_PIPE);
    CHECK_OK(
        clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof address, &address, NULL));
    CHECK_EQ(address, CL_KERNEL_ARG_ADDRESS_GLOBAL);
    CHECK_OK(
        clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_ACCESS_QUALIFIER, sizeof access, &access, NULL));
    CHECK_EQ(access, CL_KERNEL_ARG_ACCESS_WRITE_ONLY);
    CHECK_OK(clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_TYPE_NAME, sizeof name, name, NULL));
    CHECK(!strcmp(name, "int"));
    CHECK_OK(
        clGetKernelArgInfo(k, 1, CL_KERNEL_ARG_TYPE_QUALIFIER, sizeof qualifier, &qualifier, NULL));
    CHECK_EQ(qualifier, CL_KERNEL_ARG_TYPE_CONST);

    cl_mem pipe = new_pipe(h, 4, 8);
    cl_mem buffer = harness_buffer(h, CL_MEM_READ_WRITE, 64, NULL);
    CHECK_ERR(clSetKernelArg(k, 0, sizeof buffer, &buffer), CL_INVALID_ARG_VALUE);
    CHECK_ERR(clSetKernelArg(k, 0, sizeof pipe, NULL), CL_INVALID_ARG_VALUE);
    CHECK_ERR(clSetKernelArg(k, 0, 4, &pipe), CL_INVALID_ARG_SIZE);
    CHECK_ERR(clSetKernelArg(k, 1, sizeof pipe, &pipe), CL_INVALID_MEM_OBJECT);
    CHECK_OK(clSetKernelArg(k, 0, sizeof pipe, &pipe));
    clReleaseMemObject(buffer);
    clReleaseMemObject(pipe);
    clReleaseKernel(k);
}

/* write_pipe and read_pipe by every work-item, into a pipe of `capacity`
 * packets: min(n, capacity) writes and then as many reads succeed, and the
 * values read are the values written. */
static void test_read_write(struct harness *h, cl_program program, size_t n, cl_uint capacity)
{
    cl_mem pipe = new_pipe(h, sizeof(cl_int), capacity);
    int *in = malloc(n * sizeof *in), *out = malloc(n * sizeof *out);
    int *wstatus = malloc(n * sizeof(int)), *rstatus = malloc(n * sizeof(int));
    for (size_t i = 0; i < n; i++)
        in[i] = (int)(i * 2654435761u >> 3);
    cl_mem din = harness_buffer(h, CL_MEM_READ_ONLY, n * 4, in);
    cl_mem dout = harness_buffer(h, CL_MEM_READ_WRITE, n * 4, NULL);
    cl_mem dws = harness_buffer(h, CL_MEM_READ_WRITE, n * 4, NULL);
    cl_mem drs = harness_buffer(h, CL_MEM_READ_WRITE, n * 4, NULL);
    cl_kernel produce = harness_kernel(program, "produce");
    cl_kernel consume = harness_kernel(program, "consume");
    cl_kernel query = harness_kernel(program, "query");
    cl_mem dq = harness_buffer(h, CL_MEM_READ_WRITE, 4 * 4, NULL);
    CHECK_OK(harness_args(produce, 3, ARG(pipe), ARG(din), ARG(dws)));
    CHECK_OK(harness_args(consume, 3, ARG(pipe), ARG(dout), ARG(drs)));
    CHECK_OK(harness_args(query, 3, ARG(pipe), ARG(pipe), ARG(dq)));

    run(h, h->queue, produce, n, 0, NULL);
    run(h, h->queue, query, 1, 1, NULL);
    int q[4];
    read_ints(h, dq, q, sizeof q);
    size_t expected = n < capacity ? n : capacity;
    CHECK(q[0] == (int)expected && q[1] == (int)capacity && q[2] == q[0] && q[3] == q[1]);
    run(h, h->queue, consume, n, 0, NULL);
    read_ints(h, dws, wstatus, n * 4);
    read_ints(h, drs, rstatus, n * 4);
    read_ints(h, dout, out, n * 4);

    /* gather what was written and what was read */
    int *written = malloc(n * sizeof(int)), *read = malloc(n * sizeof(int));
    size_t num_written = 0, num_read = 0, bad = 0;
    for (size_t i = 0; i < n; i++) {
        if (wstatus[i] == 0)
            written[num_written++] = in[i];
        else
            bad += wstatus[i] >= 0; /* failure is any negative value */
        if (rstatus[i] == 0)
            read[num_read++] = out[i];
        else
            bad += rstatus[i] >= 0 || out[i] != -1;
    }
    CHECK_NONE_WRONG(bad, "status of failed calls");
    CHECK_EQ(num_written, expected);
    CHECK_EQ(num_read, expected);
    if (num_read == num_written)
        CHECK(same_multiset(read, written, num_read));

    /* now empty: every read fails */
    run(h, h->queue, query, 1, 1, NULL);
    read_ints(h, dq, q, sizeof q);
    CHECK_EQ(q[0], 0);
    run(h, h->queue, consume, n, 0, NULL);
    read_ints(h, drs, rstatus, n * 4);
    bad = 0;
    for (size_t i = 0; i < n; i++)
        bad += rstatus[i] >= 0;
    CHECK_NONE_WRONG(bad, "reads of an empty pipe");

    free(in), free(out), free(wstatus), free(rstatus), free(written), free(read);
    cl_mem mems[] = {pipe, din, dout, dws, drs, dq};
    for (size_t i = 0; i < sizeof mems / sizeof *mems; i++)
        clReleaseMemObject(mems[i]);
    clReleaseKernel(produce), clReleaseKernel(consume), clReleaseKernel(query);
}

/* Reservations of 3 packets by every work-item: the readers' reservations
 * line up with the writers', so each reader gets one writer's 3 values in
 * order. */
static void test_reservations(struct harness *h, cl_program program)
{
    enum { N = 3001 };
    cl_mem pipe = new_pipe(h, sizeof(cl_int), 3 * N);
    cl_mem dws = harness_buffer(h, CL_MEM_READ_WRITE, N * 4, NULL);
    cl_mem drs = harness_buffer(h, CL_MEM_READ_WRITE, N * 4, NULL);
    cl_mem dout = harness_buffer(h, CL_MEM_READ_WRITE, 3 * N * 4, NULL);
    cl_kernel writer = harness_kernel(program, "reserve3");
    cl_kernel reader = harness_kernel(program, "unreserve3");
    CHECK_OK(harness_args(writer, 2, ARG(pipe), ARG(dws)));
    CHECK_OK(harness_args(reader, 3, ARG(pipe), ARG(dout), ARG(drs)));
    run(h, h->queue, writer, N, 0, NULL);
    run(h, h->queue, reader, N, 0, NULL);
    static int ws[N], rs[N], out[3 * N];
    static unsigned char seen[N];
    read_ints(h, dws, ws, sizeof ws);
    read_ints(h, drs, rs, sizeof rs);
    read_ints(h, dout, out, sizeof out);
    size_t bad_status = 0, bad_values = 0;
    memset(seen, 0, sizeof seen);
    for (int i = 0; i < N; i++) {
        bad_status += ws[i] != 0 || rs[i] != 0;
        int writer_id = out[3 * i] / 3;
        if (out[3 * i] % 3 || writer_id < 0 || writer_id >= N || seen[writer_id] ||
            out[3 * i + 1] != out[3 * i] + 1 || out[3 * i + 2] != out[3 * i] + 2)
            bad_values++;
        else
            seen[writer_id] = 1;
    }
    CHECK_NONE_WRONG(bad_status, "reservation statuses");
    CHECK_NONE_WRONG(bad_values, "reserved packets");

    /* a pipe of 5: whichever of two work-groups reserves 3 first gets them,
     * the other's 3 no longer fit */
    clReleaseMemObject(pipe);
    pipe = new_pipe(h, sizeof(cl_int), 5);
    CHECK_OK(clSetKernelArg(writer, 0, sizeof pipe, &pipe));
    run(h, h->queue, writer, 2, 1, NULL);
    read_ints(h, dws, ws, 8);
    CHECK((ws[0] == 0 && ws[1] == -100) || (ws[0] == -100 && ws[1] == 0));

    cl_mem mems[] = {pipe, dws, drs, dout};
    for (size_t i = 0; i < sizeof mems / sizeof *mems; i++)
        clReleaseMemObject(mems[i]);
    clReleaseKernel(writer), clReleaseKernel(reader);
}

static void test_visibility(struct harness *h, cl_program program)
{
    /* packets wider than the kernel's int: cells 8 bytes apart, 4 used */
    cl_mem pipe = new_pipe(h, 8, 8);
    cl_mem dout = harness_buffer(h, CL_MEM_READ_WRITE, 16 * 4, NULL);
    cl_kernel k = harness_kernel(program, "visibility");
    CHECK_OK(harness_args(k, 3, ARG(pipe), ARG(pipe), ARG(dout)));
    run(h, h->queue, k, 1, 1, NULL);
    int out[16];
    read_ints(h, dout, out, sizeof out);
    CHECK_EQ(out[0], 1); /* both reservations valid */
    CHECK(out[1] < 0);   /* nothing committed: nothing to read */
    CHECK_EQ(out[2], 8);
    CHECK_EQ(out[3], 4);
    const int fifo[4] = {10, 11, 20, 21};
    for (int k = 0; k < 4; k++)
        CHECK(out[4 + 2 * k] == 0 && out[5 + 2 * k] == fifo[k]);
    CHECK(out[12] < 0);   /* empty again */
    CHECK_EQ(out[13], 0); /* 9 packets never fit in 8 */
    CHECK_EQ(out[14], 0); /* nothing to reserve for reading */
    CHECK_EQ(out[15], 0);

    /* an int through a pipe of 2-byte packets does not fit: reservations,
     * reads and writes fail and leave the pipe empty */
    cl_mem narrow = new_pipe(h, 2, 4);
    CHECK_OK(harness_args(k, 3, ARG(narrow), ARG(narrow), ARG(dout)));
    run(h, h->queue, k, 1, 1, NULL);
    read_ints(h, dout, out, sizeof out);
    CHECK(out[0] == 0 && out[3] == 0 && out[4] < 0 && out[5] == -1 && out[15] == 0);
    clReleaseMemObject(narrow), clReleaseMemObject(pipe), clReleaseMemObject(dout);
    clReleaseKernel(k);
}

/* Work-group reservations of struct packets: each reading group gets one
 * writing group's packets, in local id order. */
static void test_work_group(struct harness *h, cl_program program)
{
    enum { N = 4096, L = 64 };
    cl_mem pipe = new_pipe(h, sizeof(packet_s), N);
    static packet_s in[N], out[N];
    static int ws[N], rs[N];
    static unsigned char seen[N / L];
    for (int i = 0; i < N; i++)
        in[i] = (packet_s){.f = i * 0.5f, .c = (char)(i * 7), .d = i * 1.25};
    cl_mem din = harness_buffer(h, CL_MEM_READ_ONLY, sizeof in, in);
    cl_mem dout = harness_buffer(h, CL_MEM_READ_WRITE, sizeof out, NULL);
    cl_mem dws = harness_buffer(h, CL_MEM_READ_WRITE, sizeof ws, NULL);
    cl_mem drs = harness_buffer(h, CL_MEM_READ_WRITE, sizeof rs, NULL);
    cl_kernel writer = harness_kernel(program, "wg_write");
    cl_kernel reader = harness_kernel(program, "wg_read");
    CHECK_OK(harness_args(writer, 3, ARG(pipe), ARG(din), ARG(dws)));
    CHECK_OK(harness_args(reader, 3, ARG(pipe), ARG(dout), ARG(drs)));
    run(h, h->queue, writer, N, L, NULL);
    run(h, h->queue, reader, N, L, NULL);
    read_ints(h, dws, ws, sizeof ws);
    read_ints(h, drs, rs, sizeof rs);
    CHECK_OK(clEnqueueReadBuffer(h->queue, dout, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
    size_t bad_status = 0, bad_values = 0;
    for (int i = 0; i < N; i++)
        bad_status += ws[i] != 0 || rs[i] != 0;
    for (int g = 0; g < N / L; g++) {
        int from = (int)(out[g * L].f * 2) / L;
        if (from < 0 || from >= N / L || seen[from]) {
            bad_values++;
            continue;
        }
        seen[from] = 1;
        for (int l = 0; l < L; l++) {
            const packet_s *got = &out[g * L + l], *want = &in[from * L + l];
            bad_values += got->f != want->f || got->c != want->c || got->d != want->d;
        }
    }
    CHECK_NONE_WRONG(bad_status, "work-group reservation statuses");
    CHECK_NONE_WRONG(bad_values, "work-group reserved packets");

    /* a pipe with room for 1.5 groups: the second group's reservation fails
     * for all its work-items */
    clReleaseMemObject(pipe);
    pipe = new_pipe(h, sizeof(packet_s), L + L / 2);
    CHECK_OK(clSetKernelArg(writer, 0, sizeof pipe, &pipe));
    run(h, h->queue, writer, 2 * L, L, NULL);
    read_ints(h, dws, ws, 2 * L * sizeof(int));
    size_t ok = 0, refused = 0;
    for (int i = 0; i < 2 * L; i++)
        ok += ws[i] == 0, refused += ws[i] == -1;
    CHECK(ok == L && refused == L && (ws[0] == 0) == (ws[L - 1] == 0) &&
          (ws[L] == 0) == (ws[2 * L - 1] == 0));

    cl_mem mems[] = {pipe, din, dout, dws, drs};
    for (size_t i = 0; i < sizeof mems / sizeof *mems; i++)
        clReleaseMemObject(mems[i]);
    clReleaseKernel(writer), clReleaseKernel(reader);
}

/* Sub-group reservations: each reading sub-group gets one writing
 * sub-group's packets in sub-group local id order. */
static void test_sub_group(struct harness *h)
{
    cl_program program = harness_build(h, sub_group_source, "-cl-std=CL2.0");
    CHECK(program != NULL);
    if (!program)
        return;
    enum { N = 2048, L = 128 };
    cl_mem pipe = new_pipe(h, sizeof(cl_long), N);
    static cl_long in[N], out[N];
    static int ws[N], rs[N];
    for (int i = 0; i < N; i++)
        in[i] = (cl_long)i << 33 | (i * 3);
    cl_mem din = harness_buffer(h, CL_MEM_READ_ONLY, sizeof in, in);
    cl_mem dout = harness_buffer(h, CL_MEM_READ_WRITE, sizeof out, NULL);
    cl_mem dws = harness_buffer(h, CL_MEM_READ_WRITE, sizeof ws, NULL);
    cl_mem drs = harness_buffer(h, CL_MEM_READ_WRITE, sizeof rs, NULL);
    cl_mem dsize = harness_buffer(h, CL_MEM_READ_WRITE, sizeof(int), NULL);
    cl_kernel writer = harness_kernel(program, "sg_write");
    cl_kernel reader = harness_kernel(program, "sg_read");
    CHECK_OK(harness_args(writer, 3, ARG(pipe), ARG(din), ARG(dws)));
    CHECK_OK(harness_args(reader, 4, ARG(pipe), ARG(dout), ARG(drs), ARG(dsize)));
    run(h, h->queue, writer, N, L, NULL);
    run(h, h->queue, reader, N, L, NULL);
    int s = 0;
    read_ints(h, dws, ws, sizeof ws);
    read_ints(h, drs, rs, sizeof rs);
    read_ints(h, dsize, &s, sizeof s);
    CHECK_OK(clEnqueueReadBuffer(h->queue, dout, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
    REQUIRE(s > 0 && L % s == 0);
    size_t bad_status = 0, bad_values = 0;
    unsigned char *seen = calloc(N / s, 1);
    for (int i = 0; i < N; i++)
        bad_status += ws[i] != 0 || rs[i] != 0;
    for (int g = 0; g < N / s; g++) {
        long first = out[g * s] >> 33;
        if (first < 0 || first >= N || first % s || seen[first / s]) {
            bad_values++;
            continue;
        }
        seen[first / s] = 1;
        for (int l = 0; l < s; l++)
            bad_values += out[g * s + l] != in[first + l];
    }
    CHECK_NONE_WRONG(bad_status, "sub-group reservation statuses");
    CHECK_NONE_WRONG(bad_values, "sub-group reserved packets");
    free(seen);
    cl_mem mems[] = {pipe, din, dout, dws, drs, dsize};
    for (size_t i = 0; i < sizeof mems / sizeof *mems; i++)
        clReleaseMemObject(mems[i]);
    clReleaseKernel(writer), clReleaseKernel(reader), clReleaseProgram(program);
}

/* A producer and a consumer kernel at the same time on an out-of-order
 * queue, through a pipe far smaller than the stream, each work-item
 * retrying a bounded number of times; a last in-order consumer drains what
 * is left. Everything written is read exactly once. */
static void test_concurrent(struct harness *h, cl_program program, cl_uint capacity)
{
    enum { N = 60000 };
    cl_int err;
    cl_command_queue ooo =
        clCreateCommandQueue(h->context, h->device, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, &err);
    CHECK_OK(err);
    cl_mem pipe = new_pipe(h, sizeof(cl_int), capacity);
    static int in[N], out[N], ws[N], rs[N], drained[N], ds[N];
    for (int i = 0; i < N; i++)
        in[i] = i ^ 0x5a5a5;
    cl_mem din = harness_buffer(h, CL_MEM_READ_ONLY, sizeof in, in);
    cl_mem dout = harness_buffer(h, CL_MEM_READ_WRITE, sizeof out, NULL);
    cl_mem dws = harness_buffer(h, CL_MEM_READ_WRITE, sizeof ws, NULL);
    cl_mem drs = harness_buffer(h, CL_MEM_READ_WRITE, sizeof rs, NULL);
    cl_mem ddrained = harness_buffer(h, CL_MEM_READ_WRITE, sizeof drained, NULL);
    cl_mem dds = harness_buffer(h, CL_MEM_READ_WRITE, sizeof ds, NULL);
    cl_kernel produce = harness_kernel(program, "produce_retry");
    cl_kernel consume = harness_kernel(program, "consume_retry");
    cl_kernel drain = harness_kernel(program, "consume");
    CHECK_OK(harness_args(produce, 3, ARG(pipe), ARG(din), ARG(dws)));
    CHECK_OK(harness_args(consume, 3, ARG(pipe), ARG(dout), ARG(drs)));
    CHECK_OK(harness_args(drain, 3, ARG(pipe), ARG(ddrained), ARG(dds)));
    cl_event events[2];
    run(h, ooo, consume, N, 0, &events[0]);
    run(h, ooo, produce, N, 0, &events[1]);
    CHECK_OK(clEnqueueNDRangeKernel(ooo, drain, 1, NULL, (const size_t[]){capacity}, NULL, 2,
                                    events, NULL));
    CHECK_OK(clFinish(ooo));
    read_ints(h, dws, ws, sizeof ws);
    read_ints(h, drs, rs, sizeof rs);
    read_ints(h, dout, out, sizeof out);
    read_ints(h, ddrained, drained, capacity * sizeof(int));
    read_ints(h, dds, ds, capacity * sizeof(int));
    static int written[N], read[N];
    size_t num_written = 0, num_read = 0;
    for (int i = 0; i < N; i++) {
        if (ws[i] == 0)
            written[num_written++] = in[i];
        if (rs[i] == 0)
            read[num_read++] = out[i];
    }
    for (cl_uint i = 0; i < capacity; i++)
        if (ds[i] == 0 && num_read < N)
            read[num_read++] = drained[i];
    CHECK(num_written > 0);
    CHECK_EQ(num_read, num_written);
    if (num_read == num_written)
        CHECK(same_multiset(read, written, num_read));
    for (int i = 0; i < 2; i++)
        clReleaseEvent(events[i]);
    cl_mem mems[] = {pipe, din, dout, dws, drs, ddrained, dds};
    for (size_t i = 0; i < sizeof mems / sizeof *mems; i++)
        clReleaseMemObject(mems[i]);
    clReleaseKernel(produce), clReleaseKernel(consume), clReleaseKernel(drain);
    clReleaseCommandQueue(ooo);
}

/* SPIR-V: the translator gives back the calls clang makes
 * (COMPILER-NOTES 8): a reservation per packet written, a work-group
 * reservation per group read, get_pipe_max_packets. */
static void test_spirv(struct harness *h)
{
    size_t size;
    unsigned char *il = harness_load_file(CPUCL_TEST_DATA "/pipes.spv", &size);
    cl_int err;
    cl_program program = clCreateProgramWithIL(h->context, il, size, &err);
    free(il);
    CHECK_OK(err);
    CHECK_OK(clBuildProgram(program, 1, &h->device, "", NULL, NULL));
    enum { N = 1024, L = 32 };
    static int in[N], out[N], ws[N], rs[N + 1];
    for (int i = 0; i < N; i++)
        in[i] = 5 * i;
    cl_mem pipe = new_pipe(h, sizeof(cl_int), N);
    cl_mem din = harness_buffer(h, CL_MEM_READ_ONLY, sizeof in, in);
    cl_mem dout = harness_buffer(h, CL_MEM_READ_WRITE, sizeof out, NULL);
    cl_mem dws = harness_buffer(h, CL_MEM_READ_WRITE, sizeof ws, NULL);
    cl_mem drs = harness_buffer(h, CL_MEM_READ_WRITE, sizeof rs, NULL);
    cl_kernel writer = harness_kernel(program, "spv_write");
    cl_kernel reader = harness_kernel(program, "spv_read");
    CHECK_OK(harness_args(writer, 3, ARG(pipe), ARG(din), ARG(dws)));
    CHECK_OK(harness_args(reader, 3, ARG(pipe), ARG(dout), ARG(drs)));
    cl_kernel_arg_type_qualifier qualifier = 0;
    CHECK_OK(clGetKernelArgInfo(reader, 0, CL_KERNEL_ARG_TYPE_QUALIFIER, sizeof qualifier,
                                &qualifier, NULL));
    CHECK_EQ(qualifier, CL_KERNEL_ARG_TYPE_PIPE);
    run(h, h->queue, writer, N, L, NULL);
    run(h, h->queue, reader, N, L, NULL);
    read_ints(h, dws, ws, sizeof ws);
    read_ints(h, drs, rs, sizeof rs);
    read_ints(h, dout, out, sizeof out);
    size_t bad_status = 0;
    for (int i = 0; i < N; i++)
        bad_status += ws[i] != 0 || rs[i] != 0;
    CHECK_NONE_WRONG(bad_status, "SPIR-V pipe statuses");
    CHECK_EQ(rs[N], N);
    /* the writers' single-packet reservations come in any order: compare
     * the whole as a multiset */
    static int written[N];
    memcpy(written, in, sizeof in);
    CHECK(same_multiset(out, written, N));
    cl_mem mems[] = {pipe, din, dout, dws, drs};
    for (size_t i = 0; i < sizeof mems / sizeof *mems; i++)
        clReleaseMemObject(mems[i]);
    clReleaseKernel(writer), clReleaseKernel(reader), clReleaseProgram(program);
}

int main(void)
{
    struct harness h = harness_open();
    test_create_errors(&h);
    test_info(&h);
    cl_program program = harness_build(&h, source, "-cl-std=CL2.0 -cl-kernel-arg-info");
    REQUIRE(program);
    test_args(&h, program);
    test_read_write(&h, program, 10007, 20000); /* room for all */
    test_read_write(&h, program, 10007, 777);   /* full after 777 */
    test_reservations(&h, program);
    test_visibility(&h, program);
    test_work_group(&h, program);
    test_sub_group(&h);
    test_concurrent(&h, program, 61);
    test_concurrent(&h, program, 4096);
    test_spirv(&h);
    clReleaseProgram(program);
    harness_close(&h);
    return harness_finish();
}
