// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// Option values shared by several sub-commands, parsed once here. Each
// parser throws InputError with a one-line message naming the option.
#ifndef ARENAPLAN_CODEGEN_CLI_OPTIONS_HPP_
#define ARENAPLAN_CODEGEN_CLI_OPTIONS_HPP_

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "codegen/alignment.hpp"
#include "codegen/input.hpp"
#include "codegen/records.hpp"
#include "codegen/strategy.hpp"

namespace arenaplan {

/// `--approach NAME`: "offsets" or "shared-objects".
[[nodiscard]] Approach ParseApproach(const std::string& name);

/// One `--scratch OP_INDEX:BYTES`: the operator index and the bytes.
[[nodiscard]] std::pair<std::uint32_t, std::uint64_t> ParseScratch(
    const std::string& text);

/// `--align N` when given: Alignment::FromBytes(N) (InputError unless N is
/// a power of two); nullopt: the input kind's default.
[[nodiscard]] std::optional<Alignment> ParseAlign(
    const std::optional<std::uint64_t>& bytes);

/// The model options as typed (`--fp32`, `--assume-dim`, `--scratch`).
struct ModelOptionArgs {
  bool fp32 = false;
  std::optional<std::uint64_t> assume_dim;
  std::vector<std::string> scratch;
};

/// The parsed InputOptions of `args` (every --scratch through ParseScratch).
[[nodiscard]] InputOptions ToInputOptions(const ModelOptionArgs& args);

/// The reader's warnings (UsageProblem::warnings), one line each on stderr.
void PrintWarnings(const UsageProblem& problem);

}  // namespace arenaplan

#endif  // ARENAPLAN_CODEGEN_CLI_OPTIONS_HPP_
