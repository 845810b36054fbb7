/* main.c - the clcoalesce executable: everything else lives in the library. */
#include "clcoalesce/cli.h"

int main(int argc, char **argv)
{
    return clc_main(argc, argv);
}
