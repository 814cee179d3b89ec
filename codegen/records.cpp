// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
#include "codegen/records.hpp"

#include <algorithm>
#include <limits>
#include <numeric>
#include <tuple>

namespace arenaplan {
namespace {

/// Range-add, global-maximum segment tree over segment indices [0, n).
class MaxCountTree {
 public:
  explicit MaxCountTree(std::size_t n)
      : n_(n), max_(4 * n + 4, 0), add_(4 * n + 4, 0) {}

  /// Adds 1 to every segment in the inclusive range [lo, hi].
  void AddOne(std::size_t lo, std::size_t hi) { Add(1, 0, n_ - 1, lo, hi); }

  [[nodiscard]] std::uint64_t GlobalMax() const {
    return n_ == 0 ? 0 : max_[1];
  }

 private:
  void Add(std::size_t node, std::size_t l, std::size_t r, std::size_t lo,
           std::size_t hi) {
    if (hi < l || r < lo) return;
    if (lo <= l && r <= hi) {
      ++max_[node];
      ++add_[node];
      return;
    }
    const std::size_t mid = l + (r - l) / 2;
    Add(2 * node, l, mid, lo, hi);
    Add(2 * node + 1, mid + 1, r, lo, hi);
    max_[node] = add_[node] + std::max(max_[2 * node], max_[2 * node + 1]);
  }

  std::size_t n_;
  std::vector<std::uint64_t> max_;
  std::vector<std::uint64_t> add_;
};

}  // namespace

TimeSegments CutIntoSegments(std::span<const TensorUsageRecord> records) {
  TimeSegments out;
  if (records.empty()) return out;
  // Breakpoints: every first_op and every last_op + 1 (64-bit: no overflow).
  out.cuts.reserve(2 * records.size());
  for (const TensorUsageRecord& r : records) {
    out.cuts.push_back(r.first_op);
    out.cuts.push_back(std::uint64_t{r.last_op} + 1);
  }
  std::sort(out.cuts.begin(), out.cuts.end());
  out.cuts.erase(std::unique(out.cuts.begin(), out.cuts.end()), out.cuts.end());
  auto index_of = [&](std::uint64_t cut) {
    return static_cast<std::uint32_t>(
        std::lower_bound(out.cuts.begin(), out.cuts.end(), cut) -
        out.cuts.begin());
  };
  out.first.resize(records.size());
  out.end.resize(records.size());
  for (std::size_t i = 0; i < records.size(); ++i) {
    out.first[i] = index_of(records[i].first_op);
    out.end[i] = index_of(std::uint64_t{records[i].last_op} + 1);
  }
  return out;
}

std::vector<std::size_t> IndicesBySizeDescending(
    std::span<const TensorUsageRecord> records) {
  std::vector<std::size_t> order(records.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) {
                     return records[a].size > records[b].size;
                   });
  return order;
}

std::vector<std::size_t> IndicesByFirstOp(
    std::span<const TensorUsageRecord> records) {
  std::vector<std::size_t> order(records.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) {
                     return records[a].first_op < records[b].first_op;
                   });
  return order;
}

ProfileSummary SummarizeProfiles(std::span<const TensorUsageRecord> records) {
  ProfileSummary out;
  if (records.empty()) return out;

  const TimeSegments time = CutIntoSegments(records);
  const std::size_t segments = time.Count();
  const std::vector<std::uint64_t>& cuts = time.cuts;

  // Operator breadth per segment through a difference array.
  std::vector<std::uint64_t> diff(segments + 1, 0);
  std::vector<std::size_t> lo(records.size()), hi(records.size());
  for (std::size_t i = 0; i < records.size(); ++i) {
    lo[i] = time.first[i];
    hi[i] = time.end[i] - 1;
    diff[lo[i]] += records[i].size;
    diff[hi[i] + 1] -= records[i].size;  // wraps, and wraps back when summed
    out.naive_bytes += records[i].size;
  }
  out.segment_first_op.resize(segments);
  out.segment_last_op.resize(segments);
  out.segment_breadth.resize(segments);
  std::uint64_t running = 0;
  for (std::size_t s = 0; s < segments; ++s) {
    running += diff[s];
    out.segment_first_op[s] = static_cast<std::uint32_t>(cuts[s]);
    out.segment_last_op[s] = static_cast<std::uint32_t>(cuts[s + 1] - 1);
    out.segment_breadth[s] = running;
    out.offsets_lower_bound = std::max(out.offsets_lower_bound, running);
  }

  // Positional maximums: the i-th one is the largest size v such that some
  // profile holds at least i records of size >= v. Insert records by
  // non-increasing size; whenever the largest profile count grows to i, the
  // record just inserted sets the i-th positional maximum.
  const std::vector<std::size_t> order = IndicesBySizeDescending(records);
  MaxCountTree counts(segments);
  for (std::size_t i : order) {
    counts.AddOne(lo[i], hi[i]);
    while (out.positional_maximums.size() < counts.GlobalMax()) {
      out.positional_maximums.push_back(records[i].size);
      out.shared_objects_lower_bound += records[i].size;
    }
  }
  return out;
}

