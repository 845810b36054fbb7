/* launch_probe.c - where the time of one launch goes on an OpenCL device: the kernel's own
 * START..END, the gap to the next launch, and what the host clock sees.  Kernels come from
 * cl/vector.cl (copy_vec, float4): the float4 copy, and the same launch with a width it was
 * not built for, so every work-item returns at once (an "empty" grid of the same shape);
 * beside them clEnqueueCopyBuffer and an empty single work-group.  For each, at each size:
 *
 *   single  the median START..END of a launch enqueued alone (30 samples)
 *   kernel  the median START..END of a launch among 30 back to back
 *   gap     the median START of one to END of the one before, among those 30
 *   span    (END of the last - START of the first) / 30: what a batched sample measures
 *   host    30 launches without events between two clFinish, per launch, host clock
 *   host_np the same on a queue created without profiling
 *
 * Prints one line per figure, in microseconds.  The CUDA counterpart is
 * bench/cuda/launch_probe.cu.
 *
 *   build/launch_probe [DEVICE]     (DEVICE as --device of clcoalesce; default the first GPU) */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>

#include "clcoalesce/core.h"
#include "clcoalesce/ocl.h"
#include "clcoalesce/stats.h"

#define N_LAUNCH 30

struct probe {
    struct clc_ctx *ctx;
    cl_command_queue plain; /* a queue without profiling, for host_np */
    clc_enqueue_fn fn;
    void *arg;
};

static double median_us(double *v, int n)
{
    struct clc_stats s;
    clc_stats_compute(v, (size_t)n, &s);
    return s.median * 1e-3;
}

static int profile(cl_event ev, cl_ulong *start, cl_ulong *end)
{
    int rc = CLC_ERR;
    CLC_CHECK(clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof *start, start, NULL));
    CLC_CHECK(clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof *end, end, NULL));
    rc = CLC_OK;
cleanup:
    return rc;
}

/* N_LAUNCH launches without events on queue q, between two clFinish: us per launch. */
static int host_clock(struct probe *p, cl_command_queue q, double *us)
{
    int rc = CLC_ERR;
    CLC_CHECK(clFinish(q));
    uint64_t t0 = clc_now_ns();
    for (int i = 0; i < N_LAUNCH; i++)
        CLC_CHECK(p->fn(p->arg, q, NULL));
    CLC_CHECK(clFinish(q));
    *us = (double)(clc_now_ns() - t0) * 1e-3 / N_LAUNCH;
    rc = CLC_OK;
cleanup:
    return rc;
}

static int measure(struct probe *p, const char *what, double mib)
{
    int rc = CLC_ERR;
    cl_command_queue q = p->ctx->queue;
    cl_event ev[N_LAUNCH] = {0};
    double single[N_LAUNCH], kernel[N_LAUNCH], gap[N_LAUNCH - 1], host, host_np;
    cl_ulong s0, e0, s, e, prev_end = 0;

    for (int i = 0; i < 20; i++) /* warm-up */
        CLC_CHECK(p->fn(p->arg, q, NULL));
    CLC_CHECK(clFinish(q));
    for (int i = 0; i < N_LAUNCH; i++) {
        CLC_CHECK(p->fn(p->arg, q, &ev[0]));
        CLC_CHECK(clWaitForEvents(1, &ev[0]));
        if (profile(ev[0], &s, &e) != CLC_OK)
            goto cleanup;
        single[i] = (double)(e - s);
        clReleaseEvent(ev[0]);
        ev[0] = NULL;
    }
    for (int i = 0; i < N_LAUNCH; i++)
        CLC_CHECK(p->fn(p->arg, q, &ev[i]));
    CLC_CHECK(clWaitForEvents(1, &ev[N_LAUNCH - 1]));
    for (int i = 0; i < N_LAUNCH; i++) {
        if (profile(ev[i], &s, &e) != CLC_OK)
            goto cleanup;
        kernel[i] = (double)(e - s);
        if (i > 0)
            gap[i - 1] = (double)s - (double)prev_end;
        else
            s0 = s;
        prev_end = e0 = e;
    }
    if (host_clock(p, q, &host) != CLC_OK || host_clock(p, p->plain, &host_np) != CLC_OK)
        goto cleanup;
    printf("opencl %7.0f MiB %-12s single  %9.2f\n", mib, what, median_us(single, N_LAUNCH));
    printf("opencl %7.0f MiB %-12s kernel  %9.2f\n", mib, what, median_us(kernel, N_LAUNCH));
    printf("opencl %7.0f MiB %-12s gap     %9.2f\n", mib, what, median_us(gap, N_LAUNCH - 1));
    printf("opencl %7.0f MiB %-12s span    %9.2f\n", mib, what,
           (double)(e0 - s0) * 1e-3 / N_LAUNCH);
    printf("opencl %7.0f MiB %-12s host    %9.2f\n", mib, what, host);
    printf("opencl %7.0f MiB %-12s host_np %9.2f\n", mib, what, host_np);
    fflush(stdout);
    rc = CLC_OK;
cleanup:
    for (int i = 0; i < N_LAUNCH; i++)
        if (ev[i])
            clReleaseEvent(ev[i]);
    return rc;
}

