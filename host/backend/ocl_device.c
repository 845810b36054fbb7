/* ocl_device.c - OpenCL error names, device discovery, selection and the `list` table. */
#define _GNU_SOURCE
#include "clcoalesce/ocl.h"

#include <CL/cl_ext.h>
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Older headers lack these; the values are fixed by the extension specifications. */
#ifndef CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV
#define CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV 0x4000
#define CL_DEVICE_COMPUTE_CAPABILITY_MINOR_NV 0x4001
#endif
#ifndef CL_DEVICE_WARP_SIZE_NV
#define CL_DEVICE_WARP_SIZE_NV 0x4003
#endif
#ifndef CL_DEVICE_PCI_BUS_INFO_KHR
#define CL_DEVICE_PCI_BUS_INFO_KHR 0x410F
typedef struct {
    cl_uint pci_domain, pci_bus, pci_device, pci_function;
} cl_device_pci_bus_info_khr;
#endif

/* ------------------------------------------------------------------ error names */

const char *clc_cl_errname(cl_int err)
{
    switch (err) {
#define E(x) case x: return #x;
    E(CL_SUCCESS) E(CL_DEVICE_NOT_FOUND) E(CL_DEVICE_NOT_AVAILABLE) E(CL_COMPILER_NOT_AVAILABLE)
    E(CL_MEM_OBJECT_ALLOCATION_FAILURE) E(CL_OUT_OF_RESOURCES) E(CL_OUT_OF_HOST_MEMORY)
    E(CL_PROFILING_INFO_NOT_AVAILABLE) E(CL_MEM_COPY_OVERLAP) E(CL_IMAGE_FORMAT_MISMATCH)
    E(CL_IMAGE_FORMAT_NOT_SUPPORTED) E(CL_BUILD_PROGRAM_FAILURE) E(CL_MAP_FAILURE)
    E(CL_MISALIGNED_SUB_BUFFER_OFFSET) E(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)
    E(CL_COMPILE_PROGRAM_FAILURE) E(CL_LINKER_NOT_AVAILABLE) E(CL_LINK_PROGRAM_FAILURE)
    E(CL_DEVICE_PARTITION_FAILED) E(CL_KERNEL_ARG_INFO_NOT_AVAILABLE)
    E(CL_INVALID_VALUE) E(CL_INVALID_DEVICE_TYPE) E(CL_INVALID_PLATFORM) E(CL_INVALID_DEVICE)
    E(CL_INVALID_CONTEXT) E(CL_INVALID_QUEUE_PROPERTIES) E(CL_INVALID_COMMAND_QUEUE)
    E(CL_INVALID_HOST_PTR) E(CL_INVALID_MEM_OBJECT) E(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR)
    E(CL_INVALID_IMAGE_SIZE) E(CL_INVALID_SAMPLER) E(CL_INVALID_BINARY)
    E(CL_INVALID_BUILD_OPTIONS) E(CL_INVALID_PROGRAM) E(CL_INVALID_PROGRAM_EXECUTABLE)
    E(CL_INVALID_KERNEL_NAME) E(CL_INVALID_KERNEL_DEFINITION) E(CL_INVALID_KERNEL)
    E(CL_INVALID_ARG_INDEX) E(CL_INVALID_ARG_VALUE) E(CL_INVALID_ARG_SIZE)
    E(CL_INVALID_KERNEL_ARGS) E(CL_INVALID_WORK_DIMENSION) E(CL_INVALID_WORK_GROUP_SIZE)
    E(CL_INVALID_WORK_ITEM_SIZE) E(CL_INVALID_GLOBAL_OFFSET) E(CL_INVALID_EVENT_WAIT_LIST)
    E(CL_INVALID_EVENT) E(CL_INVALID_OPERATION) E(CL_INVALID_GL_OBJECT)
    E(CL_INVALID_BUFFER_SIZE) E(CL_INVALID_MIP_LEVEL) E(CL_INVALID_GLOBAL_WORK_SIZE)
    E(CL_INVALID_PROPERTY) E(CL_INVALID_IMAGE_DESCRIPTOR) E(CL_INVALID_COMPILER_OPTIONS)
    E(CL_INVALID_LINKER_OPTIONS) E(CL_INVALID_DEVICE_PARTITION_COUNT)
#undef E
    case -1001: return "CL_PLATFORM_NOT_FOUND_KHR";
    default: {
        static char buf[48];
        snprintf(buf, sizeof buf, "CL_UNKNOWN_ERROR(%d)", (int)err);
        return buf;
    }
    }
}

