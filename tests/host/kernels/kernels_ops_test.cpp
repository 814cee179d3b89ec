// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The int8 kernels against (a) small cases computed by hand and (b) a
// floating-point reference of the same quantized arithmetic, computed here
// in double: real = scale * (q - zero_point). The integer kernels round
// twice (see quantization.hpp), so the float reference may differ by one
// step; tolerance 1 LSB, and most outputs must match exactly.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "arenaplan/kernels/kernels.hpp"
#include "codegen/compile/quantize.hpp"
#include "tests/host/support/lcg.hpp"

namespace {

namespace k = arenaplan::kernels;
namespace compile = arenaplan::compile;
namespace tflite = arenaplan::tflite;

using ::arenaplan::testing_util::Lcg;

std::int32_t RefQuantize(double real, double scale, std::int32_t zp,
                         std::int32_t lo, std::int32_t hi) {
  const double q = std::round(real / scale) + zp;
  return static_cast<std::int32_t>(std::clamp(q, double(lo), double(hi)));
}

/// Per-channel multipliers for input_scale * w_scale[c] / out_scale.
struct Quant {
  std::vector<std::int32_t> mult;
  std::vector<std::int8_t> shift;
  k::ChannelQuant View() const { return {mult.data(), shift.data()}; }
};
Quant MakeQuant(double in_scale, const std::vector<double>& w_scale,
                double out_scale) {
  Quant q;
  for (double ws : w_scale) {
    const auto m = compile::QuantizeMultiplier(in_scale * ws / out_scale);
    q.mult.push_back(m.multiplier);
    q.shift.push_back(static_cast<std::int8_t>(m.shift));
  }
  return q;
}

TEST(KernelsOps, ConvComputesHandExample) {
  // 1x2x2x1 input [1 2; 3 4] with zero point 0, a 3x3 SAME filter of ones,
  // stride 1: every output sees the whole 2x2 input (padding adds 0), so
  // each is 1+2+3+4 = 10, + bias 2 = 12, times multiplier 0.5 -> 6, + output
  // zero point -3 -> 3.
  const std::int8_t in[4] = {1, 2, 3, 4};
  std::int8_t w[9];
  std::fill(w, w + 9, 1);
  const std::int32_t bias[1] = {2};
  const std::int32_t mult[1] = {1 << 30};  // 0.5
  const std::int8_t shift[1] = {0};
  k::ConvParams p{0, -3, -128, 127, 1, 1, 1, 1, 1};
  std::int8_t out[4] = {};
  k::Conv2D(p, {1, 2, 2, 1}, in, {1, 3, 3, 1}, w, bias, {mult, shift},
            {1, 2, 2, 1}, out);
  for (std::int8_t v : out) EXPECT_EQ(v, 3);
  // Input zero point 1 (input_offset -1): the sum of (q - 1) is 6, + 2 = 8,
  // * 0.5 = 4, - 3 = 1. RELU-style clamp at 2 lifts it to 2.
  p.input_offset = -1;
  p.act_min = 2;
  k::Conv2D(p, {1, 2, 2, 1}, in, {1, 3, 3, 1}, w, bias, {mult, shift},
            {1, 2, 2, 1}, out);
  for (std::int8_t v : out) EXPECT_EQ(v, 2);
}

TEST(KernelsOps, ConvMatchesFloatReference) {
  Lcg rng(1);
  const k::Shape4 is{1, 9, 7, 5}, fs{4, 3, 3, 5};
  const auto ph = compile::ComputePadding(tflite::Padding::kSame, 9, 3, 2);
  const auto pw = compile::ComputePadding(tflite::Padding::kSame, 7, 3, 2);
  const k::Shape4 os{1, ph.out, pw.out, 4};
  std::vector<std::int8_t> in(is.Count()), w(fs.Count()), out(os.Count());
  for (auto& v : in) v = static_cast<std::int8_t>(rng.Next(-128, 127));
  for (auto& v : w) v = static_cast<std::int8_t>(rng.Next(-127, 127));
  std::vector<std::int32_t> bias(4);
  for (auto& b : bias) b = rng.Next(-3000, 3000);
  const double in_s = 0.02, out_s = 0.5;
  const std::int32_t in_zp = -7, out_zp = 5;
  const std::vector<double> w_s = {0.004, 0.011, 0.0021, 0.0075};
  const Quant q = MakeQuant(in_s, w_s, out_s);
  k::ConvParams p{-in_zp, out_zp,        -128,          127, 2,
                  2,      ph.pad_before, pw.pad_before, 1};
  k::Conv2D(p, is, in.data(), fs, w.data(), bias.data(), q.View(), os,
            out.data());
  int exact = 0;
  for (int oy = 0; oy < os.h; ++oy)
    for (int ox = 0; ox < os.w; ++ox)
      for (int oc = 0; oc < os.c; ++oc) {
        double real = bias[oc] * in_s * w_s[oc];
        for (int ky = 0; ky < 3; ++ky)
          for (int kx = 0; kx < 3; ++kx) {
            const int y = oy * 2 - ph.pad_before + ky,
                      x = ox * 2 - pw.pad_before + kx;
            if (y < 0 || y >= is.h || x < 0 || x >= is.w) continue;
            for (int ic = 0; ic < is.c; ++ic) {
              const double a = in_s * (in[(y * is.w + x) * is.c + ic] - in_zp);
              const double b =
                  w_s[oc] * w[((oc * 3 + ky) * 3 + kx) * is.c + ic];
              real += a * b;
            }
          }
        const int expect = RefQuantize(real, out_s, out_zp, -128, 127);
        const int got = out[(oy * os.w + ox) * os.c + oc];
        EXPECT_LE(std::abs(got - expect), 1) << oy << "," << ox << "," << oc;
        exact += got == expect;
      }
  EXPECT_GE(exact * 10, os.Count() * 9);  // at least 90% exact
}

TEST(KernelsOps, DepthwiseMatchesFloatReference) {
  Lcg rng(2);
  const int mult_d = 2;
  const k::Shape4 is{1, 8, 8, 3}, fs{1, 3, 3, 6};
  const auto ph = compile::ComputePadding(tflite::Padding::kSame, 8, 3, 1);
  const k::Shape4 os{1, ph.out, ph.out, 6};
  std::vector<std::int8_t> in(is.Count()), w(fs.Count()), out(os.Count());
  for (auto& v : in) v = static_cast<std::int8_t>(rng.Next(-128, 127));
  for (auto& v : w) v = static_cast<std::int8_t>(rng.Next(-127, 127));
  std::vector<std::int32_t> bias(6);
  for (auto& b : bias) b = rng.Next(-500, 500);
  const double in_s = 0.03, out_s = 0.05;
  const std::int32_t in_zp = 3, out_zp = -128;
  const std::vector<double> w_s = {0.004, 0.01, 0.002, 0.007, 0.005, 0.003};
  const Quant q = MakeQuant(in_s, w_s, out_s);
  // RELU6: [out_zp, out_zp + round(6 / 0.05)] = [-128, -8].
  const auto act = compile::Int8ActivationRange(tflite::Activation::kRelu6,
                                                float(out_s), out_zp);
  ASSERT_EQ(act->max, -8);
  k::ConvParams p{-in_zp, out_zp,        act->min,      act->max, 1,
                  1,      ph.pad_before, ph.pad_before, mult_d};
  k::DepthwiseConv2D(p, is, in.data(), fs, w.data(), bias.data(), q.View(), os,
                     out.data());
  int exact = 0;
  for (int oy = 0; oy < os.h; ++oy)
    for (int ox = 0; ox < os.w; ++ox)
      for (int oc = 0; oc < os.c; ++oc) {
        const int ic = oc / mult_d;
        double real = bias[oc] * in_s * w_s[oc];
        for (int ky = 0; ky < 3; ++ky)
          for (int kx = 0; kx < 3; ++kx) {
            const int y = oy - ph.pad_before + ky, x = ox - ph.pad_before + kx;
            if (y < 0 || y >= is.h || x < 0 || x >= is.w) continue;
            real += in_s * (in[(y * is.w + x) * is.c + ic] - in_zp) * w_s[oc] *
                    w[(ky * 3 + kx) * fs.c + oc];
          }
        real = std::clamp(real, 0.0, 6.0);
        const int expect = RefQuantize(real, out_s, out_zp, -128, 127);
        const int got = out[(oy * os.w + ox) * os.c + oc];
        EXPECT_LE(std::abs(got - expect), 1);
        exact += got == expect;
      }
  EXPECT_GE(exact * 10, os.Count() * 9);
}

TEST(KernelsOps, AveragePoolRoundsHalfAwayFromZero) {
  // 2x2 windows, stride 2, over a 1x2x4x1 input:
  // [1 2 | -1 -2]
  // [2 2 | -2 -2]  -> sums 7 and -7 over 4: 1.75 -> 2, -1.75 -> -2.
  const std::int8_t in[8] = {1, 2, -1, -2, 2, 2, -2, -2};
  std::int8_t out[2] = {};
  k::PoolParams p{2, 2, 2, 2, 0, 0, -128, 127};
  k::AveragePool(p, {1, 2, 4, 1}, in, {1, 1, 2, 1}, out);
  EXPECT_EQ(out[0], 2);
  EXPECT_EQ(out[1], -2);
  // Ties: sums 6 and -6 over 4 = 1.5 -> 2 and -1.5 -> -2.
  const std::int8_t tie[8] = {1, 2, -1, -2, 1, 2, -1, -2};
  k::AveragePool(p, {1, 2, 4, 1}, tie, {1, 1, 2, 1}, out);
  EXPECT_EQ(out[0], 2);
  EXPECT_EQ(out[1], -2);
  // Max pool of the first input: 2 and -1.
  k::MaxPool(p, {1, 2, 4, 1}, in, {1, 1, 2, 1}, out);
  EXPECT_EQ(out[0], 2);
  EXPECT_EQ(out[1], -1);
}

TEST(KernelsOps, PoolingCountsOnlyInBoundsElements) {
  // 3x3 SAME window, stride 1, on a 1x2x2x1 input [4 8; 12 -100]: every
  // window covers the 4 in-bounds values only: (4+8+12-100)/4 = -19.
  const std::int8_t in[4] = {4, 8, 12, -100};
  std::int8_t out[4] = {};
  k::PoolParams p{3, 3, 1, 1, 1, 1, -128, 127};
  k::AveragePool(p, {1, 2, 2, 1}, in, {1, 2, 2, 1}, out);
  for (std::int8_t v : out) EXPECT_EQ(v, -19);
  k::MaxPool(p, {1, 2, 2, 1}, in, {1, 2, 2, 1}, out);
  for (std::int8_t v : out) EXPECT_EQ(v, 12);
}

TEST(KernelsOps, FullyConnectedMatchesFloatReference) {
  Lcg rng(3);
  const int batches = 2, depth = 40, units = 5;
  std::vector<std::int8_t> in(batches * depth), w(units * depth),
      out(batches * units);
  for (auto& v : in) v = static_cast<std::int8_t>(rng.Next(-128, 127));
  for (auto& v : w) v = static_cast<std::int8_t>(rng.Next(-127, 127));
  std::vector<std::int32_t> bias(units);
  for (auto& b : bias) b = rng.Next(-2000, 2000);
  const double in_s = 0.1, w_s = 0.003, out_s = 0.2;
  const std::int32_t in_zp = -20, out_zp = 9;
  const Quant q = MakeQuant(in_s, std::vector<double>(units, w_s), out_s);
  k::FullyConnectedParams p{-in_zp, out_zp, -128, 127, batches, depth, units};
  k::FullyConnected(p, in.data(), w.data(), bias.data(), q.View(), out.data());
  for (int b = 0; b < batches; ++b)
    for (int o = 0; o < units; ++o) {
      double real = bias[o] * in_s * w_s;
      for (int i = 0; i < depth; ++i)
        real += in_s * (in[b * depth + i] - in_zp) * w_s * w[o * depth + i];
      EXPECT_LE(std::abs(out[b * units + o] -
                         RefQuantize(real, out_s, out_zp, -128, 127)),
                1);
    }
}

TEST(KernelsOps, AddMatchesFloatReference) {
  // Multipliers computed as TFLite prepares ADD: left shift 20, inputs
  // rescaled to 2 * max(s1, s2), output by 2 * max / (2^20 * s_out).
  const double s1 = 0.05, s2 = 0.02, so = 0.08;
  const std::int32_t z1 = -10, z2 = 7, zo = -3;
  const double twice_max = 2 * std::max(s1, s2);
  const auto m1 = compile::QuantizeMultiplier(s1 / twice_max);
  const auto m2 = compile::QuantizeMultiplier(s2 / twice_max);
  const auto mo = compile::QuantizeMultiplier(twice_max / ((1 << 20) * so));
  std::vector<std::int8_t> a, b;
  for (int x = -128; x <= 127; ++x)
    for (int y = -128; y <= 127; y += 17) {
      a.push_back(static_cast<std::int8_t>(x));
      b.push_back(static_cast<std::int8_t>(y));
    }
  std::vector<std::int8_t> out(a.size());
  k::AddParams p{-z1,
                 -z2,
                 zo,
                 20,
                 m1.multiplier,
                 m1.shift,
                 m2.multiplier,
                 m2.shift,
                 mo.multiplier,
                 mo.shift,
                 -128,
                 127,
                 static_cast<std::int32_t>(a.size())};
  k::Add(p, a.data(), b.data(), out.data());
  int exact = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const double real = s1 * (a[i] - z1) + s2 * (b[i] - z2);
    const int expect = RefQuantize(real, so, zo, -128, 127);
    EXPECT_LE(std::abs(out[i] - expect), 1) << int(a[i]) << "+" << int(b[i]);
    exact += out[i] == expect;
  }
  EXPECT_GE(exact * 10, static_cast<int>(a.size()) * 9);
  // Hand case: a = 30 (real 0.05 * 40 = 2.0), b = 57 (0.02 * 50 = 1.0): 3.0
  // / 0.08 = 37.5 -> the integer path computes 37 or 38, then -3.
  const std::int8_t ha = 30, hb = 57;
  std::int8_t ho = 0;
  p.count = 1;
  k::Add(p, &ha, &hb, &ho);
  EXPECT_TRUE(ho == 34 || ho == 35) << int(ho);
}

