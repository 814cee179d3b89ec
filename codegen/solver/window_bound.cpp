// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
#include "codegen/solver/window_bound.hpp"

#include <algorithm>

#include "codegen/solver/exact.hpp"

namespace arenaplan {

std::vector<TensorUsageRecord> WindowInstance(
    std::span<const TensorUsageRecord> records, const TimeSegments& time,
    std::size_t first, std::size_t end) {
  std::vector<TensorUsageRecord> out;
  for (std::size_t i = 0; i < records.size(); ++i) {
    if (records[i].size == 0 || time.end[i] <= first || time.first[i] >= end) {
      continue;
    }
    const std::size_t a = std::max<std::size_t>(time.first[i], first);
    const std::size_t b = std::min<std::size_t>(time.end[i], end);
    out.push_back({static_cast<std::uint32_t>(a - first),
                   static_cast<std::uint32_t>(b - 1 - first), records[i].size});
  }
  return out;
}

WindowBound WindowLowerBound(std::span<const TensorUsageRecord> records,
                             std::uint64_t known,
                             const WindowBoundOptions& options) {
  WindowBound result;
  result.bound = known;
  const TimeSegments time = CutIntoSegments(records);
  const std::size_t segments = time.Count();
  // Breadth per segment.
  std::vector<std::uint64_t> breadth(segments + 1, 0);
  for (std::size_t i = 0; i < records.size(); ++i) {
    breadth[time.first[i]] += records[i].size;
    breadth[time.end[i]] -= records[i].size;
  }
  for (std::size_t s = 1; s < segments; ++s) breadth[s] += breadth[s - 1];

  // Proven by the search: no plan of `window` within `arena` bytes.
  auto refuted = [&](const std::vector<TensorUsageRecord>& window,
                     std::uint64_t arena, std::uint64_t* found) {
    ExactOptions exact;
    exact.capacity = arena;
    exact.minimize = false;
    exact.node_limit = options.nodes_per_search;
    exact.time_limit_s = 1e9;  // node limits only
    const ExactResult r = SolveOffsetsExactly(window, exact);
    result.nodes += r.nodes;
    if (r.status == ExactResult::kOptimal ||
        r.status == ExactResult::kFeasible) {
      *found = r.arena_bytes;
    }
    return r.status == ExactResult::kInfeasible;
  };
  for (std::size_t len = options.min_segments; len <= options.max_segments;
       ++len) {
    for (std::size_t first = 0; first + len <= segments; ++first) {
      if (options.total_nodes != 0 && result.nodes >= options.total_nodes) {
        return result;
      }
      const std::size_t end = first + len;
      std::uint64_t peak = 0;
      for (std::size_t s = first; s < end; ++s)
        peak = std::max(peak, breadth[s]);
      if (peak * 1000 < result.bound * options.breadth_permille) continue;
      const std::vector<TensorUsageRecord> window =
          WindowInstance(records, time, first, end);
      ++result.windows_tried;
      // Binary search for the largest refuted arena: lo - 1 is refuted (or
      // lo is the known bound), hi is an arena a plan was found within.
      std::uint64_t found = 0;
      if (!refuted(window, result.bound, &found)) {
        if (found == 0) ++result.windows_undecided;
        continue;
      }
      std::uint64_t lo = result.bound + 1;
      std::uint64_t hi = 0;
      for (const TensorUsageRecord& t : window) hi += t.size;  // fits
      while (lo < hi) {
        const std::uint64_t mid = lo + (hi - lo) / 2;
        found = 0;
        if (refuted(window, mid, &found)) {
          lo = mid + 1;
        } else {
          hi = found != 0 ? std::min(mid, found) : mid;
        }
      }
      // Every arena below lo is refuted on this window.
      if (lo > result.bound) {
        result.bound = lo;
        result.first_segment = first;
        result.end_segment = end;
      }
    }
  }
  return result;
}

}  // namespace arenaplan
