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

bool IntervalIndex::Collect(std::size_t node, std::size_t node_lo,
                            std::size_t node_hi, std::size_t end,
                            std::uint64_t need, std::size_t limit,
                            std::vector<std::size_t>& out) const {
  // node covers positions [node_lo, node_hi); only positions < end qualify.
  if (node_lo >= end || tree_[node] < need) return true;
  if (node >= leaves_) {
    out.push_back(order_[node_lo]);
    return out.size() <= limit;
  }
  const std::size_t mid = node_lo + (node_hi - node_lo) / 2;
  return Collect(2 * node, node_lo, mid, end, need, limit, out) &&
         Collect(2 * node + 1, mid, node_hi, end, need, limit, out);
}

bool IntervalIndex::Report(std::uint32_t lo_op, std::uint32_t hi_op,
                           std::vector<std::size_t>& out,
                           std::size_t limit) const {
  // Positions with first_op <= hi_op form a prefix; among those, keep the
  // active ones with last_op + 1 >= lo_op + 1.
  const auto end = static_cast<std::size_t>(
      std::upper_bound(first_ops_.begin(), first_ops_.end(), hi_op) -
      first_ops_.begin());
  if (end == 0) return true;
  return Collect(1, 0, leaves_, end, std::uint64_t{lo_op} + 1, limit, out);
}

void OffsetOrder::Assign(const std::vector<Entry>& sorted) {
  blocks_.clear();
  fronts_.clear();
  for (std::size_t at = 0; at < sorted.size(); at += kBlock) {
    const std::size_t end = std::min(sorted.size(), at + kBlock);
    blocks_.emplace_back(sorted.begin() + static_cast<std::ptrdiff_t>(at),
                         sorted.begin() + static_cast<std::ptrdiff_t>(end));
    fronts_.push_back(sorted[at].offset);
  }
}

void OffsetOrder::Insert(const Entry& e) {
  if (blocks_.empty()) {
    blocks_.emplace_back().push_back(e);
    fronts_.push_back(e.offset);
    return;
  }
  // The last block whose first entry has offset <= e.offset (else block 0).
  auto front = std::upper_bound(fronts_.begin(), fronts_.end(), e.offset);
  if (front != fronts_.begin()) --front;
  const auto b = static_cast<std::size_t>(front - fronts_.begin());
  std::vector<Entry>& block = blocks_[b];
  auto at = std::upper_bound(
      block.begin(), block.end(), e.offset,
      [](std::uint64_t off, const Entry& x) { return off < x.offset; });
  block.insert(at, e);
  fronts_[b] = block.front().offset;
  if (block.size() >= 2 * kBlock) {
    std::vector<Entry> upper(block.begin() + kBlock, block.end());
    block.resize(kBlock);
    const auto next = static_cast<std::ptrdiff_t>(b + 1);
    fronts_.insert(fronts_.begin() + next, upper.front().offset);
    blocks_.insert(blocks_.begin() + next, std::move(upper));
  }
}

Skyline::Skyline(std::span<const TensorUsageRecord> records)
    : records_(records) {
  ops_.reserve(2 * records.size());
  for (const TensorUsageRecord& r : records) {
    ops_.push_back(r.first_op);
    ops_.push_back(r.last_op);
  }
  std::sort(ops_.begin(), ops_.end());
  ops_.erase(std::unique(ops_.begin(), ops_.end()), ops_.end());
  highest_.assign(4 * std::max<std::size_t>(ops_.size(), 1), 0);
  whole_.assign(highest_.size(), 0);
}

std::size_t Skyline::Rank(std::uint32_t op) const {
  return static_cast<std::size_t>(
      std::lower_bound(ops_.begin(), ops_.end(), op) - ops_.begin());
}

void Skyline::Raise(std::size_t i, std::uint64_t end) {
  Raise(1, 0, ops_.size(), Rank(records_[i].first_op),
        Rank(records_[i].last_op) + 1, end);
}

std::uint64_t Skyline::Top(std::size_t i) const {
  return Top(1, 0, ops_.size(), Rank(records_[i].first_op),
             Rank(records_[i].last_op) + 1);
}

// Both recursions: `node` covers ranks [lo, hi); the range is [a, b).
void Skyline::Raise(std::size_t node, std::size_t lo, std::size_t hi,
                    std::size_t a, std::size_t b, std::uint64_t end) {
  if (b <= lo || hi <= a) return;
  highest_[node] = std::max(highest_[node], end);
  if (a <= lo && hi <= b) {
    whole_[node] = std::max(whole_[node], end);
    return;
  }
  const std::size_t mid = lo + (hi - lo) / 2;
  Raise(2 * node, lo, mid, a, b, end);
  Raise(2 * node + 1, mid, hi, a, b, end);
}

