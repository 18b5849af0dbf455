/* device.c - the devices and their queries (API spec 4.2); sub-devices
 * (4.3) are sub_devices.c's.
 *
 * The answers come from the machine (src/devices/cpu: cores, caches, memory,
 * vector registers) and from what cpucl implements; what it does not
 * (src/api/not_offered.c) is reported absent, with its limits 0. Values the
 * spec bounds are checked against the OpenCL 2.2 full-profile minimums of
 * table 4.3. */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/api.h"

#define MIB (1024ull * 1024ull)

#define MAX_WORK_GROUP_SIZE CC_MAX_WORK_GROUP_SIZE /* the collectives' scratch is sized for it */

/* Extensions the runtime provides itself, not the OpenCL C compiler:
 * cl_khr_icd (this library is an ICD), cl_khr_il_program
 * (clCreateProgramWithILKHR, the SPIR-V path of src/compiler/spirv.c),
 * cl_khr_create_command_queue and the priority and throttle hints
 * (queue.c), cl_khr_extended_versioning (versions.c),
 * cl_khr_suggested_local_work_size (enqueue_kernel.c),
 * cl_khr_spirv_no_integer_wrap_decoration (the translator makes its
 * decorations LLVM's nsw and nuw flags) and cl_khr_spirv_linkonce_odr (its
 * linkage LLVM's linkonce_odr, which clLinkProgram's linker merges),
 * cl_khr_spirv_queries (below), cl_khr_device_uuid (below),
 * cl_ext_cxx_for_opencl (the front end's C++ for OpenCL),
 * cl_ext_immutable_memory_objects (memory.c, image.c and the enqueues),
 * cl_khr_semaphore (semaphore.c), cl_khr_command_buffer
 * (command_buffer.c), cl_khr_command_buffer_mutable_dispatch
 * (mutable_dispatch.c), cl_ext_buffer_device_address (memory.c,
 * svm.c), cl_khr_external_memory and cl_khr_external_memory_dma_buf
 * (external_memory.c), cl_khr_gl_sharing, cl_khr_gl_event,
 * cl_khr_egl_event and cl_khr_egl_image (gl_sharing.c, runtime/gl.c). */
#define RUNTIME_EXTENSIONS                                                                         \
    "cl_khr_icd cl_khr_il_program cl_khr_create_command_queue cl_khr_extended_versioning "         \
    "cl_khr_suggested_local_work_size cl_khr_priority_hints cl_khr_throttle_hints "                \
    "cl_khr_spirv_no_integer_wrap_decoration cl_khr_spirv_linkonce_odr cl_khr_spirv_queries "      \
    "cl_khr_device_uuid cl_ext_cxx_for_opencl cl_ext_immutable_memory_objects cl_khr_semaphore "   \
    "cl_khr_command_buffer cl_khr_command_buffer_mutable_dispatch cl_ext_buffer_device_address "   \
    "cl_khr_external_memory cl_khr_external_memory_dma_buf cl_khr_gl_sharing "                     \
    "cl_khr_gl_event cl_khr_egl_event cl_khr_egl_image"

/* cl_khr_spirv_queries: what a SPIR-V module may use (the translator reads
 * it: src/compiler/spirv.c, spirv_fixes.c; the built-ins its instructions
 * become are the library's). The capabilities' numbers are the SPIR-V
 * specification's (3.31 Capability). */
#ifndef CL_DEVICE_SPIRV_EXTENDED_INSTRUCTION_SETS_KHR
#define CL_DEVICE_SPIRV_EXTENDED_INSTRUCTION_SETS_KHR 0x12B9
#define CL_DEVICE_SPIRV_EXTENSIONS_KHR 0x12BA
#define CL_DEVICE_SPIRV_CAPABILITIES_KHR 0x12BB
#endif
static const char *const spirv_instruction_sets[] = {
    "OpenCL.std", "OpenCL.DebugInfo.100", /* the translator reads it (modules built with -g) */
};

/* cl_ext_float_atomics (not in Debian 12's headers) */
#ifndef CL_DEVICE_SINGLE_FP_ATOMIC_CAPABILITIES_EXT
#define CL_DEVICE_SINGLE_FP_ATOMIC_CAPABILITIES_EXT 0x4231
#define CL_DEVICE_DOUBLE_FP_ATOMIC_CAPABILITIES_EXT 0x4232
#define CL_DEVICE_HALF_FP_ATOMIC_CAPABILITIES_EXT 0x4233
#define CL_DEVICE_GLOBAL_FP_ATOMIC_LOAD_STORE_EXT (1 << 0)
#define CL_DEVICE_GLOBAL_FP_ATOMIC_ADD_EXT (1 << 1)
#define CL_DEVICE_GLOBAL_FP_ATOMIC_MIN_MAX_EXT (1 << 2)
#define CL_DEVICE_LOCAL_FP_ATOMIC_LOAD_STORE_EXT (1 << 16)
#define CL_DEVICE_LOCAL_FP_ATOMIC_ADD_EXT (1 << 17)
#define CL_DEVICE_LOCAL_FP_ATOMIC_MIN_MAX_EXT (1 << 18)
#endif
/* every operation on each of half, float and double, global and local
 * (src/builtins/atomic.cl) */
