// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// Planning time of every registered strategy (both approaches, taken from
// AllStrategies()) on synthetic networks of 100, 1,000, 10,000 and 100,000
// tensors, on dense random intervals of 10^4, 10^5 and 10^6 tensors (one
// iteration each, every heuristic: the work cap of common/work_cap.hpp
// bounds those whose exact rule is quadratic there; the instances are
// GenerateDenseLifetimes of codegen/solver/instances.hpp), plus the
// MiniMalloc "challenging" instances A..E of ../shared.
//
// Synthetic generator (fixed seed per size, so runs are comparable): a chain
// of operators built from blocks drawn at random,
//   - 60% plain layers: one tensor [op, op + 1];
//   - 25% residual blocks of depth d in 2..4: the block input lives
//     [op, op + d] (read again by the add), its body is a chain of d - 1
//     tensors;
//   - 15% branching blocks of k in 2..4 branches: the input lives
//     [op, op + k] (read by every branch head), branch j's output lives
//     [op + 1 + j, op + k + 1] until the concat.
// Sizes follow a CNN's spread: a stage base of 1.6 MB (112x112x32 fp32)
// halved every 40 tensors and reset every 6 stages (so 25 KB .. 1.6 MB), each
// tensor the base times 1/4, 2/4, 4/4 or 6/4, rounded up to 16 bytes.
//
// Counters: arena_over_lb = arena / lower bound of the approach (max breadth
// for offsets, sum of positional maximums for shared objects);
// exact_fraction = the share of records placed before the strategy's work
// cap was spent (1 = never spent). A strategy is
// skipped (the benchmark name ends in "/skipped_above_max_records") when the
// instance is larger than its StrategyInfo::max_records.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <filesystem>
#include <map>
#include <numeric>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "codegen/input/input.hpp"
#include "codegen/records.hpp"
#include "codegen/solver/instances.hpp"
#include "codegen/strategies/strategy.hpp"

