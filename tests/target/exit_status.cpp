// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// Negative control for the runner: main() returns 7, and mk/target.mk
// expects QEMU's exit status to be exactly 7. Proves a failing firmware
// status reaches `make`.
#include "port/port.hpp"

int main() {
  arenaplan::port::Write("exit_status: returning 7\n");
  return 7;
}
