/* lesson.c - what a run showed: the headline pairs of its rows as ratios, from one table of
 * pairs (a pair is a row of data, not code), and the rows furthest from their predictions. */
#include "clcoalesce/lesson.h"

#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <string.h>

#include "clcoalesce/predict.h"

/* ------------------------------------------------------------------ the pairs */

#define ANY LONG_MIN /* any param */

enum pick {
    PICK_ONE,   /* the first row that matches */
    PICK_BEST,  /* the highest GB/s of those that match */
    PICK_WORST, /* the lowest */
};

/* One side of a pair: rows of a case, of one of its variants ("a|b|c"), of a param. */
struct side {
    const char *case_name;
    const char *variants;
    long param;
    enum pick pick;
};

/* Side a is the one expected faster; the ratio is a's GB/s over b's. */
static const struct pair {
    struct side a, b;
    const char *what;
} pairs[] = {
    {{"coalesced", "kernel", ANY, PICK_ONE}, {"uncoalesced", "kernel", ANY, PICK_ONE},
     "neighbouring work-items on neighbouring addresses, or far apart"},
    {{"stride", "inplace", 1, PICK_ONE}, {"stride", "inplace", ANY, PICK_WORST},
     "every element of a line used, or one in a stride"},
    {{"offset", "inplace", 0, PICK_ONE}, {"offset", "inplace", ANY, PICK_WORST},
     "a warp's accesses aligned, or shifted by the worst offset"},
    {{"vector", "float2|float4|float8|float16", ANY, PICK_BEST},
     {"vector", "float", ANY, PICK_ONE}, "the best vector width, or a float per work-item"},
    {{"vector", "float4_aligned", ANY, PICK_ONE}, {"vector", "float4_misaligned", ANY, PICK_ONE},
     "float4 loads aligned, or misaligned"},
    {{"aos_soa", "soa", ANY, PICK_ONE}, {"aos_soa", "aos", ANY, PICK_ONE},
     "a structure of arrays, or an array of structures"},
    {{"gather", "identity", ANY, PICK_ONE}, {"gather", "random", ANY, PICK_ONE},
     "a gather of sequential indices, or random ones"},
    {{"matrix", "rowmajor", ANY, PICK_ONE}, {"matrix", "colmajor", ANY, PICK_ONE},
     "a matrix walked along its rows, or down its columns"},
    {{"transpose", "tiled|tiled_padded|tiled_1elem|tiled_wide|tiled_vec4", ANY, PICK_BEST},
     {"transpose", "naive", ANY, PICK_ONE}, "the best tiled transpose, or the naive one"},
    {{"rowsum", "group_per_row", ANY, PICK_ONE}, {"rowsum", "thread_per_row", ANY, PICK_ONE},
     "a row summed by a work-group, or by one work-item"},
    {{"banks", "tile_col_padded", ANY, PICK_ONE}, {"banks", "tile_col", ANY, PICK_ONE},
     "a __local tile read down its columns padded, or not"},
};

/* Whether name is one of the '|'-separated names of list. */
static bool one_of(const char *name, const char *list)
{
    size_t n = strlen(name);
    for (const char *p = list; *p;) {
        const char *end = strchr(p, '|');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        if (len == n && strncmp(p, name, n) == 0)
            return true;
        p += len + (end != NULL);
    }
    return false;
}

/* The API whose rows the lesson reads: the report's first. */
static const char *first_api(const struct clc_report *rep)
{
    if (rep->n_apis > 0)
        return rep->apis[0].name;
    return rep->n_results > 0 ? rep->results[0].api : "";
}

/* Whether row r is a verified bandwidth row of side s in the group (api, type, size). */
static bool on_side(const struct clc_result *r, const struct side *s, const char *api,
                    enum clc_type t, uint64_t size)
{
    return r->status == CLC_STATUS_OK && r->metric == CLC_METRIC_GBPS && r->value > 0 &&
           r->type == t && r->size == size && strcmp(r->api, api) == 0 &&
           strcmp(r->case_name, s->case_name) == 0 && one_of(r->variant, s->variants) &&
           (s->param == ANY || (r->has_param && r->param == s->param));
}

