// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// Requantization with negative multipliers (per-channel weight scales below
// zero, which old converters wrote and TFLite runs): the kernels' paths
// against TFLite's arithmetic written out in the test
// (tests/host/support/requant_oracle.hpp) and against gemmlowp's own
// functions, on random values and the int32 edges:
//  - the reference path, MultiplyByQuantizedMultiplier (quantization.hpp),
//    which conv.hpp, fully_connected.hpp and transpose_conv.hpp use: any
//    multiplier;
//  - the fast output stage (dsp.hpp Requantize, RequantizeRight,
//    OutputStage::Store4 with both its shortcut and its per-byte path):
//    non-negative multipliers only, the ones the generator passes it; a
//    channel of negative multiplier M is given -M and its accumulator
//    negated (NegateNegativeChannels, codegen/compile/quantize.hpp), and
//    the fast stage on (-acc, -M) equals the oracle on (acc, M) wherever
//    NegateNegativeChannels allows it;
//  - NegateNegativeChannels' conditions, by hand;
//  - the host's QuantizeMultiplier for negative reals, by hand.
#include <gemmlowp/fixedpoint/fixedpoint.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "arenaplan/kernels/dsp.hpp"
#include "arenaplan/kernels/quantization.hpp"
#include "codegen/compile/quantize.hpp"
#include "tests/host/support/requant_oracle.hpp"

