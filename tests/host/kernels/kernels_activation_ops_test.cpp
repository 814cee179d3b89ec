// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// LEAKY_RELU and RESIZE_NEAREST_NEIGHBOR (leaky_relu.hpp,
// resize_nearest_neighbor.hpp) on hand-derived cases.
#include <gemmlowp/fixedpoint/fixedpoint.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

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

namespace {

TEST(Relu, RequantizesAndClampsAtTheZeroPointByHand) {
  // Ratio 0.5 = (2^30, shift 0); zp_in -10, zp_out 5, clamp [5, 127]:
  //   q -10: x = 0 -> 5;  q -20: x = -10 -> -5 + 5 = 0 -> clamp 5;
  //   q 11: x = 21 -> 10.5 rounds to 11 -> 16;  q 127: 137 -> 68.5 -> 69 -> 74.
  const std::int8_t in[] = {-10, -20, 11, 127};
  const std::int8_t expect[] = {5, 5, 16, 74};
  std::int8_t out[4] = {};
  k::Relu(k::ReluParams{-10, 5, 1 << 30, 0, 5, 127, 4}, in, out);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(out[i], expect[i]) << i;
}

TEST(Relu6, ClampsTheRawValuesByHand) {
  // Scale 0.05, zero point -100: six = round(6 / 0.05) - 100 = 20.
  const std::int8_t in[] = {-128, -100, -99, 20, 21, 127};
  const std::int8_t expect[] = {-100, -100, -99, 20, 20, 20};
  std::int8_t out[6] = {};
  k::Relu6(k::Relu6Params{-100, 20, 6}, in, out);
  for (int i = 0; i < 6; ++i) EXPECT_EQ(out[i], expect[i]) << i;
}

TEST(Transpose, PermutesByHand) {
  // [1, 2, 3] (h w c of 1x1x2x3 padded) with perm {0, 2, 1} on [1,2,3]:
  // output [1, 3, 2]: out[c][w] = in[w][c]. Input 0..5 as (w, c) = w*3 + c.
  // Output dims (1, 1, 3, 2); strides of output dims: n, h as padded, then
  // c's stride 1 for output w, w's stride 3 for output c.
  std::int8_t in[6];
  for (int i = 0; i < 6; ++i) in[i] = static_cast<std::int8_t>(i);
  std::int8_t out[6] = {};
  k::Transpose<std::int8_t>(k::TransposeParams{{1, 1, 3, 2}, {6, 6, 1, 3}}, in,
                            out);
  const std::int8_t expect[] = {0, 3, 1, 4, 2, 5};
  for (int i = 0; i < 6; ++i) EXPECT_EQ(out[i], expect[i]) << i;
}

TEST(Transpose, MatchesPerElementFormulaOnRandomPermutations) {
  std::mt19937 rng(39);
  auto r = [&](int lo, int hi) {
    return std::uniform_int_distribution<int>(lo, hi)(rng);
  };
  for (int round = 0; round < 200; ++round) {
    const int d[4] = {r(1, 3), r(1, 4), r(1, 4), r(1, 5)};
    int perm[4] = {0, 1, 2, 3};
    std::shuffle(perm, perm + 4, rng);
    const int s[4] = {d[1] * d[2] * d[3], d[2] * d[3], d[3], 1};
    const k::TransposeParams p{
        {d[perm[0]], d[perm[1]], d[perm[2]], d[perm[3]]},
        {s[perm[0]], s[perm[1]], s[perm[2]], s[perm[3]]}};
    std::vector<std::int32_t> in(static_cast<std::size_t>(d[0] * s[0]));
    for (auto& v : in) v = r(-100000, 100000);
    std::vector<std::int32_t> out(in.size());
    k::Transpose<std::int32_t>(p, in.data(), out.data());
    // out[i0][i1][i2][i3] = in[j] with j[perm[k]] = i_k.
    std::size_t o = 0;
    for (int a = 0; a < d[perm[0]]; ++a)
      for (int b = 0; b < d[perm[1]]; ++b)
        for (int c = 0; c < d[perm[2]]; ++c)
          for (int e = 0; e < d[perm[3]]; ++e) {
            int j[4];
            j[perm[0]] = a, j[perm[1]] = b, j[perm[2]] = c, j[perm[3]] = e;
            const int src = ((j[0] * d[1] + j[1]) * d[2] + j[2]) * d[3] + j[3];
            ASSERT_EQ(out[o++], in[static_cast<std::size_t>(src)]);
          }
  }
}

}  // namespace

