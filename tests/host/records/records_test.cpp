// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
#include "codegen/records.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <random>

namespace arenaplan {
namespace {

TEST(SummarizeProfiles, EmptyInputHasZeroBounds) {
  const ProfileSummary s = SummarizeProfiles({});
  EXPECT_EQ(s.offsets_lower_bound, 0u);
  EXPECT_EQ(s.shared_objects_lower_bound, 0u);
  EXPECT_EQ(s.naive_bytes, 0u);
  EXPECT_TRUE(s.positional_maximums.empty());
}

// By hand: A lives ops 0..1 (10 B), B ops 1..2 (20 B), C ops 2..3 (5 B).
// Profiles: op0 {10}, op1 {20,10}, op2 {20,5}, op3 {5}.
// Breadths 10, 30, 25, 5 -> offsets bound 30.
// Positional maximums: 1st max(10,20,20,5) = 20, 2nd max(10,5) = 10 -> 30.
TEST(SummarizeProfiles, ComputesBoundsOfAChainByHand) {
  const std::vector<TensorUsageRecord> r = {{0, 1, 10}, {1, 2, 20}, {2, 3, 5}};
  const ProfileSummary s = SummarizeProfiles(r);
  EXPECT_EQ(s.offsets_lower_bound, 30u);
  EXPECT_EQ(s.positional_maximums, (std::vector<std::uint64_t>{20, 10}));
  EXPECT_EQ(s.shared_objects_lower_bound, 30u);
  EXPECT_EQ(s.naive_bytes, 35u);
  // Segments follow the profile changes: ops 0, 1, 2, 3 each differ.
  EXPECT_EQ(s.segment_breadth, (std::vector<std::uint64_t>{10, 30, 25, 5}));
}

// By hand: the two bounds differ. X ops 0..2 (8 B), Y op 0 (4 B), Z op 2
// (6 B), W op 1 (5 B). Profiles: op0 {8,4}, op1 {8,5}, op2 {8,6}.
// Offsets bound max(12,13,14) = 14; positional maximums 8, max(4,5,6) = 6,
// so the Shared Objects bound is 14 too; naive 23.
TEST(SummarizeProfiles, ComputesPositionalMaximumsAcrossProfiles) {
  const std::vector<TensorUsageRecord> r = {
      {0, 2, 8}, {0, 0, 4}, {2, 2, 6}, {1, 1, 5}};
  const ProfileSummary s = SummarizeProfiles(r);
  EXPECT_EQ(s.offsets_lower_bound, 14u);
  EXPECT_EQ(s.positional_maximums, (std::vector<std::uint64_t>{8, 6}));
  EXPECT_EQ(s.naive_bytes, 23u);
}

// By hand: the Shared Objects bound can exceed the Offsets bound.
// P ops 0..0 (10), Q ops 0..0 (1), R ops 1..1 (6), S ops 1..1 (6).
// Breadths 11, 12 -> 12. Positional maximums: max(10,6) = 10, max(1,6) = 6
// -> 16.
TEST(SummarizeProfiles, SharedObjectsBoundCanExceedOffsetsBound) {
  const std::vector<TensorUsageRecord> r = {
      {0, 0, 10}, {0, 0, 1}, {1, 1, 6}, {1, 1, 6}};
  const ProfileSummary s = SummarizeProfiles(r);
  EXPECT_EQ(s.offsets_lower_bound, 12u);
  EXPECT_EQ(s.shared_objects_lower_bound, 16u);
}

TEST(SummarizeProfiles, CompressesLargeOperatorIndices) {
  const std::vector<TensorUsageRecord> r = {{0, 999'999, 3},
                                            {500'000, 4'000'000'000u, 4}};
  const ProfileSummary s = SummarizeProfiles(r);
  EXPECT_EQ(s.offsets_lower_bound, 7u);
  EXPECT_EQ(s.segment_breadth, (std::vector<std::uint64_t>{3, 7, 4}));
  EXPECT_EQ(s.segment_first_op, (std::vector<std::uint32_t>{0, 500'000, 1'000'000}));
  EXPECT_EQ(s.segment_last_op.back(), 4'000'000'000u);
}

// Second method: build every operator profile explicitly, sort it, and take
// breadths and positional maximums straight from the paper's definitions.
TEST(SummarizeProfiles, MatchesTheDefinitionsOnRandomInstances) {
  std::mt19937_64 rng(20261121);
  for (int iter = 0; iter < 500; ++iter) {
    const int n = 1 + static_cast<int>(rng() % 30);
    const std::uint32_t ops = 1 + static_cast<std::uint32_t>(rng() % 25);
    std::vector<TensorUsageRecord> r;
    for (int i = 0; i < n; ++i) {
      const std::uint32_t a = static_cast<std::uint32_t>(rng() % ops);
      const std::uint32_t b = static_cast<std::uint32_t>(rng() % ops);
      r.push_back({std::min(a, b), std::max(a, b), 1 + rng() % 100});
    }
    std::uint64_t max_breadth = 0;
    std::vector<std::uint64_t> pm;
    for (std::uint32_t op = 0; op < ops; ++op) {
      std::vector<std::uint64_t> profile;
      for (const auto& t : r) {
        if (t.first_op <= op && op <= t.last_op) profile.push_back(t.size);
      }
      std::sort(profile.begin(), profile.end(), std::greater<>());
      std::uint64_t breadth = 0;
      for (std::size_t i = 0; i < profile.size(); ++i) {
        breadth += profile[i];
        if (pm.size() <= i) pm.push_back(0);
        pm[i] = std::max(pm[i], profile[i]);
      }
      max_breadth = std::max(max_breadth, breadth);
    }
    const ProfileSummary s = SummarizeProfiles(r);
    ASSERT_EQ(s.offsets_lower_bound, max_breadth) << "iteration " << iter;
    ASSERT_EQ(s.positional_maximums, pm) << "iteration " << iter;
  }
}

}  // namespace
}  // namespace arenaplan
