// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// MUL of int8 tensors (either may be a constant; int16 ones go to
// lower_elementwise16.cpp), NumPy broadcasting over at
// most 4 dimensions -> k::Mul (kernels/include/arenaplan/kernels/mul.hpp),
// with TFLM's multiplier double(s_a) * double(s_b) / double(s_out)
// (mul_common.cc) and the fused activation's range. float32 tensors:
// k::f32::Mul (lower_elementwise_f32.cpp).
#include <cinttypes>
#include <utility>

#include "codegen/compile/lowering.hpp"
#include "codegen/compile/type_rules.hpp"

namespace arenaplan::compile {

using tflite::Tensor;

std::string BroadcastStrides(const Lowerer& l, const Tensor& t,
                             const Dims4& out, std::int32_t* stride) {
  if (t.shape.size() > 4) l.Fail(l.Describe(t) + " has more than 4 dimensions");
  const Dims4 s = l.Shape(t);
  const std::int32_t dims[4] = {s.n, s.h, s.w, s.c};
  const std::int32_t odims[4] = {out.n, out.h, out.w, out.c};
  std::int32_t step = 1;
  for (int d = 3; d >= 0; --d) {
    if (dims[d] == odims[d]) {
      stride[d] = step;
    } else if (dims[d] == 1) {
      stride[d] = 0;
    } else {
      l.Fail(l.Describe(t) + " " + tflite::ShapeText(t.shape) +
             " does not broadcast to the output");
    }
    step *= dims[d];
  }
  return Fmt("{%d, %d, %d, %d}", stride[0], stride[1], stride[2], stride[3]);
}

BroadcastShape BroadcastShapeOf(const Lowerer& l, const Tensor& a,
                                const Tensor& b, const Tensor& out) {
  if (out.shape.size() > 4) l.Fail("the output has more than 4 dimensions");
  BroadcastShape s{l.Shape(out), {}, {}};
  std::int32_t sa[4], sb[4];
  s.a_strides = BroadcastStrides(l, a, s.out_shape, sa);
  s.b_strides = BroadcastStrides(l, b, s.out_shape, sb);
  return s;
}

BroadcastOperands Broadcast(Lowerer& l, const tflite::Operator& op) {
  if (op.inputs.size() != 2) l.Fail("expected 2 inputs");
  const Tensor& a = l.Input(op, 0);
  const Tensor& b = l.Input(op, 1);
  const Tensor& out = l.Output(op);
  BroadcastOperands o{a,
                      b,
                      out,
                      l.Int8Activation(a),
                      l.Int8Activation(b),
                      l.Int8Activation(out),
                      {},
                      {},
                      {},
                      {},
                      {}};
  BroadcastShape shape = BroadcastShapeOf(l, a, b, out);
  o.out_shape = shape.out_shape;
  o.a_strides = std::move(shape.a_strides);
  o.b_strides = std::move(shape.b_strides);
  o.a_addr = l.model().IsConstant(a) ? l.ConstInt8(a) : l.Addr(a);
  o.b_addr = l.model().IsConstant(b) ? l.ConstInt8(b) : l.Addr(b);
  return o;
}

void LowerMul(Lowerer& l, const tflite::Operator& op) {
  const tflite::TensorType type = CheckTypes(l, op)[0];
  if (type == tflite::TensorType::kInt16) {
    LowerMul16(l, op);  // lower_elementwise16.cpp
    return;
  }
  if (type == tflite::TensorType::kFloat32) {
    LowerArithmeticF32(l, op, "Mul");  // lower_elementwise_f32.cpp
    return;
  }
  const BroadcastOperands x = Broadcast(l, op);
  const auto& o = l.OptionsOf<tflite::ElementwiseOptions>(op);
  const ActivationRange ar = l.Activation(o.activation, x.qo, x.out);
  const QuantizedMultiplier m = l.Multiplier(
      static_cast<double>(x.qa.scale) * static_cast<double>(x.qb.scale) /
          static_cast<double>(x.qo.scale),
      "output multiplier");
  EmitScaledBinary(l, "Mul", x, m, ar);
}

void EmitScaledBinary(Lowerer& l, const char* kernel,
                      const BroadcastOperands& x, const QuantizedMultiplier& m,
                      const ActivationRange& ar) {
  l.Emit(Fmt("  k::%s(k::%sParams{%d, %d, %d, %d, %d, %d, %d, %s, %s, %s},\n",
             kernel, kernel, x.qa.zero_point, x.qb.zero_point, x.qo.zero_point,
             m.multiplier, m.shift, ar.min, ar.max, x.out_shape.Code().c_str(),
             x.a_strides.c_str(), x.b_strides.c_str()));
  l.Emit("      " + x.a_addr + ", " + x.b_addr + ", " + l.Addr(x.out) + ");\n");
  StateUnbroadcastOverlaps(l, x);
}

}  // namespace arenaplan::compile
