// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// Sliding-window geometry of TFLite's 2-D operators (CONV_2D,
// DEPTHWISE_CONV_2D, pooling), shared by the firmware code generator
// (codegen/compile/) and the overlap-pair finder (codegen/overlap/), so the
// two compute padding and output shapes one way.
#ifndef ARENAPLAN_CODEGEN_TFLITE_GEOMETRY_HPP_
#define ARENAPLAN_CODEGEN_TFLITE_GEOMETRY_HPP_

#include <cstdint>

#include "codegen/tflite/model.hpp"

namespace arenaplan::tflite {

/// Output extent and leading padding of one spatial dimension for a window
/// of `filter` elements moved by `stride` (dilation 1). SAME: out =
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

}  // namespace arenaplan::tflite

#endif  // ARENAPLAN_CODEGEN_TFLITE_GEOMETRY_HPP_
