// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The whole tensor arena TensorFlow Lite Micro needs for a model: a replay
// of what MicroInterpreter's constructor, AllocateTensors and Invoke take
// from the arena (tensorflow/lite/micro/micro_allocator.cc,
// micro_allocation_info.cc, micro_interpreter.cc,
// arena_allocator/single_arena_buffer_allocator.cc, memory_planner/
// greedy_memory_planner.h, and the kernels of tflm_kernels.hpp), as of
// kTflmVersion, with the struct sizes of a 64-bit (LP64) host build. A
// 32-bit target has smaller pointers and size_t, so the figure is meant as
// an upper bound there (not checked on a target).
//
// TFLM's arena has a head (non-persistent: the planned buffers, and while
// preparing the scratch request list), temporary allocations after the head
// (only while AllocateTensors runs), and a tail of persistent allocations
// growing down from the end. The arena fits when, at every allocation, head
// or temporaries plus tail fit; the recommendation is the largest such sum,
// rounded up to 16 bytes.
#ifndef ARENAPLAN_CODEGEN_TFLM_ARENA_HPP_
#define ARENAPLAN_CODEGEN_TFLM_ARENA_HPP_

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "codegen/input/input.hpp"
#include "codegen/tflite/model.hpp"
#include "codegen/tflm/kernels.hpp"

namespace arenaplan::tflm {

/// Which memory planner the firmware gives TFLM.
enum class TflmPlannerKind : std::uint8_t {
  kGreedy,  ///< TFLM's default GreedyMemoryPlanner (reads offline plans).
  kShim,    ///< NonPersistentMemoryPlannerShim with arenaplan's plan.
};

/// The modelled arena, bytes.
struct TflmArena {
  std::uint64_t non_persistent = 0;  ///< The head section (the plan).
  std::uint64_t persistent = 0;      ///< The tail after AllocateTensors.
  /// kTensorArenaSize: the smallest multiple of 16 that fits every step
  /// (for an arena that starts 16-byte aligned).
  std::uint64_t arena = 0;
  /// The step that sets `arena` (e.g. "AllocateTensors: memory planning").
  std::string binding_step;
  /// Kernel notes (KernelFacts::note), each with the operators (of
  /// subgraph 0, or "S:K" for other subgraphs) it applies to, in order.
  std::vector<std::pair<std::string, std::vector<std::string>>> notes;
};

/// Replays TFLM's allocations for `model` with a head section of
/// `non_persistent` bytes (the planned section) and the scratch requests
/// `scratch` (in TFLM's order). `options.assume_dim` resolves dynamic
/// dimensions.
[[nodiscard]] TflmArena ModelTflmArena(const tflite::Model& model,
                                       const InputOptions& options,
                                       std::uint64_t non_persistent,
                                       std::span<const ScratchRequest> scratch,
                                       TflmPlannerKind planner);

}  // namespace arenaplan::tflm

#endif  // ARENAPLAN_CODEGEN_TFLM_ARENA_HPP_
