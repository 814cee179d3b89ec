// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// TFLite's int16 output stages written out independently of the kernels,
// for the int16 lowering tests: QuantizeMultiplier through frexp, the
// 64-bit stage as an exact rational rounded half up, the 32-bit one
// through gemmlowp's fixed-point primitives.
#ifndef ARENAPLAN_TESTS_HOST_SUPPORT_INT16_REFERENCE_HPP_
#define ARENAPLAN_TESTS_HOST_SUPPORT_INT16_REFERENCE_HPP_

#include <gemmlowp/fixedpoint/fixedpoint.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <utility>
#include <vector>

namespace arenaplan::testing_util {

/// QuantizeMultiplier written out: real = m * 2^(e - 31).
inline std::pair<std::int64_t, int> Quantize(double real) {
  int e = 0;
  const double q = std::frexp(real, &e);
  auto m = static_cast<std::int64_t>(std::round(q * (1LL << 31)));
  if (m == (1LL << 31)) {
    m /= 2;
    ++e;
  }
  return {m, e};
}

/// The 64-bit stage: R = round-half-up(m / 2^16), x * R / 2^(15 - e)
/// rounded half up.
inline std::int32_t Stage64(std::int64_t x, double real) {
  const auto [m, e] = Quantize(real);
  const long double r =
      m >= 0x7FFF0000 ? 0x7FFF : std::floor(m / 65536.0L + 0.5L);
  return static_cast<std::int32_t>(std::floor(
      static_cast<long double>(x) * r / std::ldexp(1.0L, 15 - e) + 0.5L));
}

/// The 32-bit stage (gemmlowp's two roundings) of the multiplier m and
/// exponent e as given (real = m * 2^(e - 31), m not necessarily >= 2^30).
inline std::int32_t Stage32Raw(std::int32_t x, std::int32_t m, int e) {
  const int left = e > 0 ? e : 0, right = e > 0 ? 0 : -e;
  return gemmlowp::RoundingDivideByPOT(
      gemmlowp::SaturatingRoundingDoublingHighMul(x * (1 << left), m), right);
}

/// The 32-bit stage of QuantizeMultiplier(real).
inline std::int32_t Stage32(std::int32_t x, double real) {
  const auto [m, e] = Quantize(real);
  return Stage32Raw(x, static_cast<std::int32_t>(m), e);
}

/// n values drawn uniformly from [lo, hi] (both ends included).
inline std::vector<std::int16_t> Random16(std::size_t n, unsigned seed, int lo,
                                          int hi) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> d(lo, hi);
  std::vector<std::int16_t> v(n);
  for (auto& x : v) x = static_cast<std::int16_t>(d(rng));
  return v;
}

/// Little-endian bytes read as int16 values.
inline std::vector<std::int16_t> AsInt16(const std::vector<std::uint8_t>& b) {
  std::vector<std::int16_t> v(b.size() / 2);
  std::memcpy(v.data(), b.data(), v.size() * 2);
  return v;
}

}  // namespace arenaplan::testing_util

#endif  // ARENAPLAN_TESTS_HOST_SUPPORT_INT16_REFERENCE_HPP_
