/* bench.cu - the CUDA twins' harness: device description, buffers, event timing, verification
 * and the run loop, each mirroring its OpenCL counterpart in host/bench.c, host/ocl_runtime.c
 * and host/ocl_device.c so that both tools measure the same thing the same way. */
#include "bench.cuh"

#include <cuda_profiler_api.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "clcoalesce/stats.h"

/* Header-only NVTX: without a profiler attached its calls return at once. */
#include <nvtx3/nvToolsExt.h>

/* cudaEventElapsedTime's documented resolution is about half a microsecond. */
#define EVENT_RESOLUTION_NS 500.0

/* The per-buffer limit of this run (see cu_describe_device). */
static uint64_t max_alloc_bytes = UINT64_MAX;

/* ------------------------------------------------------------------ messages */

void cu_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    clc_vmessage(CU_PROG, "error", fmt, ap);
    va_end(ap);
}

void cu_note(const char *fmt, ...)
{
    if (clc_quiet)
        return;
    va_list ap;
    va_start(ap, fmt);
    clc_vmessage(CU_PROG, "note", fmt, ap);
    va_end(ap);
}

void cu_fail(const char *call, cudaError_t err, const char *file, int line)
{
    char shown[96];
    cu_error("%s failed: %s: %s (%s:%d)", clc_call_name(call, shown, sizeof shown),
             cudaGetErrorName(err), cudaGetErrorString(err), file, line);
}

/* ------------------------------------------------------------------ buffers */

cu_host::~cu_host()
{
    free(p);
}

int cu_host_alloc(cu_host *h, size_t n, enum clc_type t)
{
    h->p = malloc(n * clc_type_size(t) + 1);
    if (h->p == NULL) {
        cu_error("out of host memory for %zu elements", n);
        return CLC_ERR;
    }
    return CLC_OK;
}

/* Freed device memory stays in this process's pool for the next allocation.  A kernel that
 * runs within a fraction of a second after a multi-GiB cudaFree is slower: on an H100 an
 * fp64 in-place pass over 256 MiB ran at 2498 GB/s right after freeing 8 GiB and at 2846
 * GB/s 0.5 s later (bench/cuda/free_probe.cu), so with cudaMalloc/cudaFree the first row
 * after a case that freed a large buffer measured the driver's clean-up, not the kernel.
 * With the pool nothing is given back until the run ends.  Devices without memory pools
 * use cudaMalloc/cudaFree. */
static cudaMemPool_t pool;
static bool have_pool;

static void cu_pool_init(int dev)
{
    int supported = 0;
    uint64_t keep = UINT64_MAX;
    have_pool = cudaDeviceGetAttribute(&supported, cudaDevAttrMemoryPoolsSupported, dev) ==
                    cudaSuccess && supported &&
                cudaDeviceGetDefaultMemPool(&pool, dev) == cudaSuccess &&
                cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep) ==
                    cudaSuccess;
}

void cu_free(void *p)
{
    if (have_pool)
        cudaFreeAsync(p, 0);
    else
        cudaFree(p);
}

/* Allocates from the pool on the default stream, where every launch of the run goes; when
 * the pool's free blocks do not fit the request, gives them back and tries once more. */
static cudaError_t device_malloc(void **p, size_t bytes)
{
    if (!have_pool)
        return cudaMalloc(p, bytes);
    cudaError_t err = cudaMallocAsync(p, bytes, 0);
    if (err == cudaErrorMemoryAllocation) {
        cudaGetLastError(); /* clear it: the retry decides */
        if (cudaStreamSynchronize(0) == cudaSuccess && cudaMemPoolTrimTo(pool, 0) == cudaSuccess)
            err = cudaMallocAsync(p, bytes, 0);
    }
    return err;
}

