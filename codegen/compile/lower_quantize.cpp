// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// QUANTIZE:
// - from float32 (a graph input quantized inside the graph) to int8 or
//   int16 -> k::QuantizeFromFloat (kernels/.../float_quantize.hpp);
// - from an integer type (int8, int16, or uint8 as a graph input) to int8,
//   int16 or int32: a requantization -> k::Requantize
//   (kernels/include/arenaplan/kernels/quantize.hpp). TFLM's uint8 -> int8
//   fast path (flip the top bit when the scales are equal and the zero
//   points differ by 128) is the general formula with multiplier 2^30,
//   shift 1, which multiplies exactly by one.
#include <cinttypes>

#include "codegen/compile/edge_types.hpp"
#include "codegen/compile/lowering.hpp"

namespace arenaplan::compile {

using tflite::Tensor;
using tflite::TensorType;

void LowerQuantize(Lowerer& l, const tflite::Operator& op) {
  const auto [in, out] = l.Unary(op);
  if (ElementCount(in) != ElementCount(out))
    l.Fail("input and output sizes differ");
  if (in.type == TensorType::kFloat32) {
    if (out.type != TensorType::kInt8 && out.type != TensorType::kInt16) {
      l.Fail(l.Describe(out) + " is " + tflite::TensorTypeName(out.type) +
             "; QUANTIZE from FLOAT32 gives INT8 or INT16");
    }
    const Affine qo = l.PerTensor(out);
    l.Emit(Fmt(
        "  k::QuantizeFromFloat(k::FloatQuantizeParams{%s, %d, "
        "%" PRId64 "},\n",
        ExactFloatLiteral(qo.scale).c_str(), qo.zero_point, ElementCount(in)));
    l.Emit("      " + l.TypedAddr(in, "float") + ", " +
           l.TypedAddr(out, Lowerer::CType(out.type)) + ");\n");
    return;
  }
  if (in.type != TensorType::kInt8 && in.type != TensorType::kInt16 &&
      in.type != TensorType::kUint8) {
    l.Fail(l.Describe(in) + " is " + tflite::TensorTypeName(in.type) +
           "; QUANTIZE takes FLOAT32, UINT8, INT8 or INT16 input");
  }
  const Affine qi =
      in.type == TensorType::kUint8 ? Uint8PerTensor(l, in) : l.PerTensor(in);
  const Affine qo = l.PerTensor(out);
  const QuantizedMultiplier m = l.Multiplier(
      static_cast<double>(qi.scale) / static_cast<double>(qo.scale),
      "scale ratio");
  l.Emit(Fmt(
      "  k::Requantize(k::RequantizeParams{%d, %d, %d, %d, %" PRId64 "},\n",
      -qi.zero_point, qo.zero_point, m.multiplier, m.shift, ElementCount(in)));
  l.Emit("      " + l.TypedAddr(in, Lowerer::CType(in.type)) + ", " +
         l.TypedAddr(out, Lowerer::CType(out.type)) + ");\n");
  if (in.type == out.type) l.StateElementwise(in, out);  // quantize.hpp
}

}  // namespace arenaplan::compile
