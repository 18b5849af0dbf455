#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#if !defined(cl_khr_subgroup_non_uniform_vote) || !defined(cl_khr_subgroup_ballot) || \
    !defined(cl_khr_subgroup_non_uniform_arithmetic) || !defined(cl_khr_subgroup_shuffle) || \
    !defined(cl_khr_subgroup_shuffle_relative) || \
    !defined(cl_khr_subgroup_clustered_reduce) || !defined(cl_khr_subgroup_rotate)
#error an extension's macro is not defined
#endif
kernel void uniform(global const int *in, global int *out)
{
    size_t g = get_global_id(0);
    int x = in[g];
    global int *o = out + g * 26;
    uint me = get_sub_group_local_id(), size = get_sub_group_size();
    o[0] = sub_group_shuffle(x, (me * 3 + 1) % size);
    o[1] = sub_group_shuffle_xor(x, 1u);
    o[2] = sub_group_shuffle_up(x, 2u);
    o[3] = sub_group_shuffle_down(x, 1u);
    o[4] = sub_group_rotate(x, 3);
    o[5] = sub_group_clustered_rotate(x, -1, 4u);
    o[6] = sub_group_non_uniform_reduce_add(x);
    o[7] = sub_group_non_uniform_scan_inclusive_mul(x % 3 + 1);
    o[8] = sub_group_non_uniform_scan_exclusive_xor(x);
    o[9] = sub_group_non_uniform_reduce_logical_or(x > 38);
    o[10] = sub_group_clustered_reduce_add(x, 2u);
    o[11] = sub_group_clustered_reduce_min(x, 4u);
    uint4 odd = sub_group_ballot(x & 1);
    o[12] = odd.x;
    o[13] = sub_group_ballot_bit_count(odd);
    o[14] = sub_group_ballot_inclusive_scan(odd);
    o[15] = sub_group_ballot_find_msb(sub_group_ballot(x > 10));
    o[16] = sub_group_elect();
    o[17] = sub_group_non_uniform_all_equal(x / 20);
    o[18] = sub_group_broadcast_first(x);
    o[19] = get_sub_group_eq_mask().x;
    o[20] = get_sub_group_lt_mask().x;
    o[21] = sub_group_non_uniform_broadcast(x, size - 1);
    o[22] = sub_group_inverse_ballot(odd);
    o[23] = (int)(sub_group_non_uniform_reduce_max((float)x * 0.5f) * 2.0f);
    o[24] = (int)(sub_group_shuffle((long)x * 3000000000L, 0u) / 1000000000L);
    o[25] = sub_group_non_uniform_reduce_add((char)(x * 7));
}
kernel void divergent(global const int *in, global int *out)
{
    size_t g = get_global_id(0);
    int x = in[g];
    global int *o = out + g * 6;
    for (int i = 0; i < 6; i++) o[i] = -1;
    if (x & 1) {
        o[0] = sub_group_non_uniform_reduce_add(x);
        o[1] = sub_group_non_uniform_scan_inclusive_add(x);
        o[2] = sub_group_ballot_bit_count(sub_group_ballot(1));
        o[3] = sub_group_elect();
        o[4] = sub_group_broadcast_first(x);
        o[5] = sub_group_non_uniform_all(x > 0);
    }
}
kernel void early_return(global const int *in, global int *out)
{
    size_t g = get_global_id(0);
    int x = in[g];
    out[g] = -1;
    if (x > 30)
        return;
    out[g] = sub_group_non_uniform_reduce_max(x);
}
kernel void loop(global const int *in, global int *out)
{
    size_t g = get_global_id(0);
    int x = in[g], acc = 0;
    for (int i = 0; i < x % 4; i++)
        acc = acc * 7 + sub_group_non_uniform_reduce_add(i + 1);
    out[g] = acc;
}
