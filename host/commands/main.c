/* main.c - the clcoalesce executable: everything else lives in the library. */
#include <stdlib.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "clcoalesce/cli.h"

extern const char *clc_self_exe;

int main(int argc, char **argv)
{
#ifdef __GLIBC__
    /* Host buffers of tens of MiB are allocated and freed row after row (and on a CPU device
     * the device's buffers too).  glibc raises its mmap threshold after the first such free,
     * and keeps later ones in a heap it never gives back: the default suite on a CPU then held
     * 1 GB instead of 0.36.  A fixed threshold gives each one back when freed. */
    mallopt(M_MMAP_THRESHOLD, 1 << 20);
#endif
    /* `custom` on a CPU device runs its work in a child process of this very binary */
    clc_self_exe = "/proc/self/exe";
    return clc_main(argc, argv);
}
