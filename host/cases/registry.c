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

const struct clc_variant *clc_find_variant(const struct clc_case *c, const char *name)
{
    for (size_t i = 0; i < c->n_variants; i++)
        if (strcmp(c->variants[i].name, name) == 0)
            return &c->variants[i];
    return NULL;
}

const char *clc_outside_model(const char *case_name, const char *variant)
{
    const struct clc_case *c = clc_find_case(case_name);
    const struct clc_variant *v = c != NULL ? clc_find_variant(c, variant) : NULL;
    return v != NULL ? v->outside_model : NULL;
}

bool clc_case_runs_by_default(const struct clc_case *c)
{
    return !c->explicit_only;
}

void clc_print_cases(FILE *f)
{
    for (size_t i = 0; i < clc_n_cases; i++) {
        const struct clc_case *c = clc_cases[i];
        clc_print_case_head(f, c->name, c->summary, c->variants_text, c->types, c->bytes_rule,
                            c->expect);
        /* each kernel once, in table order */
        fprintf(f, "    kernels:  cl/%s (", c->cl_file);
        bool any = false;
        for (size_t v = 0; v < c->n_variants; v++) {
            const char *k = c->variants[v].kernel;
            bool seen = k == NULL;
            for (size_t u = 0; u < v && !seen; u++)
                seen = c->variants[u].kernel != NULL && strcmp(c->variants[u].kernel, k) == 0;
            if (!seen) {
                fprintf(f, "%s%s", any ? " " : "", k);
                any = true;
            }
        }
        fprintf(f, "%s)\n", any ? "" : "none: the API's own copy");
        if (c->explicit_only) /* listed all the same: a user may name it */
            fprintf(f, "    runs:     only when named ('clcoalesce run %s')\n", c->name);
    }
}
