// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// LEAKY_RELU and RESIZE_NEAREST_NEIGHBOR (leaky_relu.hpp,
// resize_nearest_neighbor.hpp) on hand-derived cases.
#include <gtest/gtest.h>

#include <cstdint>

#include "arenaplan/kernels/kernels.hpp"

namespace {

namespace k = arenaplan::kernels;

TEST(LeakyRelu, ScalesEachSideByHand) {
  // Identity ratio 1 = (2^30, shift 1); alpha 0.25 = (2^30, shift -1).
  // zp_in 10, zp_out -20:
  //   q 30: x = 20 -> 20, out 0;   q 10: x = 0 -> -20;
  //   q 2: x = -8 -> -8 * 0.25 = -2, out -22;
  //   q -128: x = -138 -> -34.5 rounds (gemmlowp, ties away from zero on
  //   the final right shift) to -35, out -55;
  //   q 127: x = 117 -> 117 - 20 = 97.
  const std::int8_t in[] = {30, 10, 2, -128, 127};
  const std::int8_t expect[] = {0, -20, -22, -55, 97};
  std::int8_t out[5] = {};
  k::LeakyRelu(k::LeakyReluParams{10, -20, 1 << 30, 1, 1 << 30, -1, 5}, in,
               out);
  for (int i = 0; i < 5; ++i) EXPECT_EQ(out[i], expect[i]) << i;
  // Saturation: an identity ratio of 2 (2^30, shift 2) on x = 117.
  k::LeakyRelu(k::LeakyReluParams{10, -20, 1 << 30, 2, 1 << 30, -1, 5}, in,
               out);
  EXPECT_EQ(out[4], 127);
}

TEST(ResizeNearestNeighbor, CopiesTheSourcePixelsByHand) {
  // 1x2x2x2 upscaled to 1x3x4x2 with rows {0, 0, 1}, columns {0, 0, 1, 1}
  // (floor(y * 2 / 3), floor(x * 2 / 4)).
  const std::int8_t in[] = {1, 2, 3, 4, 5, 6, 7, 8};  // (y, x, c)
  const std::int32_t rows[] = {0, 0, 1}, cols[] = {0, 0, 1, 1};
  std::int8_t out[24] = {};
  k::ResizeNearestNeighbor<std::int8_t>(
      k::ResizeNearestParams{{1, 2, 2, 2}, 3, 4, rows, cols}, in, out);
  const std::int8_t expect[] = {1, 2, 1, 2, 3, 4, 3, 4,   // row 0
                                1, 2, 1, 2, 3, 4, 3, 4,   // row 0 again
                                5, 6, 5, 6, 7, 8, 7, 8};  // row 1
  for (int i = 0; i < 24; ++i) EXPECT_EQ(out[i], expect[i]) << i;
}

}  // namespace
