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
#include <iterator>
#include <map>
#include <numeric>
#include <utility>
#include <vector>

#include "codegen/base/time_limit.hpp"
#include "codegen/solver/budget.hpp"
#include "codegen/solver/components.hpp"
#include "codegen/solver/pair_search.hpp"
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
/// Nor are components with more pairs of time-intersecting tensors than
/// this: a Search stores every such pair twice (4 bytes each) and each of
/// the kPortfolio.size() restarts holds its own Search, so 2^20 pairs keep
/// the search under about 60 MB of neighbour lists. On dense random
/// lifetimes the pairs grow as n^2 / 3 (1.3 * 10^10 at 2 * 10^5 tensors).
/// Network-shaped inputs and MiniMalloc's instances (at most about 10^5
/// pairs) stay far below.
constexpr std::uint64_t kMaxSearchPairs = std::uint64_t{1} << 20;

/// Pairs of time-intersecting tensors of `c`, counting stops once above
/// `limit`. c.records are ordered by first_op, so the tensors after k that
/// intersect it are those starting at or before its last_op. O(n log n).
std::uint64_t IntersectingPairs(const Component& c, std::uint64_t limit) {
  const std::vector<TensorUsageRecord>& r = c.records;
  std::uint64_t pairs = 0;
  for (std::size_t k = 0; k < r.size() && pairs <= limit; ++k) {
    const auto end = std::partition_point(
        r.begin() + static_cast<std::ptrdiff_t>(k) + 1, r.end(),
        [&](const TensorUsageRecord& x) { return x.first_op <= r[k].last_op; });
    pairs += static_cast<std::uint64_t>(end - r.begin()) - k - 1;
  }
  return pairs;
}

/// What a Search's RootBound() and CheckPlan() give, without building one:
/// the max operator breadth of `records` (bytes, paper §5.1), and the arena
/// of `offsets` (indexed like records) when no two time-intersecting tensors
/// share a byte, else kInf. Sweeps over time: O(n log n) time, O(n) memory.
struct CheapFacts {
  std::uint64_t bound = 0;
  std::uint64_t arena = kInf;
};
CheapFacts CheapBoundAndCheck(const std::vector<TensorUsageRecord>& records,
                              const std::vector<std::uint64_t>* offsets) {
  const std::size_t n = records.size();
  // Events at operator boundaries: a tensor is alive on [first_op,
  // last_op + 1); ends sort before starts at the same boundary.
  std::vector<std::pair<std::uint64_t, std::size_t>> events;  // 2t / 2t+1
  events.reserve(2 * n);
  for (std::size_t i = 0; i < n; ++i) {
    events.emplace_back(std::uint64_t{records[i].first_op}, 2 * i + 1);
    events.emplace_back(std::uint64_t{records[i].last_op} + 1, 2 * i);
  }
  std::sort(events.begin(), events.end(), [](const auto& a, const auto& b) {
    if (a.first != b.first) return a.first < b.first;
    return (a.second & 1) < (b.second & 1);
  });
  CheapFacts out;
  std::uint64_t alive = 0, arena = 0;
  bool valid = offsets != nullptr;
  std::map<std::uint64_t, std::uint64_t> live;  // offset -> end, alive now
  for (const auto& [at, code] : events) {
    const std::size_t i = code / 2;
    const std::uint64_t size = records[i].size;
    if ((code & 1) == 0) {
      alive -= size;
      if (valid) live.erase((*offsets)[i]);
      continue;
    }
    alive += size;
    out.bound = std::max(out.bound, alive);
    if (!valid) continue;
    const std::uint64_t off = (*offsets)[i];
    if (off > kInf - size) {
      valid = false;
      continue;
    }
    const std::uint64_t end = off + size;
    arena = std::max(arena, end);
    // The live tensors are disjoint; i must not reach into the one that
    // starts at or after it, nor start below the end of the one before.
    auto next = live.lower_bound(off);
    if (next != live.end() && next->first < end) valid = false;
    if (next != live.begin() && std::prev(next)->second > off) valid = false;
    if (valid) live.emplace(off, end);
  }
  if (valid) out.arena = arena;
  return out;
}

/// The budget of one call: node and work limits, and the wall-clock
/// deadline options.time_limit_s from now.
Budget MakeBudget(const ExactOptions& options) {
  Budget budget;
  budget.node_limit = options.node_limit;
  budget.work_limit = options.work_limit;
  // NaN and negative: no time; clamped so that it cannot overflow.
  budget.deadline = DeadlineAfter(options.time_limit_s);
  return budget;
}

