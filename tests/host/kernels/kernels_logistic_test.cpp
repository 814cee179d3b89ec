// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// LOGISTIC (logistic.hpp) against an independent implementation of the same
// fixed-point arithmetic, gemmlowp's fixedpoint.h (Debian libgemmlowp-dev),
// which TensorFlow Lite's reference integer kernel calls: bit for bit over
// a sweep of Q4.27 inputs; the int8 kernel end to end against TFLite's
// reference loop written here with gemmlowp; and against the real sigmoid
// within one output step.
#include <gemmlowp/fixedpoint/fixedpoint.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>

#include "arenaplan/kernels/kernels.hpp"

namespace {

namespace k = arenaplan::kernels;
using F4 = gemmlowp::FixedPoint<std::int32_t, 4>;
using F5 = gemmlowp::FixedPoint<std::int32_t, 5>;

TEST(Logistic, ExpOnNegativeValuesMatchesGemmlowp) {
  std::mt19937 rng(14);
  std::uniform_int_distribution<std::int32_t> any(INT32_MIN + 1, 0);
  for (int i = 0; i < 200000; ++i) {
    const std::int32_t a = i < 1000 ? -i * 4099 : any(rng);
    ASSERT_EQ(k::ExpOnNegativeValues<4>(a),
              gemmlowp::exp_on_negative_values(F4::FromRaw(a)).raw())
        << a;
    ASSERT_EQ(k::ExpOnNegativeValues<5>(a),
              gemmlowp::exp_on_negative_values(F5::FromRaw(a)).raw())
        << a;
    // The generalisation agrees with the softmax's Q5.26 version.
    ASSERT_EQ(k::ExpOnNegativeValues<5>(a), k::ExpOnNegativeValuesQ5(a)) << a;
  }
}

TEST(Logistic, LogisticQ4MatchesGemmlowp) {
  std::mt19937 rng(1414);
  std::uniform_int_distribution<std::int32_t> any(INT32_MIN + 1, INT32_MAX);
  for (int i = 0; i < 200000; ++i) {
    const std::int32_t a = i < 2001 ? (i - 1000) * 65537 : any(rng);
    ASSERT_EQ(k::LogisticQ4(a), gemmlowp::logistic(F4::FromRaw(a)).raw()) << a;
  }
}

/// TFLite's reference_integer_ops::Logistic for one int8 value, with
/// gemmlowp (the loop body of reference/integer_ops/logistic.h).
std::int8_t TfliteLogistic(const k::LogisticParams& p, std::int8_t q) {
  const std::int32_t x = q - p.input_zero_point;
  if (x <= -p.input_range_radius) return -128;
  if (x >= p.input_range_radius) return 127;
  const std::int32_t a = k::MultiplyByQuantizedMultiplier(x, p.input_multiplier,
                                                          p.input_left_shift);
  const std::int32_t y = gemmlowp::RoundingDivideByPOT(
                             gemmlowp::logistic(F4::FromRaw(a)).raw(), 23) -
                         128;
  return static_cast<std::int8_t>(std::clamp(y, -128, 127));
}

TEST(Logistic, Int8KernelMatchesReferenceLoopAndTheRealSigmoid) {
  // Input scales 2^-4 .. 2^-2 and odd ones; TFLM's preparation by hand:
  // s_in * 2^27 = q * 2^shift, q in [0.5, 1).
  for (const float s : {0.0625f, 0.1f, 0.03125f, 0.2f, 0.0417f}) {
    const double real = static_cast<double>(s) * (1 << 27);
    int shift = 0;
    const double q = std::frexp(real, &shift);
    const auto m = static_cast<std::int32_t>(std::round(q * 2147483648.0));
    const auto radius = static_cast<std::int32_t>(
        std::floor(15.0 * (1 << 27) / std::ldexp(1.0, shift)));
    for (const std::int32_t zp : {-128, -3, 0, 40}) {
      const k::LogisticParams p{zp, radius, m, shift, 256};
      std::int8_t in[256], out[256];
      for (int i = 0; i < 256; ++i) in[i] = static_cast<std::int8_t>(i - 128);
      k::Logistic(p, in, out);
      for (int i = 0; i < 256; ++i) {
        ASSERT_EQ(out[i], TfliteLogistic(p, in[i]))
            << s << " " << zp << " " << i;
        const double sig = 1.0 / (1.0 + std::exp(-s * (in[i] - zp)));
        EXPECT_NEAR(out[i], std::clamp(sig * 256.0 - 128.0, -128.0, 127.0), 1.0)
            << s << " " << zp << " " << i;
      }
      // Hand: q_in = zp gives logistic(0) = 1/2 -> 2^30 / 2^23 = 128 -> 0.
      std::int8_t mid = 0;
      const auto zq = static_cast<std::int8_t>(zp);
      k::Logistic(k::LogisticParams{zp, radius, m, shift, 1}, &zq, &mid);
      EXPECT_EQ(mid, 0);
    }
  }
}

/// TFLite's reference_integer_ops::Tanh for one int8 value, with gemmlowp.
std::int8_t TfliteTanh(const k::TanhParams& p, std::int8_t q) {
  const std::int32_t x = q - p.input_zero_point;
  if (x <= -p.input_range_radius) return -128;
  if (x >= p.input_range_radius) return 127;
  const std::int32_t a = k::MultiplyByQuantizedMultiplier(x, p.input_multiplier,
                                                          p.input_left_shift);
  const std::int32_t y =
      gemmlowp::RoundingDivideByPOT(gemmlowp::tanh(F4::FromRaw(a)).raw(), 24);
  return static_cast<std::int8_t>(std::clamp(y, -128, 127));
}

TEST(Tanh, TanhQ4MatchesGemmlowp) {
  std::mt19937 rng(28);
  std::uniform_int_distribution<std::int32_t> any(INT32_MIN + 1, INT32_MAX);
  for (int i = 0; i < 200000; ++i) {
    const std::int32_t a = i < 2001 ? (i - 1000) * 65537 : any(rng);
    ASSERT_EQ(k::TanhQ4(a), gemmlowp::tanh(F4::FromRaw(a)).raw()) << a;
  }
}

TEST(Tanh, Int8KernelMatchesReferenceLoopAndTheRealTanh) {
  for (const float s : {0.0625f, 0.1f, 0.03125f, 0.2f, 0.0417f}) {
    const double real = static_cast<double>(s) * (1 << 27);
    int shift = 0;
    const double q = std::frexp(real, &shift);
    const auto m = static_cast<std::int32_t>(std::round(q * 2147483648.0));
    const auto radius = static_cast<std::int32_t>(
        std::floor(15.0 * (1 << 27) / std::ldexp(1.0, shift)));
    for (const std::int32_t zp : {-128, -3, 0, 40}) {
      const k::TanhParams p{zp, radius, m, shift, 256};
      std::int8_t in[256], out[256];
      for (int i = 0; i < 256; ++i) in[i] = static_cast<std::int8_t>(i - 128);
      k::Tanh(p, in, out);
      for (int i = 0; i < 256; ++i) {
        ASSERT_EQ(out[i], TfliteTanh(p, in[i])) << s << " " << zp << " " << i;
        const double t = std::tanh(s * (in[i] - zp)) * 128.0;
        EXPECT_NEAR(out[i], std::clamp(t, -128.0, 127.0), 1.0)
            << s << " " << zp << " " << i;
      }
    }
  }
  // Hand: x = 0 gives 0.
  const std::int8_t zero = 7;
  std::int8_t out = 1;
  k::Tanh(k::TanhParams{7, 100, 1 << 30, 10, 1}, &zero, &out);
  EXPECT_EQ(out, 0);
}

}  // namespace
