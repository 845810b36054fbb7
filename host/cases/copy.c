/* copy.c - the ceiling: the vendor's clEnqueueCopyBuffer and a one-element-per-work-item
 * copy kernel over the same bytes. */
#include <stdlib.h>

#include "clcoalesce/cases.h"

/* The driver's own copy: no kernel of ours, so it shows what the memory system gives. */
static int run_enqueue(struct clc_bench *b, enum clc_type t, size_t n)
{
    if (!clc_bench_wants(b, "enqueue"))
        return CLC_OK;
    int rc = CLC_ERR;
    size_t bytes = n * clc_type_size(t);
    struct clc_copy c = {NULL, NULL, bytes};
    void *h_in = clc_host_alloc(n, t), *got = clc_host_alloc(n, t);
    struct clc_result r;
    struct clc_timing tm;
    clc_result_init(&r, b->c->name, "enqueue", t);
    r.bytes = 2 * (uint64_t)bytes;
    if (h_in == NULL || got == NULL || clc_buffer(b->ctx, bytes, "source", &c.src) != CLC_OK ||
        clc_buffer(b->ctx, bytes, "destination", &c.dst) != CLC_OK)
        goto cleanup;
    clc_fill_values(h_in, n, t, 0);
    if (clc_write(b->ctx, c.src, 0, bytes, h_in) != CLC_OK ||
        clc_bench_poison(b, c.dst, bytes) != CLC_OK ||
        clc_bench_time(b, &r, clc_enqueue_copy, &c, &tm) != CLC_OK ||
        clc_read(b->ctx, c.dst, 0, bytes, got) != CLC_OK)
        goto cleanup;
    rc = clc_bench_finish(b, &r, clc_check_values(&r, got, h_in, n, t, 0));
cleanup:
    if (c.src)
        clReleaseMemObject(c.src);
    if (c.dst)
        clReleaseMemObject(c.dst);
    free(h_in);
    free(got);
    return rc;
}

static int run(struct clc_bench *b, enum clc_type t)
{
    size_t n = clc_bench_elems(b, t);
    struct clc_map_spec kernel = clc_map_elementwise(n, t, 256, "kernel", "copy", clc_ref_copy);
    int rc = run_enqueue(b, t, n);
    if (clc_bench_map(b, t, &kernel) != CLC_OK)
        rc = CLC_ERR;
    return rc;
}

const struct clc_case clc_case_copy = {
    .name = "copy",
    .cl_file = "copy.cl",
    .kernels = "copy",
    .summary = "the ceiling: clEnqueueCopyBuffer vs a one-element-per-work-item copy kernel",
    .variants = "enqueue (clEnqueueCopyBuffer), kernel (out[i] = in[i])",
    .bytes_rule = "2 x n x element size (each element read once and written once)",
    .expect = "enqueue is the practical ceiling; a 4-byte-per-work-item kernel keeps too few "
              "bytes in flight to match it on a large GPU (see mlp and vector)",
    .types = CLC_FLOAT,
    .alloc_factor = 1,
    .run = run,
};
