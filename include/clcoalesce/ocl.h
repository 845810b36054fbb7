/* ocl.h - the OpenCL side of the library: error names, device discovery and selection,
 * the run context (device, queue, kernel directory, built programs), buffers and timing. */
#ifndef CLCOALESCE_OCL_H
#define CLCOALESCE_OCL_H

#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdbool.h>

#include "clcoalesce/result.h"
#include "clcoalesce/timing.h"

/* The name of an OpenCL error code, e.g. "CL_INVALID_WORK_GROUP_SIZE"; "CL_UNKNOWN_ERROR(-N)"
 * for codes it does not know (written to a static buffer). */
const char *clc_cl_errname(cl_int err);

/* Prints "clcoalesce: error: <call> failed: <NAME> (file:line)". */
void clc_cl_fail(const char *call, cl_int err, const char *file, int line);

/* Runs an OpenCL call; on failure reports it by name and jumps to `cleanup`.
 * The enclosing function keeps an `int rc = CLC_ERR;` that it sets to CLC_OK on success. */
#define CLC_CHECK(call)                                                                     \
    do {                                                                                    \
        cl_int clc_err_ = (call);                                                           \
        if (clc_err_ != CL_SUCCESS) {                                                       \
            clc_cl_fail(#call, clc_err_, __FILE__, __LINE__);                               \
            goto cleanup;                                                                   \
        }                                                                                   \
    } while (0)

/* ------------------------------------------------------------------ devices */

struct clc_device {
    cl_platform_id platform;
    cl_device_id id;
    int index;            /* flat index over all platforms */
    int platform_index;
    int device_index;     /* index within its platform */
    cl_device_type type;
    bool fp64;            /* cl_khr_fp64 (or OpenCL 1.2 double support) */
    bool is_nvidia;
    size_t max_wg_size;
    struct clc_device_meta meta;
};

/* Enumerates every device of every platform.  Returns CLC_OK with *list (free with free()),
 * or CLC_ERR with a message when there is no platform or no device. */
int clc_devices(struct clc_device **list, int *count);

/* Picks a device by selector: NULL or "" for the default (first GPU, else the first device),
 * a flat index "3", "P:D", or a case-insensitive substring of the device name.
 * Returns the index into list, or -1 with a message (CLC_USAGE case). */
int clc_select_device(const struct clc_device *list, int count, const char *selector);

/* Prints the `clcoalesce list` table. */
void clc_print_devices(FILE *f, const struct clc_device *list, int count);

/* Last-level cache size the tool believes in: a table for NVIDIA (whose reported
 * CL_DEVICE_GLOBAL_MEM_CACHE_SIZE is the L1 total, not the L2), the reported value elsewhere. */
uint64_t clc_known_l2_bytes(const struct clc_device_meta *m, uint64_t reported);

/* Theoretical peak DRAM bandwidth from a small table of known devices; NAN if unknown. */
double clc_known_peak_gbps(const char *device_name);

/* ------------------------------------------------------------------ run context */

struct clc_program_entry {
    char key[512];        /* file + options */
    cl_program program;
};

struct clc_ctx {
    struct clc_device dev;
    cl_context context;
    cl_command_queue queue;  /* in-order, with profiling enabled */
    char kernel_dir[4096];
    struct clc_program_entry programs[64];
    int n_programs;
    /* --cold: a buffer of 2 x L2 (at least 8 MiB), written before each timed sample to
     * evict the case's data; created on first use, released by clc_ctx_close. */
    cl_mem flush_buf;
    size_t flush_bytes;
    cl_uint flush_count;
};

/* Creates the context and a profiling queue on dev.  Returns CLC_OK or CLC_ERR. */
int clc_ctx_open(struct clc_ctx *ctx, const struct clc_device *dev, const char *kernel_dir);
void clc_ctx_close(struct clc_ctx *ctx);

/* Finds the kernel directory: `explicit_dir`, else $CLCOALESCE_KERNEL_DIR, else the source
 * tree's cl/ when running from the build tree, else <exe>/../share/clcoalesce/cl.
 * Returns CLC_OK with the path in out, or CLC_ERR with a message naming what was tried. */
int clc_find_kernel_dir(const char *explicit_dir, char *out, size_t len);

/* Reads `file` (relative to the kernel directory unless absolute) and builds it with
 * `options`.  Programs are cached per file and options for the life of the context.
 * On failure prints the file, the options and the device's build log; returns CLC_ERR. */
int clc_build(struct clc_ctx *ctx, const char *file, const char *options, cl_program *out);

/* Builds `file` and creates kernel `name` from it (caller releases the kernel). */
int clc_kernel(struct clc_ctx *ctx, const char *file, const char *options, const char *name,
               cl_kernel *out);

/* Creates a device buffer of `bytes`, refusing sizes above CL_DEVICE_MAX_MEM_ALLOC_SIZE
 * with a clear message.  `what` names the buffer in messages. */
int clc_buffer(struct clc_ctx *ctx, size_t bytes, const char *what, cl_mem *out);

/* Blocking host <-> device copies that report failures by name. */
int clc_write(struct clc_ctx *ctx, cl_mem buf, size_t offset, size_t bytes, const void *src);
int clc_read(struct clc_ctx *ctx, cl_mem buf, size_t offset, size_t bytes, void *dst);

/* Fills a buffer with a repeated byte pattern, in chunks, because a single large
 * clEnqueueFillBuffer has hung on some NVIDIA drivers. */
int clc_fill(struct clc_ctx *ctx, cl_mem buf, size_t bytes, const void *pattern, size_t pattern_size);

/* ------------------------------------------------------------------ launches and timing */

/* One enqueue of the thing being timed; returns its event in *ev, or none when ev is NULL. */
typedef cl_int (*clc_enqueue_fn)(void *arg, cl_command_queue q, cl_event *ev);

/* A kernel launch: the common clc_enqueue_fn argument.  local[0] == 0 lets the runtime pick. */
struct clc_launch {
    cl_kernel kernel;
    cl_uint dims;
    size_t global[3];
    size_t local[3];
};
cl_int clc_enqueue_kernel(void *launch, cl_command_queue q, cl_event *ev);

/* A device-to-device clEnqueueCopyBuffer of `bytes`: the vendor copy, the other common
 * clc_enqueue_fn argument. */
struct clc_copy {
    cl_mem src, dst;
    size_t bytes;
};
cl_int clc_enqueue_copy(void *copy, cl_command_queue q, cl_event *ev);

/* Rounds n up to a multiple of m (m > 0): OpenCL 1.2 has no non-uniform work-groups. */
size_t clc_round_up(size_t n, size_t m);

/* Times fn with the shared policy of timing.h: each sample is the sum of `batch` launches'
 * own START..END events, on the context's profiling queue; with o->cold a buffer of twice
 * the last-level cache is written before each sample.
 * Returns CLC_OK or CLC_ERR (the failing call is reported). */
int clc_time(struct clc_ctx *ctx, const struct clc_timing_opts *o, clc_enqueue_fn fn, void *arg,
             struct clc_timing *t);

#endif