void clc_cl_fail(const char *call, cl_int err, const char *file, int line)
{
    char shown[96];
    clc_error("%s failed: %s (%s:%d)", clc_call_name(call, shown, sizeof shown),
              clc_cl_errname(err), file, line);
}

/* ------------------------------------------------------------------ known devices */

static const struct {
    const char *name_part; /* case-insensitive substring of the device name */
    uint64_t l2_bytes;
    double peak_gbps;      /* 2 x memory clock x bus width / 8 */
} known_devices[] = {
    {"H200", 60ull << 20, 4814.0},          /* 3201 MHz x 6016 bit */
    {"H100 80GB HBM3", 50ull << 20, 3352.0}, /* 2619 MHz x 5120 bit */
    {"H100 PCIe", 50ull << 20, 2039.0},
    {"H100", 50ull << 20, NAN},
    {"A100-SXM4-80GB", 40ull << 20, 2039.0},
    {"A100", 40ull << 20, 1555.0},
    {"L40", 96ull << 20, 864.0},
    {"RTX 4090", 72ull << 20, 1008.0},
    {"V100", 6ull << 20, 900.0},
};

static int known_index(const char *name)
{
    for (size_t i = 0; i < sizeof known_devices / sizeof known_devices[0]; i++)
        if (strcasestr(name, known_devices[i].name_part) != NULL)
            return (int)i;
    return -1;
}

uint64_t clc_known_l2_bytes(const struct clc_device_meta *m, uint64_t reported)
{
    int k = known_index(m->name);
    if (k >= 0)
        return known_devices[k].l2_bytes;
    if (strcasestr(m->vendor, "NVIDIA") != NULL)
        return 64ull << 20; /* unknown NVIDIA GPU: assume a large L2 rather than trust L1 */
    return reported;
}

double clc_known_peak_gbps(const char *device_name)
{
    int k = known_index(device_name);
    return k >= 0 ? known_devices[k].peak_gbps : NAN;
}

/* ------------------------------------------------------------------ discovery */

static void info_str(cl_device_id d, cl_device_info what, char *dst, size_t len)
{
    dst[0] = '\0';
    if (clGetDeviceInfo(d, what, len, dst, NULL) != CL_SUCCESS)
        dst[0] = '\0';
    dst[len - 1] = '\0';
}

