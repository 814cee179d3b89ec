// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// ADD and RELU on float32 tensors (the FLOAT32 lines of type_rules.cpp) ->
// k::f32::Add / k::f32::Relu
// (kernels/include/arenaplan/kernels/float/elementwise.hpp), as TFLM's
// add.cc and activations.cc run them: ADD with NumPy broadcasting over at
// most 4 dimensions (either input may be a constant, written exactly) and
// the fused activation's float bounds; RELU element by element.
#include <cinttypes>

#include "codegen/compile/lowering.hpp"

namespace arenaplan::compile {

using tflite::Tensor;

namespace {

/// A float operand: its constant array or its arena address.
std::string FloatOperand(Lowerer& l, const Tensor& t) {
  return l.model().IsConstant(t) ? l.ConstFloat(t) : l.TypedAddr(t, "float");
}

}  // namespace

void LowerAddF32(Lowerer& l, const tflite::Operator& op) {
  if (op.inputs.size() != 2) l.Fail("expected 2 inputs");
  const Tensor& a = l.Input(op, 0);
  const Tensor& b = l.Input(op, 1);
  const Tensor& out = l.Output(op);
  const BroadcastShape shape = BroadcastShapeOf(l, a, b, out);
  const auto& o = l.OptionsOf<tflite::ElementwiseOptions>(op);
  const std::string act = FloatActivationCode(l, o.activation);
  l.Emit("  k::f32::Add(k::f32::AddParams{" + act + ",\n      " +
         shape.out_shape.Code() + ", " + shape.a_strides + ", " +
         shape.b_strides + "},\n");
  l.Emit("      " + FloatOperand(l, a) + ", " + FloatOperand(l, b) + ",\n");
  l.Emit("      " + l.TypedAddr(out, "float") + ");\n");
}

void LowerReluF32(Lowerer& l, const tflite::Operator& op) {
  const auto [in, out] = l.Unary(op);
  if (ElementCount(in) != ElementCount(out)) {
    l.Fail("input and output sizes differ");
  }
  l.Emit(Fmt("  k::f32::Relu(%" PRId64 ", ", ElementCount(in)) +
         l.TypedAddr(in, "float") + ", " + l.TypedAddr(out, "float") + ");\n");
}

}  // namespace arenaplan::compile
