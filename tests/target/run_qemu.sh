#!/usr/bin/env bash
# Runs one firmware image under qemu-system-arm and judges it.
#   run_qemu.sh LABEL MACHINE ELF LOG EXPECTED_STATUS [REQUIRED_REGEX]
# The image passes when QEMU exits with EXPECTED_STATUS within
# $TARGET_TIMEOUT seconds (default 300: a hang, not a slow machine; the
# kernel property image on mps3-an547 takes about 30 s alone, over 60 on a
# loaded 2-core machine) and, for status 0, the output has a
# "PASS " line and no "FAIL"/"FAULT:" line; REQUIRED_REGEX (grep -E), when
# given, must match the output. Output goes to LOG; on failure its tail is
# printed. Exit status: 0 pass, 1 fail.
set -u
label=$1 machine=$2 elf=$3 log=$4 expected=$5 required=${6:-}
timeout_s=${TARGET_TIMEOUT:-300}
qemu=${QEMU:-qemu-system-arm}

start=$(date +%s.%N)
timeout --kill-after=5 "$timeout_s" "$qemu" -M "$machine" -nographic \
  -semihosting-config enable=on,target=native -kernel "$elf" \
  </dev/null >"$log" 2>&1
status=$?
elapsed=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN{printf "%.2f", b-a}')

why=""
if [ "$status" -eq 124 ] || [ "$status" -eq 137 ]; then
  why="timed out after ${timeout_s} s (hang)"
elif [ "$status" -ne "$expected" ]; then
  why="exit status $status, expected $expected"
elif [ "$expected" -eq 0 ]; then
  if ! grep -q '^PASS ' "$log"; then why="no PASS line"; fi
  if grep -qE 'FAIL|FAULT:' "$log"; then why="failure printed"; fi
fi
if [ -z "$why" ] && [ -n "$required" ] && ! grep -qE "$required" "$log"; then
  why="output lacks /$required/"
fi

if [ -n "$why" ]; then
  echo "target $label: FAILED: $why (log: $log)"
  tail -n 20 "$log" | sed 's/^/  | /'
  exit 1
fi
echo "target $label: ok (exit $status, ${elapsed} s)"
exit 0
