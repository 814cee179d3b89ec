// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// `arenaplan compile MODEL --out-dir DIR --namespace NAME`: ahead-of-time
// code for firmware (see codegen/compile/generate.hpp). DIR is created like
// `mkdir -p`; all files are written atomically, and nothing is written on
// any error.
#include <cstdint>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "codegen/base/atomic_file.hpp"
#include "codegen/base/errors.hpp"
#include "codegen/cli/commands.hpp"
#include "codegen/cli/options.hpp"
#include "codegen/compile/generate.hpp"
#include "codegen/emit/regions.hpp"
#include "codegen/regions/regions.hpp"
#include "codegen/tflite/model.hpp"

namespace arenaplan {
namespace {

struct CompileArgs {
  std::string model;
  std::string out_dir;
  std::string namespace_name;
  std::string file_stem;
  std::string approach = "offsets";
  std::string strategy = "best";
  std::optional<std::uint64_t> align;
  std::optional<std::uint64_t> assume_dim;
  bool no_fold = false;
  RegionArgs regions;  // --overlap, --region, --region-search
  bool fuse = false;   // --fuse (docs/fuse.md)
};

/// "43 operators in the file, 37 after folding (6 computed at generation
/// time: operator 33 SHAPE -> tensor 97, ...; 7 folded into other operators
/// or aliases (a step each, no code)), kOperatorCount 37": the
/// file's count, the count left once constants are computed (the plan's
/// steps) and the generated header's kOperatorCount (the steps of the
/// fused problem under --fuse).
std::string OperatorCountText(const compile::CompiledModel& out) {
  const std::size_t left = out.file_operator_count - out.folded.size();
  std::string s = std::to_string(out.file_operator_count) +
                  " operators in the file, " + std::to_string(left) +
                  " after folding";
  std::string why;
  if (!out.folded.empty()) {
    why = std::to_string(out.folded.size()) +
          " computed at generation time: " + tflite::FoldedText(out.folded);
  }
  if (const std::size_t g = out.graph_folded.Total(); g != 0) {
    if (!why.empty()) why += "; ";
    why += std::to_string(g) +
           " folded into other operators or aliases (a step each, no code)";
  }
  if (!why.empty()) s += " (" + why + ")";
  return s + ", kOperatorCount " +
         std::to_string(out.plan.problem.operator_count);
}

int RunCompile(const CompileArgs& args) {
  compile::CompileOptions options;
  options.namespace_name = args.namespace_name;
  options.file_stem = args.file_stem;
  options.plan.approach = ParseApproach(args.approach);
  if (args.strategy == "all") {
    throw InputError(
        "--strategy: compile needs one plan; name a strategy or best");
  }
  options.plan.strategy = args.strategy;
  options.plan.alignment = ParseAlign(args.align);
  options.input.assume_dim = args.assume_dim;
  options.input.fold = !args.no_fold;
  options.input.overlap = args.regions.overlap;
  options.plan.overlap = args.regions.overlap;
  RegionChoice regions = ParseRegionArgs(args.regions);
  options.regions = std::move(regions.regions);
  options.region_search = regions.search;
  options.fuse = args.fuse;
  const tflite::Model model = tflite::ReadModelFile(args.model);
  const compile::CompiledModel out =
      compile::CompileModel(model, args.model, options);
  PrintWarnings(out.plan.problem);
  // --out-dir DIR is created with its parents (like mkdir -p) once the code
  // is made, so a model that does not compile leaves nothing behind.
  if (!args.out_dir.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(args.out_dir, ec);
    if (ec) {
      throw InputError("--out-dir " + args.out_dir +
                       ": cannot create the directory: " + ec.message());
    }
  }
  std::string dir = args.out_dir;
  if (!dir.empty() && dir.back() != '/') dir += '/';
  OutputSet files;
  files.KeepUnchanged(args.model, "MODEL");
  files.Add(dir + out.arena_header_name, out.arena_header);
  files.Add(dir + out.model_header_name, out.model_header);
  files.Add(dir + out.model_source_name, out.model_source);
  files.Commit();
  std::cout << "compiled " << args.model << ": " << OperatorCountText(out)
            << ", strategy " << out.plan.strategy << ", arena "
            << out.plan.arena_bytes << " bytes (lower bound "
            << out.plan.lower_bound;
  if (out.plan.overlap) {
    std::cout << ", overlap lower bound " << out.plan.overlap_lower_bound;
  }
  std::cout << "), constants " << out.constant_bytes << " bytes -> " << dir
            << out.model_source_name << "\n";
  if (out.region_plan) std::cout << RegionPlanSummary(*out.region_plan);
  return kExitOk;
}

}  // namespace

void RegisterCompileCommand(CLI::App& app, int* exit_code) {
  auto args = std::make_shared<CompileArgs>();
  CLI::App* cmd = app.add_subcommand(
      "compile",
      "Generate firmware code for a .tflite model (int8, int16 activations "
      "with int8 weights, or float32): plan header, constant arrays and "
      "Invoke() calling the kernels at planned arena offsets");
  cmd->add_option("MODEL", args->model, ".tflite model")->required();
  cmd->add_option("--out-dir", args->out_dir,
                  "Directory of the generated files (created with its "
                  "parents if missing)")
      ->required();
  cmd->add_option("--namespace", args->namespace_name,
                  "C++ namespace of the generated code")
      ->required();
  cmd->add_option("--stem", args->file_stem,
                  "File name stem (default: the namespace): STEM_arena.hpp, "
                  "STEM_model.hpp, STEM_model.cpp");
  cmd->add_option("--approach", args->approach,
                  "offsets (default) or shared-objects");
  cmd->add_option("--strategy", args->strategy,
                  "A strategy name or best (default)");
  AddAlignOption(cmd, &args->align);
  AddAssumeDimOption(cmd, &args->assume_dim);
  AddNoFoldOption(cmd, &args->no_fold);
  AddOverlapAndRegionOptions(cmd, &args->regions);
  cmd->add_flag("--fuse", args->fuse,
                "Run row-streaming segments with ring buffers (docs/fuse.md); "
                "implies --overlap");
  cmd->callback([args, exit_code] { *exit_code = RunCompile(*args); });
}

}  // namespace arenaplan