int cu_alloc(cu_dev *d, size_t bytes, const char *what)
{
    char want[32], lim[32];
    if (bytes > max_alloc_bytes) {
        cu_error("allocation too large: %s needs %s, the limit per buffer is %s (a quarter of "
                 "the device memory, as NVIDIA's OpenCL allows); use a smaller --size",
                 what, clc_format_size(bytes, want, sizeof want),
                 clc_format_size(max_alloc_bytes, lim, sizeof lim));
        return CLC_ERR;
    }
    cudaError_t err = device_malloc(&d->p, bytes ? bytes : 1);
    if (err != cudaSuccess) {
        d->p = nullptr;
        cu_error("%s(%s, %s) failed: %s: %s", have_pool ? "cudaMallocAsync" : "cudaMalloc", what, clc_format_size(bytes, want, sizeof want),
                 cudaGetErrorName(err), cudaGetErrorString(err));
        return CLC_ERR;
    }
    d->bytes = bytes;
    return CLC_OK;
}

int cu_write(cu_dev *d, size_t offset, size_t bytes, const void *src)
{
    CU_TRY(cudaMemcpy(static_cast<char *>(d->p) + offset, src, bytes, cudaMemcpyHostToDevice));
    return CLC_OK;
}

int cu_read(const cu_dev *d, size_t offset, size_t bytes, void *dst)
{
    CU_TRY(cudaMemcpy(dst, static_cast<const char *>(d->p) + offset, bytes, cudaMemcpyDeviceToHost));
    return CLC_OK;
}

/* ------------------------------------------------------------------ values on the device */

template <typename T> __global__ void cu_init(T *a, uint64_t n)
{
    size_t j = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (j < n)
        a[j] = (T)cu_value(j);
}

int cu_bench_init_values(enum clc_type t, cu_dev *buf, size_t n)
{
    dim3 grid((unsigned)(cu_round_up(n, 256) / 256)), block(256);
    if (t == CLC_DOUBLE)
        cu_init<double><<<grid, block>>>(buf->as<double>(), n);
    else
        cu_init<float><<<grid, block>>>(buf->as<float>(), n);
    CU_TRY(cudaGetLastError());
    CU_TRY(cudaDeviceSynchronize());
    return CLC_OK;
}

int cu_bench_poison(cu_dev *d, size_t bytes)
{
    CU_TRY(cudaMemset(d->p, 0xff, bytes));
    CU_TRY(cudaDeviceSynchronize());
    return CLC_OK;
}

/* ------------------------------------------------------------------ timing */

/* Owns the two events of a timing. */
struct event_pair {
    cudaEvent_t start = nullptr, stop = nullptr;
    ~event_pair()
    {
        if (start)
            cudaEventDestroy(start);
        if (stop)
            cudaEventDestroy(stop);
    }
};

/* cu_time's API side for clc_time_launches. */
struct cuda_timer {
    cu_launch l;
    event_pair ev;
    const char *probe_label;
};

static int cuda_run(void *api, int count)
{
    const cuda_timer *c = static_cast<const cuda_timer *>(api);
    for (int i = 0; i < count; i++)
        CU_TRY(c->l.fn(c->l.arg));
    CU_TRY(cudaDeviceSynchronize());
    return CLC_OK;
}

/* The lead launches (the policy's, see timing.h) also matter to the events: a start event
 * recorded on an idle GPU completes at once, before the host has queued the launch behind
 * it, so it would time the host's launch latency too (1-2 % of a 0.2 ms kernel).  Behind a
 * lead launch it completes when that launch ends and the timed one begins. */
static int cuda_time(void *api, int lead, int count, bool probe, double *ms)
{
    const cuda_timer *c = static_cast<const cuda_timer *>(api);
    const char *label = probe ? c->probe_label : NULL;
    float f = 0;
    for (int i = 0; i < lead; i++)
        CU_TRY(c->l.fn(c->l.arg));
    if (label != NULL) {
        nvtxRangePushA(label);
        CU_TRY(cudaProfilerStart());
    }
    CU_TRY(cudaEventRecord(c->ev.start, 0));
    for (int i = 0; i < count; i++)
        CU_TRY(c->l.fn(c->l.arg));
    CU_TRY(cudaEventRecord(c->ev.stop, 0));
    if (label != NULL) {
        CU_TRY(cudaProfilerStop());
        nvtxRangePop();
    }
    CU_TRY(cudaEventSynchronize(c->ev.stop));
    CU_TRY(cudaEventElapsedTime(&f, c->ev.start, c->ev.stop));
    *ms = f;
    return CLC_OK;
}

