// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// Fused segments of the shared models (codegen/fuse/): ring sizes and the
// output's distance against figures derived by hand from the operator list
// and shapes (`arenaplan inspect MODEL`) with docs/fuse.md's rules, the
// planned arenas of `plan --fuse` validated and within the targets,
// and the fused lower bound below every plan and above nothing it should
// not be (a single-operator segmentation's bound, i.e. the overlap bound,
// is never below it).
#include "codegen/fuse/fuse.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <string>
#include <vector>

#include "codegen/input/input.hpp"
#include "codegen/overlap/overlap_pairs.hpp"
#include "codegen/planner/planner.hpp"
#include "codegen/records.hpp"
#include "codegen/tflite/model.hpp"
#include "codegen/tflite/problem.hpp"
#include "codegen/validator/validator.hpp"

namespace arenaplan {
namespace {

const std::string kModels = std::string(ARENAPLAN_SHARED_DIR) + "/models/";

struct Loaded {
  tflite::Model model;
  tflite::TfliteProblem problem;
  std::vector<OverlapPair> pairs;
};

Loaded Load(const std::string& name) {
  Loaded l{tflite::ReadModelFile(kModels + name + ".tflite"), {}, {}};
  l.problem = tflite::BuildProblem(l.model, InputOptions{});
  l.pairs = overlap::FindOverlapPairs(l.model, l.problem);
  return l;
}

TEST(Fuse, SizesPersonDetectsFirstStageByHand) {
  const Loaded l = Load("person_detect");
  // Operators 0..3: DW 3x3 s2 (96x96x1 -> 48x48x8), DW 3x3 s1, 1x1 CONV
  // (-> 48x48x16), DW 3x3 s2 (-> 24x24x16). Rings: op 0's output read by a
  // 3-row window: 3 x 48 x 8 = 1152; op 1's by a 1x1: 384; op 2's by a
  // 3-row window: 3 x 48 x 16 = 2304.
  const auto s = fuse::MakeSegment(l.model, 0, 3);
  ASSERT_TRUE(s.has_value());
  EXPECT_EQ(s->ring_rows, (std::vector<std::uint32_t>{3, 1, 3, 0}));
  EXPECT_EQ(s->ring_bytes, (std::vector<std::uint64_t>{1152, 384, 2304, 0}));
  ASSERT_EQ(s->input_tensors, std::vector<std::int32_t>{88});
  // Output row j (24 x 16 = 384 bytes) reads op 2's rows [2j, 2j + 3)
  // (SAME, stride 2, no top padding), which need op 1's rows up to 2j + 2,
  // which need op 0's rows up to 2j + 3: op 0's next row is 2j + 4 (while
  // j < 23), whose window starts at input row 4j + 8 (96 bytes a row):
  // e >= 384 (j + 1) - 96 (4j + 8) = -384 < 0. The last row (j = 23): op 0
  // is done (its row 47 was needed) and no input row is read any more:
  // e >= 24 x 384 - 9216 = 0. So the distance is 0.
  ASSERT_EQ(s->input_distance.size(), 1u);
  EXPECT_EQ(*s->input_distance[0], 0u);
  // Calls: 48 + 48 + 48 + 24 rows.
  EXPECT_EQ(s->calls, 168u);
}

TEST(Fuse, LetsKwsLastPointwiseRingOverlapTheRingItReads) {
  const Loaded l = Load("kws_ref_model");
  // Operators 0..9: CONV 10x4 s2 (49x10x1 -> 25x5x64), then four times DW
  // 3x3 and 1x1 CONV (25x5x64, rows of 5 x 64 = 320 bytes), then the
  // global AVERAGE_POOL (-> 1x1x64). Rings: the DWs read 3-row windows
  // (960 bytes), the 1x1 CONVs and the pool one row (320); the pool's
  // state is 64 x 4 = 256 bytes.
  const auto s = fuse::MakeSegment(l.model, 0, 9);
  ASSERT_TRUE(s.has_value());
  EXPECT_EQ(s->ring_rows,
            (std::vector<std::uint32_t>{3, 1, 3, 1, 3, 1, 3, 1, 1, 0}));
  // Only op 8 (the last 1x1 CONV) reads a one-row ring (op 7's, read by it
  // alone) and writes a one-row ring (the pool's input); ops 2, 4, 6 write
  // 3-row rings. A 1x1 CONV 64 -> 64 rereads all 64 bytes of input pixel
  // p for each output byte k of pixel p (conv.hpp's order), so byte k < 63
  // must lie below pixel p's input: (64 p + k) - d < 64 p, d >= 63 at
  // k = 62; byte 63 is written after the last read of pixel p and needs
  // only to stay below pixel p + 1: d >= 0. So d = 63.
  ASSERT_EQ(s->ring_pairs.size(), 1u);
  EXPECT_EQ(s->ring_pairs[0].source, 7u);
  EXPECT_EQ(s->ring_pairs[0].reader, 8u);
  EXPECT_EQ(s->ring_pairs[0].distance, 63u);
  // The bound at alignment 16: the input (490 -> 496, the 64-byte output
  // at distance 0 inside it), 4 x 960 + 4 x 320 + 320 + 256 of rings, less
  // the 320 - 64 bytes (63 rounded up to 16) op 8's ring shares with op
  // 7's: 5,936 <= 6,000.
  const fuse::FusePlan f =
      fuse::PlanFusion(l.model, l.problem, l.pairs, kModelAlignment);
  EXPECT_EQ(f.lower_bound, 496u + 4 * 960 + 4 * 320 + 320 + 256 - 256);
}

TEST(Fuse, RefusesRangesItCannotStream) {
  const Loaded l = Load("person_detect");
  EXPECT_FALSE(fuse::MakeSegment(l.model, 3, 3).has_value());    // One op.
  EXPECT_FALSE(fuse::MakeSegment(l.model, 28, 30).has_value());  // RESHAPE.
  const Loaded r = Load("pretrainedResnet_quant");
  // Operators 0..1: tensor 22 is read by ADD (operator 3) outside.
  EXPECT_FALSE(fuse::MakeSegment(r.model, 0, 1).has_value());
  EXPECT_TRUE(fuse::MakeSegment(r.model, 0, 3).has_value());
}

TEST(Fuse, ResnetBlockSkipRingIsThreeRows) {
  const Loaded l = Load("pretrainedResnet_quant");
  // 0: conv 3x3 (32x32x3 -> 32x32x16) = T22; 1, 2: conv 3x3 s1; 3: ADD(T22,
  // T24). T22 is read by op 1's window and by ADD at op 2's lag: 3 rows of
  // 32 x 16 (row_schedule_test's residual case); T23 by op 2's window: 3;
  // T24 by ADD: 1.
  const auto s = fuse::MakeSegment(l.model, 0, 3);
  ASSERT_TRUE(s.has_value());
  EXPECT_EQ(s->ring_rows, (std::vector<std::uint32_t>{3, 3, 1, 0}));
  EXPECT_EQ(s->ring_bytes,
            (std::vector<std::uint64_t>{3 * 512, 3 * 512, 512, 0}));
}

TEST(Fuse, ReportsSegmentsAndTheBoundInJson) {
  const Loaded l = Load("person_detect");
  const fuse::FusePlan f =
      fuse::PlanFusion(l.model, l.problem, l.pairs, kModelAlignment);
  const std::string json = fuse::FusedJsonFields(f, l.model, kModelAlignment);
  // The first segment as sized by hand above (rings 1152 + 384 + 2304).
  EXPECT_NE(
      json.find("{\"step\":0,\"first_op\":0,\"last_op\":3,\"operators\":"
                "[\"DEPTHWISE_CONV_2D\",\"DEPTHWISE_CONV_2D\",\"CONV_2D\","
                "\"DEPTHWISE_CONV_2D\"],\"rows_per_band\":1,"
                "\"ring_bytes\":3840"),
      std::string::npos)
      << json;
  EXPECT_NE(json.find("\"fused_lower_bound\":{\"bytes\":" +
                      std::to_string(f.lower_bound) + ",\"step\":"),
            std::string::npos);
  EXPECT_NE(json.find("\"argument\":\""), std::string::npos);
}

/// The smallest largest step bound over every segmentation into runs
/// MakeSegment accepts, by enumeration: each of the 2^(n - 1) sets of
/// boundaries, its fused problem built by ApplySegments and its bound
/// (StepBound of every step), a different path from the programme's.
std::uint64_t BruteForceBound(const Loaded& l) {
  const std::uint32_t n = l.problem.problem.operator_count;
  std::uint64_t best = UINT64_MAX;
  for (std::uint64_t cuts = 0; cuts < (std::uint64_t{1} << (n - 1)); ++cuts) {
    std::vector<fuse::Segment> segs;
    bool ok = true;
    std::uint32_t a = 0;
    for (std::uint32_t k = 0; k < n && ok; ++k) {
      const bool end = k + 1 == n || ((cuts >> k) & 1) != 0;
      if (!end) continue;
      if (k > a) {
        auto s = fuse::MakeSegment(l.model, a, k);
        if (!s) ok = false;
        if (s) segs.push_back(*s);
      }
      a = k + 1;
    }
    if (!ok) continue;
    const fuse::FusePlan f = fuse::ApplySegments(
        l.model, l.problem, l.pairs, std::move(segs), kModelAlignment);
    best = std::min(best, f.lower_bound);
  }
  return best;
}

TEST(Fuse, ProgrammeFindsTheBruteForceOptimum) {
  for (const char* name : {"kws_ref_model", "pretrainedResnet_quant"}) {
    const Loaded l = Load(name);
    const fuse::FusePlan f =
        fuse::PlanFusion(l.model, l.problem, l.pairs, kModelAlignment);
    EXPECT_EQ(f.lower_bound, BruteForceBound(l)) << name;
  }
}

struct Target {
  const char* model;
  std::uint64_t at_most;  // docs/fuse.md, issue 28's targets.
};

class FusedModels : public ::testing::TestWithParam<Target> {};

TEST_P(FusedModels, PlansValidArenaWithinTargetAndAboveTheBound) {
  const Loaded l = Load(GetParam().model);
  const Alignment a = kModelAlignment;
  const fuse::FusePlan f = fuse::PlanFusion(l.model, l.problem, l.pairs, a);
  PlanOptions o;
  o.overlap = true;
  o.alignment = a;
  const PlanResult plan = Plan(f.problem, o);
  // Validated again, independently of the planner's own check.
  EXPECT_TRUE(ValidateOffsets(plan.problem.records, plan.offsets,
                              plan.arena_bytes, plan.alignment, plan.overlaps)
                  .ok());
  EXPECT_LE(plan.arena_bytes, GetParam().at_most);
  EXPECT_LE(f.lower_bound, plan.arena_bytes);
  EXPECT_GE(plan.arena_bytes, plan.overlap_lower_bound);
  // The bound is the chosen segmentation's largest step bound.
  std::uint64_t largest = 0;
  for (std::uint32_t s = 0; s < f.problem.operator_count; ++s) {
    largest = std::max(largest, fuse::StepBound(f.problem, s, a));
  }
  EXPECT_EQ(largest, f.lower_bound);
  // Not above the all-single-operator segmentation's bound (the overlap
  // lower bound of the model with its pairs).
  UsageProblem unfused = l.problem.problem;
  unfused.overlaps = l.pairs;
  const PlanResult layer = Plan(unfused, o);
  EXPECT_LE(f.lower_bound, layer.overlap_lower_bound);
  // Every operator is in exactly one step, in order.
  ASSERT_EQ(f.step_first_op.front(), 0u);
  for (std::size_t s = 1; s < f.step_first_op.size(); ++s) {
    EXPECT_EQ(f.step_first_op[s], f.step_last_op[s - 1] + 1);
  }
  EXPECT_EQ(f.step_last_op.back() + 1, l.problem.problem.operator_count);
}

INSTANTIATE_TEST_SUITE_P(
    Shared, FusedModels,
    ::testing::Values(Target{"person_detect", 20000},
                      Target{"vww_96_int8", 30000},
                      Target{"pretrainedResnet_quant", 20000},
                      Target{"kws_ref_model", 6000},
                      Target{"micro_speech_quantized", 4176}),
    [](const auto& info) { return std::string(info.param.model); });

}  // namespace
}  // namespace arenaplan
