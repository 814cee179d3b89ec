// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The strategy registry. Adding a strategy: one file under
// codegen/strategies/, its declaration in strategies.hpp and one entry in
// the table below; the CLI (`arenaplan strategies`), the planner, the tests
// and tests/golden/make_golden.sh all iterate this table.
#include <array>

#include "codegen/strategies/strategies.hpp"
#include "codegen/strategies/strategy.hpp"

namespace arenaplan {

namespace {

constexpr StrategyKind kHeuristic = StrategyKind::kHeuristic;
constexpr StrategyKind kSearch = StrategyKind::kSearch;

constexpr auto kStrategies = std::to_array<StrategyInfo>({
    // --- Offset Calculation (§5) ---
    {.name = "greedy-by-size",
     .approach = Approach::kOffsets,
     .kind = kHeuristic,
     .reference = "Greedy by Size, smallest fitting gap (Alg. 3, §5.2)",
     .offsets = &OffsetsGreedyBySize,
     .offsets_overlap = &OffsetsGreedyBySizeOverlap},
    {.name = "greedy-by-breadth",
     .approach = Approach::kOffsets,
     .kind = kHeuristic,
     .reference = "Greedy by Breadth, smallest fitting gap (§5.3)",
     .offsets = &OffsetsGreedyByBreadth,
     .offsets_overlap = &OffsetsGreedyByBreadthOverlap},
    {.name = "greedy-in-order",
     .approach = Approach::kOffsets,
     .kind = kHeuristic,
     .reference =
         "prior work Greedy (Lee et al. 2019): execution order, best-fit gap",
     .offsets = &OffsetsGreedyInOrder,
     .offsets_overlap = &OffsetsGreedyInOrderOverlap},
    {.name = "strip-packing-best-fit",
     .approach = Approach::kOffsets,
     .kind = kHeuristic,
     .reference = "prior work Strip Packing Best-fit (Sekiyama et al. 2018)",
     .offsets = &OffsetsStripPackingBestFit,
     .offsets_overlap = &OffsetsStripPackingBestFitOverlap},
    {.name = "naive",
     .approach = Approach::kOffsets,
     .kind = kHeuristic,
     .reference = "every tensor its own bytes (baseline)",
     .offsets = &OffsetsNaive},
    // --- Shared Objects (§4) ---
    {.name = "greedy-by-size-improved",
     .approach = Approach::kSharedObjects,
     .kind = kHeuristic,
     .reference = "Greedy by Size Improved: stages by positional maximum, "
                  "smallest gap (§4.4)",
     .shared_objects = &SharedObjectsGreedyBySizeImproved},
    {.name = "greedy-by-size",
     .approach = Approach::kSharedObjects,
     .kind = kHeuristic,
     .reference = "Greedy by Size, smallest suitable object (Alg. 2, §4.3)",
     .shared_objects = &SharedObjectsGreedyBySize},
    {.name = "greedy-by-breadth",
     .approach = Approach::kSharedObjects,
     .kind = kHeuristic,
     .reference = "Greedy by Breadth (Alg. 1, §4.2)",
     .shared_objects = &SharedObjectsGreedyByBreadth},
    {.name = "greedy-in-order",
     .approach = Approach::kSharedObjects,
     .kind = kHeuristic,
     .reference = "prior work Greedy (Lee et al. 2019): execution order, "
                  "free-object pool",
     .shared_objects = &SharedObjectsGreedyInOrder},
    // O(n^3) worst case (0.8 s at 2,000 records): `best`/`all` skip it above.
    {.name = "min-cost-flow",
     .approach = Approach::kSharedObjects,
     .kind = kHeuristic,
     .reference = "prior work Min-cost Flow (Lee et al. 2019)",
     .shared_objects = &SharedObjectsMinCostFlow,
     .max_records = 2000},
    {.name = "naive",
     .approach = Approach::kSharedObjects,
     .kind = kHeuristic,
     .reference = "one object per tensor (baseline)",
     .shared_objects = &SharedObjectsNaive},
    // --- Searches: run from the best heuristic plan of their approach ---
    {.name = "optimal",
     .approach = Approach::kOffsets,
     .kind = kSearch,
     .reference = "exact search: branch and bound from the best heuristic, "
                  "proves the smallest arena or the gap left when time runs "
                  "out (docs/optimal.md)",
     .search = &SolveOffsetsExactly},
});

// Every entry is well formed (a heuristic has exactly the function of its
// approach, a search only its search): tests/host/strategies/registry_test.cpp.
// (Not a static_assert: with the sanitizers GCC does not fold a function's
// address compared with null.)

}  // namespace

std::string_view ApproachName(Approach approach) {
  return approach == Approach::kOffsets ? "offsets" : "shared-objects";
}

std::optional<Approach> ApproachFromName(std::string_view name) {
  for (Approach a : {Approach::kOffsets, Approach::kSharedObjects}) {
    if (ApproachName(a) == name) return a;
  }
  return std::nullopt;
}

std::span<const StrategyInfo> AllStrategies() { return kStrategies; }

const StrategyInfo* FindStrategy(Approach approach, std::string_view name) {
  for (const StrategyInfo& s : kStrategies) {
    if (s.approach == approach && s.name == name) return &s;
  }
  return nullptr;
}

const StrategyInfo* FindSearch(Approach approach) {
  for (const StrategyInfo& s : kStrategies) {
    if (s.approach == approach && !s.IsHeuristic()) return &s;
  }
  return nullptr;
}

OffsetsAssignment ObjectsToOffsets(const SharedObjectsAssignment& objects) {
  std::vector<std::uint64_t> object_offset(objects.object_sizes.size());
  std::uint64_t next = 0;
  for (std::size_t k = 0; k < objects.object_sizes.size(); ++k) {
    object_offset[k] = next;
    next += objects.object_sizes[k];
  }
  OffsetsAssignment out;
  out.offsets.reserve(objects.object_of.size());
  for (std::size_t obj : objects.object_of) {
    // An object index out of range gets offset 0 here; the validator
    // reports it (kObjectTooSmall), so it is never read out of bounds.
    out.offsets.push_back(obj < object_offset.size() ? object_offset[obj] : 0);
  }
  return out;
}

}  // namespace arenaplan
