// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// Greedy by Breadth for Shared Objects (Pisarchyk & Lee 2019, §4.2, Alg. 1).
// Operators are visited in non-increasing order of breadth; the not yet
// assigned tensors of each operator's profile are assigned largest first.
//
// Work cap (common/work_cap.hpp): one unit per object examined. While
// HeuristicWorkCap(n) holds, this is Alg. 1 exactly. Once it is spent, each
// remaining tensor (same order) examines at most kCappedObjectCandidates
// (128) objects of size >= its own, smallest first, and takes the first
// suitable one; else at most 128 smaller ones, largest first, and takes the
// largest suitable one (which grows); else a new object. O(log n) per
// tensor. capped_after counts the tensors placed by the exact rule.
#include <algorithm>
#include <cstdint>
#include <numeric>
#include <set>
#include <utility>
#include <vector>

#include "codegen/strategies/common/object_intervals.hpp"
#include "codegen/strategies/common/work_cap.hpp"
#include "codegen/strategies/strategies.hpp"
#include "codegen/strategies/strategy.hpp"

namespace arenaplan {
namespace {

/// Max segment tree over records sorted by their first segment, holding each
/// record's last segment; removing a record stores -1. Reports, and removes,
/// the records alive in a given segment in O((r + 1) log n) for r reports.
class AliveRecords {
 public:
  AliveRecords(std::vector<std::size_t> by_lo, std::vector<std::int64_t> lo,
               std::vector<std::int64_t> hi)
      : by_lo_(std::move(by_lo)), lo_(std::move(lo)), size_(by_lo_.size()) {
    while (leaves_ < size_) leaves_ *= 2;
    max_hi_.assign(2 * leaves_, -1);
    for (std::size_t p = 0; p < size_; ++p) {
      max_hi_[leaves_ + p] = hi[by_lo_[p]];
    }
    for (std::size_t v = leaves_; v-- > 1;) {
      max_hi_[v] = std::max(max_hi_[2 * v], max_hi_[2 * v + 1]);
    }
  }

  /// Appends to `out` every remaining record r with lo[r] <= s <= hi[r] and
  /// removes them.
  void TakeAlive(std::int64_t s, std::vector<std::size_t>& out) {
    // Records with lo <= s occupy the positions [0, prefix).
    const std::size_t prefix = static_cast<std::size_t>(
        std::upper_bound(
            by_lo_.begin(), by_lo_.end(), s,
            [&](std::int64_t v, std::size_t r) { return v < lo_[r]; }) -
        by_lo_.begin());
    Take(1, 0, leaves_, prefix, s, out);
  }

 private:
  void Take(std::size_t v, std::size_t l, std::size_t r, std::size_t prefix,
            std::int64_t s, std::vector<std::size_t>& out) {
    if (l >= prefix || max_hi_[v] < s) return;
    if (r - l == 1) {
      out.push_back(by_lo_[l]);
      max_hi_[v] = -1;
      return;
    }
    const std::size_t mid = l + (r - l) / 2;
    Take(2 * v, l, mid, prefix, s, out);
    Take(2 * v + 1, mid, r, prefix, s, out);
    max_hi_[v] = std::max(max_hi_[2 * v], max_hi_[2 * v + 1]);
  }

