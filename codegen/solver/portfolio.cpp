// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
#include "codegen/solver/portfolio.hpp"

#include <algorithm>
#include <vector>

#include "codegen/solver/pair_search.hpp"

namespace arenaplan::solver {
namespace {

/// One component's runs and what they have learnt (SolveComponent's
/// arguments, and the state of its restarts). S is Search or PairSearch.
template <class S>
struct Runs {
  Component& c;
  std::uint64_t cap_plus_one;
  std::uint64_t good_enough;
  Budget* budget;
  const ExactTechniques& techniques;
  const std::function<void()>& improved;
  /// Tight runs (a plan at the bound) are still worth trying.
  bool try_bound = techniques.bound_targets;
  /// Proven: no plan within good_enough.
  bool good_refuted = !techniques.bound_targets;
  std::uint64_t ladder = kInf;  ///< Next ladder target (bytes); kInf: none.

  void Notify() const {
    if (improved) improved();
  }

  /// The smallest arena still worth a plan: the incumbent or the capacity.
  [[nodiscard]] std::uint64_t Start() const {
    return std::min(c.value, cap_plus_one);
  }

  /// One run of `search` looking below `start`, stopping at <= `enough`,
  /// within `nodes` nodes; a better plan becomes the component's.
  RunOutcome Run(S& search, std::uint64_t start, std::uint64_t enough,
                 std::uint64_t nodes) {
    budget->run_over = false;
    budget->run_end = budget->nodes + nodes;
    const RunOutcome outcome = search.Run(start, enough, budget);
    budget->run_over = false;
    budget->run_end = kInf;
    if (search.Found() && search.Best() < c.value) {
      c.value = search.Best();
      c.offsets.assign(c.ids.size(), 0);
      for (std::size_t k = 0; k < c.ids.size(); ++k) {
        c.offsets[search.Rank(k)] = search.BestOffsets()[k];
      }
      Notify();
    }
    return outcome;
  }

  /// A complete run proves the incumbent optimal, or that none exists.
  void Complete() const {
    if (c.value == kInf) {
      c.infeasible = true;
    } else {
      c.proven = true;
    }
  }

  /// The decision run of a round: a plan at the proven lower bound itself
  /// (tight targets prune far harder than a loose incumbent). True when
  /// the component is done.
  bool TightRun(S& search, unsigned round, std::uint64_t nodes) {
    const std::uint64_t target = c.bound;
    // When a looser arena is good enough (a capacity, or another
    // component's bound), tight runs only get the first rounds.
    if (!try_bound || (target < good_enough && round >= kTightRounds) ||
        target + 1 >= Start()) {
      return false;
    }
    const RunOutcome outcome = Run(search, target + 1, target, nodes);
    if (outcome == RunOutcome::kGoodEnough) {
      c.proven = true;  // a plan at the lower bound
      return true;
    }
    if (outcome == RunOutcome::kComplete) {
      c.bound = target + 1;  // proven: nothing fits within target bytes
      Notify();
      try_bound = false;
    }
    return budget->Finished();
  }

