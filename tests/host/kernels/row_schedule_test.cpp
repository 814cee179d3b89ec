// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The row schedule of a fused segment (kernels/row_schedule.hpp): every row
// of every operator computed once and in order, every window's rows held
// when read, and the ring depths against figures derived by hand in
// docs/fuse.md (a consumer with window k needs min(k, H) rows whatever its
// stride; the skip input of a conv-conv-ADD block needs 3 rows), and its
// order of calls against a recursive transcription of the demand order
// the header states; and the replay of its recorded steps (BasicRowReplay)
// against the same transcription and the schedule's own state.
#include "arenaplan/kernels/row_schedule.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace arenaplan::kernels {
namespace {

/// Records what the schedule does and checks its promises as it runs.
struct CheckingSink {
  const RowSchedule* s = nullptr;
  const std::vector<RowOp>* ops = nullptr;
  std::vector<std::vector<std::int32_t>> rows;  // Rows written, per op.
  std::vector<std::int32_t> max_held;
  std::vector<std::int32_t> accumulated;
  bool ok = true;

  void Drop(std::int32_t i, std::int32_t new_lo) {
    if (new_lo <= s->HeldLo(i) || new_lo > s->Next(i)) ok = false;
  }
  /// Every intermediate input holds the rows of op i's window for row j.
  void CheckWindow(std::int32_t i, std::int32_t first, std::int32_t end) {
    const RowOp& o = (*ops)[static_cast<std::size_t>(i)];
    for (std::int32_t q = 0; q < o.input_count; ++q) {
      const std::int32_t p = o.input[q];
      if (p < 0 || end <= first) continue;
      if (s->HeldLo(p) > first || s->Next(p) < end) ok = false;
    }
  }
  void Written(std::int32_t i, std::int32_t j) {
    auto& r = rows[static_cast<std::size_t>(i)];
    if (!r.empty() && r.back() != j - 1) ok = false;
    if (r.empty() && j != 0) ok = false;
    r.push_back(j);
    const std::int32_t held = j + 1 - s->HeldLo(i);
    max_held[static_cast<std::size_t>(i)] =
        std::max(max_held[static_cast<std::size_t>(i)], held);
  }
  void Compute(std::int32_t i, std::int32_t j) {
    CheckWindow(i, s->WindowFirst(i, j), s->WindowEnd(i, j));
    Written(i, j);
  }
  void Accumulate(std::int32_t i, std::int32_t y) {
    CheckWindow(i, y, y + 1);
    if (y != accumulated[static_cast<std::size_t>(i)]++) ok = false;
  }
  void Finish(std::int32_t i) { Written(i, 0); }
};

CheckingSink RunSchedule(const std::vector<RowOp>& ops) {
  EXPECT_TRUE(WellFormed(ops.data(), static_cast<std::int32_t>(ops.size())));
  RowSchedule s(ops.data(), static_cast<std::int32_t>(ops.size()));
  CheckingSink sink;
  sink.s = &s;
  sink.ops = &ops;
  sink.rows.resize(ops.size());
  sink.max_held.assign(ops.size(), 0);
  sink.accumulated.assign(ops.size(), 0);
  s.Run(sink);
  EXPECT_TRUE(sink.ok);
  return sink;
}

/// A window operator reading `input` (-1: segment input 0).
RowOp Window(std::int32_t in_h, std::int32_t k, std::int32_t stride,
             std::int32_t pad, std::int32_t input) {
  RowOp o;
  o.in_h = in_h;
  o.window = k;
  o.stride = stride;
  o.pad = pad;
  // SAME-like output extent: every row whose window starts inside.
  o.out_h = (in_h + 2 * pad - k) / stride + 1;
  o.input[0] = input;
  return o;
}

TEST(RowSchedule, RingOfAWindowConsumerIsItsWindowHeight) {
  // Producer: 1x1 over 12 rows; consumer: k x k, stride s, pad (k - 1) / 2.
  for (std::int32_t k = 1; k <= 5; ++k) {
    for (std::int32_t stride = 1; stride <= 2; ++stride) {
      std::vector<RowOp> ops = {Window(12, 1, 1, 0, -1),
                                Window(12, k, stride, (k - 1) / 2, 0)};
      const CheckingSink sink = RunSchedule(ops);
      EXPECT_EQ(sink.max_held[0], k) << "k " << k << " stride " << stride;
    }
  }
}

TEST(RowSchedule, ComputesEveryNeededRowOnceInOrder) {
  // 3x3 s2 -> 3x3 s1 -> 1x1 -> 3x3 s2 (person_detect's first four).
  std::vector<RowOp> ops = {Window(96, 3, 2, 0, -1), Window(48, 3, 1, 1, 0),
                            Window(48, 1, 1, 0, 1), Window(48, 3, 2, 0, 2)};
  ops[0].pad = 0;  // VALID-like top: rows [2j, 2j + 3).
  ops[0].out_h = 48;
  ops[3].out_h = 24;
  const CheckingSink sink = RunSchedule(ops);
  EXPECT_EQ(sink.rows[3].size(), 24u);
  EXPECT_EQ(sink.rows[2].size(), 48u);  // Row 47 is read by output row 23.
  EXPECT_EQ(sink.max_held[0], 3);
  EXPECT_EQ(sink.max_held[1], 1);
  EXPECT_EQ(sink.max_held[2], 3);
}

TEST(RowSchedule, SkipOfAResidualBlockNeedsThreeRows) {
  // T0 = conv(X); T1 = conv3x3(T0); T2 = conv3x3(T1); Y = ADD(T0, T2).
  // Writing T0 row j + 2: conv 1 computes row j + 1 (reads j .. j + 2) and
  // ADD waits at row j (reads j): rows j .. j + 2 held, 3 (docs/fuse.md).
  std::vector<RowOp> ops = {Window(16, 3, 1, 1, -1), Window(16, 3, 1, 1, 0),
                            Window(16, 3, 1, 1, 1), Window(16, 1, 1, 0, 0)};
  ops[3].input_count = 2;
  ops[3].input[1] = 2;
  const CheckingSink sink = RunSchedule(ops);
  EXPECT_EQ(sink.max_held[0], 3);
  EXPECT_EQ(sink.max_held[1], 3);
  EXPECT_EQ(sink.max_held[2], 1);
  EXPECT_EQ(sink.rows[3].size(), 16u);
}

TEST(RowSchedule, AccumulatingPoolReadsEveryRowOnce) {
  std::vector<RowOp> ops = {Window(25, 3, 1, 1, -1), Window(25, 25, 1, 0, 0)};
  ops[1].out_h = 1;
  ops[1].accumulate = true;
  const CheckingSink sink = RunSchedule(ops);
  EXPECT_EQ(sink.accumulated[1], 25);
  EXPECT_EQ(sink.max_held[0], 1);
  EXPECT_EQ(sink.rows[1].size(), 1u);
}

/// The header's order written as recursion, independently of the
/// schedule: demand (i, j) makes each input (in input order) hold its
/// window's rows by demanding its producer's next rows, drops what no
/// consumer reads any more, then writes row j. Logs every call as text.
class RecursiveOrder {
 public:
  explicit RecursiveOrder(const std::vector<RowOp>& ops)
      : ops_(ops),
        next_(ops.size(), 0),
        held_(ops.size(), 0),
        acc_(ops.size(), 0) {}

