/* test_transpose.c - the transpose case: every variant verifies in float and double at the
 * quick size and at shapes that are not multiples of the tiles (nor of 4, where the vector
 * kernel goes element by element); kernels that miss an edge are caught. */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

static const char *const variants[] = {
    "copy",         "naive",       "naive_1elem", "naive_1elem_near", "tiled",
    "tiled_padded", "tiled_1elem", "tiled_wide",  "tiled_held", "tiled_vec4"};
#define N_VARIANTS (sizeof variants / sizeof variants[0])

/* Expects every variant of type t in rep to be a w x h matrix (a skipped one aside:
 * tiled_1elem below work-groups of 1024). */
static void check_shape(const struct clc_report *rep, enum clc_type t, size_t w, size_t h)
{
    for (size_t v = 0; v < N_VARIANTS; v++) {
        const struct clc_result *r = clc_test_get(rep, variants[v], -1, t);
        if (r->status != CLC_STATUS_SKIPPED)
            clc_test_assert_matrix(r, w, h);
    }
}

/* Runs the case in the types of the mask at the bytes of w x h floats and expects every row
 * verified, the float ones at w x h. */
static void check_float_shape(unsigned types, size_t w, size_t h)
{
    struct clc_opts o;
    clc_test_opts(&o);
    o.types = types;
    o.size = 4 * w * h;
    struct clc_report rep;
    clc_test_run_verified("transpose", &o, N_VARIANTS, &rep);
    check_shape(&rep, CLC_FLOAT, w, h);
    clc_report_free(&rep);
}

/* 1 MiB: 512 x 512 floats (the vector path both ways) and 362 x 362 doubles (element by
 * element, 362 not being a multiple of 4). */
START_TEST(quick_size_verifies)
{
    struct clc_report rep;
    clc_test_run_verified("transpose", NULL, 2 * N_VARIANTS, &rep);
    check_shape(&rep, CLC_FLOAT, 512, 512);
    check_shape(&rep, CLC_DOUBLE, 362, 362);
    clc_report_free(&rep);
}
END_TEST

/* 77 x 79: partial tiles on both edges, width != height, no vector accesses. */
START_TEST(odd_shape_verifies)
{
    check_float_shape(CLC_FLOAT | CLC_DOUBLE, 77, 79);
}
END_TEST

/* 100 x 101: vector loads, element-by-element stores; 99 x 100: the other way round.  Both
 * non-square, with partial tiles. */
START_TEST(half_vector_shapes_verify)
{
    check_float_shape(CLC_FLOAT, 100, 101);
    check_float_shape(CLC_FLOAT, 99, 100);
}
END_TEST

/* Drop the last row of the input in naive, the last column in the tile kernels' edge guard,
 * and the last row in the vector kernel's element-by-element stores: each of those rows
 * is caught, while the kernels left as they are still verify. */
START_TEST(missed_edges_are_caught)
{
    static const char *const edited[] = {"naive", "tiled", "tiled_padded", "tiled_wide",
                                         "tiled_vec4"};
    struct clc_opts o;
    const char *dir = clc_test_opts_edited(&o, "transpose.cl", "STORE(out, x * height + y,",
                                           "if (y + 1 < height) STORE(out, x * height + y,");
    clc_test_edit_kernel(dir, "transpose.cl", "if (by + lx < height && bx + ly + j < width)",
                         "if (by + lx < height && bx + ly + j + 1 < width)");
    clc_test_edit_kernel(dir, "transpose.cl", "if (y + r < height)\n                        STORE",
                         "if (y + r + 1 < height)\n                        STORE");
    o.types = CLC_FLOAT;
    o.size = 4 * 77 * 79;
    struct clc_report rep;
    clc_test_run_expect("transpose", &o, CLC_ERR, &rep);
    ck_assert_uint_eq(rep.n_results, N_VARIANTS);
    for (size_t v = 0; v < N_VARIANTS; v++) {
        const struct clc_result *r = clc_test_get(&rep, variants[v], -1, CLC_FLOAT);
        bool broken = false;
        for (size_t b = 0; b < sizeof edited / sizeof edited[0]; b++)
            broken = broken || strcmp(variants[v], edited[b]) == 0;
        if (broken)
            clc_test_assert_caught(r, "wrong result");
        else if (r->status != CLC_STATUS_SKIPPED)
            clc_test_assert_ok(r);
    }
    clc_report_free(&rep);
}
END_TEST

/* A copy kernel that gets the matrix right but also writes the element after it is caught:
 * the part of the buffer past the matrix must stay untouched. */
START_TEST(write_past_matrix_is_caught)
{
    struct clc_opts o;
    clc_test_opts_edited(&o, "transpose.cl",
                         "STORE(out, y * width + x, LOAD(in, y * width + x));",
                         "{\n                STORE(out, y * width + x, LOAD(in, y * width + x));\n"
                         "                if (x + 1 == width && y + 1 == height)\n"
                         "                    STORE(out, y * width + x + 1, 0);\n            }");
    o.types = CLC_FLOAT;
    o.size = 4 * (45 * 45 + 44); /* 45 x 45, and 44 past it */
    struct clc_report rep;
    clc_test_run_expect("transpose", &o, CLC_ERR, &rep);
    clc_test_assert_caught(clc_test_get(&rep, "copy", 45, CLC_FLOAT),
                           "element 2025, past the 2025 of the matrix");
    clc_test_assert_ok(clc_test_get(&rep, "naive", 45, CLC_FLOAT));
    clc_report_free(&rep);
}
END_TEST

int main(void)
{
    const TTest *tests[] = {quick_size_verifies, odd_shape_verifies, half_vector_shapes_verify,
                            missed_edges_are_caught, write_past_matrix_is_caught};
    return clc_test_main(clc_test_suite("transpose", tests, sizeof tests / sizeof tests[0]));
}
