// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The random window operator (CONV_2D, DEPTHWISE_CONV_2D, AVERAGE_POOL_2D,
// MAX_POOL_2D) of the fused-execution tests' random segments
// (fused_execution_test for int8, fused_wide_execution_test for float32):
// its geometry, drawn in one order, and its TFLite operator options. The
// kernel parameters and constants stay with each test (their types differ).
#ifndef ARENAPLAN_TESTS_HOST_SUPPORT_RANDOM_WINDOW_OP_HPP_
#define ARENAPLAN_TESTS_HOST_SUPPORT_RANDOM_WINDOW_OP_HPP_

#include <cstddef>
#include <cstdint>
#include <random>
#include <utility>
#include <vector>

#include "arenaplan/kernels/kernels.hpp"
#include "codegen/tflite/geometry.hpp"
#include "codegen/tflite/model.hpp"

namespace arenaplan::random_window_op {

/// Adds a tensor to subgraph 0 of `model` and returns its index: a
/// constant of `bytes` bytes (contents irrelevant to the planner) when
/// `bytes` > 0.
inline std::int32_t AddTensor(tflite::Model& model, tflite::TensorType type,
                              std::vector<std::int32_t> shape,
                              std::size_t bytes) {
  tflite::Tensor t;
  t.type = type;
  t.shape = std::move(shape);
  if (bytes > 0) {
    t.buffer = static_cast<std::uint32_t>(model.buffers.size());
    tflite::Buffer b;
    b.data.assign(bytes, 1);
    model.buffers.push_back(b);
  }
  auto& tensors = model.subgraphs[0].tensors;
  tensors.push_back(t);
  return static_cast<std::int32_t>(tensors.size() - 1);
}

enum class WindowKind { kConv, kDepthwise, kAveragePool, kMaxPool };

/// One drawn window: taps, strides and dilations (input rows / columns),
/// the padding rule and what it gives for the input's height and width.
struct WindowDraw {
  WindowKind kind;
  std::int32_t kh, kw, sh, sw, dh, dw;
  tflite::Padding padding;
  tflite::PaddedDim ph, pw;
  [[nodiscard]] bool Convolution() const {
    return kind == WindowKind::kConv || kind == WindowKind::kDepthwise;
  }
  /// Input rows one output row reads: (kh - 1) * dh + 1.
  [[nodiscard]] std::int32_t SpanH() const { return (kh - 1) * dh + 1; }
};

/// Draws the kind, taps 1 .. 5, strides 1 .. 2, SAME or VALID, and for a
/// third of the convolutions a dilation of 2 or 3 in each direction, for
/// input shape `is`. The output extents may be below 1 (the caller draws
/// again).
inline WindowDraw DrawWindow(std::mt19937& rng, const kernels::Shape4& is) {
  auto uniform = [&rng](std::int32_t lo, std::int32_t hi) {
    return std::uniform_int_distribution<std::int32_t>(lo, hi)(rng);
  };
  WindowDraw w{};
  w.kind = static_cast<WindowKind>(uniform(0, 3));
  w.kh = uniform(1, 5);
  w.kw = uniform(1, 5);
  w.sh = uniform(1, 2);
  w.sw = uniform(1, 2);
  w.padding = uniform(0, 1) ? tflite::Padding::kSame : tflite::Padding::kValid;
  const auto dilation = [&] {
    return w.Convolution() && uniform(0, 2) == 0 ? uniform(2, 3) : 1;
  };
  w.dh = dilation();
  w.dw = dilation();
  w.ph = tflite::ComputePadding(w.padding, is.h, w.SpanH(), w.sh);
  w.pw = tflite::ComputePadding(w.padding, is.w, (w.kw - 1) * w.dw + 1, w.sw);
  return w;
}

/// Sets `op`'s builtin code and options for `w` (depth multiplier `dm` for
/// a depthwise convolution); the inputs and outputs are the caller's.
inline void SetWindowOptions(tflite::Operator& op, const WindowDraw& w,
                             std::int32_t dm) {
  if (w.Convolution()) {
    tflite::DepthwiseConv2DOptions o;
    o.padding = w.padding;
    o.stride_h = w.sh;
    o.stride_w = w.sw;
    o.dilation_h = w.dh;
    o.dilation_w = w.dw;
    o.depth_multiplier = dm;
    if (w.kind == WindowKind::kDepthwise) {
      op.builtin_code = tflite::BuiltinOp::kDepthwiseConv2D;
      op.options = o;
    } else {
      op.builtin_code = tflite::BuiltinOp::kConv2D;
      op.options = static_cast<tflite::Conv2DOptions>(o);
    }
    return;
  }
  op.builtin_code = w.kind == WindowKind::kAveragePool
                        ? tflite::BuiltinOp::kAveragePool2D
                        : tflite::BuiltinOp::kMaxPool2D;
  tflite::Pool2DOptions o;
  o.padding = w.padding;
  o.stride_h = w.sh;
  o.stride_w = w.sw;
  o.filter_h = w.kh;
  o.filter_w = w.kw;
  op.options = o;
}

}  // namespace arenaplan::random_window_op

#endif  // ARENAPLAN_TESTS_HOST_SUPPORT_RANDOM_WINDOW_OP_HPP_
