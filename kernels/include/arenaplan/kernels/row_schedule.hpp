// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The row schedule of a fused segment (docs/fuse.md): a chain (or a small
// graph with skips) of row-wise operators run together, one output row at a
// time, so that every tensor made and consumed inside the segment exists
// only as a ring of the rows its consumers still need. One definition,
// shared by the planner (codegen/fuse/, which sizes the rings and the
// segment's output-over-input distance by running this schedule with a
// counting sink) and the firmware (which runs the same schedule with a sink
// that calls the kernels), so the rings planned are the rings used.
//
// Rows. Every tensor of a segment is NHWC with batch 1; a row is the W x C
// bytes of one H index. Output row j of operator i reads, of each of its
// inputs, the rows [stride * j - pad, stride * j - pad + window) clipped to
// [0, in_h) (both ends: the first included, the second excluded).
// Element-wise operators have window 1, stride 1, pad 0. An accumulating
// operator (a pool whose single output row covers every input row) reads
// its input one row per Accumulate call and writes its row at Finish.
//
// Order (demand driven, deterministic): for j = 0 .. out_h - 1 of the last
// operator, demand (last, j); demanding (i, j) first makes every
// intermediate input hold the rows up to its window's end by demanding its
// producer's next rows in order (inputs in input order), then writes row j.
// So every row of every operator is computed at most once, in increasing
// order, and only when a consumer needs it or a row after it. The demands
// in progress form a chain of operators of decreasing index (a producer
// comes before its consumers), kept in an explicit array rather than by
// recursion: every row is computed from the one loop, so at most one sink
// call (one kernel's frames) is on the stack at a time.
//
// Rings. Operator i's output (not the last operator's) lives in a linear
// buffer holding the rows [held_lo, next) in slots 0 .. next - held_lo - 1.
// Before row `next` is written, rows below the earliest row any consumer
// will still read are dropped (Drop: the held rows move down to slot 0, so
// every window read stays contiguous). The earliest row consumer c reads
// later is max(0, stride * next_c - pad) for its next output row next_c
// (monotone in next_c), in_h once c is done, and for an accumulating c its
// next input row.
#ifndef ARENAPLAN_KERNELS_ROW_SCHEDULE_HPP_
#define ARENAPLAN_KERNELS_ROW_SCHEDULE_HPP_

#include <cstdint>

