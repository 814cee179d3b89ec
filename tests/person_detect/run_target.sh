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
# shellcheck source=scripts/firmware_lib.sh
. scripts/firmware_lib.sh
FW_OPT=${PD_OPT:--Os}
fw_board "$board"

b="$out/$board"
# The port and the images: once per board.
fw_port "$b"
"$fw_cxx" "${fw_arch[@]}" -x assembler-with-cpp \
  -DPD_PERSON_BMP="\"$shared/images/person.bmp\"" \
  -DPD_NO_PERSON_BMP="\"$shared/images/no_person.bmp\"" \
  -c tests/person_detect/images.S -o "$b/images.o"

expected="$out/host/expected.txt"
fail=0
first=1
for s in "${strategies[@]}"; do
  d="$b/$s"
  mkdir -p "$d"
  "$cli" compile "$shared/models/person_detect.tflite" --out-dir "$d" \
    --namespace pd --strategy "$s" >/dev/null
  "$fw_cxx" "${fw_cxxflags[@]}" -I"$d" -c "$d/pd_model.cpp" -o "$d/pd_model.o"
  "$fw_cxx" "${fw_cxxflags[@]}" -I"$d" -c tests/person_detect/firmware.cpp -o "$d/firmware.o"
  objs=("$d/firmware.o" "$d/pd_model.o" "$b/images.o" "$b"/port/*.o)
  link=0
  fw_link "$d/person_detect.elf" "$d/ld" "${objs[@]}" || link=$?
  if [ $link -eq 1 ]; then
    echo "person-detect $board $s: the code does not fit the board's code memory"
    fail=1
    continue
  elif [ $link -ne 0 ]; then
    echo "person-detect $board $s: does not fit the board (link failed)"
    fail=1
    continue
  fi
  status=0
  fw_qemu "$d/person_detect.elf" "$d/run.log" || status=$?
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
