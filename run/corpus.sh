#!/usr/bin/env bash
# Every model of a corpus that `arenaplan compile` accepts, run on the host
# (and on BOARDs under QEMU) against TensorFlow Lite Micro's reference
# outputs, byte for byte (`make test-corpus`, docs/operators.md):
#   run/corpus.sh CORPUS_DIR REFERENCE_DIR [BOARD...]
# For each CORPUS_DIR/NAME.tflite: compile with the default plan; a model
# compile refuses is reported with compile's one-line reason (REFUSED, not
# a failure). An accepted model is built for the host with run/host.cpp
# (the planned arena, tensors sharing bytes as the plan says, filled with
# 0xA5 first) and every REFERENCE_DIR/NAME/seedS.in.bin is run; the output
# (seedS.out.bin, or seedS.out0.bin, seedS.out1.bin, ... concatenated) must
# be equal byte for byte. With BOARDs, the accepted models' references go
# through run/reference.sh too (run/run.sh on each board: the firmware's
# plan under QEMU, and the host's naive plan), and each NOREF model runs
# once on each board with a zero input (its output must equal the host's).
# Prints one line per model:
#   corpus NAME: PASS|FAIL|REFUSED|NOREF (details)
# a summary, then the boards' lines; exit 1 when any line is FAIL.
# Every board run checks Invoke()'s painted stack against its bound
# (run/run.sh fails the run when it is exceeded; docs/stack.md), and its
# line gives both.
# RUN_ICOUNT_BOARD=B: the runs on board B also give the instructions per
# inference (QEMU -icount, run/run.sh's RUN_ICOUNT).
# RUN_CORPUS_MODELS="NAME ...": only these models of CORPUS_DIR (names
# without .tflite; a name that is not there is an error); empty: all.
# Environment: ARENAPLAN_CLI (default build/arenaplan), RUN_OUT (default
# build/run; the work directory is RUN_OUT/corpus), HOST_CXX (default g++),
# RUN_OVERLAP=1 compiles with --overlap (docs/overlap.md) for the host runs
# and the boards; RUN_FUSE=1 with --fuse (docs/fuse.md).
set -uo pipefail
if [ $# -lt 2 ]; then
  echo "usage: run/corpus.sh CORPUS_DIR REFERENCE_DIR [BOARD...]" >&2
  exit 2
fi
corpus=$1 ref=$2
shift 2
boards=("$@")
cli=${ARENAPLAN_CLI:-build/arenaplan}
out=${RUN_OUT:-build/run}/corpus
host_cxx=${HOST_CXX:-g++}
overlap=()
case ${RUN_OVERLAP:-} in
  1) overlap=(--overlap) out="$out-overlap" ;;
  '' | 0) ;;
  *) echo "RUN_OVERLAP '${RUN_OVERLAP}': expected 1, 0 or nothing" >&2; exit 2 ;;
esac
case ${RUN_FUSE:-} in
  1) overlap+=(--fuse) out="$out-fuse" ;;
  '' | 0) ;;
  *) echo "RUN_FUSE '${RUN_FUSE}': expected 1, 0 or nothing" >&2; exit 2 ;;
esac
for name in ${RUN_CORPUS_MODELS:-}; do
  [ -f "$corpus/$name.tflite" ] || { echo "RUN_CORPUS_MODELS: no model $corpus/$name.tflite" >&2; exit 2; }
done
mkdir -p "$out"
rm -rf "$out/accepted"
mkdir -p "$out/accepted"