namespace arenaplan::kernels {

/// Operators of one segment at most, and inputs of one operator at most.
inline constexpr std::int32_t kMaxSegmentOps = 32;
inline constexpr std::int32_t kMaxRowOpInputs = 2;
/// Rows of a tensor of a segment at most (the schedule counts rows in
/// 16 bits).
inline constexpr std::int32_t kMaxSegmentRows = 32767;

/// One operator of a segment as the schedule sees it.
struct RowOp {
  std::int32_t in_h = 1;   ///< Rows of each streamed input.
  std::int32_t out_h = 1;  ///< Rows of the output.
  /// Rows of the inputs read by output row j: [stride * j - pad, ... +
  /// window) clipped to [0, in_h).
  std::int32_t window = 1, stride = 1, pad = 0;
  std::int32_t input_count = 1;  ///< 1 or 2 (a binary element-wise op).
  /// Per input: >= 0: the index (in the segment) of the operator making it,
  /// an earlier one; < 0: segment input -1 - input[q] (a whole tensor).
  std::int32_t input[kMaxRowOpInputs] = {-1, -1};
  /// True: a pool with out_h == 1 reading its input row by row.
  bool accumulate = false;
};

/// True when `ops[0 .. n)` is a segment the schedule can run: 1 <= n <=
/// kMaxSegmentOps, positive extents (at most kMaxSegmentRows), windows and
/// strides, pads >= 0, inputs
/// naming earlier operators, every operator but the last read by a later
/// one, an accumulating operator with out_h == 1 and one input.
[[nodiscard]] constexpr bool WellFormed(const RowOp* ops, std::int32_t n) {
  if (n < 1 || n > kMaxSegmentOps) return false;
  bool read[kMaxSegmentOps] = {};
  for (std::int32_t i = 0; i < n; ++i) {
    const RowOp& o = ops[i];
    if (o.in_h < 1 || o.out_h < 1 || o.in_h > kMaxSegmentRows ||
        o.out_h > kMaxSegmentRows || o.window < 1 || o.stride < 1 ||
        o.pad < 0 || o.input_count < 1 || o.input_count > kMaxRowOpInputs) {
      return false;
    }
    if (o.accumulate && (o.out_h != 1 || o.input_count != 1)) return false;
    for (std::int32_t q = 0; q < o.input_count; ++q) {
      if (o.input[q] >= i) return false;
      if (o.input[q] >= 0) {
        if (ops[o.input[q]].out_h != o.in_h) return false;
        read[o.input[q]] = true;
      }
    }
  }
  for (std::int32_t i = 0; i + 1 < n; ++i) {
    if (!read[i]) return false;
  }
  return true;
}

/// The rows [first, end) of operator o's inputs that its output row j
/// reads (end <= first: none), clipped to [0, o.in_h).
[[nodiscard, gnu::always_inline]] constexpr std::int32_t WindowFirstOf(
    const RowOp& o, std::int32_t j) {
  const std::int32_t a = o.stride * j - o.pad;
  return a < 0 ? 0 : (a > o.in_h ? o.in_h : a);
}
[[nodiscard, gnu::always_inline]] constexpr std::int32_t WindowEndOf(
    const RowOp& o, std::int32_t j) {
  const std::int32_t b = o.stride * j - o.pad + o.window;
  return b < 0 ? 0 : (b > o.in_h ? o.in_h : b);
}

/// The RowOp of an operator record: the record itself here; other
/// records (fused.hpp's FusedOp) give an overload found by lookup.
constexpr const RowOp& RowOfOp(const RowOp& o) { return o; }

/// Runs the schedule of `ops[0 .. n)` (WellFormed rows, n <= N), telling
/// `sink`:
///  - sink.Drop(i, new_lo): operator i's ring drops its rows below new_lo;
///    the rows [new_lo, next(i)) move to slot 0 (called only when new_lo >
///    held_lo(i));
///  - sink.Compute(i, j): write row j of operator i (slot j - held_lo(i) of
///    its ring, or row j of the segment's output for the last operator);
///    every intermediate input holds its window's rows;
///  - sink.Accumulate(i, y): accumulating operator i reads its input row y;
///  - sink.Finish(i): accumulating operator i writes its row 0.
/// The sink may read the schedule's state (HeldLo, Next, EarliestOfInput).
/// `Op` is RowOp, or a record with a RowOfOp overload (the schedule reads
/// the rows in place, no copy). `N`: the most operators (the state's
/// arrays, 8 x N bytes; the generated code gives its segment's count).
template <class Op, std::int32_t N = kMaxSegmentOps>
class BasicRowSchedule {
  static_assert(N >= 1 && N <= kMaxSegmentOps, "1 <= N <= kMaxSegmentOps");

 public:
  constexpr BasicRowSchedule(const Op* ops, std::int32_t n)
      : ops_(ops), n_(n) {}

  template <class Sink>
  constexpr void Run(Sink& sink) {
    for (std::int32_t i = 0; i < n_; ++i) {
      next_[i] = 0;
      held_lo_[i] = 0;
      acc_next_[i] = 0;
      last_reader_[i] = static_cast<std::int8_t>(i);
      for (std::int32_t q = 0; q < Row(i).input_count; ++q) {
        if (Row(i).input[q] >= 0) {
          last_reader_[Row(i).input[q]] = static_cast<std::int8_t>(i);
        }
      }
    }
    const std::int32_t last = n_ - 1;
    // chain_[0 .. depth): the demands in progress, each operator's row
    // next_[op]; chain_[depth - 1] is the one to advance.
    std::int32_t depth = 0;
    while (depth > 0 || next_[last] < Row(last).out_h) {
      if (depth == 0) chain_[depth++] = static_cast<std::int8_t>(last);
      const std::int32_t i = chain_[depth - 1];
      const std::int32_t p = Wanted(i);
      if (p >= 0) {
        chain_[depth++] = static_cast<std::int8_t>(p);
      } else if (Step(i, sink)) {
        --depth;
      }
    }
  }

  /// The lowest row operator i's ring holds.
  [[nodiscard]] constexpr std::int32_t HeldLo(std::int32_t i) const {
    return held_lo_[i];
  }
  /// Rows of operator i's output written so far (the next row to write).
  [[nodiscard]] constexpr std::int32_t Next(std::int32_t i) const {
    return next_[i];
  }
  /// The earliest row of segment input k any operator will still read from
  /// now on (the call in progress included); the input's row count once
  /// every reader is done; -1 when no operator reads input k.
  [[nodiscard]] constexpr std::int32_t EarliestOfInput(std::int32_t k) const {
    std::int32_t lo = -1;
    for (std::int32_t c = 0; c < n_; ++c) {
      for (std::int32_t q = 0; q < Row(c).input_count; ++q) {
        if (Row(c).input[q] != -1 - k) continue;
        const std::int32_t e = Earliest(c);
        if (lo < 0 || e < lo) lo = e;
      }
    }
    return lo;
  }
  /// The rows [first, end) of operator c's inputs that its output row j
  /// reads (end <= first: none).
  [[nodiscard, gnu::always_inline]] constexpr std::int32_t WindowFirst(
      std::int32_t c, std::int32_t j) const {
    return WindowFirstOf(Row(c), j);
  }
  [[nodiscard, gnu::always_inline]] constexpr std::int32_t WindowEnd(
      std::int32_t c, std::int32_t j) const {
    return WindowEndOf(Row(c), j);
  }

