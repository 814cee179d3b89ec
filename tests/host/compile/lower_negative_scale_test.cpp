// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// Negative per-channel weight scales (old converters wrote them; TFLM runs
// them with negative requantization multipliers) through `compile` end to
// end: one-operator CONV_2D, DEPTHWISE_CONV_2D and per-channel
// FULLY_CONNECTED models built here with some negative channel scales,
// compiled, built with the host compiler and run. The expected bytes come
// from TFLite's reference integer formula written here (integer_ops conv,
// depthwise_conv, fully_connected per channel: sum over the in-bounds taps
// of filter * (input - input zero point), plus the bias, requantized by
// channel, plus the output zero point, clamped), with the multipliers and
// roundings of tests/host/support/requant_oracle.hpp (the convolutions
// also planned with --overlap). The same models, outside the repository,
// gave these bytes on TFLM's reference kernels too. Also: a negative
// per-tensor FULLY_CONNECTED scale is refused (TFLite's
// GetQuantizedConvolutionMultipler refuses it), and the fast kernels get
// the negated channels where that is exact, the reference kernels the
// negative multipliers otherwise.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "codegen/compile/generate.hpp"
#include "codegen/tflite/model.hpp"
#include "tests/fuzz/kernel_params_check.hpp"
#include "tests/host/support/op_model.hpp"
#include "tests/host/support/requant_oracle.hpp"