/// The kernel's parameters for beta, input scale and shape.
k::SoftmaxParams SoftmaxFor(double beta, double in_s, int rows, int depth) {
  const auto s = compile::Int8SoftmaxScaling(beta, in_s);
  EXPECT_TRUE(s.has_value());
  return k::SoftmaxParams{s->input_multiplier, s->input_left_shift, s->diff_min,
                          rows, depth};
}

TEST(KernelsOps, SoftmaxScalingFollowsTflite) {
  // beta * scale * 2^26 = 0.0125 * 2^26 = 838860.8 = 0.8 * 2^20:
  // multiplier round(0.8 * 2^31) = 1717986918, left shift 20; radius
  // floor(31 * 2^26 / 2^20) = 1984.
  const auto s = compile::Int8SoftmaxScaling(1.0, 0.0125);
  ASSERT_TRUE(s.has_value());
  EXPECT_EQ(s->input_multiplier, 1717986918);
  EXPECT_EQ(s->input_left_shift, 20);
  EXPECT_EQ(s->diff_min, -1984);
  // Scale 1/256 (2^26 / 2^8 = 2^18 = 0.5 * 2^19): multiplier 2^30, shift
  // 19, radius 31 * 2^7 = 3968.
  const auto t = compile::Int8SoftmaxScaling(1.0, 1.0 / 256);
  ASSERT_TRUE(t.has_value());
  EXPECT_EQ(t->input_multiplier, 1 << 30);
  EXPECT_EQ(t->input_left_shift, 19);
  EXPECT_EQ(t->diff_min, -3968);
  // beta * scale * 2^26 <= 1: TFLite refuses it.
  EXPECT_FALSE(compile::Int8SoftmaxScaling(1.0, 1.0 / (1 << 26)).has_value());
}

