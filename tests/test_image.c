/* test_image.c - the image case: where the default device supports images every row
 * verifies with the useful bytes counted, the image rows outside the access model with the
 * reason; where it does not, the image rows are skipped with the note and the buffer rows
 * still verify (which of the two follows the device's own flag); a kernel that reads the
 * wrong texel is caught; a device without images, or with smaller ones, skips the image rows
 * at plan time; explain gives an image row's reason in place of the waterfall. */
#include <math.h>
#include <string.h>

#include "clcoalesce/cases.h"
#include "testutil.h"

#define SIDE 128                          /* the matrix is SIDE x SIDE floats */
#define SIZE ((uint64_t)SIDE * SIDE * 4)

static const char *const buffer_rows[] = {"rows_global", "cols_global", "transpose_global"};
static const char *const image_rows[] = {"rows_image", "cols_image", "transpose_image"};

/* Whether the default device has images (CL_DEVICE_IMAGE_SUPPORT and room for SIDE x SIDE). */
static bool device_has_images(void)
{
    struct clc_device d = clc_test_default_device();
    return d.image2d_max[0] >= SIDE && d.image2d_max[1] >= SIDE;
}

START_TEST(rows_verify_or_are_skipped_with_the_note)
{
    bool images = device_has_images();
    struct clc_opts o;
    clc_test_opts(&o);
    o.size = SIZE;
    o.types = CLC_FLOAT;
    struct clc_report rep;
    clc_test_run_expect("image", &o, CLC_OK, &rep);
    ck_assert_uint_eq(rep.n_results, 6);
    for (int k = 0; k < 3; k++) {
        const struct clc_result *b = clc_test_get(&rep, buffer_rows[k], SIDE, CLC_FLOAT);
        const struct clc_result *i = clc_test_get(&rep, image_rows[k], SIDE, CLC_FLOAT);
        clc_test_assert_ok(b);
        ck_assert_uint_eq(b->bytes, 2 * SIZE);
        ck_assert_ptr_null(strstr(b->note, "bound none"));
        ck_assert(!isnan(b->model.efficiency)); /* the buffer rows are traced */
        if (images) {
            clc_test_assert_ok(i);
            ck_assert_uint_eq(i->bytes, 2 * SIZE);
            clc_test_assert_note(i, "bound none: reads through the texture path");
            ck_assert(isnan(i->model.efficiency)); /* never a model of the wrong reads */
        } else {
            ck_assert_int_eq(i->status, CLC_STATUS_SKIPPED);
            clc_test_assert_note(i, "the device does not support images");
        }
        ck_assert_ptr_nonnull(clc_outside_model("image", image_rows[k]));
        ck_assert_ptr_null(clc_outside_model("image", buffer_rows[k]));
    }
    clc_report_free(&rep);
}
END_TEST

/* A read one texel to the right in some lanes is a wrong result, not a number. */
START_TEST(wrong_texel_is_caught)
{
    bool images = device_has_images();
    struct clc_opts o;
    clc_test_opts_edited(&o, "image.cl", "c.x = (int)x;", "c.x = (int)(x + (y == 5));");
    o.size = SIZE;
    o.types = CLC_FLOAT;
    struct clc_report rep;
    clc_test_run_expect("image", &o, images ? CLC_ERR : CLC_OK, &rep);
    for (int k = 0; k < 3; k++) {
        clc_test_assert_ok(clc_test_get(&rep, buffer_rows[k], SIDE, CLC_FLOAT));
        const struct clc_result *i = clc_test_get(&rep, image_rows[k], SIDE, CLC_FLOAT);
        if (images)
            clc_test_assert_caught(i, "wrong result");
        else
            ck_assert_int_eq(i->status, CLC_STATUS_SKIPPED);
    }
    clc_report_free(&rep);
}
END_TEST

/* Plans alone, no device: without images, or with images smaller than the matrix, an image
 * variant is skipped with the reason; its buffer twin is planned all the same. */
START_TEST(image_rows_skip_without_images)
{
    struct clc_device d;
    memset(&d, 0, sizeof d);
    d.max_group = 256;
    d.meta.warp_size = 32;
    d.meta.max_alloc = (uint64_t)1 << 30;
    const struct clc_case *c = clc_find_case("image");
    ck_assert_ptr_nonnull(c);
    struct clc_env e = clc_env_make(&d, CLC_FLOAT, SIZE);
    for (int k = 0; k < 3; k++) {
        struct clc_plan p;
        ck_assert_int_eq(clc_variant_plan(&e, clc_find_variant(c, image_rows[k]), 0, &p),
                         CLC_SKIP);
        clc_test_assert_has(p.note, "the device does not support images");
        clc_plan_free(&p);
        ck_assert_int_eq(clc_variant_plan(&e, clc_find_variant(c, buffer_rows[k]), 0, &p),
                         CLC_OK);
        ck_assert(!clc_plan_has_image(&p));
        clc_plan_free(&p);
    }
    d.image2d_max[0] = d.image2d_max[1] = SIDE / 2;
    struct clc_plan p;
    ck_assert_int_eq(clc_variant_plan(&e, clc_find_variant(c, "cols_image"), 0, &p), CLC_SKIP);
    clc_test_assert_has(p.note, "exceeds the device's largest");
    clc_plan_free(&p);
    d.image2d_max[0] = d.image2d_max[1] = SIDE;
    ck_assert_int_eq(clc_variant_plan(&e, clc_find_variant(c, "cols_image"), 0, &p), CLC_OK);
    ck_assert(clc_plan_has_image(&p));
    ck_assert_uint_eq(p.bytes, 2 * SIZE);
    clc_plan_free(&p);
}
END_TEST

/* explain has no requests to show for an image row: it names the kernel and prints why the
 * row is outside the model in place of the waterfall, exit 0. */
START_TEST(explain_says_an_image_row_is_outside_the_model)
{
    if (!device_has_images())
        return;
    char out[16384], err[8192];
    clc_test_expect("explain image --variant cols_image", 0, NULL, out, sizeof out, err,
                    sizeof err);
    clc_test_assert_has(out, "kernel cols_image");
    clc_test_assert_has(out, "bound: none: outside the model: reads through the texture path");
    clc_test_assert_lacks(out, "sectors");
}
END_TEST

int main(void)
{
    const TTest *tests[] = {rows_verify_or_are_skipped_with_the_note, wrong_texel_is_caught,
                            image_rows_skip_without_images,
                            explain_says_an_image_row_is_outside_the_model};
    return clc_test_main(clc_test_suite("image", tests, sizeof tests / sizeof tests[0]));
}
