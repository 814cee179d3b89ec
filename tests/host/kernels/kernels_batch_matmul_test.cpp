// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// BATCH_MATMUL (batch_matmul.hpp): a hand-derived product, and transposes
// given as strides equal to the product of explicitly transposed copies.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "arenaplan/kernels/batch_matmul.hpp"

namespace {

namespace k = arenaplan::kernels;

TEST(BatchMatMul, MultipliesByHand) {
  // x [2,3] = {{1,2,3},{4,5,6}} (zp 1: {{0,1,2},{3,4,5}}), y [3,2] =
  // {{1,0},{0,1},{2,-1}} (zp 0). Product {{0+0+4, 0+1-2}, {3+0+10,
  // 0+4-5}} = {{4,-1},{13,-1}}. Multiplier 1/2 = (2^30, shift 0), zp_out 3:
  // 3 + {2, -0.5 -> 0 (ties toward +inf in SRDHM: -1 * 2^30 / 2^31 =
  // -0.5 -> 0), 6.5 -> 7, 0} = {5, 3, 10, 3}.
  const std::int8_t x[] = {1, 2, 3, 4, 5, 6};
  const std::int8_t y[] = {1, 0, 0, 1, 2, -1};
  std::int8_t out[4] = {};
  const k::BatchMatMulParams p{1,         0,         3,         1 << 30, 0,
                               {1, 1, 1}, {0, 0, 0}, {0, 0, 0}, 2,       3,
                               2,         3,         1,         2,       1};
  k::BatchMatMul(p, x, y, out);
  EXPECT_EQ(out[0], 5);
  EXPECT_EQ(out[1], 3);
  EXPECT_EQ(out[2], 10);
  EXPECT_EQ(out[3], 3);
}

TEST(BatchMatMul, TransposeStridesEqualTransposedCopies) {
  std::mt19937 rng(126);
  std::uniform_int_distribution<int> byte(-128, 127);
  for (int trial = 0; trial < 50; ++trial) {
    const std::int32_t r = 1 + trial % 4, d = 1 + trial % 5, c = 1 + trial % 3;
    std::vector<std::int8_t> x(static_cast<std::size_t>(r * d)),
        y(static_cast<std::size_t>(d * c));
    for (auto& v : x) v = static_cast<std::int8_t>(byte(rng));
    for (auto& v : y) v = static_cast<std::int8_t>(byte(rng));
    // Transposed copies: xt [d, r], yt [c, d].
    std::vector<std::int8_t> xt(x.size()), yt(y.size());
    for (std::int32_t i = 0; i < r; ++i)
      for (std::int32_t kk = 0; kk < d; ++kk)
        xt[static_cast<std::size_t>(kk * r + i)] =
            x[static_cast<std::size_t>(i * d + kk)];
    for (std::int32_t kk = 0; kk < d; ++kk)
      for (std::int32_t j = 0; j < c; ++j)
        yt[static_cast<std::size_t>(j * d + kk)] =
            y[static_cast<std::size_t>(kk * c + j)];
    k::BatchMatMulParams p{3,         -5,        7,         1500000000, -6,
                           {1, 1, 1}, {0, 0, 0}, {0, 0, 0}, r,          d,
                           c,         d,         1,         c,          1};
    std::vector<std::int8_t> plain(static_cast<std::size_t>(r * c)),
        adj(plain.size());
    k::BatchMatMul(p, x.data(), y.data(), plain.data());
    // adj_x, adj_y: the stored operands are the transposed copies.
    p.x_row_stride = 1;
    p.x_depth_stride = r;
    p.y_depth_stride = 1;
    p.y_col_stride = d;
    k::BatchMatMul(p, xt.data(), yt.data(), adj.data());
    ASSERT_EQ(plain, adj) << trial;
  }
}

}  // namespace
