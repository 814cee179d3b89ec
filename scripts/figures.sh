#!/usr/bin/env bash
# Prints the README's planning tables (Markdown) from the built CLI:
#   scripts/figures.sh [build/arenaplan] [../shared]
# Every figure comes from `arenaplan plan ... --strategy all --json`.
set -euo pipefail
cli=${1:-build/arenaplan}
shared=${2:-../shared}

# table TITLE INPUT...: one row per strategy, one column per input.
table() {
  local approach=$1; shift
  python3 - "$cli" "$approach" "$@" <<'PY'
import json, subprocess, sys, os
cli, approach, inputs = sys.argv[1], sys.argv[2], sys.argv[3:]
cols, rows, bounds, order = [], {}, [], []
for path in inputs:
    args = [cli, "plan", path, "--strategy", "all", "--json", "--approach", approach]
    if path.endswith(".tflite"):
        args += ["--assume-dim", "1"]
    plans = json.loads(subprocess.check_output(args))
    cols.append(os.path.basename(path))
    bounds.append(plans[0]["lower_bound"])
    for p in plans:
        if p["strategy"] not in rows:
            rows[p["strategy"]] = {}
            order.append(p["strategy"])
        rows[p["strategy"]][cols[-1]] = p["arena_bytes"]
print("| %s strategy | " % approach + " | ".join(cols) + " |")
print("|---|" + "---:|" * len(cols))
for s in order:
    cells = []
    for c, lb in zip(cols, bounds):
        v = rows[s].get(c)
        cells.append("—" if v is None else "{:,} ({:.3f})".format(v, v / lb if lb else 1.0))
    print("| %s | " % s + " | ".join(cells) + " |")
print("| *lower bound* | " + " | ".join("{:,}".format(b) for b in bounds) + " |")
PY
}

models=("$shared/models/person_detect.tflite" "$shared/models/face_detection_short_range.tflite")
echo "#### Models (bytes, 16-byte alignment; arena / lower bound in parentheses)"
echo
table offsets "${models[@]}"
echo
table shared-objects "${models[@]}"
echo
mm=()
for i in A B C D E; do mm+=("$shared/benchmarks/minimalloc-challenging/$i.1048576.csv"); done
echo "#### MiniMalloc challenging instances (bytes; capacity 1,048,576)"
echo
table offsets "${mm[@]}"
echo
table shared-objects "${mm[@]}"
