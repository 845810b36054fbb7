/* custom.h - a user's kernel checked, verified, timed and modelled in an open session: what
 * `custom` does before it ranks the kernel, and what `validate` does for every kernel of its
 * manifest (host/commands/custom.c). */
#ifndef CLCOALESCE_CUSTOM_H
#define CLCOALESCE_CUSTOM_H

#include "clcoalesce/driver.h"

/* One kernel of the user's own and its launch, as `custom`'s options give it. */
struct clc_custom_kernel {
    const char *file;    /* the kernel file, as given (messages name it so) */
    const char *name;    /* the __kernel's name */
    const char *pattern; /* copy, scale, gather or transpose ('custom --help') */
    size_t local[2];     /* --local N ({N, 0}) or XxY; {0, 0}: the pattern's default */
    unsigned items;      /* --items-per-thread; 0: the pattern's default */
};

/* Reads k's file, builds the kernel on the session's first API and checks that it fits the
 * pattern, runs it once in its checked (trace) build at 1 MiB, then runs it as a case of
 * its own on every API of the session with s->o's options (its --variant aside): verified,
 * timed, modelled and, with s->profile, predicted.  Its rows (case "custom", variant k->name)
 * go to s->rep.  Returns CLC_OK, CLC_USAGE (an unknown pattern, a size that does not suit)
 * or CLC_ERR after a message (the file, the build, an access outside the buffers, a wrong
 * result: the row, when there is one, says which). */
int clc_custom_measure(struct clc_session *s, const struct clc_custom_kernel *k);

#endif
