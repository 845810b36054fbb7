/* nvml.c - dlopen()s libnvidia-ml.so.1 and reads the memory clock and bus width, and the
 * PCIe link to the host. */
#define _POSIX_C_SOURCE 200809L
#include "clcoalesce/nvml.h"

#include <dlfcn.h>
#include <stddef.h>
#include <stdio.h>

#include "clcoalesce/core.h"

/* The few NVML entry points used, declared by hand: no NVML header is needed to build. */
typedef void *nvml_device;
typedef int (*nvml_init_fn)(void);
typedef int (*nvml_shutdown_fn)(void);
typedef int (*nvml_by_pci_fn)(const char *, nvml_device *);
typedef int (*nvml_clock_fn)(nvml_device, int, unsigned *);
typedef int (*nvml_width_fn)(nvml_device, unsigned *);
#define NVML_CLOCK_MEM 2

/* What a reader does with the device NVML found: CLC_OK once it has read what it wants. */
typedef int (*nvml_reader)(void *lib, nvml_device dev, void *out);

/* Loads NVML, finds the GPU at pci_bus_id and hands it to read.  CLC_ERR (silently) where
 * NVML is absent or does not know the device, else what read returns. */
static int with_device(const char *pci_bus_id, nvml_reader read, void *out)
{
    if (pci_bus_id == NULL || pci_bus_id[0] == '\0')
        return CLC_ERR;
    void *lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (lib == NULL)
        return CLC_ERR;
    int rc = CLC_ERR;
    nvml_init_fn init = (nvml_init_fn)dlsym(lib, "nvmlInit_v2");
    nvml_shutdown_fn shutdown = (nvml_shutdown_fn)dlsym(lib, "nvmlShutdown");
    nvml_by_pci_fn by_pci = (nvml_by_pci_fn)dlsym(lib, "nvmlDeviceGetHandleByPciBusId_v2");
    if (init == NULL || shutdown == NULL || by_pci == NULL || init() != 0)
        goto out;
    nvml_device dev;
    if (by_pci(pci_bus_id, &dev) == 0)
        rc = read(lib, dev, out);
    shutdown();
out:
    dlclose(lib);
    return rc;
}

static int read_peak(void *lib, nvml_device dev, void *out)
{
    nvml_clock_fn max_clock = (nvml_clock_fn)dlsym(lib, "nvmlDeviceGetMaxClockInfo");
    nvml_width_fn bus_width = (nvml_width_fn)dlsym(lib, "nvmlDeviceGetMemoryBusWidth");
    unsigned mhz = 0, bits = 0;
    if (max_clock == NULL || bus_width == NULL || max_clock(dev, NVML_CLOCK_MEM, &mhz) != 0 ||
        bus_width(dev, &bits) != 0 || mhz == 0 || bits == 0)
        return CLC_ERR;
    *(double *)out = 2.0 * mhz * 1e6 * bits / 8.0 / 1e9;
    return CLC_OK;
}

int clc_nvml_peak_gbps(const char *pci_bus_id, double *gbps)
{
    return with_device(pci_bus_id, read_peak, gbps);
}

/* GB/s each way per lane of PCIe generations 1 to 6, after the line encoding (8b/10b up to
 * 2.0, 128b/130b from 3.0; 6.0's FLIT mode taken at 242/256). */
static const double pcie_lane_gbps[] = {0.25, 0.5, 0.985, 1.969, 3.938, 7.563};

struct bus {
    char *name;
    size_t len;
    double *gbps;
};

static int read_bus(void *lib, nvml_device dev, void *out)
{
    struct bus *b = out;
    nvml_width_fn gen_of = (nvml_width_fn)dlsym(lib, "nvmlDeviceGetMaxPcieLinkGeneration");
    nvml_width_fn width_of = (nvml_width_fn)dlsym(lib, "nvmlDeviceGetMaxPcieLinkWidth");
    unsigned gen = 0, width = 0;
    if (gen_of == NULL || width_of == NULL || gen_of(dev, &gen) != 0 ||
        width_of(dev, &width) != 0 || gen < 1 ||
        gen > sizeof pcie_lane_gbps / sizeof pcie_lane_gbps[0] || width == 0)
        return CLC_ERR;
    *b->gbps = pcie_lane_gbps[gen - 1] * width;
    snprintf(b->name, b->len, "PCIe %u.0 x%u", gen, width);
    return CLC_OK;
}

int clc_nvml_bus(const char *pci_bus_id, char *name, size_t len, double *gbps)
{
    struct bus b = {name, len, gbps};
    return with_device(pci_bus_id, read_bus, &b);
}
