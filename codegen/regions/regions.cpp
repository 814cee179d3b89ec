// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
#include "codegen/regions/regions.hpp"

#include <algorithm>
#include <chrono>
#include <limits>
#include <memory>
#include <optional>
#include <utility>

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
/// Budget of the greedy mode's last resort (the exact search, stopped at
/// the first assignment that fits), in search nodes: deterministic, so the
/// answer does not depend on the machine's load.
constexpr std::uint64_t kGreedyFallbackNodes = std::uint64_t{1} << 16;
/// Wall-clock safety cap of that last resort, seconds (the node budget
/// normally stops it long before).
constexpr double kGreedyFallbackSeconds = 10.0;
/// The exact assignment search refuses more sized tensors than this.
constexpr std::size_t kExactMaxTensors = 64;
/// Work of the greedy's (and the naive split's) replanning fit checks in
/// all, a check costing its trial's records plus the operators; past it,
/// checks are incremental (RegionFill). No shared model comes near it.
constexpr std::uint64_t kReplanRecords = 200000;

/// The allowed pairs of `aligned` whose two tensors are both in `members`
/// (indices into `aligned`, ascending), with indices into `members`.
std::vector<OverlapPair> PairsWithin(const UsageProblem& aligned,
                                     const std::vector<std::size_t>& members) {
  std::vector<OverlapPair> pairs;
  const auto position = [&](std::uint32_t i) -> std::size_t {
    const auto it = std::lower_bound(members.begin(), members.end(), i);
    return it != members.end() && *it == i
               ? static_cast<std::size_t>(it - members.begin())
               : members.size();
  };
  for (const OverlapPair& p : aligned.overlaps) {
    const std::size_t in = position(p.input);
    const std::size_t out = position(p.output);
    if (in == members.size() || out == members.size()) continue;
    OverlapPair q = p;
    q.input = static_cast<std::uint32_t>(in);
    q.output = static_cast<std::uint32_t>(out);
    pairs.push_back(q);
  }
  return pairs;
}

/// The records of `members` (indices into `aligned`, ascending) as a problem
/// of their own: same operators, source and alignment, and the allowed
/// pairs inside it (PairsWithin).
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
  sub.overlaps = PairsWithin(aligned, members);
  return sub;
}

/// A lower bound of any arena holding the records `members` (bytes): their
/// largest operator breadth, or with `overlap` the overlap lower bound of
/// them and the pairs inside them (OverlapLowerBound).
std::uint64_t Breadth(const UsageProblem& aligned,
                      const std::vector<std::size_t>& members,
                      bool overlap = false) {
  std::vector<TensorUsageRecord> records;
  records.reserve(members.size());
  for (std::size_t i : members) records.push_back(aligned.records[i]);
  const ProfileSummary summary = SummarizeProfiles(records);
  if (!overlap || aligned.overlaps.empty()) {
    return summary.offsets_lower_bound;
  }
  return OverlapLowerBound(records, PairsWithin(aligned, members), summary);
}

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

/// The smallest arena any heuristic plans for `members` (bytes; 0 when
/// empty) with `options`: cheap, and every plan it measures passed the
/// validator. When `offsets` is given, it gets that plan's offsets
/// (members' order).
std::uint64_t HeuristicBytes(const UsageProblem& sub,
                             const PlanOptions& options,
                             std::vector<std::uint64_t>* offsets) {
  const std::vector<PlanResult> plans = PlanAll(sub, options);
  std::uint64_t best = std::numeric_limits<std::uint64_t>::max();
  for (const PlanResult& p : plans) {
    if (p.arena_bytes >= best) continue;
    best = p.arena_bytes;
    if (offsets != nullptr) *offsets = p.offsets;
  }
  return best;
}

