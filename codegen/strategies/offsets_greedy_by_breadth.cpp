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
// greedy-by-size (output-sensitive, Theta(n^2 log n) on dense inputs).
//
// With allowed overlaps (OffsetsGreedyByBreadthOverlap): the same order
// (the paper's breadth, pairs not subtracted), each record placed by
// GapPlacer's overlap rule when a partner of it is already placed.
#include <algorithm>
#include <numeric>

#include "codegen/records.hpp"
#include "codegen/strategies/common/offset_gaps.hpp"
#include "codegen/strategy.hpp"

namespace arenaplan {

namespace {

OffsetsAssignment ByBreadth(std::span<const TensorUsageRecord> records,
                            std::span<const OverlapPair> overlaps) {
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
  offset_gaps::GapPlacer placer(records, overlaps);
  std::vector<std::size_t> profile;
  for (std::size_t s : segment_order) {
    // The profile of operator op: records with first_op <= op <= last_op.
    const std::uint32_t op = summary.segment_first_op[s];
    profile.clear();
    unassigned.Report(op, op, profile);
    std::stable_sort(profile.begin(), profile.end(),
                     [&](std::size_t a, std::size_t b) {
                       return records[a].size != records[b].size
                                  ? records[a].size > records[b].size
                                  : a < b;
                     });
    for (std::size_t i : profile) {
      placer.Place(i);
      unassigned.Deactivate(i);
    }
  }
  return std::move(placer).Take();
}

}  // namespace

OffsetsAssignment OffsetsGreedyByBreadth(
    std::span<const TensorUsageRecord> records) {
  return ByBreadth(records, {});
}

OffsetsAssignment OffsetsGreedyByBreadthOverlap(
    std::span<const TensorUsageRecord> records,
    std::span<const OverlapPair> overlaps) {
  return ByBreadth(records, overlaps);
}

}  // namespace arenaplan
