// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// Small random Offset Calculation instances shared by the solver tests
// (exact_test, exact_search_test, portfolio_test): network-like shapes, and
// "staircases" whose optimum often exceeds max breadth.
#ifndef ARENAPLAN_TESTS_HOST_SUPPORT_SOLVER_INSTANCES_HPP_
#define ARENAPLAN_TESTS_HOST_SUPPORT_SOLVER_INSTANCES_HPP_

#include <cstddef>
#include <cstdint>
#include <random>
#include <utility>
#include <vector>

#include "codegen/records.hpp"
#include "tests/host/support/sanitizers.hpp"

namespace arenaplan::testing {

/// Random-instance counts are divided by this under AddressSanitizer,
/// where every node and the brute force cost five to ten times more;
/// Release builds run the full counts.
inline constexpr int kScale = ARENAPLAN_TEST_ASAN ? 6 : 1;

/// Random instances of the shapes networks produce: chains (each tensor
/// lives from its producer to its consumer), residual blocks (a long-lived
/// skip tensor across a chain) and arbitrary intervals. Sizes are multiples
/// of `align`.
inline std::vector<TensorUsageRecord> RandomInstance(std::mt19937_64& rng,
                                                     std::size_t max_tensors,
                                                     std::uint64_t align) {
  const std::size_t n = 1 + rng() % max_tensors;
  const std::uint32_t ops = 2 + static_cast<std::uint32_t>(rng() % 10);
  auto size = [&] { return align * (1 + rng() % 8); };
  std::vector<TensorUsageRecord> r;
  switch (rng() % 3) {
    case 0:  // chain, with occasional branches
      for (std::size_t i = 0; i < n; ++i) {
        const std::uint32_t first =
            static_cast<std::uint32_t>(i / (1 + rng() % 2));
        r.push_back(
            {first, first + 1 + static_cast<std::uint32_t>(rng() % 2), size()});
      }
      break;
    case 1:  // residual: chain plus skip tensors
      for (std::size_t i = 0; i < n; ++i) {
        const std::uint32_t first = static_cast<std::uint32_t>(i);
        const std::uint32_t span = rng() % 4 == 0 ? 3 + rng() % 4 : 1;
        r.push_back({first, first + span, size()});
      }
      break;
    default:  // arbitrary intervals
      for (std::size_t i = 0; i < n; ++i) {
        std::uint32_t a = static_cast<std::uint32_t>(rng() % ops);
        std::uint32_t b = static_cast<std::uint32_t>(rng() % ops);
        if (a > b) std::swap(a, b);
        r.push_back({a, b, size()});
      }
      break;
  }
  return r;
}

/// A "staircase": three tensors with overlapping three-operator lifetimes
/// [k, k+2] (k = 0, 1, 2) and, at each of the five operators, a one-operator
/// filler that raises the breadth there to the same level (the largest
/// breadth of the three, plus 0 to 2 units of slack). With no room to spare
/// anywhere, each operator's tensors must tile the arena with at most one
/// hole, and about half of these instances need more than their max breadth
/// (the brute force decides which). Sizes are multiples of `align`.
inline std::vector<TensorUsageRecord> StaircaseInstance(std::mt19937_64& rng,
                                                        std::uint64_t align) {
  std::vector<TensorUsageRecord> r;
  for (std::uint32_t k = 0; k < 3; ++k) {
    r.push_back({k, k + 2, align * (1 + rng() % 8)});
  }
  // The three cover operators 0..4, so every operator lies in a segment.
  const ProfileSummary profile = SummarizeProfiles(r);
  const std::uint64_t level =
      profile.offsets_lower_bound + align * (rng() % 4 / 2);
  for (std::size_t s = 0; s < profile.segment_breadth.size(); ++s) {
    const std::uint64_t breadth = profile.segment_breadth[s];
    for (std::uint32_t op = profile.segment_first_op[s];
         op <= profile.segment_last_op[s] && breadth < level; ++op) {
      r.push_back({op, op, level - breadth});
    }
  }
  return r;
}

}  // namespace arenaplan::testing

#endif  // ARENAPLAN_TESTS_HOST_SUPPORT_SOLVER_INSTANCES_HPP_
