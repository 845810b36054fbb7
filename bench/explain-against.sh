#!/usr/bin/env bash
# explain-against.sh - every predicted row of a run against what `explain` predicts for it
# from the same result file (its profile, its row's size), on whatever device explain runs
# on: explain traces the kernel there and plans the run's size, so the two agree where the
# access pattern traced there is the run's.  Prints a line per row and the count within
# 0.5 %.  Run from the source tree's root (explain reads its kernels from cl/).
#
# usage: bench/explain-against.sh BUILD_DIR RUN.json
set -euo pipefail
bin=${1:?usage: bench/explain-against.sh BUILD_DIR RUN.json}/clcoalesce
run=${2:?usage: bench/explain-against.sh BUILD_DIR RUN.json}

# case, variant, param ('-' for none), type and the run's prediction of each predicted row
python3 - "$run" <<'EOF' |
import json, sys
seen = set()
for r in json.load(open(sys.argv[1]))["results"]:
    key = (r["case"], r["variant"], r.get("param"), r["type"])
    if r.get("model_gbps") is None or key in seen:
        continue
    seen.add(key)
    param = "-" if r.get("param") is None else r["param"]
    print(r["case"], r["variant"], param, r["type"], r["model_gbps"])
EOF
{
    rows=0 same=0 absent=0
    while read -r c v p t predicted; do
        args=("$c" --variant "$v" --type "$t" --results "$run")
        out=
        [ "$p" = - ] || out=$("$bin" explain "${args[@]}" --param "$p" 2>&1 || true)
        # a param the size gives (a matrix's side) is none explain takes: it plans that one
        if [ "$p" = - ] || grep -q "has no param$" <<<"$out"; then
            out=$("$bin" explain "${args[@]}" 2>&1 || true)
        fi
        mine=$(awk '/^  predicted /{print $2}' <<<"$out")
        verdict=$(awk -v a="$predicted" -v b="${mine:-nan}" \
            'BEGIN { r = b / a; print (r > 0.995 && r < 1.005) ? "same" : sprintf("%.3f", r) }')
        # a param counted per compute unit (grid sizes) may not be one this device offers
        grep -q "has no param $p;" <<<"$out" && verdict="param not offered on this device"
        printf '%-12s %-18s %6s %-6s run %8.1f  explain %8s  %s\n' "$c" "$v" "$p" "$t" \
            "$predicted" "${mine:--}" "$verdict"
        rows=$((rows + 1))
        [ "$verdict" = same ] && same=$((same + 1))
        [ "${verdict#param}" = "$verdict" ] || absent=$((absent + 1))
    done
    echo "$same of $rows rows: explain predicts within 0.5 % of the run's own prediction" \
         "($absent with a param this device does not offer)"
}
