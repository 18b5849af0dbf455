/* test_platform_device.c - the platform and its device (API spec 4.1-4.3):
 * every info query answers with the size of its type and a value within
 * table 4.3's full-profile limits; device lookup by type; sub-devices as
 * far as CL_DEVICE_PARTITION_PROPERTIES offers them; the device and host
 * timers; the errors of each call. */
#include "../harness.h"

/* A query whose answer is `size` bytes: asked for its size, then read. */
static void check_size(cl_device_id device, cl_device_info name, const char *text, size_t size)
{
    size_t got = 0;
    cl_int err = clGetDeviceInfo(device, name, 0, NULL, &got);
    if (err != CL_SUCCESS || got != size) {
        HARNESS_FAIL("clGetDeviceInfo(%s): %s, size %zu, expected %zu\n", text,
                     harness_error_name(err), got, size);
        return;
    }
    harness_passed++;
    unsigned char value[64];
    CHECK_OK(clGetDeviceInfo(device, name, sizeof value, value, NULL));
    if (size > 0)
        CHECK_ERR(clGetDeviceInfo(device, name, size - 1, value, NULL), CL_INVALID_VALUE);
}

#define SIZE_OF(name, type) check_size(device, name, #name, sizeof(type))

static cl_ulong device_ulong(cl_device_id device, cl_device_info name)
{
    cl_ulong value = 0;
    CHECK_OK(clGetDeviceInfo(device, name, sizeof value, &value, NULL));
    return value;
}

static cl_uint device_uint(cl_device_id device, cl_device_info name)
{
    cl_uint value = 0;
    CHECK_OK(clGetDeviceInfo(device, name, sizeof value, &value, NULL));
    return value;
}

static size_t device_size(cl_device_id device, cl_device_info name)
{
    size_t value = 0;
    CHECK_OK(clGetDeviceInfo(device, name, sizeof value, &value, NULL));
    return value;
}

/* A string query: the size it reports is strlen + 1, and the text ends in
 * its NUL. Returns the text, malloc'ed. */
static char *device_string(cl_device_id device, cl_device_info name)
{
    size_t size = 0;
    CHECK_OK(clGetDeviceInfo(device, name, 0, NULL, &size));
    char *text = calloc(size + 1, 1);
    size_t size2 = 0;
    CHECK_OK(clGetDeviceInfo(device, name, size, text, &size2));
    CHECK(size > 0 && size2 == size && strlen(text) + 1 == size);
    return text;
}

static int has_word(const char *list, const char *word)
{
    size_t n = strlen(word);
    for (const char *p = list; (p = strstr(p, word)) != NULL; p += n)
        if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == 0))
            return 1;
    return 0;
}