static int probe_size(struct clc_ctx *ctx, cl_command_queue plain, size_t bytes)
{
    int rc = CLC_ERR;
    cl_mem in = NULL, out = NULL;
    cl_kernel k = NULL;
    cl_ulong n = bytes / sizeof(float);
    cl_uint four = 4, none = 0;
    double mib = (double)bytes / (1 << 20);
    if (clc_buffer(ctx, bytes, "input", &in) != CLC_OK ||
        clc_buffer(ctx, bytes, "output", &out) != CLC_OK ||
        clc_kernel(ctx, "vector.cl", "-DT=float -DW=4", "copy_vec", &k) != CLC_OK)
        goto cleanup;
    cl_uint zero = 0;
    if (clc_fill(ctx, in, bytes, &zero, sizeof zero) != CLC_OK)
        goto cleanup;
    CLC_CHECK(clSetKernelArg(k, 0, sizeof in, &in));
    CLC_CHECK(clSetKernelArg(k, 1, sizeof out, &out));
    CLC_CHECK(clSetKernelArg(k, 2, sizeof n, &n));

    struct clc_launch grid = {k, 1, {clc_round_up(n / 4, 256)}, {256}};
    struct clc_launch one = {k, 1, {256}, {256}};
    struct clc_copy copy = {in, out, bytes};
    struct probe p = {ctx, plain, clc_enqueue_kernel, &grid};

    CLC_CHECK(clSetKernelArg(k, 3, sizeof four, &four));
    if (measure(&p, "float4_copy", mib) != CLC_OK)
        goto cleanup;
    CLC_CHECK(clSetKernelArg(k, 3, sizeof none, &none));
    if (measure(&p, "empty_grid", mib) != CLC_OK)
        goto cleanup;
    p.arg = &one;
    if (bytes == ((size_t)256 << 20) && measure(&p, "empty_group", mib) != CLC_OK)
        goto cleanup;
    p.fn = clc_enqueue_copy;
    p.arg = &copy;
    if (measure(&p, "enqueue_copy", mib) != CLC_OK)
        goto cleanup;
    rc = CLC_OK;
cleanup:
    if (k)
        clReleaseKernel(k);
    if (in)
        clReleaseMemObject(in);
    if (out)
        clReleaseMemObject(out);
    return rc;
}

int main(int argc, char **argv)
{
    struct clc_device *list = NULL;
    struct clc_ctx ctx = {0};
    cl_command_queue plain = NULL;
    char dir[4096];
    int count, rc = CLC_ERR;
    cl_int err;
    if (clc_devices(&list, &count) != CLC_OK)
        return 1;
    int d = clc_select_device(list, count, argc > 1 ? argv[1] : NULL);
    if (d < 0 || clc_find_kernel_dir(NULL, dir, sizeof dir) != CLC_OK ||
        clc_ctx_open(&ctx, &list[d], dir) != CLC_OK)
        goto cleanup;
    plain = clCreateCommandQueue(ctx.context, list[d].id, 0, &err);
    CLC_CHECK(err);
    printf("# %s, %s; microseconds\n", list[d].meta.name, list[d].meta.driver);
    for (size_t mib = 64; mib <= 1024; mib *= 4)
        if (probe_size(&ctx, plain, mib << 20) != CLC_OK)
            goto cleanup;
    rc = CLC_OK;
cleanup:
    if (plain)
        clReleaseCommandQueue(plain);
    clc_ctx_close(&ctx);
    free(list);
    return rc == CLC_OK ? 0 : 1;
}
