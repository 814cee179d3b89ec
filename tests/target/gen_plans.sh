#!/usr/bin/env bash
# Generates one firmware header per (input, strategy) with the arenaplan CLI
# and lists them for tests/target/select_plans.sh.
#   gen_plans.sh CLI OUT_DIR INPUT...
# For every strategy `CLI strategies --approach A` lists (A = offsets,
# shared-objects) and
# every INPUT, writes OUT_DIR/<input>__<approach>__<strategy>.hpp in
# namespace ap_<input>_<approach>_<strategy>, then OUT_DIR/index.txt with
# one line per header: "HEADER NAMESPACE ARENA_BYTES LABEL". Models
# (.tflite) are planned with --assume-dim 1 (batch 1 for dynamic
# dimensions). Any failure of the CLI fails the script: a plan that cannot
# be generated is a failed test, not a skipped one.
set -euo pipefail
cli=$1 out=$2
shift 2
mkdir -p "$out"

strategies=$(for a in offsets shared-objects; do
  "$cli" strategies --approach "$a" | sed "s/\$/ $a/"
done)
if [ -z "$strategies" ]; then
  echo "gen_plans.sh: '$cli strategies' listed no strategy" >&2
  exit 1
fi

ident() { printf '%s' "$1" | tr -c 'A-Za-z0-9_' '_'; }

index=$(mktemp "$out/index.XXXXXX")
trap 'rm -f "$index"' EXIT
count=0
for input in "$@"; do
  base=$(basename "$input")
  tag=$(ident "${base%.*}")
  extra=()
  case "$input" in *.tflite) extra=(--assume-dim 1) ;; esac
  while read -r name approach; do
    [ -n "$name" ] || continue
    stem="${tag}__$(ident "$approach")__$(ident "$name")"
    ns="ap_${tag}_$(ident "$approach")_$(ident "$name")"
    header="$out/$stem.hpp"
    # Written beside and moved over only when different, so that an
    # unchanged plan keeps its time stamp and firmware is not rebuilt.
    fresh="$out/.$stem.new.hpp"
    if ! "$cli" plan "$input" --strategy "$name" --approach "$approach" \
        "${extra[@]}" --header "$fresh" --namespace "$ns" >/dev/null; then
      echo "gen_plans.sh: $cli plan $input --strategy $name --approach $approach failed" >&2
      rm -f "$fresh"
      exit 1
    fi
    if cmp -s "$fresh" "$header"; then rm -f "$fresh"; else mv "$fresh" "$header"; fi
    arena=$(sed -n 's/.*kArenaSize[^=]*= *[^0-9]*\([0-9][0-9]*\).*/\1/p' "$header" | head -n 1)
    if [ -z "$arena" ]; then
      echo "gen_plans.sh: $header: no kArenaSize" >&2
      exit 1
    fi
    echo "$header $ns $arena ${base%.*}/$approach/$name" >>"$index"
    count=$((count + 1))
  done <<<"$strategies"
done
mv "$index" "$out/index.txt"
trap - EXIT
echo "gen_plans.sh: $count plan headers in $out"
