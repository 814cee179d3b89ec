#!/usr/bin/env bash
# Installs the Debian packages arenaplan needs, and nothing when they are
# already present. Safe to run on every `make test`.
set -euo pipefail

need=()
have_cmd() { command -v "$1" >/dev/null 2>&1; }
have_pkg() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'; }

for pkg in cmake g++ make libgtest-dev libbenchmark-dev libcli11-dev libgemmlowp-dev \
           libflatbuffers-dev flatbuffers-compiler clang libclang-rt-14-dev \
           gcc-arm-none-eabi libnewlib-arm-none-eabi \
           libstdc++-arm-none-eabi-newlib qemu-system-arm chromium; do
  have_pkg "$pkg" || need+=("$pkg")
done

if ((${#need[@]})); then
  echo "bootstrap: installing ${need[*]}"
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi
