/* built.c - what the APIs built from the kernel files (OpenCL programs, CUDA modules), kept
 * per file and options so that a kernel is compiled once per run, for threads that build at
 * the same time (see backend.h). */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "clcoalesce/backend.h"

void clc_built_init(struct clc_built *c, void (*ref)(void *), void (*unref)(void *))
{
    memset(c, 0, sizeof *c);
    pthread_mutex_init(&c->lock, NULL);
    c->ref = ref;
    c->unref = unref;
}

void clc_built_close(struct clc_built *c)
{
    for (int i = 0; i < c->n; i++) {
        c->unref(c->items[i].item);
        free(c->items[i].file);
        free(c->items[i].options);
    }
    c->n = 0;
    pthread_mutex_destroy(&c->lock);
}

void *clc_built_get(struct clc_built *c, const char *file, const char *options, void *built)
{
    void *found = NULL, *dropped = NULL;
    char *f = NULL, *o = NULL;
    options = options ? options : "";
    pthread_mutex_lock(&c->lock);
    for (int i = 0; i < c->n && found == NULL; i++)
        if (strcmp(c->items[i].file, file) == 0 && strcmp(c->items[i].options, options) == 0)
            found = c->items[i].item;
    if (found != NULL) {
        c->ref(found);
    } else if (built != NULL && (f = strdup(file)) != NULL && (o = strdup(options)) != NULL) {
        if (c->n == CLC_BUILT_KEEP) { /* full: the oldest goes, once its users are done */
            dropped = c->items[0].item;
            free(c->items[0].file);
            free(c->items[0].options);
            memmove(c->items, c->items + 1, sizeof c->items - sizeof c->items[0]);
            c->n--;
        }
        c->items[c->n].file = f;
        c->items[c->n].options = o;
        c->items[c->n++].item = built;
        c->ref(built);
        found = built;
        f = o = NULL;
    } else if (built != NULL) { /* out of memory to keep it: the caller's alone */
        found = built;
    }
    pthread_mutex_unlock(&c->lock);
    free(f);
    free(o);
    if (dropped != NULL)
        c->unref(dropped);
    if (built != NULL && built != found)
        c->unref(built);
    return found;
}
