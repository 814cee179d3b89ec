#!/usr/bin/env bash
# Instructions per inference, flash and RAM of the compiled firmware
# (`make bench-firmware`; not part of `make test`):
#   scripts/bench_firmware.sh MODELS_DIR BOARD...
# For each model of BENCH_MODELS (default: the four shared MLPerf Tiny
# models and person_detect) and each BOARD, runs run/run.sh with
# RUN_ICOUNT=1 (QEMU -icount shift=0; zero input) with the default plan and
# with OVERLAP=1 (BENCH_OVERLAP="0 1"), and prints one Markdown table row per
# run: instructions per inference (run/firmware.cpp's SysTick count around
# the inference), flash = .text (code and read-only data) + .data, RAM =
# .data + .bss + .arena (the stack is not counted), from the ELF's section
# sizes (arm-none-eabi-size -A). run.sh also checks that the board's output
# equals the host's. The flash includes the harness and the embedded input
# (run/input.S), the same for every kernel version. The work directory is
# BENCH_OUT (default build/bench), emptied first so that every object is
# rebuilt from the current kernel headers.
set -euo pipefail
if [ $# -lt 2 ]; then
  echo "usage: scripts/bench_firmware.sh MODELS_DIR BOARD..." >&2
  exit 2
fi
models_dir=$1
shift
out=${BENCH_OUT:-build/bench}
models=${BENCH_MODELS:-"ad01_int8 kws_ref_model pretrainedResnet_quant vww_96_int8 person_detect"}
overlaps=${BENCH_OVERLAP:-"0 1"}
case $out in
  '' | / | .) echo "bench: BENCH_OUT '$out' refused" >&2; exit 2 ;;
esac
rm -rf "$out"
mkdir -p "$out"
echo "| model | board | plan | instructions | flash (text+data) | RAM (data+bss+arena) | arena |"
echo "|---|---|---|---:|---:|---:|---:|"
for m in $models; do
  for board in "$@"; do
    for ov in $overlaps; do
      plan=default tag=best
      [ "$ov" = 1 ] && plan=--overlap tag=best-overlap
      log="$out/$m.$board.$tag.log"
      if ! RUN_OUT="$out" RUN_ICOUNT=1 RUN_OVERLAP="$ov" run/run.sh \
          "$models_dir/$m.tflite" "$board" "" "" best > "$log" 2>&1; then
        echo "| $m | $board | $plan | FAIL (see $log) | | | |"
        continue
      fi
      d="$out/$m/$board/$tag"
      sizes=$(arm-none-eabi-size -A "$d/run.elf")
      sec() { awk -v s="$1" '$1 == s { print $2 }' <<< "$sizes"; }
      text=$(sec .text) data=$(sec .data) bss=$(sec .bss) arena=$(sec .arena)
      echo "| $m | $board | $plan | $(cat "$d/instructions.txt") |" \
        "$((text + ${data:-0})) | $((${data:-0} + ${bss:-0} + ${arena:-0})) |" \
        "${arena:-0} |"
    done
  done
done
