// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// DIV of int8 tensors (either may be a constant), NumPy broadcasting over at
// most 4 dimensions -> k::Div (kernels/include/arenaplan/kernels/div.hpp),
// with TFLM's multiplier QuantizeMultiplier(double(float(s_a / (s_b *
// s_out)))) (div.cc CalculateOpDataDiv forms the ratio in float) and the
// fused activation's range. float32 tensors: k::f32::Div
// (lower_elementwise_f32.cpp).
#include <cinttypes>

#include "codegen/compile/lowering.hpp"
#include "codegen/compile/type_rules.hpp"

namespace arenaplan::compile {

void LowerDiv(Lowerer& l, const tflite::Operator& op) {
  if (CheckTypes(l, op)[0] == tflite::TensorType::kFloat32) {
    LowerArithmeticF32(l, op, "Div");  // lower_elementwise_f32.cpp
    return;
  }
  const BroadcastOperands x = Broadcast(l, op);
  const auto& o = l.OptionsOf<tflite::ElementwiseOptions>(op);
  const ActivationRange ar = l.Activation(o.activation, x.qo, x.out);
  const float ratio = x.qa.scale / (x.qb.scale * x.qo.scale);
  const QuantizedMultiplier m =
      l.Multiplier(static_cast<double>(ratio), "output multiplier");
  if (m.shift > 23) {
    l.Fail(
        Fmt("the ratio of scales s_a / (s_b * s_out) = %g needs shift %d; "
            "the kernel takes shifts up to 23",
            static_cast<double>(ratio), m.shift));
  }
  EmitScaledBinary(l, "Div", x, m, ar);
}

}  // namespace arenaplan::compile
