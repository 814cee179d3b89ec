// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// port/port.hpp on the host, for firmware test sources built as host
// programs (tests/target/kernels_property.cpp): console output to stdout,
// Exit through std::exit, no cycle counter.
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "port/port.hpp"

namespace arenaplan::port {

void Write(const char* text) { std::fputs(text, stdout); }

void WriteUnsigned(std::uint32_t value) {
  std::printf("%lu", static_cast<unsigned long>(value));
}

void WriteHex(std::uint32_t value) {
  std::printf("0x%08lx", static_cast<unsigned long>(value));
}

void Exit(int status) {
  std::fflush(stdout);
  std::exit(status);
}

bool HasCycleCounter() { return false; }

std::uint32_t CycleCount() { return 0; }

std::uint32_t CycleDelta(std::uint32_t start, std::uint32_t end) {
  return end - start;
}

}  // namespace arenaplan::port