static void describe(struct clc_device *d)
{
    struct clc_device_meta *m = &d->meta;
    memset(m, 0, sizeof *m);
    m->cc_major = m->cc_minor = m->warp_size = -1;
    m->peak_gbps = m->copy_gbps = NAN;
    info_str(d->id, CL_DEVICE_NAME, m->name, sizeof m->name);
    info_str(d->id, CL_DEVICE_VENDOR, m->vendor, sizeof m->vendor);
    info_str(d->id, CL_DRIVER_VERSION, m->driver, sizeof m->driver);
    info_str(d->id, CL_DEVICE_OPENCL_C_VERSION, m->version, sizeof m->version);
    char pname[128] = "", pver[128] = "";
    clGetPlatformInfo(d->platform, CL_PLATFORM_NAME, sizeof pname, pname, NULL);
    clGetPlatformInfo(d->platform, CL_PLATFORM_VERSION, sizeof pver, pver, NULL);
    pname[sizeof pname - 1] = pver[sizeof pver - 1] = '\0';
    snprintf(m->platform, sizeof m->platform, "%s (%s)", pname, pver);

    cl_uint cu = 0;
    cl_ulong gmem = 0, alloc = 0, cache = 0;
    size_t res = 0;
    clGetDeviceInfo(d->id, CL_DEVICE_TYPE, sizeof d->type, &d->type, NULL);
    clGetDeviceInfo(d->id, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof cu, &cu, NULL);
    clGetDeviceInfo(d->id, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof gmem, &gmem, NULL);
    clGetDeviceInfo(d->id, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof alloc, &alloc, NULL);
    clGetDeviceInfo(d->id, CL_DEVICE_GLOBAL_MEM_CACHE_SIZE, sizeof cache, &cache, NULL);
    clGetDeviceInfo(d->id, CL_DEVICE_PROFILING_TIMER_RESOLUTION, sizeof res, &res, NULL);
    clGetDeviceInfo(d->id, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof d->max_wg_size, &d->max_wg_size, NULL);
    m->compute_units = (int)cu;
    m->global_mem = gmem;
    m->max_alloc = alloc;
    m->timer_res_ns = (double)res;

    size_t ext_len = 0;
    clGetDeviceInfo(d->id, CL_DEVICE_EXTENSIONS, 0, NULL, &ext_len);
    char *ext = calloc(ext_len + 1, 1);
    if (ext != NULL)
        clGetDeviceInfo(d->id, CL_DEVICE_EXTENSIONS, ext_len, ext, NULL);
    const char *e = ext ? ext : "";
    d->fp64 = strstr(e, "cl_khr_fp64") != NULL;
    d->is_nvidia = strcasestr(m->vendor, "NVIDIA") != NULL;
    if (strstr(e, "cl_nv_device_attribute_query") != NULL) {
        cl_uint major = 0, minor = 0, warp = 0;
        if (clGetDeviceInfo(d->id, CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV, sizeof major, &major, NULL) == CL_SUCCESS &&
            clGetDeviceInfo(d->id, CL_DEVICE_COMPUTE_CAPABILITY_MINOR_NV, sizeof minor, &minor, NULL) == CL_SUCCESS) {
            m->cc_major = (int)major;
            m->cc_minor = (int)minor;
        }
        if (clGetDeviceInfo(d->id, CL_DEVICE_WARP_SIZE_NV, sizeof warp, &warp, NULL) == CL_SUCCESS)
            m->warp_size = (int)warp;
    }
    if (strstr(e, "cl_khr_pci_bus_info") != NULL) {
        cl_device_pci_bus_info_khr pci;
        if (clGetDeviceInfo(d->id, CL_DEVICE_PCI_BUS_INFO_KHR, sizeof pci, &pci, NULL) == CL_SUCCESS)
            snprintf(m->pci_bus_id, sizeof m->pci_bus_id, "%04x:%02x:%02x.%x", pci.pci_domain,
                     pci.pci_bus, pci.pci_device, pci.pci_function);
    }
    free(ext);
    m->l2_bytes = clc_known_l2_bytes(m, cache);
    m->peak_gbps = clc_known_peak_gbps(m->name);
    if (!isnan(m->peak_gbps))
        snprintf(m->peak_source, sizeof m->peak_source, "table");
}

int clc_devices(struct clc_device **list, int *count)
{
    cl_uint np = 0;
    cl_int err = clGetPlatformIDs(0, NULL, &np);
    if (err != CL_SUCCESS || np == 0) {
        clc_error("no OpenCL platform found (%s); install an OpenCL driver, e.g. "
                  "'apt-get install pocl-opencl-icd', or register NVIDIA's (see README)",
                  err == CL_SUCCESS ? "0 platforms" : clc_cl_errname(err));
        return CLC_ERR;
    }
    cl_platform_id *plats = calloc(np, sizeof *plats);
    struct clc_device *out = NULL;
    int n = 0;
    if (plats == NULL || clGetPlatformIDs(np, plats, NULL) != CL_SUCCESS)
        goto fail;
    for (cl_uint p = 0; p < np; p++) {
        cl_uint nd = 0;
        if (clGetDeviceIDs(plats[p], CL_DEVICE_TYPE_ALL, 0, NULL, &nd) != CL_SUCCESS || nd == 0)
            continue;
        cl_device_id *ids = calloc(nd, sizeof *ids);
        struct clc_device *grown = realloc(out, (size_t)(n + (int)nd) * sizeof *out);
        if (ids == NULL || grown == NULL) {
            free(ids);
            if (grown != NULL)
                out = grown;
            goto fail;
        }
        out = grown;
        clGetDeviceIDs(plats[p], CL_DEVICE_TYPE_ALL, nd, ids, NULL);
        for (cl_uint i = 0; i < nd; i++) {
            struct clc_device *d = &out[n];
            memset(d, 0, sizeof *d);
            d->platform = plats[p];
            d->id = ids[i];
            d->index = n++;
            d->platform_index = (int)p;
            d->device_index = (int)i;
            describe(d);
        }
        free(ids);
    }
    free(plats);
    if (n == 0) {
        free(out);
        clc_error("OpenCL platforms found, but no devices");
        return CLC_ERR;
    }
    *list = out;
    *count = n;
    return CLC_OK;
fail:
    free(plats);
    free(out);
    clc_error("out of memory while listing OpenCL devices");
    return CLC_ERR;
}

