// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// TILE (tile.hpp) by hand and against numpy.tile's definition written as
// index arithmetic on random shapes.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "arenaplan/kernels/tile.hpp"

namespace {

namespace k = arenaplan::kernels;

TEST(Tile, RepeatsRowsAndColumnsByHand) {
  // [2,3] = {{1,2,3},{4,5,6}} tiled {2,2} -> [4,6].
  const std::int8_t in[] = {1, 2, 3, 4, 5, 6};
  std::int8_t out[24] = {};
  k::Tile<std::int8_t>(k::TileParams{{1, 1, 2, 3}, {1, 1, 4, 6}}, in, out);
  const std::int8_t expect[] = {1, 2, 3, 1, 2, 3, 4, 5, 6, 4, 5, 6,
                                1, 2, 3, 1, 2, 3, 4, 5, 6, 4, 5, 6};
  for (int i = 0; i < 24; ++i) EXPECT_EQ(out[i], expect[i]) << i;
}

TEST(Tile, MatchesTheDefinitionOnRandomShapes) {
  std::mt19937 rng(69);
  auto dim = [&](int hi) {
    return std::uniform_int_distribution<std::int32_t>(1, hi)(rng);
  };
  for (int trial = 0; trial < 100; ++trial) {
    const k::Shape4 s{dim(2), dim(3), dim(3), dim(4)};
    const k::Shape4 m{dim(2), dim(3), dim(2), dim(3)};
    const k::Shape4 o{s.n * m.n, s.h * m.h, s.w * m.w, s.c * m.c};
    std::vector<std::int32_t> in(static_cast<std::size_t>(s.Count()));
    for (std::size_t i = 0; i < in.size(); ++i) {
      in[i] = static_cast<std::int32_t>(i) * 1000 + trial;
    }
    std::vector<std::int32_t> out(static_cast<std::size_t>(o.Count()));
    k::Tile<std::int32_t>(k::TileParams{s, o}, in.data(), out.data());
    // Scatter: copy r of the input (r = (rn, rh, rw, rc) over the
    // multiples) lands at offset r * input dims; every output element is
    // written by exactly one copy.
    std::vector<std::int32_t> expect(out.size(), -1);
    for (std::int32_t rn = 0; rn < m.n; ++rn)
      for (std::int32_t rh = 0; rh < m.h; ++rh)
        for (std::int32_t rw = 0; rw < m.w; ++rw)
          for (std::int32_t rc = 0; rc < m.c; ++rc)
            for (std::int32_t n = 0; n < s.n; ++n)
              for (std::int32_t h = 0; h < s.h; ++h)
                for (std::int32_t w = 0; w < s.w; ++w)
                  for (std::int32_t c = 0; c < s.c; ++c) {
                    const std::int32_t at =
                        (((rn * s.n + n) * o.h + rh * s.h + h) * o.w +
                         rw * s.w + w) *
                            o.c +
                        rc * s.c + c;
                    expect[static_cast<std::size_t>(at)] =
                        in[static_cast<std::size_t>(
                            ((n * s.h + h) * s.w + w) * s.c + c)];
                  }
    ASSERT_EQ(out, expect) << trial;
  }
}

}  // namespace
