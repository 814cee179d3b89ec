// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// A simulation of TensorFlow Lite Micro's GreedyMemoryPlanner, used to
// compare arenas and to compute where TFLM puts the buffers arenaplan's
// offline plan leaves to it (scratch buffers).
#ifndef ARENAPLAN_CODEGEN_TFLM_GREEDY_RULE_HPP_
#define ARENAPLAN_CODEGEN_TFLM_GREEDY_RULE_HPP_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace arenaplan::tflm {

/// One buffer for the greedy rule. `first_op`/`last_op` are inclusive.
struct GreedyBuffer {
  std::uint64_t size = 0;  ///< Bytes, already aligned.
  std::uint32_t first_op = 0;
  std::uint32_t last_op = 0;
  /// Offline-planned offset: placed there first, never moved.
  std::optional<std::uint64_t> fixed_offset;
  /// The record of the problem it stands for (see TflmBuffers).
  std::size_t record = 0;
};

/// Offsets per buffer and the arena (max offset + size), in bytes.
struct GreedyPlacement {
  std::vector<std::uint64_t> offsets;
  std::uint64_t arena_bytes = 0;
};

/// TFLM's GreedyMemoryPlanner (tensorflow/lite/micro/memory_planner/
/// greedy_memory_planner.cc, CalculateOffsetsIfNeeded), simulated:
/// buffers with a fixed (offline) offset are placed there first, in input
/// order; the others in order of decreasing size, equal sizes in
/// *decreasing* input order (TFLM stores online buffers from the back of its
/// list and sorts them with a stable bubble sort, ReverseSortInPlace), each
/// at the lowest offset where it overlaps no already placed buffer whose
/// lifetime intersects its own (first fit, not best fit).
[[nodiscard]] GreedyPlacement TflmGreedyPlace(
    std::span<const GreedyBuffer> buffers);

}  // namespace arenaplan::tflm

#endif  // ARENAPLAN_CODEGEN_TFLM_GREEDY_RULE_HPP_
