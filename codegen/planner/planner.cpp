// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
#include "codegen/planner/planner.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <limits>
#include <ostream>
#include <string>

#include "codegen/base/errors.hpp"
#include "codegen/strategies/strategy.hpp"
#include "codegen/validator/validator.hpp"

namespace arenaplan {
namespace {

using Clock = std::chrono::steady_clock;

/// Seconds for a message: "10", "0.5", "2.25" (up to 6 significant digits).
std::string SecondsText(double seconds) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", seconds);
  return text;
}

double MillisecondsSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start)
      .count();
}

/// The records a strategy sees: those with size > 0, and where they came from.
struct Compacted {
  std::vector<TensorUsageRecord> records;
  std::vector<std::size_t> origin;  ///< Index into the full record list.
  /// The allowed overlaps between sized records, indices into `records`
  /// (a pair with a zero-size tensor is dropped: it shares no byte).
  std::vector<OverlapPair> overlaps;
};

Compacted CompactSized(const UsageProblem& problem) {
  Compacted c;
  std::vector<std::size_t> index(problem.records.size(), 0);
  for (std::size_t i = 0; i < problem.records.size(); ++i) {
    if (problem.records[i].size == 0) continue;
    index[i] = c.records.size();
    c.records.push_back(problem.records[i]);
    c.origin.push_back(i);
  }
  for (const OverlapPair& p : problem.overlaps) {
    if (problem.records[p.input].size == 0 ||
        problem.records[p.output].size == 0) {
      continue;
    }
    OverlapPair q = p;
    q.input = static_cast<std::uint32_t>(index[p.input]);
    q.output = static_cast<std::uint32_t>(index[p.output]);
    c.overlaps.push_back(q);
  }
  return c;
}

/// Throws InputError naming the first malformed pair of `problem.overlaps`
/// (the reader's list: indices, operators and relation as records.hpp
/// defines them).
void CheckOverlaps(const UsageProblem& problem) {
  const std::size_t n = problem.records.size();
  for (std::size_t k = 0; k < problem.overlaps.size(); ++k) {
    const OverlapPair& p = problem.overlaps[k];
    std::string why;
    if (p.input >= n || p.output >= n) {
      why = "names a tensor outside the records";
    } else if (p.input == p.output) {
      why = "names the same tensor twice";
    } else if (problem.records[p.input].last_op != p.op) {
      why = "its input's last operator is not " + std::to_string(p.op);
    } else if (problem.records[p.output].first_op != p.op) {
      why = "its output's first operator is not " + std::to_string(p.op);
    } else if (p.relation != OverlapRelation::kOutputBelowBy &&
               p.relation != OverlapRelation::kAlias) {
      why = "has an unknown relation";
    } else {
      continue;
    }
    throw InputError(problem.source + ": allowed overlap #" +
                     std::to_string(k) + " " + why);
  }
}

[[noreturn]] void ReportInvalid(const PlanResult& plan,
                                const ValidationReport& report) {
  std::string msg = "internal error: strategy '" + plan.strategy + "' (" +
                    std::string(ApproachName(plan.approach)) +
                    ") produced an invalid plan: " + ToString(report.result);
  auto describe = [&](std::size_t i) {
    return plan.problem.ids.size() > i ? "'" + plan.problem.ids[i] + "'"
                                       : "#" + std::to_string(i);
  };
  if (report.first != kNoRecord) msg += "; tensor " + describe(report.first);
  if (report.second != kNoRecord)
    msg += " and tensor " + describe(report.second);
  throw InternalError(msg);
}

