#!/usr/bin/env bash
# `make test-profile-run`: the per-operator profile on the target
# (`make run ... PROFILE=1 RUN_ICOUNT=1`, run/profile_table.pl) of ad01_int8
# on mps2-an386:
#   tests/run/profile_check.sh SHARED_DIR
# passes when run/run.sh succeeds (the marked and the unmarked images give
# the host's output bytes, and the steps' instructions add up to the
# unmarked inference's within 1 %), the table lists the operators
# 0 .. kOperatorCount - 1 (the plan header's count) once each, in order,
# and `arenaplan report --profile` reads the run's profile.json: the page's
# total is the JSON's, and each operator row carries its count.
# Work directory RUN_OUT (default build/run/profile-test).
set -euo pipefail
if [ $# -ne 1 ]; then
  echo "usage: tests/run/profile_check.sh SHARED_DIR" >&2
  exit 2
fi
shared=$1
out=${RUN_OUT:-build/run/profile-test}
model=ad01_int8 board=mps2-an386
log=$out/$model.log
mkdir -p "$out"
status=0
RUN_OUT=$out RUN_PROFILE=1 RUN_ICOUNT=1 run/run.sh \
  "$shared/models/$model.tflite" "$board" "" "" best >"$log" 2>&1 || status=$?
count=$(sed -n 's/^inline constexpr std::size_t kOperatorCount = \([0-9]*\);$/\1/p' \
  "$out/$model/gen-best/model_arena.hpp" 2>/dev/null || true)
# The table's rows: step number, then the operator (or first..last).
listed=$(awk '$1 ~ /^[0-9]+$/ { printf "%s ", $2 }' "$log")
expect=""
[ -z "$count" ] || expect=$(seq 0 $((count - 1)) | tr '\n' ' ')
if [ $status -eq 0 ] && [ -n "$count" ] && [ "$listed" = "$expect" ] &&
    grep -q '(bound 1 %): PASS$' "$log"; then
  echo "profile run $model $board: PASS ($(grep -o 'differs by [^ ]* %' "$log"); $count operators, each listed once)"
else
  echo "profile run $model $board: FAIL (exit $status; operators listed: $listed; expected: $expect)"
  sed 's/^/  | /' "$log"
  exit 1
fi
json=$out/$model/$board/best/profile.json
[ -f "$json" ] || json=$(find "$out/$model" -name profile.json | head -n 1)
total=$(sed -n 's/^{"total": \([0-9]*\),.*/\1/p' "$json" 2>/dev/null || true)
page=$out/$model.report.html
if [ -n "$total" ] && "${ARENAPLAN_CLI:-build/arenaplan}" report \
    "$shared/models/$model.tflite" --profile "$json" --out "$page" >/dev/null &&
    grep -q "per inference</th><td class=\"n\" data-v=\"$total\"" "$page" &&
    [ "$(grep -o '<tr><td class="n" data-v="[0-9]*">[0-9,]*</td>' "$page" | wc -l)" -eq "$count" ]; then
  echo "profile report $model: PASS (total $total from $json)"
else
  echo "profile report $model: FAIL (profile ${json:-none}, total '${total}', page $page)"
  exit 1
fi
