// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// Dilated CONV_2D and DEPTHWISE_CONV_2D through `compile` end to end, with
// a second method for the expected bytes: a convolution with kh x kw taps
// dilated dh x dw equals, exactly in integer arithmetic, the undilated
// convolution with the zero-inserted filter of (kh - 1) * dh + 1 x
// (kw - 1) * dw + 1 taps (a zero tap adds (x - zero_point) * 0 = 0; SAME
// padding comes from the same effective size). Each model built here holds
// both forms side by side, reading the same input; compiled, built with the
// host compiler and run, the two outputs must be equal byte for byte. The
// cases: dilations 1 .. 4, strides 1 .. 3, SAME and VALID, per-channel
// filter scales, nonzero zero points, depth multipliers 1 and 2 and a
// one-channel depthwise with multiplier 4, Keras' 1x2-dilated Conv1D shape
// ([1, 1, W, C] input, 1 x k taps), windows of more than 256 bytes, depthwise
// windows of more than 25 taps (zero-inserted: the reference kernel), with
// and without a bias. A chain of three dilated operators runs compiled with
// --fuse and with --overlap against the zero-inserted chain compiled plainly.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "codegen/compile/generate.hpp"
#include "codegen/tflite/model.hpp"
#include "tests/host/support/model_builder.hpp"
#include "tests/host/support/op_model.hpp"

namespace {

namespace tflite = arenaplan::tflite;
using arenaplan::testing_util::CompileAndRunBytes;
using arenaplan::testing_util::ModelBuilder;
using arenaplan::testing_util::RunOptions;
using arenaplan::testing_util::SerializeModel;

struct ConvCase {
  bool depthwise;
  std::int32_t ih, iw, ic, kh, kw, dh, dw, sh, sw;
  bool same;
  std::int32_t oc_or_dm;  ///< Output channels (CONV_2D) or multiplier.
  tflite::Activation activation;
  bool bias;
};

/// TFLite's output extent over the effective window `span`.
std::int32_t OutExtent(std::int32_t in, std::int32_t span, std::int32_t stride,
                       bool same) {
  return same ? (in + stride - 1) / stride : (in - span + stride) / stride;
}

/// Input quantization 0.05, zero point -7; outputs 0.1, zero point 4
/// unless the chain passes its own.
constexpr float kInScale = 0.05f, kOutScale = 0.1f;
constexpr std::int64_t kInZero = -7, kOutZero = 4;

/// Adds operator(s) for case `c` reading `x`: the dilated form when
/// `dilated`, else the zero-inserted form (the same weights); returns the
/// output tensor.
std::int32_t AddConv(ModelBuilder& b, const ConvCase& c, std::int32_t x,
                     bool dilated, unsigned seed, float out_scale = kOutScale,
                     std::int64_t out_zero = kOutZero) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> byte(-127, 127);
  const std::int32_t oc = c.depthwise ? c.ic * c.oc_or_dm : c.oc_or_dm;
  const std::int32_t fn = c.depthwise ? 1 : oc, fc = c.depthwise ? oc : c.ic;
  const std::int32_t span_h = (c.kh - 1) * c.dh + 1,
                     span_w = (c.kw - 1) * c.dw + 1;
  // Filter [fn, kh, kw, fc], then laid out at (ky * dh, kx * dw) of the
  // zero-inserted [fn, span_h, span_w, fc] when not dilated.
  std::vector<std::int8_t> w(static_cast<std::size_t>(fn * c.kh * c.kw * fc));
  for (auto& v : w) v = static_cast<std::int8_t>(byte(rng));
  const std::int32_t th = dilated ? c.kh : span_h, tw = dilated ? c.kw : span_w;
  std::vector<std::uint8_t> bytes(static_cast<std::size_t>(fn * th * tw * fc),
                                  0);
  for (std::int32_t n = 0; n < fn; ++n) {
    for (std::int32_t y = 0; y < c.kh; ++y) {
      for (std::int32_t x2 = 0; x2 < c.kw; ++x2) {
        for (std::int32_t k = 0; k < fc; ++k) {
          const std::int32_t ty = dilated ? y : y * c.dh,
                             tx = dilated ? x2 : x2 * c.dw;
          bytes[static_cast<std::size_t>(((n * th + ty) * tw + tx) * fc + k)] =
              static_cast<std::uint8_t>(w[static_cast<std::size_t>(
                  ((n * c.kh + y) * c.kw + x2) * fc + k)]);
        }
      }
    }
  }
  const std::int32_t filter =
      b.Constant({fn, th, tw, fc}, tflite::TensorType::kInt8, bytes);
  tflite::Quantization& q =
      b.graph().tensors[static_cast<std::size_t>(filter)].quantization;
  q.scale.clear();
  for (std::int32_t k = 0; k < oc; ++k) {
    q.scale.push_back(0.004f + 0.0007f * static_cast<float>(k % 7));
  }
  q.zero_point.assign(static_cast<std::size_t>(oc), 0);
  q.quantized_dimension = c.depthwise ? 3 : 0;
  std::vector<std::int32_t> inputs = {x, filter};
  if (c.bias) {
    std::vector<std::int32_t> bias;
    for (std::int32_t k = 0; k < oc; ++k) {
      bias.push_back(std::uniform_int_distribution<int>(-2000, 2000)(rng));
    }
    inputs.push_back(b.Int32Constant(bias));
  }
  const std::int32_t oh = OutExtent(c.ih, span_h, c.sh, c.same),
                     ow = OutExtent(c.iw, span_w, c.sw, c.same);
  const std::int32_t y =
      b.Tensor({1, oh, ow, oc}, tflite::TensorType::kInt8, out_scale, out_zero);
  tflite::DepthwiseConv2DOptions o;
  o.padding = c.same ? tflite::Padding::kSame : tflite::Padding::kValid;
  o.stride_h = c.sh, o.stride_w = c.sw;
  o.dilation_h = dilated ? c.dh : 1, o.dilation_w = dilated ? c.dw : 1;
  o.activation = c.activation;
  o.depth_multiplier = c.oc_or_dm;
  if (c.depthwise) {
    b.Op(tflite::BuiltinOp::kDepthwiseConv2D, inputs, {y}, o);
  } else {
    b.Op(tflite::BuiltinOp::kConv2D, inputs, {y},
         static_cast<tflite::Conv2DOptions>(o));
  }
  return y;
}

