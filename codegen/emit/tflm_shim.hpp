// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The plan as a header for TensorFlow Lite Micro's
// NonPersistentMemoryPlannerShim.
#ifndef ARENAPLAN_CODEGEN_EMIT_TFLM_SHIM_HPP_
#define ARENAPLAN_CODEGEN_EMIT_TFLM_SHIM_HPP_

#include <cstddef>
#include <string>

#include "codegen/planner.hpp"
#include "codegen/tflite/problem.hpp"

namespace arenaplan {

/// A header with a `tflite::BufferPlan` for TFLM's
/// NonPersistentMemoryPlannerShim: one offset per buffer TFLM asks the
/// planner for, in its order (the planned tensors of subgraph 0 by index,
/// then the scratch buffers). InputError when the model has a tensor TFLM
/// would allocate that arenaplan does not plan (other subgraphs, unused).
[[nodiscard]] std::string ShimHeader(const tflite::TfliteProblem& problem,
                                     const PlanResult& plan,
                                     std::size_t subgraph_count,
                                     const std::string& guard_source);

}  // namespace arenaplan

#endif  // ARENAPLAN_CODEGEN_EMIT_TFLM_SHIM_HPP_