/// Whether `members` fit `capacity`: the lower bound first (cheap, and a
/// proof when it fails), then the heuristics (their best plan's offsets
/// into `offsets` when given and they fit). With overlap, the overlap
/// variants with the pairs inside `members` first, then, when they do not
/// fit, the plain heuristics (a plan without overlaps is valid with them):
/// a set that fits without overlap fits with it.
bool Fits(Context& ctx, const std::vector<std::size_t>& members,
          std::uint64_t capacity,
          std::vector<std::uint64_t>* offsets = nullptr) {
  const bool overlap = ctx.heuristic.overlap;
  if (Breadth(*ctx.aligned, members, overlap) > capacity) return false;
  if (members.empty()) return true;
  UsageProblem sub = SubProblem(*ctx.aligned, members);
  if (HeuristicBytes(sub, ctx.heuristic, offsets) <= capacity) return true;
  if (!overlap || sub.overlaps.empty()) return false;
  PlanOptions plain = ctx.heuristic;
  plain.overlap = false;
  return HeuristicBytes(sub, plain, offsets) <= capacity;
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
  /// `max_nodes`: the search stops after this many nodes (deterministic);
  /// `first_only`: it stops at the first assignment that fits.
  AssignmentSearch(Context& ctx, const std::vector<std::uint64_t>& traffic,
                   std::vector<std::size_t> order, double seconds,
                   std::uint64_t max_nodes = kNoNodeLimit,
                   bool first_only = false)
      : ctx_(ctx),
        traffic_(traffic),
        order_(std::move(order)),
        deadline_(DeadlineAfter(seconds)),
        max_nodes_(max_nodes),
        first_only_(first_only),
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

  static constexpr std::uint64_t kNoNodeLimit =
      std::numeric_limits<std::uint64_t>::max();

  ExactAssignment Run(const std::vector<std::uint32_t>& incumbent) {
    if (!incumbent.empty()) {
      best_.region_of = incumbent;
      best_.cost = Cost(incumbent, traffic_);
    }
    stopped_ = false;
    Descend(0, 0);
    // Stopped at the first assignment: not proven minimal, but found.
    best_.complete = !stopped_;
    return best_;
  }

 private:
  void Descend(std::size_t depth, std::uint64_t cost) {
    if (stopped_ || SaturatingAdd(cost, rest_[depth]) >= best_.cost) return;
    if (depth == order_.size()) {
      best_.region_of = current_;
      best_.cost = cost;
      if (first_only_) stopped_ = true;
      return;
    }
    if (++nodes_ > max_nodes_ ||
        ((nodes_ & 63) == 0 && Clock::now() > deadline_)) {
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
  std::uint64_t max_nodes_;
  bool first_only_;
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

}  // namespace

std::vector<std::uint32_t> NaiveSplit(const UsageProblem& aligned,
                                      const std::vector<RegionSpec>& regions,
                                      bool overlap) {
  if (regions.size() < 2) return {};
  Context ctx;
  ctx.aligned = &aligned;
  ctx.regions = &regions;
  ctx.heuristic.alignment = Alignment::FromBytes(1);
  ctx.heuristic.overlap = overlap;
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
  // tensor at a time, within the replan budget (none found past it). (The
  // overlap bound can rise when a tensor of several pairs leaves; the
  // bisection then starts from a count that fits the bound, not always the
  // first.)
  std::size_t lo = 0;
  std::size_t hi = by_size.size();
  while (lo < hi) {
    const std::size_t mid = lo + (hi - lo) / 2;
    if (Breadth(aligned, fast_after(mid), overlap) <= capacity) {
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

/// Throws InputError naming the first pair of problem.overlaps whose
/// indices or operator do not fit its records (the planner checks the
/// same before planning; the bounds here are computed first).
void CheckPairs(const UsageProblem& problem) {
  const std::size_t n = problem.records.size();
  for (std::size_t k = 0; k < problem.overlaps.size(); ++k) {
    const OverlapPair& p = problem.overlaps[k];
    if (p.input >= n || p.output >= n || p.input == p.output ||
        problem.records[p.input].last_op != p.op ||
        problem.records[p.output].first_op != p.op) {
      throw InputError(problem.source + ": allowed overlap #" +
                       std::to_string(k) +
                       " does not name a tensor dying and one born at its "
                       "operator");
    }
  }
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
  if (options.overlap) {
    CheckPairs(problem);
    out.problem = AlignProblem(problem, alignment);
  } else {
    UsageProblem plain = problem;
    plain.overlaps.clear();
    out.problem = AlignProblem(plain, alignment);
  }
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
