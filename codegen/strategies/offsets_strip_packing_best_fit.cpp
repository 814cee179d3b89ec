// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// Strip Packing Best-fit for Offset Calculation: the prior work of
// Sekiyama, Imamichi, Imai and Raymond 2018, "Profile-guided memory
// optimization for deep neural networks" (arXiv:1804.10001), the paper's
// "Strip Packing Bestfit" row of Table 2.
//
// Each record is a rectangle whose time extent [first_op, last_op] is fixed
// and whose height is its size; the strip's height is the arena. Sekiyama et
// al. adapt the best-fit heuristic for 2D strip packing of Burke, Kendall and
// Whitwell (2004) to this setting. The packing is described by a skyline: a
// partition of the operator axis into steps, maximal runs of operators over
// which the top of the packing has the same height (offset). Repeat until
// every record is placed:
//  1. Take the lowest step (smallest offset; on ties the earliest in time).
//  2. Among the unplaced records whose usage interval lies inside the step
//     (step.first <= first_op and last_op <= step.last), take the best fit:
//     the longest usage interval, i.e. the item filling most of the gap's
//     width as in Burke et al.'s rule (an item's time position is fixed, so
//     its width is all that can fit a gap better or worse). Ties, our
//     choice: the larger size, then the smaller input index.
//  3. If there is one, place it at the step's offset; the skyline over its
//     usage interval rises by its size.
//     If there is none, the step is a hole nothing can use: raise it to the
//     lower of its neighbours' offsets and merge it with them.
// Adjacent steps of equal offset are always merged, so a record spanning
// several such steps fits them as one.
//
// Every record is placed on top of the skyline over its own interval, so the
// records below it there are exactly those that end at its offset or lower:
// no two intersecting records overlap.
//
// Complexity: at most n placements and 2n + 1 raises (a placement adds at
// most two steps, a raise removes at least one). Steps live in ordered maps,
// O(log n) per change. The best-fit query of step 2 is a two-sided range
// query (first_op >= a, last_op <= b, best key) with deletions; it runs on a
// segment tree over the records sorted by first_op whose nodes each keep
// their records sorted by last_op under a max-tree of the best-fit key:
// O(log^2 n) per query and per deletion, O(n log n) memory.
//
// With allowed overlaps (OffsetsStripPackingBestFitOverlap): the records
// in the order the skyline placed them, each placed again by
// offset_gaps::GapPlacer's overlap rule (so an output may go below the
// input it overwrites), and that order with every record's overlap cluster
// kept together; the smallest arena of those two and the plain strip
// packing plan (valid with any pairs) is kept, the plain plan on ties.
// docs/overlap.md has the models where it helps.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <map>
#include <numeric>
#include <set>
#include <utility>
#include <vector>

#include "codegen/strategies/common/offset_gaps.hpp"
#include "codegen/strategies/strategy.hpp"

namespace arenaplan {
namespace {

constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();

/// The unplaced records, answering "best fit inside [lo_op, hi_op]".
class BestFitIndex {
 public:
  explicit BestFitIndex(std::span<const TensorUsageRecord> records)
      : records_(records) {
    const std::size_t n = records.size();
    order_.resize(n);
    std::iota(order_.begin(), order_.end(), std::uint32_t{0});
    std::stable_sort(order_.begin(), order_.end(),
                     [&](std::uint32_t a, std::uint32_t b) {
                       return records[a].first_op < records[b].first_op;
                     });
    first_ops_.resize(n);
    position_.resize(n);
    for (std::size_t p = 0; p < n; ++p) {
      first_ops_[p] = records[order_[p]].first_op;
      position_[order_[p]] = p;
    }
    while (leaves_ < n) leaves_ *= 2;
    node_begin_.assign(2 * leaves_ + 1, 0);
    // Lay out every node's list: node covers positions [lo, hi) clipped to n.
    std::size_t total = 0;
    for (std::size_t node = 1; node < 2 * leaves_; ++node) {
      node_begin_[node] = total;
      total += CoveredCount(node);
    }
    node_begin_[2 * leaves_] = total;
    lists_.resize(total);
    trees_.assign(2 * total, kNone);
    // Leaves first, then every inner node merges its children (by last_op,
    // then index).
    for (std::size_t node = 2 * leaves_ - 1; node >= 1; --node) {
      std::uint32_t* out = lists_.data() + node_begin_[node];
      if (node >= leaves_) {
        if (NodeSize(node) == 1) out[0] = order_[node - leaves_];
      } else {
        const std::uint32_t* l = lists_.data() + node_begin_[2 * node];
        const std::uint32_t* r = lists_.data() + node_begin_[2 * node + 1];
        std::merge(l, l + NodeSize(2 * node), r, r + NodeSize(2 * node + 1),
                   out, [&](std::uint32_t a, std::uint32_t b) {
                     return LastKey(a) < LastKey(b);
                   });
      }
      const std::size_t m = NodeSize(node);
      std::uint32_t* tree = trees_.data() + 2 * node_begin_[node];
      for (std::size_t j = 0; j < m; ++j) tree[m + j] = out[j];
      for (std::size_t j = m - 1; j >= 1 && m > 1; --j) {
        tree[j] = Better(tree[2 * j], tree[2 * j + 1]);
      }
    }
  }

