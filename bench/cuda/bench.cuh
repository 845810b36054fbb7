/* bench.cuh - the CUDA twins' harness: the case registry, the run context, and the helpers a
 * case file uses to allocate, time, verify and report, mirroring include/clcoalesce/cases.h.
 *
 * A twin is one file bench/cuda/cases/<name>.cu defining `const struct cu_case cu_case_<name>`
 * and one line CLC_CASE(<name>) in bench/cuda/cases/cases.def.  Its kernels use the same
 * index arithmetic, launch shape (block = work-group size, grid = global / local), bytes rule
 * and verification as cl/<name>.cl and host/cases/<name>.c, and its rows carry the same case,
 * variant and param, so `clcoalesce compare` joins them with the OpenCL rows. */
#ifndef CLCOALESCE_CUDA_BENCH_CUH
#define CLCOALESCE_CUDA_BENCH_CUH

#include <cuda_runtime.h>
#include <stdint.h>
#include <stdio.h>

#include "clcoalesce/core.h"
#include "clcoalesce/options.h"
#include "clcoalesce/reference.h"
#include "clcoalesce/run.h"
#include "clcoalesce/result.h"
#include "clcoalesce/timing.h"
#include "clcoalesce/verify.h"

/* ------------------------------------------------------------------ messages and errors */

/* The program's name, the prefix of its messages. */
#define CU_PROG "clcoalesce-cuda"

/* "clcoalesce-cuda: error: ..." / "clcoalesce-cuda: note: ..." on stderr (notes obey --quiet). */
void cu_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void cu_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Prints "<call> failed: <cudaErrorName>: <description> (file:line)". */
void cu_fail(const char *call, cudaError_t err, const char *file, int line);

/* Runs a CUDA call; on failure reports it and returns CLC_ERR from the enclosing function.
 * Device and host buffers are owned by cu_dev / cu_host below, so an early return frees them. */
