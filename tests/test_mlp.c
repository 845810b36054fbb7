/* test_mlp.c - every K and grid verifies, also when n is not a multiple of 4 K (down to an
 * array shorter than one float4), and a kernel that drops the tail is caught. */
#include <string.h>

#include "testutil.h"

static void run_at(uint64_t size)
{
    struct clc_report rep;
    clc_test_run_verified_at("mlp", size, 5, &rep);
    for (long k = 1; k <= 8; k *= 2) {
        const struct clc_result *r = clc_test_get(&rep, "unrolled", k, CLC_FLOAT);
        ck_assert_uint_eq(r->bytes, 2 * (size / 4) * 4);
    }
    const struct clc_result *g = clc_test_get(&rep, "gridstride_float4", -1, CLC_FLOAT);
    ck_assert_msg(g->has_param && g->param >= 1, "has_param %d, param %ld", g->has_param,
                  g->param);
    clc_report_free(&rep);
}

START_TEST(all_variants_verify)
{
    run_at(1 << 20);
}
END_TEST

/* 100003 floats: 25000 float4 and 3 left over, not a multiple of any 4 K; 3 floats: no
 * float4 at all; 37: 9 float4 and 1 left over. */
START_TEST(odd_sizes_verify)
{
    run_at(4 * 100003);
    run_at(4 * 3);
    run_at(4 * 37);
}
END_TEST

/* No work-item copies the 3 leftover floats: every unrolled row fails. */
START_TEST(dropped_tail_is_caught)
{
    struct clc_opts o;
    clc_test_opts_edited(&o, "mlp.cl", "get_global_size(0) - 1)", "get_global_size(0))");
    o.size = 4 * 100003;
    o.variant = "unrolled";
    struct clc_report rep;
    clc_test_run_expect("mlp", &o, CLC_ERR, &rep);
    clc_test_assert_all_caught(&rep, 4, "3 of 100003");
    clc_report_free(&rep);
}
END_TEST

int main(void)
{
    const TTest *tests[] = {all_variants_verify, odd_sizes_verify, dropped_tail_is_caught};
    return clc_test_main(clc_test_suite("mlp", tests, sizeof tests / sizeof tests[0]));
}
