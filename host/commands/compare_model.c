/* compare_model.c - `clcoalesce compare --model`: each result file on its own, its rows'
 * measured GB/s held against the predictive model's, as a table or JSON.  The predictions
 * are those the run made, or those a device profile (--profile) gives when every row is
 * predicted again from the features the run recorded.  compare.c parses the command line
 * and reads the files; this file does the rest. */
#define _GNU_SOURCE
#include "clcoalesce/compare.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "clcoalesce/outfile.h"
#include "clcoalesce/predict.h"
#include "clcoalesce/result.h"

/* The files of one `compare --model`, as the writers read them. */
struct model_cmp {
    int n_files;
    const char *const *paths;     /* [n_files], as given */
    struct clc_report *reps;      /* [n_files]; --profile predicts their rows again */
    enum clc_format format;       /* table or JSON */
    const char *profile_path;     /* --profile, NULL: the predictions the runs made */
    struct clc_profile *profile;  /* loaded from profile_path, else NULL */
};

static const char *or_unknown(const char *s, const char *what)
{
    return s[0] ? s : what;
}

/* Where the predictions come from, for a reader of either output. */
static void model_source(const struct model_cmp *c, char *buf, size_t len)
{
    char path[1024], dev[4 * sizeof c->profile->device];
    if (c->profile == NULL) {
        snprintf(buf, len, "as each run predicted them");
        return;
    }
    snprintf(buf, len, "on the profile %s (%s)", clc_printable(c->profile_path, path, sizeof path),
             clc_printable(or_unknown(c->profile->device, "unknown device"), dev, sizeof dev));
}

/* --model's table: a heading per file, then clc_write_model_table of its rows. */
static void write_model_table(const struct model_cmp *c, FILE *f)
{
    char src[1400];
    model_source(c, src, sizeof src);
    fprintf(f, "measured against predicted GB/s, predictions %s;\n"
            "resid = measured / predicted - 1\n", src);
    for (int i = 0; i < c->n_files; i++) {
        const struct clc_report *r = &c->reps[i];
        char path[1024], api[4 * sizeof r->api], dev[4 * sizeof r->device.name];
        fprintf(f, "\n[%d] %s: %s on %s\n", i + 1, clc_printable(c->paths[i], path, sizeof path),
                clc_printable(or_unknown(r->api, "unknown api"), api, sizeof api),
                clc_printable(or_unknown(r->device.name, "unknown device"), dev, sizeof dev));
        clc_write_model_table(r, f);
    }
}

/* --model's JSON: per file, the rows with both figures (measured, predicted, residual,
 * bound) and the summary clc_write_model_table prints. */
static json_t *model_json(const struct model_cmp *c)
{
    json_t *root = json_object(), *files = json_array();
    json_object_set_new(root, "tool", json_string("clcoalesce"));
    json_object_set_new(root, "version", json_string(CLC_VERSION));
    json_object_set_new(root, "command", json_string("compare --model"));
    json_object_set_new(root, "profile",
                        c->profile_path != NULL ? json_string(c->profile_path) : json_null());
    json_object_set_new(root, "within_pct", json_real(100 * CLC_MODEL_WITHIN));
    for (int i = 0; i < c->n_files; i++) {
        const struct clc_report *rep = &c->reps[i];
        json_t *o = json_object(), *rows = json_array();
        for (size_t k = 0; k < rep->n_results; k++) {
            const struct clc_result *r = &rep->results[k];
            if (!clc_model_compared(r))
                continue;
            double meas = r->value, pred = r->model.gbps;
            json_t *e = json_object();
            json_object_set_new(e, "case", json_string(r->case_name));
            json_object_set_new(e, "variant", json_string(r->variant));
            json_object_set_new(e, "param", r->has_param ? json_integer(r->param) : json_null());
            json_object_set_new(e, "type", json_string(clc_type_name(r->type)));
            json_object_set_new(e, "api", json_string(r->api));
            json_object_set_new(e, "gbps", json_real(meas));
            json_object_set_new(e, "model_gbps", json_real(pred));
            json_object_set_new(e, "residual", json_real(meas / pred - 1.0));
            json_object_set_new(e, "model_bound", json_string(r->model.bound));
            json_array_append_new(rows, e);
        }
        struct clc_model_summary sum;
        clc_model_summarize(rep, &sum);
        json_object_set_new(o, "path", json_string(c->paths[i]));
        json_object_set_new(o, "api", json_string(rep->api));
        json_object_set_new(o, "device", json_string(rep->device.name));
        json_object_set_new(o, "rows", rows);
        json_object_set_new(o, "predicted", json_integer((json_int_t)sum.rows));
        json_object_set_new(o, "within", json_integer((json_int_t)sum.within));
        json_object_set_new(o, "geomean", sum.rows ? json_real(sum.geomean) : json_null());
        json_t *by = json_object(); /* the same, by the bound each row was given */
        for (int b = CLC_BOUND_NONE + 1; b <= CLC_BOUND_LAST; b++) {
            clc_model_summarize_bound(rep, clc_bound_name(b), &sum);
            if (sum.rows == 0)
                continue;
            json_t *e = json_object();
            json_object_set_new(e, "predicted", json_integer((json_int_t)sum.rows));
            json_object_set_new(e, "within", json_integer((json_int_t)sum.within));
            json_object_set_new(e, "geomean", json_real(sum.geomean));
            json_object_set_new(by, clc_bound_name(b), e);
        }
        json_object_set_new(o, "by_bound", by);
        json_array_append_new(files, o);
    }
    json_object_set_new(root, "files", files);
    return root;
}

