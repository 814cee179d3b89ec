// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The fixed-point primitives against values derived by hand from their
// published definitions: gemmlowp's fixedpoint.h (SaturatingRoundingDoubling
// HighMul: nudge 2^30 for ab >= 0 else 1 - 2^30, then truncating division by
// 2^31; RoundingDivideByPOT: mask = 2^e - 1, threshold = (mask >> 1) +
// (x < 0), result (x >> e) + (remainder > threshold)) and TFLite's
// quantization_util.cc (QuantizeMultiplier via frexp).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>

#include "arenaplan/kernels/quantization.hpp"
#include "codegen/compile/quantize.hpp"

namespace {

using arenaplan::kernels::MultiplyByQuantizedMultiplier;
using arenaplan::kernels::RoundingDivideByPOT;
using arenaplan::kernels::SaturatingRoundingDoublingHighMul;
namespace compile = arenaplan::compile;
namespace tflite = arenaplan::tflite;

constexpr std::int32_t kHalfQ31 = std::int32_t{1} << 30;  // 0.5 in Q0.31

TEST(KernelsQuantization, DoublingHighMulMultipliesQ31) {
  // 0.5 * 0.5 = 0.25 = 2^29 in Q0.31: ab = 2^60, (2^60 + 2^30) / 2^31
  // = 2^29 + 0.5, truncated -> 2^29.
  EXPECT_EQ(SaturatingRoundingDoublingHighMul(kHalfQ31, kHalfQ31), 1 << 29);
  // 1000 * 0.5 = 500 exactly.
  EXPECT_EQ(SaturatingRoundingDoublingHighMul(1000, kHalfQ31), 500);
  EXPECT_EQ(SaturatingRoundingDoublingHighMul(-1000, kHalfQ31), -500);
}

TEST(KernelsQuantization, DoublingHighMulRoundsTiesUp) {
  // 1 * 0.5 = 0.5: ab = 2^30, (2^30 + 2^30) / 2^31 = 1.
  EXPECT_EQ(SaturatingRoundingDoublingHighMul(1, kHalfQ31), 1);
  // -1 * 0.5 = -0.5: ab = -2^30, (-2^30 + 1 - 2^30) / 2^31 = (1 - 2^31) / 2^31
  // truncates to 0.
  EXPECT_EQ(SaturatingRoundingDoublingHighMul(-1, kHalfQ31), 0);
  // -3 * 0.5 = -1.5: (-3 * 2^30 + 1 - 2^30) / 2^31 = (1 - 2^32) / 2^31 -> -1.
  EXPECT_EQ(SaturatingRoundingDoublingHighMul(-3, kHalfQ31), -1);
  // 3 * 0.5 = 1.5 -> 2.
  EXPECT_EQ(SaturatingRoundingDoublingHighMul(3, kHalfQ31), 2);
  // 0.25 below a tie: 5 * 2^29 / 2^31 = 1.25 -> 1; -1.25 -> -1.
  EXPECT_EQ(SaturatingRoundingDoublingHighMul(5, 1 << 29), 1);
  EXPECT_EQ(SaturatingRoundingDoublingHighMul(-5, 1 << 29), -1);
}

TEST(KernelsQuantization, DoublingHighMulSaturatesMinTimesMin) {
  // (-1) * (-1) = +1 is not representable in Q0.31: saturates.
  EXPECT_EQ(SaturatingRoundingDoublingHighMul(INT32_MIN, INT32_MIN), INT32_MAX);
  // -1 * 0.5 = -0.5 = -2^30 exactly.
  EXPECT_EQ(SaturatingRoundingDoublingHighMul(INT32_MIN, kHalfQ31), -kHalfQ31);
}

TEST(KernelsQuantization, DivideByPOTRoundsTiesAwayFromZero) {
  EXPECT_EQ(RoundingDivideByPOT(3, 1), 2);    // 1.5 -> 2
  EXPECT_EQ(RoundingDivideByPOT(-3, 1), -2);  // -1.5 -> -2
  EXPECT_EQ(RoundingDivideByPOT(5, 2), 1);    // 1.25 -> 1
  EXPECT_EQ(RoundingDivideByPOT(6, 2), 2);    // 1.5 -> 2
  EXPECT_EQ(RoundingDivideByPOT(7, 2), 2);    // 1.75 -> 2
  EXPECT_EQ(RoundingDivideByPOT(-5, 2), -1);  // -1.25 -> -1
  EXPECT_EQ(RoundingDivideByPOT(-6, 2), -2);  // -1.5 -> -2
  EXPECT_EQ(RoundingDivideByPOT(-7, 2), -2);  // -1.75 -> -2
  EXPECT_EQ(RoundingDivideByPOT(12345, 0), 12345);
  // 2^30 / 2^31 = 0.5 -> 1; -2^30 / 2^31 -> -1.
  EXPECT_EQ(RoundingDivideByPOT(1 << 30, 31), 1);
  EXPECT_EQ(RoundingDivideByPOT(-(1 << 30), 31), -1);
}

TEST(KernelsQuantization, MultiplyByQuantizedMultiplierRoundsTwice) {
  // 1000 * 0.5 * 2^-1 = 250 exactly.
  EXPECT_EQ(MultiplyByQuantizedMultiplier(1000, kHalfQ31, -1), 250);
  // 1001 * 0.25 = 250.25, but TFLite rounds twice: 1001 * 0.5 = 500.5 -> 501
  // (tie up), then 501 / 2 = 250.5 -> 251 (tie away from zero).
  EXPECT_EQ(MultiplyByQuantizedMultiplier(1001, kHalfQ31, -1), 251);
  // -1001: -500.5 -> -500, -250 exactly.
  EXPECT_EQ(MultiplyByQuantizedMultiplier(-1001, kHalfQ31, -1), -250);
  // Left shift first: 3 * 2^2 = 12, * 0.5 = 6.
  EXPECT_EQ(MultiplyByQuantizedMultiplier(3, kHalfQ31, 2), 6);
}

TEST(KernelsQuantization, QuantizeMultiplierNormalizesToQ31) {
  // 0.75 = 0.75 * 2^0: round(0.75 * 2^31) = 1610612736.
  auto m = compile::QuantizeMultiplier(0.75);
  EXPECT_EQ(m.multiplier, 1610612736);
  EXPECT_EQ(m.shift, 0);
  // 1.0 = 0.5 * 2^1.
  m = compile::QuantizeMultiplier(1.0);
  EXPECT_EQ(m.multiplier, 1 << 30);
  EXPECT_EQ(m.shift, 1);
  // 0.1 = 0.8 * 2^-3: round(0.8 * 2^31) = round(1717986918.4) = 1717986918.
  m = compile::QuantizeMultiplier(0.1);
  EXPECT_EQ(m.multiplier, 1717986918);
  EXPECT_EQ(m.shift, -3);
  // 1 - 2^-40: frexp gives q = 1 - 2^-40, q * 2^31 = 2^31 - 2^-9 rounds to
  // 2^31, so it is halved and the shift incremented.
  m = compile::QuantizeMultiplier(1.0 - std::ldexp(1.0, -40));
  EXPECT_EQ(m.multiplier, 1 << 30);
  EXPECT_EQ(m.shift, 1);
  // Below 2^-32 the shift would be < -31: zero.
  m = compile::QuantizeMultiplier(std::ldexp(1.0, -40));
  EXPECT_EQ(m.multiplier, 0);
  EXPECT_EQ(m.shift, 0);
  m = compile::QuantizeMultiplier(0.0);
  EXPECT_EQ(m.multiplier, 0);
}

TEST(KernelsQuantization, QuantizedMultiplierApproximatesRealProduct) {
  // Second method: the integer path equals round(x * real) within 1 for
  // multipliers across the range the models use.
  for (double real : {0.0003, 0.0123, 0.37, 0.999, 1.7, 3.2}) {
    const auto m = compile::QuantizeMultiplier(real);
    for (std::int32_t x = -20000; x <= 20000; x += 37) {
      const double expect = std::round(x * real);
      const std::int32_t got =
          MultiplyByQuantizedMultiplier(x, m.multiplier, m.shift);
      EXPECT_LE(std::abs(got - expect), 1.0) << "x=" << x << " real=" << real;
    }
  }
}

TEST(KernelsQuantization, ActivationRangeRefusesBoundsOutsideInt32) {
  // scale 3 * 2^-29 (exact in float): 6 / scale = 2^30 fits int32; the
  // upper bound clamps to 127, RELU's lower bound is the zero point.
  auto r = compile::Int8ActivationRange(tflite::Activation::kRelu6,
                                        std::ldexp(3.0f, -29), -128);
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->min, -128);
  EXPECT_EQ(r->max, 127);
  // scale 3 * 2^-30: 6 / scale = 2^31, one past INT32_MAX (TFLite's check
  // lets it through to an undefined cast): refused.
  EXPECT_FALSE(compile::Int8ActivationRange(tflite::Activation::kRelu6,
                                            std::ldexp(3.0f, -30), -128)
                   .has_value());
  // 1e-9: 6e9 is far outside int32.
  EXPECT_FALSE(
      compile::Int8ActivationRange(tflite::Activation::kRelu6, 1e-9f, 0)
          .has_value());
  // scale 2^-31, zero point -1: -1 / scale = -2^31 fits, but -1 + -2^31
  // does not (the sum is formed in 64 bits and checked).
  EXPECT_FALSE(
      compile::QuantizeBound(-1.0f, std::ldexp(1.0f, -31), -1).has_value());
  EXPECT_EQ(
      compile::QuantizeBound(-1.0f, std::ldexp(1.0f, -31), 0),
      std::optional<std::int32_t>(std::numeric_limits<std::int32_t>::min()));
  EXPECT_FALSE(compile::QuantizeBound(1.0f, 0.0f, 0).has_value());  // inf
}

