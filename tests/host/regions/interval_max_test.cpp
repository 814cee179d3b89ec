// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The two interval trees against a plain array updated and scanned element
// by element (the second method), on random operations.
#include "codegen/regions/interval_max.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

namespace arenaplan {
namespace {

TEST(IntervalMax, MatchesAPlainArrayOnRandomOperations) {
  std::mt19937 rng(27);
  for (std::size_t count : {1u, 2u, 3u, 7u, 64u, 1000u}) {
    IntervalAddMax sums(count);
    IntervalChmaxMax tops(count);
    std::vector<std::uint64_t> sum(count, 0);
    std::vector<std::uint64_t> top(count, 0);
    for (int step = 0; step < 2000; ++step) {
      std::size_t a = rng() % count;
      std::size_t b = rng() % count;
      if (a > b) std::swap(a, b);
      const std::uint64_t x = rng() % 1000;
      if (rng() % 2 == 0) {
        sums.Add(a, b, x);
        for (std::size_t k = a; k <= b; ++k) sum[k] += x;
        tops.Raise(a, b, x + step);
        for (std::size_t k = a; k <= b; ++k) {
          top[k] = std::max<std::uint64_t>(top[k], x + step);
        }
      }
      std::size_t c = rng() % count;
      std::size_t d = rng() % count;
      if (c > d) std::swap(c, d);
      EXPECT_EQ(sums.Max(c, d),
                *std::max_element(sum.begin() + c, sum.begin() + d + 1));
      EXPECT_EQ(tops.Max(c, d),
                *std::max_element(top.begin() + c, top.begin() + d + 1));
    }
  }
}

TEST(IntervalMax, ClipsRangesPastTheEnd) {
  IntervalAddMax sums(4);
  sums.Add(2, 9, 5);
  EXPECT_EQ(sums.Max(0, 1), 0u);
  EXPECT_EQ(sums.Max(3, 3), 5u);
  EXPECT_EQ(sums.Max(7, 9), 0u);
  IntervalChmaxMax tops(0);
  tops.Raise(0, 3, 5);
  EXPECT_EQ(tops.Max(0, 3), 0u);
}

}  // namespace
}  // namespace arenaplan
