// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// TFLM's greedy placement rule as arenaplan re-implements it
// (codegen/tflm/greedy_rule.*): hand-derived examples, including TFLM's
// order of equal sizes, and sound placements on every shared model. What
// TFLM reserves around an offline plan is tested in tflm_arena_test.
#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "codegen/base/alignment.hpp"
#include "codegen/input/input.hpp"
#include "codegen/planner/planner.hpp"
#include "codegen/tflite/load.hpp"
#include "codegen/tflite/problem.hpp"
#include "codegen/tflm/greedy_rule.hpp"
#include "tests/host/support/test_util.hpp"

namespace arenaplan::tflm {
namespace {

// Hand example of the greedy rule. Buffers (size, inclusive steps):
//   A 32 [0,1], B 16 [1,2], C 48 [2,3], D 16 [0,3], E 32 [3,3].
// Order by size, equal sizes later input first: C 48, E 32, A 32, D 16,
// B 16.
//   C -> 0 (nothing placed).        E [3,3] meets C [0,48) -> 48.
//   A [0,1] meets nothing placed -> 0.
//   D [0,3] meets A [0,32), C [0,48), E [48,80) -> 80.
//   B [1,2] meets A [0,32), C [0,48), D [80,96) -> 48.
// Arena 96.
TEST(TflmGreedyRule, MatchesHandExample) {
  const std::vector<GreedyBuffer> b = {{32, 0, 1, std::nullopt},
                                       {16, 1, 2, std::nullopt},
                                       {48, 2, 3, std::nullopt},
                                       {16, 0, 3, std::nullopt},
                                       {32, 3, 3, std::nullopt}};
  const GreedyPlacement p = TflmGreedyPlace(b);
  EXPECT_EQ(p.offsets, (std::vector<std::uint64_t>{0, 48, 0, 80, 48}));
  EXPECT_EQ(p.arena_bytes, 96u);
}

// First fit, not best fit: a buffer goes into the lowest hole that holds it
// even when a tighter one exists above. Fixed: X 32 @0, Y 16 @64, Z 16 @88,
// all [0,0] (holes [32,64), 32 bytes, and [80,88), 8 bytes); W 8 [0,0] ->
// 32 (best fit would pick 80). Arena 88 + 16 = 104.
TEST(TflmGreedyRule, HonoursFixedOffsetsAndFirstFit) {
  const std::vector<GreedyBuffer> b = {
      {32, 0, 0, 0}, {16, 0, 0, 64}, {16, 0, 0, 88}, {8, 0, 0, std::nullopt}};
  const GreedyPlacement p = TflmGreedyPlace(b);
  EXPECT_EQ(p.offsets, (std::vector<std::uint64_t>{0, 64, 88, 32}));
  EXPECT_EQ(p.arena_bytes, 104u);
}

// Equal sizes, worked by hand from TFLM's GreedyMemoryPlanner
// (tensorflow/lite/micro/memory_planner/greedy_memory_planner.cc,
// CalculateOffsetsIfNeeded): online buffers are stored from the back of
// buffer_ids_sorted_ (so in reverse id order) and ReverseSortInPlace is a
// stable bubble sort by decreasing size, so among equal sizes the higher id
// is placed first. Buffers (size, inclusive scopes):
//   0: 16 [0,1], 1: 16 [1,2], 2: 16 [0,2].
// Order 2, 1, 0: 2 -> 0; 1 [1,2] meets 2 [0,16) -> 16; 0 [0,1] meets
// 2 [0,16) and 1 [16,32) -> 32. Arena 48. (Ties in id order would give
// 0 -> 0, 1 -> 16, 2 -> 32.)
TEST(TflmGreedyRule, PlacesEqualSizesHigherIdFirst) {
  const std::vector<GreedyBuffer> b = {{16, 0, 1, std::nullopt},
                                       {16, 1, 2, std::nullopt},
                                       {16, 0, 2, std::nullopt}};
  const GreedyPlacement p = TflmGreedyPlace(b);
  EXPECT_EQ(p.offsets, (std::vector<std::uint64_t>{32, 16, 0}));
  EXPECT_EQ(p.arena_bytes, 48u);
}

// Offline buffers first (from the front of the list, id order), then the
// online ones with the tie rule above. 1: 32 [0,2] fixed at 0; online
// 0: 16 [1,1] and 2: 16 [1,1]. Order 1, 2, 0: 2 meets 1 [0,32) -> 32;
// 0 meets 1 [0,32) and 2 [32,48) -> 48. Arena 64.
TEST(TflmGreedyRule, PlacesOnlineTiesAfterOfflineBuffers) {
  const std::vector<GreedyBuffer> b = {
      {16, 1, 1, std::nullopt}, {32, 0, 2, 0}, {16, 1, 1, std::nullopt}};
  const GreedyPlacement p = TflmGreedyPlace(b);
  EXPECT_EQ(p.offsets, (std::vector<std::uint64_t>{48, 0, 32}));
  EXPECT_EQ(p.arena_bytes, 64u);
}

TEST(TflmGreedyRule, PlacementOfEveryModelIsSound) {
  const std::string models = std::string(ARENAPLAN_SHARED_DIR) + "/models/";
  InputOptions assume_one;
  assume_one.assume_dim = 1;
  for (const char* name : testing_util::kModelNames) {
    SCOPED_TRACE(name);
    const UsageProblem p =
        AlignProblem(LoadTfliteProblem(models + name + ".tflite", assume_one),
                     kModelAlignment);
    std::vector<GreedyBuffer> b;
    for (const auto& r : p.records)
      b.push_back({r.size, r.first_op, r.last_op, {}});
    const GreedyPlacement g = TflmGreedyPlace(b);
    for (std::size_t i = 0; i < b.size(); ++i) {
      EXPECT_EQ(g.offsets[i] % 16, 0u);
      for (std::size_t j = i + 1; j < b.size(); ++j) {
        const bool time = p.records[i].Intersects(p.records[j]);
        const bool space = g.offsets[i] < g.offsets[j] + b[j].size &&
                           g.offsets[j] < g.offsets[i] + b[i].size;
        EXPECT_FALSE(time && space) << i << " " << j;
      }
    }
  }
}

}  // namespace
}  // namespace arenaplan::tflm
