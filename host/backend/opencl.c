/* opencl.c - the OpenCL back end: devices of every platform, a context with one in-order
 * profiling queue, kernel files built with their logs and cached, buffers, and launches
 * timed by their events. */
#define _GNU_SOURCE
#include "clcoalesce/backend.h"

#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <CL/cl_ext.h>
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "clcoalesce/compiler.h"
#include "clcoalesce/cuda.h"
#include "clcoalesce/kernelfile.h"

extern const struct clc_backend_ops clc_opencl_ops;

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

/* ------------------------------------------------------------------ errors */

/* The name of an OpenCL error code, e.g. "CL_INVALID_WORK_GROUP_SIZE". */
static const char *errname(cl_int err)
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
        static _Thread_local char buf[48];
        snprintf(buf, sizeof buf, "CL_UNKNOWN_ERROR(%d)", (int)err);
        return buf;
    }
    }
}

static void fail(const char *call, cl_int err, const char *file, int line)
{
    char shown[96];
    clc_error("%s failed: %s (%s:%d)", clc_call_name(call, shown, sizeof shown), errname(err),
              file, line);
}

/* Runs an OpenCL call; on failure reports it by name and jumps to `cleanup`.  The enclosing
 * function keeps an `int rc = CLC_ERR;` that it sets to CLC_OK on success. */
