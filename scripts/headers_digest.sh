#!/usr/bin/env bash
# The digest of the firmware headers the generated code is compiled against
# (docs/compile.md, "Generated code and its headers"):
#   scripts/headers_digest.sh          prints it
#   scripts/headers_digest.sh --write  writes it into
#                                      kernels/include/arenaplan/kernels/headers_digest.hpp
# from the repository root. The digest is the SHA-256 of a manifest: for
# every file under core/include and kernels/include but headers_digest.hpp,
# in byte order of their paths, the path and the SHA-256 of its bytes, each
# on a line of its own. headers_digest_test computes it again in C++.
set -euo pipefail
digest_file=kernels/include/arenaplan/kernels/headers_digest.hpp
[ -f "$digest_file" ] || { echo "headers_digest.sh: run from the repository root" >&2; exit 2; }
digest=$(find core/include kernels/include -type f ! -path "$digest_file" |
  LC_ALL=C sort | while IFS= read -r f; do
    printf '%s\n%s\n' "$f" "$(sha256sum <"$f" | cut -d' ' -f1)"
  done | sha256sum | cut -d' ' -f1)
case ${1:-} in
  "") echo "$digest" ;;
  --write)
    tmp=$(mktemp "$digest_file.XXXXXX")
    # The literal's line, the only one of four spaces and a quoted hex string.
    sed "s/^    \"[0-9a-f]*\";\$/    \"$digest\";/" "$digest_file" >"$tmp"
    chmod 644 "$tmp"
    mv "$tmp" "$digest_file"
    echo "$digest" ;;
  *) echo "usage: scripts/headers_digest.sh [--write]" >&2; exit 2 ;;
esac
