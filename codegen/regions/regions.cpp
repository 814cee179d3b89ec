// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
#include "codegen/regions/regions.hpp"

#include <algorithm>
#include <chrono>
#include <limits>
#include <memory>

#include "codegen/base/errors.hpp"
#include "codegen/base/saturating.hpp"
#include "codegen/base/time_limit.hpp"
#include "codegen/regions/region_fill.hpp"
#include "codegen/validator/validator.hpp"

namespace arenaplan {
namespace {

/// An assignment by FirstFit: the region of every record and, for the
/// regions it filled incrementally (`incremental`), an arrangement of their
/// records that fits (`offsets`, from the region's start).
struct RegionAssignment {
  std::vector<std::uint32_t> region_of;
  std::vector<std::uint64_t> offsets;
  std::vector<bool> incremental;
};

using Clock = std::chrono::steady_clock;

/// Default wall-clock cap of the exact assignment search, seconds.
constexpr double kExactSeconds = 10.0;
/// Cap of the greedy mode's last resort (the exact search), seconds.
constexpr double kGreedyFallbackSeconds = 2.0;
/// The exact assignment search refuses more sized tensors than this.
constexpr std::size_t kExactMaxTensors = 64;
/// Work of the greedy's (and the naive split's) replanning fit checks in
/// all, a check costing its trial's records plus the operators; past it,
/// checks are incremental (RegionFill). No shared model comes near it.
constexpr std::uint64_t kReplanRecords = 200000;

/// The records of `members` (indices into `aligned`, ascending) as a problem
/// of their own: same operators, source and alignment.
UsageProblem SubProblem(const UsageProblem& aligned,
                        const std::vector<std::size_t>& members) {
  UsageProblem sub;
  sub.operator_count = aligned.operator_count;
  sub.operator_names = aligned.operator_names;
  sub.default_alignment = aligned.default_alignment;
  sub.source = aligned.source;
  for (std::size_t i : members) {
    sub.records.push_back(aligned.records[i]);
    sub.ids.push_back(i < aligned.ids.size() ? aligned.ids[i] : "");
    sub.names.push_back(i < aligned.names.size() ? aligned.names[i] : "");
  }
  return sub;
}

/// Largest operator breadth of the records `members` (bytes): a lower bound
/// of any arena holding them.
std::uint64_t Breadth(const UsageProblem& aligned,
                      const std::vector<std::size_t>& members) {
  std::vector<TensorUsageRecord> records;
  records.reserve(members.size());
  for (std::size_t i : members) records.push_back(aligned.records[i]);
  return SummarizeProfiles(records).offsets_lower_bound;
}

/// Everything one call shares.
struct Context {
  const UsageProblem* aligned = nullptr;
  const std::vector<RegionSpec>* regions = nullptr;
  PlanOptions heuristic;  ///< Every heuristic, no search, exact alignment.
  /// Records the greedy's fit checks have handed to the heuristics so far
  /// (each check: the records of its trial set); see kReplanRecords.
  std::uint64_t replanned = 0;
};

/// The smallest arena any heuristic plans for `members` (bytes; 0 when
/// empty): cheap, and every plan it measures passed the validator. When
/// `offsets` is given, it gets that plan's offsets (members' order).
std::uint64_t HeuristicBytes(Context& ctx,
                             const std::vector<std::size_t>& members,
                             std::vector<std::uint64_t>* offsets = nullptr) {
  if (members.empty()) return 0;
  const std::vector<PlanResult> plans =
      PlanAll(SubProblem(*ctx.aligned, members), ctx.heuristic);
  std::uint64_t best = std::numeric_limits<std::uint64_t>::max();
  for (const PlanResult& p : plans) {
    if (p.arena_bytes >= best) continue;
    best = p.arena_bytes;
    if (offsets != nullptr) *offsets = p.offsets;
  }
  return best;
}

/// Whether `members` fit `capacity`: the breadth bound first (cheap, and
/// a proof when it fails), then the heuristics (their best plan's offsets
/// into `offsets` when given and they fit).
bool Fits(Context& ctx, const std::vector<std::size_t>& members,
          std::uint64_t capacity,
          std::vector<std::uint64_t>* offsets = nullptr) {
  if (Breadth(*ctx.aligned, members) > capacity) return false;
  return HeuristicBytes(ctx, members, offsets) <= capacity;
}

/// Inserts `i` into the ascending `members`.
void InsertSorted(std::vector<std::size_t>& members, std::size_t i) {
  members.insert(std::lower_bound(members.begin(), members.end(), i), i);
}

/// Tries to add record `i` to region `r` of `fills`; `offset_of` holds the
/// offset of every member of every region (the incremental arrangement).
bool TryAdd(Context& ctx, std::vector<RegionFill>& fills, std::size_t r,
            std::size_t i, std::vector<std::uint64_t>& offset_of) {
  RegionFill& fill = fills[r];
  const std::uint64_t capacity = (*ctx.regions)[r].capacity;
  const UsageProblem& aligned = *ctx.aligned;
  // A check costs its records and the operators (every heuristic keeps
  // per-operator state).
  const std::uint64_t cost = fill.members.size() + 1 + aligned.operator_count;
  if (!fill.skyline && ctx.replanned + cost <= kReplanRecords) {
    std::vector<std::size_t> trial = fill.members;
    InsertSorted(trial, i);
    ctx.replanned += cost;
    std::vector<std::uint64_t> offsets;
    if (!Fits(ctx, trial, capacity, &offsets)) return false;
    fill.members = std::move(trial);
    for (std::size_t k = 0; k < fill.members.size(); ++k) {
      offset_of[fill.members[k]] = offsets[k];
    }
    return true;
  }
  if (!fill.skyline) {
    fill.skyline = std::make_unique<IntervalChmaxMax>(aligned.operator_count);
    for (std::size_t m : fill.members) Place(aligned, fill, m, offset_of[m]);
  }
  const std::uint64_t offset = LowestOffset(aligned, fill, i, offset_of);
  const std::uint64_t size = aligned.records[i].size;
  if (offset > capacity || size > capacity - offset) return false;
  offset_of[i] = offset;
  Place(aligned, fill, i, offset);  // `members` is not needed any more
  return true;
}

/// Records with size > 0, in `order`'s order, each into the fastest region
/// where it still fits (TryAdd). Returns the assignment (empty region_of
/// when a record fits nowhere).
RegionAssignment FirstFit(Context& ctx, const std::vector<std::size_t>& order) {
  const std::size_t regions = ctx.regions->size();
  std::vector<RegionFill> fills(regions);
  RegionAssignment out;
  out.region_of.assign(ctx.aligned->records.size(), 0);
  out.offsets.assign(ctx.aligned->records.size(), 0);
  for (std::size_t i : order) {
    bool placed = false;
    for (std::size_t r = 0; r < regions && !placed; ++r) {
      if (TryAdd(ctx, fills, r, i, out.offsets)) {
        out.region_of[i] = static_cast<std::uint32_t>(r);
        placed = true;
      }
    }
    if (!placed) return {};
  }
  for (std::size_t r = 0; r < regions; ++r) {
    out.incremental.push_back(fills[r].skyline != nullptr);
  }
  return out;
}

std::vector<std::size_t> SizedRecords(const UsageProblem& aligned) {
  std::vector<std::size_t> sized;
  for (std::size_t i = 0; i < aligned.records.size(); ++i) {
    if (aligned.records[i].size != 0) sized.push_back(i);
  }
  return sized;
}

/// Sized records by access density, densest first: traffic / size compared
/// as traffic_a * size_b > traffic_b * size_a (128-bit), ties to the larger
/// traffic, then the lower index.
std::vector<std::size_t> ByDensity(const UsageProblem& aligned,
                                   const std::vector<std::uint64_t>& traffic) {
  std::vector<std::size_t> order = SizedRecords(aligned);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) {
                     const unsigned __int128 lhs =
                         static_cast<unsigned __int128>(traffic[a]) *
                         aligned.records[b].size;
                     const unsigned __int128 rhs =
                         static_cast<unsigned __int128>(traffic[b]) *
                         aligned.records[a].size;
                     if (lhs != rhs) return lhs > rhs;
                     return traffic[a] > traffic[b];
                   });
  return order;
}

