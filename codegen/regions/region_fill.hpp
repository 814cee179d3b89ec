// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// One region as the greedy assignment of codegen/regions/region_fit.cpp
// fills it, once its replan budget is spent: members placed at fixed
// offsets, each newcomer at the lowest offset free during its lifetime.
#ifndef ARENAPLAN_CODEGEN_REGIONS_REGION_FILL_HPP_
#define ARENAPLAN_CODEGEN_REGIONS_REGION_FILL_HPP_

#include <cstdint>
#include <map>
#include <memory>
#include <vector>

#include "codegen/records.hpp"
#include "codegen/regions/interval_max.hpp"

namespace arenaplan {

/// One region as the greedy fills it. While the replan budget lasts, a
/// tensor fits when the region's records with it pass Fits (the whole set
/// replanned by every heuristic); `offset_of` then holds the best plan of
/// the members. Once a check would exceed the budget the region turns
/// incremental: its members keep those offsets and a new tensor goes to the
/// lowest offset free during its lifetime (among at most kGapScan members
/// that may be alive with it, found by first operator), or, when more may
/// be, on top of everything placed during its lifetime (the skyline); it
/// fits when it ends within the capacity. O(log n + kGapScan) a check.
struct RegionFill {
  /// Ascending record indices (until incremental; then by_first).
  std::vector<std::size_t> members;
  std::unique_ptr<IntervalChmaxMax> skyline;  ///< Set once incremental.
  std::multimap<std::uint32_t, std::size_t> by_first;  ///< Incremental.
  std::uint32_t longest = 0;  ///< Largest last_op - first_op of a member.
};

/// Members of an incremental region scanned for a gap, at most.
inline constexpr std::size_t kGapScan = 64;

/// Adds member `i` at `offset` to an incremental region (skyline set).
void Place(const UsageProblem& aligned, RegionFill& fill, std::size_t i,
           std::uint64_t offset);

/// The offset of record `i` in an incremental region (see RegionFill):
/// `offset_of` holds every member's offset.
[[nodiscard]] std::uint64_t LowestOffset(
    const UsageProblem& aligned, const RegionFill& fill, std::size_t i,
    const std::vector<std::uint64_t>& offset_of);

}  // namespace arenaplan

#endif  // ARENAPLAN_CODEGEN_REGIONS_REGION_FILL_HPP_