static void test_platform(cl_platform_id platform)
{
    cl_uint count = 0;
    CHECK_OK(clGetPlatformIDs(0, NULL, &count));
    CHECK(count >= 1);
    cl_platform_id first;
    CHECK_ERR(clGetPlatformIDs(0, &first, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clGetPlatformIDs(1, NULL, NULL), CL_INVALID_VALUE);

    struct {
        cl_platform_info name;
        const char *want_prefix;
    } strings[] = {
        {CL_PLATFORM_PROFILE, "FULL_PROFILE"}, {CL_PLATFORM_VERSION, "OpenCL 2.2 "},
        {CL_PLATFORM_NAME, "cpucl"},           {CL_PLATFORM_VENDOR, ""},
        {CL_PLATFORM_EXTENSIONS, ""},          {CL_PLATFORM_ICD_SUFFIX_KHR, ""},
    };
    for (size_t i = 0; i < sizeof strings / sizeof strings[0]; i++) {
        size_t size = 0;
        char text[4096] = "";
        CHECK_OK(clGetPlatformInfo(platform, strings[i].name, 0, NULL, &size));
        CHECK(size > 0 && size <= sizeof text);
        CHECK_OK(clGetPlatformInfo(platform, strings[i].name, sizeof text, text, NULL));
        CHECK(strlen(text) + 1 == size);
        CHECK(!strncmp(text, strings[i].want_prefix, strlen(strings[i].want_prefix)));
        CHECK_ERR(clGetPlatformInfo(platform, strings[i].name, size - 1, text, NULL),
                  CL_INVALID_VALUE);
    }
    char extensions[4096] = "";
    clGetPlatformInfo(platform, CL_PLATFORM_EXTENSIONS, sizeof extensions, extensions, NULL);
    CHECK(has_word(extensions, "cl_khr_icd"));
    cl_ulong resolution = 0;
    size_t size = 0;
    CHECK_OK(clGetPlatformInfo(platform, CL_PLATFORM_HOST_TIMER_RESOLUTION, sizeof resolution,
                               &resolution, &size));
    CHECK(size == sizeof resolution && resolution > 0);
    CHECK_ERR(clGetPlatformInfo(platform, 0x7fff, sizeof extensions, extensions, NULL),
              CL_INVALID_VALUE);
}

static void test_device_ids(cl_platform_id platform, cl_device_id device)
{
    cl_device_id found = NULL;
    cl_uint count = 0;
    const cl_device_type types[] = {CL_DEVICE_TYPE_CPU, CL_DEVICE_TYPE_DEFAULT, CL_DEVICE_TYPE_ALL};
    for (int i = 0; i < 3; i++) {
        found = NULL;
        count = 0;
        CHECK_OK(clGetDeviceIDs(platform, types[i], 1, &found, &count));
        CHECK(found == device && count == 1);
    }
    CHECK_ERR(clGetDeviceIDs(platform, CL_DEVICE_TYPE_GPU, 1, &found, &count), CL_DEVICE_NOT_FOUND);
    CHECK_ERR(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ACCELERATOR, 0, NULL, &count),
              CL_DEVICE_NOT_FOUND);
    CHECK_ERR(clGetDeviceIDs(platform, (cl_device_type)1 << 40, 1, &found, NULL),
              CL_INVALID_DEVICE_TYPE);
    CHECK_ERR(clGetDeviceIDs(platform, CL_DEVICE_TYPE_CPU, 0, &found, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clGetDeviceIDs(platform, CL_DEVICE_TYPE_CPU, 1, NULL, NULL), CL_INVALID_VALUE);
    /* A handle of another type where the platform belongs. */
    CHECK_ERR(clGetDeviceIDs((cl_platform_id)device, CL_DEVICE_TYPE_CPU, 1, &found, NULL),
              CL_INVALID_PLATFORM);
}

static void test_device_info_sizes(cl_device_id device)
{
    SIZE_OF(CL_DEVICE_TYPE, cl_device_type);
    SIZE_OF(CL_DEVICE_VENDOR_ID, cl_uint);
    SIZE_OF(CL_DEVICE_MAX_COMPUTE_UNITS, cl_uint);
    SIZE_OF(CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS, cl_uint);
    SIZE_OF(CL_DEVICE_MAX_WORK_GROUP_SIZE, size_t);
    SIZE_OF(CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR, cl_uint);
    SIZE_OF(CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT, cl_uint);
    SIZE_OF(CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF, cl_uint);
    SIZE_OF(CL_DEVICE_NATIVE_VECTOR_WIDTH_INT, cl_uint);
    SIZE_OF(CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE, cl_uint);
    SIZE_OF(CL_DEVICE_MAX_CLOCK_FREQUENCY, cl_uint);
    SIZE_OF(CL_DEVICE_ADDRESS_BITS, cl_uint);
    SIZE_OF(CL_DEVICE_MAX_MEM_ALLOC_SIZE, cl_ulong);
    SIZE_OF(CL_DEVICE_IMAGE_SUPPORT, cl_bool);
    SIZE_OF(CL_DEVICE_MAX_READ_IMAGE_ARGS, cl_uint);
    SIZE_OF(CL_DEVICE_IMAGE2D_MAX_WIDTH, size_t);
    SIZE_OF(CL_DEVICE_IMAGE_MAX_BUFFER_SIZE, size_t);
    SIZE_OF(CL_DEVICE_MAX_SAMPLERS, cl_uint);
    SIZE_OF(CL_DEVICE_MAX_PARAMETER_SIZE, size_t);
    SIZE_OF(CL_DEVICE_MEM_BASE_ADDR_ALIGN, cl_uint);
    SIZE_OF(CL_DEVICE_SINGLE_FP_CONFIG, cl_device_fp_config);
    SIZE_OF(CL_DEVICE_DOUBLE_FP_CONFIG, cl_device_fp_config);
    SIZE_OF(CL_DEVICE_GLOBAL_MEM_CACHE_TYPE, cl_device_mem_cache_type);
    SIZE_OF(CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE, cl_uint);
    SIZE_OF(CL_DEVICE_GLOBAL_MEM_CACHE_SIZE, cl_ulong);
    SIZE_OF(CL_DEVICE_GLOBAL_MEM_SIZE, cl_ulong);
    SIZE_OF(CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE, cl_ulong);
    SIZE_OF(CL_DEVICE_MAX_CONSTANT_ARGS, cl_uint);
    SIZE_OF(CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE, size_t);
    SIZE_OF(CL_DEVICE_GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE, size_t);
    SIZE_OF(CL_DEVICE_LOCAL_MEM_TYPE, cl_device_local_mem_type);
    SIZE_OF(CL_DEVICE_LOCAL_MEM_SIZE, cl_ulong);
    SIZE_OF(CL_DEVICE_ERROR_CORRECTION_SUPPORT, cl_bool);
    SIZE_OF(CL_DEVICE_PROFILING_TIMER_RESOLUTION, size_t);
    SIZE_OF(CL_DEVICE_ENDIAN_LITTLE, cl_bool);
    SIZE_OF(CL_DEVICE_AVAILABLE, cl_bool);
    SIZE_OF(CL_DEVICE_COMPILER_AVAILABLE, cl_bool);
    SIZE_OF(CL_DEVICE_LINKER_AVAILABLE, cl_bool);
    SIZE_OF(CL_DEVICE_EXECUTION_CAPABILITIES, cl_device_exec_capabilities);
    SIZE_OF(CL_DEVICE_QUEUE_ON_HOST_PROPERTIES, cl_command_queue_properties);
    SIZE_OF(CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES, cl_command_queue_properties);
    SIZE_OF(CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE, cl_uint);
    SIZE_OF(CL_DEVICE_MAX_ON_DEVICE_QUEUES, cl_uint);
    SIZE_OF(CL_DEVICE_PLATFORM, cl_platform_id);
    SIZE_OF(CL_DEVICE_PRINTF_BUFFER_SIZE, size_t);
    SIZE_OF(CL_DEVICE_PREFERRED_INTEROP_USER_SYNC, cl_bool);
    SIZE_OF(CL_DEVICE_PARENT_DEVICE, cl_device_id);
    SIZE_OF(CL_DEVICE_PARTITION_MAX_SUB_DEVICES, cl_uint);
    SIZE_OF(CL_DEVICE_PARTITION_AFFINITY_DOMAIN, cl_device_affinity_domain);
    SIZE_OF(CL_DEVICE_REFERENCE_COUNT, cl_uint);
    SIZE_OF(CL_DEVICE_SVM_CAPABILITIES, cl_device_svm_capabilities);
    SIZE_OF(CL_DEVICE_PREFERRED_PLATFORM_ATOMIC_ALIGNMENT, cl_uint);
    SIZE_OF(CL_DEVICE_MAX_PIPE_ARGS, cl_uint);
    SIZE_OF(CL_DEVICE_MAX_NUM_SUB_GROUPS, cl_uint);
    SIZE_OF(CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS, cl_bool);
    SIZE_OF(CL_DEVICE_MAX_WORK_ITEM_SIZES, size_t[3]);
}

static void test_device_values(cl_platform_id platform, cl_device_id device)
{
    CHECK(device_ulong(device, CL_DEVICE_TYPE) & CL_DEVICE_TYPE_CPU);
    char *profile = device_string(device, CL_DEVICE_PROFILE);
    CHECK(!strcmp(profile, "FULL_PROFILE"));
    char *version = device_string(device, CL_DEVICE_VERSION);
    CHECK(!strncmp(version, "OpenCL 2.2 ", 11));
    char *c_version = device_string(device, CL_DEVICE_OPENCL_C_VERSION);
    CHECK(!strncmp(c_version, "OpenCL C 2.0 ", 13));
    char *name = device_string(device, CL_DEVICE_NAME);
    char *vendor = device_string(device, CL_DEVICE_VENDOR);
    char *driver = device_string(device, CL_DRIVER_VERSION);
    CHECK(strlen(name) > 0 && strlen(vendor) > 0 && strlen(driver) > 0);
    char *extensions = device_string(device, CL_DEVICE_EXTENSIONS);
    CHECK(has_word(extensions, "cl_khr_byte_addressable_store"));
    CHECK(has_word(extensions, "cl_khr_global_int32_base_atomics"));
    CHECK(has_word(extensions, "cl_khr_local_int32_extended_atomics"));
    /* 4.1: the platform's list is what every device supports: with one
     * device, the same words. */
    char platform_extensions[4096] = "";
    clGetPlatformInfo(platform, CL_PLATFORM_EXTENSIONS, sizeof platform_extensions,
                      platform_extensions, NULL);
    CHECK(!strcmp(platform_extensions, extensions));
    char *il = device_string(device, CL_DEVICE_IL_VERSION);
    if (has_word(extensions, "cl_khr_il_program"))
        CHECK(strstr(il, "SPIR-V_1.") != NULL);
    free(il);
    char *builtin_kernels = device_string(device, CL_DEVICE_BUILT_IN_KERNELS);
    free(builtin_kernels);

    cl_platform_id owner = NULL;
    CHECK_OK(clGetDeviceInfo(device, CL_DEVICE_PLATFORM, sizeof owner, &owner, NULL));
    CHECK(owner == platform);

    /* Table 4.3, full profile. */
    cl_uint dims = device_uint(device, CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS);
    CHECK(dims >= 3);
    size_t sizes[3] = {0, 0, 0};
    CHECK_OK(clGetDeviceInfo(device, CL_DEVICE_MAX_WORK_ITEM_SIZES, sizeof sizes, sizes, NULL));
    size_t max_group = device_size(device, CL_DEVICE_MAX_WORK_GROUP_SIZE);
    CHECK(sizes[0] >= 1 && sizes[1] >= 1 && sizes[2] >= 1 && max_group >= 1);
    CHECK(device_uint(device, CL_DEVICE_MAX_COMPUTE_UNITS) >= 1);
    cl_uint address_bits = device_uint(device, CL_DEVICE_ADDRESS_BITS);
    CHECK(address_bits == 32 || address_bits == 64);
    cl_ulong global = device_ulong(device, CL_DEVICE_GLOBAL_MEM_SIZE);
    cl_ulong max_alloc = device_ulong(device, CL_DEVICE_MAX_MEM_ALLOC_SIZE);
    cl_ulong quarter = global / 4 > 128u << 20 ? global / 4 : 128u << 20;
    CHECK(max_alloc >= quarter && max_alloc <= global);
    CHECK(device_size(device, CL_DEVICE_MAX_PARAMETER_SIZE) >= 1024);
    CHECK(device_uint(device, CL_DEVICE_MEM_BASE_ADDR_ALIGN) >= 1024); /* bits: long16 */
    CHECK(device_ulong(device, CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE) >= 64 * 1024);
    CHECK(device_uint(device, CL_DEVICE_MAX_CONSTANT_ARGS) >= 8);
    CHECK(device_ulong(device, CL_DEVICE_LOCAL_MEM_SIZE) >= 32 * 1024);
    CHECK(device_size(device, CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE) >= 64 * 1024);
    CHECK(device_size(device, CL_DEVICE_PRINTF_BUFFER_SIZE) >= 1024 * 1024);
    CHECK(device_size(device, CL_DEVICE_PROFILING_TIMER_RESOLUTION) > 0);
    cl_ulong single = device_ulong(device, CL_DEVICE_SINGLE_FP_CONFIG);
    CHECK((single & (CL_FP_ROUND_TO_NEAREST | CL_FP_INF_NAN)) ==
          (CL_FP_ROUND_TO_NEAREST | CL_FP_INF_NAN));
    cl_ulong dbl = device_ulong(device, CL_DEVICE_DOUBLE_FP_CONFIG);
    if (has_word(extensions, "cl_khr_fp64")) {
        cl_ulong needed = CL_FP_FMA | CL_FP_ROUND_TO_NEAREST | CL_FP_ROUND_TO_ZERO |
                          CL_FP_ROUND_TO_INF | CL_FP_INF_NAN | CL_FP_DENORM;
        CHECK((dbl & needed) == needed);
        CHECK(device_uint(device, CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE) > 0);
    } else {
        CHECK(dbl == 0);
    }
    if (!has_word(extensions, "cl_khr_fp16"))
        CHECK(device_uint(device, CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF) == 0);
    /* The native widths are the vector registers kernels are compiled for:
     * the host's widest, or the level CPUCL_ABI_LEVEL names (README). */
    const char *level = getenv("CPUCL_ABI_LEVEL");
    cl_uint lanes = __builtin_cpu_supports("avx512f") ? 16 : __builtin_cpu_supports("avx") ? 8 : 4;
    if (level && !strcmp(level, "x86-64-v3"))
        lanes = 8;
    else if (level && !strcmp(level, "x86-64"))
        lanes = 4;
    CHECK(device_uint(device, CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT) == lanes);
    CHECK(device_uint(device, CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR) == 4 * lanes);
    CHECK(device_uint(device, CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT) == lanes);
    cl_bool yes = CL_FALSE;
    CHECK_OK(clGetDeviceInfo(device, CL_DEVICE_AVAILABLE, sizeof yes, &yes, NULL));
    CHECK(yes == CL_TRUE);
    CHECK_OK(clGetDeviceInfo(device, CL_DEVICE_COMPILER_AVAILABLE, sizeof yes, &yes, NULL));
    CHECK(yes == CL_TRUE);
    CHECK_OK(clGetDeviceInfo(device, CL_DEVICE_ENDIAN_LITTLE, sizeof yes, &yes, NULL));
    CHECK(yes == CL_TRUE);
    CHECK(device_ulong(device, CL_DEVICE_EXECUTION_CAPABILITIES) & CL_EXEC_KERNEL);
    CHECK(device_ulong(device, CL_DEVICE_QUEUE_ON_HOST_PROPERTIES) & CL_QUEUE_PROFILING_ENABLE);
    /* 4.2: OpenCL 2.x devices share at least coarse-grain SVM buffers. */
    CHECK(device_ulong(device, CL_DEVICE_SVM_CAPABILITIES) & CL_DEVICE_SVM_COARSE_GRAIN_BUFFER);
    cl_bool images = CL_FALSE;
    CHECK_OK(clGetDeviceInfo(device, CL_DEVICE_IMAGE_SUPPORT, sizeof images, &images, NULL));
    if (images) /* table 4.3 */
        CHECK(device_uint(device, CL_DEVICE_MAX_READ_IMAGE_ARGS) >= 128);

    /* A root device: no parent, reference count 1, retain/release change
     * nothing (4.3). */
    cl_device_id parent = (cl_device_id)1;
    CHECK_OK(clGetDeviceInfo(device, CL_DEVICE_PARENT_DEVICE, sizeof parent, &parent, NULL));
    CHECK(parent == NULL);
    CHECK_OK(clRetainDevice(device));
    CHECK_EQ(device_uint(device, CL_DEVICE_REFERENCE_COUNT), 1);
    CHECK_OK(clReleaseDevice(device));
    CHECK_OK(clReleaseDevice(device)); /* still valid: a root device is never freed */
    CHECK_EQ(device_uint(device, CL_DEVICE_REFERENCE_COUNT), 1);

    /* Errors. */
    CHECK_ERR(clGetDeviceInfo(device, 0x7fffffff, sizeof yes, &yes, NULL), CL_INVALID_VALUE);
    char tiny[2];
    CHECK_ERR(clGetDeviceInfo(device, CL_DEVICE_NAME, sizeof tiny, tiny, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clGetDeviceInfo(NULL, CL_DEVICE_NAME, 0, NULL, NULL), CL_INVALID_DEVICE);
    free(profile), free(version), free(c_version), free(name), free(vendor), free(driver);
    free(extensions);
}

/* clCreateSubDevices: whatever CL_DEVICE_PARTITION_PROPERTIES lists works
 * and gives devices that run kernels; what it does not list is
 * CL_INVALID_VALUE (4.3). */
static void test_sub_devices(cl_device_id device)
{
    cl_device_partition_property supported[8] = {0};
    size_t size = 0;
    CHECK_OK(clGetDeviceInfo(device, CL_DEVICE_PARTITION_PROPERTIES, sizeof supported, supported,
                             &size));
    CHECK(size >= sizeof(cl_device_partition_property));
    cl_uint units = device_uint(device, CL_DEVICE_MAX_COMPUTE_UNITS);
    cl_uint max_sub = device_uint(device, CL_DEVICE_PARTITION_MAX_SUB_DEVICES);
    int equally = 0;
    for (size_t i = 0; i < size / sizeof supported[0] && supported[i]; i++)
        equally |= supported[i] == CL_DEVICE_PARTITION_EQUALLY;
    cl_device_partition_property by_one[] = {CL_DEVICE_PARTITION_EQUALLY, 1, 0};
    cl_device_id subs[64];
    cl_uint made = 0;
    if (!equally) {
        CHECK(max_sub == 0 || size / sizeof supported[0] > 1);
        CHECK_ERR(clCreateSubDevices(device, by_one, 64, subs, &made), CL_INVALID_VALUE);
    } else {
        CHECK(max_sub >= 1 && max_sub <= units);
        CHECK_OK(clCreateSubDevices(device, by_one, 0, NULL, &made));
        CHECK(made == units);
        if (made > 64)
            made = 64;
        CHECK_OK(clCreateSubDevices(device, by_one, made, subs, NULL));
        cl_device_id parent = NULL;
        CHECK_OK(clGetDeviceInfo(subs[0], CL_DEVICE_PARENT_DEVICE, sizeof parent, &parent, NULL));
        CHECK(parent == device);
        CHECK_EQ(device_uint(subs[0], CL_DEVICE_MAX_COMPUTE_UNITS), 1);
        for (cl_uint i = 0; i < made; i++)
            CHECK_OK(clReleaseDevice(subs[i]));
    }
    CHECK_ERR(clCreateSubDevices(device, NULL, 64, subs, &made), CL_INVALID_VALUE);
    cl_device_partition_property unknown[] = {0x7777, 1, 0};
    CHECK_ERR(clCreateSubDevices(device, unknown, 64, subs, &made), CL_INVALID_VALUE);
    CHECK_ERR(clCreateSubDevices(NULL, by_one, 64, subs, &made), CL_INVALID_DEVICE);
}

static void test_timers(cl_device_id device)
{
    cl_ulong host1 = 0, host2 = 0, device_time = 0, host_time = 0;
    CHECK_OK(clGetHostTimer(device, &host1));
    CHECK_OK(clGetDeviceAndHostTimer(device, &device_time, &host_time));
    CHECK_OK(clGetHostTimer(device, &host2));
    CHECK(host1 > 0 && host1 <= host_time && host_time <= host2);
    CHECK(device_time > 0);
    CHECK_ERR(clGetHostTimer(device, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clGetDeviceAndHostTimer(device, NULL, &host_time), CL_INVALID_VALUE);
    CHECK_ERR(clGetDeviceAndHostTimer(device, &device_time, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clGetHostTimer(NULL, &host1), CL_INVALID_DEVICE);
}

static void test_extension_functions(cl_platform_id platform, cl_device_id device)
{
    char extensions[4096] = "";
    clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS, sizeof extensions, extensions, NULL);
    if (has_word(extensions, "cl_khr_il_program"))
        CHECK(clGetExtensionFunctionAddressForPlatform(platform, "clCreateProgramWithILKHR") !=
              NULL);
    CHECK(clGetExtensionFunctionAddressForPlatform(platform, "clNoSuchFunctionKHR") == NULL);
}

int main(void)
{
    cl_platform_id platform;
    cl_device_id device;
    REQUIRE(harness_find_cpucl(&platform, &device));
    test_platform(platform);
    test_device_ids(platform, device);
    test_device_info_sizes(device);
    test_device_values(platform, device);
    test_sub_devices(device);
    test_timers(device);
    test_extension_functions(platform, device);
    return harness_finish();
}
