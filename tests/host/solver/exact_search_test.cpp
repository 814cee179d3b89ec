// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// One branch-and-bound search of one component (codegen/solver/search.hpp),
// without restarts or components: every order and branching of the
// portfolio must reach the brute-force optimum when run to the end.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <random>
#include <set>
#include <utility>
#include <vector>

#include "codegen/solver/portfolio.hpp"
#include "codegen/solver/search.hpp"
#include "tests/host/support/exhaustive.hpp"
#include "tests/host/support/solver_instances.hpp"

namespace arenaplan::solver {
namespace {

using testing::ExhaustiveOffsetsOptimum;

TEST(ExactSearch, EveryPortfolioEntryReachesTheOptimum) {
  std::mt19937_64 rng(20261124);
  for (int it = 0; it < 300 / testing::kScale; ++it) {
    const std::uint64_t align = it % 2 == 0 ? 1 : 16;
    const auto r = it % 2 == 0 ? testing::StaircaseInstance(rng, align)
                               : testing::RandomInstance(rng, 8, align);
    const std::uint64_t optimum = ExhaustiveOffsetsOptimum(r);
    for (const PortfolioEntry& entry : kPortfolio) {
      Search search(r, entry.order, entry.branching);
      Budget budget;
      // From "anything" (kInf) down: complete run, the best plan is optimal.
      EXPECT_EQ(search.Run(kInf, 0, &budget), RunOutcome::kComplete);
      ASSERT_TRUE(search.Found()) << "instance " << it;
      EXPECT_EQ(search.Best(), optimum) << "instance " << it;
      EXPECT_EQ(search.CheckPlan(search.BestOffsets()), optimum);
    }
  }
}

TEST(ExactSearch, RootBoundIsMaxBreadth) {
  const std::vector<TensorUsageRecord> r = {{0, 3, 8}, {2, 2, 4}, {5, 9, 1}};
  const Search search(r, kPortfolio[0].order);
  EXPECT_EQ(search.RootBound(), 12u);  // ops 2: 8 + 4
}

TEST(ExactSearch, CheckPlanRejectsOverlapAndAcceptsAStack) {
  const std::vector<TensorUsageRecord> r = {{0, 1, 3}, {1, 2, 5}};
  const Search search(r, kPortfolio[0].order);
  // Rank order: offsets indexed by rank; map the input plan through Rank.
  std::vector<std::uint64_t> ok(2), bad(2);
  const std::uint64_t plan[2] = {0, 3};  // input order: stacked, arena 8
  for (std::size_t k = 0; k < 2; ++k) {
    ok[k] = plan[search.Rank(k)];
    bad[k] = 0;
  }
  EXPECT_EQ(search.CheckPlan(ok), 8u);
  EXPECT_EQ(search.CheckPlan(bad), kInf);
}

TEST(ExactSearch, StopsAtTheFirstPlanThatIsGoodEnough) {
  // Two overlapping tensors of 4 and 4 bytes: optimum 8; with good_enough
  // 100 the first plan found ends the run.
  const std::vector<TensorUsageRecord> r = {{0, 1, 4}, {1, 2, 4}};
  Search search(r, kPortfolio[3].order, kPortfolio[3].branching);
  Budget budget;
  EXPECT_EQ(search.Run(kInf, 100, &budget), RunOutcome::kGoodEnough);
  EXPECT_TRUE(search.Found());
}

TEST(ExactSearch, ReportsCompleteWithNoPlanBelowTheStart) {
  const std::vector<TensorUsageRecord> r = {{0, 1, 4}, {1, 2, 4}};
  Search search(r, kPortfolio[0].order, kPortfolio[0].branching);
  Budget budget;
  EXPECT_EQ(search.Run(8, 0, &budget), RunOutcome::kComplete);  // < 8: none
  EXPECT_FALSE(search.Found());
}

TEST(ExactSearch, RunIsCutOffByTheNodeBudget) {
  std::mt19937_64 rng(7);
  std::vector<TensorUsageRecord> r;
  for (std::uint32_t i = 0; i < 40; ++i) {
    r.push_back(
        {i, i + 1 + static_cast<std::uint32_t>(rng() % 6), 1 + rng() % 9});
  }
  Search search(r, kPortfolio[0].order, kPortfolio[0].branching);
  Budget budget;
  budget.node_limit = 5;
  EXPECT_EQ(search.Run(kInf, 0, &budget), RunOutcome::kCutOff);
  EXPECT_EQ(budget.nodes, 5u);
  EXPECT_TRUE(budget.out_of_nodes);
}

TEST(ExactSearch, ReachesTheOptimumWithLargeOrScaledSizes) {
  // The memo codes skyline runs in units of the sizes' gcd, several runs a
  // word when they fit, else two words a run. Sizes near 2^61 with gcd 1
  // take the two-word form, sizes scaled by 2^40 the packed one; both must
  // still reach the brute-force optimum.
  std::mt19937_64 rng(20261123);
  for (int it = 0; it < 60 / testing::kScale; ++it) {
    auto r = testing::RandomInstance(rng, 7, 1);
    for (auto& t : r) {
      t.size = it % 2 == 0 ? (std::uint64_t{1} << 61) + t.size : t.size << 40;
    }
    const std::uint64_t optimum = ExhaustiveOffsetsOptimum(r);
    for (const PortfolioEntry& entry : kPortfolio) {
      Search search(r, entry.order, entry.branching);
      Budget budget;
      EXPECT_EQ(search.Run(kInf, 0, &budget), RunOutcome::kComplete);
      ASSERT_TRUE(search.Found()) << "instance " << it;
      EXPECT_EQ(search.Best(), optimum) << "instance " << it;
    }
  }
}

TEST(ReleaseGroups, GroupsEqualReleasesHighestFirstWithFewOrManyValues) {
  // 1 to 80 distinct releases (the counting sort up to ReleaseGroups::kFew,
  // the full sort beyond), releases above the cap counted as the cap. The
  // expected groups come from a std::map of release -> tensors.
  std::mt19937_64 rng(7);
  for (std::uint64_t distinct = 1; distinct <= 80; ++distinct) {
    std::vector<std::pair<std::uint64_t, std::uint32_t>> releases;
    std::map<std::uint64_t, std::multiset<std::uint32_t>, std::greater<>> want;
    const std::uint64_t cap = 1000 + 10 * distinct / 2;
    for (std::uint32_t i = 0; i < 200; ++i) {
      const std::uint64_t v = 1000 + 10 * (rng() % distinct);
      releases.emplace_back(v, i);
      want[std::min(v, cap)].insert(i);
    }
    ReleaseGroups groups;
    groups.Build(releases, cap);
    ASSERT_EQ(groups.Groups().size(), want.size()) << distinct;
    std::size_t begin = 0, g = 0;
    for (const auto& [v, tensors] : want) {
      const auto& [release, end] = groups.Groups()[g++];
      EXPECT_EQ(release, v) << distinct;
      ASSERT_LE(begin, end);
      ASSERT_LE(end, groups.Tensors().size());
      const std::multiset<std::uint32_t> got(
          groups.Tensors().begin() + static_cast<std::ptrdiff_t>(begin),
          groups.Tensors().begin() + static_cast<std::ptrdiff_t>(end));
      EXPECT_EQ(got, tensors) << distinct << " release " << v;
      begin = end;
    }
    EXPECT_EQ(begin, groups.Tensors().size());
  }
}

}  // namespace
}  // namespace arenaplan::solver
