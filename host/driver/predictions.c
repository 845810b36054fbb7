/* predictions.c - the predictive model in a run: the device profile it reads (--profile, or
 * the run's own rows of the profile's cases), and each row's prediction from it. */
#define _GNU_SOURCE
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "clcoalesce/driver.h"
#include "clcoalesce/profcache.h"

/* Records in the report the profiles its predictions used (an array, taken), "" for none
 * or for one too large for the field: dropped, never cut. */
static void keep_profiles(struct clc_report *rep, json_t *used)
{
    char *text = json_array_size(used) ? json_dumps(used, JSON_COMPACT) : NULL;
    json_decref(used);
    snprintf(rep->model_profile, sizeof rep->model_profile, "%s",
             text != NULL && strlen(text) < sizeof rep->model_profile ? text : "");
    free(text);
}

/* On a CPU the figures the layers read mean something else (docs/model.md, "On a CPU"). */
static void note_cpu(const struct clc_session *s)
{
    if (s->n_be > 0 && s->be[0]->dev.cpu)
        clc_note("model: on a CPU the ceilings the predictions read are its caches', and it has "
                 "no occupancy or local banks: the layers are there to learn from, not to trust "
                 "(docs/model.md: 'On a CPU')");
}

/* Whether the run's own rows give a profile at its end: the stream case's ceilings. */
static bool runs_stream(const struct clc_case *const *cases, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(cases[i]->name, "stream") == 0)
            return true;
    return false;
}

/* Loads back end i's profile: --profile's file, or (kept) the one its API's device keeps,
 * which it may lack (CLC_OK, none).  used gets what was loaded. */
static int load_one(struct clc_session *s, int i, bool kept, json_t *used)
{
    struct clc_backend *be = s->be[i];
    struct clc_profile *p = malloc(sizeof *p);
    if (p == NULL) {
        clc_error("out of host memory for the profile");
        return CLC_ERR;
    }
    char path[4096], when[32];
    if (kept) {
        if (!clc_profcache_load(&be->dev.meta, clc_api_name(be->dev.api), p, path, sizeof path,
                                when, sizeof when)) {
            free(p);
            return CLC_OK;
        }
        clc_note("model: predicting%s%s with this device's profile kept in %s (measured %s); "
                 "'clcoalesce profile' measures it again", s->n_be > 1 ? " " : "",
                 s->n_be > 1 ? clc_api_name(be->dev.api) : "", path, when);
    } else if (clc_profile_load(s->o->profile, p) != CLC_OK) {
        free(p);
        return CLC_ERR;
    } else if (i == 0 && strcmp(p->device, s->rep->device.name) != 0) {
        clc_note("--profile %s was measured on '%s', not on this device: the predictions are "
                 "that device's", s->o->profile, p->device);
    }
    s->profile[i] = p;
    json_array_append_new(used, clc_profile_to_json(p));
    return CLC_OK;
}

int clc_session_load_profile(struct clc_session *s, const struct clc_case *const *cases,
                             size_t n)
{
    /* each API's rows read its own kept profile: a run of both APIs predicts both */
    bool kept = s->o->profile == NULL && !runs_stream(cases, n);
    if (!s->o->model || (s->o->profile == NULL && !kept))
        return CLC_OK;
    json_t *used = json_array();
    for (int i = 0; i < s->n_be; i++)
        if (load_one(s, i, kept, used) != CLC_OK) {
            json_decref(used);
            return CLC_ERR;
        }
    bool any = json_array_size(used) > 0;
    keep_profiles(s->rep, used);
    if (any)
        note_cpu(s);
    return CLC_OK;
}

const struct clc_profile *clc_session_profile(const struct clc_session *s, const char *api)
{
    for (int i = 0; i < s->n_be; i++)
        if (strcmp(clc_api_name(s->be[i]->dev.api), api) == 0)
            return s->profile[i];
    return NULL;
}

/* Predicts row r on p, unless its variant lies outside the model (clc_outside_model): then
 * no GB/s and bound "none", its note saying why (the driver wrote it). */
static void predict(const struct clc_profile *p, struct clc_result *r)
{
    if (clc_outside_model(r->case_name, r->variant) == NULL) {
        clc_predict_row(p, r, NULL);
        return;
    }
    r->model.gbps = r->model.dram_bytes = NAN;
    r->model.dram_read_bytes = r->model.dram_write_bytes = NAN;
    snprintf(r->model.bound, sizeof r->model.bound, "none");
}

void clc_session_predict_row(const struct clc_session *s, struct clc_result *r)
{
    const struct clc_profile *p = clc_session_profile(s, r->api);
    if (p != NULL && r->status == CLC_STATUS_OK)
        predict(p, r);
}

void clc_session_predict_end(struct clc_session *s)
{
    struct clc_report *rep = s->rep;
    if (s->profile[0] != NULL || !s->o->model || rep->n_results == 0)
        return;
    const char *names[CLC_MAX_APIS];
    int n = clc_report_apis(rep, names, CLC_MAX_APIS);
    json_t *used = json_array();
    size_t predicted = 0;
    for (int a = 0; a < n; a++) {
        struct clc_report sub;
        struct clc_profile p;
        if (clc_report_select_api(rep, names[a], &sub) != CLC_OK)
            continue;
        clc_profile_from_report(&sub, "this run's rows", &p);
        clc_report_free(&sub);
        if (!(p.copy_gbps > 0))
            continue;
        for (size_t i = 0; i < rep->n_results; i++) {
            struct clc_result *r = &rep->results[i];
            if (strcmp(r->api, names[a]) == 0 && r->status == CLC_STATUS_OK) {
                predict(&p, r);
                predicted += isfinite(r->model.gbps);
            }
        }
        json_array_append_new(used, clc_profile_to_json(&p));
    }
    keep_profiles(rep, used);
    if (predicted == 0) {
        clc_note("model: no predictions: the run has no rows of the stream case to take the "
                 "device's ceilings from; 'clcoalesce profile' measures them once and keeps "
                 "them for the next runs, or '--profile FILE' gives them");
        return;
    }
    if (s->table != NULL && s->o->model_table) {
        fprintf(s->table, "\npredicted from this run's own rows of the profile's cases:\n");
        clc_write_model_table(rep, s->table);
    }
    note_cpu(s);
}
