// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// MAXIMUM and MINIMUM of int8 tensors (either may be a constant), NumPy
// broadcasting over at most 4 dimensions -> k::MaximumMinimum
// (kernels/include/arenaplan/kernels/maximum_minimum.hpp). As TFLM's
// maximum_minimum.cc, the stored values are compared without rescaling;
// the quantizations are only checked to be per-tensor int8. float32
// tensors: k::f32::Maximum / Minimum (lower_elementwise_f32.cpp).
#include "codegen/compile/lowering.hpp"
#include "codegen/compile/type_rules.hpp"

namespace arenaplan::compile {

namespace {

void LowerMaximumMinimum(Lowerer& l, const tflite::Operator& op, bool maximum) {
  if (CheckTypes(l, op)[0] == tflite::TensorType::kFloat32) {
    LowerMaximumMinimumF32(l, op, maximum);  // lower_elementwise_f32.cpp
    return;
  }
  // TFLM compares the stored values: the quantizations are only checked.
  const BroadcastOperands x = Broadcast(l, op);
  l.Emit(Fmt("  k::MaximumMinimum(k::MaximumMinimumParams{%s, %s, %s, %s},\n",
             maximum ? "true" : "false", x.out_shape.Code().c_str(),
             x.a_strides.c_str(), x.b_strides.c_str()));
  l.Emit("      " + x.a_addr + ", " + x.b_addr + ", " + l.Addr(x.out) + ");\n");
  StateUnbroadcastOverlaps(l, x);
}

}  // namespace

void LowerMaximum(Lowerer& l, const tflite::Operator& op) {
  LowerMaximumMinimum(l, op, /*maximum=*/true);
}

void LowerMinimum(Lowerer& l, const tflite::Operator& op) {
  LowerMaximumMinimum(l, op, /*maximum=*/false);
}

}  // namespace arenaplan::compile
