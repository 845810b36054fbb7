/* inspect.h - what `explain` and `ptx` share: their options and the device they open. */
#ifndef CLC_COMMANDS_INSPECT_H
#define CLC_COMMANDS_INSPECT_H

#include "clcoalesce/driver.h"

struct insp_args {
    const struct clc_case *c;
    const struct clc_variant *v; /* --variant, NULL for none */
    bool has_param;              /* --param */
    long param;
    enum clc_type type;          /* --type, else float when the case has it */
    const char *results;         /* explain --results FILE */
    const char *profile;         /* explain --profile FILE: the device profile to predict on */
    const char *device;
    const char *kernel_dir;
    unsigned apis;               /* --api: one API */
    bool verbose, raw, help;     /* ptx */
};

/* Parses explain's (ptx false) or ptx's (ptx true) arguments.  CLC_OK or CLC_USAGE. */
int clc_inspect_args(int argc, char **argv, bool ptx, struct insp_args *a);

/* Opens a session on a's device and API at the quick size, with no copy ceiling and no
 * notes.  Returns the session's code. */
int clc_inspect_open(const struct insp_args *a, struct clc_opts *o, struct clc_session *s,
                     struct clc_report *rep);

/* The variant to show (a->v, or the case's first with a kernel of its own) and its param
 * (--param, which must be one of those the variant has on dev at size, or its first: a
 * grid's work-groups are counted per compute unit).  CLC_OK or CLC_USAGE. */
int clc_inspect_pick(const struct insp_args *a, const struct clc_device *dev, uint64_t size,
                     const struct clc_variant **v, long *param);

#endif
