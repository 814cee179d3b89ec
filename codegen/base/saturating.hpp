// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// Unsigned 64-bit arithmetic that stops at the largest value instead of
// wrapping: costs and work counts that may exceed 2^64 on hostile inputs
// compare as "too much" rather than as a small number.
#ifndef ARENAPLAN_CODEGEN_BASE_SATURATING_HPP_
#define ARENAPLAN_CODEGEN_BASE_SATURATING_HPP_

#include <cstdint>
#include <limits>

namespace arenaplan {

/// a + b, or the largest std::uint64_t when that would overflow.
[[nodiscard]] constexpr std::uint64_t SaturatingAdd(std::uint64_t a,
                                                    std::uint64_t b) {
  constexpr std::uint64_t kMax = std::numeric_limits<std::uint64_t>::max();
  return a > kMax - b ? kMax : a + b;
}

/// a * b, or the largest std::uint64_t when that would overflow.
[[nodiscard]] constexpr std::uint64_t SaturatingMul(std::uint64_t a,
                                                    std::uint64_t b) {
  constexpr std::uint64_t kMax = std::numeric_limits<std::uint64_t>::max();
  return a != 0 && b > kMax / a ? kMax : a * b;
}

}  // namespace arenaplan

#endif  // ARENAPLAN_CODEGEN_BASE_SATURATING_HPP_