std::uint64_t Skyline::Top(std::size_t node, std::size_t lo, std::size_t hi,
                           std::size_t a, std::size_t b) const {
  if (b <= lo || hi <= a) return 0;
  if (a <= lo && hi <= b) return highest_[node];
  const std::size_t mid = lo + (hi - lo) / 2;
  return std::max({whole_[node], Top(2 * node, lo, mid, a, b),
                   Top(2 * node + 1, mid, hi, a, b)});
}

GapPlacer::GapPlacer(std::span<const TensorUsageRecord> records,
                     std::span<const OverlapPair> overlaps,
                     std::optional<std::uint64_t> work_cap)
    : records_(records),
      overlaps_(overlaps),
      is_placed_(records.size(), false),
      placed_(records),
      offsets_(records.size(), 0),
      work_(work_cap.value_or(HeuristicWorkCap(records.size()))) {
  if (overlaps.empty()) return;
  partners_.resize(records.size());
  for (std::size_t k = 0; k < overlaps.size(); ++k) {
    partners_[overlaps[k].input].push_back(k);
    partners_[overlaps[k].output].push_back(k);
  }
}

namespace {

/// Alg. 3 L.7-20 over the intersecting placed records fed in non-decreasing
/// offset order (equal offsets in any order: the first of them opens the
/// gap, the others see none).
class SmallestGap {
 public:
  /// `floor`: the search sees no gap below this offset (Alg. 3: 0).
  explicit SmallestGap(std::uint64_t size, std::uint64_t floor = 0)
      : size_(size), prev_offset_(floor) {}

  void Next(std::uint64_t offset_x, std::uint64_t end_x) {
    // L.14-17: gap = offset_x - prev_offset (may be negative: no gap). Only
    // the rare improvement branches.
    const std::uint64_t gap = offset_x - prev_offset_;
    if ((offset_x >= prev_offset_) & (gap >= size_) & (gap < smallest_gap_)) {
      smallest_gap_ = gap;
      best_offset_ = prev_offset_;
      found_ = true;
    }
    prev_offset_ = std::max(prev_offset_, end_x);  // L.18
  }

  [[nodiscard]] bool Found() const { return found_; }
  [[nodiscard]] std::uint64_t SmallestFit() const { return smallest_gap_; }

  /// L.19-20: the smallest fitting gap, else the top.
  [[nodiscard]] std::uint64_t Offset() const {
    return found_ ? best_offset_ : prev_offset_;
  }

 private:
  std::uint64_t size_;
  std::uint64_t prev_offset_;      // L.7
  std::uint64_t best_offset_ = 0;  // L.8
  std::uint64_t smallest_gap_ =
      std::numeric_limits<std::uint64_t>::max();  // L.9
  bool found_ = false;
};

}  // namespace

std::uint64_t GapPlacer::Place(std::size_t i) {
  if (work_.Spent()) return PlaceBounded(i);
  if (!partners_.empty()) {
    for (std::size_t k : partners_[i]) {
      const OverlapPair& p = overlaps_[k];
      if (is_placed_[p.input == i ? p.output : p.input]) {
        return PlaceWithPartners(i);
      }
    }
  }
  const TensorUsageRecord& t = records_[i];
  SmallestGap search(t.size);
  // Alg. 3 L.10-13: the placed records whose usage intervals intersect t's,
  // in ordered_allocated_ids order (non-decreasing offset).
  // (The scan below needs t.size > 0; the strategies never pass size 0.)
  constexpr std::size_t kMinScan = 256;
  const std::size_t placed = placed_list_.size();
  const std::size_t limit = t.size == 0 || placed < kMinScan
                                ? static_cast<std::size_t>(-1)
                                : placed / 16;
  scratch_.clear();
  // After a dense placement, the next ones go straight to the scan (both
  // paths give the same offset); every 64th asks the index again.
  const bool try_index = !last_dense_ || (placed % 64) == 0;
  const bool few =
      try_index && placed_.Report(t.first_op, t.last_op, scratch_, limit);
  last_dense_ = !few;
  work_.Charge(1 + scratch_.size() + (few ? 0 : placed));
  if (few) {
    // Few (k <= P / 16): sort them by offset (ties by index).
    std::sort(
        scratch_.begin(), scratch_.end(), [&](std::size_t a, std::size_t b) {
          return offsets_[a] != offsets_[b] ? offsets_[a] < offsets_[b] : a < b;
        });
    for (std::size_t x : scratch_) {
      search.Next(offsets_[x], offsets_[x] + records_[x].size);
    }
  } else {
    // Many: scan every placed record in offset order.
    if (!by_offset_built_) BuildOffsetOrder();
    by_offset_.ForEach([&](const OffsetOrder::Entry& x) {
      // About half the records intersect, so a branch on that would be
      // mispredicted often. Instead a record that does not intersect is fed
      // as the empty range [0, 0): it cannot move prev_offset, and its "gap"
      // 0 - prev_offset is either 0 (< t.size, which is > 0 on this path)
      // or negative (no gap), so it changes nothing.
      const std::uint64_t in = static_cast<std::uint64_t>(
          (x.first_op <= t.last_op) & (x.last_op >= t.first_op));
      const std::uint64_t mask = 0 - in;
      search.Next(x.offset & mask, x.end & mask);
    });
  }
  const std::uint64_t offset = search.Offset();
  Commit(i, offset);  // L.21, L.23
  return offset;
}