/// Sized records, largest first (ties: lower index).
std::vector<std::size_t> BySize(const UsageProblem& aligned) {
  std::vector<std::size_t> order = SizedRecords(aligned);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) {
                     return aligned.records[a].size > aligned.records[b].size;
                   });
  return order;
}

std::uint64_t Cost(const std::vector<std::uint32_t>& region_of,
                   const std::vector<std::uint64_t>& traffic) {
  std::uint64_t cost = 0;
  for (std::size_t i = 0; i < region_of.size(); ++i) {
    cost = SaturatingAdd(cost, SaturatingMul(traffic[i], region_of[i]));
  }
  return cost;
}

/// Branch and bound over assignments of the sized records (densest first):
/// a node's bound is the traffic x rank of the records assigned so far plus,
/// for each record left, its traffic x the rank of the fastest region not
/// smaller than it (no completion costs less); a node is cut when its bound
/// reaches the best, or when a region's records
/// no longer fit (breadth bound, then the heuristics; see docs/regions.md
/// for what "fit" means here). Returns the best assignment found (starting
/// from `incumbent`, which may be empty) and whether the search finished.
struct ExactAssignment {
  std::vector<std::uint32_t> region_of;
  std::uint64_t cost = std::numeric_limits<std::uint64_t>::max();
  bool complete = false;
};

