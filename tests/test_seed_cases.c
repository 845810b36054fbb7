/* test_seed_cases.c - the first cases run on the default device (PoCL in CI) at a small
 * size, verify, and give positive bandwidth; and a broken kernel is caught. */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

static void run_and_check(const char *name, size_t min_rows)
{
    struct clc_report rep;
    clc_test_run_verified(name, NULL, min_rows, &rep);
    ck_assert(rep.device.copy_gbps > 0);
    clc_report_free(&rep);
}

START_TEST(copy_verifies)
{
    run_and_check("copy", 2);
}
END_TEST

START_TEST(coalesced_and_uncoalesced_verify)
{
    run_and_check("coalesced", 1);
    run_and_check("uncoalesced", 1);
}
END_TEST

/* Every offset 0..32 in both types (fp64 is present on PoCL). */
START_TEST(offset_all_params_verify)
{
    struct clc_report rep;
    clc_test_run_verified("offset", NULL, 66, &rep);
    for (long s = 0; s <= 32; s++) {
        clc_test_get(&rep, "inplace", s, CLC_FLOAT);
        clc_test_get(&rep, "inplace", s, CLC_DOUBLE);
    }
    clc_report_free(&rep);
}
END_TEST

START_TEST(stride_all_params_verify)
{
    struct clc_report rep;
    clc_test_run_verified("stride", NULL, 64, &rep);
    const struct clc_result *s32 = clc_test_get(&rep, "inplace", 32, CLC_DOUBLE);
    /* bytes counted are the useful bytes: 2 x n x 8 with n = size / 8 */
    ck_assert_uint_eq(s32->bytes, 2 * (rep.run.size / 8) * 8);
    clc_report_free(&rep);
}
END_TEST

/* An odd size (not a multiple of the work-group) still writes and checks every element. */
START_TEST(odd_size_verifies)
{
    struct clc_report rep;
    clc_test_run_verified_at("coalesced", 4 * 100003, 1, &rep);
    ck_assert_uint_eq(rep.results[0].bytes, 2 * 4 * 100003);
    clc_report_free(&rep);
}
END_TEST

/* A kernel that skips its last element leaves poison behind: the run must fail. */
START_TEST(partial_write_is_caught)
{
    struct clc_opts o;
    clc_test_opts_edited(&o, "coalesced.cl", "if (i < n)", "if (i + 1 < n)");
    struct clc_report rep;
    clc_test_run_expect("coalesced", &o, CLC_ERR, &rep);
    clc_test_assert_all_caught(&rep, 1, "1 of");
    clc_report_free(&rep);
}
END_TEST

/* A stride kernel that increments the wrong element fails verification. */
START_TEST(wrong_index_is_caught)
{
    struct clc_opts o;
    clc_test_opts_edited(&o, "stride.cl", "STORE(a, i * s,", "STORE(a, i * s + (s > 1),");
    o.types = CLC_FLOAT;
    struct clc_report rep;
    clc_test_run_expect("stride", &o, CLC_ERR, &rep);
    clc_test_assert_ok(clc_test_get(&rep, "inplace", 1, CLC_FLOAT));
    clc_test_assert_caught(clc_test_get(&rep, "inplace", 2, CLC_FLOAT), NULL);
    clc_report_free(&rep);
}
END_TEST

int main(void)
{
    const TTest *tests[] = {copy_verifies, coalesced_and_uncoalesced_verify,
                            offset_all_params_verify, stride_all_params_verify,
                            odd_size_verifies, partial_write_is_caught, wrong_index_is_caught};
    return clc_test_main(clc_test_suite("seed_cases", tests, sizeof tests / sizeof tests[0]));
}
