// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// What TensorFlow Lite Micro reserves for the non-persistent (head) section
// of its arena when it runs a model carrying arenaplan's offline plan.
#ifndef ARENAPLAN_CODEGEN_TFLM_RESERVED_ARENA_HPP_
#define ARENAPLAN_CODEGEN_TFLM_RESERVED_ARENA_HPP_

#include <cstdint>

#include "codegen/planner.hpp"
#include "codegen/tflite/problem.hpp"

namespace arenaplan::tflm {

/// Head-section sizes in bytes.
struct ReservedArena {
  /// The offline-planned tensors where `plan` puts them, every other
  /// buffer (scratch buffers) placed around them by TFLM's greedy rule.
  std::uint64_t with_plan_bytes = 0;
  /// Every buffer left to the greedy rule (no offline plan), for comparison.
  std::uint64_t greedy_only_bytes = 0;
};

/// The head section TFLM reserves for `problem` planned by `plan` (an
/// offsets plan of problem.problem).
[[nodiscard]] ReservedArena ReserveLikeTflm(
    const tflite::TfliteProblem& problem, const PlanResult& plan);

}  // namespace arenaplan::tflm

#endif  // ARENAPLAN_CODEGEN_TFLM_RESERVED_ARENA_HPP_
