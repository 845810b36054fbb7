/* test_blockorder.c - every order and block size copies every element once (each order a
 * permutation of the blocks), in float and double, also at a size no block size divides;
 * and an order that takes one block twice is caught. */
#include <inttypes.h>
#include <string.h>

#include "testutil.h"

static void run_at(uint64_t size)
{
    struct clc_report rep;
    clc_test_run_verified_at("blockorder", size, 2, &rep);
    static const char *const orders[] = {"linear", "reversed", "bitrev", "mulmod", "random"};
    for (size_t o = 0; o < sizeof orders / sizeof orders[0]; o++)
        for (long bytes = 1024; bytes <= 65536; bytes *= 4)
            for (int t = 0; t < 2; t++) {
                enum clc_type type = t ? CLC_DOUBLE : CLC_FLOAT;
                const struct clc_result *r = clc_test_get(&rep, orders[o], bytes, type);
                uint64_t es = clc_type_size(type);
                ck_assert_uint_eq(r->bytes, 2 * (size / es) * es);
                clc_test_assert_note(r, "blocks of %ld bytes, %" PRIu64 " work-groups", bytes,
                                     (size / es + bytes / es - 1) / (bytes / es));
            }
    clc_report_free(&rep);
}

START_TEST(every_order_verifies)
{
    run_at(1 << 20);
}
END_TEST

START_TEST(odd_size_verifies)
{
    run_at(8 * 100003);
}
END_TEST

/* An even multiplier is no bijection modulo a power of two: groups g and g + P / 2 take the
 * same block, and half the blocks none.  Every mulmod row (16 blocks and more here) fails;
 * the linear rows, another order, verify. */
START_TEST(an_order_that_repeats_a_block_is_caught)
{
    struct clc_opts o;
    clc_test_opts_edited(&o, "blockorder.cl", "97 * g + 13", "98 * g + 13");
    struct clc_report rep;
    clc_test_run_expect("blockorder", &o, CLC_ERR, &rep);
    for (long bytes = 1024; bytes <= 65536; bytes *= 4) {
        clc_test_assert_ok(clc_test_get(&rep, "linear", bytes, CLC_FLOAT));
        clc_test_assert_caught(clc_test_get(&rep, "mulmod", bytes, CLC_FLOAT), NULL);
    }
    clc_report_free(&rep);
}
END_TEST

int main(void)
{
    const TTest *tests[] = {every_order_verifies, odd_size_verifies,
                            an_order_that_repeats_a_block_is_caught};
    return clc_test_main(clc_test_suite("blockorder", tests, sizeof tests / sizeof tests[0]));
}
