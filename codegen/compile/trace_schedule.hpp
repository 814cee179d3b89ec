// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The schedule of a compiled model for the whole-model trace check
// (codegen/trace/): every planned record as a buffer at its planned place,
// and every kernel call of Invoke() as a step reading and writing the byte
// ranges of its tensors (an alias at its byte offset inside its home
// record), with the overlaps the lowering stated from the kernel headers'
// distance functions (Lowerer::StateOverlap). A fused segment (--fuse) is
// replayed call by call with the row schedule of
// kernels/include/arenaplan/kernels/row_schedule.hpp (the one the firmware
// runs): each row call reads the rows of the segment inputs its window
// covers, the last operator's writes its output row, with no overlap
// stated between them; so an output row written over an input row still
// to be read is refused, whatever distance codegen/fuse/ computed. The
// rings are the segment's scratch: written before its first row (sharing
// bytes only with the ring they read, at the row kernel's distance the
// segment states), and those in no pair read back after its last row. A
// kernel's scratch record (codegen/scratch/) is written by its call and
// read back after it (in a segment: with the rings), stated to overlap
// nothing.
#ifndef ARENAPLAN_CODEGEN_COMPILE_TRACE_SCHEDULE_HPP_
#define ARENAPLAN_CODEGEN_COMPILE_TRACE_SCHEDULE_HPP_

#include <cstdint>
#include <vector>

#include "codegen/compile/lowering.hpp"
#include "codegen/fuse/fuse.hpp"
#include "codegen/planner/planner.hpp"
#include "codegen/regions/regions.hpp"
#include "codegen/tflite/model.hpp"
#include "codegen/tflite/problem.hpp"
#include "codegen/trace/schedule.hpp"

namespace arenaplan::compile {

/// What BuildSchedule reads; everything borrowed.
struct ScheduleInputs {
  const tflite::Model* model = nullptr;  ///< The folded model compiled.
  /// BuildProblem of `model`: every tensor's bytes (unaligned).
  const tflite::TfliteProblem* problem = nullptr;
  /// Tensor of every record of `plan` (-1: a ring or scratch); entries past
  /// the plan's records name tensors that live inside fused segments.
  const std::vector<std::int32_t>* record_tensor = nullptr;
  const PlanResult* plan = nullptr;
  const RegionPlan* regions = nullptr;  ///< Two or more regions, or null.
  const std::vector<LoweredAccesses>* lowered = nullptr;
  const fuse::FusePlan* fused = nullptr;  ///< --fuse, or null.
};

/// The schedule of the compiled model (see the file comment). A tensor
/// with no buffer of the plan (a fused segment's inner tensor read outside
/// it) gets an out-of-range buffer index, which CheckSchedule reports as
/// kMalformed.
[[nodiscard]] trace::Schedule BuildSchedule(const ScheduleInputs& in);

}  // namespace arenaplan::compile

#endif  // ARENAPLAN_CODEGEN_COMPILE_TRACE_SCHEDULE_HPP_
