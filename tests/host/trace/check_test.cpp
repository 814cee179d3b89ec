// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The trace check on hand-built schedules: one per result, each with the
// byte arithmetic in a comment.
#include "codegen/trace/check.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

namespace arenaplan::trace {
namespace {

using Kind = Access::Kind;

/// A schedule of `buffers` given as {offset, size} in region 0, named
/// "buffer I".
Schedule WithBuffers(
    const std::vector<std::pair<std::uint64_t, std::uint64_t>>& buffers) {
  Schedule s;
  for (std::size_t i = 0; i < buffers.size(); ++i) {
    s.buffers.push_back({"buffer " + std::to_string(i), 0, buffers[i].first,
                         buffers[i].second});
  }
  return s;
}

/// The whole of buffer `b` (`size` bytes) as tensor `b`.
Range Whole(const Schedule& s, std::uint32_t b) {
  return {b, 0, s.buffers[b].size, static_cast<std::int32_t>(b)};
}

/// Appends a step reading `reads` and writing `writes` (whole buffers).
Step& AddStep(Schedule& s, const std::vector<std::uint32_t>& reads,
              const std::vector<std::uint32_t>& writes) {
  Step step;
  step.op = s.steps.size();
  step.name = "OP";
  for (std::uint32_t b : reads)
    step.accesses.push_back({Kind::kRead, Whole(s, b)});
  for (std::uint32_t b : writes) {
    step.accesses.push_back({Kind::kWrite, Whole(s, b)});
  }
  s.steps.push_back(step);
  return s.steps.back();
}

TEST(CheckSchedule, AcceptsAChainInDisjointBuffers) {
  // 0 -> 1 -> 2, each 16 bytes at 0, 16, 0: buffer 2 reuses buffer 0's
  // bytes after its last read.
  Schedule s = WithBuffers({{0, 16}, {16, 16}, {0, 16}});
  s.initial.push_back(Whole(s, 0));
  AddStep(s, {0}, {1});
  AddStep(s, {1}, {2});
  s.final.push_back(Whole(s, 2));
  const TraceCheck c = CheckSchedule(s);
  EXPECT_EQ(c.result, TraceResult::kOk) << c.message;
  EXPECT_EQ(c.message, "");
}

TEST(CheckSchedule, RefusesAReadOfAByteNeverWritten) {
  // Step 0 reads buffer 1, which no step and no graph input wrote.
  Schedule s = WithBuffers({{0, 16}, {16, 16}, {32, 16}});
  s.initial.push_back(Whole(s, 0));
  AddStep(s, {0, 1}, {2});
  s.final.push_back(Whole(s, 2));
  const TraceCheck c = CheckSchedule(s);
  EXPECT_EQ(c.result, TraceResult::kReadUnwritten);
  EXPECT_NE(c.message.find("operator 0 (OP) reads tensor 1 bytes [0, 16) of "
                           "buffer 1 (arena bytes [16, 32))"),
            std::string::npos)
      << c.message;
  EXPECT_NE(c.message.find("arena byte 16 holds nothing written"),
            std::string::npos)
      << c.message;
}

TEST(CheckSchedule, RefusesAReadOfAClobberedByte) {
  // Buffer 0 (the input, [0, 16)) is read by steps 0 and 2; step 1 writes
  // buffer 2 at [8, 24), over input bytes 8 .. 15: step 2 finds arena byte
  // 8 holding byte 0 of buffer 2.
  Schedule s = WithBuffers({{0, 16}, {32, 16}, {8, 16}, {48, 16}});
  s.initial.push_back(Whole(s, 0));
  AddStep(s, {0}, {1});
  AddStep(s, {1}, {2});
  AddStep(s, {0, 2}, {3});
  s.final.push_back(Whole(s, 3));
  const TraceCheck c = CheckSchedule(s);
  EXPECT_EQ(c.result, TraceResult::kReadClobbered);
  EXPECT_NE(c.message.find("operator 2 (OP) reads tensor 0"), std::string::npos)
      << c.message;
  EXPECT_NE(c.message.find("arena byte 8 holds byte 0 of buffer 2, not byte 8 "
                           "of buffer 0"),
            std::string::npos)
      << c.message;
}

TEST(CheckSchedule, RefusesAGraphOutputOverwrittenBeforeReturn) {
  // Buffer 1 ([16, 32)) is a graph output; step 1 writes buffer 2 at
  // [24, 40) after it: bytes 24 .. 31 are lost.
  Schedule s = WithBuffers({{0, 16}, {16, 16}, {24, 16}});
  s.initial.push_back(Whole(s, 0));
  AddStep(s, {0}, {1});
  AddStep(s, {0}, {2});
  s.final.push_back(Whole(s, 1));
  s.final.push_back(Whole(s, 2));
  const TraceCheck c = CheckSchedule(s);
  EXPECT_EQ(c.result, TraceResult::kOutputLost);
  EXPECT_NE(c.message.find("graph output tensor 1 bytes [0, 16)"),
            std::string::npos)
      << c.message;
  EXPECT_NE(c.message.find("arena byte 24 holds byte 0 of buffer 2"),
            std::string::npos)
      << c.message;
}

TEST(CheckSchedule, RefusesAnInStepOverlapItsKernelDoesNotState) {
  // Input [0, 16), output [8, 24): they share 8 bytes, and no overlap is
  // stated.
  Schedule s = WithBuffers({{0, 16}, {8, 16}});
  s.initial.push_back(Whole(s, 0));
  AddStep(s, {0}, {1});
  s.final.push_back(Whole(s, 1));
  const TraceCheck c = CheckSchedule(s);
  EXPECT_EQ(c.result, TraceResult::kOverlapWithoutContract);
  EXPECT_NE(c.message.find("its write of tensor 1"), std::string::npos)
      << c.message;
  // Two outputs of one step sharing a byte: the same.
  Schedule w = WithBuffers({{0, 16}, {16, 16}, {31, 16}});
  w.initial.push_back(Whole(w, 0));
  AddStep(w, {0}, {1, 2});
  EXPECT_EQ(CheckSchedule(w).result, TraceResult::kOverlapWithoutContract);
}

/// Input [32, 48) (16 bytes), output of 16 bytes at `out_offset`, with an
/// output-below-input overlap of `distance` stated.
Schedule BelowBy(std::uint64_t out_offset, std::uint64_t distance) {
  Schedule s = WithBuffers({{32, 16}, {out_offset, 16}});
  s.initial.push_back(Whole(s, 0));
  Step& step = AddStep(s, {0}, {1});
  step.overlaps.push_back({1, 0, OverlapRelation::kOutputBelowBy, distance});
  s.final.push_back(Whole(s, 1));
  return s;
}

TEST(CheckSchedule, AcceptsTheStatedDistanceAndRefusesOneByteLess) {
  // d = 5: the output at 27 = 32 - 5 is allowed; at 28 it starts only 4
  // bytes below.
  EXPECT_EQ(CheckSchedule(BelowBy(27, 5)).result, TraceResult::kOk);
  EXPECT_EQ(CheckSchedule(BelowBy(20, 5)).result, TraceResult::kOk);
  const TraceCheck c = CheckSchedule(BelowBy(28, 5));
  EXPECT_EQ(c.result, TraceResult::kOverlapTooClose);
  EXPECT_NE(c.message.find("starting at arena byte 28 where its kernel needs "
                           "28 + 5 <= 32"),
            std::string::npos)
      << c.message;
  // In place (d = 0) at the same bytes, and the output above the input.
  EXPECT_EQ(CheckSchedule(BelowBy(32, 0)).result, TraceResult::kOk);
  EXPECT_EQ(CheckSchedule(BelowBy(33, 0)).result,
            TraceResult::kOverlapTooClose);
  // Disjoint needs no statement at all: 48 is past the input.
  EXPECT_EQ(CheckSchedule(BelowBy(48, 15)).result, TraceResult::kOk);
}

TEST(CheckSchedule, AnAliasMustBeTheSameBytes) {
  for (const std::uint64_t out : {32u, 31u, 33u}) {
    Schedule s = WithBuffers({{32, 16}, {out, 16}});
    s.initial.push_back(Whole(s, 0));
    AddStep(s, {0}, {1}).overlaps.push_back({1, 0, OverlapRelation::kAlias, 0});
    s.final.push_back(Whole(s, 1));
    EXPECT_EQ(CheckSchedule(s).result,
              out == 32 ? TraceResult::kOk : TraceResult::kOverlapTooClose)
        << out;
  }
}

TEST(CheckSchedule, ReadsAnAliasThroughItsHomeAtItsOffset) {
  // Home buffer 0 at [64, 96); two producers write its aliases (tensors 5
  // and 6, bytes [0, 16) and [16, 32)), a consumer reads tensor 7, an alias
  // at bytes [8, 24): arena [72, 88), written by both.
  Schedule s = WithBuffers({{64, 32}, {0, 16}, {16, 16}});
  s.initial.push_back(Whole(s, 1));
  Step a;
  a.op = 0;
  a.name = "A";
  a.accesses = {{Kind::kRead, Whole(s, 1)}, {Kind::kWrite, {0, 0, 16, 5}}};
  Step b = a;
  b.op = 1;
  b.accesses[1].range = {0, 16, 32, 6};
  Step c;
  c.op = 2;
  c.name = "C";
  c.accesses = {{Kind::kRead, {0, 8, 24, 7}}, {Kind::kWrite, Whole(s, 2)}};
  s.steps = {a, b, c};
  s.final.push_back(Whole(s, 2));
  EXPECT_EQ(CheckSchedule(s).result, TraceResult::kOk);
  // Without the second producer, byte 16 of the home (arena 80) was never
  // written.
  s.steps.erase(s.steps.begin() + 1);
  const TraceCheck r = CheckSchedule(s);
  EXPECT_EQ(r.result, TraceResult::kReadUnwritten);
  EXPECT_NE(r.message.find("tensor 7 bytes [8, 24) of buffer 0 (arena bytes "
                           "[72, 88))"),
            std::string::npos)
      << r.message;
  EXPECT_NE(r.message.find("arena byte 80 holds nothing written"),
            std::string::npos)
      << r.message;
}

TEST(CheckSchedule, TellsABufferFromAnotherAtTheSamePlace) {
  // Buffers 1 and 2 both at [16, 32); step 0 writes buffer 1, step 1 reads
  // buffer 2, which nobody wrote: the bytes are there, but they are
  // buffer 1's.
  Schedule s = WithBuffers({{0, 16}, {16, 16}, {16, 16}});
  s.initial.push_back(Whole(s, 0));
  AddStep(s, {0}, {1});
  AddStep(s, {2}, {0});
  const TraceCheck c = CheckSchedule(s);
  EXPECT_EQ(c.result, TraceResult::kReadClobbered);
  EXPECT_NE(c.message.find("holds byte 0 of buffer 1, not byte 0 of buffer 2"),
            std::string::npos)
      << c.message;
}

TEST(CheckSchedule, RingsMayOverlapOnlyAsStated) {
  // A segment reads buffer 0 ([64, 80)), writes two rings: the reader's
  // ring (buffer 2) stated 4 bytes below the source's (buffer 1).
  for (const auto& [source, reader, d, ok] : std::vector<
           std::tuple<std::uint64_t, std::uint64_t, std::int64_t, TraceResult>>{
           {4, 0, 4, TraceResult::kOk},
           {4, 0, 5, TraceResult::kOverlapTooClose},
           {4, 0, -1, TraceResult::kOverlapWithoutContract},
           {16, 0, -1, TraceResult::kOk},  // disjoint rings
       }) {
    Schedule s = WithBuffers({{64, 16}, {source, 16}, {reader, 16}, {96, 16}});
    s.initial.push_back(Whole(s, 0));
    Step& step = AddStep(s, {0}, {3, 1, 2});
    if (d >= 0) {
      step.overlaps.push_back({3, 2, OverlapRelation::kOutputBelowBy,
                               static_cast<std::uint64_t>(d)});
    }
    s.final.push_back(Whole(s, 3));
    EXPECT_EQ(CheckSchedule(s).result, ok) << source << " " << d;
  }
}

TEST(CheckSchedule, KeepsRegionsApart) {
  // The same offsets in two regions share no byte.
  Schedule s = WithBuffers({{0, 16}, {0, 16}});
  s.buffers[1].region = 1;
  s.initial.push_back(Whole(s, 0));
  AddStep(s, {0}, {1});
  s.final.push_back(Whole(s, 0));
  s.final.push_back(Whole(s, 1));
  EXPECT_EQ(CheckSchedule(s).result, TraceResult::kOk);
  s.buffers[1].region = 0;
  EXPECT_EQ(CheckSchedule(s).result, TraceResult::kOverlapWithoutContract);
}

TEST(CheckSchedule, RefusesRangesOutsideTheirBuffers) {
  Schedule s = WithBuffers({{0, 16}, {16, 16}});
  s.initial.push_back({0, 0, 17, 0});  // one byte past buffer 0
  EXPECT_EQ(CheckSchedule(s).result, TraceResult::kMalformed);
  s.initial = {Whole(s, 0)};
  AddStep(s, {0}, {1}).accesses[1].range.buffer = 2;  // no buffer 2
  EXPECT_EQ(CheckSchedule(s).result, TraceResult::kMalformed);
  s.steps.clear();
  AddStep(s, {0}, {1})
      .overlaps.push_back(
          {0, 1, OverlapRelation::kOutputBelowBy, 0});  // `below` is a read
  EXPECT_EQ(CheckSchedule(s).result, TraceResult::kMalformed);
  EXPECT_STREQ(TraceResultName(TraceResult::kMalformed), "malformed");
}

}  // namespace
}  // namespace arenaplan::trace