TEST(KernelsOps, SoftmaxMatchesFloatReference) {
  const double in_s = 0.0125, beta = 1.0;
  Lcg rng(4);
  const int rows = 6, depth = 10;
  std::vector<std::int8_t> in(rows * depth), out(rows * depth);
  for (auto& v : in) v = static_cast<std::int8_t>(rng.Next(-128, 127));
  in[0] = 127;  // one row with an extreme, single winner
  for (int i = 1; i < depth; ++i) in[i] = -128;
  k::Softmax(SoftmaxFor(beta, in_s, rows, depth), in.data(), out.data());
  for (int r = 0; r < rows; ++r) {
    double sum = 0;
    for (int i = 0; i < depth; ++i)
      sum += std::exp(beta * in_s * in[r * depth + i]);
    for (int i = 0; i < depth; ++i) {
      const double prob = std::exp(beta * in_s * in[r * depth + i]) / sum;
      const int expect = RefQuantize(prob, 1.0 / 256, -128, -128, 127);
      EXPECT_LE(std::abs(out[r * depth + i] - expect), 1) << r << "," << i;
    }
  }
  // Hand case: two equal logits -> 0.5 each = 128/256 -> 128 - 128 = 0.
  const std::int8_t two[2] = {5, 5};
  std::int8_t o2[2] = {};
  k::Softmax(SoftmaxFor(beta, in_s, 1, 2), two, o2);
  EXPECT_EQ(o2[0], 0);
  EXPECT_EQ(o2[1], 0);
}