/* The row side s picks in the group, or -1 for none. */
static long pick_row(const struct clc_report *rep, const struct side *s, const char *api,
                     enum clc_type t, uint64_t size)
{
    long at = -1;
    for (size_t i = 0; i < rep->n_results; i++) {
        const struct clc_result *r = &rep->results[i];
        if (!on_side(r, s, api, t, size))
            continue;
        double best = at >= 0 ? rep->results[at].value : NAN;
        if (at < 0 || (s->pick == PICK_BEST && r->value > best) ||
            (s->pick == PICK_WORST && r->value < best))
            at = (long)i;
        if (s->pick == PICK_ONE)
            break;
    }
    return at;
}

/* "stride inplace 32 float": a row's name, printable, bytes above ASCII as '?' (JSON text). */
static void row_name(const struct clc_result *r, char *out, size_t len)
{
    char name[4 * sizeof r->case_name], variant[4 * sizeof r->variant], param[24] = "";
    clc_printable(r->case_name, name, sizeof name);
    clc_printable(r->variant, variant, sizeof variant);
    if (r->has_param)
        snprintf(param, sizeof param, " %ld", r->param);
    snprintf(out, len, "%s %s%s %s", name, variant, param, clc_type_name(r->type));
    for (char *p = out; *p; p++)
        if ((unsigned char)*p >= 0x80)
            *p = '?';
}

/* Fills line from rows a and b (b may be a itself, for a prediction). */
static void fill(struct clc_lesson_line *l, const struct clc_report *rep, size_t a, size_t b,
                 const char *what, bool predicted)
{
    memset(l, 0, sizeof *l);
    l->what = what;
    l->predicted = predicted;
    l->rows[0] = a;
    l->rows[1] = b;
    row_name(&rep->results[a], l->a, sizeof l->a);
    row_name(&rep->results[b], l->b, sizeof l->b);
    l->a_value = rep->results[a].value;
    l->b_value = predicted ? rep->results[a].model.gbps : rep->results[b].value;
    l->ratio = l->a_value / l->b_value;
}

/* The pair's rows in the best group both sides have (float before double, then the largest
 * size); false when none has both. */
static bool pair_rows(const struct clc_report *rep, const struct pair *p, size_t *a, size_t *b)
{
    const char *api = first_api(rep);
    bool found = false;
    enum clc_type best_t = CLC_FLOAT;
    uint64_t best_size = 0;
    for (size_t i = 0; i < rep->n_results; i++) {
        const struct clc_result *r = &rep->results[i];
        if (!on_side(r, &p->a, api, r->type, r->size))
            continue;
        bool better = !found || (r->type == CLC_FLOAT && best_t != CLC_FLOAT) ||
                      (r->type == best_t && r->size > best_size);
        if (!better)
            continue;
        long ia = pick_row(rep, &p->a, api, r->type, r->size);
        long ib = pick_row(rep, &p->b, api, r->type, r->size);
        if (ia < 0 || ib < 0 || ia == ib)
            continue;
        found = true;
        best_t = r->type;
        best_size = r->size;
        *a = (size_t)ia;
        *b = (size_t)ib;
    }
    return found;
}

/* How far row r is from its prediction, in log scale; -1 without one. */
static double miss(const struct clc_result *r)
{
    return clc_model_compared(r) ? fabs(log(r->value / r->model.gbps)) : -1;
}

