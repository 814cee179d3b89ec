// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The MobileNet family of the zoo: MobileNet v1, MobileNet v2, and the two
// networks built on them, PoseNet (MobileNet v1 backbone) and DeepLab v3
// (MobileNet v2 backbone).
#include <array>
#include <string>

#include "codegen/zoo/graph.hpp"
#include "codegen/zoo/networks.hpp"

namespace arenaplan::zoo {
namespace {

/// The ImageNet classifiers' class count: 1000 classes plus "background",
/// as in the TF-slim checkpoints the TFLite models were converted from.
constexpr std::uint64_t kImageNetClasses = 1001;

/// Howard et al. 2017, "MobileNets", Table 1: after the 3x3/2 full
/// convolution with 32 filters, thirteen depthwise-separable layers
/// {depthwise 3x3 (stride), pointwise 1x1 (channels)}.
struct SeparableLayer {
  std::uint64_t channels;
  std::uint64_t stride;
};
constexpr std::array<SeparableLayer, 13> kMobileNetV1Layers = {{{64, 1},
                                                                {128, 2},
                                                                {128, 1},
                                                                {256, 2},
                                                                {256, 1},
                                                                {512, 2},
                                                                {512, 1},
                                                                {512, 1},
                                                                {512, 1},
                                                                {512, 1},
                                                                {512, 1},
                                                                {1024, 2},
                                                                {1024, 1}}};

/// MobileNet v1 body (Table 1 of Howard et al.) with `multiplier` = 1.
/// `output_stride` (8, 16 or 32) turns later strides into 1, as the
/// dense-prediction users (PoseNet) do; 32 is the classifier.
TensorId MobileNetV1Body(GraphBuilder& g, TensorId x,
                         std::uint64_t output_stride) {
  x = g.Conv(x, "MobilenetV1/Conv2d_0", 32, 3, 3, 2);
  std::uint64_t stride_so_far = 2;
  for (std::size_t i = 0; i < kMobileNetV1Layers.size(); ++i) {
    std::uint64_t stride = kMobileNetV1Layers[i].stride;
    if (stride == 2) {
      if (stride_so_far >= output_stride) {
        stride = 1;
      } else {
        stride_so_far *= 2;
      }
    }
    const std::string layer = "MobilenetV1/Conv2d_" + std::to_string(i + 1);
    x = g.DepthwiseConv(x, layer + "_depthwise", 3, stride);
    x = g.Conv(x, layer + "_pointwise", kMobileNetV1Layers[i].channels);
  }
  return x;
}

/// Sandler et al. 2018, "MobileNetV2", Table 2: bottleneck sequences
/// {expansion t, output channels c, repeats n, first stride s}, after the
/// 3x3/2 convolution with 32 filters.
struct Bottleneck {
  std::uint64_t t, c, n, s;
};
constexpr std::array<Bottleneck, 7> kMobileNetV2Bottlenecks = {{
    {1, 16, 1, 1},
    {6, 24, 2, 2},
    {6, 32, 3, 2},
    {6, 64, 4, 2},
    {6, 96, 3, 1},
    {6, 160, 3, 2},
    {6, 320, 1, 1},
}};

/// Channel count scaled by the width multiplier (numerator/denominator)
/// and rounded to a multiple of 8, at least 8 (the rounding of the
/// reference implementation, TF-slim mobilenet `make_divisible`).
std::uint64_t MakeDivisible(std::uint64_t channels, std::uint64_t num,
                            std::uint64_t den) {
  constexpr std::uint64_t kDivisor = 8;
  const std::uint64_t scaled2 = 2 * channels * num / den;  // twice, exact
  std::uint64_t v = (scaled2 + kDivisor) / (2 * kDivisor) * kDivisor;
  if (v < kDivisor) v = kDivisor;
  // Never round down by more than 10 % (as the reference does).
  if (10 * v < 9 * channels * num / den) v += kDivisor;
  return v;
}

/// MobileNet v2 body up to the last bottleneck (320 channels at width 1).
/// Width multiplier num/den; `output_stride` turns later strides into
/// dilations, as DeepLab does (Chen et al. 2017, §3.1: atrous convolution).
TensorId MobileNetV2Body(GraphBuilder& g, TensorId x, std::uint64_t num,
                         std::uint64_t den, std::uint64_t output_stride) {
  x = g.Conv(x, "MobilenetV2/Conv", MakeDivisible(32, num, den), 3, 3, 2);
  std::uint64_t stride_so_far = 2;
  std::uint64_t dilation = 1;
  int block = 0;
  for (const Bottleneck& b : kMobileNetV2Bottlenecks) {
    for (std::uint64_t i = 0; i < b.n; ++i, ++block) {
      const std::string name =
          block == 0 ? std::string("MobilenetV2/expanded_conv")
                     : "MobilenetV2/expanded_conv_" + std::to_string(block);
      std::uint64_t stride = i == 0 ? b.s : 1;
      std::uint64_t layer_dilation = dilation;
      if (stride == 2) {
        if (stride_so_far >= output_stride) {
          stride = 1;
          dilation *= 2;  // later layers dilate; this one keeps the old rate
        } else {
          stride_so_far *= 2;
        }
      }
      const std::uint64_t in_channels = g.Channels(x);
      TensorId y = x;
      if (b.t != 1) {
        // Expansion: make_divisible(input * t) as in the reference.
        y = g.Conv(y, name + "/expand", MakeDivisible(in_channels * b.t, 1, 1));
      }
      y = g.DepthwiseConv(y, name + "/depthwise", 3, stride, Padding::kSame,
                          layer_dilation);
      y = g.Conv(y, name + "/project", MakeDivisible(b.c, num, den));
      // Residual connection when shapes agree (stride 1, same channels).
      x = (stride == 1 && g.Channels(y) == in_channels && i > 0)
              ? g.Add(x, y, name + "/add")
              : y;
    }
  }
  return x;
}

/// Global pool, 1x1 logits convolution, squeeze and softmax: the head of
/// the TFLite ImageNet classifiers. Returns the softmax (the graph output).
TensorId ClassifierHead(GraphBuilder& g, TensorId x, const std::string& scope) {
  x = g.GlobalAvgPool(x, scope + "/Logits/AvgPool");
  x = g.Conv(x, scope + "/Logits/Conv2d_1c_1x1", kImageNetClasses);
  x = g.Reshape(x, scope + "/Logits/Squeeze", {1, kImageNetClasses});
  return g.Softmax(x, scope + "/Predictions/Softmax");
}

}  // namespace

/// MobileNet v1 1.0, 224x224 (Howard et al. 2017, Table 1), the TFLite
/// ImageNet classifier: 31 operators. Expected naive footprint 19.248 MiB
/// (paper Table 1): see tests/host/zoo/zoo_test.cpp for the derivation.
UsageProblem BuildMobileNetV1() {
  GraphBuilder g;
  const TensorId in = g.AddInput("input", {1, 224, 224, 3});
  const TensorId body = MobileNetV1Body(g, in, 32);
  const std::array<TensorId, 1> out = {ClassifierHead(g, body, "MobilenetV1")};
  return g.Build(out, "zoo:mobilenet_v1");
}

/// MobileNet v2 1.0, 224x224 (Sandler et al. 2018, Table 2): bottlenecks,
/// the 1x1 convolution to 1280 channels, and the classifier head.
UsageProblem BuildMobileNetV2() {
  GraphBuilder g;
  const TensorId in = g.AddInput("input", {1, 224, 224, 3});
  TensorId x = MobileNetV2Body(g, in, 1, 1, 32);
  x = g.Conv(x, "MobilenetV2/Conv_1", 1280);
  const std::array<TensorId, 1> out = {ClassifierHead(g, x, "MobilenetV2")};
  return g.Build(out, "zoo:mobilenet_v2");
}

/// PoseNet as released for TFLite (Papandreou et al. 2018, "PersonLab",
/// §3: heatmaps, short-range offsets and mid-range displacements on a
/// MobileNet v1 1.0 backbone; the released TFLite model
/// posenet_mobilenet_v1_100_257x257_multi_kpt_stripped): 257x257 input,
/// output stride 32 (9x9 outputs), four 1x1 heads: 17 keypoint heatmaps,
/// 34 offsets, 32 forward and 32 backward displacements. The four heads are
/// the graph outputs.
UsageProblem BuildPoseNet() {
  GraphBuilder g;
  const TensorId in = g.AddInput("image", {1, 257, 257, 3});
  const TensorId body = MobileNetV1Body(g, in, 32);
  const std::array<TensorId, 4> out = {
      g.Conv(body, "MobilenetV1/heatmap_2", 17),
      g.Conv(body, "MobilenetV1/offset_2", 34),
      g.Conv(body, "MobilenetV1/displacement_fwd_2", 32),
      g.Conv(body, "MobilenetV1/displacement_bwd_2", 32)};
  return g.Build(out, "zoo:posenet");
}

/// DeepLab v3 for mobile GPUs, 257x257 (Chen et al. 2017, "Rethinking
/// Atrous Convolution", §3.3: ASPP with image-level features; the DeepLab
/// model zoo's MobileNet v2 variant with depth multiplier 0.5 evaluated at
/// output stride 8, the basis of the TFLite deeplabv3_257_mv_gpu model).
/// The mobile variant's ASPP has no atrous branches: image pooling (global
/// average pool, 1x1 conv to 256, bilinear resize) and a 1x1 conv to 256,
/// concatenated, projected by a 1x1 conv to 256, then 21-class logits
/// resized to the input (the graph output).
UsageProblem BuildDeepLabV3() {
  constexpr std::uint64_t kSize = 257;
  constexpr std::uint64_t kClasses = 21;  // PASCAL VOC
  GraphBuilder g;
  const TensorId in = g.AddInput("ImageTensor", {1, kSize, kSize, 3});
  const TensorId features = MobileNetV2Body(g, in, 1, 2, 8);
  const std::uint64_t h = g.Shape(features)[1];
  const std::uint64_t w = g.Shape(features)[2];
  TensorId pool = g.GlobalAvgPool(features, "image_pooling/AvgPool");
  pool = g.Conv(pool, "image_pooling/Conv", 256);
  pool = g.ResizeBilinear(pool, "image_pooling/ResizeBilinear", h, w);
  const TensorId aspp0 = g.Conv(features, "aspp0", 256);
  TensorId x = g.Concat({pool, aspp0}, "concat");
  x = g.Conv(x, "concat_projection", 256);
  x = g.Conv(x, "logits/semantic", kClasses);
  const std::array<TensorId, 1> out = {
      g.ResizeBilinear(x, "ResizeBilinear", kSize, kSize)};
  return g.Build(out, "zoo:deeplab_v3");
}

}  // namespace arenaplan::zoo