#define CHECK(call)                                                                         \
    do {                                                                                    \
        cl_int err_ = (call);                                                               \
        if (err_ != CL_SUCCESS) {                                                           \
            fail(#call, err_, __FILE__, __LINE__);                                          \
            goto cleanup;                                                                   \
        }                                                                                   \
    } while (0)

/* ------------------------------------------------------------------ devices */

static void info_str(cl_device_id d, cl_device_info what, char *dst, size_t len)
{
    dst[0] = '\0';
    if (clGetDeviceInfo(d, what, len, dst, NULL) != CL_SUCCESS)
        dst[0] = '\0';
    dst[len - 1] = '\0';
}

static void describe(struct clc_device *d, cl_platform_id platform, cl_device_id id)
{
    struct clc_device_meta *m = &d->meta;
    memset(m, 0, sizeof *m);
    m->cc_major = m->cc_minor = m->warp_size = -1;
    m->peak_gbps = m->copy_gbps = m->bus_gbps = NAN;
    info_str(id, CL_DEVICE_NAME, m->name, sizeof m->name);
    clc_device_name_override(m->name, sizeof m->name);
    info_str(id, CL_DEVICE_VENDOR, m->vendor, sizeof m->vendor);
    info_str(id, CL_DRIVER_VERSION, m->driver, sizeof m->driver);
    info_str(id, CL_DEVICE_OPENCL_C_VERSION, m->version, sizeof m->version);
    char pname[128] = "", pver[128] = "";
    clGetPlatformInfo(platform, CL_PLATFORM_NAME, sizeof pname, pname, NULL);
    clGetPlatformInfo(platform, CL_PLATFORM_VERSION, sizeof pver, pver, NULL);
    pname[sizeof pname - 1] = pver[sizeof pver - 1] = '\0';
    snprintf(m->platform, sizeof m->platform, "%.120s (%.120s)", pname, pver);

    cl_device_type type = 0;
    cl_uint cu = 0, mhz = 0;
    cl_ulong gmem = 0, alloc = 0, cache = 0, local = 0;
    size_t res = 0, group = 1;
    clGetDeviceInfo(id, CL_DEVICE_TYPE, sizeof type, &type, NULL);
    clGetDeviceInfo(id, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof cu, &cu, NULL);
    clGetDeviceInfo(id, CL_DEVICE_MAX_CLOCK_FREQUENCY, sizeof mhz, &mhz, NULL);
    clGetDeviceInfo(id, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof gmem, &gmem, NULL);
    clGetDeviceInfo(id, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof alloc, &alloc, NULL);
    clGetDeviceInfo(id, CL_DEVICE_GLOBAL_MEM_CACHE_SIZE, sizeof cache, &cache, NULL);
    clGetDeviceInfo(id, CL_DEVICE_LOCAL_MEM_SIZE, sizeof local, &local, NULL);
    clGetDeviceInfo(id, CL_DEVICE_PROFILING_TIMER_RESOLUTION, sizeof res, &res, NULL);
    clGetDeviceInfo(id, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof group, &group, NULL);
    d->gpu = (type & CL_DEVICE_TYPE_GPU) != 0;
    d->cpu = (type & CL_DEVICE_TYPE_CPU) != 0;
    d->max_group = group;
    d->local_mem = (size_t)local;
    cl_bool images = CL_FALSE;
    clGetDeviceInfo(id, CL_DEVICE_IMAGE_SUPPORT, sizeof images, &images, NULL);
    if (images &&
        (clGetDeviceInfo(id, CL_DEVICE_IMAGE2D_MAX_WIDTH, sizeof d->image2d_max[0],
                         &d->image2d_max[0], NULL) != CL_SUCCESS ||
         clGetDeviceInfo(id, CL_DEVICE_IMAGE2D_MAX_HEIGHT, sizeof d->image2d_max[1],
                         &d->image2d_max[1], NULL) != CL_SUCCESS))
        d->image2d_max[0] = d->image2d_max[1] = 0;
    m->compute_units = (int)cu;
    m->clock_mhz = (int)mhz;
    m->global_mem = gmem;
    m->max_alloc = alloc;
    m->timer_res_ns = (double)res;

    size_t ext_len = 0;
    clGetDeviceInfo(id, CL_DEVICE_EXTENSIONS, 0, NULL, &ext_len);
    char *ext = calloc(ext_len + 1, 1);
    if (ext != NULL)
        clGetDeviceInfo(id, CL_DEVICE_EXTENSIONS, ext_len, ext, NULL);
    const char *e = ext ? ext : "";
    d->fp64 = strstr(e, "cl_khr_fp64") != NULL;
    d->nvidia = strcasestr(m->vendor, "NVIDIA") != NULL;
    if (strstr(e, "cl_nv_device_attribute_query") != NULL) {
        cl_uint major = 0, minor = 0, warp = 0;
        if (clGetDeviceInfo(id, CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV, sizeof major, &major, NULL) == CL_SUCCESS &&
            clGetDeviceInfo(id, CL_DEVICE_COMPUTE_CAPABILITY_MINOR_NV, sizeof minor, &minor, NULL) == CL_SUCCESS) {
            m->cc_major = (int)major;
            m->cc_minor = (int)minor;
        }
        if (clGetDeviceInfo(id, CL_DEVICE_WARP_SIZE_NV, sizeof warp, &warp, NULL) == CL_SUCCESS)
            m->warp_size = (int)warp;
    }
    if (strstr(e, "cl_khr_pci_bus_info") != NULL) {
        cl_device_pci_bus_info_khr pci;
        if (clGetDeviceInfo(id, CL_DEVICE_PCI_BUS_INFO_KHR, sizeof pci, &pci, NULL) == CL_SUCCESS)
            snprintf(m->pci_bus_id, sizeof m->pci_bus_id, "%04x:%02x:%02x.%x", pci.pci_domain,
                     pci.pci_bus, pci.pci_device, pci.pci_function);
    }
    free(ext);
    /* the CUDA driver describes the same GPU (matched by PCI bus id) better than OpenCL */
    if (d->nvidia)
        clc_cuda_device_facts(m->pci_bus_id, m);
    clc_known_facts(m, cache, "reported");
    d->handle[0] = (uintptr_t)platform;
    d->handle[1] = (uintptr_t)id;
}

/* NVIDIA's OpenCL library installed but not registered with the ICD loader (no nvidia.icd,
 * common in containers) looks like a machine without an NVIDIA GPU: say so, with the fix. */
static void note_unregistered_nvidia(const struct clc_device *list, int n)
{
    static bool said;
    for (int i = 0; i < n; i++)
        if (strstr(list[i].meta.vendor, "NVIDIA") != NULL ||
            strstr(list[i].meta.platform, "NVIDIA") != NULL)
            return;
    if (said)
        return;
    void *lib = dlopen("libnvidia-opencl.so.1", RTLD_LAZY | RTLD_LOCAL);
    if (lib == NULL)
        return;
    dlclose(lib);
    said = true;
    clc_note("NVIDIA's OpenCL library (libnvidia-opencl.so.1) is installed but not registered "
             "with the OpenCL loader, so no NVIDIA device is listed; as root: mkdir -p "
             "/etc/OpenCL/vendors && echo libnvidia-opencl.so.1 > "
             "/etc/OpenCL/vendors/nvidia.icd (docs/nvidia.md)");
}

/* PoCL's kernel cache folder, by PoCL's own rule (POCL_CACHE_DIR, else $XDG_CACHE_HOME/
 * pocl/kcache where that folder exists, else ~/.cache/pocl/kcache), into dir; returns true,
 * with why, when it can be neither used nor made: PoCL then offers no device, and says
 * nothing of why.  The nearest part of the path that exists must be a writable folder. */
static bool pocl_cache_problem(char *dir, size_t len, char *why, size_t why_len)
{
    const char *env = getenv("POCL_CACHE_DIR"), *xdg = getenv("XDG_CACHE_HOME");
    const char *home = getenv("HOME");
    if (env != NULL && *env)
        snprintf(dir, len, "%s", env);
    else if (xdg != NULL && *xdg && access(xdg, F_OK) == 0)
        snprintf(dir, len, "%s/pocl/kcache", xdg);
    else if (home != NULL && *home)
        snprintf(dir, len, "%s/.cache/pocl/kcache", home);
    else
        snprintf(dir, len, "/tmp/POCL_CACHE");
    char part[PATH_MAX + 64];
    snprintf(part, sizeof part, "%.*s", (int)sizeof part - 1, dir);
    for (;;) {
        struct stat st;
        if (stat(part, &st) == 0) {
            if (!S_ISDIR(st.st_mode))
                snprintf(why, why_len, "'%s' is not a folder", part);
            else if (access(part, W_OK | X_OK) != 0)
                snprintf(why, why_len, "'%s' is not writable", part);
            else
                return false;
            return true;
        }
        char *slash = strrchr(part, '/');
        if (slash == NULL || slash == part)
            return false; /* nothing of it exists but the root: leave it to PoCL */
        *slash = '\0';
    }
}

static int devices(struct clc_device **list, int *count, bool quiet)
{
    cl_uint np = 0;
    cl_int err = clGetPlatformIDs(0, NULL, &np);
    if (err != CL_SUCCESS || np == 0) {
        if (!quiet)
            note_unregistered_nvidia(NULL, 0);
        if (!quiet)
            clc_error("no OpenCL platform found (%s); install an OpenCL driver, e.g. "
                      "'apt-get install pocl-opencl-icd', or register NVIDIA's (see docs/nvidia.md)",
                      err == CL_SUCCESS ? "0 platforms" : errname(err));
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
            d->api = CLC_API_OPENCL;
            d->index = n++;
            snprintf(d->label, sizeof d->label, "%u:%u", p % 100000u, i % 100000u);
            describe(d, plats[p], ids[i]);
        }
        free(ids);
    }
    if (!quiet)
        note_unregistered_nvidia(out, n);
    if (n == 0) {
        char cache[PATH_MAX + 64], why[PATH_MAX + 128];
        bool pocl = false;
        for (cl_uint p = 0; p < np; p++) {
            char name[256] = "";
            clGetPlatformInfo(plats[p], CL_PLATFORM_NAME, sizeof name, name, NULL);
            pocl = pocl || strstr(name, "Portable Computing Language") != NULL;
        }
        if (!quiet && pocl && pocl_cache_problem(cache, sizeof cache, why, sizeof why))
            clc_error("OpenCL platforms found, but no devices: PoCL cannot make its kernel "
                      "cache in '%s' (%s), and gives no device without one; set "
                      "POCL_CACHE_DIR to a writable folder, e.g. POCL_CACHE_DIR=/tmp/pocl-cache",
                      cache, why);
        else if (!quiet)
            clc_error("OpenCL platforms found, but no devices");
        free(plats);
        free(out);
        return CLC_ERR;
    }
    free(plats);
    *list = out;
    *count = n;
    return CLC_OK;
fail:
    free(plats);
    free(out);
    clc_error("out of memory while listing OpenCL devices");
    return CLC_ERR;
}

