// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// fuse::PlanLeanFusion on the shared models: the arena and the fused lower
// bound of PlanFusion's segmentation kept (rings grown taller included),
// every segment it keeps needed (run operator by operator instead, the
// arena or the largest step bound grows), and fewer fused operators where
// the arena allows it.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "codegen/fuse/fuse.hpp"
#include "codegen/input/input.hpp"
#include "codegen/overlap/overlap_pairs.hpp"
#include "codegen/planner/planner.hpp"
#include "codegen/records.hpp"
#include "codegen/tflite/model.hpp"
#include "codegen/tflite/problem.hpp"

namespace arenaplan {
namespace {

struct Loaded {
  tflite::Model model;
  tflite::TfliteProblem problem;
  std::vector<OverlapPair> pairs;
};

Loaded Load(const std::string& name) {
  Loaded l{tflite::ReadModelFile(std::string(ARENAPLAN_SHARED_DIR) +
                                 "/models/" + name + ".tflite"),
           {},
           {}};
  l.problem = tflite::BuildProblem(l.model, InputOptions{});
  l.pairs = overlap::FindOverlapPairs(l.model, l.problem);
  return l;
}

std::uint64_t ArenaOf(const UsageProblem& q) {
  PlanOptions o;
  o.overlap = true;
  o.alignment = kModelAlignment;
  return Plan(q, o).arena_bytes;
}

std::size_t FusedOperators(const fuse::FusePlan& f) {
  std::size_t n = 0;
  for (const fuse::Segment& s : f.segments) n += s.ops.size();
  return n;
}

class LeanFusion : public ::testing::TestWithParam<const char*> {};

TEST_P(LeanFusion, KeepsTheArenaAndOnlyTheSegmentsItNeeds) {
  const Loaded l = Load(GetParam());
  const fuse::FusePlan full =
      fuse::PlanFusion(l.model, l.problem, l.pairs, kModelAlignment);
  const std::uint64_t arena = ArenaOf(full.problem);
  const fuse::FusePlan lean = fuse::PlanLeanFusion(l.model, l.problem, l.pairs,
                                                   kModelAlignment, ArenaOf);
  EXPECT_LE(ArenaOf(lean.problem), arena);
  EXPECT_EQ(lean.lower_bound, full.lower_bound);
  EXPECT_LE(FusedOperators(lean), FusedOperators(full));
  // Rings at least the rows the schedule needs (MakeSegment's); a taller
  // one (rows to spare, where the arena has room) holds no pool state and
  // is in no ring pair, and its bytes are its rows'.
  for (const fuse::Segment& s : lean.segments) {
    const auto least = fuse::MakeSegment(l.model, s.first_op, s.last_op);
    ASSERT_TRUE(least.has_value());
    for (std::size_t i = 0; i < s.ops.size(); ++i) {
      EXPECT_GE(s.ring_rows[i], least->ring_rows[i]) << GetParam();
      if (s.ring_rows[i] == least->ring_rows[i]) continue;
      EXPECT_EQ(s.ops[i].state_bytes, 0u);
      for (const fuse::RingPair& q : s.ring_pairs) {
        EXPECT_TRUE(q.source != i && q.reader != i);
      }
      EXPECT_EQ(s.ring_bytes[i], s.ring_rows[i] * s.ops[i].out_row_bytes);
    }
  }
  // Each kept segment run operator by operator instead: the arena or the
  // largest step bound grows (checked here by building that segmentation,
  // not by the function's own search).
  for (std::size_t k = 0; k < lean.segments.size(); ++k) {
    std::vector<fuse::Segment> rest;
    for (std::size_t i = 0; i < lean.segments.size(); ++i) {
      if (i != k) rest.push_back(lean.segments[i]);
    }
    const fuse::FusePlan without = fuse::ApplySegments(
        l.model, l.problem, l.pairs, std::move(rest), kModelAlignment);
    EXPECT_TRUE(without.lower_bound > full.lower_bound ||
                ArenaOf(without.problem) > arena)
        << GetParam() << ": segment " << lean.segments[k].first_op << ".."
        << lean.segments[k].last_op << " is not needed";
  }
}

INSTANTIATE_TEST_SUITE_P(Shared, LeanFusion,
                         ::testing::Values("person_detect", "vww_96_int8",
                                           "pretrainedResnet_quant",
                                           "kws_ref_model"),
                         [](const auto& info) {
                           return std::string(info.param);
                         });

TEST(LeanFusion, FusesFewerOperatorsWhereTheArenaAllows) {
  // person_detect's and vww_96_int8's later stages (12x12 and smaller) fit
  // under the arena their first stages need, so fewer operators are fused
  // than PlanFusion's smallest-sum choice fuses.
  for (const char* name : {"person_detect", "vww_96_int8"}) {
    const Loaded l = Load(name);
    const fuse::FusePlan full =
        fuse::PlanFusion(l.model, l.problem, l.pairs, kModelAlignment);
    const fuse::FusePlan lean = fuse::PlanLeanFusion(
        l.model, l.problem, l.pairs, kModelAlignment, ArenaOf);
    EXPECT_LT(FusedOperators(lean), FusedOperators(full)) << name;
  }
}

TEST(LeanFusion, FewestFusedTiesReachTheSameLargestBound) {
  for (const char* name : {"person_detect", "vww_96_int8", "kws_ref_model"}) {
    const Loaded l = Load(name);
    const fuse::FusePlan sum =
        fuse::PlanFusion(l.model, l.problem, l.pairs, kModelAlignment);
    const fuse::FusePlan fewest =
        fuse::PlanFusion(l.model, l.problem, l.pairs, kModelAlignment,
                         fuse::FusionTies::kFewestFused);
    EXPECT_EQ(fewest.lower_bound, sum.lower_bound) << name;
    EXPECT_LE(FusedOperators(fewest), FusedOperators(sum)) << name;
  }
}

}  // namespace
}  // namespace arenaplan
