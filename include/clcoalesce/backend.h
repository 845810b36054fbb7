/* backend.h - one interface over the GPU APIs.  OpenCL and CUDA each implement it once
 * (host/backend/opencl.c, host/backend/cuda.c); the driver, the cases and the commands hold
 * only the opaque handles declared here and call through the table of functions, as
 * BabelStream's Stream<T> keeps one driver over many back ends.  A new API is one file. */
#ifndef CLCOALESCE_BACKEND_H
#define CLCOALESCE_BACKEND_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "clcoalesce/result.h"

enum clc_api {
    CLC_API_OPENCL,
    CLC_API_CUDA,
};
#define CLC_API_COUNT 2

const char *clc_api_name(enum clc_api a); /* "opencl", "cuda" */

/* Parses --api: "opencl", "cuda" or "both" into a mask of (1u << enum clc_api).  Returns
 * CLC_OK or CLC_USAGE. */
int clc_parse_api(const char *s, unsigned *mask);

/* ------------------------------------------------------------------ devices */

/* Where a buffer lives. */
enum clc_mem {
    CLC_MEM_DEVICE,  /* the device's own memory */
    CLC_MEM_HOST,    /* page-locked host memory the device reads over the bus (OpenCL
                      * CL_MEM_ALLOC_HOST_PTR, CUDA cuMemHostAlloc mapped) */
    CLC_MEM_MANAGED, /* memory the driver migrates on demand (CUDA cuMemAllocManaged) */
    CLC_MEM_IMAGE2D, /* a read-only 2-D image of float, read through the texture path (OpenCL
                      * image2d_t, CUDA a texture object on a CUDA array) */
};

/* A device as one API sees it. */
struct clc_device {
    enum clc_api api;
    int index;            /* flat index in its API's list (what --device N selects) */
    char label[24];       /* its address in that list: "P:D" (OpenCL) or "N" (CUDA) */
    bool gpu;             /* the default device is the first GPU */
    bool cpu;             /* a CPU device (PoCL): smaller default sizes, kernels in a child */
    bool fp64;            /* double precision (cl_khr_fp64; always on CUDA) */
    bool nvidia;
    bool managed;         /* the API offers managed memory (CLC_MEM_MANAGED) here */
    size_t image2d_max[2]; /* the largest 2-D image (CLC_MEM_IMAGE2D), width and height;
                            * 0 x 0 where the device has no images */
    size_t max_group;     /* work-items per work-group at most */
    size_t local_mem;     /* local (shared) memory per work-group, bytes */
    struct clc_device_meta meta;
    uintptr_t handle[2];  /* the API's own identifiers (OpenCL: platform, device) */
};

/* ------------------------------------------------------------------ launches */

struct clc_backend;
struct clc_buf;    /* a device buffer */
struct clc_kernel; /* a kernel built from a kernel file with some options */

/* What the compiler and the driver say of a built kernel. */
struct clc_kernel_info {
    size_t max_group;   /* work-items per work-group it can launch with */
    size_t reqd[3];     /* the shape it declares (reqd_work_group_size), 0 0 0 for none */
    int registers;      /* per work-item, -1 when the API does not say */
    size_t local_bytes; /* static local (shared) memory per work-group */
    size_t private_bytes; /* private memory per work-item outside registers (spills, stack) */
    int nargs;          /* its parameters, -1 when the API does not say */
};

enum clc_arg_kind {
    CLC_ARG_BUF, /* a buffer: __global pointer */
    CLC_ARG_U32, /* uint */
    CLC_ARG_U64, /* ulong (and double's bits) */
    CLC_ARG_U8,  /* char, uchar */
    CLC_ARG_U16, /* short, ushort */
    CLC_ARG_LOCAL, /* a __local pointer of `value` bytes per work-group (OpenCL only: CUDA
                    * refuses it by name) */
};

struct clc_arg {
    enum clc_arg_kind kind;
    struct clc_buf *buf; /* CLC_ARG_BUF */
    uint64_t value;      /* the scalars (a float's bits as U32), CLC_ARG_LOCAL's bytes */
};

#define CLC_MAX_ARGS 12

/* One kernel launch: a descriptor the driver times, the model traces and explain reads. */
struct clc_launch {
    struct clc_kernel *kernel;
    unsigned dims;      /* 1 to 3 */
    size_t global[3];   /* work-items in each dimension, a multiple of local */
    size_t local[3];    /* the work-group shape */
    unsigned nargs;
    struct clc_arg args[CLC_MAX_ARGS];
};

/* What is timed: a launch, or (launch NULL) the API's own device-to-device copy. */
struct clc_op {
    const struct clc_launch *launch;
    struct clc_buf *src, *dst; /* the copy */
    size_t bytes;
};

/* ------------------------------------------------------------------ the interface */

