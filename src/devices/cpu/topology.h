/* topology.h - reading the machine's topology (internal to src/devices/cpu). */
#ifndef CPUCL_DEVICES_CPU_TOPOLOGY_H
#define CPUCL_DEVICES_CPU_TOPOLOGY_H

#include <hwloc.h>

#include "devices/cpu/cpu.h"

/* Fills topo from hwloc; 0 on success. *hw stays loaded for pinning. */
int cpu_topology_read(struct cpu_topology *topo, hwloc_topology_t *hw);

#endif
