/* pipe.h - what a pipe argument points to, shared by the runtime (C,
 * src/api/pipe.c makes it) and the built-in library (OpenCL C, pipe.cl).
 *
 * A pipe (API spec 5.4, OpenCL C 6.13.16) is one block of global memory:
 * this header, then the sequence number of each of its max_packets cells,
 * then, from byte `packets`, the cells' packets of packet_size bytes.
 *
 * The pipe is a bounded queue of positions 0, 1, 2, ... (64-bit, never
 * wrapping); position p lives in cell p % max_packets. A cell's sequence
 * number says whose turn it is:
 *
 *   sequence == p                    free: the writer of position p may fill it
 *   sequence == p + 1                full: the reader of position p may take it
 *   sequence == p + max_packets      taken: free for the writer of the next lap
 *
 * Writers claim positions by advancing write_index with a compare-exchange,
 * readers by advancing read_index; both only after checking the claimed
 * cells' sequence numbers. A claimed cell belongs to its claimer alone until
 * the claimer publishes it with a release store of the next sequence number,
 * so a reservation (reserve n positions, fill them in any order, commit) is
 * the same operation spread over several calls, and commits of different
 * reservations need not come in order. No lock and no waiting: a read finds
 * the pipe empty when the cell at read_index is not yet published (empty,
 * or reserved and not yet committed), a write finds it full when the cell at
 * write_index is not yet taken.
 */
#ifndef CPUCL_BUILTINS_PIPE_H
#define CPUCL_BUILTINS_PIPE_H

#ifdef __OPENCL_C_VERSION__
#define CC_PIPE_U32 uint
#define CC_PIPE_U64 ulong
#else
#include <stdint.h>
#define CC_PIPE_U32 uint32_t
#define CC_PIPE_U64 uint64_t
#endif

struct cc_pipe {
    CC_PIPE_U64 write_index; /* the next position a writer claims */
    CC_PIPE_U64 pad0[7];     /* (the indices on cache lines of their own) */
    CC_PIPE_U64 read_index;  /* the next position a reader claims */
    CC_PIPE_U64 pad1[7];
    CC_PIPE_U32 packet_size;
    CC_PIPE_U32 max_packets;
    CC_PIPE_U64 packets; /* bytes from the header to cell 0's packet */
    CC_PIPE_U64 pad2[6];
    CC_PIPE_U64 sequence[]; /* max_packets of them */
};

/* The packets start on this boundary (at least any packet's alignment). */
#define CC_PIPE_PACKET_ALIGNMENT 128

#endif
