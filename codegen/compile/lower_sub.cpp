// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// SUB of int8 tensors (either may be a constant), NumPy broadcasting over
// at most 4 dimensions -> k::Sub (kernels/include/arenaplan/kernels/
// sub.hpp), with TFLM's CalculateOpDataSub (sub_common.cc): 20 bits of
// headroom, the scale ratios formed in float and widened to double, the
// fused activation's range. int16 tensors: k::int16::Sub
// (lower_elementwise16.cpp); float32 tensors: k::f32::Sub
// (lower_elementwise_f32.cpp).
#include <algorithm>

#include "codegen/compile/lowering.hpp"
#include "codegen/compile/type_rules.hpp"

namespace arenaplan::compile {

void LowerSub(Lowerer& l, const tflite::Operator& op) {
  const tflite::TensorType type = CheckTypes(l, op)[0];
  if (type == tflite::TensorType::kInt16) {
    LowerAddSub16(l, op, -1);  // lower_elementwise16.cpp
    return;
  }
  if (type == tflite::TensorType::kFloat32) {
    LowerArithmeticF32(l, op, "Sub");  // lower_elementwise_f32.cpp
    return;
  }
  const BroadcastOperands x = Broadcast(l, op);
  const Affine qa = x.qa, qb = x.qb, qo = x.qo;
  const auto& o = l.OptionsOf<tflite::ElementwiseOptions>(op);
  const ActivationRange ar = l.Activation(o.activation, qo, x.out);
  constexpr int kLeftShift = 20;
  const float twice_max = 2 * std::max(qa.scale, qb.scale);
  const auto m1 = l.Multiplier(static_cast<double>(qa.scale / twice_max),
                               "input 0 multiplier");
  const auto m2 = l.Multiplier(static_cast<double>(qb.scale / twice_max),
                               "input 1 multiplier");
  const auto mo = l.Multiplier(
      static_cast<double>(twice_max / ((1 << kLeftShift) * qo.scale)),
      "output multiplier");
  l.Emit(
      Fmt("  k::Sub(k::SubParams{%d, %d, %d, %d, %d, %d, %d, %d, %d, %d, "
          "%d, %d, %s, %s, %s},\n",
          -qa.zero_point, -qb.zero_point, qo.zero_point, kLeftShift,
          m1.multiplier, m1.shift, m2.multiplier, m2.shift, mo.multiplier,
          mo.shift, ar.min, ar.max, x.out_shape.Code().c_str(),
          x.a_strides.c_str(), x.b_strides.c_str()));
  l.Emit("      " + x.a_addr + ", " + x.b_addr + ", " + l.Addr(x.out) + ");\n");
  StateUnbroadcastOverlaps(l, x);
}

}  // namespace arenaplan::compile
