/* cuda.c - the CUDA back end, loaded at run time: the driver API (libcuda.so.1) and NVRTC
 * are opened with dlopen and their few entry points declared here by hand, so nothing of
 * CUDA is needed to build, and nothing of it to run the OpenCL side.  The kernels are the
 * same .cl files, compiled as CUDA C++ by NVRTC with cl/clc_cuda.h in front (see that file
 * for the source wrapping and its limits), and loaded as PTX, which the driver compiles for
 * the device as NVIDIA's OpenCL driver does.  Device memory comes from the device's memory
 * pool, which keeps freed memory until the run ends: a kernel right after a multi-GiB free
 * runs slower for a fraction of a second on an H100. */
#define _GNU_SOURCE
#include "clcoalesce/backend.h"

#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "clcoalesce/cuda.h"
#include "clcoalesce/nvml.h"
#include "clcoalesce/kernelfile.h"

extern const struct clc_backend_ops clc_cuda_ops;

/* ------------------------------------------------------------------ the libraries */

typedef int CUresult;
typedef int CUdevice;
typedef struct CUctx_st *CUcontext;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef struct CUstream_st *CUstream;
typedef struct CUevent_st *CUevent;
typedef struct CUmemPoolHandle_st *CUmemoryPool;
typedef unsigned long long CUdeviceptr;
typedef unsigned long long CUtexObject;
typedef struct CUarray_st *CUarray;
typedef int nvrtcResult;
typedef struct _nvrtcProgram *nvrtcProgram;

/* the values of cuda.h's enums that are used, fixed by the driver's ABI */
enum {
    ERR_OUT_OF_MEMORY = 2,
    ATTR_MAX_THREADS_PER_BLOCK = 1,
    ATTR_MAX_SHARED_PER_BLOCK = 8,
    ATTR_WARP_SIZE = 10,
    ATTR_CLOCK_KHZ = 13,
    ATTR_SM_COUNT = 16,
    ATTR_MEMORY_CLOCK_KHZ = 36,
    ATTR_BUS_WIDTH = 37,
    ATTR_L2_SIZE = 38,
    ATTR_MAX_THREADS_PER_SM = 39,
    ATTR_MAX_SHARED_PER_SM = 81,
    ATTR_MAX_REGISTERS_PER_SM = 82,
    ATTR_MAX_BLOCKS_PER_SM = 106,
    ATTR_CC_MAJOR = 75,
    ATTR_CC_MINOR = 76,
    ATTR_MEMORY_POOLS = 115,
    ATTR_MANAGED_MEMORY = 83,
    FUNC_MAX_THREADS = 0,
    FUNC_SHARED_BYTES = 1,
    FUNC_LOCAL_BYTES = 3,
    FUNC_NUM_REGS = 4,
    POOL_RELEASE_THRESHOLD = 4,
    JIT_ERROR_LOG = 5,
    JIT_ERROR_LOG_SIZE = 6,
};

/* cuda.h's descriptors of a CUDA array, of a texture object on one, and of a 2-D copy, as
 * the driver's ABI lays them out (only the members used are named). */
struct array_desc {
    size_t width, height;
    int format;                /* CUarray_format */
    unsigned channels;
};

struct res_desc {
    int type;                  /* CUresourcetype: ARRAY */
    union {
        CUarray array;
        int reserved[32];
    } res;
    unsigned flags;
};

struct tex_desc {
    int address[3];            /* CUaddress_mode per dimension */
    int filter;                /* CUfilter_mode */
    unsigned flags;            /* CU_TRSF_*: 0 is unnormalised coordinates, read as float */
    unsigned max_anisotropy;
    int mipmap_filter;
    float mipmap_bias, mipmap_min, mipmap_max;
    float border[4];
    int reserved[12];
};

struct copy2d {
    size_t src_x, src_y;
    int src_type;              /* CUmemorytype */
    const void *src_host;
    CUdeviceptr src_dev;
    CUarray src_array;
    size_t src_pitch;
    size_t dst_x, dst_y;
    int dst_type;
    void *dst_host;
    CUdeviceptr dst_dev;
    CUarray dst_array;
    size_t dst_pitch;
    size_t width_bytes, height;
};

enum {
    RESOURCE_ARRAY = 0,
    FORMAT_FLOAT = 0x20,
    ADDRESS_BORDER = 3, /* outside the image reads 0, as OpenCL's CLK_ADDRESS_CLAMP */
    FILTER_POINT = 0,
    MEMORY_HOST = 1,
    MEMORY_ARRAY = 3,
    ATTR_TEX2D_WIDTH = 22,
    ATTR_TEX2D_HEIGHT = 23,
};