/* --profile: every row of file i predicted again on it.  When none has a prediction now,
 * says why not for the first verified row into why. */
static void repredict(struct model_cmp *c, int i, char *why, size_t len)
{
    bool said = false;
    for (size_t k = 0; k < c->reps[i].n_results; k++) {
        struct clc_result *r = &c->reps[i].results[k];
        struct clc_prediction pr;
        bool ok = clc_predict_row(c->profile, r, &pr);
        if (!said && r->status == CLC_STATUS_OK && !ok) {
            char label[512];
            clc_row_label(r, label, sizeof label);
            snprintf(why, len, "%s: %s", label, pr.note);
            said = true;
        }
    }
}

/* Whether file i has a row to hold against the model; if not, an error saying why. */
static bool has_predictions(const struct model_cmp *c, int i, const char *why)
{
    struct clc_model_summary sum;
    clc_model_summarize(&c->reps[i], &sum);
    if (sum.rows > 0)
        return true;
    bool verified = false;
    for (size_t k = 0; k < c->reps[i].n_results && !verified; k++)
        verified = c->reps[i].results[k].status == CLC_STATUS_OK;
    char path[1024], src[1400] = "";
    if (c->profile != NULL)
        model_source(c, src, sizeof src);
    if (!verified)
        why = "no row of it verified";
    else if (why[0] == '\0')
        why = c->profile == NULL ? "the run made none: it ran with --no-model, or is of a "
                                   "version that made no prediction; --profile PROF predicts "
                                   "its rows on a device profile"
                                 : "no row could be predicted";
    clc_error("%s: no row has a prediction%s%s (%s): nothing to hold against the model",
              clc_printable(c->paths[i], path, sizeof path), src[0] ? " " : "", src, why);
    return false;
}

/* Writes the table or JSON to f (clc_output_write's fill). */
static int write_model(FILE *f, void *ctx)
{
    const struct model_cmp *c = ctx;
    if (c->format == CLC_FMT_TABLE) {
        write_model_table(c, f);
    } else {
        json_t *root = model_json(c);
        int rc = clc_json_dump(f, root);
        json_decref(root);
        if (rc != CLC_OK)
            return CLC_ERR;
    }
    return ferror(f) ? CLC_ERR : CLC_OK;
}

int clc_compare_model(int n_files, const char *const *paths, struct clc_report *reps,
                      const char *profile_path, enum clc_format format, const char *output)
{
    struct model_cmp c = {n_files, paths, reps, format, profile_path, NULL};
    int rc = CLC_ERR;
    if (profile_path != NULL) {
        c.profile = malloc(sizeof *c.profile);
        if (c.profile == NULL) {
            clc_error("out of memory");
            return CLC_ERR;
        }
        if (clc_profile_load(profile_path, c.profile) != CLC_OK)
            goto done; /* it said what is wrong */
    }
    /* every file is checked before anything is written: no output that holds nothing */
    for (int i = 0; i < n_files; i++) {
        char why[640] = "";
        if (c.profile != NULL)
            repredict(&c, i, why, sizeof why);
        if (!has_predictions(&c, i, why))
            goto done;
    }
    if (clc_output_write(output != NULL ? output : "-", write_model, &c) != CLC_OK)
        goto done;
    if (output != NULL) {
        char shown[1024];
        printf("wrote %s\n", clc_printable(output, shown, sizeof shown));
    }
    rc = CLC_OK;
done:
    free(c.profile);
    return rc;
}
