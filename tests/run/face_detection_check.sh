#!/usr/bin/env bash
# `make test-face-detection`: face_detection_short_range (float32; its 74
# FLOAT16 constants widened at generation time, docs/compile.md) on QEMU
# boards. From the repository root:
#   tests/run/face_detection_check.sh SHARED_DIR BOARD...
# Input [1,128,128,3] float32, element i = ((37 i) mod 256) / 128 - 1 (exact
# in float32), the input of lower_float_test's
# RunsFaceDetectionAsTflmRunsItWidened. On each BOARD (run/run.sh: the
# board's output must equal the host's naive plan) the output's 60,928
# bytes must have the SHA-256 that test expects: TFLM's output for the same
# model with its FLOAT16 constants widened to FLOAT32 (TFLM refuses the
# model itself). On mps3-an547 the code and the 405,600 bytes of constants
# exceed the 512 KiB ITCM: the constants go to the QSPI flash
# (docs/boards.md, "Model constants"), and the line says so; there it also
# runs with its arena split between the DTCM and the SRAM
# (REGIONS="dtcm:524288 ram:1048576", docs/regions.md), the regions' link
# script including port/cortex_m_const.ld.
set -uo pipefail
if [ $# -lt 2 ]; then
  echo "usage: tests/run/face_detection_check.sh SHARED_DIR BOARD..." >&2
  exit 2
fi
shared=$1
shift
out=${RUN_OUT:-build/run}/face-check
mkdir -p "$out"
model=$shared/models/face_detection_short_range.tflite
expected=$(sed -n '/RunsFaceDetectionAsTflmRunsItWidened/,/^}/p' \
  tests/host/compile/lower_float_test.cpp | grep -o -m 1 '"[0-9a-f]\{64\}"' | tr -d '"')
[ -n "$expected" ] || { echo "face: no SHA-256 in tests/host/compile/lower_float_test.cpp" >&2; exit 2; }
perl -e 'print pack("f<*", map { (($_ * 37) % 256) / 128.0 - 1.0 } 0 .. 49151)' > "$out/in.bin"
fail=0
runs=("$@")
# RUN_FUSE=1 (`make test-face-detection FUSE=1`): compiled with --fuse
# (322,560-byte arena, docs/fuse.md), which excludes REGIONS.
for board in "$@"; do
  [ "$board" = mps3-an547 ] && [ "${RUN_FUSE:-}" != 1 ] &&
    runs+=("mps3-an547:dtcm:524288 ram:1048576")
done
for run in "${runs[@]}"; do
  board=${run%%:*} regions=""
  [ "$run" = "$board" ] || regions=${run#*:}
  f=$out/$board${regions:+-regions}
  status=0
  started=$(date +%s)
  RUN_REGIONS=$regions run/run.sh "$model" "$board" "$out/in.bin" "$f.out.bin" best \
    > "$f.log" 2>&1 || status=$?
  took=$(($(date +%s) - started))
  got=""
  [ $status -ne 0 ] || got=$(sha256sum < "$f.out.bin" | cut -d' ' -f1)
  if [ "$got" = "$expected" ]; then
    echo "face_detection_short_range $board${regions:+ (REGIONS=$regions)}: PASS (TFLM's SHA-256 ${expected:0:16}..., equal to the host's; ${took} s$(sed -n 's/.*\(; constants [0-9]* bytes in CONST at 0x[0-9a-f]*\)$/\1/p' "$f.log"))"
  else
    echo "face_detection_short_range $board${regions:+ (REGIONS=$regions)}: FAIL (exit $status, sha256 ${got:-none}; $(tail -n 1 "$f.log"))"
    fail=1
  fi
done
exit $fail
