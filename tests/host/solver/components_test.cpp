// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The time-independent components of the input
// (codegen/solver/components.hpp). Expected values derived by hand.
#include "codegen/solver/components.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace arenaplan::solver {
namespace {

TEST(Components, CutsWhereNoEarlierTensorIsAlive) {
  // Input order: 0:[4,6] 1:[0,2] 2:[2,3] 3:[7,7] 4:[5,5].
  // By first_op: 1(0) 2(2) 0(4) 4(5) 3(7); reach after 1,2 is 4 -> cut at 0;
  // reach after 0,4 is 7 -> cut at 3.
  const std::vector<TensorUsageRecord> r = {
      {4, 6, 1}, {0, 2, 1}, {2, 3, 1}, {7, 7, 1}, {5, 5, 1}};
  const std::vector<Component> c = SplitIntoComponents(r);
  ASSERT_EQ(c.size(), 3u);
  EXPECT_EQ(c[0].ids, (std::vector<std::uint32_t>{1, 2}));
  EXPECT_EQ(c[1].ids, (std::vector<std::uint32_t>{0, 4}));
  EXPECT_EQ(c[2].ids, (std::vector<std::uint32_t>{3}));
  EXPECT_EQ(c[1].records[1].first_op, 5u);
  EXPECT_EQ(c[0].value, kInf);
}

TEST(Components, LeavesOutZeroSizeTensors) {
  const std::vector<TensorUsageRecord> r = {{0, 1, 4}, {1, 3, 0}, {2, 3, 4}};
  const std::vector<Component> c = SplitIntoComponents(r);
  ASSERT_EQ(c.size(), 2u);
  EXPECT_EQ(c[0].ids, (std::vector<std::uint32_t>{0}));
  EXPECT_EQ(c[1].ids, (std::vector<std::uint32_t>{2}));
}

TEST(Components, OneComponentWhenSplittingIsOff) {
  const std::vector<TensorUsageRecord> r = {{4, 6, 1}, {0, 2, 1}, {7, 7, 1}};
  const std::vector<Component> c = SplitIntoComponents(r, false);
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(c[0].ids, (std::vector<std::uint32_t>{1, 0, 2}));
}

TEST(Components, NoneForAnEmptyInput) {
  EXPECT_TRUE(SplitIntoComponents({}).empty());
}

}  // namespace
}  // namespace arenaplan::solver
