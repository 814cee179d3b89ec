// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The exact search behind `best` and `optimal` is ended by a deterministic
// work budget, not by the clock: the same input gives the same plan on an
// idle and on a busy machine; the wall-clock cap is reported when it, not
// the budget, ended the search; progress lines improve monotonically.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "codegen/input/input.hpp"
#include "codegen/planner/planner.hpp"

namespace arenaplan {
namespace {

const std::string kShared = ARENAPLAN_SHARED_DIR;

UsageProblem InstanceD() {
  return LoadCsvProblem(kShared +
                        "/benchmarks/minimalloc-challenging/D.1048576.csv");
}

/// `best` on D with a small budget (so the test is short) and a cap far
/// above what it needs: the budget decides.
PlanResult BestWithBudget(const UsageProblem& p) {
  PlanOptions options;
  options.work_limit = 1'000'000;
  options.time_limit_s = 600;
  return Plan(p, options);
}

TEST(PlannerBudget, SamePlanIdleAndUnderHeavyLoad) {
  const UsageProblem p = InstanceD();
  const PlanResult idle = BestWithBudget(p);
  ASSERT_EQ(idle.search_stopped_by, "budget");

  std::atomic<bool> stop{false};
  std::vector<std::thread> busy;
  const unsigned spinners =
      2 * std::max(1u, std::thread::hardware_concurrency());
  for (unsigned k = 0; k < spinners; ++k) {
    busy.emplace_back([&stop] {
      volatile std::uint64_t x = 0;
      while (!stop.load(std::memory_order_relaxed)) x = x + 1;
    });
  }
  const PlanResult loaded = BestWithBudget(p);
  stop = true;
  for (std::thread& t : busy) t.join();

  EXPECT_EQ(loaded.search_stopped_by, "budget");
  EXPECT_EQ(loaded.search_work, idle.search_work);
  EXPECT_EQ(loaded.arena_bytes, idle.arena_bytes);
  EXPECT_EQ(loaded.offsets, idle.offsets);
}

TEST(PlannerBudget, ReportsWhenTheTimeLimitEndedTheSearch) {
  const UsageProblem p = InstanceD();
  PlanOptions options;
  options.strategy = "optimal";
  options.time_limit_s = 1e-6;  // read after the first 4096 nodes
  options.work_limit = 0;       // no budget
  const PlanResult plan = Plan(p, options);
  EXPECT_EQ(plan.search_stopped_by, "time_limit");
  const std::string note = SearchStopNote(plan, options);
  EXPECT_NE(note.find("time limit"), std::string::npos) << note;
  EXPECT_EQ(note.find('\n'), std::string::npos);  // one line

  const PlanResult budgeted = BestWithBudget(p);
  EXPECT_EQ(SearchStopNote(budgeted, PlanOptions{}), "");
}

TEST(PlannerBudget, ProgressImprovesMonotonicallyToTheResult) {
  const UsageProblem p = InstanceD();
  std::vector<std::pair<std::uint64_t, std::uint64_t>> seen;
  PlanOptions options;
  options.work_limit = 1'000'000;
  options.time_limit_s = 600;
  options.on_progress = [&](std::uint64_t arena, std::uint64_t bound) {
    seen.emplace_back(arena, bound);
  };
  const PlanResult plan = Plan(p, options);
  ASSERT_FALSE(seen.empty());
  for (std::size_t k = 1; k < seen.size(); ++k) {
    EXPECT_TRUE(seen[k].first < seen[k - 1].first ||
                seen[k].second > seen[k - 1].second);
    EXPECT_LE(seen[k].first, seen[k - 1].first);
    EXPECT_GE(seen[k].second, seen[k - 1].second);
  }
  EXPECT_EQ(seen.back().first, plan.arena_bytes);
  EXPECT_EQ(seen.back().second, plan.lower_bound_proven);

  std::ostringstream lines;
  ProgressLines(lines)(1000, 900);
  EXPECT_EQ(lines.str(),
            "progress: arena 1000 bytes, lower bound 900 bytes, gap 100\n");
}

}  // namespace
}  // namespace arenaplan
