// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// TensorFlow Lite Micro interop: the offline memory plan TFLM reads from a
// model's metadata, the plan of its NonPersistentMemoryPlannerShim, and a
// re-implementation of the placement rule of TFLM's greedy planner (used to
// compare arenas and to compute what TFLM will reserve).
#ifndef ARENAPLAN_CODEGEN_TFLITE_TFLM_HPP_
#define ARENAPLAN_CODEGEN_TFLITE_TFLM_HPP_

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "codegen/planner.hpp"
#include "codegen/tflite/problem.hpp"

namespace arenaplan::tflite {

/// Name of the metadata entry TFLM looks for.
inline constexpr char kOfflinePlanName[] = "OfflineMemoryAllocation";
/// Buffer alignment of TFLM's arena (bytes).
inline constexpr std::uint64_t kTflmBufferAlignment = 16;

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

/// The words of an OfflineMemoryAllocation buffer: [0 (version),
/// subgraph count, N, offset of tensor 0 .. N-1], N = tensors of all
/// subgraphs (subgraph 0 first), -1 = planned by TFLM at run time. Offsets
/// come from `plan` (an offsets plan of `problem.problem`); tensors that
/// are not planned (and all tensors of other subgraphs) get -1.
/// InputError when an offset does not fit int32.
[[nodiscard]] std::vector<std::int32_t> OfflinePlanWords(
    const TfliteProblem& problem, const PlanResult& plan,
    std::size_t subgraph_count);

/// A copy of the TFLite flatbuffer `original` whose Model.metadata holds an
/// `OfflineMemoryAllocation` entry with `words` (little-endian int32),
/// replacing any such entry. The original bytes are kept unchanged after a
/// new root table (prefix a multiple of 16 bytes, so every alignment of the
/// original holds): operators, tensors, buffers and all other fields are the
/// original ones. `model` is ReadModel(original) (the input must have
/// passed the verifier).
[[nodiscard]] std::vector<std::uint8_t> WithOfflinePlan(
    std::span<const std::uint8_t> original, const Model& model,
    std::span<const std::int32_t> words);

/// The words of the OfflineMemoryAllocation entry of `model`, if any.
[[nodiscard]] std::optional<std::vector<std::int32_t>> ReadOfflinePlan(
    const Model& model);

/// A header with a `tflite::BufferPlan` for TFLM's
/// NonPersistentMemoryPlannerShim: one offset per buffer TFLM asks the
/// planner for, in its order (the planned tensors of subgraph 0 by index,
/// then the scratch buffers). InputError when the model has a tensor TFLM
/// would allocate that arenaplan does not plan (other subgraphs, unused).
[[nodiscard]] std::string ShimHeader(const TfliteProblem& problem,
                                     const PlanResult& plan,
                                     std::size_t subgraph_count,
                                     const std::string& guard_source);

}  // namespace arenaplan::tflite

#endif  // ARENAPLAN_CODEGEN_TFLITE_TFLM_HPP_
