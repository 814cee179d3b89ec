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
#   run MODEL BOARD: arena N bytes, output M bytes, sha256 HEX; peak stack
#   P bytes (bound B), peak RAM R bytes (S static + T stack)
# (HEX: SHA-256 of the output bytes; P: the stack Invoke() used, painted;
# B: its kStackBytes from `arenaplan stack`, written to
# RUN_OUT/NAME/BOARD/TAG/model_stack.hpp; R = S + T: the image's bytes in
# the board's RAM plus the stack used from its top; docs/stack.md). The
# image's stack is reserved at the bound of its whole stack (from the reset
# handler down); the run fails when P > B or the stack reached its limit. Exit status: 0 success, 1 failure
# (the two differ, or the firmware fails), 2 bad usage or input (e.g.
# INPUT's size is not the input tensor's), 3 the model does not fit BOARD.
#
# A model whose code and constants exceed the board's code memory is built
# again with its constant arrays in the board's CONST memory when board.mk
# names one (BOARD_CONST_ORIGIN, BOARD_CONST_LENGTH; port/cortex_m_const.ld,
# docs/boards.md "Model constants"); the line then ends with
# "; constants N bytes in CONST at 0xADDR". A model that fits is linked as
# before, its constants with the code.
# Environment: ARENAPLAN_CLI (default build/arenaplan), RUN_OUT (default
# build/run; the work directory, RUN_OUT/NAME/BOARD/STRATEGY holds
# host.out.bin, board.out.bin, run.log), HOST_CXX (default g++),
# RUN_REGIONS="NAME:BYTES[:SECTION] ..." plans the firmware's arena across
# memory regions, fastest first (docs/regions.md): each NAME is `ram` (the
# board's RAM, after .data, .bss and .arena) or a memory of the board's
# BOARD_MEMORIES (e.g. dtcm on mps3-an547); the link script gets one
# output section per region and an ASSERT that it fits its memory.
# RUN_ICOUNT=1 runs QEMU with `-icount shift=0` (one instruction per
# virtual nanosecond) and writes the instructions of the inference to
# RUN_OUT/NAME/BOARD/STRATEGY/instructions.txt (see run/firmware.cpp).
# RUN_OVERLAP=1 (`make run ... OVERLAP=1`) compiles the firmware's plan with
# `--overlap` (docs/overlap.md: an operator's output may share bytes with
# the input it reads last, as its kernel's contract allows); the host run
# keeps the naive plan, so the two outputs must still be identical. Its
# files go to RUN_OUT/NAME/gen-STRATEGY-overlap and
# RUN_OUT/NAME/BOARD/STRATEGY-overlap. With RUN_REGIONS, a pair is used
# only when its two tensors are in one region (docs/regions.md).
# RUN_FUSE=1 (`make run ... FUSE=1`) compiles with `--fuse` (docs/fuse.md:
# row-streaming segments with ring buffers); tag suffix -fuse; the host run
# keeps the naive plan. Not with RUN_REGIONS or RUN_OVERLAP.
# RUN_PROFILE=1 (`make run ... PROFILE=1`) also builds the image with
# -DARENAPLAN_PROFILE (every step of Invoke() marked, core/include/
# arenaplan/profile.hpp) in RUN_OUT/NAME/BOARD/TAG-profile, runs it under
# -icount, checks its output too and prints run/profile_table.pl's table
# of instructions per operator; with RUN_ICOUNT=1 the table's sum is
# compared with the unprofiled inference's instructions, exit 1 when they
# differ by more than 1 %.
# RUN_MIX=1 (`make run ... MIX=1`) runs the image once more with QEMU's
# block log and prints the inference's instruction mix (Helium vector,
# scalar floating point, low-overhead loop, scalar; run/instruction_mix.pl),
# written to RUN_OUT/NAME/BOARD/TAG/mix.txt; with RUN_ICOUNT=1 the log's
# total must be within 0.1 % of the counter's.
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
# A path that starts with '-' would read as an option.
case $model in -*) model=./$model ;; esac
case $input in -*) input=./$input ;; esac
# OUTPUT names the file the output bytes go to: a directory (or a path
# ending in '/') is refused before anything runs.
if [ -n "$output" ]; then
  { [ -d "$output" ] || [ "${output%/}" != "$output" ]; } &&
    die 2 "OUTPUT $output is a directory; name a file"
  case $output in -*) output=./$output ;; esac