  std::vector<std::size_t> by_lo_;
  std::vector<std::int64_t> lo_;
  std::size_t size_;
  std::size_t leaves_ = 1;
  std::vector<std::int64_t> max_hi_;
};

/// Objects by (size, creation index), the order of Alg. 1's preference.
using BySize = std::set<std::pair<std::uint64_t, std::size_t>>;

/// The object L.9-25 choose for `r`, or objects.size() (NIL), found without
/// scanning every object: the suitable objects of size >= r.size in
/// ascending (size, index) order, the first one met; else the suitable
/// objects below r.size in descending size order, the earliest created of
/// the largest size met. Examines at most `limit` objects on each side; with
/// `work`, charges one unit per object examined and returns NIL as soon as
/// the cap is spent.
std::size_t Choose(const TensorUsageRecord& r, const BySize& by_size,
                   const std::vector<ObjectIntervals>& objects, WorkCap* work,
                   std::size_t limit) {
  const std::size_t nil = objects.size();
  auto examine = [&](std::size_t k) {
    if (work != nullptr && !work->Charge(1)) return false;
    return objects[k].IsFree(r.first_op, r.last_op);
  };
  auto spent = [&] { return work != nullptr && work->Spent(); };
  const auto split = by_size.lower_bound({r.size, 0});
  std::size_t seen = 0;
  for (auto it = split; it != by_size.end() && seen < limit; ++it, ++seen) {
    if (examine(it->second)) return it->second;  // L.11-17, L.24-25
    if (spent()) return nil;
  }
  // Descending (size, index): within one size the earliest created object
  // comes last, so the scan goes on to the end of the first size that has a
  // suitable object.
  std::size_t best = nil;
  std::uint64_t best_size = 0;
  seen = 0;
  for (auto it = split; it != by_size.begin() && seen < limit; ++seen) {
    --it;
    if (best != nil && it->first != best_size) break;
    if (examine(it->second)) {
      best = it->second;
      best_size = it->first;
    }
    if (spent()) return nil;
  }
  return best;
}

}  // namespace

/// Alg. 1 with the per-object interval sets of §4.2 and the objects kept
/// by size: O(k n log n) for n records and k objects (plus O(n log n) to
/// enumerate profiles). On dense inputs k = Theta(n), so Theta(n^2 log n)
/// there without the work cap (strategies_bench, dense/).
///
/// Operators (L.4-5): the segments of SummarizeProfiles() (maximal runs of
/// operators with identical profiles) in order (breadth non-increasing,
/// segment index). Visiting operators by (breadth non-increasing, operator
/// index) gives the same result: the first operator of a segment met in that
/// order assigns the whole profile, and its other operators find nothing
/// left to do (L.7-8).
/// Inside a profile (L.6): size non-increasing, then input index.
/// Object choice: what L.11-17 and L.24-25 give scanning objects in creation
/// order (found by Choose() in size order instead): the smallest suitable
/// object at least as large as the tensor (the earliest created among equal
/// sizes); if none, the largest suitable object (the earliest among equal
/// sizes), which grows to the tensor's size (L.29-30); if none is suitable, a
/// new object (L.26-28).
SharedObjectsAssignment SharedObjectsGreedyByBreadthWithCap(
    std::span<const TensorUsageRecord> records, std::uint64_t cap) {
  const std::size_t n = records.size();
  SharedObjectsAssignment out;
  out.object_of.assign(n, 0);
  if (n == 0) return out;

  const ProfileSummary summary = SummarizeProfiles(records);
  const auto& seg_first = summary.segment_first_op;
  auto segment_of = [&](std::uint32_t op) {
    return static_cast<std::int64_t>(
        std::upper_bound(seg_first.begin(), seg_first.end(), op) -
        seg_first.begin() - 1);
  };
  std::vector<std::int64_t> lo(n), hi(n);
  for (std::size_t i = 0; i < n; ++i) {
    lo[i] = segment_of(records[i].first_op);
    hi[i] = segment_of(records[i].last_op);
  }
  std::vector<std::size_t> by_lo(n);
  std::iota(by_lo.begin(), by_lo.end(), std::size_t{0});
  std::stable_sort(by_lo.begin(), by_lo.end(),
                   [&](std::size_t a, std::size_t b) { return lo[a] < lo[b]; });
  AliveRecords alive(std::move(by_lo), lo, hi);

  std::vector<std::size_t> segments(summary.segment_breadth.size());
  std::iota(segments.begin(), segments.end(), std::size_t{0});
  std::stable_sort(
      segments.begin(), segments.end(), [&](std::size_t a, std::size_t b) {
        return summary.segment_breadth[a] > summary.segment_breadth[b];
      });

  std::vector<ObjectIntervals> objects;
  BySize by_size;
  WorkCap work(cap);
  std::size_t placed = 0;  // tensors assigned so far
  std::vector<std::size_t> profile;
  for (std::size_t s : segments) {
    if (summary.segment_breadth[s] == 0) break;  // empty profiles remain
    profile.clear();
    alive.TakeAlive(static_cast<std::int64_t>(s), profile);
    std::sort(profile.begin(), profile.end(),
              [&](std::size_t a, std::size_t b) {
                if (records[a].size != records[b].size) {
                  return records[a].size > records[b].size;
                }
                return a < b;
              });
    for (std::size_t t : profile) {
      const TensorUsageRecord& r = records[t];
      std::size_t best = objects.size();  // NIL
      if (!work.Spent()) {
        best = Choose(r, by_size, objects, &work, SIZE_MAX);
        if (work.Spent()) out.capped_after = placed;
      }
      if (work.Spent()) {
        best = Choose(r, by_size, objects, nullptr, kCappedObjectCandidates);
      }
      if (best == objects.size()) {  // L.26-28
        objects.emplace_back();
        out.object_sizes.push_back(r.size);
        by_size.emplace(r.size, best);
      } else if (out.object_sizes[best] < r.size) {  // L.29-30
        by_size.erase({out.object_sizes[best], best});
        out.object_sizes[best] = r.size;
        by_size.emplace(r.size, best);
      }
      objects[best].Insert({r.first_op, r.last_op, t});
      out.object_of[t] = best;  // L.31
      ++placed;
    }
  }
  return out;
}

SharedObjectsAssignment SharedObjectsGreedyByBreadth(
    std::span<const TensorUsageRecord> records) {
  return SharedObjectsGreedyByBreadthWithCap(records,
                                             HeuristicWorkCap(records.size()));
}

}  // namespace arenaplan
