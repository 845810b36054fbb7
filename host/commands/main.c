/* main.c - the clcoalesce executable: everything else lives in the library. */
#include "clcoalesce/cli.h"


int main(int argc, char **argv)
{
    /* `custom` on a CPU device runs its work in a child process of this very binary */
    clc_self_exe = "/proc/self/exe";
    return clc_main(argc, argv);
}