TEST(KernelsQuantization, ActivationRangeQuantizesBounds) {
  // RELU6 with scale 6/255 and zero point -128: [-128, -128 + round(255)]
  // = [-128, 127].
  auto r = compile::Int8ActivationRange(tflite::Activation::kRelu6,
                                        6.0f / 255.0f, -128);
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->min, -128);
  EXPECT_EQ(r->max, 127);
  // RELU6 with scale 0.05, zero point 10: min = 10, max = 10 + 120 -> 127.
  r = compile::Int8ActivationRange(tflite::Activation::kRelu6, 0.05f, 10);
  EXPECT_EQ(r->min, 10);
  EXPECT_EQ(r->max, 127);
  // RELU6 with scale 0.1, zero point -100: [-100, -100 + 60] = [-100, -40].
  r = compile::Int8ActivationRange(tflite::Activation::kRelu6, 0.1f, -100);
  EXPECT_EQ(r->min, -100);
  EXPECT_EQ(r->max, -40);
  // RELU_N1_TO_1 with scale 0.25, zp 0: [-4, 4]. NONE: full range.
  r = compile::Int8ActivationRange(tflite::Activation::kReluN1To1, 0.25f, 0);
  EXPECT_EQ(r->min, -4);
  EXPECT_EQ(r->max, 4);
  r = compile::Int8ActivationRange(tflite::Activation::kNone, 0.25f, 0);
  EXPECT_EQ(r->min, -128);
  EXPECT_EQ(r->max, 127);
  EXPECT_FALSE(compile::Int8ActivationRange(tflite::Activation::kTanh, 0.25f, 0)
                   .has_value());
}

TEST(KernelsQuantization, PaddingMatchesSameAndValid) {
  // SAME, 96 wide, 3 taps, stride 2: out 48, total (47*2 + 3 - 96) = 1,
  // before 0 (TFLite puts the odd pixel after).
  auto d = compile::ComputePadding(tflite::Padding::kSame, 96, 3, 2);
  EXPECT_EQ(d.out, 48);
  EXPECT_EQ(d.pad_before, 0);
  // SAME, 48, 3 taps, stride 1: out 48, total 2, before 1.
  d = compile::ComputePadding(tflite::Padding::kSame, 48, 3, 1);
  EXPECT_EQ(d.out, 48);
  EXPECT_EQ(d.pad_before, 1);
  // VALID, 3 wide, 3 taps: out 1; VALID 49, 10 taps, stride 2: (49-10)/2+1=20.
  d = compile::ComputePadding(tflite::Padding::kValid, 3, 3, 1);
  EXPECT_EQ(d.out, 1);
  d = compile::ComputePadding(tflite::Padding::kValid, 49, 10, 2);
  EXPECT_EQ(d.out, 20);
}

}  // namespace
