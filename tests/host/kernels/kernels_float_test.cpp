// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The float32 kernels (kernels/include/arenaplan/kernels/float/) against
// hand-derived values, compared bit for bit: the fused activation's clamp
// in TFLite's operand order (NaN, -0.0, infinities) and FULLY_CONNECTED's
// order of operations (the sum in input order, then the bias, each
// product rounded before it is added).
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

}  // namespace
