// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// DIV of two int8 tensors with NumPy broadcasting over at most 4
// dimensions. Matches TensorFlow Lite Micro's tensorflow/lite/micro/kernels/
// div.cc (CalculateOpDataDiv) with tensorflow/lite/kernels/internal/
// reference/div.h (DivElementwise, BroadcastDivSlowQuantized) and the
// double-rounding helpers of kernels/internal/common.h. Per element, with
// n = a - zp_a and d = b - zp_b (both in [-255, 255]):
//
//   if d < 0: n = -n, d = -d
//   1/d = r * 2^(e_d - 31), r Q0.31 in (2^30, 2^31]: e_d = 31 - clz(d),
//       r = 1 / (1 + t) on Q0.31 (gemmlowp's one_over_one_plus_x_for_x_in_
//       0_1, fixed_point.hpp OneOverOnePlusX) with t = d * 2^clz(d) - 1
//       read as Q0.31 (GetReciprocal)
//   h = the redundant sign bits of n (CountLeadingSignBits; 31 for 0)
//   q = SRDHM(n * 2^h, r)                (MultiplyByQuantizedMultiplier-
//                                          GreaterThanOne)
//   out = clamp(zp_out + RDBPOT(SRDHM(q, M), -(s - e_d - h)), lo, hi)
//                                         (...SmallerThanOneExp)
//   (M, s) = QuantizeMultiplier(float(s_a / (s_b * s_out))), the ratio
//   formed in float as CalculateOpDataDiv forms it.
//
// Two cases TFLM leaves undefined are given a value here: a divisor equal
// to its zero point (real 0; TFLM DCHECKs it, GetReciprocal shifts by 32)
// gives hi for n > 0, lo for n < 0 and clamp(zp_out) for n = 0; and a
// right shift s - e_d - h below -31 (gemmlowp's RoundingDivideByPOT
// asserts exponent <= 31; it happens for n = 0 or a tiny n with a small
// output shift) gives 0, the correctly rounded quotient of a value below
// 2^31 by 2^32 or more. The generator refuses s > 23, so the shift is
// never positive (h >= 23 for |n| <= 255, e_d >= 0).
//
// Loop order: output elements in row-major order; each reads its two input
// elements, then writes. Overlap contract for an input with the output's
// shape: element-wise, d = 0 (kElementwiseOverlapDistance, overlap.hpp); a
// broadcast input has none.
#ifndef ARENAPLAN_KERNELS_DIV_HPP_
#define ARENAPLAN_KERNELS_DIV_HPP_

#include <cstdint>

#include "arenaplan/kernels/broadcast.hpp"
#include "arenaplan/kernels/fixed_point.hpp"
#include "arenaplan/kernels/quantization.hpp"

namespace arenaplan::kernels {

struct DivParams {
  std::int32_t a_zero_point, b_zero_point, output_zero_point;
  std::int32_t multiplier, shift;         ///< s_a / (s_b * s_out); shift <= 23.
  std::int32_t act_min, act_max;          ///< Both included.
  Shape4 output;                          ///< NHWC.
  std::int32_t a_stride[4], b_stride[4];  ///< Per output dimension.
};

namespace div_detail {

/// Bits after the sign bit that equal it (GCC's __builtin_clrsb; 31 for 0
/// and -1).
[[nodiscard]] constexpr int RedundantSignBits(std::int32_t x) {
  const std::uint32_t u = static_cast<std::uint32_t>(x < 0 ? ~x : x);
  return CountLeadingZeros(u) - 1;
}

/// (n - zp_a) / (d - zp_b) requantized (header comment), unclamped.
[[nodiscard]] constexpr std::int32_t Quotient(const DivParams& p,
                                              std::int32_t n, std::int32_t d) {
  if (d == 0) {
    return n > 0 ? kInt32Max : (n < 0 ? kInt32Min : p.output_zero_point);
  }
  if (d < 0) {
    n = -n;
    d = -d;
  }
  const int lz = CountLeadingZeros(static_cast<std::uint32_t>(d));
  const int recip_exponent = 31 - lz;
  const auto t = static_cast<std::int32_t>(
      (static_cast<std::uint32_t>(d) << lz) - (std::uint32_t{1} << 31));
  const std::int32_t recip = OneOverOnePlusX(t);
  const int headroom = RedundantSignBits(n);
  const std::int32_t q = SaturatingRoundingDoublingHighMul(
      static_cast<std::int32_t>(static_cast<std::uint32_t>(n) << headroom),
      recip);
  const int right = headroom + recip_exponent - p.shift;
  const std::int32_t scaled =
      right > 31
          ? 0
          : RoundingDivideByPOT(
                SaturatingRoundingDoublingHighMul(q, p.multiplier), right);
  return p.output_zero_point + scaled;
}

}  // namespace div_detail

/// output = a / b (header comment). The output must not overlap an input
/// unless that input has the output's shape and the output starts
/// kElementwiseOverlapDistance (0) or more bytes below it.
inline void Div(const DivParams& p, const std::int8_t* a, const std::int8_t* b,
                std::int8_t* output) {
  std::int8_t* out = output;
  ForEachBroadcast(
      p.output, p.a_stride, p.b_stride,
      [&](std::int32_t ai, std::int32_t bi) ARENAPLAN_KERNELS_INLINE_LAMBDA {
        const std::int32_t av = a[ai] - p.a_zero_point;
        const std::int32_t bv = b[bi] - p.b_zero_point;
        *out++ =
            ClampToInt8(div_detail::Quotient(p, av, bv), p.act_min, p.act_max);
      });
}

}  // namespace arenaplan::kernels

#endif  // ARENAPLAN_KERNELS_DIV_HPP_
