#!/usr/bin/env bash
# Runs one .tflite model on a QEMU board and on the host (see `make run` in
# README.md):
#   run/run.sh MODEL BOARD INPUT OUTPUT STRATEGY
# from the repository root. INPUT "" means zeros; OUTPUT "" means do not
# write one. The model is compiled ahead of time twice by `arenaplan
# compile`: with STRATEGY's plan for the firmware (every activation in the
# planned static arena, the input's bytes embedded in flash by
# run/input.S), and with the naive plan (every tensor its own bytes) for
# the host (run/host.cpp). Both run one inference; they must give the same
# output bytes. On success OUTPUT gets the output tensor's raw bytes and
# one line is printed:
#   run MODEL BOARD: arena N bytes, output M bytes, sha256 HEX
# (HEX: SHA-256 of the output bytes). Exit status: 0 success, 1 failure
# (the two differ, or the firmware fails), 2 bad usage or input (e.g.
# INPUT's size is not the input tensor's), 3 the model does not fit BOARD.
#
# Environment: ARENAPLAN_CLI (default build/arenaplan), RUN_OUT (default
# build/run; the work directory, RUN_OUT/NAME/BOARD/STRATEGY holds
# host.out.bin, board.out.bin, run.log), HOST_CXX (default g++),
# RUN_ICOUNT=1 runs QEMU with `-icount shift=0` (one instruction per
# virtual nanosecond) and writes the instructions of the inference to
# RUN_OUT/NAME/BOARD/STRATEGY/instructions.txt (see run/firmware.cpp).
# RUN_OVERLAP=1 (`make run ... OVERLAP=1`) compiles the firmware's plan with
# `--overlap` (docs/overlap.md: an operator's output may share bytes with
# the input it reads last, as its kernel's contract allows); the host run
# keeps the naive plan, so the two outputs must still be identical. Its
# files go to RUN_OUT/NAME/gen-STRATEGY-overlap and
# RUN_OUT/NAME/BOARD/STRATEGY-overlap.
set -euo pipefail
if [ $# -ne 5 ]; then
  echo "usage: run/run.sh MODEL BOARD INPUT OUTPUT STRATEGY" >&2
  exit 2
fi
model=$1 board=$2 input=$3 output=$4 strategy=$5
cli=${ARENAPLAN_CLI:-build/arenaplan}
out=${RUN_OUT:-build/run}
host_cxx=${HOST_CXX:-g++}
what="run $model $board"

die() {  # STATUS MESSAGE
  echo "$what: $2" >&2
  exit "$1"
}
[ -n "$model" ] || die 2 "no MODEL given (make run MODEL=path.tflite)"
[ -f "$model" ] || die 2 "no such file"
case $strategy in
  '' | *[!a-z0-9-]*) die 2 "STRATEGY '$strategy': expected a strategy name or best" ;;
esac
name=$(basename "$model" .tflite | tr -c 'A-Za-z0-9_.\n-' '_')

# shellcheck source=scripts/firmware_lib.sh
. scripts/firmware_lib.sh
fw_board "$board" || exit 2

overlap=${RUN_OVERLAP:-}
case $overlap in
  '' | 0) overlap="" ;;
  1) what="$what (overlap)" ;;
  *) die 2 "OVERLAP '$overlap': expected 1, 0 or nothing" ;;
esac

# Generates MODEL's code with PLAN into DIR (and the compile options that
# follow); a file is replaced only when its contents change, so that
# unchanged objects are not rebuilt.
generate() {  # DIR PLAN [OPTION...]
  local dir=$1 plan=$2 f
  shift 2
  mkdir -p "$dir/new"
  if ! "$cli" compile "$model" --out-dir "$dir/new" --namespace model \
      --strategy "$plan" "$@" >"$dir/compile.log" 2>&1; then
    sed 's/^/  | /' "$dir/compile.log" >&2
    die 2 "arenaplan compile failed (strategy $plan)"
  fi
  for f in model_arena.hpp model_model.hpp model_model.cpp; do
    cmp -s "$dir/new/$f" "$dir/$f" || mv "$dir/new/$f" "$dir/$f"
  done
  rm -rf "$dir/new"
}
tag=$strategy${overlap:+-overlap}
gen="$out/$name/gen-$tag"
naive="$out/$name/gen-naive"
if [ -n "$overlap" ]; then
  generate "$gen" "$strategy" --overlap
  generate "$naive" naive
else
  generate "$gen" "$strategy"
  [ "$strategy" = naive ] || generate "$naive" naive
fi

field() {  # NAME FILE: the value of `inline constexpr ... NAME = VALUE;`
  sed -n "s/^inline constexpr .* $1 = \([0-9]*\);.*/\1/p" "$2"
}
input_bytes=$(field kInputBytes "$gen/model_model.hpp")
output_bytes=$(field kOutputBytes "$gen/model_model.hpp")
arena=$(field kArenaSize "$gen/model_arena.hpp")
if [ -z "$input_bytes" ] || [ -z "$output_bytes" ] || [ -z "$arena" ]; then
  die 1 "no kInputBytes, kOutputBytes or kArenaSize in the generated code"
fi

