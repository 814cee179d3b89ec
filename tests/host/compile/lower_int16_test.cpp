// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// int16-activation ("16x8") operators through `compile` end to end: one-
// operator models built here, compiled, built with the host compiler and
// run. Expected values from TFLite's formulas written out here: a direct
// (or, for TRANSPOSE_CONV, scattered) int64 sum, multipliers from frexp,
// the 64-bit output stage as an exact rational rounded half up and the
// 32-bit one through gemmlowp; and the type table's refusals.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
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

using arenaplan::testing_util::kI16;
using arenaplan::testing_util::kI32;
using arenaplan::testing_util::kI64;
using arenaplan::testing_util::kI8;

constexpr float kSi = 0.002f, kSo = 0.004f;

/// CONV_2D 16x8, 3x3 SAME stride 1 on [1, 4, 5, 3] -> [1, 4, 5, 2], with
/// an INT64 (64-bit accumulator) or INT32 (32-bit) bias.
void CheckConv(bool bias64, unsigned seed) {
  const std::int32_t h = 4, w = 5, ic = 3, oc = 2, kh = 3, kw = 3;
  std::mt19937 rng(seed);
  std::vector<std::int8_t> filter(oc * kh * kw * ic);
  for (auto& v : filter)
    v = static_cast<std::int8_t>(
        std::uniform_int_distribution<int>(-127, 127)(rng));
  const std::vector<float> ws = {0.01f, 0.023f};
  const std::vector<std::int64_t> bias = {123456, -98765};
  OneOpModel m;
  m.name = bias64 ? "conv16x8_b64" : "conv16x8_b32";
  TensorSpec f{{oc, kh, kw, ic}, kI8, 0.0f, 0, Bytes(filter)};
  f.channel_scales = ws;
  const TensorSpec b =
      bias64 ? TensorSpec{{oc}, kI64, 0.0f, 0, Bytes(bias)}
             : TensorSpec{
                   {oc},
                   kI32,
                   0.0f,
                   0,
                   Bytes(std::vector<std::int32_t>(bias.begin(), bias.end()))};
  m.tensors = {TensorSpec{{1, h, w, ic}, kI16, kSi, 0, {}}, f, b,
               TensorSpec{{1, h, w, oc}, kI16, kSo, 0, {}}};
  m.graph_inputs = {0};
  m.graph_outputs = {3};
  m.op = arenaplan::tflite::BuiltinOp::kConv2D;
  m.op_inputs = {0, 1, 2};
  m.op_outputs = {3};
  m.options = [](flatbuffers::FlatBufferBuilder& fbb) {
    return std::pair{fb::BuiltinOptions::Conv2DOptions,
                     fb::CreateConv2DOptions(fbb, 0, 1, 1, 0).Union()};
  };
  const auto in = Random16(h * w * ic, seed + 1, -32768, 32767);
  const auto run = CompileAndRun(m, Bytes(in));
  ASSERT_EQ(run.error, "") << m.name;
  const auto out = AsInt16(run.output);
  ASSERT_EQ(out.size(), static_cast<std::size_t>(h * w * oc));
  for (std::int32_t y = 0; y < h; ++y)
    for (std::int32_t x = 0; x < w; ++x)
      for (std::int32_t c = 0; c < oc; ++c) {
        std::int64_t acc = bias[c];
        for (std::int32_t ky = 0; ky < kh; ++ky)
          for (std::int32_t kx = 0; kx < kw; ++kx)
            for (std::int32_t i = 0; i < ic; ++i) {
              const std::int32_t yy = y + ky - 1, xx = x + kx - 1;
              if (yy < 0 || yy >= h || xx < 0 || xx >= w) continue;
              acc += std::int64_t{in[(yy * w + xx) * ic + i]} *
                     filter[((c * kh + ky) * kw + kx) * ic + i];
            }
        const double real = double{kSi} * double{ws[c]} / double{kSo};
        const std::int32_t v =
            bias64 ? Stage64(acc, real)
                   : Stage32(static_cast<std::int32_t>(acc), real);
        EXPECT_EQ(out[(y * w + x) * oc + c], std::clamp(v, -32768, 32767))
            << m.name << " " << y << "," << x << "," << c;
      }
}

TEST(LowerInt16, ConvolvesSixteenByEightWithAnInt64Bias) { CheckConv(true, 3); }

TEST(LowerInt16, ConvolvesSixteenByEightWithAnInt32Bias) {
  CheckConv(false, 4);
}

