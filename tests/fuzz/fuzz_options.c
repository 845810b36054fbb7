/* fuzz_options.c - libFuzzer target: any command line for `run`.  The input is split into
 * words at whitespace and NUL (at most 64) and parsed by clc_parse_run with a tool that has
 * every shared option and none of its own, as both tools have; it must accept or refuse
 * without a crash, a leak or undefined behaviour, and what it accepts must hold together. */
#include <ctype.h>
#include <getopt.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clcoalesce/options.h"

#define MAX_WORDS 64

static bool known_case(const char *name)
{
    return strcmp(name, "copy") == 0 || strcmp(name, "stride") == 0;
}

static int no_own(const struct clc_run_cli *cli, int c, const char *value)
{
    (void)cli, (void)c, (void)value;
    abort(); /* no option of its own was declared: the parser must never ask */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    clc_quiet = true;
    /* one copy of the input, cut into words in place; argv[0] is the command */
    char *text = malloc(size + 1);
    if (text == NULL)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    char *argv[MAX_WORDS + 2] = {"run"};
    int argc = 1;
    for (size_t i = 0; i < size && argc <= MAX_WORDS;) {
        while (i < size && (text[i] == '\0' || isspace((unsigned char)text[i])))
            text[i++] = '\0';
        if (i < size)
            argv[argc++] = text + i;
        while (i < size && text[i] != '\0' && !isspace((unsigned char)text[i]))
            i++;
    }
    argv[argc] = NULL;

    struct clc_run_cli cli = {.prog = "clcoalesce", .help = "'clcoalesce --help'",
                              .optional = CLC_RUN_SWEEP | CLC_RUN_COLD, .parse_own = no_own,
                              .case_known = known_case};
    struct clc_run_opts o;
    struct clc_run_line l;
    if (clc_parse_run(argc, argv, &cli, &o, &l) == CLC_OK && !l.help) {
        if ((o.size != 0 && o.sweep_max != 0) || o.sweep_min > o.sweep_max)
            abort(); /* --size and --sweep-size exclude each other; MIN <= MAX */
        if (o.types == 0 || (o.types & ~(unsigned)(CLC_FLOAT | CLC_DOUBLE)))
            abort();
        if (!isnan(o.peak_gbps) &&
            !(o.peak_gbps >= CLC_MIN_PEAK_GBPS && o.peak_gbps <= CLC_MAX_GBPS))
            abort();
        if (l.n_cases < 0 || l.n_cases > argc)
            abort();
        for (int i = 0; i < l.n_cases; i++)
            if (!known_case(l.cases[i]))
                abort();
    }
    free(text);
    return 0;
}