int clc_select_device(const struct clc_device *list, int count, const char *sel)
{
    if (sel == NULL || *sel == '\0') {
        for (int i = 0; i < count; i++)
            if (list[i].type & CL_DEVICE_TYPE_GPU)
                return i;
        return 0;
    }
    long a, b;
    char tail;
    if (sscanf(sel, "%ld:%ld%c", &a, &b, &tail) == 2) {
        for (int i = 0; i < count; i++)
            if (list[i].platform_index == a && list[i].device_index == b)
                return i;
        clc_error("no device %ld:%ld (platform:device); 'clcoalesce list' shows the devices", a, b);
        return -1;
    }
    bool numeric = true;
    for (const char *p = sel; *p; p++)
        numeric = numeric && isdigit((unsigned char)*p);
    if (numeric) {
        long v;
        if (clc_parse_count(sel, 0, count - 1, &v) == CLC_OK)
            return (int)v;
        clc_error("device index %s is out of range (0..%d); 'clcoalesce list' shows the devices",
                  sel, count - 1);
        return -1;
    }
    for (int i = 0; i < count; i++)
        if (strcasestr(list[i].meta.name, sel) != NULL)
            return i;
    clc_error("no device name contains '%s'; 'clcoalesce list' shows the devices", sel);
    return -1;
}

void clc_print_devices(FILE *f, const struct clc_device *list, int count)
{
    char gm[32], ma[32];
    for (int i = 0; i < count; i++) {
        const struct clc_device *d = &list[i];
        const struct clc_device_meta *m = &d->meta;
        fprintf(f, "[%d] %d:%d  %s\n", d->index, d->platform_index, d->device_index, m->name);
        fprintf(f, "      platform:       %s\n", m->platform);
        fprintf(f, "      vendor:         %s\n", m->vendor);
        fprintf(f, "      type:           %s\n", d->type & CL_DEVICE_TYPE_GPU   ? "GPU"
                                                 : d->type & CL_DEVICE_TYPE_CPU ? "CPU"
                                                                                : "other");
        fprintf(f, "      driver:         %s\n", m->driver);
        fprintf(f, "      OpenCL C:       %s\n", m->version);
        fprintf(f, "      compute units:  %d\n", m->compute_units);
        fprintf(f, "      global memory:  %s\n", clc_format_size(m->global_mem, gm, sizeof gm));
        fprintf(f, "      max allocation: %s\n", clc_format_size(m->max_alloc, ma, sizeof ma));
        fprintf(f, "      fp64:           %s\n", d->fp64 ? "yes" : "no");
        fprintf(f, "      timer:          %.0f ns resolution\n", m->timer_res_ns);
        if (m->cc_major >= 0)
            fprintf(f, "      compute cap.:   %d.%d\n", m->cc_major, m->cc_minor);
        if (m->warp_size > 0)
            fprintf(f, "      warp size:      %d\n", m->warp_size);
        if (m->pci_bus_id[0])
            fprintf(f, "      PCI bus id:     %s\n", m->pci_bus_id);
    }
}