TEST(LowerInt16, ConvolvesDepthwiseWithADepthMultiplier) {
  // DEPTHWISE_CONV_2D 16x8: [1, 3, 4, 2] -> [1, 3, 4, 4] (depth multiplier
  // 2), 3x3 SAME stride 1, no bias (64-bit accumulator), RELU.
  const std::int32_t h = 3, w = 4, ic = 2, dm = 2, oc = ic * dm, k = 3;
  std::mt19937 rng(41);
  std::vector<std::int8_t> filter(k * k * oc);
  for (auto& v : filter)
    v = static_cast<std::int8_t>(
        std::uniform_int_distribution<int>(-127, 127)(rng));
  const std::vector<float> ws = {0.01f, 0.02f, 0.005f, 0.03f};
  OneOpModel m;
  m.name = "depthwise16x8";
  TensorSpec f{{1, k, k, oc}, kI8, 0.0f, 0, Bytes(filter)};
  f.channel_scales = ws;
  f.quantized_dimension = 3;
  m.tensors = {TensorSpec{{1, h, w, ic}, kI16, kSi, 0, {}}, f,
               TensorSpec{{1, h, w, oc}, kI16, kSo, 0, {}}};
  m.graph_inputs = {0};
  m.graph_outputs = {2};
  m.op = arenaplan::tflite::BuiltinOp::kDepthwiseConv2D;
  m.op_inputs = {0, 1};
  m.op_outputs = {2};
  m.options = [](flatbuffers::FlatBufferBuilder& fbb) {
    return std::pair{
        fb::BuiltinOptions::DepthwiseConv2DOptions,
        fb::CreateDepthwiseConv2DOptions(fbb, 0, 1, 1, dm, 1).Union()};
  };
  const auto in = Random16(h * w * ic, 42, -32768, 32767);
  const auto run = CompileAndRun(m, Bytes(in));
  ASSERT_EQ(run.error, "");
  const auto out = AsInt16(run.output);
  ASSERT_EQ(out.size(), static_cast<std::size_t>(h * w * oc));
  for (std::int32_t y = 0; y < h; ++y)
    for (std::int32_t x = 0; x < w; ++x)
      for (std::int32_t c = 0; c < oc; ++c) {
        std::int64_t acc = 0;
        for (std::int32_t ky = 0; ky < k; ++ky)
          for (std::int32_t kx = 0; kx < k; ++kx) {
            const std::int32_t yy = y + ky - 1, xx = x + kx - 1;
            if (yy < 0 || yy >= h || xx < 0 || xx >= w) continue;
            acc += std::int64_t{in[(yy * w + xx) * ic + c / dm]} *
                   filter[(ky * k + kx) * oc + c];
          }
        const double real = double{kSi} * double{ws[c]} / double{kSo};
        // RELU: the lower bound is the zero point, 0.
        EXPECT_EQ(out[(y * w + x) * oc + c],
                  std::clamp(Stage64(acc, real), 0, 32767))
            << y << "," << x << "," << c;
      }
}

TEST(LowerInt16, TransposesWithAShapeGivenAsGraphInput) {
  // Input [1, 2, 3, 2] -> [1, 4, 6, 2], filter 3x3, stride 2, SAME: the
  // convolution of 4x6 gives 2x3, total padding (2 - 1) * 2 + 3 - 4 = 1
  // row and (3 - 1) * 2 + 3 - 6 = 1 column, 0 before each. An INT16 bias.
  const std::int32_t ih = 2, iw = 3, ic = 2, oh = 4, ow = 6, oc = 2, k = 3;
  std::mt19937 rng(9);
  std::vector<std::int8_t> filter(oc * k * k * ic);
  for (auto& v : filter)
    v = static_cast<std::int8_t>(
        std::uniform_int_distribution<int>(-127, 127)(rng));
  const std::vector<std::int16_t> bias = {-300, 451};
  OneOpModel m;
  m.name = "transpose_conv16x8";
  TensorSpec f{{oc, k, k, ic}, kI8, 0.0f, 0, Bytes(filter)};
  f.channel_scales = {0.02f, 0.015f};
  m.tensors = {TensorSpec{{4}, kI32, 0.0f, 0, {}}, f,
               TensorSpec{{1, ih, iw, ic}, kI16, kSi, 0, {}},
               TensorSpec{{oc}, kI16, 0.0f, 0, Bytes(bias)},
               TensorSpec{{1, oh, ow, oc}, kI16, kSo, 0, {}}};
  m.graph_inputs = {0, 2};
  m.graph_outputs = {4};
  m.op = arenaplan::tflite::BuiltinOp::kTransposeConv;
  m.op_inputs = {0, 1, 2, 3};
  m.op_outputs = {4};
  m.options = [](flatbuffers::FlatBufferBuilder& fbb) {
    return std::pair{fb::BuiltinOptions::TransposeConvOptions,
                     fb::CreateTransposeConvOptions(fbb, 0, 2, 2, 0).Union()};
  };
  const auto in = Random16(ih * iw * ic, 10, -32768, 32767);
  // The graph's inputs in order: the shape (never read), then the data.
  std::vector<std::uint8_t> bytes =
      Bytes(std::vector<std::int32_t>{1, oh, ow, oc});
  const auto data = Bytes(in);
  bytes.insert(bytes.end(), data.begin(), data.end());
  const auto run = CompileAndRun(m, bytes);
  ASSERT_EQ(run.error, "");
  const auto out = AsInt16(run.output);
  std::vector<std::int64_t> acc(oh * ow * oc, 0);
  for (std::int32_t y = 0; y < ih; ++y)
    for (std::int32_t x = 0; x < iw; ++x)
      for (std::int32_t i = 0; i < ic; ++i)
        for (std::int32_t ky = 0; ky < k; ++ky)
          for (std::int32_t kx = 0; kx < k; ++kx)
            for (std::int32_t c = 0; c < oc; ++c) {
              const std::int32_t oy = y * 2 + ky, ox = x * 2 + kx;
              if (oy >= oh || ox >= ow) continue;
              acc[(oy * ow + ox) * oc + c] +=
                  std::int64_t{in[(y * iw + x) * ic + i]} *
                  filter[((c * k + ky) * k + kx) * ic + i];
            }
  ASSERT_EQ(out.size(), acc.size());
  for (std::size_t j = 0; j < acc.size(); ++j) {
    const std::size_t c = j % oc;
    const double real = double{kSi} * double{f.channel_scales[c]} / double{kSo};
    EXPECT_EQ(out[j],
              std::clamp(Stage64(acc[j] + bias[c], real), -32768, 32767))
        << j;
  }
}

