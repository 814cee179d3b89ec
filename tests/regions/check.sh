#!/usr/bin/env bash
# `make test-regions`: plans across memory regions, end to end under QEMU
# (docs/regions.md). From the repository root:
#   tests/regions/check.sh SHARED_DIR
#  1. vww_96_int8 with a 32 KiB DTCM region and the RAM on mps3-an547: the
#     output equals TensorFlow Lite Micro's reference output.
#  2. person_detect (widest operator 55296 bytes) with regions of 32768 and
#     36864 bytes, neither of which holds it alone: it runs, and its output
#     equals the one-region run's.
#  3. person_detect with 32768 + 16384 bytes: `arenaplan plan` and `make
#     run` refuse it at plan time, exit 3.
#  4. Forced past the planner: a 32 KiB region named blockram on
#     mps2-an386, whose block RAM has 16 KiB: the link's ASSERT refuses it,
#     exit 3.
#  5. One region named other than ram (REGIONS="nosuchmem:65536"), or with
#     a SECTION: refused, exit 2 (it would be ignored).
#  6. Forced past the planner: the fast region's section renamed in the
#     generated header to .gnu.linkonce.armexidx.x, which port/cortex_m.ld
#     places in .ARM.exidx (code memory): the region's ASSERT on the bytes
#     its output section holds refuses the link, exit 3.
#  7. With allowed overlaps (OVERLAP=1): vww_96_int8 (rand1) and
#     kws_ref_model (sample) with a 32 KiB DTCM region and the RAM on
#     mps3-an547: the outputs equal TensorFlow Lite Micro's reference
#     outputs, and the generated header lists pairs inside one region
#     (kOverlaps) that its per-region checks take. kws_ref_model with an
#     8 KiB DTCM region, where pairs end up split across the two regions
#     (8 of its 10 with the graph folded: its RESHAPE is an alias, so the
#     pair it had is gone; not used): its output equals TFLM's too.
set -uo pipefail
shared=$1
cli=${ARENAPLAN_CLI:-build/arenaplan}
out=${RUN_OUT:-build/run}/regions-check
mkdir -p "$out"
models=$shared/models
fail=0
pass() { echo "regions: $1: PASS"; }
failed() { echo "regions: $1: FAIL${2:+ ($2)}"; fail=1; }

status=0
RUN_REGIONS="dtcm:32768 ram:1048576" run/run.sh "$models/vww_96_int8.tflite" mps3-an547 \
  "$shared/reference/vww_96_int8/rand1.in.bin" "$out/vww.out.bin" best \
  > "$out/vww.log" 2>&1 || status=$?
if [ $status -eq 0 ] && cmp -s "$out/vww.out.bin" "$shared/reference/vww_96_int8/rand1.out.bin"; then
  pass "vww_96_int8, dtcm 32 KiB + ram, output equals TFLM's"
else
  failed "vww_96_int8, dtcm 32 KiB + ram" "exit $status; $(tail -n 1 "$out/vww.log")"
fi

status=0
run/run.sh "$models/person_detect.tflite" mps3-an547 "" "$out/pd1.out.bin" best \
  > "$out/pd1.log" 2>&1 || status=$?
RUN_REGIONS="dtcm:32768 ram:36864" run/run.sh "$models/person_detect.tflite" mps3-an547 \
  "" "$out/pd2.out.bin" best > "$out/pd2.log" 2>&1 || status=$?
if [ $status -eq 0 ] && [ -s "$out/pd1.out.bin" ] && cmp -s "$out/pd1.out.bin" "$out/pd2.out.bin"; then
  pass "person_detect fits only split (32768 + 36864 bytes), output equals one region's"
else
  failed "person_detect split" "exit $status; $(tail -n 1 "$out/pd2.log")"
fi

status=0
"$cli" plan "$models/person_detect.tflite" --region dtcm:32768 --region ram:16384 \
  > "$out/plan3.log" 2>&1 || status=$?
status_run=0
RUN_REGIONS="dtcm:32768 ram:16384" run/run.sh "$models/person_detect.tflite" mps3-an547 \
  "" "" best > "$out/run3.log" 2>&1 || status_run=$?
if [ $status -eq 3 ] && [ $status_run -eq 3 ] &&
    grep -q 'no assignment of the tensors to the 2 regions fits (49152 bytes together): proven' "$out/plan3.log"; then
  pass "person_detect in 32768 + 16384 bytes refused at plan time (exit 3)"
else
  failed "person_detect in 32768 + 16384 bytes" "plan exit $status, run exit $status_run"
fi

status=0
RUN_REGIONS="blockram:32768 ram:1048576" run/run.sh "$models/person_detect.tflite" mps2-an386 \
  "" "" best > "$out/link4.log" 2>&1 || status=$?
