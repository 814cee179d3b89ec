// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// DIV (div.hpp): hand-derived quotients, every pair of int8 inputs for
// random parameters against TFLM's DivElementwise written with gemmlowp's
// fixedpoint.h (the library TFLM calls: one_over_one_plus_x_for_x_in_0_1,
// SaturatingRoundingDoublingHighMul, RoundingDivideByPOT) and GCC's
// __builtin_clrsb, and within one step of the real quotient computed in
// double.
#include <gemmlowp/fixedpoint/fixedpoint.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>

#include "arenaplan/kernels/div.hpp"

namespace {

namespace k = arenaplan::kernels;

/// QuantizeMultiplier(real) for real > 0: real = m * 2^(s - 31), m in
/// [2^30, 2^31).
void Quantize(double real, std::int32_t* m, std::int32_t* s) {
  int e = 0;
  const double q = std::frexp(real, &e);
  auto r = static_cast<std::int64_t>(std::round(q * (1LL << 31)));
  if (r == (1LL << 31)) {
    r /= 2;
    ++e;
  }
  *m = static_cast<std::int32_t>(r);
  *s = e;
}

k::DivParams Params(std::int32_t za, std::int32_t zb, std::int32_t zo,
                    double ratio) {
  k::DivParams p{za,  zb,           zo,           0,           0, -128,
                 127, {1, 1, 1, 1}, {0, 0, 0, 0}, {0, 0, 0, 0}};
  Quantize(ratio, &p.multiplier, &p.shift);
  return p;
}

std::int8_t One(const k::DivParams& p, std::int8_t a, std::int8_t b) {
  std::int8_t out = 0;
  k::Div(p, &a, &b, &out);
  return out;
}

/// TFLM's DivElementwise for one pair (d != zero point), through gemmlowp.
std::int8_t Tflm(const k::DivParams& p, std::int8_t a, std::int8_t b) {
  std::int32_t n = a - p.a_zero_point, d = b - p.b_zero_point;
  if (d < 0) {
    n = -n;
    d = -d;
  }
  const int lz = __builtin_clz(static_cast<unsigned>(d));
  const int recip_shift = 31 - lz;
  const auto t = static_cast<std::int32_t>(
      (static_cast<std::uint32_t>(d) << lz) - (std::uint32_t{1} << 31));
  const std::int32_t recip =
      gemmlowp::one_over_one_plus_x_for_x_in_0_1(
          gemmlowp::FixedPoint<std::int32_t, 0>::FromRaw(t))
          .raw();
  const int headroom = n != 0 ? __builtin_clrsb(n) : 31;
  const std::int32_t q = gemmlowp::SaturatingRoundingDoublingHighMul(
      static_cast<std::int32_t>(static_cast<std::uint32_t>(n) << headroom),
      recip);
  const int total_shift = p.shift - recip_shift - headroom;
  // gemmlowp asserts exponent <= 31; beyond it the exact quotient rounds to
  // 0 (div.hpp defines it so).
  const std::int32_t v =
      -total_shift > 31
          ? 0
          : gemmlowp::RoundingDivideByPOT(
                gemmlowp::SaturatingRoundingDoublingHighMul(q, p.multiplier),
                -total_shift);
  return static_cast<std::int8_t>(
      std::clamp(p.output_zero_point + v, p.act_min, p.act_max));
}

TEST(Div, DividesByHand) {
  // All zero points 0, ratio s_a / (s_b s_out) = 1 = 2^30 * 2^(1 - 31)
  // (M = 2^30, s = 1): out = a / b, rounded by TFLM's steps.
  const k::DivParams p = Params(0, 0, 0, 1.0);
  EXPECT_EQ(One(p, 100, 4), 25);
  // Ties: 1/4 is r = 2^31 - 1 (OneOverOnePlusX(0) saturates), e_d = 2.
  //  10 / 4: h = 27, q = SRDHM(10 * 2^27, 2^31 - 1) = round(1342177280 -
  //  0.625) = 1342177279; SRDHM(q, 2^30) = q / 2 = 671088639.5 -> 671088640
  //  (ties up); RDBPOT by 27 + 2 - 1 = 28: 2.5 -> 3 (ties away from 0).
  EXPECT_EQ(One(p, 10, 4), 3);
  //  -10 / 4: q = round(-1342177280 + 0.625) = -1342177279; q / 2 =
  //  -671088639.5 -> -671088639 (ties up, toward +inf); / 2^28 =
  //  -2.4999999963 -> -2. TFLM's -2.5 rounds to -2, not -3.
  EXPECT_EQ(One(p, -10, 4), -2);
  //  7 / -2: signs moved, n = -7, d = 2, r = 2^31 - 1, e_d = 1, h = 28:
  //  q = round(-1879048192 + 0.875) = -1879048191; q / 2 = -939524095.5 ->
  //  -939524095; / 2^28 = -3.4999999963 -> -3.
  EXPECT_EQ(One(p, 7, -2), -3);
  EXPECT_EQ(One(p, 1, 3), 0);  // 0.33
  EXPECT_EQ(One(p, 2, 3), 1);  // 0.67
  EXPECT_EQ(One(p, 0, 5), 0);  // zero numerator
  EXPECT_EQ(One(p, 127, 1), 127);
  EXPECT_EQ(One(p, -128, 1), -128);
  // Zero points: a = 10 - 2 = 8, b = 1 - (-3) = 4, ratio 4: 8 / 4 * 4 = 8,
  // plus zp_out 5 = 13.
  EXPECT_EQ(One(Params(2, -3, 5, 4.0), 10, 1), 13);
  // Saturation: 100 / 1 * 4 = 400 -> 127.
  EXPECT_EQ(One(Params(0, 0, 0, 4.0), 100, 1), 127);
  // The fused activation's clamp.
  k::DivParams relu = Params(0, 0, -10, 1.0);
  relu.act_min = -10;
  EXPECT_EQ(One(relu, -50, 2), -10);
}

TEST(Div, GivesTheClampedSignForADivisorAtItsZeroPoint) {
  k::DivParams p = Params(0, 7, 3, 1.0);
  p.act_min = -100;
  p.act_max = 90;
  EXPECT_EQ(One(p, 5, 7), 90);
  EXPECT_EQ(One(p, -5, 7), -100);
  EXPECT_EQ(One(p, 0, 7), 3);
}

TEST(Div, EqualsTflmsFixedPointOnEveryPair) {
  std::mt19937 rng(4242);
  std::uniform_int_distribution<std::int32_t> zp(-128, 127);
  // Ratios from 2^-8 to 2^20 (shifts -7 to 21).
  std::uniform_real_distribution<double> log2_ratio(-8.0, 20.0);
  for (int trial = 0; trial < 60; ++trial) {
    const double ratio = std::exp2(log2_ratio(rng));
    const k::DivParams p = Params(zp(rng), zp(rng), zp(rng), ratio);
    for (int a = -128; a <= 127; ++a) {
      for (int b = -128; b <= 127; ++b) {
        if (b == p.b_zero_point) continue;
        const auto ai = static_cast<std::int8_t>(a);
        const auto bi = static_cast<std::int8_t>(b);
        const std::int8_t got = One(p, ai, bi);
        ASSERT_EQ(got, Tflm(p, ai, bi))
            << "trial " << trial << " a " << a << " b " << b;
        // A second, real-valued method: within one step of the quotient
        // (the reciprocal and two roundings lose less than one step).
        const double real =
            p.output_zero_point + static_cast<double>(a - p.a_zero_point) /
                                      (b - p.b_zero_point) * ratio;
        const double clamped = std::clamp(real, -128.0, 127.0);
        ASSERT_LE(std::fabs(got - clamped), 1.0)
            << "trial " << trial << " a " << a << " b " << b;
      }
    }
  }
}

TEST(Div, BroadcastsAColumnAgainstRows) {
  // a [2,3] = {{6,-6,9},{12,3,0}}, b [2,1] = {{3},{-3}}: a / b with b's
  // column broadcast (strides {0,0,1,0}): {{2,-2,3},{-4,-1,0}}.
  const std::int8_t a[] = {6, -6, 9, 12, 3, 0};
  const std::int8_t b[] = {3, -3};
  std::int8_t out[6] = {};
  k::DivParams p = Params(0, 0, 0, 1.0);
  p.output = {1, 1, 2, 3};
  const std::int32_t as[4] = {0, 0, 3, 1}, bs[4] = {0, 0, 1, 0};
  std::copy(as, as + 4, p.a_stride);
  std::copy(bs, bs + 4, p.b_stride);
  k::Div(p, a, b, out);
  const std::int8_t expect[] = {2, -2, 3, -4, -1, 0};
  for (int i = 0; i < 6; ++i) EXPECT_EQ(out[i], expect[i]) << i;
}

}  // namespace
