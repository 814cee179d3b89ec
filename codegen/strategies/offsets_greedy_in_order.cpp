// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// Greedy in execution order for Offset Calculation: the prior work "Greedy"
// (Lee et al. 2019, TFLite GPU) of the paper's Table 2.
//
// Which algorithm that row is. In TFLite GPU's public sources
// (tensorflow/lite/delegates/gpu/common/memory_management*), offsets for any
// strategy other than GREEDY_BY_SIZE are obtained by laying the Shared
// Objects assignment out contiguously, and the in-order Shared Objects greedy
// takes free objects from a pool by size. Table 2's figures are not that
// layout of Table 1's "Greedy" row, though: MobileNet v1 6.125 MB (Table 2)
// vs 4.594 MB (Table 1), BlazeFace 0.492 MB vs 0.587 MB; a contiguous layout
// of objects occupies exactly the sum of their sizes. So the Table 2 row is
// an offset allocator of its own. We implement the in-order best-fit arena
// that TensorFlow Lite's CPU interpreter used before adopting the paper's
// strategies (SimpleMemoryArena): tensors are allocated as execution reaches
// their first operator; each goes into the smallest gap between the
// allocations alive at that moment that can hold it, else on top of the
// highest of them. That is Alg. 3's gap search (L.7-23) with the records
// taken in order of first_op instead of size: a record x placed earlier has
// first_op_x <= first_op_t, so x intersects t exactly when x is still alive
// at first_op_t, i.e. Alg. 3's "placed and intersecting" records are the
// live allocations, and releasing happens implicitly. On a growing chain it
// loses to Greedy by Size the way Table 2 shows for MobileNet v1 (see
// tests/host/offsets_strategies_test.cpp).
//
// Tie-breaks (deterministic): records with equal first_op in input order;
// equal gaps: the lowest one.
//
// Complexity: as greedy-by-size (offset_gaps.hpp).
#include <algorithm>
#include <numeric>

#include "codegen/strategies/common/offset_gaps.hpp"
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