namespace {

TEST(Mul, MultipliesAndBroadcastsByHand) {
  // zp_a 1, zp_b -2, zp_out 3, multiplier 0.5 = (2^30, shift 0):
  //   a 5, b 2: (4)(4) = 16 -> 8 -> 11;
  //   a 0, b 1: (-1)(3) = -3 -> SRDHM: (-3 * 2^30 + 1 - 2^30) / 2^31
  //     truncated = -1 (-1.5 rounds toward zero in gemmlowp's doubling
  //     high mul for negatives) -> 2;
  //   a -128, b 127: (-129)(129) = -16641 -> -8320 -> saturates to -128.
  // b broadcast along w: a is 1x1x3x1, b 1x1x1x1.
  const std::int8_t a[] = {5, 0, -128};
  const std::int8_t b2[] = {2};
  std::int8_t out[3] = {};
  k::Mul(k::MulParams{1,
                      -2,
                      3,
                      1 << 30,
                      0,
                      -128,
                      127,
                      {1, 1, 3, 1},
                      {0, 0, 1, 0},
                      {0, 0, 0, 0}},
         a, b2, out);
  EXPECT_EQ(out[0], 11);                // (4)(4)
  EXPECT_EQ(out[1], 3 + (-1 * 4) / 2);  // (-1)(4) = -4 -> -2 -> 1
  EXPECT_EQ(out[2], -128);              // (-129)(4) = -516 -> -258 saturates
  const std::int8_t b[] = {2, 1, 127};
  k::Mul(k::MulParams{1,
                      -2,
                      3,
                      1 << 30,
                      0,
                      -128,
                      127,
                      {1, 1, 3, 1},
                      {0, 0, 1, 0},
                      {0, 0, 1, 0}},
         a, b, out);
  EXPECT_EQ(out[0], 11);
  EXPECT_EQ(out[1], 2);
  EXPECT_EQ(out[2], -128);
  // A fused RELU range [3, 127] lifts the -1 + 3 = 2 to 3.
  k::Mul(k::MulParams{1,
                      -2,
                      3,
                      1 << 30,
                      0,
                      3,
                      127,
                      {1, 1, 3, 1},
                      {0, 0, 1, 0},
                      {0, 0, 1, 0}},
         a, b, out);
  EXPECT_EQ(out[1], 3);
}

TEST(Mul, BroadcastsChannelsAgainstRows) {
  // a 1x2x1x1 {1, 2} times b 1x1x1x3 {1, 2, 3}, all zero points 0,
  // multiplier 1 = (2^30, shift 1): out 1x2x1x3 = {1 2 3, 2 4 6}.
  const std::int8_t a[] = {1, 2}, b[] = {1, 2, 3};
  std::int8_t out[6] = {};
  k::Mul(k::MulParams{0,
                      0,
                      0,
                      1 << 30,
                      1,
                      -128,
                      127,
                      {1, 2, 1, 3},
                      {0, 1, 0, 0},
                      {0, 0, 0, 1}},
         a, b, out);
  const std::int8_t expect[] = {1, 2, 3, 2, 4, 6};
  for (int i = 0; i < 6; ++i) EXPECT_EQ(out[i], expect[i]) << i;
}

}  // namespace

namespace {

TEST(MaximumMinimum, ComparesStoredValuesAndBroadcastsByHand) {
  // a 1x2x1x3 {-128, 5, 127, 0, -1, 3}, b 1x1x1x3 {-5, 5, 100} broadcast
  // over h (stride 0): max row by row = {-5, 5, 127, 0, 5, 100},
  // min = {-128, 5, 100, -5, -1, 3}.
  const std::int8_t a[] = {-128, 5, 127, 0, -1, 3};
  const std::int8_t b[] = {-5, 5, 100};
  std::int8_t out[6] = {};
  k::MaximumMinimumParams p{true, {1, 2, 1, 3}, {0, 3, 0, 1}, {0, 0, 0, 1}};
  k::MaximumMinimum(p, a, b, out);
  const std::int8_t expect_max[] = {-5, 5, 127, 0, 5, 100};
  for (int i = 0; i < 6; ++i) EXPECT_EQ(out[i], expect_max[i]) << i;
  p.maximum = false;
  k::MaximumMinimum(p, a, b, out);
  const std::int8_t expect_min[] = {-128, 5, 100, -5, -1, 3};
  for (int i = 0; i < 6; ++i) EXPECT_EQ(out[i], expect_min[i]) << i;
  // b first, a scalar 1x1x1x1 {2} second: max(b, 2) = {2, 5, 100}.
  const std::int8_t two[] = {2};
  std::int8_t out3[3] = {};
  k::MaximumMinimum(
      k::MaximumMinimumParams{true, {1, 1, 1, 3}, {0, 0, 0, 1}, {0, 0, 0, 0}},
      b, two, out3);
  EXPECT_EQ(out3[0], 2);
  EXPECT_EQ(out3[1], 5);
  EXPECT_EQ(out3[2], 100);
}

}  // namespace

