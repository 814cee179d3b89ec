// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// Greedy by Size Improved for Shared Objects (Pisarchyk & Lee 2019, §4.4).
//
// 1. Stages by positional maximum. With the distinct positional maximums
//    v_1 > v_2 > ... > v_d, stage 1 holds the tensors of size v_1, stage 2
//    those with v_2 < size < v_1, stage 3 those of size v_2, ..., and the last
//    stage those smaller than v_d. Stages are processed in that order.
// 2. Inside a stage, repeatedly take the (tensor, suitable object) pair whose
//    time gap is smallest: the gap between the tensor's usage interval and
//    the closest usage interval already in the object, in operators
//    (first_op - previous.last_op or next.first_op - last_op; 1 when they
//    touch). When no unassigned tensor of the stage has a suitable object,
//    the largest one gets a new object of its own size.
//
// Work cap (common/work_cap.hpp): kSeedUnits (8) units per stored interval
// a stage seeds from and one per candidate taken from the heap. While
// HeuristicWorkCap(n) holds, this is §4.4 exactly. Once it is spent, the
// remaining tensors (rest of the current stage, then the later stages; in
// each, size non-increasing, then index) each go to the suitable object with
// the smallest time gap among the kCappedObjectCandidates (128) newest
// objects (lower index on ties), else to a new object: O(log n) per tensor.
// capped_after counts the tensors placed by the exact rule.
#include <algorithm>
#include <cstdint>
#include <functional>
#include <iterator>
#include <limits>
#include <numeric>
#include <vector>

#include "codegen/strategies/common/object_intervals.hpp"
#include "codegen/strategies/common/work_cap.hpp"
#include "codegen/strategies/strategies.hpp"
#include "codegen/strategies/strategy.hpp"

namespace arenaplan {
namespace {

constexpr std::int64_t kRemoved = std::numeric_limits<std::int64_t>::max();
constexpr std::size_t kNotFound = std::numeric_limits<std::size_t>::max();
/// Work units per stored interval a stage seeds from.
constexpr std::uint64_t kSeedUnits = 8;

/// Min segment tree answering "leftmost position >= from whose value is below
/// bound" in O(log n). Removed positions hold kRemoved.
class LeftmostBelow {
 public:
  explicit LeftmostBelow(const std::vector<std::int64_t>& values) {
    while (leaves_ < values.size()) leaves_ *= 2;
    min_.assign(2 * leaves_, kRemoved);
    std::copy(values.begin(), values.end(),
              min_.begin() + static_cast<std::ptrdiff_t>(leaves_));
    for (std::size_t v = leaves_; v-- > 1;) {
      min_[v] = std::min(min_[2 * v], min_[2 * v + 1]);
    }
  }

  void Remove(std::size_t p) {
    std::size_t v = leaves_ + p;
    min_[v] = kRemoved;
    for (v /= 2; v >= 1; v /= 2) {
      min_[v] = std::min(min_[2 * v], min_[2 * v + 1]);
    }
  }

  [[nodiscard]] std::size_t Find(std::size_t from, std::int64_t bound) const {
    return Find(1, 0, leaves_, from, bound);
  }

 private:
  [[nodiscard]] std::size_t Find(std::size_t v, std::size_t l, std::size_t r,
                                 std::size_t from, std::int64_t bound) const {
    if (r <= from || min_[v] >= bound) return kNotFound;
    if (r - l == 1) return l;
    const std::size_t mid = l + (r - l) / 2;
    const std::size_t left = Find(2 * v, l, mid, from, bound);
    return left != kNotFound ? left : Find(2 * v + 1, mid, r, from, bound);
  }

