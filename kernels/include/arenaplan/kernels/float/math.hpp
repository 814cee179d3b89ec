// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// exp, expm1 and tanh of IEEE single floats for the float32 kernels that
// TensorFlow Lite computes with libm (LOGISTIC, TANH, SOFTMAX): the
// firmware links no libm (-nostdlib). Float operations only (the FPU's;
// compile with -ffp-contract=off as float.hpp says), so the same bits on
// the host and on a board.
//
// These are NOT bit-exact with TFLM, whose results are those of the libm
// it is linked with (itself not bit-identical across libms): they are
// within a stated number of units in the last place (ULP) of the
// correctly rounded value, measured against the host's double-precision
// libm over a sweep of inputs by tests/host/kernels/
// kernels_float_math_test.cpp (docs/compile.md states the figures).
//
// Exp(x): x = k ln2 + r with k = round(x / ln2) (the nearest integer,
// found without a float-to-integer conversion), r = (x - k ln2_hi) - k
// ln2_lo (Cody-Waite: ln2_hi has 16 significant bits, so k ln2_hi is
// exact for |k| <= 255), |r| <= ln2 / 2 + a little; e^r by its Taylor
// polynomial of degree 7 (remainder below 2^-27 relative) in Horner form
// as 1 + (r + r^2 q(r)); then the exact scaling by 2^k, in two steps
// where 2^k is not a normal float (an overflow to infinity, a gradual
// underflow rounded once). x above 88.72284 (ln FLT_MAX) gives +inf,
// below -103.97208 (ln 2^-150) +0; a NaN passes.
// Expm1(y) for 0 <= y <= 20: the same reduction; e^r - 1 = r + r^2 q(r)
// without the leading 1 (no cancellation for small y), then 2^k (e^r - 1)
// + (2^k - 1).
// Tanh(x) = sign(x) e / (e + 2) with e = Expm1(2 |x|); +-1 for |x| > 10
// (tanh rounds to 1 from 9.02 on); tanh(-0.0) = -0.0; a NaN passes.
#ifndef ARENAPLAN_KERNELS_FLOAT_MATH_HPP_
#define ARENAPLAN_KERNELS_FLOAT_MATH_HPP_

#include <cstdint>

namespace arenaplan::kernels::f32 {

namespace math_detail {

inline float kLog2E = 0x1.715476p+0f;   // 1 / ln 2
inline float kLn2Hi = 0x1.62e4p-1f;     // ln 2, 16 significant bits
inline float kLn2Lo = 0x1.7f7d1cp-20f;  // ln 2 - kLn2Hi

/// 2^k as a float, for -126 <= k <= 127 (a normal float's exponent).
inline float Pow2(std::int32_t k) {
  return __builtin_bit_cast(float, static_cast<std::uint32_t>(k + 127) << 23);
}

/// k = round(x / ln 2) (to nearest, ties to even), as a float and as an
/// integer, for |x / ln 2| < 2^22: adding 1.5 * 2^23 leaves k in the low
/// bits of the sum (float additions and integer arithmetic only, so cores
/// without an FPU call no float-integer conversion helper).
struct Nearest {
  float kf;
  std::int32_t k;
};
inline Nearest NearestK(float x) {
  constexpr float kShifter = 0x1.8p23f;
  const float t = x * kLog2E + kShifter;
  return {t - kShifter, static_cast<std::int32_t>(
                            __builtin_bit_cast(std::uint32_t, t) -
                            __builtin_bit_cast(std::uint32_t, kShifter))};
}

/// e^r - 1 for |r| <= ln 2 / 2 (+ a little): r + r^2 (1/2! + r (1/3! + ...
/// + r / 7!)).
inline float Expm1Reduced(float r) {
  float q = 0x1.a01a02p-13f;    // 1/7!
  q = 0x1.6c16c2p-10f + r * q;  // 1/6!
  q = 0x1.111112p-7f + r * q;   // 1/5!
  q = 0x1.555556p-5f + r * q;   // 1/4!
  q = 0x1.555556p-3f + r * q;   // 1/3!
  q = 0.5f + r * q;
  return r + (r * r) * q;
}

/// The reduced argument of x for kf = NearestK(x).kf.
inline float Reduce(float x, float kf) {
  return (x - kf * kLn2Hi) - kf * kLn2Lo;
}

}  // namespace math_detail

/// e^x (header comment).
inline float Exp(float x) {
  using namespace math_detail;
  if (x != x) return x;
  if (x > 0x1.62e430p+6f) return __builtin_huge_valf();  // ln FLT_MAX
  if (x < -0x1.9fe368p+6f) return 0.0f;  // ln 2^-150: rounds to 0
  const Nearest n = NearestK(x);         // -150 <= k <= 128
  const std::int32_t k = n.k;
  const float e = 1.0f + Expm1Reduced(Reduce(x, n.kf));
  if (k > 127) return e * Pow2(127) * Pow2(k - 127);
  if (k < -126) return e * Pow2(k + 126) * Pow2(-126);
  return e * Pow2(k);
}

/// e^y - 1 for 0 <= y <= 20 (header comment).
inline float Expm1(float y) {
  using namespace math_detail;
  const Nearest n = NearestK(y);  // 0 <= k <= 29
  const float p = Expm1Reduced(Reduce(y, n.kf));
  if (n.k == 0) return p;
  const float two_k = Pow2(n.k);
  return two_k * p + (two_k - 1.0f);
}

/// tanh(x) (header comment).
inline float Tanh(float x) {
  const std::uint32_t bits = __builtin_bit_cast(std::uint32_t, x);
  const float ax = __builtin_bit_cast(float, bits & 0x7fffffffu);
  if (ax != ax) return x;
  float t = 1.0f;
  if (!(ax > 10.0f)) {
    const float e = Expm1(2.0f * ax);
    t = e / (e + 2.0f);
  }
  return __builtin_bit_cast(
      float, __builtin_bit_cast(std::uint32_t, t) | (bits & 0x80000000u));
}

}  // namespace arenaplan::kernels::f32

#endif  // ARENAPLAN_KERNELS_FLOAT_MATH_HPP_