#define FP_ATOMICS                                                                                 \
    (CL_DEVICE_GLOBAL_FP_ATOMIC_LOAD_STORE_EXT | CL_DEVICE_GLOBAL_FP_ATOMIC_ADD_EXT |              \
     CL_DEVICE_GLOBAL_FP_ATOMIC_MIN_MAX_EXT | CL_DEVICE_LOCAL_FP_ATOMIC_LOAD_STORE_EXT |           \
     CL_DEVICE_LOCAL_FP_ATOMIC_ADD_EXT | CL_DEVICE_LOCAL_FP_ATOMIC_MIN_MAX_EXT)

/* cl_khr_kernel_clock (not in Debian 12's headers) */
#ifndef CL_DEVICE_KERNEL_CLOCK_CAPABILITIES_KHR
#define CL_DEVICE_KERNEL_CLOCK_CAPABILITIES_KHR 0x1076
#define CL_DEVICE_KERNEL_CLOCK_SCOPE_DEVICE_KHR (1 << 0)
#define CL_DEVICE_KERNEL_CLOCK_SCOPE_WORK_GROUP_KHR (1 << 1)
#define CL_DEVICE_KERNEL_CLOCK_SCOPE_SUB_GROUP_KHR (1 << 2)
#endif
static const char *const spirv_extensions[] = {
    "SPV_EXT_shader_atomic_float_add",     /* cl_ext_float_atomics */
    "SPV_EXT_shader_atomic_float_min_max", /* cl_ext_float_atomics */
    "SPV_EXT_shader_atomic_float16_add",   /* cl_ext_float_atomics */
    "SPV_KHR_expect_assume",               /* cl_khr_expect_assume */
    "SPV_KHR_bit_instructions",            /* cl_khr_extended_bit_ops */
    "SPV_KHR_integer_dot_product",         /* cl_khr_integer_dot_product */
    "SPV_KHR_linkonce_odr",                /* cl_khr_spirv_linkonce_odr */
    "SPV_KHR_no_integer_wrap_decoration",  /* cl_khr_spirv_no_integer_wrap_decoration */
    "SPV_KHR_shader_clock",                /* cl_khr_kernel_clock */
    "SPV_KHR_subgroup_rotate",             /* cl_khr_subgroup_rotate */
    "SPV_KHR_uniform_group_instructions",  /* workgroup.cl (the OpenCL C extension is not reported)
                                            */
};
static const cl_uint spirv_capabilities[] = {
    4,    /* Addresses */
    5,    /* Linkage */
    6,    /* Kernel */
    7,    /* Vector16 */
    8,    /* Float16Buffer */
    9,    /* Float16: cl_khr_fp16 */
    10,   /* Float64: cl_khr_fp64 */
    11,   /* Int64 */
    12,   /* Int64Atomics */
    13,   /* ImageBasic */
    14,   /* ImageReadWrite */
    15,   /* ImageMipmap: cl_khr_mipmap_image, _writes */
    17,   /* Pipes */
    18,   /* Groups */
    19,   /* DeviceEnqueue */
    20,   /* LiteralSampler */
    22,   /* Int16 */
    38,   /* GenericPointer */
    39,   /* Int8 */
    43,   /* Sampled1D */
    44,   /* Image1D */
    46,   /* SampledBuffer */
    47,   /* ImageBuffer */
    58,   /* SubgroupDispatch (SPIR-V 1.1) */
    60,   /* PipeStorage (SPIR-V 1.1) */
    61,   /* GroupNonUniform: the sub-group extensions (SPIR-V 1.3) */
    62,   /* GroupNonUniformVote */
    63,   /* GroupNonUniformArithmetic */
    64,   /* GroupNonUniformBallot */
    65,   /* GroupNonUniformShuffle */
    66,   /* GroupNonUniformShuffleRelative */
    67,   /* GroupNonUniformClustered */
    71,   /* UniformDecoration (SPIR-V 1.6; the translator drops its decorations) */
    5055, /* ShaderClockKHR: cl_khr_kernel_clock */
    5612, /* AtomicFloat32MinMaxEXT: cl_ext_float_atomics */
    5613, /* AtomicFloat64MinMaxEXT */
    5616, /* AtomicFloat16MinMaxEXT */
    5629, /* ExpectAssumeKHR */
    6017, /* DotProductInput4x8Bit */
    6018, /* DotProductInput4x8BitPacked */
    6019, /* DotProduct */
    6025, /* BitInstructions */
    6026, /* GroupNonUniformRotateKHR */
    6033, /* AtomicFloat32AddEXT: cl_ext_float_atomics */
    6034, /* AtomicFloat64AddEXT */
    6095, /* AtomicFloat16AddEXT */
    6400, /* GroupUniformArithmeticKHR: SPV_KHR_uniform_group_instructions */
};

