/* test_matrix.c - the matrix case: both indexings verify in float and double, at the quick
 * size and at a shape that is not a multiple of the 32 x 32 work-group; a kernel that misses
 * the last row is caught. */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

static const char *const variants[] = {"rowmajor", "colmajor"};

/* Runs the case with o, expects every row verified, and checks each variant's width (the
 * param), bytes and shape note in both types. */
static void check_shape(const struct clc_opts *o, size_t fw, size_t fh, size_t dw, size_t dh)
{
    struct clc_report rep;
    ck_assert_int_eq(clc_test_run_case("matrix", o, &rep), CLC_OK);
    clc_test_assert_all_verified(&rep, 4);
    for (int v = 0; v < 2; v++) {
        for (int d = 0; d < 2; d++) {
            enum clc_type t = d ? CLC_DOUBLE : CLC_FLOAT;
            size_t w = d ? dw : fw, h = d ? dh : fh;
            const struct clc_result *r = clc_test_find(&rep, variants[v], (long)w, t);
            ck_assert_msg(r != NULL, "%s %s width %zu missing", variants[v], clc_type_name(t), w);
            ck_assert_uint_eq(r->bytes, 2 * w * h * clc_type_size(t));
            char shape[64];
            snprintf(shape, sizeof shape, "%zu x %zu", w, h);
            ck_assert_ptr_nonnull(strstr(r->note, shape));
        }
    }
    clc_report_free(&rep);
}

/* 1 MiB: 262144 floats = 512 x 512; 131072 doubles = 362 x 362 (362^2 = 131044). */
START_TEST(quick_size_verifies)
{
    struct clc_opts o;
    clc_test_opts(&o);
    check_shape(&o, 512, 512, 362, 362);
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
    const char *dir = clc_test_copy_kernels();
    clc_test_edit_kernel(dir, "matrix.cl", "size_t i = col * height + row;",
                         "size_t i = col * height + row;\n        if (row + 1 == height)\n"
                         "            return;");
    struct clc_opts o;
    clc_test_opts(&o);
    o.kernel_dir = dir;
    o.types = CLC_FLOAT;
    o.size = 4 * 45 * 47;
    struct clc_report rep;
    ck_assert_int_eq(clc_test_run_case("matrix", &o, &rep), CLC_ERR);
    const struct clc_result *row = clc_test_find(&rep, "rowmajor", -1, CLC_FLOAT);
    const struct clc_result *col = clc_test_find(&rep, "colmajor", -1, CLC_FLOAT);
    ck_assert_ptr_nonnull(row);
    ck_assert_ptr_nonnull(col);
    ck_assert(row->verified);
    ck_assert_int_eq(row->status, CLC_STATUS_OK);
    ck_assert(!col->verified);
    ck_assert_int_eq(col->status, CLC_STATUS_ERROR);
    ck_assert_ptr_nonnull(strstr(col->note, "wrong result"));
    clc_report_free(&rep);
}
END_TEST

/* A guard that lets one column too many through writes past each row: caught. */
START_TEST(overrun_is_caught)
{
    const char *dir = clc_test_copy_kernels();
    clc_test_edit_kernel(dir, "matrix.cl", "if (col < width && row < height)",
                         "if (col <= width && row < height)");
    struct clc_opts o;
    clc_test_opts(&o);
    o.kernel_dir = dir;
    o.types = CLC_FLOAT;
    o.size = 4 * (45 * 45 + 44); /* 45 x 45, and 44 elements past it in the buffer */
    struct clc_report rep;
    ck_assert_int_eq(clc_test_run_case("matrix", &o, &rep), CLC_ERR);
    const struct clc_result *row = clc_test_find(&rep, "rowmajor", 45, CLC_FLOAT);
    ck_assert_ptr_nonnull(row);
    ck_assert(!row->verified);
    ck_assert(clc_test_find(&rep, "colmajor", 45, CLC_FLOAT)->verified);
    clc_report_free(&rep);
}
END_TEST

int main(void)
{
    const TTest *tests[] = {quick_size_verifies, odd_shape_verifies, missed_row_is_caught,
                            overrun_is_caught};
    return clc_test_main(clc_test_suite("matrix", tests, sizeof tests / sizeof tests[0]));
}
