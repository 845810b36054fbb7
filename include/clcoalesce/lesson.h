/* lesson.h - what a run showed, in a few lines: headline pairs of its own rows as ratios
 * (coalesced against uncoalesced, stride 1 against the worst stride, ...), each only where
 * the run has both rows, then the rows furthest from their predictions.  Pure host code over
 * a report: the block after the run's table, and the "lesson" array of its JSON. */
#ifndef CLCOALESCE_LESSON_H
#define CLCOALESCE_LESSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "clcoalesce/result.h"

#define CLC_LESSON_MAX 16  /* lines at most: the pairs, then the rows predicted worst */
#define CLC_LESSON_WORST 3 /* rows furthest from their predictions */

struct clc_lesson_line {
    const char *what;   /* the pair's sentence (lesson.c's table), or "furthest from its
                         * prediction" for a row against its prediction */
    bool predicted;     /* a row against its prediction, not a pair */
    size_t rows[2];     /* indices into the report's results: a, then b (a pair); the row
                         * twice (predicted) */
    char a[352], b[352]; /* the rows' names, "stride inplace 32 float" (printable) */
    double a_value;     /* a's GB/s; b's GB/s, or a's prediction */
    double b_value;
    double ratio;       /* a_value / b_value */
};

/* The lesson of rep into out (at most max lines): for each pair of lesson.c's table whose rows
 * the report holds, verified, on its first API (the same type and size on both sides, float
 * before double, the largest size), the ratio of their GB/s; then the CLC_LESSON_WORST rows
 * furthest from their predictions (|log(measured / predicted)|), where rows were predicted.
 * Returns the number of lines. */
size_t clc_lesson_make(const struct clc_report *rep, struct clc_lesson_line *out, size_t max);

/* Writes the lesson as a block of lines after a blank line ("what this run showed: ..."),
 * nothing when it has none.  Row names pass through clc_printable. */
void clc_lesson_print(const struct clc_report *rep, FILE *f);

/* The lesson as a JSON array of {what, a, b, a_gbps, b_gbps, ratio, rows} (predicted lines:
 * b is null, b_gbps the prediction, ratio measured / predicted); a new reference. */
struct json_t *clc_lesson_json(const struct clc_report *rep);

#endif
