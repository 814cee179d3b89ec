// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The whole-model trace check (issue #34): replays a Schedule (schedule.hpp)
// step by step over a map from arena bytes to the value each holds, and
// proves that every byte a step reads holds the value its producer wrote
// there, that a step's write shares bytes with another access of the same
// step only as its kernel states, and that every graph output still holds
// its value after the last step. Independent of the planners, of the
// allowed-overlap list (codegen/overlap/) and of the fusion planner
// (codegen/fuse/): it sees only placed byte ranges and the kernels' stated
// distances.
//
// The value of a byte is (buffer, origin): the buffer whose producer wrote
// it, placed with its byte 0 at arena byte `origin` of its region. The graph
// inputs hold their values at the start; each step first checks its reads,
// then its in-step overlaps, then applies its writes. Cost: O(A log A) time
// and O(A) memory for A accesses (an ordered map of byte intervals).
#ifndef ARENAPLAN_CODEGEN_TRACE_CHECK_HPP_
#define ARENAPLAN_CODEGEN_TRACE_CHECK_HPP_

#include <cstdint>
#include <string>

#include "codegen/trace/schedule.hpp"

namespace arenaplan::trace {

/// What the check found (the first failure in execution order).
enum class TraceResult : std::uint8_t {
  kOk,
  /// An access or stated overlap refers to a buffer or access that does not
  /// exist, or a range ends past its buffer (or begins after its end).
  kMalformed,
  /// A step reads a byte no step (and no graph input) ever wrote.
  kReadUnwritten,
  /// A step reads a byte that holds another value than its producer wrote:
  /// a later write (another buffer, or the same buffer moved) clobbered it.
  kReadClobbered,
  /// A step's write shares bytes with another of its accesses, and its
  /// kernel states no overlap between the two.
  kOverlapWithoutContract,
  /// A stated overlap is violated: the write starts less than the stated
  /// distance below the other access (kOutputBelowBy), or is not the very
  /// same bytes (kAlias).
  kOverlapTooClose,
  /// After the last step a graph output's byte holds another value (or
  /// none): it was overwritten before Invoke() returns.
  kOutputLost,
};

/// The name of `r` ("ok", "read_clobbered", ...).
[[nodiscard]] const char* TraceResultName(TraceResult r);

struct TraceCheck {
  TraceResult result = TraceResult::kOk;
  /// Empty when kOk; else one line: "operator K (NAME): ..." naming the
  /// tensor, the byte range (buffer bytes and arena bytes, half-open) and
  /// what the first wrong byte holds.
  std::string message;
};

/// Checks `schedule` (see the file comment). Never throws except
/// std::bad_alloc.
[[nodiscard]] TraceCheck CheckSchedule(const Schedule& schedule);

}  // namespace arenaplan::trace

#endif  // ARENAPLAN_CODEGEN_TRACE_CHECK_HPP_
