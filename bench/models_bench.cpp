// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// `best` on every model in ../shared/models (target: under 50 ms each on one
// core), both approaches. Reading the model is outside the timed loop.
#include <benchmark/benchmark.h>

#include <filesystem>
#include <string>

#include "codegen/input/input.hpp"
#include "codegen/load/load_problem.hpp"
#include "codegen/planner/planner.hpp"

namespace arenaplan {
namespace {

void BM_BestOnModel(benchmark::State& state, const std::string& path,
                    Approach approach) {
  InputOptions input;
  input.assume_dim = 1;  // hello_world declares a dynamic batch dimension
  const UsageProblem problem = LoadProblem(path, input);
  PlanOptions options;
  options.approach = approach;
  options.strategy = "best";
  std::uint64_t arena = 0;
  for (auto _ : state) {
    const PlanResult plan = Plan(problem, options);
    arena = plan.arena_bytes;
    benchmark::DoNotOptimize(arena);
  }
  state.counters["tensors"] = static_cast<double>(problem.records.size());
  state.counters["arena_bytes"] = static_cast<double>(arena);
}

int Register() {
  const std::filesystem::path dir =
      std::string(ARENAPLAN_SHARED_DIR) + "/models";
  if (!std::filesystem::exists(dir)) return 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() != ".tflite") continue;
    const std::string stem = entry.path().stem().string();
    for (Approach a : {Approach::kOffsets, Approach::kSharedObjects}) {
      const std::string name =
          "BM_Best/" + stem +
          (a == Approach::kOffsets ? "/offsets" : "/shared-objects");
      benchmark::RegisterBenchmark(name.c_str(), BM_BestOnModel,
                                   entry.path().string(), a)
          ->Unit(benchmark::kMillisecond);
    }
  }
  return 0;
}

const int kRegistered = Register();

}  // namespace
}  // namespace arenaplan

BENCHMARK_MAIN();
