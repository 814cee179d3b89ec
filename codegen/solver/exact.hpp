// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// Exact Offset Calculation (paper §5): a complete branch-and-bound search
// that proves the smallest arena, decides whether a plan fits a given
// capacity, or returns the best plan found and the remaining gap when its
// time runs out. docs/optimal.md describes the method and the measurements.
#ifndef ARENAPLAN_CODEGEN_SOLVER_EXACT_HPP_
#define ARENAPLAN_CODEGEN_SOLVER_EXACT_HPP_

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <vector>

#include "codegen/records.hpp"

namespace arenaplan {

/// Switches for the techniques of the search, one each (as MiniMalloc's
/// SolverParams has), so that docs/optimal.md's comparison of techniques can
/// be rerun (`optimal_bench --ablation`). Every switch on is the default
/// search; turning one off keeps the search complete and every result sound,
/// only slower.
struct ExactTechniques {
  /// Remember states proven to have no completion below a bound.
  bool memo = true;
  /// Per-segment release-date bound at every node (off: only the cheap
  /// bound max(floor, level) + unplaced bytes).
  bool release_bound = true;
  /// In the release-date bound, a tensor that cannot start at its skyline
  /// gets the lowest top a neighbour could lift it to (off: level + 1).
  bool lifted_releases = true;
  /// Prune a tensor that fits between its skyline and the level.
  bool dominance = true;
  /// Solve time-independent parts one after another: the components of the
  /// input and, during the search, groups no unplaced tensor crosses.
  bool decomposition = true;
  /// Rank the tensors of every split-off group again by remaining contention.
  bool rerank_groups = true;
  /// Restarts over the portfolio of (order, branching) pairs with growing
  /// node budgets (off: one run of the first entry until it ends).
  bool restarts = true;
  /// Decision runs at the proven lower bound and at "good enough" inside the
  /// minimisation (off: only branch and bound from the incumbent).
  bool bound_targets = true;
};

struct ExactOptions {
  /// Wall-clock budget of the search in seconds (<= 0: stop at once and
  /// return what the initial plan and the max-breadth bound prove, found by
  /// an O(n log n) sweep). The clock is read once per component while
  /// setting up (components met after the deadline are not searched) and
  /// then every few thousand nodes; the search itself never depends on it,
  /// so a result returned before the limit is the same on every machine.
  /// Components of more than 20,000 tensors or 2^20 pairs of
  /// time-intersecting tensors are never searched (exact.cpp): their bound
  /// and the check of the initial plan come from the same sweep, so setting
  /// up takes O(n log n) time and O(n) memory on any input.
  double time_limit_s = 10.0;
  /// Bytes: only plans with arena <= capacity count. nullopt: no limit.
  std::optional<std::uint64_t> capacity;
  /// Byte offsets of a known plan, indexed like the records (e.g. the best
  /// heuristic's), used as the first upper bound. Empty: none. A plan that
  /// is not valid (wrong length, overlapping tensors) is ignored.
  std::vector<std::uint64_t> initial_offsets;
  /// true: minimise the arena (within `capacity` when given). false: with a
  /// capacity, stop at the first plan that fits it (decision problem).
  bool minimize = true;
  /// Deterministic cut-off: stop after this many search nodes (0 = none).
  /// Tests use it to exercise the "ran out" paths without a clock.
  std::uint64_t node_limit = 0;
  /// Deterministic work budget (0 = none): a node costs 1 work unit plus one
  /// per tensor of the sub-problem it scans. The same input and options give
  /// the same result on every machine whenever this budget (or the node
  /// limit), not the time limit, ends the search. kBestWork and kOptimalWork
  /// take about 0.6-0.8 s and 4-6 s of CPU on one core of a 2.5 GHz Xeon
  /// on MiniMalloc's challenging instances (150-450 tensors) where they run
  /// out; a node of a larger instance costs more time per work unit.
  std::uint64_t work_limit = 0;
  /// Before searching, raise each component's lower bound with windows of
  /// time (codegen/solver/window_bound.hpp) using at most this many search
  /// nodes in all (0 = off). Deterministic. Only for components the search
  /// may run on (so not with time_limit_s <= 0).
  std::uint64_t window_bound_nodes = 0;
  /// Which techniques the search uses (all by default).
  ExactTechniques techniques;
  /// Allowed overlaps (docs/overlap.md), indices into the records, distances
  /// already aligned. Non-empty: plans may share bytes as these pairs allow
  /// (the overlap-aware ValidateOffsets' rule) and the search is the one of
  /// codegen/solver/pair_search.hpp; window_bound_nodes is then not used
  /// (its windows know no pairs). Pairs naming a zero-size record are
  /// ignored (such a record shares no byte).
  std::vector<OverlapPair> overlaps;
  /// A lower bound (bytes) the caller has proven for the whole input, e.g.
  /// OverlapForcedBound; 0 = none. The search stops once a plan meets it.
  std::uint64_t known_lower_bound = 0;
  /// Called (on the calling thread) whenever the best arena found or the
  /// proven lower bound improves, with both in bytes (arena 0: no plan yet).
  std::function<void(std::uint64_t arena_bytes, std::uint64_t lower_bound)>
      on_progress;
};

/// Work budgets (ExactOptions::work_limit) of `best` and `optimal`.
inline constexpr std::uint64_t kBestWork = 40'000'000;
inline constexpr std::uint64_t kOptimalWork = 350'000'000;

struct ExactResult {
  enum Status {
    kOptimal,     ///< `arena_bytes` is proven minimal (== lower_bound).
    kFeasible,    ///< A plan (within capacity) was found, not proven minimal.
    kInfeasible,  ///< Proven: no plan has arena <= capacity.
    kUnknown,     ///< Time or node limit hit and no plan within capacity.
  };
  Status status = kUnknown;
  /// Byte offsets indexed like the records; empty for kInfeasible/kUnknown.
  /// Every offset is a sum of record sizes (so it keeps their alignment).
  std::vector<std::uint64_t> offsets;
  /// max(offsets[i] + size[i]); 0 when there is no plan.
  std::uint64_t arena_bytes = 0;
  /// Proven: every valid plan has arena >= lower_bound (for kInfeasible:
  /// capacity + 1). At least the max operator breadth (§5.1).
  std::uint64_t lower_bound = 0;
  /// Search nodes expanded (for reports and benchmarks).
  std::uint64_t nodes = 0;
  /// True when the time limit (not the node limit) ended the search.
  bool timed_out = false;
  /// What ended the search: it finished (proved what it could: optimal,
  /// infeasible, or a plan within capacity), the node or work budget ran
  /// out, the wall-clock time limit did, or a part that still had a gap was
  /// too large to search (over 20,000 tensors or 2^20 intersecting pairs).
  enum StopReason { kComplete, kBudget, kTimeLimit, kTooLarge };
  StopReason stopped_by = kComplete;
  /// Work units spent (see ExactOptions::work_limit).
  std::uint64_t work = 0;
};

/// "complete", "budget", "time_limit" or "too_large".
[[nodiscard]] const char* StopReasonName(ExactResult::StopReason reason);

/// Solves Offset Calculation for `records` (every size > 0; sizes already
/// rounded to the alignment). Deterministic apart from where the time limit
/// cuts the search. Single-threaded.
[[nodiscard]] ExactResult SolveOffsetsExactly(
    std::span<const TensorUsageRecord> records, const ExactOptions& options);

}  // namespace arenaplan

#endif  // ARENAPLAN_CODEGEN_SOLVER_EXACT_HPP_