void GapPlacer::Commit(std::size_t i, std::uint64_t offset) {
  const TensorUsageRecord& t = records_[i];
  offsets_[i] = offset;
  is_placed_[i] = true;
  placed_.Activate(i);
  placed_list_.push_back(i);
  if (by_offset_built_) {
    by_offset_.Insert({offset, offset + t.size, t.first_op, t.last_op});
  }
  if (skyline_) skyline_->Raise(i, offset + t.size);
}

std::uint64_t GapPlacer::PlaceBounded(std::size_t i) {
  if (!skyline_) {
    capped_after_ = placed_list_.size();
    skyline_ = std::make_unique<Skyline>(records_);
    for (std::size_t x : placed_list_) {
      const std::uint64_t end = offsets_[x] + records_[x].size;
      skyline_->Raise(x, end);
      largest_placed_ = std::max(largest_placed_, records_[x].size);
    }
  }
  if (!by_offset_built_) BuildOffsetOrder();
  const TensorUsageRecord& t = records_[i];
  const std::uint64_t top = skyline_->Top(i);
  // One window: Alg. 3 L.10-18 over at most `count` entries, counting gaps
  // from `floor` on. A record reaching above `floor` starts above floor -
  // largest_placed_, so scanning from there sees every record that bounds a
  // gap above floor. No entry at or above `top` intersects t.
  const auto window = [&](std::uint64_t floor, std::size_t count) {
    SmallestGap search(t.size, floor);
    by_offset_.ForEachFrom(
        floor > largest_placed_ ? floor - largest_placed_ : 0,
        [&](const OffsetOrder::Entry& x) {
          if (x.offset >= top) return false;
          if (x.first_op <= t.last_op && x.last_op >= t.first_op) {
            search.Next(x.offset, x.end);
          }
          return --count != 0;
        });
    return search;
  };
  // Window 1: the lowest entries, as Alg. 3 scans them. Window 2: the
  // entries just below the top. The smaller fitting gap wins, window 1 on
  // ties; with none, the top (L.19-20).
  const SmallestGap low = window(0, kBoundedScan / 2);
  const std::uint64_t span =
      top / std::max<std::size_t>(placed_list_.size(), 1) * (kBoundedScan / 2);
  const SmallestGap high = window(top > span ? top - span : 0, kBoundedScan);
  std::uint64_t offset = top;
  if (low.Found() &&
      (!high.Found() || low.SmallestFit() <= high.SmallestFit())) {
    offset = low.Offset();
  } else if (high.Found()) {
    offset = high.Offset();
  }
  largest_placed_ = std::max(largest_placed_, t.size);
  Commit(i, offset);
  return offset;
}

