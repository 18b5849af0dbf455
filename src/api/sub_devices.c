/* sub_devices.c - partitioning a device (API spec 4.3): clCreateSubDevices
 * equally, by counts and by affinity domain (hwloc's NUMA nodes and cache
 * levels, src/devices/cpu), and the reference counts of sub-devices. A
 * sub-device is a set of the CPU device's workers (`allowed`), each a
 * compute unit; its launches run on those workers only. */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "api/api.h"

/* The index of device's u-th compute unit among the CPU device's workers. */
static unsigned unit_worker(cl_device_id device, unsigned u)
{
    unsigned workers = cpu_device_workers(device->cpu);
    for (unsigned w = 0, seen = 0; w < workers; w++)
        if (!device->allowed || device->allowed[w]) {
            if (seen == u)
                return w;
            seen++;
        }
    return 0;
}

static const struct {
    cl_device_affinity_domain domain;
    enum cpu_domain level;
} levels[] = {
    {CL_DEVICE_AFFINITY_DOMAIN_NUMA, CPU_DOMAIN_NUMA},
    {CL_DEVICE_AFFINITY_DOMAIN_L4_CACHE, CPU_DOMAIN_L4},
    {CL_DEVICE_AFFINITY_DOMAIN_L3_CACHE, CPU_DOMAIN_L3},
    {CL_DEVICE_AFFINITY_DOMAIN_L2_CACHE, CPU_DOMAIN_L2},
    {CL_DEVICE_AFFINITY_DOMAIN_L1_CACHE, CPU_DOMAIN_L1},
};

static unsigned group_units(cl_device_id device, enum cpu_domain level, unsigned *group);

/* The affinity domains that split this device in two or more (hwloc knows
 * the level and the device spans more than one of its groups), and then
 * next-partitionable. A level with one group would give the device back:
 * not offered, so no application partitions by it in a loop. */
cl_device_affinity_domain api_affinity_domains(cl_device_id device)
{
    cl_device_affinity_domain domains = 0;
    unsigned *group = malloc((device->compute_units ? device->compute_units : 1) * sizeof *group);
    for (size_t i = 0; group && i < sizeof levels / sizeof levels[0]; i++)
        if (group_units(device, levels[i].level, group) >= 2)
            domains |= levels[i].domain;
    free(group);
    return domains ? domains | CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE : 0;
}

/* Group numbers of device's compute units at one level, renumbered 0, 1,
 * ... in order of first appearance; returns how many groups (0: the
 * machine does not describe the level). */
static unsigned group_units(cl_device_id device, enum cpu_domain level, unsigned *group)
{
    unsigned n = device->compute_units, groups = 0;
    int *ids = malloc(n * sizeof *ids);
    if (!ids)
        return 0;
    for (unsigned u = 0; u < n; u++) {
        ids[u] = cpu_device_domain(device->cpu, unit_worker(device, u), level);
        if (ids[u] < 0) {
            free(ids);
            return 0;
        }
        group[u] = groups;
        for (unsigned v = 0; v < u; v++)
            if (ids[v] == ids[u]) {
                group[u] = group[v];
                break;
            }
        if (group[u] == groups)
            groups++;
    }
    free(ids);
    return groups;
}

static cl_device_id new_sub_device(cl_device_id parent, const unsigned *group, unsigned which,
                                   const cl_device_partition_property *partition, size_t size)
{
    cl_device_id device = rt_object_create(RT_DEVICE, sizeof *device);
    unsigned workers = cpu_device_workers(parent->cpu);
    if (!device)
        return NULL;
    device->cpu = parent->cpu;
    device->type = parent->type;
    device->parent = parent;
    device->allowed = calloc(workers, 1);
    device->partition = malloc(size);
    if (!device->allowed || !device->partition) {
        free(device->allowed);
        free(device->partition);
        device->allowed = NULL;
        device->partition = NULL;
        rt_object_release(RT_OBJ(device));
        return NULL;
    }
    for (unsigned u = 0; u < parent->compute_units; u++)
        if (group[u] == which) {
            device->allowed[unit_worker(parent, u)] = 1;
            device->compute_units++;
        }
    memcpy(device->partition, partition, size);
    device->partition_size = size;
    rt_object_hold(RT_OBJ(parent));
    return device;
}

/* 4.3.1. Compute units are the CPU device's workers, one a core; a
 * sub-device's commands run only on its workers. */
