// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// FULLY_CONNECTED on float32 tensors (the (FLOAT32, FLOAT32, FLOAT32) line
// of type_rules.cpp) -> k::f32::FullyConnected
// (kernels/include/arenaplan/kernels/float/fully_connected.hpp), as TFLM's
// fully_connected.cc runs it: constant float weights [units, depth], an
// optional float bias of `units` entries, the input read as batches x
// depth, the fused activation's float bounds (TFLite's
// CalculateActivationRange<float>). The constants are written exactly
// (lowering_float.cpp).
#include <cinttypes>

#include "codegen/compile/lowering.hpp"

namespace arenaplan::compile {

void LowerFullyConnectedF32(Lowerer& l, const tflite::Operator& op) {
  const tflite::Tensor& in = l.Input(op, 0);
  const tflite::Tensor& w = l.Input(op, 1);
  const tflite::Tensor& out = l.Output(op);
  const auto& o = l.OptionsOf<tflite::FullyConnectedOptions>(op);
  const auto [batches, depth, units] = CheckFullyConnected(l, op);
  const std::string act = FloatActivationCode(l, o.activation);
  const std::string weights = l.ConstFloat(w);
  const std::string bias = l.FloatBias(op, units);
  const std::string input =
      l.model().IsConstant(in) ? l.ConstFloat(in) : l.TypedAddr(in, "float");
  l.Emit("  k::f32::FullyConnected(\n      k::f32::FullyConnectedParams{" +
         act + Fmt(", %" PRId64 ", %d, %d},\n", batches, depth, units));
  l.Emit("      " + input + ", " + weights + ", " + bias + ",\n      " +
         l.TypedAddr(out, "float") + ");\n");
}

}  // namespace arenaplan::compile
