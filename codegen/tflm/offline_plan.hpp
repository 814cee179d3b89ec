// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// TensorFlow Lite Micro's offline memory plan: the OfflineMemoryAllocation
// words TFLM reads from a model's metadata, made from an arenaplan plan,
// and read back from a model. (Writing them into a model is the emitter
// codegen/emit/tflm_model.hpp; TFLM's own placement rule is greedy_rule.hpp.)
#ifndef ARENAPLAN_CODEGEN_TFLM_OFFLINE_PLAN_HPP_
#define ARENAPLAN_CODEGEN_TFLM_OFFLINE_PLAN_HPP_

#include <cstdint>
#include <optional>
#include <vector>

#include "codegen/base/alignment.hpp"
#include "codegen/planner/planner.hpp"
#include "codegen/tflite/model.hpp"
#include "codegen/tflite/problem.hpp"

namespace arenaplan::tflm {

/// Name of the metadata entry TFLM looks for.
inline constexpr char kOfflinePlanName[] = "OfflineMemoryAllocation";
/// Buffer alignment of TFLM's arena (bytes): the models' default.
inline constexpr std::uint64_t kTflmBufferAlignment = kModelAlignment.bytes();

/// The words of an OfflineMemoryAllocation buffer: [0 (version),
/// subgraph count, N, offset of tensor 0 .. N-1], N = tensors of all
/// subgraphs (subgraph 0 first), -1 = planned by TFLM at run time. Offsets
/// come from `plan` (an offsets plan of `problem.problem`); tensors that
/// are not planned (and all tensors of other subgraphs) get -1.
/// InputError when an offset does not fit int32.
[[nodiscard]] std::vector<std::int32_t> OfflinePlanWords(
    const tflite::TfliteProblem& problem, const PlanResult& plan,
    std::size_t subgraph_count);

/// The words of the OfflineMemoryAllocation entry of `model`, if any.
[[nodiscard]] std::optional<std::vector<std::int32_t>> ReadOfflinePlan(
    const tflite::Model& model);

}  // namespace arenaplan::tflm

#endif  // ARENAPLAN_CODEGEN_TFLM_OFFLINE_PLAN_HPP_
