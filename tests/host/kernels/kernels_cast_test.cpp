// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// CAST (cast.hpp) by hand: integer narrowing keeps the low bits, widening
// extends the sign, float -> integer truncates toward zero and saturates,
// NaN gives 0, integer -> float rounds to nearest even.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>

#include "arenaplan/kernels/cast.hpp"

namespace {

namespace k = arenaplan::kernels;

TEST(Cast, NarrowsIntegersModuloTheirWidth) {
  const std::int32_t in[] = {300, -129, 127, -128, 65537, -1};
  std::int8_t out8[6] = {};
  k::Cast(in, out8, 6);
  // 300 = 256 + 44; -129 = -256 + 127; 65537 = 65536 + 1.
  const std::int8_t e8[] = {44, 127, 127, -128, 1, -1};
  for (int i = 0; i < 6; ++i) EXPECT_EQ(out8[i], e8[i]) << i;
  std::int16_t out16[6] = {};
  k::Cast(in, out16, 6);
  const std::int16_t e16[] = {300, -129, 127, -128, 1, -1};
  for (int i = 0; i < 6; ++i) EXPECT_EQ(out16[i], e16[i]) << i;
}

TEST(Cast, WidensWithTheSign) {
  const std::int8_t in[] = {-128, -1, 0, 127};
  std::int32_t out[4] = {};
  k::Cast(in, out, 4);
  EXPECT_EQ(out[0], -128);
  EXPECT_EQ(out[1], -1);
  EXPECT_EQ(out[2], 0);
  EXPECT_EQ(out[3], 127);
}

TEST(Cast, TruncatesFloatsTowardZeroAndSaturates) {
  const float in[] = {
      2.9f, -2.9f, 0.5f,   -0.5f,
      1e9f, -1e9f, 127.9f, std::numeric_limits<float>::quiet_NaN()};
  std::int8_t out8[8] = {};
  k::Cast(in, out8, 8);
  const std::int8_t e8[] = {2, -2, 0, 0, 127, -128, 127, 0};
  for (int i = 0; i < 8; ++i) EXPECT_EQ(out8[i], e8[i]) << i;
  std::int32_t out32[8] = {};
  k::Cast(in, out32, 8);
  const std::int32_t e32[] = {2, -2, 0, 0, 1000000000, -1000000000, 127, 0};
  for (int i = 0; i < 8; ++i) EXPECT_EQ(out32[i], e32[i]) << i;
  // 2^31 as a float is the first value above int32's range.
  const float big[] = {2147483648.0f, -2147483648.0f, 3e10f};
  k::Cast(big, out32, 3);
  EXPECT_EQ(out32[0], std::numeric_limits<std::int32_t>::max());
  EXPECT_EQ(out32[1], std::numeric_limits<std::int32_t>::min());
  EXPECT_EQ(out32[2], std::numeric_limits<std::int32_t>::max());
}

TEST(Cast, RoundsIntegersToTheNearestFloat) {
  // 2^24 + 1 is a tie between 2^24 and 2^24 + 2: even gives 2^24;
  // 2^24 + 3 ties between 2^24 + 2 and 2^24 + 4: even mantissa 2^24 + 4.
  const std::int32_t in[] = {16777217, 16777219, -7};
  float out[3] = {};
  k::Cast(in, out, 3);
  EXPECT_EQ(out[0], 16777216.0f);
  EXPECT_EQ(out[1], 16777220.0f);
  EXPECT_EQ(out[2], -7.0f);
}

}  // namespace