#define CU_TRY(call)                                                                        \
    do {                                                                                    \
        cudaError_t cu_err_ = (call);                                                       \
        if (cu_err_ != cudaSuccess) {                                                       \
            cu_fail(#call, cu_err_, __FILE__, __LINE__);                                    \
            return CLC_ERR;                                                                 \
        }                                                                                   \
    } while (0)

/* ------------------------------------------------------------------ buffers */

/* Returns a device allocation to the run's memory pool (see cu_pool_init). */
void cu_free(void *p);

/* A device allocation freed when it goes out of scope. */
struct cu_dev {
    void *p = nullptr;
    size_t bytes = 0;
    cu_dev() = default;
    cu_dev(const cu_dev &) = delete;
    cu_dev &operator=(const cu_dev &) = delete;
    ~cu_dev() { if (p) cu_free(p); }
    template <typename T> T *as() const { return static_cast<T *>(p); }
};

/* A host allocation freed when it goes out of scope. */
struct cu_host {
    void *p = nullptr;
    cu_host() = default;
    cu_host(const cu_host &) = delete;
    cu_host &operator=(const cu_host &) = delete;
    ~cu_host();
};

/* Allocates n elements of type t on the host; prints an error when out of memory. */
int cu_host_alloc(cu_host *h, size_t n, enum clc_type t);

/* Allocates `bytes` on the device, refusing sizes above the run's per-buffer limit (the same
 * limit the OpenCL tool has on NVIDIA, so both tools run the same sizes).  `what` names the
 * buffer in messages. */
int cu_alloc(cu_dev *d, size_t bytes, const char *what);

/* Blocking copies between host and device. */
int cu_write(cu_dev *d, size_t offset, size_t bytes, const void *src);
int cu_read(const cu_dev *d, size_t offset, size_t bytes, void *dst);

/* ------------------------------------------------------------------ values */

/* The deterministic input value of element j: the same function as clc_value() on the host
 * (include/clcoalesce/cases.h) and in cl/clc.h, so results match the OpenCL side bit for bit. */
__host__ __device__ inline double cu_value(uint64_t j)
{
    uint32_t h = (uint32_t)j * 2654435761u;
    return (double)((int)(h >> 22) - 512);
}

/* Rounds n up to a multiple of m: the OpenCL side's global size, so grid = round_up / block. */
inline size_t cu_round_up(size_t n, size_t m)
{
    return (n + m - 1) / m * m;
}

/* ------------------------------------------------------------------ configuration */

/* The options shared with the OpenCL tool (include/clcoalesce/options.h), and the twins' own. */
struct cu_opts : clc_run_opts {
    unsigned max_block;  /* --max-block: cap on a kernel's threads per block, 0 for none */
};

void cu_opts_defaults(struct cu_opts *o);

/* ------------------------------------------------------------------ the registry */

struct cu_bench;

struct cu_case {
    const char *name;       /* the OpenCL case's name */
    const char *summary;
    const char *variants;
    const char *bytes_rule;
    const char *expect;
    unsigned types;         /* enum clc_type mask */
    unsigned alloc_factor;  /* largest buffer, as a multiple of the size */
    int (*run)(struct cu_bench *b, enum clc_type t);
};

extern const struct cu_case *const cu_cases[];
extern const size_t cu_n_cases;
const struct cu_case *cu_find_case(const char *name);
void cu_print_cases(FILE *f);

/* ------------------------------------------------------------------ timing */

/* One enqueue of the thing being timed on the default stream, type-erased so the timing
 * loop stays out of every case.  cu_launch_of(f) wraps a callable returning cudaError_t
 * (kernel<<<...>>>(...); return cudaGetLastError();); f must outlive the cu_launch. */
struct cu_launch {
    cudaError_t (*fn)(const void *arg);
    const void *arg;
};
template <class F> cu_launch cu_launch_of(const F &f)
{
    return cu_launch{[](const void *a) { return (*static_cast<const F *>(a))(); }, &f};
}

/* Times l with the shared policy of include/clcoalesce/timing.h, as the OpenCL tool's
 * clc_time: each sample is `batch` launches between a start and a stop event, behind one
 * untimed launch that keeps the GPU busy while they are queued.  With probe_label set, the
 * probe launch alone runs between cudaProfilerStart and cudaProfilerStop inside an NVTX
 * range of that name (bench/ncu-sectors.sh profiles it). */
int cu_time(const struct clc_timing_opts *o, const char *probe_label, cu_launch l,
            struct clc_timing *t);

/* ------------------------------------------------------------------ running */

struct cu_bench {
    const struct cu_opts *opts;
    const struct cu_case *c;
    uint64_t size;              /* bytes of the main array for this case */
    uint64_t max_alloc;         /* per-buffer limit */
    struct clc_report *report;
    FILE *table;                /* rows are streamed here when non-NULL */
    struct clc_timing_opts timing;
    /* CLC_PROFILE_PROBE set in the environment: cu_bench_time names each row's probe launch
     * ("clc/case/variant/param/type") so a profiler sees that launch alone. */
    bool profile_probe;
};

/* Elements of type t in the case's main array. */
inline size_t cu_bench_elems(const struct cu_bench *b, enum clc_type t)
{
    return (size_t)(b->size / clc_type_size(t));
}

bool cu_bench_wants(const struct cu_bench *b, const char *variant);

/* Writes the poison pattern (all bits set: NaN in float and double) over a buffer. */
int cu_bench_poison(cu_dev *d, size_t bytes);

/* Writes cu_value(j) into elements [0, n) of buf on the device (256-thread blocks). */
int cu_bench_init_values(enum clc_type t, cu_dev *buf, size_t n);

/* Times l with the run's options and copies the timing into r. */
int cu_bench_time(struct cu_bench *b, struct clc_result *r, cu_launch l, struct clc_timing *t);


/* Completes a row (status, GB/s, percentages), adds it to the report and streams it.
 * Returns CLC_OK, or CLC_ERR when the row did not verify. */
int cu_bench_finish(struct cu_bench *b, struct clc_result *r, bool verified);

/* Adds a SKIPPED row for a variant this device cannot run, `why` in its note. */
int cu_bench_skip(struct cu_bench *b, enum clc_type t, const char *variant, const char *why);

/* The most threads a block of kernel `func` may have (cudaFuncGetAttributes, the device's
 * limit when the query fails), the twin of CL_KERNEL_WORK_GROUP_SIZE, capped by --max-block.
 * The cases that size blocks by it (matrix, transpose, rowsum) use it as the OpenCL side
 * uses the kernel's work-group limit. */
size_t cu_kernel_max_threads(const struct cu_bench *b, const void *func);

/* The out-of-place 1-D shape most cases share, as clc_bench_map: inputs cu_value(j) uploaded,
 * output poisoned, the launch timed, every output element checked against `reference`. */
struct cu_map_args {
    enum clc_type t;
    const void *in;
    void *out;
    uint64_t n_out;
    unsigned param;
    dim3 grid, block;
};
struct cu_map_spec {
    const char *variant;
    size_t n_in, n_out;
    size_t global, local;   /* the OpenCL launch: grid = global / local blocks of local */
    uint64_t bytes;
    bool has_param;
    long param;
    /* Launches the variant's kernel for a.t with a.grid / a.block; returns cudaGetLastError(). */
    cudaError_t (*launch)(const struct cu_map_args *a);
    clc_reference_fn reference; /* the host reference, the OpenCL case's own (reference.h) */
    const void *ref_ctx;
};
int cu_bench_map(struct cu_bench *b, enum clc_type t, const struct cu_map_spec *s);

/* The plainest map variant, as clc_map_elementwise: n elements in and n out, one per thread in
 * blocks of `local`, 2 x n x element size bytes counted. */
cu_map_spec cu_map_elementwise(size_t n, enum clc_type t, size_t local, const char *variant,
                               cudaError_t (*launch)(const cu_map_args *),
                               clc_reference_fn reference);

/* Runs the named cases (all when n == 0) on the selected device.  Returns CLC_OK, CLC_USAGE
 * (bad device selector) or CLC_ERR. */
int cu_run(const struct cu_opts *o, const char *const *names, int n, struct clc_report *rep,
           FILE *table);

/* Fills the device part of a report from the CUDA device `dev`. */
void cu_describe_device(int dev, struct clc_device_meta *m);

/* Picks a device by selector (NULL: device 0; an index; or part of the name).  Prints an
 * error and returns -1 (usage) or -2 (no device) on failure. */
int cu_select_device(const char *selector);

/* Prints the `list` table. */
int cu_print_devices(FILE *f);

/* The whole launcher of a map whose kernel template takes (const T *in, T *out, uint64_t n):
 * launches its float or double instance, as a.t says, with a.grid / a.block. */
inline cudaError_t cu_launch_map(const cu_map_args *a,
                                 void (*f32)(const float *, float *, uint64_t),
                                 void (*f64)(const double *, double *, uint64_t))
{
    if (a->t == CLC_DOUBLE)
        f64<<<a->grid, a->block>>>((const double *)a->in, (double *)a->out, a->n_out);
    else
        f32<<<a->grid, a->block>>>((const float *)a->in, (float *)a->out, a->n_out);
    return cudaGetLastError();
}

/* Calls launch_t<float> or launch_t<double> by a.t: the body of a map launcher whose kernel
 * takes more than cu_launch_map passes. */
#define CU_TYPED_LAUNCH(name, tmpl)                                                         \
    static cudaError_t name(const struct cu_map_args *a)                                    \
    {                                                                                       \
        return a->t == CLC_DOUBLE ? tmpl<double>(a) : tmpl<float>(a);                       \
    }

#endif
