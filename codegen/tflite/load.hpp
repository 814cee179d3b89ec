// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// A .tflite file as tensor usage records (the reader and BuildProblem in
// one call).
#ifndef ARENAPLAN_CODEGEN_TFLITE_LOAD_HPP_
#define ARENAPLAN_CODEGEN_TFLITE_LOAD_HPP_

#include <cstdint>
#include <span>
#include <string>

#include "codegen/input/input.hpp"
#include "codegen/records.hpp"

namespace arenaplan {

/// The records of the model at `path` (tflite::BuildProblem's `problem`)
/// as the file has it: options.fold is not read, nothing is folded (the
/// graph TFLM runs; `plan` folds through codegen/tflite/fold_model.hpp).
/// Throws InputError naming the file and the place.
[[nodiscard]] UsageProblem LoadTfliteProblem(const std::string& path,
                                             const InputOptions& options);

/// The same for a model already read into memory; `source` names it in
/// messages.
[[nodiscard]] UsageProblem LoadTfliteProblem(
    std::span<const std::uint8_t> bytes, const std::string& source,
    const InputOptions& options);

}  // namespace arenaplan

#endif  // ARENAPLAN_CODEGEN_TFLITE_LOAD_HPP_
