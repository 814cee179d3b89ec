#!/usr/bin/env bash
# Builds and runs person_detect on one QEMU board, once per offsets strategy,
# and checks every run against the host (tests/person_detect/host_runner.cpp
# with the naive plan: every tensor in its own buffer).
#   run_target.sh BOARD CLI OUT_DIR SHARED_DIR [STRATEGY...]
# Without STRATEGY: every offsets strategy `CLI strategies` lists. Prints the
# first strategy's person_detect lines; exit 0 only when every run exits 0
# (both images classified) and prints exactly the host's lines.
set -euo pipefail
board=$1 cli=$2 out=$3 shared=$4
shift 4
strategies=("$@")
if [ ${#strategies[@]} -eq 0 ]; then
  mapfile -t strategies < <("$cli" strategies --approach offsets)
fi
# shellcheck disable=SC1090
eval "$(sed -n 's/^\(BOARD_[A-Z_]*\) *:= *\(.*\)$/\1="\2"/p' "boards/$board/board.mk")"
cxx=${ARM_CXX:-arm-none-eabi-g++}
qemu=${QEMU:-qemu-system-arm}
timeout_s=${TARGET_TIMEOUT:-120}
arch=(-mcpu="$BOARD_CPU" -mthumb $BOARD_FLOAT)
cxxflags=("${arch[@]}" -std=c++17 "${PD_OPT:--Os}" -g -ffreestanding -fno-exceptions -fno-rtti
  -nostdlib -fno-threadsafe-statics -ffunction-sections -fdata-sections
  -Wall -Wextra -Werror -I. -Icore/include -Ikernels/include)
defsyms=(-Wl,--defsym=__arenaplan_code_origin="$BOARD_CODE_ORIGIN"
  -Wl,--defsym=__arenaplan_code_length="$BOARD_CODE_LENGTH"
  -Wl,--defsym=__arenaplan_ram_origin="$BOARD_RAM_ORIGIN"
  -Wl,--defsym=__arenaplan_stack_size="$BOARD_STACK_SIZE")
ldflags=("${arch[@]}" -nostdlib -T port/cortex_m.ld -Wl,--gc-sections "${defsyms[@]}")

b="$out/$board"
mkdir -p "$b/port"
# The port and the images: once per board.
for src in port/*.cpp; do
  obj="$b/port/$(basename "${src%.cpp}").o"
  extra=()
  [ "$(basename "$src")" = libc_min.cpp ] && extra=(-fno-tree-loop-distribute-patterns)
  [ "$obj" -nt "$src" ] || "$cxx" "${cxxflags[@]}" "${extra[@]}" -c "$src" -o "$obj"
done
"$cxx" "${arch[@]}" -x assembler-with-cpp \
  -DPD_PERSON_BMP="\"$shared/images/person.bmp\"" \
  -DPD_NO_PERSON_BMP="\"$shared/images/no_person.bmp\"" \
  -c tests/person_detect/images.S -o "$b/images.o"

expected="$out/host/expected.txt"
fail=0
first=1
for s in "${strategies[@]}"; do
  d="$b/$s"
  mkdir -p "$d/ld"
  "$cli" compile "$shared/models/person_detect.tflite" --out-dir "$d" \
    --namespace pd --strategy "$s" >/dev/null
  "$cxx" "${cxxflags[@]}" -I"$d" -c "$d/pd_model.cpp" -o "$d/pd_model.o"
  "$cxx" "${cxxflags[@]}" -I"$d" -c tests/person_detect/firmware.cpp -o "$d/firmware.o"
  objs=("$d/firmware.o" "$d/pd_model.o" "$b/images.o" "$b"/port/*.o)
  : > "$d/ld/arenaplan_fit.ld"
  if ! "$cxx" "${ldflags[@]}" -L"$d/ld" -Wl,--defsym=__arenaplan_ram_length=0x40000000 \
      -Wl,--defsym=__arenaplan_measure=1 "${objs[@]}" -lgcc -o "$d/measure.elf"; then
    echo "person-detect $board $s: the code does not fit the board's code memory"
    fail=1
    continue
  fi
  tests/target/fit_ld.sh "$d/measure.elf" "$board" "$BOARD_RAM_ORIGIN" \
    "$BOARD_RAM_LENGTH" "$BOARD_STACK_SIZE" > "$d/ld/arenaplan_fit.ld"
  if ! "$cxx" "${ldflags[@]}" -L"$d/ld" \
      -Wl,--defsym=__arenaplan_ram_length="$BOARD_RAM_LENGTH" \
      -Wl,-Map="$d/person_detect.map" "${objs[@]}" -lgcc -o "$d/person_detect.elf"; then
    echo "person-detect $board $s: does not fit the board (link failed)"
    fail=1
    continue
  fi
  status=0
  timeout --kill-after=5 "$timeout_s" "$qemu" -M "$BOARD_QEMU_MACHINE" -nographic \
    -semihosting-config enable=on,target=native -kernel "$d/person_detect.elf" \
    </dev/null >"$d/run.log" 2>&1 || status=$?
  grep '^person_detect ' "$d/run.log" > "$d/lines.txt" || true
  [ $first -eq 1 ] && cat "$d/lines.txt"
  first=0
  why=""
  if [ $status -ne 0 ]; then why="exit status $status"; fi
  if [ -f "$expected" ] && ! cmp -s "$d/lines.txt" "$expected"; then
    why="${why:+$why, }output differs from the host"
  fi
  if [ "$(wc -l < "$d/lines.txt")" -ne 2 ]; then why="${why:+$why, }not two result lines"; fi
  size=$(arm-none-eabi-size "$d/person_detect.elf" | awk 'NR==2 {print "text=" $1 " data=" $2 " bss=" $3}')
  arena=$(awk '/^figures/ {print $3; exit}' "$d/run.log")
  if [ -n "$why" ]; then
    echo "person-detect $board $s: FAILED: $why ($size $arena; log $d/run.log)"
    tail -n 5 "$d/run.log" | sed 's/^/  | /'
    fail=1
  else
    echo "person-detect $board $s: ok, equal to host ($size $arena)"
  fi
done
exit $fail
