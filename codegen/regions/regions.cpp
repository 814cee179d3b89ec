// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// PlanRegions: chooses the assignment (the quick ones of region_fit.hpp,
// the exact search of assignment_search.hpp), then plans and validates
// every region's records; with overlap, also the assignment found without
// the pairs, the cheaper kept.
#include "codegen/regions/regions.hpp"

#include <algorithm>
#include <chrono>
#include <limits>
#include <optional>
#include <utility>

#include "codegen/base/errors.hpp"
#include "codegen/base/saturating.hpp"
#include "codegen/regions/assignment_search.hpp"
#include "codegen/regions/region_fit.hpp"
#include "codegen/validator/validator.hpp"

namespace arenaplan {
namespace {

using region_assign::AssignmentSearch;
using region_assign::ByDensity;
using region_assign::BySize;
using region_assign::Context;
using region_assign::Cost;
using region_assign::ExactAssignment;
using region_assign::FirstFit;
using region_assign::RegionAssignment;
using region_assign::SizedRecords;
using region_assign::SubProblem;

using Clock = std::chrono::steady_clock;

/// Default wall-clock cap of the exact assignment search, seconds.
constexpr double kExactSeconds = 10.0;
/// Budget of the greedy mode's last resort (the exact search, stopped at
/// the first assignment that fits), in search nodes: deterministic, so the
/// answer does not depend on the machine's load.
constexpr std::uint64_t kGreedyFallbackNodes = std::uint64_t{1} << 16;
/// Wall-clock safety cap of that last resort, seconds (the node budget
/// normally stops it long before).
constexpr double kGreedyFallbackSeconds = 10.0;
/// The exact assignment search refuses more sized tensors than this.
constexpr std::size_t kExactMaxTensors = 64;

/// Throws the InfeasibleError of a problem no assignment was found for.
[[noreturn]] void ReportNoAssignment(const UsageProblem& aligned,
                                     const std::vector<RegionSpec>& regions,
                                     bool proven_by_search, bool overlap) {
  std::uint64_t total = 0;
  std::uint64_t largest_region = 0;
  for (const RegionSpec& r : regions) {
    total = SaturatingAdd(total, r.capacity);
    largest_region = std::max(largest_region, r.capacity);
  }
  // With overlap: at every operator the regions together hold at least the
  // overlap lower bound of all the pairs (pairs split across regions only
  // raise what they hold).
  const ProfileSummary summary = SummarizeProfiles(aligned.records);
  const std::uint64_t breadth =
      overlap ? OverlapLowerBound(aligned.records, aligned.overlaps, summary)
              : summary.offsets_lower_bound;
  std::uint64_t largest_tensor = 0;
  for (const TensorUsageRecord& r : aligned.records) {
    largest_tensor = std::max(largest_tensor, r.size);
  }
  const std::string head = "no assignment of the tensors to the " +
                           std::to_string(regions.size()) + " regions fits (" +
                           std::to_string(total) + " bytes together)";
  if (breadth > total) {
    throw InfeasibleError(head +
                          (overlap ? ": proven, the overlap lower bound is "
                                   : ": proven, the largest operator breadth "
                                     "is ") +
                          std::to_string(breadth) + " bytes");
  }
  if (largest_tensor > largest_region) {
    throw InfeasibleError(head + ": proven, a tensor of " +
                          std::to_string(largest_tensor) +
                          " bytes exceeds the largest region (" +
                          std::to_string(largest_region) + " bytes)");
  }
  if (proven_by_search) {
    throw InfeasibleError(head +
                          ": the exact search tried every assignment the "
                          "heuristics can plan");
  }
  throw InfeasibleError(head +
                        ": none found (greedy by access density, first fit "
                        "by size, naive split), none proven impossible; try "
                        "--region-search exact");
}

/// The assignment of PlanRegions (docs/regions.md, "How the assignment is
/// found"): the greedy by density, first fit by size, the naive split
/// (`naive`, also kept for comparison), the exact search as the last resort
/// or when asked for. Throws InfeasibleError when none is found.
RegionAssignment ChooseAssignment(Context& ctx, RegionPlan& out,
                                  const PlanOptions& options,
                                  RegionSearch search,
                                  std::vector<std::uint32_t>& naive) {
  const UsageProblem& aligned = *ctx.aligned;
  const std::vector<RegionSpec>& regions = *ctx.regions;
  const bool overlap = ctx.heuristic.overlap;
  // Below, an empty assignment means "none found": a problem with no
  // record of size > 0 (none at all, say) is assigned here, all to region 0.
  const std::size_t sized = SizedRecords(aligned).size();
  RegionAssignment chosen;
  if (sized == 0) {
    chosen.region_of.assign(aligned.records.size(), 0);
    out.cost_optimal = true;  // nothing to search: cost 0 is minimal
    naive = NaiveSplit(aligned, regions, overlap);
    return chosen;
  }
  chosen = FirstFit(ctx, ByDensity(aligned, out.traffic));
  if (chosen.region_of.empty()) {
    ctx.replanned = 0;  // a budget of its own
    chosen = FirstFit(ctx, BySize(aligned));
  }
  naive = NaiveSplit(aligned, regions, overlap);
  if (chosen.region_of.empty()) chosen.region_of = naive;
  if (chosen.region_of.empty() && search == RegionSearch::kGreedy &&
      sized <= kExactMaxTensors) {
    // No quick assignment: the exact search, within a node budget, as the
    // last resort; it stops at the first assignment that fits and proves
    // infeasibility when it finishes without one.
    AssignmentSearch bnb(
        ctx, out.traffic, ByDensity(aligned, out.traffic),
        std::min(options.time_limit_s.value_or(kGreedyFallbackSeconds),
                 kGreedyFallbackSeconds),
        kGreedyFallbackNodes, /*first_only=*/true);
    const ExactAssignment found = bnb.Run({});
    if (found.region_of.empty()) {
      ReportNoAssignment(aligned, regions, found.complete, overlap);
    }
    chosen = {found.region_of, {}, {}};
  }
  if (search == RegionSearch::kExact) {
    const std::vector<std::size_t> order = ByDensity(aligned, out.traffic);
    if (order.size() > kExactMaxTensors) {
      throw InputError(
          "--region-search exact: " + std::to_string(order.size()) +
          " tensors of size > 0; the exact search takes at most " +
          std::to_string(kExactMaxTensors) + " (use greedy)");
    }
    AssignmentSearch bnb(ctx, out.traffic, order,
                         options.time_limit_s.value_or(kExactSeconds));
    const ExactAssignment exact = bnb.Run(chosen.region_of);
    if (exact.region_of.empty()) {
      ReportNoAssignment(aligned, regions, exact.complete, overlap);
    }
    if (exact.region_of != chosen.region_of) {
      chosen = {exact.region_of, {}, {}};
    }
    out.cost_optimal = exact.complete;
  }
  if (chosen.region_of.empty()) {
    ReportNoAssignment(aligned, regions, false, overlap);
  }
  return chosen;
}

/// `plain`, a plan of `ref`'s records made without overlaps, as a plan with
/// `ref`'s pairs (a plan in which no two live tensors share a byte is valid
/// whatever overlaps are allowed): `ref`'s problem, pairs and bounds.
PlanResult WithPairs(PlanResult plain, const PlanResult& ref) {
  plain.problem = ref.problem;
  plain.overlap = true;
  plain.overlaps = ref.overlaps;
  plain.overlap_lower_bound = ref.overlap_lower_bound;
  plain.lower_bound_proven =
      std::min(ref.lower_bound_proven, plain.arena_bytes);
  plain.gap_bytes = plain.arena_bytes - plain.lower_bound_proven;
  plain.optimal = plain.gap_bytes == 0;
  return plain;
}

/// Validates region `region`'s plan against its capacity (and, with
/// overlap, the pairs inside it); InternalError when it fails.
void CheckRegionPlan(const PlanResult& plan, const RegionSpec& region,
                     std::uint64_t alignment) {
  const ValidationReport check =
      plan.overlap ? ValidateOffsets(plan.problem.records, plan.offsets,
                                     region.capacity, alignment, plan.overlaps)
                   : ValidateOffsets(plan.problem.records, plan.offsets,
                                     region.capacity, alignment);
  if (!check.ok()) {
    throw InternalError("internal error: region " + region.name +
                        ": invalid plan: " + ToString(check.result));
  }
}

/// Region r's records planned by the ordinary planner with the options
/// given (every plan validated there; with overlap, with the pairs inside
/// the region); when that plan is larger than the region (a named
/// heuristic, say), the heuristics' best, which the assignment was checked
/// with (with overlap, the overlap variants', then the plain ones'); when
/// that is larger too and the greedy filled the region incrementally, the
/// greedy's own arrangement.
PlanResult PlanOneRegion(const RegionPlan& out, const PlanOptions& options,
                         const RegionAssignment& chosen, std::size_t r,
                         const std::vector<std::size_t>& members) {
  const UsageProblem& aligned = out.problem;
  const RegionSpec& region = out.regions[r];
  // All records in one region: the input itself, so that one region
  // plans exactly what planning without regions does.
  const UsageProblem sub = members.size() == aligned.records.size()
                               ? aligned
                               : SubProblem(aligned, members);
  PlanOptions each = options;
  each.alignment = Alignment::FromBytes(out.alignment);
  each.capacity.reset();
  PlanResult plan = Plan(sub, each);
  if (plan.arena_bytes > region.capacity) {
    for (PlanResult& p : PlanAll(sub, each)) {
      if (p.arena_bytes < plan.arena_bytes) plan = std::move(p);
    }
  }
  if (plan.arena_bytes > region.capacity && each.overlap) {
    PlanOptions plain = each;
    plain.overlap = false;
    for (PlanResult& p : PlanAll(sub, plain)) {
      if (p.arena_bytes < plan.arena_bytes)
        plan = WithPairs(std::move(p), plan);
    }
  }
  if (plan.arena_bytes > region.capacity && r < chosen.incremental.size() &&
      chosen.incremental[r]) {
    plan.strategy = "region-greedy-skyline";
    plan.arena_bytes = 0;
    for (std::size_t k = 0; k < members.size(); ++k) {
      plan.offsets[k] = chosen.offsets[members[k]];
      if (plan.problem.records[k].size != 0) {
        plan.arena_bytes = std::max(
            plan.arena_bytes, plan.offsets[k] + plan.problem.records[k].size);
      }
    }
    plan.optimal = false;
    plan.gap_bytes = plan.arena_bytes - plan.lower_bound;
  }
  if (plan.arena_bytes > region.capacity) {
    throw InternalError("internal error: region " + region.name +
                        " was assigned tensors that do not fit it");
  }
  CheckRegionPlan(plan, region, out.alignment);
  return plan;
}

/// The allowed pairs of `problem` whose two tensors `region_of` puts in one
/// region.
std::vector<OverlapPair> PairsInOneRegion(
    const UsageProblem& problem, const std::vector<std::uint32_t>& region_of) {
  std::vector<OverlapPair> pairs;
  for (const OverlapPair& p : problem.overlaps) {
    if (region_of[p.input] == region_of[p.output]) pairs.push_back(p);
  }
  return pairs;
}

/// PlanRegions with the pairs of `problem` when options.overlap (the
/// assignment found with them), else without any.
RegionPlan PlanRegionsOnce(const UsageProblem& problem,
                           const std::vector<RegionSpec>& regions,
                           const PlanOptions& options, RegionSearch search) {
  const auto start = Clock::now();
  const Alignment alignment =
      options.alignment.value_or(problem.default_alignment);
  RegionPlan out;
  out.regions = regions;
  out.search = search;
  out.alignment = alignment.bytes();
  out.traffic = RecordTraffic(problem);
  out.overlap = options.overlap;
  out.problem = AlignForPlanning(problem, alignment, options.overlap);
  const UsageProblem& aligned = out.problem;
  const ProfileSummary summary = SummarizeProfiles(aligned.records);
  out.lower_bound = summary.offsets_lower_bound;
  out.naive_bytes = summary.naive_bytes;
  if (out.overlap) {
    out.overlap_lower_bound =
        OverlapLowerBound(aligned.records, aligned.overlaps, summary);
  }

  Context ctx;
  ctx.aligned = &aligned;
  ctx.regions = &regions;
  // Sizes (and distances) are already aligned; every offset a heuristic
  // gives is a sum of sizes and distances, so alignment 1 plans the same
  // offsets.
  ctx.heuristic.alignment = Alignment::FromBytes(1);
  ctx.heuristic.overlap = options.overlap;
  std::vector<std::uint32_t> naive;
  const RegionAssignment chosen =
      ChooseAssignment(ctx, out, options, search, naive);
  const std::vector<std::uint32_t>& region_of = chosen.region_of;

  const std::size_t n = aligned.records.size();
  out.region_of = region_of;
  if (out.overlap) out.overlaps = PairsInOneRegion(aligned, region_of);
  out.offsets.assign(n, 0);
  out.region_bytes.assign(regions.size(), 0);
  out.region_traffic.assign(regions.size(), 0);
  std::vector<std::vector<std::size_t>> members(regions.size());
  for (std::size_t i = 0; i < n; ++i) members[region_of[i]].push_back(i);
  for (std::size_t r = 0; r < regions.size(); ++r) {
    PlanResult plan = PlanOneRegion(out, options, chosen, r, members[r]);
    for (std::size_t k = 0; k < members[r].size(); ++k) {
      out.offsets[members[r][k]] = plan.offsets[k];
      out.region_traffic[r] =
          SaturatingAdd(out.region_traffic[r], out.traffic[members[r][k]]);
    }
    out.region_bytes[r] = plan.arena_bytes;
    out.plans.push_back(std::move(plan));
  }
  out.cost = Cost(region_of, out.traffic);
  if (!naive.empty()) {
    out.naive_split_traffic.assign(regions.size(), 0);
    for (std::size_t i = 0; i < n; ++i) {
      out.naive_split_traffic[naive[i]] =
          SaturatingAdd(out.naive_split_traffic[naive[i]], out.traffic[i]);
    }
  }
  out.plan_ms =
      std::chrono::duration<double, std::milli>(Clock::now() - start).count();
  return out;
}

/// `plain`, planned without overlaps, as the plan with overlap of `aligned`
/// (its pairs, aligned): the pairs inside one region of its assignment
/// attached to each region's plan, and each region replanned with them,
/// the smaller plan kept (ties: the plan without overlaps).
RegionPlan AdoptWithPairs(RegionPlan plain, const UsageProblem& aligned,
                          const PlanOptions& options) {
  plain.overlap = true;
  plain.problem = aligned;
  plain.overlaps = PairsInOneRegion(aligned, plain.region_of);
  plain.overlap_lower_bound = OverlapLowerBound(
      aligned.records, aligned.overlaps, SummarizeProfiles(aligned.records));
  plain.kept_assignment_without_overlaps = true;
  std::vector<std::vector<std::size_t>> members(plain.regions.size());
  for (std::size_t i = 0; i < plain.region_of.size(); ++i) {
    members[plain.region_of[i]].push_back(i);
  }
  PlanOptions each = options;
  each.alignment = Alignment::FromBytes(plain.alignment);
  each.capacity.reset();
  for (std::size_t r = 0; r < plain.regions.size(); ++r) {
    const UsageProblem sub = SubProblem(aligned, members[r]);
    PlanResult with = Plan(sub, each);
    if (with.arena_bytes < plain.plans[r].arena_bytes) {
      plain.plans[r] = std::move(with);
      plain.region_bytes[r] = plain.plans[r].arena_bytes;
      for (std::size_t k = 0; k < members[r].size(); ++k) {
        plain.offsets[members[r][k]] = plain.plans[r].offsets[k];
      }
    } else {
      plain.plans[r] = WithPairs(std::move(plain.plans[r]), with);
    }
    CheckRegionPlan(plain.plans[r], plain.regions[r], plain.alignment);
  }
  return plain;
}

}  // namespace

std::uint64_t TotalBytes(const RegionPlan& plan) {
  std::uint64_t total = 0;
  for (std::uint64_t b : plan.region_bytes) total = SaturatingAdd(total, b);
  return total;
}

std::size_t UsedPairCount(const RegionPlan& plan) {
  std::size_t used = 0;
  for (const OverlapPair& p : plan.overlaps) {
    const std::uint64_t a = plan.offsets[p.input];
    const std::uint64_t b = plan.offsets[p.output];
    const std::uint64_t as = plan.problem.records[p.input].size;
    const std::uint64_t bs = plan.problem.records[p.output].size;
    used += plan.region_of[p.input] == plan.region_of[p.output] && as != 0 &&
            bs != 0 && a < b + bs && b < a + as;
  }
  return used;
}

RegionPlan PlanRegions(const UsageProblem& problem,
                       const std::vector<RegionSpec>& regions,
                       const PlanOptions& options, RegionSearch search) {
  CheckRegions(regions);
  if (options.approach != Approach::kOffsets) {
    throw InputError(
        "--region: regions are planned with the offsets approach only");
  }
  if (!options.overlap || regions.size() < 2 || problem.overlaps.empty()) {
    return PlanRegionsOnce(problem, regions, options, search);
  }
  // With overlap: the assignment found with the pairs, and the one found
  // without them (valid with them too); the smaller (cost, total bytes)
  // wins, ties to the one with the pairs. Either may find none.
  const auto start = Clock::now();
  std::optional<RegionPlan> with;
  std::optional<InfeasibleError> with_error;
  try {
    with = PlanRegionsOnce(problem, regions, options, search);
  } catch (const InfeasibleError& e) {
    with_error = e;
  }
  PlanOptions plain_options = options;
  plain_options.overlap = false;
  std::optional<RegionPlan> plain;
  try {
    plain = PlanRegionsOnce(problem, regions, plain_options, search);
  } catch (const InfeasibleError&) {
    if (with_error) throw *with_error;
  }
  RegionPlan out;
  if (with && (!plain || std::make_pair(with->cost, TotalBytes(*with)) <=
                             std::make_pair(plain->cost, TotalBytes(*plain)))) {
    out = std::move(*with);
  } else {
    const UsageProblem aligned = AlignProblem(
        problem, options.alignment.value_or(problem.default_alignment));
    out = AdoptWithPairs(std::move(*plain), aligned, options);
    // The search with the pairs proved its cost minimal over a larger set
    // of assignments; the one kept costs no more.
    out.cost_optimal = with && with->cost_optimal;
    if (with) out.naive_split_traffic = with->naive_split_traffic;
  }
  out.plan_ms =
      std::chrono::duration<double, std::milli>(Clock::now() - start).count();
  return out;
}

}  // namespace arenaplan
