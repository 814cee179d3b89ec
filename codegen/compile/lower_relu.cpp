// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// RELU on int8 -> k::Relu (kernels/.../relu.hpp), with TFLM's parameters
// (activations_common.cc): the scale ratio formed in float, the clamp
// [max(-128, zp_out), 127].
#include <algorithm>
#include <cinttypes>

#include "codegen/compile/lowering.hpp"

namespace arenaplan::compile {

using tflite::Tensor;

void LowerRelu(Lowerer& l, const tflite::Operator& op) {
  const Tensor& in = l.Input(op, 0);
  const Tensor& out = l.Output(op);
  const Affine qi = l.Int8Activation(in), qo = l.Int8Activation(out);
  if (ElementCount(in) != ElementCount(out))
    l.Fail("input and output sizes differ");
  const float ratio = qi.scale / qo.scale;
  const QuantizedMultiplier m =
      l.Multiplier(static_cast<double>(ratio), "input/output scale ratio");
  const std::int32_t lo = std::max(-128, qo.zero_point);
  l.Emit(Fmt("  k::Relu(k::ReluParams{%d, %d, %d, %d, %d, 127, %" PRId64 "},\n",
             qi.zero_point, qo.zero_point, m.multiplier, m.shift, lo,
             ElementCount(in)));
  l.Emit("      " + l.Addr(in) + ", " + l.Addr(out) + ");\n");
}

}  // namespace arenaplan::compile
