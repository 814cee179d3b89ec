#!/usr/bin/env bash
# `make test-profile-run`, second part: the instruction mix
# (`make run ... MIX=1 RUN_ICOUNT=1`, run/instruction_mix.pl) of ad01_int8:
#   tests/run/mix_check.sh SHARED_DIR
# passes when run/run.sh succeeds on both boards (the block log's count of
# the inference is within 0.1 % of the -icount counter's: two methods),
# mps2-an386 (Cortex-M4, no vector extension) shows no vector instruction,
# and mps3-an547 (Cortex-M55) shows the Helium kernels' vector
# instructions and fewer instructions in all than the Cortex-M4.
# Work directory RUN_OUT (default build/run/profile-test).
set -euo pipefail
if [ $# -ne 1 ]; then
  echo "usage: tests/run/mix_check.sh SHARED_DIR" >&2
  exit 2
fi
shared=$1
out=${RUN_OUT:-build/run/profile-test}
model=ad01_int8
mkdir -p "$out"
declare -A total vector
for board in mps2-an386 mps3-an547; do
  log=$out/$model.$board.mix.log
  status=0
  RUN_OUT=$out RUN_MIX=1 RUN_ICOUNT=1 run/run.sh \
    "$shared/models/$model.tflite" "$board" "" "" best >"$log" 2>&1 || status=$?
  line=$(grep -o 'mix instructions=.*' "$log" || true)
  if [ $status -ne 0 ] || [ -z "$line" ]; then
    echo "instruction mix $model $board: FAIL (exit $status)"
    sed 's/^/  | /' "$log"
    exit 1
  fi
  total[$board]=$(sed 's/.*instructions=\([0-9]*\).*/\1/' <<<"$line")
  vector[$board]=$(sed 's/.*vector=\([0-9]*\).*/\1/' <<<"$line")
  echo "instruction mix $model $board: ${line#mix }"
done
if [ "${vector[mps2-an386]}" -eq 0 ] && [ "${vector[mps3-an547]}" -gt 0 ] &&
    [ "${total[mps3-an547]}" -lt "${total[mps2-an386]}" ]; then
  echo "instruction mix $model: PASS (counts within 0.1 % of -icount; vector instructions only on mps3-an547)"
else
  echo "instruction mix $model: FAIL (vector ${vector[mps2-an386]} on mps2-an386, ${vector[mps3-an547]} on mps3-an547)"
  exit 1
fi
