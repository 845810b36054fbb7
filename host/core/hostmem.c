/* hostmem.c - host buffers reused from row to row.  A row reads back, initialises and checks
 * arrays of hundreds of MiB; glibc maps each allocation that large afresh and unmaps it on
 * free, so every row page-faulted its buffers anew (0.2 s a row on an H100 host).  Freed
 * buffers wait here for the next row instead, until clc_give_back_memory. */
#include <stdlib.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "clcoalesce/core.h"
#include "clcoalesce/verify.h"

#define KEEP 8 /* buffers kept */

struct header {
    size_t capacity;  /* bytes after the header */
    max_align_t align;
};

static struct header *kept[KEEP];

static struct header *header_of(void *p)
{
    return (struct header *)((char *)p - offsetof(struct header, align));
}

void *clc_host_get(size_t bytes)
{
    int best = -1;
    for (int i = 0; i < KEEP; i++) /* the smallest kept buffer that holds bytes, not twice */
        if (kept[i] != NULL && kept[i]->capacity >= bytes && kept[i]->capacity / 2 <= bytes &&
            (best < 0 || kept[i]->capacity < kept[best]->capacity))
            best = i;
    if (best >= 0) {
        struct header *h = kept[best];
        kept[best] = NULL;
        return &h->align;
    }
    struct header *h = malloc(offsetof(struct header, align) + (bytes ? bytes : 1));
    if (h == NULL)
        return NULL;
    h->capacity = bytes ? bytes : 1;
    return &h->align;
}

void clc_host_put(void *p)
{
    if (p == NULL)
        return;
    struct header *h = header_of(p);
    int slot = -1;
    for (int i = 0; i < KEEP && slot < 0; i++)
        if (kept[i] == NULL)
            slot = i;
    if (slot < 0) { /* full: the smallest kept one makes room */
        slot = 0;
        for (int i = 1; i < KEEP; i++)
            if (kept[i]->capacity < kept[slot]->capacity)
                slot = i;
        if (kept[slot]->capacity > h->capacity) {
            free(h);
            return;
        }
        free(kept[slot]);
    }
    kept[slot] = h;
}

void clc_give_back_memory(void)
{
    clc_forget_values();
    for (int i = 0; i < KEEP; i++) {
        free(kept[i]);
        kept[i] = NULL;
    }
#ifdef __GLIBC__
    malloc_trim(0);
#endif
}