pass=0 fail=0 refused=0 noref=0
noref_models=()
only=" ${RUN_CORPUS_MODELS:-} "
for model in "$corpus"/*.tflite; do
  name=$(basename "$model" .tflite)
  case $only in "  " | *" $name "*) ;; *) continue ;; esac
  w="$out/$name"
  mkdir -p "$w"
  if ! "$cli" compile "$model" --out-dir "$w" --namespace model \
      "${overlap[@]}" >"$w/compile.log" 2>&1; then
    echo "corpus $name: REFUSED ($(grep -m 1 -o 'arenaplan: .*' "$w/compile.log" | sed "s|^arenaplan: $model: ||"))"
    refused=$((refused + 1))
    continue
  fi
  arena=$(sed -n 's/.*arena \([0-9]*\) bytes.*/\1/p' "$w/compile.log" | tail -n 1)
  if [ ! -d "$ref/$name" ]; then
    echo "corpus $name: NOREF (compiles, arena $arena bytes; no reference outputs)"
    noref=$((noref + 1))
    noref_models+=("$model")
    continue
  fi
  ln -s "$(cd "$ref/$name" && pwd)" "$out/accepted/$name"
  if ! "$host_cxx" -std=c++17 -O1 -Wall -Wextra -I. -Icore/include \
      -Ikernels/include -I"$w" -DARENAPLAN_NO_ARENA_SECTION -DRUN_HOST_PLANNED \
      run/host.cpp "$w/model_model.cpp" -o "$w/run_host" 2>"$w/host_build.log"; then
    echo "corpus $name: FAIL (the generated code does not build: $(grep -m 1 'error:' "$w/host_build.log"))"
    fail=$((fail + 1))
    continue
  fi
  seeds=0 bad=""
  for in in "$ref/$name"/*.in.bin; do
    [ -f "$in" ] || continue
    case_name=${in%.in.bin}
    if [ -f "$case_name.out.bin" ]; then
      cp "$case_name.out.bin" "$w/expected.bin"
    else
      cat "$case_name".out[0-9]*.bin >"$w/expected.bin"
    fi
    seeds=$((seeds + 1))
    if ! "$w/run_host" "$in" "$w/got.bin" 2>"$w/host.log"; then
      bad="$bad $(basename "$case_name"): $(head -n 1 "$w/host.log");"
    elif ! cmp -s "$w/got.bin" "$w/expected.bin"; then
      bad="$bad $(basename "$case_name"): $(cmp -l "$w/got.bin" "$w/expected.bin" | wc -l) of $(wc -c <"$w/expected.bin") bytes differ;"
    fi
  done
  if [ "$seeds" -eq 0 ]; then
    echo "corpus $name: FAIL (no *.in.bin in $ref/$name)"
    fail=$((fail + 1))
  elif [ -n "$bad" ]; then
    echo "corpus $name: FAIL ($bad)"
    fail=$((fail + 1))
  else
    echo "corpus $name: PASS ($seeds inputs equal to TFLM's bytes on the host, arena $arena bytes)"
    pass=$((pass + 1))
  fi
done
echo "corpus: $pass PASS, $fail FAIL, $refused REFUSED, $noref NOREF"
status=0
[ $fail -eq 0 ] || status=1
if [ ${#boards[@]} -gt 0 ] && [ -n "$(ls "$out/accepted")" ]; then
  RUN_OUT=${RUN_OUT:-build/run} ARENAPLAN_CLI=$cli \
    run/reference.sh "$out/accepted" "$corpus" "${boards[@]}" || status=1
fi
# A model without a reference must still build and run on each board, its
# output equal to the host's (run/run.sh, zero input).
for model in ${boards[@]:+"${noref_models[@]}"}; do
  name=$(basename "$model" .tflite)
  for board in "${boards[@]}"; do
    log="$out/$name/run.$board.log"
    icount=""
    [ "$board" = "${RUN_ICOUNT_BOARD:-}" ] && icount=1
    started=$(date +%s.%N)
    run_status=0
    RUN_OUT=${RUN_OUT:-build/run} ARENAPLAN_CLI=$cli RUN_ICOUNT=$icount \
      run/run.sh "$model" "$board" "" "" best >"$log" 2>&1 || run_status=$?
    took=$(awk -v a="$started" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f s", b - a }')
    said=$(sed -n 's/^run [^:]*: //p' "$log" | tail -n 1)
    case $run_status in
      0)
        b="${RUN_OUT:-build/run}/$name/$board/best"
        case ${RUN_OVERLAP:-} in 1) b="$b-overlap" ;; esac
        case ${RUN_FUSE:-} in 1) b="$b-fuse" ;; esac
        extra=""
        if [ -s "$b/stack.txt" ]; then
          read -r peak bound _ < "$b/stack.txt"
          extra="; stack $peak of bound $bound bytes"
        fi
        if [ -n "$icount" ] && [ -s "$b/instructions.txt" ]; then
          extra="$extra; $(cat "$b/instructions.txt") instructions"
        fi
        echo "corpus $name $board: NOREF RUNS (zero input, output equal to the host's; $took$extra)" ;;
      3) echo "corpus $name $board: SKIP ($said)" ;;
      *)
        echo "corpus $name $board: FAIL ($said; $took)"
        status=1 ;;
    esac
  done
done
exit $status
