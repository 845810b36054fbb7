/* pinned.c - page-locked read-back memory, kept per backend.  A check reads back arrays of
 * hundreds of MiB to GiB; into ordinary memory the driver copies them through its own
 * staging buffers at about 5 GB/s on an H100 host, into page-locked memory at the bus's
 * speed.  Pinning is itself slow, so the blocks stay for the next row. */
#include "clcoalesce/backend.h"

void *clc_pinned_get(struct clc_backend *b, size_t bytes)
{
    if (b->ops->pin_alloc == NULL || bytes == 0)
        return NULL;
    struct clc_pinned *best = NULL, *room = NULL;
    for (int i = 0; i < CLC_PINNED_KEEP; i++) {
        struct clc_pinned *k = &b->pinned[i];
        if (k->p == NULL) {
            room = room ? room : k;
            continue;
        }
        /* the smallest free block that holds bytes, not twice over */
        if (!k->busy && k->capacity >= bytes && k->capacity / 2 <= bytes &&
            (best == NULL || k->capacity < best->capacity))
            best = k;
    }
    if (best != NULL) {
        best->busy = true;
        return best->p;
    }
    if (room == NULL) { /* full: the smallest free block makes room */
        for (int i = 0; i < CLC_PINNED_KEEP; i++) {
            struct clc_pinned *k = &b->pinned[i];
            if (!k->busy && (room == NULL || k->capacity < room->capacity))
                room = k;
        }
        if (room == NULL)
            return NULL;
        b->ops->pin_free(b, room->p, room->handle);
        *room = (struct clc_pinned){0};
    }
    room->p = b->ops->pin_alloc(b, bytes, &room->handle);
    if (room->p == NULL)
        return NULL;
    room->capacity = bytes;
    room->busy = true;
    return room->p;
}

bool clc_pinned_put(struct clc_backend *b, void *p)
{
    for (int i = 0; p != NULL && i < CLC_PINNED_KEEP; i++) {
        if (b->pinned[i].p == p) {
            b->pinned[i].busy = false;
            return true;
        }
    }
    return false;
}

void clc_pinned_release_all(struct clc_backend *b)
{
    for (int i = 0; i < CLC_PINNED_KEEP; i++) {
        if (b->pinned[i].p != NULL)
            b->ops->pin_free(b, b->pinned[i].p, b->pinned[i].handle);
        b->pinned[i] = (struct clc_pinned){0};
    }
}