/* Every entry point, by the name it is looked up under. */
#define CUDA_CALLS(X)                                                                       \
    X(cuInit, CUresult, (unsigned))                                                         \
    X(cuDriverGetVersion, CUresult, (int *))                                                \
    X(cuGetErrorName, CUresult, (CUresult, const char **))                                  \
    X(cuDeviceGetCount, CUresult, (int *))                                                  \
    X(cuDeviceGet, CUresult, (CUdevice *, int))                                             \
    X(cuDeviceGetName, CUresult, (char *, int, CUdevice))                                   \
    X(cuDeviceGetAttribute, CUresult, (int *, int, CUdevice))                               \
    X(cuDeviceTotalMem_v2, CUresult, (size_t *, CUdevice))                                  \
    X(cuDeviceGetPCIBusId, CUresult, (char *, int, CUdevice))                               \
    X(cuDevicePrimaryCtxRetain, CUresult, (CUcontext *, CUdevice))                          \
    X(cuDevicePrimaryCtxRelease_v2, CUresult, (CUdevice))                                   \
    X(cuCtxSetCurrent, CUresult, (CUcontext))                                               \
    X(cuCtxSynchronize, CUresult, (void))                                                   \
    X(cuMemAlloc_v2, CUresult, (CUdeviceptr *, size_t))                                     \
    X(cuMemFree_v2, CUresult, (CUdeviceptr))                                                \
    X(cuMemcpyHtoD_v2, CUresult, (CUdeviceptr, const void *, size_t))                       \
    X(cuMemcpyDtoH_v2, CUresult, (void *, CUdeviceptr, size_t))                             \
    X(cuMemAllocHost_v2, CUresult, (void **, size_t))                                       \
    X(cuMemFreeHost, CUresult, (void *))                                                    \
    X(cuMemHostAlloc, CUresult, (void **, size_t, unsigned))                                \
    X(cuMemHostGetDevicePointer_v2, CUresult, (CUdeviceptr *, void *, unsigned))            \
    X(cuMemAllocManaged, CUresult, (CUdeviceptr *, size_t, unsigned))                       \
    X(cuArrayCreate_v2, CUresult, (CUarray *, const struct array_desc *))                   \
    X(cuArrayDestroy, CUresult, (CUarray))                                                  \
    X(cuMemcpy2D_v2, CUresult, (const struct copy2d *))                                     \
    X(cuTexObjectCreate, CUresult, (CUtexObject *, const struct res_desc *,                 \
                                    const struct tex_desc *, const void *))                 \
    X(cuTexObjectDestroy, CUresult, (CUtexObject))                                          \
    X(cuMemcpyDtoDAsync_v2, CUresult, (CUdeviceptr, CUdeviceptr, size_t, CUstream))         \
    X(cuMemsetD32Async, CUresult, (CUdeviceptr, unsigned, size_t, CUstream))                \
    X(cuModuleLoadDataEx, CUresult, (CUmodule *, const void *, unsigned, int *, void **))   \
    X(cuModuleGetFunction, CUresult, (CUfunction *, CUmodule, const char *))                \
    X(cuModuleUnload, CUresult, (CUmodule))                                                 \
    X(cuFuncGetAttribute, CUresult, (int *, int, CUfunction))                               \
    X(cuLaunchKernel, CUresult, (CUfunction, unsigned, unsigned, unsigned, unsigned,        \
                                 unsigned, unsigned, unsigned, CUstream, void **, void **)) \
    X(cuEventCreate, CUresult, (CUevent *, unsigned))                                       \
    X(cuEventRecord, CUresult, (CUevent, CUstream))                                         \
    X(cuEventSynchronize, CUresult, (CUevent))                                              \
    X(cuEventElapsedTime, CUresult, (float *, CUevent, CUevent))                            \
    X(cuEventDestroy_v2, CUresult, (CUevent))

/* Present from CUDA 11.2 (pools) and 12.4 (parameter info); used when there. */
#define CUDA_OPTIONAL(X)                                                                    \
    X(cuDeviceGetDefaultMemPool, CUresult, (CUmemoryPool *, CUdevice))                      \
    X(cuMemPoolSetAttribute, CUresult, (CUmemoryPool, int, void *))                         \
    X(cuMemPoolTrimTo, CUresult, (CUmemoryPool, size_t))                                    \
    X(cuMemAllocAsync, CUresult, (CUdeviceptr *, size_t, CUstream))                         \
    X(cuMemFreeAsync, CUresult, (CUdeviceptr, CUstream))                                    \
    X(cuFuncGetParamInfo, CUresult, (CUfunction, size_t, size_t *, size_t *))              \
    X(cuProfilerStart, CUresult, (void))                                                    \
    X(cuProfilerStop, CUresult, (void))

#define NVRTC_CALLS(X)                                                                      \
    X(nvrtcVersion, nvrtcResult, (int *, int *))                                            \
    X(nvrtcGetErrorString, const char *, (nvrtcResult))                                     \
    X(nvrtcCreateProgram, nvrtcResult, (nvrtcProgram *, const char *, const char *, int,    \
                                        const char *const *, const char *const *))          \
    X(nvrtcCompileProgram, nvrtcResult, (nvrtcProgram, int, const char *const *))           \
    X(nvrtcGetProgramLogSize, nvrtcResult, (nvrtcProgram, size_t *))                        \
    X(nvrtcGetProgramLog, nvrtcResult, (nvrtcProgram, char *))                              \
    X(nvrtcGetPTXSize, nvrtcResult, (nvrtcProgram, size_t *))                               \
    X(nvrtcGetPTX, nvrtcResult, (nvrtcProgram, char *))                                     \
    X(nvrtcGetCUBINSize, nvrtcResult, (nvrtcProgram, size_t *))                             \
    X(nvrtcGetCUBIN, nvrtcResult, (nvrtcProgram, char *))                                   \
    X(nvrtcDestroyProgram, nvrtcResult, (nvrtcProgram *))

#define DECLARE(name, ret, args) ret(*name) args;
static struct {
    bool tried, ok, nvrtc_tried, nvrtc_ok;
    char why[256], nvrtc_why[256]; /* what is missing, when not ok */
    void *cuda, *nvrtc;
    CUDA_CALLS(DECLARE)
    CUDA_OPTIONAL(DECLARE)
    NVRTC_CALLS(DECLARE)
} lib;
#undef DECLARE

/* NVRTC's sonames, newest first: the toolkit's library is versioned by its major release. */
static const char *const nvrtc_names[] = {"libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so.11.2",
                                          "libnvrtc.so"};