TEST(KernelsOps, ReshapeCopiesBytes) {
  const std::int8_t in[5] = {1, -2, 3, -4, 5};
  std::int8_t out[5] = {};
  k::Reshape(in, out, 5);
  for (int i = 0; i < 5; ++i) EXPECT_EQ(out[i], in[i]);
}

TEST(KernelsOps, SoftmaxInt16ComputesHandExamples) {
  // Two equal inputs: p = 1/2 -> 32768 - 32768 = 0.
  const std::int8_t eq[2] = {-7, -7};
  std::int16_t out[2] = {};
  k::SoftmaxInt16(SoftmaxFor(1.0, 0.1, 1, 2), eq, out);
  EXPECT_EQ(out[0], 0);
  EXPECT_EQ(out[1], 0);
  // One element: p = 1 -> 65536 - 32768 saturates at 32767.
  k::SoftmaxInt16(SoftmaxFor(1.0, 0.1, 1, 1), eq, out);
  EXPECT_EQ(out[0], 32767);
  // beta * scale = ln 3, inputs {1, 0}: p = 3/4 and 1/4 -> 16384, -16384
  // up to the fixed-point exp's error (one step).
  const std::int8_t in[2] = {1, 0};
  k::SoftmaxInt16(SoftmaxFor(1.0, std::log(3.0), 1, 2), in, out);
  EXPECT_NEAR(out[0], 16384, 1);
  EXPECT_NEAR(out[1], -16384, 1);
}

