/* run.c - the size each case runs at, the shapes and grids derived from it, and the report's
 * account of the run's options, alike in both tools so that their rows join in `compare`. */
#include "clcoalesce/run.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define QUICK_SIZE ((uint64_t)1 << 20)
#define MIN_AUTO_SIZE ((uint64_t)64 << 20)
/* No default size past this, whatever a device (or a profile naming one) claims of its cache
 * or its peak: the loops below end there. */
#define MAX_AUTO_SIZE ((uint64_t)1 << 50)

static uint64_t pow2_at_least(uint64_t v)
{
    uint64_t p = 1;
    while (p < v && p < MAX_AUTO_SIZE)
        p <<= 1;
    return p;
}

bool clc_size_fits(const struct clc_device_meta *m, unsigned alloc_factor, uint64_t size)
{
    return size <= m->max_alloc / (alloc_factor ? alloc_factor : 1);
}

int clc_case_size(const struct clc_device_meta *m, bool cpu, unsigned alloc_factor,
                  bool plateau, uint64_t given, bool quick, uint64_t *size, char *why,
                  size_t whylen)
{
    uint64_t factor = alloc_factor ? alloc_factor : 1;
    why[0] = '\0';
    if (given) {
        if (!clc_size_fits(m, alloc_factor, given))
            return CLC_ERR;
        *size = given;
        return CLC_OK;
    }
    uint64_t s = quick ? QUICK_SIZE : pow2_at_least(m->l2_bytes < MAX_AUTO_SIZE / 4
                                                         ? 4 * m->l2_bytes : MAX_AUTO_SIZE);
    if (!quick && s < MIN_AUTO_SIZE)
        s = MIN_AUTO_SIZE;
    /* at the plateau: a copy of the size lasts CLC_PLATEAU_MS at the peak, while a buffer
     * stays within an eighth of the device's memory */
    bool peak = !isnan(m->peak_gbps) && m->peak_gbps > 0;
    while (!quick && !cpu && plateau && peak && s < MAX_AUTO_SIZE &&
           2.0 * (double)s / (m->peak_gbps * 1e6) < CLC_PLATEAU_MS &&
           (m->global_mem == 0 || 16 * s <= m->global_mem))
        s *= 2;
    if (!quick && cpu && s > CLC_CPU_SIZE)
        s = CLC_CPU_SIZE;
    uint64_t limit = m->max_alloc, first = s;
    const char *what = "the device's largest allocation";
    if (cpu && !quick && CLC_CPU_BUFFER < limit) {
        limit = CLC_CPU_BUFFER;
        what = "the largest buffer allowed on a CPU device";
    }
    while (s * factor > limit && s > 4096)
        s /= 2;
    if (s != first) {
        char a[32], b[32], c[32];
        snprintf(why, whylen, "%s instead of %s: its largest buffer holds %u x the size, and %s "
                 "is %s", clc_format_size(s, a, sizeof a), clc_format_size(first, b, sizeof b),
                 (unsigned)factor, what, clc_format_size(limit, c, sizeof c));
    }
    *size = s;
    return CLC_OK;
}

bool clc_matrix_shape(size_t n, size_t *width, size_t *height)
{
    size_t w = (size_t)sqrt((double)n);
    while (w > 1 && w * w > n)
        w--;
    while ((w + 1) * (w + 1) <= n)
        w++;
    *width = w ? w : 1;
    *height = n / *width;
    if (n >= CLC_MATRIX_ALIGN_FROM) { /* a measurement's matrix: whole tiles, aligned rows */
        *width = w / 32 * 32;
        *height = *width;
    }
    return *height != 0;
}

size_t clc_compute_units(const struct clc_device_meta *m)
{
    return m->compute_units > 0 ? (size_t)m->compute_units : 1;
}

size_t clc_grid_sizes(const size_t *wanted, size_t n, size_t needed, size_t *out)
{
    size_t count = 0;
    for (size_t i = 0; i < n; i++) {
        size_t groups = wanted[i] < needed ? wanted[i] : needed;
        bool seen = false;
        for (size_t d = 0; d < count; d++)
            seen = seen || out[d] == groups;
        if (!seen)
            out[count++] = groups;
    }
    return count;
}

size_t clc_float4_groups(size_t n, size_t local, size_t per_item)
{
    size_t per_group = local * per_item;
    size_t g = (n / 4 + per_group - 1) / per_group;
    return g ? g : 1;
}

void clc_report_options(struct clc_report *rep, const struct clc_run_opts *o,
                        const struct clc_timing_opts *to, const char *const *names, int n)
{
    struct clc_run_meta *m = &rep->run;
    m->size = o->size;
    m->size_auto = o->size == 0;
    if (to != NULL) {
        m->reps = to->reps;
        m->warmup = to->warmup;
    }
    m->quick = o->quick;
    m->cold = o->cold;
    m->types = o->types;
    if (names != NULL) {
        m->cases[0] = '\0';
        for (int i = 0; i < n; i++) {
            size_t len = strlen(m->cases);
            snprintf(m->cases + len, sizeof m->cases - len, "%s%s", i ? " " : "", names[i]);
        }
    }
    if (!isnan(o->peak_gbps)) {
        rep->device.peak_gbps = o->peak_gbps;
        snprintf(rep->device.peak_source, sizeof rep->device.peak_source, "--peak");
    }
}
