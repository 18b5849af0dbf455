/* Device-side enqueue from SPIR-V (tests/kernels/test_device_enqueue.c):
 * a block with captures, a block with a __local argument, and a child that
 * waits for another child's event. */
kernel void spv_fill(global int *out, int scale)
{
    if (get_global_id(0) == 0) {
        void (^blk)(void) = ^{ out[get_global_id(0)] = (int)get_global_id(0) * scale; };
        out[1000] = enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_WAIT_KERNEL,
                                   ndrange_1D(1000, 10), blk);
    }
}

kernel void spv_sums(global const int *in, global int *sums)
{
    void (^sum)(local void *) = ^(local void *scratch) {
        local int *s = (local int *)scratch;
        size_t l = get_local_id(0);
        s[l] = in[get_global_id(0)];
        barrier(CLK_LOCAL_MEM_FENCE);
        if (l == 0) {
            int t = 0;
            for (size_t i = 0; i < get_local_size(0); i++)
                t += s[i];
            sums[get_group_id(0)] = t;
        }
    };
    queue_t q = get_default_queue();
    clk_event_t first;
    sums[64] = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(256, 64), 0, NULL, &first,
                              sum, 64u * sizeof(int));
    sums[65] = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), 1, &first, NULL,
                              ^{ sums[66] = sums[0] + sums[1] + sums[2] + sums[3]; });
    release_event(first);
}
