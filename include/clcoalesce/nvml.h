/* nvml.h - theoretical peak memory bandwidth from NVIDIA's management library, loaded at run
 * time so that nothing of it is needed to build. */
#ifndef CLCOALESCE_NVML_H
#define CLCOALESCE_NVML_H

#include <stddef.h>

/* Peak DRAM bandwidth in GB/s of the GPU at `pci_bus_id` ("0000:41:00.0"):
 * 2 x max memory clock x bus width / 8.  Returns CLC_OK, or CLC_ERR (silently) when
 * libnvidia-ml.so.1 is absent or does not know the device. */
int clc_nvml_peak_gbps(const char *pci_bus_id, double *gbps);

/* The host link of the GPU at `pci_bus_id`: the PCIe generation and width the device and the
 * system allow (NVML's maximum, not the current link, which idles at a lower generation),
 * named in `name` ("PCIe 5.0 x16"), and its bandwidth each way in GB/s after the line
 * encoding.  CLC_ERR (silently) where NVML is absent or does not say. */
int clc_nvml_bus(const char *pci_bus_id, char *name, size_t len, double *gbps);

#endif
