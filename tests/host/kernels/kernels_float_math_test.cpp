// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The float32 kernels' own exp and tanh (kernels/include/arenaplan/
// kernels/float/math.hpp) and the kernels built on them (transcendental.
// hpp: LOGISTIC, TANH, SOFTMAX), measured against the host's libm: the
// distance in units in the last place (ULP, counted along the ordered
// floats) between each result and the host's expf / tanhf (and TFLite's
// logistic formula with the host's expf) over a sweep of every 4099th
// float bit pattern (1,043,716 numbers, both signs, subnormals, both
// infinities). The bounds asserted are the measured maxima: Exp 1 ULP,
// Tanh 3 ULP, Logistic 2 ULP (docs/compile.md). Then the special values
// by hand, and SOFTMAX's order of operations against a second
// computation here with the host's expf, within the same bound.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <vector>

#include "arenaplan/kernels/float/math.hpp"
#include "arenaplan/kernels/float/transcendental.hpp"

namespace {

namespace f32 = arenaplan::kernels::f32;

constexpr float kInf = std::numeric_limits<float>::infinity();

std::uint32_t Bits(float v) {
  std::uint32_t b = 0;
  std::memcpy(&b, &v, 4);
  return b;
}

/// Position of `v` along the ordered floats (-0.0 and +0.0 both 0).
std::int64_t Ordinal(float v) {
  const std::uint32_t b = Bits(v);
  const auto magnitude = static_cast<std::int64_t>(b & 0x7fffffffu);
  return (b & 0x80000000u) ? -magnitude : magnitude;
}

std::int64_t UlpDistance(float a, float b) {
  const std::int64_t d = Ordinal(a) - Ordinal(b);
  return d < 0 ? -d : d;
}

/// TFLite's reference float logistic with the host's expf.
float HostLogistic(float v) {
  if (v > 16.619047164916992188f) return 1.0f;
  if (v < -9.0f) return std::exp(v);
  return 1.0f / (1.0f + std::exp(-v));
}

struct Worst {
  std::int64_t ulp = 0;
  float at = 0.0f;
  void See(std::int64_t d, float x) {
    if (d > ulp) {
      ulp = d;
      at = x;
    }
  }
};

TEST(KernelsFloatMath, StaysWithinTheStatedUlpOfTheHostsLibm) {
  Worst exp, tanh, logistic;
  std::int64_t count = 0;
  for (std::uint64_t b = 0; b < 0x100000000ull; b += 4099) {
    float x = 0;
    const auto u = static_cast<std::uint32_t>(b);
    std::memcpy(&x, &u, 4);
    if (std::isnan(x)) continue;
    ++count;
    exp.See(UlpDistance(f32::Exp(x), std::exp(x)), x);
    tanh.See(UlpDistance(f32::Tanh(x), std::tanh(x)), x);
    float y = 0;
    f32::Logistic(1, &x, &y);
    logistic.See(UlpDistance(y, HostLogistic(x)), x);
  }
  std::printf(
      "%lld inputs; worst ULP: exp %lld at %a, tanh %lld at %a, "
      "logistic %lld at %a\n",
      static_cast<long long>(count), static_cast<long long>(exp.ulp),
      static_cast<double>(exp.at), static_cast<long long>(tanh.ulp),
      static_cast<double>(tanh.at), static_cast<long long>(logistic.ulp),
      static_cast<double>(logistic.at));
  EXPECT_EQ(count, 1043716);
  EXPECT_LE(exp.ulp, 1);
  EXPECT_LE(tanh.ulp, 3);
  EXPECT_LE(logistic.ulp, 2);
}

TEST(KernelsFloatMath, GivesTheSpecialValuesExactly) {
  EXPECT_EQ(Bits(f32::Exp(0.0f)), Bits(1.0f));
  EXPECT_EQ(Bits(f32::Exp(-0.0f)), Bits(1.0f));
  EXPECT_EQ(Bits(f32::Exp(kInf)), Bits(kInf));
  EXPECT_EQ(Bits(f32::Exp(-kInf)), 0u);
  EXPECT_EQ(Bits(f32::Exp(89.0f)), Bits(kInf));     // e^89 > FLT_MAX
  EXPECT_EQ(Bits(f32::Exp(-104.0f)), 0u);           // e^-104 < 2^-150
  EXPECT_EQ(Bits(f32::Exp(-103.5f)), 0x00000001u);  // 2^-149.3: 2^-149
  EXPECT_TRUE(std::isnan(f32::Exp(std::nanf(""))));
  EXPECT_EQ(Bits(f32::Tanh(0.0f)), 0u);
  EXPECT_EQ(Bits(f32::Tanh(-0.0f)), 0x80000000u);
  EXPECT_EQ(Bits(f32::Tanh(kInf)), Bits(1.0f));
  EXPECT_EQ(Bits(f32::Tanh(-kInf)), Bits(-1.0f));
  EXPECT_EQ(Bits(f32::Tanh(1e-30f)), Bits(1e-30f));  // tanh x = x here
  EXPECT_TRUE(std::isnan(f32::Tanh(std::nanf(""))));
  // LOGISTIC's cut-offs: 1 above 16.619047, exp(x) below -9.
  const std::vector<float> in = {17.0f, -10.0f, 0.0f, kInf, -kInf};
  std::vector<float> out(5);
  f32::Logistic(5, in.data(), out.data());
  EXPECT_EQ(Bits(out[0]), Bits(1.0f));
  EXPECT_EQ(Bits(out[1]), Bits(f32::Exp(-10.0f)));
  EXPECT_EQ(Bits(out[2]), Bits(0.5f));
  EXPECT_EQ(Bits(out[3]), Bits(1.0f));
  EXPECT_EQ(Bits(out[4]), 0u);
}

TEST(KernelsFloatMath, SoftmaxesEachRowInTflitesOrder) {
  // Two rows of 5, beta 0.5: the max first, then exp((x - max) * beta)
  // summed in order, then each divided by the sum. The second computation
  // uses the host's expf; every other operation is the same float one,
  // so each output is within a few ULP (the bound: the exp's 1 ULP, the
  // sum's and the quotient's propagation of it).
  const std::vector<float> in = {1.0f,  -2.5f, 3.25f, 0.0f, 3.25f,
                                 -1e3f, 7.0f,  -0.5f, 2.0f, 6.5f};
  std::vector<float> out(10);
  f32::Softmax({2, 5, 0.5f}, in.data(), out.data());
  for (int r = 0; r < 2; ++r) {
    const float* x = &in[static_cast<std::size_t>(r * 5)];
    float max = std::numeric_limits<float>::lowest();
    for (int c = 0; c < 5; ++c) max = max < x[c] ? x[c] : max;
    float e[5], sum = 0.0f;
    for (int c = 0; c < 5; ++c) {
      e[c] = std::exp((x[c] - max) * 0.5f);
      sum += e[c];
    }
    for (int c = 0; c < 5; ++c) {
      EXPECT_LE(
          UlpDistance(out[static_cast<std::size_t>(r * 5 + c)], e[c] / sum), 3)
          << r << " " << c;
    }
  }
  // exp(0) is exactly 1: the row's maxima (equal) give the same output,
  // and e^-500.5 underflows to 0 exactly.
  EXPECT_EQ(Bits(out[2]), Bits(out[4]));
  EXPECT_EQ(Bits(out[5]), 0u);
}

}  // namespace
