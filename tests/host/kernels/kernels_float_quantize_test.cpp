// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// QUANTIZE from float32 and DEQUANTIZE to float32 (float_quantize.hpp):
// hand-derived cases, and TensorFlow Lite Micro's formulas written out
// literally with the C library (std::round on the float quotient; the
// double product rounded to float) over many values and scales.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "arenaplan/kernels/float_quantize.hpp"

namespace {

namespace k = arenaplan::kernels;

TEST(FloatQuantize, QuantizesHandExamples) {
  // scale 0.5, zero point -3: q = round(x / 0.5) - 3, halves away from 0.
  const float in[] = {0.25f,  -0.25f, 1.0f, 0.74f,  -0.76f, 100.0f,
                      -1e30f, 1e30f,  0.0f, 64.75f, -62.5f, -63.0f};
  const std::int8_t expect[] = {
      -2,    // 0.5 -> 1
      -4,    // -0.5 -> -1
      -1,    // 2
      -2,    // 1.48 -> 1
      -5,    // -1.52 -> -2
      127,   // 200 - 3 saturates
      -128,  // far below
      127,   // far above
      -3,    // 0
      127,   // 129.5 -> 130, 127 after the zero point and saturation
      -128,  // -125 - 3
      -128,  // -126 - 3 = -129 saturates
  };
  std::int8_t out[std::size(in)] = {};
  k::QuantizeFromFloat(k::FloatQuantizeParams{0.5f, -3, std::size(in)}, in,
                       out);
  for (std::size_t i = 0; i < std::size(in); ++i) {
    EXPECT_EQ(out[i], expect[i]) << "element " << i << " x=" << in[i];
  }
}

TEST(FloatQuantize, QuantizesNanToTheMinimum) {
  const float in[] = {std::numeric_limits<float>::quiet_NaN()};
  std::int16_t out[1] = {7};
  k::QuantizeFromFloat(k::FloatQuantizeParams{0.01f, 5, 1}, in, out);
  EXPECT_EQ(out[0], -32768);
}

TEST(FloatQuantize, QuantizesToInt16ByHand) {
  // scale 2^-10, zero point 0: q = round(x * 1024).
  const float in[] = {1.0f, -0.5f, 31.99951171875f, 40.0f, 0.00048828125f};
  const std::int16_t expect[] = {1024, -512, 32767, 32767, 1};  // 0.5 -> 1
  std::int16_t out[5] = {};
  k::QuantizeFromFloat(k::FloatQuantizeParams{1.0f / 1024, 0, 5}, in, out);
  for (int i = 0; i < 5; ++i) EXPECT_EQ(out[i], expect[i]) << i;
}

/// TFLM's AffineQuantize (reference/quantize.h) with the C library.
template <class Out>
Out TflmQuantize(float x, float scale, std::int32_t zp) {
  const float q = std::round(x / scale);
  std::int64_t v = static_cast<std::int64_t>(q) + zp;
  v = std::clamp<std::int64_t>(v, std::numeric_limits<Out>::min(),
                               std::numeric_limits<Out>::max());
  return static_cast<Out>(v);
}

TEST(FloatQuantize, MatchesTflmFormulaOnRandomValues) {
  std::mt19937 rng(26);
  std::uniform_real_distribution<float> value(-1.0f, 1.0f);
  std::uniform_real_distribution<float> log_scale(-12.0f, 1.0f);
  std::uniform_int_distribution<int> zp(-128, 127);
  for (int round = 0; round < 200; ++round) {
    const float scale = std::exp2(log_scale(rng));
    const std::int32_t z = zp(rng);
    std::vector<float> in(257);
    for (float& x : in) x = value(rng) * (round % 3 == 0 ? 300.0f : 1.0f);
    // Exact halves: (m + 0.5) * scale for small m.
    for (int m = -8; m < 8; ++m) in.push_back((m + 0.5f) * scale);
    std::vector<std::int8_t> out(in.size());
    k::QuantizeFromFloat(
        k::FloatQuantizeParams{scale, z, static_cast<std::int32_t>(in.size())},
        in.data(), out.data());
    for (std::size_t i = 0; i < in.size(); ++i) {
      ASSERT_EQ(out[i], TflmQuantize<std::int8_t>(in[i], scale, z))
          << "x=" << in[i] << " scale=" << scale << " zp=" << z;
    }
  }
}

TEST(FloatQuantize, RoundsHalvesAwayFromZeroLikeStdRound) {
  for (float v = -300.0f; v <= 300.0f; v += 0.125f) {
    ASSERT_EQ(k::RoundHalfAwayFromZero(v),
              static_cast<std::int32_t>(std::round(v)))
        << v;
  }
  // Just below a half: rounds toward the nearer integer.
  const float below = std::nextafter(2.5f, 0.0f);
  EXPECT_EQ(k::RoundHalfAwayFromZero(below), 2);
  EXPECT_EQ(k::RoundHalfAwayFromZero(-below), -2);
}

TEST(FloatDequantize, DequantizesHandExamples) {
  // scale 0.25, zero point 10: x = 0.25 * (q - 10).
  const std::int8_t in[] = {-128, 10, 11, 127, 9};
  const float expect[] = {-34.5f, 0.0f, 0.25f, 29.25f, -0.25f};
  float out[5] = {};
  k::DequantizeToFloat(k::FloatQuantizeParams{0.25f, 10, 5}, in, out);
  for (int i = 0; i < 5; ++i) EXPECT_EQ(out[i], expect[i]) << i;
}

TEST(FloatDequantize, MatchesTflmDoubleProductForEveryInt8AndManyScales) {
  // TFLM: static_cast<float>(double(scale) * (q - zp)).
  std::mt19937 rng(2026);
  std::uniform_int_distribution<std::uint32_t> bits(0x30000000u, 0x40000000u);
  std::uniform_int_distribution<int> zp(-128, 127);
  std::vector<std::int8_t> in(256);
  for (int q = -128; q < 128; ++q) in[q + 128] = static_cast<std::int8_t>(q);
  for (int round = 0; round < 500; ++round) {
    float scale;
    const std::uint32_t b = bits(rng);  // any significand, exponents ~1e-9..2
    std::memcpy(&scale, &b, sizeof scale);
    const std::int32_t z = zp(rng);
    std::vector<float> out(in.size());
    k::DequantizeToFloat(k::FloatQuantizeParams{scale, z, 256}, in.data(),
                         out.data());
    for (int i = 0; i < 256; ++i) {
      const float tflm =
          static_cast<float>(static_cast<double>(scale) * (in[i] - z));
      ASSERT_EQ(std::memcmp(&out[i], &tflm, sizeof(float)), 0)
          << "q=" << int{in[i]} << " scale=" << scale << " zp=" << z;
    }
  }
}

TEST(FloatDequantize, DequantizesUint8AndInt16) {
  const std::uint8_t u[] = {0, 128, 255};
  float out[3] = {};
  k::DequantizeToFloat(k::FloatQuantizeParams{0.5f, 128, 3}, u, out);
  EXPECT_EQ(out[0], -64.0f);
  EXPECT_EQ(out[1], 0.0f);
  EXPECT_EQ(out[2], 63.5f);
  const std::int16_t s[] = {-32768, 32767};
  k::DequantizeToFloat(k::FloatQuantizeParams{1.0f / 32768, 0, 2}, s, out);
  EXPECT_EQ(out[0], -1.0f);
  EXPECT_EQ(out[1], 32767.0f / 32768.0f);
}

}  // namespace
