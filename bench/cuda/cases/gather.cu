/* gather.cu - twin of gather: out[i] = in[idx[i]] with identity indices, a random
 * permutation, and a permutation shuffled only within blocks of k elements.  The indices
 * are the OpenCL side's (clc_gather_indices). */
#include <stdint.h>
#include <stdlib.h>

#include "bench.cuh"

#define LOCAL 256

template <typename T> __global__ void gather(const T *in, const uint32_t *idx, T *out, uint64_t n)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[idx[i]];
}

struct gather_run {
    cu_dev in, idx, out;
    size_t n;
    cu_host h_idx, got, want;
};

template <typename T>
static int run_variant(cu_bench *b, enum clc_type t, gather_run *g, const char *variant,
                       size_t block, bool has_param)
{
    if (!cu_bench_wants(b, variant))
        return CLC_OK;
    size_t n = g->n, es = sizeof(T);
    dim3 grid((unsigned)(cu_round_up(n, LOCAL) / LOCAL)), threads(LOCAL);
    const T *in = g->in.as<T>();
    const uint32_t *idx = g->idx.as<uint32_t>();
    T *out = g->out.as<T>();
    uint64_t count = n;
    uint32_t *h_idx = static_cast<uint32_t *>(g->h_idx.p);
    struct clc_result r;
    struct clc_timing tm;
    clc_result_init(&r, b->c->name, variant, t);
    if (has_param)
        clc_result_set_param(&r, (long)block);
    r.bytes = (uint64_t)n * (es + sizeof(uint32_t)) + (uint64_t)n * es;
    clc_gather_indices(h_idx, n, block);
    auto launch = [=]() {
        gather<T><<<grid, threads>>>(in, idx, out, count);
        return cudaGetLastError();
    };
    if (cu_write(&g->idx, 0, n * sizeof(uint32_t), h_idx) || cu_bench_poison(&g->out, n * es) ||
        cu_bench_time(b, &r, cu_launch_of(launch), &tm) || cu_read(&g->out, 0, n * es, g->got.p))
        return CLC_ERR;
    /* in holds cu_value(j), so the expected output needs only the indices */
    CLC_PARALLEL_FOR
    for (size_t i = 0; i < n; i++)
        clc_put(g->want.p, i, t, cu_value(h_idx[i]));
    return cu_bench_finish(b, &r, clc_check_values(&r, g->got.p, g->want.p, n, t, 0));
}

template <typename T> static int run_t(cu_bench *b, enum clc_type t)
{
    static const size_t blocks[] = {32, 1024, 32768};
    gather_run g;
    g.n = cu_bench_elems(b, t);
    size_t es = sizeof(T);
    /* uint indices reach 2^32 - 1 elements; larger arrays (> 16 GiB of float) are cut */
    if (g.n > UINT32_MAX)
        g.n = UINT32_MAX;
    g.h_idx.p = malloc(g.n * sizeof(uint32_t));
    if (g.h_idx.p == NULL) {
        cu_error("out of host memory for %zu indices", g.n);
        return CLC_ERR;
    }
    if (cu_host_alloc(&g.got, g.n, t) || cu_host_alloc(&g.want, g.n, t) ||
        cu_alloc(&g.in, g.n * es, "input") || cu_alloc(&g.idx, g.n * sizeof(uint32_t), "indices") ||
        cu_alloc(&g.out, g.n * es, "output") || cu_bench_init_values(t, &g.in, g.n))
        return CLC_ERR;
    int rc = CLC_OK;
    if (run_variant<T>(b, t, &g, "identity", 1, false) != CLC_OK)
        rc = CLC_ERR;
    if (run_variant<T>(b, t, &g, "random", g.n, false) != CLC_OK)
        rc = CLC_ERR;
    for (size_t i = 0; i < sizeof blocks / sizeof blocks[0]; i++)
        if (run_variant<T>(b, t, &g, "block_random", blocks[i], true) != CLC_OK)
            rc = CLC_ERR;
    return rc;
}

static int run(cu_bench *b, enum clc_type t)
{
    return t == CLC_DOUBLE ? run_t<double>(b, t) : run_t<float>(b, t);
}

extern const struct cu_case cu_case_gather = {
    "gather",
    "out[i] = in[idx[i]]: identity indices vs a random permutation vs random within blocks "
    "of k elements",
    "identity; random (one permutation of all n); block_random, param = block k in elements "
    "(32, 1024, 32768); uint indices from a fixed-seed xorshift",
    "n x (element size + 4) read (values and indices) + n x element size written",
    "identity near the copy ceiling; random far below (every lane its own 32-byte sector, 8x "
    "the bytes for float); block_random k = 32 close to identity, k = 1024 mostly served by "
    "L1/L2, k = 32768 approaching random",
    CLC_FLOAT | CLC_DOUBLE,
    1,
    run,
};
