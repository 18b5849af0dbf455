/* topology.c - what the machine is: cores, caches, memory (from hwloc). */
#include "devices/cpu/topology.h"

#include <hwloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static uint64_t cache_size(hwloc_topology_t hw, hwloc_obj_type_t type)
{
    hwloc_obj_t obj = hwloc_get_next_obj_by_type(hw, type, NULL);
    return obj && obj->attr ? obj->attr->cache.size : 0;
}

static void read_cpuinfo(struct cpu_topology *topo)
{
    FILE *f = fopen("/proc/cpuinfo", "r");
    char line[512];
    if (!f)
        return;
    while (fgets(line, sizeof line, f)) {
        char *colon = strchr(line, ':');
        if (!colon)
            continue;
        char *value = colon + 2;
        value[strcspn(value, "\n")] = 0;
        if (!topo->name[0] && !strncmp(line, "model name", 10))
            snprintf(topo->name, sizeof topo->name, "%s", value);
        else if (!topo->vendor[0] && !strncmp(line, "vendor_id", 9))
            snprintf(topo->vendor, sizeof topo->vendor, "%s", value);
        else if (!topo->clock_mhz && !strncmp(line, "cpu MHz", 7))
            topo->clock_mhz = (unsigned)atof(value);
    }
    fclose(f);
}

static unsigned max_clock_mhz(void)
{
    FILE *f = fopen("/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq", "r");
    unsigned long khz = 0;
    if (!f)
        return 0;
    if (fscanf(f, "%lu", &khz) != 1)
        khz = 0;
    fclose(f);
    return (unsigned)(khz / 1000);
}

int cpu_topology_read(struct cpu_topology *topo, hwloc_topology_t *out_hw)
{
    hwloc_topology_t hw;
    memset(topo, 0, sizeof *topo);
    if (hwloc_topology_init(&hw) < 0)
        return -1;
    if (hwloc_topology_load(hw) < 0) {
        hwloc_topology_destroy(hw);
        return -1;
    }
    int cores = hwloc_get_nbobjs_by_type(hw, HWLOC_OBJ_CORE);
    if (cores <= 0)
        cores = hwloc_get_nbobjs_by_type(hw, HWLOC_OBJ_PU);
    topo->cores = cores > 0 ? (unsigned)cores : 1;
    int nodes = hwloc_get_nbobjs_by_type(hw, HWLOC_OBJ_NUMANODE);
    topo->numa_nodes = nodes > 0 ? (unsigned)nodes : 1;

    hwloc_obj_t root = hwloc_get_root_obj(hw);
    /* hwloc counts only the memory of the NUMA nodes it sees, which on some
     * virtual machines is a fraction of the RAM; take the larger answer. */
    uint64_t physical = (uint64_t)sysconf(_SC_PHYS_PAGES) * (uint64_t)sysconf(_SC_PAGESIZE);
    topo->global_mem_size = root->total_memory > physical ? root->total_memory : physical;

    topo->l1d_cache_size = cache_size(hw, HWLOC_OBJ_L1CACHE);
    topo->l2_cache_size = cache_size(hw, HWLOC_OBJ_L2CACHE);
    topo->l3_cache_size = cache_size(hw, HWLOC_OBJ_L3CACHE);
    /* Some virtual machines report a last-level cache that is not there (a
     * 2-core VM: 508 MiB); CPUCL_L3_SIZE says what to take instead. It
     * sizes CL_DEVICE_GLOBAL_MEM_CACHE_SIZE and which copies and launch
     * copies' stores stream past the cache. */
    const char *l3 = getenv("CPUCL_L3_SIZE");
    char *end;
    unsigned long long l3_size = l3 ? strtoull(l3, &end, 10) : 0;
    if (l3_size && !*end)
        topo->l3_cache_size = l3_size;
    hwloc_obj_t l1 = hwloc_get_next_obj_by_type(hw, HWLOC_OBJ_L1CACHE, NULL);
    topo->cache_line = l1 && l1->attr->cache.linesize ? l1->attr->cache.linesize : 64;

    const char *model = hwloc_obj_get_info_by_name(root, "CPUModel");
    if (!model) {
        hwloc_obj_t package = hwloc_get_next_obj_by_type(hw, HWLOC_OBJ_PACKAGE, NULL);
        model = package ? hwloc_obj_get_info_by_name(package, "CPUModel") : NULL;
    }
    if (model)
        snprintf(topo->name, sizeof topo->name, "%s", model);
    read_cpuinfo(topo);
    unsigned max_mhz = max_clock_mhz();
    if (max_mhz)
        topo->clock_mhz = max_mhz;
    size_t length = strlen(topo->name);
    while (length && topo->name[length - 1] == ' ')
        topo->name[--length] = 0;
    if (!topo->name[0])
        snprintf(topo->name, sizeof topo->name, "CPU");
    if (!topo->vendor[0])
        snprintf(topo->vendor, sizeof topo->vendor, "unknown");
    *out_hw = hw;
    return 0;
}