/* ------------------------------------------------------------------ the open device */

struct clc_buf {
    cl_mem mem;
    size_t bytes;
    size_t image[2];     /* an image's width and height; 0 x 0 for a buffer */
};

struct clc_kernel {
    cl_kernel k;
    char name[128];
};

struct ocl {
    struct clc_backend base;
    cl_device_id id;
    cl_context context;
    cl_command_queue queue; /* in-order, with profiling enabled */
    struct clc_built programs; /* a kernel holds its own reference to its program */
    struct clc_compiler *compiler; /* builds ahead made in a process of their own, or NULL */
};

static struct ocl *ocl_of(struct clc_backend *b)
{
    return (struct ocl *)b;
}

static void ref_program(void *p)
{
    clRetainProgram(p);
}

static void unref_program(void *p)
{
    clReleaseProgram(p);
}

static void close_device(struct clc_backend *b)
{
    struct ocl *o = ocl_of(b);
    if (o == NULL)
        return;
    clc_pinned_release_all(b);
    clc_compiler_stop(o->compiler);
    clc_built_close(&o->programs);
    if (o->queue)
        clReleaseCommandQueue(o->queue);
    if (o->context)
        clReleaseContext(o->context);
    free(o);
}

static int open_device(const struct clc_device *dev, const char *kernel_dir,
                       struct clc_backend **out)
{
    int rc = CLC_ERR;
    cl_int err;
    struct ocl *o = calloc(1, sizeof *o);
    if (o == NULL) {
        clc_error("out of memory");
        return CLC_ERR;
    }
    clc_built_init(&o->programs, ref_program, unref_program);
    o->base.ops = &clc_opencl_ops;
    o->base.dev = *dev;
    snprintf(o->base.kernel_dir, sizeof o->base.kernel_dir, "%s", kernel_dir);
    o->id = (cl_device_id)dev->handle[1];
    cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)dev->handle[0],
                                     0};
    o->context = clCreateContext(props, 1, &o->id, NULL, NULL, &err);
    CHECK(err);
    o->queue = clCreateCommandQueue(o->context, o->id, CL_QUEUE_PROFILING_ENABLE, &err);
    CHECK(err);
    *out = &o->base;
    rc = CLC_OK;
cleanup:
    if (rc != CLC_OK)
        close_device(&o->base);
    return rc;
}

/* ------------------------------------------------------------------ buffers */

