/* pipes.cl - the source of pipes.spv (README.md): a reservation per
 * work-item on the writing side, a work-group reservation on the reading
 * side, and a pipe query. */
kernel void spv_write(write_only pipe int p, global const int *in, global int *status)
{
    size_t i = get_global_id(0);
    reserve_id_t id = reserve_write_pipe(p, 1);
    if (is_valid_reserve_id(id)) {
        status[i] = write_pipe(p, id, 0, &in[i]);
        commit_write_pipe(p, id);
    } else {
        status[i] = -100;
    }
}

kernel void spv_read(read_only pipe int p, global int *out, global int *status)
{
    size_t i = get_global_id(0);
    reserve_id_t id = work_group_reserve_read_pipe(p, get_local_size(0));
    status[i] = -100;
    if (is_valid_reserve_id(id)) {
        status[i] = read_pipe(p, id, get_local_id(0), &out[i]);
        work_group_commit_read_pipe(p, id);
    }
    if (i == 0)
        status[get_global_size(0)] = get_pipe_max_packets(p);
}
