/* outfile.c - placeholder until the output writer lands. */
#include "clcoalesce/outfile.h"

#include "clcoalesce/core.h"

int clc_output_check(const char *path)
{
    (void)path;
    return CLC_OK;
}

void clc_outfile_abandon(void)
{
}
