// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// What the lowerings of the graph's edge types share: float32 constants in
// the generated code and the quantization of uint8 tensors (graph inputs
// quantized inside the graph, as MLPerf Tiny's audio model takes them).
#ifndef ARENAPLAN_CODEGEN_COMPILE_EDGE_TYPES_HPP_
#define ARENAPLAN_CODEGEN_COMPILE_EDGE_TYPES_HPP_

#include <cmath>
#include <string>

#include "codegen/base/errors.hpp"
#include "codegen/compile/lowering.hpp"

namespace arenaplan::compile {

/// A C++ float literal that is exactly `v`: hexadecimal, e.g. 0x1.8p-8f
/// (%a of the widened value prints every float exactly, subnormals and
/// -0.0 included; the generated code holds no block comments), or for an
/// infinity "__builtin_huge_valf()" with its sign. InternalError for a NaN
/// (no literal names its bits).
inline std::string ExactFloatLiteral(float v) {
  if (std::isnan(v)) throw InternalError("a NaN has no float literal");
  if (std::isinf(v)) {
    return v > 0 ? "__builtin_huge_valf()" : "-__builtin_huge_valf()";
  }
  return Fmt("%af", static_cast<double>(v));
}

/// Per-tensor quantization of a uint8 tensor: one finite positive scale,
/// one zero point in [0, 255].
inline Affine Uint8PerTensor(const Lowerer& l, const tflite::Tensor& t) {
  const auto& q = t.quantization;
  if (q.scale.size() != 1 || q.zero_point.size() != 1) {
    l.Fail(l.Describe(t) +
           " needs per-tensor quantization (one scale, one zero point)");
  }
  if (!(q.scale[0] > 0.0f) || !std::isfinite(q.scale[0]) ||
      q.zero_point[0] < 0 || q.zero_point[0] > 255) {
    l.Fail(l.Describe(t) + " has an invalid scale or zero point");
  }
  return {q.scale[0], static_cast<std::int32_t>(q.zero_point[0])};
}

}  // namespace arenaplan::compile

#endif  // ARENAPLAN_CODEGEN_COMPILE_EDGE_TYPES_HPP_