size_t api_device_max_work_group_size(cl_device_id device)
{
    return MAX_WORK_GROUP_SIZE;
}

/* Table 4.3: at least max(1/4 of the global memory, 128 MiB); never more
 * than there is. */
cl_ulong api_device_max_mem_alloc_size(cl_device_id device)
{
    cl_ulong global = cpu_device_topology(device->cpu)->global_mem_size;
    cl_ulong size = global / 4 > 128 * MIB ? global / 4 : 128 * MIB;
    return size < global ? size : global;
}

static cl_ulong min_ulong(cl_ulong a, cl_ulong b)
{
    return a < b ? a : b;
}

/* --- answers of each type ------------------------------------------------ */

/* The caller's param_value triple, so that each answer is one call. */
struct info_out {
    size_t size;
    void *value;
    size_t *size_ret;
};

static cl_int answer(const struct info_out *out, const void *value, size_t size)
{
    return api_info(out->size, out->value, out->size_ret, value, size);
}

/* cl_uint, and the enums and cl_bool that are cl_uint */
static cl_int answer_uint(const struct info_out *out, cl_uint value)
{
    return answer(out, &value, sizeof value);
}

static cl_int answer_bool(const struct info_out *out, cl_bool value)
{
    return answer(out, &value, sizeof value);
}

/* cl_ulong, and the bitfields (device type, fp config, capabilities) that
 * are cl_ulong */
static cl_int answer_ulong(const struct info_out *out, cl_ulong value)
{
    return answer(out, &value, sizeof value);
}

static cl_int answer_size(const struct info_out *out, size_t value)
{
    return answer(out, &value, sizeof value);
}

static cl_int answer_string(const struct info_out *out, const char *text)
{
    return answer(out, text, strlen(text) + 1);
}

/* --- facts about the machine -------------------------------------------- */

static const char *vendor_name(const char *cpuid_vendor)
{
    if (!strcmp(cpuid_vendor, "GenuineIntel"))
        return "Intel(R) Corporation";
    if (!strcmp(cpuid_vendor, "AuthenticAMD"))
        return "Advanced Micro Devices, Inc.";
    return cpuid_vendor;
}

/* PCI vendor ids; 0 for a vendor without one we know. */
static cl_uint vendor_id(const char *cpuid_vendor)
{
    if (!strcmp(cpuid_vendor, "GenuineIntel"))
        return 0x8086;
    if (!strcmp(cpuid_vendor, "AuthenticAMD"))
        return 0x1022;
    return 0;
}

/* The runtime's extensions followed by the compiler's, built on first use.
 * NULL only when memory is short (then a later call tries again). */
const char *api_device_extensions(void)
{
    static _Atomic(char *) text;
    char *built = atomic_load(&text);
    if (built)
        return built;
    const char *compiler = cc_device_extensions();
    size_t runtime_length = strlen(RUNTIME_EXTENSIONS);
    size_t compiler_length = strlen(compiler);
    built = malloc(runtime_length + 1 + compiler_length + 1);
    if (!built)
        return NULL;
    memcpy(built, RUNTIME_EXTENSIONS, runtime_length);
    built[runtime_length] = ' ';
    memcpy(built + runtime_length + 1, compiler, compiler_length + 1);
    char *expected = NULL;
    if (!atomic_compare_exchange_strong(&text, &expected, built)) {
        free(built); /* another thread was first */
        return expected;
    }
    return built;
}

/* --- 4.2 ------------------------------------------------------------------ */

API_EXPORT CL_API_ENTRY cl_int CL_API_CALL clGetDeviceIDs(cl_platform_id platform,
                                                          cl_device_type device_type,
                                                          cl_uint num_entries,
                                                          cl_device_id *devices,
                                                          cl_uint *num_devices)
{
    /* 4.2: what a NULL platform means is implementation-defined; it selects
     * ours. */
    if (!platform)
        platform = rt_platform();
    if (!api_valid_platform(platform))
        return CL_INVALID_PLATFORM;
    const cl_device_type known = CL_DEVICE_TYPE_DEFAULT | CL_DEVICE_TYPE_CPU | CL_DEVICE_TYPE_GPU |
                                 CL_DEVICE_TYPE_ACCELERATOR | CL_DEVICE_TYPE_CUSTOM;
    if (device_type != CL_DEVICE_TYPE_ALL && (device_type == 0 || (device_type & ~known)))
        return CL_INVALID_DEVICE_TYPE;
    if ((num_entries == 0 && devices) || (!devices && !num_devices))
        return CL_INVALID_VALUE;
    /* The one device is a CPU and the platform's default device;
     * CL_DEVICE_TYPE_ALL has both bits. */
    cl_device_id device = rt_root_device();
    if (!device || !(device_type & (CL_DEVICE_TYPE_CPU | CL_DEVICE_TYPE_DEFAULT)))
        return CL_DEVICE_NOT_FOUND;
    if (devices)
        devices[0] = device;
    if (num_devices)
        *num_devices = 1;
    return CL_SUCCESS;
}

