// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// MUL of int8 tensors (either may be a constant), NumPy broadcasting over at
// most 4 dimensions -> k::Mul (kernels/include/arenaplan/kernels/mul.hpp),
// with TFLM's multiplier double(s_a) * double(s_b) / double(s_out)
// (mul_common.cc) and the fused activation's range.
#include <cinttypes>

#include "codegen/compile/lowering.hpp"

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

void LowerMul(Lowerer& l, const tflite::Operator& op) {
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
  const QuantizedMultiplier m = l.Multiplier(static_cast<double>(qa.scale) *
                                                 static_cast<double>(qb.scale) /
                                                 static_cast<double>(qo.scale),
                                             "output multiplier");
  const std::string a_addr =
      l.model().IsConstant(a) ? l.ConstInt8(a) : l.Addr(a);
  const std::string b_addr =
      l.model().IsConstant(b) ? l.ConstInt8(b) : l.Addr(b);
  l.Emit(Fmt("  k::Mul(k::MulParams{%d, %d, %d, %d, %d, %d, %d, %s, %s, %s},\n",
             qa.zero_point, qb.zero_point, qo.zero_point, m.multiplier, m.shift,
             ar.min, ar.max, os.Code().c_str(), a_strides.c_str(),
             b_strides.c_str()));
  l.Emit("      " + a_addr + ", " + b_addr + ", " + l.Addr(out) + ");\n");
}

}  // namespace arenaplan::compile
