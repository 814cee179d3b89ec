// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The output stage of the int16-activation ("16x8") kernels: TFLite's two
// MultiplyByQuantizedMultiplier forms and the int16 clamp.
//
// A 64-bit accumulator (the convolutions with an int64 bias, TRANSPOSE_CONV)
// is requantized as TFLite's common.cc does for an int64 argument (the
// build without TFLITE_SINGLE_ROUNDING, TFLM's default): the Q0.31
// multiplier M is reduced to Q0.15, R = (M + 2^15) >> 16 (0x7FFF when M is
// 0x7FFF0000 or more), and
//
//   out = int32((x * R + 2^(14 - shift)) >> (15 - shift))
//
// an arithmetic shift (floor), so ties go toward +infinity; the int64 to
// int32 narrowing keeps the low 32 bits. x must lie in [-2^47, 2^47) so that
// x * R fits in 63 bits; shift in [-31, 7].
//
// A 32-bit accumulator (a convolution with an int32 bias) takes the int32
// MultiplyByQuantizedMultiplier of quantization.hpp (two roundings).
#ifndef ARENAPLAN_KERNELS_INT16_REQUANTIZE_HPP_
#define ARENAPLAN_KERNELS_INT16_REQUANTIZE_HPP_

#include <cstdint>

#include "arenaplan/kernels/quantization.hpp"

namespace arenaplan::kernels::int16 {

/// TFLite's MultiplyByQuantizedMultiplier of an int64 x (header comment):
/// x * multiplier * 2^(shift - 31) through the Q0.15 multiplier, one
/// rounding (ties toward +infinity). x in [-2^47, 2^47), shift in [-31, 7].
[[nodiscard]] constexpr std::int32_t MultiplyByQuantizedMultiplier64(
    std::int64_t x, std::int32_t multiplier, int shift) {
  const std::int64_t reduced =
      multiplier < 0x7FFF0000 ? ((multiplier + (1 << 15)) >> 16) : 0x7FFF;
  const int total_shift = 15 - shift;
  const std::int64_t rounded =
      x * reduced + (std::int64_t{1} << (total_shift - 1));
  return static_cast<std::int32_t>(rounded >> total_shift);
}

/// The accumulator's requantization, by the accumulator's type.
[[nodiscard]] constexpr std::int32_t Requantize(std::int64_t acc,
                                                std::int32_t multiplier,
                                                int shift) {
  return MultiplyByQuantizedMultiplier64(acc, multiplier, shift);
}
[[nodiscard]] constexpr std::int32_t Requantize(std::int32_t acc,
                                                std::int32_t multiplier,
                                                int shift) {
  return MultiplyByQuantizedMultiplier(acc, multiplier, shift);
}

/// Clamps v to [lo, hi] and narrows it to int16 (lo, hi within int16).
[[nodiscard]] constexpr std::int16_t ClampToInt16(std::int32_t v,
                                                  std::int32_t lo,
                                                  std::int32_t hi) {
  return static_cast<std::int16_t>(v < lo ? lo : (v > hi ? hi : v));
}

/// One output channel oc of a 16x8 convolution (CONV_2D, DEPTHWISE_CONV_2D,
/// TRANSPOSE_CONV): adds `bias[oc]` when `bias` is not null, requantizes
/// by the channel's multiplier and shift (Requantize, by Acc's type) and
/// clamps to [act_min, act_max] (both ends included).
template <class Acc, class Quant>
[[nodiscard]] constexpr std::int16_t ChannelOutput(Acc acc, const Acc* bias,
                                                   const Quant& quant,
                                                   std::int32_t oc,
                                                   std::int32_t act_min,
                                                   std::int32_t act_max) {
  if (bias != nullptr) acc += bias[oc];
  return ClampToInt16(Requantize(acc, quant.multiplier[oc], quant.shift[oc]),
                      act_min, act_max);
}

}  // namespace arenaplan::kernels::int16

#endif  // ARENAPLAN_KERNELS_INT16_REQUANTIZE_HPP_