/// Per component: kSearch, or why the search will not run on it.
enum Searchable : char { kSearch, kTooLarge, kNoTime };

/// Sets c.bound, and c.value and c.offsets from the initial plan when it
/// is valid and below cap_plus_one. Components the search will not run on
/// (too large, no time, or the time ran out while setting up) get their
/// bound and their initial plan's check from a sweep, in O(n log n) time
/// and O(n) memory: the same values a Search computes, without its
/// Theta(pairs) neighbour lists.
Searchable SetUpComponent(Component& c, const ExactOptions& options,
                          bool have_initial, const Budget& budget,
                          std::uint64_t cap_plus_one) {
  Searchable searchable = kSearch;
  if (c.ids.size() > kMaxSearchRecords ||
      IntersectingPairs(c, kMaxSearchPairs) > kMaxSearchPairs) {
    searchable = kTooLarge;
  } else if (options.time_limit_s <= 0 ||
             std::chrono::steady_clock::now() >= budget.deadline) {
    searchable = kNoTime;
  }
  // The initial plan of this component, if any, and its arena once
  // checked (kInf: invalid or none).
  std::vector<std::uint64_t> init;
  if (have_initial) {
    init.resize(c.ids.size());
    for (std::size_t k = 0; k < c.ids.size(); ++k) {
      init[k] = options.initial_offsets[c.ids[k]];
    }
  }
  std::uint64_t arena = kInf;
  if (searchable != kSearch) {
    const CheapFacts facts =
        CheapBoundAndCheck(c.records, have_initial ? &init : nullptr);
    c.bound = facts.bound;
    arena = facts.arena;
  } else {
    const Search probe(c.records, kPortfolio[0].order, Branching::kSegment,
                       options.techniques);
    c.bound = probe.RootBound();
    if (options.window_bound_nodes != 0) {
      WindowBoundOptions window;
      window.total_nodes = options.window_bound_nodes;
      c.bound = WindowLowerBound(c.records, c.bound, window).bound;
    }
    if (have_initial) {
      std::vector<std::uint64_t> ranked(c.ids.size());
      for (std::size_t k = 0; k < c.ids.size(); ++k) {
        ranked[k] = init[probe.Rank(k)];
      }
      arena = probe.CheckPlan(ranked);
    }
  }
  if (have_initial && arena < cap_plus_one) {
    c.value = arena;
    c.offsets = std::move(init);
  }
  return searchable;
}

/// Reports progress: the whole plan's arena (once every component has a
/// plan) and the proven bound, when either improves.
class ProgressReport {
 public:
  ProgressReport(const ExactOptions& options,
                 const std::vector<Component>& comps,
                 const std::uint64_t& proven_lb)
      : options_(options), comps_(comps), proven_lb_(proven_lb) {}

  void operator()() {
    if (!options_.on_progress) return;
    std::uint64_t arena = 0, bound = proven_lb_;
    for (const Component& c : comps_) {
      arena =
          c.value == kInf || arena == kInf ? kInf : std::max(arena, c.value);
      bound = std::max(bound, c.proven ? c.value : c.bound);
    }
    if (arena != kInf) bound = std::min(bound, arena);
    if (arena < shown_arena_ || bound > shown_bound_) {
      shown_arena_ = std::min(shown_arena_, arena);
      shown_bound_ = std::max(shown_bound_, bound);
      options_.on_progress(shown_arena_ == kInf ? 0 : shown_arena_,
                           shown_bound_);
    }
  }

 private:
  const ExactOptions& options_;
  const std::vector<Component>& comps_;
  const std::uint64_t& proven_lb_;  ///< Bytes, as it rises.
  std::uint64_t shown_arena_ = kInf, shown_bound_ = 0;
};

