// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// float32 SUB, MUL, DIV, MAXIMUM, MINIMUM, RELU6, MEAN, RESIZE_BILINEAR and
// TRANSPOSE_CONV through
// `compile` end to end on random floats, compared bit for bit with a second
// computation here: tests/host/support/float_oracle.hpp's operations (each
// formed in double and rounded to float, TFLite's float arithmetic), NumPy
// broadcasting done here from the shapes, and the fused activation's
// min(max()). Also the type table's refusal of a float / int8 mix.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "tests/host/support/float_oracle.hpp"
#include "tests/host/support/op_model.hpp"

namespace {

using arenaplan::testing_util::AddF;
using arenaplan::testing_util::Bits;
using arenaplan::testing_util::Bytes;
using arenaplan::testing_util::ClampF;
using arenaplan::testing_util::CompileAndRun;
using arenaplan::testing_util::CompileError;
using arenaplan::testing_util::DivF;
using arenaplan::testing_util::MulF;
using arenaplan::testing_util::OneOpModel;
using arenaplan::testing_util::RandomFloats;
using arenaplan::testing_util::SubF;
using arenaplan::testing_util::TensorSpec;
using arenaplan::testing_util::WordsOf;
namespace fb = arenaplan::tflite::fb;
namespace tflite = arenaplan::tflite;

using arenaplan::testing_util::kF32;
using arenaplan::testing_util::kI8;
constexpr float kMax = std::numeric_limits<float>::max();
using Shape = std::vector<std::int32_t>;

/// A two-input float operator: input 0 an activation of shape `a`, input
/// 1 of shape `b` (a constant holding `b_data` when it is not empty, a
/// second graph input otherwise), output of shape `out`.
OneOpModel FloatBinary(tflite::BuiltinOp op, const Shape& a, const Shape& b,
                       const Shape& out, const std::vector<float>& b_data) {
  OneOpModel m;
  m.name = "binary_f32_" + std::to_string(static_cast<int>(op));
  m.tensors = {TensorSpec{a, kF32, 0.0f, 0, {}},
               TensorSpec{b, kF32, 0.0f, 0, Bytes(b_data)},
               TensorSpec{out, kF32, 0.0f, 0, {}}};
  m.graph_inputs = b_data.empty() ? std::vector{0, 1} : std::vector{0};
  m.graph_outputs = {2};
  m.op = op;
  m.op_inputs = {0, 1};
  m.op_outputs = {2};
  return m;
}

/// The flat index into a tensor of shape `s` of output coordinates `c`
/// (NumPy broadcasting: shapes aligned at the last dimension, a dimension
/// of 1 read at 0).
std::size_t BroadcastIndex(const Shape& s, const Shape& out,
                           const std::vector<std::int32_t>& c) {
  std::size_t index = 0;
  const std::size_t skip = out.size() - s.size();
  for (std::size_t d = 0; d < s.size(); ++d) {
    const std::int32_t i = s[d] == 1 ? 0 : c[skip + d];
    index =
        index * static_cast<std::size_t>(s[d]) + static_cast<std::size_t>(i);
  }
  return index;
}

/// f(a[.], b[.]) for every output element in row-major order.
std::vector<std::uint32_t> BroadcastByHand(
    const Shape& as, const std::vector<float>& a, const Shape& bs,
    const std::vector<float>& b, const Shape& out,
    const std::function<float(float, float)>& f) {
  std::vector<std::uint32_t> r;
  std::vector<std::int32_t> c(out.size(), 0);
  std::size_t total = 1;
  for (std::int32_t d : out) total *= static_cast<std::size_t>(d);
  for (std::size_t k = 0; k < total; ++k) {
    std::size_t rest = k;
    for (std::size_t d = out.size(); d-- > 0;) {
      c[d] = static_cast<std::int32_t>(rest % static_cast<std::size_t>(out[d]));
      rest /= static_cast<std::size_t>(out[d]);
    }
    r.push_back(
        Bits(f(a[BroadcastIndex(as, out, c)], b[BroadcastIndex(bs, out, c)])));
  }
  return r;
}

/// Concatenated bytes of two float vectors (two graph inputs).
std::vector<std::uint8_t> TwoInputs(const std::vector<float>& a,
                                    const std::vector<float>& b) {
  std::vector<std::uint8_t> bytes = Bytes(a);
  const std::vector<std::uint8_t> tail = Bytes(b);
  bytes.insert(bytes.end(), tail.begin(), tail.end());
  return bytes;
}

TEST(LowerFloatOps, SubtractsWithBroadcastingAndTheFusedActivation) {
  // [2, 3, 4] - constant [3, 1] (broadcast along the last dimension and
  // the first), RELU6; then two activations [2, 1, 4] - [3, 4], NONE.
  const Shape as{2, 3, 4}, bs{3, 1};
  const auto a = RandomFloats(24, 11, -4.0f, 8.0f);
  const auto b = RandomFloats(3, 12);
  OneOpModel m = FloatBinary(tflite::BuiltinOp::kSub, as, bs, as, b);
  m.options = [](flatbuffers::FlatBufferBuilder& fbb) {
    return std::pair{fb::BuiltinOptions::SubOptions,
                     fb::CreateSubOptions(fbb, 3).Union()};  // RELU6
  };
  auto run = CompileAndRun(m, Bytes(a));
  ASSERT_EQ(run.error, "");
  EXPECT_EQ(WordsOf(run.output),
            BroadcastByHand(as, a, bs, b, as, [](float x, float y) {
              return ClampF(SubF(x, y), 0.0f, 6.0f);
            }));
  const Shape xs{2, 1, 4}, ys{3, 4}, os{2, 3, 4};
  const auto x = RandomFloats(8, 13), y = RandomFloats(12, 14);
  OneOpModel two = FloatBinary(tflite::BuiltinOp::kSub, xs, ys, os, {});
  two.options = [](flatbuffers::FlatBufferBuilder& fbb) {
    return std::pair{fb::BuiltinOptions::SubOptions,
                     fb::CreateSubOptions(fbb, 0).Union()};  // NONE
  };
  run = CompileAndRun(two, TwoInputs(x, y));
  ASSERT_EQ(run.error, "");
  EXPECT_EQ(WordsOf(run.output),
            BroadcastByHand(xs, x, ys, y, os, [](float p, float q) {
              return ClampF(SubF(p, q), -kMax, kMax);
            }));
}

TEST(LowerFloatOps, DividesWithBroadcastingAndTheFusedActivation) {
  // [2, 3, 4] / constant [4] (no zeros), RELU_N1_TO_1.
  const Shape as{2, 3, 4}, bs{4};
  const auto a = RandomFloats(24, 30);
  const std::vector<float> b = {0.3f, -1.7f, 2.9f, -0.45f};
  OneOpModel m = FloatBinary(tflite::BuiltinOp::kDiv, as, bs, as, b);
  m.options = [](flatbuffers::FlatBufferBuilder& fbb) {
    return std::pair{fb::BuiltinOptions::DivOptions,
                     fb::CreateDivOptions(fbb, 2).Union()};  // RELU_N1_TO_1
  };
  const auto run = CompileAndRun(m, Bytes(a));
  ASSERT_EQ(run.error, "");
  EXPECT_EQ(WordsOf(run.output),
            BroadcastByHand(as, a, bs, b, as, [](float x, float y) {
              return ClampF(DivF(x, y), -1.0f, 1.0f);
            }));
}

TEST(LowerFloatOps, MultipliesWithBroadcastingAndTheFusedActivation) {
  // [1, 2, 2, 3] * [1, 1, 2, 1] (two activations), RELU.
  const Shape as{1, 2, 2, 3}, bs{1, 1, 2, 1};
  const auto a = RandomFloats(12, 15), b = RandomFloats(2, 16);
  OneOpModel m = FloatBinary(tflite::BuiltinOp::kMul, as, bs, as, {});
  m.options = [](flatbuffers::FlatBufferBuilder& fbb) {
    return std::pair{fb::BuiltinOptions::MulOptions,
                     fb::CreateMulOptions(fbb, 1).Union()};  // RELU
  };
  const auto run = CompileAndRun(m, TwoInputs(a, b));
  ASSERT_EQ(run.error, "");
  EXPECT_EQ(WordsOf(run.output),
            BroadcastByHand(as, a, bs, b, as, [](float x, float y) {
              return ClampF(MulF(x, y), 0.0f, kMax);
            }));
}

TEST(LowerFloatOps, TakesMaximumAndMinimumAgainstAConstant) {
  // [3, 4] against a constant [4] holding -0.0 and 0.0 among others.
  const Shape as{3, 4}, bs{4};
  auto a = RandomFloats(12, 17);
  a[1] = 0.0f;  // against -0.0: max(0.0, -0.0) is -0.0 (0 > -0 is false)
  const std::vector<float> b = {0.5f, -0.0f, 0.0f, -1.25f};
  for (const bool maximum : {true, false}) {
    const OneOpModel m = FloatBinary(
        maximum ? tflite::BuiltinOp::kMaximum : tflite::BuiltinOp::kMinimum, as,
        bs, as, b);
    const auto run = CompileAndRun(m, Bytes(a));
    ASSERT_EQ(run.error, "") << maximum;
    EXPECT_EQ(WordsOf(run.output),
              BroadcastByHand(as, a, bs, b, as,
                              [maximum](float x, float y) {
                                return maximum ? (x > y ? x : y)
                                               : (x < y ? x : y);
                              }))
        << maximum;
    if (maximum) {
      EXPECT_EQ(WordsOf(run.output)[1], 0x80000000u);
    }
  }
}

TEST(LowerFloatOps, Relu6sFloatTensors) {
  OneOpModel m;
  m.name = "relu6_f32";
  m.tensors = {TensorSpec{{2, 4}, kF32, 0.0f, 0, {}},
               TensorSpec{{2, 4}, kF32, 0.0f, 0, {}}};
  m.graph_inputs = {0};
  m.graph_outputs = {1};
  m.op = tflite::BuiltinOp::kRelu6;
  m.op_inputs = {0};
  m.op_outputs = {1};
  const float inf = std::numeric_limits<float>::infinity();
  const std::vector<float> in = {-1.5f, 0.25f, -0.0f, 6.0f,
                                 6.5f,  5.75f, inf,   -inf};
  const auto run = CompileAndRun(m, Bytes(in));
  ASSERT_EQ(run.error, "");
  EXPECT_EQ(WordsOf(run.output), (std::vector<std::uint32_t>{
                                     0u, Bits(0.25f), 0x80000000u, Bits(6.0f),
                                     Bits(6.0f), Bits(5.75f), Bits(6.0f), 0u}));
}

TEST(LowerFloatOps, RefusesAFloatAndInt8Mix) {
  OneOpModel m = FloatBinary(tflite::BuiltinOp::kMul, {4}, {4}, {4}, {});
  m.tensors[1] = TensorSpec{{4}, kI8, 0.5f, 0, {}};
  m.options = [](flatbuffers::FlatBufferBuilder& fbb) {
    return std::pair{fb::BuiltinOptions::MulOptions,
                     fb::CreateMulOptions(fbb, 0).Union()};
  };
  EXPECT_NE(CompileError(m).find("operator 0 (MUL): input 1 tensor 1 't1' is "
                                 "INT8; MUL accepts (input 0, input 1, "
                                 "output) as (INT8, INT8, INT8), (INT16, "
                                 "INT16, INT16), (FLOAT32, FLOAT32, FLOAT32)"),
            std::string::npos)
      << CompileError(m);
}

/// MEAN of a float [1, 3, 4, 5] input over constant `axes` to `out`.
OneOpModel FloatMean(const std::vector<std::int32_t>& axes, const Shape& out,
                     bool keep_dims) {
  OneOpModel m;
  m.name = "mean_f32";
  m.tensors = {
      TensorSpec{{1, 3, 4, 5}, kF32, 0.0f, 0, {}},
      TensorSpec{
          {static_cast<std::int32_t>(axes.size())}, 2, 0.0f, 0, Bytes(axes)},
      TensorSpec{out, kF32, 0.0f, 0, {}}};
  m.graph_inputs = {0};
  m.graph_outputs = {2};
  m.op = tflite::BuiltinOp::kMean;
  m.op_inputs = {0, 1};
  m.op_outputs = {2};
  m.options = [keep_dims](flatbuffers::FlatBufferBuilder& fbb) {
    return std::pair{fb::BuiltinOptions::ReducerOptions,
                     fb::CreateReducerOptions(fbb, keep_dims).Union()};
  };
  return m;
}

TEST(LowerFloatOps, AveragesOverTheAxesInTheInputsOrder) {
  // x [1, 3, 4, 5]; MEAN over {1, 2} (keep_dims: TFLM's 4-D special case)
  // and over {-1} (its general path): each mean sums its elements in the
  // input's row-major order from 0.0f, then divides by the count.
  const auto x = RandomFloats(60, 25, -100.0f, 100.0f);
  auto at = [&](int h, int w, int c) {
    return x[static_cast<std::size_t>((h * 4 + w) * 5 + c)];
  };
  std::vector<std::uint32_t> hw, last;
  for (int c = 0; c < 5; ++c) {
    float sum = 0.0f;
    for (int h = 0; h < 3; ++h)
      for (int w = 0; w < 4; ++w) sum = AddF(sum, at(h, w, c));
    hw.push_back(Bits(DivF(sum, 12.0f)));
  }
  for (int h = 0; h < 3; ++h)
    for (int w = 0; w < 4; ++w) {
      float sum = 0.0f;
      for (int c = 0; c < 5; ++c) sum = AddF(sum, at(h, w, c));
      last.push_back(Bits(DivF(sum, 5.0f)));
    }
  auto run = CompileAndRun(FloatMean({1, 2}, {1, 1, 1, 5}, true), Bytes(x));
  ASSERT_EQ(run.error, "");
  EXPECT_EQ(WordsOf(run.output), hw);
  run = CompileAndRun(FloatMean({-1}, {1, 3, 4}, false), Bytes(x));
  ASSERT_EQ(run.error, "");
  EXPECT_EQ(WordsOf(run.output), last);
}

/// TFLite's ComputeInterpolationValues for output index `i`: {lo, hi,
/// scaled - lo}, every operation rounded to float.
struct Interp {
  std::int32_t lo, hi;
  float frac;
};
Interp InterpolationAt(std::int32_t i, std::int32_t in, float scale,
                       bool half_pixel) {
  const float v = static_cast<float>(i);
  const float scaled =
      half_pixel ? SubF(MulF(AddF(v, 0.5f), scale), 0.5f) : MulF(v, scale);
  const std::int32_t lo =
      std::max(static_cast<std::int32_t>(std::floor(scaled)), 0);
  const std::int32_t hi =
      std::min(static_cast<std::int32_t>(std::ceil(scaled)), in - 1);
  return {lo, hi, SubF(scaled, static_cast<float>(lo))};
}

TEST(LowerFloatOps, ResizesBilinearlyInTflitesFloatArithmetic) {
  // [1, 3, 4, 2] -> [1, 5, 7, 2] three ways: default, align_corners,
  // half_pixel_centers. Expected: reference ResizeBilinear<float>'s sum of
  // four products left to right, plus 0.0f.
  const auto x = RandomFloats(24, 26);
  for (const int mode : {0, 1, 2}) {
    const bool align = mode == 1, half = mode == 2;
    OneOpModel m;
    m.name = "resize_bilinear_f32";
    m.tensors = {TensorSpec{{1, 3, 4, 2}, kF32, 0.0f, 0, {}},
                 TensorSpec{{2}, 2, 0.0f, 0, Bytes(std::vector{5, 7})},
                 TensorSpec{{1, 5, 7, 2}, kF32, 0.0f, 0, {}}};
    m.graph_inputs = {0};
    m.graph_outputs = {2};
    m.op = tflite::BuiltinOp::kResizeBilinear;
    m.op_inputs = {0, 1};
    m.op_outputs = {2};
    m.options = [align, half](flatbuffers::FlatBufferBuilder& fbb) {
      return std::pair{
          fb::BuiltinOptions::ResizeBilinearOptions,
          fb::CreateResizeBilinearOptions(fbb, align, half).Union()};
    };
    const auto run = CompileAndRun(m, Bytes(x));
    ASSERT_EQ(run.error, "") << mode;
    const float hs = align ? DivF(2.0f, 4.0f) : DivF(3.0f, 5.0f);
    const float ws = align ? DivF(3.0f, 6.0f) : DivF(4.0f, 7.0f);
    auto at = [&](std::int32_t y, std::int32_t xx, std::int32_t c) {
      return x[static_cast<std::size_t>((y * 4 + xx) * 2 + c)];
    };
    std::vector<std::uint32_t> expect;
    for (std::int32_t y = 0; y < 5; ++y) {
      const Interp iy = InterpolationAt(y, 3, hs, half);
      for (std::int32_t xx = 0; xx < 7; ++xx) {
        const Interp ix = InterpolationAt(xx, 4, ws, half);
        const float ry = SubF(1.0f, iy.frac), rx = SubF(1.0f, ix.frac);
        for (std::int32_t c = 0; c < 2; ++c) {
          float v = MulF(MulF(at(iy.lo, ix.lo, c), ry), rx);
          v = AddF(v, MulF(MulF(at(iy.hi, ix.lo, c), iy.frac), rx));
          v = AddF(v, MulF(MulF(at(iy.lo, ix.hi, c), ry), ix.frac));
          v = AddF(v, MulF(MulF(at(iy.hi, ix.hi, c), iy.frac), ix.frac));
          expect.push_back(Bits(AddF(v, 0.0f)));
        }
      }
    }
    EXPECT_EQ(WordsOf(run.output), expect) << mode;
  }
}

TEST(LowerFloatOps, TransposeConvolvesAsTflitesScatter) {
  // Input [1, 3, 3, 3] -> output [1, 5, 5, 2], filter [2, 3, 3, 3], SAME
  // stride 2 (padding 1 before), bias, RELU6. Expected: TFLite's
  // reference TransposeConv(float) done here as it is written (a scatter
  // into a zeroed output in input order, then bias and clamp).
  const auto x = RandomFloats(27, 27);
  const auto f = RandomFloats(54, 28);
  const auto bias = RandomFloats(2, 29);
  OneOpModel m;
  m.name = "transpose_conv_f32";
  m.tensors = {TensorSpec{{4}, 2, 0.0f, 0, Bytes(std::vector{1, 5, 5, 2})},
               TensorSpec{{2, 3, 3, 3}, kF32, 0.0f, 0, Bytes(f)},
               TensorSpec{{1, 3, 3, 3}, kF32, 0.0f, 0, {}},
               TensorSpec{{2}, kF32, 0.0f, 0, Bytes(bias)},
               TensorSpec{{1, 5, 5, 2}, kF32, 0.0f, 0, {}}};
  m.graph_inputs = {2};
  m.graph_outputs = {4};
  m.op = tflite::BuiltinOp::kTransposeConv;
  m.op_inputs = {0, 1, 2, 3};
  m.op_outputs = {4};
  m.options = [](flatbuffers::FlatBufferBuilder& fbb) {
    return std::pair{fb::BuiltinOptions::TransposeConvOptions,
                     fb::CreateTransposeConvOptions(fbb, 0, 2, 2, 3).Union()};
  };
  const auto run = CompileAndRun(m, Bytes(x));
  ASSERT_EQ(run.error, "");
  std::vector<float> out(50, 0.0f);
  for (int iy = 0; iy < 3; ++iy)
    for (int ix = 0; ix < 3; ++ix)
      for (int ic = 0; ic < 3; ++ic)
        for (int ky = 0; ky < 3; ++ky)
          for (int kx = 0; kx < 3; ++kx)
            for (int oc = 0; oc < 2; ++oc) {
              const int oy = iy * 2 - 1 + ky, ox = ix * 2 - 1 + kx;
              if (oy < 0 || oy >= 5 || ox < 0 || ox >= 5) continue;
              float& o = out[static_cast<std::size_t>((oy * 5 + ox) * 2 + oc)];
              o = AddF(o,
                       MulF(x[static_cast<std::size_t>((iy * 3 + ix) * 3 + ic)],
                            f[static_cast<std::size_t>(
                                ((oc * 3 + ky) * 3 + kx) * 3 + ic)]));
            }
  std::vector<std::uint32_t> expect;
  for (std::size_t i = 0; i < out.size(); ++i) {
    expect.push_back(Bits(ClampF(AddF(out[i], bias[i % 2]), 0.0f, 6.0f)));
  }
  EXPECT_EQ(WordsOf(run.output), expect);
}

}  // namespace