/// Output bytes of case `c` (batch 1).
std::size_t OutBytes(const ConvCase& c) {
  const std::int32_t oc = c.depthwise ? c.ic * c.oc_or_dm : c.oc_or_dm;
  return static_cast<std::size_t>(
      OutExtent(c.ih, (c.kh - 1) * c.dh + 1, c.sh, c.same) *
      OutExtent(c.iw, (c.kw - 1) * c.dw + 1, c.sw, c.same) * oc);
}

std::vector<std::uint8_t> RandomBytes(std::size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::vector<std::uint8_t> v(n);
  for (auto& b : v) {
    b = static_cast<std::uint8_t>(
        std::uniform_int_distribution<int>(0, 255)(rng));
  }
  return v;
}

constexpr auto kNone = tflite::Activation::kNone,
               kRelu = tflite::Activation::kRelu,
               kRelu6 = tflite::Activation::kRelu6;

TEST(LowerDilatedConv, MatchesTheZeroInsertedFilterEndToEnd) {
  const ConvCase cases[] = {
      // CONV_2D: gathered windows, a window of 360 bytes (tap by tap),
      // output channels not a multiple of four.
      {false, 9, 9, 3, 3, 3, 2, 2, 1, 1, true, 8, kRelu, true},
      {false, 13, 11, 4, 3, 3, 3, 2, 2, 2, false, 6, kNone, false},
      {false, 12, 12, 40, 3, 3, 4, 4, 3, 3, true, 5, kRelu6, true},
      {false, 10, 7, 2, 2, 3, 1, 3, 1, 2, true, 4, kNone, true},
      // Keras' dilated Conv1D: [1, 1, W, C], 1 x 3 taps, dilation 1x2
      // ('same') and 1x4 ('causal' after its explicit PAD: VALID).
      {false, 1, 16, 8, 1, 3, 1, 2, 1, 1, true, 8, kRelu, true},
      {false, 1, 20, 6, 1, 3, 1, 4, 1, 1, false, 4, kNone, true},
      // DEPTHWISE_CONV_2D: multiplier 1 (fast; zero-inserted 5x5 = 25 taps
      // still fast), multiplier 2 (reference), one input channel with
      // multiplier 4 (as a convolution), 81 zero-inserted taps (reference)
      // against the fast dilated kernel with a leftover channel.
      {true, 10, 10, 8, 3, 3, 2, 2, 1, 1, true, 1, kRelu6, true},
      {true, 11, 9, 6, 3, 3, 3, 1, 2, 2, false, 2, kNone, true},
      {true, 9, 9, 1, 2, 3, 2, 3, 1, 1, true, 4, kNone, false},
      {true, 12, 12, 5, 3, 3, 4, 4, 1, 3, true, 1, kRelu, true},
  };
  ModelBuilder b("dilated_pairs.tflite");
  std::vector<std::int32_t> inputs, outputs;
  std::size_t in_bytes = 0;
  unsigned seed = 1;
  for (const ConvCase& c : cases) {
    const std::int32_t x = b.Tensor(
        {1, c.ih, c.iw, c.ic}, tflite::TensorType::kInt8, kInScale, kInZero);
    inputs.push_back(x);
    outputs.push_back(AddConv(b, c, x, /*dilated=*/true, seed));
    outputs.push_back(AddConv(b, c, x, /*dilated=*/false, seed));
    in_bytes += static_cast<std::size_t>(c.ih * c.iw * c.ic);
    ++seed;
  }
  const auto bytes = SerializeModel(b.Finish(inputs, outputs));
  const auto r = CompileAndRunBytes(bytes, "dilated_pairs",
                                    RandomBytes(in_bytes, 7), RunOptions{});
  ASSERT_EQ(r.error, "");
  std::size_t at = 0;
  for (std::size_t i = 0; i < std::size(cases); ++i) {
    SCOPED_TRACE("case " + std::to_string(i));
    const std::size_t n = OutBytes(cases[i]);
    ASSERT_LE(at + 2 * n, r.output.size());
    const std::vector<std::uint8_t> dilated(r.output.begin() + at,
                                            r.output.begin() + at + n),
        inserted(r.output.begin() + at + n, r.output.begin() + at + 2 * n);
    EXPECT_EQ(dilated, inserted);
    // Not a degenerate output (one value everywhere).
    EXPECT_NE(std::count(dilated.begin(), dilated.end(), dilated[0]),
              static_cast<std::ptrdiff_t>(n));
    at += 2 * n;
  }
  EXPECT_EQ(at, r.output.size());
}

