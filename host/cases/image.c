/* image.c - a 2-D array of float read through the texture path (OpenCL image2d_t, CUDA a
 * texture object on a CUDA array) by rows, by columns and in a transpose, against the
 * same walks on a __global buffer.  The image rows lie outside the access model: the trace
 * build records __global addresses, not texture reads. */
#include "clcoalesce/cases.h"

#define GROUP_X 32 /* work-items along a warp */
#define GROUP_Y 8

/* What a variant is: its walk and where it reads from. */
struct walk {
    bool lanes_down; /* the warp's lanes walk down a column (cols, transpose), not a row */
    bool transpose;  /* out = transpose(in), not a copy */
    bool image;      /* in is an image, not a buffer */
};

static const bool copied = true, transposed = false; /* clc_check_transpose's check_ctx */

static int plan(const struct clc_env *e, const struct clc_variant *v, long param,
                struct clc_plan *p)
{
    (void)param;
    const struct walk *w = v->data;
    size_t width, height;
    clc_matrix_shape(e->n, &width, &height);
    char why[128];
    if (w->image && !clc_image_fits(e->dev, width, height, why, sizeof why)) {
        clc_plan_note(p, "%s", why);
        return CLC_SKIP;
    }
    uint64_t *wh = clc_plan_host(p, 2 * sizeof *wh);
    if (wh == NULL)
        return CLC_ERR;
    wh[0] = width;
    wh[1] = height;
    unsigned es = clc_env_es(e);
    unsigned in = w->image ? clc_plan_image(p, "in", width, height)
                           : clc_plan_buffer(p, "in", e->n, es, CLC_INIT_VALUES);
    unsigned out = clc_plan_buffer(p, "out", e->n, es, CLC_INIT_POISON);
    p->bufs[out].read_back = true;
    p->kernel = v->kernel;
    clc_plan_arg_buf(p, in);
    clc_plan_arg_buf(p, out);
    clc_plan_arg_u64(p, width);
    clc_plan_arg_u64(p, height);
    if (w->lanes_down)
        clc_plan_2d(p, height, width, GROUP_X, GROUP_Y);
    else
        clc_plan_2d(p, width, height, GROUP_X, GROUP_Y);
    p->bytes = 2 * (uint64_t)width * height * es;
    p->check = clc_check_transpose; /* buffer 0 is in, buffer 1 out, as it reads them */
    p->check_ctx = w->transpose ? &transposed : &copied;
    p->ref_ctx = wh;
    p->has_param = true;
    p->param = (long)width;
    clc_plan_note(p, "%zu x %zu", width, height);
    return CLC_OK;
}

static const struct walk rows_g = {false, false, false}, rows_i = {false, false, true};
static const struct walk cols_g = {true, false, false}, cols_i = {true, false, true};
static const struct walk tr_g = {true, true, false}, tr_i = {true, true, true};

#define TEXTURE "reads through the texture path, which the access model does not trace"

static const struct clc_variant variants[] = {
    {.name = "rows_global", .kernel = "rows_global", .plan = plan, .data = &rows_g},
    {.name = "rows_image", .kernel = "rows_image", .plan = plan, .data = &rows_i,
     .outside_model = TEXTURE},
    {.name = "cols_global", .kernel = "cols_global", .plan = plan, .data = &cols_g},
    {.name = "cols_image", .kernel = "cols_image", .plan = plan, .data = &cols_i,
     .outside_model = TEXTURE},
    {.name = "transpose_global", .kernel = "transpose_global", .plan = plan, .data = &tr_g},
    {.name = "transpose_image", .kernel = "transpose_image", .plan = plan, .data = &tr_i,
     .outside_model = TEXTURE},
};

const struct clc_case clc_case_image = {
    .name = "image",
    .cl_file = "image.cl",
    .summary = "a 2-D float array read through the texture path (image2d_t / a CUDA texture "
               "object) by rows, by columns and in a transpose, vs the same walks on a "
               "__global buffer",
    .variants_text = "rows_global, rows_image (a warp reads and writes a row segment), "
                     "cols_global, cols_image (a warp reads and writes a column segment), "
                     "transpose_global, transpose_image (a warp reads a column segment and "
                     "writes a row of out = transpose(in)); _image reads a read-only image, "
                     "skipped where the device has no images; param = width.  Shape as "
                     "matrix: width = floor(sqrt(n)), height = n / width",
    .bytes_rule = "2 x width x height x 4 (each element read once and written once)",
    .expect = "rows: image and buffer alike (both read whole sectors); cols and transpose: "
              "the buffer reads a sector per lane, the image its driver's 2-D layout (a "
              "CUDA array, an OpenCL image), which may keep a column's neighbours in fewer "
              "sectors: the _image rows above the _global ones where it does; "
              "transpose_global against transpose naive: the strided side on the read, not "
              "the write",
    .types = CLC_FLOAT, /* images of double do not exist */
    .alloc_factor = 1,
    .min_elems = GROUP_X * GROUP_X,
    .variants = variants,
    .n_variants = sizeof variants / sizeof variants[0],
};
