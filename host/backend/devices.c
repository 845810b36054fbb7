/* devices.c - what the back ends share: the API names and table, device selection and the
 * `list` entries, and the table of known GPUs (L2 size, peak bandwidth), the fallback where
 * the CUDA driver cannot describe a GPU. */
#define _GNU_SOURCE
#include "clcoalesce/backend.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

extern const struct clc_backend_ops clc_opencl_ops;
extern const struct clc_backend_ops clc_cuda_ops;

static const struct clc_backend_ops *const apis[CLC_API_COUNT] = {
    [CLC_API_OPENCL] = &clc_opencl_ops,
    [CLC_API_CUDA] = &clc_cuda_ops,
};

const struct clc_backend_ops *clc_backend_ops(enum clc_api a)
{
    return (unsigned)a < CLC_API_COUNT ? apis[a] : NULL;
}

const char *clc_api_name(enum clc_api a)
{
    return a == CLC_API_CUDA ? "cuda" : "opencl";
}

int clc_parse_api(const char *s, unsigned *mask)
{
    if (strcmp(s, "opencl") == 0)
        *mask = 1u << CLC_API_OPENCL;
    else if (strcmp(s, "cuda") == 0)
        *mask = 1u << CLC_API_CUDA;
    else if (strcmp(s, "both") == 0)
        *mask = (1u << CLC_API_OPENCL) | (1u << CLC_API_CUDA);
    else
        return CLC_USAGE;
    return CLC_OK;
}

size_t clc_round_up(size_t n, size_t m)
{
    return (n + m - 1) / m * m;
}

void clc_device_name_override(char *name, size_t len)
{
    const char *o = getenv("CLCOALESCE_DEVICE_NAME");
    if (o != NULL && *o)
        snprintf(name, len, "%s", o);
}

/* ------------------------------------------------------------------ known devices */

static const struct {
    const char *name_part; /* case-insensitive substring of the device name */
    uint64_t l2_bytes;
    double peak_gbps;      /* 2 x memory clock x bus width / 8 */
} known_devices[] = {
    {"H200", 60ull << 20, 4814.0},          /* 3201 MHz x 6016 bit */
    {"H100 80GB HBM3", 50ull << 20, 3352.0}, /* 2619 MHz x 5120 bit */
    {"H100 PCIe", 50ull << 20, 2039.0},
    {"H100", 50ull << 20, NAN},
    {"A100-SXM4-80GB", 40ull << 20, 2039.0},
    {"A100", 40ull << 20, 1555.0},
    {"L40", 96ull << 20, 864.0},
    {"RTX 4090", 72ull << 20, 1008.0},
    {"V100", 6ull << 20, 900.0},
};

static int known_index(const char *name)
{
    for (size_t i = 0; i < sizeof known_devices / sizeof known_devices[0]; i++)
        if (strcasestr(name, known_devices[i].name_part) != NULL)
            return (int)i;
    return -1;
}

void clc_known_facts(struct clc_device_meta *m, uint64_t reported_l2, const char *source)
{
    int k = known_index(m->name);
    if (m->l2_source[0] == '\0') {
        if (k >= 0) {
            m->l2_bytes = known_devices[k].l2_bytes;
            snprintf(m->l2_source, sizeof m->l2_source, "table");
        } else if (strcasestr(m->vendor, "NVIDIA") != NULL) {
            /* an NVIDIA GPU the driver did not describe: assume a large L2 rather than trust
             * OpenCL's figure, which is the L1 total */
            m->l2_bytes = 64ull << 20;
            snprintf(m->l2_source, sizeof m->l2_source, "assumed");
        } else {
            m->l2_bytes = reported_l2;
            snprintf(m->l2_source, sizeof m->l2_source, "%s", source);
        }
    }
    if (isnan(m->peak_gbps) && k >= 0 && !isnan(known_devices[k].peak_gbps)) {
        m->peak_gbps = known_devices[k].peak_gbps;
        snprintf(m->peak_source, sizeof m->peak_source, "table");
    }
}

/* ------------------------------------------------------------------ selection */

bool clc_image_fits(const struct clc_device *d, size_t width, size_t height, char *why,
                    size_t len)
{
    const size_t *max = d->image2d_max;
    if (max[0] == 0)
        snprintf(why, len, "the device does not support images");
    else if (width == 0 || height == 0 || width > max[0] || height > max[1])
        snprintf(why, len, "a %zu x %zu image exceeds the device's largest, %zu x %zu", width,
                 height, max[0], max[1]);
    else
        return true;
    return false;
}

