// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The plan as a header for TensorFlow Lite Micro's
// tflite::NonPersistentMemoryPlannerShim.
#ifndef ARENAPLAN_CODEGEN_EMIT_TFLM_SHIM_HPP_
#define ARENAPLAN_CODEGEN_EMIT_TFLM_SHIM_HPP_

#include <cstddef>
#include <cstdint>
#include <string>

#include "codegen/planner/planner.hpp"
#include "codegen/tflite/problem.hpp"

namespace arenaplan {

/// Figures the shim header states.
struct ShimSizes {
  std::uint64_t model_bytes = 0;  ///< Size of the original model file.
  std::uint64_t arena_bytes =
      0;  ///< Whole arena to allocate (tflm::TflmArena).
};

/// A header with a `tflite::BufferPlan` for TFLM's
/// tflite::NonPersistentMemoryPlannerShim: one offset per buffer TFLM asks
/// the planner for, in its order (the planned tensors of subgraph 0 by
/// index, then the scratch buffers), the size of the original model it
/// belongs to and the whole arena to allocate. InputError when the model has
/// a tensor TFLM would allocate that arenaplan does not plan (other
/// subgraphs, unused).
[[nodiscard]] std::string ShimHeader(const tflite::TfliteProblem& problem,
                                     const PlanResult& plan,
                                     std::size_t subgraph_count,
                                     const std::string& guard_source,
                                     const ShimSizes& sizes);

}  // namespace arenaplan

#endif  // ARENAPLAN_CODEGEN_EMIT_TFLM_SHIM_HPP_