 private:
  /// The earliest input row consumer c reads from now on.
  [[nodiscard]] constexpr std::int32_t Earliest(std::int32_t c) const {
    if (Row(c).accumulate) return acc_next_[c];
    if (next_[c] >= Row(c).out_h) return Row(c).in_h;
    return WindowFirst(c, next_[c]);
  }

  /// The producer whose next row operator i's demand in progress needs
  /// first (its first input, in input order, that does not yet hold the
  /// rows up to the window's end: rows only grow, so the inputs before it
  /// still hold theirs), or -1 when i can take its next step.
  [[nodiscard]] constexpr std::int32_t Wanted(std::int32_t i) const {
    const RowOp& o = Row(i);
    // An accumulating operator's next step reads row acc_next_[i].
    const std::int32_t end =
        o.accumulate ? (acc_next_[i] < WindowEnd(i, 0) ? acc_next_[i] + 1 : 0)
                     : WindowEnd(i, next_[i]);
    for (std::int32_t q = 0; q < o.input_count; ++q) {
      const std::int32_t p = o.input[q];
      if (p >= 0 && next_[p] < end) return p;
    }
    return -1;
  }

  /// Operator i's next step, its inputs holding what it reads: one row
  /// (true: the demand is done), or one input row of an accumulating
  /// operator (true after its last, with its row written).
  /// (Inlined into Run, its one call: the sink's calls, and a kernel row
  /// call's arguments, then sit in Run's caller's frame, not in one more.)
  template <class Sink>
  [[gnu::always_inline]] constexpr bool Step(std::int32_t i, Sink& sink) {
    if (Row(i).accumulate) {
      const std::int32_t y = acc_next_[i];
      if (y < WindowEnd(i, 0)) {
        sink.Accumulate(i, y);
        acc_next_[i] = static_cast<std::int16_t>(y + 1);
        return false;
      }
      acc_next_[i] = static_cast<std::int16_t>(Row(i).in_h);
    }
    MakeRoom(i, sink);
    if (Row(i).accumulate) {
      sink.Finish(i);
    } else {
      sink.Compute(i, next_[i]);
    }
    ++next_[i];
    return true;
  }

  /// Drops the rows of operator i's ring no consumer reads any more.
  template <class Sink>
  constexpr void MakeRoom(std::int32_t i, Sink& sink) {
    if (i == n_ - 1) return;  // The segment's output: a whole tensor.
    std::int32_t lo = next_[i];
    for (std::int32_t c = i + 1; c <= last_reader_[i]; ++c) {
      for (std::int32_t q = 0; q < Row(c).input_count; ++q) {
        if (Row(c).input[q] != i) continue;
        const std::int32_t e = Earliest(c);
        if (e < lo) lo = e;
      }
    }
    if (lo > held_lo_[i]) {
      sink.Drop(i, lo);
      held_lo_[i] = static_cast<std::int16_t>(lo);
    }
  }

  [[nodiscard]] constexpr const RowOp& Row(std::int32_t i) const {
    return RowOfOp(ops_[i]);
  }