namespace {

namespace k = arenaplan::kernels;
namespace compile = arenaplan::compile;
using arenaplan::testing_util::OracleQuantize;
using arenaplan::testing_util::OracleRequantize;

/// gemmlowp's functions as TFLite's MultiplyByQuantizedMultiplier calls
/// them (the left shift done modulo 2^32, as the compiled code does).
std::int32_t Gemmlowp(std::int32_t x, std::int32_t m, int shift) {
  const int left = shift > 0 ? shift : 0, right = shift > 0 ? 0 : -shift;
  const auto shifted =
      static_cast<std::int32_t>(static_cast<std::uint32_t>(x) << left);
  return gemmlowp::RoundingDivideByPOT(
      gemmlowp::SaturatingRoundingDoublingHighMul(shifted, m), right);
}

/// Accumulators and multipliers to try: the int32 edges, powers of two and
/// their neighbours, then `random` uniform values.
std::vector<std::int32_t> Values(std::mt19937& rng, int random) {
  std::vector<std::int32_t> v = {
      INT32_MIN, INT32_MIN + 1, INT32_MAX, INT32_MAX - 1, 0, 1, -1};
  for (int b = 1; b < 31; ++b) {
    const std::int32_t p = std::int32_t{1} << b;
    for (std::int32_t d : {-1, 0, 1}) {
      v.push_back(p + d);
      v.push_back(-p + d);
    }
  }
  std::uniform_int_distribution<std::int32_t> any(INT32_MIN, INT32_MAX);
  for (int i = 0; i < random; ++i) v.push_back(any(rng));
  return v;
}

TEST(KernelsNegativeMultiplier, OracleMatchesHandExamples) {
  // 3 * -0.5 = -1.5: the doubling high mul rounds the tie up to -1, then
  // / 2 = -0.5 rounds away from zero: -1.
  EXPECT_EQ(OracleRequantize(3, -(1 << 30), -1), -1);
  // -3 * -0.5 = 1.5 -> 2, / 2 = 1 exactly.
  EXPECT_EQ(OracleRequantize(-3, -(1 << 30), -1), 1);
  // 1 * -0.5 = -0.5 -> 0 (tie up); -1 * -0.5 = 0.5 -> 1.
  EXPECT_EQ(OracleRequantize(1, -(1 << 30), 0), 0);
  EXPECT_EQ(OracleRequantize(-1, -(1 << 30), 0), 1);
  // INT32_MIN * INT32_MIN = (-1) * (-1) in Q0.31: saturates to INT32_MAX,
  // then / 2^4 = 2^27 - 2^-4 rounds to 2^27.
  EXPECT_EQ(OracleRequantize(INT32_MIN, INT32_MIN, 0), INT32_MAX);
  EXPECT_EQ(OracleRequantize(INT32_MIN, INT32_MIN, -4), 1 << 27);
  // 1000 * -1 (INT32_MIN is -1.0) * 2^-3 = -125.
  EXPECT_EQ(OracleRequantize(1000, INT32_MIN, -3), -125);
}

TEST(KernelsNegativeMultiplier, ReferenceMatchesOracleAndGemmlowp) {
  std::mt19937 rng(37);
  const std::vector<std::int32_t> xs = Values(rng, 400);
  std::vector<std::int32_t> ms = {INT32_MIN, INT32_MIN + 1, -(1 << 30),
                                  -(1 << 30) - 1, -1};
  std::uniform_int_distribution<std::int32_t> neg(INT32_MIN, -(1 << 30));
  for (int i = 0; i < 40; ++i) ms.push_back(neg(rng));
  std::uniform_int_distribution<int> any_shift(-31, 30);
  for (std::int32_t m : ms) {
    for (std::int32_t x : xs) {
      for (int shift : {-31, -30, -17, -8, -1, 0, 1, 7, 30, any_shift(rng)}) {
        const std::int32_t expect = OracleRequantize(x, m, shift);
        ASSERT_EQ(Gemmlowp(x, m, shift), expect)
            << x << " " << m << " " << shift;
        ASSERT_EQ(k::MultiplyByQuantizedMultiplier(x, m, shift), expect)
            << x << " " << m << " " << shift;
      }
    }
  }
}

TEST(KernelsNegativeMultiplier, FastStageMatchesOracleForNonNegative) {
  // The fast output stage on the multipliers it is given (>= 0): the same
  // oracle, so a negative multiplier is the only case the generator must
  // keep from it.
  std::mt19937 rng(41);
  const std::vector<std::int32_t> xs = Values(rng, 400);
  std::vector<std::int32_t> ms = {0, 1 << 30, INT32_MAX, (1 << 30) + 1};
  std::uniform_int_distribution<std::int32_t> pos(1 << 30, INT32_MAX);
  for (int i = 0; i < 40; ++i) ms.push_back(pos(rng));
  for (std::int32_t m : ms) {
    for (std::int32_t x : xs) {
      for (int shift = -31; shift <= 30; ++shift) {
        const std::int32_t expect = OracleRequantize(x, m, shift);
        ASSERT_EQ(k::Requantize(x, m, shift), expect)
            << x << " " << m << " " << shift;
        if (shift < 0) {
          ASSERT_EQ(k::RequantizeRight(x, m, -shift), expect)
              << x << " " << m << " " << shift;
        }
      }
    }
  }
}

TEST(KernelsNegativeMultiplier, FastStageOnNegatedChannelMatchesOracle) {
  // M in (INT32_MIN, 0) and |acc| * 2^max(shift, 0) < 2^31, the bound
  // NegateNegativeChannels demands: the fast stage given -acc and -M.
  std::mt19937 rng(53);
  std::vector<std::int32_t> ms = {INT32_MIN + 1, -(1 << 30), -(1 << 30) - 1};
  std::uniform_int_distribution<std::int32_t> neg(INT32_MIN + 1, -(1 << 30));
  for (int i = 0; i < 40; ++i) ms.push_back(neg(rng));
  for (std::int32_t m : ms) {
    for (int shift = -31; shift <= 30; ++shift) {
      const int left = shift > 0 ? shift : 0;
      const std::int32_t limit = INT32_MAX >> left;  // |acc| < 2^(31-left)
      std::vector<std::int32_t> accs = {0, 1, -1, limit, -limit};
      std::uniform_int_distribution<std::int32_t> any(-limit, limit);
      // (At |acc| = 2^(31 - left) the shifted accumulator can be
      // INT32_MIN, whose negation is itself: excluded by the bound.)
      const std::int32_t near = limit < 300 ? limit : 300;
      std::uniform_int_distribution<std::int32_t> small(-near, near);
      for (int i = 0; i < 30; ++i) {
        accs.push_back(any(rng));
        accs.push_back(small(rng));
      }
      for (std::int32_t acc : accs) {
        const std::int32_t expect = OracleRequantize(acc, m, shift);
        ASSERT_EQ(k::Requantize(-acc, -m, shift), expect)
            << acc << " " << m << " " << shift;
      }
    }
  }
}

TEST(KernelsNegativeMultiplier, NegatesOnlyWhereExact) {
  // Two channels of three weights, channel-major: channel 1 negative.
  const compile::QuantizedMultiplier pos{1 << 30, -3}, neg{-(1 << 30), -3};
  std::vector<std::int8_t> w = {1, -2, 3, 4, -5, 127};
  std::vector<std::int32_t> b = {10, -20};
  std::vector<compile::QuantizedMultiplier> m = {pos, neg};
  ASSERT_TRUE(compile::NegateNegativeChannels(w, true, b, m));
  EXPECT_EQ(w, (std::vector<std::int8_t>{1, -2, 3, -4, 5, -127}));
  EXPECT_EQ(b, (std::vector<std::int32_t>{10, 20}));
  EXPECT_EQ(m[0].multiplier, 1 << 30);
  EXPECT_EQ(m[1].multiplier, 1 << 30);
  EXPECT_EQ(m[1].shift, -3);
  // Channel-minor (depthwise): element i is channel i % 2.
  w = {1, -2, 3, 4};
  b = {};
  m = {pos, neg};
  ASSERT_TRUE(compile::NegateNegativeChannels(w, false, b, m));
  EXPECT_EQ(w, (std::vector<std::int8_t>{1, 2, 3, -4}));
  // Refused, nothing changed: a -128 in the negative channel (not in the
  // positive one), a multiplier INT32_MIN, a bound of 2^(31 - left):
  // shift 20, |bias| 0 + 255 * (4 + 4) = 2040 < 2048 passes, 2048 does not.
  const auto refused = [](std::vector<std::int8_t> w2, std::int32_t bias1,
                          compile::QuantizedMultiplier m1) {
    std::vector<std::int32_t> b2 = {0, bias1};
    std::vector<compile::QuantizedMultiplier> m2 = {{1 << 30, -3}, m1};
    const auto w_before = w2;
    const bool ok = compile::NegateNegativeChannels(w2, true, b2, m2);
    if (!ok) {
      EXPECT_EQ(w2, w_before);
      EXPECT_EQ(b2[1], bias1);
      EXPECT_EQ(m2[1].multiplier, m1.multiplier);
    }
    return !ok;
  };
  EXPECT_TRUE(refused({1, 2, -128, 3}, 0, neg));
  EXPECT_FALSE(refused({-128, 2, 1, 3}, 0, neg));
  EXPECT_TRUE(refused({1, 2, 1, 3}, 0, {INT32_MIN, -3}));
  EXPECT_FALSE(refused({1, 2, 4, -4}, 0, {-(1 << 30), 20}));
  EXPECT_TRUE(refused({1, 2, 4, -4}, 8, {-(1 << 30), 20}));
  EXPECT_FALSE(refused({1, 2, 4, -4}, 7, {-(1 << 30), 20}));
}

TEST(KernelsNegativeMultiplier, ReferenceOutputStageMatchesOracleBytes) {
  // What the reference kernels do after the sum: requantize, add the output
  // zero point, clamp; with half the channels negative, against the oracle
  // and, for the non-negative channels, the fast OutputStage (Store4's
  // shortcut and per-byte path, full range and a narrower clamp).
  std::mt19937 rng(43);
  std::uniform_int_distribution<std::int32_t> acc_of(-(1 << 20), 1 << 20);
  std::uniform_int_distribution<int> shift_of(-12, -1);
  std::uniform_real_distribution<double> scale_of(0.0005, 0.05);
  std::int32_t mult[4];
  std::int8_t shift[4];
  for (int round = 0; round < 2000; ++round) {
    for (int c = 0; c < 4; ++c) {
      const double real = scale_of(rng) * (c % 2 == 0 ? -1.0 : 1.0);
      const auto q = compile::QuantizeMultiplier(real);
      mult[c] = q.multiplier;
      shift[c] = static_cast<std::int8_t>(q.shift);
    }
    if (round % 3 == 0) shift[1] = static_cast<std::int8_t>(1);  // a left one
    const std::int32_t zp = (round % 256) - 128;
    const bool full = round % 2 == 0;
    const std::int32_t lo = full ? -128 : -100, hi = full ? 127 : 90;
    std::int32_t acc[4];
    for (std::int32_t& a : acc) a = acc_of(rng);
    for (int c = 0; c < 4; ++c) {
      const std::int32_t expect = std::min(
          hi, std::max(lo, OracleRequantize(acc[c], mult[c], shift[c]) + zp));
      const std::int32_t got = k::ClampToInt8(
          k::MultiplyByQuantizedMultiplier(acc[c], mult[c], shift[c]) + zp, lo,
          hi);
      ASSERT_EQ(got, expect) << round << " " << c;
    }
    // The non-negative channels 1 and 3 through the fast stage: Store4 on
    // {1, 3, 1, 3}.
    const std::int32_t pm[4] = {mult[1], mult[3], mult[1], mult[3]};
    const std::int8_t ps[4] = {shift[1], shift[3], shift[1], shift[3]};
    const std::int32_t pacc[4] = {acc[1], acc[3], acc[3], acc[1]};
    const k::OutputStage stage{pm, ps, zp, lo, hi};
    std::int8_t out[4];
    stage.Store4(pacc, 0, out, stage.FullRange());
    for (int i = 0; i < 4; ++i) {
      ASSERT_EQ(
          out[i],
          std::min(hi,
                   std::max(lo, OracleRequantize(pacc[i], pm[i], ps[i]) + zp)))
          << round << " " << i;
    }
  }
}

TEST(KernelsNegativeMultiplier, QuantizeMultiplierKeepsTheSign) {
  // -0.75 = -0.75 * 2^0: round(-0.75 * 2^31) = -1610612736.
  auto m = compile::QuantizeMultiplier(-0.75);
  EXPECT_EQ(m.multiplier, -1610612736);
  EXPECT_EQ(m.shift, 0);
  // -1 = -0.5 * 2^1.
  m = compile::QuantizeMultiplier(-1.0);
  EXPECT_EQ(m.multiplier, -(1 << 30));
  EXPECT_EQ(m.shift, 1);
  // -0.1 = -0.8 * 2^-3: round(-1717986918.4) = -1717986918.
  m = compile::QuantizeMultiplier(-0.1);
  EXPECT_EQ(m.multiplier, -1717986918);
  EXPECT_EQ(m.shift, -3);
  // -(1 - 2^-40): q * 2^31 = -2^31 + 2^-9 rounds to -2^31, which int32
  // holds: TFLite keeps it (only +2^31 is halved), shift 0; the positive
  // one is 2^30 with shift 1.
  m = compile::QuantizeMultiplier(-(1.0 - std::ldexp(1.0, -40)));
  EXPECT_EQ(m.multiplier, INT32_MIN);
  EXPECT_EQ(m.shift, 0);
  // Below 2^-32 in magnitude: zero; -0.0 too.
  m = compile::QuantizeMultiplier(-std::ldexp(1.0, -40));
  EXPECT_EQ(m.multiplier, 0);
  EXPECT_EQ(m.shift, 0);
  m = compile::QuantizeMultiplier(-0.0);
  EXPECT_EQ(m.multiplier, 0);
  EXPECT_EQ(m.shift, 0);
  // Random reals of both signs against the oracle's frexp.
  std::mt19937 rng(47);
  std::uniform_real_distribution<double> mant(-1.0, 1.0);
  std::uniform_int_distribution<int> exp_of(-40, 20);
  for (int i = 0; i < 20000; ++i) {
    const double real = std::ldexp(mant(rng), exp_of(rng));
    const auto got = compile::QuantizeMultiplier(real);
    const auto expect = OracleQuantize(real);
    ASSERT_EQ(got.multiplier, expect.multiplier) << real;
    ASSERT_EQ(got.shift, expect.shift) << real;
    ASSERT_EQ(got.multiplier < 0, real < 0 && expect.multiplier != 0) << real;
  }
}

}  // namespace