namespace arenaplan {
namespace {

std::vector<TensorUsageRecord> MakeNetwork(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int> kind(0, 99);
  std::uniform_int_distribution<int> small(2, 4);
  std::uniform_int_distribution<int> factor(0, 3);
  constexpr std::array<std::uint64_t, 4> kFactors = {1, 2, 4, 6};
  std::vector<TensorUsageRecord> out;
  out.reserve(n + 8);
  auto size = [&] {
    const std::uint64_t stage = (out.size() / 40) % 6;
    const std::uint64_t base = (112ULL * 112 * 32 * 4) >> stage;
    const std::uint64_t bytes = base * kFactors.at(factor(rng)) / 4;
    return (bytes + 15) / 16 * 16;
  };
  auto add = [&](std::uint32_t first, std::uint32_t last) {
    out.push_back(TensorUsageRecord{first, last, size()});
  };
  std::uint32_t op = 0;
  while (out.size() < n) {
    const int k = kind(rng);
    if (k < 60) {
      add(op, op + 1);
      op += 1;
    } else if (k < 85) {
      const auto d = static_cast<std::uint32_t>(small(rng));
      add(op, op + d);
      for (std::uint32_t j = 1; j < d; ++j) add(op + j, op + j + 1);
      op += d;
    } else {
      const auto b = static_cast<std::uint32_t>(small(rng));
      add(op, op + b);
      for (std::uint32_t j = 0; j < b; ++j) add(op + 1 + j, op + b + 1);
      op += b + 1;
    }
  }
  out.resize(n);
  return out;
}

struct Instance {
  std::vector<TensorUsageRecord> records;
  ProfileSummary summary;
};

const Instance& Synthetic(std::size_t n) {
  static std::map<std::size_t, Instance> cache;
  auto it = cache.find(n);
  if (it == cache.end()) {
    Instance inst;
    inst.records = MakeNetwork(n, 1000 + n);
    inst.summary = SummarizeProfiles(inst.records);
    it = cache.emplace(n, std::move(inst)).first;
  }
  return it->second;
}

const Instance& Dense(std::size_t n) {
  static std::map<std::size_t, Instance> cache;
  auto it = cache.find(n);
  if (it == cache.end()) {
    Instance inst;
    inst.records = GenerateDenseLifetimes(n, 2000 + n);
    inst.summary = SummarizeProfiles(inst.records);
    it = cache.emplace(n, std::move(inst)).first;
  }
  return it->second;
}

/// Arena (or footprint) in bytes, and the records placed before the work
/// cap was spent (SIZE_MAX when never).
struct RunResult {
  std::uint64_t arena = 0;
  std::size_t capped_after = SIZE_MAX;
};

RunResult RunOnce(const StrategyInfo& s,
                  std::span<const TensorUsageRecord> records) {
  RunResult out;
  if (s.approach == Approach::kOffsets) {
    const OffsetsAssignment a = s.offsets(records);
    for (std::size_t i = 0; i < records.size(); ++i) {
      out.arena = std::max(out.arena, a.offsets[i] + records[i].size);
    }
    out.capped_after = a.capped_after;
    return out;
  }
  const SharedObjectsAssignment a = s.shared_objects(records);
  out.arena = std::accumulate(a.object_sizes.begin(), a.object_sizes.end(),
                              std::uint64_t{0});
  out.capped_after = a.capped_after;
  return out;
}

void Measure(benchmark::State& state, const StrategyInfo& s,
             const Instance& inst) {
  RunResult run;
  for (auto _ : state) {
    run = RunOnce(s, inst.records);
    benchmark::DoNotOptimize(run.arena);
  }
  const std::uint64_t arena = run.arena;
  const std::uint64_t lower = s.approach == Approach::kOffsets
                                  ? inst.summary.offsets_lower_bound
                                  : inst.summary.shared_objects_lower_bound;
  state.counters["arena"] = static_cast<double>(arena);
  state.counters["lower_bound"] = static_cast<double>(lower);
  state.counters["arena_over_lb"] =
      lower == 0 ? 1.0
                 : static_cast<double>(arena) / static_cast<double>(lower);
  // Fraction of the records placed by the strategy's own rule before its
  // work cap (common/work_cap.hpp) was spent: 1 when never spent.
  state.counters["exact_fraction"] =
      run.capped_after == SIZE_MAX || inst.records.empty()
          ? 1.0
          : static_cast<double>(run.capped_after) /
                static_cast<double>(inst.records.size());
  state.SetItemsProcessed(state.iterations() *
                          static_cast<std::int64_t>(inst.records.size()));
}

/// The approach's name as a string, for benchmark names.
std::string ApproachText(Approach a) { return std::string(ApproachName(a)); }

void RegisterSynthetic() {
  for (const std::size_t n : {100, 1000, 10000, 100000}) {
    for (const StrategyInfo& s : AllStrategies()) {
      if (!s.IsHeuristic()) continue;  // optimal_bench measures the search
      std::string name = "synthetic/" + ApproachText(s.approach) + "/" +
                         std::string(s.name) + "/" + std::to_string(n);
      if (s.max_records != 0 && n > s.max_records) {
        benchmark::RegisterBenchmark(
            (name + "/skipped_above_max_records").c_str(),
            [](benchmark::State& state) {
              for (auto _ : state) {
              }
              state.SkipWithError("above StrategyInfo::max_records");
            });
        continue;
      }
      benchmark::RegisterBenchmark(name.c_str(), [&s,
                                                  n](benchmark::State& state) {
        Measure(state, s, Synthetic(n));
      })->Unit(benchmark::kMillisecond);
    }
  }
}

void RegisterDense() {
  for (const std::size_t n : {10000, 100000, 1000000}) {
    for (const StrategyInfo& s : AllStrategies()) {
      if (!s.IsHeuristic()) continue;  // optimal_bench measures the search
      if (s.max_records != 0 && n > s.max_records) continue;
      const std::string name = "dense/" +
                               std::string(ApproachName(s.approach)) + "/" +
                               std::string(s.name) + "/" + std::to_string(n);
      benchmark::RegisterBenchmark(
          name.c_str(),
          [&s, n](benchmark::State& state) { Measure(state, s, Dense(n)); })
          ->Unit(benchmark::kMillisecond)
          ->Iterations(1);
    }
  }
}

void RegisterMiniMalloc() {
  const std::filesystem::path dir =
      std::filesystem::path(ARENAPLAN_SHARED_DIR) / "benchmarks" /
      "minimalloc-challenging";
  if (!std::filesystem::is_directory(dir)) return;
  std::vector<std::filesystem::path> files;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    if (e.path().extension() == ".csv") files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  static std::map<std::string, Instance> loaded;
  for (const auto& file : files) {
    Instance inst;
    for (const TensorUsageRecord& r : LoadCsvProblem(file.string()).records) {
      if (r.size > 0) inst.records.push_back(r);
    }
    inst.summary = SummarizeProfiles(inst.records);
    const std::string stem = file.stem().string();
    const Instance& ref = loaded.emplace(stem, std::move(inst)).first->second;
    for (const StrategyInfo& s : AllStrategies()) {
      if (!s.IsHeuristic()) continue;  // optimal_bench measures the search
      if (s.max_records != 0 && ref.records.size() > s.max_records) continue;
      const std::string name = "minimalloc/" + stem + "/" +
                               ApproachText(s.approach) + "/" +
                               std::string(s.name);
      benchmark::RegisterBenchmark(name.c_str(), [&s, &ref](
                                                     benchmark::State& state) {
        Measure(state, s, ref);
      })->Unit(benchmark::kMillisecond);
    }
  }
}

}  // namespace
}  // namespace arenaplan

int main(int argc, char** argv) {
  arenaplan::RegisterSynthetic();
  arenaplan::RegisterMiniMalloc();
  arenaplan::RegisterDense();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
