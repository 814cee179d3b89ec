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
// tests/host/strategies/offsets_strategies_test.cpp).
//
// Tie-breaks (deterministic): records with equal first_op in input order;
// equal gaps: the lowest one.
//
// Complexity: O(n log n) on any input. Because every record placed before t
// starts no later than t, the placed records intersecting t are exactly the
// live allocations at first_op_t, and those are pairwise disjoint in memory
// (they all hold operator first_op_t, and each was placed clear of the ones
// before it). So Alg. 3's scan over them in offset order sees exactly the
// free gaps between consecutive live allocations (and below the lowest).
// A sweep over first_op keeps the live allocations in an ordered map by
// offset and their free gaps in an ordered set by (length, offset): the
// smallest gap of length >= size, lowest offset on ties, is one
// lower_bound; releasing and placing change O(1) gaps. Precondition (as for
// every strategy): sizes > 0.
//
// With allowed overlaps (OffsetsGreedyInOrderOverlap) the live allocations
// may share bytes, so the free-gap set above does not apply; the records
// go, in the same order, through GapPlacer (offset_gaps.hpp), which is
// Alg. 3's scan over the placed records intersecting t, i.e. the same
// best-fit rule, and places a record by the overlap rule when its partner
// is placed. Without pairs both give the same offsets (the placed records
// intersecting t are the live allocations, as argued above). With pairs
// it also runs the reverse: records by non-increasing last_op (execution
// order backwards, an output before the input it overwrites, so the input
// can go `distance` above it), and keeps the smaller arena (forward on
// ties).
#include <algorithm>
#include <cstdint>
#include <iterator>
#include <map>
#include <numeric>
#include <set>
#include <utility>
#include <vector>

#include "codegen/strategies/common/offset_gaps.hpp"
#include "codegen/strategies/strategy.hpp"

namespace arenaplan {
namespace {

/// The live allocations of the sweep and the free gaps between them. Offsets
/// and lengths in bytes; an allocation covers [offset, end), end excluded.
class LiveArena {
 public:
  /// Best-fit offset for `size` bytes: the start of the smallest gap between
  /// live allocations (or below the lowest) of length >= size, the lowest
  /// such gap on equal lengths; else the end of the highest allocation (0
  /// when none is live).
  [[nodiscard]] std::uint64_t Fit(std::uint64_t size) const {
    auto gap = gaps_.lower_bound({size, 0});
    if (gap != gaps_.end()) return gap->second;
    return live_.empty() ? 0 : std::prev(live_.end())->second;
  }

  /// Records [offset, offset + size) as live. Precondition: it was returned
  /// by Fit(size).
  void Allocate(std::uint64_t offset, std::uint64_t size) {
    const std::uint64_t end = offset + size;
    auto next = live_.lower_bound(offset);
    if (next != live_.end()) {
      // Inside the gap [offset, next->first): it shrinks from below.
      gaps_.erase({next->first - offset, offset});
      AddGap(end, next->first);
    }
    live_.emplace(offset, end);
  }

  /// Releases the live allocation at `offset`; the free bytes around it merge
  /// into one gap, or into the space above when it was the highest.
  void Release(std::uint64_t offset) {
    auto it = live_.find(offset);
    const std::uint64_t below = it == live_.begin() ? 0 : std::prev(it)->second;
    RemoveGap(below, offset);
    auto next = std::next(it);
    if (next != live_.end()) {
      RemoveGap(it->second, next->first);
      AddGap(below, next->first);
    }
    live_.erase(it);
  }

 private:
  void AddGap(std::uint64_t from, std::uint64_t to) {
    if (to > from) gaps_.emplace(to - from, from);
  }
  void RemoveGap(std::uint64_t from, std::uint64_t to) {
    if (to > from) gaps_.erase({to - from, from});
  }

  /// offset -> end of every live allocation (pairwise disjoint).
  std::map<std::uint64_t, std::uint64_t> live_;
  /// (length, offset) of every non-empty gap below the highest allocation.
  std::set<std::pair<std::uint64_t, std::uint64_t>> gaps_;
};

}  // namespace

OffsetsAssignment OffsetsGreedyInOrder(
    std::span<const TensorUsageRecord> records) {
  const std::size_t n = records.size();
  const std::vector<std::size_t> order = IndicesByFirstOp(records);
  // Placed records by last_op: released once the sweep passes their last_op.
  std::vector<std::size_t> by_last(order);
  std::stable_sort(by_last.begin(), by_last.end(),
                   [&](std::size_t a, std::size_t b) {
                     return records[a].last_op < records[b].last_op;
                   });
  OffsetsAssignment out;
  out.offsets.assign(n, 0);
  LiveArena arena;
  std::size_t released = 0;
  for (std::size_t t : order) {
    const TensorUsageRecord& r = records[t];
    // Alg. 3's "placed and intersecting t" = placed with last_op >= first_op.
    // A record ending before r.first_op also started before it (first_op <=
    // last_op), so it has been placed already.
    for (; released < n && records[by_last[released]].last_op < r.first_op;
         ++released) {
      arena.Release(out.offsets[by_last[released]]);
    }
    out.offsets[t] = arena.Fit(r.size);  // Alg. 3 L.7-21
    arena.Allocate(out.offsets[t], r.size);
  }
  return out;
}

OffsetsAssignment OffsetsGreedyInOrderOverlap(
    std::span<const TensorUsageRecord> records,
    std::span<const OverlapPair> overlaps) {
  const std::vector<std::size_t> order = IndicesByFirstOp(records);
  if (overlaps.empty()) {
    offset_gaps::GapPlacer placer(records);
    for (std::size_t t : order) placer.Place(t);
    return std::move(placer).Take();
  }
  std::vector<std::size_t> backward(records.size());
  std::iota(backward.begin(), backward.end(), std::size_t{0});
  std::stable_sort(backward.begin(), backward.end(),
                   [&](std::size_t a, std::size_t b) {
                     return records[a].last_op > records[b].last_op;
                   });
  const std::vector<std::size_t> orders[] = {order, backward};
  return offset_gaps::BestOfOrders(records, overlaps, orders);
}

}  // namespace arenaplan
