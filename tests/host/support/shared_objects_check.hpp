// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// What the Shared Objects strategies' tests check on any assignment, knowing
// nothing of how it was made: every tensor in an object large enough, no
// two tensors alive together in one object; and the total of the objects.
#ifndef ARENAPLAN_TESTS_HOST_SUPPORT_SHARED_OBJECTS_CHECK_HPP_
#define ARENAPLAN_TESTS_HOST_SUPPORT_SHARED_OBJECTS_CHECK_HPP_

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <span>
#include <string>
#include <vector>

#include "codegen/records.hpp"
#include "codegen/strategies/strategies.hpp"
#include "codegen/strategies/strategy.hpp"

namespace arenaplan::shared_objects_check {

using Records = std::vector<TensorUsageRecord>;
using Strategy =
    SharedObjectsAssignment (*)(std::span<const TensorUsageRecord>);

struct Named {
  const char* name;
  Strategy fn;
};
/// The paper's and the prior work's strategies, whose plans the tests derive
/// by hand (shared_objects_strategies_test's Registered() adds naive and any
/// later one for the soundness checks).
inline constexpr Named kAll[] = {
    {"greedy-by-size-improved", &SharedObjectsGreedyBySizeImproved},
    {"greedy-by-size", &SharedObjectsGreedyBySize},
    {"greedy-by-breadth", &SharedObjectsGreedyByBreadth},
    {"greedy-in-order", &SharedObjectsGreedyInOrder},
    {"min-cost-flow", &SharedObjectsMinCostFlow},
};

inline bool Overlap(const TensorUsageRecord& a, const TensorUsageRecord& b) {
  return std::max(a.first_op, b.first_op) <= std::min(a.last_op, b.last_op);
}

/// Empty string when `a` is a valid Shared Objects assignment of `r`.
inline std::string Check(const Records& r, const SharedObjectsAssignment& a) {
  if (a.object_of.size() != r.size()) return "object_of has the wrong size";
  for (std::size_t i = 0; i < r.size(); ++i) {
    if (a.object_of[i] >= a.object_sizes.size()) {
      return "tensor " + std::to_string(i) + " has no object";
    }
    if (a.object_sizes[a.object_of[i]] < r[i].size) {
      return "object of tensor " + std::to_string(i) + " too small";
    }
    for (std::size_t j = i + 1; j < r.size(); ++j) {
      if (a.object_of[i] == a.object_of[j] && Overlap(r[i], r[j])) {
        return "tensors " + std::to_string(i) + " and " + std::to_string(j) +
               " share an object";
      }
    }
  }
  return "";
}

inline std::uint64_t Footprint(const SharedObjectsAssignment& a) {
  return std::accumulate(a.object_sizes.begin(), a.object_sizes.end(),
                         std::uint64_t{0});
}

}  // namespace arenaplan::shared_objects_check

#endif  // ARENAPLAN_TESTS_HOST_SUPPORT_SHARED_OBJECTS_CHECK_HPP_
