// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// `arenaplan plan` and `arenaplan strategies`. Data flows one way: input ->
// records -> strategy -> validator -> emitters; outputs are written only
// after every one of them has been produced, all together or none
// (OutputSet).
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "codegen/base/atomic_file.hpp"
#include "codegen/base/errors.hpp"
#include "codegen/cli/commands.hpp"
#include "codegen/cli/options.hpp"
#include "codegen/emit/csv.hpp"
#include "codegen/emit/header.hpp"
#include "codegen/emit/plan_text.hpp"
#include "codegen/emit/regions.hpp"
#include "codegen/emit/sha256.hpp"
#include "codegen/emit/svg.hpp"
#include "codegen/fuse/fuse.hpp"
#include "codegen/load/load_problem.hpp"
#include "codegen/overlap/overlap_pairs.hpp"
#include "codegen/planner/planner.hpp"
#include "codegen/regions/regions.hpp"
#include "codegen/strategies/strategy.hpp"
#include "codegen/tflite/fold_model.hpp"
#include "codegen/tflite/model.hpp"
#include "codegen/tflite/problem.hpp"

namespace arenaplan {
namespace {

/// Options of `arenaplan plan`, as parsed.
struct PlanArgs {
  std::string input;
  std::string approach = "offsets";
  std::string strategy = "best";
  std::optional<std::uint64_t> align;
  std::string out;
  std::string header;
  std::string name_space = "arenaplan_model";
  std::string svg;
  bool json = false;
  std::optional<double> time_limit;
  std::optional<std::uint64_t> capacity;
  std::optional<std::uint64_t> budget;  // exact search work units
  bool progress = false;                // --progress: lines on stderr
  bool fuse = false;  // --fuse: fused row-streaming segments (docs/fuse.md)
  ModelOptionArgs model;
  RegionArgs regions;  // --overlap, --region, --region-search
};

std::string HumanSummary(const PlanResult& plan) {
  char line[256];
  std::string out;
  std::snprintf(line, sizeof line,
                "input:       %s (%zu tensors, %u operators)\n",
                plan.problem.source.c_str(), plan.problem.records.size(),
                plan.problem.operator_count);
  out += line;
  std::snprintf(line, sizeof line, "plan:        %s / %s, alignment %llu\n",
                std::string(ApproachName(plan.approach)).c_str(),
                plan.strategy.c_str(),
                static_cast<unsigned long long>(plan.alignment));
  out += line;
  std::snprintf(line, sizeof line,
                "arena:       %llu bytes (lower bound %llu, naive %llu)\n",
                static_cast<unsigned long long>(plan.arena_bytes),
                static_cast<unsigned long long>(plan.lower_bound),
                static_cast<unsigned long long>(plan.naive_bytes));
  out += line;
  if (plan.overlap) {
    std::size_t used = 0;
    for (std::size_t k = 0; k < plan.overlaps.size(); ++k) {
      used += OverlapUsed(plan, k) ? 1 : 0;
    }
    std::snprintf(line, sizeof line,
                  "overlap:     overlap lower bound %llu bytes (lower bound "
                  "%llu without overlap); %zu allowed pairs, %zu used\n",
                  static_cast<unsigned long long>(plan.overlap_lower_bound),
                  static_cast<unsigned long long>(plan.lower_bound),
                  plan.overlaps.size(), used);
    out += line;
    std::snprintf(line, sizeof line,
                  "proven:      no plan with these overlaps needs less than "
                  "%llu bytes%s\n",
                  static_cast<unsigned long long>(plan.lower_bound_proven),
                  plan.optimal ? ": this plan is optimal" : "");
    out += line;
  }
  if (plan.capped_after != SIZE_MAX) {
    std::snprintf(line, sizeof line,
                  "capped:      %s spent its work cap after %zu of %zu "
                  "records; the rest were placed by its bounded rule "
                  "(docs/strategies.md)\n",
                  plan.strategy.c_str(), plan.capped_after,
                  plan.problem.records.size());
    out += line;
  }
  if (plan.problem.persistent_bytes != 0) {
    std::snprintf(
        line, sizeof line,
        "persistent:  %llu bytes outside the plan (variable tensors)\n",
        static_cast<unsigned long long>(plan.problem.persistent_bytes));
    out += line;
  }
  return out;
}

/// The largest byte count the firmware header can hold: its constants are
/// std::size_t literals and kArenaSize sizes one array, and no C++ object
/// may exceed PTRDIFF_MAX (2^63 - 1 on a 64-bit host; the header's own
/// static_assert refuses what a smaller size_t cannot hold).
constexpr std::uint64_t kHeaderMaxBytes =
    std::numeric_limits<std::int64_t>::max();

/// Refuses (InputError) a plan whose arena or naive total is beyond
/// kHeaderMaxBytes: its header would not compile.
void CheckHeaderHolds(const PlanResult& plan, const std::string& path) {
  if (plan.arena_bytes > kHeaderMaxBytes ||
      plan.naive_bytes > kHeaderMaxBytes) {
    throw InputError("--header " + path + ": arena of " +
                     std::to_string(plan.arena_bytes) + " bytes (naive " +
                     std::to_string(plan.naive_bytes) +
                     ") is beyond what a header can hold (at most " +
                     std::to_string(kHeaderMaxBytes) + " bytes, 2^63 - 1)");
  }
}

/// The options of `plan --header`: the namespace, the input's file name
/// and SHA-256 (the zoo:NAME text and no hash for a zoo input) and every
/// record's size in bytes as its exact size.
HeaderOptions PlanHeaderOptions(const PlanArgs& args,
                                const UsageProblem& problem) {
  HeaderOptions header;
  header.namespace_name = args.name_space;
  const bool is_file = args.input.rfind("zoo:", 0) != 0;
  header.input_name =
      is_file ? std::filesystem::path(args.input).filename().string()
              : args.input;
  if (is_file) header.input_sha256 = Sha256FileHex(args.input);
  header.tensor_bytes.reserve(problem.records.size());
  for (const TensorUsageRecord& r : problem.records) {
    header.tensor_bytes.push_back(r.size);
  }
  return header;
}

/// `plan --region ...`: the plan across memory regions and its outputs
/// (codegen/regions/regions.hpp), written together or not at all.
int RunRegionPlan(const PlanArgs& args, const PlanOptions& options,
                  const UsageProblem& problem, const RegionChoice& regions) {
  if (args.strategy == "all") {
    throw InputError(
        "--region needs one plan a region; it does not go with "
        "--strategy all");
  }
  if (args.capacity) {
    throw InputError(
        "--capacity does not go with --region (each region has its own)");
  }
  if (!args.svg.empty()) {
    throw InputError("--svg does not go with --region");
  }
  const RegionPlan plan =
      PlanRegions(problem, regions.regions, options, regions.search);
  if (regions.search == RegionSearch::kExact && !plan.cost_optimal) {
    std::cerr << "arenaplan: the time limit ended the exact assignment "
                 "search: this assignment may differ on another machine\n";
  }
  OutputSet files;
  if (args.input.rfind("zoo:", 0) != 0)
    files.KeepUnchanged(args.input, "INPUT");
  if (!args.out.empty()) files.Add(args.out, RegionPlanCsv(plan), "--out");
  if (!args.header.empty()) {
    const HeaderOptions header = PlanHeaderOptions(args, problem);
    // One region: today's header (the region's section is then chosen by
    // ARENAPLAN_ARENA_SECTION, as before).
    if (plan.regions.size() == 1) {
      CheckHeaderHolds(plan.plans[0], args.header);
      files.Add(args.header, EmitHeader(plan.plans[0], header), "--header");
    } else {
      files.Add(args.header, EmitRegionHeader(plan, header), "--header");
    }
  }
  files.Commit();
  std::cout << (args.json ? RegionPlanJson(plan) : RegionPlanSummary(plan));
  return kExitOk;
}

/// `plan --fuse`: the fused segmentation of a model (codegen/fuse/), planned
/// with its rings and overlap pairs.
int RunFusedPlan(const PlanArgs& args, PlanOptions options,
                 const InputOptions& input) {
  if (args.strategy == "all" || args.strategy == "optimal") {
    throw InputError("--fuse plans with the overlap pairs: --strategy " +
                     args.strategy + " does not go with it");
  }
  if (!args.header.empty()) {
    throw InputError("--fuse does not write --header (use compile --fuse)");
  }
  if (input.fp32) throw InputError("--fuse and --fp32 exclude each other");
  // Folded as compile --fuse folds it (codegen/tflite/fold_model.hpp).
  const tflite::FoldedModel folded =
      tflite::FoldModel(tflite::ReadModelFile(args.input), input);
  const tflite::Model& model = folded.model;
  const tflite::TfliteProblem problem =
      tflite::BuildProblem(model, tflite::StepOptions(folded, input));
  const std::vector<OverlapPair> pairs =
      overlap::FindOverlapPairs(model, problem);
  const Alignment alignment = options.alignment.value_or(kModelAlignment);
  options.overlap = true;
  const fuse::FusePlan fused = fuse::PlanLeanFusion(
      model, problem, pairs, alignment,
      [&](const UsageProblem& q) { return Plan(q, options).arena_bytes; });
  PrintWarnings(fused.problem);
  const PlanResult plan = Plan(fused.problem, options);
  OutputSet files;
  files.KeepUnchanged(args.input, "INPUT");
  if (!args.out.empty()) files.Add(args.out, PlanCsv(plan), "--out");
  if (!args.svg.empty()) {
    SvgSegments segs;
    for (std::size_t s = 0; s < fused.step_segment.size(); ++s) {
      if (fused.step_segment[s] < 0) continue;
      segs.steps.push_back(static_cast<std::uint32_t>(s));
      segs.labels.push_back("segment: operators " +
                            std::to_string(fused.step_first_op[s]) + "-" +
                            std::to_string(fused.step_last_op[s]));
    }
    for (const auto& rings : fused.ring_record) {
      for (std::int32_t r : rings) {
        if (r >= 0) segs.rings.push_back(static_cast<std::uint32_t>(r));
      }
    }
    files.Add(args.svg, EmitSvg(plan, segs), "--svg");
  }
  files.Commit();
  if (args.json) {
    std::string json = PlanJson(plan, true);
    const std::size_t close = json.rfind('}');
    json.insert(close, "," + fuse::FusedJsonFields(fused, model, alignment));
    std::cout << json;
  } else {
    std::cout << HumanSummary(plan)
              << fuse::FusedSummary(fused, model, alignment);
  }
  return kExitOk;
}

int RunPlan(const PlanArgs& args) {
  PlanOptions options;
  options.approach = ParseApproach(args.approach);
  options.strategy = args.strategy;
  options.alignment = ParseAlign(args.align);
  options.time_limit_s = args.time_limit;
  options.capacity = args.capacity;
  options.work_limit = args.budget;
  if (args.progress) options.on_progress = ProgressLines(std::cerr);
  options.overlap = args.regions.overlap;
  const RegionChoice regions = ParseRegionArgs(args.regions);
  InputOptions input = ToInputOptions(args.model);
  input.overlap = args.regions.overlap;
  if (args.fuse) {
    if (!regions.regions.empty() || args.input.rfind("zoo:", 0) == 0) {
      throw InputError("--fuse needs a .tflite model and one region");
    }
    return RunFusedPlan(args, options, input);
  }
  const UsageProblem problem = LoadProblem(args.input, input);
  PrintWarnings(problem);
  if (!regions.regions.empty()) {
    return RunRegionPlan(args, options, problem, regions);
  }

  if (args.strategy == "all") {
    if (!args.out.empty() || !args.header.empty() || !args.svg.empty()) {
      throw InputError(
          "--out, --header and --svg need one plan; they do not go with "
          "--strategy all");
    }
    const std::vector<PlanResult> plans = PlanAll(problem, options);
    std::cout << StrategyTable(plans, args.json);
    return kExitOk;
  }

  const PlanResult plan = Plan(problem, options);
  if (const std::string note = SearchStopNote(plan, options); !note.empty()) {
    std::cerr << note << "\n";
  }
  // Every requested file, written together or not at all.
  OutputSet files;
  if (args.input.rfind("zoo:", 0) != 0)
    files.KeepUnchanged(args.input, "INPUT");
  if (!args.out.empty()) files.Add(args.out, PlanCsv(plan), "--out");
  if (!args.header.empty()) {
    CheckHeaderHolds(plan, args.header);
    files.Add(args.header, EmitHeader(plan, PlanHeaderOptions(args, problem)),
              "--header");
  }
  if (!args.svg.empty()) files.Add(args.svg, EmitSvg(plan), "--svg");
  files.Commit();
  std::cout << (args.json ? PlanJson(plan, true) : HumanSummary(plan));
  return kExitOk;
}

}  // namespace

void RegisterPlanCommands(CLI::App& app, int* exit_code) {
  // Option storage lives as long as the callbacks that hold it.
  auto plan_args = std::make_shared<PlanArgs>();
  CLI::App* plan = app.add_subcommand(
      "plan", "Plan INPUT (records CSV, .tflite model, or zoo:NAME)");
  plan->add_option("INPUT", plan_args->input, "Input file or zoo:NAME")
      ->required();
  plan->add_option("--approach", plan_args->approach,
                   "offsets (default) or shared-objects");
  plan->add_option("--strategy", plan_args->strategy,
                   "A strategy name (see 'arenaplan strategies'), best "
                   "(default), all, or optimal (offsets: exact search)");
  AddAlignOption(plan, &plan_args->align);
  plan->add_option("--out", plan_args->out,
                   "Write id,lower,upper,size,offset[,object] CSV here");
  plan->add_flag("--json", plan_args->json, "Print JSON on stdout");
  plan->add_option("--header", plan_args->header,
                   "Write the firmware header (constexpr arena and offsets)");
  plan->add_option("--namespace", plan_args->name_space,
                   "C++ namespace of the header's constants")
      ->default_str("arenaplan_model");
  plan->add_option("--svg", plan_args->svg, "Write a picture of the plan");
  plan->add_option("--time-limit", plan_args->time_limit,
                   "Wall-clock safety cap of the exact search in seconds "
                   "(optimal 300, best 30)")
      ->check(Seconds());
  plan->add_option("--budget", plan_args->budget,
                   "Work budget of the exact search (deterministic; 0 = "
                   "none; default optimal 350000000, best 40000000)")
      ->check(UnsignedAtLeast(0));
  plan->add_flag("--progress", plan_args->progress,
                 "Print the exact search's best arena and lower bound on "
                 "stderr as they improve");
  plan->add_option("--capacity", plan_args->capacity,
                   "Find a plan within N bytes or prove none exists (exit 3)")
      ->check(UnsignedAtLeast(0));
  AddOverlapAndRegionOptions(plan, &plan_args->regions);
  plan->add_flag("--fuse", plan_args->fuse,
                 "Models: fuse runs of row-wise operators into row-streaming "
                 "segments with ring buffers (docs/fuse.md); implies "
                 "--overlap");
  AddModelOptions(plan, &plan_args->model);
  plan->callback([exit_code, plan_args] { *exit_code = RunPlan(*plan_args); });

  auto list_approach = std::make_shared<std::string>();
  CLI::App* strategies =
      app.add_subcommand("strategies", "List the strategy names, one a line");
  strategies->add_option(
      "--approach", *list_approach,
      "Only this approach's names (offsets, shared-objects)");
  auto only_heuristics = std::make_shared<bool>(false);
  strategies->add_flag("--heuristics", *only_heuristics,
                       "Only the heuristics (no search)");
  strategies->callback([list_approach, only_heuristics] {
    // One name a line: the names of one approach, or (no --approach) every
    // name once, in registry order.
    std::optional<Approach> only;
    if (!list_approach->empty()) only = ParseApproach(*list_approach);
    std::vector<std::string_view> printed;
    for (const StrategyInfo& s : AllStrategies()) {
      if (only && s.approach != *only) continue;
      if (*only_heuristics && !s.IsHeuristic()) continue;
      if (std::find(printed.begin(), printed.end(), s.name) != printed.end()) {
        continue;
      }
      printed.push_back(s.name);
      std::cout << s.name << '\n';
    }
  });
}

}  // namespace arenaplan
