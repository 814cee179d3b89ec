// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// Options shared by several sub-commands, registered (one help text each)
// and parsed once here. Each parser throws InputError with a one-line
// message naming the option.
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
#include "codegen/regions/regions.hpp"
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
  bool no_fold = false;         ///< --no-fold
  bool kernel_scratch = false;  ///< --kernel-scratch
};

/// Registers `--no-fold` (models: plan the graph as the file has it, no
/// constant or graph folding, codegen/tflite/fold_model.hpp) into `no_fold`.
void AddNoFoldOption(CLI::App* cmd, bool* no_fold);

/// Registers `--assume-dim N` (N >= 1) into `assume_dim`.
void AddAssumeDimOption(CLI::App* cmd,
                        std::optional<std::uint64_t>* assume_dim);

/// Registers the model options `--fp32`, `--assume-dim`, `--scratch` and
/// `--no-fold`.
void AddModelOptions(CLI::App* cmd, ModelOptionArgs* args);

/// Registers `--align N` (N >= 1; ParseAlign checks the power of two).
void AddAlignOption(CLI::App* cmd, std::optional<std::uint64_t>* align);

/// `--overlap`, `--region` and `--region-search` as typed.
struct RegionArgs {
  bool overlap = false;
  std::vector<std::string> regions;  ///< NAME:BYTES[:SECTION], in order.
  std::string region_search = "greedy";
};

/// Registers `--overlap`, `--region` (repeatable) and `--region-search`.
void AddOverlapAndRegionOptions(CLI::App* cmd, RegionArgs* args);

/// The memory regions and the assignment search of `args`: refuses a
/// malformed or inconsistent region
/// (ParseRegion, CheckRegions) and a search other than greedy or exact.
struct RegionChoice {
  std::vector<RegionSpec> regions;  ///< Empty: one arena.
  RegionSearch search = RegionSearch::kGreedy;
};
[[nodiscard]] RegionChoice ParseRegionArgs(const RegionArgs& args);

/// The parsed InputOptions of `args` (every --scratch through ParseScratch).
[[nodiscard]] InputOptions ToInputOptions(const ModelOptionArgs& args);

/// The reader's warnings (UsageProblem::warnings), one line each on stderr.
void PrintWarnings(const UsageProblem& problem);

}  // namespace arenaplan

#endif  // ARENAPLAN_CODEGEN_CLI_OPTIONS_HPP_