int cu_time(const struct clc_timing_opts *o, const char *probe_label, cu_launch l,
            struct clc_timing *t)
{
    cuda_timer c;
    c.l = l;
    c.probe_label = probe_label;
    CU_TRY(cudaEventCreate(&c.ev.start));
    CU_TRY(cudaEventCreate(&c.ev.stop));
    struct clc_timer tm = {&c, cuda_run, cuda_time, NULL};
    return clc_time_launches(&tm, o, t);
}

/* ------------------------------------------------------------------ helpers for cases */

void cu_opts_defaults(struct cu_opts *o)
{
    clc_run_opts_defaults(o);
    o->max_block = 0;
}

bool cu_bench_wants(const struct cu_bench *b, const char *variant)
{
    return b->opts->variant == NULL || strcmp(b->opts->variant, variant) == 0;
}

int cu_bench_time(struct cu_bench *b, struct clc_result *r, cu_launch l, struct clc_timing *t)
{
    char label[160];
    const char *probe_label = NULL;
    if (b->profile_probe) {
        char param[24] = "-";
        if (r->has_param)
            snprintf(param, sizeof param, "%ld", r->param);
        snprintf(label, sizeof label, "clc/%s/%s/%s/%s", r->case_name, r->variant, param,
                 clc_type_name(r->type));
        probe_label = label;
        /* the launch order, for reading a profile that lacks the NVTX range names */
        fprintf(stderr, "clcoalesce-cuda: probe: %s\n", label);
    }
    if (cu_time(&b->timing, probe_label, l, t) != CLC_OK)
        return CLC_ERR;
    clc_timing_to_result(t, r);
    return CLC_OK;
}

int cu_bench_finish(struct cu_bench *b, struct clc_result *r, bool verified)
{
    clc_result_complete(r, verified, b->report->device.copy_gbps, b->report->device.peak_gbps,
                        b->timing.min_ms);
    if (!verified)
        cu_error("%s/%s (%s): %s", r->case_name, r->variant, clc_type_name(r->type), r->note);
    if (clc_report_row(b->report, b->table, r) != CLC_OK)
        return CLC_ERR;
    return verified ? CLC_OK : CLC_ERR;
}

int cu_bench_skip(struct cu_bench *b, enum clc_type t, const char *variant, const char *why)
{
    return clc_report_skip(b->report, b->table, b->c->name, variant, t, 0, why);
}

size_t cu_kernel_max_threads(const struct cu_bench *b, const void *func)
{
    cudaFuncAttributes a;
    int dev = 0, max = 1024;
    if (cudaFuncGetAttributes(&a, func) == cudaSuccess && a.maxThreadsPerBlock > 0) {
        max = a.maxThreadsPerBlock;
    } else if (cudaGetDevice(&dev) != cudaSuccess ||
               cudaDeviceGetAttribute(&max, cudaDevAttrMaxThreadsPerBlock, dev) != cudaSuccess) {
        max = 1024;
    }
    (void)cudaGetLastError();
    if (b->opts->max_block > 0 && (size_t)max > b->opts->max_block)
        return b->opts->max_block;
    return (size_t)max;
}

