// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// Property tests over thousands of random instances: every strategy of both
// approaches gives a plan that the validators accept, no plan beats the
// lower bound or the exhaustive optimum, and `best` is never worse than any
// heuristic.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>

#include "arenaplan/plan.hpp"
#include "codegen/planner/planner.hpp"
#include "codegen/validator/validator.hpp"
#include "tests/host/support/exhaustive.hpp"
#include "tests/host/support/sanitizers.hpp"

namespace arenaplan {
namespace {

using testing::ExhaustiveOffsetsOptimum;
using testing::ExhaustiveSharedObjectsOptimum;
using testing::kMaxExhaustiveRecords;

enum class Shape { kChain, kResidual, kBranching, kRandomIntervals };

/// A random network-like instance. Chains: op k reads tensor k-1, writes k.
/// Residual: some ops also read an older tensor (a skip connection), which
/// stretches its life. Branching: an op's output feeds two parallel ops whose
/// outputs are joined. Random intervals: arbitrary [first, last].
UsageProblem RandomProblem(std::mt19937_64& rng, Shape shape, int n) {
  UsageProblem p;
  auto size = [&] {
    // Sizes with ties and a realistic spread (1 B .. 64 KiB).
    static constexpr std::uint64_t kSizes[] = {1,  3,  8,   16,   16,   24,
                                               64, 96, 128, 1000, 4096, 65536};
    return rng() % 3 == 0 ? kSizes[rng() % std::size(kSizes)] : 1 + rng() % 200;
  };
  auto add = [&](std::uint32_t first, std::uint32_t last) {
    p.records.push_back({first, last, size()});
    p.ids.push_back(std::to_string(p.ids.size()));
    p.names.emplace_back();
    p.operator_count = std::max(p.operator_count, last + 1);
  };
  switch (shape) {
    case Shape::kRandomIntervals:
      for (int i = 0; i < n; ++i) {
        const auto a = static_cast<std::uint32_t>(rng() % (n + 2));
        add(a, a + static_cast<std::uint32_t>(rng() % 5));
      }
      break;
    case Shape::kChain:
    case Shape::kResidual:
    case Shape::kBranching: {
      // last_use[t] grows as later ops read tensor t.
      std::vector<std::uint32_t> born, last_use;
      born.push_back(0);
      last_use.push_back(0);
      for (std::uint32_t op = 1; static_cast<int>(born.size()) < n; ++op) {
        const std::size_t prev = born.size() - 1;
        last_use[prev] = op;
        if (shape == Shape::kResidual && prev >= 2 && rng() % 3 == 0) {
          last_use[prev - 1 - rng() % std::min<std::size_t>(prev - 1, 4)] = op;
        }
        born.push_back(op);
        last_use.push_back(op);
        if (shape == Shape::kBranching && rng() % 3 == 0 &&
            static_cast<int>(born.size()) + 2 < n) {
          // Two parallel branches read `op`'s output; op+3 joins them.
          born.push_back(op + 1);
          last_use.push_back(op + 3);
          born.push_back(op + 2);
          last_use.push_back(op + 3);
          last_use[born.size() - 3] = op + 2;
          op += 2;
        }
      }
      for (std::size_t t = 0; t < born.size(); ++t) add(born[t], last_use[t]);
      break;
    }
  }
  if (rng() % 7 == 0) p.records[rng() % p.records.size()].size = 0;
  p.source = "random";
  return p;
}

void CheckPlan(const PlanResult& plan, const std::string& where) {
  const auto& r = plan.problem.records;
  ASSERT_TRUE(
      ValidateOffsets(r, plan.offsets, plan.arena_bytes, plan.alignment).ok())
      << where;
  // Second method: core's pairwise constexpr validator on the same plan.
  std::vector<Placement> placements;
  for (std::size_t i = 0; i < r.size(); ++i) {
    placements.push_back(
        {plan.offsets[i], r[i].size, r[i].first_op, r[i].last_op});
  }
  ASSERT_EQ(validate(placements.data(), placements.size(), plan.arena_bytes,
                     plan.alignment),
            ValidationResult::kOk)
      << where;
  if (plan.approach == Approach::kSharedObjects) {
    ASSERT_TRUE(
        ValidateSharedObjects(r, plan.object_of, plan.object_sizes).ok())
        << where;
  }
  ASSERT_GE(plan.arena_bytes, plan.lower_bound) << where;
  ASSERT_GE(plan.arena_bytes, plan.summary.offsets_lower_bound) << where;
}

/// Instances per run: 2,400 in an optimised build. The sanitizer build (CI
/// runs both) repeats a quarter of them, which keeps it to a minute there.
constexpr int kInstances = ARENAPLAN_TEST_ASAN ? 600 : 2400;

TEST(PlannerProperty, EveryStrategyValidatesAndRespectsTheBounds) {
  std::mt19937_64 rng(0xA7E7A);
  int instances = 0, exhaustive = 0, offsets_optimal_hits = 0;
  for (int iter = 0; iter < kInstances; ++iter) {
    const Shape shape = static_cast<Shape>(iter % 4);
    const bool tiny = iter % 2 == 0;
    const int n = tiny ? 1 + static_cast<int>(rng() % kMaxExhaustiveRecords)
                       : 9 + static_cast<int>(rng() % 40);
    const UsageProblem problem = RandomProblem(rng, shape, n);
    const std::uint64_t alignment = iter % 5 == 0 ? 8 : 1;
    const std::string where = "iteration " + std::to_string(iter);
    ++instances;

    std::uint64_t offsets_optimum = 0, objects_optimum = 0;
    const bool small = problem.records.size() <= kMaxExhaustiveRecords;
    if (small) {
      const UsageProblem aligned =
          AlignProblem(problem, Alignment::FromBytes(alignment));
      offsets_optimum = ExhaustiveOffsetsOptimum(aligned.records);
      objects_optimum = ExhaustiveSharedObjectsOptimum(aligned.records);
      ++exhaustive;
    }
    for (Approach approach : {Approach::kOffsets, Approach::kSharedObjects}) {
      PlanOptions options;
      options.approach = approach;
      options.alignment = Alignment::FromBytes(alignment);
      const std::vector<PlanResult> all = PlanAll(problem, options);
      ASSERT_FALSE(all.empty());
      std::uint64_t smallest = ~std::uint64_t{0};
      for (const PlanResult& plan : all) {
        CheckPlan(plan, where + " " + plan.strategy);
        smallest = std::min(smallest, plan.arena_bytes);
        if (small) {
          const std::uint64_t optimum = approach == Approach::kOffsets
                                            ? offsets_optimum
                                            : objects_optimum;
          ASSERT_GE(plan.arena_bytes, optimum) << where << " " << plan.strategy;
          ASSERT_GE(optimum, plan.lower_bound) << where;
          // A plan that says it is optimal is.
          if (plan.optimal) {
            ASSERT_EQ(plan.arena_bytes, optimum) << where;
          }
        }
        // A heuristic's gap is measured from the approach's lower bound.
        EXPECT_EQ(plan.gap_bytes, plan.arena_bytes - plan.lower_bound)
            << where << " " << plan.strategy;
      }
      options.strategy = "best";
      const PlanResult best = Plan(problem, options);
      CheckPlan(best, where + " best");
      ASSERT_LE(best.arena_bytes, smallest) << where;
      if (best.optimal) {
        EXPECT_EQ(best.gap_bytes, 0u) << where;
      }
      if (small && best.optimal) {
        ASSERT_EQ(best.arena_bytes, approach == Approach::kOffsets
                                        ? offsets_optimum
                                        : objects_optimum)
            << where;
      }
      if (small && approach == Approach::kOffsets &&
          best.arena_bytes == offsets_optimum) {
        ++offsets_optimal_hits;
      }
    }
    if (small) {
      ASSERT_LE(offsets_optimum, objects_optimum) << where;
    }
  }
  EXPECT_EQ(instances, kInstances);
  EXPECT_GE(exhaustive, kInstances / 2);
  // Not a property, a sanity check that the comparison is meaningful: the
  // heuristics should reach the optimum on most tiny instances.
  EXPECT_GT(offsets_optimal_hits, exhaustive / 2);
}

}  // namespace
}  // namespace arenaplan
