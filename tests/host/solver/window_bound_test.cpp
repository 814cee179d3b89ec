// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// Lower bounds from windows of time (codegen/solver/window_bound.hpp):
// clipping by hand, soundness against the brute force, and bounds above max
// breadth on staircases whose optimum exceeds it.
#include "codegen/solver/window_bound.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "tests/host/support/exhaustive.hpp"
#include "tests/host/support/solver_instances.hpp"

namespace arenaplan {
namespace {

TEST(WindowBound, ClipsTensorsToTheWindow) {
  // a: ops 0..3, b: ops 2..2, c: ops 5..9 -> segments [0,2) [2,3) [3,4)
  // [4,5) [5,10). Window = segments [1, 4): a covers 1..2 -> 0..1, b 1 ->
  // 0..0, c not alive (segment 4 only).
  const std::vector<TensorUsageRecord> r = {{0, 3, 8}, {2, 2, 4}, {5, 9, 1}};
  const TimeSegments t = CutIntoSegments(r);
  const std::vector<TensorUsageRecord> w = WindowInstance(r, t, 1, 4);
  ASSERT_EQ(w.size(), 2u);
  EXPECT_EQ(w[0].first_op, 0u);
  EXPECT_EQ(w[0].last_op, 1u);
  EXPECT_EQ(w[0].size, 8u);
  EXPECT_EQ(w[1].first_op, 0u);
  EXPECT_EQ(w[1].last_op, 0u);
}

TEST(WindowBound, NeverExceedsTheOptimumAndReachesItAboveMaxBreadth) {
  std::mt19937_64 rng(20261126);
  int raised = 0;
  for (int it = 0; it < 300 / testing::kScale; ++it) {
    const auto r = it % 2 == 0 ? testing::StaircaseInstance(rng, 1)
                               : testing::RandomInstance(rng, 8, 1);
    const std::uint64_t optimum = testing::ExhaustiveOffsetsOptimum(r);
    const ProfileSummary s = SummarizeProfiles(r);
    WindowBoundOptions options;
    options.min_segments = 1;
    options.max_segments = 64;  // up to the whole instance
    options.breadth_permille = 0;
    options.nodes_per_search = 100000;  // decides every window here
    const WindowBound w = WindowLowerBound(r, s.offsets_lower_bound, options);
    ASSERT_LE(w.bound, optimum) << "instance " << it;
    ASSERT_GE(w.bound, s.offsets_lower_bound);
    // The whole instance is one of the windows, and these searches are
    // decided, so the bound reaches the optimum.
    EXPECT_EQ(w.bound, optimum) << "instance " << it;
    if (w.bound > s.offsets_lower_bound) ++raised;
  }
  EXPECT_GT(raised, 0);
}

}  // namespace
}  // namespace arenaplan