API_EXPORT CL_API_ENTRY cl_int CL_API_CALL
clCreateSubDevices(cl_device_id in_device, const cl_device_partition_property *properties,
                   cl_uint num_devices, cl_device_id *out_devices, cl_uint *num_devices_ret)
{
    if (!api_valid_device(in_device))
        return CL_INVALID_DEVICE;
    if (!properties || (out_devices && num_devices == 0))
        return CL_INVALID_VALUE;
    unsigned units = in_device->compute_units, count = 0;
    unsigned *group = malloc((units ? units : 1) * sizeof *group);
    cl_device_partition_property used[4] = {0};
    const cl_device_partition_property *partition = properties;
    size_t partition_size = 0;
    cl_int err = CL_SUCCESS;
    if (!group)
        return CL_OUT_OF_HOST_MEMORY;
    switch (properties[0]) {
    case CL_DEVICE_PARTITION_EQUALLY: {
        cl_device_partition_property n = properties[1];
        if (n <= 0 || properties[2] != 0) {
            err = CL_INVALID_VALUE;
            break;
        }
        /* more compute units a sub-device than the device has */
        if (n > (cl_device_partition_property)units) {
            err = CL_INVALID_DEVICE_PARTITION_COUNT;
            break;
        }
        count = units / (unsigned)n;
        for (unsigned u = 0; u < units; u++)
            group[u] = u / (unsigned)n < count ? u / (unsigned)n : count; /* the rest: unused */
        partition_size = 3 * sizeof *properties;
        break;
    }
    case CL_DEVICE_PARTITION_BY_COUNTS: {
        size_t i = 1;
        unsigned total = 0;
        for (; properties[i] != CL_DEVICE_PARTITION_BY_COUNTS_LIST_END; i++) {
            if (properties[i] < 0 || (cl_ulong)properties[i] > units)
                err = CL_INVALID_DEVICE_PARTITION_COUNT;
            else
                total += (unsigned)properties[i];
            count++;
        }
        if (properties[i + 1] != 0 || count == 0) {
            err = CL_INVALID_VALUE;
            break;
        }
        if (err || total > units || count > units) {
            err = CL_INVALID_DEVICE_PARTITION_COUNT;
            break;
        }
        unsigned u = 0;
        for (unsigned d = 0; d < count; d++)
            for (cl_device_partition_property k = 0; k < properties[1 + d]; k++)
                group[u++] = d;
        for (; u < units; u++)
            group[u] = count;
        partition_size = (i + 2) * sizeof *properties;
        break;
    }
    case CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN: {
        cl_device_affinity_domain asked = (cl_device_affinity_domain)properties[1];
        if (properties[2] != 0 || !(asked & api_affinity_domains(in_device)) ||
            (asked & (asked - 1))) {
            err = CL_INVALID_VALUE;
            break;
        }
        /* NEXT_PARTITIONABLE: the first level, from NUMA down, that splits
         * the device; the sub-devices report the level used. */
        for (size_t l = 0; l < sizeof levels / sizeof levels[0] && count < 2; l++)
            if (asked == levels[l].domain ||
                asked == CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE) {
                count = group_units(in_device, levels[l].level, group);
                used[1] = (cl_device_partition_property)levels[l].domain;
            }
        /* One group is the device itself: it cannot be partitioned further. */
        if (count < 2) {
            err = CL_DEVICE_PARTITION_FAILED;
            break;
        }
        used[0] = CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN;
        partition = used;
        partition_size = 3 * sizeof *properties;
        break;
    }
    default: err = CL_INVALID_VALUE;
    }
    /* One sub-device with every compute unit is the device again: it
     * "could not be further partitioned" (4.3.1, as the CTS reads it). */
    if (!err && count == 1) {
        bool all = true;
        for (unsigned u = 0; u < units; u++)
            all &= group[u] == 0;
        if (all)
            err = CL_DEVICE_PARTITION_FAILED;
    }
    if (!err && out_devices && num_devices < count)
        err = CL_INVALID_VALUE;
    if (!err && out_devices) {
        for (unsigned d = 0; d < count && !err; d++) {
            out_devices[d] = new_sub_device(in_device, group, d, partition, partition_size);
            if (!out_devices[d]) {
                for (unsigned e = 0; e < d; e++)
                    rt_object_release(RT_OBJ(out_devices[e]));
                err = CL_OUT_OF_HOST_MEMORY;
            }
        }
    }
    free(group);
    if (!err && num_devices_ret)
        *num_devices_ret = count;
    return err;
}

/* 4.3: retaining or releasing a root device is valid and changes nothing. */
API_EXPORT CL_API_ENTRY cl_int CL_API_CALL clRetainDevice(cl_device_id device)
{
    if (!api_valid_device(device))
        return CL_INVALID_DEVICE;
    if (device->parent)
        rt_object_retain(RT_OBJ(device));
    return CL_SUCCESS;
}

API_EXPORT CL_API_ENTRY cl_int CL_API_CALL clReleaseDevice(cl_device_id device)
{
    if (!api_valid_device(device))
        return CL_INVALID_DEVICE;
    if (device->parent)
        rt_object_release(RT_OBJ(device));
    return CL_SUCCESS;
}
