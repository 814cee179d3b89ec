// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The strategy registry. Adding a strategy: one file under
// codegen/strategies/, its declaration in strategies.hpp and one line in the
// table below.
#include <array>

#include "codegen/strategies/strategies.hpp"
#include "codegen/strategies/strategy.hpp"

namespace arenaplan {

namespace {

constexpr auto kStrategies = std::to_array<StrategyInfo>({
    // --- Offset Calculation (§5) ---
    {Approach::kOffsets, "greedy-by-size",
     "Greedy by Size, smallest fitting gap (Alg. 3, §5.2)",
     &OffsetsGreedyBySize, nullptr, 0, nullptr, &OffsetsGreedyBySizeOverlap},
    {Approach::kOffsets, "greedy-by-breadth",
     "Greedy by Breadth, smallest fitting gap (§5.3)", &OffsetsGreedyByBreadth,
     nullptr, 0, nullptr, &OffsetsGreedyByBreadthOverlap},
    {Approach::kOffsets, "greedy-in-order",
     "prior work Greedy (Lee et al. 2019): execution order, best-fit gap",
     &OffsetsGreedyInOrder, nullptr, 0, nullptr, &OffsetsGreedyInOrderOverlap},
    {Approach::kOffsets, "strip-packing-best-fit",
     "prior work Strip Packing Best-fit (Sekiyama et al. 2018)",
     &OffsetsStripPackingBestFit, nullptr, 0},
    {Approach::kOffsets, "naive", "every tensor its own bytes (baseline)",
     &OffsetsNaive, nullptr, 0},
    // --- Shared Objects (§4) ---
    {Approach::kSharedObjects, "greedy-by-size-improved",
     "Greedy by Size Improved: stages by positional maximum, smallest gap "
     "(§4.4)",
     nullptr, &SharedObjectsGreedyBySizeImproved, 0},
    {Approach::kSharedObjects, "greedy-by-size",
     "Greedy by Size, smallest suitable object (Alg. 2, §4.3)", nullptr,
     &SharedObjectsGreedyBySize, 0},
    {Approach::kSharedObjects, "greedy-by-breadth",
     "Greedy by Breadth (Alg. 1, §4.2)", nullptr, &SharedObjectsGreedyByBreadth,
     0},
    {Approach::kSharedObjects, "greedy-in-order",
     "prior work Greedy (Lee et al. 2019): execution order, free-object pool",
     nullptr, &SharedObjectsGreedyInOrder, 0},
    // O(n^3) worst case (0.8 s at 2,000 records): `best`/`all` skip it above.
    {Approach::kSharedObjects, "min-cost-flow",
     "prior work Min-cost Flow (Lee et al. 2019)", nullptr,
     &SharedObjectsMinCostFlow, 2000},
    {Approach::kSharedObjects, "naive", "one object per tensor (baseline)",
     nullptr, &SharedObjectsNaive, 0},
    // --- Searches: run from the best heuristic plan of their approach ---
    {Approach::kOffsets, "optimal",
     "exact search: branch and bound from the best heuristic, proves the "
     "smallest arena or the gap left when time runs out",
     nullptr, nullptr, 0, &SolveOffsetsExactly},
});

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
