// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// ADD, SUB and MUL of int16 tensors (the (INT16, INT16, INT16) lines of
// type_rules.cpp) -> k::int16::Add / Sub / Mul
// (kernels/include/arenaplan/kernels/int16/elementwise.hpp), NumPy
// broadcasting over at most 4 dimensions, either input may be a constant.
// MUL as TFLM's mul_common.cc: every zero point 0, the multiplier
// double(s_a) * double(s_b) / double(s_out).
// TFLM's int16 preparation (add_common.cc, sub_common.cc): 15 bits of
// headroom; ADD forms the scale ratios in double, SUB in float widened to
// double (as the int8 lowerings do); every multiplier below 1.
#include <algorithm>

#include "codegen/compile/lowering.hpp"

namespace arenaplan::compile {

using tflite::Tensor;

namespace {

/// An int16 operand: its constant array or its arena address.
std::string Int16Operand(Lowerer& l, const Tensor& t) {
  return l.model().IsConstant(t) ? l.ConstInt16(t)
                                 : l.TypedAddr(t, "std::int16_t");
}

}  // namespace

void LowerAddSub16(Lowerer& l, const tflite::Operator& op, int sign) {
  if (op.inputs.size() != 2) l.Fail("expected 2 inputs");
  const Tensor& a = l.Input(op, 0);
  const Tensor& b = l.Input(op, 1);
  const Tensor& out = l.Output(op);
  const Affine qa = l.PerTensor(a), qb = l.PerTensor(b), qo = l.PerTensor(out);
  const BroadcastShape shape = BroadcastShapeOf(l, a, b, out);
  const auto& o = l.OptionsOf<tflite::ElementwiseOptions>(op);
  const ActivationRange ar = l.Activation(o.activation, qo, out);
  constexpr int kLeftShift = 15;
  double r1, r2, ro;
  if (sign > 0) {  // add_common.cc: in double
    const double twice_max = 2.0 * std::max(static_cast<double>(qa.scale),
                                            static_cast<double>(qb.scale));
    r1 = static_cast<double>(qa.scale) / twice_max;
    r2 = static_cast<double>(qb.scale) / twice_max;
    ro = twice_max / ((1 << kLeftShift) * static_cast<double>(qo.scale));
  } else {  // sub_common.cc: in float, then widened
    const float twice_max = 2 * std::max(qa.scale, qb.scale);
    r1 = static_cast<double>(qa.scale / twice_max);
    r2 = static_cast<double>(qb.scale / twice_max);
    ro = static_cast<double>(twice_max / ((1 << kLeftShift) * qo.scale));
  }
  const auto m1 = l.Multiplier(r1, "input 0 multiplier");
  const auto m2 = l.Multiplier(r2, "input 1 multiplier");
  const auto mo = l.Multiplier(ro, "output multiplier");
  // TFLite requires every multiplier below 1
  // (QuantizeMultiplierSmallerThanOneExp).
  if (mo.shift > 0) {
    l.Fail(l.Describe(out) + Fmt(": scale %.9g makes the output multiplier "
                                 "1 or more (TFLite requires less than 1)",
                                 static_cast<double>(qo.scale)));
  }
  l.Emit(
      Fmt("  k::int16::%s(k::int16::BinaryParams{%d, %d, %d, %d, %d, %d, "
          "%d, %d, %d, %d, %d, %d,\n",
          sign > 0 ? "Add" : "Sub", -qa.zero_point, -qb.zero_point,
          qo.zero_point, kLeftShift, m1.multiplier, m1.shift, m2.multiplier,
          m2.shift, mo.multiplier, mo.shift, ar.min, ar.max));
  l.Emit("      " + shape.out_shape.Code() + ", " + shape.a_strides + ", " +
         shape.b_strides + "},\n");
  l.Emit("      " + Int16Operand(l, a) + ", " + Int16Operand(l, b) + ",\n");
  l.Emit("      " + l.TypedAddr(out, "std::int16_t") + ");\n");
  StateSameShapeInputs(l, a, b, out);  // int16/elementwise.hpp
}

void LowerMul16(Lowerer& l, const tflite::Operator& op) {
  if (op.inputs.size() != 2) l.Fail("expected 2 inputs");
  const Tensor& a = l.Input(op, 0);
  const Tensor& b = l.Input(op, 1);
  const Tensor& out = l.Output(op);
  // TFLM's int16 MUL reads no offsets (mul_common.cc requires zero points 0).
  const Affine qa = SymmetricInt16(l, a), qb = SymmetricInt16(l, b),
               qo = SymmetricInt16(l, out);
  const BroadcastShape shape = BroadcastShapeOf(l, a, b, out);
  const auto& o = l.OptionsOf<tflite::ElementwiseOptions>(op);
  const ActivationRange ar = l.Activation(o.activation, qo, out);
  const QuantizedMultiplier m = l.Multiplier(static_cast<double>(qa.scale) *
                                                 static_cast<double>(qb.scale) /
                                                 static_cast<double>(qo.scale),
                                             "output multiplier");
  l.Emit(
      Fmt("  k::int16::Mul(k::MulParams{0, 0, 0, %d, %d, %d, %d, %s, %s, "
          "%s},\n",
          m.multiplier, m.shift, ar.min, ar.max, shape.out_shape.Code().c_str(),
          shape.a_strides.c_str(), shape.b_strides.c_str()));
  l.Emit("      " + Int16Operand(l, a) + ", " + Int16Operand(l, b) + ", " +
         l.TypedAddr(out, "std::int16_t") + ");\n");
  StateSameShapeInputs(l, a, b, out);  // int16/elementwise.hpp
}

}  // namespace arenaplan::compile