/* Every function that can fail returns CLC_OK, or CLC_ERR after printing one line that names
 * the API call that failed and its error by name. */
struct clc_backend_ops {
    enum clc_api api;
    const char *copy_name; /* the vendor copy, for notes and reports: "clEnqueueCopyBuffer" */
    const char *alloc_limit; /* where the per-buffer limit comes from, for messages */
    /* Every device of the API (free *list with free()).  When the API is missing or has no
     * device: CLC_ERR, with a message saying what to install unless `quiet`. */
    int (*devices)(struct clc_device **list, int *count, bool quiet);
    /* Opens dev: context, queue, program cache; kernel files are read from kernel_dir. */
    int (*open)(const struct clc_device *dev, const char *kernel_dir, struct clc_backend **out);
    void (*close)(struct clc_backend *b);

    /* Buffers: `what` names one in messages.  A size above the device's per-buffer limit is
     * refused with a message naming the limit.  read, write and fill wait until done. */
    int (*alloc)(struct clc_backend *b, size_t bytes, const char *what, struct clc_buf **out);
    /* alloc in memory of the kind `mem`; CLC_ERR with a message for a kind the API or the
     * device does not offer (see clc_device.managed). */
    int (*alloc_in)(struct clc_backend *b, size_t bytes, enum clc_mem mem, const char *what,
                    struct clc_buf **out);
    /* A read-only width x height image of float (CLC_MEM_IMAGE2D), a kernel argument like a
     * buffer; write fills it whole (offset 0, width x height x 4 bytes); read and fill refuse
     * it.  CLC_ERR with a message where the device has no images or a side is too large. */
    int (*alloc_image)(struct clc_backend *b, size_t width, size_t height, const char *what,
                       struct clc_buf **out);
    void (*release)(struct clc_backend *b, struct clc_buf *buf);
    int (*write)(struct clc_backend *b, struct clc_buf *buf, size_t offset, size_t bytes,
                 const void *src);
    int (*read)(struct clc_backend *b, struct clc_buf *buf, size_t offset, size_t bytes,
                void *dst);
    int (*fill)(struct clc_backend *b, struct clc_buf *buf, size_t bytes, uint32_t pattern);

    /* Builds kernel `name` of `file` (relative to the kernel directory unless absolute) with
     * `options` (-D defines: the API adds its own), cached per file and options.  A build
     * failure prints the file, the options, the device and the compiler's log. */
    int (*build)(struct clc_backend *b, const char *file, const char *options, const char *name,
                 struct clc_kernel **out);
    /* A build made ahead of its use (host/driver/ahead.c), into the cache that build reads,
     * quietly: a file that does not compile says why when built.  NULL: build, then release
     * the kernel.  start_compiler (NULL where the API needs none) has such builds made by
     * `exe`, this binary, in a process of its own (compiler.h), where the API's compiler
     * holds up none of this process's calls; prepare then loads what it built. */
    int (*prepare)(struct clc_backend *b, const char *file, const char *options);
    void (*start_compiler)(struct clc_backend *b, const char *exe);
    void (*release_kernel)(struct clc_backend *b, struct clc_kernel *k);
    int (*kernel_info)(struct clc_backend *b, struct clc_kernel *k, struct clc_kernel_info *out);
    /* The code the API compiled `file` into, as text (PTX), and the build log (either may be
     * NULL; free both).  CLC_SKIP, quietly, when the API gives no text (a device other than
     * NVIDIA's, a build compiled past PTX); CLC_ERR with a message when it does not build. */
    int (*code)(struct clc_backend *b, const char *file, const char *options, bool verbose,
                char **text, char **log);

    /* Makes `count` launches of op without timing them and waits for them. */
    int (*run)(struct clc_backend *b, const struct clc_op *op, int count);
    /* Makes `lead` untimed launches, then `count` timed ones back to back, waits, and returns
     * the device time of the timed ones in *ms.  With `profile`, a profiler attached with
     * profiling started off (Nsight Compute's --profile-from-start off) sees the timed
     * launches and nothing else, where the API lets it (CUDA). */
    int (*time)(struct clc_backend *b, const struct clc_op *op, int lead, int count,
                bool profile, double *ms);

    /* Page-locked host memory that read can copy into at the bus's full speed (pageable
     * memory goes through the driver's staging buffers at a fraction of it), and its release;
     * NULL where the API has none or it would not help (a CPU device).  pin_alloc returns
     * NULL, quietly, when the memory cannot be had. */
    void *(*pin_alloc)(struct clc_backend *b, size_t bytes, uintptr_t *handle);
    void (*pin_free)(struct clc_backend *b, void *p, uintptr_t handle);
};

#define CLC_PINNED_KEEP 8

/* A page-locked block of a backend, kept for reuse from row to row (pinning is slow). */
struct clc_pinned {
    void *p;
    uintptr_t handle;
    size_t capacity;
    bool busy;
};

