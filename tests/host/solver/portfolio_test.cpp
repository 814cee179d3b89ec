// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// Restarts over the portfolio and the budgets (codegen/solver/portfolio.hpp,
// budget.hpp).
#include "codegen/solver/portfolio.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <random>
#include <vector>

#include "codegen/solver/budget.hpp"
#include "codegen/solver/components.hpp"
#include "tests/host/support/exhaustive.hpp"
#include "tests/host/support/solver_instances.hpp"

namespace arenaplan::solver {
namespace {

Component WholeInput(const std::vector<TensorUsageRecord>& r) {
  std::vector<Component> c = SplitIntoComponents(r, false);
  c[0].bound = Search(c[0].records, kPortfolio[0].order).RootBound();
  return c[0];
}

TEST(Portfolio, ProvesTheOptimumWithAndWithoutRestarts) {
  std::mt19937_64 rng(20261125);
  for (int it = 0; it < 200 / testing::kScale; ++it) {
    const auto r = it % 2 == 0 ? testing::StaircaseInstance(rng, 1)
                               : testing::RandomInstance(rng, 8, 1);
    const std::uint64_t optimum = testing::ExhaustiveOffsetsOptimum(r);
    for (bool restarts : {true, false}) {
      ExactTechniques t;
      t.restarts = restarts;
      Component c = WholeInput(r);
      Budget budget;
      SolveComponent(c, kInf, c.bound, &budget, t);
      // Proven: by a complete run, or by a plan at the lower bound (the
      // run stops there, as good enough).
      ASSERT_TRUE(c.proven || c.value == c.bound) << "instance " << it;
      EXPECT_EQ(c.value, optimum) << "instance " << it;
    }
  }
}

TEST(Portfolio, ProvesInfeasibleBelowTheCapacity) {
  // Two overlapping 4-byte tensors cannot share fewer than 8 bytes.
  const std::vector<TensorUsageRecord> r = {{0, 1, 4}, {1, 2, 4}};
  Component c = WholeInput(r);
  Budget budget;
  SolveComponent(c, /*cap_plus_one=*/8, c.bound, &budget);
  EXPECT_TRUE(c.infeasible);
}

TEST(Portfolio, StopsWhenTheNodeLimitIsReached) {
  std::mt19937_64 rng(11);
  std::vector<TensorUsageRecord> r;
  for (std::uint32_t i = 0; i < 60; ++i) {
    r.push_back(
        {i, i + 1 + static_cast<std::uint32_t>(rng() % 9), 1 + rng() % 97});
  }
  Component c = WholeInput(r);
  Budget budget;
  budget.node_limit = 3000;
  SolveComponent(c, kInf, c.bound, &budget);
  EXPECT_LE(budget.nodes, 3000u);
  if (!c.proven) {
    EXPECT_TRUE(budget.out_of_nodes);
  }
}

TEST(Budget, RunEndsAtItsNodeCountAndTheSearchAtTheLimit) {
  Budget b;
  b.node_limit = 10;
  b.run_end = 3;
  EXPECT_TRUE(b.Tick());
  EXPECT_TRUE(b.Tick());
  EXPECT_FALSE(b.Tick());  // node 3 ends the run
  EXPECT_TRUE(b.run_over);
  EXPECT_FALSE(b.Finished());
  b.run_over = false;
  b.run_end = kInf;
  for (int k = 0; k < 6; ++k) EXPECT_TRUE(b.Tick());
  EXPECT_FALSE(b.Tick());  // node 10
  EXPECT_TRUE(b.out_of_nodes);
}

TEST(Budget, ReadsTheClockOnlyEveryFewThousandNodes) {
  Budget b;
  b.deadline = std::chrono::steady_clock::now();  // already past
  for (std::uint64_t k = 1; k < Budget::kClockEvery; ++k) {
    ASSERT_TRUE(b.Tick());
  }
  EXPECT_FALSE(b.Tick());
  EXPECT_TRUE(b.timed_out);
}

}  // namespace
}  // namespace arenaplan::solver
