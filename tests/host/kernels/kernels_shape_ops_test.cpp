// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// MEAN, STRIDED_SLICE, CONCATENATION / PACK and SHAPE's copy (mean.hpp,
// strided_slice.hpp, concatenation.hpp, shape.hpp) on hand-derived cases,
// and the copying kernels on random shapes against per-element formulas.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "arenaplan/kernels/kernels.hpp"

namespace {

namespace k = arenaplan::kernels;

TEST(Mean, AveragesWithTflmRoundingByHand) {
  // s_in = s_out: QuantizeMultiplier(1) = (2^30, 1). Over h and w of
  // 1x2x2x1, num = 4: k = floor(log2 4) = 2, M' = (2^30 << 2) / 4 = 2^30,
  // s' = 1 - 2 = -1. MBQM(x) = RoundingDivideByPOT(SRDHM(x, 2^30), 1):
  //   sum 11: SRDHM = (11 * 2^30 + 2^30) >> 31 = 6, then 6 / 2 = 3;
  //   sum 10: SRDHM = 5, 5 / 2 = 2.5 rounds away from zero: 3;
  //   zp_in = 1 (offset 4), sum 10: 6 -> SRDHM 3 -> 1.5 -> 2, + zp_out -5.
  const std::int8_t a[] = {1, 2, 3, 5}, b[] = {1, 2, 3, 4};
  std::int8_t out = 0;
  k::Mean(k::MeanParams{{1, 2, 2, 1}, 6, 0, 1 << 30, -1, 0}, a, &out);
  EXPECT_EQ(out, 3);
  k::Mean(k::MeanParams{{1, 2, 2, 1}, 6, 0, 1 << 30, -1, 0}, b, &out);
  EXPECT_EQ(out, 3);
  k::Mean(k::MeanParams{{1, 2, 2, 1}, 6, 4, 1 << 30, -1, -5}, b, &out);
  EXPECT_EQ(out, -3);
}

TEST(Mean, ReducesOnlyTheMarkedDimensions) {
  // 1x2x1x3, mean over h (bit 2), exact halves avoided: num = 2, k = 1,
  // M' = 2^30, s' = 0: MBQM(x) = SRDHM(x, 2^30) = round(x / 2).
  const std::int8_t in[] = {10, 20, -30, 12, 40, -50};
  std::int8_t out[3] = {};
  k::Mean(k::MeanParams{{1, 2, 1, 3}, 4, 0, 1 << 30, 0, 0}, in, out);
  EXPECT_EQ(out[0], 11);
  EXPECT_EQ(out[1], 30);
  EXPECT_EQ(out[2], -40);
  // Saturation: zp_out pushes past 127.
  k::Mean(k::MeanParams{{1, 2, 1, 3}, 4, 0, 1 << 30, 0, 100}, in, out);
  EXPECT_EQ(out[1], 127);
}

TEST(StridedSlice, SlicesForwardAndBackwardByHand) {
  // 1x1x3x4 holding 0 .. 11 (x * 4 + c).
  std::int8_t in[12];
  for (int i = 0; i < 12; ++i) in[i] = static_cast<std::int8_t>(i);
  std::int8_t out[6] = {};
  // x in {0, 2}, c in {1, 3}: 1, 3, 9, 11.
  k::StridedSlice<std::int8_t>(
      k::StridedSliceParams{
          {1, 1, 3, 4}, {0, 0, 0, 1}, {1, 1, 3, 4}, {1, 1, 2, 2}},
      in, out);
  const std::int8_t fwd[] = {1, 3, 9, 11};
  for (int i = 0; i < 4; ++i) EXPECT_EQ(out[i], fwd[i]) << i;
  // x = 2, 1, 0 (stop -1 excluded), c = 3, 1: 11 9 7 5 3 1.
  k::StridedSlice<std::int8_t>(
      k::StridedSliceParams{
          {1, 1, 3, 4}, {0, 0, 2, 3}, {1, 1, -1, -1}, {1, 1, -1, -2}},
      in, out);
  const std::int8_t back[] = {11, 9, 7, 5, 3, 1};
  for (int i = 0; i < 6; ++i) EXPECT_EQ(out[i], back[i]) << i;
}

TEST(Concatenation, InterleavesAlongTheAxisByHand) {
  // [2,1,2] and [2,1,1] along the last axis: outer 2, inner {2, 1}.
  const std::int8_t a[] = {1, 2, 3, 4}, b[] = {9, 8};
  const std::int8_t* const inputs[] = {a, b};
  const std::int32_t inner[] = {2, 1};
  std::int8_t out[6] = {};
  k::Concatenation<std::int8_t>(k::ConcatenationParams{2, 2}, inputs, inner,
                                out);
  const std::int8_t expect[] = {1, 2, 9, 3, 4, 8};
  for (int i = 0; i < 6; ++i) EXPECT_EQ(out[i], expect[i]) << i;
  // PACK of three int32 scalars (outer 1, inner 1 each), then SHAPE's copy.
  const std::int32_t x = -1, y = 7, z = 256;
  const std::int32_t* const s[] = {&x, &y, &z};
  const std::int32_t ones[] = {1, 1, 1};
  std::int32_t packed[3] = {};
  k::Concatenation<std::int32_t>(k::ConcatenationParams{1, 3}, s, ones, packed);
  EXPECT_EQ(packed[0], -1);
  EXPECT_EQ(packed[1], 7);
  EXPECT_EQ(packed[2], 256);
  std::int32_t copy[3] = {};
  k::CopyElements<std::int32_t>(packed, copy, 3);
  EXPECT_EQ(copy[2], 256);
}

TEST(Concatenation, MatchesPerElementFormulaOnRandomShapes) {
  // 4-D inputs along a random axis: output[o][a'][r] where a' runs over the
  // inputs' axis sizes in turn.
  std::mt19937 rng(2);
  auto r = [&](int lo, int hi) {
    return std::uniform_int_distribution<int>(lo, hi)(rng);
  };
  for (int round = 0; round < 200; ++round) {
    int dims[4] = {r(1, 3), r(1, 3), r(1, 3), r(1, 3)};
    const int axis = r(0, 3), n = r(1, 4);
    int outer = 1, rest = 1;
    for (int d = 0; d < axis; ++d) outer *= dims[d];
    for (int d = axis + 1; d < 4; ++d) rest *= dims[d];
    std::vector<std::vector<std::int8_t>> in(static_cast<std::size_t>(n));
    std::vector<std::int32_t> inner;
    std::vector<const std::int8_t*> ptr;
    std::vector<int> sizes;
    int total_axis = 0;
    for (auto& v : in) {
      const int a = r(1, 3);
      sizes.push_back(a);
      total_axis += a;
      v.resize(static_cast<std::size_t>(outer * a * rest));
      for (auto& e : v) e = static_cast<std::int8_t>(r(-128, 127));
      inner.push_back(a * rest);
      ptr.push_back(v.data());
    }
    std::vector<std::int8_t> out(
        static_cast<std::size_t>(outer * total_axis * rest));
    k::Concatenation<std::int8_t>(k::ConcatenationParams{outer, n}, ptr.data(),
                                  inner.data(), out.data());
    for (int o = 0; o < outer; ++o) {
      int base = 0;
      for (int i = 0; i < n; ++i) {
        for (int a = 0; a < sizes[static_cast<std::size_t>(i)]; ++a) {
          for (int q = 0; q < rest; ++q) {
            const auto want =
                in[static_cast<std::size_t>(i)][static_cast<std::size_t>(
                    (o * sizes[static_cast<std::size_t>(i)] + a) * rest + q)];
            ASSERT_EQ(out[static_cast<std::size_t>(
                          (o * total_axis + base + a) * rest + q)],
                      want);
          }
        }
        base += sizes[static_cast<std::size_t>(i)];
      }
    }
  }
}

}  // namespace

