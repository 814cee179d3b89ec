// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// TFLM's greedy placement rule as arenaplan re-implements it
// (codegen/tflm/greedy_rule.*) and what TFLM reserves around an offline
// plan (codegen/tflm/reserved_arena.*): hand-derived examples, and sound
// placements on every shared model.
#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "codegen/alignment.hpp"
#include "codegen/input.hpp"
#include "codegen/planner.hpp"
#include "codegen/tflite/load.hpp"
#include "codegen/tflite/problem.hpp"
#include "codegen/tflm/greedy_rule.hpp"
#include "codegen/tflm/reserved_arena.hpp"

namespace arenaplan::tflm {
namespace {

// Hand example of the greedy rule. Buffers (size, inclusive steps):
//   A 32 [0,1], B 16 [1,2], C 48 [2,3], D 16 [0,3], E 32 [3,3].
// Order by size: C 48, A 32, E 32, B 16, D 16.
//   C -> 0 (nothing placed).        A [0,1] meets nothing placed -> 0.
//   E [3,3] meets C [0,48) -> 48.   B [1,2] meets C [0,48), A [0,32) -> 48.
//   D [0,3] meets C [0,48), A [0,32), E [48,80), B [48,64) -> 80.
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

TEST(TflmGreedyRule, PlacementOfEveryModelIsSound) {
  const std::string models = std::string(ARENAPLAN_SHARED_DIR) + "/models/";
  InputOptions assume_one;
  assume_one.assume_dim = 1;
  for (const char* name :
       {"hello_world_int8", "hello_world_float", "micro_speech_quantized",
        "keyword_scrambled", "person_detect", "face_detection_short_range"}) {
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

// Tensor 0 (32 bytes, steps [0,1]) planned at offset 32, and a scratch
// buffer (16 bytes, step 1) TFLM places itself. With the plan: the tensor
// stays at [32,64), the scratch buffer fits below it at 0: 64 bytes.
// Without: the tensor (larger) goes first to 0, the scratch buffer meets
// it and goes to 32: 48 bytes.
TEST(TflmReservedArena, PlacesScratchAroundThePlannedTensors) {
  tflite::TfliteProblem problem;
  problem.record_tensor = {0, -1};
  PlanResult plan;
  plan.problem.records = {{0, 1, 32}, {1, 1, 16}};
  plan.offsets = {32, 0};
  const ReservedArena r = ReserveLikeTflm(problem, plan);
  EXPECT_EQ(r.with_plan_bytes, 64u);
  EXPECT_EQ(r.greedy_only_bytes, 48u);
}

}  // namespace
}  // namespace arenaplan::tflm
