// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// float32 operators through `compile` end to end, compared bit for bit:
// TFLM's hello_world_float against the bytes TFLM's reference kernels
// give, and against a second computation here; one-operator models whose
// float constants the generated code must hold exactly (subnormals, -0.0,
// FLT_MAX, infinities); CONV_2D, DEPTHWISE_CONV_2D, ADD, RELU, PAD and
// PADV2 on random floats; face_detection_short_range (its FLOAT16
// constants widened at generation time) against the SHA-256 of TFLM's
// output; and the type table's refusals.
//
// The computation here is tests/host/support/float_oracle.hpp's (every
// operation formed in double and rounded to float: TFLite's float
// arithmetic whatever the host's contraction setting), in TFLite's order
// (reference FullyConnected: the sum over the input in order, then the
// bias, then the activation's min(max())).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "codegen/emit/sha256.hpp"
#include "codegen/tflite/model.hpp"
#include "tests/host/support/float_oracle.hpp"
#include "tests/host/support/op_model.hpp"

namespace {

using arenaplan::testing_util::AddF;
using arenaplan::testing_util::Bits;
using arenaplan::testing_util::Bytes;
using arenaplan::testing_util::ClampF;
using arenaplan::testing_util::CompileAndRun;
using arenaplan::testing_util::CompileAndRunBytes;
using arenaplan::testing_util::CompileError;
using arenaplan::testing_util::FromBits;
using arenaplan::testing_util::MulF;
using arenaplan::testing_util::OneOpModel;
using arenaplan::testing_util::RandomFloats;
using arenaplan::testing_util::TensorSpec;
using arenaplan::testing_util::WordsOf;
namespace fb = arenaplan::tflite::fb;
namespace tflite = arenaplan::tflite;

using arenaplan::testing_util::kF32;
using arenaplan::testing_util::kI16;
using arenaplan::testing_util::kI8;
constexpr float kMax = std::numeric_limits<float>::max();
constexpr float kInf = std::numeric_limits<float>::infinity();

/// The float32 data of constant tensor `t` of subgraph 0.
std::vector<float> Floats(const tflite::Model& m, std::int32_t t) {
  const auto& tensor = m.subgraphs[0].tensors[static_cast<std::size_t>(t)];
  const auto& data = m.buffers[tensor.buffer].data;
  std::vector<float> v(data.size() / 4);
  std::memcpy(v.data(), data.data(), v.size() * 4);
  return v;
}

/// hello_world_float by hand: three FULLY_CONNECTED layers (weights
/// [16,1], [16,16], [1,16]; RELU, RELU, NONE) read from the model's file.
float HelloWorldByHand(const tflite::Model& m, float x) {
  std::vector<float> act = {x};
  for (const auto& op : m.subgraphs[0].operators) {
    const std::vector<float> w = Floats(m, op.inputs[1]);
    const std::vector<float> b = Floats(m, op.inputs[2]);
    const auto& o = std::get<tflite::FullyConnectedOptions>(op.options);
    const bool relu = o.activation == tflite::Activation::kRelu;
    const std::size_t depth = act.size(), units = b.size();
    std::vector<float> next(units);
    for (std::size_t u = 0; u < units; ++u) {
      float total = 0.0f;
      for (std::size_t i = 0; i < depth; ++i) {
        total = AddF(total, MulF(act[i], w[u * depth + i]));
      }
      next[u] = ClampF(AddF(total, b[u]), relu ? 0.0f : -kMax, kMax);
    }
    act = next;
  }
  return act.at(0);
}

// Inputs and outputs of hello_world_float as IEEE single bits
// (little-endian words). The outputs are TFLM's: its host runner built
// from TFLM 90b983c2 with the reference kernels (run_model
// hello_world_float.tflite IN.bin OUT.bin, one inference per input, 4
// input bytes each: the floats nearest 0, 1, 1.5707963, 3, 5, 6.2831853
// and -1).
struct Case {
  std::uint32_t in, tflm_out;
};
constexpr Case kHelloWorld[] = {
    {0x00000000u, 0x3cd84fe8u}, {0x3f800000u, 0x3f5cf06du},
    {0x3fc90fdau, 0x3f7ee45fu}, {0x40400000u, 0x3e02b5a4u},
    {0x40a00000u, 0xbf74de6au}, {0x40c90fdbu, 0xbd214064u},
    {0xbf800000u, 0xbf862e9au},
};

TEST(LowerFloat, RunsHelloWorldFloatBitExactWithTflm) {
  const std::string path =
      arenaplan::testing_util::kModels + "hello_world_float.tflite";
  const std::string file = arenaplan::testing_util::ReadFile(path);
  const std::vector<std::uint8_t> bytes(file.begin(), file.end());
  const tflite::Model model = tflite::ReadModelFile(path);
  // The second method agrees with TFLM on every case.
  for (const Case& c : kHelloWorld) {
    EXPECT_EQ(Bits(HelloWorldByHand(model, FromBits(c.in))), c.tflm_out)
        << std::hex << c.in;
  }
  // The model as TFLM runs it (its input's dynamic batch planned as 1),
  // one inference per case.
  arenaplan::compile::CompileOptions options;
  options.input.assume_dim = 1;
  for (const Case& c : kHelloWorld) {
    const auto run =
        CompileAndRunBytes(bytes, path, Bytes(std::vector{c.in}), options);
    ASSERT_EQ(run.error, "");
    EXPECT_EQ(WordsOf(run.output), std::vector<std::uint32_t>{c.tflm_out})
        << std::hex << c.in;
  }
}

/// FULLY_CONNECTED of float32 tensors: input [rows, depth] -> [rows,
/// units], constant weights and (optional) bias, fused `activation`.
OneOpModel FloatFc(const std::vector<float>& w, const std::vector<float>& b,
                   std::int32_t rows, std::int32_t depth, std::int32_t units,
                   tflite::Activation activation) {
  OneOpModel m;
  m.name = "fc_f32";
  m.tensors = {TensorSpec{{rows, depth}, kF32, 0.0f, 0, {}},
               TensorSpec{{units, depth}, kF32, 0.0f, 0, Bytes(w)},
               TensorSpec{{rows, units}, kF32, 0.0f, 0, {}}};
  m.op_inputs = {0, 1};
  if (!b.empty()) {
    m.tensors.push_back(TensorSpec{{units}, kF32, 0.0f, 0, Bytes(b)});
    m.op_inputs.push_back(3);
  }
  m.graph_inputs = {0};
  m.graph_outputs = {2};
  m.op = tflite::BuiltinOp::kFullyConnected;
  m.op_outputs = {2};
  const auto act = static_cast<std::int8_t>(activation);
  m.options = [act](flatbuffers::FlatBufferBuilder& fbb) {
    return std::pair{fb::BuiltinOptions::FullyConnectedOptions,
                     fb::CreateFullyConnectedOptions(fbb, act).Union()};
  };
  return m;
}

/// TFLite's FullyConnected(float) by hand (header comment).
std::vector<std::uint32_t> FcByHand(const std::vector<float>& in,
                                    const std::vector<float>& w,
                                    const std::vector<float>& b,
                                    std::size_t depth, float lo, float hi) {
  const std::size_t units = w.size() / depth, rows = in.size() / depth;
  std::vector<std::uint32_t> out;
  for (std::size_t r = 0; r < rows; ++r) {
    for (std::size_t u = 0; u < units; ++u) {
      float total = 0.0f;
      for (std::size_t i = 0; i < depth; ++i) {
        total = AddF(total, MulF(in[r * depth + i], w[u * depth + i]));
      }
      out.push_back(Bits(ClampF(AddF(total, b.empty() ? 0.0f : b[u]), lo, hi)));
    }
  }
  return out;
}

TEST(LowerFloat, KeepsEveryFloatConstantExact) {
  // Units of depth 2 against input rows {1, 0} and {0.5, -2}: each
  // weight's first column reaches the output unchanged in row 0 (times 1,
  // plus 0, plus a zero bias): the smallest subnormal, the largest
  // subnormal, -0.0 (0 + -0 = +0), FLT_MAX, the float next to 1, +-inf
  // (clamped to +-FLT_MAX under NONE), and 0.1f (no decimal rounding).
  const float sub_min = FromBits(0x00000001u), sub_max = FromBits(0x007fffffu);
  const float next1 = FromBits(0x3f800001u);
  const std::vector<float> w = {sub_min, 3,     sub_max, -1,     -0.0f, 2,
                                kMax,    0.25f, next1,   -next1, kInf,  1,
                                -kInf,   1,     0.1f,    0.7f};
  const std::vector<float> b = {0, 0, 0, 0, 0, 0, 0, -0.0f};
  const std::vector<float> in = {1, 0, 0.5f, -2};
  const OneOpModel m = FloatFc(w, b, 2, 2, 8, tflite::Activation::kNone);
  const auto run = CompileAndRun(m, Bytes(in));
  ASSERT_EQ(run.error, "");
  const auto out = WordsOf(run.output);
  EXPECT_EQ(out, FcByHand(in, w, b, 2, -kMax, kMax));
  // Row 0 by hand: the constants themselves.
  ASSERT_EQ(out.size(), 16u);
  EXPECT_EQ(out[0], 0x00000001u);
  EXPECT_EQ(out[1], 0x007fffffu);
  EXPECT_EQ(out[2], 0x00000000u);
  EXPECT_EQ(out[3], Bits(kMax));
  EXPECT_EQ(out[4], 0x3f800001u);
  EXPECT_EQ(out[5], Bits(kMax));
  EXPECT_EQ(out[6], Bits(-kMax));
  EXPECT_EQ(out[7], Bits(0.1f));
}

TEST(LowerFloat, ClampsWithTheFusedActivationsFloatBounds) {
  // Depth 3, no bias, RELU6 and RELU; 2 rows x 3 units, random values.
  const std::vector<float> w = {0.37f,   -1.5f, 2.25f, 4,    1,
                                -0.125f, -3,    0.5f,  0.75f};
  const std::vector<float> in = {1.5f, -0.3f, 2.7f, -1.1f, 0.9f, 3.3f};
  for (const auto a : {tflite::Activation::kRelu6, tflite::Activation::kRelu,
                       tflite::Activation::kReluN1To1}) {
    const OneOpModel m = FloatFc(w, {}, 2, 3, 3, a);
    const auto run = CompileAndRun(m, Bytes(in));
    ASSERT_EQ(run.error, "");
    const float lo = a == tflite::Activation::kReluN1To1 ? -1.0f : 0.0f;
    const float hi = a == tflite::Activation::kRelu6  ? 6.0f
                     : a == tflite::Activation::kRelu ? kMax
                                                      : 1.0f;
    EXPECT_EQ(WordsOf(run.output), FcByHand(in, w, {}, 3, lo, hi))
        << static_cast<int>(a);
  }
}

/// One convolution's geometry for ConvByHand: NHWC sizes (batch 1),
/// filter taps, strides, padding before, dilation, depth multiplier (0:
/// CONV_2D).
struct ConvCase {
  std::int32_t h, w, c, kh, kw, oh, ow, oc, stride, pad_h, pad_w, dilation,
      multiplier;
};

/// TFLite's reference Conv / DepthwiseConv (float) by hand: for each
/// output element the taps inside the input in (ky, kx[, ic]) order, then
/// the bias, then the clamp.
std::vector<std::uint32_t> ConvByHand(const ConvCase& k,
                                      const std::vector<float>& in,
                                      const std::vector<float>& f,
                                      const std::vector<float>& b, float lo,
                                      float hi) {
  std::vector<std::uint32_t> out;
  for (std::int32_t y = 0; y < k.oh; ++y)
    for (std::int32_t x = 0; x < k.ow; ++x)
      for (std::int32_t oc = 0; oc < k.oc; ++oc) {
        float total = 0.0f;
        for (std::int32_t ky = 0; ky < k.kh; ++ky)
          for (std::int32_t kx = 0; kx < k.kw; ++kx) {
            const std::int32_t iy = y * k.stride - k.pad_h + ky * k.dilation;
            const std::int32_t ix = x * k.stride - k.pad_w + kx * k.dilation;
            if (iy < 0 || iy >= k.h || ix < 0 || ix >= k.w) continue;
            const float* px =
                &in[static_cast<std::size_t>((iy * k.w + ix) * k.c)];
            if (k.multiplier > 0) {
              total = AddF(total, MulF(px[oc / k.multiplier],
                                       f[static_cast<std::size_t>(
                                           (ky * k.kw + kx) * k.oc + oc)]));
            } else {
              for (std::int32_t ic = 0; ic < k.c; ++ic) {
                total =
                    AddF(total,
                         MulF(px[ic],
                              f[static_cast<std::size_t>(
                                  ((oc * k.kh + ky) * k.kw + kx) * k.c + ic)]));
              }
            }
          }
        out.push_back(Bits(ClampF(
            AddF(total, b.empty() ? 0.0f : b[static_cast<std::size_t>(oc)]), lo,
            hi)));
      }
  return out;
}

/// A float convolution model of case `k` (options: padding 0 SAME / 1
/// VALID, activation `a`).
OneOpModel FloatConv(const ConvCase& k, const std::vector<float>& f,
                     const std::vector<float>& b, std::int8_t padding,
                     tflite::Activation a) {
  OneOpModel m;
  m.name = k.multiplier > 0 ? "dwconv_f32" : "conv_f32";
  const std::vector<std::int32_t> fshape =
      k.multiplier > 0 ? std::vector{1, k.kh, k.kw, k.oc}
                       : std::vector{k.oc, k.kh, k.kw, k.c};
  m.tensors = {TensorSpec{{1, k.h, k.w, k.c}, kF32, 0.0f, 0, {}},
               TensorSpec{fshape, kF32, 0.0f, 0, Bytes(f)},
               TensorSpec{{1, k.oh, k.ow, k.oc}, kF32, 0.0f, 0, {}}};
  m.op_inputs = {0, 1};
  if (!b.empty()) {
    m.tensors.push_back(TensorSpec{{k.oc}, kF32, 0.0f, 0, Bytes(b)});
    m.op_inputs.push_back(3);
  }
  m.graph_inputs = {0};
  m.graph_outputs = {2};
  m.op_outputs = {2};
  const auto act = static_cast<std::int8_t>(a);
  if (k.multiplier > 0) {
    m.op = tflite::BuiltinOp::kDepthwiseConv2D;
    m.options = [k, padding, act](flatbuffers::FlatBufferBuilder& fbb) {
      return std::pair{fb::BuiltinOptions::DepthwiseConv2DOptions,
                       fb::CreateDepthwiseConv2DOptions(
                           fbb, padding, k.stride, k.stride, k.multiplier, act,
                           k.dilation, k.dilation)
                           .Union()};
    };
  } else {
    m.op = tflite::BuiltinOp::kConv2D;
    m.options = [k, padding, act](flatbuffers::FlatBufferBuilder& fbb) {
      return std::pair{fb::BuiltinOptions::Conv2DOptions,
                       fb::CreateConv2DOptions(fbb, padding, k.stride, k.stride,
                                               act, k.dilation, k.dilation)
                           .Union()};
    };
  }
  return m;
}

TEST(LowerFloat, ConvolvesAsTflitesReferenceKernels) {
  // CONV_2D 5x6x3 -> 3x3x4, 3x3 SAME stride 2: total padding 2 rows (1
  // before), 1 column (0 before); bias; RELU6.
  const ConvCase conv{5, 6, 3, 3, 3, 3, 3, 4, 2, 1, 0, 1, 0};
  const auto in = RandomFloats(5 * 6 * 3, 1);
  const auto f = RandomFloats(4 * 3 * 3 * 3, 2);
  const auto b = RandomFloats(4, 3);
  auto run = CompileAndRun(FloatConv(conv, f, b, 0, tflite::Activation::kRelu6),
                           Bytes(in));
  ASSERT_EQ(run.error, "");
  EXPECT_EQ(WordsOf(run.output), ConvByHand(conv, in, f, b, 0.0f, 6.0f));
  // CONV_2D 5x6x3 -> 1x2x2, 3x3 VALID dilated 2, no bias, NONE.
  const ConvCase dilated{5, 6, 3, 3, 3, 1, 2, 2, 1, 0, 0, 2, 0};
  const auto f2 = RandomFloats(2 * 3 * 3 * 3, 4);
  run = CompileAndRun(FloatConv(dilated, f2, {}, 1, tflite::Activation::kNone),
                      Bytes(in));
  ASSERT_EQ(run.error, "");
  EXPECT_EQ(WordsOf(run.output), ConvByHand(dilated, in, f2, {}, -kMax, kMax));
  // DEPTHWISE_CONV_2D 4x4x2 -> 4x4x4 (multiplier 2), 3x3 SAME stride 1
  // (padding 1 before), bias, RELU.
  const ConvCase dw{4, 4, 2, 3, 3, 4, 4, 4, 1, 1, 1, 1, 2};
  const auto din = RandomFloats(4 * 4 * 2, 5);
  const auto df = RandomFloats(3 * 3 * 4, 6);
  const auto db = RandomFloats(4, 7);
  run = CompileAndRun(FloatConv(dw, df, db, 0, tflite::Activation::kRelu),
                      Bytes(din));
  ASSERT_EQ(run.error, "");
  EXPECT_EQ(WordsOf(run.output), ConvByHand(dw, din, df, db, 0.0f, kMax));
}

TEST(LowerFloat, AddsReluAndPadsFloatTensors) {
  // ADD [1, 2, 3, 4] + constant [4] (broadcast), RELU_N1_TO_1.
  OneOpModel add;
  add.name = "add_f32";
  const auto a = RandomFloats(24, 8), c = RandomFloats(4, 9);
  add.tensors = {TensorSpec{{1, 2, 3, 4}, kF32, 0.0f, 0, {}},
                 TensorSpec{{4}, kF32, 0.0f, 0, Bytes(c)},
                 TensorSpec{{1, 2, 3, 4}, kF32, 0.0f, 0, {}}};
  add.graph_inputs = {0};
  add.graph_outputs = {2};
  add.op = tflite::BuiltinOp::kAdd;
  add.op_inputs = {0, 1};
  add.op_outputs = {2};
  add.options = [](flatbuffers::FlatBufferBuilder& fbb) {
    return std::pair{fb::BuiltinOptions::AddOptions,
                     fb::CreateAddOptions(fbb, 2).Union()};  // RELU_N1_TO_1
  };
  auto run = CompileAndRun(add, Bytes(a));
  ASSERT_EQ(run.error, "");
  std::vector<std::uint32_t> expect;
  for (std::size_t i = 0; i < a.size(); ++i) {
    expect.push_back(Bits(ClampF(AddF(a[i], c[i % 4]), -1.0f, 1.0f)));
  }
  EXPECT_EQ(WordsOf(run.output), expect);
  // RELU [2, 3]: negatives (and -0.0 kept) to 0, no upper bound.
  OneOpModel relu;
  relu.name = "relu_f32";
  relu.tensors = {TensorSpec{{2, 3}, kF32, 0.0f, 0, {}},
                  TensorSpec{{2, 3}, kF32, 0.0f, 0, {}}};
  relu.graph_inputs = {0};
  relu.graph_outputs = {1};
  relu.op = tflite::BuiltinOp::kRelu;
  relu.op_inputs = {0};
  relu.op_outputs = {1};
  const std::vector<float> r = {-1.5f, 0.25f, -0.0f, 3e38f, kInf, -kInf};
  run = CompileAndRun(relu, Bytes(r));
  ASSERT_EQ(run.error, "");
  EXPECT_EQ(WordsOf(run.output),
            (std::vector<std::uint32_t>{0u, Bits(0.25f), 0x80000000u,
                                        Bits(3e38f), Bits(kInf), 0u}));
  // PAD [1, 2, 2, 1] by one row before and one column after: 0.0f; PADV2
  // with a constant -1.5f.
  for (const bool v2 : {false, true}) {
    OneOpModel pad;
    pad.name = v2 ? "padv2_f32" : "pad_f32";
    pad.tensors = {
        TensorSpec{{1, 2, 2, 1}, kF32, 0.0f, 0, {}},
        TensorSpec{
            {4, 2}, 2, 0.0f, 0, Bytes(std::vector{0, 0, 1, 0, 0, 1, 0, 0})},
        TensorSpec{{1, 3, 3, 1}, kF32, 0.0f, 0, {}},
        TensorSpec{{1}, kF32, 0.0f, 0, Bytes(std::vector{-1.5f})}};
    pad.graph_inputs = {0};
    pad.graph_outputs = {2};
    pad.op = v2 ? tflite::BuiltinOp::kPadv2 : tflite::BuiltinOp::kPad;
    pad.op_inputs = v2 ? std::vector{0, 1, 3} : std::vector{0, 1};
    pad.op_outputs = {2};
    run = CompileAndRun(pad, Bytes(std::vector{1.0f, 2.0f, 3.0f, 4.0f}));
    ASSERT_EQ(run.error, "") << pad.name;
    const float p = v2 ? -1.5f : 0.0f;
    EXPECT_EQ(
        WordsOf(run.output),
        (std::vector<std::uint32_t>{Bits(p), Bits(p), Bits(p), Bits(1), Bits(2),
                                    Bits(p), Bits(3), Bits(4), Bits(p)}))
        << pad.name;
  }
}

TEST(LowerFloat, RunsFaceDetectionAsTflmRunsItWidened) {
  // Input [1, 128, 128, 3]: element i is ((37 i) mod 256) / 128 - 1. TFLM
  // refuses the model (DEQUANTIZE of FLOAT16); the expected SHA-256 is of
  // TFLM's output bytes (both outputs, [1,896,16] then [1,896,1], 60,928
  // bytes) for the same model with its 74 FLOAT16 constants widened to
  // FLOAT32 by GCC's _Float16 conversion and the DEQUANTIZEs removed, run
  // by TFLM's host runner (90b983c2, reference kernels) on this input.
  const std::string path =
      arenaplan::testing_util::kModels + "face_detection_short_range.tflite";
  const std::string file = arenaplan::testing_util::ReadFile(path);
  std::vector<float> in(128 * 128 * 3);
  for (std::size_t i = 0; i < in.size(); ++i) {
    in[i] = static_cast<float>((i * 37) % 256) / 128.0f - 1.0f;
  }
  const auto run =
      CompileAndRunBytes(std::vector<std::uint8_t>(file.begin(), file.end()),
                         path, Bytes(in), arenaplan::compile::CompileOptions{});
  ASSERT_EQ(run.error, "");
  ASSERT_EQ(run.output.size(), 60928u);
  EXPECT_EQ(
      arenaplan::Sha256Hex(std::string_view(
          reinterpret_cast<const char*>(run.output.data()), run.output.size())),
      "770c0eb5c25f4c96f76814252a05d045504330c85cb0eb48e6788a034061f95a");
}

TEST(LowerFloat, RefusesNanConstantsAndOtherTypeMixes) {
  // A NaN weight: named with its element.
  const float nan = std::numeric_limits<float>::quiet_NaN();
  EXPECT_NE(
      CompileError(FloatFc({1, nan}, {}, 1, 2, 1, tflite::Activation::kNone))
          .find("operator 0 (FULLY_CONNECTED): tensor 1 't1': element "
                "1 is NaN"),
      std::string::npos)
      << CompileError(
             FloatFc({1, nan}, {}, 1, 2, 1, tflite::Activation::kNone));
  // Float input with int8 weights (TFLM's hybrid form, which it refuses).
  OneOpModel hybrid = FloatFc({1, 2}, {}, 1, 2, 1, tflite::Activation::kNone);
  hybrid.tensors[1] = TensorSpec{{1, 2}, kI8, 0.5f, 0, {1, 2}};
  EXPECT_NE(CompileError(hybrid).find(
                "weights tensor 1 't1' is INT8; FULLY_CONNECTED accepts "
                "(input, weights, output) as (INT8, INT8, INT8), (INT16, INT8, "
                "INT16), (FLOAT32, FLOAT32, FLOAT32)"),
            std::string::npos)
      << CompileError(hybrid);
  // int16 activations take int8 weights only (the table's (INT16, INT8,
  // INT16) line): float weights are refused, named.
  OneOpModel wide = FloatFc({1, 2}, {}, 1, 2, 1, tflite::Activation::kNone);
  wide.tensors[0] = TensorSpec{{1, 2}, kI16, 0.5f, 0, {}};
  EXPECT_NE(CompileError(wide).find("weights tensor 1 't1' is FLOAT32"),
            std::string::npos)
      << CompileError(wide);
  // A fused TANH: refused (TFLite's float range would ignore it).
  EXPECT_NE(
      CompileError(FloatFc({1, 2}, {}, 1, 2, 1, tflite::Activation::kTanh))
          .find("fused activation 4 is not supported"),
      std::string::npos);
  // A float bias of another type.
  OneOpModel int_bias =
      FloatFc({1, 2}, {0.5f}, 1, 2, 1, tflite::Activation::kNone);
  int_bias.tensors[3] = TensorSpec{{1}, 2, 0.0f, 0, Bytes(std::vector{7})};
  EXPECT_NE(CompileError(int_bias).find("bias tensor 3 't3' is INT32; "
                                        "expected FLOAT32"),
            std::string::npos)
      << CompileError(int_bias);
}

}  // namespace
