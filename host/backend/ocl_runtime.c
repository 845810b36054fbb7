/* ocl_runtime.c - the run context: kernel directory look-up, program builds with their logs,
 * buffers, and event timing of launches. */
#define _POSIX_C_SOURCE 200809L
#include "clcoalesce/ocl.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "clcoalesce/stats.h"

/* ------------------------------------------------------------------ context */

int clc_ctx_open(struct clc_ctx *ctx, const struct clc_device *dev, const char *kernel_dir)
{
    int rc = CLC_ERR;
    cl_int err;
    memset(ctx, 0, sizeof *ctx);
    ctx->dev = *dev;
    snprintf(ctx->kernel_dir, sizeof ctx->kernel_dir, "%s", kernel_dir);
    cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)dev->platform, 0};
    ctx->context = clCreateContext(props, 1, &dev->id, NULL, NULL, &err);
    CLC_CHECK(err);
    ctx->queue = clCreateCommandQueue(ctx->context, dev->id, CL_QUEUE_PROFILING_ENABLE, &err);
    CLC_CHECK(err);
    rc = CLC_OK;
cleanup:
    if (rc != CLC_OK)
        clc_ctx_close(ctx);
    return rc;
}

void clc_ctx_close(struct clc_ctx *ctx)
{
    for (int i = 0; i < ctx->n_programs; i++)
        clReleaseProgram(ctx->programs[i].program);
    ctx->n_programs = 0;
    if (ctx->flush_buf)
        clReleaseMemObject(ctx->flush_buf);
    ctx->flush_buf = NULL;
    if (ctx->queue)
        clReleaseCommandQueue(ctx->queue);
    if (ctx->context)
        clReleaseContext(ctx->context);
    ctx->queue = NULL;
    ctx->context = NULL;
}

/* ------------------------------------------------------------------ kernel directory */