  /// The best fit among unplaced records with lo_op <= first_op and
  /// last_op <= hi_op (inclusive), or kNone.
  [[nodiscard]] std::uint32_t Query(std::uint32_t lo_op,
                                    std::uint32_t hi_op) const {
    auto l = static_cast<std::size_t>(
        std::lower_bound(first_ops_.begin(), first_ops_.end(), lo_op) -
        first_ops_.begin());
    auto r = static_cast<std::size_t>(
        std::upper_bound(first_ops_.begin(), first_ops_.end(), hi_op) -
        first_ops_.begin());
    std::uint32_t best = kNone;
    // Standard bottom-up decomposition of [l, r) into nodes.
    for (l += leaves_, r += leaves_; l < r; l /= 2, r /= 2) {
      if ((l & 1) != 0) best = Better(best, NodeQuery(l++, hi_op));
      if ((r & 1) != 0) best = Better(best, NodeQuery(--r, hi_op));
    }
    return best;
  }

  /// Removes record i (placed).
  void Erase(std::uint32_t i) {
    const auto key = LastKey(i);
    for (std::size_t node = leaves_ + position_[i]; node >= 1; node /= 2) {
      const std::uint32_t* list = lists_.data() + node_begin_[node];
      const std::size_t m = NodeSize(node);
      const auto j = static_cast<std::size_t>(
          std::lower_bound(list, list + m, i,
                           [&](std::uint32_t a, std::uint32_t) {
                             return LastKey(a) < key;
                           }) -
          list);
      std::uint32_t* tree = trees_.data() + 2 * node_begin_[node];
      std::size_t t = m + j;
      tree[t] = kNone;
      for (t /= 2; t >= 1; t /= 2) {
        tree[t] = Better(tree[2 * t], tree[2 * t + 1]);
      }
    }
  }

 private:
  /// Records under `node` (valid once node_begin_ is laid out).
  [[nodiscard]] std::size_t NodeSize(std::size_t node) const {
    return node_begin_[node + 1] - node_begin_[node];
  }

  /// Positions of real records (< n) that `node` covers.
  [[nodiscard]] std::size_t CoveredCount(std::size_t node) const {
    std::size_t lo = node;
    std::size_t hi = node + 1;
    while (lo < leaves_) {
      lo *= 2;
      hi *= 2;
    }
    lo -= leaves_;
    hi -= leaves_;
    const std::size_t n = order_.size();
    return std::min(hi, n) - std::min(lo, n);
  }

  [[nodiscard]] std::pair<std::uint32_t, std::uint32_t> LastKey(
      std::uint32_t i) const {
    return {records_[i].last_op, i};
  }

  /// The better of two candidates (kNone loses): longer interval, then
  /// larger size, then smaller index.
  [[nodiscard]] std::uint32_t Better(std::uint32_t a, std::uint32_t b) const {
    if (a == kNone) return b;
    if (b == kNone) return a;
    const TensorUsageRecord& ra = records_[a];
    const TensorUsageRecord& rb = records_[b];
    const std::uint32_t la = ra.last_op - ra.first_op;
    const std::uint32_t lb = rb.last_op - rb.first_op;
    if (la != lb) return la > lb ? a : b;
    if (ra.size != rb.size) return ra.size > rb.size ? a : b;
    return a < b ? a : b;
  }

  /// Best among node's records with last_op <= hi_op.
  [[nodiscard]] std::uint32_t NodeQuery(std::size_t node,
                                        std::uint32_t hi_op) const {
    const std::uint32_t* list = lists_.data() + node_begin_[node];
    const std::size_t m = NodeSize(node);
    auto k = static_cast<std::size_t>(
        std::upper_bound(list, list + m, hi_op,
                         [&](std::uint32_t op, std::uint32_t a) {
                           return op < records_[a].last_op;
                         }) -
        list);
    const std::uint32_t* tree = trees_.data() + 2 * node_begin_[node];
    std::uint32_t best = kNone;
    for (std::size_t l = m, r = m + k; l < r; l /= 2, r /= 2) {
      if ((l & 1) != 0) best = Better(best, tree[l++]);
      if ((r & 1) != 0) best = Better(best, tree[--r]);
    }
    return best;
  }

  std::span<const TensorUsageRecord> records_;
  std::vector<std::uint32_t> order_;
  std::vector<std::uint32_t> first_ops_;
  std::vector<std::size_t> position_;
  std::size_t leaves_ = 1;
  /// Node k's list is lists_[node_begin_[k], node_begin_[k + 1]); its
  /// max-tree (1-based, leaves at m..2m-1) starts at trees_[2 *
  /// node_begin_[k]].
  std::vector<std::size_t> node_begin_;
  std::vector<std::uint32_t> lists_;
  std::vector<std::uint32_t> trees_;
};

/// The skyline: steps keyed by first operator (inclusive ends).
class Skyline {
 public:
  struct Step {
    std::uint32_t last_op;
    std::uint64_t offset;
  };

