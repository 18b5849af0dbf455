/* test_mutable_dispatch.c - cl_khr_command_buffer_mutable_dispatch (0.9.5):
 * kernel launches in a command-buffer changed between runs. An update of
 * arguments and sizes gives, at the next run, what the host computes for
 * the new values; a launch recorded without its arguments leaves the
 * buffer Finalized (not runnable) until an update sets them; an update
 * with an error keeps none of its configs; a run already enqueued keeps
 * the launch it was enqueued with; the queries answer. The functions are
 * found by name with 0.9.5's layouts (Debian 12's headers have 0.9.0's). */
#include <stdbool.h>

#include "command_buffer.h"

static const char *source = "kernel void scale(global int *dst, global const int *src, int k)\n"
                            "{ size_t i = get_global_id(0); dst[i] = src[i] * k; }\n";

enum { N = 1024 };

static cl_int apply(cl_command_buffer_khr cb, const struct dispatch_config *c)
{
    cl_uint type = DISPATCH_CONFIG;
    const void *config = c;
    return khr.update(cb, 1, &type, &config);
}

/* dst = src * k over the first `count` elements of dst, the rest `fill`. */
static long wrong(struct harness *h, cl_mem dst, const int *src, int k, size_t count, int fill)
{
    static int got[N];
    CHECK_OK(clEnqueueReadBuffer(h->queue, dst, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL));
    long bad = 0;
    for (size_t i = 0; i < N; i++)
        bad += got[i] != (i < count ? src[i] * k : fill);
    return bad;
}

static void reset(struct harness *h, cl_mem buffer)
{
    CHECK_OK(clEnqueueFillBuffer(h->queue, buffer, &(int){-1}, sizeof(int), 0, N * sizeof(int), 0,
                                 NULL, NULL));
}