/* A buffer of `bytes` made with clCreateBuffer's `flags`. */
static int alloc_flags(struct clc_backend *b, size_t bytes, cl_mem_flags flags, const char *what,
                       struct clc_buf **out)
{
    struct ocl *o = ocl_of(b);
    char want[32], lim[32];
    if (bytes > b->dev.meta.max_alloc) {
        clc_error("allocation too large: %s needs %s, the device allows %s per buffer "
                  "(%s); use a smaller --size", what, clc_format_size(bytes, want, sizeof want),
                  clc_format_size(b->dev.meta.max_alloc, lim, sizeof lim), b->ops->alloc_limit);
        return CLC_ERR;
    }
    struct clc_buf *buf = calloc(1, sizeof *buf);
    if (buf == NULL) {
        clc_error("out of memory");
        return CLC_ERR;
    }
    cl_int err;
    buf->bytes = bytes;
    buf->mem = clCreateBuffer(o->context, flags, bytes ? bytes : 1, NULL, &err);
    if (err != CL_SUCCESS) {
        clc_error("clCreateBuffer(%s, %s%s) failed: %s", what,
                  clc_format_size(bytes, want, sizeof want),
                  flags & CL_MEM_ALLOC_HOST_PTR ? ", CL_MEM_ALLOC_HOST_PTR" : "", errname(err));
        free(buf);
        return CLC_ERR;
    }
    *out = buf;
    return CLC_OK;
}

static int alloc(struct clc_backend *b, size_t bytes, const char *what, struct clc_buf **out)
{
    return alloc_flags(b, bytes, CL_MEM_READ_WRITE, what, out);
}

/* Host memory is CL_MEM_ALLOC_HOST_PTR: the implementation places it where the host reaches
 * it (page-locked on a GPU); OpenCL 1.2 has no managed memory. */
static int alloc_in(struct clc_backend *b, size_t bytes, enum clc_mem mem, const char *what,
                    struct clc_buf **out)
{
    if (mem == CLC_MEM_MANAGED) {
        clc_error("%s: OpenCL has no managed memory", what);
        return CLC_ERR;
    }
    cl_mem_flags host = mem == CLC_MEM_HOST ? CL_MEM_ALLOC_HOST_PTR : 0;
    return alloc_flags(b, bytes, CL_MEM_READ_WRITE | host, what, out);
}

/* A read-only CL_R / CL_FLOAT image2d_t, filled by write_buf (clEnqueueWriteImage). */
static int alloc_image(struct clc_backend *b, size_t width, size_t height, const char *what,
                       struct clc_buf **out)
{
    char why[128];
    if (!clc_image_fits(&b->dev, width, height, why, sizeof why)) {
        clc_error("%s: %s (CL_DEVICE_IMAGE_SUPPORT, CL_DEVICE_IMAGE2D_MAX_WIDTH / _HEIGHT)",
                  what, why);
        return CLC_ERR;
    }
    struct clc_buf *buf = calloc(1, sizeof *buf);
    if (buf == NULL) {
        clc_error("out of memory");
        return CLC_ERR;
    }
    const cl_image_format format = {CL_R, CL_FLOAT};
    cl_image_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.image_type = CL_MEM_OBJECT_IMAGE2D;
    desc.image_width = width;
    desc.image_height = height;
    cl_int err;
    buf->mem = clCreateImage(ocl_of(b)->context, CL_MEM_READ_ONLY, &format, &desc, NULL, &err);
    if (err != CL_SUCCESS) {
        clc_error("clCreateImage(%s, %zu x %zu, CL_R CL_FLOAT) failed: %s", what, width, height,
                  errname(err));
        free(buf);
        return CLC_ERR;
    }
    buf->bytes = width * height * sizeof(float);
    buf->image[0] = width;
    buf->image[1] = height;
    *out = buf;
    return CLC_OK;
}

/* Only write reaches an image, and only whole: read and fill are for buffers. */
static bool not_image(const struct clc_buf *buf, const char *op)
{
    if (buf->image[0] == 0)
        return true;
    clc_error("%s of an image: clcoalesce only reads images in kernels", op);
    return false;
}

static void release(struct clc_backend *b, struct clc_buf *buf)
{
    (void)b;
    clReleaseMemObject(buf->mem);
    free(buf);
}

static int write_buf(struct clc_backend *b, struct clc_buf *buf, size_t offset, size_t bytes,
                     const void *src)
{
    int rc = CLC_ERR;
    if (buf->image[0] != 0) {
        const size_t origin[3] = {0, 0, 0}, region[3] = {buf->image[0], buf->image[1], 1};
        if (offset != 0 || bytes != buf->bytes) {
            clc_error("an image is written whole, not %zu bytes at %zu", bytes, offset);
            return CLC_ERR;
        }
        CHECK(clEnqueueWriteImage(ocl_of(b)->queue, buf->mem, CL_TRUE, origin, region, 0, 0,
                                  src, 0, NULL, NULL));
        return CLC_OK;
    }
    CHECK(clEnqueueWriteBuffer(ocl_of(b)->queue, buf->mem, CL_TRUE, offset, bytes, src, 0, NULL,
                               NULL));
    rc = CLC_OK;
cleanup:
    return rc;
}

static int read_buf(struct clc_backend *b, struct clc_buf *buf, size_t offset, size_t bytes,
                    void *dst)
{
    int rc = CLC_ERR;
    if (!not_image(buf, "a read"))
        return CLC_ERR;
    CHECK(clEnqueueReadBuffer(ocl_of(b)->queue, buf->mem, CL_TRUE, offset, bytes, dst, 0, NULL,
                              NULL));
    rc = CLC_OK;
cleanup:
    return rc;
}

