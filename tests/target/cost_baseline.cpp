// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// Zero-cost measurement, baseline side: cost_runtime.cpp's work written by
// hand, without the runtime: one 96-byte array in .arena, "mid" at byte 32
// (10 floats) and "acc" at byte 80 (4 int32), as in core_plan.hpp.
#include <cstddef>
#include <cstdint>

#include "tests/target/check.hpp"

namespace {
alignas(16) [[gnu::section(".arena")]] std::byte raw[96];
}  // namespace

int main() {
  float* const mid = reinterpret_cast<float*>(raw + 32);
  std::int32_t* const acc = reinterpret_cast<std::int32_t*>(raw + 80);
  volatile float seed = 1.5f;
  for (std::size_t j = 0; j < 10; ++j) mid[j] = seed;
  acc[0] = static_cast<std::int32_t>(mid[3] * 2.0f);
  CHECK(acc[0] == 3);
  return arenaplan::target::Finish("cost_baseline");
}
