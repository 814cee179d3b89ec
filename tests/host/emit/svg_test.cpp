// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The plan picture: geometry of the rectangles (derived by hand from the
// canvas constants), labels, tooltips, the lower-bound line, escaping and
// determinism; a 300-tensor plan keeps one tooltip per tensor and labels
// only where they fit.
#include "codegen/emit/svg.hpp"

#include <gtest/gtest.h>

#include <string>

#include "codegen/base/errors.hpp"
#include "tests/host/support/tiny_plan.hpp"

namespace arenaplan {
namespace {

std::size_t Count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos;
       at = text.find(what, at + what.size())) {
    ++n;
  }
  return n;
}

/// The shared hand-derived plan (tests/host/support/tiny_plan.hpp), with a name
/// that needs XML escaping and a registered strategy name.
PlanResult TinyPlan() {
  PlanResult p = testing_util::TinyPlan();
  p.problem.names = {"input", "conv1/Relu", "out<&>", "empty"};
  p.strategy = "greedy-by-size";
  return p;
}

TEST(Svg, DrawsEachTensorOverItsOperatorsAndBytes) {
  const std::string svg = EmitSvg(TinyPlan());
  EXPECT_EQ(svg.rfind("<?xml", 0), 0u);
  EXPECT_EQ(svg.substr(svg.size() - 7), "</svg>\n");
  // Plot: x from 96, 1280 wide (4 operators -> 320 per operator); y from 76,
  // 768 high for 96 bytes (8 per byte), offset 0 at the bottom (y = 844).
  // conv1/Relu: ops 1..2 -> x 416, width 640; bytes 64..95 -> y 844 - 96*8
  // = 76, height 32 * 8 = 256.
  EXPECT_NE(svg.find("<rect x=\"416\" y=\"76\" width=\"640\" height=\"256\""),
            std::string::npos);
  // input: ops 0..1 -> x 96, width 640; bytes 0..63 -> y 844 - 512 = 332.
  EXPECT_NE(svg.find("<rect x=\"96\" y=\"332\" width=\"640\" height=\"512\""),
            std::string::npos);
  // out: ops 2..3 -> x 736.
  EXPECT_NE(svg.find("<rect x=\"736\" y=\"332\" width=\"640\" height=\"512\""),
            std::string::npos);
  // Three tooltips (the empty tensor is not drawn), each with a label.
  EXPECT_EQ(Count(svg, "<g><title>"), 3u);
  EXPECT_NE(svg.find(">conv1/Relu 32 B</text>"), std::string::npos);
  EXPECT_NE(svg.find(">input 64 B</text>"), std::string::npos);
  EXPECT_NE(svg.find("out&lt;&amp;&gt;"), std::string::npos);
  EXPECT_EQ(svg.find("out<&>"), std::string::npos);
}

TEST(Svg, DrawsSegmentBandsAndHatchedRings) {
  // Step 1 a segment, conv1/Relu (record 1) its ring, as plan --fuse gives.
  SvgSegments segs;
  segs.steps = {1};
  segs.labels = {"segment: operators 1-3"};
  segs.rings = {1};
  const std::string svg = EmitSvg(TinyPlan(), segs);
  // Step 1's column: x 96 + 320 = 416, 320 wide, the whole plot high (y 76,
  // 768), labelled at its top centre (x 576).
  EXPECT_NE(svg.find("<rect x=\"416\" y=\"76\" width=\"320\" "
                     "height=\"768\" fill=\"#fff3c4\""),
            std::string::npos);
  EXPECT_NE(svg.find("<text x=\"576\" y=\"89\" text-anchor=\"middle\" "
                     "fill=\"#8a6500\">segment: operators 1-3</text>"),
            std::string::npos);
  // The ring over the tensor's own rectangle (same geometry, hatched),
  // drawn after it; the band before every tensor.
  const std::string ring =
      "<rect x=\"416\" y=\"76\" width=\"640\" height=\"256\"><title>ring: "
      "conv1/Relu, 32 B at offset 64</title>";
  ASSERT_NE(svg.find(ring), std::string::npos);
  EXPECT_GT(svg.find(ring), svg.find("<g><title>conv1/Relu"));
  EXPECT_LT(svg.find("class=\"segment\""), svg.find("<g><title>input"));
  EXPECT_EQ(Count(svg, "url(#ring-hatch)"), 1u);
  EXPECT_NE(svg.find("rings (1): cross-hatched, dashed; segments (1)"),
            std::string::npos);
  // Without segments: none of it.
  const std::string plain = EmitSvg(TinyPlan());
  EXPECT_EQ(plain.find("ring-hatch"), std::string::npos);
  EXPECT_EQ(plain.find("class=\"segment\""), std::string::npos);
  // A ring or step outside the plan is an internal error.
  segs.rings = {4};
  EXPECT_THROW((void)EmitSvg(TinyPlan(), segs), InternalError);
  segs.rings = {1};
  segs.steps = {4};
  EXPECT_THROW((void)EmitSvg(TinyPlan(), segs), InternalError);
}

