// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// Runs strategies on a problem and returns validated plans. Data flows one
// way: input (records) -> strategy -> validator -> PlanResult -> emitters.
#ifndef ARENAPLAN_CODEGEN_PLANNER_PLANNER_HPP_
#define ARENAPLAN_CODEGEN_PLANNER_PLANNER_HPP_

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "codegen/base/alignment.hpp"
#include "codegen/records.hpp"
#include "codegen/strategies/strategy.hpp"

namespace arenaplan {

struct PlanOptions {
  Approach approach = Approach::kOffsets;
  /// A registered strategy name (a heuristic, or a search such as the
  /// offsets approach's "optimal"), or "best".
  std::string strategy = "best";
  /// Sizes and offsets are rounded up to it. nullopt: the input kind's
  /// default (UsageProblem::default_alignment).
  std::optional<Alignment> alignment;
  /// Wall-clock safety cap of the exact search in seconds (default: optimal
  /// 300, best 30). The work budget, not this cap, normally ends the search,
  /// so the plan does not depend on the machine's speed or load.
  std::optional<double> time_limit_s;
  /// Deterministic work budget of the exact search (ExactOptions::
  /// work_limit; 0 = none). Default: kOptimalWork for optimal (about 5 s
  /// on one core), kBestWork for best (under 1 s).
  std::optional<std::uint64_t> work_limit;
  /// Called on the calling thread whenever the exact search improves its
  /// best arena or its proven lower bound (bytes; arena 0: none yet).
  std::function<void(std::uint64_t arena_bytes, std::uint64_t lower_bound)>
      on_progress;
  /// Bytes: find any plan within this arena, or report infeasible.
  std::optional<std::uint64_t> capacity;
  /// --overlap: plan with the problem's allowed-overlap list
  /// (UsageProblem::overlaps; docs/overlap.md). The offsets heuristics with
  /// an overlap variant use it, every plan is validated against the pairs,
  /// and the result reports overlap_lower_bound. The exact search does not
  /// know pairs: `optimal` is refused; `best` also plans without overlaps
  /// (heuristics and search, a plan valid with the pairs too) and keeps that
  /// plan only when it is strictly smaller. Off: the pairs, if any, are
  /// ignored (no two live tensors share a byte).
  bool overlap = false;
};

/// A plan that has passed the host validator. Every vector is indexed like
/// problem.records (input order).
struct PlanResult {
  /// The input, with every size rounded up to `alignment`.
  UsageProblem problem;
  Approach approach = Approach::kOffsets;
  std::string strategy;         ///< The strategy that produced this plan.
  std::uint64_t alignment = 1;  ///< Bytes: the Alignment planned with.
  /// Byte offset of every record in the arena (zero-size records: 0).
  std::vector<std::uint64_t> offsets;
  /// Shared Objects only: object of every record (-1 for zero-size records,
  /// which need no object) and every object's size; empty for offsets.
  std::vector<std::int64_t> object_of;
  std::vector<std::uint64_t> object_sizes;
  /// The arena size in bytes: max(offset + size), or for Shared Objects the
  /// sum of object sizes (objects placed contiguously).
  std::uint64_t arena_bytes = 0;
  /// The approach's lower bound (max breadth, or sum of positional maximums).
  std::uint64_t lower_bound = 0;
  std::uint64_t naive_bytes = 0;
  ProfileSummary summary;
  double plan_ms = 0;  ///< Wall time of the strategy (ms), validation excluded.
  /// Whether `arena_bytes` is proven minimal, and the gap (bytes) between it
  /// and the best proven lower bound: the exact search's bound for
  /// `optimal` and `best`, the approach's lower bound for a heuristic.
  bool optimal = false;
  std::uint64_t gap_bytes = 0;
  /// The best lower bound proven (bytes): the exact search's when it ran,
  /// else the approach's lower bound.
  std::uint64_t lower_bound_proven = 0;
  /// What ended the exact search: "complete", "budget", "time_limit" or
  /// "too_large" (a part with a gap was too large to search); ""
  /// when it did not run (a heuristic plan already met the bound, or a
  /// named heuristic strategy was asked for).
  std::string search_stopped_by;
  /// Work units and nodes the exact search spent (0 when it did not run).
  std::uint64_t search_work = 0;
  std::uint64_t search_nodes = 0;
  /// SIZE_MAX, or the records the heuristic placed by its own rule before
  /// its work cap was spent (codegen/strategies/common/work_cap.hpp); the
  /// rest were placed by its bounded rule.
  std::size_t capped_after = SIZE_MAX;
  /// Planned with PlanOptions::overlap.
  bool overlap = false;
  /// The allowed overlaps the plan was validated against (empty unless
  /// `overlap`): problem.overlaps with every distance rounded up to
  /// `alignment`. Indices into problem.records.
  std::vector<OverlapPair> overlaps;
  /// OverlapLowerBound of the aligned records and `overlaps` (bytes; equals
  /// summary.offsets_lower_bound without pairs); 0 unless `overlap`.
  std::uint64_t overlap_lower_bound = 0;
};

/// True when plan.overlaps[k]'s two tensors share a byte in `plan` (the
/// pair is used, not merely allowed).
[[nodiscard]] bool OverlapUsed(const PlanResult& plan, std::size_t k);

/// Rounds every size of `problem`, and every allowed overlap's distance, up
/// to `alignment`.
/// Throws InputError when a rounded size or the sum of sizes overflows.
[[nodiscard]] UsageProblem AlignProblem(const UsageProblem& problem,
                                        Alignment alignment);

/// The problem a plan is made for: with `overlap`, `problem` with its
/// allowed pairs (InputError naming the first pair whose tensors or
/// operator do not fit its records), else without any; then AlignProblem.
[[nodiscard]] UsageProblem AlignForPlanning(const UsageProblem& problem,
                                            Alignment alignment, bool overlap);

/// Plans `problem` with options.strategy ("best": every heuristic of the
/// approach, smallest arena wins, ties to the earlier registry entry).
/// Throws InputError for an unknown strategy, InternalError when a
/// strategy's plan fails validation.
[[nodiscard]] PlanResult Plan(const UsageProblem& problem,
                              const PlanOptions& options);

/// Plans with every registered strategy of options.approach, registry order.
[[nodiscard]] std::vector<PlanResult> PlanAll(const UsageProblem& problem,
                                              const PlanOptions& options);

/// One line for stderr when the wall-clock cap, not the work budget, ended
/// the exact search of `plan` (so the plan may differ on another machine);
/// "" otherwise.
[[nodiscard]] std::string SearchStopNote(const PlanResult& plan,
                                         const PlanOptions& options);

/// A PlanOptions::on_progress that writes one line per improvement to `out`
/// ("progress: arena N bytes, lower bound M bytes, gap G").
[[nodiscard]] std::function<void(std::uint64_t, std::uint64_t)> ProgressLines(
    std::ostream& out);

}  // namespace arenaplan

#endif  // ARENAPLAN_CODEGEN_PLANNER_PLANNER_HPP_
