/* outfile.c - placeholder until the output writer lands. */
#include "clcoalesce/outfile.h"

#include "clcoalesce/core.h"
#include "clcoalesce/result.h"

int clc_output_check(const char *path)
{
    (void)path;
    return CLC_OK;
}

void clc_outfile_abandon(void)
{
}

int clc_write_output(const char *path, int (*fill)(FILE *f, void *ctx), void *ctx)
{
    return clc_write_file_atomic(path, fill, ctx);
}
