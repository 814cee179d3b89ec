// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// kernels/fixed_point.hpp and the softmax built on it against a second
// implementation: gemmlowp's fixedpoint.h (Debian libgemmlowp-dev), the
// library TensorFlow Lite's quantized softmax calls. Every result must be
// the same int32 bit pattern.
#include <gemmlowp/fixedpoint/fixedpoint.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

#include "arenaplan/kernels/fixed_point.hpp"
#include "arenaplan/kernels/softmax.hpp"
#include "codegen/compile/quantize.hpp"

namespace {

namespace k = arenaplan::kernels;
using F0 = gemmlowp::FixedPoint<std::int32_t, 0>;
using F5 = gemmlowp::FixedPoint<std::int32_t, 5>;
using F12 = gemmlowp::FixedPoint<std::int32_t, 12>;

/// Deterministic pseudo-random int32 values (64-bit LCG, high bits).
class Lcg {
 public:
  explicit Lcg(std::uint64_t seed) : s_(seed) {}
  std::uint32_t Next() {
    s_ = s_ * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<std::uint32_t>(s_ >> 32);
  }

 private:
  std::uint64_t s_;
};

TEST(KernelsFixedPoint, ExpOnNegativeValuesMatchesGemmlowp) {
  // Every Q5.26 value in [-32, 0] with a stride, the quarter boundaries,
  // and random values.
  std::vector<std::int32_t> xs = {0, -1, -2,
                                  std::numeric_limits<std::int32_t>::min() + 1};
  for (std::int64_t v = 0; v >= -(std::int64_t{32} << 26); v -= 4099) {
    xs.push_back(static_cast<std::int32_t>(v));
  }
  for (std::int64_t q = 0; q <= 128; ++q) {  // multiples of 1/4
    for (std::int64_t d : {-1, 0, 1}) {
      const std::int64_t v = -q * (std::int64_t{1} << 24) + d;
      if (v <= 0 && v >= std::numeric_limits<std::int32_t>::min()) {
        xs.push_back(static_cast<std::int32_t>(v));
      }
    }
  }
  Lcg lcg(7);
  for (int i = 0; i < 100000; ++i) {
    xs.push_back(-static_cast<std::int32_t>(lcg.Next() >> 1));
  }
  for (const std::int32_t x : xs) {
    if (x > 0) continue;
    const std::int32_t expect =
        gemmlowp::exp_on_negative_values(F5::FromRaw(x)).raw();
    ASSERT_EQ(k::ExpOnNegativeValuesQ5(x), expect) << x;
  }
}

TEST(KernelsFixedPoint, OneOverOnePlusXMatchesGemmlowp) {
  std::vector<std::int32_t> xs = {0,
                                  1,
                                  2,
                                  std::numeric_limits<std::int32_t>::max(),
                                  std::numeric_limits<std::int32_t>::max() - 1,
                                  1 << 30};
  Lcg lcg(8);
  for (int i = 0; i < 200000; ++i) {
    xs.push_back(static_cast<std::int32_t>(lcg.Next() >> 1));
  }
  for (const std::int32_t x : xs) {
    const std::int32_t expect =
        gemmlowp::one_over_one_plus_x_for_x_in_0_1(F0::FromRaw(x)).raw();
    ASSERT_EQ(k::OneOverOnePlusX(x), expect) << x;
  }
}

TEST(KernelsFixedPoint, RoundingHalfSumAndShiftsMatchGemmlowp) {
  Lcg lcg(9);
  for (int i = 0; i < 100000; ++i) {
    const auto a = static_cast<std::int32_t>(lcg.Next());
    const auto b = static_cast<std::int32_t>(lcg.Next());
    ASSERT_EQ(k::RoundingHalfSum(a, b), gemmlowp::RoundingHalfSum(a, b));
    ASSERT_EQ(k::SaturatingShiftLeft(a, 5),
              gemmlowp::SaturatingRoundingMultiplyByPOT<5>(a));
    ASSERT_EQ(k::SaturatingShiftLeft(a >> 7, 2),
              gemmlowp::SaturatingRoundingMultiplyByPOT<2>(a >> 7));
    const std::uint32_t u = lcg.Next() >> (lcg.Next() % 32);
    ASSERT_EQ(k::CountLeadingZeros(u), u == 0 ? 32 : __builtin_clz(u));
  }
}

/// TensorFlow Lite's quantized softmax of one int8 row, composed here from
/// gemmlowp's types (the second implementation): output bits 8 or 16.
template <typename OutputT>
std::vector<OutputT> GemmlowpSoftmaxRow(const std::vector<std::int8_t>& row,
                                        std::int32_t multiplier, int left_shift,
                                        std::int32_t diff_min) {
  const int max = *std::max_element(row.begin(), row.end());
  auto scaled = [&](int diff) {
    return F5::FromRaw(gemmlowp::SaturatingRoundingDoublingHighMul(
        diff * (1 << left_shift), multiplier));
  };
  F12 sum = F12::Zero();
  for (const int x : row) {
    if (x - max >= diff_min) {
      sum = sum + gemmlowp::Rescale<12>(
                      gemmlowp::exp_on_negative_values(scaled(x - max)));
    }
  }
  const int headroom = __builtin_clz(static_cast<std::uint32_t>(sum.raw()));
  const int over = 12 - headroom;
  const F0 recip = gemmlowp::one_over_one_plus_x_for_x_in_0_1(
      F0::FromRaw(static_cast<std::int32_t>(
          (static_cast<std::uint32_t>(sum.raw()) << headroom) -
          (std::uint32_t{1} << 31))));
  const int exponent = over + 31 - 8 * static_cast<int>(sizeof(OutputT));
  std::vector<OutputT> out;
  for (const int x : row) {
    std::int32_t v = std::numeric_limits<OutputT>::min();
    if (x - max >= diff_min) {
      const F0 e = gemmlowp::exp_on_negative_values(scaled(x - max));
      v = gemmlowp::RoundingDivideByPOT((recip * e).raw(), exponent) +
          std::numeric_limits<OutputT>::min();
      v = std::clamp<std::int32_t>(v, std::numeric_limits<OutputT>::min(),
                                   std::numeric_limits<OutputT>::max());
    }
    out.push_back(static_cast<OutputT>(v));
  }
  return out;
}

TEST(KernelsFixedPoint, SoftmaxMatchesGemmlowpComposition) {
  // Input scales of real models (person_detect, the MLPerf Tiny models,
  // micro_speech, keyword_scrambled) and a few more; depths 2 to 300.
  const double scales[] = {0.0625,     0.1,        0.0699627325, 0.25,
                           1.0 / 256,  0.16017495, 0.36546784,   1.5,
                           0.00390625, 4.0};
  Lcg lcg(10);
  int rows_checked = 0;
  for (const double scale : scales) {
    const auto s = arenaplan::compile::Int8SoftmaxScaling(1.0, scale);
    ASSERT_TRUE(s.has_value()) << scale;
    for (const int depth : {1, 2, 3, 10, 12, 37, 300}) {
      for (int trial = 0; trial < 20; ++trial) {
        std::vector<std::int8_t> row(static_cast<std::size_t>(depth));
        const int spread = 1 + static_cast<int>(lcg.Next() % 256);
        const int base = static_cast<int>(lcg.Next() % 256) - 128;
        for (auto& v : row) {
          v = static_cast<std::int8_t>(std::clamp(
              base - static_cast<int>(lcg.Next() % spread), -128, 127));
        }
        const k::SoftmaxParams p{s->input_multiplier, s->input_left_shift,
                                 s->diff_min, 1, depth};
        std::vector<std::int8_t> got8(row.size());
        std::vector<std::int16_t> got16(row.size());
        k::Softmax(p, row.data(), got8.data());
        k::SoftmaxInt16(p, row.data(), got16.data());
        ASSERT_EQ(got8, GemmlowpSoftmaxRow<std::int8_t>(
                            row, s->input_multiplier, s->input_left_shift,
                            s->diff_min))
            << "scale " << scale << " depth " << depth;
        ASSERT_EQ(got16, GemmlowpSoftmaxRow<std::int16_t>(
                             row, s->input_multiplier, s->input_left_shift,
                             s->diff_min))
            << "scale " << scale << " depth " << depth;
        ++rows_checked;
      }
    }
  }
  EXPECT_EQ(rows_checked, 10 * 7 * 20);
}

}  // namespace