int cu_bench_map(struct cu_bench *b, enum clc_type t, const struct cu_map_spec *s)
{
    if (!cu_bench_wants(b, s->variant))
        return CLC_OK;
    size_t es = clc_type_size(t);
    cu_host h_in, got, want;
    cu_dev in, out;
    struct clc_result r;
    struct clc_timing tm;

    clc_result_init(&r, b->c->name, s->variant, t);
    if (s->has_param)
        clc_result_set_param(&r, s->param);
    r.bytes = s->bytes;
    if (cu_host_alloc(&h_in, s->n_in, t) || cu_host_alloc(&got, s->n_out, t) ||
        cu_host_alloc(&want, s->n_out, t) || cu_alloc(&in, s->n_in * es, "input") ||
        cu_alloc(&out, s->n_out * es, "output"))
        return CLC_ERR;
    clc_fill_values(h_in.p, s->n_in, t, 0);
    if (cu_write(&in, 0, s->n_in * es, h_in.p) || cu_bench_poison(&out, s->n_out * es))
        return CLC_ERR;
    cu_map_args a = {t, in.p, out.p, s->n_out, (unsigned)s->param,
                     dim3((unsigned)(s->global / s->local)), dim3((unsigned)s->local)};
    cudaError_t (*launch)(const struct cu_map_args *) = s->launch;
    auto call = [&a, launch]() { return launch(&a); };
    if (cu_bench_time(b, &r, cu_launch_of(call), &tm) || cu_read(&out, 0, s->n_out * es, got.p))
        return CLC_ERR;
    const struct clc_ref_args ref = {h_in.p, want.p, s->n_in, s->n_out, t, s->ref_ctx};
    s->reference(&ref);
    return cu_bench_finish(b, &r, clc_check_values(&r, got.p, want.p, s->n_out, t, 0));
}

cu_map_spec cu_map_elementwise(size_t n, enum clc_type t, size_t local, const char *variant,
                               cudaError_t (*launch)(const cu_map_args *),
                               clc_reference_fn reference)
{
    cu_map_spec s = {};
    s.variant = variant;
    s.n_in = n;
    s.n_out = n;
    s.global = cu_round_up(n, local);
    s.local = local;
    s.bytes = 2 * (uint64_t)n * clc_type_size(t);
    s.launch = launch;
    s.reference = reference;
    return s;
}

/* ------------------------------------------------------------------ devices */

void cu_describe_device(int dev, struct clc_device_meta *m)
{
    cudaDeviceProp p;
    memset(m, 0, sizeof *m);
    m->cc_major = m->cc_minor = m->warp_size = -1;
    m->peak_gbps = m->copy_gbps = NAN;
    if (cudaGetDeviceProperties(&p, dev) != cudaSuccess)
        return;
    int drv = 0, rt = 0;
    cudaDriverGetVersion(&drv);
    cudaRuntimeGetVersion(&rt);
    snprintf(m->name, sizeof m->name, "%s", p.name);
    snprintf(m->vendor, sizeof m->vendor, "NVIDIA");
    snprintf(m->driver, sizeof m->driver, "CUDA %d.%d", drv / 1000, drv % 1000 / 10);
    snprintf(m->platform, sizeof m->platform, "CUDA runtime %d.%d", rt / 1000, rt % 1000 / 10);
    snprintf(m->version, sizeof m->version, "sm_%d%d", p.major, p.minor);
    m->cc_major = p.major;
    m->cc_minor = p.minor;
    m->warp_size = p.warpSize;
    snprintf(m->pci_bus_id, sizeof m->pci_bus_id, "%04x:%02x:%02x.0", (unsigned)p.pciDomainID,
             (unsigned)p.pciBusID, (unsigned)p.pciDeviceID);
    m->compute_units = p.multiProcessorCount;
    m->global_mem = p.totalGlobalMem;
    /* CUDA has no per-buffer limit below the device memory; NVIDIA's OpenCL allows a quarter
     * of it (CL_DEVICE_MAX_MEM_ALLOC_SIZE).  Using the same limit makes the default sizes,
     * which are clamped to it, the same in both tools. */
    m->max_alloc = p.totalGlobalMem / 4;
    m->l2_bytes = p.l2CacheSize > 0 ? (uint64_t)p.l2CacheSize : 0;
    m->timer_res_ns = EVENT_RESOLUTION_NS;
    /* Theoretical peak: 2 transfers per memory clock (kHz) x bus width in bytes. */
    int clock_khz = 0, bus_bits = 0;
    if (cudaDeviceGetAttribute(&clock_khz, cudaDevAttrMemoryClockRate, dev) == cudaSuccess &&
        cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, dev) == cudaSuccess &&
        clock_khz > 0 && bus_bits > 0) {
        m->peak_gbps = 2.0 * clock_khz * 1e3 * (bus_bits / 8.0) / 1e9;
        snprintf(m->peak_source, sizeof m->peak_source, "cudaDeviceGetAttribute");
    }
    (void)cudaGetLastError();
}