/// Runs one registered strategy on `aligned` and validates its plan.
PlanResult RunStrategy(const UsageProblem& aligned, const Compacted& sized,
                       const ProfileSummary& summary, const StrategyInfo& info,
                       std::uint64_t alignment, bool overlap,
                       std::uint64_t overlap_lower_bound) {
  PlanResult plan;
  plan.overlap = overlap;
  plan.overlap_lower_bound = overlap_lower_bound;
  if (overlap) plan.overlaps = aligned.overlaps;
  plan.approach = info.approach;
  plan.strategy = std::string(info.name);
  plan.alignment = alignment;
  plan.summary = summary;
  plan.naive_bytes = summary.naive_bytes;
  plan.lower_bound = info.approach == Approach::kOffsets
                         ? summary.offsets_lower_bound
                         : summary.shared_objects_lower_bound;
  plan.lower_bound_proven = plan.lower_bound;
  const std::size_t n = aligned.records.size();
  plan.offsets.assign(n, 0);

  const auto start = Clock::now();
  if (info.approach == Approach::kOffsets) {
    OffsetsAssignment a =
        overlap && info.offsets_overlap != nullptr
            ? info.offsets_overlap(sized.records, sized.overlaps)
            : info.offsets(sized.records);
    plan.plan_ms = MillisecondsSince(start);
    plan.capped_after = a.capped_after;
    if (a.offsets.size() != sized.records.size()) {
      plan.problem = aligned;
      ReportInvalid(plan,
                    {ValidationResult::kMissingTensor, kNoRecord, kNoRecord});
    }
    for (std::size_t k = 0; k < a.offsets.size(); ++k) {
      plan.offsets[sized.origin[k]] = a.offsets[k];
      plan.arena_bytes =
          std::max(plan.arena_bytes, a.offsets[k] + sized.records[k].size);
    }
  } else {
    SharedObjectsAssignment a = info.shared_objects(sized.records);
    plan.plan_ms = MillisecondsSince(start);
    plan.capped_after = a.capped_after;
    plan.object_of.assign(n, -1);
    plan.object_sizes = a.object_sizes;
    if (a.object_of.size() != sized.records.size()) {
      plan.problem = aligned;
      ReportInvalid(plan,
                    {ValidationResult::kMissingTensor, kNoRecord, kNoRecord});
    }
    for (std::uint64_t s : a.object_sizes) plan.arena_bytes += s;
    // Objects placed contiguously in index order (§5).
    const OffsetsAssignment placed = ObjectsToOffsets(a);
    for (std::size_t k = 0; k < a.object_of.size(); ++k) {
      plan.object_of[sized.origin[k]] =
          static_cast<std::int64_t>(a.object_of[k]);
      plan.offsets[sized.origin[k]] = placed.offsets[k];
    }
  }
  plan.problem = aligned;

  if (info.approach == Approach::kSharedObjects) {
    const ValidationReport objects = ValidateSharedObjects(
        plan.problem.records, plan.object_of, plan.object_sizes);
    if (!objects.ok()) ReportInvalid(plan, objects);
  }
  const ValidationReport offsets =
      overlap ? ValidateOffsets(plan.problem.records, plan.offsets,
                                plan.arena_bytes, alignment, plan.overlaps)
              : ValidateOffsets(plan.problem.records, plan.offsets,
                                plan.arena_bytes, alignment);
  if (!offsets.ok()) ReportInvalid(plan, offsets);
  return plan;
}

Alignment ResolveAlignment(const UsageProblem& problem,
                           const PlanOptions& options) {
  return options.alignment.value_or(problem.default_alignment);
}

/// What every plan of one call shares: the alignment, the input with sizes
/// rounded to it, the records a strategy sees, and the profile summary.
struct Prepared {
  std::uint64_t alignment = 1;  ///< Bytes.
  /// With options.overlap, its overlaps have aligned distances; without,
  /// it has none.
  UsageProblem aligned;
  Compacted sized;
  ProfileSummary summary;
  bool overlap = false;
  std::uint64_t overlap_lower_bound = 0;  ///< Bytes; 0 without overlap.

  [[nodiscard]] PlanResult Run(const StrategyInfo& info) const {
    return RunStrategy(aligned, sized, summary, info, alignment, overlap,
                       overlap_lower_bound);
  }
};

Prepared Prepare(const UsageProblem& problem, const PlanOptions& options) {
  Prepared p;
  const Alignment alignment = ResolveAlignment(problem, options);
  p.alignment = alignment.bytes();
  p.overlap = options.overlap;
  p.aligned = AlignForPlanning(problem, alignment, p.overlap);
  p.sized = CompactSized(p.aligned);
  p.summary = SummarizeProfiles(p.aligned.records);
  if (p.overlap) {
    p.overlap_lower_bound =
        OverlapLowerBound(p.aligned.records, p.aligned.overlaps, p.summary);
  }
  return p;
}

/// A heuristic of `approach` meant for `records` records (what `best` and
/// `all` run).
bool Eligible(const StrategyInfo& s, Approach approach, std::size_t records) {
  return s.approach == approach && s.IsHeuristic() &&
         (s.max_records == 0 || records <= s.max_records);
}

/// Default wall-clock safety caps of the exact search, in seconds: far
/// above what the default work budgets take on one core, so that on an
/// ordinary machine the budget, not the clock, decides the plan.
constexpr double kOptimalSeconds = 300.0;
constexpr double kBestSeconds = 30.0;
/// Search nodes `optimal` spends on lower bounds from windows of time
/// (codegen/solver/window_bound.hpp) before its search; `best` spends none.
constexpr std::uint64_t kOptimalWindowNodes = 400'000;

