// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// TFLite's requantization written out a second way, for tests: from the
// documented arithmetic, not from the kernels' code (quantization.hpp) nor
// the generator's (codegen/compile/quantize.cpp).
//  - QuantizeMultiplier (quantization_util.cc): frexp(real) = q * 2^e, q of
//    real's sign with |q| in [0.5, 1); m = round(q * 2^31), ties away from
//    zero; m == 2^31 becomes 2^30 with e + 1 (the positive end only; a
//    negative q may round to -2^31, which int32 holds); e < -31 gives 0, 0.
//  - MultiplyByQuantizedMultiplier (common.cc, the default two-rounding
//    build): x shifted left by max(e, 0) in int32 (wrapping), then
//    gemmlowp's SaturatingRoundingDoublingHighMul with m, then its
//    RoundingDivideByPOT by max(-e, 0).
//    SaturatingRoundingDoublingHighMul(a, b) adds 2^30 to a * b when it is
//    >= 0, 1 - 2^30 otherwise, and truncates the quotient by 2^31 toward
//    zero; here it is the equivalent floor((a * b + 2^30) / 2^31) (for
//    a * b < 0, truncating (a*b + 1 - 2^30) / 2^31 toward zero is its
//    ceiling, floor((a*b + 1 - 2^30 + 2^31 - 1) / 2^31)), i.e. a * b / 2^31
//    rounded to nearest with ties up, saturated to INT32_MAX (only
//    a = b = INT32_MIN exceeds int32). RoundingDivideByPOT(h, r) rounds
//    h / 2^r to nearest with ties away from zero: here sign(h) *
//    floor((|h| + 2^(r-1)) / 2^r) in 64 bits.
#ifndef ARENAPLAN_TESTS_HOST_SUPPORT_REQUANT_ORACLE_HPP_
#define ARENAPLAN_TESTS_HOST_SUPPORT_REQUANT_ORACLE_HPP_

#include <cmath>
#include <cstdint>

namespace arenaplan::testing_util {

/// A Q0.31 multiplier and its power-of-two exponent (real = multiplier *
/// 2^(shift - 31)).
struct OracleMultiplier {
  std::int32_t multiplier = 0;
  int shift = 0;
};

/// TFLite's QuantizeMultiplier of a finite `real` (header comment).
inline OracleMultiplier OracleQuantize(double real) {
  if (real == 0.0) return {};
  int e = 0;
  const double q = std::frexp(real, &e);
  std::int64_t m = std::llround(q * 2147483648.0);  // ties away from zero
  if (m == (std::int64_t{1} << 31)) {
    m = std::int64_t{1} << 30;
    ++e;
  }
  if (e < -31) return {};
  return {static_cast<std::int32_t>(m), e};
}

/// floor(n / 2^k) for k in [0, 62], without relying on >> of a negative.
inline std::int64_t OracleFloorDiv(std::int64_t n, int k) {
  const std::int64_t d = std::int64_t{1} << k;
  std::int64_t q = n / d;
  if (n % d != 0 && n < 0) --q;
  return q;
}

/// TFLite's MultiplyByQuantizedMultiplier(x, multiplier, shift), shift in
/// [-31, 30] (header comment).
inline std::int32_t OracleRequantize(std::int32_t x, std::int32_t multiplier,
                                     int shift) {
  const int left = shift > 0 ? shift : 0, right = shift > 0 ? 0 : -shift;
  // x * 2^left modulo 2^32, as an int32.
  const std::uint32_t wrapped = static_cast<std::uint32_t>(x) << left;
  const std::int64_t a =
      wrapped >= 0x80000000u
          ? static_cast<std::int64_t>(wrapped) - (std::int64_t{1} << 32)
          : static_cast<std::int64_t>(wrapped);
  std::int64_t h = OracleFloorDiv(a * multiplier + (std::int64_t{1} << 30), 31);
  if (h > INT32_MAX) h = INT32_MAX;  // INT32_MIN * INT32_MIN only
  if (right == 0) return static_cast<std::int32_t>(h);
  const std::int64_t magnitude = OracleFloorDiv(
      (h < 0 ? -h : h) + (std::int64_t{1} << (right - 1)), right);
  return static_cast<std::int32_t>(h < 0 ? -magnitude : magnitude);
}

}  // namespace arenaplan::testing_util

#endif  // ARENAPLAN_TESTS_HOST_SUPPORT_REQUANT_ORACLE_HPP_
