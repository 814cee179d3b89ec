// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The test problems of usage_problems.hpp: the fields a hand-written
// problem gets, and that random pairs are well formed and drawn only for
// candidates.
#include "tests/host/support/usage_problems.hpp"

#include <gtest/gtest.h>

#include <optional>
#include <random>
#include <vector>

namespace arenaplan::testing_util {
namespace {

TEST(UsageProblems, NumbersTensorsAndCountsOperators) {
  const UsageProblem p =
      Problem({{0, 1, 64}, {1, 4, 16}}, {Below(0, 1, 1, 16)});
  EXPECT_EQ(p.ids, (std::vector<std::string>{"0", "1"}));
  EXPECT_EQ(p.names, (std::vector<std::string>{"", ""}));
  EXPECT_EQ(p.operator_count, 5u);  // Operators 0..4.
  ASSERT_EQ(p.overlaps.size(), 1u);
  EXPECT_EQ(p.overlaps[0].relation, OverlapRelation::kOutputBelowBy);
  EXPECT_EQ(p.overlaps[0].distance, 16u);
  const std::vector<RegionSpec> r = Regions({64, 1024});
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[1].name, "r1");
  EXPECT_EQ(r[1].capacity, 1024u);
  EXPECT_EQ(r[1].section, ".arena_r1");
}

// A [0,1], B [1,2], C [1,1], D [2,3]: the candidates (input dies where
// the output is created), inputs in order, then outputs: A->B, A->C (A
// dies at 1), B->D (B dies at 2), C->B (C dies at 1); not C->D (D starts
// at 2) nor A->D.
TEST(UsageProblems, OffersExactlyTheWellFormedCandidatesInOrder) {
  const std::vector<TensorUsageRecord> records = {
      {0, 1, 16}, {1, 2, 16}, {1, 1, 16}, {2, 3, 16}};
  std::mt19937_64 rng(1);
  std::vector<std::pair<std::uint32_t, std::uint32_t>> offered;
  const std::vector<OverlapPair> pairs =
      RandomPairs(rng, records,
                  [&](std::mt19937_64&, std::uint32_t in,
                      std::uint32_t out) -> std::optional<OverlapPair> {
                    offered.emplace_back(in, out);
                    if (out == 2) return std::nullopt;
                    return Alias(in, out, records[in].last_op);
                  });
  EXPECT_EQ(offered, (std::vector<std::pair<std::uint32_t, std::uint32_t>>{
                         {0, 1}, {0, 2}, {1, 3}, {2, 1}}));
  ASSERT_EQ(pairs.size(), 3u);  // A->C refused by the callback.
  EXPECT_EQ(pairs[0].op, 1u);
  EXPECT_EQ(pairs[1].input, 1u);
  EXPECT_EQ(pairs[1].output, 3u);
  EXPECT_EQ(pairs[1].op, 2u);
  EXPECT_EQ(pairs[2].input, 2u);
  EXPECT_EQ(pairs[2].output, 1u);
  EXPECT_EQ(pairs[2].op, 1u);
}

TEST(UsageProblems, DrawsRecordsWithOrderedLifetimes) {
  std::mt19937_64 rng(7);
  const std::vector<TensorUsageRecord> records = RandomRecords(
      rng, 5, 200, [](std::mt19937_64& g) { return 1 + g() % 9; });
  ASSERT_EQ(records.size(), 200u);
  for (const TensorUsageRecord& r : records) {
    EXPECT_LE(r.first_op, r.last_op);
    EXPECT_LT(r.last_op, 5u);
    EXPECT_GE(r.size, 1u);
    EXPECT_LE(r.size, 9u);
  }
}

}  // namespace
}  // namespace arenaplan::testing_util
