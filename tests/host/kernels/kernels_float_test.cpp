// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The float32 kernels (kernels/include/arenaplan/kernels/float/) against
// hand-derived values, compared bit for bit: the fused activation's clamp
// in TFLite's operand order (NaN, -0.0, infinities); FULLY_CONNECTED's
// order of operations (the sum in input order, then the bias, each
// product rounded before it is added); the convolutions' windows (taps
// outside the input skipped, not multiplied by 0); ADD with broadcasting;
// RELU without an upper bound; the pools' windows (the average over the
// taps inside the input only; max passing over a NaN); SUB and MUL (one
// rounding each); MAXIMUM and MINIMUM in TFLM's operand order; RELU6.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "arenaplan/kernels/float/float.hpp"

namespace {

namespace f32 = arenaplan::kernels::f32;

constexpr float kMax = std::numeric_limits<float>::max();
constexpr float kLowest = std::numeric_limits<float>::lowest();
constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr f32::ActivationRange kNone{kLowest, kMax};
constexpr f32::ActivationRange kRelu{0.0f, kMax};
constexpr f32::ActivationRange kRelu6{0.0f, 6.0f};

std::uint32_t Bits(float v) {
  std::uint32_t b = 0;
  std::memcpy(&b, &v, 4);
  return b;
}

TEST(KernelsFloat, ClampsInTfliteOperandOrder) {
  EXPECT_EQ(Bits(f32::Activate(7.5f, kRelu6)), Bits(6.0f));
  EXPECT_EQ(Bits(f32::Activate(-2.0f, kRelu6)), Bits(0.0f));
  EXPECT_EQ(Bits(f32::Activate(2.5f, kRelu6)), Bits(2.5f));
  // max(-0.0, 0.0) is its first operand: 0.0 < -0.0 is false.
  EXPECT_EQ(Bits(f32::Activate(-0.0f, kRelu)), 0x80000000u);
  // The bounds are FLT_MAX and its negative, not infinities.
  EXPECT_EQ(Bits(f32::Activate(kInf, kRelu)), Bits(kMax));
  EXPECT_EQ(Bits(f32::Activate(-kInf, kNone)), Bits(kLowest));
  EXPECT_EQ(Bits(f32::Activate(kInf, kNone)), Bits(kMax));
  // A NaN fails both comparisons and passes through.
  EXPECT_TRUE(std::isnan(f32::Activate(std::nanf(""), kRelu6)));
}

TEST(KernelsFloat, SumsFullyConnectedInInputOrderThenAddsTheBias) {
  // Two rows of depth 3, two units:
  //   w = [[1, 0.5, -1], [2, 2, 2]], bias {0.25, -1}
  //   row {1, 2, 3}: 1 + 1 - 3 + 0.25 = -0.75; 2 + 4 + 6 - 1 = 11
  //   row {1e8, 1, -1e8} against [1, 0.5, -1]: 1e8 + 0.5 = 1e8 (the float
  //   spacing at 1e8 is 8), + 1e8 = 2e8, + 0.25 = 2e8; against [2, 2, 2]:
  //   2e8 + 2 = 2e8, - 2e8 = 0, - 1 = -1 (another order could give 1).
  const std::vector<float> in = {1, 2, 3, 1e8f, 1, -1e8f};
  const std::vector<float> w = {1, 0.5f, -1, 2, 2, 2};
  const std::vector<float> bias = {0.25f, -1};
  std::vector<float> out(4);
  f32::FullyConnected({kNone, 2, 3, 2}, in.data(), w.data(), bias.data(),
                      out.data());
  EXPECT_EQ(Bits(out[0]), Bits(-0.75f));
  EXPECT_EQ(Bits(out[1]), Bits(11.0f));
  EXPECT_EQ(Bits(out[2]), Bits(2e8f));
  EXPECT_EQ(Bits(out[3]), Bits(-1.0f));
  // RELU6 on the same: 0, 6, 6, 0.
  f32::FullyConnected({kRelu6, 2, 3, 2}, in.data(), w.data(), bias.data(),
                      out.data());
  EXPECT_EQ(Bits(out[0]), Bits(0.0f));
  EXPECT_EQ(Bits(out[1]), Bits(6.0f));
  EXPECT_EQ(Bits(out[2]), Bits(6.0f));
  EXPECT_EQ(Bits(out[3]), Bits(0.0f));
}

TEST(KernelsFloat, RoundsEachProductBeforeTheSum) {
  // in {1, 1 + 2^-12}, w {-(1 + 2^-11), 1 + 2^-12}: the first product is
  // exact, -(1 + 2^-11); the second is 1 + 2^-11 + 2^-24, which rounds
  // (a tie, to even) to 1 + 2^-11; the sum is 0. A fused multiply-add
  // would keep the 2^-24.
  const float a = 1.0f + std::ldexp(1.0f, -12);
  const float c = 1.0f + std::ldexp(1.0f, -11);
  const std::vector<float> in = {1.0f, a};
  const std::vector<float> w = {-c, a};
  float out = -1.0f;
  f32::FullyConnected({kNone, 1, 2, 1}, in.data(), w.data(), nullptr, &out);
  EXPECT_EQ(Bits(out), 0u);
}

TEST(KernelsFloat, AddsZeroWhenThereIsNoBias) {
  // 3 * 0.5 + 4 * 0.25 = 2.5; RELU keeps it; no bias adds 0.0f.
  const std::vector<float> in = {3, 4};
  const std::vector<float> w = {0.5f, 0.25f, -1, -1};
  std::vector<float> out(2);
  f32::FullyConnected({kRelu, 1, 2, 2}, in.data(), w.data(), nullptr,
                      out.data());
  EXPECT_EQ(Bits(out[0]), Bits(2.5f));
  EXPECT_EQ(Bits(out[1]), Bits(0.0f));  // -7 under RELU
}

TEST(KernelsFloat, ConvolvesOnlyTheTapsInsideTheInput) {
  // Input 3x3x1 = 1..9, filter 2x2 {1, 2, 3, 4}, stride 1, padding 0
  // before (VALID): out[y][x] = in[y][x] + 2 in[y][x+1] + 3 in[y+1][x] + 4
  // in[y+1][x+1]: 1+4+12+20 = 37, 2+6+15+24 = 47, 4+10+21+32 = 67,
  // 5+12+24+36 = 77; bias 0.5; RELU6 -> all 6; NONE -> 37.5 ...
  const std::vector<float> in = {1, 2, 3, 4, 5, 6, 7, 8, 9};
  const std::vector<float> f = {1, 2, 3, 4};
  const float bias = 0.5f;
  std::vector<float> out(4);
  f32::ConvParams p{kNone, 1, 1, 0, 0, 1, 1, 1};
  f32::Conv2D(p, {1, 3, 3, 1}, in.data(), {1, 2, 2, 1}, f.data(), &bias,
              {1, 2, 2, 1}, out.data());
  EXPECT_EQ(out, (std::vector<float>{37.5f, 47.5f, 67.5f, 77.5f}));
  p.act = kRelu6;
  f32::Conv2D(p, {1, 3, 3, 1}, in.data(), {1, 2, 2, 1}, f.data(), &bias,
              {1, 2, 2, 1}, out.data());
  EXPECT_EQ(out, (std::vector<float>{6, 6, 6, 6}));
  // Padding 1 before, stride 2 (3x3 -> 2x2): output (0, 0) sees only
  // in[0][0] under the filter's tap (1, 1): 4 * 1 = 4; with an infinite
  // tap (0, 0) over the padding the sum stays 4 (skipped, not inf * 0).
  const std::vector<float> g = {kInf, 2, 3, 4};
  p = {kNone, 2, 2, 1, 1, 1, 1, 1};
  f32::Conv2D(p, {1, 3, 3, 1}, in.data(), {1, 2, 2, 1}, g.data(), nullptr,
              {1, 2, 2, 1}, out.data());
  EXPECT_EQ(Bits(out[0]), Bits(4.0f));
  // (0, 1): taps (1, 0) on in[0][1] = 2 and (1, 1) on in[0][2] = 3:
  // 3 * 2 + 4 * 3 = 18.
  EXPECT_EQ(Bits(out[1]), Bits(18.0f));
  // (1, 1): every tap inside, tap (0, 0) on in[1][1] = 5: inf.
  EXPECT_EQ(Bits(out[3]), Bits(kMax));  // NONE clamps inf to FLT_MAX
}

TEST(KernelsFloat, ConvolvesEveryInputChannelInOrder) {
  // A 1x1 input of 2 channels {1e8, 1}, two 1x1 filters {1, 1} and
  // {-1, 1}, biases {-1e8, 1e8}: in channel order 1e8 + 1 = 1e8 (the float
  // spacing at 1e8 is 8), then the bias: 0; -1e8 + 1 = -1e8, then the
  // bias: 0. (Adding the bias first would give 1 for both.)
  const std::vector<float> in = {1e8f, 1};
  const std::vector<float> f = {1, 1, -1, 1};
  const std::vector<float> bias = {-1e8f, 1e8f};
  std::vector<float> out(2);
  f32::Conv2D({kNone, 1, 1, 0, 0, 1, 1, 1}, {1, 1, 1, 2}, in.data(),
              {2, 1, 1, 2}, f.data(), bias.data(), {1, 1, 1, 2}, out.data());
  EXPECT_EQ(Bits(out[0]), Bits(0.0f));
  EXPECT_EQ(Bits(out[1]), Bits(0.0f));
}

TEST(KernelsFloat, ConvolvesDepthwiseWithADepthMultiplier) {
  // A 1x2 input of 2 channels, {a, b} = {1, 10} then {2, 20}; a 1x2
  // filter of 4 channels (multiplier 2: channels 0, 1 read a, 2, 3 read
  // b), tap 0 {1, 2, 3, 4}, tap 1 {5, 6, 7, 8}; VALID -> 1x1x4:
  // 1*1 + 2*5 = 11, 1*2 + 2*6 = 14, 10*3 + 20*7 = 170, 10*4 + 20*8 = 200;
  // biases {0, 0, 0, -200.5} and RELU: 11, 14, 170, 0 (-0.5 clamped).
  const std::vector<float> in = {1, 10, 2, 20};
  const std::vector<float> f = {1, 2, 3, 4, 5, 6, 7, 8};
  const std::vector<float> bias = {0, 0, 0, -200.5f};
  std::vector<float> out(4);
  f32::DepthwiseConv2D({kRelu, 1, 1, 0, 0, 1, 1, 2}, {1, 1, 2, 2}, in.data(),
                       {1, 1, 2, 4}, f.data(), bias.data(), {1, 1, 1, 4},
                       out.data());
  EXPECT_EQ(out, (std::vector<float>{11, 14, 170, 0}));
}

TEST(KernelsFloat, AddsWithBroadcastingAndClamps) {
  // [2, 3] + [3]: {1, 2, 3, 4, 5, 6} + {0.5, -10, 1e30}: RELU6.
  const std::vector<float> a = {1, 2, 3, 4, 5, 6};
  const std::vector<float> b = {0.5f, -10, 1e30f};
  std::vector<float> out(6);
  f32::Add({kRelu6, {1, 1, 2, 3}, {0, 0, 3, 1}, {0, 0, 0, 1}}, a.data(),
           b.data(), out.data());
  EXPECT_EQ(out, (std::vector<float>{1.5f, 0, 6, 4.5f, 0, 6}));
  // NONE: 1e30 + 3 = 1e30 (float), -10 + 2 = -8.
  f32::Add({kNone, {1, 1, 2, 3}, {0, 0, 3, 1}, {0, 0, 0, 1}}, a.data(),
           b.data(), out.data());
  EXPECT_EQ(out, (std::vector<float>{1.5f, -8, 1e30f, 4.5f, -5, 1e30f}));
}

TEST(KernelsFloat, SubtractsAndMultipliesWithBroadcastingAndClamps) {
  // [2, 3] op [2, 1] (b broadcast along the last dimension):
  // a = {1, 2, 3, 4, 5, 6}, b = {0.5, -2}.
  const std::vector<float> a = {1, 2, 3, 4, 5, 6};
  const std::vector<float> b = {0.5f, -2};
  const f32::ArithmeticParams relu6{
      kRelu6, {1, 1, 2, 3}, {0, 0, 3, 1}, {0, 0, 1, 0}};
  f32::ArithmeticParams relu = relu6;
  relu.act = kRelu;
  std::vector<float> out(6);
  // a - b: 0.5, 1.5, 2.5, 6, 7, 8; RELU6 clamps 7 and 8 to 6.
  f32::Sub(relu6, a.data(), b.data(), out.data());
  EXPECT_EQ(out, (std::vector<float>{0.5f, 1.5f, 2.5f, 6, 6, 6}));
  // a * b: 0.5, 1, 1.5, -8, -10, -12; RELU: the negatives to 0.
  f32::Mul(relu, a.data(), b.data(), out.data());
  EXPECT_EQ(out, (std::vector<float>{0.5f, 1, 1.5f, 0, 0, 0}));
  // One rounding per element: (1 + 2^-12)^2 = 1 + 2^-11 + 2^-24 rounds
  // (a tie, to even) to 1 + 2^-11; 1e30 * 1e30 overflows to inf, which
  // NONE clamps to FLT_MAX; 1e8 - (1e8 - 8) is 8 exactly; inf - inf is a
  // NaN, which the clamp passes.
  const float e = 1.0f + std::ldexp(1.0f, -12);
  const std::vector<float> x = {e, 1e30f, 1e8f, kInf};
  const std::vector<float> y = {e, 1e30f, 1e8f - 8, kInf};
  const f32::ArithmeticParams flat{
      kNone, {1, 1, 1, 4}, {0, 0, 0, 1}, {0, 0, 0, 1}};
  std::vector<float> r(4);
  f32::Mul(flat, x.data(), y.data(), r.data());
  EXPECT_EQ(Bits(r[0]), Bits(1.0f + std::ldexp(1.0f, -11)));
  EXPECT_EQ(Bits(r[1]), Bits(kMax));
  f32::Sub(flat, x.data(), y.data(), r.data());
  EXPECT_EQ(Bits(r[0]), 0u);
  EXPECT_EQ(Bits(r[2]), Bits(8.0f));
  EXPECT_TRUE(std::isnan(r[3]));
  // DIV: 1 / 3 rounds to 0x3eaaaaab; x / 0 is +-inf (NONE clamps it to
  // +-FLT_MAX), 0 / 0 a NaN (passed through); RELU6 clamps 7 / 0.5 = 14.
  const std::vector<float> num = {1, -2, 0, 7};
  const std::vector<float> den = {3, 0, 0, 0.5f};
  f32::Div(flat, num.data(), den.data(), r.data());
  EXPECT_EQ(Bits(r[0]), 0x3eaaaaabu);
  EXPECT_EQ(Bits(r[1]), Bits(-kMax));
  EXPECT_TRUE(std::isnan(r[2]));
  EXPECT_EQ(Bits(r[3]), Bits(14.0f));
  f32::ArithmeticParams six = flat;
  six.act = kRelu6;
  f32::Div(six, num.data(), den.data(), r.data());
  EXPECT_EQ(Bits(r[3]), Bits(6.0f));
}

TEST(KernelsFloat, TakesMaximumAndMinimumInTflmsOperandOrder) {
  // a > b ? a : b and a < b ? a : b, b broadcast from [1] to [5]:
  // a = {-1, 3, -0.0, 0.0, NaN} against b = 0.0 then b = NaN.
  const float nan = std::nanf("");
  const std::vector<float> a = {-1, 3, -0.0f, 0.0f, nan};
  const f32::BroadcastParams shape{{1, 1, 1, 5}, {0, 0, 0, 1}, {0, 0, 0, 0}};
  std::vector<float> out(5);
  const float zero = 0.0f;
  f32::Maximum(shape, a.data(), &zero, out.data());
  EXPECT_EQ(Bits(out[0]), 0u);
  EXPECT_EQ(Bits(out[1]), Bits(3.0f));
  EXPECT_EQ(Bits(out[2]), 0u);  // -0.0 > 0.0 is false: b
  EXPECT_EQ(Bits(out[3]), 0u);
  EXPECT_EQ(Bits(out[4]), 0u);  // NaN > 0 is false: b
  f32::Minimum(shape, a.data(), &zero, out.data());
  EXPECT_EQ(Bits(out[0]), Bits(-1.0f));
  EXPECT_EQ(Bits(out[1]), 0u);
  EXPECT_EQ(Bits(out[2]), 0u);  // -0.0 < 0.0 is false: b, +0.0
  EXPECT_EQ(Bits(out[4]), 0u);
  // Against a NaN b every comparison fails: the NaN is the result.
  f32::Maximum(shape, a.data(), &nan, out.data());
  for (float v : out) EXPECT_TRUE(std::isnan(v));
}

TEST(KernelsFloat, PoolsOverTheTapsInsideTheInput) {
  // Input 3x3x1 = 1..9, window 2x2, stride 2, padding 0 (2x2 out): the
  // windows {1, 2, 4, 5}, {3, 6}, {7, 8}, {9}.
  const std::vector<float> in = {1, 2, 3, 4, 5, 6, 7, 8, 9};
  std::vector<float> out(4);
  f32::AveragePool({2, 2, 2, 2, 0, 0, kNone}, {1, 3, 3, 1}, in.data(),
                   {1, 2, 2, 1}, out.data());
  EXPECT_EQ(out, (std::vector<float>{3, 4.5f, 7.5f, 9}));
  f32::MaxPool({2, 2, 2, 2, 0, 0, kNone}, {1, 3, 3, 1}, in.data(), {1, 2, 2, 1},
               out.data());
  EXPECT_EQ(out, (std::vector<float>{5, 6, 8, 9}));
  // RELU6 clamps the maxima: 5, 6, 6, 6.
  f32::MaxPool({2, 2, 2, 2, 0, 0, kRelu6}, {1, 3, 3, 1}, in.data(),
               {1, 2, 2, 1}, out.data());
  EXPECT_EQ(out, (std::vector<float>{5, 6, 6, 6}));
  // Padding 1 before, stride 2, window 2x2: (0, 0) sees only in[0][0].
  f32::AveragePool({2, 2, 2, 2, 1, 1, kNone}, {1, 3, 3, 1}, in.data(),
                   {1, 2, 2, 1}, out.data());
  EXPECT_EQ(out, (std::vector<float>{1, 2.5f, 5.5f, 7}));
  // Max over {NaN, -1}: max(lowest, NaN) keeps lowest, then -1. Over
  // {-1, NaN}: -1 stays.
  const std::vector<float> nan_first = {std::nanf(""), -1};
  const std::vector<float> nan_last = {-1, std::nanf("")};
  float m = 0;
  f32::MaxPool({1, 2, 1, 1, 0, 0, kNone}, {1, 1, 2, 1}, nan_first.data(),
               {1, 1, 1, 1}, &m);
  EXPECT_EQ(Bits(m), Bits(-1.0f));
  f32::MaxPool({1, 2, 1, 1, 0, 0, kNone}, {1, 1, 2, 1}, nan_last.data(),
               {1, 1, 1, 1}, &m);
  EXPECT_EQ(Bits(m), Bits(-1.0f));
}

TEST(KernelsFloat, RelusWithoutAnUpperBound) {
  const std::vector<float> in = {-3, 2.5f, -0.0f, kInf, -kInf};
  std::vector<float> out(5);
  f32::Relu(5, in.data(), out.data());
  EXPECT_EQ(Bits(out[0]), Bits(0.0f));
  EXPECT_EQ(Bits(out[1]), Bits(2.5f));
  EXPECT_EQ(Bits(out[2]), 0x80000000u);  // -0.0 < 0.0 is false
  EXPECT_EQ(Bits(out[3]), Bits(kInf));
  EXPECT_EQ(Bits(out[4]), Bits(0.0f));
  const float nan = std::nanf("");
  float y = 0;
  f32::Relu(1, &nan, &y);
  EXPECT_TRUE(std::isnan(y));
}

TEST(KernelsFloat, Relu6sBetweenZeroAndSix) {
  const std::vector<float> in = {-3, 2.5f, -0.0f, 6.0f, 6.5f, kInf, -kInf};
  std::vector<float> out(7);
  f32::Relu6(7, in.data(), out.data());
  EXPECT_EQ(Bits(out[0]), Bits(0.0f));
  EXPECT_EQ(Bits(out[1]), Bits(2.5f));
  EXPECT_EQ(Bits(out[2]), 0x80000000u);  // -0.0 < 0.0 is false
  EXPECT_EQ(Bits(out[3]), Bits(6.0f));
  EXPECT_EQ(Bits(out[4]), Bits(6.0f));
  EXPECT_EQ(Bits(out[5]), Bits(6.0f));
  EXPECT_EQ(Bits(out[6]), Bits(0.0f));
  const float nan = std::nanf("");
  float y = 0;
  f32::Relu6(1, &nan, &y);
  EXPECT_TRUE(std::isnan(y));
}

TEST(KernelsFloat, AveragesInTheInputsOrder) {
  // [2, 4] averaged over the last dimension: row {1e8, 1, -1e8, 1}: 1e8 +
  // 1 = 1e8 (the float spacing at 1e8 is 8), - 1e8 = 0, + 1 = 1, / 4 =
  // 0.25 (the exact mean would be 0.5); row {1, 2, 3, 4}: 10 / 4 = 2.5.
  const std::vector<float> in = {1e8f, 1, -1e8f, 1, 1, 2, 3, 4};
  std::vector<float> out(2);
  f32::Mean({{1, 1, 2, 4}, 1, 4.0f}, in.data(), out.data());
  EXPECT_EQ(out, (std::vector<float>{0.25f, 2.5f}));
  // Over the first dimension (bit 1, w here): columns {1e8, 1}, {1, 2},
  // {-1e8, 3}, {1, 4} / 2: 5e7, 1.5, -5e7 (-1e8 + 3 rounds to -1e8), 2.5.
  std::vector<float> cols(4);
  f32::Mean({{1, 1, 2, 4}, 2, 2.0f}, in.data(), cols.data());
  EXPECT_EQ(cols, (std::vector<float>{5e7f, 1.5f, -5e7f, 2.5f}));
}

TEST(KernelsFloat, TransposeConvolvesInTheScattersOrder) {
  // Input 1x1x3x1 {1, 1e8, -1e8}, filter 1x1x3x1 {1, 1, 1}, stride 1, no
  // padding -> 1x1x5x1. Output 2 receives in[0] * f[2], in[1] * f[1],
  // in[2] * f[0] in input order: 1 + 1e8 = 1e8 (the float spacing at 1e8
  // is 8), - 1e8 = 0 (in tap order it would be -1e8 + 1e8 + 1 = 1).
  // Output 0: 1; 1: 1 + 1e8 = 1e8; 3: 1e8 - 1e8 = 0; 4: -1e8; bias 0.5
  // each; RELU: 1.5, 1e8, 0.5, 0.5, 0.
  const std::vector<float> in = {1, 1e8f, -1e8f};
  const std::vector<float> f = {1, 1, 1};
  const std::vector<float> bias = {0.5f};
  std::vector<float> out(5);
  f32::TransposeConv({kRelu, 1, 1, 0, 0, 1, 1, 1}, {1, 1, 3, 1}, in.data(),
                     {1, 1, 3, 1}, f.data(), bias.data(), {1, 1, 5, 1},
                     out.data());
  EXPECT_EQ(out, (std::vector<float>{1.5f, 1e8f, 0.5f, 0.5f, 0}));
  // Stride 2, 2x2 filter {1, 10, 100, 1000} over input 2x2 {1, 2, 3, 4},
  // no bias, NONE: each input pixel writes its own 2x2 block of the 4x4
  // output, e.g. row 0: 1, 10, 2, 20; row 3: 300, 3000, 400, 4000.
  const std::vector<float> in2 = {1, 2, 3, 4};
  const std::vector<float> f2 = {1, 10, 100, 1000};
  std::vector<float> out2(16);
  f32::TransposeConv({kNone, 2, 2, 0, 0, 1, 1, 1}, {1, 2, 2, 1}, in2.data(),
                     {1, 2, 2, 1}, f2.data(), nullptr, {1, 4, 4, 1},
                     out2.data());
  EXPECT_EQ(out2, (std::vector<float>{1, 10, 2, 20, 100, 1000, 200, 2000, 3, 30,
                                      4, 40, 300, 3000, 400, 4000}));
}

}  // namespace