/* cl_khr_device_uuid (API 4.2, CL_DEVICE_UUID_KHR: "immutable for a given
 * device across processes, driver APIs, driver versions, and system
 * reboots"): a name UUID of what the device is, not of how cpucl runs it:
 * the machine (its machine-id, where the system has one), the processor's
 * vendor, model and cores, and for a sub-device the workers (cores) that
 * are its compute units. */
static void device_uuid(cl_device_id device, unsigned char uuid[CL_UUID_SIZE_KHR])
{
    const struct cpu_topology *topology = cpu_device_topology(device->cpu);
    char name[1024], machine[64] = "";
    FILE *file = fopen("/etc/machine-id", "r");
    if (file) {
        if (!fgets(machine, sizeof machine, file))
            machine[0] = 0;
        fclose(file);
    }
    int used = snprintf(name, sizeof name, "cpucl device\n%s%s\n%s\n%u", machine, topology->vendor,
                        topology->name, topology->cores);
    unsigned workers = cpu_device_workers(device->cpu);
    for (unsigned w = 0; device->allowed && w < workers && used < (int)sizeof name - 12; w++)
        if (device->allowed[w])
            used += snprintf(name + used, sizeof name - (size_t)used, " %u", w);
    cc_name_uuid(name, strlen(name), uuid);
}

/* One answer of clGetDeviceInfo; the handle is checked. Grouped as table 4.3
 * is read: identity, compute, vectors, floating point, memory, images,
 * queues, SVM and atomics, pipes and sub-groups, partitioning. */