fi
case $strategy in
  '' | *[!a-z0-9-]*) die 2 "STRATEGY '$strategy': expected a strategy name or best" ;;
esac
name=$(basename "$model" .tflite | tr -c 'A-Za-z0-9_.\n-' '_')

# shellcheck source=scripts/firmware_lib.sh
. scripts/firmware_lib.sh
fw_board "$board" || exit 2

regions=${RUN_REGIONS:-}
region_args=()
tag=$strategy
if [ -n "$regions" ]; then
  # Words split on blanks only: `read -a` neither globs nor expands.
  read -r -a region_words <<<"$regions"
  for r in "${region_words[@]}"; do
    case $r in
      *[!A-Za-z0-9_:.]*) die 2 "REGIONS '$r': expected NAME:BYTES[:SECTION] (letters, digits, '_', ':', '.')" ;;
    esac
    region_args+=(--region "$r")
  done
  # One region is the arena of a plan without regions, in the RAM's .arena:
  # any other NAME (or a SECTION) would be ignored, so it is refused.
  if [ ${#region_words[@]} -eq 1 ]; then
    case ${region_words[0]} in
      ram:*:*) die 2 "REGIONS '${region_words[0]}': one region is the arena in the RAM's .arena; give no SECTION, or two or more regions" ;;
      ram:*) ;;
      *) die 2 "REGIONS '${region_words[0]}': one region is the arena in the RAM; name it ram, or give two or more regions" ;;
    esac
  fi
  tag="$strategy-regions-$(printf '%s' "$regions" | cksum | cut -d' ' -f1)"
fi
overlap=${RUN_OVERLAP:-}
case $overlap in
  '' | 0) overlap="" ;;
  1)
    what="$what (overlap)"
    region_args+=(--overlap)
    tag="$tag-overlap"
    ;;
  *) die 2 "OVERLAP '$overlap': expected 1, 0 or nothing" ;;
esac
case ${RUN_FUSE:-} in
  '' | 0) ;;
  1)
    [ -z "$regions" ] || die 2 "FUSE=1 and REGIONS exclude each other"
    [ -z "$overlap" ] || die 2 "FUSE=1 implies the overlaps: leave OVERLAP out"
    what="$what (fused)"
    region_args+=(--fuse)
    tag="$tag-fuse"
    ;;
  *) die 2 "FUSE '${RUN_FUSE}': expected 1, 0 or nothing" ;;
esac
profile=""
case ${RUN_PROFILE:-} in
  '' | 0) ;;
  1) profile=1 ;;
  *) die 2 "PROFILE '${RUN_PROFILE}': expected 1, 0 or nothing" ;;
esac
mix=""
case ${RUN_MIX:-} in
  '' | 0) ;;
  1) mix=1 ;;
  *) die 2 "MIX '${RUN_MIX}': expected 1, 0 or nothing" ;;
esac

# Generates MODEL's code with PLAN into DIR; a file is replaced only when
# its contents change, so that unchanged objects are not rebuilt.
generate() {  # DIR PLAN [COMPILE_OPTION...]
  local dir=$1 plan=$2 f status=0
  shift 2
  mkdir -p "$dir/new"
  "$cli" compile "$model" --out-dir "$dir/new" --namespace model \
    --strategy "$plan" "$@" >"$dir/compile.log" 2>&1 || status=$?
  if [ $status -ne 0 ]; then
    sed 's/^/  | /' "$dir/compile.log" >&2
    # 3: no assignment of the tensors fits the regions.
    [ $status -eq 3 ] && die 3 "does not fit the regions: $(grep -m 1 -o 'arenaplan: .*' "$dir/compile.log" || true)"
    die 2 "arenaplan compile failed (strategy $plan)"
  fi
  for f in model_arena.hpp model_model.hpp model_model.cpp; do
    cmp -s "$dir/new/$f" "$dir/$f" || mv "$dir/new/$f" "$dir/$f"
  done
  rm -rf "$dir/new"
}
gen="$out/$name/gen-$tag"
naive="$out/$name/gen-naive"
generate "$gen" "$strategy" "${region_args[@]}"
[ "$tag" = naive ] || generate "$naive" naive