  /// The branch-and-bound run of a round. While no plan within good_enough
  /// is known or refuted, every other round (once some plan is known)
  /// looks only for one: a decision run prunes far harder than a loose
  /// incumbent. When good_enough is the bound itself (the tight runs ask
  /// for it) or is refuted, those rounds aim at a ladder target between
  /// the bound and the incumbent instead: halfway down after a plan or a
  /// refutation, halfway back up after a run that was cut off. True when
  /// the component is done.
  bool LooseRun(S& search, unsigned round, std::uint64_t nodes) {
    std::uint64_t start = Start();
    const bool even = round % 2 == 0 && c.value != kInf;
    const bool aim = even && !good_refuted && good_enough + 1 < start &&
                     (good_enough > c.bound || !techniques.bound_targets);
    if (ladder == kInf || ladder >= start || ladder < c.bound) {
      ladder = c.bound + (start - std::min(start, c.bound)) / 2;
    }
    const bool climb = even && !aim && techniques.bound_targets &&
                       ladder > c.bound && ladder + 1 < start;
    const std::uint64_t enough = climb ? ladder : good_enough;
    if (aim) start = good_enough + 1;
    if (climb) start = ladder + 1;
    // When minimising without a capacity (good_enough is the bound
    // itself, which the tight runs ask for), the other runs of a round get
    // half their budget: the optimum often is the bound, and the tight runs
    // find it.
    const bool minimising =
        climb || (!aim && good_enough <= c.bound && cap_plus_one == kInf);
    const RunOutcome outcome =
        Run(search, start, enough, minimising ? nodes / 2 : nodes);
    if (climb) {
      if (outcome == RunOutcome::kComplete) {
        c.bound = std::max(c.bound, ladder + 1);  // nothing within ladder
        Notify();
        ladder = kInf;
      } else if (outcome == RunOutcome::kGoodEnough) {
        ladder = kInf;  // found: next target halfway to the bound
      } else {
        ladder += (Start() - ladder) / 2;
      }
      return c.value <= good_enough || budget->Finished();
    }
    if (outcome == RunOutcome::kComplete && aim) {
      good_refuted = true;  // proven: nothing fits within good_enough
      c.bound = std::max(c.bound, good_enough + 1);
      Notify();
      return budget->Finished();
    }
    if (outcome == RunOutcome::kComplete) {
      Complete();
      return true;
    }
    return outcome == RunOutcome::kGoodEnough || budget->Finished();
  }
};

/// The restarts over `searches` (one run of the first when restarts are
/// off); see SolveComponent.
template <class S>
void RunPortfolio(std::vector<S>& searches, Component& c,
                  std::uint64_t cap_plus_one, std::uint64_t good_enough,
                  Budget* budget, const ExactTechniques& techniques,
                  const std::function<void()>& improved) {
  Runs<S> runs{c, cap_plus_one, good_enough, budget, techniques, improved};
  if (!techniques.restarts) {
    // One run from the incumbent, no node budget of its own.
    const RunOutcome outcome = runs.Run(searches.front(), runs.Start(),
                                        good_enough, kInf - budget->nodes);
    if (outcome == RunOutcome::kComplete) runs.Complete();
    return;
  }
  // Every round first asks for a plan at the proven lower bound itself (a
  // decision run), then improves the incumbent by branch and bound.
  for (unsigned round = 0; !budget->Finished(); ++round) {
    const std::uint64_t nodes = kRestartBase << std::min(round, 40U);
    for (S& search : searches) {
      if (runs.TightRun(search, round, nodes)) return;
      if (runs.LooseRun(search, round, nodes)) return;
    }
  }
}

}  // namespace

void SolveComponent(Component& c, std::uint64_t cap_plus_one,
                    std::uint64_t good_enough, Budget* budget,
                    const ExactTechniques& techniques,
                    const std::function<void()>& improved) {
  std::vector<Search> searches;
  searches.reserve(kPortfolio.size());
  for (const PortfolioEntry& entry : kPortfolio) {
    searches.emplace_back(c.records, entry.order, entry.branching, techniques);
    if (!techniques.restarts) break;
  }
  RunPortfolio(searches, c, cap_plus_one, good_enough, budget, techniques,
               improved);
}

void SolveComponentWithPairs(Component& c,
                             std::span<const OverlapPair> overlaps,
                             std::uint64_t cap_plus_one,
                             std::uint64_t good_enough, Budget* budget,
                             const ExactTechniques& techniques,
                             const std::function<void()>& improved) {
  std::vector<PairSearch> searches;
  searches.reserve(kPairOrders.size());
  for (const Ordering& order : kPairOrders) {
    searches.emplace_back(c.records, overlaps, order, techniques);
    if (!techniques.restarts) break;
  }
  RunPortfolio(searches, c, cap_plus_one, good_enough, budget, techniques,
               improved);
}

}  // namespace arenaplan::solver
