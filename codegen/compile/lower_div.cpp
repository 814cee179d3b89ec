// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// DIV of int8 tensors (either may be a constant), NumPy broadcasting over at
// most 4 dimensions -> k::Div (kernels/include/arenaplan/kernels/div.hpp),
// with TFLM's multiplier QuantizeMultiplier(double(float(s_a / (s_b *
// s_out)))) (div.cc CalculateOpDataDiv forms the ratio in float) and the
// fused activation's range.
#include <cinttypes>

#include "codegen/compile/lowering.hpp"

namespace arenaplan::compile {

void LowerDiv(Lowerer& l, const tflite::Operator& op) {
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
  l.Emit(Fmt("  k::Div(k::DivParams{%d, %d, %d, %d, %d, %d, %d, %s, %s, %s},\n",
             x.qa.zero_point, x.qb.zero_point, x.qo.zero_point, m.multiplier,
             m.shift, ar.min, ar.max, x.out_shape.Code().c_str(),
             x.a_strides.c_str(), x.b_strides.c_str()));
  l.Emit("      " + x.a_addr + ", " + x.b_addr + ", " + l.Addr(x.out) + ");\n");
}

}  // namespace arenaplan::compile
