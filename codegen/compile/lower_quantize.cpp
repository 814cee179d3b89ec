// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// QUANTIZE:
// - from float32 (a graph input quantized inside the graph) to int8 or
//   int16 -> k::QuantizeFromFloat (kernels/.../float_quantize.hpp);
// - from an integer type (int8, int16, uint8 as a graph input, or int32 to
//   int8 or int16) to int8, int16 or int32: a requantization -> k::Requantize
//   (kernels/include/arenaplan/kernels/quantize.hpp). TFLM's uint8 -> int8
//   fast path (flip the top bit when the scales are equal and the zero
//   points differ by 128) is the general formula with multiplier 2^30,
//   shift 1, which multiplies exactly by one.
// The accepted type pairs are QUANTIZE's line of type_rules.cpp.
#include <cinttypes>

#include "codegen/compile/edge_types.hpp"
#include "codegen/compile/lowering.hpp"
#include "codegen/compile/type_rules.hpp"

namespace arenaplan::compile {

using tflite::Tensor;
using tflite::TensorType;

void LowerQuantize(Lowerer& l, const tflite::Operator& op) {
  (void)CheckTypes(l, op);  // type_rules.cpp
  const auto [in, out] = l.Unary(op);
  if (ElementCount(in) != ElementCount(out))
    l.Fail("input and output sizes differ");
  if (in.type == TensorType::kFloat32) {
    const Affine qo = l.PerTensor(out);
    l.Emit(Fmt(
        "  k::QuantizeFromFloat(k::FloatQuantizeParams{%s, %d, "
        "%" PRId64 "},\n",
        ExactFloatLiteral(qo.scale).c_str(), qo.zero_point, ElementCount(in)));
    l.Emit("      " + l.TypedAddr(in, "float") + ", " +
           l.TypedAddr(out, Lowerer::CType(out.type)) + ");\n");
    l.StateElementwise(in, out);  // float_quantize.hpp: narrower, d = 0
    return;
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
  l.StateElementwise(in, out);  // quantize.hpp, by the element sizes
}

}  // namespace arenaplan::compile