class AssignmentSearch {
 public:
  AssignmentSearch(Context& ctx, const std::vector<std::uint64_t>& traffic,
                   std::vector<std::size_t> order, double seconds)
      : ctx_(ctx),
        traffic_(traffic),
        order_(std::move(order)),
        deadline_(DeadlineAfter(seconds)),
        members_(ctx.regions->size()),
        current_(ctx.aligned->records.size(), 0),
        rest_(order_.size() + 1, 0) {
    // rest_[d]: what the records order_[d..] cost at least, each in the
    // fastest region whose capacity is not below its size.
    for (std::size_t d = order_.size(); d-- > 0;) {
      const std::size_t i = order_[d];
      std::size_t rank = 0;
      while (rank < ctx.regions->size() &&
             (*ctx.regions)[rank].capacity < ctx.aligned->records[i].size) {
        ++rank;
      }
      rest_[d] = SaturatingAdd(rest_[d + 1], SaturatingMul(traffic_[i], rank));
    }
  }

  ExactAssignment Run(const std::vector<std::uint32_t>& incumbent) {
    if (!incumbent.empty()) {
      best_.region_of = incumbent;
      best_.cost = Cost(incumbent, traffic_);
    }
    stopped_ = false;
    Descend(0, 0);
    best_.complete = !stopped_;
    return best_;
  }

 private:
  void Descend(std::size_t depth, std::uint64_t cost) {
    if (stopped_ || SaturatingAdd(cost, rest_[depth]) >= best_.cost) return;
    if (depth == order_.size()) {
      best_.region_of = current_;
      best_.cost = cost;
      return;
    }
    if ((++nodes_ & 63) == 0 && Clock::now() > deadline_) {
      stopped_ = true;
      return;
    }
    const std::size_t i = order_[depth];
    for (std::size_t r = 0; r < members_.size(); ++r) {
      const std::uint64_t next =
          SaturatingAdd(cost, SaturatingMul(traffic_[i], r));
      if (next >= best_.cost) break;  // higher ranks cost no less
      std::vector<std::size_t> trial = members_[r];
      InsertSorted(trial, i);
      if (!Fits(ctx_, trial, (*ctx_.regions)[r].capacity)) continue;
      std::swap(members_[r], trial);
      current_[i] = static_cast<std::uint32_t>(r);
      Descend(depth + 1, next);
      current_[i] = 0;
      std::swap(members_[r], trial);
      if (stopped_) return;
    }
  }

