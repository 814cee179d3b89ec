// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
#include "codegen/tflite/load.hpp"

#include "codegen/tflite/model.hpp"
#include "codegen/tflite/problem.hpp"

namespace arenaplan {

UsageProblem LoadTfliteProblem(const std::string& path,
                               const InputOptions& options) {
  const tflite::Model model = tflite::ReadModelFile(path);
  return tflite::BuildProblem(model, options).problem;
}

UsageProblem LoadTfliteProblem(std::span<const std::uint8_t> bytes,
                               const std::string& source,
                               const InputOptions& options) {
  const tflite::Model model = tflite::ReadModel(bytes, source);
  return tflite::BuildProblem(model, options).problem;
}

}  // namespace arenaplan