static bool is_dir(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

int clc_find_kernel_dir(const char *explicit_dir, char *out, size_t len)
{
    if (explicit_dir != NULL && *explicit_dir) {
        if (!is_dir(explicit_dir)) {
            clc_error("kernel directory '%s' (--kernel-dir) does not exist", explicit_dir);
            return CLC_ERR;
        }
        snprintf(out, len, "%s", explicit_dir);
        return CLC_OK;
    }
    const char *env = getenv("CLCOALESCE_KERNEL_DIR");
    if (env != NULL && *env) {
        if (!is_dir(env)) {
            clc_error("kernel directory '%s' (CLCOALESCE_KERNEL_DIR) does not exist", env);
            return CLC_ERR;
        }
        snprintf(out, len, "%s", env);
        return CLC_OK;
    }
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    exe[n > 0 ? n : 0] = '\0';
#ifdef CLC_BUILD_DIR
    /* Running from the build tree: read the sources in place, so an edited .cl file
     * takes effect on the next run without rebuilding. */
    size_t bl = strlen(CLC_BUILD_DIR);
    if (strncmp(exe, CLC_BUILD_DIR, bl) == 0 && exe[bl] == '/' && is_dir(CLC_SOURCE_KERNEL_DIR)) {
        snprintf(out, len, "%s", CLC_SOURCE_KERNEL_DIR);
        return CLC_OK;
    }
#endif
    char *slash = strrchr(exe, '/');
    if (slash != NULL) {
        *slash = '\0';
        snprintf(out, len, "%s/../share/clcoalesce/cl", exe);
        if (is_dir(out))
            return CLC_OK;
    }
#ifdef CLC_INSTALL_KERNEL_DIR
    if (is_dir(CLC_INSTALL_KERNEL_DIR)) {
        snprintf(out, len, "%s", CLC_INSTALL_KERNEL_DIR);
        return CLC_OK;
    }
#endif
    clc_error("no kernel directory found: pass --kernel-dir DIR or set CLCOALESCE_KERNEL_DIR "
              "to the folder holding the .cl files");
    return CLC_ERR;
}

/* ------------------------------------------------------------------ programs */

static void print_build_log(struct clc_ctx *ctx, cl_program prog, const char *path,
                            const char *options)
{
    size_t n = 0;
    clGetProgramBuildInfo(prog, ctx->dev.id, CL_PROGRAM_BUILD_LOG, 0, NULL, &n);
    char *log = calloc(n + 1, 1);
    if (log != NULL)
        clGetProgramBuildInfo(prog, ctx->dev.id, CL_PROGRAM_BUILD_LOG, n, log, NULL);
    clc_error("building '%s' failed", path);
    fprintf(stderr, "  options: %s\n  device:  %s\n  build log:\n%s\n", options,
            ctx->dev.meta.name, log && *log ? log : "  (empty)");
    free(log);
}

int clc_build(struct clc_ctx *ctx, const char *file, const char *options, cl_program *out)
{
    char key[sizeof ctx->programs[0].key];
    snprintf(key, sizeof key, "%s|%s", file, options ? options : "");
    for (int i = 0; i < ctx->n_programs; i++) {
        if (strcmp(ctx->programs[i].key, key) == 0) {
            *out = ctx->programs[i].program;
            return CLC_OK;
        }
    }
    char path[8192];
    if (file[0] == '/')
        snprintf(path, sizeof path, "%s", file);
    else
        snprintf(path, sizeof path, "%s/%s", ctx->kernel_dir, file);
    size_t len = 0;
    char *src = clc_read_text(path, &len);
    if (src == NULL) {
        clc_error("cannot read kernel file '%s': %s", path, strerror(errno ? errno : ENOENT));
        return CLC_ERR;
    }
    /* -I lets a kernel file include a shared header that sits beside it. */
    char opts[8192];
    const char *q = strchr(ctx->kernel_dir, ' ') ? "\"" : ""; /* PoCL rejects needless quotes */
    snprintf(opts, sizeof opts, "-cl-std=CL1.2 -I %s%s%s %s", q, ctx->kernel_dir, q,
             options ? options : "");
    int rc = CLC_ERR;
    cl_int err;
    const char *srcs[] = {src};
    cl_program prog = clCreateProgramWithSource(ctx->context, 1, srcs, &len, &err);
    free(src);
    CLC_CHECK(err);
    err = clBuildProgram(prog, 1, &ctx->dev.id, opts, NULL, NULL);
    if (err != CL_SUCCESS) {
        print_build_log(ctx, prog, path, opts);
        clReleaseProgram(prog);
        return CLC_ERR;
    }
    if (ctx->n_programs == (int)(sizeof ctx->programs / sizeof ctx->programs[0])) {
        /* cache full: drop the oldest program, its kernels hold their own references */
        clReleaseProgram(ctx->programs[0].program);
        memmove(ctx->programs, ctx->programs + 1, sizeof ctx->programs - sizeof ctx->programs[0]);
        ctx->n_programs--;
    }
    snprintf(ctx->programs[ctx->n_programs].key, sizeof key, "%s", key);
    ctx->programs[ctx->n_programs++].program = prog;
    *out = prog;
    rc = CLC_OK;
cleanup:
    return rc;
}

int clc_kernel(struct clc_ctx *ctx, const char *file, const char *options, const char *name,
               cl_kernel *out)
{
    cl_program prog;
    if (clc_build(ctx, file, options, &prog) != CLC_OK)
        return CLC_ERR;
    cl_int err;
    *out = clCreateKernel(prog, name, &err);
    if (err != CL_SUCCESS) {
        clc_error("kernel '%s' not found in '%s/%s': clCreateKernel failed: %s", name,
                  ctx->kernel_dir, file, clc_cl_errname(err));
        return CLC_ERR;
    }
    return CLC_OK;
}

/* ------------------------------------------------------------------ buffers */

int clc_buffer(struct clc_ctx *ctx, size_t bytes, const char *what, cl_mem *out)
{
    char want[32], lim[32];
    if (bytes > ctx->dev.meta.max_alloc) {
        clc_error("allocation too large: %s needs %s, the device allows %s per buffer "
                  "(CL_DEVICE_MAX_MEM_ALLOC_SIZE); use a smaller --size",
                  what, clc_format_size(bytes, want, sizeof want),
                  clc_format_size(ctx->dev.meta.max_alloc, lim, sizeof lim));
        return CLC_ERR;
    }
    cl_int err;
    *out = clCreateBuffer(ctx->context, CL_MEM_READ_WRITE, bytes ? bytes : 1, NULL, &err);
    if (err != CL_SUCCESS) {
        clc_error("clCreateBuffer(%s, %s) failed: %s", what,
                  clc_format_size(bytes, want, sizeof want), clc_cl_errname(err));
        return CLC_ERR;
    }
    return CLC_OK;
}

int clc_write(struct clc_ctx *ctx, cl_mem buf, size_t offset, size_t bytes, const void *src)
{
    int rc = CLC_ERR;
    CLC_CHECK(clEnqueueWriteBuffer(ctx->queue, buf, CL_TRUE, offset, bytes, src, 0, NULL, NULL));
    rc = CLC_OK;
cleanup:
    return rc;
}

int clc_read(struct clc_ctx *ctx, cl_mem buf, size_t offset, size_t bytes, void *dst)
{
    int rc = CLC_ERR;
    CLC_CHECK(clEnqueueReadBuffer(ctx->queue, buf, CL_TRUE, offset, bytes, dst, 0, NULL, NULL));
    rc = CLC_OK;
cleanup:
    return rc;
}

int clc_fill(struct clc_ctx *ctx, cl_mem buf, size_t bytes, const void *pattern, size_t pattern_size)
{
    int rc = CLC_ERR;
    const size_t chunk = (size_t)1 << 30; /* a multiple of every pattern size */
    for (size_t off = 0; off < bytes; off += chunk) {
        size_t n = bytes - off < chunk ? bytes - off : chunk;
        CLC_CHECK(clEnqueueFillBuffer(ctx->queue, buf, pattern, pattern_size, off, n, 0, NULL, NULL));
    }
    CLC_CHECK(clFinish(ctx->queue));
    rc = CLC_OK;
cleanup:
    return rc;
}

/* ------------------------------------------------------------------ launches and timing */

size_t clc_round_up(size_t n, size_t m)
{
    return (n + m - 1) / m * m;
}

cl_int clc_enqueue_kernel(void *arg, cl_command_queue q, cl_event *ev)
{
    const struct clc_launch *l = arg;
    return clEnqueueNDRangeKernel(q, l->kernel, l->dims, NULL, l->global,
                                  l->local[0] ? l->local : NULL, 0, NULL, ev);
}

cl_int clc_enqueue_copy(void *arg, cl_command_queue q, cl_event *ev)
{
    const struct clc_copy *c = arg;
    return clEnqueueCopyBuffer(q, c->src, c->dst, 0, 0, c->bytes, 0, NULL, ev);
}

/* Enqueues `lead` launches without events, then `count` with one each, and returns the sum of
 * the timed launches' own START..END, in ms.  Not the START of the first to the END of the
 * last: on NVIDIA a launch that carries an event is followed by an idle gap of about 1.3 us
 * that launches without events do not have (bench/launch_probe.c; the host clock sees no
 * gap), so the gaps belong to the profiling, not to the kernel. */
static int time_batch(struct clc_ctx *ctx, clc_enqueue_fn fn, void *arg, int lead, int count,
                      double *ms)
{
    int rc = CLC_ERR, queued = 0;
    cl_event *ev = calloc((size_t)count, sizeof *ev);
    cl_ulong sum = 0;
    if (ev == NULL) {
        clc_error("out of memory");
        return CLC_ERR;
    }
    for (int i = 0; i < lead; i++)
        CLC_CHECK(fn(arg, ctx->queue, NULL));
    for (; queued < count; queued++)
        CLC_CHECK(fn(arg, ctx->queue, &ev[queued]));
    CLC_CHECK(clWaitForEvents(1, &ev[count - 1]));
    for (int i = 0; i < count; i++) {
        cl_ulong start, end;
        CLC_CHECK(clGetEventProfilingInfo(ev[i], CL_PROFILING_COMMAND_START, sizeof start, &start, NULL));
        CLC_CHECK(clGetEventProfilingInfo(ev[i], CL_PROFILING_COMMAND_END, sizeof end, &end, NULL));
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

/* Writes a buffer of twice the last-level cache (at least 8 MiB) and waits for it, so the
 * next launch finds none of its data cached.  A new pattern each time keeps the write from
 * being skipped as redundant. */
static int flush_cache(struct clc_ctx *ctx)
{
    if (ctx->flush_buf == NULL) {
        uint64_t want = 2 * ctx->dev.meta.l2_bytes;
        if (want < ((uint64_t)8 << 20))
            want = (uint64_t)8 << 20;
        if (want > ctx->dev.meta.max_alloc)
            want = ctx->dev.meta.max_alloc;
        if (clc_buffer(ctx, (size_t)want, "cache flush buffer", &ctx->flush_buf) != CLC_OK)
            return CLC_ERR;
        ctx->flush_bytes = (size_t)want & ~(size_t)3;
    }
    cl_uint pattern = ++ctx->flush_count;
    return clc_fill(ctx, ctx->flush_buf, ctx->flush_bytes, &pattern, sizeof pattern);
}

/* clc_time's API side for clc_time_launches. */
struct ocl_timer {
    struct clc_ctx *ctx;
    clc_enqueue_fn fn;
    void *arg;
};

/* No events: the host-clock check times launches as a program without profiling makes them. */
static int ocl_run(void *api, int count)
{
    struct ocl_timer *o = api;
    int rc = CLC_ERR;
    for (int i = 0; i < count; i++)
        CLC_CHECK(o->fn(o->arg, o->ctx->queue, NULL));
    CLC_CHECK(clFinish(o->ctx->queue));
    rc = CLC_OK;
cleanup:
    return rc;
}

static int ocl_time(void *api, int lead, int count, bool probe, double *ms)
{
    struct ocl_timer *o = api;
    (void)probe;
    return time_batch(o->ctx, o->fn, o->arg, lead, count, ms);
}

static int ocl_flush(void *api)
{
    return flush_cache(((struct ocl_timer *)api)->ctx);
}

int clc_time(struct clc_ctx *ctx, const struct clc_timing_opts *o, clc_enqueue_fn fn, void *arg,
             struct clc_timing *t)
{
    struct ocl_timer api = {ctx, fn, arg};
    struct clc_timer tm = {&api, ocl_run, ocl_time, ocl_flush};
    return clc_time_launches(&tm, o, t);
}
