// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
#include "codegen/cli/options.hpp"

#include <charconv>
#include <iostream>
#include <limits>
#include <string_view>

#include "codegen/base/errors.hpp"

namespace arenaplan {

Approach ParseApproach(const std::string& name) {
  const std::optional<Approach> approach = ApproachFromName(name);
  if (!approach) {
    throw InputError("--approach " + name +
                     ": expected offsets or shared-objects");
  }
  return *approach;
}

CLI::Validator UnsignedAtLeast(std::uint64_t min) {
  return CLI::Validator(
      [min](std::string& text) -> std::string {
        std::uint64_t v = 0;
        const char* end = text.data() + text.size();
        auto [p, ec] = std::from_chars(text.data(), end, v);
        const bool digits =
            !text.empty() &&
            text.find_first_not_of("0123456789") == std::string::npos;
        if (!digits || ec != std::errc() || p != end) {
          return "'" + text +
                 "' is not a whole number >= " + std::to_string(min) +
                 " below 2^64";
        }
        if (v < min) {
          return text + " is below the minimum, " + std::to_string(min);
        }
        return "";
      },
      "UINT>=" + std::to_string(min));
}

CLI::Validator Seconds() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        double v = 0;
        const char* end = text.data() + text.size();
        auto [p, ec] = std::from_chars(text.data(), end, v);
        // Refuses NaN (no comparison holds), infinities and negatives.
        const bool finite_non_negative =
            v >= 0 && v <= std::numeric_limits<double>::max();
        if (text.empty() || ec != std::errc() || p != end ||
            !finite_non_negative) {
          return "'" + text + "' is not a number of seconds >= 0";
        }
        return "";
      },
      "SECONDS>=0");
}

std::pair<std::uint32_t, std::uint64_t> ParseScratch(const std::string& text) {
  const std::size_t colon = text.find(':');
  std::uint64_t op = 0;
  std::uint64_t bytes = 0;
  auto parse = [](std::string_view s, std::uint64_t& v) {
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    return !s.empty() && ec == std::errc() && p == s.data() + s.size();
  };
  if (colon == std::string::npos ||
      !parse(std::string_view(text).substr(0, colon), op) ||
      !parse(std::string_view(text).substr(colon + 1), bytes) ||
      op > std::numeric_limits<std::uint32_t>::max()) {
    throw InputError("--scratch " + text + ": expected OP_INDEX:BYTES");
  }
  return {static_cast<std::uint32_t>(op), bytes};
}

std::optional<Alignment> ParseAlign(const std::optional<std::uint64_t>& bytes) {
  if (!bytes) return std::nullopt;
  return Alignment::FromBytes(*bytes);
}

InputOptions ToInputOptions(const ModelOptionArgs& args) {
  InputOptions o;
  o.fp32 = args.fp32;
  o.assume_dim = args.assume_dim;
  o.fold = !args.no_fold;
  o.kernel_scratch = args.kernel_scratch;
  for (const std::string& s : args.scratch)
    o.scratch.push_back(ParseScratch(s));
  return o;
}

namespace {

/// `name` as an unsigned option of at least 1, stored in `*value`.
void AddPositiveOption(CLI::App* cmd, const char* name,
                       std::optional<std::uint64_t>* value, const char* help) {
  cmd->add_option(name, *value, help)->check(UnsignedAtLeast(1));
}

}  // namespace

void AddAssumeDimOption(CLI::App* cmd,
                        std::optional<std::uint64_t>* assume_dim) {
  AddPositiveOption(cmd, "--assume-dim", assume_dim,
                    "Models: value for dynamic (-1) dimensions, e.g. a batch "
                    "of 1 (>= 1)");
}

void AddModelOptions(CLI::App* cmd, ModelOptionArgs* args) {
  cmd->add_flag("--fp32", args->fp32,
                "Models: count every tensor as 4-byte elements");
  AddAssumeDimOption(cmd, &args->assume_dim);
  cmd->add_option("--scratch", args->scratch,
                  "Models: OP_INDEX:BYTES scratch buffer alive for one "
                  "operator (repeatable)");
  cmd->add_flag("--kernel-scratch", args->kernel_scratch,
                "Models: plan the scratch buffers of arenaplan's compiled "
                "kernels as compile does (one record per buffer, alive at "
                "its operator's step, named 'scratch of operator K ...')");
  AddNoFoldOption(cmd, &args->no_fold);
}

void AddNoFoldOption(CLI::App* cmd, bool* no_fold) {
  cmd->add_flag("--no-fold", *no_fold,
                "Models: keep every operator and tensor (no operator "
                "computed at generation time, no PAD folded into its "
                "convolution or pool, no in-place CONCATENATION, no RESHAPE "
                "alias; tflm never folds)");
}

void AddAlignOption(CLI::App* cmd, std::optional<std::uint64_t>* align) {
  AddPositiveOption(cmd, "--align", align,
                    "Round sizes and offsets up to N bytes, a power of two "
                    "(default: models 16, CSV 1)");
}

void AddOverlapAndRegionOptions(CLI::App* cmd, RegionArgs* args) {
  cmd->add_flag("--overlap", args->overlap,
                "Models: let an operator's output share bytes with the "
                "input it reads last where its kernel allows "
                "(docs/overlap.md); offsets heuristics and the exact search");
  cmd->add_option("--region", args->regions,
                  "NAME:BYTES[:SECTION] memory region, repeated, fastest "
                  "first (default section .arena_NAME); see docs/regions.md");
  cmd->add_option("--region-search", args->region_search,
                  "With --region: greedy (default, by access density) or "
                  "exact (branch and bound within the search's time limit)");
}

RegionChoice ParseRegionArgs(const RegionArgs& args) {
  RegionChoice choice;
  for (const std::string& text : args.regions) {
    choice.regions.push_back(ParseRegion(text));
  }
  if (!choice.regions.empty()) CheckRegions(choice.regions);
  if (args.region_search == "exact") {
    choice.search = RegionSearch::kExact;
  } else if (args.region_search != "greedy") {
    throw InputError("--region-search " + args.region_search +
                     ": expected greedy or exact");
  }
  return choice;
}

void PrintWarnings(const UsageProblem& problem) {
  for (const std::string& w : problem.warnings) {
    std::cerr << "arenaplan: " << w << '\n';
  }
}

}  // namespace arenaplan
