// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// DEQUANTIZE from int8, uint8 or int16 to float32 (the combinations of
// type_rules.cpp) -> k::DequantizeToFloat (kernels/.../float_quantize.hpp):
// float(scale) * float(q - zero point), one rounding of the exact product
// (|q - zero point| < 2^17 and a 24-bit significand: the product is exact
// in double), so the same float as TFLM's reference Dequantize, which
// rounds the double product double(scale) * (q - zero point).
// Constant float16/int8 weights dequantized ahead of a float operator are
// not lowered: no float operator is.
#include <cinttypes>

#include "codegen/compile/edge_types.hpp"
#include "codegen/compile/lowering.hpp"
#include "codegen/compile/type_rules.hpp"

namespace arenaplan::compile {

using tflite::Tensor;
using tflite::TensorType;

void LowerDequantize(Lowerer& l, const tflite::Operator& op) {
  (void)CheckTypes(l, op);
  const Tensor& in = l.Input(op, 0);
  const Tensor& out = l.Output(op);
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
  l.StateElementwise(in, out);  // float_quantize.hpp: wider, d > 0
}

}  // namespace arenaplan::compile
