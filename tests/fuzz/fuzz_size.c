/* fuzz_size.c - libFuzzer target: the parsers of what a user types as a number: sizes
 * (--size, each side of --sweep-size), whole numbers in a range (--reps and the tools' own
 * counts) and --sweep-size itself through the run parser.  The first byte picks the parser
 * and the count's range; the rest is the text. */
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clcoalesce/options.h"

static bool any_case(const char *name)
{
    (void)name;
    return true;
}

static int no_own(const struct clc_run_cli *cli, int c, const char *value)
{
    (void)cli, (void)c, (void)value;
    abort(); /* the description below has no options of its own */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    clc_quiet = true;
    unsigned pick = data[0];
    char *s = malloc(size);
    if (s == NULL)
        return 0;
    memcpy(s, data + 1, size - 1);
    s[size - 1] = '\0'; /* text up to the first NUL, as from a command line */

    switch (pick % 3) {
    case 0: {
        uint64_t bytes = 0;
        const char *why = NULL;
        if (clc_parse_size(s, &bytes, &why) == CLC_OK) {
            if (bytes == 0)
                abort(); /* a size is at least one byte */
            char buf[64];
            clc_format_size(bytes, buf, sizeof buf);
        } else if (why == NULL) {
            abort(); /* a refusal always says why */
        }
        break;
    }
    case 1: {
        static const long bounds[][2] = {{1, 100000}, {0, 100000}, {1, 1}, {-5, 5},
                                         {0, 0x7fffffff}, {1, 64}, {0, 1L << 40}, {2, 3}};
        const long *b = bounds[(pick / 3) % 8];
        long v = 0;
        if (clc_parse_count(s, b[0], b[1], &v) == CLC_OK && (v < b[0] || v > b[1]))
            abort(); /* an accepted count lies in its range */
        break;
    }
    default: {
        struct clc_run_cli cli = {.prog = "clcoalesce", .help = "'clcoalesce --help'",
                                  .optional = CLC_RUN_SWEEP, .parse_own = no_own,
                                  .case_known = any_case};
        char *argv[] = {"run", "--sweep-size", s, NULL};
        struct clc_run_opts o;
        struct clc_run_line l;
        if (clc_parse_run(3, argv, &cli, &o, &l) == CLC_OK &&
            (o.sweep_min == 0 || o.sweep_min > o.sweep_max))
            abort(); /* an accepted sweep runs from MIN up to MAX */
        break;
    }
    }
    free(s);
    return 0;
}
