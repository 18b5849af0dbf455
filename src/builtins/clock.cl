/* clock.cl - kernel clock functions (cl_khr_kernel_clock; OpenCL C 3.0,
 * "Kernel Clock Functions"): clock_read_{device,work_group,sub_group} and
 * their _hilo forms.
 *
 * All three read the processor's time-stamp counter (rdtsc). It counts at a
 * constant rate and is the same on every core of the machine on the x86-64
 * processors cpucl runs on (invariant TSC, which Linux checks and keeps in
 * step across cores to use it as its clock), so it serves the device scope,
 * and with it the narrower ones: a work-group, and so its sub-groups, runs
 * on one worker. The spec lets a clock's rate vary and its value wrap; this
 * one does neither within a machine's uptime.
 */
#include "library.h"

#define CLOCK(SCOPE)                                                                          \
    OVL ulong clock_read_##SCOPE(void) { return __builtin_readcyclecounter(); }               \
    OVL uint2 clock_read_hilo_##SCOPE(void)                                                   \
    {                                                                                         \
        ulong t = __builtin_readcyclecounter();                                               \
        return (uint2)((uint)t, (uint)(t >> 32));                                             \
    }

CLOCK(device)
CLOCK(work_group)
CLOCK(sub_group)
