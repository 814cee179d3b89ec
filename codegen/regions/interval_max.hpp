// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// Two segment trees over the operators 0..count-1 of a problem, used by the
// region assignment (codegen/regions/regions.cpp) to decide in O(log count)
// whether a tensor still fits a region: IntervalAddMax holds the bytes live
// at each operator (a region's breadth profile), IntervalChmaxMax the top
// of a region's placed tensors at each operator (its skyline). Operator
// ranges [first, last] include both ends.
#ifndef ARENAPLAN_CODEGEN_REGIONS_INTERVAL_MAX_HPP_
#define ARENAPLAN_CODEGEN_REGIONS_INTERVAL_MAX_HPP_

#include <cstddef>
#include <cstdint>
#include <vector>

namespace arenaplan {

/// Values v[0..count-1], all 0 at first; Add(first, last, x) adds x to
/// v[first..last], Max(first, last) is max(v[first..last]). Sums saturate
/// at 2^64 - 1.
class IntervalAddMax {
 public:
  explicit IntervalAddMax(std::size_t count);
  void Add(std::size_t first, std::size_t last, std::uint64_t x);
  [[nodiscard]] std::uint64_t Max(std::size_t first, std::size_t last) const;

 private:
  void Add(std::size_t node, std::size_t lo, std::size_t hi, std::size_t first,
           std::size_t last, std::uint64_t x);
  std::uint64_t Max(std::size_t node, std::size_t lo, std::size_t hi,
                    std::size_t first, std::size_t last) const;
  std::size_t count_;
  std::vector<std::uint64_t> max_;  ///< Subtree maximum, own add included.
  std::vector<std::uint64_t> add_;  ///< Added to the whole subtree.
};

/// Values v[0..count-1], all 0 at first; Raise(first, last, x) sets
/// v[k] = max(v[k], x) for k in first..last, Max(first, last) is
/// max(v[first..last]).
class IntervalChmaxMax {
 public:
  explicit IntervalChmaxMax(std::size_t count);
  void Raise(std::size_t first, std::size_t last, std::uint64_t x);
  [[nodiscard]] std::uint64_t Max(std::size_t first, std::size_t last) const;

 private:
  void Raise(std::size_t node, std::size_t lo, std::size_t hi,
             std::size_t first, std::size_t last, std::uint64_t x);
  std::uint64_t Max(std::size_t node, std::size_t lo, std::size_t hi,
                    std::size_t first, std::size_t last) const;
  std::size_t count_;
  std::vector<std::uint64_t> max_;    ///< Subtree maximum, own floor included.
  std::vector<std::uint64_t> floor_;  ///< Raised to over the whole subtree.
};

}  // namespace arenaplan

#endif  // ARENAPLAN_CODEGEN_REGIONS_INTERVAL_MAX_HPP_
