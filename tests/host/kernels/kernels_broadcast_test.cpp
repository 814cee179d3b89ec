// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// ForEachBroadcast (kernels/include/arenaplan/kernels/broadcast.hpp): the
// visit order and the input indices, derived by hand.
#include <gtest/gtest.h>

#include <cstdint>
#include <utility>
#include <vector>

#include "arenaplan/kernels/broadcast.hpp"

namespace {

namespace k = arenaplan::kernels;

using Visits = std::vector<std::pair<std::int32_t, std::int32_t>>;

Visits Walk(const k::Shape4& output, const std::int32_t a_stride[4],
            const std::int32_t b_stride[4]) {
  Visits v;
  k::ForEachBroadcast(
      output, a_stride, b_stride,
      [&](std::int32_t a, std::int32_t b) { v.emplace_back(a, b); });
  return v;
}

// Output [1, 2, 1, 3]; a has the output's shape (strides 3 per row, 1 per
// channel), b is [1, 1, 1, 3] broadcast over the rows (row stride 0): row
// 0 reads a 0..2 with b 0..2, row 1 reads a 3..5 with b 0..2 again.
TEST(ForEachBroadcast, ReadsABroadcastRowAgainForEveryOutputRow) {
  const std::int32_t a_stride[4] = {6, 3, 3, 1};
  const std::int32_t b_stride[4] = {0, 0, 0, 1};
  EXPECT_EQ(Walk({1, 2, 1, 3}, a_stride, b_stride),
            (Visits{{0, 0}, {1, 1}, {2, 2}, {3, 0}, {4, 1}, {5, 2}}));
}

// Output [2, 1, 2, 1]: a is a scalar (all strides 0), b is [2, 1, 1, 1]
// broadcast over the columns (batch stride 1, column stride 0); the walk
// goes batch by batch, columns inner: b 0, 0, 1, 1.
TEST(ForEachBroadcast, WalksBatchesOutermostAndChannelsInnermost) {
  const std::int32_t a_stride[4] = {0, 0, 0, 0};
  const std::int32_t b_stride[4] = {1, 0, 0, 0};
  EXPECT_EQ(Walk({2, 1, 2, 1}, a_stride, b_stride),
            (Visits{{0, 0}, {0, 0}, {0, 1}, {0, 1}}));
}

TEST(ForEachBroadcast, VisitsNothingForAnEmptyOutput) {
  const std::int32_t s[4] = {1, 1, 1, 1};
  EXPECT_TRUE(Walk({1, 0, 4, 4}, s, s).empty());
}

}  // namespace
