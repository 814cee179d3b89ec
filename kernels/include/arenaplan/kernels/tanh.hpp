// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// TANH on int8, output quantized as 1/128 with zero point 0. Matches
// TensorFlow Lite Micro's tensorflow/lite/micro/kernels/tanh.cc with
// tensorflow/lite/kernels/internal/reference/integer_ops/tanh.h, which
// evaluate gemmlowp's fixed-point tanh (fixedpoint.h):
//
//   x = q_in - zp_in;
//   x <= -radius: -128;  x >= radius: 127;
//   otherwise a = MBQM(x, M, s) as Q4.27, y = tanh(a) as Q0.31, and
//   out = clamp(RoundingDivideByPOT(y, 24), -128, 127),
//
// M, s and radius as for LOGISTIC (logistic.hpp). tanh(0) = 0; for a < 0,
// tanh(a) = -(1 - e) / (1 + e) with e = exp(2a) (the Q4.27 raw value read
// as Q5.26 is 2a); a > 0 by symmetry.
//
// Loop order: i = 0 .. count - 1, input[i] read then output[i] written: the
// element-wise overlap contract, d = 0 (kElementwiseOverlapDistance,
// overlap.hpp).
#ifndef ARENAPLAN_KERNELS_TANH_HPP_
#define ARENAPLAN_KERNELS_TANH_HPP_

#include <cstdint>

#include "arenaplan/kernels/fixed_point.hpp"
#include "arenaplan/kernels/logistic.hpp"
#include "arenaplan/kernels/quantization.hpp"

namespace arenaplan::kernels {

/// (1 - a) / (1 + a) for a Q0.31 value a in [0, 1], as Q0.31: the
/// Newton-Raphson reciprocal of OneOverOnePlusX (fixed_point.hpp), x
/// approximating 1 / d for d = (1 + a) / 2 in Q2.29, then x - 1 to Q0.31
/// (gemmlowp's one_minus_x_over_one_plus_x_for_x_in_0_1).
[[nodiscard]] constexpr std::int32_t OneMinusXOverOnePlusX(std::int32_t a) {
  const std::int32_t half_denominator = RoundingHalfSum(a, kInt32Max);
  constexpr std::int32_t k48Over17 = 1515870810;        // Q2.29
  constexpr std::int32_t kMinus32Over17 = -1010580540;  // Q2.29
  constexpr std::int32_t kOneQ2 = std::int32_t{1} << 29;
  std::int32_t x = k48Over17 + SaturatingRoundingDoublingHighMul(
                                   half_denominator, kMinus32Over17);
  for (int i = 0; i < 3; ++i) {
    const std::int32_t dx =
        SaturatingRoundingDoublingHighMul(half_denominator, x);
    x += SaturatingShiftLeft(SaturatingRoundingDoublingHighMul(x, kOneQ2 - dx),
                             2);
  }
  return SaturatingShiftLeft(x - kOneQ2, 2);
}

/// gemmlowp's tanh of a Q4.27 value, as Q0.31.
[[nodiscard]] constexpr std::int32_t TanhQ4(std::int32_t a) {
  if (a == 0) return 0;
  const std::int32_t n = a < 0 ? a : -a;  // -|a|
  // n read as Q5.26 is 2n: exp(2n) in Q0.31.
  const std::int32_t t = OneMinusXOverOnePlusX(ExpOnNegativeValues<5>(n));
  return a < 0 ? -t : t;
}

using TanhParams = Q4ActivationParams;

/// output[i] = tanh(input[i]) (header comment). The output must not overlap
/// the input unless it starts kElementwiseOverlapDistance (0) or more bytes
/// below it.
inline void Tanh(const TanhParams& p, const std::int8_t* input,
                 std::int8_t* output) {
  ApplyQ4Activation(p, input, output, [](std::int32_t a) {
    return RoundingDivideByPOT(TanhQ4(a), 24);
  });
}

}  // namespace arenaplan::kernels

#endif  // ARENAPLAN_KERNELS_TANH_HPP_
