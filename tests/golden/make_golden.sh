#!/usr/bin/env bash
# Writes tests/golden/plans.txt: the SHA-256 of every output arenaplan makes
# from every input in ../shared, one line a case:
#   SHA256 OUTPUT_FILE ARGS...
# ARGS run in a scratch directory holding `shared` (a link to ../shared), so
# no absolute path reaches an output. golden_plans_test runs each line again
# and compares (a model source without its line naming the kernel headers'
# digest, which changes with every header). Regenerate only when a change
# of output is intended, and say why in the commit.
#   usage: tests/golden/make_golden.sh BUILD/arenaplan SHARED_DIR > tests/golden/plans.txt
set -euo pipefail
bin=$(realpath "$1")
shared=$(realpath "$2")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
ln -s "$shared" "$work/shared"
cd "$work"

cases() {
  # Every registered heuristic of each approach, in registry order.
  local offsets objects
  offsets=$("$bin" strategies --approach offsets --heuristics)
  objects=$("$bin" strategies --approach shared-objects --heuristics)
  local csvs models
  csvs=$(cd shared && ls benchmarks/minimalloc-challenging/*.csv)
  models=$(cd shared && ls models/*.tflite)
  for in in $csvs $models; do
    local extra=""
    case $in in *.tflite) extra="--assume-dim 1" ;; esac
    for s in $offsets; do
      echo "plan.csv plan shared/$in $extra --strategy $s --out plan.csv"
    done
    for s in $objects; do
      echo "plan.csv plan shared/$in $extra --approach shared-objects --strategy $s --out plan.csv"
    done
  done
  for in in $models; do
    local extra="--assume-dim 1"
    echo "plan.hpp plan shared/$in $extra --header plan.hpp --namespace golden"
    echo "plan.svg plan shared/$in $extra --svg plan.svg"
    echo "records.csv records shared/$in $extra --out records.csv"
    echo "planned.tflite tflm shared/$in $extra --out planned.tflite"
    echo "shim.h tflm shared/$in $extra --out planned.tflite --shim shim.h"
    for f in golden_arena.hpp golden_model.hpp golden_model.cpp; do
      echo "$f compile shared/$in $extra --out-dir . --namespace golden"
    done
  done
}

cases | while read -r file args; do
  rm -f ./*.csv ./*.hpp ./*.svg ./*.tflite ./*.h ./*.cpp
  # shellcheck disable=SC2086
  if "$bin" $args >/dev/null 2>&1 && [ -f "$file" ]; then
    # A model source without the line naming the kernel headers' digest
    # (headers_digest_test checks that line).
    case $file in
      *.cpp) sum=$(grep -v 'k::HeadersDigestIs(' "$file" | sha256sum | cut -d' ' -f1) ;;
      *) sum=$(sha256sum <"$file" | cut -d' ' -f1) ;;
    esac
    echo "$sum $file $args"
  else
    echo "refused $file $args"
  fi
done
