// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The incremental placement of a region's newcomers (hand-derived offsets).
#include "codegen/regions/region_fill.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace arenaplan {
namespace {

UsageProblem Problem(const std::vector<TensorUsageRecord>& records,
                     std::uint32_t ops) {
  UsageProblem p;
  p.records = records;
  p.operator_count = ops;
  return p;
}

TEST(RegionFill, PlacesANewcomerInTheLowestGapOfItsLifetime) {
  // Members: 0 at [0, 10) ops 0-3, 1 at [30, 40) ops 2-5, 2 at [10, 20)
  // ops 6-7. Newcomer 3 (ops 3-6, 20 bytes): alive with 0, 1 and 2, whose
  // bytes are [0, 10), [10, 20) and [30, 40): the lowest gap of 20 bytes
  // starts at 40. Newcomer 4 (ops 4-5, 10 bytes): alive with 1 only: 0.
  const UsageProblem p =
      Problem({{0, 3, 10}, {2, 5, 10}, {6, 7, 10}, {3, 6, 20}, {4, 5, 10}}, 8);
  std::vector<std::uint64_t> offset_of = {0, 30, 10, 0, 0};
  RegionFill fill;
  fill.skyline = std::make_unique<IntervalChmaxMax>(8);
  for (std::size_t m : {0, 1, 2}) Place(p, fill, m, offset_of[m]);
  EXPECT_EQ(LowestOffset(p, fill, 3, offset_of), 40u);
  EXPECT_EQ(LowestOffset(p, fill, 4, offset_of), 0u);
  // A gap of exactly the size: between [0, 10) and [30, 40) for 20 bytes
  // when 2 is not there.
  RegionFill two;
  two.skyline = std::make_unique<IntervalChmaxMax>(8);
  for (std::size_t m : {0, 1}) Place(p, two, m, offset_of[m]);
  EXPECT_EQ(LowestOffset(p, two, 3, offset_of), 10u);
}

TEST(RegionFill, GoesOnTopWhenTooManyMembersMayBeAlive) {
  // kGapScan + 1 members of 1 byte alive at operator 0 at offsets 1, 2,
  // ...: the gap at 0 is not searched; the newcomer goes on top of the
  // highest member alive in its lifetime (offset kGapScan + 1, end + 1).
  std::vector<TensorUsageRecord> records(kGapScan + 2, {0, 0, 1});
  const UsageProblem p = Problem(records, 1);
  std::vector<std::uint64_t> offset_of(records.size(), 0);
  RegionFill fill;
  fill.skyline = std::make_unique<IntervalChmaxMax>(1);
  for (std::size_t m = 0; m <= kGapScan; ++m) {
    offset_of[m] = m + 1;
    Place(p, fill, m, offset_of[m]);
  }
  EXPECT_EQ(LowestOffset(p, fill, kGapScan + 1, offset_of), kGapScan + 2);
}

}  // namespace
}  // namespace arenaplan
