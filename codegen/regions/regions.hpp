// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// Planning across several memory regions (docs/regions.md): every tensor
// gets a region and an offset inside it. Each region is its own Offset
// Calculation problem over the tensors assigned to it, planned by the
// ordinary planner (Plan) and checked by the ordinary validator; this file
// only chooses the assignment. First every region within its capacity, then
// the smallest cost, where a tensor's cost is its traffic (the bytes its
// operators read and write, RecordTraffic) times its region's rank (0 for
// the first, fastest region).
#ifndef ARENAPLAN_CODEGEN_REGIONS_REGIONS_HPP_
#define ARENAPLAN_CODEGEN_REGIONS_REGIONS_HPP_

#include <cstdint>
#include <string>
#include <vector>

#include "codegen/planner/planner.hpp"
#include "codegen/records.hpp"

namespace arenaplan {

/// One memory region as `--region NAME:BYTES[:SECTION]` gives it.
struct RegionSpec {
  std::string name;            ///< A C identifier.
  std::uint64_t capacity = 0;  ///< Bytes.
  std::string section;         ///< Linker section, e.g. ".dtcm".
};

/// How the assignment is searched.
enum class RegionSearch : std::uint8_t {
  /// By access density (traffic per byte), densest first, each tensor into
  /// the fastest region whose tensors still plan within its capacity.
  kGreedy = 0,
  /// Branch and bound over all assignments (small models), started from the
  /// greedy assignment, within PlanOptions::time_limit_s.
  kExact = 1,
};

/// Parses one `--region` value. Throws InputError naming the option when the
/// name is not a C identifier (at most 64 characters), BYTES is not a whole
/// number below 2^63, or SECTION is not '.' followed by 1 to 63 ASCII
/// letters, digits, '_' or '.', or is one TakenBy matches. Default
/// section: ".arena_NAME".
[[nodiscard]] RegionSpec ParseRegion(const std::string& text);

/// The pattern of port/cortex_m.ld or of the toolchain that already places
/// a section named `section` (see ParseRegion), or nullptr when none does.
[[nodiscard]] const char* TakenBy(const std::string& section);

/// Checks a list of regions: at least one, names distinct without regard to
/// case, distinct sections, and a single region without a SECTION of its
/// own (its arena's section is ARENAPLAN_ARENA_SECTION's). Throws
/// InputError naming --region.
void CheckRegions(const std::vector<RegionSpec>& regions);

/// Bytes every record's operators read and write: problem.traffic when the
/// reader knew the graph, else the CSV `traffic` column when there is one,
/// else size x the operators of its lifetime (last_op - first_op + 1).
/// Throws InputError for a `traffic` value that is not a whole number.
[[nodiscard]] std::vector<std::uint64_t> RecordTraffic(
    const UsageProblem& problem);

/// A plan across regions.
struct RegionPlan {
  std::vector<RegionSpec> regions;
  RegionSearch search = RegionSearch::kGreedy;
  /// Input with sizes aligned, as PlanResult::problem.
  UsageProblem problem;
  std::uint64_t alignment = 1;  ///< Bytes.
  /// Per record (input order): its region (index into `regions`) and its
  /// byte offset from that region's start (zero-size records: region 0,
  /// offset 0).
  std::vector<std::uint32_t> region_of;
  std::vector<std::uint64_t> offsets;
  /// Per record: bytes its operators read and write (RecordTraffic).
  std::vector<std::uint64_t> traffic;
  /// Per region: the validated plan of its records (records in input
  /// order of the full problem), its bytes (its arena) and its traffic.
  std::vector<PlanResult> plans;
  std::vector<std::uint64_t> region_bytes;
  std::vector<std::uint64_t> region_traffic;
  /// Per region: the traffic of the naive split (NaiveSplit below), for
  /// comparison; empty when the naive split finds no assignment.
  std::vector<std::uint64_t> naive_split_traffic;
  /// Sum over records of traffic x rank of its region.
  std::uint64_t cost = 0;
  /// Whether the exact search proved `cost` minimal (kExact only).
  bool cost_optimal = false;
  /// The whole problem's offsets lower bound (largest operator breadth).
  std::uint64_t lower_bound = 0;
  std::uint64_t naive_bytes = 0;
  double plan_ms = 0;
  /// Planned with PlanOptions::overlap (docs/regions.md, "With allowed
  /// overlaps"). `problem.overlaps` then holds every allowed pair (aligned
  /// distances); `overlaps` the pairs whose two tensors are in one region,
  /// the only ones a region's plan may use and was validated against
  /// (indices into problem.records; empty without overlap).
  bool overlap = false;
  std::vector<OverlapPair> overlaps;
  /// With overlap: the whole problem's overlap lower bound (bytes,
  /// OverlapLowerBound), and whether the assignment found without the pairs
  /// was kept because it cost less (or as much in fewer bytes).
  std::uint64_t overlap_lower_bound = 0;
  bool kept_assignment_without_overlaps = false;
};

/// Sum of the regions' bytes of `plan` (its regions' arenas).
[[nodiscard]] std::uint64_t TotalBytes(const RegionPlan& plan);

/// Pairs of plan.overlaps whose two tensors share a byte in `plan` (used,
/// not merely allowed).
[[nodiscard]] std::size_t UsedPairCount(const RegionPlan& plan);

/// Plans `problem` across `regions` (fastest first). options.approach must
/// be offsets; options.strategy plans each region; options.capacity is
/// ignored (each region's capacity is its own). With options.overlap, an
/// allowed pair of problem.overlaps counts only when its two tensors are in
/// one region: the fit checks and each region's plan take the pairs inside
/// the region, and its plan is validated against them; with two or more
/// regions the assignment found without the pairs is planned too and kept
/// when its (cost, total bytes) is smaller, so neither is ever above the
/// plan without overlap. Throws InfeasibleError
/// when no assignment was found (with "proven" when the largest operator
/// breadth exceeds the summed capacities, or the exact search proved it),
/// InputError for shared-objects.
[[nodiscard]] RegionPlan PlanRegions(const UsageProblem& problem,
                                     const std::vector<RegionSpec>& regions,
                                     const PlanOptions& options,
                                     RegionSearch search);

/// The naive split of two or more regions: every tensor in the fastest
/// region, then the largest tensors (ties: lower index) moved one by one to
/// the slowest region until the rest plans within the fastest one's
/// capacity, the slowest's plan being checked at the end. Regions between
/// the first and the last stay empty. Returns the region of every record,
/// or an empty vector when it finds no assignment. `aligned` has sizes
/// rounded to the alignment. With `overlap`, a set fits counting the
/// aligned.overlaps inside it (see PlanRegions).
[[nodiscard]] std::vector<std::uint32_t> NaiveSplit(
    const UsageProblem& aligned, const std::vector<RegionSpec>& regions,
    bool overlap = false);

}  // namespace arenaplan

#endif  // ARENAPLAN_CODEGEN_REGIONS_REGIONS_HPP_