  Skyline(std::uint32_t first_op, std::uint32_t last_op) {
    Insert(first_op, Step{last_op, 0});
  }

  /// The lowest step (earliest on ties): {first_op, step}.
  [[nodiscard]] std::pair<std::uint32_t, Step> Lowest() const {
    const std::uint32_t first = by_height_.begin()->second;
    return {first, steps_.at(first)};
  }

  /// Raises [first_op, last_op] (inside the step starting at step_first) by
  /// `size`.
  void Place(std::uint32_t step_first, std::uint32_t first_op,
             std::uint32_t last_op, std::uint64_t size) {
    const Step step = steps_.at(step_first);
    Erase(step_first);
    if (step_first < first_op) {
      Insert(step_first, Step{first_op - 1, step.offset});
    }
    if (last_op < step.last_op) {
      Insert(last_op + 1, Step{step.last_op, step.offset});
    }
    Insert(first_op, Step{last_op, step.offset + size});
    MergeAround(first_op);
  }

  /// Raises the step starting at step_first to its lower neighbour.
  void Raise(std::uint32_t step_first) {
    auto it = steps_.find(step_first);
    std::uint64_t target = std::numeric_limits<std::uint64_t>::max();
    if (it != steps_.begin()) target = std::prev(it)->second.offset;
    if (std::next(it) != steps_.end()) {
      target = std::min(target, std::next(it)->second.offset);
    }
    // A single step spanning all operators always fits some record.
    const Step step = it->second;
    Erase(step_first);
    Insert(step_first, Step{step.last_op, target});
    MergeAround(step_first);
  }

 private:
  void Insert(std::uint32_t first, Step step) {
    steps_.emplace(first, step);
    by_height_.emplace(step.offset, first);
  }
  void Erase(std::uint32_t first) {
    auto it = steps_.find(first);
    by_height_.erase({it->second.offset, first});
    steps_.erase(it);
  }
  /// Merges the step starting at `first` with equal-offset neighbours.
  void MergeAround(std::uint32_t first) {
    auto it = steps_.find(first);
    if (std::next(it) != steps_.end() &&
        std::next(it)->second.offset == it->second.offset) {
      const std::uint32_t last = std::next(it)->second.last_op;
      Erase(std::next(it)->first);
      it = steps_.find(first);
      it->second.last_op = last;
    }
    if (it != steps_.begin() &&
        std::prev(it)->second.offset == it->second.offset) {
      const std::uint32_t last = it->second.last_op;
      const std::uint32_t prev_first = std::prev(it)->first;
      Erase(first);
      steps_.at(prev_first).last_op = last;
    }
  }

  std::map<std::uint32_t, Step> steps_;
  std::set<std::pair<std::uint64_t, std::uint32_t>> by_height_;
};

/// Strip packing best-fit; `order`, when given, receives the records in
/// the order they were placed.
OffsetsAssignment StripPack(std::span<const TensorUsageRecord> records,
                            std::vector<std::size_t>* order) {
  OffsetsAssignment out;
  out.offsets.assign(records.size(), 0);
  if (records.empty()) return out;
  std::uint32_t lo = records[0].first_op;
  std::uint32_t hi = records[0].last_op;
  for (const TensorUsageRecord& r : records) {
    lo = std::min(lo, r.first_op);
    hi = std::max(hi, r.last_op);
  }
  BestFitIndex unplaced(records);
  Skyline skyline(lo, hi);
  std::size_t left = records.size();
  while (left > 0) {
    const auto [step_first, step] = skyline.Lowest();
    const std::uint32_t i = unplaced.Query(step_first, step.last_op);
    if (i == kNone) {
      skyline.Raise(step_first);
      continue;
    }
    out.offsets[i] = step.offset;
    if (order != nullptr) order->push_back(i);
    skyline.Place(step_first, records[i].first_op, records[i].last_op,
                  records[i].size);
    unplaced.Erase(i);
    --left;
  }
  return out;
}

}  // namespace

OffsetsAssignment OffsetsStripPackingBestFit(
    std::span<const TensorUsageRecord> records) {
  return StripPack(records, nullptr);
}

OffsetsAssignment OffsetsStripPackingBestFitOverlap(
    std::span<const TensorUsageRecord> records,
    std::span<const OverlapPair> overlaps) {
  std::vector<std::size_t> order;
  OffsetsAssignment plain = StripPack(records, &order);
  if (overlaps.empty()) return plain;
  const std::vector<std::vector<std::size_t>> orders = {
      order, offset_gaps::ClusterOrder(order, records.size(), overlaps)};
  OffsetsAssignment paired =
      offset_gaps::BestOfOrders(records, overlaps, orders);
  auto arena = [&records](const OffsetsAssignment& a) {
    std::uint64_t top = 0;
    for (std::size_t i = 0; i < records.size(); ++i) {
      top = std::max(top, a.offsets[i] + records[i].size);
    }
    return top;
  };
  return arena(paired) < arena(plain) ? paired : plain;
}

}  // namespace arenaplan
