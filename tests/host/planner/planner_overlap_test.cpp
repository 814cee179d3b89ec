// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// `best --overlap` is never worse than `best` without it here: a plan in
// which no two live tensors share a byte is valid whatever overlaps are
// allowed, and the exact search with the pairs counts such plans too.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "codegen/load/load_problem.hpp"
#include "codegen/planner/planner.hpp"
#include "codegen/validator/validator.hpp"

namespace arenaplan {
namespace {

const std::string kShared = ARENAPLAN_SHARED_DIR;

PlanResult Best(const UsageProblem& problem, bool overlap) {
  PlanOptions options;
  options.overlap = overlap;
  options.time_limit_s = 600;  // the deterministic work budget decides
  return Plan(problem, options);
}

// TFLM's id_model with its dynamic batch dimension set to 2: no operator's
// kernel contract allows an overlap at batch 2, and the greedy overlap
// variants alone (all `best --overlap` ran before) gave 442,768 B against
// the 301,520 B (= max breadth, so optimal) of plain `best`.
TEST(PlannerOverlap, BestWithOverlapIsNeverWorseOnAModelWithoutPairs) {
  InputOptions input;
  input.assume_dim = 2;
  input.overlap = true;
  const UsageProblem problem =
      LoadProblem(kShared + "/corpus/tflm_id_model.tflite", input);
  ASSERT_TRUE(problem.overlaps.empty());

  const PlanResult plain = Best(problem, false);
  const PlanResult overlap = Best(problem, true);
  EXPECT_LE(overlap.arena_bytes, plain.arena_bytes);
  // With no pairs, the max-breadth bound is a bound of both problems.
  EXPECT_EQ(overlap.arena_bytes, plain.summary.offsets_lower_bound);
  EXPECT_TRUE(overlap.overlap);
  EXPECT_TRUE(ValidateOffsets(overlap.problem.records, overlap.offsets,
                              overlap.arena_bytes, overlap.alignment,
                              overlap.overlaps)
                  .ok());
}

// Five tensors, no pairs (first and last operator inclusive, bytes):
//   A [3,3] 6, B [6,8] 5, C [4,5] 4, D [5,6] 7, E [1,4] 2.
// Operator 6 holds B and D: 12 bytes, the max breadth, so no plan is
// smaller; and 12 is reached: D at 0, B at 7 (they meet at 6), C at 7 (it
// meets D at 5, not B), E at 0 (it meets A at 3 and C at 4, not D), A at 2
// (it meets only E). Every greedy heuristic needs 13 here, so only the
// exact search finds the 12-byte plan.
TEST(PlannerOverlap, BestWithOverlapKeepsTheSearchPlanWithoutPairs) {
  UsageProblem p;
  p.source = "hand-built";
  p.records = {{3, 3, 6}, {6, 8, 5}, {4, 5, 4}, {5, 6, 7}, {1, 4, 2}};
  p.ids = {"A", "B", "C", "D", "E"};
  p.names.assign(5, "");
  p.operator_count = 9;

  PlanOptions all;
  all.strategy = "all";
  all.overlap = true;
  for (const PlanResult& heuristic : PlanAll(p, all)) {
    EXPECT_GT(heuristic.arena_bytes, 12U) << heuristic.strategy;
  }
  const PlanResult overlap = Best(p, true);
  EXPECT_EQ(overlap.arena_bytes, 12U);
  EXPECT_TRUE(overlap.overlap);
  EXPECT_TRUE(overlap.optimal);
  EXPECT_EQ(Best(p, false).arena_bytes, 12U);
}

}  // namespace
}  // namespace arenaplan