/* NVIDIA's way to page-locked memory in OpenCL: a buffer the driver allocates on the host
 * (CL_MEM_ALLOC_HOST_PTR), mapped once; reads into the mapped pointer run at the bus's
 * speed.  Not on a CPU device, where every read is a memcpy anyway. */
static void *pin_alloc(struct clc_backend *b, size_t bytes, uintptr_t *handle)
{
    struct ocl *o = ocl_of(b);
    if (b->dev.cpu || bytes > b->dev.meta.max_alloc)
        return NULL;
    cl_int err;
    cl_mem m = clCreateBuffer(o->context, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, bytes, NULL,
                              &err);
    if (err != CL_SUCCESS)
        return NULL;
    void *p = clEnqueueMapBuffer(o->queue, m, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, bytes, 0,
                                 NULL, NULL, &err);
    if (err != CL_SUCCESS) {
        clReleaseMemObject(m);
        return NULL;
    }
    *handle = (uintptr_t)m;
    return p;
}

static void pin_free(struct clc_backend *b, void *p, uintptr_t handle)
{
    struct ocl *o = ocl_of(b);
    cl_mem m = (cl_mem)handle;
    if (clEnqueueUnmapMemObject(o->queue, m, p, 0, NULL, NULL) == CL_SUCCESS)
        clFinish(o->queue);
    clReleaseMemObject(m);
}

/* In chunks: a single large clEnqueueFillBuffer has hung on some NVIDIA drivers. */
static int fill(struct clc_backend *b, struct clc_buf *buf, size_t bytes, uint32_t pattern)
{
    struct ocl *o = ocl_of(b);
    int rc = CLC_ERR;
    const size_t chunk = (size_t)1 << 30;
    cl_uint p = pattern;
    if (!not_image(buf, "a fill"))
        return CLC_ERR;
    bytes &= ~(size_t)3;
    for (size_t off = 0; off < bytes; off += chunk) {
        size_t n = bytes - off < chunk ? bytes - off : chunk;
        CHECK(clEnqueueFillBuffer(o->queue, buf->mem, &p, sizeof p, off, n, 0, NULL, NULL));
    }
    CHECK(clFinish(o->queue));
    rc = CLC_OK;
cleanup:
    return rc;
}

/* ------------------------------------------------------------------ programs */

static char *program_log(struct ocl *o, cl_program prog)
{
    size_t n = 0;
    clGetProgramBuildInfo(prog, o->id, CL_PROGRAM_BUILD_LOG, 0, NULL, &n);
    char *log = calloc(n + 1, 1);
    if (log != NULL && clGetProgramBuildInfo(prog, o->id, CL_PROGRAM_BUILD_LOG, n, log, NULL) !=
                           CL_SUCCESS)
        log[0] = '\0';
    return log;
}

/* What prog was built into (CL_PROGRAM_BINARIES: PTX on NVIDIA), NUL-terminated, its length
 * in *len (0 when the API gives none); NULL when out of memory.  The caller frees it. */
static char *program_bytes(cl_program prog, size_t *len)
{
    size_t size = 0;
    if (clGetProgramInfo(prog, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, NULL) != CL_SUCCESS)
        size = 0;
    char *bin = calloc(size + 1, 1);
    if (bin == NULL)
        return NULL;
    unsigned char *bins[] = {(unsigned char *)bin};
    if (size > 0 && clGetProgramInfo(prog, CL_PROGRAM_BINARIES, sizeof bins, bins, NULL) !=
                        CL_SUCCESS)
        size = 0;
    bin[size] = '\0';
    *len = size;
    return bin;
}

/* The path of `file` in the kernel directory and the options it is built with: the language
 * version and -I for that directory (which holds clc.h) ahead of `options`.  *opts is the
 * caller's to free; CLC_ERR when out of memory. */
static int build_args(struct ocl *o, const char *file, const char *options, char *path,
                      size_t len, char **opts)
{
    const char *dir = o->base.kernel_dir;
    const char *q = strchr(dir, ' ') ? "\"" : ""; /* PoCL rejects needless quotes */
    clc_kernel_path(dir, file, path, len);
    if (asprintf(opts, "-cl-std=CL1.2 -I %s%s%s %s", q, dir, q, options ? options : "") < 0) {
        *opts = NULL;
        clc_error("out of memory");
        return CLC_ERR;
    }
    return CLC_OK;
}

/* A program of `src` built with `opts`, or NULL (*err says why: CL_BUILD_PROGRAM_FAILURE
 * when it does not compile, the program then in *failed for its log unless NULL). */
