// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// BlazeFace, 128x128 (Bazarevsky et al. 2019, "BlazeFace: Sub-millisecond
// Neural Face Detection on Mobile GPUs", §"Model architecture": BlazeBlocks
// with 3x3 depthwise, 1x1 projection and a residual path that is max-pooled
// when the block strides and zero-padded in channels when the block widens;
// anchors on the 16x16 and 8x8 grids, 2 + 6 anchors per cell).
// Channel widths and block sequence are those of MediaPipe's published
// front-camera / short-range model (face_detection_short_range.tflite in
// the @mediapipe/face_detection package): 24 channels after the 5x5/2 stem,
// widening by 4-8 per block to 88 at 16x16 and 96 at 8x8.
// As in a TFLite GPU graph, ReLU is fused into the ADD (or the stem
// convolution) and the weights' DEQUANTIZE operators are constant-folded.
#include <array>
#include <string>

#include "codegen/zoo/graph.hpp"
#include "codegen/zoo/networks.hpp"

namespace arenaplan::zoo {
namespace {

/// One BlazeBlock: depthwise 3x3 (stride), pointwise to `channels`; the
/// residual path max-pools 2x2/2 when strided and pads channels when the
/// block widens; ADD (+ fused ReLU). The operator order is the released
/// model's: depthwise, [max pool], pointwise, [pad], add.
TensorId BlazeBlock(GraphBuilder& g, TensorId x, const std::string& n,
                    std::uint64_t channels, std::uint64_t stride) {
  const std::uint64_t in_channels = g.Channels(x);
  TensorId y = g.DepthwiseConv(x, n + "/depthwise", 3, stride);
  TensorId skip = x;
  if (stride == 2) skip = g.MaxPool(x, n + "/max_pool", 2, 2, Padding::kValid);
  y = g.Conv(y, n + "/pointwise", channels);
  if (channels > in_channels) skip = g.PadChannels(skip, n + "/pad", channels);
  return g.Add(skip, y, n + "/add");
}

struct BlockSpec {
  std::uint64_t channels;
  std::uint64_t stride;
};
constexpr std::array<BlockSpec, 16> kBlocks = {{
    {24, 1},
    {28, 1},
    {32, 2},
    {36, 1},
    {42, 1},
    {48, 2},
    {56, 1},
    {64, 1},
    {72, 1},
    {80, 1},
    {88, 1},  // ends at 16x16x88
    {96, 2},
    {96, 1},
    {96, 1},
    {96, 1},
    {96, 1}  // ends at 8x8x96
}};
constexpr std::size_t kBlocksAt16 = 11;

}  // namespace

UsageProblem BuildBlazeFace() {
  GraphBuilder g;
  TensorId x = g.AddInput("input", {1, 128, 128, 3});
  x = g.Conv(x, "stem", 24, 5, 5, 2);
  TensorId grid16 = 0;
  for (std::size_t i = 0; i < kBlocks.size(); ++i) {
    x = BlazeBlock(g, x, "block_" + std::to_string(i), kBlocks[i].channels,
                   kBlocks[i].stride);
    if (i + 1 == kBlocksAt16) grid16 = x;
  }
  const TensorId grid8 = x;
  // Heads: classifiers (2 and 6 anchors x 1 score) and regressors
  // (x 16 box + keypoint coordinates), reshaped to anchors, concatenated:
  // 512 + 384 = 896 anchors.
  const TensorId c16 = g.Conv(grid16, "classifier_16", 2);
  const TensorId c8 = g.Conv(grid8, "classifier_8", 6);
  const TensorId r16 = g.Conv(grid16, "regressor_16", 32);
  const TensorId r8 = g.Conv(grid8, "regressor_8", 96);
  const TensorId c16r = g.Reshape(c16, "classifier_16/reshape", {1, 512, 1});
  const TensorId c8r = g.Reshape(c8, "classifier_8/reshape", {1, 384, 1});
  const TensorId r16r = g.Reshape(r16, "regressor_16/reshape", {1, 512, 16});
  const TensorId r8r = g.Reshape(r8, "regressor_8/reshape", {1, 384, 16});
  const std::array<TensorId, 2> out = {
      g.Concat({c16r, c8r}, "classificators", 1),
      g.Concat({r16r, r8r}, "regressors", 1)};
  return g.Build(out, "zoo:blazeface");
}

}  // namespace arenaplan::zoo
