/* test_aos_soa.c - aos, soa and the padded record verify with the useful bytes counted,
 * also at an odd size, and a kernel that reads the wrong field is caught. */
#include <string.h>

#include "testutil.h"

static void run_at(uint64_t size)
{
    struct clc_report rep;
    clc_test_run_verified_at("aos_soa", size, 3, &rep);
    static const char *const variants[] = {"aos", "soa", "aos_padded"};
    for (int v = 0; v < 3; v++) {
        const struct clc_result *r = clc_test_get(&rep, variants[v], -1, CLC_FLOAT);
        /* PoCL has cl_khr_fp64, so the padded record runs rather than skips */
        ck_assert_int_eq(r->status, CLC_STATUS_OK);
        ck_assert_uint_eq(r->bytes, 2 * (size / 4) * 4);
    }
    clc_report_free(&rep);
}

START_TEST(all_variants_verify)
{
    run_at(1 << 20);
}
END_TEST

START_TEST(odd_size_verifies)
{
    run_at(4 * 100003);
}
END_TEST

/* Reading y instead of x, or the padding instead of f, is wrong; soa is untouched. */
START_TEST(wrong_field_is_caught)
{
    struct clc_opts o;
    const char *dir =
        clc_test_opts_edited(&o, "aos_soa.cl", "LOAD(&p[i].x, 0)", "LOAD(&p[i].y, 0)");
    clc_test_edit_kernel(dir, "aos_soa.cl", "LOAD(&p[i].f, 0)", "(float)LOAD(&p[i].d, 0)");
    struct clc_report rep;
    clc_test_run_expect("aos_soa", &o, CLC_ERR, &rep);
    clc_test_assert_caught(clc_test_get(&rep, "aos", -1, CLC_FLOAT), NULL);
    clc_test_assert_ok(clc_test_get(&rep, "soa", -1, CLC_FLOAT));
    clc_test_assert_caught(clc_test_get(&rep, "aos_padded", -1, CLC_FLOAT), NULL);
    clc_report_free(&rep);
}
END_TEST

int main(void)
{
    const TTest *tests[] = {all_variants_verify, odd_size_verifies, wrong_field_is_caught};
    return clc_test_main(clc_test_suite("aos_soa", tests, sizeof tests / sizeof tests[0]));
}
