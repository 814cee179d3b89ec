#!/usr/bin/env bash
# `make regions-table`: the README's table of plans across memory regions
# (docs/regions.md). For person_detect, vww_96_int8 and kws_ref_model with
# a 32 KiB fast region (dtcm) and a 1 MiB slow one (ram) on mps3-an547,
# without and with --overlap: the one-region arena; per assignment mode
# (greedy, exact) the bytes and the traffic of each region; the traffic
# the naive split (largest tensors to the slow region until the rest fits)
# sends to the slow region; then one QEMU run
# with one region and one with the greedy split, whose outputs must be
# equal. From the repository root: scripts/regions_table.sh SHARED_DIR
set -euo pipefail
shared=$1
cli=${ARENAPLAN_CLI:-build/arenaplan}
board=mps3-an547
split="dtcm:32768 ram:1048576"
out=${RUN_OUT:-build/run}/regions-table
mkdir -p "$out"
args=()
for r in $split; do args+=(--region "$r"); done

echo "| model | one region (bytes) | mode | dtcm bytes / traffic | ram bytes / traffic | naive split: ram traffic | cost proven minimal |"
echo "|---|---:|---|---:|---:|---:|---|"
for m in person_detect vww_96_int8 kws_ref_model; do
  model=$shared/models/$m.tflite
  # Without and with allowed overlaps (--overlap: a pair only inside one
  # region; the one-region figure is then the plan with overlap).
  for ovl in "" --overlap; do
    one=$("$cli" plan "$model" $ovl --json 2>/dev/null | jq .arena_bytes)
    for mode in greedy exact; do
      f=$out/$m.$mode${ovl:+.overlap}.json
      "$cli" plan "$model" "${args[@]}" $ovl --region-search "$mode" --json 2>/dev/null > "$f"
      jq -r --arg m "$m" --arg one "$one" --arg mode "$mode${ovl:+, overlap}" '
        "| \($m) | \($one) | \($mode) | \(.regions[0].bytes) / \(.regions[0].traffic_bytes) | \(.regions[1].bytes) / \(.regions[1].traffic_bytes) | \(.regions[1].naive_split_traffic_bytes) | \(.cost_optimal) |"' \
        "$f"
    done
  done
done
echo
for m in person_detect vww_96_int8; do
  model=$shared/models/$m.tflite
  input=""
  [ "$m" = vww_96_int8 ] && input=$shared/reference/vww_96_int8/rand1.in.bin
  a=$(run/run.sh "$model" "$board" "$input" "$out/$m.one.bin" best | sed 's/.*: //')
  b=$(RUN_REGIONS="$split" run/run.sh "$model" "$board" "$input" "$out/$m.split.bin" best | sed 's/.*: //')
  same=no
  cmp -s "$out/$m.one.bin" "$out/$m.split.bin" && same=yes
  echo "$m on $board: one region: $a; split ($split): $b; outputs equal: $same"
done