/* An open device.  Each API's own state follows it in a struct of the backend's. */
struct clc_backend {
    const struct clc_backend_ops *ops;
    struct clc_device dev;
    char kernel_dir[4096];
    struct clc_pinned pinned[CLC_PINNED_KEEP];
    unsigned long built_elsewhere; /* builds loaded from the compiler process (compiler.h) */
};

/* Read-back memory: page-locked where the API offers it (kept for the next row), else NULL
 * and the caller takes ordinary memory.  clc_pinned_put returns false for memory that is not
 * b's; clc_pinned_release_all, called by the API's close, frees the blocks. */
void *clc_pinned_get(struct clc_backend *b, size_t bytes);
bool clc_pinned_put(struct clc_backend *b, void *p);
void clc_pinned_release_all(struct clc_backend *b);

/* ------------------------------------------------------------------ built code */

#define CLC_BUILT_KEEP 64

/* What an API built from a kernel file with some options (an OpenCL program, a CUDA module),
 * kept per file and options for the life of the device (built.c).  A build may run on a
 * thread of its own (a trace build made ahead of its row): the cache is locked only to look
 * up and to add, never while compiling.  Its items are counted by their API (ref, unref):
 * the cache holds a reference to each, and so does each caller it hands one. */
struct clc_built {
    pthread_mutex_t lock;      /* over items and n */
    void (*ref)(void *item);   /* takes a reference; called with the lock held */
    void (*unref)(void *item); /* drops one, the last freeing the item; called without */
    struct {
        char *file, *options;  /* what it was built from */
        void *item;
    } items[CLC_BUILT_KEEP];   /* the oldest first */
    int n;
};

void clc_built_init(struct clc_built *c, void (*ref)(void *), void (*unref)(void *));
/* Drops the cache's references: an item goes once its last user drops its own. */
void clc_built_close(struct clc_built *c);

/* The item built from file with options (NULL: none), with a reference for the caller: the
 * one kept, or NULL when there is none and `built` is NULL.  A `built` given, with the
 * caller's reference, is kept when there still is none (dropping the oldest from a full
 * cache) and returned, else dropped for the one another thread kept meanwhile. */
void *clc_built_get(struct clc_built *c, const char *file, const char *options, void *built);

/* The table of an API (every API is built in; CUDA is loaded at run time). */
const struct clc_backend_ops *clc_backend_ops(enum clc_api a);

/* ------------------------------------------------------------------ device selection */

/* Picks a device of `list` by selector: NULL or "" for the default (the first GPU, else the
 * first device), a flat index "3", "P:D", or a case-insensitive part of the name.  Returns
 * the index into list, or -1 after a message (a usage error). */
int clc_select_device(const struct clc_device *list, int count, const char *selector);

/* The device of `list` that is the same hardware as `dev` (same PCI bus id, else the same
 * name), or -1. */
int clc_match_device(const struct clc_device *list, int count, const struct clc_device *dev);

/* Prints the `clcoalesce list` entries of these devices. */
void clc_print_devices(FILE *f, const struct clc_device *list, int count);

/* Fills what the driver left unknown in m: the last-level cache size (l2_source empty) from a
 * table of known GPUs, else 64 MiB "assumed" for another NVIDIA GPU (whose OpenCL
 * CL_DEVICE_GLOBAL_MEM_CACHE_SIZE is the L1 total, not the L2), else `reported_l2` from
 * `source`; and the peak bandwidth (NAN) from the table. */
void clc_known_facts(struct clc_device_meta *m, uint64_t reported_l2, const char *source);

/* The device name every report and message shows: $CLCOALESCE_DEVICE_NAME when set (a test
 * hook: the suite runs once with a 120-character name to prove nothing depends on it), else
 * `name`. */
void clc_device_name_override(char *name, size_t len);

/* Whether d can hold a width x height image (clc_device.image2d_max); if not, why, into
 * why ("the device does not support images", "a W x H image exceeds ..."). */
bool clc_image_fits(const struct clc_device *d, size_t width, size_t height, char *why,
                    size_t len);

/* ------------------------------------------------------------------ short forms */

static inline int clc_alloc(struct clc_backend *b, size_t bytes, const char *what,
                            struct clc_buf **out)
{
    return b->ops->alloc(b, bytes, what, out);
}
static inline void clc_release(struct clc_backend *b, struct clc_buf *buf)
{
    if (buf != NULL)
        b->ops->release(b, buf);
}
static inline void clc_release_kernel(struct clc_backend *b, struct clc_kernel *k)
{
    if (k != NULL)
        b->ops->release_kernel(b, k);
}

/* Rounds n up to a multiple of m (m > 0): OpenCL 1.2 has no non-uniform work-groups. */
size_t clc_round_up(size_t n, size_t m);

#endif
