/* test_stores.c - every layout of the stores case writes every element once (each a
 * bijection of the buffer), in float and double, at a size whose blocks do not divide it
 * too; the notes give each request's lines; and a layout that writes an element twice is
 * caught. */
#include <string.h>

#include "testutil.h"

static void run_at(uint64_t size)
{
    struct clc_report rep;
    clc_test_run_verified_at("stores", size, 2, &rep);
    for (int t = 0; t < 2; t++) {
        enum clc_type type = t ? CLC_DOUBLE : CLC_FLOAT;
        uint64_t es = clc_type_size(type), n = size / es;
        for (long w = 1; w <= 8; w *= 2) {
            char variant[16];
            snprintf(variant, sizeof variant, "lanes%ld", w);
            for (long pitch = 2 * w; pitch <= 16384; pitch *= 2) {
                const struct clc_result *r = clc_test_find(&rep, variant, pitch, type);
                if ((uint64_t)(32 / w * pitch) > n && pitch > 2 * w) {
                    ck_assert_ptr_null(r); /* no block of it fits */
                    continue;
                }
                ck_assert_ptr_nonnull(r);
                ck_assert_uint_eq(r->bytes, n * es);
                uint64_t line = 128 / es, span = 32 / (uint64_t)w * (uint64_t)pitch;
                uint64_t lines = (uint64_t)pitch >= line ? 32 / (uint64_t)w : span / line;
                clc_test_assert_note(r, "pieces of %ld element%s %ld apart: %llu line%s a "
                                        "request", w, w > 1 ? "s" : "", pitch,
                                     (unsigned long long)lines, lines > 1 ? "s" : "");
            }
        }
    }
    clc_report_free(&rep);
}

START_TEST(every_layout_verifies)
{
    run_at(1 << 20);
}
END_TEST

START_TEST(odd_size_verifies)
{
    run_at(8 * 10007);
}
END_TEST

/* The lanes of a piece all on its first element: each element of it written w times, the
 * rest of the piece none.  Every row of pieces of 2 or more fails; pieces of 1 verify. */
START_TEST(a_layout_that_repeats_an_element_is_caught)
{
    struct clc_opts o;
    clc_test_opts_edited(&o, "stores.cl", "+ (lane & low)", "+ (lane & low & 0)");
    struct clc_report rep;
    clc_test_run_expect("stores", &o, CLC_ERR, &rep);
    clc_test_assert_ok(clc_test_get(&rep, "lanes1", 64, CLC_FLOAT));
    clc_test_assert_caught(clc_test_get(&rep, "lanes2", 64, CLC_FLOAT), NULL);
    clc_test_assert_caught(clc_test_get(&rep, "lanes8", 16, CLC_DOUBLE), NULL);
    clc_report_free(&rep);
}
END_TEST

int main(void)
{
    const TTest *tests[] = {every_layout_verifies, odd_size_verifies,
                            a_layout_that_repeats_an_element_is_caught};
    return clc_test_main(clc_test_suite("stores", tests, sizeof tests / sizeof tests[0]));
}