b="$out/$name/$board/$tag"
mkdir -p "$b"
rm -f "$b/host.out.bin" "$b/board.out.bin" "$b/instructions.txt"
if [ -z "$input" ]; then
  head -c "$input_bytes" /dev/zero > "$b/input.bin"
else
  [ -f "$input" ] || die 2 "INPUT $input: no such file"
  size=$(wc -c < "$input")
  [ "$size" -eq "$input_bytes" ] ||
    die 2 "INPUT $input has $size bytes, but the model's input tensor has $input_bytes"
  cmp -s "$input" "$b/input.bin" || cp "$input" "$b/input.bin"
fi

# --- host: naive plan, every tensor its own bytes ---------------------------
# A failure here is reported at the end, after the board has run too.
host="$naive/run_host"
host_failed=""
if [ ! -x "$host" ] || [ "$naive/model_model.cpp" -nt "$host" ] ||
    [ run/host.cpp -nt "$host" ]; then
  rm -f "$host"
  "$host_cxx" -std=c++17 -O2 -Wall -Wextra -I. -Icore/include -Ikernels/include \
    -I"$naive" -DARENAPLAN_NO_ARENA_SECTION run/host.cpp "$naive/model_model.cpp" \
    -o "$host" 2>"$naive/host_build.log" ||
    host_failed="the generated code does not build on the host: $(grep -m 1 'error:' "$naive/host_build.log" || true)"
fi
if [ -z "$host_failed" ] && ! "$host" "$b/input.bin" "$b/host.out.bin" 2>"$b/host.log"; then
  rm -f "$b/host.out.bin"
  host_failed="the host run failed: $(head -n 1 "$b/host.log")"
fi

# --- board: STRATEGY's plan, the arena in the board's RAM -------------------
fw_port "$out/port/$board" || die 1 "the port does not build for $board"
for src in "$gen/model_model.cpp" run/firmware.cpp; do
  obj="$b/$(basename "${src%.cpp}").o"
  if [ ! -f "$obj" ] || [ "$src" -nt "$obj" ] || [ "$gen/model_model.hpp" -nt "$obj" ] ||
      [ "$gen/model_arena.hpp" -nt "$obj" ]; then
    "$fw_cxx" "${fw_cxxflags[@]}" -I"$gen" -c "$src" -o "$obj" 2>"$b/build.log" ||
      die 1 "$src does not build for $board: $(grep -m 1 'error:' "$b/build.log" || true)"
  fi
done
"$fw_cxx" "${fw_arch[@]}" -x assembler-with-cpp -DRUN_INPUT_FILE="\"$b/input.bin\"" \
  -c run/input.S -o "$b/input.o"
link=0
fw_link "$b/run.elf" "$b/ld" "$b/firmware.o" "$b/model_model.o" "$b/input.o" \
  "$out/port/$board"/port/*.o >"$b/link.log" 2>&1 || link=$?
if [ $link -eq 1 ]; then
  die 3 "does not fit: the code and constants exceed the board's $((BOARD_CODE_LENGTH)) bytes of code memory ($(grep -o 'overflowed by [0-9]* bytes' "$b/link.log" | head -n 1 || true); log $b/link.log)"
elif [ $link -ne 0 ]; then
  why=$(grep -o 'arenaplan: the arena needs [^"]*' "$b/link.log" | head -n 1 || true)
  [ -n "$why" ] || why=$(grep -o 'arenaplan: [^"]*' "$b/link.log" | head -n 1 || true)
  die 3 "does not fit: ${why#arenaplan: }${why:+ }(log $b/link.log)"
fi
qemu_args=()
[ "${RUN_ICOUNT:-}" = 1 ] && qemu_args=(-icount shift=0)
status=0
fw_qemu "$b/run.elf" "$b/run.log" "${qemu_args[@]}" || status=$?
if [ $status -ne 0 ]; then
  sed 's/^/  | /' "$b/run.log" | tail -n 5 >&2
  die 1 "the firmware exited with status $status (log $b/run.log)"
fi
perl -ne 'if (/^output ([0-9a-f]*)$/) { print pack("H*", $1); }' "$b/run.log" \
  > "$b/board.out.bin"
got=$(wc -c < "$b/board.out.bin")
[ "$got" -eq "$output_bytes" ] ||
  die 1 "the firmware printed $got output bytes, not $output_bytes (log $b/run.log)"
if [ "${RUN_ICOUNT:-}" = 1 ]; then
  # ticks of the inference x instructions per tick of the calibration loop
  # (2 x 1000000 + 1 instructions, run/firmware.cpp).
  perl -ne 'if (/_(?:cycles|ticks)=(\d+) calibration=(\d+)/) {
      printf "%d\n", $1 * 2000001 / $2 + 0.5; }' "$b/run.log" > "$b/instructions.txt"
fi
[ -z "$host_failed" ] || die 1 "$host_failed"
if ! cmp -s "$b/host.out.bin" "$b/board.out.bin"; then
  die 1 "FAILED: the board's output differs from the host's ($(cmp "$b/host.out.bin" "$b/board.out.bin" | head -n 1 || true); $b/host.out.bin, $b/board.out.bin)"
fi

[ -z "$output" ] || cp "$b/board.out.bin" "$output"
echo "$what: arena $arena bytes, output $output_bytes bytes, sha256 $(sha256sum < "$b/board.out.bin" | cut -d' ' -f1)"
