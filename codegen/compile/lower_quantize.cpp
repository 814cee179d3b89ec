// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// QUANTIZE with an integer input (requantization between int8/int16/int32
// scales) -> k::Requantize (kernels/include/arenaplan/kernels/quantize.hpp).
#include <cinttypes>

#include "codegen/compile/lowering.hpp"

namespace arenaplan::compile {

using tflite::TensorType;

void LowerQuantize(Lowerer& l, const tflite::Operator& op) {
  const auto [in, out] = l.Unary(op);
  if (in.type != TensorType::kInt8 && in.type != TensorType::kInt16) {
    l.Fail(l.Describe(in) + " is " + tflite::TensorTypeName(in.type) +
           "; QUANTIZE takes INT8 or INT16 input (requantization)");
  }
  const Affine qi = l.PerTensor(in), qo = l.PerTensor(out);
  if (ElementCount(in) != ElementCount(out))
    l.Fail("input and output sizes differ");
  const QuantizedMultiplier m = l.Multiplier(
      static_cast<double>(qi.scale) / static_cast<double>(qo.scale),
      "scale ratio");
  l.Emit(Fmt(
      "  k::Requantize(k::RequantizeParams{%d, %d, %d, %d, %" PRId64 "},\n",
      -qi.zero_point, qo.zero_point, m.multiplier, m.shift, ElementCount(in)));
  l.Emit("      " + l.TypedAddr(in, Lowerer::CType(in.type)) + ", " +
         l.TypedAddr(out, Lowerer::CType(out.type)) + ");\n");
}

}  // namespace arenaplan::compile
