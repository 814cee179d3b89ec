// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The records CSV reader, and the options every model reader takes
// (codegen/tflite/, codegen/zoo/). codegen/load/ picks the reader for an
// INPUT argument.
#ifndef ARENAPLAN_CODEGEN_INPUT_HPP_
#define ARENAPLAN_CODEGEN_INPUT_HPP_

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "codegen/records.hpp"

namespace arenaplan {

/// Options that change how a model becomes records. Sizes in the returned
/// problem are NOT yet rounded to any alignment: the planner does that.
struct InputOptions {
  /// --fp32: count every tensor as 4-byte elements (the paper's setting).
  bool fp32 = false;
  /// --assume-dim N: the value substituted for dynamic (-1) dimensions.
  std::optional<std::uint64_t> assume_dim;
  /// --scratch OP:BYTES (repeatable): a buffer alive for that one operator.
  std::vector<std::pair<std::uint32_t, std::uint64_t>> scratch;
};

/// The records CSV reader (MiniMalloc's format: header id,lower,upper,size;
/// `upper` exclusive; extra columns allowed, a `name` column is kept).
[[nodiscard]] UsageProblem LoadCsvProblem(const std::string& path);

/// The same reader over an open stream; `source` names it in messages.
[[nodiscard]] UsageProblem ParseCsvProblem(std::istream& in,
                                           const std::string& source);

}  // namespace arenaplan

#endif  // ARENAPLAN_CODEGEN_INPUT_HPP_
