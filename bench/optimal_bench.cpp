// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The exact Offset Calculation search (codegen/solver/exact.hpp):
//   * BM_ChallengingWithinCapacity/X: MiniMalloc's "challenging" instances
//     A..E of ../shared at --capacity 1048576, stopping at the first plan
//     that fits (the decision problem; target: under 1 s each on one core);
//   * BM_ChallengingMinimize/X: the same instances, smallest arena, with
//     `optimal`'s work budget (kOptimalWork, about 5 s on one core);
//   * BM_ModelOptimum/NAME: every .tflite model of ../shared/models (16-byte
//     alignment, the reader's default), smallest arena, 10 s, starting from
//     the best heuristic's plan as `best` does (dynamic dimensions: 1);
//   * BM_ModelSearchOnly/NAME: the same without the heuristic's plan;
//   * with --ablation only: BM_Ablation/SWITCH/X and BM_Ablation/SWITCH/Xrev,
//     A..E (and each time-reversed) at capacity 1048576 with one technique
//     of ExactTechniques switched off (SWITCH "all_on" is the default
//     search), 10 s each: reruns docs/optimal.md's comparison of techniques.
//     E.g. `optimal_bench --ablation --benchmark_filter=Ablation/memo`.
// Counters: arena (bytes), lower_bound (proven bytes), proven (1 when the
// arena is proven minimal, or for a capacity run when a plan fits; -1 when
// proven infeasible), nodes. One iteration each: a run is up to 10 s.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "codegen/input/input.hpp"
#include "codegen/planner/planner.hpp"
#include "codegen/records.hpp"
#include "codegen/solver/exact.hpp"
#include "codegen/strategies/strategy.hpp"
#include "codegen/tflite/load.hpp"

