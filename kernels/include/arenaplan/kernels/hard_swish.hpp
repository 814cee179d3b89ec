// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// int8 HARD_SWISH, x * relu6(x + 3) / 6, in TFLite's 16-bit fixed point.
// Matches TensorFlow Lite Micro's tensorflow/lite/micro/kernels/
// hard_swish.cc and hard_swish_common.cc (HardSwishPrepare) with
// tensorflow/lite/kernels/internal/reference/hard_swish.h (the quantized
// HardSwish), step for step in int16:
//
//   v     = (in - zp_in) * 2^7                       (hires input scale
//                                                     s_in / 128)
//   pre   = SRDHM16(v, Mo16)                         (Mo = s_in/128 / s_out)
//   r     = v, saturating << (er - 1) when er > 0;
//   r     = SRDHM16(r, Mr16); saturating << 1 when er > 0;
//   r     = RoundingDivideByPOT16(r, -er) when er < 0
//                                                    (Mr = s_in/128 / (3/2^15))
//   r     = (r + 2^15) >> 1                          (relu6(x + 3) / 6 in
//                                                     [0, 1) as Q0.15)
//   out   = RoundingDivideByPOT16(SDHM16(r, pre), -eo) + zp_out,
//           saturated to int8,
//
// with SRDHM16 gemmlowp's int16 SaturatingRoundingDoublingHighMul (nudge
// 2^14, or 1 - 2^14 for a negative product, then / 2^15 toward zero),
// SDHM16 the same without the nudge (hard_swish.h's
// SaturatingDoublingHighMul), and Mo16 = (Mo's Q0.31 multiplier + 2^15) >> 16
// (DownScaleInt32ToInt16Multiplier, common.h), the same for Mr16; eo <= 0
// and er are the multipliers' exponents.
//
// Loop order: i = 0 .. count - 1, input[i] read then output[i] written.
// Overlap contract: element-wise, d = 0 (kElementwiseOverlapDistance,
// overlap.hpp; the proof in add.hpp).
#ifndef ARENAPLAN_KERNELS_HARD_SWISH_HPP_
#define ARENAPLAN_KERNELS_HARD_SWISH_HPP_

#include <cstdint>

#include "arenaplan/kernels/overlap.hpp"

namespace arenaplan::kernels {

struct HardSwishParams {
  std::int32_t input_zero_point, output_zero_point;
  /// Mo16 and eo (header comment); eo <= 0.
  std::int32_t output_multiplier_int16, output_exponent;
  /// Mr16 and er (header comment).
  std::int32_t reluish_multiplier_int16, reluish_exponent;
  std::int32_t count;  ///< Elements.
};

namespace hard_swish_detail {

/// gemmlowp's SaturatingRoundingDoublingHighMul for int16.
inline std::int16_t Srdhm16(std::int16_t a, std::int16_t b) {
  if (a == b && a == -32768) return 32767;
  const std::int32_t ab = static_cast<std::int32_t>(a) * b;
  const std::int32_t nudge = ab >= 0 ? (1 << 14) : (1 - (1 << 14));
  return static_cast<std::int16_t>((ab + nudge) / (1 << 15));
}

/// hard_swish.h's SaturatingDoublingHighMul: no rounding nudge.
inline std::int16_t Sdhm16(std::int16_t a, std::int16_t b) {
  if (a == b && a == -32768) return 32767;
  const std::int32_t ab = static_cast<std::int32_t>(a) * b;
  return static_cast<std::int16_t>(ab / (1 << 15));
}

/// gemmlowp's RoundingDivideByPOT for int16: round half away from zero.
inline std::int16_t RoundingDivideByPot16(std::int16_t x, std::int32_t e) {
  const std::int32_t mask = (1 << e) - 1;
  const std::int32_t remainder = x & mask;
  const std::int32_t threshold = (mask >> 1) + (x < 0 ? 1 : 0);
  return static_cast<std::int16_t>((x >> e) + (remainder > threshold ? 1 : 0));
}

/// hard_swish.h's SaturatingLeftShift of an int16.
inline std::int16_t SaturatingLeftShift16(std::int16_t v, std::int32_t n) {
  const std::int64_t r = static_cast<std::int64_t>(v) * (1 << n);
  return static_cast<std::int16_t>(r > 32767 ? 32767
                                             : (r < -32768 ? -32768 : r));
}

}  // namespace hard_swish_detail

/// output = hard_swish(input) (header comment). The output may start
/// kElementwiseOverlapDistance (0) or more bytes below the input.
inline void HardSwish(const HardSwishParams& p, const std::int8_t* input,
                      std::int8_t* output) {
  namespace d = hard_swish_detail;
  const auto mo = static_cast<std::int16_t>(p.output_multiplier_int16);
  const auto mr = static_cast<std::int16_t>(p.reluish_multiplier_int16);
  for (std::int32_t i = 0; i < p.count; ++i) {
    const auto v =
        static_cast<std::int16_t>((input[i] - p.input_zero_point) * (1 << 7));
    const std::int16_t pre = d::Srdhm16(v, mo);
    std::int16_t r = v;
    if (p.reluish_exponent > 0) {
      r = d::SaturatingLeftShift16(r, p.reluish_exponent - 1);
    }
    r = d::Srdhm16(r, mr);
    if (p.reluish_exponent > 0) r = d::SaturatingLeftShift16(r, 1);
    if (p.reluish_exponent < 0) {
      r = d::RoundingDivideByPot16(r, -p.reluish_exponent);
    }
    r = static_cast<std::int16_t>((r + (1 << 15)) >> 1);
    const std::int16_t prod = d::Sdhm16(r, pre);
    // int16 arithmetic as TFLM's (the sum is stored back into an int16).
    const auto out = static_cast<std::int16_t>(
        d::RoundingDivideByPot16(prod, -p.output_exponent) +
        p.output_zero_point);
    output[i] =
        static_cast<std::int8_t>(out > 127 ? 127 : (out < -128 ? -128 : out));
  }
}

}  // namespace arenaplan::kernels

#endif  // ARENAPLAN_KERNELS_HARD_SWISH_HPP_
