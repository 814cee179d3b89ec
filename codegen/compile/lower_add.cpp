// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// ADD -> k::AddFast (kernels/include/arenaplan/kernels/add.hpp; the same
// bytes as k::Add): int8 inputs of the output's shape, TFLite's int8 ADD
// rescaling; k::AddBroadcast when an input is broadcast (NumPy rules over
// at most 4 dimensions) or constant (e.g. an int8 bias, or a state folded
// at generation time). int16 tensors: k::int16::Add
// (lower_elementwise16.cpp); float32 tensors: k::f32::Add
// (lower_elementwise_f32.cpp).
#include <algorithm>
#include <cinttypes>

#include "codegen/compile/lowering.hpp"
#include "codegen/compile/type_rules.hpp"

namespace arenaplan::compile {

using tflite::Tensor;

void LowerAdd(Lowerer& l, const tflite::Operator& op) {
  const tflite::TensorType type = CheckTypes(l, op)[0];
  if (type == tflite::TensorType::kInt16) {
    LowerAddSub16(l, op, 1);  // lower_elementwise16.cpp
    return;
  }
  if (type == tflite::TensorType::kFloat32) {
    LowerArithmeticF32(l, op, "Add");  // lower_elementwise_f32.cpp
    return;
  }
  const Tensor& a = l.Input(op, 0);
  const Tensor& b = l.Input(op, 1);
  const Tensor& out = l.Output(op);
  const Affine qa = l.Int8Activation(a), qb = l.Int8Activation(b),
               qo = l.Int8Activation(out);
  // Inputs of the output's shape, both activations: k::Add; otherwise
  // (broadcasting, or a constant input) k::AddBroadcast.
  const bool plain = a.shape == b.shape && a.shape == out.shape &&
                     !l.model().IsConstant(a) && !l.model().IsConstant(b);
  const auto& o = l.OptionsOf<tflite::ElementwiseOptions>(op);
  const ActivationRange ar = l.Activation(o.activation, qo, out);
  // TFLite's int8 ADD preparation: 20 bits of headroom, both inputs
  // rescaled to twice the larger input scale.
  constexpr int kLeftShift = 20;
  const double twice_max = 2.0 * std::max(static_cast<double>(qa.scale),
                                          static_cast<double>(qb.scale));
  const auto m1 = l.Multiplier(static_cast<double>(qa.scale) / twice_max,
                               "input 0 multiplier");
  const auto m2 = l.Multiplier(static_cast<double>(qb.scale) / twice_max,
                               "input 1 multiplier");
  const auto mo = l.Multiplier(
      twice_max / ((1 << kLeftShift) * static_cast<double>(qo.scale)),
      "output multiplier");
  // TFLite requires the output multiplier below 1
  // (QuantizeMultiplierSmallerThanOneExp in its ADD preparation); the
  // kernel relies on it: the rescaled sum plus the zero point stays in
  // int32.
  if (mo.shift > 0) {
    l.Fail(l.Describe(out) + Fmt(": scale %.9g makes the output multiplier "
                                 "1 or more (TFLite requires less than 1)",
                                 static_cast<double>(qo.scale)));
  }
  const std::string params = Fmt(
      "k::AddParams{%d, %d, %d, %d, %d, %d, %d, %d, %d, %d, %d, %d, %" PRId64
      "}",
      -qa.zero_point, -qb.zero_point, qo.zero_point, kLeftShift, m1.multiplier,
      m1.shift, m2.multiplier, m2.shift, mo.multiplier, mo.shift, ar.min,
      ar.max, ElementCount(out));
  if (!plain) {
    const BroadcastOperands x = Broadcast(l, op);
    l.Emit("  {\n    const std::int32_t a_stride[4] = " + x.a_strides +
           ", b_stride[4] = " + x.b_strides + ";\n    k::AddBroadcast(" +
           params + ",\n        " + x.out_shape.Code() +
           ", a_stride, b_stride, " + x.a_addr + ", " + x.b_addr +
           ",\n        " + l.Addr(out) + ");\n  }\n");
    return;
  }
  l.Emit(Fmt(
      "  k::AddFast(k::AddParams{%d, %d, %d, %d, %d, %d, %d, %d, %d, %d, %d, "
      "%d, %" PRId64 "},\n",
      -qa.zero_point, -qb.zero_point, qo.zero_point, kLeftShift, m1.multiplier,
      m1.shift, m2.multiplier, m2.shift, mo.multiplier, mo.shift, ar.min,
      ar.max, ElementCount(a)));
  l.Emit("      " + l.Addr(a) + ", " + l.Addr(b) + ", " + l.Addr(out) + ");\n");
  l.StateElementwise(a, out);  // add.hpp: AddFast, either input
  l.StateElementwise(b, out);
}

}  // namespace arenaplan::compile
