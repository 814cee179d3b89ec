// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// A compiled model's schedule as plain data, for the whole-model trace check
// (check.hpp): the buffers of the arena (one per planned record: a tensor
// with its folded aliases, or a fused segment's ring) with their placement,
// and the steps of Invoke() in execution order, each with the byte ranges it
// reads and writes and the in-step overlaps its kernel states. Nothing here
// knows how the placement was found: the schedule is built from the plan's
// offsets and the lowered calls alone (codegen/compile/trace_schedule.hpp).
#ifndef ARENAPLAN_CODEGEN_TRACE_SCHEDULE_HPP_
#define ARENAPLAN_CODEGEN_TRACE_SCHEDULE_HPP_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "codegen/records.hpp"

namespace arenaplan::trace {

/// One placed buffer: `size` bytes at byte `offset` of memory `region`
/// (0 for a single arena).
struct Buffer {
  std::string name;  ///< For messages: "tensor 12 'conv1'", "ring of ...".
  std::uint32_t region = 0;
  std::uint64_t offset = 0;  ///< Bytes from the region's start.
  std::uint64_t size = 0;    ///< Bytes (the planned, aligned size).
};

/// A byte range of one buffer: bytes [begin, end) of `buffer` (begin
/// included, end excluded), i.e. arena bytes [offset + begin, offset +
/// end) of its region. `tensor` names the tensor the operator reads or
/// writes there (-1 for a ring), which may be an alias inside the buffer.
struct Range {
  std::uint32_t buffer = 0;
  std::uint64_t begin = 0;
  std::uint64_t end = 0;
  std::int32_t tensor = -1;
};

/// One access of a step: a read needs every byte of its range to hold the
/// value the buffer's producer wrote there; a write gives the bytes of its
/// range the buffer's value.
struct Access {
  enum class Kind : std::uint8_t { kRead, kWrite };
  Kind kind = Kind::kRead;
  Range range;
};

/// An overlap the step's kernel tolerates between two of its accesses
/// (kernels/include/arenaplan/kernels/overlap.hpp): with `below` at arena
/// byte B and `above` at A, kOutputBelowBy allows the two to share bytes
/// when B + distance <= A; kAlias when they are the very same bytes.
/// `below` is a write (the output, or a ring written over the ring it
/// reads); `above` is a read or a write.
struct StatedOverlap {
  std::size_t below = 0;  ///< Index into Step::accesses.
  std::size_t above = 0;  ///< Index into Step::accesses.
  OverlapRelation relation = OverlapRelation::kOutputBelowBy;
  std::uint64_t distance = 0;  ///< Bytes (0 for kAlias).
};

/// One step of Invoke(): an operator's kernel call or a fused segment.
struct Step {
  std::size_t op = 0;  ///< The file's operator number (the first, fused).
  std::string name;    ///< "CONV_2D", "fused segment of operators 3 .. 7".
  std::vector<Access> accesses;
  std::vector<StatedOverlap> overlaps;
};

/// The whole schedule.
struct Schedule {
  std::vector<Buffer> buffers;
  /// Ranges holding their buffer's value before the first step (the graph
  /// inputs).
  std::vector<Range> initial;
  std::vector<Step> steps;
  /// Ranges that must hold their buffer's value after the last step (the
  /// graph outputs).
  std::vector<Range> final;
};

}  // namespace arenaplan::trace

#endif  // ARENAPLAN_CODEGEN_TRACE_SCHEDULE_HPP_
