#!/usr/bin/env python3
"""ncu_stores.py - what reaches the L2 for each store instruction, from Nsight Compute.

  python3 bench/ncu_stores.py NCU_CSV [PROBE_LOG] > table.txt

NCU_CSV: `ncu --csv --page raw --metrics` with smsp__inst_executed_op_global_st.sum,
lts__t_requests_srcunit_tex_op_write.sum, lts__t_sectors_srcunit_tex_op_write.sum and
gpu__time_duration.sum (bench/results/h100/stores/*/commands.txt).  PROBE_LOG: the
run's stderr with CLC_PROFILE_PROBE=1, whose "clcoalesce: probe:" lines name the launches in
order (clc/<case>/<variant>/<param>/<type>); without it, the kernels' names.  Per store
instruction (a warp's store): the L2's write requests (lines) and sectors, and the launch's
time, in ps over the whole device.  A file without the instruction count counts a store a
warp launched (the stores case's kernel: one a work-item)."""
import csv
import io
import sys

from ncu_sectors import number  # a cell of ncu's CSV: "1,048,576", "n/a"

INST = "smsp__inst_executed_op_global_st.sum"
REQUESTS = "lts__t_requests_srcunit_tex_op_write.sum"
SECTORS = "lts__t_sectors_srcunit_tex_op_write.sum"
TIME = "gpu__time_duration.sum"


def warps(r, head):
    """The warps a launch ran: its grid and block sizes, "(x, y, z)" each."""
    total = 1
    for col in ("Grid Size", "Block Size"):
        for x in r[head.index(col)].strip("()").split(","):
            total *= int(x)
    return total / 32


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    text = [ln for ln in open(sys.argv[1], encoding="utf-8", errors="replace").read().splitlines()
            if ln.startswith('"')]
    rows = list(csv.reader(io.StringIO("\n".join(text))))
    if not rows or "ID" not in rows[0]:
        sys.exit(f"{sys.argv[1]}: no CSV header (a line starting with \"ID\")")
    head = rows[0]
    launches = [r for r in rows[1:] if len(r) == len(head) and r[head.index("ID")].isdigit()]
    names = None
    if len(sys.argv) > 2:
        names = [ln.split("probe: ", 1)[1].strip() for ln in open(sys.argv[2], encoding="utf-8")
                 if "clcoalesce: probe: " in ln]
    print(f"{'launch':42s} {'requests':>9s} {'sectors':>8s} {'ps':>7s}   (per store instruction)")
    for i, r in enumerate(launches):
        inst = number(r[head.index(INST)]) if INST in head else warps(r, head)
        if not inst:
            continue
        name = names[i] if names and i < len(names) else r[head.index("Kernel Name")].split("(")[0]
        per = [number(r[head.index(m)]) / inst for m in (REQUESTS, SECTORS)]
        ps = number(r[head.index(TIME)]) * 1e3 / inst  # ns -> ps
        print(f"{name:42s} {per[0]:9.2f} {per[1]:8.2f} {ps:7.1f}")


if __name__ == "__main__":
    main()