/// Throws InfeasibleError when `plan` does not fit options.capacity.
void CheckCapacity(const PlanResult& plan, const PlanOptions& options) {
  if (options.capacity && plan.overlap &&
      plan.overlap_lower_bound > *options.capacity) {
    throw InfeasibleError("no plan within " +
                          std::to_string(*options.capacity) +
                          " bytes exists: the overlap lower bound is " +
                          std::to_string(plan.overlap_lower_bound) +
                          " bytes (largest operator breadth, allowed "
                          "overlaps subtracted)");
  }
  if (options.capacity && !plan.overlap &&
      plan.lower_bound > *options.capacity) {
    throw InfeasibleError(
        "no plan within " + std::to_string(*options.capacity) +
        " bytes exists: the lower bound is " +
        std::to_string(plan.lower_bound) + " bytes (" +
        (plan.approach == Approach::kOffsets ? "largest operator breadth"
                                             : "sum of positional maximums") +
        ")");
  }
  if (options.capacity && plan.arena_bytes > *options.capacity) {
    throw InfeasibleError("no plan within " +
                          std::to_string(*options.capacity) +
                          " bytes: strategy '" + plan.strategy + "' needs " +
                          std::to_string(plan.arena_bytes) + " bytes");
  }
}

/// Sets `optimal` and `gap_bytes` of a heuristic plan from the approach's
/// lower bound alone: proven optimal only when it meets max breadth (for
/// Shared Objects the bound is not always reachable, so never proven).
void CompareWithBound(PlanResult& plan) {
  if (plan.overlap) {
    // The overlap bound, raised where chains of forced pairs need more
    // (OverlapForcedBound); arena >= it for every valid plan.
    const std::uint64_t floor =
        std::min(plan.arena_bytes,
                 OverlapForcedBound(plan.problem.records, plan.overlaps,
                                    plan.summary, plan.arena_bytes));
    plan.optimal =
        plan.arena_bytes == floor && plan.approach == Approach::kOffsets;
    plan.gap_bytes = plan.arena_bytes - floor;
    plan.lower_bound_proven = floor;
    return;
  }
  plan.optimal = plan.arena_bytes == plan.lower_bound &&
                 plan.approach == Approach::kOffsets;
  plan.gap_bytes = plan.arena_bytes - plan.lower_bound;
  plan.lower_bound_proven = plan.lower_bound;
}

/// Runs the exact search from `heuristic` (the best heuristic plan) and
/// returns whichever plan is smaller, with `optimal` and `gap_bytes` set
/// from what the search proved. Throws InfeasibleError when a capacity is
/// given and no plan within it exists (or none was found in time).
PlanResult RefineExactly(PlanResult heuristic, const Compacted& sized,
                         const StrategyInfo& search, const PlanOptions& options,
                         double seconds, std::uint64_t work,
                         std::uint64_t window_nodes) {
  ExactOptions exact;
  exact.time_limit_s = seconds;
  exact.work_limit = options.work_limit.value_or(work);
  exact.on_progress = options.on_progress;
  exact.window_bound_nodes = window_nodes;
  exact.capacity = options.capacity;
  exact.minimize = !options.capacity;  // --capacity: any plan that fits
  // With --overlap: the pairs, and the forced-pair bound CompareWithBound
  // set (max breadth is no bound then).
  const std::uint64_t known_bound =
      heuristic.overlap ? heuristic.lower_bound_proven : heuristic.lower_bound;
  if (heuristic.overlap) {
    exact.overlaps = sized.overlaps;
    exact.known_lower_bound = known_bound;
  }
  exact.initial_offsets.reserve(sized.origin.size());
  for (std::size_t i : sized.origin) {
    exact.initial_offsets.push_back(heuristic.offsets[i]);
  }
  const ExactResult r = search.search(sized.records, exact);
  heuristic.search_stopped_by = StopReasonName(r.stopped_by);
  heuristic.search_work = r.work;
  heuristic.search_nodes = r.nodes;
  const std::string within =
      options.capacity ? std::to_string(*options.capacity) : std::string("?");
  if (r.status == ExactResult::kInfeasible) {
    throw InfeasibleError("no plan within " + within +
                          " bytes exists (proven: every plan needs at least " +
                          std::to_string(r.lower_bound) + " bytes)");
  }
  if (r.status == ExactResult::kUnknown) {
    if (options.capacity) {
      throw InfeasibleError(
          "no plan within " + within + " bytes found " +
          (r.stopped_by == ExactResult::kTimeLimit
               ? "in " + SecondsText(seconds) + " s"
               : std::string("within the work budget")) +
          ", and none proven impossible (raise --budget or --time-limit)");
    }
    heuristic.lower_bound_proven =
        std::min(heuristic.arena_bytes, std::max(known_bound, r.lower_bound));
    heuristic.gap_bytes = heuristic.arena_bytes - heuristic.lower_bound_proven;
    heuristic.optimal = heuristic.gap_bytes == 0;
    return heuristic;  // nothing better found in time
  }
  if (r.arena_bytes < heuristic.arena_bytes) {
    for (std::size_t k = 0; k < sized.origin.size(); ++k) {
      heuristic.offsets[sized.origin[k]] = r.offsets[k];
    }
    heuristic.arena_bytes = r.arena_bytes;
    heuristic.strategy = std::string(search.name);
    heuristic.capped_after = SIZE_MAX;  // the search's plan, not the cap's
    const ValidationReport check =
        heuristic.overlap
            ? ValidateOffsets(heuristic.problem.records, heuristic.offsets,
                              heuristic.arena_bytes, heuristic.alignment,
                              heuristic.overlaps)
            : ValidateOffsets(heuristic.problem.records, heuristic.offsets,
                              heuristic.arena_bytes, heuristic.alignment);
    if (!check.ok()) ReportInvalid(heuristic, check);
  }
  heuristic.optimal = r.status == ExactResult::kOptimal &&
                      r.arena_bytes <= heuristic.arena_bytes;
  heuristic.lower_bound_proven =
      std::min(heuristic.arena_bytes, std::max(r.lower_bound, known_bound));
  heuristic.gap_bytes = heuristic.arena_bytes - heuristic.lower_bound_proven;
  return heuristic;
}