TEST(KernelsOps, SoftmaxInt16MatchesFloatReference) {
  const double beta = 1.0, in_s = 0.0699627325;
  const int rows = 50, depth = 12;
  Lcg lcg(5);
  std::vector<std::int8_t> in(rows * depth);
  for (auto& v : in) v = static_cast<std::int8_t>(lcg.Next(-128, 127));
  std::vector<std::int16_t> out(in.size());
  k::SoftmaxInt16(SoftmaxFor(beta, in_s, rows, depth), in.data(), out.data());
  for (int r = 0; r < rows; ++r) {
    double sum = 0;
    for (int i = 0; i < depth; ++i)
      sum += std::exp(beta * in_s * in[r * depth + i]);
    for (int i = 0; i < depth; ++i) {
      const double prob = std::exp(beta * in_s * in[r * depth + i]) / sum;
      const int expect = RefQuantize(prob, 1.0 / 65536, -32768, -32768, 32767);
      // TFLite's fixed-point exp (Q0.31 polynomial and constants), the
      // Q12.19 sum and the Newton-Raphson reciprocal each lose a few
      // 2^-20 at most, far below a step of 2^-16 except near a tie.
      EXPECT_LE(std::abs(out[r * depth + i] - expect), 1) << r << "," << i;
    }
  }
}

