#!/usr/bin/env bash
# The installed package used from outside the tree (`make test-package`,
# docs/integration.md):
#   tests/package/check.sh BUILD SHARED
# from the repository root, after BUILD holds the built CLI. Installs BUILD
# to a prefix, moves the prefix (the package must be relocatable), copies
# examples/firmware to a work directory and builds it from clean build
# directories with only the prefix on CMAKE_PREFIX_PATH:
#   host      kws_ref_model's sample, again with --overlap, then ad01_int8's
#             copied over the same model file (a changed model or option
#             must rerun `arenaplan compile`, an unchanged build must not):
#             TFLM's output bytes each time
#   board     vww_96_int8's rand1 on mps2-an386 under QEMU: TFLM's bytes, and
#             SMLAD in the image (the board's -mcpu selected the DSP kernels);
#             then person_detect copied over the same model file, on the
#             board and on the host: the same bytes; tflm_id_model (corpus)
#             on mps3-an547 with CONST_MEMORY: TFLM's bytes, its constants
#             in the QSPI flash
#   make      host.mk through share/arenaplan/arenaplan.mk: kws_ref_model's
#             sample, again with --overlap (only then recompiled): TFLM's bytes
#   generate  tests/package/generate: arenaplan_generate()'s header for
#             kws_ref_model, its arena below the sum of its tensors; with
#             --strategy naive (the options changed: planned again) equal
# Work files in BUILD/package-test (removed first). Exit 0 when every check
# passes; each prints one PASS or FAIL line.
set -euo pipefail
if [ $# -ne 2 ]; then
  echo "usage: tests/package/check.sh BUILD SHARED" >&2
  exit 2
fi
build=$1 shared=$2
root=$(pwd)
work=$(realpath -m "$build/package-test")
ref=$shared/reference
models=$shared/models
rm -rf "$work"
mkdir -p "$work"
failed=0
log=$work/log.txt
: > "$log"

pass() { echo "package: $1: PASS"; }
fail() {
  echo "package: $1: FAIL ($2; log $log)"
  failed=1
}
# Runs a command with its output appended to the log.
quiet() { "$@" >>"$log" 2>&1; }
# The bytes of the `output <hex>` line of FILE.
output_bytes() { perl -ne 'if (/^output ([0-9a-f]*)$/) { print pack("H*", $1); }' "$1"; }

# --- install, then move the prefix -----------------------------------------
quiet cmake --install "$build" --prefix "$work/installed"
mv "$work/installed" "$work/prefix"
prefix=$work/prefix
if grep -rqF "$work/installed" "$prefix/share" ||
    grep -rqF "$root" "$prefix/share"; then
  fail "relocatable" "a file under share/ names the install path or the source tree"
else
  pass "relocatable (no path of the source tree or the install path in share/)"
fi

cp -r examples/firmware "$work/src"
launcher=()
if command -v ccache >/dev/null; then
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
# configure DIR MODEL INPUT [CMAKE_ARG...]
configure() {
  local dir=$1 model=$2 input=$3
  shift 3
  quiet cmake -S "$work/src" -B "$work/$dir" -DCMAKE_PREFIX_PATH="$prefix" \
    -DMODEL="$model" -DINPUT="$input" "${launcher[@]}" "$@"
}
# build DIR: builds, its output in DIR.build.log.
build() { cmake --build "$work/$1" -j2 >"$work/$1.build.log" 2>&1; }
compiled() { grep -q 'arenaplan: compiling' "$work/$1.build.log"; }
# run DIR OUT: runs the example (target run) and writes its output bytes to OUT.
run() {
  cmake --build "$work/$1" --target run >"$work/$1.run.log" 2>&1 || return 1
  output_bytes "$work/$1.run.log" >"$2"
  [ -s "$2" ]
}
# check NAME DIR EXPECTED [compiled|unchanged]
check() {
  local name=$1 dir=$2 expected=$3 want=${4:-} got
  got=$work/$dir.out.bin
  if ! build "$dir"; then
    cat "$work/$dir.build.log" >>"$log"
    fail "$name" "the build failed"
    return
  fi
  if [ "$want" = compiled ] && ! compiled "$dir"; then
    fail "$name" "the model changed but arenaplan compile did not rerun"
  elif [ "$want" = unchanged ] && compiled "$dir"; then
    fail "$name" "nothing changed but arenaplan compile reran"
  elif ! run "$dir" "$got"; then
    cat "$work/$dir.run.log" >>"$log"
    fail "$name" "the run failed"
  elif ! cmp -s "$got" "$expected"; then
    fail "$name" "output $(od -An -tx1 "$got" | tr -d ' \n' | head -c 40) is not $expected's"
  else
    pass "$name ($(wc -c <"$got") bytes equal to $(basename "$(dirname "$expected")")/$(basename "$expected"))"
  fi
}

# --- host ---------------------------------------------------------------------
cp "$models/kws_ref_model.tflite" "$work/model.tflite"
cp "$ref/kws_ref_model/sample.in.bin" "$work/input.bin"
configure host "$work/model.tflite" "$work/input.bin" ||
  fail "configure host" "cmake failed"
check "host kws_ref_model sample = TFLM" host "$ref/kws_ref_model/sample.out.bin" compiled
check "host unchanged: no recompile" host "$ref/kws_ref_model/sample.out.bin" unchanged
configure host "$work/model.tflite" "$work/input.bin" -DCOMPILE_OPTIONS=--overlap ||
  fail "configure host --overlap" "cmake failed"
check "host options changed (--overlap): recompiled, = TFLM" host \
  "$ref/kws_ref_model/sample.out.bin" compiled
cp "$models/ad01_int8.tflite" "$work/model.tflite"
cp "$ref/ad01_int8/sample.in.bin" "$work/input.bin"
check "host model file changed to ad01_int8: recompiled, = TFLM" host \
  "$ref/ad01_int8/sample.out.bin" compiled

# --- board: mps2-an386 under QEMU ---------------------------------------------
cp "$models/vww_96_int8.tflite" "$work/fw_model.tflite"
cp "$ref/vww_96_int8/rand1.in.bin" "$work/fw_input.bin"
configure board "$work/fw_model.tflite" "$work/fw_input.bin" \
  --toolchain "$work/src/arm-none-eabi.cmake" -DBOARD=mps2-an386 ||
  fail "configure board" "cmake failed"
check "mps2-an386 vww_96_int8 rand1 = TFLM" board "$ref/vww_96_int8/rand1.out.bin" compiled
# The kernels' DSP paths follow the target's -mcpu (cortex-m4: SMLAD).
smlad=$(arm-none-eabi-objdump -d "$work/board/example.elf" 2>>"$log" | grep -c $'\tsmlad' || true)
if [ "$smlad" -gt 0 ]; then
  pass "mps2-an386 image uses the DSP kernels ($smlad SMLAD instructions)"
else
  fail "mps2-an386 DSP kernels" "no SMLAD instruction in example.elf"
fi

# person_detect (int8 [1,96,96,1]): the first 9216 bytes of vww's rand2.
cp "$models/person_detect.tflite" "$work/fw_model.tflite"
head -c 9216 "$ref/vww_96_int8/rand2.in.bin" >"$work/fw_input.bin"
cp "$models/person_detect.tflite" "$work/model.tflite"
cp "$work/fw_input.bin" "$work/input.bin"
if build host && run host "$work/pd_host.out.bin"; then
  check "mps2-an386 person_detect (model file changed) = host" board \
    "$work/pd_host.out.bin" compiled
else
  fail "host person_detect" "the host build or run failed"
fi

# --- board: mps3-an547 with CONST_MEMORY ---------------------------------------
# tflm_id_model (corpus): its code and constants exceed the 512 KiB ITCM;
# arenaplan_firmware(... CONST_MEMORY) puts the constants in the QSPI flash.
cid=$shared/corpus-reference/tflm_id_model
configure board547 "$shared/corpus/tflm_id_model.tflite" "$cid/seed201.in.bin" \
  --toolchain "$work/src/arm-none-eabi.cmake" -DBOARD=mps3-an547 -DCONST_MEMORY=ON ||
  fail "configure mps3-an547 CONST_MEMORY" "cmake failed"
check "mps3-an547 tflm_id_model seed201, CONST_MEMORY = TFLM" board547 \
  "$cid/seed201.out.bin" compiled
at=$(arm-none-eabi-size -A "$work/board547/example.elf" 2>>"$log" |
  awk '$1 == ".model_const" { print $3 }')
if [ -n "$at" ] && [ "$at" -ge $((0x28000000)) ] && [ "$at" -lt $((0x28800000)) ]; then
  pass "mps3-an547 CONST_MEMORY: .model_const at $(printf '0x%08x' "$at") (QSPI flash)"
else
  fail "mps3-an547 CONST_MEMORY" "no .model_const section in the QSPI flash"
fi

# --- make: share/arenaplan/arenaplan.mk ---------------------------------------
# make_check NAME FLAGS compiled|unchanged
make_check() {
  local name=$1 flags=$2 want=$3 reran=unchanged
  if ! make -C "$work/src" -f host.mk ARENAPLAN_PREFIX="$prefix" OUT="$work/make" \
      MODEL="$models/kws_ref_model.tflite" INPUT="$ref/kws_ref_model/sample.in.bin" \
      ARENAPLAN_COMPILE_FLAGS="$flags" >"$work/make.log" 2>&1 ||
      ! "$work/make/example" >"$work/make.run.log"; then
    cat "$work/make.log" >>"$log"
    fail "$name" "the build or run failed"
    return
  fi
  output_bytes "$work/make.run.log" >"$work/make.out.bin"
  grep -q 'bin/arenaplan compile ' "$work/make.log" && reran=compiled
  if [ $reran != "$want" ]; then
    fail "$name" "arenaplan compile: $reran, expected $want"
  elif ! cmp -s "$work/make.out.bin" "$ref/kws_ref_model/sample.out.bin"; then
    fail "$name" "the output differs from TFLM's"
  else
    pass "$name ($reran; $(wc -c <"$work/make.out.bin") bytes equal to kws_ref_model/sample.out.bin)"
  fi
}
make_check "make kws_ref_model sample = TFLM" "" compiled
make_check "make unchanged: no recompile" "" unchanged
make_check "make options changed (--overlap): recompiled, = TFLM" --overlap compiled

# --- arenaplan_generate(): tests/package/generate -------------------------------
cp -r tests/package/generate "$work/generate-src"
# plan_check PLAN_OPTIONS planned|unchanged: prints `arena A sum S`.
plan_check() {
  local options=$1 want=$2 reran=unchanged
  if ! quiet cmake -S "$work/generate-src" -B "$work/generate" \
      -DCMAKE_PREFIX_PATH="$prefix" -DMODEL="$models/kws_ref_model.tflite" \
      -DPLAN_OPTIONS="$options" "${launcher[@]}" || ! build generate ||
      ! "$work/generate/plan_check" >"$work/generate.run.log"; then
    echo "plan_check: the configuration, build or run failed" >&2
    return 1
  fi
  grep -q 'arenaplan: planning' "$work/generate.build.log" && reran=planned
  [ $reran = "$want" ] || { echo "arenaplan plan: $reran, expected $want" >&2; return 1; }
  cat "$work/generate.run.log"
}
# generate_check NAME PLAN_OPTIONS planned|unchanged below|equal: the arena
# below or equal to the sum of the tensors' sizes.
generate_check() {
  local name=$1 got arena sum
  if ! got=$(plan_check "$2" "$3" 2>>"$log"); then
    fail "$name" "see the log"
  elif ! [[ $got =~ ^arena\ ([0-9]+)\ sum\ ([0-9]+)$ ]]; then
    fail "$name" "printed '$got'"
  else
    arena=${BASH_REMATCH[1]} sum=${BASH_REMATCH[2]}
    if { [ "$4" = below ] && [ "$arena" -lt "$sum" ]; } ||
        { [ "$4" = equal ] && [ "$arena" -eq "$sum" ]; }; then
      pass "$name ($3; arena $arena, sum of the tensors $sum)"
    else
      fail "$name" "arena $arena, sum of the tensors $sum"
    fi
  fi
}
generate_check "generate kws_ref_model: arena < sum of tensors" "" planned below
generate_check "generate unchanged: not planned again" "" unchanged below
generate_check "generate options changed (--strategy naive): arena = sum" \
  "--strategy;naive" planned equal

exit $failed