  std::size_t leaves_ = 1;
  std::vector<std::int64_t> min_;
};

/// A (tensor, object) pair found next to the interval of `anchor` (a tensor
/// already in `object`), on its right (`after`) or left side. `neighbor` is
/// anchor's neighbour on that side when the pair was computed (kNotFound for
/// none): once it changes, a fresher candidate for that side exists.
struct Candidate {
  std::uint64_t gap;
  std::uint64_t size;
  std::size_t tensor;
  std::size_t object;
  std::size_t anchor;
  std::size_t neighbor;
  bool after;
};

/// Priority: smallest gap, then larger tensor, then lower tensor index, then
/// lower object index. `Worse(a, b)` is true when b comes first.
struct Worse {
  bool operator()(const Candidate& a, const Candidate& b) const {
    if (a.gap != b.gap) return a.gap > b.gap;
    if (a.size != b.size) return a.size < b.size;
    if (a.tensor != b.tensor) return a.tensor > b.tensor;
    return a.object > b.object;
  }
};

class Improved {
 public:
  Improved(std::span<const TensorUsageRecord> records, std::uint64_t cap)
      : records_(records),
        work_(cap),
        assigned_(records.size(), false),
        first_pos_(records.size()),
        last_pos_(records.size()) {
    out_.object_of.assign(records.size(), 0);
  }

  SharedObjectsAssignment Run() {
    for (const std::vector<std::size_t>& stage : Stages()) RunStage(stage);
    return std::move(out_);
  }

 private:
  /// Stage of every record, as lists of record indices, in processing order.
  [[nodiscard]] std::vector<std::vector<std::size_t>> Stages() const {
    std::vector<std::uint64_t> maxima =
        SummarizeProfiles(records_).positional_maximums;
    maxima.erase(std::unique(maxima.begin(), maxima.end()), maxima.end());
    std::vector<std::vector<std::size_t>> stages(2 * maxima.size());
    for (std::size_t t = 0; t < records_.size(); ++t) {
      const std::uint64_t s = records_[t].size;
      // i = number of distinct maxima larger than s (maxima descending).
      const auto i = static_cast<std::size_t>(
          std::partition_point(maxima.begin(), maxima.end(),
                               [&](std::uint64_t v) { return v > s; }) -
          maxima.begin());
      const bool equal = i < maxima.size() && maxima[i] == s;
      // maxima[0] is the largest size, so i >= 1 whenever !equal.
      stages[equal ? 2 * i : 2 * i - 1].push_back(t);
    }
    return stages;
  }

  void RunStage(const std::vector<std::size_t>& stage) {
    if (stage.empty()) return;
    // Largest first, for new objects (and the bounded rule's order).
    std::vector<std::size_t> by_size = stage;
    std::sort(by_size.begin(), by_size.end(),
              [&](std::size_t a, std::size_t b) {
                if (records_[a].size != records_[b].size) {
                  return records_[a].size > records_[b].size;
                }
                return a < b;
              });
    // Seeding examines every stored interval: kSeedUnits each (a walk
    // through an ordered map and two heap pushes, several times the cost of
    // the other units once the maps outgrow the cache).
    if (work_.Spent() || !work_.Charge(kSeedUnits * placed_)) {
      Capped(by_size);
      return;
    }
    // Stage tensors by (first_op asc, size desc, index asc): the first one
    // right of an interval is the closest there.
    by_first_ = stage;
    std::sort(by_first_.begin(), by_first_.end(),
              [&](std::size_t a, std::size_t b) {
                const TensorUsageRecord& x = records_[a];
                const TensorUsageRecord& y = records_[b];
                if (x.first_op != y.first_op) return x.first_op < y.first_op;
                if (x.size != y.size) return x.size > y.size;
                return a < b;
              });
    // ... and by (last_op desc, size desc, index asc) for the left side.
    by_last_ = stage;
    std::sort(by_last_.begin(), by_last_.end(),
              [&](std::size_t a, std::size_t b) {
                const TensorUsageRecord& x = records_[a];
                const TensorUsageRecord& y = records_[b];
                if (x.last_op != y.last_op) return x.last_op > y.last_op;
                if (x.size != y.size) return x.size > y.size;
                return a < b;
              });
    std::vector<std::int64_t> lasts(stage.size());
    std::vector<std::int64_t> neg_firsts(stage.size());
    for (std::size_t p = 0; p < stage.size(); ++p) {
      first_pos_[by_first_[p]] = p;
      lasts[p] = records_[by_first_[p]].last_op;
      last_pos_[by_last_[p]] = p;
      neg_firsts[p] =
          -static_cast<std::int64_t>(records_[by_last_[p]].first_op);
    }
    first_tree_ = LeftmostBelow(lasts);
    last_tree_ = LeftmostBelow(neg_firsts);

    heap_.clear();  // keeps its storage: stages are many on dense inputs
    // Push(k, anchor, side) for both sides of every stored interval, with
    // the neighbours taken from the walk itself (no lookups: on dense
    // inputs this loop is most of the time).
    for (std::size_t k = 0; k < objects_.size(); ++k) {
      const ObjectInterval* prev = nullptr;
      for (auto it = objects_[k].begin(); it != objects_[k].end(); ++it) {
        const ObjectInterval& cur = it->second;
        const auto next = std::next(it);
        const ObjectInterval* after =
            next == objects_[k].end() ? nullptr : &next->second;
        PushKnown(k, cur, after, true);
        PushKnown(k, cur, prev, false);
        prev = &cur;
      }
    }
    std::size_t left = stage.size();
    std::size_t next_largest = 0;
    while (left > 0) {
      bool placed = false;
      while (!heap_.empty()) {
        if (!work_.Charge(1)) {  // one unit per candidate examined
          Capped(by_size);
          return;
        }
        std::pop_heap(heap_.begin(), heap_.end(), Worse{});
        const Candidate c = heap_.back();
        heap_.pop_back();
        if (Neighbor(c.object, c.anchor, c.after) != c.neighbor) continue;
        if (assigned_[c.tensor]) {
          Push(c.object, c.anchor, c.after);
          continue;
        }
        Assign(c.tensor, c.object);
        placed = true;
        break;
      }
      if (!placed) {
        while (assigned_[by_size[next_largest]]) ++next_largest;
        const std::size_t t = by_size[next_largest];
        objects_.emplace_back();
        out_.object_sizes.push_back(records_[t].size);
        Assign(t, objects_.size() - 1);
      }
      --left;
    }
  }