TEST(KernelsOps, RequantizeComputesHandExamples) {
  // int16 -> int8, s_in / s_out = 0.5 = 2^30 * 2^(0 - 31), zero points 0
  // and -10: q_out = round(q_in / 2) - 10 with ties toward +infinity
  // (SaturatingRoundingDoublingHighMul), saturated to int8.
  const auto half = compile::QuantizeMultiplier(0.5);
  ASSERT_EQ(half.multiplier, 1 << 30);
  ASSERT_EQ(half.shift, 0);
  const std::int16_t a[5] = {3, -3, 100, 1000, -1000};
  std::int8_t a_out[5] = {};
  k::Requantize(k::RequantizeParams{0, -10, half.multiplier, half.shift, 5}, a,
                a_out);
  // 1.5 -> 2, -1.5 -> -1, 50, 500 -> 127, -500 -> -128.
  const std::int8_t a_expect[5] = {-8, -11, 40, 127, -128};
  for (int i = 0; i < 5; ++i) EXPECT_EQ(a_out[i], a_expect[i]) << i;

  // int16 -> int32, ratio 4 = 2^30 * 2^(3 - 31), input zero point -32768,
  // output zero point 5: q_out = 4 * (q_in + 32768) + 5, no saturation.
  const auto four = compile::QuantizeMultiplier(4.0);
  ASSERT_EQ(four.shift, 3);
  const std::int16_t b[3] = {-32768, 0, 32767};
  std::int32_t b_out[3] = {};
  k::Requantize(k::RequantizeParams{32768, 5, four.multiplier, four.shift, 3},
                b, b_out);
  EXPECT_EQ(b_out[0], 5);
  EXPECT_EQ(b_out[1], 131077);  // 4 * 32768 + 5
  EXPECT_EQ(b_out[2], 262145);  // 4 * 65535 + 5

  // int8 -> int16, ratio 1.5 = 0.75 * 2^1: round(1.5 q), ties up.
  const auto m = compile::QuantizeMultiplier(1.5);
  const std::int8_t c[4] = {1, -1, 127, -128};
  std::int16_t c_out[4] = {};
  k::Requantize(k::RequantizeParams{0, 0, m.multiplier, m.shift, 4}, c, c_out);
  const std::int16_t c_expect[4] = {2, -1, 191, -192};  // 190.5 -> 191
  for (int i = 0; i < 4; ++i) EXPECT_EQ(c_out[i], c_expect[i]) << i;
}

