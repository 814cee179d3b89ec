// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// TRANSPOSE_CONV (transpose_conv.hpp) on hand-derived cases: a stride-2
// VALID transpose that stamps the filter once per input pixel, and a
// stride-1 SAME one whose stamps overlap.
#include <gtest/gtest.h>

#include <cstdint>

#include "arenaplan/kernels/transpose_conv.hpp"

namespace {

namespace k = arenaplan::kernels;

// Multiplier 1 = (2^30, shift 1) for every channel.
const std::int32_t kOne[] = {1 << 30, 1 << 30};
const std::int8_t kShiftOne[] = {1, 1};

TEST(TransposeConv, StampsTheFilterPerInputPixelByHand) {
  // Input 2x2 {{1,2},{3,4}} (zp 0), filter 2x2 {{1,-1},{2,0}}, stride 2,
  // no padding: output 4x4 block (iy, ix) = in[iy][ix] * filter, bias 5,
  // zp_out -1.
  const std::int8_t in[] = {1, 2, 3, 4};
  const std::int8_t f[] = {1, -1, 2, 0};
  const std::int32_t bias[] = {5};
  std::int8_t out[16] = {};
  k::TransposeConv(k::ConvParams{0, -1, -128, 127, 2, 2, 0, 0, 1}, {1, 2, 2, 1},
                   in, {1, 2, 2, 1}, f, bias, k::ChannelQuant{kOne, kShiftOne},
                   {1, 4, 4, 1}, out);
  const std::int8_t expect[] = {
      1 + 4, -1 + 4, 2 + 4, -2 + 4,  // row 0: in 1, 2 times {1, -1}
      2 + 4, 0 + 4,  4 + 4, 0 + 4,   // row 1: times {2, 0}
      3 + 4, -3 + 4, 4 + 4, -4 + 4,  // row 2: in 3, 4
      6 + 4, 0 + 4,  8 + 4, 0 + 4};  // row 3
  for (int i = 0; i < 16; ++i) EXPECT_EQ(out[i], expect[i]) << i;
}

TEST(TransposeConv, SumsOverlappingStampsByHand) {
  // Input 1x3 {1, 2, 3} with zp 1 (values {0, 1, 2}), filter 1x3 {1, 2, 3},
  // stride 1, pad 1 (SAME on an output of 3): out[ox] = sum over ix of
  // v[ix] * f[ox - ix + 1]:
  //   ox 0: v0 f1 + v1 f0 = 0 + 1 = 1
  //   ox 1: v0 f2 + v1 f1 + v2 f0 = 0 + 2 + 2 = 4
  //   ox 2: v1 f2 + v2 f1 = 3 + 4 = 7
  // Two output channels, the second filter negated, multiplier 1/2 on it
  // (shift 0): {-0.5 -> 0, -2, -3.5 -> -3} (SRDHM ties toward +inf).
  const std::int8_t in[] = {1, 2, 3};
  const std::int8_t f[] = {1, 2, 3, -1, -2, -3};
  const std::int32_t m[] = {1 << 30, 1 << 30};
  const std::int8_t s[] = {1, 0};
  std::int8_t out[6] = {};
  k::TransposeConv(k::ConvParams{-1, 0, -128, 127, 1, 1, 0, 1, 1}, {1, 1, 3, 1},
                   in, {2, 1, 3, 1}, f, nullptr, k::ChannelQuant{m, s},
                   {1, 1, 3, 2}, out);
  const std::int8_t expect[] = {1, 0, 4, -2, 7, -3};
  for (int i = 0; i < 6; ++i) EXPECT_EQ(out[i], expect[i]) << i;
}

}  // namespace