  /// The bounded rule once the work cap is spent: the stage's unassigned
  /// tensors in `by_size` order, each to the suitable object with the
  /// smallest time gap among the kCappedObjectCandidates newest objects
  /// (lower object index on ties), else to a new object.
  void Capped(const std::vector<std::size_t>& by_size) {
    if (out_.capped_after == SIZE_MAX) out_.capped_after = placed_;
    for (std::size_t t : by_size) {
      if (assigned_[t]) continue;
      const TensorUsageRecord& r = records_[t];
      std::size_t best = objects_.size();
      std::uint64_t best_gap = 0;
      const std::size_t stop =
          objects_.size() - std::min(objects_.size(), kCappedObjectCandidates);
      for (std::size_t k = stop; k < objects_.size(); ++k) {
        if (!objects_[k].IsFree(r.first_op, r.last_op)) continue;
        const std::uint64_t gap = objects_[k].Distance(r.first_op, r.last_op);
        if (best == objects_.size() || gap < best_gap) {
          best = k;
          best_gap = gap;
        }
      }
      if (best == objects_.size()) {
        objects_.emplace_back();
        out_.object_sizes.push_back(r.size);
      }
      assigned_[t] = true;
      objects_[best].Insert({r.first_op, r.last_op, t});
      out_.object_sizes[best] = std::max(out_.object_sizes[best], r.size);
      out_.object_of[t] = best;
      ++placed_;
    }
  }

  /// Anchor's neighbour in `object` on the given side, or kNotFound.
  [[nodiscard]] std::size_t Neighbor(std::size_t object, std::size_t anchor,
                                     bool after) const {
    const TensorUsageRecord& a = records_[anchor];
    const ObjectInterval* n = after ? objects_[object].After(a.last_op)
                                    : objects_[object].Before(a.first_op);
    return n == nullptr ? kNotFound : n->tensor;
  }

  /// Pushes the best unassigned stage tensor in the gap on one side of
  /// anchor's interval in `object`, if any.
  void Push(std::size_t object, std::size_t anchor, bool after) {
    const TensorUsageRecord& a = records_[anchor];
    const ObjectInterval* n = after ? objects_[object].After(a.last_op)
                                    : objects_[object].Before(a.first_op);
    PushKnown(object, {a.first_op, a.last_op, anchor}, n, after);
  }

