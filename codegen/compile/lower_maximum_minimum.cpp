// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// MAXIMUM and MINIMUM of int8 tensors (either may be a constant), NumPy
// broadcasting over at most 4 dimensions -> k::MaximumMinimum
// (kernels/include/arenaplan/kernels/maximum_minimum.hpp). As TFLM's
// maximum_minimum.cc, the stored values are compared without rescaling;
// the quantizations are only checked to be per-tensor int8.
#include "codegen/compile/lowering.hpp"

namespace arenaplan::compile {

using tflite::Tensor;

namespace {

void LowerMaximumMinimum(Lowerer& l, const tflite::Operator& op, bool maximum) {
  if (op.inputs.size() != 2) l.Fail("expected 2 inputs");
  const Tensor& a = l.Input(op, 0);
  const Tensor& b = l.Input(op, 1);
  const Tensor& out = l.Output(op);
  (void)l.Int8Activation(a);
  (void)l.Int8Activation(b);
  (void)l.Int8Activation(out);
  if (out.shape.size() > 4) l.Fail("the output has more than 4 dimensions");
  const Dims4 os = l.Shape(out);
  std::int32_t sa[4], sb[4];
  const std::string a_strides = BroadcastStrides(l, a, os, sa);
  const std::string b_strides = BroadcastStrides(l, b, os, sb);
  const std::string a_addr =
      l.model().IsConstant(a) ? l.ConstInt8(a) : l.Addr(a);
  const std::string b_addr =
      l.model().IsConstant(b) ? l.ConstInt8(b) : l.Addr(b);
  l.Emit(Fmt("  k::MaximumMinimum(k::MaximumMinimumParams{%s, %s, %s, %s},\n",
             maximum ? "true" : "false", os.Code().c_str(), a_strides.c_str(),
             b_strides.c_str()));
  l.Emit("      " + a_addr + ", " + b_addr + ", " + l.Addr(out) + ");\n");
}

}  // namespace

void LowerMaximum(Lowerer& l, const tflite::Operator& op) {
  LowerMaximumMinimum(l, op, /*maximum=*/true);
}

void LowerMinimum(Lowerer& l, const tflite::Operator& op) {
  LowerMaximumMinimum(l, op, /*maximum=*/false);
}

}  // namespace arenaplan::compile
