/* registry.c - the case table, built from cases.def, and the `cases` listing. */
#include <string.h>

#include "clcoalesce/cases.h"

#define CLC_CASE(name) extern const struct clc_case clc_case_##name;
#include "cases.def"
#undef CLC_CASE

const struct clc_case *const clc_cases[] = {
#define CLC_CASE(name) &clc_case_##name,
#include "cases.def"
#undef CLC_CASE
};

const size_t clc_n_cases = sizeof clc_cases / sizeof clc_cases[0];

const struct clc_case *clc_find_case(const char *name)
{
    for (size_t i = 0; i < clc_n_cases; i++)
        if (strcmp(clc_cases[i]->name, name) == 0)
            return clc_cases[i];
    return NULL;
}

bool clc_case_runs_by_default(const struct clc_case *c)
{
    return !c->explicit_only;
}

void clc_print_cases(FILE *f)
{
    for (size_t i = 0; i < clc_n_cases; i++) {
        const struct clc_case *c = clc_cases[i];
        clc_print_case_head(f, c->name, c->summary, c->variants, c->types, c->bytes_rule,
                            c->expect);
        fprintf(f, "    kernels:  cl/%s (%s)\n", c->cl_file, c->kernels);
        if (c->explicit_only)
            fprintf(f, "    runs only when named: 'clcoalesce run %s --help'\n", c->name);
    }
}