field() {  # NAME FILE: the value of `inline constexpr ... NAME = VALUE;`
  sed -n "s/^inline constexpr .* $1 = \([0-9]*\);.*/\1/p" "$2"
}
input_bytes=$(field kInputTotalBytes "$gen/model_model.hpp")
output_bytes=$(field kOutputTotalBytes "$gen/model_model.hpp")
arena=$(field kArenaSize "$gen/model_arena.hpp")
if [ -n "$regions" ] && [ -z "$arena" ]; then
  # A plan across regions: the sum of the regions' bytes.
  arena=$(sed -n 's/^inline constexpr std::size_t kRegionSize = \([0-9]*\);$/\1/p' \
    "$gen/model_arena.hpp" | awk '{ s += $1 } END { print s + 0 }')
fi
if [ -z "$input_bytes" ] || [ -z "$output_bytes" ] || [ -z "$arena" ]; then
  die 1 "no kInputTotalBytes, kOutputTotalBytes or kArenaSize in the generated code"
fi

b="$out/$name/$board/$tag"

# Writes LD_DIR/regions.ld: the board's extra memories, BASE_LD
# (port/cortex_m.ld, or port/cortex_m_const.ld for a model whose constants
# go to the board's CONST memory), one NOLOAD output section per region of
# the generated plan in the memory its name gives (ram: the board's RAM),
# and an ASSERT per region.
regions_ld() {  # LD_DIR BASE_LD
  local ld=$1 base=$2 name section mem upper origin length region_names size
  # Region names in region order (each namespace appears twice).
  region_names=$(sed -n 's/^namespace region_\([A-Za-z0-9_]*\) {$/\1/p' \
    "$gen/model_arena.hpp" | awk '!seen[$0]++')
  mkdir -p "$ld"
  {
    echo "/* Generated by run/run.sh for RUN_REGIONS=\"$regions\". */"
    echo "MEMORY"
    echo "{"
    for name in $region_names; do
      [ "$name" = ram ] && continue
      upper=$(printf '%s' "$name" | tr '[:lower:]' '[:upper:]')
      case " ${BOARD_MEMORIES:-} " in *" $upper "*) ;; *)
        echo "$what: region $name: board $board has no memory $upper (it has: ram ${BOARD_MEMORIES:-})" >&2
        return 2 ;;
      esac
      origin=$(eval echo "\${BOARD_${upper}_ORIGIN}")
      length=$(eval echo "\${BOARD_${upper}_LENGTH}")
      echo "  $upper (rwx) : ORIGIN = $origin, LENGTH = $length"
    done
    echo "}"
    echo "INCLUDE $base"
    echo "SECTIONS"
    echo "{"
    for name in $region_names; do
      section=$(sed -n "/^namespace region_$name {\$/,/^}/s/^inline constexpr char kRegionSection\[\] = \"\(.*\)\";\$/\1/p" "$gen/model_arena.hpp")
      mem=RAM
      [ "$name" = ram ] || mem=$(printf '%s' "$name" | tr '[:lower:]' '[:upper:]')
      echo "  $section (NOLOAD) :"
      echo "  {"
      echo "    __region_${name}_start = .;"
      echo "    KEEP(*($section))"
      echo "    __region_${name}_end = .;"
      echo "  } > $mem"
    done
    echo "}"
    # Each region's output section must hold exactly its planned bytes: an
    # array placed elsewhere (a section another rule matched) leaves it
    # short.
    for name in $region_names; do
      size=$(sed -n "/^namespace region_$name {\$/,/^}/s/^inline constexpr std::size_t kRegionSize = \([0-9]*\);\$/\1/p" "$gen/model_arena.hpp")
      echo "ASSERT(__region_${name}_end - __region_${name}_start == ${size:-0},"
      echo "       \"arenaplan: region $name: its output section does not hold its ${size:-0} planned bytes\")"
    done
    for name in $region_names; do
      if [ "$name" = ram ]; then
        echo "ASSERT(DEFINED(__arenaplan_measure) || __region_ram_end <= __stack_limit,"
        echo "       \"arenaplan: region ram does not fit the RAM left after .data, .bss, .arena and the minimum stack\")"
      else
        mem=$(printf '%s' "$name" | tr '[:lower:]' '[:upper:]')
        echo "ASSERT(__region_${name}_end <= ORIGIN($mem) + LENGTH($mem),"
        echo "       \"arenaplan: region $name does not fit the board's $mem\")"
      fi
    done
  } > "$ld/regions.ld"
}
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
# -ffp-contract=off: no fused multiply-add in the float32 kernels
# (kernels/float/float.hpp), as on the board.
host_flags=(-std=c++17 -O2 -ffp-contract=off -Wall -Wextra -I. -Icore/include -Ikernels/include
  -I"$naive" -DARENAPLAN_NO_ARENA_SECTION)
