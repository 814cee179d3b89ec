// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// HARD_SWISH, int8 -> int8 -> k::HardSwish (kernels/include/arenaplan/
// kernels/hard_swish.hpp), with TFLM's HardSwishPrepare
// (hard_swish_common.cc): the hires input scale s_in / 128 and the ratios
// formed in float, QuantizeMultiplier, then the Q0.31 multipliers rounded
// to Q0.15 (DownScaleInt32ToInt16Multiplier); TFLM requires the output
// exponent <= 0.
#include <cinttypes>
#include <limits>

#include "codegen/compile/lowering.hpp"

namespace arenaplan::compile {

namespace {

/// DownScaleInt32ToInt16Multiplier (tensorflow/lite/kernels/internal/
/// common.h): round a non-negative Q0.31 multiplier to Q0.15.
std::int32_t DownScaleToInt16(std::int32_t m) {
  constexpr std::int32_t kRoundingOffset = 1 << 15;
  if (m >= std::numeric_limits<std::int32_t>::max() - kRoundingOffset) {
    return std::numeric_limits<std::int16_t>::max();
  }
  return (m + kRoundingOffset) >> 16;
}

}  // namespace

void LowerHardSwish(Lowerer& l, const tflite::Operator& op) {
  if (op.inputs.size() != 1) l.Fail("expected 1 input");
  const UnaryOperands u = l.Unary(op);
  const Affine qi = l.Int8Activation(u.in), qo = l.Int8Activation(u.out);
  if (u.in.shape != u.out.shape) l.Fail("input and output shapes differ");
  const float hires_input_scale = (1.0f / 128.0f) * qi.scale;
  const float reluish_scale = 3.0f / 32768.0f;
  const QuantizedMultiplier mo = l.Multiplier(
      static_cast<double>(hires_input_scale / qo.scale), "output multiplier");
  if (mo.shift > 0) {
    l.Fail(
        Fmt("output multiplier exponent %d > 0 (the output scale is below "
            "1/128 of the input's; TFLM refuses it)",
            mo.shift));
  }
  const QuantizedMultiplier mr =
      l.Multiplier(static_cast<double>(hires_input_scale / reluish_scale),
                   "reluish multiplier");
  l.Emit(Fmt(
      "  k::HardSwish(k::HardSwishParams{%d, %d, %d, %d, %d, %d, "
      "%" PRId64 "},\n",
      qi.zero_point, qo.zero_point, DownScaleToInt16(mo.multiplier), mo.shift,
      DownScaleToInt16(mr.multiplier), mr.shift, ElementCount(u.in)));
  l.Emit("      " + l.Addr(u.in) + ", " + l.Addr(u.out) + ");\n");
  l.StateElementwise(u.in, u.out);  // hard_swish.hpp
}

}  // namespace arenaplan::compile
