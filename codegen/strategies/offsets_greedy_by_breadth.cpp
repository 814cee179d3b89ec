// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// Greedy by Breadth for Offset Calculation (Pisarchyk & Lee 2019, §5.3):
// - iterate through the operators in non-increasing order of breadth;
// - for each, iterate through the records of its profile not assigned yet,
//   in non-increasing order of size;
// - give each the offset of Alg. 3's smallest-gap search (L.7-23).
//
// Operators come from SummarizeProfiles(): a segment is a maximal run of
// operators with identical profiles, so visiting segments in order of
// (breadth desc, first operator asc) visits the operators in order of
// (breadth desc, operator index asc); the second and later operators of a
// segment have nothing left to assign and are skipped.
//
// Tie-breaks (deterministic): equal breadths by operator index; equal sizes
// within a profile by input index; equal gaps: the lowest one.
//
// Complexity: the unassigned records of a profile are found through an
// interval index (offset_gaps.hpp) and removed once assigned, so the profile
// enumeration costs O((n + segments) log n) overall; placement as in
// greedy-by-size: output-sensitive, with the same work cap and bounded rule
// (common/work_cap.hpp), so O(n log n) on any input.
//
// With allowed overlaps (OffsetsGreedyByBreadthOverlap): the same order
// (the paper's breadth, pairs not subtracted) and the same with equal
// sizes latest first (see greedy-by-size), and each of those with overlap
// clusters kept together (offset_gaps::ClusterOrder), each record placed
// by GapPlacer's overlap rule when a partner of it is already placed; the
// smallest arena is kept (the first order on ties).
#include <algorithm>
#include <numeric>

#include "codegen/records.hpp"
#include "codegen/strategies/common/offset_gaps.hpp"
#include "codegen/strategies/strategy.hpp"

namespace arenaplan {

namespace {

/// The order §5.3 assigns the records in: operators by non-increasing
/// breadth (earliest first on ties), each one's unassigned records by
/// non-increasing size, equal sizes by input index or, with
/// `latest_first`, by non-increasing first_op and then input index.
std::vector<std::size_t> BreadthOrder(
    std::span<const TensorUsageRecord> records, bool latest_first) {
  const ProfileSummary summary = SummarizeProfiles(records);
  const std::size_t segments = summary.segment_breadth.size();
  std::vector<std::size_t> segment_order(segments);
  std::iota(segment_order.begin(), segment_order.end(), std::size_t{0});
  std::stable_sort(segment_order.begin(), segment_order.end(),
                   [&](std::size_t a, std::size_t b) {
                     return summary.segment_breadth[a] >
                            summary.segment_breadth[b];
                   });

  offset_gaps::IntervalIndex unassigned(records);
  for (std::size_t i = 0; i < records.size(); ++i) unassigned.Activate(i);
  std::vector<std::size_t> order;
  order.reserve(records.size());
  std::vector<std::size_t> profile;
  for (std::size_t s : segment_order) {
    // The profile of operator op: records with first_op <= op <= last_op.
    const std::uint32_t op = summary.segment_first_op[s];
    profile.clear();
    unassigned.Report(op, op, profile);
    std::stable_sort(
        profile.begin(), profile.end(), [&](std::size_t a, std::size_t b) {
          if (records[a].size != records[b].size) {
            return records[a].size > records[b].size;
          }
          if (latest_first && records[a].first_op != records[b].first_op) {
            return records[a].first_op > records[b].first_op;
          }
          return a < b;
        });
    for (std::size_t i : profile) {
      order.push_back(i);
      unassigned.Deactivate(i);
    }
  }
  return order;
}

}  // namespace

OffsetsAssignment OffsetsGreedyByBreadth(
    std::span<const TensorUsageRecord> records) {
  offset_gaps::GapPlacer placer(records);
  for (std::size_t i : BreadthOrder(records, false)) placer.Place(i);
  return std::move(placer).Take();
}

OffsetsAssignment OffsetsGreedyByBreadthOverlap(
    std::span<const TensorUsageRecord> records,
    std::span<const OverlapPair> overlaps) {
  if (overlaps.empty()) return OffsetsGreedyByBreadth(records);
  const std::vector<std::size_t> first = BreadthOrder(records, false);
  const std::vector<std::size_t> latest = BreadthOrder(records, true);
  const std::vector<std::size_t> orders[] = {
      first, latest, offset_gaps::ClusterOrder(first, records.size(), overlaps),
      offset_gaps::ClusterOrder(latest, records.size(), overlaps)};
  return offset_gaps::BestOfOrders(records, overlaps, orders);
}

}  // namespace arenaplan
