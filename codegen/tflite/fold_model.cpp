// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
#include "codegen/tflite/fold_model.hpp"

#include <string>
#include <utility>

#include "codegen/base/errors.hpp"

namespace arenaplan::tflite {

std::int64_t FoldedModel::StepOf(std::size_t op) const {
  for (std::size_t k = 0; k < file_index.size(); ++k) {
    if (file_index[k] == op) return static_cast<std::int64_t>(k);
  }
  return -1;
}

FoldedModel FoldModel(const Model& file_model, const InputOptions& options) {
  FoldedModel f;
  f.file_operator_count = file_model.subgraphs.empty()
                              ? 0
                              : file_model.subgraphs[0].operators.size();
  if (options.fold && !options.fp32) {
    FoldResult c = FoldConstants(file_model);
    f.model = std::move(c.model);
    f.constants = std::move(c.folded);
    f.file_index = std::move(c.file_index);
    f.graph = FoldGraph(f.model, options);
  } else {
    f.model = file_model;
    for (std::size_t k = 0; k < f.file_operator_count; ++k) {
      f.file_index.push_back(k);
    }
  }
  return f;
}

InputOptions StepOptions(const FoldedModel& folded,
                         const InputOptions& options) {
  InputOptions o = options;
  if (folded.constants.empty()) return o;
  for (auto& [op, bytes] : o.scratch) {
    if (op >= folded.file_operator_count) continue;
    const std::int64_t step = folded.StepOf(op);
    if (step < 0) {
      std::string builtin;
      for (const FoldedOperator& c : folded.constants) {
        if (c.op == op) builtin = c.builtin;
      }
      throw InputError(folded.model.source + ": --scratch " +
                       std::to_string(op) + ": operator " + std::to_string(op) +
                       " (" + builtin +
                       ") is computed at generation time and does not run "
                       "(--no-fold keeps it)");
    }
    op = static_cast<std::uint32_t>(step);
  }
  return o;
}

}  // namespace arenaplan::tflite