  Context& ctx_;
  const std::vector<std::uint64_t>& traffic_;
  std::vector<std::size_t> order_;
  Clock::time_point deadline_;
  std::vector<std::vector<std::size_t>> members_;
  std::vector<std::uint32_t> current_;
  /// Lower bound of the cost of the records not yet assigned, by depth.
  std::vector<std::uint64_t> rest_;
  ExactAssignment best_;
  std::uint64_t nodes_ = 0;
  bool stopped_ = false;
};

/// Throws the InfeasibleError of a problem no assignment was found for.
[[noreturn]] void ReportNoAssignment(const UsageProblem& aligned,
                                     const std::vector<RegionSpec>& regions,
                                     bool proven_by_search) {
  std::uint64_t total = 0;
  std::uint64_t largest_region = 0;
  for (const RegionSpec& r : regions) {
    total = SaturatingAdd(total, r.capacity);
    largest_region = std::max(largest_region, r.capacity);
  }
  const std::uint64_t breadth =
      SummarizeProfiles(aligned.records).offsets_lower_bound;
  std::uint64_t largest_tensor = 0;
  for (const TensorUsageRecord& r : aligned.records) {
    largest_tensor = std::max(largest_tensor, r.size);
  }
  const std::string head = "no assignment of the tensors to the " +
                           std::to_string(regions.size()) + " regions fits (" +
                           std::to_string(total) + " bytes together)";
  if (breadth > total) {
    throw InfeasibleError(head + ": proven, the largest operator breadth is " +
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

}  // namespace

std::vector<std::uint32_t> NaiveSplit(const UsageProblem& aligned,
                                      const std::vector<RegionSpec>& regions) {
  if (regions.size() < 2) return {};
  Context ctx;
  ctx.aligned = &aligned;
  ctx.regions = &regions;
  ctx.heuristic.alignment = Alignment::FromBytes(1);
  const std::uint64_t capacity = regions.front().capacity;
  const std::vector<std::size_t> by_size = BySize(aligned);
  // The fast region's records once the `moved` largest have left it.
  const auto fast_after = [&](std::size_t moved) {
    std::vector<bool> gone(aligned.records.size(), false);
    for (std::size_t k = 0; k < moved; ++k) gone[by_size[k]] = true;
    std::vector<std::size_t> fast;
    for (std::size_t i : SizedRecords(aligned)) {
      if (!gone[i]) fast.push_back(i);
    }
    return fast;
  };
  // Fits fails while the breadth exceeds the capacity, and the breadth
  // only falls as tensors leave: the first count it does not exceed is
  // found by bisection (O(n log^2 n)), then the heuristics decide, one
  // tensor at a time, within the replan budget (none found past it).
  std::size_t lo = 0;
  std::size_t hi = by_size.size();
  while (lo < hi) {
    const std::size_t mid = lo + (hi - lo) / 2;
    if (Breadth(aligned, fast_after(mid)) <= capacity) {
      hi = mid;
    } else {
      lo = mid + 1;
    }
  }
  std::size_t moved = lo;
  std::vector<std::size_t> fast = fast_after(moved);
  std::vector<std::size_t> slow(by_size.begin(),
                                by_size.begin() + static_cast<long>(moved));
  std::sort(slow.begin(), slow.end());
  while (true) {
    ctx.replanned += fast.size() + aligned.operator_count;
    if (ctx.replanned > kReplanRecords) return {};
    if (Fits(ctx, fast, capacity)) break;
    if (moved == by_size.size()) return {};
    const std::size_t i = by_size[moved++];
    fast.erase(std::find(fast.begin(), fast.end(), i));
    InsertSorted(slow, i);
  }
  if (!Fits(ctx, slow, regions.back().capacity)) return {};
  std::vector<std::uint32_t> region_of(aligned.records.size(), 0);
  for (std::size_t i : slow) {
    region_of[i] = static_cast<std::uint32_t>(regions.size() - 1);
  }
  return region_of;
}

namespace {

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
  // Below, an empty assignment means "none found": a problem with no
  // record of size > 0 (none at all, say) is assigned here, all to region 0.
  const std::size_t sized = SizedRecords(aligned).size();
  RegionAssignment chosen;
  if (sized == 0) {
    chosen.region_of.assign(aligned.records.size(), 0);
    out.cost_optimal = true;  // nothing to search: cost 0 is minimal
    naive = NaiveSplit(aligned, regions);
    return chosen;
  }
  chosen = FirstFit(ctx, ByDensity(aligned, out.traffic));
  if (chosen.region_of.empty()) {
    ctx.replanned = 0;  // a budget of its own
    chosen = FirstFit(ctx, BySize(aligned));
  }
  naive = NaiveSplit(aligned, regions);
  if (chosen.region_of.empty()) chosen.region_of = naive;
  if (chosen.region_of.empty() && search == RegionSearch::kGreedy &&
      sized <= kExactMaxTensors) {
    // No quick assignment: the exact search, for a short while, as the
    // last resort (it proves infeasibility when it finishes).
    AssignmentSearch bnb(
        ctx, out.traffic, ByDensity(aligned, out.traffic),
        std::min(options.time_limit_s.value_or(kGreedyFallbackSeconds),
                 kGreedyFallbackSeconds));
    const ExactAssignment found = bnb.Run({});
    if (found.region_of.empty()) {
      ReportNoAssignment(aligned, regions, found.complete);
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
      ReportNoAssignment(aligned, regions, exact.complete);
    }
    if (exact.region_of != chosen.region_of) {
      chosen = {exact.region_of, {}, {}};
    }
    out.cost_optimal = exact.complete;
  }
  if (chosen.region_of.empty()) ReportNoAssignment(aligned, regions, false);
  return chosen;
}

/// Region r's records planned by the ordinary planner with the options
/// given (every plan validated there); when that plan is larger than the
/// region (a named heuristic, say), the heuristics' best, which the
/// assignment was checked with; when that is larger too and the greedy
/// filled the region incrementally, the greedy's own arrangement.
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
  const ValidationReport check = ValidateOffsets(
      plan.problem.records, plan.offsets, region.capacity, out.alignment);
  if (!check.ok()) {
    throw InternalError("internal error: region " + region.name +
                        ": invalid plan: " + ToString(check.result));
  }
  return plan;
}

}  // namespace

