// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The second method the float32 tests compare the generated code with:
// every operation of TFLite's float kernels formed in double and rounded
// to float. A product, sum or difference of two floats is exact in double
// or rounded once there, and 53 >= 2 * 24 + 2 bits make the double result
// rounded to float the correctly rounded float result, so these are
// TFLite's float operations whatever the host compiler's contraction
// setting. Also the bits of floats and random inputs.
#ifndef ARENAPLAN_TESTS_HOST_SUPPORT_FLOAT_ORACLE_HPP_
#define ARENAPLAN_TESTS_HOST_SUPPORT_FLOAT_ORACLE_HPP_

#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

namespace arenaplan::testing_util {

inline float MulF(float a, float b) {
  return static_cast<float>(static_cast<double>(a) * static_cast<double>(b));
}
inline float AddF(float a, float b) {
  return static_cast<float>(static_cast<double>(a) + static_cast<double>(b));
}
inline float SubF(float a, float b) {
  return static_cast<float>(static_cast<double>(a) - static_cast<double>(b));
}
/// a / b rounded to float: the double quotient rounded again is the
/// correctly rounded float quotient (53 >= 2 * 24 + 2).
inline float DivF(float a, float b) {
  return static_cast<float>(static_cast<double>(a) / static_cast<double>(b));
}
/// TFLite's min(max(x, lo), hi) with std::max / std::min's comparisons.
inline float ClampF(float x, float lo, float hi) {
  const float m = (x < lo) ? lo : x;
  return (hi < m) ? hi : m;
}

inline std::uint32_t Bits(float v) {
  std::uint32_t b = 0;
  std::memcpy(&b, &v, 4);
  return b;
}
inline float FromBits(std::uint32_t b) {
  float v = 0;
  std::memcpy(&v, &b, 4);
  return v;
}
/// Little-endian bytes as 32-bit words (a float output's bits).
inline std::vector<std::uint32_t> WordsOf(
    const std::vector<std::uint8_t>& bytes) {
  std::vector<std::uint32_t> w(bytes.size() / 4);
  std::memcpy(w.data(), bytes.data(), w.size() * 4);
  return w;
}
/// `n` floats uniform in [lo, hi) from seed `seed`.
inline std::vector<float> RandomFloats(std::size_t n, unsigned seed,
                                       float lo = -2.0f, float hi = 2.0f) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> d(lo, hi);
  std::vector<float> v(n);
  for (float& x : v) x = d(rng);
  return v;
}

}  // namespace arenaplan::testing_util

#endif  // ARENAPLAN_TESTS_HOST_SUPPORT_FLOAT_ORACLE_HPP_