/// ADD or SUB of int16 [1, 2, 3, 4] and a broadcast [4], as TFLM computes
/// it (15 bits of headroom, both inputs to twice the larger scale).
void CheckAddSub(bool add) {
  const float sa = 0.001f, sb = 0.003f, so = 0.0025f;
  OneOpModel m;
  m.name = add ? "add16" : "sub16";
  m.tensors = {TensorSpec{{1, 2, 3, 4}, kI16, sa, 0, {}},
               TensorSpec{{4}, kI16, sb, 0, {}},
               TensorSpec{{1, 2, 3, 4}, kI16, so, 0, {}}};
  m.graph_inputs = {0, 1};
  m.graph_outputs = {2};
  m.op = add ? arenaplan::tflite::BuiltinOp::kAdd
             : arenaplan::tflite::BuiltinOp::kSub;
  m.op_inputs = {0, 1};
  m.op_outputs = {2};
  m.options = [add](flatbuffers::FlatBufferBuilder& fbb) {
    return add ? std::pair{fb::BuiltinOptions::AddOptions,
                           fb::CreateAddOptions(fbb, 0, false).Union()}
               : std::pair{fb::BuiltinOptions::SubOptions,
                           fb::CreateSubOptions(fbb, 0, false).Union()};
  };
  const auto a = Random16(24, 21, -32768, 32767);
  const auto b = Random16(4, 22, -32768, 32767);
  std::vector<std::uint8_t> bytes = Bytes(a);
  const auto bb = Bytes(b);
  bytes.insert(bytes.end(), bb.begin(), bb.end());
  const auto run = CompileAndRun(m, bytes);
  ASSERT_EQ(run.error, "") << m.name;
  const auto out = AsInt16(run.output);
  ASSERT_EQ(out.size(), 24u);
  // ADD forms the ratios in double, SUB in float (add_common.cc,
  // sub_common.cc).
  const double twice = 2.0 * std::max(double{sa}, double{sb});
  const float twice_f = 2 * std::max(sa, sb);
  const double r1 = add ? sa / twice : double{sa / twice_f};
  const double r2 = add ? sb / twice : double{sb / twice_f};
  const double ro =
      add ? twice / (32768.0 * so) : double{twice_f / (32768 * so)};
  for (std::size_t i = 0; i < 24; ++i) {
    const std::int32_t x1 = Stage32(a[i] * (1 << 15), r1);
    const std::int32_t x2 = Stage32(b[i % 4] * (1 << 15), r2);
    const std::int32_t v = Stage32(add ? x1 + x2 : x1 - x2, ro);
    EXPECT_EQ(out[i], std::clamp(v, -32768, 32767)) << m.name << " " << i;
  }
}

TEST(LowerInt16, AddsWithBroadcast) { CheckAddSub(true); }

TEST(LowerInt16, SubtractsWithBroadcast) { CheckAddSub(false); }