namespace {

TEST(Split, DealsOutUnevenSharesAlongAnInnerAxisByHand) {
  // Input [2, 5] = {0..4; 10..14} split along axis 1 into sizes 2 and 3
  // (SPLIT_V): outer 2, inner {2, 3}: out0 = {0, 1, 10, 11},
  // out1 = {2, 3, 4, 12, 13, 14}.
  const std::int8_t in[] = {0, 1, 2, 3, 4, 10, 11, 12, 13, 14};
  std::int8_t o0[4] = {}, o1[6] = {};
  std::int8_t* const outs[] = {o0, o1};
  const std::int32_t inner[] = {2, 3};
  k::Split<std::int8_t>(k::SplitParams{2, 2}, in, inner, outs);
  const std::int8_t e0[] = {0, 1, 10, 11}, e1[] = {2, 3, 4, 12, 13, 14};
  for (int i = 0; i < 4; ++i) EXPECT_EQ(o0[i], e0[i]) << i;
  for (int i = 0; i < 6; ++i) EXPECT_EQ(o1[i], e1[i]) << i;
}

TEST(Split, UnpacksTheMiddleAxisOfInt32ByHand) {
  // UNPACK of [2, 3, 2] = {0..11} along axis 1: outer 2, three outputs of
  // [2, 2], inner 2 each: out k = {2k, 2k + 1, 6 + 2k, 7 + 2k}.
  std::int32_t in[12];
  for (int i = 0; i < 12; ++i) in[i] = i;
  std::int32_t o[3][4] = {};
  std::int32_t* const outs[] = {o[0], o[1], o[2]};
  const std::int32_t inner[] = {2, 2, 2};
  k::Split<std::int32_t>(k::SplitParams{2, 3}, in, inner, outs);
  for (int kk = 0; kk < 3; ++kk) {
    EXPECT_EQ(o[kk][0], 2 * kk);
    EXPECT_EQ(o[kk][1], 2 * kk + 1);
    EXPECT_EQ(o[kk][2], 6 + 2 * kk);
    EXPECT_EQ(o[kk][3], 7 + 2 * kk);
  }
  // The outermost axis (outer 1): each output one contiguous run.
  std::int32_t p0[6] = {}, p1[6] = {};
  std::int32_t* const halves[] = {p0, p1};
  const std::int32_t six[] = {6, 6};
  k::Split<std::int32_t>(k::SplitParams{1, 2}, in, six, halves);
  for (int i = 0; i < 6; ++i) {
    EXPECT_EQ(p0[i], i);
    EXPECT_EQ(p1[i], 6 + i);
  }
}

}  // namespace
