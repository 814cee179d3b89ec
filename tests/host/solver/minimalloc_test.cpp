// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// MiniMalloc's challenging instances A-E (Moffitt, ASPLOS 2023): every
// strategy of both approaches plans them and the plans validate.
#include <gtest/gtest.h>

#include <string>

#include "codegen/input/input.hpp"
#include "codegen/load/load_problem.hpp"
#include "codegen/planner/planner.hpp"
#include "codegen/validator/validator.hpp"

namespace arenaplan {
namespace {

constexpr std::uint64_t kCapacity = 1'048'576;  // the instances' file names

class MiniMallocTest : public ::testing::TestWithParam<char> {};

TEST_P(MiniMallocTest, EveryStrategyPlanValidates) {
  const std::string path = std::string(ARENAPLAN_SHARED_DIR) +
                           "/benchmarks/minimalloc-challenging/" + GetParam() +
                           ".1048576.csv";
  const UsageProblem problem = LoadProblem(path, {});
  ASSERT_GT(problem.records.size(), 100u);
  for (Approach approach : {Approach::kOffsets, Approach::kSharedObjects}) {
    PlanOptions options;
    options.approach = approach;
    const std::vector<PlanResult> plans = PlanAll(problem, options);
    ASSERT_GE(plans.size(), 5u);
    for (const PlanResult& plan : plans) {
      // Validated once more here, independently of Plan()'s own check.
      EXPECT_TRUE(ValidateOffsets(plan.problem.records, plan.offsets,
                                  plan.arena_bytes, 1)
                      .ok())
          << plan.strategy;
      EXPECT_GE(plan.arena_bytes, plan.lower_bound) << plan.strategy;
    }
    // MiniMalloc publishes these instances as solvable within 1,048,576
    // bytes, so no operator's breadth can exceed it.
    EXPECT_LE(plans.front().summary.offsets_lower_bound, kCapacity);
  }
}

INSTANTIATE_TEST_SUITE_P(Instances, MiniMallocTest,
                         ::testing::Values('A', 'B', 'C', 'D', 'E'));

}  // namespace
}  // namespace arenaplan
