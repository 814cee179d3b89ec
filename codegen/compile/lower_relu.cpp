// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// RELU on int8 -> k::Relu (kernels/.../relu.hpp), with TFLM's parameters
// (activations_common.cc): the scale ratio formed in float, the clamp
// [max(-128, zp_out), 127]. RELU6 -> k::Relu6: the raw input clamped to
// [zp_in, round(6.0f / s_in) + zp_in] (Relu6Prepare), input and output
// quantized alike. RELU and RELU6 on float32 (type_rules.cpp):
// k::f32::Relu / Relu6 (lower_elementwise_f32.cpp).
#include <algorithm>
#include <cinttypes>
#include <cmath>

#include "codegen/compile/lowering.hpp"
#include "codegen/compile/type_rules.hpp"

namespace arenaplan::compile {

using tflite::Tensor;

void LowerRelu(Lowerer& l, const tflite::Operator& op) {
  if (CheckTypes(l, op)[0] == tflite::TensorType::kFloat32) {
    LowerUnaryF32(l, op, "Relu");  // lower_elementwise_f32.cpp
    return;
  }
  const auto [in, out] = l.Unary(op);
  const Affine qi = l.Int8Activation(in), qo = l.Int8Activation(out);
  if (ElementCount(in) != ElementCount(out))
    l.Fail("input and output sizes differ");
  const float ratio = qi.scale / qo.scale;
  const QuantizedMultiplier m =
      l.Multiplier(static_cast<double>(ratio), "input/output scale ratio");
  const std::int32_t lo = std::max(-128, qo.zero_point);
  l.Emit(Fmt("  k::Relu(k::ReluParams{%d, %d, %d, %d, %d, 127, %" PRId64 "},\n",
             qi.zero_point, qo.zero_point, m.multiplier, m.shift, lo,
             ElementCount(in)));
  l.Emit("      " + l.Addr(in) + ", " + l.Addr(out) + ");\n");
  l.StateElementwise(in, out);  // relu.hpp
}

void LowerRelu6(Lowerer& l, const tflite::Operator& op) {
  if (CheckTypes(l, op)[0] == tflite::TensorType::kFloat32) {
    LowerUnaryF32(l, op, "Relu6");  // lower_elementwise_f32.cpp
    return;
  }
  const Tensor& in = l.Input(op, 0);
  const Tensor& out = l.Output(op);
  const Affine qi = l.Int8Activation(in), qo = l.Int8Activation(out);
  if (qi.scale != qo.scale || qi.zero_point != qo.zero_point) {
    l.Fail(
        "input and output quantization differ (TFLM's RELU6 copies the "
        "raw values)");
  }
  if (ElementCount(in) != ElementCount(out))
    l.Fail("input and output sizes differ");
  const double six_real =
      std::round(static_cast<double>(6.0f / qi.scale)) + qi.zero_point;
  if (six_real < -128.0 || six_real > 127.0) {
    l.Fail(
        Fmt("6.0 quantizes to %.0f, outside int8 (TFLM refuses it)", six_real));
  }
  l.Emit(Fmt("  k::Relu6(k::Relu6Params{%d, %d, %" PRId64 "}, ", qi.zero_point,
             static_cast<int>(six_real), ElementCount(in)) +
         l.Addr(in) + ", " + l.Addr(out) + ");\n");
  l.StateElementwise(in, out);  // relu.hpp
}

}  // namespace arenaplan::compile
