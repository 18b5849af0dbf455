/* pipe.cl - the pipe built-in functions (OpenCL C 2.0, 6.13.16).
 *
 * Clang lowers each pipe built-in to a call of a plain, non-mangled
 * function whose last two arguments are the packet's size and alignment
 * (COMPILER-NOTES 4): read_pipe(p, ptr) is __read_pipe_2(p, ptr, size,
 * align), reserve_write_pipe(p, n) is __reserve_write_pipe(p, n, size,
 * align), and so on. A pipe argument is a pointer to the pipe's struct
 * cc_pipe (pipe.h, which also explains the queue and why it needs no
 * lock); a reserve_id_t is a pointer-sized value that holds the cell of
 * the reservation's first position in its high 32 bits and the number of
 * packets in its low 32 bits, never CLK_NULL_RESERVE_ID ((void *)SIZE_MAX).
 *
 * Every cell's owner is found from the cell itself: between its claim and
 * its commit, a write reservation's first cell keeps the sequence number p
 * of its position and a read reservation's first cell p + 1.
 *
 * The work-group and sub-group forms are called by every work-item of the
 * group with the same arguments (6.13.16.4): the first work-item makes
 * the one reservation and broadcasts it (workgroup.cl's broadcast, a
 * barrier on each side); a commit waits at a barrier for every work-item's
 * reads or writes, then the first work-item commits.
 */
#include "library.h"
#include "pipe.h"

#define NULL_RESERVE_ID (~(size_t)0) /* CLK_NULL_RESERVE_ID */

typedef __global struct cc_pipe pipe_header;

static ulong load_acquire(volatile __global ulong *p)
{
    return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}

static void store_release(volatile __global ulong *p, ulong v)
{
    __atomic_store_n(p, v, __ATOMIC_RELEASE);
}

static bool claim(volatile __global ulong *index, ulong *expected, ulong n)
{
    return __atomic_compare_exchange_n(index, expected, *expected + n, false, __ATOMIC_ACQ_REL,
                                       __ATOMIC_ACQUIRE);
}

/* Cells are packet_size bytes apart, the size the pipe was made with;
 * `size` is the kernel's packet type's. They should agree (the program's
 * business); a type larger than the pipe's packets would spill into the
 * next cell or past the pipe, so its reads and writes fail (the checks
 * below, before anything is claimed). The copies keep the call's constant
 * size and inline to plain loads and stores. */
static __global uchar *packet(pipe_header *p, ulong cell)
{
    return (__global uchar *)p + p->packets + cell * p->packet_size;
}

/* Whether the n cells from position `pos` all have sequence number
 * position + ahead (ahead 0: free for writers, 1: full for readers).
 * Returns -1 when one is behind (not yet taken, or not yet published),
 * 1 when one is ahead (another claimed `pos` meanwhile), 0 when all are. */
static int cells_ready(pipe_header *p, ulong pos, ulong n, ulong ahead)
{
    ulong cap = p->max_packets;
    for (ulong i = 0; i < n; i++) {
        ulong seq = load_acquire(&p->sequence[(pos + i) % cap]);
        long diff = (long)(seq - (pos + i + ahead));
        if (diff)
            return diff < 0 ? -1 : 1;
    }
    return 0;
}

/* Claims n consecutive positions for writing (ahead 0) or reading
 * (ahead 1); returns the first, or -1 when there are not n free (full)
 * cells at the index. */
static long claim_positions(pipe_header *p, volatile __global ulong *index, ulong n, ulong ahead)
{
    if (n == 0 || n > p->max_packets)
        return -1;
    ulong pos = __atomic_load_n(index, __ATOMIC_RELAXED);
    for (;;) {
        int ready = cells_ready(p, pos, n, ahead);
        if (ready < 0)
            return -1;
        if (ready == 0 && claim(index, &pos, n))
            return (long)pos;
        if (ready > 0)
            pos = __atomic_load_n(index, __ATOMIC_RELAXED);
        /* a failed claim has reloaded pos */
    }
}

static size_t reservation(pipe_header *p, long pos, uint n)
{
    if (pos < 0)
        return NULL_RESERVE_ID;
    return (size_t)((ulong)pos % p->max_packets) << 32 | n;
}

/* Publishes the n cells of a reservation: sequence + 1 for written cells,
 * sequence + max_packets - 1 for read ones (pipe.h). */
static void commit(pipe_header *p, size_t id, bool reading)
{
    ulong cap = p->max_packets, cell = id >> 32, n = id & 0xffffffffu;
    ulong pos = p->sequence[cell] - (reading ? 1 : 0);
    ulong next = reading ? cap : 1;
    for (ulong i = 0; i < n; i++)
        store_release(&p->sequence[(cell + i) % cap], pos + i + next);
}

/* --- read_pipe, write_pipe (6.13.16.2): one packet at a time --- */

int __read_pipe_2(pipe_header *p, __generic void *ptr, uint size, uint align)
{
    long pos = size <= p->packet_size ? claim_positions(p, &p->read_index, 1, 1) : -1;
    if (pos < 0)
        return -1;
    ulong cell = (ulong)pos % p->max_packets;
    __builtin_memcpy(ptr, packet(p, cell), size);
    store_release(&p->sequence[cell], (ulong)pos + p->max_packets);
    return 0;
}

int __write_pipe_2(pipe_header *p, const __generic void *ptr, uint size, uint align)
{
    long pos = size <= p->packet_size ? claim_positions(p, &p->write_index, 1, 0) : -1;
    if (pos < 0)
        return -1;
    ulong cell = (ulong)pos % p->max_packets;
    __builtin_memcpy(packet(p, cell), ptr, size);
    store_release(&p->sequence[cell], (ulong)pos + 1);
    return 0;
}

