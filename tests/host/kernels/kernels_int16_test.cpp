// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The int16-activation kernels (kernels/include/arenaplan/kernels/int16/)
// against hand-derived values and, for the 64-bit output stage, a second
// method: the exact rational x * R / 2^t rounded half up with long double
// (x * R below 2^63 is exact in its 64-bit mantissa).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "arenaplan/kernels/int16/int16.hpp"

namespace {

namespace k = arenaplan::kernels;
namespace k16 = arenaplan::kernels::int16;

/// TFLite's 64-bit requantization as a rational rounded half up: R =
/// round-half-up(M / 2^16) (0x7FFF at the top), t = 15 - shift.
std::int32_t Reference64(std::int64_t x, std::int32_t m, int shift) {
  const long double reduced =
      m >= 0x7FFF0000 ? 0x7FFF : std::floor(m / 65536.0L + 0.5L);
  const long double exact =
      static_cast<long double>(x) * reduced / std::ldexp(1.0L, 15 - shift);
  return static_cast<std::int32_t>(std::floor(exact + 0.5L));
}

TEST(KernelsInt16, RoundsTheSixtyFourBitStageHalfUp) {
  // M = 2^30 (0.5): R = 2^14, t = 15.
  EXPECT_EQ(k16::MultiplyByQuantizedMultiplier64(1000, 1 << 30, 0), 500);
  EXPECT_EQ(k16::MultiplyByQuantizedMultiplier64(1001, 1 << 30, 0), 501);
  // -500.5: ties toward +infinity.
  EXPECT_EQ(k16::MultiplyByQuantizedMultiplier64(-1001, 1 << 30, 0), -500);
  // 0.25 (2^30, shift -1): -1002 / 4 = -250.5 -> -250 here; the int32
  // stage's rounding right shift takes -501 / 2 away from zero, -251.
  EXPECT_EQ(k16::MultiplyByQuantizedMultiplier64(-1002, 1 << 30, -1), -250);
  EXPECT_EQ(k::MultiplyByQuantizedMultiplier(-1002, 1 << 30, -1), -251);
  // M = 0x7FFFFFFF reduces to 0x7FFF: 2^40 * 32767 / 2^25 = 32767 * 2^15.
  EXPECT_EQ(k16::MultiplyByQuantizedMultiplier64(std::int64_t{1} << 40,
                                                 0x7FFFFFFF, -10),
            32767 * 32768);
  // Shift 7 (the top of the range): 3 * 0.5 * 2^7 = 192.
  EXPECT_EQ(k16::MultiplyByQuantizedMultiplier64(3, 1 << 30, 7), 192);
}

TEST(KernelsInt16, MatchesTheRationalFormOnRandomArguments) {
  std::mt19937_64 rng(5);
  // |x * M * 2^(shift - 31)| < 2^36 * 2^-8: no int32 overflow.
  std::uniform_int_distribution<std::int64_t> xs(-(std::int64_t{1} << 36),
                                                 std::int64_t{1} << 36);
  std::uniform_int_distribution<std::int32_t> ms(1 << 30, 0x7FFFFFFF);
  std::uniform_int_distribution<int> shifts(-31, -8);
  for (int i = 0; i < 20000; ++i) {
    const std::int64_t x = xs(rng);
    const std::int32_t m = ms(rng);
    const int s = shifts(rng);
    ASSERT_EQ(k16::MultiplyByQuantizedMultiplier64(x, m, s),
              Reference64(x, m, s))
        << x << " " << m << " " << s;
  }
}

TEST(KernelsInt16, ConvolvesWithSixtyFourAndThirtyTwoBitAccumulators) {
  // Input 1x1x3x1 = {1000, -2000, 3000}, filter 1x1x2x1 = {3, -5}, VALID
  // stride 1: two outputs, 3 * 1000 - 5 * -2000 = 13000 and
  // 3 * -2000 - 5 * 3000 = -21000; bias 2 -> 13002, -20998; multiplier 0.25
  // (2^30, shift -1): 3250.5 and -5249.5, both ties.
  const std::int16_t in[3] = {1000, -2000, 3000};
  const std::int8_t w[2] = {3, -5};
  const std::int32_t mult[1] = {1 << 30};
  const std::int8_t shift[1] = {-1};
  const k::ConvParams p{0, 0, -32768, 32767, 1, 1, 0, 0, 1};
  std::int16_t out[2] = {};
  const std::int64_t bias64[1] = {2};
  k16::Conv2D(p, k::Shape4{1, 1, 3, 1}, in, k::Shape4{1, 1, 2, 1}, w, bias64,
              k::ChannelQuant{mult, shift}, k::Shape4{1, 1, 2, 1}, out);
  // The 64-bit stage rounds ties up: 3251, -5249.
  EXPECT_EQ(out[0], 3251);
  EXPECT_EQ(out[1], -5249);
  const std::int32_t bias32[1] = {2};
  k16::Conv2D(p, k::Shape4{1, 1, 3, 1}, in, k::Shape4{1, 1, 2, 1}, w, bias32,
              k::ChannelQuant{mult, shift}, k::Shape4{1, 1, 2, 1}, out);
  // The int32 stage's last shift rounds ties away from zero: 3251, -5250.
  EXPECT_EQ(out[0], 3251);
  EXPECT_EQ(out[1], -5250);
  // Clamped to the activation range.
  const k::ConvParams relu{0, 0, 0, 3000, 1, 1, 0, 0, 1};
  k16::Conv2D(relu, k::Shape4{1, 1, 3, 1}, in, k::Shape4{1, 1, 2, 1}, w, bias64,
              k::ChannelQuant{mult, shift}, k::Shape4{1, 1, 2, 1}, out);
  EXPECT_EQ(out[0], 3000);
  EXPECT_EQ(out[1], 0);
}

TEST(KernelsInt16, ConvolvesDepthwiseChannelsApart) {
  // Two channels, 1x2 filter, depth multiplier 1: channel 0 taps {2, 1},
  // channel 1 taps {-1, 4}; input pixels (100, 10), (200, 20).
  const std::int16_t in[4] = {100, 10, 200, 20};
  const std::int8_t w[4] = {2, -1, 1, 4};  // [1, 1, 2, 2]
  const std::int32_t mult[2] = {1 << 30, 1 << 30};
  const std::int8_t shift[2] = {1, 1};  // multiplier 1.0
  const k::ConvParams p{0, 0, -32768, 32767, 1, 1, 0, 0, 1};
  std::int16_t out[2] = {};
  k16::DepthwiseConv2D(p, k::Shape4{1, 1, 2, 2}, in, k::Shape4{1, 1, 2, 2}, w,
                       static_cast<const std::int64_t*>(nullptr),
                       k::ChannelQuant{mult, shift}, k::Shape4{1, 1, 1, 2},
                       out);
  EXPECT_EQ(out[0], 2 * 100 + 1 * 200);
  EXPECT_EQ(out[1], -1 * 10 + 4 * 20);
}

TEST(KernelsInt16, TransposesWithTheSixtyFourBitStage) {
  // Input 1x1x2x1 {1000, -3000}, filter 1x1x3x1 {1, 2, 3}, stride 2, no
  // padding: output 1x1x5x1 = {1000, 2000, 3000 - 3000, -6000, -9000}; bias
  // -1, multiplier 0.5: {499.5, 999.5, -0.5, -3000.5, -4500.5} half up.
  const std::int16_t in[2] = {1000, -3000};
  const std::int8_t w[3] = {1, 2, 3};
  const std::int64_t bias[1] = {-1};
  const std::int32_t mult[1] = {1 << 30};
  const std::int8_t shift[1] = {0};
  std::int16_t out[5] = {};
  k16::TransposeConv(k::ConvParams{0, 0, -32768, 32767, 1, 2, 0, 0, 1},
                     k::Shape4{1, 1, 2, 1}, in, k::Shape4{1, 1, 3, 1}, w, bias,
                     k::ChannelQuant{mult, shift}, k::Shape4{1, 1, 5, 1}, out);
  const std::int16_t expect[5] = {500, 1000, 0, -3000, -4500};
  for (int i = 0; i < 5; ++i) EXPECT_EQ(out[i], expect[i]) << i;
}

/// Equal scales: both input multipliers 0.5 (2^30, shift 0), output
/// 2 / 2^15 = 2^-14 (2^30, shift -13).
k16::BinaryParams EqualScales(k::Shape4 shape, bool broadcast_b) {
  k16::BinaryParams p{0,       0,   0,      15,    1 << 30, 0,  1 << 30, 0,
                      1 << 30, -13, -32768, 32767, shape,   {}, {}};
  const std::int32_t c = shape.c, w = shape.w, h = shape.h;
  const std::int32_t full[4] = {h * w * c, w * c, c, 1};
  for (int d = 0; d < 4; ++d) {
    p.a_stride[d] = full[d];
    p.b_stride[d] = broadcast_b ? (d == 3 ? 1 : 0) : full[d];
  }
  return p;
}

TEST(KernelsInt16, AddsAndSubtractsWithFifteenBitsOfHeadroom) {
  const std::int16_t a[4] = {100, 30000, -30000, 7};
  const std::int16_t b[4] = {200, 30000, -30000, -7};
  std::int16_t out[4] = {};
  const auto p = EqualScales(k::Shape4{1, 1, 1, 4}, false);
  k16::Add(p, a, b, out);
  EXPECT_EQ(out[0], 300);
  EXPECT_EQ(out[1], 32767);   // saturated
  EXPECT_EQ(out[2], -32768);  // saturated
  EXPECT_EQ(out[3], 0);
  k16::Sub(p, a, b, out);
  EXPECT_EQ(out[0], -100);
  EXPECT_EQ(out[1], 0);
  EXPECT_EQ(out[3], 14);
}

TEST(KernelsInt16, BroadcastsTheSecondInputAlongChannels) {
  // a [1, 1, 2, 2] minus b [2]: {10 - 1, 20 - 2, 30 - 1, 40 - 2}.
  const std::int16_t a[4] = {10, 20, 30, 40};
  const std::int16_t b[2] = {1, 2};
  std::int16_t out[4] = {};
  k16::Sub(EqualScales(k::Shape4{1, 1, 2, 2}, true), a, b, out);
  const std::int16_t expect[4] = {9, 18, 29, 38};
  for (int i = 0; i < 4; ++i) EXPECT_EQ(out[i], expect[i]) << i;
}

TEST(KernelsInt16, LeaksNegativeValuesByAlpha) {
  // Equal scales, alpha 0.25: identity 1.0 (2^30, shift 1), alpha (2^30,
  // shift -1). -102 * 0.25 = -25.5 rounds away from zero.
  const k::LeakyReluParams p{0, 0, 1 << 30, 1, 1 << 30, -1, 5};
  const std::int16_t in[5] = {-100, -101, -102, 32767, 0};
  std::int16_t out[5] = {};
  k16::LeakyRelu(p, in, out);
  const std::int16_t expect[5] = {-25, -25, -26, 32767, 0};
  for (int i = 0; i < 5; ++i) EXPECT_EQ(out[i], expect[i]) << i;
}

TEST(KernelsInt16, HoldsTheSigmoidTableRaisedByHalfTheChordGap) {
  // Entry i < 255: 2^16 (s - h^2 s'' / 16) rounded, s = sigmoid(i / 24);
  // entry 255: 0xFFFF.
  const double h = 1.0 / 24;
  for (int i = 0; i < 255; ++i) {
    const double s = 1.0 / (1.0 + std::exp(-i * h));
    const double s2 = s * (1.0 - s) * (1.0 - 2.0 * s);
    EXPECT_EQ(k16::kSigmoidTable[i],
              static_cast<int>(std::lround(65536.0 * (s - h * h * s2 / 16))))
        << i;
  }
  EXPECT_EQ(k16::kSigmoidTable[255], 0xFFFF);
}

TEST(KernelsInt16, InterpolatesLogisticAndTanhByHand) {
  // Multiplier 0, shift 0 (Q3.12 input): x = 3q. q = 256: x = 768, index
  // 768 >> 9 = 1, fraction 256: v = (T1 << 9) + 256 (T2 - T1);
  // out = (v + 2^9) >> 10.
  const std::uint32_t t1 = k16::kSigmoidTable[1], t2 = k16::kSigmoidTable[2];
  EXPECT_EQ(
      k16::SigmoidInt16(256, 0, 0),
      static_cast<std::int16_t>(((t1 << 9) + 256 * (t2 - t1) + 512) >> 10));
  // TANH with multiplier 0 and shift 0: index 768 >> 8 = 3, fraction 0:
  // (T3 << 8) - 2^23 + 2^7, shifted right by 8.
  const std::int32_t t3 = k16::kSigmoidTable[3];
  EXPECT_EQ(k16::TanhInt16(256, 0, 0),
            static_cast<std::int16_t>(((t3 << 8) - (1 << 23) + 128) >> 8));
  // A general multiplier: q * 20132 rounded right by 12 bits.
  const k16::SigmoidParams p{20132, 12, 2};
  const std::int16_t in[2] = {100, -100};
  std::int16_t out[2];
  k16::Logistic(p, in, out);
  EXPECT_EQ(out[0],
            k16::SigmoidInt16(
                static_cast<std::int16_t>((100 * 20132 + 2048) >> 12), 1, 0));
  // |x| = 492 both ways ((+-2013200 + 2048) >> 12 = 492, -492): (v + 2^9)
  // >> 10 and (2^25 - v + 2^9 - 1) >> 10 add up to 2^15 exactly.
  EXPECT_EQ(out[0] + out[1], 32768);
}

}  // namespace
