// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The deterministic pseudo-random integers the kernel and compile tests
// draw their cases from: a 64-bit linear congruential generator (Knuth's
// MMIX constants) whose high 31 bits pick a value, so a seed gives the same
// cases on every machine.
#ifndef ARENAPLAN_TESTS_HOST_SUPPORT_LCG_HPP_
#define ARENAPLAN_TESTS_HOST_SUPPORT_LCG_HPP_

#include <cstdint>

namespace arenaplan::testing_util {

/// Deterministic pseudo-random integers (64-bit LCG, high bits).
class Lcg {
 public:
  explicit Lcg(std::uint64_t seed) : s_(seed) {}
  /// A value in [lo, hi], both ends included (hi >= lo).
  std::int32_t Next(std::int32_t lo, std::int32_t hi) {
    s_ = s_ * 6364136223846793005ull + 1442695040888963407ull;
    return lo + static_cast<std::int32_t>(
                    (s_ >> 33) % static_cast<std::uint64_t>(hi - lo + 1));
  }
  /// A value in [-128, 127].
  std::int8_t Byte() { return static_cast<std::int8_t>(Next(-128, 127)); }

 private:
  std::uint64_t s_;
};

}  // namespace arenaplan::testing_util

#endif  // ARENAPLAN_TESTS_HOST_SUPPORT_LCG_HPP_
