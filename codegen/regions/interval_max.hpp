// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// Two segment trees over the operators 0..count-1 of a problem, used by the
// region assignment (codegen/regions/region_fit.cpp) to decide in
// O(log count) whether a tensor still fits a region: IntervalAddMax holds
// the bytes live at each operator (a region's breadth profile),
// IntervalChmaxMax the top of a region's placed tensors at each operator
// (its skyline). Operator ranges [first, last] include both ends.
#ifndef ARENAPLAN_CODEGEN_REGIONS_INTERVAL_MAX_HPP_
#define ARENAPLAN_CODEGEN_REGIONS_INTERVAL_MAX_HPP_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

namespace arenaplan {

/// Values v[0..count-1], all 0 at first; Apply(first, last, x) sets
/// v[k] = Op::Combine(v[k], x) for k in first..last, Max(first, last) is
/// max(v[first..last]). Op::Combine must be monotone and distribute over
/// max (a saturating sum and max both do), so that a subtree's pending
/// value combined with its children's maximum is its maximum.
/// Node 1 covers [0, count-1]; node k's children 2k and 2k+1 cover the
/// halves; 4 x count nodes suffice, and a tree of count 0 has none (every
/// public call returns before reading a node).
template <class Op>
class LazyMaxTree {
 public:
  explicit LazyMaxTree(std::size_t count)
      : count_(count), max_(4 * count, 0), pending_(4 * count, 0) {}

  void Apply(std::size_t first, std::size_t last, std::uint64_t x) {
    if (count_ == 0 || first > last || first >= count_) return;
    Apply(1, 0, count_ - 1, first, std::min(last, count_ - 1), x);
  }

  [[nodiscard]] std::uint64_t Max(std::size_t first, std::size_t last) const {
    if (count_ == 0 || first > last || first >= count_) return 0;
    return Max(1, 0, count_ - 1, first, std::min(last, count_ - 1));
  }

 private:
  void Apply(std::size_t node, std::size_t lo, std::size_t hi,
             std::size_t first, std::size_t last, std::uint64_t x) {
    if (last < lo || hi < first) return;
    if (first <= lo && hi <= last) {
      pending_[node] = Op::Combine(pending_[node], x);
      max_[node] = Op::Combine(max_[node], x);
      return;
    }
    const std::size_t mid = lo + (hi - lo) / 2;
    Apply(2 * node, lo, mid, first, last, x);
    Apply(2 * node + 1, mid + 1, hi, first, last, x);
    max_[node] = Op::Combine(pending_[node],
                             std::max(max_[2 * node], max_[2 * node + 1]));
  }

  std::uint64_t Max(std::size_t node, std::size_t lo, std::size_t hi,
                    std::size_t first, std::size_t last) const {
    if (last < lo || hi < first) return 0;
    if (first <= lo && hi <= last) return max_[node];
    const std::size_t mid = lo + (hi - lo) / 2;
    return Op::Combine(pending_[node],
                       std::max(Max(2 * node, lo, mid, first, last),
                                Max(2 * node + 1, mid + 1, hi, first, last)));
  }

  std::size_t count_;
  std::vector<std::uint64_t> max_;  ///< Subtree maximum, own pending included.
  std::vector<std::uint64_t> pending_;  ///< Applied to the whole subtree.
};

/// A sum that saturates at 2^64 - 1.
struct SaturatingAddOp {
  static std::uint64_t Combine(std::uint64_t a, std::uint64_t b) {
    return a > std::numeric_limits<std::uint64_t>::max() - b
               ? std::numeric_limits<std::uint64_t>::max()
               : a + b;
  }
};

struct MaxOp {
  static std::uint64_t Combine(std::uint64_t a, std::uint64_t b) {
    return std::max(a, b);
  }
};

/// Add(first, last, x) adds x to v[first..last]; sums saturate.
class IntervalAddMax : public LazyMaxTree<SaturatingAddOp> {
 public:
  using LazyMaxTree::LazyMaxTree;
  void Add(std::size_t first, std::size_t last, std::uint64_t x) {
    Apply(first, last, x);
  }
};

/// Raise(first, last, x) sets v[k] = max(v[k], x) for k in first..last.
class IntervalChmaxMax : public LazyMaxTree<MaxOp> {
 public:
  using LazyMaxTree::LazyMaxTree;
  void Raise(std::size_t first, std::size_t last, std::uint64_t x) {
    Apply(first, last, x);
  }
};

}  // namespace arenaplan

#endif  // ARENAPLAN_CODEGEN_REGIONS_INTERVAL_MAX_HPP_
