// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// Restarts: how one component's node budget is spent over a portfolio of
// searches (orders and branchings), and which targets each run aims at.
#ifndef ARENAPLAN_CODEGEN_SOLVER_PORTFOLIO_HPP_
#define ARENAPLAN_CODEGEN_SOLVER_PORTFOLIO_HPP_

#include <array>
#include <cstdint>
#include <functional>
#include <span>

#include "codegen/solver/budget.hpp"
#include "codegen/solver/components.hpp"
#include "codegen/solver/exact.hpp"
#include "codegen/solver/search.hpp"

namespace arenaplan::solver {

/// Restarts: run k of round r may expand kRestartBase << r nodes.
inline constexpr std::uint64_t kRestartBase = 2048;
/// Rounds that also look for a plan at a component's own lower bound when a
/// larger arena would do (e.g. C at capacity 1,048,576 packs at its bound
/// in a few hundred nodes); later rounds spend their budget on plans that
/// are good enough.
inline constexpr unsigned kTightRounds = 1;

/// The restart portfolio: run k of round r uses entry k with a budget of
/// kRestartBase << r nodes (node counts, never the clock), so a heavy-tailed
/// run is cut short and another order gets its turn. Tensor branching in the
/// three orders MiniMalloc round-robins over (Moffitt, ASPLOS 2023: width,
/// area, contention; contention, area, width; contention, width, area) finds
/// tight packings first; segment branching proves bounds and improves
/// incumbents well when minimising (challenging instances D and J).
struct PortfolioEntry {
  Ordering order;
  Branching branching;
};
inline constexpr std::array<PortfolioEntry, 7> kPortfolio = {{
    {{Key::kWidth, Key::kArea, Key::kTotal}, Branching::kTensor},
    {{Key::kTotal, Key::kArea, Key::kWidth}, Branching::kTensor},
    {{Key::kTotal, Key::kWidth, Key::kArea}, Branching::kTensor},
    {{Key::kTotal, Key::kWidth, Key::kSize}, Branching::kSegment},
    {{Key::kWidth, Key::kArea, Key::kTotal}, Branching::kSegment},
    {{Key::kTotal, Key::kArea, Key::kWidth}, Branching::kSegment},
    {{Key::kArea, Key::kWidth, Key::kTotal}, Branching::kSegment},
}};

/// Improves `c` until it is proven, reaches `good_enough` (bytes), or the
/// budget ends: restarts cycling through kPortfolio with doubling node
/// budgets, every run starting from the best arena known so far (and below
/// `cap_plus_one`, bytes; kInf: no capacity). With techniques.restarts off,
/// one run of kPortfolio[0] until it ends; with techniques.bound_targets
/// off, no decision runs at the bound or at good_enough. `improved` (if
/// set) is called whenever c.value or c.bound improves.
void SolveComponent(Component& c, std::uint64_t cap_plus_one,
                    std::uint64_t good_enough, Budget* budget,
                    const ExactTechniques& techniques = {},
                    const std::function<void()>& improved = {});

/// The orders of the restarts with allowed overlaps (PairSearch branches on
/// tensors only): kPortfolio's distinct orders.
inline constexpr std::array<Ordering, 5> kPairOrders = {{
    {Key::kWidth, Key::kArea, Key::kTotal},
    {Key::kTotal, Key::kArea, Key::kWidth},
    {Key::kTotal, Key::kWidth, Key::kArea},
    {Key::kTotal, Key::kWidth, Key::kSize},
    {Key::kArea, Key::kWidth, Key::kTotal},
}};

/// SolveComponent with allowed overlaps: the same restarts, targets and
/// budget over PairSearch (codegen/solver/pair_search.hpp) in kPairOrders.
/// `overlaps` index c.records; distances aligned.
void SolveComponentWithPairs(Component& c,
                             std::span<const OverlapPair> overlaps,
                             std::uint64_t cap_plus_one,
                             std::uint64_t good_enough, Budget* budget,
                             const ExactTechniques& techniques = {},
                             const std::function<void()>& improved = {});

}  // namespace arenaplan::solver

#endif  // ARENAPLAN_CODEGEN_SOLVER_PORTFOLIO_HPP_