size_t clc_lesson_make(const struct clc_report *rep, struct clc_lesson_line *out, size_t max)
{
    size_t n = 0;
    for (size_t k = 0; k < sizeof pairs / sizeof pairs[0] && n < max; k++) {
        size_t a = 0, b = 0;
        if (pair_rows(rep, &pairs[k], &a, &b))
            fill(&out[n++], rep, a, b, pairs[k].what, false);
    }
    /* the rows predicted worst, furthest first: a selection, CLC_LESSON_WORST at most */
    size_t taken[CLC_LESSON_WORST], n_taken = 0;
    while (n_taken < CLC_LESSON_WORST && n < max) {
        long worst = -1;
        for (size_t i = 0; i < rep->n_results; i++) {
            bool seen = false;
            for (size_t j = 0; j < n_taken; j++)
                seen |= taken[j] == i;
            if (!seen && miss(&rep->results[i]) >= 0 &&
                (worst < 0 || miss(&rep->results[i]) > miss(&rep->results[worst])))
                worst = (long)i;
        }
        if (worst < 0)
            break;
        taken[n_taken++] = (size_t)worst;
        fill(&out[n++], rep, (size_t)worst, (size_t)worst, "furthest from its prediction", true);
    }
    return n;
}

/* ------------------------------------------------------------------ writers */

void clc_lesson_print(const struct clc_report *rep, FILE *f)
{
    struct clc_lesson_line l[CLC_LESSON_MAX];
    size_t n = clc_lesson_make(rep, l, CLC_LESSON_MAX);
    if (n == 0)
        return;
    fprintf(f, "\nwhat this run showed (GB/s of its own rows, side by side):\n");
    bool heading = false;
    for (size_t i = 0; i < n; i++) {
        if (!l[i].predicted) {
            /* within 5 % either way the two are one speed here, whatever was expected */
            if (l[i].ratio >= 1.05 || l[i].ratio <= 1 / 1.05)
                fprintf(f, "  %s is %.1fx %s %s", l[i].b,
                        l[i].ratio >= 1 ? l[i].ratio : 1 / l[i].ratio,
                        l[i].ratio >= 1 ? "slower than" : "faster than", l[i].a);
            else
                fprintf(f, "  %s is as fast as %s", l[i].b, l[i].a);
            fprintf(f, " (%.1f against %.1f GB/s): %s\n", l[i].b_value, l[i].a_value, l[i].what);
            continue;
        }
        if (!heading) {
            struct clc_model_summary sum;
            clc_model_summarize(rep, &sum);
            fprintf(f, "furthest from their predictions (%zu of %zu predicted rows within %.0f "
                    "%%; --model-table lists them all):\n", sum.within, sum.rows,
                    100 * CLC_MODEL_WITHIN);
            heading = true;
        }
        const struct clc_result *r = &rep->results[l[i].rows[0]];
        char bound[4 * sizeof r->model.bound];
        clc_printable(r->model.bound, bound, sizeof bound);
        fprintf(f, "  %s: %.1f GB/s measured, %.1f predicted (%+.0f %%, bound %s)\n", l[i].a,
                l[i].a_value, l[i].b_value, 100 * (l[i].ratio - 1), bound);
    }
}

json_t *clc_lesson_json(const struct clc_report *rep)
{
    struct clc_lesson_line l[CLC_LESSON_MAX];
    size_t n = clc_lesson_make(rep, l, CLC_LESSON_MAX);
    json_t *a = json_array();
    for (size_t i = 0; i < n; i++) {
        json_t *rows = json_array();
        json_array_append_new(rows, json_integer((json_int_t)l[i].rows[0]));
        if (!l[i].predicted)
            json_array_append_new(rows, json_integer((json_int_t)l[i].rows[1]));
        json_array_append_new(
            a, json_pack("{s:s, s:s, s:o, s:f, s:f, s:f, s:o}", "what", l[i].what, "a", l[i].a,
                         "b", l[i].predicted ? json_null() : json_string(l[i].b), "a_gbps",
                         l[i].a_value, "b_gbps", l[i].b_value, "ratio", l[i].ratio, "rows",
                         rows));
    }
    return a;
}
