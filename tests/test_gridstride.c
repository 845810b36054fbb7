/* test_gridstride.c - the monolithic kernel and every grid-stride grid verify with the same
 * bytes, also at an odd size, and a loop that steps past elements is caught. */
#include <string.h>

#include "testutil.h"

static void run_at(uint64_t size)
{
    struct clc_report rep;
    clc_test_run_verified_at("gridstride", size, 2, &rep);
    const struct clc_result *mono = clc_test_get(&rep, "monolithic", -1, CLC_FLOAT);
    ck_assert(!mono->has_param);
    ck_assert_uint_eq(mono->bytes, 2 * (size / 4) * 4);
    size_t grids = 0;
    for (size_t i = 0; i < rep.n_results; i++) {
        const struct clc_result *r = &rep.results[i];
        if (strcmp(r->variant, "gridstride") != 0)
            continue;
        grids++;
        ck_assert(r->has_param && r->param >= 1 && r->param <= 1024);
        ck_assert_uint_eq(r->bytes, mono->bytes); /* same work, same bytes */
        for (size_t j = 0; j < i; j++) /* each grid once */
            ck_assert(strcmp(rep.results[j].variant, "gridstride") != 0 ||
                      rep.results[j].param != r->param);
    }
    ck_assert_uint_ge(grids, 1);
    clc_report_free(&rep);
}

START_TEST(all_grids_verify)
{
    run_at(1 << 20);
}
END_TEST

/* Not a multiple of the work-group: the last step of the loop is partial. */
START_TEST(odd_size_verifies)
{
    run_at(4 * 100003);
}
END_TEST

/* A stride one element too long skips elements: every grid smaller than one element per
 * work-item fails (a grid that large never loops); monolithic, another kernel, verifies. */
START_TEST(wrong_stride_is_caught)
{
    struct clc_opts o;
    clc_test_opts_edited(&o, "gridstride.cl", "i += stride", "i += stride + 1");
    struct clc_report rep;
    clc_test_run_expect("gridstride", &o, CLC_ERR, &rep);
    clc_test_assert_ok(clc_test_get(&rep, "monolithic", -1, CLC_FLOAT));
    const long full = (1 << 20) / 4 / 256; /* groups for one element per work-item */
    size_t looping = 0;
    for (size_t i = 0; i < rep.n_results; i++) {
        const struct clc_result *r = &rep.results[i];
        if (strcmp(r->variant, "gridstride") != 0 || r->param >= full)
            continue;
        looping++;
        clc_test_assert_caught(r, NULL);
    }
    ck_assert_uint_ge(looping, 1);
    clc_report_free(&rep);
}
END_TEST

int main(void)
{
    const TTest *tests[] = {all_grids_verify, odd_size_verifies, wrong_stride_is_caught};
    return clc_test_main(clc_test_suite("gridstride", tests, sizeof tests / sizeof tests[0]));
}
