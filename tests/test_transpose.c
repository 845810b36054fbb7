/* test_transpose.c - the transpose case: every variant verifies in float and double at the
 * quick size and at shapes that are not multiples of the tiles (nor of 4, where the vector
 * kernel goes element by element); kernels that miss an edge are caught. */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

static const char *const variants[] = {"copy",         "naive",       "tiled",
                                       "tiled_padded", "tiled_1elem", "tiled_vec4"};
#define N_VARIANTS (sizeof variants / sizeof variants[0])

/* Runs the case with o and expects every variant verified in float at w x h (and in double
 * too when o asks for it), with width as the param and 2 x w x h x 4 bytes. */
static void check_float_shape(const struct clc_opts *o, size_t w, size_t h)
{
    struct clc_report rep;
    ck_assert_int_eq(clc_test_run_case("transpose", o, &rep), CLC_OK);
    clc_test_assert_all_verified(&rep, N_VARIANTS);
    char shape[64];
    snprintf(shape, sizeof shape, "%zu x %zu", w, h);
    for (size_t v = 0; v < N_VARIANTS; v++) {
        const struct clc_result *r = clc_test_find(&rep, variants[v], -1, CLC_FLOAT);
        ck_assert_msg(r != NULL, "%s missing", variants[v]);
        if (r->status == CLC_STATUS_SKIPPED) /* tiled_1elem below work-groups of 1024 */
            continue;
        ck_assert_int_eq(r->param, (long)w);
        ck_assert_uint_eq(r->bytes, 2 * w * h * 4);
        ck_assert_ptr_nonnull(strstr(r->note, shape));
    }
    clc_report_free(&rep);
}

/* 1 MiB: 512 x 512 floats (the vector path both ways) and 362 x 362 doubles (element by
 * element, 362 not being a multiple of 4). */
START_TEST(quick_size_verifies)
{
    struct clc_opts o;
    clc_test_opts(&o);
    struct clc_report rep;
    ck_assert_int_eq(clc_test_run_case("transpose", &o, &rep), CLC_OK);
    clc_test_assert_all_verified(&rep, 2 * N_VARIANTS);
    for (size_t v = 0; v < N_VARIANTS; v++) {
        const struct clc_result *f = clc_test_find(&rep, variants[v], -1, CLC_FLOAT);
        const struct clc_result *d = clc_test_find(&rep, variants[v], -1, CLC_DOUBLE);
        ck_assert_msg(f != NULL && d != NULL, "%s missing", variants[v]);
        if (f->status == CLC_STATUS_OK)
            ck_assert_int_eq(f->param, 512);
        if (d->status == CLC_STATUS_OK)
            ck_assert_uint_eq(d->bytes, 2 * 362 * 362 * 8);
    }
    clc_report_free(&rep);
}
END_TEST

/* 77 x 79: partial tiles on both edges, width != height, no vector accesses. */
START_TEST(odd_shape_verifies)
{
    struct clc_opts o;
    clc_test_opts(&o);
    o.size = 4 * 77 * 79;
    check_float_shape(&o, 77, 79);
}
END_TEST

/* 100 x 101: vector loads, element-by-element stores; 99 x 100: the other way round.  Both
 * non-square, with partial tiles. */
START_TEST(half_vector_shapes_verify)
{
    struct clc_opts o;
    clc_test_opts(&o);
    o.types = CLC_FLOAT;
    o.size = 4 * 100 * 101;
    check_float_shape(&o, 100, 101);
    o.size = 4 * 99 * 100;
    check_float_shape(&o, 99, 100);
}
END_TEST

/* Drop the last row of the input in naive, the last column in the tile kernels' edge guard,
 * and the last row in the vector kernel's element-by-element stores: each of those rows
 * is caught, while copy and tiled_1elem still verify. */
START_TEST(missed_edges_are_caught)
{
    const char *dir = clc_test_copy_kernels();
    clc_test_edit_kernel(dir, "transpose.cl", "STORE(out, x * height + y,",
                         "if (y + 1 < height) STORE(out, x * height + y,");
    clc_test_edit_kernel(dir, "transpose.cl", "if (by + lx < height && bx + ly + j < width)",
                         "if (by + lx < height && bx + ly + j + 1 < width)");
    clc_test_edit_kernel(dir, "transpose.cl", "if (y + r < height)\n                        STORE",
                         "if (y + r + 1 < height)\n                        STORE");
    struct clc_opts o;
    clc_test_opts(&o);
    o.kernel_dir = dir;
    o.types = CLC_FLOAT;
    o.size = 4 * 77 * 79;
    struct clc_report rep;
    ck_assert_int_eq(clc_test_run_case("transpose", &o, &rep), CLC_ERR);
    ck_assert_uint_eq(rep.n_results, N_VARIANTS);
    for (size_t v = 0; v < N_VARIANTS; v++) {
        const struct clc_result *r = clc_test_find(&rep, variants[v], -1, CLC_FLOAT);
        ck_assert_ptr_nonnull(r);
        bool broken = v == 1 || v == 2 || v == 3 || v == 5;
        if (broken) {
            ck_assert_msg(!r->verified && r->status == CLC_STATUS_ERROR, "%s verified",
                          variants[v]);
            ck_assert_ptr_nonnull(strstr(r->note, "wrong result"));
        } else if (r->status != CLC_STATUS_SKIPPED) {
            ck_assert_msg(r->verified, "%s: %s", variants[v], r->note);
        }
    }
    clc_report_free(&rep);
}
END_TEST

/* A copy kernel that gets the matrix right but also writes the element after it is caught:
 * the part of the buffer past the matrix must stay untouched. */
START_TEST(write_past_matrix_is_caught)
{
    const char *dir = clc_test_copy_kernels();
    clc_test_edit_kernel(dir, "transpose.cl", "STORE(out, y * width + x, LOAD(in, y * width + x));",
                         "{\n                STORE(out, y * width + x, LOAD(in, y * width + x));\n"
                         "                if (x + 1 == width && y + 1 == height)\n"
                         "                    STORE(out, y * width + x + 1, 0);\n            }");
    struct clc_opts o;
    clc_test_opts(&o);
    o.kernel_dir = dir;
    o.types = CLC_FLOAT;
    o.size = 4 * (45 * 45 + 44); /* 45 x 45, and 44 elements past it in the buffer */
    struct clc_report rep;
    ck_assert_int_eq(clc_test_run_case("transpose", &o, &rep), CLC_ERR);
    const struct clc_result *r = clc_test_find(&rep, "copy", 45, CLC_FLOAT);
    ck_assert_ptr_nonnull(r);
    ck_assert(!r->verified);
    ck_assert_ptr_nonnull(strstr(r->note, "element 2025, past the 2025 of the matrix"));
    ck_assert(clc_test_find(&rep, "naive", 45, CLC_FLOAT)->verified);
    clc_report_free(&rep);
}
END_TEST

int main(void)
{
    const TTest *tests[] = {quick_size_verifies, odd_shape_verifies, half_vector_shapes_verify,
                            missed_edges_are_caught, write_past_matrix_is_caught};
    return clc_test_main(clc_test_suite("transpose", tests, sizeof tests / sizeof tests[0]));
}
