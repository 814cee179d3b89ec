// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The work cap of the Offset Calculation strategies (codegen/strategies/
// common/work_cap.hpp): Alg. 3 unchanged while the cap is unspent, the
// bounded gap rule after it, always a sound plan. Expected plans by hand or
// from Alg. 3 as printed (tests/host/support/offsets_reference.hpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "codegen/records.hpp"
#include "codegen/solver/instances.hpp"
#include "codegen/strategies/common/offset_gaps.hpp"
#include "codegen/strategies/common/work_cap.hpp"
#include "codegen/strategies/strategies.hpp"
#include "codegen/validator/validator.hpp"
#include "tests/host/support/offsets_reference.hpp"

namespace arenaplan {
namespace {

using namespace offsets_reference;  // NOLINT(build/namespaces)

Offsets PlaceInOrder(const Records& records,
                     const std::vector<std::size_t>& order, std::uint64_t cap,
                     std::size_t* capped_after) {
  offset_gaps::GapPlacer placer(records, {}, cap);
  for (std::size_t i : order) placer.Place(i);
  OffsetsAssignment a = std::move(placer).Take();
  *capped_after = a.capped_after;
  return a.offsets;
}

TEST(WorkCap, CapGrowsAsNLogN) {
  // 2^24 + 16 * n * bit_width(n): bit_width(1000) = 10, bit_width(10^6) = 20.
  EXPECT_EQ(HeuristicWorkCap(0), std::uint64_t{1} << 24);
  EXPECT_EQ(HeuristicWorkCap(1000), (std::uint64_t{1} << 24) + 16 * 1000 * 10);
  EXPECT_EQ(HeuristicWorkCap(1'000'000),
            (std::uint64_t{1} << 24) + std::uint64_t{16} * 1'000'000 * 20);
  EXPECT_EQ(HeuristicWorkCap(SIZE_MAX), UINT64_MAX);
  WorkCap cap(3);
  EXPECT_TRUE(cap.Charge(3));
  EXPECT_FALSE(cap.Spent());
  EXPECT_FALSE(cap.Charge(1));
  EXPECT_TRUE(cap.Spent());
  EXPECT_FALSE(cap.Charge(0));  // stays spent
}

TEST(WorkCap, BoundedRuleFillsTheGapAlg3Finds) {
  // Sizes 100, 90, 50, 10 (already in Alg. 3 L.1 order). A cap of 0 is spent
  // by the first placement, so X is placed by Alg. 3 (offset 0) and the
  // rest by the bounded rule:
  // - Y [1,1] meets nothing placed: the top of nothing, 0;
  // - Z [0,1] meets X [0,100) and Y [0,90): no gap, top 100;
  // - W [1,1] meets Y [0,90) and Z [100,150): the gap [90,100) holds its
  //   10 bytes exactly, and Alg. 3 picks it too.
  const Records records = {R(0, 0, 100), R(1, 1, 90), R(0, 1, 50), R(1, 1, 10)};
  std::size_t capped_after = 0;
  const Offsets got = PlaceInOrder(records, {0, 1, 2, 3}, 0, &capped_after);
  EXPECT_EQ(got, (Offsets{0, 0, 100, 90}));
  EXPECT_EQ(capped_after, 1u);
  EXPECT_EQ(got, ReferenceGreedyBySize(records));
}

TEST(WorkCap, UnspentCapIsAlg3ByteForByte) {
  // 3,000 dense records: Alg. 3 examines at most n^2 / 2 = 4.5 * 10^6
  // placed records, below the cap (> 2^24).
  const Records records = GenerateDenseLifetimes(3000, 17);
  const OffsetsAssignment a = OffsetsGreedyBySize(records);
  EXPECT_EQ(a.capped_after, SIZE_MAX);
  EXPECT_EQ(a.offsets, ReferenceGreedyBySize(records));
}

TEST(WorkCap, SpentCapKeepsAlg3PrefixAndAValidPlan) {
  // 9,000 dense records: Alg. 3 would examine about n^2 / 2 = 4 * 10^7
  // placed records, over the cap (2^24 + 16 * 9000 * 14 = 1.88 * 10^7), so
  // the cap is spent part way. The records placed before it have Alg. 3's
  // offsets (the reference, run to the end, agrees on them: later records
  // cannot move earlier ones); the plan stays valid and above max breadth.
  const Records records = GenerateDenseLifetimes(9000, 23);
  const OffsetsAssignment a = OffsetsGreedyBySize(records);
  ASSERT_GT(a.capped_after, 0u);
  ASSERT_LT(a.capped_after, records.size());
  const Offsets reference = ReferenceGreedyBySize(records);
  const std::vector<std::size_t> order =
      offset_gaps::OrderBySizeDescending(records);
  for (std::size_t k = 0; k < a.capped_after; ++k) {
    ASSERT_EQ(a.offsets[order[k]], reference[order[k]]) << "placement " << k;
  }
  const std::uint64_t arena = Arena(records, a.offsets);
  EXPECT_TRUE(ValidateOffsets(records, a.offsets, arena, 1).ok());
  EXPECT_GE(arena, MaxBreadth(records));
}

TEST(WorkCap, BoundedRuleAlwaysPlacesSoundly) {
  // Every record but the first by the bounded rule, on instances larger
  // than its scan windows, in size order and in breadth-like random orders.
  std::mt19937_64 rng(5);
  for (int it = 0; it < 6; ++it) {
    const std::size_t n = 200 + 400 * static_cast<std::size_t>(it);
    const Records records = GenerateDenseLifetimes(n, 100 + it);
    std::vector<std::size_t> order =
        offset_gaps::OrderBySizeDescending(records);
    if (it % 2 == 1) std::shuffle(order.begin(), order.end(), rng);
    std::size_t capped_after = 0;
    const Offsets got = PlaceInOrder(records, order, 0, &capped_after);
    EXPECT_EQ(capped_after, 1u);
    EXPECT_TRUE(NoOverlap(records, got)) << "instance " << it;
  }
}

}  // namespace
}  // namespace arenaplan
