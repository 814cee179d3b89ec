// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// Option values shared by several sub-commands, parsed once here. Each
// parser throws InputError with a one-line message naming the option.
#ifndef ARENAPLAN_CODEGEN_CLI_OPTIONS_HPP_
#define ARENAPLAN_CODEGEN_CLI_OPTIONS_HPP_

#include <CLI/CLI.hpp>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "codegen/base/alignment.hpp"
#include "codegen/input/input.hpp"
#include "codegen/records.hpp"
#include "codegen/strategies/strategy.hpp"

namespace arenaplan {

/// `--approach NAME`: "offsets" or "shared-objects".
[[nodiscard]] Approach ParseApproach(const std::string& name);

/// The check of an unsigned option (`->check(UnsignedAtLeast(1))`): decimal
/// digits only, so "-1" is refused instead of wrapping to 2^64 - 1, and a
/// value of at least `min` that fits in 64 bits. CLI11 reports a failed
/// check as "--OPTION: ..." with exit status 2.
[[nodiscard]] CLI::Validator UnsignedAtLeast(std::uint64_t min);

/// The check of a time limit in seconds: a finite number >= 0 ("nan",
/// "inf" and negative numbers are refused).
[[nodiscard]] CLI::Validator Seconds();

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
