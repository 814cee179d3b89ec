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
// Complexity: O(n log n + sum_t min((k_t + 1) log n, P_t)), k_t the number
// of placed records intersecting t and P_t the number placed before it (see
// offset_gaps.hpp), instead of Alg. 3's O(n^2) with a sort per record. On
// network-shaped inputs k_t is small (25 ms at 10^5 tensors). On dense
// inputs k_t = Theta(n): the gaps L.10-18 compare are those of the union of
// all intersecting records, their number alone grows linearly with n (about
// 1 % of n fit the record being placed), and the smallest gap >= size does
// not combine over parts of the time axis, so we know no index that keeps
// Alg. 3's plans below Theta(n^2) there. So the placement work is capped
// (common/work_cap.hpp): Alg. 3 exactly until 2^24 + 16 n bit_width(n)
// placed records have been examined, then offset_gaps' bounded rule, which
// makes the whole O(n log n) on any input (docs/strategies.md: dense random
// 10^5 tensors in under 1 s, 10^6 in under 15 s, one core). No shared model
// or MiniMalloc instance comes near the cap.
//
// With allowed overlaps (OffsetsGreedyBySizeOverlap): each record placed
// by GapPlacer's overlap rule when a partner of it is already placed
// (offset_gaps.hpp, docs/overlap.md), in four orders, the smallest arena
// kept (the first on ties): Alg. 3's; Alg. 3's with equal sizes taken
// latest first (outputs before the inputs they overwrite, so chains of
// equal tensors stack upward from 0); and each of those with every record
// followed at once by its overlap cluster (offset_gaps::ClusterOrder), so
// that a large tensor's partners are placed against it before unrelated
// tensors take their room. Without pairs only the first runs.
#include <vector>

#include "codegen/strategies/common/offset_gaps.hpp"
#include "codegen/strategies/strategy.hpp"

namespace arenaplan {

OffsetsAssignment OffsetsGreedyBySize(
    std::span<const TensorUsageRecord> records) {
  offset_gaps::GapPlacer placer(records);
  for (std::size_t i : offset_gaps::OrderBySizeDescending(records)) {
    placer.Place(i);
  }
  return std::move(placer).Take();
}

OffsetsAssignment OffsetsGreedyBySizeOverlap(
    std::span<const TensorUsageRecord> records,
    std::span<const OverlapPair> overlaps) {
  if (overlaps.empty()) return OffsetsGreedyBySize(records);
  const std::vector<std::size_t> by_size =
      offset_gaps::OrderBySizeDescending(records);
  const std::vector<std::size_t> latest =
      offset_gaps::OrderBySizeDescendingLatestFirst(records);
  const std::vector<std::size_t> orders[] = {
      by_size, latest,
      offset_gaps::ClusterOrder(by_size, records.size(), overlaps),
      offset_gaps::ClusterOrder(latest, records.size(), overlaps)};
  return offset_gaps::BestOfOrders(records, overlaps, orders);
}

}  // namespace arenaplan
