// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// Greedy by Size for Offset Calculation (Pisarchyk & Lee 2019, §5.2,
// Alg. 3). Records are taken in non-increasing order of size (L.1); each is
// put into the smallest gap, between already placed records whose usage
// intervals intersect its own, that can hold it (L.9-17), else on top of the
// highest of those records (L.19-20).
//
// Tie-breaks (deterministic):
// - equal sizes: input order (stable sort);
// - equal gaps: the lowest one (Alg. 3's strict "gap < smallest_gap").
//
// Complexity: O(n log n + sum_t (k_t + 1) log n), k_t the number of placed
// records intersecting t (see offset_gaps.hpp), instead of Alg. 3's O(n^2).
#include "codegen/strategies/common/offset_gaps.hpp"
#include "codegen/strategy.hpp"

namespace arenaplan {

OffsetsAssignment OffsetsGreedyBySize(
    std::span<const TensorUsageRecord> records) {
  offset_gaps::GapPlacer placer(records);
  for (std::size_t i : offset_gaps::OrderBySizeDescending(records)) {
    placer.Place(i);
  }
  return std::move(placer).Take();
}

}  // namespace arenaplan