/// `best`'s heuristics: every eligible heuristic of `approach`; the smallest
/// arena wins, ties go to the earlier registry entry (the paper's own
/// strategies come first).
PlanResult BestHeuristic(const Prepared& prepared, Approach approach) {
  PlanResult best;
  bool have = false;
  for (const StrategyInfo& s : AllStrategies()) {
    if (!Eligible(s, approach, prepared.sized.records.size())) continue;
    PlanResult candidate = prepared.Run(s);
    if (!have || candidate.arena_bytes < best.arena_bytes) {
      best = std::move(candidate);
      have = true;
    }
  }
  if (!have) throw InternalError("internal error: no strategy is registered");
  return best;
}

/// `best` without overlaps after its heuristics: proven optimal when the
/// best heuristic meets the max-breadth bound, else the exact search from it
/// within `best`'s work budget.
PlanResult SearchFromBestHeuristic(PlanResult best, const Compacted& sized,
                                   const StrategyInfo& search,
                                   const PlanOptions& options) {
  if (best.arena_bytes == best.lower_bound) {
    best.optimal = true;  // the heuristic met the max-breadth bound
    best.lower_bound_proven = best.lower_bound;
    best.search_stopped_by = "complete";  // nothing left to search
    return best;
  }
  return RefineExactly(std::move(best), sized, search, options,
                       options.time_limit_s.value_or(kBestSeconds), kBestWork,
                       0);
}

}  // namespace

UsageProblem AlignForPlanning(const UsageProblem& problem, Alignment alignment,
                              bool overlap) {
  if (overlap) {
    CheckOverlaps(problem);
    return AlignProblem(problem, alignment);
  }
  UsageProblem plain = problem;
  plain.overlaps.clear();
  return AlignProblem(plain, alignment);
}

UsageProblem AlignProblem(const UsageProblem& problem, Alignment align) {
  const std::uint64_t alignment = align.bytes();
  UsageProblem out = problem;
  std::uint64_t total = 0;
  for (std::size_t i = 0; i < out.records.size(); ++i) {
    std::uint64_t& size = out.records[i].size;
    const std::uint64_t rem = size % alignment;
    if (rem != 0) {
      if (size >
          std::numeric_limits<std::uint64_t>::max() - (alignment - rem)) {
        throw InputError(problem.source + ": tensor '" + problem.ids[i] +
                         "': size overflows 64 bits when aligned");
      }
      size += alignment - rem;
    }
    if (size > std::numeric_limits<std::uint64_t>::max() - total) {
      throw InputError(problem.source + ": tensor '" + problem.ids[i] +
                       "': sizes sum past 2^64 bytes");
    }
    total += size;
  }
  for (std::size_t k = 0; k < out.overlaps.size(); ++k) {
    std::uint64_t& d = out.overlaps[k].distance;
    const std::uint64_t rem = d % alignment;
    if (rem == 0) continue;
    if (d > std::numeric_limits<std::uint64_t>::max() - (alignment - rem)) {
      throw InputError(problem.source + ": allowed overlap #" +
                       std::to_string(k) +
                       ": distance overflows 64 bits when aligned");
    }
    d += alignment - rem;
  }
  return out;
}

