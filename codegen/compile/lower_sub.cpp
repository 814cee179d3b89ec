// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// SUB of int8 tensors (either may be a constant), NumPy broadcasting over
// at most 4 dimensions -> k::Sub (kernels/include/arenaplan/kernels/
// sub.hpp), with TFLM's CalculateOpDataSub (sub_common.cc): 20 bits of
// headroom, the scale ratios formed in float and widened to double, the
// fused activation's range.
#include <algorithm>

#include "codegen/compile/lowering.hpp"

namespace arenaplan::compile {

using tflite::Tensor;

void LowerSub(Lowerer& l, const tflite::Operator& op) {
  if (op.inputs.size() != 2) l.Fail("expected 2 inputs");
  const Tensor& a = l.Input(op, 0);
  const Tensor& b = l.Input(op, 1);
  const Tensor& out = l.Output(op);
  const Affine qa = l.Int8Activation(a), qb = l.Int8Activation(b),
               qo = l.Int8Activation(out);
  const auto& o = l.OptionsOf<tflite::ElementwiseOptions>(op);
  const ActivationRange ar = l.Activation(o.activation, qo, out);
  if (out.shape.size() > 4) l.Fail("the output has more than 4 dimensions");
  const Dims4 os = l.Shape(out);
  std::int32_t sa[4], sb[4];
  const std::string a_strides = BroadcastStrides(l, a, os, sa);
  const std::string b_strides = BroadcastStrides(l, b, os, sb);
  constexpr int kLeftShift = 20;
  const float twice_max = 2 * std::max(qa.scale, qb.scale);
  const auto m1 = l.Multiplier(static_cast<double>(qa.scale / twice_max),
                               "input 0 multiplier");
  const auto m2 = l.Multiplier(static_cast<double>(qb.scale / twice_max),
                               "input 1 multiplier");
  const auto mo = l.Multiplier(
      static_cast<double>(twice_max / ((1 << kLeftShift) * qo.scale)),
      "output multiplier");
  const std::string a_addr =
      l.model().IsConstant(a) ? l.ConstInt8(a) : l.Addr(a);
  const std::string b_addr =
      l.model().IsConstant(b) ? l.ConstInt8(b) : l.Addr(b);
  l.Emit(Fmt(
      "  k::Sub(k::SubParams{%d, %d, %d, %d, %d, %d, %d, %d, %d, %d, "
      "%d, %d, %s, %s, %s},\n",
      -qa.zero_point, -qb.zero_point, qo.zero_point, kLeftShift, m1.multiplier,
      m1.shift, m2.multiplier, m2.shift, mo.multiplier, mo.shift, ar.min,
      ar.max, os.Code().c_str(), a_strides.c_str(), b_strides.c_str()));
  l.Emit("      " + a_addr + ", " + b_addr + ", " + l.Addr(out) + ");\n");
}

}  // namespace arenaplan::compile
