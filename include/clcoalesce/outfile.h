/* outfile.h - output files that never destroy anything (placeholder until the writer lands). */
#ifndef CLCOALESCE_OUTFILE_H
#define CLCOALESCE_OUTFILE_H

/* Checks that `path` can be written, before a run that may take long.  CLC_OK or CLC_ERR. */
int clc_output_check(const char *path);

/* Removes the temporary file being written, if any: async-signal-safe. */
void clc_outfile_abandon(void);

#include <stdio.h>

/* Writes `path` through fill(f, ctx) by the rules of output files.  CLC_OK or CLC_ERR. */
int clc_write_output(const char *path, int (*fill)(FILE *f, void *ctx), void *ctx);

#endif
