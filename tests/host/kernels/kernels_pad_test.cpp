// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// PAD (kernels/include/arenaplan/kernels/pad.hpp): hand-derived outputs and
// overlap distances, and random shapes against an independent formula
// (every output coordinate mapped back to the input, TFLite's reference
// Pad written out per element).
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "arenaplan/kernels/pad.hpp"

namespace {

namespace k = arenaplan::kernels;

TEST(Pad, PadsRowsAndColumnsByHand) {
  // 1x2x2x1 [1 2; 3 4], one row above, one column right, value 9:
  //   9 9 9
  //   1 2 9
  //   3 4 9
  const std::int8_t in[] = {1, 2, 3, 4};
  const k::PadParams p{{1, 2, 2, 1}, {0, 1, 0, 0}, {0, 0, 1, 0}};
  const k::Shape4 o = k::PadOutputShape(p);
  EXPECT_EQ(o.h, 3);
  EXPECT_EQ(o.w, 3);
  std::int8_t out[9] = {};
  k::Pad<std::int8_t>(p, 9, in, out);
  const std::int8_t expect[] = {9, 9, 9, 1, 2, 9, 3, 4, 9};
  for (int i = 0; i < 9; ++i) EXPECT_EQ(out[i], expect[i]) << i;
  // The last input element (4, input index 3) sits at output index 7:
  // d = 7 - 3 = 4 (the four 9s before it).
  EXPECT_EQ(k::PadOverlapDistance(p), 4);
}

TEST(Pad, PadsChannelsAndBatchByHand) {
  // 1x1x2x2 [1 2 | 3 4], one channel before and after, value -128:
  // [z 1 2 z | z 3 4 z]; the 4 lands at 6: d = 6 - 3 = 3.
  const std::int8_t in[] = {1, 2, 3, 4};
  const k::PadParams p{{1, 1, 2, 2}, {0, 0, 0, 1}, {0, 0, 0, 1}};
  std::int8_t out[8] = {};
  k::Pad<std::int8_t>(p, -128, in, out);
  const std::int8_t expect[] = {-128, 1, 2, -128, -128, 3, 4, -128};
  for (int i = 0; i < 8; ++i) EXPECT_EQ(out[i], expect[i]) << i;
  EXPECT_EQ(k::PadOverlapDistance(p), 3);
  // int32, one batch after: [5 6 | 0 0]; nothing before the last: d = 0.
  const std::int32_t w[] = {5, 6};
  std::int32_t wout[4] = {-1, -1, -1, -1};
  const k::PadParams q{{1, 1, 1, 2}, {0, 0, 0, 0}, {1, 0, 0, 0}};
  k::Pad<std::int32_t>(q, 0, w, wout);
  EXPECT_EQ(wout[0], 5);
  EXPECT_EQ(wout[1], 6);
  EXPECT_EQ(wout[2], 0);
  EXPECT_EQ(wout[3], 0);
  EXPECT_EQ(k::PadOverlapDistance(q), 0);
}

TEST(Pad, MatchesPerElementFormulaOnRandomShapes) {
  std::mt19937 rng(34);
  auto r = [&](int lo, int hi) {
    return std::uniform_int_distribution<int>(lo, hi)(rng);
  };
  for (int round = 0; round < 300; ++round) {
    const k::PadParams p{{r(1, 2), r(1, 5), r(1, 5), r(1, 4)},
                         {r(0, 1), r(0, 3), r(0, 3), r(0, 2)},
                         {r(0, 1), r(0, 3), r(0, 3), r(0, 2)}};
    const k::Shape4 o = k::PadOutputShape(p);
    std::vector<std::int8_t> in(static_cast<std::size_t>(
        p.input.n * p.input.h * p.input.w * p.input.c));
    for (auto& v : in) v = static_cast<std::int8_t>(r(-128, 127));
    const auto pad_value = static_cast<std::int8_t>(r(-128, 127));
    std::vector<std::int8_t> out(
        static_cast<std::size_t>(o.n * o.h * o.w * o.c));
    k::Pad<std::int8_t>(p, pad_value, in.data(), out.data());
    for (int n = 0; n < o.n; ++n) {
      for (int y = 0; y < o.h; ++y) {
        for (int x = 0; x < o.w; ++x) {
          for (int c = 0; c < o.c; ++c) {
            const int in_n = n - p.before.n, in_y = y - p.before.h;
            const int in_x = x - p.before.w, in_c = c - p.before.c;
            const bool inside = in_n >= 0 && in_n < p.input.n && in_y >= 0 &&
                                in_y < p.input.h && in_x >= 0 &&
                                in_x < p.input.w && in_c >= 0 &&
                                in_c < p.input.c;
            const std::int8_t want =
                inside ? in[static_cast<std::size_t>(
                             ((in_n * p.input.h + in_y) * p.input.w + in_x) *
                                 p.input.c +
                             in_c)]
                       : pad_value;
            ASSERT_EQ(out[static_cast<std::size_t>(
                          ((n * o.h + y) * o.w + x) * o.c + c)],
                      want);
          }
        }
      }
    }
  }
}

}  // namespace