if [ $status -eq 3 ] && grep -q "region blockram does not fit the board's BLOCKRAM" "$out/link4.log"; then
  pass "a region larger than its memory refused at link time (exit 3)"
else
  failed "a region larger than its memory" "exit $status; $(tail -n 1 "$out/link4.log")"
fi
for r in nosuchmem:65536 ram:65536:.dtcm; do
  status=0
  RUN_REGIONS=$r run/run.sh "$models/person_detect.tflite" mps3-an547 "" "" best \
    > "$out/one5.log" 2>&1 || status=$?
  if [ $status -eq 2 ] && grep -q "one region is the arena" "$out/one5.log"; then
    pass "one region REGIONS=$r refused (exit 2)"
  else
    failed "one region REGIONS=$r" "exit $status; $(tail -n 1 "$out/one5.log")"
  fi
done

# A CLI that writes what the real one writes, then moves region dtcm's
# array to a section port/cortex_m.ld places elsewhere.
wrap=$out/forced_cli.sh
real_cli=$(cd "$(dirname "$cli")" && pwd)/$(basename "$cli")
{
  echo '#!/usr/bin/env bash'
  echo "\"$real_cli\" \"\$@\" || exit \$?"
  # compile MODEL --out-dir DIR ...: DIR is the fourth argument.
  echo '[ "$1" = compile ] && [ -f "$4/model_arena.hpp" ] &&'
  echo '  sed -i "s/\"\\.arena_dtcm\"/\".gnu.linkonce.armexidx.x\"/g" "$4/model_arena.hpp"'
  echo 'exit 0'
} > "$wrap"
chmod +x "$wrap"
status=0
ARENAPLAN_CLI=$wrap RUN_OUT=$out/forced RUN_REGIONS="dtcm:32768 ram:1048576" \
  run/run.sh "$models/person_detect.tflite" mps3-an547 "" "" best \
  > "$out/forced6.log" 2>&1 || status=$?
if [ $status -eq 3 ] && grep -q "region dtcm: its output section does not hold its [0-9]* planned bytes" "$out/forced6.log"; then
  pass "a region array placed by another rule refused at link time (exit 3)"
else
  failed "a region array placed by another rule" "exit $status; $(tail -n 1 "$out/forced6.log")"
fi
split="dtcm:32768 ram:1048576"
tag=best-regions-$(printf '%s' "$split" | cksum | cut -d' ' -f1)-overlap
for c in vww_96_int8/rand1 kws_ref_model/sample; do
  m=${c%/*}
  status=0
  RUN_OVERLAP=1 RUN_REGIONS=$split run/run.sh "$models/$m.tflite" mps3-an547 \
    "$shared/reference/$c.in.bin" "$out/ovl.$m.out.bin" best > "$out/ovl.$m.log" 2>&1 || status=$?
  header=${RUN_OUT:-build/run}/$m/gen-$tag/model_arena.hpp
  if [ $status -eq 0 ] && cmp -s "$out/ovl.$m.out.bin" "$shared/reference/$c.out.bin" &&
      grep -q '(overlap): arena' "$out/ovl.$m.log" &&
      grep -q 'kOperatorCount, kOverlaps, kOverlapCount);' "$header"; then
    pass "$m, --overlap with dtcm 32 KiB + ram, output equals TFLM's"
  else
    failed "$m, --overlap with dtcm 32 KiB + ram" "exit $status; $(tail -n 1 "$out/ovl.$m.log")"
  fi
done
status=0
RUN_OVERLAP=1 RUN_REGIONS="dtcm:8192 ram:1048576" run/run.sh "$models/kws_ref_model.tflite" mps3-an547 \
  "$shared/reference/kws_ref_model/sample.in.bin" "$out/ovl8.out.bin" best > "$out/ovl8.log" 2>&1 || status=$?
"$cli" plan "$models/kws_ref_model.tflite" --overlap --region dtcm:8192 --region ram:1048576 \
  > "$out/ovl8.plan.log" 2>&1 || status=$?
if [ $status -eq 0 ] && cmp -s "$out/ovl8.out.bin" "$shared/reference/kws_ref_model/sample.out.bin" &&
    grep -q '10 allowed pairs, [0-9] with both tensors in one region' "$out/ovl8.plan.log"; then
  pass "kws_ref_model, --overlap with dtcm 8 KiB + ram (pairs split), output equals TFLM's"
else
  failed "kws_ref_model, --overlap with dtcm 8 KiB + ram" "exit $status; $(tail -n 1 "$out/ovl8.log")"
fi
exit $fail
