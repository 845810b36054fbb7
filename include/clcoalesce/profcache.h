/* profcache.h - the profile each device keeps.  `clcoalesce profile`, measured at its default
 * sizes, leaves a copy in a folder of the user's, one file per device, driver and API, so
 * that `explain`, and a `run` without the profile's own cases, predict with no --profile:
 * measured once, read every time after.  The folder is $CLCOALESCE_CACHE_DIR, else
 * $XDG_CACHE_HOME/clcoalesce, else $HOME/.cache/clcoalesce; a file in it is named after the
 * API, the device and the driver (profile-opencl-NVIDIA-H100-80GB-HBM3-580.159.04.json), so
 * a new driver measures anew.  Nothing here is needed: with no folder, nothing is kept. */
#ifndef CLCOALESCE_PROFCACHE_H
#define CLCOALESCE_PROFCACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "clcoalesce/predict.h"
#include "clcoalesce/result.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The path of device d's kept profile on api into out.  False when no folder can be named
 * (no $HOME) or the path does not fit len. */
bool clc_profcache_path(const struct clc_device_meta *d, const char *api, char *out, size_t len);

/* Keeps what fill(f, ctx) writes (a profile's JSON) as d's profile on api, making the
 * folders (mode 0700) where they are missing; the path goes into out.  Returns CLC_OK, or
 * CLC_ERR after saying why. */
int clc_profcache_store(const struct clc_device_meta *d, const char *api,
                        int (*fill)(FILE *f, void *ctx), void *ctx, char *out, size_t len);

/* Reads d's kept profile on api into p, its path into path and when it was measured
 * ("2026-11-26 14:02") into when.  True when there is one and it reads; false with no message
 * where there is none, and after a note where one is there but cannot be used. */
bool clc_profcache_load(const struct clc_device_meta *d, const char *api, struct clc_profile *p,
                        char *path, size_t path_len, char *when, size_t when_len);

#ifdef __cplusplus
}
#endif

#endif