  const Op* ops_;
  std::int32_t n_;
  /// Rows (<= kMaxSegmentRows, so 16 bits: the state is on the stack of
  /// the firmware's Invoke()).
  std::int16_t next_[N] = {};
  std::int16_t held_lo_[N] = {};
  std::int16_t acc_next_[N] = {};
  std::int8_t chain_[N] = {};  ///< kMaxSegmentOps <= 127.
  /// The last operator reading operator i's output (i itself when none:
  /// the segment's output); MakeRoom looks no further.
  std::int8_t last_reader_[N] = {};
};

using RowSchedule = BasicRowSchedule<RowOp>;

/// One sink call of a schedule, recorded at build time (the generator runs
/// BasicRowSchedule with a RowStepRecorder and emits the steps as a const
/// table; the firmware replays them with BasicRowReplay: the same calls in
/// the same order, without the demand bookkeeping).
inline constexpr std::uint8_t kRowStepDrop = 0;        ///< sink.Drop(op, arg)
inline constexpr std::uint8_t kRowStepCompute = 1;     ///< Compute(op, arg)
inline constexpr std::uint8_t kRowStepAccumulate = 2;  ///< Accumulate(op, arg)
inline constexpr std::uint8_t kRowStepFinish = 3;      ///< Finish(op)
struct RowStep {
  std::uint8_t op = 0;    ///< The operator (its index in the segment).
  std::uint8_t kind = 0;  ///< kRowStep*.
  /// Drop: the new lowest row held; Compute: the row written; Accumulate:
  /// the input row read; Finish: 0.
  std::int16_t arg = 0;
};

/// A sink recording a schedule's calls into steps[0 .. capacity); count()
/// is the number of calls made (more than capacity: the rest were lost).
class RowStepRecorder {
 public:
  constexpr RowStepRecorder(RowStep* steps, std::int32_t capacity)
      : steps_(steps), capacity_(capacity) {}
  constexpr void Drop(std::int32_t i, std::int32_t lo) {
    Put(i, kRowStepDrop, lo);
  }
  constexpr void Compute(std::int32_t i, std::int32_t j) {
    Put(i, kRowStepCompute, j);
  }
  constexpr void Accumulate(std::int32_t i, std::int32_t y) {
    Put(i, kRowStepAccumulate, y);
  }
  constexpr void Finish(std::int32_t i) { Put(i, kRowStepFinish, 0); }
  [[nodiscard]] constexpr std::int32_t count() const { return count_; }

 private:
  constexpr void Put(std::int32_t i, std::uint8_t kind, std::int32_t arg) {
    if (count_ < capacity_) {
      steps_[count_] = RowStep{static_cast<std::uint8_t>(i), kind,
                               static_cast<std::int16_t>(arg)};
    }
    ++count_;
  }
  RowStep* steps_;
  std::int32_t capacity_;
  std::int32_t count_ = 0;
};

/// Replays recorded steps[0 .. count) of the schedule of `ops[0 .. n)` to
/// a sink, with the state a sink reads (HeldLo, Next, WindowFirst,
/// WindowEnd) as BasicRowSchedule has it at the same call. The steps must
/// be those BasicRowSchedule<Op, N>(ops, n) makes (the generator records
/// them from it; row_schedule_test checks the replay against it).
template <class Op, std::int32_t N = kMaxSegmentOps>
class BasicRowReplay {
  static_assert(N >= 1 && N <= kMaxSegmentOps, "1 <= N <= kMaxSegmentOps");

 public:
  constexpr BasicRowReplay(const Op* ops, std::int32_t n, const RowStep* steps,
                           std::int32_t count)
      : ops_(ops), n_(n), steps_(steps), count_(count) {}

  template <class Sink>
  constexpr void Run(Sink& sink) {
    for (std::int32_t i = 0; i < n_; ++i) next_[i] = held_lo_[i] = 0;
    for (std::int32_t k = 0; k < count_; ++k) {
      const RowStep s = steps_[k];
      const std::int32_t i = s.op;
      switch (s.kind) {
        case kRowStepDrop:
          sink.Drop(i, s.arg);
          held_lo_[i] = s.arg;
          break;
        case kRowStepCompute:
          sink.Compute(i, s.arg);
          next_[i] = static_cast<std::int16_t>(s.arg + 1);
          break;
        case kRowStepAccumulate:
          sink.Accumulate(i, s.arg);
          break;
        default:
          sink.Finish(i);
          next_[i] = 1;
          break;
      }
    }
  }

  [[nodiscard]] constexpr std::int32_t HeldLo(std::int32_t i) const {
    return held_lo_[i];
  }
  [[nodiscard]] constexpr std::int32_t Next(std::int32_t i) const {
    return next_[i];
  }
  [[nodiscard, gnu::always_inline]] constexpr std::int32_t WindowFirst(
      std::int32_t c, std::int32_t j) const {
    return WindowFirstOf(RowOfOp(ops_[c]), j);
  }
  [[nodiscard, gnu::always_inline]] constexpr std::int32_t WindowEnd(
      std::int32_t c, std::int32_t j) const {
    return WindowEndOf(RowOfOp(ops_[c]), j);
  }

 private:
  const Op* ops_;
  std::int32_t n_;
  const RowStep* steps_;
  std::int32_t count_;
  std::int16_t next_[N] = {};     ///< As BasicRowSchedule's.
  std::int16_t held_lo_[N] = {};  ///< As BasicRowSchedule's.
};

}  // namespace arenaplan::kernels

#endif  // ARENAPLAN_KERNELS_ROW_SCHEDULE_HPP_