  std::vector<std::string> Run() {
    const auto last = static_cast<std::int32_t>(ops_.size()) - 1;
    for (std::int32_t j = 0; j < Op(last).out_h; ++j) Demand(last);
    return log_;
  }

 private:
  const RowOp& Op(std::int32_t i) const {
    return ops_[static_cast<std::size_t>(i)];
  }
  std::int32_t Clip(std::int32_t i, std::int32_t v) const {
    return std::clamp(v, 0, Op(i).in_h);
  }
  /// The first input row consumer c reads from now on.
  std::int32_t Earliest(std::int32_t c) const {
    const std::size_t u = static_cast<std::size_t>(c);
    if (Op(c).accumulate) return acc_[u];
    if (next_[u] >= Op(c).out_h) return Op(c).in_h;
    return Clip(c, Op(c).stride * next_[u] - Op(c).pad);
  }
  void Drop(std::int32_t i) {
    const std::size_t u = static_cast<std::size_t>(i);
    if (u + 1 == ops_.size()) return;
    std::int32_t lo = next_[u];
    for (std::size_t c = u + 1; c < ops_.size(); ++c) {
      for (std::int32_t q = 0; q < ops_[c].input_count; ++q) {
        if (ops_[c].input[q] == i) {
          lo = std::min(lo, Earliest(static_cast<std::int32_t>(c)));
        }
      }
    }
    if (lo <= held_[u]) return;
    log_.push_back("drop " + std::to_string(i) + " " + std::to_string(lo));
    held_[u] = lo;
  }
  void Ensure(std::int32_t p, std::int32_t end) {
    if (p < 0) return;
    while (next_[static_cast<std::size_t>(p)] < end) Demand(p);
  }
  void Demand(std::int32_t i) {
    const RowOp& o = Op(i);
    const std::size_t u = static_cast<std::size_t>(i);
    if (o.accumulate) {
      for (std::int32_t y = 0; y < Clip(i, o.window - o.pad); ++y) {
        Ensure(o.input[0], y + 1);
        log_.push_back("acc " + std::to_string(i) + " " + std::to_string(y));
        acc_[u] = y + 1;
      }
      acc_[u] = o.in_h;
      Drop(i);
      log_.push_back("finish " + std::to_string(i));
      next_[u] = 1;
      return;
    }
    const std::int32_t j = next_[u];
    for (std::int32_t q = 0; q < o.input_count; ++q) {
      Ensure(o.input[q], Clip(i, o.stride * j - o.pad + o.window));
    }
    Drop(i);
    log_.push_back("row " + std::to_string(i) + " " + std::to_string(j));
    next_[u] = j + 1;
  }

