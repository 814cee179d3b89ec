// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// More int16-activation operators through `compile` end to end (one-
// operator models built here, compiled, built with the host compiler and
// run): FULLY_CONNECTED 16x8, MUL, the pools, CONCATENATION, RESHAPE. The
// expected values come from TFLite's formulas written out here
// (int16_reference.hpp's output stages, direct sums) or by hand.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "tests/host/support/int16_reference.hpp"
#include "tests/host/support/op_model.hpp"

namespace {

using arenaplan::testing_util::AsInt16;
using arenaplan::testing_util::Bytes;
using arenaplan::testing_util::CompileAndRun;
using arenaplan::testing_util::CompileError;
using arenaplan::testing_util::OneOpModel;
using arenaplan::testing_util::Random16;
using arenaplan::testing_util::Stage32;
using arenaplan::testing_util::Stage64;
using arenaplan::testing_util::TensorSpec;
namespace fb = arenaplan::tflite::fb;
using arenaplan::tflite::BuiltinOp;

using arenaplan::testing_util::kI16;
using arenaplan::testing_util::kI32;
using arenaplan::testing_util::kI64;
using arenaplan::testing_util::kI8;

/// FULLY_CONNECTED 16x8: input [2, 6] -> [2, 3]; per-unit weight scales
/// (per_channel) or one; bias INT64, INT32 or none (`bias_type` 0); input
/// zero point `zp_in`.
void CheckFullyConnected(std::int8_t bias_type, bool per_channel,
                         std::int32_t zp_in, unsigned seed) {
  const std::int32_t batches = 2, depth = 6, units = 3;
  std::mt19937 rng(seed);
  std::vector<std::int8_t> w(units * depth);
  for (auto& v : w)
    v = static_cast<std::int8_t>(
        std::uniform_int_distribution<int>(-127, 127)(rng));
  const std::vector<float> ws = {0.01f, 0.023f, 0.0041f};
  const std::vector<std::int64_t> bias = {123456, -98765, 7};
  const float si = 0.002f, so = 0.004f;
  OneOpModel m;
  m.name = "fc16x8_" + std::to_string(bias_type) + (per_channel ? "pc" : "pt");
  TensorSpec wt{{units, depth}, kI8, ws[0], 0, Bytes(w)};
  if (per_channel) wt.channel_scales = ws;
  m.tensors = {TensorSpec{{batches, depth}, kI16, si, zp_in, {}}, wt,
               TensorSpec{{batches, units}, kI16, so, 0, {}}};
  m.op_inputs = {0, 1};
  if (bias_type == kI64) {
    m.tensors.push_back(TensorSpec{{units}, kI64, 0.0f, 0, Bytes(bias)});
    m.op_inputs.push_back(3);
  } else if (bias_type == kI32) {
    m.tensors.push_back(
        TensorSpec{{units},
                   kI32,
                   0.0f,
                   0,
                   Bytes(std::vector<std::int32_t>(bias.begin(), bias.end()))});
    m.op_inputs.push_back(3);
  }
  m.graph_inputs = {0};
  m.graph_outputs = {2};
  m.op = BuiltinOp::kFullyConnected;
  m.op_outputs = {2};
  m.options = [](flatbuffers::FlatBufferBuilder& fbb) {
    return std::pair{fb::BuiltinOptions::FullyConnectedOptions,
                     fb::CreateFullyConnectedOptions(fbb).Union()};
  };
  const auto in = Random16(batches * depth, seed + 1, -32768, 32767);
  const auto run = CompileAndRun(m, Bytes(in));
  ASSERT_EQ(run.error, "") << m.name;
  const auto out = AsInt16(run.output);
  ASSERT_EQ(out.size(), static_cast<std::size_t>(batches * units));
  for (std::int32_t b = 0; b < batches; ++b) {
    for (std::int32_t u = 0; u < units; ++u) {
      std::int64_t acc = bias_type == 0 ? 0 : bias[u];
      for (std::int32_t d = 0; d < depth; ++d) {
        acc += std::int64_t{w[u * depth + d]} * (in[b * depth + d] - zp_in);
      }
      const float wsu = per_channel ? ws[u] : ws[0];
      // Per-tensor: the scale product in float (TFLite's
      // GetQuantizedConvolutionMultipler); per-channel: in double.
      const double real = per_channel ? double{si} * double{wsu} / double{so}
                                      : double{si * wsu} / double{so};
      const std::int32_t v = bias_type == kI32
                                 ? Stage32(static_cast<std::int32_t>(acc), real)
                                 : Stage64(acc, real);
      EXPECT_EQ(out[b * units + u], std::clamp(v, -32768, 32767))
          << m.name << " " << b << "," << u;
    }
  }
}

TEST(LowerInt16Ops, MultipliesFullyConnectedWithAnInt64Bias) {
  CheckFullyConnected(kI64, true, 0, 7);
}

TEST(LowerInt16Ops, MultipliesFullyConnectedWithAnInt32Bias) {
  CheckFullyConnected(kI32, true, 0, 8);
}

TEST(LowerInt16Ops, MultipliesFullyConnectedPerTensorWithoutBias) {
  CheckFullyConnected(0, false, 0, 9);
}

TEST(LowerInt16Ops, MultipliesFullyConnectedWithAnInputZeroPoint) {
  CheckFullyConnected(kI64, false, -3, 10);
}

/// A one-operator model of `op` on int16 tensors `tensors`: tensor 0 the
/// graph input, the last the output, the others (constants) between.
OneOpModel Int16Model(const char* name, BuiltinOp op,
                      std::vector<TensorSpec> tensors) {
  OneOpModel m;
  m.name = name;
  m.op = op;
  const auto n = static_cast<std::int32_t>(tensors.size());
  m.tensors = std::move(tensors);
  m.graph_inputs = {0};
  m.graph_outputs = {n - 1};
  for (std::int32_t i = 0; i + 1 < n; ++i) m.op_inputs.push_back(i);
  m.op_outputs = {n - 1};
  return m;
}

TEST(LowerInt16Ops, MultipliesWithBroadcastAndRelu) {
  // MUL [2, 3, 4] x constant [4] -> [2, 3, 4], RELU: TFLite's
  // MultiplyByQuantizedMultiplier(a * b, s_a * s_b / s_out) in double.
  const float sa = 0.0007f, sb = 0.0031f, so = 0.00011f;
  const std::vector<std::int16_t> b = {-32768, 32767, 5, -1234};
  OneOpModel m = Int16Model("mul16", BuiltinOp::kMul,
                            {TensorSpec{{2, 3, 4}, kI16, sa, 0, {}},
                             TensorSpec{{4}, kI16, sb, 0, Bytes(b)},
                             TensorSpec{{2, 3, 4}, kI16, so, 0, {}}});
  m.options = [](flatbuffers::FlatBufferBuilder& fbb) {
    return std::pair{fb::BuiltinOptions::MulOptions,
                     fb::CreateMulOptions(fbb, 1).Union()};  // RELU
  };
  const auto a = Random16(24, 51, -32768, 32767);
  const auto run = CompileAndRun(m, Bytes(a));
  ASSERT_EQ(run.error, "");
  const auto out = AsInt16(run.output);
  ASSERT_EQ(out.size(), 24u);
  const double real = double{sa} * double{sb} / double{so};
  for (std::size_t i = 0; i < 24; ++i) {
    const std::int32_t v = Stage32(a[i] * b[i % 4], real);
    EXPECT_EQ(out[i], std::clamp(v, 0, 32767)) << i;
  }
  // TFLM's int16 MUL reads no offsets.
  m.tensors[0].zero_point = 3;
  EXPECT_NE(CompileError(m).find("has zero point 3"), std::string::npos);
}

/// AVERAGE_POOL_2D or MAX_POOL_2D 3x3 stride 2 SAME on [1, 5, 6, 2]
/// (-> [1, 3, 3, 2]; the edge windows partly outside) with RELU6 on scale
/// 0.001 (clamp [0, 6000]) or none: the mean of the in-bounds elements
/// rounded half away from zero (std::lround), or their maximum.
void CheckPool(bool max, bool relu6) {
  const std::int32_t h = 5, w = 6, c = 2, oh = 3, ow = 3;
  OneOpModel m =
      Int16Model(max ? "maxpool16" : (relu6 ? "avgpool16_relu6" : "avgpool16"),
                 max ? BuiltinOp::kMaxPool2D : BuiltinOp::kAveragePool2D,
                 {TensorSpec{{1, h, w, c}, kI16, 0.001f, 0, {}},
                  TensorSpec{{1, oh, ow, c}, kI16, 0.001f, 0, {}}});
  m.options = [relu6](flatbuffers::FlatBufferBuilder& fbb) {
    // padding SAME (0), stride 2x2, filter 3x3, RELU6 (3) or NONE.
    return std::pair{
        fb::BuiltinOptions::Pool2DOptions,
        fb::CreatePool2DOptions(fbb, 0, 2, 2, 3, 3, relu6 ? 3 : 0).Union()};
  };
  const auto in = Random16(h * w * c, max ? 61 : 62, -32768, 32767);
  const auto run = CompileAndRun(m, Bytes(in));
  ASSERT_EQ(run.error, "") << m.name;
  const auto out = AsInt16(run.output);
  ASSERT_EQ(out.size(), static_cast<std::size_t>(oh * ow * c));
  // SAME (TFLite): 3 = ceil(5 / 2) rows, padding 2 * 2 + 3 - 5 = 2 in
  // total, 1 above; 3 = ceil(6 / 2) columns, padding 4 + 3 - 6 = 1, 0 left.
  const std::int32_t pad_top = 1, pad_left = 0;
  for (std::int32_t y = 0; y < oh; ++y)
    for (std::int32_t x = 0; x < ow; ++x)
      for (std::int32_t ch = 0; ch < c; ++ch) {
        double sum = 0;
        int count = 0, best = -32768;
        for (std::int32_t ky = 0; ky < 3; ++ky)
          for (std::int32_t kx = 0; kx < 3; ++kx) {
            const std::int32_t yy = 2 * y - pad_top + ky;
            const std::int32_t xx = 2 * x - pad_left + kx;
            if (yy < 0 || yy >= h || xx < 0 || xx >= w) continue;
            const int v = in[(yy * w + xx) * c + ch];
            sum += v;
            ++count;
            best = std::max(best, v);
          }
        long v = max ? best : std::lround(sum / count);
        if (relu6) v = std::clamp(v, 0L, 6000L);
        EXPECT_EQ(out[(y * ow + x) * c + ch], v)
            << m.name << " " << y << "," << x << "," << ch;
      }
}

TEST(LowerInt16Ops, AveragesWindowsWithSamePadding) { CheckPool(false, false); }

TEST(LowerInt16Ops, AveragesWindowsClampedByRelu6) { CheckPool(false, true); }

TEST(LowerInt16Ops, TakesWindowMaximaWithSamePadding) {
  CheckPool(true, false);
}

TEST(LowerInt16Ops, ConcatenatesAlongTheLastAxis) {
  // [2, 2] (graph input) and constant [2, 3] along axis 1 -> [2, 5]: row by
  // row, the input's two values then the constant's three (different
  // scales are copied as they are, as TFLM does for int16).
  const std::vector<std::int16_t> k = {-32768, 1, 2, 3, 4, 32767};
  OneOpModel m = Int16Model("concat16", BuiltinOp::kConcatenation,
                            {TensorSpec{{2, 2}, kI16, 0.5f, 0, {}},
                             TensorSpec{{2, 3}, kI16, 0.25f, 0, Bytes(k)},
                             TensorSpec{{2, 5}, kI16, 0.5f, 0, {}}});
  m.options = [](flatbuffers::FlatBufferBuilder& fbb) {
    return std::pair{fb::BuiltinOptions::ConcatenationOptions,
                     fb::CreateConcatenationOptions(fbb, 1).Union()};
  };
  const std::vector<std::int16_t> in = {10, -20, 30, -40};
  const auto run = CompileAndRun(m, Bytes(in));
  ASSERT_EQ(run.error, "");
  const std::vector<std::int16_t> expect = {10, -20, -32768, 1, 2,
                                            30, -40, 3,      4, 32767};
  EXPECT_EQ(AsInt16(run.output), expect);
  // TFLM requires int16 zero points 0.
  m.tensors[1].zero_point = 2;
  EXPECT_NE(CompileError(m).find("has zero point 2"), std::string::npos);
}

TEST(LowerInt16Ops, ReshapesKeepingEveryByte) {
  // [2, 3] -> [3, 2]: the same six values in the same order.
  OneOpModel m = Int16Model(
      "reshape16", BuiltinOp::kReshape,
      {TensorSpec{{2, 3}, kI16, 0.5f, 0, {}},
       TensorSpec{{2}, kI32, 0.0f, 0, Bytes(std::vector<std::int32_t>{3, 2})},
       TensorSpec{{3, 2}, kI16, 0.5f, 0, {}}});
  const std::vector<std::int16_t> in = {-32768, 32767, 258, -2, 0, 7};
  const auto run = CompileAndRun(m, Bytes(in));
  ASSERT_EQ(run.error, "");
  EXPECT_EQ(AsInt16(run.output), in);
}

TEST(LowerInt16Ops, DequantizesToFloat) {
  // int16 (scale 0.000123, zero point -7) -> float32: TFLite's reference
  // Dequantize, float(double(scale) * (q - zero point)).
  const float scale = 0.000123f;
  OneOpModel m = Int16Model("dequantize16", BuiltinOp::kDequantize,
                            {TensorSpec{{2, 4}, kI16, scale, -7, {}},
                             TensorSpec{{2, 4}, 0, 0.0f, 0, {}}});
  const std::vector<std::int16_t> in = {-32768, -7,   -6,    0,
                                        1,      1000, -1000, 32767};
  const auto run = CompileAndRun(m, Bytes(in));
  ASSERT_EQ(run.error, "");
  std::vector<float> out(in.size());
  ASSERT_EQ(run.output.size(), out.size() * 4);
  std::memcpy(out.data(), run.output.data(), run.output.size());
  for (std::size_t i = 0; i < in.size(); ++i) {
    EXPECT_EQ(out[i], static_cast<float>(double{scale} * (in[i] + 7))) << i;
  }
}

TEST(LowerInt16Ops, AveragesOverTwoAxes) {
  // MEAN over axes 1 and 2 of [1, 3, 4, 2] (num = 12) with keep_dims; zero
  // points 0 (in) and 5 (out). TFLite's QuantizedMeanOrSum: (M, e) =
  // QuantizeMultiplier(s_in / s_out), k = min(floor(log2 12) = 3, 32,
  // 31 + e), M' = (M << k) / 12 truncated, then the 32-bit stage with
  // (M', e - k) plus the output zero point, clamped to int16.
  const float si = 0.002f, so = 0.003f;
  OneOpModel m = Int16Model(
      "mean16", BuiltinOp::kMean,
      {TensorSpec{{1, 3, 4, 2}, kI16, si, 0, {}},
       TensorSpec{{2}, kI32, 0.0f, 0, Bytes(std::vector<std::int32_t>{1, 2})},
       TensorSpec{{1, 1, 1, 2}, kI16, so, 5, {}}});
  m.options = [](flatbuffers::FlatBufferBuilder& fbb) {
    return std::pair{fb::BuiltinOptions::ReducerOptions,
                     fb::CreateReducerOptions(fbb, true).Union()};
  };
  auto in = Random16(24, 71, -32768, 32767);
  for (std::size_t i = 1; i < 24; i += 2) in[i] = 32767;  // channel 1: max
  const auto run = CompileAndRun(m, Bytes(in));
  ASSERT_EQ(run.error, "");
  const auto out = AsInt16(run.output);
  ASSERT_EQ(out.size(), 2u);
  const auto [mq, e] = arenaplan::testing_util::Quantize(double{si} / so);
  const int k = std::min({3, 32, 31 + e});
  const std::int64_t mk = (mq << k) / 12;
  for (std::int32_t c = 0; c < 2; ++c) {
    std::int32_t sum = 0;
    for (std::int32_t i = 0; i < 12; ++i) sum += in[i * 2 + c];
    const std::int32_t v = arenaplan::testing_util::Stage32Raw(
                               sum, static_cast<std::int32_t>(mk), e - k) +
                           5;
    EXPECT_EQ(out[c], std::clamp(v, -32768, 32767)) << c;
    // A second look: within 1 of the real mean rescaled.
    EXPECT_NEAR(out[c], std::clamp(sum / 12.0 * si / so + 5, -32768.0, 32767.0),
                1.0)
        << c;
  }
}

/// LOGISTIC or TANH on every int16 value (one [65536] tensor) with input
/// scale `si`, output scale 2^-15: within `tolerance` of 2^15 sigmoid or
/// 2^15 tanh of the real input in double (the table and its linear
/// interpolation approximate it), and the values derived by hand at 0 and
/// at both ends.
void CheckSigmoid(bool tanh, float si, int tolerance, const char* name) {
  OneOpModel m =
      Int16Model(name, tanh ? BuiltinOp::kTanh : BuiltinOp::kLogistic,
                 {TensorSpec{{65536}, kI16, si, 0, {}},
                  TensorSpec{{65536}, kI16, 1.0f / 32768, 0, {}}});
  std::vector<std::int16_t> in(65536);
  for (std::size_t i = 0; i < in.size(); ++i) {
    in[i] = static_cast<std::int16_t>(static_cast<int>(i) - 32768);
  }
  const auto run = CompileAndRun(m, Bytes(in));
  ASSERT_EQ(run.error, "") << name;
  const auto out = AsInt16(run.output);
  ASSERT_EQ(out.size(), in.size());
  int worst = 0;
  for (std::size_t i = 0; i < in.size(); ++i) {
    const double x = double{si} * in[i];
    const double f = tanh ? std::tanh(x) : 1.0 / (1.0 + std::exp(-x));
    const int d =
        static_cast<int>(std::lround(std::fabs(out[i] - 32768.0 * f)));
    worst = std::max(worst, d);
  }
  EXPECT_LE(worst, tolerance) << name;
  // q = 0: the table's first entry 2^15 (sigmoid(0) = 1/2): LOGISTIC
  // (2^15 * 2^9 + 2^9) >> 10 = 16384; TANH (2^23 - 2^23 + 2^7) >> 8 = 0.
  EXPECT_EQ(out[32768], tanh ? 0 : 16384) << name;
  // The ends saturate (index 255 or more) unless the input is LOGISTIC's
  // power-of-two 2^-12 (x = 3q: index at most 98304 >> 9 = 192):
  // LOGISTIC (0x7FFF * 2^10 + 2^9) >> 10 = 32767 and (2^25 - 0x7FFF * 2^10
  // + 2^9 - 1) >> 10 = 1535 >> 10 = 1; TANH (0xFFFF * 2^8 - 2^23 + 2^7) >> 8
  // = 32767 and floor((-0xFFFF * 2^8 + 2^23 + 2^7 - 1) / 2^8) = -32767.
  if (!tanh && si == 1.0f / 4096) return;
  EXPECT_EQ(out[65535], 32767) << name;
  EXPECT_EQ(out[0], tanh ? -32767 : 1) << name;
}

TEST(LowerInt16Ops, ComputesLogisticForEveryInput) {
  CheckSigmoid(false, 0.0004f, 2, "logistic16");
}

TEST(LowerInt16Ops, ComputesLogisticOnAPowerOfTwoScale) {
  CheckSigmoid(false, 1.0f / 4096, 2, "logistic16_pot");
}

TEST(LowerInt16Ops, ComputesTanhForEveryInput) {
  CheckSigmoid(true, 0.0004f, 3, "tanh16");
}

TEST(LowerInt16Ops, ComputesTanhOnAPowerOfTwoScale) {
  CheckSigmoid(true, 1.0f / 2048, 3, "tanh16_pot");
}

TEST(LowerInt16Ops, RefusesASigmoidOutputScaleOtherThanTwoToMinusFifteen) {
  OneOpModel m = Int16Model("logistic16_bad", BuiltinOp::kLogistic,
                            {TensorSpec{{4}, kI16, 0.001f, 0, {}},
                             TensorSpec{{4}, kI16, 0.001f, 0, {}}});
  EXPECT_NE(CompileError(m).find("the int16 output must have scale 2^-15"),
            std::string::npos)
      << CompileError(m);
}

}  // namespace