/* --- reservations (6.13.16.2, 6.13.16.3) --- */

__private void *__reserve_read_pipe(pipe_header *p, uint n, uint size, uint align)
{
    long pos = size <= p->packet_size ? claim_positions(p, &p->read_index, n, 1) : -1;
    return (__private void *)reservation(p, pos, n);
}

__private void *__reserve_write_pipe(pipe_header *p, uint n, uint size, uint align)
{
    long pos = size <= p->packet_size ? claim_positions(p, &p->write_index, n, 0) : -1;
    return (__private void *)reservation(p, pos, n);
}

/* The cell of packet `index` of a reservation, or -1 for an index past it,
 * an invalid reservation or a packet too large. */
static long reserved_cell(pipe_header *p, size_t id, uint index, uint size)
{
    if (id == NULL_RESERVE_ID || index >= (id & 0xffffffffu) || size > p->packet_size)
        return -1;
    return (long)(((id >> 32) + index) % p->max_packets);
}

int __read_pipe_4(pipe_header *p, __private void *reserve_id, uint index, __generic void *ptr,
                  uint size, uint align)
{
    long cell = reserved_cell(p, (size_t)reserve_id, index, size);
    if (cell < 0)
        return -1;
    __builtin_memcpy(ptr, packet(p, (ulong)cell), size);
    return 0;
}

int __write_pipe_4(pipe_header *p, __private void *reserve_id, uint index,
                   const __generic void *ptr, uint size, uint align)
{
    long cell = reserved_cell(p, (size_t)reserve_id, index, size);
    if (cell < 0)
        return -1;
    __builtin_memcpy(packet(p, (ulong)cell), ptr, size);
    return 0;
}

void __commit_read_pipe(pipe_header *p, __private void *reserve_id, uint size, uint align)
{
    if ((size_t)reserve_id != NULL_RESERVE_ID)
        commit(p, (size_t)reserve_id, true);
}

void __commit_write_pipe(pipe_header *p, __private void *reserve_id, uint size, uint align)
{
    if ((size_t)reserve_id != NULL_RESERVE_ID)
        commit(p, (size_t)reserve_id, false);
}

OVL bool is_valid_reserve_id(reserve_id_t reserve_id)
{
    return __builtin_astype(reserve_id, size_t) != NULL_RESERVE_ID;
}

/* --- work-group and sub-group reservations (6.13.16.4) --- */

#define GROUP_FORMS(PREFIX, FIRST, BROADCAST, BARRIER)                                             \
    __private void *__##PREFIX##_reserve_read_pipe(pipe_header *p, uint n, uint size, uint align)  \
    {                                                                                              \
        ulong id = 0;                                                                              \
        if (FIRST)                                                                                 \
            id = (ulong)__reserve_read_pipe(p, n, size, align);                                    \
        return (__private void *)BROADCAST(id);                                                    \
    }                                                                                              \
    __private void *__##PREFIX##_reserve_write_pipe(pipe_header *p, uint n, uint size, uint align) \
    {                                                                                              \
        ulong id = 0;                                                                              \
        if (FIRST)                                                                                 \
            id = (ulong)__reserve_write_pipe(p, n, size, align);                                   \
        return (__private void *)BROADCAST(id);                                                    \
    }                                                                                              \
    void __##PREFIX##_commit_read_pipe(pipe_header *p, __private void *reserve_id, uint size,      \
                                       uint align)                                                 \
    {                                                                                              \
        BARRIER(CLK_GLOBAL_MEM_FENCE);                                                             \
        if (FIRST)                                                                                 \
            __commit_read_pipe(p, reserve_id, size, align);                                        \
    }                                                                                              \
    void __##PREFIX##_commit_write_pipe(pipe_header *p, __private void *reserve_id, uint size,     \
                                        uint align)                                                \
    {                                                                                              \
        BARRIER(CLK_GLOBAL_MEM_FENCE);                                                             \
        if (FIRST)                                                                                 \
            __commit_write_pipe(p, reserve_id, size, align);                                       \
    }

#define WG_BROADCAST(id) work_group_broadcast(id, (size_t)0)
#define SG_BROADCAST(id) sub_group_broadcast(id, 0u)
GROUP_FORMS(work_group, get_local_linear_id() == 0, WG_BROADCAST, barrier)
GROUP_FORMS(sub_group, get_sub_group_local_id() == 0, SG_BROADCAST, sub_group_barrier)

/* --- queries (6.13.16.5): a snapshot, stale as soon as it is taken --- */

/* Positions claimed by writers and not yet by readers: packets written,
 * and those of write reservations not yet committed. */
static uint num_packets(pipe_header *p)
{
    /* read_index first: it never passes write_index, so the difference
     * is never negative; it may exceed max_packets in between */
    ulong read = __atomic_load_n(&p->read_index, __ATOMIC_ACQUIRE);
    ulong written = __atomic_load_n(&p->write_index, __ATOMIC_ACQUIRE);
    ulong n = written - read;
    return n < p->max_packets ? (uint)n : p->max_packets;
}

uint __get_pipe_num_packets_ro(pipe_header *p, uint size, uint align)
{
    return num_packets(p);
}

uint __get_pipe_num_packets_wo(pipe_header *p, uint size, uint align)
{
    return num_packets(p);
}

uint __get_pipe_max_packets_ro(pipe_header *p, uint size, uint align)
{
    return p->max_packets;
}

uint __get_pipe_max_packets_wo(pipe_header *p, uint size, uint align)
{
    return p->max_packets;
}
