// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// Fixed-point requantization primitives of TFLite's int8 quantization
// specification
// (https://www.tensorflow.org/lite/performance/quantization_spec): a real
// multiplier M in (0, 2^31) is stored as a Q0.31 `multiplier` in [2^30, 2^31)
// and a power-of-two `shift`, M = multiplier * 2^(shift - 31); a negative M
// (a per-channel weight scale below zero, which old converters wrote and
// TFLite runs) as a multiplier in [-2^31, -2^30], the shift that of |M|
// (INT32_MIN when |M|'s mantissa rounds up to 2^31). The rounding is
// the one TFLite inherits from gemmlowp's fixedpoint.h
// (SaturatingRoundingDoublingHighMul: ties toward +infinity, because the
// nudge 1 - 2^30 on the negative side falls one short of a half;
// RoundingDivideByPOT: ties away from zero). Two roundings in sequence, as in
// TFLite's default (non "single rounding") build.
// Freestanding: no heap, no exceptions, no libc.
#ifndef ARENAPLAN_KERNELS_QUANTIZATION_HPP_
#define ARENAPLAN_KERNELS_QUANTIZATION_HPP_

#include <cstdint>
#include <limits>

namespace arenaplan::kernels {

inline constexpr std::int32_t kInt32Min =
    std::numeric_limits<std::int32_t>::min();
inline constexpr std::int32_t kInt32Max =
    std::numeric_limits<std::int32_t>::max();

/// The high 32 bits of 2*a*b, rounded to nearest with ties toward +infinity
/// (e.g. 0.5 -> 1, -0.5 -> 0, -1.5 -> -1); saturates the one
/// overflowing case a == b == INT32_MIN to INT32_MAX (gemmlowp's
/// SaturatingRoundingDoublingHighMul). Interpreting a and b as Q0.31, this is
/// their Q0.31 product.
[[nodiscard]] constexpr std::int32_t SaturatingRoundingDoublingHighMul(
    std::int32_t a, std::int32_t b) {
  if (a == kInt32Min && b == kInt32Min) return kInt32Max;
  const std::int64_t ab = static_cast<std::int64_t>(a) * b;
  // Add 2^30 (positive) or 1 - 2^30 (negative), then truncate toward zero:
  // round to nearest of ab / 2^31, ties toward +infinity.
  const std::int64_t nudge =
      ab >= 0 ? (std::int64_t{1} << 30) : (1 - (std::int64_t{1} << 30));
  const std::int64_t s = ab + nudge;
  // Truncating division by 2^31 without a 64-bit divide (no __aeabi_ldivmod).
  const std::int64_t q = s >= 0 ? (s >> 31) : -((-s) >> 31);
  return static_cast<std::int32_t>(q);
}

/// x / 2^exponent rounded to nearest, ties away from zero (gemmlowp's
/// RoundingDivideByPOT). `exponent` in [0, 31].
[[nodiscard]] constexpr std::int32_t RoundingDivideByPOT(std::int32_t x,
                                                         int exponent) {
  const std::int32_t mask =
      static_cast<std::int32_t>((std::uint32_t{1} << exponent) - 1u);
  const std::int32_t remainder = x & mask;
  const std::int32_t threshold = (mask >> 1) + (x < 0 ? 1 : 0);
  return (x >> exponent) + (remainder > threshold ? 1 : 0);
}

/// x * multiplier * 2^(shift - 31), TFLite's MultiplyByQuantizedMultiplier:
/// a left shift (shift > 0) is applied to x before the Q0.31 product, a right
/// shift (shift < 0) after it, with the roundings above. `shift` in
/// [-31, 30]; any int32 multiplier, negative ones included (both roundings
/// are defined on the signed product; a shifted x and a multiplier both
/// INT32_MIN saturate to INT32_MAX before the right shift, as in TFLite). The
/// left shift wraps like two's complement instead of being undefined; TFLite's
/// converter never produces a case that overflows.
[[nodiscard]] constexpr std::int32_t MultiplyByQuantizedMultiplier(
    std::int32_t x, std::int32_t multiplier, int shift) {
  const int left = shift > 0 ? shift : 0;
  const int right = shift > 0 ? 0 : -shift;
  const std::int32_t shifted =
      static_cast<std::int32_t>(static_cast<std::uint32_t>(x) << left);
  return RoundingDivideByPOT(
      SaturatingRoundingDoublingHighMul(shifted, multiplier), right);
}

/// Clamps v to [lo, hi] and narrows it to int8 (lo, hi within int8).
[[nodiscard]] constexpr std::int8_t ClampToInt8(std::int32_t v, std::int32_t lo,
                                                std::int32_t hi) {
  return static_cast<std::int8_t>(v < lo ? lo : (v > hi ? hi : v));
}

/// A tensor shape in TFLite's NHWC layout (elements, not bytes).
struct Shape4 {
  std::int32_t n, h, w, c;
  [[nodiscard]] constexpr std::int32_t Count() const { return n * h * w * c; }
};

/// Requantization of one output channel of a convolution or fully
/// connected layer: real multiplier (input_scale * weight_scale[c] /
/// output_scale) as multiplier[c] * 2^(shift[c] - 31). The reference
/// kernels take negative multipliers; the fast ones (dsp.hpp OutputStage)
/// do not, and the generator does not pass them any (it negates such
/// channels where that is exact).
struct ChannelQuant {
  const std::int32_t* multiplier;  ///< One per output channel; not owned.
  /// One per output channel, in [-31, 30]; not owned.
  const std::int8_t* shift;
};

}  // namespace arenaplan::kernels

#endif  // ARENAPLAN_KERNELS_QUANTIZATION_HPP_
