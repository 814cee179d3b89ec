// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// RESIZE_BILINEAR (resize_bilinear.hpp) on hand-derived cases: the four
// weights, rounding half away from zero at 2^20, rows and columns taken
// from the tables.
#include <gtest/gtest.h>

#include <cstdint>

#include "arenaplan/kernels/resize_bilinear.hpp"

namespace {

namespace k = arenaplan::kernels;

std::int8_t Centre(std::int8_t a, std::int8_t b, std::int8_t c, std::int8_t d) {
  // One output pixel halfway between all four inputs: f = 512 on both
  // axes, every weight 512 * 512 = 2^18, out = round(sum * 2^18 / 2^20).
  const std::int8_t in[] = {a, b, c, d};
  const std::int32_t rows[] = {0, 1, 512}, cols[] = {0, 1, 512};
  std::int8_t out = 0;
  k::ResizeBilinear(k::ResizeBilinearParams{{1, 2, 2, 1}, 1, 1, rows, cols}, in,
                    &out);
  return out;
}

TEST(ResizeBilinear, AveragesFourPixelsRoundingHalfAwayFromZero) {
  EXPECT_EQ(Centre(0, 40, 80, 121), 60);  // 60.25
  EXPECT_EQ(Centre(0, 40, 80, 122), 61);  // 60.5 -> 61
  EXPECT_EQ(Centre(-1, -2, -3, -4), -3);  // -2.5 -> -3
  EXPECT_EQ(Centre(-1, -2, -3, -3), -2);  // -2.25
  EXPECT_EQ(Centre(127, 127, 127, 127), 127);
  EXPECT_EQ(Centre(-128, -128, -128, -128), -128);
  EXPECT_EQ(Centre(1, -1, 0, 0), 0);  // acc 0
}

TEST(ResizeBilinear, WeighsRowsAndColumnsByHand) {
  // Input 1x2x2x2 (y, x, c): c0 = {{0, 100}, {20, 120}}, c1 = -c0.
  // Output 1x2x3x2 with rows {0,0,0}, {0,1,256} and columns {0,0,0},
  // {0,1,768}, {1,1,0}.
  const std::int8_t in[] = {0, 0, 100, -100, 20, -20, 120, -120};
  const std::int32_t rows[] = {0, 0, 0, 0, 1, 256};
  const std::int32_t cols[] = {0, 0, 0, 0, 1, 768, 1, 1, 0};
  std::int8_t out[12] = {};
  k::ResizeBilinear(k::ResizeBilinearParams{{1, 2, 2, 2}, 2, 3, rows, cols}, in,
                    out);
  // Row 0 (y = 0 exactly): x = 0 -> 0; x = 0.75 -> 75; x = 1 -> 100.
  // Row 1 (y = 0.25): left column 0 + 0.25 * 20 = 5; right 100 + 0.25 * 20
  // = 105; x = 0.75: 5 + 0.75 * 100 = 80. Channel 1 the negatives.
  const std::int8_t expect[] = {0, 0,  75, -75, 100, -100,
                                5, -5, 80, -80, 105, -105};
  for (int i = 0; i < 12; ++i) EXPECT_EQ(out[i], expect[i]) << i;
}

TEST(ResizeBilinear, ExtrapolatesBeforeTheFirstPixelWithANegativeWeight) {
  // half_pixel_centers upscaling gives f = -256 before the first row and
  // column (lo = hi = 0): the weights (1024 + 256) and -256 still sum to
  // 1024 on one pixel, so the value is the pixel's.
  const std::int8_t in[] = {-77};
  const std::int32_t rows[] = {0, 0, -256}, cols[] = {0, 0, -256};
  std::int8_t out = 0;
  k::ResizeBilinear(k::ResizeBilinearParams{{1, 1, 1, 1}, 1, 1, rows, cols}, in,
                    &out);
  EXPECT_EQ(out, -77);
}

}  // namespace
