// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// CutIntoSegments: the one time compression shared by the profile summary
// and the exact search. Expected values derived by hand.
#include <gtest/gtest.h>

#include <vector>

#include "codegen/records.hpp"

namespace arenaplan {
namespace {

TEST(Segments, CutsAtEveryStartAndAfterEveryEnd) {
  // a: ops 0..3, b: ops 2..2, c: ops 5..9 (inclusive).
  // Cuts 0, 2, 3, 4, 5, 10 -> segments [0,2) [2,3) [3,4) [4,5) [5,10).
  const std::vector<TensorUsageRecord> r = {{0, 3, 8}, {2, 2, 4}, {5, 9, 1}};
  const TimeSegments t = CutIntoSegments(r);
  EXPECT_EQ(t.cuts, (std::vector<std::uint64_t>{0, 2, 3, 4, 5, 10}));
  EXPECT_EQ(t.Count(), 5u);
  EXPECT_EQ(t.first, (std::vector<std::uint32_t>{0, 1, 4}));
  EXPECT_EQ(t.end, (std::vector<std::uint32_t>{3, 2, 5}));
}

TEST(Segments, IdenticalLifetimesShareOneSegment) {
  const std::vector<TensorUsageRecord> r = {{7, 9, 1}, {7, 9, 2}};
  const TimeSegments t = CutIntoSegments(r);
  EXPECT_EQ(t.Count(), 1u);
  EXPECT_EQ(t.first, (std::vector<std::uint32_t>{0, 0}));
  EXPECT_EQ(t.end, (std::vector<std::uint32_t>{1, 1}));
}

TEST(Segments, LastOperatorOfTheRangeDoesNotOverflow) {
  const std::uint32_t last = 0xffffffffu;
  const std::vector<TensorUsageRecord> r = {{last, last, 1}, {0, last, 1}};
  const TimeSegments t = CutIntoSegments(r);
  EXPECT_EQ(t.cuts,
            (std::vector<std::uint64_t>{0, last, std::uint64_t{last} + 1}));
  EXPECT_EQ(t.first, (std::vector<std::uint32_t>{1, 0}));
  EXPECT_EQ(t.end, (std::vector<std::uint32_t>{2, 2}));
}

TEST(Segments, EmptyInputHasNoSegments) {
  EXPECT_EQ(CutIntoSegments({}).Count(), 0u);
}

TEST(Segments, ProfileSummaryUsesTheSameSegments) {
  const std::vector<TensorUsageRecord> r = {{0, 3, 8}, {2, 2, 4}, {5, 9, 1}};
  const ProfileSummary p = SummarizeProfiles(r);
  // Breadths by hand: [0,2)=8, [2,3)=12, [3,4)=8, [4,5)=0, [5,10)=1.
  EXPECT_EQ(p.segment_first_op, (std::vector<std::uint32_t>{0, 2, 3, 4, 5}));
  EXPECT_EQ(p.segment_last_op, (std::vector<std::uint32_t>{1, 2, 3, 4, 9}));
  EXPECT_EQ(p.segment_breadth, (std::vector<std::uint64_t>{8, 12, 8, 0, 1}));
}

}  // namespace
}  // namespace arenaplan
