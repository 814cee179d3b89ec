// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// SolveOffsetsExactly: the components of the input (components.hpp), each
// improved by restarts over the portfolio (portfolio.hpp) of branch and
// bound searches (search.hpp, which describes the method), under one budget
// (budget.hpp); the results joined into one plan.
#include "codegen/solver/exact.hpp"

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <numeric>
#include <utility>
#include <vector>

#include "codegen/solver/budget.hpp"
#include "codegen/solver/components.hpp"
#include "codegen/solver/portfolio.hpp"
#include "codegen/solver/search.hpp"
#include "codegen/solver/window_bound.hpp"

namespace arenaplan {

using solver::Branching;
using solver::Budget;
using solver::Component;
using solver::kInf;
using solver::kPortfolio;
using solver::Search;
using solver::SplitIntoComponents;

namespace {
/// Components with more tensors than this are not searched (the initial
/// plan, if any, is kept unproven): recursion depth grows with the count.
constexpr std::size_t kMaxSearchRecords = 20000;
}  // namespace

ExactResult SolveOffsetsExactly(std::span<const TensorUsageRecord> records,
                                const ExactOptions& options) {
  ExactResult result;
  const std::size_t n = records.size();
  Budget budget;
  budget.node_limit = options.node_limit;
  budget.work_limit = options.work_limit;
  budget.deadline =
      std::chrono::steady_clock::now() +
      std::chrono::duration_cast<std::chrono::steady_clock::duration>(
          std::chrono::duration<double>(
              // NaN and negative: no time; at most 1e7 s, so the cast
              // to clock ticks cannot overflow.
              options.time_limit_s > 0 ? std::min(options.time_limit_s, 1e7)
                                       : 0.0));
  const std::uint64_t cap_plus_one =
      options.capacity && *options.capacity < kInf ? *options.capacity + 1
                                                   : kInf;

  // Zero-size tensors take no space: offset 0, left out of the search.
  std::vector<Component> comps =
      SplitIntoComponents(records, options.techniques.decomposition);

  const bool have_initial = options.initial_offsets.size() == n;
  std::uint64_t proven_lb = 0;  // max over components of proven bounds
  for (Component& c : comps) {
    const Search probe(c.records, kPortfolio[0].order, Branching::kSegment,
                       options.techniques);
    c.bound = probe.RootBound();
    if (options.window_bound_nodes != 0) {
      WindowBoundOptions window;
      window.total_nodes = options.window_bound_nodes;
      c.bound = WindowLowerBound(c.records, c.bound, window).bound;
    }
    proven_lb = std::max(proven_lb, c.bound);
    if (have_initial) {
      std::vector<std::uint64_t> init(c.ids.size());
      for (std::size_t k = 0; k < c.ids.size(); ++k) {
        init[k] = options.initial_offsets[c.ids[k]];
      }
      std::vector<std::uint64_t> ranked(c.ids.size());
      for (std::size_t k = 0; k < c.ids.size(); ++k) {
        ranked[k] = init[probe.Rank(k)];
      }
      const std::uint64_t arena = probe.CheckPlan(ranked);
      if (arena < cap_plus_one) {
        c.value = arena;
        c.offsets = std::move(init);
      }
    }
  }
  // Progress: the whole plan's arena (once every component has a plan) and
  // the proven bound, reported when either improves.
  std::uint64_t shown_arena = kInf, shown_bound = 0;
  auto report = [&] {
    if (!options.on_progress) return;
    std::uint64_t arena = 0, bound = proven_lb;
    for (const Component& c : comps) {
      arena =
          c.value == kInf || arena == kInf ? kInf : std::max(arena, c.value);
      bound = std::max(bound, c.proven ? c.value : c.bound);
    }
    if (arena != kInf) bound = std::min(bound, arena);
    if (arena < shown_arena || bound > shown_bound) {
      shown_arena = std::min(shown_arena, arena);
      shown_bound = std::max(shown_bound, bound);
      options.on_progress(shown_arena == kInf ? 0 : shown_arena, shown_bound);
    }
  };
  report();
  if (proven_lb >= cap_plus_one) {
    result.status = ExactResult::kInfeasible;
    result.lower_bound = proven_lb;
    return result;
  }
  // Decreasing lower bound, then input order of the first tensor.
  std::vector<std::size_t> by_bound(comps.size());
  std::iota(by_bound.begin(), by_bound.end(), std::size_t{0});
  std::stable_sort(by_bound.begin(), by_bound.end(),
                   [&](std::size_t a, std::size_t b) {
                     return comps[a].bound > comps[b].bound;
                   });
  for (std::size_t idx : by_bound) {
    Component& c = comps[idx];
    // Good enough: what the whole plan provably needs anyway (or, for the
    // decision problem, anything within capacity).
    std::uint64_t good_enough = proven_lb;
    if (!options.minimize && cap_plus_one != kInf) {
      good_enough = std::max(good_enough, cap_plus_one - 1);
    }
    if (c.value == c.bound) c.proven = true;
    if (c.value <= good_enough || c.proven) continue;
    if (budget.Finished() || c.ids.size() > kMaxSearchRecords ||
        options.time_limit_s <= 0) {
      continue;
    }
    SolveComponent(c, cap_plus_one, good_enough, &budget, options.techniques,
                   report);
    if (c.infeasible) {
      result.nodes = budget.nodes;
      result.work = budget.work;
      result.status = ExactResult::kInfeasible;
      result.lower_bound = cap_plus_one;
      return result;
    }
    proven_lb = std::max(proven_lb, c.bound);
    if (c.proven) proven_lb = std::max(proven_lb, c.value);
    report();
  }
  result.nodes = budget.nodes;
  result.work = budget.work;
  result.timed_out = budget.timed_out;
  result.stopped_by = budget.timed_out      ? ExactResult::kTimeLimit
                      : budget.out_of_nodes ? ExactResult::kBudget
                                            : ExactResult::kComplete;
  std::uint64_t arena = 0;
  for (const Component& c : comps) {
    if (c.value == kInf) {
      result.status = ExactResult::kUnknown;
      result.lower_bound = proven_lb;
      return result;
    }
    arena = std::max(arena, c.value);
  }
  result.offsets.assign(n, 0);
  for (const Component& c : comps) {
    for (std::size_t k = 0; k < c.ids.size(); ++k) {
      result.offsets[c.ids[k]] = c.offsets[k];
    }
  }
  result.arena_bytes = arena;
  result.lower_bound = std::min(proven_lb, arena);
  result.status =
      arena == proven_lb ? ExactResult::kOptimal : ExactResult::kFeasible;
  return result;
}

const char* StopReasonName(ExactResult::StopReason reason) {
  switch (reason) {
    case ExactResult::kComplete:
      return "complete";
    case ExactResult::kBudget:
      return "budget";
    case ExactResult::kTimeLimit:
      return "time_limit";
  }
  return "complete";
}

}  // namespace arenaplan