static cl_program compile(cl_context context, cl_device_id id, const char *src, size_t len,
                          const char *opts, cl_program *failed, cl_int *err)
{
    const char *srcs[] = {src};
    cl_program p = clCreateProgramWithSource(context, 1, srcs, &len, err);
    if (*err != CL_SUCCESS)
        return NULL;
    clc_build_begin(); /* no user's stdin for its includes; its stderr held (core.h) */
    *err = clBuildProgram(p, 1, &id, opts, NULL, NULL);
    clc_build_end();
    if (*err == CL_SUCCESS)
        return p;
    if (failed != NULL)
        *failed = p;
    else
        clReleaseProgram(p);
    return NULL;
}

/* Builds `file` with `options`, or takes the program built so before (struct clc_built);
 * *prog is the caller's reference (clReleaseProgram). */
static int build_program(struct ocl *o, const char *file, const char *options, cl_program *prog)
{
    if ((*prog = clc_built_get(&o->programs, file, options, NULL)) != NULL)
        return CLC_OK;
    char path[PATH_MAX + 256];
    char *opts = NULL, *src = NULL;
    size_t len = 0;
    int rc = CLC_ERR;
    cl_int err;
    cl_program p = NULL, failed = NULL;
    if (build_args(o, file, options, path, sizeof path, &opts) != CLC_OK ||
        (src = clc_read_kernel_file(path, &len)) == NULL)
        goto cleanup;
    p = compile(o->context, o->id, src, len, opts, &failed, &err);
    if (failed != NULL) {
        char *log = program_log(o, failed);
        clc_report_build_failure(path, src, opts, o->base.dev.meta.name, log);
        free(log);
        goto cleanup;
    }
    if (p == NULL) {
        fail("clCreateProgramWithSource", err, __FILE__, __LINE__);
        goto cleanup;
    }
    *prog = clc_built_get(&o->programs, file, options, p);
    p = NULL;
    rc = CLC_OK;
cleanup:
    if (failed)
        clReleaseProgram(failed);
    free(opts);
    free(src);
    return rc;
}

/* Builds `file` with `options` in the compiler process and loads what it built into the
 * cache; CLC_ERR, quietly, when it did not build (the build made in place shows why). */
static int build_elsewhere(struct ocl *o, const char *file, const char *options)
{
    char path[PATH_MAX + 256];
    char *opts = NULL, *built = NULL;
    size_t len = 0;
    int rc = CLC_ERR;
    if (build_args(o, file, options, path, sizeof path, &opts) != CLC_OK ||
        clc_compiler_build(o->compiler, path, opts, &built, &len) != CLC_OK)
        goto cleanup;
    const unsigned char *bytes = (const unsigned char *)built;
    cl_int status, err;
    cl_program p = clCreateProgramWithBinary(o->context, 1, &o->id, &len, &bytes, &status, &err);
    if (err == CL_SUCCESS && clBuildProgram(p, 1, &o->id, opts, NULL, NULL) == CL_SUCCESS) {
        clReleaseProgram(clc_built_get(&o->programs, file, options, p));
        __atomic_fetch_add(&o->base.built_elsewhere, 1, __ATOMIC_RELAXED);
        rc = CLC_OK;
    } else if (err == CL_SUCCESS) {
        clReleaseProgram(p);
    }
cleanup:
    free(built);
    free(opts);
    return rc;
}

static void start_compiler(struct clc_backend *b, const char *exe)
{
    struct ocl *o = ocl_of(b);
    if (o->compiler == NULL)
        o->compiler = clc_compiler_start(exe, b->dev.label);
}

static int prepare(struct clc_backend *b, const char *file, const char *options)
{
    struct ocl *o = ocl_of(b);
    cl_program p = clc_built_get(&o->programs, file, options, NULL);
    if (p != NULL) {
        clReleaseProgram(p);
        return CLC_OK;
    }
    if (clc_compiler_alive(o->compiler)) {
        int rc = build_elsewhere(o, file, options);
        if (rc == CLC_OK || clc_compiler_alive(o->compiler))
            return rc;
    }
    /* no compiler process, or it died on this build: made here */
    if (build_program(o, file, options, &p) != CLC_OK)
        return CLC_ERR;
    clReleaseProgram(p);
    return CLC_OK;
}

static int build(struct clc_backend *b, const char *file, const char *options, const char *name,
                 struct clc_kernel **out)
{
    struct ocl *o = ocl_of(b);
    cl_program prog;
    if (build_program(o, file, options, &prog) != CLC_OK)
        return CLC_ERR;
    int rc = CLC_ERR;
    struct clc_kernel *k = calloc(1, sizeof *k);
    if (k == NULL) {
        clc_error("out of memory");
        goto cleanup;
    }
    cl_int err;
    k->k = clCreateKernel(prog, name, &err);
    if (err != CL_SUCCESS) {
        char names[1024] = "";
        clGetProgramInfo(prog, CL_PROGRAM_KERNEL_NAMES, sizeof names, names, NULL);
        names[sizeof names - 1] = '\0';
        clc_error("no __kernel '%s' in %s (its kernels: %s)", name, file,
                  *names ? names : "none");
        goto cleanup;
    }
    snprintf(k->name, sizeof k->name, "%s", name);
    *out = k;
    k = NULL;
    rc = CLC_OK;
cleanup:
    free(k);
    clReleaseProgram(prog); /* the kernel holds its own reference */
    return rc;
}

