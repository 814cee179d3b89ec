// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// GATHER (gather.hpp) on hand-derived cases and against a per-element
// formula written from the operator's definition (numpy.take) on random
// shapes.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "arenaplan/kernels/gather.hpp"

namespace {

namespace k = arenaplan::kernels;

TEST(Gather, TakesRowsOfAMatrixByHand) {
  // input [3,2] = {{10,11},{20,21},{30,31}}, axis 0, positions {2,0,2}:
  // rows 2, 0, 2.
  const std::int8_t in[] = {10, 11, 20, 21, 30, 31};
  const std::int32_t pos[] = {2, 0, 2};
  std::int8_t out[6] = {};
  k::Gather<std::int8_t>(k::GatherParams{1, 1, 3, 3, 2}, in, pos, out);
  const std::int8_t expect[] = {30, 31, 10, 11, 30, 31};
  for (int i = 0; i < 6; ++i) EXPECT_EQ(out[i], expect[i]) << i;
}

TEST(Gather, TakesColumnsOfAMiddleAxisByHand) {
  // input [2,3,2] int16, axis 1, positions {1}: out [2,1,2] holds
  // input[0][1][*] and input[1][1][*].
  const std::int16_t in[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
  const std::int32_t pos[] = {1};
  std::int16_t out[4] = {};
  k::Gather<std::int16_t>(k::GatherParams{1, 2, 3, 1, 2}, in, pos, out);
  const std::int16_t expect[] = {2, 3, 8, 9};
  for (int i = 0; i < 4; ++i) EXPECT_EQ(out[i], expect[i]) << i;
}

TEST(Gather, UsesEachBatchsOwnPositionsByHand) {
  // batch_dims 1: input [2,3] int32, positions [2,2] = {{2,1},{0,0}}:
  // out [2,2] = {{in[0][2], in[0][1]}, {in[1][0], in[1][0]}}.
  const std::int32_t in[] = {100, 101, 102, 200, 201, 202};
  const std::int32_t pos[] = {2, 1, 0, 0};
  std::int32_t out[4] = {};
  k::Gather<std::int32_t>(k::GatherParams{2, 1, 3, 2, 1}, in, pos, out);
  const std::int32_t expect[] = {102, 101, 200, 200};
  for (int i = 0; i < 4; ++i) EXPECT_EQ(out[i], expect[i]) << i;
}

TEST(Gather, ClampsAPositionOutsideTheAxis) {
  const std::int8_t in[] = {1, 2, 3};
  const std::int32_t pos[] = {-5, 3, 1};
  std::int8_t out[3] = {};
  k::Gather<std::int8_t>(k::GatherParams{1, 1, 3, 3, 1}, in, pos, out);
  EXPECT_EQ(out[0], 1);
  EXPECT_EQ(out[1], 3);
  EXPECT_EQ(out[2], 2);
}

TEST(Gather, MatchesTheTakeFormulaOnRandomShapes) {
  std::mt19937 rng(26);
  for (int trial = 0; trial < 200; ++trial) {
    auto dim = [&](int hi) {
      return std::uniform_int_distribution<std::int32_t>(1, hi)(rng);
    };
    const k::GatherParams p{dim(3), dim(4), dim(5), dim(4), dim(6)};
    std::vector<std::int8_t> in(
        static_cast<std::size_t>(p.batch * p.outer * p.axis * p.inner));
    for (std::size_t i = 0; i < in.size(); ++i) {
      in[i] = static_cast<std::int8_t>(i * 7 + trial);
    }
    std::vector<std::int32_t> pos(static_cast<std::size_t>(p.batch * p.coords));
    for (auto& v : pos) {
      v = std::uniform_int_distribution<std::int32_t>(0, p.axis - 1)(rng);
    }
    std::vector<std::int8_t> out(
        static_cast<std::size_t>(p.batch * p.outer * p.coords * p.inner));
    k::Gather<std::int8_t>(p, in.data(), pos.data(), out.data());
    // numpy.take with batch_dims: out[b, o, c, i] = in[b, o, pos[b, c], i].
    for (std::int32_t b = 0; b < p.batch; ++b) {
      for (std::int32_t o = 0; o < p.outer; ++o) {
        for (std::int32_t c = 0; c < p.coords; ++c) {
          for (std::int32_t i = 0; i < p.inner; ++i) {
            const std::size_t at = static_cast<std::size_t>(
                ((b * p.outer + o) * p.coords + c) * p.inner + i);
            const std::int32_t src =
                pos[static_cast<std::size_t>(b * p.coords + c)];
            const std::size_t from = static_cast<std::size_t>(
                ((b * p.outer + o) * p.axis + src) * p.inner + i);
            ASSERT_EQ(out[at], in[from]) << trial;
          }
        }
      }
    }
  }
}

}  // namespace
