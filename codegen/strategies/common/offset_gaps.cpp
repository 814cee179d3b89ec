// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
#include "codegen/strategies/common/offset_gaps.hpp"

#include <algorithm>
#include <limits>
#include <numeric>

namespace arenaplan::offset_gaps {

IntervalIndex::IntervalIndex(std::span<const TensorUsageRecord> records)
    : records_(records),
      order_(records.size()),
      position_(records.size()),
      first_ops_(records.size()) {
  std::iota(order_.begin(), order_.end(), std::size_t{0});
  std::stable_sort(order_.begin(), order_.end(),
                   [&](std::size_t a, std::size_t b) {
                     return records[a].first_op < records[b].first_op;
                   });
  for (std::size_t p = 0; p < order_.size(); ++p) {
    position_[order_[p]] = p;
    first_ops_[p] = records[order_[p]].first_op;
  }
  while (leaves_ < records.size()) leaves_ *= 2;
  tree_.assign(2 * leaves_, 0);
}

void IntervalIndex::Set(std::size_t pos, std::uint64_t value) {
  std::size_t node = leaves_ + pos;
  tree_[node] = value;
  for (node /= 2; node >= 1; node /= 2) {
    tree_[node] = std::max(tree_[2 * node], tree_[2 * node + 1]);
  }
}

void IntervalIndex::Activate(std::size_t i) {
  Set(position_[i], std::uint64_t{records_[i].last_op} + 1);
}

void IntervalIndex::Deactivate(std::size_t i) { Set(position_[i], 0); }

void IntervalIndex::Collect(std::size_t node, std::size_t node_lo,
                            std::size_t node_hi, std::size_t end,
                            std::uint64_t need,
                            std::vector<std::size_t>& out) const {
  // node covers positions [node_lo, node_hi); only positions < end qualify.
  if (node_lo >= end || tree_[node] < need) return;
  if (node >= leaves_) {
    out.push_back(order_[node_lo]);
    return;
  }
  const std::size_t mid = node_lo + (node_hi - node_lo) / 2;
  Collect(2 * node, node_lo, mid, end, need, out);
  Collect(2 * node + 1, mid, node_hi, end, need, out);
}

void IntervalIndex::Report(std::uint32_t lo_op, std::uint32_t hi_op,
                           std::vector<std::size_t>& out) const {
  // Positions with first_op <= hi_op form a prefix; among those, keep the
  // active ones with last_op + 1 >= lo_op + 1.
  const auto end = static_cast<std::size_t>(
      std::upper_bound(first_ops_.begin(), first_ops_.end(), hi_op) -
      first_ops_.begin());
  if (end == 0) return;
  Collect(1, 0, leaves_, end, std::uint64_t{lo_op} + 1, out);
}

GapPlacer::GapPlacer(std::span<const TensorUsageRecord> records)
    : records_(records), placed_(records), offsets_(records.size(), 0) {}

std::uint64_t GapPlacer::Place(std::size_t i) {
  const TensorUsageRecord& t = records_[i];
  // Alg. 3 L.10-13: the placed records whose usage intervals intersect t's.
  scratch_.clear();
  placed_.Report(t.first_op, t.last_op, scratch_);
  // ordered_allocated_ids is kept in non-decreasing offset order, so the
  // scan below walks memory from the bottom (ties by index; the result does
  // not depend on how equal offsets are ordered).
  std::sort(
      scratch_.begin(), scratch_.end(), [&](std::size_t a, std::size_t b) {
        return offsets_[a] != offsets_[b] ? offsets_[a] < offsets_[b] : a < b;
      });
  std::uint64_t prev_offset = 0;                                          // L.7
  std::uint64_t best_offset = std::numeric_limits<std::uint64_t>::max();  // L.8
  std::uint64_t smallest_gap =
      std::numeric_limits<std::uint64_t>::max();  // L.9
  bool found = false;
  for (std::size_t x : scratch_) {
    const std::uint64_t offset_x = offsets_[x];
    // L.14-17: gap = offset_x - prev_offset (may be negative: no gap).
    if (offset_x >= prev_offset) {
      const std::uint64_t gap = offset_x - prev_offset;
      if (gap >= t.size && gap < smallest_gap) {
        smallest_gap = gap;
        best_offset = prev_offset;
        found = true;
      }
    }
    prev_offset = std::max(prev_offset, offset_x + records_[x].size);  // L.18
  }
  if (!found) best_offset = prev_offset;  // L.19-20
  offsets_[i] = best_offset;              // L.21
  placed_.Activate(i);                    // L.23
  return best_offset;
}

OffsetsAssignment GapPlacer::Take() && {
  return OffsetsAssignment{std::move(offsets_)};
}

std::vector<std::size_t> OrderBySizeDescending(
    std::span<const TensorUsageRecord> records) {
  std::vector<std::size_t> order(records.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) {
                     return records[a].size > records[b].size;
                   });
  return order;
}

}  // namespace arenaplan::offset_gaps