int cu_select_device(const char *selector)
{
    int n = 0;
    cudaError_t err = cudaGetDeviceCount(&n);
    if (err != cudaSuccess) {
        cu_error("no CUDA device: %s", cudaGetErrorString(err));
        return -2;
    }
    if (n == 0) {
        cu_error("no CUDA device: cudaGetDeviceCount found none");
        return -2;
    }
    if (selector == NULL || *selector == '\0')
        return 0;
    char *end;
    long idx = strtol(selector, &end, 10);
    if (*end == '\0') {
        if (idx < 0 || idx >= n) {
            cu_error("no CUDA device %ld: there are %d (0..%d)", idx, n, n - 1);
            return -1;
        }
        return (int)idx;
    }
    for (int i = 0; i < n; i++) {
        cudaDeviceProp p;
        if (cudaGetDeviceProperties(&p, i) == cudaSuccess && strcasestr(p.name, selector) != NULL)
            return i;
    }
    cu_error("no CUDA device matches '%s'; 'clcoalesce-cuda list' shows them", selector);
    return -1;
}

int cu_print_devices(FILE *f)
{
    int n = 0;
    cudaError_t err = cudaGetDeviceCount(&n);
    if (err != cudaSuccess || n == 0) {
        cu_error("no CUDA device: %s",
                 err != cudaSuccess ? cudaGetErrorString(err) : "cudaGetDeviceCount found none");
        return CLC_ERR;
    }
    for (int i = 0; i < n; i++) {
        struct clc_device_meta m;
        char gm[32], l2[32];
        cu_describe_device(i, &m);
        fprintf(f, "[%d] %s\n", i, m.name);
        fprintf(f, "      compute cap.:   %d.%d (%s), warp size %d\n", m.cc_major, m.cc_minor,
                m.version, m.warp_size);
        fprintf(f, "      SMs:            %d\n", m.compute_units);
        fprintf(f, "      global memory:  %s\n", clc_format_size(m.global_mem, gm, sizeof gm));
        fprintf(f, "      L2:             %s\n", clc_format_size(m.l2_bytes, l2, sizeof l2));
        if (!isnan(m.peak_gbps))
            fprintf(f, "      peak:           %.1f GB/s\n", m.peak_gbps);
        fprintf(f, "      PCI bus id:     %s\n", m.pci_bus_id);
        fprintf(f, "      driver:         %s, %s\n", m.driver, m.platform);
    }
    return CLC_OK;
}

/* ------------------------------------------------------------------ the run */

/* The size a case runs at, by the OpenCL tool's rule (clc_case_size), saying why when --size
 * does not fit the per-buffer limit. */
static int case_size(const struct cu_opts *o, const struct clc_device_meta *m,
                     const struct cu_case *c, uint64_t *size)
{
    char a[32], b[32];
    unsigned factor = c->alloc_factor ? c->alloc_factor : 1;
    if (clc_case_size(m, c->alloc_factor, o->size, o->quick, size) == CLC_OK)
        return CLC_OK;
    cu_error("allocation too large: case '%s' allocates %u x --size = %s, the limit per buffer "
             "is %s", c->name, factor, clc_format_size(o->size * factor, a, sizeof a),
             clc_format_size(m->max_alloc, b, sizeof b));
    return CLC_ERR;
}