bool OverlapUsed(const PlanResult& plan, std::size_t k) {
  const OverlapPair& p = plan.overlaps[k];
  const std::uint64_t a = plan.offsets[p.input];
  const std::uint64_t b = plan.offsets[p.output];
  const std::uint64_t as = plan.problem.records[p.input].size;
  const std::uint64_t bs = plan.problem.records[p.output].size;
  return as != 0 && bs != 0 && a < b + bs && b < a + as;
}

PlanResult Plan(const UsageProblem& problem, const PlanOptions& options) {
  const Prepared prepared = Prepare(problem, options);
  const Compacted& sized = prepared.sized;

  // `best` is every heuristic and then the approach's search, if any.
  const bool best_of_all = options.strategy == "best";
  const StrategyInfo* search = FindSearch(options.approach);
  if (!best_of_all) {
    const StrategyInfo* info = FindStrategy(options.approach, options.strategy);
    if (info == nullptr) {
      const Approach other = options.approach == Approach::kOffsets
                                 ? Approach::kSharedObjects
                                 : Approach::kOffsets;
      const StrategyInfo* elsewhere = FindStrategy(other, options.strategy);
      if (elsewhere != nullptr && !elsewhere->IsHeuristic()) {
        throw InputError("--strategy " + options.strategy +
                         ": the exact search is for the " +
                         std::string(ApproachName(other)) + " approach");
      }
      throw InputError("--strategy " + options.strategy + ": no such " +
                       std::string(ApproachName(options.approach)) +
                       " strategy (see 'arenaplan strategies')");
    }
    if (info->IsHeuristic()) {
      PlanResult plan = prepared.Run(*info);
      CompareWithBound(plan);
      CheckCapacity(plan, options);
      return plan;
    }
    search = info;
  }

  const auto start = Clock::now();
  PlanResult best = BestHeuristic(prepared, options.approach);
  if (options.overlap) {
    // The best overlap-aware heuristic plan against the forced-pair bound,
    // then the exact search with the pairs (docs/optimal.md, "Allowed
    // overlaps") from it, within the same work budgets as without pairs.
    CompareWithBound(best);
    if (search != nullptr && (!best_of_all || !best.optimal)) {
      best = RefineExactly(std::move(best), sized, *search, options,
                           options.time_limit_s.value_or(
                               best_of_all ? kBestSeconds : kOptimalSeconds),
                           best_of_all ? kBestWork : kOptimalWork, 0);
    }
  } else if (!best_of_all) {
    best = RefineExactly(std::move(best), sized, *search, options,
                         options.time_limit_s.value_or(kOptimalSeconds),
                         kOptimalWork, kOptimalWindowNodes);
  } else if (search != nullptr) {
    best = SearchFromBestHeuristic(std::move(best), sized, *search, options);
  }
  best.plan_ms = MillisecondsSince(start);
  CheckCapacity(best, options);
  return best;
}

std::vector<PlanResult> PlanAll(const UsageProblem& problem,
                                const PlanOptions& options) {
  const Prepared prepared = Prepare(problem, options);
  const Compacted& sized = prepared.sized;
  std::vector<PlanResult> plans;
  for (const StrategyInfo& s : AllStrategies()) {
    if (!Eligible(s, options.approach, sized.records.size())) continue;
    plans.push_back(prepared.Run(s));
    CompareWithBound(plans.back());
  }
  return plans;
}

std::string SearchStopNote(const PlanResult& plan, const PlanOptions& options) {
  if (plan.search_stopped_by != "time_limit") return "";
  const double cap = options.time_limit_s.value_or(
      options.strategy == "optimal" ? kOptimalSeconds : kBestSeconds);
  return "arenaplan: the time limit (" + SecondsText(cap) +
         " s), not the work budget, ended the exact search after " +
         std::to_string(plan.search_work) +
         " work units: this plan may differ on another machine";
}

std::function<void(std::uint64_t, std::uint64_t)> ProgressLines(
    std::ostream& out) {
  return [&out](std::uint64_t arena, std::uint64_t bound) {
    out << "progress: ";
    if (arena == 0) {
      out << "no plan yet";
    } else {
      out << "arena " << arena << " bytes";
    }
    out << ", lower bound " << bound << " bytes";
    if (arena != 0) out << ", gap " << arena - std::min(arena, bound);
    out << std::endl;
  };
}

}  // namespace arenaplan
