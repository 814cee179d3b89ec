// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The element-wise operators on float32 tensors (the FLOAT32 lines of
// type_rules.cpp) -> kernels/include/arenaplan/kernels/float/
// elementwise.hpp, as TFLM's add.cc, sub.cc, mul.cc, div.cc,
// maximum_minimum.cc and activations.cc run them: ADD, SUB, MUL and DIV
// (k::f32::Add / Sub / Mul / Div) and MAXIMUM, MINIMUM (k::f32::Maximum /
// Minimum) with NumPy broadcasting over at most 4 dimensions (either input
// may be a constant, written exactly), ADD, SUB, MUL and DIV with the fused
// activation's float bounds; RELU, RELU6
// (k::f32::Relu / Relu6), LOGISTIC and TANH (k::f32::Logistic / Tanh,
// float/transcendental.hpp, as logistic.cc and tanh.cc) element by element;
// SOFTMAX (k::f32::Softmax, as softmax.cc) over the last dimension with
// the options' beta written exactly.
#include <cinttypes>
#include <cmath>

#include "codegen/compile/edge_types.hpp"
#include "codegen/compile/lowering.hpp"

namespace arenaplan::compile {

using tflite::Tensor;

namespace {

/// A float operand: its constant array or its arena address.
std::string FloatOperand(Lowerer& l, const Tensor& t) {
  return l.model().IsConstant(t) ? l.ConstFloat(t) : l.TypedAddr(t, "float");
}

/// Emits `k::f32::KERNEL(k::f32::PARAMS{HEAD\n SHAPE, A STRIDES, B
/// STRIDES}, a, b, out)` for a two-input broadcasting operator; `head`
/// (the activation and a comma, or nothing) opens the initializer.
void EmitBroadcastBinary(Lowerer& l, const tflite::Operator& op,
                         const char* kernel, const char* params,
                         const std::string& head) {
  if (op.inputs.size() != 2) l.Fail("expected 2 inputs");
  const Tensor& a = l.Input(op, 0);
  const Tensor& b = l.Input(op, 1);
  const Tensor& out = l.Output(op);
  const BroadcastShape shape = BroadcastShapeOf(l, a, b, out);
  l.Emit(std::string("  k::f32::") + kernel + "(k::f32::" + params + "{" +
         head + "\n      " + shape.out_shape.Code() + ", " + shape.a_strides +
         ", " + shape.b_strides + "},\n");
  l.Emit("      " + FloatOperand(l, a) + ", " + FloatOperand(l, b) + ",\n");
  l.Emit("      " + l.TypedAddr(out, "float") + ");\n");
  StateSameShapeInputs(l, a, b, out);  // float/elementwise.hpp
}

}  // namespace

void LowerArithmeticF32(Lowerer& l, const tflite::Operator& op,
                        const char* kernel) {
  const auto& o = l.OptionsOf<tflite::ElementwiseOptions>(op);
  const std::string act = FloatActivationCode(l, o.activation);
  EmitBroadcastBinary(l, op, kernel, (std::string(kernel) + "Params").c_str(),
                      act + ",");
}

void LowerMaximumMinimumF32(Lowerer& l, const tflite::Operator& op,
                            bool maximum) {
  EmitBroadcastBinary(l, op, maximum ? "Maximum" : "Minimum", "BroadcastParams",
                      "");
}

void LowerUnaryF32(Lowerer& l, const tflite::Operator& op, const char* kernel) {
  const auto [in, out] = l.Unary(op);
  if (ElementCount(in) != ElementCount(out)) {
    l.Fail("input and output sizes differ");
  }
  l.Emit(Fmt("  k::f32::%s(%" PRId64 ", ", kernel, ElementCount(in)) +
         l.TypedAddr(in, "float") + ", " + l.TypedAddr(out, "float") + ");\n");
  // float/elementwise.hpp (RELU, RELU6), float/transcendental.hpp
  // (LOGISTIC, TANH): element i read, then written.
  l.StateElementwise(in, out);
}

void LowerSoftmaxF32(Lowerer& l, const tflite::Operator& op) {
  const auto [in, out] = l.Unary(op);
  const auto& o = l.OptionsOf<tflite::SoftmaxOptions>(op);
  if (!std::isfinite(o.beta)) l.Fail("beta is not a finite number");
  if (in.shape.empty()) l.Fail("input has no dimensions");
  const std::int32_t depth = in.shape.back();
  if (depth <= 0 || ElementCount(in) <= 0) {
    l.Fail(l.Describe(in) + " has a dynamic or empty dimension");
  }
  if (ElementCount(out) != ElementCount(in)) {
    l.Fail("output size differs from input");
  }
  l.Emit(Fmt("  k::f32::Softmax(k::f32::SoftmaxParams{%" PRId64 ", %d, ",
             ElementCount(in) / depth, depth) +
         ExactFloatLiteral(o.beta) + "},\n      " + l.TypedAddr(in, "float") +
         ", " + l.TypedAddr(out, "float") + ");\n");
}

}  // namespace arenaplan::compile
