#!/usr/bin/env bash
# `make test-run-args`: when `make run` builds an object again
# (scripts/firmware_lib.sh's fw_stale). From the repository root:
#   tests/run/stale_check.sh
# Each case sets up an object, its dependency list (.d, as the compiler's
# -MMD writes it) and its flags file with chosen modification times, and
# states by hand whether the object must be built again.
set -uo pipefail
# shellcheck source=scripts/firmware_lib.sh
. scripts/firmware_lib.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
# expect NAME WANT(stale|fresh) TARGET FLAG...
expect() {
  local name=$1 want=$2 got=fresh
  shift 2
  fw_stale "$@" && got=stale
  if [ "$got" = "$want" ]; then
    echo "run stale: $name: PASS"
  else
    echo "run stale: $name: FAIL (fw_stale says $got, expected $want)"
    fail=1
  fi
}
# setup: a.cpp and b.hpp older than a.o; a.o.d lists both, over two lines.
setup() {
  rm -rf "$tmp/w" && mkdir -p "$tmp/w/inc"
  touch -d '2026-01-01 00:00:00' "$tmp/w/a.cpp" "$tmp/w/inc/b.hpp"
  touch -d '2026-01-02 00:00:00' "$tmp/w/a.o"
  printf '%s: %s \\\n %s\n' "$tmp/w/a.o" "$tmp/w/a.cpp" "$tmp/w/inc/b.hpp" >"$tmp/w/a.o.d"
  printf '%s\n' g++ -Os -DX >"$tmp/w/a.o.flags"
}
setup
expect "object newer than every dependency, same flags" fresh "$tmp/w/a.o" g++ -Os -DX
expect "other optimisation level" stale "$tmp/w/a.o" g++ -O2 -DX
expect "one flag more" stale "$tmp/w/a.o" g++ -Os -DX -DARENAPLAN_PROFILE
touch -d '2026-01-03 00:00:00' "$tmp/w/inc/b.hpp"
expect "header on the second line edited since" stale "$tmp/w/a.o" g++ -Os -DX
setup
rm "$tmp/w/inc/b.hpp"
expect "a dependency gone" stale "$tmp/w/a.o" g++ -Os -DX
setup
rm "$tmp/w/a.o.d"
expect "no dependency list" stale "$tmp/w/a.o" g++ -Os -DX
setup
rm "$tmp/w/a.o.flags"
expect "no flags file" stale "$tmp/w/a.o" g++ -Os -DX
setup
rm "$tmp/w/a.o"
expect "no object" stale "$tmp/w/a.o" g++ -Os -DX
exit $fail