TEST(LowerInt16, LeaksNegativeValues) {
  const float si = 0.0005f, so = 0.0004f, alpha = 0.2f;
  OneOpModel m;
  m.name = "leaky_relu16";
  m.tensors = {TensorSpec{{1, 3, 5, 2}, kI16, si, 0, {}},
               TensorSpec{{1, 3, 5, 2}, kI16, so, 0, {}}};
  m.graph_inputs = {0};
  m.graph_outputs = {1};
  m.op = arenaplan::tflite::BuiltinOp::kLeakyRelu;
  m.op_inputs = {0};
  m.op_outputs = {1};
  m.options = [alpha](flatbuffers::FlatBufferBuilder& fbb) {
    return std::pair{fb::BuiltinOptions::LeakyReluOptions,
                     fb::CreateLeakyReluOptions(fbb, alpha).Union()};
  };
  const auto in = Random16(30, 31, -32768, 32767);
  const auto run = CompileAndRun(m, Bytes(in));
  ASSERT_EQ(run.error, "");
  const auto out = AsInt16(run.output);
  for (std::size_t i = 0; i < in.size(); ++i) {
    const std::int32_t v = in[i] >= 0 ? Stage32(in[i], double{si / so})
                                      : Stage32(in[i], double{si * alpha / so});
    EXPECT_EQ(out[i], std::clamp(v, -32768, 32767)) << i;
  }
}

TEST(LowerInt16, RequantizesInt32ToInt16) {
  // QUANTIZE int32 (scale 0.001, zero point 10) -> int16 (scale 0.004):
  // MultiplyByQuantizedMultiplier(q - 10, 0.25) with gemmlowp's roundings,
  // saturated to int16 (TFLM's reference Requantize).
  OneOpModel m;
  m.name = "quantize32to16";
  m.tensors = {TensorSpec{{1, 8}, kI32, 0.001f, 10, {}},
               TensorSpec{{1, 8}, kI16, 0.004f, 0, {}}};
  m.graph_inputs = {0};
  m.graph_outputs = {1};
  m.op = arenaplan::tflite::BuiltinOp::kQuantize;
  m.op_inputs = {0};
  m.op_outputs = {1};
  const std::vector<std::int32_t> in = {0, 10, 12, 8, 1000000, -1000000, 16, 4};
  const auto run = CompileAndRun(m, Bytes(in));
  ASSERT_EQ(run.error, "");
  const auto out = AsInt16(run.output);
  // (q - 10) / 4: -2.5 -> -3 (away from zero), 0, 0.5 -> 1, -0.5 -> -1,
  // 249997.5 -> 32767, -250002.5 -> -32768, 1.5 -> 2, -1.5 -> -2.
  const std::vector<std::int16_t> expect = {-3, 0, 1, -1, 32767, -32768, 2, -2};
  EXPECT_EQ(out, expect);
}

TEST(LowerInt16, RefusesTypesTheTableDoesNotList) {
  // An int16 input with an int16 filter: the table's CONV_2D line has no
  // (INT16, INT16, ...) combination; the message names the filter.
  OneOpModel m;
  m.name = "conv16x16";
  m.tensors = {
      TensorSpec{{1, 2, 2, 1}, kI16, kSi, 0, {}},
      TensorSpec{
          {1, 1, 1, 1}, kI16, 0.5f, 0, Bytes(std::vector<std::int16_t>{3})},
      TensorSpec{{1, 2, 2, 1}, kI16, kSo, 0, {}}};
  m.graph_inputs = {0};
  m.graph_outputs = {2};
  m.op = arenaplan::tflite::BuiltinOp::kConv2D;
  m.op_inputs = {0, 1};
  m.op_outputs = {2};
  m.options = [](flatbuffers::FlatBufferBuilder& fbb) {
    return std::pair{fb::BuiltinOptions::Conv2DOptions,
                     fb::CreateConv2DOptions(fbb, 0, 1, 1, 0).Union()};
  };
  const std::string err = CompileError(m);
  EXPECT_NE(err.find("operator 0 (CONV_2D): filter tensor 1 "),
            std::string::npos)
      << err;
  EXPECT_NE(err.find(" is INT16; CONV_2D accepts (input, filter, output) as "
                     "(INT8, INT8, INT8), (INT16, INT8, INT16), (FLOAT32, "
                     "FLOAT32, FLOAT32)"),
            std::string::npos)
      << err;
  // An int16 activation with a zero point: TFLM's 16x8 kernels read none.
  m.tensors[1] = TensorSpec{
      {1, 1, 1, 1}, kI8, 0.5f, 0, Bytes(std::vector<std::int8_t>{3})};
  m.tensors[0].zero_point = 5;
  EXPECT_NE(CompileError(m).find("has zero point 5; int16 activations"),
            std::string::npos);
}

}  // namespace