namespace {

TEST(Sub, RescalesBothSidesAndRoundsHalfAwayFromZeroByHand) {
  // s_a 1, s_b 0.5, s_out 1; zp_a 1, zp_b -2, zp_out 3. twice_max = 2:
  // M1 = 0.5 = 2^30 * 2^(0 - 31), M2 = 0.25 (2^30, shift -1),
  // Mo = 2 / 2^20 = 2^-19 (2^30, shift -18). b is the scalar -1
  // (b - zp_b = 1, real 0.5), broadcast: b' = 2^20 / 2 / 2 = 2^18.
  //   a 2   (1):    a' = 2^19, diff 2^18 -> 2^17 -> 2^17 / 2^18 = 0.5,
  //                 rounds to 1, out 4;
  //   a 1   (0):    diff -2^18 -> -0.5 rounds away from zero to -1, out 2;
  //   a 127 (126):  diff 251 * 2^18 -> 125.5 -> 126, out 129 -> 127;
  //   a -128 (-129): diff -259 * 2^18 -> -129.5 -> -130, out -127.
  const std::int8_t a[] = {2, 1, 127, -128};
  const std::int8_t b[] = {-1};
  std::int8_t out[4] = {};
  k::SubParams p{-1,
                 2,
                 3,
                 20,
                 1 << 30,
                 0,
                 1 << 30,
                 -1,
                 1 << 30,
                 -18,
                 -128,
                 127,
                 {1, 1, 4, 1},
                 {0, 0, 1, 0},
                 {0, 0, 0, 0}};
  k::Sub(p, a, b, out);
  const std::int8_t expect[] = {4, 2, 127, -127};
  for (int i = 0; i < 4; ++i) EXPECT_EQ(out[i], expect[i]) << i;
  // A fused RELU range [3, 127] lifts the 2 to 3.
  p.act_min = 3;
  k::Sub(p, a, b, out);
  EXPECT_EQ(out[1], 3);
  EXPECT_EQ(out[3], 3);
  // The operands swapped (b - a, a now the second input, scale 1 as M2 and
  // scale 0.5 as M1): 0.5 - 1 = -0.5 -> -1, out 2; 0.5 - 0 = 0.5 -> 1,
  // out 4.
  p.act_min = -128;
  k::SubParams q{
      2,       -1,  3,    20,  1 << 30,      -1,           1 << 30,     0,
      1 << 30, -18, -128, 127, {1, 1, 2, 1}, {0, 0, 0, 0}, {0, 0, 1, 0}};
  std::int8_t out2[2] = {};
  k::Sub(q, b, a, out2);
  EXPECT_EQ(out2[0], 2);
  EXPECT_EQ(out2[1], 4);
}

}  // namespace

