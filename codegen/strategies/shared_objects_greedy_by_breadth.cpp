// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// Greedy by Breadth for Shared Objects (Pisarchyk & Lee 2019, §4.2, Alg. 1).
// Operators are visited in non-increasing order of breadth; the not yet
// assigned tensors of each operator's profile are assigned largest first.
#include <algorithm>
#include <cstdint>
#include <numeric>
#include <utility>
#include <vector>

#include "codegen/strategies/common/object_intervals.hpp"
#include "codegen/strategy.hpp"

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

}  // namespace

/// Alg. 1 with the per-object interval sets of §4.2: O(k n log n) for n
/// records and k objects (plus O(n log n) to enumerate profiles). On dense
/// inputs k = Theta(n), so Theta(n^2 log n) there (strategies_bench,
/// dense/).
///
/// Operators (L.4-5): the segments of SummarizeProfiles() (maximal runs of
/// operators with identical profiles) in order (breadth non-increasing,
/// segment index). Visiting operators by (breadth non-increasing, operator
/// index) gives the same result: the first operator of a segment met in that
/// order assigns the whole profile, and its other operators find nothing
/// left to do (L.7-8).
/// Inside a profile (L.6): size non-increasing, then input index.
/// Object choice: L.11-17 and L.24-25 literally, objects in creation order:
/// the smallest suitable object at least as large as the tensor (the
/// earliest created among equal sizes); if none, the largest suitable object
/// (the earliest among equal sizes), which grows to the tensor's size
/// (L.29-30); if none is suitable, a new object (L.26-28).
SharedObjectsAssignment SharedObjectsGreedyByBreadth(
    std::span<const TensorUsageRecord> records) {
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
      for (std::size_t k = 0; k < objects.size(); ++k) {
        const std::uint64_t obj_size = out.object_sizes[k];
        bool is_better = true;  // L.11-17
        if (best != objects.size()) {
          const std::uint64_t best_size = out.object_sizes[best];
          if (best_size < r.size) {
            if (obj_size <= best_size) is_better = false;
          } else if (obj_size >= best_size || obj_size < r.size) {
            is_better = false;
          }
        }
        if (is_better && objects[k].IsFree(r.first_op, r.last_op)) {
          best = k;  // L.24-25
        }
      }
      if (best == objects.size()) {  // L.26-28
        objects.emplace_back();
        out.object_sizes.push_back(r.size);
      } else {  // L.29-30
        out.object_sizes[best] = std::max(out.object_sizes[best], r.size);
      }
      objects[best].Insert({r.first_op, r.last_op, t});
      out.object_of[t] = best;  // L.31
    }
  }
  return out;
}

}  // namespace arenaplan
