// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The trace check on compiled models (codegen/compile/trace_schedule.hpp,
// codegen/trace/check.hpp): the schedule CompileModel checked, mutated the
// way a planner or an overlap bug would place it (one buffer one byte off
// toward a live neighbour, one stated distance one byte longer than the
// placement gives), must be refused. The mutated buffer and pair are chosen
// by a rule over the schedule, not by index.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "codegen/base/errors.hpp"
#include "codegen/compile/generate.hpp"
#include "codegen/tflite/model.hpp"
#include "codegen/trace/check.hpp"
#include "tests/host/support/model_builder.hpp"
#include "tests/host/support/test_util.hpp"

namespace arenaplan {
namespace {

using compile::CompiledModel;
using compile::CompileModel;
using compile::CompileOptions;
using trace::Access;
using trace::CheckSchedule;
using trace::Schedule;
using trace::TraceResult;

enum class Mode { kDefault, kOverlap, kFuse };

CompileOptions Options(Mode mode) {
  CompileOptions o;
  o.namespace_name = "m";
  o.input_sha256 = std::string(64, '0');  // Nothing to hash for built models.
  o.input.overlap = o.plan.overlap = mode != Mode::kDefault;
  o.fuse = mode == Mode::kFuse;
  return o;
}

CompiledModel CompileFile(const std::string& path, Mode mode) {
  return CompileModel(tflite::ReadModelFile(path), path, Options(mode));
}

/// Per buffer of `s`: the first step writing it (-1: a graph input), the
/// last step reading it (steps.size(): a graph output), and whether some
/// write covers its last byte (its tensor fills the planned size).
struct Use {
  std::int64_t first_write = INT64_MAX;
  std::int64_t last_read = -1;
  bool full = false;
  bool reads_byte_0 = false;
  bool writes_byte_0 = false;
};

std::vector<Use> Uses(const Schedule& s) {
  std::vector<Use> u(s.buffers.size());
  auto wrote = [&](const trace::Range& r, std::int64_t step) {
    u[r.buffer].first_write = std::min(u[r.buffer].first_write, step);
    u[r.buffer].full = u[r.buffer].full || r.end == s.buffers[r.buffer].size;
    u[r.buffer].writes_byte_0 = u[r.buffer].writes_byte_0 || r.begin == 0;
  };
  auto read = [&](const trace::Range& r, std::int64_t step) {
    u[r.buffer].last_read = std::max(u[r.buffer].last_read, step);
    u[r.buffer].reads_byte_0 = u[r.buffer].reads_byte_0 || r.begin == 0;
  };
  for (const trace::Range& r : s.initial) wrote(r, -1);
  for (std::size_t k = 0; k < s.steps.size(); ++k) {
    for (const Access& a : s.steps[k].accesses) {
      if (a.kind == Access::Kind::kWrite) {
        wrote(a.range, static_cast<std::int64_t>(k));
      } else {
        read(a.range, static_cast<std::int64_t>(k));
      }
    }
  }
  for (const trace::Range& r : s.final) {
    read(r, static_cast<std::int64_t>(s.steps.size()));
  }
  return u;
}

/// Whether step `k` of `s` states an overlap between buffers b and c.
bool StatesOverlap(const Schedule& s, std::int64_t k, std::size_t b,
                   std::size_t c) {
  const trace::Step& step = s.steps[static_cast<std::size_t>(k)];
  for (const trace::StatedOverlap& o : step.overlaps) {
    const std::size_t x = step.accesses[o.below].range.buffer;
    const std::size_t y = step.accesses[o.above].range.buffer;
    if ((x == b && y == c) || (x == c && y == b)) return true;
  }
  return false;
}

/// Whether buffer c (right above b) is live with b where b's last byte
/// lands on c's byte 0 after b moves up one byte: both hold a value across
/// a step boundary (max of first writes < min of last reads, c's byte 0
/// read); or c is first written by the step that last reads b (an output
/// right above its input: the kernels' contracts allow an output only
/// below its input); or one step writes both (c from its byte 0) and
/// states no overlap between them.
bool LiveAbove(const Schedule& s, const std::vector<Use>& u, std::size_t b,
               std::size_t c) {
  const std::int64_t lo = std::max(u[b].first_write, u[c].first_write);
  const std::int64_t hi = std::min(u[b].last_read, u[c].last_read);
  if (lo < hi && u[c].reads_byte_0) return true;
  if (u[c].reads_byte_0 && u[c].first_write >= 0 &&
      u[c].first_write == u[b].last_read &&
      u[b].first_write < u[c].first_write) {
    return true;
  }
  return u[c].writes_byte_0 && u[b].first_write >= 0 &&
         u[b].first_write == u[c].first_write &&
         !StatesOverlap(s, u[b].first_write, b, c);
}

/// The rule: the first buffer b (in plan order) whose tensor fills its
/// planned bytes and whose upper neighbour c (starting right at b's end,
/// same region) is LiveAbove it.
std::optional<std::size_t> BufferToMove(const Schedule& s) {
  const std::vector<Use> u = Uses(s);
  for (std::size_t b = 0; b < s.buffers.size(); ++b) {
    if (!u[b].full) continue;
    for (std::size_t c = 0; c < s.buffers.size(); ++c) {
      if (c != b && s.buffers[c].region == s.buffers[b].region &&
          s.buffers[c].offset == s.buffers[b].offset + s.buffers[b].size &&
          LiveAbove(s, u, b, c)) {
        return b;
      }
    }
  }
  return std::nullopt;
}

/// A stated overlap the placement uses (its two ranges share bytes).
struct UsedPair {
  std::size_t step = 0, overlap = 0;
  std::uint64_t gap = 0;  ///< Arena bytes from `below`'s start to `above`'s.
};

/// The rule: the first stated kOutputBelowBy overlap (in execution order)
/// whose two ranges share bytes, preferring one placed at exactly its
/// distance (gap == distance).
std::optional<UsedPair> PairToStretch(const Schedule& s) {
  std::optional<UsedPair> first;
  for (std::size_t k = 0; k < s.steps.size(); ++k) {
    const trace::Step& step = s.steps[k];
    for (std::size_t i = 0; i < step.overlaps.size(); ++i) {
      const trace::StatedOverlap& o = step.overlaps[i];
      if (o.relation != OverlapRelation::kOutputBelowBy) continue;
      const trace::Range& b = step.accesses[o.below].range;
      const trace::Range& a = step.accesses[o.above].range;
      const std::uint64_t bb = s.buffers[b.buffer].offset + b.begin;
      const std::uint64_t ab = s.buffers[a.buffer].offset + a.begin;
      const std::uint64_t be = s.buffers[b.buffer].offset + b.end;
      const std::uint64_t ae = s.buffers[a.buffer].offset + a.end;
      if (!(bb < ae && ab < be) || bb > ab) continue;
      const UsedPair p{k, i, ab - bb};
      if (p.gap == o.distance) return p;
      if (!first) first = p;
    }
  }
  return first;
}

/// The schedule of `out` (which passed) with the buffer BufferToMove picks
/// one byte up must be refused.
void ExpectMovedBufferRefused(const CompiledModel& out) {
  ASSERT_EQ(CheckSchedule(out.schedule).result, TraceResult::kOk);
  const std::optional<std::size_t> b = BufferToMove(out.schedule);
  ASSERT_TRUE(b.has_value()) << "no buffer with a live neighbour above it";
  Schedule moved = out.schedule;
  moved.buffers[*b].offset += 1;
  const trace::TraceCheck c = CheckSchedule(moved);
  EXPECT_NE(c.result, TraceResult::kOk) << moved.buffers[*b].name;
  EXPECT_NE(c.message.find("operator"), std::string::npos) << c.message;
}

/// The schedule of `out` with the pair PairToStretch picks (one placed at
/// exactly its distance when `expect_tight_pair`) stated one byte longer
/// than its placement must be refused.
void ExpectStretchedPairRefused(const CompiledModel& out,
                                bool expect_tight_pair) {
  const std::optional<UsedPair> p = PairToStretch(out.schedule);
  ASSERT_TRUE(p.has_value()) << "no stated overlap the placement uses";
  Schedule stretched = out.schedule;
  trace::StatedOverlap& o = stretched.steps[p->step].overlaps[p->overlap];
  if (expect_tight_pair) {
    EXPECT_EQ(p->gap, o.distance);
  }
  o.distance = p->gap + 1;
  const trace::TraceCheck d = CheckSchedule(stretched);
  EXPECT_EQ(d.result, TraceResult::kOverlapTooClose) << d.message;
}

void ExpectMutantsRefused(const CompiledModel& out, bool expect_tight_pair) {
  ExpectMovedBufferRefused(out);
  ExpectStretchedPairRefused(out, expect_tight_pair);
}

TEST(TraceSchedule, RefusesMutantsOfPersonDetectWithOverlap) {
  ExpectMutantsRefused(
      CompileFile(testing_util::kModels + "person_detect.tflite",
                  Mode::kOverlap),
      true);
}

TEST(TraceSchedule, RefusesMutantsOfVww96WithOverlap) {
  ExpectMutantsRefused(
      CompileFile(testing_util::kModels + "vww_96_int8.tflite", Mode::kOverlap),
      true);
}

TEST(TraceSchedule, RefusesMutantsOfPersonDetectFused) {
  // No single operator's pair is placed at exactly its distance here.
  ExpectMutantsRefused(
      CompileFile(testing_util::kModels + "person_detect.tflite", Mode::kFuse),
      false);
}

/// x [1, 8, 8, 4] -> CONV_2D 3x3 SAME -> A [1, 8, 8, 8] -> CONV_2D 3x3 SAME
/// -> y [1, 8, 8, 4]: a segment of two operators under --fuse. Its output
/// row j (32 bytes) is written once the first convolution's next row
/// j + 2 needs input rows from j + 1 on: y may start 0 bytes below x
/// ((j + 1) * 32 - (j + 1) * 32), and not one byte less.
tflite::Model TwoConvModel() {
  testing_util::ModelBuilder b("two_conv.tflite");
  tflite::Conv2DOptions conv;
  conv.padding = tflite::Padding::kSame;
  conv.stride_h = conv.stride_w = 1;
  const std::int32_t x = b.Tensor({1, 8, 8, 4});
  const std::int32_t w1 =
      b.Constant({8, 3, 3, 4}, tflite::TensorType::kInt8,
                 std::vector<std::uint8_t>(8 * 3 * 3 * 4, 1));
  const std::int32_t a = b.Tensor({1, 8, 8, 8});
  b.Op(tflite::BuiltinOp::kConv2D, {x, w1}, {a}, conv);
  const std::int32_t w2 =
      b.Constant({4, 3, 3, 8}, tflite::TensorType::kInt8,
                 std::vector<std::uint8_t>(4 * 3 * 3 * 8, 1));
  const std::int32_t y = b.Tensor({1, 8, 8, 4});
  b.Op(tflite::BuiltinOp::kConv2D, {a, w2}, {y}, conv);
  return b.Finish({x}, {y});
}

TEST(TraceSchedule, RefusesAFusedOutputMovedOverInputRowsStillToBeRead) {
  // The rule: the first segment whose output buffer starts where a buffer
  // its row calls read starts (placed at distance 0 below its input). One
  // byte up, output row j covers byte 0 of input row j + 1, still to be
  // read: refused by the row replay alone (no distance from codegen/fuse/
  // is stated).
  const CompiledModel out =
      CompileModel(TwoConvModel(), "two_conv.tflite", Options(Mode::kFuse));
  ASSERT_EQ(CheckSchedule(out.schedule).result, TraceResult::kOk);
  // Per segment (from its rings' step to the next one): the buffers its
  // row calls write and read.
  std::optional<std::uint32_t> moved;
  std::vector<std::uint32_t> written, read;
  const auto& buffers = out.schedule.buffers;
  auto pick = [&] {
    for (std::uint32_t w : written) {
      for (std::uint32_t r : read) {
        if (!moved && w != r && buffers[w].region == buffers[r].region &&
            buffers[w].offset == buffers[r].offset) {
          moved = w;
        }
      }
    }
    written.clear();
    read.clear();
  };
  for (const trace::Step& step : out.schedule.steps) {
    if (step.name.find("before its first row") != std::string::npos) pick();
    if (step.name.find(", fused, output row") == std::string::npos) continue;
    for (const Access& x : step.accesses) {
      (x.kind == Access::Kind::kWrite ? written : read)
          .push_back(x.range.buffer);
    }
  }
  pick();
  ASSERT_TRUE(moved.has_value()) << "no fused output placed on its input";
  Schedule s = out.schedule;
  s.buffers[*moved].offset += 1;
  const trace::TraceCheck c = CheckSchedule(s);
  EXPECT_EQ(c.result, TraceResult::kReadClobbered) << c.message;
  EXPECT_NE(c.message.find("fused, output row"), std::string::npos)
      << c.message;
}

TEST(TraceSchedule, ChecksRegionPlansPerRegion) {
  // person_detect across a 32 KiB and a 1 MiB region: buffers in both, the
  // check passes, and a buffer one byte off toward a live neighbour in its
  // region is refused. The same schedule with every buffer in region 0
  // (offsets kept) is refused: regions overlap in offsets, not in bytes.
  const std::string path = testing_util::kModels + "person_detect.tflite";
  CompileOptions o = Options(Mode::kOverlap);
  o.regions = {{"dtcm", 32768, ".dtcm"}, {"ram", 1048576, ".ram"}};
  const CompiledModel out = CompileModel(tflite::ReadModelFile(path), path, o);
  bool both = false;
  for (const trace::Buffer& b : out.schedule.buffers) both |= b.region == 1;
  EXPECT_TRUE(both);
  ExpectMovedBufferRefused(out);
  Schedule one = out.schedule;
  for (trace::Buffer& b : one.buffers) b.region = 0;
  EXPECT_NE(CheckSchedule(one).result, TraceResult::kOk);
}

/// CONV_2D x -> A (1x1, 4x4x2 -> 4x4x3), then RESHAPE(A) -> R (folded:
/// an alias of A) and LEAKY_RELU(A) -> L, the last operator. Graph outputs
/// R and L, or L alone when not `alias_output` (then no RESHAPE).
tflite::Model AliasedOutputModel(bool alias_output) {
  testing_util::ModelBuilder b("aliased.tflite");
  const std::int32_t x = b.Tensor({1, 4, 4, 2});
  const std::int32_t w = b.Constant({3, 1, 1, 2}, tflite::TensorType::kInt8,
                                    std::vector<std::uint8_t>(6, 1));
  const std::int32_t a = b.Tensor({1, 4, 4, 3});
  tflite::Conv2DOptions conv;
  conv.padding = tflite::Padding::kSame;
  conv.stride_h = conv.stride_w = 1;
  b.Op(tflite::BuiltinOp::kConv2D, {x, w}, {a}, conv);
  std::vector<std::int32_t> outputs;
  if (alias_output) {
    const std::int32_t shape = b.Int32Constant({1, 48});
    const std::int32_t r = b.Tensor({1, 48});
    b.Op(tflite::BuiltinOp::kReshape, {a, shape}, {r},
         tflite::ReshapeOptions{{1, 48}});
    outputs.push_back(r);
  }
  const std::int32_t l = b.Tensor({1, 4, 4, 3});
  b.Op(tflite::BuiltinOp::kLeakyRelu, {a}, {l},
       tflite::LeakyReluOptions{0.25f});
  outputs.push_back(l);
  return b.Finish({x}, outputs);
}

/// The schedule of the aliased-output model compiled without overlaps
/// (A and L disjoint), with L's buffer forced onto A's bytes: in place, as
/// LEAKY_RELU's contract (d = 0) allows for the step itself.
Schedule LeakyReluInPlace(bool alias_output) {
  const CompiledModel out =
      CompileModel(AliasedOutputModel(alias_output), "aliased.tflite",
                   Options(Mode::kDefault));
  EXPECT_EQ(CheckSchedule(out.schedule).result, TraceResult::kOk);
  Schedule s = out.schedule;
  for (const trace::Step& step : s.steps) {
    if (step.name != "LEAKY_RELU") continue;
    EXPECT_EQ(step.overlaps.size(), 1u);
    std::uint32_t read = 0, write = 0;
    for (const Access& a : step.accesses) {
      (a.kind == Access::Kind::kRead ? read : write) = a.range.buffer;
    }
    s.buffers[write].offset = s.buffers[read].offset;
  }
  return s;
}

TEST(TraceSchedule, RefusesAnOutputWrittenOverAnAliasedGraphOutput) {
  // R lives in A's bytes: L written there at the last operator loses R
  // (graph output tensor 4, the RESHAPE's output) before Invoke() returns.
  const trace::TraceCheck c = CheckSchedule(LeakyReluInPlace(true));
  EXPECT_EQ(c.result, TraceResult::kOutputLost);
  EXPECT_NE(c.message.find("graph output tensor 4 bytes [0, 48)"),
            std::string::npos)
      << c.message;
  // Without the aliased output, A dies at LEAKY_RELU: in place is sound.
  EXPECT_EQ(CheckSchedule(LeakyReluInPlace(false)).result, TraceResult::kOk);
}

TEST(TraceSchedule, RefusesAMovedBufferOfTheAliasedOutputModel) {
  ExpectMovedBufferRefused(CompileModel(
      AliasedOutputModel(true), "aliased.tflite", Options(Mode::kDefault)));
}

TEST(TraceSchedule, NeverReturnsTheAliasedOutputModelWithItsOutputLost) {
  // With --overlap the planner may put L over A only if the allowed-overlap
  // list forgets R; then the compile must stop at the trace check.
  for (const Mode mode : {Mode::kOverlap, Mode::kFuse}) {
    try {
      const CompiledModel out = CompileModel(AliasedOutputModel(true),
                                             "aliased.tflite", Options(mode));
      EXPECT_EQ(CheckSchedule(out.schedule).result, TraceResult::kOk);
    } catch (const InternalError& e) {
      EXPECT_NE(std::string(e.what()).find("trace check failed (output_lost)"),
                std::string::npos)
          << e.what();
    }
  }
}

}  // namespace
}  // namespace arenaplan
