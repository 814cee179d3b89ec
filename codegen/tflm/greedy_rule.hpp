// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// A re-implementation of the placement rule of TensorFlow Lite Micro's
// GreedyMemoryPlanner, used to compare arenas and to compute what TFLM will
// reserve for buffers arenaplan does not plan (scratch buffers).
#ifndef ARENAPLAN_CODEGEN_TFLM_GREEDY_RULE_HPP_
#define ARENAPLAN_CODEGEN_TFLM_GREEDY_RULE_HPP_

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
};

/// Offsets per buffer and the arena (max offset + size), in bytes.
struct GreedyPlacement {
  std::vector<std::uint64_t> offsets;
  std::uint64_t arena_bytes = 0;
};

/// The placement rule TFLM documents for its GreedyMemoryPlanner, written
/// from that description (not from its code): buffers with a fixed offset
/// are placed first; the others in order of non-increasing size (ties: input
/// order), each at the lowest offset where it overlaps no already placed
/// buffer whose lifetime intersects its own (first fit, not best fit).
[[nodiscard]] GreedyPlacement TflmGreedyPlace(
    std::span<const GreedyBuffer> buffers);

}  // namespace arenaplan::tflm

#endif  // ARENAPLAN_CODEGEN_TFLM_GREEDY_RULE_HPP_
