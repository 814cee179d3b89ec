#!/usr/bin/env bash
# `make test-run-args`: values of `make run` variables are data, never code
# (issue 27, findings 1 and 6). From the repository root:
#   tests/run/args_check.sh SHARED_DIR
#  1. For MODEL, INPUT, OUTPUT, BOARD, STRATEGY and REGIONS, each given a
#     value holding a '$', a quote, a backquote, a space or a newline that
#     would run a command (it creates a marker file), on make's command line
#     and in the environment: make exits 2 with one line naming the
#     variable, no marker file appears and nothing is built.
#  2. OUTPUT naming a directory: exit 2, nothing written into it.
#  3. REGIONS with '*': refused naming '*', not expanded into file names.
#  4. run/run.sh called directly with a model whose file name holds '$(...)',
#     a backquote and a quote runs that file, and runs nothing else.
set -uo pipefail
shared=$1
cli=${ARENAPLAN_CLI:-build/arenaplan}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
pass() { echo "run args: $1: PASS"; }
failed() { echo "run args: $1: FAIL${2:+ ($2)}"; fail=1; }
marker=$tmp/marker

payloads=(
  "x\"; touch $marker; echo \""
  "\`touch $marker\`.tflite"
  "\$(shell touch $marker)"
  "x\$(touch $marker).tflite"
  "a\$b.tflite"
  "a b.tflite"
  $'a\nb.tflite'
  "x'; touch $marker; echo '"
)
cases=0
for var in MODEL INPUT OUTPUT BOARD STRATEGY REGIONS; do
  for p in "${payloads[@]}"; do
    # A list of regions takes spaces between its words.
    [ $var = REGIONS ] && [ "$p" = "a b.tflite" ] && continue
    for how in command environment; do
      cases=$((cases + 1))
      status=0
      if [ $how = command ]; then
        make --no-print-directory run ARENAPLAN_PREBUILT=1 MODEL=none.tflite \
          "$var=$p" >"$tmp/out" 2>"$tmp/err" || status=$?
      else
        env "$var=$p" make --no-print-directory run ARENAPLAN_PREBUILT=1 \
          >"$tmp/out" 2>"$tmp/err" || status=$?
      fi
      lines=$(wc -l <"$tmp/err")
      if [ -e "$marker" ] || [ $status -ne 2 ] || [ "$lines" -ne 1 ] ||
          ! grep -q "$var: the value holds a character" "$tmp/err" ||
          [ -s "$tmp/out" ]; then
        failed "$var=$(printf '%q' "$p") ($how)" \
          "exit $status, marker $([ -e "$marker" ] && echo created || echo absent), $(head -c 200 "$tmp/err" | tr '\n' ' ')"
        rm -f "$marker"
        continue 3
      fi
    done
  done
done
[ $fail -ne 0 ] || pass "$cases values refused with exit 2, none ran"

model=$shared/models/kws_ref_model.tflite
mkdir -p "$tmp/outdir"
status=0
make --no-print-directory run ARENAPLAN_PREBUILT=1 "MODEL=$model" \
  "OUTPUT=$tmp/outdir" >"$tmp/out" 2>"$tmp/err" || status=$?
if [ $status -eq 2 ] && [ -z "$(ls -A "$tmp/outdir")" ] &&
    grep -q "is a directory" "$tmp/err"; then
  pass "OUTPUT=<a directory> refused (exit 2), nothing written"
else
  failed "OUTPUT=<a directory>" "exit $status, $(ls -A "$tmp/outdir" | head -n 3 | tr '\n' ' ')$(tail -n 1 "$tmp/err")"
fi

status=0
make --no-print-directory run ARENAPLAN_PREBUILT=1 "MODEL=$model" \
  "REGIONS=ram:1048576 *" >"$tmp/out" 2>"$tmp/err" || status=$?
status_sh=0
RUN_REGIONS="ram:1048576 *" ARENAPLAN_CLI=$cli RUN_OUT=$tmp/run run/run.sh \
  "$model" mps2-an386 "" "" best >"$tmp/out2" 2>"$tmp/err2" || status_sh=$?
if [ $status -eq 2 ] && [ $status_sh -eq 2 ] &&
    grep -q "REGIONS '\*'" "$tmp/err2" && ! grep -q "CMakeLists" "$tmp/err2"; then
  pass "REGIONS with '*' refused (make and run.sh, exit 2), not glob-expanded"
else
  failed "REGIONS with '*'" "make exit $status, run.sh exit $status_sh: $(head -n 1 "$tmp/err2")"
fi

# A file name that would run commands in an unquoted or double-quoted
# command line: run.sh takes it as a name (one inference, exit 0).
# The commands would run in the current directory: the marker is a
# relative name there.
rel_marker=args_check_marker.$$
odd="$tmp/k\$(touch $rel_marker)\`touch $rel_marker\`'\".tflite"
cp "$model" "$odd"
status=0
ARENAPLAN_CLI=$cli RUN_OUT=$tmp/run run/run.sh "$odd" mps2-an386 "" \
  "$tmp/odd.out.bin" best >"$tmp/out" 2>"$tmp/err" || status=$?
if [ $status -eq 0 ] && [ ! -e "$rel_marker" ] && [ -s "$tmp/odd.out.bin" ]; then
  pass "run.sh runs a model named with \$(...), a backquote and quotes as a name"
else
  failed "run.sh, a model named with \$(...)" "exit $status, marker $([ -e "$rel_marker" ] && echo created || echo absent); $(tail -n 1 "$tmp/err")"
  rm -f "$rel_marker"
fi
exit $fail
