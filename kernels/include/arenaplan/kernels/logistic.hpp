// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// LOGISTIC (sigmoid) on int8, output quantized as 1/256 with zero point
// -128. Matches TensorFlow Lite Micro's tensorflow/lite/micro/kernels/
// logistic.cc and logistic_common.cc with tensorflow/lite/kernels/internal/
// reference/integer_ops/logistic.h, which evaluate gemmlowp's fixed-point
// logistic (fixedpoint.h) rather than a table for int8:
//
//   x = q_in - zp_in;
//   x <= -radius: -128;  x >= radius: 127;
//   otherwise a = MBQM(x, M, s) as Q4.27, y = logistic(a) as Q0.31, and
//   out = clamp(RoundingDivideByPOT(y, 23) - 128, -128, 127),
//
// with M, s = frexp(s_in * 2^27) rounded to Q0.31 and radius =
// floor(15 * 2^27 / 2^s) (CalculateInputRadius with 4 integer bits),
// computed on the host. logistic(a) = 1/2 at a = 0; for a > 0 it is
// 1 / (1 + exp(-a)) (ExpOnNegativeValues<4> then OneOverOnePlusX of
// fixed_point.hpp), for a < 0 one (INT32_MAX) minus the value at -a.
//
// Loop order: i = 0 .. count - 1, input[i] read then output[i] written: the
// element-wise overlap contract, d = 0 (kElementwiseOverlapDistance,
// overlap.hpp).
#ifndef ARENAPLAN_KERNELS_LOGISTIC_HPP_
#define ARENAPLAN_KERNELS_LOGISTIC_HPP_

#include <cstdint>

#include "arenaplan/kernels/fixed_point.hpp"
#include "arenaplan/kernels/quantization.hpp"

namespace arenaplan::kernels {

/// exp(a) for a value a <= 0 with kIntegerBits integer bits (Q(ib).(31-ib)),
/// result Q0.31: gemmlowp's exp_on_negative_values. As
/// ExpOnNegativeValuesQ5 (fixed_point.hpp), which it equals for 5 integer
/// bits, with the barrel-shifter steps exp(-2^k) for k < kIntegerBits only
/// and the clamp to 0 below -32 for more than 5 integer bits.
template <int kIntegerBits>
[[nodiscard]] constexpr std::int32_t ExpOnNegativeValues(std::int32_t a) {
  static_assert(kIntegerBits >= 1 && kIntegerBits <= 6);
  constexpr int kFractionalBits = 31 - kIntegerBits;
  constexpr std::int32_t kOneQuarter = std::int32_t{1} << (kFractionalBits - 2);
  const std::int32_t r = (a & (kOneQuarter - 1)) - kOneQuarter;
  std::int32_t result =
      ExpOnQuarterInterval(SaturatingShiftLeft(r, kIntegerBits));
  const std::int32_t remainder = static_cast<std::int32_t>(
      static_cast<std::uint32_t>(r) - static_cast<std::uint32_t>(a));
  constexpr std::int32_t kExpMinusPow2[7] = {
      1672461947, 1302514674, 790015084, 290630308, 39332535, 720401, 242};
  for (int k = -2; k <= 4; ++k) {
    if (kIntegerBits > k &&
        (remainder & (std::int32_t{1} << (kFractionalBits + k))) != 0) {
      result = SaturatingRoundingDoublingHighMul(result, kExpMinusPow2[k + 2]);
    }
  }
  if constexpr (kIntegerBits > 5) {
    if (a < -(std::int32_t{1} << (36 - kIntegerBits))) result = 0;
  }
  return a == 0 ? kInt32Max : result;
}

/// gemmlowp's logistic of a Q4.27 value, as Q0.31.
[[nodiscard]] constexpr std::int32_t LogisticQ4(std::int32_t a) {
  if (a == 0) return std::int32_t{1} << 30;  // 1/2
  const std::int32_t abs = a > 0 ? a : -a;
  const std::int32_t positive = OneOverOnePlusX(ExpOnNegativeValues<4>(-abs));
  return a > 0 ? positive : kInt32Max - positive;
}

/// The parameters of an int8 LOGISTIC or TANH (TFLM's OpData for both).
struct Q4ActivationParams {
  std::int32_t input_zero_point;
  std::int32_t input_range_radius;  ///< |x| at or above it saturates.
  std::int32_t input_multiplier, input_left_shift;  ///< x -> Q4.27.
  std::int32_t count;                               ///< Elements.
};
using LogisticParams = Q4ActivationParams;

/// The loop TFLM's int8 LOGISTIC and TANH share: x = input - zero point
/// saturates to -128 / 127 at or beyond the range radius, else `f` maps x
/// rescaled to Q4.27 to the output byte. Element i is read before it is
/// written and nothing before it is read again, so the output may start
/// kElementwiseOverlapDistance (0) or more bytes below the input.
template <class F>
inline void ApplyQ4Activation(const Q4ActivationParams& p,
                              const std::int8_t* input, std::int8_t* output,
                              F f) {
  for (std::int32_t i = 0; i < p.count; ++i) {
    const std::int32_t x =
        static_cast<std::int32_t>(input[i]) - p.input_zero_point;
    if (x <= -p.input_range_radius) {
      output[i] = -128;
    } else if (x >= p.input_range_radius) {
      output[i] = 127;
    } else {
      output[i] = ClampToInt8(f(MultiplyByQuantizedMultiplier(
                                  x, p.input_multiplier, p.input_left_shift)),
                              -128, 127);
    }
  }
}

/// output[i] = logistic(input[i]) (header comment). The output must not
/// overlap the input unless it starts kElementwiseOverlapDistance (0) or
/// more bytes below it.
inline void Logistic(const LogisticParams& p, const std::int8_t* input,
                     std::int8_t* output) {
  ApplyQ4Activation(p, input, output, [](std::int32_t a) {
    return RoundingDivideByPOT(LogisticQ4(a), 23) - 128;
  });
}

}  // namespace arenaplan::kernels

#endif  // ARENAPLAN_KERNELS_LOGISTIC_HPP_
