#!/usr/bin/env bash
# Runs every reference input of every model on the host and on each BOARD
# (run/run.sh, default plan) and compares every output with TensorFlow Lite
# Micro's, byte for byte:
#   run/reference.sh REFERENCE_DIR MODELS_DIR BOARD...
# REFERENCE_DIR/MODEL/NAME.in.bin is an input of MODELS_DIR/MODEL.tflite and
# NAME.out.bin (or NAME.out0.bin, NAME.out1.bin, ... in output order) TFLM's
# output for it (see REFERENCE_DIR/README.md). Prints one line per model x
# input on the host and per model x input x board:
#   reference MODEL/NAME TARGET: PASS|FAIL|SKIP [(why)]
# SKIP: the model does not fit the board (run.sh exit 3), with the reason.
# A board line gives the wall time of its run/run.sh (generating, building
# the firmware and the host program, both runs), e.g. "PASS (41.2 s)".
# A board line also gives Invoke()'s painted peak stack and its bound
# kStackBytes, "stack P of bound B bytes (+X %)" (run.sh fails the run
# when P > B), and the last line the widest bound over its peak.
# Exit 1 when any line is FAIL. With RUN_ICOUNT_BOARD=B, the runs on board
# B use QEMU's -icount and their lines give the instructions per inference.
# With RUN_OVERLAP=1 the boards run the --overlap plan (run/run.sh).
set -uo pipefail
if [ $# -lt 3 ]; then
  echo "usage: run/reference.sh REFERENCE_DIR MODELS_DIR BOARD..." >&2
  exit 2
fi
ref=$1 models=$2
shift 2
boards=("$@")
out=${RUN_OUT:-build/run}

# Compares FILE with the reference EXPECTED: prints "" when equal, else why.
differs() {  # GOT EXPECTED
  perl -e '
    local $/; open(my $g, "<:raw", $ARGV[0]) or die; open(my $e, "<:raw", $ARGV[1]) or die;
    my @g = unpack("c*", <$g>); my @e = unpack("c*", <$e>);
    if (@g != @e) { print scalar(@g) . " bytes, TFLM " . scalar(@e); exit; }
    my ($n, $first) = (0, -1);
    for my $i (0 .. $#g) { if ($g[$i] != $e[$i]) { $n++; $first = $i if $first < 0; } }
    print "$n of " . scalar(@g) . " bytes differ, first at byte $first: $g[$first] vs TFLM $e[$first]" if $n;
  ' "$1" "$2"
}

pass=0 fail=0 skip=0
slack=""  # the widest stack bound over its measure: "PERCENT|RUN"
report() {  # WHAT RESULT [WHY]
  echo "reference $1: $2${3:+ ($3)}"
  case $2 in PASS) pass=$((pass + 1)) ;; FAIL) fail=$((fail + 1)) ;; *) skip=$((skip + 1)) ;; esac
}

for dir in "$ref"/*/; do
  name=$(basename "$dir")
  model="$models/$name.tflite"
  if [ ! -f "$model" ]; then
    report "$name" FAIL "no model $model"
    continue
  fi
  for in in "$dir"*.in.bin; do
    [ -f "$in" ] || continue
    case_name=${in%.in.bin}
    expected="$out/$name/expected.$(basename "$case_name").bin"
    mkdir -p "$out/$name"
    if [ -f "$case_name.out.bin" ]; then
      cp "$case_name.out.bin" "$expected"
    else
      cat "$case_name".out[0-9]*.bin > "$expected" 2>/dev/null || true
    fi
    what="$name/$(basename "$case_name")"
    host_done=0
    for board in "${boards[@]}"; do
      icount=""
      [ "$board" = "${RUN_ICOUNT_BOARD:-}" ] && icount=1
      log="$out/$name/run.$board.log"
      status=0
      started=$(date +%s.%N)
      RUN_ICOUNT=$icount run/run.sh "$model" "$board" "$in" "" best >"$log" 2>&1 || status=$?
      took=$(awk -v a="$started" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f s", b - a }')
      b="$out/$name/$board/best"
      case ${RUN_OVERLAP:-} in 1) b="$b-overlap" ;; esac
      case ${RUN_FUSE:-} in 1) b="$b-fuse" ;; esac
      said=$(sed -n 's/^run [^:]*: //p' "$log" | tail -n 1)
      if [ $host_done -eq 0 ]; then
        # The host run (naive plan) does not depend on the board: once.
        if [ -f "$b/host.out.bin" ]; then
          why=$(differs "$b/host.out.bin" "$expected")
          if [ -z "$why" ]; then report "$what host" PASS; else report "$what host" FAIL "$why"; fi
        else
          report "$what host" FAIL "no host output: $said"
        fi
        host_done=1
      fi
      if [ $status -eq 3 ]; then
        report "$what $board" SKIP "$said"
        continue
      fi
      # Any other failure of run.sh fails the line, even with an output
      # (the stack check runs after the output is written).
      if [ $status -ne 0 ] || [ ! -s "$b/board.out.bin" ]; then
        report "$what $board" FAIL "$said; $took"
        continue
      fi
      # The board's verdict is its output against TFLM's, whether or not
      # the host's agreed (the host line above says that).
      why=$(differs "$b/board.out.bin" "$expected")
      extra="$took"
      # run.sh has failed the run when the painted stack exceeds the bound;
      # the line says how close the bound is (stack.txt: peak, bound, ...).
      if [ -s "$b/stack.txt" ]; then
        read -r peak bound _ < "$b/stack.txt"
        extra="$extra; stack $peak of bound $bound bytes$(awk -v p="$peak" -v b="$bound" \
          'BEGIN { if (p > 0) printf " (+%.1f %%)", 100 * (b - p) / p }')"
        slack=$(awk -v p="$peak" -v b="$bound" -v w="$slack" -v m="$what $board" \
          'BEGIN { s = p > 0 ? 100 * (b - p) / p : 0; split(w, o, "|");
            if (w == "" || s > o[1] + 0) printf "%.1f|%s", s, m; else print w }')
      fi
      if [ -n "$icount" ] && [ -s "$b/instructions.txt" ]; then
        extra="$extra; $(cat "$b/instructions.txt") instructions"
      fi
      if [ -n "$why" ]; then
        report "$what $board" FAIL "$why; $extra"
      else
        report "$what $board" PASS "$extra"
      fi
    done
  done
done
echo "reference: $pass PASS, $fail FAIL, $skip SKIP"
[ -z "$slack" ] ||
  echo "reference: the widest stack bound is +${slack%%|*} % over the painted peak (${slack#*|})"
[ $fail -eq 0 ]
