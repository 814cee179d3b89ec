// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// What TensorFlow Lite Micro reserves for the non-persistent (head) section
// of its arena: the buffers it hands its GreedyMemoryPlanner, in its order
// and with its lifetimes, placed by the simulated planner (greedy_rule.hpp)
// with or without arenaplan's offline plan.
#ifndef ARENAPLAN_CODEGEN_TFLM_RESERVED_ARENA_HPP_
#define ARENAPLAN_CODEGEN_TFLM_RESERVED_ARENA_HPP_

#include <cstdint>
#include <vector>

#include "codegen/planner/planner.hpp"
#include "codegen/tflite/model.hpp"
#include "codegen/tflite/problem.hpp"
#include "codegen/tflm/greedy_rule.hpp"

namespace arenaplan::tflm {

/// The buffers TFLM adds to its planner for `problem` (micro_allocator.cc,
/// CreatePlan): the records of non-zero size in record order (the planned
/// tensors of subgraph 0 by index, then the scratch buffers in request
/// order), sizes rounded up to TFLM's 16 bytes, lifetimes in TFLM's
/// allocation scopes (micro_allocation_info.cc, MarkAllocationLifetimes:
/// graph inputs from scope 0, operator k at scope k + 1, graph outputs to
/// the last scope). No fixed offsets; `record` names each one's record.
[[nodiscard]] std::vector<GreedyBuffer> TflmBuffers(
    const tflite::TfliteProblem& problem, const tflite::Model& model);

/// TFLM's head section in bytes for `problem` when the tensors sit at
/// `plan`'s offsets (an offsets plan whose first records are the tensor
/// records of `problem`; scratch buffers are left to TFLM's rule), or with
/// no offline plan when `plan` is null.
[[nodiscard]] std::uint64_t TflmHead(const tflite::TfliteProblem& problem,
                                     const tflite::Model& model,
                                     const PlanResult* plan);

}  // namespace arenaplan::tflm

#endif  // ARENAPLAN_CODEGEN_TFLM_RESERVED_ARENA_HPP_
