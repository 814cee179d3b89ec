// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The smallest-gap placement of Greedy by Size for Offset Calculation
// (Pisarchyk & Lee 2019, Alg. 3 L.7-23), shared by the gap-based Offset
// Calculation strategies (greedy-by-size, greedy-by-breadth, greedy-in-order).
//
// Alg. 3 scans every already-placed record for each new record: O(n^2). Here
// the placed records live in an interval index (§4.2 suggests interval
// structures): records sorted by first_op under a segment tree holding the
// largest last_op of the active records below each node. The placed records
// whose usage intervals intersect [first_op, last_op] are reported in
// O((k + 1) log n) for k reported; they are then sorted by offset and scanned
// exactly as Alg. 3 L.10-18 does, so the offsets are identical to the
// straightforward algorithm's.
#ifndef ARENAPLAN_CODEGEN_STRATEGIES_OFFSET_GAPS_HPP_
#define ARENAPLAN_CODEGEN_STRATEGIES_OFFSET_GAPS_HPP_

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "codegen/records.hpp"
#include "codegen/strategy.hpp"

namespace arenaplan::offset_gaps {

/// A set of "active" records out of a fixed span, answering: which active
/// records have a usage interval intersecting the inclusive operator range
/// [lo_op, hi_op]? Records are identified by their index in the span.
/// Starts empty. Does not own the records (the span must outlive it).
class IntervalIndex {
 public:
  explicit IntervalIndex(std::span<const TensorUsageRecord> records);

  /// Makes records[i] active / inactive (idempotent).
  void Activate(std::size_t i);
  void Deactivate(std::size_t i);

  /// Appends to `out` the index of every active record x with
  /// x.first_op <= hi_op and x.last_op >= lo_op (both ends inclusive), in
  /// order of (first_op, index). O((k + 1) log n).
  void Report(std::uint32_t lo_op, std::uint32_t hi_op,
              std::vector<std::size_t>& out) const;

 private:
  void Set(std::size_t pos, std::uint64_t value);
  void Collect(std::size_t node, std::size_t node_lo, std::size_t node_hi,
               std::size_t end, std::uint64_t need,
               std::vector<std::size_t>& out) const;

  std::span<const TensorUsageRecord> records_;
  /// order_[p]: record index at position p (sorted by first_op, then index).
  std::vector<std::size_t> order_;
  /// position_[i]: position of record i in order_.
  std::vector<std::size_t> position_;
  /// first_ops_[p] = records_[order_[p]].first_op (for the prefix search).
  std::vector<std::uint32_t> first_ops_;
  std::size_t leaves_ = 1;
  /// Segment tree over positions: tree_[node] = max over active positions
  /// below node of (last_op + 1); 0 when none is active.
  std::vector<std::uint64_t> tree_;
};

/// Places records one at a time, in any order the caller chooses, each at
/// the offset Alg. 3 L.7-21 gives it against the records placed so far.
class GapPlacer {
 public:
  explicit GapPlacer(std::span<const TensorUsageRecord> records);

  /// Places records[i] (not placed before) and returns its offset in bytes:
  /// the start of the smallest gap between placed records whose usage
  /// intervals intersect records[i]'s that is at least records[i].size
  /// (first such gap on equal sizes, i.e. the lowest offset); when there is
  /// none, the end of the topmost of those records, or 0 (Alg. 3 L.19-20).
  std::uint64_t Place(std::size_t i);

  /// The offsets so far (unplaced records have offset 0), in input order.
  [[nodiscard]] OffsetsAssignment Take() &&;

 private:
  std::span<const TensorUsageRecord> records_;
  IntervalIndex placed_;
  std::vector<std::uint64_t> offsets_;
  std::vector<std::size_t> scratch_;
};

/// Indices 0..n-1 ordered by non-increasing size, equal sizes by input
/// index (Alg. 3 L.1 with a stable tie-break).
[[nodiscard]] std::vector<std::size_t> OrderBySizeDescending(
    std::span<const TensorUsageRecord> records);

}  // namespace arenaplan::offset_gaps

#endif  // ARENAPLAN_CODEGEN_STRATEGIES_OFFSET_GAPS_HPP_