/// The result once the search is over: how it stopped, and the plan of
/// every component (kUnknown when one has none).
ExactResult Assemble(const std::vector<Component>& comps, std::size_t n,
                     std::uint64_t proven_lb, const Budget& budget,
                     bool skipped_large) {
  ExactResult result;
  result.nodes = budget.nodes;
  result.work = budget.work;
  result.timed_out = budget.timed_out;
  result.stopped_by = budget.timed_out      ? ExactResult::kTimeLimit
                      : budget.out_of_nodes ? ExactResult::kBudget
                      : skipped_large       ? ExactResult::kTooLarge
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

/// The pairs of `overlaps` between records of each component, indices
/// into its records (a pair's two records meet at its operator, so both
/// are in one component; pairs with a zero-size record are dropped).
std::vector<std::vector<OverlapPair>> PairsByComponent(
    std::span<const TensorUsageRecord> records,
    std::span<const OverlapPair> overlaps,
    const std::vector<Component>& comps) {
  constexpr std::uint32_t kNone = 0xffffffffU;
  std::vector<std::uint32_t> comp_of(records.size(), kNone);
  std::vector<std::uint32_t> pos_of(records.size(), 0);
  for (std::size_t ci = 0; ci < comps.size(); ++ci) {
    for (std::size_t k = 0; k < comps[ci].ids.size(); ++k) {
      comp_of[comps[ci].ids[k]] = static_cast<std::uint32_t>(ci);
      pos_of[comps[ci].ids[k]] = static_cast<std::uint32_t>(k);
    }
  }
  std::vector<std::vector<OverlapPair>> pairs(comps.size());
  for (const OverlapPair& p : overlaps) {
    if (p.input >= records.size() || p.output >= records.size()) continue;
    const std::uint32_t ci = comp_of[p.input];
    if (ci == kNone || comp_of[p.output] != ci) continue;
    OverlapPair q = p;
    q.input = pos_of[p.input];
    q.output = pos_of[p.output];
    pairs[ci].push_back(q);
  }
  return pairs;
}

/// SetUpComponent with pairs: the bound of PairSearch's root, raised by
/// the forced-pair bound (OverlapForcedBound), and the initial plan
/// checked with the pairs. Components too large to search keep only the
/// overlap lower bound and no plan.
Searchable SetUpComponentWithPairs(Component& c,
                                   const std::vector<OverlapPair>& pairs,
                                   const ExactOptions& options,
                                   bool have_initial, const Budget& budget,
                                   std::uint64_t cap_plus_one) {
  const ProfileSummary summary = SummarizeProfiles(c.records);
  if (c.ids.size() > kMaxSearchRecords ||
      IntersectingPairs(c, kMaxSearchPairs) > kMaxSearchPairs) {
    c.bound = OverlapLowerBound(c.records, pairs, summary);
    return kTooLarge;
  }
  const solver::PairSearch probe(c.records, pairs, solver::kPairOrders[0],
                                 options.techniques);
  std::uint64_t arena = kInf;
  std::vector<std::uint64_t> init;
  if (have_initial) {
    init.resize(c.ids.size());
    std::vector<std::uint64_t> ranked(c.ids.size());
    for (std::size_t k = 0; k < c.ids.size(); ++k) {
      init[k] = options.initial_offsets[c.ids[k]];
    }
    for (std::size_t k = 0; k < c.ids.size(); ++k) {
      ranked[k] = init[probe.Rank(k)];
    }
    arena = probe.CheckPlan(ranked);
  }
  // Any valid plan's arena bounds the forced-pair bisection from above;
  // every tensor on its own (the sum of sizes) is one.
  std::uint64_t upper = summary.naive_bytes;
  if (arena != kInf) upper = std::min(upper, arena);
  c.bound = std::max(probe.RootBound(),
                     OverlapForcedBound(c.records, pairs, summary, upper));
  if (have_initial && arena < cap_plus_one) {
    c.value = arena;
    c.offsets = std::move(init);
  }
  if (options.time_limit_s <= 0 ||
      std::chrono::steady_clock::now() >= budget.deadline) {
    return kNoTime;
  }
  return kSearch;
}

/// One more than the capacity (bytes), kInf when there is none.
std::uint64_t CapPlusOne(const ExactOptions& options) {
  return options.capacity && *options.capacity < kInf ? *options.capacity + 1
                                                      : kInf;
}

/// Searches the components of a set-up problem (searchable: from
/// SetUpComponent or SetUpComponentWithPairs) in decreasing order of their
/// lower bounds with `solve(component, index, good_enough, report)`, then
/// assembles the plan of `n` tensors. proven_lb: the bound proven so far,
/// bytes.
template <class SolveFn>
ExactResult SolveByDecreasingBound(std::size_t n, const ExactOptions& options,
                                   std::vector<Component>& comps,
                                   const std::vector<Searchable>& searchable,
                                   Budget& budget, std::uint64_t proven_lb,
                                   std::uint64_t cap_plus_one,
                                   const SolveFn& solve) {
  ExactResult result;
  ProgressReport report(options, comps, proven_lb);
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
  bool skipped_large = false;  // a part with a gap left unsearched
  for (std::size_t idx : by_bound) {
    Component& c = comps[idx];
    const Searchable why = searchable[idx];
    // Good enough: what the whole plan provably needs anyway (or, for the
    // decision problem, anything within capacity).
    std::uint64_t good_enough = proven_lb;
    if (!options.minimize && cap_plus_one != kInf) {
      good_enough = std::max(good_enough, cap_plus_one - 1);
    }
    if (c.value == c.bound) c.proven = true;
    if (c.value <= good_enough || c.proven) continue;
    if (why == kNoTime && options.time_limit_s > 0) {
      budget.timed_out = true;  // the deadline passed while setting up
    }
    if (why == kTooLarge) skipped_large = true;
    if (budget.Finished() || why != kSearch) continue;
    solve(c, idx, good_enough, report);
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
  return Assemble(comps, n, proven_lb, budget, skipped_large);
}

/// SolveOffsetsExactly with allowed overlaps (options.overlaps non-empty).
ExactResult SolveWithPairs(std::span<const TensorUsageRecord> records,
                           const ExactOptions& options) {
  Budget budget = MakeBudget(options);
  const std::uint64_t cap_plus_one = CapPlusOne(options);
  std::vector<Component> comps =
      SplitIntoComponents(records, options.techniques.decomposition);
  const std::vector<std::vector<OverlapPair>> pairs =
      PairsByComponent(records, options.overlaps, comps);
  const bool have_initial = options.initial_offsets.size() == records.size();
  std::uint64_t proven_lb = options.known_lower_bound;
  std::vector<Searchable> searchable(comps.size(), kSearch);
  for (std::size_t ci = 0; ci < comps.size(); ++ci) {
    searchable[ci] = SetUpComponentWithPairs(
        comps[ci], pairs[ci], options, have_initial, budget, cap_plus_one);
    proven_lb = std::max(proven_lb, comps[ci].bound);
  }
  return SolveByDecreasingBound(
      records.size(), options, comps, searchable, budget, proven_lb,
      cap_plus_one,
      [&](Component& c, std::size_t idx, std::uint64_t good_enough,
          ProgressReport& report) {
        solver::SolveComponentWithPairs(
            c, pairs[idx], cap_plus_one, good_enough, &budget,
            options.techniques, [&report] { report(); });
      });
}

}  // namespace

ExactResult SolveOffsetsExactly(std::span<const TensorUsageRecord> records,
                                const ExactOptions& options) {
  if (!options.overlaps.empty()) return SolveWithPairs(records, options);
  Budget budget = MakeBudget(options);
  const std::uint64_t cap_plus_one = CapPlusOne(options);

  // Zero-size tensors take no space: offset 0, left out of the search.
  std::vector<Component> comps =
      SplitIntoComponents(records, options.techniques.decomposition);

  const bool have_initial = options.initial_offsets.size() == records.size();
  std::uint64_t proven_lb = 0;  // max over components of proven bounds
  std::vector<Searchable> searchable(comps.size(), kSearch);
  for (std::size_t ci = 0; ci < comps.size(); ++ci) {
    searchable[ci] =
        SetUpComponent(comps[ci], options, have_initial, budget, cap_plus_one);
    proven_lb = std::max(proven_lb, comps[ci].bound);
  }
  return SolveByDecreasingBound(
      records.size(), options, comps, searchable, budget, proven_lb,
      cap_plus_one,
      [&](Component& c, std::size_t /*idx*/, std::uint64_t good_enough,
          ProgressReport& report) {
        SolveComponent(c, cap_plus_one, good_enough, &budget,
                       options.techniques, [&report] { report(); });
      });
}

const char* StopReasonName(ExactResult::StopReason reason) {
  switch (reason) {
    case ExactResult::kComplete:
      return "complete";
    case ExactResult::kBudget:
      return "budget";
    case ExactResult::kTimeLimit:
      return "time_limit";
    case ExactResult::kTooLarge:
      return "too_large";
  }
  return "complete";
}

}  // namespace arenaplan