/* The driver's device-to-device copy over `bytes`: the ceiling every result is compared with. */
static int measure_copy_ceiling(const struct clc_timing_opts *to, uint64_t bytes, double *gbps)
{
    cu_dev src, dst;
    struct clc_timing t;
    if (cu_alloc(&src, bytes, "copy ceiling source") ||
        cu_alloc(&dst, bytes, "copy ceiling destination"))
        return CLC_ERR;
    CU_TRY(cudaMemset(src.p, 0, bytes));
    void *d = dst.p, *s = src.p;
    auto copy = [d, s, bytes]() {
        return cudaMemcpyAsync(d, s, bytes, cudaMemcpyDeviceToDevice, 0);
    };
    if (cu_time(to, NULL, cu_launch_of(copy), &t) != CLC_OK)
        return CLC_ERR;
    *gbps = clc_gbps(2 * bytes, t.ms_median);
    return CLC_OK;
}

int cu_run(const struct cu_opts *o, const char *const *names, int n, struct clc_report *rep,
           FILE *table)
{
    const struct cu_case *cases[64];
    int ncases = 0;
    if (n == 0) {
        for (size_t i = 0; i < cu_n_cases && i < 64; i++)
            cases[ncases++] = cu_cases[i];
    } else {
        for (int i = 0; i < n && i < 64; i++) {
            cases[ncases] = cu_find_case(names[i]);
            if (cases[ncases] == NULL) {
                cu_error("unknown case '%s'; 'clcoalesce-cuda cases' lists them", names[i]);
                return CLC_USAGE;
            }
            ncases++;
        }
    }
    int dev = cu_select_device(o->device);
    if (dev < 0)
        return dev == -1 ? CLC_USAGE : CLC_ERR;
    CU_TRY(cudaSetDevice(dev));
    cu_describe_device(dev, &rep->device);
    max_alloc_bytes = rep->device.max_alloc;
    for (int i = 0; i < ncases; i++) {
        uint64_t s;
        if (case_size(o, &rep->device, cases[i], &s) != CLC_OK)
            return CLC_ERR;
    }
    CU_TRY(cudaFree(0)); /* create the context now, not inside the first timing */
    cu_pool_init(dev);
    cu_note("device: %s (%s, %s)", rep->device.name, rep->device.pci_bus_id, rep->device.platform);

    struct clc_timing_opts to =
        clc_timing_defaults(o->warmup, o->reps, o->quick, rep->device.timer_res_ns);
    to.host_check = o->host_check;
    const char *pp = getenv("CLC_PROFILE_PROBE");
    bool profile_probe = pp != NULL && *pp != '\0' && strcmp(pp, "0") != 0;
    clc_report_options(rep, o, &to, names, n);

    /* The ceiling is measured at the size the copy case would use. */
    uint64_t ceiling_size;
    const struct cu_case *copy = cu_find_case("copy");
    case_size(o, &rep->device, copy ? copy : cases[0], &ceiling_size);
    if (measure_copy_ceiling(&to, ceiling_size, &rep->device.copy_gbps) != CLC_OK)
        return CLC_ERR;
    snprintf(rep->device.copy_source, sizeof rep->device.copy_source, "cudaMemcpy");
    rep->run.size = ceiling_size;
    char sz[32];
    cu_note("copy ceiling: %.1f GB/s (cudaMemcpy device to device, %s)", rep->device.copy_gbps,
            clc_format_size(ceiling_size, sz, sizeof sz));

    if (table != NULL)
        clc_table_header(table);
    int rc = CLC_OK;
    for (int i = 0; i < ncases; i++) {
        struct cu_bench b = {o, cases[i], 0, rep->device.max_alloc, rep, table, to, profile_probe};
        case_size(o, &rep->device, cases[i], &b.size);
        static const enum clc_type types[] = {CLC_FLOAT, CLC_DOUBLE};
        for (int k = 0; k < 2; k++) {
            enum clc_type t = types[k];
            if (!(cases[i]->types & t) || !(o->types & t))
                continue;
            if (cases[i]->run(&b, t) != CLC_OK)
                rc = CLC_ERR;
        }
    }
    return rc;
}
