/* nvml.c - dlopen()s libnvidia-ml.so.1 and reads the memory clock and bus width. */
#define _POSIX_C_SOURCE 200809L
#include "clcoalesce/nvml.h"

#include <dlfcn.h>
#include <stddef.h>

#include "clcoalesce/core.h"

/* The few NVML entry points used, declared by hand: no NVML header is needed to build. */
typedef void *nvml_device;
typedef int (*nvml_init_fn)(void);
typedef int (*nvml_shutdown_fn)(void);
typedef int (*nvml_by_pci_fn)(const char *, nvml_device *);
typedef int (*nvml_clock_fn)(nvml_device, int, unsigned *);
typedef int (*nvml_width_fn)(nvml_device, unsigned *);
#define NVML_CLOCK_MEM 2

int clc_nvml_peak_gbps(const char *pci_bus_id, double *gbps)
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
    nvml_clock_fn max_clock = (nvml_clock_fn)dlsym(lib, "nvmlDeviceGetMaxClockInfo");
    nvml_width_fn bus_width = (nvml_width_fn)dlsym(lib, "nvmlDeviceGetMemoryBusWidth");
    if (init == NULL || shutdown == NULL || by_pci == NULL || max_clock == NULL ||
        bus_width == NULL || init() != 0)
        goto out;
    nvml_device dev;
    unsigned mhz = 0, bits = 0;
    if (by_pci(pci_bus_id, &dev) == 0 && max_clock(dev, NVML_CLOCK_MEM, &mhz) == 0 &&
        bus_width(dev, &bits) == 0 && mhz > 0 && bits > 0) {
        *gbps = 2.0 * mhz * 1e6 * bits / 8.0 / 1e9;
        rc = CLC_OK;
    }
    shutdown();
out:
    dlclose(lib);
    return rc;
}
