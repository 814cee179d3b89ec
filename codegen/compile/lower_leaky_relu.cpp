// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// LEAKY_RELU on int8 -> k::LeakyRelu (kernels/.../leaky_relu.hpp), on int16
// -> k::int16::LeakyRelu (kernels/.../int16/elementwise.hpp); the types as
// type_rules.cpp lists them. The two ratios are formed in float, as TFLM's
// leaky_relu_common.cc forms them (for both types), before
// QuantizeMultiplier.
#include <cinttypes>
#include <cmath>

#include "codegen/compile/lowering.hpp"
#include "codegen/compile/type_rules.hpp"

namespace arenaplan::compile {

void LowerLeakyRelu(Lowerer& l, const tflite::Operator& op) {
  const bool wide = CheckTypes(l, op)[0] == tflite::TensorType::kInt16;
  const auto [in, out] = l.Unary(op);
  const Affine qi = wide ? l.PerTensor(in) : l.Int8Activation(in);
  const Affine qo = wide ? l.PerTensor(out) : l.Int8Activation(out);
  const float alpha = l.OptionsOf<tflite::LeakyReluOptions>(op).alpha;
  if (!(alpha >= 0.0f) || !std::isfinite(alpha)) {
    l.Fail(Fmt("alpha %.9g: only a finite non-negative alpha is supported",
               static_cast<double>(alpha)));
  }
  if (ElementCount(in) != ElementCount(out))
    l.Fail("input and output sizes differ");
  const float identity = qi.scale / qo.scale;
  const float scaled_alpha = qi.scale * alpha / qo.scale;
  const QuantizedMultiplier id =
      l.Multiplier(static_cast<double>(identity), "input/output scale ratio");
  const QuantizedMultiplier al =
      l.Multiplier(static_cast<double>(scaled_alpha), "alpha scale ratio");
  l.Emit(
      Fmt("  k::%sLeakyRelu(k::LeakyReluParams{%d, %d, %d, %d, %d, %d, "
          "%" PRId64 "},\n",
          wide ? "int16::" : "", qi.zero_point, qo.zero_point, id.multiplier,
          id.shift, al.multiplier, al.shift, ElementCount(in)));
  const char* ctype = wide ? "std::int16_t" : "std::int8_t";
  l.Emit("      " + l.TypedAddr(in, ctype) + ", " + l.TypedAddr(out, ctype) +
         ");\n");
  l.StateElementwise(in, out);  // leaky_relu.hpp, int16/elementwise.hpp
}

}  // namespace arenaplan::compile
