// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// Writes arenaplan's plan into a copy of a TFLite model, as the
// OfflineMemoryAllocation metadata TensorFlow Lite Micro reads.
#ifndef ARENAPLAN_CODEGEN_EMIT_TFLM_MODEL_HPP_
#define ARENAPLAN_CODEGEN_EMIT_TFLM_MODEL_HPP_

#include <cstdint>
#include <span>
#include <vector>

#include "codegen/tflite/model.hpp"

namespace arenaplan {

/// A copy of the TFLite flatbuffer `original` whose Model.metadata holds an
/// `OfflineMemoryAllocation` entry with `words` (little-endian int32; see
/// tflm::OfflinePlanWords), replacing any such entry. The original bytes are
/// kept unchanged after a new root table (prefix a multiple of 16 bytes, so
/// every alignment of the original holds): operators, tensors, buffers and
/// all other fields are the original ones. `model` is ReadModel(original)
/// (the input must have passed the verifier).
[[nodiscard]] std::vector<std::uint8_t> WithOfflinePlan(
    std::span<const std::uint8_t> original, const tflite::Model& model,
    std::span<const std::int32_t> words);

}  // namespace arenaplan

#endif  // ARENAPLAN_CODEGEN_EMIT_TFLM_MODEL_HPP_
