// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// Smoke test of the port on one board: the reset handler copied .data and
// zeroed .bss, static constructors ran, the stack is where the linker
// script put it, floating point works (on the FPU where the board has one),
// the cycle source moves, and semihosting prints and exits 0.
#include <cstdint>

#include "port/port.hpp"
#include "tests/target/check.hpp"

extern "C" std::uint32_t __stack_top[];
extern "C" std::uint32_t __stack_limit[];
extern "C" std::uint32_t __bss_start[];
extern "C" std::uint32_t __bss_end[];

namespace {

// Initialised data (copied from CODE by the reset handler) and zeroed data.
volatile std::uint32_t data_word = 0x12345678u;
volatile std::uint32_t bss_words[16];

struct Constructed {
  Constructed() : value(data_word + 1) {}
  std::uint32_t value;
};
Constructed constructed;  // dynamic initialisation: needs .init_array

// Kept out of line and fed through volatile so the compiler cannot fold
// the arithmetic: 1.5 * 2.25 + 0.625 = 4.0 exactly in binary floating point.
__attribute__((noinline)) float MultiplyAdd(float a, float b, float c) {
  return a * b + c;
}

}  // namespace

int main() {
  arenaplan::port::Write("smoke: hello from " ARENAPLAN_BOARD "\n");
  CHECK(data_word == 0x12345678u);
  for (const volatile std::uint32_t& w : bss_words) CHECK(w == 0);
  CHECK(constructed.value == 0x12345679u);

  // The stack pointer lies inside [__stack_limit, __stack_top).
  std::uint32_t local = 0;
  const auto sp = reinterpret_cast<std::uintptr_t>(&local);
  CHECK(sp < reinterpret_cast<std::uintptr_t>(__stack_top));
  CHECK(sp >= reinterpret_cast<std::uintptr_t>(__stack_limit));
  CHECK(reinterpret_cast<std::uintptr_t>(__bss_end) <=
        reinterpret_cast<std::uintptr_t>(__stack_limit));

  volatile float a = 1.5f, b = 2.25f, c = 0.625f;
  CHECK(MultiplyAdd(a, b, c) == 4.0f);

  const std::uint32_t t0 = arenaplan::port::CycleCount();
  for (volatile int i = 0; i < 100000; i = i + 1) {
  }
  const std::uint32_t t1 = arenaplan::port::CycleCount();
  arenaplan::port::Write(arenaplan::port::HasCycleCounter()
                             ? "smoke: DWT CYCCNT delta "
                             : "smoke: SysTick delta ");
  const std::uint32_t delta = arenaplan::port::CycleDelta(t0, t1);
  arenaplan::port::WriteUnsigned(delta);
  arenaplan::port::Write("\n");
  CHECK(delta != 0);
  return arenaplan::target::Finish("smoke");
}
