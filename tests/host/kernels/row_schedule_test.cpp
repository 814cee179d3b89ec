// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The row schedule of a fused segment (kernels/row_schedule.hpp): every row
// of every operator computed once and in order, every window's rows held
// when read, and the ring depths against figures derived by hand in
// docs/fuse.md (a consumer with window k needs min(k, H) rows whatever its
// stride; the skip input of a conv-conv-ADD block needs 3 rows).
#include "arenaplan/kernels/row_schedule.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
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
}

}  // namespace
}  // namespace arenaplan::kernels