static cl_int device_info(cl_device_id device, cl_device_info param_name,
                          const struct info_out *out)
{
    const struct cpu_topology *topology = cpu_device_topology(device->cpu);

    switch (param_name) {
    /* identity and versions */
    case CL_DEVICE_TYPE: return answer_ulong(out, device->type);
    case CL_DEVICE_VENDOR_ID: return answer_uint(out, vendor_id(topology->vendor));
    case CL_DEVICE_NAME: return answer_string(out, topology->name);
    case CL_DEVICE_VENDOR: return answer_string(out, vendor_name(topology->vendor));
    case CL_DRIVER_VERSION: return answer_string(out, "0.1");
    /* cl_khr_device_uuid; the LUID is Windows' (D3D12), which has no
     * adapter for this device: not valid, and then its value and the node
     * mask are undefined (all zero here) */
    case CL_DEVICE_UUID_KHR: {
        unsigned char uuid[CL_UUID_SIZE_KHR];
        device_uuid(device, uuid);
        return answer(out, uuid, sizeof uuid);
    }
    case CL_DRIVER_UUID_KHR: {
        unsigned char uuid[CL_UUID_SIZE_KHR];
        if (!cc_driver_uuid(uuid))
            return CL_OUT_OF_RESOURCES;
        return answer(out, uuid, sizeof uuid);
    }
    case CL_DEVICE_LUID_VALID_KHR: return answer_bool(out, CL_FALSE);
    case CL_DEVICE_LUID_KHR: {
        unsigned char luid[CL_LUID_SIZE_KHR] = {0};
        return answer(out, luid, sizeof luid);
    }
    case CL_DEVICE_NODE_MASK_KHR: return answer_uint(out, 0);
    case CL_DEVICE_PROFILE: return answer_string(out, "FULL_PROFILE");
    case CL_DEVICE_VERSION: return answer_string(out, "OpenCL 2.2 cpucl");
    case CL_DEVICE_OPENCL_C_VERSION: return answer_string(out, "OpenCL C 2.0 cpucl");
    case CL_DEVICE_EXTENSIONS: {
        const char *extensions = api_device_extensions();
        if (!extensions)
            return CL_OUT_OF_HOST_MEMORY;
        return answer_string(out, extensions);
    }
    case CL_DEVICE_IL_VERSION:
        /* clCreateProgramWithIL takes SPIR-V 1.0-1.6 through the
         * SPIRV-LLVM-Translator (src/compiler/spirv.c; what it cannot read
         * of 1.4-1.6 is rewritten first: spirv_fixes.c) */
        return answer_string(
            out, "SPIR-V_1.0 SPIR-V_1.1 SPIR-V_1.2 SPIR-V_1.3 SPIR-V_1.4 SPIR-V_1.5 SPIR-V_1.6");
    /* cl_khr_spirv_queries */
    case CL_DEVICE_SPIRV_EXTENDED_INSTRUCTION_SETS_KHR:
        return answer(out, spirv_instruction_sets, sizeof spirv_instruction_sets);
    case CL_DEVICE_SPIRV_EXTENSIONS_KHR:
        return answer(out, spirv_extensions, sizeof spirv_extensions);
    /* cl_ext_cxx_for_opencl: -cl-std=CLC++ is Clang's C++ for OpenCL 1.0
     * (src/compiler/options.c) */
    case CL_DEVICE_CXX_FOR_OPENCL_NUMERIC_VERSION_EXT:
        return answer_uint(out, CL_MAKE_VERSION_KHR(1, 0, 0));
    /* cl_khr_external_memory: Linux dma_bufs (external_memory.c) */
    case CL_DEVICE_EXTERNAL_MEMORY_IMPORT_HANDLE_TYPES_KHR: {
        cl_external_memory_handle_type_khr types[] = {CL_EXTERNAL_MEMORY_HANDLE_DMA_BUF_KHR};
        return answer(out, types, sizeof types);
    }
    /* cl_khr_semaphore: binary semaphores (semaphore.c) */
    case CL_DEVICE_SEMAPHORE_TYPES_KHR: {
        cl_semaphore_type_khr types[] = {CL_SEMAPHORE_TYPE_BINARY_KHR};
        return answer(out, types, sizeof types);
    }
    /* cl_khr_command_buffer: recorded kernels may print and enqueue kernels
     * (they run as any launch does); a buffer may run again while it runs
     * (each run is copies of its own); any host queue may run a buffer */
    case CL_DEVICE_COMMAND_BUFFER_CAPABILITIES_KHR:
        return answer_ulong(out, CL_COMMAND_BUFFER_CAPABILITY_KERNEL_PRINTF_KHR |
                                     CL_COMMAND_BUFFER_CAPABILITY_DEVICE_SIDE_ENQUEUE_KHR |
                                     CL_COMMAND_BUFFER_CAPABILITY_SIMULTANEOUS_USE_KHR);
    /* cl_khr_command_buffer_mutable_dispatch: every field may be updated */
    case CL_DEVICE_MUTABLE_DISPATCH_CAPABILITIES_KHR: return answer_ulong(out, API_MUTABLE_FIELDS);
    case CL_DEVICE_COMMAND_BUFFER_REQUIRED_QUEUE_PROPERTIES_KHR: return answer_ulong(out, 0);
    case CL_DEVICE_COMMAND_BUFFER_SUPPORTED_QUEUE_PROPERTIES_KHR:
        return answer_ulong(out, API_COMMAND_BUFFER_QUEUE_PROPERTIES);
    case CL_DEVICE_SINGLE_FP_ATOMIC_CAPABILITIES_EXT:
    case CL_DEVICE_DOUBLE_FP_ATOMIC_CAPABILITIES_EXT:
    case CL_DEVICE_HALF_FP_ATOMIC_CAPABILITIES_EXT: return answer_ulong(out, FP_ATOMICS);
    /* all three clocks are the time-stamp counter (src/builtins/clock.cl) */
    case CL_DEVICE_KERNEL_CLOCK_CAPABILITIES_KHR:
        return answer_ulong(out, CL_DEVICE_KERNEL_CLOCK_SCOPE_DEVICE_KHR |
                                     CL_DEVICE_KERNEL_CLOCK_SCOPE_WORK_GROUP_KHR |
                                     CL_DEVICE_KERNEL_CLOCK_SCOPE_SUB_GROUP_KHR);
    case CL_DEVICE_SPIRV_CAPABILITIES_KHR:
        return answer(out, spirv_capabilities, sizeof spirv_capabilities);
    case CL_DEVICE_BUILT_IN_KERNELS: return answer_string(out, "");
    /* cl_khr_extended_versioning */
    case CL_DEVICE_NUMERIC_VERSION_KHR: return answer_uint(out, CL_MAKE_VERSION_KHR(2, 2, 0));
    case CL_DEVICE_OPENCL_C_NUMERIC_VERSION_KHR:
        return answer_uint(out, CL_MAKE_VERSION_KHR(2, 0, 0));
    case CL_DEVICE_EXTENSIONS_WITH_VERSION_KHR: {
        const char *extensions = api_device_extensions();
        size_t count = 0;
        cl_name_version_khr *list = extensions ? api_extension_versions(extensions, &count) : NULL;
        if (!list)
            return CL_OUT_OF_HOST_MEMORY;
        cl_int err = answer(out, list, count * sizeof *list);
        free(list);
        return err;
    }
    case CL_DEVICE_ILS_WITH_VERSION_KHR:
        return answer(out, api_il_versions, sizeof api_il_versions);
    case CL_DEVICE_BUILT_IN_KERNELS_WITH_VERSION_KHR: return answer(out, NULL, 0);
    case CL_DEVICE_PLATFORM: {
        cl_platform_id platform = rt_platform();
        return answer(out, &platform, sizeof platform);
    }
    case CL_DEVICE_AVAILABLE:
    case CL_DEVICE_COMPILER_AVAILABLE:
    case CL_DEVICE_LINKER_AVAILABLE: return answer_bool(out, CL_TRUE);

    /* compute and work-items */
    case CL_DEVICE_MAX_COMPUTE_UNITS: return answer_uint(out, device->compute_units);
    case CL_DEVICE_MAX_CLOCK_FREQUENCY:
        return answer_uint(out, topology->clock_mhz); /* MHz; 0 when unknown */
    case CL_DEVICE_ADDRESS_BITS: return answer_uint(out, 64);
    case CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS: return answer_uint(out, 3);
    case CL_DEVICE_MAX_WORK_GROUP_SIZE:
        return answer_size(out, api_device_max_work_group_size(device));
    case CL_DEVICE_MAX_WORK_ITEM_SIZES: {
        size_t sizes[3] = {MAX_WORK_GROUP_SIZE, MAX_WORK_GROUP_SIZE, MAX_WORK_GROUP_SIZE};
        return answer(out, sizes, sizeof sizes);
    }
    case CL_DEVICE_MAX_PARAMETER_SIZE: return answer_size(out, 4096); /* table 4.3: at least 1024 */
    case CL_DEVICE_PROFILING_TIMER_RESOLUTION:
        return answer_size(out, 1); /* ns: rt_now_ns reads CLOCK_MONOTONIC */
    case CL_DEVICE_EXECUTION_CAPABILITIES:
        return answer_ulong(out, CL_EXEC_KERNEL | CL_EXEC_NATIVE_KERNEL);
    case CL_DEVICE_PRINTF_BUFFER_SIZE:
        /* Table 4.3's full-profile minimum, 1 MiB: the most one printf
         * call writes (src/devices/cpu/printf.c). */
        return answer_size(out, 1 * MIB);
    case CL_DEVICE_PREFERRED_INTEROP_USER_SYNC: return answer_bool(out, CL_TRUE);

    /* vector widths: as many lanes as the widest register holds */
    /* the widest vector register kernels are compiled for (the host's, or
     * CPUCL_ABI_LEVEL's): the loop vectorizer runs that many bytes of
     * work-items at once (DESIGN: kernels as work-group functions) */
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR:
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR:
        return answer_uint(out, cc_vector_bytes() / sizeof(cl_char));
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT:
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_SHORT:
        return answer_uint(out, cc_vector_bytes() / sizeof(cl_short));
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT:
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_INT:
        return answer_uint(out, cc_vector_bytes() / sizeof(cl_int));
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG:
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_LONG:
        return answer_uint(out, cc_vector_bytes() / sizeof(cl_long));
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT:
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT:
        return answer_uint(out, cc_vector_bytes() / sizeof(cl_float));
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE:
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE:
        return answer_uint(out, cc_vector_bytes() / sizeof(cl_double)); /* cl_khr_fp64 */
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF:
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF:
        /* cl_khr_fp16: half arithmetic runs in float lanes (src/builtins/math.cl) */
        return answer_uint(out, cc_vector_bytes() / sizeof(cl_float));

    /* floating point */
    case CL_DEVICE_SINGLE_FP_CONFIG:
        return answer_ulong(out, CL_FP_DENORM | CL_FP_INF_NAN | CL_FP_ROUND_TO_NEAREST |
                                     CL_FP_ROUND_TO_ZERO | CL_FP_ROUND_TO_INF | CL_FP_FMA |
                                     CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT);
    case CL_DEVICE_DOUBLE_FP_CONFIG:
        /* CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT is a single-precision bit only. */
        return answer_ulong(out, CL_FP_DENORM | CL_FP_INF_NAN | CL_FP_ROUND_TO_NEAREST |
                                     CL_FP_ROUND_TO_ZERO | CL_FP_ROUND_TO_INF | CL_FP_FMA);
    case CL_DEVICE_HALF_FP_CONFIG:
        /* cl_khr_fp16: computed in float (denormals kept) and rounded to
         * nearest; fma correctly rounded through double (math.cl) */
        return answer_ulong(out, CL_FP_DENORM | CL_FP_INF_NAN | CL_FP_ROUND_TO_NEAREST | CL_FP_FMA);

    /* memory */
    case CL_DEVICE_GLOBAL_MEM_SIZE: return answer_ulong(out, topology->global_mem_size);
    case CL_DEVICE_MAX_MEM_ALLOC_SIZE:
        return answer_ulong(out, api_device_max_mem_alloc_size(device));
    case CL_DEVICE_MEM_BASE_ADDR_ALIGN:
        /* bits; table 4.3: at least the largest built-in type, long16 */
        return answer_uint(out, API_MEM_BASE_ADDR_ALIGN_BITS);
    case CL_DEVICE_MIN_DATA_TYPE_ALIGN_SIZE: return answer_uint(out, 128); /* bytes: long16 */
    case CL_DEVICE_GLOBAL_MEM_CACHE_TYPE: return answer_uint(out, CL_READ_WRITE_CACHE);
    case CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE: return answer_uint(out, topology->cache_line);
    case CL_DEVICE_GLOBAL_MEM_CACHE_SIZE: {
        /* the last level: what a kernel streaming global memory sees */
        cl_ulong size = topology->l3_cache_size   ? topology->l3_cache_size
                        : topology->l2_cache_size ? topology->l2_cache_size
                                                  : topology->l1d_cache_size;
        return answer_ulong(out, size);
    }
    case CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE:
        /* table 4.3: at least 64 KiB; __constant is ordinary memory here */
        return answer_ulong(out, min_ulong(topology->global_mem_size, 4 * MIB));
    case CL_DEVICE_MAX_CONSTANT_ARGS: return answer_uint(out, 8); /* table 4.3: at least 8 */
    case CL_DEVICE_LOCAL_MEM_TYPE:
        /* __local lives in each worker's arena in ordinary memory. */
        return answer_uint(out, CL_GLOBAL);
    case CL_DEVICE_LOCAL_MEM_SIZE:
        /* table 4.3: at least 32 KiB */
        return answer_ulong(out, cpu_device_local_mem_size(device->cpu));
    case CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE:
    case CL_DEVICE_GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE:
        /* table 4.3: at least 64 KiB for the first */
        return answer_size(out, min_ulong(api_device_max_mem_alloc_size(device), 64 * MIB));
    case CL_DEVICE_ERROR_CORRECTION_SUPPORT: return answer_bool(out, CL_FALSE);
    case CL_DEVICE_HOST_UNIFIED_MEMORY:
    case CL_DEVICE_ENDIAN_LITTLE: return answer_bool(out, CL_TRUE);

    /* images: table 4.3's full-profile minimums or more */
    case CL_DEVICE_IMAGE_SUPPORT: return answer_bool(out, CL_TRUE);
    case CL_DEVICE_MAX_READ_IMAGE_ARGS: return answer_uint(out, 128);
    case CL_DEVICE_MAX_WRITE_IMAGE_ARGS:
    case CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS: return answer_uint(out, 64);
    case CL_DEVICE_MAX_SAMPLERS: return answer_uint(out, 16);
    case CL_DEVICE_IMAGE_PITCH_ALIGNMENT: return answer_uint(out, API_IMAGE_PITCH_ALIGNMENT);
    case CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT:
        return answer_uint(out, API_IMAGE_BASE_ADDRESS_ALIGNMENT);
    case CL_DEVICE_IMAGE2D_MAX_WIDTH:
    case CL_DEVICE_IMAGE2D_MAX_HEIGHT: return answer_size(out, API_IMAGE2D_MAX);
    case CL_DEVICE_IMAGE3D_MAX_WIDTH:
    case CL_DEVICE_IMAGE3D_MAX_HEIGHT:
    case CL_DEVICE_IMAGE3D_MAX_DEPTH: return answer_size(out, API_IMAGE3D_MAX);
    case CL_DEVICE_IMAGE_MAX_BUFFER_SIZE: return answer_size(out, API_IMAGE_MAX_BUFFER_SIZE);
    case CL_DEVICE_IMAGE_MAX_ARRAY_SIZE: return answer_size(out, API_IMAGE_MAX_ARRAY_SIZE);

    /* queues (CL_DEVICE_QUEUE_PROPERTIES is the same query, 1.x's name) */
    case CL_DEVICE_QUEUE_ON_HOST_PROPERTIES:
        return answer_ulong(out,
                            CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE);
    /* On-device queues (device-side enqueue): out-of-order by definition
     * (5.1); commands and events are allocated as they come, so the sizes
     * are table 4.3's minimums without being a hard limit. */
    case CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES:
        return answer_ulong(out,
                            CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE);
    case CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE:
        return answer_uint(out, API_DEVICE_QUEUE_PREFERRED_SIZE);
    case CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE: return answer_uint(out, API_DEVICE_QUEUE_MAX_SIZE);
    case CL_DEVICE_MAX_ON_DEVICE_QUEUES: return answer_uint(out, API_MAX_DEVICE_QUEUES);
    case CL_DEVICE_MAX_ON_DEVICE_EVENTS: return answer_uint(out, API_MAX_DEVICE_EVENTS);

    /* SVM and atomics. The device is the host: SVM memory is ordinary
     * memory, so every kind of sharing holds (src/api/svm.c). */
    case CL_DEVICE_SVM_CAPABILITIES:
        return answer_ulong(out, CL_DEVICE_SVM_COARSE_GRAIN_BUFFER |
                                     CL_DEVICE_SVM_FINE_GRAIN_BUFFER |
                                     CL_DEVICE_SVM_FINE_GRAIN_SYSTEM | CL_DEVICE_SVM_ATOMICS);
    case CL_DEVICE_PREFERRED_PLATFORM_ATOMIC_ALIGNMENT:
    case CL_DEVICE_PREFERRED_GLOBAL_ATOMIC_ALIGNMENT:
    case CL_DEVICE_PREFERRED_LOCAL_ATOMIC_ALIGNMENT:
        return answer_uint(out, 0); /* 0: the type's natural alignment */
#ifdef CL_VERSION_3_0
    /* 3.0 names for what every 2.x device has (the CTS asks them of 2.x
     * devices too): all memory orders and scopes of OpenCL C 2.0. */
    case CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES:
    case CL_DEVICE_ATOMIC_FENCE_CAPABILITIES:
        return answer_ulong(out,
                            CL_DEVICE_ATOMIC_ORDER_RELAXED | CL_DEVICE_ATOMIC_ORDER_ACQ_REL |
                                CL_DEVICE_ATOMIC_ORDER_SEQ_CST | CL_DEVICE_ATOMIC_SCOPE_WORK_ITEM |
                                CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP | CL_DEVICE_ATOMIC_SCOPE_DEVICE |
                                CL_DEVICE_ATOMIC_SCOPE_ALL_DEVICES);
#endif

    /* pipes (src/api/pipe.c, src/builtins/pipe.cl) */
    case CL_DEVICE_MAX_PIPE_ARGS: return answer_uint(out, API_MAX_PIPE_ARGS);
    case CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS:
        return answer_uint(out, API_PIPE_MAX_ACTIVE_RESERVATIONS);
    case CL_DEVICE_PIPE_MAX_PACKET_SIZE: return answer_uint(out, API_PIPE_MAX_PACKET_SIZE);
#ifdef CL_VERSION_3_0
    case CL_DEVICE_PIPE_SUPPORT: return answer_bool(out, CL_TRUE);
#endif

    case CL_DEVICE_MAX_NUM_SUB_GROUPS:
        /* a kernel may have sub-groups of one work-item (its non-uniform
         * sub-group calls: src/compiler/workgroup.c) */
        return answer_uint(out, MAX_WORK_GROUP_SIZE);
    case CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS:
        return answer_bool(out, CL_TRUE); /* src/devices/cpu/fibers.c: yields at atomics */

    /* cl_khr_integer_dot_product 2.0.0: both input forms (src/builtins/
     * integer.cl). "Accelerated" would mean faster than the same product
     * written with other instructions; the library's is exactly that. */
    case CL_DEVICE_INTEGER_DOT_PRODUCT_CAPABILITIES_KHR:
        return answer_ulong(out, CL_DEVICE_INTEGER_DOT_PRODUCT_INPUT_4x8BIT_PACKED_KHR |
                                     CL_DEVICE_INTEGER_DOT_PRODUCT_INPUT_4x8BIT_KHR);
    case CL_DEVICE_INTEGER_DOT_PRODUCT_ACCELERATION_PROPERTIES_8BIT_KHR:
    case CL_DEVICE_INTEGER_DOT_PRODUCT_ACCELERATION_PROPERTIES_4x8BIT_PACKED_KHR: {
        cl_device_integer_dot_product_acceleration_properties_khr none = {0};
        return answer(out, &none, sizeof none);
    }

    /* partitioning (4.3): equally, by counts, by affinity domain */
    case CL_DEVICE_PARENT_DEVICE: return answer(out, &device->parent, sizeof device->parent);
    case CL_DEVICE_PARTITION_MAX_SUB_DEVICES: return answer_uint(out, device->compute_units);
    case CL_DEVICE_PARTITION_PROPERTIES: {
        static const cl_device_partition_property types[] = {
            CL_DEVICE_PARTITION_EQUALLY, CL_DEVICE_PARTITION_BY_COUNTS,
            CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN};
        return answer(out, types, sizeof types);
    }
    case CL_DEVICE_PARTITION_AFFINITY_DOMAIN:
        return answer_ulong(out, api_affinity_domains(device));
    case CL_DEVICE_PARTITION_TYPE:
        /* 4.2: the properties the sub-device was made with; a root device
         * answers size 0. */
        return answer(out, device->partition, device->partition_size);
    case CL_DEVICE_REFERENCE_COUNT:
        /* 4.3: a root device's count is always 1 */
        return answer_uint(out, device->parent ? atomic_load(&device->obj.refcount) : 1);

    default: return CL_INVALID_VALUE;
    }
}

API_EXPORT CL_API_ENTRY cl_int CL_API_CALL clGetDeviceInfo(cl_device_id device,
                                                           cl_device_info param_name,
                                                           size_t param_value_size,
                                                           void *param_value,
                                                           size_t *param_value_size_ret)
{
    if (!api_valid_device(device))
        return CL_INVALID_DEVICE;
    struct info_out out = {param_value_size, param_value, param_value_size_ret};
    return device_info(device, param_name, &out);
}
