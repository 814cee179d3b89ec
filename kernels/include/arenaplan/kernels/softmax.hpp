// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// int8 SOFTMAX over the last dimension with TensorFlow Lite's fixed-point
// method for int8 input (the one TFLM's reference kernel runs for int8 and
// int16 outputs), so outputs agree with TFLM bit for bit:
//   d = x - max(row), skipped (output = minimum) when d < diff_min;
//   s = d * beta * input_scale as Q5.26 (d * 2^left_shift, then a Q0.31
//       multiplier: SaturatingRoundingDoublingHighMul);
//   e = exp(s) in Q0.31 (fixed_point.hpp), summed in Q12.19;
//   1 / sum as a Q0.31 reciprocal of the sum normalised to [1, 2) and a
//       power of two (num_bits_over_unit);
//   out = RoundingDivideByPOT(e * reciprocal, num_bits_over_unit + 31 -
//       output bits) + output minimum, saturated.
// Output quantization: int8 scale 1/256 zero point -128, or int16 scale
// 1/65536 zero point -32768 (the only ones TFLite allows here).
#ifndef ARENAPLAN_KERNELS_SOFTMAX_HPP_
#define ARENAPLAN_KERNELS_SOFTMAX_HPP_

#include <cstdint>

#include "arenaplan/kernels/fixed_point.hpp"
#include "arenaplan/kernels/quantization.hpp"

namespace arenaplan::kernels {

struct SoftmaxParams {
  /// beta * input_scale * 2^26 = input_multiplier * 2^(input_left_shift -
  /// 31): a Q0.31 multiplier in [2^30, 2^31) and a left shift >= 0.
  std::int32_t input_multiplier;
  std::int32_t input_left_shift;
  /// The most negative difference x - max computed (<= 0); smaller ones
  /// would overflow d * 2^input_left_shift and give the output minimum.
  std::int32_t diff_min;
  std::int32_t rows;  ///< Number of independent rows.
  /// Elements per row (the last dimension), in [1, 4095]: the sum of a
  /// row's exps, each at most 2^19 in Q12.19, stays below 2^31.
  std::int32_t depth;
};

namespace detail {

/// The row's scaled difference d * beta * input_scale as Q5.26.
[[nodiscard]] constexpr std::int32_t SoftmaxScaledDiff(const SoftmaxParams& p,
                                                       std::int32_t diff) {
  const auto shifted = static_cast<std::int32_t>(
      static_cast<std::uint32_t>(diff) << p.input_left_shift);
  return SaturatingRoundingDoublingHighMul(shifted, p.input_multiplier);
}

template <typename OutputT, std::int32_t kMin, std::int32_t kMax, int kBits>
inline void Softmax(const SoftmaxParams& p, const std::int8_t* input,
                    OutputT* output) {
  for (std::int32_t r = 0; r < p.rows; ++r) {
    const std::int8_t* in = input + r * p.depth;
    OutputT* out = output + r * p.depth;
    std::int32_t max = -128;
    for (std::int32_t i = 0; i < p.depth; ++i) max = in[i] > max ? in[i] : max;
    std::int32_t sum = 0;  // Q12.19
    for (std::int32_t i = 0; i < p.depth; ++i) {
      const std::int32_t diff = in[i] - max;
      if (diff >= p.diff_min) {
        sum += RoundingDivideByPOT(
            ExpOnNegativeValuesQ5(SoftmaxScaledDiff(p, diff)), 12);
      }
    }
    // sum >= exp(0) > 0. Normalise: sum = (1 + f) * 2^(12 - headroom),
    // f in [0, 1) as Q0.31.
    const int headroom = CountLeadingZeros(static_cast<std::uint32_t>(sum));
    const int bits_over_unit = 12 - headroom;
    const auto f = static_cast<std::int32_t>(
        (static_cast<std::uint32_t>(sum) << headroom) - 0x80000000u);
    const std::int32_t reciprocal = OneOverOnePlusX(f);
    const int exponent = bits_over_unit + 31 - kBits;
    for (std::int32_t i = 0; i < p.depth; ++i) {
      const std::int32_t diff = in[i] - max;
      std::int32_t v = kMin;
      if (diff >= p.diff_min) {
        const std::int32_t e =
            ExpOnNegativeValuesQ5(SoftmaxScaledDiff(p, diff));
        // The product is below 2^31, so a division by 2^32 or more rounds
        // to 0 (TFLite requires exponent <= 31 and stops otherwise).
        const std::int32_t scaled =
            exponent > 31
                ? 0
                : RoundingDivideByPOT(
                      SaturatingRoundingDoublingHighMul(reciprocal, e),
                      exponent);
        v = scaled + kMin;
        v = v > kMax ? kMax : (v < kMin ? kMin : v);
      }
      out[i] = static_cast<OutputT>(v);
    }
  }
}

}  // namespace detail

/// int8 output (scale 1/256, zero point -128). The output must not overlap
/// the input.
inline void Softmax(const SoftmaxParams& p, const std::int8_t* input,
                    std::int8_t* output) {
  detail::Softmax<std::int8_t, -128, 127, 8>(p, input, output);
}

/// int16 output (scale 1/65536, zero point -32768). The output must not
/// overlap the input.
inline void SoftmaxInt16(const SoftmaxParams& p, const std::int8_t* input,
                         std::int16_t* output) {
  detail::Softmax<std::int16_t, -32768, 32767, 16>(p, input, output);
}

}  // namespace arenaplan::kernels

#endif  // ARENAPLAN_KERNELS_SOFTMAX_HPP_
