#!/bin/sh
# split.sh - draws the dev / test split of the validation kernels and writes it into the
# `split` column of a manifest (in place; the other columns and the order are kept).
#
#   bench/validation/split.sh [MANIFEST]            # redraw with the recorded seed
#   bench/validation/split.sh --check [MANIFEST]    # exit 1 when MANIFEST differs from the draw
#
# MANIFEST defaults to kernels.tsv beside this script (the first set); the second set is
# second/kernels.tsv.  The seed is the one the manifest's first line records ("# split drawn
# by ..., seed N"), written there before the draw and before any kernel was measured, so a
# redraw gives the same split.
#
# The draw is stratified by family: each family's kernels get a pseudo-random key from one
# MINSTD stream (x = 48271 x mod 2^31 - 1, exact in awk's doubles, so every awk gives the
# same numbers), taken in the manifest's order; sorted by key, the first half of a family
# goes to dev, the second half to test, and a family with an odd count gives its extra
# kernel to dev and test in turn (the first to dev when the seed is even).  The set was
# written and this split drawn before any kernel of it was measured: dev is for looking at,
# test is for the score of a model built on dev.
set -eu
dir=$(dirname "$0")
check=0
[ "${1:-}" = "--check" ] && { check=1; shift; }
manifest=${1:-$dir/kernels.tsv}
[ -r "$manifest" ] || { echo "split.sh: cannot read $manifest" >&2; exit 1; }
SEED=$(head -n 1 "$manifest" | sed -n 's/^# split drawn by .*, seed \([0-9][0-9]*\)$/\1/p')
[ -n "$SEED" ] || { echo "split.sh: $manifest: its first line records no seed" >&2; exit 1; }

tmp=$(mktemp "${TMPDIR:-/tmp}/kernels.XXXXXX")
trap 'rm -f "$tmp"' EXIT

awk -F '\t' -v OFS='\t' -v seed="$SEED" '
function next_rand() { state = (state * 48271) % 2147483647; return state }
/^#/ { next }
NR == 1 || $1 == "file" { ncol = ($NF == "split") ? NF - 1 : NF; header = $1
                          for (c = 2; c <= ncol; c++) header = header OFS $c; next }
{
    n++; row[n] = $1; for (c = 2; c <= ncol; c++) row[n] = row[n] OFS $c
    fam = $6
    if (!(fam in size)) { families[++nf] = fam; size[fam] = 0 }
    member[fam, ++size[fam]] = n
}
END {
    state = seed % 2147483646 + 1
    for (i = 1; i <= n; i++) key[i] = next_rand()
    extra_dev = (seed % 2 == 0)
    for (f = 1; f <= nf; f++) {
        fam = families[f]; m = size[fam]
        for (a = 1; a <= m; a++) order[a] = member[fam, a]
        for (a = 2; a <= m; a++)            # insertion sort by key
            for (b = a; b > 1 && key[order[b - 1]] > key[order[b]]; b--) {
                t = order[b]; order[b] = order[b - 1]; order[b - 1] = t
            }
        half = int(m / 2)
        ndev = half
        if (m % 2 == 1) { ndev += extra_dev; extra_dev = !extra_dev }
        for (a = 1; a <= m; a++) part[order[a]] = a <= ndev ? "dev" : "test"
    }
    print "# split drawn by bench/validation/split.sh, seed " seed
    print header, "split"
    for (i = 1; i <= n; i++) print row[i], part[i]
}' "$manifest" > "$tmp"

if [ "$check" = 1 ]; then
    if cmp -s "$tmp" "$manifest"; then exit 0; fi
    echo "split.sh: $manifest differs from the draw with seed $SEED" >&2
    exit 1
fi
cat "$tmp" > "$manifest"