TEST(Svg, StatesArenaAndDrawsLowerBound) {
  PlanResult p = TinyPlan();
  p.arena_bytes = 96;
  p.lower_bound = 48;  // A made-up bound, to move the line.
  const std::string svg = EmitSvg(p);
  EXPECT_NE(svg.find("arena 96 B"), std::string::npos);
  EXPECT_NE(svg.find("lower bound 48 B"), std::string::npos);
  // The bound at 48 bytes: y = 844 - 48 * 8 = 460, dashed, across the plot.
  EXPECT_NE(svg.find("<line x1=\"96\" y1=\"460\" x2=\"1376\" y2=\"460\" "
                     "stroke=\"#d62728\" stroke-width=\"1.6\" "
                     "stroke-dasharray"),
            std::string::npos);
  EXPECT_NE(svg.find("= 2.000 x lower bound"), std::string::npos);
}

TEST(Svg, IsDeterministic) {
  EXPECT_EQ(EmitSvg(TinyPlan()), EmitSvg(TinyPlan()));
}

TEST(Svg, RejectsMismatchedOffsets) {
  PlanResult p = TinyPlan();
  p.offsets.pop_back();
  EXPECT_THROW((void)EmitSvg(p), InternalError);
}

// 300 tensors in a staircase: tensor i lives over operators i/3 .. i/3 + 2,
// sized 16 * (1 + i % 7) <= 112, in slot i % 9 (offset 112 * slot).
// Tensors i < j are alive together only when j/3 - i/3 <= 2, i.e. j - i < 9,
// so they never share a slot while alive; the arena is 9 * 112 = 1008.
TEST(Svg, StaysReadableAtThreeHundredTensors) {
  PlanResult p;
  for (std::uint32_t i = 0; i < 300; ++i) {
    const std::uint64_t size = 16 * (1 + i % 7);
    p.problem.records.push_back({i / 3, i / 3 + 2, size});
    p.problem.ids.push_back(std::to_string(i));
    p.problem.names.push_back("block_" + std::to_string(i / 3) + "/conv_" +
                              std::to_string(i));
    p.offsets.push_back(112 * (i % 9));
  }
  p.problem.operator_count = 102;
  p.problem.source = "synthetic300";
  p.strategy = "naive";
  p.arena_bytes = 1008;
  p.lower_bound = 600;
  p.naive_bytes = 19200;
  const std::string svg = EmitSvg(p);
  EXPECT_EQ(Count(svg, "<g><title>"), 300u);
  // Each rectangle is 3 columns of 1280/102 px (37.6 px) wide: too narrow
  // for "block_N/conv_M 112 B" (20 chars * 9 px * 0.58 = 104 px) but wide
  // enough for "112 B" at 9 px (5 * 9 * 0.58 + 6 = 32 px), and at 768/1008
  // px per byte even 16-byte tensors are 12.2 px >= 9 + 3 tall: every
  // tensor gets its size as label and no name label.
  const std::string label = "stroke=\"none\" fill=\"#111111\">";
  EXPECT_EQ(Count(svg, label), 300u);
  EXPECT_EQ(Count(svg, label + "block_"), 0u);
  EXPECT_EQ(Count(svg, label + "112 B<"), Count(svg, "112 B at offset"));
  EXPECT_LT(svg.size(), 300u * 1024);  // Small enough for any viewer.
}

}  // namespace
}  // namespace arenaplan