namespace {

// TFLM's quantized HardSwish (reference/hard_swish.h) written here with
// gemmlowp's int16 fixed point, a second method for the kernel's own int16
// helpers.
std::int8_t HardSwishWithGemmlowp(const k::HardSwishParams& p, std::int8_t q) {
  const auto v = static_cast<std::int16_t>((q - p.input_zero_point) * (1 << 7));
  const auto mo = static_cast<std::int16_t>(p.output_multiplier_int16);
  const auto mr = static_cast<std::int16_t>(p.reluish_multiplier_int16);
  const std::int16_t pre = gemmlowp::SaturatingRoundingDoublingHighMul(v, mo);
  auto shl = [](std::int16_t x, int n) {
    const std::int64_t r = static_cast<std::int64_t>(x) * (1 << n);
    return static_cast<std::int16_t>(
        std::clamp<std::int64_t>(r, -32768, 32767));
  };
  std::int16_t r = v;
  if (p.reluish_exponent > 0) r = shl(r, p.reluish_exponent - 1);
  r = gemmlowp::SaturatingRoundingDoublingHighMul(r, mr);
  if (p.reluish_exponent > 0) r = shl(r, 1);
  if (p.reluish_exponent < 0) {
    r = gemmlowp::RoundingDivideByPOT(r, -p.reluish_exponent);
  }
  r = static_cast<std::int16_t>((r + (1 << 15)) >> 1);
  const std::int16_t prod =
      r == -32768 && pre == -32768
          ? std::int16_t{32767}
          : static_cast<std::int16_t>((std::int32_t{r} * pre) / (1 << 15));
  std::int16_t out = gemmlowp::RoundingDivideByPOT(prod, -p.output_exponent);
  out = static_cast<std::int16_t>(out + p.output_zero_point);
  return static_cast<std::int8_t>(std::clamp<std::int16_t>(out, -128, 127));
}

TEST(HardSwish, ComputesHandExamples) {
  // s_in = s_out = 3/128 (1/128 of the hires scale 3/2^14 each), zp 0:
  //   Mo = (3/2^14) / (3/128) = 2^-7: Q0.31 2^30, exponent -6, Q0.15
  //   (2^30 + 2^15) >> 16 = 2^14;
  //   Mr = (3/2^14) / (3/2^15) = 2: Q0.31 2^30, exponent 2, Q0.15 2^14.
  // q = 40 (x = 120/128 = 0.9375): v = 5120; pre = SRDHM16(5120, 2^14) =
  //   (5120 * 2^14 + 2^14) / 2^15 = 2560; r = 5120 << 1 = 10240, SRDHM16
  //   -> 5120, << 1 -> 10240; (10240 + 32768) >> 1 = 21504 (= (x + 3) / 6
  //   = 0.65625 in Q0.15); SDHM16(21504, 2560) = 21504 * 2560 / 2^15 =
  //   1680; RoundingDivideByPOT(1680, 6) = 26.25 -> 26. Real: x * 0.65625
  //   = 0.615234 = 26.25 output steps -> 26.
  // q = -128 (x = -3): v = -16384, r = -16384 << 1 = -32768, SRDHM16(-32768,
  // 2^14) =
  //   (-2^29 + 1 - 2^14) / 2^15 = -16384 (toward zero), << 1 -> -32768;
  //   (-32768 + 32768) >> 1 = 0: output 0.
  // q = 127 (x = 2.977): v = 16256; pre = 8128; r = 32512 -> 16256 ->
  //   32512; (32512 + 32768) >> 1 = 32640; SDHM16(32640, 8128) = 8096.25
  //   -> 8096 (toward zero); / 64 = 126.5 -> 127 (half away from zero).
  const k::HardSwishParams p{0, 0, 1 << 14, -6, 1 << 14, 2, 3};
  const std::int8_t in[] = {40, -128, 127};
  std::int8_t out[3] = {};
  k::HardSwish(p, in, out);
  EXPECT_EQ(out[0], 26);
  EXPECT_EQ(out[1], 0);
  EXPECT_EQ(out[2], 127);
}

TEST(HardSwish, EqualsTheGemmlowpFormulationOnEveryInput) {
  std::mt19937 rng(117);
  std::uniform_int_distribution<int> zp(-128, 127);
  std::uniform_int_distribution<int> m16(1 << 14, 32767);
  std::uniform_int_distribution<int> eo(-12, 0), er(-4, 5);
  for (int t = 0; t < 200; ++t) {
    const k::HardSwishParams p{zp(rng),  zp(rng), m16(rng), eo(rng),
                               m16(rng), er(rng), 256};
    std::int8_t in[256], out[256];
    for (int i = 0; i < 256; ++i) in[i] = static_cast<std::int8_t>(i - 128);
    k::HardSwish(p, in, out);
    for (int i = 0; i < 256; ++i) {
      ASSERT_EQ(out[i], HardSwishWithGemmlowp(p, in[i]))
          << "case " << t << " input " << int{in[i]};
    }
  }
}

}  // namespace