  const std::vector<RowOp>& ops_;
  std::vector<std::int32_t> next_, held_, acc_;
  std::vector<std::string> log_;
};

/// Logs the schedule's calls in RecursiveOrder's words.
struct LoggingSink {
  std::vector<std::string> log;
  void Drop(std::int32_t i, std::int32_t lo) {
    log.push_back("drop " + std::to_string(i) + " " + std::to_string(lo));
  }
  void Compute(std::int32_t i, std::int32_t j) {
    log.push_back("row " + std::to_string(i) + " " + std::to_string(j));
  }
  void Accumulate(std::int32_t i, std::int32_t y) {
    log.push_back("acc " + std::to_string(i) + " " + std::to_string(y));
  }
  void Finish(std::int32_t i) { log.push_back("finish " + std::to_string(i)); }
};

/// A random well-formed segment: window operators on the previous one,
/// an ADD of two earlier outputs of equal rows now and then, and an
/// accumulating pool last in some.
std::vector<RowOp> RandomSegment(std::mt19937& rng) {
  auto uniform = [&rng](std::int32_t lo, std::int32_t hi) {
    return std::uniform_int_distribution<std::int32_t>(lo, hi)(rng);
  };
  std::vector<RowOp> ops;
  std::int32_t h = uniform(1, 24);
  const std::int32_t n = uniform(1, 12);
  for (std::int32_t i = 0; i < n; ++i) {
    const std::int32_t in = i - 1;  // -1: the segment's input.
    const std::int32_t k = uniform(1, 5), stride = uniform(1, 2);
    RowOp o = Window(h, k, stride, uniform(0, k - 1), in);
    if (o.out_h < 1) o = Window(h, 1, 1, 0, in);
    // An ADD of the last output and an earlier one with as many rows.
    for (std::int32_t e = i - 2; i > 1 && e >= 0; --e) {
      if (ops[static_cast<std::size_t>(e)].out_h == h && uniform(0, 2) == 0) {
        o = Window(h, 1, 1, 0, in);
        o.input_count = 2;
        o.input[1] = e;
        break;
      }
    }
    ops.push_back(o);
    h = o.out_h;
  }
  if (uniform(0, 2) == 0) {
    RowOp pool = Window(h, h, 1, 0, n - 1);
    pool.out_h = 1;
    pool.accumulate = true;
    ops.push_back(pool);
  }
  return ops;
}

TEST(RowSchedule, CallsTheSinkInTheRecursiveDemandOrder) {
  std::mt19937 rng(36);
  for (int round = 0; round < 500; ++round) {
    const std::vector<RowOp> ops = RandomSegment(rng);
    const auto n = static_cast<std::int32_t>(ops.size());
    ASSERT_TRUE(WellFormed(ops.data(), n)) << "round " << round;
    const std::vector<std::string> want = RecursiveOrder(ops).Run();
    LoggingSink sink;
    RowSchedule(ops.data(), n).Run(sink);
    ASSERT_EQ(sink.log, want) << "round " << round;
    // State sized to a 12-operator bound: the same calls.
    if (n <= 12) {
      LoggingSink small;
      BasicRowSchedule<RowOp, 12>(ops.data(), n).Run(small);
      ASSERT_EQ(small.log, want) << "round " << round;
    }
  }
}

/// Logs each call with the state a sink reads at it (HeldLo and Next of
/// every operator, and a computed row's window).
template <class Schedule>
struct StateSink {
  const Schedule* s = nullptr;
  std::int32_t n = 0;
  std::vector<std::string> log;
  void State(std::string line) {
    for (std::int32_t i = 0; i < n; ++i) {
      line +=
          " " + std::to_string(s->HeldLo(i)) + ":" + std::to_string(s->Next(i));
    }
    log.push_back(line);
  }
  void Drop(std::int32_t i, std::int32_t lo) {
    State("drop " + std::to_string(i) + " " + std::to_string(lo));
  }
  void Compute(std::int32_t i, std::int32_t j) {
    State("row " + std::to_string(i) + " " + std::to_string(j) + " [" +
          std::to_string(s->WindowFirst(i, j)) + ", " +
          std::to_string(s->WindowEnd(i, j)) + ")");
  }
  void Accumulate(std::int32_t i, std::int32_t y) {
    State("acc " + std::to_string(i) + " " + std::to_string(y));
  }
  void Finish(std::int32_t i) { State("finish " + std::to_string(i)); }
};

TEST(RowReplay, ReplaysTheRecordedStepsWithTheScheduleState) {
  std::mt19937 rng(3636);
  for (int round = 0; round < 500; ++round) {
    const std::vector<RowOp> ops = RandomSegment(rng);
    const auto n = static_cast<std::int32_t>(ops.size());
    RowStepRecorder counter(nullptr, 0);
    RowSchedule(ops.data(), n).Run(counter);
    std::vector<RowStep> steps(static_cast<std::size_t>(counter.count()));
    RowStepRecorder recorder(steps.data(), counter.count());
    RowSchedule(ops.data(), n).Run(recorder);
    ASSERT_EQ(recorder.count(), counter.count());
    // The replay's calls in the recursive transcription's words.
    LoggingSink words;
    BasicRowReplay<RowOp>(ops.data(), n, steps.data(), recorder.count())
        .Run(words);
    ASSERT_EQ(words.log, RecursiveOrder(ops).Run()) << "round " << round;
    // And the state a sink reads, call by call, as the schedule's.
    RowSchedule schedule(ops.data(), n);
    StateSink<RowSchedule> want{&schedule, n, {}};
    schedule.Run(want);
    BasicRowReplay<RowOp> replay(ops.data(), n, steps.data(), recorder.count());
    StateSink<BasicRowReplay<RowOp>> got{&replay, n, {}};
    replay.Run(got);
    ASSERT_EQ(got.log, want.log) << "round " << round;
  }
}

TEST(RowSchedule, RefusesMalformedSegments) {
  std::vector<RowOp> ops = {Window(8, 3, 1, 1, -1), Window(8, 3, 1, 1, -1)};
  // Operator 0's output is read by nobody.
  EXPECT_FALSE(WellFormed(ops.data(), 2));
  ops[1].input[0] = 1;  // Reads itself.
  EXPECT_FALSE(WellFormed(ops.data(), 2));
  ops[1].input[0] = 0;
  ops[1].in_h = 9;  // Rows disagree with the producer's.
  EXPECT_FALSE(WellFormed(ops.data(), 2));
  EXPECT_FALSE(WellFormed(ops.data(), 0));
  // Rows are counted in 16 bits: 32,767 at most.
  std::vector<RowOp> tall = {Window(32767, 1, 1, 0, -1),
                             Window(32767, 3, 1, 1, 0)};
  EXPECT_TRUE(WellFormed(tall.data(), 2));
  tall = {Window(32768, 1, 1, 0, -1), Window(32768, 3, 1, 1, 0)};
  EXPECT_FALSE(WellFormed(tall.data(), 2));
}

}  // namespace
}  // namespace arenaplan::kernels