/// The chain x -> CONV_2D 3x3 dilated 2 (RELU) -> DEPTHWISE_CONV_2D 3x3
/// dilated 3 -> CONV_2D 1x3 dilated 1x2 stride 2, all SAME, dilated or
/// zero-inserted.
std::vector<std::uint8_t> Chain(bool dilated) {
  ModelBuilder b("dilated_chain.tflite");
  const ConvCase c0{false, 16, 16, 4, 3, 3, 2, 2, 1, 1, true, 8, kRelu, true},
      c1{true, 16, 16, 8, 3, 3, 3, 3, 1, 1, true, 1, kNone, true},
      c2{false, 16, 16, 8, 1, 3, 1, 2, 2, 2, true, 6, kNone, true};
  const std::int32_t x =
      b.Tensor({1, 16, 16, 4}, tflite::TensorType::kInt8, kInScale, kInZero);
  const std::int32_t y0 = AddConv(b, c0, x, dilated, 11, 0.08f, -20);
  const std::int32_t y1 = AddConv(b, c1, y0, dilated, 12, 0.06f, 3);
  const std::int32_t y2 = AddConv(b, c2, y1, dilated, 13);
  return SerializeModel(b.Finish({x}, {y2}));
}

TEST(LowerDilatedConv, FusedAndOverlappedChainsMatchTheZeroInsertedChain) {
  const auto input = RandomBytes(16 * 16 * 4, 21);
  const auto expect =
      CompileAndRunBytes(Chain(false), "chain_inserted", input, RunOptions{});
  ASSERT_EQ(expect.error, "");
  ASSERT_EQ(expect.output.size(), 8u * 8u * 6u);
  const auto dilated = Chain(true);
  // The fused plan holds a segment of dilated operators.
  arenaplan::compile::CompileOptions options;
  options.namespace_name = "m";
  options.input_sha256 = std::string(64, '0');
  options.fuse = true;
  const auto compiled = arenaplan::compile::CompileModel(
      tflite::ReadModel(dilated, "chain.tflite"), "chain.tflite", options);
  EXPECT_NE(compiled.model_source.find("fused segment"), std::string::npos);
  EXPECT_NE(compiled.model_source.find("k::FusedKind::kConv2DDilatedFast"),
            std::string::npos);
  for (const RunOptions run :
       {RunOptions{true, false}, RunOptions{false, true}}) {
    SCOPED_TRACE(run.fuse ? "--fuse" : "--overlap");
    const auto got = CompileAndRunBytes(dilated, "chain_dilated", input, run);
    ASSERT_EQ(got.error, "");
    EXPECT_EQ(got.output, expect.output);
  }
}

