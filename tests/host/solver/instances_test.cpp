// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The perfect-packing generator (codegen/solver/instances.hpp) and the
// property the exact search must meet on it: a plan within the width W
// (the optimum by construction) for small generated instances.
#include "codegen/solver/instances.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "codegen/solver/exact.hpp"
#include "codegen/validator/validator.hpp"
#include "tests/host/support/solver_instances.hpp"

namespace arenaplan {
namespace {

constexpr PackingCut kCuts[] = {PackingCut::kGuillotine, PackingCut::kStrips,
                                PackingCut::kEqualSizes,
                                PackingCut::kLongLivedSmall};

TEST(PerfectPacking, EveryOperatorIsExactlyTheWidthAndTheConstructionIsAPlan) {
  for (PackingCut cut : kCuts) {
    for (std::uint64_t seed = 1; seed <= 20; ++seed) {
      PerfectPackingParams p;
      p.width = 4096;
      p.operators = 50;
      p.buffers = 60;
      p.cut = cut;
      std::vector<std::uint64_t> offsets;
      const auto r = GeneratePerfectPacking(p, seed, &offsets);
      ASSERT_EQ(r.size(), 60u);
      const ProfileSummary s = SummarizeProfiles(r);
      // Time covered from 0 to T - 1 with breadth W everywhere.
      ASSERT_EQ(s.segment_first_op.front(), 0u);
      ASSERT_EQ(s.segment_last_op.back(), 49u);
      for (std::uint64_t b : s.segment_breadth) ASSERT_EQ(b, 4096u);
      for (const TensorUsageRecord& t : r) ASSERT_EQ(t.size % 16, 0u);
      EXPECT_TRUE(ValidateOffsets(r, offsets, 4096, 16).ok());
    }
  }
}

TEST(PerfectPacking, SameSeedSameRecordsOtherSeedOtherRecords) {
  PerfectPackingParams p;
  const auto a = GeneratePerfectPacking(p, 7);
  const auto b = GeneratePerfectPacking(p, 7);
  const auto c = GeneratePerfectPacking(p, 8);
  ASSERT_EQ(a.size(), b.size());
  bool same = true, differs = a.size() != c.size();
  for (std::size_t k = 0; k < a.size(); ++k) {
    same = same && a[k].first_op == b[k].first_op &&
           a[k].last_op == b[k].last_op && a[k].size == b[k].size;
    differs = differs || k >= c.size() || a[k].size != c[k].size ||
              a[k].first_op != c[k].first_op;
  }
  EXPECT_TRUE(same);
  EXPECT_TRUE(differs);
}

TEST(PerfectPacking, EqualSizesCutHasOneSizePerStrip) {
  PerfectPackingParams p;
  p.width = 1600;
  p.buffers = 100;  // 10 strips of 160 bytes
  p.cut = PackingCut::kEqualSizes;
  for (const TensorUsageRecord& t : GeneratePerfectPacking(p, 3)) {
    EXPECT_EQ(t.size, 160u);
  }
}

TEST(PerfectPacking, ReverseAndPermuteKeepTheProfile) {
  const std::vector<TensorUsageRecord> r = {{0, 2, 5}, {3, 4, 5}, {1, 4, 7}};
  const auto rev = ReverseTime(r);
  // last = 4: [0,2] -> [2,4], [3,4] -> [0,1], [1,4] -> [0,3].
  EXPECT_EQ(rev[0].first_op, 2u);
  EXPECT_EQ(rev[0].last_op, 4u);
  EXPECT_EQ(rev[1].first_op, 0u);
  EXPECT_EQ(rev[1].last_op, 1u);
  EXPECT_EQ(rev[2].last_op, 3u);
  const auto perm = PermuteRecords(r, 5);
  std::uint64_t sum = 0;
  for (const TensorUsageRecord& t : perm) sum += t.size * (t.last_op + 1);
  EXPECT_EQ(sum, 5u * 3 + 5u * 5 + 7u * 5);
}

/// Property: on small generated instances (every cut shape, reversed and
/// permuted too) the search finds a plan within W, and proves W optimal.
TEST(PerfectPacking, SearchPacksSmallInstancesWithinTheWidth) {
  int count = 0;
  for (PackingCut cut : kCuts) {
    for (std::uint64_t seed = 1; seed <= 60 / testing::kScale; ++seed) {
      PerfectPackingParams p;
      p.width = 16 * (8 + seed % 24);
      p.operators = 4 + static_cast<std::uint32_t>(seed % 12);
      p.buffers = 6 + seed % 20;
      p.cut = cut;
      p.time_cut_permille = 200 + 100 * static_cast<std::uint32_t>(seed % 7);
      auto r = GeneratePerfectPacking(p, seed);
      if (seed % 3 == 1) r = ReverseTime(r);
      if (seed % 3 == 2) r = PermuteRecords(r, seed);
      ExactOptions options;
      options.capacity = p.width;
      options.minimize = true;
      options.node_limit = 2'000'000;  // far above need; no clock
      options.time_limit_s = 1e9;
      const ExactResult result = SolveOffsetsExactly(r, options);
      ASSERT_EQ(result.status, ExactResult::kOptimal)
          << "cut " << static_cast<int>(cut) << " seed " << seed;
      ASSERT_EQ(result.arena_bytes, p.width);
      ASSERT_TRUE(ValidateOffsets(r, result.offsets, p.width, 16).ok());
      ++count;
    }
  }
  EXPECT_EQ(count, 4 * (60 / testing::kScale));
}

}  // namespace
}  // namespace arenaplan
