// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// A network of the paper's zoo as tensor usage records.
#ifndef ARENAPLAN_CODEGEN_ZOO_LOAD_HPP_
#define ARENAPLAN_CODEGEN_ZOO_LOAD_HPP_

#include <string>

#include "codegen/input/input.hpp"
#include "codegen/records.hpp"

namespace arenaplan {

/// The records of network `name` (without the "zoo:" prefix), plus one
/// record per --scratch buffer. The zoo is fp32 and has no dynamic
/// dimensions, so options.fp32 and options.assume_dim change nothing.
/// Throws InputError for an unknown name or an operator out of range.
[[nodiscard]] UsageProblem LoadZooProblem(const std::string& name,
                                          const InputOptions& options);

}  // namespace arenaplan

#endif  // ARENAPLAN_CODEGEN_ZOO_LOAD_HPP_