// SVDF, hand derived. Multipliers 1.0 (2^30 * 2^(1 - 31), exact for
// integers), batch 1, input_size 2, filters 2, memory 2. State layout
// [f0m0, f0m1, f1m0, f1m1], newest value in column m1.
TEST(KernelsOps, SvdfComputesHandExampleOverTwoFrames) {
  const auto one = compile::QuantizeMultiplier(1.0);
  ASSERT_EQ(one.multiplier, 1 << 30);
  ASSERT_EQ(one.shift, 1);
  const std::int8_t wf[4] = {1, 2, -1, 1};  // [filters, input_size]
  const std::int16_t wt[4] = {5, 7, 2, 3};  // [filters, memory]
  const std::int32_t bias[2] = {1, -2};
  std::int16_t state[4] = {};
  // Input zero point -1 (offset +1), output zero point 10, rank 1.
  k::SvdfParams p{1,
                  0,
                  10,
                  -128,
                  127,
                  1,
                  2,
                  2,
                  2,
                  1,
                  one.multiplier,
                  one.shift,
                  one.multiplier,
                  one.shift};
  std::int8_t out[2] = {};
  // Frame 1, input {3, -1} -> {4, 0}. Features: f0 = 4*1 + 0*2 = 4,
  // f1 = 4*(-1) + 0*1 = -4; state (zeros shifted) -> {0, 4, 0, -4}.
  // Time: f0 = 5*0 + 7*4 = 28, f1 = 2*0 + 3*(-4) = -12.
  // Output: 28 + 1 + 10 = 39, -12 - 2 + 10 = -4.
  const std::int8_t in1[2] = {3, -1};
  k::Svdf(p, in1, wf, wt, bias, state, out);
  EXPECT_EQ(state[0], 0);
  EXPECT_EQ(state[1], 4);
  EXPECT_EQ(state[2], 0);
  EXPECT_EQ(state[3], -4);
  EXPECT_EQ(out[0], 39);
  EXPECT_EQ(out[1], -4);
  // Frame 2, input {0, 1} -> {1, 2}. Features: f0 = 1 + 4 = 5,
  // f1 = -1 + 2 = 1. The whole state shifts left one element:
  // {0, 4, 0, -4} -> {4, 0, -4, -4}, then the newest column is written:
  // {4, 5, -4, 1}. Time: f0 = 5*4 + 7*5 = 55, f1 = 2*(-4) + 3*1 = -5.
  // Output: 55 + 1 + 10 = 66, -5 - 2 + 10 = 3.
  const std::int8_t in2[2] = {0, 1};
  k::Svdf(p, in2, wf, wt, bias, state, out);
  const std::int16_t state2[4] = {4, 5, -4, 1};
  for (int i = 0; i < 4; ++i) EXPECT_EQ(state[i], state2[i]) << i;
  EXPECT_EQ(out[0], 66);
  EXPECT_EQ(out[1], 3);

  // Rank 2: one unit sums both filters. Frame 1 again from a zero state:
  // 1 + 28 + (-12) + 10 = 27. A RELU-like act_min of 30 lifts it to 30.
  std::int16_t state_r2[4] = {};
  k::SvdfParams p2 = p;
  p2.rank = 2;
  std::int8_t out_r2[1] = {};
  k::Svdf(p2, in1, wf, wt, bias, state_r2, out_r2);
  EXPECT_EQ(out_r2[0], 27);
  std::int16_t state_r2b[4] = {};
  p2.act_min = 30;
  k::Svdf(p2, in1, wf, wt, bias, state_r2b, out_r2);
  EXPECT_EQ(out_r2[0], 30);
}

