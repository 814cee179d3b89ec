// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
#include "codegen/tflite/geometry.hpp"

#include <algorithm>
#include <optional>
#include <utility>

namespace arenaplan::tflite {
namespace {

std::string Text(std::int32_t v) { return std::to_string(v); }

/// The 4-D shape of `t` as NHWC, or the refusal of a dynamic or empty
/// dimension. `t` must have rank 4.
std::variant<Nhwc, Refusal> Shape(const Tensor& t) {
  for (std::int32_t d : t.shape) {
    if (d <= 0) return Refusal{&t, " has a dynamic or empty dimension"};
  }
  return Nhwc{t.shape[0], t.shape[1], t.shape[2], t.shape[3]};
}

/// The options of a convolution of either kind (DEPTHWISE_CONV_2D's
/// extend CONV_2D's); nullptr when the operator has none.
const Conv2DOptions* ConvOptionsOf(const Operator& op, bool depthwise) {
  if (depthwise) return std::get_if<DepthwiseConv2DOptions>(&op.options);
  return std::get_if<Conv2DOptions>(&op.options);
}

/// The three shapes of a convolution (all rank 4).
std::variant<ConvGeometry, Refusal> ConvShapes(const Tensor& in,
                                               const Tensor& filter,
                                               const Tensor& out) {
  ConvGeometry g;
  Nhwc* dst[3] = {&g.in, &g.filter, &g.out};
  const Tensor* src[3] = {&in, &filter, &out};
  for (int i = 0; i < 3; ++i) {
    auto s = Shape(*src[i]);
    if (auto* r = std::get_if<Refusal>(&s)) return *r;
    *dst[i] = std::get<Nhwc>(s);
  }
  return g;
}

}  // namespace

std::optional<Refusal> CheckStride(std::int32_t stride_h,
                                   std::int32_t stride_w) {
  if (stride_h > 0 && stride_w > 0) return std::nullopt;
  return Refusal{nullptr, "stride " + Text(stride_h) + "x" + Text(stride_w) +
                              " is not positive"};
}

std::optional<Refusal> CheckOutputShape(const Nhwc& got, const Nhwc& expect) {
  if (got.n == expect.n && got.h == expect.h && got.w == expect.w &&
      got.c == expect.c) {
    return std::nullopt;
  }
  return Refusal{nullptr, "output shape [" + Text(got.n) + "," + Text(got.h) +
                              "," + Text(got.w) + "," + Text(got.c) +
                              "] does not match the computed [" +
                              Text(expect.n) + "," + Text(expect.h) + "," +
                              Text(expect.w) + "," + Text(expect.c) + "]"};
}

PaddedDim ComputePadding(Padding padding, std::int32_t in, std::int32_t filter,
                         std::int32_t stride) {
  PaddedDim d;
  if (padding == Padding::kSame) {
    d.out = (in + stride - 1) / stride;
    const std::int32_t total = std::max((d.out - 1) * stride + filter - in, 0);
    d.pad_before = total / 2;
  } else {
    d.out = (in - filter + stride) / stride;
    d.pad_before = 0;
  }
  return d;
}

PaddedDim ExtendedPadding(Padding padding, std::int32_t in, std::int32_t filter,
                          std::int32_t stride, std::int32_t before,
                          std::int32_t after) {
  PaddedDim d = ComputePadding(padding, in + before + after, filter, stride);
  d.pad_before += before;
  return d;
}

std::variant<ConvGeometry, Refusal> CheckConv(const Operator& op,
                                              const Tensor& in,
                                              const Tensor& filter,
                                              const Tensor& out,
                                              bool depthwise) {
  const Conv2DOptions* o = ConvOptionsOf(op, depthwise);
  if (o == nullptr) return Refusal{nullptr, "builtin options are missing"};
  if (o->dilation_h < 1 || o->dilation_w < 1) {
    return Refusal{nullptr, "dilation " + Text(o->dilation_h) + "x" +
                                Text(o->dilation_w) + " is not positive"};
  }
  if (auto r = CheckStride(o->stride_h, o->stride_w)) return *r;
  if (in.shape.size() != 4 || filter.shape.size() != 4 ||
      out.shape.size() != 4) {
    return Refusal{nullptr, "input, filter and output must be 4-D (NHWC)"};
  }
  auto shapes = ConvShapes(in, filter, out);
  if (auto* r = std::get_if<Refusal>(&shapes)) return *r;
  ConvGeometry g = std::get<ConvGeometry>(shapes);
  const Nhwc& is = g.in;
  const Nhwc& fs = g.filter;
  const std::int32_t out_c = depthwise ? fs.c : fs.n;
  if (depthwise) {
    if (fs.n != 1) {
      return Refusal{&filter, ": a depthwise filter must be [1,H,W,C]"};
    }
    if (out_c % is.c != 0) {
      return Refusal{nullptr,
                     "output channels are not a multiple of input channels"};
    }
    g.depth_multiplier = out_c / is.c;
    const std::int32_t options_dm =
        static_cast<const DepthwiseConv2DOptions*>(o)->depth_multiplier;
    if (options_dm != 0 && options_dm != g.depth_multiplier) {
      return Refusal{nullptr, "depth_multiplier " + Text(options_dm) +
                                  " does not match the shapes (" +
                                  Text(g.depth_multiplier) + ")"};
    }
  } else if (fs.c != is.c) {
    return Refusal{nullptr, "filter depth " + Text(fs.c) +
                                " differs from input depth " + Text(is.c) +
                                " (grouped convolution)"};
  }
  g.stride_h = o->stride_h, g.stride_w = o->stride_w;
  g.dilation_h = o->dilation_h, g.dilation_w = o->dilation_w;
  g.activation = o->activation;
  // The window's effective extent (TFLite's ComputePaddingHeightWidth), in
  // 64 bits (factors from the model go up to INT32_MAX), at most 2^16 so
  // that every padding and tap position stays far inside int32.
  const auto span = [](std::int32_t k, std::int32_t d) -> std::int64_t {
    return std::int64_t{k - 1} * d + 1;
  };
  const std::int64_t span_h = span(fs.h, o->dilation_h),
                     span_w = span(fs.w, o->dilation_w);
  if (span_h > (1 << 16) || span_w > (1 << 16)) {
    return Refusal{nullptr, "dilation " + Text(o->dilation_h) + "x" +
                                Text(o->dilation_w) +
                                " spans more than 65536 input elements"};
  }
  g.pad_h = ExtendedPadding(o->padding, is.h, static_cast<std::int32_t>(span_h),
                            o->stride_h, op.extra_padding.top,
                            op.extra_padding.bottom);
  g.pad_w = ExtendedPadding(o->padding, is.w, static_cast<std::int32_t>(span_w),
                            o->stride_w, op.extra_padding.left,
                            op.extra_padding.right);
  if (auto r = CheckOutputShape(g.out,
                                Nhwc{is.n, g.pad_h.out, g.pad_w.out, out_c})) {
    return *r;
  }
  return g;
}

std::variant<PoolGeometry, Refusal> CheckPool(const Operator& op,
                                              const Tensor& in,
                                              const Tensor& out) {
  const auto* o = std::get_if<Pool2DOptions>(&op.options);
  if (o == nullptr) return Refusal{nullptr, "builtin options are missing"};
  if (auto r = CheckStride(o->stride_h, o->stride_w)) return *r;
  if (o->filter_h <= 0 || o->filter_w <= 0) {
    return Refusal{nullptr, "filter size is not positive"};
  }
  if (in.shape.size() != 4 || out.shape.size() != 4) {
    return Refusal{nullptr, "input and output must be 4-D"};
  }
  PoolGeometry g;
  for (auto [t, dst] : {std::pair{&in, &g.in}, std::pair{&out, &g.out}}) {
    auto s = Shape(*t);
    if (auto* r = std::get_if<Refusal>(&s)) return *r;
    *dst = std::get<Nhwc>(s);
  }
  g.filter_h = o->filter_h, g.filter_w = o->filter_w;
  g.stride_h = o->stride_h, g.stride_w = o->stride_w;
  g.activation = o->activation;
  g.pad_h = ExtendedPadding(o->padding, g.in.h, o->filter_h, o->stride_h,
                            op.extra_padding.top, op.extra_padding.bottom);
  g.pad_w = ExtendedPadding(o->padding, g.in.w, o->filter_w, o->stride_w,
                            op.extra_padding.left, op.extra_padding.right);
  if (auto r = CheckOutputShape(
          g.out, Nhwc{g.in.n, g.pad_h.out, g.pad_w.out, g.in.c})) {
    return *r;
  }
  return g;
}

std::optional<PoolGeometry> ClampingPool(const Operator& op, const Tensor& in,
                                         const Tensor& out) {
  if (in.quantization.scale.size() != 1 || out.quantization.scale.size() != 1 ||
      in.quantization.zero_point.size() != 1 ||
      out.quantization.zero_point.size() != 1 ||
      in.quantization.scale[0] != out.quantization.scale[0] ||
      in.quantization.zero_point[0] != out.quantization.zero_point[0]) {
    return std::nullopt;
  }
  const auto checked = CheckPool(op, in, out);
  const auto* g = std::get_if<PoolGeometry>(&checked);
  if (g == nullptr) return std::nullopt;
  const Activation a = g->activation;
  if (a != Activation::kNone && a != Activation::kRelu &&
      a != Activation::kReluN1To1 && a != Activation::kRelu6) {
    return std::nullopt;
  }
  return *g;
}

}  // namespace arenaplan::tflite