std::uint64_t OverlapSavings(std::span<const TensorUsageRecord> records,
                             const OverlapPair& pair) {
  const TensorUsageRecord& in = records[pair.input];
  const TensorUsageRecord& out = records[pair.output];
  if (pair.relation == OverlapRelation::kAlias) {
    return in.size == out.size ? in.size : 0;
  }
  if (pair.distance >= out.size) return 0;
  return std::min(out.size - pair.distance, in.size);
}

std::uint64_t OverlapLowerBound(std::span<const TensorUsageRecord> records,
                                std::span<const OverlapPair> overlaps,
                                const ProfileSummary& summary) {
  if (overlaps.empty()) return summary.offsets_lower_bound;
  // The largest savings of every distinct tensor pair, by operator. A pair
  // at operator k has its input end at k and its output start at k, so k
  // is a segment of its own (a cut at k and at k + 1).
  struct Saving {
    std::uint32_t op;
    std::uint32_t a;  ///< min(input, output)
    std::uint32_t b;  ///< max(input, output)
    std::uint64_t bytes;
    std::uint64_t largest;  ///< the larger of the two sizes
  };
  std::vector<Saving> savings;
  savings.reserve(overlaps.size());
  for (const OverlapPair& p : overlaps) {
    savings.push_back(
        {p.op, std::min(p.input, p.output), std::max(p.input, p.output),
         OverlapSavings(records, p),
         std::max(records[p.input].size, records[p.output].size)});
  }
  std::sort(savings.begin(), savings.end(),
            [](const Saving& x, const Saving& y) {
              return std::tie(x.op, x.a, x.b, x.bytes) >
                     std::tie(y.op, y.a, y.b, y.bytes);
            });
  // Per operator: S(k) over distinct tensor pairs (the first of each run
  // has the largest savings) and the largest tensor of its pairs.
  std::uint64_t bound = 0;
  std::vector<bool> has_pair(summary.segment_breadth.size(), false);
  for (std::size_t i = 0; i < savings.size();) {
    const std::uint32_t op = savings[i].op;
    std::uint64_t saved = 0;
    std::uint64_t largest = 0;
    const std::size_t first = i;
    for (; i < savings.size() && savings[i].op == op; ++i) {
      largest = std::max(largest, savings[i].largest);
      if (i == first || savings[i].a != savings[i - 1].a ||
          savings[i].b != savings[i - 1].b) {
        // Saturating: the sum may pass 2^64 only when it exceeds the
        // breadth anyway.
        saved =
            savings[i].bytes > std::numeric_limits<std::uint64_t>::max() - saved
                ? std::numeric_limits<std::uint64_t>::max()
                : saved + savings[i].bytes;
      }
    }
    // The segment holding op (segments are sorted by first operator).
    const auto it = std::upper_bound(summary.segment_first_op.begin(),
                                     summary.segment_first_op.end(), op);
    if (it == summary.segment_first_op.begin()) continue;
    const auto s =
        static_cast<std::size_t>(it - summary.segment_first_op.begin()) - 1;
    if (op > summary.segment_last_op[s]) continue;  // no record alive at op
    const std::uint64_t breadth = summary.segment_breadth[s];
    std::uint64_t here = breadth > saved ? breadth - saved : 0;
    here = std::max(here, largest);
    if (summary.segment_first_op[s] == summary.segment_last_op[s]) {
      has_pair[s] = true;
      bound = std::max(bound, here);
    } else {
      // Not a segment of one operator: the pairs were not well formed;
      // the plain breadth stays the bound there.
      bound = std::max(bound, breadth);
    }
  }
  for (std::size_t s = 0; s < summary.segment_breadth.size(); ++s) {
    if (!has_pair[s]) bound = std::max(bound, summary.segment_breadth[s]);
  }
  return bound;
}

}  // namespace arenaplan