// Keras' causal dilated Conv1D: PAD of (k - 1) * d columns on the left,
// then a VALID 1 x k CONV_2D dilated 1 x d. The PAD folds into the
// convolution (docs/compile.md: its taps in the extension are skipped, as
// the pad holds the input zero point); each form reads its own PAD.
TEST(LowerDilatedConv, CausalConv1DWithAFoldedPadMatches) {
  const ConvCase c{false, 1, 24, 6, 1, 3, 1, 4, 1, 1, false, 5, kRelu, true};
  ModelBuilder b("causal_conv1d.tflite");
  const std::int32_t x =
      b.Tensor({1, 1, 16, 6}, tflite::TensorType::kInt8, kInScale, kInZero);
  std::vector<std::int32_t> outputs;
  for (bool dilated : {true, false}) {
    const std::int32_t padded =
        b.Tensor({1, 1, 24, 6}, tflite::TensorType::kInt8, kInScale, kInZero);
    b.Op(tflite::BuiltinOp::kPad,
         {x, b.Int32Constant({0, 0, 0, 0, 8, 0, 0, 0})}, {padded});
    outputs.push_back(AddConv(b, c, padded, dilated, 31));
  }
  const auto bytes = SerializeModel(b.Finish({x}, outputs));
  arenaplan::compile::CompileOptions options;
  options.namespace_name = "m";
  options.input_sha256 = std::string(64, '0');
  const auto compiled = arenaplan::compile::CompileModel(
      tflite::ReadModel(bytes, "causal.tflite"), "causal.tflite", options);
  EXPECT_EQ(compiled.model_source.find("k::Pad"), std::string::npos);
  EXPECT_NE(compiled.model_source.find("k::Conv2DDilatedFast"),
            std::string::npos);
  const auto r = CompileAndRunBytes(bytes, "causal_conv1d",
                                    RandomBytes(16 * 6, 5), RunOptions{});
  ASSERT_EQ(r.error, "");
  const std::size_t n = OutBytes(c);
  ASSERT_EQ(n, 16u * 5u);
  ASSERT_EQ(r.output.size(), 2 * n);
  EXPECT_EQ(std::vector<std::uint8_t>(r.output.begin(), r.output.begin() + n),
            std::vector<std::uint8_t>(r.output.begin() + n, r.output.end()));
}

}  // namespace