RegionPlan PlanRegions(const UsageProblem& problem,
                       const std::vector<RegionSpec>& regions,
                       const PlanOptions& options, RegionSearch search) {
  CheckRegions(regions);
  if (options.approach != Approach::kOffsets) {
    throw InputError(
        "--region: regions are planned with the offsets approach only");
  }
  const auto start = Clock::now();
  const Alignment alignment =
      options.alignment.value_or(problem.default_alignment);
  RegionPlan out;
  out.regions = regions;
  out.search = search;
  out.alignment = alignment.bytes();
  out.traffic = RecordTraffic(problem);
  out.problem = AlignProblem(problem, alignment);
  const UsageProblem& aligned = out.problem;
  const ProfileSummary summary = SummarizeProfiles(aligned.records);
  out.lower_bound = summary.offsets_lower_bound;
  out.naive_bytes = summary.naive_bytes;

  Context ctx;
  ctx.aligned = &aligned;
  ctx.regions = &regions;
  // Sizes are already aligned; every offset a heuristic gives is a sum of
  // sizes, so alignment 1 plans the same offsets.
  ctx.heuristic.alignment = Alignment::FromBytes(1);
  std::vector<std::uint32_t> naive;
  const RegionAssignment chosen =
      ChooseAssignment(ctx, out, options, search, naive);
  const std::vector<std::uint32_t>& region_of = chosen.region_of;

  const std::size_t n = aligned.records.size();
  out.region_of = region_of;
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

}  // namespace arenaplan
