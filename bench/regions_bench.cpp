// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// Planning across two regions (32 KiB fast, 1 GiB slow; docs/regions.md)
// on inputs the greedy once replanned quadratically (issue 27): random
// records (n tensors over n / 2 operators, lifetimes of 1 to 8 operators,
// sizes 16 to 4096 bytes in steps of 16, traffic 1 to 8 x the size) and
// chains of QUANTIZE-like operators (tensor k of 1024 bytes written by
// operator k - 1 and read by operator k). Each region is planned with
// greedy-by-size so that the figure is the assignment's, not the exact
// offsets search's. Counters: the cost (traffic x rank) and the bytes of
// the fast region.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "codegen/planner/planner.hpp"
#include "codegen/regions/regions.hpp"

namespace arenaplan {
namespace {

std::vector<RegionSpec> TwoRegions() {
  return {{"fast", 32768, ".arena_fast"}, {"slow", 1u << 30, ".arena_slow"}};
}

UsageProblem RandomRecords(std::size_t n) {
  std::mt19937_64 rng(27);
  UsageProblem p;
  p.source = "bench";
  p.operator_count =
      static_cast<std::uint32_t>(std::max<std::size_t>(1, n / 2));
  for (std::size_t i = 0; i < n; ++i) {
    const auto first = static_cast<std::uint32_t>(rng() % p.operator_count);
    const std::uint32_t last =
        std::min<std::uint32_t>(p.operator_count - 1, first + rng() % 8);
    const std::uint64_t size = 16 * (1 + rng() % 256);
    p.records.push_back({first, last, size});
    p.traffic.push_back(size * (1 + rng() % 8));
    p.ids.push_back(std::to_string(i));
    p.names.emplace_back();
  }
  return p;
}

UsageProblem Chain(std::uint32_t ops) {
  UsageProblem p;
  p.source = "bench";
  p.operator_count = ops;
  for (std::uint32_t k = 0; k <= ops; ++k) {
    p.records.push_back({k == 0 ? 0 : k - 1, k == ops ? ops - 1 : k, 1024});
    p.traffic.push_back(k == 0 || k == ops ? 1024 : 2048);
    p.ids.push_back(std::to_string(k));
    p.names.emplace_back();
  }
  return p;
}

void Run(benchmark::State& state, const UsageProblem& problem) {
  PlanOptions options;
  options.strategy = "greedy-by-size";
  RegionPlan plan;
  for (auto _ : state) {
    plan = PlanRegions(problem, TwoRegions(), options, RegionSearch::kGreedy);
    benchmark::DoNotOptimize(plan.cost);
  }
  state.counters["tensors"] = static_cast<double>(problem.records.size());
  state.counters["cost"] = static_cast<double>(plan.cost);
  state.counters["fast_bytes"] = static_cast<double>(plan.region_bytes[0]);
}

void BM_RegionsRandomRecords(benchmark::State& state) {
  Run(state, RandomRecords(static_cast<std::size_t>(state.range(0))));
}

void BM_RegionsQuantizeChain(benchmark::State& state) {
  Run(state, Chain(static_cast<std::uint32_t>(state.range(0))));
}

BENCHMARK(BM_RegionsRandomRecords)
    ->Arg(500)
    ->Arg(1000)
    ->Arg(2000)
    ->Arg(10000)
    ->Arg(100000)
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_RegionsQuantizeChain)
    ->Arg(5000)
    ->Arg(10000)
    ->Arg(100000)
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace arenaplan
BENCHMARK_MAIN();
