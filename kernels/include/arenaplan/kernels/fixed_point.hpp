// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// Fixed-point exp and reciprocal on int32 raw values, with the arithmetic
// of gemmlowp's fixedpoint.h that TensorFlow Lite's quantized softmax uses,
// so results agree bit for bit. Notation: Qm.n is a signed int32 raw value
// r meaning r * 2^-n with m = 31 - n integer bits. Products of two values
// are SaturatingRoundingDoublingHighMul (Qa * Qb -> Q(a+b)); changing the
// integer bits from a to b < a multiplies the raw value by 2^(a-b),
// saturating; from a to b > a divides by 2^(b-a), rounding to nearest
// (RoundingDivideByPOT). Freestanding: no heap, no exceptions, no libc.
#ifndef ARENAPLAN_KERNELS_FIXED_POINT_HPP_
#define ARENAPLAN_KERNELS_FIXED_POINT_HPP_

#include <cstdint>

#include "arenaplan/kernels/quantization.hpp"

namespace arenaplan::kernels {

/// x * 2^exponent, saturated to int32: any |x| > 2^(31 - exponent) - 1
/// gives INT32_MIN or INT32_MAX by its sign. `exponent` in [1, 30].
[[nodiscard]] constexpr std::int32_t SaturatingShiftLeft(std::int32_t x,
                                                         int exponent) {
  const std::int32_t threshold = (std::int32_t{1} << (31 - exponent)) - 1;
  if (x > threshold) return kInt32Max;
  if (x < -threshold) return kInt32Min;
  return static_cast<std::int32_t>(static_cast<std::uint32_t>(x) << exponent);
}

/// (a + b) / 2 rounded to nearest, ties away from zero.
[[nodiscard]] constexpr std::int32_t RoundingHalfSum(std::int32_t a,
                                                     std::int32_t b) {
  const std::int64_t sum = std::int64_t{a} + b;
  const std::int64_t half = sum >= 0 ? (sum + 1) / 2 : (sum - 1) / 2;
  return static_cast<std::int32_t>(half);
}

/// Leading zero bits of x (32 for 0), without a library call.
[[nodiscard]] constexpr int CountLeadingZeros(std::uint32_t x) {
  int n = 0;
  for (std::uint32_t bit = 0x80000000u; bit != 0 && (x & bit) == 0; bit >>= 1) {
    ++n;
  }
  return n;
}

/// exp(a) for a Q0.31 value a in [-1/4, 0): the Taylor polynomial of
/// degree 4 around -1/8, exp(-1/8) * (1 + x + x^2/2 + x^3/6 + x^4/24) with
/// x = a + 1/8, evaluated as exp(-1/8) + exp(-1/8) * (x + ((x^4/4 + x^3) *
/// 1/3 + x^2) / 2). Result Q0.31.
[[nodiscard]] constexpr std::int32_t ExpOnQuarterInterval(std::int32_t a) {
  constexpr std::int32_t kExpMinusOneEighth = 1895147668;  // Q0.31
  constexpr std::int32_t kOneThird = 715827883;            // Q0.31
  const std::int32_t x = a + (std::int32_t{1} << 28);      // + 1/8
  const std::int32_t x2 = SaturatingRoundingDoublingHighMul(x, x);
  const std::int32_t x3 = SaturatingRoundingDoublingHighMul(x2, x);
  const std::int32_t x4 = SaturatingRoundingDoublingHighMul(x2, x2);
  const std::int32_t x4_over_4 = RoundingDivideByPOT(x4, 2);
  const std::int32_t poly = RoundingDivideByPOT(
      SaturatingRoundingDoublingHighMul(x4_over_4 + x3, kOneThird) + x2, 1);
  return kExpMinusOneEighth +
         SaturatingRoundingDoublingHighMul(kExpMinusOneEighth, x + poly);
}

/// exp(a) for a Q5.26 value a <= 0 (a in [-32, 0]); result Q0.31
/// (exp(0) = INT32_MAX). a is split as a = r - q / 4 with r in [-1/4, 0)
/// and q >= 0 a whole number of quarters: exp(r) by the polynomial, then
/// one multiplication by exp(-2^k) for each bit k of q / 4 (k = -2 .. 4).
[[nodiscard]] constexpr std::int32_t ExpOnNegativeValuesQ5(std::int32_t a) {
  constexpr int kFractionalBits = 26;
  constexpr std::int32_t kOneQuarter = std::int32_t{1} << (kFractionalBits - 2);
  const std::int32_t r = (a & (kOneQuarter - 1)) - kOneQuarter;
  // Q5.26 -> Q0.31: five integer bits fewer.
  std::int32_t result = ExpOnQuarterInterval(SaturatingShiftLeft(r, 5));
  const std::int32_t remainder = r - a;  // q / 4 in Q5.26, >= 0
  // exp(-2^k) in Q0.31 for k = -2, -1, 0, 1, 2, 3, 4.
  constexpr std::int32_t kExpMinusPow2[7] = {
      1672461947, 1302514674, 790015084, 290630308, 39332535, 720401, 242};
  for (int k = -2; k <= 4; ++k) {
    if ((remainder & (std::int32_t{1} << (kFractionalBits + k))) != 0) {
      result = SaturatingRoundingDoublingHighMul(result, kExpMinusPow2[k + 2]);
    }
  }
  return a == 0 ? kInt32Max : result;
}

/// 1 / (1 + a) for a Q0.31 value a in [0, 1), as Q0.31: three
/// Newton-Raphson steps on the half denominator d = (1 + a) / 2 from the
/// start 48/17 - 32/17 * d, in Q2.29, then halved.
[[nodiscard]] constexpr std::int32_t OneOverOnePlusX(std::int32_t a) {
  const std::int32_t half_denominator = RoundingHalfSum(a, kInt32Max);
  constexpr std::int32_t k48Over17 = 1515870810;        // Q2.29
  constexpr std::int32_t kMinus32Over17 = -1010580540;  // Q2.29
  constexpr std::int32_t kOneQ2 = std::int32_t{1} << 29;
  std::int32_t x = k48Over17 + SaturatingRoundingDoublingHighMul(
                                   half_denominator, kMinus32Over17);
  for (int i = 0; i < 3; ++i) {
    const std::int32_t dx =
        SaturatingRoundingDoublingHighMul(half_denominator, x);
    // x * (1 - d x) is Q4.27; back to Q2.29.
    x += SaturatingShiftLeft(SaturatingRoundingDoublingHighMul(x, kOneQ2 - dx),
                             2);
  }
  // x / 2 read as Q1.30, then to Q0.31.
  return SaturatingShiftLeft(x, 1);
}

}  // namespace arenaplan::kernels

#endif  // ARENAPLAN_KERNELS_FIXED_POINT_HPP_
