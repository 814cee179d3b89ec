// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// Whether a set of tensors fits a region (its lower bound, then every
// heuristic planning it), and the quick assignments of PlanRegions built
// on that check: first fit in a given order and the naive split
// (NaiveSplit, declared in regions.hpp). For codegen/regions/ only.
#ifndef ARENAPLAN_CODEGEN_REGIONS_REGION_FIT_HPP_
#define ARENAPLAN_CODEGEN_REGIONS_REGION_FIT_HPP_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "codegen/planner/planner.hpp"
#include "codegen/records.hpp"
#include "codegen/regions/regions.hpp"

namespace arenaplan::region_assign {

/// An assignment by FirstFit: the region of every record and, for the
/// regions it filled incrementally (`incremental`), an arrangement of their
/// records that fits (`offsets`, from the region's start).
struct RegionAssignment {
  std::vector<std::uint32_t> region_of;
  std::vector<std::uint64_t> offsets;
  std::vector<bool> incremental;
};

/// Work of the greedy's (and the naive split's) replanning fit checks in
/// all, a check costing its trial's records plus the operators; past it,
/// checks are incremental (RegionFill). No shared model comes near it.
inline constexpr std::uint64_t kReplanRecords = 200000;

/// The records of `members` (indices into `aligned`, ascending) as a problem
/// of their own: same operators, source and alignment, and the allowed
/// pairs of `aligned` whose two tensors are both in `members` (with indices
/// into `members`).
[[nodiscard]] UsageProblem SubProblem(const UsageProblem& aligned,
                                      const std::vector<std::size_t>& members);

/// A lower bound of any arena holding the records `members` (bytes): their
/// largest operator breadth, or with `overlap` the overlap lower bound of
/// them and the pairs inside them (OverlapLowerBound).
[[nodiscard]] std::uint64_t Breadth(const UsageProblem& aligned,
                                    const std::vector<std::size_t>& members,
                                    bool overlap = false);

/// Everything one call shares.
struct Context {
  const UsageProblem* aligned = nullptr;
  const std::vector<RegionSpec>* regions = nullptr;
  /// Every heuristic, no search, exact alignment; with overlap, their
  /// overlap variants with the pairs inside the set planned.
  PlanOptions heuristic;
  /// Records the greedy's fit checks have handed to the heuristics so far
  /// (each check: the records of its trial set); see kReplanRecords.
  std::uint64_t replanned = 0;
};

/// Whether `members` fit `capacity` (bytes): the lower bound first (cheap,
/// and a proof when it fails), then the heuristics (their best plan's
/// offsets into `offsets` when given and they fit). With overlap, the
/// overlap variants with the pairs inside `members` first, then, when they
/// do not fit, the plain heuristics (a plan without overlaps is valid with
/// them): a set that fits without overlap fits with it.
[[nodiscard]] bool Fits(Context& ctx, const std::vector<std::size_t>& members,
                        std::uint64_t capacity,
                        std::vector<std::uint64_t>* offsets = nullptr);

/// Inserts `i` into the ascending `members`.
void InsertSorted(std::vector<std::size_t>& members, std::size_t i);

/// Records with size > 0, in `order`'s order, each into the fastest region
/// where it still fits (the whole set replanned while ctx.replanned stays
/// within kReplanRecords, then incrementally, see RegionFill). Returns the
/// assignment (empty region_of when a record fits nowhere).
[[nodiscard]] RegionAssignment FirstFit(Context& ctx,
                                        const std::vector<std::size_t>& order);

/// Indices of the records with size > 0, ascending.
[[nodiscard]] std::vector<std::size_t> SizedRecords(
    const UsageProblem& aligned);

/// Sized records by access density, densest first: traffic / size compared
/// as traffic_a * size_b > traffic_b * size_a (128-bit), ties to the larger
/// traffic, then the lower index.
[[nodiscard]] std::vector<std::size_t> ByDensity(
    const UsageProblem& aligned, const std::vector<std::uint64_t>& traffic);

/// Sized records, largest first (ties: lower index).
[[nodiscard]] std::vector<std::size_t> BySize(const UsageProblem& aligned);

/// Sum over records of traffic x the rank of its region (saturating).
[[nodiscard]] std::uint64_t Cost(const std::vector<std::uint32_t>& region_of,
                                 const std::vector<std::uint64_t>& traffic);

}  // namespace arenaplan::region_assign

#endif  // ARENAPLAN_CODEGEN_REGIONS_REGION_FIT_HPP_
