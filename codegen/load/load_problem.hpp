// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// Turns an INPUT argument into tensor usage records by picking its reader:
// a records CSV (codegen/input/input.hpp), a .tflite model (codegen/tflite/), or a
// network of the paper's zoo ("zoo:NAME", codegen/zoo/). This room sits
// above the readers, so no reader depends on another.
#ifndef ARENAPLAN_CODEGEN_LOAD_LOAD_PROBLEM_HPP_
#define ARENAPLAN_CODEGEN_LOAD_LOAD_PROBLEM_HPP_

#include <string>

#include "codegen/input/input.hpp"
#include "codegen/records.hpp"

namespace arenaplan {

/// Reads INPUT by its kind: "zoo:NAME", a file starting with the TFLite
/// identifier "TFL3" (at byte 4) or ending in .tflite, else a records CSV.
/// Throws InputError with a one-line "FILE[:LINE]: what" message.
[[nodiscard]] UsageProblem LoadProblem(const std::string& input,
                                       const InputOptions& options);

}  // namespace arenaplan

#endif  // ARENAPLAN_CODEGEN_LOAD_LOAD_PROBLEM_HPP_