namespace arenaplan {
namespace {

const std::string kShared = ARENAPLAN_SHARED_DIR;

void Report(benchmark::State& state, const ExactResult& r) {
  state.counters["arena"] = static_cast<double>(r.arena_bytes);
  state.counters["lower_bound"] = static_cast<double>(r.lower_bound);
  state.counters["proven"] = r.status == ExactResult::kOptimal      ? 1
                             : r.status == ExactResult::kInfeasible ? -1
                                                                    : 0;
  state.counters["nodes"] = static_cast<double>(r.nodes);
}

std::vector<TensorUsageRecord> Challenging(const std::string& name) {
  return LoadCsvProblem(kShared + "/benchmarks/minimalloc-challenging/" + name +
                        ".1048576.csv")
      .records;
}

/// The same records with time reversed (first <-> last operator): the same
/// optimum, another search.
std::vector<TensorUsageRecord> Reversed(std::vector<TensorUsageRecord> r) {
  std::uint32_t last = 0;
  for (const TensorUsageRecord& t : r) last = std::max(last, t.last_op);
  for (TensorUsageRecord& t : r) {
    t = TensorUsageRecord{last - t.last_op, last - t.first_op, t.size};
  }
  return r;
}

void RunChallenging(benchmark::State& state, const std::string& name,
                    bool minimize) {
  const std::vector<TensorUsageRecord> records = Challenging(name);
  ExactOptions options;
  options.time_limit_s = 10;
  if (minimize) {
    // As `optimal` does: its work budget decides, the clock is a far cap.
    options.work_limit = kOptimalWork;
    options.time_limit_s = 300;
  }
  if (!minimize) {
    options.capacity = 1048576;
    options.minimize = false;
  }
  ExactResult r;
  for (auto _ : state) {
    r = SolveOffsetsExactly(records, options);
    benchmark::DoNotOptimize(r.arena_bytes);
  }
  Report(state, r);
  if (!minimize) {
    // "Solved" = a plan within the capacity.
    state.counters["proven"] =
        r.status == ExactResult::kOptimal || r.status == ExactResult::kFeasible
            ? 1
            : 0;
  }
}

/// Best offsets heuristic plan (smallest arena, registry order on ties).
std::vector<std::uint64_t> BestHeuristic(
    const std::vector<TensorUsageRecord>& records) {
  std::vector<std::uint64_t> best;
  std::uint64_t best_arena = ~std::uint64_t{0};
  for (const StrategyInfo& s : AllStrategies()) {
    if (s.approach != Approach::kOffsets || s.offsets == nullptr) continue;
    if (s.max_records != 0 && records.size() > s.max_records) continue;
    const OffsetsAssignment a = s.offsets(records);
    std::uint64_t arena = 0;
    for (std::size_t i = 0; i < records.size(); ++i) {
      arena = std::max(arena, a.offsets[i] + records[i].size);
    }
    if (arena < best_arena) {
      best_arena = arena;
      best = a.offsets;
    }
  }
  return best;
}

void RunModel(benchmark::State& state, const std::string& path,
              bool with_heuristic) {
  InputOptions input;
  input.assume_dim = 1;  // batch 1 for models with a dynamic batch dimension
  const UsageProblem loaded = LoadTfliteProblem(path, input);
  const UsageProblem p = AlignProblem(loaded, loaded.default_alignment);
  std::vector<TensorUsageRecord> records;
  for (const TensorUsageRecord& r : p.records) {
    if (r.size != 0) records.push_back(r);
  }
  ExactOptions options;
  options.time_limit_s = 10;
  if (with_heuristic) options.initial_offsets = BestHeuristic(records);
  ExactResult r;
  for (auto _ : state) {
    r = SolveOffsetsExactly(records, options);
    benchmark::DoNotOptimize(r.arena_bytes);
  }
  Report(state, r);
  state.counters["tensors"] = static_cast<double>(records.size());
}

/// BM_Ablation: `records` at capacity 1048576 with `techniques`, 10 s.
void RunAblation(benchmark::State& state,
                 const std::vector<TensorUsageRecord>& records,
                 const ExactTechniques& techniques) {
  ExactOptions options;
  options.time_limit_s = 10;
  options.capacity = 1048576;
  options.minimize = false;
  options.techniques = techniques;
  ExactResult r;
  for (auto _ : state) {
    r = SolveOffsetsExactly(records, options);
    benchmark::DoNotOptimize(r.arena_bytes);
  }
  Report(state, r);
  state.counters["proven"] =
      r.status == ExactResult::kOptimal || r.status == ExactResult::kFeasible
          ? 1
          : 0;
}

void RegisterAblation() {
  std::vector<std::pair<std::string, ExactTechniques>> variants;
  variants.emplace_back("all_on", ExactTechniques{});
  auto off = [&](const char* name, bool ExactTechniques::*field) {
    ExactTechniques t;
    t.*field = false;
    variants.emplace_back(name, t);
  };
  off("memo", &ExactTechniques::memo);
  off("release_bound", &ExactTechniques::release_bound);
  off("lifted_releases", &ExactTechniques::lifted_releases);
  off("dominance", &ExactTechniques::dominance);
  off("decomposition", &ExactTechniques::decomposition);
  off("rerank_groups", &ExactTechniques::rerank_groups);
  off("restarts", &ExactTechniques::restarts);
  off("bound_targets", &ExactTechniques::bound_targets);
  for (const auto& [variant, techniques] : variants) {
    for (const char* name : {"A", "B", "C", "D", "E"}) {
      for (bool reversed : {false, true}) {
        benchmark::RegisterBenchmark(
            ("BM_Ablation/" + variant + "/" + name + (reversed ? "rev" : ""))
                .c_str(),
            [name, reversed, t = techniques](benchmark::State& s) {
              const std::vector<TensorUsageRecord> r = Challenging(name);
              RunAblation(s, reversed ? Reversed(r) : r, t);
            })
            ->Iterations(1)
            ->Unit(benchmark::kMillisecond);
      }
    }
  }
}

void RegisterAll() {
  for (const char* name : {"A", "B", "C", "D", "E"}) {
    benchmark::RegisterBenchmark(
        (std::string("BM_ChallengingWithinCapacity/") + name).c_str(),
        [name](benchmark::State& s) { RunChallenging(s, name, false); })
        ->Iterations(1)
        ->Unit(benchmark::kMillisecond);
  }
  for (const char* name : {"A", "B", "C", "D", "E"}) {
    benchmark::RegisterBenchmark(
        (std::string("BM_ChallengingMinimize/") + name).c_str(),
        [name](benchmark::State& s) { RunChallenging(s, name, true); })
        ->Iterations(1)
        ->Unit(benchmark::kMillisecond);
  }
  std::error_code ec;
  std::vector<std::filesystem::path> models;
  for (const auto& entry :
       std::filesystem::directory_iterator(kShared + "/models", ec)) {
    if (entry.path().extension() == ".tflite") models.push_back(entry.path());
  }
  std::sort(models.begin(), models.end());
  for (const auto& path : models) {
    benchmark::RegisterBenchmark(
        ("BM_ModelOptimum/" + path.stem().string()).c_str(),
        [p = path.string()](benchmark::State& s) { RunModel(s, p, true); })
        ->Iterations(1)
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark(
        ("BM_ModelSearchOnly/" + path.stem().string()).c_str(),
        [p = path.string()](benchmark::State& s) { RunModel(s, p, false); })
        ->Iterations(1)
        ->Unit(benchmark::kMillisecond);
  }
}

}  // namespace
}  // namespace arenaplan

/// `--ablation` (removed before Google Benchmark sees the flags) registers
/// the BM_Ablation runs instead of the default suite.
int main(int argc, char** argv) {
  bool ablation = false;
  int kept = 0;
  for (int i = 0; i < argc; ++i) {
    if (i > 0 && std::string(argv[i]) == "--ablation") {
      ablation = true;
    } else {
      argv[kept++] = argv[i];
    }
  }
  argc = kept;
  if (ablation) {
    arenaplan::RegisterAblation();
  } else {
    arenaplan::RegisterAll();
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