  /// Push() with anchor's interval and its neighbour on that side
  /// (nullptr: none) already known.
  void PushKnown(std::size_t object, const ObjectInterval& a,
                 const ObjectInterval* n, bool after) {
    const std::size_t neighbor = n == nullptr ? kNotFound : n->tensor;
    std::size_t t = kNotFound;
    std::uint64_t gap = 0;
    if (after) {
      // first_op > a.last_op and last_op < neighbour.first_op.
      const std::int64_t bound = n == nullptr ? kRemoved : n->first_op;
      const auto from = static_cast<std::size_t>(
          std::partition_point(by_first_.begin(), by_first_.end(),
                               [&](std::size_t x) {
                                 return records_[x].first_op <= a.last_op;
                               }) -
          by_first_.begin());
      const std::size_t p = first_tree_.Find(from, bound);
      if (p == kNotFound) return;
      t = by_first_[p];
      gap = std::uint64_t{records_[t].first_op} - a.last_op;
    } else {
      // last_op < a.first_op and first_op > neighbour.last_op.
      const std::int64_t bound =
          n == nullptr ? kRemoved : -static_cast<std::int64_t>(n->last_op);
      const auto from = static_cast<std::size_t>(
          std::partition_point(by_last_.begin(), by_last_.end(),
                               [&](std::size_t x) {
                                 return records_[x].last_op >= a.first_op;
                               }) -
          by_last_.begin());
      const std::size_t p = last_tree_.Find(from, bound);
      if (p == kNotFound) return;
      t = by_last_[p];
      gap = std::uint64_t{a.first_op} - records_[t].last_op;
    }
    heap_.push_back(
        {gap, records_[t].size, t, object, a.tensor, neighbor, after});
    std::push_heap(heap_.begin(), heap_.end(), Worse{});
  }

  void Assign(std::size_t t, std::size_t object) {
    const TensorUsageRecord& r = records_[t];
    assigned_[t] = true;
    first_tree_.Remove(first_pos_[t]);
    last_tree_.Remove(last_pos_[t]);
    objects_[object].Insert({r.first_op, r.last_op, t});
    out_.object_sizes[object] = std::max(out_.object_sizes[object], r.size);
    out_.object_of[t] = object;
    ++placed_;
    // The gaps that changed: both sides of t, and the sides of its new
    // neighbours that face it.
    Push(object, t, true);
    Push(object, t, false);
    const std::size_t before = Neighbor(object, t, false);
    if (before != kNotFound) Push(object, before, true);
    const std::size_t after = Neighbor(object, t, true);
    if (after != kNotFound) Push(object, after, false);
  }

  std::span<const TensorUsageRecord> records_;
  WorkCap work_;
  std::size_t placed_ = 0;  // tensors assigned so far
  SharedObjectsAssignment out_;
  std::vector<ObjectIntervals> objects_;
  std::vector<bool> assigned_;
  std::vector<std::size_t> first_pos_, last_pos_;
  std::vector<std::size_t> by_first_, by_last_;
  LeftmostBelow first_tree_{{}};
  LeftmostBelow last_tree_{{}};
  /// Candidates, a binary max-heap under Worse (std::push_heap/pop_heap,
  /// as std::priority_queue keeps it, but cleared without freeing).
  std::vector<Candidate> heap_;
};

}  // namespace

/// §4.4 in O(s n log n) for s non-empty stages (s <= 2k for k objects; on
/// dense inputs with many distinct sizes s = Theta(n), so Theta(n^2 log n)
/// there without the work cap, see strategies_bench, dense/): each
/// stage seeds one candidate per side of every stored interval, and each
/// assignment refreshes the O(1) gaps it changes. A candidate whose tensor
/// was taken meanwhile is recomputed lazily when it surfaces.
/// Ties: smallest gap, then larger tensor, then lower tensor index, then
/// lower object index; a new object goes to the largest unassigned tensor of
/// the stage (lower index among equal sizes).
SharedObjectsAssignment SharedObjectsGreedyBySizeImprovedWithCap(
    std::span<const TensorUsageRecord> records, std::uint64_t cap) {
  return Improved(records, cap).Run();
}

SharedObjectsAssignment SharedObjectsGreedyBySizeImproved(
    std::span<const TensorUsageRecord> records) {
  return SharedObjectsGreedyBySizeImprovedWithCap(
      records, HeuristicWorkCap(records.size()));
}

}  // namespace arenaplan
