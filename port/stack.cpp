// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The stack's low-water mark by painting (port.hpp): PaintStack() fills the
// unused stack with a pattern, StackLowWater() finds the lowest word that
// lost it. The words are accessed through volatile pointers so that the
// compiler neither turns the loops into calls (memset would write its own
// frame into the painted words) nor drops them.
#include <cstdint>

#include "port/port.hpp"

extern "C" {
// Linker-script symbols (port/cortex_m.ld): addresses only.
extern std::uint32_t __stack_top[];
extern std::uint32_t __stack_limit[];
}

namespace arenaplan::port {

std::uint32_t StackTop() {
  return static_cast<std::uint32_t>(
      reinterpret_cast<std::uintptr_t>(__stack_top));
}

std::uint32_t StackLimit() {
  return static_cast<std::uint32_t>(
      reinterpret_cast<std::uintptr_t>(__stack_limit));
}

void PaintStack() {
  const std::uint32_t sp = StackPointer();
  for (std::uint32_t at = StackLimit(); at < sp; at += 4) {
    *reinterpret_cast<volatile std::uint32_t*>(at) = kStackPaint;
  }
}

std::uint32_t StackLowWater() {
  const std::uint32_t top = StackTop();
  std::uint32_t at = StackLimit();
  while (at < top &&
         *reinterpret_cast<volatile const std::uint32_t*>(at) == kStackPaint) {
    at += 4;
  }
  return at;
}

}  // namespace arenaplan::port