static void release_kernel(struct clc_backend *b, struct clc_kernel *k)
{
    (void)b;
    clReleaseKernel(k->k);
    free(k);
}

static int kernel_info(struct clc_backend *b, struct clc_kernel *k, struct clc_kernel_info *out)
{
    struct ocl *o = ocl_of(b);
    int rc = CLC_ERR;
    cl_ulong local = 0, priv = 0;
    memset(out, 0, sizeof *out);
    out->registers = -1;
    CHECK(clGetKernelWorkGroupInfo(k->k, o->id, CL_KERNEL_WORK_GROUP_SIZE, sizeof out->max_group,
                                   &out->max_group, NULL));
    CHECK(clGetKernelWorkGroupInfo(k->k, o->id, CL_KERNEL_COMPILE_WORK_GROUP_SIZE,
                                   sizeof out->reqd, out->reqd, NULL));
    CHECK(clGetKernelWorkGroupInfo(k->k, o->id, CL_KERNEL_LOCAL_MEM_SIZE, sizeof local, &local,
                                   NULL));
    if (clGetKernelWorkGroupInfo(k->k, o->id, CL_KERNEL_PRIVATE_MEM_SIZE, sizeof priv, &priv,
                                 NULL) != CL_SUCCESS)
        priv = 0;
    cl_uint nargs = 0;
    CHECK(clGetKernelInfo(k->k, CL_KERNEL_NUM_ARGS, sizeof nargs, &nargs, NULL));
    out->nargs = (int)nargs;
    out->local_bytes = (size_t)local;
    out->private_bytes = (size_t)priv;
    /* NVIDIA reports 256 for a kernel that declares a larger shape, and launches it at that
     * shape */
    size_t declared = out->reqd[0] * (out->reqd[1] ? out->reqd[1] : 1) *
                      (out->reqd[2] ? out->reqd[2] : 1);
    if (out->reqd[0] != 0 && declared > out->max_group && declared <= b->dev.max_group)
        out->max_group = declared;
    rc = CLC_OK;
cleanup:
    return rc;
}

static int code(struct clc_backend *b, const char *file, const char *options, bool verbose,
                char **text, char **log)
{
    struct ocl *o = ocl_of(b);
    char *opts = NULL;
    cl_program prog;
    *text = *log = NULL;
    if (asprintf(&opts, "%s%s", options, verbose ? " -cl-nv-verbose" : "") < 0)
        return CLC_ERR;
    int rc = build_program(o, file, opts, &prog);
    free(opts);
    if (rc != CLC_OK)
        return CLC_ERR;
    rc = CLC_ERR;
    size_t size;
    char *bin = program_bytes(prog, &size);
    if (bin == NULL)
        goto cleanup;
    /* only the text up to the first NUL counts: an ELF has one early */
    if (strstr(bin, ".target") == NULL) {
        free(bin);
        rc = CLC_SKIP;
        goto cleanup;
    }
    *text = bin;
    *log = program_log(o, prog);
    rc = CLC_OK;
cleanup:
    clReleaseProgram(prog);
    return rc;
}

/* ------------------------------------------------------------------ launches */

static int set_args(const struct clc_launch *l)
{
    for (unsigned i = 0; i < l->nargs; i++) {
        const struct clc_arg *a = &l->args[i];
        cl_uchar u8 = (cl_uchar)a->value;
        cl_ushort u16 = (cl_ushort)a->value;
        cl_uint u32 = (cl_uint)a->value;
        cl_ulong u64 = a->value;
        cl_kernel k = l->kernel->k;
        cl_int err = a->kind == CLC_ARG_BUF     ? clSetKernelArg(k, i, sizeof(cl_mem), &a->buf->mem)
                     : a->kind == CLC_ARG_U8    ? clSetKernelArg(k, i, sizeof u8, &u8)
                     : a->kind == CLC_ARG_U16   ? clSetKernelArg(k, i, sizeof u16, &u16)
                     : a->kind == CLC_ARG_U32   ? clSetKernelArg(k, i, sizeof u32, &u32)
                     : a->kind == CLC_ARG_LOCAL ? clSetKernelArg(k, i, (size_t)a->value, NULL)
                                                : clSetKernelArg(k, i, sizeof u64, &u64);
        if (err != CL_SUCCESS) {
            clc_error("clSetKernelArg(%s, %u) failed: %s", l->kernel->name, i, errname(err));
            return CLC_ERR;
        }
    }
    return CLC_OK;
}

/* One enqueue of op, with its event in *ev when ev is not NULL. */
static cl_int enqueue(struct ocl *o, const struct clc_op *op, cl_event *ev)
{
    const struct clc_launch *l = op->launch;
    if (l == NULL)
        return clEnqueueCopyBuffer(o->queue, op->src->mem, op->dst->mem, 0, 0, op->bytes, 0, NULL,
                                   ev);
    return clEnqueueNDRangeKernel(o->queue, l->kernel->k, l->dims, NULL, l->global, l->local, 0,
                                  NULL, ev);
}