#define LOOK(handle, name, why)                                                             \
    *(void **)&lib.name = dlsym(handle, #name);                                             \
    if (lib.name == NULL) {                                                                 \
        snprintf(why, sizeof why, "%s lacks %s: too old for clcoalesce", #handle, #name);   \
        return false;                                                                       \
    }

/* Loads NVRTC once (all that compiling needs).  False with lib.nvrtc_why set when missing. */
static bool load_nvrtc(void)
{
    if (lib.nvrtc_tried)
        return lib.nvrtc_ok;
    lib.nvrtc_tried = true;
    for (size_t i = 0; lib.nvrtc == NULL && i < sizeof nvrtc_names / sizeof nvrtc_names[0]; i++)
        lib.nvrtc = dlopen(nvrtc_names[i], RTLD_NOW | RTLD_LOCAL);
    if (lib.nvrtc == NULL) {
        snprintf(lib.nvrtc_why, sizeof lib.nvrtc_why, "no NVRTC (libnvrtc.so.13, .12 or .11.2 "
                 "not found): --api cuda compiles the kernels with it; install the CUDA "
                 "toolkit's NVRTC");
        return false;
    }
#define LOOK_NVRTC(name, ret, args) LOOK(lib.nvrtc, name, lib.nvrtc_why)
    NVRTC_CALLS(LOOK_NVRTC)
    lib.nvrtc_ok = true;
    return true;
}

/* Loads the driver once (all that device facts need).  False with lib.why set when missing. */
static bool load_driver(void)
{
    if (lib.tried)
        return lib.ok;
    lib.tried = true;
    lib.cuda = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (lib.cuda == NULL) {
        snprintf(lib.why, sizeof lib.why, "no CUDA driver (libcuda.so.1 not found): --api cuda "
                 "needs NVIDIA's driver");
        return false;
    }
#define LOOK_CUDA(name, ret, args) LOOK(lib.cuda, name, lib.why)
#define LOOK_OPTIONAL(name, ret, args) *(void **)&lib.name = dlsym(lib.cuda, #name);
    CUDA_CALLS(LOOK_CUDA)
    CUDA_OPTIONAL(LOOK_OPTIONAL)
    lib.ok = true;
    return true;
}

/* Loads the driver and NVRTC once.  False with lib.why set when either is missing. */
static bool load(void)
{
    if (!load_driver())
        return false;
    if (!load_nvrtc()) {
        snprintf(lib.why, sizeof lib.why, "%s", lib.nvrtc_why);
        return false;
    }
    return true;
}
#undef LOOK

static const char *cu_name(CUresult err)
{
    const char *name = NULL;
    if (lib.cuGetErrorName == NULL || lib.cuGetErrorName(err, &name) != 0 || name == NULL) {
        static _Thread_local char buf[32];
        snprintf(buf, sizeof buf, "CUDA_ERROR(%d)", err);
        return buf;
    }
    return name;
}

static void fail(const char *call, CUresult err, const char *file, int line)
{
    char shown[96];
    clc_error("%s failed: %s (%s:%d)", clc_call_name(call, shown, sizeof shown), cu_name(err),
              file, line);
}

/* Runs a driver call (written without `lib.`); on failure reports it by name and jumps to
 * `cleanup`. */
#define CHECK(call) CHECK_AS(lib.call, #call)
#define CHECK_AS(expr, text)                                                                \
    do {                                                                                    \
        CUresult err_ = (expr);                                                             \
        if (err_ != 0) {                                                                    \
            fail(text, err_, __FILE__, __LINE__);                                           \
            goto cleanup;                                                                   \
        }                                                                                   \
    } while (0)

/* ------------------------------------------------------------------ devices */

static int attr(CUdevice d, int what)
{
    int v = 0;
    if (lib.cuDeviceGetAttribute(&v, what, d) != 0)
        v = 0;
    return v;
}

/* What the driver says of the hardware: SMs, L2, DRAM clock and bus width, and the peak
 * bandwidth they make (2 x clock x width / 8); what an SM holds at once (the model's
 * occupancy). */
static void facts(CUdevice dev, struct clc_device_meta *m)
{
    const char *src = "CUDA driver";
    int sms = attr(dev, ATTR_SM_COUNT), l2 = attr(dev, ATTR_L2_SIZE);
    int khz = attr(dev, ATTR_MEMORY_CLOCK_KHZ), bits = attr(dev, ATTR_BUS_WIDTH);
    if (sms > 0) {
        m->compute_units = sms;
        snprintf(m->cu_source, sizeof m->cu_source, "%s", src);
    }
    if (l2 > 0) {
        m->l2_bytes = (uint64_t)l2;
        snprintf(m->l2_source, sizeof m->l2_source, "%s", src);
    }
    if (khz > 0 && bits > 0) {
        m->mem_clock_mhz = khz / 1000;
        m->bus_width_bits = bits;
        m->peak_gbps = 2.0 * khz * 1e3 * bits / 8.0 / 1e9;
        snprintf(m->peak_source, sizeof m->peak_source, "%s", src);
    }
    m->threads_per_cu = attr(dev, ATTR_MAX_THREADS_PER_SM);
    m->groups_per_cu = attr(dev, ATTR_MAX_BLOCKS_PER_SM);
    m->regs_per_cu = attr(dev, ATTR_MAX_REGISTERS_PER_SM);
    m->local_per_cu = (uint64_t)attr(dev, ATTR_MAX_SHARED_PER_SM);
    char pci[32];
    if (lib.cuDeviceGetPCIBusId(pci, (int)sizeof pci, dev) == 0 &&
        clc_nvml_bus(pci, m->bus, sizeof m->bus, &m->bus_gbps) != CLC_OK)
        m->bus[0] = '\0';
}

int clc_cuda_device_facts(const char *pci_bus_id, struct clc_device_meta *m)
{
    int n = 0;
    if (pci_bus_id == NULL || !pci_bus_id[0] || !load_driver() || lib.cuInit(0) != 0 ||
        lib.cuDeviceGetCount(&n) != 0)
        return CLC_ERR;
    for (int i = 0; i < n; i++) {
        CUdevice dev;
        char bus[32];
        if (lib.cuDeviceGet(&dev, i) == 0 &&
            lib.cuDeviceGetPCIBusId(bus, (int)sizeof bus, dev) == 0 &&
            strcasecmp(bus, pci_bus_id) == 0) {
            facts(dev, m);
            return CLC_OK;
        }
    }
    return CLC_ERR;
}

static void describe(struct clc_device *d, CUdevice dev, int index)
{
    struct clc_device_meta *m = &d->meta;
    int drv = 0, nv_major = 0, nv_minor = 0;
    size_t mem = 0;
    memset(d, 0, sizeof *d);
    m->cc_major = m->cc_minor = m->warp_size = -1;
    m->peak_gbps = m->copy_gbps = m->bus_gbps = NAN;
    d->api = CLC_API_CUDA;
    d->index = index;
    snprintf(d->label, sizeof d->label, "%d", index);
    lib.cuDeviceGetName(m->name, (int)sizeof m->name, dev);
    m->name[sizeof m->name - 1] = '\0';
    clc_device_name_override(m->name, sizeof m->name);
    lib.cuDriverGetVersion(&drv);
    lib.nvrtcVersion(&nv_major, &nv_minor);
    snprintf(m->vendor, sizeof m->vendor, "NVIDIA Corporation");
    snprintf(m->driver, sizeof m->driver, "CUDA driver API %d.%d", drv / 1000, drv % 1000 / 10);
    snprintf(m->version, sizeof m->version, "CUDA %d.%d, NVRTC %d.%d", drv / 1000,
             drv % 1000 / 10, nv_major, nv_minor);
    snprintf(m->platform, sizeof m->platform, "CUDA (driver API %d.%d, NVRTC %d.%d)",
             drv / 1000, drv % 1000 / 10, nv_major, nv_minor);
    m->cc_major = attr(dev, ATTR_CC_MAJOR);
    m->cc_minor = attr(dev, ATTR_CC_MINOR);
    m->warp_size = attr(dev, ATTR_WARP_SIZE);
    facts(dev, m);
    m->clock_mhz = attr(dev, ATTR_CLOCK_KHZ) / 1000;
    if (lib.cuDeviceGetPCIBusId(m->pci_bus_id, (int)sizeof m->pci_bus_id, dev) != 0)
        m->pci_bus_id[0] = '\0';
    lib.cuDeviceTotalMem_v2(&mem, dev);
    m->global_mem = mem;
    /* a quarter of the device per buffer, as NVIDIA's OpenCL allows: the same sizes both ways */
    m->max_alloc = mem / 4;
    m->timer_res_ns = 500.0; /* cuEventElapsedTime's documented resolution */
    clc_known_facts(m, 0, "");
    d->gpu = d->fp64 = d->nvidia = true;
    d->max_group = (size_t)attr(dev, ATTR_MAX_THREADS_PER_BLOCK);
    d->local_mem = (size_t)attr(dev, ATTR_MAX_SHARED_PER_BLOCK);
    d->managed = attr(dev, ATTR_MANAGED_MEMORY) != 0;
    d->image2d_max[0] = (size_t)attr(dev, ATTR_TEX2D_WIDTH);
    d->image2d_max[1] = (size_t)attr(dev, ATTR_TEX2D_HEIGHT);
    d->handle[0] = (uintptr_t)dev;
}

static int devices(struct clc_device **list, int *count, bool quiet)
{
    int n = 0;
    CUresult err;
    if (!load()) {
        if (!quiet)
            clc_error("%s", lib.why);
        return CLC_ERR;
    }
    if ((err = lib.cuInit(0)) != 0 || (err = lib.cuDeviceGetCount(&n)) != 0 || n == 0) {
        if (!quiet)
            clc_error("no CUDA device: %s", err ? cu_name(err) : "the driver reports none");
        return CLC_ERR;
    }
    struct clc_device *out = calloc((size_t)n, sizeof *out);
    if (out == NULL) {
        clc_error("out of memory");
        return CLC_ERR;
    }
    for (int i = 0; i < n; i++) {
        CUdevice dev;
        if (lib.cuDeviceGet(&dev, i) == 0)
            describe(&out[i], dev, i);
    }
    *list = out;
    *count = n;
    return CLC_OK;
}

/* ------------------------------------------------------------------ the open device */

struct clc_buf {
    CUdeviceptr ptr;
    size_t bytes;
    enum clc_mem mem;
    void *host;          /* CLC_MEM_HOST: the page-locked block ptr maps */
    CUarray array;       /* CLC_MEM_IMAGE2D: the CUDA array holding the image */
    CUtexObject tex;     /* CLC_MEM_IMAGE2D: the texture object on it, the kernel's argument */
    size_t image[2];     /* CLC_MEM_IMAGE2D: width and height */
};

/* A loaded module.  The cache holds a reference to it and so does each kernel of it, so
 * that a module dropped from a full cache is unloaded only once its kernels are released
 * (as an OpenCL kernel keeps its program). */
struct module {
    CUmodule module;
    char *ptx, *log;    /* what NVRTC made of the file, for `code` (no PTX: SASS) */
    atomic_int refs;
};

struct clc_kernel {
    CUfunction f;
    struct module *m;   /* its module, one of whose references it holds */
    char name[128];
    int nargs; /* -1 when the driver cannot say */
};

struct cuda {
    struct clc_backend base;
    CUdevice dev;
    CUcontext ctx;
    CUmemoryPool pool;  /* NULL where the device has none: plain cuMemAlloc */
    CUevent start, stop;
    struct clc_built modules;
};

static struct cuda *cuda_of(struct clc_backend *b)
{
    return (struct cuda *)b;
}

static void ref_module(void *p)
{
    struct module *m = p;
    atomic_fetch_add(&m->refs, 1);
}

/* Drops a reference to module p, unloading it with the last. */
static void unref_module(void *p)
{
    struct module *m = p;
    if (atomic_fetch_sub(&m->refs, 1) > 1)
        return;
    lib.cuModuleUnload(m->module);
    free(m->ptx);
    free(m->log);
    free(m);
}

static void close_device(struct clc_backend *b)
{
    struct cuda *c = cuda_of(b);
    if (c == NULL)
        return;
    if (c->ctx != NULL) {
        lib.cuCtxSynchronize();
        clc_pinned_release_all(b);
        clc_built_close(&c->modules);
        if (c->start)
            lib.cuEventDestroy_v2(c->start);
        if (c->stop)
            lib.cuEventDestroy_v2(c->stop);
        lib.cuDevicePrimaryCtxRelease_v2(c->dev);
    }
    free(c);
}

static int open_device(const struct clc_device *dev, const char *kernel_dir,
                       struct clc_backend **out)
{
    struct cuda *c = calloc(1, sizeof *c);
    int rc = CLC_ERR;
    if (c == NULL || !load()) {
        clc_error("%s", c == NULL ? "out of memory" : lib.why);
        free(c);
        return CLC_ERR;
    }
    clc_built_init(&c->modules, ref_module, unref_module);
    c->base.ops = &clc_cuda_ops;
    c->base.dev = *dev;
    snprintf(c->base.kernel_dir, sizeof c->base.kernel_dir, "%s", kernel_dir);
    c->dev = (CUdevice)dev->handle[0];
    CHECK(cuDevicePrimaryCtxRetain(&c->ctx, c->dev));
    CHECK(cuCtxSetCurrent(c->ctx));
    CHECK(cuEventCreate(&c->start, 0));
    CHECK(cuEventCreate(&c->stop, 0));
    /* freed memory stays in the pool until the run ends (see the header comment) */
    uint64_t keep = UINT64_MAX;
    if (lib.cuDeviceGetDefaultMemPool && lib.cuMemAllocAsync && lib.cuMemFreeAsync &&
        lib.cuMemPoolSetAttribute && lib.cuMemPoolTrimTo && attr(c->dev, ATTR_MEMORY_POOLS) &&
        (lib.cuDeviceGetDefaultMemPool(&c->pool, c->dev) != 0 ||
         lib.cuMemPoolSetAttribute(c->pool, POOL_RELEASE_THRESHOLD, &keep) != 0))
        c->pool = NULL;
    *out = &c->base;
    rc = CLC_OK;
cleanup:
    if (rc != CLC_OK)
        close_device(&c->base);
    return rc;
}

/* ------------------------------------------------------------------ buffers */

static int alloc(struct clc_backend *b, size_t bytes, const char *what, struct clc_buf **out)
{
    struct cuda *c = cuda_of(b);
    char want[32], lim[32];
    if (bytes > b->dev.meta.max_alloc) {
        clc_error("allocation too large: %s needs %s, the device allows %s per buffer (%s); use "
                  "a smaller --size", what, clc_format_size(bytes, want, sizeof want),
                  clc_format_size(b->dev.meta.max_alloc, lim, sizeof lim), b->ops->alloc_limit);
        return CLC_ERR;
    }
    struct clc_buf *buf = calloc(1, sizeof *buf);
    if (buf == NULL) {
        clc_error("out of memory");
        return CLC_ERR;
    }
    size_t n = bytes ? bytes : 1;
    CUresult err;
    if (c->pool == NULL) {
        err = lib.cuMemAlloc_v2(&buf->ptr, n);
    } else {
        err = lib.cuMemAllocAsync(&buf->ptr, n, NULL);
        if (err == ERR_OUT_OF_MEMORY && lib.cuCtxSynchronize() == 0 &&
            lib.cuMemPoolTrimTo(c->pool, 0) == 0) /* give the pool's free blocks back */
            err = lib.cuMemAllocAsync(&buf->ptr, n, NULL);
    }
    if (err != 0) {
        clc_error("%s(%s, %s) failed: %s", c->pool ? "cuMemAllocAsync" : "cuMemAlloc", what,
                  clc_format_size(bytes, want, sizeof want), cu_name(err));
        free(buf);
        return CLC_ERR;
    }
    buf->bytes = bytes;
    *out = buf;
    return CLC_OK;
}

/* Mapped page-locked host memory (the device reads it over the bus, in place) or managed
 * memory (the driver migrates its pages on demand). */
static int alloc_in(struct clc_backend *b, size_t bytes, enum clc_mem mem, const char *what,
                    struct clc_buf **out)
{
    if (mem == CLC_MEM_DEVICE)
        return alloc(b, bytes, what, out);
    char want[32];
    if (mem == CLC_MEM_MANAGED && !b->dev.managed) {
        clc_error("%s: the device offers no managed memory", what);
        return CLC_ERR;
    }
    struct clc_buf *buf = calloc(1, sizeof *buf);
    if (buf == NULL) {
        clc_error("out of memory");
        return CLC_ERR;
    }
    size_t n = bytes ? bytes : 1;
    const char *call = mem == CLC_MEM_HOST ? "cuMemHostAlloc" : "cuMemAllocManaged";
    CUresult err;
    if (mem == CLC_MEM_HOST) {
        enum { DEVICEMAP = 0x02 }; /* CU_MEMHOSTALLOC_DEVICEMAP */
        err = lib.cuMemHostAlloc(&buf->host, n, DEVICEMAP);
        if (err == 0) {
            call = "cuMemHostGetDevicePointer";
            err = lib.cuMemHostGetDevicePointer_v2(&buf->ptr, buf->host, 0);
            if (err != 0)
                lib.cuMemFreeHost(buf->host);
        }
    } else {
        enum { ATTACH_GLOBAL = 0x1 }; /* CU_MEM_ATTACH_GLOBAL */
        err = lib.cuMemAllocManaged(&buf->ptr, n, ATTACH_GLOBAL);
    }
    if (err != 0) {
        clc_error("%s(%s, %s) failed: %s", call, what, clc_format_size(bytes, want, sizeof want),
                  cu_name(err));
        free(buf);
        return CLC_ERR;
    }
    buf->bytes = bytes;
    buf->mem = mem;
    *out = buf;
    return CLC_OK;
}

/* An image: a CUDA array (a layout of the driver's choosing, opaque as an OpenCL image's,
 * where pitched memory would keep the rows one after another) under a texture object of one
 * float channel, unnormalised coordinates, point sampling, 0 outside. */
static int alloc_image(struct clc_backend *b, size_t width, size_t height, const char *what,
                       struct clc_buf **out)
{
    char why[128];
    if (!clc_image_fits(&b->dev, width, height, why, sizeof why)) {
        clc_error("%s: %s (MAXIMUM_TEXTURE2D_WIDTH / _HEIGHT)", what, why);
        return CLC_ERR;
    }
    struct clc_buf *buf = calloc(1, sizeof *buf);
    if (buf == NULL) {
        clc_error("out of memory");
        return CLC_ERR;
    }
    int rc = CLC_ERR;
    buf->mem = CLC_MEM_IMAGE2D;
    buf->image[0] = width;
    buf->image[1] = height;
    buf->bytes = width * height * sizeof(float);
    const struct array_desc ad = {width, height, FORMAT_FLOAT, 1};
    CHECK(cuArrayCreate_v2(&buf->array, &ad));
    struct res_desc res;
    struct tex_desc tex;
    memset(&res, 0, sizeof res);
    memset(&tex, 0, sizeof tex);
    res.type = RESOURCE_ARRAY;
    res.res.array = buf->array;
    tex.address[0] = tex.address[1] = tex.address[2] = ADDRESS_BORDER;
    tex.filter = FILTER_POINT;
    CHECK(cuTexObjectCreate(&buf->tex, &res, &tex, NULL));
    *out = buf;
    return CLC_OK;
cleanup:
    if (buf->array != NULL)
        lib.cuArrayDestroy(buf->array);
    free(buf);
    return rc;
}

/* Only write reaches an image, and only whole: read and fill are for buffers. */
static bool not_image(const struct clc_buf *buf, const char *op)
{
    if (buf->mem != CLC_MEM_IMAGE2D)
        return true;
    clc_error("%s of an image: clcoalesce only reads images in kernels", op);
    return false;
}

static void release(struct clc_backend *b, struct clc_buf *buf)
{
    if (buf->mem == CLC_MEM_IMAGE2D) {
        lib.cuCtxSynchronize(); /* the launches that read it are done */
        lib.cuTexObjectDestroy(buf->tex);
        lib.cuArrayDestroy(buf->array);
        free(buf);
        return;
    }
    if (buf->mem != CLC_MEM_DEVICE) {
        /* the launches that used it are done before it goes (freeing waits for nothing) */
        lib.cuCtxSynchronize();
        if (buf->mem == CLC_MEM_HOST)
            lib.cuMemFreeHost(buf->host);
        else
            lib.cuMemFree_v2(buf->ptr);
        free(buf);
        return;
    }
    if (cuda_of(b)->pool != NULL)
        lib.cuMemFreeAsync(buf->ptr, NULL);
    else
        lib.cuMemFree_v2(buf->ptr);
    free(buf);
}

static int write_buf(struct clc_backend *b, struct clc_buf *buf, size_t offset, size_t bytes,
                     const void *src)
{
    (void)b;
    int rc = CLC_ERR;
    CHECK(cuCtxSynchronize()); /* allocations and launches on the stream come first */
    if (buf->mem == CLC_MEM_IMAGE2D) { /* whole, into the array's layout */
        if (offset != 0 || bytes != buf->bytes) {
            clc_error("an image is written whole, not %zu bytes at %zu", bytes, offset);
            return CLC_ERR;
        }
        struct copy2d c;
        memset(&c, 0, sizeof c);
        c.src_type = MEMORY_HOST;
        c.src_host = src;
        c.src_pitch = buf->image[0] * sizeof(float);
        c.dst_type = MEMORY_ARRAY;
        c.dst_array = buf->array;
        c.width_bytes = buf->image[0] * sizeof(float);
        c.height = buf->image[1];
        CHECK(cuMemcpy2D_v2(&c));
        return CLC_OK;
    }
    CHECK(cuMemcpyHtoD_v2(buf->ptr + offset, src, bytes));
    rc = CLC_OK;
cleanup:
    return rc;
}

static int read_buf(struct clc_backend *b, struct clc_buf *buf, size_t offset, size_t bytes,
                    void *dst)
{
    (void)b;
    int rc = CLC_ERR;
    if (!not_image(buf, "a read"))
        return CLC_ERR;
    CHECK(cuCtxSynchronize());
    CHECK(cuMemcpyDtoH_v2(dst, buf->ptr + offset, bytes));
    rc = CLC_OK;
cleanup:
    return rc;
}

static int fill(struct clc_backend *b, struct clc_buf *buf, size_t bytes, uint32_t pattern)
{
    (void)b;
    int rc = CLC_ERR;
    if (!not_image(buf, "a fill"))
        return CLC_ERR;
    CHECK(cuMemsetD32Async(buf->ptr, pattern, bytes / 4, NULL));
    CHECK(cuCtxSynchronize());
    rc = CLC_OK;
cleanup:
    return rc;
}

/* ------------------------------------------------------------------ programs */

/* The NVRTC source of `text` (the kernel file at path) built with `options`: clc_cuda.h, the
 * -D options as #defines (NVRTC's own header breaks under -DT=...), and the file inside
 * extern "C" so its kernels keep their names.  Other options (OpenCL's) are left out. */
static char *nvrtc_source(const char *path, const char *text, const char *options)
{
    char *out = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&out, &len);
    if (m == NULL)
        return NULL;
    fputs("#include \"clc_cuda.h\"\n", m);
    for (const char *p = options ? options : ""; *p;) {
        while (*p == ' ')
            p++;
        size_t n = strcspn(p, " ");
        if (n > 2 && strncmp(p, "-D", 2) == 0) {
            const char *eq = memchr(p, '=', n);
            if (eq != NULL)
                fprintf(m, "#define %.*s %.*s\n", (int)(eq - p - 2), p + 2,
                        (int)(n - (size_t)(eq - p) - 1), eq + 1);
            else
                fprintf(m, "#define %.*s 1\n", (int)n - 2, p + 2);
        }
        p += n;
    }
    fputs("extern \"C\" {\n#line 1 \"", m);
    for (const char *c = path; *c; c++) /* a file name in a string literal */
        fprintf(m, *c == '"' || *c == '\\' ? "\\%c" : "%c", *c);
    fprintf(m, "\"\n%s\n}\n", text);
    fclose(m);
    return out;
}

static char *program_log(nvrtcProgram prog)
{
    size_t n = 0;
    lib.nvrtcGetProgramLogSize(prog, &n);
    char *log = calloc(n + 1, 1);
    if (log != NULL && lib.nvrtcGetProgramLog(prog, log) != 0)
        log[0] = '\0';
    return log;
}

/* Compiles the kernel file as clc_cuda_ptx says: to PTX, or with `sass` to the GPU's own code
 * (a cubin, *size bytes) by NVRTC itself, without the build failure's report. */
static int nvrtc_compile(const char *kernel_dir, const char *file, const char *options,
                         int cc_major, int cc_minor, const char *device, bool sass,
                         char **code_out, size_t *size_out, char **log_out)
{
    char *text = NULL, *src = NULL, *log = NULL, *code = NULL;
    char path[PATH_MAX + 256], arch[40], shown[1024], *inc = NULL;
    nvrtcProgram prog = NULL;
    int rc = CLC_ERR;
    *code_out = *log_out = NULL;
    if (!load_nvrtc()) {
        clc_error("%s", lib.nvrtc_why);
        return CLC_ERR;
    }
    clc_kernel_path(kernel_dir, file, path, sizeof path);
    if ((text = clc_read_kernel_file(path, NULL)) == NULL)
        goto done;
    if ((src = nvrtc_source(path, text, options)) == NULL || asprintf(&inc, "-I%s", kernel_dir) < 0)
        goto oom;
    snprintf(arch, sizeof arch, "--gpu-architecture=%s_%d%d", sass ? "sm" : "compute", cc_major,
             cc_minor);
    const char *opts[] = {inc, "--device-as-default-execution-space", "-std=c++17", arch};
    nvrtcResult nr = lib.nvrtcCreateProgram(&prog, src, path, 0, NULL, NULL);
    if (nr != 0) {
        clc_error("nvrtcCreateProgram(%s) failed: %s", path, lib.nvrtcGetErrorString(nr));
        goto done;
    }
    nr = lib.nvrtcCompileProgram(prog, 4, opts);
    log = program_log(prog);
    if (nr != 0 && sass) /* an NVRTC that does not know the GPU, or a broken file */
        goto done;
    if (nr != 0) {
        snprintf(shown, sizeof shown, "%s %s %s %s; %s", opts[0], opts[1], opts[2], opts[3],
                 options ? options : "");
        clc_report_build_failure(path, text, shown, device, log);
        goto done;
    }
    size_t n = 0;
    if ((sass ? lib.nvrtcGetCUBINSize(prog, &n) : lib.nvrtcGetPTXSize(prog, &n)) != 0 ||
        (code = calloc(n + 1, 1)) == NULL ||
        (sass ? lib.nvrtcGetCUBIN(prog, code) : lib.nvrtcGetPTX(prog, code)) != 0)
        goto oom;
    *code_out = code;
    if (size_out != NULL)
        *size_out = n;
    *log_out = log;
    code = log = NULL;
    rc = CLC_OK;
    goto done;
oom:
    clc_error("out of memory compiling %s", file);
done:
    if (prog != NULL)
        lib.nvrtcDestroyProgram(&prog);
    free(inc);
    free(text);
    free(src);
    free(log);
    free(code);
    return rc;
}

int clc_cuda_ptx(const char *kernel_dir, const char *file, const char *options, int cc_major,
                 int cc_minor, const char *device, char **ptx_out, char **log_out)
{
    return nvrtc_compile(kernel_dir, file, options, cc_major, cc_minor, device, false, ptx_out,
                         NULL, log_out);
}

int clc_cuda_cubin(const char *kernel_dir, const char *file, const char *options, int cc_major,
                   int cc_minor, char **cubin, size_t *size, char **log)
{
    /* quiet: where this fails, the PTX build that follows says why */
    int rc = CLC_ERR;
    *cubin = *log = NULL;
    if (clc_mute_messages())
        rc = nvrtc_compile(kernel_dir, file, options, cc_major, cc_minor, "", true, cubin, size,
                           log);
    clc_unmute_messages();
    return rc;
}

/* True for a trace build (-DCLC_TRACE among the options), which is never timed. */
static bool trace_build(const char *options)
{
    for (const char *p = options; p != NULL && (p = strstr(p, "-DCLC_TRACE")) != NULL; p++) {
        char after = p[strlen("-DCLC_TRACE")];
        if ((p == options || p[-1] == ' ') && (after == '\0' || after == ' ' || after == '='))
            return true;
    }
    return false;
}

/* Loads what NVRTC made, SASS as it is or PTX through the driver's JIT; CUDA's result. */
static CUresult load_module(struct module *m, const void *code, char *jit_log, size_t len)
{
    int jopts[] = {JIT_ERROR_LOG, JIT_ERROR_LOG_SIZE};
    void *jvals[] = {jit_log, (void *)(uintptr_t)len};
    return lib.cuModuleLoadDataEx(&m->module, code, 2, jopts, jvals);
}

/* Compiles `file` with `options` and loads it, or takes the module built so before (struct
 * clc_built); *out is the caller's reference (unref_module).  Timed builds go to PTX, which
 * the driver compiles to SASS as NVIDIA's OpenCL does with its own: the APIs' timings then
 * compare the same compiler's code.  Trace builds are never timed, and NVRTC compiles them
 * to SASS itself where it knows the GPU: they are made on threads of their own while rows are
 * timed, and the driver's PTX compiler would run in the process the timing runs in. */
static int build_module(struct cuda *c, const char *file, const char *options,
                        struct module **out)
{
    const struct clc_device_meta *meta = &c->base.dev.meta;
    struct module *m = NULL;
    char *cubin = NULL, jit_log[8192] = "";
    int rc = CLC_ERR;
    /* the context is current per thread, and the trace builds made ahead have threads of
     * their own: current there for the module's load and its kernel's look-up */
    CHECK(cuCtxSetCurrent(c->ctx));
    if ((*out = clc_built_get(&c->modules, file, options, NULL)) != NULL)
        return CLC_OK;
    if ((m = calloc(1, sizeof *m)) == NULL) {
        clc_error("out of memory");
        goto cleanup;
    }
    bool loaded = false;
    if (trace_build(options) &&
        clc_cuda_cubin(c->base.kernel_dir, file, options, meta->cc_major, meta->cc_minor, &cubin,
                       NULL, &m->log) == CLC_OK) {
        loaded = load_module(m, cubin, jit_log, sizeof jit_log) == 0;
        if (!loaded) { /* a cubin this driver does not take: PTX it is */
            free(m->log);
            m->log = NULL;
        }
    }
    if (!loaded) {
        if (clc_cuda_ptx(c->base.kernel_dir, file, options, meta->cc_major, meta->cc_minor,
                         meta->name, &m->ptx, &m->log) != CLC_OK)
            goto cleanup;
        CUresult err = load_module(m, m->ptx, jit_log, sizeof jit_log);
        if (err != 0) {
            clc_error("cuModuleLoadDataEx(%s) failed: %s: %s", file, cu_name(err), jit_log);
            goto cleanup;
        }
    }
    atomic_init(&m->refs, 1);
    *out = clc_built_get(&c->modules, file, options, m);
    m = NULL;
    rc = CLC_OK;
cleanup:
    free(cubin);
    if (m != NULL) {
        free(m->ptx);
        free(m->log);
        free(m);
    }
    return rc;
}

static int build(struct clc_backend *b, const char *file, const char *options, const char *name,
                 struct clc_kernel **out)
{
    struct cuda *c = cuda_of(b);
    struct module *m;
    if (build_module(c, file, options, &m) != CLC_OK)
        return CLC_ERR;
    struct clc_kernel *k = calloc(1, sizeof *k);
    if (k == NULL) {
        clc_error("out of memory");
        unref_module(m);
        return CLC_ERR;
    }
    CUresult err = lib.cuModuleGetFunction(&k->f, m->module, name);
    if (err != 0) {
        clc_error("no __kernel '%s' in %s (cuModuleGetFunction: %s)", name, file, cu_name(err));
        free(k);
        unref_module(m);
        return CLC_ERR;
    }
    k->m = m;
    snprintf(k->name, sizeof k->name, "%s", name);
    k->nargs = -1;
    if (lib.cuFuncGetParamInfo != NULL) {
        size_t off, size, n = 0;
        while (n < 64 && lib.cuFuncGetParamInfo(k->f, n, &off, &size) == 0)
            n++;
        k->nargs = (int)n;
    }
    *out = k;
    return CLC_OK;
}

static void release_kernel(struct clc_backend *b, struct clc_kernel *k)
{
    (void)b;
    unref_module(k->m); /* the function belongs to its module */
    free(k);
}

static int kernel_info(struct clc_backend *b, struct clc_kernel *k, struct clc_kernel_info *out)
{
    (void)b;
    int rc = CLC_ERR, max = 0, shared = 0, local = 0, regs = 0;
    memset(out, 0, sizeof *out);
    CHECK(cuFuncGetAttribute(&max, FUNC_MAX_THREADS, k->f));
    CHECK(cuFuncGetAttribute(&shared, FUNC_SHARED_BYTES, k->f));
    CHECK(cuFuncGetAttribute(&local, FUNC_LOCAL_BYTES, k->f));
    CHECK(cuFuncGetAttribute(&regs, FUNC_NUM_REGS, k->f));
    out->max_group = (size_t)max;
    out->local_bytes = (size_t)shared;
    out->private_bytes = (size_t)local;
    out->registers = regs;
    out->nargs = k->nargs;
    rc = CLC_OK;
cleanup:
    return rc;
}

static int code(struct clc_backend *b, const char *file, const char *options, bool verbose,
                 char **text, char **log)
{
    (void)verbose;
    struct cuda *c = cuda_of(b);
    struct module *m;
    *text = *log = NULL;
    if (build_module(c, file, options, &m) != CLC_OK)
        return CLC_ERR;
    if (m->ptx == NULL) { /* a trace build, compiled past PTX */
        unref_module(m);
        return CLC_SKIP;
    }
    *text = strdup(m->ptx);
    *log = strdup(m->log ? m->log : "");
    unref_module(m);
    return *text != NULL && *log != NULL ? CLC_OK : CLC_ERR;
}

/* ------------------------------------------------------------------ launches */

/* One launch of op on the null stream, where allocations and copies go too. */
static CUresult launch_op(const struct clc_op *op)
{
    const struct clc_launch *l = op->launch;
    if (l == NULL)
        return lib.cuMemcpyDtoDAsync_v2(op->dst->ptr, op->src->ptr, op->bytes, NULL);
    uint64_t values[CLC_MAX_ARGS];
    uint32_t small[CLC_MAX_ARGS];
    uint16_t tiny[CLC_MAX_ARGS];
    uint8_t byte[CLC_MAX_ARGS];
    void *params[CLC_MAX_ARGS];
    for (unsigned i = 0; i < l->nargs; i++) {
        const struct clc_arg *a = &l->args[i];
        values[i] = a->kind != CLC_ARG_BUF               ? a->value
                    : a->buf->mem == CLC_MEM_IMAGE2D ? (uint64_t)a->buf->tex
                                                     : (uint64_t)a->buf->ptr;
        small[i] = (uint32_t)a->value;
        tiny[i] = (uint16_t)a->value;
        byte[i] = (uint8_t)a->value;
        params[i] = a->kind == CLC_ARG_U32   ? (void *)&small[i]
                    : a->kind == CLC_ARG_U16 ? (void *)&tiny[i]
                    : a->kind == CLC_ARG_U8  ? (void *)&byte[i]
                                             : (void *)&values[i];
    }
    unsigned grid[3], block[3];
    for (int d = 0; d < 3; d++) {
        block[d] = (unsigned)l->local[d];
        grid[d] = (unsigned)(l->global[d] / l->local[d]);
    }
    return lib.cuLaunchKernel(l->kernel->f, grid[0], grid[1], grid[2], block[0], block[1],
                              block[2], 0, NULL, params, NULL);
}

/* A grid the driver cannot take is refused before launching, by name. */
static int check_grid(const struct clc_op *op)
{
    const struct clc_launch *l = op->launch;
    if (l == NULL)
        return CLC_OK;
    static const size_t max_grid[3] = {2147483647u, 65535u, 65535u};
    /* a CUDA kernel has no __local pointer parameter: its shared memory is declared inside */
    for (unsigned i = 0; i < l->nargs; i++)
        if (l->args[i].kind == CLC_ARG_LOCAL) {
            clc_error("%s: parameter %u is a __local pointer, which CUDA has no form of; "
                      "declare the __local array inside the kernel to run it with --api cuda",
                      l->kernel->name, i + 1);
            return CLC_ERR;
        }
    for (int d = 0; d < 3; d++) {
        if (l->local[d] == 0 || l->global[d] % l->local[d] != 0 ||
            l->global[d] / l->local[d] > max_grid[d]) {
            clc_error("%s: a grid of %zu work-items in groups of %zu in dimension %d is more "
                      "than CUDA launches", l->kernel->name, l->global[d], l->local[d], d);
            return CLC_ERR;
        }
    }
    return CLC_OK;
}

static int run(struct clc_backend *b, const struct clc_op *op, int count)
{
    (void)b;
    int rc = CLC_ERR;
    if (check_grid(op) != CLC_OK)
        return CLC_ERR;
    for (int i = 0; i < count; i++)
        CHECK_AS(launch_op(op), op->launch ? "cuLaunchKernel" : "cuMemcpyDtoDAsync");
    CHECK(cuCtxSynchronize());
    rc = CLC_OK;
cleanup:
    return rc;
}

/* The timed launches between two events.  The lead launches matter to the events too: a start
 * event recorded on an idle GPU completes at once, before the host has queued the launch
 * behind it, and would time the host's launch latency as well. */
static int time_op(struct clc_backend *b, const struct clc_op *op, int lead, int count,
                   bool profile, double *ms)
{
    struct cuda *c = cuda_of(b);
    int rc = CLC_ERR;
    float f = 0;
    if (check_grid(op) != CLC_OK)
        return CLC_ERR;
    for (int i = 0; i < lead; i++)
        CHECK_AS(launch_op(op), op->launch ? "cuLaunchKernel" : "cuMemcpyDtoDAsync");
    profile = profile && lib.cuProfilerStart != NULL && lib.cuProfilerStop != NULL;
    if (profile)
        CHECK(cuProfilerStart());
    CHECK(cuEventRecord(c->start, NULL));
    for (int i = 0; i < count; i++)
        CHECK_AS(launch_op(op), op->launch ? "cuLaunchKernel" : "cuMemcpyDtoDAsync");
    CHECK(cuEventRecord(c->stop, NULL));
    if (profile)
        CHECK(cuProfilerStop());
    CHECK(cuEventSynchronize(c->stop));
    CHECK(cuEventElapsedTime(&f, c->start, c->stop));
    *ms = f;
    rc = CLC_OK;
cleanup:
    return rc;
}

/* Page-locked host memory from the driver, for reads at the bus's speed. */
static void *pin_alloc(struct clc_backend *b, size_t bytes, uintptr_t *handle)
{
    (void)b;
    void *p = NULL;
    *handle = 0;
    return lib.cuMemAllocHost_v2(&p, bytes) == 0 ? p : NULL;
}

static void pin_free(struct clc_backend *b, void *p, uintptr_t handle)
{
    (void)b;
    (void)handle;
    lib.cuMemFreeHost(p);
}

const struct clc_backend_ops clc_cuda_ops = {
    .api = CLC_API_CUDA,
    .copy_name = "cuMemcpyDtoD",
    .alloc_limit = "a quarter of the device memory, as NVIDIA's OpenCL allows",
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
    .release_kernel = release_kernel,
    .kernel_info = kernel_info,
    .code = code,
    .run = run,
    .time = time_op,
    .pin_alloc = pin_alloc,
    .pin_free = pin_free,
};
