// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// ADD with broadcasting (add.hpp, AddBroadcast): equal, element for
// element, to k::Add on the broadcast input expanded by hand to the
// output's shape (NumPy rules), for a row bias [3] over [2,3] and a column
// [2,1] over [2,3]; and one element derived by hand.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "arenaplan/kernels/kernels.hpp"

namespace {

namespace k = arenaplan::kernels;

// Scales 0.5 and 0.25, output 0.5, zero points 1, -2 and 3: M1 = 0.5 / 1 =
// 0.5, M2 = 0.25, Mo = 1 / (2^20 * 0.5) = 2^-19 (Q0.31 multiplier 2^30 and
// shifts 0, -1, -18).
constexpr k::AddParams kParams{-1, 2,       3,   20,   1 << 30, 0, 1 << 30,
                               -1, 1 << 30, -18, -128, 127,     6};

TEST(AddBroadcast, EqualsAddOnTheExpandedInput) {
  const std::int8_t a[6] = {-100, -5, 0, 7, 60, 127};
  const std::int8_t row[3] = {-128, 3, 90};
  const std::int8_t col[2] = {11, -77};
  const std::int32_t full[4] = {0, 0, 3, 1};
  const std::int32_t row_stride[4] = {0, 0, 0, 1};
  const std::int32_t col_stride[4] = {0, 0, 1, 0};
  const k::Shape4 shape{1, 1, 2, 3};
  std::int8_t got[6], want[6];
  const std::int8_t row_expanded[6] = {-128, 3, 90, -128, 3, 90};
  k::AddBroadcast(kParams, shape, full, row_stride, a, row, got);
  k::Add(kParams, a, row_expanded, want);
  EXPECT_EQ(std::vector<std::int8_t>(got, got + 6),
            std::vector<std::int8_t>(want, want + 6));
  const std::int8_t col_expanded[6] = {11, 11, 11, -77, -77, -77};
  k::AddBroadcast(kParams, shape, col_stride, full, col, a, got);
  k::Add(kParams, col_expanded, a, want);
  EXPECT_EQ(std::vector<std::int8_t>(got, got + 6),
            std::vector<std::int8_t>(want, want + 6));
  // By hand, element 1 of a + row: a = -5, b = 3: (-5 - 1) * 2^20 * 0.5 =
  // -3145728; (3 + 2) * 2^20 * 0.25 = 1310720; the sum -1835008 halved
  // (multiplier 0.5) is -917504, divided by 2^18 is -3.5, rounded away
  // from zero to -4; plus the output zero point 3: -1.
  k::AddBroadcast(kParams, shape, full, row_stride, a, row, got);
  EXPECT_EQ(got[1], -1);
}

}  // namespace