namespace {

using arenaplan::testing_util::Bytes;
using arenaplan::testing_util::CompileAndRun;
using arenaplan::testing_util::CompileError;
using arenaplan::testing_util::OneOpModel;
using arenaplan::testing_util::OracleQuantize;
using arenaplan::testing_util::OracleRequantize;
using arenaplan::testing_util::TensorSpec;
namespace fb = arenaplan::tflite::fb;
using arenaplan::tflite::BuiltinOp;

constexpr float kSi = 0.05f, kSo = 0.1f;
constexpr int kZi = -7, kZo = 4;

/// A convolution-like case: input [n, ih, iw, ic], filter
/// [oc, kh, kw, ic] (CONV_2D) or [1, kh, kw, ic * dm] (depthwise).
struct Conv {
  bool depthwise;
  std::int32_t n, ih, iw, ic, kh, kw, sh, sw, dm, oc;
  bool same;
  std::int8_t activation;  ///< 0 NONE, 3 RELU6.
  /// Large scales (real multipliers about 0.06 to 0.3, right shifts 2 to
  /// 4, where the rounding of ties decides more outputs) on small values:
  /// inputs within 6 of the zero point, weights within +-6, bias +-40.
  bool large_scales = false;
  /// Channel 1 (negative scale) holds a weight -128, which cannot be
  /// negated: the layer runs the reference kernel.
  bool min_weight = false;
};

/// Channel scales: every third negative (channel 1, 4, ...), the rest
/// positive, of magnitudes that give right shifts (with kSi / kSo = 0.5:
/// multipliers of 0.002 and up, or 0.06 and up with `large`).
std::vector<float> Scales(std::int32_t channels, bool large = false) {
  std::vector<float> s;
  for (std::int32_t c = 0; c < channels; ++c) {
    const float v = large ? 0.12f + 0.07f * static_cast<float>(c % 8)
                          : 0.004f + 0.0013f * static_cast<float>(c);
    s.push_back(c % 3 == 1 ? -v : v);
  }
  return s;
}

std::vector<std::int8_t> RandomBytes(std::mt19937& rng, std::size_t n,
                                     int lo = -127, int hi = 127) {
  std::uniform_int_distribution<int> byte(lo, hi);
  std::vector<std::int8_t> v(n);
  for (auto& b : v) b = static_cast<std::int8_t>(byte(rng));
  return v;
}

/// The clamp of `activation` on the output (scale 0.1, zero point 4):
/// NONE [-128, 127]; RELU6 [4, 4 + round(6 / 0.1)] = [4, 64].
std::pair<std::int32_t, std::int32_t> Clamp(std::int8_t activation) {
  return activation == 3 ? std::pair{4, 64} : std::pair{-128, 127};
}

/// TFLite's SAME/VALID output size and leading padding.
std::pair<std::int32_t, std::int32_t> OutAndPad(bool same, std::int32_t in,
                                                std::int32_t k,
                                                std::int32_t s) {
  const std::int32_t out = same ? (in + s - 1) / s : (in - k + s) / s;
  const std::int32_t total = std::max((out - 1) * s + k - in, 0);
  return {out, same ? total / 2 : 0};
}

struct Model {
  OneOpModel model;
  std::vector<std::int8_t> input;
  std::vector<std::uint8_t> expect;
};

Model BuildConv(const Conv& k, unsigned seed) {
  std::mt19937 rng(seed);
  const auto [oh, ph] = OutAndPad(k.same, k.ih, k.kh, k.sh);
  const auto [ow, pw] = OutAndPad(k.same, k.iw, k.kw, k.sw);
  const std::int32_t oc = k.depthwise ? k.ic * k.dm : k.oc;
  const std::vector<std::int32_t> fshape =
      k.depthwise ? std::vector<std::int32_t>{1, k.kh, k.kw, oc}
                  : std::vector<std::int32_t>{oc, k.kh, k.kw, k.ic};
  const int w_max = k.large_scales ? 6 : 127;
  std::vector<std::int8_t> filter = RandomBytes(
      rng,
      static_cast<std::size_t>(oc * k.kh * k.kw * (k.depthwise ? 1 : k.ic)),
      -w_max, w_max);
  if (k.min_weight) {
    filter[static_cast<std::size_t>(k.depthwise ? 1 : k.kh * k.kw * k.ic)] =
        -128;
  }
  std::vector<std::int32_t> bias;
  const int b_max = k.large_scales ? 40 : 3000;
  for (std::int32_t c = 0; c < oc; ++c) {
    bias.push_back(std::uniform_int_distribution<int>(-b_max, b_max)(rng));
  }
  const std::vector<float> ws = Scales(oc, k.large_scales);
  Model m;
  const auto in_count = static_cast<std::size_t>(k.n * k.ih * k.iw * k.ic);
  m.input = k.large_scales ? RandomBytes(rng, in_count, kZi - 6, kZi + 6)
                           : RandomBytes(rng, in_count, -128, 127);
  TensorSpec w{fshape, 9, 0.0f, 0, Bytes(filter)};
  w.channel_scales = ws;
  w.quantized_dimension = k.depthwise ? 3 : 0;
  OneOpModel& o = m.model;
  o.name = k.depthwise ? "negative_scale_dw" : "negative_scale_conv";
  o.tensors = {TensorSpec{{k.n, k.ih, k.iw, k.ic}, 9, kSi, kZi, {}}, w,
               TensorSpec{{oc}, 2, 0.0f, 0, Bytes(bias)},
               TensorSpec{{k.n, oh, ow, oc}, 9, kSo, kZo, {}}};
  o.graph_inputs = {0};
  o.graph_outputs = {3};
  o.op = k.depthwise ? BuiltinOp::kDepthwiseConv2D : BuiltinOp::kConv2D;
  o.op_inputs = {0, 1, 2};
  o.op_outputs = {3};
  o.options = [k](flatbuffers::FlatBufferBuilder& fbb) {
    const std::int8_t pad = k.same ? 0 : 1;
    return k.depthwise ? std::pair{fb::BuiltinOptions::DepthwiseConv2DOptions,
                                   fb::CreateDepthwiseConv2DOptions(
                                       fbb, pad, k.sw, k.sh, k.dm, k.activation)
                                       .Union()}
                       : std::pair{fb::BuiltinOptions::Conv2DOptions,
                                   fb::CreateConv2DOptions(fbb, pad, k.sw, k.sh,
                                                           k.activation)
                                       .Union()};
  };
  // TFLite's reference integer formula.
  const auto [lo, hi] = Clamp(k.activation);
  for (std::int32_t b = 0; b < k.n; ++b)
    for (std::int32_t oy = 0; oy < oh; ++oy)
      for (std::int32_t ox = 0; ox < ow; ++ox)
        for (std::int32_t c = 0; c < oc; ++c) {
          std::int32_t acc = 0;
          for (std::int32_t ky = 0; ky < k.kh; ++ky)
            for (std::int32_t kx = 0; kx < k.kw; ++kx) {
              const std::int32_t iy = oy * k.sh - ph + ky;
              const std::int32_t ix = ox * k.sw - pw + kx;
              if (iy < 0 || iy >= k.ih || ix < 0 || ix >= k.iw) continue;
              const std::int32_t base = ((b * k.ih + iy) * k.iw + ix) * k.ic;
              if (k.depthwise) {
                const std::int32_t ic = c / k.dm;
                acc +=
                    (m.input[static_cast<std::size_t>(base + ic)] - kZi) *
                    filter[static_cast<std::size_t>((ky * k.kw + kx) * oc + c)];
                continue;
              }
              for (std::int32_t ic = 0; ic < k.ic; ++ic) {
                acc += (m.input[static_cast<std::size_t>(base + ic)] - kZi) *
                       filter[static_cast<std::size_t>(
                           ((c * k.kh + ky) * k.kw + kx) * k.ic + ic)];
              }
            }
          acc += bias[static_cast<std::size_t>(c)];
          const auto q = OracleQuantize(static_cast<double>(kSi) *
                                        static_cast<double>(ws[c]) /
                                        static_cast<double>(kSo));
          const std::int32_t v =
              OracleRequantize(acc, q.multiplier, q.shift) + kZo;
          m.expect.push_back(static_cast<std::uint8_t>(std::clamp(v, lo, hi)));
        }
  return m;
}

/// Runs `m` and compares its output with the expected bytes; with
/// `overlap` also compiled with --overlap (the output planned over the
/// input at the reference kernel's contract distance, the same as the fast
/// kernel's: the value of a multiplier does not enter a contract).
void Check(const Model& m, const std::string& what, bool overlap = false) {
  for (const bool o : {false, true}) {
    if (o && !overlap) break;
    const auto run = CompileAndRun(
        m.model, std::vector<std::uint8_t>(m.input.begin(), m.input.end()), o);
    ASSERT_EQ(run.error, "") << what;
    ASSERT_EQ(run.output.size(), m.expect.size()) << what;
    for (std::size_t i = 0; i < m.expect.size(); ++i) {
      ASSERT_EQ(static_cast<int>(static_cast<std::int8_t>(run.output[i])),
                static_cast<int>(static_cast<std::int8_t>(m.expect[i])))
          << what << (o ? " (overlap)" : "") << " byte " << i;
    }
  }
}

/// The generated model source of `m`.
std::string Source(const OneOpModel& m) {
  arenaplan::compile::CompileOptions options;
  options.namespace_name = "m";
  options.input_sha256 = std::string(64, '0');
  const std::vector<std::uint8_t> bytes = m.Serialize();
  return arenaplan::compile::CompileModel(
             arenaplan::tflite::ReadModel(bytes, m.name + ".tflite"),
             m.name + ".tflite", options)
      .model_source;
}

TEST(LowerNegativeScale, ConvMatchesTheIntegerFormula) {
  // SAME with padding on every side, RELU6; VALID stride 2, NONE; 1x1.
  Check(BuildConv({false, 1, 5, 6, 3, 3, 3, 1, 1, 1, 5, true, 3}, 1),
        "conv 3x3 same relu6", true);
  Check(BuildConv({false, 2, 7, 5, 4, 3, 2, 2, 2, 1, 6, false, 0}, 2),
        "conv 3x2 valid stride 2", true);
  Check(BuildConv({false, 1, 4, 4, 8, 1, 1, 1, 1, 1, 7, true, 0}, 3),
        "conv 1x1", true);
  Check(BuildConv({false, 1, 6, 6, 3, 3, 3, 1, 1, 1, 8, true, 0, true}, 12),
        "conv 3x3, large scales", true);
}

TEST(LowerNegativeScale, DepthwiseMatchesTheIntegerFormula) {
  Check(BuildConv({true, 1, 6, 5, 4, 3, 3, 1, 1, 1, 0, true, 0}, 4),
        "depthwise 3x3 same", true);
  // Depth multiplier 2, RELU6.
  Check(BuildConv({true, 1, 5, 5, 3, 3, 3, 2, 1, 2, 0, true, 3}, 5),
        "depthwise multiplier 2", true);
  // One input channel (otherwise lowered as a convolution).
  Check(BuildConv({true, 1, 6, 6, 1, 3, 3, 1, 1, 5, 0, false, 0}, 6),
        "depthwise one input channel", true);
  Check(BuildConv({true, 1, 7, 7, 8, 3, 3, 1, 1, 1, 0, true, 0, true}, 13),
        "depthwise 3x3, large scales", true);
}

Model BuildFullyConnected(std::int32_t batches, std::int32_t depth,
                          std::int32_t units, const std::vector<float>& ws,
                          float si, float so, unsigned seed, int weight_max) {
  std::mt19937 rng(seed);
  Model m;
  const std::vector<std::int8_t> weights = RandomBytes(
      rng, static_cast<std::size_t>(units * depth), -weight_max, weight_max);
  std::vector<std::int32_t> bias;
  for (std::int32_t u = 0; u < units; ++u) {
    bias.push_back(std::uniform_int_distribution<int>(-40, 40)(rng));
  }
  m.input = RandomBytes(rng, static_cast<std::size_t>(batches * depth),
                        kZi - 10, kZi + 10);
  TensorSpec w{{units, depth}, 9, 0.0f, 0, Bytes(weights)};
  if (ws.size() == 1) {
    w.scale = ws[0];
  } else {
    w.channel_scales = ws;
  }
  OneOpModel& o = m.model;
  o.name = "negative_scale_fc";
  o.tensors = {TensorSpec{{batches, depth}, 9, si, kZi, {}}, w,
               TensorSpec{{units}, 2, 0.0f, 0, Bytes(bias)},
               TensorSpec{{batches, units}, 9, so, kZo, {}}};
  o.graph_inputs = {0};
  o.graph_outputs = {3};
  o.op = BuiltinOp::kFullyConnected;
  o.op_inputs = {0, 1, 2};
  o.op_outputs = {3};
  o.options = [](flatbuffers::FlatBufferBuilder& fbb) {
    return std::pair{fb::BuiltinOptions::FullyConnectedOptions,
                     fb::CreateFullyConnectedOptions(fbb, 0).Union()};
  };
  for (std::int32_t b = 0; b < batches; ++b) {
    for (std::int32_t u = 0; u < units; ++u) {
      std::int32_t acc = 0;
      for (std::int32_t i = 0; i < depth; ++i) {
        acc += (m.input[static_cast<std::size_t>(b * depth + i)] - kZi) *
               weights[static_cast<std::size_t>(u * depth + i)];
      }
      acc += bias[static_cast<std::size_t>(u)];
      const auto q = OracleQuantize(static_cast<double>(si) *
                                    static_cast<double>(ws[u % ws.size()]) /
                                    static_cast<double>(so));
      const std::int32_t v = OracleRequantize(acc, q.multiplier, q.shift) + kZo;
      m.expect.push_back(static_cast<std::uint8_t>(std::clamp(v, -128, 127)));
    }
  }
  return m;
}

TEST(LowerNegativeScale, PerChannelFullyConnectedMatchesTheIntegerFormula) {
  Check(BuildFullyConnected(2, 10, 6, Scales(6), kSi, kSo, 7, 127),
        "fully connected");
  Check(BuildFullyConnected(4, 12, 8, Scales(8, true), kSi, kSo, 14, 6),
        "fully connected, large scales");
  // Unit 1's multiplier is INT32_MIN: in 12039168 / 2^24, weight scale
  // -16120429 / 2^24 and out 11567864 / 2^24 (each exact in float) make
  // the real -(1 - 23552 / (11567864 * 2^24)), about -(1 - 1.2e-10), whose
  // mantissa * 2^31 rounds to -2^31 (TFLite keeps it; shift 0): each
  // output is the accumulator negated plus the zero point.
  const float si = 12039168.0f / 16777216.0f, so = 11567864.0f / 16777216.0f;
  const std::vector<float> ws = {0.5f, -16120429.0f / 16777216.0f, -0.25f,
                                 0.75f};
  ASSERT_EQ(OracleQuantize(static_cast<double>(si) *
                           static_cast<double>(ws[1]) / static_cast<double>(so))
                .multiplier,
            INT32_MIN);
  Check(BuildFullyConnected(3, 4, 4, ws, si, so, 8, 3),
        "fully connected, INT32_MIN multiplier");
}

TEST(LowerNegativeScale, RefusesNegativePerTensorFullyConnected) {
  // TFLite's per-tensor FULLY_CONNECTED (GetQuantizedConvolutionMultipler)
  // refuses a negative input * weight scale product.
  const Model m = BuildFullyConnected(1, 8, 4, {-0.01f}, kSi, kSo, 9, 127);
  const std::string e = CompileError(m.model);
  EXPECT_NE(e.find("negative_scale_fc.tflite: operator 0 (FULLY_CONNECTED)"),
            std::string::npos)
      << e;
  EXPECT_NE(e.find("is negative"), std::string::npos) << e;
  // The same weights with a positive scale compile.
  EXPECT_EQ(CompileError(
                BuildFullyConnected(1, 8, 4, {0.01f}, kSi, kSo, 9, 127).model),
            "");
}

/// Whether the generated source of `m` calls `kernel` ("k::NAME(").
bool Calls(const OneOpModel& m, const std::string& kernel) {
  const std::string s = Source(m);
  arenaplan::fuzz::CheckKernelParams(s);  // aborts when out of range
  return s.find(kernel) != std::string::npos;
}

TEST(LowerNegativeScale, NegatesChannelsForTheFastKernelsWhereExact) {
  // Negative scales, every weight within +-127 and small sums: the fast
  // kernels, given the negated channels and non-negative multipliers
  // (CheckKernelParams refuses a negative one in a fast call). The bytes
  // of these layers are checked in the tests above.
  const Conv conv{false, 1, 4, 4, 8, 1, 1, 1, 1, 1, 8, true, 0};
  const Conv dw{true, 1, 6, 5, 4, 3, 3, 1, 1, 1, 0, true, 0};
  const Conv dw1{true, 1, 6, 6, 1, 3, 3, 1, 1, 5, 0, false, 0};
  EXPECT_TRUE(Calls(BuildConv(conv, 10).model, "k::Conv2DFast("));
  EXPECT_TRUE(Calls(BuildConv(dw, 10).model, "k::DepthwiseConv2DFast("));
  EXPECT_TRUE(Calls(BuildConv(dw1, 10).model, "k::Conv2DFast("));
  EXPECT_TRUE(
      Calls(BuildFullyConnected(1, 8, 4, Scales(4), kSi, kSo, 11, 127).model,
            "k::FullyConnectedFast("));
}

TEST(LowerNegativeScale, RunsTheReferenceKernelWhereNegationIsNotExact) {
  // A weight -128 in a channel of negative scale.
  for (const Conv& k :
       {Conv{false, 1, 5, 5, 3, 3, 3, 1, 1, 1, 5, true, 0, true, true},
        Conv{true, 1, 6, 5, 4, 3, 3, 1, 1, 1, 0, true, 0, true, true}}) {
    const Model m = BuildConv(k, 16);
    EXPECT_TRUE(
        Calls(m.model, k.depthwise ? "k::DepthwiseConv2D(" : "k::Conv2D("));
    Check(m, k.depthwise ? "depthwise, weight -128" : "conv, weight -128",
          true);
  }
  // A multiplier of INT32_MIN (PerChannelFullyConnectedMatchesTheIntegerFormula
  // runs it).
  const float si = 12039168.0f / 16777216.0f, so = 11567864.0f / 16777216.0f;
  EXPECT_TRUE(Calls(
      BuildFullyConnected(3, 4, 4,
                          {0.5f, -16120429.0f / 16777216.0f, -0.25f, 0.75f}, si,
                          so, 8, 3)
          .model,
      "k::FullyConnected("));
  // Unit 1's real multiplier 0.5 * -1 / 2^-20 = -2^19: shift 20, so the
  // accumulator is shifted left by 20 first; |bias| + 255 * sum |w| is at
  // least 2^11 for these weights, so -acc * 2^20 might not be exact.
  const Model big = BuildFullyConnected(2, 12, 4, {0.5f, -1.0f, 0.25f, -0.5f},
                                        0.5f, std::ldexp(1.0f, -20), 17, 3);
  EXPECT_TRUE(Calls(big.model, "k::FullyConnected("));
  Check(big, "fully connected, left shift 20");
}

}  // namespace