if fw_stale "$host" "$host_cxx" "${host_flags[@]}"; then
  rm -f "$host" "$host.flags"
  if "$host_cxx" "${host_flags[@]}" run/host.cpp "$naive/model_model.cpp" \
      -o "$host" 2>"$naive/host_build.log"; then
    # The dependency list of both sources (fw_stale reads it).
    "$host_cxx" "${host_flags[@]}" -MM -MT "$host" run/host.cpp \
      "$naive/model_model.cpp" >"$host.d" 2>/dev/null &&
      printf '%s\n' "$host_cxx" "${host_flags[@]}" >"$host.flags"
  else
    host_failed="the generated code does not build on the host: $(grep -m 1 'error:' "$naive/host_build.log" || true)"
  fi
fi
if [ -z "$host_failed" ] && ! "$host" "$b/input.bin" "$b/host.out.bin" 2>"$b/host.log"; then
  rm -f "$b/host.out.bin"
  host_failed="the host run failed: $(head -n 1 "$b/host.log")"
fi

# --- board: STRATEGY's plan, the arena in the board's RAM -------------------
# Builds DIR's model object again with its constant arrays in .model_const
# and links DIR/run.elf with port/cortex_m_const.ld (the board's CONST
# memory, docs/boards.md); writes DIR/const.txt ("BYTES ORIGIN": the
# .model_const section's bytes and address). Returns fw_link's status.
const_link() {  # DIR [CXXFLAG...]
  local d=$1 const_ld=port/cortex_m_const.ld f status=0
  local -a const_flags=()
  shift
  fw_compile "$d/model_model.o" "$gen/model_model.cpp" "$@" -I"$gen" \
    -DARENAPLAN_CONST_SECTION='".model_const"' ||
    die 1 "$gen/model_model.cpp does not build for $board with its constants in .model_const: $(grep -m 1 'error:' "$d/model_model.o.log" || true)"
  if [ -n "$regions" ]; then
    regions_ld "$d/ld-const" "$const_ld" || exit $?
    const_ld=$d/ld-const/regions.ld
  fi
  for f in "${fw_ldflags[@]}"; do
    case $f in port/cortex_m.ld | */regions.ld) f=$const_ld ;; esac
    const_flags+=("$f")
  done
  # shellcheck disable=SC2054  # the commas belong to -Wl options
  # -Lport: cortex_m_const.ld includes cortex_m.ld from the -L path.
  const_flags+=(-Lport -Wl,--defsym=__arenaplan_const_origin="$BOARD_CONST_ORIGIN"
    -Wl,--defsym=__arenaplan_const_length="$BOARD_CONST_LENGTH")
  echo "code memory overflowed: the model's constants go to CONST ($const_ld)" >>"$d/link.log"
  local -a fw_ldflags=("${const_flags[@]}")
  fw_link "$d/run.elf" "$d/ld" "$d/firmware.o" "$d/model_model.o" "$d/input.o" \
    "$out/port/$board"/port/*.o >>"$d/link.log" 2>&1 || status=$?
  [ $status -eq 0 ] || return $status
  "${ARM_SIZE:-arm-none-eabi-size}" -A "$d/run.elf" |
    awk '$1 == ".model_const" { printf "%d 0x%08x\n", $2, $3 }' >"$d/const.txt"
}

# Builds the firmware in DIR (the model's and firmware.cpp's objects
# compiled with CXXFLAG...), runs it on the board (with -icount shift=0
# when ICOUNT is 1, then writing DIR/instructions.txt) and writes the
# output bytes it printed to DIR/board.out.bin.
board_image() {  # DIR ICOUNT [CXXFLAG...]
  local d=$1 icount=$2 link why status got reserve port_ci init peak total
  local const_tried
  local bound reserved ram
  shift 2
  mkdir -p "$d"
  rm -f "$d/board.out.bin" "$d/instructions.txt"
  # The model first: its call graph gives DIR/model_stack.hpp (the bound
  # of Invoke(), `arenaplan stack`), which firmware.cpp includes.
  fw_compile "$d/model_model.o" "$gen/model_model.cpp" "$@" -I"$gen" ||
    die 1 "$gen/model_model.cpp does not build for $board: $(grep -m 1 'error:' "$d/model_model.o.log" || true)"
  port_ci=("$out/port/$board"/port/*.ci)
  "$cli" stack "$d/model_model.ci" "${port_ci[@]}" --root model::Invoke \
    "${fw_libgcc_stack[@]}" \
    --namespace model --arena-bytes "$arena" --header "$d/model_stack.new.hpp" \
    >"$d/stack.log" 2>&1 ||
    die 1 "no stack bound for Invoke(): $(head -n 1 "$d/stack.log")"
  cmp -s "$d/model_stack.new.hpp" "$d/model_stack.hpp" &&
    rm -f "$d/model_stack.new.hpp" ||
    mv "$d/model_stack.new.hpp" "$d/model_stack.hpp"
  # (model_stack.hpp is in firmware.o's dependency list: a new bound
  # builds it again.)
  fw_compile "$d/firmware.o" run/firmware.cpp "$@" -I"$gen" -I"$d" ||
    die 1 "run/firmware.cpp does not build for $board: $(grep -m 1 'error:' "$d/firmware.o.log" || true)"
  # The stack the link reserves: the bound of the whole image's stack, from
  # the reset handler through main() and Invoke(). The reset handler's one
  # indirect call runs the static constructors; the image must have none
  # (checked after the link), so it is bounded at 0 bytes.
  "$cli" stack "$d/firmware.ci" "$d/model_model.ci" "${port_ci[@]}" \
    --root Reset_Handler --indirect Reset_Handler=0 \
    "${fw_libgcc_stack[@]}" \
    >>"$d/stack.log" 2>&1 ||
    die 1 "no stack bound for the image: $(tail -n 1 "$d/stack.log")"
  reserve=$(sed -n 's/^stack Reset_Handler: \([0-9]*\) bytes.*/\1/p' "$d/stack.log")
  [ -n "$reserve" ] || die 1 "no stack bound for the image in $d/stack.log"
  # Rounded up to 8 bytes with at least one spare word: a stack used to
  # exactly its bound (hello_world_float: 296 bytes) then stays above the
  # limit, which the check below takes for an overflow.
  BOARD_STACK_SIZE=$(((reserve + 4 + 7) / 8 * 8))
  fw_ldflags=("${fw_ldflags[@]/#-Wl,--defsym=__arenaplan_stack_size=*/-Wl,--defsym=__arenaplan_stack_size=$BOARD_STACK_SIZE}")
  "$fw_cxx" "${fw_arch[@]}" -x assembler-with-cpp -DRUN_INPUT_FILE="\"$input_bin\"" \
    -c run/input.S -o "$d/input.o"
  link=0
  fw_link "$d/run.elf" "$d/ld" "$d/firmware.o" "$d/model_model.o" "$d/input.o" \
    "$out/port/$board"/port/*.o >"$d/link.log" 2>&1 || link=$?
  rm -f "$d/const.txt"
  const_tried=""
  # The code memory cannot hold the code and the model's constants: on a
  # board with a CONST memory (BOARD_CONST_ORIGIN, BOARD_CONST_LENGTH) the
  # model is compiled again with its constant arrays in .model_const
  # (ARENAPLAN_CONST_SECTION) and linked with port/cortex_m_const.ld, which
  # places them there. A model that fits keeps the image it had.
  if [ $link -eq 1 ] && [ -n "${BOARD_CONST_LENGTH:-}" ] &&
      grep -q "region \`CODE' overflowed" "$d/link.log"; then
    link=0 const_tried=1
    const_link "$d" "$@" || link=$?
  fi
  # A region too large for its memory: the ASSERT's message, or ld's own
  # overflow of a memory other than CODE.
  if [ -n "$regions" ] && [ $link -ne 0 ]; then
    why=$(grep -o 'arenaplan: region [^"]*' "$d/link.log" | head -n 1 || true)
    [ -n "$why" ] || why=$(grep -o "region \`[A-Z_]*' overflowed by [0-9]* bytes" "$d/link.log" |
      grep -v '`CODE' | head -n 1 || true)
    [ -z "$why" ] || die 3 "does not fit: ${why#arenaplan: } (log $d/link.log)"
  fi
  if [ $link -eq 1 ] && [ -n "$const_tried" ]; then
    why=$(grep -o "region \`CONST' overflowed by [0-9]* bytes" "$d/link.log" | head -n 1 || true)
    # ld's overflow plus the memory's length: the bytes .model_const needs.
    [ -z "$why" ] ||
      die 3 "does not fit: the model's constants need $((BOARD_CONST_LENGTH + $(echo "$why" | tr -dc 0-9))) bytes, more than the board's CONST memory, $((BOARD_CONST_LENGTH)) bytes at $BOARD_CONST_ORIGIN ($why; log $d/link.log)"
    die 3 "does not fit: the code exceeds the board's $((BOARD_CODE_LENGTH)) bytes of code memory even with the model's constants in CONST ($(grep -o 'overflowed by [0-9]* bytes' "$d/link.log" | head -n 1 || true); log $d/link.log)"
  elif [ $link -eq 1 ]; then
    die 3 "does not fit: the code and constants exceed the board's $((BOARD_CODE_LENGTH)) bytes of code memory ($(grep -o 'overflowed by [0-9]* bytes' "$d/link.log" | head -n 1 || true); log $d/link.log)"
  elif [ $link -ne 0 ]; then
    why=$(grep -o 'arenaplan: the arena needs [^"]*' "$d/link.log" | head -n 1 || true)
    [ -n "$why" ] || why=$(grep -o 'arenaplan: [^"]*' "$d/link.log" | head -n 1 || true)
    die 3 "does not fit: ${why#arenaplan: }${why:+ }(log $d/link.log)"
  fi
  # The reset handler's indirect call was bounded at 0 bytes: no static
  # constructor may run.
  init=$("${ARM_NM:-arm-none-eabi-nm}" "$d/run.elf" |
    awk '$3 == "__init_array_start" { s = $1 } $3 == "__init_array_end" { e = $1 }
      END { print (s == e ? "" : "x") }')
  [ -z "$init" ] ||
    die 1 "the image has static constructors, which the stack bound does not cover ($d/run.elf)"
  qemu_args=()
  [ "$icount" = 1 ] && qemu_args=(-icount shift=0)
  status=0
  fw_qemu "$d/run.elf" "$d/run.log" "${qemu_args[@]}" || status=$?
  if [ $status -ne 0 ]; then
    sed 's/^/  | /' "$d/run.log" | tail -n 5 >&2
    die 1 "the firmware exited with status $status (log $d/run.log)"
  fi
  perl -ne 'if (/^output ([0-9a-f]*)$/) { print pack("H*", $1); }' "$d/run.log" \
    > "$d/board.out.bin"
  got=$(wc -c < "$d/board.out.bin")
  [ "$got" -eq "$output_bytes" ] ||
    die 1 "the firmware printed $got output bytes, not $output_bytes (log $d/run.log)"
  # The painted stack against the bound (docs/stack.md); peak RAM: every
  # byte the image places in the board's RAM (.data, .bss, .arena, a
  # region ram) plus the stack used from its top.
  read -r peak total bound reserved floor < <(sed -n \
    's/^stack peak=\([0-9]*\) total=\([0-9]*\) bound=\([0-9]*\) reserved=\([0-9]*\) floor=\([0-9]*\)$/\1 \2 \3 \4 \5/p' \
    "$d/run.log") || die 1 "the firmware printed no stack line (log $d/run.log)"
  ram=$("${ARM_SIZE:-arm-none-eabi-size}" -A "$d/run.elf" | awk -v lo=$((BOARD_RAM_ORIGIN)) \
    -v hi=$((BOARD_RAM_ORIGIN + BOARD_RAM_LENGTH)) '$3 >= lo && $3 < hi { s += $2 } END { print s + 0 }')
  echo "$peak $bound $total $reserved $ram $((ram + total))" > "$d/stack.txt"
  [ "$total" -lt "$reserved" ] ||
    die 1 "FAILED: the stack reached its reserved limit ($reserved bytes; log $d/run.log)"
  # A peak at or below the measure's floor (run/firmware.cpp) only says
  # that Invoke() used at most that many bytes: no contradiction with a
  # smaller bound (a model of a few element-wise operators: bound 0).
  [ "$peak" -le "$bound" ] || [ "$peak" -le "$floor" ] ||
    die 1 "FAILED: Invoke()'s measured peak stack, $peak bytes, exceeds its bound kStackBytes = $bound (log $d/run.log)"
  # A profiled image's total may wrap: its steps are counted one by one.
  if [ "$icount" = 1 ] && [ $# -eq 0 ] && grep -q ' wrapped=1$' "$d/run.log"; then
    die 1 "the inference took more than the SysTick counter's 2^24 ticks (about $(perl -ne \
      'printf "%d", 16777216 * 2000001 / $1 if / calibration=(\d+)/' "$d/run.log") instructions): its instruction count is not measured; PROFILE=1 counts each operator (log $d/run.log)"
  fi
  if [ "$icount" = 1 ]; then
    # ticks of the inference x instructions per tick of the calibration loop
    # (2 x 1000000 + 1 instructions, run/firmware.cpp).
    perl -ne 'if (/_(?:cycles|ticks)=(\d+) calibration=(\d+)/) {
        printf "%d\n", $1 * 2000001 / $2 + 0.5; }' "$d/run.log" > "$d/instructions.txt"
  fi
}
fw_port "$out/port/$board" || die 1 "the port does not build for $board"
input_bin=$b/input.bin
if [ -n "$regions" ]; then
  regions_ld "$b/ld" port/cortex_m.ld || exit $?
  fw_ldflags=("${fw_ldflags[@]/#port\/cortex_m.ld/$b/ld/regions.ld}")
fi
board_image "$b" "${RUN_ICOUNT:-}"
[ -z "$host_failed" ] || die 1 "$host_failed"
if ! cmp -s "$b/host.out.bin" "$b/board.out.bin"; then
  die 1 "FAILED: the board's output differs from the host's ($(cmp "$b/host.out.bin" "$b/board.out.bin" | head -n 1 || true); $b/host.out.bin, $b/board.out.bin)"
fi

if [ -n "$profile" ]; then
  # The same image with every step marked (ARENAPLAN_PROFILE), always
  # under -icount; its output must be the host's too.
  board_image "$b-profile" 1 -DARENAPLAN_PROFILE
  cmp -s "$b/host.out.bin" "$b-profile/board.out.bin" ||
    die 1 "FAILED: the profiled image's output differs from the host's ($b-profile/board.out.bin)"
  unprofiled=""
  [ "${RUN_ICOUNT:-}" = 1 ] && unprofiled=$(cat "$b/instructions.txt")
  run/profile_table.pl "$b-profile/run.log" "$unprofiled" "$b/profile.json" ||
    die 1 "the profile's steps do not add up to the unprofiled inference within 1 % (log $b-profile/run.log)"
fi

if [ -n "$mix" ]; then
  # The same image once more, every executed block logged (no -icount:
  # the log is the count); run/instruction_mix.pl classifies the
  # inference's instructions. With RUN_ICOUNT=1 its total must equal the
  # counter's figure within 0.1 % (two methods of counting one inference).
  TARGET_TIMEOUT=${TARGET_TIMEOUT:-900} fw_qemu "$b/run.elf" "$b/mix.run.log" -d in_asm,exec,nochain -D "$b/mix.trace" ||
    die 1 "the firmware failed under the block log (log $b/mix.run.log)"
  mix_line=$(run/instruction_mix.pl "${ARM_OBJDUMP:-arm-none-eabi-objdump}" "$b/run.elf" \
    "$b/mix.trace") || die 1 "no instruction mix (log $b/mix.trace)"
  rm -f "$b/mix.trace"
  echo "$mix_line" > "$b/mix.txt"
  echo "$what: $mix_line"
  if [ "${RUN_ICOUNT:-}" = 1 ]; then
    counted=$(sed -n 's/^mix instructions=\([0-9]*\) .*/\1/p' "$b/mix.txt")
    counter=$(cat "$b/instructions.txt")
    diff=$((counted > counter ? counted - counter : counter - counted))
    [ $((diff * 1000)) -le "$counter" ] ||
      die 1 "the block log counts $counted instructions, the counter $counter: more than 0.1 % apart"
  fi
fi

[ -z "$output" ] || cp "$b/board.out.bin" "$output"
read -r peak bound total reserved ram peak_ram < "$b/stack.txt"
const_note=""
if [ -s "$b/const.txt" ]; then
  read -r const_bytes const_at < "$b/const.txt"
  const_note="; constants $const_bytes bytes in CONST at $const_at"
fi
echo "$what: arena $arena bytes, output $output_bytes bytes, sha256 $(sha256sum < "$b/board.out.bin" | cut -d' ' -f1); peak stack $peak bytes (bound $bound), peak RAM $peak_ram bytes ($ram static + $total stack)$const_note"