TEST(KernelsOps, SvdfSaturatesTheStateToInt16) {
  // One filter, input_size 2, memory 2; input zero point -128 (offset 128).
  // Feature: 127*(127+128) * 2 = 64770 > 32767 -> the state holds 32767.
  // Time weights {0, 1}: acc = 32767; output multiplier 1/256 =
  // 2^30 * 2^(-7 - 31): round(32767 / 2) = 16384 (tie up), then
  // 16384 / 2^7 = 128; + zero point -100 = 28. Without the saturation the
  // state would be 64770 and the output 253 - 100 -> clamped 127.
  const auto one = compile::QuantizeMultiplier(1.0);
  const auto q = compile::QuantizeMultiplier(1.0 / 256);
  ASSERT_EQ(q.shift, -7);
  const std::int8_t wf[2] = {127, 127};
  const std::int16_t wt[2] = {0, 1};
  std::int16_t state[2] = {};
  const std::int8_t in[2] = {127, 127};
  std::int8_t out[1] = {};
  k::Svdf(k::SvdfParams{128, 0, -100, -128, 127, 1, 2, 1, 2, 1, one.multiplier,
                        one.shift, q.multiplier, q.shift},
          in, wf, wt, nullptr, state, out);
  EXPECT_EQ(state[1], 32767);
  EXPECT_EQ(out[0], 28);
}

// Int8 time weights and state (TFLM's EvalInt8SvdfReference), hand
// derived. One filter, input_size 2, memory 2, rank 1, multipliers 1.0,
// input zero point 0, output zero point 0, state zero point 100 (the
// initial state is all 100, as TFLM's reset leaves an int8 variable).
TEST(KernelsOps, SvdfWithInt8StateSaturatesThenAddsTheZeroPointModulo256) {
  const auto one = compile::QuantizeMultiplier(1.0);
  const std::int8_t wf[2] = {1, 1};
  const std::int8_t wt[2] = {2, 3};
  const k::SvdfParams p{0,
                        100,
                        0,
                        -128,
                        127,
                        1,
                        2,
                        1,
                        2,
                        1,
                        one.multiplier,
                        one.shift,
                        one.multiplier,
                        one.shift};
  std::int8_t out[1] = {};
  // Frame 1, input {10, 5}: feature 15, within int8; stored 15 + 100 = 115.
  // Time: 2 * (100 - 100) + 3 * (115 - 100) = 45.
  std::int8_t state[2] = {100, 100};
  const std::int8_t in1[2] = {10, 5};
  k::Svdf(p, in1, wf, wt, nullptr, state, out);
  EXPECT_EQ(state[0], 100);
  EXPECT_EQ(state[1], 115);
  EXPECT_EQ(out[0], 45);
  // Frame 2, input {100, 100}: feature 200 saturates to 127 first, then
  // 127 + 100 = 227 is stored modulo 256 as -29 (TFLM clamps before adding
  // the zero point). State {115, -29}. Time: 2 * 15 + 3 * (-29 - 100) =
  // 30 - 387 = -357, clamped to -128. Adding the zero point before the
  // saturation would have stored 127 and given 2 * 15 + 3 * 27 = 111.
  const std::int8_t in2[2] = {100, 100};
  k::Svdf(p, in2, wf, wt, nullptr, state, out);
  EXPECT_EQ(state[0], 115);
  EXPECT_EQ(state[1], -29);
  EXPECT_EQ(out[0], -128);
  // Frame 3, input {-100, -100} from state {100, 100}: feature -200
  // saturates to -128, + 100 = -28 (no wrap). Time: 3 * (-28 - 100) =
  // -384 -> -128. Input {-20, -10}: feature -30 + 100 = 70; time
  // 3 * (70 - 100) = -90, with bias 7 -> -83.
  std::int8_t state3[2] = {100, 100};
  const std::int8_t in3[2] = {-100, -100};
  k::Svdf(p, in3, wf, wt, nullptr, state3, out);
  EXPECT_EQ(state3[1], -28);
  EXPECT_EQ(out[0], -128);
  std::int8_t state4[2] = {100, 100};
  const std::int8_t in4[2] = {-20, -10};
  const std::int32_t bias[1] = {7};
  k::Svdf(p, in4, wf, wt, bias, state4, out);
  EXPECT_EQ(state4[1], 70);
  EXPECT_EQ(out[0], -83);
}

}  // namespace
