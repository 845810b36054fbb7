/* workcount.c - the integer work a kernel's work-item executes on the path to its loads'
 * addresses (the model's work layer, host/model/executed.c), counted on a saved PTX file for
 * a launch given on the command line, with no device: what repredict.py --ptx reads.
 *
 *   clc-workcount FILE.ptx KERNEL GLOBAL LOCAL [ARG...]
 *
 * GLOBAL and LOCAL: work-items, "X" or "X,Y" (,Z); each ARG a parameter's value in order
 * (a buffer's: any address far from the others).  Prints "units div32 div64 loads": the work,
 * "nan nan nan" where it cannot be counted, and the loads a work-item has in flight as
 * compiled (clc_ptx_loads_in_flight, host/model/compiled.c), "nan" where the entry is not
 * there (exit 0); exit 2 on bad arguments or an unreadable file. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clcoalesce/core.h"
#include "clcoalesce/model.h"

/* "X[,Y[,Z]]" into v; its dimensions, 0 on garbage. */
static unsigned sizes(const char *s, size_t v[3])
{
    unsigned d = 0;
    for (const char *p = s; d < 3; d++) {
        char *end;
        errno = 0;
        unsigned long long x = strtoull(p, &end, 10);
        if (end == p || errno != 0 || x == 0 || (*end != ',' && *end != '\0'))
            return 0;
        v[d] = (size_t)x;
        if (*end == '\0')
            return d + 1;
        p = end + 1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    struct clc_ptx_launch l = {0};
    size_t local[3] = {1, 1, 1};
    if (argc < 5 || argc - 5 > (int)(sizeof l.args / sizeof l.args[0]) ||
        (l.dims = sizes(argv[3], l.global)) == 0 || sizes(argv[4], local) != l.dims) {
        fprintf(stderr, "usage: clc-workcount FILE.ptx KERNEL GLOBAL LOCAL [ARG...] (sizes "
                        "X or X,Y or X,Y,Z, alike; at most 16 ARGs, each a number)\n");
        return 2;
    }
    memcpy(l.local, local, sizeof local);
    for (int i = 5; i < argc; i++) {
        char *end;
        errno = 0;
        l.args[l.nargs++] = strtoull(argv[i], &end, 0);
        if (end == argv[i] || *end != '\0' || errno != 0) {
            fprintf(stderr, "clc-workcount: '%s' is not a number\n", argv[i]);
            return 2;
        }
    }
    size_t len;
    char *text = clc_read_text(argv[1], &len);
    if (text == NULL) {
        fprintf(stderr, "clc-workcount: %s: %s\n", argv[1], strerror(errno));
        return 2;
    }
    struct clc_ptx_work w;
    clc_ptx_work(text, argv[2], &l, &w);
    printf("%g %g %g %g\n", w.units, w.div32, w.div64, clc_ptx_loads_in_flight(text, argv[2]));
    free(text);
    return 0;
}
