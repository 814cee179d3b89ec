#!/usr/bin/env bash
# TensorFlow Lite Micro's SEANet integration suite (int16 activations,
# tensorflow/lite/micro/integration_tests/seanet/ of a TFLM checkout; the
# models and CSVs are read from it, never copied into the repository):
#   run/seanet.sh SEANET_DIR [BOARD...]
# SEANET_DIR is the seanet directory or the checkout's root. For each
# SUBDIR/NAME.tflite, NAME_input<K>_<TYPE>.csv (K = 0, 1, ... the graph
# inputs in order; TYPE int16 or int32) become one input file (the inputs'
# little-endian bytes concatenated) and NAME_golden_<TYPE>.csv the expected
# output; then run/corpus.sh compiles each model (default plan), runs it
# on the host against the golden bytes and, with BOARDs, on each board
# under QEMU (run/reference.sh). Each output is compared with the golden
# one element by element: PASS when equal byte for byte, or when no
# element differs by more than 1 (the tolerance of TFLM's own test of
# these models, EXPECT_NEAR(golden, output, 1); the line then counts the
# elements that differ by 1 on each target). Prints one line per model:
#   seanet NAME: PASS|FAIL (where and why)
# and a summary with the number equal byte for byte; exit 1 when any model fails (a model compile refuses is a
# failure here), 2 on bad usage. Work directory: RUN_OUT/seanet (default
# build/run/seanet). Environment as run/corpus.sh's (ARENAPLAN_CLI,
# HOST_CXX, TARGET_TIMEOUT, RUN_SEANET_MODELS="NAME ..." for a subset;
# RUN_OVERLAP=1 / RUN_FUSE=1 plan with --overlap / --fuse, whose outputs
# run/corpus.sh keeps apart: corpus-overlap[-fuse], best-overlap[-fuse]).
set -uo pipefail
if [ $# -lt 1 ] || [ -z "$1" ]; then
  echo "usage: run/seanet.sh SEANET_DIR [BOARD...]" >&2
  exit 2
fi
dir=$1
shift
[ -d "$dir/tensorflow/lite/micro/integration_tests/seanet" ] &&
  dir=$dir/tensorflow/lite/micro/integration_tests/seanet
if ! ls "$dir"/*/*.tflite >/dev/null 2>&1; then
  echo "run/seanet.sh: no SUBDIR/*.tflite under $dir (expected TFLM's integration_tests/seanet)" >&2
  exit 2
fi
top=${RUN_OUT:-build/run}
work=$top/seanet
# run/corpus.sh's names for the plan's variant (it checks the values).
variant=""
case ${RUN_OVERLAP:-} in 1) variant="-overlap" ;; esac
case ${RUN_FUSE:-} in 1) variant="$variant-fuse" ;; esac
rm -rf "$work/models" "$work/ref"
mkdir -p "$work/models" "$work/ref"

# CSV of integers -> little-endian int16 or int32 bytes.
csv_bytes() {  # TYPE CSV
  perl -e '
    my ($type, $file) = @ARGV; open(my $f, "<", $file) or die "$file: $!\n";
    local $/; my @v = grep { length } split /[,\s]+/, <$f>;
    for (@v) { /^-?\d+$/ or die "$file: not an integer: $_\n" }
    my %fmt = (int16 => "s<*", int32 => "l<*", int8 => "c*");
    exists $fmt{$type} or die "$file: type $type\n";
    binmode STDOUT; print pack($fmt{$type}, @v);
  ' "$1" "$2"
}

only=" ${RUN_SEANET_MODELS:-} "
names=()
for model in "$dir"/*/*.tflite; do
  name=$(basename "$model" .tflite)
  case $only in "  " | *" $name "*) ;; *) continue ;; esac
  sub=$(dirname "$model")
  names+=("$name")
  ln -s "$(cd "$sub" && pwd)/$name.tflite" "$work/models/$name.tflite"
  mkdir -p "$work/ref/$name"
  k=0 ok=1
  : >"$work/ref/$name/golden.in.bin"
  while :; do
    csv=$(ls "$sub/${name}_input${k}_"*.csv 2>/dev/null | head -n 1)
    [ -n "$csv" ] || break
    type=${csv##*_} type=${type%.csv}
    csv_bytes "$type" "$csv" >>"$work/ref/$name/golden.in.bin" || ok=0
    k=$((k + 1))
  done
  golden=$(ls "$sub/${name}_golden_"*.csv 2>/dev/null | head -n 1)
  if [ $k -eq 0 ] || [ -z "$golden" ] || [ $ok -eq 0 ]; then
    echo "run/seanet.sh: $name: missing or bad input/golden CSVs in $sub" >&2
    exit 2
  fi
  type=${golden##*_} type=${type%.csv}
  csv_bytes "$type" "$golden" >"$work/ref/$name/golden.out.bin" || exit 2
done

log=$work/corpus.log
# No output of an earlier run may be judged.
rm -rf "$work/corpus$variant"
rm -f "$work"/*/*/best"$variant"/board.out.bin
RUN_OUT=$work ARENAPLAN_CLI=${ARENAPLAN_CLI:-build/arenaplan} \
  run/corpus.sh "$work/models" "$work/ref" "$@" >"$log" 2>&1

# Compares output GOT with the golden bytes as TYPE elements: prints
# "exact", "near N" (N elements differ by 1, none by more: the tolerance of
# TFLM's own integration test, EXPECT_NEAR(golden, output, 1)) or why not.
judge() {  # GOT GOLDEN TYPE
  [ -s "$1" ] || { echo "no output"; return; }
  perl -e '
    my ($g, $e, $t) = @ARGV; my $fmt = $t eq "int32" ? "l<*" : "s<*";
    local $/; open(my $a, "<:raw", $g) or die; open(my $b, "<:raw", $e) or die;
    my @g = unpack($fmt, <$a>); my @e = unpack($fmt, <$b>);
    if (@g != @e) { print scalar(@g) . " elements, golden " . scalar(@e); exit; }
    my ($one, $far, $first) = (0, 0, -1);
    for my $i (0 .. $#g) {
      my $d = abs($g[$i] - $e[$i]);
      if ($d == 1) { $one++; } elsif ($d > 1) { $far++; $first = $i if $first < 0; }
    }
    if ($far) { print "$far of " . scalar(@g) . " elements differ by more than 1, first at $first: $g[$first] vs golden $e[$first]"; }
    elsif ($one) { print "near $one"; } else { print "exact"; }
  ' "$1" "$2" "$3"
}

pass=0 fail=0 exact=0
for name in "${names[@]}"; do
  type=$(ls "$dir"/*/"${name}_golden_"*.csv | head -n 1)
  type=${type##*_} type=${type%.csv}
  golden=$work/ref/$name/golden.out.bin
  line=$(grep -m 1 "^corpus $name: " "$log" | sed "s/^corpus $name: //")
  why="" near=""
  case $line in
    REFUSED* | "") why="host: ${line:-no result}" ;;
    *)
      j=$(judge "$work/corpus$variant/$name/got.bin" "$golden" "$type")
      case $j in
        exact) ;;
        near*) near="host: ${j#near } elements differ by 1" ;;
        *) why="host: $j" ;;
      esac
      ;;
  esac
  for board in "$@"; do
    j=$(judge "$work/$name/$board/best$variant/board.out.bin" "$golden" "$type")
    case $j in
      exact) ;;
      near*) near="$near${near:+; }$board: ${j#near } elements differ by 1" ;;
      "no output")
        b=$(grep -m 1 "^reference $name/golden $board: " "$log" |
          sed "s|^reference $name/golden $board: ||")
        why="$why${why:+; }$board: ${b:-not run}" ;;
      *) why="$why${why:+; }$board: $j" ;;
    esac
  done
  if [ -n "$why" ]; then
    echo "seanet $name: FAIL ($why)"
    fail=$((fail + 1))
  elif [ -n "$near" ]; then
    echo "seanet $name: PASS (within 1 of the golden CSV, TFLM's own tolerance: $near)"
    pass=$((pass + 1))
  else
    echo "seanet $name: PASS (equal to the golden CSV on the host${*:+ and $*})"
    pass=$((pass + 1)) exact=$((exact + 1))
  fi
done
echo "seanet: $pass PASS ($exact byte for byte), $fail FAIL of ${#names[@]} models (targets: host${*:+ $*}; log $log)"
[ $fail -eq 0 ]
