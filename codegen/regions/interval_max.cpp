// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
#include "codegen/regions/interval_max.hpp"

#include <algorithm>
#include <limits>

namespace arenaplan {
namespace {

std::uint64_t SaturatingAdd(std::uint64_t a, std::uint64_t b) {
  return a > std::numeric_limits<std::uint64_t>::max() - b
             ? std::numeric_limits<std::uint64_t>::max()
             : a + b;
}

}  // namespace

// Both trees: node 1 covers [0, count-1], node k's children 2k and 2k+1
// cover the halves; 4 x count nodes suffice.
IntervalAddMax::IntervalAddMax(std::size_t count)
    : count_(count),
      max_(4 * std::max<std::size_t>(count, 1), 0),
      add_(4 * std::max<std::size_t>(count, 1), 0) {}

void IntervalAddMax::Add(std::size_t first, std::size_t last, std::uint64_t x) {
  if (count_ == 0 || first > last || first >= count_) return;
  Add(1, 0, count_ - 1, first, std::min(last, count_ - 1), x);
}

std::uint64_t IntervalAddMax::Max(std::size_t first, std::size_t last) const {
  if (count_ == 0 || first > last || first >= count_) return 0;
  return Max(1, 0, count_ - 1, first, std::min(last, count_ - 1));
}

void IntervalAddMax::Add(std::size_t node, std::size_t lo, std::size_t hi,
                         std::size_t first, std::size_t last, std::uint64_t x) {
  if (last < lo || hi < first) return;
  if (first <= lo && hi <= last) {
    add_[node] = SaturatingAdd(add_[node], x);
    max_[node] = SaturatingAdd(max_[node], x);
    return;
  }
  const std::size_t mid = lo + (hi - lo) / 2;
  Add(2 * node, lo, mid, first, last, x);
  Add(2 * node + 1, mid + 1, hi, first, last, x);
  max_[node] =
      SaturatingAdd(add_[node], std::max(max_[2 * node], max_[2 * node + 1]));
}

std::uint64_t IntervalAddMax::Max(std::size_t node, std::size_t lo,
                                  std::size_t hi, std::size_t first,
                                  std::size_t last) const {
  if (last < lo || hi < first) return 0;
  if (first <= lo && hi <= last) return max_[node];
  const std::size_t mid = lo + (hi - lo) / 2;
  return SaturatingAdd(add_[node],
                       std::max(Max(2 * node, lo, mid, first, last),
                                Max(2 * node + 1, mid + 1, hi, first, last)));
}

IntervalChmaxMax::IntervalChmaxMax(std::size_t count)
    : count_(count),
      max_(4 * std::max<std::size_t>(count, 1), 0),
      floor_(4 * std::max<std::size_t>(count, 1), 0) {}

void IntervalChmaxMax::Raise(std::size_t first, std::size_t last,
                             std::uint64_t x) {
  if (count_ == 0 || first > last || first >= count_) return;
  Raise(1, 0, count_ - 1, first, std::min(last, count_ - 1), x);
}

std::uint64_t IntervalChmaxMax::Max(std::size_t first, std::size_t last) const {
  if (count_ == 0 || first > last || first >= count_) return 0;
  return Max(1, 0, count_ - 1, first, std::min(last, count_ - 1));
}

void IntervalChmaxMax::Raise(std::size_t node, std::size_t lo, std::size_t hi,
                             std::size_t first, std::size_t last,
                             std::uint64_t x) {
  if (last < lo || hi < first) return;
  max_[node] = std::max(max_[node], x);
  if (first <= lo && hi <= last) {
    floor_[node] = std::max(floor_[node], x);
    return;
  }
  const std::size_t mid = lo + (hi - lo) / 2;
  Raise(2 * node, lo, mid, first, last, x);
  Raise(2 * node + 1, mid + 1, hi, first, last, x);
}

std::uint64_t IntervalChmaxMax::Max(std::size_t node, std::size_t lo,
                                    std::size_t hi, std::size_t first,
                                    std::size_t last) const {
  if (last < lo || hi < first) return 0;
  if (first <= lo && hi <= last) return max_[node];
  const std::size_t mid = lo + (hi - lo) / 2;
  return std::max({floor_[node], Max(2 * node, lo, mid, first, last),
                   Max(2 * node + 1, mid + 1, hi, first, last)});
}

}  // namespace arenaplan