std::uint64_t GapPlacer::PlaceWithPartners(std::size_t i) {
  const TensorUsageRecord& t = records_[i];
  // Forbidden start offsets of t, as half-open ranges [lo, hi).
  std::vector<std::pair<std::uint64_t, std::uint64_t>> forbidden;
  std::vector<std::uint64_t> points;
  scratch_.clear();
  placed_.Report(t.first_op, t.last_op, scratch_);
  for (std::size_t x : scratch_) {
    const std::uint64_t off = offsets_[x];
    const std::uint64_t end = off + records_[x].size;
    // Without a pair: t.offset + t.size > off and t.offset < end.
    std::uint64_t lo = off + 1 > t.size ? off + 1 - t.size : 0;
    std::uint64_t hi = end;
    points.clear();
    for (std::size_t k : partners_[i]) {
      const OverlapPair& p = overlaps_[k];
      if (p.relation == OverlapRelation::kAlias) {
        // The same offset, equal sizes (RelationHolds).
        if ((p.input == x || p.output == x) && records_[x].size == t.size) {
          points.push_back(off);
        }
      } else if (p.output == i && p.input == x) {
        // t is the output: t.offset + d <= x.offset.
        if (off >= p.distance) lo = std::max(lo, off - p.distance + 1);
      } else if (p.input == i && p.output == x) {
        // t is the input: x.offset + d <= t.offset.
        // (Compared first: no overflow for any distance.)
        if (p.distance < hi - off) hi = off + p.distance;
      }
    }
    if (lo >= hi) continue;
    std::sort(points.begin(), points.end());
    for (std::uint64_t at : points) {
      if (at < lo || at >= hi) continue;
      if (at > lo) forbidden.emplace_back(lo, at);
      lo = at + 1;
    }
    if (lo < hi) forbidden.emplace_back(lo, hi);
  }
  work_.Charge(1 + scratch_.size());
  std::sort(forbidden.begin(), forbidden.end());
  // Runs of allowed starts [cur, lo - 1] between the forbidden ranges, in
  // offset order: the shortest wins (strict <: the lowest on ties), else the
  // first start above them all.
  std::uint64_t cur = 0;
  std::uint64_t best = 0;
  std::uint64_t best_length = std::numeric_limits<std::uint64_t>::max();
  bool found = false;
  for (const auto& [lo, hi] : forbidden) {
    if (lo > cur && lo - 1 - cur < best_length) {
      best_length = lo - 1 - cur;
      best = cur;
      found = true;
    }
    cur = std::max(cur, hi);
  }
  const std::uint64_t offset = found ? best : cur;
  Commit(i, offset);
  return offset;
}

void GapPlacer::BuildOffsetOrder() {
  std::vector<OffsetOrder::Entry> sorted;
  sorted.reserve(placed_list_.size());
  for (std::size_t x : placed_list_) {
    const TensorUsageRecord& r = records_[x];
    sorted.push_back(
        {offsets_[x], offsets_[x] + r.size, r.first_op, r.last_op});
  }
  std::stable_sort(
      sorted.begin(), sorted.end(),
      [](const OffsetOrder::Entry& a, const OffsetOrder::Entry& b) {
        return a.offset < b.offset;
      });
  by_offset_.Assign(sorted);
  by_offset_built_ = true;
}

OffsetsAssignment GapPlacer::Take() && {
  return OffsetsAssignment{std::move(offsets_), capped_after_};
}

std::vector<std::size_t> OrderBySizeDescending(
    std::span<const TensorUsageRecord> records) {
  return IndicesBySizeDescending(records);
}

std::vector<std::size_t> OrderBySizeDescendingLatestFirst(
    std::span<const TensorUsageRecord> records) {
  std::vector<std::size_t> order(records.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) {
                     if (records[a].size != records[b].size) {
                       return records[a].size > records[b].size;
                     }
                     return records[a].first_op > records[b].first_op;
                   });
  return order;
}

std::vector<std::size_t> ClusterOrder(std::span<const std::size_t> order,
                                      std::size_t record_count,
                                      std::span<const OverlapPair> overlaps) {
  std::vector<std::vector<std::size_t>> partners(record_count);
  for (const OverlapPair& p : overlaps) {
    partners[p.input].push_back(p.output);
    partners[p.output].push_back(p.input);
  }
  std::vector<bool> taken(record_count, false);
  std::vector<std::size_t> out;
  out.reserve(order.size());
  for (std::size_t start : order) {
    if (taken[start]) continue;
    taken[start] = true;
    // Breadth first from `start`: out[at] for at >= the start's position
    // are the cluster's records, in the order they were reached.
    std::size_t at = out.size();
    out.push_back(start);
    for (; at < out.size(); ++at) {
      for (std::size_t q : partners[out[at]]) {
        if (!taken[q]) {
          taken[q] = true;
          out.push_back(q);
        }
      }
    }
  }
  return out;
}

OffsetsAssignment BestOfOrders(std::span<const TensorUsageRecord> records,
                               std::span<const OverlapPair> overlaps,
                               std::span<const std::vector<std::size_t>> orders,
                               std::optional<std::uint64_t> work_cap) {
  OffsetsAssignment best;
  std::uint64_t best_arena = 0;
  for (std::size_t o = 0; o < orders.size(); ++o) {
    GapPlacer placer(records, overlaps, work_cap);
    for (std::size_t i : orders[o]) placer.Place(i);
    OffsetsAssignment plan = std::move(placer).Take();
    std::uint64_t arena = 0;
    for (std::size_t i = 0; i < records.size(); ++i) {
      arena = std::max(arena, plan.offsets[i] + records[i].size);
    }
    if (o == 0 || arena < best_arena) {
      best = std::move(plan);
      best_arena = arena;
    }
  }
  return best;
}

}  // namespace arenaplan::offset_gaps
