// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// Greedy in execution order for Offset Calculation: the prior work "Greedy"
// (Lee et al. 2019, TFLite GPU) of the paper's Table 2.
//
// Which algorithm that row is: the figures of Table 2 are not the
// contiguous layout of the Shared Objects "Greedy" of Table 1 (MobileNet v1
// 6.125 MB vs 4.594 MB; BlazeFace 0.492 MB vs 0.587 MB), so the row is an
// offset allocator of its own. We read it as the arena allocator TensorFlow
// Lite used before adopting the paper's strategies: tensors are allocated
// when execution reaches their first operator and released after their last;
// each allocation goes into the smallest gap between the allocations alive
// at that moment that can hold it, else on top of the highest of them. That
// is Alg. 3's gap search (L.7-23) with the records taken in order of
// first_op instead of size: a record x placed earlier has
// first_op_x <= first_op_t, so x intersects t exactly when x is still alive
// at first_op_t, i.e. the "placed and intersecting" records of Alg. 3 are the
// live allocations. Releasing happens implicitly (dead records no longer
// intersect anything that starts later).
//
// Tie-breaks (deterministic): records with equal first_op in input order;
// equal gaps: the lowest one.
//
// Complexity: as greedy-by-size (offset_gaps.hpp).
#include <algorithm>
#include <numeric>

#include "codegen/strategies/offset_gaps.hpp"
#include "codegen/strategy.hpp"

namespace arenaplan {

OffsetsAssignment OffsetsGreedyInOrder(
    std::span<const TensorUsageRecord> records) {
  std::vector<std::size_t> order(records.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) {
                     return records[a].first_op < records[b].first_op;
                   });
  offset_gaps::GapPlacer placer(records);
  for (std::size_t i : order) placer.Place(i);
  return std::move(placer).Take();
}

}  // namespace arenaplan
