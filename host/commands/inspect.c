/* inspect.c - what `explain` and `ptx` share: their options, the device they open, and the
 * variant and param they show. */
#define _GNU_SOURCE
#include "inspect.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

static void usage_error(const char *msg, const char *arg)
{
    clc_usage_error("clcoalesce", "'clcoalesce explain --help' or 'clcoalesce ptx --help'", msg,
                    arg);
}

enum { OPT_VARIANT = 300, OPT_PARAM, OPT_RESULTS, OPT_VERBOSE, OPT_RAW, OPT_API, OPT_PROFILE };

int clc_inspect_args(int argc, char **argv, bool ptx, struct insp_args *a)
{
    static const struct option explain_opts[] = {
        {"variant", required_argument, NULL, OPT_VARIANT},
        {"param", required_argument, NULL, OPT_PARAM},
        {"type", required_argument, NULL, 't'},
        {"results", required_argument, NULL, OPT_RESULTS},
        {"profile", required_argument, NULL, OPT_PROFILE},
        {"device", required_argument, NULL, 'd'},
        {"api", required_argument, NULL, OPT_API},
        {"kernel-dir", required_argument, NULL, 'k'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    static const struct option ptx_opts[] = {
        {"variant", required_argument, NULL, OPT_VARIANT},
        {"param", required_argument, NULL, OPT_PARAM},
        {"type", required_argument, NULL, 't'},
        {"verbose", no_argument, NULL, OPT_VERBOSE},
        {"raw", no_argument, NULL, OPT_RAW},
        {"device", required_argument, NULL, 'd'},
        {"api", required_argument, NULL, OPT_API},
        {"kernel-dir", required_argument, NULL, 'k'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    const char *variant = NULL;
    bool type_given = false;
    memset(a, 0, sizeof *a);
    a->apis = 1u << CLC_API_OPENCL;
    optind = 1;
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, ":t:d:k:h", ptx ? ptx_opts : explain_opts, NULL)) != -1) {
        switch (c) {
        case OPT_VARIANT: variant = optarg; break;
        case OPT_PARAM: {
            char *end;
            errno = 0;
            long v = strtol(optarg, &end, 10);
            if (*optarg == '\0' || *end != '\0' || errno != 0) {
                usage_error("--param takes a whole number, not", optarg);
                return CLC_USAGE;
            }
            a->has_param = true;
            a->param = v;
            break;
        }
        case 't': {
            unsigned mask;
            if (clc_parse_type(optarg, &mask) != CLC_OK || (mask != CLC_FLOAT && mask != CLC_DOUBLE)) {
                usage_error("--type takes float or double, not", optarg);
                return CLC_USAGE;
            }
            a->type = (enum clc_type)mask;
            type_given = true;
            break;
        }
        case OPT_RESULTS: a->results = optarg; break;
        case OPT_PROFILE: a->profile = optarg; break;
        case OPT_VERBOSE: a->verbose = true; break;
        case OPT_RAW: a->raw = true; break;
        case OPT_API:
            if (clc_parse_api(optarg, &a->apis) != CLC_OK || strcmp(optarg, "both") == 0) {
                usage_error("--api takes opencl or cuda here, not", optarg);
                return CLC_USAGE;
            }
            break;
        case 'd': a->device = optarg; break;
        case 'k': a->kernel_dir = optarg; break;
        case 'h': a->help = true; return CLC_OK;
        case ':': usage_error("option needs a value:", argv[optind - 1]); return CLC_USAGE;
        default: usage_error("unknown option", argv[optind - 1]); return CLC_USAGE;
        }
    }
    if (ptx && a->has_param && variant == NULL) {
        usage_error("--param goes with --variant", NULL);
        return CLC_USAGE;
    }
    if (a->verbose && a->raw) {
        usage_error("--verbose and --raw do not go together", NULL);
        return CLC_USAGE;
    }
    if (optind >= argc) {
        usage_error("name a case; 'clcoalesce cases' lists them", NULL);
        return CLC_USAGE;
    }
    if (optind + 1 < argc) {
        usage_error("one case at a time; unexpected argument", argv[optind + 1]);
        return CLC_USAGE;
    }
    a->c = clc_find_case(argv[optind]);
    if (a->c == NULL) {
        clc_error("unknown case '%s'; 'clcoalesce cases' lists them", argv[optind]);
        return CLC_USAGE;
    }
    if (variant != NULL && (a->v = clc_find_variant(a->c, variant)) == NULL) {
        clc_error("case '%s' has no variant '%s'; 'clcoalesce cases' lists them", a->c->name,
                  variant);
        return CLC_USAGE;
    }
    if (!type_given)
        a->type = a->c->types & CLC_FLOAT ? CLC_FLOAT : CLC_DOUBLE;
    else if (!(a->c->types & a->type)) {
        clc_error("case '%s' does not run in %s", a->c->name, clc_type_name(a->type));
        return CLC_USAGE;
    }
    return CLC_OK;
}

int clc_inspect_open(const struct insp_args *a, struct clc_opts *o, struct clc_session *s,
                     struct clc_report *rep)
{
    clc_opts_defaults(o);
    o->quick = true;
    o->types = a->type;
    o->types_given = true;
    o->device = a->device;
    o->kernel_dir = a->kernel_dir;
    o->apis = a->apis;
    o->progress = 0;
    clc_report_init(rep, clc_api_name(CLC_API_OPENCL));
    bool quiet = clc_quiet;
    clc_quiet = true; /* the device notes would only clutter the output */
    int rc = clc_session_open(s, o, rep, NULL);
    clc_quiet = quiet;
    if (rc == CLC_OK && a->type == CLC_DOUBLE && !s->be[0]->dev.fp64) {
        clc_error("device '%s' has no fp64", s->be[0]->dev.meta.name);
        rc = CLC_ERR;
    }
    return rc;
}

int clc_inspect_pick(const struct insp_args *a, const struct clc_device *dev, uint64_t size,
                     const struct clc_variant **v, long *param)
{
    const struct clc_case *c = a->c;
    *v = a->v;
    for (size_t i = 0; *v == NULL && i < c->n_variants; i++)
        if (c->variants[i].kernel != NULL)
            *v = &c->variants[i];
    if (*v == NULL) {
        clc_error("no variant of '%s' launches a kernel of its own", c->name);
        return CLC_USAGE;
    }
    *param = 0;
    if ((*v)->params == NULL) {
        if (a->has_param) {
            clc_error("variant '%s' of '%s' has no param", (*v)->name, c->name);
            return CLC_USAGE;
        }
        return CLC_OK;
    }
    struct clc_env e = clc_env_make(dev, a->type, size);
    long params[CLC_MAX_PARAMS];
    size_t n = (*v)->params(&e, *v, params);
    *param = n ? params[0] : 0;
    if (!a->has_param)
        return CLC_OK;
    char list[256] = "";
    for (size_t i = 0; i < n; i++) {
        if (params[i] == a->param) {
            *param = a->param;
            return CLC_OK;
        }
        size_t len = strlen(list);
        snprintf(list + len, sizeof list - len, "%s%ld", i ? ", " : "", params[i]);
    }
    clc_error("variant '%s' of '%s' has no param %ld; its params: %s", (*v)->name, c->name,
              a->param, list);
    return CLC_USAGE;
}
