// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// Straightforward references for the Offset Calculation strategies' tests:
// Alg. 3 as printed (O(n^2)), the arena of a plan, max operator breadth
// computed operator by operator, and a pairwise overlap check. Independent
// of codegen/strategies.
#ifndef ARENAPLAN_TESTS_HOST_SUPPORT_OFFSETS_REFERENCE_HPP_
#define ARENAPLAN_TESTS_HOST_SUPPORT_OFFSETS_REFERENCE_HPP_

#include <algorithm>
#include <cstdint>
#include <limits>
#include <numeric>
#include <vector>

#include "codegen/records.hpp"

namespace arenaplan::offsets_reference {

using Records = std::vector<TensorUsageRecord>;
using Offsets = std::vector<std::uint64_t>;

inline TensorUsageRecord R(std::uint32_t first, std::uint32_t last,
                           std::uint64_t size) {
  return TensorUsageRecord{first, last, size};
}

inline std::uint64_t Arena(const Records& records, const Offsets& offsets) {
  std::uint64_t arena = 0;
  for (std::size_t i = 0; i < records.size(); ++i) {
    arena = std::max(arena, offsets[i] + records[i].size);
  }
  return arena;
}

/// Max operator breadth, computed operator by operator.
inline std::uint64_t MaxBreadth(const Records& records) {
  std::uint64_t best = 0;
  std::uint32_t hi = 0;
  for (const auto& r : records) hi = std::max(hi, r.last_op);
  for (std::uint32_t op = 0; op <= hi && !records.empty(); ++op) {
    std::uint64_t b = 0;
    for (const auto& r : records) {
      if (r.first_op <= op && op <= r.last_op) b += r.size;
    }
    best = std::max(best, b);
  }
  return best;
}

/// True when no two time-intersecting records share a byte.
inline bool NoOverlap(const Records& records, const Offsets& offsets) {
  if (offsets.size() != records.size()) return false;
  for (std::size_t i = 0; i < records.size(); ++i) {
    for (std::size_t j = i + 1; j < records.size(); ++j) {
      const bool time = records[i].first_op <= records[j].last_op &&
                        records[j].first_op <= records[i].last_op;
      const bool space = offsets[i] < offsets[j] + records[j].size &&
                         offsets[j] < offsets[i] + records[i].size;
      if (time && space) return false;
    }
  }
  return true;
}

/// Alg. 3 L.6-23 as printed, for records taken in `order`: scan every
/// allocated record, kept in non-decreasing offset order (a new record goes
/// after those with an equal offset).
inline Offsets ReferenceGapPlacement(const Records& records,
                                     const std::vector<std::size_t>& order) {
  Offsets offsets(records.size(), 0);
  std::vector<std::size_t> ordered_allocated_ids;
  for (std::size_t t : order) {
    std::int64_t prev_offset = 0;
    std::int64_t best_offset = -1;
    std::int64_t smallest_gap = std::numeric_limits<std::int64_t>::max();
    for (std::size_t x : ordered_allocated_ids) {
      const std::uint32_t max_first =
          std::max(records[t].first_op, records[x].first_op);
      const std::uint32_t min_last =
          std::min(records[t].last_op, records[x].last_op);
      if (max_first <= min_last) {
        const std::int64_t gap =
            static_cast<std::int64_t>(offsets[x]) - prev_offset;
        if (gap >= static_cast<std::int64_t>(records[t].size) &&
            gap < smallest_gap) {
          smallest_gap = gap;
          best_offset = prev_offset;
        }
        prev_offset =
            std::max(prev_offset,
                     static_cast<std::int64_t>(offsets[x] + records[x].size));
      }
    }
    if (best_offset < 0) best_offset = prev_offset;
    offsets[t] = static_cast<std::uint64_t>(best_offset);
    auto it = std::upper_bound(
        ordered_allocated_ids.begin(), ordered_allocated_ids.end(), t,
        [&](std::size_t a, std::size_t b) { return offsets[a] < offsets[b]; });
    ordered_allocated_ids.insert(it, t);
  }
  return offsets;
}

inline Offsets ReferenceGreedyBySize(const Records& records) {
  std::vector<std::size_t> order(records.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](auto a, auto b) {
    return records[a].size > records[b].size;
  });
  return ReferenceGapPlacement(records, order);
}

}  // namespace arenaplan::offsets_reference

#endif  // ARENAPLAN_TESTS_HOST_SUPPORT_OFFSETS_REFERENCE_HPP_
