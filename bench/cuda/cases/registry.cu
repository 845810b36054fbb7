/* registry.cu - the table of CUDA twins, built from cases.def, and the `cases` listing. */
#include <string.h>

#include "bench.cuh"

#define CLC_CASE(name) extern const struct cu_case cu_case_##name;
#include "cases.def"
#undef CLC_CASE

const struct cu_case *const cu_cases[] = {
#define CLC_CASE(name) &cu_case_##name,
#include "cases.def"
#undef CLC_CASE
};

const size_t cu_n_cases = sizeof cu_cases / sizeof cu_cases[0];

const struct cu_case *cu_find_case(const char *name)
{
    for (size_t i = 0; i < cu_n_cases; i++)
        if (strcmp(cu_cases[i]->name, name) == 0)
            return cu_cases[i];
    return NULL;
}

void cu_print_cases(FILE *f)
{
    for (size_t i = 0; i < cu_n_cases; i++) {
        const struct cu_case *c = cu_cases[i];
        clc_print_case_head(f, c->name, c->summary, c->variants, c->types, c->bytes_rule,
                            c->expect);
        fprintf(f, "    source:   bench/cuda/cases/%s.cu\n", c->name);
    }
}
