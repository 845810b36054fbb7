/* hostmem.c - a copy and a read whose buffers live in host memory (OpenCL
 * CL_MEM_ALLOC_HOST_PTR; CUDA page-locked memory mapped into the device's address space) or
 * in CUDA managed memory, against the same kernels on the device's own memory.  The host
 * rows are bound by the host link, not DRAM: their note gives the link the device reports as
 * their ceiling, and the predictive model leaves them out. */
#include <math.h>

#include "clcoalesce/cases.h"

#define GROUP 256
#define K 8 /* loads per work-item of read_sum, as cl/hostmem.cl */

/* What a variant is: its memory and whether it copies or reads. */
struct kind {
    enum clc_mem mem;
    bool read;
};

/* The check of read_sum: sums (buffer 1) element i holds the sum of clc_value(i + k g) over
 * k < K, exactly (K values of at most 512 in magnitude). */
static bool check_sums(const struct clc_check_in *c, struct clc_result *r)
{
    size_t g = (size_t)c->plan->bufs[1].elems;
    void *want = clc_check_want(c, r, g);
    if (want == NULL)
        return false;
    for (size_t i = 0; i < g; i++) {
        double s = 0;
        for (size_t k = 0; k < K; k++)
            s += clc_value(i + k * g);
        clc_put(want, i, c->type, s);
    }
    bool ok = clc_check_values(r, c->got[1], want, g, c->type, 0);
    clc_host_put(want);
    return ok;
}

/* Into the note, the ceiling of a row on host memory: the link each way (a copy uses both
 * ways at once, a read one), or why there is none. */
static void note_ceiling(const struct clc_env *e, const struct kind *k, struct clc_plan *p)
{
    const struct clc_device_meta *m = &e->dev->meta;
    if (e->dev->cpu)
        clc_plan_note(p, "host memory is a CPU device's own: no bus between");
    else if (m->bus[0] && m->bus_gbps > 0)
        clc_plan_note(p, "ceiling %.1f GB/s: %s, %.1f GB/s each way%s",
                      m->bus_gbps * (k->read ? 1 : 2), m->bus, m->bus_gbps,
                      k->read ? "" : ", both ways at once");
    else
        clc_plan_note(p, "no ceiling: the device does not report its host link");
}

static int plan(const struct clc_env *e, const struct clc_variant *v, long param,
                struct clc_plan *p)
{
    (void)param;
    const struct kind *k = v->data;
    unsigned es = clc_env_es(e);
    if (k->mem == CLC_MEM_MANAGED && !e->dev->managed) {
        clc_plan_note(p, "the device offers no managed memory");
        return CLC_SKIP;
    }
    if (!k->read) {
        clc_plan_map(p, e, v->kernel, GROUP, clc_ref_copy);
    } else {
        uint64_t g = e->n / K;
        unsigned in = clc_plan_buffer(p, "in", g * K, es, CLC_INIT_VALUES);
        unsigned sums = clc_plan_buffer(p, "sums", g, es, CLC_INIT_POISON);
        p->bufs[sums].read_back = true;
        p->kernel = v->kernel;
        clc_plan_arg_buf(p, in);
        clc_plan_arg_buf(p, sums);
        clc_plan_arg_u64(p, g);
        clc_plan_1d(p, (size_t)g, GROUP);
        p->bytes = (g * K + g) * es;
        p->check = check_sums;
    }
    /* the input always, the output of a copy too: what crosses the link */
    for (unsigned b = 0; b < (k->read ? 1u : 2u); b++)
        p->bufs[b].mem = k->mem;
    if (k->mem == CLC_MEM_HOST)
        note_ceiling(e, k, p);
    return CLC_OK;
}

static const struct kind device_copy = {CLC_MEM_DEVICE, false}, device_read = {CLC_MEM_DEVICE, true};
static const struct kind host_copy = {CLC_MEM_HOST, false}, host_read = {CLC_MEM_HOST, true};
static const struct kind managed_copy = {CLC_MEM_MANAGED, false};
static const struct kind managed_read = {CLC_MEM_MANAGED, true};

#define ON_HOST "on host memory: the host link bounds it, not DRAM"
#define MANAGED "managed memory: the model does not follow its pages' migrations"
#define NO_MANAGED {[CLC_API_OPENCL] = "OpenCL has no managed memory"}

static const struct clc_variant variants[] = {
    {.name = "copy_device", .kernel = "copy", .plan = plan, .data = &device_copy},
    {.name = "copy_host", .kernel = "copy", .plan = plan, .data = &host_copy,
     .outside_model = ON_HOST},
    {.name = "copy_managed", .kernel = "copy", .plan = plan, .data = &managed_copy,
     .outside_model = MANAGED, .not_on = NO_MANAGED},
    {.name = "read_device", .kernel = "read_sum", .plan = plan, .data = &device_read},
    {.name = "read_host", .kernel = "read_sum", .plan = plan, .data = &host_read,
     .outside_model = ON_HOST},
    {.name = "read_managed", .kernel = "read_sum", .plan = plan, .data = &managed_read,
     .outside_model = MANAGED, .not_on = NO_MANAGED},
};

const struct clc_case clc_case_hostmem = {
    .name = "hostmem",
    .cl_file = "hostmem.cl",
    .summary = "a copy and a read on device memory, on host memory the device reads over "
               "the bus, and on managed memory",
    .variants_text = "copy_device, copy_host, copy_managed (out[i] = in[i]); read_device, "
                     "read_host, read_managed (sums[i] = in[i] + in[i + g] + ... , 8 loads); "
                     "managed: CUDA only",
    .bytes_rule = "copy: 2 x n x element size; read: 9/8 x n x element size (n read, n / 8 "
                  "sums written)",
    .expect = "on a discrete GPU the host rows run at the host link's rate (a PCIe 5.0 x16 "
              "link: about 63 GB/s each way), a small fraction of the device rows; managed "
              "rows match the device rows once the pages have migrated; on a CPU device all "
              "are the same memory",
    .types = CLC_FLOAT,
    .alloc_factor = 1,
    .min_elems = K,
    .no_plateau = true,
    .variants = variants,
    .n_variants = sizeof variants / sizeof variants[0],
};