static int run(struct clc_backend *b, const struct clc_op *op, int count)
{
    struct ocl *o = ocl_of(b);
    int rc = CLC_ERR;
    if (op->launch != NULL && set_args(op->launch) != CLC_OK)
        return CLC_ERR;
    for (int i = 0; i < count; i++)
        CHECK(enqueue(o, op, NULL));
    CHECK(clFinish(o->queue));
    rc = CLC_OK;
cleanup:
    return rc;
}

/* Enqueues `lead` launches without events, then `count` with one each, and returns the sum of
 * the timed launches' own START..END, in ms.  Not the START of the first to the END of the
 * last: on NVIDIA a launch that carries an event is followed by an idle gap of about 1.3 us
 * that launches without events do not have (the host clock sees no gap), so the gaps belong
 * to the profiling, not to the kernel. */
static int time_op(struct clc_backend *b, const struct clc_op *op, int lead, int count,
                   bool profile, double *ms)
{
    (void)profile; /* Nsight Compute does not profile OpenCL */
    struct ocl *o = ocl_of(b);
    int rc = CLC_ERR, queued = 0;
    cl_event *ev = calloc((size_t)count, sizeof *ev);
    cl_ulong sum = 0;
    if (ev == NULL) {
        clc_error("out of memory");
        return CLC_ERR;
    }
    if (op->launch != NULL && set_args(op->launch) != CLC_OK)
        goto cleanup;
    for (int i = 0; i < lead; i++)
        CHECK(enqueue(o, op, NULL));
    for (; queued < count; queued++)
        CHECK(enqueue(o, op, &ev[queued]));
    CHECK(clWaitForEvents(1, &ev[count - 1]));
    for (int i = 0; i < count; i++) {
        cl_ulong start, end;
        CHECK(clGetEventProfilingInfo(ev[i], CL_PROFILING_COMMAND_START, sizeof start, &start, NULL));
        CHECK(clGetEventProfilingInfo(ev[i], CL_PROFILING_COMMAND_END, sizeof end, &end, NULL));
        sum += end - start;
    }
    /* integer nanoseconds summed before converting, so no precision is lost */
    *ms = (double)sum * 1e-6;
    rc = CLC_OK;
cleanup:
    for (int i = 0; i < queued; i++)
        clReleaseEvent(ev[i]);
    free(ev);
    return rc;
}

/* ------------------------------------------------------------------ the compiler process */

struct compiler_device {
    cl_context context;
    cl_device_id id;
};

/* compiler.h's clc_compile_fn: the program's bytes (CL_PROGRAM_BINARIES: PTX on NVIDIA). */
static int compile_to_bytes(void *ctx, const char *path, const char *options, char **built,
                            size_t *len)
{
    struct compiler_device *d = ctx;
    size_t n = 0;
    cl_int err;
    char *src = clc_read_kernel_file(path, &n);
    cl_program p = src != NULL ? compile(d->context, d->id, src, n, options, NULL, &err) : NULL;
    free(src);
    if (p == NULL)
        return CLC_ERR;
    char *bytes = program_bytes(p, &n);
    clReleaseProgram(p);
    if (bytes == NULL || n == 0) {
        free(bytes);
        return CLC_ERR;
    }
    *built = bytes;
    *len = n;
    return CLC_OK;
}

int clc_opencl_compiler_main(const char *mark)
{
    const char *label = clc_compiler_device(mark);
    unsigned plat, dev;
    if (label == NULL || sscanf(label, "%u:%u", &plat, &dev) != 2)
        return 2;
    cl_platform_id plats[64];
    cl_device_id ids[64];
    cl_uint np = 0, nd = 0;
    struct compiler_device d = {NULL, NULL};
    cl_int err = CL_DEVICE_NOT_FOUND;
    if (clGetPlatformIDs(64, plats, &np) == CL_SUCCESS && plat < np && plat < 64 &&
        clGetDeviceIDs(plats[plat], CL_DEVICE_TYPE_ALL, 64, ids, &nd) == CL_SUCCESS &&
        dev < nd && dev < 64) {
        d.id = ids[dev];
        d.context = clCreateContext(NULL, 1, &d.id, NULL, NULL, &err);
    }
    if (err != CL_SUCCESS)
        return 1;
    int status = clc_compiler_serve(compile_to_bytes, &d);
    clReleaseContext(d.context);
    return status;
}

const struct clc_backend_ops clc_opencl_ops = {
    .api = CLC_API_OPENCL,
    .copy_name = "clEnqueueCopyBuffer",
    .alloc_limit = "CL_DEVICE_MAX_MEM_ALLOC_SIZE",
    .devices = devices,
    .open = open_device,
    .close = close_device,
    .alloc = alloc,
    .alloc_in = alloc_in,
    .alloc_image = alloc_image,
    .release = release,
    .write = write_buf,
    .read = read_buf,
    .fill = fill,
    .build = build,
    .prepare = prepare,
    .start_compiler = start_compiler,
    .release_kernel = release_kernel,
    .kernel_info = kernel_info,
    .code = code,
    .run = run,
    .time = time_op,
    .pin_alloc = pin_alloc,
    .pin_free = pin_free,
};