int clc_select_device(const struct clc_device *list, int count, const char *sel)
{
    if (sel == NULL || *sel == '\0') {
        for (int i = 0; i < count; i++)
            if (list[i].gpu)
                return i;
        return 0;
    }
    long a, b;
    char tail;
    if (sscanf(sel, "%ld:%ld%c", &a, &b, &tail) == 2) {
        char want[32];
        snprintf(want, sizeof want, "%ld:%ld", a, b);
        for (int i = 0; i < count; i++)
            if (strcmp(list[i].label, want) == 0)
                return i;
        clc_error("no device %s (platform:device); 'clcoalesce list' shows the devices", want);
        return -1;
    }
    bool numeric = true;
    for (const char *p = sel; *p; p++)
        numeric = numeric && isdigit((unsigned char)*p);
    if (numeric) {
        long v;
        if (clc_parse_count(sel, 0, count - 1, &v) == CLC_OK)
            return (int)v;
        clc_error("device index %s is out of range (0..%d); 'clcoalesce list' shows the devices",
                  sel, count - 1);
        return -1;
    }
    for (int i = 0; i < count; i++)
        if (strcasestr(list[i].meta.name, sel) != NULL)
            return i;
    clc_error("no device name contains '%s'; 'clcoalesce list' shows the devices", sel);
    return -1;
}

int clc_match_device(const struct clc_device *list, int count, const struct clc_device *dev)
{
    for (int i = 0; i < count; i++)
        if (dev->meta.pci_bus_id[0] &&
            strcasecmp(list[i].meta.pci_bus_id, dev->meta.pci_bus_id) == 0)
            return i;
    if (dev->meta.pci_bus_id[0])
        return -1; /* the same name on another bus is another GPU */
    for (int i = 0; i < count; i++)
        if (strcmp(list[i].meta.name, dev->meta.name) == 0)
            return i;
    return -1;
}

void clc_print_devices(FILE *f, const struct clc_device *list, int count)
{
    char gm[32], ma[32], l2[32];
    for (int i = 0; i < count; i++) {
        const struct clc_device *d = &list[i];
        const struct clc_device_meta *m = &d->meta;
        fprintf(f, "[%d] %s  %s\n", d->index, d->label, m->name);
        fprintf(f, "      platform:       %s\n", m->platform);
        fprintf(f, "      vendor:         %s\n", m->vendor);
        fprintf(f, "      type:           %s\n", d->gpu ? "GPU" : d->cpu ? "CPU" : "other");
        fprintf(f, "      driver:         %s\n", m->driver);
        fprintf(f, "      %-16s%s\n", d->api == CLC_API_CUDA ? "CUDA:" : "OpenCL C:", m->version);
        fprintf(f, "      compute units:  %d", m->compute_units);
        fprintf(f, m->cu_source[0] ? " (%s)\n" : "\n", m->cu_source);
        fprintf(f, "      global memory:  %s\n", clc_format_size(m->global_mem, gm, sizeof gm));
        fprintf(f, "      max allocation: %s\n", clc_format_size(m->max_alloc, ma, sizeof ma));
        if (m->l2_bytes > 0) /* what the default size and the 'in cache' marks go by */
            fprintf(f, "      L2 cache:       %s (%s)\n",
                    clc_format_size(m->l2_bytes, l2, sizeof l2), m->l2_source);
        if (m->mem_clock_mhz > 0) /* peak_source names where the clock and width came from */
            fprintf(f, "      memory:         %d MHz x %d-bit bus (%s)\n", m->mem_clock_mhz,
                    m->bus_width_bits, m->peak_source);
        if (!isnan(m->peak_gbps))
            fprintf(f, "      peak bandwidth: %.0f GB/s (%s)\n", m->peak_gbps, m->peak_source);
        else
            fprintf(f, "      peak bandwidth: unknown (--peak GBPS gives it)\n");
        fprintf(f, "      fp64:           %s\n", d->fp64 ? "yes" : "no");
        fprintf(f, "      timer:          %.0f ns resolution\n", m->timer_res_ns);
        if (m->cc_major >= 0)
            fprintf(f, "      compute cap.:   %d.%d\n", m->cc_major, m->cc_minor);
        if (m->warp_size > 0)
            fprintf(f, "      warp size:      %d\n", m->warp_size);
        if (m->pci_bus_id[0])
            fprintf(f, "      PCI bus id:     %s\n", m->pci_bus_id);
    }
}
