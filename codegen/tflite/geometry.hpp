// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// Sliding-window geometry of TFLite's 2-D operators (CONV_2D,
// DEPTHWISE_CONV_2D, pooling) and the one acceptance check of each: its
// options, 4-D shapes, dilation, depth multiplier, padding and output shape
// give a geometry value or the reason the operator is refused. Shared by
// the firmware code generator (codegen/compile/) and the overlap-pair finder
// (codegen/overlap/), so the two accept the same operators and compute
// padding and output shapes one way. Quantization and fused activations are
// the callers' (they differ between an error and a quiet "no contract").
#ifndef ARENAPLAN_CODEGEN_TFLITE_GEOMETRY_HPP_
#define ARENAPLAN_CODEGEN_TFLITE_GEOMETRY_HPP_

#include <cstdint>
#include <optional>
#include <string>
#include <variant>

#include "codegen/tflite/model.hpp"

namespace arenaplan::tflite {

/// Output extent and leading padding of one spatial dimension for a window
/// of `filter` elements moved by `stride` (a dilated window passes its
/// effective size (taps - 1) * dilation + 1, as TFLite's
/// ComputePaddingHeightWidth does). SAME: out =
/// ceil(in / stride), total padding max((out - 1) * stride + filter - in, 0)
/// of which floor(total / 2) goes before. VALID: out = ceil((in - filter +
/// 1) / stride), no padding.
struct PaddedDim {
  std::int32_t out = 0;
  std::int32_t pad_before = 0;
};
[[nodiscard]] PaddedDim ComputePadding(Padding padding, std::int32_t in,
                                       std::int32_t filter,
                                       std::int32_t stride);

/// ComputePadding over an input already extended by `before` elements in
/// front and `after` behind (a folded PAD, Operator::extra_padding), as
/// seen from the unextended input: the output extent of the extended
/// input, and pad_before counting the `before` elements too. The kernels
/// skip every window tap outside the unextended input, which is what the
/// extension's elements contribute when they hold the input zero point
/// (convolutions; see codegen/tflite/fold.hpp for pooling).
[[nodiscard]] PaddedDim ExtendedPadding(Padding padding, std::int32_t in,
                                        std::int32_t filter,
                                        std::int32_t stride,
                                        std::int32_t before,
                                        std::int32_t after);

/// A shape of 4 positive dimensions read as NHWC.
struct Nhwc {
  std::int32_t n = 1, h = 1, w = 1, c = 1;
  [[nodiscard]] std::int64_t Count() const {
    return std::int64_t{n} * h * w * c;
  }
};

/// Why an operator is refused: `what`, about `tensor` when that is not null
/// (the caller puts its description of the tensor in front of `what`).
struct Refusal {
  const Tensor* tensor = nullptr;
  std::string what;
};

/// "stride HxW is not positive" unless both are; nullopt when they are.
[[nodiscard]] std::optional<Refusal> CheckStride(std::int32_t stride_h,
                                                 std::int32_t stride_w);
/// "output shape [..] does not match the computed [..]" unless `got` equals
/// `expect`; nullopt when it does.
[[nodiscard]] std::optional<Refusal> CheckOutputShape(const Nhwc& got,
                                                      const Nhwc& expect);

/// An accepted CONV_2D or DEPTHWISE_CONV_2D.
struct ConvGeometry {
  Nhwc in, filter, out;
  std::int32_t stride_h = 0, stride_w = 0;
  /// Input rows / columns between two taps of the window (>= 1); the
  /// window spans (filter - 1) * dilation + 1 input rows / columns.
  std::int32_t dilation_h = 1, dilation_w = 1;
  PaddedDim pad_h, pad_w;
  std::int32_t depth_multiplier = 1;  ///< 1 for CONV_2D.
  Activation activation = Activation::kNone;
};

/// Checks `op` (CONV_2D, or DEPTHWISE_CONV_2D when `depthwise`) with input
/// `in`, filter `filter` and output `out`: options present, positive
/// dilation factors, positive strides, 4-D positive shapes, input depth equal
/// to the filter's (CONV_2D) or a [1,H,W,C] filter whose C is depth_multiplier
/// x the input depth (DEPTHWISE_CONV_2D), and the output shape the padding
/// gives (the operator's own SAME/VALID over `in` extended by op.extra_padding,
/// for the window's effective size (filter - 1) * dilation + 1).
[[nodiscard]] std::variant<ConvGeometry, Refusal> CheckConv(
    const Operator& op, const Tensor& in, const Tensor& filter,
    const Tensor& out, bool depthwise);

/// An accepted AVERAGE_POOL_2D or MAX_POOL_2D.
struct PoolGeometry {
  Nhwc in, out;
  std::int32_t filter_h = 0, filter_w = 0;
  std::int32_t stride_h = 0, stride_w = 0;
  PaddedDim pad_h, pad_w;
  Activation activation = Activation::kNone;
};

/// Checks a 2-D pooling `op` with input `in` and output `out`: options
/// present, positive strides and window, 4-D positive shapes, and the
/// output shape the padding gives (depth kept; op.extra_padding as for
/// CheckConv).
[[nodiscard]] std::variant<PoolGeometry, Refusal> CheckPool(const Operator& op,
                                                            const Tensor& in,
                                                            const Tensor& out);

/// CheckPool's geometry of a pool whose output is quantized as its input
/// (one scale and zero point each) and whose fused activation only clamps
/// (none, RELU, RELU_N1_TO_1, RELU6): the pools the row kernels run in
/// place and in fused segments; nullopt for any other.
[[nodiscard]] std::optional<PoolGeometry> ClampingPool(const Operator& op,
                                                       const Tensor& in,
                                                       const Tensor& out);

}  // namespace arenaplan::tflite

#endif  // ARENAPLAN_CODEGEN_TFLITE_GEOMETRY_HPP_
