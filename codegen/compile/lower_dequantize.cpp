// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// DEQUANTIZE from int8, uint8 or int16 to float32 (a graph output returned
// as float) -> k::DequantizeToFloat (kernels/.../float_quantize.hpp).
// Constant float16/int8 weights dequantized ahead of a float operator are
// not lowered: no float operator is.
#include <cinttypes>

#include "codegen/compile/edge_types.hpp"
#include "codegen/compile/lowering.hpp"

namespace arenaplan::compile {

using tflite::Tensor;
using tflite::TensorType;

void LowerDequantize(Lowerer& l, const tflite::Operator& op) {
  const Tensor& in = l.Input(op, 0);
  const Tensor& out = l.Output(op);
  if (out.type != TensorType::kFloat32) {
    l.Fail(l.Describe(out) + " is " + tflite::TensorTypeName(out.type) +
           "; DEQUANTIZE gives FLOAT32");
  }
  if (in.type != TensorType::kInt8 && in.type != TensorType::kInt16 &&
      in.type != TensorType::kUint8) {
    l.Fail(l.Describe(in) + " is " + tflite::TensorTypeName(in.type) +
           "; DEQUANTIZE takes INT8, UINT8 or INT16");
  }
  if (l.model().IsConstant(in)) l.Fail(l.Describe(in) + " is a constant");
  if (ElementCount(in) != ElementCount(out))
    l.Fail("input and output sizes differ");
  const Affine qi =
      in.type == TensorType::kUint8 ? Uint8PerTensor(l, in) : l.PerTensor(in);
  l.Emit(Fmt(
      "  k::DequantizeToFloat(k::FloatQuantizeParams{%s, %d, "
      "%" PRId64 "},\n",
      ExactFloatLiteral(qi.scale).c_str(), qi.zero_point, ElementCount(in)));
  l.Emit("      " + l.TypedAddr(in, Lowerer::CType(in.type)) + ", " +
         l.TypedAddr(out, "float") + ");\n");
}

}  // namespace arenaplan::compile