int main(void)
{
    struct harness h = harness_open();
    CHECK(harness_has_extension(&h, "cl_khr_command_buffer_mutable_dispatch"));
    find_command_buffer_functions(h.platform);
    cl_program program = harness_build(&h, source, NULL);
    REQUIRE(program);
    cl_kernel scale = harness_kernel(program, "scale");
    cl_int err;
    static int in[N];
    for (int i = 0; i < N; i++)
        in[i] = i - 300;
    cl_mem src = harness_buffer(&h, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof in, in);
    cl_mem dst = harness_buffer(&h, CL_MEM_READ_WRITE, sizeof in, NULL);
    cl_mem other = harness_buffer(&h, CL_MEM_READ_WRITE, sizeof in, NULL);

    /* record with k = 3, all N; run; update k = 7, dst = other, N / 2 */
    cl_command_buffer_properties_khr props[] = {CL_COMMAND_BUFFER_FLAGS_KHR, MUTABLE_FLAG, 0};
    cl_command_buffer_khr cb = khr.create(1, &h.queue, props, &err);
    CHECK_OK(err);
    int k = 3;
    CHECK_OK(harness_args(scale, 3, ARG(dst), ARG(src), ARG(k)));
    size_t global = N, local = 64;
    cl_mutable_command_khr launch = NULL;
    CHECK_OK(khr.ndrange(cb, NULL, NULL, scale, 1, NULL, &global, &local, 0, NULL, NULL, &launch));
    CHECK(launch != NULL);
    CHECK_OK(khr.finalize(cb));
    reset(&h, dst);
    reset(&h, other);
    CHECK_OK(khr.enqueue(0, NULL, cb, 0, NULL, NULL));
    CHECK_NONE_WRONG(wrong(&h, dst, in, 3, N, -1), "recorded launch");

    /* an update after a run is enqueued leaves that run as it was */
    cl_event gate = clCreateUserEvent(h.context, &err);
    reset(&h, dst);
    CHECK_OK(khr.enqueue(0, NULL, cb, 1, &gate, NULL));
    int seven = 7;
    size_t half = N / 2;
    cl_mutable_dispatch_arg_khr args[] = {{0, sizeof other, &other}, {2, sizeof seven, &seven}};
    struct dispatch_config c = {
        .command = launch, .num_args = 2, .arg_list = args, .global_work_size = &half};
    CHECK_OK(apply(cb, &c));
    CHECK_OK(clSetUserEventStatus(gate, CL_COMPLETE));
    CHECK_OK(clFinish(h.queue));
    CHECK_NONE_WRONG(wrong(&h, dst, in, 3, N, -1), "run enqueued before the update");
    CHECK_NONE_WRONG(wrong(&h, other, in, 1, 0, -1), "untouched before the updated run");
    clReleaseEvent(gate);
    CHECK_OK(khr.enqueue(0, NULL, cb, 0, NULL, NULL));
    CHECK_NONE_WRONG(wrong(&h, other, in, 7, N / 2, -1), "updated launch");

    /* queries */
    size_t size = 0, sizes[3] = {0, 0, 0};
    cl_command_buffer_khr owner = NULL;
    CHECK_OK(khr.command_info(launch, INFO_BUFFER, sizeof owner, &owner, NULL));
    CHECK(owner == cb);
    cl_command_type type = 0;
    CHECK_OK(khr.command_info(launch, INFO_TYPE, sizeof type, &type, NULL));
    CHECK_EQ(type, CL_COMMAND_NDRANGE_KERNEL);
    cl_kernel kernel = NULL;
    CHECK_OK(khr.command_info(launch, INFO_KERNEL, sizeof kernel, &kernel, NULL));
    CHECK(kernel == scale);
    cl_uint dims = 0;
    CHECK_OK(khr.command_info(launch, INFO_DIMENSIONS, sizeof dims, &dims, NULL));
    CHECK_EQ(dims, 1);
    CHECK_OK(khr.command_info(launch, INFO_GLOBAL, sizeof sizes, sizes, &size));
    CHECK(size == sizeof(size_t) && sizes[0] == N / 2);
    CHECK_OK(khr.command_info(launch, INFO_LOCAL, sizeof sizes, sizes, &size));
    CHECK(size == sizeof(size_t) && sizes[0] == 64);
    CHECK_OK(khr.command_info(launch, INFO_PROPERTIES, 0, NULL, &size));
    CHECK_EQ(size, 0);
    CHECK_ERR(khr.command_info(NULL, INFO_KERNEL, sizeof kernel, &kernel, NULL),
              CL_INVALID_MUTABLE_COMMAND_KHR);

    /* an update with an error keeps nothing: k = 9 would be the first
     * config's, the second names an argument the kernel does not have */
    int nine = 9;
    cl_mutable_dispatch_arg_khr set_k = {2, sizeof nine, &nine},
                                bad_index = {5, sizeof nine, &nine};
    struct dispatch_config first = {.command = launch, .num_args = 1, .arg_list = &set_k};
    struct dispatch_config second = {.command = launch, .num_args = 1, .arg_list = &bad_index};
    cl_uint types[2] = {DISPATCH_CONFIG, DISPATCH_CONFIG};
    const void *both[2] = {&first, &second};
    CHECK_ERR(khr.update(cb, 2, types, both), CL_INVALID_ARG_INDEX);
    reset(&h, other);
    CHECK_OK(khr.enqueue(0, NULL, cb, 0, NULL, NULL));
    CHECK_NONE_WRONG(wrong(&h, other, in, 7, N / 2, -1), "after a failed update");
    /* the other errors */
    struct dispatch_config no_command = {.command = NULL};
    CHECK_ERR(apply(cb, &no_command), CL_INVALID_MUTABLE_COMMAND_KHR);
    struct dispatch_config wrong_dims = {.command = launch, .work_dim = 2};
    CHECK_ERR(apply(cb, &wrong_dims), CL_INVALID_OPERATION);
    struct dispatch_config args_without_list = {.command = launch, .num_args = 1};
    CHECK_ERR(apply(cb, &args_without_list), CL_INVALID_VALUE);
    size_t bad_local = 48; /* 512 % 48: the groups would no longer be uniform */
    struct dispatch_config non_uniform = {.command = launch, .local_work_size = &bad_local};
    CHECK_ERR(apply(cb, &non_uniform), CL_INVALID_OPERATION);
    cl_uint bad_type = 7;
    const void *one_config = &first;
    CHECK_ERR(khr.update(cb, 1, &bad_type, &one_config), CL_INVALID_VALUE);
    CHECK_ERR(khr.update(cb, 1, NULL, &one_config), CL_INVALID_VALUE);
    CHECK_ERR(khr.update(NULL, 1, types, &one_config), CL_INVALID_COMMAND_BUFFER_KHR);
    CHECK_OK(khr.release(cb));

    /* fields not declared updatable; a buffer that is not mutable */
    cl_command_buffer_khr fixed = khr.create(1, &h.queue, props, &err);
    command_props only_args[] = {UPDATABLE_FIELDS, 1u << 3, 0};
    CHECK_OK(khr.ndrange(fixed, NULL, only_args, scale, 1, NULL, &global, &local, 0, NULL, NULL,
                         &launch));
    CHECK_OK(khr.command_info(launch, INFO_PROPERTIES, 0, NULL, &size));
    CHECK_EQ(size, sizeof only_args);
    CHECK_OK(khr.finalize(fixed));
    struct dispatch_config resize = {.command = launch, .global_work_size = &half};
    CHECK_ERR(apply(fixed, &resize), CL_INVALID_OPERATION);
    CHECK_OK(khr.release(fixed));
    cl_command_buffer_khr plain = khr.create(1, &h.queue, NULL, &err);
    CHECK_OK(
        khr.ndrange(plain, NULL, NULL, scale, 1, NULL, &global, &local, 0, NULL, NULL, &launch));
    CHECK_OK(khr.finalize(plain));
    struct dispatch_config set_arg = {.command = launch, .num_args = 1, .arg_list = &set_k};
    CHECK_ERR(apply(plain, &set_arg), CL_INVALID_OPERATION);
    CHECK_OK(khr.release(plain));

    /* arguments left to an update: Finalized until they are set */
    cl_kernel fresh = harness_kernel(program, "scale");
    cl_command_buffer_khr later = khr.create(1, &h.queue, props, &err);
    CHECK_OK(khr.ndrange(later, NULL, NULL, fresh, 1, NULL, &global, NULL, 0, NULL, NULL, &launch));
    CHECK_OK(khr.finalize(later));
    cl_command_buffer_state_khr state = 0;
    CHECK_OK(khr.info(later, CL_COMMAND_BUFFER_STATE_KHR, sizeof state, &state, NULL));
    CHECK_EQ(state, STATE_FINALIZED);
    CHECK_ERR(khr.enqueue(0, NULL, later, 0, NULL, NULL), CL_INVALID_OPERATION);
    int five = 5;
    cl_mutable_dispatch_arg_khr all[] = {
        {0, sizeof dst, &dst}, {1, sizeof src, &src}, {2, sizeof five, &five}};
    struct dispatch_config set_all = {.command = launch, .num_args = 3, .arg_list = all};
    CHECK_OK(apply(later, &set_all));
    CHECK_OK(khr.info(later, CL_COMMAND_BUFFER_STATE_KHR, sizeof state, &state, NULL));
    CHECK_EQ(state, CL_COMMAND_BUFFER_STATE_EXECUTABLE_KHR);
    reset(&h, dst);
    CHECK_OK(khr.enqueue(0, NULL, later, 0, NULL, NULL));
    CHECK_NONE_WRONG(wrong(&h, dst, in, 5, N, -1), "launch whose arguments an update set");
    /* the kernel object itself is not changed by updates */
    CHECK_ERR(clEnqueueNDRangeKernel(h.queue, fresh, 1, NULL, &global, NULL, 0, NULL, NULL),
              CL_INVALID_KERNEL_ARGS);
    CHECK_OK(khr.release(later));

    clReleaseKernel(fresh);
    clReleaseMemObject(src);
    clReleaseMemObject(dst);
    clReleaseMemObject(other);
    clReleaseKernel(scale);
    clReleaseProgram(program);
    harness_close(&h);
    return harness_finish();
}
