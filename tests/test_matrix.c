/* test_matrix.c - the matrix case: both indexings verify in float and double, at the quick
 * size and at a shape that is not a multiple of the 32 x 32 work-group; a kernel that misses
 * the last row is caught. */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

static const char *const variants[] = {"rowmajor", "colmajor"};

/* Runs the case with o (NULL: quick options), expects every row verified, and checks each
 * variant's width (the param), bytes and shape note in both types. */
static void check_shape(const struct clc_opts *o, size_t fw, size_t fh, size_t dw, size_t dh)
{
    struct clc_report rep;
    clc_test_run_verified("matrix", o, 4, &rep);
    for (int v = 0; v < 2; v++) {
        clc_test_assert_matrix(clc_test_get(&rep, variants[v], -1, CLC_FLOAT), fw, fh);
        clc_test_assert_matrix(clc_test_get(&rep, variants[v], -1, CLC_DOUBLE), dw, dh);
    }
    clc_report_free(&rep);
}

/* 1 MiB: 262144 floats = 512 x 512; 131072 doubles = 362 x 362 (362^2 = 131044). */
START_TEST(quick_size_verifies)
{
    check_shape(NULL, 512, 512, 362, 362);
}
END_TEST

/* 45 x 47 floats; the same bytes hold 1057 doubles = 32 x 33.  Partial work-groups on both
 * edges, and width != height so swapped indices would show. */
START_TEST(odd_shape_verifies)
{
    struct clc_opts o;
    clc_test_opts(&o);
    o.size = 4 * 45 * 47;
    check_shape(&o, 45, 47, 32, 33);
}
END_TEST

/* A column-major kernel that leaves the last row alone fails; the row-major one still passes. */
START_TEST(missed_row_is_caught)
{
    struct clc_opts o;
    clc_test_opts_edited(&o, "matrix.cl", "size_t i = col * height + row;",
                         "size_t i = col * height + row;\n        if (row + 1 == height)\n"
                         "            return;");
    o.types = CLC_FLOAT;
    o.size = 4 * 45 * 47;
    struct clc_report rep;
    clc_test_run_expect("matrix", &o, CLC_ERR, &rep);
    clc_test_assert_ok(clc_test_get(&rep, "rowmajor", -1, CLC_FLOAT));
    clc_test_assert_caught(clc_test_get(&rep, "colmajor", -1, CLC_FLOAT), "wrong result");
    clc_report_free(&rep);
}
END_TEST

/* A guard that lets one column too many through writes past each row: caught. */
START_TEST(overrun_is_caught)
{
    struct clc_opts o;
    clc_test_opts_edited(&o, "matrix.cl", "if (col < width && row < height)",
                         "if (col <= width && row < height)");
    o.types = CLC_FLOAT;
    o.size = 4 * (45 * 45 + 44); /* 45 x 45, and 44 past it */
    struct clc_report rep;
    clc_test_run_expect("matrix", &o, CLC_ERR, &rep);
    clc_test_assert_caught(clc_test_get(&rep, "rowmajor", 45, CLC_FLOAT), NULL);
    clc_test_assert_ok(clc_test_get(&rep, "colmajor", 45, CLC_FLOAT));
    clc_report_free(&rep);
}
END_TEST

int main(void)
{
    const TTest *tests[] = {quick_size_verifies, odd_shape_verifies, missed_row_is_caught,
                            overrun_is_caught};
    return clc_test_main(clc_test_suite("matrix", tests, sizeof tests / sizeof tests[0]));
}
