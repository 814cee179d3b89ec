// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The exact search on instance classes it was not tuned on, each instance a
// perfect packing (codegen/solver/instances.hpp: a rectangle of W = 1 MiB x
// T = 2,000 operators cut into buffers, 16-byte cuts, so the optimum is W
// and every operator is tight). Ten seeds (1..10) per class:
//   guillotine      100..500 buffers, guillotine cuts (half across time)
//   strips          100..500 buffers, random-height strips cut across time
//   equal_sizes     100..500 buffers, equal-height strips (one size a strip)
//   long_lived      100..500 buffers, a tenth small and long-lived
//   reversed        guillotine instances with time reversed
//   permuted        guillotine instances in a random record order
//   thousands       2,000..4,000 buffers, guillotine cuts
// BM_Packing1s/CLASS: each instance at capacity W (stop at the first plan
// that fits) with the work budget of `best` (kBestWork, under 1 s on one
// core); counter `solved` = fraction packed within W, `nodes` = total.
// BM_Packing10s/CLASS (only with --long, not in `make bench`): the same
// with `optimal`'s budget (kOptimalWork, about 5 s).
// The budgets are deterministic (work units, not the clock), so `solved`
// is the same on every machine; a wall-clock cap of 120 s per instance
// only guards against a runaway.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <string>
#include <vector>

#include "codegen/solver/exact.hpp"
#include "codegen/solver/instances.hpp"

namespace arenaplan {
namespace {

constexpr std::uint64_t kWidth = 1 << 20;
constexpr int kSeeds = 10;

std::vector<TensorUsageRecord> Instance(const std::string& cls,
                                        std::uint64_t seed) {
  PerfectPackingParams p;
  p.width = kWidth;
  p.operators = 2000;
  p.align = 16;
  p.buffers = 100 + 400 * (seed - 1) / (kSeeds - 1);
  if (cls == "strips") p.cut = PackingCut::kStrips;
  if (cls == "equal_sizes") p.cut = PackingCut::kEqualSizes;
  if (cls == "long_lived") p.cut = PackingCut::kLongLivedSmall;
  if (cls == "thousands") p.buffers = 2000 + 2000 * (seed - 1) / (kSeeds - 1);
  std::vector<TensorUsageRecord> r = GeneratePerfectPacking(p, seed);
  if (cls == "reversed") r = ReverseTime(r);
  if (cls == "permuted") r = PermuteRecords(r, seed);
  return r;
}

void RunClass(benchmark::State& state, const std::string& cls,
              std::uint64_t work) {
  std::vector<std::vector<TensorUsageRecord>> instances;
  for (std::uint64_t seed = 1; seed <= kSeeds; ++seed) {
    instances.push_back(Instance(cls, seed));
  }
  int solved = 0;
  std::uint64_t nodes = 0;
  for (auto _ : state) {
    solved = 0;
    nodes = 0;
    for (const auto& r : instances) {
      ExactOptions options;
      options.capacity = kWidth;
      options.minimize = false;
      options.work_limit = work;
      options.time_limit_s = 120;
      const ExactResult result = SolveOffsetsExactly(r, options);
      if ((result.status == ExactResult::kOptimal ||
           result.status == ExactResult::kFeasible) &&
          result.arena_bytes <= kWidth) {
        ++solved;
      }
      nodes += result.nodes;
      benchmark::DoNotOptimize(result.arena_bytes);
    }
  }
  state.counters["solved"] = static_cast<double>(solved) / kSeeds;
  state.counters["nodes"] = static_cast<double>(nodes);
}

void Register(bool long_runs) {
  for (const char* cls : {"guillotine", "strips", "equal_sizes", "long_lived",
                          "reversed", "permuted", "thousands"}) {
    benchmark::RegisterBenchmark(
        (std::string("BM_Packing1s/") + cls).c_str(),
        [cls](benchmark::State& s) { RunClass(s, cls, kBestWork); })
        ->Iterations(1)
        ->Unit(benchmark::kSecond);
    if (long_runs) {
      benchmark::RegisterBenchmark(
          (std::string("BM_Packing10s/") + cls).c_str(),
          [cls](benchmark::State& s) { RunClass(s, cls, kOptimalWork); })
          ->Iterations(1)
          ->Unit(benchmark::kSecond);
    }
  }
}

}  // namespace
}  // namespace arenaplan

/// `--long` (removed before Google Benchmark sees the flags) adds the
/// BM_Packing10s runs.
int main(int argc, char** argv) {
  bool long_runs = false;
  int kept = 0;
  for (int i = 0; i < argc; ++i) {
    if (i > 0 && std::string(argv[i]) == "--long") {
      long_runs = true;
    } else {
      argv[kept++] = argv[i];
    }
  }
  argc = kept;
  arenaplan::Register(long_runs);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
